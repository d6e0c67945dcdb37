//! How the per-game rows are stored (`--games-file csv|gz|none`): `games.csv`, `games.csv.gz`,
//! or no games file at all. Every other file of a run is the same for the three.
//!
//! **gz.** `games.csv.gz` is a multi-member gzip file (RFC 1952 §2.2; `zcat`, Python's
//! `gzip`, pandas and R read it as one file): one member per [`CHUNK`] of game indices
//! (`0..4096`, `4096..8192`, ...; the first also holding the header), each compressed in
//! one piece at the default level when its last game has been handed over. A member is thus
//! a pure function of its rows, so the file is byte-identical for any thread count, after
//! a resume, and after `sim merge`. Checkpoints of a gz run are taken at member boundaries
//! only (the compressed file can be cut there); an interrupted run resumes from the last
//! boundary, replaying at most one chunk. The cost is the compression on the writer thread
//! and a member's rows in memory (4,096 games: 0.74 MB for Daxu, 1.8 MB for Daimyo at 4
//! players, 3.0 MB for Dunhuang at 4 players, measured with random agents).
//!
//! **none.** No games file: the statistics, `errors.csv` and `checkpoint.json` are written
//! as usual, so `sim merge` still rebuilds every statistics file of the whole run; what is
//! lost is the per-game table (no per-game analysis, no `sim report` of single games).

use std::fs::File;
use std::io::{self, BufWriter, Write};

use flate2::Compression;
use flate2::write::GzEncoder;
use sha2::{Digest, Sha256};

use super::run::CHUNK;

/// How `games.csv` is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum GamesFile {
    /// `games.csv` (the default).
    #[default]
    Csv,
    /// `games.csv.gz`, gzip members of [`CHUNK`] games.
    Gz,
    /// No games file.
    None,
}

impl std::str::FromStr for GamesFile {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "csv" => Ok(GamesFile::Csv),
            "gz" => Ok(GamesFile::Gz),
            "none" => Ok(GamesFile::None),
            other => Err(format!(
                "'{other}' is not a games file format; valid: csv, gz, none"
            )),
        }
    }
}

impl GamesFile {
    /// The file name, if any.
    pub fn file_name(self) -> Option<&'static str> {
        match self {
            GamesFile::Csv => Some("games.csv"),
            GamesFile::Gz => Some("games.csv.gz"),
            GamesFile::None => None,
        }
    }

    /// The option value (`csv`, `gz`, `none`).
    pub fn name(self) -> &'static str {
        match self {
            GamesFile::Csv => "csv",
            GamesFile::Gz => "gz",
            GamesFile::None => "none",
        }
    }

    /// What the manifest records ([`crate::output::Manifest::games_file`]): nothing for csv.
    pub fn manifest_value(self) -> Option<String> {
        (self != GamesFile::Csv).then(|| self.name().to_string())
    }

    /// The inverse of [`GamesFile::manifest_value`].
    ///
    /// # Errors
    /// An unknown value, named.
    pub fn from_manifest(v: Option<&str>) -> Result<Self, String> {
        v.map_or(Ok(GamesFile::Csv), str::parse)
    }
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 state after the first `len` bytes of the file at `path`, and that digest
/// in hex.
///
/// # Errors
/// The I/O error, or [`std::io::ErrorKind::UnexpectedEof`] if the file is shorter.
pub fn hash_prefix(path: &std::path::Path, len: u64) -> io::Result<(Sha256, String)> {
    let mut f = io::Read::take(File::open(path)?, len);
    let mut hash = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut read = 0u64;
    loop {
        let n = io::Read::read(&mut f, &mut buf)?;
        if n == 0 {
            break;
        }
        hash.update(&buf[..n]);
        read += n as u64;
    }
    if read < len {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("holds {read} bytes, fewer than {len}"),
        ));
    }
    let sha = hex(&hash.clone().finalize());
    Ok((hash, sha))
}

/// The writer of the games file: rows are handed over in index order with the index of
/// their first game.
#[derive(Debug)]
pub struct GamesWriter {
    kind: GamesFile,
    file: Option<BufWriter<File>>,
    /// gz: the rows of the current member.
    pending: Vec<u8>,
    /// gz: the first game index of the next member.
    member_end: u64,
    /// Bytes in the file so far (the checkpoint's `games_bytes`).
    bytes: u64,
    /// SHA-256 of those bytes (the checkpoint's `games_sha256`).
    hash: Sha256,
    /// Whether `hash` is kept: not for a csv file covered by a checksum chain
    /// ([`super::chain`]), whose rows the chain hashes already (one pass, not two).
    hashing: bool,
}

impl GamesWriter {
    /// A writer appending to `file` (`None` for [`GamesFile::None`]), which holds `bytes`
    /// bytes, the next game to write being `next_game`.
    pub fn new(kind: GamesFile, file: Option<BufWriter<File>>, bytes: u64, next_game: u64) -> Self {
        GamesWriter {
            kind,
            file,
            pending: Vec::new(),
            member_end: (next_game / CHUNK + 1) * CHUNK,
            bytes,
            hash: Sha256::new(),
            hashing: true,
        }
    }

    /// A writer that keeps no whole-file SHA-256 for a csv file (its checkpoints record an
    /// empty `games_sha256`): the rows are covered by the checksum chain instead. A gz
    /// file's compressed bytes are still hashed.
    pub fn chained(mut self) -> Self {
        self.hashing = self.kind != GamesFile::Csv;
        self
    }

    /// Continues from `hash`, the SHA-256 state of the `bytes` bytes the file already holds
    /// (a resumed run hashes them again, checking them against its checkpoint).
    pub fn with_hash(mut self, hash: Sha256) -> Self {
        self.hash = hash;
        self
    }

    /// Where the file stands, for a checkpoint: its length in bytes and the SHA-256 (hex)
    /// of those bytes (empty without a games file).
    pub fn mark(&self) -> (u64, String) {
        let sha = if self.file.is_some() && self.hashing {
            hex(&self.hash.clone().finalize())
        } else {
            String::new()
        };
        (self.bytes, sha)
    }

    /// Writes the header (a fresh file).
    ///
    /// # Errors
    /// The I/O error.
    pub fn header(&mut self, header: &[u8]) -> io::Result<()> {
        self.put(header)
    }

    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        match (self.kind, &mut self.file) {
            (GamesFile::Csv, Some(f)) => {
                f.write_all(bytes)?;
                if self.hashing {
                    self.hash.update(bytes);
                }
                self.bytes += bytes.len() as u64;
            }
            (GamesFile::Gz, _) => self.pending.extend_from_slice(bytes),
            _ => {}
        }
        Ok(())
    }

    /// Appends the rows of games from `first_game` on (all of one [`CHUNK`]).
    ///
    /// # Errors
    /// The I/O error.
    pub fn rows(&mut self, first_game: u64, rows: &[u8]) -> io::Result<()> {
        if self.kind == GamesFile::Gz && first_game >= self.member_end {
            self.emit()?;
            self.member_end = (first_game / CHUNK + 1) * CHUNK;
        }
        self.put(rows)
    }

    /// Says that the games before `next_game` have all been handed over: ends a gz member
    /// at a chunk boundary. Returns whether the file can be cut here (a checkpoint may
    /// record [`GamesWriter::bytes`]): always for csv and none, at member boundaries for gz.
    ///
    /// # Errors
    /// The I/O error.
    pub fn reached(&mut self, next_game: u64) -> io::Result<bool> {
        if self.kind != GamesFile::Gz {
            return Ok(true);
        }
        if next_game >= self.member_end {
            self.emit()?;
            self.member_end = (next_game / CHUNK + 1) * CHUNK;
        }
        Ok(self.pending.is_empty())
    }

    /// Compresses the pending rows into one gzip member.
    fn emit(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let Some(f) = &mut self.file else {
            return Ok(());
        };
        let mut enc = GzEncoder::new(
            Vec::with_capacity(self.pending.len() / 4),
            Compression::default(),
        );
        enc.write_all(&self.pending)?;
        let member = enc.finish()?;
        f.write_all(&member)?;
        self.hash.update(&member);
        self.bytes += member.len() as u64;
        self.pending.clear();
        Ok(())
    }

    /// The bytes in the file (for a checkpoint: meaningful when [`GamesWriter::reached`]
    /// said the file can be cut).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Flushes what the file holds (not a pending gz member).
    ///
    /// # Errors
    /// The I/O error.
    pub fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }

    /// Writes the last member and flushes.
    ///
    /// # Errors
    /// The I/O error.
    pub fn finish(&mut self) -> io::Result<()> {
        self.emit()?;
        self.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn gz_of(chunks: &[(u64, &[u8])], reach: bool) -> Vec<u8> {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("g.gz");
        let f = BufWriter::new(File::create(&p).unwrap());
        let mut w = GamesWriter::new(GamesFile::Gz, Some(f), 0, 0);
        w.header(b"h\n").unwrap();
        for (g, rows) in chunks {
            w.rows(*g, rows).unwrap();
            if reach {
                w.reached(g + 1).unwrap();
            }
        }
        w.finish().unwrap();
        drop(w);
        std::fs::read(p).unwrap()
    }

    #[test]
    fn gz_members_depend_only_on_the_rows() {
        let rows: Vec<(u64, &[u8])> = vec![
            (0, b"0\n"),
            (5, b"5\n"),
            (CHUNK, b"c\n"),
            (CHUNK * 3 + 1, b"d\n"),
        ];
        let a = gz_of(&rows, true);
        let b = gz_of(&rows, false);
        assert_eq!(a, b);
        let mut text = String::new();
        flate2::read::MultiGzDecoder::new(&a[..])
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "h\n0\n5\nc\nd\n");
        // Three members: each starts with the gzip magic.
        let members = a.windows(3).filter(|w| *w == [0x1f, 0x8b, 8]).count();
        assert_eq!(members, 3);
    }

    #[test]
    fn parses_the_option() {
        assert_eq!("gz".parse(), Ok(GamesFile::Gz));
        assert!(
            "zip"
                .parse::<GamesFile>()
                .unwrap_err()
                .contains("csv, gz, none")
        );
        assert_eq!(GamesFile::from_manifest(None), Ok(GamesFile::Csv));
        assert_eq!(GamesFile::from_manifest(Some("none")), Ok(GamesFile::None));
    }
}
