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
//! - `mast`: the Move-Average Sampling Technique (Finnsson & Björnsson 2008, "Simulation-
//!   Based Approach to General Game Playing", AAAI; the epsilon-greedy form of Tak, Winands
//!   & Björnsson 2012, "N-Grams and the Last-Good-Reply Policy Applied in General Game
//!   Playing", IEEE TCIAIG 4(2)). One table per search holds, for every (seat, action id),
//!   the mean reward of that seat over the iterations in which it played the action
//!   anywhere (in the tree or in a playout): the search reports its tree actions
//!   ([`Rollout::note`]) and each iteration's rewards ([`Rollout::learn`]). In a playout a
//!   seat plays, with probability `epsilon`, a uniformly random legal action, otherwise the
//!   one with the highest mean (an action never played counts as best, so each is tried;
//!   exact ties uniformly at random). The table starts empty at every decision
//!   ([`Rollout::begin_search`]).
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
        /// Epsilon-greedy on the mean reward of each action id (MAST).
        Mast = "mast",
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
    /// MAST: `(reward sum, plays)` per `seat * NUM_ACTION_IDS + action id`.
    mast: Vec<(f64, u32)>,
    /// MAST: the `(seat, action id)` pairs played in this iteration.
    played: Vec<(u8, u32)>,
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
            mast: Vec::new(),
            played: Vec::new(),
        }
    }

    /// Starts a search: empties the MAST table (keeping its memory). Nothing for the other
    /// policies.
    pub fn begin_search(&mut self) {
        if self.policy == Policy::Mast {
            self.mast.clear();
            self.mast.resize(MAX_PLAYERS * G::NUM_ACTION_IDS, (0.0, 0));
            self.played.clear();
        }
    }

    /// MAST: `seat` played `action` in the tree in this iteration. Nothing for the other
    /// policies.
    #[inline]
    pub fn note(&mut self, seat: Seat, action: G::Action) {
        if self.policy == Policy::Mast {
            self.played.push((seat as u8, G::action_id(action) as u32));
        }
    }

    /// MAST: the iteration ended with `rewards`: each action noted or played in it adds
    /// its seat's reward to its mean. Nothing for the other policies.
    pub fn learn(&mut self, rewards: &PerSeat<f64>) {
        if self.policy != Policy::Mast {
            return;
        }
        for &(seat, id) in &self.played {
            let cell = &mut self.mast[seat as usize * G::NUM_ACTION_IDS + id as usize];
            cell.0 += rewards[seat as usize];
            cell.1 += 1;
        }
        self.played.clear();
    }

    /// MAST: the `(reward sum, plays)` of `seat`'s action id `id` (tests).
    #[cfg(test)]
    pub(crate) fn mast_cell(&self, seat: Seat, id: usize) -> (f64, u32) {
        self.mast[seat * G::NUM_ACTION_IDS + id]
    }

    /// One MAST ply of a playout at a decision node. Kept out of line so that the random
    /// playout loop, the default, stays as small (and as fast) as before MAST.
    #[inline(never)]
    fn mast_ply(&mut self, state: &mut G, turn: Turn, rng: &mut SimRng) {
        match turn {
            Turn::Player(p) => {
                state.legal_actions(p, &mut self.bufs[p]);
                let a = self.mast_choice(p, rng);
                state.apply_unchecked(p, a, rng);
            }
            Turn::Simultaneous(set) => {
                let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
                for p in set.iter() {
                    state.legal_actions(p, &mut self.bufs[p]);
                    joint[p] = Some(self.mast_choice(p, rng));
                }
                state.apply_joint_unchecked(&joint, rng);
            }
            Turn::Terminal => unreachable!("a playout stops at the end"),
        }
    }

    /// MAST's choice for `p` among `bufs[p]` (non-empty): epsilon-greedy on the mean
    /// reward, unplayed actions first, ties uniformly at random. Records the choice.
    fn mast_choice(&mut self, p: Seat, rng: &mut SimRng) -> G::Action {
        let row = &self.mast[p * G::NUM_ACTION_IDS..(p + 1) * G::NUM_ACTION_IDS];
        let chosen = self.epsilon_greedy(p, rng, |a, _| {
            let (sum, n) = row[G::action_id(a)];
            if n == 0 {
                f64::INFINITY
            } else {
                sum / f64::from(n)
            }
        });
        self.played.push((p as u8, G::action_id(chosen) as u32));
        chosen
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
                (Policy::Mast, turn) => self.mast_ply(state, turn, rng),
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

    /// A MAST playout with `epsilon = 0` follows its table: taught that step 3 (id 3) pays
    /// most and bonus 1 (id 1) more than bonus 0, a 2-player Race ends with both seats at
    /// 14 or more (4 rounds of step 3 and a die of 0-2, and a bonus of 1 in each seat's 2
    /// leads), at every seed. Uniform playouts (MAST removed) reach 14 about 40% of the time.
    #[test]
    fn mast_playouts_follow_the_table() {
        for seed in 0..8 {
            let mut rng = test_rng(seed);
            let mut state = Race::new_game(default_rules::<Race>(), &mut rng);
            let mut r = Rollout::<Race>::new(Policy::Mast, 0.0, 0, 0);
            r.begin_search();
            for seat in 0..2 {
                for (id, q) in [(0, 0.0), (1, 0.9), (2, 0.0), (3, 1.0)] {
                    r.mast[seat * 4 + id] = (q, 1);
                }
            }
            r.run(&mut state, &mut rng);
            let pos = state.scores();
            assert!(pos[0] >= 14 && pos[1] >= 14, "seed {seed}: {pos:?}");
            // Every action played was recorded for learning: 4 steps and 2 bonuses per seat.
            assert_eq!(r.played.len(), 12);
            r.learn(&[1.0; MAX_PLAYERS]);
            assert_eq!(
                r.mast[3],
                (5.0, 5),
                "seat 0: step 3 in each of 4 rounds, reward 1 each"
            );
        }
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
