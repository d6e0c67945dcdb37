//! The game registry: every game by name, with its description, player counts and rule
//! parameters (what `sim list` prints), and [`dispatch_game!`](crate::dispatch_game) to run
//! generic code on a game chosen by name at run time.
//!
//! # Adding a game
//!
//! [`race`] is a small complete example on the whole API; copy its shape. A new game
//! touches **three files outside its own folder**, and the registry does the rest:
//!
//! 1. `src/games/mod.rs` (this file): `pub mod <name>;` and one line
//!    `<name> => <name>::State,` in [`with_game_registry!`](crate::with_game_registry).
//! 2. `docs/rules/<name>.md`: the rules as implemented with stable clause ids, every ruling
//!    and every parameter with its default and alternatives (checked against `sim list` by
//!    `tests/integration/rules_docs.rs`).
//! 3. `agents/games/<name>.toml`: the game's agent defaults (an empty `[defaults]` table is
//!    fine; the build fails without the file).
//!
//! Then `UPDATE_GOLDEN=1 cargo test --lib golden` writes the generated golden files
//! (`tests/golden/<name>/<players>p.txt`, with perft counts) and the suite checks them.
//!
//! Inside `src/games/<name>/`:
//! - `mod.rs`: a rules summary citing the clause ids of `docs/rules/<name>.md`, the
//!   parameter table, the **Deviations**, and the observation tensor's layout field by field;
//! - `Params` with [`param_set!`](crate::param_set): every ASSUMPTION ruling a field with
//!   the ruling's default ([`PerCount`](crate::params::PerCount) for values that depend on
//!   the player count, a [`DataFile`](crate::params::DataFile) for component data);
//! - `impl GameState for State` (the required core, [`GameState`](crate::game::GameState)): `TYPE` (the static
//!   facts), `build_rules` (validating the parameters *with the player count*), a
//!   fixed-size state with chance drawn lazily through [`Chance`](crate::game::Chance),
//!   sorted unique legal actions, checked and unchecked apply, returns and value in the same
//!   units, the information state (perfect recall) and `info_key` as its digest, the
//!   observation string and tensor, `determinize`, `validate`;
//! - the optional capabilities, each an `impl` that may be empty to take the defaults:
//!   [`Measured`](crate::game::Measured) (metrics and labels),
//!   [`RunningScore`](crate::game::RunningScore) and [`log::Logged`] (the game log);
//! - rule tests, one `rule_<clause>_<what>` per clause.
//!
//! Registering the game makes it appear in `sim list`, `sim info`, every command's
//! `--game`, the logs, the reports, and in the tests generated from the registry: the
//! information conformance, golden playthrough and perft, and soak at every player count
//! ([`crate::testing`]), the allocation, fuzz, `sim info` and rules-docs tests
//! (`tests/integration/`, through [`visit_all`]).

pub mod daimyo;
pub mod daxu;
pub mod dunhuang;
pub mod goofspiel;
pub mod kuhn;
pub mod log;
pub mod qax;
pub mod race;

use crate::game::Playable;
use crate::params::{ParamInfo, ParamSet};

/// What the registry knows of one game.
#[derive(Debug, Clone)]
pub struct GameEntry {
    /// Registry name (`daxu`).
    pub name: &'static str,
    /// One line.
    pub description: &'static str,
    /// Smallest and largest player counts.
    pub players: (usize, usize),
    /// Player count used when none is given.
    pub default_players: usize,
    /// The rule parameters (`--variant key=value`).
    pub params: Vec<ParamInfo>,
    /// The game's defaults for agent kinds ([`agent_defaults`], from
    /// `agents/games/<name>.toml`).
    pub agent_defaults: &'static [(&'static str, &'static str)],
}

/// The registry entry of game `G`.
pub fn info<G: Playable>() -> GameEntry {
    GameEntry {
        name: G::NAME,
        description: G::DESCRIPTION,
        players: G::PLAYERS,
        default_players: G::DEFAULT_PLAYERS,
        params: G::Params::info(),
        agent_defaults: defaults_of(G::NAME),
    }
}

/// The per-game agent presets: `(game, TOML text of agents/games/<game>.toml)` for every
/// registered game, embedded at compile time (a registered game without its file does not
/// build). Each file's `[defaults]` table maps an agent kind to settings
/// (`mcts = "iters=100,rounds=1"`) applied before the user's and recorded in the canonical
/// spec.
pub const AGENT_PRESETS: &[(&str, &str)] = crate::with_game_registry!(__game_presets!());

#[doc(hidden)]
#[macro_export]
macro_rules! __game_presets {
    (() $($n:ident => $T:ty,)*) => {
        &[$((
            stringify!($n),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/agents/games/", stringify!($n), ".toml")),
        )),*]
    };
}

/// The parsed `[defaults]` of a preset text, sorted by kind.
///
/// # Errors
/// Malformed TOML, another top-level key, or a value that is not a string.
pub fn parse_agent_defaults(text: &str) -> Result<Vec<(String, String)>, String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        defaults: std::collections::BTreeMap<String, String>,
    }
    let f: File = toml::from_str(text).map_err(|e| e.to_string())?;
    Ok(f.defaults.into_iter().collect())
}

/// The agent defaults of the game named `name` (empty for a game outside the registry,
/// such as [`race`]).
///
/// # Panics
/// If a shipped file does not parse (a test parses them all).
pub fn defaults_of(name: &str) -> &'static [(&'static str, &'static str)] {
    type Defaults = Vec<(&'static str, &'static [(&'static str, &'static str)])>;
    static PARSED: std::sync::OnceLock<Defaults> = std::sync::OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        AGENT_PRESETS
            .iter()
            .map(|(game, text)| {
                let pairs = parse_agent_defaults(text)
                    .unwrap_or_else(|e| panic!("agents/games/{game}.toml: {e}"));
                let leaked: Vec<(&'static str, &'static str)> = pairs
                    .into_iter()
                    .map(|(k, v)| (&*k.leak(), &*v.leak()))
                    .collect();
                (*game, &*leaked.leak())
            })
            .collect()
    });
    parsed
        .iter()
        .find(|(g, _)| *g == name)
        .map_or(&[], |(_, d)| *d)
}

/// The agent defaults of the game named `name` (`agents/games/<name>.toml`).
///
/// # Errors
/// [`UnknownGame`] listing the valid names.
pub fn agent_defaults(name: &str) -> Result<&'static [(&'static str, &'static str)], UnknownGame> {
    crate::dispatch_game!(name, G => defaults_of(G::NAME))
}

/// The one list of registered games: calls `$callback!` with the arguments given and then
/// every game as `name => StateType`, in `sim list` order. [`NAMES`], [`all`] and
/// [`dispatch_game!`] are all derived from it, so adding a game is one line here.
#[doc(hidden)]
#[macro_export]
macro_rules! with_game_registry {
    ($callback:ident ! ( $($args:tt)* )) => {
        $crate::$callback! { ($($args)*)
            daimyo => $crate::games::daimyo::State,
            daxu => $crate::games::daxu::State,
            dunhuang => $crate::games::dunhuang::State,
            kuhn => $crate::games::kuhn::State,
            goofspiel => $crate::games::goofspiel::State,
            qax => $crate::games::qax::State,
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __game_names {
    (() $($n:ident => $T:ty,)*) => {
        &[$(stringify!($n)),*]
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __game_infos {
    (() $($n:ident => $T:ty,)*) => {
        vec![$($crate::games::info::<$T>()),*]
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch_game {
    (($name:expr, $G:ident, $body:expr) $($n:ident => $T:ty,)*) => {{
        match $name {
            $(
                x if x == stringify!($n) => {
                    #[allow(unused_imports)]
                    use $crate::game::{GameState as _, Measured as _, RunningScore as _};
                    type $G = $T;
                    Ok($body)
                }
            )*
            other => Err($crate::games::UnknownGame {
                name: other.to_string(),
            }),
        }
    }};
}

/// Generic code run once per registered game ([`visit_all`]): how tests, benches and tools
/// outside the crate enumerate the registry without a list of their own.
pub trait GameVisitor {
    /// Called with each registered game's state type.
    fn visit<G: Playable>(&mut self);
}

#[doc(hidden)]
#[macro_export]
macro_rules! __visit_games {
    (($v:expr) $($n:ident => $T:ty,)*) => {{
        $( $v.visit::<$T>(); )*
    }};
}

/// Calls `visitor.visit::<G>()` for every registered game, in `sim list` order.
///
/// ```
/// use tabletop_sim::games::{GameVisitor, visit_all};
/// struct Names(Vec<&'static str>);
/// impl GameVisitor for Names {
///     fn visit<G: tabletop_sim::Playable>(&mut self) {
///         self.0.push(G::NAME);
///     }
/// }
/// let mut names = Names(Vec::new());
/// visit_all(&mut names);
/// assert_eq!(names.0, tabletop_sim::games::NAMES);
/// ```
pub fn visit_all(visitor: &mut impl GameVisitor) {
    crate::with_game_registry!(__visit_games!(visitor))
}

/// The registered game names, in `sim list` order.
pub const NAMES: &[&str] = crate::with_game_registry!(__game_names!());

/// Every registered game.
pub fn all() -> Vec<GameEntry> {
    crate::with_game_registry!(__game_infos!())
}

/// The error for a game name not in the registry, listing the valid names and the closest
/// one ("did you mean").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown game '{name}'; valid games: {valid}{hint}",
    valid = NAMES.join(", "),
    hint = crate::format::did_you_mean_hint(name, NAMES)
)]
pub struct UnknownGame {
    /// The offending name.
    pub name: String,
}

/// Runs `$body` with the type alias `$G` bound to the state type of the game named
/// `$name`; evaluates to `Result<_, UnknownGame>`.
///
/// ```
/// use tabletop_sim::{dispatch_game, GameState, Measured, Playable, RunningScore};
/// let n = dispatch_game!("daxu", G => G::DEFAULT_PLAYERS).unwrap();
/// assert_eq!(n, 2);
/// assert!(dispatch_game!("chess", G => G::DEFAULT_PLAYERS).is_err());
/// ```
#[macro_export]
macro_rules! dispatch_game {
    ($name:expr, $G:ident => $body:expr) => {
        $crate::with_game_registry!(__dispatch_game!($name, $G, $body))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unknown game names the valid ones and, when one is close, suggests it.
    #[test]
    fn an_unknown_game_suggests_the_closest_name() {
        let e = crate::dispatch_game!("daxo", G => G::NAME)
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("; did you mean 'daxu'?"), "{e}");
        let e = crate::dispatch_game!("chess", G => G::NAME)
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("goofspiel, qax"), "{e}");
    }

    /// Every game's declarations fit together: its label and flag-metric columns
    /// ([`crate::tournament::summary::GroupColumn::of`]) and its agent defaults (known
    /// kinds, known keys, valid values).
    fn check<G: Playable>() {
        crate::tournament::summary::GroupColumn::of::<G>().unwrap();
        for (kind, body) in defaults_of(G::NAME) {
            crate::agents::canonicalize_with(kind, defaults_of(G::NAME))
                .unwrap_or_else(|e| panic!("{}: {kind}:{body}: {e}", G::NAME));
            assert!(crate::agents::build::<G>(kind).is_ok());
        }
    }

    /// Every game's declarations fit together: its label and flag-metric columns
    /// ([`crate::tournament::summary::GroupColumn::of`]) and its agent defaults (known
    /// kinds, known keys, valid values).
    #[test]
    fn declarations_are_consistent() {
        for name in NAMES {
            crate::dispatch_game!(*name, G => check::<G>()).unwrap();
        }
        check::<race::Race>();
    }
}
