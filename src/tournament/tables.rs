//! The CSV tables of a tournament's statistics: `summary.csv`, `seats.csv`,
//! `agent_seats.csv`, `seat_test.csv`, `labels.csv` (columns and definitions in
//! [`super::summary`]), `metrics.csv` and `ends.csv` ([`super::metrics`]). Floats are
//! written by [`crate::format::f6`] (6 decimals).

use std::io::Write;

use super::metrics;
use super::summary::Stats;
use crate::format::f6;
use crate::stats::tally::Tally;

impl Stats {
    /// Writes `metrics.csv` (see [`crate::tournament::metrics`]).
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_metrics_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        metrics::write_metrics_csv(out, &self.metric_rows())
    }

    /// Writes `ends.csv` (see [`crate::tournament::metrics`]).
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_ends_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        metrics::write_ends_csv(out, self.games, &self.ends())
    }

    /// Writes `labels.csv` (see the module docs).
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_labels_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(LABELS_HEADER)?;
        for c in self.by_label() {
            let (lo, hi) = c.interval();
            w.write_record([
                self.label_name(c.column).to_string(),
                c.value.to_string(),
                self.agent_name(c.agent).to_string(),
                c.games.to_string(),
                c.wins.to_string(),
                c.draws.to_string(),
                f6(c.win_rate()),
                f6(lo),
                f6(hi),
                c.seats.to_string(),
                f6(c.score.mean()),
                f6(c.mean_rank()),
            ])?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// Writes `seat_test.csv`: the header and one row ([`Stats::seat_test`]).
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_seat_test_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let t = self.seat_test();
        let mut w = csv::Writer::from_writer(out);
        w.write_record(SEAT_TEST_HEADER)?;
        w.write_record([
            t.method.to_string(),
            self.players.to_string(),
            t.decisive.to_string(),
            f6(t.statistic),
            t.df.map_or_else(String::new, |d| d.to_string()),
            format!("{:e}", t.p_value),
            t.seat.to_string(),
            f6(t.win_rate),
            f6(t.interval.0),
            f6(t.interval.1),
            f6(t.expected),
            t.verdict(),
        ])?;
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// The first fields of a `seats.csv` row ([`SEAT_FIELDS`]) of seat `seat` with tally
    /// `t` ([`Stats::by_seat`]).
    pub fn seat_fields(&self, seat: usize, t: &Tally) -> Vec<String> {
        let (lo, hi) = t.interval();
        vec![
            seat.to_string(),
            t.games.to_string(),
            t.wins.to_string(),
            t.draws.to_string(),
            f6(t.win_rate()),
            f6(lo),
            f6(hi),
            f6(1.0 / self.players as f64),
        ]
    }

    /// Writes `summary.csv`.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_summary_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        let mut header: Vec<String> = [
            "agent",
            "games",
            "seats",
            "wins",
            "draws",
            "losses",
            "win_rate",
            "ci_low",
            "ci_high",
            "expected_win_rate",
            "mean_score",
            "sd_score",
            "mean_margin",
            "mean_rank",
        ]
        .map(String::from)
        .to_vec();
        header.extend((1..=self.players).map(|r| format!("rank{r}")));
        w.write_record(&header)?;
        for (name, t) in self.agents.iter().zip(&self.by_agent()) {
            let (lo, hi) = t.interval();
            let seats = &t.seats;
            let mut row = vec![
                name.clone(),
                t.games.to_string(),
                seats.games.to_string(),
                t.wins.to_string(),
                t.draws.to_string(),
                t.losses().to_string(),
                f6(t.win_rate()),
                f6(lo),
                f6(hi),
                f6(t.expected_win_rate(self.players)),
                f6(seats.score.mean()),
                f6(seats.score.sd()),
                f6(seats.margin.mean()),
                f6(seats.mean_rank()),
            ];
            row.extend((1..=self.players).map(|r| f6(seats.rank_share(r))));
            w.write_record(&row)?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// Writes `seats.csv`.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_seats_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(SEAT_FIELDS.iter().chain(&["mean_score"]))?;
        for (seat, t) in self.by_seat().iter().enumerate() {
            let mut row = self.seat_fields(seat, t);
            row.push(f6(t.score.mean()));
            w.write_record(row)?;
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
}

/// The first columns of `seats.csv`, filled by [`Stats::seat_fields`].
pub const SEAT_FIELDS: [&str; 8] = [
    "seat",
    "games",
    "wins",
    "draws",
    "win_rate",
    "ci_low",
    "ci_high",
    "expected_win_rate",
];

/// The `seat_test.csv` header.
pub const SEAT_TEST_HEADER: [&str; 12] = [
    "test",
    "players",
    "decisive_games",
    "statistic",
    "df",
    "p_value",
    "best_seat",
    "win_rate",
    "ci_low",
    "ci_high",
    "expected_win_rate",
    "verdict",
];

/// The `labels.csv` header.
pub const LABELS_HEADER: [&str; 12] = [
    "label",
    "value",
    "agent",
    "games",
    "wins",
    "draws",
    "win_rate",
    "ci_low",
    "ci_high",
    "seats",
    "mean_score",
    "mean_rank",
];
