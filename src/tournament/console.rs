//! The console summary of `sim tournament` and `sim experiment` ([`Stats::render`]): the
//! verdicts, then the agent table (the one model of [`crate::format::agent_table`], shared
//! with the report), ranks, seats, agent by seat, end conditions, metrics and labels. Every
//! table is a [`crate::format::Table`], the model the reports render to Markdown and HTML.

use std::fmt::Write as _;

use super::summary::Stats;
use crate::format::{AgentRow, Table, agent_table, num, pct, rate_ci, signed, text_table};
use crate::stats::tally::ratio;
use crate::stats::{IntMoments, Z95, wilson};

/// At most this many label rows are printed by [`Stats::render`]; `labels.csv` has all.
const MAX_LABEL_ROWS: usize = 40;

impl Stats {
    /// The rows of the agent table ([`agent_table`]): one per distinct agent, from its
    /// game counts and its seat-games merged.
    pub fn agent_rows(&self) -> Vec<AgentRow> {
        self.agents
            .iter()
            .zip(self.by_agent())
            .map(|(name, t)| AgentRow {
                agent: name.clone(),
                games: t.games,
                wins: t.wins,
                draws: Some(t.draws),
                win_rate: t.win_rate(),
                interval: t.interval(),
                expected: t.expected_win_rate(self.players),
                mean_score: Some(t.seats.score.mean()),
                sd_score: Some(t.seats.score.sd()),
                mean_margin: Some(t.seats.margin.mean()),
                mean_rank: Some(t.seats.mean_rank()),
            })
            .collect()
    }

    /// The human-readable summary printed by `sim tournament`: per agent (per game) and per
    /// seat and per (agent, seat), win rates with 95% Wilson intervals, draws, mean score and
    /// margin; per agent the mean rank and the rank distribution.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let ci = |r: f64, (lo, hi): (f64, f64)| rate_ci(r, lo, hi);
        let by_agent = self.by_agent();
        let _ = writeln!(s, "Verdicts\nSeats: {}", self.seat_test().verdict());
        if let Some(v) = self.head_to_head() {
            let _ = writeln!(s, "Agents: {v}");
        }
        if let Some(p) = &self.paired {
            s += &crate::stats::paired::render(p, &p.rows(&self.agents));
        }
        if let Some(d) = &self.decisiveness {
            s += &d.render(self.players);
        }
        let _ = writeln!(
            s,
            "\nAgents (per game: win = the agent alone holds first place; 95% Wilson intervals; \
             scores, margins and ranks per seat)"
        );
        s += &agent_table(&self.agent_rows()).to_text();
        let rows: Vec<Vec<String>> = self
            .agents
            .iter()
            .zip(&by_agent)
            .map(|(name, t)| {
                let mut row = vec![
                    name.clone(),
                    t.seats.games.to_string(),
                    num(t.seats.mean_rank(), 3),
                ];
                row.extend((1..=self.players).map(|r| num(t.seats.rank_share(r), 4)));
                row
            })
            .collect();
        let _ = writeln!(
            s,
            "\nRanks (per seat-game: mean rank and the share finishing at each rank, 1 = best)"
        );
        let rank_heads: Vec<String> = (1..=self.players).map(|r| format!("rank {r}")).collect();
        let mut heads = vec!["agent", "seats", "mean rank"];
        heads.extend(rank_heads.iter().map(String::as_str));
        s += &text_table(&heads, &rows);
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
                    ci(t.win_rate(), t.interval()),
                    num(t.score.mean(), 3),
                ]
            })
            .collect();
        let _ = writeln!(
            s,
            "\nSeats (equal seats without draws would win {} each)",
            pct(expected)
        );
        s += &text_table(
            &[
                "seat",
                "games",
                "wins",
                "draws",
                "win rate [95% CI]",
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
                    ci(t.win_rate(), t.interval()),
                    signed(t.margin.mean(), 3),
                ]);
            }
        }
        let _ = writeln!(s, "\nAgent by seat");
        s += &text_table(
            &[
                "agent",
                "seat",
                "games",
                "wins",
                "draws",
                "win rate [95% CI]",
                "mean margin",
            ],
            &rows,
        );
        s += &self.render_ends_and_metrics();
        if self.has_labels() {
            let cells = self.by_label();
            let rows: Vec<Vec<String>> = cells
                .iter()
                .take(MAX_LABEL_ROWS)
                .map(|c| {
                    vec![
                        self.label_name(c.column).to_string(),
                        c.value.to_string(),
                        self.agent_name(c.agent).to_string(),
                        c.games.to_string(),
                        c.wins.to_string(),
                        c.draws.to_string(),
                        ci(c.win_rate(), c.interval()),
                        num(c.score.mean(), 3),
                        num(c.mean_rank(), 3),
                    ]
                })
                .collect();
            let _ = writeln!(
                s,
                "\nLabels (per game: the seats holding a label value win when one of them \
                 alone holds first place; `all` pools the agents)"
            );
            s += &text_table(
                &[
                    "label",
                    "value",
                    "agent",
                    "games",
                    "wins",
                    "draws",
                    "win rate [95% CI]",
                    "mean score",
                    "mean rank",
                ],
                &rows,
            );
            if cells.len() > MAX_LABEL_ROWS {
                let _ = writeln!(
                    s,
                    "({} more rows in labels.csv)",
                    cells.len() - MAX_LABEL_ROWS
                );
            }
        }
        s
    }

    /// The "End conditions" table and the "Metrics" table (the mean of the score and of
    /// each seat metric per agent, and pooled for winners and for the others), then the
    /// game metrics and the game length.
    fn render_ends_and_metrics(&self) -> String {
        let mut s = String::new();
        let ends = self.ends();
        let rows: Vec<Vec<String>> = ends
            .iter()
            .map(|e| {
                let (lo, hi) = wilson(e.games, self.games, Z95);
                vec![
                    e.end.to_string(),
                    e.games.to_string(),
                    num(ratio(e.games, self.games), 4),
                    format!("[{lo:.4}, {hi:.4}]"),
                    num(e.plies.mean(), 1),
                    num(e.rounds.mean(), 2),
                ]
            })
            .collect();
        let _ = writeln!(s, "\nEnd conditions");
        s += &text_table(
            &[
                "end",
                "games",
                "share",
                "95% CI",
                "mean plies",
                "mean rounds",
            ],
            &rows,
        );
        let metric_rows = self.metric_rows();
        let mean = |m: &str, agent: &str, outcome: &str| {
            metric_rows
                .iter()
                .find(|r| r.metric == m && r.agent == agent && r.outcome == outcome)
                .filter(|r| r.values.count() > 0)
                .map_or_else(String::new, |r| num(r.values.mean(), 3))
        };
        let names: Vec<&'static str> = std::iter::once("score")
            .chain(self.map.metrics.seat_metrics().iter().copied())
            .collect();
        if names.len() > 1 {
            let mut heads: Vec<String> = vec!["metric".into()];
            heads.extend(self.agents.iter().cloned());
            heads.extend(["winners".into(), "others".into()]);
            let rows: Vec<Vec<String>> = names
                .iter()
                .map(|m| {
                    let mut row = vec![m.to_string()];
                    row.extend(self.agents.iter().map(|a| mean(m, a, "all")));
                    row.push(mean(m, "all", "won"));
                    let others = metric_rows
                        .iter()
                        .filter(|r| r.metric == *m && r.agent == "all")
                        .filter(|r| r.outcome == "draw" || r.outcome == "lost")
                        .fold(IntMoments::new(), |mut w, r| {
                            w.merge(&r.values);
                            w
                        });
                    row.push(if others.count() > 0 {
                        num(others.mean(), 3)
                    } else {
                        String::new()
                    });
                    row
                })
                .collect();
            let _ = writeln!(
                s,
                "\nMetrics (winners: seats alone in first place; metrics.csv has intervals)"
            );
            s += &Table::new(&heads, rows)
                .unit("metric", "mean per seat-game")
                .to_text();
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::AGENT_TABLE_HEADERS;
    use crate::tournament::{GameRecord, Lineup};

    #[test]
    fn the_console_prints_the_agent_table_of_the_shared_model_with_mean_rank() {
        let lineup = Lineup::new(&["greedy", "random"], 2).unwrap();
        let mut st = Stats::new(&lineup, 2);
        // Greedy (entry 0) wins 3 of 4 games, from either seat.
        for (i, (seats, ranks)) in [
            ([0, 1], [1, 2]),
            ([1, 0], [2, 1]),
            ([0, 1], [1, 2]),
            ([1, 0], [1, 2]),
        ]
        .into_iter()
        .enumerate()
        {
            st.add(&GameRecord {
                index: i as u64,
                seed: 0,
                players: 2,
                lineup: [seats[0], seats[1], 0, 0],
                scores: [0; 4],
                ranks: [ranks[0], ranks[1], 0, 0],
                plies: 1,
                rounds: 1,
                end: "x",
                metrics: Default::default(),
                labels: Default::default(),
            });
        }
        let rows = st.agent_rows();
        assert!(rows[0].agent.starts_with("greedy"));
        assert_eq!((rows[0].games, rows[0].wins), (4, 3));
        assert_eq!(rows[0].mean_rank, Some(1.25));
        let table = agent_table(&rows).to_text();
        assert!(
            table.lines().next().unwrap().ends_with("mean rank"),
            "{table}"
        );
        assert!(table.contains("1.250"), "{table}");
        let shown = st.render();
        assert!(shown.contains(&table), "{shown}");
        assert_eq!(AGENT_TABLE_HEADERS.last(), Some(&"mean rank"));
    }
}
