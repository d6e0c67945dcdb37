//! Daimyo's component data: the TOML file shipped with the crate (`daimyo.toml`, the
//! docs/rules/daimyo.md defaults) or a user's file (`--variant data=path.toml`), parsed and checked
//! into the immutable [`Data`] held by the rules.
//!
//! # The file
//!
//! Top-level tables (see `daimyo.toml`, which documents every value with its clause or
//! ruling id of docs/rules/daimyo.md):
//! `[[island]]` (name, `sites` resources, `shadow_spaces` Gold values, `altars` influence),
//! `[players.N]` (islands in play and dice per colour at N players), `[relics]`,
//! `[rounds]`, `[recruitment]`, `[storage]`, `[limits]`, `[buildings.techno_farm]`,
//! `[buildings.radio_tower]`, `[[tile]]` (Bonus Action tiles), `[main_actions]`,
//! `[revenue]`, `[final_scoring]`, `[[villager]]`, `[[clan]]`, `[[hero]]`.
//!
//! # Effects
//!
//! Heroes, tiles, villager faces, clan abilities and the main actions are lists of steps
//! `{ op = "...", field = value }` ([`Effect`]):
//!
//! | op | fields (default) | meaning |
//! |---|---|---|
//! | `gain` | `rice`, `metal`, `crystal`, `gold` (0) | gain these resources |
//! | `gain_choice` | `n`, `kinds` (rice/metal/crystal), `distinct` (false) | gain `n` resources, each of a kind the player chooses |
//! | `storage` | `n` | storage capacity +n (+1 PP per step beyond the maximum) |
//! | `draw` | `n` | draw n Heroes from your deck |
//! | `villager` | | activate 1 Villager tile, then flip it |
//! | `helmet` | `first_this_round` (false) | take the Mighty Helmet (only the round's first such die-placed action, if set) |
//! | `move_governor` | `collect` (0), `up_to` (1) | move 1 (up to `up_to`) of your Governors; collect `collect` of the new site's resource |
//! | `relic_scavenger` | | take 1 Relic tile from your Scavenger's No man's land |
//! | `relic_from_bag` | `n` | draw n Relic tiles from the bag |
//! | `relic_choice` | `n` | take n Relic tiles of your choice from any No man's land |
//! | `relic_to_black_market` | `n` | put n of your Relic tiles in the Black market |
//! | `black_market_free` | `n` | take n tiles from the Black market for free |
//! | `scavenger` | `moves`, `search` (`none`/`paid`/`free`), `shop` (false) | move your Scavenger `moves` times, each time to another island, taking up to 1 tile there |
//! | `recruit` | `n` (0 = any number), `discount` (0), `free`, `governor_only` | recruit units |
//! | `reset_recruitment` | | the Recruitment track back to its first space, free |
//! | `construct` | `n` (0 = any number), `discount` (0, Metal or Crystal), `ignore_surcharge` | construct Buildings |
//! | `production` | `governors`, `farms` | collect with your Governors and/or Techno-farms |
//! | `influence` | `n` | +n influence on an island where you have a Governor |
//! | `popularity` | `n` | +n PP |
//! | `move_building` | | move 1 of your Buildings to a free Building space |
//! | `main_action` | | perform one main action of your Clan board |
//! | `hero_free` | | play a Hero from your hand ignoring its strength |
//!
//! # Errors
//!
//! A malformed file is a [`ParamError::Invalid`] naming the parameter (`data`), the file,
//! the entry (`hero 'H12'`, `island 3`) and the field, with what was expected.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::params::ParamError;

/// The built-in data file (docs/rules/daimyo.md defaults).
pub const BUILTIN: &str = include_str!("daimyo.toml");

/// The supply when a data file gives none: 32 Rice, 27 Metal, 27 Crystal, 32 Gold
/// (DAI-00).
pub const DEFAULT_SUPPLY: Amounts = [32, 27, 27, 32];

/// Most islands (DAI-01: 6 peripheral islands).
pub const MAX_ISLANDS: usize = 6;
/// Most production sites per island (5 in the box, DAI-01).
pub const MAX_SITES: usize = 6;
/// Most Shadow spaces per island (3 in the defaults, DAI-03).
pub const MAX_SHADOW_SPACES: usize = 4;
/// Most altars per island (3 in the box, DAI-04).
pub const MAX_ALTARS: usize = 4;
/// Most Relic tile spaces in a No man's land (3 in the box).
pub const MAX_NML: usize = 4;
/// Pieces per Relic (4 in the box: a Relic is pieces 1-4 of one colour).
pub const MAX_PIECES: usize = 4;
/// Relic tile kinds (colour x piece) at most: 24.
pub const MAX_RELIC_KINDS: usize = MAX_ISLANDS * MAX_PIECES;
/// Most Heroes in the box, market and clan together (52 in the box): a `u64` bitset.
pub const MAX_HEROES: usize = 64;
/// Most dice (13 in the box).
pub const MAX_DICE: usize = 16;
/// Most clans (4 in the box).
pub const MAX_CLANS: usize = 8;
/// Most Villager tiles (3 in the box).
pub const MAX_VILLAGERS: usize = 4;
/// Most Buildings of one type per clan (4 in the box).
pub const MAX_BUILDINGS: usize = 4;
/// Most Bonus Action tile kinds.
pub const MAX_TILES: usize = 16;
/// Most steps in one effect.
pub const MAX_STEPS: usize = 6;
/// Most rounds.
pub const MAX_ROUNDS: usize = 10;

/// A resource: index into a player's resources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Resource {
    /// Rice.
    Rice = 0,
    /// Metal.
    Metal = 1,
    /// Crystal ("Pierre" in the French edition).
    Crystal = 2,
    /// Gold coins.
    Gold = 3,
}

impl Resource {
    /// All four, in index order.
    pub const ALL: [Resource; 4] = [
        Resource::Rice,
        Resource::Metal,
        Resource::Crystal,
        Resource::Gold,
    ];

    /// The word used in data files and action names.
    pub fn name(self) -> &'static str {
        ["rice", "metal", "crystal", "gold"][self as usize]
    }

    fn parse(s: &str) -> Option<Resource> {
        Resource::ALL.into_iter().find(|r| r.name() == s)
    }
}

/// Amounts of Rice, Metal, Crystal, Gold (indexed by [`Resource`]).
pub type Amounts = [u8; 4];

/// Which kinds of Search a Scavenger stop allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Search {
    /// No Search.
    None,
    /// Search for the cost of [`Data::search_cost`] (the Relic main action, DAI-4.4).
    Paid,
    /// Search for free (a Hero).
    Free,
}

/// One step of an effect (see the module docs for the data-file form).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Gain these resources.
    Gain(Amounts),
    /// Gain `n` resources, each of a kind the player chooses from the bitmask `kinds`
    /// (bit = [`Resource`] index); `distinct`: all of different kinds.
    GainChoice {
        /// How many.
        n: u8,
        /// Allowed kinds, bitmask by [`Resource`] index.
        kinds: u8,
        /// Whether the kinds must differ.
        distinct: bool,
    },
    /// Storage capacity +n (DAI-07).
    Storage(u8),
    /// Draw n Heroes.
    Draw(u8),
    /// Activate 1 Villager tile, then flip it (DAI-4.2).
    Villager,
    /// Take the Mighty Helmet.
    Helmet {
        /// Only if no one took it this round by a die-placed action (DAI-4.2, DAI-18).
        first_this_round: bool,
    },
    /// Move up to `up_to` Governors, collecting `collect` of each new site's resource.
    MoveGovernor {
        /// Resources collected at the new site.
        collect: u8,
        /// Most Governors moved (the first move is compulsory when possible).
        up_to: u8,
    },
    /// Take 1 Relic tile from your Scavenger's No man's land (Villager face e).
    RelicScavenger,
    /// Draw n Relic tiles from the bag (blind).
    RelicFromBag(u8),
    /// Take n Relic tiles of your choice from any No man's land.
    RelicChoice(u8),
    /// Put n of your loose Relic tiles in the Black market.
    RelicToBlackMarket(u8),
    /// Take n tiles from the Black market for free.
    BlackMarketFree(u8),
    /// Move the Scavenger `moves` times, taking up to 1 tile at each stop.
    Scavenger {
        /// Number of moves.
        moves: u8,
        /// Search at each stop.
        search: Search,
        /// Shop at the Black market at each stop.
        shop: bool,
    },
    /// Recruit units.
    Recruit {
        /// How many (0 = any number, the main action).
        n: u8,
        /// Rice discount per unit.
        discount: u8,
        /// Costs no Rice.
        free: bool,
        /// Governors only.
        governor_only: bool,
    },
    /// Reset the Recruitment track to its first space, free.
    ResetRecruitment,
    /// Construct Buildings.
    Construct {
        /// How many (0 = any number, the main action).
        n: u8,
        /// Metal or Crystal less (the player picks which).
        discount: u8,
        /// No surcharge.
        ignore_surcharge: bool,
    },
    /// Collect with Governors and/or Techno-farms (DAI-4.3).
    Production {
        /// Collect with Governors.
        governors: bool,
        /// Collect with Techno-farms.
        farms: bool,
    },
    /// +n influence on an island where you have a Governor.
    Influence(u8),
    /// +n PP.
    Popularity(u8),
    /// Move 1 of your Buildings to a free Building space.
    MoveBuilding,
    /// Perform one main action of your Clan board.
    MainAction,
    /// Play a Hero ignoring its strength (Noble clan ability, DAI-5.4).
    HeroFree,
}

/// A list of effect steps (at most [`MAX_STEPS`]).
pub type Steps = Vec<Effect>;

/// One island of the data (in file order).
#[derive(Clone, Debug, PartialEq)]
pub struct Island {
    /// Its colour name (also the colour of its Relic tiles).
    pub name: String,
    /// Resource of each production site.
    pub sites: Vec<Resource>,
    /// Gold value of each Shadow space of the Rough neighbourhood.
    pub shadow_spaces: Vec<u8>,
    /// Influence of each altar.
    pub altars: Vec<u8>,
}

/// A Building type's data.
#[derive(Clone, Debug, PartialEq)]
pub struct Building {
    /// Buildings of this type per clan.
    pub count: u8,
    /// Base cost.
    pub cost: Amounts,
    /// The resource paid once per Building of the type already built (DAI-08).
    pub surcharge: Resource,
    /// PP by number built (index = count - 1).
    pub popularity: Vec<u8>,
    /// Influence gained on its island (Radio tower 2, DAI-4.13).
    pub influence: u8,
    /// Bonus Action tile uncovered by the 1st, 2nd, ... building (indices into `tiles`).
    pub tiles: Vec<u8>,
}

/// A Bonus Action tile.
#[derive(Clone, Debug, PartialEq)]
pub struct Tile {
    /// Its id in the file.
    pub id: String,
    /// Yellow tiles go on End-of-Round spaces and act at Revenue (DAI-4.12).
    pub yellow: bool,
    /// What it does.
    pub effect: Steps,
}

/// A clan.
#[derive(Clone, Debug, PartialEq)]
pub struct Clan {
    /// Name (`nature`, ...).
    pub name: String,
    /// Starting resources (clan board + both mini-boards).
    pub start: Amounts,
    /// The clan ability (sum of dice at least 13).
    pub ability: Steps,
    /// The 3 starting Heroes (indices into `heroes`).
    pub heroes: Vec<u8>,
}

/// A Hero card.
#[derive(Clone, Debug, PartialEq)]
pub struct Hero {
    /// Its id.
    pub id: String,
    /// A clan starting Hero (never in the market deck).
    pub clan: bool,
    /// Cost in Gold (hiring, army value).
    pub cost: u8,
    /// Strength: the exact dice sum needed to play it.
    pub strength: u8,
    /// Its effect.
    pub effect: Steps,
}

/// A Villager tile: two faces.
#[derive(Clone, Debug, PartialEq)]
pub struct Villager {
    /// Face 0.
    pub front: Steps,
    /// Face 1.
    pub back: Steps,
    /// Setup: `true` = a random side up, `false` = the front up.
    pub random_side: bool,
}

/// The players-count dependent setup.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    /// Islands in play (indices into `islands`), in board order.
    pub islands: Vec<u8>,
    /// Dice per colour: blue, green, red.
    pub dice: [u8; 3],
}

/// The main actions of the Clan board.
#[derive(Clone, Debug, PartialEq)]
pub struct MainActions {
    /// Help from Villagers (blue).
    pub villagers: Steps,
    /// Production (green).
    pub production: Steps,
    /// Relic (green).
    pub relic: Steps,
    /// Recruitment (red).
    pub recruitment: Steps,
    /// Construction (red).
    pub construction: Steps,
    /// Tax (any colour).
    pub tax: Steps,
}

/// Daimyo's checked component data (the rules data of the `data` parameter).
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// Islands in file order.
    pub islands: Vec<Island>,
    /// Setup by player count, index `players - 2`.
    pub counts: Vec<Count>,
    /// Pieces per Relic.
    pub pieces: u8,
    /// Copies of each tile.
    pub copies: u8,
    /// Tiles per No man's land.
    pub nml: u8,
    /// Tiles face up in the Black market at setup.
    pub black_market_start: u8,
    /// Search cost: `amount` of any one of the kinds in the bitmask.
    pub search_cost: (u8, u8),
    /// Most tiles discarded by one Search.
    pub search_discard: u8,
    /// Black market price.
    pub black_market_cost: Amounts,
    /// PP by Relics restored.
    pub relic_pp: Vec<u8>,
    /// PP (first, second) per round.
    pub round_pp: Vec<(u8, u8)>,
    /// Recruitment track costs in Rice.
    pub recruit_track: Vec<u8>,
    /// Price of the reset.
    pub recruit_reset: Amounts,
    /// Compensation for an eliminated Governor.
    pub kill_compensation: Amounts,
    /// Storage start and maximum.
    pub storage: (u8, u8),
    /// Governors per clan.
    pub governors: u8,
    /// Shadows per clan per game.
    pub shadows: u8,
    /// Restored-relic tokens per clan.
    pub relic_tokens: u8,
    /// Hero market slots.
    pub market: u8,
    /// Heroes drawn at setup.
    pub starting_hand: u8,
    /// The general supply of Rice, Metal, Crystal, Gold (`[limits] supply`; DAI-00,
    /// limited only under `supply_limited`, DAI-14).
    pub supply: Amounts,
    /// Techno-farm (0) and Radio tower (1).
    pub buildings: [Building; 2],
    /// Bonus Action tiles.
    pub tiles: Vec<Tile>,
    /// The main actions.
    pub main: MainActions,
    /// Revenue: kinds of the chosen resource (bitmask) and the fixed gain.
    pub revenue: (u8, Amounts),
    /// Army PP at 2 players, and at 3-4 players.
    pub army_pp: (Vec<u8>, Vec<u8>),
    /// PP for the Mighty Helmet.
    pub helmet_pp: u8,
    /// Leftover resources per PP.
    pub resources_per_point: u8,
    /// Villager tiles.
    pub villagers: Vec<Villager>,
    /// Clans.
    pub clans: Vec<Clan>,
    /// Heroes (market and clan).
    pub heroes: Vec<Hero>,
}

// ---------------------------------------------------------------------------------------
// Raw (file) form.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    island: Vec<RawIsland>,
    players: HashMap<String, RawCount>,
    relics: RawRelics,
    rounds: RawRounds,
    recruitment: RawRecruitment,
    storage: RawStorage,
    limits: RawLimits,
    buildings: RawBuildings,
    tile: Vec<RawTile>,
    main_actions: RawMain,
    revenue: RawRevenue,
    final_scoring: RawFinal,
    villager: Vec<RawVillager>,
    clan: Vec<RawClan>,
    hero: Vec<RawHero>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIsland {
    name: String,
    sites: Vec<String>,
    shadow_spaces: Vec<u8>,
    altars: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCount {
    islands: Vec<String>,
    dice: RawDice,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDice {
    blue: u8,
    green: u8,
    red: u8,
}

type RawAmounts = HashMap<String, u8>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSearchCost {
    any_one_of: Vec<String>,
    amount: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRelics {
    pieces: u8,
    copies: u8,
    no_mans_land: u8,
    black_market_start: u8,
    search_cost: RawSearchCost,
    search_discard: u8,
    black_market_cost: RawAmounts,
    popularity: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRounds {
    count: u8,
    popularity: Vec<[u8; 2]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecruitment {
    track: Vec<u8>,
    reset: RawAmounts,
    shadow_kill_compensation: RawAmounts,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStorage {
    start: u8,
    max: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLimits {
    governors: u8,
    shadows: u8,
    relic_tokens: u8,
    heroes_in_market: u8,
    starting_hand: u8,
    #[serde(default)]
    supply: Option<RawAmounts>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuildings {
    techno_farm: RawBuilding,
    radio_tower: RawBuilding,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuilding {
    count: u8,
    cost: RawAmounts,
    surcharge: String,
    popularity: Vec<u8>,
    #[serde(default)]
    influence: u8,
    tiles: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTile {
    id: String,
    colour: String,
    effect: Vec<RawEffect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMain {
    villagers: Vec<RawEffect>,
    production: Vec<RawEffect>,
    relic: Vec<RawEffect>,
    recruitment: Vec<RawEffect>,
    construction: Vec<RawEffect>,
    tax: Vec<RawEffect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRevenue {
    choice: Vec<String>,
    gain: RawAmounts,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFinal {
    army_2p: Vec<u8>,
    army_3p_4p: Vec<u8>,
    helmet: u8,
    resources_per_point: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVillager {
    front: Vec<RawEffect>,
    back: Vec<RawEffect>,
    setup: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClan {
    name: String,
    start: RawAmounts,
    ability: Vec<RawEffect>,
    heroes: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHero {
    id: String,
    #[serde(default)]
    clan: bool,
    cost: u8,
    strength: u8,
    effect: Vec<RawEffect>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawEffect {
    op: String,
    #[serde(default)]
    rice: u8,
    #[serde(default)]
    metal: u8,
    #[serde(default)]
    crystal: u8,
    #[serde(default)]
    gold: u8,
    #[serde(default)]
    n: Option<u8>,
    #[serde(default)]
    kinds: Option<Vec<String>>,
    #[serde(default)]
    distinct: bool,
    #[serde(default)]
    first_this_round: bool,
    #[serde(default)]
    collect: u8,
    #[serde(default)]
    up_to: Option<u8>,
    #[serde(default)]
    moves: Option<u8>,
    #[serde(default)]
    search: Option<String>,
    #[serde(default)]
    shop: bool,
    #[serde(default)]
    discount: u8,
    #[serde(default)]
    free: bool,
    #[serde(default)]
    governor_only: bool,
    #[serde(default)]
    ignore_surcharge: bool,
    #[serde(default)]
    governors: bool,
    #[serde(default)]
    farms: bool,
}

// ---------------------------------------------------------------------------------------
// Checking.

/// Builds error messages naming the file, the entry and the field.
struct Ctx<'a> {
    file: &'a str,
}

impl Ctx<'_> {
    fn err(&self, entry: &str, field: &str, what: impl std::fmt::Display) -> ParamError {
        ParamError::Invalid {
            owner: "game daimyo".into(),
            reason: format!(
                "parameter 'data': data file '{}': {entry}: field '{field}': {what}",
                self.file
            ),
        }
    }

    fn range(
        &self,
        entry: &str,
        field: &str,
        v: usize,
        lo: usize,
        hi: usize,
    ) -> Result<(), ParamError> {
        if (lo..=hi).contains(&v) {
            Ok(())
        } else {
            Err(self.err(entry, field, format!("{v} is outside {lo}..={hi}")))
        }
    }

    fn resource(&self, entry: &str, field: &str, s: &str) -> Result<Resource, ParamError> {
        Resource::parse(s).ok_or_else(|| {
            self.err(
                entry,
                field,
                format!("unknown resource '{s}'; valid: rice, metal, crystal, gold"),
            )
        })
    }

    fn amounts(&self, entry: &str, field: &str, raw: &RawAmounts) -> Result<Amounts, ParamError> {
        let mut out = [0u8; 4];
        let mut keys: Vec<&String> = raw.keys().collect();
        keys.sort();
        for k in keys {
            let r = self.resource(entry, field, k)?;
            out[r as usize] = raw[k];
        }
        Ok(out)
    }

    fn kinds(
        &self,
        entry: &str,
        field: &str,
        list: &[String],
        allow_gold: bool,
    ) -> Result<u8, ParamError> {
        let mut mask = 0u8;
        for s in list {
            let r = self.resource(entry, field, s)?;
            if r == Resource::Gold && !allow_gold {
                return Err(self.err(
                    entry,
                    field,
                    "gold is not allowed here; valid: rice, metal, crystal",
                ));
            }
            mask |= 1 << r as u8;
        }
        if mask == 0 {
            return Err(self.err(entry, field, "the list is empty"));
        }
        Ok(mask)
    }

    fn effect(&self, entry: &str, field: &str, raw: &[RawEffect]) -> Result<Steps, ParamError> {
        if raw.len() > MAX_STEPS {
            return Err(self.err(
                entry,
                field,
                format!("{} steps, at most {MAX_STEPS}", raw.len()),
            ));
        }
        raw.iter()
            .enumerate()
            .map(|(i, e)| self.step(entry, &format!("{field}[{}]", i + 1), e))
            .collect()
    }

    fn step(&self, entry: &str, field: &str, e: &RawEffect) -> Result<Effect, ParamError> {
        let n = |default: Option<u8>, lo: u8| -> Result<u8, ParamError> {
            let v =
                e.n.or(default)
                    .ok_or_else(|| self.err(entry, field, format!("op '{}' needs 'n'", e.op)))?;
            if v < lo || v > 9 {
                return Err(self.err(
                    entry,
                    &format!("{field}.n"),
                    format!("{v} is outside {lo}..=9"),
                ));
            }
            Ok(v)
        };
        Ok(match e.op.as_str() {
            "gain" => Effect::Gain([e.rice, e.metal, e.crystal, e.gold]),
            "gain_choice" => Effect::GainChoice {
                n: n(None, 1)?,
                kinds: match &e.kinds {
                    Some(k) => self.kinds(entry, &format!("{field}.kinds"), k, false)?,
                    None => 0b111,
                },
                distinct: e.distinct,
            },
            "storage" => Effect::Storage(n(None, 1)?),
            "draw" => Effect::Draw(n(None, 1)?),
            "villager" => Effect::Villager,
            "helmet" => Effect::Helmet {
                first_this_round: e.first_this_round,
            },
            "move_governor" => Effect::MoveGovernor {
                collect: e.collect,
                up_to: e.up_to.unwrap_or(1).clamp(1, 4),
            },
            "relic_scavenger" => Effect::RelicScavenger,
            "relic_from_bag" => Effect::RelicFromBag(n(None, 1)?),
            "relic_choice" => Effect::RelicChoice(n(None, 1)?),
            "relic_to_black_market" => Effect::RelicToBlackMarket(n(None, 1)?),
            "black_market_free" => Effect::BlackMarketFree(n(None, 1)?),
            "scavenger" => Effect::Scavenger {
                moves: match e.moves {
                    Some(m @ 1..=3) => m,
                    Some(m) => {
                        return Err(self.err(
                            entry,
                            &format!("{field}.moves"),
                            format!("{m} is outside 1..=3"),
                        ));
                    }
                    None => return Err(self.err(entry, field, "op 'scavenger' needs 'moves'")),
                },
                search: match e.search.as_deref() {
                    None | Some("none") => Search::None,
                    Some("paid") => Search::Paid,
                    Some("free") => Search::Free,
                    Some(o) => {
                        return Err(self.err(
                            entry,
                            &format!("{field}.search"),
                            format!("'{o}'; valid: none, paid, free"),
                        ));
                    }
                },
                shop: e.shop,
            },
            "recruit" => Effect::Recruit {
                n: n(Some(0), 0)?,
                discount: e.discount,
                free: e.free,
                governor_only: e.governor_only,
            },
            "reset_recruitment" => Effect::ResetRecruitment,
            "construct" => Effect::Construct {
                n: n(Some(0), 0)?,
                discount: e.discount,
                ignore_surcharge: e.ignore_surcharge,
            },
            "production" => {
                if !e.governors && !e.farms {
                    return Err(self.err(
                        entry,
                        field,
                        "op 'production' needs governors = true and/or farms = true",
                    ));
                }
                Effect::Production {
                    governors: e.governors,
                    farms: e.farms,
                }
            }
            "influence" => Effect::Influence(n(None, 1)?),
            "popularity" => Effect::Popularity(n(None, 1)?),
            "move_building" => Effect::MoveBuilding,
            "main_action" => Effect::MainAction,
            "hero_free" => Effect::HeroFree,
            other => {
                return Err(self.err(
                    entry,
                    &format!("{field}.op"),
                    format!(
                        "unknown op '{other}'; valid: gain, gain_choice, storage, draw, villager, helmet, \
                         move_governor, relic_scavenger, relic_from_bag, relic_choice, \
                         relic_to_black_market, black_market_free, scavenger, recruit, \
                         reset_recruitment, construct, production, influence, popularity, \
                         move_building, main_action, hero_free"
                    ),
                ));
            }
        })
    }
}

impl Data {
    /// The built-in data.
    ///
    /// # Panics
    /// If the shipped file is malformed (a bug caught by the tests).
    pub fn builtin() -> Data {
        Data::parse(BUILTIN, "builtin").expect("the built-in daimyo.toml is valid")
    }

    /// Parses and checks a data file's text; `file` names it in errors.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] naming the parameter `data`, the file, the entry and the
    /// field: TOML shape errors (with the parser's line and column), unknown names,
    /// values out of range, lists of the wrong length, dangling references.
    pub fn parse(text: &str, file: &str) -> Result<Data, ParamError> {
        let c = Ctx { file };
        let raw: RawFile = toml::from_str(text).map_err(|e| ParamError::Invalid {
            owner: "game daimyo".into(),
            reason: format!(
                "parameter 'data': data file '{file}': {}",
                e.to_string().trim_end()
            ),
        })?;
        // Islands.
        c.range("island", "count", raw.island.len(), 1, MAX_ISLANDS)?;
        let mut islands = Vec::new();
        for (i, r) in raw.island.iter().enumerate() {
            let entry = format!("island {} '{}'", i + 1, r.name);
            if raw.island[..i].iter().any(|o| o.name == r.name) {
                return Err(c.err(&entry, "name", "duplicate island name"));
            }
            c.range(&entry, "sites", r.sites.len(), 1, MAX_SITES)?;
            c.range(
                &entry,
                "shadow_spaces",
                r.shadow_spaces.len(),
                0,
                MAX_SHADOW_SPACES,
            )?;
            c.range(&entry, "altars", r.altars.len(), 1, MAX_ALTARS)?;
            let mut sites = Vec::new();
            for s in &r.sites {
                let res = c.resource(&entry, "sites", s)?;
                if res == Resource::Gold {
                    return Err(c.err(
                        &entry,
                        "sites",
                        "a production site produces rice, metal or crystal",
                    ));
                }
                sites.push(res);
            }
            if !sites.contains(&Resource::Rice) {
                return Err(c.err(
                    &entry,
                    "sites",
                    "each island needs a rice site (setup places the first Governor on one, L232)",
                ));
            }
            islands.push(Island {
                name: r.name.clone(),
                sites,
                shadow_spaces: r.shadow_spaces.clone(),
                altars: r.altars.clone(),
            });
        }
        let island_index = |entry: &str, field: &str, name: &str| -> Result<u8, ParamError> {
            islands
                .iter()
                .position(|i| i.name == name)
                .map(|i| i as u8)
                .ok_or_else(|| c.err(entry, field, format!("unknown island '{name}'")))
        };
        // Player counts.
        let mut counts = Vec::new();
        for n in 2..=4usize {
            let entry = format!("players.{n}");
            let r = raw
                .players
                .get(&n.to_string())
                .ok_or_else(|| c.err("players", &n.to_string(), "missing"))?;
            let mut isl = Vec::new();
            for name in &r.islands {
                let i = island_index(&entry, "islands", name)?;
                if isl.contains(&i) {
                    return Err(c.err(&entry, "islands", format!("island '{name}' listed twice")));
                }
                isl.push(i);
            }
            if isl.len() < n {
                return Err(c.err(&entry, "islands", format!("{} islands for {n} players; each player's first Governor needs its own island (L232)", isl.len())));
            }
            let sites: usize = isl.iter().map(|&i| islands[i as usize].sites.len()).sum();
            if sites < 2 * n {
                return Err(c.err(
                    &entry,
                    "islands",
                    format!(
                        "{sites} production sites cannot hold the {} setup Governors (L232-L234)",
                        2 * n
                    ),
                ));
            }
            let dice = [r.dice.blue, r.dice.green, r.dice.red];
            let total: usize = dice.iter().map(|&d| d as usize).sum();
            if total < 3 * n || total > MAX_DICE {
                return Err(c.err(
                    &entry,
                    "dice",
                    format!(
                        "{total} dice; need 3 per player ({}) and at most {MAX_DICE}",
                        3 * n
                    ),
                ));
            }
            counts.push(Count { islands: isl, dice });
        }
        if let Some(k) = raw
            .players
            .keys()
            .find(|k| !["2", "3", "4"].contains(&k.as_str()))
        {
            return Err(c.err("players", k, "player counts are 2, 3 and 4"));
        }
        // Relics.
        let rl = &raw.relics;
        c.range("relics", "pieces", rl.pieces as usize, 1, MAX_PIECES)?;
        c.range("relics", "copies", rl.copies as usize, 1, 8)?;
        c.range(
            "relics",
            "no_mans_land",
            rl.no_mans_land as usize,
            1,
            MAX_NML,
        )?;
        c.range(
            "relics",
            "black_market_start",
            rl.black_market_start as usize,
            0,
            8,
        )?;
        c.range(
            "relics",
            "search_discard",
            rl.search_discard as usize,
            1,
            MAX_NML,
        )?;
        c.range("relics", "popularity", rl.popularity.len(), 1, 16)?;
        let search_kinds = c.kinds(
            "relics",
            "search_cost.any_one_of",
            &rl.search_cost.any_one_of,
            true,
        )?;
        // Rounds.
        c.range("rounds", "count", raw.rounds.count as usize, 1, MAX_ROUNDS)?;
        if raw.rounds.popularity.len() != raw.rounds.count as usize {
            return Err(c.err(
                "rounds",
                "popularity",
                format!(
                    "{} entries for {} rounds",
                    raw.rounds.popularity.len(),
                    raw.rounds.count
                ),
            ));
        }
        // Recruitment, storage, limits.
        c.range("recruitment", "track", raw.recruitment.track.len(), 1, 8)?;
        c.range(
            "storage",
            "start",
            raw.storage.start as usize,
            1,
            raw.storage.max as usize,
        )?;
        c.range("storage", "max", raw.storage.max as usize, 1, 60)?;
        let l = &raw.limits;
        c.range("limits", "governors", l.governors as usize, 2, 16)?;
        c.range("limits", "shadows", l.shadows as usize, 0, 8)?;
        c.range("limits", "relic_tokens", l.relic_tokens as usize, 0, 16)?;
        c.range(
            "limits",
            "heroes_in_market",
            l.heroes_in_market as usize,
            1,
            8,
        )?;
        c.range("limits", "starting_hand", l.starting_hand as usize, 0, 8)?;
        // Tiles.
        c.range("tile", "count", raw.tile.len(), 0, MAX_TILES)?;
        let mut tiles = Vec::new();
        for r in &raw.tile {
            let entry = format!("tile '{}'", r.id);
            if tiles.iter().any(|t: &Tile| t.id == r.id) {
                return Err(c.err(&entry, "id", "duplicate tile id"));
            }
            let yellow = match r.colour.as_str() {
                "grey" | "gray" => false,
                "yellow" => true,
                o => return Err(c.err(&entry, "colour", format!("'{o}'; valid: grey, yellow"))),
            };
            tiles.push(Tile {
                id: r.id.clone(),
                yellow,
                effect: c.effect(&entry, "effect", &r.effect)?,
            });
        }
        let building = |key: &str, r: &RawBuilding| -> Result<Building, ParamError> {
            let entry = format!("buildings.{key}");
            c.range(&entry, "count", r.count as usize, 1, MAX_BUILDINGS)?;
            if r.popularity.len() != r.count as usize {
                return Err(c.err(
                    &entry,
                    "popularity",
                    format!("{} values for {} buildings", r.popularity.len(), r.count),
                ));
            }
            if r.tiles.len() != r.count as usize {
                return Err(c.err(
                    &entry,
                    "tiles",
                    format!("{} tiles for {} buildings", r.tiles.len(), r.count),
                ));
            }
            let mut t = Vec::new();
            for id in &r.tiles {
                t.push(
                    tiles
                        .iter()
                        .position(|x| &x.id == id)
                        .ok_or_else(|| c.err(&entry, "tiles", format!("unknown tile '{id}'")))?
                        as u8,
                );
            }
            let surcharge = c.resource(&entry, "surcharge", &r.surcharge)?;
            Ok(Building {
                count: r.count,
                cost: c.amounts(&entry, "cost", &r.cost)?,
                surcharge,
                popularity: r.popularity.clone(),
                influence: r.influence,
                tiles: t,
            })
        };
        let buildings = [
            building("techno_farm", &raw.buildings.techno_farm)?,
            building("radio_tower", &raw.buildings.radio_tower)?,
        ];
        let m = &raw.main_actions;
        let main = MainActions {
            villagers: c.effect("main_actions", "villagers", &m.villagers)?,
            production: c.effect("main_actions", "production", &m.production)?,
            relic: c.effect("main_actions", "relic", &m.relic)?,
            recruitment: c.effect("main_actions", "recruitment", &m.recruitment)?,
            construction: c.effect("main_actions", "construction", &m.construction)?,
            tax: c.effect("main_actions", "tax", &m.tax)?,
        };
        let f = &raw.final_scoring;
        c.range("final_scoring", "army_2p", f.army_2p.len(), 1, 2)?;
        c.range("final_scoring", "army_3p_4p", f.army_3p_4p.len(), 1, 4)?;
        c.range(
            "final_scoring",
            "resources_per_point",
            f.resources_per_point as usize,
            1,
            100,
        )?;
        // Villagers.
        c.range("villager", "count", raw.villager.len(), 1, MAX_VILLAGERS)?;
        let mut villagers = Vec::new();
        for (i, r) in raw.villager.iter().enumerate() {
            let entry = format!("villager {}", i + 1);
            let random_side = match r.setup.as_str() {
                "random" => true,
                "front" => false,
                o => return Err(c.err(&entry, "setup", format!("'{o}'; valid: random, front"))),
            };
            villagers.push(Villager {
                front: c.effect(&entry, "front", &r.front)?,
                back: c.effect(&entry, "back", &r.back)?,
                random_side,
            });
        }
        // Heroes.
        c.range("hero", "count", raw.hero.len(), 1, MAX_HEROES)?;
        let mut heroes: Vec<Hero> = Vec::new();
        for r in &raw.hero {
            let entry = format!("hero '{}'", r.id);
            if heroes.iter().any(|h| h.id == r.id) {
                return Err(c.err(&entry, "id", "duplicate hero id"));
            }
            c.range(&entry, "cost", r.cost as usize, 0, 9)?;
            c.range(&entry, "strength", r.strength as usize, 1, 36)?;
            heroes.push(Hero {
                id: r.id.clone(),
                clan: r.clan,
                cost: r.cost,
                strength: r.strength,
                effect: c.effect(&entry, "effect", &r.effect)?,
            });
        }
        // Clans.
        c.range("clan", "count", raw.clan.len(), 2, MAX_CLANS)?;
        let mut clans: Vec<Clan> = Vec::new();
        for r in &raw.clan {
            let entry = format!("clan '{}'", r.name);
            if clans.iter().any(|x| x.name == r.name) {
                return Err(c.err(&entry, "name", "duplicate clan name"));
            }
            if r.name == "random" || r.name.contains(',') || r.name.is_empty() {
                return Err(c.err(&entry, "name", "a clan name is a word other than 'random'"));
            }
            let mut hs = Vec::new();
            for id in &r.heroes {
                let h = heroes
                    .iter()
                    .position(|h| &h.id == id)
                    .ok_or_else(|| c.err(&entry, "heroes", format!("unknown hero '{id}'")))?;
                if !heroes[h].clan {
                    return Err(c.err(
                        &entry,
                        "heroes",
                        format!("hero '{id}' is a market Hero (add clan = true to it)"),
                    ));
                }
                if clans.iter().any(|o| o.heroes.contains(&(h as u8))) || hs.contains(&(h as u8)) {
                    return Err(c.err(
                        &entry,
                        "heroes",
                        format!("hero '{id}' belongs to two clans or is listed twice"),
                    ));
                }
                hs.push(h as u8);
            }
            clans.push(Clan {
                name: r.name.clone(),
                start: c.amounts(&entry, "start", &r.start)?,
                ability: c.effect(&entry, "ability", &r.ability)?,
                heroes: hs,
            });
        }
        let market = heroes.iter().filter(|h| !h.clan).count();
        if market < l.heroes_in_market as usize {
            return Err(c.err(
                "hero",
                "count",
                format!(
                    "{market} market Heroes, fewer than the {} market slots",
                    l.heroes_in_market
                ),
            ));
        }
        // Relic supply must fill the No man's lands and the Black market at every count.
        for (k, cnt) in counts.iter().enumerate() {
            let tiles = cnt.islands.len() * rl.pieces as usize * rl.copies as usize;
            let need =
                cnt.islands.len() * rl.no_mans_land as usize + rl.black_market_start as usize;
            if tiles < need {
                return Err(c.err(
                    &format!("players.{}", k + 2),
                    "islands",
                    format!("{tiles} Relic tiles cannot fill {need} setup spaces"),
                ));
            }
        }
        Ok(Data {
            islands,
            counts,
            pieces: rl.pieces,
            copies: rl.copies,
            nml: rl.no_mans_land,
            black_market_start: rl.black_market_start,
            search_cost: (rl.search_cost.amount, search_kinds),
            search_discard: rl.search_discard,
            black_market_cost: c.amounts("relics", "black_market_cost", &rl.black_market_cost)?,
            relic_pp: rl.popularity.clone(),
            round_pp: raw.rounds.popularity.iter().map(|p| (p[0], p[1])).collect(),
            recruit_track: raw.recruitment.track.clone(),
            recruit_reset: c.amounts("recruitment", "reset", &raw.recruitment.reset)?,
            kill_compensation: c.amounts(
                "recruitment",
                "shadow_kill_compensation",
                &raw.recruitment.shadow_kill_compensation,
            )?,
            storage: (raw.storage.start, raw.storage.max),
            governors: l.governors,
            shadows: l.shadows,
            relic_tokens: l.relic_tokens,
            market: l.heroes_in_market,
            starting_hand: l.starting_hand,
            supply: match &l.supply {
                Some(a) => c.amounts("limits", "supply", a)?,
                None => DEFAULT_SUPPLY,
            },
            buildings,
            tiles,
            main,
            revenue: (
                c.kinds("revenue", "choice", &raw.revenue.choice, true)?,
                c.amounts("revenue", "gain", &raw.revenue.gain)?,
            ),
            army_pp: (f.army_2p.clone(), f.army_3p_4p.clone()),
            helmet_pp: f.helmet,
            resources_per_point: f.resources_per_point,
            villagers,
            clans,
            heroes,
        })
    }

    /// The setup at `players` seats.
    pub fn count(&self, players: usize) -> &Count {
        &self.counts[players - 2]
    }

    /// Whether a Hero is a market Hero.
    pub fn is_market(&self, hero: usize) -> bool {
        !self.heroes[hero].clan
    }
}
