//! The game API every rules engine implements (DESIGN.md §3).
//!
//! Vocabulary follows OpenSpiel and TAG: a *state* has a [`Turn`] (one player, a set of
//! players acting simultaneously, or nobody when terminal), *legal actions* written into a
//! caller-owned buffer, and *apply*. Chance (shuffles, flips, dice) is never a decision
//! node: it is sampled inside `apply` from the caller's RNG, lazily, from what is left at
//! the moment of drawing. The future is therefore unknown by construction, and
//! [`Game::determinize`] only has to resample what other players hold.
//!
//! Simultaneous nodes take a *joint action*: every acting player chooses from the same
//! state, and no player sees the others' choices before the joint action is applied. The
//! opponents' pending choices are thus hidden information by construction.
//!
//! Agents never hold a `&State`: they receive a [`View`], which exposes only what their
//! seat may know.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use crate::params::GameParams;
use crate::rng::SimRng;

/// A seat index, `0..num_players`.
pub type Player = usize;

/// The largest player count of any game in the crate (Dunhuang, Q.A.X. and Daimyo: 4).
pub const MAX_PLAYERS: usize = 4;

/// One value per seat. Entries at `num_players..MAX_PLAYERS` are unused and hold the
/// default value, so the type is a fixed-size `Copy` array with no allocation.
pub type PerPlayer<T> = [T; MAX_PLAYERS];

/// A joint action at a simultaneous node: `Some(action)` for each acting seat, `None`
/// for seats that do not act.
pub type JointAction<A> = PerPlayer<Option<A>>;

/// A set of seats as a bitmask (bit `p` set = seat `p` is in the set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlayerSet(pub u8);

impl PlayerSet {
    /// The empty set.
    pub const EMPTY: PlayerSet = PlayerSet(0);

    /// All seats `0..n`.
    ///
    /// # Panics
    /// Panics in debug builds if `n > MAX_PLAYERS`.
    pub fn all(n: usize) -> Self {
        debug_assert!(n <= MAX_PLAYERS);
        PlayerSet(((1u16 << n) - 1) as u8)
    }

    /// The set holding only `p`.
    pub fn single(p: Player) -> Self {
        PlayerSet(1 << p)
    }

    /// Whether seat `p` is in the set.
    pub fn contains(self, p: Player) -> bool {
        self.0 & (1 << p) != 0
    }

    /// Number of seats in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in ascending order.
    pub fn iter(self) -> impl Iterator<Item = Player> {
        (0..MAX_PLAYERS).filter(move |&p| self.contains(p))
    }
}

/// Who acts at a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One player chooses; apply with [`Game::apply`].
    Player(Player),
    /// These players choose secretly and at once; apply with [`Game::apply_joint`].
    Simultaneous(PlayerSet),
    /// The game is over.
    Terminal,
}

impl Turn {
    /// The seats that must act now (empty when terminal).
    pub fn actors(self) -> PlayerSet {
        match self {
            Turn::Player(p) => PlayerSet::single(p),
            Turn::Simultaneous(s) => s,
            Turn::Terminal => PlayerSet::EMPTY,
        }
    }

    /// Whether the game is over.
    pub fn is_terminal(self) -> bool {
        matches!(self, Turn::Terminal)
    }
}

/// Why a checked apply refused an action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game is over; nothing can be applied.
    #[error("the game is over; no action can be applied")]
    Terminal,
    /// The seat is not among those who act now.
    #[error("seat {player} does not act now (turn: {turn})")]
    NotYourTurn {
        /// The seat that tried to act.
        player: Player,
        /// The current turn, formatted.
        turn: String,
    },
    /// The action is not in the seat's legal actions.
    #[error("action '{action}' is illegal for seat {player}; legal: {legal}")]
    IllegalAction {
        /// The seat that tried to act.
        player: Player,
        /// The refused action, formatted.
        action: String,
        /// The legal actions, formatted and comma-separated.
        legal: String,
    },
    /// Apply and apply_joint were mixed up with the node kind.
    #[error("wrong node kind: {0}")]
    WrongNodeKind(&'static str),
    /// The player count is not supported by the game.
    #[error("{game} supports {min}-{max} players, got {got}")]
    PlayerCount {
        /// Game name.
        game: &'static str,
        /// Smallest supported count.
        min: usize,
        /// Largest supported count.
        max: usize,
        /// The requested count.
        got: usize,
    },
}

/// A rules engine: a game state plus its rules. See the module docs for the contracts.
///
/// Implementations are fixed-size values (arrays, counts, bitsets), cheap to clone, and
/// allocate nothing in [`Game::legal_actions`], [`Game::apply_unchecked`] or
/// [`Game::apply_joint_unchecked`].
pub trait Game: Clone + PartialEq + Debug + Display + Send + Sync + 'static {
    /// A move: a small `Copy` value with a stable integer id ([`Game::action_id`]).
    type Action: Copy + Eq + Ord + Hash + Debug + Display + Send + Sync + 'static;
    /// The named rule variants (every ASSUMPTION of GAPS.md is a field).
    type Params: GameParams;

    /// Registry name, as typed on the command line (`daxu`).
    const NAME: &'static str;
    /// One-line description for `sim list`.
    const DESCRIPTION: &'static str;
    /// Smallest and largest supported player counts.
    const PLAYERS: (usize, usize);
    /// Player count used when the user gives none.
    const DEFAULT_PLAYERS: usize;
    /// Number of distinct action ids: every action's id is `< NUM_ACTION_IDS`.
    const NUM_ACTION_IDS: usize;

    /// A fresh game after setup, with setup chance (shuffles, deals) drawn from `rng`.
    ///
    /// # Errors
    /// [`GameError::PlayerCount`] when `num_players` is outside [`Game::PLAYERS`].
    fn new_game(
        params: &Self::Params,
        num_players: usize,
        rng: &mut SimRng,
    ) -> Result<Self, GameError>;

    /// Number of seats.
    fn num_players(&self) -> usize;

    /// Who acts now.
    fn turn(&self) -> Turn;

    /// Clears `out` and writes `player`'s legal actions into it: sorted, no duplicates,
    /// non-empty iff `player` acts now. Allocates only if `out` must grow.
    fn legal_actions(&self, player: Player, out: &mut Vec<Self::Action>);

    /// A uniformly random legal action of `player`, who must act now. `buf` is scratch
    /// space. The default fills `buf` with the legal actions and takes the one at
    /// `rng.random_range(0..len)`; a game may override it with a faster method that draws
    /// the same single number and returns the same action (the `k`-th legal action in sorted
    /// order), so that results never depend on the override.
    fn random_action(
        &self,
        player: Player,
        buf: &mut Vec<Self::Action>,
        rng: &mut SimRng,
    ) -> Self::Action {
        use rand::RngExt;
        self.legal_actions(player, buf);
        debug_assert!(
            !buf.is_empty(),
            "random_action for a seat that does not act"
        );
        buf[rng.random_range(0..buf.len())]
    }

    /// Applies `player`'s action at a [`Turn::Player`] node, sampling any chance that
    /// follows from `rng`. Legality is only `debug_assert!`ed: use in hot loops.
    fn apply_unchecked(&mut self, player: Player, action: Self::Action, rng: &mut SimRng);

    /// Applies a joint action at a [`Turn::Simultaneous`] node. Legality is only
    /// `debug_assert!`ed.
    fn apply_joint_unchecked(&mut self, joint: &JointAction<Self::Action>, rng: &mut SimRng);

    /// Final utilities for search, per seat. Default: the seats ranked first share 1,
    /// everyone else gets 0 (win = 1, loss = 0, ties split). Only meaningful when terminal.
    fn returns(&self) -> PerPlayer<f64> {
        returns_from_ranks(&self.ranks(), self.num_players())
    }

    /// Rulebook points per seat (only final at a terminal state).
    fn scores(&self) -> PerPlayer<i32>;

    /// Final ranks per seat, 1 = best, with the rulebook's tie-breaks applied; seats still
    /// tied share a rank. Only meaningful when terminal.
    fn ranks(&self) -> PerPlayer<u8>;

    /// A digest of everything `player` has observed (perfect recall): two states with the
    /// same key are indistinguishable to `player`.
    fn info_key(&self, player: Player) -> u64;

    /// A state consistent with everything `observer` has seen: same info key, turn and
    /// legal actions for `observer`, with everything hidden from `observer` resampled
    /// from `rng`. Games whose hidden parts are all lazily drawn chance return a clone.
    fn determinize(&self, observer: Player, rng: &mut SimRng) -> Self;

    /// A static evaluation for `player` in `[-1, 1]` (documented per game), used by the
    /// greedy agent and rollout cut-offs.
    fn heuristic(&self, player: Player) -> f64;

    /// The stable id of an action, `< NUM_ACTION_IDS`.
    fn action_id(action: Self::Action) -> usize;

    /// The action with this id, if any (`action_id(action_from_id(i)?) == i`).
    fn action_from_id(id: usize) -> Option<Self::Action>;

    /// Parses an action from its `Display` form (used by `sim play` and tests). The
    /// default searches the ids `0..NUM_ACTION_IDS`.
    fn parse_action(text: &str) -> Option<Self::Action> {
        let text = text.trim();
        (0..Self::NUM_ACTION_IDS)
            .filter_map(Self::action_from_id)
            .find(|a| a.to_string() == text)
    }

    /// Plies played so far (one ply = one apply or apply_joint).
    fn ply(&self) -> u32;

    /// Rounds started so far, in the rulebook's sense.
    fn round(&self) -> u32;

    /// Why the game ended (`deck_exhausted`, `instant_win`, ...), or `""` if not over.
    fn end_condition(&self) -> &'static str;

    /// An upper bound on plies for any game under these parameters (conformance tests).
    fn max_plies(&self) -> u32;

    /// Checked apply at a [`Turn::Player`] node.
    ///
    /// # Errors
    /// [`GameError::Terminal`], [`GameError::NotYourTurn`], [`GameError::WrongNodeKind`]
    /// (simultaneous node) or [`GameError::IllegalAction`] naming the action.
    fn apply(
        &mut self,
        player: Player,
        action: Self::Action,
        rng: &mut SimRng,
    ) -> Result<(), GameError> {
        match self.turn() {
            Turn::Terminal => return Err(GameError::Terminal),
            Turn::Simultaneous(_) => {
                return Err(GameError::WrongNodeKind(
                    "simultaneous node: use apply_joint",
                ));
            }
            Turn::Player(p) if p != player => {
                return Err(GameError::NotYourTurn {
                    player,
                    turn: format!("{:?}", self.turn()),
                });
            }
            Turn::Player(_) => {}
        }
        check_legal(self, player, action)?;
        self.apply_unchecked(player, action, rng);
        Ok(())
    }

    /// Checked apply of a joint action at a [`Turn::Simultaneous`] node.
    ///
    /// # Errors
    /// As [`Game::apply`]; also when a seat that acts has `None` or a seat that does not
    /// act has `Some`.
    fn apply_joint(
        &mut self,
        joint: &JointAction<Self::Action>,
        rng: &mut SimRng,
    ) -> Result<(), GameError> {
        let actors = match self.turn() {
            Turn::Terminal => return Err(GameError::Terminal),
            Turn::Player(_) => return Err(GameError::WrongNodeKind("turn-based node: use apply")),
            Turn::Simultaneous(s) => s,
        };
        for (p, a) in joint.iter().enumerate() {
            match (actors.contains(p), a) {
                (true, Some(a)) => check_legal(self, p, *a)?,
                (true, None) => {
                    return Err(GameError::WrongNodeKind("an acting seat has no action"));
                }
                (false, Some(_)) => {
                    return Err(GameError::NotYourTurn {
                        player: p,
                        turn: format!("{:?}", self.turn()),
                    });
                }
                (false, None) => {}
            }
        }
        self.apply_joint_unchecked(joint, rng);
        Ok(())
    }
}

fn check_legal<G: Game>(g: &G, player: Player, action: G::Action) -> Result<(), GameError> {
    let mut legal = Vec::new();
    g.legal_actions(player, &mut legal);
    if legal.contains(&action) {
        Ok(())
    } else {
        Err(GameError::IllegalAction {
            player,
            action: action.to_string(),
            legal: legal
                .iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

/// The index of the `k`-th set bit of `mask` (0-based, from the lowest), for games whose
/// legal actions are a bitmask in sorted order.
///
/// # Panics
/// Debug builds panic if `mask` has `k` or fewer set bits.
#[inline]
pub fn nth_bit(mut mask: u32, k: u32) -> u32 {
    debug_assert!(mask.count_ones() > k);
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

/// Win = 1, loss = 0, ties split: the seats with rank 1 share one point.
pub fn returns_from_ranks(ranks: &PerPlayer<u8>, n: usize) -> PerPlayer<f64> {
    let winners = ranks[..n].iter().filter(|&&r| r == 1).count().max(1);
    let mut out = [0.0; MAX_PLAYERS];
    for p in 0..n {
        if ranks[p] == 1 {
            out[p] = 1.0 / winners as f64;
        }
    }
    out
}

/// Standard competition ranks ("1224") from `keys`, higher key = better. Seats with equal
/// keys share a rank. Only the first `n` entries are read; the rest of the result is 0.
pub fn ranks_by_key<K: PartialOrd + Copy>(keys: &PerPlayer<K>, n: usize) -> PerPlayer<u8> {
    let mut out = [0u8; MAX_PLAYERS];
    for p in 0..n {
        out[p] = 1 + (0..n).filter(|&q| keys[q] > keys[p]).count() as u8;
    }
    out
}

/// A seat-restricted view of a state: what an agent at `seat` may see. It is the only way
/// agents reach a state, so an agent that needs hidden parts must call
/// [`View::determinize`].
pub struct View<'a, G: Game> {
    state: &'a G,
    seat: Player,
}

impl<'a, G: Game> View<'a, G> {
    /// Wraps `state` for `seat`. Only the runner and tests build views.
    pub fn new(state: &'a G, seat: Player) -> Self {
        View { state, seat }
    }

    /// A uniformly random legal action of this seat ([`Game::random_action`]).
    pub fn random_action(&self, buf: &mut Vec<G::Action>, rng: &mut SimRng) -> G::Action {
        self.state.random_action(self.seat, buf, rng)
    }

    /// The seat this view belongs to.
    pub fn seat(&self) -> Player {
        self.seat
    }

    /// Number of seats.
    pub fn num_players(&self) -> usize {
        self.state.num_players()
    }

    /// Who acts now (public in every game here).
    pub fn turn(&self) -> Turn {
        self.state.turn()
    }

    /// This seat's legal actions (see [`Game::legal_actions`]).
    pub fn legal_actions(&self, out: &mut Vec<G::Action>) {
        self.state.legal_actions(self.seat, out)
    }

    /// This seat's information-set key.
    pub fn info_key(&self) -> u64 {
        self.state.info_key(self.seat)
    }

    /// A sampled state consistent with this seat's information (see [`Game::determinize`]).
    pub fn determinize(&self, rng: &mut SimRng) -> G {
        self.state.determinize(self.seat, rng)
    }

    /// The game's heuristic for this seat, in `[-1, 1]`.
    pub fn heuristic(&self) -> f64 {
        self.state.heuristic(self.seat)
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.state.ply()
    }

    /// Rounds started so far.
    pub fn round(&self) -> u32 {
        self.state.round()
    }
}

/// Plays one ply at `state` with `choose(state, seat, legal, rng)` picking each acting
/// seat's action from its legal actions (all seats choose from the same pre-move state at a
/// simultaneous node). `buf` is a reused buffer. Does nothing at a terminal state.
pub fn step<G: Game>(
    state: &mut G,
    buf: &mut Vec<G::Action>,
    rng: &mut SimRng,
    mut choose: impl FnMut(&G, Player, &[G::Action], &mut SimRng) -> G::Action,
) {
    match state.turn() {
        Turn::Terminal => {}
        Turn::Player(p) => {
            state.legal_actions(p, buf);
            let a = choose(state, p, buf, rng);
            state.apply_unchecked(p, a, rng);
        }
        Turn::Simultaneous(set) => {
            let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
            for p in set.iter() {
                state.legal_actions(p, buf);
                joint[p] = Some(choose(state, p, buf, rng));
            }
            state.apply_joint_unchecked(&joint, rng);
        }
    }
}

/// Plays uniformly random legal actions until the game ends; returns the final state's
/// [`Game::returns`]. Allocates nothing once `buf` has grown.
pub fn random_playout<G: Game>(
    state: &mut G,
    buf: &mut Vec<G::Action>,
    rng: &mut SimRng,
) -> PerPlayer<f64> {
    loop {
        match state.turn() {
            Turn::Terminal => return state.returns(),
            Turn::Player(p) => {
                let a = state.random_action(p, buf, rng);
                state.apply_unchecked(p, a, rng);
            }
            Turn::Simultaneous(set) => {
                let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
                for p in set.iter() {
                    joint[p] = Some(state.random_action(p, buf, rng));
                }
                state.apply_joint_unchecked(&joint, rng);
            }
        }
    }
}
