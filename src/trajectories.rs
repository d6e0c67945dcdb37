//! Trajectories of a tournament's games for imitation learning and offline RL: `sim
//! tournament --trajectories DIR` writes every decision of every finished game (the
//! deciding seat's observation tensor and legal-action mask, the action, the seat, its
//! final return, the game) as `.npz` files that `numpy.load` opens, in the layout of the
//! Python package's `tabletop_sim.trajectories` (whose `load(DIR)` reads them).
//!
//! # Layout
//! `DIR/part-GGGGGGGGGG.npz` (`G` the tournament index of the part's first game, ten
//! digits, so the names sort in game order), each a zip of `.npy` arrays (NumPy format 1.0,
//! little-endian, deflate-compressed), one row per decision in the order the decisions were
//! made within each game, games in index order:
//!
//! | key              | dtype, shape     | meaning                                              |
//! |------------------|------------------|------------------------------------------------------|
//! | `observations`   | float32 \[T, L\]   | the deciding seat's observation tensor before its move ([`crate::game::GameState::observation_tensor`]) |
//! | `action_masks`   | int8 \[T, A\]      | its legal actions ([`crate::game::GameState::legal_actions_mask`]) |
//! | `actions`        | int64 \[T\]        | the action id it played ([`crate::game::GameState::action_id`])   |
//! | `seats`          | int64 \[T\]        | the deciding seat                                    |
//! | `games`          | int64 \[T\]        | the row of the game in `game_returns`, `0..G` within the part |
//! | `returns`        | float32 \[T\]      | the deciding seat's return at the end of its game ([`crate::game::GameState::returns`]) |
//! | `game_returns`   | float32 \[G, P\]   | every seat's return, per game of the part            |
//! | `game_ids`       | int64 \[G\]        | each game's tournament index (the `game` column of `games.csv`) |
//!
//! At a simultaneous node every acting seat's decision is a row (seats in order), each
//! with the observation before the joint move. Failed games (`errors.csv`) are left out.
//! A part closes after the game that brings its observations and masks to
//! [`PART_BYTES`] (uncompressed), so memory stays bounded whatever the number of games.
//!
//! # Method
//! The trajectories are written after the tournament, by replaying its games: a game is
//! a pure function of (master seed, game index, rules, lineup) ([`crate::tournament`]), so
//! the replay plays exactly the games of `games.csv` (with agents on a wall-clock budget,
//! `time_ms > 0`, it may not: `config.toml` then says `reproducible = false`). Replaying
//! costs about as much again as the tournament; games are replayed in parallel, and the
//! files are byte-identical for any thread count.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::game::{Playable, tensor_len};
use crate::tournament::{self, Event, Plan, Report, Settings, Tournament, TournamentError};

/// A part closes once its observations and masks reach this many bytes (uncompressed).
pub const PART_BYTES: usize = 64 << 20;

/// Games replayed in parallel between two hand-overs to the writer (a fixed number, so the
/// parts do not depend on the thread count).
const BATCH: u64 = 64;

/// The file name prefix of a part.
pub const PART_PREFIX: &str = "part-";

/// What was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// The part files, in game order.
    pub files: Vec<PathBuf>,
    /// Games recorded.
    pub games: u64,
    /// Decisions recorded (rows).
    pub decisions: u64,
}

/// Why trajectories could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TrajectoryError {
    /// The directory cannot be used (bad input: exit 2).
    #[error("--trajectories {path}: {reason}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Writing failed, or the replay of a game failed.
    #[error("--trajectories {path}: {reason}")]
    Write {
        /// The directory.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

impl TrajectoryError {
    /// Whether the error is the user's input (exit 2) rather than a failure (exit 1).
    pub fn is_bad_input(&self) -> bool {
        matches!(self, TrajectoryError::Dir { .. })
    }
}

/// Prepares `dir` before a run, so that a bad directory is refused before any game is
/// played: creates it, checks that it is writable, and refuses one that already holds
/// parts unless `overwrite` (which removes them).
///
/// # Errors
/// [`TrajectoryError::Dir`] naming the directory and the problem.
pub fn prepare(dir: &Path, overwrite: bool) -> Result<(), TrajectoryError> {
    let bad = |reason: String| TrajectoryError::Dir {
        path: dir.to_path_buf(),
        reason,
    };
    std::fs::create_dir_all(dir).map_err(|e| bad(format!("cannot create it: {e}")))?;
    let parts = part_files(dir).map_err(|e| bad(format!("cannot read it: {e}")))?;
    if !parts.is_empty() {
        if !overwrite {
            return Err(bad(format!(
                "it already holds trajectory parts ({} files: {}, ...); choose an empty \
                 directory or pass --overwrite to replace them",
                parts.len(),
                parts[0].display()
            )));
        }
        for p in parts {
            std::fs::remove_file(&p)
                .map_err(|e| bad(format!("cannot remove {}: {e}", p.display())))?;
        }
    }
    let probe = dir.join(".sim-write-test");
    File::create(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| bad(format!("not writable: {e}")))
}

/// The part files in `dir`, sorted.
fn part_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut parts: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(PART_PREFIX) && n.ends_with(".npz"))
        })
        .collect();
    parts.sort();
    Ok(parts)
}

/// Writes the trajectories of the games of the finished run `report` (played with
/// `settings`) into `dir` ([`prepare`]d before the run), replaying them on `threads`
/// threads (`None`: all cores).
///
/// # Errors
/// [`TrajectoryError::Write`] if a file cannot be written or a replayed game fails.
pub fn write_tournament(
    settings: &Settings,
    report: &Report,
    dir: &Path,
    threads: Option<usize>,
) -> Result<Written, TrajectoryError> {
    let fail = |reason: String| TrajectoryError::Write {
        path: dir.to_path_buf(),
        reason,
    };
    let t = &report.config.tournament;
    let (start, end) = match (&report.config.sequential, report.config.shard) {
        (_, Some(s)) => (s.start, s.end),
        (Some(q), None) => (0, q.games),
        (None, None) => (0, t.games),
    };
    let failed: Vec<u64> = report.failures.iter().map(|f| f.game).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| fail(format!("cannot start the worker threads: {e}")))?;
    let games = (start..end)
        .filter(|g| !failed.contains(g))
        .collect::<Vec<u64>>();
    crate::dispatch_game!(settings.game.as_str(), G => pool.install(|| {
        replay::<G>(settings, &games, dir)
    }))
    .map_err(|e| fail(e.to_string()))?
    .map_err(|e| fail(e.to_string()))
}

/// The decisions of one game.
struct GameRows {
    index: u64,
    observations: Vec<f32>,
    masks: Vec<u8>,
    actions: Vec<i64>,
    seats: Vec<i64>,
    returns: Vec<f32>,
}

/// Replays `games` of the tournament of `settings` and writes their parts.
fn replay<G: Playable>(
    settings: &Settings,
    games: &[u64],
    dir: &Path,
) -> Result<Written, TournamentError> {
    let t = Tournament::<G>::resolve(settings)?;
    let plan = &t.plan;
    let obs_len = tensor_len(&G::observation_layout(&plan.rules));
    let mut part = Part::new(obs_len, G::NUM_ACTION_IDS, plan.rules.players());
    let mut written = Written::default();
    for batch in games.chunks(BATCH as usize) {
        let rows: Vec<GameRows> = batch
            .par_iter()
            .map_init(
                || tournament::run::build_agents::<G>(&plan.lineup),
                |agents, &g| match agents {
                    Ok(agents) => record_game(plan, agents, g, obs_len),
                    Err(e) => Err(TournamentError::Game {
                        index: g,
                        message: e.to_string(),
                    }),
                },
            )
            .collect::<Result<_, _>>()?;
        for game in rows {
            part.add(game);
            if part.bytes() >= PART_BYTES {
                written.add(part.write(dir)?);
                part.clear();
            }
        }
    }
    if part.games() > 0 {
        written.add(part.write(dir)?);
    }
    Ok(written)
}

/// Replays game `g` and records its decisions.
fn record_game<G: Playable>(
    plan: &Plan<G>,
    agents: &mut Vec<Box<dyn crate::Agent<G>>>,
    g: u64,
    obs_len: usize,
) -> Result<GameRows, TournamentError> {
    let n_ids = G::NUM_ACTION_IDS;
    let mut rows = GameRows {
        index: g,
        observations: Vec::new(),
        masks: Vec::new(),
        actions: Vec::new(),
        seats: Vec::new(),
        returns: Vec::new(),
    };
    // The state before the next ply; after the last one, the terminal state.
    let mut before: Option<G> = None;
    let mut buf = Vec::new();
    tournament::play_game(plan, agents, g, |event| match event {
        Event::Start(s) => before = Some(s.clone()),
        Event::Ply {
            turn,
            actions,
            after,
        } => {
            let state = before.as_ref().expect("a ply follows the start");
            for seat in turn.actors().iter() {
                let Some(a) = actions[seat] else { continue };
                let at = rows.observations.len();
                rows.observations.resize(at + obs_len, 0.0);
                state.observation_tensor(seat, &mut rows.observations[at..]);
                let at = rows.masks.len();
                rows.masks.resize(at + n_ids, 0);
                state.legal_actions_mask(seat, &mut buf, &mut rows.masks[at..]);
                rows.actions.push(G::action_id(a) as i64);
                rows.seats.push(seat as i64);
            }
            before = Some(after.clone());
        }
    })?;
    let end = before.ok_or_else(|| TournamentError::Game {
        index: g,
        message: "the replay ended before the game started".into(),
    })?;
    let returns = end.returns();
    rows.returns = (0..plan.rules.players())
        .map(|s| returns[s] as f32)
        .collect();
    Ok(rows)
}

impl Written {
    fn add(&mut self, (file, games, decisions): (PathBuf, u64, u64)) {
        self.files.push(file);
        self.games += games;
        self.decisions += decisions;
    }
}

/// The rows of one part being filled.
struct Part {
    obs_len: usize,
    n_ids: usize,
    players: usize,
    observations: Vec<f32>,
    masks: Vec<u8>,
    actions: Vec<i64>,
    seats: Vec<i64>,
    games: Vec<i64>,
    returns: Vec<f32>,
    game_returns: Vec<f32>,
    game_ids: Vec<i64>,
}

impl Part {
    fn new(obs_len: usize, n_ids: usize, players: usize) -> Self {
        Part {
            obs_len,
            n_ids,
            players,
            observations: Vec::new(),
            masks: Vec::new(),
            actions: Vec::new(),
            seats: Vec::new(),
            games: Vec::new(),
            returns: Vec::new(),
            game_returns: Vec::new(),
            game_ids: Vec::new(),
        }
    }

    fn games(&self) -> usize {
        self.game_ids.len()
    }

    fn bytes(&self) -> usize {
        self.observations.len() * 4 + self.masks.len()
    }

    fn add(&mut self, game: GameRows) {
        let row = self.game_ids.len() as i64;
        self.observations.extend_from_slice(&game.observations);
        self.masks.extend_from_slice(&game.masks);
        for (&a, &s) in game.actions.iter().zip(&game.seats) {
            self.actions.push(a);
            self.seats.push(s);
            self.games.push(row);
            self.returns.push(game.returns[s as usize]);
        }
        self.game_returns.extend_from_slice(&game.returns);
        self.game_ids.push(game.index as i64);
    }

    fn clear(&mut self) {
        *self = Part::new(self.obs_len, self.n_ids, self.players);
    }

    /// Writes the part as `dir/part-G.npz`; returns the file, its games and decisions.
    fn write(&self, dir: &Path) -> Result<(PathBuf, u64, u64), TournamentError> {
        let path = dir.join(format!("{PART_PREFIX}{:010}.npz", self.game_ids[0]));
        let t = self.actions.len();
        let g = self.game_ids.len();
        let arrays: [(&str, Npy<'_>); 8] = [
            (
                "observations",
                Npy::F32(&self.observations, &[t, self.obs_len]),
            ),
            ("action_masks", Npy::I8(&self.masks, &[t, self.n_ids])),
            ("actions", Npy::I64(&self.actions, &[t])),
            ("seats", Npy::I64(&self.seats, &[t])),
            ("games", Npy::I64(&self.games, &[t])),
            ("returns", Npy::F32(&self.returns, &[t])),
            (
                "game_returns",
                Npy::F32(&self.game_returns, &[g, self.players]),
            ),
            ("game_ids", Npy::I64(&self.game_ids, &[g])),
        ];
        write_npz(&path, &arrays).map_err(|e| TournamentError::Game {
            index: self.game_ids[0] as u64,
            message: format!("writing {}: {e}", path.display()),
        })?;
        Ok((path, g as u64, t as u64))
    }
}

/// One array to write: its elements (row-major) and shape.
pub enum Npy<'a> {
    /// `<f4`.
    F32(&'a [f32], &'a [usize]),
    /// `|i1` (mask bytes, 0 or 1).
    I8(&'a [u8], &'a [usize]),
    /// `<i8`.
    I64(&'a [i64], &'a [usize]),
}

impl Npy<'_> {
    fn descr_and_shape(&self) -> (&'static str, &[usize]) {
        match self {
            Npy::F32(_, s) => ("<f4", s),
            Npy::I8(_, s) => ("|i1", s),
            Npy::I64(_, s) => ("<i8", s),
        }
    }

    /// Writes the `.npy` bytes: the format 1.0 header, then the data.
    fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (descr, shape) = self.descr_and_shape();
        out.write_all(&npy_header(descr, shape))?;
        match self {
            Npy::F32(v, _) => v.iter().try_for_each(|x| out.write_all(&x.to_le_bytes())),
            Npy::I8(v, _) => out.write_all(v),
            Npy::I64(v, _) => v.iter().try_for_each(|x| out.write_all(&x.to_le_bytes())),
        }
    }
}

/// The header of a `.npy` file, format version 1.0 (NumPy's `numpy.lib.format`: the magic
/// string, the version, a little-endian u16 header length, then a Python dict literal padded
/// with spaces and ended by a newline so that the data starts at a multiple of 64 bytes).
pub fn npy_header(descr: &str, shape: &[usize]) -> Vec<u8> {
    let dims = match shape {
        [n] => format!("{n},"),
        _ => shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({dims}), }}");
    let unpadded = 6 + 2 + 2 + dict.len() + 1;
    dict.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut h = Vec::with_capacity(10 + dict.len());
    h.extend_from_slice(b"\x93NUMPY\x01\x00");
    h.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h
}

/// Writes `arrays` as a deflate-compressed `.npz` (a zip of `KEY.npy` members, what
/// `numpy.savez_compressed` writes), through `PATH.partial` renamed when complete.
///
/// # Errors
/// The I/O or zip error.
pub fn write_npz(path: &Path, arrays: &[(&str, Npy<'_>)]) -> std::io::Result<()> {
    let partial = path.with_extension("npz.partial");
    let file = BufWriter::new(File::create(&partial)?);
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    for (key, array) in arrays {
        zip.start_file(format!("{key}.npy"), options)
            .map_err(std::io::Error::other)?;
        array.write(&mut zip)?;
    }
    zip.finish()
        .map_err(std::io::Error::other)?
        .into_inner()
        .map_err(|e| e.into_error())?
        .sync_all()?;
    std::fs::rename(&partial, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_headers_are_aligned_and_spell_the_shape() {
        for shape in [&[3usize][..], &[2, 5], &[123456, 8960]] {
            let h = npy_header("<f4", shape);
            assert_eq!(h.len() % 64, 0);
            assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
            assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
            assert_eq!(*h.last().unwrap(), b'\n');
        }
        let h = String::from_utf8(npy_header("<i8", &[7])[10..].to_vec()).unwrap();
        assert!(h.starts_with("{'descr': '<i8', 'fortran_order': False, 'shape': (7,), }"));
        let h = String::from_utf8(npy_header("|i1", &[2, 3])[10..].to_vec()).unwrap();
        assert!(h.contains("'shape': (2, 3)"), "{h}");
    }

    #[test]
    fn a_tournament_s_games_are_replayed_into_parts() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("run");
        let traj = dir.path().join("traj");
        let settings = Settings {
            game: "goofspiel".into(),
            players: Some(2),
            variant: vec!["num_cards=4".into()],
            agents: vec!["random".into(), "greedy".into()],
            games: 10,
            seed: 3,
            threads: Some(2),
            out,
            progress: false,
            design: Default::default(),
        };
        prepare(&traj, false).unwrap();
        let report = tournament::run(&settings).unwrap();
        let w = write_tournament(&settings, &report, &traj, Some(2)).unwrap();
        // Goofspiel(4): four simultaneous bids of two seats per game.
        assert_eq!((w.games, w.decisions, w.files.len()), (10, 80, 1));
        let bytes = std::fs::read(&w.files[0]).unwrap();
        assert_eq!(&bytes[..2], b"PK");
        let again = dir.path().join("again");
        prepare(&again, false).unwrap();
        let w1 = write_tournament(&settings, &report, &again, Some(1)).unwrap();
        assert_eq!(std::fs::read(&w1.files[0]).unwrap(), bytes);
        assert!(prepare(&traj, false).unwrap_err().is_bad_input());
        prepare(&traj, true).unwrap();
        assert!(part_files(&traj).unwrap().is_empty());
    }
}
