//! The tournament runner: plays `n` games of one game between a lineup of agents, in
//! parallel, and writes tidy CSV plus summary statistics (DESIGN.md §1, §4, §7).
//!
//! # Reproducibility
//! Every game is a pure function of (master seed, game index, rule variant, player count,
//! lineup): game `g` draws its chance from `seed_for(seed, g, 0)` (with `--paired`,
//! `seed_for(seed, g / B, 0)`: [`paired`]) and the agent in seat `s`
//! from `seed_for(seed, g, 1 + s)` ([`crate::rng::seed_for`]); seats follow the balanced
//! schedule of [`plan`] ([`Lineup::seating`]). Games are played in
//! fixed-size chunks ([`run::CHUNK`]) and written in index order, so every output file is
//! byte-identical for any thread count. A single game can be replayed move by move with
//! `sim play --seed S --index g`.
//!
//! # Outputs
//! In the output directory ([`Settings::out`], created if needed), through one
//! [`OutputDir`] (every file written as `NAME.partial`, renamed when the whole run
//! succeeded, `config.toml` last, so a directory holding `config.toml` holds a complete,
//! consistent set; a failed run removes its partial files, a killed one leaves only
//! `*.partial` files):
//! - `games.csv`: one row per (game, seat), streamed as games finish ([`records`]); agents
//!   and the rule variant appear as short labels;
//! - `agents.csv`: `agent,spec`, each agent label with its canonical spec
//!   ([`records::agent_labels`]: the kind, `kind#n` when kinds repeat);
//! - `variants.csv`: `variant,parameter,value,default`, every rule parameter of the
//!   variant label ([`records::variant_label`]: `default` or `v` + 8 hex digits);
//! - `summary.csv`, `seats.csv`, `agent_seats.csv`: per agent, per seat and per (agent, seat)
//!   win rates with 95% Wilson intervals, draws, scores and margins, and per agent the mean
//!   rank and the rank distribution ([`summary`]; an agent's win rate counts games, not its
//!   seats); agents by label;
//! - `seat_test.csv`: a test of equal seats (exact binomial at 2 seats, chi-square at 3–4)
//!   with its p-value and a one-line verdict ([`summary::SeatTest`]);
//! - `metrics.csv`: mean, sd and 95% interval of the score and of every seat metric per
//!   agent and seat outcome (won, draw, lost), and of every game metric and the game length
//!   ([`metrics`]);
//! - `ends.csv`: each end condition's share of the games with its interval, and the mean
//!   length of those games ([`metrics`]);
//! - `labels.csv` (only for games that declare labels or flag metrics): win rates per value
//!   of each label column (a Daimyo clan, each Dunhuang character in play or used), per
//!   agent and for all agents pooled ([`summary`]);
//! - `paired.csv` (only with `--paired`, [`Design::paired`]): differences between agents
//!   and between seats paired over deals ([`paired`]);
//! - `sequential.csv` (only with `--until-significant`): how the sequential test stopped
//!   ([`sequential`]);
//! - `decisiveness.csv` and `lead_changes.csv` (only with `--decisiveness`,
//!   [`Design::decisiveness`]): how often the leader after each round, and after 10%..90%
//!   of the rounds, wins, and the games by number of lead changes ([`decisiveness`]);
//! - `config.toml`: the program version, the command that reruns the tournament, whether
//!   that rerun is exact (`reproducible`, false when an agent searches on a wall-clock
//!   budget, [`not_reproducible_because`]), the resolved settings (every rule parameter and
//!   every agent parameter spelled out) and the labels ([`ConfigFile`]).
//!
//! # Memory and speed
//! Statistics are accumulated incrementally ([`summary::Stats`]) and rows streamed, so memory
//! is flat in the number of games. A game record is a small `Copy` value and writing a row
//! allocates nothing.

pub mod checkpoint;
pub mod console;
pub mod decisiveness;
pub mod games_file;
pub mod merge;
pub mod metrics;
pub mod paired;
pub mod plan;
pub mod records;
pub mod run;
pub mod sequential;
pub mod shard;
pub mod summary;
pub mod tables;
pub mod tallies;

use std::collections::BTreeMap;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};

use crate::agents::AgentError;
use crate::game::{Game, RulesError};
use crate::games::UnknownGame;
use crate::output::{OutputDir, OutputError};
use crate::params::{ParamError, ParamSet};
use crate::stats::SprtDecision::Continue;
use std::sync::atomic::Ordering::Relaxed;
use tallies::{GroupColumn, StatsState};

pub use checkpoint::Checkpoint;
pub use games_file::{GamesFile, GamesWriter};
pub use plan::{Lineup, Schedule, split_agent_list};
pub use records::GameRecord;
pub use run::{Event, Failure, Plan, play_game, play_game_with};
pub use shard::Shard;
pub use summary::Stats;

/// What the user asks for, as typed (the CLI's `sim tournament` options). Resolved and
/// validated by [`run()`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Game name from the registry ([`crate::games::NAMES`]).
    pub game: String,
    /// Seats per game; `None` = the game's default.
    pub players: Option<usize>,
    /// Rule variant settings, `key=value` each.
    pub variant: Vec<String>,
    /// Agent specs (`kind` or `kind:key=value,...`), in lineup order.
    pub agents: Vec<String>,
    /// Number of games, at least 1.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads; `None` = all cores. Never changes the results.
    #[serde(skip)]
    pub threads: Option<usize>,
    /// Output directory.
    pub out: PathBuf,
    /// Draw a progress bar on stderr (the CLI sets this when stderr is a terminal).
    #[serde(skip)]
    pub progress: bool,
    /// The design: common random numbers over seating blocks (`--paired`) and sequential
    /// stopping (`--until-significant`).
    #[serde(flatten)]
    pub design: Design,
}

/// Options that change which games are played and how they are analysed: `--paired`
/// ([`paired`]) and `--until-significant` ([`sequential`]). The default is neither.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Design {
    /// Replay each deal under every seating of the block ([`paired`]); needs `games` a
    /// multiple of the seating block.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paired: bool,
    /// Stop early when a sequential test has answered its question ([`sequential`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_significant: Option<sequential::SequentialSpec>,
    /// Record the leader after every round: `decisiveness.csv` and `lead_changes.csv`
    /// ([`decisiveness`]); the game needs a running score ([`Game::running_score`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub decisiveness: bool,
}

/// How a run treats its output directory, and the hidden knobs of its progress saving.
/// Nothing here changes the results, except `shard`, which selects the games.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// Remove the files of another run in the directory first, instead of refusing
    /// ([`OutputDir::claim`]).
    pub overwrite: bool,
    /// Continue the unfinished run in the directory from its checkpoint.
    pub resume: bool,
    /// The directory belongs to an enclosing run (an experiment of kind `tournament`),
    /// which owns it through its own manifest.
    pub nested: bool,
    /// A stop request (the CLI passes [`crate::interrupt::REQUESTED`]): when set, the run
    /// saves its progress and ends with [`TournamentError::Interrupted`].
    pub stop: Option<&'static AtomicBool>,
    /// Stop at the first failed game (an error) instead of recording it in `errors.csv`.
    pub fail_fast: bool,
    /// Write a checkpoint every this many blocks of [`run::BLOCK`] games instead of every
    /// [`checkpoint::DEFAULT_SECONDS`] seconds (for tests; never changes the results).
    pub checkpoint_every: Option<u64>,
    /// Sleep this many milliseconds after handing over each block (for tests that
    /// interrupt a run at a predictable pace; never changes the results).
    pub throttle_ms: u64,
    /// Play only this shard of the games ([`shard`]); `None`: all of them.
    pub shard: Option<shard::Shard>,
    /// How to write the games: `games.csv`, `games.csv.gz` or not at all ([`games_file`]).
    pub games_file: GamesFile,
}

/// Why a tournament could not run.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The game name is not registered.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// An agent spec is bad (unknown kind or parameter, bad value).
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// A `--variant` setting is bad.
    #[error("--variant: {0}")]
    Variant(ParamError),
    /// `games` is 0.
    #[error("the number of games must be at least 1, got 0")]
    NoGames,
    /// `--paired` or `--until-significant` cannot be used with these settings.
    #[error("{0}")]
    Design(String),
    /// A `human` seat in a tournament or experiment.
    #[error(
        "agent '{0}': human seats play only in `sim play` (e.g. sim play --game G --agents \
         human,mcts); a tournament or experiment needs programs in every seat"
    )]
    HumanSeat(String),
    /// `threads` is 0.
    #[error("the number of threads must be at least 1, got 0")]
    NoThreads,
    /// More lineup entries than the runner supports.
    #[error("at most {max} agents per tournament, got {got}")]
    TooManyAgents {
        /// The limit ([`records::MAX_LINEUP`]).
        max: usize,
        /// The number given.
        got: usize,
    },
    /// The player count is outside the game's range.
    #[error("{game} is played by {}, got {got}", player_range(*min, *max))]
    Players {
        /// Game name.
        game: &'static str,
        /// Smallest count.
        min: usize,
        /// Largest count.
        max: usize,
        /// The requested count.
        got: usize,
    },
    /// An output file could not be written ([`OutputError::Dir`] is bad input: an unusable
    /// `--out`).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// A game misbehaved (a bug in a rules engine, not bad input).
    #[error("game {index}: {message}")]
    Game {
        /// Game index.
        index: u64,
        /// What went wrong.
        message: String,
    },
    /// The thread pool could not be built.
    #[error("cannot start the worker threads: {0}")]
    ThreadPool(#[from] rayon::ThreadPoolBuildError),
    /// Stopped on request (SIGINT, SIGTERM) after saving its progress.
    #[error("interrupted after {done} of {games} games; progress saved, resume with: {resume}")]
    Interrupted {
        /// Games done (of this run's range).
        done: u64,
        /// Games in the run's range.
        games: u64,
        /// The command that continues the run.
        resume: String,
    },
}

fn player_range(min: usize, max: usize) -> String {
    if min == max {
        format!("exactly {min} players")
    } else {
        format!("{min} to {max} players")
    }
}

impl TournamentError {
    /// Whether the error is the user's input (exit code 2) rather than a failure of the run.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            TournamentError::UnknownGame(_)
                | TournamentError::Agent(_)
                | TournamentError::Variant(_)
                | TournamentError::NoGames
                | TournamentError::Design(_)
                | TournamentError::HumanSeat(_)
                | TournamentError::NoThreads
                | TournamentError::TooManyAgents { .. }
                | TournamentError::Players { .. }
        ) || matches!(self, TournamentError::Output(e) if e.is_bad_input())
    }
}

/// The contents of `config.toml`: enough to rerun the tournament exactly, unless
/// `reproducible` is false.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigFile {
    /// `tabletop-sim`.
    pub program: String,
    /// The crate version that produced the files.
    pub version: String,
    /// A shell command that reruns the tournament (any `--threads` gives the same files).
    pub command: String,
    /// Whether rerunning `command` gives byte-identical files: false when an agent searches
    /// on a wall-clock budget ([`not_reproducible_because`]).
    pub reproducible: bool,
    /// Why the run is, or is not, reproducible.
    pub reproducibility: String,
    /// The resolved settings: the rule variant and agent specs with every parameter.
    pub tournament: ResolvedSettings,
    /// The short labels of `games.csv` and the other tables, with what they stand for.
    pub labels: Labels,
    /// How games, seeds and statistics are defined (for readers of the files).
    pub method: Method,
    /// For a shard of a run (`--shard i/n`): which shard and its games. Absent for a
    /// whole run (and for the merge of shards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::output::ShardInfo>,
    /// With `--until-significant`: how the run stopped (also `sequential.csv`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequential: Option<sequential::Outcome>,
}

/// The labels used in the CSV files ([`records::variant_label`], [`records::agent_labels`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Labels {
    /// The variant label (`default` or `v` + 8 hex digits); the settings are
    /// [`ResolvedSettings::variant`].
    pub variant: String,
    /// One entry per distinct agent, in order of first appearance in the lineup.
    pub agents: Vec<AgentLabel>,
}

/// One agent label and the canonical spec it stands for (a row of `agents.csv`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentLabel {
    /// The label (`greedy`, `mcts#2`).
    pub agent: String,
    /// The canonical spec with every parameter.
    pub spec: String,
}

impl Labels {
    /// The label of each distinct agent, in order.
    pub fn agent_labels(&self) -> Vec<String> {
        self.agents.iter().map(|a| a.agent.clone()).collect()
    }

    /// The label of canonical spec `spec`, if it is in the lineup.
    pub fn agent_label(&self, spec: &str) -> Option<&str> {
        self.agents
            .iter()
            .find(|a| a.spec == spec)
            .map(|a| a.agent.as_str())
    }
}

/// Why games with these agents (canonical specs) cannot be rerun exactly, or `None` if
/// they can. An agent with a wall-clock budget (`time_ms` > 0, the search agents' time
/// limit per decision) runs as many iterations as fit in the time, which depends on the
/// machine and its load, so a rerun plays different games.
pub fn not_reproducible_because<S: AsRef<str>>(specs: &[S]) -> Option<String> {
    let mut timed: Vec<String> = Vec::new();
    for s in specs {
        let Ok(parsed) = crate::agents::AgentSpec::parse(s.as_ref()) else {
            continue;
        };
        let budget = parsed
            .settings
            .iter()
            .find_map(|kv| kv.strip_prefix("time_ms="))
            .map(str::trim);
        if let Some(ms) = budget.filter(|ms| ms.parse::<u64>().map_or(true, |v| v > 0)) {
            let entry = format!("{} (time_ms={ms})", parsed.kind);
            if !timed.contains(&entry) {
                timed.push(entry);
            }
        }
    }
    (!timed.is_empty()).then(|| {
        format!(
            "not reproducible: {} {} on a wall-clock budget (time_ms > 0), so how many \
             iterations fit in a decision depends on the machine and its load, and a rerun \
             plays different games; use iters with time_ms=0 for reproducible results",
            timed.join(", "),
            if timed.len() == 1 {
                "searches"
            } else {
                "search"
            }
        )
    })
}

/// The `reproducible` and `reproducibility` fields of `config.toml` for these agents.
fn reproducibility<S: AsRef<str>>(specs: &[S]) -> (bool, String) {
    match not_reproducible_because(specs) {
        Some(why) => (false, why),
        None => (
            true,
            "every game is a pure function of (seed, game index, settings): rerunning \
             `command` gives byte-identical files for any --threads"
                .into(),
        ),
    }
}

/// The resolved settings of a tournament (every default made explicit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedSettings {
    /// Game name.
    pub game: String,
    /// Seats per game.
    pub players: usize,
    /// Every rule parameter, `key=value`, in declaration order.
    pub variant: Vec<String>,
    /// Canonical agent specs, in lineup order.
    pub agents: Vec<String>,
    /// Number of games.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Output directory, as given.
    pub out: String,
    /// The SHA-256 (hex) of each data-file rule parameter's content, by parameter
    /// ([`ParamSet::fingerprints`]): `variant` names the files, this says which contents
    /// produced the results. Omitted when the variant uses only built-in data.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub data_hashes: BTreeMap<String, String>,
    /// `--paired` and `--until-significant`, resolved (every option of the sequential
    /// test spelled out). Absent from the file when neither is used.
    #[serde(flatten)]
    pub design: Design,
}

impl ResolvedSettings {
    /// The settings a tournament's `manifest.json` records, with `out` replaced by `out`
    /// (`--resume`, `sim merge`).
    ///
    /// # Errors
    /// A message if the manifest holds another kind of run or no tournament settings.
    pub fn from_manifest(manifest: &crate::output::Manifest, out: &Path) -> Result<Self, String> {
        if manifest.kind != "tournament" {
            return Err(format!(
                "it holds a {} run, not a tournament (its command: {})",
                manifest.kind, manifest.command
            ));
        }
        let mut config = manifest.config.clone();
        if let Some(map) = config.as_object_mut() {
            map.insert(
                "out".into(),
                serde_json::Value::String(out.display().to_string()),
            );
        }
        serde_json::from_value(config)
            .map_err(|e| format!("its manifest.json has no tournament settings: {e}"))
    }

    /// The settings that run these again into `out`.
    pub fn into_settings(self, out: PathBuf, threads: Option<usize>, progress: bool) -> Settings {
        Settings {
            game: self.game,
            players: Some(self.players),
            variant: self.variant,
            agents: self.agents,
            games: self.games,
            seed: self.seed,
            threads,
            out,
            progress,
            design: self.design,
        }
    }
}

/// Fixed descriptions of the method, copied into every `config.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Method {
    /// The seat rotation rule.
    pub seat_rotation: String,
    /// The seed derivation.
    pub seeds: String,
    /// The generator.
    pub rng: String,
    /// Win, draw and margin definitions.
    pub outcomes: String,
    /// The interval.
    pub interval: String,
}

impl Method {
    fn current(paired: bool) -> Self {
        Method {
            seat_rotation: "k agent entries, p seats: every game is a most even seating \
                            (each entry holds floor(p/k) or ceil(p/k) seats); game g seats \
                            entry (a*u[s] + g mod k) mod k in seat s, where the multiplier a = \
                            1 + floor(g/k) mod (k-1) if k is prime and k >= p >= 2, else 1, \
                            and u cycles through the most even seatings with u[0] = 0 (and \
                            u[1] = 1 when a varies) in lexicographic order, the next one when \
                            a wraps; any k consecutive games from a multiple of k give every \
                            entry every seat once; every block of B games (B = k(k-1) if k is \
                            prime and k >= p >= 3, else the number of most even seatings; \
                            `sim tournament` prints it) gives every entry every seat and every \
                            ordered pair of entries every ordered pair of distinct seats \
                            equally often"
                .into(),
            seeds: if paired {
                "paired (common random numbers): game g plays deal d = floor(g / B), B the \
                 seating block, with chance from seed_for(seed, d, 0), so every deal is \
                 replayed under every seating of its block; agent in seat s from \
                 seed_for(seed, g, 1 + s)"
                    .into()
            } else {
                "game g: chance from seed_for(seed, g, 0); agent in seat s from \
                 seed_for(seed, g, 1 + s)"
                    .into()
            },
            rng: "PCG-64 MCG (rand_pcg::Pcg64Mcg)".into(),
            outcomes: "per seat: win = sole rank 1, draw = shared rank 1; per agent and game: \
                       win = the agent alone holds rank 1 (through any of its seats), draw = \
                       it shares rank 1 with another agent; margin = own score minus best \
                       other score; mean rank and rank shares per seat-game"
                .into(),
            interval: "95% Wilson score interval (Wilson 1927), z = 1.959964; the trials are \
                       games (an agent's several seats of one game count once)"
                .into(),
        }
    }
}

/// The result of a finished tournament.
#[derive(Debug, Clone)]
pub struct Report {
    /// The resolved settings.
    pub config: ConfigFile,
    /// The statistics (of the games that did not fail).
    pub stats: Stats,
    /// The games that failed, in index order (also in `errors.csv`).
    pub failures: Vec<run::Failure>,
    /// The game a resumed run continued from (`None`: it started from game 0).
    pub resumed_at: Option<u64>,
    /// The output directory.
    pub out: PathBuf,
    /// The files written, in the order they were completed (`config.toml` last).
    pub files: Vec<PathBuf>,
    /// Wall-clock time of the games (not in any file: it varies between runs).
    pub elapsed: Duration,
    /// Threads used.
    pub threads: usize,
}

/// Quotes `arg` for a POSIX shell if it needs it.
pub fn shell_quote(arg: &str) -> String {
    let safe = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
    if safe {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

impl ResolvedSettings {
    /// `sim COMMAND --game G --players P [--variant K=V]... --agents A,B`: the start of
    /// the commands that rerun these settings ([`ResolvedSettings::command`]) or replay one
    /// of their games (`errors.csv`).
    fn lineup_args(&self, command: &str) -> Vec<String> {
        let mut args: Vec<String> = vec![
            "sim".into(),
            command.into(),
            "--game".into(),
            self.game.clone(),
            "--players".into(),
            self.players.to_string(),
        ];
        for v in &self.variant {
            args.extend(["--variant".into(), v.clone()]);
        }
        args.extend(["--agents".into(), self.agents.join(",")]);
        args
    }

    /// The `sim tournament` command that reruns these settings.
    pub fn command(&self) -> String {
        let mut args = self.lineup_args("tournament");
        args.extend([
            "-n".into(),
            self.games.to_string(),
            "--seed".into(),
            self.seed.to_string(),
            "--out".into(),
            self.out.clone(),
        ]);
        if self.design.paired {
            args.push("--paired".into());
        }
        if let Some(spec) = &self.design.until_significant {
            args.push(format!("--until-significant={spec}"));
        }
        if self.design.decisiveness {
            args.push("--decisiveness".into());
        }
        shell_join(&args)
    }

    /// The `sim play` command that replays game `index` of these settings.
    fn replay_command(&self, index: u64) -> String {
        let mut args = self.lineup_args("play");
        args.extend([
            "--seed".into(),
            self.seed.to_string(),
            "--index".into(),
            index.to_string(),
        ]);
        if self.design.paired {
            args.push("--paired".into());
        }
        shell_join(&args)
    }
}

/// The arguments quoted for a POSIX shell ([`shell_quote`]) and joined by spaces.
pub fn shell_join(args: &[String]) -> String {
    args.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

impl<G: Game> Plan<G> {
    /// Resolves the game-level settings: player count (`None` = the game's default), rule
    /// variant (`key=value` settings) and agent specs.
    ///
    /// # Errors
    /// [`TournamentError::Players`], [`TournamentError::Variant`] or
    /// [`TournamentError::Agent`], naming the bad value and the valid choices.
    pub fn resolve<S: AsRef<str>>(
        players: Option<usize>,
        variant: &[S],
        agents: &[S],
        seed: u64,
    ) -> Result<Self, TournamentError> {
        let params = G::Params::from_settings(variant, &format!("game {}", G::NAME))
            .map_err(TournamentError::Variant)?;
        let players = players.unwrap_or(G::DEFAULT_PLAYERS);
        let rules = crate::game::rules::<G>(&params, players).map_err(|e| match e {
            RulesError::Players {
                game,
                min,
                max,
                got,
            } => TournamentError::Players {
                game,
                min,
                max,
                got,
            },
            RulesError::Param(p) => TournamentError::Variant(p),
        })?;
        if agents.len() > records::MAX_LINEUP {
            return Err(TournamentError::TooManyAgents {
                max: records::MAX_LINEUP,
                got: agents.len(),
            });
        }
        let lineup = Lineup::with_defaults(agents, players, G::AGENT_DEFAULTS)?;
        Ok(Plan {
            rules,
            lineup,
            seed,
            decisiveness: false,
        })
    }
}

/// A typed, validated tournament for game `G`.
#[derive(Debug, Clone)]
pub struct Tournament<G: Game> {
    /// Everything each game needs.
    pub plan: Plan<G>,
    /// Number of games.
    pub games: u64,
    /// With `--until-significant`: the sequential test.
    pub sequential: Option<sequential::Sequential>,
}

impl<G: Game> Tournament<G> {
    /// Resolves and validates `settings` for game `G` (the name in `settings.game` is not
    /// consulted).
    ///
    /// # Errors
    /// A bad-input [`TournamentError`] naming the bad value and the valid choices.
    pub fn resolve(settings: &Settings) -> Result<Self, TournamentError> {
        if settings.games == 0 {
            return Err(TournamentError::NoGames);
        }
        if settings.threads == Some(0) {
            return Err(TournamentError::NoThreads);
        }
        if let Some(h) = settings
            .agents
            .iter()
            .find(|s| crate::agents::AgentSpec::parse(s).is_ok_and(|a| a.kind == "human"))
        {
            return Err(TournamentError::HumanSeat(h.clone()));
        }
        let mut plan = Plan::resolve(
            settings.players,
            &settings.variant,
            &settings.agents,
            settings.seed,
        )?;
        let block = plan.lineup.block_len();
        if settings.design.paired {
            if settings.games % block != 0 {
                let fit = (settings.games / block).max(1) * block;
                return Err(TournamentError::Design(format!(
                    "--paired replays each deal under every seating of the block of {block} \
                     games, so the number of games must be a multiple of {block}, got {}; \
                     use {fit} or {}",
                    settings.games,
                    fit + block
                )));
            }
            plan.lineup.set_paired(true);
        }
        let sequential = match &settings.design.until_significant {
            Some(spec) => Some(
                sequential::Sequential::resolve(
                    spec,
                    plan.lineup.len(),
                    plan.lineup.distinct().len(),
                    plan.rules.players(),
                    block,
                )
                .map_err(|e| TournamentError::Design(format!("--until-significant: {e}")))?,
            ),
            None => None,
        };
        if settings.design.decisiveness {
            if !G::HAS_RUNNING_SCORE {
                let with: Vec<&str> = crate::games::NAMES
                    .iter()
                    .copied()
                    .filter(|n| crate::dispatch_game!(*n, H => H::HAS_RUNNING_SCORE) == Ok(true))
                    .collect();
                return Err(TournamentError::Design(format!(
                    "--decisiveness: {} has no running score to name a leader by; games with \
                     one: {}",
                    G::NAME,
                    with.join(", ")
                )));
            }
            plan.decisiveness = true;
        }
        Ok(Tournament {
            plan,
            games: settings.games,
            sequential,
        })
    }

    /// The labels of the variant and of the distinct agents.
    pub fn labels(&self) -> Labels {
        let distinct = self.plan.lineup.distinct();
        Labels {
            variant: records::variant_label(self.plan.rules.params()),
            agents: records::agent_labels(distinct)
                .into_iter()
                .zip(distinct)
                .map(|(agent, spec)| AgentLabel {
                    agent,
                    spec: spec.clone(),
                })
                .collect(),
        }
    }

    /// The resolved settings, for `config.toml`.
    pub fn resolved(&self, out: &Path) -> ResolvedSettings {
        ResolvedSettings {
            game: G::NAME.to_string(),
            players: self.plan.rules.players(),
            variant: self.plan.rules.variant(),
            agents: self.plan.lineup.entries().to_vec(),
            games: self.games,
            seed: self.plan.seed,
            out: out.display().to_string(),
            data_hashes: data_hashes(self.plan.rules.params()),
            design: Design {
                paired: self.plan.lineup.is_paired(),
                until_significant: self.sequential.as_ref().map(|s| s.spec),
                decisiveness: self.plan.decisiveness,
            },
        }
    }
}

/// The content hashes of `params`' data files, by parameter name.
fn data_hashes<P: ParamSet>(params: &P) -> BTreeMap<String, String> {
    params
        .fingerprints()
        .into_iter()
        .map(|(k, h)| (k.to_string(), h))
        .collect()
}

/// Checks `settings` without running anything: the game, players, variant, agents, games
/// and threads. Returns the resolved settings.
///
/// # Errors
/// As [`Tournament::resolve`], and [`TournamentError::UnknownGame`].
pub fn validate(settings: &Settings) -> Result<ResolvedSettings, TournamentError> {
    crate::dispatch_game!(settings.game.as_str(), G => {
        Tournament::<G>::resolve(settings).map(|t| t.resolved(&settings.out))
    })?
}

/// Runs the tournament described by `settings` on the game it names.
///
/// # Errors
/// Bad input ([`TournamentError::is_bad_input`]) is reported before anything is written;
/// later I/O errors leave no complete-looking file behind.
pub fn run(settings: &Settings) -> Result<Report, TournamentError> {
    run_with(settings, &RunOptions::default())
}

/// Runs the tournament described by `settings` on the game it names, treating the output
/// directory as `options` says.
///
/// # Errors
/// As [`run()`].
pub fn run_with(settings: &Settings, options: &RunOptions) -> Result<Report, TournamentError> {
    crate::dispatch_game!(settings.game.as_str(), G => run_game_with::<G>(settings, options))?
}

/// The manifest's record of a tournament: the kind, the rerun command and everything that
/// determines the files (the resolved settings without the output directory).
pub fn owner(config: &ConfigFile) -> crate::output::Owner {
    let mut value =
        serde_json::to_value(&config.tournament).expect("the settings serialize to JSON");
    if let Some(map) = value.as_object_mut() {
        map.remove("out");
    }
    crate::output::Owner::new("tournament", config.command.clone(), &value)
}

/// The header of `errors.csv`: one row per failed game, with the `sim play` command that
/// replays it.
pub const ERRORS_HEADER: [&str; 7] = [
    "game", "seed", "variant", "seats", "ply", "message", "replay",
];

/// The size of the writes to `games.csv`, in bytes.
const GAMES_WRITE_BYTES: usize = 1 << 18;

/// Runs the tournament for game `G` (see [`run()`]).
///
/// # Errors
/// As [`run()`].
pub fn run_game<G: Game>(settings: &Settings) -> Result<Report, TournamentError> {
    run_game_with::<G>(settings, &RunOptions::default())
}

/// A resolved tournament with everything needed to write its files: shared by the runner
/// and by [`merge`].
pub(crate) struct Prepared<G: Game> {
    /// The tournament.
    pub t: Tournament<G>,
    /// The contents of `config.toml`.
    pub config: ConfigFile,
    /// The label of each distinct agent.
    pub agent_labels: Vec<String>,
    /// The label of each lineup entry.
    pub entry_labels: Vec<String>,
    /// The `games.csv` row format.
    pub format: records::RowFormat,
    /// The game's metric and label columns.
    pub columns: records::Columns,
}

impl<G: Game> Prepared<G> {
    /// Resolves `settings` (for shard `shard`, if any).
    ///
    /// # Errors
    /// As [`Tournament::resolve`].
    pub fn new(settings: &Settings, shard: Option<shard::Shard>) -> Result<Self, TournamentError> {
        let t = Tournament::<G>::resolve(settings)?;
        if t.sequential.is_some() && shard.is_some() {
            return Err(TournamentError::Design(
                "--until-significant plays its games in order and stops at a check point, so \
                 it cannot be split with --shard; run it whole, or shard a run with a fixed -n"
                    .into(),
            ));
        }
        let resolved = t.resolved(&settings.out);
        let labels = t.labels();
        let (reproducible, reproducibility) = reproducibility(t.plan.lineup.distinct());
        let shard = shard.map(|s| s.info(t.games, t.plan.lineup.schedule().block_len()));
        let mut command = resolved.command();
        if let Some(s) = &shard {
            command.push_str(&format!(" --shard {}/{}", s.index, s.count));
        }
        let config = ConfigFile {
            program: env!("CARGO_PKG_NAME").into(),
            version: env!("CARGO_PKG_VERSION").into(),
            command,
            reproducible,
            reproducibility,
            tournament: resolved,
            labels,
            method: Method::current(t.plan.lineup.is_paired()),
            shard,
            sequential: None,
        };
        let agent_labels = config.labels.agent_labels();
        let lineup = &t.plan.lineup;
        let entry_labels: Vec<String> = (0..lineup.len())
            .map(|e| agent_labels[lineup.distinct_of(e)].clone())
            .collect();
        let columns = records::Columns::of::<G>();
        let format = records::RowFormat::new(&config.labels.variant, &entry_labels)
            .with_columns(columns.clone());
        Ok(Prepared {
            t,
            config,
            agent_labels,
            entry_labels,
            format,
            columns,
        })
    }

    /// The game range of the run: the shard's, or every game.
    pub fn range(&self) -> (u64, u64) {
        self.config
            .shard
            .map_or((0, self.t.games), |s| (s.start, s.end))
    }

    /// Empty statistics of the run's shape, agents named by their labels.
    pub fn stats(&self) -> Stats {
        let mut stats = Stats::new(&self.t.plan.lineup, self.t.plan.rules.players())
            .with_labels(GroupColumn::of::<G>().expect("the game's declarations are consistent"))
            .with_metrics(&self.columns.seat_metrics, &self.columns.game_metrics)
            .with_decisiveness(self.t.plan.decisiveness);
        // The statistics tables name agents by the same labels as games.csv.
        stats.agents = self.agent_labels.clone();
        stats
    }

    /// Writes `agents.csv` and `variants.csv`.
    ///
    /// # Errors
    /// The [`OutputError`] naming the file.
    pub fn write_label_files(&self, out: &mut OutputDir) -> Result<(), OutputError> {
        out.write_with("agents.csv", |w| {
            records::write_agents_csv(w, &self.agent_labels, self.t.plan.lineup.distinct())
        })?;
        out.write_with("variants.csv", |w| {
            records::write_variants_csv(w, &self.config.labels.variant, self.t.plan.rules.params())
        })
    }

    /// Writes `errors.csv`, the statistics files and `config.toml` (last).
    ///
    /// # Errors
    /// The [`OutputError`] naming the file.
    pub fn write_tables(
        &self,
        out: &mut OutputDir,
        stats: &Stats,
        failures: &[run::Failure],
    ) -> Result<(), OutputError> {
        let config = &self.config;
        let lineup_labels = |seats: &[u8]| -> String {
            seats
                .iter()
                .map(|&e| self.entry_labels[e as usize].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let replay = |f: &run::Failure| config.tournament.replay_command(f.game);
        out.write_with("errors.csv", |w| {
            let mut c = csv::Writer::from_writer(w);
            c.write_record(ERRORS_HEADER)?;
            for f in failures {
                c.write_record([
                    f.game.to_string(),
                    f.seed.to_string(),
                    config.labels.variant.clone(),
                    lineup_labels(&f.lineup),
                    f.ply.to_string(),
                    f.message.clone(),
                    replay(f),
                ])?;
            }
            c.flush()?;
            Ok(())
        })?;

        out.write_with("summary.csv", |w| {
            stats.write_summary_csv(w).map(drop).map_err(csv_to_io)
        })?;
        out.write_with("seats.csv", |w| {
            stats.write_seats_csv(w).map(drop).map_err(csv_to_io)
        })?;
        out.write_with("agent_seats.csv", |w| {
            stats.write_agent_seats_csv(w).map(drop).map_err(csv_to_io)
        })?;
        out.write_with("seat_test.csv", |w| {
            stats.write_seat_test_csv(w).map(drop).map_err(csv_to_io)
        })?;
        out.write_with("metrics.csv", |w| {
            stats.write_metrics_csv(w).map(drop).map_err(csv_to_io)
        })?;
        out.write_with("ends.csv", |w| {
            stats.write_ends_csv(w).map(drop).map_err(csv_to_io)
        })?;
        if let Some(p) = &stats.paired {
            let rows = p.rows(&stats.agents);
            out.write_with("paired.csv", |w| {
                crate::stats::paired::write_paired_csv(w, p, &rows)
                    .map(drop)
                    .map_err(csv_to_io)
            })?;
        }
        if let Some(d) = &stats.decisiveness {
            out.write_with("decisiveness.csv", |w| {
                d.write_decisiveness_csv(w).map(drop).map_err(csv_to_io)
            })?;
            out.write_with("lead_changes.csv", |w| {
                d.write_lead_changes_csv(w).map(drop).map_err(csv_to_io)
            })?;
        }
        if let Some(o) = &config.sequential {
            out.write_with("sequential.csv", |w| {
                o.write_csv(w).map(drop).map_err(csv_to_io)
            })?;
        }
        if stats.has_labels() {
            out.write_with("labels.csv", |w| {
                stats.write_labels_csv(w).map(drop).map_err(csv_to_io)
            })?;
        }
        let toml_text = toml::to_string(config).expect("the config serializes to TOML");
        let rerun = if config.reproducible {
            "Rerun with `command`; --threads never changes the results."
        } else {
            "NOT reproducible: see `reproducibility`."
        };
        out.write(
            "config.toml",
            format!(
                "# Written by {} {}. {rerun}\n{toml_text}",
                config.program, config.version
            )
            .as_bytes(),
        )
    }

    /// The final checkpoint of the run (what `sim merge` reads).
    pub fn final_checkpoint(
        &self,
        config_hash: &str,
        stats: &Stats,
        failures: &[run::Failure],
        games_bytes: u64,
    ) -> Checkpoint {
        let end = self.range().1;
        self.checkpoint(
            config_hash,
            stats.state(),
            failures,
            (end, games_bytes),
            true,
        )
    }

    /// A checkpoint of this run's range: the statistics and failures of the games before
    /// `next_game`, whose rows end at byte `games_bytes` of the games file.
    fn checkpoint(
        &self,
        config_hash: &str,
        stats: StatsState,
        failures: &[run::Failure],
        (next_game, games_bytes): (u64, u64),
        complete: bool,
    ) -> Checkpoint {
        Checkpoint {
            format: checkpoint::FORMAT.into(),
            config_hash: config_hash.to_string(),
            start: self.range().0,
            next_game,
            games_bytes,
            complete,
            stats,
            failures: failures.to_vec(),
        }
    }
}

/// Runs the tournament for game `G` (see [`run_with()`]).
///
/// # Errors
/// As [`run()`].
pub fn run_game_with<G: Game>(
    settings: &Settings,
    options: &RunOptions,
) -> Result<Report, TournamentError> {
    let mut prepared = Prepared::<G>::new(settings, options.shard)?;
    let mut sequential = prepared.t.sequential.clone();
    let t = &prepared.t;
    let config = &prepared.config;
    let format = &prepared.format;
    let (range_start, range_end) = prepared.range();

    let mut owner = owner(config);
    owner.shard = config.shard;
    owner.games_file = options.games_file.manifest_value();
    let config_hash = owner.config_hash();
    let dir = settings.out.as_path();
    if options.resume {
        if let Some(report) = finished_report::<G>(&prepared, dir, &config_hash)? {
            return Ok(report);
        }
    }
    let (mut out, saved) = if options.nested {
        let saved = if options.resume {
            Checkpoint::load(dir)?
        } else {
            None
        };
        (OutputDir::create(dir)?, saved)
    } else if options.resume {
        let (out, _) = OutputDir::resume(dir, &owner)?;
        (out, Checkpoint::load(dir)?)
    } else {
        (OutputDir::claim(dir, &owner, options.overwrite)?, None)
    };
    if let Some(cp) = &saved {
        if cp.config_hash != config_hash || cp.start != range_start || cp.next_game > range_end {
            return Err(OutputError::Resume {
                path: dir.to_path_buf(),
                reason: format!(
                    "{} belongs to another configuration or range of games",
                    checkpoint::FILE
                ),
            }
            .into());
        }
    }
    let games_name = options.games_file.file_name().unwrap_or("games.csv");
    let games_path = out.path(games_name);
    let write_err = |e: io::Error| TournamentError::from(OutputError::write(&games_path, e));
    // The first file: also the check that --out is writable, before any game is played.
    // Blocks of rows are a few KB; the file system takes large writes several times
    // faster per byte (measured: 1.1 GB/s in 4 KB writes, 3.9 GB/s in 64 KB ones).
    let (start, saved_bytes) = match &saved {
        Some(cp) => (cp.next_game, cp.games_bytes),
        None => (range_start, 0),
    };
    let file = match options.games_file.file_name() {
        Some(name) => Some(BufWriter::with_capacity(
            GAMES_WRITE_BYTES,
            if saved.is_some() {
                out.reopen_file(name, saved_bytes)?
            } else {
                out.create_file(name)?
            },
        )),
        None => None,
    };
    let mut games_file = GamesWriter::new(options.games_file, file, saved_bytes, start);
    if saved.is_none() || saved_bytes == 0 {
        games_file.header(&format.header()).map_err(write_err)?;
    }
    prepared.write_label_files(&mut out)?;
    let mut stats = prepared.stats();
    let mut failures: Vec<run::Failure> = Vec::new();
    if let Some(cp) = saved {
        stats
            .restore(cp.stats)
            .map_err(|reason| OutputError::Resume {
                path: dir.to_path_buf(),
                reason: format!("{}: {reason}", checkpoint::FILE),
            })?;
        failures = cp.failures;
    }

    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = settings.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build()?;
    let threads = pool.current_num_threads();
    let bar = settings
        .progress
        .then(|| progress_bar(range_end - range_start));

    if let Some(b) = &bar {
        b.set_position(start - range_start);
    }
    let started = Instant::now();
    let map = stats.cell_map().clone();
    let control = run::Control {
        start,
        end: range_end,
        stop: options.stop,
        fail_fast: options.fail_fast,
    };
    let save = |stats: StatsState, failures: &[run::Failure], next_game, games_bytes| {
        prepared
            .checkpoint(
                &config_hash,
                stats,
                failures,
                (next_game, games_bytes),
                false,
            )
            .save(dir)
    };
    // The last point where the games file can be cut (gz: a member boundary), for a stop
    // between two such points: (next game, statistics, failures, bytes).
    let mut cut = (start, stats.state(), failures.len(), games_file.bytes());
    let mut last_save = Instant::now();
    let mut blocks_since_save = 0u64;
    // --until-significant: the first check point at which the test decided (u64::MAX:
    // none yet). A resumed run repeats the check at its starting point, if it is one.
    let every = sequential.as_ref().map_or(u64::MAX, |q| q.every());
    let decided = std::sync::atomic::AtomicU64::new(u64::MAX);
    if let Some(q) = sequential.as_mut() {
        if start > range_start && start % every == 0 && q.check(&stats) != Continue {
            decided.store(start, Relaxed);
        }
    }
    let mut sink = |block: &run::Block| -> Result<(), TournamentError> {
        stats.absorb(block.games - block.failures.len() as u64, &block.tallies);
        stats.absorb_outcomes(&block.outcomes);
        stats.absorb_decisiveness(&block.decisiveness);
        games_file
            .rows(block.first, &block.rows)
            .map_err(write_err)?;
        failures.extend_from_slice(&block.failures);
        blocks_since_save += 1;
        if options.throttle_ms > 0 {
            std::thread::sleep(Duration::from_millis(options.throttle_ms));
        }
        let next = block.first + block.games;
        let can_cut = games_file.reached(next).map_err(write_err)?;
        if can_cut && options.games_file == GamesFile::Gz {
            cut = (next, stats.state(), failures.len(), games_file.bytes());
        }
        let due = match options.checkpoint_every {
            Some(k) => blocks_since_save >= k,
            None => last_save.elapsed().as_secs() >= checkpoint::DEFAULT_SECONDS,
        };
        if due && can_cut {
            games_file.flush().map_err(write_err)?;
            save(stats.state(), &failures, next, games_file.bytes())?;
            last_save = Instant::now();
            blocks_since_save = 0;
        }
        if let Some(q) = sequential.as_mut() {
            if (next % every == 0 || next == range_end) && q.check(&stats) != Continue {
                decided.store(next, Relaxed);
            }
        }
        Ok(())
    };
    // A sequential run plays segments that end at its check points, so that no game past
    // the deciding check point is played; any other run is one segment.
    let mut finish = run::Finish::Done;
    let mut seg_start = start;
    while seg_start < range_end && decided.load(Relaxed) == u64::MAX {
        let seg_end = if every == u64::MAX {
            range_end
        } else {
            ((seg_start / every + 1) * every).min(range_end)
        };
        let control = run::Control {
            start: seg_start,
            end: seg_end,
            ..control
        };
        finish = run::run_games(
            &t.plan,
            &control,
            &pool,
            (format, &map),
            bar.as_ref(),
            &mut sink,
        )?;
        if finish != run::Finish::Done {
            break;
        }
        seg_start = seg_end;
    }
    let stopped_at = match decided.load(Relaxed) {
        u64::MAX => range_end,
        at => at,
    };
    let elapsed = started.elapsed();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let run::Finish::Stopped { next } = finish {
        games_file.flush().map_err(write_err)?;
        if games_file.reached(next).map_err(write_err)? {
            save(stats.state(), &failures, next, games_file.bytes())?;
        } else {
            let (at, state, n_failures, bytes) = cut;
            save(state, &failures[..n_failures], at, bytes)?;
        }
        drop(games_file);
        out.interrupt()?;
        return Err(TournamentError::Interrupted {
            done: next - range_start,
            games: range_end - range_start,
            resume: format!(
                "sim tournament --resume {}",
                shell_quote(&dir.display().to_string())
            ),
        });
    }
    games_file.finish().map_err(write_err)?;
    let games_bytes = games_file.bytes();
    drop(games_file);
    if let Some(p) = &mut stats.paired {
        p.close();
    }
    if let Some(q) = &sequential {
        let outcome = q.outcome(
            &stats,
            &stats.agents,
            stopped_at - range_start,
            prepared.t.games,
        );
        prepared.config.sequential = Some(outcome);
    }
    prepared.write_tables(&mut out, &stats, &failures)?;
    prepared
        .checkpoint(
            &config_hash,
            stats.state(),
            &failures,
            (stopped_at, games_bytes),
            true,
        )
        .save(dir)?;
    let files = out.commit()?;
    Ok(Report {
        config: prepared.config.clone(),
        failures,
        resumed_at: (start > range_start).then_some(start),
        stats,
        out: settings.out.clone(),
        files,
        elapsed,
        threads,
    })
}

/// The report of the complete run of this configuration in `dir`, from its final
/// checkpoint, if there is one (a resume of a finished run, such as a finished pair of an
/// interrupted ladder, plays nothing and writes nothing).
///
/// # Errors
/// [`OutputError::Resume`] if the final checkpoint cannot be read.
fn finished_report<G: Game>(
    prepared: &Prepared<G>,
    dir: &Path,
    config_hash: &str,
) -> Result<Option<Report>, TournamentError> {
    let complete = match crate::output::read_manifest(dir) {
        Ok(Some(m)) => {
            m.state == crate::output::RunState::Complete
                && m.config_hash == config_hash
                && m.shard == prepared.config.shard
        }
        _ => false,
    };
    let cp = match Checkpoint::load(dir)? {
        Some(cp) if complete && cp.complete && cp.config_hash == config_hash => cp,
        _ => return Ok(None),
    };
    let mut stats = prepared.stats();
    stats
        .restore(cp.stats)
        .map_err(|reason| OutputError::Resume {
            path: dir.to_path_buf(),
            reason: format!("{}: {reason}", checkpoint::FILE),
        })?;
    Ok(Some(Report {
        config: prepared.config.clone(),
        stats,
        failures: cp.failures,
        resumed_at: Some(cp.next_game),
        out: dir.to_path_buf(),
        files: Vec::new(),
        elapsed: Duration::ZERO,
        threads: 0,
    }))
}

fn csv_to_io(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games  {rate}  ETA {eta}",
        )
        .expect("the progress template is valid")
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} games/s", state.per_sec());
            },
        )
        .progress_chars("=> "),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::Race;
    use std::fs;
    use std::io::Write;

    fn settings(dir: &Path, agents: &[&str], games: u64, threads: usize) -> Settings {
        Settings {
            game: "race".into(),
            players: Some(3),
            variant: vec!["rounds=5".into()],
            agents: agents.iter().map(|s| s.to_string()).collect(),
            games,
            seed: 42,
            threads: Some(threads),
            out: dir.to_path_buf(),
            progress: false,
            design: Design::default(),
        }
    }

    const FILES: [&str; 11] = [
        "games.csv",
        "agents.csv",
        "variants.csv",
        "errors.csv",
        "summary.csv",
        "seats.csv",
        "agent_seats.csv",
        "seat_test.csv",
        "metrics.csv",
        "ends.csv",
        "config.toml",
    ];

    fn read_all(dir: &Path) -> Vec<Vec<u8>> {
        FILES
            .iter()
            .map(|f| fs::read(dir.join(f)).unwrap())
            .collect()
    }

    #[test]
    fn outputs_do_not_depend_on_the_thread_count() {
        let tmp = tempfile::tempdir().unwrap();
        // More than one chunk, not a multiple of it, so chunk boundaries are exercised.
        let n = run::CHUNK * 2 + 37;
        let mut outs = Vec::new();
        for threads in [1, 2, 3] {
            let dir = tmp.path().join("out");
            let rep = run_game::<Race>(&settings(&dir, &["greedy", "random"], n, threads)).unwrap();
            assert_eq!(rep.threads, threads);
            assert_eq!(rep.files.len(), FILES.len());
            assert!(rep.files.last().unwrap().ends_with("config.toml"));
            outs.push(read_all(&dir));
            fs::remove_dir_all(&dir).unwrap();
        }
        assert!(outs[0] == outs[1] && outs[1] == outs[2]);
        let games = String::from_utf8(outs[0][0].clone()).unwrap();
        assert_eq!(games.lines().count() as u64, 1 + 3 * n);
        // Rows are in game order.
        let idx: Vec<u64> = games
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().parse().unwrap())
            .collect();
        assert!(idx.windows(2).all(|w| w[0] <= w[1]) && idx[idx.len() - 1] == n - 1);
    }

    #[test]
    fn a_different_seed_gives_different_games() {
        let tmp = tempfile::tempdir().unwrap();
        let mut s = settings(tmp.path(), &["random"], 50, 1);
        run_game::<Race>(&s).unwrap();
        let a = fs::read(tmp.path().join("games.csv")).unwrap();
        s.seed = 43;
        // Another configuration in the same directory: refused, then replaced on request.
        let e = run_game::<Race>(&s).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("seed: 42 in the directory, 43 now"),
            "{e}"
        );
        let overwrite = RunOptions {
            overwrite: true,
            ..RunOptions::default()
        };
        run_game_with::<Race>(&s, &overwrite).unwrap();
        let b = fs::read(tmp.path().join("games.csv")).unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn seats_are_balanced_and_stats_add_up() {
        let tmp = tempfile::tempdir().unwrap();
        // k = 2 agents at 3 seats: the lineup cycles within a game.
        let rep = run_game::<Race>(&settings(tmp.path(), &["greedy", "random"], 600, 2)).unwrap();
        let st = &rep.stats;
        assert_eq!(st.games, 600);
        for a in 0..2 {
            for s in 0..3 {
                assert_eq!(st.agent_seat(a, s).games, 300, "agent {a} seat {s}");
            }
        }
        let (by_agent, by_seat) = (st.by_agent(), st.by_seat());
        for t in &by_agent {
            // Both agents sit at every game, holding 3 seats between them.
            assert_eq!((t.games, t.wins + t.draws + t.losses()), (600, 600));
            assert_eq!(t.expected_win_rate(3), 0.5);
        }
        assert_eq!(by_agent[0].seats.games + by_agent[1].seats.games, 1800);
        for t in &by_seat {
            assert_eq!(t.wins + t.draws + t.losses(), t.games);
        }
        // One sole winner or a shared first place per game.
        let wins: u64 = by_seat.iter().map(|t| t.wins).sum();
        assert!(wins <= 600 && wins > 300);
        // Greedy (maximises its lead) beats random in this race.
        assert!(by_agent[0].win_rate() > by_agent[1].win_rate() + 0.1);
        // Seat 0 leads first and gets a bonus move more often than seat 2 over 5 rounds.
        assert!(by_seat[0].score.mean() > by_seat[2].score.mean());
        // games.csv agrees with the statistics: an agent wins a game when it alone holds
        // rank 1 (through one or both of its seats).
        let text = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
        let mut first = vec![[false; 2]; 600];
        for l in text.lines().skip(1) {
            let f: Vec<&str> = l.split(',').collect();
            if f[6] == "1" {
                first[f[0].parse::<usize>().unwrap()][usize::from(f[4] == "random")] = true;
            }
        }
        for (a, t) in by_agent.iter().enumerate() {
            let wins = first.iter().filter(|f| f[a] && !f[1 - a]).count() as u64;
            let draws = first.iter().filter(|f| f[0] && f[1]).count() as u64;
            assert_eq!((t.wins, t.draws), (wins, draws), "agent {a}");
        }
    }

    #[test]
    fn config_reruns_the_same_tournament() {
        let tmp = tempfile::tempdir().unwrap();
        let rep = run_game::<Race>(&settings(
            tmp.path(),
            &["greedy:samples=2", "random"],
            10,
            1,
        ))
        .unwrap();
        let text = fs::read_to_string(tmp.path().join("config.toml")).unwrap();
        let back: ConfigFile = toml::from_str(&text).unwrap();
        assert_eq!(back, rep.config);
        assert_eq!(
            back.tournament.variant,
            ["rounds=5", "claimed_bound=0", "duel_bonus=false"]
        );
        assert_eq!(back.tournament.agents, ["greedy:samples=2", "random"]);
        assert!(
            back.command.starts_with(
                "sim tournament --game race --players 3 --variant rounds=5 \
                 --variant claimed_bound=0 --variant duel_bonus=false --agents greedy:samples=2,random -n 10 --seed 42 --out "
            ),
            "{}",
            back.command
        );
        // The command's agent list splits back into the same specs.
        assert_eq!(
            split_agent_list(&back.tournament.agents.join(",")),
            back.tournament.agents
        );
        assert!(back.reproducible, "{}", back.reproducibility);
        assert!(text.contains("# Written by tabletop-sim") && text.contains("Rerun with"));
        // The labels of games.csv resolve through agents.csv and variants.csv, which agree
        // with config.toml.
        assert_eq!(back.labels.variant, "v87c36dfd");
        assert_eq!(back.labels.agent_labels(), ["greedy", "random"]);
        let agents = fs::read_to_string(tmp.path().join("agents.csv")).unwrap();
        assert_eq!(
            agents,
            "agent,spec\ngreedy,greedy:samples=2\nrandom,random\n"
        );
        let variants = fs::read_to_string(tmp.path().join("variants.csv")).unwrap();
        assert_eq!(
            variants,
            "variant,parameter,value,default\n\
             v87c36dfd,rounds,5,4\n\
             v87c36dfd,claimed_bound,0,0\n\
             v87c36dfd,duel_bonus,false,false\n"
        );
        let games = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
        for row in games.lines().skip(1) {
            let f: Vec<&str> = row.split(',').collect();
            assert_eq!(f[2], "v87c36dfd", "{row}");
            assert!(["greedy", "random"].contains(&f[4]), "{row}");
        }
    }

    #[test]
    fn a_time_budget_makes_a_run_not_reproducible() {
        assert_eq!(
            not_reproducible_because(&["greedy:samples=4", "random", "mcts:iters=5,time_ms=0"]),
            None
        );
        let why = not_reproducible_because(&[
            "mcts:iters=5,time_ms=20,c=1",
            "random",
            "ismcts:iters=5,time_ms=7",
        ])
        .unwrap();
        assert!(
            why.contains("mcts (time_ms=20), ismcts (time_ms=7)")
                && why.contains("not reproducible"),
            "{why}"
        );
        let (ok, text) = reproducibility(&["mcts:time_ms=1"]);
        assert!(!ok && text.contains("time_ms=1"), "{text}");
    }

    #[test]
    fn config_records_data_file_hashes_only_when_there_are_some() {
        crate::param_set! {
            /// A variant with a data file.
            struct WithData {
                /// Cards.
                cards: crate::params::DataFile = crate::params::DataFile::BUILTIN,
            }
        }
        let tmp = tempfile::tempdir().unwrap();
        let rep = run_game::<Race>(&settings(tmp.path(), &["random"], 2, 1)).unwrap();
        assert!(rep.config.tournament.data_hashes.is_empty());
        let text = fs::read_to_string(tmp.path().join("config.toml")).unwrap();
        assert!(!text.contains("data_hashes"), "{text}");
        assert!(data_hashes(&WithData::default()).is_empty());

        let file = tmp.path().join("cards.toml");
        fs::write(&file, "a = 1\n").unwrap();
        let p = WithData::from_settings(&[format!("cards={}", file.display())], "t").unwrap();
        let sha = "cb78bd8a17f7b751fe0d4663366dcbc257204033ef7ddd64b1f2969573b5b2e2";
        let mut config = rep.config;
        config.tournament.data_hashes = data_hashes(&p);
        assert_eq!(
            config.tournament.data_hashes,
            BTreeMap::from([("cards".to_string(), sha.to_string())])
        );
        let text = toml::to_string(&config).unwrap();
        assert!(
            text.contains(&format!("[tournament.data_hashes]\ncards = \"{sha}\"")),
            "{text}"
        );
        assert_eq!(toml::from_str::<ConfigFile>(&text).unwrap(), config);
    }

    #[test]
    fn bad_input_is_rejected_before_anything_is_written() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("never");
        let cases: Vec<(Settings, &str)> = vec![
            (settings(&dir, &["random"], 0, 1), "at least 1"),
            (settings(&dir, &["random"], 5, 0), "threads"),
            (settings(&dir, &["random", "minimax"], 5, 1), "minimax"),
            (
                Settings {
                    variant: vec!["laps=3".into()],
                    ..settings(&dir, &["random"], 5, 1)
                },
                "rounds (default 4)",
            ),
            (
                Settings {
                    variant: vec!["rounds=x".into()],
                    ..settings(&dir, &["random"], 5, 1)
                },
                "'x'",
            ),
            (
                Settings {
                    players: Some(5),
                    ..settings(&dir, &["random"], 5, 1)
                },
                "2 to 4 players, got 5",
            ),
            (
                // A variant that exists only at 2 players, asked for at 3.
                Settings {
                    variant: vec!["duel_bonus=true".into()],
                    ..settings(&dir, &["random"], 5, 1)
                },
                "duel_bonus=true exists only at 2 players, got 3",
            ),
        ];
        for (s, needle) in cases {
            let e = run_game::<Race>(&s).unwrap_err();
            assert!(e.is_bad_input(), "{e}");
            assert!(e.to_string().contains(needle), "{e} lacks {needle}");
        }
        assert!(!dir.exists());
        let e = run(&Settings {
            game: "chess".into(),
            ..settings(&dir, &["random"], 5, 1)
        })
        .unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("valid games: daimyo, daxu"),
            "{e}"
        );
    }

    #[test]
    fn game_metrics_are_games_csv_columns_with_their_documented_names() {
        use crate::game::Game;
        use crate::games::daxu;
        let tmp = tempfile::tempdir().unwrap();
        let s = Settings {
            game: "daxu".into(),
            players: None,
            variant: vec![],
            agents: vec!["random".into()],
            games: 20,
            seed: 3,
            threads: Some(1),
            out: tmp.path().to_path_buf(),
            progress: false,
            design: Design::default(),
        };
        run(&s).unwrap();
        let text = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let names: Vec<&str> = daxu::State::SEAT_METRICS
            .iter()
            .chain(daxu::State::GAME_METRICS)
            .map(|c| c.name)
            .collect();
        assert_eq!(&header[records::GAMES_HEADER.len()..], names.as_slice());
        assert!(names.starts_with(&["give", "take", "cooperate", "undermine"]));
        // Documented in the column dictionary.
        let dict = include_str!("../../results/README.md");
        for n in &names {
            assert!(dict.contains(&format!("`{n}`")), "{n} undocumented");
        }
        // The two seats of a game reveal the same number of action cards.
        for game in text.lines().skip(1).collect::<Vec<_>>().chunks(2) {
            let cards = |row: &str| -> i64 {
                row.split(',')
                    .skip(records::GAMES_HEADER.len())
                    .take(4)
                    .map(|x| x.parse::<i64>().unwrap())
                    .sum()
            };
            assert_eq!(cards(game[0]), cards(game[1]));
        }
    }

    #[test]
    fn an_unwritable_directory_is_bad_input() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("plain-file");
        fs::write(&file, "x").unwrap();
        let e = run_game::<Race>(&settings(&file.join("sub"), &["random"], 5, 1)).unwrap_err();
        assert!(
            matches!(e, TournamentError::Output(OutputError::Dir { .. })),
            "{e}"
        );
        assert!(e.is_bad_input());
    }

    /// Every file of a finished run, by name (manifest.json aside: it records the pid).
    fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name() != "manifest.json")
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    }

    /// Asserts two snapshots are equal, naming the files that differ (not dumping bytes).
    fn assert_same_files(got: &[(String, Vec<u8>)], want: &[(String, Vec<u8>)], what: &str) {
        let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(got), names(want), "{what}: file names");
        let differ: Vec<&String> = got
            .iter()
            .zip(want)
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, _)| &a.0)
            .collect();
        assert!(differ.is_empty(), "{what}: these files differ: {differ:?}");
    }

    #[test]
    fn a_paired_sequential_run_with_decisiveness_interrupted_mid_deal_resumes_to_byte_identical_files()
     {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        // 3 seats, 2 agents: deals of 6 games, which straddle the runner's blocks of 32, so
        // checkpoints fall inside deals. The test is looked at every 960 games (30 blocks)
        // and stops at a check point before n.
        let n = 6 * 700;
        let s = |threads| Settings {
            players: Some(3),
            design: Design {
                paired: true,
                until_significant: Some("every=960".parse().unwrap()),
                decisiveness: true,
            },
            ..settings(&dir, &["greedy", "random"], n, threads)
        };
        let rep = run_game::<Race>(&s(2)).unwrap();
        let expected = snapshot(&dir);
        let q = rep.config.sequential.clone().unwrap();
        assert!(q.games % 960 == 0 && q.games < n, "{q:?}");
        let p = rep.stats.paired.as_ref().unwrap();
        assert_eq!((p.deals(), p.deal_len()), (q.games / 6, 6));
        for f in ["paired.csv", "decisiveness.csv", "lead_changes.csv"] {
            assert!(expected.iter().any(|(g, _)| g == f), "{f}");
        }
        assert_eq!(rep.stats.decisiveness.as_ref().unwrap().games(), q.games);
        fs::remove_dir_all(&dir).unwrap();
        static STOP: AtomicBool = AtomicBool::new(false);
        for threads in [1, 2] {
            let opts = RunOptions {
                stop: Some(&STOP),
                checkpoint_every: Some(1),
                ..RunOptions::default()
            };
            STOP.store(true, std::sync::atomic::Ordering::SeqCst);
            let e = run_game_with::<Race>(&s(threads), &opts).unwrap_err();
            assert!(matches!(e, TournamentError::Interrupted { .. }), "{e}");
            STOP.store(false, std::sync::atomic::Ordering::SeqCst);
            // Stopped again after a few checkpoints (each mid-deal: 32 is not a multiple
            // of 6), then resumed to the end.
            let mut resume = RunOptions {
                resume: true,
                throttle_ms: 1,
                ..opts
            };
            let watcher = {
                let cp = dir.join(checkpoint::FILE);
                std::thread::spawn(move || {
                    let mut seen = 0;
                    let mut last = fs::read(&cp).unwrap_or_default();
                    while seen < 3 {
                        let now = fs::read(&cp).unwrap_or_default();
                        if now != last {
                            seen += 1;
                            last = now;
                        }
                        std::thread::yield_now();
                    }
                    STOP.store(true, std::sync::atomic::Ordering::SeqCst);
                })
            };
            let e = run_game_with::<Race>(&s(threads), &resume).unwrap_err();
            watcher.join().unwrap();
            assert!(matches!(e, TournamentError::Interrupted { .. }), "{e}");
            STOP.store(false, std::sync::atomic::Ordering::SeqCst);
            resume.throttle_ms = 0;
            let rep = run_game_with::<Race>(&s(threads), &resume).unwrap();
            assert_eq!(rep.config.sequential.as_ref().unwrap(), &q);
            assert_same_files(&snapshot(&dir), &expected, &format!("{threads} threads"));
            fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn an_interrupted_run_resumes_to_byte_identical_files() {
        let tmp = tempfile::tempdir().unwrap();
        // One path for every run: config.toml records it.
        let whole = tmp.path().join("run");
        let n = run::CHUNK + 300;
        let s = |dir: &Path, threads| Settings {
            players: Some(2),
            ..settings(dir, &["greedy", "random"], n, threads)
        };
        run_game::<Race>(&s(&whole, 2)).unwrap();
        let expected = snapshot(&whole);
        assert!(expected.iter().any(|(f, _)| f == checkpoint::FILE));
        fs::remove_dir_all(&whole).unwrap();
        for threads in [1, 2] {
            let dir = whole.clone();
            // Stopped before the first block, then mid-run once the first checkpoint exists.
            static STOP: AtomicBool = AtomicBool::new(false);
            STOP.store(true, std::sync::atomic::Ordering::SeqCst);
            let opts = RunOptions {
                stop: Some(&STOP),
                checkpoint_every: Some(1),
                ..RunOptions::default()
            };
            let e = run_game_with::<Race>(&s(&dir, threads), &opts).unwrap_err();
            assert!(
                matches!(e, TournamentError::Interrupted { done: 0, .. }),
                "{e}"
            );
            assert!(e.to_string().contains("sim tournament --resume"), "{e}");
            STOP.store(false, std::sync::atomic::Ordering::SeqCst);
            let watcher = {
                let cp = dir.join(checkpoint::FILE);
                let before = fs::read(&cp).unwrap();
                std::thread::spawn(move || {
                    while fs::read(&cp).map_or(true, |b| b == before) {
                        std::thread::yield_now();
                    }
                    STOP.store(true, std::sync::atomic::Ordering::SeqCst);
                })
            };
            let resume = RunOptions {
                resume: true,
                ..opts
            };
            let e = run_game_with::<Race>(&s(&dir, threads), &resume).unwrap_err();
            watcher.join().unwrap();
            let TournamentError::Interrupted { done, .. } = e else {
                panic!("{e}")
            };
            assert!(done > 0 && done < n, "{done}");
            let m = crate::output::read_manifest(&dir).unwrap().unwrap();
            assert_eq!(m.state, crate::output::RunState::Interrupted);
            assert!(!dir.join("summary.csv").exists() && dir.join("games.csv.partial").exists());
            // A kill after the checkpoint: rows past it in the partial file are cut away.
            let mut f = fs::OpenOptions::new()
                .append(true)
                .open(dir.join("games.csv.partial"))
                .unwrap();
            f.write_all(b"999999,half a row").unwrap();
            STOP.store(false, std::sync::atomic::Ordering::SeqCst);
            // Another configuration is refused, naming the field.
            let mut other = s(&dir, threads);
            other.seed = 5;
            let e = run_game_with::<Race>(&other, &resume).unwrap_err();
            assert!(
                e.is_bad_input() && e.to_string().contains("seed: 42 in the directory, 5 now"),
                "{e}"
            );
            let rep = run_game_with::<Race>(&s(&dir, threads), &resume).unwrap();
            assert_eq!(rep.stats.games, n);
            assert_same_files(&snapshot(&dir), &expected, &format!("{threads} threads"));
            fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn a_failing_game_is_recorded_and_excluded_or_fails_the_run_with_fail_fast() {
        let tmp = tempfile::tempdir().unwrap();
        for threads in [1, 2] {
            // Every game of this variant exceeds its ply bound (a bug in a game).
            let s = Settings {
                variant: vec!["claimed_bound=3".into()],
                ..settings(tmp.path(), &["random"], 40, threads)
            };
            let rep = run_game::<Race>(&s).unwrap();
            assert_eq!(rep.stats.games, 0);
            assert_eq!(rep.failures.len(), 40);
            assert_eq!(rep.failures[7].game, 7);
            assert_eq!(rep.failures[7].ply, 4, "the bound is checked after ply 4");
            let errors = fs::read_to_string(tmp.path().join("errors.csv")).unwrap();
            assert_eq!(errors.lines().count(), 41);
            assert!(
                errors.lines().nth(1).unwrap().contains(
                    "game exceeded its bound of 3 plies,sim play --game race --players 3"
                ),
                "{errors}"
            );
            let games = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
            assert_eq!(games.lines().count(), 1, "header only");
            let fail_fast = RunOptions {
                fail_fast: true,
                overwrite: true,
                ..RunOptions::default()
            };
            let e = run_game_with::<Race>(&s, &fail_fast).unwrap_err();
            assert!(!e.is_bad_input());
            assert!(
                e.to_string()
                    .contains("game 0: game exceeded its bound of 3 plies"),
                "{e}"
            );
            assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0);
        }
    }

    #[test]
    fn replaying_one_game_matches_the_tournament_row() {
        let tmp = tempfile::tempdir().unwrap();
        let s = settings(tmp.path(), &["greedy", "random"], 20, 2);
        let rep = run_game::<Race>(&s).unwrap();
        let t = Tournament::<Race>::resolve(&s).unwrap();
        let mut agents = run::build_agents::<Race>(&t.plan.lineup).unwrap();
        let mut plies = 0;
        let r = play_game(&t.plan, &mut agents, 13, |e| {
            if let Event::Ply { .. } = e {
                plies += 1
            }
        })
        .unwrap();
        assert_eq!(plies, r.plies);
        let text = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
        let row = text.lines().find(|l| l.starts_with("13,")).unwrap();
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[1], r.seed.to_string());
        assert_eq!(fields[5], r.scores[0].to_string());
        assert_eq!(rep.stats.games, 20);
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(
            shell_quote("greedy:samples=4,random"),
            "greedy:samples=4,random"
        );
        assert_eq!(shell_quote("out dir"), "'out dir'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
