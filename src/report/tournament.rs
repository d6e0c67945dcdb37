//! The report of one tournament directory (see the module docs of [`crate::report`]).

use std::collections::BTreeMap;
use std::path::Path;

use super::charts::{self, Bar, BarOptions, Series};
use super::data::{Table, read_toml, toml_str};
use super::{BOOTSTRAP_REPLICATES, BOOTSTRAP_SEED, Report, ReportError};
use crate::format::{self, AgentRow, agent_table, num, pct, rate_ci};
use crate::stats::ratings::RankOrders;
use crate::stats::verdicts::SeatTest;
use crate::stats::{self, ActionTally, Distribution, Histogram};

/// The most bins of a histogram.
const MAX_BINS: usize = 40;

/// The short id of a name for a chart id.
fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// One agent's games: the per-seat rows of `games.csv`.
struct Games {
    table: Table,
}

/// The tournament report of `dir`.
pub(super) fn report(dir: &Path) -> Result<Report, ReportError> {
    let mut r = Report::default();
    add(dir, &mut r, true)?;
    Ok(r)
}

/// Adds the blocks of the tournament in `dir` to `r`; `title` sets the report's title.
pub(super) fn add(dir: &Path, r: &mut Report, title: bool) -> Result<(), ReportError> {
    let config = read_toml(dir, "config.toml")?;
    let summary = Table::read(&dir.join("summary.csv"))?;
    let seats = Table::read_opt(dir, "seats.csv")?;
    let agent_seats = Table::read_opt(dir, "agent_seats.csv")?;
    let seat_test = Table::read_opt(dir, "seat_test.csv")?;
    let ends = Table::read_opt(dir, "ends.csv")?;
    let metrics = Table::read_opt(dir, "metrics.csv")?;
    let labels = Table::read_opt(dir, "labels.csv")?;
    let agents_csv = Table::read_opt(dir, "agents.csv")?;
    let games = match Table::read_opt(dir, "games.csv")? {
        Some(t) => Some(t),
        None => Table::read_opt(dir, "games.csv.gz")?,
    }
    .map(|table| Games { table });

    let cfg = |k: &str| config.as_ref().and_then(|c| toml_str(c, k));
    let game = cfg("tournament.game").unwrap_or_else(|| "?".into());
    let players: usize = cfg("tournament.players")
        .and_then(|p| p.parse().ok())
        .or_else(|| seats.as_ref().map(|s| s.rows.len()))
        .unwrap_or(2);
    let n_games = cfg("tournament.games").unwrap_or_default();
    let seed = cfg("tournament.seed").unwrap_or_default();
    let (ca, cg) = (summary.need("agent")?, summary.need("games")?);
    let names: Vec<String> = (0..summary.rows.len())
        .map(|i| summary.s(i, ca).to_string())
        .collect();
    if title {
        r.title = format!(
            "{game}: {} — {n_games} games, {players} players, seed {seed}",
            names.join(" vs ")
        );
    }

    r.h(2, "Setup");
    let mut rows = vec![
        vec!["game".into(), game.clone()],
        vec!["players".into(), players.to_string()],
        vec!["games".into(), n_games.clone()],
        vec!["seed".into(), seed.clone()],
    ];
    if let Some(v) = cfg("labels.variant") {
        // Only the settings that differ from the game's defaults (config.toml has all).
        let settings: Vec<String> = config
            .as_ref()
            .and_then(|c| c.get("tournament")?.get("variant")?.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect();
        let changed = super::data::non_default_settings(&game, &settings);
        let shown = if changed.is_empty() {
            "the game's defaults".to_string()
        } else {
            changed.join(", ")
        };
        rows.push(vec!["variant".into(), format!("{v}: {shown}")]);
    }
    if let Some(a) = &agents_csv {
        if let (Some(la), Some(ls)) = (a.col("agent"), a.col("spec")) {
            for i in 0..a.rows.len() {
                rows.push(vec![
                    format!("agent {}", a.s(i, la)),
                    a.s(i, ls).to_string(),
                ]);
            }
        }
    }
    for k in ["version", "command", "reproducible"] {
        if let Some(v) = cfg(k) {
            let v = if k == "command" {
                super::data::without_default_variants(&game, &v)
            } else {
                v
            };
            rows.push(vec![k.into(), v]);
        }
    }
    r.table(&["setting", "value"], rows);

    // Verdicts.
    r.h(2, "Verdicts");
    let seat_verdict = match &seat_test {
        Some(t) if t.has("verdict") && !t.rows.is_empty() => t.s(0, t.need("verdict")?).to_string(),
        _ => match &seats {
            Some(s) => seat_test_from(s, players)?.verdict(),
            None => "no seats.csv: no test of equal seats".into(),
        },
    };
    r.verdict(format!("Seats: {seat_verdict}"));
    if names.len() == 2 {
        r.verdict(head_to_head(&summary, players)?);
    }
    if let Some(q) = Table::read_opt(dir, "sequential.csv")? {
        sequential_section(r, &q)?;
    }
    if let Some(p) = Table::read_opt(dir, "paired.csv")? {
        paired_section(r, &p)?;
    }

    // Agents.
    let (cw, cr, cl, ch, ce) = (
        summary.need("wins")?,
        summary.need("win_rate")?,
        summary.need("ci_low")?,
        summary.need("ci_high")?,
        summary.need("expected_win_rate")?,
    );
    r.h(2, "Win rates");
    r.p("Per game: an agent wins a game when it alone holds first place (through any of its seats); 95% Wilson score intervals (Wilson 1927). The dashed line is the expected win rate of an equally strong agent.");
    let expected = if summary.rows.is_empty() {
        f64::NAN
    } else {
        summary.f(0, ce)
    };
    let same_expected = (0..summary.rows.len()).all(|i| (summary.f(i, ce) - expected).abs() < 1e-9);
    r.chart(charts::bars(
        "chart-win-rates",
        "Win rate by agent (95% Wilson interval)",
        &names,
        &[Series {
            name: "win rate".into(),
            bars: (0..summary.rows.len())
                .map(|i| {
                    Some(Bar {
                        value: summary.f(i, cr),
                        interval: Some((summary.f(i, cl), summary.f(i, ch))),
                    })
                })
                .collect(),
        }],
        &BarOptions {
            y_label: "win rate".into(),
            reference: same_expected.then(|| (expected, format!("expected {}", pct(expected)))),
            percent: true,
            ..Default::default()
        },
    ));
    let opt = |t: &Table, i: usize, c: &str, d: usize| {
        t.col(c).map_or_else(String::new, |c| num(t.f(i, c), d))
    };
    let col = |c: &str| summary.col(c);
    let (c_draws, c_score, c_sd, c_margin, c_rank) = (
        col("draws"),
        col("mean_score"),
        col("sd_score"),
        col("mean_margin"),
        col("mean_rank"),
    );
    let agent_rows: Vec<AgentRow> = (0..summary.rows.len())
        .map(|i| AgentRow {
            agent: names[i].clone(),
            games: summary.u(i, cg),
            wins: summary.u(i, cw),
            draws: c_draws.map(|c| summary.u(i, c)),
            win_rate: summary.f(i, cr),
            interval: (summary.f(i, cl), summary.f(i, ch)),
            expected: summary.f(i, ce),
            mean_score: c_score.map(|c| summary.f(i, c)),
            sd_score: c_sd.map(|c| summary.f(i, c)),
            mean_margin: c_margin.map(|c| summary.f(i, c)),
            mean_rank: c_rank.map(|c| summary.f(i, c)),
        })
        .collect();
    r.table_model(agent_table(&agent_rows));

    // Seats.
    if let Some(s) = &seats {
        let (sr, sl, sh) = (s.need("win_rate")?, s.need("ci_low")?, s.need("ci_high")?);
        r.h(2, "Seat advantage");
        r.p("Win rate of each seat (seat 0 moves first) over all agents; the dashed line is 1/players, the rate of equal seats without draws.");
        let cats: Vec<String> = (0..s.rows.len()).map(|i| format!("seat {i}")).collect();
        r.chart(charts::bars(
            "chart-seats",
            "Win rate by seat (95% Wilson interval)",
            &cats,
            &[Series {
                name: "win rate".into(),
                bars: (0..s.rows.len())
                    .map(|i| {
                        Some(Bar {
                            value: s.f(i, sr),
                            interval: Some((s.f(i, sl), s.f(i, sh))),
                        })
                    })
                    .collect(),
            }],
            &BarOptions {
                y_label: "win rate".into(),
                reference: Some((
                    1.0 / players as f64,
                    format!("equal seats {}", pct(1.0 / players as f64)),
                )),
                percent: true,
                ..Default::default()
            },
        ));
        let rows = (0..s.rows.len())
            .map(|i| {
                vec![
                    i.to_string(),
                    s.col("games")
                        .map_or_else(String::new, |c| s.s(i, c).to_string()),
                    s.col("wins")
                        .map_or_else(String::new, |c| s.s(i, c).to_string()),
                    rate_ci(s.f(i, sr), s.f(i, sl), s.f(i, sh)),
                    opt(s, i, "mean_score", 3),
                ]
            })
            .collect();
        r.table(
            &["seat", "games", "wins", "win rate [95% CI]", "mean score"],
            rows,
        );
    }
    if let Some(t) = &agent_seats {
        if names.len() > 1 {
            let (ta, ts, tr, tl, th) = (
                t.need("agent")?,
                t.need("seat")?,
                t.need("win_rate")?,
                t.need("ci_low")?,
                t.need("ci_high")?,
            );
            let cats: Vec<String> = (0..players).map(|i| format!("seat {i}")).collect();
            let series = names
                .iter()
                .map(|a| Series {
                    name: a.clone(),
                    bars: (0..players)
                        .map(|seat| {
                            (0..t.rows.len())
                                .find(|&i| t.s(i, ta) == a && t.s(i, ts) == seat.to_string())
                                .filter(|&i| t.u(i, t.col("games").unwrap_or(0)) > 0)
                                .map(|i| Bar {
                                    value: t.f(i, tr),
                                    interval: Some((t.f(i, tl), t.f(i, th))),
                                })
                        })
                        .collect(),
                })
                .collect::<Vec<_>>();
            r.chart(charts::bars(
                "chart-agent-seats",
                "Win rate by agent and seat",
                &cats,
                &series,
                &BarOptions {
                    y_label: "win rate".into(),
                    percent: true,
                    ..Default::default()
                },
            ));
        }
    }

    // Ratings, distributions, actions (games.csv).
    match &games {
        Some(g) => {
            if names.len() > 1 {
                ratings(r, g, &names, players)?;
            }
            distributions(r, g, &names)?;
            actions_from_games(r, g, &names, &game)?;
        }
        None => {
            r.h(2, "Score and margin distributions");
            r.p("games.csv is not in this directory (committed results leave it out; the command under Setup regenerates it exactly), so the ratings with bootstrap intervals, the histograms and quantiles of scores, margins and game length, and the per-action win rates are not shown. The means are in the tables above and below.");
            if let Some(m) = &metrics {
                actions_from_metrics(r, m, &names, &game)?;
            }
        }
    }

    if let Some(e) = &ends {
        ends_section(r, e)?;
    }
    if let Some(d) = Table::read_opt(dir, "decisiveness.csv")? {
        let l = Table::read_opt(dir, "lead_changes.csv")?;
        decisiveness_section(r, &d, l.as_ref(), players)?;
    }
    if let Some(m) = &metrics {
        // A metric that labels.csv splits into groups is a bit set (a flag metric such as
        // Dunhuang's `characters_used`): its mean means nothing, so it is left out.
        let flags: Vec<String> = labels.as_ref().map_or_else(Vec::new, |l| {
            l.col("label").map_or_else(Vec::new, |c| {
                (0..l.rows.len()).map(|i| l.s(i, c).to_string()).collect()
            })
        });
        metrics_section(r, m, &names, &flags)?;
    }
    if let Some(l) = &labels {
        labels_section(r, l)?;
    }
    Ok(())
}

/// The test of equal seats from `seats.csv` (for directories written before
/// `seat_test.csv` existed).
fn seat_test_from(s: &Table, players: usize) -> Result<SeatTest, ReportError> {
    let (cw, cg) = (s.need("wins")?, s.need("games")?);
    let wins: Vec<u64> = (0..s.rows.len()).map(|i| s.u(i, cw)).collect();
    let decisive: u64 = wins.iter().sum();
    let (method, statistic, df, p_value) = if players == 2 && wins.len() == 2 {
        (
            "exact binomial",
            wins[0] as f64,
            None,
            stats::binomial_test_half(wins[0], decisive),
        )
    } else {
        let (x, df, p) = stats::chi_square_uniform(&wins);
        ("chi-square", x, Some(df), p)
    };
    let best = (0..wins.len())
        .max_by(|&a, &b| {
            let ra = wins[a] as f64 / s.u(a, cg).max(1) as f64;
            let rb = wins[b] as f64 / s.u(b, cg).max(1) as f64;
            ra.total_cmp(&rb).then(b.cmp(&a))
        })
        .unwrap_or(0);
    let games = s.u(best, cg);
    Ok(SeatTest {
        method,
        decisive,
        statistic,
        df,
        p_value,
        seat: best,
        win_rate: if games == 0 {
            0.0
        } else {
            wins[best] as f64 / games as f64
        },
        interval: stats::wilson(wins[best], games, stats::Z95),
        expected: 1.0 / players as f64,
    })
}

/// The verdict of a two-agent tournament
/// ([`crate::stats::verdicts::head_to_head_verdict`]) when both agents hold equal
/// shares of the seats.
fn head_to_head(s: &Table, players: usize) -> Result<String, ReportError> {
    let (ca, cg, cw, ce) = (
        s.need("agent")?,
        s.need("games")?,
        s.need("wins")?,
        s.need("expected_win_rate")?,
    );
    let (a, b) = (s.s(0, ca), s.s(1, ca));
    let (wa, wb, g) = (s.u(0, cw), s.u(1, cw), s.u(0, cg));
    if (s.f(0, ce) - s.f(1, ce)).abs() > 1e-9 {
        let (ra, la, ha) = stats::chance_vs_skill(wa, g);
        return Ok(format!(
            "Agents: {a} wins {} of {g} games, {b} {} (unequal shares of the {players} seats: expected {} and {}; no head-to-head test)",
            rate_ci(ra, la, ha),
            pct(s.f(1, cw) / g.max(1) as f64),
            pct(s.f(0, ce)),
            pct(s.f(1, ce))
        ));
    }
    Ok(format!(
        "Agents: {}",
        crate::stats::verdicts::head_to_head_verdict(a, wa, b, wb, g)
    ))
}

/// Groups `games.csv` rows by game: per game, `(row index)` of each seat.
fn by_game(t: &Table) -> Result<Vec<Vec<usize>>, ReportError> {
    let cg = t.need("game")?;
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut last = None;
    for i in 0..t.rows.len() {
        let g = t.s(i, cg);
        if last != Some(g) {
            out.push(Vec::new());
            last = Some(g);
        }
        out.last_mut().expect("pushed").push(i);
    }
    Ok(out)
}

fn ratings(r: &mut Report, g: &Games, names: &[String], players: usize) -> Result<(), ReportError> {
    let t = &g.table;
    let (ca, ck) = (t.need("agent")?, t.need("rank")?);
    let mut ro = RankOrders::new(names.to_vec());
    for rows in by_game(t)? {
        let seats: Vec<(usize, u8)> = rows
            .iter()
            .filter_map(|&i| {
                names
                    .iter()
                    .position(|n| n == t.s(i, ca))
                    .map(|a| (a, t.u(i, ck) as u8))
            })
            .collect();
        ro.add_game(&seats);
    }
    let model = if players == 2 {
        "Bradley–Terry"
    } else {
        "Plackett–Luce"
    };
    r.h(2, "Ratings");
    r.p(format!(
        "{model} strengths fitted to the rank order of every game by Hunter's (2004) MM algorithm (ties by Breslow's approximation; one virtual draw between every pair keeps unbeaten agents finite), on the Elo scale (400/ln 10 per unit, {} anchored at 0). 95% percentile bootstrap intervals: {BOOTSTRAP_REPLICATES} resamples of the games with replacement, seed {BOOTSTRAP_SEED}. Score: the share of the other seats an agent finished ahead of (ties half).",
        names[0]
    ));
    let rt = ro.ratings(BOOTSTRAP_REPLICATES, BOOTSTRAP_SEED);
    r.chart(charts::rating_bars(
        &format!("{model} rating (Elo scale, bootstrap 95% interval)"),
        names,
        &rt,
    ));
    r.table_model(
        format::Table::new(
            &[
                "agent",
                "rating",
                "95% bootstrap interval",
                "games",
                "score",
            ],
            rt.iter()
                .map(|x| {
                    vec![
                        x.name.clone(),
                        num(x.elo, 1),
                        format!("[{}, {}]", num(x.ci_low, 1), num(x.ci_high, 1)),
                        num(x.games, 0),
                        num(x.score, 3),
                    ]
                })
                .collect(),
        )
        .unit("rating", "Elo"),
    );
    Ok(())
}

/// Histograms of several groups on shared bins.
fn shared_histograms(groups: &[(String, Vec<i64>)]) -> Vec<(String, Histogram)> {
    let all: Vec<i64> = groups.iter().flat_map(|g| g.1.iter().copied()).collect();
    let Some(h) = Histogram::of_integers(&all, MAX_BINS) else {
        return Vec::new();
    };
    groups
        .iter()
        .map(|(n, v)| {
            let mut counts = vec![0u64; h.counts.len()];
            for x in v {
                counts[((x - h.low) / h.width) as usize] += 1;
            }
            (
                n.clone(),
                Histogram {
                    low: h.low,
                    width: h.width,
                    counts,
                },
            )
        })
        .collect()
}

fn quantile_rows(groups: &[(String, Vec<i64>)]) -> Vec<Vec<String>> {
    groups
        .iter()
        .filter_map(|(n, v)| {
            let f: Vec<f64> = v.iter().map(|&x| x as f64).collect();
            Distribution::of(&f).map(|d| {
                let mut row = vec![n.clone(), d.n.to_string(), num(d.mean, 3), num(d.sd, 3)];
                row.extend(d.quantiles.iter().map(|q| num(*q, 2)));
                row
            })
        })
        .collect()
}

const QUANTILE_HEAD: [&str; 11] = [
    "group", "n", "mean", "sd", "min", "5%", "25%", "median", "75%", "95%", "max",
];

fn distributions(r: &mut Report, g: &Games, names: &[String]) -> Result<(), ReportError> {
    let t = &g.table;
    let (ca, cs) = (t.need("agent")?, t.need("score")?);
    let games = by_game(t)?;
    let mut scores: BTreeMap<usize, Vec<i64>> = BTreeMap::new();
    let mut margins: BTreeMap<usize, Vec<i64>> = BTreeMap::new();
    let mut plies = Vec::new();
    let cp = t.col("plies");
    for rows in &games {
        if let Some(cp) = cp {
            plies.push(t.i(rows[0], cp));
        }
        for &i in rows {
            let Some(a) = names.iter().position(|n| n == t.s(i, ca)) else {
                continue;
            };
            let s = t.i(i, cs);
            let best_other = rows
                .iter()
                .filter(|&&j| j != i)
                .map(|&j| t.i(j, cs))
                .max()
                .unwrap_or(s);
            scores.entry(a).or_default().push(s);
            margins.entry(a).or_default().push(s - best_other);
        }
    }
    let named = |m: BTreeMap<usize, Vec<i64>>| -> Vec<(String, Vec<i64>)> {
        m.into_iter().map(|(a, v)| (names[a].clone(), v)).collect()
    };
    let (scores, margins) = (named(scores), named(margins));
    r.h(2, "Score and margin distributions");
    r.p("Per seat-game, from games.csv. Margin = own score minus the best other seat's score (positive = ahead). Bars are shares of each agent's seat-games; quantiles are Hyndman & Fan (1996) type 7.");
    r.chart(charts::histograms(
        "chart-score-histogram",
        "Score distribution",
        "score",
        &shared_histograms(&scores),
    ));
    r.table(&QUANTILE_HEAD, quantile_rows(&scores));
    r.chart(charts::histograms(
        "chart-margin-histogram",
        "Margin distribution",
        "margin (own score − best other)",
        &shared_histograms(&margins),
    ));
    r.table(&QUANTILE_HEAD, quantile_rows(&margins));
    if !plies.is_empty() {
        let groups = vec![("all games".to_string(), plies)];
        r.h(3, "Game length");
        r.chart(charts::histograms(
            "chart-length-histogram",
            "Game length",
            "plies",
            &shared_histograms(&groups),
        ));
        r.table(&QUANTILE_HEAD, quantile_rows(&groups));
    }
    Ok(())
}

/// The action columns of `game` among `headers`.
fn action_columns(game: &str, headers: &[String]) -> Vec<String> {
    // Every column named `actions_*`, and the game's declared action counts
    // ([`crate::game::Measured::ACTION_METRICS`], from the registry).
    let named: &[&str] = crate::dispatch_game!(game, G => G::ACTION_METRICS).unwrap_or(&[]);
    headers
        .iter()
        .filter(|h| h.starts_with("actions_") || named.contains(&h.as_str()))
        .cloned()
        .collect()
}

fn actions_from_games(
    r: &mut Report,
    g: &Games,
    names: &[String],
    game: &str,
) -> Result<(), ReportError> {
    let t = &g.table;
    let actions = action_columns(game, &t.headers);
    if actions.is_empty() {
        return Ok(());
    }
    let cols: Vec<usize> = actions
        .iter()
        .map(|a| t.col(a).expect("from headers"))
        .collect();
    let (ca, cw) = (t.need("agent")?, t.need("won")?);
    let mut tallies: Vec<ActionTally> = names
        .iter()
        .map(|_| ActionTally::new(actions.clone()))
        .collect();
    let mut counts = vec![0u64; cols.len()];
    let mut seat_games = vec![0u64; names.len()];
    for i in 0..t.rows.len() {
        let Some(a) = names.iter().position(|n| n == t.s(i, ca)) else {
            continue;
        };
        seat_games[a] += 1;
        for (k, &c) in cols.iter().enumerate() {
            counts[k] = t.u(i, c);
        }
        tallies[a].add(&counts, t.u(i, cw) == 1);
    }
    r.h(2, "Actions");
    r.p("Per seat-game, from games.csv: how often each action was played, and the win rate of the seat-games that played it at least once against those that did not (95% Wilson intervals; the difference with Newcombe's hybrid score interval and a pooled z-test). An association under the agents' own choices, not a causal effect.");
    let per_agent: Vec<Vec<stats::ActionRow>> = tallies.iter().map(ActionTally::rows).collect();
    r.chart(charts::bars(
        "chart-actions",
        "Actions per seat-game",
        &actions,
        &names
            .iter()
            .zip(&per_agent)
            .map(|(n, rows)| Series {
                name: n.clone(),
                bars: rows
                    .iter()
                    .map(|x| {
                        Some(Bar {
                            value: x.per_game,
                            interval: None,
                        })
                    })
                    .collect(),
            })
            .collect::<Vec<_>>(),
        &BarOptions {
            y_label: "mean count".into(),
            ..Default::default()
        },
    ));
    r.chart(charts::bars(
        "chart-action-win-rates",
        "Win rate of seat-games that played the action",
        &actions,
        &names
            .iter()
            .zip(&per_agent)
            .map(|(n, rows)| Series {
                name: n.clone(),
                bars: rows
                    .iter()
                    .map(|x| {
                        (x.played > 0).then_some(Bar {
                            value: x.win_rate_played.0,
                            interval: Some((x.win_rate_played.1, x.win_rate_played.2)),
                        })
                    })
                    .collect(),
            })
            .collect::<Vec<_>>(),
        &BarOptions {
            y_label: "win rate".into(),
            percent: true,
            ..Default::default()
        },
    ));
    let mut rows = Vec::new();
    for ((n, ar), &total) in names.iter().zip(&per_agent).zip(&seat_games) {
        for x in ar {
            rows.push(action_row(n, x, total));
        }
    }
    r.table_model(
        format::Table::new(
            &[
                "agent",
                "action",
                "per seat-game",
                "share",
                "played in",
                "win rate when played",
                "win rate otherwise",
                "difference",
            ],
            rows,
        )
        .unit("difference", "points"),
    );
    Ok(())
}

/// One row of the actions table: an agent's action with the win rates of the seat-games
/// that played it and of those that did not. A group with no seat-game has no rate: its
/// cell says "never played" or "always played", and the difference is not computed (a
/// comparison against an empty group would read as a certain effect).
fn action_row(agent: &str, x: &stats::ActionRow, seat_games: u64) -> Vec<String> {
    let never = x.played == 0;
    let always = x.played >= seat_games;
    let rate = |r: (f64, f64, f64)| rate_ci(r.0, r.1, r.2);
    vec![
        agent.to_string(),
        x.action.clone(),
        num(x.per_game, 3),
        pct(x.share),
        x.played.to_string(),
        if never {
            "never played".into()
        } else {
            rate(x.win_rate_played)
        },
        if always {
            "always played".into()
        } else {
            rate(x.win_rate_not_played)
        },
        if never || always {
            "no comparison (one group is empty)".into()
        } else {
            format!(
                "{:+.1} [{:.1}, {:.1}], {}",
                100.0 * x.difference.estimate,
                100.0 * x.difference.low,
                100.0 * x.difference.high,
                crate::format::format_p(x.difference.p_value)
            )
        },
    ]
}

fn actions_from_metrics(
    r: &mut Report,
    m: &Table,
    names: &[String],
    game: &str,
) -> Result<(), ReportError> {
    let (cm, ca, co, cmean) = (
        m.need("metric")?,
        m.need("agent")?,
        m.need("outcome")?,
        m.need("mean")?,
    );
    let metrics: Vec<String> = {
        let mut v: Vec<String> = Vec::new();
        for i in 0..m.rows.len() {
            let s = m.s(i, cm).to_string();
            if !v.contains(&s) {
                v.push(s);
            }
        }
        v
    };
    let actions = action_columns(game, &metrics);
    if actions.is_empty() {
        return Ok(());
    }
    let mean = |metric: &str, agent: &str, outcome: &str| {
        (0..m.rows.len())
            .find(|&i| m.s(i, cm) == metric && m.s(i, ca) == agent && m.s(i, co) == outcome)
            .map(|i| m.f(i, cmean))
            .filter(|x| x.is_finite())
    };
    r.h(2, "Actions");
    r.p("Mean count of each action per seat-game (metrics.csv), per agent and for the seats that won against those that lost; games.csv (not present) would also give the win rate when the action was played.");
    let mut series: Vec<Series> = names
        .iter()
        .map(|n| Series {
            name: n.clone(),
            bars: actions
                .iter()
                .map(|a| {
                    mean(a, n, "all").map(|v| Bar {
                        value: v,
                        interval: None,
                    })
                })
                .collect(),
        })
        .collect();
    for o in ["won", "lost"] {
        series.push(Series {
            name: format!("all, {o}"),
            bars: actions
                .iter()
                .map(|a| {
                    mean(a, "all", o).map(|v| Bar {
                        value: v,
                        interval: None,
                    })
                })
                .collect(),
        });
    }
    r.chart(charts::bars(
        "chart-actions",
        "Actions per seat-game",
        &actions,
        &series,
        &BarOptions {
            y_label: "mean count".into(),
            ..Default::default()
        },
    ));
    Ok(())
}

/// The verdict of `sequential.csv` (`--until-significant`).
fn sequential_section(r: &mut Report, q: &Table) -> Result<(), ReportError> {
    if q.rows.is_empty() {
        return Ok(());
    }
    let (cd, cg, cm, cq) = (
        q.need("decision")?,
        q.need("games")?,
        q.need("max_games")?,
        q.need("question")?,
    );
    let what = match q.s(0, cd) {
        "H1" => "H1 accepted",
        "H0" => "H0 accepted",
        _ => "undecided",
    };
    r.verdict(format!(
        "Sequential test (Wald's SPRT, sequential.csv): {what} after {} of at most {} games; {}",
        q.s(0, cg),
        q.s(0, cm),
        q.s(0, cq)
    ));
    Ok(())
}

/// The table of `paired.csv` (`--paired`): differences paired over deals.
fn paired_section(r: &mut Report, p: &Table) -> Result<(), ReportError> {
    let (cc, ca, cb, cq) = (
        p.need("comparison")?,
        p.need("a")?,
        p.need("b")?,
        p.need("quantity")?,
    );
    let (cd, cgd, cdiff) = (
        p.need("deals")?,
        p.need("games_per_deal")?,
        p.need("difference")?,
    );
    let (cl, ch, cp) = (p.need("ci_low")?, p.need("ci_high")?, p.need("p_value")?);
    if p.rows.is_empty() {
        return Ok(());
    }
    r.h(2, "Paired comparisons");
    r.p(format!(
        "Common random numbers: every deal is replayed under the {} seatings of its block; \
         the differences are paired over {} deals (paired t interval over deals, Student \
         1908).",
        p.s(0, cgd),
        p.s(0, cd)
    ));
    let side = |i: usize, c: usize| {
        if p.s(i, cc) == "seats" {
            format!("seat {}", p.s(i, c))
        } else {
            p.s(i, c).to_string()
        }
    };
    r.table(
        &["a", "b", "quantity", "a − b [95% CI]", "p-value"],
        (0..p.rows.len())
            .map(|i| {
                let (d, lo, hi) = (p.f(i, cdiff), p.f(i, cl), p.f(i, ch));
                let value = if p.s(i, cq) == "win_rate" {
                    format!(
                        "{:+.1} points [{:.1}, {:.1}]",
                        100.0 * d,
                        100.0 * lo,
                        100.0 * hi
                    )
                } else {
                    format!("{d:+.3} [{lo:.3}, {hi:.3}]")
                };
                vec![
                    side(i, ca),
                    side(i, cb),
                    p.s(i, cq).replace('_', " "),
                    value,
                    crate::format::format_p(p.f(i, cp)),
                ]
            })
            .collect(),
    );
    Ok(())
}

/// Decisiveness and lead changes (`--decisiveness`: `decisiveness.csv`,
/// `lead_changes.csv`): the leader's win rate after 10%..90% of the rounds against a
/// seat's share, the table by round for games of at most [`MAX_ROUND_ROWS`] rounds, and
/// the distribution of lead changes.
fn decisiveness_section(
    r: &mut Report,
    d: &Table,
    lead: Option<&Table>,
    players: usize,
) -> Result<(), ReportError> {
    let (cb, cp, cg, cw, cr, cl, ch) = (
        d.need("basis")?,
        d.need("point")?,
        d.need("games")?,
        d.need("with_leader")?,
        d.need("leader_win_rate")?,
        d.need("ci_low")?,
        d.need("ci_high")?,
    );
    r.h(2, "Decisiveness and lead changes");
    let share = 1.0 / players.max(1) as f64;
    r.p(format!(
        "{LEADER_DEFINITION} The chart shows how often the leader after a share of the \
         game's rounds wins (the only seat ranked first), with 95% Wilson intervals, against \
         a seat's share of wins ({}): near the share, the position so far says little; near \
         100%, the rest of the game rarely changes the result. Points where no game had a \
         leader are left out.",
        pct(share)
    ));
    let percent = led_rows(d, "percent")?;
    let points = decisiveness_points(d)?;
    if !points.is_empty() {
        let base: Vec<charts::Point> = points
            .iter()
            .map(|&(x, ..)| (x, share, share, share))
            .collect();
        r.chart(charts::lines(
            "chart-decisiveness",
            "Leader's win rate after a share of the rounds (95% Wilson interval)",
            ("% of the game's rounds played", "leader wins"),
            &[
                ("leader after x% of the rounds".into(), points),
                ("a seat's share".into(), base),
            ],
            false,
            charts::LegendAt::UpperLeft,
        ));
    }
    let table_rows = |idx: &[usize], label: &dyn Fn(&str) -> String| -> Vec<Vec<String>> {
        idx.iter()
            .map(|&i| {
                vec![
                    label(d.s(i, cp)),
                    d.s(i, cg).to_string(),
                    d.s(i, cw).to_string(),
                    rate_ci(d.f(i, cr), d.f(i, cl), d.f(i, ch)),
                ]
            })
            .collect()
    };
    let headers = [
        "after",
        "games reached",
        "with a leader",
        "leader wins [95% CI]",
    ];
    r.table(
        &headers,
        table_rows(&percent, &|p| format!("{p}% of the rounds")),
    );
    let by_round = led_rows(d, "round")?;
    let last_round = (0..d.rows.len())
        .filter(|&i| d.s(i, cb) == "round")
        .map(|i| d.u(i, cp))
        .max()
        .unwrap_or(0);
    if last_round > MAX_ROUND_ROWS as u64 {
        r.p(format!(
            "The same by round, for rounds 1 to {last_round}, is in decisiveness.csv."
        ));
    } else if !by_round.is_empty() {
        r.table(&headers, table_rows(&by_round, &|p| format!("round {p}")));
    }
    if let Some(l) = lead
        && let Some((games, mean, none)) = lead_change_summary(l)?
    {
        let (cc, cf) = (l.need("lead_changes")?, l.need("fraction")?);
        r.p(format!(
            "Lead changes (lead_changes.csv): the number of times the leader differs from the \
             previous one, over the leaders after each round and the winner, ties skipped. \
             Mean {} per game over {games} games; {} of the games had none.",
            num(mean, 2),
            pct(none)
        ));
        let cats: Vec<String> = (0..l.rows.len()).map(|i| l.s(i, cc).to_string()).collect();
        r.chart(charts::bars(
            "chart-lead-changes",
            "Games by number of lead changes",
            &cats,
            &[Series {
                name: "share of games".into(),
                bars: (0..l.rows.len())
                    .map(|i| {
                        Some(Bar {
                            value: l.f(i, cf),
                            interval: None,
                        })
                    })
                    .collect(),
            }],
            &BarOptions {
                y_label: "share of games".into(),
                percent: true,
                ..Default::default()
            },
        ));
    }
    Ok(())
}

/// The `percent` points of `decisiveness.csv` that some game had a leader at, as
/// `(percent, leader_win_rate, ci_low, ci_high)`, for a line chart.
pub(super) fn decisiveness_points(d: &Table) -> Result<Vec<charts::Point>, ReportError> {
    let (cp, cr, cl, ch) = (
        d.need("point")?,
        d.need("leader_win_rate")?,
        d.need("ci_low")?,
        d.need("ci_high")?,
    );
    Ok(led_rows(d, "percent")?
        .into_iter()
        .map(|i| (d.f(i, cp), d.f(i, cr), d.f(i, cl), d.f(i, ch)))
        .collect())
}

/// The rows of `decisiveness.csv` of this `basis` (`percent` or `round`) at which some
/// game had a leader.
fn led_rows(d: &Table, basis: &str) -> Result<Vec<usize>, ReportError> {
    let (cb, cw) = (d.need("basis")?, d.need("with_leader")?);
    Ok((0..d.rows.len())
        .filter(|&i| d.s(i, cb) == basis && d.u(i, cw) > 0)
        .collect())
}

/// How the reports define the leader (`--decisiveness`).
pub(super) const LEADER_DEFINITION: &str = "The leader is the seat with the strictly highest \
     running score (the points it would have if the game ended now) at the end of a round; a \
     tie is no leader.";

/// From `lead_changes.csv`: the games, the mean lead changes per game and the share of
/// games without one; `None` with no games.
pub(super) fn lead_change_summary(l: &Table) -> Result<Option<(u64, f64, f64)>, ReportError> {
    let (cc, cn) = (l.need("lead_changes")?, l.need("games")?);
    let games: u64 = (0..l.rows.len()).map(|i| l.u(i, cn)).sum();
    let total: u64 = (0..l.rows.len()).map(|i| l.u(i, cc) * l.u(i, cn)).sum();
    let none = (0..l.rows.len())
        .find(|&i| l.u(i, cc) == 0)
        .map_or(0, |i| l.u(i, cn));
    Ok((games > 0).then(|| {
        (
            games,
            total as f64 / games as f64,
            none as f64 / games as f64,
        )
    }))
}

/// The most rounds shown as a table by round in the report (longer games: the CSV).
const MAX_ROUND_ROWS: usize = 20;

fn ends_section(r: &mut Report, e: &Table) -> Result<(), ReportError> {
    let (ce, cg, cs, cl, ch) = (
        e.need("end")?,
        e.need("games")?,
        e.need("share")?,
        e.need("ci_low")?,
        e.need("ci_high")?,
    );
    r.h(2, "End conditions");
    let cats: Vec<String> = (0..e.rows.len()).map(|i| e.s(i, ce).to_string()).collect();
    r.chart(charts::bars(
        "chart-ends",
        "How games end (share, 95% Wilson interval)",
        &cats,
        &[Series {
            name: "share".into(),
            bars: (0..e.rows.len())
                .map(|i| {
                    Some(Bar {
                        value: e.f(i, cs),
                        interval: Some((e.f(i, cl), e.f(i, ch))),
                    })
                })
                .collect(),
        }],
        &BarOptions {
            y_label: "share of games".into(),
            percent: true,
            ..Default::default()
        },
    ));
    r.table(
        &[
            "end",
            "games",
            "share [95% CI]",
            "mean plies",
            "mean rounds",
        ],
        (0..e.rows.len())
            .map(|i| {
                vec![
                    cats[i].clone(),
                    e.s(i, cg).to_string(),
                    rate_ci(e.f(i, cs), e.f(i, cl), e.f(i, ch)),
                    e.col("mean_plies")
                        .map_or_else(String::new, |c| num(e.f(i, c), 1)),
                    e.col("mean_rounds")
                        .map_or_else(String::new, |c| num(e.f(i, c), 2)),
                ]
            })
            .collect(),
    );
    Ok(())
}

fn metrics_section(
    r: &mut Report,
    m: &Table,
    names: &[String],
    flags: &[String],
) -> Result<(), ReportError> {
    let (cm, cs, ca, co, cn, cmean, cl, ch) = (
        m.need("metric")?,
        m.need("scope")?,
        m.need("agent")?,
        m.need("outcome")?,
        m.need("n")?,
        m.need("mean")?,
        m.need("ci_low")?,
        m.need("ci_high")?,
    );
    let find = |metric: &str, agent: &str, outcome: &str| {
        (0..m.rows.len()).find(|&i| {
            m.s(i, cm) == metric && m.s(i, ca) == agent && m.s(i, co) == outcome && m.u(i, cn) > 0
        })
    };
    let mut seat_metrics: Vec<String> = Vec::new();
    let mut game_metrics: Vec<String> = Vec::new();
    for i in 0..m.rows.len() {
        if flags.iter().any(|f| f == m.s(i, cm)) {
            continue;
        }
        let v = if m.s(i, cs) == "seat" {
            &mut seat_metrics
        } else {
            &mut game_metrics
        };
        if !v.iter().any(|x| x == m.s(i, cm)) {
            v.push(m.s(i, cm).to_string());
        }
    }
    r.h(2, "Game metrics");
    r.p("From metrics.csv: the mean of each per-seat metric for the seats that won (alone in first place), drew and lost, with normal 95% intervals of the mean; where winners' means differ from the others', that metric is where the points come from.");
    for metric in &seat_metrics {
        let outcomes: Vec<&str> = ["won", "draw", "lost"]
            .into_iter()
            .filter(|o| find(metric, "all", o).is_some())
            .collect();
        if outcomes.is_empty() {
            continue;
        }
        let bars = outcomes
            .iter()
            .map(|o| {
                find(metric, "all", o).map(|i| Bar {
                    value: m.f(i, cmean),
                    interval: Some((m.f(i, cl), m.f(i, ch))),
                })
            })
            .collect();
        r.chart(charts::bars(
            &format!("chart-metric-{}", slug(metric)),
            &format!("{metric} by outcome"),
            &outcomes.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            &[Series {
                name: metric.clone(),
                bars,
            }],
            &BarOptions {
                y_label: format!("mean {metric}"),
                small: true,
                ..Default::default()
            },
        ));
    }
    let mut heads: Vec<String> = vec!["metric".into()];
    heads.extend(names.iter().cloned());
    heads.extend(["won".into(), "lost".into()]);
    let rows = seat_metrics
        .iter()
        .map(|metric| {
            let mut row = vec![metric.clone()];
            for a in names.iter().map(String::as_str).chain(["all", "all"]) {
                let o = match row.len() - 1 {
                    k if k < names.len() => "all",
                    k if k == names.len() => "won",
                    _ => "lost",
                };
                row.push(find(metric, a, o).map_or_else(String::new, |i| num(m.f(i, cmean), 3)));
            }
            row
        })
        .collect();
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    r.table(&heads, rows);
    if !game_metrics.is_empty() {
        r.h(3, "Per-game metrics and game length");
        r.table(
            &["metric", "games", "mean [95% CI]", "sd"],
            game_metrics
                .iter()
                .filter_map(|g| find(g, "all", "all"))
                .map(|i| {
                    vec![
                        m.s(i, cm).to_string(),
                        m.s(i, cn).to_string(),
                        format!(
                            "{} [{}, {}]",
                            num(m.f(i, cmean), 3),
                            num(m.f(i, cl), 3),
                            num(m.f(i, ch), 3)
                        ),
                        m.col("sd").map_or_else(String::new, |c| num(m.f(i, c), 3)),
                    ]
                })
                .collect(),
        );
    }
    Ok(())
}

fn labels_section(r: &mut Report, l: &Table) -> Result<(), ReportError> {
    let (cl, cv, ca, cr, clo, chi, cs, cg) = (
        l.need("label")?,
        l.need("value")?,
        l.need("agent")?,
        l.need("win_rate")?,
        l.need("ci_low")?,
        l.need("ci_high")?,
        l.need("mean_score")?,
        l.need("games")?,
    );
    let mut columns: Vec<String> = Vec::new();
    let mut agents: Vec<String> = Vec::new();
    for i in 0..l.rows.len() {
        if !columns.iter().any(|c| c == l.s(i, cl)) {
            columns.push(l.s(i, cl).to_string());
        }
        if l.s(i, ca) != "all" && !agents.iter().any(|a| a == l.s(i, ca)) {
            agents.push(l.s(i, ca).to_string());
        }
    }
    if columns.is_empty() {
        return Ok(());
    }
    r.h(2, "Labels");
    r.p("From labels.csv, within each agent: the win rate of the seats that agent held with each label value (a group wins a game when one of its seats alone holds first place; 95% Wilson intervals). Agents may hold the values unequally (a random assignment still differs by chance, and an agent's seats may differ), so compare values within one agent; the pooled row (all agents) mixes them and is listed last. For a per-game label every seat holds the value, so the mean score is charted instead.");
    for c in &columns {
        let rows_of = |agent: &str| -> Vec<usize> {
            (0..l.rows.len())
                .filter(|&i| l.s(i, cl) == c && l.s(i, ca) == agent)
                .collect()
        };
        let pooled = rows_of("all");
        let cats: Vec<String> = pooled.iter().map(|&i| l.s(i, cv).to_string()).collect();
        let per_game = pooled.iter().all(|&i| l.f(i, cr) >= 1.0);
        let bar = |i: usize| {
            if per_game {
                Bar {
                    value: l.f(i, cs),
                    interval: None,
                }
            } else {
                Bar {
                    value: l.f(i, cr),
                    interval: Some((l.f(i, clo), l.f(i, chi))),
                }
            }
        };
        // One series per agent (the pooled one only when there is a single agent, where
        // it is the same), each value's bar where that agent held it.
        let charted: Vec<&str> = if agents.len() > 1 {
            agents.iter().map(String::as_str).collect()
        } else {
            vec!["all"]
        };
        let series: Vec<Series> = charted
            .iter()
            .map(|agent| {
                let rows = rows_of(agent);
                Series {
                    name: if *agent == "all" {
                        c.clone()
                    } else {
                        (*agent).to_string()
                    },
                    bars: cats
                        .iter()
                        .map(|v| {
                            rows.iter()
                                .find(|&&i| l.s(i, cv) == v && l.u(i, cg) > 0)
                                .map(|&i| bar(i))
                        })
                        .collect(),
                }
            })
            .collect();
        r.chart(charts::bars(
            &format!("chart-label-{}", slug(c)),
            &if per_game {
                format!("Mean score by {c}, per agent")
            } else {
                format!("Win rate by {c}, per agent")
            },
            &cats,
            &series,
            &BarOptions {
                y_label: if per_game {
                    "mean score".into()
                } else {
                    "win rate".into()
                },
                percent: !per_game,
                ..Default::default()
            },
        ));
        let mut table = Vec::new();
        for agent in agents.iter().map(String::as_str).chain(["all"]) {
            if agent == "all" && agents.len() == 1 {
                continue;
            }
            for i in rows_of(agent) {
                table.push(vec![
                    if agent == "all" {
                        "all (pooled)".to_string()
                    } else {
                        agent.to_string()
                    },
                    l.s(i, cv).to_string(),
                    l.s(i, cg).to_string(),
                    rate_ci(l.f(i, cr), l.f(i, clo), l.f(i, chi)),
                    num(l.f(i, cs), 3),
                ]);
            }
        }
        r.table(
            &[
                "agent",
                c.as_str(),
                "games",
                "win rate [95% CI]",
                "mean score",
            ],
            table,
        );
    }
    Ok(())
}
