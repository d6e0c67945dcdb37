//! The Q.A.X. state and its rules (docs/rules/qax.md).

use crate::game::InvalidState;
use crate::game::{ChanceMode, Dynamics, GameType, Information, Rules, TensorField, UtilityKind};
use std::fmt;

use rand::RngExt;
use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;

use super::action::{Action, Kind};
use super::board::{Geometry, MAX_CELLS, NO_CELL, cell_name, cells};
use super::{
    BaisseWhenBroke, DiagonalRule, FieldSetup, FirstStart, IncomeTiming, LimitTiebreak, MOVEMENTS,
    NUM_COMPANIES, NUM_FIELDS, PIECES_PER_PLAYER, Params, PiecePlacement, PlacementFirst, Rating,
    Relocation, START_COINS, StartRule, TradeAfterAttack, UnaffordableAttack,
};
use crate::game::{
    Chance, Column, GameState, JointAction, Labels, MAX_PLAYERS, Measured, Metrics, PerSeat,
    RulesRef, RunningScore, Seat, Turn,
};
use crate::params::ParamError;
use crate::rng::{SimRng, mix64};

/// "Nobody" / "nothing" in byte fields (no field, no owner, no holder, unset).
pub const NONE: u8 = u8::MAX;
/// An Index entry not yet set.
pub(super) const UNSET: u8 = 3;
/// A field dealt to another player whose location the observer does not know.
const HIDDEN: u8 = 0xFE;

/// Number of [`Phase`] kinds (the `phase` one-hot of the observation tensor).
const NUM_PHASES: usize = 11;

/// End conditions (`end` field).
const END_NONE: u8 = 0;
const END_GOAL: u8 = 1;
const END_LIMIT: u8 = 2;

/// Per-seat counters (metrics), index into `stats[p]`.
/// Owner income received (negative: Baisse charges paid), coins.
pub(super) const S_INCOME: usize = 0;
/// Trading: sales received minus purchases paid, coins.
pub(super) const S_TRADE: usize = 1;
const S_BUYS: usize = 2;
const S_SELLS: usize = 3;
/// Attacks made.
pub(super) const S_ATTACKS: usize = 4;
const S_ATTACKED: usize = 5;
/// Coins paid in forced purchases (as the attacker).
pub(super) const S_FORCED_PAID: usize = 6;
/// Coins received in forced purchases (as the defender).
pub(super) const S_FORCED_GOT: usize = 7;
const NUM_STATS: usize = 8;

/// What the rules derive from the parameters and player count.
#[derive(Debug)]
pub struct RulesData {
    /// The play area.
    pub geo: Geometry,
    /// Coins to reach (QAX-09).
    pub goal: u8,
    /// Company names (QAX-02).
    pub names: Vec<String>,
}

/// Where the game stands. Saved in snake case, e.g. `"move"` or
/// `{"join": {"target": 35, "need": 1, "last": 34}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Setup under `field_setup=players`: the actor chooses a field of their hand.
    ChooseField,
    /// Setup: the actor places the chosen `field` on an empty board cell.
    PlaceField {
        /// The field being placed.
        field: u8,
    },
    /// Setup: the actor places pieces (QAX-03).
    PlacePieces,
    /// The start player rates company `company` (0–8) on the new Index.
    SetIndex {
        /// The next company to rate.
        company: u8,
    },
    /// Turn step 1: shift a vacant field, or not (QAX-05).
    Lift,
    /// Turn step 1: where the field lifted from `from` goes.
    Put {
        /// The cell the field was lifted from (now empty).
        from: u8,
    },
    /// Turn step 2: the next movement (QAX-06).
    Move,
    /// A combined attack on `target` is under way: `need` more pieces must join, from
    /// stacks on cells after `last` (QAX-08).
    Join {
        /// The attacked cell.
        target: u8,
        /// Pieces still to join.
        need: u8,
        /// The last cell a part came from.
        last: u8,
    },
    /// The attacker relocates `left` attacked pieces of `victim` (QAX-08, QAX-11); the
    /// last part placed had `last_h` pieces on `last_cell` (255 before the first).
    Relocate {
        /// The attacked seat.
        victim: u8,
        /// Pieces still to place.
        left: u8,
        /// Height of the last part placed.
        last_h: u8,
        /// Cell of the last part placed.
        last_cell: u8,
    },
    /// The optional trade on the field moved to (QAX-08).
    Trade,
    /// The game is over.
    Over,
}

mod mask {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(m: &u128, s: S) -> Result<S::Ok, S::Error> {
        [(*m >> 64) as u64, *m as u64].serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let [hi, lo] = <[u64; 2]>::deserialize(d)?;
        Ok(((hi as u128) << 64) | lo as u128)
    }
}

/// A Q.A.X. position: a fixed-size value with no heap data.
///
/// Saved (see [`crate::position`]) with these fields: `rules`; per cell id
/// (`16·row + col`, see the `board` module) `field` (field id or 255), `owner` (seat or 255)
/// and `height` (0–3); `fields` (the cells holding a field, as two `u64`, high first);
/// `stacks` (each seat's stack cells, ascending, 255-padded); `at` (each field's cell);
/// `coins`, `bank`; `share` (holder per share, 255 = on the table); `index` and
/// `new_index` (rating per company: 0 Hausse, 1 Nominale, 2 Baisse, 3 unset); `dealt`
/// (who was dealt each field under `field_setup=players`, else 255); `start`, `actor`,
/// `phase`, `left` (movements left), `start_pos` (the actor's (cell, height) stacks at the
/// start of the turn), `moved_to`, `transit` (pieces joined in a pending combined attack),
/// `attacked`, `forced`, `placed` (pieces placed per seat), `round`, `ply`, `history`
/// (digest of the public history), `winner`, `end`, `stats` (metric counters), `owned`
/// (per seat, the companies it has owned at some time, bit = company), `stranded` (seat and
/// count of attacked pieces still off the board because the attack's income or forced
/// purchase ended the game at once, QAX-09; `[255, 0]` otherwise; optional in saved
/// positions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub(super) rules: RulesRef<State>,
    #[serde(with = "BigArray")]
    pub(super) field: [u8; MAX_CELLS],
    #[serde(with = "BigArray")]
    pub(super) owner: [u8; MAX_CELLS],
    #[serde(with = "BigArray")]
    pub(super) height: [u8; MAX_CELLS],
    #[serde(with = "mask")]
    pub(super) fields: u128,
    pub(super) stacks: [[u8; 3]; MAX_PLAYERS],
    #[serde(with = "BigArray")]
    pub(super) at: [u8; NUM_FIELDS],
    pub(super) coins: [u8; MAX_PLAYERS],
    pub(super) bank: u8,
    #[serde(with = "BigArray")]
    pub(super) share: [u8; NUM_FIELDS],
    pub(super) index: [u8; NUM_COMPANIES],
    pub(super) new_index: [u8; NUM_COMPANIES],
    #[serde(with = "BigArray")]
    pub(super) dealt: [u8; NUM_FIELDS],
    pub(super) start: u8,
    pub(super) actor: u8,
    pub(super) phase: Phase,
    pub(super) left: u8,
    pub(super) start_pos: [[u8; 2]; 3],
    pub(super) moved_to: u8,
    pub(super) transit: u8,
    pub(super) attacked: bool,
    pub(super) forced: bool,
    pub(super) placed: [u8; MAX_PLAYERS],
    pub(super) round: u32,
    pub(super) ply: u32,
    pub(super) history: u64,
    pub(super) winner: u8,
    pub(super) end: u8,
    pub(super) stats: [[i16; NUM_STATS]; MAX_PLAYERS],
    pub(super) owned: [u16; MAX_PLAYERS],
    #[serde(default = "no_stranded")]
    pub(super) stranded: [u8; 2],
}

/// No attacked pieces off the board: the `stranded` value of every state but one whose
/// game ended during an attack.
fn no_stranded() -> [u8; 2] {
    [NONE, 0]
}

impl State {
    fn data(&self) -> &RulesData {
        self.rules.data()
    }

    fn params(&self) -> &Params {
        self.rules.params()
    }

    fn geo(&self) -> &Geometry {
        &self.data().geo
    }

    fn n(&self) -> usize {
        self.rules.players()
    }

    /// Folds one public event into the history digest.
    fn note(&mut self, tag: u64, value: u64) {
        self.history = (self.history ^ (tag << 56) ^ value)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(31);
    }

    /// An empty table: no fields placed, no pieces, starting coins, shares on the table.
    pub(super) fn blank(rules: RulesRef<State>) -> State {
        let n = rules.players();
        let mut coins = [0; MAX_PLAYERS];
        let bonus = rules.params().seat_coins;
        for (p, c) in coins.iter_mut().enumerate().take(n) {
            // QAX-2.6: the seat's bonus, checked when the rules were built.
            *c = (i32::from(START_COINS) + bonus.bonus(p)) as u8;
        }
        State {
            rules,
            field: [NONE; MAX_CELLS],
            owner: [NONE; MAX_CELLS],
            height: [0; MAX_CELLS],
            fields: 0,
            stacks: [[NONE; 3]; MAX_PLAYERS],
            at: [NONE; NUM_FIELDS],
            coins,
            bank: (rules.params().bank_coins as i32
                - i32::from(START_COINS) * n as i32
                - bonus.total(n)) as u8,
            share: [NONE; NUM_FIELDS],
            index: [UNSET; NUM_COMPANIES],
            new_index: [UNSET; NUM_COMPANIES],
            dealt: [NONE; NUM_FIELDS],
            start: 0,
            actor: 0,
            phase: Phase::PlacePieces,
            left: 0,
            start_pos: [[NONE; 2]; 3],
            moved_to: NONE,
            transit: 0,
            attacked: false,
            forced: false,
            placed: [0; MAX_PLAYERS],
            round: 0,
            ply: 0,
            history: 0,
            winner: NONE,
            end: END_NONE,
            stats: [[0; NUM_STATS]; MAX_PLAYERS],
            owned: [0; MAX_PLAYERS],
            stranded: no_stranded(),
        }
    }

    // ----- public read access -------------------------------------------------------

    /// The field (id `4·company + number − 1`) on `cell`, if any.
    pub fn field_at(&self, cell: u8) -> Option<u8> {
        let f = self.field[cell as usize];
        (f != NONE).then_some(f)
    }

    /// The cell of field `f`, if placed.
    pub fn cell_of(&self, f: u8) -> Option<u8> {
        let c = self.at[f as usize];
        (c != NONE).then_some(c)
    }

    /// The stack on `cell`: (seat, height), if any.
    pub fn stack(&self, cell: u8) -> Option<(Seat, u8)> {
        let o = self.owner[cell as usize];
        (o != NONE).then_some((o as Seat, self.height[cell as usize]))
    }

    /// Coins per seat.
    pub fn coins(&self) -> PerSeat<u8> {
        self.coins
    }

    /// Coins in the bank.
    pub fn bank(&self) -> u8 {
        self.bank
    }

    /// The holder of share `f`, if any.
    pub fn holder(&self, f: u8) -> Option<Seat> {
        let h = self.share[f as usize];
        (h != NONE).then_some(h as Seat)
    }

    /// The rating of `company` on the current Index (`None` before the first Index).
    pub fn rating(&self, company: usize) -> Option<Rating> {
        Rating::ALL.get(self.index[company] as usize).copied()
    }

    /// Whether `p` owns `company`: holds all 4 of its shares (QAX-3.8).
    pub fn owns(&self, p: Seat, company: usize) -> bool {
        self.share[4 * company..4 * company + 4]
            .iter()
            .all(|&h| h as Seat == p)
    }

    /// The current start player.
    pub fn start_player(&self) -> Seat {
        self.start as Seat
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Movements left in the current turn.
    pub fn movements_left(&self) -> u8 {
        self.left
    }

    /// The coin-goal winner, if the game ended that way.
    pub fn winner(&self) -> Option<Seat> {
        (self.winner != NONE).then_some(self.winner as Seat)
    }

    // ----- rule helpers -------------------------------------------------------------

    pub(super) fn index_price(&self, f: u8) -> u8 {
        self.rating(f as usize / 4).map_or(2, Rating::price)
    }

    fn occupied(&self) -> u128 {
        let mut m = 0u128;
        for s in &self.stacks[..self.n()] {
            for &c in s {
                if c != NONE {
                    m |= 1u128 << c;
                }
            }
        }
        m
    }

    pub(super) fn add_pieces(&mut self, p: u8, c: u8, h: u8) {
        let i = c as usize;
        if self.owner[i] == NONE {
            self.owner[i] = p;
            let s = &mut self.stacks[p as usize];
            if let Some(slot) = s.iter_mut().find(|x| **x == NONE) {
                *slot = c;
            }
            s.sort_unstable();
        }
        self.height[i] += h;
    }

    fn remove_pieces(&mut self, c: u8, h: u8) {
        let i = c as usize;
        self.height[i] -= h;
        if self.height[i] == 0 {
            let p = self.owner[i] as usize;
            self.owner[i] = NONE;
            let s = &mut self.stacks[p];
            if let Some(slot) = s.iter_mut().find(|x| **x == c) {
                *slot = NONE;
            }
            s.sort_unstable();
        }
    }

    /// Pays `x` coins from the bank to `p` (what the bank holds, QAX-09); a player reaching
    /// the goal wins at once (QAX-4.1). Returns the coins paid.
    fn gain(&mut self, p: u8, x: u8) -> u8 {
        let x = x.min(self.bank);
        self.bank -= x;
        self.coins[p as usize] += x;
        self.check_goal(p);
        x
    }

    fn check_goal(&mut self, p: u8) {
        if self.coins[p as usize] >= self.data().goal && self.phase != Phase::Over {
            self.phase = Phase::Over;
            self.winner = p;
            self.end = END_GOAL;
        }
    }

    fn is_start(&self, c: u8, h: u8) -> bool {
        self.start_pos.iter().any(|&[sc, sh]| sc == c && sh == h)
    }

    /// Whether a diagonal step from `from` in `dir` passes the `diagonal_rule` (QAX-06).
    fn diagonal_ok(&self, from: u8, dir: u8) -> bool {
        if dir % 2 == 0 {
            return true;
        }
        let [a, b] = self.geo().between[from as usize][dir as usize];
        let has = |c: u8| c != NO_CELL && self.field[c as usize] != NONE;
        match self.params().diagonal_rule {
            DiagonalRule::DestinationOnly => true,
            DiagonalRule::OneOrthogonalField => has(a) || has(b),
            DiagonalRule::BothOrthogonalFields => has(a) && has(b),
        }
    }

    /// The start-position rule for the stack left behind on `from` (QAX-07 `any_stack`).
    fn left_behind_ok(&self, from: u8, h: u8) -> bool {
        let rest = self.height[from as usize] - h;
        self.params().start_rule == StartRule::Destination
            || rest == 0
            || !self.is_start(from, rest)
    }

    /// Checks shared by every move onto `t` that creates a stack of height `dest_h` of the
    /// actor: start position, Baisse charge, forced purchase affordability.
    fn arrival_ok(&self, t: u8, dest_h: u8) -> bool {
        if self.is_start(t, dest_h) {
            return false;
        }
        let me = self.actor;
        let f = self.field[t as usize];
        let company = f as usize / 4;
        if self.params().baisse_when_broke == BaisseWhenBroke::ForbidMove
            && self.coins[me as usize] == 0
            && self.rating(company) == Some(Rating::Baisse)
            && self.owns(me as Seat, company)
        {
            return false;
        }
        let o = self.owner[t as usize];
        let forced_unpaid = self.params().unaffordable_attack == UnaffordableAttack::Illegal
            && o != NONE
            && o != me
            && self.share[f as usize] == o
            && !self.owns(o as Seat, company)
            && self.coins[me as usize] < self.index_price(f);
        if forced_unpaid {
            return false;
        }
        true
    }

    /// Whether `need` more pieces can join a combined attack on `t` from the actor's stacks
    /// on cells after `after`.
    fn can_complete(&self, t: u8, need: u8, after: u8) -> bool {
        let me = self.actor as usize;
        for &b in &self.stacks[me] {
            if b == NONE || (after != NONE && b <= after) {
                continue;
            }
            let Some(d) = self.geo().dir_between(b, t) else {
                continue;
            };
            if !self.diagonal_ok(b, d) {
                continue;
            }
            let hb = self.height[b as usize];
            for h in 1..=hb.min(need) {
                if !self.left_behind_ok(b, h) {
                    continue;
                }
                if h == need || self.can_complete(t, need - h, b) {
                    return true;
                }
            }
        }
        false
    }

    /// Calls `f` with every legal movement in id order; stops when `f` returns true.
    /// Returns whether it stopped.
    fn for_each_move(&self, mut f: impl FnMut(Action) -> bool) -> bool {
        let me = self.actor;
        let geo = self.geo();
        let combined = self.params().combined_attack;
        for &s in &self.stacks[me as usize] {
            if s == NONE {
                break;
            }
            let hs = self.height[s as usize];
            for d in 0..8u8 {
                let t = geo.step[s as usize][d as usize];
                if t == NO_CELL || self.field[t as usize] == NONE || !self.diagonal_ok(s, d) {
                    continue;
                }
                let o = self.owner[t as usize];
                let ht = self.height[t as usize];
                for h in 1..=hs.min(self.left) {
                    if !self.left_behind_ok(s, h) {
                        continue;
                    }
                    let ok = if o == NONE {
                        self.arrival_ok(t, h)
                    } else if o == me {
                        self.arrival_ok(t, ht + h)
                    } else if h == ht {
                        self.arrival_ok(t, ht)
                    } else {
                        h < ht
                            && combined
                            && ht <= self.left
                            && self.arrival_ok(t, ht)
                            && self.can_complete(t, ht - h, s)
                    };
                    if ok && f(Action::mv(s, d, h)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The next parts of a combined attack, in id order.
    fn for_each_join(&self, target: u8, need: u8, last: u8, out: &mut Vec<Action>) {
        let me = self.actor as usize;
        for &b in &self.stacks[me] {
            if b == NONE || b <= last {
                continue;
            }
            let Some(d) = self.geo().dir_between(b, target) else {
                continue;
            };
            if !self.diagonal_ok(b, d) {
                continue;
            }
            for h in 1..=self.height[b as usize].min(need) {
                if self.left_behind_ok(b, h)
                    && (h == need || self.can_complete(target, need - h, b))
                {
                    out.push(Action::mv(b, d, h));
                }
            }
        }
    }

    /// Cells adjacent to at least one and to at least two fields.
    fn near_fields(&self) -> (u128, u128) {
        let geo = self.geo();
        let (mut one, mut two) = (0u128, 0u128);
        for c in cells(self.fields) {
            let nb = geo.neigh[c as usize];
            two |= one & nb;
            one |= nb;
        }
        (one, two)
    }

    /// The legal destinations of the field on `from` (QAX-05): empty cells of the play
    /// area bordering another field once it is lifted.
    fn put_cells(&self, from: u8) -> u128 {
        let geo = self.geo();
        let mut near = 0u128;
        for c in cells(self.fields & !(1u128 << from)) {
            near |= geo.neigh[c as usize];
        }
        near & geo.area & !self.fields
    }

    /// Cells of vacant fields that have a legal destination.
    fn liftable(&self) -> u128 {
        let geo = self.geo();
        let vacant = self.fields & !self.occupied();
        let empty = geo.area & !self.fields;
        let (one, two) = self.near_fields();
        if empty & two != 0 {
            return vacant;
        }
        let mut out = 0u128;
        for c in cells(vacant) {
            if empty & one & !geo.neigh[c as usize] != 0 {
                out |= 1u128 << c;
            }
        }
        out
    }

    fn can_buy(&self) -> bool {
        let f = self.field[self.moved_to as usize];
        self.share[f as usize] == NONE && self.coins[self.actor as usize] >= self.index_price(f)
    }

    fn can_sell(&self) -> bool {
        let f = self.field[self.moved_to as usize];
        self.share[f as usize] == self.actor
    }

    /// The legal actions before the QAX-12 look-ahead, in id order (the actor acts).
    fn base_actions(&self, out: &mut Vec<Action>) {
        let me = self.actor;
        match self.phase {
            Phase::ChooseField => {
                for f in 0..NUM_FIELDS as u8 {
                    if self.dealt[f as usize] == me && self.at[f as usize] == NONE {
                        out.push(Action::choose_field(f));
                    }
                }
            }
            Phase::PlaceField { .. } => {
                for c in cells(self.geo().board & !self.fields) {
                    out.push(Action::place_field(c));
                }
            }
            Phase::PlacePieces => {
                let rest = PIECES_PER_PLAYER - self.placed[me as usize];
                let most = match self.params().piece_placement {
                    PiecePlacement::OnePiece => 1,
                    PiecePlacement::OneStack => rest,
                };
                for c in cells(self.fields) {
                    let o = self.owner[c as usize];
                    if o != NONE && o != me {
                        continue;
                    }
                    for h in 1..=most {
                        if self.height[c as usize] + h <= PIECES_PER_PLAYER {
                            out.push(Action::pieces(c, h));
                        }
                    }
                }
            }
            Phase::SetIndex { company } => {
                let mut count = [0u8; 3];
                for &r in &self.new_index[..company as usize] {
                    count[r as usize] += 1;
                }
                for r in Rating::ALL {
                    if count[r as usize] < 3 {
                        out.push(Action::index(r));
                    }
                }
            }
            Phase::Lift => {
                out.push(Action::NO_SHIFT);
                for c in cells(self.liftable()) {
                    out.push(Action::lift(c));
                }
            }
            Phase::Put { from } => {
                for c in cells(self.put_cells(from)) {
                    out.push(Action::put(c));
                }
            }
            Phase::Move => {
                self.for_each_move(|a| {
                    out.push(a);
                    false
                });
            }
            Phase::Join { target, need, last } => self.for_each_join(target, need, last, out),
            Phase::Relocate {
                left,
                last_h,
                last_cell,
                ..
            } => {
                let vacant = self.fields & !self.occupied();
                let split = self.params().attack_relocation == Relocation::Split;
                for c in cells(vacant) {
                    if !split {
                        out.push(Action::relocate(c, left));
                        continue;
                    }
                    for h in 1..=left.min(last_h) {
                        if h == last_h && last_cell != NONE && c <= last_cell {
                            continue;
                        }
                        if can_split(left - h, h, c, vacant & !(1u128 << c)) {
                            out.push(Action::relocate(c, h));
                        }
                    }
                }
            }
            Phase::Trade => {
                out.push(Action::PASS);
                if self.can_buy() {
                    out.push(Action::BUY);
                }
                if self.can_sell() {
                    out.push(Action::SELL);
                }
            }
            Phase::Over => {}
        }
    }

    /// Movements the action spends once complete: a move's height, an attack's total; 0
    /// for a combined attack's non-final part and for every other action.
    fn spends(&self, a: Action) -> u8 {
        let Some(Kind::Move(s, d, h)) = a.kind() else {
            return 0;
        };
        match self.phase {
            Phase::Move => {
                let t = self.geo().step[s as usize][d as usize];
                let o = self.owner[t as usize];
                if o == NONE || o == self.actor || h == self.height[t as usize] {
                    h
                } else {
                    0
                }
            }
            Phase::Join { need, .. } if h == need => self.transit + h,
            _ => 0,
        }
    }

    /// Whether some sequence of the actor's decisions from here spends all movements
    /// (the game ending first counts as spent).
    fn can_spend_all(&self, me: u8) -> bool {
        if self.phase == Phase::Over {
            return true;
        }
        let mid_turn = matches!(
            self.phase,
            Phase::Move | Phase::Join { .. } | Phase::Relocate { .. } | Phase::Trade
        );
        if self.actor != me || !mid_turn {
            return false;
        }
        let mut buf = Vec::new();
        self.base_actions(&mut buf);
        buf.iter().any(|&a| self.keeps_full_spend(me, a))
    }

    fn keeps_full_spend(&self, me: u8, a: Action) -> bool {
        let sp = self.spends(a);
        if sp > 0 && sp == self.left {
            return true;
        }
        let mut t = self.clone();
        t.apply_unchecked(me as Seat, a, &mut NoChance);
        t.can_spend_all(me)
    }

    /// QAX-12 `allow_forfeit_moves=false`: while some sequence spends all 3 movements, only
    /// the moves that keep such a sequence possible are legal; otherwise every move is
    /// (the player forfeits what cannot be spent). Allocates; only under this variant.
    fn look_ahead(&self, out: &mut Vec<Action>) {
        let me = self.actor;
        let keep: Vec<Action> = out
            .iter()
            .copied()
            .filter(|&a| self.keeps_full_spend(me, a))
            .collect();
        if !keep.is_empty() {
            *out = keep;
        }
    }

    // ----- flow -----------------------------------------------------------------------

    fn first_placer(&self) -> u8 {
        match self.params().placement_first {
            PlacementFirst::StartPlayer => self.start,
            PlacementFirst::LeftOfStart => (self.start + 1) % self.n() as u8,
        }
    }

    fn start_piece_placement(&mut self) {
        self.actor = self.first_placer();
        self.phase = Phase::PlacePieces;
    }

    pub(super) fn start_index(&mut self) {
        self.actor = self.start;
        self.new_index = [UNSET; NUM_COMPANIES];
        self.phase = Phase::SetIndex { company: 0 };
    }

    pub(super) fn begin_turn(&mut self, p: u8) {
        self.actor = p;
        self.start_pos = [[NONE; 2]; 3];
        for (slot, &c) in self.start_pos.iter_mut().zip(&self.stacks[p as usize]) {
            if c != NONE {
                *slot = [c, self.height[c as usize]];
            }
        }
        self.left = MOVEMENTS;
        if self.liftable() != 0 {
            self.phase = Phase::Lift;
        } else {
            self.begin_moves();
        }
    }

    fn begin_moves(&mut self) {
        self.left = MOVEMENTS;
        self.phase = Phase::Move;
        if !self.for_each_move(|_| true) {
            self.end_turn();
        }
    }

    pub(super) fn end_turn(&mut self) {
        self.moved_to = NONE;
        self.attacked = false;
        self.forced = false;
        if self.actor == self.start {
            if self.round >= self.params().max_rounds {
                self.phase = Phase::Over;
                self.end = END_LIMIT;
                return;
            }
            self.start = (self.start + 1) % self.n() as u8;
            self.round += 1;
            self.start_index();
        } else {
            self.begin_turn((self.actor + 1) % self.n() as u8);
        }
    }

    /// Compulsory owner income on the field moved to (QAX-3.8).
    fn income(&mut self) {
        let me = self.actor;
        let company = self.field[self.moved_to as usize] as usize / 4;
        if !self.owns(me as Seat, company) {
            return;
        }
        let Some(r) = self.rating(company) else {
            return;
        };
        let x = r.income();
        if x > 0 {
            let got = self.gain(me, x as u8);
            self.stats[me as usize][S_INCOME] += got as i16;
        } else if self.coins[me as usize] > 0 {
            // pay_what_you_can: with 0 coins the charge costs nothing (QAX-04).
            self.coins[me as usize] -= 1;
            self.bank += 1;
            self.stats[me as usize][S_INCOME] -= 1;
        }
    }

    fn arrive(&mut self, t: u8) {
        self.moved_to = t;
        self.attacked = false;
        self.forced = false;
        if self.params().income_timing == IncomeTiming::BeforeTrade {
            self.income();
            if self.phase == Phase::Over {
                return;
            }
        }
        self.enter_trade();
    }

    /// The actor's stack of height `d` takes `t` (the pieces have left their cells).
    fn attack(&mut self, t: u8, d: u8) {
        let me = self.actor;
        let victim = self.owner[t as usize];
        self.remove_pieces(t, d);
        self.add_pieces(me, t, d);
        self.left -= d;
        self.stats[me as usize][S_ATTACKS] += 1;
        self.stats[victim as usize][S_ATTACKED] += 1;
        self.moved_to = t;
        self.attacked = true;
        self.forced = false;
        if self.params().income_timing == IncomeTiming::BeforeTrade {
            self.income();
            if self.phase == Phase::Over {
                // The game ends at once (QAX-09): the attacked pieces stay off the board.
                self.stranded = [victim, d];
                return;
            }
        }
        // The forced purchase (QAX-3.9): paid to the defender unless they own the company.
        let f = self.field[t as usize];
        if self.share[f as usize] == victim && !self.owns(victim as Seat, f as usize / 4) {
            let price = self.index_price(f);
            if self.coins[me as usize] >= price {
                self.coins[me as usize] -= price;
                self.coins[victim as usize] += price;
                self.share[f as usize] = me;
                self.mark_owner(me, f);
                self.forced = true;
                self.stats[me as usize][S_FORCED_PAID] += price as i16;
                self.stats[victim as usize][S_FORCED_GOT] += price as i16;
                self.check_goal(victim);
                if self.phase == Phase::Over {
                    self.stranded = [victim, d];
                    return;
                }
            }
        }
        self.phase = Phase::Relocate {
            victim,
            left: d,
            last_h: d,
            last_cell: NONE,
        };
    }

    fn enter_trade(&mut self) {
        let allowed = !self.attacked
            || (!self.forced && self.params().trade_after_attack == TradeAfterAttack::Normal);
        if allowed && (self.can_buy() || self.can_sell()) {
            self.phase = Phase::Trade;
        } else {
            self.finish_move();
        }
    }

    fn finish_move(&mut self) {
        if self.params().income_timing == IncomeTiming::AfterTrade {
            self.income();
            if self.phase == Phase::Over {
                return;
            }
        }
        self.attacked = false;
        self.forced = false;
        if self.left > 0 {
            self.phase = Phase::Move;
            if self.for_each_move(|_| true) {
                return;
            }
        }
        self.end_turn();
    }

    fn finish_index(&mut self) {
        self.index = self.new_index;
        if self.round == 0 {
            self.round = 1;
        }
        self.begin_turn((self.start + 1) % self.n() as u8);
    }

    /// The checks of [`GameState::validate`] on the counters and the end, each message
    /// naming the field:
    ///
    /// - `ply` within [`GameState::max_game_length`]; `round` ≤ `max_rounds` (QAX-15), and
    ///   ≥ 1 once turns are played (the first Index starts round 1);
    /// - `end` is none, `coin_goal` or `round_limit`, and set exactly when `phase` is over;
    ///   `winner` is a seat exactly when the game ended at the coin goal (QAX-4.1), with at
    ///   least the goal in coins; the round limit ends the game only in round `max_rounds`;
    /// - no seat holds the coin goal in a game that goes on (reaching it ends the game at
    ///   once, QAX-4.1).
    fn check_counters_and_end(&self) -> Result<(), String> {
        let n = self.n();
        let max_ply = <State as GameState>::max_game_length(self.rules.get());
        if self.ply > max_ply {
            return Err(format!(
                "ply = {} exceeds the game's bound 0..={max_ply}",
                self.ply
            ));
        }
        let max_rounds = self.params().max_rounds;
        if self.round > max_rounds {
            return Err(format!(
                "round = {} is outside 0..={max_rounds} (max_rounds)",
                self.round
            ));
        }
        let in_turn = matches!(
            self.phase,
            Phase::Lift
                | Phase::Put { .. }
                | Phase::Move
                | Phase::Join { .. }
                | Phase::Relocate { .. }
                | Phase::Trade
        );
        if in_turn && self.round == 0 {
            return Err(format!(
                "round = 0 at phase {:?} (turns are played from round 1)",
                self.phase
            ));
        }
        let over = self.phase == Phase::Over;
        let end_ok = match self.end {
            END_NONE => !over,
            END_GOAL => over && self.winner != NONE,
            END_LIMIT => over && self.winner == NONE && self.round == max_rounds,
            _ => false,
        };
        if !end_ok {
            return Err(format!(
                "end = {} with phase {:?}, winner {} and round {}: end is 0 (none) while the \
                 game goes on, 1 (coin_goal) with a winner, or 2 (round_limit) in round \
                 max_rounds = {max_rounds} without one",
                self.end, self.phase, self.winner, self.round
            ));
        }
        let goal = self.data().goal;
        if self.winner != NONE
            && (usize::from(self.winner) >= n || self.coins[usize::from(self.winner)] < goal)
        {
            return Err(format!(
                "winner = {} is not a seat of 0..{n} holding the coin goal {goal} (coins {:?})",
                self.winner,
                &self.coins[..n]
            ));
        }
        if !over && let Some(p) = (0..n).find(|&p| self.coins[p] >= goal) {
            return Err(format!(
                "coins[{p}] = {} reaches the goal {goal} but the game goes on (phase {:?})",
                self.coins[p], self.phase
            ));
        }
        Ok(())
    }

    /// Records that `p` owns the company of share `f` if it now holds all 4.
    fn mark_owner(&mut self, p: u8, f: u8) {
        let c = f as usize / 4;
        if self.owns(p as Seat, c) {
            self.owned[p as usize] |= 1 << c;
        }
    }

    fn next_with<F: Fn(&State, u8) -> bool>(&self, from: u8, has: F) -> Option<u8> {
        let n = self.n() as u8;
        (1..=n).map(|k| (from + k) % n).find(|&q| has(self, q))
    }

    fn share_value(&self, p: Seat) -> i32 {
        (0..NUM_FIELDS as u8)
            .filter(|&f| self.share[f as usize] as Seat == p)
            .map(|f| self.index_price(f) as i32)
            .sum()
    }

    fn rank_keys(&self) -> PerSeat<i32> {
        let mut k = [0i32; MAX_PLAYERS];
        let extra =
            self.end == END_LIMIT && self.params().limit_tiebreak == LimitTiebreak::CoinsPlusShares;
        for (p, key) in k.iter_mut().enumerate().take(self.n()) {
            *key = self.coins[p] as i32 + if extra { self.share_value(p) } else { 0 };
        }
        k
    }

    fn hand_mask(&self, p: Seat) -> u64 {
        (0..NUM_FIELDS)
            .filter(|&f| self.dealt[f] as Seat == p)
            .fold(0u64, |m, f| m | 1 << f)
    }
}

impl GameState for State {
    type Action = Action;
    type Params = Params;
    type RulesData = RulesData;
    type Observation = Observation;

    const TYPE: GameType = GameType {
        short_name: "qax",
        long_name: "Q.A.X.",
        description: "Q.A.X.: shifting company fields, stacked pieces, an Index, shares and attacks (2-4 players)",
        min_players: 2,
        max_players: 4,
        default_players: 2,
        dynamics: Dynamics::Sequential,
        chance_mode: ChanceMode::SampledStochastic,
        information: Information::Perfect,
        utility: UtilityKind::ConstantSum,
        num_action_ids: super::action::NUM_IDS as usize,
        perfect_recall: true,
    };

    fn build_rules(params: &Params, players: usize) -> Result<RulesData, ParamError> {
        let owner = "game qax";
        let goal = if params.professional {
            params.win_coins_pro.at(players, Self::PLAYERS)
        } else {
            params.win_coins.at(players, Self::PLAYERS)
        };
        let seat = match params.first_start_player {
            FirstStart::Seat0 => Some(0),
            FirstStart::Seat1 => Some(1),
            FirstStart::Seat2 => Some(2),
            FirstStart::Seat3 => Some(3),
            FirstStart::Random => None,
        };
        if let Some(s) = seat.filter(|&s| s >= players) {
            return Err(ParamError::Invalid {
                owner: owner.into(),
                reason: format!(
                    "first_start_player = {s} is not a seat of a {players}-player game; valid: \
                     0..={} or random",
                    players - 1
                ),
            });
        }
        if (params.bank_coins as usize) < START_COINS as usize * players {
            return Err(ParamError::Invalid {
                owner: owner.into(),
                reason: format!(
                    "bank_coins = {} cannot pay the start coins",
                    params.bank_coins
                ),
            });
        }
        // QAX-2.6: a seat starts with the rulebook's 7 coins plus its `seat_coins` bonus,
        // below the coin goal (a seat at the goal would have won), paid from the bank.
        params
            .seat_coins
            .check(
                "seat_coins",
                players,
                i32::from(START_COINS),
                (0, goal as i32 - 1),
                "coins",
                Some((params.bank_coins as i32, "the bank's bank_coins (QAX-09)")),
            )
            .map_err(|reason| ParamError::Invalid {
                owner: owner.into(),
                reason,
            })?;
        Ok(RulesData {
            geo: Geometry::new(params.board),
            goal: goal as u8,
            names: params.company_names.0.clone(),
        })
    }

    fn new_game<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> Self {
        let mut s = State::blank(rules);
        let n = s.n();
        s.start = match rules.params().first_start_player {
            FirstStart::Random => chance.below(n as u32) as u8,
            FirstStart::Seat0 => 0,
            FirstStart::Seat1 => 1,
            FirstStart::Seat2 => 2,
            FirstStart::Seat3 => 3,
        };
        s.note(0xA0, s.start as u64);
        let mut pool: [u8; NUM_FIELDS] = std::array::from_fn(|i| i as u8);
        let mut len = NUM_FIELDS;
        let mut draw = |chance: &mut C| {
            let k = chance.below(len as u32) as usize;
            let f = pool[k];
            pool[k] = pool[len - 1];
            len -= 1;
            f
        };
        match rules.params().field_setup {
            FieldSetup::Random => {
                for c in cells(s.geo().board) {
                    let f = draw(chance);
                    s.field[c as usize] = f;
                    s.at[f as usize] = c;
                    s.fields |= 1u128 << c;
                    s.note(0xA1, ((c as u64) << 8) | f as u64);
                }
                s.start_piece_placement();
            }
            FieldSetup::Players => {
                // Dealt face down (QAX-2.1): 36 / players each.
                for i in 0..NUM_FIELDS {
                    let f = draw(chance);
                    s.dealt[f as usize] = (i % n) as u8;
                }
                s.actor = s.first_placer();
                s.phase = Phase::ChooseField;
            }
        }
        s
    }

    fn rules(&self) -> RulesRef<State> {
        self.rules
    }

    fn turn(&self) -> Turn {
        if self.phase == Phase::Over {
            Turn::Terminal
        } else {
            Turn::Player(self.actor as Seat)
        }
    }

    /// The rules' legal actions; under `allow_forfeit_moves=false` the movements are
    /// filtered by the look-ahead of QAX-12.
    fn legal_actions(&self, player: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.phase == Phase::Over || player != self.actor as Seat {
            return;
        }
        self.base_actions(out);
        if !self.params().allow_forfeit_moves
            && matches!(self.phase, Phase::Move | Phase::Join { .. })
        {
            self.look_ahead(out);
        }
    }

    /// The default's answer (the legal list searched), asked only of an action that the
    /// phase can offer at all: its kind is one the phase lists and a movement starts on one
    /// of the actor's stacks with at most that stack's height (`for_each_move` and
    /// `for_each_join` list nothing else, and the QAX-12 look-ahead only removes). Every
    /// other action id is refused without building the list, which is what made the
    /// conformance checks of every action id (4,268 of them) slow.
    fn is_legal(&self, player: Seat, action: Action, buf: &mut Vec<Action>) -> bool {
        if self.phase == Phase::Over || player != self.actor as Seat {
            return false;
        }
        let Some(kind) = action.kind() else {
            return false;
        };
        let offered = match (self.phase, kind) {
            (Phase::ChooseField, Kind::ChooseField(_))
            | (Phase::PlaceField { .. }, Kind::PlaceField(_))
            | (Phase::PlacePieces, Kind::Pieces(..))
            | (Phase::SetIndex { .. }, Kind::Index(_))
            | (Phase::Lift, Kind::NoShift | Kind::Lift(_))
            | (Phase::Put { .. }, Kind::Put(_))
            | (Phase::Relocate { .. }, Kind::Relocate(..))
            | (Phase::Trade, Kind::Pass | Kind::Buy | Kind::Sell) => true,
            (Phase::Move | Phase::Join { .. }, Kind::Move(s, _, h)) => {
                self.stacks[self.actor as usize].contains(&s) && h <= self.height[s as usize]
            }
            _ => false,
        };
        if !offered {
            return false;
        }
        self.legal_actions(player, buf);
        buf.binary_search(&action).is_ok()
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, player: Seat, action: Action, _: &mut C) {
        debug_assert_eq!(player, self.actor as Seat);
        self.ply += 1;
        self.note(player as u64 + 1, action.0 as u64);
        let me = self.actor;
        let Some(kind) = action.kind() else {
            return;
        };
        match (self.phase, kind) {
            (Phase::ChooseField, Kind::ChooseField(f)) => {
                self.phase = Phase::PlaceField { field: f };
            }
            (Phase::PlaceField { field }, Kind::PlaceField(c)) => {
                self.field[c as usize] = field;
                self.at[field as usize] = c;
                self.fields |= 1u128 << c;
                let next = self.next_with(me, |s, q| {
                    (0..NUM_FIELDS).any(|f| s.dealt[f] == q && s.at[f] == NONE)
                });
                match next {
                    Some(q) => {
                        self.actor = q;
                        self.phase = Phase::ChooseField;
                    }
                    None => self.start_piece_placement(),
                }
            }
            (Phase::PlacePieces, Kind::Pieces(c, h)) => {
                self.add_pieces(me, c, h);
                self.placed[me as usize] += h;
                match self.next_with(me, |s, q| s.placed[q as usize] < PIECES_PER_PLAYER) {
                    Some(q) => self.actor = q,
                    None => self.start_index(),
                }
            }
            (Phase::SetIndex { company }, Kind::Index(r)) => {
                self.new_index[company as usize] = r as u8;
                let mut k = company as usize + 1;
                let mut count = [0u8; 3];
                for &x in &self.new_index[..k] {
                    count[x as usize] += 1;
                }
                // Ratings forced by the 3/3/3 rule are filled in (no one-choice decisions).
                let open = count.iter().filter(|&&x| x < 3).count();
                if open == 1 {
                    let only = count.iter().position(|&x| x < 3).unwrap_or(0) as u8;
                    while k < NUM_COMPANIES {
                        self.new_index[k] = only;
                        k += 1;
                    }
                }
                if k == NUM_COMPANIES {
                    self.finish_index();
                } else {
                    self.phase = Phase::SetIndex { company: k as u8 };
                }
            }
            (Phase::Lift, Kind::NoShift) => self.begin_moves(),
            (Phase::Lift, Kind::Lift(c)) => self.phase = Phase::Put { from: c },
            (Phase::Put { from }, Kind::Put(c)) => {
                let f = self.field[from as usize];
                self.field[from as usize] = NONE;
                self.fields &= !(1u128 << from);
                self.field[c as usize] = f;
                self.at[f as usize] = c;
                self.fields |= 1u128 << c;
                self.begin_moves();
            }
            (Phase::Move, Kind::Move(s, d, h)) => {
                let t = self.geo().step[s as usize][d as usize];
                let o = self.owner[t as usize];
                self.remove_pieces(s, h);
                if o == NONE || o == me {
                    self.add_pieces(me, t, h);
                    self.left -= h;
                    self.arrive(t);
                } else {
                    let ht = self.height[t as usize];
                    if h == ht {
                        self.attack(t, ht);
                    } else {
                        self.transit = h;
                        self.phase = Phase::Join {
                            target: t,
                            need: ht - h,
                            last: s,
                        };
                    }
                }
            }
            (Phase::Join { target, need, .. }, Kind::Move(s, _, h)) => {
                self.remove_pieces(s, h);
                self.transit += h;
                if h == need {
                    let d = self.transit;
                    self.transit = 0;
                    self.attack(target, d);
                } else {
                    self.phase = Phase::Join {
                        target,
                        need: need - h,
                        last: s,
                    };
                }
            }
            (Phase::Relocate { victim, left, .. }, Kind::Relocate(c, h)) => {
                self.add_pieces(victim, c, h);
                if h == left {
                    self.enter_trade();
                } else {
                    self.phase = Phase::Relocate {
                        victim,
                        left: left - h,
                        last_h: h,
                        last_cell: c,
                    };
                }
            }
            (Phase::Trade, Kind::Pass) => self.finish_move(),
            (Phase::Trade, Kind::Buy) => {
                let f = self.field[self.moved_to as usize];
                let price = self.index_price(f);
                self.coins[me as usize] -= price;
                self.bank += price;
                self.share[f as usize] = me;
                self.mark_owner(me, f);
                self.stats[me as usize][S_BUYS] += 1;
                self.stats[me as usize][S_TRADE] -= price as i16;
                self.finish_move();
            }
            (Phase::Trade, Kind::Sell) => {
                let f = self.field[self.moved_to as usize];
                self.share[f as usize] = NONE;
                self.stats[me as usize][S_SELLS] += 1;
                let got = self.gain(me, self.index_price(f));
                self.stats[me as usize][S_TRADE] += got as i16;
                if self.phase != Phase::Over {
                    self.finish_move();
                }
            }
            _ => debug_assert!(false, "action {action} does not fit phase {:?}", self.phase),
        }
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<Action>, _: &mut C) {
        debug_assert!(false, "Q.A.X. has no simultaneous nodes");
    }

    /// A softmax over the projected wealth (module docs, "Value estimate"); the returns
    /// at the end.
    fn value(&self) -> PerSeat<f64> {
        self.value_with(&super::value::WEIGHTS)
    }

    /// Coins.
    fn scores(&self) -> PerSeat<i32> {
        let mut s = [0; MAX_PLAYERS];
        for (p, x) in s.iter_mut().enumerate().take(self.n()) {
            *x = self.coins[p] as i32;
        }
        s
    }

    /// By coins (the coin-goal winner has strictly the most); at the round limit
    /// `limit_tiebreak` may add share values; equal keys share a rank (QAX-15).
    fn ranks(&self) -> PerSeat<u8> {
        let komi = &self.params().komi;
        if komi.is_zero() {
            crate::game::ranks_by_key(&self.rank_keys(), self.n())
        } else {
            // QAX-15.1: the komi is added to the ranking coins.
            komi.rank(&self.rank_keys(), &[0u8; MAX_PLAYERS], self.n())
        }
    }

    /// The public history; under `field_setup=players` also the seat's own dealt fields.
    fn info_key(&self, player: Seat) -> u64 {
        if self.params().field_setup == FieldSetup::Players {
            mix64(self.history ^ mix64(self.hand_mask(player) ^ 0x5eed))
        } else {
            self.history
        }
    }

    fn observation(&self, seat: Seat) -> Observation {
        let mut view = self.clone();
        for f in 0..NUM_FIELDS {
            if view.dealt[f] != NONE && view.dealt[f] as Seat != seat && view.at[f] == NONE {
                view.dealt[f] = HIDDEN;
            }
        }
        Observation { seat, view }
    }

    /// Deals the other players' unplaced fields anew, keeping hand sizes
    /// (`field_setup=players`); otherwise nothing is hidden and this is a clone.
    fn determinize(&self, observer: Seat, rng: &mut SimRng) -> Self {
        let mut s = self.clone();
        let mut pool = [0u8; NUM_FIELDS];
        let mut len = 0;
        for f in 0..NUM_FIELDS {
            if s.dealt[f] != NONE && s.dealt[f] as Seat != observer && s.at[f] == NONE {
                pool[len] = f as u8;
                len += 1;
            }
        }
        if len < 2 {
            return s;
        }
        let mut owners = [NONE; NUM_FIELDS];
        for (o, &f) in owners.iter_mut().zip(&pool[..len]) {
            *o = s.dealt[f as usize];
        }
        for i in (1..len).rev() {
            let j = rng.random_range(0..=i);
            pool.swap(i, j);
        }
        for (k, &f) in pool[..len].iter().enumerate() {
            s.dealt[f as usize] = owners[k];
        }
        s
    }

    fn action_id(action: Action) -> usize {
        action.0 as usize
    }

    fn action_from_id(id: usize) -> Option<Action> {
        let a = Action(u16::try_from(id).ok()?);
        a.kind().map(|_| a)
    }

    fn parse_action(text: &str) -> Option<Action> {
        Action::parse(text.trim())
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn round(&self) -> u32 {
        self.round
    }

    fn end_condition(&self) -> &'static str {
        match self.end {
            END_GOAL => "coin_goal",
            END_LIMIT => "round_limit",
            _ => "",
        }
    }

    /// Setup: ≤ 72 field and 12 piece placements, 9 Index decisions; per round 9 Index
    /// decisions and per turn ≤ 12 (lift and put, ≤ 3 movement parts, ≤ 3 relocation
    /// parts, ≤ 3 trades).
    fn max_plies(&self) -> u32 {
        93 + self.params().max_rounds * (9 + 12 * self.n() as u32)
    }

    /// The bound of [`GameState::max_plies`]: the setup plies, then at most `9 + 12 n` plies
    /// per round up to `max_rounds` (QAX-15).
    fn max_game_length(rules: &Rules<Self>) -> u32 {
        93 + rules.params().max_rounds * (9 + 12 * rules.players() as u32)
    }

    /// The fields of the module docs ("Observation tensor"): scalars, the Index and the
    /// shares, then per cell of the play area, then the private hand under
    /// `field_setup=players`.
    fn observation_layout(rules: &Rules<Self>) -> Vec<TensorField> {
        let n = rules.players();
        let a = rules.data().geo.area.count_ones() as usize;
        let mut v = vec![
            TensorField::new("player", n, "one-hot of the observing seat"),
            TensorField::new(
                "phase",
                NUM_PHASES,
                "one-hot: choose_field, place_field, place_pieces, set_index, lift, put, move, join, relocate, trade, over",
            ),
            TensorField::new(
                "actor",
                n,
                "one-hot of the acting seat, seat-relative (observer first); zeros when over",
            ),
            TensorField::new(
                "start_player",
                n,
                "one-hot of the start player, seat-relative",
            ),
            TensorField::new("round", 1, "round / max_rounds"),
            TensorField::new("movements_left", 1, "movements left in the turn / 3"),
            TensorField::new("coins", n, "coins per seat, seat-relative, / the coin goal"),
            TensorField::new("bank", 1, "coins in the bank / bank_coins"),
            TensorField::new("placed", n, "pieces placed per seat, seat-relative, / 3"),
            TensorField::new(
                "index",
                3 * NUM_COMPANIES,
                "per company one-hot of its rating (hausse, nominale, baisse) on the Index; zeros before the first",
            ),
            TensorField::new(
                "new_index",
                3 * NUM_COMPANIES,
                "while the Index is set: per company one-hot of its new rating so far; else zeros",
            ),
            TensorField::new(
                "index_company",
                NUM_COMPANIES,
                "while the Index is set: one-hot of the company to rate next; else zeros",
            ),
            TensorField::new(
                "shares",
                n * NUM_FIELDS,
                "per share (field id order) one-hot of its holder, seat-relative; zeros on the table",
            ),
            TensorField::new(
                "attack",
                6,
                "transit / 3, need / 3 (combined attack); left / 3, last part height / 3 (relocation); attacked, forced purchase flags",
            ),
            TensorField::new(
                "victim",
                n,
                "one-hot of the seat whose pieces are relocated, seat-relative; else zeros",
            ),
            TensorField::new(
                "winner",
                n,
                "one-hot of the coin-goal winner, seat-relative; else zeros",
            ),
            TensorField::new(
                "cell_field",
                a,
                "per play-area cell (cell id order): 1 if a field lies there",
            ),
            TensorField::new(
                "cell_company",
                NUM_COMPANIES * a,
                "per cell, one-hot of its field's company",
            ),
            TensorField::new(
                "cell_number",
                4 * a,
                "per cell, one-hot of its field's number 1-4",
            ),
            TensorField::new(
                "cell_stack",
                3 * n * a,
                "per cell and seat (seat-relative), one-hot of the seat's stack height 1-3 there",
            ),
            TensorField::new(
                "cell_turn_start",
                3 * a,
                "per cell, one-hot of the height of the actor's stack there at the start of its turn (QAX-07)",
            ),
            TensorField::new(
                "cell_marks",
                4 * a,
                "per cell: moved to, lifted from (put), attacked (join), last part's cell (join or relocate)",
            ),
        ];
        if rules.params().field_setup == FieldSetup::Players {
            v.extend([
                TensorField::new(
                    "hand",
                    NUM_FIELDS,
                    "the seat's own unplaced fields (field id order)",
                ),
                TensorField::new(
                    "hand_sizes",
                    n,
                    "unplaced dealt fields per seat, seat-relative, / 18",
                ),
                TensorField::new(
                    "chosen_field",
                    NUM_FIELDS,
                    "while a field is placed: one-hot of that field; else zeros",
                ),
            ]);
        }
        v
    }

    /// Public position and, under `field_setup=players`, the seat's own hand and the hand
    /// sizes (never where another seat's unplaced field is).
    fn observation_tensor(&self, seat: Seat, out: &mut [f32]) {
        let n = self.n();
        let geo = self.geo();
        let a = geo.area.count_ones() as usize;
        out.fill(0.0);
        let rel = |q: u8| (q as usize + n - seat) % n;
        let mut at = 0;
        out[at + seat] = 1.0;
        at += n;
        let phase = match self.phase {
            Phase::ChooseField => 0,
            Phase::PlaceField { .. } => 1,
            Phase::PlacePieces => 2,
            Phase::SetIndex { .. } => 3,
            Phase::Lift => 4,
            Phase::Put { .. } => 5,
            Phase::Move => 6,
            Phase::Join { .. } => 7,
            Phase::Relocate { .. } => 8,
            Phase::Trade => 9,
            Phase::Over => 10,
        };
        out[at + phase] = 1.0;
        at += NUM_PHASES;
        if self.phase != Phase::Over {
            out[at + rel(self.actor)] = 1.0;
        }
        at += n;
        out[at + rel(self.start)] = 1.0;
        at += n;
        out[at] = self.round as f32 / self.params().max_rounds as f32;
        out[at + 1] = f32::from(self.left) / f32::from(MOVEMENTS);
        at += 2;
        let goal = f32::from(self.data().goal);
        for q in 0..n as u8 {
            out[at + rel(q)] = f32::from(self.coins[q as usize]) / goal;
            out[at + n + 1 + rel(q)] = f32::from(self.placed[q as usize]) / 3.0;
        }
        out[at + n] = f32::from(self.bank) / self.params().bank_coins as f32;
        at += 2 * n + 1;
        for c in 0..NUM_COMPANIES {
            if self.index[c] < UNSET {
                out[at + 3 * c + self.index[c] as usize] = 1.0;
            }
        }
        at += 3 * NUM_COMPANIES;
        if let Phase::SetIndex { company } = self.phase {
            for c in 0..company as usize {
                out[at + 3 * c + self.new_index[c] as usize] = 1.0;
            }
            out[at + 3 * NUM_COMPANIES + company as usize] = 1.0;
        }
        at += 4 * NUM_COMPANIES;
        for (f, &h) in self.share.iter().enumerate() {
            if h != NONE {
                out[at + n * f + rel(h)] = 1.0;
            }
        }
        at += n * NUM_FIELDS;
        if let Phase::Join { need, .. } = self.phase {
            out[at] = f32::from(self.transit) / 3.0;
            out[at + 1] = f32::from(need) / 3.0;
        }
        if let Phase::Relocate {
            victim,
            left,
            last_h,
            ..
        } = self.phase
        {
            out[at + 2] = f32::from(left) / 3.0;
            out[at + 3] = f32::from(last_h) / 3.0;
            out[at + 6 + rel(victim)] = 1.0;
        }
        out[at + 4] = f32::from(u8::from(self.attacked));
        out[at + 5] = f32::from(u8::from(self.forced));
        at += 6 + n;
        if self.winner != NONE {
            out[at + rel(self.winner)] = 1.0;
        }
        at += n;
        // Per-cell planes, each `a` cells long in cell id order.
        let (lifted, target, last) = match self.phase {
            Phase::Put { from } => (from, NONE, NONE),
            Phase::Join { target, last, .. } => (NONE, target, last),
            Phase::Relocate { last_cell, .. } => (NONE, NONE, last_cell),
            _ => (NONE, NONE, NONE),
        };
        let (company, number) = (at + a, at + 10 * a);
        let (stack, start) = (at + 14 * a, at + (14 + 3 * n) * a);
        let marks = start + 3 * a;
        for (i, c) in cells(geo.area).enumerate() {
            let ci = c as usize;
            let f = self.field[ci];
            if f != NONE {
                out[at + i] = 1.0;
                out[company + NUM_COMPANIES * i + f as usize / 4] = 1.0;
                out[number + 4 * i + f as usize % 4] = 1.0;
            }
            let o = self.owner[ci];
            if o != NONE {
                out[stack + 3 * (n * i + rel(o)) + self.height[ci] as usize - 1] = 1.0;
            }
            if let Some(&[_, h]) = self.start_pos.iter().find(|&&[sc, _]| sc == c) {
                out[start + 3 * i + h as usize - 1] = 1.0;
            }
            for (k, m) in [self.moved_to, lifted, target, last]
                .into_iter()
                .enumerate()
            {
                if m == c {
                    out[marks + 4 * i + k] = 1.0;
                }
            }
        }
        at = marks + 4 * a;
        if self.params().field_setup == FieldSetup::Players {
            let mut sizes = [0u8; MAX_PLAYERS];
            for f in 0..NUM_FIELDS {
                let d = self.dealt[f];
                if d != NONE && self.at[f] == NONE {
                    if d as usize == seat {
                        out[at + f] = 1.0;
                    }
                    // Sizes only: which unplaced field another seat holds is hidden.
                    sizes[rel(d)] += 1;
                }
            }
            for (i, &k) in sizes.iter().enumerate().take(n) {
                out[at + NUM_FIELDS + i] = f32::from(k) / 18.0;
            }
            if let Phase::PlaceField { field } = self.phase {
                out[at + NUM_FIELDS + n + field as usize] = 1.0;
            }
            at += 2 * NUM_FIELDS + n;
        }
        debug_assert_eq!(at, out.len(), "Q.A.X. observation tensor length");
    }

    /// The observation printed, then the public history digest in hex and, under
    /// `field_setup=players`, the seat's dealt fields as a hex mask (module docs).
    fn information_state_string(&self, seat: Seat) -> String {
        let mut s = format!("{}history {:016x}", self.observation(seat), self.history);
        if self.params().field_setup == FieldSetup::Players {
            s.push_str(&format!("\ndealt {:09x}", self.hand_mask(seat)));
        }
        s
    }

    /// Pieces, fields, shares and stacks consistent with each other; coins conserved
    /// (`coins` + `bank` = `bank_coins`); the counters and the end
    /// (`State::check_counters_and_end`).
    fn validate(&self) -> Result<(), InvalidState> {
        let check = || -> Result<(), String> {
            let n = self.n();
            let geo = self.geo();
            for p in 0..n {
                if let Some(c) =
                    (0..NUM_COMPANIES).find(|&c| self.owns(p, c) && self.owned[p] & 1 << c == 0)
                {
                    return Err(format!(
                        "owned[{p}]: seat {p} owns company {c} but owned does not record it"
                    ));
                }
            }
            let total: u32 =
                self.coins[..n].iter().map(|&c| c as u32).sum::<u32>() + self.bank as u32;
            if total != self.params().bank_coins {
                return Err(format!(
                    "coins {:?} + bank {} = {total}, not bank_coins {}",
                    &self.coins[..n],
                    self.bank,
                    self.params().bank_coins
                ));
            }
            if self.coins[n..].iter().any(|&c| c != 0) {
                return Err(format!("coins = {:?}: unused seats hold coins", self.coins));
            }
            if self.actor as usize >= n || self.start as usize >= n {
                return Err(format!(
                    "actor = {} or start = {} not a seat of 0..{n}",
                    self.actor, self.start
                ));
            }
            let mut mask = 0u128;
            // Eight cells at a time: a run of cells without field, owner or height passes
            // every check below and adds nothing to `mask`, so it is skipped whole.
            let word = |a: &[u8; MAX_CELLS], c: usize| {
                u64::from_ne_bytes(a[c..c + 8].try_into().expect("8 bytes"))
            };
            let empty = |c: usize| {
                word(&self.field, c) == u64::MAX
                    && word(&self.owner, c) == u64::MAX
                    && word(&self.height, c) == 0
            };
            const { assert!(MAX_CELLS % 8 == 0) };
            let mut c = 0;
            while c < MAX_CELLS {
                if c % 8 == 0 && empty(c) {
                    c += 8;
                    continue;
                }
                let f = self.field[c];
                if f != NONE {
                    if f as usize >= NUM_FIELDS {
                        return Err(format!(
                            "field: {f} on {} is no field id (valid 0..{NUM_FIELDS}, or {NONE})",
                            cell_name(c as u8)
                        ));
                    }
                    if self.at[f as usize] as usize != c {
                        return Err(format!(
                            "field: field {f} on {} but at[{f}] = {}",
                            cell_name(c as u8),
                            self.at[f as usize]
                        ));
                    }
                    mask |= 1u128 << c;
                }
                let o = self.owner[c];
                let h = self.height[c];
                if (o == NONE) != (h == 0) || h > 3 || (o != NONE && (o as usize >= n || f == NONE))
                {
                    return Err(format!(
                        "owner, height: bad stack on {}: owner {o} height {h}",
                        cell_name(c as u8)
                    ));
                }
                if o != NONE && !self.stacks[o as usize].contains(&(c as u8)) {
                    return Err(format!(
                        "stacks: the stack on {} is missing from its owner's list",
                        cell_name(c as u8)
                    ));
                }
                c += 1;
            }
            if mask != self.fields || mask & !geo.area != 0 {
                return Err("fields: mask inconsistent or a field off the play area".into());
            }
            for f in 0..NUM_FIELDS {
                let c = self.at[f];
                if c != NONE && (c as usize >= MAX_CELLS || self.field[c as usize] as usize != f) {
                    return Err(format!(
                        "at[{f}] = {c}: field {f} claims a cell that does not hold it"
                    ));
                }
                let h = self.share[f];
                if h != NONE && h as usize >= n {
                    return Err(format!("share[{f}] = {h}: not a seat"));
                }
                let d = self.dealt[f];
                if d != NONE && d as usize >= n {
                    return Err(format!("dealt[{f}] = {d}: not a seat"));
                }
            }
            for p in 0..MAX_PLAYERS {
                let s = self.stacks[p];
                if s.windows(2).any(|w| w[0] != NONE && w[0] >= w[1]) {
                    return Err(format!("stacks[{p}] = {s:?} not sorted"));
                }
                let mut pieces = 0u8;
                for &c in &s {
                    if c != NONE {
                        if c as usize >= MAX_CELLS || self.owner[c as usize] as usize != p {
                            return Err(format!(
                                "stacks[{p}] lists a stack on {c} it does not own"
                            ));
                        }
                        pieces += self.height[c as usize];
                    }
                }
                if matches!(self.phase, Phase::Join { .. }) && p == self.actor as usize {
                    pieces += self.transit;
                }
                if let Phase::Relocate { victim, left, .. } = self.phase {
                    if victim as usize == p {
                        pieces += left;
                    }
                }
                if self.stranded[0] as usize == p {
                    pieces += self.stranded[1];
                }
                let want = if p < n { self.placed[p] } else { 0 };
                if pieces != want || want > PIECES_PER_PLAYER {
                    return Err(format!(
                        "placed[{p}] = {want} but seat {p} has {pieces} pieces (at most \
                         {PIECES_PER_PLAYER}; pieces are conserved)"
                    ));
                }
            }
            if self.index.iter().chain(&self.new_index).any(|&r| r > UNSET) {
                return Err(format!(
                    "index = {:?} or new_index = {:?}: a rating outside 0..={UNSET}",
                    self.index, self.new_index
                ));
            }
            if self.left > MOVEMENTS {
                return Err(format!(
                    "left = {} movements, valid 0..={MOVEMENTS}",
                    self.left
                ));
            }
            let [sv, sn] = self.stranded;
            if (sv == NONE) != (sn == 0) || (sv != NONE && (self.phase != Phase::Over || sn > 3)) {
                return Err(format!(
                    "stranded = [{sv}, {sn}]: stranded pieces outside a game that ended in an attack"
                ));
            }
            self.check_counters_and_end()
        };
        check().map_err(InvalidState::of::<Self>)
    }
}

impl Measured for State {
    /// The action counts of the report's action-frequency section.
    const ACTION_METRICS: &'static [&'static str] = &["buys", "sells", "attacks_made"];

    const SEAT_METRICS: &'static [Column] = &[
        Column {
            name: "income",
            meaning: "net coins from owner income (Hausse +2, Nominale +1, Baisse -1 paid)",
        },
        Column {
            name: "trade_net",
            meaning: "coins from selling shares minus coins paid buying them (bank trades)",
        },
        Column {
            name: "buys",
            meaning: "shares bought from the bank",
        },
        Column {
            name: "sells",
            meaning: "shares sold to the bank",
        },
        Column {
            name: "attacks_made",
            meaning: "attacks this seat made (a combined attack counts once)",
        },
        Column {
            name: "attacks_suffered",
            meaning: "attacks on this seat's stacks",
        },
        Column {
            name: "forced_paid",
            meaning: "coins this seat paid in forced purchases after its attacks",
        },
        Column {
            name: "forced_received",
            meaning: "coins this seat received in forced purchases after being attacked",
        },
        Column {
            name: "companies_owned",
            meaning: "companies whose 4 shares this seat holds at the end",
        },
        Column {
            name: "shares",
            meaning: "shares held at the end",
        },
        Column {
            name: "coins",
            meaning: "coins at the end (the score)",
        },
        Column {
            name: "companies_ever_owned",
            meaning: "companies whose 4 shares this seat held at some time in the game",
        },
    ];

    const SEAT_LABELS: &'static [Column] = &[Column {
        name: "owner",
        meaning: "yes if the seat owned a company (all 4 shares) at some time in the game, else no",
    }];

    const GAME_METRICS: &'static [Column] = &[Column {
        name: "round_limit",
        meaning: "1 if the game ended at max_rounds (end condition round_limit), 0 if a \
                      player reached the coin goal",
    }];

    fn metrics(&self, out: &mut Metrics) {
        for p in 0..self.n() {
            let m = &mut out.seat[p];
            for (i, &x) in self.stats[p].iter().enumerate() {
                m[i] = x as i32;
            }
            m[8] = (0..NUM_COMPANIES).filter(|&c| self.owns(p, c)).count() as i32;
            m[9] = self.share.iter().filter(|&&h| h as Seat == p).count() as i32;
            m[10] = self.coins[p] as i32;
            m[11] = self.owned[p].count_ones() as i32;
        }
        // Rounds and the end condition are games.csv's own `rounds` and `end` columns.
        out.game[0] = i32::from(self.end == END_LIMIT);
    }

    /// `owner`: whether the seat owned a company at some time.
    fn labels(&self, out: &mut Labels) {
        for p in 0..self.n() {
            out.seat[p][0] = if self.owned[p] != 0 { "yes" } else { "no" };
        }
    }
}

impl RunningScore for State {
    /// Running score: the coins held now (the first to reach the target number of coins wins; QAX-4.1).
    const HAS_RUNNING_SCORE: bool = true;
}

/// Chance for the look-ahead's trial applies: nothing in a turn draws chance.
struct NoChance;

impl Chance for NoChance {
    fn below(&mut self, _: u32) -> u32 {
        0
    }
}

/// Whether `rest` attacked pieces can still be placed in canonical order (parts of at most
/// `last_h`, equal parts on cells after `last_cell`) on the `vacant` cells (QAX-11).
fn can_split(rest: u8, last_h: u8, last_cell: u8, vacant: u128) -> bool {
    if rest == 0 {
        return true;
    }
    cells(vacant).any(|c| {
        (1..=rest.min(last_h)).any(|h| {
            !(h == last_h && c <= last_cell) && can_split(rest - h, h, c, vacant & !(1u128 << c))
        })
    })
}

/// What a seat sees: the whole position, except where other players' unplaced fields are
/// (under `field_setup=players`), which shows as unknown.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// The observing seat.
    pub seat: Seat,
    /// The position with the hidden parts masked.
    pub view: State,
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "seat {} sees:", self.seat)?;
        write!(f, "{}", self.view)
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let geo = self.geo();
        let n = self.n();
        writeln!(
            f,
            "round {} ply {} | start player {} | seat {} to act: {} | movements left {}",
            self.round,
            self.ply,
            self.start,
            self.actor,
            super::log::phase_text(self),
            self.left
        )?;
        let (h, w) = (geo.rows + 2, geo.cols + 2);
        write!(f, "   ")?;
        for c in 0..w {
            write!(f, "  {}   ", (b'a' + c as u8) as char)?;
        }
        writeln!(f)?;
        for r in 0..h {
            write!(f, "{:>2} ", r + 1)?;
            for c in 0..w {
                let cell = r * super::board::GRID_W + c;
                let fld = self.field[cell];
                if fld == NONE {
                    write!(f, "  ..  ")?;
                } else {
                    write!(f, " C{}{}", fld / 4 + 1, fld % 4 + 1)?;
                    match self.owner[cell] {
                        NONE => write!(f, "  ")?,
                        o => write!(f, "{}{}", (b'A' + o) as char, self.height[cell])?,
                    }
                }
            }
            writeln!(f)?;
        }
        write!(f, "Index:")?;
        for c in 0..NUM_COMPANIES {
            let r = match self.index[c] {
                0 => "H",
                1 => "N",
                2 => "B",
                _ => "-",
            };
            write!(f, " C{}={r}", c + 1)?;
        }
        writeln!(f, " | bank {}", self.bank)?;
        for p in 0..n {
            write!(
                f,
                "seat {p} ({}): {} coins, shares",
                (b'A' + p as u8) as char,
                self.coins[p]
            )?;
            for s in 0..NUM_FIELDS {
                if self.share[s] as usize == p {
                    write!(f, " C{}{}", s / 4 + 1, s % 4 + 1)?;
                }
            }
            let hand: Vec<String> = (0..NUM_FIELDS)
                .filter(|&x| self.dealt[x] as usize == p && self.at[x] == NONE)
                .map(|x| format!("C{}{}", x / 4 + 1, x % 4 + 1))
                .collect();
            if !hand.is_empty() {
                write!(f, " | hand {}", hand.join(" "))?;
            }
            writeln!(f)?;
        }
        if self.phase == Phase::Over {
            write!(f, "over: {}", self.end_condition())?;
            if self.winner != NONE {
                write!(f, ", seat {} reached the goal", self.winner)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
