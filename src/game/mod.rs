//! The game API every rules engine implements (DESIGN.md §3).
//!
//! Vocabulary follows OpenSpiel and TAG: a *state* has a [`Turn`] (one player, a set of
//! players acting simultaneously, or nobody when terminal), *legal actions* written into a
//! caller-owned buffer, and *apply*.
//!
//! **Rules and states** (OpenSpiel's Game/State split). A game's parameters and player
//! count are validated once into an immutable [`Rules`] value ([`rules`]); states hold a
//! [`RulesRef`] to it (one pointer, `Copy`) instead of copying parameters. Rules values are
//! interned: equal (parameters, player count) pairs share one value for the life of the
//! process, which is what makes the reference `'static` and free to copy in hot loops.
//!
//! **Chance** (shuffles, flips, dice) is never a decision node: it is drawn inside `apply`
//! (and `new_game`) through the [`Chance`] trait, lazily, from what is left at the moment
//! of drawing. The run's RNG implements [`Chance`]; a script ([`ScriptedChance`]) can force
//! outcomes for rule tests and exact enumeration. Because the future is drawn lazily, what
//! [`GameState::determinize`] resamples is only what the observer has not seen *and* is already
//! fixed: other players' hands, cards placed face down, removed cards the observer did not
//! see. What a seat *has* seen (cards it removed, cards passed to it) is kept in the state,
//! and [`crate::knowledge`] tracks it per observer.
//!
//! **Values.** [`GameState::returns`] are the utilities search maximises (win share by default;
//! see [`Utility`] for the documented alternatives), and [`GameState::value`] is an estimate of
//! the returns at a non-terminal state *in the same units*, so a cut-off leaf and a terminal
//! leaf compare fairly at 2, 3 and 4 seats.
//!
//! **Observations.** [`GameState::observation`] is what one seat sees now, printable; two states
//! that a seat cannot tell apart give it equal observations (and equal info keys).
//!
//! Simultaneous nodes take a *joint action*: every acting player chooses from the same
//! state, and no player sees the others' choices before the joint action is applied. The
//! opponents' pending choices are thus hidden information by construction.
//!
//! Agents never hold a `&State`: they receive a [`View`], which exposes only what their
//! seat may know.
//!
//! **Saved positions.** Every state is `Serialize + DeserializeOwned`; its rules serialise
//! as the game, player count and parameters ([`RulesRef`]) and are rebuilt on load. The
//! file format (`tabletop-sim position v1`, JSON) is documented in [`crate::position`].

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::sync::{Mutex, OnceLock};

use rand::RngExt;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::params::{GameParams, ParamError};
use crate::rng::SimRng;

pub mod facts;
pub mod komi;
pub mod seat_bonus;

pub use crate::bits::{POPCOUNT8, nth_bit, nth_bit8, nth_bit16, popcount16};

pub use komi::Komi;
pub use seat_bonus::SeatBonus;

pub use facts::{
    ChanceMode, Dynamics, GameInfo, GameType, Information, TensorField, UtilityKind, tensor_len,
};

/// A seat index, `0..num_players`.
pub type Seat = usize;

/// The largest player count of any game in the crate (Dunhuang, Q.A.X. and Daimyo: 4).
pub const MAX_PLAYERS: usize = 4;

/// One value per seat. Entries at `num_players..MAX_PLAYERS` are unused and hold the
/// default value, so the type is a fixed-size `Copy` array with no allocation.
pub type PerSeat<T> = [T; MAX_PLAYERS];

/// A joint action at a simultaneous node: `Some(action)` for each acting seat, `None`
/// for seats that do not act.
pub type JointAction<A> = PerSeat<Option<A>>;

/// A set of seats as a bitmask (bit `p` set = seat `p` is in the set). Serialised as the
/// mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatSet(pub u8);

impl SeatSet {
    /// The empty set.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// All seats `0..n`.
    ///
    /// # Panics
    /// Panics in debug builds if `n > MAX_PLAYERS`.
    pub fn all(n: usize) -> Self {
        debug_assert!(n <= MAX_PLAYERS);
        SeatSet(((1u16 << n) - 1) as u8)
    }

    /// The set holding only `p`.
    pub fn single(p: Seat) -> Self {
        SeatSet(1 << p)
    }

    /// Whether seat `p` is in the set.
    pub fn contains(self, p: Seat) -> bool {
        self.0 & (1 << p) != 0
    }

    /// Number of seats in the set.
    pub fn len(self) -> usize {
        usize::from(POPCOUNT8[usize::from(self.0)])
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in ascending order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..MAX_PLAYERS).filter(move |&p| self.contains(p))
    }
}

/// Who acts at a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One player chooses; apply with [`GameState::apply`].
    Player(Seat),
    /// These players choose secretly and at once; apply with [`GameState::apply_joint`].
    Simultaneous(SeatSet),
    /// The game is over.
    Terminal,
}

impl Turn {
    /// The seats that must act now (empty when terminal).
    pub fn actors(self) -> SeatSet {
        match self {
            Turn::Player(p) => SeatSet::single(p),
            Turn::Simultaneous(s) => s,
            Turn::Terminal => SeatSet::EMPTY,
        }
    }

    /// Whether the game is over.
    pub fn is_terminal(self) -> bool {
        matches!(self, Turn::Terminal)
    }
}

/// Why [`GameState::validate`] refused a state (a loaded position that no play could reach, or
/// whose fields are out of range): the game and the failed check, naming the field and
/// the offending values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {game} state: {problem}")]
pub struct InvalidState {
    /// The game's registry name.
    pub game: &'static str,
    /// The failed check, naming the field and its values.
    pub problem: String,
}

impl InvalidState {
    /// The error of game `G` for `problem`.
    pub fn of<G: GameState>(problem: impl Into<String>) -> Self {
        InvalidState {
            game: G::NAME,
            problem: problem.into(),
        }
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
        player: Seat,
        /// The current turn, formatted.
        turn: String,
    },
    /// The action is not in the seat's legal actions.
    #[error("action '{action}' is illegal for seat {player} at {position}; legal: {legal}")]
    IllegalAction {
        /// The seat that tried to act.
        player: Seat,
        /// The refused action, formatted.
        action: String,
        /// The position, in short: the game, ply and round (`daxu ply 12, round 7`).
        position: String,
        /// The legal actions, formatted and comma-separated.
        legal: String,
    },
    /// Apply and apply_joint were mixed up with the node kind.
    #[error("wrong node kind: {0}")]
    WrongNodeKind(&'static str),
}

/// A source of chance outcomes: every chance event of every game (a shuffle, a draw from a
/// pool, a die) is a sequence of uniform picks `0..n`. The run's RNG ([`SimRng`]) draws
/// them; [`ScriptedChance`] forces them, so tests can set up exact situations and solvers
/// can enumerate chance exactly (each pick has probability `1/n`).
pub trait Chance {
    /// A uniformly distributed outcome in `0..n`.
    ///
    /// # Panics
    /// May panic if `n == 0`.
    fn below(&mut self, n: u32) -> u32;
}

impl Chance for SimRng {
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        self.random_range(0..n)
    }
}

/// Chance that replays a fixed list of outcomes, then falls back to an RNG (or panics if it
/// has none). Each scripted outcome is reduced modulo the `n` asked for, so a script can be
/// written without knowing every pool size; [`ScriptedChance::asked`] records the sizes.
#[derive(Debug, Clone)]
pub struct ScriptedChance {
    script: Vec<u32>,
    used: usize,
    fallback: Option<SimRng>,
    asked: Vec<u32>,
}

impl ScriptedChance {
    /// Replays `script`, then panics when asked for more.
    pub fn new(script: &[u32]) -> Self {
        ScriptedChance {
            script: script.to_vec(),
            used: 0,
            fallback: None,
            asked: Vec::new(),
        }
    }

    /// Replays `script`, then draws from `rng`.
    pub fn then(script: &[u32], rng: SimRng) -> Self {
        ScriptedChance {
            fallback: Some(rng),
            ..ScriptedChance::new(script)
        }
    }

    /// The pool sizes `n` of every pick so far, in order.
    pub fn asked(&self) -> &[u32] {
        &self.asked
    }

    /// How many scripted outcomes were consumed.
    pub fn used(&self) -> usize {
        self.used
    }
}

impl Chance for ScriptedChance {
    /// # Panics
    /// When the script is exhausted and there is no fallback RNG.
    fn below(&mut self, n: u32) -> u32 {
        self.asked.push(n);
        if let Some(&x) = self.script.get(self.used) {
            self.used += 1;
            return x % n;
        }
        match &mut self.fallback {
            Some(rng) => rng.random_range(0..n),
            None => panic!(
                "scripted chance exhausted after {} outcomes (asked for 0..{n})",
                self.used
            ),
        }
    }
}

/// The validated rules of one game configuration: its parameters, its player count and
/// whatever the game derives from them once ([`GameState::RulesData`]: tables, card lists, data
/// loaded from a file). Built by [`rules`], immutable, shared by every state through a
/// [`RulesRef`].
pub struct Rules<G: GameState> {
    params: G::Params,
    players: usize,
    data: G::RulesData,
}

impl<G: GameState> Rules<G> {
    /// The rule parameters.
    pub fn params(&self) -> &G::Params {
        &self.params
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        self.players
    }

    /// What the game derived from the parameters and the player count.
    pub fn data(&self) -> &G::RulesData {
        &self.data
    }
}

impl<G: GameState> Debug for Rules<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rules")
            .field("game", &G::NAME)
            .field("players", &self.players)
            .field("params", &self.params)
            .finish()
    }
}

/// A reference to interned [`Rules`]: one pointer, `Copy`, compared by identity (interning
/// makes identity and equality the same). Serialises as the game's name, player count and
/// every parameter (`{"game": "daxu", "players": 2, "variant": ["deck=2/2/5", ...]}`) and
/// deserialises by building the rules again, so a saved state carries its rules.
pub struct RulesRef<G: GameState>(&'static Rules<G>);

impl<G: GameState> Clone for RulesRef<G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: GameState> Copy for RulesRef<G> {}

impl<G: GameState> PartialEq for RulesRef<G> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl<G: GameState> Eq for RulesRef<G> {}

impl<G: GameState> Hash for RulesRef<G> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        std::ptr::hash(self.0, h)
    }
}

impl<G: GameState> Debug for RulesRef<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Debug::fmt(self.0, f)
    }
}

impl<G: GameState> std::ops::Deref for RulesRef<G> {
    type Target = Rules<G>;
    fn deref(&self) -> &Rules<G> {
        self.0
    }
}

impl<G: GameState> RulesRef<G> {
    /// The interned rules with their `'static` lifetime, so a state can read its rules
    /// data while it mutates itself (the reference does not borrow the state).
    pub fn get(self) -> &'static Rules<G> {
        self.0
    }

    /// Every parameter as `key=value`, in declaration order.
    pub fn variant(&self) -> Vec<String> {
        self.params
            .values()
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect()
    }
}

/// The serialised form of a [`RulesRef`].
#[derive(Serialize, Deserialize)]
struct RulesText {
    game: String,
    players: usize,
    variant: Vec<String>,
}

impl<G: GameState> Serialize for RulesRef<G> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RulesText {
            game: G::NAME.to_string(),
            players: self.players,
            variant: self.variant(),
        }
        .serialize(s)
    }
}

impl<'de, G: GameState> Deserialize<'de> for RulesRef<G> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let t = RulesText::deserialize(d)?;
        if t.game != G::NAME {
            return Err(D::Error::custom(format!(
                "saved rules are for game '{}', expected '{}'",
                t.game,
                G::NAME
            )));
        }
        let params = G::Params::from_settings(&t.variant, &format!("game {}", G::NAME))
            .map_err(D::Error::custom)?;
        rules::<G>(&params, t.players).map_err(D::Error::custom)
    }
}

/// Why rules could not be built: bad input, reported with exit code 2 by the CLI.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The player count is outside the game's range.
    #[error("{game} is played by {}, got {got}", player_range(*min, *max))]
    Players {
        /// Game name.
        game: &'static str,
        /// Smallest count.
        min: usize,
        /// Largest count.
        max: usize,
        /// The requested count.
        got: usize,
    },
    /// The parameters do not fit together or do not exist at this player count.
    #[error(transparent)]
    Param(#[from] ParamError),
}

/// `exactly 2 players` or `2 to 4 players`.
pub fn player_range(min: usize, max: usize) -> String {
    if min == max {
        format!("exactly {min} players")
    } else {
        format!("{min} to {max} players")
    }
}

type Interned = Vec<&'static (dyn Any + Send + Sync)>;

/// Builds (once per process) and returns the rules of game `G` for `params` at `players`
/// seats: checks the player count against [`GameState::PLAYERS`] and every per-player-count
/// parameter ([`crate::params::PerCount`]) against that range, then runs
/// [`GameState::build_rules`]. Equal requests return the same reference. Each distinct
/// configuration is kept for the life of the process (a few hundred bytes each).
///
/// # Errors
/// [`RulesError::Players`] for a count outside the game's range; [`RulesError::Param`]
/// when the game rejects the combination (naming the parameter and the reason).
pub fn rules<G: GameState>(params: &G::Params, players: usize) -> Result<RulesRef<G>, RulesError> {
    let (min, max) = G::PLAYERS;
    if !(min..=max).contains(&players) {
        return Err(RulesError::Players {
            game: G::NAME,
            min,
            max,
            got: players,
        });
    }
    static CACHE: OnceLock<Mutex<HashMap<TypeId, Interned>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let find = |list: &Interned| {
        list.iter()
            .filter_map(|r| r.downcast_ref::<Rules<G>>())
            .find(|r| r.players == players && r.params == *params)
    };
    if let Some(r) = cache
        .lock()
        .expect("rules cache poisoned")
        .get(&TypeId::of::<G>())
        .and_then(find)
    {
        return Ok(RulesRef(r));
    }
    // Values given per player count must fit the game's range (parsing cannot know it).
    params.check_players(&format!("game {}", G::NAME), G::PLAYERS)?;
    // Built outside the lock: a game's build may read files.
    let built = Rules::<G> {
        params: params.clone(),
        players,
        data: G::build_rules(params, players)?,
    };
    let mut map = cache.lock().expect("rules cache poisoned");
    let list = map.entry(TypeId::of::<G>()).or_default();
    if let Some(r) = find(list) {
        return Ok(RulesRef(r));
    }
    let leaked: &'static Rules<G> = Box::leak(Box::new(built));
    list.push(leaked);
    Ok(RulesRef(leaked))
}

/// A fresh game of `G` for `params` at `players` seats: [`rules`] then [`GameState::new_game`].
/// A convenience for tests, examples and one-off games.
///
/// # Errors
/// As [`rules`].
pub fn setup<G: GameState>(
    params: &G::Params,
    players: usize,
    chance: &mut (impl Chance + ?Sized),
) -> Result<G, RulesError> {
    Ok(G::new_game(rules::<G>(params, players)?, chance))
}

/// The default rules of `G` at its default player count.
///
/// # Panics
/// If the game rejects its own defaults (a bug caught by every game's tests).
pub fn default_rules<G: GameState>() -> RulesRef<G> {
    rules::<G>(&G::Params::default(), G::DEFAULT_PLAYERS).expect("a game accepts its defaults")
}

crate::param_enum! {
    /// What [`GameState::returns`] measures, where a game offers a choice (a `returns` rule
    /// parameter): the utilities search agents maximise. The tournament's records (score,
    /// rank, won) do not depend on it.
    pub enum Utility {
        /// Win = 1, loss = 0; seats tied for first share 1 (sums to 1).
        WinShare = "win_share",
        /// Normalised rank: `(n - position) / (n - 1)`, 1 for first, 0 for last; tied seats
        /// get the mean over the positions they span (sums to `n / 2`).
        Rank = "rank",
        /// Score difference in rulebook points, `own - other` (2 players only; zero-sum).
        Margin = "margin",
    }
}

impl Utility {
    /// Checks that the utility exists at `players` seats ([`Utility::Margin`] needs 2).
    ///
    /// # Errors
    /// [`ParamError::Invalid`] naming `key` and the reason.
    pub fn check(self, key: &str, players: usize, owner: &str) -> Result<(), ParamError> {
        if self == Utility::Margin && players != 2 {
            return Err(ParamError::Invalid {
                owner: owner.to_string(),
                reason: format!(
                    "{key}=margin is the score difference of a 2-player game; with {players} \
                     players use {key}=win_share or {key}=rank"
                ),
            });
        }
        Ok(())
    }

    /// The returns of a finished game under this utility, from its ranks and scores.
    pub fn returns(self, ranks: &PerSeat<u8>, scores: &PerSeat<i32>, n: usize) -> PerSeat<f64> {
        match self {
            Utility::WinShare => returns_from_ranks(ranks, n),
            Utility::Rank => normalised_ranks(ranks, n),
            Utility::Margin => {
                let mut out = [0.0; MAX_PLAYERS];
                if n == 2 {
                    out[0] = (scores[0] - scores[1]) as f64;
                    out[1] = -out[0];
                }
                out
            }
        }
    }

    /// A value estimate in this utility's units from an estimate of each seat's win share
    /// `win` (summing to 1) and of its final score margin `margin` (2 players).
    pub fn estimate(self, win: &PerSeat<f64>, margin: &PerSeat<f64>, n: usize) -> PerSeat<f64> {
        match self {
            Utility::WinShare => *win,
            // With only a win estimate, the expected normalised rank of a seat that wins with
            // probability w and is otherwise uniformly placed among the rest.
            Utility::Rank => {
                let mut out = [0.0; MAX_PLAYERS];
                for p in 0..n {
                    out[p] = win[p]
                        + (1.0 - win[p]) * 0.5 * (n as f64 - 2.0) / (n as f64 - 1.0).max(1.0);
                }
                out
            }
            Utility::Margin => *margin,
        }
    }
}

/// Normalised ranks `(n - position) / (n - 1)`; seats sharing a competition rank get the
/// mean over the positions they span. One seat: 1.
pub fn normalised_ranks(ranks: &PerSeat<u8>, n: usize) -> PerSeat<f64> {
    let mut out = [0.0; MAX_PLAYERS];
    if n <= 1 {
        out[0] = 1.0;
        return out;
    }
    for p in 0..n {
        let tied = ranks[..n].iter().filter(|&&r| r == ranks[p]).count() as f64;
        // Positions ranks[p] .. ranks[p] + tied - 1 (1-based); their mean:
        let mean_pos = ranks[p] as f64 + (tied - 1.0) / 2.0;
        out[p] = (n as f64 - mean_pos) / (n as f64 - 1.0);
    }
    out
}

/// Win-share estimates from projected scores: a softmax with `temperature` points (the
/// projected lead that makes a seat `e` times as likely to win). At 2 seats this is the
/// logistic of the projected margin, `1 / (1 + exp(-(a - b) / T))`.
pub fn win_share_from_scores(projected: &PerSeat<f64>, n: usize, temperature: f64) -> PerSeat<f64> {
    let mut out = [0.0; MAX_PLAYERS];
    let top = projected[..n]
        .iter()
        .cloned()
        .fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for p in 0..n {
        out[p] = ((projected[p] - top) / temperature).exp();
        sum += out[p];
    }
    for v in &mut out[..n] {
        *v /= sum;
    }
    out
}

/// Most per-seat (and, separately, per-game) metrics a game may declare.
pub const MAX_METRICS: usize = 20;

/// Most per-seat (and, separately, per-game) labels a game may declare.
pub const MAX_LABELS: usize = 4;

/// A named metric or label: its `games.csv` column name and what it means (with units and
/// the rulebook term), for `results/README.md` and `sim list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// Column name in `games.csv` (snake_case, unique within the game).
    pub name: &'static str,
    /// What it measures, with units.
    pub meaning: &'static str,
}

/// The metrics of a finished game ([`Measured::metrics`]): integer counts or points, per seat
/// and per game, in the order of [`Measured::SEAT_METRICS`] and [`Measured::GAME_METRICS`]. A
/// fixed-size `Copy` value, so recording it allocates nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    /// `seat[p][i]`: metric `SEAT_METRICS[i]` of seat `p`.
    pub seat: [[i32; MAX_METRICS]; MAX_PLAYERS],
    /// `game[i]`: metric `GAME_METRICS[i]`.
    pub game: [i32; MAX_METRICS],
}

/// The labels of a game ([`Measured::labels`]): short words that group games for statistics
/// (a clan per seat, a character layout per game), in the order of [`Measured::SEAT_LABELS`]
/// and [`Measured::GAME_LABELS`]. Labels are `'static` (constants or text held by the interned
/// rules), so recording them allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labels {
    /// `seat[p][i]`: label `SEAT_LABELS[i]` of seat `p`.
    pub seat: [[&'static str; MAX_LABELS]; MAX_PLAYERS],
    /// `game[i]`: label `GAME_LABELS[i]`.
    pub game: [&'static str; MAX_LABELS],
}

impl Default for Labels {
    fn default() -> Self {
        Labels {
            seat: [[""; MAX_LABELS]; MAX_PLAYERS],
            game: [""; MAX_LABELS],
        }
    }
}

/// What an agent is told when a game starts ([`crate::Agent::start_game`]).
pub struct GameStart<G: GameState> {
    /// The agent's seat.
    pub seat: Seat,
    /// The game's index in its tournament (what `games.csv` calls `game`; `sim play
    /// --index`), for messages naming the game. Decisions must not depend on it.
    pub index: u64,
    /// The rules (with the player count: `rules.players()`).
    pub rules: RulesRef<G>,
}

/// A rules engine: a game state plus a reference to its rules. See the module docs for the
/// contracts.
///
/// Implementations are fixed-size values (arrays, counts, bitsets), cheap to clone, and
/// allocate nothing in [`GameState::legal_actions`], [`GameState::apply_unchecked`] or
/// [`GameState::apply_joint_unchecked`].
///
/// Every state round-trips through serde (`Serialize + DeserializeOwned`, used only to save
/// and load positions: [`crate::position`]): deserializing what was serialized gives an `==`
/// state that plays on identically. A loaded state is checked with [`GameState::validate`].
pub trait GameState:
    Clone + PartialEq + Debug + Display + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// A move: a small `Copy` value with a stable integer id ([`GameState::action_id`]).
    type Action: Copy + Eq + Ord + Hash + Debug + Display + Send + Sync + 'static;
    /// The named rule variants (every ASSUMPTION ruling of `docs/rules/<game>.md` is a field).
    type Params: GameParams;
    /// What the game derives once from its parameters and player count (tables, data
    /// files); `()` when nothing. Stored in [`Rules`].
    type RulesData: Send + Sync + 'static;
    /// What one seat sees now ([`GameState::observation`]): printable, comparable.
    type Observation: Clone + PartialEq + Debug + Display + Send;

    /// The game's static facts ([`GameType`]): names, player range, dynamics, chance,
    /// information, utility, number of action ids. `sim info` prints them.
    const TYPE: GameType;
    /// Registry name, as typed on the command line (`daxu`): `TYPE.short_name`.
    const NAME: &'static str = Self::TYPE.short_name;
    /// One-line description for `sim list`: `TYPE.description`.
    const DESCRIPTION: &'static str = Self::TYPE.description;
    /// Smallest and largest supported player counts: `TYPE.players()`.
    const PLAYERS: (usize, usize) = Self::TYPE.players();
    /// Player count used when the user gives none: `TYPE.default_players`.
    const DEFAULT_PLAYERS: usize = Self::TYPE.default_players;
    /// Number of distinct action ids, `TYPE.num_action_ids`: every action's id is smaller.
    const NUM_ACTION_IDS: usize = Self::TYPE.num_action_ids;
    /// Validates `params` at `players` seats (already within [`GameState::PLAYERS`]) and derives
    /// the game's rules data. Called once per configuration by [`rules`].
    ///
    /// # Errors
    /// [`ParamError`] naming the parameter and why it does not fit (a variant that does not
    /// exist at this player count, a bad data file).
    fn build_rules(params: &Self::Params, players: usize) -> Result<Self::RulesData, ParamError>;

    /// A fresh game after setup, with setup chance (shuffles, deals) drawn from `chance`.
    fn new_game<C: Chance + ?Sized>(rules: RulesRef<Self>, chance: &mut C) -> Self;

    /// The rules this state is played under.
    fn rules(&self) -> RulesRef<Self>;

    /// Number of seats.
    fn num_players(&self) -> usize {
        self.rules().players()
    }

    /// Who acts now.
    fn turn(&self) -> Turn;

    /// Clears `out` and writes `player`'s legal actions into it: sorted, no duplicates,
    /// non-empty iff `player` acts now. Allocates only if `out` must grow.
    fn legal_actions(&self, player: Seat, out: &mut Vec<Self::Action>);

    /// Whether `action` is one of `player`'s legal actions now (the tournament runner asks
    /// this of every action an agent returns, before applying it). `buf` is scratch space.
    /// The default fills `buf` with [`GameState::legal_actions`] and searches it; a game may
    /// override it with a cheaper test that gives the same answer for every action (the
    /// conformance harness checks every action id at sampled nodes).
    fn is_legal(&self, player: Seat, action: Self::Action, buf: &mut Vec<Self::Action>) -> bool {
        self.legal_actions(player, buf);
        buf.contains(&action)
    }

    /// A uniformly random legal action of `player`, who must act now. `buf` is scratch
    /// space. The default fills `buf` with the legal actions and takes the one at
    /// `rng.random_range(0..len)`; a game may override it with a faster method that draws
    /// the same single number and returns the same action (the `k`-th legal action in sorted
    /// order), so that results never depend on the override.
    fn random_action(
        &self,
        player: Seat,
        buf: &mut Vec<Self::Action>,
        rng: &mut SimRng,
    ) -> Self::Action {
        uniform_legal_action(self, player, buf, rng)
    }

    /// Applies `player`'s action at a [`Turn::Player`] node, drawing any chance that
    /// follows from `chance`. Legality is only `debug_assert!`ed: use in hot loops.
    fn apply_unchecked<C: Chance + ?Sized>(
        &mut self,
        player: Seat,
        action: Self::Action,
        chance: &mut C,
    );

    /// Applies a joint action at a [`Turn::Simultaneous`] node. Legality is only
    /// `debug_assert!`ed.
    fn apply_joint_unchecked<C: Chance + ?Sized>(
        &mut self,
        joint: &JointAction<Self::Action>,
        chance: &mut C,
    );

    /// Final utilities for search, per seat. Default: win share (the seats ranked first
    /// share 1, everyone else gets 0). A game offering a `returns` parameter documents the
    /// choice ([`Utility`]). Only meaningful when terminal.
    fn returns(&self) -> PerSeat<f64> {
        returns_from_ranks(&self.ranks(), self.num_players())
    }

    /// An estimate of [`GameState::returns`] per seat, in the same units (documented per game);
    /// equal to `returns()` at a terminal state. Used by the greedy agent and rollout
    /// cut-offs. It may read hidden parts of the state: agents call it on determinized
    /// worlds, never through a [`View`].
    fn value(&self) -> PerSeat<f64>;

    /// Rulebook points per seat (only final at a terminal state).
    fn scores(&self) -> PerSeat<i32>;

    /// Final ranks per seat, 1 = best, with the rulebook's tie-breaks applied; seats still
    /// tied share a rank. Only meaningful when terminal.
    fn ranks(&self) -> PerSeat<u8>;

    /// [`GameState::scores`] and [`GameState::ranks`] together, as the runner records them once per
    /// game. Default: both calls; a game whose ranks come from its scores overrides it to
    /// score once.
    fn scores_and_ranks(&self) -> (PerSeat<i32>, PerSeat<u8>) {
        (self.scores(), self.ranks())
    }

    /// A 64-bit digest of [`GameState::information_state_string`] for `player` (computed without
    /// building the string): two states with the same key are, up to collisions,
    /// indistinguishable to `player` with everything it has seen.
    fn info_key(&self, player: Seat) -> u64;

    /// What `seat` sees now: equal for two states `seat` cannot tell apart at this moment.
    fn observation(&self, seat: Seat) -> Self::Observation;

    /// A state consistent with everything `observer` has seen: same info key, observation,
    /// turn and legal actions for `observer`, with everything hidden from `observer`
    /// resampled from `rng`. Games whose hidden parts are all lazily drawn chance return a
    /// clone.
    fn determinize(&self, observer: Seat, rng: &mut SimRng) -> Self;

    /// Marks this state as being played out: the caller promises never to ask it, or any
    /// state reached from it, for an information state ([`GameState::info_key`],
    /// [`GameState::information_state_string`]), and reads only turns, legal actions,
    /// returns, scores, values and observations. A game may then stop keeping its
    /// perfect-recall history. Called by [`random_playout`] and by the search agents'
    /// playouts. Default: nothing (the game keeps no history that costs time).
    /// Dunhuang stops folding its history digests (its module docs, "Speed"); its debug
    /// builds panic if asked for an information state afterwards.
    fn start_playout(&mut self) {}

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

    /// Rounds started so far, in the rulebook's sense: never decreasing, and the ply that
    /// ends the game starts none (so at the end it is the number of rounds played; the
    /// conformance harness checks both).
    fn round(&self) -> u32;

    /// Why the game ended (`deck_exhausted`, `instant_win`, ...), or `""` if not over.
    fn end_condition(&self) -> &'static str;

    /// An upper bound on the plies of this game from this state on, counted from the start
    /// (the runner's and the conformance harness's step limit). At a fresh state it is at
    /// most [`GameState::max_game_length`].
    fn max_plies(&self) -> u32;

    /// An upper bound on the plies of any game under `rules` (OpenSpiel's
    /// `MaxGameLength`; [`GameInfo::max_game_length`]), documented per game.
    fn max_game_length(rules: &Rules<Self>) -> u32;

    /// The observation tensor's layout under `rules`, field by field
    /// ([`GameState::observation_tensor`] writes exactly [`tensor_len`] of it). It depends only
    /// on the rules, never on the state.
    fn observation_layout(rules: &Rules<Self>) -> Vec<TensorField>;

    /// Writes what `seat` sees now into `out` as numbers: every element of `out`, whose
    /// length must be [`tensor_len`] of [`GameState::observation_layout`]. Finite values, equal in
    /// every state `seat` cannot tell apart now (it never reads a hidden card). Allocates
    /// nothing.
    ///
    /// # Panics
    /// May panic if `out` has the wrong length.
    fn observation_tensor(&self, seat: Seat, out: &mut [f32]);

    /// What `seat` sees now, as text ([`GameState::observation`] printed). Equal in every state
    /// `seat` cannot tell apart now.
    fn observation_string(&self, seat: Seat) -> String {
        self.observation(seat).to_string()
    }

    /// Everything `seat` has seen since the game began, as text (its information state):
    /// two states with different observation histories for `seat` (or different actions of
    /// `seat`) give different strings when [`GameType::perfect_recall`]. [`GameState::info_key`]
    /// is a digest of it: equal strings give equal keys and, up to 64-bit collisions,
    /// different strings different keys (the conformance harness checks both).
    fn information_state_string(&self, seat: Seat) -> String;

    /// Writes `seat`'s legal actions as a mask over the action ids into `out` (length
    /// [`GameType::num_action_ids`]): 1 for a legal action, else 0. `buf` is scratch space.
    ///
    /// # Panics
    /// May panic if `out` is shorter than `num_action_ids`.
    fn legal_actions_mask(&self, seat: Seat, buf: &mut Vec<Self::Action>, out: &mut [u8]) {
        out.fill(0);
        self.legal_actions(seat, buf);
        for &a in buf.iter() {
            out[Self::action_id(a)] = 1;
        }
    }

    /// Checks a state that did not come from play (a loaded position): every field within
    /// its range and consistent with the rules and with the other fields (conservation of
    /// cards, lengths within capacities), so that no method panics on it or misbehaves.
    /// Every state reached by play passes (the conformance harness checks it at every
    /// node). Default: no check, for games whose every field value is a valid position.
    ///
    /// # Errors
    /// Which check failed, with the offending values.
    fn validate(&self) -> Result<(), InvalidState> {
        Ok(())
    }

    /// Checked apply at a [`Turn::Player`] node.
    ///
    /// # Errors
    /// [`GameError::Terminal`], [`GameError::NotYourTurn`], [`GameError::WrongNodeKind`]
    /// (simultaneous node) or [`GameError::IllegalAction`] naming the action.
    fn apply<C: Chance + ?Sized>(
        &mut self,
        player: Seat,
        action: Self::Action,
        chance: &mut C,
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
        self.apply_unchecked(player, action, chance);
        Ok(())
    }

    /// Checked apply of a joint action at a [`Turn::Simultaneous`] node.
    ///
    /// # Errors
    /// As [`GameState::apply`]; also when a seat that acts has `None` or a seat that does not
    /// act has `Some`.
    fn apply_joint<C: Chance + ?Sized>(
        &mut self,
        joint: &JointAction<Self::Action>,
        chance: &mut C,
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
        self.apply_joint_unchecked(joint, chance);
        Ok(())
    }
}

/// Optional capability: the metrics and labels of a finished game, for balance questions
/// (`games.csv` columns, `metrics.csv`, `labels.csv`). Every item has a default (none), so
/// a new game starts with `impl Measured for State {}`.
pub trait Measured: GameState {
    /// The per-seat metrics [`Measured::metrics`] fills (at most [`MAX_METRICS`]); they become
    /// `games.csv` columns.
    const SEAT_METRICS: &'static [Column] = &[];
    /// The per-game metrics (at most [`MAX_METRICS`]).
    const GAME_METRICS: &'static [Column] = &[];
    /// The per-seat labels [`Measured::labels`] fills (at most [`MAX_LABELS`]).
    const SEAT_LABELS: &'static [Column] = &[];
    /// The per-game labels (at most [`MAX_LABELS`]).
    const GAME_LABELS: &'static [Column] = &[];
    /// Names of label columns (seat or game) whose values are sets: members joined by `/`.
    /// `labels.csv` then groups the seats by each member (e.g. each Dunhuang character in
    /// play) instead of by the whole value.
    const SET_LABELS: &'static [&'static str] = &[];
    /// Seat metrics that are bit sets, with the name of each bit (bit 0 first):
    /// `labels.csv` gets one group per bit, holding the seats whose metric has that bit set
    /// (e.g. the characters whose power a seat used).
    const FLAG_METRICS: &'static [(&'static str, &'static [&'static str])] = &[];
    /// Seat metrics that count actions taken (besides every `actions_*` column): the
    /// report's action-frequency section lists them (e.g. Daxu's action cards).
    const ACTION_METRICS: &'static [&'static str] = &[];

    /// Writes the declared metrics ([`Measured::SEAT_METRICS`], [`Measured::GAME_METRICS`]) of
    /// this state (read at the end of a game) into `out`, which starts zeroed. Default:
    /// none.
    fn metrics(&self, out: &mut Metrics) {
        let _ = out;
    }

    /// Writes the declared labels ([`Measured::SEAT_LABELS`], [`Measured::GAME_LABELS`]) into
    /// `out`, which starts empty. Default: none.
    fn labels(&self, out: &mut Labels) {
        let _ = out;
    }
}

/// Optional capability: the running score (the points each seat would have if the game
/// ended now), read by `--decisiveness`. Default: none (`--decisiveness` refuses the game),
/// so a new game starts with `impl RunningScore for State {}`.
pub trait RunningScore: GameState {
    /// Whether [`GameState::scores`] is meaningful before the end: the points each seat would
    /// have if the game ended now. Default `false`: `--decisiveness` refuses the game.
    const HAS_RUNNING_SCORE: bool = false;

    /// The running score per seat (higher is better), read at the end of each round by
    /// `--decisiveness` ([`crate::tournament::decisiveness`]) to name the leader: the
    /// scores now when [`RunningScore::HAS_RUNNING_SCORE`], else `None`. It may read hidden parts
    /// of the state (the runner sees everything).
    fn running_score(&self) -> Option<PerSeat<i32>> {
        Self::HAS_RUNNING_SCORE.then(|| self.scores())
    }
}

/// A complete game state type: the required core ([`GameState`]) with every optional
/// capability ([`Measured`], [`RunningScore`], the game log [`crate::games::log::Logged`]),
/// each of which may be an empty `impl` taking the defaults. What the runner, the CLI and the
/// reports take; implemented automatically for every type that has all four.
pub trait Playable: GameState + Measured + RunningScore + crate::games::log::Logged {}

impl<T: GameState + Measured + RunningScore + crate::games::log::Logged> Playable for T {}

fn check_legal<G: GameState>(g: &G, player: Seat, action: G::Action) -> Result<(), GameError> {
    let mut legal = Vec::new();
    if g.is_legal(player, action, &mut legal) {
        Ok(())
    } else {
        // The list for the message (an override of `is_legal` may not have filled it).
        g.legal_actions(player, &mut legal);
        Err(GameError::IllegalAction {
            player,
            action: action.to_string(),
            position: format!("{} ply {}, round {}", G::NAME, g.ply(), g.round()),
            legal: legal
                .iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

/// Win = 1, loss = 0, ties split: the seats with rank 1 share one point.
pub fn returns_from_ranks(ranks: &PerSeat<u8>, n: usize) -> PerSeat<f64> {
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
pub fn ranks_by_key<K: PartialOrd + Copy>(keys: &PerSeat<K>, n: usize) -> PerSeat<u8> {
    let mut out = [0u8; MAX_PLAYERS];
    for p in 0..n {
        out[p] = 1 + (0..n).filter(|&q| keys[q] > keys[p]).count() as u8;
    }
    out
}

/// A seat-restricted view of a state: what an agent at `seat` may see. It is the only way
/// agents reach a state, so an agent that needs hidden parts must call
/// [`View::determinize`].
pub struct View<'a, G: GameState> {
    state: &'a G,
    seat: Seat,
}

impl<'a, G: GameState> View<'a, G> {
    /// Wraps `state` for `seat`. Only the runner and tests build views.
    pub fn new(state: &'a G, seat: Seat) -> Self {
        View { state, seat }
    }

    /// A uniformly random legal action of this seat ([`GameState::random_action`]).
    pub fn random_action(&self, buf: &mut Vec<G::Action>, rng: &mut SimRng) -> G::Action {
        self.state.random_action(self.seat, buf, rng)
    }

    /// The seat this view belongs to.
    pub fn seat(&self) -> Seat {
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

    /// This seat's legal actions (see [`GameState::legal_actions`]).
    pub fn legal_actions(&self, out: &mut Vec<G::Action>) {
        self.state.legal_actions(self.seat, out)
    }

    /// This seat's information-set key.
    pub fn info_key(&self) -> u64 {
        self.state.info_key(self.seat)
    }

    /// A sampled state consistent with this seat's information (see [`GameState::determinize`]).
    pub fn determinize(&self, rng: &mut SimRng) -> G {
        self.state.determinize(self.seat, rng)
    }

    /// What this seat sees now ([`GameState::observation`]).
    pub fn observation(&self) -> G::Observation {
        self.state.observation(self.seat)
    }

    /// The rules of the game being played.
    pub fn rules(&self) -> RulesRef<G> {
        self.state.rules()
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.state.ply()
    }

    /// Rounds started so far.
    pub fn round(&self) -> u32 {
        self.state.round()
    }

    /// The final scores and ranks ([`GameState::scores_and_ranks`]) once the game is over (they
    /// are public then), or `None` before.
    pub fn outcome(&self) -> Option<(PerSeat<i32>, PerSeat<u8>)> {
        self.state
            .turn()
            .is_terminal()
            .then(|| self.state.scores_and_ranks())
    }
}

/// Plays one ply at `state`: `choose(state, seat, chance)` picks each acting seat's action
/// (every seat of a simultaneous node chooses from the same pre-move state, so none sees
/// another's pending choice), then the ply is applied with chance from `chance`. Returns
/// the turn it was played at and the joint action (one `Some` at a turn-based node), or
/// `None` at a terminal state. This is the one ply loop of the crate: the runner, playouts,
/// `sim play` and the conformance harness all go through it.
#[inline]
pub fn play_ply<G: GameState, C: Chance + ?Sized>(
    state: &mut G,
    chance: &mut C,
    mut choose: impl FnMut(&G, Seat, &mut C) -> G::Action,
) -> Option<(Turn, JointAction<G::Action>)> {
    let turn = state.turn();
    let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
    match turn {
        Turn::Terminal => return None,
        Turn::Player(p) => {
            let a = choose(state, p, chance);
            joint[p] = Some(a);
            state.apply_unchecked(p, a, chance);
        }
        Turn::Simultaneous(set) => {
            for p in set.iter() {
                joint[p] = Some(choose(state, p, chance));
            }
            state.apply_joint_unchecked(&joint, chance);
        }
    }
    Some((turn, joint))
}

/// The default [`GameState::random_action`]: fills `buf` with `player`'s legal actions and
/// returns the one at `rng.random_range(0..len)`. A game whose override handles only some
/// nodes quickly calls this for the others.
///
/// # Panics
/// Debug builds panic if `player` has no legal action.
pub fn uniform_legal_action<G: GameState>(
    state: &G,
    player: Seat,
    buf: &mut Vec<G::Action>,
    rng: &mut SimRng,
) -> G::Action {
    state.legal_actions(player, buf);
    debug_assert!(
        !buf.is_empty(),
        "random_action for a seat that does not act"
    );
    buf[rng.random_range(0..buf.len())]
}

/// Plays `games` uniformly random games under `rules` ([`GameState::new_game`], then
/// [`random_playout`]), all chance and actions from `rng`, and returns the sum of seat
/// 0's returns: the loop of the playout benches and the allocation test. Allocates
/// nothing once `buf` has grown.
pub fn random_games<G: GameState>(
    rules: RulesRef<G>,
    games: u64,
    buf: &mut Vec<G::Action>,
    rng: &mut SimRng,
) -> f64 {
    let mut total = 0.0;
    for _ in 0..games {
        let mut s = G::new_game(rules, rng);
        total += random_playout(&mut s, buf, rng)[0];
    }
    total
}

/// Plays uniformly random legal actions ([`GameState::random_action`]) until the game ends;
/// returns the final state's [`GameState::returns`]. The state is played out
/// ([`GameState::start_playout`]): ask it for no information state afterwards. Actions and chance share `rng`. Allocates
/// nothing once `buf` has grown.
pub fn random_playout<G: GameState>(
    state: &mut G,
    buf: &mut Vec<G::Action>,
    rng: &mut SimRng,
) -> PerSeat<f64> {
    state.start_playout();
    while play_ply(state, rng, |s, p, r| s.random_action(p, buf, r)).is_some() {}
    state.returns()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn popcount_tables_equal_count_ones() {
        for x in 0..=u16::MAX {
            assert_eq!(popcount16(x), x.count_ones(), "{x:#x}");
        }
        for x in 0..=u8::MAX {
            assert_eq!(SeatSet(x).len(), x.count_ones() as usize, "{x:#x}");
        }
        for x in 1..=u16::MAX {
            for k in 0..x.count_ones() {
                assert_eq!(nth_bit16(x, k), nth_bit(u32::from(x), k), "{x:#x} {k}");
            }
        }
        for x in 1..=u8::MAX {
            for k in 0..x.count_ones() {
                assert_eq!(nth_bit8(x, k), nth_bit(u32::from(x), k), "{x:#x} {k}");
            }
        }
    }
}
