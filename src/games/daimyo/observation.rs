//! What a seat sees: the [`Observation`] value, the seat's view of the state
//! ([`State::canonical`]: other seats' hidden Heroes merged, DAI-27), the public pile sizes,
//! the text form of a state, and the observation tensor (its layout is documented in the
//! `daimyo` module docs, "Observation tensor").

use std::fmt;

use super::action::SPACE_NAMES;
use super::data::{
    Effect, MAX_ALTARS, MAX_DICE, MAX_ISLANDS, MAX_NML, MAX_SHADOW_SPACES, MAX_SITES,
};
use super::options::OptionCache;
use super::setup::RulesData;
use super::state::*;
use crate::game::{MAX_PLAYERS, Seat, TensorField};

/// What a seat sees now, as text (the numeric form is [`GameState::observation_tensor`](crate::game::GameState::observation_tensor)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The observing seat.
    pub seat: Seat,
    /// The public state and the seat's own hand, printed.
    pub text: String,
}

impl State {
    /// The state as `seat` sees it: every other seat's hand reduced to the Heroes known to
    /// be in it, and the rest of its hand and deck as one pile (in `deck`).
    ///
    /// Under `hero_discard_public = false` (DAI-27) only the top card of another seat's
    /// discard pile stays visible; the rest of the pile joins the unseen pile. The other
    /// seats' private histories are cleared.
    pub fn canonical(&self, seat: Seat) -> State {
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
    pub(super) fn top_bit(&self, q: usize) -> u64 {
        match self.discard_top[q] {
            NONE => 0,
            c => 1u64 << c,
        }
    }

    /// The pile sizes every seat sees: hand, deck and discard of each seat.
    pub(super) fn pile_sizes(&self) -> [[u32; 3]; MAX_PLAYERS] {
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

// ---------------------------------------------------------------------------------------
// The observation tensor (layout documented field by field in the module docs of
// `daimyo`, "Observation tensor").

/// Rows of the effect stack in the tensor: the whole stack.
const STACK_ROWS: usize = STACK;
/// Frame kinds ([`Frame`] variants), one-hot in a stack row.
const FRAME_KINDS: usize = 8;
/// Effect kinds ([`Effect`] variants), one-hot in a stack row.
const EFFECT_KINDS: usize = 22;
/// Scalars of a stack row: done, sub, x, y, argument.
const FRAME_SCALARS: usize = 5;
/// One stack row.
const FRAME_LEN: usize = FRAME_KINDS + EFFECT_KINDS + FRAME_SCALARS;
/// Relic tile kinds (the length of [`State::bag`] and [`State::black_market`]).
const RELIC_KINDS: usize = 24;
/// One No man's land slot: a one-hot tile kind, then the face-down flag.
const NML_LEN: usize = RELIC_KINDS + 1;
/// One die on a Clan board space: colour one-hot (3), then value one-hot (6).
const DIE_LEN: usize = 3 + 6;
/// Dice by colour and value (colour-major), for the pool and the set-aside dice.
const DICE_KINDS: usize = 3 * 6;

/// Fields of the layout.
const FIELDS: usize = 43;

/// The sizes the layout depends on: the player count and the component data's counts.
#[derive(Clone, Copy)]
struct Sizes {
    n: usize,
    heroes: usize,
    tiles: usize,
    clans: usize,
    villagers: usize,
    rounds: usize,
    market: usize,
}

impl Sizes {
    fn of(rules: &RulesData, n: usize) -> Sizes {
        let d = &rules.data;
        Sizes {
            n,
            heroes: d.heroes.len(),
            tiles: d.tiles.len(),
            clans: d.clans.len(),
            villagers: d.villagers.len(),
            rounds: d.round_pp.len(),
            market: d.market as usize,
        }
    }

    /// The fields, in tensor order: (name, length, meaning). [`observation_layout`] and
    /// [`State::write_observation`] both follow this list (the writer checks each field's
    /// length against it in debug builds and the total always).
    fn fields(self) -> [(&'static str, usize, &'static str); FIELDS] {
        let Sizes {
            n,
            heroes: h,
            tiles: t,
            clans: c,
            villagers: v,
            rounds: r,
            market: m,
        } = self;
        let cells = MAX_ISLANDS * MAX_SITES;
        [
            (
                "phase",
                7,
                "one-hot: setup Governors, pick a die, turn, revenue, Helmet, hiring, over",
            ),
            (
                "phase_step",
                1,
                "setup placement / (2 n), or the revenue / hiring position / n; else 0",
            ),
            ("round", r, "one-hot: round 1..=rounds"),
            ("turn_index", 1, "turns taken this round / (3 n)"),
            (
                "actor",
                n,
                "one-hot, seat-relative (0 = observer): the seat acting now",
            ),
            (
                "first_player",
                n,
                "one-hot, seat-relative: this round's first player",
            ),
            (
                "helmet",
                n,
                "one-hot, seat-relative: holder of the Mighty Helmet",
            ),
            (
                "round_flags",
                2,
                "0/1: the Helmet was taken by Help from Villagers this round; the first blue die was placed",
            ),
            (
                "turn_space",
                SPACES,
                "one-hot: main-action space of this turn's die (all 0: none)",
            ),
            (
                "turn_flags",
                4,
                "0/1: main action done, Hero played by strength, clan ability used, this die is the round's first blue die",
            ),
            (
                "tiles_used",
                TILE_SPACES,
                "0/1 per tile space: its tile was used this turn",
            ),
            (
                "tiles_new",
                TILE_SPACES,
                "0/1 per tile space: it received a tile this turn",
            ),
            (
                "stack",
                STACK_ROWS * FRAME_LEN,
                "pending effect frames, top first, rows of: frame kind one-hot (8), effect kind one-hot (22), done / 8, sub / 8, x / 64, y / 64, argument / 64; empty rows 0",
            ),
            (
                "governors",
                cells * n,
                "per island and site: one-hot, seat-relative owner of the Governor",
            ),
            (
                "buildings",
                cells * 2 * n,
                "per island and site: one-hot (seat-relative owner * 2 + type, 0 Techno-farm, 1 Radio tower)",
            ),
            (
                "shadows",
                MAX_ISLANDS * MAX_SHADOW_SPACES * n,
                "per island and Shadow space: one-hot, seat-relative owner",
            ),
            (
                "altars",
                MAX_ISLANDS * MAX_ALTARS * n,
                "per island and altar: one-hot, seat-relative owner of the Relic token",
            ),
            (
                "influence",
                MAX_ISLANDS * n,
                "per island, seat-relative: influence / 10",
            ),
            (
                "no_mans_land",
                MAX_ISLANDS * MAX_NML * NML_LEN,
                "per island and slot: tile kind one-hot (24), then 1 if face down",
            ),
            (
                "pending_refill",
                MAX_ISLANDS * MAX_NML,
                "0/1 per island and slot: waits for its refill",
            ),
            ("black_market", RELIC_KINDS, "tiles per kind / 4"),
            (
                "bag",
                RELIC_KINDS,
                "tiles in the bag per kind / 4 (face-down No man's land tiles included)",
            ),
            ("villagers", v, "0/1 per Villager tile: shows its back"),
            ("hero_market", m * h, "per market slot: one-hot Hero"),
            (
                "hero_deck_top",
                h,
                "one-hot: the face-up top card of the Hero deck",
            ),
            (
                "hero_deck",
                h,
                "0/1 per Hero: in the Hero deck below the top card",
            ),
            (
                "dice_pool",
                DICE_KINDS,
                "dice in the pool per colour (blue, green, red) and value 1..=6 / 4",
            ),
            (
                "dice_aside",
                DICE_KINDS,
                "dice set aside this round per colour and value / 4",
            ),
            (
                "supply",
                4,
                "general supply of Rice, Metal, Crystal, Gold / 32",
            ),
            ("clan", n * c, "per seat (seat-relative): one-hot clan"),
            (
                "resources",
                n * 4,
                "per seat: Rice, Metal, Crystal, Gold / 10",
            ),
            ("storage", n, "per seat: storage capacity / 10"),
            ("popularity", n, "per seat: popularity points / 100"),
            (
                "loose_relics",
                n * RELIC_KINDS,
                "per seat: 0/1 per loose Relic tile kind",
            ),
            (
                "restored",
                n * MAX_ISLANDS,
                "per seat: Relics restored per colour / 2",
            ),
            (
                "scavenger",
                n * MAX_ISLANDS,
                "per seat: one-hot island of the Scavenger",
            ),
            (
                "units",
                n * 4,
                "per seat: recruitment track position / 4, 1 if recruited at the last cost, Shadows recruited / 4, Governors on the board / 8",
            ),
            (
                "built",
                n * 2,
                "per seat: Techno-farms, Radio towers built / 4",
            ),
            (
                "bonus_tiles",
                n * TILE_SPACES * t,
                "per seat and tile space: one-hot Bonus Action tile",
            ),
            (
                "board_dice",
                n * SPACES * DIE_LEN,
                "per seat and main-action space: the die there, colour one-hot (3) and value one-hot (6)",
            ),
            (
                "heroes_seen",
                n * 4 * h,
                "per seat, 4 rows of 0/1 per Hero: in hand (observer: its hand; others: hired, known to be there), in deck (observer only), in hand or deck unseen (others only; covered discards too under hero_discard_public = false), in the discard pile (others: only the top under hero_discard_public = false)",
            ),
            (
                "pile_sizes",
                n * 3,
                "per seat: hand, deck, discard sizes / 10",
            ),
            (
                "pp_by_source",
                n * source::COUNT,
                "per seat: popularity by source / 50 (influence, relics, buildings, army, Helmet, resources, other)",
            ),
        ]
    }
}

/// The observation layout of Daimyo under `rules` (see the module docs).
pub(super) fn observation_layout(rules: &RulesData, n: usize) -> Vec<TensorField> {
    Sizes::of(rules, n)
        .fields()
        .iter()
        .map(|&(name, len, meaning)| TensorField::new(name, len, meaning))
        .collect()
}

/// Writes the tensor field by field: each field is a slice of its length, so a writer
/// cannot spill into the next field.
struct Fields<'a> {
    out: &'a mut [f32],
    at: usize,
    #[cfg(debug_assertions)]
    spec: [(&'static str, usize, &'static str); FIELDS],
    #[cfg(debug_assertions)]
    k: usize,
}

impl<'a> Fields<'a> {
    /// The next field, `len` values (all 0).
    #[inline]
    fn next(&mut self, len: usize) -> &mut [f32] {
        #[cfg(debug_assertions)]
        {
            assert_eq!(self.spec[self.k].1, len, "field {}", self.spec[self.k].0);
            self.k += 1;
        }
        let f = &mut self.out[self.at..self.at + len];
        self.at += len;
        f
    }
}

/// Index of an effect kind (declaration order of [`Effect`]) and its main count.
fn effect_row(e: &Effect) -> (usize, u8) {
    match *e {
        Effect::Gain(a) => (0, a.iter().sum()),
        Effect::GainChoice { n, .. } => (1, n),
        Effect::Storage(n) => (2, n),
        Effect::Draw(n) => (3, n),
        Effect::Villager => (4, 0),
        Effect::Helmet { .. } => (5, 0),
        Effect::MoveGovernor { up_to, .. } => (6, up_to),
        Effect::RelicScavenger => (7, 0),
        Effect::RelicFromBag(n) => (8, n),
        Effect::RelicChoice(n) => (9, n),
        Effect::RelicToBlackMarket(n) => (10, n),
        Effect::BlackMarketFree(n) => (11, n),
        Effect::Scavenger { moves, .. } => (12, moves),
        Effect::Recruit { n, .. } => (13, n),
        Effect::ResetRecruitment => (14, 0),
        Effect::Construct { n, .. } => (15, n),
        Effect::Production { .. } => (16, 0),
        Effect::Influence(n) => (17, n),
        Effect::Popularity(n) => (18, n),
        Effect::MoveBuilding => (19, 0),
        Effect::MainAction => (20, 0),
        Effect::HeroFree => (21, 0),
    }
}

/// Sets `row[i]` to 1 for each bit `i` of `set` below `row.len()`.
#[inline]
fn set_bits(row: &mut [f32], set: u64) {
    for i in bits(set) {
        if let Some(x) = row.get_mut(i) {
            *x = 1.0;
        }
    }
}

impl State {
    /// Writes `seat`'s observation tensor ([`crate::Playable::observation_tensor`]): every
    /// element of `out` (zeroed first), from the public state, `seat`'s own Heroes, and of
    /// the other seats' Heroes only what is public (DAI-27): the hired Heroes known to be in
    /// hand, the union of the rest of hand and deck, the discard pile (only its top under
    /// `hero_discard_public = false`) and the pile sizes. Allocates nothing.
    ///
    /// # Panics
    /// If `out` is not as long as the layout.
    pub(super) fn write_observation(&self, seat: Seat, out: &mut [f32]) {
        let n = self.n();
        let sz = Sizes::of(self.rd(), n);
        let (h, t) = (sz.heroes, sz.tiles);
        out.fill(0.0);
        let len = out.len();
        let mut w = Fields {
            out,
            at: 0,
            #[cfg(debug_assertions)]
            spec: sz.fields(),
            #[cfg(debug_assertions)]
            k: 0,
        };
        // Seat-relative index of seat `q` (the observer is 0).
        let rel = |q: usize| (q + n - seat) % n;
        let owner = |f: &mut [f32], q: u8| {
            if (q as usize) < n {
                f[rel(q as usize)] = 1.0;
            }
        };

        let (phase, step) = match self.phase {
            Phase::SetupGovernor { step } => (0, step as f32 / (2 * n) as f32),
            Phase::PickDie => (1, 0.0),
            Phase::Turn => (2, 0.0),
            Phase::Revenue { k } => (3, k as f32 / n as f32),
            Phase::Helmet => (4, 0.0),
            Phase::Hire { k } => (5, k as f32 / n as f32),
            Phase::Over => (6, 0.0),
        };
        w.next(7)[phase] = 1.0;
        w.next(1)[0] = step;
        let f = w.next(sz.rounds);
        if let Some(x) = f.get_mut((self.round as usize).wrapping_sub(1)) {
            *x = 1.0;
        }
        w.next(1)[0] = self.turn_index as f32 / (3 * n) as f32;
        owner(w.next(n), self.actor);
        owner(w.next(n), self.first);
        owner(w.next(n), self.helmet);
        let f = w.next(2);
        f[0] = self.helmet_taken as u8 as f32;
        f[1] = self.blue_placed as u8 as f32;
        let fl = &self.flags;
        if let Some(x) = w.next(SPACES).get_mut(fl.space as usize) {
            *x = 1.0;
        }
        let f = w.next(4);
        f[0] = fl.main_done as u8 as f32;
        f[1] = fl.hero as u8 as f32;
        f[2] = fl.ability as u8 as f32;
        f[3] = fl.first_blue as u8 as f32;
        set_bits(w.next(TILE_SPACES), fl.tiles_used as u64);
        set_bits(w.next(TILE_SPACES), fl.tiles_new as u64);

        let f = w.next(STACK_ROWS * FRAME_LEN);
        for (row, frame) in f
            .chunks_exact_mut(FRAME_LEN)
            .zip(self.stack[..self.sp as usize].iter().rev())
        {
            let Some(frame) = frame else { continue };
            let (kind, arg) = match *frame {
                Frame::Eff {
                    eff,
                    done,
                    sub,
                    x,
                    y,
                } => {
                    let (e, count) = effect_row(&eff);
                    row[FRAME_KINDS + e] = 1.0;
                    let s = &mut row[FRAME_KINDS + EFFECT_KINDS..];
                    s[0] = done as f32 / 8.0;
                    s[1] = sub as f32 / 8.0;
                    s[2] = x as f32 / 64.0;
                    s[3] = y as f32 / 64.0;
                    (0, count)
                }
                Frame::HeroDone(c) => (1, c),
                Frame::PlaceTile(c) => (2, c),
                Frame::DiscardShift { sub } => {
                    row[FRAME_KINDS + EFFECT_KINDS + 1] = sub as f32 / 8.0;
                    (3, 0)
                }
                Frame::MakeRoom(k) => (4, k),
                Frame::Victim(i) => (5, i),
                Frame::EndRevenue => (6, 0),
                Frame::Altar(c) => (7, c),
            };
            row[kind] = 1.0;
            row[FRAME_LEN - 1] = arg as f32 / 64.0;
        }

        let f = w.next(MAX_ISLANDS * MAX_SITES * n);
        for (cell, &q) in f.chunks_exact_mut(n).zip(self.gov.as_flattened()) {
            owner(cell, q);
        }
        let f = w.next(MAX_ISLANDS * MAX_SITES * 2 * n);
        for (cell, &b) in f.chunks_exact_mut(2 * n).zip(self.bld.as_flattened()) {
            if ((b / 2) as usize) < n {
                cell[rel((b / 2) as usize) * 2 + (b % 2) as usize] = 1.0;
            }
        }
        let f = w.next(MAX_ISLANDS * MAX_SHADOW_SPACES * n);
        for (cell, &q) in f.chunks_exact_mut(n).zip(self.shadow.as_flattened()) {
            owner(cell, q);
        }
        let f = w.next(MAX_ISLANDS * MAX_ALTARS * n);
        for (cell, &q) in f.chunks_exact_mut(n).zip(self.altar.as_flattened()) {
            owner(cell, q);
        }
        let f = w.next(MAX_ISLANDS * n);
        for (cell, row) in f.chunks_exact_mut(n).zip(&self.influence) {
            for (q, &v) in row.iter().enumerate().take(n) {
                cell[rel(q)] = v as f32 / 10.0;
            }
        }
        let f = w.next(MAX_ISLANDS * MAX_NML * NML_LEN);
        for (cell, &k) in f.chunks_exact_mut(NML_LEN).zip(self.nml.as_flattened()) {
            if k == HIDDEN {
                cell[RELIC_KINDS] = 1.0;
            } else if let Some(x) = cell[..RELIC_KINDS].get_mut(k as usize) {
                *x = 1.0;
            }
        }
        set_bits(w.next(MAX_ISLANDS * MAX_NML), self.pending_refill as u64);
        for (x, &c) in w.next(RELIC_KINDS).iter_mut().zip(&self.black_market) {
            *x = c as f32 / 4.0;
        }
        for (x, &c) in w.next(RELIC_KINDS).iter_mut().zip(&self.bag) {
            *x = c as f32 / 4.0;
        }
        set_bits(w.next(sz.villagers), self.villagers as u64);
        let f = w.next(sz.market * h);
        for (row, &c) in f.chunks_exact_mut(h).zip(&self.market) {
            if let Some(x) = row.get_mut(c as usize) {
                *x = 1.0;
            }
        }
        if let Some(x) = w.next(h).get_mut(self.top as usize) {
            *x = 1.0;
        }
        set_bits(w.next(h), self.hero_deck);
        let mut pool = [0u8; DICE_KINDS];
        let mut aside = [0u8; DICE_KINDS];
        for d in 0..MAX_DICE {
            let counts = match self.die_loc[d] {
                POOL => &mut pool,
                ASIDE => &mut aside,
                _ => continue,
            };
            let (c, v) = (self.die_colour[d] as usize, self.die_value[d] as usize);
            if c < 3 && (1..=6).contains(&v) {
                counts[c * 6 + v - 1] += 1;
            }
        }
        for (x, &c) in w.next(DICE_KINDS).iter_mut().zip(&pool) {
            *x = c as f32 / 4.0;
        }
        for (x, &c) in w.next(DICE_KINDS).iter_mut().zip(&aside) {
            *x = c as f32 / 4.0;
        }
        for (x, &v) in w.next(4).iter_mut().zip(&self.supply) {
            *x = v as f32 / 32.0;
        }

        // Per seat, the observer first. `q` is the seat, `r` its relative index.
        let f = w.next(n * sz.clans);
        for q in 0..n {
            if let Some(x) = f[rel(q) * sz.clans..][..sz.clans].get_mut(self.seats[q].clan as usize)
            {
                *x = 1.0;
            }
        }
        let f = w.next(n * 4);
        for q in 0..n {
            for (x, &v) in f[rel(q) * 4..][..4].iter_mut().zip(&self.seats[q].res) {
                *x = v as f32 / 10.0;
            }
        }
        let f = w.next(n);
        for q in 0..n {
            f[rel(q)] = self.seats[q].storage as f32 / 10.0;
        }
        let f = w.next(n);
        for q in 0..n {
            f[rel(q)] = self.seats[q].popularity as f32 / 100.0;
        }
        let f = w.next(n * RELIC_KINDS);
        for q in 0..n {
            set_bits(
                &mut f[rel(q) * RELIC_KINDS..][..RELIC_KINDS],
                self.seats[q].loose as u64,
            );
        }
        let f = w.next(n * MAX_ISLANDS);
        for q in 0..n {
            for (x, &v) in f[rel(q) * MAX_ISLANDS..][..MAX_ISLANDS]
                .iter_mut()
                .zip(&self.seats[q].restored)
            {
                *x = v as f32 / 2.0;
            }
        }
        let f = w.next(n * MAX_ISLANDS);
        for q in 0..n {
            if let Some(x) =
                f[rel(q) * MAX_ISLANDS..][..MAX_ISLANDS].get_mut(self.seats[q].scavenger as usize)
            {
                *x = 1.0;
            }
        }
        let f = w.next(n * 4);
        for q in 0..n {
            let s = &self.seats[q];
            let x = &mut f[rel(q) * 4..][..4];
            x[0] = s.track as f32 / 4.0;
            x[1] = s.at_max as u8 as f32;
            x[2] = s.shadows as f32 / 4.0;
            x[3] = s.governors as f32 / 8.0;
        }
        let f = w.next(n * 2);
        for q in 0..n {
            for (x, &b) in f[rel(q) * 2..][..2].iter_mut().zip(&self.seats[q].built) {
                *x = b as f32 / 4.0;
            }
        }
        let f = w.next(n * TILE_SPACES * t);
        for q in 0..n {
            let rows = &mut f[rel(q) * TILE_SPACES * t..][..TILE_SPACES * t];
            for (row, &tile) in rows.chunks_exact_mut(t).zip(&self.seats[q].tiles) {
                if let Some(x) = row.get_mut((tile as usize).wrapping_sub(1)) {
                    *x = 1.0;
                }
            }
        }
        let f = w.next(n * SPACES * DIE_LEN);
        for q in 0..n {
            let rows = &mut f[rel(q) * SPACES * DIE_LEN..][..SPACES * DIE_LEN];
            for (row, &die) in rows.chunks_exact_mut(DIE_LEN).zip(&self.seats[q].board) {
                if die == 0 {
                    continue;
                }
                let d = die as usize - 1;
                if let Some(x) = row[..3].get_mut(self.die_colour[d] as usize) {
                    *x = 1.0;
                }
                if let Some(x) = row[3..].get_mut((self.die_value[d] as usize).wrapping_sub(1)) {
                    *x = 1.0;
                }
            }
        }
        let public = self.params().hero_discard_public;
        let f = w.next(n * 4 * h);
        for q in 0..n {
            let s = &self.seats[q];
            let rows = &mut f[rel(q) * 4 * h..][..4 * h];
            let (hand, deck, unseen, discard) = if q == seat {
                (s.hand, s.deck, 0, s.discard)
            } else {
                // What `canonical` keeps of another seat (DAI-27).
                let known = self.known_hand[q] & s.hand;
                let shown = if public { s.discard } else { self.top_bit(q) };
                (
                    known,
                    0,
                    (s.hand | s.deck | (s.discard & !shown)) & !known,
                    shown,
                )
            };
            set_bits(&mut rows[..h], hand);
            set_bits(&mut rows[h..2 * h], deck);
            set_bits(&mut rows[2 * h..3 * h], unseen);
            set_bits(&mut rows[3 * h..], discard);
        }
        let sizes = self.pile_sizes();
        let f = w.next(n * 3);
        for q in 0..n {
            for (x, &v) in f[rel(q) * 3..][..3].iter_mut().zip(&sizes[q]) {
                *x = v as f32 / 10.0;
            }
        }
        let f = w.next(n * source::COUNT);
        for q in 0..n {
            for (x, &v) in f[rel(q) * source::COUNT..][..source::COUNT]
                .iter_mut()
                .zip(&self.seats[q].pp)
            {
                *x = v as f32 / 50.0;
            }
        }
        assert_eq!(w.at, len, "the Daimyo tensor is {} long, not {len}", w.at);
    }
}
