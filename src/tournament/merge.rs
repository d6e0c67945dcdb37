//! `sim merge`: combines the directories of the shards of a tournament (`--shard i/n`,
//! [`super::shard`]) into the files of the whole run, byte-identical to a single-machine
//! run of the same settings with `--out` the merge's output directory.
//!
//! Every file but `manifest.json` is identical: `games.csv` (or `games.csv.gz`) is the
//! shards' rows in shard order (streamed, never held in memory; a gz output is
//! recompressed in the same members as a single run's, [`super::games_file`]), the
//! statistics are rebuilt from the shards' final `checkpoint.json` (exact integer tallies,
//! added in shard order, so even the order in which label values first appeared is that of
//! a single run), `errors.csv` lists the shards' failed games in index order, and
//! `config.toml` and `checkpoint.json` are those of the whole run. The manifest differs from
//! a single run's in its `pid` and in `merged_from`, the shard directories in shard order.
//!
//! A merge refuses (bad input, exit 2), naming the directory and the problem:
//! - a directory that is not a complete shard: no or a corrupt `manifest.json`, a run of
//!   another kind, not a shard, not complete (`running`: still running or killed;
//!   `interrupted`: finish it with `sim tournament --resume DIR`), a missing, corrupt or
//!   unfinished `checkpoint.json`, or one that disagrees with the manifest;
//! - shards that do not belong together: another configuration (naming the fields),
//!   another shard count;
//! - shards that overlap (the same shard twice) or leave gaps (naming the missing shards
//!   and their games), or whose recorded ranges are not those of their shard;
//! - a games file that does not match its checkpoint: another size (truncated or appended
//!   to), a header of another run, a line without its newline, a line with the wrong
//!   number of fields, rows of unexpected games or seats, too few or too many rows, a gz
//!   file that does not decompress.
//!
//! With `--games-file none` shards (no games file) the merge rebuilds every other file from the
//! tallies alone; the output then has no games file either.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};

use super::chain::ChainBuilder;
use super::games_file::{GamesFile, GamesWriter};
use super::run::Failure;
use super::{Checkpoint, Prepared, ResolvedSettings, Settings, TournamentError, checkpoint};
use crate::game::Playable;
use crate::output::ShardInfo;
use crate::output::{
    Manifest, OutputDir, OutputError, RunState, config_differences_labelled, read_manifest,
};

/// Why a merge failed.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// One directory is not a usable shard (bad input).
    #[error("shard directory '{}': {problem}", dir.display())]
    Shard {
        /// The directory.
        dir: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The shards do not form one whole run (bad input).
    #[error("cannot merge: {0}")]
    Shards(String),
    /// Writing the output failed, or `--out` is unusable.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The run's settings could not be resolved.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
}

impl MergeError {
    /// Whether the error is the user's input (exit code 2).
    pub fn is_bad_input(&self) -> bool {
        match self {
            MergeError::Shard { .. } | MergeError::Shards(_) => true,
            MergeError::Output(e) => e.is_bad_input(),
            MergeError::Tournament(e) => e.is_bad_input(),
        }
    }
}

/// What a merge did.
#[derive(Debug, Clone)]
pub struct MergeReport {
    /// The output directory.
    pub out: PathBuf,
    /// The number of shards.
    pub shards: u64,
    /// Games of the whole run.
    pub games: u64,
    /// Failed games (in `errors.csv`).
    pub failures: usize,
    /// The files written, `config.toml` last.
    pub files: Vec<PathBuf>,
    /// How the games were written.
    pub games_file: GamesFile,
    /// The rerun command of the whole run.
    pub command: String,
}

/// One shard directory, read and checked on its own.
#[derive(Debug)]
struct ShardDir {
    dir: PathBuf,
    manifest: Manifest,
    shard: ShardInfo,
    checkpoint: Checkpoint,
    games_file: GamesFile,
}

fn shard_err(dir: &Path, problem: impl Into<String>) -> MergeError {
    MergeError::Shard {
        dir: dir.to_path_buf(),
        problem: problem.into(),
    }
}

/// Reads and checks `dir` on its own: a complete shard with a final checkpoint.
fn read_shard(dir: &Path) -> Result<ShardDir, MergeError> {
    if !dir.is_dir() {
        return Err(shard_err(dir, "no such directory"));
    }
    let manifest = read_manifest(dir)
        .map_err(|e| shard_err(dir, e.to_string()))?
        .ok_or_else(|| {
            shard_err(
                dir,
                "it has no manifest.json: it is not the output of `sim tournament --shard`",
            )
        })?;
    if manifest.kind != "tournament" {
        return Err(shard_err(
            dir,
            format!("it holds a {} run, not a tournament shard", manifest.kind),
        ));
    }
    let Some(shard) = manifest.shard else {
        return Err(shard_err(
            dir,
            "it holds a whole tournament, not a shard (run with --shard i/n)",
        ));
    };
    match manifest.state {
        RunState::Complete => {}
        RunState::Running => {
            return Err(shard_err(
                dir,
                format!(
                    "its run is not complete (state running: still running, or killed): \
                     finish it with `sim tournament --resume {}`",
                    dir.display()
                ),
            ));
        }
        RunState::Interrupted => {
            return Err(shard_err(
                dir,
                format!(
                    "its run was interrupted: finish it with `sim tournament --resume {}`",
                    dir.display()
                ),
            ));
        }
        RunState::Failed => {
            return Err(shard_err(dir, "its run failed: rerun the shard"));
        }
    }
    let games_file = GamesFile::from_manifest(manifest.games_file.as_deref())
        .map_err(|e| shard_err(dir, format!("manifest.json: {e}")))?;
    let checkpoint = Checkpoint::load(dir)
        .map_err(|e| match e {
            OutputError::Resume { reason, .. } => shard_err(dir, reason),
            e => shard_err(dir, e.to_string()),
        })?
        .ok_or_else(|| {
            shard_err(
                dir,
                format!(
                    "it has no {}: the shard's statistics are missing",
                    checkpoint::FILE
                ),
            )
        })?;
    let cp = &checkpoint;
    if !cp.complete
        || cp.config_hash != manifest.config_hash
        || cp.start != shard.start
        || cp.next_game != shard.end
    {
        return Err(shard_err(
            dir,
            format!(
                "its {} does not describe the complete {shard} of manifest.json",
                checkpoint::FILE
            ),
        ));
    }
    if let Some(f) = cp
        .failures
        .iter()
        .find(|f| f.game < shard.start || f.game >= shard.end)
    {
        return Err(shard_err(
            dir,
            format!(
                "its {} lists failed game {} outside its games {}..{}",
                checkpoint::FILE,
                f.game,
                shard.start,
                shard.end
            ),
        ));
    }
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        manifest,
        shard,
        checkpoint,
        games_file,
    })
}

/// `then`'s and `now`'s configuration differences, phrased for two directories.
fn differences(a: &ShardDir, b: &ShardDir) -> String {
    let labels = (
        format!("in '{}'", a.dir.display()),
        format!("in '{}'", b.dir.display()),
    );
    let mut d = config_differences_labelled(
        &a.manifest.config,
        &b.manifest.config,
        (&labels.0, &labels.1),
    );
    if d.is_empty() {
        d.push("config_hash".into());
    }
    d.join("; ")
}

/// Checks that `shards` (read on their own) form one whole run, and sorts them by shard.
fn check_set(shards: &mut [ShardDir]) -> Result<(), MergeError> {
    let Some(first) = shards.first() else {
        return Err(MergeError::Shards("no shard directories given".into()));
    };
    let count = first.shard.count;
    for s in shards.iter().skip(1) {
        if s.manifest.config_hash != first.manifest.config_hash {
            return Err(MergeError::Shards(format!(
                "'{}' and '{}' are shards of different configurations: {}",
                first.dir.display(),
                s.dir.display(),
                differences(first, s)
            )));
        }
        if s.shard.count != count {
            return Err(MergeError::Shards(format!(
                "'{}' is shard {}/{} but '{}' is shard {}/{}: shards of different splits",
                first.dir.display(),
                first.shard.index,
                count,
                s.dir.display(),
                s.shard.index,
                s.shard.count
            )));
        }
    }
    shards.sort_by_key(|s| s.shard.index);
    for w in shards.windows(2) {
        if w[0].shard.index == w[1].shard.index {
            return Err(MergeError::Shards(format!(
                "'{}' and '{}' are both shard {}/{count} (games {}..{}): overlapping shards",
                w[0].dir.display(),
                w[1].dir.display(),
                w[0].shard.index,
                w[0].shard.start,
                w[0].shard.end
            )));
        }
    }
    let have: Vec<u64> = shards.iter().map(|s| s.shard.index).collect();
    let missing: Vec<u64> = (0..count).filter(|i| !have.contains(i)).collect();
    if !missing.is_empty() {
        return Err(MergeError::Shards(format!(
            "{} of {count} shards given; missing: {} (a gap in the games)",
            shards.len(),
            missing
                .iter()
                .map(|i| format!("shard {i}/{count}"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut next = 0;
    for s in shards.iter() {
        if s.shard.start != next {
            let what = if s.shard.start > next {
                format!("games {next}..{} are in no shard (a gap)", s.shard.start)
            } else {
                format!(
                    "games {}..{next} are in two shards (an overlap)",
                    s.shard.start
                )
            };
            return Err(MergeError::Shards(format!(
                "{what}: '{}' records {} (a corrupt manifest.json?)",
                s.dir.display(),
                s.shard
            )));
        }
        next = s.shard.end;
    }
    Ok(())
}

/// Merges the shard directories `dirs` into `out` (see the module docs). `games`: how to
/// write the games (`None`: as the shards did).
///
/// # Errors
/// A bad-input [`MergeError`] naming the directory and the problem; an
/// [`MergeError::Output`] if writing fails (nothing complete-looking is left).
pub fn merge(
    dirs: &[PathBuf],
    out: &Path,
    games: Option<GamesFile>,
    overwrite: bool,
) -> Result<MergeReport, MergeError> {
    if let Ok(o) = out.canonicalize() {
        if let Some(d) = dirs.iter().find(|d| d.canonicalize().is_ok_and(|d| d == o)) {
            return Err(shard_err(
                d,
                "it is also the --out of the merge: choose another --out",
            ));
        }
    }
    let mut shards = dirs
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<Vec<_>, _>>()?;
    check_set(&mut shards)?;
    let first = &shards[0];
    // `read_shard` checked the kind.
    let r = ResolvedSettings::from_manifest(&first.manifest, out)
        .map_err(|e| shard_err(&first.dir, e))?;
    let kind = match games {
        Some(g) => g,
        None => {
            let g = first.games_file;
            if let Some(s) = shards.iter().find(|s| s.games_file != g) {
                return Err(MergeError::Shards(format!(
                    "'{}' wrote its games as {} but '{}' as {}: choose the output with --games-file",
                    first.dir.display(),
                    g.name(),
                    s.dir.display(),
                    s.games_file.name()
                )));
            }
            g
        }
    };
    if kind != GamesFile::None {
        if let Some(s) = shards.iter().find(|s| s.games_file == GamesFile::None) {
            return Err(shard_err(
                &s.dir,
                format!(
                    "it has no games file (--games-file none), so the merge cannot write {}; \
                     merge with --games-file none",
                    kind.file_name().unwrap_or_default()
                ),
            ));
        }
    }
    let settings = r.into_settings(out.to_path_buf(), None, false);
    crate::dispatch_game!(settings.game.as_str(), G => merge_game::<G>(&settings, &shards, kind, overwrite))
        .map_err(TournamentError::from)?
}

fn merge_game<G: Playable>(
    settings: &Settings,
    shards: &[ShardDir],
    kind: GamesFile,
    overwrite: bool,
) -> Result<MergeReport, MergeError> {
    let prepared = Prepared::<G>::new(settings, None)?;
    let block_len = prepared.t.plan.lineup.schedule().block_len();
    let count = shards[0].shard.count;
    for s in shards {
        let want = s.shard.shard().info(prepared.t.games, block_len);
        if want != s.shard {
            return Err(shard_err(
                &s.dir,
                format!(
                    "manifest.json records {} but that shard of this run is games {}..{}",
                    s.shard, want.start, want.end
                ),
            ));
        }
    }
    let mut owner = super::owner(&prepared.config);
    if owner.config_hash() != shards[0].manifest.config_hash {
        return Err(shard_err(
            &shards[0].dir,
            "its config_hash is not that of its settings (a manifest.json edited by hand, or \
             written by another version of sim)",
        ));
    }
    owner.games_file = kind.manifest_value();
    owner.merged_from = shards.iter().map(|s| s.dir.display().to_string()).collect();
    let config_hash = owner.config_hash();

    // The shards' checksum chains ([`super::chain`]) first, naming the first bad block;
    // shards of versions without the chain are checked below by their whole-file SHA-256.
    let header = prepared.format.header();
    let players = prepared.t.plan.rules.players() as u64;
    for s in shards {
        super::chain::check_dir(
            &s.dir,
            s.games_file.file_name(),
            s.games_file,
            &s.checkpoint,
            (
                &s.manifest.config_hash,
                &header,
                players,
                &prepared.agent_labels,
            ),
        )
        .map_err(|e| shard_err(&s.dir, format!("{e}; rerun the shard")))?;
        // The manifest's copy of the chain: a checkpoint downgraded to a format without
        // the chain (or with another chain) is refused rather than checked with less.
        if s.manifest.chain.is_some()
            && s.manifest.chain
                != s.checkpoint
                    .chain
                    .as_ref()
                    .map(super::chain::Chain::summary)
        {
            return Err(shard_err(
                &s.dir,
                format!(
                    "manifest.json records a checksum chain (version, blocks, head) that {} \
                     does not carry: the checkpoint was edited (its chain removed, replaced or \
                     its format downgraded); rerun the shard",
                    checkpoint::FILE
                ),
            ));
        }
        super::chain::check_recorded_version(s.manifest.chain_version, &s.checkpoint)
            .map_err(|e| shard_err(&s.dir, format!("{e}; rerun the shard")))?;
    }
    // Statistics and failures next: a shard whose tallies do not fit is refused before
    // anything is written.
    let mut stats = prepared.stats();
    let mut failures: Vec<Failure> = Vec::new();
    for s in shards {
        let cp = &s.checkpoint;
        let mut check = prepared.stats();
        check
            .restore(cp.stats.clone())
            .map_err(|reason| shard_err(&s.dir, format!("{}: {reason}", checkpoint::FILE)))?;
        let played = s.shard.end - s.shard.start - cp.failures.len() as u64;
        if check.games != played {
            return Err(shard_err(
                &s.dir,
                format!(
                    "its {} counts {} games, but its games {}..{} less {} failed ones are {played}",
                    checkpoint::FILE,
                    check.games,
                    s.shard.start,
                    s.shard.end,
                    cp.failures.len()
                ),
            ));
        }
        stats.absorb_state(&cp.stats);
        failures.extend_from_slice(&cp.failures);
    }

    let dir = settings.out.as_path();
    let mut out = OutputDir::claim(dir, &owner, overwrite)?;
    let name = kind.file_name();
    let path = out.path(name.unwrap_or("games.csv"));
    let write_err = |e: io::Error| MergeError::Output(OutputError::write(&path, e));
    let file = match name {
        Some(n) => Some(BufWriter::with_capacity(1 << 18, out.create_file(n)?)),
        None => None,
    };
    let mut writer = GamesWriter::new(kind, file, 0, 0).chained();
    writer.header(&header).map_err(write_err)?;
    // The chain of the whole run, recomputed over the merged rows: that of a single run.
    // Version 2 (per-block win counts): with rows, the counts are taken from the merged
    // rows (checked above against each shard's chain or whole-file hash), so the merge is
    // the same whatever the versions of its shards; without rows, from the shards' blocks
    // when every shard's chain has them (each block of the merge is made of whole blocks
    // of the shards: shards start at multiples of the runner's block, chain blocks at
    // multiples of the chunk), else version 1.
    let version = if kind != GamesFile::None
        || shards.iter().all(|s| {
            s.checkpoint
                .chain
                .as_ref()
                .is_some_and(|c| c.version >= super::chain::VERSION)
        }) {
        super::chain::VERSION
    } else {
        super::chain::VERSION_V1
    };
    let (seed, rows) = prepared.chain_seed(version, &config_hash, kind);
    let mut chain = super::chain::ChainBuilder::new(
        (version, seed),
        rows,
        (0, prepared.t.games),
        prepared.cells(),
    );
    if kind != GamesFile::None {
        chain.count_rows(&prepared.agent_labels, prepared.t.plan.rules.players());
    } else {
        for s in shards {
            for b in s.checkpoint.chain.iter().flat_map(|c| &c.blocks) {
                chain.tallies(b.first, &b.tallies);
            }
        }
    }
    if kind != GamesFile::None {
        for s in shards {
            copy_rows(s, &header, players, (&mut writer, &mut chain), &write_err)?;
        }
    } else {
        let mut failed = failures.iter().map(|f| f.game).peekable();
        for g in 0..prepared.t.games {
            chain.game(g, failed.next_if_eq(&g).is_some());
        }
    }
    chain.finish();
    writer.finish().map_err(write_err)?;
    let games_mark = writer.mark();
    drop(writer);
    prepared.write_label_files(&mut out)?;
    prepared.write_tables(&mut out, &stats, &failures)?;
    let sealed = prepared
        .final_checkpoint(
            &config_hash,
            &stats,
            &failures,
            games_mark,
            Some(chain.chain()),
        )
        .save(dir)?;
    out.record_chain(sealed.chain.as_ref().map(super::chain::Chain::summary));
    let files = out.commit()?;
    Ok(MergeReport {
        out: dir.to_path_buf(),
        shards: count,
        games: prepared.t.games,
        failures: failures.len(),
        files,
        games_file: kind,
        command: prepared.config.command.clone(),
    })
}

/// Streams the rows of shard `s` into `writer`, checking every line against the shard's
/// checkpoint (see the module docs).
fn copy_rows(
    s: &ShardDir,
    header: &[u8],
    players: u64,
    (writer, chain): (&mut GamesWriter, &mut ChainBuilder),
    write_err: &dyn Fn(io::Error) -> MergeError,
) -> Result<(), MergeError> {
    let name = s
        .games_file
        .file_name()
        .expect("shards without games were refused");
    let path = s.dir.join(name);
    let bad = |problem: String| shard_err(&s.dir, format!("{name}: {problem}"));
    let file = File::open(&path).map_err(|e| bad(e.to_string()))?;
    let size = file.metadata().map_err(|e| bad(e.to_string()))?.len();
    if size != s.checkpoint.games_bytes {
        return Err(bad(format!(
            "it holds {size} bytes but the shard's {} says {}: it is truncated or was \
             changed after the run",
            checkpoint::FILE,
            s.checkpoint.games_bytes
        )));
    }
    let reader: Box<dyn Read> = match s.games_file {
        GamesFile::Gz => Box::new(flate2::read::MultiGzDecoder::new(BufReader::new(file))),
        _ => Box::new(file),
    };
    let mut lines = RowReader::new(BufReader::with_capacity(1 << 18, reader));
    let rows = Rows {
        games: (s.shard.start, s.shard.end),
        failures: &s.checkpoint.failures,
        header,
        players,
    };
    copy_checked(&mut lines, &rows, (writer, Some(chain)), &bad, write_err)?;
    // Rows that pass every check above may still have been edited (a changed score): the
    // file must be the one the shard's sealed checkpoint describes. Checked after the rows
    // (whose messages say more) by reading the file again, from the page cache.
    if !s.checkpoint.games_sha256.is_empty() {
        let (_, sha) =
            super::games_file::hash_prefix(&path, size).map_err(|e| bad(e.to_string()))?;
        if sha != s.checkpoint.games_sha256 {
            return Err(bad(format!(
                "it does not match the SHA-256 in the shard's {}: its rows were edited \
                 after the run; rerun the shard",
                checkpoint::FILE
            )));
        }
    }
    Ok(())
}

/// The rows a shard's games file must hold: a header, then every seat of each game of
/// `games` in order, except the failed games.
struct Rows<'a> {
    games: (u64, u64),
    failures: &'a [Failure],
    header: &'a [u8],
    players: u64,
}

/// Reads lines (with their newline) from a reader, numbering them.
struct RowReader<R> {
    inner: R,
    line: Vec<u8>,
    number: u64,
}

impl<R: BufRead> RowReader<R> {
    fn new(inner: R) -> Self {
        RowReader {
            inner,
            line: Vec::with_capacity(512),
            number: 0,
        }
    }

    /// The next line, `None` at the end; an error names a line without its newline.
    fn next(&mut self) -> Result<Option<&[u8]>, String> {
        self.line.clear();
        let n = self
            .inner
            .read_until(b'\n', &mut self.line)
            .map_err(|e| format!("cannot be read after line {}: {e}", self.number))?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        if self.line.last() != Some(&b'\n') {
            return Err(format!(
                "line {} has no end of line: the file is truncated",
                self.number
            ));
        }
        Ok(Some(&self.line))
    }
}

/// The leading unsigned integer field of `line` at field `field` (0-based).
fn field_u64(line: &[u8], field: usize) -> Option<u64> {
    let f = line.split(|&b| b == b',').nth(field)?;
    std::str::from_utf8(f).ok()?.parse().ok()
}

fn copy_checked<R: BufRead>(
    lines: &mut RowReader<R>,
    rows: &Rows<'_>,
    (writer, mut chain): (&mut GamesWriter, Option<&mut ChainBuilder>),
    bad: &dyn Fn(String) -> MergeError,
    write_err: &dyn Fn(io::Error) -> MergeError,
) -> Result<(), MergeError> {
    let &Rows {
        games: (start, end),
        failures,
        header,
        players,
    } = rows;
    match lines.next().map_err(bad)? {
        Some(h) if h == header => {}
        Some(_) => {
            return Err(bad(
                "its header is not that of this run's games.csv (another game or version)".into(),
            ));
        }
        None => return Err(bad("it is empty (no header): truncated".into())),
    }
    let commas = header.iter().filter(|&&b| b == b',').count();
    let mut fails = failures.iter().map(|f| f.game).peekable();
    for game in start..end {
        if fails.peek() == Some(&game) {
            fails.next();
            if let Some(c) = chain.as_deref_mut() {
                c.game(game, true);
            }
            continue;
        }
        for seat in 0..players {
            let number = lines.number + 1;
            let Some(line) = lines.next().map_err(bad)? else {
                return Err(bad(format!(
                    "it ends at line {number}, before the row of game {game} seat {seat} \
                     (the shard's games end at {end}): truncated"
                )));
            };
            if line.iter().filter(|&&b| b == b',').count() != commas {
                return Err(bad(format!(
                    "line {number} has {} fields, the header {}: a malformed line",
                    line.iter().filter(|&&b| b == b',').count() + 1,
                    commas + 1
                )));
            }
            if field_u64(line, 0) != Some(game) || field_u64(line, 3) != Some(seat) {
                return Err(bad(format!(
                    "line {number} is not the row of game {game} seat {seat}: rows missing, \
                     reordered or of another run"
                )));
            }
            writer.rows(game, line).map_err(write_err)?;
            if let Some(c) = chain.as_deref_mut() {
                c.rows(line);
            }
        }
        if let Some(c) = chain.as_deref_mut() {
            c.game(game, false);
        }
    }
    if lines.next().map_err(bad)?.is_some() {
        return Err(bad(format!(
            "line {} is past the shard's last game {}: extra rows",
            lines.number,
            end.saturating_sub(1)
        )));
    }
    Ok(())
}

/// Checks the games file of a shard directory against its checkpoint without writing
/// anything (used by the fuzz tests of the merge reader): `Ok` if `sim merge` would
/// accept its rows.
///
/// # Errors
/// The [`MergeError::Shard`] naming the problem.
pub fn check_games_bytes(
    bytes: &[u8],
    gz: bool,
    header: &[u8],
    players: u64,
    start: u64,
    end: u64,
) -> Result<(), MergeError> {
    let bad = |problem: String| shard_err(Path::new("(bytes)"), problem);
    let reader: Box<dyn Read + '_> = if gz {
        Box::new(flate2::read::MultiGzDecoder::new(bytes))
    } else {
        Box::new(bytes)
    };
    let mut lines = RowReader::new(BufReader::new(reader));
    let mut sink = GamesWriter::new(GamesFile::None, None, 0, 0);
    let rows = Rows {
        games: (start, end),
        failures: &[],
        header,
        players,
    };
    // A `GamesFile::None` writer never fails to write.
    let write_err = |e: io::Error| MergeError::Output(OutputError::write("(none)", e));
    copy_checked(&mut lines, &rows, (&mut sink, None), &bad, &write_err)
}
