//! Agents: the `Agent` trait, agent specs (`kind` or `kind:key=value,...`) and the
//! registry of agent kinds.
//!
//! Kinds: `random`, `greedy`, and the search agents `mcts` (UCT, [`mcts`]), `ismcts`
//! (SO-ISMCTS, or MO-ISMCTS with `observers=multi`: [`ismcts`], [`mo_ismcts`]) and `cfr` (SM-MCTS with regret matching, [`sm_mcts`]), which
//! share the arena of [`tree`] and the playouts of [`rollout`]; `human` ([`human`]), a
//! person at the terminal in `sim play`; and `ext` ([`ext`]), an outside program over a
//! line protocol (`docs/ext-protocol.md`). A spec's kind may also be a named preset or a
//! path to a preset file ([`presets`]). Hidden kinds (not in `sim list`): `panic`
//! ([`mod@panic`], for tests) and `callback` ([`callback`]: a function registered at run time
//! by a program embedding the library, such as a Python callable).
//!
//! An agent sees a state only through a [`View`] of its own seat. At a simultaneous node
//! every acting seat's agent is asked with the same pre-move state, so no agent ever sees
//! another's pending choice.
//!
//! **Lifecycle.** Before each game the runner calls [`Agent::start_game`] once per seat the
//! agent holds (an agent may hold several seats of one game when the lineup is shorter than
//! the player count). Within a game an agent may keep memory that changes its decisions
//! (e.g. a search subtree reused between the sub-decisions of one long turn), keyed by
//! seat; `start_game` must drop it. Across games an agent must be a pure function of (its
//! spec, the views it is shown, the RNG it is given): the runner reuses agent objects
//! across games on a worker thread, so memory kept across games (search arenas, buffers)
//! may save allocations but must not change decisions. That is what makes tournaments
//! identical for every thread count.

pub mod belief;
pub mod callback;
pub mod ext;
pub mod greedy;
pub mod human;
pub mod ismcts;
pub mod mcts;
pub mod mo_ismcts;
pub mod panic;
pub mod parallel;
pub mod presets;
pub mod random;
pub mod restricted;
pub mod rollout;
pub mod sm_mcts;
pub mod tree;

use crate::game::{GameStart, Playable, View};
use crate::params::{ParamError, ParamInfo, ParamSet};
use crate::rng::SimRng;

/// A decision maker for one seat.
pub trait Agent<G: Playable>: Send {
    /// The canonical spec, with every parameter (`greedy:samples=4`).
    fn spec(&self) -> String;

    /// A game starts and this agent plays `start.seat` (called once per seat it holds,
    /// before the first decision). Drop any memory of earlier games here. Default: nothing.
    fn start_game(&mut self, start: &GameStart<G>) {
        let _ = start;
    }

    /// The game is over: `view` is the terminal state seen from one seat the agent held
    /// (called once per seat, after the last ply; [`View::outcome`] gives the scores and
    /// ranks). For agents that report results elsewhere (an external program). Default:
    /// nothing.
    fn end_game(&mut self, view: &View<'_, G>) {
        let _ = view;
    }

    /// Whether the agent's decisions depend on wall-clock time (a time budget), so that a
    /// rerun with the same seed may differ. Default: false.
    fn uses_wall_clock(&self) -> bool {
        false
    }

    /// Chooses one of the seat's legal actions at the view's state, which must be a
    /// decision node where the seat acts.
    ///
    /// # Panics
    /// May panic if the seat does not act at the view's state.
    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action;

    /// What the agent thinks of each of the seat's legal actions at the view's state (a
    /// decision node where the seat acts): one [`ActionStat`] per legal action, in sorted
    /// order, with the statistics the agent's decision rests on. It runs the agent's full
    /// deliberation even when only one action is legal. `sim analyze` prints it. Default:
    /// `None`, for agents without statistics (`random`).
    ///
    /// # Panics
    /// As [`Agent::act`].
    fn analyze(
        &mut self,
        view: &View<'_, G>,
        rng: &mut SimRng,
    ) -> Option<Vec<ActionStat<G::Action>>> {
        let _ = (view, rng);
        None
    }
}

/// An agent's statistics for one legal action ([`Agent::analyze`]); each agent fills the
/// fields its decision rests on and leaves the others `None`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ActionStat<A> {
    /// The action.
    pub action: A,
    /// Root visits (`mcts`: summed over the worlds searched; `ismcts`).
    pub visits: Option<u64>,
    /// Mean value for the seat, in the units of the game's returns: the mean root reward
    /// (`mcts`, `ismcts`; `None` when unvisited) or the mean evaluation (`greedy`).
    pub value: Option<f64>,
    /// Probability of playing the action: the root average strategy of regret matching
    /// (`cfr`).
    pub probability: Option<f64>,
}

impl<A> ActionStat<A> {
    /// A row with no statistics yet.
    pub fn new(action: A) -> Self {
        ActionStat {
            action,
            visits: None,
            value: None,
            probability: None,
        }
    }
}

/// `(action, visits, mean reward)` rows of a UCT root ([`tree`]) as [`ActionStat`]s.
fn uct_stats<A>(table: Vec<(A, f64, f64)>) -> Vec<ActionStat<A>> {
    table
        .into_iter()
        .map(|(action, visits, mean)| ActionStat {
            visits: Some(visits as u64),
            value: (visits > 0.0).then_some(mean),
            ..ActionStat::new(action)
        })
        .collect()
}

/// Why an agent spec could not be turned into an agent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// No agent kind of that name.
    #[error("unknown agent '{kind}'; valid agents: {valid}")]
    UnknownKind {
        /// The offending kind.
        kind: String,
        /// The valid kinds, comma-separated.
        valid: String,
    },
    /// A parameter was unknown or malformed.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// An empty spec.
    #[error("empty agent spec: expected kind or kind:key=value,...")]
    Empty,
    /// A preset could not be read, parsed or applied.
    #[error("bad agent preset '{preset}': {reason}")]
    Preset {
        /// The preset's name or path.
        preset: String,
        /// What was wrong, with the valid choices.
        reason: String,
    },
}

/// One agent kind of the registry: what `sim list` prints.
#[derive(Debug, Clone)]
pub struct AgentKindInfo {
    /// The kind, as typed in a spec.
    pub name: &'static str,
    /// One line: the algorithm and its source.
    pub description: &'static str,
    /// The parameter table.
    pub params: Vec<ParamInfo>,
}

/// A parsed agent spec: a kind and its `key=value` settings, not yet validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent kind.
    pub kind: String,
    /// The settings, in the order given.
    pub settings: Vec<String>,
}

impl AgentSpec {
    /// Parses `kind` or `kind:key=value,key=value`.
    ///
    /// # Errors
    /// [`AgentError::Empty`] for an empty spec, [`ParamError::Malformed`] for a setting
    /// without `=`.
    pub fn parse(text: &str) -> Result<Self, AgentError> {
        let text = text.trim();
        let (kind, rest) = match text.split_once(':') {
            Some((k, r)) => (k.trim(), r.trim()),
            None => (text, ""),
        };
        if kind.is_empty() {
            return Err(AgentError::Empty);
        }
        let settings: Vec<String> = rest
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        for s in &settings {
            if !s.contains('=') {
                return Err(ParamError::Malformed(s.clone()).into());
            }
        }
        Ok(AgentSpec {
            kind: kind.to_string(),
            settings,
        })
    }
}

/// Formats a canonical spec: `kind` alone when the kind has no parameters, otherwise
/// `kind:key=value,...` with every parameter.
pub fn canonical_spec<P: ParamSet>(kind: &str, params: &P) -> String {
    let body = params.canonical(",");
    if body.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}:{body}")
    }
}

fn parse_params<P: ParamSet>(spec: &AgentSpec) -> Result<P, AgentError> {
    Ok(P::from_settings(
        &spec.settings,
        &format!("agent {}", spec.kind),
    )?)
}

/// The one list of agent kinds: calls `$callback!` with every kind as
/// `(name, module, AgentType)`; the module holds `Params` and `DESCRIPTION`. [`kinds`],
/// [`build`] and [`canonicalize`] are derived from it, so adding a kind is one line here.
macro_rules! with_agent_registry {
    ($callback:ident) => {
        $callback! {
            ("random", random, RandomAgent),
            ("greedy", greedy, GreedyAgent),
            ("mcts", mcts, MctsAgent),
            ("ismcts", ismcts, IsmctsAgent),
            ("cfr", sm_mcts, SmMctsAgent),
            ("human", human, HumanAgent),
            ("ext", ext, ExtAgent),
            ("restricted", restricted, RestrictedAgent),
        }
    };
}

macro_rules! kind_infos {
    ($(($name:literal, $m:ident, $A:ident)),* $(,)?) => {
        vec![$(AgentKindInfo {
            name: $name,
            description: $m::DESCRIPTION,
            params: $m::Params::info(),
        }),*]
    };
}

/// Every agent kind with its description and parameters, in the order `sim list` prints.
pub fn kinds() -> Vec<AgentKindInfo> {
    with_agent_registry!(kind_infos)
}

fn kind_names() -> String {
    kinds()
        .iter()
        .map(|k| k.name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn unknown_kind(kind: &str) -> AgentError {
    AgentError::UnknownKind {
        kind: kind.to_string(),
        valid: format!(
            "{}; presets: {}; or a path to a preset file (.toml)",
            kind_names(),
            presets::names()
        ),
    }
}

/// Resolves presets and game defaults: returns the spec with a built-in kind and the
/// preset's name, if any. Its settings are, in order (later ones override): the game's
/// defaults for the kind ([`crate::games::defaults_of`], passed as `defaults`), the preset's,
/// then the spec's own. A recorded canonical `cfr` spec without `average` gets
/// `average=uniform` ([`sm_mcts::pin_recorded_average`]).
fn resolve(
    text: &str,
    defaults: &[(&str, &str)],
) -> Result<(AgentSpec, Option<String>), AgentError> {
    let (mut spec, preset) = resolve_preset(text)?;
    if spec.kind == "cfr" {
        // A recorded canonical spec keeps its meaning across the change of cfr's default
        // average (see `sm_mcts::pin_recorded_average`).
        sm_mcts::pin_recorded_average(&mut spec.settings);
    }
    let mut settings: Vec<String> = defaults
        .iter()
        .filter(|(kind, _)| *kind == spec.kind)
        .flat_map(|(_, body)| body.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    settings.append(&mut spec.settings);
    spec.settings = settings;
    Ok((spec, preset))
}

/// Resolves presets: returns the spec with a built-in kind (preset settings first, the
/// spec's own settings after them so they override) and the preset's name, if any.
fn resolve_preset(text: &str) -> Result<(AgentSpec, Option<String>), AgentError> {
    let spec = AgentSpec::parse(text)?;
    if kinds().iter().any(|k| k.name == spec.kind)
        || spec.kind == panic::NAME
        || spec.kind == callback::NAME
    {
        return Ok((spec, None));
    }
    let preset = match presets::load(&spec.kind) {
        Some(p) => p?,
        None => return Err(unknown_kind(&spec.kind)),
    };
    if !kinds().iter().any(|k| k.name == preset.kind) {
        return Err(AgentError::Preset {
            preset: preset.name,
            reason: format!(
                "unknown agent kind '{}'; valid kinds: {}",
                preset.kind,
                kind_names()
            ),
        });
    }
    let mut settings = preset.settings;
    settings.extend(spec.settings);
    Ok((
        AgentSpec {
            kind: preset.kind,
            settings,
        },
        Some(preset.name),
    ))
}

/// Names the preset in an error raised while applying its settings.
fn attribute(e: AgentError, preset: &Option<String>) -> AgentError {
    match (preset, e) {
        (Some(name), AgentError::Param(p)) => AgentError::Preset {
            preset: name.clone(),
            reason: p.to_string(),
        },
        (_, e) => e,
    }
}

/// Builds an agent for game `G` from a spec string: `kind[:key=value,...]`, where `kind`
/// may also be a preset name or a path to a preset file ([`presets`]); settings after a
/// preset override its parameters, and both override the game's defaults for the kind
/// ([`crate::games::defaults_of`]).
///
/// # Errors
/// [`AgentError`] naming the unknown kind, the bad preset or the bad parameter, with the
/// valid choices.
pub fn build<G: Playable>(spec: &str) -> Result<Box<dyn Agent<G>>, AgentError> {
    let (spec, preset) = resolve(spec, crate::games::defaults_of(G::NAME))?;
    build_kind(&spec).map_err(|e| attribute(e, &preset))
}

fn build_kind<G: Playable>(spec: &AgentSpec) -> Result<Box<dyn Agent<G>>, AgentError> {
    if spec.kind == panic::NAME {
        let p = parse_params::<panic::Params>(spec)?;
        return Ok(Box::new(panic::PanicAgent::new(p)));
    }
    if spec.kind == callback::NAME {
        return callback::build::<G>(parse_params::<callback::Params>(spec)?);
    }
    macro_rules! build_match {
        ($(($name:literal, $m:ident, $A:ident)),* $(,)?) => {
            match spec.kind.as_str() {
                $($name => Box::new($m::$A::new(parse_params::<$m::Params>(spec)?)) as Box<dyn Agent<G>>,)*
                other => return Err(unknown_kind(other)),
            }
        };
    }
    Ok(with_agent_registry!(build_match))
}

/// The canonical form of a spec (every parameter spelled out), without building it, with
/// the built-in defaults (no game's).
///
/// # Errors
/// As [`build`].
pub fn canonicalize(spec: &str) -> Result<String, AgentError> {
    canonicalize_with(spec, &[])
}

/// The canonical form of a spec for a game whose [`crate::games::defaults_of`] are `defaults`
/// (see [`crate::games::agent_defaults`] for a game known by name).
///
/// # Errors
/// As [`build`].
pub fn canonicalize_with(spec: &str, defaults: &[(&str, &str)]) -> Result<String, AgentError> {
    let (spec, preset) = resolve(spec, defaults)?;
    canonical_kind(&spec).map_err(|e| attribute(e, &preset))
}

fn canonical_kind(parsed: &AgentSpec) -> Result<String, AgentError> {
    if parsed.kind == panic::NAME {
        return Ok(canonical_spec(
            panic::NAME,
            &parse_params::<panic::Params>(parsed)?,
        ));
    }
    if parsed.kind == callback::NAME {
        return Ok(canonical_spec(
            callback::NAME,
            &parse_params::<callback::Params>(parsed)?,
        ));
    }
    macro_rules! canonical_match {
        ($(($name:literal, $m:ident, $A:ident)),* $(,)?) => {
            match parsed.kind.as_str() {
                $($name => canonical_spec($name, &parse_params::<$m::Params>(parsed)?),)*
                other => return Err(unknown_kind(other)),
            }
        };
    }
    Ok(with_agent_registry!(canonical_match))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_parsing() {
        let s = AgentSpec::parse("greedy:samples=3, x=y").unwrap();
        assert_eq!(s.kind, "greedy");
        assert_eq!(s.settings, vec!["samples=3", "x=y"]);
        assert_eq!(AgentSpec::parse("").unwrap_err(), AgentError::Empty);
        assert!(matches!(
            AgentSpec::parse("greedy:samples").unwrap_err(),
            AgentError::Param(ParamError::Malformed(_))
        ));
    }

    #[test]
    fn canonical_specs_list_every_parameter() {
        assert_eq!(canonicalize("random").unwrap(), "random");
        assert_eq!(canonicalize("greedy").unwrap(), "greedy:samples=4");
        assert_eq!(
            canonicalize("greedy:samples=2").unwrap(),
            "greedy:samples=2"
        );
    }

    #[test]
    fn game_defaults_come_before_presets_and_settings() {
        let d: &[(&str, &str)] = &[("mcts", "iters=50, rounds=1"), ("greedy", "samples=2")];
        let c = canonicalize_with("mcts", d).unwrap();
        assert!(c.contains("iters=50,") && c.contains("rounds=1,"), "{c}");
        let c = canonicalize_with("mcts:iters=70", d).unwrap();
        assert!(c.contains("iters=70,") && c.contains("rounds=1,"), "{c}");
        // A preset's settings override the game's defaults; the spec's override both.
        let c = canonicalize_with("mcts-fast", d).unwrap();
        assert_eq!(c, canonicalize("mcts-fast:rounds=1").unwrap());
        assert_eq!(canonicalize_with("random", d).unwrap(), "random");
        assert_eq!(
            canonicalize_with("mcts", &[]).unwrap(),
            canonicalize("mcts").unwrap()
        );
    }

    /// The `cfr` default changed to `final=max,average=linear` (2026-11): every spec a
    /// committed result records must still mean the agent it meant, and canonicalize to its
    /// own text; a typed spec gets the new defaults.
    #[test]
    fn recorded_cfr_specs_keep_their_meaning_and_typed_ones_get_the_new_defaults() {
        use sm_mcts::{Average, Final};
        let params = |spec: &str, defaults: &[(&str, &str)]| {
            let (s, _) = resolve(spec, defaults).unwrap();
            let p = parse_params::<sm_mcts::Params>(&s).unwrap();
            (p.r#final, p.average)
        };
        let daimyo: &[(&str, &str)] = &[("cfr", "iters=100,rounds=1")];
        for spec in ["cfr", "cfr:iters=1000", "cfr:gamma=0.2,final=max"] {
            for d in [&[][..], daimyo] {
                assert_eq!(params(spec, d), (Final::Max, Average::Linear), "{spec}");
                assert!(
                    canonicalize_with(spec, d)
                        .unwrap()
                        .ends_with(",average=linear")
                );
            }
        }
        // Canonical specs recorded in results/daxu-ladder and results/daxu-endgame
        // (agents.csv, manifest commands) and results/agents-cfr-default/agents.csv.
        let recorded = [
            (
                "cfr:iters=500,time_ms=0,gamma=0.1,rollout=random,epsilon=0.1,depth=0,rounds=0,final=max,worlds=1",
                (Final::Max, Average::Uniform),
            ),
            (
                "cfr:iters=5000,time_ms=0,gamma=0.1,rollout=random,epsilon=0.1,depth=0,rounds=0,final=max,worlds=1",
                (Final::Max, Average::Uniform),
            ),
            (
                "cfr:iters=500,time_ms=0,gamma=0.1,rollout=random,epsilon=0.1,depth=0,rounds=0,final=sample,worlds=1",
                (Final::Sample, Average::Uniform),
            ),
            (
                "cfr:iters=1000,time_ms=0,gamma=0.1,rollout=random,epsilon=0.1,depth=0,rounds=0,final=max,worlds=1,average=linear",
                (Final::Max, Average::Linear),
            ),
        ];
        for (spec, meaning) in recorded {
            assert_eq!(params(spec, &[]), meaning, "{spec}");
            assert_eq!(canonicalize(spec).unwrap(), spec);
        }
        // The presets that committed experiments name (experiments/daxu-ladder.toml,
        // experiments/daxu-endgame.toml) canonicalize to the recorded specs.
        assert_eq!(canonicalize("cfr-fast").unwrap(), recorded[0].0);
        assert_eq!(canonicalize("cfr-fast:iters=5000").unwrap(), recorded[1].0);
        assert_eq!(
            canonicalize("cfr-fast:final=sample").unwrap(),
            recorded[2].0
        );
        assert_eq!(params("cfr-strong", &[]), (Final::Sample, Average::Uniform));
        // Every canonical form reads back as the same agent.
        for spec in ["cfr:average=uniform", "cfr:final=sample,regret=plus", "cfr"] {
            let canon = canonicalize(spec).unwrap();
            assert_eq!(params(&canon, &[]), params(spec, &[]), "{canon}");
            assert_eq!(canonicalize(&canon).unwrap(), canon);
        }
    }

    #[test]
    fn unknown_kind_and_key_list_valid_choices() {
        let e = canonicalize("alphazero").unwrap_err().to_string();
        assert!(
            e.contains("alphazero") && e.contains("random") && e.contains("greedy"),
            "{e}"
        );
        let e = canonicalize("greedy:depth=3").unwrap_err().to_string();
        assert!(
            e.contains("depth") && e.contains("samples (default 4)"),
            "{e}"
        );
        let e = canonicalize("greedy:samples=abc").unwrap_err().to_string();
        assert!(e.contains("abc") && e.contains("integer"), "{e}");
    }
}
