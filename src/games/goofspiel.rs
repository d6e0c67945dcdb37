//! Goofspiel (Ross 1971) for 2 to 4 players: a reference game with simultaneous moves.
//!
//! Rules implemented (OpenSpiel's `goofspiel`, `players` = 2..=4, `num_turns` = `num_cards`):
//! - Each player holds the bid cards `1..=num_cards`; a point deck holds the same values.
//! - A round: the next point card is revealed, every player bids one card of their hand at
//!   once ([`Turn::Simultaneous`]), and **the single highest bid wins** the point card's
//!   value. **If the highest bid is tied** (by two or more players, whatever the lower bids
//!   are), **the point card is discarded**: nobody scores it (OpenSpiel's
//!   `DoApplyActions`: "Tied among several players: discarded"). Bid cards are spent.
//! - After `num_cards` rounds the game ends; [`GameState::scores`] are the won point values,
//!   ranked by score, equal scores sharing a rank.
//! - Point-card order (`order`): `random` draws the next point card uniformly from the
//!   remaining deck, lazily, at the start of each round (chance inside apply: one
//!   `below(cards left)` pick, the `k`-th smallest remaining card); `descending` reveals
//!   `num_cards, num_cards - 1, ..., 1` (no chance at all).
//! - `imp_info = false`: all bids are revealed after each round. `imp_info = true`: a
//!   player learns only its own bid and who won each round, or that nobody did
//!   (OpenSpiel's win sequence), never another player's card. The point cards and all
//!   scores are public.
//!
//! ## Parameters
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `num_cards` | `13` | cards per hand and in the point deck, 1..=16 |
//! | `imp_info` | `false` | only the winner of each round is seen, not the bids |
//! | `order` | `random` | point-card order: `random` or `descending` |
//! | `returns` | `win_share` | what search maximises (not a rule): `win_share`, `rank` or `margin` (2 players) |
//!
//! ## Returns, and OpenSpiel's `returns_type`
//!
//! [`GameState::returns`] follow the `returns` parameter ([`Utility`]):
//! - `win_share` (default): the seats with the highest score share 1, the others get 0.
//!   OpenSpiel's `win_loss` gives the winners `1 / winners` and the losers
//!   `-1 / losers` (all 0 when everybody ties); at 2 players it is `2 * win_share - 1`.
//! - `rank`: normalised rank, `(n - position) / (n - 1)`, ties averaged.
//! - `margin` (2 players only): own score minus the other's, in points. OpenSpiel's
//!   `point_difference` is own score minus the **mean** of all scores, which at 2 players
//!   is **half** the margin: `margin = 2 * point_difference`. The exact OpenSpiel
//!   `point_difference` is the `points` utility of the solver adapter
//!   ([`crate::analysis::efg::GoofspielUtility::PointDifference`]).
//!
//! The value estimate ([`GameState::value`]) is in the units of `returns`: from the win shares
//! of a softmax over the scores so far with a temperature of one tenth of the total point
//! value `num_cards (num_cards + 1) / 2` (at 2 players the logistic of the score lead), and
//! for `margin` the score lead itself (the points still to come are split evenly in
//! expectation by symmetry).
//!
//! ## Information and determinization
//!
//! [`GameState::info_key`] digests the seat, the point cards revealed so far, the seat's own
//! bids and, per past round, every other seat's bid (`imp_info = false`) or the winner
//! (`imp_info = true`, relative to the seat). With `imp_info = false` nothing is hidden
//! between rounds and [`GameState::determinize`] returns a copy. With `imp_info = true` it
//! resamples the other seats' past bids (hence hands) among the assignments consistent
//! with every observed winner: round by round and seat by seat, a uniformly random card
//! among those that (a) let the round end with the observed winner (`completable`, exact)
//! and (b) leave that seat's remaining rounds satisfiable (`feasible`, an exact matching
//! check of per-seat bounds). At 2 players (a) and (b) are exact, so the walk goes through
//! the rounds in order and never backtracks (it draws exactly what the 2-player sampler
//! before the N-player rules drew). At 3–4 players the seats constrain each other (a
//! round won by one seat bounds every other bid by the winner's; a discarded round needs
//! two seats to tie at the top), so (b) is only necessary: the walk assigns the most
//! constrained rounds first (discarded rounds, then rounds won by others, then the
//! observer's), the winner of a round before the others, and backtracks from dead ends;
//! since dead ends have a heavy tail it restarts after 500 steps, doubling the budget on
//! each of 8 attempts. If all fail it keeps the true bids (consistent, but the true
//! world): measured on 800,000 samples of 13-card 4-player games, about 2 in 100,000,
//! all at finished games, which agents never determinize. The sample is always
//! consistent but not exactly uniform over the consistent assignments (on small positions
//! the rarest consistent world came about 10 times less often than the mean); every
//! consistent world is reachable (`determinize_reaches_every_consistent_world`). Cost
//! (13 cards, test profile, informal): about 2 µs at 2 players, 4 µs at 3, 6 µs at 4.
//!
//! This constraint (bids bounded by outcomes) is not a card-location problem, so
//! Goofspiel does not use [`crate::knowledge`]: see its module docs.
//!
//! ## Information state and observation tensor
//!
//! The information state ([`GameState::information_state_string`] = [`State::info_set_string`])
//! follows OpenSpiel's in spirit: the seat, the point cards revealed so far in order
//! (the current one last), the seat's own bids in order, and per completed round either
//! every other seat's bid (`imp_info = false`, `opp=` at 2 players, `p2=` per seat at
//! 3–4) or what the seat saw of the round (`imp_info = true`, OpenSpiel's win sequence:
//! `W` it won, `D` discarded, `L` the other seat won at 2 players, the winner's seat number
//! at 3–4), e.g. `p1 pts=3-2 bids=1 opp=3` or `p1 pts=3-2 bids=1 res=L`. Everything the
//! seat has observed (its hand, the scores, the winners) follows from these sequences, and
//! every earlier state of the game is a prefix of them, so it is perfect recall.
//! [`GameState::info_key`] digests exactly these facts (the winner relative to the seat).
//!
//! The observation tensor has `K = num_cards` and `n` players; "seat-relative" lists the
//! observer first, then the seats after it in seat order. Its layout:
//!
//! | field | length | encoding |
//! |---|---|---|
//! | `player` | `n` | one-hot of the observing seat |
//! | `current_point` | `K` | one-hot of the point card being bid for (value `v` at index `v - 1`); zeros once the game is over |
//! | `remaining_points` | `K` | 1 for each point card not yet revealed |
//! | `scores` | `n` | points won so far, seat-relative, / `K (K + 1) / 2` (all points) |
//! | `rounds` | 1 | completed rounds / `K` |
//! | `hand` | `K` | 1 for each bid card the seat still holds |
//! | `other_hands` | `(n - 1) K` | `imp_info = false` only: the other seats' hands, seat-relative |
//! | `point_sequence` | `K` | per completed round in order, its point card / `K`; 0 for rounds to come |
//! | `bid_sequence` | `K` (`imp_info`) or `n K` | per completed round in order, the bid / `K` of the seat (`imp_info`) or of every seat, seat-relative (seat-major: `K` rounds of the observer, then of the next seat...); 0 for rounds to come |
//! | `win_sequence` | `n K` | per completed round in order, one-hot of the winner, seat-relative (`n` values per round); zeros for a discarded round or a round to come |
//!
//! Lengths at the default `K = 13`: 2 players 122 (`imp_info`: 96), 3 players 163 (111),
//! 4 players 204 (126).

use crate::game::{ChanceMode, Dynamics, GameType, Information, Rules, TensorField, UtilityKind};
use std::fmt;

use rand::RngExt;

use crate::game::{
    Chance, GameState, JointAction, MAX_PLAYERS, Measured, PerSeat, RulesRef, RunningScore, Seat,
    SeatSet, Turn, Utility, nth_bit16, popcount16, ranks_by_key,
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
    /// Goofspiel rule variants (OpenSpiel's parameters of the same names, and `returns`).
    pub struct Params {
        /// Cards per hand and in the point deck, 1..=16 (OpenSpiel default 13).
        pub num_cards: usize = 13,
        /// Imperfect information: players see only who won each round, not the bids.
        pub imp_info: bool = false,
        /// Point-card order: random (chance, default) or descending (deterministic).
        pub order: PointOrder = PointOrder::Random,
        /// What search agents maximise: win_share, rank or margin (own minus other score, 2 players; twice OpenSpiel's point_difference); not a rule, records are unaffected.
        pub returns: Utility = Utility::WinShare,
        /// End-of-game bonus per seat in points, added before ranking: seat 0 first, `/`-separated (`0/0.5`), 0 for seats not given (GOOF-1.7; a compensation knob for `sim balance`, not in the rulebook).
        pub komi: crate::game::Komi = crate::game::Komi::NONE,
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

/// A Goofspiel state. Card `c` is bit `c - 1` of a hand or deck mask; seats at
/// `players..MAX_PLAYERS` hold nothing. Saved with its fields as named here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct State {
    rules: RulesRef<State>,
    hands: [u16; MAX_PLAYERS],
    /// Point cards not yet revealed.
    deck: u16,
    /// The point card of the current round; 0 when terminal.
    point: u8,
    /// Completed rounds.
    rounds: u8,
    /// Point card of each completed round.
    points: [u8; MAX_CARDS],
    /// Bid of each seat in each completed round (the winners follow from them, so a
    /// determinization that changed an outcome would change the info key).
    bids: [[u8; MAX_CARDS]; MAX_PLAYERS],
    scores: PerSeat<i32>,
}

fn full_mask(n: usize) -> u16 {
    ((1u32 << n) - 1) as u16
}

fn bit(card: u8) -> u16 {
    1 << (card - 1)
}

/// The lowest card of a non-empty mask.
fn lowest(mask: u16) -> u8 {
    mask.trailing_zeros() as u8 + 1
}

/// The highest card of a non-empty mask.
fn highest(mask: u16) -> u8 {
    16 - mask.leading_zeros() as u8
}

/// The `k`-th smallest card (0-based) of a mask.
fn nth_card(mask: u16, k: u32) -> u8 {
    nth_bit16(mask, k) as u8 + 1
}

/// The seat with the single highest bid, or `None` when the highest bid is tied.
fn round_winner(bids: &[u8]) -> Option<Seat> {
    let top = *bids.iter().max()?;
    let mut at_top = bids.iter().enumerate().filter(|(_, b)| **b == top);
    let (w, _) = at_top.next()?;
    at_top.next().is_none().then_some(w)
}

impl State {
    fn n(&self) -> usize {
        self.rules.players()
    }

    /// Number of cards per hand.
    pub fn num_cards(&self) -> usize {
        self.rules.params().num_cards
    }

    /// Whether only the winners of rounds are observed.
    pub fn imp_info(&self) -> bool {
        self.rules.params().imp_info
    }

    /// The point-card order.
    pub fn order(&self) -> PointOrder {
        self.rules.params().order
    }

    /// The current point card (0 when terminal).
    pub fn point(&self) -> u8 {
        self.point
    }

    /// Completed rounds.
    pub fn rounds_played(&self) -> usize {
        usize::from(self.rounds)
    }

    /// The point card of completed round `r`.
    pub fn point_card(&self, r: usize) -> u8 {
        self.points[r]
    }

    /// `seat`'s bid in completed round `r`.
    pub fn bid(&self, seat: Seat, r: usize) -> u8 {
        self.bids[seat][r]
    }

    /// `seat`'s hand as a mask (card `c` is bit `c - 1`).
    pub fn hand(&self, seat: Seat) -> u16 {
        self.hands[seat]
    }

    /// The winner of completed round `r`, or `None` if its point card was discarded.
    pub fn winner(&self, r: usize) -> Option<Seat> {
        let mut bids = [0; MAX_PLAYERS];
        for (b, row) in bids.iter_mut().zip(&self.bids) {
            *b = row[r];
        }
        round_winner(&bids[..self.n()])
    }

    fn draw_point<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        let card = match self.order() {
            PointOrder::Descending => highest(self.deck),
            PointOrder::Random => nth_card(self.deck, chance.below(popcount16(self.deck))),
        };
        debug_assert!(self.deck & bit(card) != 0);
        self.deck &= !bit(card);
        self.point = card;
    }

    /// Resolves the round with `bids` (seats `0..players`); the next point card is drawn
    /// by the caller.
    #[inline]
    fn resolve(&mut self, bids: &[u8; MAX_PLAYERS], n: usize) {
        debug_assert!(self.point != 0, "no point card revealed");
        let r = usize::from(self.rounds);
        for (p, &b) in bids[..n].iter().enumerate() {
            debug_assert!(b >= 1 && self.hands[p] & bit(b) != 0);
            self.hands[p] &= !bit(b);
            self.bids[p][r] = b;
        }
        // Two players (the search benchmark's case) compare directly.
        let winner = if n == 2 {
            match bids[0].cmp(&bids[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            }
        } else {
            round_winner(&bids[..n])
        };
        if let Some(w) = winner {
            self.scores[w] += i32::from(self.point);
        }
        self.points[r] = self.point;
        self.point = 0;
        self.rounds += 1;
    }

    /// What `player` saw of round `r` as a letter: `W` (it won), `D` (discarded), and
    /// when another seat won, `L` at 2 players or that seat's number at 3–4.
    fn result_letter(&self, player: Seat, r: usize) -> char {
        match self.winner(r) {
            Some(w) if w == player => 'W',
            None => 'D',
            Some(_) if self.n() == 2 => 'L',
            Some(w) => char::from(b'0' + w as u8),
        }
    }

    /// The printable information-set string of `player`, e.g. `p1 pts=3-2 bids=1 opp=3`
    /// (`imp_info = false`) or `p1 pts=3-2 bids=1 res=L` (`imp_info = true`): the point
    /// cards revealed so far including the current one, the seat's own bids, and what it
    /// saw of each completed round (see `result_letter`). At 3–4 players the other seats'
    /// bids are listed per seat (`p0=3 p2=1`).
    pub fn info_set_string(&self, player: Seat) -> String {
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
        let seen = if self.imp_info() {
            let res: String = (0..r).map(|i| self.result_letter(player, i)).collect();
            format!("res={res}")
        } else if self.n() == 2 {
            format!("opp={}", join(&self.bids[1 - player][..r]))
        } else {
            (0..self.n())
                .filter(|&q| q != player)
                .map(|q| format!("p{q}={}", join(&self.bids[q][..r])))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "p{player} pts={} bids={} {seen}",
            join(&pts),
            join(&self.bids[player][..r])
        )
    }
}

/// What one seat sees ([`GameState::observation`]): the public table (point cards, winners,
/// scores), its own hand and bids, and the other seats' bids when `imp_info = false`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The observing seat.
    pub seat: Seat,
    /// Completed rounds.
    pub rounds: usize,
    /// The current point card (0 when terminal).
    pub point: u8,
    /// The point card of each completed round (0 past `rounds`).
    pub point_cards: [u8; MAX_CARDS],
    /// The seat's own hand as a mask (card `c` is bit `c - 1`).
    pub hand: u16,
    /// Bids per seat and round as seen by this seat: its own always, the others' only with
    /// `imp_info = false` (0 = not seen).
    pub bids: [[u8; MAX_CARDS]; MAX_PLAYERS],
    /// The winner of each completed round (`None`: discarded, or past `rounds`).
    pub winners: [Option<Seat>; MAX_CARDS],
    /// Every seat's score (public).
    pub scores: PerSeat<i32>,
}

/// `2 7 13`: the cards of a mask (card `c` is bit `c - 1`), in increasing order.
pub(super) fn cards_text(mask: u16) -> String {
    (1..=16u8)
        .filter(|&c| mask & bit(c) != 0)
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cards = cards_text;
        write!(
            f,
            "seat {} after {} rounds: point {}, hand [{}], scores {:?}",
            self.seat,
            self.rounds,
            self.point,
            cards(self.hand),
            self.scores
        )?;
        for r in 0..self.rounds {
            let bids: Vec<String> = self
                .bids
                .iter()
                .map(|b| match b[r] {
                    0 => "?".to_string(),
                    x => x.to_string(),
                })
                .collect();
            let won = self.winners[r].map_or("nobody".to_string(), |w| format!("seat {w}"));
            write!(
                f,
                "; round {}: point {} bids {} won by {won}",
                r + 1,
                self.point_cards[r],
                bids.join("/")
            )?;
        }
        Ok(())
    }
}

/// The constraint on one seat's bid in one round, for the feasibility check.
#[derive(Clone, Copy, Debug)]
enum Bound {
    /// Bid `< m`.
    Below(u8),
    /// Bid `> m`.
    Above(u8),
    /// Any card.
    Free,
}

impl Bound {
    #[cfg(test)]
    fn allows(self, card: u8) -> bool {
        match self {
            Bound::Below(m) => card < m,
            Bound::Above(m) => card > m,
            Bound::Free => true,
        }
    }
}

/// Whether cards `avail` can be matched one-to-one to the `bounds`. Exact: the `Below`
/// bounds, sorted ascending, take the smallest cards (each must fit), and the largest of
/// the rest, the largest first, must cover the `Above` bounds sorted descending; `Free`
/// bounds take whatever is left. Taking the smallest cards for `Below` leaves the `Above`
/// bounds the best possible remainder, so this fails only if no matching exists.
fn feasible(avail: u16, bounds: &[Bound]) -> bool {
    let mut below = [0u8; MAX_CARDS + 2];
    let mut above = [0u8; MAX_CARDS + 2];
    for &b in bounds {
        match b {
            Bound::Below(m) => below[usize::from(m)] += 1,
            Bound::Above(m) => above[usize::from(m)] += 1,
            Bound::Free => {}
        }
    }
    if bounds.len() > avail.count_ones() as usize {
        return false;
    }
    let mut rest = avail;
    for (m, &count) in below.iter().enumerate() {
        for _ in 0..count {
            if rest == 0 || usize::from(lowest(rest)) >= m {
                return false;
            }
            rest &= rest - 1;
        }
    }
    for (m, &count) in above.iter().enumerate().rev() {
        for _ in 0..count {
            if rest == 0 || usize::from(highest(rest)) <= m {
                return false;
            }
            rest &= !bit(highest(rest));
        }
    }
    true
}

/// Whether one round's bids can be completed so that its winner is `win` (`None`: the top
/// bid tied), ignoring the other rounds: `fixed` holds the bids known so far (at least the
/// observer's), `open` the card masks of the seats still to bid. Exact.
fn completable(win: Option<Seat>, fixed: &[(Seat, u8)], open: &[(Seat, u16)]) -> bool {
    if open.iter().any(|o| o.1 == 0) {
        return false;
    }
    let top = fixed.iter().map(|f| f.1).max().unwrap_or(0);
    let at_top = fixed.iter().filter(|f| f.1 == top).count();
    match win {
        Some(w) => match fixed.iter().find(|f| f.0 == w) {
            Some(&(_, b)) => b == top && at_top == 1 && open.iter().all(|o| lowest(o.1) < b),
            None => {
                // The winner bids its highest card; everyone else must go below it.
                let Some(&(_, mask)) = open.iter().find(|o| o.0 == w) else {
                    return false;
                };
                let c = highest(mask);
                c > top && open.iter().all(|o| o.0 == w || lowest(o.1) < c)
            }
        },
        None => {
            // The top bid is shared: at `top` (the seats that can bid it do) ...
            let can_top = if top == 0 {
                0
            } else {
                open.iter().filter(|o| o.1 & bit(top) != 0).count()
            };
            if top > 0 && at_top + can_top >= 2 && open.iter().all(|o| lowest(o.1) <= top) {
                return true;
            }
            // ... or at a higher card that two open seats can bid.
            (top + 1..=MAX_CARDS as u8).any(|t| {
                open.iter().filter(|o| o.1 & bit(t) != 0).count() >= 2
                    && open.iter().all(|o| lowest(o.1) <= t)
            })
        }
    }
}

/// Backtracking steps allowed in the first attempt of the N-player sampler (each restart
/// doubles it), and attempts: dead ends have a heavy tail, which restarts cut short.
const SAMPLER_BUDGET: u32 = 500;
const SAMPLER_ATTEMPTS: u32 = 8;

/// The backtracking walk of [`GameState::determinize`] (see the module docs).
struct Sampler<'a> {
    s: &'a State,
    obs: Seat,
    /// The other seats, ascending.
    others: [Seat; MAX_PLAYERS],
    k: usize,
    /// The observed winner of each completed round.
    win: [Option<Seat>; MAX_CARDS],
    /// The order in which rounds are assigned: chronological at 2 players; at 3–4 the
    /// most constrained first (discarded rounds, then rounds won by others, then the
    /// observer's), so that dead ends show early.
    order: [u8; MAX_CARDS],
    /// Cards each seat has not been given in the rounds assigned so far.
    avail: [u16; MAX_PLAYERS],
    /// Cards a seat must bid in a later round (2 players: a discarded round means the
    /// other seat tied the observer's bid).
    reserved: [u16; MAX_PLAYERS],
    bids: [[u8; MAX_CARDS]; MAX_PLAYERS],
    steps: u32,
    budget: u32,
}

/// The sampler ran out of steps.
struct Exhausted;

impl Sampler<'_> {
    /// At 2 players a discarded round forces the other seat's bid.
    fn forced(&self, r: usize) -> Option<u8> {
        (self.k == 1 && self.win[r].is_none()).then(|| self.s.bids[self.obs][r])
    }

    /// The other seats in the order they are assigned in round `r`: its winner first.
    fn seats(&self, r: usize) -> [Seat; MAX_PLAYERS] {
        let mut out = self.others;
        if let Some(w) = self.win[r].filter(|&w| w != self.obs) {
            let at = out[..self.k].iter().position(|&q| q == w).unwrap_or(0);
            out[..=at].rotate_right(1);
        }
        out
    }

    /// Whether seat `q`, holding `rest`, can still meet the per-seat consequences of the
    /// rounds assigned after position `pos` (necessary; exact at 2 players).
    fn future_ok(&self, q: Seat, pos: usize, rest: u16) -> bool {
        let mut bounds = [Bound::Free; MAX_CARDS];
        let mut len = 0;
        for &j in &self.order[pos + 1..self.s.rounds_played()] {
            let j = usize::from(j);
            if self.forced(j).is_some() {
                continue;
            }
            let m = self.s.bids[self.obs][j];
            bounds[len] = match self.win[j] {
                Some(w) if w == self.obs => Bound::Below(m),
                Some(w) if w == q => {
                    // Above the observer's bid and above the lowest card each other seat
                    // may still bid.
                    let floor = self.others[..self.k]
                        .iter()
                        .filter(|&&o| o != q && self.avail[o] != 0)
                        .map(|&o| lowest(self.avail[o]))
                        .fold(m, u8::max);
                    Bound::Above(floor)
                }
                // Below the winner's bid, which is at most its highest card left.
                Some(w) if self.avail[w] != 0 => Bound::Below(highest(self.avail[w])),
                _ => Bound::Free,
            };
            len += 1;
        }
        feasible(rest & !self.reserved[q], &bounds[..len])
    }

    /// The cards seat `seats[i]` may bid in round `r` given the bids already chosen for
    /// the seats before it: in hand, not reserved, and the round can still end as observed.
    fn candidates(&self, r: usize, seats: &[Seat; MAX_PLAYERS], i: usize) -> u16 {
        let q = seats[i];
        let win = self.win[r];
        let mut fixed = [(0, 0u8); MAX_PLAYERS];
        fixed[0] = (self.obs, self.s.bids[self.obs][r]);
        for (f, &o) in fixed[1..].iter_mut().zip(&seats[..i]) {
            *f = (o, self.bids[o][r]);
        }
        let mut open = [(0, 0u16); MAX_PLAYERS];
        let n_open = self.k - i - 1;
        for (slot, &o) in open.iter_mut().zip(&seats[i + 1..self.k]) {
            *slot = (o, self.avail[o] & !self.reserved[o]);
        }
        let mut out = 0;
        let mut m = self.avail[q] & !self.reserved[q];
        while m != 0 {
            let c = lowest(m);
            m &= m - 1;
            fixed[i + 1] = (q, c);
            if completable(win, &fixed[..i + 2], &open[..n_open]) {
                out |= bit(c);
            }
        }
        out
    }

    fn take(&mut self, q: Seat, r: usize, c: u8) {
        self.avail[q] &= !bit(c);
        self.reserved[q] &= !bit(c);
        self.bids[q][r] = c;
    }

    /// Assigns the round at position `pos` of the order, seat `i` of its [`Self::seats`],
    /// then everything after it; false if no assignment exists below this point.
    fn fill<C: Chance + ?Sized>(
        &mut self,
        pos: usize,
        i: usize,
        chance: &mut C,
    ) -> Result<bool, Exhausted> {
        if pos == self.s.rounds_played() {
            return Ok(true);
        }
        let (next_pos, next_i) = if i + 1 == self.k {
            (pos + 1, 0)
        } else {
            (pos, i + 1)
        };
        let r = usize::from(self.order[pos]);
        let seats = self.seats(r);
        let q = seats[i];
        if let Some(m) = self.forced(r) {
            debug_assert!(self.avail[q] & bit(m) != 0);
            let reserved = self.reserved[q];
            self.take(q, r, m);
            if self.fill(next_pos, next_i, chance)? {
                return Ok(true);
            }
            self.avail[q] |= bit(m);
            self.reserved[q] = reserved;
            return Ok(false);
        }
        let mut cands = self.candidates(r, &seats, i);
        while cands != 0 {
            self.steps += 1;
            if self.steps > self.budget {
                return Err(Exhausted);
            }
            let c = nth_card(cands, chance.below(cands.count_ones()));
            cands &= !bit(c);
            if !self.future_ok(q, pos, self.avail[q] & !bit(c)) {
                continue;
            }
            self.take(q, r, c);
            if self.fill(next_pos, next_i, chance)? {
                return Ok(true);
            }
            self.avail[q] |= bit(c);
        }
        Ok(false)
    }
}

impl State {
    /// Resamples the other seats' past bids for `observer` (see the module docs); `None`
    /// if the walk gave up after its attempts.
    fn sample_bids<C: Chance + ?Sized>(&self, observer: Seat, chance: &mut C) -> Option<Self> {
        let n = self.n();
        let rounds = self.rounds_played();
        let full = full_mask(self.num_cards());
        let mut others = [0; MAX_PLAYERS];
        let mut k = 0;
        for q in (0..n).filter(|&q| q != observer) {
            others[k] = q;
            k += 1;
        }
        let mut win = [None; MAX_CARDS];
        for (r, w) in win.iter_mut().enumerate().take(rounds) {
            *w = self.winner(r);
        }
        let mut order = [0u8; MAX_CARDS];
        for (r, o) in order.iter_mut().enumerate() {
            *o = r as u8;
        }
        if k > 1 {
            // Most constrained first: a discarded round needs a tie at the top (the higher
            // the observer's bid, the fewer cards can tie), a round won by another seat
            // needs a card above the observer's, a round the observer won needs every
            // other bid below the observer's (the lower, the tighter).
            order[..rounds].sort_by_key(|&r| {
                let m = i32::from(self.bids[observer][usize::from(r)]);
                match win[usize::from(r)] {
                    None => (0, -m),
                    Some(w) if w != observer => (1, -m),
                    Some(_) => (2, m),
                }
            });
        }
        for attempt in 0..SAMPLER_ATTEMPTS {
            let mut sampler = Sampler {
                s: self,
                obs: observer,
                others,
                k,
                win,
                order,
                avail: [full; MAX_PLAYERS],
                reserved: [0; MAX_PLAYERS],
                bids: self.bids,
                steps: 0,
                budget: SAMPLER_BUDGET << attempt,
            };
            for r in 0..rounds {
                if let Some(m) = sampler.forced(r) {
                    sampler.reserved[others[0]] |= bit(m);
                }
            }
            if let Ok(true) = sampler.fill(0, 0, chance) {
                let mut d = *self;
                for &q in &others[..k] {
                    d.bids[q] = sampler.bids[q];
                    d.hands[q] = sampler.avail[q];
                }
                return Some(d);
            }
        }
        None
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n();
        let scores: Vec<String> = self.scores[..n].iter().map(|s| s.to_string()).collect();
        writeln!(
            f,
            "goofspiel players={n} num_cards={} imp_info={} order={} round {} point {} scores {}",
            self.num_cards(),
            self.imp_info(),
            self.order(),
            self.rounds,
            self.point,
            scores.join(":")
        )?;
        for r in 0..usize::from(self.rounds) {
            let bids: Vec<String> = (0..n).map(|p| self.bids[p][r].to_string()).collect();
            writeln!(
                f,
                "  round {}: point {} bids {}",
                r + 1,
                self.points[r],
                bids.join(" vs ")
            )?;
        }
        Ok(())
    }
}

impl GameState for State {
    type Action = Action;
    type Params = Params;
    type RulesData = ();
    type Observation = Observation;

    const TYPE: GameType = GameType {
        short_name: "goofspiel",
        long_name: "Goofspiel",
        description: "Goofspiel (2-4 players, simultaneous bids; reference game, OpenSpiel rules)",
        min_players: 2,
        max_players: MAX_PLAYERS,
        default_players: 2,
        dynamics: Dynamics::Simultaneous,
        chance_mode: ChanceMode::SampledStochastic,
        information: Information::Perfect,
        utility: UtilityKind::ConstantSum,
        num_action_ids: MAX_CARDS,
        perfect_recall: true,
    };

    /// `returns=margin` exists only at 2 players.
    fn build_rules(params: &Params, players: usize) -> Result<(), crate::ParamError> {
        params.check()?;
        params.returns.check("returns", players, "game goofspiel")
    }

    fn new_game<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> Self {
        let cards = rules.params().num_cards;
        let mut hands = [0; MAX_PLAYERS];
        hands[..rules.players()].fill(full_mask(cards));
        let mut s = State {
            rules,
            hands,
            deck: full_mask(cards),
            point: 0,
            rounds: 0,
            points: [0; MAX_CARDS],
            bids: [[0; MAX_CARDS]; MAX_PLAYERS],
            scores: [0; MAX_PLAYERS],
        };
        s.draw_point(chance);
        s
    }

    fn rules(&self) -> RulesRef<State> {
        self.rules
    }

    fn turn(&self) -> Turn {
        if self.point == 0 {
            Turn::Terminal
        } else {
            Turn::Simultaneous(SeatSet::all(self.n()))
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.point == 0 || player >= self.n() {
            return;
        }
        let mut m = self.hands[player];
        while m != 0 {
            out.push(Action(lowest(m)));
            m &= m - 1;
        }
    }

    /// The `k`-th card of the hand for one `random_range(0..cards)` draw, as the default.
    fn random_action(&self, player: Seat, _buf: &mut Vec<Action>, rng: &mut SimRng) -> Action {
        let hand = self.hands[player];
        debug_assert!(hand != 0 && self.point != 0);
        Action(nth_card(hand, rng.random_range(0..popcount16(hand))))
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Seat, _: Action, _: &mut C) {
        debug_assert!(
            false,
            "Goofspiel has only simultaneous nodes: use apply_joint"
        );
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(
        &mut self,
        joint: &JointAction<Action>,
        chance: &mut C,
    ) {
        let n = self.n();
        let mut bids = [0u8; MAX_PLAYERS];
        for (b, a) in bids.iter_mut().zip(&joint[..n]) {
            *b = a.expect("every seat bids").0;
        }
        self.resolve(&bids, n);
        if usize::from(self.rounds) < self.num_cards() {
            self.draw_point(chance);
        }
    }

    /// Under the `returns` parameter ([`Utility`]; see the module docs).
    fn returns(&self) -> PerSeat<f64> {
        self.rules
            .params()
            .returns
            .returns(&self.ranks(), &self.scores, self.n())
    }

    /// Win shares from a softmax over the scores so far with temperature `T`, one tenth of
    /// the total point value `num_cards (num_cards + 1) / 2` (the logistic
    /// `1 / (1 + exp(-lead / T))` at 2 players), in the units of `returns`
    /// ([`Utility::estimate`]; the score lead itself for `margin`).
    fn value(&self) -> PerSeat<f64> {
        if self.turn().is_terminal() {
            return self.returns();
        }
        let n = self.n();
        let cards = self.num_cards() as f64;
        let t = (cards * (cards + 1.0) / 20.0).max(0.5);
        let mut projected = [0.0; MAX_PLAYERS];
        for (p, v) in projected.iter_mut().enumerate().take(n) {
            *v = f64::from(self.scores[p]);
        }
        let win = crate::game::win_share_from_scores(&projected, n, t);
        let mut margin = [0.0; MAX_PLAYERS];
        if n == 2 {
            margin[0] = projected[0] - projected[1];
            margin[1] = -margin[0];
        }
        self.rules.params().returns.estimate(&win, &margin, n)
    }

    /// Won point values per seat.
    fn scores(&self) -> PerSeat<i32> {
        self.scores
    }

    /// By points; a nonzero `komi` by points plus komi (GOOF-1.7).
    fn ranks(&self) -> PerSeat<u8> {
        let komi = &self.rules.params().komi;
        if komi.is_zero() {
            ranks_by_key(&self.scores, self.n())
        } else {
            komi.rank(&self.scores, &[0u8; 4], self.n())
        }
    }

    fn info_key(&self, player: Seat) -> u64 {
        let n = self.n();
        let mut h = mix64(
            (player as u64)
                | (self.num_cards() as u64) << 2
                | u64::from(self.imp_info()) << 8
                | u64::from(self.rounds) << 9
                | u64::from(self.point) << 14,
        );
        for r in 0..usize::from(self.rounds) {
            let seen = if self.imp_info() {
                // 0: won, 2: discarded, 1 + 4 (d - 1): won by the seat d places after.
                match self.winner(r) {
                    Some(w) if w == player => 0,
                    None => 2,
                    Some(w) => 1 + 4 * ((w + n - player) % n - 1) as u64,
                }
            } else {
                (1..n).fold(0, |acc, d| {
                    acc | u64::from(self.bids[(player + d) % n][r]) << (5 * (d - 1))
                })
            };
            let code =
                u64::from(self.points[r]) | u64::from(self.bids[player][r]) << 5 | seen << 10;
            h = mix64(h ^ code);
        }
        h
    }

    /// The public table and this seat's own hand, bids and what it saw of the others'.
    fn observation(&self, seat: Seat) -> Observation {
        let r = usize::from(self.rounds);
        let mut bids = [[0; MAX_CARDS]; MAX_PLAYERS];
        for (p, row) in bids.iter_mut().enumerate().take(self.n()) {
            if p == seat || !self.imp_info() {
                row[..r].copy_from_slice(&self.bids[p][..r]);
            }
        }
        let mut winners = [None; MAX_CARDS];
        for (i, w) in winners.iter_mut().enumerate().take(r) {
            *w = self.winner(i);
        }
        Observation {
            seat,
            rounds: r,
            point: self.point,
            point_cards: self.points,
            hand: self.hands[seat],
            bids,
            winners,
            scores: self.scores,
        }
    }

    fn determinize(&self, observer: Seat, rng: &mut SimRng) -> Self {
        if !self.imp_info() {
            return *self;
        }
        // Keeping the true bids is consistent too; the walk gives up only on rare finished
        // games (module docs).
        self.sample_bids(observer, rng).unwrap_or(*self)
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
        self.num_cards() as u32
    }

    /// One simultaneous bid per point card.
    fn max_game_length(rules: &Rules<Self>) -> u32 {
        rules.params().num_cards as u32
    }

    /// The fields of the module docs ("Information state and observation tensor"); the
    /// other seats' hands and bids only when they are seen (`imp_info = false`).
    fn observation_layout(rules: &Rules<Self>) -> Vec<TensorField> {
        let (k, n) = (rules.params().num_cards, rules.players());
        let seen = if rules.params().imp_info { 1 } else { n };
        let mut v = vec![
            TensorField::new("player", n, "one-hot of the observing seat"),
            TensorField::new(
                "current_point",
                k,
                "one-hot of the current point card (value v at v - 1); zeros when over",
            ),
            TensorField::new("remaining_points", k, "1 per point card not yet revealed"),
            TensorField::new(
                "scores",
                n,
                "points won, seat-relative (observer first), / (K (K + 1) / 2)",
            ),
            TensorField::new("rounds", 1, "completed rounds / K"),
            TensorField::new("hand", k, "1 per bid card the seat holds"),
        ];
        if seen > 1 {
            v.push(TensorField::new(
                "other_hands",
                (n - 1) * k,
                "the other seats' bid cards (seat-relative), 1 per card held",
            ));
        }
        v.extend([
            TensorField::new(
                "point_sequence",
                k,
                "per completed round, its point card / K; 0 for rounds to come",
            ),
            TensorField::new(
                "bid_sequence",
                seen * k,
                "per seen seat (seat-relative; only the observer under imp_info) and completed round, the bid / K; 0 for rounds to come",
            ),
            TensorField::new(
                "win_sequence",
                n * k,
                "per completed round, one-hot of its winner (seat-relative); zeros if discarded or to come",
            ),
        ]);
        v
    }

    /// Reads the public point cards, scores and winners, the seat's own hand and bids,
    /// and the other seats' hands and bids only when `imp_info = false`.
    fn observation_tensor(&self, seat: Seat, out: &mut [f32]) {
        let (k, n) = (self.num_cards(), self.n());
        let seen = if self.imp_info() { 1 } else { n };
        let len = 2 * n + 4 * k + 1 + seen * 2 * k + n * k - k;
        assert_eq!(out.len(), len, "Goofspiel's observation tensor length");
        out.fill(0.0);
        let kf = k as f32;
        let rel = |q: Seat| (q + n - seat) % n;
        let r = usize::from(self.rounds);
        out[seat] = 1.0;
        let mut at = n;
        if self.point != 0 {
            out[at + usize::from(self.point) - 1] = 1.0;
        }
        at += k;
        for (c, slot) in out[at..at + k].iter_mut().enumerate() {
            *slot = f32::from(u8::from(self.deck & 1 << c != 0));
        }
        at += k;
        let total = (k * (k + 1) / 2) as f32;
        for q in 0..n {
            out[at + rel(q)] = self.scores[q] as f32 / total;
        }
        at += n;
        out[at] = r as f32 / kf;
        at += 1;
        for d in 0..seen {
            let hand = self.hands[(seat + d) % n];
            for (c, slot) in out[at..at + k].iter_mut().enumerate() {
                *slot = f32::from(u8::from(hand & 1 << c != 0));
            }
            at += k;
        }
        for (slot, &p) in out[at..at + r].iter_mut().zip(&self.points[..r]) {
            *slot = f32::from(p) / kf;
        }
        at += k;
        for d in 0..seen {
            let bids = &self.bids[(seat + d) % n][..r];
            for (slot, &b) in out[at..at + r].iter_mut().zip(bids) {
                *slot = f32::from(b) / kf;
            }
            at += k;
        }
        for i in 0..r {
            if let Some(w) = self.winner(i) {
                out[at + n * i + rel(w)] = 1.0;
            }
        }
    }

    /// [`State::info_set_string`]: point cards, own bids, and the others' bids or the
    /// round results (module docs).
    fn information_state_string(&self, seat: Seat) -> String {
        self.info_set_string(seat)
    }
}

impl Measured for State {}

impl RunningScore for State {
    /// Running score: the prize points won so far.
    const HAS_RUNNING_SCORE: bool = true;
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

pub mod log;

#[cfg(test)]
mod tests;
