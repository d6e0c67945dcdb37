//! Daimyo's decisions: a small `Copy` action, `kind << 8 | payload` as its id.
//!
//! A turn is a sequence of small decisions (DAI-29): the die and its space, then a
//! menu of the turn's bonus actions and its main action, then each effect's sub-choices
//! (a site, a tile, a resource...). Which of the payload fields mean what depends on the
//! kind; [`Action`]'s `Display` names them (`die red 5 -> recruitment`, `site 2.4`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The kinds of decision (the high byte of an action id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Kind {
    /// A Governor space: setup placement, recruitment, a Governor's destination (`a` island, `b` site).
    Site = 0,
    /// Take a die of colour `a` (0 blue, 1 green, 2 red) and value `b` for space `c`... encoded as `a` = space, `b` = colour * 6 + value - 1.
    Die,
    /// Set a die aside (DAI-11): `b` = colour * 6 + value - 1.
    SetAside,
    /// Take no die (unplaceable_die = leave_in_pool).
    NoDie,
    /// Resolve the main action of the placed die.
    Main,
    /// Play Hero `card` (by strength).
    PlayHero,
    /// Start discarding Heroes to shift dice.
    Discard,
    /// Choose Hero `card` (to discard, or to play with the Noble ability).
    Card,
    /// Shift the die on space `a` by +1 (`b` = 1) or -1 (`b` = 0).
    Shift,
    /// Use the clan ability.
    Ability,
    /// Use the Bonus Action tile on space `b`.
    Tile,
    /// Pay to reset the Recruitment track.
    Reset,
    /// End the turn.
    EndTurn,
    /// A resource `b`.
    Resource,
    /// Activate Villager tile `b`.
    Villager,
    /// An island `b` (Scavenger destination, influence target).
    Island,
    /// Take the Relic tile in slot `b` of the Scavenger's No man's land.
    Take,
    /// Search the No man's land.
    Search,
    /// Discard the tile in slot `b` of the No man's land (Search).
    SearchTile,
    /// Buy / take the Black-market tile of kind `b`.
    Shop,
    /// Finish the current step (stop, recruitment, construction, hiring, optional moves).
    Done,
    /// Recruit a Governor.
    RecruitGovernor,
    /// Recruit a Shadow.
    RecruitShadow,
    /// A Shadow space (`a` island, `b` space).
    Shadow,
    /// Eliminate the Governor on site `b` of the Shadow's island.
    Victim,
    /// Construct a Building of type `b` (0 Techno-farm, 1 Radio tower).
    Build,
    /// A Building space (`a` island, `b` site).
    Lot,
    /// Place the uncovered Bonus Action tile on board space `b`.
    Place,
    /// A loose Relic tile of kind `b` (to discard).
    Relic,
    /// Take the tile in slot `b` of island `a`'s No man's land.
    Pick,
    /// One of your pieces at (`a` island, `b` site) to move.
    Own,
    /// Give the Mighty Helmet to seat `b` (keep: your own seat).
    Give,
    /// Hire the Hero in market slot `b`.
    Hire,
    /// Perform main action `b` (a Hero's "any main action").
    MainChoice,
    /// Put the restored Relic's token on altar `b` (`altar_choice = owner_chooses`).
    Altar,
}

/// Number of kinds.
pub const KINDS: usize = Kind::Altar as usize + 1;

const ALL_KINDS: [Kind; KINDS] = [
    Kind::Site,
    Kind::Die,
    Kind::SetAside,
    Kind::NoDie,
    Kind::Main,
    Kind::PlayHero,
    Kind::Discard,
    Kind::Card,
    Kind::Shift,
    Kind::Ability,
    Kind::Tile,
    Kind::Reset,
    Kind::EndTurn,
    Kind::Resource,
    Kind::Villager,
    Kind::Island,
    Kind::Take,
    Kind::Search,
    Kind::SearchTile,
    Kind::Shop,
    Kind::Done,
    Kind::RecruitGovernor,
    Kind::RecruitShadow,
    Kind::Shadow,
    Kind::Victim,
    Kind::Build,
    Kind::Lot,
    Kind::Place,
    Kind::Relic,
    Kind::Pick,
    Kind::Own,
    Kind::Give,
    Kind::Hire,
    Kind::MainChoice,
    Kind::Altar,
];

/// A decision: `kind << 8 | a << 5 | b` with `a < 8`, `b < 32`, or a card `< 64` in the
/// low byte. Ordered (and thus sorted in legal-action lists) by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Action(pub u16);

/// Names of the main-action spaces of a Clan board, in space order.
pub const SPACE_NAMES: [&str; 6] = [
    "villagers",
    "production",
    "relic",
    "recruitment",
    "construction",
    "tax",
];

/// Names of tile spaces (6 grey, then yellow).
pub const TILE_SPACE_NAMES: [&str; 8] = [
    "villagers",
    "production",
    "relic",
    "recruitment",
    "construction",
    "ability",
    "round_end_1",
    "round_end_2",
];

const COLOURS: [&str; 3] = ["blue", "green", "red"];
const RES: [&str; 4] = ["rice", "metal", "crystal", "gold"];

impl Action {
    /// An action of `kind` with fields `a < 8` and `b < 32`.
    #[inline]
    pub const fn new(kind: Kind, a: u8, b: u8) -> Action {
        Action(((kind as u16) << 8) | ((a as u16) << 5) | b as u16)
    }

    /// An action of `kind` about Hero `card < 64`... or any byte payload.
    #[inline]
    pub const fn byte(kind: Kind, x: u8) -> Action {
        Action(((kind as u16) << 8) | x as u16)
    }

    /// A kind with no payload.
    #[inline]
    pub const fn plain(kind: Kind) -> Action {
        Action((kind as u16) << 8)
    }

    /// The kind.
    #[inline]
    pub fn kind(self) -> Kind {
        ALL_KINDS[(self.0 >> 8) as usize]
    }

    /// Field `a` (0..8).
    #[inline]
    pub fn a(self) -> u8 {
        ((self.0 >> 5) & 7) as u8
    }

    /// Field `b` (0..32).
    #[inline]
    pub fn b(self) -> u8 {
        (self.0 & 31) as u8
    }

    /// The low byte.
    #[inline]
    pub fn x(self) -> u8 {
        (self.0 & 255) as u8
    }

    /// Whether the id decodes to a valid kind.
    pub fn from_id(id: usize) -> Option<Action> {
        ((id >> 8) < KINDS).then_some(Action(id as u16))
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b, x) = (self.a() as usize, self.b() as usize, self.x());
        match self.kind() {
            Kind::Site => write!(f, "site {a}.{b}"),
            Kind::Die => write!(
                f,
                "die {} {} -> {}",
                COLOURS.get(b / 6).unwrap_or(&"?"),
                b % 6 + 1,
                SPACE_NAMES.get(a).unwrap_or(&"?")
            ),
            Kind::SetAside => write!(
                f,
                "set aside {} {}",
                COLOURS.get(b / 6).unwrap_or(&"?"),
                b % 6 + 1
            ),
            Kind::NoDie => write!(f, "no die"),
            Kind::Main => write!(f, "main action"),
            Kind::PlayHero => write!(f, "play hero {x}"),
            Kind::Discard => write!(f, "discard"),
            Kind::Card => write!(f, "card {x}"),
            Kind::Shift => write!(
                f,
                "shift {} {}",
                SPACE_NAMES.get(a).unwrap_or(&"?"),
                if b == 1 { "+1" } else { "-1" }
            ),
            Kind::Ability => write!(f, "clan ability"),
            Kind::Tile => write!(f, "tile {}", TILE_SPACE_NAMES.get(b).unwrap_or(&"?")),
            Kind::Reset => write!(f, "reset recruitment"),
            Kind::EndTurn => write!(f, "end turn"),
            Kind::Resource => write!(f, "{}", RES.get(b).unwrap_or(&"?")),
            Kind::Villager => write!(f, "villager {b}"),
            Kind::Island => write!(f, "island {b}"),
            Kind::Take => write!(f, "take {b}"),
            Kind::Search => write!(f, "search"),
            Kind::SearchTile => write!(f, "search tile {b}"),
            Kind::Shop => write!(f, "shop relic {b}"),
            Kind::Done => write!(f, "done"),
            Kind::RecruitGovernor => write!(f, "recruit governor"),
            Kind::RecruitShadow => write!(f, "recruit shadow"),
            Kind::Shadow => write!(f, "shadow {a}.{b}"),
            Kind::Victim => write!(f, "victim {b}"),
            Kind::Build => write!(
                f,
                "build {}",
                ["techno_farm", "radio_tower"].get(b).unwrap_or(&"?")
            ),
            Kind::Lot => write!(f, "lot {a}.{b}"),
            Kind::Place => write!(f, "place tile {}", TILE_SPACE_NAMES.get(b).unwrap_or(&"?")),
            Kind::Relic => write!(f, "relic {b}"),
            Kind::Pick => write!(f, "pick {a}.{b}"),
            Kind::Own => write!(f, "own {a}.{b}"),
            Kind::Give => write!(f, "give helmet {b}"),
            Kind::Hire => write!(f, "hire {b}"),
            Kind::MainChoice => write!(f, "main {}", SPACE_NAMES.get(b).unwrap_or(&"?")),
            Kind::Altar => write!(f, "altar {b}"),
        }
    }
}
