//! Experiments: a TOML spec in `experiments/` that one command (`sim experiment FILE`)
//! turns into a results directory, so every committed result can be rerun exactly.
//!
//! Kinds:
//! - `tournament`: one [`crate::tournament`] run (`games` in total);
//! - `ladder`: a round robin: every pair of distinct agents plays a two-agent tournament of
//!   `games` games (seated by the balanced schedule of [`crate::tournament::plan`]; every
//!   pair uses the same `seed`, so the pairs meet the same deals), then a Bradley–Terry fit
//!   ([`crate::stats::ratings`]) puts all agents on one Elo scale with 95% intervals;
//! - `endgame` (Daxu only): the exploitability of each agent in exactly solved endgames
//!   ([`endgame`]).
//!
//! Spec fields (unknown fields are errors):
//!
//! | field | kinds | meaning |
//! |---|---|---|
//! | `name` | all | a label |
//! | `kind` | all | `tournament`, `ladder` or `endgame` |
//! | `game` | all | registry name |
//! | `variant` | all | rule settings `key=value` (default: none) |
//! | `players` | tournament, ladder | seats per game (default: the game's) |
//! | `agents` | all | agent specs or preset names |
//! | `games` | tournament, ladder | games in total / per pair |
//! | `seed` | all | master seed |
//! | `out` | all | results directory |
//! | `max_deck`, `positions`, `samples`, `sampler` | endgame | see [`endgame::EndgameSpec`] |
//! | `[sweep]` | tournament | factors to vary, each a list (below) |
//! | `paired` | tournament, ladder | `true`: common random numbers over seating blocks, paired intervals (`--paired`, [`crate::tournament::paired`]) |
//! | `[until_significant]` | tournament, ladder | stop early when Wald's SPRT decides (`--until-significant`, [`crate::tournament::sequential`]); keys `p0`, `p1`, `alpha`, `beta`, `every`, all optional (an empty table: every default) |
//! | `decisiveness` | tournament, ladder | `true`: the leader after every round, `decisiveness.csv` and `lead_changes.csv` (`--decisiveness`, [`crate::tournament::decisiveness`]) |
//! | `skill_check` | tournament (no `[sweep]`) | `true`: play the study again with every search agent at twice its budget, into `OUT-skill-check`, and say under each verdict whether it holds (`--skill-check`, [`skill_check`]) |
//!
//! **Relative paths** in `agents`, `sampler`, `variant` and `[sweep]` (a preset file, the
//! files named in an `ext` agent's `cmd=`, a `data=` setting) resolve from the spec's
//! folder, not the working directory ([`Spec::resolve_paths`]); `out` stays relative to
//! the working directory, like `--out`.
//!
//! **Sweeps.** A tournament spec with a `[sweep]` table runs one tournament per cell of
//! the cartesian product of its factors (taken in alphabetical order, the first varying
//! slowest). A factor is `players` (seat counts), `agents` (lineups, each a list of agent
//! specs) or any rule parameter of the game (its values, as typed after
//! `--variant key=`; a swept parameter replaces the spec's own `variant` setting). Every
//! cell uses the spec's `seed` and `games`, so cells differ only by the factors (common
//! random numbers where the factors allow). Every cell is validated before any game is
//! played; a bad cell is named (`sweep cell 004 (...)`). Outputs: each cell's tournament
//! files in `cells/NNN/`, and two tidy tables with a column per factor:
//! `sweep.csv` (`cell, <factors>, agent, spec, games, wins, draws, win_rate, ci_low,
//! ci_high, expected_win_rate, mean_score, mean_rank`, a row per cell and agent) and
//! `sweep_seats.csv` (`cell, <factors>, players, seat, games, wins, draws, win_rate,
//! ci_low, ci_high, expected_win_rate, seat_test, p_value`, a row per cell and seat, with
//! the cell's test of equal seats, see [`crate::stats::verdicts::SeatTest`]; no
//! separate `players` column when `players` is swept). A lineup is written with its specs
//! joined by ` vs `. Example:
//!
//! ```toml
//! name = "dunhuang-seats"
//! kind = "tournament"
//! game = "dunhuang"
//! agents = ["greedy"]
//! games = 20000
//! seed = 1
//! out = "results/dunhuang-seats"
//! [sweep]
//! players = [2, 3, 4]
//! ```
//!
//! Outputs: `tournament` writes the tournament files; `ladder` writes `ladder.csv`
//! (`agent,elo,ci_low,ci_high,games,score`), `pairs.csv`
//! (`agent_a,agent_b,games,a_wins,b_wins,draws,a_win_rate,ci_low,ci_high`) and one
//! tournament directory per pair under `pairs/`; `endgame` writes `endgame.csv`
//! (`agent,n,mean_loss,ci_low,ci_high,max_loss`) and `positions.csv`
//! (`position,deck,seat,agent,equilibrium,best_response,loss`); in these files `agent` is
//! the full canonical spec (in the tournament files under `pairs/` it is the short label
//! of that directory's `agents.csv`). Every kind writes
//! `experiment.toml`: the program version, the spec with every agent spelled out, the
//! command that reruns it, and whether a rerun is exact (`reproducible = false`, with the
//! reason, when an agent has a wall-clock budget `time_ms > 0`; also printed on stderr).
//! Files are written through one [`OutputDir`]: as `NAME.partial`, all created before the
//! first game (so an unusable `out` is reported at once) and renamed together when the
//! experiment succeeded, `experiment.toml` last.

pub mod endgame;
pub mod skill_check;

use std::fs;
use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::agents;
use crate::format::f6;
use crate::output::{OutputDir, OutputError};
use crate::params::ParamSet;
use crate::stats::ratings::{PairwiseResults, Rating};
use crate::stats::{Z95, wilson};
use crate::tournament::{self, Settings};

/// The kind of an experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// One tournament.
    Tournament,
    /// A round robin with Bradley–Terry ratings.
    Ladder,
    /// Daxu endgame exploitability.
    Endgame,
}

/// An experiment spec, as read from TOML (see the module docs for the fields).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// A label.
    pub name: String,
    /// What to run.
    pub kind: Kind,
    /// Game name.
    pub game: String,
    /// Rule settings, `key=value`.
    #[serde(default)]
    pub variant: Vec<String>,
    /// Seats per game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
    /// Agent specs or preset names.
    pub agents: Vec<String>,
    /// Games in total (tournament) or per pair (ladder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
    /// Master seed.
    pub seed: u64,
    /// Results directory.
    pub out: PathBuf,
    /// Endgame: largest deck at the sampled positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_deck: Option<u8>,
    /// Endgame: number of positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positions: Option<usize>,
    /// Endgame: `act` calls per node to estimate a policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<usize>,
    /// Endgame: the agent that plays games down to the endgame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampler: Option<String>,
    /// Tournament: factors to sweep, each a list of values (see the module docs): `players`
    /// (seat counts), `agents` (lineups, each a list of specs) or a rule parameter (its
    /// values, as typed after `--variant key=`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<toml::Table>,
    /// Tournament, ladder: replay each deal under every seating of the block (`--paired`,
    /// [`crate::tournament::paired`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paired: bool,
    /// Tournament, ladder: stop early when the sequential test has answered
    /// (`--until-significant`, [`crate::tournament::sequential`]): a table of its options
    /// (`p0`, `p1`, `alpha`, `beta`, `every`; `{}` for every default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_significant: Option<crate::tournament::sequential::SequentialSpec>,
    /// Tournament, ladder: record the leader after every round (`--decisiveness`,
    /// [`crate::tournament::decisiveness`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub decisiveness: bool,
    /// Tournament without a sweep: rerun the study with every search agent at twice its
    /// budget into `OUT-skill-check` and judge each verdict (`--skill-check`,
    /// [`skill_check`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skill_check: bool,
}

/// Why an experiment could not run.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// The spec file cannot be read.
    #[error("cannot read the experiment spec '{}': {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The spec is not valid TOML of the expected shape.
    #[error("invalid experiment spec '{}': {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong (unknown field, missing field, wrong type, with the valid kinds).
        message: String,
    },
    /// A field has a bad value.
    #[error("experiment spec: {0}")]
    Invalid(String),
    /// An agent spec is bad.
    #[error(transparent)]
    Agent(#[from] agents::AgentError),
    /// A tournament of the experiment failed.
    #[error(transparent)]
    Tournament(#[from] tournament::TournamentError),
    /// Writing results failed ([`OutputError::Dir`], an unusable `out`, is bad input).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// Stopped on request (SIGINT, SIGTERM) after saving the progress of its tournaments.
    #[error("interrupted; progress saved, resume with: {resume}")]
    Interrupted {
        /// The command that continues the experiment.
        resume: String,
    },
    /// A write failed during the run (a full disk, an I/O error): the progress of its
    /// tournaments' last checkpoints is kept and the experiment can be resumed (a failure
    /// of the run: exit 1).
    #[error(
        "{cause}; the progress of the experiment is kept; fix the cause (free disk space), \
         then resume with: {resume}"
    )]
    Stopped {
        /// The failed write.
        cause: OutputError,
        /// The command that continues the experiment.
        resume: String,
    },
}

impl ExperimentError {
    /// Whether the error is bad input (exit code 2) rather than a failed run.
    pub fn is_bad_input(&self) -> bool {
        match self {
            ExperimentError::Read { .. }
            | ExperimentError::Parse { .. }
            | ExperimentError::Invalid(_)
            | ExperimentError::Agent(_) => true,
            ExperimentError::Tournament(t) => t.is_bad_input(),
            ExperimentError::Output(o) => o.is_bad_input(),
            ExperimentError::Interrupted { .. } | ExperimentError::Stopped { .. } => false,
        }
    }
}

/// What an experiment produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The results directory.
    pub out: PathBuf,
    /// A human-readable summary table (empty when `already_complete`).
    pub summary: String,
    /// A `--resume` of an experiment that was already complete: nothing was played or
    /// written.
    pub already_complete: bool,
}

impl Kind {
    /// The files an experiment of this kind writes in its `out` directory, in the order
    /// they are committed (`experiment.toml` last). A `tournament` also writes the
    /// tournament files, through its own [`OutputDir`] in the same directory.
    pub fn files(self) -> &'static [&'static str] {
        match self {
            Kind::Tournament => &["experiment.toml"],
            Kind::Ladder => &["pairs.csv", "ladder.csv", "experiment.toml"],
            Kind::Endgame => &["positions.csv", "endgame.csv", "experiment.toml"],
        }
    }
}

impl Spec {
    /// Reads a spec file.
    ///
    /// # Errors
    /// [`ExperimentError::Read`] or [`ExperimentError::Parse`] naming the file.
    pub fn load(path: &Path) -> Result<Spec, ExperimentError> {
        let text = fs::read_to_string(path).map_err(|error| ExperimentError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        let mut spec: Spec = toml::from_str(&text).map_err(|e| ExperimentError::Parse {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        if let Some(base) = path.parent() {
            spec.resolve_paths(base);
        }
        Ok(spec)
    }

    /// Makes the spec's relative file paths resolve from `base`, the spec's folder, rather
    /// than from the working directory: an agent preset file (`agents/x.toml`, also with
    /// settings after `:`), the words of an `ext` agent's `cmd=` that name a file in
    /// `base` (the program itself only when it is written as a path, `./bot`), and the
    /// value of a `data=` rule setting (Daimyo's component file) in `variant` and
    /// `[sweep]`. `out` is not rewritten: like `--out`, it is relative to the working
    /// directory. The rewritten paths are `base` joined with the path as written, so a
    /// spec read as `experiments/x.toml` names `experiments/../agents/x.toml`.
    pub fn resolve_paths(&mut self, base: &Path) {
        if base.as_os_str().is_empty() {
            return;
        }
        let join = |p: &str| -> String {
            if Path::new(p).is_absolute() {
                p.to_string()
            } else {
                base.join(p).display().to_string()
            }
        };
        let agent = |text: &str| -> String {
            let (kind, rest) = match text.split_once(':') {
                Some((k, r)) => (k.trim(), Some(r)),
                None => (text.trim(), None),
            };
            let kind = if kind.ends_with(".toml") {
                join(kind)
            } else {
                kind.to_string()
            };
            let Some(rest) = rest else {
                return kind;
            };
            let settings: Vec<String> = rest
                .split(',')
                .map(|setting| {
                    let Some(cmd) = setting.trim().strip_prefix("cmd=") else {
                        return setting.to_string();
                    };
                    let Ok(words) = agents::ext::split_command(cmd) else {
                        return setting.to_string();
                    };
                    let words: Vec<String> = words
                        .iter()
                        .enumerate()
                        .map(|(i, w)| {
                            let path = Path::new(w);
                            let is_path = if i == 0 {
                                w.contains('/')
                            } else {
                                !w.starts_with('-')
                            };
                            let w = if is_path && !path.is_absolute() && base.join(path).is_file() {
                                join(w)
                            } else {
                                w.clone()
                            };
                            if w.contains(char::is_whitespace) {
                                format!("\"{w}\"")
                            } else {
                                w
                            }
                        })
                        .collect();
                    format!("cmd={}", words.join(" "))
                })
                .collect();
            format!("{kind}:{}", settings.join(","))
        };
        for a in &mut self.agents {
            *a = agent(a);
        }
        if let Some(s) = &mut self.sampler {
            *s = agent(s);
        }
        // A data file's path, resolved; `builtin` and empty stay as they are.
        let data_path =
            |val: &str| (!matches!(val.trim(), "" | "builtin")).then(|| join(val.trim()));
        let data = |v: &str| -> Option<String> {
            let (k, val) = v.split_once('=')?;
            (k.trim() == "data")
                .then(|| data_path(val).map(|p| format!("data={p}")))
                .flatten()
        };
        for v in &mut self.variant {
            if let Some(d) = data(v) {
                *v = d;
            }
        }
        if let Some(sweep) = &mut self.sweep {
            for (key, values) in sweep.iter_mut() {
                let Some(list) = values.as_array_mut() else {
                    continue;
                };
                for value in list.iter_mut() {
                    if key == "agents" {
                        if let Some(lineup) = value.as_array_mut() {
                            for a in lineup.iter_mut() {
                                if let Some(t) = a.as_str() {
                                    *a = toml::Value::String(agent(t));
                                }
                            }
                        }
                    } else if key == "data"
                        && let Some(p) = value.as_str().and_then(data_path)
                    {
                        *value = toml::Value::String(p);
                    }
                }
            }
        }
    }

    fn need<T: Copy>(&self, v: Option<T>, field: &str) -> Result<T, ExperimentError> {
        v.ok_or_else(|| {
            ExperimentError::Invalid(format!(
                "a {:?} experiment needs the field '{field}'",
                self.kind
            ))
        })
    }

    fn settings(
        &self,
        agents: Vec<String>,
        games: u64,
        out: PathBuf,
        threads: Option<usize>,
    ) -> Settings {
        Settings {
            game: self.game.clone(),
            players: self.players,
            variant: self.variant.clone(),
            agents,
            games,
            seed: self.seed,
            threads,
            out,
            progress: std::io::stderr().is_terminal(),
            design: tournament::Design {
                paired: self.paired,
                until_significant: self.until_significant,
                decisiveness: self.decisiveness,
            },
        }
    }
}

/// Runs the experiment of the spec file at `path`. `threads` never changes the results.
///
/// # Errors
/// Bad input ([`ExperimentError::is_bad_input`]) before anything is written; failures of
/// the runs or of writing results.
pub fn run(path: &Path, threads: Option<usize>) -> Result<Outcome, ExperimentError> {
    run_with(path, threads, &Options::default())
}

/// How an experiment treats its results directory.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Remove the files of another run in `out` first instead of refusing.
    pub overwrite: bool,
    /// Continue the interrupted experiment in `out`: finished tournaments (ladder pairs,
    /// sweep cells) are read back, an interrupted one resumes from its checkpoint, the
    /// rest are played.
    pub resume: bool,
    /// A stop request (the CLI passes [`crate::interrupt::REQUESTED`]).
    pub stop: Option<&'static std::sync::atomic::AtomicBool>,
    /// Testing: the tournaments' checkpoint interval in blocks
    /// ([`tournament::RunOptions::checkpoint_every`]).
    pub checkpoint_every: Option<u64>,
    /// Testing: the tournaments' pause after each block
    /// ([`tournament::RunOptions::throttle_ms`]).
    pub throttle_ms: u64,
}

/// Continues the interrupted (or killed) experiment in `dir` (see [`Options::resume`]),
/// from the spec recorded in its `manifest.json`, or from `spec` if given (which must
/// describe the same experiment: a difference is refused, naming the field).
///
/// # Errors
/// As [`run_with`]; [`OutputError::Resume`] (bad input) if `dir` holds no experiment.
pub fn resume(
    dir: &Path,
    spec: Option<&Path>,
    threads: Option<usize>,
    options: &Options,
) -> Result<Outcome, ExperimentError> {
    let options = Options {
        resume: true,
        ..options.clone()
    };
    if let Some(path) = spec {
        let mut s = Spec::load(path)?;
        if s.out != dir {
            return Err(ExperimentError::Invalid(format!(
                "the spec writes to '{}', not to the resumed directory '{}'",
                s.out.display(),
                dir.display()
            )));
        }
        s.out = dir.to_path_buf();
        return run_spec(s, &path.display().to_string(), threads, &options);
    }
    let bad = |reason: String| {
        ExperimentError::Output(OutputError::Resume {
            path: dir.to_path_buf(),
            reason,
        })
    };
    let m = crate::output::read_manifest(dir)
        .map_err(|e| bad(e.to_string()))?
        .ok_or_else(|| {
            bad(if dir.is_dir() {
                "it has no manifest.json: it holds no run that can be resumed".into()
            } else {
                "no such directory".into()
            })
        })?;
    if m.kind != "experiment" {
        return Err(bad(format!(
            "it holds a {} run, not an experiment (its command: {})",
            m.kind, m.command
        )));
    }
    let spec: Spec = serde_json::from_value(m.config.clone())
        .map_err(|e| bad(format!("its manifest.json holds no experiment spec: {e}")))?;
    let path = m
        .command
        .strip_prefix("sim experiment ")
        .unwrap_or(&m.command)
        .to_string();
    run_spec(spec, &path, threads, &options)
}

/// Runs the experiment of the spec file at `path` as [`run`] does, treating its results
/// directory as `options` says.
///
/// # Errors
/// As [`run`]; [`OutputError::Occupied`] (bad input) when `out` holds another run's files.
pub fn run_with(
    path: &Path,
    threads: Option<usize>,
    options: &Options,
) -> Result<Outcome, ExperimentError> {
    let spec = Spec::load(path)?;
    run_spec(spec, &path.display().to_string(), threads, options)
}

/// Runs `spec`, read from the file `path` (as the user named it: it goes into the rerun
/// command).
fn run_spec(
    spec: Spec,
    path: &str,
    threads: Option<usize>,
    options: &Options,
) -> Result<Outcome, ExperimentError> {
    if spec.agents.is_empty() {
        return Err(ExperimentError::Invalid("'agents' is empty".into()));
    }
    if spec.out.as_os_str().is_empty() {
        return Err(ExperimentError::Invalid(
            "'out' is empty: name the results directory (sim never writes into the working \
             directory by accident)"
                .into(),
        ));
    }
    if let Some(n) = threads.filter(|&n| n > tournament::MAX_THREADS) {
        return Err(tournament::TournamentError::TooManyThreads(n).into());
    }
    let canon: Vec<String> = spec
        .agents
        .iter()
        .map(|a| {
            agents::canonicalize_with(a, crate::games::agent_defaults(&spec.game).unwrap_or(&[]))
        })
        .collect::<Result<_, _>>()?;
    let mut resolved = spec.clone();
    if let Some(s) = &resolved.sampler {
        resolved.sampler = Some(agents::canonicalize(s)?);
    }
    let mut all_agents = canon.clone();
    all_agents.extend(resolved.sampler.clone());
    let why_not = tournament::not_reproducible_because(&all_agents);
    if let Some(why) = &why_not {
        eprintln!("warning: {why} (experiment.toml records reproducible = false)");
    }
    // Everything is validated before anything is written.
    if spec.skill_check && (spec.kind != Kind::Tournament || spec.sweep.is_some()) {
        return Err(ExperimentError::Invalid(
            "'skill_check' applies to a tournament without [sweep] only".into(),
        ));
    }
    let job = match spec.kind {
        Kind::Tournament if spec.sweep.is_some() => Job::Sweep(sweep_plan(&spec, threads)?),
        Kind::Tournament => {
            let games = spec.need(spec.games, "games")?;
            let settings = spec.settings(spec.agents.clone(), games, spec.out.clone(), threads);
            tournament::validate(&settings)?;
            let check = match skill_check::doubled_lineup(&canon) {
                Some(doubled) if spec.skill_check => {
                    let out = skill_check::check_dir(&spec.out);
                    let check = spec.settings(doubled, games, out, threads);
                    tournament::validate(&check)?;
                    Some(check)
                }
                _ => None,
            };
            Job::Tournament(Box::new((settings, check)))
        }
        Kind::Ladder => Job::Ladder(ladder_plan(&spec, &canon, threads)?),
        Kind::Endgame => Job::Endgame(endgame_spec(&spec)?),
    };
    // Then the directory is claimed and every file created, so an unusable or occupied
    // `out` fails before any game is played; experiment.toml is created last, so it is
    // renamed last.
    let mut owned = resolved.clone();
    owned.agents = canon.clone();
    let command = format!("sim experiment {path}");
    let mut owner = crate::output::Owner::new("experiment", command.clone(), &owned);
    // A tournament experiment's tournament writes its checkpoint into this directory, under
    // this manifest: record the chain version it writes, as a tournament's own manifest does.
    if matches!(job, Job::Tournament(_)) {
        owner.chain_version = Some(tournament::chain::VERSION);
    }
    if options.resume
        && let Ok(Some(m)) = crate::output::read_manifest(&spec.out)
        && m.state == crate::output::RunState::Complete
        && m.kind == owner.kind
        && m.config_hash == owner.config_hash()
    {
        return Ok(Outcome {
            out: spec.out.clone(),
            summary: String::new(),
            already_complete: true,
        });
    }
    // A resumed experiment keeps the chain version it began with (none if it began under a
    // version that did not record it).
    let (mut out, chain_version) = if options.resume {
        let (out, old) = OutputDir::resume(&spec.out, &owner)?;
        (out, old.chain_version)
    } else {
        (
            OutputDir::claim(&spec.out, &owner, options.overwrite)?,
            owner.chain_version,
        )
    };
    let files = match job {
        Job::Sweep(_) => SWEEP_FILES,
        _ => spec.kind.files(),
    };
    for name in files {
        out.create_file(name)?;
    }
    let summary = match job {
        Job::Tournament(job) => {
            let (settings, check) = *job;
            let nested = tournament::RunOptions {
                nested: true,
                resume: options.resume,
                chain_version,
                stop: options.stop,
                checkpoint_every: options.checkpoint_every,
                throttle_ms: options.throttle_ms,
                ..Default::default()
            };
            tournament::run_with(&settings, &nested)
                .map(|r| {
                    let sequential = r.config.sequential.as_ref().map_or(String::new(), |q| {
                        format!(
                            "Sequential test ({}): {}\n  {}\n\n",
                            q.method, q.question, q.reason
                        )
                    });
                    (sequential, r)
                })
                .map_err(ExperimentError::from)
                .and_then(|(sequential, r)| {
                    let c = match &check {
                        Some(c) => {
                            eprintln!(
                                "skill check: every search agent at twice its budget, in {}",
                                c.out.display()
                            );
                            Some(tournament::run_with(c, &sub_run(&c.out, options))?)
                        }
                        None => None,
                    };
                    Ok(sequential + &skill_check::summary(&r, c.as_ref(), spec.skill_check))
                })
        }
        Job::Sweep(plan) => run_sweep(plan, options, &mut out),
        Job::Ladder(plan) => run_ladder(&spec, plan, threads, options, &mut out),
        Job::Endgame(es) => run_endgame(es, threads, &mut out),
    };
    let resume = format!(
        "sim experiment --resume {}",
        tournament::shell_quote(&spec.out.display().to_string())
    );
    let summary = match summary {
        Err(ExperimentError::Tournament(tournament::TournamentError::Interrupted { .. })) => {
            out.interrupt()?;
            return Err(ExperimentError::Interrupted { resume });
        }
        // A write that failed while the games were played (a full disk): the tournament
        // kept its last checkpoint (a cell: its own directory, then `interrupted`; the
        // experiment's one tournament: its partial files), so the experiment keeps its
        // files too and is resumed as after an interruption, instead of failing and
        // removing them.
        Err(ExperimentError::Tournament(
            tournament::TournamentError::Stopped { cause, .. }
            | tournament::TournamentError::Output(cause @ OutputError::Write { .. }),
        )) => {
            // On a full disk this write may fail too: the manifest then still says
            // `running`, which a resume accepts as well.
            let _ = out.interrupt();
            return Err(ExperimentError::Stopped { cause, resume });
        }
        r => r?,
    };
    resolved.agents = canon;
    let record = ExperimentRecord {
        program: env!("CARGO_PKG_NAME").into(),
        version: env!("CARGO_PKG_VERSION").into(),
        command,
        reproducible: why_not.is_none(),
        reproducibility: why_not.unwrap_or_else(|| {
            "every result is a pure function of the spec: rerunning `command` gives \
             byte-identical files for any --threads"
                .into()
        }),
        experiment: resolved,
    };
    let text = toml::to_string(&record).map_err(|e| ExperimentError::Invalid(e.to_string()))?;
    out.write("experiment.toml", text.as_bytes())?;
    // The manifest records the SHA-256 of every file, the tournaments' under `cells/` and
    // `pairs/` included, which `sim verify DIR` checks.
    out.record_hashes();
    out.commit()?;
    Ok(Outcome {
        out: spec.out.clone(),
        summary,
        already_complete: false,
    })
}

/// The contents of `experiment.toml`.
#[derive(Debug, Clone, Serialize)]
struct ExperimentRecord {
    program: String,
    version: String,
    command: String,
    /// False when an agent searches on a wall-clock budget (`time_ms` > 0).
    reproducible: bool,
    reproducibility: String,
    experiment: Spec,
}

fn csv_bytes(header: &[&str], rows: Vec<Vec<String>>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).expect("in-memory CSV");
    for r in rows {
        w.write_record(&r).expect("in-memory CSV");
    }
    w.into_inner().expect("in-memory CSV")
}

/// A validated experiment, ready to run.
enum Job {
    /// The study and, with `skill_check`, its rerun at twice the budget.
    Tournament(Box<(Settings, Option<Settings>)>),
    Sweep(SweepPlan),
    Ladder(LadderPlan),
    Endgame(endgame::EndgameSpec),
}

/// The agents of a ladder: distinct canonical specs (the names) and the specs as given.
struct LadderPlan {
    games: u64,
    names: Vec<String>,
    specs: Vec<String>,
}

/// Checks a ladder: games, at least two distinct agents, every pair a valid tournament.
fn ladder_plan(
    spec: &Spec,
    canon: &[String],
    threads: Option<usize>,
) -> Result<LadderPlan, ExperimentError> {
    let games = spec.need(spec.games, "games")?;
    let mut names: Vec<String> = Vec::new();
    let mut specs: Vec<String> = Vec::new();
    for (a, c) in spec.agents.iter().zip(canon) {
        if !names.contains(c) {
            names.push(c.clone());
            specs.push(a.clone());
        }
    }
    if names.len() < 2 {
        return Err(ExperimentError::Invalid(
            "a ladder needs at least two distinct agents".into(),
        ));
    }
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            let s = spec.settings(
                vec![specs[i].clone(), specs[j].clone()],
                games,
                spec.out.clone(),
                threads,
            );
            tournament::validate(&s)?;
        }
    }
    Ok(LadderPlan {
        games,
        names,
        specs,
    })
}

fn run_ladder(
    spec: &Spec,
    plan: LadderPlan,
    threads: Option<usize>,
    options: &Options,
    out: &mut OutputDir,
) -> Result<String, ExperimentError> {
    let LadderPlan {
        games,
        names,
        specs,
    } = plan;
    let mut results = PairwiseResults::new(names.clone());
    let mut pair_rows = Vec::new();
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            let out = spec.out.join("pairs").join(format!("{i}-{j}"));
            let s = spec.settings(
                vec![specs[i].clone(), specs[j].clone()],
                games,
                out,
                threads,
            );
            let report = tournament::run_with(&s, &sub_run(&s.out, options))?;
            let by = report.stats.by_agent();
            let (a, b) = (&by[0], &by[1]);
            results.wins[i][j] += a.wins as f64 + 0.5 * a.draws as f64;
            results.wins[j][i] += b.wins as f64 + 0.5 * b.draws as f64;
            let (lo, hi) = wilson(a.wins, a.games, Z95);
            pair_rows.push(vec![
                names[i].clone(),
                names[j].clone(),
                a.games.to_string(),
                a.wins.to_string(),
                b.wins.to_string(),
                a.draws.to_string(),
                f6(a.win_rate()),
                f6(lo),
                f6(hi),
            ]);
            eprintln!(
                "pair {} vs {}: {:.4} [{lo:.4}, {hi:.4}] over {} games",
                names[i],
                names[j],
                a.win_rate(),
                a.games
            );
        }
    }
    let ratings = results.fit();
    out.write(
        "pairs.csv",
        &csv_bytes(
            &[
                "agent_a",
                "agent_b",
                "games",
                "a_wins",
                "b_wins",
                "draws",
                "a_win_rate",
                "ci_low",
                "ci_high",
            ],
            pair_rows,
        ),
    )?;
    out.write(
        "ladder.csv",
        &csv_bytes(
            &["agent", "elo", "ci_low", "ci_high", "games", "score"],
            ratings
                .iter()
                .map(|r| {
                    vec![
                        r.name.clone(),
                        format!("{:.1}", r.elo),
                        format!("{:.1}", r.ci_low),
                        format!("{:.1}", r.ci_high),
                        format!("{}", r.games),
                        f6(r.score),
                    ]
                })
                .collect(),
        ),
    )?;
    Ok(render_ladder(&ratings))
}

/// The options of a tournament in a subdirectory `dir` (`pairs/`, `cells/`) of an
/// experiment: the experiment owns the whole tree, so whatever is there is its own. When
/// the experiment resumes, a tournament that was started resumes too (a finished one is
/// read back), and one never started (or failed) is played from the start.
fn sub_run(dir: &Path, options: &Options) -> tournament::RunOptions {
    let started = matches!(
        crate::output::read_manifest(dir),
        Ok(Some(m)) if m.kind == "tournament" && m.state != crate::output::RunState::Failed
    );
    let resume = options.resume && started;
    tournament::RunOptions {
        overwrite: !resume,
        resume,
        stop: options.stop,
        checkpoint_every: options.checkpoint_every,
        throttle_ms: options.throttle_ms,
        ..Default::default()
    }
}

fn render_ladder(ratings: &[Rating]) -> String {
    let mut sorted: Vec<&Rating> = ratings.iter().collect();
    sorted.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    let w = sorted
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut s = format!(
        "Ladder (Bradley-Terry, Elo scale, first agent = 0; 95% intervals)\n{:<w$}  {:>8}  {:>19}  {:>7}  {:>6}\n",
        "agent", "elo", "95% CI", "games", "score"
    );
    for r in sorted {
        s.push_str(&format!(
            "{:<w$}  {:>8.1}  [{:>7.1}, {:>7.1}]  {:>7}  {:>6.3}\n",
            r.name, r.elo, r.ci_low, r.ci_high, r.games, r.score
        ));
    }
    s
}

/// Checks an endgame spec: Daxu, its variant, the required fields and the deck bound.
fn endgame_spec(spec: &Spec) -> Result<endgame::EndgameSpec, ExperimentError> {
    if spec.paired || spec.until_significant.is_some() || spec.decisiveness {
        return Err(ExperimentError::Invalid(
            "paired, until_significant and decisiveness are options of tournament and ladder \
             experiments; an endgame experiment plays no games"
                .into(),
        ));
    }
    if spec.game != "daxu" {
        return Err(ExperimentError::Invalid(format!(
            "endgame experiments exist for daxu only, got game '{}'",
            spec.game
        )));
    }
    let params = crate::games::daxu::Params::from_settings(&spec.variant, "game daxu")
        .map_err(|e| ExperimentError::Invalid(e.to_string()))?;
    let es = endgame::EndgameSpec {
        params,
        agents: spec.agents.clone(),
        max_deck: spec.need(spec.max_deck, "max_deck")?,
        positions: spec.need(spec.positions, "positions")?,
        samples: spec.need(spec.samples, "samples")?,
        sampler: spec.sampler.clone().unwrap_or_else(|| "random".into()),
        seed: spec.seed,
    };
    if es.max_deck > 6 {
        return Err(ExperimentError::Invalid(format!(
            "max_deck = {} is too large for exact solving; use at most 6",
            es.max_deck
        )));
    }
    Ok(es)
}

fn run_endgame(
    es: endgame::EndgameSpec,
    threads: Option<usize>,
    out: &mut OutputDir,
) -> Result<String, ExperimentError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| ExperimentError::Tournament(e.into()))?;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(es.positions as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {per_sec}, ETA {eta}")
                .expect("valid template"),
        )
    } else {
        ProgressBar::hidden()
    };
    let rows = pool.install(|| endgame::run(&es, &bar))?;
    bar.finish_and_clear();
    let summary = endgame::summarize(&rows);
    out.write(
        "positions.csv",
        &csv_bytes(
            &[
                "position",
                "deck",
                "seat",
                "agent",
                "equilibrium",
                "best_response",
                "loss",
            ],
            rows.iter()
                .map(|r| {
                    vec![
                        r.position.to_string(),
                        r.deck.to_string(),
                        r.seat.to_string(),
                        r.agent.clone(),
                        f6(r.equilibrium),
                        f6(r.best_response),
                        f6(r.loss),
                    ]
                })
                .collect(),
        ),
    )?;
    out.write(
        "endgame.csv",
        &csv_bytes(
            &["agent", "n", "mean_loss", "ci_low", "ci_high", "max_loss"],
            summary
                .iter()
                .map(|s| {
                    vec![
                        s.agent.clone(),
                        s.n.to_string(),
                        f6(s.mean_loss),
                        f6(s.ci_low),
                        f6(s.ci_high),
                        f6(s.max_loss),
                    ]
                })
                .collect(),
        ),
    )?;
    let w = summary
        .iter()
        .map(|s| s.agent.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!(
        "Endgame exploitability (win-probability loss against a best response; 95% CI)\n{:<w$}  {:>5}  {:>9}  {:>21}  {:>8}\n",
        "agent", "n", "mean loss", "95% CI", "max"
    );
    for s in &summary {
        out.push_str(&format!(
            "{:<w$}  {:>5}  {:>9.4}  [{:>8.4}, {:>8.4}]  {:>8.4}\n",
            s.agent, s.n, s.mean_loss, s.ci_low, s.ci_high, s.max_loss
        ));
    }
    Ok(out)
}

/// The files of a swept tournament experiment, besides one tournament directory per cell
/// under `cells/`.
pub const SWEEP_FILES: &[&str] = &["sweep.csv", "sweep_seats.csv", "experiment.toml"];

/// A validated sweep: the factor names and, per cell, its factor values and settings.
struct SweepPlan {
    factors: Vec<String>,
    cells: Vec<(Vec<String>, Settings)>,
}

/// One value of a sweep factor as text: strings as they are, numbers and booleans in TOML
/// form; for `agents`, the lineup's specs (an array, or one string split at `,`). In the
/// tables a lineup is written with its specs joined by ` vs `.
fn sweep_value(factor: &str, v: &toml::Value) -> Result<Vec<String>, ExperimentError> {
    let bad = || {
        ExperimentError::Invalid(format!(
            "sweep.{factor}: {v} is not a valid value (expected a string, a number or a \
             boolean; for agents, a list of agent specs)"
        ))
    };
    let one = |v: &toml::Value| match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        _ => Err(bad()),
    };
    match (factor, v) {
        ("agents", toml::Value::Array(a)) => a.iter().map(one).collect(),
        ("agents", toml::Value::String(s)) => Ok(vec![s.clone()]),
        ("agents", _) => Err(bad()),
        _ => Ok(vec![one(v)?]),
    }
}

/// Expands and validates the cells of a sweep (the cartesian product of the factors, the
/// first factor varying slowest); every cell is validated before anything runs.
fn sweep_plan(spec: &Spec, threads: Option<usize>) -> Result<SweepPlan, ExperimentError> {
    let games = spec.need(spec.games, "games")?;
    let table = spec.sweep.as_ref().expect("a sweep");
    if table.is_empty() {
        return Err(ExperimentError::Invalid("'sweep' is empty".into()));
    }
    let mut factors = Vec::new();
    let mut levels: Vec<Vec<Vec<String>>> = Vec::new();
    for (name, values) in table {
        let list = values.as_array().ok_or_else(|| {
            ExperimentError::Invalid(format!("sweep.{name} must be a list of values"))
        })?;
        if list.is_empty() {
            return Err(ExperimentError::Invalid(format!("sweep.{name} is empty")));
        }
        factors.push(name.clone());
        levels.push(
            list.iter()
                .map(|v| sweep_value(name, v))
                .collect::<Result<_, _>>()?,
        );
    }
    let total: usize = levels.iter().map(Vec::len).product();
    if total > 10_000 {
        return Err(ExperimentError::Invalid(format!(
            "the sweep has {total} cells; at most 10000"
        )));
    }
    let mut cells = Vec::with_capacity(total);
    for c in 0..total {
        let mut rest = c;
        let mut pick = vec![0; factors.len()];
        for f in (0..factors.len()).rev() {
            pick[f] = rest % levels[f].len();
            rest /= levels[f].len();
        }
        let out = spec.out.join("cells").join(format!("{c:03}"));
        let mut s = spec.settings(spec.agents.clone(), games, out, threads);
        let mut values = Vec::with_capacity(factors.len());
        for (f, name) in factors.iter().enumerate() {
            let v = &levels[f][pick[f]];
            match name.as_str() {
                "players" => {
                    let n = v[0].parse::<usize>().map_err(|_| {
                        ExperimentError::Invalid(format!(
                            "sweep.players: '{}' is not a player count",
                            v[0]
                        ))
                    })?;
                    s.players = Some(n);
                }
                "agents" => s.agents = v.clone(),
                key => {
                    let prefix = format!("{key}=");
                    s.variant.retain(|x| !x.starts_with(&prefix));
                    s.variant.push(format!("{key}={}", v[0]));
                }
            }
            values.push(v.join(if name == "agents" { " vs " } else { "," }));
        }
        tournament::validate(&s).map_err(|e| {
            ExperimentError::Invalid(format!("sweep cell {c:03} ({}): {e}", values.join(", ")))
        })?;
        cells.push((values, s));
    }
    Ok(SweepPlan { factors, cells })
}

/// Runs every cell of a sweep into `cells/NNN/` and writes `sweep.csv` (a row per cell and
/// agent) and `sweep_seats.csv` (a row per cell and seat, with the cell's test of equal
/// seats); returns a summary table.
fn run_sweep(
    plan: SweepPlan,
    options: &Options,
    out: &mut OutputDir,
) -> Result<String, ExperimentError> {
    let SweepPlan { factors, cells } = plan;
    let mut head: Vec<&str> = vec!["cell"];
    head.extend(factors.iter().map(String::as_str));
    let mut agent_head = head.clone();
    agent_head.extend([
        "agent",
        "spec",
        "games",
        "wins",
        "draws",
        "win_rate",
        "ci_low",
        "ci_high",
        "expected_win_rate",
        "mean_score",
        "mean_rank",
    ]);
    let mut seat_head = head.clone();
    let players_column = !factors.iter().any(|f| f == "players");
    if players_column {
        seat_head.push("players");
    }
    seat_head.extend(crate::tournament::tables::SEAT_FIELDS);
    seat_head.extend(["seat_test", "p_value"]);
    let (mut agent_rows, mut seat_rows, mut text_rows) = (Vec::new(), Vec::new(), Vec::new());
    for (c, (values, settings)) in cells.iter().enumerate() {
        eprintln!("sweep cell {c:03}/{}: {}", cells.len(), values.join(", "));
        let report = tournament::run_with(settings, &sub_run(&settings.out, options))?;
        let st = &report.stats;
        let mut lead = vec![format!("{c:03}")];
        lead.extend(values.iter().cloned());
        for (label, t) in report.config.labels.agents.iter().zip(st.by_agent()) {
            let (lo, hi) = t.interval();
            let mut row = lead.clone();
            row.extend([
                label.agent.clone(),
                label.spec.clone(),
                t.games.to_string(),
                t.wins.to_string(),
                t.draws.to_string(),
                f6(t.win_rate()),
                f6(lo),
                f6(hi),
                f6(t.expected_win_rate(st.players)),
                f6(t.seats.score.mean()),
                f6(t.seats.mean_rank()),
            ]);
            agent_rows.push(row);
            let mut text = lead.clone();
            text.extend([
                label.agent.clone(),
                format!("{:.4}", t.win_rate()),
                format!("[{lo:.4}, {hi:.4}]"),
            ]);
            text_rows.push(text);
        }
        let test = st.seat_test();
        for (seat, t) in st.by_seat().iter().enumerate() {
            let mut row = lead.clone();
            if players_column {
                row.push(st.players.to_string());
            }
            row.extend(st.seat_fields(seat, t));
            row.extend([test.method.to_string(), format!("{:e}", test.p_value)]);
            seat_rows.push(row);
        }
    }
    out.write("sweep.csv", &csv_bytes(&agent_head, agent_rows))?;
    out.write("sweep_seats.csv", &csv_bytes(&seat_head, seat_rows))?;
    let mut text_head = head.clone();
    text_head.extend(["agent", "win rate", "95% CI"]);
    Ok(crate::format::text_table(&text_head, &text_rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_file(dir: &Path, body: &str) -> PathBuf {
        let p = dir.join("spec.toml");
        fs::write(&p, body).unwrap();
        p
    }

    #[test]
    fn ladder_ranks_greedy_above_random_and_writes_its_files() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("ladder");
        let spec = spec_file(
            dir.path(),
            &format!(
                "name = \"t\"\nkind = \"ladder\"\ngame = \"daxu\"\nagents = [\"random\", \"greedy\", \"random\"]\n\
                 games = 400\nseed = 3\nout = \"{}\"\n",
                out.display()
            ),
        );
        let outcome = run(&spec, Some(2)).unwrap();
        assert!(outcome.summary.contains("greedy:samples=4"));
        let ladder = fs::read_to_string(out.join("ladder.csv")).unwrap();
        let rows: Vec<&str> = ladder.lines().collect();
        assert_eq!(rows.len(), 3, "duplicate agents are rated once: {ladder}");
        let greedy_lo: f64 = rows[2].split(',').nth(2).unwrap().parse().unwrap();
        assert!(
            greedy_lo > 0.0,
            "greedy's interval is above random's anchor: {ladder}"
        );
        let record = fs::read_to_string(out.join("experiment.toml")).unwrap();
        assert!(
            record.contains("command = \"sim experiment") && record.contains("greedy:samples=4")
        );
        assert!(out.join("pairs/0-1/summary.csv").exists());
    }

    #[test]
    fn sweeps_run_every_cell_into_one_tidy_table() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("sweep");
        let body = format!(
            "name = \"t\"\nkind = \"tournament\"\ngame = \"goofspiel\"\nagents = [\"random\"]\n\
             games = 60\nseed = 5\nout = \"{}\"\nvariant = [\"num_cards=4\"]\n\
             [sweep]\nplayers = [2, 3]\nnum_cards = [3, 5]\nagents = [[\"random\"], [\"greedy\", \"random\"]]\n",
            out.display()
        );
        let outcome = run(&spec_file(dir.path(), &body), Some(2)).unwrap();
        assert!(outcome.summary.contains("num_cards"), "{}", outcome.summary);
        let table = fs::read_to_string(out.join("sweep.csv")).unwrap();
        let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split(',').collect()).collect();
        assert_eq!(
            rows[0][..5],
            ["cell", "agents", "num_cards", "players", "agent"]
        );
        // 2 x 2 x 2 cells; one agent row in the random-only cells, two in the others.
        assert_eq!(rows.len(), 1 + 4 + 4 * 2, "{table}");
        // The first factor varies slowest: cells 0-3 are the random-only lineup.
        assert_eq!(&rows[1][..5], ["000", "random", "3", "2", "random"]);
        assert_eq!(&rows[2][..4], ["001", "random", "3", "3"]);
        assert_eq!(&rows[3][..4], ["002", "random", "5", "2"]);
        // A swept lineup keeps its order: cell 004 is greedy, random.
        assert_eq!(
            &rows[5][..5],
            ["004", "greedy vs random", "3", "2", "greedy"]
        );
        assert_eq!(rows[6][4], "random");
        // Every cell is a complete tournament with the swept settings.
        for c in 0..8 {
            let cell = out.join("cells").join(format!("{c:03}"));
            let config = fs::read_to_string(cell.join("config.toml")).unwrap();
            let cards = if c % 4 < 2 {
                "num_cards=3"
            } else {
                "num_cards=5"
            };
            assert!(
                config.contains(cards) && !config.contains("num_cards=4"),
                "{config}"
            );
            assert!(
                config.contains(&format!("players = {}", 2 + c % 2)),
                "{config}"
            );
        }
        let seats = fs::read_to_string(out.join("sweep_seats.csv")).unwrap();
        assert_eq!(seats.lines().count(), 1 + 4 * 2 + 4 * 3, "{seats}");
        assert!(
            fs::read_to_string(out.join("experiment.toml"))
                .unwrap()
                .contains("[experiment.sweep]")
        );
        // A bad cell is bad input before any game is played.
        let bad = body
            .replace("players = [2, 3]", "players = [2, 9]")
            .replace("sweep\"", "bad\"");
        let e = run(&spec_file(dir.path(), &bad), Some(1)).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("sweep cell 001"),
            "{e}"
        );
    }

    #[test]
    fn bad_specs_are_bad_input_naming_the_problem() {
        let dir = tempfile::tempdir().unwrap();
        let never = dir.path().join("never");
        let base = format!(
            "name = \"t\"\ngame = \"daxu\"\nagents = [\"random\", \"greedy\"]\nseed = 1\nout = \"{}\"\n",
            never.display()
        );
        let cases = [
            (format!("{base}kind = \"league\"\n"), "league"),
            (format!("{base}kind = \"ladder\"\ncolour = 1\n"), "colour"),
            (format!("{base}kind = \"ladder\"\n"), "games"),
            (format!("{base}kind = \"endgame\"\n"), "max_deck"),
            (
                format!("{base}kind = \"ladder\"\ngames = 2\nvariant = [\"deck=x\"]\n"),
                "deck",
            ),
            (
                format!("{base}kind = \"endgame\"\nmax_deck = 9\npositions = 1\nsamples = 1\n"),
                "max_deck = 9",
            ),
        ];
        for (body, needle) in cases {
            let e = run(&spec_file(dir.path(), &body), Some(1)).unwrap_err();
            assert!(e.is_bad_input(), "{e}");
            assert!(e.to_string().contains(needle), "{needle}: {e}");
        }
        let e = run(&dir.path().join("missing.toml"), None).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("missing.toml"),
            "{e}"
        );
        let plain = dir.path().join("plain-file");
        fs::write(&plain, "x").unwrap();
        let unwritable = format!(
            "{}kind = \"ladder\"\ngames = 2\n",
            base.replace(
                &never.display().to_string(),
                &format!("{}/sub", plain.display())
            )
        );
        let e = run(&spec_file(dir.path(), &unwritable), Some(1)).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("plain-file/sub"),
            "{e}"
        );
        let bad_agent =
            format!("{base}kind = \"tournament\"\ngames = 2\n").replace("greedy", "alphazero");
        let e = run(&spec_file(dir.path(), &bad_agent), None).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("alphazero"),
            "{e}"
        );
        assert!(!never.exists(), "bad input wrote nothing");
    }
}
