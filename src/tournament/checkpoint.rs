//! Checkpoints of a tournament in progress (`checkpoint.json`), from which `--resume DIR`
//! continues with byte-identical results.
//!
//! Every so often (by default every [`DEFAULT_SECONDS`] seconds of play; a hidden
//! `--checkpoint-every BLOCKS` for tests), after a block of games has been handed over in
//! index order, the runner flushes `games.csv.partial` and writes a [`Checkpoint`]
//! atomically (a temporary file renamed over the old one): the index of the next game,
//! the byte length of `games.csv.partial` at that game, the accumulated statistics
//! ([`crate::tournament::summary::StatsState`]) and the failed games so far. Resuming cuts
//! `games.csv.partial` to that length and plays on from that game: since games are pure
//! functions of (seed, index) and the statistics merge block by block in index order from
//! a block boundary, the final files are byte-identical to an uninterrupted run. The
//! statistics serialize exactly: floating-point moments as their IEEE-754 bits, 128-bit
//! sums as decimal strings.
//!
//! A run stopped by SIGINT or SIGTERM writes a checkpoint at the first game it did not
//! hand over; a killed run (`kill -9`) resumes from its last periodic checkpoint, the rows
//! written after it being cut away. The checkpoint stays in a finished run's directory
//! (listed in its manifest): it records the final statistics, from which `sim merge`
//! combines shards.
//!
//! # Integrity
//! A checkpoint carries the SHA-256 of the games file up to `games_bytes`
//! ([`Checkpoint::games_sha256`], hashed as the rows are written) and a seal, the SHA-256
//! of its own compact JSON ([`Checkpoint::seal`]). Reading it checks the seal, so an edited
//! tally, a forged `next_game` or a cut `games_bytes` is refused; a resume hashes the rows
//! it keeps and refuses them unless they match; `sim merge` and `sim verify` hash each games
//! file whole. From format v3 it also carries the checksum chain of the rows and tallies,
//! block by block ([`super::chain`]), which those three check block by block, naming the
//! first bad block; from format v4 (chain version 2) each block also carries its win
//! counts, checked against the block's rows and, summed, against the tallies. These are checks against accidents and careless edits (a checksum
//! anyone can recompute), not a signature.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Mutex;

use serde::{Deserialize, Deserializer, Serialize};
use sha2::Digest;

use super::chain::Chain;
use super::metrics::EndTally;
use super::run::Failure;
use super::tallies::StatsState;
use crate::output::{OutputError, write_atomically};
use crate::stats::IntMoments;
use crate::stats::tally::LabelCell;

/// The file name.
pub const FILE: &str = "checkpoint.json";

/// The `format` field of a checkpoint with a checksum chain of version 2, whose blocks
/// carry their win counts ([`super::chain::ChainBlock::tallies`]).
pub const FORMAT: &str = "tabletop-sim checkpoint v4";

/// The format with a checksum chain of version 1 (rows, failed games and game counts per
/// block, the tallies bound only through the chain's head): still read, checked with
/// what it records, and continued by a resumed run that began under it.
pub const FORMAT_V3: &str = "tabletop-sim checkpoint v3";

/// The format before the checksum chain: sealed, with the whole games file's SHA-256. Still
/// read, and still written by a resumed run that began under it (its earlier blocks have
/// no chain), with the checks those versions recorded.
pub const FORMAT_V2: &str = "tabletop-sim checkpoint v2";

/// The format before checkpoints were sealed: still read (without the checks a seal
/// gives), so that runs of older versions can be resumed and merged.
pub const FORMAT_V1: &str = "tabletop-sim checkpoint v1";

/// Seconds of play between two checkpoints by default.
pub const DEFAULT_SECONDS: u64 = 10;

/// The saved progress of a tournament (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// [`FORMAT`].
    pub format: String,
    /// The manifest's configuration hash of the run ([`crate::output::Owner::config_hash`]).
    pub config_hash: String,
    /// The first game of the run's range (0, or a shard's first game).
    pub start: u64,
    /// The next game to play: games `start..next_game` are done.
    pub next_game: u64,
    /// The byte length of `games.csv.partial` (header included) after game `next_game - 1`.
    pub games_bytes: u64,
    /// Whether the run finished (the last checkpoint of a complete run).
    pub complete: bool,
    /// The accumulated statistics of games `start..next_game`.
    pub stats: StatsState,
    /// The failed games among them, in index order.
    pub failures: Vec<Failure>,
    /// SHA-256 (hex) of the first `games_bytes` bytes of the games file: a resume and `sim
    /// merge` refuse a games file whose rows were edited, cut or reordered. Empty without a
    /// games file, for a `games.csv` covered by the checksum chain (format v3: the chain
    /// hashes every row, so the rows are hashed once, not twice), and in format v1.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub games_sha256: String,
    /// The checksum chain of the rows and tallies, block by block ([`super::chain`]): the
    /// completed blocks before `next_game`, and a head binding them to `stats` and
    /// `failures` (set by [`Checkpoint::save`]). Required from format v3; absent before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<Chain>,
    /// SHA-256 (hex) of this checkpoint's compact JSON without the seal: every field above,
    /// the integer tallies included, so an edited count, a forged `next_game` or a cut
    /// `games_bytes` is refused on reading ([`Checkpoint::load`]). Required from format v2.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub seal: String,
}

impl Checkpoint {
    /// Writes the checkpoint to `dir/checkpoint.json` atomically, with its format, the
    /// head of its chain and its seal set; returns what was written.
    ///
    /// # Errors
    /// [`OutputError::Write`] naming the file.
    pub fn save(&self, dir: &Path) -> Result<Checkpoint, OutputError> {
        let mut sealed = self.clone();
        sealed.format = match &self.chain {
            Some(c) if c.version >= super::chain::VERSION => FORMAT,
            Some(_) => FORMAT_V3,
            None => FORMAT_V2,
        }
        .into();
        let tallies = sealed.tallies_json();
        if let Some(c) = &mut sealed.chain {
            c.head = c.expected_head(self.next_game, &tallies);
        }
        sealed.seal = sealed.expected_seal();
        let text = serde_json::to_string(&sealed).expect("a checkpoint serializes");
        write_atomically(&dir.join(FILE), text.as_bytes())?;
        Ok(sealed)
    }

    /// The seal of this checkpoint's contents ([`Checkpoint::seal`]).
    pub fn expected_seal(&self) -> String {
        let mut unsealed = self.clone();
        unsealed.seal.clear();
        let text = serde_json::to_string(&unsealed).expect("a checkpoint serializes");
        super::games_file::hex(&sha2::Sha256::digest(text.as_bytes()))
    }

    /// This checkpoint with the checksum chain `chain` (its head is set on saving).
    pub fn with_chain(mut self, chain: Option<Chain>) -> Self {
        self.chain = chain;
        self
    }

    /// The compact JSON of the tallies and failed games, which the chain's head binds
    /// ([`Chain::expected_head`]).
    pub fn tallies_json(&self) -> String {
        serde_json::to_string(&(&self.stats, &self.failures)).expect("tallies serialize")
    }

    /// The indices of the failed games, ascending.
    pub fn failed_games(&self) -> Vec<u64> {
        self.failures.iter().map(|f| f.game).collect()
    }

    /// Reads `dir/checkpoint.json`; `Ok(None)` if there is none.
    ///
    /// # Errors
    /// [`OutputError::Resume`] if it cannot be read or parsed, or is of another format.
    pub fn load(dir: &Path) -> Result<Option<Checkpoint>, OutputError> {
        let bad = |reason: String| OutputError::Resume {
            path: dir.to_path_buf(),
            reason,
        };
        let text = match std::fs::read_to_string(dir.join(FILE)) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(bad(format!("{FILE}: {e}"))),
        };
        let c: Checkpoint =
            serde_json::from_str(&text).map_err(|e| bad(format!("{FILE} is corrupt: {e}")))?;
        if ![FORMAT, FORMAT_V3, FORMAT_V2, FORMAT_V1].contains(&c.format.as_str()) {
            return Err(bad(format!(
                "{FILE} has format '{}'; this version reads '{FORMAT}'",
                c.format
            )));
        }
        if c.format != FORMAT_V1 && c.seal.is_empty() {
            return Err(bad(format!(
                "{FILE} has no seal, which its format requires"
            )));
        }
        let want_chain = match c.format.as_str() {
            FORMAT => Some(super::chain::VERSION),
            FORMAT_V3 => Some(super::chain::VERSION_V1),
            _ => None,
        };
        if want_chain != c.chain.as_ref().map(|ch| ch.version) {
            return Err(bad(format!(
                "{FILE} has format '{}' {}: format v4 carries a checksum chain of version 2, \
                 v3 one of version 1, older formats none; it was edited",
                c.format,
                c.chain
                    .as_ref()
                    .map_or("without a checksum chain".into(), |ch| format!(
                        "with a checksum chain of version {}",
                        ch.version
                    ))
            )));
        }
        if !c.seal.is_empty() && c.seal != c.expected_seal() {
            return Err(bad(format!(
                "{FILE} does not match its seal (SHA-256 of its contents): it was edited or \
                 is corrupt, so its tallies and progress cannot be trusted; rerun (or start \
                 over with --overwrite)"
            )));
        }
        Ok(Some(c))
    }
}

/// A `&'static str` for a saved label value or end condition, interned: each distinct
/// text is leaked once per process, a few bytes per label value of a game.
pub fn intern(s: String) -> &'static str {
    static SEEN: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let set = seen.get_or_insert_with(HashSet::new);
    if let Some(&x) = set.get(s.as_str()) {
        return x;
    }
    let x: &'static str = Box::leak(s.into_boxed_str());
    set.insert(x);
    x
}

/// An [`EndTally`] as read from a checkpoint (its end condition owned, then interned).
#[derive(Debug, Deserialize)]
pub struct SavedEnd {
    end: String,
    games: u64,
    plies: IntMoments,
    rounds: IntMoments,
}

impl From<SavedEnd> for EndTally {
    fn from(s: SavedEnd) -> Self {
        EndTally {
            end: intern(s.end),
            games: s.games,
            plies: s.plies,
            rounds: s.rounds,
        }
    }
}

impl<'de> Deserialize<'de> for EndTally {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        SavedEnd::deserialize(d).map(Into::into)
    }
}

impl<'de> Deserialize<'de> for LabelCell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        SavedLabelCell::deserialize(d).map(Into::into)
    }
}

/// A [`LabelCell`] as read from a checkpoint (its value owned, then interned).
#[derive(Debug, Deserialize)]
pub struct SavedLabelCell {
    column: u8,
    value: String,
    agent: u32,
    games: u64,
    wins: u64,
    draws: u64,
    seats: u64,
    score: IntMoments,
    rank_sum: u64,
}

impl From<SavedLabelCell> for LabelCell {
    fn from(s: SavedLabelCell) -> Self {
        LabelCell {
            column: s.column,
            value: intern(s.value),
            agent: s.agent,
            games: s.games,
            wins: s.wins,
            draws: s.draws,
            seats: s.seats,
            score: s.score,
            rank_sum: s.rank_sum,
        }
    }
}
