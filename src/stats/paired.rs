//! Paired differences over blocks (common random numbers): the one-sample t interval and
//! test on the per-block differences (Student 1908), from the values or from their exact
//! integer moments; and the statistics over deals of `sim tournament --paired`
//! ([`PairedStats`], `paired.csv`), whose design is documented in
//! [`crate::tournament::paired`].
//!
//! # Statistics
//! For each complete deal `j` the module keeps, per distinct agent `a`, its wins `w_a` (it
//! alone holds first place; the definition of `summary.csv`) and its score summed over its
//! seats, and per seat its sole wins and its score. Each comparison's per-deal difference
//! is an integer, so the moments are exact ([`IntMoments`]) and do not depend on the order
//! or the grouping of the deals (a resumed or sharded run merges to the same numbers):
//! - agents `a` and `b` (every pair, in lineup order): win rates `w_a/g_a − w_b/g_b`, kept
//!   as `w_a·g_b − w_b·g_a` and divided by `g_a·g_b`, where `g_a` is the number of games
//!   of a deal in which `a` holds a seat (fixed by the schedule); mean scores per seat
//!   likewise with the seats per deal;
//! - seat 0 and seat `s`: win rates and mean scores (every seat plays every game of the
//!   deal).
//!
//! The interval is the **paired t interval** over the deals (Student 1908;
//! [`crate::stats::paired_difference_moments`]): the deals are independent, the games
//! within a deal are not, which is what the pairing exploits (the deal-to-deal variance
//! cancels in the difference). A deal with a failed game (see `errors.csv`) is left out
//! whole. Written to `paired.csv` ([`PAIRED_HEADER`]).

use std::fmt::Write as _;
use std::io::Write;

use serde::{Deserialize, Serialize};

use super::MAX_SEATS;
use super::difference::{Difference, t_difference};
use super::moments::{IntMoments, Welford};
use crate::format::{f6, format_p, num, signed};

/// The mean of paired differences (one per block of games played under both conditions
/// with common random numbers, e.g. the same deals under two variants or two seatings)
/// with the one-sample t interval and test on the block differences (Student 1908). The
/// pairing removes the deal-to-deal variance that two independent samples keep, so the
/// interval is narrower when the blocks' two results are positively correlated.
///
/// With fewer than 2 blocks the interval is infinite and the p-value 1.
pub fn paired_difference(block_differences: &[f64]) -> Difference {
    let mut w = Welford::new();
    block_differences.iter().for_each(|&x| w.push(x));
    paired_t(w.mean(), w.sd(), w.count())
}

/// [`paired_difference`] from the exact moments of the block differences, each
/// difference being `scale` times the quantity of interest (integers, so that the
/// moments are exact and do not depend on the order of the blocks: `sim tournament
/// --paired` keeps `wins_a·g_b − wins_b·g_a` per deal and divides by `g_a·g_b`).
///
/// # Panics
/// If `scale` is not positive.
pub fn paired_difference_moments(differences: &IntMoments, scale: f64) -> Difference {
    assert!(scale > 0.0, "scale = {scale}");
    paired_t(
        differences.mean() / scale,
        differences.sd() / scale,
        differences.count(),
    )
}

/// The name of the method of [`paired_difference`] and [`paired_difference_moments`].
pub const PAIRED_METHOD: &str = "paired t interval and test over blocks";

fn paired_t(mean: f64, sd: f64, n: u64) -> Difference {
    if n < 2 {
        return t_difference(mean, f64::NAN, 0.0, PAIRED_METHOD);
    }
    t_difference(mean, sd / (n as f64).sqrt(), (n - 1) as f64, PAIRED_METHOD)
}

/// What the paired statistics need of one game: a small `Copy` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Game index.
    pub index: u64,
    /// The lineup entry in each seat.
    pub lineup: [u8; MAX_SEATS],
    /// Final scores per seat.
    pub scores: [i32; MAX_SEATS],
    /// Final ranks per seat (1 = best).
    pub ranks: [u8; MAX_SEATS],
}

/// The deal being accumulated (its games may straddle a checkpoint).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct OpenDeal {
    deal: u64,
    games: u64,
    agent_wins: Vec<i64>,
    agent_scores: Vec<i64>,
    seat_wins: Vec<i64>,
    seat_scores: Vec<i64>,
}

/// The accumulated state of [`PairedStats`], saved in checkpoints. Serializes exactly.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedState {
    /// Complete deals.
    deals: u64,
    /// Deals left out because a game of theirs failed.
    incomplete: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    open: Option<OpenDeal>,
    /// Per pair of distinct agents `(a, b)`, `a < b`, in order: win and score differences.
    agent_wins: Vec<IntMoments>,
    agent_scores: Vec<IntMoments>,
    /// Per seat `s ≥ 1`: seat 0 minus seat `s`, wins and scores.
    seat_wins: Vec<IntMoments>,
    seat_scores: Vec<IntMoments>,
    /// Totals over the complete deals: per distinct agent and per seat, wins and scores.
    totals: Totals,
}

/// Totals over complete deals, for the per-side means of `paired.csv`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Totals {
    agent_wins: Vec<i64>,
    agent_scores: Vec<i64>,
    seat_wins: Vec<i64>,
    seat_scores: Vec<i64>,
}

impl Totals {
    /// Adds sums of the same shape: agent wins, agent scores, seat wins, seat scores.
    fn add(&mut self, other: [&[i64]; 4]) {
        let into = [
            &mut self.agent_wins,
            &mut self.agent_scores,
            &mut self.seat_wins,
            &mut self.seat_scores,
        ];
        for (a, b) in into.into_iter().zip(other) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }

    fn parts(&self) -> [&[i64]; 4] {
        [
            &self.agent_wins,
            &self.agent_scores,
            &self.seat_wins,
            &self.seat_scores,
        ]
    }
}

impl OpenDeal {
    fn parts(&self) -> [&[i64]; 4] {
        [
            &self.agent_wins,
            &self.agent_scores,
            &self.seat_wins,
            &self.seat_scores,
        ]
    }
}

/// A closed deal's buffers, kept to open the next deal without allocating. Not part of
/// the statistics: always equal.
#[derive(Debug, Clone, Default)]
struct Spare(Option<OpenDeal>);

impl PartialEq for Spare {
    fn eq(&self, _: &Spare) -> bool {
        true
    }
}

/// Paired differences over deals (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct PairedStats {
    players: usize,
    deal_len: u64,
    entry_to_distinct: Vec<usize>,
    /// Games and seats per deal of each distinct agent.
    games_per_deal: Vec<i64>,
    seats_per_deal: Vec<i64>,
    state: PairedState,
    spare: Spare,
}

/// The header of `paired.csv`: one row per comparison and quantity.
pub const PAIRED_HEADER: [&str; 13] = [
    "comparison",
    "a",
    "b",
    "quantity",
    "deals",
    "games_per_deal",
    "a_mean",
    "b_mean",
    "difference",
    "ci_low",
    "ci_high",
    "p_value",
    "method",
];

/// The method column of `paired.csv`.
pub const METHOD: &str = "paired t interval and test over deals (Student 1908); each deal \
                          replays one chance stream under every seating of the block";

/// One row of `paired.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedRow {
    /// `agents` or `seats`.
    pub comparison: &'static str,
    /// The first agent (label) or seat.
    pub a: String,
    /// The second agent or seat.
    pub b: String,
    /// `win_rate` or `mean_score`.
    pub quantity: &'static str,
    /// Mean of the quantity for `a` over the deals.
    pub a_mean: f64,
    /// Mean for `b`.
    pub b_mean: f64,
    /// `a − b` with its paired interval.
    pub difference: Difference,
}

fn pairs(k: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..k).flat_map(move |a| (a + 1..k).map(move |b| (a, b)))
}

impl PairedStats {
    /// Empty statistics for `players` seats: `entry_to_distinct` maps each lineup entry to
    /// its distinct agent (agents `0..k`), and `deal` holds the seating (the lineup entry
    /// in each seat) of every game of one deal, in order; its length is the deal length.
    ///
    /// # Panics
    /// If `deal` is empty, or a seating names an entry outside `entry_to_distinct`.
    pub fn new(players: usize, entry_to_distinct: Vec<usize>, deal: &[[u8; MAX_SEATS]]) -> Self {
        assert!(!deal.is_empty(), "a deal of no games");
        let k = entry_to_distinct.iter().max().map_or(0, |&a| a + 1);
        let deal_len = deal.len() as u64;
        let (mut games, mut seats) = (vec![0i64; k], vec![0i64; k]);
        for seating in deal {
            let mut present = vec![false; k];
            for &e in &seating[..players] {
                let a = entry_to_distinct[e as usize];
                seats[a] += 1;
                present[a] = true;
            }
            for (n, p) in games.iter_mut().zip(present) {
                *n += i64::from(p);
            }
        }
        let n_pairs = k * k.saturating_sub(1) / 2;
        PairedStats {
            players,
            deal_len,
            entry_to_distinct,
            games_per_deal: games,
            seats_per_deal: seats,
            state: PairedState {
                agent_wins: vec![IntMoments::new(); n_pairs],
                agent_scores: vec![IntMoments::new(); n_pairs],
                seat_wins: vec![IntMoments::new(); players.saturating_sub(1)],
                seat_scores: vec![IntMoments::new(); players.saturating_sub(1)],
                totals: Totals {
                    agent_wins: vec![0; k],
                    agent_scores: vec![0; k],
                    seat_wins: vec![0; players],
                    seat_scores: vec![0; players],
                },
                ..PairedState::default()
            },
            spare: Spare::default(),
        }
    }

    /// Games per deal (the seating block).
    pub fn deal_len(&self) -> u64 {
        self.deal_len
    }

    /// Complete deals so far.
    pub fn deals(&self) -> u64 {
        self.state.deals
    }

    /// Deals left out because one of their games failed.
    pub fn incomplete(&self) -> u64 {
        self.state.incomplete
    }

    /// An empty deal `deal`: the buffers of the last closed deal, zeroed, or new ones.
    fn open(&mut self, deal: u64) -> OpenDeal {
        if let Some(mut d) = self.spare.0.take() {
            for v in [
                &mut d.agent_wins,
                &mut d.agent_scores,
                &mut d.seat_wins,
                &mut d.seat_scores,
            ] {
                v.fill(0);
            }
            d.deal = deal;
            d.games = 0;
            return d;
        }
        let k = self.games_per_deal.len();
        OpenDeal {
            deal,
            games: 0,
            agent_wins: vec![0; k],
            agent_scores: vec![0; k],
            seat_wins: vec![0; self.players],
            seat_scores: vec![0; self.players],
        }
    }

    /// Adds the games of one block, in index order (failed games absent).
    pub fn add(&mut self, outcomes: &[Outcome]) {
        for o in outcomes {
            let deal = o.index / self.deal_len;
            if self.state.open.as_ref().is_some_and(|d| d.deal != deal) {
                self.close();
            }
            let mut open = match self.state.open.take() {
                Some(d) => d,
                None => self.open(deal),
            };
            open.games += 1;
            let p = self.players;
            let firsts = o.ranks[..p].iter().filter(|&&r| r == 1).count();
            let mut first_agent: Option<usize> = None;
            let mut shared = false;
            for s in 0..p {
                let a = self.entry_to_distinct[o.lineup[s] as usize];
                open.agent_scores[a] += i64::from(o.scores[s]);
                open.seat_scores[s] += i64::from(o.scores[s]);
                if o.ranks[s] == 1 {
                    if firsts == 1 {
                        open.seat_wins[s] += 1;
                    }
                    match first_agent {
                        None => first_agent = Some(a),
                        Some(b) if b != a => shared = true,
                        Some(_) => {}
                    }
                }
            }
            if let (Some(a), false) = (first_agent, shared) {
                open.agent_wins[a] += 1;
            }
            self.state.open = Some(open);
        }
    }

    /// Closes the deal in progress: a complete one adds its differences, one with a
    /// failed game is counted as incomplete. Called at the end of a run's range (which
    /// holds whole deals).
    pub fn close(&mut self) {
        let Some(d) = self.state.open.take() else {
            return;
        };
        if d.games != self.deal_len {
            self.state.incomplete += 1;
            self.spare.0 = Some(d);
            return;
        }
        self.state.deals += 1;
        let (g, s) = (&self.games_per_deal, &self.seats_per_deal);
        for (i, (a, b)) in pairs(g.len()).enumerate() {
            self.state.agent_wins[i].push(d.agent_wins[a] * g[b] - d.agent_wins[b] * g[a]);
            self.state.agent_scores[i].push(d.agent_scores[a] * s[b] - d.agent_scores[b] * s[a]);
        }
        for seat in 1..self.players {
            self.state.seat_wins[seat - 1].push(d.seat_wins[0] - d.seat_wins[seat]);
            self.state.seat_scores[seat - 1].push(d.seat_scores[0] - d.seat_scores[seat]);
        }
        self.state.totals.add(d.parts());
        self.spare.0 = Some(d);
    }

    /// The accumulated state, for a checkpoint.
    pub fn state(&self) -> PairedState {
        self.state.clone()
    }

    /// Replaces the state with a checkpoint's.
    ///
    /// # Errors
    /// A message if the saved state has another shape.
    pub fn restore(&mut self, state: PairedState) -> Result<(), String> {
        if state.agent_wins.len() != self.state.agent_wins.len()
            || state.seat_wins.len() != self.state.seat_wins.len()
        {
            return Err("the saved paired statistics have another shape".into());
        }
        self.state = state;
        Ok(())
    }

    /// Adds a later shard's state (whole deals: its open deal, if any, is closed first).
    pub fn absorb_state(&mut self, other: &PairedState) {
        self.close();
        let mut other = other.clone();
        if other.open.is_some() {
            let mut tmp = self.clone();
            tmp.state = other;
            tmp.close();
            other = tmp.state;
        }
        let s = &mut self.state;
        s.deals += other.deals;
        s.incomplete += other.incomplete;
        let merge = |into: &mut [IntMoments], from: &[IntMoments]| {
            for (a, b) in into.iter_mut().zip(from) {
                a.merge(b);
            }
        };
        merge(&mut s.agent_wins, &other.agent_wins);
        merge(&mut s.agent_scores, &other.agent_scores);
        merge(&mut s.seat_wins, &other.seat_wins);
        merge(&mut s.seat_scores, &other.seat_scores);
        s.totals.add(other.totals.parts());
    }

    /// The comparisons, agents (every pair, in lineup order; win rate, then mean score)
    /// then seats (seat 0 against each other seat), named by `agents` (labels of the
    /// distinct agents).
    pub fn rows(&self, agents: &[String]) -> Vec<PairedRow> {
        let mut rows = Vec::new();
        let (g, s) = (&self.games_per_deal, &self.seats_per_deal);
        let st = &self.state;
        let deals = st.deals as f64;
        let t = &st.totals;
        let mean = |total: i64, per: i64| total as f64 / (deals * per as f64);
        for (i, (a, b)) in pairs(g.len()).enumerate() {
            for (quantity, m, per, tot) in [
                ("win_rate", &st.agent_wins[i], g, &t.agent_wins),
                ("mean_score", &st.agent_scores[i], s, &t.agent_scores),
            ] {
                // Every entry holds every seat in a seating block, so both are positive.
                let scale = (per[a] * per[b]) as f64;
                debug_assert!(scale > 0.0, "an agent absent from a whole deal");
                let d = paired_difference_moments(m, scale);
                rows.push(PairedRow {
                    comparison: "agents",
                    a: agents[a].clone(),
                    b: agents[b].clone(),
                    quantity,
                    a_mean: mean(tot[a], per[a]),
                    b_mean: mean(tot[b], per[b]),
                    difference: d,
                });
            }
        }
        for seat in 1..self.players {
            for (quantity, m, tot) in [
                ("win_rate", &st.seat_wins[seat - 1], &t.seat_wins),
                ("mean_score", &st.seat_scores[seat - 1], &t.seat_scores),
            ] {
                let per = self.deal_len as i64;
                rows.push(PairedRow {
                    comparison: "seats",
                    a: "0".into(),
                    b: seat.to_string(),
                    quantity,
                    a_mean: mean(tot[0], per),
                    b_mean: mean(tot[seat], per),
                    difference: paired_difference_moments(m, per as f64),
                });
            }
        }
        rows
    }
}

/// Writes `paired.csv`: [`PAIRED_HEADER`], then [`PairedStats::rows`] (means and
/// differences over the complete deals; with no deals the means are NaN).
///
/// # Errors
/// The I/O error, if any.
pub fn write_paired_csv<W: Write>(
    out: W,
    stats: &PairedStats,
    rows: &[PairedRow],
) -> csv::Result<W> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(PAIRED_HEADER)?;
    for r in rows {
        w.write_record([
            r.comparison.to_string(),
            r.a.clone(),
            r.b.clone(),
            r.quantity.to_string(),
            stats.deals().to_string(),
            stats.deal_len().to_string(),
            f6(r.a_mean),
            f6(r.b_mean),
            f6(r.difference.estimate),
            f6(r.difference.low),
            f6(r.difference.high),
            format!("{:e}", r.difference.p_value),
            METHOD.to_string(),
        ])?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// The console lines of the paired comparisons: one per agent pair (win rate) and one per
/// seat against seat 0, e.g. `greedy − random win rate: +61.2 points [58.1, 64.3], p <
/// 0.001`.
pub fn render(stats: &PairedStats, rows: &[PairedRow]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\nPaired over {} deals of {} games (common random numbers; paired t interval over \
         deals; paired.csv){}",
        stats.deals(),
        stats.deal_len(),
        if stats.incomplete() > 0 {
            format!("; {} deals with a failed game left out", stats.incomplete())
        } else {
            String::new()
        }
    );
    for r in rows.iter().filter(|r| r.quantity == "win_rate") {
        let d = &r.difference;
        let (a, b) = if r.comparison == "seats" {
            (format!("seat {}", r.a), format!("seat {}", r.b))
        } else {
            (r.a.clone(), r.b.clone())
        };
        let _ = writeln!(
            s,
            "  {a} − {b} win rate: {} points [{}, {}], {}",
            signed(100.0 * d.estimate, 1),
            num(100.0 * d.low, 1),
            num(100.0 * d.high, 1),
            format_p(d.p_value)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;
    use crate::stats::difference::tests::{SLEEP_1, SLEEP_2, mean_sd};
    use crate::stats::mean_difference;
    #[test]
    fn paired_interval_matches_r_and_is_narrower_than_welch() {
        // t.test(extra ~ group, data = sleep, paired = TRUE): t = -4.0621, df = 9,
        // p-value = 0.002833, 95% CI [-2.4598858, -0.7001142].
        let diffs: Vec<f64> = SLEEP_1.iter().zip(&SLEEP_2).map(|(a, b)| a - b).collect();
        let d = paired_difference(&diffs);
        assert!(close(d.estimate, -1.58, 1e-12));
        assert!(close(d.low, -2.459_885_8, 1e-6) && close(d.high, -0.700_114_2, 1e-6));
        assert!(close(d.p_value, 0.002_833, 1e-6), "{}", d.p_value);
        let w = mean_difference(mean_sd(&SLEEP_1), mean_sd(&SLEEP_2));
        assert!(d.high - d.low < w.high - w.low);
        assert_eq!(paired_difference(&[1.0]).p_value, 1.0);
    }

    #[test]
    fn paired_moments_match_the_paired_interval_of_the_values() {
        // The sleep differences in tenths of an hour are integers.
        let diffs: Vec<f64> = SLEEP_1.iter().zip(&SLEEP_2).map(|(a, b)| a - b).collect();
        let mut m = IntMoments::new();
        for d in &diffs {
            m.push((d * 10.0).round() as i64);
        }
        let a = paired_difference(&diffs);
        let b = paired_difference_moments(&m, 10.0);
        assert!(close(a.estimate, b.estimate, 1e-12));
        assert!(close(a.low, b.low, 1e-9) && close(a.high, b.high, 1e-9));
        assert!(close(a.p_value, b.p_value, 1e-9));
        assert_eq!(b.method, PAIRED_METHOD);
    }

    fn outcome(index: u64, lineup: [u8; 2], scores: [i32; 2], ranks: [u8; 2]) -> Outcome {
        Outcome {
            index,
            lineup: [lineup[0], lineup[1], 0, 0],
            scores: [scores[0], scores[1], 0, 0],
            ranks: [ranks[0], ranks[1], 0, 0],
        }
    }

    /// Three deals of greedy (entry 0) and random (entry 1), worked by hand below.
    fn games() -> Vec<Outcome> {
        vec![
            // Deal 0: greedy wins in seat 0, random in seat 0: wins 1 - 1.
            outcome(0, [0, 1], [3, 1], [1, 2]),
            outcome(1, [1, 0], [2, 0], [1, 2]),
            // Deal 1: greedy wins both: 2 - 0.
            outcome(2, [0, 1], [5, 0], [1, 2]),
            outcome(3, [1, 0], [1, 4], [2, 1]),
            // Deal 2: a draw, then greedy wins in seat 1: 1 - 0.
            outcome(4, [0, 1], [2, 2], [1, 1]),
            outcome(5, [1, 0], [0, 3], [2, 1]),
        ]
    }

    /// Greedy (entry 0) and random (entry 1) at 2 seats: a deal of 2 games, `a b` then
    /// `b a` (the seating block of `sim tournament --paired`).
    fn empty() -> PairedStats {
        PairedStats::new(2, vec![0, 1], &[[0, 1, 0, 0], [1, 0, 0, 0]])
    }

    fn labels() -> Vec<String> {
        vec!["greedy".into(), "random".into()]
    }

    #[test]
    fn differences_per_deal_match_the_hand_computed_ones() {
        let mut p = empty();
        p.add(&games());
        p.close();
        assert_eq!((p.deals(), p.deal_len(), p.incomplete()), (3, 2, 0));
        let rows = p.rows(&labels());
        let get = |c: &str, q: &str| {
            rows.iter()
                .find(|r| r.comparison == c && r.quantity == q)
                .unwrap()
        };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        // Win rates per deal: greedy 1/2, 2/2, 1/2; random 1/2, 0, 0.
        let w = get("agents", "win_rate");
        let want = paired_difference(&[0.0, 1.0, 0.5]);
        assert!(close(w.difference.estimate, 0.5) && close(w.difference.low, want.low));
        assert!(close(w.difference.high, want.high) && close(w.difference.p_value, want.p_value));
        assert!(close(w.a_mean, 4.0 / 6.0) && close(w.b_mean, 1.0 / 6.0));
        // Mean score per seat: greedy 3/2, 9/2, 5/2; random 3/2, 1/2, 2/2.
        let s = get("agents", "mean_score");
        let want = paired_difference(&[0.0, 4.0, 1.5]);
        assert!(close(s.difference.estimate, want.estimate) && close(s.difference.low, want.low));
        assert!(close(s.a_mean, 17.0 / 6.0) && close(s.b_mean, 6.0 / 6.0));
        // Seat 0 minus seat 1 sole wins per deal: (2 - 0)/2, (1 - 1)/2, (0 - 1)/2.
        let seat = get("seats", "win_rate");
        let want = paired_difference(&[1.0, 0.0, -0.5]);
        assert!(close(seat.difference.estimate, want.estimate));
        assert!(close(seat.difference.low, want.low) && close(seat.difference.high, want.high));
        assert_eq!((seat.a.as_str(), seat.b.as_str()), ("0", "1"));
        // The CSV and the console name the method and the deals.
        let csv = String::from_utf8(write_paired_csv(Vec::new(), &p, &rows).unwrap()).unwrap();
        assert!(csv.starts_with(&PAIRED_HEADER.join(",")), "{csv}");
        assert!(
            csv.contains("agents,greedy,random,win_rate,3,2,0.666667,0.166667,0.500000"),
            "{csv}"
        );
        let text = render(&p, &rows);
        assert!(
            text.contains("Paired over 3 deals of 2 games")
                && text.contains("greedy − random win rate: +50.0 points"),
            "{text}"
        );
    }

    #[test]
    fn a_deal_split_by_a_checkpoint_or_a_failure_is_handled() {
        let all = games();
        let mut whole = empty();
        whole.add(&all);
        whole.close();
        // Saved after game 2 (mid deal 1), restored through JSON, continued.
        let mut first = empty();
        first.add(&all[..3]);
        let json = serde_json::to_string(&first.state()).unwrap();
        let mut resumed = empty();
        resumed
            .restore(serde_json::from_str(&json).unwrap())
            .unwrap();
        resumed.add(&all[3..]);
        resumed.close();
        assert_eq!(resumed, whole);
        // Two shards of whole deals merge to the same state.
        let mut a = empty();
        a.add(&all[..2]);
        a.close();
        let mut b = empty();
        b.add(&all[2..]);
        b.close();
        a.absorb_state(&b.state());
        assert_eq!(a, whole);
        // Game 3 failed: deal 1 is left out whole.
        let mut failed = empty();
        failed.add(&all[..3]);
        failed.add(&all[4..]);
        failed.close();
        assert_eq!((failed.deals(), failed.incomplete()), (2, 1));
        let w = failed.rows(&labels())[0].difference;
        assert!((w.estimate - 0.25).abs() < 1e-12, "{w:?}");
    }
}
