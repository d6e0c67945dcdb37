//! The Daimyo position (docs/rules/daimyo.md): the board constants, the
//! [`State`] value and its parts ([`Phase`], [`Frame`], [`SeatState`], [`TurnFlags`]), and the
//! small rule primitives every other part builds on (resources and the supply ledger,
//! influence, Hero draws and discards, the relic bag, tiles, costs, the effect stack).
//!
//! The rest of the rules live beside this file: [`super::setup`] (the rules value and the
//! setup), [`super::options`] (the legal options and their cache), [`super::effects`]
//! (resolving a decision), [`super::scoring`] (influence and final scoring, the projected
//! value), [`super::observation`] (what a seat sees) and [`super::game_impl`] (the
//! [`crate::Playable`] implementation).

use serde::{Deserialize, Serialize};

use super::data::{
    Amounts, Data, Effect, MAX_ALTARS, MAX_DICE, MAX_ISLANDS, MAX_NML, MAX_SHADOW_SPACES,
    MAX_SITES, Resource,
};
use super::options::OptionCache;
use super::setup::RulesData;
use super::{AltarChoice, BagEmpty, BlindDuplicate, Params, RelicBeyondTokens};
use crate::game::{Chance, MAX_PLAYERS, RulesRef};
use crate::rng::mix64;

/// Clan-board main-action spaces (DAI-3.4, DAI-4.14): Help from Villagers, Production, Relic,
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
/// Die colour of each main space: 0 blue, 1 green, 2 red; 3 any (Tax) (DAI-3.4, DAI-4.14).
pub(super) const SPACE_COLOUR: [u8; SPACES] = [0, 1, 1, 2, 2, 3];
/// Empty marker in the board arrays.
pub(super) const NONE: u8 = u8::MAX;
/// A face-down No man's land tile (`nml_visible = false`, DAI-13): its kind is
/// drawn from the unseen tiles (counted in the bag) when it is revealed.
pub const HIDDEN: u8 = 0xFE;
/// Die location: in the pool.
pub(super) const POOL: u8 = 0xF0;
/// Die location: set aside this round (DAI-11).
pub(super) const ASIDE: u8 = 0xF1;
/// Die location: not in play at this player count.
pub(super) const UNUSED: u8 = 0xF2;

/// Points by source (indices of [`SeatState::pp`]).
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

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Setup: Governor placements, `step` 0..2n (DAI-2.10).
    SetupGovernor {
        /// 0..n first Governors (Rice site, own island, with the Scavenger), n..2n second.
        step: u8,
    },
    /// A player takes a die (DAI-3.4).
    PickDie,
    /// A player's turn after the die: the menu or an effect's sub-choice.
    Turn,
    /// End of round: revenue, `k`-th seat in Helmet order (DAI-6.4).
    Revenue {
        /// Position in Helmet order.
        k: u8,
    },
    /// End of round: the Helmet holder gives it or keeps it (DAI-6.5).
    Helmet,
    /// End of round: hiring, `k`-th seat in Helmet order (DAI-6.6).
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
    /// A played Hero goes to its owner's discard once its effect is resolved (DAI-5.2).
    HeroDone(u8),
    /// Place the uncovered Bonus Action tile (DAI-4.12).
    PlaceTile(u8),
    /// Discard a Hero (sub 0: which card) then shift a die (sub 1) (DAI-5.3).
    DiscardShift {
        /// 0 choose the card, 1 choose the shift.
        sub: u8,
    },
    /// Make room for the Relic tile of this kind, then add it (DAI-4.6).
    MakeRoom(u8),
    /// Choose the Governor a Shadow on this island eliminates (DAI-4.11).
    Victim(u8),
    /// The current seat's revenue is complete (its yellow tiles resolved).
    EndRevenue,
    /// Choose the altar of the Relic of this colour just completed (`altar_choice =
    /// owner_chooses`, DAI-4.7).
    Altar(u8),
}

/// One seat's clan board and supply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatState {
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
    /// Recruited at the last cost since the last reset (DAI-4.9).
    pub at_max: bool,
    /// Shadows recruited this game (DAI-4.11).
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
    /// A Hero was played by strength (DAI-5.2).
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
    pub(super) rules: RulesRef<State>,
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
    pub seats: [SeatState; MAX_PLAYERS],
    /// Holder of the Mighty Helmet.
    pub helmet: u8,
    /// Someone took the Helmet this round by Help from Villagers (DAI-18).
    pub helmet_taken: bool,
    /// The round's first blue die was placed (DAI-18 first_blue_die).
    pub blue_placed: bool,
    /// Round 1..=rounds.
    pub round: u8,
    /// The first player of this round (fixed for the round, DAI-3.3).
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
    /// Heroes every seat knows to be in each seat's hand: hired ones (DAI-6.6 "Heroes you
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
    /// (perfect recall for [`GameState::info_key`](crate::game::GameState::info_key)).
    pub history: u64,
    /// Digest of each seat's private history (its own Hero draws and hidden discards).
    pub recall: [u64; MAX_PLAYERS],
    /// The options of the current decision, built once by `settle` ([`OptionCache`]).
    #[serde(skip)]
    pub(crate) cache: OptionCache,
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
pub(super) fn record(h: u64, x: u64) -> u64 {
    mix64(h.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ x)
}

pub(super) use crate::bits::ones as bits;

impl State {
    pub(super) fn n(&self) -> usize {
        self.rules.players()
    }

    pub(super) fn rd(&self) -> &'static RulesData {
        self.rules.get().data()
    }

    pub(super) fn data(&self) -> &'static Data {
        &self.rd().data
    }

    pub(super) fn params(&self) -> &'static Params {
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

    /// Storage used: loose tiles + restored Relics (DAI-4.7).
    pub fn storage_used(&self, p: usize) -> u32 {
        let s = &self.seats[p];
        s.loose.count_ones() + s.restored.iter().map(|&r| r as u32).sum::<u32>()
    }

    /// Sum of the dice on seat `p`'s board (DAI-5.4).
    pub fn dice_sum(&self, p: usize) -> u32 {
        self.seats[p]
            .board
            .iter()
            .filter(|&&d| d > 0)
            .map(|&d| self.die_value[d as usize - 1] as u32)
            .sum()
    }

    /// Bitmask of the sums of non-empty subsets of seat `p`'s dice (DAI-5.2).
    pub(super) fn subset_sums(&self, p: usize) -> u64 {
        let mut sums: u64 = 1; // the empty subset, sum 0
        for &d in &self.seats[p].board {
            if d > 0 {
                sums |= sums << self.die_value[d as usize - 1];
            }
        }
        // Drop the empty subset only: a die of any value makes a non-empty subset.
        sums & !1
    }

    pub(super) fn push(&mut self, f: Frame) {
        let sp = self.sp as usize;
        assert!(sp < STACK, "effect stack overflow");
        self.stack[sp] = Some(f);
        self.sp += 1;
    }

    pub(super) fn push_steps(&mut self, steps: &[Effect], from_die: bool) {
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

    pub(super) fn set_top(&mut self, f: Frame) {
        self.stack[self.sp as usize - 1] = Some(f);
    }

    pub(super) fn pop(&mut self) {
        self.sp -= 1;
        self.stack[self.sp as usize] = None;
    }

    /// Seat `p` takes `v` of resource `r` from the general supply; under `supply_limited`
    /// a gain beyond what the supply holds is lost (DAI-14).
    #[inline]
    pub(super) fn gain_res(&mut self, p: usize, r: usize, v: u16) {
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
    pub(super) fn spend_res(&mut self, p: usize, r: usize, v: u16) {
        self.seats[p].res[r] -= v;
        self.supply[r] += v as i32;
    }

    pub(super) fn gain(&mut self, p: usize, a: &Amounts) {
        for (r, &v) in a.iter().enumerate() {
            if v > 0 {
                self.gain_res(p, r, v as u16);
            }
        }
    }

    /// A public chance outcome in `0..n`, appended to the public history.
    #[inline]
    pub(super) fn public_below<C: Chance + ?Sized>(&mut self, chance: &mut C, n: u32) -> u32 {
        let k = chance.below(n);
        self.history = record(self.history, 0x1_0000_0000 | k as u64);
        k
    }

    pub(super) fn can_pay(&self, p: usize, a: &Amounts) -> bool {
        a.iter()
            .enumerate()
            .all(|(r, &v)| self.seats[p].res[r] >= v as u16)
    }

    pub(super) fn pay(&mut self, p: usize, a: &Amounts) {
        for (r, &v) in a.iter().enumerate() {
            if v > 0 {
                self.spend_res(p, r, v as u16);
            }
        }
    }

    pub(super) fn add_influence(&mut self, island: usize, p: usize, d: i16) {
        let cap = self
            .params()
            .influence_cap
            .0
            .map_or(i16::MAX, |c| c.min(i16::MAX as u16) as i16);
        let v = &mut self.influence[island][p];
        *v = (*v + d).clamp(0, cap);
    }

    pub(super) fn add_pp(&mut self, p: usize, src: usize, v: i16) {
        self.seats[p].popularity += v;
        self.seats[p].pp[src] += v;
    }

    /// Storage +1 `n` times; beyond the maximum each step is +1 PP (DAI-4.6, DAI-07).
    pub(super) fn storage_up(&mut self, p: usize, n: u8) {
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
    /// (DAI-4.1); with both empty nothing is drawn (DAI-5.2).
    pub(super) fn draw_hero<C: Chance + ?Sized>(&mut self, p: usize, chance: &mut C) {
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
    pub(super) fn put_on_discard(&mut self, p: usize, c: usize) {
        self.seats[p].discard |= 1u64 << c;
        self.discard_top[p] = c as u8;
    }

    /// Draws a tile kind from the bag, refilling it from the Black market when empty
    /// (DAI-13 `bag_empty`); `None` when nothing is left.
    pub(super) fn draw_tile<C: Chance + ?Sized>(&mut self, chance: &mut C) -> Option<u8> {
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
    pub(super) fn draw_kind<C: Chance + ?Sized>(&mut self, chance: &mut C) -> u8 {
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

    /// Refills No man's land slot `slot` of `island` from the bag (DAI-4.4, DAI-20): face up,
    /// or face down under `nml_visible = false` (DAI-13).
    pub(super) fn refill<C: Chance + ?Sized>(
        &mut self,
        island: usize,
        slot: usize,
        chance: &mut C,
    ) {
        self.nml[island][slot] = if self.params().nml_visible {
            self.draw_tile(chance).unwrap_or(NONE)
        } else if self.bag_ready() {
            HIDDEN
        } else {
            NONE
        };
    }

    /// Whether seat `p` can take the No man's land tile `k` (a kind, or [`HIDDEN`]).
    pub(super) fn can_take_slot(&self, p: usize, k: u8) -> bool {
        match k {
            NONE => false,
            // A face-down tile is taken blind (DAI-4.6 applies: drawn first, room made after).
            HIDDEN => {
                self.storage_used(p) < self.seats[p].storage as u32 || self.seats[p].loose != 0
            }
            k => self.can_take(p, k),
        }
    }

    /// Whether seat `p` may hold a tile of `kind` (DAI-4.5: no second copy of a loose tile).
    fn may_hold(&self, p: usize, kind: u8) -> bool {
        self.seats[p].loose & (1 << kind) == 0
    }

    /// Whether seat `p` can take a tile of `kind` now: no duplicate, and room in
    /// storage or a loose tile to send to the Black market (DAI-4.6).
    fn can_take(&self, p: usize, kind: u8) -> bool {
        self.may_hold(p, kind) && self.has_room(p)
    }

    /// Room in storage or a loose tile to send to the Black market (DAI-4.6).
    fn has_room(&self, p: usize) -> bool {
        self.storage_used(p) < self.seats[p].storage as u32 || self.seats[p].loose != 0
    }

    /// The Black-market kinds seat `p` can take now (bit `k`: [`State::can_take`] of a
    /// kind in the Black market).
    pub(super) fn black_market_takeable(&self, p: usize) -> u64 {
        if !self.has_room(p) {
            return 0;
        }
        let stocked = !byte_eq_mask(&self.black_market, 0) & 0xff_ffff;
        stocked & !u64::from(self.seats[p].loose)
    }

    /// `p` receives a tile of `kind` (already out of its source): into storage, asking
    /// for a make-room discard when full (DAI-4.6).
    pub(super) fn receive_tile(&mut self, p: usize, kind: u8) {
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

    /// Adds a tile to loose storage and restores the Relic if complete (DAI-4.7).
    pub(super) fn add_tile(&mut self, p: usize, kind: u8) {
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
            // No Restored-relic token left (DAI-1.3 "6 per Clan").
            if self.params().relic_beyond_tokens == RelicBeyondTokens::RestoreWithoutToken {
                self.seats[p].loose &= !mask;
                self.seats[p].restored[colour] += 1;
            }
            return;
        }
        if self.params().altar_choice == AltarChoice::OwnerChooses && free.clone().count() > 1 {
            // DAI-4.7 "an available altar": the owner chooses (Frame::Altar).
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

    /// Restores seat `p`'s Relic of `colour` with its token on `altar` (DAI-4.7).
    pub(super) fn restore(&mut self, p: usize, colour: usize, altar: usize) {
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
    pub(super) fn free_gov_mask(&self) -> u64 {
        free_mask(&self.gov) & self.rd().site_mask
    }

    /// Free Building spaces, as a set of `island * MAX_SITES + site`.
    #[inline]
    pub(super) fn free_lot_mask(&self) -> u64 {
        free_mask(&self.bld) & self.rd().site_mask
    }

    /// Free Shadow spaces, as a set of `island * MAX_SHADOW_SPACES + space`.
    #[inline]
    fn free_shadow_mask(&self) -> u64 {
        free_mask(&self.shadow) & self.rd().shadow_mask
    }

    pub(super) fn free_gov_sites(&self) -> impl Iterator<Item = (usize, usize)> + use<> {
        bits(self.free_gov_mask()).map(|b| (b / MAX_SITES, b % MAX_SITES))
    }

    pub(super) fn free_lots(&self) -> impl Iterator<Item = (usize, usize)> + use<> {
        bits(self.free_lot_mask()).map(|b| (b / MAX_SITES, b % MAX_SITES))
    }

    pub(super) fn free_shadow_spaces(&self) -> impl Iterator<Item = (usize, usize)> + use<> {
        bits(self.free_shadow_mask()).map(|b| (b / MAX_SHADOW_SPACES, b % MAX_SHADOW_SPACES))
    }

    /// Rice cost of `p`'s next recruit (DAI-4.8).
    pub(super) fn recruit_cost(&self, p: usize, discount: u8, free: bool) -> u16 {
        if free {
            0
        } else {
            self.data().recruit_track[self.seats[p].track as usize].saturating_sub(discount) as u16
        }
    }

    pub(super) fn can_recruit_governor(&self, p: usize, discount: u8, free: bool) -> bool {
        self.seats[p].governors < self.data().governors
            && self.seats[p].res[0] >= self.recruit_cost(p, discount, free)
            && self.free_gov_mask() != 0
    }

    pub(super) fn can_recruit_shadow(&self, p: usize, discount: u8, free: bool) -> bool {
        self.seats[p].shadows < self.data().shadows
            && self.seats[p].res[0] >= self.recruit_cost(p, discount, free)
            && self.free_shadow_mask() != 0
    }

    /// Cost of `p`'s next Building of type `t` (DAI-4.12, DAI-08), with `discount` taken
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

    pub(super) fn can_build(&self, p: usize, t: usize, ignore: bool, discount: u8) -> bool {
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

    /// Places seat `p`'s Governor (+2 influence, DAI-4.10).
    pub(super) fn place_governor(&mut self, p: usize, island: usize, site: usize) {
        self.gov[island][site] = p as u8;
        self.seats[p].governors += 1;
        self.add_influence(island, p, 2);
    }

    /// Recruitment track after a recruit (DAI-4.8, DAI-4.9, DAI-4.9).
    pub(super) fn advance_track(&mut self, p: usize) {
        let last = self.data().recruit_track.len() as u8 - 1;
        let s = &mut self.seats[p];
        if s.track >= last {
            s.at_max = true;
        } else {
            s.track += 1;
        }
    }

    pub(super) fn can_reset(&self, p: usize) -> bool {
        self.seats[p].at_max && self.can_pay(p, &self.data().recruit_reset)
    }

    pub(super) fn reset_track(&mut self, p: usize) {
        self.seats[p].track = 0;
        self.seats[p].at_max = false;
    }

    /// Eliminates the Governor on `island`/`site` (DAI-4.11).
    pub(super) fn kill(&mut self, attacker: usize, island: usize, site: usize) {
        let victim = self.gov[island][site] as usize;
        self.gov[island][site] = NONE;
        self.seats[victim].governors -= 1;
        self.add_influence(island, victim, -2);
        let comp = self.data().kill_compensation;
        self.gain(victim, &comp);
        self.seats[attacker].assassinations += 1;
    }

    pub(super) fn enemy_governors(
        &self,
        p: usize,
        island: usize,
    ) -> impl Iterator<Item = usize> + '_ {
        (0..self.data().islands[island].sites.len())
            .filter(move |&s| self.gov[island][s] != NONE && self.gov[island][s] as usize != p)
    }

    /// The Hero effect of `card` is played by `p` (DAI-5.2, DAI-5.2).
    pub(super) fn play_hero(&mut self, p: usize, card: usize) {
        self.seats[p].hand &= !(1u64 << card);
        self.known_hand[p] &= !(1u64 << card);
        self.seats[p].heroes_played += 1;
        self.push(Frame::HeroDone(card as u8));
        let steps = &self.data().heroes[card].effect;
        self.push_steps(steps, false);
    }

    pub(super) fn main_steps(&self, space: usize) -> &'static [Effect] {
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
