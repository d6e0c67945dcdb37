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

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

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
        }
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
    /// it holds them, else from `play`, then appended to the journal.
    ///
    /// # Errors
    /// `play`'s, or the I/O error of writing.
    pub fn call(
        &self,
        kind: &str,
        settings: &[String],
        (start, count): (u64, u64),
        play: impl FnOnce() -> Result<Vec<Vec<f64>>, BalanceError>,
    ) -> Result<Vec<Vec<f64>>, BalanceError> {
        let k = key(kind, settings, start, count);
        if let Some(rows) = self.cached.get(&k).and_then(|v| decode(v)) {
            self.replayed.fetch_add(1, Ordering::Relaxed);
            return Ok(rows);
        }
        let rows = play()?;
        if let Some(f) = self.file.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            writeln!(f, "{k}\t{}", encode(&rows))
                .and_then(|()| f.flush())
                .map_err(|e| BalanceError::Failed(format!("writing the journal: {e}")))?;
            self.written.fetch_add(1, Ordering::Relaxed);
        }
        Ok(rows)
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
            j.call("one", &s, (0, 2), || Ok(vec![vec![1.5], vec![-2.0]]))
                .unwrap();
            j.call("one", &s, (2, 2), || Ok(vec![vec![0.25], vec![0.5]]))
                .unwrap();
        }
        // An interrupt mid-write: the last line loses its end.
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 3]).unwrap();
        let j = Journal::open(&path, "spec", true).unwrap();
        let first = j
            .call("one", &s, (0, 2), || panic!("replayed, not played"))
            .unwrap();
        assert_eq!(first, vec![vec![1.5], vec![-2.0]]);
        let mut played = false;
        j.call("one", &s, (2, 2), || {
            played = true;
            Ok(vec![vec![0.25], vec![0.5]])
        })
        .unwrap();
        assert!(played, "the cut line is played again");
        assert_eq!(j.replayed(), 1);
        assert!(Journal::open(&path, "other spec", true).is_err());
        assert!(Journal::open(&path, "spec", false).is_err(), "exists");
    }
}
