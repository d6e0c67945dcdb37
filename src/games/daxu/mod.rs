//! Daxu (placeholder until the rules engine lands: a game that is over at once).

use std::fmt;

use crate::game::{Game, GameError, PerPlayer, Player, Turn};
use crate::rng::SimRng;

crate::param_set! {
    /// Daxu rule variants.
    pub struct Params {}
}

/// Placeholder action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// Placeholder.
    Give,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("give")
    }
}

/// Placeholder state.
#[derive(Clone, Debug, PartialEq)]
pub struct State;

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("daxu")
    }
}

impl Game for State {
    type Action = Action;
    type Params = Params;
    const NAME: &'static str = "daxu";
    const DESCRIPTION: &'static str = "Daxu (2 players)";
    const PLAYERS: (usize, usize) = (2, 2);
    const DEFAULT_PLAYERS: usize = 2;
    const NUM_ACTION_IDS: usize = 1;
    fn new_game(_: &Params, _: usize, _: &mut SimRng) -> Result<Self, GameError> {
        Ok(State)
    }
    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        Turn::Terminal
    }
    fn legal_actions(&self, _: Player, out: &mut Vec<Action>) {
        out.clear()
    }
    fn apply_unchecked(&mut self, _: Player, _: Action, _: &mut SimRng) {}
    fn apply_joint_unchecked(&mut self, _: &crate::game::JointAction<Action>, _: &mut SimRng) {}
    fn scores(&self) -> PerPlayer<i32> {
        [0; 4]
    }
    fn ranks(&self) -> PerPlayer<u8> {
        [1, 2, 0, 0]
    }
    fn info_key(&self, _: Player) -> u64 {
        0
    }
    fn determinize(&self, _: Player, _: &mut SimRng) -> Self {
        State
    }
    fn heuristic(&self, _: Player) -> f64 {
        0.0
    }
    fn action_id(_: Action) -> usize {
        0
    }
    fn action_from_id(id: usize) -> Option<Action> {
        (id == 0).then_some(Action::Give)
    }
    fn ply(&self) -> u32 {
        0
    }
    fn round(&self) -> u32 {
        0
    }
    fn end_condition(&self) -> &'static str {
        "placeholder"
    }
    fn max_plies(&self) -> u32 {
        0
    }
}
