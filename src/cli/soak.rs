//! `sim soak`: plays many games between random and greedy agents with the conformance
//! invariants checked while they play ([`crate::soak`]), reports games/s, plies/s and every
//! failure with the `sim play` command that replays it, and exits 1 if any game failed.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::CliError;
use crate::game::Playable;
use crate::soak::{Mix, Progress, SoakError, SoakOptions, SoakReport};

/// The long help of `sim soak`.
pub const LONG_ABOUT: &str = "\
Play many games between random and greedy agents with every invariant of the conformance
harness checked while they play, and report games/s, plies/s and failures. Exit code 1 if
any game failed (each is listed with its seed, index and the `sim play` command that replays
it), 2 for bad input.

Game index i (from --from) plays configuration i mod C, where the configurations are every
combination of variant (the --variant settings; with --variants also one more setting per
alternative value of each enum or bool parameter), player count (--players, default every
supported count) and agent mix (--mix, default all three: random self-play, greedy against
random, greedy self-play). Game i is game i of `sim tournament --seed S` with that mix,
player count and variant, so `sim play --seed S --index i ...` replays it exactly.

Checked at every node: validate, clone == original, every seat's legal actions sorted,
unique and non-empty iff it acts, the value estimate finite and constant-sum, the ply bound,
and no allocation in legal_actions and the unchecked apply. At a node sampled with
probability 1/--check-every: every legal action applies through the checked apply, an
illegal one is refused, ids and texts round-trip, random_action agrees with the default
rule, and one determinization per seat keeps its info key, observation, turn and legal
actions and plays on. With probability 1/--save-every per node and per final state: save ->
load of the position gives an equal state and plays on identically. At the end: returns,
scores and ranks consistent.

SIGINT/SIGTERM stop after the games in flight; the report (and --out) then covers games
--from .. --from + games played, and prints the command that plays the rest.";

/// Options of `sim soak`.
#[derive(Debug, Args)]
pub struct SoakArgs {
    /// Game to soak (also `race`, the example game).
    #[arg(short, long)]
    pub game: String,

    /// Games to play in all (spread over the configurations).
    #[arg(short = 'n', long = "games", value_name = "N", default_value_t = 10_000, value_parser = super::positive_u64, allow_negative_numbers = true)]
    pub games: u64,

    /// Master seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = seed_value)]
    pub seed: u64,

    /// Index of the first game (continue an interrupted soak where its report says).
    #[arg(long = "from", value_name = "INDEX", default_value_t = 0)]
    pub first: u64,

    /// Player counts, comma-separated [default: every count the game supports].
    #[arg(short, long, value_delimiter = ',', value_name = "N,...")]
    pub players: Vec<usize>,

    /// Agent mixes, comma-separated: random, greedy-random, greedy [default: all three].
    #[arg(long, value_delimiter = ',', value_name = "MIX,...", value_parser = Mix::parse)]
    pub mix: Vec<Mix>,

    /// A rule variant setting for every configuration (repeatable).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variant: Vec<String>,

    /// Also soak one-factor variants: each alternative value of every enum or bool
    /// parameter.
    #[arg(long)]
    pub variants: bool,

    /// Deep checks (every legal action applied, illegal refused, determinize) at each node
    /// with probability 1/K.
    #[arg(long, value_name = "K", default_value_t = 16, value_parser = positive_u32)]
    pub check_every: u32,

    /// Save -> load -> play on at each node with probability 1/K.
    #[arg(long, value_name = "K", default_value_t = 256, value_parser = positive_u32)]
    pub save_every: u32,

    /// Worker threads [default: all cores].
    #[arg(long, value_parser = super::positive_usize)]
    pub threads: Option<usize>,

    /// Write the report to this file: TOML, or CSV (one row per configuration) if the name
    /// ends in .csv. Written at the end (also after SIGINT/SIGTERM, then covering the
    /// games played).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

fn positive_u32(s: &str) -> Result<u32, String> {
    super::positive_u64(s).and_then(|n| u32::try_from(n).map_err(|_| "too large".into()))
}

fn seed_value(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("expected a seed in 0..={}, got '{s}'", u64::MAX))
}

/// Runs `sim soak`.
///
/// # Errors
/// Bad input (exit 2), a failed game (exit 1, after the report), or an unwritable --out.
pub fn run(args: &SoakArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let opts = SoakOptions {
        games: args.games,
        first: args.first,
        seed: args.seed,
        players: args.players.clone(),
        mixes: args.mix.clone(),
        variant: args.variant.clone(),
        variants: args.variants,
        check_every: args.check_every,
        save_every: args.save_every,
        threads: args.threads,
    };
    if args.game == "race" {
        return soak_game::<crate::games::race::Race>(args, &opts, out);
    }
    crate::dispatch_game!(args.game.as_str(), G => soak_game::<G>(args, &opts, out))
        .map_err(|e| CliError::bad_input(anyhow::anyhow!("{e} (or race)")))?
}

fn soak_game<G: Playable>(
    args: &SoakArgs,
    opts: &SoakOptions,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let configs = crate::soak::plan::<G>(opts).map_err(bad)?;
    writeln!(
        out,
        "soak {}: {} games from index {}, seed {}, {} configurations (variant x players x mix)",
        G::NAME,
        opts.games,
        opts.first,
        opts.seed,
        configs.len()
    )
    .map_err(CliError::failure)?;
    let _ = ctrlc::set_handler(crate::soak::request_stop);
    let progress = Arc::new(Progress::default());
    let bar = progress_bar(opts.games);
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (progress, done, bar) = (progress.clone(), done.clone(), bar.clone());
        let total = opts.games;
        let quiet_log = !std::io::stderr().is_terminal();
        std::thread::spawn(move || {
            let start = Instant::now();
            let mut last_log = Instant::now();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                let g = progress.games.load(std::sync::atomic::Ordering::Relaxed);
                bar.set_position(g);
                // Without a terminal (a log file), one line a minute.
                if quiet_log && last_log.elapsed() >= Duration::from_secs(60) {
                    last_log = Instant::now();
                    let secs = start.elapsed().as_secs_f64();
                    eprintln!(
                        "soak: {g}/{total} games, {} failed, {:.0} games/s, {:.0} s",
                        progress.failures.load(std::sync::atomic::Ordering::Relaxed),
                        g as f64 / secs.max(1e-9),
                        secs
                    );
                }
            }
        })
    };
    let result = crate::soak::run::<G>(opts, &progress);
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = watcher.join();
    bar.finish_and_clear();
    let report = result.map_err(bad)?;
    if let Some(path) = &args.out {
        write_report(path, &report, &command_line()).map_err(CliError::failure)?;
    }
    print_report(&report, args, out).map_err(CliError::failure)?;
    if report.failures > 0 {
        return Err(CliError::failure(anyhow::anyhow!(
            "{} of {} games failed a check (listed above)",
            report.failures,
            report.games
        )));
    }
    if report.interrupted {
        return Err(CliError {
            code: 130,
            error: anyhow::anyhow!("interrupted after {} games", report.games),
        });
    }
    Ok(())
}

fn bad(e: SoakError) -> CliError {
    match e {
        SoakError::Threads(_) => CliError::failure(e),
        _ => CliError::bad_input(e),
    }
}

/// A progress bar on stderr counting `len` games (games played, games/s, time left); used
/// by `sim soak` and `sim skill`.
pub(super) fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games  {per_sec}  ETA {eta}",
        )
        .expect("the progress template is valid")
        .progress_chars("=> "),
    );
    bar
}

/// The command line as typed (for the report file).
fn command_line() -> String {
    crate::tournament::shell_join(&std::env::args().collect::<Vec<_>>())
}

fn print_report(r: &SoakReport, args: &SoakArgs, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{} games ({} plies) in {:.1} s on {} thread(s): {:.0} games/s, {:.0} plies/s (wall clock, approximate)",
        r.games, r.plies, r.seconds, r.threads, r.games_per_sec, r.plies_per_sec
    )?;
    let c = &r.checks;
    writeln!(
        out,
        "checked: {} nodes; deep checks at {} nodes (1/{}), {} determinizations; {} positions saved and loaded (1/{}); {}",
        c.nodes,
        c.deep_nodes,
        r.check_every,
        c.determinizations,
        c.positions_saved,
        r.save_every,
        if c.allocation_checked_plies > 0 {
            format!(
                "{} plies checked for allocations",
                c.allocation_checked_plies
            )
        } else {
            "allocations not checked (no counting allocator)".into()
        }
    )?;
    writeln!(
        out,
        "\nvariant | players | mix | games | plies/game | longest | bound | failures"
    )?;
    for k in &r.configs {
        writeln!(
            out,
            "{} | {} | {} | {} | {:.1} | {} | {} | {}",
            if k.variant.is_empty() {
                "default".to_string()
            } else {
                k.variant.join(" ")
            },
            k.players,
            k.mix.name(),
            k.games,
            k.plies as f64 / k.games.max(1) as f64,
            k.max_plies,
            k.bound,
            k.failures
        )?;
    }
    writeln!(out, "\nfailures: {}", r.failures)?;
    for f in &r.failure_list {
        writeln!(
            out,
            "game {} (chance seed {}), ply {}: {}\n  replay: {}\n  with the checks: {}",
            f.index,
            f.chance_seed,
            f.ply.map_or("?".into(), |p| p.to_string()),
            f.message,
            f.replay,
            f.resoak
        )?;
    }
    if (r.failures as usize) > r.failure_list.len() {
        writeln!(
            out,
            "({} more not listed)",
            r.failures as usize - r.failure_list.len()
        )?;
    }
    if let Some((from, n)) = r.rest() {
        writeln!(
            out,
            "\ninterrupted: games {}..{} played; the rest: sim soak --game {} -n {n} --from {from} --seed {}{}",
            r.first,
            r.first + r.games,
            r.game,
            r.seed,
            rest_flags(args)
        )?;
    }
    Ok(())
}

/// The options that shape the configurations, for the command that plays the rest.
fn rest_flags(args: &SoakArgs) -> String {
    let mut s = String::new();
    if !args.players.is_empty() {
        let p: Vec<String> = args.players.iter().map(|p| p.to_string()).collect();
        s += &format!(" --players {}", p.join(","));
    }
    if !args.mix.is_empty() {
        let m: Vec<&str> = args.mix.iter().map(|m| m.name()).collect();
        s += &format!(" --mix {}", m.join(","));
    }
    for v in &args.variant {
        s += &format!(" --variant {}", crate::tournament::shell_quote(v));
    }
    if args.variants {
        s += " --variants";
    }
    s += &format!(
        " --check-every {} --save-every {}",
        args.check_every, args.save_every
    );
    s
}

/// The report file: TOML, or CSV with one row per configuration. Written to a temporary
/// name and renamed, so a reader never sees half a file.
fn write_report(path: &Path, r: &SoakReport, command: &str) -> anyhow::Result<()> {
    let text = if path.extension().is_some_and(|e| e == "csv") {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            "game",
            "variant",
            "players",
            "mix",
            "games",
            "plies",
            "max_plies",
            "bound",
            "failures",
        ])?;
        for k in &r.configs {
            w.write_record([
                r.game.clone(),
                k.variant.join(" "),
                k.players.to_string(),
                k.mix.name().to_string(),
                k.games.to_string(),
                k.plies.to_string(),
                k.max_plies.to_string(),
                k.bound.to_string(),
                k.failures.to_string(),
            ])?;
        }
        String::from_utf8(w.into_inner()?)?
    } else {
        #[derive(serde::Serialize)]
        struct File<'a> {
            command: &'a str,
            version: &'a str,
            #[serde(flatten)]
            report: &'a SoakReport,
        }
        toml::to_string(&File {
            command,
            version: env!("CARGO_PKG_VERSION"),
            report: r,
        })?
    };
    let tmp = path.with_extension("partial");
    std::fs::write(&tmp, text)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    Ok(())
}
