//! The balance section of a report: the question, the recommendation with its interval,
//! the verification against each one-step deviation, and the search path, as a
//! [`crate::report::Report`] (`report.html` with SVG charts, `report.md` without).

use std::path::Path;

use crate::format::num;
use crate::report::charts::{self, Bar, BarOptions, LegendAt, Series};
use crate::report::data::Table;
use crate::report::{Block, Report, ReportError};
use crate::stats::Difference;

use super::root::{Probe, RootResult, Sign, Stop};
use super::spec::{Evaluator, Spec};
use super::{
    Check, Search, Standing, Study, check_name, fairness, fairness_sentence, grouped, kind_text,
    point_settings, response_interval, response_text, x_text,
};

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
fn front_section(
    r: &mut Report,
    spec: &Spec,
    f: &super::front::FrontResult,
    replay: Option<&super::front::FrontResult>,
) {
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
                    format!(" {}", kind_text(o.kind, o.target_value()))
                } else {
                    String::new()
                }
            ))
            .collect::<Vec<_>>()
            .join(", "),
        grouped(f.games),
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
        let mut lines = vec![("front (search games)".to_string(), pts)];
        if let Some(rp) = replay {
            let mut fresh: Vec<charts::Point> = rp
                .points
                .iter()
                .map(|p| {
                    (
                        p.means[0].estimate,
                        p.means[1].estimate,
                        p.means[1].low.max(-1e9),
                        p.means[1].high.min(1e9),
                    )
                })
                .collect();
            fresh.sort_by(|x, y| x.0.total_cmp(&y.0));
            lines.push(("the same settings on fresh games".to_string(), fresh));
        }
        let xl = format!("{} ({})", a.label(), kind_words(a.kind));
        let yl = format!("{} ({})", b.label(), kind_words(b.kind));
        r.chart(charts::lines(
            "chart-balance-front",
            "The Pareto front: each front setting's estimates of the first two objectives \
             (whiskers: the second's 95% interval)",
            (&xl, &yl),
            &lines,
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
                row.extend(spec.objectives.iter().zip(&p.means).map(|(o, m)| {
                    format!(
                        "{} [{}, {}]",
                        kind_text(o.kind, m.estimate),
                        kind_text(o.kind, m.low),
                        kind_text(o.kind, m.high)
                    )
                }));
                row
            })
            .collect(),
    );
    if let Some(rp) = replay {
        front_replay_section(r, spec, f, rp);
    }
}

/// The front's settings replayed on fresh games ([`super::Study::front_replay`]): a
/// verdict (how many stay on the front, which objectives moved beyond the search's
/// interval) and a table of each setting's fresh estimates beside the search's.
fn front_replay_section(
    r: &mut Report,
    spec: &Spec,
    f: &super::front::FrontResult,
    rp: &super::front::FrontResult,
) {
    r.h(3, "The front on fresh games");
    let searched = |p: &super::front::FrontPoint| f.points.iter().find(|q| q.point == p.point);
    // A fresh estimate outside the search's 95% interval: the search's estimate was lucky
    // (or unlucky) for that setting.
    let moved: Vec<String> = rp
        .points
        .iter()
        .flat_map(|p| {
            let q = searched(p);
            spec.objectives
                .iter()
                .zip(&p.means)
                .enumerate()
                .filter(move |(k, (_, m))| {
                    q.is_some_and(|q| m.estimate < q.means[*k].low || m.estimate > q.means[*k].high)
                })
                .map(move |(_, (o, _))| {
                    format!(
                        "{} at {}",
                        o.label(),
                        point_settings(spec, &p.point).join(" ")
                    )
                })
        })
        .collect();
    let stay = rp.points.iter().filter(|p| p.on_front).count();
    r.verdict(format!(
        "Each of the {} front settings replayed on the same {} fresh games (seeds the search \
         never used), every objective measured again: {} of them stay undominated among \
         the front's settings on the fresh estimates. {}",
        rp.points.len(),
        grouped(rp.games),
        stay,
        if moved.is_empty() {
            "Every fresh estimate lies within the search's 95% interval.".to_string()
        } else {
            format!(
                "Outside the search's 95% interval on fresh games: {}.",
                moved.join("; ")
            )
        }
    ));
    let mut header = vec!["setting".to_string()];
    for o in &spec.objectives {
        header.push(format!("{} (fresh)", o.label()));
        header.push(format!("{} (search)", o.label()));
    }
    header.push("front on fresh games".to_string());
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    r.table(
        &header_refs,
        rp.points
            .iter()
            .map(|p| {
                let q = searched(p);
                let mut row = vec![point_settings(spec, &p.point).join(" ")];
                for (k, (o, m)) in spec.objectives.iter().zip(&p.means).enumerate() {
                    row.push(format!(
                        "{} [{}, {}]",
                        kind_text(o.kind, m.estimate),
                        kind_text(o.kind, m.low),
                        kind_text(o.kind, m.high)
                    ));
                    row.push(q.map_or(String::new(), |q| kind_text(o.kind, q.means[k].estimate)));
                }
                row.push(if p.on_front { "yes" } else { "" }.to_string());
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
            "The profile's value for seat 0 is {} chips (Kuhn 1950: −1/18 = −0.0556); \
             exploitability {} chips.",
            num(v, 4),
            num(e, 6)
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
            x_text(spec, s.estimate),
            100.0 * (1.0 - spec.alpha),
            x_text(spec, s.low),
            x_text(spec, s.high),
            grouped(s.samples),
            s.stop.word()
        )),
        other => r.verdict(format!(
            "{} (chosen by {} after {} games; {} gives no interval on the balanced value: \
             the verification below tests the choice against its neighbours).",
            study.settings.join(" "),
            spec.method,
            grouped(other.samples()),
            spec.method
        )),
    }
    if let Some(w) = super::whole_settings(spec, study) {
        whole_section(&mut r, spec, study, &w);
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
                            x_text(spec, p.x),
                            p.samples.to_string(),
                            response_text(spec, p.mean),
                            format!(
                                "[{}, {}]",
                                response_text(spec, p.low),
                                response_text(spec, p.high)
                            ),
                            p.sign.word().to_string(),
                            format!(
                                "[{}, {}]",
                                x_text(spec, p.bracket.0),
                                x_text(spec, p.bracket.1)
                            ),
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
                            response_text(spec, a.mean.estimate),
                            format!(
                                "[{}, {}]",
                                response_text(spec, a.mean.low),
                                response_text(spec, a.mean.high)
                            ),
                            a.dropped_in
                                .map_or_else(|| "survived".to_string(), |d| d.to_string()),
                        ]
                    })
                    .collect(),
            );
        }
        Search::Front(f) => {
            front_section(&mut r, spec, f, study.front_replay.as_ref());
        }
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
                            response_text(spec, sum / *k as f64),
                            response_text(spec, *est),
                        ]
                    })
                    .collect(),
            );
        }
    }
    r.p(format!("Rerun: {command}"));
    r
}

/// The whole settings of an int parameter's estimate ([`super::whole_settings`]): a
/// verdict naming the bracketing pair and every verified whole setting against the
/// fairest ([`fairness_sentence`]), and a table of them in order of value.
fn whole_section(r: &mut Report, spec: &Spec, study: &Study, w: &super::WholeSettings) {
    r.verdict(super::whole_head(spec, study, w));
    if let Some(f) = fairness(study) {
        r.verdict(fairness_sentence(spec, study, &f));
        if let Some(note) = super::fairness_note(&f) {
            r.p(note);
        }
        let p = spec.param();
        let mut rows: Vec<&super::FairRow> = f.rows.iter().collect();
        rows.sort_by(|a, b| {
            let v = |i: usize| study.checks[i].value.parse::<f64>().unwrap_or(f64::NAN);
            v(a.index).total_cmp(&v(b.index))
        });
        let bracket = |c: &Check| w.settings.iter().any(|s| c.settings == [s.setting.clone()]);
        r.table(
            &[
                "whole setting",
                "settings",
                "brackets the estimate",
                "mean response",
                "95% interval",
                "|mean| − |mean at the fairest|",
                "standing",
            ],
            rows.iter()
                .map(|row| {
                    let c = &study.checks[row.index];
                    vec![
                        format!("{} = {}", p.name, c.value),
                        c.settings.join(" "),
                        if bracket(c) { "yes" } else { "" }.to_string(),
                        response_text(spec, c.mean.estimate),
                        format!(
                            "[{}, {}]",
                            response_text(spec, c.mean.low),
                            response_text(spec, c.mean.high)
                        ),
                        versus_cell(spec, row),
                        row.standing.word().to_string(),
                    ]
                })
                .collect(),
        );
    }
}

/// A [`super::FairRow`]'s difference from the fairest, `*` marking one not paired by
/// game (composed through the recommendation, [`super::fairness`]).
fn versus_cell(spec: &Spec, row: &super::FairRow) -> String {
    row.versus.map_or(String::new(), |(d, paired)| {
        format!(
            "{}{}",
            response_interval(spec, &d),
            if paired { "" } else { "*" }
        )
    })
}

/// The verification: a verdict, a chart of every point's mean response and a table;
/// unless the whole-settings section already did, every point against the fairest
/// ([`fairness_sentence`]).
fn verification(r: &mut Report, spec: &Spec, study: &Study) {
    if study.checks.is_empty() {
        return;
    }
    r.h(2, "Verification on fresh games");
    let better: Vec<String> = study
        .checks
        .iter()
        .filter(|c| c.verdict() == "better")
        .map(|c| check_name(spec, c))
        .collect();
    let rec = study.checks[0].mean;
    r.verdict(format!(
        "At the recommendation the mean response is {} over {} fresh games ({}). {}",
        response_interval(spec, &rec),
        grouped(study.verify_games),
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
    let fair = fairness(study);
    let whole = super::whole_settings(spec, study).is_some();
    if let (Some(f), false) = (&fair, whole) {
        r.verdict(fairness_sentence(spec, study, f));
        if let Some(note) = super::fairness_note(f) {
            r.p(note);
        }
    }
    let names: Vec<String> = study
        .checks
        .iter()
        .map(|c| match &c.parameter {
            None => format!("recommended {}", c.value),
            Some(_) => check_name(spec, c),
        })
        .collect();
    r.chart(response_chart(
        spec,
        "chart-balance-verification",
        "Mean response on fresh games: the recommendation and its one-step deviations",
        &names,
        study.checks.iter().map(|c| &c.mean),
    ));
    // The whole-settings table already compares each point with the fairest.
    let fair = fair.filter(|_| !whole);
    let mut header = vec![
        "point",
        "settings",
        "mean response",
        "95% interval",
        "|mean| − |mean at recommendation|",
        "verdict",
    ];
    if fair.is_some() {
        header.push("against the fairest");
    }
    r.table(
        &header,
        study
            .checks
            .iter()
            .zip(&names)
            .enumerate()
            .map(|(i, (c, n))| {
                let row = fair.as_ref().map(|f| &f.rows[i]);
                let mut cells = vec![
                    n.clone(),
                    c.settings.join(" "),
                    response_text(spec, c.mean.estimate),
                    format!(
                        "[{}, {}]",
                        response_text(spec, c.mean.low),
                        response_text(spec, c.mean.high)
                    ),
                    c.versus
                        .map_or(String::new(), |d| response_interval(spec, &d)),
                    c.verdict().to_string(),
                ];
                if let Some(row) = row {
                    cells.push(match row.standing {
                        Standing::Fairest => row.standing.word().to_string(),
                        s => format!("{} ({})", s.word(), versus_cell(spec, row)),
                    });
                }
                cells
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

/// Reads a balance folder's study back from its files (`sim report DIR`): the spec
/// (`spec.toml`), the rerun command (`command.txt`), the search (`probes.csv`, with
/// `recommendation.csv` for the root finder's interval and the games used), and the
/// verification (`verification.csv`). The numbers are those the CSVs hold (six
/// decimals); `sim balance` builds its own report through this function too, so the
/// report `sim report` regenerates is byte for byte the one the study wrote. For the
/// equilibrium evaluator the profile's value and exploitability, which no CSV holds, are
/// recomputed by the same deterministic CFR+ solve ([`super::eval::EquilibriumOracle`]).
///
/// # Errors
/// [`ReportError::Read`] naming the file for a missing or malformed file or column.
pub fn read_study(dir: &Path) -> Result<(Spec, Study, String), ReportError> {
    let spec_path = dir.join("spec.toml");
    let bad = |path: &Path, message: String| ReportError::Read {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(&spec_path).map_err(|e| bad(&spec_path, e.to_string()))?;
    let spec = Spec::parse(&spec_path, &text).map_err(|e| bad(&spec_path, e.to_string()))?;
    let command_path = dir.join("command.txt");
    let command = std::fs::read_to_string(&command_path)
        .map_err(|e| bad(&command_path, e.to_string()))?
        .trim_end()
        .to_string();
    let rec = Table::read(&dir.join("recommendation.csv"))?;
    let probes = Table::read(&dir.join("probes.csv"))?;
    let ver = Table::read(&dir.join("verification.csv"))?;
    // The level index of each parameter's value in a row (columns named after them).
    let point_of = |t: &Table, r: usize| -> Result<Vec<usize>, ReportError> {
        spec.parameter
            .iter()
            .map(|p| {
                let v = t.s(r, t.need(&p.name)?);
                p.levels().iter().position(|l| l == v).ok_or_else(|| {
                    bad(
                        &t.path,
                        format!("row {}: {} = {v} is not one of its levels", r + 1, p.name),
                    )
                })
            })
            .collect()
    };
    let games = rec.need("games")?;
    let samples = if rec.rows.is_empty() {
        0
    } else {
        rec.u(0, games)
    };
    let mut checks = Vec::new();
    // The columns between `point` and `verdict` of the header the run writes.
    let c: [Result<usize, ReportError>; 10] =
        std::array::from_fn(|i| ver.need(super::VERIFICATION_HEADER[i + 1]));
    let [cp, cv, cs, cg, cm, cl, ch, cd, cdl, cdh] = c;
    let (cp, cv, cs, cg, cm, cl, ch, cd, cdl, cdh) =
        (cp?, cv?, cs?, cg?, cm?, cl?, ch?, cd?, cdl?, cdh?);
    let mut verify_games = 0;
    for r in 0..ver.rows.len() {
        verify_games = ver.u(r, cg);
        checks.push(Check {
            parameter: Some(ver.s(r, cp).to_string()).filter(|s| !s.is_empty()),
            value: ver.s(r, cv).to_string(),
            settings: ver.s(r, cs).split_whitespace().map(String::from).collect(),
            mean: from_interval(ver.f(r, cm), ver.f(r, cl), ver.f(r, ch)),
            versus: (!ver.s(r, cd).is_empty())
                .then(|| from_interval(ver.f(r, cd), ver.f(r, cdl), ver.f(r, cdh))),
        });
    }
    let mut front_replay = None;
    let search = match spec.method.as_str() {
        "racing" => {
            let (cs, cg, cm, cl, ch) = (
                probes.need("stage")?,
                probes.need("games")?,
                probes.need("mean")?,
                probes.need("low")?,
                probes.need("high")?,
            );
            let ci = probes.need("probe")?;
            let mut race_arms = Vec::new();
            let mut best = 0;
            for r in 0..probes.rows.len() {
                let stage = probes.s(r, cs);
                let index = probes.u(r, ci) as usize;
                if stage == "survived" {
                    best = index;
                }
                race_arms.push(super::racing::Arm {
                    index,
                    samples: probes.u(r, cg),
                    mean: from_interval(probes.f(r, cm), probes.f(r, cl), probes.f(r, ch)),
                    dropped_in: stage
                        .strip_prefix("dropped_round_")
                        .and_then(|d| d.parse().ok()),
                });
            }
            Search::Race {
                race: super::racing::Race {
                    best,
                    arms: race_arms,
                    samples,
                },
                arms: super::combinations(&spec),
            }
        }
        "ntbea" => {
            let (cst, cg, cm, ce) = (
                probes.need("start")?,
                probes.need("games")?,
                probes.need("mean")?,
                probes.need("estimate")?,
            );
            let mut evaluations = Vec::new();
            for r in 0..probes.rows.len() {
                evaluations.push(super::ntbea::Evaluation {
                    point: point_of(&probes, r)?,
                    start: probes.u(r, cst),
                    samples: probes.u(r, cg),
                    mean: probes.f(r, cm),
                    estimate: probes.f(r, ce),
                });
            }
            let best = recommended_point(&spec, &rec, &bad)?;
            let best_estimate = evaluations
                .iter()
                .rev()
                .find(|e| e.point == best)
                .map_or(f64::NAN, |e| e.estimate);
            Search::Ntbea(super::ntbea::NtbeaResult {
                best,
                best_estimate,
                evaluations,
                samples,
            })
        }
        "front" => {
            let (points, games_each) = front_points(&probes, &point_of)?;
            front_replay = read_front_replay(&dir.join("front_replay.csv"), &point_of)?;
            Search::Front(super::front::FrontResult {
                points,
                games: games_each,
                samples,
            })
        }
        _ => {
            let need = |n: &str| rec.need(n);
            let (ce, cl, ch, cstop) = (
                need("estimate")?,
                need("low")?,
                need("high")?,
                need("stop")?,
            );
            if rec.rows.is_empty() {
                return Err(bad(&rec.path, "no recommendation row".into()));
            }
            let stop = rec.s(0, cstop);
            let stop = [
                Stop::Converged,
                Stop::Budget,
                Stop::Probes,
                Stop::BelowRange,
                Stop::AboveRange,
            ]
            .into_iter()
            .find(|s| s.word() == stop)
            .ok_or_else(|| bad(&rec.path, format!("unknown stop `{stop}`")))?;
            let c = [
                "x",
                "games",
                "mean",
                "low",
                "high",
                "sign",
                "bracket_low",
                "bracket_high",
            ]
            .map(|n| probes.need(n));
            let [cx, cg, cm, cl2, ch2, csg, cbl, cbh] = c;
            let (cx, cg, cm, cl2, ch2, csg, cbl, cbh) =
                (cx?, cg?, cm?, cl2?, ch2?, csg?, cbl?, cbh?);
            let mut list = Vec::new();
            for r in 0..probes.rows.len() {
                let sign = probes.s(r, csg);
                list.push(Probe {
                    x: probes.f(r, cx),
                    samples: probes.u(r, cg),
                    mean: probes.f(r, cm),
                    low: probes.f(r, cl2),
                    high: probes.f(r, ch2),
                    sign: [Sign::Negative, Sign::Positive, Sign::Undecided]
                        .into_iter()
                        .find(|s| s.word() == sign)
                        .ok_or_else(|| {
                            bad(
                                &probes.path,
                                format!("row {}: unknown sign `{sign}`", r + 1),
                            )
                        })?,
                    bracket: (probes.f(r, cbl), probes.f(r, cbh)),
                });
            }
            Search::Root(RootResult {
                probes: list,
                estimate: rec.f(0, ce),
                low: rec.f(0, cl),
                high: rec.f(0, ch),
                samples,
                stop,
            })
        }
    };
    let (recommended, values, settings) = match &search {
        Search::Root(r) => {
            // The verification's first point is the recommendation as typed (`p.format`,
            // exact for a float); without verification, the estimate rounded as `sim
            // balance` rounds it.
            let p = spec.param();
            let x = checks
                .first()
                .and_then(|c| c.value.parse::<f64>().ok())
                .unwrap_or_else(|| super::recommend_value(&spec, r.estimate));
            (x, vec![p.format(x)], vec![p.setting(x)])
        }
        _ => {
            let point = recommended_point(&spec, &rec, &bad)?;
            (
                spec.parameter[0]
                    .numeric_levels()
                    .get(point[0])
                    .copied()
                    .unwrap_or(f64::NAN),
                spec.parameter
                    .iter()
                    .zip(&point)
                    .map(|(p, &i)| p.levels()[i].clone())
                    .collect(),
                point_settings(&spec, &point),
            )
        }
    };
    let equilibrium = match spec.evaluator {
        Evaluator::Games => None,
        Evaluator::Equilibrium => {
            let o = super::eval::EquilibriumOracle::new(
                &spec.variant,
                spec.param(),
                spec.seed,
                spec.objective().seat,
                spec.solver_iters,
            )
            .map_err(|e| bad(&spec_path, e.to_string()))?;
            Some((o.value, o.exploitability))
        }
    };
    // `|mean a| − |mean b|` of every pair of points, when the folder has them (written
    // since 2026-11-28; older folders compose them, [`super::fairness`]).
    let pairs_path = dir.join("verification_pairs.csv");
    let mut pairs = Vec::new();
    if pairs_path.exists() {
        let t = Table::read(&pairs_path)?;
        let c: [Result<usize, ReportError>; 5] = [
            t.need("a"),
            t.need("b"),
            t.need("abs_diff"),
            t.need("abs_diff_low"),
            t.need("abs_diff_high"),
        ];
        let [ca, cb, cd, cl, ch] = c;
        let (ca, cb, cd, cl, ch) = (ca?, cb?, cd?, cl?, ch?);
        for r in 0..t.rows.len() {
            let (a, b) = (t.u(r, ca) as usize, t.u(r, cb) as usize);
            if a >= b || b >= checks.len() {
                return Err(bad(
                    &t.path,
                    format!(
                        "row {}: points {a} and {b}: expected a < b < {} (the points of \
                         verification.csv)",
                        r + 1,
                        checks.len()
                    ),
                ));
            }
            pairs.push(super::PairDiff {
                a,
                b,
                diff: from_interval(t.f(r, cd), t.f(r, cl), t.f(r, ch)),
            });
        }
    }
    let study = Study {
        search,
        recommended,
        values,
        settings,
        verification: checks.first().map(|c| c.mean),
        checks,
        pairs,
        front_replay,
        verify_games,
        equilibrium,
    };
    Ok((spec, study, command))
}

/// Reads a row's level index of each parameter (from the columns named after them).
type PointOf<'a> = dyn Fn(&Table, usize) -> Result<Vec<usize>, ReportError> + 'a;

/// The settings of a front search and their objective values from table `t` (`probes.csv`
/// of a front search, or `front_replay.csv`: one row per setting and objective, a setting's
/// rows together), with the games each setting was played; `point_of` reads a row's level
/// indices.
fn front_points(
    t: &Table,
    point_of: &PointOf<'_>,
) -> Result<(Vec<super::front::FrontPoint>, u64), ReportError> {
    let (ci, cf, cg, ce, cl, ch, closs) = (
        t.need("point")?,
        t.need("front")?,
        t.need("games")?,
        t.need("estimate")?,
        t.need("low")?,
        t.need("high")?,
        t.need("loss")?,
    );
    let mut points: Vec<super::front::FrontPoint> = Vec::new();
    let (mut index, mut games) = (None, 0);
    for r in 0..t.rows.len() {
        games = t.u(r, cg);
        let i = t.u(r, ci);
        if index != Some(i) {
            index = Some(i);
            points.push(super::front::FrontPoint {
                point: point_of(t, r)?,
                means: Vec::new(),
                losses: Vec::new(),
                on_front: t.s(r, cf) == "true",
            });
        }
        let p = points.last_mut().expect("pushed above");
        p.means
            .push(from_interval(t.f(r, ce), t.f(r, cl), t.f(r, ch)));
        p.losses.push(t.f(r, closs));
    }
    Ok((points, games))
}

/// The front replayed on fresh games from `front_replay.csv`, if the folder has it (one
/// row per setting and objective, [`super::write_front_replay`]); `point_of` reads a row's
/// level indices.
fn read_front_replay(
    path: &Path,
    point_of: &PointOf<'_>,
) -> Result<Option<super::front::FrontResult>, ReportError> {
    if !path.exists() {
        return Ok(None);
    }
    let (points, games) = front_points(&Table::read(path)?, point_of)?;
    Ok(Some(super::front::FrontResult {
        samples: games * points.len() as u64,
        games,
        points,
    }))
}

/// The report of a balance folder, from its files ([`read_study`]).
///
/// # Errors
/// As [`read_study`].
pub fn from_dir(dir: &Path) -> Result<Report, ReportError> {
    let (spec, study, command) = read_study(dir)?;
    Ok(build(&spec, &study, &command))
}

/// A mean with its 95% interval as written in the CSVs; the p-value is not written, so it
/// is 0 when the interval excludes 0 and 1 otherwise (the report only asks whether the
/// interval excludes 0, [`Difference::significant`]).
fn from_interval(estimate: f64, low: f64, high: f64) -> Difference {
    Difference {
        estimate,
        low,
        high,
        p_value: if low > 0.0 || high < 0.0 { 0.0 } else { 1.0 },
        method: crate::stats::PAIRED_METHOD,
    }
}

/// The recommended point of racing, NTBEA or the front: each parameter's value from
/// `recommendation.csv` (one row per parameter, the value in `estimate`).
fn recommended_point(
    spec: &Spec,
    rec: &Table,
    bad: &dyn Fn(&Path, String) -> ReportError,
) -> Result<Vec<usize>, ReportError> {
    let (cp, ce) = (rec.need("parameter")?, rec.need("estimate")?);
    spec.parameter
        .iter()
        .map(|p| {
            let row = (0..rec.rows.len())
                .find(|&r| rec.s(r, cp) == p.name)
                .ok_or_else(|| bad(&rec.path, format!("no row for parameter {}", p.name)))?;
            let v = rec.s(row, ce);
            p.levels().iter().position(|l| l == v).ok_or_else(|| {
                bad(
                    &rec.path,
                    format!("{} = {v} is not one of its levels", p.name),
                )
            })
        })
        .collect()
}
