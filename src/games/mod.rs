//! The game registry: every game by name, with its description, player counts and rule
//! parameters (what `sim list` prints), and [`dispatch_game!`] to run generic code on a
//! game chosen by name at run time.

pub mod daxu;
pub mod goofspiel;
pub mod kuhn;
pub mod race;

use crate::game::Game;
use crate::params::{ParamInfo, ParamSet};

/// What the registry knows of one game.
#[derive(Debug, Clone)]
pub struct GameInfo {
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
}

/// The registry entry of game `G`.
pub fn info<G: Game>() -> GameInfo {
    GameInfo {
        name: G::NAME,
        description: G::DESCRIPTION,
        players: G::PLAYERS,
        default_players: G::DEFAULT_PLAYERS,
        params: G::Params::info(),
    }
}

/// The registered game names, in `sim list` order.
pub const NAMES: &[&str] = &["daxu", "kuhn", "goofspiel"];

/// Every registered game.
pub fn all() -> Vec<GameInfo> {
    vec![
        info::<daxu::State>(),
        info::<kuhn::State>(),
        info::<goofspiel::State>(),
    ]
}

/// The error for a game name not in the registry, listing the valid names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{name}'; valid games: {valid}", valid = NAMES.join(", "))]
pub struct UnknownGame {
    /// The offending name.
    pub name: String,
}

/// Runs `$body` with the type alias `$G` bound to the state type of the game named
/// `$name`; evaluates to `Result<_, UnknownGame>`.
///
/// ```
/// use tabletop_sim::{dispatch_game, Game};
/// let n = dispatch_game!("daxu", G => G::DEFAULT_PLAYERS).unwrap();
/// assert_eq!(n, 2);
/// assert!(dispatch_game!("chess", G => G::DEFAULT_PLAYERS).is_err());
/// ```
#[macro_export]
macro_rules! dispatch_game {
    ($name:expr, $G:ident => $body:expr) => {{
        match $name {
            "daxu" => {
                type $G = $crate::games::daxu::State;
                Ok($body)
            }
            "kuhn" => {
                type $G = $crate::games::kuhn::State;
                Ok($body)
            }
            "goofspiel" => {
                type $G = $crate::games::goofspiel::State;
                Ok($body)
            }
            other => Err($crate::games::UnknownGame {
                name: other.to_string(),
            }),
        }
    }};
}
