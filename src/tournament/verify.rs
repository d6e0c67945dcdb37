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

use std::path::{Path, PathBuf};

use super::checkpoint::{self, Checkpoint};
use super::merge::MergeError;
use super::*;
use crate::game::Playable;
use crate::output::{OutputDir, RunState, read_manifest};

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
    let m = read_manifest(dir)
        .map_err(|e| bad(dir, e.to_string()))?
        .ok_or_else(|| bad(dir, "it has no manifest.json: no sim run wrote it"))?;
    if m.kind != "tournament" {
        return Err(bad(
            dir,
            format!("it holds a {} run; sim verify checks tournaments", m.kind),
        ));
    }
    if m.state != RunState::Complete {
        return Err(bad(
            dir,
            format!(
                "manifest.json: its run is not complete (state {:?}); finish it with `sim \
                 tournament --resume {}`",
                m.state,
                dir.display()
            ),
        ));
    }
    if let Some(f) = m.files.iter().find(|f| !dir.join(f).exists()) {
        return Err(bad(
            dir,
            format!("{f}: listed in manifest.json but missing"),
        ));
    }
    let cp = Checkpoint::load(dir)
        .map_err(|e| match e {
            crate::output::OutputError::Resume { reason, .. } => bad(dir, reason),
            e => bad(dir, e.to_string()),
        })?
        .ok_or_else(|| bad(dir, format!("{} is missing", checkpoint::FILE)))?;
    let r = ResolvedSettings::from_manifest(&m, dir).map_err(|e| bad(dir, e))?;
    let games_file = GamesFile::from_manifest(m.games_file.as_deref())
        .map_err(|e| bad(dir, format!("manifest.json: {e}")))?;
    // config.toml records --out as given, and a sequential run's outcome: read back.
    let text = std::fs::read_to_string(dir.join("config.toml"))
        .map_err(|e| bad(dir, format!("config.toml: {e}")))?;
    let recorded: ConfigFile =
        toml::from_str(&text).map_err(|e| bad(dir, format!("config.toml: {e}")))?;
    let settings = r.into_settings(PathBuf::from(&recorded.tournament.out), Some(1), false);
    let shard = m.shard.map(|s| s.shard());
    crate::dispatch_game!(settings.game.as_str(), G => {
        verify_game::<G>(dir, &settings, shard, (&m, &cp, games_file), recorded.sequential.clone())
    })
    .map_err(TournamentError::from)?
}

fn verify_game<G: Playable>(
    dir: &Path,
    settings: &Settings,
    shard: Option<Shard>,
    (m, cp, games_file): (&crate::output::Manifest, &Checkpoint, GamesFile),
    sequential: Option<sequential::Outcome>,
) -> Result<VerifyReport, MergeError> {
    let prepared = Prepared::<G>::new(settings, shard)?;
    let (start, end) = prepared.range();
    let mut owner = super::owner(&prepared.config);
    owner.shard = prepared.config.shard;
    owner.games_file = games_file.manifest_value();
    owner.merged_from = m.merged_from.clone();
    if owner.config_hash() != m.config_hash || cp.config_hash != m.config_hash {
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
    // The checksum chain, block by block: names the first bad block.
    let players = prepared.t.plan.rules.players() as u64;
    super::chain::check_dir(
        dir,
        games_file.file_name(),
        games_file,
        cp,
        (&m.config_hash, &prepared.format.header(), players),
    )
    .map_err(|e| bad(dir, e.0))?;
    if m.chain != cp.chain.as_ref().map(super::chain::Chain::summary) {
        return Err(bad(
            dir,
            format!(
                "manifest.json: its checksum chain (version, blocks, head) is not that of {}:                  one of them was edited",
                checkpoint::FILE
            ),
        ));
    }
    if let Some(name) = games_file.file_name() {
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
    })
}
