//! Playing games: one game from its index ([`play_game`]), and many in parallel
//! ([`run_games`]).
//!
//! Game `g` is a pure function of (master seed, `g`, game parameters, lineup): its chance
//! RNG is `rng_for(seed, g, 0)`, the agent in seat `s` gets `rng_for(seed, g, 1 + s)`, and
//! the seating is [`Lineup::entry_for`]. Agents are built once per rayon work item
//! (`map_init`) and reused across games; the agent contract makes them pure functions of
//! their inputs, so reuse cannot change results.
//!
//! [`run_games`] plays games in fixed-size chunks of [`CHUNK`] games (independent of the
//! thread count). The pool plays one chunk while a writer thread consumes the previous one
//! in index order, so rows reach the sink in the same order for any thread count and at
//! most three chunks are alive at once: memory is flat in the number of games.

use std::sync::mpsc;

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::TournamentError;
use super::plan::Lineup;
use super::records::GameRecord;
use crate::agents::{self, Agent};
use crate::game::{Game, JointAction, MAX_PLAYERS, PerPlayer, Turn, View};
use crate::rng::{SimRng, rng_for, seed_for};

/// Games per chunk: the unit of parallel work and of writing. Fixed, so that the output never
/// depends on the thread count.
pub const CHUNK: u64 = 1024;

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
    /// Rule variant.
    pub params: G::Params,
    /// Seats per game.
    pub players: usize,
    /// The agents and their seat rotation.
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
    let mut seat_rng: [SimRng; MAX_PLAYERS] =
        std::array::from_fn(|s| rng_for(plan.seed, index, 1 + s as u64));
    let mut lineup: PerPlayer<u8> = [0; MAX_PLAYERS];
    for (s, e) in lineup.iter_mut().enumerate().take(plan.players) {
        *e = plan.lineup.entry_for(index, s) as u8;
    }
    let game_error = |message: String| TournamentError::Game { index, message };
    let mut state = G::new_game(&plan.params, plan.players, &mut chance)
        .map_err(|e| game_error(e.to_string()))?;
    observe(Event::Start(&state));
    let bound = state.max_plies();
    loop {
        let turn = state.turn();
        let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
        match turn {
            Turn::Terminal => break,
            Turn::Player(p) => {
                let a = agents[lineup[p] as usize].act(&View::new(&state, p), &mut seat_rng[p]);
                joint[p] = Some(a);
                state.apply_unchecked(p, a, &mut chance);
            }
            Turn::Simultaneous(set) => {
                // Every actor chooses from the same pre-move state.
                for p in set.iter() {
                    let a = agents[lineup[p] as usize].act(&View::new(&state, p), &mut seat_rng[p]);
                    joint[p] = Some(a);
                }
                state.apply_joint_unchecked(&joint, &mut chance);
            }
        }
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
    Ok(GameRecord::from_terminal(&state, index, seed, lineup))
}

/// Plays games `0..games` on `pool` and hands each game's record to `sink`, in index
/// order, from a writer thread. `progress`, if any, advances by one per finished game.
/// Stops at the first error of a game or of the sink.
///
/// # Errors
/// The first [`TournamentError`] of a game or of `sink`.
pub fn run_games<G: Game, S>(
    plan: &Plan<G>,
    games: u64,
    pool: &rayon::ThreadPool,
    progress: Option<&ProgressBar>,
    sink: S,
) -> Result<(), TournamentError>
where
    S: FnMut(&GameRecord) -> Result<(), TournamentError> + Send,
{
    // Build once up front so a bad spec fails here rather than inside a worker.
    build_agents::<G>(&plan.lineup)?;
    // One chunk in flight to the writer, one being written: bounded memory.
    let (to_writer, from_pool) = mpsc::sync_channel::<Vec<GameRecord>>(1);
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> Result<(), TournamentError> {
            let mut sink = sink;
            for chunk in from_pool {
                for r in &chunk {
                    sink(r)?;
                }
            }
            Ok(())
        });
        let mut played = Ok(());
        let mut start = 0u64;
        while start < games {
            let len = (games - start).min(CHUNK) as usize;
            let chunk: Result<Vec<GameRecord>, TournamentError> = pool.install(|| {
                (0..len)
                    .into_par_iter()
                    .with_min_len(16)
                    .map_init(
                        || build_agents::<G>(&plan.lineup).expect("lineup validated above"),
                        |agents, i| {
                            let r = play_game(plan, agents, start + i as u64, |_| {});
                            if let Some(pb) = progress {
                                pb.inc(1);
                            }
                            r
                        },
                    )
                    .collect()
            });
            match chunk {
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
            start += len as u64;
        }
        drop(to_writer);
        let written = writer.join().expect("the writer thread panicked");
        played.and(written)
    })
}
