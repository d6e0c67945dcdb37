//! Playing games: one game from its index ([`play_game`]), and many in parallel
//! ([`run_games`]).
//!
//! Game `g` is a pure function of (master seed, `g`, game parameters, lineup): its chance
//! RNG is `rng_for(seed, d, 0)` for its deal `d` ([`Lineup::deal`]: `g`, or `g / B` with
//! `--paired`), the agent in seat `s` gets `rng_for(seed, g, 1 + s)`, and
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
//! serial work is tiny, which is what lets a run scale with cores. With one thread
//! (`--threads 1`) there is no pool: the calling thread plays the blocks and keeps their
//! terminal states, and a writer thread reads their records, formats the rows, adds the
//! statistics and writes, with the same block boundaries and order, so the output is
//! byte-identical and the games are not slowed by their output (a Daxu random game is
//! about 700 ns, its record, row and statistics about a third of that).
//!
//! **Ranges, stopping and failures** ([`Control`]). A run plays a range of game indices
//! starting at a multiple of [`BLOCK`] (a resumed run starts at its checkpoint), so block
//! boundaries, and with them the order in which statistics merge, never depend on where a
//! run started. A stop request (SIGINT, SIGTERM) is polled before each block: no block is
//! started after it, the blocks finished before the first unstarted one are handed over,
//! and [`run_games`] reports where to continue ([`Finish::Stopped`]). Each game runs under
//! `catch_unwind`: a game whose rules engine or agent panics, whose agent returns an
//! illegal action (checked against the seat's legal actions before it is applied; never
//! applied), or that exceeds its own ply bound, becomes a [`Failure`] of its block, at
//! the ply being played when it failed (1-based, as an agent's message names it; the panic
//! hook is silent for games, so a panic is reported once: its message in `errors.csv` and
//! one line on stderr), its agents are rebuilt, and the run goes on, unless `fail_fast`, or
//! unless [`Control::ext_failures`] games in a row of a block failed by an external agent
//! ([`crate::agents::ext`]): a broken program would otherwise be restarted and fail again
//! for every game, so the run stops with its last error.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::TournamentError;
use super::decisiveness::Trace;
use super::plan::Lineup;
use super::records::{GameRecord, RowFormat};
use super::tallies::{CellMap, Tallies};
use crate::agents::{self, Agent};
use crate::game::{
    GameStart, GameState, JointAction, MAX_PLAYERS, PerSeat, Playable, RulesRef, Turn, View,
    play_ply,
};
use crate::rng::{SimRng, rng_for, seed_for};
use crate::stats::decisiveness::Decisiveness;

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
pub enum Event<'a, G: Playable> {
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
pub struct Plan<G: Playable> {
    /// The rules: rule variant and seats per game.
    pub rules: RulesRef<G>,
    /// The agents and their seating schedule.
    pub lineup: Lineup,
    /// Master seed.
    pub seed: u64,
    /// Record the leader after every round for the decisiveness tallies
    /// (`--decisiveness`, [`super::decisiveness`]) of each [`Block`].
    pub decisiveness: bool,
}

impl<G: Playable> Plan<G> {
    /// The chance seed of game `g`: `seed_for(seed, d, 0)` for its deal `d`
    /// ([`Lineup::deal`]: `g`, or `g / B` with `--paired`).
    pub fn chance_seed(&self, g: u64) -> u64 {
        seed_for(self.seed, self.lineup.deal(g), 0)
    }

    /// The random stream of the agent in seat `seat` of game `g`: `rng_for(seed, g, 1 +
    /// seat)`, distinct for every seat of every game.
    pub fn seat_rng(&self, g: u64, seat: usize) -> SimRng {
        rng_for(self.seed, g, 1 + seat as u64)
    }
}

/// Builds one agent per lineup entry.
///
/// # Errors
/// The [`agents::AgentError`] of a bad spec (never for a validated [`Lineup`]).
pub fn build_agents<G: Playable>(
    lineup: &Lineup,
) -> Result<Vec<Box<dyn Agent<G>>>, TournamentError> {
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
/// [`TournamentError::Game`] if setup fails, an agent returns an illegal action (it is not
/// applied), or the game exceeds its own [`GameState::max_plies`] bound (a bug in the game).
pub fn play_game<G: Playable>(
    plan: &Plan<G>,
    agents: &mut [Box<dyn Agent<G>>],
    index: u64,
    observe: impl FnMut(Event<'_, G>),
) -> Result<GameRecord, TournamentError> {
    play_game_with(plan, agents, &mut Vec::new(), index, observe)
}

/// [`play_game`] with a reusable buffer for the legal actions against which every
/// agent's action is checked (a caller playing many games keeps one, so a game allocates
/// nothing for it).
///
/// # Errors
/// As [`play_game`].
pub fn play_game_with<G: Playable>(
    plan: &Plan<G>,
    agents: &mut [Box<dyn Agent<G>>],
    legal: &mut Vec<G::Action>,
    index: u64,
    observe: impl FnMut(Event<'_, G>),
) -> Result<GameRecord, TournamentError> {
    let lineup = plan.lineup.seating(index);
    play_to_terminal(plan, (agents, legal, None), (index, lineup), observe).map(|t| t.record())
}

/// The seatings of one cycle of the schedule ([`Lineup::seating`], which repeats every
/// [`Schedule::cycle_len`](super::plan::Schedule::cycle_len) games), read from a table by
/// a cursor instead of computed with four 64-bit divisions per game (about 210 of the
/// 11,280 instructions of a one-thread Daxu tournament game, callgrind, before the
/// table). Cycles longer than [`Seatings::MAX_TABLE`] games are computed.
struct Seatings<'a> {
    lineup: &'a Lineup,
    table: Vec<PerSeat<u8>>,
}

impl<'a> Seatings<'a> {
    /// The longest cycle kept as a table (4 bytes per game).
    const MAX_TABLE: u64 = 1 << 16;

    /// The seatings for a run of `games` games: a table when the cycle is at most
    /// [`Seatings::MAX_TABLE`] games and no longer than the run (otherwise computing the
    /// table would cost more seatings than the run reads).
    fn new(lineup: &'a Lineup, games: u64) -> Self {
        let cycle = lineup.schedule().cycle_len();
        let table = if cycle <= Self::MAX_TABLE.min(games) {
            (0..cycle).map(|g| lineup.seating(g)).collect()
        } else {
            Vec::new()
        };
        Seatings { lineup, table }
    }

    /// A cursor at game `first`.
    fn at(&self, first: u64) -> SeatingCursor<'_> {
        let pos = if self.table.is_empty() {
            0
        } else {
            (first % self.table.len() as u64) as usize
        };
        SeatingCursor {
            seatings: self,
            game: first,
            pos,
        }
    }
}

/// Reads the seatings of consecutive games from [`Seatings`].
struct SeatingCursor<'a> {
    seatings: &'a Seatings<'a>,
    game: u64,
    pos: usize,
}

impl SeatingCursor<'_> {
    /// The seating of the cursor's game; moves to the next game.
    fn next_game(&mut self) -> PerSeat<u8> {
        let table = &self.seatings.table;
        let seating = if table.is_empty() {
            self.seatings.lineup.seating(self.game)
        } else {
            let s = table[self.pos];
            self.pos += 1;
            if self.pos == table.len() {
                self.pos = 0;
            }
            s
        };
        self.game += 1;
        seating
    }
}

/// What plays one game: the agents (one per lineup entry), the legal-action buffer and,
/// with [`Plan::decisiveness`], the trace of leaders.
type Players<'a, G> = (
    &'a mut [Box<dyn Agent<G>>],
    &'a mut Vec<<G as GameState>::Action>,
    Option<&'a mut Trace>,
);

/// `lineup` is the game's seating, [`Lineup::seating`]`(index)`; `trace`, if any, records
/// the leader after every round.
fn play_to_terminal<G: Playable>(
    plan: &Plan<G>,
    (agents, legal, mut trace): Players<'_, G>,
    (index, lineup): (u64, PerSeat<u8>),
    mut observe: impl FnMut(Event<'_, G>),
) -> Result<Terminal<G>, TournamentError> {
    let seed = plan.chance_seed(index);
    let mut chance = crate::rng::rng_from_seed(seed);
    let players = plan.rules.players();
    // Seats beyond the player count never draw: a constant placeholder saves seeding them.
    let mut seat_rng: [SimRng; MAX_PLAYERS] = std::array::from_fn(|s| {
        if s < players {
            plan.seat_rng(index, s)
        } else {
            SimRng::new(1)
        }
    });
    let game_error = |message: String| TournamentError::Game { index, message };
    PLAYING.with(|p| p.set(0));
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
    if let Some(t) = trace.as_deref_mut() {
        t.start(&state);
    }
    let bound = state.max_plies();
    let mut illegal: Option<(usize, G::Action)> = None;
    while let Some((turn, joint)) = play_ply(&mut state, &mut chance, |s, p, _| {
        PLAYING.with(|c| c.set(u64::from(s.ply()) + 1));
        let a = agents[lineup[p] as usize].act(&View::new(s, p), &mut seat_rng[p]);
        // Every action is checked ([`GameState::is_legal`]) before it is applied; an illegal one
        // is replaced by a legal one so that the ply (whose state is then discarded) never
        // applies it.
        if s.is_legal(p, a, legal) {
            return a;
        }
        s.legal_actions(p, legal);
        match legal.first() {
            Some(&first) => {
                illegal.get_or_insert((p, a));
                first
            }
            None => a,
        }
    }) {
        if let Some((seat, action)) = illegal {
            return Err(game_error(format!(
                "seat {seat} ({}) returned the illegal action {action} at ply {}; the game \
                 was abandoned without applying it",
                plan.lineup.entries()[lineup[seat] as usize],
                PLAYING.with(std::cell::Cell::get)
            )));
        }
        observe(Event::Ply {
            turn,
            actions: &joint,
            after: &state,
        });
        if let Some(t) = trace.as_deref_mut() {
            t.after_ply(&state);
        }
        if state.ply() > bound {
            PLAYING.with(|c| c.set(u64::from(state.ply())));
            return Err(game_error(format!(
                "game exceeded its bound of {bound} plies"
            )));
        }
    }
    for seat in 0..players {
        agents[lineup[seat] as usize].end_game(&View::new(&state, seat));
    }
    Ok(Terminal {
        state,
        index,
        seed,
        lineup,
    })
}

/// A finished game, kept until its record is read ([`Terminal::record`]): the one-thread
/// path of [`run_games`] reads records on the writer thread.
struct Terminal<G> {
    state: G,
    index: u64,
    seed: u64,
    lineup: PerSeat<u8>,
}

impl<G: Playable> Terminal<G> {
    fn record(&self) -> GameRecord {
        GameRecord::from_terminal(&self.state, self.index, self.seed, self.lineup)
    }
}

/// A game that failed: its rules engine or an agent panicked, or it exceeded its own ply
/// bound. Failed games are left out of `games.csv` and of every statistic and listed in
/// `errors.csv`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Failure {
    /// Game index.
    pub game: u64,
    /// The game's chance seed, `seed_for(master, game, 0)`.
    pub seed: u64,
    /// The lineup entry in each seat.
    pub lineup: Vec<u8>,
    /// The ply being played when it failed, 1-based (0: during the setup), the ply an
    /// agent's message names; for a game that exceeded its ply bound, the ply that did.
    pub ply: u64,
    /// The panic message or the error.
    pub message: String,
}

/// What to play and how to react: the game range, the stop flag and failure handling.
#[derive(Debug, Clone, Copy)]
pub struct Control<'a> {
    /// The first game to play, a multiple of [`BLOCK`].
    pub start: u64,
    /// One past the last game to play.
    pub end: u64,
    /// When set, no new block is started (see the module docs).
    pub stop: Option<&'a AtomicBool>,
    /// Stop the run at the first failed game (an error) instead of recording it.
    pub fail_fast: bool,
    /// Stop the run (an error with the last failure's message) when this many consecutive
    /// games of a block failed by an external agent's program; 0: never.
    pub ext_failures: u64,
}

/// The default of [`Control::ext_failures`]: three games in a row.
pub const EXT_FAILURES: u64 = 3;

impl Control<'_> {
    /// Games `0..games`, no stop flag, failures recorded.
    pub fn all(games: u64) -> Self {
        Control {
            start: 0,
            end: games,
            stop: None,
            fail_fast: false,
            ext_failures: EXT_FAILURES,
        }
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// How [`run_games`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// Every game of the range was handed over.
    Done,
    /// Stopped on request: games before `next` were handed over, none from `next` on.
    Stopped {
        /// The first game not handed over (a multiple of [`BLOCK`]).
        next: u64,
    },
}

/// The games of one work item, played and summarised by a worker.
#[derive(Debug, Default)]
pub struct Block {
    /// The first game.
    pub first: u64,
    /// Number of games (failed ones included).
    pub games: u64,
    /// Not played: a stop was requested first.
    pub skipped: bool,
    /// The games that failed, in index order (empty, and unallocated, almost always).
    pub failures: Vec<Failure>,
    /// Their `games.csv` rows, in index order (see [`RowFormat::write`]).
    pub rows: Vec<u8>,
    /// Their statistics (see [`CellMap::add`]).
    pub tallies: Tallies,
    /// With a paired lineup, the outcome of each game that did not fail, in index order,
    /// for the statistics over deals ([`super::paired`]); empty (and unallocated)
    /// otherwise.
    pub outcomes: Vec<crate::stats::paired::Outcome>,
    /// With [`Plan::decisiveness`], the decisiveness tallies of the games that did not
    /// fail ([`super::decisiveness`]); empty (and unallocated) otherwise.
    pub decisiveness: Decisiveness,
}

impl Block {
    /// Adds one game: its rows, its statistics and, with a paired lineup, its outcome.
    fn add(&mut self, (format, map): (&RowFormat, &CellMap), paired: bool, r: &GameRecord) {
        format.write(r, &mut self.rows);
        map.add(&mut self.tallies, r);
        if paired {
            self.outcomes.push(r.into());
        }
    }
}

/// Where [`play_block`] puts a finished game.
enum Output<'a, G> {
    /// The parallel path: rows and statistics at once.
    Now(&'a RowFormat, &'a CellMap),
    /// The one-thread path: the terminal states, for [`Deferred::settle`] on the writer
    /// thread.
    Defer(&'a mut Vec<Terminal<G>>),
}

/// A block of the one-thread path of [`run_games`] with its finished games, whose rows and
/// statistics the writer thread adds ([`Deferred::settle`]).
struct Deferred<G> {
    block: Block,
    games: Vec<Terminal<G>>,
}

impl<G: Playable> Deferred<G> {
    /// Reads the records of the finished games into rows and statistics, exactly as the
    /// parallel path does game by game (same order, same bytes), and drops the games.
    fn settle(&mut self, format: &RowFormat, map: &CellMap, paired: bool) {
        // `play_block` cleared the rows and outcomes; the tallies are reset here.
        let block = &mut self.block;
        map.reset(&mut block.tallies);
        for t in &self.games {
            block.add((format, map), paired, &t.record());
        }
        self.games.clear();
    }
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

thread_local! {
    /// Set while this thread plays a game under `catch_unwind`: the panic hook then stays
    /// silent (the message goes to `errors.csv` and one notice to stderr).
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };

    /// The ply this thread's game is playing (1-based; 0 during the setup): read after a
    /// failure, which may unwind through the game, for [`Failure::ply`].
    static PLAYING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Installs (once per process) a panic hook that is silent on threads playing a game under
/// [`quietly`] and otherwise defers to the hook it replaces, so a panicking game is
/// reported once, not once per run of it.
fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
}

/// Runs `f` under `catch_unwind` with the panic hook silenced on this thread.
fn quietly<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    let was = QUIET.with(|q| q.replace(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    r
}

/// The message of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("panic: {s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("panic: {s}")
    } else {
        "panic (no message)".into()
    }
}

/// Describes the failure of game `g` (`message`), at the ply this thread was playing when
/// it failed. (The game is not replayed for it: a replay would restart an external agent's
/// program and wait for its timeout again.)
fn failure<G: Playable>(plan: &Plan<G>, g: u64, message: String) -> Failure {
    let players = plan.rules.players();
    Failure {
        game: g,
        seed: plan.chance_seed(g),
        lineup: plan.lineup.seating(g)[..players].to_vec(),
        ply: PLAYING.with(std::cell::Cell::get),
        message,
    }
}

/// Whether a failure's message is that of an external agent's program.
fn is_ext_failure(message: &str) -> bool {
    message
        .strip_prefix("panic: ")
        .is_some_and(|m| m.starts_with(crate::agents::ext::FAILURE_PREFIX))
}

/// A worker's agents (one per lineup entry), its legal-action buffer and its trace of
/// leaders (used with [`Plan::decisiveness`]).
type Worker<'a, G> = (
    &'a mut Vec<Box<dyn Agent<G>>>,
    &'a mut Vec<<G as GameState>::Action>,
    &'a mut Trace,
);

/// The one line on stderr for a failed game (the rest is in `errors.csv`).
fn notice(g: u64, message: &str) {
    let first = message.lines().next().unwrap_or_default();
    eprintln!("game {g} failed and is recorded in errors.csv: {first}");
}

/// Plays games `first..last` into `block`, replacing its contents; with a stop requested,
/// plays nothing and marks the block skipped.
///
/// `output` says where each finished game goes ([`Output`]).
fn play_block<G: Playable>(
    (plan, seatings): (&Plan<G>, &Seatings<'_>),
    (agents, legal, trace): Worker<'_, G>,
    (first, last): (u64, u64),
    mut output: Output<'_, G>,
    (control, progress): (&Control<'_>, Option<&ProgressBar>),
    block: &mut Block,
) -> Result<(), TournamentError> {
    block.first = first;
    block.games = last - first;
    block.rows.clear();
    block.failures.clear();
    block.outcomes.clear();
    block.decisiveness.clear();
    match &mut output {
        Output::Now(_, map) => map.reset(&mut block.tallies),
        Output::Defer(games) => games.clear(),
    }
    block.skipped = control.stopped();
    if block.skipped {
        return Ok(());
    }
    let mut seating = seatings.at(first);
    let mut reported = first;
    // Consecutive games of this block failed by an external agent (counted within the
    // block, so where a run stops does not depend on the thread count).
    let mut ext_in_a_row = 0u64;
    for g in first..last {
        let lineup = seating.next_game();
        // A game is unwind-safe to interrupt: on a panic its state is dropped and the
        // agents, which may be mid-update, are rebuilt below.
        let traced = plan.decisiveness.then_some(&mut *trace);
        let streak = ext_in_a_row;
        ext_in_a_row = 0;
        match quietly(|| play_to_terminal(plan, (agents, legal, traced), (g, lineup), |_| {})) {
            Ok(Ok(t)) => match &mut output {
                Output::Now(format, map) => {
                    let r = t.record();
                    if plan.decisiveness {
                        block.decisiveness.add_record(trace.leaders(), &r);
                    }
                    block.add((format, map), plan.lineup.is_paired(), &r)
                }
                Output::Defer(games) => {
                    // The record is read on the writer thread; the tally needs only the
                    // rounds and the ranks.
                    if plan.decisiveness {
                        let s = &t.state;
                        let (rounds, ranks) = (s.round(), s.ranks());
                        block.decisiveness.add_game(
                            trace.leaders(),
                            rounds,
                            &ranks,
                            s.num_players(),
                        );
                    }
                    games.push(t)
                }
            },
            Ok(Err(e)) => {
                let message = match e {
                    TournamentError::Game { message, .. } => message,
                    e => e.to_string(),
                };
                if control.fail_fast {
                    return Err(TournamentError::Game { index: g, message });
                }
                notice(g, &message);
                block.failures.push(failure(plan, g, message));
            }
            Err(payload) => {
                let message = panic_message(payload.as_ref());
                if control.fail_fast {
                    return Err(TournamentError::Game { index: g, message });
                }
                *agents = build_agents::<G>(&plan.lineup)?;
                notice(g, &message);
                if is_ext_failure(&message) {
                    ext_in_a_row = streak + 1;
                    if control.ext_failures > 0 && ext_in_a_row >= control.ext_failures {
                        return Err(TournamentError::Game {
                            index: g,
                            message: format!(
                                "an external agent failed {ext_in_a_row} games in a row \
                                 (games {}..={g}); the run stops. Its last error: {message}",
                                g + 1 - ext_in_a_row
                            ),
                        });
                    }
                }
                block.failures.push(failure(plan, g, message));
            }
        }
        // indicatif reads the clock on every update, so the bar moves every
        // `PROGRESS_STEP` games (and at the end of the block), not after every game.
        if let Some(pb) = progress
            && (g + 1 - reported >= PROGRESS_STEP || g + 1 == last)
        {
            pb.inc(g + 1 - reported);
            reported = g + 1;
        }
    }
    Ok(())
}

/// Games between two updates of the progress bar by one worker.
const PROGRESS_STEP: u64 = 8;

/// Plays games `control.start..control.end` on `pool` and hands them to `sink` in index
/// order, in [`Block`]s of at most [`BLOCK`] games cut at multiples of [`BLOCK`]. Workers
/// play, format and summarise blocks in parallel; the sink only copies bytes and merges
/// small tables. With a one-thread pool the calling thread plays the games and a writer
/// thread formats and summarises them and runs the sink (see the module docs); otherwise
/// the sink runs on its own writer thread while the pool plays the next chunk.
/// `progress`, if any, advances by the finished games of a worker every 8 games and at the
/// end of each block. Stops at the first error of the sink, or of a game with `fail_fast`;
/// on a stop request, hands over the blocks finished before the first unstarted one
/// ([`Finish::Stopped`]).
///
/// # Errors
/// The first [`TournamentError`] of `sink`, or of a game with `fail_fast`.
///
/// # Panics
/// If `control.start` is not a multiple of [`BLOCK`] (and the range is not empty).
pub fn run_games<G: Playable, S>(
    plan: &Plan<G>,
    control: &Control<'_>,
    pool: &rayon::ThreadPool,
    (format, map): (&RowFormat, &CellMap),
    progress: Option<&ProgressBar>,
    mut sink: S,
) -> Result<Finish, TournamentError>
where
    S: FnMut(&Block) -> Result<(), TournamentError> + Send,
{
    assert!(
        control.start % BLOCK == 0 || control.start >= control.end,
        "runs start at a block boundary, got {}",
        control.start
    );
    let (start, end) = (control.start, control.end.max(control.start));
    install_quiet_hook();
    // Build once up front so a bad spec fails here rather than inside a worker.
    let mut agents = build_agents::<G>(&plan.lineup)?;
    let mut legal: Vec<G::Action> = Vec::new();
    let mut trace = Trace::default();
    let rows_hint = ROW_BYTES_HINT * plan.rules.players() * BLOCK as usize;
    let seatings = Seatings::new(&plan.lineup, end - start);

    if pool.current_num_threads() == 1 {
        // One game thread: the calling thread plays blocks and keeps their finished games;
        // a writer thread reads the records, formats the rows, adds the statistics and
        // hands the blocks to the sink, so that all of that runs beside the games instead
        // of between them. Block boundaries are those of the parallel path (CHUNK is a
        // multiple of BLOCK) and blocks reach the sink in index order, so rows and
        // statistics are byte for byte those of the parallel path. Blocks travel in
        // batches of `BATCH` (a hand-over may wake the other thread, a system call, so
        // not one per block) and circulate between the threads, at most `IN_FLIGHT`
        // batches queued, so memory is flat and nothing is allocated once the first
        // batches are back.
        const BATCH: usize = 16;
        const IN_FLIGHT: usize = 2;
        let (to_writer, from_player) = mpsc::sync_channel::<Vec<Deferred<G>>>(IN_FLIGHT);
        let (to_player, returned) = mpsc::channel::<Vec<Deferred<G>>>();
        return std::thread::scope(|scope| {
            let writer = scope.spawn(move || -> Result<Finish, TournamentError> {
                let mut finish = Finish::Done;
                for mut batch in from_player {
                    for d in &mut batch {
                        if (d.block.skipped || control.stopped()) && finish == Finish::Done {
                            finish = Finish::Stopped {
                                next: d.block.first,
                            };
                        }
                        if finish == Finish::Done {
                            d.settle(format, map, plan.lineup.is_paired());
                            sink(&d.block)?;
                        }
                    }
                    let _ = to_player.send(batch);
                }
                Ok(finish)
            });
            let mut played = Ok(());
            // Blocks and batch vectors come back from the writer for reuse.
            let mut spare: Vec<Deferred<G>> = Vec::new();
            let mut spare_batches: Vec<Vec<Deferred<G>>> = Vec::new();
            let mut batch: Vec<Deferred<G>> = Vec::with_capacity(BATCH);
            let mut firsts = (start..end).step_by(BLOCK as usize).peekable();
            while let Some(first) = firsts.next() {
                let last = (first + BLOCK).min(end);
                while let Ok(mut b) = returned.try_recv() {
                    spare.append(&mut b);
                    spare_batches.push(b);
                }
                let mut d = spare.pop().unwrap_or_else(|| Deferred {
                    block: Block {
                        rows: Vec::with_capacity(rows_hint),
                        tallies: map.empty(),
                        ..Block::default()
                    },
                    games: Vec::with_capacity(BLOCK as usize),
                });
                let Deferred { block, games } = &mut d;
                if let Err(e) = play_block(
                    (plan, &seatings),
                    (&mut agents, &mut legal, &mut trace),
                    (first, last),
                    Output::Defer(games),
                    (control, progress),
                    block,
                ) {
                    // The games before the failing block are still handed over.
                    let _ = to_writer.send(std::mem::take(&mut batch));
                    played = Err(e);
                    break;
                }
                let skipped = d.block.skipped;
                batch.push(d);
                if batch.len() == BATCH || skipped || firsts.peek().is_none() {
                    let next = spare_batches
                        .pop()
                        .unwrap_or_else(|| Vec::with_capacity(BATCH));
                    if to_writer.send(std::mem::replace(&mut batch, next)).is_err() || skipped {
                        break; // an error of the writer (reported below), or a stop
                    }
                }
            }
            drop(to_writer);
            let written = writer.join().expect("the writer thread panicked");
            played.and(written)
        });
    }

    let spare = Spare::default();
    let spare = &spare;
    let play_chunk = |start: u64, len: u64| -> Result<Vec<Block>, TournamentError> {
        pool.install(|| {
            (0..len.div_ceil(BLOCK))
                .into_par_iter()
                .map_init(
                    || {
                        let agents =
                            build_agents::<G>(&plan.lineup).expect("lineup validated above");
                        (agents, Vec::<G::Action>::new(), Trace::default())
                    },
                    |(agents, legal, trace), b| {
                        let first = start + b * BLOCK;
                        let last = (first + BLOCK).min(start + len);
                        let mut block = Block {
                            rows: spare.take(rows_hint),
                            tallies: Tallies::default(),
                            ..Block::default()
                        };
                        play_block(
                            (plan, &seatings),
                            (agents, legal, trace),
                            (first, last),
                            Output::Now(format, map),
                            (control, progress),
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
    let chunks = (start..end)
        .step_by(CHUNK as usize)
        .map(|c| (c, CHUNK.min(end - c)));

    // One chunk in flight to the writer, one being written, one being played: bounded
    // memory whatever the number of games.
    let (to_writer, from_pool) = mpsc::sync_channel::<Vec<Block>>(1);
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> Result<Finish, TournamentError> {
            let mut finish = Finish::Done;
            for chunk in from_pool {
                for block in chunk {
                    // Played blocks not yet handed over are dropped on a stop too, so a
                    // stop takes effect within a block even when the writer lags.
                    if (block.skipped || control.stopped()) && finish == Finish::Done {
                        finish = Finish::Stopped { next: block.first };
                    }
                    if finish == Finish::Done {
                        sink(&block)?;
                    }
                    spare.give(block.rows);
                }
            }
            Ok(finish)
        });
        let mut played = Ok(());
        for (first, len) in chunks {
            if control.stopped() {
                // Not played at all: the writer learns where to continue from a skipped
                // block standing for the rest.
                let rest = Block {
                    first,
                    skipped: true,
                    ..Block::default()
                };
                let _ = to_writer.send(vec![rest]);
                break;
            }
            match play_chunk(first, len) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::{Action, Race};

    /// Plays legally until ply 2, then returns action 200, which no seat ever has.
    struct Cheater;

    impl Agent<Race> for Cheater {
        fn spec(&self) -> String {
            "cheater".into()
        }

        fn act(&mut self, view: &View<'_, Race>, rng: &mut SimRng) -> Action {
            if view.ply() >= 2 {
                return Action(200);
            }
            view.random_action(&mut Vec::new(), rng)
        }
    }

    #[test]
    fn an_illegal_action_of_any_agent_fails_the_game_without_being_applied() {
        let plan = Plan::<Race>::resolve(Some(2), &["rounds=3"], &["random", "random"], 1).unwrap();
        let mut agents: Vec<Box<dyn Agent<Race>>> = vec![Box::new(Cheater), Box::new(Cheater)];
        let mut applied = Vec::new();
        let e = play_game_with(&plan, &mut agents, &mut Vec::new(), 0, |e| {
            if let Event::Ply { actions, .. } = e {
                applied.extend(actions.iter().flatten().copied());
            }
        })
        .unwrap_err();
        let TournamentError::Game { index: 0, message } = e else {
            panic!("{e}")
        };
        assert!(
            // The third ply (1-based, as errors.csv and agents' messages count).
            message.contains("returned the illegal action 200 at ply 3")
                && message.contains("seat "),
            "{message}"
        );
        // The legal plies before it were applied, the illegal action never.
        assert!(!applied.is_empty() && !applied.contains(&Action(200)));
    }

    #[test]
    fn the_seating_cursor_reads_the_schedule() {
        // Short cycles (a table) and, with the table dropped, the computed path; cursors
        // started mid-cycle and read across the wrap.
        for (k, players) in [(1, 2), (2, 2), (3, 3), (4, 4), (5, 4), (2, 4)] {
            let specs = vec!["random"; k];
            let lineup = Lineup::new(&specs, players).unwrap();
            let cycle = lineup.schedule().cycle_len();
            let mut computed = Seatings::new(&lineup, u64::MAX);
            assert_eq!(computed.table.len() as u64, cycle, "k={k} p={players}");
            let table = Seatings::new(&lineup, u64::MAX);
            computed.table.clear();
            for first in [0, 1, cycle - 1, cycle, 3 * cycle + 7] {
                let (mut a, mut b) = (table.at(first), computed.at(first));
                for g in first..first + 2 * cycle + 3 {
                    let want = lineup.seating(g);
                    assert_eq!(a.next_game(), want, "k={k} p={players} g={g}");
                    assert_eq!(b.next_game(), want, "k={k} p={players} g={g}");
                }
            }
        }
    }
}
