//! What a tournament is asked for and what it records about itself: the settings as typed
//! ([`Settings`], [`Design`], [`RunOptions`]), the errors ([`TournamentError`]), the
//! resolved settings and the rerun command ([`ResolvedSettings`]), and the contents of
//! `config.toml` ([`ConfigFile`], [`Labels`], [`Method`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::*;
use crate::agents::AgentError;
use crate::games::UnknownGame;
use crate::output::OutputError;
use crate::params::ParamError;

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
    /// ([`decisiveness`]); the game needs a running score ([`RunningScore::running_score`](crate::game::RunningScore::running_score)).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub decisiveness: bool,
}

/// How a run treats its output directory, and the hidden knobs of its progress saving.
/// Nothing here changes the results, except `shard`, which selects the games.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// Remove the files of another run in the directory first, instead of refusing
    /// ([`crate::output::OutputDir::claim`]).
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
    /// Stop the run when this many consecutive games of a block failed by an external
    /// agent's program ([`run::Control::ext_failures`]; 0: never); `None`:
    /// [`run::EXT_FAILURES`]. Never changes the results of a run that completes.
    pub ext_failures: Option<u64>,
    /// For a `nested` run that resumes: the version of the checksum chain that the
    /// enclosing run's manifest recorded from its start
    /// ([`crate::output::Manifest::chain_version`]), which the checkpoint must carry, as a
    /// whole run's own manifest requires; `None`: not recorded (a run begun by a version
    /// that did not record it), so the checkpoint gets its own format's checks.
    pub chain_version: Option<u32>,
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
    /// `threads` is above [`MAX_THREADS`].
    #[error(
        "--threads: at most {MAX_THREADS} worker threads, got {0} (more threads than cores \
         only slow a run down; the results never depend on the thread count)"
    )]
    TooManyThreads(usize),
    /// A setting given twice: an agent spec's key (`greedy:samples=4,samples=5`) or a
    /// `--variant` key. Refused rather than letting the last one win silently.
    #[error("{0}")]
    Repeated(String),
    /// The output directory is empty or not valid UTF-8 (it could not be recorded exactly
    /// in the rerun command).
    #[error("{0}")]
    BadOut(String),
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
    /// A write failed during the run (a full disk, an I/O error); the progress of the last
    /// checkpoint is kept for `--resume` (a failure of the run: exit 1).
    #[error("{cause}; {resume}")]
    Stopped {
        /// The failed write.
        cause: OutputError,
        /// What was kept and the command that continues the run.
        resume: String,
    },
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

/// The most worker threads a run may ask for (`--threads`): far above the cores of any
/// machine this runs on, and low enough that a typo (`--threads 100000`) is refused at once
/// instead of starting thousands of threads.
pub const MAX_THREADS: usize = 512;

/// The key of each `key=value` setting in `settings` that is given more than once, in
/// order of first repetition (a setting without `=` is left to the parser to refuse).
pub fn repeated_keys<S: AsRef<str>>(settings: &[S]) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut repeated: Vec<String> = Vec::new();
    for s in settings {
        let Some((k, _)) = s.as_ref().split_once('=') else {
            continue;
        };
        let k = k.trim();
        if seen.contains(&k) {
            if !repeated.iter().any(|r| r == k) {
                repeated.push(k.to_string());
            }
        } else {
            seen.push(k);
        }
    }
    repeated
}

pub(super) fn player_range(min: usize, max: usize) -> String {
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
                | TournamentError::TooManyThreads(_)
                | TournamentError::Repeated(_)
                | TournamentError::BadOut(_)
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
pub(super) fn reproducibility<S: AsRef<str>>(specs: &[S]) -> (bool, String) {
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
    /// GameState, Playable name.
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
    /// ([`crate::params::ParamSet::fingerprints`]): `variant` names the files, this says which contents
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
    pub(super) fn current(paired: bool) -> Self {
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
    pub(super) fn lineup_args(&self, command: &str) -> Vec<String> {
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
    pub(super) fn replay_command(&self, index: u64) -> String {
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
