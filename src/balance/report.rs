//! The balance section of a report: the question, the recommendation with its interval,
//! the verification against each one-step deviation, and the search path, as a
//! [`crate::report::Report`] (`report.html` with SVG charts, `report.md` without).

use crate::format::f6;
use crate::report::charts::{self, Bar, BarOptions, LegendAt, Series};
use crate::report::{Block, Report};
use crate::stats::Difference;

use super::spec::{Evaluator, Spec};
use super::{Search, Study, point_settings};

/// The response's name in charts and tables.
fn response_words(spec: &Spec) -> &'static str {
    kind_words(spec.objective().kind)
}

/// An objective kind's measure in charts and tables.
fn kind_words(kind: super::spec::ObjectiveKind) -> &'static str {
    match kind {
        super::spec::ObjectiveKind::EqualWins => "win share gap",
        super::spec::ObjectiveKind::EqualScore => "score gap",
        super::spec::ObjectiveKind::Length => "plies",
        super::spec::ObjectiveKind::WinShare => "win share",
    }
}

/// The Pareto front (`method = "front"`): a verdict naming the front, a chart of the
/// front's first two objectives (each front point's estimates, whiskers the second
/// objective's 95% interval), and a table of every point with each objective's estimate
/// and interval.
fn front_section(r: &mut Report, spec: &Spec, f: &super::front::FrontResult) {
    let on: Vec<String> = f
        .front()
        .map(|p| point_settings(spec, &p.point).join(" "))
        .collect();
    r.verdict(format!(
        "Pareto front: {} of {} settings are not dominated on {} ({} games each): {}.",
        on.len(),
        f.points.len(),
        spec.objectives
            .iter()
            .map(|o| format!(
                "{} ({}{})",
                o.label(),
                o.goal.word(),
                if o.goal == super::spec::ObjectiveGoal::Target {
                    format!(" {}", f6(o.target_value()))
                } else {
                    String::new()
                }
            ))
            .collect::<Vec<_>>()
            .join(", "),
        f.games,
        on.join("; ")
    ));
    if spec.objectives.len() >= 2 {
        let (a, b) = (&spec.objectives[0], &spec.objectives[1]);
        let mut pts: Vec<charts::Point> = f
            .front()
            .map(|p| {
                (
                    p.means[0].estimate,
                    p.means[1].estimate,
                    p.means[1].low.max(-1e9),
                    p.means[1].high.min(1e9),
                )
            })
            .collect();
        pts.sort_by(|x, y| x.0.total_cmp(&y.0));
        let xl = format!("{} ({})", a.label(), kind_words(a.kind));
        let yl = format!("{} ({})", b.label(), kind_words(b.kind));
        r.chart(charts::lines(
            "chart-balance-front",
            "The Pareto front: each front setting's estimates of the first two objectives \
             (whiskers: the second's 95% interval)",
            (&xl, &yl),
            &[("front".to_string(), pts)],
            false,
            LegendAt::UpperRight,
        ));
    }
    let mut header = vec!["setting".to_string(), "front".to_string()];
    header.extend(spec.objectives.iter().map(|o| o.label()));
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    r.table(
        &header_refs,
        f.points
            .iter()
            .map(|p| {
                let mut row = vec![
                    point_settings(spec, &p.point).join(" "),
                    if p.on_front { "yes" } else { "" }.to_string(),
                ];
                row.extend(
                    p.means
                        .iter()
                        .map(|m| format!("{} [{}, {}]", f6(m.estimate), f6(m.low), f6(m.high))),
                );
                row
            })
            .collect(),
    );
}

/// The report of a finished study; `command` is the exact rerun command.
pub fn build(spec: &Spec, study: &Study, command: &str) -> Report {
    let mut r = Report {
        title: format!("Balance study {}", spec.name),
        blocks: Vec::new(),
    };
    let players = spec
        .players
        .map_or_else(|| "default".to_string(), |n| n.to_string());
    let params = spec
        .parameter
        .iter()
        .map(|p| match (p.low, p.high) {
            (Some(l), Some(h)) if p.values.is_empty() => {
                format!("{} = {} in [{l}, {h}]", p.name, p.variant)
            }
            _ => format!("{} = {} in {{{}}}", p.name, p.variant, p.values.join(", ")),
        })
        .collect::<Vec<_>>()
        .join("; ");
    r.p(format!(
        "Game {}, players {players}, {}; objective {} of seat {} (the response is 0 at \
         balance: {}); searched by {}: {params}{}.",
        spec.game,
        match spec.evaluator {
            Evaluator::Games => format!("lineup {}", spec.agents.join(", ")),
            Evaluator::Equilibrium => format!(
                "equilibrium play (CFR+, {} iterations, exact value per deal)",
                spec.solver_iters
            ),
        },
        spec.objective().kind.word(),
        spec.objective().seat,
        response_words(spec),
        spec.method,
        if spec.variant.is_empty() {
            String::new()
        } else {
            format!("; fixed settings {}", spec.variant.join(" "))
        }
    ));
    if let Some((v, e)) = study.equilibrium {
        r.p(format!(
            "The profile's value for seat 0 is {} chips (Kuhn 1950: −1/18 = −0.055556); \
             exploitability {}.",
            f6(v),
            f6(e)
        ));
    }
    r.h(2, "Recommendation");
    match &study.search {
        Search::Root(s) => r.verdict(format!(
            "{} = {} ({}): estimate {}, {:.0}% interval [{}, {}] on the balanced value, {} \
             games, stopped: {}.",
            spec.param().name,
            study.values[0],
            study.settings[0],
            f6(s.estimate),
            100.0 * (1.0 - spec.alpha),
            f6(s.low),
            f6(s.high),
            s.samples,
            s.stop.word()
        )),
        other => r.verdict(format!(
            "{} (chosen by {} after {} games; {} gives no interval on the balanced value: \
             the verification below tests the choice against its neighbours).",
            study.settings.join(" "),
            spec.method,
            other.samples(),
            spec.method
        )),
    }
    verification(&mut r, spec, study);
    r.h(2, "Search path");
    match &study.search {
        Search::Root(s) => {
            let mut pts: Vec<charts::Point> = s
                .probes
                .iter()
                .map(|p| (p.x, p.mean, p.low.max(-1e9), p.high.min(1e9)))
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            r.chart(charts::lines(
                "chart-balance-probes",
                "Mean response at each probe (whiskers: per-look interval)",
                (&spec.param().name, response_words(spec)),
                &[("probes".to_string(), pts)],
                false,
                LegendAt::UpperLeft,
            ));
            r.table(
                &["probe", "x", "games", "mean", "interval", "sign", "bracket"],
                s.probes
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        vec![
                            i.to_string(),
                            f6(p.x),
                            p.samples.to_string(),
                            f6(p.mean),
                            format!("[{}, {}]", f6(p.low), f6(p.high)),
                            p.sign.word().to_string(),
                            format!("[{}, {}]", f6(p.bracket.0), f6(p.bracket.1)),
                        ]
                    })
                    .collect(),
            );
        }
        Search::Race { race, arms } => {
            let names: Vec<String> = arms
                .iter()
                .map(|a| point_settings(spec, a).join(" "))
                .collect();
            r.chart(response_chart(
                spec,
                "chart-balance-arms",
                "Mean response per setting (95% t interval over its games)",
                &names,
                race.arms.iter().map(|a| &a.mean),
            ));
            r.table(
                &[
                    "arm",
                    "setting",
                    "games",
                    "mean",
                    "95% interval",
                    "dropped in round",
                ],
                race.arms
                    .iter()
                    .map(|a| {
                        vec![
                            a.index.to_string(),
                            names[a.index].clone(),
                            a.samples.to_string(),
                            f6(a.mean.estimate),
                            format!("[{}, {}]", f6(a.mean.low), f6(a.mean.high)),
                            a.dropped_in
                                .map_or_else(|| "survived".to_string(), |d| d.to_string()),
                        ]
                    })
                    .collect(),
            );
        }
        Search::Front(f) => front_section(&mut r, spec, f),
        Search::Ntbea(n) => {
            let pts: Vec<charts::Point> = n
                .evaluations
                .iter()
                .enumerate()
                .map(|(i, e)| (i as f64, e.mean, e.mean, e.mean))
                .collect();
            r.chart(charts::lines(
                "chart-balance-ntbea",
                "Mean response of each evaluation (the point NTBEA stood on)",
                ("iteration", response_words(spec)),
                &[("evaluations".to_string(), pts)],
                false,
                LegendAt::UpperRight,
            ));
            // The distinct points evaluated, most evaluated first.
            let mut seen: Vec<(Vec<usize>, u64, f64, f64)> = Vec::new();
            for e in &n.evaluations {
                match seen.iter_mut().find(|s| s.0 == e.point) {
                    Some(s) => {
                        s.1 += 1;
                        s.2 += e.mean;
                        s.3 = e.estimate;
                    }
                    None => seen.push((e.point.clone(), 1, e.mean, e.estimate)),
                }
            }
            seen.sort_by_key(|s| std::cmp::Reverse(s.1));
            r.p(format!(
                "{} evaluations of {} games at {} distinct settings; the {} most evaluated:",
                n.evaluations.len(),
                n.evaluations.first().map_or(0, |e| e.samples),
                seen.len(),
                seen.len().min(15)
            ));
            r.table(
                &[
                    "setting",
                    "evaluations",
                    "mean response",
                    "model estimate (last)",
                ],
                seen.iter()
                    .take(15)
                    .map(|(p, k, sum, est)| {
                        vec![
                            point_settings(spec, p).join(" "),
                            k.to_string(),
                            f6(sum / *k as f64),
                            f6(*est),
                        ]
                    })
                    .collect(),
            );
        }
    }
    r.p(format!("Rerun: {command}"));
    r
}

/// The verification: a verdict, a chart of every point's mean response and a table.
fn verification(r: &mut Report, spec: &Spec, study: &Study) {
    if study.checks.is_empty() {
        return;
    }
    r.h(2, "Verification on fresh games");
    let better: Vec<String> = study
        .checks
        .iter()
        .filter(|c| c.verdict() == "better")
        .map(|c| format!("{} = {}", c.parameter.clone().unwrap_or_default(), c.value))
        .collect();
    let rec = study.checks[0].mean;
    r.verdict(format!(
        "At the recommendation the mean response is {} [{}, {}] over {} fresh games ({}). {}",
        f6(rec.estimate),
        f6(rec.low),
        f6(rec.high),
        study.verify_games,
        if rec.significant() {
            "still unbalanced at the 5% level"
        } else {
            "no detectable imbalance"
        },
        if study.checks.len() == 1 {
            "No one-step deviation lies in the searched range.".to_string()
        } else if better.is_empty() {
            format!(
                "None of the {} one-step deviations is detectably more balanced.",
                study.checks.len() - 1
            )
        } else {
            format!(
                "More balanced one step away (5% level): {}; the search stopped short.",
                better.join(", ")
            )
        }
    ));
    let names: Vec<String> = study
        .checks
        .iter()
        .map(|c| match &c.parameter {
            None => format!("recommended {}", c.value),
            Some(p) => format!("{p} = {}", c.value),
        })
        .collect();
    r.chart(response_chart(
        spec,
        "chart-balance-verification",
        "Mean response on fresh games: the recommendation and its one-step deviations",
        &names,
        study.checks.iter().map(|c| &c.mean),
    ));
    r.table(
        &[
            "point",
            "settings",
            "mean response",
            "95% interval",
            "|mean| − |mean at recommendation|",
            "verdict",
        ],
        study
            .checks
            .iter()
            .zip(&names)
            .map(|(c, n)| {
                vec![
                    n.clone(),
                    c.settings.join(" "),
                    f6(c.mean.estimate),
                    format!("[{}, {}]", f6(c.mean.low), f6(c.mean.high)),
                    c.versus.map_or(String::new(), |d| {
                        format!("{} [{}, {}]", f6(d.estimate), f6(d.low), f6(d.high))
                    }),
                    c.verdict().to_string(),
                ]
            })
            .collect(),
    );
}

/// Whether a report has a chart (used by tests).
pub fn has_chart(r: &Report) -> bool {
    r.blocks.iter().any(|b| matches!(b, Block::Chart(_)))
}
/// A bar per point: its mean response with the 95% interval, against the balanced line at
/// 0 (the racing arms and the verification points; `names` and `means` in the same order).
fn response_chart<'a>(
    spec: &Spec,
    id: &str,
    title: &str,
    names: &[String],
    means: impl Iterator<Item = &'a Difference>,
) -> String {
    charts::bars(
        id,
        title,
        names,
        &[Series {
            name: "mean response".into(),
            bars: means
                .map(|m| {
                    Some(Bar {
                        value: m.estimate,
                        interval: Some((m.low, m.high)),
                    })
                })
                .collect(),
        }],
        &BarOptions {
            y_label: response_words(spec).into(),
            reference: Some((0.0, "balanced".into())),
            ..Default::default()
        },
    )
}
