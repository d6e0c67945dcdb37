//! `sim verify --rerun DIR`: reruns a finished results folder with the command its
//! `manifest.json` records (the README's "rerun a committed result" command) in a
//! temporary working directory, and compares every CSV file of the folder byte for byte
//! with the one the rerun wrote.
//!
//! The rerun is the recorded command word for word, run by this `sim` binary as a child
//! process with the temporary directory as its working directory: the files the command
//! names by a relative path (an experiment or balance spec) are copied there first, so the
//! rerun writes its folder at the same relative path (`results/NAME`) and records the same
//! command in its `config.toml` and `experiment.toml`. The committed folder is only read.
//!
//! What is compared: every `*.csv` file under the folder (those of an experiment's
//! tournaments under `cells/` and `pairs/` included), byte for byte; no CSV file this
//! program writes holds a wall-clock time, so no column is ignored. CSV files the rerun
//! writes but the folder does not hold (`games.csv`, which committed results leave out) are
//! counted, not compared; a CSV file the folder holds but the rerun does not write is a
//! difference, unless `manifest.json` lists it as kept from an earlier run. Every other
//! file (reports, `config.toml`, ...) is compared too, but only reported: a report's text
//! may change with the program while its numbers stay the same.
//!
//! One difference in a CSV file is not a difference of results: a cell that spells an
//! agent spec otherwise, where both spellings name the same agent configuration (today's
//! canonical forms of both are equal, read with the kind's own defaults as
//! [`crate::tournament::verify::recorded_agents`] reads recorded specs). A folder written
//! before parameters joined an agent kind (`mcts` before `bias` and `reuse`) records a
//! shorter spec than its rerun writes, with the same games. Such a file counts as
//! reproduced, and is named ("same agents, older spelling"), only when every other cell is
//! equal and both files are byte for byte the CSV writing of their cells: every other byte
//! is compared.

use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::CliError;

/// How many characters of a differing line the report quotes.
const QUOTE: usize = 160;

/// The outcome of one folder's rerun ([`rerun`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Rerun {
    /// The command that was rerun, as `manifest.json` records it.
    pub command: String,
    /// CSV files of the folder found byte-identical in the rerun, by path relative to the
    /// folder.
    pub same: Vec<String>,
    /// CSV files of the folder that equal the rerun's but for cells that spell the same
    /// agent spec in an older spelling ([`same_but_spelling`]), each with the number of such
    /// cells (counted as reproduced).
    pub respelled: Vec<(String, usize)>,
    /// CSV files that differ or that the rerun did not write, each with the first
    /// difference (`summary.csv line 3: committed "..." rerun "..."`).
    pub differ: Vec<String>,
    /// CSV files the rerun wrote that the folder does not hold (not compared).
    pub not_committed: Vec<String>,
    /// Files the folder holds that `manifest.json` lists as kept from an earlier run (not
    /// written by the command, not compared).
    pub kept: Vec<String>,
    /// Other files (not CSV, not `manifest.json`) found byte-identical.
    pub other_same: usize,
    /// Other files that differ or that the rerun did not write (reported, not checked).
    pub other_differ: Vec<String>,
    /// Wall-clock seconds of the rerun.
    pub seconds: f64,
}

impl Rerun {
    /// Whether every CSV file of the folder was reproduced byte for byte.
    pub fn reproduced(&self) -> bool {
        self.differ.is_empty()
    }

    /// One line for the console: the verdict, the counts and the command.
    pub fn line(&self, dir: &Path) -> String {
        let respelled = if self.respelled.is_empty() {
            String::new()
        } else {
            let files: Vec<String> = self
                .respelled
                .iter()
                .map(|(f, n)| format!("{f}: same agents, older spelling ({n} cells)"))
                .collect();
            format!(
                ", {} the same but for agent specs in an older spelling of the same agents \
                 (every other byte equal): {}",
                self.respelled.len(),
                files.join(", ")
            )
        };
        let total = self.same.len() + self.respelled.len();
        let verdict = if self.reproduced() {
            format!(
                "reproduced: {} CSV files byte for byte{respelled}",
                self.same.len()
            )
        } else {
            format!(
                "DIFFERS: {} of {} CSV files: {}{respelled}",
                self.differ.len(),
                self.differ.len() + total,
                self.differ.join("; ")
            )
        };
        let mut notes = Vec::new();
        if !self.not_committed.is_empty() {
            notes.push(format!(
                "not committed, not compared: {}",
                self.not_committed.join(", ")
            ));
        }
        if !self.kept.is_empty() {
            notes.push(format!(
                "kept from an earlier run, not compared: {}",
                self.kept.join(", ")
            ));
        }
        notes.push(if self.other_differ.is_empty() {
            format!("other files: {} the same", self.other_same)
        } else {
            format!(
                "other files: {} the same, {} differ (reported only): {}",
                self.other_same,
                self.other_differ.len(),
                self.other_differ.join(", ")
            )
        });
        format!(
            "{}: {verdict}; {}; rerun in {:.1} s: {}",
            dir.display(),
            notes.join("; "),
            self.seconds,
            self.command
        )
    }
}

/// A working directory that is removed when dropped (unless it was given by the user).
struct WorkDir {
    path: PathBuf,
    remove: bool,
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if self.remove {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// Reruns the folder `dir` with the command its `manifest.json` records, as this binary
/// (`exe`), in a fresh working directory (under `into` when given and kept; otherwise a
/// temporary directory, removed afterwards), adding `--threads N` when `threads` is given
/// (the results never depend on it), and compares its files with the folder's.
///
/// # Errors
/// A message naming the problem: no or unreadable `manifest.json` (such a folder reruns
/// from its `command.txt` or `README.md` by hand), a command that is not a `sim` command,
/// a file it names that is missing, a working directory that cannot be made, or a rerun
/// that fails (its exit code and the end of its stderr).
pub fn rerun(
    dir: &Path,
    exe: &Path,
    threads: Option<usize>,
    into: Option<&Path>,
) -> Result<Rerun, String> {
    let manifest = crate::output::read_manifest(dir)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| {
            "it has no manifest.json: no command is recorded, so it reruns by hand from its \
             command.txt or README.md (see results/README.md)"
                .to_string()
        })?;
    let words = shlex::split(&manifest.command).ok_or_else(|| {
        format!(
            "manifest.json: its command cannot be split into words: {}",
            manifest.command
        )
    })?;
    if words.first().map(String::as_str) != Some("sim") || words.len() < 2 {
        return Err(format!(
            "manifest.json: its command is not a sim command: {}",
            manifest.command
        ));
    }
    let out = out_of(&words, &manifest.config).ok_or_else(|| {
        format!(
            "manifest.json: neither its command nor its configuration names the output \
             folder: {}",
            manifest.command
        )
    })?;
    let root = root_of(dir, &out)?;
    let work = match into {
        Some(base) => {
            let stem = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "run".into());
            let path = (0..)
                .map(|i| {
                    base.join(if i == 0 {
                        stem.clone()
                    } else {
                        format!("{stem}.{i}")
                    })
                })
                .find(|p| !p.exists())
                .expect("an unused name");
            WorkDir {
                path,
                remove: false,
            }
        }
        None => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            WorkDir {
                path: std::env::temp_dir()
                    .join(format!("sim-rerun-{}-{nanos}", std::process::id())),
                remove: true,
            }
        }
    };
    fs::create_dir_all(&work.path).map_err(|e| {
        format!(
            "cannot make the working directory {}: {e}",
            work.path.display()
        )
    })?;
    // The files the command names by a relative path (the spec), at the same place.
    for w in &words[2..] {
        let p = Path::new(w);
        if is_plain_relative(p) && root.join(p).is_file() {
            let to = work.path.join(p);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            fs::copy(root.join(p), &to).map_err(|e| format!("cannot copy {w}: {e}"))?;
        }
    }
    let mut args: Vec<String> = words[1..].to_vec();
    if let Some(n) = threads {
        args.extend(["--threads".into(), n.to_string()]);
    }
    let start = Instant::now();
    let o = Command::new(exe)
        .args(&args)
        .current_dir(&work.path)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        let tail: Vec<&str> = err.lines().rev().take(12).collect();
        return Err(format!(
            "the rerun failed ({}): {}\n{}",
            o.status,
            manifest.command,
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        ));
    }
    let fresh = work.path.join(&out);
    if !fresh.is_dir() {
        return Err(format!(
            "the rerun wrote no folder {}: {}",
            out.display(),
            manifest.command
        ));
    }
    let mut r = compare(dir, &fresh, &manifest.kept);
    r.command = manifest.command;
    r.seconds = seconds;
    Ok(r)
}

/// The output folder a recorded command writes, relative to its working directory: the
/// value of `--out` (or `--out=...`), else the configuration's `out` (an experiment's spec).
fn out_of(words: &[String], config: &serde_json::Value) -> Option<PathBuf> {
    let flag = words.iter().enumerate().find_map(|(i, w)| {
        if w == "--out" {
            words.get(i + 1).cloned()
        } else {
            w.strip_prefix("--out=").map(str::to_string)
        }
    });
    flag.or_else(|| config.get("out")?.as_str().map(str::to_string))
        .map(PathBuf::from)
}

/// Whether `p` is a relative path that stays below its base (no `..`, no root): only
/// such paths are copied into the working directory.
fn is_plain_relative(p: &Path) -> bool {
    !p.as_os_str().is_empty() && p.components().all(|c| matches!(c, Component::Normal(_)))
}

/// The directory the command was run in: `dir` without its trailing `out` (a folder
/// written to `results/NAME` and found at `/repo/results/NAME` was run in `/repo`), so the
/// files the command names are found whatever the current directory.
///
/// # Errors
/// When `out` is not a plain relative path or `dir` does not end with it (the folder was
/// moved or renamed after the run).
fn root_of(dir: &Path, out: &Path) -> Result<PathBuf, String> {
    if !is_plain_relative(out) {
        return Err(format!(
            "its command writes to {}, not a relative path: the rerun would overwrite it",
            out.display()
        ));
    }
    let abs = fs::canonicalize(dir).map_err(|e| format!("{e}"))?;
    let mut root = abs.clone();
    for c in out.components().rev() {
        if root.file_name() != Some(c.as_os_str()) {
            return Err(format!(
                "its command writes to {}, but the folder is at {}: it was moved or renamed \
                 after the run",
                out.display(),
                abs.display()
            ));
        }
        root.pop();
    }
    Ok(root)
}

/// Every file under `dir`, by path relative to it with `/` separators, sorted; the set-aside
/// earlier run of an interrupted rerun (`.sim-previous`) and `manifest.json` files (they
/// record a process id) left out.
fn files_under(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, rel: &str, out: &mut Vec<String>) {
        let Ok(entries) = fs::read_dir(base.join(rel)) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if name == crate::output::PREVIOUS || name == crate::output::MANIFEST {
                continue;
            }
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                walk(base, &path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, "", &mut v);
    v.sort();
    v
}

/// Compares the committed folder `old` with the rerun's folder `new` (see the module
/// docs); `kept` are the files `old`'s manifest lists as kept from an earlier run.
pub fn compare(old: &Path, new: &Path, kept: &[String]) -> Rerun {
    let mut r = Rerun {
        command: String::new(),
        same: Vec::new(),
        respelled: Vec::new(),
        differ: Vec::new(),
        not_committed: Vec::new(),
        kept: Vec::new(),
        other_same: 0,
        other_differ: Vec::new(),
        seconds: 0.0,
    };
    let old_files = files_under(old);
    for f in &old_files {
        if kept.iter().any(|k| k == f) {
            r.kept.push(f.clone());
            continue;
        }
        let csv = f.ends_with(".csv");
        let (a, b) = (fs::read(old.join(f)), fs::read(new.join(f)));
        match (a, b) {
            (Ok(a), Ok(b)) if a == b => {
                if csv {
                    r.same.push(f.clone());
                } else {
                    r.other_same += 1;
                }
            }
            (Ok(a), Ok(b)) => {
                if csv {
                    match same_but_spelling(&a, &b) {
                        Some(n) => r.respelled.push((f.clone(), n)),
                        None => r.differ.push(format!("{f} {}", first_difference(&a, &b))),
                    }
                } else {
                    r.other_differ.push(f.clone());
                }
            }
            (_, Err(_)) => {
                if csv {
                    r.differ.push(format!("{f}: not written by the rerun"));
                } else {
                    r.other_differ.push(format!("{f} (not written)"));
                }
            }
            (Err(e), _) => r.differ.push(format!("{f}: cannot be read: {e}")),
        }
    }
    r.not_committed = files_under(new)
        .into_iter()
        .filter(|f| f.ends_with(".csv") && !old_files.contains(f))
        .collect();
    r
}

/// Whether two agent spec strings name the same agent configuration: today's canonical
/// forms of both, read with the kinds' own defaults ([`crate::agents::canonicalize`]), are
/// equal. False when either is not a spec this version parses.
fn same_agent(a: &str, b: &str) -> bool {
    matches!(
        (crate::agents::canonicalize(a), crate::agents::canonicalize(b)),
        (Ok(x), Ok(y)) if x == y
    )
}

/// The cells of a CSV file, its header row included, if it is byte for byte the CSV
/// writing of them (as every CSV file of this program is written: `csv::Writer` with its
/// defaults), so that comparing cells compares every byte.
fn csv_cells(bytes: &[u8]) -> Option<Vec<Vec<String>>> {
    let mut rows = Vec::new();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut writer = csv::Writer::from_writer(Vec::with_capacity(bytes.len()));
    for record in reader.records() {
        let record = record.ok()?;
        writer.write_record(&record).ok()?;
        rows.push(record.iter().map(str::to_string).collect());
    }
    (writer.into_inner().ok()? == bytes).then_some(rows)
}

/// Whether the committed CSV file `a` equals the rerun's `b` but for cells that spell the
/// same agent spec otherwise (today's canonical forms of both equal,
/// [`crate::agents::canonicalize`]): the number of such cells, or `None` when any other
/// cell, the shape, or any byte outside the cells differs (or there are none).
pub fn same_but_spelling(a: &[u8], b: &[u8]) -> Option<usize> {
    let (a, b) = (csv_cells(a)?, csv_cells(b)?);
    if a.len() != b.len() {
        return None;
    }
    let mut respelled = 0;
    for (x, y) in a.iter().zip(&b) {
        if x.len() != y.len() {
            return None;
        }
        for (p, q) in x.iter().zip(y) {
            if p != q {
                if !same_agent(p, q) {
                    return None;
                }
                respelled += 1;
            }
        }
    }
    (respelled > 0).then_some(respelled)
}

/// Where two files first differ, by line: `line 3: committed "..." rerun "..."` (lines
/// quoted up to [`QUOTE`] characters), or which one ends first.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let quote = |s: &str| {
        let t: String = s.chars().take(QUOTE).collect();
        if s.chars().count() > QUOTE {
            format!("{t:?}...")
        } else {
            format!("{t:?}")
        }
    };
    let (mut la, mut lb) = (a.split_inclusive('\n'), b.split_inclusive('\n'));
    let mut n = 1;
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (Some(x), Some(y)) => {
                return format!("line {n}: committed {} rerun {}", quote(x), quote(y));
            }
            (Some(_), None) => return format!("line {n}: the rerun's file ends here"),
            (None, Some(_)) => return format!("line {n}: the committed file ends here"),
            (None, None) => return "differs in bytes that are not valid UTF-8".into(),
        }
    }
}

/// Runs `sim verify --rerun`: every folder in turn, one line each, then a summary line.
///
/// # Errors
/// Exit 2 when any folder did not reproduce or could not be rerun (each named above the
/// summary); the others are still checked.
pub fn run_all(
    dirs: &[PathBuf],
    threads: Option<usize>,
    into: Option<&Path>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let exe = std::env::current_exe().map_err(CliError::failure)?;
    let mut failed = Vec::new();
    let mut respelled = 0;
    for dir in dirs {
        let line = match rerun(dir, &exe, threads, into) {
            Ok(r) => {
                if !r.reproduced() {
                    failed.push(dir.display().to_string());
                }
                respelled += r.respelled.len();
                r.line(dir)
            }
            Err(e) => {
                failed.push(dir.display().to_string());
                format!("{}: NOT RERUN: {e}", dir.display())
            }
        };
        writeln!(out, "{line}").map_err(CliError::failure)?;
        out.flush().map_err(CliError::failure)?;
    }
    if failed.is_empty() {
        let but = if respelled == 0 {
            String::new()
        } else {
            format!(
                ", but for agent specs in an older spelling of the same agents in {respelled} \
                 of them"
            )
        };
        writeln!(
            out,
            "{} of {} folders reproduced every CSV file byte for byte{but}",
            dirs.len(),
            dirs.len()
        )
        .map_err(CliError::failure)?;
        Ok(())
    } else {
        Err(CliError::bad_input(anyhow::anyhow!(
            "{} of {} folders did not reproduce or could not be rerun: {}",
            failed.len(),
            dirs.len(),
            failed.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_folder_is_the_out_flag_or_the_spec_out() {
        let words: Vec<String> = ["sim", "balance", "x.toml", "--out", "results/k"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            out_of(&words, &serde_json::Value::Null),
            Some(PathBuf::from("results/k"))
        );
        let words: Vec<String> = ["sim", "experiment", "experiments/q.toml"]
            .map(String::from)
            .to_vec();
        let config = serde_json::json!({"out": "results/q"});
        assert_eq!(out_of(&words, &config), Some(PathBuf::from("results/q")));
        assert_eq!(out_of(&words, &serde_json::Value::Null), None);
    }

    #[test]
    fn an_agent_spec_in_an_older_spelling_is_the_same_cell_and_nothing_else_is() {
        let old = "mcts:iters=500,time_ms=0,c=0.7,rollout=random,epsilon=0.1,depth=0,rounds=0,\
                   worlds=1,final=visits,sm=ucb,gamma=0.1,chance=open,root=uct";
        let new = format!("{old},bias=0,reuse=false");
        let file = |spec: &str| format!("agent,spec\nrandom,random\nmcts,\"{spec}\"\n");
        let committed = file(old);
        assert_eq!(
            same_but_spelling(committed.as_bytes(), file(&new).as_bytes()),
            Some(1)
        );
        // Another agent: another iters value, or a parameter off its default.
        for other in [
            new.replace("iters=500", "iters=600"),
            new.replace("reuse=false", "reuse=true"),
        ] {
            assert_eq!(
                same_but_spelling(committed.as_bytes(), file(&other).as_bytes()),
                None,
                "{other}"
            );
        }
        // Any other cell or byte: the label, the quoting, a line ending, an extra row.
        let changed = [
            file(&new).replace("mcts,", "mcts#1,"),
            file(&new).replace("random,random", "\"random\",random"),
            file(&new).replace('\n', "\r\n"),
            format!("{}x,random\n", file(&new)),
        ];
        for c in changed {
            assert_eq!(
                same_but_spelling(committed.as_bytes(), c.as_bytes()),
                None,
                "{c}"
            );
        }
        // The same bytes are not a respelling (compare counts them as the same file).
        assert_eq!(
            same_but_spelling(committed.as_bytes(), committed.as_bytes()),
            None
        );
        // Through compare: counted as reproduced, and named.
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a"), d.path().join("b"));
        for (x, spec) in [(&a, old), (&b, new.as_str())] {
            fs::create_dir_all(x.join("pairs/0-1")).unwrap();
            fs::write(x.join("pairs/0-1/agents.csv"), file(spec)).unwrap();
            fs::write(x.join("summary.csv"), "h\n1\n").unwrap();
        }
        let r = compare(&a, &b, &[]);
        assert!(r.reproduced(), "{:?}", r.differ);
        assert_eq!(r.respelled, [("pairs/0-1/agents.csv".to_string(), 1)]);
        let line = r.line(Path::new("f"));
        assert!(
            line.contains("pairs/0-1/agents.csv: same agents, older spelling (1 cells)"),
            "{line}"
        );
        fs::write(
            b.join("pairs/0-1/agents.csv"),
            file(&new.replace("iters=500", "iters=600")),
        )
        .unwrap();
        let r = compare(&a, &b, &[]);
        assert!(!r.reproduced());
        assert!(
            r.differ[0].starts_with("pairs/0-1/agents.csv line 3"),
            "{:?}",
            r.differ
        );
    }

    #[test]
    fn the_root_is_the_folder_without_its_out_path() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("results/q");
        fs::create_dir_all(&f).unwrap();
        let root = root_of(&f, Path::new("results/q")).unwrap();
        assert_eq!(root, fs::canonicalize(d.path()).unwrap());
        let e = root_of(&f, Path::new("results/other")).unwrap_err();
        assert!(e.contains("moved or renamed"), "{e}");
        assert!(root_of(&f, Path::new("/abs")).is_err());
        assert!(root_of(&f, Path::new("../q")).is_err());
    }

    #[test]
    fn a_changed_byte_is_named_with_its_line() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a"), d.path().join("b"));
        for x in [&a, &b] {
            fs::create_dir_all(x.join("cells/0")).unwrap();
            fs::write(x.join("report.md"), "same\n").unwrap();
        }
        fs::write(a.join("summary.csv"), "h\n1\n2\n").unwrap();
        fs::write(b.join("summary.csv"), "h\n1\n3\n").unwrap();
        fs::write(a.join("cells/0/seats.csv"), "s\n").unwrap();
        fs::write(b.join("cells/0/seats.csv"), "s\n").unwrap();
        fs::write(b.join("cells/0/games.csv"), "g\n").unwrap();
        fs::write(a.join("kept.csv"), "k\n").unwrap();
        let r = compare(&a, &b, &["kept.csv".into()]);
        assert!(!r.reproduced());
        assert_eq!(r.same, ["cells/0/seats.csv"]);
        assert_eq!(
            r.differ,
            ["summary.csv line 3: committed \"2\\n\" rerun \"3\\n\""]
        );
        assert_eq!(r.not_committed, ["cells/0/games.csv"]);
        assert_eq!(r.kept, ["kept.csv"]);
        assert_eq!(r.other_same, 1);
        fs::write(b.join("summary.csv"), "h\n1\n2\n").unwrap();
        let r = compare(&a, &b, &["kept.csv".into()]);
        assert!(r.reproduced(), "{:?}", r.differ);
        fs::remove_file(b.join("summary.csv")).unwrap();
        let r = compare(&a, &b, &[]);
        assert_eq!(
            r.differ,
            [
                "kept.csv: not written by the rerun",
                "summary.csv: not written by the rerun"
            ]
        );
    }
}
