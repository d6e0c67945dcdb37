//! Tournament statistics, accumulated game by game in index order (O(agents × seats)
//! memory), and the `summary.csv`, `seats.csv` and `agent_seats.csv` tables.
//!
//! Definitions (per seat of a game):
//! - *win*: the seat alone has rank 1; *draw*: it shares rank 1; *loss*: anything else.
//! - *win rate* = wins / games, with a 95% Wilson score interval ([`crate::stats::wilson`]).
//!   Draws are not counted as half wins; they are reported separately.
//! - *margin* = own score minus the best score among the other seats (positive = ahead).
//!
//! When an agent holds several seats of one game (fewer agents than seats, or self-play such
//! as `random,random`), each seat it holds counts as one game for it: `games` in
//! `summary.csv` counts (game, seat) pairs. Its expected win rate against equal opponents is
//! then still `1/players` (with no draws).
//!
//! `summary.csv` columns: `agent, games, wins, draws, losses, win_rate, ci_low, ci_high,
//! mean_score, sd_score, mean_margin` (`sd_score` is the sample standard deviation).
//!
//! `seats.csv` columns: `seat, games, wins, draws, win_rate, ci_low, ci_high,
//! expected_win_rate, mean_score`, where `expected_win_rate = 1/players` is the reference
//! rate if all seats were equal and there were no draws: a seat whose interval excludes it
//! has a measurable advantage or handicap.
//!
//! `agent_seats.csv` columns: `agent, seat, games, wins, draws, win_rate, ci_low, ci_high,
//! mean_score, mean_margin`: each agent's results from each seat.
//!
//! Floats are written with 6 decimals; the accumulation order is the game order, so the
//! files are byte-identical for any thread count.

use std::fmt::Write as _;
use std::io::Write;

use super::plan::Lineup;
use super::records::GameRecord;
use crate::stats::{Welford, Z95, wilson};

/// Counts and running moments for one agent, one seat, or one (agent, seat) pair.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games (seat-games) played.
    pub games: u64,
    /// Outright wins.
    pub wins: u64,
    /// Shared first places.
    pub draws: u64,
    /// Final scores.
    pub score: Welford,
    /// Final margins (own score minus best other score).
    pub margin: Welford,
}

impl Tally {
    fn add(&mut self, r: &GameRecord, seat: usize) {
        self.games += 1;
        self.wins += r.won(seat) as u64;
        self.draws += r.drew(seat) as u64;
        self.score.push(r.scores[seat] as f64);
        self.margin.push(r.margin(seat) as f64);
    }

    /// Games neither won nor drawn.
    pub fn losses(&self) -> u64 {
        self.games - self.wins - self.draws
    }

    /// Wins / games (0 with no games).
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// The 95% Wilson interval of the win rate.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins, self.games, Z95)
    }
}

/// All statistics of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Seats per game.
    pub players: usize,
    /// Games played so far.
    pub games: u64,
    /// The distinct agents (canonical specs), the row labels of [`Stats::by_agent`].
    pub agents: Vec<String>,
    /// One tally per distinct agent.
    pub by_agent: Vec<Tally>,
    /// One tally per seat.
    pub by_seat: Vec<Tally>,
    /// One tally per (agent, seat), agent-major: index `agent * players + seat`.
    pub by_agent_seat: Vec<Tally>,
    entry_to_distinct: Vec<usize>,
}

fn f6(x: f64) -> String {
    format!("{x:.6}")
}

impl Stats {
    /// Empty statistics for this lineup and player count.
    pub fn new(lineup: &Lineup, players: usize) -> Self {
        let d = lineup.distinct().len();
        Stats {
            players,
            games: 0,
            agents: lineup.distinct().to_vec(),
            by_agent: vec![Tally::default(); d],
            by_seat: vec![Tally::default(); players],
            by_agent_seat: vec![Tally::default(); d * players],
            entry_to_distinct: (0..lineup.len()).map(|e| lineup.distinct_of(e)).collect(),
        }
    }

    /// Adds one game's outcome.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        for seat in 0..r.players as usize {
            let a = self.entry_to_distinct[r.lineup[seat] as usize];
            self.by_agent[a].add(r, seat);
            self.by_seat[seat].add(r, seat);
            self.by_agent_seat[a * self.players + seat].add(r, seat);
        }
    }

    /// The tally of agent `agent` (distinct index) in seat `seat`.
    pub fn agent_seat(&self, agent: usize, seat: usize) -> &Tally {
        &self.by_agent_seat[agent * self.players + seat]
    }

    /// Writes `summary.csv`.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_summary_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record([
            "agent",
            "games",
            "wins",
            "draws",
            "losses",
            "win_rate",
            "ci_low",
            "ci_high",
            "mean_score",
            "sd_score",
            "mean_margin",
        ])?;
        for (name, t) in self.agents.iter().zip(&self.by_agent) {
            let (lo, hi) = t.interval();
            w.write_record([
                name.clone(),
                t.games.to_string(),
                t.wins.to_string(),
                t.draws.to_string(),
                t.losses().to_string(),
                f6(t.win_rate()),
                f6(lo),
                f6(hi),
                f6(t.score.mean()),
                f6(t.score.sd()),
                f6(t.margin.mean()),
            ])?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// Writes `seats.csv`.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_seats_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record([
            "seat",
            "games",
            "wins",
            "draws",
            "win_rate",
            "ci_low",
            "ci_high",
            "expected_win_rate",
            "mean_score",
        ])?;
        for (seat, t) in self.by_seat.iter().enumerate() {
            let (lo, hi) = t.interval();
            w.write_record([
                seat.to_string(),
                t.games.to_string(),
                t.wins.to_string(),
                t.draws.to_string(),
                f6(t.win_rate()),
                f6(lo),
                f6(hi),
                f6(1.0 / self.players as f64),
                f6(t.score.mean()),
            ])?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// Writes `agent_seats.csv`.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_agent_seats_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record([
            "agent",
            "seat",
            "games",
            "wins",
            "draws",
            "win_rate",
            "ci_low",
            "ci_high",
            "mean_score",
            "mean_margin",
        ])?;
        for (a, name) in self.agents.iter().enumerate() {
            for seat in 0..self.players {
                let t = self.agent_seat(a, seat);
                let (lo, hi) = t.interval();
                w.write_record([
                    name.clone(),
                    seat.to_string(),
                    t.games.to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    f6(t.win_rate()),
                    f6(lo),
                    f6(hi),
                    f6(t.score.mean()),
                    f6(t.margin.mean()),
                ])?;
            }
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// The human-readable summary printed by `sim tournament`: per agent, per seat and per
    /// (agent, seat), win rates with 95% Wilson intervals, draws, mean score and margin.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let ci = |t: &Tally| {
            let (lo, hi) = t.interval();
            format!("[{lo:.4}, {hi:.4}]")
        };
        let rows: Vec<Vec<String>> = self
            .agents
            .iter()
            .zip(&self.by_agent)
            .map(|(name, t)| {
                vec![
                    name.clone(),
                    t.games.to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    t.losses().to_string(),
                    format!("{:.4}", t.win_rate()),
                    ci(t),
                    format!("{:.3}", t.score.mean()),
                    format!("{:.3}", t.score.sd()),
                    format!("{:+.3}", t.margin.mean()),
                ]
            })
            .collect();
        let _ = writeln!(s, "Agents (win = sole first place; 95% Wilson intervals)");
        s += &table(
            &[
                "agent",
                "games",
                "wins",
                "draws",
                "losses",
                "win rate",
                "95% CI",
                "mean score",
                "sd score",
                "mean margin",
            ],
            &rows,
        );
        let expected = 1.0 / self.players as f64;
        let rows: Vec<Vec<String>> = self
            .by_seat
            .iter()
            .enumerate()
            .map(|(seat, t)| {
                vec![
                    seat.to_string(),
                    t.games.to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    format!("{:.4}", t.win_rate()),
                    ci(t),
                    format!("{:.3}", t.score.mean()),
                ]
            })
            .collect();
        let _ = writeln!(
            s,
            "\nSeats (equal seats without draws would win {expected:.4} each)"
        );
        s += &table(
            &[
                "seat",
                "games",
                "wins",
                "draws",
                "win rate",
                "95% CI",
                "mean score",
            ],
            &rows,
        );
        let mut rows = Vec::new();
        for (a, name) in self.agents.iter().enumerate() {
            for seat in 0..self.players {
                let t = self.agent_seat(a, seat);
                rows.push(vec![
                    name.clone(),
                    seat.to_string(),
                    t.games.to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    format!("{:.4}", t.win_rate()),
                    ci(t),
                    format!("{:+.3}", t.margin.mean()),
                ]);
            }
        }
        let _ = writeln!(s, "\nAgent by seat");
        s += &table(
            &[
                "agent",
                "seat",
                "games",
                "wins",
                "draws",
                "win rate",
                "95% CI",
                "mean margin",
            ],
            &rows,
        );
        s
    }
}

/// A plain-text table: the first column left-aligned, the others right-aligned.
fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut l = String::new();
        for (i, (c, w)) in cells.zip(&widths).enumerate() {
            if i == 0 {
                let _ = write!(l, "{c:<w$}");
            } else {
                let _ = write!(l, "  {c:>w$}");
            }
        }
        out += l.trim_end();
        out.push('\n');
    };
    line(&mut headers.iter().copied());
    for r in rows {
        line(&mut r.iter().map(String::as_str));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(index: u64, lineup: [u8; 4], scores: [i32; 4], ranks: [u8; 4]) -> GameRecord {
        GameRecord {
            index,
            seed: 0,
            players: 2,
            lineup,
            scores,
            ranks,
            plies: 1,
            rounds: 1,
            end: "x",
        }
    }

    #[test]
    fn tallies_by_agent_seat_and_pair() {
        let lineup = Lineup::new(&["random", "greedy"]).unwrap();
        let mut st = Stats::new(&lineup, 2);
        st.add(&rec(0, [0, 1, 0, 0], [10, 7, 0, 0], [1, 2, 0, 0])); // random wins from seat 0
        st.add(&rec(1, [1, 0, 0, 0], [4, 4, 0, 0], [1, 1, 0, 0])); // draw
        st.add(&rec(2, [0, 1, 0, 0], [3, 9, 0, 0], [2, 1, 0, 0])); // greedy wins from seat 1
        assert_eq!(st.games, 3);
        let r = &st.by_agent[0];
        assert_eq!((r.games, r.wins, r.draws, r.losses()), (3, 1, 1, 1));
        assert!((r.margin.mean() - (3.0 + 0.0 - 6.0) / 3.0).abs() < 1e-12);
        assert!((r.score.mean() - 17.0 / 3.0).abs() < 1e-12);
        let s0 = &st.by_seat[0];
        assert_eq!((s0.games, s0.wins, s0.draws), (3, 1, 1));
        let s1 = &st.by_seat[1];
        assert_eq!((s1.games, s1.wins, s1.draws), (3, 1, 1));
        assert_eq!(st.agent_seat(1, 1).wins, 1);
        assert_eq!(st.agent_seat(1, 0).games, 1);
        assert_eq!(st.agent_seat(0, 0).games, 2);
        // Seat-games add up.
        let total: u64 = st.by_agent.iter().map(|t| t.games).sum();
        assert_eq!(total, 3 * 2);
    }

    #[test]
    fn csv_tables_have_the_documented_columns() {
        let lineup = Lineup::new(&["random", "random"]).unwrap();
        let mut st = Stats::new(&lineup, 2);
        st.add(&rec(0, [0, 1, 0, 0], [8, 2, 0, 0], [1, 2, 0, 0]));
        let text = String::from_utf8(st.write_summary_csv(Vec::new()).unwrap()).unwrap();
        assert_eq!(
            text,
            "agent,games,wins,draws,losses,win_rate,ci_low,ci_high,mean_score,sd_score,mean_margin\n\
             random,2,1,0,1,0.500000,0.094531,0.905469,5.000000,4.242641,0.000000\n"
        );
        let text = String::from_utf8(st.write_seats_csv(Vec::new()).unwrap()).unwrap();
        assert!(text.starts_with(
            "seat,games,wins,draws,win_rate,ci_low,ci_high,expected_win_rate,mean_score\n\
             0,1,1,0,1.000000,0.206549,1.000000,0.500000,8.000000\n"
        ));
        let text = String::from_utf8(st.write_agent_seats_csv(Vec::new()).unwrap()).unwrap();
        assert_eq!(text.lines().count(), 3);
        let shown = st.render();
        assert!(
            shown.contains("random") && shown.contains("[0.0945, 0.9055]"),
            "{shown}"
        );
    }
}
