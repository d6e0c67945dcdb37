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
--index g`) and the output files are byte-identical for any --threads. With --paired the B
games of a block share deal floor(g / B): chance from seed_for(SEED, floor(g / B), 0).

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
  paired.csv       with --paired: per pair of agents and per seat against seat 0, the win
                   rate and mean score difference paired over the deals (paired t interval)
  sequential.csv   with --until-significant: decision (H1, H0, undecided), games played,
                   the test's options, log-likelihood ratio and boundaries
  decisiveness.csv with --decisiveness: basis (round or percent), point, games, with_leader,
                   leader_wins, leader_draws, leader_win_rate, ci_low, ci_high
  lead_changes.csv with --decisiveness: lead_changes, games, fraction
  config.toml      program version, the command to rerun, whether a rerun is exact
                   (reproducible = false when an agent has time_ms > 0), every rule and
                   agent parameter, the labels

  errors.csv       one row per failed game (panic, illegal action, ply bound): game, seed,
                   variant, seats, ply, message, replay (the `sim play` command that
                   replays it)
  games.csv.gz     instead of games.csv with --games-file gz (none with --games-file none)
  checkpoint.json  the saved progress (statistics, next game) that --resume continues from,
                   sealed with its SHA-256 and holding the games file's SHA-256 (checked by
                   --resume, sim merge and sim verify)
  manifest.json    who owns the directory: version, command, configuration hash, state
                   (running / interrupted / complete / failed), files; another run's
                   directory is refused unless --overwrite
  .sim.lock        while a run writes the directory: its pid and start time; a second run,
                   resume or overwrite of the directory is refused at once (exit 2)

Sharding: --shard I/N (0-based) plays a contiguous range of whole seating blocks; `sim
merge DIRS... --out DIR` combines the shards into files byte-identical to one run with
--out DIR. deploy/slurm and deploy/k8s hold a Slurm array job and a Kubernetes Indexed Job.

Ctrl-C or SIGTERM: the games in flight finish, progress is saved, the manifest says
interrupted and the resume command is printed (exit 130); `--resume DIR` continues to
byte-identical files.

Exit codes: 0 success, 1 the run failed or some games failed (without --allow-failures; the
files are written all the same, errors.csv lists the failed games), 2 bad input (unknown game, agent or parameter, bad
value, unwritable or occupied --out), 130 interrupted. A closed stdout (| head) is not a failure: the files are written.

Example:
  sim tournament --game daxu --agents greedy,random -n 100000 --seed 7";

/// Options of `sim tournament`.
#[derive(Debug, Clone, Args)]
pub struct TournamentArgs {
    /// Game to play (`sim list` shows the games).
    #[arg(short, long, help = super::game_help(), required_unless_present_any = ["resume", "config"])]
    pub game: Option<String>,

    /// Agents, comma-separated: `kind` or `kind:key=value,...` (`sim list` shows the kinds
    /// and their parameters). Repeatable; the order sets the seating schedule.
    #[arg(short, long, value_name = "SPECS", required_unless_present_any = ["resume", "config"])]
    pub agents: Vec<String>,

    /// Read the options from a TOML file (keys: the long options with `_` for `-`: game,
    /// agents, games, seed, threads, out, players, variant, paired, decisiveness,
    /// fail_fast, until_significant, games_file, shard, allow_failures, trajectories);
    /// options given on the command line override the file's (a --variant key replaces
    /// the file's setting of that key; --no-paired, --no-decisiveness and --no-fail-fast
    /// turn off a flag the file turns on).
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub config: Option<PathBuf>,

    /// Number of games [default: 1000]
    #[arg(short = 'n', long = "games", value_name = "N", value_parser = positive_u64, allow_negative_numbers = true)]
    pub games: Option<u64>,

    /// Master seed: with the same seed and settings, the same games and files [default: 0]
    #[arg(long, value_parser = super::seed_u64, allow_negative_numbers = true)]
    pub seed: Option<u64>,

    /// Worker threads playing games [default: all cores]. A writer thread beside them
    /// streams the rows; with 1, it also formats the rows and adds the statistics, so a
    /// one-thread run plays at nearly the full speed of one core and uses a little of a
    /// second. Never changes the results.
    #[arg(long, value_name = "N", value_parser = positive_usize, allow_negative_numbers = true)]
    pub threads: Option<usize>,

    /// Output directory, created if needed; existing result files in it are replaced
    /// [default: out/GAME].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Players per game [default: the game's default].
    #[arg(short, long, value_name = "N", value_parser = positive_usize, allow_negative_numbers = true)]
    pub players: Option<usize>,

    /// A rule variant setting (repeatable); `sim list` shows each game's parameters.
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variant: Vec<String>,

    /// Replace the files of another run in --out (a run of another configuration or
    /// command, or of an older version of sim without manifest.json). Without it such a
    /// directory is refused.
    #[arg(long, conflicts_with = "resume")]
    pub overwrite: bool,

    /// Continue the interrupted (or killed) run in DIR from its last checkpoint; the files
    /// come out byte-identical to an uninterrupted run. The run's options are read from
    /// DIR/manifest.json; any option given that differs from the run's is refused (exit 2,
    /// naming the option and both values); --threads may differ. A complete run is
    /// reported as such (exit 0) and nothing is played.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,

    /// Stop at the first game that fails (a panic in a rules engine or agent, a game over
    /// its ply bound) instead of recording it in errors.csv and going on.
    #[arg(long, overrides_with = "no_fail_fast")]
    pub fail_fast: bool,

    /// Turn --fail-fast off when a --config file turns it on (`fail_fast = true`).
    #[arg(long = "no-fail-fast", overrides_with = "fail_fast")]
    pub no_fail_fast: bool,

    /// Stop the run when K games in a row (within a block of 32) failed by an external
    /// agent's program (`ext:`), with its last error, instead of restarting a broken
    /// program for every game; 0: never stop for that.
    #[arg(long, value_name = "K", default_value_t = crate::tournament::run::EXT_FAILURES)]
    pub ext_failures: u64,

    /// Accept failed games: exit 0 although some games failed (they are listed in
    /// errors.csv and left out of every statistic), or, with a share (0 to 1), as long as
    /// at most that share of the games failed. Without it any failed game makes the exit
    /// status 1 (the files are written all the same).
    #[arg(long, value_name = "SHARE", num_args = 0..=1, default_missing_value = "1", require_equals = true, value_parser = failure_share)]
    pub allow_failures: Option<f64>,

    /// Play only shard I of N of the games (0-based: 0/4, 1/4, 2/4, 3/4, as Slurm's
    /// SLURM_ARRAY_TASK_ID with --array=0-3 and Kubernetes' JOB_COMPLETION_INDEX), a
    /// contiguous range of whole seating blocks (a multiple of lcm(B, 32) games, B the
    /// seating block); `sim merge` combines the shards' directories into the files of the
    /// whole run. When -n gives fewer such units than shards, the first shards are empty
    /// (they play nothing and merge like the others). The range is printed and recorded in
    /// manifest.json and config.toml.
    #[arg(long, value_name = "I/N", allow_hyphen_values = true)]
    pub shard: Option<tournament::Shard>,

    /// How to write the per-game rows: csv (games.csv), gz (games.csv.gz, gzip members of
    /// 4096 games that zcat, pandas and R read as one file) or none (no games file; every
    /// statistics file is the same, and sim merge still rebuilds them from the tallies)
    /// [default: csv]
    #[arg(long = "games-file", value_name = "FORMAT")]
    pub games_file: Option<tournament::GamesFile>,

    /// Common random numbers: replay each deal (the chance stream of the game) under every
    /// seating of the seating block B, so game g plays deal floor(g / B) (chance from
    /// seed_for(SEED, floor(g / B), 0); the agents' own streams stay per game and seat).
    /// The summary adds the differences between agents and between seats paired over the
    /// deals (paired t interval; paired.csv): narrower where the deal decides much of a
    /// game and survives play (Kuhn poker: 4x), about as wide where lazy draws diverge as
    /// soon as the seatings play differently (the four board games). N must be a multiple
    /// of B.
    #[arg(long, overrides_with = "no_paired")]
    pub paired: bool,

    /// Turn --paired off when a --config file turns it on (`paired = true`).
    #[arg(long = "no-paired", overrides_with = "paired")]
    pub no_paired: bool,

    /// Stop as soon as a sequential test (Wald's SPRT) answers the question, or at N games:
    /// with two agents "does the first win more than the second?" (draws count 1/2; H0 p =
    /// p0 = 0.5, H1 p = p1 = 0.55), with one agent in every seat "does seat 0 win more than
    /// its share?" (p0 = 1/players, p1 = p0 + 0.05); other lineups are refused. Options
    /// (optional, comma-separated): p0, p1, alpha (0.05), beta (0.05), every (4096: the test
    /// is checked every so many games, rounded up to whole seating blocks, so the stop
    /// point is the same for any --threads). The summary, config.toml and sequential.csv
    /// say which hypothesis was accepted after how many games, or that N was reached.
    #[arg(long, value_name = "OPTIONS", num_args = 0..=1, default_missing_value = "", require_equals = true)]
    pub until_significant: Option<tournament::sequential::SequentialSpec>,

    /// Decisiveness and lead changes: record the leader by running score (the points each
    /// seat would have if the game ended now; a tie is no leader) after every round, and
    /// write decisiveness.csv (how often the leader after round r, and after 10%..90% of
    /// the rounds, wins, with Wilson intervals) and lead_changes.csv (games by number of
    /// lead changes, the winner counting as the last leader). Games without a running
    /// score (kuhn) are refused. Costs a running score per round: one-thread runs of
    /// random Daxu or Dunhuang games take 20-30% longer.
    #[arg(long, overrides_with = "no_decisiveness")]
    pub decisiveness: bool,

    /// Turn --decisiveness off when a --config file turns it on (`decisiveness = true`).
    #[arg(long = "no-decisiveness", overrides_with = "decisiveness")]
    pub no_decisiveness: bool,

    /// Also write every decision of the finished games (observation tensor, legal-action
    /// mask, action, seat, final return, game) to DIR as .npz files (numpy.load; the layout
    /// of the Python package's tabletop_sim.trajectories, whose load(DIR) reads them), by
    /// replaying the games after the run (about as long again). A DIR that already holds
    /// trajectory parts is refused unless --overwrite.
    #[arg(long, value_name = "DIR")]
    pub trajectories: Option<PathBuf>,

    /// Skill check: after the run, play the same study again (same games, seed, seats and
    /// design) with every search agent (mcts, ismcts, cfr) at twice its budget (iters, or
    /// time_ms when set), into OUT-skill-check, and say under each verdict whether it holds
    /// (same direction, intervals overlapping) or changes. Other agents are unchanged.
    #[arg(long, conflicts_with_all = ["resume", "shard"])]
    pub skill_check: bool,

    /// (Testing) write a checkpoint every N blocks of 32 games instead of every 10 s.
    #[arg(long, value_name = "N", value_parser = positive_u64, hide = true)]
    pub checkpoint_every: Option<u64>,

    /// (Testing) sleep N ms after each block of 32 games, so that tests can interrupt a
    /// run at a predictable pace.
    #[arg(long, value_name = "MS", default_value_t = 0, hide = true)]
    pub throttle_ms: u64,
}

/// A string or a list of strings in a `--config` file (`agents = "greedy,random"` or
/// `agents = ["greedy", "mcts:iters=500"]`).
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

/// The rule settings of a `--config` file: a list of `key=value` strings or a table
/// (`variant = { komi = 3, deck = "2/2/5" }`).
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
enum VariantSettings {
    List(OneOrMany),
    Table(std::collections::BTreeMap<String, toml::Value>),
}

/// The keys a `--config` file may hold ([`TournamentArgs::config`]).
const CONFIG_KEYS: &[&str] = &[
    "game",
    "agents",
    "games",
    "seed",
    "threads",
    "out",
    "players",
    "variant",
    "paired",
    "decisiveness",
    "fail_fast",
    "until_significant",
    "games_file",
    "shard",
    "allow_failures",
    "trajectories",
];

/// A `--config` file of `sim tournament`: its keys are the long options ([`CONFIG_KEYS`]).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    game: Option<String>,
    agents: Option<OneOrMany>,
    games: Option<u64>,
    seed: Option<u64>,
    threads: Option<usize>,
    out: Option<PathBuf>,
    players: Option<usize>,
    variant: Option<VariantSettings>,
    paired: Option<bool>,
    decisiveness: Option<bool>,
    fail_fast: Option<bool>,
    until_significant: Option<String>,
    games_file: Option<String>,
    shard: Option<String>,
    allow_failures: Option<f64>,
    trajectories: Option<PathBuf>,
}

/// `args` with the options of the TOML `file` filled in where the command line gave none
/// (the command line overrides the file; a `--variant` key replaces the file's setting of
/// the same key, the file's other settings stay).
///
/// # Errors
/// Bad input (exit 2) naming the file: unreadable, not TOML, an unknown key (with the
/// closest valid key and the list), or a value of the wrong type.
fn with_config(args: &TournamentArgs, file: &std::path::Path) -> Result<TournamentArgs, CliError> {
    let bad =
        |msg: String| CliError::bad_input(anyhow::anyhow!("--config {}: {msg}", file.display()));
    let text = std::fs::read_to_string(file).map_err(|e| bad(e.to_string()))?;
    let c: ConfigFile = toml::from_str(&text).map_err(|e| {
        let msg = e.message().to_string();
        let unknown = msg
            .strip_prefix("unknown field `")
            .and_then(|r| r.split('`').next())
            .map(|k| {
                format!(
                    "unknown key '{k}'; valid keys: {}{}",
                    CONFIG_KEYS.join(", "),
                    crate::format::did_you_mean_hint(k, CONFIG_KEYS)
                )
            });
        bad(unknown.unwrap_or(msg))
    })?;
    let mut a = args.clone();
    a.game = a.game.or(c.game);
    if a.agents.is_empty() {
        a.agents = c.agents.map(OneOrMany::into_vec).unwrap_or_default();
    }
    a.games = a.games.or(c.games);
    a.seed = a.seed.or(c.seed);
    a.threads = a.threads.or(c.threads);
    a.out = a.out.or(c.out);
    a.players = a.players.or(c.players);
    if let Some(v) = c.variant {
        let from_file: Vec<String> = match v {
            VariantSettings::List(l) => l.into_vec(),
            VariantSettings::Table(t) => t
                .into_iter()
                .map(|(k, v)| match v {
                    toml::Value::String(s) => format!("{k}={s}"),
                    other => format!("{k}={other}"),
                })
                .collect(),
        };
        let key = |s: &String| s.split('=').next().unwrap_or("").trim().to_string();
        let given: Vec<String> = a.variant.iter().map(key).collect();
        let mut all: Vec<String> = from_file
            .into_iter()
            .filter(|s| !given.contains(&key(s)))
            .collect();
        all.append(&mut a.variant);
        a.variant = all;
    }
    // A flag is on when given, or set by the file and not turned off by its `--no-` form.
    a.paired = !a.no_paired && (a.paired || c.paired.unwrap_or(false));
    a.decisiveness = !a.no_decisiveness && (a.decisiveness || c.decisiveness.unwrap_or(false));
    a.fail_fast = !a.no_fail_fast && (a.fail_fast || c.fail_fast.unwrap_or(false));
    if a.until_significant.is_none()
        && let Some(spec) = c.until_significant
    {
        a.until_significant = Some(
            spec.parse()
                .map_err(|e| bad(format!("until_significant: {e}")))?,
        );
    }
    if a.games_file.is_none()
        && let Some(f) = c.games_file
    {
        a.games_file = Some(f.parse().map_err(|e| bad(format!("games_file: {e}")))?);
    }
    if a.shard.is_none()
        && let Some(sh) = c.shard
    {
        a.shard = Some(sh.parse().map_err(|e| bad(format!("shard: {e}")))?);
    }
    if a.allow_failures.is_none()
        && let Some(x) = c.allow_failures
    {
        a.allow_failures =
            Some(failure_share(&x.to_string()).map_err(|e| bad(format!("allow_failures: {e}")))?);
    }
    a.trajectories = a.trajectories.or(c.trajectories);
    Ok(a)
}

/// The number of games without `-n`.
pub const DEFAULT_GAMES: u64 = 1000;

impl TournamentArgs {
    /// The library settings for these options (`resume` must be `None` or the game given).
    pub fn settings(&self) -> Settings {
        let game = self.game.clone().unwrap_or_default();
        Settings {
            game: game.clone(),
            players: self.players,
            variant: self.variant.clone(),
            agents: agent_specs(&self.agents),
            games: self.games.unwrap_or(DEFAULT_GAMES),
            seed: self.seed.unwrap_or(0),
            threads: self.threads,
            out: self
                .out
                .clone()
                .or_else(|| self.resume.clone())
                .unwrap_or_else(|| PathBuf::from("out").join(&game)),
            progress: std::io::stderr().is_terminal(),
            design: tournament::Design {
                paired: self.paired,
                until_significant: self.until_significant,
                decisiveness: self.decisiveness,
            },
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
    let merged;
    let args = match &args.config {
        Some(file) => {
            merged = with_config(args, file)?;
            &merged
        }
        None => args,
    };
    if args.resume.is_none() && (args.game.is_none() || args.agents.is_empty()) {
        return Err(CliError::bad_input(anyhow::anyhow!(
            "--game and --agents are required (on the command line or in the --config file)"
        )));
    }
    let (settings, shard, games_file) = match &args.resume {
        Some(dir) => resume_settings(args, dir)?,
        None => (
            args.settings(),
            args.shard,
            args.games_file.unwrap_or_default(),
        ),
    };
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
            "{}",
            super::wrap_stderr(&format!(
                "warning: {n} games is not a multiple of the seating block of {block} games: \
                 {seats}ordered pairs of agents meet in every pair of seats equally often \
                 only over whole blocks; use a multiple of {block} games"
            ))
        );
    }
    if let Some(why) = tournament::not_reproducible_because(&resolved.agents) {
        eprintln!(
            "{}",
            super::wrap_stderr(&format!(
                "warning: {why} (config.toml records reproducible = false)"
            ))
        );
    }
    let check = if args.skill_check {
        skill_check_settings(&settings, &resolved.agents)?
    } else {
        None
    };
    if let Some(dir) = &args.trajectories {
        crate::trajectories::prepare(dir, args.overwrite).map_err(CliError::bad_input)?;
    }
    crate::interrupt::install();
    let options = tournament::RunOptions {
        overwrite: args.overwrite,
        resume: args.resume.is_some(),
        stop: Some(&crate::interrupt::REQUESTED),
        fail_fast: args.fail_fast,
        checkpoint_every: args.checkpoint_every,
        throttle_ms: args.throttle_ms,
        nested: false,
        shard,
        games_file,
        ext_failures: Some(args.ext_failures),
        chain_version: None,
    };
    if let Some(s) = shard {
        let info = s.info(n, block);
        eprintln!(
            "{info} of {n}: {} games{}",
            info.end - info.start,
            if info.start == info.end {
                " (an empty shard: fewer units of lcm(B, 32) games than shards)"
            } else {
                ""
            }
        );
    }
    let report = tournament::run_with(&settings, &options)?;
    let check = match &check {
        Some(c) => {
            eprintln!(
                "skill check: the same games with every search agent at twice its budget, in {}",
                c.out.display()
            );
            Some(tournament::run_with(c, &options)?)
        }
        None => None,
    };
    if let Some(dir) = &args.trajectories {
        let w = crate::trajectories::write_tournament(&settings, &report, dir, settings.threads)
            .map_err(CliError::failure)?;
        eprintln!(
            "wrote the trajectories of {} games ({} decisions) to {}: {} .npz files",
            w.games,
            w.decisions,
            dir.display(),
            w.files.len()
        );
    }
    let t = &report.config.tournament;
    if report.already_complete {
        eprintln!(
            "the run in {} is already complete: nothing to resume, no game played; its \
             results follow",
            report.out.display()
        );
    } else {
        if let Some(g) = report.resumed_at {
            eprintln!("resumed at game {g} of {}", t.games);
        }
        let secs = report.elapsed.as_secs_f64();
        let played = match (&report.config.sequential, report.config.shard) {
            (Some(q), _) => q.games,
            (None, Some(s)) => s.end - s.start,
            (None, None) => t.games,
        };
        eprintln!(
            "played {played} games in {secs:.2} s ({:.0} games/s) on {} threads",
            played as f64 / secs.max(1e-9),
            report.threads
        );
    }
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
    let files = crate::output::file_names(&report.files);
    (|| -> std::io::Result<()> {
        let games = match (&report.config.sequential, report.config.shard) {
            (Some(q), _) => format!("{} games (at most {})", q.games, t.games),
            (None, Some(s)) => format!("{s} of {} games", t.games),
            (None, None) => format!("{} games", t.games),
        };
        writeln!(
            out,
            "{} {}: {games} of {} with {} players, seed {}",
            report.config.program, report.config.version, t.game, t.players, t.seed
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
        if t.design.paired {
            writeln!(
                out,
                "paired: every deal is replayed under the {block} seatings of its block \
                 (common random numbers)"
            )?;
        }
        if let Some(q) = &report.config.sequential {
            writeln!(out, "sequential test ({}): {}", q.method, q.question)?;
            writeln!(out, "  {}", q.reason)?;
        }
        writeln!(out)?;
        let failed = failed_line(&report);
        let annotated =
            crate::experiments::skill_check::summary(&report, check.as_ref(), args.skill_check);
        if report.stats.games == 0 {
            // No verdict over no games.
            writeln!(
                out,
                "Verdicts\nnone: no game finished, there is nothing to judge"
            )?;
        } else {
            let rendered = annotated;
            match &failed {
                Some(line) => write!(
                    out,
                    "{}",
                    rendered.replacen("Verdicts\n", &format!("Verdicts\n{line}\n"), 1)
                )?,
                None => write!(out, "{rendered}")?,
            }
        }
        writeln!(
            out,
            "\nwrote {}: {}",
            report.out.display(),
            files.join(", ")
        )?;
        // The settings that are the game's defaults are left out (the same run; config.toml
        // keeps the whole command), as in the report's setup table.
        let short = |command: &str| crate::report::data::without_default_variants(&t.game, command);
        writeln!(out, "rerun: {}", short(&report.config.command))?;
        if let Some(c) = &check {
            writeln!(
                out,
                "skill check: wrote {} (rerun: {})",
                c.out.display(),
                short(&c.config.command)
            )?;
        }
        if let Some(line) = &failed {
            writeln!(out, "\n{line}")?;
        }
        Ok(())
    })()
    .context("writing the summary to stdout")
    .map_err(CliError::failure)?;
    failures_verdict(&report, args.allow_failures)
}

/// The settings of the skill check (`--skill-check`): the study's settings with every
/// search agent of `agents` (the canonical specs) at twice its budget, written to
/// `OUT-skill-check` ([`crate::experiments::skill_check`]). `None` (with a note on stderr)
/// when no agent has a search budget.
///
/// # Errors
/// Bad input (exit 2) if the doubled settings do not validate.
fn skill_check_settings(
    settings: &Settings,
    agents: &[String],
) -> Result<Option<Settings>, CliError> {
    let Some(doubled) = crate::experiments::skill_check::doubled_lineup(agents) else {
        eprintln!(
            "skill check: no agent has a search budget to double (mcts, ismcts, cfr); the \
             verdicts rest on fixed policies and are not rerun"
        );
        return Ok(None);
    };
    let mut check = settings.clone();
    check.agents = doubled;
    check.out = crate::experiments::skill_check::check_dir(&settings.out);
    tournament::validate(&check)?;
    Ok(Some(check))
}

/// The line that says games failed (`None`: none did): printed under the verdicts and
/// again as the last line of the summary.
fn failed_line(report: &tournament::Report) -> Option<String> {
    let failed = report.failures.len();
    (failed > 0).then(|| {
        let total = failed as u64 + report.stats.games;
        format!(
            "FAILED GAMES: {failed} of {total} games failed and are excluded from every \
             statistic: see errors.csv (each row has the `sim play` command that replays the \
             game)"
        )
    })
}

/// Exit status 1 when games failed and `allow` (the `--allow-failures` share) does not
/// accept their share.
///
/// # Errors
/// A failure (exit 1) naming the share that failed and how to accept it.
fn failures_verdict(report: &tournament::Report, allow: Option<f64>) -> Result<(), CliError> {
    let failed = report.failures.len() as u64;
    if failed == 0 {
        return Ok(());
    }
    let total = failed + report.stats.games;
    let share = failed as f64 / total as f64;
    let allowed = allow.unwrap_or(0.0);
    if share <= allowed {
        return Ok(());
    }
    Err(CliError::failure(anyhow::anyhow!(
        "{failed} of {total} games failed ({:.2}%{}); the files are written and errors.csv \
         lists them; pass --allow-failures (or --allow-failures=SHARE) to accept failed games",
        100.0 * share,
        match allow {
            Some(a) => format!(", more than the {:.2}% allowed", 100.0 * a),
            None => String::new(),
        }
    )))
}

/// clap value parser for `--allow-failures=SHARE`: a share from 0 to 1.
fn failure_share(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| (0.0..=1.0).contains(x))
        .ok_or_else(|| format!("'{s}' is not a share: expected a number from 0 to 1, e.g. 0.01"))
}

/// The settings of `sim tournament --resume DIR`: those of the run in DIR
/// (`manifest.json`). Every option given with `--resume` is checked against the run's
/// (after resolving both, so `greedy` and its canonical spec agree) and a difference is
/// refused naming the option and both values: a resume never silently ignores an option.
///
/// # Errors
/// Bad input (exit 2): no readable manifest, a run of another command, `--out` naming
/// another directory, an option that differs from the run's (or that is itself bad).
fn resume_settings(
    args: &TournamentArgs,
    dir: &std::path::Path,
) -> Result<(Settings, Option<tournament::Shard>, tournament::GamesFile), CliError> {
    if args.out.as_ref().is_some_and(|o| o != dir) {
        return Err(CliError::bad_input(anyhow::anyhow!(
            "--resume {} and --out {} name different directories; give only --resume",
            dir.display(),
            args.out
                .as_ref()
                .map(|o| o.display().to_string())
                .unwrap_or_default()
        )));
    }
    let bad = |reason: String| {
        CliError::bad_input(crate::output::OutputError::Resume {
            path: dir.to_path_buf(),
            reason,
        })
    };
    if !dir.is_dir() {
        return Err(bad("no such directory".into()));
    }
    let manifest = crate::output::read_manifest(dir)
        .map_err(|e| bad(e.to_string()))?
        .ok_or_else(|| {
            bad("it has no manifest.json: it holds no run that can be resumed".into())
        })?;
    let r = tournament::ResolvedSettings::from_manifest(&manifest, dir).map_err(bad)?;
    let games_file = tournament::GamesFile::from_manifest(manifest.games_file.as_deref())
        .map_err(|e| bad(format!("manifest.json: {e}")))?;
    let shard = manifest.shard.map(|s| s.shard());
    let settings = r.clone().into_settings(
        dir.to_path_buf(),
        args.threads,
        std::io::stderr().is_terminal(),
    );
    let diff = resume_differences(args, &settings, &r, (shard, games_file))?;
    if !diff.is_empty() {
        return Err(bad(format!(
            "the options given differ from the run in the directory: {}; resume without \
             them (the run's options are read from its manifest.json), or start a new run \
             in another --out",
            diff.join("; ")
        )));
    }
    Ok((settings, shard, games_file))
}

/// The options given with `--resume` that differ from the run's (`settings`, resolved as
/// `run`, with its shard and games file), each as `--option: X in the directory, Y given`.
///
/// # Errors
/// Bad input (exit 2) if the options given are themselves invalid (an unknown agent or
/// parameter): the error of resolving them.
fn resume_differences(
    args: &TournamentArgs,
    settings: &Settings,
    run: &tournament::ResolvedSettings,
    (shard, games_file): (Option<tournament::Shard>, tournament::GamesFile),
) -> Result<Vec<String>, CliError> {
    let mut diff = Vec::new();
    let mut note = |option: &str, was: String, given: String| {
        diff.push(format!("{option}: {was} in the directory, {given} given"));
    };
    if let Some(g) = args.game.as_deref().filter(|g| *g != run.game) {
        note("--game", run.game.clone(), g.to_string());
        return Ok(diff);
    }
    if let Some(s) = args.shard.filter(|s| Some(*s) != shard) {
        let was = shard.map_or("no shard".to_string(), |s| s.to_string());
        note("--shard", was, s.to_string());
    }
    if let Some(f) = args.games_file.filter(|f| *f != games_file) {
        note("--games-file", games_file.name().into(), f.name().into());
    }
    let flags = [
        ("--paired", args.paired, run.design.paired),
        ("--decisiveness", args.decisiveness, run.design.decisiveness),
    ];
    for (option, given, was) in flags {
        if given && !was {
            note(option, "off".into(), "on".into());
        }
    }
    let off = [
        ("--paired", args.no_paired, run.design.paired),
        (
            "--decisiveness",
            args.no_decisiveness,
            run.design.decisiveness,
        ),
    ];
    for (option, turned_off, was) in off {
        if turned_off && was {
            note(option, "on".into(), "off".into());
        }
    }
    // The options that are resolved (agents to canonical specs, variant settings to every
    // parameter): resolve the run's settings with the given ones in place and compare.
    let mut given = settings.clone();
    if !args.agents.is_empty() {
        given.agents = agent_specs(&args.agents);
    }
    if !args.variant.is_empty() {
        given.variant = args.variant.clone();
    }
    if let Some(p) = args.players {
        given.players = Some(p);
    }
    if let Some(n) = args.games {
        given.games = n;
    }
    if let Some(s) = args.seed {
        given.seed = s;
    }
    if let Some(q) = args.until_significant {
        given.design.until_significant = Some(q);
    }
    let resolved = tournament::validate(&given)?;
    if resolved.players != run.players {
        note(
            "--players",
            run.players.to_string(),
            resolved.players.to_string(),
        );
    }
    if resolved.agents != run.agents {
        note("--agents", run.agents.join(","), args.agents.join(","));
    }
    if resolved.variant != run.variant {
        let changed = |a: &[String], b: &[String]| -> String {
            let d: Vec<&str> = a
                .iter()
                .filter(|x| !b.contains(x))
                .map(String::as_str)
                .collect();
            if d.is_empty() {
                "(the same)".into()
            } else {
                d.join(" ")
            }
        };
        note(
            "--variant",
            changed(&run.variant, &resolved.variant),
            changed(&resolved.variant, &run.variant),
        );
    }
    if resolved.games != run.games {
        note("-n", run.games.to_string(), resolved.games.to_string());
    }
    if resolved.seed != run.seed {
        note("--seed", run.seed.to_string(), resolved.seed.to_string());
    }
    if resolved.design.until_significant != run.design.until_significant {
        let show = |q: Option<tournament::sequential::SequentialSpec>| {
            q.map_or("off".to_string(), |q| format!("'{q}'"))
        };
        note(
            "--until-significant",
            show(run.design.until_significant),
            args.until_significant
                .map_or("off".to_string(), |q| format!("'{q}'")),
        );
    }
    Ok(diff)
}

#[cfg(test)]
mod config_tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: TournamentArgs,
    }

    fn parse(argv: &[&str]) -> TournamentArgs {
        Cli::try_parse_from(std::iter::once("sim").chain(argv.iter().copied()))
            .unwrap()
            .args
    }

    /// `--config FILE` fills every option the command line left out; the command line
    /// overrides the file (a --variant key replaces the file's setting of that key), and
    /// the run plays the merged settings.
    #[test]
    fn a_config_file_gives_the_options_and_the_command_line_overrides_it() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("run.toml");
        let out = tmp.path().join("out");
        std::fs::write(
            &file,
            format!(
                "game = \"daxu\"\nagents = [\"greedy\", \"random\"]\ngames = 4\nseed = 3\n\
                 out = '{}'\nvariant = {{ komi = 1, rep_order = \"action_then_cards\" }}\n",
                out.display()
            ),
        )
        .unwrap();
        let f = file.to_str().unwrap();
        let a = with_config(
            &parse(&["--config", f, "--seed", "5", "--variant", "komi=2"]),
            &file,
        )
        .unwrap();
        assert_eq!(a.game.as_deref(), Some("daxu"));
        assert_eq!(a.agents, ["greedy", "random"]);
        assert_eq!((a.games, a.seed), (Some(4), Some(5)));
        assert_eq!(a.variant, ["rep_order=action_then_cards", "komi=2"]);
        run(&parse(&["--config", f, "--seed", "5"]), &mut Vec::new()).unwrap();
        let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
        assert_eq!(games.lines().count(), 1 + 4 * 2, "{games}");
        assert!(games.lines().nth(1).unwrap().starts_with("0,"), "{games}");

        // An unknown key: exit 2, naming the key, the closest valid one and the list.
        std::fs::write(&file, "game = \"daxu\"\ngmes = 4\n").unwrap();
        let e = with_config(&parse(&["--config", f]), &file).unwrap_err();
        let text = format!("{:#}", e.error);
        assert_eq!(e.code, CliError::bad_input(anyhow::anyhow!("x")).code);
        assert!(text.contains("unknown key 'gmes'"), "{text}");
        assert!(text.contains("did you mean 'games'?"), "{text}");
        // Without a game anywhere: exit 2.
        std::fs::write(&file, "agents = \"greedy,random\"\n").unwrap();
        let e = run(&parse(&["--config", f]), &mut Vec::new()).unwrap_err();
        assert!(format!("{:#}", e.error).contains("--game and --agents are required"));
    }

    /// A flag the file turns on stays on unless the command line turns it off with its
    /// `--no-` form; the last of `--X` and `--no-X` wins.
    #[test]
    fn the_command_line_turns_off_a_flag_the_config_file_turns_on() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("run.toml");
        std::fs::write(
            &file,
            "game = \"daxu\"\nagents = \"greedy,random\"\npaired = true\n\
             decisiveness = true\nfail_fast = true\n",
        )
        .unwrap();
        let f = file.to_str().unwrap();
        let on = with_config(&parse(&["--config", f]), &file).unwrap();
        assert!(on.paired && on.decisiveness && on.fail_fast);
        let off = with_config(
            &parse(&[
                "--config",
                f,
                "--no-paired",
                "--no-decisiveness",
                "--no-fail-fast",
            ]),
            &file,
        )
        .unwrap();
        assert!(!off.paired && !off.decisiveness && !off.fail_fast);
        let last = parse(&[
            "--game",
            "daxu",
            "--agents",
            "random",
            "--no-paired",
            "--paired",
        ]);
        assert!(last.paired && !last.no_paired);
        let last = parse(&[
            "--game",
            "daxu",
            "--agents",
            "random",
            "--paired",
            "--no-paired",
        ]);
        assert!(!last.paired && last.no_paired);
    }
}
