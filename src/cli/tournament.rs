//! `sim tournament`: plays N games in parallel and writes CSV results and statistics
//! (see [`crate::tournament`] for the method and the file formats).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use super::{CliError, agent_specs, positive_u64, positive_usize};
use crate::tournament::{self, Settings};

/// The long help of `sim tournament`.
pub const LONG_ABOUT: &str = "\
Play N games in parallel between agents and write CSV results and statistics.

Seat rotation: with k agents (in the order given), in game g seat s is played by agent
(g + s) mod k. Over any k consecutive games every agent occupies every seat exactly once,
also when there are fewer agents than seats (the lineup cycles within a game) or more (each
game seats consecutive agents of the cyclic lineup). A warning is printed when N is not a
multiple of k, since the seats are then not exactly balanced.

Reproducibility: game g draws its chance from seed_for(SEED, g, 0) and the agent in seat s
from seed_for(SEED, g, 1 + s), so every game is reproducible on its own (`sim play --seed SEED
--index g`) and the output files are byte-identical for any --threads.

Statistics: win = sole first place, draw = shared first place; win rates come with 95% Wilson
score intervals (Wilson 1927); margin = own score minus the best other seat's score.";

/// Text after the options of `sim tournament --help`.
pub const AFTER_HELP: &str = "\
Output files (in --out; each written as NAME.partial and renamed when the run succeeds,
config.toml last):
  games.csv        one row per (game, seat): game, seed, variant, seat, agent, score, rank,
                   won, draw, plies, rounds, end; variant and agent are short labels
  agents.csv       one row per agent: agent (label: its kind, or kind#n when kinds repeat),
                   spec (canonical, every parameter)
  variants.csv     one row per rule parameter: variant (label: default or v + 8 hex digits),
                   parameter, value, default
  summary.csv      one row per agent: games, wins, draws, losses, win_rate, ci_low, ci_high,
                   mean_score, sd_score, mean_margin
  seats.csv        one row per seat: games, wins, draws, win_rate, ci_low, ci_high,
                   expected_win_rate (1/players), mean_score
  agent_seats.csv  one row per (agent, seat): games, wins, draws, win_rate, ci_low, ci_high,
                   mean_score, mean_margin
  config.toml      program version, the command to rerun, whether a rerun is exact
                   (reproducible = false when an agent has time_ms > 0), every rule and
                   agent parameter, the labels

Exit codes: 0 success, 1 the run failed, 2 bad input (unknown game, agent or parameter, bad
value, unwritable --out). A closed stdout (| head) is not a failure: the files are written.

Example:
  sim tournament --game daxu --agents greedy,random -n 100000 --seed 7";

/// Options of `sim tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// Game to play (`sim list` shows the games).
    #[arg(short, long, help = super::game_help())]
    pub game: String,

    /// Agents, comma-separated: `kind` or `kind:key=value,...` (`sim list` shows the kinds
    /// and their parameters). Repeatable; the order sets the seat rotation.
    #[arg(short, long, value_name = "SPECS", required = true)]
    pub agents: Vec<String>,

    /// Number of games.
    #[arg(short = 'n', long = "games", value_name = "N", default_value = "1000", value_parser = positive_u64)]
    pub games: u64,

    /// Master seed: with the same seed and settings, the same games and files.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Worker threads playing games [default: all cores]. With 1, the whole run uses one
    /// core; with more, a writer thread streams the rows beside them. Never changes the
    /// results.
    #[arg(long, value_name = "N", value_parser = positive_usize)]
    pub threads: Option<usize>,

    /// Output directory, created if needed; existing result files in it are replaced
    /// [default: out/GAME].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Players per game [default: the game's default].
    #[arg(short, long, value_name = "N")]
    pub players: Option<usize>,

    /// A rule variant setting (repeatable); `sim list` shows each game's parameters.
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variant: Vec<String>,
}

impl TournamentArgs {
    /// The library settings for these options.
    pub fn settings(&self) -> Settings {
        Settings {
            game: self.game.clone(),
            players: self.players,
            variant: self.variant.clone(),
            agents: agent_specs(&self.agents),
            games: self.games,
            seed: self.seed,
            threads: self.threads,
            out: self
                .out
                .clone()
                .unwrap_or_else(|| PathBuf::from("out").join(&self.game)),
            progress: std::io::stderr().is_terminal(),
        }
    }
}

/// Runs `sim tournament`: validates everything first (bad input writes nothing), warns on
/// stderr if N is not a multiple of the number of agents, plays, and prints the summary.
///
/// # Errors
/// Bad input (exit 2) or a failed run (exit 1).
pub fn run(args: &TournamentArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = args.settings();
    let resolved = tournament::validate(&settings)?;
    let k = resolved.agents.len() as u64;
    if resolved.games % k != 0 {
        eprintln!(
            "warning: {} games is not a multiple of the {k} agents: seats are exactly balanced \
             only over multiples of {k} games (the last {} games are a partial rotation)",
            resolved.games,
            resolved.games % k
        );
    }
    if let Some(why) = tournament::not_reproducible_because(&resolved.agents) {
        eprintln!("warning: {why} (config.toml records reproducible = false)");
    }
    let report = tournament::run(&settings)?;
    let t = &report.config.tournament;
    let secs = report.elapsed.as_secs_f64();
    eprintln!(
        "played {} games in {secs:.2} s ({:.0} games/s) on {} threads",
        t.games,
        t.games as f64 / secs.max(1e-9),
        report.threads
    );
    let labels = &report.config.labels;
    let variant = if t.variant.is_empty() {
        "(no parameters)".to_string()
    } else {
        t.variant.join(" ")
    };
    let legend: Vec<String> = labels
        .agents
        .iter()
        .map(|a| format!("{} = {}", a.agent, a.spec))
        .collect();
    let lineup: Vec<&str> = t
        .agents
        .iter()
        .map(|spec| labels.agent_label(spec).unwrap_or(spec))
        .collect();
    let files: Vec<String> = report
        .files
        .iter()
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    (|| -> std::io::Result<()> {
        writeln!(
            out,
            "{} {}: {} games of {} with {} players, seed {}",
            report.config.program, report.config.version, t.games, t.game, t.players, t.seed
        )?;
        writeln!(out, "variant {}: {variant}", labels.variant)?;
        writeln!(out, "agents: {}", legend.join("; "))?;
        writeln!(
            out,
            "lineup: {} (game g, seat s: entry (g + s) mod {k})\n",
            lineup.join(", ")
        )?;
        write!(out, "{}", report.stats.render())?;
        writeln!(
            out,
            "\nwrote {}: {}",
            report.out.display(),
            files.join(", ")
        )?;
        writeln!(out, "rerun: {}", report.config.command)
    })()
    .context("writing the summary to stdout")
    .map_err(CliError::failure)
}
