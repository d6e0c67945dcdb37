//! The Daxu state and its rules (docs/rules/daxu.md).

use crate::game::InvalidState;
use crate::game::{ChanceMode, Dynamics, GameType, Information, Rules, TensorField, UtilityKind};
use std::fmt;

use rand::RngExt;
use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;

use super::action::{ALL, Action, FULL_HAND};
use super::card::{Card, NUM_KINDS, NUM_SHOPS, Shop};
use super::score::{REP_MAX, REP_MIN, final_scores, over_dominant, reputation_points, shops_total};
use super::{InitialHolder, Params, RepOrder, TiebreakMode};
use crate::game::{
    Chance, Column, GameState, JointAction, MAX_PLAYERS, Measured, Metrics, POPCOUNT8, PerSeat,
    RulesRef, RunningScore, Seat, SeatSet, Turn, nth_bit8,
};
use crate::params::ParamError;
use crate::rng::SimRng;

/// Most cards an offer can hold: 3 flipped plus one per repeat, bounded by the deck.
pub const MAX_OFFER: usize = 40;
/// Cards each player gets at setup (DAXU-2.3).
pub const SETUP_CARDS: u8 = 8;
/// Cards removed unseen at setup (DAXU-2.2).
pub const REMOVED_CARDS: u8 = 2;
/// Cards flipped at the start of a round (DAXU-3.1).
pub const FLIP: u8 = 3;
/// Most cards the unseen pool can hold: the whole box (DAXU-1.1, 54 shop cards).
pub const MAX_UNSEEN: usize = 54;

/// One reputation step, clamped to the track (DAXU-3.9: "your marker will stay on that
/// space").
#[inline]
fn step(r: i8, d: i8) -> i8 {
    (r + d).clamp(REP_MIN, REP_MAX)
}

/// Where the round stands. Saved as `"choose"`, `"over"` or
/// `{"decide": {"decider": 0, "tiebreak": true}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Both players secretly choose an action card (a simultaneous node).
    Choose,
    /// `decider` chooses who receives the offer: the tie-breaker holder (`tiebreak`) or
    /// the underminer after Cooperate vs Undermine.
    Decide {
        /// The deciding seat.
        decider: u8,
        /// Whether the decision uses the tie-breaker card (which then passes on).
        tiebreak: bool,
    },
    /// The game is over.
    Over,
}

/// A Daxu position: a fixed-size value with no heap data.
///
/// Saved (see [`crate::position`]) with these fields: `rules`; `sides` (two rows of six
/// shop counts, [`Shop`] order); `unseen` (54 cards by name, of which the first
/// `unseen_len` are the unseen pool in draw order: the deck plus the removed cards),
/// `deck_len` (cards left in the deck), `deck_start` (the deck size when play started, for
/// the ply bound); `offer` (40 cards, of which the first `offer_len` are this round's, in
/// flip order); `rep` (reputations); `holder` (the tie-breaker holder); `hands` (action
/// cards per seat as bitmasks by action id); `pair` (the last revealed pair); `phase`;
/// `ply`; `round`; `history` (the digest of the public history, which is the info key).
/// Entries past a length are kept as they are in memory, so a loaded state is `==`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    rules: RulesRef<State>,
    sides: [[u8; NUM_SHOPS]; 2],
    #[serde(with = "BigArray")]
    unseen: [Card; MAX_UNSEEN],
    unseen_len: u8,
    deck_len: u8,
    deck_start: u8,
    #[serde(with = "BigArray")]
    offer: [Card; MAX_OFFER],
    offer_len: u8,
    rep: [i8; 2],
    holder: u8,
    hands: [u8; 2],
    pair: [Action; 2],
    /// Action cards revealed per seat, by kind (Give, Take, Cooperate, Undermine): metrics.
    played: [[u8; 4]; 2],
    /// Times the tie-breaker card decided a Give/Give or Take/Take tie: a metric.
    tiebreak_uses: u8,
    phase: Phase,
    ply: u16,
    round: u8,
    history: u64,
}

/// A position to start from, for rule tests and endgame analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Shop cards on each side, by [`Shop`] index.
    pub sides: [[u8; NUM_SHOPS]; 2],
    /// Reputations, each in `[-7, 7]`.
    pub reps: [i8; 2],
    /// The tie-breaker card holder (0 or 1).
    pub holder: usize,
    /// Cards already flipped this round, in flip order; empty = start a round (flip 3, or
    /// end the game if fewer than 3 remain).
    pub offer: Vec<Card>,
    /// The unseen pool by card kind: the deck plus the cards removed unseen.
    pub unseen: [u8; NUM_KINDS],
    /// Cards left in the deck (the rest of the unseen pool was removed unseen).
    pub deck_len: u8,
    /// Action cards still in each hand, as bitmasks by action id (Give and Take required).
    pub hands: [u8; 2],
    /// Rounds already started.
    pub round: u8,
}

/// Why a [`Setup`] is not a valid position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid Daxu setup: {0}")]
pub struct SetupError(pub String);

/// Daxu's rules value ([`GameState::RulesData`]): the box's shop cards in id order (the
/// card pool of the `deck` parameter), derived once; a new game copies it as its unseen
/// pool instead of rebuilding it card by card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesData {
    /// The first `len` entries are the cards, sorted by id.
    pub cards: [Card; MAX_UNSEEN],
    /// Cards in the pool, at most 54 (the whole box).
    pub len: u8,
}

impl RulesData {
    /// The pool holding `counts[k]` cards of kind `k`.
    ///
    /// # Panics
    /// If the counts add up to more than 54 (callers validate first).
    pub fn from_counts(counts: &[u8; NUM_KINDS]) -> RulesData {
        let mut cards = [Card(0); MAX_UNSEEN];
        let mut len = 0u8;
        for (k, &n) in counts.iter().enumerate() {
            for _ in 0..n {
                cards[len as usize] = Card(k as u8);
                len += 1;
            }
        }
        RulesData { cards, len }
    }

    /// The pool of a deck parameter: per shop type `[plus, minus, none]`.
    fn of_deck(deck: &[[u8; 3]; NUM_SHOPS]) -> RulesData {
        let mut counts = [0u8; NUM_KINDS];
        for (t, [plus, minus, none]) in deck.iter().enumerate() {
            counts[t * 3] = *none;
            counts[t * 3 + 1] = *plus;
            counts[t * 3 + 2] = *minus;
        }
        RulesData::from_counts(&counts)
    }
}

impl State {
    /// Builds a position from a [`Setup`] under `rules`; chance (flips) comes from `chance`.
    ///
    /// # Errors
    /// [`SetupError`] when a reputation is off the track, the deck is larger than the
    /// unseen pool, a hand lacks Give or Take, the holder is not 0 or 1, or the offer is
    /// too long.
    pub fn from_setup<C: Chance + ?Sized>(
        rules: RulesRef<State>,
        setup: &Setup,
        chance: &mut C,
    ) -> Result<State, SetupError> {
        let err = |m: &str| Err(SetupError(m.to_string()));
        if setup.reps.iter().any(|r| !(REP_MIN..=REP_MAX).contains(r)) {
            return err("reputation outside [-7, 7]");
        }
        let unseen_len: u32 = setup.unseen.iter().map(|&c| c as u32).sum();
        if unseen_len as usize > MAX_UNSEEN {
            return err("more than 54 unseen cards");
        }
        if setup.deck_len as u32 > unseen_len {
            return err("deck larger than the unseen pool");
        }
        if setup
            .hands
            .iter()
            .any(|h| h & 0b11 != 0b11 || h & !FULL_HAND != 0)
        {
            return err("a hand must hold Give and Take and only action cards");
        }
        if setup.holder > 1 {
            return err("holder must be 0 or 1");
        }
        if setup.offer.len() > MAX_OFFER {
            return err("offer too long");
        }
        let on_board: u32 = setup.sides.iter().flatten().map(|&c| c as u32).sum();
        let total = on_board + unseen_len + setup.offer.len() as u32;
        if total > u8::MAX as u32 {
            return err("too many cards");
        }
        let pool = RulesData::from_counts(&setup.unseen);
        let mut s = State::blank(rules, &pool, setup.deck_len, setup.hands);
        s.sides = setup.sides;
        s.rep = setup.reps;
        s.holder = setup.holder as u8;
        s.round = setup.round;
        s.deck_start = setup.deck_len + setup.offer.len() as u8;
        s.note_setup();
        // What a new game fixes but a setup may choose (reputations, hands, round, deck
        // size and unseen pool) is public too: the digest must tell such positions apart.
        // New games do not note it, so their digests are unchanged.
        let packed = (s.rep[0] as u8 as u64) << 40
            | (s.rep[1] as u8 as u64) << 32
            | (s.hands[0] as u64) << 24
            | (s.hands[1] as u64) << 16
            | (s.round as u64) << 8
            | s.deck_len as u64;
        s.note(0xD3, packed);
        for (k, &n) in setup.unseen.iter().enumerate() {
            s.note(0xD4, (k as u64) << 8 | n as u64);
        }
        if setup.offer.is_empty() {
            s.start_round(chance);
        } else {
            for &c in &setup.offer {
                s.offer[s.offer_len as usize] = c;
                s.offer_len += 1;
                s.note(0xF1, c.0 as u64);
            }
        }
        Ok(s)
    }

    /// An empty board with this unseen pool, before setup.
    fn blank(rules: RulesRef<State>, pool: &RulesData, deck_len: u8, hands: [u8; 2]) -> State {
        State {
            rules,
            sides: [[0; NUM_SHOPS]; 2],
            unseen: pool.cards,
            unseen_len: pool.len,
            deck_len,
            deck_start: deck_len,
            offer: [Card(0); MAX_OFFER],
            offer_len: 0,
            rep: [0, 0],
            holder: 0,
            hands,
            pair: [Action::Give; 2],
            played: [[0; 4]; 2],
            tiebreak_uses: 0,
            phase: Phase::Choose,
            ply: 0,
            round: 0,
            history: 0,
        }
    }

    /// Folds the public setup (holder, both sides) into the history digest.
    fn note_setup(&mut self) {
        self.note(0xD0, self.holder as u64);
        for p in 0..2 {
            let packed = self.sides[p]
                .iter()
                .fold(0u64, |acc, &n| acc << 8 | n as u64);
            self.note(0xD1 + p as u64, packed);
        }
    }

    /// Replaces the rules with `rules` (for analysis under another `returns` utility, or
    /// after loading). The caller keeps the position meaningful: rule parameters that shape
    /// the position (the deck) should match.
    pub fn set_rules(&mut self, rules: RulesRef<State>) {
        self.rules = rules;
    }

    /// Shop cards on each side, by [`Shop`] index.
    pub fn sides(&self) -> &[[u8; NUM_SHOPS]; 2] {
        &self.sides
    }

    /// Both reputations.
    pub fn reputations(&self) -> [i8; 2] {
        self.rep
    }

    /// The seat holding the tie-breaker card.
    pub fn holder(&self) -> Seat {
        self.holder as Seat
    }

    /// The flipped cards of the current round, in flip order.
    pub fn offer(&self) -> &[Card] {
        &self.offer[..self.offer_len as usize]
    }

    /// Cards left in the deck.
    pub fn deck_len(&self) -> u8 {
        self.deck_len
    }

    /// Cards removed unseen (the part of the unseen pool that is not the deck).
    pub fn removed(&self) -> u8 {
        self.unseen_len - self.deck_len
    }

    /// The unseen pool (deck + removed cards) counted by card kind: public knowledge,
    /// since every other card is face up.
    pub fn unseen(&self) -> [u8; NUM_KINDS] {
        let mut counts = [0u8; NUM_KINDS];
        for c in &self.unseen[..self.unseen_len as usize] {
            counts[c.0 as usize] += 1;
        }
        counts
    }

    /// The unseen pool card by card, in the order draws index it ([`Chance::below`] over
    /// its length picks the card at that index, which is then swap-removed).
    pub fn unseen_cards(&self) -> &[Card] {
        &self.unseen[..self.unseen_len as usize]
    }

    /// Total cards in the game (54 after a normal setup).
    pub fn total_cards(&self) -> u8 {
        let board: u8 = self.sides.iter().flatten().sum();
        board + self.offer_len + self.unseen_len
    }

    /// The action cards still in each hand (bitmask by action id); cards leave only by the
    /// empty-deck rule (DAXU-06).
    pub fn hands(&self) -> [u8; 2] {
        self.hands
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Everything that matters for the rest of the game, packed into bytes: sides,
    /// reputations, holder, offer (in flip order), unseen counts, deck size, hands, phase
    /// and the pending pair. Two states with equal keys have the same future (the history
    /// digest, ply and round counters are left out). Used to memoise the endgame solver.
    pub fn position_key(&self) -> [u8; 88] {
        let mut k = [0u8; 88];
        let mut i = 0;
        let mut put = |b: u8| {
            k[i] = b;
            i += 1;
        };
        self.sides.iter().flatten().for_each(|&b| put(b));
        put(self.rep[0] as u8);
        put(self.rep[1] as u8);
        put(self.holder);
        put(self.offer_len);
        for j in 0..MAX_OFFER {
            put(if j < self.offer_len as usize {
                self.offer[j].0 + 1
            } else {
                0
            });
        }
        self.unseen().iter().for_each(|&b| put(b));
        put(self.deck_len);
        put(self.hands[0]);
        put(self.hands[1]);
        let (tag, d) = match self.phase {
            Phase::Choose => (0, 0),
            Phase::Decide { decider, tiebreak } => (1 + tiebreak as u8, decider),
            Phase::Over => (3, 0),
        };
        put(tag);
        put(d);
        put(self.pair[0] as u8);
        put(self.pair[1] as u8);
        k
    }

    /// The checks of [`GameState::validate`] on the counters and the phase, each message
    /// naming the field (a hand-edited position such as `ply` 65535, `round` 0 in play, or
    /// `phase` over with cards left to flip is refused here):
    ///
    /// - `ply` ≤ `2 * deck_start + 4` (the bound of [`GameState::max_plies`]: every ply
    ///   flips a card, resolves a round or removes a pair of action cards);
    /// - `round` ≤ 18 (54 cards, 3 flipped per round, DAXU-3.1), and ≥ 1 while a round is
    ///   played (the round counts the rounds started);
    /// - `offer_len` ≤ the cards flipped since play started (`deck_start - deck_len`);
    /// - `over`: fewer than 3 cards in the deck and no offer (DAXU-4.1: the game ends when
    ///   three cards cannot be flipped); `choose` and `decide`: at least 3 cards in the offer
    ///   (DAXU-3.1);
    /// - `decide`: the revealed pair calls for the decision: a Give/Give or Take/Take tie at
    ///   equal reputations decided by the holder under `tiebreak_mode = holder_chooses`
    ///   (DAXU-3.5), or Cooperate against Undermine decided by the underminer (DAXU-01);
    /// - `hands`: action cards leave both hands together and only when the deck is empty
    ///   (DAXU-06), so the hands are equal and full while the deck holds cards;
    /// - `played` (cards revealed per seat) equal for both seats and at most `ply`;
    ///   `tiebreak_uses` at most `ply`.
    fn check_counters_and_phase(&self) -> Result<(), String> {
        let max_ply = 2 * u32::from(self.deck_start) + 4;
        if u32::from(self.ply) > max_ply {
            return Err(format!(
                "ply = {} exceeds the game's bound 0..={max_ply} (2 * deck_start + 4, deck_start \
                 = {})",
                self.ply, self.deck_start
            ));
        }
        let max_round = (MAX_UNSEEN / FLIP as usize) as u8;
        if self.round > max_round {
            return Err(format!(
                "round = {} is outside 0..={max_round} (54 cards, 3 flipped per round)",
                self.round
            ));
        }
        let flipped = self.deck_start - self.deck_len.min(self.deck_start);
        if self.offer_len > flipped {
            return Err(format!(
                "offer_len = {} but only {flipped} cards were flipped since play started \
                 (deck_start {} - deck_len {})",
                self.offer_len, self.deck_start, self.deck_len
            ));
        }
        match self.phase {
            Phase::Over => {
                if self.deck_len >= FLIP {
                    return Err(format!(
                        "phase = over with deck_len = {} (the game ends only when fewer than \
                         {FLIP} cards are left to flip)",
                        self.deck_len
                    ));
                }
                if self.offer_len != 0 {
                    return Err(format!(
                        "phase = over with offer_len = {} (a finished game has no offer)",
                        self.offer_len
                    ));
                }
            }
            Phase::Choose | Phase::Decide { .. } => {
                if self.round == 0 {
                    return Err(format!(
                        "round = 0 at phase {:?} (a round in play is round 1 or later)",
                        self.phase
                    ));
                }
                if self.offer_len < FLIP {
                    return Err(format!(
                        "offer_len = {} at phase {:?} (a round flips {FLIP} cards first)",
                        self.offer_len, self.phase
                    ));
                }
            }
        }
        if let Phase::Decide { decider, tiebreak } = self.phase {
            use Action::*;
            let pair = (self.pair[0], self.pair[1]);
            if tiebreak {
                let tie = matches!(pair, (Give, Give) | (Take, Take));
                if !tie
                    || self.rep[0] != self.rep[1]
                    || decider != self.holder
                    || self.rules.params().tiebreak_mode != TiebreakMode::HolderChooses
                {
                    return Err(format!(
                        "phase = decide (tiebreak, decider {decider}) but pair = {:?}, rep = \
                         {:?}, holder = {}, tiebreak_mode = {:?}: a tie-break decision follows \
                         Give/Give or Take/Take at equal reputations, by the holder, under \
                         holder_chooses",
                        self.pair,
                        self.rep,
                        self.holder,
                        self.rules.params().tiebreak_mode
                    ));
                }
            } else {
                let underminer = match pair {
                    (Undermine, Cooperate) => Some(0),
                    (Cooperate, Undermine) => Some(1),
                    _ => None,
                };
                if underminer != Some(decider) {
                    return Err(format!(
                        "phase = decide (decider {decider}) but pair = {:?}: only Cooperate \
                         against Undermine is decided, by the underminer",
                        self.pair
                    ));
                }
            }
        }
        if self.hands[0] != self.hands[1] {
            return Err(format!(
                "hands = {:?} differ (action cards leave both hands together, DAXU-06)",
                self.hands
            ));
        }
        if self.hands[0] != FULL_HAND && self.deck_len > 0 {
            return Err(format!(
                "hands = {:?} lack a card while deck_len = {} (cards leave the hands only \
                 when the deck is empty, DAXU-06)",
                self.hands, self.deck_len
            ));
        }
        let revealed = |p: usize| self.played[p].iter().map(|&x| u32::from(x)).sum::<u32>();
        if revealed(0) != revealed(1) || revealed(0) > u32::from(self.ply) {
            return Err(format!(
                "played = {:?}: both seats reveal one card per choose ply (at most ply = {})",
                self.played, self.ply
            ));
        }
        if u32::from(self.tiebreak_uses) > u32::from(self.ply) {
            return Err(format!(
                "tiebreak_uses = {} exceeds ply = {}",
                self.tiebreak_uses, self.ply
            ));
        }
        Ok(())
    }

    /// Folds one public event into the history digest (a multiplicative rolling hash:
    /// one multiply per event keeps playouts fast; collisions are ~2^-64 per pair).
    fn note(&mut self, tag: u64, value: u64) {
        self.history = (self.history ^ (tag << 56) ^ value)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(31);
    }

    /// Draws a uniformly random card from the unseen pool (swap-remove: O(1)).
    fn draw<C: Chance + ?Sized>(&mut self, chance: &mut C) -> Card {
        debug_assert!(self.unseen_len > 0);
        let i = chance.below(self.unseen_len as u32) as usize;
        let last = self.unseen_len as usize - 1;
        let c = self.unseen[i];
        self.unseen[i] = self.unseen[last];
        self.unseen_len -= 1;
        c
    }

    fn flip<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        let c = self.draw(chance);
        self.deck_len -= 1;
        self.offer[self.offer_len as usize] = c;
        self.offer_len += 1;
        self.note(0xF1, c.0 as u64);
    }

    /// Phase 1, or the end: "If you can't flip three cards at the beginning of a round,
    /// scoring will determine who's the best shop keeper!" (DAXU-4.1).
    fn start_round<C: Chance + ?Sized>(&mut self, rng: &mut C) {
        self.offer_len = 0;
        if self.deck_len < FLIP {
            self.phase = Phase::Over;
            return;
        }
        self.round += 1;
        for _ in 0..FLIP {
            self.flip(rng);
        }
        self.phase = Phase::Choose;
    }

    /// The sides and reputations after `receiver` takes the offer and the final pair
    /// `pair` adjusts reputation (phase 4; DAXU-04: the receiver applies the
    /// symbols in flip order, each player applies their own action card, clamping at
    /// ±7 after every step).
    fn settle(&self, receiver: usize, pair: [Action; 2]) -> ([[u8; NUM_SHOPS]; 2], [i8; 2]) {
        let mut sides = self.sides;
        let mut rep = self.rep;
        let actions_first = self.rules.params().rep_order == RepOrder::ActionThenCards;
        if actions_first {
            rep = [
                step(rep[0], pair[0].reputation_delta()),
                step(rep[1], pair[1].reputation_delta()),
            ];
        }
        let side = &mut sides[receiver];
        let mut r = rep[receiver];
        for c in self.offer() {
            side[c.shop_index()] += 1;
            r = step(r, c.delta());
        }
        rep[receiver] = r;
        if !actions_first {
            rep = [
                step(rep[0], pair[0].reputation_delta()),
                step(rep[1], pair[1].reputation_delta()),
            ];
        }
        (sides, rep)
    }

    /// `receiver` gets the offer; reputation is adjusted; the next round starts.
    fn finish<C: Chance + ?Sized>(&mut self, receiver: usize, rng: &mut C) {
        let (sides, rep) = self.settle(receiver, self.pair);
        self.sides = sides;
        self.rep = rep;
        self.note(0xE0, receiver as u64);
        self.start_round(rng);
    }

    /// Equal reputations on Give/Give or Take/Take (DAXU-3.5;
    /// DAXU-05).
    fn tie<C: Chance + ?Sized>(&mut self, rng: &mut C) {
        match self.rules.params().tiebreak_mode {
            TiebreakMode::HolderChooses => {
                self.phase = Phase::Decide {
                    decider: self.holder,
                    tiebreak: true,
                };
            }
            TiebreakMode::HolderReceives => {
                self.tiebreak_uses += 1;
                let h = self.holder as usize;
                self.holder ^= 1;
                self.finish(h, rng);
            }
        }
    }

    /// Phase 3 for the revealed pair (DAXU-01 matrix, DAXU-06 repeats).
    fn resolve<C: Chance + ?Sized>(&mut self, a: [Action; 2], rng: &mut C) {
        use Action::*;
        self.pair = a;
        match (a[0], a[1]) {
            (Give, Give) | (Take, Take) => {
                if self.rep[0] == self.rep[1] {
                    self.tie(rng);
                } else {
                    let lower = if self.rep[0] < self.rep[1] { 0 } else { 1 };
                    let receiver = if a[0] == Give { lower } else { 1 - lower };
                    self.finish(receiver, rng);
                }
            }
            (Cooperate, Cooperate) | (Undermine, Undermine) => {
                if self.deck_len > 0 {
                    // "Flip an additional shop card. Both players take all action cards
                    // back in their hand and choose again."
                    self.flip(rng);
                } else {
                    // "remove these action cards from the game and the players choose
                    // again with their remaining action cards" (DAXU-06).
                    let bit = !(1u8 << a[0] as u8);
                    self.hands[0] &= bit;
                    self.hands[1] &= bit;
                }
                self.phase = Phase::Choose;
            }
            (Cooperate, Undermine) | (Undermine, Cooperate) => {
                // "the player who has chosen Undermine determines who takes all the cards."
                let underminer = if a[0] == Undermine { 0 } else { 1 };
                self.phase = Phase::Decide {
                    decider: underminer,
                    tiebreak: false,
                };
            }
            _ => {
                // One Give/Take card at seat i meets a different card at seat j: Give hands
                // the cards to j, Take keeps them at i; Cooperate accepts that, Undermine
                // reverses it ("the opposite of Lucy's Take action is performed").
                let i = if matches!(a[0], Give | Take) { 0 } else { 1 };
                let j = 1 - i;
                let base = if a[i] == Give { j } else { i };
                let receiver = if a[j] == Undermine { 1 - base } else { base };
                self.finish(receiver, rng);
            }
        }
    }

    /// Applies the decider's `Keep`/`Pass` at a [`Phase::Decide`] node, with flips drawn
    /// by `chance` (the endgame solver enumerates them). Legality is only
    /// `debug_assert!`ed.
    pub fn decide_with<C: Chance + ?Sized>(
        &mut self,
        player: Seat,
        action: Action,
        chance: &mut C,
    ) {
        let Phase::Decide { decider, tiebreak } = self.phase else {
            debug_assert!(false, "apply at a {:?} node", self.phase);
            return;
        };
        debug_assert_eq!(decider as Seat, player);
        debug_assert!(matches!(action, Action::Keep | Action::Pass));
        self.ply += 1;
        self.note(0xA0 + player as u64, action as u64);
        let d = decider as usize;
        let receiver = if action == Action::Keep { d } else { 1 - d };
        if tiebreak {
            // "The tie breaker card is now given to the other player."
            self.tiebreak_uses += 1;
            self.holder ^= 1;
        }
        self.finish(receiver, chance);
    }

    /// Reveals the pair of action cards at a [`Phase::Choose`] node and resolves it, with
    /// flips drawn by `chance`. Legality is only `debug_assert!`ed.
    pub fn choose_with<C: Chance + ?Sized>(&mut self, pair: [Action; 2], chance: &mut C) {
        debug_assert_eq!(self.phase, Phase::Choose);
        let [a, b] = pair;
        debug_assert!(self.hands[0] & (1 << a as u8) != 0 && self.hands[1] & (1 << b as u8) != 0);
        self.ply += 1;
        self.played[0][a as usize] += 1;
        self.played[1][b as usize] += 1;
        self.note(0xC0, (a as u64) << 8 | b as u64);
        self.resolve(pair, chance);
    }

    /// Ranks from final scores `s`: "In case of a tie the player currently in possession
    /// of the tie-breaker card is the winner" (DAXU-5.7), so ranks never tie.
    fn ranks_from(&self, s: PerSeat<i32>) -> PerSeat<u8> {
        let komi = &self.rules.params().komi;
        if !komi.is_zero() {
            // DAXU-5.9: points plus komi, then the tie-breaker card as before.
            let mut holder = [0u8; 4];
            holder[self.holder as usize] = 1;
            return komi.rank(&s, &holder, 2);
        }
        let first = match s[0].cmp(&s[1]) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => self.holder as usize,
        };
        let mut r = [0u8; 4];
        r[first] = 1;
        r[1 - first] = 2;
        r
    }

    /// The score difference `player - opponent` projected as described in the module
    /// docs ([`GameState::value`]), in points.
    pub fn projected_margin(&self, player: Seat) -> f64 {
        let margin = |sides: &[[u8; NUM_SHOPS]; 2], rep: [i8; 2], p: usize| {
            let s = final_scores(self.rules.params().reputation_points, sides, rep);
            (s[p] - s[1 - p]) as f64
        };
        match self.phase {
            Phase::Over => margin(&self.sides, self.rep, player),
            Phase::Choose => {
                let neutral = [Action::Give; 2];
                let (s0, r0) = self.settle(0, neutral);
                let (s1, r1) = self.settle(1, neutral);
                0.5 * (margin(&s0, r0, player) + margin(&s1, r1, player))
            }
            Phase::Decide { decider, .. } => {
                let d = decider as usize;
                let (sk, rk) = self.settle(d, self.pair);
                let (sp, rp) = self.settle(1 - d, self.pair);
                let (keep, pass) = (margin(&sk, rk, d), margin(&sp, rp, d));
                let chosen = if keep >= pass { keep } else { pass };
                if player == d { chosen } else { -chosen }
            }
        }
    }
}

impl GameState for State {
    type Action = Action;
    type Params = Params;
    type RulesData = RulesData;
    type Observation = Observation;

    const TYPE: GameType = GameType {
        short_name: "daxu",
        long_name: "Daxu",
        description: "Daxu (White Goblin Games 2015): secret Give/Take/Cooperate/Undermine, close majorities score",
        min_players: 2,
        max_players: 2,
        default_players: 2,
        dynamics: Dynamics::Simultaneous,
        chance_mode: ChanceMode::SampledStochastic,
        information: Information::Perfect,
        utility: UtilityKind::ConstantSum,
        num_action_ids: 6,
        perfect_recall: true,
    };

    /// Daxu is played by exactly 2 ([`crate::game::rules`] checks the count); the deck
    /// composition is validated when parsed, so only the utility needs the count. The rules
    /// data is the box's card pool of the `deck` parameter.
    fn build_rules(params: &Params, players: usize) -> Result<RulesData, ParamError> {
        params.returns.check("returns", players, "game daxu")?;
        Ok(RulesData::of_deck(&params.deck.0))
    }

    /// Setup (DAXU-2.1–2.4): 2 cards removed unseen (left in the unseen pool and
    /// never flipped), 8 cards to each side with symbols ignored, reputations 0, the
    /// tie-breaker holder per [`InitialHolder`], then the first round's flip.
    fn new_game<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> Self {
        let params = rules.params();
        let pool = rules.data();
        let deck_len = pool.len - REMOVED_CARDS - 2 * SETUP_CARDS;
        let mut s = State::blank(rules, pool, deck_len, [FULL_HAND; 2]);
        // Dealing before or after removing 2 unseen cards gives the same distribution; the
        // removed pair simply stays in the unseen pool and is never flipped.
        for p in 0..2 {
            for _ in 0..SETUP_CARDS {
                let c = s.draw(chance);
                s.sides[p][c.shop_index()] += 1;
            }
        }
        s.holder = match params.initial_tiebreak_holder {
            InitialHolder::Random => chance.below(2) as u8,
            InitialHolder::Seat0 => 0,
            InitialHolder::Seat1 => 1,
        };
        s.note_setup();
        s.start_round(chance);
        s
    }

    fn rules(&self) -> RulesRef<State> {
        self.rules
    }

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Choose => Turn::Simultaneous(SeatSet::all(2)),
            Phase::Decide { decider, .. } => Turn::Player(decider as Seat),
            Phase::Over => Turn::Terminal,
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Choose => {
                let h = self.hands[player];
                for a in &ALL[..4] {
                    if h & (1 << *a as u8) != 0 {
                        out.push(*a);
                    }
                }
            }
            Phase::Decide { decider, .. } if decider as Seat == player => {
                out.push(Action::Keep);
                out.push(Action::Pass);
            }
            _ => {}
        }
    }

    /// A bit test: the card is in the seat's hand at a choose node (hands hold only the
    /// four action cards), Keep or Pass for the decider at a decide node.
    fn is_legal(&self, player: Seat, action: Action, _buf: &mut Vec<Action>) -> bool {
        match self.phase {
            Phase::Choose => player < 2 && self.hands[player] & (1 << action as u8) != 0,
            Phase::Decide { decider, .. } => {
                decider as Seat == player && matches!(action, Action::Keep | Action::Pass)
            }
            Phase::Over => false,
        }
    }

    /// One `random_range(0..legal)` draw, as the default: the `k`-th card of the hand at a
    /// choose node, Keep or Pass at a decide node.
    fn random_action(&self, player: Seat, _buf: &mut Vec<Action>, rng: &mut SimRng) -> Action {
        // Byte masks: the count and the k-th card by table lookups (no `popcnt` on the
        // portable target); the same `random_range` draw as before.
        let mask: u8 = match self.phase {
            Phase::Choose => self.hands[player],
            _ => 0b11_0000,
        };
        debug_assert!(
            self.phase == Phase::Choose || self.turn() == Turn::Player(player),
            "random_action for a seat that does not act"
        );
        let count = u32::from(POPCOUNT8[usize::from(mask)]);
        ALL[nth_bit8(mask, rng.random_range(0..count)) as usize]
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, player: Seat, action: Action, rng: &mut C) {
        self.decide_with(player, action, rng);
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(
        &mut self,
        joint: &JointAction<Action>,
        rng: &mut C,
    ) {
        let (Some(a), Some(b)) = (joint[0], joint[1]) else {
            debug_assert!(false, "both seats choose at once");
            return;
        };
        self.choose_with([a, b], rng);
    }

    /// Under the `returns` parameter ([`crate::game::Utility`]); Daxu's ranks never tie.
    fn returns(&self) -> PerSeat<f64> {
        // One scoring pass for both ranks and scores (playouts end here every game).
        let s = self.scores();
        self.rules
            .params()
            .returns
            .returns(&self.ranks_from(s), &s, 2)
    }

    /// The projected final margin `m` ([`State::projected_margin`]) in the units of
    /// `returns`: `margin` gives `m` itself; `win_share` (and `rank`, the same at 2 seats)
    /// the logistic `1 / (1 + exp(-m / 5))`, a 5-point projected lead being worth
    /// `e : 1` odds. Exact at a terminal state.
    fn value(&self) -> PerSeat<f64> {
        if self.phase == Phase::Over {
            return self.returns();
        }
        let m = self.projected_margin(0);
        let win0 = 1.0 / (1.0 + (-m / 5.0).exp());
        let mut win = [0.0; MAX_PLAYERS];
        let mut margin = [0.0; MAX_PLAYERS];
        (win[0], win[1]) = (win0, 1.0 - win0);
        (margin[0], margin[1]) = (m, -m);
        self.rules.params().returns.estimate(&win, &margin, 2)
    }

    fn scores(&self) -> PerSeat<i32> {
        let s = final_scores(self.rules.params().reputation_points, &self.sides, self.rep);
        [s[0], s[1], 0, 0]
    }

    /// Higher score ranks first; "In case of a tie the player currently in possession of
    /// the tie-breaker card is the winner" (DAXU-5.7), so ranks never tie.
    fn ranks(&self) -> PerSeat<u8> {
        self.ranks_from(self.scores())
    }

    /// One scoring pass for both.
    fn scores_and_ranks(&self) -> (PerSeat<i32>, PerSeat<u8>) {
        let s = self.scores();
        (s, self.ranks_from(s))
    }

    /// Everything but the deck order, the removed cards and pending action cards is
    /// public, so both seats share one key: a digest of the public history (setup, flips,
    /// revealed pairs, decisions).
    fn info_key(&self, _player: Seat) -> u64 {
        self.history
    }

    /// All hidden parts are lazily drawn chance, so a clone is a valid determinization.
    fn determinize(&self, _observer: Seat, _rng: &mut SimRng) -> Self {
        self.clone()
    }

    /// Everything but the deck order and the removed cards is public, so the observation
    /// is the public table; only the `seat` field differs between seats.
    fn observation(&self, seat: Seat) -> Observation {
        Observation {
            seat,
            round: self.round,
            sides: self.sides,
            reputations: self.rep,
            holder: self.holder,
            offer: self.offer().to_vec(),
            unseen: self.unseen(),
            deck_len: self.deck_len,
            hands: self.hands,
            phase: self.phase,
            revealed: match self.phase {
                Phase::Decide { .. } => Some(self.pair),
                _ => None,
            },
        }
    }

    fn action_id(action: Action) -> usize {
        action as usize
    }

    fn action_from_id(id: usize) -> Option<Action> {
        ALL.get(id).copied()
    }

    fn ply(&self) -> u32 {
        self.ply as u32
    }

    fn round(&self) -> u32 {
        self.round as u32
    }

    fn end_condition(&self) -> &'static str {
        if self.phase == Phase::Over {
            "deck_exhausted"
        } else {
            ""
        }
    }

    /// Lengths within capacities; no more cards of a shop on the sides, in the offer and
    /// unseen than the deck parameter has (a full game has all of them; a position built
    /// from a [`Setup`] may have fewer), and no more unseen cards of a kind; reputations on the track; holder and decider 0 or 1; hands hold Give and Take
    /// and only action cards; the revealed pair is action cards; the deck still holds the
    /// cards flipped after play started. Then the counters and the phase
    /// (`State::check_counters_and_phase`): `ply` and `round` within the game's bounds,
    /// the phase consistent with the deck, the offer, the hands and the revealed pair.
    fn validate(&self) -> Result<(), InvalidState> {
        let check = || -> Result<(), String> {
            let (unseen_len, offer_len) = (self.unseen_len as usize, self.offer_len as usize);
            if unseen_len > MAX_UNSEEN || offer_len > MAX_OFFER {
                return Err(format!(
                    "unseen_len = {unseen_len} (valid 0..={MAX_UNSEEN}) or offer_len = \
                     {offer_len} (valid 0..={MAX_OFFER}) too large"
                ));
            }
            if self.deck_len > self.unseen_len || self.deck_len > self.deck_start {
                return Err(format!(
                    "deck_len = {} exceeds unseen_len = {} or deck_start = {}",
                    self.deck_len, self.unseen_len, self.deck_start
                ));
            }
            // DAXU-2.2: two cards are removed unseen at setup, and only the deck is flipped
            // (a position set up for analysis may remove fewer).
            if self.unseen_len - self.deck_len > REMOVED_CARDS {
                return Err(format!(
                    "deck_len = {} with unseen_len = {}: {} cards removed unseen, but a game \
                     removes {REMOVED_CARDS} (DAXU-2.2)",
                    self.deck_len,
                    self.unseen_len,
                    self.unseen_len - self.deck_len
                ));
            }
            let deck = self.rules.params().deck.0;
            let unseen = self.unseen();
            for (k, &n) in unseen.iter().enumerate() {
                let [plus, minus, none] = deck[k / 3];
                let max = [none, plus, minus][k % 3];
                if n > max {
                    return Err(format!(
                        "unseen: {n} {} cards but the deck has {max}",
                        Card(k as u8)
                    ));
                }
            }
            for shop in Shop::ALL {
                let t = shop as usize;
                let mut n: u32 = self.sides[0][t] as u32 + self.sides[1][t] as u32;
                n += self.offer().iter().filter(|c| c.shop_index() == t).count() as u32;
                n += unseen[t * 3..t * 3 + 3]
                    .iter()
                    .map(|&x| x as u32)
                    .sum::<u32>();
                let total: u32 = deck[t].iter().map(|&x| x as u32).sum();
                if n > total {
                    return Err(format!(
                        "sides, offer and unseen hold {n} {} cards but the deck has {total}",
                        shop.name()
                    ));
                }
            }
            if self.rep.iter().any(|r| !(REP_MIN..=REP_MAX).contains(r)) {
                return Err(format!("rep = {:?} outside [-7, 7]", self.rep));
            }
            if self.holder > 1 {
                return Err(format!("holder = {} is not seat 0 or 1", self.holder));
            }
            match self.phase {
                Phase::Decide { decider, .. } if decider > 1 => {
                    return Err(format!("phase: decider = {decider} is not seat 0 or 1"));
                }
                _ => {}
            }
            if self
                .hands
                .iter()
                .any(|h| h & 0b11 != 0b11 || h & !FULL_HAND != 0)
            {
                return Err(format!(
                    "hands = {:?}: each must hold Give and Take (bits 0 and 1) and only action \
                     cards (bits 0-3)",
                    self.hands
                ));
            }
            if !self.pair.iter().all(|a| a.is_card()) {
                return Err(format!("pair = {:?} is not two action cards", self.pair));
            }
            self.check_counters_and_phase()
        };
        check().map_err(InvalidState::of::<Self>)
    }

    /// Each ply resolves a round (≤ deck/3 rounds, plus ≤ 1 decision each), flips an extra
    /// card (≤ deck) or removes a pair of action cards (≤ 2): `2 * deck + 4` bounds them.
    fn max_plies(&self) -> u32 {
        self.ply as u32 + 2 * self.deck_start as u32 + 4
    }

    /// Two plies (choose, then decide) per card of the pool, plus the last round's.
    fn max_game_length(rules: &Rules<Self>) -> u32 {
        2 * u32::from(rules.data().len) + 4
    }

    /// 148 values, observer first (module docs, "Information state and observation
    /// tensor").
    fn observation_layout(_: &Rules<Self>) -> Vec<TensorField> {
        vec![
            TensorField::new("player", 2, "one-hot of the observing seat"),
            TensorField::new("phase", 3, "one-hot: choose, decide, over"),
            TensorField::new(
                "decider",
                2,
                "one-hot of the deciding seat at a decide node (observer first), else zeros",
            ),
            TensorField::new(
                "tiebreak_decision",
                1,
                "1 if the pending decision is the tie-breaker holder's",
            ),
            TensorField::new(
                "holder",
                2,
                "one-hot of the tie-breaker holder (observer first)",
            ),
            TensorField::new(
                "reputation",
                30,
                "per seat (observer first) one-hot of the reputation -7..=7 (15 values)",
            ),
            TensorField::new(
                "sides",
                12,
                "per seat (observer first) and shop type in board order, cards / 9",
            ),
            TensorField::new(
                "hands",
                8,
                "per seat (observer first), 1 per action card Give, Take, Cooperate, Undermine in hand",
            ),
            TensorField::new(
                "revealed_pair",
                8,
                "at a decide node, per seat (observer first) one-hot of its revealed action card; else zeros",
            ),
            TensorField::new(
                "offer_kinds",
                18,
                "offer cards per kind (shop type x symbol none/+1/-1, card id order) / 9",
            ),
            TensorField::new(
                "offer_symbols",
                40,
                "per offer slot in flip order, the card's reputation symbol +1, -1 or 0; 0 past the offer",
            ),
            TensorField::new(
                "unseen_kinds",
                18,
                "unseen pool (deck and removed cards) per kind / 9",
            ),
            TensorField::new("deck", 1, "cards left in the deck / 54"),
            TensorField::new("round", 1, "rounds started / 18"),
            TensorField::new(
                "scores",
                2,
                "points if the game ended now, per seat (observer first), / 30",
            ),
        ]
    }

    /// Everything public: nothing here reads the order of the unseen pool (only its
    /// counts) or a pending action card.
    fn observation_tensor(&self, seat: Seat, out: &mut [f32]) {
        assert_eq!(out.len(), 148, "Daxu's observation tensor has 148 values");
        out.fill(0.0);
        let seats = [seat, 1 - seat];
        out[seat] = 1.0;
        let phase = match self.phase {
            Phase::Choose => 0,
            Phase::Decide { .. } => 1,
            Phase::Over => 2,
        };
        out[2 + phase] = 1.0;
        if let Phase::Decide { decider, tiebreak } = self.phase {
            out[5 + usize::from(decider as usize != seat)] = 1.0;
            out[7] = f32::from(u8::from(tiebreak));
            for (i, &p) in seats.iter().enumerate() {
                out[60 + 4 * i + self.pair[p] as usize] = 1.0;
            }
        }
        out[8 + usize::from(self.holder as usize != seat)] = 1.0;
        let scores = self.scores();
        for (i, &p) in seats.iter().enumerate() {
            out[10 + 15 * i + (self.rep[p] - REP_MIN) as usize] = 1.0;
            for (t, &n) in self.sides[p].iter().enumerate() {
                out[40 + 6 * i + t] = f32::from(n) / 9.0;
            }
            for a in 0..4 {
                out[52 + 4 * i + a] = f32::from(self.hands[p] >> a & 1);
            }
            out[146 + i] = scores[p] as f32 / 30.0;
        }
        let mut offer = [0u8; NUM_KINDS];
        for (j, c) in self.offer().iter().enumerate() {
            offer[c.0 as usize] += 1;
            out[86 + j] = f32::from(c.delta());
        }
        // Counts, never positions: the draw order of the pool is hidden.
        let unseen = self.unseen();
        for k in 0..NUM_KINDS {
            out[68 + k] = f32::from(offer[k]) / 9.0;
            out[126 + k] = f32::from(unseen[k]) / 9.0;
        }
        out[144] = f32::from(self.deck_len) / 54.0;
        out[145] = f32::from(self.round) / 18.0;
    }

    /// The observation printed, then the public history digest in hex (the info key):
    /// everything either seat has seen is public, and the digest covers the whole public
    /// history (setup, flips, revealed pairs, decisions), so it is perfect recall.
    fn information_state_string(&self, seat: Seat) -> String {
        format!("{}\nhistory {:016x}", self.observation(seat), self.history)
    }
}

impl Measured for State {
    /// The action counts of the report's action-frequency section.
    const ACTION_METRICS: &'static [&'static str] = &["give", "take", "cooperate", "undermine"];

    const SEAT_METRICS: &'static [Column] = &[
        Column {
            name: "give",
            meaning: "Give action cards revealed by this seat (repeats included)",
        },
        Column {
            name: "take",
            meaning: "Take action cards revealed by this seat",
        },
        Column {
            name: "cooperate",
            meaning: "Cooperate action cards revealed by this seat",
        },
        Column {
            name: "undermine",
            meaning: "Undermine action cards revealed by this seat",
        },
        Column {
            name: "over_dominance",
            meaning: "shop types where this seat's majority is too large and pays the \
                      over-dominance penalty at the end (daxu.txt, 1. Shops)",
        },
        Column {
            name: "reputation",
            meaning: "final reputation, -7..=7",
        },
        Column {
            name: "shop_points",
            meaning: "final points from shop majorities (score minus reputation points)",
        },
    ];

    const GAME_METRICS: &'static [Column] = &[
        Column {
            name: "tiebreak_uses",
            meaning: "Give/Give or Take/Take ties on equal reputations settled by the \
                      tie-breaker card during play",
        },
        Column {
            name: "points_tie",
            meaning: "1 if the final scores were equal and the tie-breaker holder won, else 0",
        },
    ];

    fn metrics(&self, out: &mut Metrics) {
        let (a, b) = shops_total(&self.sides);
        let shop_points = [a, b];
        for (p, m) in out.seat.iter_mut().enumerate().take(2) {
            for (slot, &n) in m.iter_mut().zip(&self.played[p]) {
                *slot = i32::from(n);
            }
            m[4] = Shop::ALL
                .iter()
                .filter(|&&s| {
                    let (mine, theirs) = (self.sides[p][s as usize], self.sides[1 - p][s as usize]);
                    mine > theirs && over_dominant(s, mine, theirs)
                })
                .count() as i32;
            m[5] = i32::from(self.rep[p]);
            m[6] = shop_points[p];
        }
        out.game[0] = i32::from(self.tiebreak_uses);
        let table = self.rules.params().reputation_points;
        let s = [0, 1].map(|p| shop_points[p] + reputation_points(table, self.rep[p]));
        out.game[1] = i32::from(self.phase == Phase::Over && s[0] == s[1]);
    }
}

impl RunningScore for State {
    /// Running score: shop points plus reputation points of the cards and reputation held
    /// now (DAXU-5.1–5.7, scoring applied mid-game).
    const HAS_RUNNING_SCORE: bool = true;
}

/// What a seat sees of a Daxu position (everything public; see [`GameState::observation`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The observing seat.
    pub seat: Seat,
    /// Rounds started.
    pub round: u8,
    /// Shop cards on each side, by [`Shop`] index.
    pub sides: [[u8; NUM_SHOPS]; 2],
    /// Both reputations.
    pub reputations: [i8; 2],
    /// The tie-breaker card holder.
    pub holder: u8,
    /// The flipped cards of the round, in flip order.
    pub offer: Vec<Card>,
    /// The unseen pool (deck + removed cards) by card kind.
    pub unseen: [u8; NUM_KINDS],
    /// Cards left in the deck.
    pub deck_len: u8,
    /// Action cards in each hand (bitmask by action id).
    pub hands: [u8; 2],
    /// The phase.
    pub phase: Phase,
    /// The revealed pair of action cards while a decision on it is pending.
    pub revealed: Option<[Action; 2]>,
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "seat {} sees: round {} | deck {} | tie-breaker: seat {} | {:?}",
            self.seat, self.round, self.deck_len, self.holder, self.phase
        )?;
        for p in 0..2 {
            write!(f, "seat {p}: rep {:+} | shops", self.reputations[p])?;
            for s in Shop::ALL {
                write!(f, " {}={}", s.name(), self.sides[p][s as usize])?;
            }
            writeln!(f)?;
        }
        write!(f, "offer:")?;
        for c in &self.offer {
            write!(f, " {c}")?;
        }
        if let Some([a, b]) = self.revealed {
            write!(f, " | revealed: {a} / {b}")?;
        }
        Ok(())
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let phase = match self.phase {
            Phase::Choose => "choose".to_string(),
            Phase::Decide { decider, tiebreak } => format!(
                "seat {decider} decides ({})",
                if tiebreak { "tie-breaker" } else { "undermine" }
            ),
            Phase::Over => "over".to_string(),
        };
        writeln!(
            f,
            "round {} ply {} | deck {} | tie-breaker: seat {} | {}",
            self.round, self.ply, self.deck_len, self.holder, phase
        )?;
        for p in 0..2 {
            write!(f, "seat {p}: rep {:+}, hand", self.rep[p])?;
            for a in &ALL[..4] {
                if self.hands[p] & (1 << *a as u8) != 0 {
                    write!(f, " {a}")?;
                }
            }
            write!(f, " | shops")?;
            for s in Shop::ALL {
                write!(f, " {}={}", s.name(), self.sides[p][s as usize])?;
            }
            writeln!(f)?;
        }
        write!(f, "offer:")?;
        for c in self.offer() {
            write!(f, " {c}")?;
        }
        if self.phase == Phase::Over {
            let s = self.scores();
            write!(f, "\nfinal scores: {} - {}", s[0], s[1])?;
        }
        Ok(())
    }
}
