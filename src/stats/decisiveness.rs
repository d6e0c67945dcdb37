//! Decisiveness and lead-change tallies (Browne 2008, *Automatic Generation and Evaluation
//! of Recombination Games*, the "decisiveness" and "lead change" criteria), and their
//! tables `decisiveness.csv` and `lead_changes.csv`.
//!
//! A game is given to [`Decisiveness::add_game`] as the sequence of its leaders after each
//! round but the last ([`NO_LEADER`] where the highest running score is tied), its number
//! of rounds and its final ranks. How the runner finds the leaders is documented in
//! [`crate::tournament::decisiveness`].
//!
//! - **Decisiveness**: for every point of the game, among the games that had a leader
//!   there, the fraction in which that leader wins (the only seat ranked first), with a
//!   Wilson interval (Wilson 1927). Two kinds of points: `round` r, after round r; and
//!   `percent` q (10, 20, ..., 90), after round `floor(q R / 100)` of a game of R rounds,
//!   which compares games of different lengths. Points before the end of round 1 are
//!   skipped. A lead that says nothing about the result wins a seat's share,
//!   `1 / players`.
//! - **Lead changes**: the number of times the leader differs from the previous leader in
//!   the sequence of leaders after rounds 1, 2, ..., R − 1 and the winner, skipping the
//!   points without a leader.
//!
//! Every tally is an integer, so blocks, shards and a resumed run add up to exactly the
//! same tables.

use std::fmt::Write as _;
use std::io::Write;

use serde::{Deserialize, Serialize};

use super::{Z95, wilson};
use crate::format::{f6, pct, rate_ci};

/// The code of "no leader" in a trace of leaders (the highest running score is tied).
pub const NO_LEADER: u8 = u8::MAX;

/// The `percent` points: after 10%, 20%, ..., 90% of a game's rounds.
pub const PERCENTS: [u32; 9] = [10, 20, 30, 40, 50, 60, 70, 80, 90];

/// Columns of `decisiveness.csv`.
pub const DECISIVENESS_HEADER: [&str; 9] = [
    "basis",
    "point",
    "games",
    "with_leader",
    "leader_wins",
    "leader_draws",
    "leader_win_rate",
    "ci_low",
    "ci_high",
];

/// Columns of `lead_changes.csv`.
pub const LEAD_CHANGES_HEADER: [&str; 3] = ["lead_changes", "games", "fraction"];

/// The seat with the strictly highest of `scores[..players]`, or [`NO_LEADER`] on a tie.
///
/// # Panics
/// If `scores` has fewer than `players` values.
pub fn leader(scores: &[i32], players: usize) -> u8 {
    let mut best = 0;
    let mut tied = false;
    for s in 1..players {
        if scores[s] > scores[best] {
            (best, tied) = (s, false);
        } else if scores[s] == scores[best] {
            tied = true;
        }
    }
    if tied { NO_LEADER } else { best as u8 }
}

/// The tally of one point of the game (`round` r or `percent` q).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    /// Games that reached this point.
    pub games: u64,
    /// Of those, games with a leader here.
    pub with_leader: u64,
    /// Of those, games the leader won (the only seat ranked first).
    pub leader_wins: u64,
    /// Of those, games where the leader shared first place.
    pub leader_draws: u64,
}

impl Point {
    fn add(&mut self, leader: u8, ranks: &[u8], firsts: usize) {
        self.games += 1;
        if leader != NO_LEADER {
            self.with_leader += 1;
            if ranks[leader as usize] == 1 {
                if firsts == 1 {
                    self.leader_wins += 1;
                } else {
                    self.leader_draws += 1;
                }
            }
        }
    }

    fn merge(&mut self, other: &Point) {
        self.games += other.games;
        self.with_leader += other.with_leader;
        self.leader_wins += other.leader_wins;
        self.leader_draws += other.leader_draws;
    }

    /// The fraction of the games with a leader that the leader won (NaN with none).
    pub fn win_rate(&self) -> f64 {
        self.leader_wins as f64 / self.with_leader as f64
    }

    /// The 95% Wilson interval of [`Point::win_rate`].
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.leader_wins, self.with_leader, Z95)
    }
}

/// Decisiveness and lead-change tallies of a run (see the module docs). Serializes
/// exactly (checkpoints).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decisiveness {
    /// Index r − 1: the point after round r.
    pub by_round: Vec<Point>,
    /// Index i: the point after [`PERCENTS`]`[i]`% of the rounds.
    pub by_percent: [Point; PERCENTS.len()],
    /// Index c: the games with c lead changes.
    pub lead_changes: Vec<u64>,
}

/// One row of `decisiveness.csv`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecisivenessRow {
    /// `round` or `percent`.
    pub basis: &'static str,
    /// The round number, or the percentage of the game's rounds.
    pub point: u32,
    /// The tally.
    pub tally: Point,
}

impl Decisiveness {
    /// Empties the tallies, keeping their memory.
    pub fn clear(&mut self) {
        self.by_round.clear();
        self.by_percent = Default::default();
        self.lead_changes.clear();
    }

    /// Adds a finished game of `rounds` rounds (the game's round counter at its end) whose leaders
    /// after its rounds before the last are `leaders` ([`crate::tournament::decisiveness::Trace::leaders`]) and whose final
    /// ranks over `players` seats are `ranks`. Allocates only when a game is longer, or has
    /// more lead changes, than every game before.
    pub fn add_game(&mut self, leaders: &[u8], rounds: u32, ranks: &[u8], players: usize) {
        let firsts = ranks[..players].iter().filter(|&&r| r == 1).count();
        if self.by_round.len() < leaders.len() {
            self.by_round.resize(leaders.len(), Point::default());
        }
        for (p, &l) in self.by_round.iter_mut().zip(leaders) {
            p.add(l, ranks, firsts);
        }
        for (p, q) in self.by_percent.iter_mut().zip(PERCENTS) {
            let r = (q as u64 * u64::from(rounds) / 100) as usize;
            if r >= 1
                && let Some(&l) = leaders.get(r - 1)
            {
                p.add(l, ranks, firsts);
            }
        }
        let winner = if firsts == 1 {
            ranks[..players].iter().position(|&r| r == 1).unwrap_or(0) as u8
        } else {
            NO_LEADER
        };
        let mut changes = 0;
        let mut last = NO_LEADER;
        for &l in leaders.iter().chain(std::iter::once(&winner)) {
            if l != NO_LEADER {
                if last != NO_LEADER && l != last {
                    changes += 1;
                }
                last = l;
            }
        }
        if self.lead_changes.len() <= changes {
            self.lead_changes.resize(changes + 1, 0);
        }
        self.lead_changes[changes] += 1;
    }

    /// Adds the tallies of `other` (a later block, shard or checkpoint).
    pub fn merge(&mut self, other: &Decisiveness) {
        if self.by_round.len() < other.by_round.len() {
            self.by_round.resize(other.by_round.len(), Point::default());
        }
        for (p, o) in self.by_round.iter_mut().zip(&other.by_round) {
            p.merge(o);
        }
        for (p, o) in self.by_percent.iter_mut().zip(&other.by_percent) {
            p.merge(o);
        }
        if self.lead_changes.len() < other.lead_changes.len() {
            self.lead_changes.resize(other.lead_changes.len(), 0);
        }
        for (c, o) in self.lead_changes.iter_mut().zip(&other.lead_changes) {
            *c += o;
        }
    }

    /// The rows of `decisiveness.csv`: the `percent` points, then every round that some
    /// game finished before its last.
    pub fn rows(&self) -> Vec<DecisivenessRow> {
        let percent = PERCENTS
            .iter()
            .zip(&self.by_percent)
            .map(|(&q, &t)| DecisivenessRow {
                basis: "percent",
                point: q,
                tally: t,
            });
        let round = self
            .by_round
            .iter()
            .enumerate()
            .map(|(i, &t)| DecisivenessRow {
                basis: "round",
                point: i as u32 + 1,
                tally: t,
            });
        percent.chain(round).collect()
    }

    /// Games tallied (every game has a number of lead changes).
    pub fn games(&self) -> u64 {
        self.lead_changes.iter().sum()
    }

    /// The mean number of lead changes per game, its sample standard deviation and the
    /// normal 95% interval of the mean, `mean ± 1.96 sd / sqrt(games)`; NaN with no games.
    pub fn mean_lead_changes(&self) -> (f64, f64, (f64, f64)) {
        let mut m = crate::stats::IntMoments::new();
        for (c, &k) in self.lead_changes.iter().enumerate() {
            m.push_n(c as i64, k);
        }
        if m.count() == 0 {
            return (f64::NAN, 0.0, (f64::NAN, f64::NAN));
        }
        (m.mean(), m.sd(), m.mean_interval(Z95))
    }

    /// Writes `decisiveness.csv`: [`DECISIVENESS_HEADER`], then [`Decisiveness::rows`]
    /// (the win rate and interval blank at a point without a leader in any game).
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_decisiveness_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(DECISIVENESS_HEADER)?;
        for r in self.rows() {
            let t = &r.tally;
            let (rate, lo, hi) = if t.with_leader == 0 {
                (String::new(), String::new(), String::new())
            } else {
                let (lo, hi) = t.interval();
                (f6(t.win_rate()), f6(lo), f6(hi))
            };
            w.write_record([
                r.basis.to_string(),
                r.point.to_string(),
                t.games.to_string(),
                t.with_leader.to_string(),
                t.leader_wins.to_string(),
                t.leader_draws.to_string(),
                rate,
                lo,
                hi,
            ])?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// Writes `lead_changes.csv`: [`LEAD_CHANGES_HEADER`], then one row per number of lead
    /// changes from 0 to the most seen, with its games and their fraction of all games.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_lead_changes_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(LEAD_CHANGES_HEADER)?;
        let games = self.games() as f64;
        for (c, &n) in self.lead_changes.iter().enumerate() {
            w.write_record([c.to_string(), n.to_string(), f6(n as f64 / games)])?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// The console lines: the leader's win rate after 20%, 50% and 80% of the rounds
    /// (against a seat's share, `1 / players`) and the mean lead changes per game.
    pub fn render(&self, players: usize) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "\nDecisiveness over {} games (the leader by running score after a share of the \
             rounds; a seat's share is {}; decisiveness.csv, lead_changes.csv)",
            self.games(),
            pct(1.0 / players as f64)
        );
        for (i, q) in PERCENTS.iter().enumerate() {
            if ![20, 50, 80].contains(q) {
                continue;
            }
            let t = &self.by_percent[i];
            if t.with_leader == 0 {
                let _ = writeln!(s, "  after {q}% of the rounds: no game had a leader");
                continue;
            }
            let (lo, hi) = t.interval();
            let _ = writeln!(
                s,
                "  after {q}% of the rounds the leader wins {} of {} games",
                rate_ci(t.win_rate(), lo, hi),
                t.with_leader
            );
        }
        let (mean, sd, (lo, hi)) = self.mean_lead_changes();
        let _ = writeln!(
            s,
            "  lead changes per game: mean {mean:.2} [{lo:.2}, {hi:.2}], sd {sd:.2}; none in \
             {} of games",
            pct(self.lead_changes.first().copied().unwrap_or(0) as f64 / self.games() as f64)
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: u8 = NO_LEADER;

    #[test]
    fn the_leader_is_the_strict_maximum() {
        assert_eq!(leader(&[3, 1, 0, 9], 2), 0);
        assert_eq!(leader(&[3, 5, 0, 9], 3), 1);
        assert_eq!(leader(&[5, 5, 0, 0], 2), N);
        assert_eq!(leader(&[1, 5, 5, 0], 3), N);
        assert_eq!(leader(&[1, 5, 5, 7], 4), 3);
        // A tie below the maximum does not matter.
        assert_eq!(leader(&[1, 1, 5, 0], 3), 2);
    }

    #[test]
    fn a_game_is_tallied_by_round_by_percent_and_by_lead_changes() {
        let mut d = Decisiveness::default();
        // 5 rounds; leaders after rounds 1-4: seat 0, seat 1, tie, seat 1; seat 1 wins alone.
        d.add_game(&[0, 1, N, 1], 5, &[2, 1, 3, 0], 3);
        let won = |p: &Point| (p.games, p.with_leader, p.leader_wins, p.leader_draws);
        assert_eq!(
            d.by_round.iter().map(won).collect::<Vec<_>>(),
            [(1, 1, 0, 0), (1, 1, 1, 0), (1, 0, 0, 0), (1, 1, 1, 0)]
        );
        // floor(q * 5 / 100): 10% is round 0 (skipped), 20-30% round 1, 40-50% round 2,
        // 60-70% round 3 (no leader), 80-90% round 4.
        assert_eq!(
            d.by_percent.iter().map(won).collect::<Vec<_>>(),
            [
                (0, 0, 0, 0),
                (1, 1, 0, 0),
                (1, 1, 0, 0),
                (1, 1, 1, 0),
                (1, 1, 1, 0),
                (1, 0, 0, 0),
                (1, 0, 0, 0),
                (1, 1, 1, 0),
                (1, 1, 1, 0),
            ]
        );
        // 0 -> 1 (the tie skipped, 1 -> 1 is no change), then the winner 1: one change.
        assert_eq!(d.lead_changes, [0, 1]);
        // The winner overtaking in the last round counts: 0, 0, then seat 2 wins.
        d.add_game(&[0, 0], 3, &[2, 3, 1, 0], 3);
        assert_eq!(d.lead_changes, [0, 2]);
        // Leading throughout: no change.
        d.add_game(&[2, 2, 2], 4, &[2, 3, 1, 0], 3);
        assert_eq!(d.lead_changes, [1, 2]);
        assert_eq!(d.games(), 3);
        // Round 1 over the three games: leaders 0, 0, 2; only the last won.
        assert_eq!(won(&d.by_round[0]), (3, 3, 1, 0));
        assert_eq!(d.by_round.len(), 4);
    }

    #[test]
    fn merging_blocks_gives_the_tally_of_all_games() {
        let games: [(&[u8], u32, [u8; 4]); 4] = [
            (&[0, 1, N, 1], 5, [2, 1, 3, 0]),
            (&[1], 2, [1, 1, 0, 0]),
            (&[], 1, [1, 2, 0, 0]),
            (&[2, 2, 0, 1, 1, 1, 0], 8, [3, 2, 1, 4]),
        ];
        let mut all = Decisiveness::default();
        for (l, r, ranks) in games {
            all.add_game(l, r, &ranks, 4);
        }
        for split in 0..=games.len() {
            let (mut a, mut b) = (Decisiveness::default(), Decisiveness::default());
            for (l, r, ranks) in &games[..split] {
                a.add_game(l, *r, ranks, 4);
            }
            for (l, r, ranks) in &games[split..] {
                b.add_game(l, *r, ranks, 4);
            }
            a.merge(&b);
            assert_eq!(a, all, "split at {split}");
        }
        let mut c = all.clone();
        c.clear();
        assert_eq!(c, Decisiveness::default());
    }

    #[test]
    fn mean_lead_changes_by_hand() {
        // Values 0, 1, 1, 2: mean 1, sample variance 2/3.
        let d = Decisiveness {
            lead_changes: vec![1, 2, 1],
            ..Decisiveness::default()
        };
        let (mean, sd, (lo, hi)) = d.mean_lead_changes();
        assert_eq!(mean, 1.0);
        assert!((sd - (2.0f64 / 3.0).sqrt()).abs() < 1e-12);
        let half = Z95 * sd / 2.0;
        assert!((lo - (1.0 - half)).abs() < 1e-9 && (hi - (1.0 + half)).abs() < 1e-9);
    }

    #[test]
    fn the_csv_files_have_their_headers_and_blank_rates_without_a_leader() {
        let mut d = Decisiveness::default();
        d.add_game(&[0, N], 3, &[1, 2, 0, 0], 2);
        let text = String::from_utf8(d.write_decisiveness_csv(Vec::new()).unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], DECISIVENESS_HEADER.join(","));
        // 9 percent rows, then rounds 1 and 2.
        assert_eq!(lines.len(), 1 + 9 + 2);
        // Wilson for 1 of 1: low = 1 / (1 + z²) = 0.206549 at z = 1.959964.
        assert_eq!(lines[10], "round,1,1,1,1,0,1.000000,0.206549,1.000000");
        assert_eq!(lines[11], "round,2,1,0,0,0,,,");
        let text = String::from_utf8(d.write_lead_changes_csv(Vec::new()).unwrap()).unwrap();
        assert_eq!(text, "lead_changes,games,fraction\n0,1,1.000000\n");
    }
}
