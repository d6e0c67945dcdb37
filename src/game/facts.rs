//! Static facts about a game, as data (OpenSpiel's `GameType` and `GameInfo`).
//!
//! [`GameType`] is one constant per game ([`GameState::TYPE`]): what holds whatever the
//! parameters and player count (names, player range, dynamics, chance, information, utility,
//! number of distinct action ids). [`GameInfo`] adds what depends on the rules (a player
//! count and parameter values): the bound on the game length in plies and the observation
//! tensor's layout. `sim info --game G [--players N] [--format json]` prints both.
//!
//! Code that needs such a fact reads it here instead of probing a default-built state.

use serde::Serialize;

use super::{GameState, Rules};

/// Whether the game has simultaneous nodes (OpenSpiel's `Dynamics`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dynamics {
    /// Exactly one seat acts at every non-terminal node ([`super::Turn::Player`]).
    Sequential,
    /// Some nodes are simultaneous ([`super::Turn::Simultaneous`]): the acting seats choose
    /// secretly and at once. Games may mix such nodes with turn-based ones.
    Simultaneous,
}

/// How chance enters the game (OpenSpiel's `ChanceMode`). Chance is never a decision node
/// here: it is drawn inside `apply` through [`super::Chance`], so a stochastic game is
/// "sampled stochastic" in OpenSpiel's terms, with outcomes that a script can force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChanceMode {
    /// No chance at all under the default parameters.
    Deterministic,
    /// Shuffles, deals or dice, drawn lazily inside `apply` and `new_game`.
    SampledStochastic,
}

/// Whether every seat sees the whole state (OpenSpiel's `Information`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Information {
    /// Nothing is hidden from any seat except future chance outcomes and, at simultaneous
    /// nodes, the other seats' pending choices.
    Perfect,
    /// Some seat cannot see part of the state (hands, face-down cards, removed cards).
    Imperfect,
}

/// What the returns sum to (OpenSpiel's `Utility`), under the default `returns`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UtilityKind {
    /// The returns sum to 0 (a two-seat game scored by margin or chips).
    ZeroSum,
    /// The returns sum to a constant (win share: 1).
    ConstantSum,
    /// No constraint on the sum.
    GeneralSum,
}

/// The static facts of a game: one constant per game ([`GameState::TYPE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GameType {
    /// Registry name, as typed on the command line (`daxu`).
    pub short_name: &'static str,
    /// Full name (`Merchants of Dunhuang`).
    pub long_name: &'static str,
    /// One line for `sim list`.
    pub description: &'static str,
    /// Smallest supported player count.
    pub min_players: usize,
    /// Largest supported player count.
    pub max_players: usize,
    /// Player count used when the user gives none.
    pub default_players: usize,
    /// Turn-based only, or with simultaneous nodes.
    pub dynamics: Dynamics,
    /// Whether chance occurs (under the default parameters).
    pub chance_mode: ChanceMode,
    /// Perfect or imperfect information (under the default parameters).
    pub information: Information,
    /// What the returns sum to under the default `returns`.
    pub utility: UtilityKind,
    /// Number of distinct action ids: every action's id is `< num_action_ids`, the length
    /// of [`GameState::legal_actions_mask`].
    pub num_action_ids: usize,
    /// Whether [`GameState::information_state_string`] is perfect recall: it determines
    /// every observation the seat has had and every action it took. `false` must say why in
    /// the game's module docs; agents that rely on recall state it.
    pub perfect_recall: bool,
}

impl GameType {
    /// The player range as `(min, max)`.
    pub const fn players(&self) -> (usize, usize) {
        (self.min_players, self.max_players)
    }
}

/// One named segment of a flat observation tensor ([`GameState::observation_layout`]):
/// `len` consecutive `f32` values starting where the previous field ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TensorField {
    /// Field name (`snake_case`, unique within the layout), e.g. `hand_counts`.
    pub name: String,
    /// Number of `f32` values.
    pub len: usize,
    /// What the values mean, with units and encoding (one-hot, count / max, 0/1 flag).
    pub meaning: &'static str,
}

impl TensorField {
    /// A field of `len` values.
    pub fn new(name: impl Into<String>, len: usize, meaning: &'static str) -> Self {
        TensorField {
            name: name.into(),
            len,
            meaning,
        }
    }
}

/// Total length of a layout (the tensor's shape is `[tensor_len(layout)]`).
pub fn tensor_len(layout: &[TensorField]) -> usize {
    layout.iter().map(|f| f.len).sum()
}

/// The facts of a game under given rules (OpenSpiel's `GameInfo`): the static ones plus
/// what depends on the player count and parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameInfo {
    /// The static facts.
    #[serde(flatten)]
    pub game_type: GameType,
    /// Seats in this configuration.
    pub players: usize,
    /// An upper bound on plies of any game under these rules ([`GameState::max_plies`]).
    pub max_game_length: u32,
    /// The observation tensor's shape: `[len]` (flat).
    pub observation_shape: Vec<usize>,
    /// The observation tensor's fields, in order.
    pub observation_layout: Vec<TensorField>,
}

impl GameInfo {
    /// The facts of `G` under `rules`.
    pub fn of<G: GameState>(rules: &Rules<G>) -> Self {
        let layout = G::observation_layout(rules);
        GameInfo {
            game_type: G::TYPE,
            players: rules.players(),
            max_game_length: G::max_game_length(rules),
            observation_shape: vec![tensor_len(&layout)],
            observation_layout: layout,
        }
    }
}
