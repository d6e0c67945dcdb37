//! The greedy agent: one-step lookahead on the game's value estimate.
//!
//! Variant implemented. For each of `samples` determinizations of the agent's information
//! set ([`View::determinize`]):
//! - at a turn-based node, every legal action is applied to a copy (chance after it is
//!   sampled) and the resulting state is evaluated;
//! - at a simultaneous node, every legal action is paired with every combination of the
//!   other acting seats' legal actions (at most [`MAX_COMBOS`]; beyond that, that many
//!   uniformly sampled combinations), i.e. the agent maximises its expected evaluation
//!   against uniformly random opponent choices.
//!
//! The evaluation is the seat's entry of [`GameState::value`](crate::game::GameState::value), an estimate of the game's returns
//! in the same units (the returns themselves at a terminal state). The action with the
//! best mean wins; exact ties are broken uniformly at random.

use rand::RngExt;

use super::{ActionStat, Agent, canonical_spec};
use crate::game::{JointAction, MAX_PLAYERS, Playable, Seat, Turn, View};
use crate::params::ParamError;
use crate::rng::SimRng;

/// One line for `sim list`.
pub const DESCRIPTION: &str =
    "one-step lookahead on the game's value estimate; uniform opponents at simultaneous nodes";

/// Largest number of opponent action combinations enumerated at a simultaneous node.
pub const MAX_COMBOS: usize = 256;

crate::param_set! {
    /// Settings of the greedy agent.
    pub struct Params {
        /// Determinizations (each with fresh chance) averaged per candidate action; >= 1.
        pub samples: u32 = 4,
    }
    validate = check_params;
}

/// Rejects `samples = 0`: the agent could not evaluate anything, and silently running it
/// as 1 would record a spec that was not played.
fn check_params(p: &Params, owner: &str) -> Result<(), ParamError> {
    if p.samples == 0 {
        return Err(ParamError::BadValue {
            key: "samples".into(),
            value: p.samples.to_string(),
            owner: owner.into(),
            expected: "an integer >= 1".into(),
        });
    }
    Ok(())
}

/// The greedy agent; buffers are reused, so decisions allocate only clones of the state.
#[derive(Debug)]
pub struct GreedyAgent<G: Playable> {
    params: Params,
    mine: Vec<G::Action>,
    others: [Vec<G::Action>; MAX_PLAYERS],
    values: Vec<f64>,
}

impl<G: Playable> GreedyAgent<G> {
    /// A greedy agent with these settings. Specs reject `samples = 0`; a value built by
    /// hand is raised to 1, and [`Agent::spec`] reports the value played.
    pub fn new(mut params: Params) -> Self {
        params.samples = params.samples.max(1);
        GreedyAgent {
            params,
            mine: Vec::new(),
            others: Default::default(),
            values: Vec::new(),
        }
    }

    /// Fills `self.values` with the summed evaluations over `samples` determinizations of
    /// each action in `self.mine` (the seat's legal actions).
    fn evaluate_actions(&mut self, view: &View<'_, G>, rng: &mut SimRng) {
        let seat = view.seat();
        self.values.clear();
        self.values.resize(self.mine.len(), 0.0);
        for _ in 0..self.params.samples {
            let world = view.determinize(rng);
            match world.turn() {
                Turn::Player(_) => {
                    for (i, &a) in self.mine.iter().enumerate() {
                        let mut w = world.clone();
                        w.apply_unchecked(seat, a, rng);
                        self.values[i] += evaluate(&w, seat);
                    }
                }
                Turn::Simultaneous(set) => {
                    let mut total = 1usize;
                    for p in set.iter().filter(|&p| p != seat) {
                        world.legal_actions(p, &mut self.others[p]);
                        total = total.saturating_mul(self.others[p].len());
                    }
                    let enumerate = total <= MAX_COMBOS;
                    let combos = if enumerate { total } else { MAX_COMBOS };
                    for (i, &a) in self.mine.iter().enumerate() {
                        let mut sum = 0.0;
                        for c in 0..combos {
                            let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
                            joint[seat] = Some(a);
                            let mut rest = c;
                            for p in set.iter().filter(|&p| p != seat) {
                                let opts = &self.others[p];
                                let k = if enumerate {
                                    let k = rest % opts.len();
                                    rest /= opts.len();
                                    k
                                } else {
                                    rng.random_range(0..opts.len())
                                };
                                joint[p] = Some(opts[k]);
                            }
                            let mut w = world.clone();
                            w.apply_joint_unchecked(&joint, rng);
                            sum += evaluate(&w, seat);
                        }
                        self.values[i] += sum / combos as f64;
                    }
                }
                Turn::Terminal => unreachable!("determinize kept the turn"),
            }
        }
    }
}

/// The greedy evaluation of `state` for `seat`: its entry of [`GameState::value`](crate::game::GameState::value), in the units
/// of the game's returns.
#[inline]
pub fn evaluate<G: Playable>(state: &G, seat: Seat) -> f64 {
    state.value()[seat]
}

impl<G: Playable> Agent<G> for GreedyAgent<G> {
    fn spec(&self) -> String {
        canonical_spec("greedy", &self.params)
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        view.legal_actions(&mut self.mine);
        assert!(
            !self.mine.is_empty(),
            "greedy agent asked to act with no legal action"
        );
        if self.mine.len() == 1 {
            return self.mine[0];
        }
        self.evaluate_actions(view, rng);
        let best = self
            .values
            .iter()
            .cloned()
            .fold(f64::NEG_INFINITY, f64::max);
        let mut chosen = 0;
        let mut ties = 0u32;
        for (i, &v) in self.values.iter().enumerate() {
            if v == best {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    chosen = i;
                }
            }
        }
        self.mine[chosen]
    }

    /// The mean evaluation of each action over the `samples` determinizations (what `act`
    /// maximises).
    fn analyze(
        &mut self,
        view: &View<'_, G>,
        rng: &mut SimRng,
    ) -> Option<Vec<ActionStat<G::Action>>> {
        view.legal_actions(&mut self.mine);
        assert!(
            !self.mine.is_empty(),
            "greedy agent asked to analyze with no legal action"
        );
        self.evaluate_actions(view, rng);
        let samples = f64::from(self.params.samples);
        Some(
            self.mine
                .iter()
                .zip(&self.values)
                .map(|(&action, &v)| ActionStat {
                    value: Some(v / samples),
                    ..ActionStat::new(action)
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamSet;

    #[test]
    fn zero_samples_is_rejected_naming_the_bound() {
        let e = Params::from_settings(&["samples=0"], "agent greedy")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("'samples'") && e.contains("'0'") && e.contains(">= 1"),
            "{e}"
        );
        assert_eq!(
            Params::from_settings(&["samples=1"], "agent greedy")
                .unwrap()
                .samples,
            1
        );
        let e = crate::agents::canonicalize("greedy:samples=0")
            .unwrap_err()
            .to_string();
        assert!(e.contains("samples") && e.contains(">= 1"), "{e}");
    }
}
