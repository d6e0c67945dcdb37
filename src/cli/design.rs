//! `sim design`: design metrics (restricted play, per-action statistics, dominance between
//! personas, kingmaking) for one game, with intervals ([`crate::balance::design`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::CliError;
use crate::balance::design::{self, Design, DesignConfig, rate};
use crate::format::f6;
use crate::report::charts::{self, Bar, BarOptions, Series};
use crate::report::data::Table;
use crate::report::{Format, Report, ReportError};

/// The long help of `sim design`.
pub const LONG_ABOUT: &str = "\
Design metrics for one game, each with its method and a 95% interval (docs/balance.md).

Restricted play (Jaffe et al. 2012), per --never CLASS (an action-text prefix as `sim play`
prints it, e.g. give, build radio_tower): every game is played twice on the same deals and
seat streams, once with every seat the --agent and once with seat (game mod players) the
agent restricted never to take the class; the cost is the seat's win share lost, paired by
game (t interval). Beside it, per class and within the agent (baseline games): how often the
class was legal and chosen, the share of winners that used it, and the win rate of seat-games
that played it against those in which it was legal but not played (never against an empty
group).

Dominance, with --persona SPEC twice or more: each persona against each other (at 2 seats
alternating seats; at more, one seat against the other persona in every other seat), the win
share matrix with t intervals, the Nash equilibrium of the antisymmetric meta-game (linear
programming) and its support, the dominant persona if one beats every other, and α-Rank
(Omidshafiei et al. 2019): the stationary distribution over the personas of an evolutionary
process at selection intensity --alpha (population 50) and in the large-alpha limit, with
its ranking.

Kingmaking, with --kingmaker SPEC at 3-4 players: in each game the seat that finished last
has its decisions from the --from fraction of the game on replayed by SPEC, every other seat
keeping its agent and random stream; the share of games whose winner changed (Wilson), and
the excess over a control (the base agent with a fresh random stream from the same ply).

Writes restricted.csv, personas.csv and alpharank.csv, kingmaking.csv (those asked for), report.html or
report.md (--format) and command.txt to --out. Results do not depend on --threads.";

/// Arguments of `sim design`.
#[derive(Debug, Args)]
pub struct DesignArgs {
    /// The game (`sim list`).
    #[arg(short, long)]
    pub game: String,
    /// Seats [default: the game's].
    #[arg(short = 'n', long)]
    pub players: Option<usize>,
    /// The base agent of restricted play and kingmaking.
    #[arg(long, default_value = "greedy")]
    pub agent: String,
    /// An action class to restrict (an action-text prefix; repeat for several).
    #[arg(long = "never")]
    pub never: Vec<String>,
    /// A persona (agent spec) for the dominance matrix (repeat; at least 2).
    #[arg(long = "persona")]
    pub personas: Vec<String>,
    /// The agent that replays a seat out of contention (kingmaking, 3-4 players).
    #[arg(long)]
    pub kingmaker: Option<String>,
    /// The fraction of the game after which the kingmaking replay starts.
    #[arg(long, default_value_t = 0.5)]
    pub from: f64,
    /// Games per arm.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// α-Rank's selection intensity for the persona meta-game (inverse win-share units;
    /// the large-α limit is reported beside it).
    #[arg(long, default_value_t = DEFAULT_ALPHA)]
    pub alpha: f64,
    /// A rule setting key=value (repeat for several).
    #[arg(long)]
    pub variant: Vec<String>,
    /// Output directory [default: out/design-GAME].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads [default: all cores]. Never changes the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The report's format: html (charts) or md (a design document).
    #[arg(long, value_enum, default_value_t = Format::Html)]
    pub format: Format,
}

/// The default α of α-Rank in `sim design` (`--alpha`).
pub const DEFAULT_ALPHA: f64 = 10.0;

/// The command that reruns the study exactly.
fn rerun_command(a: &DesignArgs, out: &std::path::Path) -> String {
    let mut w: Vec<String> = vec![
        "sim".into(),
        "design".into(),
        "--game".into(),
        a.game.clone(),
    ];
    if let Some(n) = a.players {
        w.extend(["-n".into(), n.to_string()]);
    }
    w.extend(["--agent".into(), a.agent.clone()]);
    for c in &a.never {
        w.extend(["--never".into(), c.clone()]);
    }
    for p in &a.personas {
        w.extend(["--persona".into(), p.clone()]);
    }
    if let Some(k) = &a.kingmaker {
        w.extend([
            "--kingmaker".into(),
            k.clone(),
            "--from".into(),
            a.from.to_string(),
        ]);
    }
    for v in &a.variant {
        w.extend(["--variant".into(), v.clone()]);
    }
    // Only when set, so the command of a study without personas or at the default reads
    // as before.
    if a.alpha != DEFAULT_ALPHA {
        w.extend(["--alpha".into(), a.alpha.to_string()]);
    }
    w.extend([
        "--games".into(),
        a.games.to_string(),
        "--seed".into(),
        a.seed.to_string(),
        "--format".into(),
        match a.format {
            Format::Html => "html".into(),
            Format::Md => "md".into(),
        },
        "--out".into(),
        out.display().to_string(),
    ]);
    crate::tournament::shell_join(&w)
}

/// Runs `sim design`.
///
/// # Errors
/// Bad input (exit 2): an unknown game, agent, setting, a bad --from or --games, no metric
/// asked for. A failed write (exit 1).
pub fn run(args: &DesignArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let bad = |m: String| CliError::bad_input(anyhow::anyhow!(m));
    if args.never.is_empty() && args.personas.len() < 2 && args.kingmaker.is_none() {
        return Err(bad(
            "nothing to measure: give --never CLASS, two or more --persona SPEC, or \
             --kingmaker SPEC"
                .into(),
        ));
    }
    if !(args.from > 0.0 && args.from < 1.0) {
        return Err(bad(format!(
            "bad --from {}: expected a fraction in (0, 1)",
            args.from
        )));
    }
    if !(args.alpha.is_finite() && args.alpha >= 0.0) {
        return Err(bad(format!(
            "bad --alpha {}: expected a finite number at least 0 (α-Rank's selection \
             intensity; 0 is no selection)",
            args.alpha
        )));
    }
    if args.games < 2 {
        return Err(bad(format!(
            "bad --games {}: expected at least 2",
            args.games
        )));
    }
    if args.threads == Some(0) {
        return Err(bad("bad --threads 0: expected at least 1".into()));
    }
    let cfg = DesignConfig {
        variant: args.variant.clone(),
        players: args.players,
        agent: args.agent.clone(),
        classes: args.never.clone(),
        personas: args.personas.clone(),
        kingmaker: args.kingmaker.clone(),
        from: args.from,
        games: args.games,
        seed: args.seed,
        alpha: args.alpha,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(CliError::failure)?;
    let d = pool
        .install(|| crate::dispatch_game!(args.game.as_str(), G => design::run::<G>(&cfg)))
        .map_err(CliError::bad_input)?
        .map_err(CliError::bad_input)?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("out/design-{}", args.game)));
    std::fs::create_dir_all(&dir)
        .map_err(|e| bad(format!("cannot create {}: {e}", dir.display())))?;
    let command = rerun_command(args, &dir);
    let mut files: Vec<&str> = Vec::new();
    let mut write = |name: &'static str, body: &str| {
        files.push(name);
        std::fs::write(dir.join(name), body).map_err(CliError::failure)
    };
    if !d.classes.is_empty() {
        write("restricted.csv", &restricted_csv(&d))?;
    }
    if d.dominance.is_some() {
        write("personas.csv", &personas_csv(&d))?;
        write("alpharank.csv", &alpharank_csv(&d))?;
    }
    if d.kingmaking.is_some() {
        write("kingmaking.csv", &kingmaking_csv(&d, args.from))?;
    }
    write("command.txt", &format!("{command}\n"))?;
    // The report from the files just written, as `sim report DIR` builds it: the two are
    // the same byte for byte.
    let report = report_from_dir(&dir).map_err(CliError::failure)?;
    let text = match args.format {
        Format::Html => report.to_html(),
        Format::Md => report.to_markdown(),
    };
    write(args.format.file_name(), &text)?;
    // manifest.json: the command, the version and each file's SHA-256, for `sim verify`.
    crate::output::record_run(&dir, "design", &command, &files).map_err(CliError::failure)?;
    for c in &d.classes {
        writeln!(out, "{}", c.verdict()).map_err(CliError::failure)?;
    }
    if let Some(m) = &d.dominance {
        writeln!(out, "{}", m.verdict()).map_err(CliError::failure)?;
    }
    if let Some(k) = &d.kingmaking {
        let (r, lo, hi) = rate(k.changed, k.games);
        writeln!(
            out,
            "kingmaking: replaying the last seat with {} changed the winner in {:.1}% [{:.1}, {:.1}] of {} games \
             (control, the base agent with a fresh stream: {:.1}%; excess {:+.1} points [{:+.1}, {:+.1}])",
            k.kingmaker,
            100.0 * r,
            100.0 * lo,
            100.0 * hi,
            k.games,
            100.0 * k.control_changed as f64 / k.games.max(1) as f64,
            100.0 * k.excess.estimate,
            100.0 * k.excess.low,
            100.0 * k.excess.high
        )
        .map_err(CliError::failure)?;
    }
    writeln!(out, "wrote {}\nrerun: {command}", dir.display()).map_err(CliError::failure)?;
    Ok(())
}

fn csv_text(header: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(header);
    for r in rows {
        let _ = w.write_record(&r);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// The `restricted.csv` header, written by [`restricted_csv`] and read back by the report.
const RESTRICTED_HEADER: [&str; 19] = [
    "class",
    "cost",
    "cost_low",
    "cost_high",
    "p_value",
    "forced_games",
    "winners_using",
    "winners",
    "decisions",
    "legal",
    "chosen",
    "played",
    "played_won",
    "legal_not_played",
    "legal_not_played_won",
    "win_rate_diff",
    "win_rate_diff_low",
    "win_rate_diff_high",
    "verdict",
];

/// `restricted.csv`: one row per class.
fn restricted_csv(d: &Design) -> String {
    csv_text(
        &RESTRICTED_HEADER,
        d.classes
            .iter()
            .map(|c| {
                let (dd, dl, dh) = c
                    .played_vs_not
                    .map_or((String::new(), String::new(), String::new()), |x| {
                        (f6(x.estimate), f6(x.low), f6(x.high))
                    });
                vec![
                    c.class.clone(),
                    f6(c.cost.estimate),
                    f6(c.cost.low),
                    f6(c.cost.high),
                    f6(c.cost.p_value),
                    c.forced_games.to_string(),
                    c.winners_using.0.to_string(),
                    c.winners_using.1.to_string(),
                    c.decisions.0.to_string(),
                    c.decisions.1.to_string(),
                    c.decisions.2.to_string(),
                    c.played.0.to_string(),
                    c.played.1.to_string(),
                    c.not_played.0.to_string(),
                    c.not_played.1.to_string(),
                    dd,
                    dl,
                    dh,
                    c.verdict(),
                ]
            })
            .collect(),
    )
}

/// `personas.csv`: one row per ordered pair, and the Nash mass of the row persona.
fn personas_csv(d: &Design) -> String {
    let Some(m) = &d.dominance else {
        return String::new();
    };
    let mut rows = Vec::new();
    for (i, a) in m.personas.iter().enumerate() {
        for (j, b) in m.personas.iter().enumerate() {
            if let Some((x, lo, hi)) = m.m[i][j] {
                rows.push(vec![
                    a.clone(),
                    b.clone(),
                    f6(x),
                    f6(lo),
                    f6(hi),
                    f6(m.nash[i]),
                ]);
            }
        }
    }
    csv_text(
        &[
            "persona",
            "against",
            "win_share",
            "low",
            "high",
            "nash_mass",
        ],
        rows,
    )
}

/// `alpharank.csv`: one row per persona: its Nash mass, α-Rank's α, population, mass
/// and rank (1 = most mass) at that α, and its mass and rank in the large-α limit.
fn alpharank_csv(d: &Design) -> String {
    let Some(m) = &d.dominance else {
        return String::new();
    };
    let rank_of = |pi: &[f64]| {
        let order = crate::balance::alpharank::ranking(pi);
        let mut rank = vec![0; pi.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r + 1;
        }
        rank
    };
    let (at, lim) = (rank_of(&m.alpharank), rank_of(&m.alpharank_limit));
    csv_text(
        &[
            "persona",
            "nash_mass",
            "alpha",
            "population",
            "mass",
            "rank",
            "limit_mass",
            "limit_rank",
        ],
        m.personas
            .iter()
            .enumerate()
            .map(|(i, p)| {
                vec![
                    p.clone(),
                    f6(m.nash[i]),
                    m.alpha.to_string(),
                    crate::balance::design::ALPHARANK_POPULATION.to_string(),
                    f6(m.alpharank[i]),
                    at[i].to_string(),
                    f6(m.alpharank_limit[i]),
                    lim[i].to_string(),
                ]
            })
            .collect(),
    )
}

/// `kingmaking.csv`: one row.
fn kingmaking_csv(d: &Design, from: f64) -> String {
    let Some(k) = &d.kingmaking else {
        return String::new();
    };
    let (r, lo, hi) = rate(k.changed, k.games);
    csv_text(
        &[
            "kingmaker",
            "from",
            "games",
            "winner_changed",
            "rate",
            "low",
            "high",
            "replayed_seat_won",
            "control_changed",
            "excess",
            "excess_low",
            "excess_high",
        ],
        vec![vec![
            k.kingmaker.clone(),
            from.to_string(),
            k.games.to_string(),
            k.changed.to_string(),
            f6(r),
            f6(lo),
            f6(hi),
            k.self_won.to_string(),
            k.control_changed.to_string(),
            f6(k.excess.estimate),
            f6(k.excess.low),
            f6(k.excess.high),
        ]],
    )
}

/// The design-metrics report.
fn build_report(args: &DesignArgs, d: &Design, command: &str) -> Report {
    let mut r = Report {
        title: format!("Design metrics: {}", args.game),
        blocks: Vec::new(),
    };
    r.p(format!(
        "Game {}, {} players, base agent {}, {} games per arm, seed {}{}.",
        args.game,
        d.players,
        args.agent,
        args.games,
        args.seed,
        if args.variant.is_empty() {
            String::new()
        } else {
            format!(", settings {}", args.variant.join(" "))
        }
    ));
    if !d.classes.is_empty() {
        r.h(2, "Restricted play (Jaffe et al. 2012)");
        r.p(
            "Each game is played twice on the same deals and seat streams: every seat the base \
             agent, and one seat (rotating) restricted never to take the class. The cost is \
             that seat's win share lost, paired by game (95% t interval).",
        );
        for c in &d.classes {
            r.verdict(c.verdict());
        }
        let names: Vec<String> = d
            .classes
            .iter()
            .map(|c| format!("never {}", c.class))
            .collect();
        r.chart(charts::bars(
            "chart-design-restricted",
            "Win share lost by never taking the class (points, 95% interval)",
            &names,
            &[Series {
                name: "cost".into(),
                bars: d
                    .classes
                    .iter()
                    .map(|c| {
                        Some(Bar {
                            value: 100.0 * c.cost.estimate,
                            interval: Some((100.0 * c.cost.low, 100.0 * c.cost.high)),
                        })
                    })
                    .collect(),
            }],
            &BarOptions {
                y_label: "win share lost (points)".into(),
                reference: Some((0.0, "no cost".into())),
                ..Default::default()
            },
        ));
        r.h(3, "Per-action statistics (within the base agent)");
        r.table(
            &[
                "class",
                "legal at (share of decisions)",
                "chosen when legal",
                "winners using it",
                "win rate: played",
                "win rate: legal, not played",
                "difference",
            ],
            d.classes
                .iter()
                .map(|c| {
                    let (dec, leg, cho) = c.decisions;
                    let pct = |x: u64, n: u64| {
                        if n == 0 {
                            "n/a".to_string()
                        } else {
                            format!("{:.1}%", 100.0 * x as f64 / n as f64)
                        }
                    };
                    let wr = |(n, w): (u64, u64)| {
                        if n == 0 {
                            "no seat-games".to_string()
                        } else {
                            let (x, lo, hi) = rate(w, n);
                            format!(
                                "{:.1}% [{:.1}, {:.1}] of {n}",
                                100.0 * x,
                                100.0 * lo,
                                100.0 * hi
                            )
                        }
                    };
                    vec![
                        c.class.clone(),
                        pct(leg, dec),
                        pct(cho, leg),
                        pct(c.winners_using.0, c.winners_using.1),
                        wr(c.played),
                        wr(c.not_played),
                        c.played_vs_not
                            .map_or("no comparison (a group is empty)".into(), |x| {
                                format!(
                                    "{:+.1} [{:+.1}, {:+.1}]",
                                    100.0 * x.estimate,
                                    100.0 * x.low,
                                    100.0 * x.high
                                )
                            }),
                    ]
                })
                .collect(),
        );
        r.p(
            "The win-rate difference compares seat-games of the same agent in which the class \
             was legal: it describes the agent's play, not a cause (a seat that is ahead may \
             take a class more often).",
        );
    }
    if let Some(m) = &d.dominance {
        r.h(2, "Dominance between personas");
        r.verdict(m.verdict());
        let k = m.personas.len();
        let names = crate::report::short_names(&m.personas);
        r.chart(charts::heat_map(
            "chart-design-personas",
            "Row persona's win share",
            &names,
            &names,
            &(0..k)
                .map(|i| (0..k).map(|j| m.m[i][j].map(|x| x.0)).collect())
                .collect::<Vec<_>>(),
        ));
        let mut headers = vec!["persona".to_string()];
        headers.extend(names.iter().map(|n| format!("vs {n}")));
        headers.push("Nash mass".into());
        headers.push(format!("α-Rank (α = {})", m.alpha));
        headers.push("α-Rank, large α".into());
        let rows: Vec<Vec<String>> = (0..k)
            .map(|i| {
                let mut row = vec![m.personas[i].clone()];
                row.extend((0..k).map(|j| {
                    m.m[i][j].map_or("—".into(), |(x, lo, hi)| {
                        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * x, 100.0 * lo, 100.0 * hi)
                    })
                }));
                row.push(format!("{:.2}", m.nash[i]));
                row.push(format!("{:.2}", m.alpharank[i]));
                row.push(format!("{:.2}", m.alpharank_limit[i]));
                row
            })
            .collect();
        let h: Vec<&str> = headers.iter().map(String::as_str).collect();
        r.table(&h, rows);
    }
    if let Some(km) = &d.kingmaking {
        r.h(2, "Kingmaking");
        let (x, lo, hi) = rate(km.changed, km.games);
        r.verdict(format!(
            "Replaying the last-placed seat's decisions from {:.0}% of the game with {} changed \
             the winner to another seat in {:.1}% [{:.1}, {:.1}] of {} games (Wilson 95%); the \
             replayed seat itself won {} of them. The control (the base agent with a fresh \
             random stream from the same ply) changed it in {:.1}%: kingmaking beyond the \
             game's sensitivity to any change is {:+.1} points [{:+.1}, {:+.1}] (paired t).",
            100.0 * args.from,
            km.kingmaker,
            100.0 * x,
            100.0 * lo,
            100.0 * hi,
            km.games,
            km.self_won,
            100.0 * km.control_changed as f64 / km.games.max(1) as f64,
            100.0 * km.excess.estimate,
            100.0 * km.excess.low,
            100.0 * km.excess.high
        ));
    }
    r.p(format!("Rerun: {command}"));
    r
}

/// Reads a design folder back (`sim report DIR`): the arguments from `command.txt` (parsed
/// as `sim design` parses them), the results from `restricted.csv`, `personas.csv` with
/// `alpharank.csv`, and `kingmaking.csv` (those present). The dominant persona is found
/// again from the matrix by [`design::dominant_persona`]; α-Rank comes from
/// `alpharank.csv`, or, in a folder written before it existed, from the matrix. `sim
/// design` builds its own report through this function, so the report `sim report`
/// regenerates is byte for byte the one the study wrote.
///
/// # Errors
/// [`ReportError::Read`] naming the file for a missing or malformed file or column, or a
/// command that is not `sim design`.
pub fn read_dir(dir: &Path) -> Result<(DesignArgs, Design, String), ReportError> {
    let command_path = dir.join("command.txt");
    let bad = |path: &Path, message: String| ReportError::Read {
        path: path.to_path_buf(),
        message,
    };
    let command = std::fs::read_to_string(&command_path)
        .map_err(|e| bad(&command_path, e.to_string()))?
        .trim_end()
        .to_string();
    let words = crate::agents::ext::split_command(&command).map_err(|e| bad(&command_path, e))?;
    /// `sim design`'s arguments alone.
    #[derive(clap::Parser)]
    struct Only {
        #[command(flatten)]
        args: DesignArgs,
    }
    let args = match words.get(..2) {
        Some([sim, design]) if sim == "sim" && design == "design" => {
            <Only as clap::Parser>::try_parse_from(&words[1..])
                .map_err(|e| bad(&command_path, e.to_string()))?
                .args
        }
        _ => return Err(bad(&command_path, "not a `sim design` command".into())),
    };
    let players = match args.players {
        Some(n) => n,
        None => crate::dispatch_game!(args.game.as_str(), G => G::DEFAULT_PLAYERS)
            .map_err(|e| bad(&command_path, e.to_string()))?,
    };
    let interval = |estimate: f64, low: f64, high: f64, p_value: f64| crate::stats::Difference {
        estimate,
        low,
        high,
        p_value,
        method: crate::stats::PAIRED_METHOD,
    };
    let mut classes = Vec::new();
    if let Some(t) = Table::read_opt(dir, "restricted.csv")? {
        let c = |n: &str| t.need(n);
        // Every column but the last (`verdict`, recomputed from the numbers).
        let mut ix = [0usize; RESTRICTED_HEADER.len() - 1];
        for (i, name) in RESTRICTED_HEADER[..ix.len()].iter().enumerate() {
            ix[i] = c(name)?;
        }
        for r in 0..t.rows.len() {
            let f = |i: usize| t.f(r, ix[i]);
            let u = |i: usize| t.u(r, ix[i]);
            classes.push(design::ClassResult {
                class: t.s(r, ix[0]).to_string(),
                cost: interval(f(1), f(2), f(3), f(4)),
                forced_games: u(5),
                winners_using: (u(6), u(7)),
                decisions: (u(8), u(9), u(10)),
                played: (u(11), u(12)),
                not_played: (u(13), u(14)),
                played_vs_not: (!t.s(r, ix[15]).is_empty())
                    .then(|| interval(f(15), f(16), f(17), f64::NAN)),
            });
        }
    }
    let dominance = match Table::read_opt(dir, "personas.csv")? {
        None => None,
        Some(t) => {
            let (cp, ca, cw, cl, ch, cn) = (
                t.need("persona")?,
                t.need("against")?,
                t.need("win_share")?,
                t.need("low")?,
                t.need("high")?,
                t.need("nash_mass")?,
            );
            let personas = args.personas.clone();
            let k = personas.len();
            let at = |name: &str, r: usize| {
                personas.iter().position(|p| p == name).ok_or_else(|| {
                    bad(
                        &t.path,
                        format!("row {}: persona {name} is not in the command", r + 1),
                    )
                })
            };
            let mut m = vec![vec![None; k]; k];
            let mut nash = vec![0.0; k];
            for r in 0..t.rows.len() {
                let (i, j) = (at(t.s(r, cp), r)?, at(t.s(r, ca), r)?);
                m[i][j] = Some((t.f(r, cw), t.f(r, cl), t.f(r, ch)));
                nash[i] = t.f(r, cn);
            }
            let fair = 1.0 / players as f64;
            let payoff: Vec<Vec<f64>> = (0..k)
                .map(|i| (0..k).map(|j| m[i][j].map_or(fair, |x| x.0)).collect())
                .collect();
            let (alpharank, alpharank_limit) = match Table::read_opt(dir, "alpharank.csv")? {
                Some(a) => {
                    let (cp, cm, cl) = (a.need("persona")?, a.need("mass")?, a.need("limit_mass")?);
                    let mut mass = vec![0.0; k];
                    let mut limit = vec![0.0; k];
                    for r in 0..a.rows.len() {
                        let i = at(a.s(r, cp), r)?;
                        mass[i] = a.f(r, cm);
                        limit[i] = a.f(r, cl);
                    }
                    (mass, limit)
                }
                None => (
                    crate::balance::alpharank::alpha_rank(
                        &payoff,
                        args.alpha,
                        design::ALPHARANK_POPULATION,
                    ),
                    crate::balance::alpharank::alpha_rank_limit(
                        &payoff,
                        design::ALPHARANK_POPULATION,
                    ),
                ),
            };
            Some(design::Dominance {
                dominant: design::dominant_persona(&m, fair),
                personas,
                m,
                fair,
                nash,
                alpha: args.alpha,
                alpharank,
                alpharank_limit,
            })
        }
    };
    let kingmaking = match Table::read_opt(dir, "kingmaking.csv")? {
        None => None,
        Some(t) if t.rows.is_empty() => None,
        Some(t) => {
            let c = [
                "kingmaker",
                "games",
                "winner_changed",
                "replayed_seat_won",
                "control_changed",
                "excess",
                "excess_low",
                "excess_high",
            ]
            .map(|n| t.need(n));
            let mut ix = [0usize; 8];
            for (i, col) in c.into_iter().enumerate() {
                ix[i] = col?;
            }
            Some(design::Kingmaking {
                kingmaker: t.s(0, ix[0]).to_string(),
                games: t.u(0, ix[1]),
                changed: t.u(0, ix[2]),
                self_won: t.u(0, ix[3]),
                control_changed: t.u(0, ix[4]),
                excess: interval(t.f(0, ix[5]), t.f(0, ix[6]), t.f(0, ix[7]), f64::NAN),
            })
        }
    };
    let d = Design {
        players,
        classes,
        dominance,
        kingmaking,
    };
    Ok((args, d, command))
}

/// The report of a design folder, from its files ([`read_dir`]).
///
/// # Errors
/// As [`read_dir`].
pub fn report_from_dir(dir: &Path) -> Result<Report, ReportError> {
    let (args, d, command) = read_dir(dir)?;
    Ok(build_report(&args, &d, &command))
}
