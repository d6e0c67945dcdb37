//! `sim verify DIR`: checks a finished tournament directory (a whole run, a shard or a
//! merge) against itself, so that results that were edited, cut or corrupted after the run
//! are found before anyone reads them.
//!
//! In order, each check naming the file that fails it:
//! 1. `manifest.json` says `complete` and every file it lists is there;
//! 2. `checkpoint.json` is final and matches its seal (SHA-256 of its contents: the
//!    integer tallies, the failed games, the progress, the games file's length and hash;
//!    [`super::checkpoint::Checkpoint::seal`]);
//! 3. its checksum chain ([`super::chain`]), block by block: the records, the links, the
//!    head against the tallies and the manifest's copy, and each block's rows in the games
//!    file, naming the first bad block (runs of versions without the chain skip this);
//! 4. the games file has the checkpoint's length and SHA-256 (rows against the sealed
//!    checkpoint), and `games.csv` holds one row per seat of every game that did not fail
//!    (rows against tallies);
//! 5. every table (`summary.csv`, `seats.csv`, ..., `errors.csv`, `config.toml`) is written
//!    again from the checkpoint's tallies and compared byte for byte (tallies against
//!    summaries).
//!
//! The configuration hash (check 1 and the checkpoint's) and the rebuilt files use the
//! agent specs as the run recorded them. A run written before a parameter was added to an
//! agent kind (`mcts` and `ismcts` before `bias` and `reuse`) records a shorter canonical
//! spec than today's, which ends in `bias=0,reuse=false`; its files are checked against
//! that recorded spelling ([`recorded_agents`]), after checking that each recorded spec
//! names the same agent as today's canonical form of it. An edited spec (another `iters`)
//! changes the hash and fails check 1.

use std::path::{Path, PathBuf};

use super::checkpoint::{self, Checkpoint};
use super::merge::MergeError;
use super::*;
use crate::game::Playable;
use crate::output::{Manifest, OutputDir, RunState, read_manifest};

/// What `sim verify` checked.
#[derive(Debug, Clone)]
pub struct VerifyReport {
    /// The directory.
    pub dir: PathBuf,
    /// The games of its range (a shard's, or the whole run's).
    pub games: u64,
    /// The failed games among them.
    pub failures: usize,
    /// The files compared byte for byte with their contents rebuilt from the tallies.
    pub rebuilt: Vec<String>,
    /// The blocks of the checksum chain checked; `None` for a run of a version without
    /// the chain (format v1 or v2 checkpoint: the seal, the games file's whole SHA-256 and
    /// its line count are checked instead).
    pub chain_blocks: Option<usize>,
    /// Files of an earlier run left in place by a rerun that did not write them again
    /// ([`Manifest::kept`]): not part of this run, not checked.
    pub kept: Vec<String>,
    /// Whether the rows were checked: false when the games file is absent and `sim verify
    /// --without-games` allowed it (true for a run without a games file).
    pub rows_checked: bool,
    /// The agent specs the run records in an older spelling than today's canonical one
    /// (written before parameters were added to their kind), each checked to name the same
    /// agent as its canonical form ([`recorded_agents`]); empty for a run in today's
    /// spelling.
    pub older_spellings: Vec<OlderSpelling>,
}

/// An agent spec that a run records in an older spelling ([`recorded_agents`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OlderSpelling {
    /// The spec as recorded (`manifest.json`, `config.toml`, `agents.csv`).
    pub recorded: String,
    /// Today's canonical form of it: the same agent, every parameter spelled out.
    pub canonical: String,
    /// The settings that the game's agent defaults (`agents/games/<game>.toml`) would give
    /// today to parameters the recorded spec does not name, where they are not the kind's
    /// own defaults (`reuse=true` for Dunhuang's `mcts`): the recorded spec, written before
    /// those parameters existed, names their kind defaults (the agent that played), but
    /// the same text given to `sim tournament` today would take these. Empty when there
    /// are none.
    pub preset_would_set: Vec<String>,
}

/// The `key=value` settings of a canonical spec (`kind:k=v,k=v`), in order.
fn settings_of(canonical: &str) -> Vec<&str> {
    canonical
        .split_once(':')
        .map_or(Vec::new(), |(_, rest)| rest.split(',').collect())
}

/// Reads the agent specs a run records (`recorded`, one per lineup entry, for `game`).
/// Returns the spec that names each agent in today's canonical spelling, and those that
/// the run spells otherwise.
///
/// A recorded spec was the canonical spec when the run was written: every parameter of
/// its kind spelled out, the game's agent defaults already applied. A parameter it lacks
/// was added to the kind later, and the agent that played had that parameter's kind
/// default (a parameter joins a kind with the default that plays as before; results/README.md,
/// "Spec strings"); so it is read with the kind's own defaults, not the game's. Today's
/// canonical form of it is [`crate::agents::canonicalize`] of it; it must parse today
/// (a known kind, known parameters, valid values), and it must name the same agent
/// configuration as that canonical form, compared as today's canonical strings of both.
///
/// # Errors
/// A message naming the spec that does not parse, or that names another agent than its
/// canonical form.
pub fn recorded_agents(
    game: &str,
    recorded: &[String],
) -> Result<(Vec<String>, Vec<OlderSpelling>), String> {
    let defaults = crate::games::agent_defaults(game).unwrap_or(&[]);
    let mut canonical = Vec::with_capacity(recorded.len());
    let mut older: Vec<OlderSpelling> = Vec::new();
    for spec in recorded {
        let c = crate::agents::canonicalize(spec).map_err(|e| {
            format!("its agent spec '{spec}' does not parse with this version of sim: {e}")
        })?;
        let again = crate::agents::canonicalize(&c)
            .map_err(|e| format!("the canonical form '{c}' of agent spec '{spec}': {e}"))?;
        if again != c {
            return Err(format!(
                "its agent spec '{spec}' names another agent ({c}) than today's canonical \
                 form of it ({again})"
            ));
        }
        if c != *spec && !older.iter().any(|o| o.recorded == *spec) {
            let with_game = crate::agents::canonicalize_with(spec, defaults).map_err(|e| {
                format!("its agent spec '{spec}' with the {game} agent defaults: {e}")
            })?;
            let own = settings_of(&c);
            let preset_would_set = settings_of(&with_game)
                .into_iter()
                .filter(|s| !own.contains(s))
                .map(str::to_string)
                .collect();
            older.push(OlderSpelling {
                recorded: spec.clone(),
                canonical: c.clone(),
                preset_would_set,
            });
        }
        canonical.push(c);
    }
    Ok((canonical, older))
}

fn bad(dir: &Path, problem: impl Into<String>) -> MergeError {
    MergeError::Shard {
        dir: dir.to_path_buf(),
        problem: problem.into(),
    }
}

/// Verifies the finished tournament directory `dir` (see the module docs).
///
/// # Errors
/// A bad-input [`MergeError::Shard`] naming the file and the first check it fails.
pub fn verify(dir: &Path) -> Result<VerifyReport, MergeError> {
    verify_with(dir, false)
}

/// [`verify()`]; with `without_games`, a games file listed in the manifest but absent (the
/// committed results of this repository do not keep `games.csv`) is allowed: everything
/// else is checked, the rows are not, and the report says so
/// ([`VerifyReport::rows_checked`]).
///
/// # Errors
/// As [`verify()`].
pub fn verify_with(dir: &Path, without_games: bool) -> Result<VerifyReport, MergeError> {
    let m = read_manifest(dir)
        .map_err(|e| bad(dir, e.to_string()))?
        .ok_or_else(|| bad(dir, "it has no manifest.json: no sim run wrote it"))?;
    verify_manifest(dir, &m, (true, without_games))
}

/// Whether `f` (a path relative to a run's directory), listed in a manifest, is a games
/// file that `without_games` lets be absent.
fn may_be_absent(f: &str, without_games: bool) -> bool {
    let name = f.rsplit('/').next().unwrap_or(f);
    without_games && (name == "games.csv" || name == "games.csv.gz")
}

/// [`verify`] with the manifest `m` read; `own`: whether `m` is the tournament's own
/// manifest (false for the tournament of a `kind = "tournament"` experiment, written into
/// the experiment's directory under the experiment's manifest: then its configuration
/// hash and chain are checked against `checkpoint.json` and `config.toml` only).
fn verify_manifest(
    dir: &Path,
    m: &Manifest,
    (own, without_games): (bool, bool),
) -> Result<VerifyReport, MergeError> {
    let m = m.clone();
    if m.kind != "tournament" {
        return Err(bad(
            dir,
            format!("it holds a {} run; sim verify checks tournaments", m.kind),
        ));
    }
    complete_and_listed(dir, &m, without_games, "tournament")?;
    let cp = Checkpoint::load(dir)
        .map_err(|e| match e {
            crate::output::OutputError::Resume { reason, .. } => bad(dir, reason),
            e => bad(dir, e.to_string()),
        })?
        .ok_or_else(|| bad(dir, format!("{} is missing", checkpoint::FILE)))?;
    let r = ResolvedSettings::from_manifest(&m, dir).map_err(|e| bad(dir, e))?;
    let recorded_specs = r.agents.clone();
    let (canonical, older) = recorded_agents(&r.game, &recorded_specs)
        .map_err(|e| bad(dir, format!("manifest.json: {e}")))?;
    let games_file = GamesFile::from_manifest(m.games_file.as_deref())
        .map_err(|e| bad(dir, format!("manifest.json: {e}")))?;
    // config.toml records --out as given, and a sequential run's outcome: read back.
    let text = std::fs::read_to_string(dir.join("config.toml"))
        .map_err(|e| bad(dir, format!("config.toml: {e}")))?;
    let recorded: ConfigFile =
        toml::from_str(&text).map_err(|e| bad(dir, format!("config.toml: {e}")))?;
    let mut settings = r.into_settings(PathBuf::from(&recorded.tournament.out), Some(1), false);
    // The agents in today's spelling (read as recorded, see recorded_agents), put back
    // into the recorded spelling once resolved.
    settings.agents = canonical;
    let shard = m.shard.map(|s| s.shard());
    let agents = (recorded_specs.as_slice(), older);
    crate::dispatch_game!(settings.game.as_str(), G => {
        verify_game::<G>(dir, &settings, shard, (&m, &cp, games_file, own), recorded.sequential.clone(), agents.clone())
    })
    .map_err(TournamentError::from)?
}

fn verify_game<G: Playable>(
    dir: &Path,
    settings: &Settings,
    shard: Option<Shard>,
    (m, cp, games_file, own): (&Manifest, &Checkpoint, GamesFile, bool),
    sequential: Option<sequential::Outcome>,
    (recorded, older): (&[String], Vec<OlderSpelling>),
) -> Result<VerifyReport, MergeError> {
    let mut prepared = Prepared::<G>::new(settings, shard)?;
    if !older.is_empty() {
        prepared.respell_agents(recorded);
    }
    let (start, end) = prepared.range();
    let mut owner = super::owner(&prepared.config);
    owner.shard = prepared.config.shard;
    owner.games_file = games_file.manifest_value();
    owner.merged_from = m.merged_from.clone();
    if cp.config_hash != owner.config_hash() || (own && cp.config_hash != m.config_hash) {
        return Err(bad(
            dir,
            "manifest.json: its config_hash is not that of its settings, or not that of \
             checkpoint.json (edited by hand, or written by another version of sim)",
        ));
    }
    if !cp.complete || cp.start != start || (prepared.t.sequential.is_none() && cp.next_game != end)
    {
        return Err(bad(
            dir,
            format!(
                "{} does not describe the complete games {start}..{end} of the run",
                checkpoint::FILE
            ),
        ));
    }
    let mut stats = prepared.stats();
    stats
        .restore(cp.stats.clone())
        .map_err(|reason| bad(dir, format!("{}: {reason}", checkpoint::FILE)))?;
    let played = cp.next_game - cp.start;
    if stats.games + cp.failures.len() as u64 != played {
        return Err(bad(
            dir,
            format!(
                "{}: its tallies count {} games and {} failed ones, but it covers {played} \
                 games",
                checkpoint::FILE,
                stats.games,
                cp.failures.len()
            ),
        ));
    }
    // The games file, unless it is absent and allowed to be (then the rows are not
    // checked, and the report says so).
    let present = games_file.file_name().filter(|n| dir.join(n).exists());
    // The checksum chain, block by block: names the first bad block.
    let players = prepared.t.plan.rules.players() as u64;
    super::chain::check_dir(
        dir,
        present,
        games_file,
        cp,
        (
            &cp.config_hash,
            &prepared.format.header(),
            players,
            &prepared.agent_labels,
        ),
    )
    .map_err(|e| bad(dir, e.0))?;
    if own && m.chain != cp.chain.as_ref().map(super::chain::Chain::summary) {
        return Err(bad(
            dir,
            format!(
                "manifest.json: its checksum chain (version, blocks, head) is not that of {}: \
                 one of them was edited",
                checkpoint::FILE
            ),
        ));
    }
    if own {
        super::chain::check_recorded_version(m.chain_version, cp).map_err(|e| bad(dir, e))?;
    }
    if let Some(name) = present {
        let path = dir.join(name);
        let len = std::fs::metadata(&path).map_or(0, |m| m.len());
        let (_, sha) = games_file::hash_prefix(&path, cp.games_bytes)
            .map_err(|e| bad(dir, format!("{name}: {e}")))?;
        if len != cp.games_bytes || (!cp.games_sha256.is_empty() && sha != cp.games_sha256) {
            return Err(bad(
                dir,
                format!(
                    "{name} does not match the length and SHA-256 recorded in {}: its rows \
                     were edited, cut or reordered",
                    checkpoint::FILE
                ),
            ));
        }
        if games_file == GamesFile::Csv {
            let text = std::fs::read(&path).map_err(|e| bad(dir, format!("{name}: {e}")))?;
            let lines = text.iter().filter(|&&b| b == b'\n').count() as u64;
            let want = 1 + stats.games * prepared.t.plan.rules.players() as u64;
            if lines != want {
                return Err(bad(
                    dir,
                    format!(
                        "{name} has {lines} lines, but the tallies count {} games of {} \
                         seats (and a header): {want}",
                        stats.games,
                        prepared.t.plan.rules.players()
                    ),
                ));
            }
        }
    }
    if let Some(p) = &mut stats.paired {
        p.close();
    }
    // The tables again, from the tallies, in a scratch directory beside nothing else.
    let scratch = std::env::temp_dir().join(format!(
        "sim-verify-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let result = (|| -> Result<Vec<String>, MergeError> {
        let mut out = OutputDir::create(&scratch)?;
        let mut prepared = prepared;
        // The sequential outcome is read back from config.toml, not recomputed.
        if prepared.t.sequential.is_some() {
            prepared.config.sequential = sequential;
        }
        prepared.write_label_files(&mut out)?;
        prepared.write_tables(&mut out, &stats, &cp.failures)?;
        let mut rebuilt = Vec::new();
        for e in std::fs::read_dir(&scratch).map_err(|e| bad(dir, e.to_string()))? {
            let e = e.map_err(|e| bad(dir, e.to_string()))?;
            let partial = e.file_name().to_string_lossy().into_owned();
            let Some(name) = partial.strip_suffix(".partial") else {
                continue;
            };
            let want = std::fs::read(e.path()).map_err(|e| bad(dir, e.to_string()))?;
            let have =
                std::fs::read(dir.join(name)).map_err(|e| bad(dir, format!("{name}: {e}")))?;
            if have != want {
                return Err(bad(
                    dir,
                    format!(
                        "{name} is not what the tallies in {} give: it was edited, or the \
                         tallies were",
                        checkpoint::FILE
                    ),
                ));
            }
            rebuilt.push(name.to_string());
        }
        rebuilt.sort();
        Ok(rebuilt)
    })();
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(VerifyReport {
        dir: dir.to_path_buf(),
        games: end - start,
        failures: cp.failures.len(),
        rebuilt: result?,
        chain_blocks: cp.chain.as_ref().map(|c| c.blocks.len()),
        kept: m.kept.clone(),
        rows_checked: present.is_some() || games_file.file_name().is_none(),
        older_spellings: older,
    })
}

/// What `sim verify` checked of an experiment folder ([`verify_experiment`]).
#[derive(Debug, Clone)]
pub struct ExperimentReport {
    /// The directory.
    pub dir: PathBuf,
    /// The command that reruns the experiment.
    pub command: String,
    /// The files matched against their SHA-256 in `manifest.json` (those under `cells/`
    /// and `pairs/` included); `None` for a folder written before experiments recorded
    /// hashes (older format: its files are checked for presence, and its tournaments
    /// against themselves, but not against hashes).
    pub hashed: Option<usize>,
    /// The tournaments checked, each its rows against its tallies against its tables
    /// ([`verify()`]): the experiment's own (`kind = "tournament"`) and each one under a
    /// directory it lists (`cells/000`, `pairs/0-1`, ...).
    pub tournaments: Vec<VerifyReport>,
    /// Files of an earlier run left in place by a rerun that did not write them again
    /// ([`Manifest::kept`]): not part of this run, not checked.
    pub kept: Vec<String>,
}

/// Every file under the entries `names` of `dir` (a directory: the files under it, names
/// starting with `.` skipped), by path relative to `dir` with `/` between the parts, as
/// [`crate::output::hash_tree`] keys them.
fn tree(dir: &Path, names: &[String]) -> Result<Vec<String>, String> {
    fn add(path: &Path, key: String, out: &mut Vec<String>) -> Result<(), String> {
        if path.is_dir() {
            let mut children = Vec::new();
            for e in std::fs::read_dir(path).map_err(|e| format!("{key}: {e}"))? {
                let e = e.map_err(|e| format!("{key}: {e}"))?;
                let c = e.file_name().to_string_lossy().into_owned();
                if !c.starts_with('.') {
                    children.push(c);
                }
            }
            children.sort();
            for c in children {
                add(&path.join(&c), format!("{key}/{c}"), out)?;
            }
        } else {
            out.push(key);
        }
        Ok(())
    }
    let mut out = Vec::new();
    for n in names {
        add(&dir.join(n), n.clone(), &mut out)?;
    }
    Ok(out)
}

/// The checks every finished folder starts with: its manifest says `complete`, and every
/// file it lists exists (`games.csv` may be absent with `without_games`). `command` is the
/// `sim` subcommand that finishes an incomplete run (`tournament` or `experiment`).
///
/// # Errors
/// [`MergeError`] naming the state and the `--resume` command, or the first missing file.
fn complete_and_listed(
    dir: &Path,
    m: &Manifest,
    without_games: bool,
    command: &str,
) -> Result<(), MergeError> {
    if m.state != RunState::Complete {
        return Err(bad(
            dir,
            format!(
                "manifest.json: its run is not complete (state {:?}); finish it with `sim \
                 {command} --resume {}`",
                m.state,
                dir.display()
            ),
        ));
    }
    if let Some(f) = m
        .files
        .iter()
        .find(|f| !dir.join(f).exists() && !may_be_absent(f, without_games))
    {
        return Err(bad(
            dir,
            format!(
                "{f}: listed in manifest.json but missing{}",
                if may_be_absent(f, true) {
                    " (committed results do not keep it: `sim verify --without-games` checks \
                     everything else)"
                } else {
                    ""
                }
            ),
        ));
    }
    Ok(())
}

/// Verifies the finished experiment folder `dir` (a `sim experiment` run, manifest `m`):
/// 1. `manifest.json` says `complete` and every file it lists is there;
/// 2. with hashes recorded ([`crate::output::OutputDir::record_hashes`]): every file of the
///    run, those in its directories (`cells/`, `pairs/`) included, is listed with a
///    SHA-256 and matches it (an edited, replaced or removed file is named, and so is one
///    added under a directory of the run); a folder of a version that recorded no hashes
///    is reported as of the older format, never as corrupt;
/// 3. its tournaments against themselves ([`verify()`]: rows against tallies against the
///    tables): the experiment's own, read from its `config.toml` and `checkpoint.json`,
///    and every tournament directory under a directory it lists.
///
/// # Errors
/// A bad-input [`MergeError::Shard`] naming the file (or the tournament's directory) and
/// the first check it fails.
pub fn verify_experiment(
    dir: &Path,
    m: &Manifest,
    without_games: bool,
) -> Result<ExperimentReport, MergeError> {
    complete_and_listed(dir, m, without_games, "experiment")?;
    let hashed = if m.hashes.is_empty() {
        None
    } else {
        for (f, want) in &m.hashes {
            if !dir.join(f).exists() && may_be_absent(f, without_games) {
                continue;
            }
            let have = crate::output::hash_file(&dir.join(f)).map_err(|e| {
                bad(
                    dir,
                    format!("{f}: recorded in manifest.json with a SHA-256, but {e}"),
                )
            })?;
            if have != *want {
                return Err(bad(
                    dir,
                    format!(
                        "{f} does not match its SHA-256 in manifest.json: it was edited or \
                         replaced after the run; rerun with: {}",
                        m.command
                    ),
                ));
            }
        }
        let files = tree(dir, &m.files).map_err(|e| bad(dir, e))?;
        if let Some(f) = files.iter().find(|f| !m.hashes.contains_key(*f)) {
            return Err(bad(
                dir,
                format!(
                    "{f}: a file of the run without a SHA-256 in manifest.json (added after \
                     the run)"
                ),
            ));
        }
        Some(m.hashes.len())
    };
    let mut tournaments = Vec::new();
    // A `kind = "tournament"` experiment: the tournament's files beside experiment.toml.
    if m.files.iter().any(|f| f == checkpoint::FILE) {
        let text = std::fs::read_to_string(dir.join("config.toml"))
            .map_err(|e| bad(dir, format!("config.toml: {e}")))?;
        let recorded: ConfigFile =
            toml::from_str(&text).map_err(|e| bad(dir, format!("config.toml: {e}")))?;
        let owner = super::owner(&recorded);
        let games_file = if m.files.iter().any(|f| f == "games.csv.gz") {
            GamesFile::Gz
        } else if m.files.iter().any(|f| f == "games.csv") {
            GamesFile::Csv
        } else {
            GamesFile::None
        };
        let nested = Manifest {
            kind: owner.kind,
            config: owner.config,
            config_hash: String::new(),
            shard: None,
            games_file: games_file.manifest_value(),
            merged_from: Vec::new(),
            chain: None,
            ..m.clone()
        };
        tournaments.push(verify_manifest(dir, &nested, (false, without_games))?);
    }
    for f in &m.files {
        let sub = dir.join(f);
        if !sub.is_dir() {
            continue;
        }
        let mut runs: Vec<PathBuf> = std::fs::read_dir(&sub)
            .map_err(|e| bad(dir, format!("{f}: {e}")))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.join(crate::output::MANIFEST).is_file())
            .collect();
        runs.sort();
        for run in runs {
            tournaments.push(verify_with(&run, without_games)?);
        }
    }
    Ok(ExperimentReport {
        dir: dir.to_path_buf(),
        command: m.command.clone(),
        hashed,
        tournaments,
        kept: m.kept.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_specs_in_an_older_spelling_are_read_as_written() {
        let old = "mcts:iters=500,time_ms=0,c=0.7,rollout=random,epsilon=0.1,depth=0,rounds=0,\
                   worlds=1,final=visits";
        let today = format!("{old},sm=ucb-mix,gamma=0.1,chance=open,root=uct,bias=0,reuse=false");
        let (canonical, older) = recorded_agents(
            "dunhuang",
            &[old.to_string(), "random".into(), old.to_string()],
        )
        .unwrap();
        assert_eq!(canonical, [today.as_str(), "random", today.as_str()]);
        // Once per spec; Dunhuang's mcts preset (reuse=true) named, not applied.
        assert_eq!(
            older,
            [OlderSpelling {
                recorded: old.into(),
                canonical: today.clone(),
                preset_would_set: vec!["reuse=true".into()],
            }]
        );
        let (_, older) = recorded_agents("qax", &[old.to_string()]).unwrap();
        assert!(older[0].preset_would_set.is_empty(), "{older:?}");
        // Today's spelling: nothing to report.
        let (c, older) = recorded_agents("daxu", std::slice::from_ref(&today)).unwrap();
        assert_eq!(c, [today.as_str()]);
        assert!(older.is_empty());
        // A spec this version does not read is refused, naming it.
        let e = recorded_agents("daxu", &["mcts:iters=500,colour=red".into()]).unwrap_err();
        assert!(
            e.contains("'mcts:iters=500,colour=red' does not parse"),
            "{e}"
        );
    }
}
