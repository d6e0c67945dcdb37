//! Planning a tournament: the agent lineup and the seating schedule.
//!
//! # The seating schedule
//! With `k` lineup entries (in the order given; repeats allowed) and `p` seats, every game
//! is a *most even seating*: a `p`-tuple of entries in which every entry holds `⌊p/k⌋` or
//! `⌈p/k⌉` seats. The set `S(k, p)` of all of them is
//! - `k ≥ p`: every ordered selection of `p` distinct entries (`k!/(k−p)!` seatings; an entry
//!   sits out some games when `k > p`);
//! - `k < p`: for every choice of the `p mod k` entries that get an extra seat, every distinct
//!   arrangement of that multiset (`a,b` at 4 seats: the 6 arrangements of `aabb`; 3 entries
//!   at 4 seats: 3 × 12 = 36), so an entry holds several seats of one game.
//!
//! `S(k, p)` is invariant under relabelling the entries and under permuting the seats. Over
//! the whole set, therefore, (1) every entry holds every seat equally often, and (2) every
//! ordered pair of entries sits in every ordered pair of distinct seats equally often (and
//! likewise for triples and any other seating pattern).
//!
//! The games cycle through `S(k, p)` in this order ([`Schedule::seating`]): game `g` seats
//! entry `(a·u[s] + d) mod k` in seat `s`, where
//! - `d = g mod k` is a *shift*;
//! - `a` is a *multiplier*: `a = 1 + ⌊g/k⌋ mod (k−1)` when `k` is prime and `k ≥ p ≥ 2`,
//!   otherwise always 1;
//! - `u` is a *base seating*, the next one every `k·(k−1)` (prime `k`) or `k` games: the
//!   members of `S(k, p)` with `u[0] = 0` (and `u[1] = 1` for prime `k`), in lexicographic
//!   order.
//!
//! This order gives three nested guarantees:
//! 1. any `k` consecutive games starting at a multiple of `k` are one orbit of the cyclic
//!    relabelling `entry → entry + 1 mod k`, so they give every entry every seat exactly once
//!    (the guarantee of the former `(g + s) mod k` rotation, useful for short runs);
//! 2. every *block* of [`Schedule::block_len`] games starting at a multiple of it gives
//!    properties (1) and (2). The block is the whole cycle, except when `k` is prime and
//!    `k ≥ p ≥ 3`: then the `k(k−1)` games of one base seating are its orbit under the
//!    affine maps `x → a·x + d` of `Z_k` (the group AGL(1, k)), which is sharply
//!    2-transitive, so every ordered pair of distinct entries meets every ordered pair of
//!    distinct seats exactly once in them (pair balance, though not triple balance, in a
//!    much shorter block: 20 games instead of 120 for 5 entries at 4 seats);
//! 3. the whole cycle of [`Schedule::cycle_len`] games holds every member of `S(k, p)` once,
//!    so every seating pattern is balanced.
//!
//! Block lengths (cycle lengths in brackets where longer):
//!
//! | k \ p | 2  | 3         | 4          |
//! |-------|----|-----------|------------|
//! | 1     | 1  | 1         | 1          |
//! | 2     | 2  | 6         | 6          |
//! | 3     | 6  | 6         | 36         |
//! | 4     | 12 | 24        | 24         |
//! | 5     | 20 | 20 (60)   | 20 (120)   |
//! | 6     | 30 | 120       | 360        |
//! | 7     | 42 | 42 (210)  | 42 (840)   |
//! | 8     | 56 | 336       | 1680       |
//!
//! Two agents in a two-player game keep the old rotation exactly (`a b`, `b a`, ...).
//! Blocks grow quickly for composite `k` at 4 seats (5040 games for 10 entries, 11880 for
//! 12): pair balance then holds exactly only over complete blocks, while guarantee 1 still
//! holds every `k` games. Nothing grows with the block in memory: for `k ≥ p` the base
//! seating is computed from its index (unranking the lexicographic order, `O(p²)` per game),
//! and for `k < p` it comes from a small table (12 rows for 3 entries at 4 seats).
//! `sim tournament` warns when the number of games is not a multiple of the block.

use crate::agents::{self, AgentError};
use crate::game::{MAX_PLAYERS, PerSeat};

/// The largest lineup a schedule supports: entries are stored as `u8`
/// (see [`super::records::MAX_LINEUP`]).
const MAX_ENTRIES: usize = 256;

/// The seating schedule of `k` lineup entries at `p` seats (see the module docs): which entry
/// plays each seat of each game. Cheap to query: a few integer operations per game, no
/// allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    k: usize,
    players: usize,
    base: Base,
    /// Multipliers per base seating: `k − 1` for prime `k ≥ p ≥ 2`, else 1.
    multipliers: u64,
    /// Number of base seatings.
    bases: u64,
}

/// Where the base seatings come from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Base {
    /// `k ≥ p`: the ordered selections of distinct entries whose first `fixed` seats hold
    /// `0, 1, …`, unranked from their lexicographic index; `weights[i]` is the number of
    /// completions of a prefix of length `i + 1`.
    Selections {
        fixed: usize,
        weights: [u64; MAX_PLAYERS],
    },
    /// `k < p`: the base seatings, in lexicographic order.
    Table(Vec<PerSeat<u8>>),
}

fn is_prime(n: usize) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

impl Schedule {
    /// The schedule of `k` lineup entries at `players` seats.
    ///
    /// # Panics
    /// If `k` is 0 or more than 256, or `players` is 0 or more than [`MAX_PLAYERS`].
    pub fn new(k: usize, players: usize) -> Self {
        assert!(
            (1..=MAX_ENTRIES).contains(&k),
            "a schedule needs 1 to {MAX_ENTRIES} entries, got {k}"
        );
        assert!(
            (1..=MAX_PLAYERS).contains(&players),
            "a schedule needs 1 to {MAX_PLAYERS} seats, got {players}"
        );
        if k < players {
            let table = even_seatings(k, players);
            return Schedule {
                k,
                players,
                multipliers: 1,
                bases: table.len() as u64,
                base: Base::Table(table),
            };
        }
        let affine = players >= 2 && is_prime(k);
        let fixed = if affine { 2 } else { 1 };
        let mut weights = [1u64; MAX_PLAYERS];
        for i in (0..players.saturating_sub(1)).rev() {
            weights[i] = weights[i + 1] * (k - i - 1) as u64;
        }
        Schedule {
            k,
            players,
            multipliers: if affine { k as u64 - 1 } else { 1 },
            bases: weights[fixed - 1],
            base: Base::Selections { fixed, weights },
        }
    }

    /// `k`, the number of lineup entries.
    pub fn entries(&self) -> usize {
        self.k
    }

    /// `p`, the number of seats.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The block length `B`: every `B` games starting at a multiple of `B`, every entry holds
    /// every seat equally often and every ordered pair of entries sits in every ordered pair
    /// of distinct seats equally often. A multiple of `k`.
    pub fn block_len(&self) -> u64 {
        if self.multipliers > 1 {
            self.k as u64 * self.multipliers
        } else {
            self.cycle_len()
        }
    }

    /// The cycle length: the number of most even seatings, after which the schedule repeats.
    /// A multiple of [`Schedule::block_len`].
    pub fn cycle_len(&self) -> u64 {
        self.k as u64 * self.multipliers * self.bases
    }

    /// Whether `games` games (from game 0) are balanced, that is a multiple of
    /// [`Schedule::block_len`].
    pub fn is_balanced(&self, games: u64) -> bool {
        games % self.block_len() == 0
    }

    /// The lineup entry playing each seat of game `game` (seats `p..` hold 0).
    pub fn seating(&self, game: u64) -> PerSeat<u8> {
        let k = self.k as u64;
        let d = game % k;
        let mut h = game / k;
        let a = if self.multipliers > 1 {
            let a = 1 + h % self.multipliers;
            h /= self.multipliers;
            a
        } else {
            1
        };
        let r = h % self.bases;
        let mut u = [0u64; MAX_PLAYERS];
        match &self.base {
            Base::Table(rows) => {
                for (x, &e) in u.iter_mut().zip(&rows[r as usize]) {
                    *x = e as u64;
                }
            }
            &Base::Selections { fixed, weights } => {
                // The first `fixed` seats hold 0, 1, …; seat i holds the c-th smallest value
                // of `fixed..k` not yet taken, c being r's i-th mixed-radix digit.
                let (mut r, mut taken, mut n) = (r, [0u64; MAX_PLAYERS], 0);
                for (i, x) in u.iter_mut().enumerate().take(fixed) {
                    *x = i as u64;
                }
                for i in fixed..self.players {
                    let mut v = fixed as u64 + r / weights[i];
                    r %= weights[i];
                    let mut pos = 0;
                    while pos < n && taken[pos] <= v {
                        v += 1;
                        pos += 1;
                    }
                    taken.copy_within(pos..n, pos + 1);
                    taken[pos] = v;
                    n += 1;
                    u[i] = v;
                }
            }
        }
        let mut out = [0u8; MAX_PLAYERS];
        for s in 0..self.players {
            out[s] = ((a * u[s] + d) % k) as u8;
        }
        out
    }

    /// The lineup entry playing `seat` in game `game` (see [`Schedule::seating`]).
    ///
    /// # Panics
    /// If `seat` is [`MAX_PLAYERS`] or more.
    pub fn entry_for(&self, game: u64, seat: usize) -> usize {
        self.seating(game)[seat] as usize
    }
}

/// The most even seatings of `k < p` entries at `p` seats with entry 0 in seat 0, in
/// lexicographic order: every entry holds `⌊p/k⌋` or `⌈p/k⌉` seats.
fn even_seatings(k: usize, p: usize) -> Vec<PerSeat<u8>> {
    fn extend(
        k: usize,
        p: usize,
        seat: usize,
        row: &mut PerSeat<u8>,
        counts: &mut [usize],
        out: &mut Vec<PerSeat<u8>>,
    ) {
        let (lo, hi) = (p / k, p.div_ceil(k));
        if seat == p {
            if counts.iter().all(|&c| c >= lo) {
                out.push(*row);
            }
            return;
        }
        let choices = if seat == 0 { 0..1 } else { 0..k };
        for e in choices {
            if counts[e] < hi {
                counts[e] += 1;
                row[seat] = e as u8;
                extend(k, p, seat + 1, row, counts, out);
                counts[e] -= 1;
            }
        }
    }
    let mut out = Vec::new();
    extend(k, p, 0, &mut [0; MAX_PLAYERS], &mut vec![0; k], &mut out);
    out
}

/// The agents of a tournament, in the order given, with their canonical specs and their
/// seating [`Schedule`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineup {
    entries: Vec<String>,
    distinct: Vec<String>,
    entry_to_distinct: Vec<usize>,
    schedule: Schedule,
    /// Games per deal: 1, or the block length when paired ([`Lineup::set_paired`]).
    deal_len: u64,
    paired: bool,
}

impl Lineup {
    /// Canonicalizes every spec ([`agents::canonicalize`]). Entries with the same canonical
    /// spec are the same agent for the statistics (self-play such as `random,random` gives
    /// one summary row). The seating schedule is that of `specs.len()` entries at `players`
    /// seats ([`Schedule::new`]).
    ///
    /// # Errors
    /// [`AgentError`] naming the first bad spec and the valid choices;
    /// [`AgentError::Empty`] if `specs` is empty.
    ///
    /// # Panics
    /// If `players` is 0 or more than [`MAX_PLAYERS`], or there are more than
    /// [`super::records::MAX_LINEUP`] specs (callers validate both first).
    pub fn new<S: AsRef<str>>(specs: &[S], players: usize) -> Result<Self, AgentError> {
        Self::with_defaults(specs, players, &[])
    }

    /// As [`Lineup::new`], canonicalizing the specs with a game's agent defaults
    /// ([`crate::games::defaults_of`]).
    ///
    /// # Errors
    /// As [`Lineup::new`].
    ///
    /// # Panics
    /// As [`Lineup::new`].
    pub fn with_defaults<S: AsRef<str>>(
        specs: &[S],
        players: usize,
        defaults: &[(&str, &str)],
    ) -> Result<Self, AgentError> {
        if specs.is_empty() {
            return Err(AgentError::Empty);
        }
        let mut entries = Vec::with_capacity(specs.len());
        let mut distinct: Vec<String> = Vec::new();
        let mut entry_to_distinct = Vec::with_capacity(specs.len());
        for s in specs {
            let c = agents::canonicalize_with(s.as_ref(), defaults)?;
            let d = match distinct.iter().position(|x| *x == c) {
                Some(d) => d,
                None => {
                    distinct.push(c.clone());
                    distinct.len() - 1
                }
            };
            entries.push(c);
            entry_to_distinct.push(d);
        }
        let schedule = Schedule::new(entries.len(), players);
        Ok(Lineup {
            entries,
            distinct,
            entry_to_distinct,
            schedule,
            deal_len: 1,
            paired: false,
        })
    }

    /// `k`, the number of lineup entries (with repeats).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false: a lineup has at least one entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The canonical specs, in the order given (length `k`).
    pub fn entries(&self) -> &[String] {
        &self.entries
    }

    /// The distinct canonical specs, in order of first appearance: the rows of the
    /// per-agent statistics.
    pub fn distinct(&self) -> &[String] {
        &self.distinct
    }

    /// The distinct-agent index of lineup entry `entry`.
    pub fn distinct_of(&self, entry: usize) -> usize {
        self.entry_to_distinct[entry]
    }

    /// The seating schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The lineup entry playing each seat of game `game` ([`Schedule::seating`]).
    pub fn seating(&self, game: u64) -> PerSeat<u8> {
        self.schedule.seating(game)
    }

    /// The lineup entry playing `seat` in game `game` ([`Schedule::entry_for`]).
    pub fn entry_for(&self, game: u64, seat: usize) -> usize {
        self.schedule.entry_for(game, seat)
    }

    /// The block length of the schedule ([`Schedule::block_len`]).
    pub fn block_len(&self) -> u64 {
        self.schedule.block_len()
    }

    /// Switches the common-random-numbers design on or off (`--paired`): when on, the
    /// games of each seating block ([`Lineup::block_len`]) share one *deal*, so game `g`
    /// replays deal `g / B` under the block's seatings ([`Lineup::deal`]). Off (the
    /// default), every game is its own deal.
    pub fn set_paired(&mut self, paired: bool) {
        self.paired = paired;
        self.deal_len = if paired { self.block_len() } else { 1 };
    }

    /// Whether the lineup is paired ([`Lineup::set_paired`]).
    pub fn is_paired(&self) -> bool {
        self.paired
    }

    /// Games per deal: the block length when paired, else 1.
    pub fn deal_len(&self) -> u64 {
        self.deal_len
    }

    /// The deal of game `game`: the index whose chance stream it plays,
    /// `seed_for(seed, deal, 0)` ([`crate::rng::seed_for`]). `game / B` when paired, else
    /// `game`.
    #[inline]
    pub fn deal(&self, game: u64) -> u64 {
        // No division on the default path: it runs once per game.
        if self.paired {
            game / self.deal_len
        } else {
            game
        }
    }

    /// Whether `games` games give every agent every seat, and every ordered pair of entries
    /// every ordered pair of seats, equally often: `games` is a multiple of
    /// [`Lineup::block_len`].
    pub fn is_balanced(&self, games: u64) -> bool {
        self.schedule.is_balanced(games)
    }
}

/// Splits an `--agents` list into specs. Commas separate agents, but a piece of the form
/// `key=value` (an `=` and no `:` before it) continues the previous agent's settings, so
/// canonical specs can be pasted back: `mcts:iters=100,c=1.4,random` is
/// `["mcts:iters=100,c=1.4", "random"]`. Empty pieces are skipped.
pub fn split_agent_list(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let continues = match (piece.find('='), piece.find(':')) {
            (Some(eq), Some(colon)) => eq < colon,
            (Some(_), None) => true,
            (None, _) => false,
        };
        match out.last_mut() {
            Some(prev) if continues => {
                prev.push(if prev.contains(':') { ',' } else { ':' });
                prev.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every member of `S(k, p)` by brute force: the `p`-tuples over `0..k` in which every
    /// entry holds `⌊p/k⌋` or `⌈p/k⌉` seats.
    fn most_even_seatings(k: usize, p: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for code in 0..k.pow(p as u32) {
            let t: Vec<usize> = (0..p).map(|s| code / k.pow(s as u32) % k).collect();
            if (0..k).all(|e| {
                let c = t.iter().filter(|&&x| x == e).count();
                c == p / k || c == p.div_ceil(k)
            }) {
                out.push(t);
            }
        }
        out.sort();
        out
    }

    fn seats(sch: &Schedule, g: u64) -> Vec<usize> {
        (0..sch.players()).map(|s| sch.entry_for(g, s)).collect()
    }

    /// Checks properties (1) and (2) of the module docs over games `start..start + len`.
    fn assert_balanced(sch: &Schedule, start: u64, len: u64) {
        let (k, p) = (sch.entries(), sch.players());
        let mut seat = vec![vec![0u64; p]; k];
        let mut pair = vec![vec![vec![vec![0u64; p]; p]; k]; k];
        for g in start..start + len {
            let t = seats(sch, g);
            for e in 0..k {
                let c = t.iter().filter(|&&x| x == e).count();
                assert!(
                    c == p / k || c == p.div_ceil(k),
                    "k={k} p={p} game {g}: {t:?} is not a most even seating"
                );
            }
            for s in 0..p {
                seat[t[s]][s] += 1;
                for s2 in (0..p).filter(|&s2| s2 != s) {
                    pair[t[s]][t[s2]][s][s2] += 1;
                }
            }
        }
        let first = seat[0][0];
        assert!(
            seat.iter().flatten().all(|&c| c == first),
            "k={k} p={p} games {start}+{len}: entry × seat counts {seat:?}"
        );
        for (e1, row) in pair.iter().enumerate() {
            for (e2, by_seats) in row.iter().enumerate() {
                let want = by_seats[usize::from(p > 1)][0];
                for (s1, r) in by_seats.iter().enumerate() {
                    for (s2, &c) in r.iter().enumerate() {
                        assert!(
                            s1 == s2 || c == want,
                            "k={k} p={p} games {start}+{len}: entries ({e1},{e2}) sit in seats \
                             ({s1},{s2}) {c} times, in (1,0) {want} times"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_entry_holds_every_seat_once_per_k_games() {
        for k in 1..=9usize {
            let k64 = k as u64;
            for p in 1..=MAX_PLAYERS {
                let sch = Schedule::new(k, p);
                assert_eq!(sch.block_len() % k64, 0);
                for start in [0, 3 * k64, 1000 * k64, (u64::MAX / k64 - 5) * k64] {
                    let mut count = vec![vec![0; p]; k];
                    for g in start..start + k64 {
                        for s in 0..p {
                            count[sch.entry_for(g, s)][s] += 1;
                        }
                    }
                    assert!(
                        count.iter().flatten().all(|&c| c == 1),
                        "k={k} p={p} start={start}: {count:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_block_balances_seats_and_ordered_pairs() {
        for k in 1..=5 {
            for p in 2..=4 {
                let sch = Schedule::new(k, p);
                let b = sch.block_len();
                for block in [0, 1, 2, 1_000_003] {
                    assert_balanced(&sch, block * b, b);
                }
            }
        }
        // Longer blocks: composite k (whole cycle) and prime k (one base seating).
        for (k, p) in [(6, 3), (6, 4), (7, 4), (8, 4), (11, 4), (12, 4)] {
            let sch = Schedule::new(k, p);
            assert_balanced(&sch, 0, sch.block_len());
            assert_balanced(&sch, 5 * sch.block_len(), sch.block_len());
        }
    }

    #[test]
    fn a_cycle_holds_every_most_even_seating_once() {
        for k in 1..=7 {
            for p in 1..=MAX_PLAYERS {
                let sch = Schedule::new(k, p);
                let n = sch.cycle_len();
                assert_eq!(n % sch.block_len(), 0);
                let mut got: Vec<Vec<usize>> = (0..n).map(|g| seats(&sch, g)).collect();
                got.sort();
                assert_eq!(got, most_even_seatings(k, p), "k={k} p={p}");
                // The cycle repeats.
                assert_eq!(seats(&sch, 7), seats(&sch, 7 + 3 * n));
            }
        }
    }

    #[test]
    fn block_lengths_match_the_documented_table() {
        let table: [(usize, [u64; 3]); 8] = [
            (1, [1, 1, 1]),
            (2, [2, 6, 6]),
            (3, [6, 6, 36]),
            (4, [12, 24, 24]),
            (5, [20, 20, 20]),
            (6, [30, 120, 360]),
            (7, [42, 42, 42]),
            (8, [56, 336, 1680]),
        ];
        for (k, row) in table {
            for (p, want) in (2..=4).zip(row) {
                assert_eq!(Schedule::new(k, p).block_len(), want, "k={k} p={p}");
            }
        }
        assert_eq!(Schedule::new(5, 3).cycle_len(), 60);
        assert_eq!(Schedule::new(5, 4).cycle_len(), 120);
        assert_eq!(Schedule::new(7, 3).cycle_len(), 210);
        assert_eq!(Schedule::new(7, 4).cycle_len(), 840);
        assert_eq!(Schedule::new(10, 4).block_len(), 5040);
        assert_eq!(Schedule::new(12, 4).block_len(), 11880);
    }

    #[test]
    fn rotation_examples() {
        // Two agents at two seats: the former (g + s) mod k rotation.
        let l = Lineup::new(&["random", "greedy"], 2).unwrap();
        for g in 0..100 {
            assert_eq!(l.seating(g)[..2], [g as u8 % 2, (g as u8 + 1) % 2]);
        }
        // Two agents at four seats: the 6 arrangements of aabb, each followed by its relabelling.
        let l = Lineup::new(&["random", "greedy"], 4).unwrap();
        let games: Vec<[u8; 4]> = (0..6).map(|g| l.seating(g)).collect();
        assert_eq!(
            games,
            [
                [0, 0, 1, 1],
                [1, 1, 0, 0],
                [0, 1, 0, 1],
                [1, 0, 1, 0],
                [0, 1, 1, 0],
                [1, 0, 0, 1]
            ]
        );
        assert_eq!(l.seating(6), l.seating(0));
        assert!(l.is_balanced(600) && !l.is_balanced(602) && l.block_len() == 6);
        // Five entries at four seats (k prime): seat s holds (a·s + d) mod 5.
        let l = Lineup::new(&["random"; 5], 4).unwrap();
        assert_eq!(l.seating(0), [0, 1, 2, 3]);
        assert_eq!(l.seating(1), [1, 2, 3, 4]);
        assert_eq!(l.seating(5), [0, 2, 4, 1]);
        assert_eq!(l.seating(19), [4, 3, 2, 1]);
        // Then the next base seating, (0, 1, 2, 4).
        assert_eq!(l.seating(20), [0, 1, 2, 4]);
        assert_eq!(l.entry_for(21, 3), 0);
        assert!(l.is_balanced(100) && !l.is_balanced(110));
        // Three entries at two seats: every ordered pair once in 6 games.
        let l3 = Lineup::new(&["random", "greedy", "random:"], 2).unwrap();
        assert_eq!(l3.entry_for(0, 0), 0);
        assert_eq!(l3.seating(5)[..2], [2, 1]);
        assert!(l3.is_balanced(12) && !l3.is_balanced(9));
    }

    #[test]
    fn large_lineups_are_cheap() {
        let sch = Schedule::new(256, 4);
        assert_eq!(sch.cycle_len(), 256 * 255 * 254 * 253);
        // 256 is not prime: the block is the whole cycle.
        assert_eq!(sch.block_len(), sch.cycle_len());
        for g in [0, 1, 255, 256, 65_280, 4_000_000_000, u64::MAX] {
            let t = seats(&sch, g);
            assert!(
                (0..4).all(|i| (0..i).all(|j| t[i] != t[j])),
                "game {g}: {t:?}"
            );
        }
        // The last game of the cycle is the last selection, shifted by 255.
        assert_eq!(seats(&sch, sch.cycle_len() - 1), [255, 254, 253, 252]);
        let sch = Schedule::new(251, 4);
        assert_eq!(sch.block_len(), 251 * 250);
        assert_balanced(&Schedule::new(31, 3), 0, 31 * 30);
    }

    #[test]
    fn lineup_canonicalizes_and_merges_repeats() {
        let l = Lineup::new(&["greedy", "random", "greedy:samples=4"], 2).unwrap();
        assert_eq!(
            l.entries(),
            ["greedy:samples=4", "random", "greedy:samples=4"]
        );
        assert_eq!(l.distinct(), ["greedy:samples=4", "random"]);
        assert_eq!(
            (l.distinct_of(0), l.distinct_of(1), l.distinct_of(2)),
            (0, 1, 0)
        );
        assert!(Lineup::new::<&str>(&[], 2).is_err());
        let e = Lineup::new(&["random", "alphago"], 2)
            .unwrap_err()
            .to_string();
        assert!(e.contains("alphago") && e.contains("greedy"), "{e}");
    }

    #[test]
    fn agent_lists_split_at_agent_boundaries() {
        assert_eq!(split_agent_list("greedy,random"), ["greedy", "random"]);
        assert_eq!(
            split_agent_list("mcts:iters=100,c=1.4, random ,greedy:samples=2"),
            ["mcts:iters=100,c=1.4", "random", "greedy:samples=2"]
        );
        assert_eq!(split_agent_list("greedy,samples=2"), ["greedy:samples=2"]);
        assert_eq!(split_agent_list(" ,random,,"), ["random"]);
        assert!(split_agent_list("").is_empty());
    }
}
