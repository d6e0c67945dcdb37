//! Playouts (rollouts) shared by the search agents, and their parameter words.
//!
//! A playout continues a state from a search leaf and returns one reward per seat, in the
//! units of [`GameState::returns`](crate::game::GameState::returns):
//! - at a terminal state: [`GameState::returns`](crate::game::GameState::returns);
//! - after `depth` plies without reaching the end (`depth = 0`: no cut-off), or once
//!   `rounds` rounds have ended since the playout began ([`GameState::round`](crate::game::GameState::round) has grown by
//!   `rounds`; `rounds = 1` stops at the end of the current round, `0`: no cut-off),
//!   whichever comes first: the game's value estimate [`GameState::value`](crate::game::GameState::value), which is in the
//!   same units, so a cut-off leaf and a terminal leaf compare fairly at any player count.
//!   A round cut-off suits games whose value estimate is sharpest between rounds (after
//!   the round's scoring), such as Daimyo.
//!
//! Policies:
//! - `random`: every acting seat plays a uniformly random legal action;
//! - `greedy`: epsilon-greedy one-step lookahead on the value estimate: with probability
//!   `epsilon` a seat plays uniformly at random, otherwise the action whose successor
//!   (chance after it sampled once) evaluates best for it ([`greedy::evaluate`]). At a
//!   simultaneous node the other acting seats' actions are fixed to one uniformly random
//!   legal joint choice while a seat evaluates its own options. Exact ties are broken
//!   uniformly at random.
//!
//! A playout allocates nothing once its buffers have grown.
//!
//! [`greedy::evaluate`]: super::greedy::evaluate

use rand::RngExt;

use super::greedy::evaluate;
use crate::game::{JointAction, MAX_PLAYERS, PerSeat, Playable, Seat, Turn};
use crate::rng::SimRng;

crate::param_enum! {
    /// The playout policy.
    pub enum Policy {
        /// Uniformly random legal actions.
        Random = "random",
        /// Epsilon-greedy one-step lookahead on the value estimate.
        Greedy = "greedy",
    }
}

/// The value of a state cut off before the end: [`GameState::value`](crate::game::GameState::value) (which equals
/// [`GameState::returns`](crate::game::GameState::returns) when terminal), in the units of `returns`.
#[inline]
pub fn leaf_value<G: Playable>(state: &G) -> PerSeat<f64> {
    state.value()
}

/// A playout policy with its reused buffers.
#[derive(Debug, Clone)]
pub struct Rollout<G: Playable> {
    policy: Policy,
    epsilon: f64,
    depth: u32,
    rounds: u32,
    bufs: [Vec<G::Action>; MAX_PLAYERS],
}

impl<G: Playable> Rollout<G> {
    /// A playout with this policy, random-move probability `epsilon` (greedy only),
    /// cut-off `depth` in plies and cut-off `rounds` in rounds (0 = none; see the module
    /// docs).
    pub fn new(policy: Policy, epsilon: f64, depth: u32, rounds: u32) -> Self {
        Rollout {
            policy,
            epsilon: epsilon.clamp(0.0, 1.0),
            depth,
            rounds,
            bufs: Default::default(),
        }
    }

    /// Plays `state` on (in place) and returns the reward of each seat in the units of
    /// [`GameState::returns`](crate::game::GameState::returns) (see the module docs). The state is played out
    /// ([`GameState::start_playout`](crate::game::GameState::start_playout)): no information state may be asked of it afterwards.
    pub fn run(&mut self, state: &mut G, rng: &mut SimRng) -> PerSeat<f64> {
        state.start_playout();
        let mut plies = 0u32;
        let last_round = if self.rounds > 0 {
            state.round().saturating_add(self.rounds)
        } else {
            u32::MAX
        };
        loop {
            let turn = state.turn();
            if turn.is_terminal() {
                return state.returns();
            }
            if (self.depth > 0 && plies >= self.depth)
                || (self.rounds > 0 && state.round() >= last_round)
            {
                return leaf_value(state);
            }
            plies += 1;
            match (self.policy, turn) {
                (Policy::Random, Turn::Player(p)) => {
                    let a = state.random_action(p, &mut self.bufs[p], rng);
                    state.apply_unchecked(p, a, rng);
                }
                (Policy::Random, Turn::Simultaneous(set)) => {
                    let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
                    for p in set.iter() {
                        joint[p] = Some(state.random_action(p, &mut self.bufs[p], rng));
                    }
                    state.apply_joint_unchecked(&joint, rng);
                }
                (Policy::Greedy, Turn::Player(p)) => {
                    state.legal_actions(p, &mut self.bufs[p]);
                    let a = self.greedy_turn(state, p, rng);
                    state.apply_unchecked(p, a, rng);
                }
                (Policy::Greedy, Turn::Simultaneous(set)) => {
                    let mut base: JointAction<G::Action> = [None; MAX_PLAYERS];
                    for p in set.iter() {
                        let buf = &mut self.bufs[p];
                        state.legal_actions(p, buf);
                        base[p] = Some(buf[rng.random_range(0..buf.len())]);
                    }
                    let mut joint = base;
                    for p in set.iter() {
                        joint[p] = Some(self.greedy_simultaneous(state, p, &base, rng));
                    }
                    state.apply_joint_unchecked(&joint, rng);
                }
                (_, Turn::Terminal) => unreachable!(),
            }
        }
    }

    /// Epsilon-greedy choice of `p` at a turn-based node; `bufs[p]` holds its legal actions.
    fn greedy_turn(&self, state: &G, p: Seat, rng: &mut SimRng) -> G::Action {
        self.epsilon_greedy(p, rng, |a, rng| {
            let mut w = state.clone();
            w.apply_unchecked(p, a, rng);
            evaluate(&w, p)
        })
    }

    /// Epsilon-greedy choice of `p` at a simultaneous node against the others' actions in
    /// `base`; `bufs[p]` holds its legal actions.
    fn greedy_simultaneous(
        &self,
        state: &G,
        p: Seat,
        base: &JointAction<G::Action>,
        rng: &mut SimRng,
    ) -> G::Action {
        self.epsilon_greedy(p, rng, |a, rng| {
            let mut joint = *base;
            joint[p] = Some(a);
            let mut w = state.clone();
            w.apply_joint_unchecked(&joint, rng);
            evaluate(&w, p)
        })
    }

    /// With probability `epsilon` a uniformly random action of `bufs[p]`, otherwise the one
    /// whose `value` is highest, exact ties broken uniformly at random (reservoir sampling).
    fn epsilon_greedy(
        &self,
        p: Seat,
        rng: &mut SimRng,
        mut value: impl FnMut(G::Action, &mut SimRng) -> f64,
    ) -> G::Action {
        let legal = &self.bufs[p];
        if legal.len() == 1 {
            return legal[0];
        }
        if rng.random::<f64>() < self.epsilon {
            return legal[rng.random_range(0..legal.len())];
        }
        let mut best = f64::NEG_INFINITY;
        let mut chosen = legal[0];
        let mut ties = 0u32;
        for &a in legal {
            let v = value(a, rng);
            if v > best {
                best = v;
                chosen = a;
                ties = 1;
            } else if v == best {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    chosen = a;
                }
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameState, default_rules};
    use crate::games::race::Race;
    use crate::rng::test_rng;

    /// Plays a random playout of the default Race (4 rounds) with these cut-offs and
    /// returns the state where it stopped.
    fn stop(depth: u32, rounds: u32) -> Race {
        let mut rng = test_rng(7);
        let mut state = Race::new_game(default_rules::<Race>(), &mut rng);
        let mut r = Rollout::<Race>::new(Policy::Random, 0.0, depth, rounds);
        let v = r.run(&mut state, &mut rng);
        assert_eq!(
            v,
            state.value(),
            "a cut-off leaf is scored by the value estimate"
        );
        state
    }

    #[test]
    fn playouts_stop_at_the_round_or_ply_cut_off() {
        assert!(stop(0, 0).turn().is_terminal());
        let s = stop(0, 1);
        assert!(!s.turn().is_terminal());
        assert_eq!(s.round(), 2, "stopped as round 2 began");
        let s = stop(0, 2);
        assert_eq!((s.round(), s.ply()), (3, 4));
        let s = stop(1, 2);
        assert_eq!(s.ply(), 1, "the ply cut-off comes first");
    }
}
