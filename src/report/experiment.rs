//! The reports of experiment directories: sweeps, ladders and endgame experiments (see the
//! module docs of [`crate::report`]).

use std::path::Path;

use super::charts::{self, Bar, BarOptions, Series};
use super::data::{Table, read_toml, toml_str};
use super::{BOOTSTRAP_REPLICATES, BOOTSTRAP_SEED, Report, ReportError};
use crate::format::{self, num, pct, rate_ci};
use crate::stats::ratings::{PairCount, bradley_terry_bootstrap};
use crate::stats::{self, Difference, MeanSd};

/// Short names for agent specs: the kind (`mcts`) when no other spec has that kind,
/// otherwise the kind and the parameters in which its specs differ (`mcts iters=500`).
/// Names are made unique by a `#n` suffix if needed.
pub fn short_names(specs: &[String]) -> Vec<String> {
    let kind = |s: &str| s.split(':').next().unwrap_or(s).to_string();
    let params = |s: &str| -> Vec<(String, String)> {
        s.split_once(':')
            .map(|(_, p)| {
                p.split(',')
                    .filter_map(|kv| {
                        kv.split_once('=')
                            .map(|(k, v)| (k.to_string(), v.to_string()))
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out: Vec<String> = specs
        .iter()
        .map(|s| {
            let k = kind(s);
            let same: Vec<&String> = specs.iter().filter(|o| kind(o) == k).collect();
            if same.len() == 1 {
                return k;
            }
            let mine = params(s);
            let differing: Vec<String> = mine
                .iter()
                .filter(|(key, v)| {
                    same.iter().any(|o| {
                        params(o).iter().find(|(k2, _)| k2 == key).map(|x| &x.1) != Some(v)
                    })
                })
                .map(|(key, v)| format!("{key}={v}"))
                .collect();
            if differing.is_empty() {
                k
            } else {
                format!("{k} {}", differing.join(","))
            }
        })
        .collect();
    for i in 0..out.len() {
        let dup: Vec<usize> = (0..out.len()).filter(|&j| out[j] == out[i]).collect();
        if dup.len() > 1 {
            for (n, j) in dup.into_iter().enumerate() {
                out[j] = format!("{}#{}", out[j], n + 1);
            }
        }
    }
    out
}

/// The setup table of an experiment from `experiment.toml`.
fn setup(dir: &Path, r: &mut Report, kind: &str) -> Result<Option<toml::Table>, ReportError> {
    let e = read_toml(dir, "experiment.toml")?;
    let get = |k: &str| e.as_ref().and_then(|t| toml_str(t, k));
    let name = get("experiment.name").unwrap_or_else(|| dir.display().to_string());
    let game = get("experiment.game").unwrap_or_else(|| "?".into());
    r.title = format!("{name}: {kind} of {game}");
    r.h(2, "Setup");
    let mut rows = Vec::new();
    for k in [
        "name",
        "kind",
        "game",
        "players",
        "variant",
        "games",
        "seed",
        "positions",
        "max_deck",
    ] {
        if let Some(v) = get(&format!("experiment.{k}")) {
            if !v.is_empty() {
                rows.push(vec![k.to_string(), v]);
            }
        }
    }
    for k in ["version", "command", "reproducible"] {
        if let Some(v) = get(k) {
            rows.push(vec![k.into(), v]);
        }
    }
    r.table(&["setting", "value"], rows);
    Ok(e)
}

/// The endgame report.
pub(super) fn endgame(dir: &Path) -> Result<Report, ReportError> {
    let mut r = Report::default();
    setup(dir, &mut r, "endgame exploitability")?;
    let t = Table::read(&dir.join("endgame.csv"))?;
    let (ca, cn, cm, cl, ch) = (
        t.need("agent")?,
        t.need("n")?,
        t.need("mean_loss")?,
        t.need("ci_low")?,
        t.need("ci_high")?,
    );
    let specs: Vec<String> = (0..t.rows.len()).map(|i| t.s(i, ca).to_string()).collect();
    let names = short_names(&specs);
    r.h(2, "Loss against equilibrium");
    r.p("Per agent, over positions × seats: the win probability an agent's policy loses against a best response compared with the exact equilibrium (0 = plays like an equilibrium); normal 95% intervals of the mean.");
    r.chart(charts::bars(
        "chart-endgame-loss",
        "Mean loss against equilibrium (95% interval)",
        &names,
        &[Series {
            name: "mean loss".into(),
            bars: (0..t.rows.len())
                .map(|i| {
                    Some(Bar {
                        value: t.f(i, cm),
                        interval: Some((t.f(i, cl), t.f(i, ch))),
                    })
                })
                .collect(),
        }],
        &BarOptions {
            y_label: "mean loss (win probability)".into(),
            ..Default::default()
        },
    ));
    r.table(
        &["agent", "spec", "n", "mean loss [95% CI]", "max loss"],
        (0..t.rows.len())
            .map(|i| {
                vec![
                    names[i].clone(),
                    specs[i].clone(),
                    t.s(i, cn).to_string(),
                    format!(
                        "{} [{}, {}]",
                        num(t.f(i, cm), 4),
                        num(t.f(i, cl), 4),
                        num(t.f(i, ch), 4)
                    ),
                    t.col("max_loss")
                        .map_or_else(String::new, |c| num(t.f(i, c), 4)),
                ]
            })
            .collect(),
    );
    Ok(r)
}

/// The ladder report.
pub(super) fn ladder(dir: &Path) -> Result<Report, ReportError> {
    let mut r = Report::default();
    setup(dir, &mut r, "ladder")?;
    let l = Table::read(&dir.join("ladder.csv"))?;
    let p = Table::read(&dir.join("pairs.csv"))?;
    let (la, le, llo, lhi, lg, ls) = (
        l.need("agent")?,
        l.need("elo")?,
        l.need("ci_low")?,
        l.need("ci_high")?,
        l.need("games")?,
        l.need("score")?,
    );
    let specs: Vec<String> = (0..l.rows.len()).map(|i| l.s(i, la).to_string()).collect();
    let names = short_names(&specs);
    let idx = |s: &str| specs.iter().position(|x| x == s);
    let (pa, pb, paw, pbw, pd) = (
        p.need("agent_a")?,
        p.need("agent_b")?,
        p.need("a_wins")?,
        p.need("b_wins")?,
        p.need("draws")?,
    );
    let mut pairs = Vec::new();
    for i in 0..p.rows.len() {
        let (Some(a), Some(b)) = (idx(p.s(i, pa)), idx(p.s(i, pb))) else {
            return Err(ReportError::Read {
                path: p.path.clone(),
                message: format!("row {}: agents not in ladder.csv", i + 2),
            });
        };
        pairs.push(PairCount {
            a,
            b,
            a_wins: p.u(i, paw),
            b_wins: p.u(i, pbw),
            draws: p.u(i, pd),
        });
    }
    let boot = bradley_terry_bootstrap(&specs, &pairs, BOOTSTRAP_REPLICATES, BOOTSTRAP_SEED);
    r.h(2, "Ratings");
    r.p(format!(
        "Bradley–Terry strengths from every pair's games (Hunter 2004 MM; a draw is half a win; one virtual draw per pair), on the Elo scale with {} anchored at 0. Two 95% intervals: from the observed Fisher information (ladder.csv), and the percentile bootstrap ({BOOTSTRAP_REPLICATES} stratified resamples of each pair's games, seed {BOOTSTRAP_SEED}).",
        names.first().cloned().unwrap_or_default()
    ));
    let one_sided: Vec<String> = pairs
        .iter()
        .filter(|pc| pc.draws == 0 && (pc.a_wins == 0 || pc.b_wins == 0))
        .map(|pc| format!("{} – {}", names[pc.a], names[pc.b]))
        .collect();
    if !one_sided.is_empty() {
        r.p(format!(
            "Some pairs won every game one way ({}): resampling such a pair's games cannot vary them, so the bootstrap interval is too narrow (it collapses to a point when every pair is one-sided); the Fisher interval, with its virtual draws, is the honest one there.",
            one_sided.join(", ")
        ));
    }
    r.chart(charts::rating_bars(
        "Rating (Elo scale, bootstrap 95% interval)",
        &names,
        &boot,
    ));
    r.table_model(
        format::Table::new(
            &[
                "agent",
                "rating",
                "Fisher 95% CI",
                "bootstrap 95% CI",
                "games",
                "score",
                "spec",
            ],
            (0..l.rows.len())
                .map(|i| {
                    vec![
                        names[i].clone(),
                        num(l.f(i, le), 1),
                        format!("[{}, {}]", num(l.f(i, llo), 1), num(l.f(i, lhi), 1)),
                        boot.get(i).map_or_else(String::new, |b| {
                            format!("[{}, {}]", num(b.ci_low, 1), num(b.ci_high, 1))
                        }),
                        l.s(i, lg).to_string(),
                        num(l.f(i, ls), 3),
                        specs[i].clone(),
                    ]
                })
                .collect(),
        )
        .unit("rating", "Elo"),
    );

    // Head to head.
    let n = specs.len();
    let mut m = vec![vec![None; n]; n];
    for pc in &pairs {
        let g = (pc.a_wins + pc.b_wins + pc.draws).max(1) as f64;
        m[pc.a][pc.b] = Some(pc.a_wins as f64 / g);
        m[pc.b][pc.a] = Some(pc.b_wins as f64 / g);
    }
    r.h(2, "Head to head");
    r.p("Each cell: the share of the games between the two agents that the row's agent won (draws count for neither).");
    r.chart(charts::heat_map(
        "chart-head-to-head",
        "Head-to-head win rate (row against column)",
        &names,
        &names,
        &m,
    ));
    let mut heads = vec!["agent".to_string()];
    heads.extend(names.iter().cloned());
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    r.table(
        &heads,
        (0..n)
            .map(|i| {
                let mut row = vec![names[i].clone()];
                row.extend(m[i].iter().map(|v| v.map_or_else(|| "–".to_string(), pct)));
                row
            })
            .collect(),
    );

    // Chance versus skill.
    let strongest = (0..n).max_by(|&a, &b| l.f(a, le).total_cmp(&l.f(b, le)));
    let random = (0..n).find(|&i| specs[i] == "random" || specs[i].starts_with("random:"));
    if let (Some(s), Some(rd)) = (strongest, random) {
        if s != rd {
            if let Some(pc) = pairs
                .iter()
                .find(|pc| (pc.a, pc.b) == (rd, s) || (pc.a, pc.b) == (s, rd))
            {
                let (wins, games) = (
                    if pc.a == rd { pc.a_wins } else { pc.b_wins },
                    pc.a_wins + pc.b_wins + pc.draws,
                );
                let (x, lo, hi) = stats::chance_vs_skill(wins, games);
                r.h(2, "Chance versus skill");
                r.verdict(format!(
                    "random beats the strongest agent ({}) in {} of {games} games ({wins} wins, 95% Wilson interval).",
                    names[s],
                    rate_ci(x, lo, hi)
                ));
            }
        }
    }

    // Skill depth.
    let budget = |s: &str| {
        s.split_once(':').and_then(|(_, p)| {
            p.split(',').find_map(|kv| {
                kv.strip_prefix("iters=")
                    .and_then(|v| v.parse::<u64>().ok())
            })
        })
    };
    let mut kinds: Vec<String> = Vec::new();
    for s in &specs {
        let k = s.split(':').next().unwrap_or(s).to_string();
        if budget(s).is_some() && !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    let mut series = Vec::new();
    let mut rows = Vec::new();
    for k in &kinds {
        let pts: Vec<(u64, u64, u64)> = (0..n)
            .filter(|&i| specs[i].split(':').next() == Some(k.as_str()))
            .filter_map(|i| {
                budget(&specs[i]).map(|b| {
                    (
                        b,
                        (l.f(i, ls) * l.u(i, lg) as f64).round() as u64,
                        l.u(i, lg),
                    )
                })
            })
            .collect();
        if pts.len() < 2 {
            continue;
        }
        let depth = stats::skill_depth(&pts);
        series.push((
            k.clone(),
            depth
                .iter()
                .map(|d| (d.budget as f64, d.rate.0, d.rate.1, d.rate.2))
                .collect(),
        ));
        for d in &depth {
            rows.push(vec![
                k.clone(),
                d.budget.to_string(),
                d.games.to_string(),
                rate_ci(d.rate.0, d.rate.1, d.rate.2),
                d.gain.map_or_else(|| "–".into(), |g| diff_points(&g)),
            ]);
        }
    }
    if !series.is_empty() {
        r.h(2, "Skill depth");
        r.p("Score against the whole field (wins + draws/2 over all the agent's ladder games, 95% Wilson interval) as a function of the search budget (iterations per decision), per agent kind; the gain is the change from the previous budget (Newcombe interval, z-test). More search that keeps scoring more means depth a player can learn.");
        r.chart(charts::lines(
            "chart-skill-depth",
            "Score against the field by search budget",
            ("iterations per decision (log scale)", "score"),
            &series,
            true,
            charts::LegendAt::LowerRight,
        ));
        r.table_model(
            format::Table::new(
                &[
                    "kind",
                    "iterations",
                    "games",
                    "score [95% CI]",
                    "gain over previous budget",
                ],
                rows,
            )
            .unit("gain over previous budget", "points"),
        );
    }
    Ok(r)
}

/// A difference of proportions in percentage points with its interval and p-value.
fn diff_points(d: &Difference) -> String {
    format!(
        "{:+.1} [{:.1}, {:.1}], {}",
        100.0 * d.estimate,
        100.0 * d.low,
        100.0 * d.high,
        crate::format::format_p(d.p_value)
    )
}

/// One cell of a sweep: its id and factor values.
#[derive(Clone, Debug)]
struct Cell {
    id: String,
    values: Vec<String>,
}

/// "Decisiveness by cell" (cells run with `decisiveness = true`): the leader's win rate
/// after 10%..90% of the rounds, a line per cell, and a table with the 20%, 50% and 80%
/// points, a seat's share and the mean lead changes. Nothing when no cell has
/// `decisiveness.csv`.
fn decisiveness_by_cell(
    r: &mut Report,
    dir: &Path,
    cells: &[Cell],
    factors: &[String],
) -> Result<(), ReportError> {
    // Lines are named by factor and value (`players 3`), rows by the values alone.
    let named = |c: &Cell| {
        factors
            .iter()
            .zip(&c.values)
            .map(|(f, v)| format!("{f} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines: Vec<charts::Line> = Vec::new();
    let mut rows: Vec<Vec<String>> = Vec::new();
    for c in cells {
        let cdir = dir.join("cells").join(&c.id);
        let Some(d) = Table::read_opt(&cdir, "decisiveness.csv")? else {
            continue;
        };
        let points = super::tournament::decisiveness_points(&d)?;
        let at = |q: f64| {
            points
                .iter()
                .find(|p| p.0 == q)
                .map_or_else(|| "–".into(), |&(_, y, lo, hi)| rate_ci(y, lo, hi))
        };
        let (at20, at50, at80) = (at(20.0), at(50.0), at(80.0));
        lines.push((named(c), points));
        let players = read_toml(&cdir, "config.toml")?
            .and_then(|t| toml_str(&t, "tournament.players"))
            .and_then(|p| p.parse::<f64>().ok());
        let mut changes = "–".to_string();
        if let Some(l) = Table::read_opt(&cdir, "lead_changes.csv")?
            && let Some((_, mean, none)) = super::tournament::lead_change_summary(&l)?
        {
            changes = format!("{} (none in {})", num(mean, 2), pct(none));
        }
        rows.push(vec![
            c.id.clone(),
            c.values.join(", "),
            players.map_or_else(|| "–".into(), |p| pct(1.0 / p)),
            at20,
            at50,
            at80,
            changes,
        ]);
    }
    if rows.is_empty() {
        return Ok(());
    }
    r.h(2, "Decisiveness by cell");
    r.p(format!("{} How often the leader after a share of the game's rounds wins (the only seat ranked first; 95% Wilson intervals), per cell (decisiveness.csv in each cell), against a seat's share; lead changes per game counted over the leaders after each round and the winner (lead_changes.csv).", super::tournament::LEADER_DEFINITION));
    r.chart(charts::lines(
        "chart-sweep-decisiveness",
        "Leader's win rate after a share of the rounds, by cell",
        ("% of the game's rounds played", "leader wins"),
        &lines,
        false,
        charts::LegendAt::UpperLeft,
    ));
    r.table(
        &[
            "cell",
            "factors",
            "a seat's share",
            "leader wins after 20%",
            "after 50%",
            "after 80%",
            "lead changes per game",
        ],
        rows,
    );
    Ok(())
}

/// The sweep report.
pub(super) fn sweep(dir: &Path) -> Result<Report, ReportError> {
    let mut r = Report::default();
    setup(dir, &mut r, "sweep")?;
    let s = Table::read(&dir.join("sweep.csv"))?;
    let seats = Table::read_opt(dir, "sweep_seats.csv")?;
    let (ccell, cagent) = (s.need("cell")?, s.need("agent")?);
    let factors: Vec<String> = s.headers[ccell + 1..cagent].to_vec();
    let fcols: Vec<usize> = (ccell + 1..cagent).collect();
    let (cspec, cg, cw, cr, cl, ch) = (
        s.need("spec")?,
        s.need("games")?,
        s.need("wins")?,
        s.need("win_rate")?,
        s.need("ci_low")?,
        s.need("ci_high")?,
    );
    let mut cells: Vec<Cell> = Vec::new();
    for i in 0..s.rows.len() {
        if cells.last().map(|c| c.id.as_str()) != Some(s.s(i, ccell)) {
            cells.push(Cell {
                id: s.s(i, ccell).to_string(),
                values: fcols.iter().map(|&c| s.s(i, c).to_string()).collect(),
            });
        }
    }
    let mut specs: Vec<String> = Vec::new();
    for i in 0..s.rows.len() {
        if !specs.iter().any(|x| x == s.s(i, cspec)) {
            specs.push(s.s(i, cspec).to_string());
        }
    }
    let names = short_names(&specs);
    let name_of = |spec: &str| {
        specs
            .iter()
            .position(|x| x == spec)
            .map_or_else(|| spec.to_string(), |i| names[i].clone())
    };
    let cell_label = |c: &Cell| c.values.join(", ");
    let row_of = |cell: &str, spec: &str| {
        (0..s.rows.len()).find(|&i| s.s(i, ccell) == cell && s.s(i, cspec) == spec)
    };

    r.h(2, "Cells");
    r.p(format!(
        "One tournament per cell (in cells/NNN/), every cell with the same seed and number of games; factors: {}.",
        factors.join(", ")
    ));
    let cats: Vec<String> = cells.iter().map(&cell_label).collect();
    r.chart(charts::bars(
        "chart-sweep-win-rates",
        "Win rate by cell and agent (95% Wilson interval)",
        &cats,
        &specs
            .iter()
            .zip(&names)
            .map(|(spec, n)| Series {
                name: n.clone(),
                bars: cells
                    .iter()
                    .map(|c| {
                        row_of(&c.id, spec).map(|i| Bar {
                            value: s.f(i, cr),
                            interval: Some((s.f(i, cl), s.f(i, ch))),
                        })
                    })
                    .collect(),
            })
            .collect::<Vec<_>>(),
        &BarOptions {
            y_label: "win rate".into(),
            percent: true,
            x_label: factors.join(", "),
            ..Default::default()
        },
    ));
    let mut heads: Vec<String> = vec!["cell".into()];
    heads.extend(factors.iter().cloned());
    heads.extend(["agent", "games", "wins", "win rate [95% CI]", "expected"].map(String::from));
    let rows = (0..s.rows.len())
        .map(|i| {
            let mut row = vec![s.s(i, ccell).to_string()];
            row.extend(fcols.iter().map(|&c| s.s(i, c).to_string()));
            row.extend([
                name_of(s.s(i, cspec)),
                s.s(i, cg).to_string(),
                s.s(i, cw).to_string(),
                rate_ci(s.f(i, cr), s.f(i, cl), s.f(i, ch)),
                s.col("expected_win_rate")
                    .map_or_else(String::new, |c| pct(s.f(i, c))),
            ]);
            row
        })
        .collect();
    let hs: Vec<&str> = heads.iter().map(String::as_str).collect();
    r.table(&hs, rows);

    // Seats per cell.
    let seat_row = |t: &Table, cell: &str, seat: usize| -> Option<usize> {
        let (c0, c1) = (t.col("cell")?, t.col("seat")?);
        (0..t.rows.len()).find(|&i| t.s(i, c0) == cell && t.s(i, c1) == seat.to_string())
    };
    if let Some(t) = &seats {
        let (tr, tl, th, ts) = (
            t.need("win_rate")?,
            t.need("ci_low")?,
            t.need("ci_high")?,
            t.need("seat")?,
        );
        let max_seat = (0..t.rows.len())
            .map(|i| t.u(i, ts) as usize)
            .max()
            .unwrap_or(0);
        r.h(2, "Seat advantage by cell");
        r.chart(charts::bars(
            "chart-sweep-seats",
            "Win rate by cell and seat (95% Wilson interval)",
            &cats,
            &(0..=max_seat)
                .map(|seat| Series {
                    name: format!("seat {seat}"),
                    bars: cells
                        .iter()
                        .map(|c| {
                            seat_row(t, &c.id, seat).map(|i| Bar {
                                value: t.f(i, tr),
                                interval: Some((t.f(i, tl), t.f(i, th))),
                            })
                        })
                        .collect(),
                })
                .collect::<Vec<_>>(),
            &BarOptions {
                y_label: "win rate".into(),
                percent: true,
                x_label: factors.join(", "),
                ..Default::default()
            },
        ));
        if let (Some(cst), Some(cp)) = (t.col("seat_test"), t.col("p_value")) {
            r.table(
                &["cell", "factors", "test of equal seats", "p"],
                cells
                    .iter()
                    .filter_map(|c| seat_row(t, &c.id, 0).map(|i| (c, i)))
                    .map(|(c, i)| {
                        vec![
                            c.id.clone(),
                            cell_label(c),
                            t.s(i, cst).to_string(),
                            crate::format::format_p(t.f(i, cp)),
                        ]
                    })
                    .collect(),
            );
        }
    }

    decisiveness_by_cell(&mut r, dir, &cells, &factors)?;

    // Variant comparison.
    let mut verdicts: Vec<String> = Vec::new();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut chart_cats: Vec<String> = Vec::new();
    let mut chart_bars: Vec<Option<Bar>> = Vec::new();
    for (fi, f) in factors.iter().enumerate() {
        let mut levels: Vec<String> = Vec::new();
        for c in &cells {
            if !levels.contains(&c.values[fi]) {
                levels.push(c.values[fi].clone());
            }
        }
        if levels.len() < 2 {
            continue;
        }
        for c in cells.iter().filter(|c| c.values[fi] != levels[0]) {
            let Some(base) = cells.iter().find(|b| {
                b.values[fi] == levels[0]
                    && (0..factors.len()).all(|k| k == fi || b.values[k] == c.values[k])
            }) else {
                continue;
            };
            let others: Vec<String> = (0..factors.len())
                .filter(|&k| k != fi)
                .map(|k| format!("{}={}", factors[k], c.values[k]))
                .collect();
            let context = if others.is_empty() {
                String::new()
            } else {
                format!(" ({})", others.join(", "))
            };
            let subject = format!("{f}={} (against {}){context}", c.values[fi], levels[0]);
            // `chart`: a bar of the comparison chart; `say`: a verdict line (every
            // comparison is a table row).
            let mut push =
                |what: String, d: Difference, scale: f64, unit: &str, chart: bool, say: bool| {
                    let v = d.verdict(&subject, &what, scale, unit);
                    rows.push(vec![
                        f.clone(),
                        format!("{} vs {}", c.values[fi], levels[0]),
                        others.join(", "),
                        what.clone(),
                        format!(
                            "{:+.*}",
                            if scale >= 100.0 { 1 } else { 3 },
                            d.estimate * scale
                        ),
                        format!(
                            "[{:.*}, {:.*}]",
                            if scale >= 100.0 { 1 } else { 3 },
                            d.low * scale,
                            if scale >= 100.0 { 1 } else { 3 },
                            d.high * scale
                        ),
                        crate::format::format_p(d.p_value),
                        d.method.to_string(),
                    ]);
                    if chart {
                        chart_cats.push(format!("{}: {what}", c.values[fi]));
                        chart_bars.push(Some(Bar {
                            value: d.estimate * scale,
                            interval: Some((d.low * scale, d.high * scale)),
                        }));
                    }
                    if say {
                        verdicts.push(v);
                    }
                };
            if f != "players" {
                // With two agents (or two seats) and no draws the second row mirrors the
                // first, so only the first gets a verdict line; the table has both.
                let mirror = |k: usize, of: usize| of == 2 && k == 1;
                // In self-play (one agent in the cell) the agent wins every game without
                // a draw: its win rate says nothing, the seats' rows below do.
                let agents_in =
                    |cell: &str| (0..s.rows.len()).filter(|&i| s.s(i, ccell) == cell).count();
                let self_play = agents_in(&c.id) == 1 && agents_in(&base.id) == 1;
                let compared = if self_play { &[][..] } else { &specs[..] };
                for (k, spec) in compared.iter().enumerate() {
                    let quiet = mirror(k, specs.len());
                    if let (Some(i), Some(j)) = (row_of(&c.id, spec), row_of(&base.id, spec)) {
                        let d = stats::proportion_difference(
                            s.u(i, cw),
                            s.u(i, cg),
                            s.u(j, cw),
                            s.u(j, cg),
                        );
                        push(
                            format!("{}'s win rate", name_of(spec)),
                            d,
                            100.0,
                            "points",
                            !quiet,
                            !quiet,
                        );
                    }
                }
                if let Some(t) = &seats {
                    let (tw, tg) = (t.need("wins")?, t.need("games")?);
                    let mut seat = 0;
                    while let (Some(i), Some(j)) =
                        (seat_row(t, &c.id, seat), seat_row(t, &base.id, seat))
                    {
                        let d = stats::proportion_difference(
                            t.u(i, tw),
                            t.u(i, tg),
                            t.u(j, tw),
                            t.u(j, tg),
                        );
                        let quiet = seat == 1 && seat_row(t, &c.id, 2).is_none();
                        push(
                            format!("seat {seat}'s win rate"),
                            d,
                            100.0,
                            "points",
                            true,
                            !quiet,
                        );
                        seat += 1;
                    }
                }
            }
            let (mc, mb) = (
                Table::read_opt(&dir.join("cells").join(&c.id), "metrics.csv")?,
                Table::read_opt(&dir.join("cells").join(&base.id), "metrics.csv")?,
            );
            if let (Some(mc), Some(mb)) = (mc, mb) {
                for (metric, label) in [
                    ("score", "mean score"),
                    ("rounds", "mean rounds"),
                    ("plies", "mean plies"),
                ] {
                    if let (Some(a), Some(b)) =
                        (metric_mean(&mc, metric)?, metric_mean(&mb, metric)?)
                    {
                        push(
                            label.to_string(),
                            stats::mean_difference(a, b),
                            1.0,
                            "",
                            false,
                            true,
                        );
                    }
                }
            }
        }
    }
    if !rows.is_empty() {
        r.h(2, "Variant comparison");
        r.p("Each level of a factor against the factor's first level, in cells that agree on every other factor. Win rates: the difference in percentage points with Newcombe's (1998) hybrid score 95% interval and a pooled two-proportion z-test; means (from each cell's metrics.csv): Welch's (1947) t interval and test. The cells share their seed (common random numbers), which usually makes these independent-sample intervals conservative. Verdicts call a change detectable at p < 0.05, one comparison at a time (no correction for the number of comparisons).");
        for v in &verdicts {
            r.verdict(v.clone());
        }
        r.chart(charts::bars(
            "chart-variant-comparison",
            "Change in win rate against the first level (percentage points, 95% interval)",
            &chart_cats,
            &[Series {
                name: "difference".into(),
                bars: chart_bars,
            }],
            &BarOptions {
                y_label: "difference (points)".into(),
                reference: Some((0.0, "no change".into())),
                ..Default::default()
            },
        ));
        r.table(
            &[
                "factor",
                "levels",
                "other factors",
                "quantity",
                "difference",
                "95% CI",
                "p",
                "method",
            ],
            rows,
        );
    } else {
        r.h(2, "Variant comparison");
        r.p("No factor has two levels in cells that agree on the other factors: nothing to compare.");
    }
    Ok(r)
}

/// The `all`/`all` row of `metric` in a cell's `metrics.csv` as a mean, sd and n.
fn metric_mean(m: &Table, metric: &str) -> Result<Option<MeanSd>, ReportError> {
    let (cm, ca, co, cn, cmean, csd) = (
        m.need("metric")?,
        m.need("agent")?,
        m.need("outcome")?,
        m.need("n")?,
        m.need("mean")?,
        m.need("sd")?,
    );
    Ok((0..m.rows.len())
        .find(|&i| m.s(i, cm) == metric && m.s(i, ca) == "all" && m.s(i, co) == "all")
        .map(|i| MeanSd {
            mean: m.f(i, cmean),
            sd: m.f(i, csd),
            n: m.u(i, cn),
        })
        .filter(|x| x.mean.is_finite() && x.sd.is_finite()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_keep_what_differs() {
        let specs: Vec<String> = [
            "random",
            "greedy:samples=4",
            "mcts:iters=500,c=0.7",
            "mcts:iters=5000,c=0.7",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            short_names(&specs),
            ["random", "greedy", "mcts iters=500", "mcts iters=5000"]
        );
        let same: Vec<String> = vec!["random".into(), "random".into()];
        assert_eq!(short_names(&same), ["random#1", "random#2"]);
    }
}
