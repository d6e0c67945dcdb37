//! The Daimyo state and its rules (daimyo.txt; GAPS.md section DAI).

use crate::game::{ChanceMode, Dynamics, GameType, Information, Rules, UtilityKind};
use std::fmt;

#[cfg(debug_assertions)]
thread_local! {
    /// The legal-action buffer of the debug option-cache check in `random_action`.
    static DEBUG_FRESH: std::cell::RefCell<Vec<Action>> = const { std::cell::RefCell::new(Vec::new()) };
}

use serde::{Deserialize, Serialize};

use super::action::{Action, Kind, SPACE_NAMES};
use super::data::{
    Amounts, Data, Effect, MAX_ALTARS, MAX_DICE, MAX_ISLANDS, MAX_NML, MAX_SHADOW_SPACES,
    MAX_SITES, Resource, Search,
};
use super::{
    AltarChoice, ArmyFullTie, BagEmpty, BlindDuplicate, GovernorMoveScope, HelmetTrigger,
    NmlRefill, Params, RelicBeyondTokens, RelicDiscard, ShadowVictim, UnplaceableDie,
};
use crate::game::{
    Chance, Column, Game, JointAction, Labels, MAX_PLAYERS, Metrics, PerPlayer, Player, RulesRef,
    Turn,
};
use crate::params::ParamError;
use crate::rng::{SimRng, mix64};

/// Clan-board main-action spaces (L292, L538): Help from Villagers, Production, Relic,
/// Recruitment, Construction, Tax.
pub const SPACES: usize = 6;
/// The Tax space.
pub const TAX: usize = 5;
/// Bonus-tile spaces: the 5 main actions, the clan ability, 2 End-of-Round spaces (DAI-10).
pub const TILE_SPACES: usize = 8;
/// The tile space of the clan ability.
pub const ABILITY_SPACE: usize = 5;
/// Depth of the effect stack.
pub const STACK: usize = 12;
/// Die colour of each main space: 0 blue, 1 green, 2 red; 3 any (Tax) (L292, L538).
const SPACE_COLOUR: [u8; SPACES] = [0, 1, 1, 2, 2, 3];
/// Empty marker in the board arrays.
const NONE: u8 = u8::MAX;
/// A face-down No man's land tile (`nml_visible = false`, GAPS.md DAI-13): its kind is
/// drawn from the unseen tiles (counted in the bag) when it is revealed.
pub const HIDDEN: u8 = 0xFE;
/// Die location: in the pool.
const POOL: u8 = 0xF0;
/// Die location: set aside this round (DAI-11).
const ASIDE: u8 = 0xF1;
/// Die location: not in play at this player count.
const UNUSED: u8 = 0xF2;

/// Points by source (indices of [`Seat::pp`]).
pub mod source {
    /// Influence scoring at the end of each round.
    pub const INFLUENCE: usize = 0;
    /// Restored Relics (final scoring).
    pub const RELICS: usize = 1;
    /// Buildings (final scoring).
    pub const BUILDINGS: usize = 2;
    /// Army (final scoring).
    pub const ARMY: usize = 3;
    /// The Mighty Helmet (final scoring).
    pub const HELMET: usize = 4;
    /// Leftover resources (final scoring).
    pub const RESOURCES: usize = 5;
    /// Storage increases beyond the maximum, Heroes' PP.
    pub const OTHER: usize = 6;
    /// Number of sources.
    pub const COUNT: usize = 7;
}

/// Rules data: the checked component data and what setup derives from it.
#[derive(Debug)]
pub struct DaimyoRules {
    /// The component data.
    pub data: Data,
    /// Islands in play (indices into `data.islands`).
    pub islands: Vec<u8>,
    /// Dice in play per colour (blue, green, red).
    pub dice: [u8; 3],
    /// Clan per seat when fixed.
    pub clans: Option<Vec<u8>>,
    /// The Heroes of each strength 0..64, as sets (a Hero of strength 64 or more is never
    /// playable by strength).
    pub by_strength: [u64; 64],
    /// The production sites of the islands in play, as a set of `island * MAX_SITES + site`.
    pub site_mask: u64,
    /// The Shadow spaces of the islands in play, as a set of `island * MAX_SHADOW_SPACES +
    /// space`.
    pub shadow_mask: u64,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Setup: Governor placements, `step` 0..2n (L232-L236).
    SetupGovernor {
        /// 0..n first Governors (Rice site, own island, with the Scavenger), n..2n second.
        step: u8,
    },
    /// A player takes a die (L256).
    PickDie,
    /// A player's turn after the die: the menu or an effect's sub-choice.
    Turn,
    /// End of round: revenue, `k`-th seat in Helmet order (L656).
    Revenue {
        /// Position in Helmet order.
        k: u8,
    },
    /// End of round: the Helmet holder gives it or keeps it (L676).
    Helmet,
    /// End of round: hiring, `k`-th seat in Helmet order (L686).
    Hire {
        /// Position in Helmet order.
        k: u8,
    },
    /// The game is over.
    Over,
}

/// One pending step of an effect: the effect, how many times it has been done, a
/// sub-step and two scratch fields (meaning per effect).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Frame {
    /// An effect step in progress.
    Eff {
        /// The step.
        eff: Effect,
        /// Repetitions done.
        done: u8,
        /// Sub-step.
        sub: u8,
        /// Scratch.
        x: u8,
        /// Scratch; for `Helmet`, 1 when the action came from a placed die.
        y: u8,
    },
    /// A played Hero goes to its owner's discard once its effect is resolved (FAQ L829).
    HeroDone(u8),
    /// Place the uncovered Bonus Action tile (L517).
    PlaceTile(u8),
    /// Discard a Hero (sub 0: which card) then shift a die (sub 1) (L566).
    DiscardShift {
        /// 0 choose the card, 1 choose the shift.
        sub: u8,
    },
    /// Make room for the Relic tile of this kind, then add it (L434).
    MakeRoom(u8),
    /// Choose the Governor a Shadow on this island eliminates (L497).
    Victim(u8),
    /// The current seat's revenue is complete (its yellow tiles resolved).
    EndRevenue,
    /// Choose the altar of the Relic of this colour just completed (`altar_choice =
    /// owner_chooses`, L442).
    Altar(u8),
}

/// One seat's clan board and supply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seat {
    /// Clan (index into the data's clans).
    pub clan: u8,
    /// Rice, Metal, Crystal, Gold.
    pub res: [u16; 4],
    /// Storage capacity (DAI-07).
    pub storage: u8,
    /// Loose Relic tiles, a set of tile kinds (colour * pieces + piece).
    pub loose: u32,
    /// Restored Relics per colour (island index).
    pub restored: [u8; MAX_ISLANDS],
    /// Heroes in hand, deck and discard (bit = Hero index).
    pub hand: u64,
    /// The Hero deck (drawn uniformly: the order is chance not yet drawn).
    pub deck: u64,
    /// The discard pile.
    pub discard: u64,
    /// The Scavenger's island, or 255 before setup.
    pub scavenger: u8,
    /// Recruitment track position.
    pub track: u8,
    /// Recruited at the last cost since the last reset (L475).
    pub at_max: bool,
    /// Shadows recruited this game (L501).
    pub shadows: u8,
    /// Governors on the board.
    pub governors: u8,
    /// Techno-farms and Radio towers built.
    pub built: [u8; 2],
    /// Bonus tile on each tile space (tile index + 1; 0 empty).
    pub tiles: [u8; TILE_SPACES],
    /// Die on each main-action space (die index + 1; 0 empty).
    pub board: [u8; SPACES],
    /// Popularity points.
    pub popularity: i16,
    /// Points by source ([`source`]).
    pub pp: [i16; source::COUNT],
    /// Heroes played.
    pub heroes_played: u8,
    /// Heroes hired.
    pub heroes_hired: u8,
    /// Governors eliminated by this seat's Shadows.
    pub assassinations: u8,
    /// Main actions resolved from dice, per space.
    pub mains: [u8; SPACES],
}

/// Flags of the current turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TurnFlags {
    /// Space of this turn's die (255: set aside or none).
    pub space: u8,
    /// The main action is resolved (or there is none).
    pub main_done: bool,
    /// A Hero was played by strength (L558).
    pub hero: bool,
    /// The clan ability was used.
    pub ability: bool,
    /// Tile spaces whose tile was used this turn (bitmask).
    pub tiles_used: u8,
    /// Tile spaces that received a tile this turn (bitmask, DAI-10).
    pub tiles_new: u8,
    /// This turn's die is the round's first blue die (DAI-18 `first_blue_die`).
    pub first_blue: bool,
}

/// A Daimyo position: a fixed-size value with no heap data.
#[derive(Clone, Debug, PartialEq, Hash, Serialize, Deserialize)]
pub struct State {
    rules: RulesRef<State>,
    /// Governor on each site (seat, or 255).
    pub gov: [[u8; MAX_SITES]; MAX_ISLANDS],
    /// Building on each site: 255, or seat * 2 + type (0 Techno-farm, 1 Radio tower).
    pub bld: [[u8; MAX_SITES]; MAX_ISLANDS],
    /// Shadow on each Rough-neighbourhood space (seat, or 255).
    pub shadow: [[u8; MAX_SHADOW_SPACES]; MAX_ISLANDS],
    /// Restored-relic token on each altar (seat, or 255).
    pub altar: [[u8; MAX_ALTARS]; MAX_ISLANDS],
    /// Influence per island and seat.
    pub influence: [[i16; MAX_PLAYERS]; MAX_ISLANDS],
    /// Relic tile in each No man's land slot (kind, or 255).
    pub nml: [[u8; MAX_NML]; MAX_ISLANDS],
    /// Black-market tiles per kind.
    pub black_market: [u8; 24],
    /// Bag tiles per kind.
    pub bag: [u8; 24],
    /// Villager tiles: bit t set = tile t shows its back.
    pub villagers: u8,
    /// Hero market slots (Hero index, or 255).
    pub market: [u8; 8],
    /// The face-up top card of the Hero deck (255: none).
    pub top: u8,
    /// The Hero deck below the top card (a set).
    pub hero_deck: u64,
    /// Die colours (0 blue, 1 green, 2 red).
    pub die_colour: [u8; MAX_DICE],
    /// Die values 1..=6.
    pub die_value: [u8; MAX_DICE],
    /// Die location: seat * 8 + space on a Clan board, or POOL / ASIDE / UNUSED.
    pub die_loc: [u8; MAX_DICE],
    /// Seats.
    pub seats: [Seat; MAX_PLAYERS],
    /// Holder of the Mighty Helmet.
    pub helmet: u8,
    /// Someone took the Helmet this round by Help from Villagers (DAI-18).
    pub helmet_taken: bool,
    /// The round's first blue die was placed (DAI-18 first_blue_die).
    pub blue_placed: bool,
    /// Round 1..=rounds.
    pub round: u8,
    /// The first player of this round (fixed for the round, L308).
    pub first: u8,
    /// Turns taken this round, 0..3n.
    pub turn_index: u8,
    /// The seat acting now.
    pub actor: u8,
    /// Where the game stands.
    pub phase: Phase,
    /// This turn's flags.
    pub flags: TurnFlags,
    /// Pending effect steps (top = last).
    pub stack: [Option<Frame>; STACK],
    /// Stack depth.
    pub sp: u8,
    /// Plies played.
    pub ply: u32,
    /// Heroes every seat knows to be in each seat's hand: hired ones (L690 "Heroes you
    /// hire go directly to your hand", DAI-27), until they leave the hand.
    pub known_hand: [u64; MAX_PLAYERS],
    /// The top card of each discard pile (255: empty), public under
    /// `hero_discard_public = false` (DAI-27).
    pub discard_top: [u8; MAX_PLAYERS],
    /// The general supply of Rice, Metal, Crystal, Gold: the data's totals less what the
    /// players hold (negative when `supply_limited = false` lets gains exceed it, DAI-14).
    /// Every gain and spend goes through it (the resource ledger).
    pub supply: [i32; 4],
    /// No man's land slots waiting for their refill (`nml_refill = after_effect`, DAI-20):
    /// bit `island * MAX_NML + slot`.
    pub pending_refill: u32,
    /// Digest of the public history: every public decision and chance outcome so far
    /// (perfect recall for [`crate::Game::info_key`]).
    pub history: u64,
    /// Digest of each seat's private history (its own Hero draws and hidden discards).
    pub recall: [u64; MAX_PLAYERS],
    /// The options of the current decision, built once by `settle` ([`OptionCache`]).
    #[serde(skip)]
    pub(crate) cache: OptionCache,
}

/// Where the option generators write: the legal-action `Vec` (capacity reused), or a
/// [`Probe`] that only counts (settling single-option steps needs the count and the first
/// option, not the list).
pub(crate) trait Sink {
    /// Whether this sink only counts (a [`Probe`]): generators may then write the options
    /// in any order and stop at [`Sink::enough`].
    const PROBE: bool = false;
    /// Adds an option.
    fn push(&mut self, a: Action);
    /// Options so far.
    fn len(&self) -> usize;
    /// Forgets the options.
    fn clear(&mut self);
    /// Whether the caller has what it needs (a [`Probe`]: two options), so a generator may
    /// stop early.
    #[inline]
    fn enough(&self) -> bool {
        false
    }
}

impl Sink for Vec<Action> {
    #[inline]
    fn push(&mut self, a: Action) {
        Vec::push(self, a);
    }
    #[inline]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
}

/// Counts options and keeps the first (no allocation, no buffer to clear): the settling
/// probe before [`OptionCache`], kept for the tests of the generators' probe paths.
#[cfg(test)]
#[derive(Clone, Copy)]
pub(crate) struct Probe {
    n: usize,
    first: Action,
}

#[cfg(test)]
impl Probe {
    fn new() -> Probe {
        Probe {
            n: 0,
            first: Action(0),
        }
    }
}

#[cfg(test)]
impl Sink for Probe {
    const PROBE: bool = true;
    #[inline]
    fn push(&mut self, a: Action) {
        if self.n == 0 {
            self.first = a;
        }
        self.n += 1;
    }
    #[inline]
    fn len(&self) -> usize {
        self.n
    }
    #[inline]
    fn clear(&mut self) {
        self.n = 0;
    }
    #[inline]
    fn enough(&self) -> bool {
        self.n >= 2
    }
}

/// Most options [`OptionCache`] holds; a longer list (none is known at the default data,
/// see the module docs' worst-case branching) is not cached.
pub(crate) const CACHE_CAP: usize = 64;

/// The options of the decision `State::settle` stopped at, as `legal_actions` lists them
/// (sorted, without repeats), so that a random playout builds each decision's options once:
/// `settle` must count them anyway to apply single-option steps, and
/// [`Game::random_action`] picks from this list instead of building it again. Only states
/// made by `new_game` and `apply` carry a valid cache (`canonical`, `determinize` and
/// deserialisation clear it; code that edits a state's fields directly must not rely on
/// `random_action`). Not part of the position: equality and hashing ignore it.
#[derive(Clone, Copy, Debug)]
pub struct OptionCache {
    /// Options written (may exceed [`CACHE_CAP`]: then only the count is right).
    n: usize,
    /// The list is complete, sorted and deduplicated.
    valid: bool,
    acts: [Action; CACHE_CAP],
}

impl Default for OptionCache {
    fn default() -> Self {
        OptionCache {
            n: 0,
            valid: false,
            acts: [Action(0); CACHE_CAP],
        }
    }
}

impl PartialEq for OptionCache {
    /// Always equal: the cache is derived data, not part of the position.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::hash::Hash for OptionCache {
    /// Hashes nothing: the cache is derived data, not part of the position.
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl OptionCache {
    /// The first option written.
    #[inline]
    fn first(&self) -> Action {
        self.acts[0]
    }

    /// Sorts and deduplicates the list as `legal_actions` does and marks it valid (or
    /// invalid when it overflowed).
    fn seal(&mut self) {
        let n = self.n;
        if n > CACHE_CAP {
            self.valid = false;
            return;
        }
        let list = &mut self.acts[..n];
        if !list.windows(2).all(|w| w[0].0 < w[1].0) {
            list.sort_unstable();
            let mut k = 0;
            for i in 0..n {
                if k == 0 || list[i] != list[k - 1] {
                    list[k] = list[i];
                    k += 1;
                }
            }
            self.n = k;
        }
        self.valid = true;
    }

    /// The cached list, if valid.
    #[inline]
    pub(crate) fn get(&self) -> Option<&[Action]> {
        self.valid.then(|| &self.acts[..self.n])
    }
}

impl Sink for OptionCache {
    #[inline]
    fn push(&mut self, a: Action) {
        // No branch: an overflowing list wraps around (and is then never used).
        self.acts[self.n % CACHE_CAP] = a;
        self.n += 1;
    }
    #[inline]
    fn len(&self) -> usize {
        self.n
    }
    #[inline]
    fn clear(&mut self) {
        self.n = 0;
        self.valid = false;
    }
}

/// The empty cells of a board array, as a set of `row * W + column`.
#[inline]
fn free_mask<const W: usize>(cells: &[[u8; W]; MAX_ISLANDS]) -> u64 {
    byte_eq_mask(cells.as_flattened(), NONE)
}

/// Bit `i` set iff `bytes[i] == b` (at most 64 bytes). SWAR, 8 bytes at a time: the zero
/// bytes of `word ^ b`, their flags gathered into 8 bits by one multiplication. Always
/// inlined: the callers' lengths are constants, so the chunk loop unrolls.
#[inline(always)]
fn byte_eq_mask(bytes: &[u8], b: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    debug_assert!(bytes.len() <= 64);
    let pat = u64::from(b).wrapping_mul(0x0101_0101_0101_0101);
    let mut m = 0u64;
    for (k, chunk) in bytes.chunks(8).enumerate() {
        // Padding of a short last chunk: never equal to `b`.
        let mut word = [!b; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let t = u64::from_le_bytes(word) ^ pat;
        let eq = !(((t & LOW7) + LOW7) | t) & HIGH;
        m |= ((eq >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    m
}

/// Appends `x` to a history digest (order-sensitive).
#[inline]
fn record(h: u64, x: u64) -> u64 {
    mix64(h.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ x)
}

fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

impl State {
    fn n(&self) -> usize {
        self.rules.players()
    }

    fn rd(&self) -> &'static DaimyoRules {
        self.rules.get().data()
    }

    fn data(&self) -> &'static Data {
        &self.rd().data
    }

    fn params(&self) -> &'static Params {
        self.rules.get().params()
    }

    /// Number of tile kinds per colour.
    fn pieces(&self) -> usize {
        self.data().pieces as usize
    }

    /// Islands in play.
    pub fn islands(&self) -> &'static [u8] {
        &self.rd().islands
    }

    /// Storage used: loose tiles + restored Relics (L446).
    pub fn storage_used(&self, p: usize) -> u32 {
        let s = &self.seats[p];
        s.loose.count_ones() + s.restored.iter().map(|&r| r as u32).sum::<u32>()
    }

    /// Sum of the dice on seat `p`'s board (L574).
    pub fn dice_sum(&self, p: usize) -> u32 {
        self.seats[p]
            .board
            .iter()
            .filter(|&&d| d > 0)
            .map(|&d| self.die_value[d as usize - 1] as u32)
            .sum()
    }

    /// Bitmask of the sums of non-empty subsets of seat `p`'s dice (L556).
    fn subset_sums(&self, p: usize) -> u64 {
        let mut sums: u64 = 1; // the empty subset, sum 0
        for &d in &self.seats[p].board {
            if d > 0 {
                sums |= sums << self.die_value[d as usize - 1];
            }
        }
        // Drop the empty subset only: a die of any value makes a non-empty subset.
        sums & !1
    }

    fn push(&mut self, f: Frame) {
        let sp = self.sp as usize;
        assert!(sp < STACK, "effect stack overflow");
        self.stack[sp] = Some(f);
        self.sp += 1;
    }

    fn push_steps(&mut self, steps: &[Effect], from_die: bool) {
        for &eff in steps.iter().rev() {
            self.push(Frame::Eff {
                eff,
                done: 0,
                sub: 0,
                x: 0,
                y: from_die as u8,
            });
        }
    }

    /// The pending effect step on top of the stack, if any.
    pub fn top(&self) -> Option<Frame> {
        if self.sp == 0 {
            None
        } else {
            self.stack[self.sp as usize - 1]
        }
    }

    fn set_top(&mut self, f: Frame) {
        self.stack[self.sp as usize - 1] = Some(f);
    }

    fn pop(&mut self) {
        self.sp -= 1;
        self.stack[self.sp as usize] = None;
    }

    /// Seat `p` takes `v` of resource `r` from the general supply; under `supply_limited`
    /// a gain beyond what the supply holds is lost (DAI-14).
    #[inline]
    fn gain_res(&mut self, p: usize, r: usize, v: u16) {
        let v = if self.params().supply_limited {
            v.min(self.supply[r].max(0) as u16)
        } else {
            v
        };
        self.seats[p].res[r] += v;
        self.supply[r] -= v as i32;
    }

    /// Seat `p` pays `v` of resource `r` back to the general supply.
    #[inline]
    fn spend_res(&mut self, p: usize, r: usize, v: u16) {
        self.seats[p].res[r] -= v;
        self.supply[r] += v as i32;
    }

    fn gain(&mut self, p: usize, a: &Amounts) {
        for (r, &v) in a.iter().enumerate() {
            if v > 0 {
                self.gain_res(p, r, v as u16);
            }
        }
    }

    /// A public chance outcome in `0..n`, appended to the public history.
    #[inline]
    fn public_below<C: Chance + ?Sized>(&mut self, chance: &mut C, n: u32) -> u32 {
        let k = chance.below(n);
        self.history = record(self.history, 0x1_0000_0000 | k as u64);
        k
    }

    fn can_pay(&self, p: usize, a: &Amounts) -> bool {
        a.iter()
            .enumerate()
            .all(|(r, &v)| self.seats[p].res[r] >= v as u16)
    }

    fn pay(&mut self, p: usize, a: &Amounts) {
        for (r, &v) in a.iter().enumerate() {
            if v > 0 {
                self.spend_res(p, r, v as u16);
            }
        }
    }

    fn add_influence(&mut self, island: usize, p: usize, d: i16) {
        let cap = self
            .params()
            .influence_cap
            .0
            .map_or(i16::MAX, |c| c.min(i16::MAX as u16) as i16);
        let v = &mut self.influence[island][p];
        *v = (*v + d).clamp(0, cap);
    }

    fn add_pp(&mut self, p: usize, src: usize, v: i16) {
        self.seats[p].popularity += v;
        self.seats[p].pp[src] += v;
    }

    /// Storage +1 `n` times; beyond the maximum each step is +1 PP (L302, DAI-07).
    fn storage_up(&mut self, p: usize, n: u8) {
        let max = self.data().storage.1;
        for _ in 0..n {
            if self.seats[p].storage < max {
                self.seats[p].storage += 1;
            } else {
                self.add_pp(p, source::OTHER, 1);
            }
        }
    }

    /// Draws one Hero into `p`'s hand; an empty deck is refilled from the discard
    /// (L304); with both empty nothing is drawn (FAQ L829).
    fn draw_hero<C: Chance + ?Sized>(&mut self, p: usize, chance: &mut C) {
        let s = &mut self.seats[p];
        if s.deck == 0 {
            s.deck = s.discard;
            s.discard = 0;
            self.discard_top[p] = NONE;
        }
        if s.deck == 0 {
            return;
        }
        let k = chance.below(s.deck.count_ones());
        let c = bits(s.deck).nth(k as usize).expect("k < popcount");
        s.deck &= !(1u64 << c);
        s.hand |= 1u64 << c;
        // Only the drawer sees the card: its private history.
        self.recall[p] = record(self.recall[p], c as u64);
    }

    /// Puts Hero `c` on top of `p`'s discard pile.
    fn put_on_discard(&mut self, p: usize, c: usize) {
        self.seats[p].discard |= 1u64 << c;
        self.discard_top[p] = c as u8;
    }

    /// Draws a tile kind from the bag, refilling it from the Black market when empty
    /// (DAI-13 `bag_empty`); `None` when nothing is left.
    fn draw_tile<C: Chance + ?Sized>(&mut self, chance: &mut C) -> Option<u8> {
        if !self.bag_ready() {
            return None;
        }
        Some(self.draw_kind(chance))
    }

    /// Face-down No man's land tiles (`nml_visible = false`): they are counted in `bag`.
    fn hidden_tiles(&self) -> u32 {
        if self.params().nml_visible {
            return 0;
        }
        self.nml.iter().flatten().filter(|&&k| k == HIDDEN).count() as u32
    }

    /// Whether a tile can be taken from the bag, refilling it from the Black market when
    /// empty (DAI-13 `bag_empty`).
    fn bag_ready(&mut self) -> bool {
        let total: u32 = self.bag.iter().map(|&c| c as u32).sum();
        let hidden = self.hidden_tiles();
        if total == hidden && self.params().bag_empty == BagEmpty::RefillFromBlackMarket {
            for k in 0..24 {
                self.bag[k] += self.black_market[k];
                self.black_market[k] = 0;
            }
            return self.bag.iter().map(|&c| c as u32).sum::<u32>() > hidden;
        }
        total > hidden
    }

    /// Draws the kind of an unseen tile (uniform over the bag and, under `nml_visible =
    /// false`, the face-down No man's land tiles, which are exchangeable).
    fn draw_kind<C: Chance + ?Sized>(&mut self, chance: &mut C) -> u8 {
        let total: u32 = self.bag.iter().map(|&c| c as u32).sum();
        let mut r = self.public_below(chance, total);
        for k in 0..24 {
            if r < self.bag[k] as u32 {
                self.bag[k] -= 1;
                return k as u8;
            }
            r -= self.bag[k] as u32;
        }
        unreachable!("bag count mismatch")
    }

    /// Refills No man's land slot `slot` of `island` from the bag (L362, DAI-20): face up,
    /// or face down under `nml_visible = false` (DAI-13).
    fn refill<C: Chance + ?Sized>(&mut self, island: usize, slot: usize, chance: &mut C) {
        self.nml[island][slot] = if self.params().nml_visible {
            self.draw_tile(chance).unwrap_or(NONE)
        } else if self.bag_ready() {
            HIDDEN
        } else {
            NONE
        };
    }

    /// Whether seat `p` can take the No man's land tile `k` (a kind, or [`HIDDEN`]).
    fn can_take_slot(&self, p: usize, k: u8) -> bool {
        match k {
            NONE => false,
            // A face-down tile is taken blind (L837 applies: drawn first, room made after).
            HIDDEN => {
                self.storage_used(p) < self.seats[p].storage as u32 || self.seats[p].loose != 0
            }
            k => self.can_take(p, k),
        }
    }

    /// Whether seat `p` may hold a tile of `kind` (L366: no second copy of a loose tile).
    fn may_hold(&self, p: usize, kind: u8) -> bool {
        self.seats[p].loose & (1 << kind) == 0
    }

    /// Whether seat `p` can take a tile of `kind` now: no duplicate, and room in
    /// storage or a loose tile to send to the Black market (L432-L436).
    fn can_take(&self, p: usize, kind: u8) -> bool {
        self.may_hold(p, kind) && self.has_room(p)
    }

    /// Room in storage or a loose tile to send to the Black market (L432-L436).
    fn has_room(&self, p: usize) -> bool {
        self.storage_used(p) < self.seats[p].storage as u32 || self.seats[p].loose != 0
    }

    /// The Black-market kinds seat `p` can take now (bit `k`: [`State::can_take`] of a
    /// kind in the Black market).
    fn black_market_takeable(&self, p: usize) -> u64 {
        if !self.has_room(p) {
            return 0;
        }
        let stocked = !byte_eq_mask(&self.black_market, 0) & 0xff_ffff;
        stocked & !u64::from(self.seats[p].loose)
    }

    /// `p` receives a tile of `kind` (already out of its source): into storage, asking
    /// for a make-room discard when full (L434).
    fn receive_tile(&mut self, p: usize, kind: u8) {
        if !self.may_hold(p, kind) {
            // A blind duplicate (DAI-13 blind_duplicate).
            match self.params().blind_duplicate {
                BlindDuplicate::ToBlackMarket => self.black_market[kind as usize] += 1,
                BlindDuplicate::BackToBag => self.bag[kind as usize] += 1,
            }
            return;
        }
        if self.storage_used(p) < self.seats[p].storage as u32 {
            self.add_tile(p, kind);
        } else if self.seats[p].loose != 0 {
            self.push(Frame::MakeRoom(kind));
        } else {
            // Storage full of restored Relics: the tile cannot be kept (DAI-28).
            self.black_market[kind as usize] += 1;
        }
    }

    /// Adds a tile to loose storage and restores the Relic if complete (L438-L446).
    fn add_tile(&mut self, p: usize, kind: u8) {
        self.seats[p].loose |= 1 << kind;
        let pieces = self.pieces();
        let colour = kind as usize / pieces;
        let mask: u32 = ((1u32 << pieces) - 1) << (colour * pieces);
        if self.seats[p].loose & mask != mask {
            return;
        }
        let tokens_used = self.tokens_used(p);
        let altars = &self.data().islands[colour].altars;
        let free = (0..altars.len()).filter(|&a| self.altar[colour][a] == NONE);
        if tokens_used >= self.data().relic_tokens as u32 {
            // No Restored-relic token left (L53 "6 per Clan").
            if self.params().relic_beyond_tokens == RelicBeyondTokens::RestoreWithoutToken {
                self.seats[p].loose &= !mask;
                self.seats[p].restored[colour] += 1;
            }
            return;
        }
        if self.params().altar_choice == AltarChoice::OwnerChooses && free.clone().count() > 1 {
            // L442 "an available altar": the owner chooses (Frame::Altar).
            self.push(Frame::Altar(colour as u8));
            return;
        }
        // Highest free altar (DAI-04).
        if let Some(a) = free.max_by_key(|&a| (altars[a], std::cmp::Reverse(a))) {
            self.restore(p, colour, a);
        }
    }

    /// Restored-relic tokens seat `p` has placed on altars.
    pub fn tokens_used(&self, p: usize) -> u32 {
        self.altar
            .iter()
            .flatten()
            .filter(|&&a| a as usize == p)
            .count() as u32
    }

    /// Restores seat `p`'s Relic of `colour` with its token on `altar` (L440-L446).
    fn restore(&mut self, p: usize, colour: usize, altar: usize) {
        let pieces = self.pieces();
        let mask: u32 = ((1u32 << pieces) - 1) << (colour * pieces);
        self.seats[p].loose &= !mask;
        self.seats[p].restored[colour] += 1;
        self.altar[colour][altar] = p as u8;
        let v = self.data().islands[colour].altars[altar];
        self.add_influence(colour, p, v as i16);
    }

    /// Free Governor spaces of the islands in play, as a set of `island * MAX_SITES + site`.
    #[inline]
    fn free_gov_mask(&self) -> u64 {
        free_mask(&self.gov) & self.rd().site_mask
    }

    /// Free Building spaces, as a set of `island * MAX_SITES + site`.
    #[inline]
    fn free_lot_mask(&self) -> u64 {
        free_mask(&self.bld) & self.rd().site_mask
    }

    /// Free Shadow spaces, as a set of `island * MAX_SHADOW_SPACES + space`.
    #[inline]
    fn free_shadow_mask(&self) -> u64 {
        free_mask(&self.shadow) & self.rd().shadow_mask
    }

    fn free_gov_sites(&self) -> impl Iterator<Item = (usize, usize)> + use<> {
        bits(self.free_gov_mask()).map(|b| (b / MAX_SITES, b % MAX_SITES))
    }

    fn free_lots(&self) -> impl Iterator<Item = (usize, usize)> + use<> {
        bits(self.free_lot_mask()).map(|b| (b / MAX_SITES, b % MAX_SITES))
    }

    fn free_shadow_spaces(&self) -> impl Iterator<Item = (usize, usize)> + use<> {
        bits(self.free_shadow_mask()).map(|b| (b / MAX_SHADOW_SPACES, b % MAX_SHADOW_SPACES))
    }

    /// Rice cost of `p`'s next recruit (L464).
    fn recruit_cost(&self, p: usize, discount: u8, free: bool) -> u16 {
        if free {
            0
        } else {
            self.data().recruit_track[self.seats[p].track as usize].saturating_sub(discount) as u16
        }
    }

    fn can_recruit_governor(&self, p: usize, discount: u8, free: bool) -> bool {
        self.seats[p].governors < self.data().governors
            && self.seats[p].res[0] >= self.recruit_cost(p, discount, free)
            && self.free_gov_mask() != 0
    }

    fn can_recruit_shadow(&self, p: usize, discount: u8, free: bool) -> bool {
        self.seats[p].shadows < self.data().shadows
            && self.seats[p].res[0] >= self.recruit_cost(p, discount, free)
            && self.free_shadow_mask() != 0
    }

    /// Cost of `p`'s next Building of type `t` (L515, DAI-08), with `discount` taken
    /// from resource `disc` (Metal or Crystal).
    pub fn build_cost(
        &self,
        p: usize,
        t: usize,
        ignore_surcharge: bool,
        discount: u8,
        disc: Option<Resource>,
    ) -> Amounts {
        let b = &self.data().buildings[t];
        let mut c = b.cost;
        if !ignore_surcharge {
            c[b.surcharge as usize] += self.seats[p].built[t];
        }
        if let Some(r) = disc {
            c[r as usize] = c[r as usize].saturating_sub(discount);
        }
        c
    }

    fn can_build(&self, p: usize, t: usize, ignore: bool, discount: u8) -> bool {
        if self.seats[p].built[t] >= self.data().buildings[t].count || self.free_lot_mask() == 0 {
            return false;
        }
        if discount == 0 {
            return self.can_pay(p, &self.build_cost(p, t, ignore, 0, None));
        }
        [Resource::Metal, Resource::Crystal]
            .into_iter()
            .any(|r| self.can_pay(p, &self.build_cost(p, t, ignore, discount, Some(r))))
    }

    /// Places seat `p`'s Governor (+2 influence, L483).
    fn place_governor(&mut self, p: usize, island: usize, site: usize) {
        self.gov[island][site] = p as u8;
        self.seats[p].governors += 1;
        self.add_influence(island, p, 2);
    }

    /// Recruitment track after a recruit (L466, L471, L475).
    fn advance_track(&mut self, p: usize) {
        let last = self.data().recruit_track.len() as u8 - 1;
        let s = &mut self.seats[p];
        if s.track >= last {
            s.at_max = true;
        } else {
            s.track += 1;
        }
    }

    fn can_reset(&self, p: usize) -> bool {
        self.seats[p].at_max && self.can_pay(p, &self.data().recruit_reset)
    }

    fn reset_track(&mut self, p: usize) {
        self.seats[p].track = 0;
        self.seats[p].at_max = false;
    }

    /// Eliminates the Governor on `island`/`site` (L497).
    fn kill(&mut self, attacker: usize, island: usize, site: usize) {
        let victim = self.gov[island][site] as usize;
        self.gov[island][site] = NONE;
        self.seats[victim].governors -= 1;
        self.add_influence(island, victim, -2);
        let comp = self.data().kill_compensation;
        self.gain(victim, &comp);
        self.seats[attacker].assassinations += 1;
    }

    fn enemy_governors(&self, p: usize, island: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.data().islands[island].sites.len())
            .filter(move |&s| self.gov[island][s] != NONE && self.gov[island][s] as usize != p)
    }

    /// The Hero effect of `card` is played by `p` (L556, FAQ L829).
    fn play_hero(&mut self, p: usize, card: usize) {
        self.seats[p].hand &= !(1u64 << card);
        self.known_hand[p] &= !(1u64 << card);
        self.seats[p].heroes_played += 1;
        self.push(Frame::HeroDone(card as u8));
        let steps = &self.data().heroes[card].effect;
        self.push_steps(steps, false);
    }

    fn main_steps(&self, space: usize) -> &'static [Effect] {
        let m = &self.data().main;
        match space {
            0 => &m.villagers,
            1 => &m.production,
            2 => &m.relic,
            3 => &m.recruitment,
            4 => &m.construction,
            _ => &m.tax,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Setup.

impl State {
    fn setup<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> State {
        let n = rules.players();
        let mut s = State {
            rules,
            gov: [[NONE; MAX_SITES]; MAX_ISLANDS],
            bld: [[NONE; MAX_SITES]; MAX_ISLANDS],
            shadow: [[NONE; MAX_SHADOW_SPACES]; MAX_ISLANDS],
            altar: [[NONE; MAX_ALTARS]; MAX_ISLANDS],
            influence: [[0; MAX_PLAYERS]; MAX_ISLANDS],
            nml: [[NONE; MAX_NML]; MAX_ISLANDS],
            black_market: [0; 24],
            bag: [0; 24],
            villagers: 0,
            market: [NONE; 8],
            top: NONE,
            hero_deck: 0,
            die_colour: [0; MAX_DICE],
            die_value: [1; MAX_DICE],
            die_loc: [UNUSED; MAX_DICE],
            seats: [Seat {
                clan: 0,
                res: [0; 4],
                storage: 0,
                loose: 0,
                restored: [0; MAX_ISLANDS],
                hand: 0,
                deck: 0,
                discard: 0,
                scavenger: NONE,
                track: 0,
                at_max: false,
                shadows: 0,
                governors: 0,
                built: [0; 2],
                tiles: [0; TILE_SPACES],
                board: [0; SPACES],
                popularity: 0,
                pp: [0; source::COUNT],
                heroes_played: 0,
                heroes_hired: 0,
                assassinations: 0,
                mains: [0; SPACES],
            }; MAX_PLAYERS],
            helmet: 0,
            helmet_taken: false,
            blue_placed: false,
            round: 1,
            first: 0,
            turn_index: 0,
            actor: 0,
            phase: Phase::SetupGovernor { step: 0 },
            flags: TurnFlags::default(),
            stack: [None; STACK],
            sp: 0,
            ply: 0,
            known_hand: [0; MAX_PLAYERS],
            discard_top: [NONE; MAX_PLAYERS],
            supply: [0; 4],
            pending_refill: 0,
            history: 0,
            recall: [0; MAX_PLAYERS],
            cache: OptionCache::default(),
        };
        for r in 0..4 {
            s.supply[r] = rules.data().data.supply[r] as i32;
        }
        let rd = s.rd();
        let d = &rd.data;
        let pieces = d.pieces as usize;
        // Relic tiles of the islands in play (L92-L96), 3 per No man's land (L98),
        // 3 face up in the Black market (L100).
        for &i in &rd.islands {
            for piece in 0..pieces {
                s.bag[i as usize * pieces + piece] = d.copies;
            }
        }
        for &i in &rd.islands {
            for slot in 0..d.nml as usize {
                s.refill(i as usize, slot, chance);
            }
        }
        for _ in 0..d.black_market_start {
            if let Some(k) = s.draw_tile(chance) {
                s.black_market[k as usize] += 1;
            }
        }
        // Hero deck, market of 5 and the face-up top card (L73).
        for h in 0..d.heroes.len() {
            if d.is_market(h) {
                s.hero_deck |= 1u64 << h;
            }
        }
        for slot in 0..d.market as usize {
            s.market[slot] = s.draw_market(chance);
        }
        s.top = s.draw_market(chance);
        // Villager tiles (L79): a random side, or the front (the "Draw 2" face down).
        for (t, v) in d.villagers.iter().enumerate() {
            if v.random_side && s.public_below(chance, 2) == 1 {
                s.villagers |= 1 << t;
            }
        }
        // Dice (L83-L87, DAI-11).
        let mut k = 0;
        for (colour, &count) in rd.dice.iter().enumerate() {
            for _ in 0..count {
                s.die_colour[k] = colour as u8;
                s.die_loc[k] = POOL;
                k += 1;
            }
        }
        // Clans (DAI-31): fixed, or dealt at random.
        let mut clans = [0u8; MAX_PLAYERS];
        match &rd.clans {
            Some(list) => clans[..n].copy_from_slice(&list[..n]),
            None => {
                // Dealt without replacement from the clans of the data (no allocation).
                let mut left: u32 = (1u32 << d.clans.len()) - 1;
                for c in clans.iter_mut().take(n) {
                    let i = s.public_below(chance, left.count_ones());
                    let k = bits(left as u64).nth(i as usize).expect("i < popcount");
                    left &= !(1 << k);
                    *c = k as u8;
                }
            }
        }
        for (p, &clan) in clans.iter().enumerate().take(n) {
            let c = &d.clans[clan as usize];
            let seat = &mut s.seats[p];
            seat.clan = clan;
            for r in 0..4 {
                seat.res[r] = c.start[r] as u16;
            }
            seat.storage = d.storage.0;
            for &h in &c.heroes {
                seat.deck |= 1u64 << h;
            }
        }
        // The starting resources come from the general supply (the ledger).
        for p in 0..n {
            for r in 0..4 {
                s.supply[r] -= s.seats[p].res[r] as i32;
            }
        }
        for p in 0..n {
            for _ in 0..d.starting_hand {
                s.draw_hero(p, chance);
            }
        }
        // First player and the Mighty Helmet (L230, DAI-31).
        s.first = match s.params().first_player.0 {
            Some(f) => f,
            None => s.public_below(chance, n as u32) as u8,
        };
        s.helmet = s.first;
        s.actor = s.first;
        s.settle(chance);
        s
    }

    fn draw_market<C: Chance + ?Sized>(&mut self, chance: &mut C) -> u8 {
        if self.hero_deck == 0 {
            return NONE;
        }
        let k = self.public_below(chance, self.hero_deck.count_ones());
        let c = bits(self.hero_deck).nth(k as usize).expect("k < popcount");
        self.hero_deck &= !(1u64 << c);
        c as u8
    }

    /// Starts round `self.round`: dice back to the pool and rolled (L248), the Helmet
    /// holder first (L254).
    fn start_round<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        for p in 0..MAX_PLAYERS {
            self.seats[p].board = [0; SPACES];
        }
        for d in 0..MAX_DICE {
            if self.die_loc[d] != UNUSED {
                self.die_loc[d] = POOL;
                self.die_value[d] = 1 + self.public_below(chance, 6) as u8;
            }
        }
        self.first = self.helmet;
        self.turn_index = 0;
        self.actor = self.first;
        self.helmet_taken = false;
        self.blue_placed = false;
        self.phase = Phase::PickDie;
    }
}

// ---------------------------------------------------------------------------------------
// Options.

impl State {
    /// Writes the current actor's options into `out` (unsorted).
    fn options(&self, out: &mut impl Sink) {
        out.clear();
        let p = self.actor as usize;
        let d = self.data();
        match self.phase {
            Phase::Over => {}
            Phase::SetupGovernor { step } => {
                let n = self.n() as u8;
                if step < n {
                    // A Rice site of an island no other player chose (L232).
                    for &i in self.islands() {
                        let i = i as usize;
                        if (0..self.n()).any(|q| self.seats[q].scavenger as usize == i) {
                            continue;
                        }
                        for (site, &r) in d.islands[i].sites.iter().enumerate() {
                            if r == Resource::Rice && self.gov[i][site] == NONE {
                                out.push(Action::new(Kind::Site, i as u8, site as u8));
                            }
                        }
                    }
                } else {
                    for (i, site) in self.free_gov_sites() {
                        out.push(Action::new(Kind::Site, i as u8, site as u8));
                    }
                }
            }
            Phase::PickDie => match self.top() {
                None => {
                    self.die_options(p, out);
                    if self.params().bonus_before_die {
                        // DAI-29 alternative: bonus actions before the die, with the dice
                        // already on the board.
                        self.bonus_options(p, true, out);
                    }
                }
                Some(f) => self.frame_options(p, f, out),
            },
            Phase::Turn => match self.top() {
                None => self.menu_options(p, out),
                Some(f) => self.frame_options(p, f, out),
            },
            Phase::Revenue { .. } => match self.top() {
                None => {
                    for r in 0..3u8 {
                        if d.revenue.0 & (1 << r) != 0 {
                            out.push(Action::new(Kind::Resource, 0, r));
                        }
                    }
                }
                Some(f) => self.frame_options(p, f, out),
            },
            Phase::Helmet => {
                for q in 0..self.n() {
                    out.push(Action::new(Kind::Give, 0, q as u8));
                }
            }
            Phase::Hire { .. } => {
                for slot in 0..d.market as usize {
                    let c = self.market[slot];
                    if c != NONE && self.seats[p].res[3] >= d.heroes[c as usize].cost as u16 {
                        out.push(Action::new(Kind::Hire, 0, slot as u8));
                    }
                }
                out.push(Action::plain(Kind::Done));
            }
        }
    }

    /// Whether the settling probe agrees with the full option list here: the same count
    /// and option when the list has at most one, at least two otherwise (for tests).
    #[cfg(test)]
    pub(crate) fn probe_agrees(&self) -> Result<(), String> {
        let mut probe = Probe::new();
        self.options(&mut probe);
        let mut all = Vec::new();
        self.options(&mut all);
        let ok = match all.len() {
            0 => probe.n == 0,
            1 => probe.n == 1 && probe.first == all[0],
            _ => probe.n >= 2,
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "probe counted {} (first {}) but the options are {all:?}",
                probe.n, probe.first
            ))
        }
    }

    fn space_open(&self, p: usize, space: usize) -> bool {
        if self.seats[p].board[space] != 0 {
            return false;
        }
        if self.params().allow_empty_main_action {
            return true;
        }
        // DAI-21 alternative: Recruitment / Construction only if something is possible.
        match space {
            3 => self.can_recruit_governor(p, 0, false) || self.can_recruit_shadow(p, 0, false),
            4 => (0..2).any(|t| self.can_build(p, t, false, 0)),
            _ => true,
        }
    }

    fn die_options(&self, p: usize, out: &mut impl Sink) {
        let mut groups: u32 = 0; // bit colour*6 + value-1
        for die in 0..MAX_DICE {
            if self.die_loc[die] == POOL {
                groups |= 1 << (self.die_colour[die] * 6 + self.die_value[die] - 1);
            }
        }
        for (space, &want) in SPACE_COLOUR.iter().enumerate() {
            if !self.space_open(p, space) {
                continue;
            }
            // The groups of the space's colour (any colour on Tax).
            let mask = if want == 3 {
                u32::MAX
            } else {
                0x3F << (want * 6)
            };
            for g in bits((groups & mask) as u64) {
                out.push(Action::new(Kind::Die, space as u8, g as u8));
            }
            if out.enough() {
                return;
            }
        }
        if out.len() == 0 {
            match self.params().unplaceable_die {
                UnplaceableDie::SetAside => {
                    for g in bits(groups as u64) {
                        out.push(Action::new(Kind::SetAside, 0, g as u8));
                    }
                }
                UnplaceableDie::LeaveInPool => out.push(Action::plain(Kind::NoDie)),
            }
        }
    }

    fn tile_usable(&self, p: usize, space: usize) -> bool {
        let t = self.seats[p].tiles[space];
        t != 0
            && self.flags.tiles_used & (1 << space) == 0
            && (self.params().just_unlocked_tile_usable || self.flags.tiles_new & (1 << space) == 0)
    }

    fn menu_options<S: Sink>(&self, p: usize, out: &mut S) {
        let f = self.flags;
        if !f.main_done {
            out.push(Action::plain(Kind::Main));
        }
        // L258 "Perform the main action": the turn ends once it is resolved, unless
        // `main_action_optional`.
        let end = f.main_done || self.params().main_action_optional;
        if S::PROBE && end {
            // A probe counts in any order: the cheap option first.
            out.push(Action::plain(Kind::EndTurn));
            if out.enough() {
                return;
            }
        }
        self.bonus_options(p, false, out);
        if !S::PROBE && end {
            out.push(Action::plain(Kind::EndTurn));
        }
    }

    /// The bonus actions of the turn menu (L262, L556-L590); `pre_die`: before the die
    /// is placed (`bonus_before_die`, DAI-29), when no main-action tile can be used.
    fn bonus_options<S: Sink>(&self, p: usize, pre_die: bool, out: &mut S) {
        let d = self.data();
        let f = self.flags;
        let seat = &self.seats[p];
        let whole = self.params().partial_effects;
        // One pass over the dice: the subset sums; the largest is the sum of all of them.
        let sums = self.subset_sums(p);
        let total = if sums == 0 {
            0
        } else {
            63 - sums.leading_zeros()
        };
        if S::PROBE {
            // A probe counts in any order: the cheap options first, stopping at two.
            if seat.hand != 0 && sums != 0 {
                out.push(Action::plain(Kind::Discard));
            }
            if total >= 13 && !f.ability {
                out.push(Action::plain(Kind::Ability));
            }
            if self.can_reset(p) {
                out.push(Action::plain(Kind::Reset));
            }
            if out.enough() {
                return;
            }
        }
        if !f.hero && seat.hand != 0 {
            // The Heroes whose strength is the sum of a subset of the dice (L556).
            let by_strength = &self.rd().by_strength;
            let mut playable = 0u64;
            for st in bits(sums) {
                playable |= by_strength[st];
            }
            for c in bits(seat.hand & playable) {
                if whole || self.applies_in_full(p, &d.heroes[c].effect, c) {
                    out.push(Action::byte(Kind::PlayHero, c as u8));
                    if out.enough() {
                        return;
                    }
                }
            }
        }
        if !S::PROBE && seat.hand != 0 && sums != 0 {
            out.push(Action::plain(Kind::Discard));
        }
        let strong = total >= 13;
        if !S::PROBE && strong && !f.ability {
            out.push(Action::plain(Kind::Ability));
        }
        let tile_ok = |sp: usize| {
            self.tile_usable(p, sp)
                && (whole
                    || self.applies_in_full(
                        p,
                        &d.tiles[seat.tiles[sp] as usize - 1].effect,
                        usize::MAX,
                    ))
        };
        if !pre_die && (f.space as usize) < 5 && tile_ok(f.space as usize) {
            out.push(Action::new(Kind::Tile, 0, f.space));
        }
        if strong && tile_ok(ABILITY_SPACE) {
            out.push(Action::new(Kind::Tile, 0, ABILITY_SPACE as u8));
        }
        if !S::PROBE && self.can_reset(p) {
            out.push(Action::plain(Kind::Reset));
        }
        if self.params().relic_discard == RelicDiscard::AnyTime {
            // DAI-28 alternative: a loose tile to the Black market at any moment.
            for k in bits(seat.loose as u64) {
                out.push(Action::new(Kind::Relic, 0, k as u8));
            }
        }
    }

    /// Whether every step of `steps` can apply now (`partial_effects = false`, DAI-22);
    /// `card`: the Hero being played (not in hand while it resolves), or `usize::MAX`.
    fn applies_in_full(&self, p: usize, steps: &[Effect], card: usize) -> bool {
        let seat = &self.seats[p];
        let hand = if card < 64 {
            seat.hand & !(1u64 << card)
        } else {
            seat.hand
        };
        steps.iter().all(|&e| match e {
            Effect::Draw(n) => (seat.deck | seat.discard).count_ones() >= n as u32,
            Effect::MoveGovernor { .. } => seat.governors > 0 && self.free_gov_mask() != 0,
            Effect::RelicScavenger => {
                let i = seat.scavenger as usize;
                i < MAX_ISLANDS && self.take_slots(p, i) != 0
            }
            Effect::RelicFromBag(_) => self.bag.iter().any(|&c| c > 0),
            Effect::RelicChoice(n) => {
                let mut k = 0;
                for &i in self.islands() {
                    k += self.take_slots(p, i as usize).count_ones();
                }
                k >= n as u32
            }
            Effect::RelicToBlackMarket(n) => seat.loose.count_ones() >= n as u32,
            Effect::BlackMarketFree(_) => self.black_market_takeable(p) != 0,
            Effect::Recruit {
                discount,
                free,
                governor_only,
                ..
            } => {
                self.can_recruit_governor(p, discount, free)
                    || (!governor_only && self.can_recruit_shadow(p, discount, free))
            }
            Effect::Construct {
                discount,
                ignore_surcharge,
                ..
            } => (0..2).any(|t| self.can_build(p, t, ignore_surcharge, discount)),
            Effect::Influence(_)
            | Effect::Production {
                governors: true, ..
            } => seat.governors > 0,
            Effect::Production { farms: true, .. } => seat.built[0] > 0,
            Effect::MoveBuilding => seat.built[0] + seat.built[1] > 0 && self.free_lot_mask() != 0,
            Effect::HeroFree => hand != 0,
            _ => true,
        })
    }

    fn frame_options(&self, p: usize, f: Frame, out: &mut impl Sink) {
        let d = self.data();
        match f {
            Frame::HeroDone(_) | Frame::EndRevenue => {}
            Frame::PlaceTile(t) => {
                let (lo, hi) = if d.tiles[t as usize].yellow {
                    (6, 6 + self.params().yellow_spaces as usize)
                } else {
                    (0, 6)
                };
                for sp in lo..hi {
                    out.push(Action::new(Kind::Place, 0, sp as u8));
                }
            }
            Frame::DiscardShift { sub: 0 } => {
                for c in bits(self.seats[p].hand) {
                    out.push(Action::byte(Kind::Card, c as u8));
                }
            }
            Frame::DiscardShift { .. } => {
                for (space, &die) in self.seats[p].board.iter().enumerate() {
                    if die != 0 {
                        let v = self.die_value[die as usize - 1];
                        if v > 1 {
                            out.push(Action::new(Kind::Shift, space as u8, 0));
                        }
                        if v < 6 {
                            out.push(Action::new(Kind::Shift, space as u8, 1));
                        }
                    }
                }
            }
            Frame::MakeRoom(_) => {
                for k in bits(self.seats[p].loose as u64) {
                    out.push(Action::new(Kind::Relic, 0, k as u8));
                }
            }
            Frame::Victim(island) => {
                for site in self.enemy_governors(p, island as usize) {
                    out.push(Action::new(Kind::Victim, 0, site as u8));
                }
            }
            Frame::Altar(colour) => {
                for a in 0..d.islands[colour as usize].altars.len() {
                    if self.altar[colour as usize][a] == NONE {
                        out.push(Action::new(Kind::Altar, 0, a as u8));
                    }
                }
            }
            Frame::Eff {
                eff,
                done,
                sub,
                x,
                y,
            } => self.effect_options(p, eff, done, sub, x, y, out),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn effect_options(
        &self,
        p: usize,
        eff: Effect,
        done: u8,
        sub: u8,
        x: u8,
        y: u8,
        out: &mut impl Sink,
    ) {
        let d = self.data();
        let optional = self.params().relic_take_optional;
        match eff {
            Effect::GainChoice {
                kinds, distinct, ..
            } => {
                for r in 0..4u8 {
                    if kinds & (1 << r) != 0 && !(distinct && x & (1 << r) != 0) {
                        out.push(Action::new(Kind::Resource, 0, r));
                    }
                }
            }
            Effect::Villager => {
                for t in 0..d.villagers.len() {
                    out.push(Action::new(Kind::Villager, 0, t as u8));
                }
            }
            Effect::MoveGovernor { .. } => {
                if sub == 0 {
                    for &i in self.islands() {
                        for s in 0..d.islands[i as usize].sites.len() {
                            if self.gov[i as usize][s] as usize == p {
                                out.push(Action::new(Kind::Own, i, s as u8));
                            }
                        }
                    }
                    // The first move is compulsory when possible, unless counted effects
                    // may stop early (counted_effects_optional).
                    if done > 0 || self.params().counted_effects_optional {
                        out.push(Action::plain(Kind::Done));
                    }
                } else {
                    let (oi, os) = (x >> 4, x & 15);
                    let other = self.params().governor_move_scope == GovernorMoveScope::OtherIsland;
                    for (i, s) in self.free_gov_sites() {
                        if (i as u8, s as u8) != (oi, os) && !(other && i as u8 == oi) {
                            out.push(Action::new(Kind::Site, i as u8, s as u8));
                        }
                    }
                }
            }
            Effect::RelicScavenger => {
                let i = self.seats[p].scavenger as usize;
                let mut any = false;
                if i < MAX_ISLANDS {
                    for slot in bits(self.take_slots(p, i) as u64) {
                        out.push(Action::new(Kind::Take, 0, slot as u8));
                        any = true;
                    }
                }
                if optional || !any {
                    out.push(Action::plain(Kind::Done));
                }
            }
            Effect::RelicChoice(_) => {
                let mut any = false;
                for &i in self.islands() {
                    for slot in bits(self.take_slots(p, i as usize) as u64) {
                        out.push(Action::new(Kind::Pick, i, slot as u8));
                        any = true;
                    }
                }
                if optional || !any {
                    out.push(Action::plain(Kind::Done));
                }
            }
            Effect::RelicToBlackMarket(_) => {
                for k in bits(self.seats[p].loose as u64) {
                    out.push(Action::new(Kind::Relic, 0, k as u8));
                }
            }
            Effect::BlackMarketFree(_) => {
                for k in bits(self.black_market_takeable(p)) {
                    out.push(Action::new(Kind::Shop, 0, k as u8));
                }
                out.push(Action::plain(Kind::Done));
            }
            Effect::Scavenger { search, shop, .. } => {
                self.scavenger_options(p, search, shop, sub, x, y, out)
            }
            Effect::Recruit {
                n,
                discount,
                free,
                governor_only,
            } => match sub {
                0 => {
                    let g = self.can_recruit_governor(p, discount, free);
                    let s = !governor_only && self.can_recruit_shadow(p, discount, free);
                    if g {
                        out.push(Action::plain(Kind::RecruitGovernor));
                    }
                    if s {
                        out.push(Action::plain(Kind::RecruitShadow));
                    }
                    if self.can_reset(p) {
                        out.push(Action::plain(Kind::Reset));
                    }
                    let may_stop = if n == 0 {
                        self.params().allow_empty_main_action || done > 0 || !(g || s)
                    } else {
                        self.params().counted_effects_optional || !(g || s)
                    };
                    if may_stop || out.len() == 0 {
                        out.push(Action::plain(Kind::Done));
                    }
                }
                1 => {
                    for (i, s) in self.free_gov_sites() {
                        out.push(Action::new(Kind::Site, i as u8, s as u8));
                    }
                }
                _ => {
                    for (i, s) in self.free_shadow_spaces() {
                        out.push(Action::new(Kind::Shadow, i as u8, s as u8));
                    }
                }
            },
            Effect::Construct {
                n,
                discount,
                ignore_surcharge,
            } => match sub {
                0 => {
                    let mut any = false;
                    for t in 0..2 {
                        if self.can_build(p, t, ignore_surcharge, discount) {
                            out.push(Action::new(Kind::Build, 0, t as u8));
                            any = true;
                        }
                    }
                    let may_stop = if n == 0 {
                        self.params().allow_empty_main_action || done > 0 || !any
                    } else {
                        self.params().counted_effects_optional || !any
                    };
                    if may_stop {
                        out.push(Action::plain(Kind::Done));
                    }
                }
                1 => {
                    // Which resource the discount applies to (only those that help and
                    // leave the building affordable).
                    let t = x as usize;
                    let full = self.build_cost(p, t, ignore_surcharge, 0, None);
                    for r in [Resource::Metal, Resource::Crystal] {
                        if full[r as usize] > 0
                            && self.can_pay(
                                p,
                                &self.build_cost(p, t, ignore_surcharge, discount, Some(r)),
                            )
                        {
                            out.push(Action::new(Kind::Resource, 0, r as u8));
                        }
                    }
                }
                _ => {
                    for (i, s) in self.free_lots() {
                        out.push(Action::new(Kind::Lot, i as u8, s as u8));
                    }
                }
            },
            Effect::Influence(_) => {
                for &i in self.islands() {
                    if (0..d.islands[i as usize].sites.len())
                        .any(|s| self.gov[i as usize][s] as usize == p)
                    {
                        out.push(Action::new(Kind::Island, 0, i));
                    }
                }
            }
            Effect::MoveBuilding => {
                if sub == 0 {
                    for &i in self.islands() {
                        for s in 0..d.islands[i as usize].sites.len() {
                            let b = self.bld[i as usize][s];
                            if b != NONE && b as usize / 2 == p {
                                out.push(Action::new(Kind::Own, i, s as u8));
                            }
                        }
                    }
                } else {
                    for (i, s) in self.free_lots() {
                        out.push(Action::new(Kind::Lot, i as u8, s as u8));
                    }
                }
            }
            Effect::MainAction => {
                for sp in 0..5u8 {
                    out.push(Action::new(Kind::MainChoice, 0, sp));
                }
            }
            Effect::HeroFree => {
                let whole = self.params().partial_effects;
                for c in bits(self.seats[p].hand) {
                    if whole || self.applies_in_full(p, &d.heroes[c].effect, c) {
                        out.push(Action::byte(Kind::Card, c as u8));
                    }
                }
            }
            // Automatic steps.
            Effect::Gain(_)
            | Effect::Storage(_)
            | Effect::Draw(_)
            | Effect::Helmet { .. }
            | Effect::RelicFromBag(_)
            | Effect::ResetRecruitment
            | Effect::Production { .. }
            | Effect::Popularity(_) => {}
        }
    }

    /// The No man's land slots of `island` seat `p` may take from, as a bitmask; face-down
    /// tiles are interchangeable, so only the first of them is offered.
    fn take_slots(&self, p: usize, island: usize) -> u8 {
        let mut m = 0u8;
        let mut hidden_seen = false;
        for slot in 0..self.data().nml as usize {
            let k = self.nml[island][slot];
            if k == HIDDEN {
                if hidden_seen {
                    continue;
                }
                hidden_seen = true;
            }
            if self.can_take_slot(p, k) {
                m |= 1 << slot;
            }
        }
        m
    }

    /// Scavenger sub-steps: 0 move; 1 at a stop (x: bit0 taken, bit1 searched, bit2
    /// shopped); 2 Search payment; 3 first Search tile; 4 further Search tiles (y: slots
    /// chosen).
    #[allow(clippy::too_many_arguments)]
    fn scavenger_options(
        &self,
        p: usize,
        search: Search,
        shop: bool,
        sub: u8,
        x: u8,
        y: u8,
        out: &mut impl Sink,
    ) {
        let d = self.data();
        let here = self.seats[p].scavenger as usize;
        match sub {
            0 => {
                for &i in self.islands() {
                    if i as usize != here {
                        out.push(Action::new(Kind::Island, 0, i));
                    }
                }
            }
            1 => {
                let mut any = false;
                if x & 1 == 0 {
                    for slot in bits(self.take_slots(p, here) as u64) {
                        out.push(Action::new(Kind::Take, 0, slot as u8));
                        any = true;
                    }
                }
                if x & 2 == 0
                    && search != Search::None
                    && self.nml[here]
                        .iter()
                        .take(d.nml as usize)
                        .any(|&k| k != NONE)
                {
                    let (amount, kinds) = d.search_cost;
                    let affordable = search == Search::Free
                        || (0..4).any(|r| {
                            kinds & (1 << r) != 0 && self.seats[p].res[r] >= amount as u16
                        });
                    if affordable {
                        out.push(Action::plain(Kind::Search));
                    }
                }
                if x & 4 == 0 && shop && self.can_pay(p, &d.black_market_cost) {
                    for k in bits(self.black_market_takeable(p)) {
                        out.push(Action::new(Kind::Shop, 0, k as u8));
                        if out.enough() {
                            return;
                        }
                    }
                }
                if self.params().relic_take_optional || x & 1 != 0 || !any {
                    out.push(Action::plain(Kind::Done));
                }
            }
            2 => {
                let (amount, kinds) = d.search_cost;
                for r in 0..4u8 {
                    if kinds & (1 << r) != 0 && self.seats[p].res[r as usize] >= amount as u16 {
                        out.push(Action::new(Kind::Resource, 0, r));
                    }
                }
            }
            _ => {
                let mut hidden_seen = false;
                for slot in 0..d.nml as usize {
                    let k = self.nml[here][slot];
                    if k != NONE && y & (1 << slot) == 0 {
                        // Face-down tiles are interchangeable: offer the first one only.
                        if k == HIDDEN {
                            if hidden_seen {
                                continue;
                            }
                            hidden_seen = true;
                        }
                        out.push(Action::new(Kind::SearchTile, 0, slot as u8));
                    }
                }
                if sub == 4 {
                    out.push(Action::plain(Kind::Done));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Resolution.

impl State {
    /// Resolves automatic steps and single-option decisions until a real decision (two or
    /// more options) or the end of the game.
    fn settle<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        // The full list (not a counting probe): the decision this stops at keeps it.
        let mut buf = OptionCache::default();
        loop {
            if !self.run_auto(chance, &mut buf) {
                if self.phase == Phase::Over {
                    self.cache.clear();
                    return;
                }
                self.options(&mut buf);
            }
            match buf.n {
                1 => self.choose(buf.first(), chance),
                0 => unreachable!("no option at a decision node: {:?}", self.phase),
                _ => {
                    buf.seal();
                    // The used part only (a whole-array copy costs a `memcpy` call).
                    self.cache.n = buf.n;
                    self.cache.valid = buf.valid;
                    if buf.valid {
                        for (to, from) in self.cache.acts.iter_mut().zip(&buf.acts[..buf.n]) {
                            *to = *from;
                        }
                    }
                    return;
                }
            }
        }
    }

    /// Resolves the automatic steps on top of the stack; pops effects that cannot apply
    /// (DAI-22 `partial_effects`). Returns `true` when it stopped at an effect's decision,
    /// with that decision's options in `buf`.
    fn run_auto<C: Chance + ?Sized>(&mut self, chance: &mut C, buf: &mut OptionCache) -> bool {
        while matches!(
            self.phase,
            Phase::Turn | Phase::Revenue { .. } | Phase::PickDie
        ) {
            let Some(f) = self.top() else {
                if self.pending_refill != 0 {
                    self.flush_refills(chance);
                }
                return false;
            };
            let p = self.actor as usize;
            match f {
                Frame::HeroDone(c) => {
                    self.pop();
                    self.put_on_discard(p, c as usize);
                }
                Frame::EndRevenue => {
                    self.pop();
                    self.next_revenue();
                }
                Frame::Eff { eff, done, y, .. } => {
                    let auto = match eff {
                        Effect::Gain(a) => {
                            self.pop();
                            self.gain(p, &a);
                            true
                        }
                        Effect::Storage(n) => {
                            self.pop();
                            self.storage_up(p, n);
                            true
                        }
                        Effect::Draw(n) => {
                            self.pop();
                            for _ in 0..n {
                                self.draw_hero(p, chance);
                            }
                            true
                        }
                        Effect::Helmet { first_this_round } => {
                            self.pop();
                            if !first_this_round {
                                self.helmet = p as u8;
                            } else if y == 1 && !self.helmet_taken {
                                // y = 1: a die-placed Help from Villagers that may earn it
                                // (DAI-18); the first one this round takes it.
                                self.helmet_taken = true;
                                self.helmet = p as u8;
                            }
                            true
                        }
                        Effect::RelicFromBag(n) => {
                            if done + 1 >= n {
                                self.pop();
                            } else {
                                self.set_top(Frame::Eff {
                                    eff,
                                    done: done + 1,
                                    sub: 0,
                                    x: 0,
                                    y,
                                });
                            }
                            if let Some(k) = self.draw_tile(chance) {
                                self.receive_tile(p, k);
                            }
                            true
                        }
                        Effect::ResetRecruitment => {
                            self.pop();
                            self.reset_track(p);
                            true
                        }
                        Effect::Production { governors, farms } => {
                            self.pop();
                            self.production(p, governors, farms);
                            true
                        }
                        Effect::Popularity(n) => {
                            self.pop();
                            self.add_pp(p, source::OTHER, n as i16);
                            true
                        }
                        _ => false,
                    };
                    if !auto {
                        self.options(buf);
                        if buf.n > 0 {
                            return true;
                        }
                        // Nothing can apply: the step ends (DAI-22).
                        self.pop();
                    }
                }
                _ => {
                    self.options(buf);
                    if buf.n > 0 {
                        return true;
                    }
                    self.pop();
                }
            }
        }
        false
    }

    /// Production (L342-L352): one resource per own Governor and per own Techno-farm.
    fn production(&mut self, p: usize, governors: bool, farms: bool) {
        let d = self.data();
        for &i in self.islands() {
            let i = i as usize;
            for (site, &r) in d.islands[i].sites.iter().enumerate() {
                if governors && self.gov[i][site] as usize == p {
                    self.gain_res(p, r as usize, 1);
                }
                if farms && self.bld[i][site] as usize == 2 * p {
                    self.gain_res(p, r as usize, 1);
                }
            }
        }
    }

    /// Applies one decision of the actor.
    fn choose<C: Chance + ?Sized>(&mut self, a: Action, chance: &mut C) {
        let p = self.actor as usize;
        match self.phase {
            Phase::Over => unreachable!("no decision after the end"),
            Phase::SetupGovernor { step } => {
                let (i, site) = (a.a() as usize, a.b() as usize);
                self.place_governor(p, i, site);
                let n = self.n() as u8;
                if step < n {
                    // The Scavenger goes to the island of the first Governor (L232).
                    self.seats[p].scavenger = i as u8;
                }
                let step = step + 1;
                if step == 2 * n {
                    self.start_round(chance);
                } else {
                    self.phase = Phase::SetupGovernor { step };
                    self.actor = (self.first + step % n) % n;
                }
            }
            Phase::PickDie => match (self.top(), a.kind()) {
                (Some(f), _) => self.frame_choose(p, f, a, chance),
                (None, Kind::Die | Kind::SetAside | Kind::NoDie) => self.take_die(p, a),
                // A bonus action before the die (bonus_before_die, DAI-29).
                (None, _) => self.menu_choose(p, a),
            },
            Phase::Turn | Phase::Revenue { .. } => match self.top() {
                Some(f) => self.frame_choose(p, f, a, chance),
                None if self.phase == Phase::Turn => self.menu_choose(p, a),
                None => {
                    // Revenue (L656-L666): the chosen resource, the fixed gain, then the
                    // yellow tiles.
                    let d = self.data();
                    self.gain_res(p, a.b() as usize, 1);
                    self.gain(p, &d.revenue.1);
                    self.push(Frame::EndRevenue);
                    for sp in (6..TILE_SPACES).rev() {
                        let t = self.seats[p].tiles[sp];
                        if t != 0 {
                            self.push_steps(&d.tiles[t as usize - 1].effect, false);
                        }
                    }
                }
            },
            Phase::Helmet => {
                // L676: give it to any player or keep it.
                self.helmet = a.b();
                self.phase = Phase::Hire { k: 0 };
                self.actor = self.helmet;
            }
            Phase::Hire { k } => match a.kind() {
                Kind::Hire => {
                    let slot = a.b() as usize;
                    let c = self.market[slot] as usize;
                    self.spend_res(p, 3, self.data().heroes[c].cost as u16);
                    self.seats[p].hand |= 1u64 << c;
                    self.known_hand[p] |= 1u64 << c;
                    self.seats[p].heroes_hired += 1;
                    // L688: the visible top card fills the slot; the next one is flipped.
                    self.market[slot] = self.top;
                    self.top = self.draw_market(chance);
                }
                _ => {
                    let n = self.n() as u8;
                    if k + 1 < n {
                        self.phase = Phase::Hire { k: k + 1 };
                        self.actor = (self.helmet + k + 1) % n;
                    } else {
                        // L692: everyone draws 1, then the next round.
                        for q in 0..self.n() {
                            self.draw_hero(q, chance);
                        }
                        self.round += 1;
                        self.start_round(chance);
                    }
                }
            },
        }
    }

    fn take_die(&mut self, p: usize, a: Action) {
        // Bonus actions used before the die (bonus_before_die) stay used.
        self.flags.space = NONE;
        self.flags.main_done = true;
        self.flags.first_blue = false;
        self.phase = Phase::Turn;
        match a.kind() {
            Kind::Die | Kind::SetAside => {
                let g = a.b();
                let die = (0..MAX_DICE)
                    .find(|&d| {
                        self.die_loc[d] == POOL
                            && self.die_colour[d] * 6 + self.die_value[d] - 1 == g
                    })
                    .expect("a die of the chosen group is in the pool");
                if a.kind() == Kind::SetAside {
                    self.die_loc[die] = ASIDE;
                    return;
                }
                let space = a.a() as usize;
                if self.die_colour[die] == 0 && !self.blue_placed {
                    self.blue_placed = true;
                    self.flags.first_blue = true;
                }
                self.die_loc[die] = (p * 8 + space) as u8;
                self.seats[p].board[space] = die as u8 + 1;
                self.flags.space = space as u8;
                if space == TAX {
                    // Tax is immediate (L540).
                    self.seats[p].mains[TAX] += 1;
                    self.push_steps(self.main_steps(TAX), true);
                } else {
                    self.flags.main_done = false;
                }
            }
            _ => {} // NoDie: the turn has no main action.
        }
    }

    fn menu_choose(&mut self, p: usize, a: Action) {
        match a.kind() {
            Kind::Main => {
                let space = self.flags.space as usize;
                self.flags.main_done = true;
                self.seats[p].mains[space] += 1;
                let eligible = match self.params().helmet_trigger {
                    HelmetTrigger::FirstVillagersDie => true,
                    HelmetTrigger::FirstBlueDie => self.flags.first_blue,
                };
                self.push_steps(self.main_steps(space), eligible);
            }
            Kind::PlayHero => {
                self.flags.hero = true;
                self.play_hero(p, a.x() as usize);
            }
            Kind::Discard => self.push(Frame::DiscardShift { sub: 0 }),
            Kind::Ability => {
                self.flags.ability = true;
                let d = self.data();
                let same = self.params().nature_same_kind;
                for &eff in d.clans[self.seats[p].clan as usize].ability.iter().rev() {
                    let eff = match eff {
                        Effect::GainChoice { n, kinds, distinct } => Effect::GainChoice {
                            n,
                            kinds,
                            distinct: distinct || !same,
                        },
                        e => e,
                    };
                    self.push(Frame::Eff {
                        eff,
                        done: 0,
                        sub: 0,
                        x: 0,
                        y: 0,
                    });
                }
            }
            Kind::Tile => {
                let sp = a.b() as usize;
                self.flags.tiles_used |= 1 << sp;
                let t = self.seats[p].tiles[sp] as usize - 1;
                self.push_steps(&self.data().tiles[t].effect, false);
            }
            Kind::Reset => {
                let cost = self.data().recruit_reset;
                self.pay(p, &cost);
                self.reset_track(p);
            }
            Kind::EndTurn => self.end_turn(),
            Kind::Relic => {
                // relic_discard = any_time (DAI-28).
                let k = a.b();
                self.seats[p].loose &= !(1 << k);
                self.black_market[k as usize] += 1;
            }
            k => unreachable!("{k:?} is not a menu option"),
        }
    }

    fn frame_choose<C: Chance + ?Sized>(&mut self, p: usize, f: Frame, a: Action, chance: &mut C) {
        let d = self.data();
        match f {
            Frame::PlaceTile(t) => {
                let sp = a.b() as usize;
                // A new tile may cover an old one, which is lost (FAQ L867-L869).
                self.seats[p].tiles[sp] = t + 1;
                self.flags.tiles_new |= 1 << sp;
                self.pop();
            }
            Frame::DiscardShift { sub: 0 } => {
                let c = a.x() as usize;
                self.seats[p].hand &= !(1u64 << c);
                self.known_hand[p] &= !(1u64 << c);
                self.put_on_discard(p, c);
                self.set_top(Frame::DiscardShift { sub: 1 });
            }
            Frame::DiscardShift { .. } => {
                let die = self.seats[p].board[a.a() as usize] as usize - 1;
                if a.b() == 1 {
                    self.die_value[die] += 1;
                } else {
                    self.die_value[die] -= 1;
                }
                self.pop();
            }
            Frame::MakeRoom(kind) => {
                let k = a.b();
                self.seats[p].loose &= !(1 << k);
                self.black_market[k as usize] += 1;
                self.pop();
                self.add_tile(p, kind);
            }
            Frame::Victim(island) => {
                self.pop();
                self.kill(p, island as usize, a.b() as usize);
            }
            Frame::Altar(colour) => {
                self.pop();
                self.restore(p, colour as usize, a.b() as usize);
            }
            Frame::HeroDone(_) | Frame::EndRevenue => unreachable!("automatic frame"),
            Frame::Eff {
                eff,
                done,
                sub,
                x,
                y,
            } => {
                let next = |s: &mut State, done: u8, sub: u8, x: u8, y: u8, limit: u8| {
                    if limit > 0 && done >= limit {
                        s.pop();
                    } else {
                        s.set_top(Frame::Eff {
                            eff,
                            done,
                            sub,
                            x,
                            y,
                        });
                    }
                };
                match eff {
                    Effect::GainChoice { n, .. } => {
                        let r = a.b();
                        self.gain_res(p, r as usize, 1);
                        next(self, done + 1, 0, x | (1 << r), y, n);
                    }
                    Effect::Villager => {
                        let t = a.b() as usize;
                        let back = self.villagers & (1 << t) != 0;
                        self.villagers ^= 1 << t;
                        self.pop();
                        let v = &d.villagers[t];
                        self.push_steps(if back { &v.back } else { &v.front }, false);
                    }
                    Effect::MoveGovernor { collect, up_to } => {
                        if a.kind() == Kind::Done {
                            self.pop();
                        } else if sub == 0 {
                            next(self, done, 1, (a.a() << 4) | a.b(), y, 0);
                        } else {
                            let (oi, os) = ((x >> 4) as usize, (x & 15) as usize);
                            let (ni, ns) = (a.a() as usize, a.b() as usize);
                            self.gov[oi][os] = NONE;
                            self.gov[ni][ns] = p as u8;
                            self.add_influence(oi, p, -2);
                            self.add_influence(ni, p, 2);
                            let r = d.islands[ni].sites[ns];
                            self.gain_res(p, r as usize, collect as u16);
                            next(self, done + 1, 0, 0, y, up_to);
                        }
                    }
                    Effect::RelicScavenger => {
                        self.pop();
                        if a.kind() == Kind::Take {
                            let i = self.seats[p].scavenger as usize;
                            self.take_from(p, i, a.b() as usize, false, chance);
                        }
                    }
                    Effect::RelicChoice(n) => {
                        if a.kind() == Kind::Done {
                            self.pop();
                        } else {
                            next(self, done + 1, 0, 0, y, n);
                            self.take_from(p, a.a() as usize, a.b() as usize, false, chance);
                        }
                    }
                    Effect::RelicToBlackMarket(n) => {
                        let k = a.b();
                        self.seats[p].loose &= !(1 << k);
                        self.black_market[k as usize] += 1;
                        next(self, done + 1, 0, 0, y, n);
                    }
                    Effect::BlackMarketFree(n) => {
                        if a.kind() == Kind::Done {
                            self.pop();
                        } else {
                            let k = a.b();
                            self.black_market[k as usize] -= 1;
                            next(self, done + 1, 0, 0, y, n);
                            self.receive_tile(p, k);
                        }
                    }
                    Effect::Scavenger {
                        moves,
                        search,
                        shop,
                    } => match (sub, a.kind()) {
                        (0, _) => {
                            // Move to another island (L362; FAQ L813-L819).
                            self.seats[p].scavenger = a.b();
                            next(self, done, 1, 0, 0, 0);
                        }
                        (1, Kind::Take) => {
                            next(self, done, 1, x | 1, 0, 0);
                            let i = self.seats[p].scavenger as usize;
                            // Only the Relic main action shops (L378): its take is L362's.
                            self.take_from(p, i, a.b() as usize, shop, chance);
                        }
                        (1, Kind::Search) => {
                            let sub = if search == Search::Free { 3 } else { 2 };
                            next(self, done, sub, x | 2, 0, 0);
                        }
                        (1, Kind::Shop) => {
                            // L376: 1 Gold for a Black-market tile.
                            let k = a.b();
                            let cost = d.black_market_cost;
                            self.pay(p, &cost);
                            self.black_market[k as usize] -= 1;
                            next(self, done, 1, x | 4, 0, 0);
                            self.receive_tile(p, k);
                        }
                        (1, _) => next(self, done + 1, 0, 0, 0, moves),
                        (2, _) => {
                            self.spend_res(p, a.b() as usize, d.search_cost.0 as u16);
                            next(self, done, 3, x, 0, 0);
                        }
                        (_, Kind::SearchTile) => {
                            let y = y | (1 << a.b());
                            if y.count_ones() >= d.search_discard as u32 {
                                self.finish_search(p, y, chance);
                                next(self, done, 1, x, 0, 0);
                            } else {
                                next(self, done, 4, x, y, 0);
                            }
                        }
                        _ => {
                            self.finish_search(p, y, chance);
                            next(self, done, 1, x, 0, 0);
                        }
                    },
                    Effect::Recruit {
                        n, discount, free, ..
                    } => match (sub, a.kind()) {
                        (0, Kind::RecruitGovernor) => next(self, done, 1, 0, 0, 0),
                        (0, Kind::RecruitShadow) => next(self, done, 2, 0, 0, 0),
                        (0, Kind::Reset) => {
                            let cost = d.recruit_reset;
                            self.pay(p, &cost);
                            self.reset_track(p);
                        }
                        (0, _) => self.pop(),
                        (1, _) => {
                            let cost = self.recruit_cost(p, discount, free);
                            self.spend_res(p, 0, cost);
                            self.advance_track(p);
                            next(self, done + 1, 0, 0, 0, n);
                            self.place_governor(p, a.a() as usize, a.b() as usize);
                        }
                        _ => {
                            let cost = self.recruit_cost(p, discount, free);
                            self.spend_res(p, 0, cost);
                            self.advance_track(p);
                            next(self, done + 1, 0, 0, 0, n);
                            self.place_shadow(p, a.a() as usize, a.b() as usize, chance);
                        }
                    },
                    Effect::Construct {
                        n,
                        discount,
                        ignore_surcharge,
                    } => match (sub, a.kind()) {
                        (0, Kind::Build) => {
                            let sub = if discount > 0 { 1 } else { 2 };
                            next(self, done, sub, a.b(), NONE, 0);
                        }
                        (0, _) => self.pop(),
                        (1, _) => next(self, done, 2, x, a.b(), 0),
                        _ => {
                            let t = x as usize;
                            let disc = (y != NONE).then(|| Resource::ALL[y as usize]);
                            let cost = self.build_cost(p, t, ignore_surcharge, discount, disc);
                            self.pay(p, &cost);
                            next(self, done + 1, 0, 0, 0, n);
                            self.build(p, t, a.a() as usize, a.b() as usize);
                        }
                    },
                    Effect::Influence(n) => {
                        self.pop();
                        self.add_influence(a.b() as usize, p, n as i16);
                    }
                    Effect::MoveBuilding => {
                        if sub == 0 {
                            next(self, done, 1, (a.a() << 4) | a.b(), y, 0);
                        } else {
                            self.pop();
                            let (oi, os) = ((x >> 4) as usize, (x & 15) as usize);
                            let (ni, ns) = (a.a() as usize, a.b() as usize);
                            let b = self.bld[oi][os];
                            self.bld[oi][os] = NONE;
                            self.bld[ni][ns] = b;
                            let inf = d.buildings[b as usize % 2].influence as i16;
                            self.add_influence(oi, p, -inf);
                            self.add_influence(ni, p, inf);
                        }
                    }
                    Effect::MainAction => {
                        self.pop();
                        self.push_steps(self.main_steps(a.b() as usize), false);
                    }
                    Effect::HeroFree => {
                        self.pop();
                        self.play_hero(p, a.x() as usize);
                    }
                    _ => unreachable!("automatic effect {eff:?} has no decision"),
                }
            }
        }
    }

    /// Takes the tile in `slot` of `island`'s No man's land, refills the slot at once
    /// (L362, DAI-20) and stores the tile.
    /// `immediate`: the Relic action's own take (L362), always refilled at once; other
    /// takes follow `nml_refill` (DAI-20). A face-down tile is revealed as it is taken.
    fn take_from<C: Chance + ?Sized>(
        &mut self,
        p: usize,
        island: usize,
        slot: usize,
        immediate: bool,
        chance: &mut C,
    ) {
        let mut k = self.nml[island][slot];
        self.nml[island][slot] = NONE;
        if k == HIDDEN {
            k = self.draw_kind(chance);
        }
        if immediate || self.params().nml_refill == NmlRefill::Immediate {
            self.refill(island, slot, chance);
        } else {
            self.pending_refill |= 1 << (island * MAX_NML + slot);
        }
        self.receive_tile(p, k);
    }

    /// Refills the slots emptied during the effect just resolved (`nml_refill =
    /// after_effect`, DAI-20).
    fn flush_refills<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        let pending = self.pending_refill;
        self.pending_refill = 0;
        for b in bits(pending as u64) {
            self.refill(b / MAX_NML, b % MAX_NML, chance);
        }
    }

    /// Search (L372): the chosen tiles go to the Black market, as many are drawn.
    fn finish_search<C: Chance + ?Sized>(&mut self, p: usize, slots: u8, chance: &mut C) {
        let i = self.seats[p].scavenger as usize;
        for slot in bits(slots as u64) {
            let mut k = self.nml[i][slot];
            self.nml[i][slot] = NONE;
            if k == HIDDEN {
                k = self.draw_kind(chance);
            }
            self.black_market[k as usize] += 1;
        }
        for slot in bits(slots as u64) {
            self.refill(i, slot, chance);
        }
    }

    /// A Shadow (L491-L499): Gold of its space, +1 influence, one enemy Governor
    /// eliminated.
    fn place_shadow<C: Chance + ?Sized>(&mut self, p: usize, i: usize, sp: usize, chance: &mut C) {
        let gold = self.data().islands[i].shadow_spaces[sp];
        self.shadow[i][sp] = p as u8;
        self.seats[p].shadows += 1;
        self.gain_res(p, 3, gold as u16);
        self.add_influence(i, p, 1);
        let count = self.enemy_governors(p, i).count();
        if count == 1 || (count > 1 && self.params().shadow_victim == ShadowVictim::Random) {
            let k = if count == 1 {
                0
            } else {
                self.public_below(chance, count as u32) as usize
            };
            let site = self.enemy_governors(p, i).nth(k).expect("k < count");
            self.kill(p, i, site);
        } else if count > 1 {
            self.push(Frame::Victim(i as u8));
        }
    }

    /// A Building of type `t` on `i`/`site` (L515-L533).
    fn build(&mut self, p: usize, t: usize, i: usize, site: usize) {
        let d = self.data();
        self.bld[i][site] = (2 * p + t) as u8;
        self.seats[p].built[t] += 1;
        if t == 0 {
            // Techno-farm: 1 of the site's resource at once (L527).
            let r = d.islands[i].sites[site];
            self.gain_res(p, r as usize, 1);
        }
        self.add_influence(i, p, d.buildings[t].influence as i16);
        let tile = d.buildings[t].tiles[self.seats[p].built[t] as usize - 1];
        self.push(Frame::PlaceTile(tile));
    }

    fn end_turn(&mut self) {
        let n = self.n() as u8;
        self.turn_index += 1;
        self.flags = TurnFlags::default();
        if self.turn_index == 3 * n {
            self.end_round();
        } else {
            self.actor = (self.first + self.turn_index) % n;
            self.phase = Phase::PickDie;
        }
    }

    /// The popularity each seat earns on each island at this round's influence scoring
    /// (L643-L652, DAI-24): `[island][seat]` in PP (islands not in play score 0). A sole
    /// leader takes the round's gold standard and the next group shares the silver one;
    /// tied leaders share both (rounded down); influence ties are broken by Shadows on the
    /// island; a seat below `rank_min_influence` does not rank. The log tells the same
    /// numbers ([`super::log`]).
    pub fn influence_awards(&self) -> [[i16; MAX_PLAYERS]; MAX_ISLANDS] {
        let n = self.n();
        let d = self.data();
        let mut out = [[0i16; MAX_PLAYERS]; MAX_ISLANDS];
        let (gold, silver) = d.round_pp[self.round as usize - 1];
        let min = self.params().rank_min_influence as i16;
        for &i in self.islands() {
            let i = i as usize;
            let mut key = [(0i16, 0u8); MAX_PLAYERS];
            let mut ranked = [false; MAX_PLAYERS];
            for p in 0..n {
                let shadows = self.shadow[i].iter().filter(|&&s| s as usize == p).count() as u8;
                key[p] = (self.influence[i][p], shadows);
                ranked[p] = self.influence[i][p] >= min;
            }
            let best = (0..n).filter(|&p| ranked[p]).map(|p| key[p]).max();
            let Some(best) = best else { continue };
            let top = (0..n).filter(|&p| ranked[p] && key[p] == best).count();
            if top >= 2 {
                let share = (gold + silver) as i16 / top as i16;
                for p in 0..n {
                    if ranked[p] && key[p] == best {
                        out[i][p] += share;
                    }
                }
                continue;
            }
            for p in 0..n {
                if ranked[p] && key[p] == best {
                    out[i][p] += gold as i16;
                }
            }
            let second = (0..n)
                .filter(|&p| ranked[p] && key[p] < best)
                .map(|p| key[p])
                .max();
            if let Some(second) = second {
                let group = (0..n).filter(|&p| ranked[p] && key[p] == second).count();
                let share = silver as i16 / group as i16;
                for p in 0..n {
                    if ranked[p] && key[p] == second {
                        out[i][p] += share;
                    }
                }
            }
        }
        out
    }

    /// Influence scoring (L643-L652, DAI-24), then revenue.
    pub(super) fn end_round(&mut self) {
        let awards = self.influence_awards();
        for &i in self.islands() {
            // In island order, as the scoring is told (add_pp of 0 changes nothing).
            for (p, &v) in awards[i as usize].iter().enumerate().take(self.n()) {
                if v != 0 {
                    self.add_pp(p, source::INFLUENCE, v);
                }
            }
        }
        self.phase = Phase::Revenue { k: 0 };
        self.actor = self.first;
    }

    fn next_revenue(&mut self) {
        let Phase::Revenue { k } = self.phase else {
            unreachable!()
        };
        let n = self.n() as u8;
        if k + 1 < n {
            self.phase = Phase::Revenue { k: k + 1 };
            self.actor = (self.first + k + 1) % n;
        } else if self.round as usize == self.data().round_pp.len() {
            // L700: the game ends after the last round's Revenue.
            self.final_scoring();
            self.phase = Phase::Over;
        } else {
            self.phase = Phase::Helmet;
            self.actor = self.helmet;
        }
    }

    /// Army value (L730): Hero costs in hand, deck and discard, plus Gold.
    pub fn army(&self, p: usize) -> u32 {
        let s = &self.seats[p];
        bits(s.hand | s.deck | s.discard)
            .map(|c| self.data().heroes[c].cost as u32)
            .sum::<u32>()
            + s.res[3] as u32
    }

    /// Army comparison key (L736-L740): value, fewer Heroes, more value-5, -4, -3, -2.
    fn army_key(&self, p: usize) -> (u32, i32, [u8; 4]) {
        let s = &self.seats[p];
        let cards = s.hand | s.deck | s.discard;
        let mut by_cost = [0u8; 4];
        for c in bits(cards) {
            let cost = self.data().heroes[c].cost;
            if (2..=5).contains(&cost) {
                by_cost[5 - cost as usize] += 1;
            }
        }
        (self.army(p), -(cards.count_ones() as i32), by_cost)
    }

    /// Final scoring (L706-L756).
    pub(super) fn final_scoring(&mut self) {
        let n = self.n();
        let d = self.data();
        for p in 0..n {
            let restored: usize = self.seats[p].restored.iter().map(|&r| r as usize).sum();
            if restored > 0 {
                let v = d.relic_pp[restored.min(d.relic_pp.len()) - 1];
                self.add_pp(p, source::RELICS, v as i16);
            }
            for t in 0..2 {
                let b = self.seats[p].built[t] as usize;
                if b > 0 {
                    self.add_pp(
                        p,
                        source::BUILDINGS,
                        d.buildings[t].popularity[b - 1] as i16,
                    );
                }
            }
        }
        // Army (L726-L740, DAI-25).
        let table: &[u8] = if n == 2 { &d.army_pp.0 } else { &d.army_pp.1 };
        let mut keys = [(0u32, 0i32, [0u8; 4]); MAX_PLAYERS];
        for (p, k) in keys.iter_mut().enumerate().take(n) {
            *k = self.army_key(p);
        }
        for p in 0..n {
            let better = (0..n).filter(|&q| keys[q] > keys[p]).count();
            let tied = (0..n).filter(|&q| keys[q] == keys[p]).count();
            let pp_at = |r: usize| table.get(r).copied().unwrap_or(0) as i16;
            let v = match self.params().army_full_tie {
                ArmyFullTie::Split => (better..better + tied).map(pp_at).sum::<i16>() / tied as i16,
                ArmyFullTie::ShareFull => pp_at(better),
            };
            self.add_pp(p, source::ARMY, v);
        }
        let h = self.helmet as usize;
        self.add_pp(h, source::HELMET, d.helmet_pp as i16);
        for p in 0..n {
            let left = self.leftover(p);
            self.add_pp(
                p,
                source::RESOURCES,
                (left / d.resources_per_point as u32) as i16,
            );
        }
    }

    /// Rice + Metal + Crystal left (L754, L758).
    pub fn leftover(&self, p: usize) -> u32 {
        let r = &self.seats[p].res;
        (r[0] + r[1] + r[2]) as u32
    }
}

// ---------------------------------------------------------------------------------------
// The Game trait.

/// What a seat sees (placeholder: see "Not yet implemented" in the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The observing seat.
    pub seat: Player,
    /// The public state and the seat's own hand, printed.
    pub text: String,
}

impl State {
    /// Projected final popularity per seat (the greedy basis, in PP; the terms are listed
    /// in the module docs, "Value, the greedy heuristic, and metrics"): points so far; the
    /// influence standings scored for the rounds not yet scored; the final-scoring tables
    /// applied to the current relics (plus 1/8 of a Relic per loose tile), buildings, army
    /// ranks, Helmet and leftover resources (0.2 PP each).
    #[allow(clippy::needless_range_loop)] // seats index several arrays at once
    pub fn projected(&self) -> PerPlayer<f64> {
        let n = self.n();
        let d = self.data();
        let mut out = [0.0; MAX_PLAYERS];
        for (p, o) in out.iter_mut().enumerate().take(n) {
            let s = &self.seats[p];
            *o = s.popularity as f64;
            let restored: f64 = s.restored.iter().map(|&r| r as f64).sum::<f64>()
                + s.loose.count_ones() as f64 / d.pieces as f64 * 0.5;
            if restored > 0.0 {
                let k = restored.min(d.relic_pp.len() as f64);
                let lo = k.floor() as usize;
                let base = if lo == 0 {
                    0.0
                } else {
                    d.relic_pp[lo - 1] as f64
                };
                let next = d
                    .relic_pp
                    .get(lo)
                    .copied()
                    .unwrap_or(d.relic_pp[d.relic_pp.len() - 1]) as f64;
                *o += base + (next - base) * (k - lo as f64);
            }
            for t in 0..2 {
                let b = s.built[t] as usize;
                if b > 0 {
                    *o += d.buildings[t].popularity[b - 1] as f64;
                }
            }
            // Fractional: each resource counts toward the next lot of 5 (L754).
            *o += self.leftover(p) as f64 / d.resources_per_point as f64;
            if self.helmet as usize == p {
                *o += d.helmet_pp as f64;
            }
        }
        // Influence for the rounds still to score, at today's ranks: this round's too, unless
        // it is already scored (revenue, Helmet and hiring follow its scoring, L643-L692).
        let scored = matches!(
            self.phase,
            Phase::Revenue { .. } | Phase::Helmet | Phase::Hire { .. } | Phase::Over
        );
        let first = self.round as usize - 1 + scored as usize;
        let rounds_left = d.round_pp.len().saturating_sub(first);
        let mean = |f: fn(&(u8, u8)) -> u8| {
            d.round_pp[first.min(d.round_pp.len())..]
                .iter()
                .map(f)
                .map(f64::from)
                .sum::<f64>()
        };
        let (gold, silver) = if rounds_left > 0 && self.phase != Phase::Over {
            (mean(|r| r.0), mean(|r| r.1))
        } else {
            (0.0, 0.0)
        };
        for &i in self.islands() {
            let i = i as usize;
            let best = (0..n).map(|p| self.influence[i][p]).max().unwrap_or(0);
            if best <= 0 {
                continue;
            }
            let top = (0..n).filter(|&p| self.influence[i][p] == best).count() as f64;
            for p in 0..n {
                if self.influence[i][p] == best {
                    out[p] += (gold + if top > 1.0 { silver } else { 0.0 }) / top;
                }
            }
            if top == 1.0 {
                let second = (0..n)
                    .map(|p| self.influence[i][p])
                    .filter(|&v| v < best)
                    .max()
                    .unwrap_or(0);
                if second > 0 {
                    let k = (0..n).filter(|&p| self.influence[i][p] == second).count() as f64;
                    for p in 0..n {
                        if self.influence[i][p] == second {
                            out[p] += silver / k;
                        }
                    }
                }
            }
        }
        // Army at today's values.
        let table: &[u8] = if n == 2 { &d.army_pp.0 } else { &d.army_pp.1 };
        for p in 0..n {
            let v = self.army(p);
            let better = (0..n).filter(|&q| self.army(q) > v).count();
            out[p] += table.get(better).copied().unwrap_or(0) as f64;
        }
        out
    }

    /// The state as `seat` sees it: every other seat's hand reduced to the Heroes known to
    /// be in it, and the rest of its hand and deck as one pile (in `deck`).
    ///
    /// Under `hero_discard_public = false` (DAI-27) only the top card of another seat's
    /// discard pile stays visible; the rest of the pile joins the unseen pile. The other
    /// seats' private histories are cleared.
    pub fn canonical(&self, seat: Player) -> State {
        let mut c = self.clone();
        c.cache = OptionCache::default();
        let public = self.params().hero_discard_public;
        for q in 0..self.n() {
            if q != seat {
                let s = &mut c.seats[q];
                let known = self.known_hand[q] & s.hand;
                let mut unseen = s.hand | s.deck;
                if !public {
                    let top = self.top_bit(q);
                    unseen |= s.discard & !top;
                    s.discard = top;
                }
                s.deck = unseen & !known;
                s.hand = known;
                c.recall[q] = 0;
            }
        }
        c
    }

    /// The top card of `q`'s discard pile as a set (0 when the pile is empty).
    fn top_bit(&self, q: usize) -> u64 {
        match self.discard_top[q] {
            NONE => 0,
            c => 1u64 << c,
        }
    }

    /// The pile sizes every seat sees: hand, deck and discard of each seat.
    fn pile_sizes(&self) -> [[u32; 3]; MAX_PLAYERS] {
        let mut out = [[0; 3]; MAX_PLAYERS];
        for (p, o) in out.iter_mut().enumerate().take(self.n()) {
            let s = &self.seats[p];
            *o = [
                s.hand.count_ones(),
                s.deck.count_ones(),
                s.discard.count_ones(),
            ];
        }
        out
    }
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}: {}", self.seat, self.text)
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.data();
        writeln!(
            f,
            "round {} phase {:?} actor {} helmet {}",
            self.round, self.phase, self.actor, self.helmet
        )?;
        for p in 0..self.n() {
            let s = &self.seats[p];
            writeln!(
                f,
                "seat {p} {}: pp {} res {:?} storage {}/{} loose {:#x} restored {:?} hand {:#x} built {:?} board {:?}",
                d.clans[s.clan as usize].name,
                s.popularity,
                s.res,
                self.storage_used(p),
                s.storage,
                s.loose,
                &s.restored[..],
                s.hand,
                s.built,
                s.board
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| **d != 0)
                    .map(|(sp, d)| format!(
                        "{}={}",
                        SPACE_NAMES[sp],
                        self.die_value[*d as usize - 1]
                    ))
                    .collect::<Vec<_>>()
            )?;
        }
        for &i in self.islands() {
            let i = i as usize;
            writeln!(
                f,
                "{}: gov {:?} bld {:?} shadow {:?} altar {:?} influence {:?} nml {:?}",
                d.islands[i].name,
                &self.gov[i][..d.islands[i].sites.len()],
                &self.bld[i][..d.islands[i].sites.len()],
                &self.shadow[i][..d.islands[i].shadow_spaces.len()],
                &self.altar[i][..d.islands[i].altars.len()],
                &self.influence[i][..self.n()],
                &self.nml[i][..d.nml as usize]
            )?;
        }
        write!(f, "stack {:?}", &self.stack[..self.sp as usize])
    }
}

fn check_rules(params: &Params, players: usize) -> Result<DaimyoRules, ParamError> {
    let owner = "game daimyo";
    let invalid = |reason: String| ParamError::Invalid {
        owner: owner.into(),
        reason,
    };
    let data = match params.data.text() {
        None => Data::builtin(),
        Some(text) => Data::parse(text, params.data.path().unwrap_or("?"))?,
    };
    params.returns.check("returns", players, owner)?;
    if !(1..=2).contains(&params.yellow_spaces) {
        return Err(invalid(format!(
            "yellow_spaces = {} must be 1 or 2 (DAI-10)",
            params.yellow_spaces
        )));
    }
    if let Some(f) = params.first_player.0
        && f as usize >= players
    {
        return Err(invalid(format!(
            "first_player = {f} is not a seat of a {players}-player game (0..={})",
            players - 1
        )));
    }
    let clans = match (params.clan_assignment, &params.clans.0) {
        (super::ClanAssignment::Fixed, None) => {
            return Err(invalid(
                "clan_assignment = fixed needs clans: one clan name per seat".into(),
            ));
        }
        (super::ClanAssignment::Random, Some(_)) => {
            return Err(invalid(
                "clans lists a clan per seat but clan_assignment = random; set clan_assignment=fixed"
                    .into(),
            ));
        }
        (_, None) => {
            if data.clans.len() < players {
                return Err(invalid(format!(
                    "the data has {} clans for {players} players",
                    data.clans.len()
                )));
            }
            None
        }
        (_, Some(names)) => {
            if names.len() != players {
                return Err(invalid(format!(
                    "clans lists {} clans for {players} players; give one per seat",
                    names.len()
                )));
            }
            let mut out = Vec::new();
            for name in names {
                let c = data
                    .clans
                    .iter()
                    .position(|c| &c.name == name)
                    .ok_or_else(|| {
                        invalid(format!(
                            "clans: unknown clan '{name}'; valid: random, or names from {}",
                            data.clans
                                .iter()
                                .map(|c| c.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })?;
                if out.contains(&(c as u8)) {
                    return Err(invalid(format!("clans: '{name}' is listed twice")));
                }
                out.push(c as u8);
            }
            Some(out)
        }
    };
    let count = data.count(players).clone();
    let mut by_strength = [0u64; 64];
    for (c, h) in data.heroes.iter().enumerate() {
        if (h.strength as usize) < 64 {
            by_strength[h.strength as usize] |= 1u64 << c;
        }
    }
    let (mut site_mask, mut shadow_mask) = (0u64, 0u64);
    for &i in &count.islands {
        let isl = &data.islands[i as usize];
        for s in 0..isl.sites.len() {
            site_mask |= 1 << (i as usize * MAX_SITES + s);
        }
        for s in 0..isl.shadow_spaces.len() {
            shadow_mask |= 1 << (i as usize * MAX_SHADOW_SPACES + s);
        }
    }
    Ok(DaimyoRules {
        by_strength,
        site_mask,
        shadow_mask,
        islands: count.islands,
        dice: count.dice,
        clans,
        data,
    })
}

impl Game for State {
    type Action = Action;
    type Params = Params;
    type RulesData = DaimyoRules;
    type Observation = Observation;
    const TYPE: GameType = GameType {
        short_name: "daimyo",
        long_name: "Daimyo: Rebirth of the Empire",
        description: "Daimyo: Rebirth of the Empire, 2-4 players (dice drafting, clans, heroes, relics, influence; synthetic Hero list)",
        min_players: 2,
        max_players: 4,
        default_players: 2,
        dynamics: Dynamics::Sequential,
        chance_mode: ChanceMode::SampledStochastic,
        information: Information::Imperfect,
        utility: UtilityKind::ConstantSum,
        num_action_ids: super::action::KINDS * 256,
        perfect_recall: true,
    };
    /// The headline command (`sim tournament --game daimyo --agents mcts,greedy`) must
    /// finish 100,000 games within an hour on 2 cores: 100 iterations per decision, with
    /// playouts cut at the end of the round and scored by the value estimate (see the
    /// module docs, "Search defaults").
    const AGENT_DEFAULTS: &'static [(&'static str, &'static str)] = &[
        ("mcts", "iters=100,rounds=1"),
        ("ismcts", "iters=100,rounds=1"),
        ("cfr", "iters=100,rounds=1"),
    ];
    const SEAT_METRICS: &'static [Column] = &[
        Column {
            name: "pp_influence",
            meaning: "PP from influence scoring at the ends of rounds (daimyo.txt L643)",
        },
        Column {
            name: "pp_relics",
            meaning: "PP for restored Relics at the end (L712)",
        },
        Column {
            name: "pp_buildings",
            meaning: "PP for Techno-farms and Radio towers at the end (L716)",
        },
        Column {
            name: "pp_army",
            meaning: "PP for the army ranking at the end (L726)",
        },
        Column {
            name: "pp_helmet",
            meaning: "PP for holding the Mighty Helmet at the end (L752), 0 or 2",
        },
        Column {
            name: "pp_resources",
            meaning: "PP for lots of 5 leftover Rice/Metal/Crystal (L754)",
        },
        Column {
            name: "pp_other",
            meaning: "PP from storage increases beyond the maximum (L302) and Heroes",
        },
        Column {
            name: "heroes_played",
            meaning: "Heroes played (by strength or the Noble ability)",
        },
        Column {
            name: "heroes_hired",
            meaning: "Heroes hired from the market",
        },
        Column {
            name: "relics_restored",
            meaning: "Relics restored",
        },
        Column {
            name: "assassinations",
            meaning: "enemy Governors eliminated by this seat's Shadows",
        },
        Column {
            name: "actions_villagers",
            meaning: "Help from Villagers main actions resolved from a die (L296)",
        },
        Column {
            name: "actions_production",
            meaning: "Production main actions resolved from a die (L340)",
        },
        Column {
            name: "actions_relic",
            meaning: "Relic main actions resolved from a die (L354)",
        },
        Column {
            name: "actions_recruitment",
            meaning: "Recruitment main actions resolved from a die (L454)",
        },
        Column {
            name: "actions_construction",
            meaning: "Construction main actions resolved from a die (L507)",
        },
        Column {
            name: "actions_tax",
            meaning: "dice placed on Tax (L536)",
        },
    ];
    const SEAT_LABELS: &'static [Column] = &[Column {
        name: "clan",
        meaning: "the seat's clan (nature, tech, nomad, noble)",
    }];

    fn build_rules(params: &Params, players: usize) -> Result<DaimyoRules, ParamError> {
        check_rules(params, players)
    }

    fn new_game<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> Self {
        State::setup(rules, chance)
    }

    fn rules(&self) -> RulesRef<State> {
        self.rules
    }

    fn turn(&self) -> Turn {
        if self.phase == Phase::Over {
            Turn::Terminal
        } else {
            Turn::Player(self.actor as usize)
        }
    }

    fn legal_actions(&self, player: Player, out: &mut Vec<Action>) {
        out.clear();
        if self.phase == Phase::Over || player != self.actor as usize {
            return;
        }
        // The generators mostly write in id order without repeats: then the list is
        // already what sorting and deduplicating would give.
        self.options(out);
        if !out.windows(2).all(|w| w[0].0 < w[1].0) {
            out.sort_unstable();
            out.dedup();
        }
    }

    /// The uniform choice of [`crate::game::uniform_legal_action`] (the same draw, the
    /// same action) from the options `settle` already built (`OptionCache`); builds the
    /// list only when there is no valid cache.
    fn random_action(&self, player: Player, buf: &mut Vec<Action>, rng: &mut SimRng) -> Action {
        use rand::RngExt;
        match self.cache.get() {
            Some(list) if player == self.actor as usize && self.phase != Phase::Over => {
                // A buffer per thread: the debug check allocates nothing in the games it
                // watches (`tests/integration/alloc.rs`).
                #[cfg(debug_assertions)]
                DEBUG_FRESH.with_borrow_mut(|fresh| {
                    self.legal_actions(player, fresh);
                    assert!(fresh[..] == list[..], "the option cache is stale");
                });
                list[rng.random_range(0..list.len())]
            }
            _ => crate::game::uniform_legal_action(self, player, buf, rng),
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(
        &mut self,
        player: Player,
        action: Action,
        chance: &mut C,
    ) {
        debug_assert_eq!(player, self.actor as usize);
        // Every decision is public (a discarded Hero was the pile's top card).
        self.history = record(self.history, ((player as u64) << 16) | action.0 as u64);
        self.choose(action, chance);
        self.ply += 1;
        self.settle(chance);
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<Action>, _: &mut C) {
        unreachable!("Daimyo has no simultaneous nodes");
    }

    fn metrics(&self, out: &mut Metrics) {
        for p in 0..self.n() {
            let s = &self.seats[p];
            let m = &mut out.seat[p];
            for (slot, &v) in m.iter_mut().zip(&s.pp) {
                *slot = v as i32;
            }
            m[7] = s.heroes_played as i32;
            m[8] = s.heroes_hired as i32;
            m[9] = s.restored.iter().map(|&r| r as i32).sum();
            m[10] = s.assassinations as i32;
            for (slot, &k) in m[11..11 + SPACES].iter_mut().zip(&s.mains) {
                *slot = k as i32;
            }
        }
    }

    fn labels(&self, out: &mut Labels) {
        let d = self.data();
        for p in 0..self.n() {
            out.seat[p][0] = d.clans[self.seats[p].clan as usize].name.as_str();
        }
    }

    fn returns(&self) -> PerPlayer<f64> {
        self.params()
            .returns
            .returns(&self.ranks(), &self.scores(), self.n())
    }

    fn value(&self) -> PerPlayer<f64> {
        if self.phase == Phase::Over {
            return self.returns();
        }
        let n = self.n();
        let projected = self.projected();
        let win = crate::game::win_share_from_scores(&projected, n, 6.0);
        self.params().returns.estimate(&win, &projected, n)
    }

    /// Running score: the Popularity points (PP) so far, earned round by round
    /// (daimyo.txt L19-L33); the end-of-game points are added only at the end.
    const HAS_RUNNING_SCORE: bool = true;

    fn scores(&self) -> PerPlayer<i32> {
        let mut out = [0; MAX_PLAYERS];
        for (p, o) in out.iter_mut().enumerate().take(self.n()) {
            *o = self.seats[p].popularity as i32;
        }
        out
    }

    /// Most PP; ties: most Rice + Metal + Crystal left, then shared (L758-L760).
    fn ranks(&self) -> PerPlayer<u8> {
        let mut keys = [(0i32, 0u32); MAX_PLAYERS];
        for (p, k) in keys.iter_mut().enumerate().take(self.n()) {
            *k = (self.seats[p].popularity as i32, self.leftover(p));
        }
        crate::game::ranks_by_key(&keys, self.n())
    }

    /// A digest of everything the seat has seen (perfect recall): its current view
    /// ([`State::canonical`]: the public state, its own hand and deck, the pile sizes),
    /// the public history ([`State::history`]: every decision and public chance outcome
    /// since setup) and its private history (its own Hero draws, [`State::recall`]).
    fn info_key(&self, player: Player) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        self.canonical(player).hash(&mut h);
        self.pile_sizes().hash(&mut h);
        mix64(h.finish())
    }

    fn observation(&self, seat: Player) -> Observation {
        let sizes = self.pile_sizes();
        let sizes: Vec<[u32; 3]> = sizes[..self.n()].to_vec();
        Observation {
            seat,
            text: format!(
                "{}\npile sizes (hand, deck, discard) {sizes:?}",
                self.canonical(seat)
            ),
        }
    }

    /// Resamples the only hidden part (DAI-27): which of another seat's Heroes in hand and
    /// deck are in the hand. The union of hand and deck is public (the clan's starting
    /// Heroes, hires, and the face-up discard pile that refills the deck); the Heroes known
    /// to be in hand (hired, not played since) stay; the rest of the hand is drawn uniformly
    /// from the unknown cards. The relic bag, the Hero deck and the dice are drawn lazily,
    /// so there is nothing else to resample.
    fn determinize(&self, observer: Player, rng: &mut SimRng) -> Self {
        let mut out = self.clone();
        // Another seat's hand may change, and with it the options.
        out.cache = OptionCache::default();
        let public = self.params().hero_discard_public;
        for q in 0..self.n() {
            if q == observer {
                continue;
            }
            let top = self.top_bit(q);
            let seat = &mut out.seats[q];
            let known = self.known_hand[q] & seat.hand;
            let mut pool = (seat.hand | seat.deck) & !known;
            if !public {
                // Only the top of the discard pile is seen (DAI-27 alternative).
                pool |= seat.discard & !top;
            }
            let mut draw = |k: u32| {
                let mut got = 0u64;
                for _ in 0..k {
                    let i = rng.below(pool.count_ones());
                    let c = bits(pool).nth(i as usize).expect("i < popcount");
                    pool &= !(1u64 << c);
                    got |= 1u64 << c;
                }
                got
            };
            let hand = known | draw(seat.hand.count_ones() - known.count_ones());
            if !public {
                seat.discard = top | draw(seat.discard.count_ones() - top.count_ones());
            }
            seat.hand = hand;
            seat.deck = pool;
        }
        out
    }

    fn action_id(action: Action) -> usize {
        action.0 as usize
    }

    fn action_from_id(id: usize) -> Option<Action> {
        Action::from_id(id)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn round(&self) -> u32 {
        self.round as u32
    }

    fn end_condition(&self) -> &'static str {
        if self.phase == Phase::Over {
            "rounds_done"
        } else {
            ""
        }
    }

    fn max_plies(&self) -> u32 {
        20_000
    }

    /// A documented bound, far above any game seen (the longest of 10 million random games
    /// in the soak is a small fraction of it).
    fn max_game_length(_: &Rules<Self>) -> u32 {
        20_000
    }
}
