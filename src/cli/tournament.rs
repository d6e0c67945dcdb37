//! `sim tournament`: plays N games in parallel and writes CSV results and statistics
//! (see [`crate::tournament`] for the method and the file formats).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use super::{CliError, agent_specs, positive_u64, positive_usize};
use crate::tournament::{self, Schedule, Settings};

/// The long help of `sim tournament`.
pub const LONG_ABOUT: &str = "\
Play N games in parallel between agents and write CSV results and statistics.

Seating: with k agents (in the order given) at p seats, every game is a most even seating
(each agent entry holds floor(p/k) or ceil(p/k) of the seats: with fewer agents than seats an
agent plays several seats of a game, with more some sit out), and the games cycle through
all such seatings in an order with two guarantees:
  - any k consecutive games starting at a multiple of k give every agent every seat once;
  - every block of B games gives every agent every seat, and every ordered pair of agents
    every ordered pair of distinct seats, equally often.
B is 2 for 2 agents at 2 seats (a b, b a, ...), 6 for 2 agents at 4 seats (the arrangements
of a a b b), 36 for 3 at 4, 24 for 4 at 4, 20 for 5 at 4; the summary prints it. A warning
is printed when N is not a multiple of B, since the seats are then not exactly balanced.

Reproducibility: game g draws its chance from seed_for(SEED, g, 0) and the agent in seat s
from seed_for(SEED, g, 1 + s), so every game is reproducible on its own (`sim play --seed SEED
--index g`) and the output files are byte-identical for any --threads.

Statistics: per seat, win = sole first place, draw = shared first place. An agent wins a game
when it alone holds first place (through any of its seats), draws when it shares first place
with another agent; its win rate counts games, so its 95% Wilson score interval (Wilson 1927)
treats independent games, not its several seats of one game, as the trials. Margin = own
score minus the best other seat's score; ranks are 1 = best, tied seats sharing a rank.";

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
  summary.csv      one row per agent: games, seats, wins, draws, losses, win_rate, ci_low,
                   ci_high, expected_win_rate, mean_score, sd_score, mean_margin, mean_rank,
                   rank1..rankP (win counts per game; scores, margins and ranks per seat)
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
    /// and their parameters). Repeatable; the order sets the seating schedule.
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
/// stderr if N is not a multiple of the seating block ([`Schedule::block_len`]), plays, and
/// prints the summary.
///
/// # Errors
/// Bad input (exit 2) or a failed run (exit 1).
pub fn run(args: &TournamentArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = args.settings();
    let resolved = tournament::validate(&settings)?;
    let k = resolved.agents.len() as u64;
    let block = Schedule::new(resolved.agents.len(), resolved.players).block_len();
    let n = resolved.games;
    if n % block != 0 {
        let seats = if n % k == 0 {
            "every agent holds every seat equally often, but ".to_string()
        } else {
            format!("seats are not exactly balanced (that needs a multiple of {k} games), and ")
        };
        eprintln!(
            "warning: {n} games is not a multiple of the seating block of {block} games: \
             {seats}ordered pairs of agents meet in every pair of seats equally often only \
             over whole blocks; use a multiple of {block} games"
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
        writeln!(
            out,
            "agents: {} (balanced seating in blocks of {block} games); full specs (agents.csv):",
            lineup.join(", ")
        )?;
        for l in &legend {
            writeln!(out, "  {l}")?;
        }
        writeln!(out)?;
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
