//! `tabletop_sim.tournament(...)`: `sim tournament` run from Python, with Python callables
//! as agents beside the built-in ones.
//!
//! Each callable in the lineup is registered as a `callback` agent
//! ([`tabletop_sim::agents::callback`]) for the length of the call, under a name taken from
//! its `__name__` (unique within the call). The run is the library's tournament runner
//! ([`tabletop_sim::tournament::run_with`]), so it writes the same files as `sim
//! tournament` (`games.csv`, `summary.csv`, `agents.csv`, ..., `config.toml`), seats the
//! agents the same way and computes the same statistics.
//!
//! **Threading.** The run releases the GIL; the runner's worker threads play games in
//! parallel, and every decision of a Python agent takes the GIL for the length of the call
//! (`Python::attach`), so Python decisions run one at a time while built-in agents keep
//! deciding on the other threads. With only Python agents, one thread is as fast as many.
//!
//! **What a callable sees.** `callable(state, seat) -> int`: `state` is a
//! `tabletop_sim.State` sampled from the seat's information set (`determinize`, so it holds
//! nothing the seat may not know; the true state in perfect-information games), `seat` the
//! seat to move, and the result one of `state.legal_actions(seat)`. The state is the
//! callable's own (a fresh copy for every decision; its chance stream is seeded from the
//! seat's random stream, so rollouts on it are reproducible). A built-in agent's `step`
//! (`tabletop_sim.agent(spec).step`) has this signature too.
//!
//! **Errors.** A Python exception raised by a callable, a result that is not an action id,
//! or an illegal action fails that game, as a panicking agent fails a game of `sim
//! tournament`: it is listed in `errors.csv` and left out of the statistics, and the call
//! raises `tabletop_sim.TournamentError` (after writing the files), naming the game, its
//! index, the seat and the ply, with the first Python exception as its `__cause__`. With
//! `fail_fast=True` the run stops at the first failed game. A `KeyboardInterrupt` raised in
//! a callable stops the run after the games in flight and is raised again.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rand::RngExt;
use tabletop_sim::agents::callback::{self, Decide, Factory, Registration};
use tabletop_sim::rng::rng_for;
use tabletop_sim::tournament::{self as runner, Design, GamesFile, RunOptions, Settings};
use tabletop_sim::{Playable, SimRng, View, dispatch_game};

use crate::{Game, GameImpl, State, StateImpl, value_error, variant_text};

pyo3::create_exception!(
    tabletop_sim,
    TournamentError,
    PyRuntimeError,
    "A tournament run from Python failed: some games failed (a Python agent raised, \
     returned a bad action, or a built-in agent panicked) and `allow_failures` was not \
     given, or the run stopped. The files are written all the same; `report` holds the \
     run's summary (the dict `tournament` returns)."
);

/// Set by a Python agent that was interrupted (`KeyboardInterrupt`): the runner starts no
/// new block. One flag for the process: runs from several Python threads at once stop
/// together on Ctrl-C, which is what Ctrl-C means.
static STOP: AtomicBool = AtomicBool::new(false);

/// The first Python exception a callable raised during the run.
type Raised = Arc<Mutex<Option<PyErr>>>;

/// The Python type name and message of `e` (`ValueError: boom`).
fn describe(py: Python<'_>, e: &PyErr) -> String {
    let kind = e
        .get_type(py)
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "Exception".into());
    format!("{kind}: {}", e.value(py))
}

/// Registers `callable` as the callback agent `name` of game `G`.
fn register_for<G: Playable>(
    name: String,
    callable: Arc<Py<PyAny>>,
    raised: Raised,
) -> Result<Registration, String> {
    let label = name.clone();
    let factory: Factory<G> = Arc::new(move || -> Decide<G> {
        let callable = Arc::clone(&callable);
        let raised = Arc::clone(&raised);
        let name = label.clone();
        let mut game: Option<Py<Game>> = None;
        Box::new(move |view: &View<'_, G>, rng: &mut SimRng| {
            let seat = view.seat();
            let ply = view.ply();
            let seed: u64 = rng.random();
            let world = view.determinize(rng);
            let rules = view.rules();
            let result = Python::attach(|py| -> Result<usize, String> {
                let call = || -> PyResult<usize> {
                    let g = match &game {
                        Some(g) => g.clone_ref(py),
                        None => {
                            let g = Py::new(py, Game::from_dyn(Box::new(GameImpl::<G> { rules })))?;
                            game = Some(g.clone_ref(py));
                            g
                        }
                    };
                    let state = State::new(
                        Box::new(StateImpl::new(world, rng_for(seed, 0, 0), seed)),
                        g,
                    );
                    callable.bind(py).call1((state, seat))?.extract::<usize>()
                };
                call().map_err(|e| {
                    let what = describe(py, &e);
                    if e.is_instance_of::<PyKeyboardInterrupt>(py) {
                        STOP.store(true, Ordering::SeqCst);
                    }
                    let mut first = raised.lock().unwrap_or_else(|p| p.into_inner());
                    if first.is_none() {
                        *first = Some(e);
                    }
                    format!("the Python agent '{name}' (seat {seat}, ply {ply}) raised {what}")
                })
            });
            let id = result.unwrap_or_else(|message| panic!("{message}"));
            G::action_from_id(id).unwrap_or_else(|| {
                panic!(
                    "the Python agent '{name}' (seat {seat}, ply {ply}) returned {id}, which is \
                     not an action id of {} (ids are 0..{}; choose one of \
                     state.legal_actions(seat))",
                    G::NAME,
                    G::NUM_ACTION_IDS
                )
            })
        })
    });
    callback::register::<G>(&name, factory)
}

/// A callback name from a callable's `__name__`: its letters, digits, `_`, `-` and `.`
/// (`<lambda>` gives `lambda`), `python` when none is left.
fn base_name(callable: &Bound<'_, PyAny>) -> String {
    let raw = callable
        .getattr("__name__")
        .and_then(|n| n.extract::<String>())
        .unwrap_or_default();
    let mut name: String = raw
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .take(48)
        .collect();
    if name.is_empty() {
        name = "python".into();
    }
    name
}

/// The summary of a run as a dict (what `tournament` returns and
/// `TournamentError.report` holds).
fn report_dict<'py>(py: Python<'py>, report: &runner::Report) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("out", report.out.display().to_string())?;
    let files: Vec<String> = report
        .files
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    d.set_item("files", files)?;
    d.set_item("games", report.stats.games)?;
    let failures = PyList::empty(py);
    for f in &report.failures {
        let row = PyDict::new(py);
        row.set_item("game", f.game)?;
        row.set_item("seed", f.seed)?;
        row.set_item("ply", f.ply)?;
        row.set_item("message", &f.message)?;
        failures.append(row)?;
    }
    d.set_item("failures", failures)?;
    d.set_item("summary", report.stats.render())?;
    d.set_item("command", &report.config.command)?;
    Ok(d)
}

/// Plays a tournament like `sim tournament` and writes the same files into `out`; agents
/// are built-in specs (`"mcts:iters=200"`) or Python callables `f(state, seat) -> int`.
///
/// Arguments as in `sim tournament --help`: `game` (a name of `GAMES`), `agents` (a list;
/// its order sets the seating schedule), `games` (N), and keyword-only `players`, `seed`,
/// `threads` (default: all cores), `out` (default `out/GAME`), `overwrite`, `fail_fast`,
/// `allow_failures` (a share from 0 to 1, or True for any), `games_file` (`csv`, `gz` or
/// `none`), `paired`, `progress` (a bar on stderr), then rule variants as keywords.
///
/// Returns a dict: `out` (the directory), `files` (the files written), `games` (games in
/// the statistics), `failures` (a list of dicts: game, seed, ply, message), `summary` (the
/// console summary of `sim tournament`) and `command` (the rerun command recorded in
/// `config.toml`; it names the callbacks, which only this call can register).
///
/// Raises `ValueError` for bad input (game, agent spec, variant, player count, an `out`
/// holding another run) naming the valid choices, `TournamentError` when games failed (see
/// the module docs) or the run could not finish, `KeyboardInterrupt` when a Python agent
/// was interrupted.
#[pyfunction]
#[pyo3(signature = (game, agents, games = 1000, *, players = None, seed = 0, threads = None,
    out = None, overwrite = false, fail_fast = false, allow_failures = None, games_file = None,
    paired = false, progress = false, **variant))]
#[allow(clippy::too_many_arguments)]
pub fn tournament<'py>(
    py: Python<'py>,
    game: &str,
    agents: &Bound<'py, PyAny>,
    games: u64,
    players: Option<usize>,
    seed: u64,
    threads: Option<usize>,
    out: Option<PathBuf>,
    overwrite: bool,
    fail_fast: bool,
    allow_failures: Option<&Bound<'py, PyAny>>,
    games_file: Option<&str>,
    paired: bool,
    progress: bool,
    variant: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    if !tabletop_sim::games::NAMES.contains(&game) {
        return Err(value_error(format!(
            "unknown game '{game}'; valid games: {}",
            tabletop_sim::games::NAMES.join(", ")
        )));
    }
    let allowed = match allow_failures {
        None => 0.0,
        Some(a) if a.is_instance_of::<pyo3::types::PyBool>() => {
            if a.is_truthy()? {
                1.0
            } else {
                0.0
            }
        }
        Some(a) => {
            let x: f64 = a.extract()?;
            if !(0.0..=1.0).contains(&x) {
                return Err(value_error(format!(
                    "allow_failures={x}: expected True, False or a share from 0 to 1"
                )));
            }
            x
        }
    };
    let games_file: GamesFile = match games_file {
        None => GamesFile::default(),
        Some(s) => s.parse().map_err(value_error)?,
    };
    let mut settings_variant = Vec::new();
    if let Some(v) = variant {
        for (k, val) in v.iter() {
            settings_variant.push(format!("{}={}", k.str()?, variant_text(&val)?));
        }
    }
    // The lineup: specs as given, callables registered under unique names.
    let raised: Raised = Arc::new(Mutex::new(None));
    let mut specs = Vec::new();
    let mut registrations: Vec<Registration> = Vec::new();
    let mut seen: Vec<(Py<PyAny>, String)> = Vec::new();
    let items: Vec<Bound<'py, PyAny>> = agents.try_iter()?.collect::<PyResult<_>>()?;
    if items.is_empty() {
        return Err(value_error(
            "agents is empty: give at least one spec or callable",
        ));
    }
    for item in &items {
        if let Ok(spec) = item.extract::<String>() {
            specs.push(spec);
            continue;
        }
        if !item.is_callable() {
            return Err(value_error(format!(
                "agents: {} is neither an agent spec (str) nor a callable f(state, seat) -> int",
                item.repr()?
            )));
        }
        if let Some((_, name)) = seen.iter().find(|(c, _)| c.bind(py).is(item)) {
            specs.push(format!("callback:name={name}"));
            continue;
        }
        let base = base_name(item);
        let mut name = base.clone();
        let mut n = 1;
        while seen.iter().any(|(_, s)| *s == name) {
            n += 1;
            name = format!("{base}_{n}");
        }
        let callable = Arc::new(item.clone().unbind());
        let reg = dispatch_game!(game, G => register_for::<G>(name.clone(), callable, Arc::clone(&raised)))
            .map_err(|e| value_error(e.to_string()))?
            .map_err(value_error)?;
        registrations.push(reg);
        seen.push((item.clone().unbind(), name.clone()));
        specs.push(format!("callback:name={name}"));
    }
    let settings = Settings {
        game: game.to_string(),
        players,
        variant: settings_variant,
        agents: specs,
        games,
        seed,
        threads,
        out: out.unwrap_or_else(|| PathBuf::from("out").join(game)),
        progress,
        design: Design {
            paired,
            ..Design::default()
        },
    };
    let options = RunOptions {
        overwrite,
        resume: false,
        nested: false,
        stop: Some(&STOP),
        fail_fast,
        checkpoint_every: None,
        throttle_ms: 0,
        shard: None,
        games_file,
        ext_failures: None,
        chain_version: None,
    };
    STOP.store(false, Ordering::SeqCst);
    let result = py.detach(|| runner::run_with(&settings, &options));
    drop(registrations);
    let cause = raised.lock().unwrap_or_else(|p| p.into_inner()).take();
    let with_cause = |err: PyErr| {
        if let Some(c) = cause {
            err.set_cause(py, Some(c));
        }
        err
    };
    let report = match result {
        Ok(r) => r,
        Err(e) if e.is_bad_input() => return Err(value_error(e.to_string())),
        Err(e @ runner::TournamentError::Interrupted { .. }) => {
            return Err(with_cause(PyKeyboardInterrupt::new_err(format!(
                "{game} tournament: a Python agent was interrupted; {e}"
            ))));
        }
        Err(e) => {
            return Err(with_cause(TournamentError::new_err(format!(
                "{game} tournament: {e}"
            ))));
        }
    };
    let dict = report_dict(py, &report)?;
    let failed = report.failures.len() as u64;
    if failed > 0 {
        let total = failed + report.stats.games;
        if failed as f64 / total as f64 > allowed {
            let f = &report.failures[0];
            let err = TournamentError::new_err(format!(
                "{failed} of {total} {game} games failed and are left out of the statistics \
                 (errors.csv in {} lists them; pass allow_failures=True to accept failed \
                 games); the first: game {} (seed {}), at ply {}: {}",
                report.out.display(),
                f.game,
                f.seed,
                f.ply,
                f.message
            ));
            err.value(py).setattr("report", &dict)?;
            return Err(with_cause(err));
        }
    }
    Ok(dict)
}
