//! Goofspiel (Ross 1971), two players: a reference game with simultaneous moves.
//!
//! Rules implemented (OpenSpiel's `goofspiel` for two players):
//! - Each player holds the bid cards `1..=num_cards`; a point deck holds the same values.
//! - A round: the next point card is revealed, both players bid one card of their hand at
//!   once ([`Turn::Simultaneous`]), the higher bid wins the point card's value. **Tied bids:
//!   the point card is discarded** (nobody scores it; OpenSpiel's rule). Bid cards are
//!   spent.
//! - After `num_cards` rounds the game ends; [`Game::scores`] are the won point values, the
//!   higher score ranks first, equal scores share rank 1. [`Game::returns`] is the default
//!   (win 1, loss 0, tie 1/2).
//! - Point-card order (`order`): `random` draws the next point card uniformly from the
//!   remaining deck, lazily, at the start of each round (chance inside apply);
//!   `descending` reveals `num_cards, num_cards - 1, ..., 1` (no chance at all).
//! - `imp_info = false`: both bids are revealed after each round. `imp_info = true`: a
//!   player only learns whether they won, lost or drew each bid (OpenSpiel's
//!   `imp_info`), never the opponent's card. The point cards and both scores are public.
//!
//! Information sets: [`Game::info_key`] digests the seat, the point cards revealed so far,
//! the seat's own bids and, per past round, the opponent's bid (`imp_info = false`) or the
//! outcome win/lose/draw (`imp_info = true`). With `imp_info = false` nothing is hidden
//! between rounds and [`Game::determinize`] returns a copy. With `imp_info = true` it
//! resamples the opponent's past bids (hence hand) among the assignments consistent with
//! every observed outcome: round by round, a uniformly random card among those that keep
//! the rest satisfiable (an exact greedy check, see `feasible`), so the sample is always
//! consistent but not exactly uniform over all consistent assignments.
//!
//! Heuristic (in `[-1, 1]`): (own score - opponent score) / (total point value
//! `num_cards (num_cards + 1) / 2`).

use std::fmt;

use rand::RngExt;

use crate::game::{
    Chance, Game, JointAction, MAX_PLAYERS, PerPlayer, Player, PlayerSet, RulesRef, Turn, nth_bit,
    ranks_by_key,
};
use crate::params::ParamSet;
use crate::rng::{SimRng, mix64};

/// Largest supported `num_cards` (hands are 16-bit masks).
pub const MAX_CARDS: usize = 16;

crate::param_enum! {
    /// The order in which point cards are revealed.
    pub enum PointOrder {
        /// Uniformly random from the remaining deck, drawn at the start of each round.
        Random = "random",
        /// Highest first: num_cards, num_cards - 1, ..., 1.
        Descending = "descending",
    }
}

crate::param_set! {
    /// Goofspiel rule variants (OpenSpiel's parameters of the same names).
    pub struct Params {
        /// Cards per hand and in the point deck, 1..=16 (OpenSpiel default 13).
        pub num_cards: usize = 13,
        /// Imperfect information: players see only win/lose/draw of each bid, not the card.
        pub imp_info: bool = false,
        /// Point-card order: random (chance, default) or descending (deterministic).
        pub order: PointOrder = PointOrder::Random,
    }
    validate = Params::check_for;
}

impl Params {
    fn check_for(&self, owner: &str) -> Result<(), crate::ParamError> {
        self.check().map_err(|e| match e {
            crate::ParamError::Invalid { reason, .. } => crate::ParamError::Invalid {
                owner: owner.to_string(),
                reason,
            },
            other => other,
        })
    }

    /// Checks `num_cards` is in `1..=MAX_CARDS`.
    ///
    /// # Errors
    /// [`crate::ParamError::Invalid`] naming the bad value and the range.
    pub fn check(&self) -> Result<(), crate::ParamError> {
        if (1..=MAX_CARDS).contains(&self.num_cards) {
            Ok(())
        } else {
            Err(crate::ParamError::Invalid {
                owner: "game goofspiel".into(),
                reason: format!("num_cards = {} is outside 1..={MAX_CARDS}", self.num_cards),
            })
        }
    }
}

/// A bid: the value of the bid card, `1..=num_cards`. Written `bid3`; id = value - 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Action(pub u8);

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bid{}", self.0)
    }
}

/// The outcome of one bid from a seat's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Own bid higher.
    Win,
    /// Own bid lower.
    Lose,
    /// Equal bids (point card discarded).
    Draw,
}

impl Outcome {
    fn of(mine: u8, theirs: u8) -> Self {
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Less => Outcome::Lose,
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// `W`, `L` or `D`.
    pub fn letter(self) -> char {
        match self {
            Outcome::Win => 'W',
            Outcome::Lose => 'L',
            Outcome::Draw => 'D',
        }
    }
}

/// A Goofspiel state. Card `c` is bit `c - 1` of a hand or deck mask. Saved with its
/// fields as named here (`order` as typed on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct State {
    rules: RulesRef<State>,
    num_cards: u8,
    imp_info: bool,
    #[serde(with = "crate::position::param_text")]
    order: PointOrder,
    hands: [u16; 2],
    /// Point cards not yet revealed.
    deck: u16,
    /// The point card of the current round; 0 when terminal or not yet revealed.
    point: u8,
    /// Completed rounds.
    rounds: u8,
    /// Point card of each completed round.
    points: [u8; MAX_CARDS],
    /// Bid of each seat in each completed round.
    bids: [[u8; MAX_CARDS]; 2],
    scores: [i32; 2],
}

fn full_mask(n: u8) -> u16 {
    ((1u32 << n) - 1) as u16
}

impl State {
    /// A fresh game whose first point card is not yet revealed (see [`State::reveal_point`]).
    ///
    /// # Errors
    /// [`crate::ParamError::Invalid`] if `num_cards` is outside `1..=MAX_CARDS`.
    pub fn unrevealed(rules: RulesRef<State>) -> Self {
        let params = rules.params();
        let n = params.num_cards as u8;
        State {
            rules,
            num_cards: n,
            imp_info: params.imp_info,
            order: params.order,
            hands: [full_mask(n); 2],
            deck: full_mask(n),
            point: 0,
            rounds: 0,
            points: [0; MAX_CARDS],
            bids: [[0; MAX_CARDS]; 2],
            scores: [0; 2],
        }
    }

    /// Number of cards per hand.
    pub fn num_cards(&self) -> usize {
        usize::from(self.num_cards)
    }

    /// Whether only win/lose/draw of bids is observed.
    pub fn imp_info(&self) -> bool {
        self.imp_info
    }

    /// The point-card order.
    pub fn order(&self) -> PointOrder {
        self.order
    }

    /// The current point card (0 when none is revealed).
    pub fn point(&self) -> u8 {
        self.point
    }

    /// Completed rounds.
    pub fn rounds_played(&self) -> usize {
        usize::from(self.rounds)
    }

    /// Whether the next point card must be revealed ([`State::reveal_point`]) before bidding.
    /// Only the explicit-chance encoding used by the solvers ever sees such a state.
    pub fn needs_point(&self) -> bool {
        self.point == 0 && self.rounds < self.num_cards
    }

    /// The point cards that may be revealed next, in ascending order, with their
    /// probabilities (uniform for `random`, the highest card for `descending`).
    pub fn point_outcomes(&self) -> impl Iterator<Item = (u8, f64)> + '_ {
        let left = self.deck.count_ones() as f64;
        let top = 16 - self.deck.leading_zeros() as u8;
        (1..=self.num_cards)
            .filter(move |&c| self.deck & (1 << (c - 1)) != 0)
            .filter_map(move |c| match self.order {
                PointOrder::Random => Some((c, 1.0 / left)),
                PointOrder::Descending => (c == top).then_some((c, 1.0)),
            })
    }

    /// Reveals point card `card` for the coming round.
    ///
    /// # Panics
    /// If no point card is due or `card` is not in the deck.
    pub fn reveal_point(&mut self, card: u8) {
        assert!(self.needs_point(), "no point card is due");
        assert!(
            card >= 1 && self.deck & (1 << (card - 1)) != 0,
            "point card {card} not in the deck"
        );
        self.deck &= !(1 << (card - 1));
        self.point = card;
    }

    fn draw_point<C: Chance + ?Sized>(&mut self, rng: &mut C) {
        let card = match self.order {
            PointOrder::Descending => 16 - self.deck.leading_zeros() as u8,
            PointOrder::Random => {
                let k = rng.below(self.deck.count_ones());
                nth_card(self.deck, k)
            }
        };
        debug_assert!(self.needs_point() && self.deck & (1 << (card - 1)) != 0);
        self.deck &= !(1 << (card - 1));
        self.point = card;
    }

    /// Resolves a round with `bids` (seat 0's, seat 1's) for the revealed point card; the
    /// next point card is left unrevealed.
    ///
    /// # Panics
    /// In debug builds, if a bid is not in the bidder's hand or no point card is revealed.
    pub fn resolve_bids(&mut self, bids: [u8; 2]) {
        debug_assert!(self.point != 0, "no point card revealed");
        let r = usize::from(self.rounds);
        for (p, &b) in bids.iter().enumerate() {
            debug_assert!(b >= 1 && self.hands[p] & (1 << (b - 1)) != 0);
            self.hands[p] &= !(1 << (b - 1));
            self.bids[p][r] = b;
        }
        match Outcome::of(bids[0], bids[1]) {
            Outcome::Win => self.scores[0] += i32::from(self.point),
            Outcome::Lose => self.scores[1] += i32::from(self.point),
            Outcome::Draw => {}
        }
        self.points[r] = self.point;
        self.point = 0;
        self.rounds += 1;
    }

    /// The outcome of completed round `r` for `player`.
    pub fn outcome(&self, player: Player, r: usize) -> Outcome {
        Outcome::of(self.bids[player][r], self.bids[1 - player][r])
    }

    /// The printable information-set string of `player`, e.g. `p1 pts=3-2 bids=1 opp=3`
    /// (`imp_info = false`) or `p1 pts=3-2 bids=1 res=L` (`imp_info = true`): the point
    /// cards revealed so far including the current one, the seat's own bids, and what it
    /// saw of each completed round.
    pub fn info_set_string(&self, player: Player) -> String {
        let r = usize::from(self.rounds);
        let join = |xs: &[u8]| {
            xs.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("-")
        };
        let mut pts: Vec<u8> = self.points[..r].to_vec();
        if self.point != 0 {
            pts.push(self.point);
        }
        let seen = if self.imp_info {
            let res: String = (0..r).map(|i| self.outcome(player, i).letter()).collect();
            format!("res={res}")
        } else {
            format!("opp={}", join(&self.bids[1 - player][..r]))
        };
        format!(
            "p{player} pts={} bids={} {seen}",
            join(&pts),
            join(&self.bids[player][..r])
        )
    }
}

/// The `k`-th smallest card (0-based) of a mask.
fn nth_card(mask: u16, k: u32) -> u8 {
    nth_bit(u32::from(mask), k) as u8 + 1
}

/// The constraint on the opponent's bid in one round given the observer's bid and outcome.
#[derive(Clone, Copy)]
enum Bound {
    /// Opponent bid `< m` (observer won).
    Below(u8),
    /// Opponent bid `> m` (observer lost).
    Above(u8),
}

impl Bound {
    fn allows(self, card: u8) -> bool {
        match self {
            Bound::Below(m) => card < m,
            Bound::Above(m) => card > m,
        }
    }
}

/// Whether cards `avail` can be matched one-to-one to the `bounds`. Exact for bounds of
/// the two one-sided kinds: the `Below` bounds, sorted ascending, take the smallest cards
/// (each must fit), and the rest, the largest first, must cover the `Above` bounds sorted
/// descending. Taking the smallest cards for `Below` leaves the `Above` bounds the best
/// possible remainder, so this fails only if no matching exists.
fn feasible(avail: u16, bounds: &[Bound]) -> bool {
    let mut below = [0u8; MAX_CARDS + 2];
    let mut above = [0u8; MAX_CARDS + 2];
    for &b in bounds {
        match b {
            Bound::Below(m) => {
                below[usize::from(m)] += 1;
            }
            Bound::Above(m) => above[usize::from(m)] += 1,
        }
    }
    if bounds.len() > avail.count_ones() as usize {
        return false;
    }
    let mut rest = avail;
    for (m, &count) in below.iter().enumerate() {
        for _ in 0..count {
            let c = rest.trailing_zeros() as usize + 1;
            if c >= m {
                return false;
            }
            rest &= rest - 1;
        }
    }
    for (m, &count) in above.iter().enumerate().rev() {
        for _ in 0..count {
            if rest == 0 {
                return false;
            }
            let c = 16 - rest.leading_zeros() as usize;
            if c <= m {
                return false;
            }
            rest &= !(1 << (c - 1));
        }
    }
    true
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "goofspiel num_cards={} imp_info={} order={} round {} point {} scores {}:{}",
            self.num_cards,
            self.imp_info,
            self.order,
            self.rounds,
            self.point,
            self.scores[0],
            self.scores[1]
        )?;
        for r in 0..usize::from(self.rounds) {
            writeln!(
                f,
                "  round {}: point {} bids {} vs {}",
                r + 1,
                self.points[r],
                self.bids[0][r],
                self.bids[1][r]
            )?;
        }
        Ok(())
    }
}

impl Game for State {
    type Action = Action;
    type Params = Params;
    type RulesData = ();
    type Observation = String;
    const NAME: &'static str = "goofspiel";
    const DESCRIPTION: &'static str =
        "Goofspiel (2 players, simultaneous bids; reference game, OpenSpiel rules)";
    const PLAYERS: (usize, usize) = (2, 2);
    const DEFAULT_PLAYERS: usize = 2;
    const NUM_ACTION_IDS: usize = MAX_CARDS;

    fn build_rules(params: &Params, _players: usize) -> Result<(), crate::ParamError> {
        params.check()
    }

    fn new_game<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> Self {
        let mut s = State::unrevealed(rules);
        s.draw_point(chance);
        s
    }

    fn rules(&self) -> RulesRef<State> {
        self.rules
    }

    fn turn(&self) -> Turn {
        if self.rounds >= self.num_cards {
            Turn::Terminal
        } else {
            Turn::Simultaneous(PlayerSet::all(2))
        }
    }

    fn legal_actions(&self, player: Player, out: &mut Vec<Action>) {
        out.clear();
        if self.rounds >= self.num_cards || player > 1 {
            return;
        }
        let mut m = self.hands[player];
        while m != 0 {
            out.push(Action(m.trailing_zeros() as u8 + 1));
            m &= m - 1;
        }
    }

    /// The `k`-th card of the hand for one `random_range(0..cards)` draw, as the default.
    fn random_action(&self, player: Player, _buf: &mut Vec<Action>, rng: &mut SimRng) -> Action {
        let hand = self.hands[player];
        debug_assert!(hand != 0 && self.rounds < self.num_cards);
        Action(nth_card(hand, rng.random_range(0..hand.count_ones())))
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Player, _: Action, _: &mut C) {
        debug_assert!(
            false,
            "Goofspiel has only simultaneous nodes: use apply_joint"
        );
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(
        &mut self,
        joint: &JointAction<Action>,
        rng: &mut C,
    ) {
        let bids = [
            joint[0].expect("seat 0 bids").0,
            joint[1].expect("seat 1 bids").0,
        ];
        self.resolve_bids(bids);
        if self.needs_point() {
            self.draw_point(rng);
        }
    }

    /// Won point values per seat.
    fn scores(&self) -> PerPlayer<i32> {
        [self.scores[0], self.scores[1], 0, 0]
    }

    fn ranks(&self) -> PerPlayer<u8> {
        ranks_by_key(&self.scores(), 2)
    }

    fn info_key(&self, player: Player) -> u64 {
        let mut h = mix64(
            (player as u64)
                | u64::from(self.num_cards) << 2
                | u64::from(self.imp_info) << 8
                | u64::from(self.rounds) << 9
                | u64::from(self.point) << 14,
        );
        for r in 0..usize::from(self.rounds) {
            let seen = if self.imp_info {
                self.outcome(player, r) as u64
            } else {
                u64::from(self.bids[1 - player][r])
            };
            let code =
                u64::from(self.points[r]) | u64::from(self.bids[player][r]) << 5 | seen << 10;
            h = mix64(h ^ code);
        }
        h
    }

    fn determinize(&self, observer: Player, rng: &mut SimRng) -> Self {
        let mut d = *self;
        if !self.imp_info {
            return d;
        }
        let opp = 1 - observer;
        let r = usize::from(self.rounds);
        let mut bounds = [Bound::Below(0); MAX_CARDS];
        let mut avail = full_mask(self.num_cards);
        for (i, bound) in bounds.iter_mut().enumerate().take(r) {
            let m = self.bids[observer][i];
            *bound = match self.outcome(observer, i) {
                Outcome::Win => Bound::Below(m),
                Outcome::Lose => Bound::Above(m),
                Outcome::Draw => {
                    avail &= !(1 << (m - 1));
                    Bound::Below(0)
                }
            };
        }
        let mut open = [Bound::Below(0); MAX_CARDS];
        for i in 0..r {
            let m = self.bids[observer][i];
            if self.outcome(observer, i) == Outcome::Draw {
                d.bids[opp][i] = m;
                continue;
            }
            let mut n_open = 0;
            for (j, &bound) in bounds.iter().enumerate().take(r).skip(i + 1) {
                if self.outcome(observer, j) != Outcome::Draw {
                    open[n_open] = bound;
                    n_open += 1;
                }
            }
            let mut cands = 0u16;
            let mut m2 = avail;
            while m2 != 0 {
                let c = m2.trailing_zeros() as u8 + 1;
                m2 &= m2 - 1;
                if bounds[i].allows(c) {
                    cands |= 1 << (c - 1);
                }
            }
            let chosen = loop {
                debug_assert!(cands != 0, "observations admit no assignment");
                let c = nth_card(cands, rng.random_range(0..cands.count_ones()));
                if feasible(avail & !(1 << (c - 1)), &open[..n_open]) {
                    break c;
                }
                cands &= !(1 << (c - 1));
            };
            d.bids[opp][i] = chosen;
            avail &= !(1 << (chosen - 1));
        }
        let mut played = 0u16;
        for i in 0..r {
            played |= 1 << (d.bids[opp][i] - 1);
        }
        d.hands[opp] = full_mask(self.num_cards) & !played;
        d
    }

    /// Win share estimated from the score lead `d` so far: `1 / (1 + exp(-d / T))` with
    /// `T` one tenth of the total point value `num_cards (num_cards + 1) / 2`.
    fn value(&self) -> PerPlayer<f64> {
        if self.turn().is_terminal() {
            return self.returns();
        }
        let n = f64::from(self.num_cards);
        let t = (n * (n + 1.0) / 20.0).max(0.5);
        let mut projected = [0.0; MAX_PLAYERS];
        projected[0] = f64::from(self.scores[0]);
        projected[1] = f64::from(self.scores[1]);
        crate::game::win_share_from_scores(&projected, 2, t)
    }

    /// The public table and this seat's own hand, bids and what it saw of the others'.
    fn observation(&self, seat: Player) -> String {
        let mut o = self.info_set_string(seat);
        o.push_str(&format!(" score={}-{}", self.scores[0], self.scores[1]));
        o
    }

    fn action_id(action: Action) -> usize {
        usize::from(action.0).wrapping_sub(1)
    }

    fn action_from_id(id: usize) -> Option<Action> {
        (id < MAX_CARDS).then(|| Action(id as u8 + 1))
    }

    fn ply(&self) -> u32 {
        u32::from(self.rounds)
    }

    fn round(&self) -> u32 {
        u32::from(self.rounds) + u32::from(!self.turn().is_terminal())
    }

    fn end_condition(&self) -> &'static str {
        if self.turn().is_terminal() {
            "all_cards_played"
        } else {
            ""
        }
    }

    fn max_plies(&self) -> u32 {
        u32::from(self.num_cards)
    }
}

/// Validates Goofspiel parameters (`num_cards` range) the way `from_settings` callers expect.
///
/// # Errors
/// [`crate::ParamError::Invalid`] naming the bad value.
pub fn params_from_settings<S: AsRef<str>>(settings: &[S]) -> Result<Params, crate::ParamError> {
    let p = Params::from_settings(settings, "game goofspiel")?;
    p.check()?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::test_rng;

    fn params(n: usize, imp: bool, order: PointOrder) -> Params {
        Params {
            num_cards: n,
            imp_info: imp,
            order,
        }
    }

    fn joint(a: u8, b: u8) -> JointAction<Action> {
        [Some(Action(a)), Some(Action(b)), None, None]
    }

    #[test]
    fn rule_higher_bid_wins_and_ties_discard() {
        let mut r = test_rng(1);
        let mut s =
            crate::game::setup::<State>(&params(3, false, PointOrder::Descending), 2, &mut r)
                .unwrap();
        assert_eq!(s.point(), 3);
        s.apply_joint(&joint(1, 2), &mut r).unwrap();
        assert_eq!(s.scores()[..2], [0, 3]);
        assert_eq!(s.point(), 2);
        s.apply_joint(&joint(2, 2), &mut r).unwrap_err();
        s.apply_joint(&joint(3, 3), &mut r).unwrap();
        assert_eq!(s.scores()[..2], [0, 3], "tied bids discard the point card");
        s.apply_joint(&joint(2, 1), &mut r).unwrap();
        assert_eq!(s.scores()[..2], [1, 3]);
        assert!(s.turn().is_terminal());
        assert_eq!(s.ranks()[..2], [2, 1]);
    }

    #[test]
    fn feasibility_is_exact_on_small_cases() {
        // Brute force over all injective assignments of 4 cards to 3 bounds.
        let all = [
            Bound::Below(2),
            Bound::Below(4),
            Bound::Above(1),
            Bound::Above(3),
            Bound::Below(3),
        ];
        for mask in 0u16..16 {
            for i in 0..all.len() {
                for j in 0..all.len() {
                    let bounds = [all[i], all[j]];
                    let mut brute = false;
                    for a in 1..=4u8 {
                        for b in 1..=4u8 {
                            if a != b
                                && mask & (1 << (a - 1)) != 0
                                && mask & (1 << (b - 1)) != 0
                                && bounds[0].allows(a)
                                && bounds[1].allows(b)
                            {
                                brute = true;
                            }
                        }
                    }
                    assert_eq!(feasible(mask, &bounds), brute, "mask {mask:b} {i} {j}");
                }
            }
        }
    }

    #[test]
    fn imp_info_hides_the_opponent_bid() {
        let mut r = test_rng(2);
        let mut a =
            crate::game::setup::<State>(&params(5, true, PointOrder::Descending), 2, &mut r)
                .unwrap();
        let mut b = a;
        a.apply_joint(&joint(5, 1), &mut r).unwrap();
        b.apply_joint(&joint(5, 2), &mut r).unwrap();
        assert_eq!(a.info_key(0), b.info_key(0));
        assert_ne!(a.info_key(1), b.info_key(1));
        assert_eq!(a.info_set_string(0), "p0 pts=5-4 bids=5 res=W");
    }

    fn invariants(s: &State) -> Result<(), String> {
        let n = s.num_cards as u32;
        let r = s.rounds as u32;
        for p in 0..2 {
            if s.hands[p].count_ones() != n - r {
                return Err(format!(
                    "seat {p} holds {} cards after {r} rounds",
                    s.hands[p].count_ones()
                ));
            }
            let mut played = 0u16;
            for i in 0..r as usize {
                played |= 1 << (s.bids[p][i] - 1);
            }
            if played & s.hands[p] != 0 || (played | s.hands[p]) != full_mask(s.num_cards) {
                return Err(format!(
                    "seat {p}: played and held cards do not partition the hand"
                ));
            }
        }
        let mut revealed: u16 = 0;
        let mut won = 0;
        for i in 0..r as usize {
            revealed |= 1 << (s.points[i] - 1);
            if s.bids[0][i] != s.bids[1][i] {
                won += i32::from(s.points[i]);
            }
        }
        if s.point != 0 {
            revealed |= 1 << (s.point - 1);
        }
        if revealed & s.deck != 0 || (revealed | s.deck) != full_mask(s.num_cards) {
            return Err("point cards are not conserved".into());
        }
        if s.scores[0] + s.scores[1] != won {
            return Err(format!("scores {:?} but {won} points were won", s.scores));
        }
        Ok(())
    }

    fn conformance(n: usize, imp: bool, order: PointOrder, games: usize) -> crate::testing::Report {
        let hidden = |s: &State, p: Player| {
            let o = 1 - p;
            s.bids[o][..s.rounds as usize]
                .iter()
                .fold(u64::from(s.hands[o]), |h, &b| mix64(h ^ u64::from(b)))
        };
        crate::testing::check_random_games(&crate::testing::Conformance::<State> {
            params: params(n, imp, order),
            players: 2,
            games,
            seed: 11 + n as u64,
            invariants: &invariants,
            hidden: if imp { Some(&hidden) } else { None },
            resamples: 4,
            determinize_every: 1,
        })
        .unwrap_or_else(|e| panic!("n={n} imp={imp} order={order}: {e}"))
    }

    #[test]
    fn conformance_small_sizes() {
        for n in 1..=5 {
            for imp in [false, true] {
                for order in [PointOrder::Random, PointOrder::Descending] {
                    let rep = conformance(n, imp, order, 1000);
                    assert_eq!(rep.max_plies_seen, n as u32);
                    assert_eq!(rep.simultaneous_nodes, 1000 * n);
                    if imp && n >= 3 {
                        assert!(rep.hidden_changes > 100, "n={n}: {rep:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn conformance_full_size() {
        let rep = conformance(13, true, PointOrder::Random, 200);
        assert!(rep.hidden_changes > 1000, "{rep:?}");
        conformance(13, false, PointOrder::Random, 200);
    }

    /// Every determinization matches the observer's outcomes exactly, and across many
    /// samples the opponent's bids vary.
    #[test]
    fn determinize_respects_outcomes() {
        let mut r = test_rng(5);
        let p = params(8, true, PointOrder::Random);
        let mut buf = Vec::new();
        for _ in 0..200 {
            let mut s = crate::game::setup::<State>(&p, 2, &mut r).unwrap();
            let stop = r.random_range(0..8);
            for _ in 0..stop {
                crate::game::play_ply(&mut s, &mut r, |s, p, r| {
                    s.legal_actions(p, &mut buf);
                    buf[r.random_range(0..buf.len())]
                });
            }
            for obs in 0..2 {
                let d = s.determinize(obs, &mut r);
                for i in 0..s.rounds_played() {
                    assert_eq!(d.outcome(obs, i), s.outcome(obs, i));
                    assert_eq!(d.bids[obs][i], s.bids[obs][i]);
                }
                assert_eq!(d.scores, s.scores);
                invariants(&d).unwrap();
            }
        }
    }
}
