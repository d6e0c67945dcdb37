//! Driving a tournament: resolving [`Settings`] into a typed [`Tournament`] of one game,
//! and running it ([`fn@run`], [`run_game_with`]): the output directory, the segments of a
//! sequential run, the writer of rows and statistics, checkpoints, resume, the progress
//! bar, and the tables written at the end. Playing the games themselves (rayon, blocks,
//! agents) is [`mod@super::run`].

use std::collections::BTreeMap;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::tallies::{GroupColumn, StatsState};
use super::*;
use crate::game::{Playable, RulesError};
use crate::output::{OutputDir, OutputError};
use crate::params::ParamSet;
use crate::stats::SprtDecision::Continue;
use std::sync::atomic::Ordering::Relaxed;

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
    /// Threads used (0 when nothing was played).
    pub threads: usize,
    /// A `--resume` of a run that was already complete: nothing was played or written, the
    /// report is read from its final checkpoint.
    pub already_complete: bool,
}

impl<G: Playable> Plan<G> {
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
        let repeated = repeated_keys(variant);
        if !repeated.is_empty() {
            return Err(TournamentError::Repeated(format!(
                "--variant: {} given more than once; give each rule parameter once",
                repeated.join(", ")
            )));
        }
        for a in agents {
            if let Ok(spec) = crate::agents::AgentSpec::parse(a.as_ref()) {
                let repeated = repeated_keys(&spec.settings);
                if !repeated.is_empty() {
                    return Err(TournamentError::Repeated(format!(
                        "agent '{}': {} given more than once; give each parameter once",
                        a.as_ref(),
                        repeated.join(", ")
                    )));
                }
            }
        }
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
        let lineup = Lineup::with_defaults(agents, players, crate::games::defaults_of(G::NAME))?;
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
pub struct Tournament<G: Playable> {
    /// Everything each game needs.
    pub plan: Plan<G>,
    /// Number of games.
    pub games: u64,
    /// With `--until-significant`: the sequential test.
    pub sequential: Option<sequential::Sequential>,
}

impl<G: Playable> Tournament<G> {
    /// Resolves and validates `settings` for game `G` (the name in `settings.game` is not
    /// consulted).
    ///
    /// # Errors
    /// A bad-input [`TournamentError`] naming the bad value and the valid choices.
    pub fn resolve(settings: &Settings) -> Result<Self, TournamentError> {
        if settings.games == 0 {
            return Err(TournamentError::NoGames);
        }
        match settings.threads {
            Some(0) => return Err(TournamentError::NoThreads),
            Some(n) if n > MAX_THREADS => return Err(TournamentError::TooManyThreads(n)),
            _ => {}
        }
        if settings.out.as_os_str().is_empty() {
            return Err(TournamentError::BadOut(
                "the output directory is empty: name one (--out DIR, or `out` in a spec); \
                 sim never writes into the working directory by accident"
                    .into(),
            ));
        }
        if settings.out.to_str().is_none() {
            return Err(TournamentError::BadOut(format!(
                "the output directory {} is not valid UTF-8: it could not be recorded \
                 exactly in config.toml and the rerun command; choose a UTF-8 name",
                settings.out.display()
            )));
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
pub(super) fn data_hashes<P: ParamSet>(params: &P) -> BTreeMap<String, String> {
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
        .map_err(|e| kept_progress(e, &settings.out, options))
}

/// A write that failed after the run began (a full disk) keeps the progress of the last
/// checkpoint ([`OutputDir::keep_flag`]): the error says so and how to resume.
fn kept_progress(e: TournamentError, dir: &Path, options: &RunOptions) -> TournamentError {
    let kept = matches!(
        crate::output::read_manifest(dir),
        Ok(Some(m)) if m.state == crate::output::RunState::Interrupted
            || m.state == crate::output::RunState::Running
    );
    match e {
        TournamentError::Output(cause @ OutputError::Write { .. }) if kept && !options.nested => {
            let at = Checkpoint::load(dir)
                .ok()
                .flatten()
                .map_or("the first game".to_string(), |c| {
                    format!("game {}", c.next_game)
                });
            TournamentError::Stopped {
                cause,
                resume: format!(
                    "the progress up to {at} is kept; fix the cause (free disk space), then \
                     resume with: sim tournament --resume {}",
                    shell_quote(&dir.display().to_string())
                ),
            }
        }
        e => e,
    }
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
pub fn run_game<G: Playable>(settings: &Settings) -> Result<Report, TournamentError> {
    run_game_with::<G>(settings, &RunOptions::default())
}

/// A resolved tournament with everything needed to write its files: shared by the runner
/// and by [`merge`].
pub(crate) struct Prepared<G: Playable> {
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

impl<G: Playable> Prepared<G> {
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

    /// Writes the agent specs as a run recorded them (`recorded`, one per lineup entry)
    /// wherever the files spell them (`config.toml`'s settings, labels and command,
    /// `agents.csv`, the rerun commands of `errors.csv`), instead of today's canonical
    /// spelling: `sim verify` checks a folder written before parameters were added to an
    /// agent kind against itself this way (`crate::tournament::verify`, which checks first
    /// that each recorded spec names the same agent as its canonical form). The labels do
    /// not change (they are the kinds). The configuration hash of the run
    /// ([`owner`]) is then that of the recorded specs.
    ///
    /// # Panics
    /// If `recorded` does not have one spec per lineup entry.
    pub(crate) fn respell_agents(&mut self, recorded: &[String]) {
        let lineup = &self.t.plan.lineup;
        assert_eq!(recorded.len(), lineup.len(), "one recorded spec per entry");
        for (d, label) in self.config.labels.agents.iter_mut().enumerate() {
            if let Some(e) = (0..lineup.len()).find(|&e| lineup.distinct_of(e) == d) {
                label.spec = recorded[e].clone();
            }
        }
        self.config.tournament.agents = recorded.to_vec();
        let mut command = self.config.tournament.command();
        if let Some(s) = &self.config.shard {
            command.push_str(&format!(" --shard {}/{}", s.index, s.count));
        }
        self.config.command = command;
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
        // The specs as config.toml records them: the lineup's canonical specs, or the
        // recorded spelling that `sim verify` put back ([`Prepared::respell_agents`]).
        let specs: Vec<String> = self
            .config
            .labels
            .agents
            .iter()
            .map(|a| a.spec.clone())
            .collect();
        out.write_with("agents.csv", |w| {
            records::write_agents_csv(w, &self.agent_labels, &specs)
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
        games: (u64, String),
        chain: Option<chain::Chain>,
    ) -> Checkpoint {
        let end = self.range().1;
        self.checkpoint(config_hash, stats.state(), failures, (end, games), true)
            .with_chain(chain)
    }

    /// The seed of this run's checksum chain of version `version` ([`chain::seed`]) with a
    /// games file of kind `kind`, and whether the chain covers rows.
    pub fn chain_seed(&self, version: u32, config_hash: &str, kind: GamesFile) -> (String, bool) {
        let rows = kind != GamesFile::None;
        let header = self.format.header();
        (
            chain::seed(version, config_hash, rows.then_some(&header[..])),
            rows,
        )
    }

    /// The number of cells (agent x seat) of this run's tallies: the win counts of each
    /// block of a version-2 checksum chain ([`chain::ChainBlock::tallies`]).
    pub fn cells(&self) -> usize {
        self.agent_labels.len() * self.t.plan.rules.players()
    }

    /// A checkpoint of this run's range: the statistics and failures of the games before
    /// `next_game`, whose rows end at byte `games_bytes` of the games file, whose SHA-256
    /// up to there is `games_sha256` ([`GamesWriter::mark`]).
    fn checkpoint(
        &self,
        config_hash: &str,
        stats: StatsState,
        failures: &[run::Failure],
        (next_game, (games_bytes, games_sha256)): (u64, (u64, String)),
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
            games_sha256,
            chain: None,
            seal: String::new(),
        }
    }
}

/// Runs the tournament for game `G` (see [`run_with()`]).
///
/// # Errors
/// As [`run()`].
pub fn run_game_with<G: Playable>(
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
    owner.chain_version = Some(chain::VERSION);
    let config_hash = owner.config_hash();
    let dir = settings.out.as_path();
    if options.resume {
        // Read under the directory's lock (an enclosing experiment holds it for a nested
        // run), so a run still writing the directory is reported, not read half-written.
        let _lock = if options.nested || !dir.is_dir() {
            None
        } else {
            let lock = crate::output::DirLock::acquire(dir)?;
            crate::output::recover_rerun(dir)?;
            Some(lock)
        };
        if let Some(report) = finished_report::<G>(&prepared, dir, &config_hash)? {
            return Ok(report);
        }
    }
    let (mut out, saved, recorded_chain) = if options.nested {
        let saved = if options.resume {
            Checkpoint::load(dir)?
        } else {
            None
        };
        (OutputDir::create(dir)?, saved, options.chain_version)
    } else if options.resume {
        let (out, old) = OutputDir::resume(dir, &owner)?;
        (out, Checkpoint::load(dir)?, old.chain_version)
    } else {
        (
            OutputDir::claim(dir, &owner, options.overwrite)?,
            None,
            None,
        )
    };
    // The manifest of an unfinished run (the run's own, or the enclosing experiment's for a
    // nested one) has no chain summary yet, only the version the run writes: a checkpoint
    // without it is refused, not resumed with fewer checks.
    if let Some(cp) = &saved {
        chain::check_recorded_version(recorded_chain, cp).map_err(|e| OutputError::Resume {
            path: dir.to_path_buf(),
            reason: format!("{e}; start over with --overwrite"),
        })?;
    }
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
    // A failed write (a full disk) keeps the progress of the last checkpoint for --resume.
    let keep = out.keep_flag();
    let kept = |e: OutputError| {
        keep.store(true, Relaxed);
        TournamentError::from(e)
    };
    let write_err = |e: io::Error| kept(OutputError::write(&games_path, e));
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
    // The checksum chain ([`chain`]): a resumed run checks the blocks it keeps first,
    // naming the first bad one, and continues the chain from them; a run that began under
    // a version without the chain finishes without one.
    let chain_version = saved
        .as_ref()
        .and_then(|cp| cp.chain.as_ref())
        .map_or(chain::VERSION, |c| c.version);
    let (chain_seed, chain_rows) =
        prepared.chain_seed(chain_version, &config_hash, options.games_file);
    let mut chain = match &saved {
        None => Some(chain::ChainBuilder::new(
            (chain::VERSION, chain_seed),
            chain_rows,
            (range_start, range_end),
            prepared.cells(),
        )),
        Some(Checkpoint { chain: None, .. }) => None,
        Some(cp @ Checkpoint { chain: Some(c), .. }) => {
            let partial = options
                .games_file
                .file_name()
                .map(|n| format!("{n}.partial"));
            let header = format.header();
            let players = t.plan.rules.players() as u64;
            let open = chain::check_dir(
                dir,
                partial.as_deref(),
                options.games_file,
                cp,
                (&config_hash, &header, players, &prepared.agent_labels),
            )
            .map_err(|e| OutputError::Resume {
                path: dir.to_path_buf(),
                reason: format!("{e}; start over with --overwrite"),
            })?;
            Some(chain::ChainBuilder::resume(
                chain_seed,
                (range_start, range_end),
                c,
                (cp.next_game, &cp.failed_games()),
                &open,
                &chain::counts_of(&cp.stats),
            ))
        }
    };
    if chain.is_some() {
        games_file = games_file.chained();
    }
    if let (Some(cp), Some(name)) = (&saved, options.games_file.file_name()) {
        // The rows kept from before the stop must be those the checkpoint sealed.
        let partial = dir.join(format!("{name}.partial"));
        let (hash, sha) = games_file::hash_prefix(&partial, saved_bytes)
            .map_err(|e| OutputError::write(&partial, e))?;
        if !cp.games_sha256.is_empty() && sha != cp.games_sha256 {
            return Err(OutputError::Resume {
                path: dir.to_path_buf(),
                reason: format!(
                    "{name}.partial: its first {saved_bytes} bytes do not match the SHA-256 in \
                     {}: its rows were edited or are corrupt; start over with --overwrite",
                    checkpoint::FILE
                ),
            }
            .into());
        }
        games_file = games_file.with_hash(hash);
    }
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
        ext_failures: options.ext_failures.unwrap_or(run::EXT_FAILURES),
    };
    let save = |stats: StatsState,
                failures: &[run::Failure],
                next_game,
                games: (u64, String),
                chain: Option<chain::Chain>| {
        prepared
            .checkpoint(&config_hash, stats, failures, (next_game, games), false)
            .with_chain(chain)
            .save(dir)
            .map_err(kept)
    };
    // The last point where the games file can be cut (gz: a member boundary), for a stop
    // between two such points: (next game, statistics, failures, bytes, chain blocks).
    let chain_len = |c: &Option<chain::ChainBuilder>| c.as_ref().map_or(0, |c| c.len());
    let mut cut = (
        start,
        stats.state(),
        failures.len(),
        games_file.mark(),
        chain_len(&chain),
    );
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
        crate::output::step_io("write a block of rows").map_err(write_err)?;
        if let Some(c) = chain.as_mut() {
            c.tallies(block.first, &chain::counts_of_tallies(&block.tallies));
            c.rows(&block.rows);
            let mut failed = block.failures.iter().map(|f| f.game).peekable();
            for g in block.first..block.first + block.games {
                c.game(g, failed.next_if_eq(&g).is_some());
            }
        }
        failures.extend_from_slice(&block.failures);
        blocks_since_save += 1;
        if options.throttle_ms > 0 {
            std::thread::sleep(Duration::from_millis(options.throttle_ms));
        }
        let next = block.first + block.games;
        let can_cut = games_file.reached(next).map_err(write_err)?;
        if can_cut && options.games_file == GamesFile::Gz {
            cut = (
                next,
                stats.state(),
                failures.len(),
                games_file.mark(),
                chain_len(&chain),
            );
        }
        let due = match options.checkpoint_every {
            Some(k) => blocks_since_save >= k,
            None => last_save.elapsed().as_secs() >= checkpoint::DEFAULT_SECONDS,
        };
        if due && can_cut {
            games_file.flush().map_err(write_err)?;
            crate::output::step("flush the games file");
            let c = chain.as_ref().map(chain::ChainBuilder::chain);
            save(stats.state(), &failures, next, games_file.mark(), c)?;
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
        let whole = chain.as_ref().map(chain::ChainBuilder::chain);
        if games_file.reached(next).map_err(write_err)? {
            save(stats.state(), &failures, next, games_file.mark(), whole)?;
        } else {
            let (at, state, n_failures, bytes, n_blocks) = cut;
            // At a cut point (a gz member boundary) no block is open.
            let c = whole.map(|mut c| {
                c.blocks.truncate(n_blocks);
                c.open = None;
                c
            });
            save(state, &failures[..n_failures], at, bytes, c)?;
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
    let games_mark = games_file.mark();
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
    prepared
        .write_tables(&mut out, &stats, &failures)
        .map_err(kept)?;
    if let Some(c) = chain.as_mut() {
        c.finish();
    }
    let sealed = prepared
        .checkpoint(
            &config_hash,
            stats.state(),
            &failures,
            (stopped_at, games_mark),
            true,
        )
        .with_chain(chain.map(|c| c.chain()))
        .save(dir)
        .map_err(kept)?;
    out.record_chain(sealed.chain.as_ref().map(chain::Chain::summary));
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
        already_complete: false,
    })
}

/// The report of the complete run of this configuration in `dir`, from its final
/// checkpoint, if there is one (a resume of a finished run, such as a finished pair of an
/// interrupted ladder, plays nothing and writes nothing).
///
/// # Errors
/// [`OutputError::Resume`] if the final checkpoint cannot be read.
fn finished_report<G: Playable>(
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
        already_complete: true,
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
