//! The Merchants of Dunhuang state and its rules (see the module docs of
//! [`crate::games::dunhuang`]).

use crate::bits::{cumulative_byte_counts, ones as bits, select_bit};
use crate::game::InvalidState;
use crate::game::{ChanceMode, Dynamics, GameType, Information, Rules, TensorField, UtilityKind};
use std::fmt;
use std::hash::Hash;
use std::sync::OnceLock;

#[cfg(debug_assertions)]
thread_local! {
    /// The legal-action buffer of the debug legality check in `apply_unchecked`.
    static DEBUG_LEGAL: std::cell::RefCell<Vec<Action>> = const { std::cell::RefCell::new(Vec::new()) };
}

use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;

use super::action::{Action, MAX_STEP_ID, NUM_ACTION_IDS};
use super::{
    CHARACTERS, Characters, CircleOrder, EndTrigger, ExchangeOrder, InstantWinRest, MaidDifferent,
    Params, ShortPile, TradeShort, WinCheck, ch,
};
use crate::game::Utility;
use crate::game::{
    Chance, Column, GameState, JointAction, Labels, MAX_PLAYERS, Measured, Metrics, PerSeat,
    RulesRef, RunningScore, Seat, SeatSet, Turn, nth_bit16, popcount16, ranks_by_key,
    win_share_from_scores,
};
use crate::knowledge::{Knowledge, Zone};
use crate::params::ParamError;
use crate::rng::{SimRng, mix64};

mod evidence;
use evidence::Evidence;

/// "Nobody" / "empty" in the byte fields (a Market space without a card, a token in the
/// middle, no instant winner).
pub const NONE: u8 = u8::MAX;

/// Knowledge zones: seat `p`'s hand is zone `p`.
pub(crate) const PILE: Zone = 4;
/// Cards put at the bottom of the pile (Interpreter DUN-5.5, Diplomat DUN-5.6), drawn after the
/// pile, batch by batch.
pub(crate) const BOTTOM: Zone = 5;
/// Cards drawn by the Interpreter/Diplomat, before the keep.
pub(crate) const DRAWN: Zone = 6;
/// Cards removed at setup (DUN-2.3) and face-down discards (`discards_public=false`).
pub(crate) const REMOVED: Zone = 7;
/// The face-up table: Market, Shops, public discards.
pub(crate) const TABLE: Zone = 8;
const NUM_ZONES: usize = 9;

/// Most deals [`GameState::determinize`] draws before it gives up looking for one in which the
/// seat to act has a legal action (each succeeds with probability at least 1/64 for a
/// valid state: `(63/64)^4096 < e^-64`).
const MAX_DEALS: u32 = 4096;

/// Coins and Prestige in the box (DUN-1.1–1.3), the caps of `supply_limited` (DUN-09).
const BOX_COINS: u32 = 44;
const BOX_PRESTIGE: u32 = 28;

/// What [`Params`] and the player count fix for a game (DUN-01/02).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesData {
    /// Goods cards in play (35 / 44 / 55 by default).
    pub deck: u8,
    /// The value of each card id (cards sorted by value).
    pub value_of: [u8; 64],
    /// The cards of each value (index 1..=10; empty for removed values).
    pub mask: [u64; 11],
    /// The lowest card id of each value in play (its cards are `first[v]..first[v] + v`).
    pub first: [u8; 11],
    /// Bit `v` set: value `v` (and its Majority Token) is in play.
    pub values: u16,
    /// Coins each player starts with (DUN-2.4).
    pub start_coins: u16,
    /// Tokens for the instant win: 5 at 2 players, else 4 (DUN-3.6).
    pub win_tokens: u8,
    /// Largest legal step count (DUN-07).
    pub max_steps: u8,
    /// Cards in the pile after setup (21 / 27 / 35 by default).
    pub pile_after_setup: u8,
    /// Every seat (the players of this count), for the moves everybody sees.
    pub all_seats: SeatSet,
}

/// Where the game stands: which decision is asked next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Setup: seat `actor` keeps 1 of its 3 cards (DUN-2.3, DUN-14).
    Keep,
    /// Setup: the last player places the camel (DUN-2.5).
    Camel,
    /// Step 1: the active player moves the camel.
    Move,
    /// Step 2: hand or Shop.
    Pick,
    /// Step 3: power, 3 coins, or nothing.
    Bonus,
    /// The power's target.
    Power,
    /// Interpreter/Diplomat: keep one drawn card.
    KeepDrawn,
    /// Merchant: the victim gives a card.
    VictimGive,
    /// Trader/Merchant: the active player gives a card back.
    ActiveGive,
    /// Manichean: the token's owner flips it back or lets it go (DUN-06).
    TokenOwner,
    /// Buddhist: the stealer pays 2 coins or not (DUN-06).
    TokenPay,
    /// The game is over.
    Over,
}

/// Per-seat counters for the metrics ([`State::metrics`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatStats {
    /// Powers used.
    pub powers: u16,
    /// Bit `c`: character `c` used at least once.
    pub characters: u16,
    /// Tokens taken from the middle.
    pub from_middle: u16,
    /// Tokens taken from another Shop.
    pub stolen: u16,
    /// Tokens taken from this seat by another's card.
    pub lost: u16,
    /// Tokens this seat returned to the middle (DUN-04 return rule).
    pub returned: u16,
    /// Coins spent on camel steps.
    pub step_coins: u16,
    /// Coins gained from the 3-coin bonus.
    pub bonus_coins: u16,
    /// Coins received minus coins paid through the Buddhist.
    pub buddhist_net: i16,
}

/// A Merchants of Dunhuang position. Saved as JSON with every field (the card locations
/// in `know`, card ids sorted by value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    rules: RulesRef<State>,
    know: Knowledge,
    /// The character at each circle space.
    tiles: [u8; 8],
    /// The card beside each space, or [`NONE`].
    market: [u8; 8],
    /// Each Shop's cards.
    shop: [u64; MAX_PLAYERS],
    /// The holder of each value's token (index 1..=10), [`NONE`] = the middle.
    holder: [u8; 11],
    /// Bit `v`: token `v` shows its 裔 side.
    zh: u16,
    coins: [u16; MAX_PLAYERS],
    prestige: [u16; MAX_PLAYERS],
    /// Batch of each card at the bottom of the pile (0 for cards elsewhere).
    #[serde(with = "BigArray")]
    batch_of: [u8; 64],
    /// The next batch number (1-based).
    batch_next: u8,
    /// The card ids in deal order: `order[..order_next]` are dealt, `order[order_next..
    /// deck]` hold the pile (the partial Fisher–Yates shuffle of the setup, continued one
    /// card per draw). Valid while `order_pile` equals the pile's card set; when it does
    /// not (a position set up or dealt by [`GameState::determinize`]), the next draw lists the
    /// pile again in id order ([`State::reorder_pile`]).
    #[serde(with = "BigArray", default = "no_order")]
    order: [u8; 64],
    #[serde(default)]
    order_next: u8,
    /// The pile's card set that `order[order_next..deck]` holds (0: none yet).
    #[serde(default)]
    order_pile: u64,
    camel: u8,
    first: u8,
    active: u8,
    phase: Phase,
    /// Where play resumes after a token decision: `Bonus` or `Over`-less turn end (`Move`).
    resume: Phase,
    /// Seat that keeps at setup.
    actor: u8,
    /// Steps of this turn's move.
    steps: u8,
    victim: u8,
    to_give: u8,
    given: u8,
    /// The token value of a pending decision.
    pending: u8,
    /// A value whose return check waits for a token decision (`exchange_order=enter_first`).
    deferred: u8,
    /// Goods discarded face up (Painter with `discards_public`, Musician), on the table.
    discarded: u8,
    triggered: bool,
    winner: u8,
    ply: u32,
    turns: u16,
    stats: [SeatStats; MAX_PLAYERS],
    /// Running digest of everything every seat saw happen since the setup (module docs,
    /// "Information state"):
    /// the characters and the first Market, each public action (a hidden one as its
    /// stage and seat only), each card drawn to the Market, the first player if drawn,
    /// an instant win. A position saved before it existed loads with 0 (its history
    /// before the save is then unknown, the same for every seat).
    #[serde(default)]
    public_history: u64,
    /// Per seat, running digest of what that seat saw and not everybody did: its dealt
    /// hand, its hidden actions (keeps), the cards it drew (Interpreter/Diplomat), took
    /// or was given (Trader/Merchant), the values given in an exchange it took part in.
    /// Goods enter as values, never as card ids. Entries past the player count are 0.
    #[serde(default)]
    private_history: [u64; MAX_PLAYERS],
    /// Set by [`GameState::start_playout`]: the digests above are no longer kept (no
    /// information state will be asked of this state again). Not saved, and ignored by
    /// `==`.
    #[serde(skip)]
    playout: PlayoutMark,
    /// The recent turns kept for weighted determinization ([`State::replay_evidence`]).
    /// Not saved, and ignored by `==`.
    #[serde(skip)]
    evidence: Evidence,
}

/// Whether a state is being played out ([`GameState::start_playout`]): a flag that every
/// comparison ignores (two states equal but for it are the same position).
#[derive(Clone, Copy, Debug, Default)]
struct PlayoutMark(bool);

impl PartialEq for PlayoutMark {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Tags that keep the kinds of event apart in the history digests.
mod tag {
    /// The setup: the characters on the circle.
    pub const TILES: u64 = 1 << 60;
    /// A Market code (setup).
    pub const MARKET: u64 = 2 << 60;
    /// A seat's dealt hand (value code).
    pub const DEAL: u64 = 3 << 60;
    /// An action seen by the digest's seats: `seat | id << 3`.
    pub const ACTION: u64 = 4 << 60;
    /// An action hidden from some seats: `seat | stage << 3` in the public digest.
    pub const HIDDEN: u64 = 5 << 60;
    /// A card drawn to a Market space: `space | value << 3`.
    pub const REFILL: u64 = 6 << 60;
    /// Cards drawn or taken unseen by the others (value code).
    pub const DRAWN: u64 = 7 << 60;
    /// The first player, drawn after the keeps (`seat_known_at_keep=false`).
    pub const FIRST: u64 = 8 << 60;
    /// An instant win: the winner.
    pub const WIN: u64 = 9 << 60;
    /// The stand-in private digest of another seat in a determinized world.
    pub const RESAMPLED: u64 = 10 << 60;
    /// A seat's private digest at the start.
    pub const SEAT: u64 = 11 << 60;
}

/// One step of a running history digest: FxHash's combining step (rotate, xor,
/// multiply), a bijection of the digest for each event, cheap enough for every ply of a
/// playout. [`GameState::info_key`] finishes it with `mix64`.
#[inline(always)]
fn fold(h: u64, event: u64) -> u64 {
    (h.rotate_left(5) ^ event).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// What one seat sees (DUN-13): the public table, its hand, and the values it knows in
/// each hidden zone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// The observing seat.
    pub seat: u8,
    /// Decision stage, active seat, first seat.
    pub phase: Phase,
    /// The active seat.
    pub active: u8,
    /// The first player.
    pub first: u8,
    /// Setup keeper, victim, cards left to give, given, pending token value.
    pub detail: [u8; 5],
    /// Steps of this turn.
    pub steps: u8,
    /// The characters on the circle.
    pub tiles: [u8; 8],
    /// The camel's space.
    pub camel: u8,
    /// The value beside each space (0 = empty).
    pub market: [u8; 8],
    /// Each Shop's count per value.
    pub shops: [[u8; 11]; MAX_PLAYERS],
    /// Token holders ([`NONE`] = middle) and 裔 sides.
    pub holder: [u8; 11],
    /// Bit `v`: token `v` on its 裔 side.
    pub zh: u16,
    /// Coins per seat.
    pub coins: [u16; MAX_PLAYERS],
    /// Prestige per seat.
    pub prestige: [u16; MAX_PLAYERS],
    /// Cards in each zone (4 hands, pile, bottom, drawn, removed, table).
    pub sizes: [u8; NUM_ZONES],
    /// Per zone, the count per value of the cards whose place this seat knows there
    /// (its own hand entirely; the table is public and left out).
    pub known: [[u8; 11]; NUM_ZONES - 1],
    /// The end has been triggered.
    pub triggered: bool,
    /// Turns completed, plies played.
    pub turns: u16,
    /// Plies played.
    pub ply: u32,
    /// Instant winner or [`NONE`].
    pub winner: u8,
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "seat {} sees: {:?}, active {}, camel at {}, turn {}",
            self.seat, self.phase, self.active, self.camel, self.turns
        )?;
        let hand: Vec<String> = (1..=10)
            .flat_map(|v| {
                std::iter::repeat_n(v.to_string(), self.known[self.seat as usize][v] as usize)
            })
            .collect();
        writeln!(f, "  hand [{}]", hand.join(" "))?;
        writeln!(f, "  market {:?}", self.market)?;
        for p in 0..MAX_PLAYERS {
            if self.sizes[p] > 0 || self.coins[p] > 0 {
                writeln!(
                    f,
                    "  seat {p}: shop {:?} coins {} prestige {} hand size {}",
                    &self.shops[p][1..],
                    self.coins[p],
                    self.prestige[p],
                    self.sizes[p]
                )?;
            }
        }
        write!(
            f,
            "  pile {} bottom {}",
            self.sizes[PILE], self.sizes[BOTTOM]
        )
    }
}

/// A cursor over an observation tensor being written.
struct Writer<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl Writer<'_> {
    fn put(&mut self, x: f32) {
        self.out[self.at] = x;
        self.at += 1;
    }

    /// `len` values, 1 at `hot` (if any) and 0 elsewhere.
    fn one_hot(&mut self, len: usize, hot: Option<usize>) {
        debug_assert!(hot.is_none_or(|i| i < len));
        for i in 0..len {
            self.put(f32::from(u8::from(hot == Some(i))));
        }
    }

    /// The cards of `set` per value 1-10, each count / 10.
    fn counts(&mut self, s: &State, set: u64) {
        for v in 1..=10u8 {
            self.put(s.count(set, v) as f32 / 10.0);
        }
    }
}

/// The empty deal order of a position saved before it existed: the first draw lists the
/// pile.
fn no_order() -> [u8; 64] {
    [0; 64]
}

const ONES: u64 = 0x0101_0101_0101_0101;
/// The low 7 bits of each byte.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The high bit of each byte.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// `POP10[x]`: the set bits of a 10-bit `x` (the cards of one value, shifted down).
const POP10: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut x = 0;
    while x < 1024 {
        t[x] = (x as u32).count_ones() as u8;
        x += 1;
    }
    t
};

/// A uniformly random card of the non-empty `set`: the `k`-th card for one `below(len)`
/// pick, as [`Knowledge::draw`] picks.
#[inline(always)]
fn pick_card<C: Chance + ?Sized>(set: u64, chance: &mut C) -> usize {
    let cum = cumulative_byte_counts(set);
    select_bit(set, cum, chance.below((cum >> 56) as u32))
}

/// Whether `set` has at least `k` (0..=2) cards, without counting them.
fn holds_at_least(set: u64, k: u32) -> bool {
    match k {
        0 => true,
        1 => set != 0,
        _ => set & set.wrapping_sub(1) != 0,
    }
}

fn pair(a: usize, b: usize) -> SeatSet {
    SeatSet(SeatSet::single(a).0 | SeatSet::single(b).0)
}

/// The label of the characters in play, by their sides mask (bit `t` = side B of tile
/// `t`): the 8 names in tile order joined by `/`.
fn characters_label(sides: u8) -> &'static str {
    static LABELS: OnceLock<Vec<String>> = OnceLock::new();
    let all = LABELS.get_or_init(|| {
        (0..256)
            .map(|m| {
                (0..8)
                    .map(|t| CHARACTERS[2 * t + ((m >> t) & 1)])
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .collect()
    });
    &all[usize::from(sides)]
}

impl State {
    fn d(&self) -> &RulesData {
        self.rules.data()
    }

    fn p(&self) -> &Params {
        self.rules.params()
    }

    fn n(&self) -> usize {
        self.rules.players()
    }

    fn last(&self) -> usize {
        (usize::from(self.first) + self.n() - 1) % self.n()
    }

    /// The value of card `c`.
    fn val(&self, c: usize) -> u8 {
        self.d().value_of[c]
    }

    /// Cards of value `v` in `set`.
    fn count(&self, set: u64, v: u8) -> u32 {
        let d = self.d();
        let v = usize::from(v);
        // A value has at most 10 cards, in one run of ids: a table lookup.
        u32::from(POP10[((set & d.mask[v]) >> d.first[v]) as usize & 0x3ff])
    }

    /// A card of value `v` in `set` (the lowest id).
    fn card_of(&self, set: u64, v: u8) -> usize {
        let s = set & self.d().mask[usize::from(v)];
        debug_assert!(s != 0, "no card of value {v}");
        s.trailing_zeros() as usize
    }

    /// Bit `v` set for each value present in `set` (one step per distinct value: the
    /// lowest card's value, then that value's cards are dropped).
    fn values_in(&self, mut set: u64) -> u16 {
        let d = self.d();
        let mut out = 0;
        while set != 0 {
            let v = d.value_of[set.trailing_zeros() as usize];
            out |= 1 << v;
            set &= !d.mask[usize::from(v)];
        }
        out
    }

    /// The values of `set` as one number, 4 bits per value (`v` at bits `4(v-1)..4v`; a
    /// value has at most 10 cards): equal for two sets of the same values, whatever their
    /// card ids, for the history digests.
    fn value_code(&self, set: u64) -> u64 {
        bits(set).fold(0, |m, c| m + (1u64 << (4 * (u32::from(self.val(c)) - 1))))
    }

    /// Records `player`'s `action` (about to be applied) in the history digests: in the
    /// public one when every seat sees it, else there as its stage and seat only and in
    /// full in the private digests of the seats that see it (DUN-13): a setup keep and an
    /// Interpreter/Diplomat keep by the keeper, a give by the two parties, a Painter
    /// discard with `discards_public=false` by the painter.
    #[inline(always)]
    fn record_action(&mut self, player: Seat, action: Action) {
        if self.playout.0 {
            return;
        }
        let full = tag::ACTION | (action.id() as u64) << 3 | player as u64;
        let hidden = tag::HIDDEN | (self.phase as u64) << 3 | player as u64;
        let a = self.active();
        match self.phase {
            Phase::Keep | Phase::KeepDrawn => {
                self.private_history[player] = fold(self.private_history[player], full);
                self.evidence_unseen(SeatSet::single(player));
            }
            Phase::VictimGive | Phase::ActiveGive => {
                let q = usize::from(self.victim);
                self.private_history[a] = fold(self.private_history[a], full);
                self.private_history[q] = fold(self.private_history[q], full);
                self.evidence_unseen(pair(a, q));
            }
            Phase::Power
                if self.tiles[self.camel()] == ch::PAINTER && !self.p().discards_public =>
            {
                self.private_history[a] = fold(self.private_history[a], full);
                self.evidence_unseen(SeatSet::single(a));
            }
            _ => {
                self.public_history = fold(self.public_history, full);
                return;
            }
        }
        self.public_history = fold(self.public_history, hidden);
    }

    /// The seats that see `player`'s `action` played now (DUN-13), as the history digests
    /// file it (module docs, "Information state"): the keeper alone for a setup or
    /// Interpreter/Diplomat keep, the two parties for a Trader/Merchant give, the painter
    /// alone for a Painter discard with `discards_public=false`, every seat otherwise. For
    /// multiple-observer search ([`crate::games::log::GameLog::seen_by`]).
    pub fn seen_by(&self, player: Seat, action: Action) -> SeatSet {
        let a = self.active();
        match (self.phase, action) {
            (Phase::Keep | Phase::KeepDrawn, _) => SeatSet::single(player),
            (Phase::VictimGive | Phase::ActiveGive, _) => pair(a, usize::from(self.victim)),
            (Phase::Power, _)
                if self.tiles[self.camel()] == ch::PAINTER && !self.p().discards_public =>
            {
                SeatSet::single(a)
            }
            _ => SeatSet::all(self.num_players()),
        }
    }

    /// [`State::record_action`] for an action every seat sees, at the stages of every
    /// turn (move, pick, bonus), where the caller names the variant so that its id folds
    /// to a constant.
    #[inline(always)]
    fn record_public(&mut self, player: Seat, action: Action) {
        if self.playout.0 {
            return;
        }
        let full = tag::ACTION | (action.id() as u64) << 3 | player as u64;
        self.public_history = fold(self.public_history, full);
    }

    /// Records cards of the value code `code` that seats `a` and `b` (possibly equal) saw
    /// arrive unseen by the others.
    fn record_private_draw(&mut self, a: usize, b: usize, code: u64) {
        if self.playout.0 {
            return;
        }
        self.evidence_unseen(pair(a, b));
        self.private_history[a] = fold(self.private_history[a], tag::DRAWN | code);
        if b != a {
            self.private_history[b] = fold(self.private_history[b], tag::DRAWN | code);
        }
    }

    /// Seat `p`'s hand (card ids).
    pub fn hand(&self, p: Seat) -> u64 {
        self.know.cards(p)
    }

    /// Seat `p`'s hand as counts per value (index 1..=10).
    pub fn hand_counts(&self, p: Seat) -> [u8; 11] {
        self.counts(self.hand(p))
    }

    /// Seat `p`'s Shop as counts per value (index 1..=10).
    pub fn shop_counts(&self, p: Seat) -> [u8; 11] {
        self.counts(self.shop[p])
    }

    fn counts(&self, set: u64) -> [u8; 11] {
        let mut out = [0u8; 11];
        for (v, o) in out.iter_mut().enumerate().skip(1) {
            *o = self.count(set, v as u8) as u8;
        }
        out
    }

    /// The holder of value `v`'s token (`None` = the middle) and whether it shows 裔.
    pub fn token(&self, v: u8) -> (Option<Seat>, bool) {
        let h = self.holder[usize::from(v)];
        (
            (h != NONE).then_some(usize::from(h)),
            self.zh & (1 << v) != 0,
        )
    }

    /// Majority Tokens in seat `p`'s Shop, either side: the holder bytes equal to `p`,
    /// counted with SWAR (as `held_by` finds them; `holder[0]` and the padding
    /// are [`NONE`], never a seat).
    #[inline]
    pub fn tokens(&self, p: Seat) -> u32 {
        let (lo, hi) = self.holder_flags(p);
        ((lo + hi).wrapping_mul(ONES) >> 56) as u32
    }

    /// The 11 holder bytes as two words (the second padded with [`NONE`]), with 1 in each
    /// byte equal to `p` (a zero byte of `word ^ p`, found with SWAR), else 0.
    #[inline]
    fn holder_flags(&self, p: Seat) -> (u64, u64) {
        let h = &self.holder;
        let pat = (p as u64 & 0xff).wrapping_mul(ONES);
        let eq = |x: u64| {
            let t = x ^ pat;
            (!(((t & LOW7) + LOW7) | t) & HIGH) >> 7
        };
        (
            eq(u64::from_le_bytes([
                h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
            ])),
            eq(u64::from_le_bytes([
                h[8], h[9], h[10], NONE, NONE, NONE, NONE, NONE,
            ])),
        )
    }

    /// Bit `v` set for each token value `v` (1..=10) in seat `p`'s Shop: the holder bytes
    /// equal to `p`, found with SWAR (zero bytes of `holder ^ p`) and gathered by one
    /// multiplication.
    #[inline]
    fn held_by(&self, p: Seat) -> u16 {
        let (lo, hi) = self.holder_flags(p);
        // Byte i's flag to bit i.
        let gather = |flags: u64| (flags.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16;
        (gather(lo) | gather(hi) << 8) & 0x7fe
    }

    /// Coins of seat `p`.
    pub fn coins(&self, p: Seat) -> u16 {
        self.coins[p]
    }

    /// Prestige of seat `p`.
    pub fn prestige(&self, p: Seat) -> u16 {
        self.prestige[p]
    }

    /// The decision stage.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The active (turn) seat.
    pub fn active(&self) -> Seat {
        usize::from(self.active)
    }

    /// The camel's space.
    pub fn camel(&self) -> usize {
        usize::from(self.camel)
    }

    /// The characters around the circle (ids into [`CHARACTERS`]).
    pub fn tiles(&self) -> [u8; 8] {
        self.tiles
    }

    /// The value beside each Market space (0 = empty).
    pub fn market_values(&self) -> [u8; 8] {
        self.market.map(|c| {
            if c == NONE {
                0
            } else {
                self.val(usize::from(c))
            }
        })
    }

    /// Cards left to draw: the pile and its bottom.
    pub fn pile_len(&self) -> u32 {
        self.know.len(PILE) + self.know.len(BOTTOM)
    }

    /// Whether the end has been triggered (DUN-10).
    pub fn triggered(&self) -> bool {
        self.triggered
    }

    /// The instant winner, if any (DUN-3.6).
    pub fn instant_winner(&self) -> Option<Seat> {
        (self.winner != NONE).then_some(usize::from(self.winner))
    }

    /// The card knowledge (zones: hands 0–3, pile 4, bottom 5, drawn 6, removed 7, table 8).
    pub fn knowledge(&self) -> &Knowledge {
        &self.know
    }

    /// Goods discarded face up so far.
    pub fn discarded(&self) -> u32 {
        u32::from(self.discarded)
    }

    /// The Market cards (ids, [`NONE`] = empty).
    pub fn market(&self) -> [u8; 8] {
        self.market
    }

    /// Seat `p`'s Shop (card ids).
    pub fn shop(&self, p: Seat) -> u64 {
        self.shop[p]
    }

    /// The per-seat counters behind the metrics.
    pub fn stats(&self, p: Seat) -> SeatStats {
        self.stats[p]
    }

    /// The Manichean or the Buddhist, whichever is in play (tile 8 shows one of them).
    fn protector(&self) -> u8 {
        if self.tiles.contains(&ch::MANICHEAN) {
            ch::MANICHEAN
        } else {
            ch::BUDDHIST
        }
    }

    /// The checks of [`GameState::validate`] on the counters and the supply, each message
    /// naming the field:
    ///
    /// - `ply` within [`GameState::max_game_length`], `turns` ≤ `ply` (a turn takes at
    ///   least one ply), no turn taken during the setup stages (`keep`, `camel`);
    /// - while turns are played, `active` is the seat `turns` places after `first` (turns
    ///   pass clockwise, DUN-3.1);
    /// - `over` without an instant winner only once the end was `triggered` (DUN-10);
    /// - under `supply_limited`, at most 44 coins and 28 Prestige held in all (DUN-09:
    ///   the box's supply; gains beyond it are lost).
    fn check_counters_and_supply(&self) -> Result<(), String> {
        let n = self.n();
        let max_ply = <State as GameState>::max_game_length(self.rules.get());
        if self.ply > max_ply {
            return Err(format!(
                "ply = {} exceeds the game's bound 0..={max_ply}",
                self.ply
            ));
        }
        if u32::from(self.turns) > self.ply {
            return Err(format!(
                "turns = {} exceeds ply = {} (a turn takes at least one ply)",
                self.turns, self.ply
            ));
        }
        let setup = matches!(self.phase, Phase::Keep | Phase::Camel);
        if setup && self.turns != 0 {
            return Err(format!(
                "turns = {} at the setup stage {:?} (turns start after the camel is placed)",
                self.turns, self.phase
            ));
        }
        if !setup && self.phase != Phase::Over {
            let want = (usize::from(self.first) + usize::from(self.turns)) % n;
            if usize::from(self.active) != want {
                return Err(format!(
                    "active = {} but first = {} and turns = {} make seat {want} active (turns \
                     pass clockwise)",
                    self.active, self.first, self.turns
                ));
            }
        }
        if self.phase == Phase::Over && self.winner == NONE && !self.triggered {
            return Err(
                "phase = over without an instant winner and without the end triggered \
                 (triggered = false)"
                    .into(),
            );
        }
        if self.p().supply_limited {
            let coins: u32 = self.coins.iter().map(|&c| u32::from(c)).sum();
            let prestige: u32 = self.prestige.iter().map(|&c| u32::from(c)).sum();
            if coins > BOX_COINS || prestige > BOX_PRESTIGE {
                return Err(format!(
                    "coins {:?} ({coins} in all) or prestige {:?} ({prestige} in all) exceed \
                     the supply of {BOX_COINS} coins and {BOX_PRESTIGE} Prestige \
                     (supply_limited, DUN-09)",
                    &self.coins[..n],
                    &self.prestige[..n]
                ));
            }
        }
        Ok(())
    }

    // ----- supply (DUN-09) -----

    fn gain_coins(&mut self, p: Seat, k: u16) -> u16 {
        let k = if self.p().supply_limited {
            let held: u32 = self.coins.iter().map(|&c| u32::from(c)).sum();
            k.min(BOX_COINS.saturating_sub(held) as u16)
        } else {
            k
        };
        self.coins[p] += k;
        k
    }

    fn gain_prestige(&mut self, p: Seat, k: u16) {
        let k = if self.p().supply_limited {
            let held: u32 = self.prestige.iter().map(|&c| u32::from(c)).sum();
            k.min(BOX_PRESTIGE.saturating_sub(held) as u16)
        } else {
            k
        };
        self.prestige[p] += k;
    }

    // ----- cards -----

    /// Draws the top card (uniform over the pile, then over the oldest bottom batch).
    #[inline(always)]
    fn draw_pile<C: Chance + ?Sized>(
        &mut self,
        to: Zone,
        seen: SeatSet,
        chance: &mut C,
    ) -> Option<usize> {
        let pile = self.know.cards(PILE);
        if pile != 0 {
            if pile != self.order_pile {
                self.reorder_pile();
            }
            // One Fisher–Yates step: a uniform card of `order[next..deck]` (the pile)
            // swapped to `next` and dealt.
            let next = usize::from(self.order_next);
            let left = usize::from(self.d().deck) - next;
            let j = next + chance.below(left as u32) as usize;
            let card = self.order[j];
            self.order.swap(j, next);
            self.order_next += 1;
            let card = usize::from(card);
            self.order_pile &= !(1 << card);
            self.know.move_from(card, PILE, to, seen);
            return Some(card);
        }
        self.draw_bottom(to, seen, chance)
    }

    /// Lists the pile in id order at the end of `order` (the deal order no longer matches
    /// it: a position set up by hand, loaded, or dealt by [`GameState::determinize`]).
    #[cold]
    #[inline(never)]
    fn reorder_pile(&mut self) {
        let pile = self.know.cards(PILE);
        let deck = usize::from(self.d().deck);
        let start = deck - pile.count_ones() as usize;
        for (i, c) in bits(pile).enumerate() {
            self.order[start + i] = c as u8;
        }
        self.order_next = start as u8;
        self.order_pile = pile;
    }

    /// [`State::draw_pile`] once the pile proper is empty: the oldest bottom batch.
    #[cold]
    #[inline(never)]
    fn draw_bottom<C: Chance + ?Sized>(
        &mut self,
        to: Zone,
        seen: SeatSet,
        chance: &mut C,
    ) -> Option<usize> {
        let bottom = self.know.cards(BOTTOM);
        if bottom == 0 {
            return None;
        }
        let oldest = bits(bottom).map(|c| self.batch_of[c]).min().unwrap_or(0);
        let batch = bits(bottom)
            .filter(|&c| self.batch_of[c] == oldest)
            .fold(0u64, |a, c| a | 1 << c);
        let card = pick_card(batch, chance);
        self.batch_of[card] = 0;
        self.know.move_from(card, BOTTOM, to, seen);
        Some(card)
    }

    /// DUN-3.7: fill empty spaces from the camel's space clockwise; false if some stayed
    /// empty for lack of cards.
    fn refill<C: Chance + ?Sized>(&mut self, chance: &mut C) -> bool {
        // Bit i: the space i steps clockwise from the camel is empty ([`NONE`] bytes).
        let spaces = u64::from_le_bytes(self.market).rotate_right(8 * u32::from(self.camel));
        let empty = spaces & (spaces >> 1) & (spaces >> 2) & (spaces >> 3);
        let empty = empty & (empty >> 4) & 0x0101_0101_0101_0101;
        if empty == 0 {
            return true;
        }
        if self.know.cards(PILE) | self.know.cards(BOTTOM) == 0 {
            return false;
        }
        let all = self.d().all_seats;
        let mut complete = true;
        for i in bits(empty) {
            let m = (usize::from(self.camel) + i / 8) % 8;
            match self.draw_pile(TABLE, all, chance) {
                Some(c) => {
                    self.market[m] = c as u8;
                    if !self.playout.0 {
                        let v = u64::from(self.val(c));
                        self.public_history =
                            fold(self.public_history, tag::REFILL | v << 3 | m as u64);
                    }
                }
                None => complete = false,
            }
        }
        complete
    }

    /// Moves card `c` into a hand or the table zone, seen by everybody (DUN-13).
    fn move_public(&mut self, c: usize, from: Zone, to: Zone) {
        self.know.move_from(c, from, to, self.d().all_seats);
    }

    /// After cards changed hands between `a` and `q` unseen by the others (Trader,
    /// Merchant), every other seat forgets what it knew of both hands (DUN-13).
    fn forget_exchange(&mut self, a: usize, q: usize) {
        let others = SeatSet(self.d().all_seats.0 & !pair(a, q).0);
        self.know.forget(self.hand(a) | self.hand(q), others);
    }

    // ----- Majority Tokens (DUN-3.4, DUN-5.13, DUN-04/06) -----

    fn take_token(&mut self, p: usize, v: u8) {
        let h = self.holder[usize::from(v)];
        if h == NONE {
            self.stats[p].from_middle += 1;
        } else {
            self.stats[p].stolen += 1;
            self.stats[usize::from(h)].lost += 1;
        }
        self.holder[usize::from(v)] = p as u8;
        // DUN-3.4 "number face up"; DUN-5.16 a stolen token is turned number side up.
        self.zh &= !(1 << v);
    }

    /// A card of value `v` has entered `p`'s Shop: the gain check. Returns true when a
    /// decision (DUN-06) is now pending.
    #[inline(always)]
    fn gain_check(&mut self, p: usize, v: u8) -> bool {
        let h = self.holder[usize::from(v)];
        if h == NONE {
            self.take_token(p, v);
            return false;
        }
        let h = usize::from(h);
        if h == p {
            return false;
        }
        let (c, ch) = (self.count(self.shop[p], v), self.count(self.shop[h], v));
        if ch > c {
            return false;
        }
        if ch < c || self.zh & (1 << v) == 0 {
            self.take_token(p, v);
            return false;
        }
        // A tie on a 裔 token: DUN-5.16.
        self.pending = v;
        if self.protector() == ch::MANICHEAN {
            self.phase = Phase::TokenOwner;
            true
        } else if self.coins[p] >= 2 || !self.p().buddhist_needs_two_coins {
            self.phase = Phase::TokenPay;
            true
        } else {
            self.pending = 0;
            false
        }
    }

    /// A card of value `v` has left `p`'s Shop: the return check (DUN-5.13, DUN-04).
    fn return_check(&mut self, p: usize, v: u8) {
        if usize::from(self.holder[usize::from(v)]) != p {
            return;
        }
        if self.p().zh_protects_return && self.zh & (1 << v) != 0 {
            return;
        }
        let c = self.count(self.shop[p], v);
        let more = (0..self.n()).any(|q| q != p && self.count(self.shop[q], v) > c);
        if more || (c == 0 && self.p().zero_count_returns_token) {
            self.holder[usize::from(v)] = NONE;
            self.zh &= !(1 << v);
            self.stats[p].returned += 1;
        }
    }

    /// An exchange for the Soldier/Maid: `out` leaves `p`'s Shop (to `out_to`), `inc`
    /// enters it (from wherever it is), checks in `exchange_order` (DUN-12). Returns true
    /// if a decision is pending.
    fn exchange_shop(&mut self, p: usize, out: usize, inc: usize) -> bool {
        let (vo, vi) = (self.val(out), self.val(inc));
        match self.p().exchange_order {
            ExchangeOrder::LeaveFirst => {
                self.shop[p] &= !(1 << out);
                self.return_check(p, vo);
                self.shop[p] |= 1 << inc;
                self.gain_check(p, vi)
            }
            ExchangeOrder::EnterFirst => {
                self.shop[p] |= 1 << inc;
                let pending = self.gain_check(p, vi);
                self.shop[p] &= !(1 << out);
                if pending {
                    self.deferred = vo;
                } else {
                    self.return_check(p, vo);
                }
                pending
            }
        }
    }

    // ----- powers -----

    /// Whether the active player may use the power of the camel's character (DUN-16).
    #[inline(always)]
    fn power_available(&self) -> bool {
        let a = self.active();
        let (hand, shop) = (self.hand(a), self.shop[a]);
        let c = self.tiles[self.camel()];
        match c {
            ch::PRINCESS | ch::DANCER => true,
            ch::INTERPRETER | ch::DIPLOMAT => {
                let draw = if c == ch::INTERPRETER { self.steps } else { 2 };
                self.know.cards(PILE) | self.know.cards(BOTTOM) != 0
                    && (self.p().short_pile_draw == ShortPile::WhatExists
                        || self.pile_len() >= u32::from(draw))
            }
            // Shortcuts where "some target" is "something to pick from" (the same answers
            // as `for_each_target`).
            ch::PAINTER => hand != 0,
            ch::MUSICIAN => shop != 0,
            ch::GENERAL => hand != 0 && self.market_spaces() != 0,
            ch::SOLDIER if self.p().soldier_same_type => shop != 0 && self.market_spaces() != 0,
            ch::DOMESTIC => hand | shop != 0,
            // A Shop good and "a different one" (DUN-5.11) from the hand, of another type
            // (DUN-08 ASSUMPTION `maid_different=type`): unavailable only when both hold
            // goods of one and the same value.
            ch::MAID => {
                shop != 0
                    && hand != 0
                    && (self.p().maid_different == MaidDifferent::Card || {
                        let one =
                            self.d().mask[usize::from(self.val(shop.trailing_zeros() as usize))];
                        (shop | hand) & !one != 0
                    })
            }
            ch::SHEPHERD => {
                let camel = self.camel();
                self.market[(camel + 1) % 8] != NONE || self.market[(camel + 7) % 8] != NONE
            }
            ch::FARMER => self.market_spaces() & self.farmer_spaces() != 0,
            ch::TRADER | ch::MERCHANT => match self.trade_need(c) {
                // Some opponent (there always is one).
                0 => true,
                // Some opponent holds a card: the hands are disjoint zones 0..4 (empty for
                // absent seats).
                1 => (0..MAX_PLAYERS).fold(0, |m, q| m | self.hand(q)) & !hand != 0,
                need => (0..self.n()).any(|q| q != a && holds_at_least(self.hand(q), need)),
            },
            ch::MANICHEAN | ch::BUDDHIST => self.flip_targets(a) != 0,
            _ => self.has_target(a),
        }
    }

    /// Whether the seat to act has at least one legal action (true at the end, where
    /// nobody acts), without listing them. Every stage, and what its legality reads:
    /// - `Keep`: a hand of 3 (public size); `Camel`: 8 spaces; `Move`: 1 step is always
    ///   legal (at most `coins + 1` steps); `Pick`: hand or Shop; `Bonus`: 3 coins is
    ///   always legal; `TokenOwner`/`TokenPay`: two choices each.
    /// - `KeepDrawn`, `VictimGive`, `ActiveGive`: a non-empty zone (public sizes; play
    ///   never reaches them with it empty).
    /// - `Power`: the power's targets ([`State::power_available`]). Only the Maid's
    ///   depend on which cards a hidden hand holds (`maid_different=type`: a hand good of
    ///   a type other than the Shop's, when the Shop holds one type); the Painter, General
    ///   and Domestic need a non-empty hand (public size), the Trader and Merchant
    ///   opponents' hand sizes, the others public Shops, tokens and Market spaces.
    ///
    /// So a state from play always passes, and [`GameState::determinize`] keeps only deals
    /// that pass (the Maid's constraint on the active player's hidden hand).
    pub(crate) fn seat_to_act_can_act(&self) -> bool {
        match self.phase {
            Phase::Keep => self.know.len(usize::from(self.actor)) > 0,
            Phase::Power => self.power_available(),
            Phase::KeepDrawn => self.know.len(DRAWN) > 0,
            Phase::VictimGive => self.know.len(usize::from(self.victim)) > 0,
            Phase::ActiveGive => self.know.len(self.active()) > 0,
            Phase::Camel
            | Phase::Move
            | Phase::Pick
            | Phase::Bonus
            | Phase::TokenOwner
            | Phase::TokenPay
            | Phase::Over => true,
        }
    }

    /// Whether `for_each_target` finds a target (the reference for `power_available`).
    #[cold]
    #[inline(never)]
    fn has_target(&self, a: usize) -> bool {
        let mut any = false;
        self.for_each_target(a, &mut |_| {
            any = true;
            false
        });
        any
    }

    /// `power_available` agrees with the list of targets (for tests).
    #[cfg(test)]
    pub(super) fn power_shortcut_agrees(&self) -> bool {
        self.power_available() == self.has_target(self.active())
            || matches!(
                self.tiles[self.camel()],
                ch::PRINCESS | ch::DANCER | ch::INTERPRETER | ch::DIPLOMAT
            )
    }

    /// The Manichean/Buddhist targets: bit `v` for each token of `a` that may be flipped.
    fn flip_targets(&self, a: usize) -> u16 {
        let held = self.held_by(a);
        if self.p().flip_requires_number_side {
            held & !self.zh
        } else {
            held
        }
    }

    /// Cards the Trader/Merchant's opponent must hold (DUN-08 `trade_short_hand`).
    fn trade_need(&self, c: u8) -> u32 {
        match (self.p().trade_short_hand, c) {
            (TradeShort::Unavailable, _) => 2,
            (TradeShort::Min2SameCount, ch::TRADER) => 1,
            _ => 0,
        }
    }

    /// Calls `f` on each target action of the camel's character, in id order, until it
    /// returns false.
    fn for_each_target<F: FnMut(Action) -> bool>(&self, a: usize, f: &mut F) {
        let hv = || self.values_in(self.hand(a));
        let sv = || self.values_in(self.shop[a]);
        let each = |set: u16| (1..=10u8).filter(move |v| set & (1 << v) != 0);
        let camel = self.camel();
        match self.tiles[camel] {
            ch::PAINTER => {
                for v in each(hv()) {
                    if !f(Action::Discard(v)) {
                        return;
                    }
                }
            }
            ch::MUSICIAN => {
                for v in each(sv()) {
                    if !f(Action::Discard(v)) {
                        return;
                    }
                }
            }
            ch::SOLDIER | ch::GENERAL => {
                let soldier = self.tiles[camel] == ch::SOLDIER;
                let src = if soldier { sv() } else { hv() };
                for v in each(src) {
                    for m in 0..8u8 {
                        let c = self.market[usize::from(m)];
                        if c == NONE {
                            continue;
                        }
                        if soldier && !self.p().soldier_same_type && self.val(usize::from(c)) == v {
                            continue;
                        }
                        if !f(Action::Exchange(v, m)) {
                            return;
                        }
                    }
                }
            }
            ch::TRADER | ch::MERCHANT => {
                let need = self.trade_need(self.tiles[camel]);
                for q in 0..self.n() {
                    if q != a && self.know.len(q) >= need && !f(Action::Opponent(q as u8)) {
                        return;
                    }
                }
            }
            ch::MAID => {
                let typed = self.p().maid_different == MaidDifferent::Type;
                for s in each(sv()) {
                    for h in each(hv()) {
                        if typed && s == h {
                            continue;
                        }
                        if !f(Action::Maid(s, h)) {
                            return;
                        }
                    }
                }
            }
            ch::DOMESTIC => {
                for v in each(sv()) {
                    if !f(Action::ToHand(v)) {
                        return;
                    }
                }
                for v in each(hv()) {
                    if !f(Action::ToShop(v)) {
                        return;
                    }
                }
            }
            ch::SHEPHERD => {
                let (next, prev) = ((camel + 1) % 8, (camel + 7) % 8);
                let (lo, hi) = (next.min(prev), next.max(prev));
                for m in [lo, hi] {
                    if self.market[m] != NONE && !f(Action::Take(m as u8)) {
                        return;
                    }
                }
            }
            ch::FARMER => {
                let k = usize::from(self.steps).min(8);
                let mut spaces = 0u8;
                for i in 1..=k {
                    let m = (camel + i) % 8;
                    if self.market[m] != NONE {
                        spaces |= 1 << m;
                    }
                }
                for m in 0..8u8 {
                    if spaces & (1 << m) != 0 && !f(Action::Take(m)) {
                        return;
                    }
                }
            }
            ch::MANICHEAN | ch::BUDDHIST => {
                for v in each(self.flip_targets(a)) {
                    if !f(Action::Flip(v)) {
                        return;
                    }
                }
            }
            _ => {}
        }
    }

    /// A uniformly random target of the camel's character for seat `a`: the `k`-th of
    /// [`State::for_each_target`]'s list for one `random_range(0..len)` draw, as the
    /// default [`GameState::random_action`] picks it, computed from the target sets without
    /// writing the list. `None` (nothing drawn) for the one list not handled here: the
    /// Soldier under `soldier_same_type = false` (another type per Market card).
    fn random_target(&self, a: usize, rng: &mut SimRng) -> Option<Action> {
        use rand::RngExt;
        let nth = |set: u16, k: u32| nth_bit16(set, k) as u8;
        let pc = popcount16;
        let hv = || self.values_in(self.hand(a));
        let sv = || self.values_in(self.shop[a]);
        let camel = self.camel();
        let c = self.tiles[camel];
        Some(match c {
            ch::PAINTER | ch::MUSICIAN => {
                let vs = if c == ch::PAINTER { hv() } else { sv() };
                Action::Discard(nth(vs, rng.random_range(0..pc(vs))))
            }
            ch::DOMESTIC => {
                let (s, h) = (sv(), hv());
                let k = rng.random_range(0..pc(s) + pc(h));
                if k < pc(s) {
                    Action::ToHand(nth(s, k))
                } else {
                    Action::ToShop(nth(h, k - pc(s)))
                }
            }
            ch::GENERAL | ch::SOLDIER if c == ch::GENERAL || self.p().soldier_same_type => {
                let src = if c == ch::SOLDIER { sv() } else { hv() };
                let spaces = self.market_spaces();
                let k = rng.random_range(0..pc(src) * pc(spaces));
                Action::Exchange(nth(src, k / pc(spaces)), nth(spaces, k % pc(spaces)))
            }
            ch::MAID if self.p().maid_different == MaidDifferent::Card => {
                let (s, h) = (sv(), hv());
                let k = rng.random_range(0..pc(s) * pc(h));
                Action::Maid(nth(s, k / pc(h)), nth(h, k % pc(h)))
            }
            ch::MAID => {
                // Pairs of different values, Shop value first: row `s` lacks `h = s`.
                let (s, h) = (sv(), hv());
                let mut k = rng.random_range(0..pc(s) * pc(h) - pc(s & h));
                let mut rows = s;
                loop {
                    let v = rows.trailing_zeros() as u8;
                    let row = h & !(1 << v);
                    if k < pc(row) {
                        break Action::Maid(v, nth(row, k));
                    }
                    k -= pc(row);
                    rows &= rows - 1;
                }
            }
            ch::TRADER | ch::MERCHANT => {
                let need = self.trade_need(c);
                let mut qs = 0u16;
                for q in 0..self.n() {
                    if q != a && holds_at_least(self.hand(q), need) {
                        qs |= 1 << q;
                    }
                }
                Action::Opponent(nth(qs, rng.random_range(0..pc(qs))))
            }
            ch::SHEPHERD => {
                let spaces =
                    self.market_spaces() & (1 << ((camel + 1) % 8) | 1 << ((camel + 7) % 8));
                Action::Take(nth(spaces, rng.random_range(0..pc(spaces))))
            }
            ch::FARMER => {
                let spaces = self.market_spaces() & self.farmer_spaces();
                Action::Take(nth(spaces, rng.random_range(0..pc(spaces))))
            }
            ch::MANICHEAN | ch::BUDDHIST => {
                let vs = self.flip_targets(a);
                Action::Flip(nth(vs, rng.random_range(0..pc(vs))))
            }
            _ => return None,
        })
    }

    /// Bit `m` set for each of the `k` spaces after the camel (DUN-5.15: the Farmer may take
    /// from any of the next `k` spaces after `k` steps; all 8 for `k >= 8`).
    fn farmer_spaces(&self) -> u16 {
        let k = usize::from(self.steps).min(8);
        let camel = self.camel();
        // The k spaces after the camel, rotated into place.
        let ahead = ((1u16 << k) - 1) << 1;
        let ahead = (ahead | ahead >> 8) & 0xff;
        (ahead << camel | ahead >> (8 - camel)) & 0xff
    }

    /// Bit `m` set for each Market space with a card.
    fn market_spaces(&self) -> u16 {
        let spaces = !u64::from_le_bytes(self.market);
        // A space is empty iff its byte is NONE (all ones): a zero byte of `!market`.
        let full = (((spaces & 0x7f7f_7f7f_7f7f_7f7f) + 0x7f7f_7f7f_7f7f_7f7f) | spaces)
            & 0x8080_8080_8080_8080;
        ((full >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16
    }

    /// Step 3 with the power chosen: powers without a target resolve here.
    fn start_power<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        let a = self.active();
        let c = self.tiles[self.camel()];
        self.stats[a].powers += 1;
        self.stats[a].characters |= 1 << c;
        match c {
            // DUN-5.3: as many Prestige as Majority Tokens, either side.
            ch::PRINCESS => {
                let t = self.tokens(a) as u16;
                self.gain_prestige(a, t);
                self.finish_turn(chance);
            }
            // DUN-5.4.
            ch::DANCER => {
                self.gain_prestige(a, 2);
                self.finish_turn(chance);
            }
            // DUN-5.5 / DUN-5.6: draw (what exists, DUN-08), keep one.
            ch::INTERPRETER | ch::DIPLOMAT => {
                let k = if c == ch::INTERPRETER { self.steps } else { 2 };
                for _ in 0..k {
                    if self.draw_pile(DRAWN, SeatSet::single(a), chance).is_none() {
                        break;
                    }
                }
                // The drawn values as a set (their draw order is never seen).
                if !self.playout.0 {
                    let code = self.value_code(self.know.cards(DRAWN));
                    self.record_private_draw(a, a, code);
                }
                self.phase = Phase::KeepDrawn;
            }
            _ => self.phase = Phase::Power,
        }
    }

    /// The power's target (phase `Power`).
    fn apply_target<C: Chance + ?Sized>(&mut self, action: Action, chance: &mut C) {
        let a = self.active();
        let c = self.tiles[self.camel()];
        let mut pending = false;
        match (c, action) {
            // DUN-5.1: discard a hand good, 3 Prestige.
            (ch::PAINTER, Action::Discard(v)) => {
                let card = self.card_of(self.hand(a), v);
                if self.p().discards_public {
                    self.move_public(card, a, TABLE);
                    self.discarded += 1;
                } else {
                    self.know.move_from(card, a, REMOVED, SeatSet::single(a));
                }
                self.gain_prestige(a, 3);
            }
            // DUN-5.2: discard a Shop good, 3 Prestige; the return check (DUN-5.13).
            (ch::MUSICIAN, Action::Discard(v)) => {
                let card = self.card_of(self.shop[a], v);
                self.shop[a] &= !(1 << card);
                self.discarded += 1;
                self.return_check(a, v);
                self.gain_prestige(a, 3);
            }
            // DUN-5.7: a Shop good for a Market good; the Shop card takes the Market space.
            (ch::SOLDIER, Action::Exchange(v, m)) => {
                let out = self.card_of(self.shop[a], v);
                let inc = usize::from(self.market[usize::from(m)]);
                self.market[usize::from(m)] = out as u8;
                pending = self.exchange_shop(a, out, inc);
            }
            // DUN-5.8: a hand good for a Market good, seen by all.
            (ch::GENERAL, Action::Exchange(v, m)) => {
                let out = self.card_of(self.hand(a), v);
                let inc = usize::from(self.market[usize::from(m)]);
                self.market[usize::from(m)] = out as u8;
                self.move_public(out, a, TABLE);
                self.move_public(inc, TABLE, a);
            }
            // DUN-5.9 / DUN-5.10.
            (ch::TRADER, Action::Opponent(q)) => {
                let q = usize::from(q);
                self.victim = q as u8;
                let mut taken = 0;
                let mut code = 0;
                for _ in 0..2 {
                    if let Some(c) = self.know.draw(q, a, pair(a, q), chance) {
                        taken += 1;
                        code += 1u64 << (4 * (u32::from(self.val(c)) - 1));
                    }
                }
                self.record_private_draw(a, q, code);
                self.forget_exchange(a, q);
                self.to_give = taken;
                self.phase = Phase::ActiveGive;
                return;
            }
            (ch::MERCHANT, Action::Opponent(q)) => {
                let q = usize::from(q);
                self.victim = q as u8;
                self.gain_prestige(a, 1);
                let k = self.know.len(q).min(2) as u8;
                if k > 0 {
                    self.to_give = k;
                    self.given = 0;
                    self.phase = Phase::VictimGive;
                    return;
                }
            }
            // DUN-5.11: a Shop good for a hand good of another type (DUN-08).
            (ch::MAID, Action::Maid(s, h)) => {
                let out = self.card_of(self.shop[a], s);
                let inc = self.card_of(self.hand(a), h);
                self.move_public(out, TABLE, a);
                self.move_public(inc, a, TABLE);
                pending = self.exchange_shop(a, out, inc);
            }
            // DUN-5.12.
            (ch::DOMESTIC, Action::ToHand(v)) => {
                let card = self.card_of(self.shop[a], v);
                self.shop[a] &= !(1 << card);
                self.move_public(card, TABLE, a);
                self.return_check(a, v);
            }
            (ch::DOMESTIC, Action::ToShop(v)) => {
                let card = self.card_of(self.hand(a), v);
                self.move_public(card, a, TABLE);
                self.shop[a] |= 1 << card;
                pending = self.gain_check(a, v);
            }
            // DUN-5.14 / DUN-5.15.
            (ch::SHEPHERD | ch::FARMER, Action::Take(m)) => {
                let card = usize::from(self.market[usize::from(m)]);
                self.market[usize::from(m)] = NONE;
                self.move_public(card, TABLE, a);
            }
            // DUN-5.16.
            (ch::MANICHEAN | ch::BUDDHIST, Action::Flip(v)) => {
                self.zh |= 1 << v;
            }
            _ => debug_assert!(
                false,
                "{action} is not a target of {}",
                CHARACTERS[c as usize]
            ),
        }
        if pending {
            self.resume = Phase::Move;
        } else {
            self.finish_turn(chance);
        }
    }

    /// After a token decision: the deferred return check, then resume.
    fn after_decision<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        self.pending = 0;
        if self.deferred != 0 {
            let v = self.deferred;
            self.deferred = 0;
            self.return_check(self.active(), v);
        }
        if self.resume == Phase::Bonus {
            self.phase = Phase::Bonus;
        } else {
            self.finish_turn(chance);
        }
    }

    /// DUN-3.6: 4 tokens (5 at 2 players) and 4 different goods in hand.
    #[inline(always)]
    pub fn meets_instant_win(&self, p: Seat) -> bool {
        let mut h = self.hand(p);
        for _ in 0..3 {
            h &= h.wrapping_sub(1);
        }
        // At least 4 cards in hand (cheaper than a count), then the tokens.
        h != 0
            && self.tokens(p) >= u32::from(self.d().win_tokens)
            && popcount16(self.values_in(self.hand(p))) >= 4
    }

    /// The most steps the active player may move at the Move stage: `max_steps`, capped
    /// by the active player's coins plus one.
    fn most_steps(&self) -> u8 {
        u16::from(self.d().max_steps).min(self.coins[self.active()].saturating_add(1)) as u8
    }

    /// DUN-3.6: seat `p` wins at once; the turn ends the game.
    #[cold]
    #[inline(never)]
    fn instant_win(&mut self, p: Seat) {
        // Decided by the winner's hand, which the others do not see: an event of its own.
        if !self.playout.0 {
            self.public_history = fold(self.public_history, tag::WIN | p as u64);
        }
        self.winner = p as u8;
        self.turns += 1;
        self.phase = Phase::Over;
    }

    /// Steps 4 and 5, the end trigger (DUN-10) and the next turn.
    fn finish_turn<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        let a = self.active();
        let n = self.n();
        // DUN-05: the active player at step 4 (DUN-3.6); with the variant `win_check =
        // any_player`, then the other seats clockwise, the first who qualifies winning.
        if self.meets_instant_win(a) {
            return self.instant_win(a);
        }
        if self.p().win_check == WinCheck::AnyPlayer {
            for i in 1..n {
                let p = (a + i) % n;
                if self.meets_instant_win(p) {
                    return self.instant_win(p);
                }
            }
        }
        let complete = self.refill(chance);
        match self.p().end_trigger {
            EndTrigger::RefillIncomplete => self.triggered |= !complete,
            EndTrigger::PileEmpty => self.triggered |= self.pile_len() == 0,
        }
        self.turns += 1;
        if self.triggered && a == self.last() {
            self.phase = Phase::Over;
            return;
        }
        self.active = if a + 1 == n { 0 } else { (a + 1) as u8 };
        self.steps = 0;
        self.victim = 0;
        self.phase = Phase::Move;
        self.evidence_turn_start();
    }

    // ----- scoring (DUN-4.3–4.4, DUN-10/15) -----

    /// Final-scoring points per seat if the game ended now: 2 per token, 1 per Prestige,
    /// and the best `tokens` hand goods among the values where the seat has the most or
    /// tied most cards (one card per such value).
    pub fn final_points(&self) -> PerSeat<i32> {
        let n = self.n();
        let d = self.d();
        let hands: [u64; MAX_PLAYERS] =
            std::array::from_fn(|p| if p < n { self.hand(p) } else { 0 });
        const { assert!(MAX_PLAYERS == 4) };
        // Values nobody holds score nothing: visit only the values in some hand.
        let mut kept = [0u16; MAX_PLAYERS];
        let mut vs = self.values_in(hands.iter().fold(0, |a, h| a | h));
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            // Branch-free: the counts by table lookup, the most, the seats with it (at
            // least one card, since some hand holds `v`; empty seats count 0).
            let (m, f) = (d.mask[v], d.first[v]);
            let counts = hands.map(|h| POP10[((h & m) >> f) as usize & 0x3ff]);
            let most = counts[0].max(counts[1]).max(counts[2].max(counts[3]));
            for (k, c) in kept.iter_mut().zip(counts) {
                *k |= u16::from(c == most) << v;
            }
        }
        let mut out = [0; MAX_PLAYERS];
        for p in 0..n {
            let t = self.tokens(p);
            // The `t` most valuable kept values.
            let mut k = kept[p];
            let mut hand = 0;
            let mut left = t;
            while left > 0 && k != 0 {
                let v = 15 - k.leading_zeros();
                hand += v as i32;
                k &= !(1 << v);
                left -= 1;
            }
            out[p] = 2 * t as i32 + i32::from(self.prestige[p]) + hand;
        }
        out
    }

    fn rank_keys(&self) -> PerSeat<i64> {
        let pts = self.final_points();
        let mut keys = [0i64; MAX_PLAYERS];
        for p in 0..self.n() {
            keys[p] = i64::from(pts[p]) * 1_000_000 + i64::from(self.coins[p]);
        }
        if let Some(w) = self.instant_winner() {
            if self.p().instant_win_rest == InstantWinRest::TiedSecond {
                keys = [0; MAX_PLAYERS];
            }
            keys[w] = i64::MAX;
        }
        keys
    }

    /// The layout as one integer: bit `t` (t < 8) = side B of tile `t`, plus 256 × the
    /// Lehmer code of the tiles' order around the circle from space 0.
    pub fn layout_code(&self) -> i32 {
        let mut sides = 0i32;
        let mut code = 0i32;
        let order: [u8; 8] = self.tiles.map(|c| c / 2);
        for i in 0..8 {
            sides |= i32::from(self.tiles[i] % 2) << (self.tiles[i] / 2);
            let smaller = order[i + 1..].iter().filter(|&&t| t < order[i]).count() as i32;
            code = code * (8 - i as i32) + smaller;
        }
        sides + 256 * code
    }

    fn sides_mask(&self) -> u8 {
        self.tiles
            .iter()
            .fold(0u8, |m, &c| m | ((c % 2) << (c / 2)))
    }

    /// The public and private history digests (tests of [`GameState::start_playout`]).
    #[cfg(test)]
    pub(super) fn history_digests(&self) -> (u64, [u64; MAX_PLAYERS]) {
        (self.public_history, self.private_history)
    }

    /// The hidden-part digest for the conformance harness: what `observer` does not see.
    pub fn hidden_digest(&self, observer: Seat) -> u64 {
        let unknown = self.know.unknown_to(observer);
        (0..NUM_ZONES).fold(0u64, |h, z| mix64(h ^ (self.know.cards(z) & unknown)))
    }

    /// Builds a state from a scripted position for tests: everything else as after setup.
    #[cfg(test)]
    pub(crate) fn set_for_test(&mut self, f: impl FnOnce(&mut TestAccess<'_>)) {
        f(&mut TestAccess { s: self });
    }
}

/// Test-only access to the fields of a [`State`].
#[cfg(test)]
pub(crate) struct TestAccess<'a> {
    pub s: &'a mut State,
}

#[cfg(test)]
#[allow(dead_code)]
impl TestAccess<'_> {
    pub fn know(&mut self) -> &mut Knowledge {
        &mut self.s.know
    }
    pub fn tiles(&mut self) -> &mut [u8; 8] {
        &mut self.s.tiles
    }
    pub fn market(&mut self) -> &mut [u8; 8] {
        &mut self.s.market
    }
    pub fn shop(&mut self) -> &mut [u64; MAX_PLAYERS] {
        &mut self.s.shop
    }
    pub fn holder(&mut self) -> &mut [u8; 11] {
        &mut self.s.holder
    }
    pub fn zh(&mut self) -> &mut u16 {
        &mut self.s.zh
    }
    pub fn coins(&mut self) -> &mut [u16; MAX_PLAYERS] {
        &mut self.s.coins
    }
    pub fn prestige(&mut self) -> &mut [u16; MAX_PLAYERS] {
        &mut self.s.prestige
    }
    pub fn camel(&mut self) -> &mut u8 {
        &mut self.s.camel
    }
    pub fn active(&mut self) -> &mut u8 {
        &mut self.s.active
    }
    pub fn phase(&mut self) -> &mut Phase {
        &mut self.s.phase
    }
    pub fn steps(&mut self) -> &mut u8 {
        &mut self.s.steps
    }
    pub fn triggered(&mut self) -> &mut bool {
        &mut self.s.triggered
    }
    pub fn first(&mut self) -> &mut u8 {
        &mut self.s.first
    }
    pub fn stats(&mut self) -> &mut [SeatStats; MAX_PLAYERS] {
        &mut self.s.stats
    }
    pub fn batch_of(&mut self) -> &mut [u8; 64] {
        &mut self.s.batch_of
    }
    pub fn batch_next(&mut self) -> &mut u8 {
        &mut self.s.batch_next
    }
    pub fn order(&mut self) -> &mut [u8; 64] {
        &mut self.s.order
    }
    pub fn order_next(&mut self) -> u8 {
        self.s.order_next
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self
            .tiles
            .iter()
            .map(|&c| CHARACTERS[usize::from(c)])
            .collect();
        writeln!(
            f,
            "{:?} active {} camel at {} ({}) turn {} pile {}+{}{}",
            self.phase,
            self.active,
            self.camel,
            names[self.camel()],
            self.turns,
            self.know.len(PILE),
            self.know.len(BOTTOM),
            if self.triggered { " END TRIGGERED" } else { "" }
        )?;
        let mv = self.market_values();
        let market: Vec<String> = (0..8).map(|m| format!("{}:{}", names[m], mv[m])).collect();
        writeln!(f, "market {}", market.join(" "))?;
        for p in 0..self.n() {
            let list = |set: u64| -> String {
                bits(set)
                    .map(|c| self.val(c).to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let toks: Vec<String> = (1..=10u8)
                .filter(|&v| usize::from(self.holder[usize::from(v)]) == p)
                .map(|v| {
                    if self.zh & (1 << v) != 0 {
                        format!("#{v}z")
                    } else {
                        format!("#{v}")
                    }
                })
                .collect();
            writeln!(
                f,
                "seat {p}: coins {} prestige {} hand [{}] shop [{}] tokens [{}]",
                self.coins[p],
                self.prestige[p],
                list(self.hand(p)),
                list(self.shop[p]),
                toks.join(" ")
            )?;
        }
        Ok(())
    }
}

impl GameState for State {
    type Action = Action;
    type Params = Params;
    type RulesData = RulesData;
    type Observation = Observation;

    const TYPE: GameType = GameType {
        short_name: "dunhuang",
        long_name: "Merchants of Dunhuang",
        description: "Merchants of Dunhuang (2-4 players): camel, goods, majority tokens, 16 characters",
        min_players: 2,
        max_players: 4,
        default_players: 4,
        dynamics: Dynamics::Sequential,
        chance_mode: ChanceMode::SampledStochastic,
        information: Information::Imperfect,
        utility: UtilityKind::ConstantSum,
        num_action_ids: NUM_ACTION_IDS,
        perfect_recall: true,
    };

    fn build_rules(params: &Params, players: usize) -> Result<RulesData, ParamError> {
        params.returns.check("returns", players, "game dunhuang")?;
        let removed = params.removed_values.at(players, Self::PLAYERS);
        let mut values = 0u16;
        for v in 1..=10u8 {
            if !removed.contains(&v) {
                values |= 1 << v;
            }
        }
        let mut value_of = [0u8; 64];
        let mut mask = [0u64; 11];
        let mut first = [0u8; 11];
        let mut next = 0usize;
        for v in 1..=10u8 {
            if values & (1 << v) == 0 {
                continue;
            }
            first[usize::from(v)] = next as u8;
            for _ in 0..v {
                value_of[next] = v;
                mask[usize::from(v)] |= 1 << next;
                next += 1;
            }
        }
        let need = 8 + 3 * players;
        if next < need {
            return Err(ParamError::Invalid {
                owner: "game dunhuang".into(),
                reason: format!(
                    "removed_values leaves {next} goods cards at {players} players; setup needs \
                     at least {need} (8 Market cards and 3 per player)"
                ),
            });
        }
        let max_steps = params.max_camel_steps.0.unwrap_or(MAX_STEP_ID);
        let start_coins = u16::from(params.start_coins.at(players, Self::PLAYERS));
        // DUN-2.6: a seat's start is the rulebook's plus its `seat_coins` bonus, at most
        // the box's 44 coins; under `supply_limited` the starts come out of those 44.
        params
            .seat_coins
            .check(
                "seat_coins",
                players,
                i32::from(start_coins),
                (0, BOX_COINS as i32),
                "coins",
                params
                    .supply_limited
                    .then_some((BOX_COINS as i32, "the box (supply_limited, DUN-09)")),
            )
            .map_err(|reason| ParamError::Invalid {
                owner: "game dunhuang".into(),
                reason,
            })?;
        Ok(RulesData {
            deck: next as u8,
            value_of,
            mask,
            first,
            values,
            start_coins,
            win_tokens: if players == 2 { 5 } else { 4 },
            max_steps,
            pile_after_setup: (next - need) as u8,
            all_seats: SeatSet::all(players),
        })
    }

    fn new_game<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> Self {
        let n = rules.players();
        let params = rules.params();
        let data = rules.data();
        let mut viewers = [SeatSet::EMPTY; NUM_ZONES];
        for (p, v) in viewers.iter_mut().enumerate().take(n) {
            *v = SeatSet::single(p);
        }
        viewers[TABLE] = SeatSet::all(n);
        // DUN-2.1, DUN-03: one side of each tile (8 fair coin flips), on the circle (a uniform
        // order: Fisher–Yates). One `below` for both: a uniform `x` in `0..256 * 8!` has
        // independent uniform mixed-radix digits, the low 8 bits for the sides and the
        // digits of 8, 7, ..., 2 for the swaps.
        let mut tiles: [u8; 8] = match params.characters {
            Characters::Random => std::array::from_fn(|t| (2 * t) as u8),
            Characters::List(l) => l,
        };
        let flips = params.characters == Characters::Random;
        let shuffle = params.circle_order == CircleOrder::Random;
        let range = if flips { 256 } else { 1 } * if shuffle { 40_320 } else { 1 };
        let mut x = if range > 1 { chance.below(range) } else { 0 };
        if flips {
            for (t, tile) in tiles.iter_mut().enumerate() {
                *tile += ((x >> t) & 1) as u8;
            }
            x >>= 8;
        }
        if shuffle {
            for i in (1..8u32).rev() {
                tiles.swap(i as usize, (x % (i + 1)) as usize);
                x /= i + 1;
            }
        }
        let mut s = State {
            rules,
            know: Knowledge::new(usize::from(data.deck), &viewers, PILE),
            tiles,
            market: [NONE; 8],
            shop: [0; MAX_PLAYERS],
            holder: [NONE; 11],
            zh: 0,
            coins: [0; MAX_PLAYERS],
            prestige: [0; MAX_PLAYERS],
            batch_of: [0; 64],
            batch_next: 1,
            order: [0; 64],
            order_next: 0,
            order_pile: 0,
            camel: 0,
            first: 0,
            active: 0,
            phase: Phase::Keep,
            resume: Phase::Bonus,
            actor: 0,
            steps: 0,
            victim: 0,
            to_give: 0,
            given: 0,
            pending: 0,
            deferred: 0,
            discarded: 0,
            triggered: false,
            winner: NONE,
            ply: 0,
            turns: 0,
            stats: [SeatStats::default(); MAX_PLAYERS],
            public_history: 0,
            private_history: [0; MAX_PLAYERS],
            playout: PlayoutMark(false),
            evidence: Evidence::default(),
        };
        for (p, c) in s.coins[..n].iter_mut().enumerate() {
            // DUN-2.6: the seat's bonus, checked when the rules were built.
            *c = (i32::from(data.start_coins) + params.seat_coins.bonus(p)) as u16;
        }
        // DUN-01 step 3: the Market, then 3 cards per player (DUN-2.3): the first `8 + 3n`
        // cards of a partial Fisher–Yates shuffle of the card ids, one `below` per card
        // (the same uniform draws without replacement as the pile's, without searching
        // the pile's bitset for each).
        const IDS: [u8; 64] = {
            let mut a = [0u8; 64];
            let mut i = 0;
            while i < 64 {
                a[i] = i as u8;
                i += 1;
            }
            a
        };
        let mut order = IDS;
        let deck = usize::from(data.deck);
        for i in 0..8 + 3 * n {
            let j = i + chance.below((deck - i) as u32) as usize;
            order.swap(i, j);
        }
        let set = |ids: &[u8]| ids.iter().fold(0u64, |m, &c| m | 1 << c);
        s.market.copy_from_slice(&order[..8]);
        s.know
            .move_set(set(&order[..8]), PILE, TABLE, data.all_seats);
        for p in 0..n {
            let hand = set(&order[8 + 3 * p..11 + 3 * p]);
            s.know.move_set(hand, PILE, p, SeatSet::single(p));
        }
        // What each seat saw of the setup: the circle and the Market (everybody), its
        // hand (itself, as values).
        let market = s
            .market_values()
            .iter()
            .enumerate()
            .fold(0u64, |m, (i, &v)| m | u64::from(v) << (4 * i));
        s.public_history = fold(
            fold(0, tag::TILES | u64::from_le_bytes(s.tiles)),
            tag::MARKET | market,
        );
        for p in 0..n {
            let code = s.value_code(s.hand(p));
            s.private_history[p] = fold(fold(0, tag::SEAT | p as u64), tag::DEAL | code);
        }
        // The pile draws continue this shuffle ([`State::draw_pile`]).
        s.order = order;
        s.order_next = (8 + 3 * n) as u8;
        s.order_pile = s.know.cards(PILE);
        s
    }

    fn rules(&self) -> RulesRef<State> {
        self.rules
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Keep => Turn::Player(usize::from(self.actor)),
            Phase::Camel => Turn::Player(self.last()),
            Phase::VictimGive => Turn::Player(usize::from(self.victim)),
            Phase::TokenOwner => Turn::Player(usize::from(self.holder[usize::from(self.pending)])),
            Phase::Over => Turn::Terminal,
            _ => Turn::Player(self.active()),
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.turn() != Turn::Player(player) {
            return;
        }
        let a = self.active();
        let each = |set: u16, out: &mut Vec<Action>, f: fn(u8) -> Action| {
            for v in 1..=10u8 {
                if set & (1 << v) != 0 {
                    out.push(f(v));
                }
            }
        };
        match self.phase {
            Phase::Keep => each(self.values_in(self.hand(player)), out, Action::Keep),
            Phase::Camel => out.extend((0..8).map(Action::Camel)),
            Phase::Move => {
                out.extend((1..=self.most_steps()).map(Action::Steps));
            }
            Phase::Pick => out.extend([Action::Hand, Action::Shop]),
            Phase::Bonus => {
                out.push(Action::Coins);
                if self.power_available() {
                    out.push(Action::Power);
                }
                if self.p().bonus_may_be_skipped {
                    out.push(Action::NoBonus);
                }
            }
            Phase::Power => self.for_each_target(a, &mut |x| {
                out.push(x);
                true
            }),
            Phase::KeepDrawn => each(self.values_in(self.know.cards(DRAWN)), out, Action::Keep),
            Phase::VictimGive => each(self.values_in(self.hand(player)), out, Action::Give),
            Phase::ActiveGive => each(self.values_in(self.hand(a)), out, Action::Give),
            Phase::TokenOwner => out.extend([Action::FlipBack, Action::LetSteal]),
            Phase::TokenPay => out.extend([Action::Pay, Action::Decline]),
            Phase::Over => {}
        }
    }

    /// The default rule (the `k`-th legal action for one `random_range(0..len)` draw),
    /// without writing the list at any stage but `Over` (power targets fall back to the
    /// list when `random_target` has none).
    fn random_action(&self, player: Seat, buf: &mut Vec<Action>, rng: &mut SimRng) -> Action {
        use rand::RngExt;
        match self.phase {
            Phase::Move => {
                // A usize range, as the stream has always drawn it.
                Action::Steps(rng.random_range(0..usize::from(self.most_steps())) as u8 + 1)
            }
            Phase::Pick => [Action::Hand, Action::Shop][rng.random_range(0..2usize)],
            Phase::Camel => Action::Camel(rng.random_range(0..8usize) as u8),
            // [coins, power?, no-bonus?] as `legal_actions` lists them.
            Phase::Bonus => {
                let power = self.power_available();
                let skip = self.p().bonus_may_be_skipped;
                let k = rng.random_range(0..1 + usize::from(power) + usize::from(skip));
                match k {
                    0 => Action::Coins,
                    1 if power => Action::Power,
                    _ => Action::NoBonus,
                }
            }
            Phase::Keep | Phase::KeepDrawn | Phase::VictimGive | Phase::ActiveGive => {
                let from = match self.phase {
                    Phase::KeepDrawn => self.know.cards(DRAWN),
                    Phase::ActiveGive => self.hand(self.active()),
                    _ => self.hand(player),
                };
                let vs = self.values_in(from);
                let v = nth_bit16(vs, rng.random_range(0..popcount16(vs))) as u8;
                if matches!(self.phase, Phase::Keep | Phase::KeepDrawn) {
                    Action::Keep(v)
                } else {
                    Action::Give(v)
                }
            }
            Phase::TokenOwner => [Action::FlipBack, Action::LetSteal][rng.random_range(0..2usize)],
            Phase::TokenPay => [Action::Pay, Action::Decline][rng.random_range(0..2usize)],
            Phase::Power => self
                .random_target(self.active(), rng)
                .unwrap_or_else(|| crate::game::uniform_legal_action(self, player, buf, rng)),
            // No seat acts; the default reports it (debug builds).
            Phase::Over => crate::game::uniform_legal_action(self, player, buf, rng),
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(
        &mut self,
        player: Seat,
        action: Action,
        chance: &mut C,
    ) {
        // Debug builds check legality with a buffer per thread, so that the check does
        // not allocate in the games it watches (`tests/integration/alloc.rs`).
        #[cfg(debug_assertions)]
        DEBUG_LEGAL.with_borrow_mut(|l| {
            self.legal_actions(player, l);
            assert!(
                l.contains(&action),
                "illegal {action} for seat {player} at\n{self}"
            );
        });
        self.ply += 1;
        self.evidence_action(player, action);
        // The stages of every turn record their public action in their arm, where the
        // action is a known variant (no dispatch on the stage or the action id: the
        // history digests must not slow playouts down); the others here.
        if !matches!(self.phase, Phase::Move | Phase::Pick | Phase::Bonus) {
            self.record_action(player, action);
        }
        let a = self.active();
        let n = self.n();
        match (self.phase, action) {
            (Phase::Keep, Action::Keep(v)) => {
                let keep = self.card_of(self.hand(player), v);
                let removed = self.hand(player) & !(1 << keep);
                self.know
                    .move_set(removed, player, REMOVED, SeatSet::single(player));
                if player + 1 < n {
                    self.actor = (player + 1) as u8;
                } else {
                    if !self.p().seat_known_at_keep {
                        self.first = chance.below(n as u32) as u8;
                        if !self.playout.0 {
                            self.public_history =
                                fold(self.public_history, tag::FIRST | u64::from(self.first));
                        }
                    }
                    self.phase = Phase::Camel;
                }
            }
            (Phase::Camel, Action::Camel(m)) => {
                self.camel = m;
                self.active = self.first;
                self.phase = Phase::Move;
                self.evidence_turn_start();
            }
            // DUN-3.2: the first step is free, each extra one costs a coin (to the supply).
            (Phase::Move, Action::Steps(k)) => {
                self.record_public(a, Action::Steps(k));
                let cost = u16::from(k) - 1;
                self.coins[a] -= cost;
                self.stats[a].step_coins += cost;
                self.steps = k;
                self.camel = ((usize::from(self.camel) + usize::from(k)) % 8) as u8;
                if self.market[self.camel()] != NONE {
                    self.phase = Phase::Pick;
                } else if self.p().bonus_on_empty_stop {
                    // DUN-3.2, DUN-11: nothing collected; the bonus remains.
                    self.phase = Phase::Bonus;
                } else {
                    self.finish_turn(chance);
                }
            }
            (Phase::Pick, Action::Hand) => {
                self.record_public(a, Action::Hand);
                let c = usize::from(self.market[self.camel()]);
                self.market[self.camel()] = NONE;
                self.move_public(c, TABLE, a);
                self.phase = Phase::Bonus;
            }
            (Phase::Pick, Action::Shop) => {
                self.record_public(a, Action::Shop);
                let c = usize::from(self.market[self.camel()]);
                self.market[self.camel()] = NONE;
                self.shop[a] |= 1 << c;
                self.phase = Phase::Bonus;
                if self.gain_check(a, self.val(c)) {
                    self.resume = Phase::Bonus;
                }
            }
            (Phase::Bonus, Action::Coins) => {
                self.record_public(a, Action::Coins);
                let k = self.gain_coins(a, 3);
                self.stats[a].bonus_coins += k;
                self.finish_turn(chance);
            }
            (Phase::Bonus, Action::NoBonus) => {
                self.record_public(a, Action::NoBonus);
                self.finish_turn(chance);
            }
            (Phase::Bonus, Action::Power) => {
                self.record_public(a, Action::Power);
                self.start_power(chance);
            }
            (Phase::Power, _) => self.apply_target(action, chance),
            (Phase::KeepDrawn, Action::Keep(v)) => {
                let drawn = self.know.cards(DRAWN);
                let keep = self.card_of(drawn, v);
                self.know.move_from(keep, DRAWN, a, SeatSet::single(a));
                let rest = drawn & !(1 << keep);
                if rest != 0 {
                    // DUN-5.5 "at the bottom ... in a random order": one batch, drawn
                    // uniformly after the earlier ones.
                    self.know.move_set(rest, DRAWN, BOTTOM, SeatSet::single(a));
                    for c in bits(rest) {
                        self.batch_of[c] = self.batch_next;
                    }
                    self.batch_next = self.batch_next.saturating_add(1);
                }
                self.finish_turn(chance);
            }
            (Phase::VictimGive, Action::Give(v)) => {
                let q = usize::from(self.victim);
                let c = self.card_of(self.hand(q), v);
                self.know.move_from(c, q, a, pair(a, q));
                self.forget_exchange(a, q);
                self.to_give -= 1;
                self.given += 1;
                if self.to_give == 0 {
                    self.to_give = self.given;
                    self.phase = Phase::ActiveGive;
                }
            }
            (Phase::ActiveGive, Action::Give(v)) => {
                let q = usize::from(self.victim);
                let c = self.card_of(self.hand(a), v);
                self.know.move_from(c, a, q, pair(a, q));
                self.forget_exchange(a, q);
                self.to_give -= 1;
                if self.to_give == 0 {
                    self.given = 0;
                    self.finish_turn(chance);
                }
            }
            (Phase::TokenOwner, Action::FlipBack) => {
                // DUN-5.16: the owner flips the token to its number side and keeps it.
                self.zh &= !(1 << self.pending);
                self.after_decision(chance);
            }
            (Phase::TokenOwner, Action::LetSteal) => {
                self.take_token(a, self.pending);
                self.after_decision(chance);
            }
            (Phase::TokenPay, Action::Pay) => {
                // DUN-5.16: the stealer pays the owner 2 coins (DUN-06).
                let h = usize::from(self.holder[usize::from(self.pending)]);
                let amount = self.coins[a].min(2);
                self.coins[a] -= amount;
                self.coins[h] += amount;
                self.stats[a].buddhist_net -= amount as i16;
                self.stats[h].buddhist_net += amount as i16;
                self.take_token(a, self.pending);
                self.after_decision(chance);
            }
            (Phase::TokenPay, Action::Decline) => self.after_decision(chance),
            (phase, action) => debug_assert!(false, "{action} at {phase:?}"),
        }
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<Action>, _: &mut C) {
        debug_assert!(false, "Merchants of Dunhuang has no simultaneous nodes");
    }

    fn returns(&self) -> PerSeat<f64> {
        let u = self.p().returns;
        // Scores matter only for the margin utility.
        let scores = if u == Utility::Margin {
            self.scores()
        } else {
            [0; MAX_PLAYERS]
        };
        u.returns(&self.ranks(), &scores, self.n())
    }

    fn value(&self) -> PerSeat<f64> {
        if self.phase == Phase::Over {
            return self.returns();
        }
        let n = self.n();
        let pts = self.final_points();
        let t = f64::from(self.d().win_tokens);
        let mut proj = [0.0; MAX_PLAYERS];
        for p in 0..n {
            let tok = f64::from(self.tokens(p)).min(t) / t;
            let distinct = f64::from(self.values_in(self.hand(p)).count_ones().min(4)) / 4.0;
            proj[p] = f64::from(pts[p])
                + 0.25 * f64::from(self.coins[p])
                + 40.0 * tok * tok * distinct * distinct;
        }
        let win = win_share_from_scores(&proj, n, 6.0);
        let mut margin = [0.0; MAX_PLAYERS];
        if n == 2 {
            margin[0] = proj[0] - proj[1];
            margin[1] = -margin[0];
        }
        self.p().returns.estimate(&win, &margin, n)
    }

    fn scores(&self) -> PerSeat<i32> {
        self.final_points()
    }

    /// By points then coins; a nonzero `komi` adds to the points unless the game ended
    /// by an instant win, which ranks as before (DUN-15.1).
    fn ranks(&self) -> PerSeat<u8> {
        let komi = &self.p().komi;
        if komi.is_zero() || self.instant_winner().is_some() {
            ranks_by_key(&self.rank_keys(), self.n())
        } else {
            let coins = std::array::from_fn(|p| i64::from(self.coins[p]));
            komi.rank(&self.final_points(), &coins, self.n())
        }
    }

    /// The digest of [`GameState::information_state_string`]: the seat and its two history
    /// digests, finished by `mix64` (the printed observation in the string is a function
    /// of them, module docs "Information state"). Two `mix64` calls, no observation built.
    fn info_key(&self, player: Seat) -> u64 {
        debug_assert!(!self.playout.0, "info_key of a state in a playout");
        mix64(mix64(self.public_history ^ player as u64) ^ self.private_history[player])
    }

    /// The observation printed ([`Observation`]'s `Display`, as `sim analyze` shows it),
    /// then the goods the seat knows in the zones only it sees into: the cards it drew
    /// and has not kept yet, the cards it put at the bottom of the pile, the cards it
    /// removed face down (values, ascending). The goods it knows in other hands are left
    /// out (module docs, "Information state").
    fn observation_string(&self, seat: Seat) -> String {
        let known = self.know.known_to(seat);
        let list = |z: Zone| -> String {
            let counts = self.counts(self.know.cards(z) & known);
            (1..=10)
                .flat_map(|v| std::iter::repeat_n(v.to_string(), usize::from(counts[v])))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{}\n  knows: drawn [{}] bottom [{}] removed [{}]",
            self.observation(seat),
            list(DRAWN),
            list(BOTTOM),
            list(REMOVED)
        )
    }

    /// The seat, its public and private history digests in hex, and what it sees now
    /// ([`GameState::observation`] printed). Perfect recall: the digests determine every
    /// observation and own action of the seat so far (module docs, "Information state").
    fn information_state_string(&self, seat: Seat) -> String {
        debug_assert!(!self.playout.0, "information state of a state in a playout");
        format!(
            "seat {seat} history: public {:016x} private {:016x}\n{}",
            self.public_history,
            self.private_history[seat],
            self.observation_string(seat)
        )
    }

    fn observation(&self, seat: Seat) -> Observation {
        let known_set = self.know.known_to(seat);
        let mut sizes = [0u8; NUM_ZONES];
        let mut known = [[0u8; 11]; NUM_ZONES - 1];
        for z in 0..NUM_ZONES {
            sizes[z] = self.know.len(z) as u8;
            if z < NUM_ZONES - 1 {
                known[z] = self.counts(self.know.cards(z) & known_set);
            }
        }
        let mut shops = [[0u8; 11]; MAX_PLAYERS];
        for (p, s) in shops.iter_mut().enumerate().take(self.n()) {
            *s = self.counts(self.shop[p]);
        }
        Observation {
            seat: seat as u8,
            phase: self.phase,
            active: self.active,
            first: self.first,
            detail: [
                self.actor,
                self.victim,
                self.to_give,
                self.given,
                self.pending,
            ],
            steps: self.steps,
            tiles: self.tiles,
            camel: self.camel,
            market: self.market_values(),
            shops,
            holder: self.holder,
            zh: self.zh,
            coins: self.coins,
            prestige: self.prestige,
            sizes,
            known,
            triggered: self.triggered,
            turns: self.turns,
            ply: self.ply,
            winner: self.winner,
        }
    }

    /// Deals the cards unknown to `observer` uniformly into their zones
    /// ([`Knowledge::sample_mapped`]) and keeps only a deal in which the seat to act has a
    /// legal action (`State::seat_to_act_can_act`): that the active player stands at its
    /// power step is public, and at the Maid (`maid_different=type`) it tells that the hand
    /// holds a good of a type other than the Shop's only type. Rejection sampling: each
    /// deal is uniform over the worlds consistent with the observer's knowledge, so the
    /// accepted one is uniform over those where the seat can act (no bias). The actual
    /// state is one of them and a deal puts a given unknown card into the active hand's
    /// `h >= 1` unknown slots with probability `h / unknown >= 1/64`, so a deal is accepted
    /// with probability at least 1/64 (in practice almost always at once, and always when
    /// the phase is not `Power`). After `MAX_DEALS` (4,096) refused deals (probability below
    /// `e^-64` for a state that passes [`GameState::validate`], which checks the seat to act
    /// can act) the last deal is returned. No allocation.
    /// Stops folding the history digests: about 3,300 instructions of a random 4-player
    /// game (module docs, "Speed").
    fn start_playout(&mut self) {
        self.playout = PlayoutMark(true);
    }

    fn determinize(&self, observer: Seat, rng: &mut SimRng) -> Self {
        let mut s = self.clone();
        let mut deals = 0;
        let map = loop {
            let (know, map) = self.know.sample_mapped(observer, rng);
            s.know = know;
            deals += 1;
            if deals >= MAX_DEALS || s.seat_to_act_can_act() {
                break map;
            }
        };
        s.freeze_evidence();
        s.batch_of = [0; 64];
        for c in bits(self.know.cards(BOTTOM)) {
            s.batch_of[usize::from(map[c])] = self.batch_of[c];
        }
        // The deal order is hidden too: the dealt prefix (setup hands) is never read, and
        // a pile order of another card set is dropped (the next draw lists the resampled
        // pile again, as it would anyway). A pile order of the same set stays: every draw
        // is a uniform card of it whatever its order.
        if s.know.cards(PILE) == s.order_pile {
            s.order[..usize::from(s.order_next)].fill(0);
        } else {
            s.order = [0; 64];
            s.order_pile = 0;
        }
        // The other seats' private histories are hidden too: each gets a stand-in digest
        // of its hand and knowledge in the resampled world (no draw from `rng`, so the
        // stream of every agent stays as it was).
        for q in (0..self.n()).filter(|&q| q != observer) {
            s.private_history[q] =
                mix64(mix64(tag::RESAMPLED ^ q as u64 ^ s.know.cards(q)) ^ s.know.known_to(q));
        }
        s
    }

    fn action_id(action: Action) -> usize {
        action.id()
    }

    fn action_from_id(id: usize) -> Option<Action> {
        Action::from_id(id)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// The round of the turn being played; once the game is over, the round of its last
    /// turn. A round is one turn per seat from the first player (the game ends after the
    /// last player's turn, DUN-4.1, or after an instant win's turn, DUN-3.6, and both count as
    /// turns).
    fn round(&self) -> u32 {
        let (t, n) = (u32::from(self.turns), self.n() as u32);
        if self.phase == Phase::Over {
            t.div_ceil(n).max(1)
        } else {
            t / n + 1
        }
    }

    fn end_condition(&self) -> &'static str {
        match (self.phase, self.winner) {
            (Phase::Over, NONE) => "pile_exhausted",
            (Phase::Over, _) => "instant_win",
            _ => "",
        }
    }

    /// Setup (n keeps + the camel) plus, per turn, at most 9 plies (steps, pick, token
    /// decision, bonus, target, token decision or 2 + 2 gives); every turn before the
    /// trigger takes at least one card from the pile, and at most n turns follow it.
    fn max_plies(&self) -> u32 {
        let n = self.n() as u32;
        n + 1 + (u32::from(self.d().pile_after_setup) + n + 1) * 9
    }

    /// The bound of [`GameState::max_plies`] at a fresh state: at most nine plies per pile card
    /// and per seat's last turn, plus the opening.
    fn max_game_length(rules: &Rules<Self>) -> u32 {
        let n = rules.players() as u32;
        n + 1 + (u32::from(rules.data().pile_after_setup) + n + 1) * 9
    }

    /// The layout of the module docs ("Observation tensor"): 326 + 39 × players values
    /// (404, 443, 482 at 2, 3, 4 players), whatever the other parameters.
    fn observation_layout(rules: &Rules<Self>) -> Vec<TensorField> {
        let n = rules.players();
        let f = TensorField::new;
        vec![
            f(
                "phase",
                12,
                "one-hot decision stage, in the order of Phase (Keep, Camel, Move, Pick, Bonus, Power, KeepDrawn, VictimGive, ActiveGive, TokenOwner, TokenPay, Over)",
            ),
            f(
                "to_act",
                n,
                "one-hot seat to act, seat-relative (0 = the observer); all 0 when over",
            ),
            f(
                "active",
                n,
                "one-hot active seat, seat-relative (seat 0 until the first turn)",
            ),
            f(
                "first",
                n,
                "one-hot first player, seat-relative (seat 0 until drawn when seat_known_at_keep=false)",
            ),
            f(
                "victim",
                n,
                "one-hot Trader/Merchant opponent, seat-relative, during the gives; else 0",
            ),
            f(
                "winner",
                n,
                "one-hot instant winner (L133), seat-relative; else 0",
            ),
            f(
                "gives",
                2,
                "cards still to give / 2 and cards given / 2 during the Trader/Merchant gives; else 0",
            ),
            f(
                "pending_token",
                10,
                "one-hot value 1-10 of the token awaiting a Manichean/Buddhist decision; else 0",
            ),
            f(
                "steps",
                1,
                "camel steps of this turn / max_camel_steps (0 before the move)",
            ),
            f("triggered", 1, "1 once the end is triggered (DUN-10)"),
            f(
                "turns",
                1,
                "turns completed / (pile cards after setup + players + 1), the bound on turns",
            ),
            f(
                "camel",
                8,
                "one-hot camel space 0-7 (all 0 before it is placed)",
            ),
            f(
                "characters",
                128,
                "per space 0-7, one-hot character 0-15 (CHARACTERS order)",
            ),
            f(
                "market",
                88,
                "per space 0-7, one-hot of 11: index 0 = empty, else the good's value 1-10",
            ),
            f(
                "values_in_play",
                10,
                "per value 1-10: 1 if its goods and token are in play (DUN-01/02)",
            ),
            f(
                "token_holder",
                10 * (n + 1),
                "per value 1-10, one-hot of players + 1: index 0 = the middle, 1 + r = seat-relative holder r; all 0 for a value out of play",
            ),
            f(
                "token_zh",
                10,
                "per value 1-10: 1 if its token shows the 裔 side",
            ),
            f(
                "shops",
                10 * n,
                "per seat (seat-relative), per value 1-10: Shop goods / 10",
            ),
            f(
                "hand_sizes",
                n,
                "per seat (seat-relative): hand size / goods in play",
            ),
            f(
                "hand_known",
                10 * n,
                "per seat (seat-relative), per value 1-10: hand goods whose place the observer knows / 10 (the observer's own hand in full)",
            ),
            f(
                "coins",
                n,
                "per seat (seat-relative): coins / 44 (the box; above 1 only with the unlimited supply)",
            ),
            f(
                "prestige",
                n,
                "per seat (seat-relative): Prestige / 28 (the box; above 1 only with the unlimited supply)",
            ),
            f(
                "tokens",
                n,
                "per seat (seat-relative): Majority Tokens held / 10",
            ),
            f(
                "zone_sizes",
                5,
                "pile, bottom of the pile, drawn (Interpreter/Diplomat), removed face down, discarded face up: cards / goods in play",
            ),
            f(
                "bottom_known",
                10,
                "per value 1-10: cards at the bottom of the pile the observer put there / 10",
            ),
            f(
                "drawn_known",
                10,
                "per value 1-10: drawn cards awaiting the keep that the observer sees / 10",
            ),
            f(
                "removed_known",
                10,
                "per value 1-10: cards removed face down that the observer knows / 10",
            ),
            f(
                "unknown",
                10,
                "per value 1-10: goods whose place the observer does not know / 10",
            ),
        ]
    }

    /// Writes the layout of [`State::observation_layout`] from public fields, zone sizes
    /// and the cards `seat` knows ([`Knowledge::known_to`]); never a hidden card.
    /// Allocates nothing.
    fn observation_tensor(&self, seat: Seat, out: &mut [f32]) {
        let n = self.n();
        let d = self.d();
        let deck = f32::from(d.deck);
        let rel = |q: usize| (q + n - seat) % n;
        let known = self.know.known_to(seat);
        let mut o = Writer { out, at: 0 };
        o.one_hot(12, Some(self.phase as usize));
        o.one_hot(
            n,
            match self.turn() {
                Turn::Player(p) => Some(rel(p)),
                _ => None,
            },
        );
        o.one_hot(n, Some(rel(self.active())));
        o.one_hot(n, Some(rel(usize::from(self.first))));
        let gives = matches!(self.phase, Phase::VictimGive | Phase::ActiveGive);
        o.one_hot(n, gives.then(|| rel(usize::from(self.victim))));
        o.one_hot(n, self.instant_winner().map(rel));
        o.put(if gives {
            f32::from(self.to_give) / 2.0
        } else {
            0.0
        });
        o.put(if gives {
            f32::from(self.given) / 2.0
        } else {
            0.0
        });
        let deciding = matches!(self.phase, Phase::TokenOwner | Phase::TokenPay);
        o.one_hot(10, deciding.then(|| usize::from(self.pending) - 1));
        o.put(f32::from(self.steps) / f32::from(d.max_steps));
        o.put(f32::from(u8::from(self.triggered)));
        let most_turns = u32::from(d.pile_after_setup) + n as u32 + 1;
        o.put(f32::from(self.turns) / most_turns as f32);
        let placed = !matches!(self.phase, Phase::Keep | Phase::Camel);
        o.one_hot(8, placed.then(|| self.camel()));
        for &c in &self.tiles {
            o.one_hot(16, Some(usize::from(c)));
        }
        for v in self.market_values() {
            o.one_hot(11, Some(usize::from(v)));
        }
        for v in 1..=10 {
            o.put(f32::from(u8::from(d.values & (1 << v) != 0)));
        }
        for v in 1..=10 {
            let h = self.holder[v];
            let in_play = d.values & (1 << v) != 0;
            o.one_hot(
                n + 1,
                in_play.then(|| {
                    if h == NONE {
                        0
                    } else {
                        1 + rel(usize::from(h))
                    }
                }),
            );
        }
        for v in 1..=10 {
            o.put(f32::from(u8::from(self.zh & (1 << v) != 0)));
        }
        // Seat-relative blocks: seat `(seat + r) % n` for r = 0..n.
        let seats = || (0..n).map(|r| (seat + r) % n);
        for q in seats() {
            o.counts(self, self.shop[q]);
        }
        for q in seats() {
            o.put(self.know.len(q) as f32 / deck);
        }
        for q in seats() {
            o.counts(self, self.hand(q) & known);
        }
        for q in seats() {
            o.put(f32::from(self.coins[q]) / BOX_COINS as f32);
        }
        for q in seats() {
            o.put(f32::from(self.prestige[q]) / BOX_PRESTIGE as f32);
        }
        for q in seats() {
            o.put(self.tokens(q) as f32 / 10.0);
        }
        for z in [PILE, BOTTOM, DRAWN, REMOVED] {
            o.put(self.know.len(z) as f32 / deck);
        }
        o.put(f32::from(self.discarded) / deck);
        for z in [BOTTOM, DRAWN, REMOVED] {
            o.counts(self, self.know.cards(z) & known);
        }
        o.counts(self, self.know.all() & !known);
        debug_assert_eq!(o.at, o.out.len(), "observation tensor length");
    }

    /// Every card in one zone and the zones consistent with the table, the Market and the
    /// Shops; tokens held by seats in play; the deal order; the stage consistent with the
    /// hands and the seat to act able to act; then the counters and the supply
    /// (`State::check_counters_and_supply`).
    fn validate(&self) -> Result<(), InvalidState> {
        let check = || -> Result<(), String> {
            let d = self.d();
            let n = self.n();
            self.know.check()?;
            if self.know.pool() != usize::from(d.deck) || self.know.num_zones() != NUM_ZONES {
                return Err(format!(
                    "knowledge of {} cards in {} zones, expected {} in {NUM_ZONES}",
                    self.know.pool(),
                    self.know.num_zones(),
                    d.deck
                ));
            }
            let mut tiles_seen = 0u8;
            for &c in &self.tiles {
                if c >= 16 || tiles_seen & (1 << (c / 2)) != 0 {
                    return Err(format!("tiles = {:?}: not a character layout", self.tiles));
                }
                tiles_seen |= 1 << (c / 2);
            }
            let table = self.know.cards(TABLE);
            let mut on_table = 0u64;
            for &c in &self.market {
                if c != NONE {
                    if usize::from(c) >= usize::from(d.deck) || table & (1 << c) == 0 {
                        return Err(format!("market: card {c} is not on the table"));
                    }
                    if on_table & (1 << c) != 0 {
                        return Err(format!("market: card {c} twice"));
                    }
                    on_table |= 1 << c;
                }
            }
            for p in 0..MAX_PLAYERS {
                let s = self.shop[p];
                if (p >= n && s != 0) || s & !table != 0 || s & on_table != 0 {
                    return Err(format!("shop[{p}] holds cards not on the table or twice"));
                }
                on_table |= s;
                if p >= n && (self.coins[p] != 0 || self.prestige[p] != 0 || self.know.len(p) != 0)
                {
                    return Err(format!(
                        "coins, prestige or hand of unused seat {p} not empty"
                    ));
                }
            }
            if on_table.count_ones() + u32::from(self.discarded) != table.count_ones() {
                return Err(format!(
                    "{} table cards but {} in the Market and Shops and {} discarded",
                    table.count_ones(),
                    on_table.count_ones(),
                    self.discarded
                ));
            }
            for v in 0..11usize {
                let h = self.holder[v];
                let in_play = v >= 1 && d.values & (1 << v) != 0;
                if h != NONE && (!in_play || usize::from(h) >= n) {
                    return Err(format!(
                        "holder[{v}] = {h}: token {v} held by no seat in play"
                    ));
                }
            }
            if self.zh & !d.values != 0
                || (1..=10).any(|v| self.zh & (1 << v) != 0 && self.holder[v] == NONE)
            {
                return Err(format!("zh = {:#x}: bad token sides", self.zh));
            }
            let bottom = self.know.cards(BOTTOM);
            for (c, &b) in self.batch_of.iter().enumerate() {
                if (bottom & (1 << c) != 0) != (b != 0) || (b != 0 && b >= self.batch_next) {
                    return Err(format!("batch_of[{c}] = {b}: not the card's bottom batch"));
                }
            }
            // The deal order is checked only where it is used: when it claims to hold the pile.
            let pile = self.know.cards(PILE);
            if pile != 0 && self.order_pile == pile {
                let next = usize::from(self.order_next);
                let listed = self
                    .order
                    .get(next..usize::from(d.deck))
                    .unwrap_or(&[])
                    .iter()
                    .fold(0u64, |m, &c| {
                        m | 1u64.checked_shl(u32::from(c)).unwrap_or(0)
                    });
                if next > usize::from(d.deck)
                    || listed != pile
                    || pile.count_ones() as usize != usize::from(d.deck) - next
                {
                    return Err(format!(
                        "the deal order from {next} does not list the pile {pile:#x}"
                    ));
                }
            }
            if (self.phase == Phase::KeepDrawn) != (self.know.len(DRAWN) > 0) {
                return Err(format!(
                    "phase = {:?}: drawn cards outside the Interpreter/Diplomat keep",
                    self.phase
                ));
            }
            let seats = [self.first, self.active, self.actor, self.victim];
            if self.camel >= 8 || seats.iter().any(|&x| usize::from(x) >= n) {
                return Err(format!(
                    "camel = {} (valid 0..=7) or first, active, actor, victim = {seats:?} \
                     (valid 0..{n}) out of range",
                    self.camel
                ));
            }
            if self.winner != NONE && (usize::from(self.winner) >= n || self.phase != Phase::Over) {
                return Err(format!(
                    "winner = {}: not a seat, or the game is not over",
                    self.winner
                ));
            }
            if matches!(self.phase, Phase::TokenOwner | Phase::TokenPay)
                && (self.pending == 0 || self.holder[usize::from(self.pending.min(10))] == NONE)
            {
                return Err(format!(
                    "phase = {:?}: token decision without a held token (pending = {})",
                    self.phase, self.pending
                ));
            }
            if !self.seat_to_act_can_act() {
                return Err(format!(
                    "the seat to act has no legal action at the {:?} stage",
                    self.phase
                ));
            }
            if usize::from(self.steps) > usize::from(d.max_steps) {
                return Err(format!(
                    "steps = {} exceeds max_steps {}",
                    self.steps, d.max_steps
                ));
            }
            if matches!(self.phase, Phase::Keep)
                && (0..n)
                    .any(|p| self.know.len(p) != if p < usize::from(self.actor) { 1 } else { 3 })
            {
                return Err("hands at setup are not 1 (kept) / 3 (to keep)".into());
            }
            self.check_counters_and_supply()
        };
        check().map_err(InvalidState::of::<Self>)
    }
}

impl Measured for State {
    /// The action counts of the report's action-frequency section.
    const ACTION_METRICS: &'static [&'static str] =
        &["powers_used", "coins_on_steps", "coins_from_bonus"];

    const SEAT_METRICS: &'static [Column] = &[
        Column {
            name: "powers_used",
            meaning: "character powers used as the bonus (count)",
        },
        Column {
            name: "characters_used",
            meaning: "bitmask of the characters whose power this seat used (bit c = CHARACTERS[c]: 0 Painter ... 15 Buddhist)",
        },
        Column {
            name: "tokens_from_middle",
            meaning: "Majority Tokens taken from the middle",
        },
        Column {
            name: "tokens_stolen",
            meaning: "Majority Tokens taken from another Shop (ties included, Buddhist payments included)",
        },
        Column {
            name: "tokens_lost",
            meaning: "Majority Tokens another seat took from this Shop",
        },
        Column {
            name: "tokens_returned",
            meaning: "Majority Tokens this seat returned to the middle after losing goods (DUN-04)",
        },
        Column {
            name: "instant_win",
            meaning: "1 if this seat won instantly (L133), else 0",
        },
        Column {
            name: "coins_on_steps",
            meaning: "coins spent on extra camel steps",
        },
        Column {
            name: "coins_from_bonus",
            meaning: "coins taken with the 3-coin bonus",
        },
        Column {
            name: "buddhist_net",
            meaning: "coins received minus paid through the Buddhist",
        },
        Column {
            name: "tokens_final",
            meaning: "Majority Tokens held at the end",
        },
        Column {
            name: "prestige_final",
            meaning: "Prestige tokens held at the end",
        },
    ];

    const GAME_METRICS: &'static [Column] = &[
        Column {
            name: "finish_instant_win",
            meaning: "1 if the game ended by an instant win, 0 by the end of the pile",
        },
        Column {
            name: "turns",
            meaning: "player turns completed",
        },
        Column {
            name: "layout_code",
            meaning: "character layout: bits 0-7 the side of each tile, plus 256 x the Lehmer code of the tile order around the circle from space 0",
        },
    ];

    const GAME_LABELS: &'static [Column] = &[Column {
        name: "characters",
        meaning: "the 8 characters in play in tile order (Painter|Musician/Princess|Dancer/...)",
    }];

    /// `labels.csv` groups the seats by each character in play.
    const SET_LABELS: &'static [&'static str] = &["characters"];

    /// `labels.csv` groups the seats by each character whose power they used.
    const FLAG_METRICS: &'static [(&'static str, &'static [&'static str])] =
        &[("characters_used", &super::CHARACTERS)];

    fn metrics(&self, out: &mut Metrics) {
        for p in 0..self.n() {
            let s = &self.stats[p];
            let m = &mut out.seat[p];
            m[0] = i32::from(s.powers);
            m[1] = i32::from(s.characters);
            m[2] = i32::from(s.from_middle);
            m[3] = i32::from(s.stolen);
            m[4] = i32::from(s.lost);
            m[5] = i32::from(s.returned);
            m[6] = i32::from(self.winner == p as u8);
            m[7] = i32::from(s.step_coins);
            m[8] = i32::from(s.bonus_coins);
            m[9] = i32::from(s.buddhist_net);
            m[10] = self.tokens(p) as i32;
            m[11] = i32::from(self.prestige[p]);
        }
        out.game[0] = i32::from(self.winner != NONE);
        out.game[1] = i32::from(self.turns);
        out.game[2] = self.layout_code();
    }

    fn labels(&self, out: &mut Labels) {
        out.game[0] = characters_label(self.sides_mask());
    }
}

impl RunningScore for State {
    /// Running score: the final-scoring points if the game ended now
    /// ([`State::final_points`]: tokens, Prestige and the hand goods of the values held
    /// most; DUN-4.3, Final Scoring).
    const HAS_RUNNING_SCORE: bool = true;
}
