//! The checksum chain of a tournament's rows and tallies, block by block: what lets
//! `--resume`, `sim merge` and `sim verify` refuse an edited, forged, truncated or reordered
//! run and name the *first bad block* (issue 26, item 4).
//!
//! # Blocks
//! A run's games `start..end` are cut into blocks at the multiples of [`BLOCK_GAMES`] (the
//! runner's chunk, [`super::run::CHUNK`], which is also a `games.csv.gz` member): a shard
//! that starts or ends inside a chunk has a short first or last block. The cut depends only
//! on the game indices, never on the thread count or on where a run was stopped, so the
//! chain is byte-identical for any thread count, after a resume, and, because `sim merge`
//! recomputes it over the merged rows (blocks at the same multiples), in a merge.
//!
//! # A block's record ([`ChainBlock`])
//! Its games `first..end`; its integer tallies `played` (games that did not fail) and
//! `failed` (the indices of those that did); the byte length `rows_bytes` and SHA-256
//! `rows_sha256` of its rows in `games.csv` (uncompressed: the same for `--games-file csv`
//! and `gz`; absent with `none`, whose chain covers the tallies only); and `link`, the
//! SHA-256 (hex) of the previous block's link and this record:
//!
//! ```text
//! link[-1] = SHA-256("tabletop-sim chain v1\n" + config_hash + "\n" + header of games.csv)
//! link[k]  = SHA-256(link[k-1] + "\n" + "first,end,played,failed;failed;...,rows_bytes,rows_sha256")
//! ```
//!
//! The chain's `head` binds the last link to the run's accumulated tallies: SHA-256 of the
//! last link, the next game, and the compact JSON of the statistics and failed games of the
//! checkpoint. The checkpoint of an unfinished run also records the length and SHA-256 of
//! the rows after the last complete block (`open`), which a resume checks before appending.
//! With the chain, `games.csv` is hashed once (by the chain), not also whole: a format-v3
//! checkpoint of a csv run records no `games_sha256` (under callgrind, two passes were half
//! the instructions of a Daxu random tournament). `checkpoint.json` holds the whole chain (a 10-million-game run: 2,442
//! blocks, about 0.5 MB); `manifest.json` its version, block size, length and head.
//!
//! # What is checked ([`check`])
//! - the records: contiguous from the run's first game, each inside one chunk, `played +
//!   failed` its games, the failed games exactly those of `errors.csv`'s source (the
//!   checkpoint's failures), the `played` summing to the tallies' game count, and every
//!   link recomputed from the seed (an edited record is its block);
//! - the rows, block by block: each block's `rows_bytes` bytes read from the games file
//!   (after its header), with `played x players` lines, each of a game of the block that
//!   did not fail, hashing to `rows_sha256`; the first block that does not is named with
//!   its games and bytes (an edited digit, a cut file, rows swapped between blocks);
//! - the head, against the checkpoint's tallies (and, for a finished run, the manifest's).
//!
//! These are checksums against accidents and careless edits, which anyone can recompute
//! (the tool is public): not a signature. Runs written before the chain (`checkpoint.json`
//! format v1 and v2, manifests without `chain`) are still read: `sim verify`, `sim merge`
//! and `--resume` then check what those versions recorded (the checkpoint's seal, the
//! games file's length and whole-file SHA-256, the line count) and say that there is no
//! chain; a resumed older run finishes without one.

use std::io::{BufRead, Read};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::games_file::hex;
use super::run::CHUNK;

/// The version of the chain's definition (the `version` field).
pub const VERSION: u32 = 1;

/// Games per block (blocks are cut at its multiples).
pub const BLOCK_GAMES: u64 = CHUNK;

/// One block's record (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainBlock {
    /// Its first game.
    pub first: u64,
    /// One past its last game.
    pub end: u64,
    /// Its games that did not fail (each has one row per seat).
    pub played: u64,
    /// The indices of its games that failed, ascending.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<u64>,
    /// The bytes of its rows in the games file, uncompressed.
    pub rows_bytes: u64,
    /// SHA-256 (hex) of those bytes; empty without a games file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rows_sha256: String,
    /// SHA-256 (hex) of the previous link and this record.
    pub link: String,
}

impl ChainBlock {
    /// The text of this record that its link hashes (everything but the link).
    fn text(&self) -> String {
        let failed: Vec<String> = self.failed.iter().map(u64::to_string).collect();
        format!(
            "{},{},{},{},{},{}",
            self.first,
            self.end,
            self.played,
            failed.join(";"),
            self.rows_bytes,
            self.rows_sha256
        )
    }
}

/// The chain of a run (in `checkpoint.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    /// [`VERSION`].
    pub version: u32,
    /// [`BLOCK_GAMES`].
    pub block_games: u64,
    /// Whether the records cover rows (a games file), not only tallies.
    pub rows: bool,
    /// The completed blocks, in game order.
    pub blocks: Vec<ChainBlock>,
    /// In a checkpoint of an unfinished run: the byte length and SHA-256 (hex) of the rows
    /// after the last completed block (the open block's, so far), which a resume checks
    /// before it appends to them. Absent when there are none (and in a finished run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<(u64, String)>,
    /// SHA-256 (hex) of the last link, the next game and the accumulated tallies (see the
    /// module docs; set when the checkpoint is written).
    #[serde(default)]
    pub head: String,
}

/// What `manifest.json` records of the chain of a finished run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainSummary {
    /// [`VERSION`].
    pub version: u32,
    /// [`BLOCK_GAMES`].
    pub block_games: u64,
    /// The number of blocks.
    pub blocks: u64,
    /// [`Chain::head`].
    pub head: String,
}

impl Chain {
    /// The manifest's record of this chain.
    pub fn summary(&self) -> ChainSummary {
        ChainSummary {
            version: self.version,
            block_games: self.block_games,
            blocks: self.blocks.len() as u64,
            head: self.head.clone(),
        }
    }

    /// The head for `next_game` and the tallies' compact JSON `tallies` (see the module
    /// docs; without blocks, the last link is empty).
    pub fn expected_head(&self, next_game: u64, tallies: &str) -> String {
        let mut h = Sha256::new();
        h.update(
            self.blocks
                .last()
                .map_or("", |b| b.link.as_str())
                .as_bytes(),
        );
        h.update(format!("\n{next_game}\n").as_bytes());
        h.update(tallies.as_bytes());
        hex(&h.finalize())
    }
}

/// The link before the first block: SHA-256 of the definition's name, the configuration
/// hash and (with rows) the games file's header.
pub fn seed(config_hash: &str, header: Option<&[u8]>) -> String {
    let mut h = Sha256::new();
    h.update(format!("tabletop-sim chain v{VERSION}\n{config_hash}\n").as_bytes());
    if let Some(header) = header {
        h.update(header);
    }
    hex(&h.finalize())
}

fn link(prev: &str, block: &ChainBlock) -> String {
    let mut h = Sha256::new();
    h.update(prev.as_bytes());
    h.update(b"\n");
    h.update(block.text().as_bytes());
    hex(&h.finalize())
}

/// The end of the block that starts at `first` in a run ending at `end`.
fn block_end(first: u64, end: u64) -> u64 {
    ((first / BLOCK_GAMES + 1) * BLOCK_GAMES).min(end)
}

/// Builds the chain as rows and games are handed over in index order: the rows of a game
/// ([`ChainBuilder::rows`]) before the game itself ([`ChainBuilder::game`]).
#[derive(Debug, Clone)]
pub struct ChainBuilder {
    rows: bool,
    /// One past the run's last game.
    end: u64,
    blocks: Vec<ChainBlock>,
    prev: String,
    /// The open block: its first game, the next game, its tallies and rows so far.
    first: u64,
    next: u64,
    played: u64,
    failed: Vec<u64>,
    hash: Sha256,
    rows_bytes: u64,
}

impl ChainBuilder {
    /// A chain of games `start..end` seeded with `seed` ([`seed`]); `rows`: whether rows
    /// are hashed.
    pub fn new(seed: String, rows: bool, (start, end): (u64, u64)) -> Self {
        ChainBuilder {
            rows,
            end,
            blocks: Vec::new(),
            prev: seed,
            first: start,
            next: start,
            played: 0,
            failed: Vec::new(),
            hash: Sha256::new(),
            rows_bytes: 0,
        }
    }

    /// Continues the chain `saved` of a resumed run whose games before `next_game` were
    /// handed over, `failed` being the failed ones among them and `open_rows` the rows
    /// after the last complete block (both as [`check`] returned them).
    pub fn resume(
        seed: String,
        (start, end): (u64, u64),
        saved: &Chain,
        next_game: u64,
        failed: &[u64],
        open_rows: &[u8],
    ) -> Self {
        let mut b = ChainBuilder::new(seed, saved.rows, (start, end));
        if let Some(last) = saved.blocks.last() {
            b.prev = last.link.clone();
            b.first = last.end;
        }
        b.blocks = saved.blocks.clone();
        b.next = next_game;
        b.failed = failed
            .iter()
            .copied()
            .filter(|&g| g >= b.first && g < next_game)
            .collect();
        b.played = next_game - b.first - b.failed.len() as u64;
        b.rows(open_rows);
        b
    }

    /// Adds rows of the game about to be handed over ([`ChainBuilder::game`]).
    pub fn rows(&mut self, bytes: &[u8]) {
        if self.rows {
            self.hash.update(bytes);
            self.rows_bytes += bytes.len() as u64;
        }
    }

    /// Hands over game `g` (the next game; `failed`: it failed and has no rows), closing
    /// its block if it is the block's last.
    ///
    /// # Panics
    /// If `g` is not the next game (games are handed over in index order).
    pub fn game(&mut self, g: u64, failed: bool) {
        assert_eq!(g, self.next, "games reach the chain in index order");
        if failed {
            self.failed.push(g);
        } else {
            self.played += 1;
        }
        self.next += 1;
        if self.next == block_end(self.first, self.end) {
            self.close();
        }
    }

    /// Closes the open block, if it holds games (a run that stopped early: a sequential
    /// test that decided).
    pub fn finish(&mut self) {
        if self.next > self.first {
            self.close();
        }
    }

    fn close(&mut self) {
        let hash = std::mem::take(&mut self.hash);
        let mut block = ChainBlock {
            first: self.first,
            end: self.next,
            played: self.played,
            failed: std::mem::take(&mut self.failed),
            rows_bytes: self.rows_bytes,
            rows_sha256: if self.rows {
                hex(&hash.finalize())
            } else {
                String::new()
            },
            link: String::new(),
        };
        block.link = link(&self.prev, &block);
        self.prev = block.link.clone();
        self.blocks.push(block);
        self.first = self.next;
        self.played = 0;
        self.rows_bytes = 0;
    }

    /// The chain of the blocks closed so far (its head is set when a checkpoint is saved).
    pub fn chain(&self) -> Chain {
        Chain {
            version: VERSION,
            block_games: BLOCK_GAMES,
            rows: self.rows,
            blocks: self.blocks.clone(),
            open: (self.rows && self.rows_bytes > 0)
                .then(|| (self.rows_bytes, hex(&self.hash.clone().finalize()))),
            head: String::new(),
        }
    }

    /// The number of blocks closed so far (a cut point of a gz run keeps that many).
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Whether no block is closed yet.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }
}

/// What [`check`] is given: the run and its checkpoint's claims.
#[derive(Debug)]
pub struct Claims<'a> {
    /// [`seed`] of the run.
    pub seed: &'a str,
    /// The run's first game.
    pub start: u64,
    /// The checkpoint's next game.
    pub next_game: u64,
    /// Whether the checkpoint is final (the chain must reach `next_game`).
    pub complete: bool,
    /// The indices of the checkpoint's failed games, ascending.
    pub failed: &'a [u64],
    /// The games the checkpoint's tallies count.
    pub games: u64,
    /// The compact JSON of the checkpoint's tallies (for the head).
    pub tallies: &'a str,
    /// Seats per game (rows per game that did not fail).
    pub players: u64,
    /// The games file's header.
    pub header: &'a [u8],
}

/// Where a check failed: the file (its name as the caller gave it) and what is wrong, the
/// first bad block named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainError(pub String);

impl std::fmt::Display for ChainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn describe(k: usize, n: usize, b: &ChainBlock) -> String {
    format!("block {} of {n} (games {}..{})", k + 1, b.first, b.end)
}

/// Checks `chain` against the checkpoint's `claims` and, when `rows` is given, against the
/// games file's uncompressed contents (header first, named `rows.0` in messages; `rows.1`
/// reads them). Returns the bytes after the last block (the open block's rows of an
/// unfinished run; empty for a finished one).
///
/// # Errors
/// A [`ChainError`] naming the file (`checkpoint.json` or the games file) and the first
/// bad block (see the module docs).
pub fn check(
    chain: &Chain,
    claims: &Claims<'_>,
    rows: Option<(&str, &mut dyn BufRead)>,
) -> Result<Vec<u8>, ChainError> {
    const CP: &str = "checkpoint.json";
    let err = |s: String| Err(ChainError(s));
    if chain.version != VERSION || chain.block_games != BLOCK_GAMES {
        return err(format!(
            "{CP}: a checksum chain of version {} with blocks of {} games; this version of \
             sim writes version {VERSION} with blocks of {BLOCK_GAMES}",
            chain.version, chain.block_games
        ));
    }
    let n = chain.blocks.len();
    let mut prev = claims.seed.to_string();
    let mut next = claims.start;
    let mut played = 0u64;
    let mut failed = claims.failed.iter().copied().peekable();
    for (k, b) in chain.blocks.iter().enumerate() {
        let at = describe(k, n, b);
        if b.first != next || b.end <= b.first || b.end > block_end(b.first, u64::MAX) {
            return err(format!(
                "{CP}: {at} of the checksum chain does not follow the block before it (games \
                 from {next}, within one block of {BLOCK_GAMES}): the first bad block; the \
                 chain was edited"
            ));
        }
        let want: Vec<u64> = std::iter::from_fn(|| failed.next_if(|&g| g < b.end)).collect();
        if b.failed != want || b.played + b.failed.len() as u64 != b.end - b.first {
            return err(format!(
                "{CP}: {at} of the checksum chain records {} games played and failed games \
                 {:?}, but the checkpoint's failures in it are {want:?}: the first bad block",
                b.played, b.failed
            ));
        }
        if chain.rows == b.rows_sha256.is_empty() || (!chain.rows && b.rows_bytes != 0) {
            return err(format!(
                "{CP}: {at} of the checksum chain has no rows digest: the first bad block"
            ));
        }
        if link(&prev, b) != b.link {
            return err(format!(
                "{CP}: {at} does not match its link in the checksum chain (the SHA-256 of \
                 the block before it and its record): the first bad block; the chain was \
                 edited"
            ));
        }
        prev = b.link.clone();
        played += b.played;
        next = b.end;
    }
    let open_failed = failed.filter(|&g| g < claims.next_game).count() as u64;
    let open = claims.next_game.checked_sub(next);
    let consistent = match open {
        Some(0) => true,
        Some(o) => !claims.complete && o < BLOCK_GAMES && next + o <= block_end(next, u64::MAX),
        None => false,
    };
    if !consistent {
        return err(format!(
            "{CP}: its checksum chain covers games {}..{next} ({n} blocks), but it says the \
             games before {} are done{}: a forged or cut checkpoint",
            claims.start,
            claims.next_game,
            if claims.complete { " (complete)" } else { "" }
        ));
    }
    let open_played = open.unwrap_or(0) - open_failed;
    if played + open_played != claims.games {
        return err(format!(
            "{CP}: its tallies count {} games, but its checksum chain {} played: the tallies \
             were edited",
            claims.games,
            played + open_played
        ));
    }
    if chain.expected_head(claims.next_game, claims.tallies) != chain.head {
        return err(format!(
            "{CP}: the head of its checksum chain is not that of its tallies and progress: \
             the tallies were edited"
        ));
    }
    let Some((name, reader)) = rows else {
        return Ok(Vec::new());
    };
    let mut header = Vec::with_capacity(claims.header.len());
    reader
        .take(claims.header.len() as u64)
        .read_to_end(&mut header)
        .map_err(|e| ChainError(format!("{name}: cannot be read: {e}")))?;
    if header != claims.header {
        return err(format!(
            "{name}: its header is not that of this run (another game or version), or the \
             file is cut before its first block"
        ));
    }
    let mut buf = Vec::new();
    let mut offset = claims.header.len() as u64;
    for (k, b) in chain.blocks.iter().enumerate() {
        let at = describe(k, n, b);
        buf.clear();
        let got = reader
            .take(b.rows_bytes)
            .read_to_end(&mut buf)
            .map_err(|e| ChainError(format!("{name}: {at} cannot be read: {e}")))?;
        let bytes = format!("bytes {offset}..{}", offset + b.rows_bytes);
        if (got as u64) < b.rows_bytes {
            return err(format!(
                "{name}: {at}, {bytes}, is cut after {got} bytes: the first bad block; the \
                 file is truncated"
            ));
        }
        let fits = rows_fit(&buf, b, claims.players);
        if !fits || hex(&Sha256::digest(&buf)) != b.rows_sha256 {
            let why = if fits {
                "its rows do not hash to the block's SHA-256 in checkpoint.json (edited)"
            } else {
                "its rows are not one per seat of each of its games that did not fail \
                 (rows missing, added, cut or reordered)"
            };
            return err(format!(
                "{name}: {at}, {bytes}, does not match the checksum chain: {why}; the first \
                 bad block"
            ));
        }
        offset += b.rows_bytes;
    }
    let mut rest = Vec::new();
    reader
        .read_to_end(&mut rest)
        .map_err(|e| ChainError(format!("{name}: cannot be read after its blocks: {e}")))?;
    if claims.complete && !rest.is_empty() {
        return err(format!(
            "{name}: {} bytes after its last block (from byte {offset}): rows added after \
             the run",
            rest.len()
        ));
    }
    let want = chain.open.clone().unwrap_or((0, hex(&Sha256::digest(b""))));
    if (rest.len() as u64, hex(&Sha256::digest(&rest))) != want {
        return err(format!(
            "{name}: the rows after its last complete block (from byte {offset}, the open \
             block of games from {next}) do not match their length and SHA-256 in \
             checkpoint.json: the first bad block; they were edited or cut"
        ));
    }
    Ok(rest)
}

/// Checks the chain of checkpoint `cp` of a run of configuration `config_hash` in `dir`
/// ([`check`]): against the games file `file` (its name in `dir`: `games.csv`, or
/// `games.csv.partial` of an unfinished run; `None` without one), of kind `kind`, read up to
/// the checkpoint's `games_bytes`. Returns the open block's rows (see [`check`]).
///
/// # Errors
/// A [`ChainError`] naming the file and the first bad block; the I/O error of opening the
/// file, named.
pub fn check_dir(
    dir: &std::path::Path,
    file: Option<&str>,
    kind: super::GamesFile,
    cp: &super::Checkpoint,
    (config_hash, header, players): (&str, &[u8], u64),
) -> Result<Vec<u8>, ChainError> {
    let Some(chain) = &cp.chain else {
        return Ok(Vec::new());
    };
    let rows = kind != super::GamesFile::None;
    if chain.rows != rows {
        return Err(ChainError(format!(
            "checkpoint.json: its checksum chain {} rows, but the run {} a games file",
            if chain.rows {
                "covers"
            } else {
                "does not cover"
            },
            if rows { "has" } else { "has no" }
        )));
    }
    let seed = seed(config_hash, rows.then_some(header));
    let failed = cp.failed_games();
    let tallies = cp.tallies_json();
    let claims = Claims {
        seed: &seed,
        start: cp.start,
        next_game: cp.next_game,
        complete: cp.complete,
        failed: &failed,
        games: cp.stats.games,
        tallies: &tallies,
        players,
        header,
    };
    let Some(name) = file.filter(|_| rows && cp.games_bytes > 0) else {
        return check(chain, &claims, None);
    };
    let f = std::fs::File::open(dir.join(name)).map_err(|e| ChainError(format!("{name}: {e}")))?;
    let limited = f.take(cp.games_bytes);
    let mut reader: Box<dyn BufRead> = if kind == super::GamesFile::Gz {
        Box::new(std::io::BufReader::with_capacity(
            1 << 16,
            flate2::read::MultiGzDecoder::new(std::io::BufReader::new(limited)),
        ))
    } else {
        Box::new(std::io::BufReader::with_capacity(1 << 16, limited))
    };
    check(chain, &claims, Some((name, &mut *reader)))
}

/// Whether `rows` are `played x players` lines, each of a game of block `b` that did not
/// fail, in game order.
fn rows_fit(rows: &[u8], b: &ChainBlock, players: u64) -> bool {
    if !rows.is_empty() && rows.last() != Some(&b'\n') {
        return false;
    }
    let mut lines = 0u64;
    let mut last = b.first;
    for line in rows.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
        lines += 1;
        let game = line
            .split(|&c| c == b',')
            .next()
            .and_then(|f| std::str::from_utf8(f).ok())
            .and_then(|f| f.parse::<u64>().ok());
        match game {
            Some(g) if g >= last && g < b.end && b.failed.binary_search(&g).is_err() => {
                last = g;
            }
            _ => return false,
        }
    }
    lines == b.played * players
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(rows: bool) -> (Chain, Vec<u8>) {
        let seed = seed("h", Some(b"game,x,y,seat\n"));
        let mut b = ChainBuilder::new(seed, rows, (4000, 4200));
        let mut file = b"game,x,y,seat\n".to_vec();
        for g in 4000..4200 {
            let failed = g == 4100;
            if !failed {
                let r = format!("{g},a,b,0\n{g},a,b,1\n");
                b.rows(r.as_bytes());
                file.extend_from_slice(r.as_bytes());
            }
            b.game(g, failed);
        }
        b.finish();
        (b.chain(), file)
    }

    fn claims<'a>(seed: &'a str, failed: &'a [u64]) -> Claims<'a> {
        Claims {
            seed,
            start: 4000,
            next_game: 4200,
            complete: true,
            failed,
            games: 199,
            tallies: "{}",
            players: 2,
            header: b"game,x,y,seat\n",
        }
    }

    #[test]
    fn blocks_are_cut_at_chunks_and_an_edit_names_the_first_bad_block() {
        let (mut chain, file) = build(true);
        assert_eq!(
            chain
                .blocks
                .iter()
                .map(|b| (b.first, b.end))
                .collect::<Vec<_>>(),
            [(4000, 4096), (4096, 4200)]
        );
        assert_eq!(chain.blocks[1].failed, [4100]);
        let s = seed("h", Some(b"game,x,y,seat\n"));
        chain.head = chain.expected_head(4200, "{}");
        let c = claims(&s, &[4100]);
        assert_eq!(
            check(&chain, &c, Some(("games.csv", &mut &file[..]))).unwrap(),
            b""
        );
        // A changed letter in the second block (same length).
        let mut edited = file.clone();
        let at = edited.len() - 5;
        edited[at] = b'z';
        let e = check(&chain, &c, Some(("games.csv", &mut &edited[..]))).unwrap_err();
        assert!(e.0.contains("block 2 of 2 (games 4096..4200)"), "{e}");
        // Two rows swapped across the block boundary.
        let text = String::from_utf8(file.clone()).unwrap();
        let swapped = text.replacen("4095,a,b,1\n4096,a,b,0\n", "4096,a,b,0\n4095,a,b,1\n", 1);
        let e = check(&chain, &c, Some(("games.csv", &mut swapped.as_bytes()))).unwrap_err();
        assert!(e.0.contains("block 1 of 2"), "{e}");
        // Cut.
        let e = check(
            &chain,
            &c,
            Some(("games.csv", &mut &file[..file.len() - 9])),
        )
        .unwrap_err();
        assert!(
            e.0.contains("block 2 of 2") && e.0.contains("truncated"),
            "{e}"
        );
        // An edited record, a forged progress, edited tallies.
        let mut forged = chain.clone();
        forged.blocks[0].played += 1;
        let e = check(&forged, &c, None).unwrap_err();
        assert!(e.0.contains("block 1 of 2"), "{e}");
        let e = check(
            &chain,
            &Claims {
                next_game: 4232,
                ..claims(&s, &[4100])
            },
            None,
        )
        .unwrap_err();
        assert!(e.0.contains("forged"), "{e}");
        let e = check(
            &chain,
            &Claims {
                games: 200,
                ..claims(&s, &[4100])
            },
            None,
        )
        .unwrap_err();
        assert!(e.0.contains("tallies"), "{e}");
        let e = check(
            &chain,
            &Claims {
                tallies: "{1}",
                ..claims(&s, &[4100])
            },
            None,
        )
        .unwrap_err();
        assert!(e.0.contains("head"), "{e}");
    }

    #[test]
    fn a_resumed_builder_gives_the_same_chain() {
        let (full, file) = build(true);
        let s = seed("h", Some(b"game,x,y,seat\n"));
        // Stopped at game 4128 (inside the second block), then resumed.
        let text = String::from_utf8(file).unwrap();
        let open: String = text
            .lines()
            .filter(|l| {
                l.split(',')
                    .next()
                    .and_then(|g| g.parse::<u64>().ok())
                    .is_some_and(|g| (4096..4128).contains(&g))
            })
            .map(|l| format!("{l}\n"))
            .collect();
        let saved = Chain {
            blocks: full.blocks[..1].to_vec(),
            ..full.clone()
        };
        let mut r = ChainBuilder::resume(s, (4000, 4200), &saved, 4128, &[4100], open.as_bytes());
        for g in 4128..4200 {
            r.rows(format!("{g},a,b,0\n{g},a,b,1\n").as_bytes());
            r.game(g, false);
        }
        r.finish();
        assert_eq!(r.chain().blocks, full.blocks);
        let (tallies_only, _) = build(false);
        assert_ne!(
            tallies_only.blocks[0].link, full.blocks[0].link,
            "rows are chained"
        );
    }
}
