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
//! and `gz`; absent with `none`, whose chain covers the tallies only); from version 2 its
//! win counts `tallies`, one `[games, wins, draws]` per cell of the tallies (agent x seat:
//! the seat-games, outright wins and shared first places of the block's games); and
//! `link`, the SHA-256 (hex) of the previous block's link and this record:
//!
//! ```text
//! link[-1] = SHA-256("tabletop-sim chain v" + version + "\n" + config_hash + "\n" + header of games.csv)
//! link[k]  = SHA-256(link[k-1] + "\n" + "first,end,played,failed;failed;...,rows_bytes,rows_sha256")
//!            (version 2: + ",g/w/d;g/w/d;..." for the win counts of each cell)
//! ```
//!
//! Version 2 (checkpoint format v4) is what this version writes; version 1 (checkpoint
//! format v3, without per-block win counts) is still read and checked with what it
//! records, a resumed run keeps the version it began with, and a merge writes version 1
//! when one of its shards has it. With version 1 the tallies are bound to the rows only
//! through the head and the count of games per block, so an edit of the tallies that
//! keeps the game counts is found by the head alone (which a careful forger recomputes).
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
//! - the head, against the checkpoint's tallies (and, for a finished run, the manifest's);
//! - version 2: each block's win counts, as many as the cells, adding up to its games
//!   played x seats; their sum over the blocks, with the open block's rest, equal to the
//!   checkpoint's tallies; and, with rows, each block's rows (and the open block's)
//!   counting exactly the block's wins, draws and seat-games by agent and seat (the
//!   `seat`, `agent`, `won` and `draw` columns), so that a block whose tallies were edited
//!   is named even when the run's totals, the links and the head were kept consistent.
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

/// The version of the chain's definition that this version of sim writes (the `version`
/// field): 2, whose blocks carry their integer win counts ([`ChainBlock::tallies`]).
pub const VERSION: u32 = 2;

/// The first version of the chain, without per-block win counts: still read, checked and
/// continued (a resumed run keeps the version it began with; a merge of shards of which one
/// has it writes it).
pub const VERSION_V1: u32 = 1;

/// The integer win counts of one cell (agent x seat) over some games: seat-games played,
/// outright wins, shared first places (the `games`, `wins` and `draws` of
/// [`crate::stats::tally::Tally`]).
pub type Counts = [u64; 3];

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
    /// From chain version 2: the block's integer win counts, one [`Counts`] per cell of the
    /// tallies (agent-major, seat-minor: cell `agent * players + seat`, the distinct agents
    /// in lineup order), so that an edit of a block's tallies is found even when the run's
    /// totals are kept. Empty in version 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tallies: Vec<Counts>,
    /// SHA-256 (hex) of the previous link and this record.
    pub link: String,
}

impl ChainBlock {
    /// The text of this record that its link hashes (everything but the link): in version
    /// 2 followed by `,` and the win counts as `games/wins/draws` joined by `;`.
    fn text(&self, version: u32) -> String {
        let failed: Vec<String> = self.failed.iter().map(u64::to_string).collect();
        let mut t = format!(
            "{},{},{},{},{},{}",
            self.first,
            self.end,
            self.played,
            failed.join(";"),
            self.rows_bytes,
            self.rows_sha256
        );
        if version >= VERSION {
            let cells: Vec<String> = self
                .tallies
                .iter()
                .map(|[g, w, d]| format!("{g}/{w}/{d}"))
                .collect();
            t.push(',');
            t.push_str(&cells.join(";"));
        }
        t
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

/// The link before the first block of a chain of version `version`: SHA-256 of the
/// definition's name and version, the configuration hash and (with rows) the games file's
/// header.
pub fn seed(version: u32, config_hash: &str, header: Option<&[u8]>) -> String {
    let mut h = Sha256::new();
    h.update(format!("tabletop-sim chain v{version}\n{config_hash}\n").as_bytes());
    if let Some(header) = header {
        h.update(header);
    }
    hex(&h.finalize())
}

fn link(version: u32, prev: &str, block: &ChainBlock) -> String {
    let mut h = Sha256::new();
    h.update(prev.as_bytes());
    h.update(b"\n");
    h.update(block.text(version).as_bytes());
    hex(&h.finalize())
}

/// The win counts of every cell of the statistics `stats` (see [`ChainBlock::tallies`]).
pub fn counts_of(stats: &super::tallies::StatsState) -> Vec<Counts> {
    stats
        .tallies
        .cells
        .iter()
        .map(|t| [t.games, t.wins, t.draws])
        .collect()
}

/// The win counts of the cells of `tallies` (a block of games of the runner).
pub fn counts_of_tallies(tallies: &super::tallies::Tallies) -> Vec<Counts> {
    tallies
        .cells
        .iter()
        .map(|t| [t.games, t.wins, t.draws])
        .collect()
}

fn add_counts(to: &mut Vec<Counts>, from: &[Counts]) {
    if to.len() < from.len() {
        to.resize(from.len(), [0; 3]);
    }
    for (a, b) in to.iter_mut().zip(from) {
        for k in 0..3 {
            a[k] += b[k];
        }
    }
}

/// The end of the block that starts at `first` in a run ending at `end`.
fn block_end(first: u64, end: u64) -> u64 {
    ((first / BLOCK_GAMES + 1) * BLOCK_GAMES).min(end)
}

/// Builds the chain as rows and games are handed over in index order: the rows of a game
/// ([`ChainBuilder::rows`]) before the game itself ([`ChainBuilder::game`]).
#[derive(Debug, Clone)]
pub struct ChainBuilder {
    /// The chain's version ([`VERSION`], or [`VERSION_V1`] to continue an older run).
    version: u32,
    /// Version 2: the number of cells of the tallies (each block records that many
    /// counts).
    cells: usize,
    /// Version 2: the win counts handed over ([`ChainBuilder::tallies`]) for the blocks
    /// not yet closed, by block number (`first / BLOCK_GAMES`).
    pending: std::collections::BTreeMap<u64, Vec<Counts>>,
    /// Version 2, when set ([`ChainBuilder::count_rows`]): the `agent` labels and the
    /// seats by which the win counts are taken from the rows themselves (`sim merge`).
    row_cells: Option<(Vec<String>, usize)>,
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
    /// A chain of version `version` of games `start..end` seeded with `seed` ([`seed`]
    /// of that version); `rows`: whether rows are hashed; `cells`: the cells of the
    /// tallies (version 2 records that many win counts per block).
    pub fn new(
        (version, seed): (u32, String),
        rows: bool,
        (start, end): (u64, u64),
        cells: usize,
    ) -> Self {
        ChainBuilder {
            version,
            cells,
            pending: std::collections::BTreeMap::new(),
            row_cells: None,
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
    /// after the last complete block (both as [`check`] returned them); `totals`: the
    /// checkpoint's win counts ([`counts_of`]), from which a version-2 chain takes those
    /// of its open block (the totals less its closed blocks', which [`check`] verified).
    pub fn resume(
        seed: String,
        (start, end): (u64, u64),
        saved: &Chain,
        (next_game, failed): (u64, &[u64]),
        open_rows: &[u8],
        totals: &[Counts],
    ) -> Self {
        let cells = if saved.version >= VERSION {
            totals.len()
        } else {
            0
        };
        let mut b = ChainBuilder::new((saved.version, seed), saved.rows, (start, end), cells);
        if saved.version >= VERSION {
            let mut open = totals.to_vec();
            for block in &saved.blocks {
                for (o, c) in open.iter_mut().zip(&block.tallies) {
                    for k in 0..3 {
                        o[k] = o[k].saturating_sub(c[k]);
                    }
                }
            }
            let at = saved.blocks.last().map_or(start, |l| l.end);
            b.pending.insert(at / BLOCK_GAMES, open);
        }
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

    /// Adds the win counts `counts` ([`counts_of_tallies`]) of games from `first` on, all
    /// in the block of `first` (the runner's blocks of [`super::run::BLOCK`] games start
    /// at its multiples, so never straddle a chain block; a shard's chain blocks lie
    /// within those of the whole run), before those games are handed over. Ignored in
    /// version 1.
    pub fn tallies(&mut self, first: u64, counts: &[Counts]) {
        if self.version >= VERSION {
            let acc = self.pending.entry(first / BLOCK_GAMES).or_default();
            add_counts(acc, counts);
        }
    }

    /// Takes each block's win counts from the rows handed over ([`ChainBuilder::rows`]),
    /// by the `agent` labels `agents` (distinct agents in order) and `players` seats,
    /// instead of from [`ChainBuilder::tallies`]: `sim merge`, whose rows were checked
    /// against each shard's chain or whole-file hash, so that a merge gives the same
    /// chain whatever the versions of its shards. A row that names no agent or seat of
    /// the run counts nothing (the merged chain then fails its own check).
    pub fn count_rows(&mut self, agents: &[String], players: usize) {
        if self.version >= VERSION {
            self.row_cells = Some((agents.to_vec(), players));
        }
    }

    /// Adds rows of the game about to be handed over ([`ChainBuilder::game`]).
    pub fn rows(&mut self, bytes: &[u8]) {
        if let Some((agents, players)) = &self.row_cells {
            let acc = self.pending.entry(self.next / BLOCK_GAMES).or_default();
            if acc.len() < self.cells {
                acc.resize(self.cells, [0; 3]);
            }
            let mut fields = Vec::with_capacity(9);
            for line in bytes.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
                if let Some((cell, c)) = row_cell(line, agents, *players, &mut fields)
                    && let Some(a) = acc.get_mut(cell)
                {
                    for k in 0..3 {
                        a[k] += c[k];
                    }
                }
            }
        }
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
        let tallies = if self.version >= VERSION {
            let mut t = self
                .pending
                .remove(&(self.first / BLOCK_GAMES))
                .unwrap_or_default();
            t.resize(self.cells.max(t.len()), [0; 3]);
            t
        } else {
            Vec::new()
        };
        let mut block = ChainBlock {
            tallies,
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
        block.link = link(self.version, &self.prev, &block);
        self.prev = block.link.clone();
        self.blocks.push(block);
        self.first = self.next;
        self.played = 0;
        self.rows_bytes = 0;
    }

    /// The chain of the blocks closed so far (its head is set when a checkpoint is saved).
    pub fn chain(&self) -> Chain {
        Chain {
            version: self.version,
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
    /// The win counts of the checkpoint's tallies, by cell ([`counts_of`]): the sum of
    /// a version-2 chain's blocks (and of its open block).
    pub totals: &'a [Counts],
    /// The `agent` column's label of each distinct agent (cell `agent * players + seat`),
    /// to count a block's wins from its rows.
    pub agents: &'a [String],
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
    if !(VERSION_V1..=VERSION).contains(&chain.version) || chain.block_games != BLOCK_GAMES {
        return err(format!(
            "{CP}: a checksum chain of version {} with blocks of {} games; this version of \
             sim reads versions {VERSION_V1} and {VERSION} with blocks of {BLOCK_GAMES}",
            chain.version, chain.block_games
        ));
    }
    let counted = chain.version >= VERSION;
    let mut summed: Vec<Counts> = vec![[0; 3]; claims.totals.len()];
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
        if counted
            && (b.tallies.len() != claims.totals.len()
                || b.tallies.iter().map(|c| c[0]).sum::<u64>() != b.played * claims.players
                || b.tallies.iter().any(|c| c[1] + c[2] > c[0]))
        {
            return err(format!(
                "{CP}: {at} of the checksum chain records win counts of {} cells ({} \
                 seat-games), but the run has {} cells and the block {} seat-games (its \
                 games played x seats), with wins and draws within them: the first bad \
                 block; its tallies were edited",
                b.tallies.len(),
                b.tallies.iter().map(|c| c[0]).sum::<u64>(),
                claims.totals.len(),
                b.played * claims.players
            ));
        }
        if link(chain.version, &prev, b) != b.link {
            return err(format!(
                "{CP}: {at} does not match its link in the checksum chain (the SHA-256 of \
                 the block before it and its record): the first bad block; the chain was \
                 edited"
            ));
        }
        prev = b.link.clone();
        played += b.played;
        next = b.end;
        if counted {
            add_counts(&mut summed, &b.tallies);
        }
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
    // Version 2: the blocks' win counts add up to the tallies' (with the open block's:
    // the rest, which must fit the open block's games).
    let mut open_counts: Vec<Counts> = Vec::new();
    if counted {
        for (cell, (t, s)) in claims.totals.iter().zip(&summed).enumerate() {
            let rest = [
                t[0].checked_sub(s[0]),
                t[1].checked_sub(s[1]),
                t[2].checked_sub(s[2]),
            ];
            let [Some(g), Some(w), Some(d)] = rest else {
                return err(format!(
                    "{CP}: its tallies count {t:?} (seat-games, wins, draws) in cell {cell}, \
                     fewer than its checksum chain's blocks, {s:?}: the tallies or a block \
                     were edited"
                ));
            };
            open_counts.push([g, w, d]);
        }
        let open_seat_games: u64 = open_counts.iter().map(|c| c[0]).sum();
        if open_seat_games != open_played * claims.players
            || (open_played == 0 && open_counts.iter().any(|c| *c != [0; 3]))
        {
            return err(format!(
                "{CP}: its tallies' win counts are not the sum of its checksum chain's blocks \
                 ({open_seat_games} seat-games left over for the {open_played} games after the \
                 last block): the tallies or a block were edited"
            ));
        }
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
        if fits && counted {
            let have = row_counts(&buf, claims);
            if have.as_ref() != Some(&b.tallies) {
                return err(format!(
                    "{name}: {at}, {bytes}: its rows count {} (seat-games, wins, draws per \
                     agent and seat), but the block's record in checkpoint.json says {:?}: \
                     the first bad block; the rows or the block's tallies were edited",
                    have.map_or_else(
                        || "rows of unknown agents or seats".into(),
                        |h| { format!("{h:?}") }
                    ),
                    b.tallies
                ));
            }
        }
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
    if counted && !rest.is_empty() && row_counts(&rest, claims).as_ref() != Some(&open_counts) {
        return err(format!(
            "{name}: the rows after its last complete block (from byte {offset}, the open \
             block of games from {next}) do not count the wins that the tallies in \
             checkpoint.json leave for them: the tallies were edited"
        ));
    }
    Ok(rest)
}

/// Checks that checkpoint `cp` carries the chain version `recorded` that the run's
/// `manifest.json` records it began with ([`crate::output::Manifest::chain_version`]); no
/// check when the manifest records none (a run of a version that did not record it).
///
/// # Errors
/// The message saying what the manifest records and what the checkpoint carries: a
/// checkpoint whose chain was removed or whose format was downgraded, which would
/// otherwise be checked with the older format's checks only.
pub fn check_recorded_version(recorded: Option<u32>, cp: &super::Checkpoint) -> Result<(), String> {
    let Some(want) = recorded else {
        return Ok(());
    };
    let have = cp.chain.as_ref().map(|c| c.version);
    if have == Some(want) {
        return Ok(());
    }
    Err(format!(
        "manifest.json records that this run writes a checksum chain of version {want}, but \
         {} (format '{}') carries {}: the checkpoint was edited (its chain removed or its \
         format downgraded)",
        super::checkpoint::FILE,
        cp.format,
        have.map_or("none".to_string(), |v| format!("version {v}"))
    ))
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
    (config_hash, header, players, agents): (&str, &[u8], u64, &[String]),
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
    let seed = seed(chain.version, config_hash, rows.then_some(header));
    let failed = cp.failed_games();
    let tallies = cp.tallies_json();
    let totals = counts_of(&cp.stats);
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
        totals: &totals,
        agents,
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

/// The win counts of `rows` (whole `games.csv` lines) by cell: the `seat`, `agent`, `won`
/// and `draw` fields (4th, 5th, 8th and 9th) of each line, the agent by its label in
/// `claims.agents`; `None` if a line names another agent or seat or is not a row.
fn row_counts(rows: &[u8], claims: &Claims<'_>) -> Option<Vec<Counts>> {
    let players = usize::try_from(claims.players).ok()?;
    let mut out = vec![[0u64; 3]; claims.totals.len()];
    let mut fields: Vec<&[u8]> = Vec::with_capacity(9);
    for line in rows.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
        let (cell, c) = row_cell(line, claims.agents, players, &mut fields)?;
        let o = out.get_mut(cell)?;
        for k in 0..3 {
            o[k] += c[k];
        }
    }
    Some(out)
}

/// The cell (`agent * players + seat`) and win counts (`[1, won, draw]`) of one row.
fn row_cell<'a>(
    line: &'a [u8],
    agents: &[String],
    players: usize,
    fields: &mut Vec<&'a [u8]>,
) -> Option<(usize, Counts)> {
    csv_fields(line, 9, fields);
    if fields.len() < 9 {
        return None;
    }
    let num = |f: &[u8]| std::str::from_utf8(f).ok()?.parse::<u64>().ok();
    let seat = usize::try_from(num(fields[3])?)
        .ok()
        .filter(|&s| s < players)?;
    let agent = agents.iter().position(|a| a.as_bytes() == fields[4])?;
    let won = num(fields[7]).filter(|&w| w <= 1)?;
    let draw = num(fields[8]).filter(|&d| d <= 1)?;
    Some((agent * players + seat, [1, won, draw]))
}

/// The first `n` fields of the CSV line `line` into `out`, unquoted fields as they are
/// and quoted ones (`"..."`, `""` for a quote) with their quotes (the fields read here,
/// seat, agent label, won and draw, are never quoted; the variant label before them could
/// be).
fn csv_fields<'a>(line: &'a [u8], n: usize, out: &mut Vec<&'a [u8]>) {
    out.clear();
    let mut i = 0;
    while out.len() < n && i <= line.len() {
        let start = i;
        if line.get(i) == Some(&b'"') {
            i += 1;
            while i < line.len() {
                if line[i] == b'"' {
                    if line.get(i + 1) == Some(&b'"') {
                        i += 2;
                        continue;
                    }
                    i += 1;
                    break;
                }
                i += 1;
            }
        }
        while i < line.len() && line[i] != b',' {
            i += 1;
        }
        out.push(&line[start..i]);
        i += 1;
    }
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

    const HEADER: &[u8] = b"game,seed,variant,seat,agent,score,rank,won,draw\n";

    /// Game `g`'s rows: agent `a` in seat `g % 2` wins when `g % 3 == 0`, else `b` wins.
    fn rows_of(g: u64) -> String {
        let a_seat = g % 2;
        let a_wins = g % 3 == 0;
        let mut r = String::new();
        for seat in 0..2 {
            let (agent, won) = if seat == a_seat {
                ("a", a_wins)
            } else {
                ("b", !a_wins)
            };
            let rank = if won { 1 } else { 2 };
            r += &format!(
                "{g},7,default,{seat},{agent},0,{rank},{},0\n",
                u8::from(won)
            );
        }
        r
    }

    /// The win counts of game `g` by cell (agent-major: a0, a1, b0, b1).
    fn counts_of_game(g: u64) -> Vec<Counts> {
        let mut c = vec![[0u64; 3]; 4];
        let a_seat = (g % 2) as usize;
        let a_wins = g % 3 == 0;
        c[a_seat] = [1, u64::from(a_wins), 0];
        c[2 + (1 - a_seat)] = [1, u64::from(!a_wins), 0];
        c
    }

    fn build_v(version: u32, rows: bool) -> (Chain, Vec<u8>, Vec<Counts>) {
        let seed = seed(version, "h", Some(HEADER));
        let mut b = ChainBuilder::new((version, seed), rows, (4000, 4200), 4);
        let mut file = HEADER.to_vec();
        let mut totals = vec![[0u64; 3]; 4];
        for g in 4000..4200 {
            let failed = g == 4100;
            if !failed {
                let r = rows_of(g);
                b.tallies(g, &counts_of_game(g));
                add_counts(&mut totals, &counts_of_game(g));
                b.rows(r.as_bytes());
                file.extend_from_slice(r.as_bytes());
            }
            b.game(g, failed);
        }
        b.finish();
        (b.chain(), file, totals)
    }

    fn build(rows: bool) -> (Chain, Vec<u8>, Vec<Counts>) {
        build_v(VERSION, rows)
    }

    fn claims<'a>(
        seed: &'a str,
        failed: &'a [u64],
        totals: &'a [Counts],
        agents: &'a [String],
    ) -> Claims<'a> {
        Claims {
            seed,
            start: 4000,
            next_game: 4200,
            complete: true,
            failed,
            games: 199,
            tallies: "{}",
            players: 2,
            header: HEADER,
            totals,
            agents,
        }
    }

    fn agents() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    #[test]
    fn blocks_are_cut_at_chunks_and_an_edit_names_the_first_bad_block() {
        let (mut chain, file, totals) = build(true);
        assert_eq!(
            chain
                .blocks
                .iter()
                .map(|b| (b.first, b.end))
                .collect::<Vec<_>>(),
            [(4000, 4096), (4096, 4200)]
        );
        assert_eq!(chain.blocks[1].failed, [4100]);
        let s = seed(VERSION, "h", Some(HEADER));
        let ag = agents();
        chain.head = chain.expected_head(4200, "{}");
        let c = claims(&s, &[4100], &totals, &ag);
        assert_eq!(
            check(&chain, &c, Some(("games.csv", &mut &file[..]))).unwrap(),
            b""
        );
        // A changed score digit in the second block (same length).
        let text = String::from_utf8(file.clone()).unwrap();
        let edited = text.replacen("4150,7,default,0,a,0,", "4150,7,default,0,a,9,", 1);
        assert_ne!(edited, text);
        let e = check(&chain, &c, Some(("games.csv", &mut edited.as_bytes()))).unwrap_err();
        assert!(e.0.contains("block 2 of 2 (games 4096..4200)"), "{e}");
        // Two rows swapped across the block boundary.
        let swapped = text.replacen(
            &(rows_of(4095) + &rows_of(4096)),
            &(rows_of(4096) + &rows_of(4095)),
            1,
        );
        assert_ne!(swapped, text);
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
                ..claims(&s, &[4100], &totals, &ag)
            },
            None,
        )
        .unwrap_err();
        assert!(e.0.contains("forged"), "{e}");
        let e = check(
            &chain,
            &Claims {
                games: 200,
                ..claims(&s, &[4100], &totals, &ag)
            },
            None,
        )
        .unwrap_err();
        assert!(e.0.contains("tallies"), "{e}");
        let e = check(
            &chain,
            &Claims {
                tallies: "{1}",
                ..claims(&s, &[4100], &totals, &ag)
            },
            None,
        )
        .unwrap_err();
        assert!(e.0.contains("head"), "{e}");
        // A win more in the totals: not the sum of the blocks.
        let mut more = totals.clone();
        more[0][1] += 1;
        let e = check(&chain, &claims(&s, &[4100], &more, &ag), None).unwrap_err();
        assert!(e.0.contains("not the sum"), "{e}");
    }

    /// A win moved from the first block's record to the second's, the links recomputed as
    /// a careful forger would: the totals, the head and every link hold, but the first
    /// block's rows do not count what its record says.
    #[test]
    fn a_win_moved_between_blocks_keeping_the_totals_names_the_first_bad_block() {
        let (mut chain, file, totals) = build(true);
        let s = seed(VERSION, "h", Some(HEADER));
        let ag = agents();
        chain.blocks[0].tallies[0][1] -= 1;
        chain.blocks[1].tallies[0][1] += 1;
        let mut prev = s.clone();
        for b in &mut chain.blocks {
            b.link = link(VERSION, &prev, b);
            prev = b.link.clone();
        }
        chain.head = chain.expected_head(4200, "{}");
        let c = claims(&s, &[4100], &totals, &ag);
        // Without the rows (a run without a games file) the links and sums hold...
        check(&chain, &c, None).unwrap();
        // ... with them, the first block is named.
        let e = check(&chain, &c, Some(("games.csv", &mut &file[..]))).unwrap_err();
        assert!(
            e.0.contains("block 1 of 2 (games 4000..4096)") && e.0.contains("rows count"),
            "{e}"
        );
        // Unlinked, the edit is found from the record alone.
        let (mut plain, _, _) = build(true);
        plain.blocks[0].tallies[0][1] -= 1;
        plain.blocks[1].tallies[0][1] += 1;
        plain.head = plain.expected_head(4200, "{}");
        let e = check(&plain, &c, None).unwrap_err();
        assert!(e.0.contains("block 1 of 2") && e.0.contains("link"), "{e}");
    }

    #[test]
    fn a_version_1_chain_is_still_checked_without_win_counts() {
        let (mut chain, file, totals) = build_v(VERSION_V1, true);
        assert_eq!(chain.version, VERSION_V1);
        assert!(chain.blocks.iter().all(|b| b.tallies.is_empty()));
        let s = seed(VERSION_V1, "h", Some(HEADER));
        chain.head = chain.expected_head(4200, "{}");
        let ag = agents();
        let c = claims(&s, &[4100], &totals, &ag);
        check(&chain, &c, Some(("games.csv", &mut &file[..]))).unwrap();
        // Its totals are not compared with blocks it does not have.
        let mut more = totals.clone();
        more[0][1] += 1;
        check(&chain, &claims(&s, &[4100], &more, &ag), None).unwrap();
    }

    #[test]
    fn a_resumed_builder_gives_the_same_chain() {
        let (full, file, totals) = build(true);
        let s = seed(VERSION, "h", Some(HEADER));
        // Stopped at game 4128 (inside the second block), then resumed.
        let text = String::from_utf8(file).unwrap();
        let open: String = (4096..4128).filter(|&g| g != 4100).map(rows_of).collect();
        let saved = Chain {
            blocks: full.blocks[..1].to_vec(),
            ..full.clone()
        };
        assert!(text.contains(&open));
        let mut at_stop = vec![[0u64; 3]; 4];
        for g in (4000..4128).filter(|&g| g != 4100) {
            add_counts(&mut at_stop, &counts_of_game(g));
        }
        let mut r = ChainBuilder::resume(
            s,
            (4000, 4200),
            &saved,
            (4128, &[4100]),
            open.as_bytes(),
            &at_stop,
        );
        for g in 4128..4200 {
            r.tallies(g, &counts_of_game(g));
            r.rows(rows_of(g).as_bytes());
            r.game(g, false);
        }
        r.finish();
        assert_eq!(r.chain().blocks, full.blocks);
        let mut sum = vec![[0u64; 3]; 4];
        for b in &full.blocks {
            add_counts(&mut sum, &b.tallies);
        }
        assert_eq!(sum, totals);
        // Counted from the rows (sim merge): the same chain.
        let mut m = ChainBuilder::new(
            (VERSION, seed(VERSION, "h", Some(HEADER))),
            true,
            (4000, 4200),
            4,
        );
        m.count_rows(&agents(), 2);
        for g in 4000..4200 {
            if g != 4100 {
                m.rows(rows_of(g).as_bytes());
            }
            m.game(g, g == 4100);
        }
        m.finish();
        assert_eq!(m.chain().blocks, full.blocks);
        let (tallies_only, _, _) = build(false);
        assert_ne!(
            tallies_only.blocks[0].link, full.blocks[0].link,
            "rows are chained"
        );
    }
}
