//! # Race: the example game
//!
//! A complete, tiny game that shows every part of the [`GameState`] API (the checklist in
//! [`crate::games`] refers to it), and the runner's test game: seat rotation, statistics
//! and determinism are tested on it independently of the real games. It is not in the
//! registry, so `sim` does not offer it.
//!
//! Rules: 2–4 players, `rounds` rounds (a variant, default 4; one value for every player
//! count or one per count, `6/5/4`, showing a per-player-count parameter). Each round has
//! two plies:
//! 1. all seats choose a step of 1–3 at once (a simultaneous node), then each seat adds a
//!    die roll of 0–2 (chance);
//! 2. the round's leader (round mod players) chooses a bonus of 0 or 1 (a turn-based node).
//!
//! Score = position; rank by score (ties share a rank, so draws happen). Seat 0 has a small
//! built-in edge (it leads first), which the seat statistics must show. Nothing is hidden
//! (the dice are drawn lazily), so [`GameState::determinize`] is a clone and the observation is
//! the whole state.
//!
//! Value estimate: the win share of a softmax over positions with a temperature of 3 steps
//! ([`crate::game::win_share_from_scores`]).
//!
//! ## Information state and observation tensor
//!
//! Every step, roll and bonus is public once played, so every seat has the same
//! information: the positions, the ply, and how they came about. A state cannot hold the
//! whole history (up to 1,000 rounds), so it keeps a running digest of it (`history`,
//! updated by every apply with each seat's step and roll, or the leader's bonus); the
//! information state string ([`GameState::information_state_string`]) is the observation
//! followed by that digest in hex, and [`GameState::info_key`] digests the positions, the ply
//! and the digest. Two different histories give different strings (up to 64-bit
//! collisions): perfect recall.
//!
//! The observation tensor (`3 n + 4` values for `n` players; "seat-relative" lists the
//! observer first, then the seats after it):
//!
//! | field | length | encoding |
//! |---|---|---|
//! | `player` | `n` | one-hot of the observing seat |
//! | `positions` | `n` | positions, seat-relative, / `7 · rounds` (the most a seat can reach) |
//! | `round` | 1 | rounds completed / `rounds` |
//! | `node` | 2 | one-hot: steps (simultaneous), the leader's bonus; zeros when over |
//! | `leader` | `n` | one-hot of this round's leader, seat-relative; zeros when over |
//! | `over` | 1 | 1 when the game is over |

use crate::game::InvalidState;
use crate::game::{ChanceMode, Dynamics, GameType, Information, Rules, TensorField, UtilityKind};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::game::{
    Chance, GameState, JointAction, MAX_PLAYERS, Measured, PerSeat, RulesRef, RunningScore, Seat,
    SeatSet, Turn,
};
use crate::params::{ParamError, PerCount};
use crate::rng::SimRng;

fn check(p: &Params, owner: &str) -> Result<(), ParamError> {
    if let Some(r) = p.rounds.values().iter().find(|&&r| r == 0 || r > 1000) {
        return Err(ParamError::Invalid {
            owner: owner.to_string(),
            reason: format!("rounds = {r} is outside 1..=1000"),
        });
    }
    Ok(())
}

crate::param_set! {
    /// Race variants.
    pub struct Params {
        /// Number of rounds, 1..=1000: one value, or one per player count 2/3/4.
        pub rounds: PerCount<u32> = PerCount::all(4),
        /// If nonzero, the bound `max_plies` claims (to simulate a buggy game).
        pub claimed_bound: u32 = 0,
        /// A variant that exists only at 2 players (to test validation with the player count): the leader's bonus is 2 instead of 1.
        pub duel_bonus: bool = false,
    }
    validate = check;
}

/// A step (1–3) at the simultaneous node, or a bonus (0–1) at the leader's node. Written as
/// the number; id = the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Action(pub u8);

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The race state: positions and the ply counter, plus the rules and the digest of the
/// public history. Saved as `{"rules", "pos": [4 positions, unused seats 0], "ply",
/// "history"}`; a saved position without `history` loads with 0 (the digest then covers
/// the moves after loading).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Race {
    rules: RulesRef<Race>,
    pos: PerSeat<i32>,
    ply: u32,
    /// Running digest of every step, roll and bonus (module docs).
    #[serde(default)]
    history: u64,
}

/// What a seat sees: everything (positions and ply), and who is looking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The observing seat.
    pub seat: Seat,
    /// Positions per seat.
    pub positions: PerSeat<i32>,
    /// Plies played.
    pub ply: u32,
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seat {} sees positions {:?} at ply {}",
            self.seat, self.positions, self.ply
        )
    }
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "positions {:?}", &self.pos[..self.rules.players()])
    }
}

impl Race {
    fn round_index(&self) -> u32 {
        self.ply / 2
    }

    fn n(&self) -> usize {
        self.rules.players()
    }

    /// Folds one public event (a seat's step and roll, or the leader's bonus) into the
    /// history digest.
    fn note(&mut self, event: u64) {
        self.history = crate::rng::mix64(self.history ^ event);
    }
}

impl GameState for Race {
    type Action = Action;
    type Params = Params;

    /// The number of rounds at this player count.
    type RulesData = u32;

    type Observation = Observation;

    const TYPE: GameType = GameType {
        short_name: "race",
        long_name: "Race (example)",
        description: "example dice race (not in the registry)",
        min_players: 2,
        max_players: 4,
        default_players: 2,
        dynamics: Dynamics::Simultaneous,
        chance_mode: ChanceMode::SampledStochastic,
        information: Information::Perfect,
        utility: UtilityKind::ConstantSum,
        num_action_ids: 4,
        perfect_recall: true,
    };

    /// `duel_bonus` exists only at 2 players; `rounds` is resolved for the player count
    /// (its number of values was checked against [`GameState::PLAYERS`] by [`crate::game::rules`]).
    fn build_rules(params: &Params, players: usize) -> Result<u32, ParamError> {
        if params.duel_bonus && players != 2 {
            return Err(ParamError::Invalid {
                owner: "game race".into(),
                reason: format!("duel_bonus=true exists only at 2 players, got {players}"),
            });
        }
        Ok(params.rounds.at(players, Self::PLAYERS))
    }

    fn new_game<C: Chance + ?Sized>(rules: RulesRef<Race>, _: &mut C) -> Self {
        Race {
            rules,
            pos: [0; MAX_PLAYERS],
            ply: 0,
            history: 0,
        }
    }

    fn rules(&self) -> RulesRef<Race> {
        self.rules
    }

    fn turn(&self) -> Turn {
        if self.round_index() >= *self.rules.data() {
            Turn::Terminal
        } else if self.ply % 2 == 0 {
            Turn::Simultaneous(SeatSet::all(self.n()))
        } else {
            Turn::Player(self.round_index() as usize % self.n())
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<Action>) {
        out.clear();
        if !self.turn().actors().contains(player) {
            return;
        }
        if self.ply % 2 == 0 {
            out.extend([Action(1), Action(2), Action(3)]);
        } else {
            out.extend([Action(0), Action(1)]);
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, player: Seat, action: Action, _: &mut C) {
        let factor = if self.rules.params().duel_bonus { 2 } else { 1 };
        self.pos[player] += factor * action.0 as i32;
        self.ply += 1;
        self.note(1 << 32 | (player as u64) << 8 | u64::from(action.0));
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(
        &mut self,
        joint: &JointAction<Action>,
        chance: &mut C,
    ) {
        let n = self.n();
        for (p, a) in joint.iter().enumerate().take(n) {
            let step = a.map_or(0, |a| a.0);
            let roll = chance.below(3);
            self.pos[p] += i32::from(step) + roll as i32;
            self.note(2 << 32 | (p as u64) << 16 | u64::from(step) << 8 | u64::from(roll));
        }
        self.ply += 1;
    }

    fn value(&self) -> PerSeat<f64> {
        if self.turn().is_terminal() {
            return self.returns();
        }
        let mut projected = [0.0; MAX_PLAYERS];
        for (p, v) in projected.iter_mut().enumerate() {
            *v = self.pos[p] as f64;
        }
        crate::game::win_share_from_scores(&projected, self.n(), 3.0)
    }

    fn scores(&self) -> PerSeat<i32> {
        self.pos
    }

    fn ranks(&self) -> PerSeat<u8> {
        crate::game::ranks_by_key(&self.pos, self.n())
    }

    /// The positions, the ply and the history digest: the same for every seat.
    fn info_key(&self, _: Seat) -> u64 {
        self.pos
            .iter()
            .fold(self.ply as u64 ^ self.history, |h, &x| {
                crate::rng::mix64(h ^ x as u64)
            })
    }

    /// The observation, then the history digest in hex (module docs).
    fn information_state_string(&self, seat: Seat) -> String {
        format!("{}; history {:016x}", self.observation(seat), self.history)
    }

    fn observation(&self, seat: Seat) -> Observation {
        Observation {
            seat,
            positions: self.pos,
            ply: self.ply,
        }
    }

    fn determinize(&self, _: Seat, _: &mut SimRng) -> Self {
        self.clone()
    }

    fn action_id(action: Action) -> usize {
        action.0 as usize
    }

    fn action_from_id(id: usize) -> Option<Action> {
        (id < 4).then_some(Action(id as u8))
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn round(&self) -> u32 {
        (self.round_index() + 1).min(*self.rules.data())
    }

    fn end_condition(&self) -> &'static str {
        if self.turn().is_terminal() {
            "rounds_done"
        } else {
            ""
        }
    }

    /// The ply is within the game; positions are non-negative and gain at most 7 per round
    /// (a step of 3, a roll of 2 and a bonus of at most 2); unused seats are at 0.
    fn validate(&self) -> Result<(), InvalidState> {
        let check = || -> Result<(), String> {
            let rounds = *self.rules.data();
            if self.ply > 2 * rounds {
                return Err(format!(
                    "ply {} after the last of {rounds} rounds",
                    self.ply
                ));
            }
            let most = 7 * self.ply.div_ceil(2) as i32;
            for (p, &x) in self.pos.iter().enumerate() {
                let range = if p < self.n() { 0..=most } else { 0..=0 };
                if !range.contains(&x) {
                    return Err(format!("seat {p} at position {x}, outside {range:?}"));
                }
            }
            Ok(())
        };
        check().map_err(InvalidState::of::<Self>)
    }

    fn max_plies(&self) -> u32 {
        let p = self.rules.params();
        if p.claimed_bound > 0 {
            p.claimed_bound
        } else {
            2 * *self.rules.data()
        }
    }

    /// Two plies per round (or the claimed bound, for the conformance harness's tests).
    fn max_game_length(rules: &Rules<Self>) -> u32 {
        let p = rules.params();
        if p.claimed_bound > 0 {
            p.claimed_bound
        } else {
            2 * *rules.data()
        }
    }

    /// `3 n + 4` values (module docs, "Information state and observation tensor").
    fn observation_layout(rules: &Rules<Self>) -> Vec<TensorField> {
        let n = rules.players();
        vec![
            TensorField::new("player", n, "one-hot of the observing seat"),
            TensorField::new(
                "positions",
                n,
                "positions, seat-relative (observer first), / (7 rounds)",
            ),
            TensorField::new("round", 1, "rounds completed / rounds"),
            TensorField::new(
                "node",
                2,
                "one-hot: steps (simultaneous), leader's bonus; zeros when over",
            ),
            TensorField::new(
                "leader",
                n,
                "one-hot of the round's leader, seat-relative; zeros when over",
            ),
            TensorField::new("over", 1, "1 when the game is over"),
        ]
    }

    /// Everything is public: positions, round and node.
    fn observation_tensor(&self, seat: Seat, out: &mut [f32]) {
        let n = self.n();
        assert_eq!(out.len(), 3 * n + 4, "race's observation tensor length");
        out.fill(0.0);
        let rounds = *self.rules.data();
        let rel = |q: Seat| (q + n - seat) % n;
        out[seat] = 1.0;
        for q in 0..n {
            out[n + rel(q)] = self.pos[q] as f32 / (7 * rounds) as f32;
        }
        out[2 * n] = self.round_index().min(rounds) as f32 / rounds as f32;
        if self.turn().is_terminal() {
            out[3 * n + 3] = 1.0;
        } else {
            out[2 * n + 1 + (self.ply % 2) as usize] = 1.0;
            out[2 * n + 3 + rel(self.round_index() as usize % n)] = 1.0;
        }
    }
}

impl Measured for Race {}

impl RunningScore for Race {
    /// Running score: the positions reached so far.
    const HAS_RUNNING_SCORE: bool = true;
}

pub mod log;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn race_passes_the_conformance_harness_at_every_count() {
        for players in 2..=4 {
            let cfg = crate::testing::Conformance::<Race> {
                params: Params::default(),
                players,
                games: 30,
                seed: 1,
                invariants: &|_| Ok(()),
                hidden: None,
                resamples: 1,
                determinize_every: 1,
            };
            let rep = crate::testing::check_random_games(&cfg).unwrap();
            assert!(rep.simultaneous_nodes > 0);
        }
    }

    #[test]
    fn race_passes_the_information_check_at_every_count() {
        for players in 2..=4 {
            let rules = crate::game::rules::<Race>(&Params::default(), players).unwrap();
            let rep = crate::testing::check_information(rules, 3, 20, 1, 1).unwrap();
            assert!(rep.information_states > 20, "{rep:?}");
        }
    }

    #[test]
    fn a_variant_that_does_not_exist_at_this_count_is_rejected() {
        let p = Params {
            duel_bonus: true,
            ..Params::default()
        };
        assert!(crate::game::rules::<Race>(&p, 2).is_ok());
        let e = crate::game::rules::<Race>(&p, 3).unwrap_err().to_string();
        assert!(e.contains("duel_bonus") && e.contains("3"), "{e}");
        let e = crate::game::rules::<Race>(&Params::default(), 5)
            .unwrap_err()
            .to_string();
        assert!(e.contains("2 to 4 players, got 5"), "{e}");
    }

    #[test]
    fn per_player_count_values_resolve_by_count_and_are_checked() {
        use crate::params::ParamSet;
        let p = Params::from_settings(&["rounds=6/5/4"], "game race").unwrap();
        for (n, want) in [(2, 6), (3, 5), (4, 4)] {
            assert_eq!(*crate::game::rules::<Race>(&p, n).unwrap().data(), want);
        }
        let bad = Params::from_settings(&["rounds=6/5"], "game race").unwrap();
        let e = crate::game::rules::<Race>(&bad, 2).unwrap_err().to_string();
        assert!(e.contains("rounds") && e.contains("'6/5'"), "{e}");
    }
}
