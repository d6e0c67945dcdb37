//! Who knows where which card is, and consistent worlds for determinization.
//!
//! A [`Knowledge`] tracks a pool of up to [`MAX_POOL`] distinct cards (card `i` is bit `i`
//! of a [`CardSet`]) spread over up to [`MAX_ZONES`] zones that the game names by index:
//! each seat's hand, the deck, the removed cards, a discard pile, a face-up market, the
//! cards put under the deck... A seat knows where a card is when
//! - the card is in a zone the seat always sees (its [`Knowledge::viewers`]: a seat sees
//!   its own hand, everybody sees a face-up market), or
//! - the seat saw the card arrive where it is: the game says who saw each move
//!   ([`Knowledge::move_card`]'s `seen_by`), or shows a card later
//!   ([`Knowledge::reveal`]).
//!
//! Knowledge of a card is exact or nothing: when a card moves, the seats in `seen_by` (and
//! the new zone's viewers) know it, everybody else forgets it. Zone sizes are public.
//!
//! [`Knowledge::sample`] draws a world consistent with what one observer knows: every card
//! whose location the observer knows stays; the cards it does not know are dealt
//! uniformly at random into the places they occupied (each zone keeps its number of
//! unknown cards), so every consistent world is equally likely. The other seats'
//! knowledge is carried along (a seat that knew "the card in this slot of the deck" knows
//! the card dealt into that slot), so the sampled world is itself a consistent state. All
//! of it works on fixed-size arrays and bitsets: no allocation.
//!
//! # What it carries for Merchants of Dunhuang
//!
//! - Setup (DUN-2.3: "Each player draws 3 cards and keeps 1 card in hand. The
//!   others are removed from the game, face down"): move the two cards to the `removed`
//!   zone with `seen_by` = that player. Only that player keeps them out of its samples.
//! - Cards put at the bottom of the drawing pile (DUN-5.5, DUN-5.6): a `bottom` zone (drawn
//!   after the rest of the pile), `seen_by` = the player who put them there.
//! - Exchanges (DUN-5.9: "randomly take two goods from their hand. Then, give them two goods
//!   from your hand"; DUN-5.10): each moved card is seen by the two seats involved; the other
//!   seats only see the hand sizes change.
//! - Lazy draws ([`Knowledge::draw`]): a uniformly random card of the pile, at the moment
//!   of drawing.
//!
//! # What it does not model
//!
//! - Partial knowledge ("the card I gave away is in her hand *or* in the removed pile",
//!   "she holds two Silk") is not represented: a moved card is known exactly or not at
//!   all. A game whose seats can deduce such facts keeps them itself.
//! - Order inside a zone: zones are sets (a pile drawn lazily at random has no order).
//!   A game with an ordered pile splits it into zones (the pile, the cards under it).
//! - Goofspiel's hidden information is not where cards are but which card each seat bid
//!   in each round, constrained by who won the round; it has its own sampler
//!   ([`crate::games::goofspiel`]).

use serde::{Deserialize, Serialize};

use crate::bits::nth_bit64;
use crate::game::{Chance, MAX_PLAYERS, Seat, SeatSet};
use crate::rng::mix64;

/// Largest pool: cards are bits of a `u64` (Dunhuang has 55 goods cards).
pub const MAX_POOL: usize = 64;

/// Largest number of zones.
pub const MAX_ZONES: usize = 16;

/// A set of cards of the pool: bit `i` = card `i`.
pub type CardSet = u64;

/// A zone index, `0..num_zones`; the game gives the zones their meaning.
pub type Zone = usize;

/// Where every card of a pool is, and which seat knows it (see the module docs).
/// Serialised field by field (for saved positions); a game's `validate` checks a loaded
/// value with [`Knowledge::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Knowledge {
    pool: u8,
    num_zones: u8,
    /// The cards in each zone (disjoint, covering the pool).
    zones: [CardSet; MAX_ZONES],
    /// Seats that always see each zone's contents.
    viewers: [SeatSet; MAX_ZONES],
    /// Per seat, the cards whose location it learnt by seeing them move or shown.
    seen: [CardSet; MAX_PLAYERS],
}

impl Knowledge {
    /// A pool of `pool` cards, all in zone `start`, with `viewers[z]` the seats that
    /// always see zone `z` (`viewers.len()` zones). Nobody knows anything else yet.
    ///
    /// # Panics
    /// If `pool > MAX_POOL`, there are no zones or more than [`MAX_ZONES`], or `start` is
    /// not a zone.
    pub fn new(pool: usize, viewers: &[SeatSet], start: Zone) -> Self {
        assert!(pool <= MAX_POOL, "pool of {pool} cards > {MAX_POOL}");
        assert!(
            !viewers.is_empty() && viewers.len() <= MAX_ZONES,
            "{} zones, expected 1..={MAX_ZONES}",
            viewers.len()
        );
        assert!(start < viewers.len(), "start zone {start} is not a zone");
        let mut k = Knowledge {
            pool: pool as u8,
            num_zones: viewers.len() as u8,
            zones: [0; MAX_ZONES],
            viewers: [SeatSet::EMPTY; MAX_ZONES],
            seen: [0; MAX_PLAYERS],
        };
        k.viewers[..viewers.len()].copy_from_slice(viewers);
        k.zones[start] = k.all();
        k
    }

    /// Every card of the pool.
    pub fn all(&self) -> CardSet {
        if self.pool == 64 {
            u64::MAX
        } else {
            (1u64 << self.pool) - 1
        }
    }

    /// Number of cards in the pool.
    pub fn pool(&self) -> usize {
        usize::from(self.pool)
    }

    /// Number of zones.
    pub fn num_zones(&self) -> usize {
        usize::from(self.num_zones)
    }

    /// The cards in `zone`.
    pub fn cards(&self, zone: Zone) -> CardSet {
        self.zones[zone]
    }

    /// The number of cards in `zone` (public).
    pub fn len(&self, zone: Zone) -> u32 {
        self.zones[zone].count_ones()
    }

    /// Whether `zone` is empty.
    pub fn is_empty(&self, zone: Zone) -> bool {
        self.zones[zone] == 0
    }

    /// The seats that always see `zone`.
    pub fn viewers(&self, zone: Zone) -> SeatSet {
        self.viewers[zone]
    }

    /// The zone holding `card`.
    ///
    /// # Panics
    /// If `card` is not in the pool.
    pub fn zone_of(&self, card: usize) -> Zone {
        let b = 1u64 << card;
        self.zones[..self.num_zones()]
            .iter()
            .position(|z| z & b != 0)
            .expect("card in the pool")
    }

    /// Moves `card` to zone `to`. Afterwards exactly the seats in `seen_by` and the viewers
    /// of `to` know where it is (everyone else forgets it, even if they knew where it was).
    pub fn move_card(&mut self, card: usize, to: Zone, seen_by: SeatSet) {
        let b = 1u64 << card;
        debug_assert!(self.all() & b != 0, "card {card} not in the pool");
        // Branch-free (a hot path of card games' playouts): the zones past `num_zones` are
        // always empty, so clearing all of them is harmless.
        for z in &mut self.zones {
            *z &= !b;
        }
        self.zones[to] |= b;
        self.set_seen(b, seen_by);
    }

    /// The seats in `seen_by` know the cards of `b`, the other seats forget them (their
    /// zones' viewers still see them). Branch-free, one mask per seat from [`SEAT_MASKS`].
    fn set_seen(&mut self, b: CardSet, seen_by: SeatSet) {
        let masks = &SEAT_MASKS[usize::from(seen_by.0) & ((1 << MAX_PLAYERS) - 1)];
        for (s, m) in self.seen.iter_mut().zip(masks) {
            *s = (*s & !b) | (b & m);
        }
    }

    /// The seats in `seats` forget where the `cards` are, unless a zone they always see
    /// holds them (as if the cards had moved unseen by them; the cards stay where they
    /// are). E.g. an exchange between two hands that the other seats do not see.
    pub fn forget(&mut self, cards: CardSet, seats: SeatSet) {
        for (p, s) in self.seen.iter_mut().enumerate() {
            if seats.contains(p) {
                *s &= !cards;
            }
        }
    }

    /// [`Knowledge::move_card`] for a card known to be in zone `from`: the same result,
    /// clearing one zone instead of every zone (for the hot paths of playouts).
    #[inline]
    pub fn move_from(&mut self, card: usize, from: Zone, to: Zone, seen_by: SeatSet) {
        debug_assert!(
            self.zones[from] & 1u64 << card != 0,
            "card {card} is not in zone {from}"
        );
        self.move_set(1u64 << card, from, to, seen_by);
    }

    /// [`Knowledge::move_from`] for every card of `cards` at once (all in zone `from`): the
    /// same result as moving them one by one, with one update of who saw them (a deal, a
    /// discard of several cards).
    pub fn move_set(&mut self, cards: CardSet, from: Zone, to: Zone, seen_by: SeatSet) {
        debug_assert!(
            self.zones[from] & cards == cards,
            "cards {cards:#x} are not all in zone {from}"
        );
        self.zones[from] &= !cards;
        self.zones[to] |= cards;
        self.set_seen(cards, seen_by);
    }

    /// Draws a uniformly random card of zone `from` (the `k`-th card for one
    /// `below(len)` pick) and moves it to `to`, seen by `seen_by`; returns it, or `None`
    /// if `from` is empty.
    pub fn draw<C: Chance + ?Sized>(
        &mut self,
        from: Zone,
        to: Zone,
        seen_by: SeatSet,
        chance: &mut C,
    ) -> Option<usize> {
        let z = self.zones[from];
        if z == 0 {
            return None;
        }
        let card = nth_bit64(z, chance.below(z.count_ones()));
        self.move_card(card, to, seen_by);
        Some(card)
    }

    /// Shows `card` where it is to the seats in `to` (they know its location from now on,
    /// until it moves).
    pub fn reveal(&mut self, card: usize, to: SeatSet) {
        for p in to.iter() {
            self.seen[p] |= 1u64 << card;
        }
    }

    /// The cards whose location `seat` knows.
    pub fn known_to(&self, seat: Seat) -> CardSet {
        // Branch-free over every zone (the zones past `num_zones` are empty).
        let mut visible = 0;
        for (z, v) in self.zones.iter().zip(&self.viewers) {
            visible |= z & 0u64.wrapping_sub(u64::from((v.0 >> seat) & 1));
        }
        (self.seen[seat] | visible) & self.all()
    }

    /// The cards whose location `seat` does not know.
    pub fn unknown_to(&self, seat: Seat) -> CardSet {
        self.all() & !self.known_to(seat)
    }

    /// Whether `seat` knows where `card` is.
    pub fn knows(&self, seat: Seat, card: usize) -> bool {
        self.known_to(seat) & (1u64 << card) != 0
    }

    /// A digest of what `seat` knows now: every zone's size and the cards of it that the
    /// seat knows are there. Equal for two states the seat cannot tell apart by card
    /// locations (for [`GameState::info_key`](crate::game::GameState::info_key)).
    pub fn digest(&self, seat: Seat) -> u64 {
        let known = self.known_to(seat);
        (0..self.num_zones()).fold(mix64(self.pool as u64), |h, z| {
            mix64(mix64(h ^ u64::from(self.len(z))) ^ (self.zones[z] & known))
        })
    }

    /// A world consistent with what `observer` knows, drawn uniformly: every card whose
    /// location the observer knows stays in its zone; the unknown cards are dealt at
    /// random into the zones they came from, each zone keeping its number of unknown
    /// cards (so every zone keeps its size). Each consistent world is equally likely (one
    /// `below` pick per unknown card, sequentially without replacement). The other seats'
    /// knowledge follows the slots: a seat that knew where an unknown card was knows where
    /// the card dealt in its place is, with the cards dealt into a zone matched to the
    /// cards they replace in a uniformly random order (so which dealt cards a seat knows
    /// carries no information). No allocation.
    pub fn sample<C: Chance + ?Sized>(&self, observer: Seat, chance: &mut C) -> Knowledge {
        self.sample_mapped(observer, chance).0
    }

    /// [`Knowledge::sample`], also returning the relabelling: `map[old] = new` for every
    /// card `old` unknown to `observer` (the card dealt into its slot); `map[c] = c` for
    /// the cards the observer knows. A game that keeps per-card facts outside the
    /// knowledge (an order under the deck, a batch) moves them with the map, so they
    /// follow the slot as the other seats' knowledge does. Same picks as `sample`.
    pub fn sample_mapped<C: Chance + ?Sized>(
        &self,
        observer: Seat,
        chance: &mut C,
    ) -> (Knowledge, [u8; MAX_POOL]) {
        let unknown = self.unknown_to(observer);
        let mut left = unknown;
        let mut out = *self;
        // map[old] = new, for the unknown cards.
        let mut map = [0u8; MAX_POOL];
        for (c, m) in map.iter_mut().enumerate() {
            *m = c as u8;
        }
        for z in 0..self.num_zones() {
            let mut old = self.zones[z] & unknown;
            let mut dealt = 0u64;
            while old != 0 {
                let card = nth_bit64(left, chance.below(left.count_ones()));
                left &= !(1u64 << card);
                dealt |= 1u64 << card;
                map[old.trailing_zeros() as usize] = card as u8;
                old &= old - 1;
            }
            out.zones[z] = (self.zones[z] & !unknown) | dealt;
        }
        debug_assert_eq!(left, 0);
        for (p, s) in out.seen.iter_mut().enumerate() {
            if p == observer {
                continue;
            }
            let mut moved = self.seen[p] & unknown;
            let mut relabelled = 0u64;
            while moved != 0 {
                relabelled |= 1u64 << map[moved.trailing_zeros() as usize];
                moved &= moved - 1;
            }
            *s = (self.seen[p] & !unknown) | relabelled;
        }
        (out, map)
    }

    /// Checks a value that did not come from play (a loaded position): a pool of at most
    /// [`MAX_POOL`] cards over 1..=[`MAX_ZONES`] zones that are disjoint and cover the
    /// pool, with no card or zone outside it.
    ///
    /// # Errors
    /// Which check failed.
    pub fn check(&self) -> Result<(), String> {
        if usize::from(self.pool) > MAX_POOL {
            return Err(format!("pool of {} cards > {MAX_POOL}", self.pool));
        }
        if self.num_zones == 0 || usize::from(self.num_zones) > MAX_ZONES {
            return Err(format!(
                "{} zones, expected 1..={MAX_ZONES}",
                self.num_zones
            ));
        }
        let mut covered = 0u64;
        for (z, &cards) in self.zones.iter().enumerate() {
            if z >= self.num_zones() && cards != 0 {
                return Err(format!("zone {z} is beyond the {} zones", self.num_zones));
            }
            if covered & cards != 0 || cards & !self.all() != 0 {
                return Err(format!("zone {z} overlaps another zone or leaves the pool"));
            }
            covered |= cards;
        }
        if covered != self.all() || self.seen.iter().any(|s| s & !self.all() != 0) {
            return Err("the zones do not cover the pool exactly".into());
        }
        Ok(())
    }
}

/// `SEAT_MASKS[set][p]`: all ones if seat `p` is in the [`SeatSet`] `set`, else 0.
const SEAT_MASKS: [[CardSet; MAX_PLAYERS]; 1 << MAX_PLAYERS] = {
    let mut t = [[0; MAX_PLAYERS]; 1 << MAX_PLAYERS];
    let mut set = 0;
    while set < 1 << MAX_PLAYERS {
        let mut p = 0;
        while p < MAX_PLAYERS {
            if set & (1 << p) != 0 {
                t[set][p] = u64::MAX;
            }
            p += 1;
        }
        set += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use rand::RngExt;

    use super::*;
    use crate::game::ScriptedChance;
    use crate::rng::test_rng;

    const HAND0: Zone = 0;
    const HAND1: Zone = 1;
    const HAND2: Zone = 2;
    const DECK: Zone = 3;
    const REMOVED: Zone = 4;
    const BOTTOM: Zone = 5;
    const MARKET: Zone = 6;

    /// A 3-seat table: three hands, a deck, removed cards, cards under the deck, a face-up
    /// market.
    fn table(pool: usize) -> Knowledge {
        let all = SeatSet::all(3);
        Knowledge::new(
            pool,
            &[
                SeatSet::single(0),
                SeatSet::single(1),
                SeatSet::single(2),
                SeatSet::EMPTY,
                SeatSet::EMPTY,
                SeatSet::EMPTY,
                all,
            ],
            DECK,
        )
    }

    fn one(p: Seat) -> SeatSet {
        SeatSet::single(p)
    }

    fn pair(a: Seat, b: Seat) -> SeatSet {
        SeatSet(SeatSet::single(a).0 | SeatSet::single(b).0)
    }

    /// `move_from` is `move_card` with the source zone given.
    #[test]
    fn move_from_is_move_card() {
        let mut r = test_rng(3);
        for _ in 0..200 {
            let mut k = random_table(&mut r);
            let mut k2 = k;
            for _ in 0..20 {
                let card = r.random_range(0..k.pool());
                let to = r.random_range(0..k.num_zones());
                let seen = SeatSet(r.random_range(0..8u8));
                let from = k.zone_of(card);
                k.move_card(card, to, seen);
                k2.move_from(card, from, to, seen);
                assert_eq!(k, k2);
            }
        }
    }

    /// `move_set` is `move_from` of each card of the set.
    #[test]
    fn move_set_is_move_from_of_each_card() {
        let mut r = test_rng(5);
        for _ in 0..200 {
            let mut k = random_table(&mut r);
            let mut k2 = k;
            for _ in 0..20 {
                let from = r.random_range(0..k.num_zones());
                let to = r.random_range(0..k.num_zones());
                let cards = k.cards(from) & r.random::<u64>();
                let seen = SeatSet(r.random_range(0..8u8));
                k.move_set(cards, from, to, seen);
                for c in (0..k2.pool()).filter(|&c| cards & 1 << c != 0) {
                    k2.move_from(c, from, to, seen);
                }
                assert_eq!(k, k2);
            }
        }
    }

    /// `forget` is a move of each card to where it is, seen by the other seats (for the
    /// cards' locations: `known_to` of every seat).
    #[test]
    fn forget_is_an_unseen_move_in_place() {
        let mut r = test_rng(4);
        for _ in 0..200 {
            let mut k = random_table(&mut r);
            let mut k2 = k;
            let cards = r.random::<u64>() & k.all();
            let seats = SeatSet(r.random_range(0..8u8));
            k.forget(cards, seats);
            for c in (0..k.pool()).filter(|&c| cards & 1 << c != 0) {
                let keep = (0..3).filter(|&p| !seats.contains(p) && k2.knows(p, c));
                let keep = SeatSet(keep.fold(0, |m, p| m | 1 << p));
                k2.move_card(c, k2.zone_of(c), keep);
            }
            for p in 0..3 {
                assert_eq!(k.known_to(p), k2.known_to(p));
            }
        }
    }

    /// A random game of moves with every kind of visibility.
    fn random_table(r: &mut crate::SimRng) -> Knowledge {
        let mut k = table(r.random_range(12..=55));
        // Setup: each seat draws 3, keeps 1, removes 2 face down (DUN-2.3).
        for p in 0..3 {
            for _ in 0..3 {
                k.draw(DECK, HAND0 + p, one(p), r);
            }
            for _ in 0..2 {
                let c = nth_bit64(k.cards(HAND0 + p), 0);
                k.move_card(c, REMOVED, one(p));
            }
        }
        k.draw(DECK, MARKET, SeatSet::all(3), r);
        for _ in 0..r.random_range(0..12) {
            let p = r.random_range(0..3);
            match r.random_range(0..4) {
                0 => {
                    k.draw(DECK, HAND0 + p, one(p), r);
                }
                1 if k.len(HAND0 + p) > 0 => {
                    // Put a card under the deck (DUN-5.6).
                    let c = nth_bit64(k.cards(HAND0 + p), 0);
                    k.move_card(c, BOTTOM, one(p));
                }
                2 if k.len(HAND0 + p) > 0 => {
                    // Give a card to the next seat (DUN-5.9): both see it.
                    let q = (p + 1) % 3;
                    let c = nth_bit64(k.cards(HAND0 + p), r.random_range(0..k.len(HAND0 + p)));
                    k.move_card(c, HAND0 + q, pair(p, q));
                }
                _ => {
                    if let Some(c) = k.draw(DECK, MARKET, SeatSet::all(3), r) {
                        k.move_card(c, HAND0 + p, SeatSet::all(3));
                    }
                }
            }
        }
        k
    }

    #[test]
    fn moves_track_who_knows() {
        let mut r = test_rng(1);
        let mut k = table(10);
        assert_eq!(k.len(DECK), 10);
        assert_eq!(k.known_to(0), 0);
        let c = k.draw(DECK, HAND0, one(0), &mut r).unwrap();
        assert!(k.knows(0, c) && !k.knows(1, c));
        k.move_card(c, REMOVED, one(0));
        assert!(k.knows(0, c) && !k.knows(1, c), "the remover knows");
        k.move_card(c, HAND1, pair(0, 1));
        assert!(k.knows(0, c) && k.knows(1, c) && !k.knows(2, c));
        k.move_card(c, DECK, one(1));
        assert!(!k.knows(0, c), "moved out of sight: forgotten");
        k.reveal(c, one(2));
        assert!(k.knows(2, c) && k.knows(1, c));
        k.move_card(c, MARKET, SeatSet::EMPTY);
        assert!((0..3).all(|p| k.knows(p, c)), "face up: seen by all");
        assert_eq!(k.zone_of(c), MARKET);
        assert_eq!(k.unknown_to(2).count_ones(), 9);
        let mut empty = table(0);
        assert_eq!(empty.draw(DECK, HAND0, one(0), &mut r), None);
        assert_eq!(table(64).all(), u64::MAX);
    }

    /// Known cards never move, zone sizes are kept, unknown cards stay unknown, the
    /// observer's digest is unchanged, and the other seats know as many cards per zone
    /// as before.
    #[test]
    fn samples_keep_what_the_observer_knows() {
        let mut r = test_rng(2);
        let mut moved = 0;
        for _ in 0..300 {
            let k = random_table(&mut r);
            for obs in 0..3 {
                for _ in 0..5 {
                    let s = k.sample(obs, &mut r);
                    let known = k.known_to(obs);
                    for z in 0..k.num_zones() {
                        assert_eq!(s.cards(z) & known, k.cards(z) & known, "zone {z}");
                        assert_eq!(s.len(z), k.len(z), "zone {z} size");
                        for p in 0..3 {
                            assert_eq!(
                                (s.cards(z) & s.known_to(p)).count_ones(),
                                (k.cards(z) & k.known_to(p)).count_ones(),
                                "seat {p} zone {z}"
                            );
                        }
                    }
                    assert_eq!(s.known_to(obs), known);
                    assert_eq!(s.digest(obs), k.digest(obs));
                    let covered = (0..s.num_zones()).fold(0, |a, z| a | s.cards(z));
                    assert_eq!(covered, s.all(), "every card is somewhere");
                    if s != k {
                        moved += 1;
                    }
                }
            }
        }
        assert!(moved > 3000, "samples do change the hidden cards: {moved}");
    }

    /// The map of `sample_mapped` sends each unknown card to the card dealt into its zone,
    /// is a permutation of the unknown cards, fixes the known ones, and gives the same
    /// world as `sample` with the same picks.
    #[test]
    fn sample_mapped_follows_the_slots() {
        let mut r = test_rng(7);
        for _ in 0..200 {
            let k = random_table(&mut r);
            for obs in 0..3 {
                let seed = r.random_range(0..u64::MAX);
                let (s, map) = k.sample_mapped(obs, &mut test_rng(seed));
                assert_eq!(s, k.sample(obs, &mut test_rng(seed)));
                let mut image = 0u64;
                for (c, &m) in map.iter().enumerate().take(k.pool()) {
                    let m = usize::from(m);
                    assert_eq!(s.zone_of(m), k.zone_of(c), "card {c} -> {m}");
                    if k.knows(obs, c) {
                        assert_eq!(m, c);
                    }
                    image |= 1 << m;
                }
                assert_eq!(image, k.all());
                assert!(s.check().is_ok() && k.check().is_ok());
            }
        }
    }

    /// Dunhuang's cases: removed and bottom cards are kept only by the seat that put them
    /// there; exchanged cards only by the two seats involved.
    #[test]
    fn dunhuang_private_knowledge_is_kept_for_its_owner_only() {
        let mut r = test_rng(3);
        let mut k = table(20);
        let removed = k.draw(DECK, REMOVED, one(0), &mut r).unwrap();
        let bottom = k.draw(DECK, BOTTOM, one(1), &mut r).unwrap();
        for p in 0..3 {
            for _ in 0..3 {
                k.draw(DECK, HAND0 + p, one(p), &mut r);
            }
        }
        let given = nth_bit64(k.cards(HAND1), 0);
        k.move_card(given, HAND2, pair(1, 2));
        let mut seen = [[0u32; 3]; 3];
        for _ in 0..2000 {
            for (obs, kept) in seen.iter_mut().enumerate() {
                let s = k.sample(obs, &mut r);
                kept[0] += u32::from(s.zone_of(removed) == REMOVED);
                kept[1] += u32::from(s.zone_of(bottom) == BOTTOM);
                kept[2] += u32::from(s.zone_of(given) == HAND2);
            }
        }
        assert_eq!(seen[0][0], 2000, "the remover keeps its removed card");
        assert_eq!(seen[1][1], 2000, "the placer keeps its bottom card");
        assert_eq!(
            (seen[1][2], seen[2][2]),
            (2000, 2000),
            "both exchangers know"
        );
        // Others: the card lands in that one slot among the 16 (seat 0: removed slot,
        // bottom slot, 3 + 3 hand cards of others, 13 deck cards... ) only by chance.
        assert!(seen[1][0] < 400 && seen[2][0] < 400, "{seen:?}");
        assert!(seen[0][1] < 400 && seen[2][1] < 400, "{seen:?}");
        assert!(seen[0][2] < 800, "{seen:?}");
    }

    /// All worlds consistent with a small position, by brute force: assignments of the
    /// unknown cards to zones with the right counts.
    fn consistent_worlds(k: &Knowledge, obs: Seat) -> Vec<[CardSet; MAX_ZONES]> {
        let unknown: Vec<usize> = (0..k.pool())
            .filter(|&c| k.unknown_to(obs) & (1 << c) != 0)
            .collect();
        let want: Vec<u32> = (0..k.num_zones())
            .map(|z| (k.cards(z) & k.unknown_to(obs)).count_ones())
            .collect();
        let mut out = Vec::new();
        let mut zone_of = vec![0usize; unknown.len()];
        loop {
            let mut counts = vec![0u32; k.num_zones()];
            zone_of.iter().for_each(|&z| counts[z] += 1);
            if counts == want {
                let mut zones = [0; MAX_ZONES];
                for (z, cards) in zones.iter_mut().enumerate().take(k.num_zones()) {
                    *cards = k.cards(z) & k.known_to(obs);
                }
                for (&c, &z) in unknown.iter().zip(&zone_of) {
                    zones[z] |= 1 << c;
                }
                out.push(zones);
            }
            let mut i = 0;
            while i < zone_of.len() {
                zone_of[i] += 1;
                if zone_of[i] < k.num_zones() {
                    break;
                }
                zone_of[i] = 0;
                i += 1;
            }
            if i == zone_of.len() {
                return out;
            }
        }
    }

    /// The probability of every world `sample` can return, by enumerating every script
    /// of picks (a pick among `n` outcomes has probability `1/n`).
    fn world_probabilities(k: &Knowledge, obs: Seat) -> BTreeMap<Vec<CardSet>, f64> {
        fn go(
            k: &Knowledge,
            obs: Seat,
            prefix: &mut Vec<u32>,
            p: f64,
            out: &mut BTreeMap<Vec<CardSet>, f64>,
        ) {
            let mut chance = ScriptedChance::then(prefix, test_rng(0));
            let s = k.sample(obs, &mut chance);
            match chance.asked().get(prefix.len()) {
                None => *out.entry(s.zones[..s.num_zones()].to_vec()).or_default() += p,
                Some(&n) => {
                    for i in 0..n {
                        prefix.push(i);
                        go(k, obs, prefix, p / f64::from(n), out);
                        prefix.pop();
                    }
                }
            }
        }
        let mut out = BTreeMap::new();
        go(k, obs, &mut Vec::new(), 1.0, &mut out);
        out
    }

    /// Exact enumeration of the picks: every consistent world is reached, nothing else,
    /// each with probability `1 / worlds`.
    #[test]
    fn every_consistent_world_is_reached_equally_often() {
        let mut r = test_rng(4);
        let mut k = table(8);
        for p in 0..3 {
            k.draw(DECK, HAND0 + p, one(p), &mut r);
        }
        k.draw(DECK, HAND1, one(1), &mut r);
        let given = nth_bit64(k.cards(HAND1), 0);
        k.move_card(given, HAND2, pair(1, 2));
        k.draw(DECK, REMOVED, one(0), &mut r);
        k.draw(DECK, MARKET, SeatSet::all(3), &mut r);
        for obs in 0..3 {
            let worlds = consistent_worlds(&k, obs);
            let probs = world_probabilities(&k, obs);
            assert_eq!(probs.len(), worlds.len(), "observer {obs}");
            for w in &worlds {
                let p = probs[&w[..k.num_zones()].to_vec()];
                assert!(
                    (p - 1.0 / worlds.len() as f64).abs() < 1e-12,
                    "observer {obs}: {p} for one of {} worlds",
                    worlds.len()
                );
            }
        }
    }

    /// Chi-square goodness of fit of the sampled worlds on a case with 60 worlds.
    #[test]
    fn sampled_worlds_are_uniform_chi_square() {
        let mut r = test_rng(5);
        let mut k = table(10);
        for _ in 0..2 {
            k.draw(DECK, HAND1, one(1), &mut r);
        }
        for _ in 0..3 {
            k.draw(DECK, HAND2, one(2), &mut r);
        }
        k.draw(DECK, REMOVED, SeatSet::EMPTY, &mut r);
        for _ in 0..4 {
            k.draw(DECK, HAND0, one(0), &mut r);
        }
        // Seat 0 sees its 4 cards; 6 unknown cards over hand1 (2), hand2 (3), removed (1):
        // 6! / (2! 3! 1!) = 60 worlds.
        assert_eq!(k.unknown_to(0).count_ones(), 6);
        let n = 60_000;
        let mut counts: BTreeMap<Vec<CardSet>, u32> = BTreeMap::new();
        for _ in 0..n {
            let s = k.sample(0, &mut r);
            *counts.entry(s.zones[..s.num_zones()].to_vec()).or_default() += 1;
        }
        assert_eq!(counts.len(), 60);
        let expected = f64::from(n) / 60.0;
        let chi2: f64 = counts
            .values()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        // 59 degrees of freedom: the 0.999 quantile is 95.8.
        assert!(chi2 < 95.8, "chi2 = {chi2}");
    }

    /// The other seats' knowledge follows the slots, matched in random order: which of
    /// the dealt cards seat 1 knows is uniform among them.
    #[test]
    fn other_seats_knowledge_is_relabelled_without_bias() {
        let mut r = test_rng(6);
        let mut k = table(6);
        // Seat 1 knows 1 of the 2 cards of the removed pile (it removed it); seat 0
        // knows neither.
        k.draw(DECK, REMOVED, one(1), &mut r);
        k.draw(DECK, REMOVED, SeatSet::EMPTY, &mut r);
        let mut lowest_known = 0;
        let n = 20_000;
        for _ in 0..n {
            let s = k.sample(0, &mut r);
            let pile = s.cards(REMOVED);
            let known = pile & s.known_to(1);
            assert_eq!(known.count_ones(), 1);
            lowest_known += u32::from(known == 1 << pile.trailing_zeros());
        }
        let share = f64::from(lowest_known) / f64::from(n);
        assert!((share - 0.5).abs() < 0.02, "{share}");
    }
}
