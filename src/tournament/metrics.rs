//! Metric statistics (`metrics.csv`) and end conditions (`ends.csv`) of a tournament, in
//! O(agents × metrics) memory.
//!
//! Every seat-game adds its score and each of its seat metrics
//! ([`Measured::SEAT_METRICS`](crate::game::Measured::SEAT_METRICS)) to one cell of exact integer moments
//! ([`IntMoments`]: count, sum, sum of squares) per (metric, agent, outcome), where the
//! outcome of a seat is `won` (it alone has rank 1), `draw` (it shares rank 1) or `lost`.
//! Rows pooling agents (`all`) or outcomes (`all`) are merged from the cells; integer
//! moments merge exactly, so no digit depends on the thread count or the order of games.
//! Every game adds its game metrics ([`Measured::GAME_METRICS`](crate::game::Measured::GAME_METRICS)), its plies and
//! rounds, and its end condition.
//!
//! `metrics.csv` columns: `metric, scope, agent, outcome, n, mean, sd, ci_low, ci_high`.
//! - `scope = seat`: `score` first, then the seat metrics in declaration order; for each,
//!   the agents in lineup order, then `all`; for each, the outcomes `all`, `won`, `draw`,
//!   `lost`. `n` counts seat-games. This answers "how do winners score their points?"
//!   (e.g. Daimyo's points by source for `won` against `lost`).
//! - `scope = game`: the game metrics, then `plies` and `rounds` (game length), with
//!   `agent = all`, `outcome = all`; `n` counts games.
//! - `mean` and `sd` (the sample standard deviation) of the values; `ci_low`/`ci_high` the
//!   normal-approximation 95% interval of the mean, `mean ± 1.96 sd / sqrt(n)` (a seat-game
//!   is the unit; seats of one game are not independent, so for seat rows the interval is
//!   somewhat too narrow when an agent holds several seats of a game). Empty cells (`n = 0`)
//!   leave `mean` to `ci_high` empty; `n = 1` leaves `sd` and the interval empty.
//!
//! `ends.csv` columns: `end, games, share, ci_low, ci_high, mean_plies, mean_rounds`: each
//! end condition ([`GameState::end_condition`](crate::game::GameState::end_condition), sorted by name), the games that
//! ended so, their share of all games with its 95% Wilson interval, and their mean length.

use std::io::Write;

use super::records::GameRecord;
use crate::format::f6;
use crate::stats::{IntMoments, Z95, wilson};

/// The outcomes of a seat-game, in the order of the `outcome` column after `all`.
pub const OUTCOMES: [&str; 3] = ["won", "draw", "lost"];

/// The `metrics.csv` header.
pub const METRICS_HEADER: [&str; 9] = [
    "metric", "scope", "agent", "outcome", "n", "mean", "sd", "ci_low", "ci_high",
];

/// The `ends.csv` header.
pub const ENDS_HEADER: [&str; 7] = [
    "end",
    "games",
    "share",
    "ci_low",
    "ci_high",
    "mean_plies",
    "mean_rounds",
];

/// The games that ended by one end condition.
/// (Deserialized in [`crate::tournament::checkpoint`].)
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct EndTally {
    /// The end condition ([`GameState::end_condition`](crate::game::GameState::end_condition)).
    pub end: &'static str,
    /// Games that ended so.
    pub games: u64,
    /// Their plies.
    pub plies: IntMoments,
    /// Their rounds.
    pub rounds: IntMoments,
}

/// The shape of the metric tallies: the metric names and the number of distinct agents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetricMap {
    agents: usize,
    seat_metrics: Vec<&'static str>,
    game_metrics: Vec<&'static str>,
}

/// Running moments per (metric, agent, outcome) and per game metric, and the end
/// conditions. Built by [`MetricMap::empty`], filled by [`MetricMap::add`].
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MetricTallies {
    /// `seat[(m * agents + a) * 3 + o]`: metric `m` (0 = score, then the seat metrics),
    /// distinct agent `a`, outcome `o` of [`OUTCOMES`].
    seat: Vec<IntMoments>,
    /// The game metrics (plies and rounds are pooled from `ends`).
    game: Vec<IntMoments>,
    /// End conditions in order of first appearance.
    ends: Vec<EndTally>,
}

impl MetricTallies {
    /// The numbers of seat and game moments (to check a checkpoint's shape).
    pub fn shape(&self) -> (usize, usize) {
        (self.seat.len(), self.game.len())
    }

    /// Adds `other` (the tallies of later games) to these.
    pub fn merge(&mut self, other: &MetricTallies) {
        for (c, x) in self.seat.iter_mut().zip(&other.seat) {
            c.merge(x);
        }
        for (c, x) in self.game.iter_mut().zip(&other.game) {
            c.merge(x);
        }
        for e in &other.ends {
            let t = end_tally(&mut self.ends, e.end);
            t.games += e.games;
            t.plies.merge(&e.plies);
            t.rounds.merge(&e.rounds);
        }
    }
}

fn end_tally<'a>(ends: &'a mut Vec<EndTally>, end: &'static str) -> &'a mut EndTally {
    // End conditions are usually the same `'static` text each game: compare the pointers
    // first, the bytes only when they differ.
    let i = match ends
        .iter()
        .position(|e| std::ptr::eq(e.end, end) || e.end == end)
    {
        Some(i) => i,
        None => {
            ends.push(EndTally {
                end,
                games: 0,
                plies: IntMoments::new(),
                rounds: IntMoments::new(),
            });
            ends.len() - 1
        }
    };
    &mut ends[i]
}

impl MetricMap {
    /// The map for `agents` distinct agents and these metric names.
    pub fn new(
        agents: usize,
        seat_metrics: &[&'static str],
        game_metrics: &[&'static str],
    ) -> Self {
        MetricMap {
            agents,
            seat_metrics: seat_metrics.to_vec(),
            game_metrics: game_metrics.to_vec(),
        }
    }

    /// Empty tallies of this shape.
    pub fn empty(&self) -> MetricTallies {
        let mut t = MetricTallies {
            seat: Vec::new(),
            game: Vec::new(),
            ends: Vec::new(),
        };
        self.reset(&mut t);
        t
    }

    /// Makes `t` empty tallies of this shape, reusing its memory.
    pub fn reset(&self, t: &mut MetricTallies) {
        t.seat.clear();
        t.seat.resize(
            (1 + self.seat_metrics.len()) * self.agents * 3,
            IntMoments::new(),
        );
        t.game.clear();
        t.game.resize(self.game_metrics.len(), IntMoments::new());
        t.ends.clear();
    }

    /// Adds one game; `agent_of[seat]` is the distinct agent of each seat. Allocates
    /// nothing, except an end condition the first time it is seen.
    pub fn add(&self, t: &mut MetricTallies, r: &GameRecord, agent_of: &[usize]) {
        let n = r.players as usize;
        let firsts = r.ranks[..n].iter().filter(|&&x| x == 1).count();
        let stride = self.agents * 3;
        for (seat, &agent) in agent_of.iter().enumerate().take(n) {
            let outcome = match (r.ranks[seat] == 1, firsts) {
                (true, 1) => 0,
                (true, _) => 1,
                _ => 2,
            };
            let base = agent * 3 + outcome;
            t.seat[base].push(i64::from(r.scores[seat]));
            for (m, &x) in r.metrics.seat[seat][..self.seat_metrics.len()]
                .iter()
                .enumerate()
            {
                t.seat[(m + 1) * stride + base].push(i64::from(x));
            }
        }
        let g = self.game_metrics.len();
        for (c, &x) in t.game.iter_mut().zip(&r.metrics.game[..g]) {
            c.push(i64::from(x));
        }
        let e = end_tally(&mut t.ends, r.end);
        e.games += 1;
        e.plies.push(i64::from(r.plies));
        e.rounds.push(i64::from(r.rounds));
    }

    /// The rows of `metrics.csv` (see the module docs), `agents` naming the distinct
    /// agents.
    pub fn rows(&self, t: &MetricTallies, agents: &[String]) -> Vec<MetricRow> {
        let mut rows = Vec::new();
        let stride = self.agents * 3;
        let names = std::iter::once("score").chain(self.seat_metrics.iter().copied());
        for (m, metric) in names.enumerate() {
            let cell = |a: usize, o: usize| &t.seat[m * stride + a * 3 + o];
            let mut pooled = [IntMoments::new(); 3];
            for (a, agent) in agents.iter().enumerate().take(self.agents) {
                let mut all = IntMoments::new();
                for (o, p) in pooled.iter_mut().enumerate() {
                    all.merge(cell(a, o));
                    p.merge(cell(a, o));
                }
                rows.push(MetricRow::new(metric, "seat", agent, "all", all));
                for (o, outcome) in OUTCOMES.iter().enumerate() {
                    rows.push(MetricRow::new(metric, "seat", agent, outcome, *cell(a, o)));
                }
            }
            let mut all = IntMoments::new();
            for p in &pooled {
                all.merge(p);
            }
            rows.push(MetricRow::new(metric, "seat", "all", "all", all));
            for (o, outcome) in OUTCOMES.iter().enumerate() {
                rows.push(MetricRow::new(metric, "seat", "all", outcome, pooled[o]));
            }
        }
        for (metric, w) in self.game_metrics.iter().zip(&t.game) {
            rows.push(MetricRow::new(metric, "game", "all", "all", *w));
        }
        let (mut plies, mut rounds) = (IntMoments::new(), IntMoments::new());
        for e in &t.ends {
            plies.merge(&e.plies);
            rounds.merge(&e.rounds);
        }
        rows.push(MetricRow::new("plies", "game", "all", "all", plies));
        rows.push(MetricRow::new("rounds", "game", "all", "all", rounds));
        rows
    }

    /// The end conditions, sorted by name.
    pub fn ends(&self, t: &MetricTallies) -> Vec<EndTally> {
        let mut ends = t.ends.clone();
        ends.sort_by(|a, b| a.end.cmp(b.end));
        ends
    }

    /// The names of the seat metrics.
    pub fn seat_metrics(&self) -> &[&'static str] {
        &self.seat_metrics
    }
}

/// One row of `metrics.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricRow {
    /// The metric's name (`score`, a declared metric, `plies`, `rounds`).
    pub metric: &'static str,
    /// `seat` or `game`.
    pub scope: &'static str,
    /// An agent's label or `all`.
    pub agent: String,
    /// `all`, `won`, `draw` or `lost`.
    pub outcome: &'static str,
    /// The values' moments.
    pub values: IntMoments,
}

impl MetricRow {
    fn new(
        metric: &'static str,
        scope: &'static str,
        agent: &str,
        outcome: &'static str,
        values: IntMoments,
    ) -> Self {
        MetricRow {
            metric,
            scope,
            agent: agent.to_string(),
            outcome,
            values,
        }
    }

    /// The normal-approximation 95% interval of the mean (`None` with fewer than 2 values).
    pub fn interval(&self) -> Option<(f64, f64)> {
        let n = self.values.count();
        (n >= 2).then(|| self.values.mean_interval(Z95))
    }
}

/// Writes `metrics.csv` from `rows` ([`MetricMap::rows`]).
///
/// # Errors
/// The I/O error, if any.
pub fn write_metrics_csv<W: Write>(out: W, rows: &[MetricRow]) -> csv::Result<W> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(METRICS_HEADER)?;
    for r in rows {
        let n = r.values.count();
        let mean = if n > 0 {
            f6(r.values.mean())
        } else {
            String::new()
        };
        let (sd, lo, hi) = match r.interval() {
            Some((lo, hi)) => (f6(r.values.sd()), f6(lo), f6(hi)),
            None => Default::default(),
        };
        w.write_record([
            r.metric,
            r.scope,
            &r.agent,
            r.outcome,
            &n.to_string(),
            &mean,
            &sd,
            &lo,
            &hi,
        ])?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// Writes `ends.csv` for `games` games from `ends` ([`MetricMap::ends`]).
///
/// # Errors
/// The I/O error, if any.
pub fn write_ends_csv<W: Write>(out: W, games: u64, ends: &[EndTally]) -> csv::Result<W> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(ENDS_HEADER)?;
    for e in ends {
        let (lo, hi) = wilson(e.games, games, Z95);
        w.write_record([
            e.end.to_string(),
            e.games.to_string(),
            f6(e.games as f64 / games.max(1) as f64),
            f6(lo),
            f6(hi),
            f6(e.plies.mean()),
            f6(e.rounds.mean()),
        ])?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}
