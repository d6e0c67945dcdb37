//! `tabletop_sim._tabletop_sim`: the Rust half of the Python package (`import tabletop_sim`).
//!
//! Every game of the registry ([`tabletop_sim::games::NAMES`]) is reached by name through
//! [`tabletop_sim::dispatch_game!`] and wrapped in two object-safe traits, [`DynGame`] (the
//! validated rules and the game's facts) and [`DynState`] (one state with its own chance
//! stream), so that one pair of Python classes, `Game` and `State`, serves every game.
//!
//! Actions cross the boundary as their stable integer ids ([`GameState::action_id`]), seats as
//! `0..players`. Every error is a Python exception carrying the library's message
//! (`ValueError` for a bad game, variant, seat, action or position text); no input reachable
//! from Python panics, except the `panic` test agent's deliberate panic, which PyO3 turns into
//! a `PanicException` (the interpreter survives).

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use tabletop_sim::game::{JointAction, RulesRef, rules, tensor_len};
use tabletop_sim::params::ParamSet;
use tabletop_sim::position::{Position, Streams, game_of};
use tabletop_sim::rng::{rng_for, rng_from_seed};
use tabletop_sim::{GameInfo, GameState, MAX_PLAYERS, Playable, SimRng, Turn, dispatch_game};

/// OpenSpiel's player id of a simultaneous node (`kSimultaneousPlayerId`).
const SIMULTANEOUS: i64 = -2;
/// OpenSpiel's player id of a terminal state (`kTerminalPlayerId`).
const TERMINAL: i64 = -4;

/// Chance forced from a list of picks, for explicit chance nodes (the OpenSpiel bridge): pick
/// `i` is `script[i] % n`; past the end of the script every pick is 0, and the sizes of all
/// picks asked are recorded, so a caller learns the size of the first unscripted pick and
/// can extend the script one outcome at a time (each outcome of a pick of size `n` has
/// probability `1/n`, as [`tabletop_sim::game::ScriptedChance`] documents).
struct Probe<'a> {
    script: &'a [u32],
    asked: Vec<u32>,
}

impl tabletop_sim::game::Chance for Probe<'_> {
    fn below(&mut self, n: u32) -> u32 {
        let i = self.asked.len();
        self.asked.push(n);
        self.script.get(i).map_or(0, |&x| x % n)
    }
}

/// One game under validated rules, whatever the game: what `Game` needs from it.
trait DynGame: Send + Sync {
    /// The facts under these rules.
    fn info(&self) -> GameInfo;
    /// Every rule parameter as `key=value`, in declaration order.
    fn variant(&self) -> Vec<String>;
    /// A fresh game whose setup chance and later chance come from `chance`.
    fn new_state(&self, chance: SimRng, seed: u64) -> Box<dyn DynState>;
    /// A fresh game whose setup chance comes from `picks` ([`Probe`]), with the sizes of the
    /// picks it asked; its later chance from the stream of `seed`.
    fn new_state_scripted(&self, picks: &[u32], seed: u64) -> (Box<dyn DynState>, Vec<u32>);
    /// A saved position of this game under these rules ([`tabletop_sim::position`]).
    fn deserialize(&self, text: &str, seed: u64) -> Result<Box<dyn DynState>, String>;
    /// The name of action `id`, if `id` is an action of the game.
    fn action_name(&self, id: usize) -> Option<String>;
    /// The id of the action named `text`.
    fn parse_action(&self, text: &str) -> Option<usize>;
    /// The built-in agent `spec` for this game (with the game's agent defaults).
    fn make_agent(&self, spec: &str) -> Result<Box<dyn DynAgent>, String>;
    /// The registry name.
    fn name(&self) -> &'static str;
}

/// A built-in agent of some game: what `Agent` needs from it.
trait DynAgent: Send {
    /// A legal action id for `seat`, who acts at `state`.
    fn step(
        &mut self,
        state: &dyn DynState,
        seat: usize,
        rng: &mut SimRng,
    ) -> Result<usize, String>;
}

struct AgentImpl<G: Playable> {
    agent: Box<dyn tabletop_sim::Agent<G>>,
    /// The seat and ply of the last decision: a new seat or an earlier ply starts a game.
    last: Option<(usize, u32)>,
}

impl<G: Playable> DynAgent for AgentImpl<G> {
    fn step(
        &mut self,
        state: &dyn DynState,
        seat: usize,
        rng: &mut SimRng,
    ) -> Result<usize, String> {
        let s = state
            .as_any()
            .downcast_ref::<StateImpl<G>>()
            .ok_or_else(|| {
                format!(
                    "this agent was built for {}; the state is of another game",
                    G::NAME
                )
            })?;
        if !s.state.turn().actors().contains(seat) {
            return Err(format!(
                "seat {seat} does not act now (acting seats {:?})",
                s.state.turn().actors().iter().collect::<Vec<_>>()
            ));
        }
        let ply = s.state.ply();
        if self.last.is_none_or(|(st, p)| st != seat || p > ply) {
            self.agent.start_game(&tabletop_sim::game::GameStart {
                seat,
                index: 0,
                rules: s.state.rules(),
            });
        }
        self.last = Some((seat, ply));
        let action = self
            .agent
            .act(&tabletop_sim::View::new(&s.state, seat), rng);
        Ok(G::action_id(action))
    }
}

/// One state of some game with its chance stream: what `State` needs from it.
trait DynState: Send + Sync {
    fn clone_box(&self) -> Box<dyn DynState>;
    fn turn(&self) -> Turn;
    fn players(&self) -> usize;
    fn num_action_ids(&self) -> usize;
    fn legal(&mut self, seat: usize) -> Vec<usize>;
    fn mask(&mut self, seat: usize, out: &mut [u8]);
    fn apply(&mut self, seat: usize, id: usize) -> Result<(), String>;
    fn apply_joint(&mut self, ids: &[Option<usize>]) -> Result<(), String>;
    /// As `apply` (one seat) or `apply_joint` (`seat == None`), with the chance that follows
    /// drawn from `picks` ([`Probe`]); returns the sizes of the picks asked.
    fn apply_scripted(
        &mut self,
        seat: Option<usize>,
        ids: &[Option<usize>],
        picks: &[u32],
    ) -> Result<Vec<u32>, String>;
    /// The id of a uniformly random legal action of `seat`, who must act now.
    fn random_id(&mut self, seat: usize, rng: &mut SimRng) -> usize;
    fn returns(&self) -> Vec<f64>;
    fn scores(&self) -> Vec<i32>;
    fn obs_len(&self) -> usize;
    fn obs_tensor(&self, seat: usize, out: &mut [f32]);
    fn info_string(&self, seat: usize) -> String;
    fn obs_string(&self, seat: usize) -> String;
    fn display(&self) -> String;
    fn serialize(&self) -> String;
    fn determinize(&self, seat: usize, seed: u64) -> Box<dyn DynState>;
    fn action_name(&self, id: usize) -> Option<String>;
    fn parse_action(&self, text: &str) -> Option<usize>;
    fn ply(&self) -> u32;
    fn round(&self) -> u32;
    fn end_condition(&self) -> &'static str;
    fn eq_dyn(&self, other: &dyn DynState) -> bool;
    fn as_any(&self) -> &dyn std::any::Any;
    fn game(&self) -> Box<dyn DynGame>;
}

struct GameImpl<G: Playable> {
    rules: RulesRef<G>,
}

struct StateImpl<G: Playable> {
    state: G,
    /// The state's own chance stream: every apply draws from it.
    chance: SimRng,
    /// The seed the stream came from, written into saved positions.
    seed: u64,
    buf: Vec<G::Action>,
    obs_len: usize,
}

impl<G: Playable> Clone for StateImpl<G> {
    fn clone(&self) -> Self {
        StateImpl {
            state: self.state.clone(),
            chance: self.chance.clone(),
            seed: self.seed,
            buf: Vec::new(),
            obs_len: self.obs_len,
        }
    }
}

fn action_of<G: GameState>(id: usize) -> Result<G::Action, String> {
    G::action_from_id(id).ok_or_else(|| {
        format!(
            "{id} is not an action id of {} (ids are 0..{}; see legal_actions())",
            G::NAME,
            G::NUM_ACTION_IDS
        )
    })
}

impl<G: Playable> StateImpl<G> {
    fn new(state: G, chance: SimRng, seed: u64) -> Self {
        let obs_len = tensor_len(&G::observation_layout(&state.rules()));
        StateImpl {
            state,
            chance,
            seed,
            buf: Vec::new(),
            obs_len,
        }
    }
}

impl<G: Playable> DynGame for GameImpl<G> {
    fn info(&self) -> GameInfo {
        GameInfo::of(&self.rules)
    }
    fn variant(&self) -> Vec<String> {
        self.rules.variant()
    }
    fn new_state(&self, mut chance: SimRng, seed: u64) -> Box<dyn DynState> {
        let state = G::new_game(self.rules, &mut chance);
        Box::new(StateImpl::new(state, chance, seed))
    }
    fn new_state_scripted(&self, picks: &[u32], seed: u64) -> (Box<dyn DynState>, Vec<u32>) {
        let mut probe = Probe {
            script: picks,
            asked: Vec::new(),
        };
        let state = G::new_game(self.rules, &mut probe);
        (
            Box::new(StateImpl::new(state, rng_for(seed, 0, 0), seed)),
            probe.asked,
        )
    }
    fn deserialize(&self, text: &str, seed: u64) -> Result<Box<dyn DynState>, String> {
        let s = parse_position::<G>(text, seed)?;
        if s.state.rules() != self.rules {
            return Err(format!(
                "the position's rules ({} players, {}) differ from this game's ({} players, {}); \
                 use tabletop_sim.deserialize_state to load it with its own rules",
                s.state.num_players(),
                s.state.rules().variant().join(","),
                self.rules.players(),
                self.rules.variant().join(",")
            ));
        }
        Ok(Box::new(s))
    }
    fn action_name(&self, id: usize) -> Option<String> {
        G::action_from_id(id).map(|a| a.to_string())
    }
    fn parse_action(&self, text: &str) -> Option<usize> {
        G::parse_action(text).map(G::action_id)
    }
    fn make_agent(&self, spec: &str) -> Result<Box<dyn DynAgent>, String> {
        let agent = tabletop_sim::agents::build::<G>(spec).map_err(|e| e.to_string())?;
        Ok(Box::new(AgentImpl { agent, last: None }))
    }
    fn name(&self) -> &'static str {
        G::NAME
    }
}

/// Parses a saved position of `G`, resuming its chance stream if it has one (else seeding a
/// new one from `seed`).
fn parse_position<G: Playable>(text: &str, seed: u64) -> Result<StateImpl<G>, String> {
    let pos = Position::<G>::parse(text).map_err(|e| format!("position text: {e}"))?;
    let (chance, seed) = match pos.streams {
        Some(s) => (s.chance, s.seed),
        None => (rng_for(seed, 0, 0), seed),
    };
    Ok(StateImpl::new(pos.state, chance, seed))
}

impl<G: Playable> DynState for StateImpl<G> {
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn turn(&self) -> Turn {
        self.state.turn()
    }
    fn players(&self) -> usize {
        self.state.num_players()
    }
    fn num_action_ids(&self) -> usize {
        G::NUM_ACTION_IDS
    }
    fn legal(&mut self, seat: usize) -> Vec<usize> {
        if !self.state.turn().actors().contains(seat) {
            return Vec::new();
        }
        self.state.legal_actions(seat, &mut self.buf);
        self.buf.iter().map(|&a| G::action_id(a)).collect()
    }
    fn mask(&mut self, seat: usize, out: &mut [u8]) {
        if !self.state.turn().actors().contains(seat) {
            out.fill(0);
            return;
        }
        self.state.legal_actions_mask(seat, &mut self.buf, out);
    }
    fn apply(&mut self, seat: usize, id: usize) -> Result<(), String> {
        let a = action_of::<G>(id)?;
        self.state
            .apply(seat, a, &mut self.chance)
            .map_err(|e| e.to_string())
    }
    fn apply_joint(&mut self, ids: &[Option<usize>]) -> Result<(), String> {
        let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
        for (slot, id) in joint.iter_mut().zip(ids) {
            if let Some(id) = id {
                *slot = Some(action_of::<G>(*id)?);
            }
        }
        self.state
            .apply_joint(&joint, &mut self.chance)
            .map_err(|e| e.to_string())
    }
    fn apply_scripted(
        &mut self,
        seat: Option<usize>,
        ids: &[Option<usize>],
        picks: &[u32],
    ) -> Result<Vec<u32>, String> {
        let mut probe = Probe {
            script: picks,
            asked: Vec::new(),
        };
        match seat {
            Some(seat) => {
                let id = ids.get(seat).copied().flatten().ok_or("no action given")?;
                let a = action_of::<G>(id)?;
                self.state.apply(seat, a, &mut probe)
            }
            None => {
                let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
                for (slot, id) in joint.iter_mut().zip(ids) {
                    if let Some(id) = id {
                        *slot = Some(action_of::<G>(*id)?);
                    }
                }
                self.state.apply_joint(&joint, &mut probe)
            }
        }
        .map_err(|e| e.to_string())?;
        Ok(probe.asked)
    }
    fn random_id(&mut self, seat: usize, rng: &mut SimRng) -> usize {
        G::action_id(self.state.random_action(seat, &mut self.buf, rng))
    }
    fn returns(&self) -> Vec<f64> {
        let n = self.players();
        if self.state.turn().is_terminal() {
            self.state.returns()[..n].to_vec()
        } else {
            vec![0.0; n]
        }
    }
    fn scores(&self) -> Vec<i32> {
        self.state.scores()[..self.players()].to_vec()
    }
    fn obs_len(&self) -> usize {
        self.obs_len
    }
    fn obs_tensor(&self, seat: usize, out: &mut [f32]) {
        self.state.observation_tensor(seat, out);
    }
    fn info_string(&self, seat: usize) -> String {
        self.state.information_state_string(seat)
    }
    fn obs_string(&self, seat: usize) -> String {
        self.state.observation_string(seat)
    }
    fn display(&self) -> String {
        self.state.to_string()
    }
    fn serialize(&self) -> String {
        let players = self.players() as u64;
        let pos = Position {
            state: self.state.clone(),
            streams: Some(Streams {
                seed: self.seed,
                index: 0,
                chance: self.chance.clone(),
                seats: (0..players).map(|s| rng_for(self.seed, 0, 1 + s)).collect(),
            }),
        };
        pos.to_json()
    }
    fn determinize(&self, seat: usize, seed: u64) -> Box<dyn DynState> {
        let mut rng = rng_from_seed(seed);
        let state = self.state.determinize(seat, &mut rng);
        Box::new(StateImpl::new(state, rng_for(seed, 0, 0), seed))
    }
    fn action_name(&self, id: usize) -> Option<String> {
        G::action_from_id(id).map(|a| a.to_string())
    }
    fn parse_action(&self, text: &str) -> Option<usize> {
        G::parse_action(text).map(G::action_id)
    }
    fn ply(&self) -> u32 {
        self.state.ply()
    }
    fn round(&self) -> u32 {
        self.state.round()
    }
    fn end_condition(&self) -> &'static str {
        self.state.end_condition()
    }
    fn eq_dyn(&self, other: &dyn DynState) -> bool {
        other
            .as_any()
            .downcast_ref::<StateImpl<G>>()
            .is_some_and(|o| o.state == self.state)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn game(&self) -> Box<dyn DynGame> {
        Box::new(GameImpl {
            rules: self.state.rules(),
        })
    }
}

fn make_game<G: Playable>(
    players: Option<usize>,
    variant: &[String],
) -> Result<Box<dyn DynGame>, String> {
    let owner = format!("game {}", G::NAME);
    let params = G::Params::from_settings(variant, &owner).map_err(|e| e.to_string())?;
    let rules =
        rules::<G>(&params, players.unwrap_or(G::DEFAULT_PLAYERS)).map_err(|e| e.to_string())?;
    Ok(Box::new(GameImpl { rules }))
}

fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// A value of a `**variant` keyword as it is typed on the command line: Python booleans as
/// `true`/`false`, everything else by `str()`.
fn variant_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.cast::<pyo3::types::PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    Ok(value.str()?.to_string())
}

/// A game under validated rules (OpenSpiel's `Game`): its facts and a factory of states.
///
/// Built by `load_game(name, players=None, **variant)`. Immutable.
#[pyclass(frozen, module = "tabletop_sim")]
struct Game {
    inner: Box<dyn DynGame>,
    info: GameInfo,
}

impl Game {
    fn from_dyn(inner: Box<dyn DynGame>) -> Self {
        let info = inner.info();
        Game { inner, info }
    }
}

#[pymethods]
impl Game {
    /// Registry name (`"daxu"`).
    #[getter]
    fn name(&self) -> &'static str {
        self.info.game_type.short_name
    }
    /// Full name (`"Merchants of Dunhuang"`).
    #[getter]
    fn long_name(&self) -> &'static str {
        self.info.game_type.long_name
    }
    /// One-line description.
    #[getter]
    fn description(&self) -> &'static str {
        self.info.game_type.description
    }
    /// Seats in this configuration.
    fn num_players(&self) -> usize {
        self.info.players
    }
    /// `(min, max)` supported player counts.
    #[getter]
    fn player_range(&self) -> (usize, usize) {
        self.info.game_type.players()
    }
    /// Number of distinct action ids: every action id is smaller; the mask's length.
    fn num_distinct_actions(&self) -> usize {
        self.info.game_type.num_action_ids
    }
    /// An upper bound on the plies of any game under these rules.
    fn max_game_length(&self) -> u32 {
        self.info.max_game_length
    }
    /// The observation tensor's shape, `[len]` (flat, float32).
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.info.observation_shape.clone()
    }
    /// The observation tensor's length.
    fn observation_tensor_size(&self) -> usize {
        self.info.observation_shape.iter().product()
    }
    /// The observation tensor's fields in order, as `(name, length, meaning)` tuples.
    fn observation_layout(&self) -> Vec<(String, usize, &'static str)> {
        self.info
            .observation_layout
            .iter()
            .map(|f| (f.name.clone(), f.len, f.meaning))
            .collect()
    }
    /// `"sequential"` or `"simultaneous"`.
    #[getter]
    fn dynamics(&self) -> &'static str {
        match self.info.game_type.dynamics {
            tabletop_sim::game::Dynamics::Sequential => "sequential",
            tabletop_sim::game::Dynamics::Simultaneous => "simultaneous",
        }
    }
    /// `"deterministic"` or `"sampled_stochastic"` (chance is drawn inside apply).
    #[getter]
    fn chance_mode(&self) -> &'static str {
        match self.info.game_type.chance_mode {
            tabletop_sim::game::ChanceMode::Deterministic => "deterministic",
            tabletop_sim::game::ChanceMode::SampledStochastic => "sampled_stochastic",
        }
    }
    /// `"perfect"` or `"imperfect"`.
    #[getter]
    fn information(&self) -> &'static str {
        match self.info.game_type.information {
            tabletop_sim::game::Information::Perfect => "perfect",
            tabletop_sim::game::Information::Imperfect => "imperfect",
        }
    }
    /// `"zero_sum"`, `"constant_sum"` or `"general_sum"` (under the default returns).
    #[getter]
    fn utility(&self) -> &'static str {
        match self.info.game_type.utility {
            tabletop_sim::game::UtilityKind::ZeroSum => "zero_sum",
            tabletop_sim::game::UtilityKind::ConstantSum => "constant_sum",
            tabletop_sim::game::UtilityKind::GeneralSum => "general_sum",
        }
    }
    /// Whether `information_state_string` is perfect recall.
    #[getter]
    fn perfect_recall(&self) -> bool {
        self.info.game_type.perfect_recall
    }
    /// Every rule parameter as `"key=value"`, in declaration order (defaults included).
    #[getter]
    fn variant(&self) -> Vec<String> {
        self.inner.variant()
    }
    /// Every fact as a dict (what `sim info --format json` prints).
    fn facts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = serde_json::to_string(&self.info).map_err(|e| value_error(e.to_string()))?;
        py.import("json")?.call_method1("loads", (json,))
    }
    /// A fresh game. Its chance (setup and later) comes from the stream of game 0 of a
    /// tournament run with master seed `seed`, so equal seeds give equal games.
    #[pyo3(signature = (seed = 0))]
    fn new_initial_state(slf: &Bound<'_, Self>, seed: u64) -> State {
        let inner = slf.get().inner.new_state(rng_for(seed, 0, 0), seed);
        State::new(inner, slf.clone().unbind())
    }
    /// A fresh game whose setup chance is forced: pick `i` (a uniform draw from `0..n_i`) is
    /// `picks[i] % n_i`, and 0 past the end of `picks`. Returns the state and the sizes
    /// `[n_0, n_1, ...]` of every pick setup asked for; when that list is longer than
    /// `picks`, the state is one arbitrary completion and the next pick has size
    /// `n_{len(picks)}` (explicit chance nodes, each outcome with probability `1/n`). Later
    /// chance comes from the stream of `seed`.
    #[pyo3(signature = (picks, seed = 0))]
    fn new_initial_state_with_chance(
        slf: &Bound<'_, Self>,
        picks: Vec<u32>,
        seed: u64,
    ) -> (State, Vec<u32>) {
        let (inner, asked) = slf.get().inner.new_state_scripted(&picks, seed);
        (State::new(inner, slf.clone().unbind()), asked)
    }
    /// A state from a saved position (`State.serialize()` or `sim play --save-at`) of this
    /// game under these rules. Its chance stream resumes from the position's streams, or
    /// starts from `seed` if it has none.
    ///
    /// Raises `ValueError` naming the problem (not a position, another game, other rules,
    /// an invalid state).
    #[pyo3(signature = (text, seed = 0))]
    fn deserialize_state(slf: &Bound<'_, Self>, text: &str, seed: u64) -> PyResult<State> {
        let inner = slf
            .get()
            .inner
            .deserialize(text, seed)
            .map_err(value_error)?;
        Ok(State::new(inner, slf.clone().unbind()))
    }
    /// The name of action `action` (an id), as `sim play` prints it.
    ///
    /// Raises `ValueError` for an id that is no action of the game.
    #[pyo3(signature = (action, seat = None))]
    fn action_to_string(&self, action: usize, seat: Option<i64>) -> PyResult<String> {
        // The seat is accepted for OpenSpiel's signature; names do not depend on it.
        if let Some(s) = seat
            && usize::try_from(s).map_or(true, |s| s >= self.info.players)
        {
            return Err(value_error(format!(
                "seat {s} is out of range: this game has {} seats",
                self.info.players
            )));
        }
        self.inner.action_name(action).ok_or_else(|| {
            value_error(format!(
                "{action} is not an action id of {} (ids are 0..{})",
                self.name(),
                self.num_distinct_actions()
            ))
        })
    }
    /// The id of the action named `text` (the inverse of `action_to_string`).
    ///
    /// Raises `ValueError` if no action has that name.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        self.inner.parse_action(text).ok_or_else(|| {
            value_error(format!(
                "'{text}' is not an action of {} (see action_to_string of the legal actions)",
                self.name()
            ))
        })
    }
    fn __repr__(&self) -> String {
        format!(
            "tabletop_sim.load_game({:?}, players={}, variant=[{}])",
            self.name(),
            self.info.players,
            self.inner.variant().join(", ")
        )
    }
}

/// One state of a game with its own chance stream (OpenSpiel's `State`). Mutable:
/// `apply_action` changes it in place; `clone()` copies it with its chance stream.
#[pyclass(module = "tabletop_sim")]
struct State {
    inner: Box<dyn DynState>,
    game: Py<Game>,
}

impl State {
    fn new(inner: Box<dyn DynState>, game: Py<Game>) -> Self {
        State { inner, game }
    }

    fn seat(&self, seat: i64) -> PyResult<usize> {
        let n = self.inner.players();
        usize::try_from(seat)
            .ok()
            .filter(|&s| s < n)
            .ok_or_else(|| {
                value_error(format!(
                    "seat {seat} is out of range: this game has {n} seats (0..{})",
                    n - 1
                ))
            })
    }

    /// The per-seat action ids of a joint action given as a list or a dict.
    fn joint_ids(&self, actions: &Bound<'_, PyAny>) -> PyResult<Vec<Option<usize>>> {
        let n = self.inner.players();
        let mut ids: Vec<Option<usize>> = vec![None; n];
        let parse = |v: &Bound<'_, PyAny>| -> PyResult<Option<usize>> {
            if v.is_none() {
                return Ok(None);
            }
            let a: i64 = v.extract()?;
            usize::try_from(a)
                .map(Some)
                .map_err(|_| value_error(format!("{a} is not an action id (ids are >= 0)")))
        };
        if let Ok(d) = actions.cast::<PyDict>() {
            for (k, v) in d.iter() {
                let s = self.seat(k.extract()?)?;
                ids[s] = parse(&v)?;
            }
        } else {
            let list: Vec<Bound<'_, PyAny>> = actions.extract()?;
            if list.len() != n {
                return Err(value_error(format!(
                    "apply_actions needs one entry per seat ({n}), got {}",
                    list.len()
                )));
            }
            for (s, v) in list.iter().enumerate() {
                ids[s] = parse(v)?;
            }
        }
        Ok(ids)
    }

    /// The seat an argument-less call means: the one acting seat.
    fn default_seat(&self, seat: Option<i64>, what: &str) -> PyResult<Option<usize>> {
        match seat {
            Some(s) => self.seat(s).map(Some),
            None => match self.inner.turn() {
                Turn::Player(p) => Ok(Some(p)),
                Turn::Terminal => Ok(None),
                Turn::Simultaneous(s) => Err(value_error(format!(
                    "{what}: this is a simultaneous node (acting seats {:?}); name the seat",
                    s.iter().collect::<Vec<_>>()
                ))),
            },
        }
    }
}

#[pymethods]
impl State {
    /// The game this state belongs to.
    fn get_game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }
    /// Number of seats.
    fn num_players(&self) -> usize {
        self.inner.players()
    }
    /// The acting seat; `-2` at a simultaneous node (see `acting_players()`), `-4` when
    /// terminal (OpenSpiel's player ids).
    fn current_player(&self) -> i64 {
        match self.inner.turn() {
            Turn::Player(p) => p as i64,
            Turn::Simultaneous(_) => SIMULTANEOUS,
            Turn::Terminal => TERMINAL,
        }
    }
    /// The seats that act now, ascending (empty when terminal).
    fn acting_players(&self) -> Vec<usize> {
        self.inner.turn().actors().iter().collect()
    }
    /// Whether the acting seats choose secretly and at once (apply with `apply_actions`).
    fn is_simultaneous_node(&self) -> bool {
        matches!(self.inner.turn(), Turn::Simultaneous(_))
    }
    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.turn().is_terminal()
    }
    /// The legal action ids of `seat` (default: the acting seat), sorted; empty for a seat
    /// that does not act now.
    ///
    /// Raises `ValueError` for a seat out of range, or no seat at a simultaneous node.
    #[pyo3(signature = (seat = None))]
    fn legal_actions(&mut self, seat: Option<i64>) -> PyResult<Vec<usize>> {
        Ok(match self.default_seat(seat, "legal_actions")? {
            Some(s) => self.inner.legal(s),
            None => Vec::new(),
        })
    }
    /// The legal actions of `seat` (default: the acting seat) as an `int8` numpy array of
    /// length `num_distinct_actions()`: 1 where legal, else 0.
    #[pyo3(signature = (seat = None))]
    fn legal_actions_mask<'py>(
        &mut self,
        py: Python<'py>,
        seat: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut mask = vec![0u8; self.inner.num_action_ids()];
        if let Some(s) = self.default_seat(seat, "legal_actions_mask")? {
            self.inner.mask(s, &mut mask);
        }
        let out: Vec<i8> = mask.into_iter().map(|v| v as i8).collect();
        Ok(PyArray1::from_vec(py, out))
    }
    /// Applies action id `action` of the acting seat at a turn-based node, drawing any
    /// chance that follows from the state's stream.
    ///
    /// Raises `ValueError` with the library's message for an illegal action (naming it and
    /// the legal ones), a terminal state or a simultaneous node.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let seat = match self.inner.turn() {
            Turn::Player(p) => p,
            Turn::Terminal => {
                return Err(value_error("the game is over; no action can be applied"));
            }
            Turn::Simultaneous(s) => {
                return Err(value_error(format!(
                    "simultaneous node (acting seats {:?}): use apply_actions",
                    s.iter().collect::<Vec<_>>()
                )));
            }
        };
        let id = usize::try_from(action)
            .map_err(|_| value_error(format!("{action} is not an action id (ids are >= 0)")))?;
        self.inner.apply(seat, id).map_err(value_error)
    }
    /// `apply_action` with the chance that follows forced by `picks`, as
    /// `Game.new_initial_state_with_chance` describes; returns the sizes of the picks asked
    /// (empty when no chance followed). The state's own chance stream is not used.
    fn apply_action_with_chance(&mut self, action: i64, picks: Vec<u32>) -> PyResult<Vec<u32>> {
        let seat = match self.inner.turn() {
            Turn::Player(p) => p,
            _ => {
                return Err(value_error(
                    "apply_action_with_chance needs a turn-based node (use apply_actions_with_chance)",
                ));
            }
        };
        let id = usize::try_from(action)
            .map_err(|_| value_error(format!("{action} is not an action id (ids are >= 0)")))?;
        let mut ids = vec![None; self.inner.players()];
        ids[seat] = Some(id);
        self.inner
            .apply_scripted(Some(seat), &ids, &picks)
            .map_err(value_error)
    }
    /// `apply_actions` with the chance that follows forced by `picks` (see
    /// `apply_action_with_chance`); returns the sizes of the picks asked.
    fn apply_actions_with_chance(
        &mut self,
        actions: &Bound<'_, PyAny>,
        picks: Vec<u32>,
    ) -> PyResult<Vec<u32>> {
        let ids = self.joint_ids(actions)?;
        self.inner
            .apply_scripted(None, &ids, &picks)
            .map_err(value_error)
    }
    /// Applies a joint action at a simultaneous node: a list with one entry per seat (an
    /// action id for each acting seat, `None` for the others; at a node where every seat
    /// acts a plain list of ids) or a dict `{seat: action id}` of the acting seats.
    ///
    /// Raises `ValueError` for a missing, extra or illegal action, or a turn-based node.
    fn apply_actions(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let ids = self.joint_ids(actions)?;
        self.inner.apply_joint(&ids).map_err(value_error)
    }
    /// The returns (utilities) per seat when terminal (win share by default, see the
    /// game's `returns` variant); zeros before the end.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }
    /// Rulebook points per seat (final only when terminal).
    fn scores(&self) -> Vec<i32> {
        self.inner.scores()
    }
    /// What `seat` sees now as a `float32` numpy array of shape
    /// `game.observation_tensor_shape()` (fields: `game.observation_layout()`).
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let s = self.seat(seat)?;
        let arr = PyArray1::<f32>::zeros(py, self.inner.obs_len(), false);
        {
            let mut rw = arr.readwrite();
            let slice = rw.as_slice_mut().map_err(|e| value_error(e.to_string()))?;
            self.inner.obs_tensor(s, slice);
        }
        Ok(arr)
    }
    /// Writes `seat`'s observation tensor into `out`, a contiguous `float32` numpy array
    /// of the tensor's length (no allocation).
    ///
    /// Raises `ValueError` for a wrong length or a seat out of range.
    fn write_observation_tensor(&self, seat: i64, out: &Bound<'_, PyArray1<f32>>) -> PyResult<()> {
        let s = self.seat(seat)?;
        let mut rw = out
            .try_readwrite()
            .map_err(|e| value_error(e.to_string()))?;
        let slice = rw.as_slice_mut().map_err(|e| value_error(e.to_string()))?;
        if slice.len() != self.inner.obs_len() {
            return Err(value_error(format!(
                "observation buffer has length {}, the tensor has {}",
                slice.len(),
                self.inner.obs_len()
            )));
        }
        self.inner.obs_tensor(s, slice);
        Ok(())
    }
    /// Everything `seat` has seen since the game began, as text (perfect recall where
    /// `game.perfect_recall`).
    fn information_state_string(&self, seat: i64) -> PyResult<String> {
        Ok(self.inner.info_string(self.seat(seat)?))
    }
    /// What `seat` sees now, as text.
    fn observation_string(&self, seat: i64) -> PyResult<String> {
        Ok(self.inner.obs_string(self.seat(seat)?))
    }
    /// A copy with its own copy of the chance stream (it plays on as this one would).
    fn clone(&self, py: Python<'_>) -> State {
        State::new(self.inner.clone_box(), self.game.clone_ref(py))
    }
    fn __copy__(&self, py: Python<'_>) -> State {
        self.clone(py)
    }
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> State {
        self.clone(py)
    }
    /// The state as a saved position (`tabletop-sim position v1` JSON, what `sim play
    /// --save-at` writes), with its chance stream, so `deserialize_state` resumes it exactly.
    fn serialize(&self) -> String {
        self.inner.serialize()
    }
    /// A state consistent with everything `seat` has seen, with what is hidden from it
    /// resampled from `seed` (a copy where nothing is hidden). Its later chance comes from
    /// `seed` too.
    fn determinize(&self, py: Python<'_>, seat: i64, seed: u64) -> PyResult<State> {
        let s = self.seat(seat)?;
        Ok(State::new(
            self.inner.determinize(s, seed),
            self.game.clone_ref(py),
        ))
    }
    /// The name of action id `action`.
    #[pyo3(signature = (action, seat = None))]
    fn action_to_string(&self, action: usize, seat: Option<i64>) -> PyResult<String> {
        if let Some(s) = seat {
            self.seat(s)?;
        }
        self.inner.action_name(action).ok_or_else(|| {
            value_error(format!(
                "{action} is not an action id of this game (ids are 0..{})",
                self.inner.num_action_ids()
            ))
        })
    }
    /// The id of the action named `text`.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        self.inner.parse_action(text).ok_or_else(|| {
            value_error(format!(
                "'{text}' is not an action of this game (see action_to_string of the legal actions)"
            ))
        })
    }
    /// Plies played so far (one ply = one `apply_action` or `apply_actions`).
    fn ply(&self) -> u32 {
        self.inner.ply()
    }
    /// Rounds started so far (the rulebook's rounds).
    fn round(&self) -> u32 {
        self.inner.round()
    }
    /// Why the game ended (`"deck_exhausted"`, ...), `""` while it goes on.
    fn end_condition(&self) -> &'static str {
        self.inner.end_condition()
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<State>() {
            Ok(o) => match o.try_borrow() {
                Ok(o) => self.inner.eq_dyn(o.inner.as_ref()),
                // The same object, mutably borrowed elsewhere: equal to itself.
                Err(_) => true,
            },
            Err(_) => false,
        }
    }
    fn __str__(&self) -> String {
        self.inner.display()
    }
    fn __repr__(&self) -> String {
        format!(
            "<tabletop_sim.State of {} at ply {}>",
            self.game.get().name(),
            self.inner.ply()
        )
    }
}

mod solvers;
mod tournament;
mod vec_env;

/// A built-in agent (`random`, `greedy`, `mcts:iters=1000`, ...; `sim list` shows the kinds
/// and their settings), asked for moves from Python with `step(state, seat=None)`.
///
/// Built by `tabletop_sim.agent(spec, seed=0)`. It is built for a game on its first move in
/// that game, with the game's agent defaults (`agents/games/<game>.toml`), as `sim
/// tournament` builds it. A move at a new seat or at an earlier ply than the agent's last
/// starts a new game for it (`start_game`). Its random stream comes from `seed`.
#[pyclass(module = "tabletop_sim")]
struct Agent {
    spec: String,
    per_game: std::sync::Mutex<Vec<(&'static str, Box<dyn DynAgent>)>>,
    rng: std::sync::Mutex<SimRng>,
}

#[pymethods]
impl Agent {
    /// The spec as given.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }
    /// A legal action id for `seat` (default: the acting seat) at `state`, chosen by the
    /// agent with the GIL released.
    ///
    /// Raises `ValueError` if the seat does not act now, or the spec does not fit the game.
    #[pyo3(signature = (state, seat = None))]
    fn step(&self, py: Python<'_>, state: &State, seat: Option<i64>) -> PyResult<usize> {
        let seat = match state.default_seat(seat, "Agent.step")? {
            Some(s) => s,
            None => return Err(value_error("the game is over; no action to choose")),
        };
        let game = state.inner.game();
        let name = game.name();
        let mut per_game = lock_now(&self.per_game)?;
        if !per_game.iter().any(|(g, _)| *g == name) {
            per_game.push((name, game.make_agent(&self.spec).map_err(value_error)?));
        }
        let agent = &mut per_game
            .iter_mut()
            .find(|(g, _)| *g == name)
            .expect("just inserted")
            .1;
        let mut rng = lock_now(&self.rng)?;
        let rng: &mut SimRng = &mut rng;
        let inner: &dyn DynState = state.inner.as_ref();
        py.detach(|| agent.step(inner, seat, rng))
            .map_err(value_error)
    }
    fn __repr__(&self) -> String {
        format!("tabletop_sim.agent({:?})", self.spec)
    }
}

/// Locks `m` without waiting: a thread blocked on the lock while holding the GIL would
/// deadlock with the thread deciding without it. A lock poisoned by a panicking agent (a
/// `PanicException` in Python) is taken over.
fn lock_now<T>(m: &std::sync::Mutex<T>) -> PyResult<std::sync::MutexGuard<'_, T>> {
    match m.try_lock() {
        Ok(g) => Ok(g),
        Err(std::sync::TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => {
            Err(value_error("this agent is deciding in another thread"))
        }
    }
}

/// A built-in agent by spec (see `Agent`).
///
/// Raises `ValueError` naming the bad kind or setting and the valid choices.
#[pyfunction]
#[pyo3(signature = (spec, seed = 0))]
fn agent(spec: &str, seed: u64) -> PyResult<Agent> {
    tabletop_sim::agents::canonicalize(spec).map_err(|e| value_error(e.to_string()))?;
    Ok(Agent {
        spec: spec.to_string(),
        per_game: std::sync::Mutex::new(Vec::new()),
        rng: std::sync::Mutex::new(rng_from_seed(seed)),
    })
}

/// Loads a game by registry name (`tabletop_sim.GAMES`) with `players` seats (default: the
/// game's default) and rule variants as keywords (`num_cards=6`; see `sim list`).
///
/// Raises `ValueError` naming the bad name, player count or variant and the valid choices.
#[pyfunction]
#[pyo3(signature = (name, players = None, **variant))]
fn load_game(
    name: &str,
    players: Option<usize>,
    variant: Option<&Bound<'_, PyDict>>,
) -> PyResult<Game> {
    let mut settings = Vec::new();
    if let Some(v) = variant {
        for (k, val) in v.iter() {
            settings.push(format!("{}={}", k.str()?, variant_text(&val)?));
        }
    }
    let inner = dispatch_game!(name, G => make_game::<G>(players, &settings))
        .map_err(|e| value_error(e.to_string()))?
        .map_err(value_error)?;
    Ok(Game::from_dyn(inner))
}

/// A state from a saved position of any game, under the rules written in it (the game is
/// rebuilt from them).
///
/// Raises `ValueError` naming the problem.
#[pyfunction]
#[pyo3(signature = (text, seed = 0))]
fn deserialize_state(py: Python<'_>, text: &str, seed: u64) -> PyResult<State> {
    let name = game_of(text).map_err(|e| value_error(format!("position text: {e}")))?;
    let inner: Box<dyn DynState> =
        dispatch_game!(name.as_str(), G => parse_position::<G>(text, seed)
        .map(|s| Box::new(s) as Box<dyn DynState>))
        .map_err(|e| value_error(format!("position text: {e}")))?
        .map_err(value_error)?;
    let game = Py::new(py, Game::from_dyn(inner.game()))?;
    Ok(State::new(inner, game))
}

/// The registry: `{name: (description, (min_players, max_players), default_players)}`.
#[pyfunction]
fn registered_games(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for e in tabletop_sim::games::all() {
        d.set_item(e.name, (e.description, e.players, e.default_players))?;
    }
    Ok(d)
}

/// The Rust extension of `tabletop_sim`.
#[pymodule]
fn _tabletop_sim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_class::<Agent>()?;
    m.add_function(wrap_pyfunction!(agent, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::tournament, m)?)?;
    m.add(
        "TournamentError",
        m.py().get_type::<tournament::TournamentError>(),
    )?;
    m.add_function(wrap_pyfunction!(deserialize_state, m)?)?;
    m.add_function(wrap_pyfunction!(registered_games, m)?)?;
    m.add_class::<solvers::GameTree>()?;
    m.add_function(wrap_pyfunction!(solvers::game_tree, m)?)?;
    m.add("ALGORITHMS", PyList::new(m.py(), solvers::ALGORITHMS)?)?;
    m.add("GAMES", PyList::new(m.py(), tabletop_sim::games::NAMES)?)?;
    m.add("SIMULTANEOUS", SIMULTANEOUS)?;
    m.add("TERMINAL", TERMINAL)?;
    Ok(())
}
