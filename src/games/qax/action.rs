//! Q.A.X. actions: small sub-decisions, each a `u16` id (see the encoding table in the
//! module docs of [`super`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::board::{DIR_NAMES, MAX_CELLS, cell_name, parse_cell};
use super::{NUM_COMPANIES, NUM_FIELDS, Rating};

/// One decision. The id is the value itself; legal actions are sorted by id.
///
/// | ids (`C` = 128 cell ids) | action | text |
/// |---|---|---|
/// | 0 | do not shift a field this turn (QAX-05, QAX-3.3) | `noshift` |
/// | 1 | no trade after this move (QAX-3.4 "you may TRADE") | `pass` |
/// | 2 | buy the share of the field moved to (QAX-3.7) | `buy` |
/// | 3 | sell the share of the field moved to (QAX-3.7) | `sell` |
/// | 4–6 | Index: rate the next company Hausse / Nominale / Baisse (QAX-2.5) | `hausse` `nominale` `baisse` |
/// | 8 + cell | shift source: lift the vacant field on `cell` (QAX-3.3) | `lift c4` |
/// | 8 + C + cell | shift destination: put the lifted field on `cell` (QAX-3.3) | `put h1` |
/// | 8 + 2C + cell | setup (`field_setup=players`): place the chosen field on `cell` (QAX-2.1) | `place d3` |
/// | 8 + 3C + field | setup (`field_setup=players`): choose a field of your hand (QAX-2.1) | `field C3 2` |
/// | 44 + 3C + 3·cell + h − 1 | setup: place `h` pieces on `cell` (QAX-2.4) | `pieces 1 d3` |
/// | 44 + 6C + 3·cell + h − 1 | relocate `h` attacked pieces onto the vacant `cell` (QAX-3.9) | `relocate 2 e5` |
/// | 44 + 9C + 24·from + 3·dir + h − 1 | move `h` pieces from `from` one step in `dir` (QAX-3.4) | `move 2 d3 ne` |
///
/// Fields are numbered `4·company + number − 1` and written `C<company> <number>`
/// (company 1–9, `C1` being "Dinero Bros" under the default names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Action(pub u16);

/// First id of each action kind.
pub(crate) const NO_SHIFT: u16 = 0;
pub(crate) const PASS: u16 = 1;
pub(crate) const BUY: u16 = 2;
pub(crate) const SELL: u16 = 3;
pub(crate) const INDEX: u16 = 4;
pub(crate) const LIFT: u16 = 8;
pub(crate) const PUT: u16 = LIFT + MAX_CELLS as u16;
pub(crate) const PLACE_FIELD: u16 = PUT + MAX_CELLS as u16;
pub(crate) const CHOOSE_FIELD: u16 = PLACE_FIELD + MAX_CELLS as u16;
pub(crate) const PIECES: u16 = CHOOSE_FIELD + NUM_FIELDS as u16;
pub(crate) const RELOCATE: u16 = PIECES + 3 * MAX_CELLS as u16;
pub(crate) const MOVE: u16 = RELOCATE + 3 * MAX_CELLS as u16;
/// One past the largest id.
pub const NUM_IDS: u16 = MOVE + 24 * MAX_CELLS as u16;

/// An action decoded into its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Skip the optional shift.
    NoShift,
    /// No trade after this move.
    Pass,
    /// Buy the share of the field moved to.
    Buy,
    /// Sell the share of the field moved to.
    Sell,
    /// Rate the next company on the Index.
    Index(Rating),
    /// Lift the vacant field on this cell.
    Lift(u8),
    /// Put the lifted field on this cell.
    Put(u8),
    /// Place the chosen field on this cell (setup).
    PlaceField(u8),
    /// Choose this field of your hand (setup).
    ChooseField(u8),
    /// Place `h` pieces on this cell (setup): (cell, h).
    Pieces(u8, u8),
    /// Relocate `h` attacked pieces onto this vacant cell: (cell, h).
    Relocate(u8, u8),
    /// Move `h` pieces from `from` one step in direction `dir`: (from, dir, h).
    Move(u8, u8, u8),
}

impl Action {
    /// Skip the shift.
    pub const NO_SHIFT: Action = Action(NO_SHIFT);
    /// No trade.
    pub const PASS: Action = Action(PASS);
    /// Buy.
    pub const BUY: Action = Action(BUY);
    /// Sell.
    pub const SELL: Action = Action(SELL);

    /// Rate the next company `r`.
    pub fn index(r: Rating) -> Action {
        Action(INDEX + r as u16)
    }
    /// Lift the field on `cell`.
    pub fn lift(cell: u8) -> Action {
        Action(LIFT + cell as u16)
    }
    /// Put the lifted field on `cell`.
    pub fn put(cell: u8) -> Action {
        Action(PUT + cell as u16)
    }
    /// Place the chosen field on `cell`.
    pub fn place_field(cell: u8) -> Action {
        Action(PLACE_FIELD + cell as u16)
    }
    /// Choose `field` from your hand.
    pub fn choose_field(field: u8) -> Action {
        Action(CHOOSE_FIELD + field as u16)
    }
    /// Place `h` (1–3) pieces on `cell` at setup.
    pub fn pieces(cell: u8, h: u8) -> Action {
        Action(PIECES + 3 * cell as u16 + h as u16 - 1)
    }
    /// Relocate `h` (1–3) attacked pieces onto `cell`.
    pub fn relocate(cell: u8, h: u8) -> Action {
        Action(RELOCATE + 3 * cell as u16 + h as u16 - 1)
    }
    /// Move `h` (1–3) pieces from `from` in direction `dir` (0–7: n, ne, e, se, s, sw, w, nw).
    pub fn mv(from: u8, dir: u8, h: u8) -> Action {
        Action(MOVE + 24 * from as u16 + 3 * dir as u16 + h as u16 - 1)
    }

    /// The parts of this action, or `None` for an id that is no action.
    pub fn kind(self) -> Option<Kind> {
        let i = self.0;
        Some(match i {
            NO_SHIFT => Kind::NoShift,
            PASS => Kind::Pass,
            BUY => Kind::Buy,
            SELL => Kind::Sell,
            4..=6 => Kind::Index(Rating::ALL[(i - INDEX) as usize]),
            7 => return None,
            _ if i < PUT => Kind::Lift((i - LIFT) as u8),
            _ if i < PLACE_FIELD => Kind::Put((i - PUT) as u8),
            _ if i < CHOOSE_FIELD => Kind::PlaceField((i - PLACE_FIELD) as u8),
            _ if i < PIECES => Kind::ChooseField((i - CHOOSE_FIELD) as u8),
            _ if i < RELOCATE => {
                let k = i - PIECES;
                Kind::Pieces((k / 3) as u8, (k % 3) as u8 + 1)
            }
            _ if i < MOVE => {
                let k = i - RELOCATE;
                Kind::Relocate((k / 3) as u8, (k % 3) as u8 + 1)
            }
            _ if i < NUM_IDS => {
                let k = i - MOVE;
                Kind::Move((k / 24) as u8, ((k % 24) / 3) as u8, (k % 3) as u8 + 1)
            }
            _ => return None,
        })
    }

    /// Parses the text form written by `Display`.
    pub fn parse(text: &str) -> Option<Action> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let h = |s: &str| s.parse::<u8>().ok().filter(|h| (1..=3).contains(h));
        Some(match w.as_slice() {
            ["noshift"] => Action::NO_SHIFT,
            ["pass"] => Action::PASS,
            ["buy"] => Action::BUY,
            ["sell"] => Action::SELL,
            [r] => Action::index(Rating::parse(r)?),
            ["lift", c] => Action::lift(parse_cell(c)?),
            ["put", c] => Action::put(parse_cell(c)?),
            ["place", c] => Action::place_field(parse_cell(c)?),
            ["field", c, n] => {
                let c = c.as_bytes();
                if c.len() != 2 || c[0] != b'C' {
                    return None;
                }
                let company = c[1].checked_sub(b'1')?;
                let number: u8 = n.parse().ok()?;
                if company as usize >= NUM_COMPANIES || !(1..=4).contains(&number) {
                    return None;
                }
                Action::choose_field(company * 4 + number - 1)
            }
            ["pieces", n, c] => Action::pieces(parse_cell(c)?, h(n)?),
            ["relocate", n, c] => Action::relocate(parse_cell(c)?, h(n)?),
            ["move", n, c, d] => {
                let dir = DIR_NAMES.iter().position(|x| x == d)? as u8;
                Action::mv(parse_cell(c)?, dir, h(n)?)
            }
            _ => return None,
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            None => write!(f, "invalid#{}", self.0),
            Some(k) => match k {
                Kind::NoShift => f.write_str("noshift"),
                Kind::Pass => f.write_str("pass"),
                Kind::Buy => f.write_str("buy"),
                Kind::Sell => f.write_str("sell"),
                Kind::Index(r) => f.write_str(r.word()),
                Kind::Lift(c) => write!(f, "lift {}", cell_name(c)),
                Kind::Put(c) => write!(f, "put {}", cell_name(c)),
                Kind::PlaceField(c) => write!(f, "place {}", cell_name(c)),
                Kind::ChooseField(x) => write!(f, "field C{} {}", x / 4 + 1, x % 4 + 1),
                Kind::Pieces(c, h) => write!(f, "pieces {h} {}", cell_name(c)),
                Kind::Relocate(c, h) => write!(f, "relocate {h} {}", cell_name(c)),
                Kind::Move(c, d, h) => {
                    write!(f, "move {h} {} {}", cell_name(c), DIR_NAMES[d as usize])
                }
            },
        }
    }
}
