//! Soak testing (`sim soak`): millions of games between random and greedy agents with the
//! conformance harness's invariants ([`crate::testing`]) checked while they play, in
//! parallel, reporting speed and every failure with the command that replays it.
//!
//! # What is played
//! A soak is a list of *configurations*: every combination of a rule variant (the settings
//! given, and with `variants` one more setting per alternative value of every enum or bool
//! parameter, one factor at a time), a player count (every supported count unless given)
//! and an agent [`Mix`] (uniform random self-play, greedy against random, greedy
//! self-play). Game index `i` (from `first` to `first + games - 1`) plays configuration
//! `i mod C`, exactly as game `i` of
//! `sim tournament --seed S --agents <mix> --players <p> --variant <v>` would: chance from
//! `seed_for(S, i, 0)`, seat `s`'s agent from `seed_for(S, i, 1 + s)`, the tournament's
//! seating schedule. So every game, and every failure, replays with `sim play` (the
//! command is in [`Failure::replay`]). The checks draw from a stream of their own
//! (`seed_for(S, i, CHECK_STREAM)`) and never touch the game's streams.
//!
//! # What is checked
//! At **every node** of every game:
//! - [`GameState::validate`](crate::game::GameState::validate) (ranges and conservation laws of the state);
//! - a clone equals the original;
//! - every seat's legal actions are sorted, unique, and non-empty iff the seat acts;
//! - the value estimate is finite and sums to one constant over the game, which is the sum
//!   of the returns at the end;
//! - the game ends within [`GameState::max_plies`](crate::game::GameState::max_plies);
//! - when the counting allocator is installed (the `sim` binary installs [`CountingAlloc`]),
//!   `legal_actions` into a grown buffer and the unchecked apply allocate nothing.
//!
//! At a **sampled node** (each node with probability `1 / check_every`, from the check
//! stream):
//! - every legal action of every acting seat applies through the checked apply, an action
//!   that is not legal is refused and leaves the state unchanged, actions round-trip
//!   through their id and their text, and [`GameState::random_action`](crate::game::GameState::random_action) agrees with the default
//!   rule ([`crate::testing`] check 1);
//! - for every seat, one determinization keeps that seat's info key, turn, observation,
//!   rules and legal actions, and plays on legally to the end (check 2; whether hidden parts
//!   change is not checked here: it needs the game's own digest of them, which its tests
//!   have).
//!
//! At a node sampled with probability `1 / save_every`, and at the end of a game with the
//! same probability: save → load of the position ([`crate::position`]) gives an equal
//! state and the same text, and both copies play on identically (check 4).
//!
//! At the **end** of every game: returns finite and constant-sum over the configuration,
//! ranks in range with a first place, `scores_and_ranks` equal to `scores` and `ranks`,
//! an end condition named.
//!
//! A panic anywhere in a game (rules engine or agent) is a failure of that game; the soak
//! goes on with the next one.
//!
//! Not checked here (the games' own tests do): the game-specific invariants and hidden-part
//! digests of each game's `tests.rs`, snapshot independence, rule clauses. Release builds
//! also skip the engines' `debug_assert!`s.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rand::RngExt;
use rayon::prelude::*;
use serde::Serialize;

use crate::agents::Agent;
use crate::game::{GameStart, JointAction, MAX_PLAYERS, PerSeat, Playable, Turn, View};
use crate::params::ParamSet;
use crate::rng::{SimRng, rng_for, rng_from_seed, seed_for};
use crate::testing::{self, Hidden};
use crate::tournament::Plan;
use crate::tournament::TournamentError;
use crate::tournament::run::build_agents;

/// The random stream of the checks of game `i`: `seed_for(seed, i, CHECK_STREAM)`, far
/// above the agents' streams `1 + seat`.
pub const CHECK_STREAM: u64 = 1 << 20;

/// Games per work item (one rayon job plays a block, reusing its agents).
const BLOCK: u64 = 64;

/// At most this many failures are kept with their messages (all are counted).
pub const MAX_KEPT_FAILURES: usize = 100;

/// An agent mix: who sits at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mix {
    /// Uniform random self-play (`--agents random`).
    Random,
    /// Greedy against random (`--agents greedy,random`, seats rotating).
    GreedyRandom,
    /// Greedy self-play (`--agents greedy`).
    Greedy,
}

impl Mix {
    /// Every mix, in the order the soak cycles through them.
    pub const ALL: [Mix; 3] = [Mix::Random, Mix::GreedyRandom, Mix::Greedy];

    /// The name typed after `--mix`.
    pub fn name(self) -> &'static str {
        match self {
            Mix::Random => "random",
            Mix::GreedyRandom => "greedy-random",
            Mix::Greedy => "greedy",
        }
    }

    /// The `--agents` list of `sim play` / `sim tournament` that plays this mix.
    pub fn agents(self) -> &'static [&'static str] {
        match self {
            Mix::Random => &["random"],
            Mix::GreedyRandom => &["greedy", "random"],
            Mix::Greedy => &["greedy"],
        }
    }

    /// Parses a mix name.
    ///
    /// # Errors
    /// The offending name and the valid ones.
    pub fn parse(s: &str) -> Result<Mix, String> {
        Mix::ALL
            .into_iter()
            .find(|m| m.name() == s.trim())
            .ok_or_else(|| {
                format!("unknown agent mix '{s}'; valid mixes: random, greedy-random, greedy")
            })
    }
}

/// What to soak.
#[derive(Debug, Clone)]
pub struct SoakOptions {
    /// Games to play in all (spread over the configurations).
    pub games: u64,
    /// Index of the first game (to continue an interrupted soak: the report says where).
    pub first: u64,
    /// Master seed.
    pub seed: u64,
    /// Player counts; empty = every count the game supports.
    pub players: Vec<usize>,
    /// Agent mixes; empty = all of [`Mix::ALL`].
    pub mixes: Vec<Mix>,
    /// Variant settings applied to every configuration (`key=value`).
    pub variant: Vec<String>,
    /// Also soak one-factor variants of every enum and bool parameter.
    pub variants: bool,
    /// Deep checks at each node with probability `1 / check_every` (1 = every node).
    pub check_every: u32,
    /// Save/load checks with probability `1 / save_every` per node (and per final state).
    pub save_every: u32,
    /// Worker threads (`None` = rayon's default).
    pub threads: Option<usize>,
}

impl Default for SoakOptions {
    fn default() -> Self {
        SoakOptions {
            games: 1000,
            first: 0,
            seed: 0,
            players: Vec::new(),
            mixes: Vec::new(),
            variant: Vec::new(),
            variants: false,
            check_every: 16,
            save_every: 256,
            threads: None,
        }
    }
}

/// One configuration of a soak: variant, player count and agent mix.
#[derive(Debug, Clone, Serialize)]
pub struct ConfigReport {
    /// The variant settings (`key=value`, as typed for `--variant`).
    pub variant: Vec<String>,
    /// Players.
    pub players: usize,
    /// The agent mix.
    pub mix: Mix,
    /// Games played.
    pub games: u64,
    /// Plies played.
    pub plies: u64,
    /// The longest game, in plies.
    pub max_plies: u32,
    /// The game's own bound ([`GameState::max_plies`](crate::game::GameState::max_plies) at the start of a game).
    pub bound: u32,
    /// Failed games.
    pub failures: u64,
}

/// A failed game: what went wrong and how to replay it.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Game index.
    pub index: u64,
    /// The game's chance seed, `seed_for(seed, index, 0)`.
    pub chance_seed: u64,
    /// Which configuration ([`SoakReport::configs`]).
    pub config: usize,
    /// The ply at which the check failed (or the game panicked), if known.
    pub ply: Option<u32>,
    /// The message.
    pub message: String,
    /// The `sim play` command that replays the game.
    pub replay: String,
    /// The `sim soak` command that plays this one game again with the same checks (a
    /// failure inside a check, such as a determinized copy's playout, shows only here).
    pub resoak: String,
}

/// Counts of what was checked.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Checks {
    /// Nodes (states before a ply, terminal states included) given the every-node checks.
    pub nodes: u64,
    /// Nodes given the deep checks (every legal action applied, illegal refused).
    pub deep_nodes: u64,
    /// Determinizations checked (one per seat at a deep node).
    pub determinizations: u64,
    /// Positions saved, loaded and played on.
    pub positions_saved: u64,
    /// Plies whose apply and legal-action lists were checked for allocations (0 when no
    /// counting allocator is installed).
    pub allocation_checked_plies: u64,
}

impl Checks {
    fn add(&mut self, o: &Checks) {
        self.nodes += o.nodes;
        self.deep_nodes += o.deep_nodes;
        self.determinizations += o.determinizations;
        self.positions_saved += o.positions_saved;
        self.allocation_checked_plies += o.allocation_checked_plies;
    }
}

/// The result of a soak.
#[derive(Debug, Clone, Serialize)]
pub struct SoakReport {
    /// The game.
    pub game: String,
    /// Master seed.
    pub seed: u64,
    /// First game index.
    pub first: u64,
    /// Games asked for.
    pub games_requested: u64,
    /// Games played (fewer than asked if interrupted): indices `first..first + games`.
    pub games: u64,
    /// Whether the soak stopped early (SIGINT / SIGTERM).
    pub interrupted: bool,
    /// Plies played.
    pub plies: u64,
    /// Failed games.
    pub failures: u64,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Games per second (wall clock; approximate on a loaded machine).
    pub games_per_sec: f64,
    /// Plies per second.
    pub plies_per_sec: f64,
    /// Worker threads.
    pub threads: usize,
    /// `1 / check_every` of the nodes get the deep checks.
    pub check_every: u32,
    /// `1 / save_every` of the nodes get the save/load check.
    pub save_every: u32,
    /// What was checked.
    pub checks: Checks,
    /// The configurations, game `i` playing `configs[i mod len]`.
    pub configs: Vec<ConfigReport>,
    /// The failures kept (at most [`MAX_KEPT_FAILURES`], lowest indices first).
    pub failure_list: Vec<Failure>,
}

impl SoakReport {
    /// The command that plays the games not yet played (after an interruption).
    pub fn rest(&self) -> Option<(u64, u64)> {
        (self.games < self.games_requested)
            .then(|| (self.first + self.games, self.games_requested - self.games))
    }
}

/// Why a soak could not start (bad input: exit 2).
#[derive(Debug, thiserror::Error)]
pub enum SoakError {
    /// A bad game, player count, variant or agent.
    #[error(transparent)]
    Setup(#[from] TournamentError),
    /// A bad option.
    #[error("{0}")]
    Option(String),
    /// The thread pool could not be built.
    #[error("could not start the worker threads: {0}")]
    Threads(String),
}

// --- the counting allocator ---------------------------------------------------------------

/// A global allocator that counts each thread's allocations, so the soak can check that
/// hot paths allocate nothing. The `sim` binary installs it; the cost is one thread-local
/// increment per allocation (the hot paths make none).
pub struct CountingAlloc;

/// Whether [`CountingAlloc`] is the global allocator: 0 = not yet known, 1 = yes, 2 = no.
static COUNTING_INSTALLED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a
// const-initialised thread-local without a destructor, so touching it never allocates.
unsafe impl std::alloc::GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { std::alloc::System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { std::alloc::System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations made so far by the calling thread, or `None` if [`CountingAlloc`] is not
/// the global allocator.
pub fn allocations() -> Option<u64> {
    let installed = match COUNTING_INSTALLED.load(Ordering::Relaxed) {
        0 => {
            // An allocation through the counter, if installed, shows up in the count.
            let before = ALLOCATIONS.with(Cell::get);
            drop(std::hint::black_box(Box::new(0u64)));
            let yes = ALLOCATIONS.with(Cell::get) != before;
            COUNTING_INSTALLED.store(if yes { 1 } else { 2 }, Ordering::Relaxed);
            yes
        }
        k => k == 1,
    };
    installed.then(|| ALLOCATIONS.with(Cell::get))
}

// --- stopping -----------------------------------------------------------------------------

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks a running soak to stop after the games in flight (the SIGINT/SIGTERM handler of
/// `sim soak` calls it); the report then covers a prefix of the indices.
pub fn request_stop() {
    STOP.store(true, Ordering::Relaxed);
}

// --- configurations -----------------------------------------------------------------------

/// The variant settings to soak: `base`, then (with `one_factor`) `base` plus one setting
/// `key=value` for every alternative value of every enum or bool parameter of `G` that
/// `base` does not set.
pub fn variant_list<G: Playable>(base: &[String], one_factor: bool) -> Vec<Vec<String>> {
    let mut out = vec![base.to_vec()];
    if !one_factor {
        return out;
    }
    for info in G::Params::info() {
        if base
            .iter()
            .any(|s| s.split('=').next().map(str::trim) == Some(info.name))
        {
            continue;
        }
        let values: Vec<&str> = if info.kind == "bool" {
            vec!["true", "false"]
        } else if info.kind.contains('|')
            && info
                .kind
                .split('|')
                .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            info.kind.split('|').collect()
        } else {
            continue;
        };
        for v in values.into_iter().filter(|v| *v != info.default) {
            let mut s = base.to_vec();
            s.push(format!("{}={v}", info.name));
            out.push(s);
        }
    }
    out
}

struct Config<G: Playable> {
    plan: Plan<G>,
    report: ConfigReport,
}

/// The `sim play` command that replays game `index` of configuration `c`.
fn replay_command<G: Playable>(c: &ConfigReport, seed: u64, index: u64) -> String {
    let mut cmd = format!(
        "sim play --game {} --seed {seed} --index {index} --players {} --agents {}",
        G::NAME,
        c.players,
        c.mix.agents().join(",")
    );
    for v in &c.variant {
        cmd.push_str(" --variant ");
        cmd.push_str(&crate::tournament::shell_quote(v));
    }
    cmd
}

/// The `sim soak` command that plays game `index` of configuration `c` alone, with the
/// same checks (they draw from the game's own check stream).
fn resoak_command<G: Playable>(c: &ConfigReport, opts: &SoakOptions, index: u64) -> String {
    let mut cmd = format!(
        "sim soak --game {} --seed {} --from {index} -n 1 --players {} --mix {} \
         --check-every {} --save-every {}",
        G::NAME,
        opts.seed,
        c.players,
        c.mix.name(),
        opts.check_every,
        opts.save_every
    );
    for v in &c.variant {
        cmd.push_str(" --variant ");
        cmd.push_str(&crate::tournament::shell_quote(v));
    }
    cmd
}

fn configs<G: Playable>(opts: &SoakOptions) -> Result<(Vec<Config<G>>, usize), SoakError> {
    let players: Vec<usize> = if opts.players.is_empty() {
        (G::PLAYERS.0..=G::PLAYERS.1).collect()
    } else {
        opts.players.clone()
    };
    let mixes: &[Mix] = if opts.mixes.is_empty() {
        &Mix::ALL
    } else {
        &opts.mixes
    };
    let mut out = Vec::new();
    let mut skipped = 0;
    let variants = variant_list::<G>(&opts.variant, opts.variants);
    for (vi, variant) in variants.iter().enumerate() {
        for &p in &players {
            for &mix in mixes {
                let plan = match Plan::<G>::resolve(Some(p), variant, &to_strings(mix), opts.seed) {
                    Ok(plan) => plan,
                    // A one-factor variant that does not exist at this count is skipped;
                    // the settings the user typed must work.
                    Err(TournamentError::Variant(_)) if vi > 0 => {
                        skipped += 1;
                        continue;
                    }
                    Err(e) => return Err(e.into()),
                };
                out.push(Config {
                    plan,
                    report: ConfigReport {
                        variant: variant.clone(),
                        players: p,
                        mix,
                        games: 0,
                        plies: 0,
                        max_plies: 0,
                        bound: 0,
                        failures: 0,
                    },
                });
            }
        }
    }
    Ok((out, skipped))
}

fn to_strings(mix: Mix) -> Vec<String> {
    mix.agents().iter().map(|s| s.to_string()).collect()
}

// --- playing ------------------------------------------------------------------------------

/// What a worker gathers over its games.
#[derive(Default)]
struct Tally {
    games: Vec<u64>,
    plies: Vec<u64>,
    max_plies: Vec<u32>,
    bound: Vec<u32>,
    failures: Vec<u64>,
    returns_sum: Vec<Option<f64>>,
    checks: Checks,
    kept: Vec<Failure>,
    failed: u64,
}

impl Tally {
    fn new(n: usize) -> Self {
        Tally {
            games: vec![0; n],
            plies: vec![0; n],
            max_plies: vec![0; n],
            bound: vec![0; n],
            failures: vec![0; n],
            returns_sum: vec![None; n],
            ..Tally::default()
        }
    }

    fn merge(&mut self, o: Tally) {
        for c in 0..self.games.len() {
            self.games[c] += o.games[c];
            self.plies[c] += o.plies[c];
            self.max_plies[c] = self.max_plies[c].max(o.max_plies[c]);
            self.bound[c] = self.bound[c].max(o.bound[c]);
            self.failures[c] += o.failures[c];
            if self.returns_sum[c].is_none() {
                self.returns_sum[c] = o.returns_sum[c];
            }
        }
        self.checks.add(&o.checks);
        self.failed += o.failed;
        self.kept.extend(o.kept);
        self.kept.sort_by_key(|f| f.index);
        self.kept.truncate(MAX_KEPT_FAILURES);
    }
}

/// A failed check at a ply.
struct Fail {
    ply: u32,
    message: String,
}

/// Scratch buffers of one worker, grown once.
struct Scratch<A> {
    legal: Vec<A>,
    other: Vec<A>,
}

thread_local! {
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Installs a panic hook that records the message and location of a panic on this thread
/// (for the failure list) instead of printing it; returns the previous hook's restorer.
fn quiet_panics() -> impl FnOnce() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let text = info.to_string();
        let _ = LAST_PANIC.try_with(|p| *p.borrow_mut() = Some(text));
    }));
    move || {
        let _ = std::panic::take_hook();
        std::panic::set_hook(previous);
    }
}

/// Plays game `index` of configuration `c` with every check; returns its plies and
/// the sum of its returns.
#[allow(clippy::too_many_arguments)]
fn play_checked<G: Playable>(
    plan: &Plan<G>,
    agents: &mut [Box<dyn Agent<G>>],
    index: u64,
    opts: &SoakOptions,
    scratch: &mut Scratch<G::Action>,
    checks: &mut Checks,
    at: &mut (u32, &'static str),
    bound_seen: &mut u32,
) -> Result<(u32, f64), Fail> {
    let mut chance = rng_from_seed(seed_for(plan.seed, index, 0));
    let players = plan.rules.players();
    let mut seat_rng: [SimRng; MAX_PLAYERS] = std::array::from_fn(|s| {
        if s < players {
            rng_for(plan.seed, index, 1 + s as u64)
        } else {
            SimRng::new(1)
        }
    });
    let mut check_rng = rng_for(plan.seed, index, CHECK_STREAM);
    let lineup: PerSeat<u8> = plan.lineup.seating(index);
    let mut state = G::new_game(plan.rules, &mut chance);
    for seat in 0..players {
        agents[lineup[seat] as usize].start_game(&GameStart {
            seat,
            rules: plan.rules,
            index,
        });
    }
    let bound = state.max_plies();
    *bound_seen = bound;
    let counting = allocations().is_some();
    let mut value_sum: Option<f64> = None;
    loop {
        let ply = state.ply();
        *at = (ply, "the every-node checks");
        let fail = |message: String| Fail { ply, message };
        checks.nodes += 1;
        state
            .validate()
            .map_err(|e| fail(format!("a state reached by play fails validate: {e}")))?;
        let copy = state.clone();
        if copy != state {
            return Err(fail("a clone differs from its original".into()));
        }
        drop(copy);
        let turn = state.turn();
        let actors = turn.actors();
        let allocs_before = allocations();
        for p in 0..players {
            state.legal_actions(p, &mut scratch.legal);
            if actors.contains(p) == scratch.legal.is_empty() {
                return Err(fail(format!(
                    "seat {p}: {} legal actions but acts = {}",
                    scratch.legal.len(),
                    actors.contains(p)
                )));
            }
            if scratch.legal.windows(2).any(|w| w[0] >= w[1]) {
                return Err(fail(format!(
                    "seat {p}: legal actions not sorted and unique: {:?}",
                    scratch.legal
                )));
            }
        }
        let allocs_legal = allocations();
        let value = state.value();
        if value[..players].iter().any(|v| !v.is_finite()) {
            return Err(fail(format!("value {:?} is not finite", &value[..players])));
        }
        let vsum: f64 = value[..players].iter().sum();
        match value_sum {
            Some(s) if (s - vsum).abs() > 1e-9 => {
                return Err(fail(format!(
                    "the value estimate sums to {vsum} here but to {s} earlier in the game"
                )));
            }
            Some(_) => {}
            None => value_sum = Some(vsum),
        }
        let save = check_rng.random_range(0..opts.save_every.max(1)) == 0;
        if turn.is_terminal() {
            testing::check_terminal(&state, &mut None).map_err(fail)?;
            let r = state.returns();
            let rsum: f64 = r[..players].iter().sum();
            if (rsum - vsum).abs() > 1e-9 {
                return Err(fail(format!(
                    "the value estimate sums to {vsum} but the returns to {rsum}"
                )));
            }
            if value != r {
                return Err(fail(format!(
                    "value {:?} differs from returns {:?} at the end",
                    &value[..players],
                    &r[..players]
                )));
            }
            if save {
                at.1 = "the save/load check";
                testing::check_save_load(&state, &mut scratch.other, &check_rng).map_err(fail)?;
                checks.positions_saved += 1;
            }
            return Ok((ply, rsum));
        }
        if ply >= bound {
            return Err(fail(format!("game not over after max_plies = {bound}")));
        }
        if check_rng.random_range(0..opts.check_every.max(1)) == 0 {
            checks.deep_nodes += 1;
            at.1 = "the deep checks (checked apply of every legal action)";
            testing::check_node(&state, &mut scratch.other, &mut check_rng).map_err(fail)?;
            at.1 = "the determinize check (or its playout)";
            let (d, _) =
                testing::check_determinize_with(&state, &mut check_rng, 1, Hidden::Unchecked)
                    .map_err(fail)?;
            checks.determinizations += d as u64;
        }
        if save {
            at.1 = "the save/load check (or its playouts)";
            testing::check_save_load(&state, &mut scratch.other, &check_rng).map_err(fail)?;
            checks.positions_saved += 1;
        }
        // The runner's ply ([`crate::game::play_ply`]): every acting seat chooses from the
        // same state with its own stream, then the ply is applied with the chance stream.
        at.1 = "an agent's decision";
        let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
        for p in actors.iter() {
            joint[p] =
                Some(agents[lineup[p] as usize].act(&View::new(&state, p), &mut seat_rng[p]));
        }
        at.1 = "the apply";
        let legal_allocs = allocations();
        match turn {
            Turn::Player(p) => {
                state.apply_unchecked(p, joint[p].expect("an actor chose"), &mut chance)
            }
            Turn::Simultaneous(_) => state.apply_joint_unchecked(&joint, &mut chance),
            Turn::Terminal => unreachable!("terminal states return above"),
        }
        if counting {
            let after = allocations();
            let (Some(a0), Some(a1), Some(a2), Some(a3)) =
                (allocs_before, allocs_legal, legal_allocs, after)
            else {
                unreachable!("the counter is installed")
            };
            // The legal-action lists (into buffers of NUM_ACTION_IDS capacity) and the
            // apply allocate nothing; the checks and the agents between them may.
            if a1 != a0 {
                return Err(fail(format!(
                    "legal_actions allocated {} times with a grown buffer",
                    a1 - a0
                )));
            }
            if a3 != a2 {
                return Err(fail(format!(
                    "the unchecked apply allocated {} times",
                    a3 - a2
                )));
            }
            checks.allocation_checked_plies += 1;
        }
    }
}

fn play_block<G: Playable>(
    configs: &[Config<G>],
    agents: &mut [Vec<Box<dyn Agent<G>>>],
    (first, last): (u64, u64),
    opts: &SoakOptions,
    scratch: &mut Scratch<G::Action>,
) -> Tally {
    let n = configs.len() as u64;
    let mut t = Tally::new(configs.len());
    for index in first..last {
        let c = (index % n) as usize;
        let cfg = &configs[c];
        let mut at = (0, "setup");
        let mut bound = 0;
        let result = catch_unwind(AssertUnwindSafe(|| {
            play_checked(
                &cfg.plan,
                &mut agents[c],
                index,
                opts,
                scratch,
                &mut t.checks,
                &mut at,
                &mut bound,
            )
        }));
        let failure = match result {
            Ok(Ok((plies, rsum))) => {
                t.games[c] += 1;
                t.plies[c] += plies as u64;
                t.max_plies[c] = t.max_plies[c].max(plies);
                t.bound[c] = t.bound[c].max(bound);
                match t.returns_sum[c] {
                    Some(s) if (s - rsum).abs() > 1e-9 => Some(Fail {
                        ply: plies,
                        message: format!(
                            "returns sum to {rsum}, other games' of this configuration to {s}: \
                             not constant-sum"
                        ),
                    }),
                    Some(_) => None,
                    None => {
                        t.returns_sum[c] = Some(rsum);
                        None
                    }
                }
            }
            Ok(Err(f)) => {
                t.games[c] += 1;
                t.plies[c] += f.ply as u64;
                Some(f)
            }
            Err(payload) => {
                let (ply, phase) = at;
                t.games[c] += 1;
                t.plies[c] += ply as u64;
                let hooked = LAST_PANIC.with(|p| p.borrow_mut().take());
                let message = hooked.unwrap_or_else(|| {
                    payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic without a message".into())
                });
                // The agents may be mid-decision: start them afresh.
                if let Ok(fresh) = build_agents::<G>(&cfg.plan.lineup) {
                    agents[c] = fresh;
                }
                Some(Fail {
                    ply,
                    message: format!("panic in {phase}: {message}"),
                })
            }
        };
        if let Some(f) = failure {
            t.failures[c] += 1;
            t.failed += 1;
            if t.kept.len() < MAX_KEPT_FAILURES {
                t.kept.push(Failure {
                    index,
                    chance_seed: seed_for(cfg.plan.seed, index, 0),
                    config: c,
                    ply: Some(f.ply),
                    message: f.message,
                    replay: replay_command::<G>(&cfg.report, cfg.plan.seed, index),
                    resoak: resoak_command::<G>(&cfg.report, opts, index),
                });
            }
        }
    }
    t
}

/// Progress of a running soak, for a progress bar or a log line.
#[derive(Debug, Default)]
pub struct Progress {
    /// Games finished.
    pub games: AtomicU64,
    /// Failed games so far.
    pub failures: AtomicU64,
}

/// Runs a soak of game `G`.
///
/// The games are played in chunks of index order; a stop request ([`request_stop`]) ends
/// the soak after the chunk in flight, so the report always covers the indices
/// `first..first + games` without gaps.
///
/// # Errors
/// [`SoakError`] for bad options, variants, player counts (bad input).
pub fn run<G: Playable>(opts: &SoakOptions, progress: &Progress) -> Result<SoakReport, SoakError> {
    if opts.games == 0 {
        return Err(SoakError::Option("-n must be at least 1".into()));
    }
    if opts.check_every == 0 || opts.save_every == 0 {
        return Err(SoakError::Option(
            "--check-every and --save-every must be at least 1".into(),
        ));
    }
    let (mut configs, _skipped) = configs::<G>(opts)?;
    if configs.is_empty() {
        return Err(SoakError::Option("no configuration to soak".into()));
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = opts.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder
        .build()
        .map_err(|e| SoakError::Threads(e.to_string()))?;
    let threads = pool.current_num_threads();
    STOP.store(false, Ordering::Relaxed);
    let restore = quiet_panics();
    let start = std::time::Instant::now();
    let mut total = Tally::new(configs.len());
    let mut done = 0u64;
    // Chunks: big enough to keep every thread busy, small enough to stop soon.
    let chunk = (BLOCK * 64 * threads as u64).max(BLOCK);
    let mut interrupted = false;
    while done < opts.games {
        if STOP.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        let lo = opts.first + done;
        let hi = lo + chunk.min(opts.games - done);
        let blocks: Vec<(u64, u64)> = (lo..hi)
            .step_by(BLOCK as usize)
            .map(|b| (b, (b + BLOCK).min(hi)))
            .collect();
        let cfgs = &configs;
        let tally = pool.install(|| {
            blocks
                .par_iter()
                .map_init(
                    || {
                        let agents: Vec<Vec<Box<dyn Agent<G>>>> = cfgs
                            .iter()
                            .map(|c| {
                                build_agents::<G>(&c.plan.lineup).expect("a resolved lineup builds")
                            })
                            .collect();
                        let scratch = Scratch {
                            legal: Vec::with_capacity(G::NUM_ACTION_IDS),
                            other: Vec::with_capacity(G::NUM_ACTION_IDS),
                        };
                        (agents, scratch)
                    },
                    |(agents, scratch), &range| {
                        let t = play_block(cfgs, agents, range, opts, scratch);
                        progress
                            .games
                            .fetch_add(range.1 - range.0, Ordering::Relaxed);
                        progress.failures.fetch_add(t.failed, Ordering::Relaxed);
                        t
                    },
                )
                .reduce(
                    || Tally::new(cfgs.len()),
                    |mut a, b| {
                        a.merge(b);
                        a
                    },
                )
        });
        // Constant-sum across workers too.
        for (c, cfg) in configs.iter().enumerate() {
            if let (Some(a), Some(b)) = (total.returns_sum[c], tally.returns_sum[c])
                && (a - b).abs() > 1e-9
            {
                total.failed += 1;
                total.failures[c] += 1;
                total.kept.push(Failure {
                    index: lo,
                    chance_seed: seed_for(opts.seed, lo, 0),
                    config: c,
                    ply: None,
                    message: format!(
                        "returns sum to {b} in games {lo}..{hi} but to {a} before: not constant-sum"
                    ),
                    replay: replay_command::<G>(&cfg.report, opts.seed, lo),
                    resoak: resoak_command::<G>(&cfg.report, opts, lo),
                });
            }
        }
        total.merge(tally);
        done = hi - opts.first;
    }
    restore();
    let seconds = start.elapsed().as_secs_f64();
    for (c, cfg) in configs.iter_mut().enumerate() {
        cfg.report.games = total.games[c];
        cfg.report.plies = total.plies[c];
        cfg.report.max_plies = total.max_plies[c];
        cfg.report.bound = total.bound[c];
        cfg.report.failures = total.failures[c];
    }
    let plies: u64 = total.plies.iter().sum();
    Ok(SoakReport {
        game: G::NAME.to_string(),
        seed: opts.seed,
        first: opts.first,
        games_requested: opts.games,
        games: done,
        interrupted,
        plies,
        failures: total.failed,
        seconds,
        games_per_sec: done as f64 / seconds.max(1e-9),
        plies_per_sec: plies as f64 / seconds.max(1e-9),
        threads,
        check_every: opts.check_every,
        save_every: opts.save_every,
        checks: total.checks,
        configs: configs.into_iter().map(|c| c.report).collect(),
        failure_list: total.kept,
    })
}

/// The configurations a soak of `G` would play (for `--dry-run` style listings and tests):
/// (variant, players, mix) in the order game indices cycle through them.
///
/// # Errors
/// As [`run`].
pub fn plan<G: Playable>(opts: &SoakOptions) -> Result<Vec<ConfigReport>, SoakError> {
    Ok(configs::<G>(opts)?
        .0
        .into_iter()
        .map(|c| c.report)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState;
    use crate::games::race::Race;

    fn opts(games: u64) -> SoakOptions {
        SoakOptions {
            games,
            seed: 3,
            threads: Some(1),
            check_every: 2,
            save_every: 8,
            ..SoakOptions::default()
        }
    }

    #[test]
    fn a_soak_of_race_passes_and_covers_every_configuration() {
        let rep = run::<Race>(&opts(300), &Progress::default()).unwrap();
        assert_eq!(rep.games, 300);
        assert_eq!(rep.failures, 0, "{:?}", rep.failure_list);
        let counts = Race::PLAYERS.1 - Race::PLAYERS.0 + 1;
        assert_eq!(rep.configs.len(), counts * 3);
        assert!(
            rep.configs
                .iter()
                .all(|c| c.games >= 300 / rep.configs.len() as u64)
        );
        assert!(
            rep.checks.deep_nodes > 100 && rep.checks.positions_saved > 10,
            "{:?}",
            rep.checks
        );
        assert!(rep.checks.determinizations >= rep.checks.deep_nodes);
    }

    #[test]
    fn the_same_seed_gives_the_same_soak_for_any_thread_count() {
        let a = run::<crate::games::kuhn::State>(&opts(200), &Progress::default()).unwrap();
        let mut o = opts(200);
        o.threads = Some(2);
        let b = run::<crate::games::kuhn::State>(&o, &Progress::default()).unwrap();
        assert_eq!(a.plies, b.plies);
        assert_eq!(a.checks, b.checks);
    }

    #[test]
    fn one_factor_variants_cover_enum_and_bool_parameters() {
        let v = variant_list::<crate::games::daxu::State>(&[], true);
        assert_eq!(v[0], Vec::<String>::new());
        assert!(v.contains(&vec!["tiebreak_mode=holder_receives".to_string()]));
        assert!(v.contains(&vec!["rep_order=action_then_cards".to_string()]));
        assert!(!v.iter().any(|s| s.iter().any(|x| x.starts_with("deck="))));
        let base = vec!["returns=margin".to_string()];
        let v = variant_list::<crate::games::daxu::State>(&base, true);
        assert!(v.iter().all(|s| s[0] == "returns=margin"));
        assert!(
            !v.iter()
                .any(|s| s.len() > 1 && s[1].starts_with("returns="))
        );
    }

    #[test]
    fn replay_commands_name_the_configuration() {
        let rep = plan::<Race>(&SoakOptions {
            variant: vec!["rounds=2".into()],
            ..opts(1)
        })
        .unwrap();
        let cmd = replay_command::<Race>(&rep[1], 7, 42);
        assert_eq!(
            cmd,
            "sim play --game race --seed 7 --index 42 --players 2 --agents greedy,random --variant rounds=2"
        );
    }
}
