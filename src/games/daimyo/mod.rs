//! # Daimyo: Rebirth of the Empire (Jérémy Ducret, La Boite de Jeu 2019), 2–4 players
//!
//! **Status: registered and playable; the items under "Not yet implemented" are open.**
//!
//! Rules: `../shared/rules/daimyo.txt`, with the rulings and the component data of
//! `GAPS.md` section DAI. Components are data ([`data`]): the shipped `daimyo.toml` holds
//! the GAPS defaults, and `--variant data=path.toml` loads a user's file of the same shape
//! (e.g. the printed card list). **The Hero list is synthetic** (DAI-15): no printed card
//! list is public.
//!
//! ## Model
//!
//! A fixed-size [`State`] (no heap): the board (Governor and Building spaces per site,
//! Shadow spaces, altars, No man's lands), the relic bag and Black market as counts per
//! tile kind, Hero hands / decks / discards as 64-bit sets (a deck is a set, drawn
//! uniformly and lazily, which has the distribution of a shuffled deck), the dice, the
//! seats, and a small stack of effect frames. Every effect of the game (main actions,
//! Heroes, tiles, Villager faces, clan abilities) is a list of [`data::Effect`] steps
//! resolved by the same code, so the Relic main action and a Hero's "move your Scavenger"
//! are one mechanism.
//!
//! ## Decisions
//!
//! A turn (GAPS.md DAI-29) is: take a die and its space ([`Kind::Die`]); then a menu of
//! the main action ([`Kind::Main`]), Hero play, Hero discards (then a die shift), the clan
//! ability, the Bonus Action tile, the recruitment reset and End turn; each effect then
//! asks its sub-choices one at a time (an island, a site, a tile, a resource). A decision
//! with a single legal option is applied without asking. Decisions outside turns: the
//! setup Governors, the revenue resource, the Helmet gift, hiring.
//!
//! Worst-case branching (4 players): die choice ≤ 13 groups × ≤ 3 spaces = 39 (in
//! practice ≤ 5 values × 3 colours × spaces); the second setup Governor and a recruited
//! or moved Governor ≤ 30 sites; a Building lot ≤ 30; a Black-market purchase ≤ 24 tile
//! kinds; relic picks from any No man's land ≤ 18; the turn menu ≤ hand size + 7 (a hand
//! is 1-4 Heroes in practice). Recruitment and Construction ask the unit or building type
//! first, then the site, so no step lists every (type, site) pair.
//!
//! Decisions per game (uniform random play, the golden games): about 220 at 2 players and
//! 440 at 4 players, setup placements and end-of-round decisions included.
//!
//! ## Search defaults
//!
//! [`crate::Game::AGENT_DEFAULTS`]: `mcts`, `ismcts` and `cfr` default to 100 iterations
//! per decision with playouts cut at the end of the current round (`rounds=1`) and scored
//! by the value estimate, so that the headline command
//! `sim tournament --game daimyo --agents mcts,greedy -n 100000` finishes within an hour on
//! 2 cores. Measured (2 players, seed 0, balanced seats, `--threads 2` on the loaded 2-core
//! machine): 2,000 games took 64 s of CPU, 32 ms per game, so 100,000 games need about 27
//! minutes of two cores; mcts won 1,977 of 2,000 games against greedy (0.9885, 95% CI
//! [0.9828, 0.9923]). At equal iterations the round cut-off plays better than a ply cut-off
//! (mcts `iters=100,rounds=1` against `iters=100,depth=10`: 121 of 200 games, 0.605
//! [0.536, 0.670], seed 0), and doubling the iterations gains little (200 against 100,
//! both `rounds=1`: 107 of 200, 0.535 [0.466, 0.603]), which is why the budget stays at
//! 100. At 4 players a game costs about 180 ms of CPU (8 games timed), so the same
//! command with `--players 4` takes about 2.5 hours on 2 cores.
//!
//! ## Parameters
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `data` | `builtin` | component data file (see [`data`]) |
//! | `clans` | `random` | `random`, or one clan name per seat (DAI-31 `clan_assignment`/`clans`) |
//! | `first_player` | `0` | seat with the Mighty Helmet at setup, or `random` (DAI-31) |
//! | `rank_min_influence` | `1` | influence needed to rank on an island (DAI-05) |
//! | `yellow_spaces` | `2` | End-of-Round tile spaces, 1 or 2 (DAI-10) |
//! | `just_unlocked_tile_usable` | `true` | DAI-10 |
//! | `unplaceable_die` | `set_aside` | DAI-11 |
//! | `bag_empty` | `refill_from_black_market` | DAI-13 |
//! | `blind_duplicate` | `to_black_market` | DAI-13 |
//! | `shadow_victim` | `attacker_chooses` | DAI-14 |
//! | `influence_cap` | `none` | DAI-14 |
//! | `helmet_trigger` | `first_villagers_die` | DAI-18 |
//! | `relic_take_optional` | `true` | DAI-19 |
//! | `allow_empty_main_action` | `true` | DAI-21 |
//! | `governor_move_scope` | `any_island` | DAI-23 |
//! | `army_full_tie` | `split` | DAI-25 |
//! | `nature_same_kind` | `true` | DAI-30 |
//! | `returns` | `win_share` | what search maximises (not a rule) |
//!
//! ## Deviations
//!
//! Every ASSUMPTION of GAPS.md DAI is a parameter above (or a value of the data file:
//! `sites` DAI-02, `shadow_spaces` DAI-03, `round_pp` DAI-05, `building_costs` DAI-08,
//! `start_resources` DAI-09, `bonus_tiles` DAI-10, `villagers` DAI-12, `search_cost` and
//! `black_market_cost` DAI-13, `tax_gain`, `revenue`, `shadow_kill_compensation` DAI-14,
//! `heroes` DAI-15), with the dossier's default. In addition:
//! - Clans are dealt (or fixed by `clans`) instead of chosen by the players (DAI-31).
//! - A restored Relic's token goes on the highest free altar of its island: the owner's
//!   choice in the rulebook (L442), but the highest is never worse for them (DAI-04).
//! - Revenue choices are made one seat after another in Helmet order, not at once.
//! - A Relic that would need a 7th Restored-relic token (6 per clan, L53) is not restored;
//!   its tiles stay loose.
//! - `nml_visible`, `nml_refill`, `partial_effects`, `supply_limited`, `hero_discard_public`,
//!   `relic_discard` and `bonus_before_die` are fixed at their GAPS defaults (`true`,
//!   `immediate`, `true`, `false`, `true`, `make_room_or_effect`, `false`); their
//!   alternatives are not yet implemented.
//!
//! ## Hidden information
//!
//! Hands are hidden (DAI-27); everything else a seat could need is public or lazily drawn
//! chance: the discard piles are face up, the union of a seat's hand and deck is public
//! (its clan's starting Heroes, its hires and the discard that refills its deck), the relic
//! bag and the Hero deck are counts/sets drawn uniformly when needed, dice are rolled when
//! a round starts. Hired Heroes are known to be in hand until they leave it
//! ([`State::known_hand`]). [`State::canonical`] is a seat's view; the observation and the
//! info key are built from it; `determinize` redraws which of another seat's unknown
//! Heroes are in its hand.
//!
//! ## Value and metrics
//!
//! [`crate::Game::value`] is the win share of a softmax (temperature 6 PP) over
//! [`State::projected`] popularity: points so far, the influence standings scored for the
//! rounds left, the final-scoring tables applied to current relics (each loose tile counts
//! as half of 1/pieces of a Relic), buildings, army ranks, Helmet and leftover resources. Seat
//! metrics: PP by source (`pp_influence`, `pp_relics`, `pp_buildings`, `pp_army`,
//! `pp_helmet`, `pp_resources`, `pp_other`), `heroes_played`, `heroes_hired`,
//! `relics_restored`, `assassinations`, and `main_actions` (six digits: Help from
//! Villagers, Production, Relic, Recruitment, Construction, Tax); seat label `clan`.
//!
//! ## Not yet implemented
//!
//! - The headline-command defaults (default player count, mcts budget, rollout cut-off at
//!   the end of the round, no search on forced steps) and a documented greedy heuristic
//!   beyond [`State::projected`]; the experiments of issue 10.
//! - Perfect recall in the info key: it digests the seat's current view and the ply, not
//!   the whole public history.
//! - A resource ledger in the conformance invariants (relic tiles, Heroes, dice, units,
//!   buildings and tokens are checked).
//! - The GAPS alternatives listed as fixed under Deviations (`nml_visible`, `nml_refill`,
//!   `partial_effects = false`, `supply_limited = true`, `hero_discard_public = false`,
//!   `relic_discard = any_time`, `bonus_before_die = true`).
//! - Performance work (the info key hashes a clone of the state; options are regenerated
//!   for the single-option check).

pub mod action;
pub mod data;
mod state;
#[cfg(test)]
mod tests;

pub use action::{Action, Kind};
pub use data::Data;
pub use state::{DaimyoRules, Frame, Observation, Phase, Seat, State, TurnFlags, source};

use crate::game::Utility;
use crate::params::{DataFile, ParamValue, Syntax};

crate::param_enum! {
    /// What happens when no remaining die can be placed (GAPS.md DAI-11).
    pub enum UnplaceableDie {
        /// The player sets one remaining die aside: no main action (bonus actions allowed).
        SetAside = "set_aside",
        /// The player takes no die.
        LeaveInPool = "leave_in_pool",
    }
}

crate::param_enum! {
    /// An empty relic bag (GAPS.md DAI-13).
    pub enum BagEmpty {
        /// Refill with every Black-market tile.
        RefillFromBlackMarket = "refill_from_black_market",
        /// Spaces stay empty.
        LeaveEmpty = "leave_empty",
    }
}

crate::param_enum! {
    /// A blind-drawn tile you may not keep (GAPS.md DAI-13).
    pub enum BlindDuplicate {
        /// It goes to the Black market.
        ToBlackMarket = "to_black_market",
        /// It goes back to the bag.
        BackToBag = "back_to_bag",
    }
}

crate::param_enum! {
    /// Which Governor a Shadow eliminates (GAPS.md DAI-14).
    pub enum ShadowVictim {
        /// The attacker chooses among the enemy Governors on the island.
        AttackerChooses = "attacker_chooses",
        /// Uniformly at random.
        Random = "random",
    }
}

crate::param_enum! {
    /// Who takes the Mighty Helmet by Help from Villagers (GAPS.md DAI-18).
    pub enum HelmetTrigger {
        /// The first player this round to resolve Help from Villagers with a die on it.
        FirstVillagersDie = "first_villagers_die",
        /// Only the round's first blue die, if it went on Help from Villagers.
        FirstBlueDie = "first_blue_die",
    }
}

crate::param_enum! {
    /// Where a moved Governor may go (GAPS.md DAI-23).
    pub enum GovernorMoveScope {
        /// Any free Governor space but its origin.
        AnyIsland = "any_island",
        /// A free Governor space on another island.
        OtherIsland = "other_island",
    }
}

crate::param_enum! {
    /// An army tie that survives every tie-break (GAPS.md DAI-25).
    pub enum ArmyFullTie {
        /// The tied players share the PP of the ranks they occupy, rounded down.
        Split = "split",
        /// Each tied player gets the PP of the best rank they share.
        ShareFull = "share_full",
    }
}

/// `random`, or one clan name per seat (GAPS.md DAI-31): typed `random` or
/// `nature,tech,...`; names are checked against the data file when the rules are built.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Clans(pub Option<Vec<String>>);

impl ParamValue for Clans {
    const SYNTAX: Syntax = Syntax::COMMA.union(Syntax::NONE_WORD);

    fn parse_param(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s == "random" {
            return Ok(Clans(None));
        }
        let names: Vec<String> = s.split(',').map(|x| x.trim().to_string()).collect();
        if names
            .iter()
            .any(|n| n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            return Err(format!("{}; got '{s}'", Self::type_name()));
        }
        Ok(Clans(Some(names)))
    }

    fn format_param(&self) -> String {
        match &self.0 {
            None => "random".into(),
            Some(v) => v.join(","),
        }
    }

    fn type_name() -> String {
        "random, or one clan name per seat separated by ','".into()
    }
}

/// A seat index or `random` (GAPS.md DAI-31 `first_player`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FirstPlayer(pub Option<u8>);

impl ParamValue for FirstPlayer {
    fn parse_param(s: &str) -> Result<Self, String> {
        match s.trim() {
            "random" => Ok(FirstPlayer(None)),
            t => t
                .parse::<u8>()
                .ok()
                .filter(|&v| v < 4)
                .map(|v| FirstPlayer(Some(v)))
                .ok_or_else(Self::type_name),
        }
    }

    fn format_param(&self) -> String {
        self.0.map_or("random".into(), |v| v.to_string())
    }

    fn type_name() -> String {
        "a seat 0..=3, or random".into()
    }
}

/// An influence cap (GAPS.md DAI-14): `none` or a positive integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InfluenceCap(pub Option<u16>);

impl ParamValue for InfluenceCap {
    const SYNTAX: Syntax = Syntax::NONE_WORD;

    fn parse_param(s: &str) -> Result<Self, String> {
        match s.trim() {
            "none" => Ok(InfluenceCap(None)),
            t => t
                .parse::<u16>()
                .ok()
                .filter(|&v| v > 0)
                .map(|v| InfluenceCap(Some(v)))
                .ok_or_else(Self::type_name),
        }
    }

    fn format_param(&self) -> String {
        self.0.map_or("none".into(), |v| v.to_string())
    }

    fn type_name() -> String {
        "none, or an integer 1..=65535".into()
    }
}

crate::param_set! {
    /// Daimyo rule variants: every ASSUMPTION of GAPS.md DAI, with the dossier's default.
    pub struct Params {
        /// Component data: a TOML file of the shape of the built-in daimyo.toml, or builtin (GAPS.md DAI-00..DAI-15; the Hero list is synthetic).
        pub data: DataFile = DataFile::BUILTIN,
        /// Clans by seat: random, or one clan name per seat (GAPS.md DAI-31, ASSUMPTION).
        pub clans: Clans = Clans(None),
        /// Seat that is the first player and takes the Mighty Helmet: 0..=3 or random (GAPS.md DAI-31, ASSUMPTION).
        pub first_player: FirstPlayer = FirstPlayer(Some(0)),
        /// Influence a player needs on an island to rank there (GAPS.md DAI-05, ASSUMPTION).
        pub rank_min_influence: u8 = 1,
        /// End-of-Round spaces for yellow tiles, 1 or 2 (GAPS.md DAI-10, ASSUMPTION).
        pub yellow_spaces: u8 = 2,
        /// A just-unlocked Bonus Action tile may be used in the same turn (GAPS.md DAI-10, ASSUMPTION).
        pub just_unlocked_tile_usable: bool = true,
        /// No placeable die left: set one aside, or take none (GAPS.md DAI-11, ASSUMPTION).
        pub unplaceable_die: UnplaceableDie = UnplaceableDie::SetAside,
        /// Empty relic bag: refill from the Black market, or leave spaces empty (GAPS.md DAI-13, ASSUMPTION).
        pub bag_empty: BagEmpty = BagEmpty::RefillFromBlackMarket,
        /// A blind-drawn tile you may not keep goes to the Black market or back to the bag (GAPS.md DAI-13, ASSUMPTION).
        pub blind_duplicate: BlindDuplicate = BlindDuplicate::ToBlackMarket,
        /// Which enemy Governor a Shadow eliminates (GAPS.md DAI-14, ASSUMPTION).
        pub shadow_victim: ShadowVictim = ShadowVictim::AttackerChooses,
        /// Influence track cap per island: none or an integer (GAPS.md DAI-14, ASSUMPTION).
        pub influence_cap: InfluenceCap = InfluenceCap(None),
        /// Who takes the Helmet by Help from Villagers (GAPS.md DAI-18, ASSUMPTION).
        pub helmet_trigger: HelmetTrigger = HelmetTrigger::FirstVillagersDie,
        /// Taking a tile at a Scavenger stop is optional (GAPS.md DAI-19, ASSUMPTION).
        pub relic_take_optional: bool = true,
        /// A die may go on Recruitment/Construction and the action may do nothing (GAPS.md DAI-21, ASSUMPTION).
        pub allow_empty_main_action: bool = true,
        /// Where a moved Governor may go: any_island or other_island (GAPS.md DAI-23, ASSUMPTION).
        pub governor_move_scope: GovernorMoveScope = GovernorMoveScope::AnyIsland,
        /// An army tie surviving every tie-break: split or share_full (GAPS.md DAI-25, ASSUMPTION).
        pub army_full_tie: ArmyFullTie = ArmyFullTie::Split,
        /// The Nature ability's two resources may be of one kind (GAPS.md DAI-30, ASSUMPTION).
        pub nature_same_kind: bool = true,
        /// What search agents maximise: win_share or rank; not a rule, records are unaffected.
        pub returns: Utility = Utility::WinShare,
    }
}
