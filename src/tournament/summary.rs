//! Tournament statistics in O(agents × seats) memory, and the `summary.csv`, `seats.csv` and
//! `agent_seats.csv` tables.
//!
//! Only the agent × seat table of [`Tally`]s is accumulated: the runner's workers fill one
//! partial table per block of games, and the writer merges the blocks in index order
//! ([`Stats::absorb`]; Welford moments merge exactly up to rounding, Chan et al. 1979).
//! Per-agent and per-seat rows are merged from the cells in a fixed order. Block boundaries
//! do not depend on the thread count, so neither does any digit of the output.
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
//! Floats are written with 6 decimals.

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
    /// Combines another tally into this one (counts add; moments merge as in
    /// [`Welford::merge`]).
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.score.merge(&other.score);
        self.margin.merge(&other.margin);
    }

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

/// Maps each (lineup entry, seat) of a game to a cell of the agent × seat table: the one
/// table that is accumulated. Per-agent and per-seat figures are merged from its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellMap {
    players: usize,
    agents: usize,
    entry_to_distinct: Vec<usize>,
}

impl CellMap {
    /// The map for this lineup and player count.
    pub fn new(lineup: &Lineup, players: usize) -> Self {
        CellMap {
            players,
            agents: lineup.distinct().len(),
            entry_to_distinct: (0..lineup.len()).map(|e| lineup.distinct_of(e)).collect(),
        }
    }

    /// An empty agent × seat table (agent-major).
    pub fn empty(&self) -> Vec<Tally> {
        vec![Tally::default(); self.agents * self.players]
    }

    /// Adds one game's outcome to `cells` (a table from [`CellMap::empty`]).
    pub fn add(&self, cells: &mut [Tally], r: &GameRecord) {
        for seat in 0..r.players as usize {
            let a = self.entry_to_distinct[r.lineup[seat] as usize];
            cells[a * self.players + seat].add(r, seat);
        }
    }
}

/// All statistics of a tournament: an agent × seat table of [`Tally`]s, from which the
/// per-agent and per-seat rows are merged in a fixed order (so they are deterministic).
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Seats per game.
    pub players: usize,
    /// Games played so far.
    pub games: u64,
    /// The names of the distinct agents, the rows of [`Stats::by_agent`]: their canonical
    /// specs from [`Stats::new`]; the tournament runner renames them to the short labels of
    /// `agents.csv`.
    pub agents: Vec<String>,
    map: CellMap,
    cells: Vec<Tally>,
}

fn f6(x: f64) -> String {
    format!("{x:.6}")
}

fn merged<'a>(tallies: impl Iterator<Item = &'a Tally>) -> Tally {
    let mut t = Tally::default();
    for x in tallies {
        t.merge(x);
    }
    t
}

impl Stats {
    /// Empty statistics for this lineup and player count.
    pub fn new(lineup: &Lineup, players: usize) -> Self {
        let map = CellMap::new(lineup, players);
        Stats {
            players,
            games: 0,
            agents: lineup.distinct().to_vec(),
            cells: map.empty(),
            map,
        }
    }

    /// The cell map, for accumulating partial tables elsewhere (the runner's workers).
    pub fn cell_map(&self) -> &CellMap {
        &self.map
    }

    /// Adds one game's outcome.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        self.map.add(&mut self.cells, r);
    }

    /// Adds a partial table of `games` games, accumulated with [`CellMap::add`] from
    /// [`Stats::cell_map`]. Absorbing the partial tables of consecutive blocks in order
    /// always gives the same result.
    pub fn absorb(&mut self, games: u64, cells: &[Tally]) {
        self.games += games;
        for (c, x) in self.cells.iter_mut().zip(cells) {
            c.merge(x);
        }
    }

    /// The tally of agent `agent` (distinct index) in seat `seat`.
    pub fn agent_seat(&self, agent: usize, seat: usize) -> &Tally {
        &self.cells[agent * self.players + seat]
    }

    /// One tally per distinct agent (all its seats merged, seat 0 first).
    pub fn by_agent(&self) -> Vec<Tally> {
        (0..self.agents.len())
            .map(|a| merged((0..self.players).map(|s| self.agent_seat(a, s))))
            .collect()
    }

    /// One tally per seat (all agents merged, in lineup order).
    pub fn by_seat(&self) -> Vec<Tally> {
        (0..self.players)
            .map(|s| merged((0..self.agents.len()).map(|a| self.agent_seat(a, s))))
            .collect()
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
        for (name, t) in self.agents.iter().zip(&self.by_agent()) {
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
        for (seat, t) in self.by_seat().iter().enumerate() {
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
            .zip(&self.by_agent())
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
            .by_seat()
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
        let by_agent = st.by_agent();
        let by_seat = st.by_seat();
        let r = &by_agent[0];
        assert_eq!((r.games, r.wins, r.draws, r.losses()), (3, 1, 1, 1));
        assert!((r.margin.mean() - (3.0 + 0.0 - 6.0) / 3.0).abs() < 1e-12);
        assert!((r.score.mean() - 17.0 / 3.0).abs() < 1e-12);
        let s0 = &by_seat[0];
        assert_eq!((s0.games, s0.wins, s0.draws), (3, 1, 1));
        let s1 = &by_seat[1];
        assert_eq!((s1.games, s1.wins, s1.draws), (3, 1, 1));
        assert_eq!(st.agent_seat(1, 1).wins, 1);
        assert_eq!(st.agent_seat(1, 0).games, 1);
        assert_eq!(st.agent_seat(0, 0).games, 2);
        // Seat-games add up.
        let total: u64 = by_agent.iter().map(|t| t.games).sum();
        assert_eq!(total, 3 * 2);
    }

    #[test]
    fn absorbing_partial_tables_equals_adding_games() {
        let lineup = Lineup::new(&["random", "greedy"]).unwrap();
        let games: Vec<GameRecord> = (0..10)
            .map(|i| {
                let (a, b) = ((i * 7 % 5) as i32, (i * 3 % 4) as i32);
                let ranks = crate::game::ranks_by_key(&[a, b, 0, 0], 2);
                rec(
                    i,
                    [(i % 2) as u8, ((i + 1) % 2) as u8, 0, 0],
                    [a, b, 0, 0],
                    ranks,
                )
            })
            .collect();
        let mut one = Stats::new(&lineup, 2);
        games.iter().for_each(|r| one.add(r));
        let mut blocks = Stats::new(&lineup, 2);
        for part in games.chunks(3) {
            let mut cells = blocks.cell_map().empty();
            part.iter()
                .for_each(|r| blocks.cell_map().add(&mut cells, r));
            blocks.absorb(part.len() as u64, &cells);
        }
        assert_eq!(one.games, blocks.games);
        for (x, y) in one.by_agent().iter().zip(&blocks.by_agent()) {
            assert_eq!((x.games, x.wins, x.draws), (y.games, y.wins, y.draws));
            assert!((x.score.mean() - y.score.mean()).abs() < 1e-12);
            assert!((x.margin.sd() - y.margin.sd()).abs() < 1e-12);
        }
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
