//! Playing games: one game from its index ([`play_game`]), and many in parallel
//! ([`run_games`]).
//!
//! Game `g` is a pure function of (master seed, `g`, game parameters, lineup): its chance
//! RNG is `rng_for(seed, g, 0)`, the agent in seat `s` gets `rng_for(seed, g, 1 + s)`, and
//! the seating is [`Lineup::entry_for`]. Agents are built by rayon's `map_init`, once per
//! rayon job (a run of blocks on one worker, never per game), and reused across games; the
//! agent contract makes them pure functions of their inputs, so reuse cannot change results.
//!
//! [`run_games`] plays games in fixed-size chunks of [`CHUNK`] games (independent of the
//! thread count), split into blocks of [`BLOCK`] games that the workers play *and format*
//! in parallel, each block also carrying its own partial statistics. The pool plays one
//! chunk while a writer thread consumes the previous one in index order (copying the rows to
//! the file and merging the statistics), so rows and statistics come out the same for any
//! thread count, and at most three chunks (about 2 MB) are alive at once: memory is flat in
//! the number of games. Row buffers go back to the workers once written. The writer's
//! serial work is tiny, which is what lets a run scale with cores. With one thread there is
//! no pool work and no writer thread: the blocks are played and handed over in turn on the
//! calling thread, with the same block boundaries.

use std::sync::{Mutex, mpsc};

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::TournamentError;
use super::plan::Lineup;
use super::records::{GameRecord, RowFormat};
use super::summary::{CellMap, Tallies};
use crate::agents::{self, Agent};
use crate::game::{
    Game, GameStart, JointAction, MAX_PLAYERS, PerPlayer, RulesRef, Turn, View, play_ply,
};
use crate::rng::{SimRng, rng_for, seed_for};

/// Games per chunk: the games played between two hand-overs to the writer. Fixed, so that
/// the output never depends on the thread count; large enough (128 blocks) that the idle
/// time at the end of a chunk is small.
pub const CHUNK: u64 = 4096;

/// Games per block: the unit of parallel work (one rayon item).
pub const BLOCK: u64 = 32;

// The one-thread path cuts blocks from game 0 without chunks: same boundaries.
const _: () = assert!(CHUNK % BLOCK == 0, "chunks are whole blocks");

/// A guess at the bytes of one `games.csv` row, to size block buffers.
const ROW_BYTES_HINT: usize = 192;

/// What happened in a game, for observers such as `sim play`.
pub enum Event<'a, G: Game> {
    /// The state after setup.
    Start(&'a G),
    /// One ply: the turn it was played at, every acting seat's action, and the state after.
    Ply {
        /// The turn before the ply.
        turn: Turn,
        /// The actions (one `Some` at a turn-based node).
        actions: &'a JointAction<G::Action>,
        /// The state after the ply (chance included).
        after: &'a G,
    },
}

/// Everything fixed across the games of a tournament.
#[derive(Debug, Clone)]
pub struct Plan<G: Game> {
    /// The rules: rule variant and seats per game.
    pub rules: RulesRef<G>,
    /// The agents and their seating schedule.
    pub lineup: Lineup,
    /// Master seed.
    pub seed: u64,
}

/// Builds one agent per lineup entry.
///
/// # Errors
/// The [`agents::AgentError`] of a bad spec (never for a validated [`Lineup`]).
pub fn build_agents<G: Game>(lineup: &Lineup) -> Result<Vec<Box<dyn Agent<G>>>, TournamentError> {
    lineup
        .entries()
        .iter()
        .map(|s| agents::build::<G>(s).map_err(TournamentError::from))
        .collect()
}

/// Plays game `index` of the plan to the end with `agents` (one per lineup entry), calling
/// `observe` at the start and after every ply.
///
/// # Errors
/// [`TournamentError::Game`] if setup fails or the game exceeds its own
/// [`Game::max_plies`] bound (a bug in the game).
pub fn play_game<G: Game>(
    plan: &Plan<G>,
    agents: &mut [Box<dyn Agent<G>>],
    index: u64,
    mut observe: impl FnMut(Event<'_, G>),
) -> Result<GameRecord, TournamentError> {
    let seed = seed_for(plan.seed, index, 0);
    let mut chance = crate::rng::rng_from_seed(seed);
    let players = plan.rules.players();
    // Seats beyond the player count never draw: a constant placeholder saves seeding them.
    let mut seat_rng: [SimRng; MAX_PLAYERS] = std::array::from_fn(|s| {
        if s < players {
            rng_for(plan.seed, index, 1 + s as u64)
        } else {
            SimRng::new(1)
        }
    });
    let lineup: PerPlayer<u8> = plan.lineup.seating(index);
    let game_error = |message: String| TournamentError::Game { index, message };
    let mut state = G::new_game(plan.rules, &mut chance);
    // An agent holding several seats is told of each (its memory is per seat).
    for seat in 0..players {
        agents[lineup[seat] as usize].start_game(&GameStart {
            seat,
            index,
            rules: plan.rules,
        });
    }
    observe(Event::Start(&state));
    let bound = state.max_plies();
    while let Some((turn, joint)) = play_ply(&mut state, &mut chance, |s, p, _| {
        agents[lineup[p] as usize].act(&View::new(s, p), &mut seat_rng[p])
    }) {
        observe(Event::Ply {
            turn,
            actions: &joint,
            after: &state,
        });
        if state.ply() > bound {
            return Err(game_error(format!(
                "game exceeded its bound of {bound} plies"
            )));
        }
    }
    for seat in 0..players {
        agents[lineup[seat] as usize].end_game(&View::new(&state, seat));
    }
    Ok(GameRecord::from_terminal(&state, index, seed, lineup))
}

/// The games of one work item, played and summarised by a worker.
#[derive(Debug, Default)]
pub struct Block {
    /// Number of games.
    pub games: u64,
    /// Their `games.csv` rows, in index order (see [`RowFormat::write`]).
    pub rows: Vec<u8>,
    /// Their statistics (see [`CellMap::add`]).
    pub tallies: Tallies,
}

/// Row buffers handed back by the writer for reuse, so that a long run does not allocate
/// (and fault in) fresh memory for every block.
#[derive(Debug, Default)]
struct Spare(Mutex<Vec<Vec<u8>>>);

impl Spare {
    fn take(&self, capacity: usize) -> Vec<u8> {
        let buf = self.0.lock().map(|mut v| v.pop()).unwrap_or(None);
        buf.unwrap_or_else(|| Vec::with_capacity(capacity))
    }

    fn give(&self, mut buf: Vec<u8>) {
        buf.clear();
        if let Ok(mut v) = self.0.lock() {
            v.push(buf);
        }
    }
}

/// Plays games `first..last` into `block`, replacing its contents.
fn play_block<G: Game>(
    plan: &Plan<G>,
    agents: &mut [Box<dyn Agent<G>>],
    (first, last): (u64, u64),
    (format, map): (&RowFormat, &CellMap),
    progress: Option<&ProgressBar>,
    block: &mut Block,
) -> Result<(), TournamentError> {
    block.games = last - first;
    block.rows.clear();
    map.reset(&mut block.tallies);
    for g in first..last {
        let r = play_game(plan, agents, g, |_| {})?;
        format.write(&r, &mut block.rows);
        map.add(&mut block.tallies, &r);
        if let Some(pb) = progress {
            pb.inc(1);
        }
    }
    Ok(())
}

/// Plays games `0..games` on `pool` and hands them to `sink` in index order, in [`Block`]s
/// of at most [`BLOCK`] games. Workers play, format and summarise blocks in parallel; the
/// sink only copies bytes and merges small tables. With a one-thread pool everything runs
/// on the calling thread (one core), each block handed to the sink as soon as it is played;
/// otherwise the sink runs on its own writer thread while the pool plays the next chunk.
/// `progress`, if any, advances by one per finished game. Stops at the first error of a
/// game or of the sink.
///
/// # Errors
/// The first [`TournamentError`] of a game or of `sink`.
pub fn run_games<G: Game, S>(
    plan: &Plan<G>,
    games: u64,
    pool: &rayon::ThreadPool,
    (format, map): (&RowFormat, &CellMap),
    progress: Option<&ProgressBar>,
    mut sink: S,
) -> Result<(), TournamentError>
where
    S: FnMut(&Block) -> Result<(), TournamentError> + Send,
{
    // Build once up front so a bad spec fails here rather than inside a worker.
    let mut agents = build_agents::<G>(&plan.lineup)?;
    let rows_hint = ROW_BYTES_HINT * plan.rules.players() * BLOCK as usize;

    if pool.current_num_threads() == 1 {
        // One core: play each block on the calling thread and hand it over at once, so its
        // rows are still in cache when they are copied out, and one buffer serves the run.
        // Block boundaries are those of the parallel path (CHUNK is a multiple of BLOCK),
        // so the statistics merge in the same order.
        let mut block = Block {
            games: 0,
            rows: Vec::with_capacity(rows_hint),
            tallies: Tallies::default(),
        };
        for b in 0..games.div_ceil(BLOCK) {
            let first = b * BLOCK;
            let last = (first + BLOCK).min(games);
            play_block(
                plan,
                &mut agents,
                (first, last),
                (format, map),
                progress,
                &mut block,
            )?;
            sink(&block)?;
        }
        return Ok(());
    }

    let spare = Spare::default();
    let spare = &spare;
    let play_chunk = |start: u64, len: u64| -> Result<Vec<Block>, TournamentError> {
        pool.install(|| {
            (0..len.div_ceil(BLOCK))
                .into_par_iter()
                .map_init(
                    || build_agents::<G>(&plan.lineup).expect("lineup validated above"),
                    |agents, b| {
                        let first = start + b * BLOCK;
                        let last = (first + BLOCK).min(start + len);
                        let mut block = Block {
                            games: 0,
                            rows: spare.take(rows_hint),
                            tallies: Tallies::default(),
                        };
                        play_block(
                            plan,
                            agents,
                            (first, last),
                            (format, map),
                            progress,
                            &mut block,
                        )
                        .map(|()| block)
                    },
                )
                .collect::<Vec<_>>()
        })
        // Not short-circuiting in parallel: the reported error is always that of the
        // lowest-numbered failing game, whatever the thread count.
        .into_iter()
        .collect()
    };
    let chunks = (0..games.div_ceil(CHUNK)).map(|c| (c * CHUNK, CHUNK.min(games - c * CHUNK)));

    // One chunk in flight to the writer, one being written, one being played: bounded
    // memory whatever the number of games.
    let (to_writer, from_pool) = mpsc::sync_channel::<Vec<Block>>(1);
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> Result<(), TournamentError> {
            for chunk in from_pool {
                for block in chunk {
                    sink(&block)?;
                    spare.give(block.rows);
                }
            }
            Ok(())
        });
        let mut played = Ok(());
        for (start, len) in chunks {
            match play_chunk(start, len) {
                Ok(c) => {
                    if to_writer.send(c).is_err() {
                        break; // the writer stopped with an error, reported below
                    }
                }
                Err(e) => {
                    played = Err(e);
                    break;
                }
            }
        }
        drop(to_writer);
        let written = writer.join().expect("the writer thread panicked");
        played.and(written)
    })
}
