//! Saved positions: the text format every game state round-trips through (DESIGN.md §3),
//! so that positions can be saved, loaded, analysed (`sim analyze`), continued
//! (`sim play --start`) and used as test fixtures.
//!
//! # Format: `tabletop-sim position v1`
//!
//! A position file is one JSON object (UTF-8, pretty-printed when written by the crate):
//!
//! ```json
//! {
//!   "format": "tabletop-sim position v1",
//!   "game": "kuhn",
//!   "state": {
//!     "rules": { "game": "kuhn", "players": 2, "variant": [] },
//!     "cards": [2, 0],
//!     "history": ["p", "p", "p"],
//!     "len": 1
//!   },
//!   "streams": {
//!     "seed": 7,
//!     "index": 3,
//!     "chance": "0x3c1e...",
//!     "seats": ["0x9f0b...", "0x11d2..."]
//!   }
//! }
//! ```
//!
//! - `format` is exactly [`FORMAT`]; anything else is refused, so a later incompatible
//!   version cannot be misread.
//! - `game` is the registry name ([`GameState::NAME`](crate::game::GameState::NAME)); loading a position of another game is an
//!   error naming both games.
//! - `state` is the game's state as serde writes it ([`game::GameState`](crate::game::GameState) requires `Serialize` and
//!   `DeserializeOwned`). Every state has a `rules` field: the game, the player count and
//!   every rule parameter as `key=value` ([`crate::game::RulesRef`]); loading rebuilds
//!   (and so validates) those rules. The other fields are the game's own, documented on its
//!   `State` type: fixed-size arrays are written whole (entries past a length field
//!   included), so a loaded state is `==` to the saved one. After parsing,
//!   [`GameState::validate`](crate::game::GameState::validate) checks ranges and conservation laws, so a hand-edited position
//!   that no game could reach is refused with the reason instead of misbehaving later.
//! - `streams` (optional) are the random streams of the game the position was taken from:
//!   its master seed and game index and the exact states of its chance stream and of each
//!   seat's agent stream (PCG-64 MCG states as `0x` + 32 hex digits). `sim play --save-at`
//!   writes them and `sim play --start` resumes them, so a continued game plays exactly as
//!   the uninterrupted one. Other readers ignore them.
//!
//! Unknown top-level fields are ignored (room for notes in fixtures); unknown fields inside
//! `state` are ignored by serde's defaults, missing ones are errors.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::game::{MAX_PLAYERS, Playable};
use crate::rng::SimRng;

/// The `format` tag of the current position format.
pub const FORMAT: &str = "tabletop-sim position v1";

/// A saved position of game `G`: the state and, optionally, the random streams of the game
/// it was taken from (see the module docs for the text format).
#[derive(Debug, Clone, PartialEq)]
pub struct Position<G: Playable> {
    /// The state.
    pub state: G,
    /// The random streams at this state, if the position was saved from a running game.
    pub streams: Option<Streams>,
}

/// The random streams of one game at a position: enough to continue it exactly as the
/// uninterrupted game ([`crate::rng::seed_for`] documents the streams).
#[derive(Debug, Clone, PartialEq)]
pub struct Streams {
    /// The master seed of the run.
    pub seed: u64,
    /// The game index within the run.
    pub index: u64,
    /// The chance stream (stream 0) at the position.
    pub chance: SimRng,
    /// Each seat's agent stream (stream `1 + seat`) at the position, one per seat.
    pub seats: Vec<SimRng>,
}

/// What went wrong while reading a position; [`PositionError`] adds where it came from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionProblem {
    /// The file could not be read or written.
    #[error("{0}")]
    Io(String),
    /// The text is not JSON, or not a JSON object with the top-level fields.
    #[error(
        "not a valid position (expected a JSON object with \"format\", \"game\" and \"state\"): {0}"
    )]
    Json(String),
    /// The `format` tag is not [`FORMAT`].
    #[error("unknown format \"{found}\", expected \"{FORMAT}\"")]
    Format {
        /// The tag found.
        found: String,
    },
    /// The position is of another game.
    #[error("holds a position of game '{found}', not '{expected}'")]
    WrongGame {
        /// The game named in the file.
        found: String,
        /// The game asked for.
        expected: &'static str,
    },
    /// The `state` field does not parse as a state of the game.
    #[error("bad {game} state: {reason}")]
    State {
        /// The game.
        game: &'static str,
        /// The parser's message (missing field, wrong type, rules rejected).
        reason: String,
    },
    /// The state parses but is not a position of the game ([`GameState::validate`](crate::game::GameState::validate)).
    #[error("invalid {game} state: {reason}")]
    Invalid {
        /// The game.
        game: &'static str,
        /// Which check failed.
        reason: String,
    },
    /// The `streams` field is malformed.
    #[error("bad streams: {0}")]
    Streams(String),
}

/// A position that could not be read (or written), naming where it came from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {problem}")]
pub struct PositionError {
    /// Where the position came from: `position file 'x.json'` or `position text`.
    pub origin: String,
    /// What was wrong.
    pub problem: PositionProblem,
}

/// The top level of the file, with the state left unparsed until the game is known.
#[derive(Serialize, Deserialize)]
struct Envelope<S> {
    format: String,
    game: String,
    state: S,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    streams: Option<StreamsText>,
}

#[derive(Serialize, Deserialize)]
struct StreamsText {
    seed: u64,
    index: u64,
    chance: String,
    seats: Vec<String>,
}

fn rng_text(rng: &SimRng) -> String {
    format!("0x{:032x}", rng.state())
}

fn parse_rng(text: &str, what: &str) -> Result<SimRng, String> {
    let hex = text.strip_prefix("0x").unwrap_or(text);
    let state = u128::from_str_radix(hex, 16)
        .map_err(|_| format!("{what} '{text}' is not 0x followed by up to 32 hex digits"))?;
    // The generator's state is always odd; SimRng::new would silently change an even one.
    if state & 1 == 0 {
        return Err(format!(
            "{what} '{text}' is even; a PCG-64 MCG state is odd"
        ));
    }
    Ok(SimRng::new(state))
}

impl Streams {
    fn to_text(&self) -> StreamsText {
        StreamsText {
            seed: self.seed,
            index: self.index,
            chance: rng_text(&self.chance),
            seats: self.seats.iter().map(rng_text).collect(),
        }
    }

    fn from_text(t: &StreamsText, players: usize) -> Result<Self, String> {
        if t.seats.len() != players {
            return Err(format!(
                "{} seat streams for {players} players",
                t.seats.len()
            ));
        }
        Ok(Streams {
            seed: t.seed,
            index: t.index,
            chance: parse_rng(&t.chance, "chance")?,
            seats: t
                .seats
                .iter()
                .enumerate()
                .map(|(s, x)| parse_rng(x, &format!("seat {s}")))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The seat streams as the fixed-size array the runner uses (unused seats get a
    /// placeholder stream that is never drawn from).
    pub fn seat_array(&self) -> [SimRng; MAX_PLAYERS] {
        std::array::from_fn(|s| self.seats.get(s).cloned().unwrap_or_else(|| SimRng::new(1)))
    }
}

/// The game named by a position's text, without parsing the state (to pick the game before
/// loading, or to report a mismatch).
///
/// # Errors
/// [`PositionProblem::Json`] or [`PositionProblem::Format`].
pub fn game_of(text: &str) -> Result<String, PositionProblem> {
    let env: Envelope<serde::de::IgnoredAny> =
        serde_json::from_str(text).map_err(|e| PositionProblem::Json(e.to_string()))?;
    if env.format != FORMAT {
        return Err(PositionProblem::Format { found: env.format });
    }
    Ok(env.game)
}

impl<G: Playable> Position<G> {
    /// A position without streams.
    pub fn new(state: G) -> Self {
        Position {
            state,
            streams: None,
        }
    }

    /// The position as pretty-printed JSON (see the module docs).
    pub fn to_json(&self) -> String {
        let env = Envelope {
            format: FORMAT.to_string(),
            game: G::NAME.to_string(),
            state: &self.state,
            streams: self.streams.as_ref().map(Streams::to_text),
        };
        let mut text = serde_json::to_string_pretty(&env)
            .expect("game states serialise (no maps with non-string keys)");
        text.push('\n');
        text
    }

    /// Parses a position of game `G`: checks the format tag and the game, parses the state
    /// (rebuilding its rules), runs [`GameState::validate`](crate::game::GameState::validate) and parses the streams.
    ///
    /// # Errors
    /// The first [`PositionProblem`] found, in that order.
    pub fn parse(text: &str) -> Result<Self, PositionProblem> {
        let env: Envelope<serde_json::Value> =
            serde_json::from_str(text).map_err(|e| PositionProblem::Json(e.to_string()))?;
        if env.format != FORMAT {
            return Err(PositionProblem::Format { found: env.format });
        }
        if env.game != G::NAME {
            return Err(PositionProblem::WrongGame {
                found: env.game,
                expected: G::NAME,
            });
        }
        let state: G = serde_json::from_value(env.state).map_err(|e| PositionProblem::State {
            game: G::NAME,
            reason: e.to_string(),
        })?;
        state
            .validate()
            .map_err(|reason| PositionProblem::Invalid {
                game: G::NAME,
                reason: reason.problem,
            })?;
        let streams = env
            .streams
            .map(|t| Streams::from_text(&t, state.num_players()))
            .transpose()
            .map_err(PositionProblem::Streams)?;
        Ok(Position { state, streams })
    }

    /// [`Position::parse`] of text given directly (tests, fixtures).
    ///
    /// # Errors
    /// As [`Position::parse`], with the origin `position text`.
    pub fn from_json(text: &str) -> Result<Self, PositionError> {
        Self::parse(text).map_err(|problem| PositionError {
            origin: "position text".into(),
            problem,
        })
    }

    /// Reads and parses the position file at `path`.
    ///
    /// # Errors
    /// A [`PositionError`] naming the file: unreadable, or any problem of
    /// [`Position::parse`].
    pub fn load(path: &Path) -> Result<Self, PositionError> {
        let err = |problem| PositionError {
            origin: format!("position file '{}'", path.display()),
            problem,
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| err(PositionProblem::Io(format!("cannot read: {e}"))))?;
        Self::parse(&text).map_err(err)
    }

    /// Writes the position to `path` ([`Position::to_json`]).
    ///
    /// # Errors
    /// A [`PositionError`] naming the file when it cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), PositionError> {
        std::fs::write(path, self.to_json()).map_err(|e| PositionError {
            origin: format!("position file '{}'", path.display()),
            problem: PositionProblem::Io(format!("cannot write: {e}")),
        })
    }
}

/// serde helper for a rule-parameter value stored in a state
/// (`#[serde(with = "crate::position::param_text")]`): written as it is typed on the
/// command line ([`crate::params::ParamValue`]).
pub mod param_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::params::ParamValue;

    /// Writes `value` as its typed form.
    ///
    /// # Errors
    /// Those of the serializer.
    pub fn serialize<T: ParamValue, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&value.format_param())
    }

    /// Parses the typed form.
    ///
    /// # Errors
    /// The parameter's own message for a value it does not accept.
    pub fn deserialize<'de, T: ParamValue, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let text = String::deserialize(d)?;
        T::parse_param(&text)
            .map_err(|expected| serde::de::Error::custom(format!("'{text}' is not {expected}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState;
    use crate::game::{default_rules, random_playout};
    use crate::games::{daxu, kuhn, race::Race};
    use crate::rng::test_rng;

    fn round_trip<G: Playable>(state: &G) {
        let text = Position::new(state.clone()).to_json();
        let back = Position::<G>::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.state, *state, "{text}");
        assert_eq!(back.to_json(), text);
    }

    /// Mid-game and final states of every game round-trip to an equal state and the same
    /// text.
    #[test]
    fn states_round_trip_at_every_stage() {
        let mut r = test_rng(4);
        let mut buf = Vec::new();
        for _ in 0..20 {
            let mut d = crate::game::setup::<daxu::State>(&Default::default(), 2, &mut r).unwrap();
            round_trip(&d);
            for _ in 0..5 {
                crate::game::play_ply(&mut d, &mut r, |s, p, r| s.random_action(p, &mut buf, r));
            }
            round_trip(&d);
            random_playout(&mut d, &mut buf, &mut r);
            round_trip(&d);
            let mut k = kuhn::State::new_game(default_rules(), &mut r);
            round_trip(&k);
            random_playout(&mut k, &mut Vec::new(), &mut r);
            round_trip(&k);
            let mut g = Race::new_game(default_rules(), &mut r);
            crate::game::play_ply(&mut g, &mut r, |s, p, r| {
                s.random_action(p, &mut Vec::new(), r)
            });
            round_trip(&g);
        }
    }

    #[test]
    fn the_format_is_readable() {
        let s = kuhn::State::from_deal([2, 0]);
        let text = Position::new(s).to_json();
        assert!(
            text.starts_with(
                "{\n  \"format\": \"tabletop-sim position v1\",\n  \"game\": \"kuhn\","
            ),
            "{text}"
        );
        assert!(
            text.contains("\"rules\": {\n      \"game\": \"kuhn\",\n      \"players\": 2"),
            "{text}"
        );
        assert!(!text.contains("streams"), "{text}");
    }

    #[test]
    fn streams_round_trip_and_bad_streams_are_refused() {
        let mut chance = test_rng(1);
        let _ = rand::Rng::next_u64(&mut chance);
        let p = Position {
            state: kuhn::State::from_deal([0, 1]),
            streams: Some(Streams {
                seed: 7,
                index: 3,
                chance: chance.clone(),
                seats: vec![test_rng(2), test_rng(3)],
            }),
        };
        let text = p.to_json();
        assert_eq!(Position::<kuhn::State>::from_json(&text).unwrap(), p);
        let one_seat = text.replacen(&format!("\"{}\",", rng_text(&test_rng(2))), "", 1);
        let e = Position::<kuhn::State>::from_json(&one_seat)
            .unwrap_err()
            .to_string();
        assert!(e.contains("1 seat streams for 2 players"), "{e}");
        let even = text.replace(&rng_text(&chance), "0x2");
        let e = Position::<kuhn::State>::from_json(&even)
            .unwrap_err()
            .to_string();
        assert!(e.contains("chance '0x2' is even"), "{e}");
    }

    #[test]
    fn errors_name_the_problem() {
        let kuhn = Position::new(kuhn::State::from_deal([2, 0])).to_json();
        let e = |text: &str| {
            Position::<kuhn::State>::from_json(text)
                .unwrap_err()
                .to_string()
        };
        assert!(e("{").starts_with("position text: not a valid position"));
        assert!(e("[]").contains("expected a JSON object"));
        let v2 = kuhn.replace("position v1", "position v2");
        assert!(e(&v2).contains("unknown format \"tabletop-sim position v2\""));
        let daxu = Position::new(
            crate::game::setup::<daxu::State>(&Default::default(), 2, &mut test_rng(1)).unwrap(),
        )
        .to_json();
        assert!(
            e(&daxu).contains("holds a position of game 'daxu', not 'kuhn'"),
            "{}",
            e(&daxu)
        );
        assert_eq!(game_of(&daxu).unwrap(), "daxu");
        let missing = kuhn.replace("\"len\"", "\"length\"");
        assert!(
            e(&missing).contains("bad kuhn state: missing field `len`"),
            "{}",
            e(&missing)
        );
        let same_cards = kuhn.replace(
            "\"cards\": [\n      2,\n      0\n    ]",
            "\"cards\": [1, 1]",
        );
        assert!(
            e(&same_cards).contains("invalid kuhn state"),
            "{}",
            e(&same_cards)
        );
        let bad_rules = kuhn.replace("\"players\": 2", "\"players\": 3");
        assert!(
            e(&bad_rules).contains("bad kuhn state")
                && e(&bad_rules).contains("exactly 2 players, got 3"),
            "{}",
            e(&bad_rules)
        );
        let other_rules = kuhn.replace(
            "\"rules\": {\n      \"game\": \"kuhn\"",
            "\"rules\": {\n      \"game\": \"daxu\"",
        );
        assert!(
            e(&other_rules).contains("saved rules are for game 'daxu'"),
            "{}",
            e(&other_rules)
        );
    }

    #[test]
    fn loading_a_missing_file_names_it() {
        let e = Position::<Race>::load(Path::new("/nonexistent/pos.json"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("position file '/nonexistent/pos.json': cannot read"),
            "{e}"
        );
    }
}
