//! A tiny dice race used only by the runner's unit tests, so seat rotation, statistics and
//! determinism are testable independently of the real games.
//!
//! Rules: 2-3 players, `rounds` rounds (a variant, default 4). Each round has two plies:
//! 1. all seats choose a step of 1-3 at once (a simultaneous node), then each seat adds a
//!    die roll of 0-2 (chance);
//! 2. the round's leader (round mod players) chooses a bonus of 0 or 1 (a turn-based node).
//!
//! Score = position; rank by score (ties share a rank, so draws happen). Seat 0 has a small
//! built-in edge (it leads first), which the seat statistics must show.

use std::fmt;

use rand::RngExt;

use crate::game::{Game, GameError, JointAction, MAX_PLAYERS, PerPlayer, Player, PlayerSet, Turn};
use crate::rng::SimRng;

crate::param_set! {
    /// Dice race variants.
    pub struct Params {
        /// Number of rounds.
        pub rounds: u32 = 4,
        /// If nonzero, the bound `max_plies` claims (to simulate a buggy game).
        pub claimed_bound: u32 = 0,
    }
}

/// A step (1-3) at the simultaneous node, or a bonus (0-1) at the leader's node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Action(pub u8);

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The race state.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    n: usize,
    rounds: u32,
    claimed_bound: u32,
    pos: PerPlayer<i32>,
    ply: u32,
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "positions {:?}", &self.pos[..self.n])
    }
}

impl Race {
    fn round_index(&self) -> u32 {
        self.ply / 2
    }
}

impl Game for Race {
    type Action = Action;
    type Params = Params;
    const NAME: &'static str = "race";
    const DESCRIPTION: &'static str = "test dice race";
    const PLAYERS: (usize, usize) = (2, 3);
    const DEFAULT_PLAYERS: usize = 2;
    const NUM_ACTION_IDS: usize = 4;

    fn new_game(params: &Params, n: usize, _: &mut SimRng) -> Result<Self, GameError> {
        if !(2..=3).contains(&n) {
            return Err(GameError::PlayerCount {
                game: "race",
                min: 2,
                max: 3,
                got: n,
            });
        }
        Ok(Race {
            n,
            rounds: params.rounds,
            claimed_bound: params.claimed_bound,
            pos: [0; MAX_PLAYERS],
            ply: 0,
        })
    }
    fn num_players(&self) -> usize {
        self.n
    }
    fn turn(&self) -> Turn {
        if self.round_index() >= self.rounds {
            Turn::Terminal
        } else if self.ply % 2 == 0 {
            Turn::Simultaneous(PlayerSet::all(self.n))
        } else {
            Turn::Player(self.round_index() as usize % self.n)
        }
    }
    fn legal_actions(&self, player: Player, out: &mut Vec<Action>) {
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
    fn apply_unchecked(&mut self, player: Player, action: Action, _: &mut SimRng) {
        self.pos[player] += action.0 as i32;
        self.ply += 1;
    }
    fn apply_joint_unchecked(&mut self, joint: &JointAction<Action>, rng: &mut SimRng) {
        for (pos, a) in self.pos.iter_mut().zip(joint).take(self.n) {
            *pos += a.map_or(0, |a| a.0 as i32) + rng.random_range(0..3);
        }
        self.ply += 1;
    }
    fn scores(&self) -> PerPlayer<i32> {
        self.pos
    }
    fn ranks(&self) -> PerPlayer<u8> {
        crate::game::ranks_by_key(&self.pos, self.n)
    }
    fn info_key(&self, _: Player) -> u64 {
        self.pos
            .iter()
            .fold(self.ply as u64, |h, &x| crate::rng::mix64(h ^ x as u64))
    }
    fn determinize(&self, _: Player, _: &mut SimRng) -> Self {
        self.clone()
    }
    fn heuristic(&self, player: Player) -> f64 {
        let best_other = (0..self.n)
            .filter(|&q| q != player)
            .map(|q| self.pos[q])
            .max()
            .unwrap_or(0);
        ((self.pos[player] - best_other) as f64 / 10.0).clamp(-1.0, 1.0)
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
        (self.round_index() + 1).min(self.rounds)
    }
    fn end_condition(&self) -> &'static str {
        if self.turn().is_terminal() {
            "rounds_done"
        } else {
            ""
        }
    }
    fn max_plies(&self) -> u32 {
        if self.claimed_bound > 0 {
            self.claimed_bound
        } else {
            2 * self.rounds
        }
    }
}

#[test]
fn race_passes_the_conformance_harness() {
    let cfg = crate::testing::Conformance::<Race> {
        params: Params::default(),
        players: 3,
        games: 50,
        seed: 1,
        invariants: &|_| Ok(()),
        hidden: None,
        resamples: 1,
        determinize_every: 1,
    };
    let rep = crate::testing::check_random_games(&cfg).unwrap();
    assert!(rep.simultaneous_nodes > 0);
}
