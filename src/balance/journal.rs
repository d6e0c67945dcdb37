//! The journal that makes `sim balance` resumable (issue 24 item 2, "resumable like
//! tournaments").
//!
//! Every method is a deterministic function of the responses it is given: the same
//! responses in the same order give the same probes, the same choices and the same
//! outputs. So a study records each batch of responses as it gets it, one line per call
//! of the sampler (`play(settings, start, count)`), flushed at once; after an interrupt,
//! `--resume` answers the calls the journal holds from it and plays only the rest, and
//! the outputs are byte-for-byte those of an uninterrupted run.
//!
//! Format (`journal.tsv`, UTF-8): a first line `# sim balance journal <sha256 of the spec
//! text>`, then per call `kind<TAB>settings<TAB>start<TAB>count<TAB>values`, `kind` `one`
//! (the primary objective's responses) or `all` (every objective's measures), `settings`
//! space-joined, `values` the responses as the hexadecimal bits of each `f64` (exact),
//! comma-separated, games separated by `;` for `all`. A line cut short by the interrupt
//! (no newline, or a bad field) ends the replay: it and anything after are played again.
//!
//! **Shards** ([`Journal::open_shard`], `sim balance --shard I/N`). The same determinism
//! lets N processes share one study: every call's games `start..start + count` are cut
//! into N contiguous slices (slice `i` is `start + count·i/N .. start + count·(i+1)/N`);
//! shard `i` plays only its slice and appends it to its own journal
//! (`journal-shard-I-of-N.tsv` in the output folder, the same line format with the whole
//! call's key and the slice's values, its first line also naming the shard), then reads
//! the other shards' journals for theirs. Game `j` of a call has the same seed whoever
//! plays it, so the concatenated slices are the whole call's responses, bit for bit, and
//! every shard follows the search exactly as one process would. A slice not yet written
//! stops the shard ([`BalanceError::Waiting`]: run the missing shards, then this one
//! again), or with a wait it polls the folder until the slice appears.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use super::BalanceError;

/// The journal's file name in the output folder.
pub const JOURNAL_FILE: &str = "journal.tsv";

/// A study's journal: the calls replayed from an earlier run, and the file each new call
/// is appended to.
pub struct Journal {
    cached: HashMap<String, String>,
    file: Mutex<Option<std::fs::File>>,
    replayed: AtomicU64,
    written: AtomicU64,
    shard: Option<Shard>,
}

/// A shard's part of a study ([`Journal::open_shard`]).
struct Shard {
    /// This shard (0-based) and the shard count.
    index: usize,
    count: usize,
    /// The output folder holding every shard's journal.
    dir: PathBuf,
    /// The header every shard's journal starts with, but for the shard's own name.
    head: String,
    /// Each shard's slices read so far (by shard), each call's key to its values.
    seen: Mutex<Vec<HashMap<String, String>>>,
    /// How long to poll for another shard's slice; `None`: stop at once.
    wait: Option<Duration>,
}

/// The file name of shard `index`'s journal among `count` shards.
pub fn shard_file(index: usize, count: usize) -> String {
    format!("journal-shard-{index}-of-{count}.tsv")
}

/// The games of shard `index` of `count` in a call of `count_games` games from `start`:
/// `(first game, games)`; contiguous, in shard order, covering the call exactly.
pub fn shard_slice(start: u64, count_games: u64, index: usize, count: usize) -> (u64, u64) {
    let cut = |i: usize| (u128::from(count_games) * i as u128 / count as u128) as u64;
    let (lo, hi) = (cut(index), cut(index + 1));
    (start + lo, hi - lo)
}

/// The complete lines of a journal file after its first line `head`: each call's key to
/// its values, and the text of the lines kept (the header included). A missing file is
/// empty; a file of another spec or shard is refused.
fn read_lines(path: &Path, head: &str) -> Result<(HashMap<String, String>, String), BalanceError> {
    let io = |e: std::io::Error| BalanceError::Failed(format!("{}: {e}", path.display()));
    let mut cached = HashMap::new();
    let mut keep = String::new();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((cached, keep)),
        Err(e) => return Err(io(e)),
    };
    let mut lines = text.split_inclusive('\n');
    match lines.next() {
        Some(l) if l.trim_end() == head => keep.push_str(l),
        // Written but for its first line: a shard that was just starting.
        None => return Ok((cached, keep)),
        Some(l) if !l.ends_with('\n') && head.starts_with(l) => return Ok((cached, keep)),
        _ => {
            return Err(BalanceError::Game(format!(
                "{} is the journal of another spec (its first line is not `{head}`); remove \
                 it or use the spec it was written for",
                path.display()
            )));
        }
    }
    read_entries(lines, &mut cached, &mut keep);
    Ok((cached, keep))
}

/// Reads a journal's entry lines (after its first line) into `cached` (each call's key to
/// its values) and their text into `keep`, up to the first line that is not a whole, valid
/// entry: a line cut by a kill, and everything after it, is left out (played again).
fn read_entries<'a>(
    lines: impl Iterator<Item = &'a str>,
    cached: &mut HashMap<String, String>,
    keep: &mut String,
) {
    for l in lines {
        let Some(body) = l.strip_suffix('\n') else {
            break;
        };
        let fields: Vec<&str> = body.split('\t').collect();
        if fields.len() != 5 || decode(fields[4]).is_none() {
            break;
        }
        cached.insert(fields[..4].join("\t"), fields[4].to_string());
        keep.push_str(l);
    }
}

/// The first line of a journal for `spec_text`.
fn header(spec_text: &str) -> String {
    let digest: String = Sha256::digest(spec_text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("# sim balance journal {digest}")
}

fn key(kind: &str, settings: &[String], start: u64, count: u64) -> String {
    format!("{kind}\t{}\t{start}\t{count}", settings.join(" "))
}

fn encode(rows: &[Vec<f64>]) -> String {
    rows.iter()
        .map(|r| {
            r.iter()
                .map(|x| format!("{:x}", x.to_bits()))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join(";")
}

fn decode(text: &str) -> Option<Vec<Vec<f64>>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(';')
        .map(|r| {
            r.split(',')
                .map(|x| u64::from_str_radix(x, 16).ok().map(f64::from_bits))
                .collect()
        })
        .collect()
}

impl Journal {
    /// No journal: every call is played, nothing is written.
    pub fn none() -> Journal {
        Journal {
            cached: HashMap::new(),
            file: Mutex::new(None),
            replayed: AtomicU64::new(0),
            written: AtomicU64::new(0),
            shard: None,
        }
    }

    /// Opens shard `index` of `count`'s journal in `dir` for the spec `spec_text`
    /// ([`shard_file`]; module docs): its own complete lines are replayed (a shard is run
    /// again until the study is done), the other shards' journals are read as their
    /// slices are needed, and each call not yet played is cut into slices
    /// ([`shard_slice`]). `wait`: how long [`Journal::call`] polls for another shard's
    /// slice before it stops with [`BalanceError::Waiting`] (`None`: at once).
    ///
    /// # Errors
    /// [`BalanceError::Game`] (bad input) for an index not below the count, or a shard
    /// journal in `dir` of another spec; the I/O error of reading or writing.
    pub fn open_shard(
        dir: &Path,
        spec_text: &str,
        (index, count): (usize, usize),
        wait: Option<Duration>,
    ) -> Result<Journal, BalanceError> {
        if count == 0 || index >= count {
            return Err(BalanceError::Game(format!(
                "bad --shard {index}/{count}: expected I/N with 0 <= I < N (0/2, 1/2)"
            )));
        }
        let head = header(spec_text);
        let own = dir.join(shard_file(index, count));
        let own_head = format!("{head} shard {index}/{count}");
        let (cached, mut keep) = read_lines(&own, &own_head)?;
        if keep.is_empty() {
            keep = format!("{own_head}\n");
        }
        let io = |e: std::io::Error| BalanceError::Failed(format!("{}: {e}", own.display()));
        std::fs::write(&own, &keep).map_err(io)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&own)
            .map_err(io)?;
        let mut seen = vec![HashMap::new(); count];
        seen[index] = cached;
        Ok(Journal {
            cached: HashMap::new(),
            file: Mutex::new(Some(file)),
            replayed: AtomicU64::new(0),
            written: AtomicU64::new(0),
            shard: Some(Shard {
                index,
                count,
                dir: dir.to_path_buf(),
                head,
                seen: Mutex::new(seen),
                wait,
            }),
        })
    }

    /// Opens the journal at `path` for the spec `spec_text`: with `resume`, replays the
    /// complete lines of an existing journal (and appends to it); without, starts a new
    /// one.
    ///
    /// # Errors
    /// [`BalanceError::Game`] (bad input) when resuming from a journal of another spec or
    /// from none, or when a journal exists and `resume` is not set; the I/O error of
    /// reading or writing.
    pub fn open(path: &Path, spec_text: &str, resume: bool) -> Result<Journal, BalanceError> {
        let io = |e: std::io::Error| BalanceError::Failed(format!("{}: {e}", path.display()));
        let head = header(spec_text);
        let mut cached = HashMap::new();
        let exists = path.exists();
        if exists && !resume {
            return Err(BalanceError::Game(format!(
                "{} holds the journal of an unfinished study: pass --resume to continue it, \
                 or remove it to start again",
                path.display()
            )));
        }
        let mut keep = String::new();
        if resume {
            if !exists {
                return Err(BalanceError::Game(format!(
                    "--resume: no journal at {} (valid: the --out folder of an interrupted \
                     study)",
                    path.display()
                )));
            }
            let text = std::fs::read_to_string(path).map_err(io)?;
            let mut lines = text.split_inclusive('\n');
            match lines.next() {
                Some(l) if l.trim_end() == head => keep.push_str(l),
                _ => {
                    return Err(BalanceError::Game(format!(
                        "--resume: {} is the journal of another spec (its first line is not \
                         `{head}`); remove it or use the spec it was written for",
                        path.display()
                    )));
                }
            }
            read_entries(lines, &mut cached, &mut keep);
        } else {
            keep = format!("{head}\n");
        }
        // Rewrite the journal as its complete lines, so appends follow a whole line.
        std::fs::write(path, &keep).map_err(io)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok(Journal {
            cached,
            file: Mutex::new(Some(file)),
            replayed: AtomicU64::new(0),
            written: AtomicU64::new(0),
            shard: None,
        })
    }

    /// Calls answered from the journal so far.
    pub fn replayed(&self) -> u64 {
        self.replayed.load(Ordering::Relaxed)
    }

    /// Calls played and appended so far.
    pub fn written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }

    /// The rows of the call (`kind`, `settings`, `start`, `count`): from the journal when
    /// it holds them, else from `play(start, count)`, then appended to the journal. A
    /// shard ([`Journal::open_shard`]) plays only its slice of the games and takes the
    /// others' from their journals.
    ///
    /// # Errors
    /// `play`'s, or the I/O error of writing; for a shard, [`BalanceError::Waiting`] when
    /// another shard's slice is not there (after the wait, if any).
    pub fn call(
        &self,
        kind: &str,
        settings: &[String],
        (start, count): (u64, u64),
        play: impl FnOnce(u64, u64) -> Result<Vec<Vec<f64>>, BalanceError>,
    ) -> Result<Vec<Vec<f64>>, BalanceError> {
        let k = key(kind, settings, start, count);
        if let Some(rows) = self.cached.get(&k).and_then(|v| decode(v)) {
            self.replayed.fetch_add(1, Ordering::Relaxed);
            return Ok(rows);
        }
        if let Some(sh) = &self.shard {
            // A call of no games (the check of every setting before a study) is no one's.
            if count == 0 {
                return play(start, 0);
            }
            return self.shard_call(sh, &k, (start, count), play);
        }
        let rows = play(start, count)?;
        self.append(&k, &rows)?;
        Ok(rows)
    }

    /// Appends a call's line (a shard: its slice) to the journal file.
    fn append(&self, k: &str, rows: &[Vec<f64>]) -> Result<(), BalanceError> {
        if let Some(f) = self.file.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            writeln!(f, "{k}\t{}", encode(rows))
                .and_then(|()| f.flush())
                .map_err(|e| BalanceError::Failed(format!("writing the journal: {e}")))?;
            self.written.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// [`Journal::call`] for a shard: its own slice (replayed or played), then every
    /// other shard's from its journal, polled until `wait` runs out.
    fn shard_call(
        &self,
        sh: &Shard,
        k: &str,
        (start, count): (u64, u64),
        play: impl FnOnce(u64, u64) -> Result<Vec<Vec<f64>>, BalanceError>,
    ) -> Result<Vec<Vec<f64>>, BalanceError> {
        let own = sh.seen.lock().unwrap_or_else(|e| e.into_inner())[sh.index]
            .get(k)
            .cloned();
        if own.is_some() {
            self.replayed.fetch_add(1, Ordering::Relaxed);
        } else {
            let (s, c) = shard_slice(start, count, sh.index, sh.count);
            let rows = play(s, c)?;
            self.append(k, &rows)?;
            sh.seen.lock().unwrap_or_else(|e| e.into_inner())[sh.index]
                .insert(k.to_string(), encode(&rows));
        }
        let began = Instant::now();
        loop {
            let mut missing = Vec::new();
            let mut rows = Vec::new();
            {
                let mut seen = sh.seen.lock().unwrap_or_else(|e| e.into_inner());
                for j in 0..sh.count {
                    if !seen[j].contains_key(k) && j != sh.index {
                        let path = sh.dir.join(shard_file(j, sh.count));
                        let head = format!("{} shard {j}/{}", sh.head, sh.count);
                        seen[j] = read_lines(&path, &head)?.0;
                    }
                    match seen[j].get(k).and_then(|v| decode(v)) {
                        Some(r) => {
                            let expected = shard_slice(start, count, j, sh.count).1;
                            if r.len() as u64 != expected {
                                return Err(BalanceError::Failed(format!(
                                    "{}: the slice of `{k}` has {} games, expected {expected}",
                                    shard_file(j, sh.count),
                                    r.len()
                                )));
                            }
                            rows.extend(r);
                        }
                        None => missing.push(j),
                    }
                }
            }
            if missing.is_empty() {
                return Ok(rows);
            }
            match sh.wait {
                Some(w) if began.elapsed() < w => std::thread::sleep(Duration::from_millis(200)),
                _ => {
                    return Err(BalanceError::Waiting(format!(
                        "shard {}/{}: played its games of the call `{}`; waiting for shard{} {} \
                         (run {}, then this shard again)",
                        sh.index,
                        sh.count,
                        k.replace('\t', " "),
                        if missing.len() > 1 { "s" } else { "" },
                        missing
                            .iter()
                            .map(|j| format!("{j}/{}", sh.count))
                            .collect::<Vec<_>>()
                            .join(", "),
                        if missing.len() > 1 { "them" } else { "it" }
                    )));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_exactly() {
        let rows = vec![vec![0.1, -1.0 / 3.0, 0.0], vec![f64::MAX, 5e-324, -0.0]];
        let back = decode(&encode(&rows)).unwrap();
        for (a, b) in rows.iter().flatten().zip(back.iter().flatten()) {
            assert_eq!(a.to_bits(), b.to_bits());
        }
        assert_eq!(decode("").unwrap(), Vec::<Vec<f64>>::new());
        assert!(decode("zz").is_none());
    }

    /// A journal replays its complete lines, drops a line cut short, and refuses another
    /// spec's journal.
    #[test]
    fn replays_complete_lines_and_refuses_another_spec() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(JOURNAL_FILE);
        let s = vec!["komi=0/1".to_string()];
        {
            let j = Journal::open(&path, "spec", false).unwrap();
            j.call("one", &s, (0, 2), |_, _| Ok(vec![vec![1.5], vec![-2.0]]))
                .unwrap();
            j.call("one", &s, (2, 2), |_, _| Ok(vec![vec![0.25], vec![0.5]]))
                .unwrap();
        }
        // An interrupt mid-write: the last line loses its end.
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 3]).unwrap();
        let j = Journal::open(&path, "spec", true).unwrap();
        let first = j
            .call("one", &s, (0, 2), |_, _| panic!("replayed, not played"))
            .unwrap();
        assert_eq!(first, vec![vec![1.5], vec![-2.0]]);
        let mut played = false;
        j.call("one", &s, (2, 2), |_, _| {
            played = true;
            Ok(vec![vec![0.25], vec![0.5]])
        })
        .unwrap();
        assert!(played, "the cut line is played again");
        assert_eq!(j.replayed(), 1);
        assert!(Journal::open(&path, "other spec", true).is_err());
        assert!(Journal::open(&path, "spec", false).is_err(), "exists");
    }

    /// Shard slices cover a call exactly, in order, whatever the count.
    #[test]
    fn shard_slices_cover_the_call() {
        for (count_games, n) in [(0u64, 1usize), (10, 3), (7, 7), (5, 8), (1000, 3)] {
            let mut next = 100;
            for i in 0..n {
                let (s, c) = shard_slice(100, count_games, i, n);
                assert_eq!(s, next, "{count_games} games, shard {i}/{n}");
                next = s + c;
            }
            assert_eq!(next, 100 + count_games);
        }
    }

    /// Two shards of one call: each plays only its slice (game `j`'s response is `j`), the
    /// first stops waiting for the second, and once both have played each gets the whole
    /// call, in game order; a shard run again replays its slice instead of playing it.
    #[test]
    fn shards_play_their_slices_and_assemble_the_call() {
        let tmp = tempfile::tempdir().unwrap();
        let s = vec!["komi=0/1".to_string()];
        let games = |start: u64, count: u64| -> Result<Vec<Vec<f64>>, BalanceError> {
            Ok((start..start + count).map(|j| vec![j as f64]).collect())
        };
        let whole = games(10, 7).unwrap();
        let j0 = Journal::open_shard(tmp.path(), "spec", (0, 2), None).unwrap();
        let mut asked = Vec::new();
        let e = j0
            .call("one", &s, (10, 7), |a, c| {
                asked.push((a, c));
                games(a, c)
            })
            .unwrap_err();
        assert!(
            matches!(e, BalanceError::Waiting(ref m) if m.contains("shard 1/2")),
            "{e}"
        );
        assert_eq!(asked, [(10, 3)]);
        let j1 = Journal::open_shard(tmp.path(), "spec", (1, 2), None).unwrap();
        let rows = j1
            .call("one", &s, (10, 7), |a, c| {
                assert_eq!((a, c), (13, 4));
                games(a, c)
            })
            .unwrap();
        assert_eq!(rows, whole);
        drop(j0);
        let j0 = Journal::open_shard(tmp.path(), "spec", (0, 2), None).unwrap();
        let rows = j0
            .call("one", &s, (10, 7), |_, _| panic!("replayed, not played"))
            .unwrap();
        assert_eq!(rows, whole);
        // Another spec's shard journal in the folder is refused.
        let j = Journal::open_shard(tmp.path(), "other", (1, 2), None);
        assert!(j.is_err());
        assert!(Journal::open_shard(tmp.path(), "spec", (2, 2), None).is_err());
    }
}
