//! Output directories whose files appear all at once, owned by one run through a manifest:
//! the one writer behind every command that writes files (`sim tournament`, `sim
//! experiment`, `sim solve`).
//!
//! Every file of an [`OutputDir`] is written as `NAME.partial` and renamed to `NAME` only by
//! [`OutputDir::commit`], after the whole run succeeded, in the order the files were
//! created. By convention the last file created is the record of the run (`config.toml`,
//! `experiment.toml`): any stale copy of it is removed before the renames and it is renamed
//! last, so a directory holding it holds a complete, consistent set of files from one run.
//!
//! - A run that fails (an error return, a panic that unwinds) drops its [`OutputDir`]
//!   uncommitted, which removes its partial files: nothing incomplete is left behind.
//! - A file with its final name is always complete.
//! - Files are not `fsync`ed: the promise is about failed and killed runs, not about a
//!   crash of the operating system, and syncing a multi-gigabyte `games.csv` would cost
//!   seconds.
//!
//! # The commit protocol: consistent after a kill at any step
//! Every change to the directory is one of: creating or writing a `NAME.partial` file,
//! writing a small file atomically ([`write_atomically`]: a `.NAME.tmp` renamed over it;
//! the manifest, `checkpoint.json`), renaming a partial file to its final name, or removing
//! a file. A run goes through these states, each of which a kill (at any instruction) may
//! leave behind, and each of which is recognised:
//! 1. no manifest (the lock, or the claim, not yet done): the previous state; nothing of a
//!    run is there, a new run starts afresh;
//! 2. manifest `running` or `interrupted`, partial files, perhaps a checkpoint: `--resume`
//!    continues from the checkpoint (the games file is cut back to the checkpoint's length
//!    and checked against its SHA-256), or from the first game without one;
//! 3. manifest `running`, the commit under way: some files renamed, the rest partial (the
//!    commit starts only when every file is complete and the final checkpoint is written).
//!    `--resume` returns the renamed files to their partial names (`uncommit`, the record
//!    first, so no record ever stands beside partial files) and continues as in 2, which
//!    replays nothing (the checkpoint is final) and commits again;
//! 4. manifest `complete`: every file final; `--resume` says so and plays nothing.
//!
//! The record of the run (`config.toml`, `experiment.toml`, [`RECORDS`]) is renamed last,
//! so a directory holding it holds every other file with its final name. A debug build
//! kills itself at the K-th of these steps when `SIM_KILL_AT_STEP=K` ([`step`]); the tests
//! kill a tournament, a shard and an experiment sweep at every step in turn and check that
//! each directory left behind resumes, or is complete, to byte-identical files.
//!
//! # Ownership: `manifest.json`
//! A directory opened with [`OutputDir::claim`] belongs to one run, recorded in
//! [`MANIFEST`] (a [`Manifest`]: program version, kind of run, the command, the
//! configuration and its SHA-256, the state `running` / `interrupted` / `complete` /
//! `failed`, and the files the run owns). The manifest is written (atomically: a temporary
//! file renamed over it) before the first output file, so a directory is never without a
//! record of who is writing it; it says `complete` only after every file has its final
//! name. Claiming a directory that holds files:
//! - of a run with the same kind and configuration that is `complete`: set aside until the
//!   rerun commits (see reruns below); `failed`: its files are removed first;
//! - of an unfinished run (`running`: still running or killed; `interrupted`) of the same
//!   configuration: refused, pointing at `--resume DIR` and `--overwrite`;
//! - of another run (another configuration or command), or without a manifest (an older
//!   version of `sim`): refused with [`OutputError::Occupied`] naming the files, unless
//!   `overwrite`: a complete run (or files without a manifest) is set aside until the new
//!   run commits (see reruns below), an unfinished or failed one is removed first;
//! - that no `sim` command writes (not in the manifest nor in [`KNOWN_OUTPUTS`]): always
//!   refused, naming them: `sim` never deletes files it did not write.
//!
//! # One run at a time: the lock
//! [`OutputDir::claim`] and [`OutputDir::resume`] first take an exclusive advisory lock
//! ([`DirLock`]: `flock` through the `fs4` crate) on [`LOCK`] in the directory and hold
//! it for the life of the run, before they read the manifest or remove anything. A second
//! run, resume or overwrite of the same directory fails at once with
//! [`OutputError::Busy`] (bad input), naming the pid and start time of the run that holds
//! it. The operating system releases the lock when its process ends, however it ends, so
//! the lock of a killed run is stale by construction and the next run simply takes it
//! over. The lock file holds the owner's pid and start time and is removed when the run
//! ends (after checking that the path still names the file that was locked, so that two
//! runs can never both believe they hold it).
//!
//! # Reruns: the old run stays whole until the new one commits
//! A run claiming a directory that holds a complete run (a rerun of the same
//! configuration, or another one with `overwrite`, or the files of a version without
//! manifests) does not remove it: it moves that run's files, then its manifest, into
//! [`PREVIOUS`] (`.sim-previous`, renames within the directory), and writes its own
//! manifest with `replacing: true`. The old run is thus never damaged before the new one
//! has something better to write:
//! - the new run fails (an error, a panic): its files are removed and the old run is moved
//!   back, its manifest last;
//! - the new run is killed or interrupted: the old run waits in [`PREVIOUS`]; `--resume`
//!   continues the new run, `--overwrite` (or a claim after a kill during the set-aside,
//!   before the new manifest) puts the old run back first;
//! - the new run commits: its manifest says `complete` and lists in `kept` the old files
//!   it did not write again, which go back into the directory (never removed: a
//!   `report.md` that an experiment rerun does not regenerate stays); the other old files
//!   are removed with [`PREVIOUS`]. A kill during this is finished by the next claim or
//!   resume ([`recover_rerun`]).
//!
//! A full disk needs no space to set a run aside (renames), and a rerun stopped by one
//! keeps the old run in [`PREVIOUS`] and its own progress for `--resume`.
//!
//! Names starting with `.` (`.gitignore`, the lock, [`PREVIOUS`]) are left alone. [`OutputDir::resume`] reopens an
//! `interrupted` (or killed, `running`) run of the same configuration, refusing another
//! configuration by naming the differing fields ([`config_differences`]).
//!
//! Errors say which file failed. The first file created doubles as the check that the
//! directory is writable, so a failure there is [`OutputError::Dir`]: bad input for the
//! CLI (exit 2), reported before any work when the caller creates its files up front.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The name of the ownership record of a directory (see the module docs).
pub const MANIFEST: &str = "manifest.json";

/// The `format` field of every manifest.
pub const MANIFEST_FORMAT: &str = "tabletop-sim manifest v1";

/// Every file or directory name a `sim` command writes in its output directory, besides
/// `NAME.partial` files and the manifest. Found without a manifest (a directory written by
/// an older version), these may be replaced with `--overwrite`; any other name is never
/// touched.
pub const KNOWN_OUTPUTS: &[&str] = &[
    // sim tournament
    "games.csv",
    "games.csv.gz",
    "agents.csv",
    "variants.csv",
    "summary.csv",
    "seats.csv",
    "agent_seats.csv",
    "seat_test.csv",
    "metrics.csv",
    "ends.csv",
    "labels.csv",
    "errors.csv",
    "config.toml",
    "checkpoint.json",
    // sim experiment
    "experiment.toml",
    "experiment-checkpoint.json",
    "pairs.csv",
    "ladder.csv",
    "sweep.csv",
    "sweep_seats.csv",
    "endgame.csv",
    "positions.csv",
    "cells",
    "pairs",
    "report.html",
    "report.md",
    // sim solve
    "strategy.csv",
    "curve.csv",
    // sim skill, sim balance (recorded by `record_run`)
    "skill.csv",
    "probes.csv",
    "recommendation.csv",
    "spec.toml",
    "command.txt",
];

/// The lock file of an output directory (see the module docs); its name starts with `.`,
/// so it is never taken for a file of a run.
pub const LOCK: &str = ".sim.lock";

/// Why an output file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// Another live `sim` process holds the directory's lock (bad input: two runs must not
    /// write one directory).
    #[error(
        "the output directory '{}' is in use by another sim run ({holder}): wait for it to \
         end, or stop it (kill -INT with its pid saves its progress for --resume); two runs \
         never write one directory",
        path.display()
    )]
    Busy {
        /// The directory.
        path: PathBuf,
        /// Who holds the lock: `pid N, started YYYY-MM-DD HH:MM:SS UTC`.
        holder: String,
    },
    /// The directory cannot be created, or no file can be created in it (bad input: the
    /// user chose an unusable `--out`).
    #[error("cannot write to the output directory '{}': {error}", path.display())]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The I/O error (part of the message, not a separate source).
        error: io::Error,
    },
    /// The directory holds files this run may not replace (bad input; see the module docs).
    #[error("the output directory '{}' {reason}", path.display())]
    Occupied {
        /// The directory.
        path: PathBuf,
        /// Which files, whose they are and what would be valid.
        reason: String,
    },
    /// The directory cannot be resumed (bad input): no manifest, another command or
    /// configuration (naming the differing fields), or a complete run.
    #[error("cannot resume '{}': {reason}", path.display())]
    Resume {
        /// The directory.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Writing, flushing or renaming one file failed (a failure of the run).
    #[error("writing '{}' failed: {error}", path.display())]
    Write {
        /// The file, by its final name.
        path: PathBuf,
        /// The I/O error (part of the message, not a separate source).
        error: io::Error,
    },
}

impl OutputError {
    /// Whether the error is the user's input (an unusable or occupied output directory, a
    /// directory that cannot be resumed) rather than a failure during the run.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            OutputError::Dir { .. }
                | OutputError::Occupied { .. }
                | OutputError::Resume { .. }
                | OutputError::Busy { .. }
        )
    }

    /// A [`OutputError::Write`] for `path`.
    pub fn write(path: impl Into<PathBuf>, error: io::Error) -> Self {
        OutputError::Write {
            path: path.into(),
            error,
        }
    }
}

/// The state of the run that owns a directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    /// Started and not finished: still running, or killed (`kill -9`, a crash).
    Running,
    /// Stopped by SIGINT or SIGTERM after saving its progress: `--resume DIR` continues it.
    Interrupted,
    /// Every file has its final name.
    Complete,
    /// Stopped by an error; its partial files were removed.
    Failed,
}

impl RunState {
    fn name(self) -> &'static str {
        match self {
            RunState::Running => "running",
            RunState::Interrupted => "interrupted",
            RunState::Complete => "complete",
            RunState::Failed => "failed",
        }
    }
}

/// The contents of `manifest.json` (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_FORMAT`].
    pub format: String,
    /// `tabletop-sim`.
    pub program: String,
    /// The crate version of the run.
    pub version: String,
    /// The kind of run: `tournament`, `experiment`, `solve`.
    pub kind: String,
    /// The command that reruns it.
    pub command: String,
    /// SHA-256 (hex) of the compact JSON of `config`.
    pub config_hash: String,
    /// The configuration (everything that determines the results; not `--threads`).
    pub config: serde_json::Value,
    /// Where the run is.
    pub state: RunState,
    /// The process that wrote the state (for `running`: whether it may still be alive).
    pub pid: u32,
    /// The names of the files and directories of the run in the directory, sorted (with
    /// their `.partial` suffix while they are partial).
    pub files: Vec<String>,
    /// For a shard of a tournament (`--shard i/n`): which shard and its game range;
    /// `config_hash` is then that of the whole run. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
    /// How a tournament's games were written when not as `games.csv`: `gz`
    /// (`games.csv.gz`) or `none` (no games file). Absent for `games.csv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_file: Option<String>,
    /// For the output of `sim merge`: the shard directories it combined, in shard order.
    /// Absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    /// For a complete tournament (a whole run, a shard or a merge): the checksum chain of
    /// its rows and tallies as `checkpoint.json` records it (version, block size, number of
    /// blocks, head; [`crate::tournament::chain`]), which `sim verify` compares with the
    /// checkpoint's. Absent for other runs and for runs of versions without the chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<crate::tournament::chain::ChainSummary>,
    /// For a tournament (a whole run or a shard), and for an experiment of kind
    /// `tournament` (whose tournament writes its checkpoint beside this manifest): the
    /// version of the checksum chain that its `checkpoint.json` carries, recorded from the
    /// run's start, so that `--resume` of an unfinished run (whose manifest has no
    /// [`Manifest::chain`] yet), `sim merge` and `sim verify` refuse a checkpoint whose
    /// chain was removed or downgraded instead of checking it with the older format's
    /// checks. Absent for other runs and for runs of versions that did not record it (a
    /// resumed one keeps what it began with).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_version: Option<u32>,
    /// Whether this run replaces a complete run whose files wait in [`PREVIOUS`] until this
    /// one commits (see the module docs on reruns).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replacing: bool,
    /// Files of an earlier run that this run did not write again: left in place, never
    /// removed (see the module docs on reruns). Not in `files`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<String>,
    /// For a run recorded by [`record_run`] (`sim skill`, `sim balance`, `sim design`) or
    /// committed with [`OutputDir::record_hashes`] (`sim experiment`, its tournaments under
    /// `cells/` and `pairs/` file by file): the SHA-256 (hex) of each of its files, by path
    /// relative to the directory, which `sim verify DIR` checks. Empty otherwise (and in
    /// experiment folders written before experiments recorded hashes: the older format,
    /// which `sim verify` reports as such).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub hashes: std::collections::BTreeMap<String, String>,
}

/// Who claims a directory: the kind of run, its rerun command and its configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Owner {
    /// `tournament`, `experiment`, `solve`.
    pub kind: String,
    /// The command that reruns the run.
    pub command: String,
    /// Everything that determines the results (compared field by field on resume).
    pub config: serde_json::Value,
    /// The shard of a sharded tournament ([`Manifest::shard`]).
    pub shard: Option<ShardInfo>,
    /// How the games are written, when not as `games.csv` ([`Manifest::games_file`]).
    pub games_file: Option<String>,
    /// The directories a merge combined ([`Manifest::merged_from`]).
    pub merged_from: Vec<String>,
    /// The version of the checksum chain the run writes ([`Manifest::chain_version`]).
    pub chain_version: Option<u32>,
}

impl Owner {
    /// An owner of `kind` with this command and configuration (any serializable value).
    ///
    /// # Panics
    /// If `config` cannot be represented as JSON (a map with non-string keys).
    pub fn new(kind: &str, command: String, config: &impl Serialize) -> Self {
        Owner {
            kind: kind.to_string(),
            command,
            config: serde_json::to_value(config).expect("configurations serialize to JSON"),
            shard: None,
            games_file: None,
            merged_from: Vec::new(),
            chain_version: None,
        }
    }

    /// The differences, other than in the configuration, between the run `m` records and
    /// this owner's: the shard and the games file, as `field: then in the directory, now
    /// now`. Empty when the two are the same run.
    pub fn other_differences(&self, m: &Manifest) -> Vec<String> {
        let mut out = Vec::new();
        let shard =
            |s: &Option<ShardInfo>| s.map_or("none (the whole run)".to_string(), |s| s.to_string());
        if m.shard != self.shard {
            out.push(format!(
                "shard: {} in the directory, {} now",
                shard(&m.shard),
                shard(&self.shard)
            ));
        }
        if m.games_file != self.games_file {
            let g = |g: &Option<String>| g.clone().unwrap_or_else(|| "csv".into());
            out.push(format!(
                "games: {} in the directory, {} now",
                g(&m.games_file),
                g(&self.games_file)
            ));
        }
        out
    }

    /// SHA-256 (hex) of the compact JSON of the configuration (object keys sorted).
    pub fn config_hash(&self) -> String {
        hash_hex(self.config.to_string().as_bytes())
    }
}

fn hash_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The fields in which configuration `now` differs from `then`, as `path: <then> in the
/// directory, <now> now` (nested objects by dotted path; at most 8, then `...`).
pub fn config_differences(then: &serde_json::Value, now: &serde_json::Value) -> Vec<String> {
    config_differences_labelled(then, now, ("in the directory", "now"))
}

/// [`config_differences`] with the words after each side's value: `path: <then>
/// <labels.0>, <now> <labels.1>`.
pub fn config_differences_labelled(
    then: &serde_json::Value,
    now: &serde_json::Value,
    labels: (&str, &str),
) -> Vec<String> {
    fn walk(
        path: &str,
        a: Option<&serde_json::Value>,
        b: Option<&serde_json::Value>,
        labels: (&str, &str),
        out: &mut Vec<String>,
    ) {
        use serde_json::Value;
        match (a, b) {
            (Some(Value::Object(x)), Some(Value::Object(y))) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort();
                keys.dedup();
                for k in keys {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(&p, x.get(k), y.get(k), labels, out);
                }
            }
            (x, y) if x == y => {}
            (x, y) => {
                let show = |v: Option<&Value>| v.map_or("(absent)".to_string(), Value::to_string);
                out.push(format!(
                    "{path}: {} {}, {} {}",
                    show(x),
                    labels.0,
                    show(y),
                    labels.1
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk("", Some(then), Some(now), labels, &mut out);
    if out.len() > 8 {
        out.truncate(8);
        out.push("...".into());
    }
    out
}

/// Reads the manifest of `dir`: `Ok(None)` if there is none.
///
/// # Errors
/// [`OutputError::Occupied`] if it exists but cannot be read or parsed.
pub fn read_manifest(dir: &Path) -> Result<Option<Manifest>, OutputError> {
    let path = dir.join(MANIFEST);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(OutputError::Occupied {
                path: dir.to_path_buf(),
                reason: format!("has a {MANIFEST} that cannot be read: {e}"),
            });
        }
    };
    match serde_json::from_str::<Manifest>(&text) {
        Ok(m) if m.format == MANIFEST_FORMAT => Ok(Some(m)),
        Ok(m) => Err(OutputError::Occupied {
            path: dir.to_path_buf(),
            reason: format!(
                "has a {MANIFEST} of format '{}'; this version reads '{MANIFEST_FORMAT}'",
                m.format
            ),
        }),
        Err(e) => Err(OutputError::Occupied {
            path: dir.to_path_buf(),
            reason: format!("has a corrupt {MANIFEST} ({e}); remove it to reuse the directory"),
        }),
    }
}

/// The names in `dir` that belong to runs (not starting with `.`, not the manifest, not a
/// temporary manifest), sorted; empty if `dir` does not exist.
fn entries(dir: &Path) -> Result<Vec<String>, OutputError> {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => {
            return Err(OutputError::Dir {
                path: dir.to_path_buf(),
                error,
            });
        }
    };
    let mut names = Vec::new();
    for e in rd {
        let e = e.map_err(|error| OutputError::Dir {
            path: dir.to_path_buf(),
            error,
        })?;
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && name != MANIFEST {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// Whether `name` is something a `sim` run writes (see [`KNOWN_OUTPUTS`]).
fn is_known_output(name: &str) -> bool {
    let base = name.strip_suffix(".partial").unwrap_or(name);
    KNOWN_OUTPUTS.contains(&base) || name.ends_with(".partial")
}

fn remove_entry(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// `a, b, c` (at most 12 names, then how many more).
fn list(names: &[String]) -> String {
    if names.len() > 12 {
        format!("{} and {} more", names[..12].join(", "), names.len() - 12)
    } else {
        names.join(", ")
    }
}

/// A directory whose files are written as `NAME.partial` and renamed together on
/// [`OutputDir::commit`] (see the module docs); dropped uncommitted, it removes its partial
/// files. Opened with [`OutputDir::claim`] or [`OutputDir::resume`], it owns the directory
/// through its manifest.
#[derive(Debug)]
pub struct OutputDir {
    dir: PathBuf,
    /// (partial path, final path), in creation order.
    files: Vec<(PathBuf, PathBuf)>,
    committed: bool,
    /// The manifest this run keeps up to date (`None`: a directory inside one that another
    /// [`OutputDir`] owns, [`OutputDir::create`]).
    manifest: Option<Manifest>,
    /// The directory's lock, held until this value is dropped (after the last manifest
    /// write: fields drop after [`Drop::drop`]). `None` for [`OutputDir::create`].
    _lock: Option<DirLock>,
    /// Set when writing failed in a way that a resume can get past (a full disk, an I/O
    /// error): dropped uncommitted, the directory keeps its partial files and checkpoint
    /// and says `interrupted` instead of removing them ([`OutputDir::keep_flag`]).
    keep: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Whether the commit records the SHA-256 of every file of the run in the manifest
    /// ([`OutputDir::record_hashes`]).
    hash_files: bool,
}

impl OutputDir {
    /// Creates the directory (and its parents) if needed, without a manifest: for files
    /// written into a directory that another [`OutputDir`] of the same run has claimed.
    /// Nothing is written yet.
    ///
    /// # Errors
    /// [`OutputError::Dir`] if the directory cannot be created.
    pub fn create(dir: &Path) -> Result<Self, OutputError> {
        fs::create_dir_all(dir).map_err(|error| OutputError::Dir {
            path: dir.to_path_buf(),
            error,
        })?;
        Ok(OutputDir {
            dir: dir.to_path_buf(),
            files: Vec::new(),
            committed: false,
            manifest: None,
            _lock: None,
            keep: Default::default(),
            hash_files: false,
        })
    }

    /// Claims `dir` for a new run of `owner` (see the module docs for when a directory
    /// holding files may be reused), removes the files of the run it replaces, and writes
    /// the manifest in state `running`.
    ///
    /// # Errors
    /// [`OutputError::Occupied`] naming the files when the directory may not be reused;
    /// [`OutputError::Dir`] if it cannot be created or written.
    pub fn claim(dir: &Path, owner: &Owner, overwrite: bool) -> Result<Self, OutputError> {
        let lock = DirLock::acquire(dir)?;
        recover_rerun(dir)?;
        if overwrite && previous_state(dir) == Previous::Unfinished {
            // A rerun that never finished: its files go, the run it replaced comes back.
            restore_previous(dir, true)?;
        }
        let old = read_manifest(dir);
        let names = entries(dir)?;
        let foreign: Vec<String> = names
            .iter()
            .filter(|n| {
                !is_known_output(n)
                    && !matches!(&old, Ok(Some(m)) if m.files.iter().chain(&m.kept).any(|f| f == *n))
            })
            .cloned()
            .collect();
        let occupied = |reason: String| OutputError::Occupied {
            path: dir.to_path_buf(),
            reason,
        };
        if !foreign.is_empty() {
            return Err(occupied(format!(
                "holds files that no sim run wrote: {}; move them away or choose another \
                 --out (sim never removes files it did not write)",
                list(&foreign)
            )));
        }
        let hash = owner.config_hash();
        let corrupt = old.is_err();
        let old = match old {
            Ok(m) => m,
            Err(_) if overwrite => None,
            Err(e) => return Err(e),
        };
        if !overwrite && (old.is_some() || !names.is_empty()) {
            match &old {
                Some(m)
                    if m.kind == owner.kind
                        && m.config_hash == hash
                        && owner.other_differences(m).is_empty() =>
                {
                    match m.state {
                        RunState::Complete | RunState::Failed => {}
                        RunState::Running | RunState::Interrupted => {
                            let previous = if m.replacing {
                                format!(
                                    " (the complete run it replaces waits in {PREVIOUS} until \
                                     it commits; --overwrite puts it back first)"
                                )
                            } else {
                                String::new()
                            };
                            return Err(occupied(format!(
                                "holds an unfinished run of the same configuration (state {}): \
                             continue it with `--resume {}`, or start over with \
                             --overwrite{previous}",
                                m.state.name(),
                                dir.display()
                            )));
                        }
                    }
                }
                Some(m) => {
                    let what = if m.kind == owner.kind {
                        let mut diff = config_differences(&m.config, &owner.config);
                        diff.extend(owner.other_differences(m));
                        format!("another {} (differing: {})", m.kind, diff.join("; "))
                    } else {
                        format!("a {} run", m.kind)
                    };
                    return Err(occupied(format!(
                        "holds the files of {what}: {} (its command: {}); choose another \
                         --out, or pass --overwrite to remove them first",
                        list(&names),
                        m.command
                    )));
                }
                None => {
                    return Err(occupied(format!(
                        "holds files of a run without a {MANIFEST} (an older version of sim, \
                         or another command): {}; choose another --out, or pass --overwrite \
                         to remove them first",
                        list(&names)
                    )));
                }
            }
        }
        fs::create_dir_all(dir).map_err(|error| OutputError::Dir {
            path: dir.to_path_buf(),
            error,
        })?;
        // A complete run (or the files of a version without manifests) is set aside whole
        // until this run commits; anything else (an unfinished or failed run) is removed.
        let complete = match &old {
            Some(m) => m.state == RunState::Complete,
            None => !corrupt,
        };
        let replacing = complete && !names.is_empty();
        if replacing {
            set_aside(dir, &names)?;
        } else {
            for n in &names {
                step("remove an old file");
                remove_entry(&dir.join(n)).map_err(|e| OutputError::write(dir.join(n), e))?;
            }
        }
        let mut out = OutputDir {
            dir: dir.to_path_buf(),
            files: Vec::new(),
            committed: false,
            _lock: Some(lock),
            keep: Default::default(),
            hash_files: false,
            manifest: Some(Manifest {
                format: MANIFEST_FORMAT.into(),
                program: env!("CARGO_PKG_NAME").into(),
                version: env!("CARGO_PKG_VERSION").into(),
                kind: owner.kind.clone(),
                command: owner.command.clone(),
                config_hash: hash,
                config: owner.config.clone(),
                state: RunState::Running,
                pid: std::process::id(),
                files: Vec::new(),
                shard: owner.shard,
                games_file: owner.games_file.clone(),
                merged_from: owner.merged_from.clone(),
                chain: None,
                chain_version: owner.chain_version,
                replacing,
                kept: Vec::new(),
                hashes: Default::default(),
            }),
        };
        // The manifest is the first file: also the check that the directory is writable.
        // If it cannot be written, the run it would replace goes back.
        if let Err(e) = out.save_manifest(RunState::Running) {
            if replacing {
                // Nothing of this run to remove: dropping it must not touch the old run.
                out.committed = true;
                let _ = restore_previous(dir, false);
            }
            return Err(match e {
                OutputError::Write { error, .. } => OutputError::Dir {
                    path: dir.to_path_buf(),
                    error,
                },
                e => e,
            });
        }
        Ok(out)
    }

    /// Reopens `dir` to continue an unfinished run of `owner` (state `interrupted`, or
    /// `running` after a kill): its partial files stay (see [`OutputDir::reopen_file`]),
    /// the manifest says `running` again. Returns the directory and the old manifest.
    ///
    /// # Errors
    /// [`OutputError::Resume`] if `dir` has no manifest, holds another kind of run or
    /// another configuration (naming the differing fields), or a complete run.
    pub fn resume(dir: &Path, owner: &Owner) -> Result<(Self, Manifest), OutputError> {
        let bad = |reason: String| OutputError::Resume {
            path: dir.to_path_buf(),
            reason,
        };
        if !dir.is_dir() {
            return Err(bad("no such directory".into()));
        }
        let lock = DirLock::acquire(dir)?;
        recover_rerun(dir)?;
        let old = match read_manifest(dir) {
            Ok(Some(m)) => m,
            Ok(None) => {
                return Err(bad(format!(
                    "it has no {MANIFEST}: it holds no run that can be resumed"
                )));
            }
            Err(e) => return Err(bad(e.to_string())),
        };
        if old.kind != owner.kind {
            return Err(bad(format!(
                "it holds a {} run, not a {} (its command: {})",
                old.kind, owner.kind, old.command
            )));
        }
        if old.config_hash != owner.config_hash() {
            let diff = config_differences(&old.config, &owner.config);
            return Err(bad(format!(
                "the configuration differs from the run in the directory: {}",
                diff.join("; ")
            )));
        }
        let other = owner.other_differences(&old);
        if !other.is_empty() {
            return Err(bad(format!(
                "the run in the directory differs: {}",
                other.join("; ")
            )));
        }
        match old.state {
            RunState::Running | RunState::Interrupted => {}
            RunState::Complete => {
                return Err(bad("its run is complete: there is nothing to resume".into()));
            }
            RunState::Failed => {
                return Err(bad(
                    "its run failed and removed its partial files: rerun it instead".into(),
                ));
            }
        }
        uncommit(dir)?;
        let mut out = OutputDir {
            dir: dir.to_path_buf(),
            files: Vec::new(),
            committed: false,
            _lock: Some(lock),
            keep: Default::default(),
            hash_files: false,
            manifest: Some(Manifest {
                state: RunState::Running,
                pid: std::process::id(),
                chain: None,
                ..old.clone()
            }),
        };
        out.save_manifest(RunState::Running)?;
        Ok((out, old))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A flag that, once set (by a writer that failed: a full disk, an I/O error), makes
    /// this directory, if dropped uncommitted, keep its partial files and checkpoint for
    /// `--resume` and record the state `interrupted`, instead of removing them: the
    /// progress up to the last checkpoint is not lost to a full disk.
    pub fn keep_flag(&self) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        self.keep.clone()
    }

    /// Makes the commit record the SHA-256 of every file of the run in the manifest
    /// ([`Manifest::hashes`], by path relative to the directory: the files inside its
    /// subdirectories too, such as the tournaments under `cells/` and `pairs/` of `sim
    /// experiment`), so that `sim verify DIR` can check each one. No effect without a
    /// manifest.
    pub fn record_hashes(&mut self) {
        self.hash_files = true;
    }

    /// Records the checksum chain of the run's rows and tallies in the manifest
    /// ([`Manifest::chain`]), written with the state `complete` by [`OutputDir::commit`].
    pub fn record_chain(&mut self, chain: Option<crate::tournament::chain::ChainSummary>) {
        if let Some(m) = &mut self.manifest {
            m.chain = chain;
        }
    }

    /// The final path of file `name` (for error messages).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Writes the manifest (if this directory has one) in `state`, listing the run's
    /// entries of the directory, atomically (a temporary file renamed over it).
    fn save_manifest(&mut self, state: RunState) -> Result<(), OutputError> {
        let Some(m) = &mut self.manifest else {
            return Ok(());
        };
        m.state = state;
        m.files = entries(&self.dir)?;
        let text = serde_json::to_string_pretty(m).expect("a manifest serializes") + "\n";
        write_atomically(&self.dir.join(MANIFEST), text.as_bytes())
    }

    /// Creates (or truncates) `NAME.partial` and registers `name` for the commit. Creating
    /// a name again truncates its partial file and keeps its place in the commit order.
    ///
    /// # Errors
    /// [`OutputError::Dir`] if this is the directory's first file (the writability check),
    /// [`OutputError::Write`] otherwise.
    pub fn create_file(&mut self, name: &str) -> Result<File, OutputError> {
        step("create a partial file");
        let partial = self.dir.join(format!("{name}.partial"));
        let file = File::create(&partial).map_err(|error| {
            if self.files.is_empty() && self.manifest.is_none() {
                OutputError::Dir {
                    path: self.dir.clone(),
                    error,
                }
            } else {
                OutputError::write(self.dir.join(name), error)
            }
        })?;
        if !self.files.iter().any(|(p, _)| *p == partial) {
            self.files.push((partial, self.dir.join(name)));
        }
        Ok(file)
    }

    /// Opens the existing `NAME.partial` of a resumed run for appending after cutting it
    /// to its first `len` bytes (the length at the last checkpoint), and registers `name`
    /// for the commit.
    ///
    /// # Errors
    /// [`OutputError::Resume`] if the file is missing or shorter than `len` (it is not the
    /// file the checkpoint describes); [`OutputError::Write`] if it cannot be opened.
    pub fn reopen_file(&mut self, name: &str, len: u64) -> Result<File, OutputError> {
        step("reopen a partial file");
        let partial = self.dir.join(format!("{name}.partial"));
        let have = fs::metadata(&partial)
            .map(|m| m.len())
            .map_err(|e| OutputError::Resume {
                path: self.dir.clone(),
                reason: format!("{name}.partial: {e}"),
            })?;
        if have < len {
            return Err(OutputError::Resume {
                path: self.dir.clone(),
                reason: format!(
                    "{name}.partial holds {have} bytes, fewer than the {len} of the last \
                     checkpoint: it is truncated"
                ),
            });
        }
        let file = OpenOptions::new()
            .write(true)
            .open(&partial)
            .and_then(|f| {
                f.set_len(len)?;
                Ok(f)
            })
            .map_err(|e| OutputError::write(self.dir.join(name), e))?;
        let mut file = file;
        io::Seek::seek(&mut file, io::SeekFrom::End(0))
            .map_err(|e| OutputError::write(self.dir.join(name), e))?;
        if !self.files.iter().any(|(p, _)| *p == partial) {
            self.files.push((partial, self.dir.join(name)));
        }
        Ok(file)
    }

    /// Writes file `name` through a buffered writer given to `fill`, then flushes it.
    ///
    /// # Errors
    /// As [`OutputDir::create_file`]; the I/O error of `fill` or of the flush as
    /// [`OutputError::Write`] naming the file.
    pub fn write_with(
        &mut self,
        name: &str,
        fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), OutputError> {
        let mut w = BufWriter::new(self.create_file(name)?);
        fill(&mut w)
            .and_then(|()| w.flush())
            .map_err(|e| OutputError::write(self.path(name), e))?;
        step("write a partial file");
        Ok(())
    }

    /// Writes file `name` with the contents `bytes`.
    ///
    /// # Errors
    /// As [`OutputDir::write_with`].
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<(), OutputError> {
        self.write_with(name, |w| w.write_all(bytes))
    }

    /// Renames every partial file to its final name, in creation order (the last created
    /// last), after removing a stale final copy of the last one, so that a failure here
    /// never leaves an old record of a run beside new data; removes partial files left by
    /// an earlier attempt that this run did not write again; then marks the manifest
    /// `complete`. Returns the final paths in rename order.
    ///
    /// # Errors
    /// [`OutputError::Write`] naming the file that could not be removed or renamed; the
    /// partial files not yet renamed are removed.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, OutputError> {
        if let Some((_, last)) = self.files.last() {
            step("remove a stale record");
            match fs::remove_file(last) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(OutputError::write(last.clone(), e)),
            }
        }
        let mut done = Vec::with_capacity(self.files.len());
        for (partial, fin) in &self.files {
            step("rename a partial file to its final name");
            fs::rename(partial, fin).map_err(|e| OutputError::write(fin.clone(), e))?;
            done.push(fin.clone());
        }
        self.committed = true;
        if self.manifest.is_some() {
            for n in entries(&self.dir)? {
                if n.ends_with(".partial") {
                    step("remove a stray partial file");
                    let _ = fs::remove_file(self.dir.join(n));
                }
            }
        }
        // A rerun over a complete run: the old files this run did not write again are kept
        // (recorded first, so that a kill from here on is settled the same way).
        let kept = match &self.manifest {
            Some(m) if m.replacing => {
                let now = entries(&self.dir)?;
                let old = entries(&self.dir.join(PREVIOUS))?;
                old.into_iter().filter(|n| !now.contains(n)).collect()
            }
            _ => Vec::new(),
        };
        if let Some(m) = &mut self.manifest {
            m.kept.clone_from(&kept);
            if self.hash_files {
                step("hash the files of the run");
                m.hashes = hash_tree(&self.dir, &entries(&self.dir)?)?;
            }
        }
        self.save_manifest(RunState::Complete)?;
        if self.manifest.as_ref().is_some_and(|m| m.replacing) {
            settle_previous(&self.dir, &kept)?;
        }
        Ok(done)
    }

    /// Stops the run without finishing it (SIGINT, SIGTERM): its partial files stay for
    /// `--resume`, and the manifest says `interrupted`.
    ///
    /// # Errors
    /// [`OutputError::Write`] if the manifest cannot be written.
    pub fn interrupt(mut self) -> Result<(), OutputError> {
        self.committed = true;
        self.save_manifest(RunState::Interrupted)
    }
}

/// Where a rerun over a complete run sets that run's files aside until it commits (see
/// the module docs on reruns); its name starts with `.`, so it is never taken for a file
/// of a run.
pub const PREVIOUS: &str = ".sim-previous";

/// What a [`PREVIOUS`] directory left by an earlier rerun means.
#[derive(Debug, PartialEq, Eq)]
enum Previous {
    /// There is none.
    None,
    /// The rerun committed (its manifest is complete): the old files it did not write
    /// again (these) go back, the rest are removed.
    Settle(Vec<String>),
    /// The rerun has not finished (`running`, `interrupted`): the old run waits.
    Unfinished,
    /// The rerun failed, or was killed while setting the old run aside (no manifest of
    /// its own yet): the old run goes back.
    Restore,
}

/// Finishes what a rerun left in [`PREVIOUS`] when it was killed (see the module docs on
/// reruns): after its commit, the old files it did not write again go back and the rest
/// are removed; if it failed or had not yet written its manifest, the old run goes back;
/// an unfinished rerun is left for `--resume` (or `--overwrite`). The caller holds the
/// directory's lock ([`DirLock`]).
///
/// # Errors
/// [`OutputError::Write`] naming the file that could not be moved or removed.
pub fn recover_rerun(dir: &Path) -> Result<(), OutputError> {
    match previous_state(dir) {
        Previous::None | Previous::Unfinished => Ok(()),
        Previous::Settle(kept) => settle_previous(dir, &kept),
        Previous::Restore => restore_previous(dir, false),
    }
}

fn previous_state(dir: &Path) -> Previous {
    if !dir.join(PREVIOUS).is_dir() {
        return Previous::None;
    }
    match read_manifest(dir) {
        Ok(Some(m)) if m.replacing && m.state == RunState::Complete => Previous::Settle(m.kept),
        Ok(Some(m))
            if m.replacing && matches!(m.state, RunState::Running | RunState::Interrupted) =>
        {
            Previous::Unfinished
        }
        _ => Previous::Restore,
    }
}

/// Moves the entries `names` of `dir` (a complete run, without its `.partial` files, which
/// are removed) and then its manifest into [`PREVIOUS`]. Each move is a rename, so a kill
/// leaves every file either in `dir` or in [`PREVIOUS`], and [`restore_previous`] puts them
/// back.
fn set_aside(dir: &Path, names: &[String]) -> Result<(), OutputError> {
    let prev = dir.join(PREVIOUS);
    step("create the directory of the previous run");
    fs::create_dir_all(&prev).map_err(|e| OutputError::write(&prev, e))?;
    for n in names {
        let from = dir.join(n);
        if n.ends_with(".partial") {
            step("remove an old partial file");
            remove_entry(&from).map_err(|e| OutputError::write(&from, e))?;
        } else {
            step("set an old file aside");
            fs::rename(&from, prev.join(n)).map_err(|e| OutputError::write(&from, e))?;
        }
    }
    let manifest = dir.join(MANIFEST);
    if manifest.exists() {
        step("set the old manifest aside");
        fs::rename(&manifest, prev.join(MANIFEST)).map_err(|e| OutputError::write(&manifest, e))?;
    }
    Ok(())
}

/// Puts the run in [`PREVIOUS`] back in `dir`, its manifest last; with `remove_current`,
/// first removes the files of the rerun that did not finish (its manifest last). Idempotent.
fn restore_previous(dir: &Path, remove_current: bool) -> Result<(), OutputError> {
    let prev = dir.join(PREVIOUS);
    if remove_current {
        for n in entries(dir)? {
            step("remove a file of an unfinished rerun");
            remove_entry(&dir.join(&n)).map_err(|e| OutputError::write(dir.join(&n), e))?;
        }
        step("remove the manifest of an unfinished rerun");
        remove_entry(&dir.join(MANIFEST)).map_err(|e| OutputError::write(dir.join(MANIFEST), e))?;
    }
    for n in entries(&prev)? {
        step("put an old file back");
        fs::rename(prev.join(&n), dir.join(&n)).map_err(|e| OutputError::write(dir.join(&n), e))?;
    }
    if prev.join(MANIFEST).exists() {
        step("put the old manifest back");
        fs::rename(prev.join(MANIFEST), dir.join(MANIFEST))
            .map_err(|e| OutputError::write(dir.join(MANIFEST), e))?;
    }
    fs::remove_dir(&prev).map_err(|e| OutputError::write(&prev, e))
}

/// After a rerun committed: moves the old files in `kept` back into `dir` (unless the
/// rerun wrote that name) and removes the rest of [`PREVIOUS`]. Idempotent.
fn settle_previous(dir: &Path, kept: &[String]) -> Result<(), OutputError> {
    let prev = dir.join(PREVIOUS);
    for n in entries(&prev)? {
        let (from, to) = (prev.join(&n), dir.join(&n));
        if kept.contains(&n) && !to.exists() {
            step("keep an old file the rerun did not write");
            fs::rename(&from, &to).map_err(|e| OutputError::write(&to, e))?;
        } else {
            step("remove an old file the rerun replaced");
            remove_entry(&from).map_err(|e| OutputError::write(&from, e))?;
        }
    }
    let _ = fs::remove_file(prev.join(MANIFEST));
    remove_entry(&prev).map_err(|e| OutputError::write(&prev, e))
}

/// Records the finished directory `dir` of a command that writes its files itself (`sim
/// skill`, `sim balance`; each already written whole): a [`MANIFEST`] in state `complete`
/// with the kind of run, the `command` that reruns it, the program version, and the files
/// `files` with their SHA-256 ([`Manifest::hashes`]), so that `sim verify DIR`
/// ([`verify_recorded`]) can check them and a later run of another command into `dir` is
/// refused like any other. Written under the directory's lock, atomically.
///
/// # Errors
/// [`OutputError::Busy`] if another run holds the directory; [`OutputError::Write`] naming
/// a file that cannot be read, or the manifest.
pub fn record_run(
    dir: &Path,
    kind: &str,
    command: &str,
    files: &[&str],
) -> Result<(), OutputError> {
    let _lock = DirLock::acquire(dir)?;
    let mut hashes = std::collections::BTreeMap::new();
    for f in files {
        let path = dir.join(f);
        let bytes = fs::read(&path).map_err(|e| OutputError::write(&path, e))?;
        hashes.insert((*f).to_string(), hash_hex(&bytes));
    }
    let owner = Owner::new(kind, command.to_string(), &command);
    let mut names: Vec<String> = files.iter().map(|f| (*f).to_string()).collect();
    names.sort();
    let m = Manifest {
        format: MANIFEST_FORMAT.into(),
        program: env!("CARGO_PKG_NAME").into(),
        version: env!("CARGO_PKG_VERSION").into(),
        kind: kind.into(),
        command: command.into(),
        config_hash: owner.config_hash(),
        config: owner.config,
        state: RunState::Complete,
        pid: std::process::id(),
        files: names,
        shard: None,
        games_file: None,
        merged_from: Vec::new(),
        chain: None,
        chain_version: None,
        replacing: false,
        kept: Vec::new(),
        hashes,
    };
    let text = serde_json::to_string_pretty(&m).expect("a manifest serializes") + "\n";
    write_atomically(&dir.join(MANIFEST), text.as_bytes())
}

/// The SHA-256 (hex) of every file named in `names` in `dir`, by name; a directory
/// contributes every file under it (names starting with `.` skipped), by its path relative
/// to `dir` with `/` between the parts (`cells/000/summary.csv`), so that a sub-run's files
/// are covered too, its own `manifest.json` included. Files are read in 64 KiB pieces.
///
/// # Errors
/// [`OutputError::Write`] naming a file or directory that cannot be read.
pub fn hash_tree(
    dir: &Path,
    names: &[String],
) -> Result<std::collections::BTreeMap<String, String>, OutputError> {
    fn add(
        path: &Path,
        key: String,
        out: &mut std::collections::BTreeMap<String, String>,
    ) -> Result<(), OutputError> {
        if path.is_dir() {
            let mut children: Vec<String> = fs::read_dir(path)
                .map_err(|e| OutputError::write(path, e))?
                .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect::<Result<_, _>>()
                .map_err(|e| OutputError::write(path, e))?;
            children.retain(|c| !c.starts_with('.'));
            children.sort();
            for c in children {
                add(&path.join(&c), format!("{key}/{c}"), out)?;
            }
            return Ok(());
        }
        out.insert(
            key,
            hash_file(path).map_err(|e| OutputError::write(path, e))?,
        );
        Ok(())
    }
    let mut out = std::collections::BTreeMap::new();
    for n in names {
        add(&dir.join(n), n.clone(), &mut out)?;
    }
    Ok(out)
}

/// The SHA-256 (hex) of the file at `path`, read in 64 KiB pieces.
///
/// # Errors
/// The I/O error.
pub fn hash_file(path: &Path) -> io::Result<String> {
    use std::io::Read;
    let mut f = File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Checks a directory recorded by [`record_run`]: its manifest `complete`, and every file
/// it lists present with the SHA-256 it records. Returns the manifest.
///
/// # Errors
/// A message naming the file and what is wrong.
pub fn verify_recorded(dir: &Path) -> Result<Manifest, String> {
    let m = read_manifest(dir)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("it has no {MANIFEST}: no sim run recorded it"))?;
    if m.hashes.is_empty() {
        return Err(format!(
            "{MANIFEST}: a {} run without file hashes; sim verify checks tournaments, and the \
             runs of sim skill and sim balance",
            m.kind
        ));
    }
    if m.state != RunState::Complete {
        return Err(format!(
            "{MANIFEST}: its run is not complete (state {})",
            m.state.name()
        ));
    }
    for (f, want) in &m.hashes {
        let bytes = fs::read(dir.join(f)).map_err(|e| format!("{f}: {e}"))?;
        if hash_hex(&bytes) != *want {
            return Err(format!(
                "{f} does not match its SHA-256 in {MANIFEST}: it was edited after the run; \
                 rerun with: {}",
                m.command
            ));
        }
    }
    if let Some(f) = m.files.iter().find(|f| !m.hashes.contains_key(*f)) {
        return Err(format!("{MANIFEST}: {f} is listed without a SHA-256"));
    }
    Ok(m)
}

/// The records of a run: the file renamed last by a commit ([`OutputDir::commit`]), whose
/// presence says that every other file of the run has its final name.
pub const RECORDS: &[&str] = &["config.toml", "experiment.toml"];

/// Returns an unfinished run's directory (manifest `running` or `interrupted`) to the
/// state before its commit began: every file of a run with its final name goes back to
/// `NAME.partial`, the records ([`RECORDS`]) first, so that the directory never holds a
/// record beside partial files. A kill during [`OutputDir::commit`] leaves some files
/// renamed and some not; since the commit starts only after every file is complete (and
/// the games file is cut back to the checkpoint on resume anyway), the renamed files are
/// exactly their partial files, and un-renaming them gives the state a resume continues
/// from. A final file beside its partial file (cannot arise from a commit) is removed:
/// the partial one is the newer. `checkpoint.json` (always written under its final name,
/// atomically), directories (the runs under `pairs/`, `cells/`, which have their own
/// manifests) and names that no run writes are left alone. Idempotent, so a kill during
/// it is repaired by the next resume.
///
/// # Errors
/// [`OutputError::Write`] naming the file that could not be renamed or removed.
fn uncommit(dir: &Path) -> Result<(), OutputError> {
    let mut names: Vec<String> = entries(dir)?
        .into_iter()
        .filter(|n| {
            !n.ends_with(".partial")
                && n != crate::tournament::checkpoint::FILE
                && KNOWN_OUTPUTS.contains(&n.as_str())
                && dir.join(n).is_file()
        })
        .collect();
    names.sort_by_key(|n| !RECORDS.contains(&n.as_str()));
    for n in names {
        let (fin, partial) = (dir.join(&n), dir.join(format!("{n}.partial")));
        step("return a final file to its partial name");
        let done = if partial.exists() {
            fs::remove_file(&fin)
        } else {
            fs::rename(&fin, &partial)
        };
        done.map_err(|e| OutputError::write(fin, e))?;
    }
    Ok(())
}

/// A file-system step of a run: in debug builds, the point where the fault-injection hook
/// kills the process. With `SIM_KILL_AT_STEP=K` in the environment, the K-th step
/// (counted from 1 over the process) sends the process SIGKILL, so that a test can stop a
/// run at every step of its file-system protocol in turn and check what it leaves
/// (`tests/integration/hardening.rs`). Release builds compile it to nothing.
pub fn step(what: &str) {
    #[cfg(debug_assertions)]
    {
        use std::sync::OnceLock;
        use std::sync::atomic::{AtomicU64, Ordering};
        static AT: OnceLock<Option<u64>> = OnceLock::new();
        static COUNT: AtomicU64 = AtomicU64::new(0);
        let Some(at) = *AT.get_or_init(|| {
            std::env::var("SIM_KILL_AT_STEP")
                .ok()
                .and_then(|v| v.parse().ok())
        }) else {
            return;
        };
        if COUNT.fetch_add(1, Ordering::SeqCst) + 1 == at {
            eprintln!("SIM_KILL_AT_STEP={at}: killed before: {what}");
            let pid = std::process::id().to_string();
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid])
                .status();
            loop {
                std::thread::park();
            }
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = what;
}

/// A file-system step that may fail like a full disk: in debug builds, with
/// `SIM_ENOSPC_AT_STEP=K` in the environment, the K-th call (counted from 1 over the
/// process) returns the error of a full disk (`ENOSPC`), so that a test can check what a
/// run keeps when its disk fills. Release builds compile it to `Ok(())`. Also a step of
/// [`step`].
///
/// # Errors
/// The injected `ENOSPC`.
pub fn step_io(what: &str) -> io::Result<()> {
    step(what);
    #[cfg(debug_assertions)]
    {
        use std::sync::OnceLock;
        use std::sync::atomic::{AtomicU64, Ordering};
        static AT: OnceLock<Option<u64>> = OnceLock::new();
        static COUNT: AtomicU64 = AtomicU64::new(0);
        if let Some(at) = *AT.get_or_init(|| {
            std::env::var("SIM_ENOSPC_AT_STEP")
                .ok()
                .and_then(|v| v.parse().ok())
        }) && COUNT.fetch_add(1, Ordering::SeqCst) + 1 == at
        {
            return Err(io::Error::from_raw_os_error(28));
        }
    }
    Ok(())
}

/// The file names of `paths` (for listing a run's outputs on the console), in order;
/// paths without a file name are left out.
pub fn file_names(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect()
}

/// Writes `bytes` to `path` through a temporary file in the same directory renamed over
/// it, so a reader sees the old contents or the new, never a part.
///
/// # Errors
/// [`OutputError::Write`] naming `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    step("write a temporary file");
    fs::write(&tmp, bytes)
        .and_then(|()| {
            step("rename a temporary file over its final name");
            fs::rename(&tmp, path)
        })
        .map_err(|e| {
            let _ = fs::remove_file(&tmp);
            OutputError::write(path, e)
        })
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        if !self.committed && self.keep.load(std::sync::atomic::Ordering::SeqCst) {
            // On a full disk this write may fail too: the manifest then still says
            // `running`, which a resume accepts as well.
            let _ = self.save_manifest(RunState::Interrupted);
            return;
        }
        if !self.committed {
            for (partial, _) in &self.files {
                let _ = fs::remove_file(partial);
            }
            // A failed rerun puts back the complete run it was to replace.
            if self.manifest.as_ref().is_some_and(|m| m.replacing) {
                let _ = restore_previous(&self.dir, true);
                return;
            }
            // A failure that leaves nothing behind leaves no manifest either.
            if self.manifest.is_some() {
                match entries(&self.dir) {
                    Ok(e) if e.is_empty() => {
                        let _ = fs::remove_file(self.dir.join(MANIFEST));
                    }
                    _ => {
                        let _ = self.save_manifest(RunState::Failed);
                    }
                }
            }
        }
    }
}

/// An exclusive advisory lock on an output directory ([`LOCK`], see the module docs),
/// held until dropped.
#[derive(Debug)]
pub struct DirLock {
    /// The open, locked lock file: closing it releases the lock.
    file: File,
    /// Its path.
    path: PathBuf,
}

impl DirLock {
    /// Creates `dir` if needed and takes its lock without waiting, writing this process's
    /// pid and start time into the lock file. A lock file left by a process that has
    /// ended is not locked any more (the operating system released it) and is taken over.
    ///
    /// # Errors
    /// [`OutputError::Busy`] naming the holder if a live process holds the lock;
    /// [`OutputError::Dir`] if the directory or the lock file cannot be created.
    pub fn acquire(dir: &Path) -> Result<DirLock, OutputError> {
        use fs4::fs_std::FileExt;
        let dir_err = |error: io::Error| OutputError::Dir {
            path: dir.to_path_buf(),
            error,
        };
        fs::create_dir_all(dir).map_err(dir_err)?;
        let path = dir.join(LOCK);
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(dir_err)?;
            if !FileExt::try_lock_exclusive(&file).map_err(dir_err)? {
                // The holder writes its pid just after it takes the lock: a run that
                // lost the race by microseconds waits for that line (at most 2 s) so that
                // its refusal can name the other run.
                let mut holder = String::new();
                for _ in 0..200 {
                    holder.clear();
                    let _ = io::Seek::seek(&mut file, io::SeekFrom::Start(0));
                    let _ = io::Read::read_to_string(&mut file, &mut holder);
                    if holder.ends_with('\n') {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                let holder = holder.trim();
                return Err(OutputError::Busy {
                    path: dir.to_path_buf(),
                    holder: if holder.is_empty() {
                        "a run that is starting".into()
                    } else {
                        holder.to_string()
                    },
                });
            }
            // The previous holder removes the file when it ends: if it did so between our
            // open and our lock, we hold a lock on a file no one else can see, and must
            // lock the file that is there now instead.
            if !same_file(&file, &path) {
                continue;
            }
            let started = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let text = format!("pid {}, started {}\n", std::process::id(), utc(started));
            file.set_len(0)
                .and_then(|()| io::Seek::seek(&mut file, io::SeekFrom::Start(0)))
                .and_then(|_| file.write_all(text.as_bytes()))
                .map_err(dir_err)?;
            return Ok(DirLock { file, path });
        }
    }
}

impl Drop for DirLock {
    /// Removes the lock file while still holding the lock (a run that opens it meanwhile
    /// sees that the path no longer names its file and retries), then releases the lock by
    /// closing it.
    fn drop(&mut self) {
        if same_file(&self.file, &self.path) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Whether `path` names the open file `file` (same device and inode).
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

/// `YYYY-MM-DD HH:MM:SS UTC` for `secs` seconds after the Unix epoch (the proleptic
/// Gregorian calendar: Howard Hinnant's `civil_from_days`).
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// What a shard's directory records of its shard (`manifest.json`, `config.toml`): the
/// shard `index` of `count` and its game range. Computed by the runner's sharding
/// (`crate::tournament::shard`), recorded here with the manifest it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// The shard, `0..count` (0-based).
    pub index: u64,
    /// The number of shards of the run.
    pub count: u64,
    /// Its first game index.
    pub start: u64,
    /// One past its last game index (`start` when the shard is empty).
    pub end: u64,
}

impl std::fmt::Display for ShardInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "shard {}/{} (games {}..{})",
            self.index, self.count, self.start, self.end
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != LOCK && n != PREVIOUS)
            .collect();
        v.sort();
        v
    }

    #[test]
    fn files_appear_only_on_commit_in_creation_order() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a/b");
        let mut out = OutputDir::create(&dir).unwrap();
        out.create_file("data.csv")
            .unwrap()
            .write_all(b"1,2\n")
            .unwrap();
        out.write_with("table.csv", |w| writeln!(w, "x")).unwrap();
        out.write("config.toml", b"k = 1\n").unwrap();
        assert_eq!(
            names(&dir),
            [
                "config.toml.partial",
                "data.csv.partial",
                "table.csv.partial"
            ]
        );
        let done = out.commit().unwrap();
        let done: Vec<&str> = done
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(done, ["data.csv", "table.csv", "config.toml"]);
        assert_eq!(names(&dir), ["config.toml", "data.csv", "table.csv"]);
        assert_eq!(fs::read(dir.join("data.csv")).unwrap(), b"1,2\n");
        assert_eq!(fs::read(dir.join("table.csv")).unwrap(), b"x\n");
    }

    #[test]
    fn an_uncommitted_directory_removes_its_partial_files() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("keep.txt"), "mine").unwrap();
        let mut out = OutputDir::create(tmp.path()).unwrap();
        out.write("games.csv", b"half").unwrap();
        assert!(tmp.path().join("games.csv.partial").exists());
        drop(out);
        assert_eq!(names(tmp.path()), ["keep.txt"]);
    }

    #[test]
    fn a_panic_removes_the_partial_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let r = std::panic::catch_unwind(move || {
            let mut out = OutputDir::create(&dir).unwrap();
            out.write("x.csv", b"1").unwrap();
            panic!("the run fails");
        });
        assert!(r.is_err());
        assert!(names(tmp.path()).is_empty());
    }

    #[test]
    fn commit_replaces_an_old_run_and_recreating_a_name_truncates() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("config.toml"), "old").unwrap();
        fs::write(tmp.path().join("games.csv"), "old").unwrap();
        let mut out = OutputDir::create(tmp.path()).unwrap();
        out.write("games.csv", b"first attempt").unwrap();
        out.write("config.toml", b"new").unwrap();
        out.write("games.csv", b"new").unwrap();
        let done = out.commit().unwrap();
        assert!(done.last().unwrap().ends_with("config.toml"));
        assert_eq!(done.len(), 2);
        assert_eq!(fs::read(tmp.path().join("config.toml")).unwrap(), b"new");
        assert_eq!(fs::read(tmp.path().join("games.csv")).unwrap(), b"new");
        assert_eq!(names(tmp.path()), ["config.toml", "games.csv"]);
    }

    #[test]
    fn an_unusable_directory_is_bad_input_and_later_errors_name_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("plain-file");
        fs::write(&file, "x").unwrap();
        let e = OutputDir::create(&file.join("sub")).unwrap_err();
        assert!(e.is_bad_input(), "{e}");
        assert!(e.to_string().contains("plain-file/sub"), "{e}");

        let mut out = OutputDir::create(tmp.path()).unwrap();
        out.write("a.csv", b"1").unwrap();
        // A name that cannot be created once the directory is known to be writable.
        let e = out.create_file("missing-dir/b.csv").unwrap_err();
        assert!(!e.is_bad_input(), "{e}");
        assert!(e.to_string().contains("missing-dir/b.csv"), "{e}");
        let e = out
            .write_with("c.csv", |_| Err(io::Error::other("disk full")))
            .unwrap_err();
        assert!(
            !e.is_bad_input()
                && e.to_string().contains("c.csv")
                && e.to_string().contains("disk full"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_first_file_checks_that_the_directory_is_writable() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("ro");
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
        // Root ignores permissions; the check only means something for other users.
        if File::create(dir.join("probe")).is_err() {
            let mut out = OutputDir::create(&dir).unwrap();
            let e = out.create_file("games.csv").unwrap_err();
            assert!(e.is_bad_input(), "{e}");
        }
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn owner(seed: u64) -> Owner {
        Owner::new(
            "tournament",
            format!("sim tournament --seed {seed}"),
            &serde_json::json!({"game": "race", "seed": seed}),
        )
    }

    fn manifest(dir: &Path) -> Manifest {
        read_manifest(dir).unwrap().unwrap()
    }

    #[test]
    fn a_claimed_directory_records_its_run_and_refuses_another() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let mut out = OutputDir::claim(&dir, &owner(1), false).unwrap();
        assert_eq!(manifest(&dir).state, RunState::Running);
        out.write("games.csv", b"1").unwrap();
        out.write("config.toml", b"c").unwrap();
        assert_eq!(
            manifest(&dir).files,
            Vec::<String>::new(),
            "the files are listed when the state changes"
        );
        out.commit().unwrap();
        let m = manifest(&dir);
        assert_eq!(m.state, RunState::Complete);
        assert_eq!(m.files, ["config.toml", "games.csv"]);
        assert_eq!(m.config_hash, owner(1).config_hash());

        // Another configuration: refused, naming the files and the difference.
        let e = OutputDir::claim(&dir, &owner(2), false).unwrap_err();
        let msg = e.to_string();
        assert!(e.is_bad_input(), "{msg}");
        assert!(
            msg.contains("config.toml, games.csv")
                && msg.contains("seed: 1 in the directory, 2 now")
                && msg.contains("--overwrite"),
            "{msg}"
        );
        // Another command: refused.
        let solve = Owner::new("solve", "sim solve".into(), &1);
        let e = OutputDir::claim(&dir, &solve, false).unwrap_err();
        assert!(e.to_string().contains("a tournament run"), "{e}");
        // The same configuration: the old files are set aside until the rerun commits...
        let out = OutputDir::claim(&dir, &owner(1), false).unwrap();
        assert_eq!(names(&dir), ["manifest.json"]);
        assert!(manifest(&dir).replacing);
        drop(out);
        // ... and a failed rerun puts them back whole.
        assert_eq!(names(&dir), ["config.toml", "games.csv", "manifest.json"]);
        assert!(!dir.join(PREVIOUS).exists());
        assert_eq!(manifest(&dir).state, RunState::Complete);
        assert_eq!(fs::read(dir.join("games.csv")).unwrap(), b"1");
    }

    #[test]
    fn a_rerun_killed_at_any_point_leaves_the_old_run_whole_or_is_settled() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let mut out = OutputDir::claim(dir, &owner(1), false).unwrap();
        out.write("games.csv", b"old").unwrap();
        out.write("report.md", b"notes").unwrap();
        out.commit().unwrap();
        // A rerun killed while it set the old run aside (before its own manifest): the
        // next claim puts everything back first.
        fs::create_dir(dir.join(PREVIOUS)).unwrap();
        fs::rename(dir.join("games.csv"), dir.join(PREVIOUS).join("games.csv")).unwrap();
        fs::rename(dir.join(MANIFEST), dir.join(PREVIOUS).join(MANIFEST)).unwrap();
        recover_rerun(dir).unwrap();
        assert_eq!(names(dir), ["games.csv", "manifest.json", "report.md"]);
        assert_eq!(manifest(dir).state, RunState::Complete);
        // A rerun stopped mid-run: the old run waits; a claim without --overwrite points at
        // --resume, one with --overwrite puts the old run back before it starts again.
        let mut out = OutputDir::claim(dir, &owner(2), true).unwrap();
        out.write("games.csv", b"new").unwrap();
        out.interrupt().unwrap();
        assert_eq!(previous_state(dir), Previous::Unfinished);
        let e = OutputDir::claim(dir, &owner(2), false).unwrap_err();
        assert!(e.to_string().contains(PREVIOUS), "{e}");
        let mut out = OutputDir::claim(dir, &owner(2), true).unwrap();
        assert_eq!(
            fs::read(dir.join(PREVIOUS).join("games.csv")).unwrap(),
            b"old"
        );
        // The rerun commits: what it wrote replaces, what it did not (report.md) is kept.
        out.write("games.csv", b"new").unwrap();
        out.commit().unwrap();
        assert_eq!(names(dir), ["games.csv", "manifest.json", "report.md"]);
        assert!(!dir.join(PREVIOUS).exists());
        let m = manifest(dir);
        assert_eq!(
            (m.files, m.kept),
            (vec!["games.csv".to_string()], vec!["report.md".to_string()])
        );
        assert_eq!(fs::read(dir.join("games.csv")).unwrap(), b"new");
        assert_eq!(fs::read(dir.join("report.md")).unwrap(), b"notes");
    }

    #[test]
    fn overwrite_replaces_what_it_writes_and_keeps_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let mut out = OutputDir::claim(tmp.path(), &owner(1), false).unwrap();
        out.write("games.csv", b"1").unwrap();
        out.write("summary.csv", b"1").unwrap();
        out.commit().unwrap();
        fs::create_dir_all(tmp.path().join("cells/000")).unwrap();
        fs::write(tmp.path().join("cells/000/games.csv"), "x").unwrap();
        fs::write(tmp.path().join("strategy.csv"), "from a solve").unwrap();
        fs::write(tmp.path().join(".gitignore"), "kept").unwrap();
        let mut out = OutputDir::claim(tmp.path(), &owner(2), true).unwrap();
        assert_eq!(names(tmp.path()), [".gitignore", "manifest.json"]);
        out.write("games.csv", b"2").unwrap();
        out.commit().unwrap();
        let m = manifest(tmp.path());
        assert_eq!(m.files, ["games.csv"]);
        assert_eq!(m.kept, ["cells", "strategy.csv", "summary.csv"]);
        assert_eq!(
            names(tmp.path()),
            [
                ".gitignore",
                "cells",
                "games.csv",
                "manifest.json",
                "strategy.csv",
                "summary.csv"
            ]
        );
        assert_eq!(fs::read(tmp.path().join("games.csv")).unwrap(), b"2");
    }

    #[test]
    fn unknown_files_are_never_removed_and_legacy_files_need_overwrite() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("notes.txt"), "mine").unwrap();
        fs::write(tmp.path().join("summary.csv"), "old").unwrap();
        for overwrite in [false, true] {
            let e = OutputDir::claim(tmp.path(), &owner(1), overwrite).unwrap_err();
            assert!(
                e.is_bad_input() && e.to_string().contains("no sim run wrote: notes.txt"),
                "{e}"
            );
        }
        fs::remove_file(tmp.path().join("notes.txt")).unwrap();
        let e = OutputDir::claim(tmp.path(), &owner(1), false).unwrap_err();
        assert!(
            e.to_string().contains("without a manifest.json")
                && e.to_string().contains("summary.csv"),
            "{e}"
        );
        let out = OutputDir::claim(tmp.path(), &owner(1), true).unwrap();
        assert!(!tmp.path().join("summary.csv").exists(), "set aside");
        drop(out);
        assert_eq!(fs::read(tmp.path().join("summary.csv")).unwrap(), b"old");
    }

    #[test]
    fn an_interrupted_run_is_resumed_only_with_its_configuration() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let e = OutputDir::resume(dir, &owner(1)).unwrap_err();
        assert!(e.to_string().contains("no manifest.json"), "{e}");
        let mut out = OutputDir::claim(dir, &owner(1), false).unwrap();
        out.create_file("games.csv")
            .unwrap()
            .write_all(b"header\nrow1\nrow2-half")
            .unwrap();
        out.interrupt().unwrap();
        assert_eq!(manifest(dir).state, RunState::Interrupted);
        assert_eq!(manifest(dir).files, ["games.csv.partial"]);
        // A fresh claim of the same configuration points at --resume.
        let e = OutputDir::claim(dir, &owner(1), false).unwrap_err();
        assert!(e.to_string().contains("--resume"), "{e}");
        let e = OutputDir::resume(dir, &owner(2)).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("seed: 1 in the directory, 2 now"),
            "{e}"
        );
        let (mut out, old) = OutputDir::resume(dir, &owner(1)).unwrap();
        assert_eq!(old.state, RunState::Interrupted);
        let e = out.reopen_file("games.csv", 1000).unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
        let mut f = out.reopen_file("games.csv", 12).unwrap();
        f.write_all(b"row2\n").unwrap();
        out.commit().unwrap();
        assert_eq!(
            fs::read(dir.join("games.csv")).unwrap(),
            b"header\nrow1\nrow2\n"
        );
        let e = OutputDir::resume(dir, &owner(1)).unwrap_err();
        assert!(e.to_string().contains("complete"), "{e}");
    }

    #[test]
    fn utc_follows_the_calendar() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc(951_782_400 + 86_399), "2000-02-29 23:59:59 UTC");
        assert_eq!(utc(1_795_780_805), "2026-11-27 12:00:05 UTC");
    }

    #[test]
    fn a_locked_directory_refuses_a_second_claim_naming_the_holder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let out = OutputDir::claim(&dir, &owner(1), false).unwrap();
        assert!(dir.join(LOCK).exists());
        let pid = format!("pid {}, started ", std::process::id());
        for e in [
            OutputDir::claim(&dir, &owner(1), false).unwrap_err(),
            OutputDir::claim(&dir, &owner(2), true).unwrap_err(),
            OutputDir::resume(&dir, &owner(1)).unwrap_err(),
        ] {
            assert!(e.is_bad_input(), "{e}");
            let msg = e.to_string();
            assert!(matches!(e, OutputError::Busy { .. }), "{msg}");
            assert!(msg.contains(&pid) && msg.contains(" UTC"), "{msg}");
        }
        // Nothing was touched by the refusals; the lock file goes with the run.
        assert_eq!(manifest(&dir).state, RunState::Running);
        out.commit().unwrap();
        assert!(!dir.join(LOCK).exists());
        // A stale lock file (its process gone: nobody holds the lock) is taken over.
        fs::write(
            dir.join(LOCK),
            "pid 999999, started 1970-01-01 00:00:00 UTC\n",
        )
        .unwrap();
        let out = OutputDir::claim(&dir, &owner(1), false).unwrap();
        let text = fs::read_to_string(dir.join(LOCK)).unwrap();
        assert!(text.starts_with(&pid), "{text}");
        drop(out);
    }

    #[test]
    fn config_differences_name_the_fields() {
        let a = serde_json::json!({"game": "daxu", "seed": 1, "agents": ["a"], "x": {"y": 1}});
        let b = serde_json::json!({"game": "daxu", "seed": 2, "agents": ["b"], "x": {"y": 2}});
        assert_eq!(
            config_differences(&a, &b),
            [
                "agents: [\"a\"] in the directory, [\"b\"] now",
                "seed: 1 in the directory, 2 now",
                "x.y: 1 in the directory, 2 now"
            ]
        );
        assert!(config_differences(&a, &a).is_empty());
    }
}
