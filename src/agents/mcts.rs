//! `mcts`: UCT (Kocsis & Szepesvári 2006) with Perfect Information Monte Carlo
//! determinization and decoupled UCT at simultaneous nodes.
//!
//! Variant implemented:
//! - **Tree**: by default open loop over action sequences ([`super::tree`]); chance is
//!   sampled inside `apply` during each descent. One node is added per iteration (the first
//!   node off the tree), then a playout ([`super::rollout`]) gives a reward vector in the
//!   units of `returns` (`[0, 1]^n` under the default win share; `c` assumes that range, so
//!   a game played with `returns=margin` needs `c` scaled to its point spread).
//! - **Closed-loop chance** (`chance=closed`): a child is keyed by the actions *and* the
//!   searching seat's information key ([`GameState::info_key`](crate::game::GameState::info_key))
//!   after them, so every chance outcome that seat observes (Daxu's three flipped cards,
//!   Goofspiel's prize card) gets its own node and the moves below it are chosen knowing
//!   it. Open loop (`chance=open`, the behaviour before) mixes the outcomes in one node, so
//!   the deeper tree plays an outcome-blind policy whose values the root then trusts more
//!   as the tree grows: on Daxu, 4N against N at N = 4,000 scores 0.512 open and 0.565
//!   closed (`results/agents-daxu-root/README.md`). Outcomes hidden from the searching seat
//!   stay mixed (the opponents' private draws), as in single-observer ISMCTS.
//! - **Root rule** (`root`): `uct` selects at the root like everywhere else; `sh` spends the
//!   searching seat's root budget by Sequential Halving (`Halving`; Karnin, Koren &
//!   Somekh 2013; Cazenave 2014 in trees), which minimises the simple regret of the move
//!   played rather than the cumulative regret UCB1 minimises. The other seats at a
//!   simultaneous root keep `sm`. With `final=visits` the move played is the last
//!   survivor (the two finalists have equal visits; ties go to the higher mean). UCB1 at
//!   the root commits its visits to the early leader and `final=visits` then plays it:
//!   on Daxu, `root=sh` beats `root=uct` 0.555 at 1,000 and 0.638 at 4,000 iterations.
//!   Under a time budget the halving is anytime: `iters` is the first plan and each
//!   later plan, over every root action again, has twice the budget of the one before.
//!   Daxu's preset (`agents/games/daxu.toml`) sets `root=sh,chance=closed`; the kinds'
//!   own defaults (`chance=open,root=uct`) play exactly as before these parameters.
//! - **Selection (UCB1)**: at a node, a seat first tries its untried legal actions (one of
//!   them uniformly at random), then picks the action maximising
//!   `mean_a + c * sqrt(ln N / n_a)`, where `n_a` is the action's visit count, `mean_a`
//!   its mean reward *for the seat that chooses it*, and `N` the sum of the visit counts of
//!   the seat's currently legal actions (the node's visit count when the legal set is
//!   fixed). Exact ties go to the first action in sorted order.
//! - **Multiplayer backup (max^n)**: each edge accumulates the reward of the seat that
//!   chose it, so every seat maximises its own reward.
//! - **Simultaneous nodes: decoupled selection** (Lanctot, Lisý & Winands 2013; Tak, Lanctot &
//!   Winands 2014): every acting seat selects its own action on its own edge statistics
//!   at the node, without seeing the others' choices; the joint action leads to the child
//!   stored under its key. The rule is `sm` ([`Sm`]); the default `ucb-mix` is UCB1 with
//!   random tie-breaking, except that with probability `gamma = 0.1` each seat plays a
//!   uniformly random action instead. Deterministic UCB1 (`sm=ucb`, the rule before
//!   2026-11-27) has a **lockstep defect**: in a symmetric position both seats hold the
//!   same statistics, so they pick the same action in every iteration, every sample is a
//!   draw, and a dominated action cannot be told from the right one (goofspiel with
//!   `num_cards=2, order=descending`, first decision: 51% of 2,000 visits on the dominant
//!   bid; `ucb-mix` 94–95%, `rm` 95%, `exp3` 93%; random ties alone, `ucb-ties`, still 51%).
//!   Measured at 1,000 iterations on goofspiel(13) (`results/skill-sm/README.md`): against
//!   OpenSpiel's C++ MCTSBot at 1,000 simulations (400 games, seats balanced, score =
//!   wins + draws/2, 95% normal interval) `ucb` scores 0.324 [0.293, 0.354] without chance
//!   (`order=descending`) and 0.502 [0.455, 0.550] with it; `ucb-mix` 0.531 [0.513, 0.550]
//!   and 0.573 [0.525, 0.620]; `rm` 0.383 and 0.435; `ucb-ties` 0.529 and 0.619 (but it
//!   keeps the lockstep above). On Daxu `ucb-mix` beats `ucb` 0.530 [0.509, 0.552] (1,000
//!   iterations, 2,000 paired games, seed 8). Regret matching and EXP3 lose head to head
//!   at this budget because their strategies spread the visits of deep nodes thinly.
//! - **Hidden information: PIMC.** The agent only holds a [`View`]. It searches `worlds`
//!   determinizations ([`View::determinize`]), each with its own tree and
//!   `iters / worlds` iterations, and sums the root statistics of its seat over worlds
//!   ("votes"). It never reads the true hidden state. PIMC inherits the known flaws of
//!   determinization (strategy fusion, non-locality; Frank & Basin 1998, Long et al. 2010).
//! - **Final move**: `final=visits` plays the action with most summed visits (ties: higher
//!   mean); `final=value` the highest summed mean among visited actions.
//! - **Defaults**: full random playouts (`depth=0`). On Daxu the heuristic cut-off does not
//!   pay: one evaluation (two per leaf, one per seat) costs more than the random plies it
//!   saves, and at equal iterations full playouts were at least as strong (mcts depth 0 vs
//!   depth 8, 1000 iterations: 0.55 ± 0.05 over 400 games; depth 4: 0.46, depth 2: 0.38
//!   against depth 8). `c = 0.7` follows Cowling, Powley & Whitehouse 2012.
//! - **More iterations play better at these defaults** (`sim tournament`, balanced seats,
//!   `--threads 1`; win rate of the 10,000-iteration agent against the 2,000-iteration
//!   default, draws counted apart): Goofspiel(13), 1,000 games, seed 11: 533 wins, 80 draws,
//!   387 losses (win rate 0.533, 95% CI [0.502, 0.564]); Daxu, 2,400 games over seeds 11, 12
//!   and 13 (400 + 1,000 + 1,000): 1,279 wins (0.533, about [0.513, 0.553]). `c = 1.4` also
//!   gains with iterations but is weaker at equal budget (2,000 iterations, c = 1.4 against
//!   c = 0.7: Goofspiel 0.346 [0.317, 0.376], 1,000 games; Daxu 0.458 [0.409, 0.507], 400
//!   games), and `c = 2.5` no longer gains on Goofspiel (0.499 [0.468, 0.530]).
//! - **Heuristic knowledge** (off by default; `results/agents-dunhuang-daimyo-knowledge`):
//!   `bias = W > 0` adds progressive bias (Chaslot et al. 2008) at turn-based nodes: each
//!   edge's value estimate `H` (the game's [`GameState::value`](crate::game::GameState::value)
//!   after the action, for the seat choosing it) is computed once, untried actions are
//!   tried in order of `H`, and UCB1 gains `W * H / (n + 1)`. It did not pay at W = 1 on
//!   two-player Dunhuang and Daimyo, and W = 10 lost 10 points on Dunhuang.
//!   `rollout=mast` plays the playouts by MAST ([`super::rollout`]; Finnsson & Björnsson
//!   2008), which paid on both games at equal iterations (Daimyo +47 points, Dunhuang
//!   +16.5) at 1.36× (Daimyo) and 1.69× (Dunhuang) the instructions per iteration.
//! - **Subtree reuse** (`reuse=true`, off by default): when the same seat decides right
//!   after its own move (one long turn split into decisions, a forced move between them
//!   included), the search goes on from that move's subtree instead of an empty tree
//!   ([`Arena::reroot`]); [`Agent::start_game`] drops it. A move
//!   by another seat in between starts a fresh tree (its action is not known to the
//!   agent in general). With hidden information the kept statistics come from the
//!   previous decision's determinization. Two-player Dunhuang at 2,000 iterations: +11.8
//!   points [+2.0, +21.5] against the same agent without reuse (400 paired games).
//! - **Weighted determinization** (`weights=greedy`, off by default): the worlds are drawn
//!   from a pool of `pool` determinizations weighted by the likelihood of the opponents'
//!   past actions under the greedy softmax with temperature `tau` ([`super::belief`];
//!   Rebstock et al. 2019). Only games that replay a world's history are weighted (Kuhn
//!   poker; Dunhuang, by the opponents' decisions of the last turn or two); elsewhere the
//!   option plays as `off`.
//! - **Budget**: `iters` iterations per decision, or `time_ms` of wall time when non-zero.
//!   Time-based searches are **not reproducible** (the iteration count depends on the
//!   machine and its load); tournaments that must be rerun exactly use `iters`.
//!
//! Not handled: transpositions (the tree is a tree), progressive widening of chance
//! outcomes (closed loop adds one node per new outcome seen), RAVE, subtree reuse across
//! other seats' moves, reuse with `worlds > 1`.

use std::time::{Duration, Instant};

use rand::RngExt;

use super::belief::{Belief, Weights, check_weights};
use super::rollout::{Policy, Rollout};
use super::tree::{Arena, NONE, Reroot};
use super::{Agent, canonical_spec};
use crate::game::{JointAction, MAX_PLAYERS, Playable, Turn, View};
use crate::params::ParamError;
use crate::rng::SimRng;

/// One line for `sim list`.
pub const DESCRIPTION: &str = "UCT (UCB1, max^n backup; Kocsis & Szepesvari 2006), decoupled UCT at simultaneous nodes, PIMC over `worlds` determinizations";

crate::param_enum! {
    /// How the move is chosen from the root statistics.
    pub enum Final {
        /// Most visits.
        Visits = "visits",
        /// Highest mean reward.
        Value = "value",
    }
}

crate::param_enum! {
    /// Selection at simultaneous nodes, where every acting seat chooses from its own
    /// statistics without seeing the others' choices (decoupled selection).
    pub enum Sm {
        /// Decoupled UCB1 with exact ties to the first action: deterministic, so in a
        /// symmetric position the seats' choices move in lockstep (kept to reproduce it).
        Ucb = "ucb",
        /// Decoupled UCB1 with exact ties broken uniformly at random.
        UcbTies = "ucb-ties",
        /// Decoupled UCB1 with random ties, and with probability gamma a uniformly random
        /// action instead (each seat on its own, so the seats never stay in lockstep).
        UcbMix = "ucb-mix",
        /// EXP3 (Auer et al. 2002): softmax of importance-weighted reward sums, gamma mixed in.
        Exp3 = "exp3",
        /// Regret matching (Hart & Mas-Colell 2000) on sampled regrets, gamma mixed in.
        Rm = "rm",
    }
}

crate::param_set! {
    /// Settings of the `mcts` agent.
    pub struct Params {
        /// Iterations per decision, split over `worlds` (used when time_ms = 0); >= 1.
        pub iters: u32 = 2000,
        /// Wall time per decision in milliseconds; 0 = use iters. Not reproducible.
        pub time_ms: u64 = 0,
        /// UCB1 exploration constant c in mean + c*sqrt(ln N / n); returns in [0, 1] (win share).
        pub c: f64 = 0.7,
        /// Playout policy: random, greedy (epsilon-greedy one-step lookahead) or mast (epsilon-greedy on each action's mean reward).
        pub rollout: Policy = Policy::Random,
        /// Probability of a random move in a greedy or mast playout, in [0, 1].
        pub epsilon: f64 = 0.1,
        /// Playout cut-off in plies, scored by the game's value estimate; 0 = play to the end.
        pub depth: u32 = 0,
        /// Playout cut-off in rounds: stop once this many rounds have ended since the playout began (1 = at the end of the current round), scored by the value estimate; 0 = none.
        pub rounds: u32 = 0,
        /// Determinizations searched (PIMC), each with its own tree; >= 1.
        pub worlds: u32 = 1,
        /// Final move: visits (most visited) or value (best mean).
        pub r#final: Final = Final::Visits,
        /// Selection at simultaneous nodes: ucb (deterministic; lockstep), ucb-ties, ucb-mix, exp3 or rm.
        pub sm: Sm = Sm::UcbMix,
        /// Exploration mixed into ucb-mix, exp3 and rm at simultaneous nodes: (1-gamma)*sigma + gamma/|A|; in (0, 1].
        pub gamma: f64 = 0.1,
        /// Chance in the tree: open (children by actions only; outcomes mixed) or closed (children also by what the searching seat observed).
        pub chance: ChanceLoop = ChanceLoop::Open,
        /// Root selection of the searching seat: uct (UCB1) or sh (Sequential Halving; with time_ms, restarted with twice the budget when iters is spent).
        pub root: Root = Root::Uct,
        /// Progressive bias weight W >= 0 at turn-based nodes: UCB1 + W*H/(n+1), H = the value estimate after the action; untried actions in order of H; 0 = off.
        pub bias: f64 = 0.0,
        /// Subtree reuse: when the same seat decides again right after its own move, search on from that move's subtree (worlds = 1 only).
        pub reuse: bool = false,
        /// World weighting: off (uniform determinizations) or greedy (worlds drawn from a pool by the likelihood of the opponents' past actions under the greedy softmax; games that replay their history: kuhn, dunhuang (the last turn or two); elsewhere as off).
        pub weights: Weights = Weights::Off,
        /// Temperature of the opponent model's softmax over value estimates (weights=greedy); > 0.
        pub tau: f64 = 0.1,
        /// Worlds drawn per decision into the weighted pool (weights=greedy); >= 1.
        pub pool: u32 = 64,
    }
    validate = validate;
    elide_at_default = [weights, tau, pool];
}

crate::param_enum! {
    /// How the tree treats chance drawn inside `apply`.
    pub enum ChanceLoop {
        /// Open loop: a child is keyed by the actions alone, so one node mixes every
        /// chance outcome reached by the same actions (the behaviour before 2026-11-27).
        Open = "open",
        /// Closed loop on the searching seat's observations: a child is keyed by the
        /// actions and by the searching seat's information key after them, so chance
        /// outcomes that seat sees get their own children.
        Closed = "closed",
    }
}

crate::param_enum! {
    /// How the searching seat chooses at the root.
    pub enum Root {
        /// UCB1 (or the simultaneous-node rule `sm`), as at every other node.
        Uct = "uct",
        /// Sequential Halving (Karnin, Koren & Somekh 2013): the budget is split into
        /// ceil(log2 K) rounds, each spread evenly over the surviving actions, and the
        /// worse half (by mean reward) is dropped after each round. Under a time budget
        /// the first plan spends `iters`, and each later one twice the one before.
        Sh = "sh",
    }
}

/// Checks the ranges that the parameter types cannot express (run by
/// [`ParamSet::from_settings`](crate::params::ParamSet::from_settings)).
///
/// # Errors
/// [`ParamError::Invalid`] naming the bad parameter.
pub fn validate(p: &Params, owner: &str) -> Result<(), ParamError> {
    check_common(owner, p.iters, p.c, p.epsilon)?;
    if p.worlds == 0 {
        return Err(invalid(owner, "worlds must be >= 1"));
    }
    check_bias(owner, p.bias)?;
    check_weights(owner, p.tau, p.pool)?;
    check_gamma(owner, p.gamma)
}

/// Checks the progressive bias weight: finite and >= 0.
pub(crate) fn check_bias(owner: &str, bias: f64) -> Result<(), ParamError> {
    if !(bias.is_finite() && bias >= 0.0) {
        return Err(invalid(owner, "bias must be >= 0"));
    }
    Ok(())
}

/// Checks the exploration `gamma` of stochastic selection: in (0, 1].
pub(crate) fn check_gamma(owner: &str, gamma: f64) -> Result<(), ParamError> {
    if !(gamma > 0.0 && gamma <= 1.0) {
        return Err(invalid(owner, "gamma must be in (0, 1]"));
    }
    Ok(())
}

pub(crate) fn invalid(owner: &str, reason: &str) -> ParamError {
    ParamError::Invalid {
        owner: owner.to_string(),
        reason: reason.to_string(),
    }
}

pub(crate) fn check_common(
    owner: &str,
    iters: u32,
    c: f64,
    epsilon: f64,
) -> Result<(), ParamError> {
    if iters == 0 {
        return Err(invalid(owner, "iters must be >= 1"));
    }
    if c < 0.0 {
        return Err(invalid(owner, "c must be >= 0"));
    }
    if !(0.0..=1.0).contains(&epsilon) {
        return Err(invalid(owner, "epsilon must be in [0, 1]"));
    }
    Ok(())
}

/// Runs `iteration` `iters` times, or until `deadline` when one is given (checked every
/// 16 iterations; at least one iteration runs).
pub(crate) fn run_budget(iters: u32, deadline: Option<Instant>, mut iteration: impl FnMut()) {
    match deadline {
        None => (0..iters).for_each(|_| iteration()),
        Some(end) => loop {
            for _ in 0..16 {
                iteration();
            }
            if Instant::now() >= end {
                break;
            }
        },
    }
}

/// Splits a decision's budget over `worlds` determinizations (PIMC): calls
/// `search_world(w, iters, deadline)` for each world `w`, with `iters` iterations (the
/// remainder spread over the first worlds) or, with a time budget of `time_ms > 0`, an equal
/// share of the time. No more worlds than iterations are searched under an iteration budget.
pub(crate) fn for_each_world(
    iters: u32,
    worlds: u32,
    time_ms: u64,
    mut search_world: impl FnMut(u32, u32, Option<Instant>),
) {
    let worlds = if time_ms > 0 {
        worlds
    } else {
        worlds.min(iters)
    };
    let start = Instant::now();
    for w in 0..worlds {
        let n = iters / worlds + u32::from(w < iters % worlds);
        let end = (time_ms > 0).then(|| start + Duration::from_millis(time_ms) * (w + 1) / worlds);
        search_world(w, n, end);
    }
}

/// The deadline of a time budget of `ms` milliseconds (`None` for 0).
pub(crate) fn deadline(ms: u64) -> Option<Instant> {
    (ms > 0).then(|| Instant::now() + Duration::from_millis(ms))
}

/// UCT edge statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UctStats {
    /// Times the edge was selected.
    pub visits: u32,
    /// Times the edge's action was legal when its node was visited (ISMCTS only).
    pub avail: u32,
    /// Sum of the rewards of the seat that chooses this edge.
    pub reward: f64,
    /// Stochastic selection at a simultaneous node: the cumulative sampled regret (`rm`) or
    /// the cumulative importance-weighted reward (`exp3`); unused by UCB1.
    pub aux: f64,
    /// The last iteration in which the action was offered to regret matching at its node.
    pub stamp: u32,
    /// Progressive bias (`bias > 0`): the value estimate `H(a)` of the state after the
    /// action for the seat that chooses it, or NaN until evaluated. An `f32` fits in the
    /// padding, so the edge is no larger than without it.
    pub prior: f32,
}

impl Default for UctStats {
    fn default() -> Self {
        UctStats {
            visits: 0,
            avail: 0,
            reward: 0.0,
            aux: 0.0,
            stamp: 0,
            prior: f32::NAN,
        }
    }
}

/// One step of a descent: the edge chosen by `seat` at `node` and, for stochastic
/// selection, the probability with which it was sampled (0 for UCB1).
#[derive(Clone, Copy, Debug)]
struct Step {
    node: u32,
    edge: u32,
    seat: u8,
    prob: f64,
}

/// The UCT search core shared by `mcts` and `ismcts`: one arena, reused buffers.
#[derive(Debug, Clone)]
pub(crate) struct UctSearch<G: Playable> {
    pub(crate) arena: Arena<G::Action, UctStats>,
    legal: Vec<G::Action>,
    idx: Vec<u32>,
    probs: Vec<f64>,
    path: Vec<Step>,
    rollout: Rollout<G>,
    c: f64,
    availability: bool,
    sm: Sm,
    gamma: f64,
    iteration: u32,
    /// Closed-loop chance: children keyed by the actions and `observer`'s information key.
    closed: bool,
    /// The searching seat (set by [`UctSearch::begin`]).
    observer: usize,
    /// Sequential Halving at the root for `observer` ([`Root::Sh`]).
    sh: bool,
    halving: Halving,
    /// Progressive bias weight W (0 = off).
    bias: f64,
    /// Subtree reuse between decisions (`reuse`).
    reuse: bool,
    /// The last decision searched with this tree: (seat, ply, action played).
    last: Option<(usize, u32, G::Action)>,
    /// Buffers of [`Arena::reroot`].
    reroot: Reroot<G::Action, UctStats>,
    /// Nodes kept from the previous decision by the last [`UctSearch::begin`].
    pub(crate) kept: usize,
}

/// Sequential Halving over the arms of one bandit (Karnin, Koren & Somekh 2013,
/// "Almost Optimal Exploration in Multi-Armed Bandits", ICML, Algorithm 1), as an anytime
/// schedule: [`Halving::next`] names the arm of each pull. A budget of `T` pulls over `K`
/// arms is split into `R = ceil(log2 K)` rounds; in each round every surviving arm is
/// pulled `floor(T_left / (|S| R_left))` times (at least once), round-robin, and then the half with the lower mean (rounded down) is dropped,
/// ranked by all pulls so far (Cazenave 2014, "Sequential Halving Applied to Trees").
/// Pulls past the budget keep halving until one arm is left and then pull it, unless the
/// schedule is *anytime* (a time budget, where the number of pulls is unknown): then a spent
/// budget starts the halving again over every arm with twice the budget (the doubling
/// trick), still ranking by all pulls so far.
#[derive(Debug, Clone, Default)]
pub(crate) struct Halving {
    /// Every arm, in the caller's order.
    arms: Vec<u32>,
    /// The surviving arms (caller's ids, e.g. root edge indices).
    alive: Vec<u32>,
    /// The budget of the current plan.
    budget: u64,
    /// Restart with twice the budget when it is spent.
    anytime: bool,
    /// Pulls per surviving arm in this round.
    per_arm: u64,
    /// Pulls made in this round.
    pulled: u64,
    /// Rounds left, this one included.
    rounds_left: u32,
    /// Pulls left in the budget.
    remaining: u64,
}

impl Halving {
    /// Starts a schedule over `arms` (at least one) with a budget of `budget` pulls;
    /// `anytime` restarts it with twice the budget whenever the budget is spent.
    pub(crate) fn start(&mut self, arms: &[u32], budget: u32, anytime: bool) {
        self.arms.clear();
        self.arms.extend_from_slice(arms);
        self.anytime = anytime;
        self.restart(u64::from(budget.max(1)));
    }

    /// Plans a fresh halving over every arm with `budget` pulls.
    fn restart(&mut self, budget: u64) {
        self.alive.clear();
        self.alive.extend_from_slice(&self.arms);
        self.budget = budget;
        self.remaining = budget;
        self.rounds_left = (self.alive.len().max(1) as u32)
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        self.plan();
    }

    /// Sets the pulls per arm of the round that begins.
    fn plan(&mut self) {
        let k = self.alive.len() as u64;
        self.pulled = 0;
        self.per_arm = if k <= 1 {
            u64::MAX
        } else if self.rounds_left <= 1 {
            // The remainder (< k pulls) goes to the winner of one more halving.
            (self.remaining / k).max(1)
        } else {
            (self.remaining / (k * u64::from(self.rounds_left))).max(1)
        };
    }

    /// The arm of the next pull; `mean(arm)` is its mean reward so far (read when a round
    /// ends; an arm never pulled should return `f64::NEG_INFINITY`).
    pub(crate) fn next(&mut self, mean: impl Fn(u32) -> f64) -> u32 {
        if self.anytime && self.remaining == 0 {
            self.restart(self.budget.saturating_mul(2));
        }
        let k = self.alive.len() as u64;
        if k > 1 && self.pulled >= self.per_arm * k {
            self.alive
                .sort_unstable_by(|&a, &b| mean(b).total_cmp(&mean(a)));
            self.alive.truncate(self.alive.len().div_ceil(2));
            self.rounds_left = self.rounds_left.saturating_sub(1).max(1);
            self.plan();
        }
        let arm = self.alive[(self.pulled % self.alive.len() as u64) as usize];
        self.pulled += 1;
        self.remaining = self.remaining.saturating_sub(1);
        arm
    }

    /// The surviving arms.
    #[cfg(test)]
    pub(crate) fn alive(&self) -> &[u32] {
        &self.alive
    }
}

/// The key of a closed-loop child: the actions' key `k` combined with the searching seat's
/// information key `info` after them (equal keys collide with probability 2^-64).
#[inline]
pub(crate) fn closed_key(k: u64, info: u64) -> u64 {
    k ^ crate::rng::mix64(info ^ 0x243f_6a88_85a3_08d3)
}

impl<G: Playable> UctSearch<G> {
    /// A search with exploration `c`; `availability` switches UCB1 to the subset-armed
    /// bandit of ISMCTS (`N` = the edge's availability count); `sm` and `gamma` choose the
    /// selection at simultaneous nodes.
    pub(crate) fn new(c: f64, availability: bool, rollout: Rollout<G>, sm: Sm, gamma: f64) -> Self {
        let mut arena = Arena::default();
        arena.reset();
        UctSearch {
            arena,
            legal: Vec::with_capacity(G::NUM_ACTION_IDS.min(256)),
            idx: Vec::new(),
            probs: Vec::new(),
            path: Vec::new(),
            rollout,
            c,
            availability,
            sm,
            gamma: gamma.clamp(1e-6, 1.0),
            iteration: 0,
            closed: false,
            observer: 0,
            sh: false,
            halving: Halving::default(),
            bias: 0.0,
            reuse: false,
            last: None,
            reroot: Reroot::default(),
            kept: 0,
        }
    }

    /// Switches subtree reuse between decisions on or off (`reuse`).
    pub(crate) fn with_reuse(mut self, reuse: bool) -> Self {
        self.reuse = reuse;
        self
    }

    /// Forgets the previous decision (a new game starts, or the tree was used for
    /// something else).
    pub(crate) fn forget(&mut self) {
        self.last = None;
    }

    /// Subtree reuse: the node of the tree that stands for the view's state, or [`NONE`].
    /// Found only when the same seat decided at the ply before with this tree at a
    /// turn-based root, so that exactly its own action (and chance inside it) lies
    /// between: the child of that action (open loop), or the child keyed by that action
    /// and the seat's information key now (closed loop, which tells the chance outcomes
    /// apart). Other moves in between (an opponent's) are not followed.
    pub(crate) fn reusable(&self, view: &View<'_, G>) -> u32 {
        let Some((seat, ply, action)) = self.last.filter(|_| self.reuse) else {
            return NONE;
        };
        if seat != view.seat() || view.ply() != ply.wrapping_add(1) {
            return NONE;
        }
        if self.closed {
            let key = closed_key(G::action_id(action) as u64 + 1, view.info_key());
            return self.arena.joint_child(0, key);
        }
        self.arena
            .seat_edges(0, seat)
            .find(|&e| self.arena.edges[e as usize].action == action)
            .map_or(NONE, |e| self.arena.edges[e as usize].child)
    }

    /// Records the action `seat` plays at `ply` from the root of this tree, for
    /// [`UctSearch::reusable`] (nothing without `reuse`, or at a simultaneous root, where
    /// the other seats' choices are not known).
    pub(crate) fn played(&mut self, view: &View<'_, G>, action: G::Action) {
        self.last = (self.reuse && matches!(view.turn(), Turn::Player(_)))
            .then(|| (view.seat(), view.ply(), action));
    }

    /// A forced move (one legal action, no search): re-roots the tree at `keep` (from
    /// [`UctSearch::reusable`]) so that the next decision can still reuse it, and records
    /// the move.
    pub(crate) fn pass_through(&mut self, keep: u32, view: &View<'_, G>, action: G::Action) {
        if keep == NONE {
            self.last = None;
            return;
        }
        self.arena.reroot(keep, 0, &mut self.reroot, |s| s);
        self.played(view, action);
    }

    /// Sets the progressive bias weight (`bias`; 0 = off).
    pub(crate) fn with_bias(mut self, bias: f64) -> Self {
        self.bias = bias.max(0.0);
        self
    }

    /// Sets the treatment of chance ([`ChanceLoop`]) and the root rule ([`Root`]).
    pub(crate) fn with_tree(mut self, chance: ChanceLoop, root: Root) -> Self {
        self.closed = chance == ChanceLoop::Closed;
        self.sh = root == Root::Sh;
        self
    }

    /// Starts a search of `iters` iterations for `seat`, whose legal actions at the root
    /// are `mine` (sorted): [`UctSearch::reset`], then, under `root=sh`, the root edges of
    /// `seat` and their halving schedule.
    /// `anytime` (a time budget) makes the halving restart with twice the budget whenever
    /// `iters` pulls are spent ([`Halving`]).
    ///
    /// `keep` ([`UctSearch::reusable`]; [`NONE`] for a fresh tree) is the node of the
    /// previous tree to search on from: the tree is re-rooted there with its statistics
    /// ([`Arena::reroot`]; the regret stamps are cleared, since the iteration count starts
    /// again).
    pub(crate) fn begin(
        &mut self,
        iters: u32,
        seat: usize,
        mine: &[G::Action],
        anytime: bool,
        keep: u32,
    ) {
        self.kept = 0;
        if keep == NONE {
            self.reset(iters);
        } else {
            self.iteration = 0;
            let extra = (iters as usize + 1).min(super::tree::MAX_NODES);
            self.arena
                .reroot(keep, extra, &mut self.reroot, |s| UctStats {
                    stamp: 0,
                    ..s
                });
            self.kept = self.arena.nodes.len();
        }
        self.rollout.begin_search();
        self.observer = seat;
        if self.sh {
            self.arena.sync_edges(0, seat, mine, &mut self.idx);
            self.halving.start(&self.idx, iters, anytime);
        }
    }

    /// The searching seat's root edge under Sequential Halving.
    fn halving_edge(&mut self) -> u32 {
        let edges = &self.arena.edges;
        self.halving.next(|e| {
            let s = &edges[e as usize].stats;
            if s.visits == 0 {
                f64::NEG_INFINITY
            } else {
                s.reward / f64::from(s.visits)
            }
        })
    }

    /// Empties the tree, keeping its memory, and reserves room for `iters` more nodes.
    pub(crate) fn reset(&mut self, iters: u32) {
        self.iteration = 0;
        self.arena.reset();
        self.arena
            .nodes
            .reserve((iters as usize + 1).min(super::tree::MAX_NODES));
    }

    /// Chooses `seat`'s edge at `node` among the legal actions in `self.legal` by UCB1;
    /// exact ties go to the first action, or with `random_ties` to one of them uniformly.
    /// With progressive bias (`bias > 0` and the node's `state` given, at turn-based
    /// nodes) each edge's value estimate `H` is computed the first time it is offered
    /// ([`UctSearch::evaluate_priors`]), untried actions are tried in order of `H` (ties
    /// at random), and UCB1 gains `bias * H / (n + 1)` (Chaslot et al. 2008,
    /// "Progressive Strategies for Monte-Carlo Tree Search", New Math. Nat. Comput. 4(3)).
    fn select(
        &mut self,
        node: u32,
        seat: usize,
        random_ties: bool,
        state: Option<&G>,
        rng: &mut SimRng,
    ) -> u32 {
        self.arena
            .sync_edges(node, seat, &self.legal, &mut self.idx);
        let biased = match state {
            Some(state) if self.bias > 0.0 => {
                self.evaluate_priors(state, seat, rng);
                true
            }
            _ => false,
        };
        let edges = &mut self.arena.edges;
        let mut unvisited = 0u32;
        let mut total = 0u64;
        for &e in &self.idx {
            let s = &mut edges[e as usize].stats;
            if self.availability {
                s.avail += 1;
            }
            if s.visits == 0 {
                unvisited += 1;
            }
            total += u64::from(s.visits);
        }
        if unvisited > 0 && biased {
            return self.best_untried(rng);
        }
        if unvisited > 0 {
            let mut k = rng.random_range(0..unvisited);
            for &e in &self.idx {
                if edges[e as usize].stats.visits == 0 {
                    if k == 0 {
                        return e;
                    }
                    k -= 1;
                }
            }
        }
        // With availability counts, ln m_a is shared by every action that was always
        // legal, so it is recomputed only when m_a changes along the walk.
        let mut ln_n = ln_count(total);
        let mut ln_of = u32::MAX;
        let mut best = f64::NEG_INFINITY;
        let mut chosen = self.idx[0];
        let mut ties = 0u32;
        for &e in &self.idx {
            let s = &edges[e as usize].stats;
            let n = f64::from(s.visits);
            if self.availability && s.avail != ln_of {
                ln_of = s.avail;
                ln_n = ln_count(u64::from(s.avail));
            }
            let mut ucb = s.reward / n + self.c * (ln_n / n).sqrt();
            if biased {
                ucb += self.bias * f64::from(s.prior) / (n + 1.0);
            }
            if ucb > best {
                best = ucb;
                chosen = e;
                ties = 1;
            } else if random_ties && ucb == best {
                // Reservoir sampling: the k-th tied action replaces the choice with
                // probability 1/k, so each tied action is chosen with probability 1/ties.
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    chosen = e;
                }
            }
        }
        chosen
    }

    /// Progressive bias: the untried edge of `self.idx` with the highest value estimate,
    /// exact ties uniformly at random (out of line: the default search never calls it).
    #[inline(never)]
    fn best_untried(&self, rng: &mut SimRng) -> u32 {
        let (mut best, mut chosen, mut ties) = (f32::NEG_INFINITY, NONE, 0u32);
        for &e in &self.idx {
            let s = &self.arena.edges[e as usize].stats;
            if s.visits > 0 {
                continue;
            }
            if s.prior > best || chosen == NONE {
                (best, chosen, ties) = (s.prior, e, 1);
            } else if s.prior == best {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    chosen = e;
                }
            }
        }
        chosen
    }

    /// Progressive bias: for each edge in `self.idx` (the seat's legal actions at `state`)
    /// not yet evaluated, `H` = the value estimate ([`GameState::value`]) for `seat` of
    /// `state` after the action, chance after it sampled once with `rng`.
    ///
    /// [`GameState::value`]: crate::game::GameState::value
    #[inline(never)]
    fn evaluate_priors(&mut self, state: &G, seat: usize, rng: &mut SimRng) {
        for &e in &self.idx {
            let edge = &mut self.arena.edges[e as usize];
            if edge.stats.prior.is_nan() {
                let mut next = state.clone();
                next.apply_unchecked(seat, edge.action, rng);
                edge.stats.prior = super::greedy::evaluate(&next, seat) as f32;
            }
        }
    }

    /// Chooses `seat`'s edge at a simultaneous node `node` among `self.legal` with the
    /// search's [`Sm`] rule; returns the edge and, for `exp3` and `rm`, the probability
    /// with which it was sampled (0 for the UCB1 rules).
    ///
    /// - `exp3`: `σ(a) ∝ exp(η (X_a - max X))` with `X_a` the summed importance-weighted
    ///   rewards and `η = γ / |A|` (Auer, Cesa-Bianchi, Freund & Schapire 2002, Exp3);
    /// - `rm`: `σ(a) = R_a^+ / Σ R^+` (uniform when no regret is positive) on the sampled
    ///   regrets (Lanctot, Lisý & Winands 2013, §3.2);
    ///
    /// both mixed with exploration, `σ'(a) = (1 - γ) σ(a) + γ / |A|`, and sampled from `σ'`.
    /// Each offered action is stamped with the iteration so that the backup updates the
    /// regrets of exactly the actions legal in this iteration.
    fn select_simultaneous(&mut self, node: u32, seat: usize, rng: &mut SimRng) -> (u32, f64) {
        let exp3 = match self.sm {
            Sm::Ucb => return (self.select(node, seat, false, None, rng), 0.0),
            Sm::UcbTies => return (self.select(node, seat, true, None, rng), 0.0),
            Sm::UcbMix => {
                if rng.random::<f64>() < self.gamma {
                    self.arena
                        .sync_edges(node, seat, &self.legal, &mut self.idx);
                    if self.availability {
                        for &e in &self.idx {
                            self.arena.edges[e as usize].stats.avail += 1;
                        }
                    }
                    let i = rng.random_range(0..self.idx.len());
                    return (self.idx[i], 0.0);
                }
                return (self.select(node, seat, true, None, rng), 0.0);
            }
            Sm::Exp3 => true,
            Sm::Rm => false,
        };
        self.arena
            .sync_edges(node, seat, &self.legal, &mut self.idx);
        let edges = &mut self.arena.edges;
        let k = self.idx.len() as f64;
        self.probs.clear();
        if exp3 {
            let eta = self.gamma / k;
            let top = self
                .idx
                .iter()
                .map(|&e| edges[e as usize].stats.aux)
                .fold(f64::NEG_INFINITY, f64::max);
            for &e in &self.idx {
                let s = &mut edges[e as usize].stats;
                s.avail += u32::from(self.availability);
                self.probs.push((eta * (s.aux - top)).exp());
            }
        } else {
            for &e in &self.idx {
                let s = &mut edges[e as usize].stats;
                s.avail += u32::from(self.availability);
                s.stamp = self.iteration;
                self.probs.push(s.aux.max(0.0));
            }
        }
        let total: f64 = self.probs.iter().sum();
        let (scale, floor) = if total > 0.0 {
            ((1.0 - self.gamma) / total, self.gamma / k)
        } else {
            (0.0, 1.0 / k)
        };
        for p in &mut self.probs {
            *p = *p * scale + floor;
        }
        let mut x = rng.random::<f64>();
        let last = self.idx.len() - 1;
        for (i, &p) in self.probs.iter().enumerate() {
            if x < p || i == last {
                return (self.idx[i], p);
            }
            x -= p;
        }
        unreachable!("the loop returns at the last action")
    }

    /// One iteration from `state` (consumed): selection, expansion of one node, playout,
    /// backup.
    pub(crate) fn iterate(&mut self, mut state: G, rng: &mut SimRng) {
        self.iteration += 1;
        self.path.clear();
        let mut node = 0u32;
        let rewards = loop {
            match state.turn() {
                Turn::Terminal => break state.returns(),
                Turn::Player(p) => {
                    let e = if node == 0 && self.sh && p == self.observer {
                        self.halving_edge()
                    } else {
                        state.legal_actions(p, &mut self.legal);
                        let biased = (self.bias > 0.0).then_some(&state);
                        self.select(node, p, false, biased, rng)
                    };
                    self.path.push(Step {
                        node,
                        edge: e,
                        seat: p as u8,
                        prob: 0.0,
                    });
                    let edge = self.arena.edges[e as usize];
                    self.rollout.note(p, edge.action);
                    state.apply_unchecked(p, edge.action, rng);
                    if self.closed {
                        let key = closed_key(
                            G::action_id(edge.action) as u64 + 1,
                            state.info_key(self.observer),
                        );
                        let child = self.arena.joint_child(node, key);
                        if child == NONE {
                            let child = self.arena.add_node();
                            if child != NONE {
                                self.arena.add_joint_child(node, key, child);
                            }
                            break self.rollout.run(&mut state, rng);
                        }
                        node = child;
                        continue;
                    }
                    if edge.child == NONE {
                        let child = self.arena.add_node();
                        if child != NONE {
                            self.arena.edges[e as usize].child = child;
                        }
                        break self.rollout.run(&mut state, rng);
                    }
                    node = edge.child;
                }
                Turn::Simultaneous(set) => {
                    let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
                    for p in set.iter() {
                        let (e, prob) = if node == 0 && self.sh && p == self.observer {
                            (self.halving_edge(), 0.0)
                        } else {
                            state.legal_actions(p, &mut self.legal);
                            self.select_simultaneous(node, p, rng)
                        };
                        self.path.push(Step {
                            node,
                            edge: e,
                            seat: p as u8,
                            prob,
                        });
                        let action = self.arena.edges[e as usize].action;
                        self.rollout.note(p, action);
                        joint[p] = Some(action);
                    }
                    let mut key = super::tree::joint_key::<G>(&joint);
                    state.apply_joint_unchecked(&joint, rng);
                    if self.closed {
                        key = closed_key(key, state.info_key(self.observer));
                    }
                    let child = self.arena.joint_child(node, key);
                    if child == NONE {
                        let child = self.arena.add_node();
                        if child != NONE {
                            self.arena.add_joint_child(node, key, child);
                        }
                        break self.rollout.run(&mut state, rng);
                    }
                    node = child;
                }
            }
        };
        self.rollout.learn(&rewards);
        for i in 0..self.path.len() {
            let step = self.path[i];
            let r = rewards[step.seat as usize];
            let s = &mut self.arena.edges[step.edge as usize].stats;
            s.visits += 1;
            s.reward += r;
            if step.prob > 0.0 {
                self.update_stochastic(&step, r);
            }
        }
    }

    /// Multiple-observer ISMCTS ([`super::mo_ismcts`]), where this search is one seat's
    /// tree: starts an iteration (the clock of the regret stamps).
    pub(crate) fn tick(&mut self) {
        self.iteration += 1;
    }

    /// Multiple-observer ISMCTS: `seat`'s edge at `node` of this tree among its legal
    /// actions at `state`, with the probability it was sampled with (0 for UCB1): the
    /// Sequential Halving schedule started by [`UctSearch::begin`] when `halving` (the
    /// searching seat at its root under `root=sh`), else UCB1 with availability counts (and
    /// progressive bias) at a turn-based node, the [`Sm`] rule at a simultaneous one.
    pub(crate) fn choose(
        &mut self,
        node: u32,
        seat: usize,
        state: &G,
        (simultaneous, halving): (bool, bool),
        rng: &mut SimRng,
    ) -> (u32, f64) {
        if halving {
            return (self.halving_edge(), 0.0);
        }
        state.legal_actions(seat, &mut self.legal);
        if simultaneous {
            self.select_simultaneous(node, seat, rng)
        } else {
            let biased = (self.bias > 0.0).then_some(state);
            (self.select(node, seat, false, biased, rng), 0.0)
        }
    }

    /// Multiple-observer ISMCTS: backs reward `r` of `seat` up through the edge `edge` of
    /// `node` that it chose with probability `prob` ([`UctSearch::choose`]).
    pub(crate) fn back_up(&mut self, node: u32, edge: u32, seat: usize, prob: f64, r: f64) {
        let s = &mut self.arena.edges[edge as usize].stats;
        s.visits += 1;
        s.reward += r;
        if prob > 0.0 {
            let step = Step {
                node,
                edge,
                seat: seat as u8,
                prob,
            };
            self.update_stochastic(&step, r);
        }
    }

    /// The backup of `exp3` and `rm` at a simultaneous node, for reward `r` of the seat
    /// that took `step`. `exp3` adds the importance-weighted reward `r / σ'(a)` to the
    /// chosen action. `rm` maps `r ∈ [0, 1]` to the win/loss utility `u = 2r - 1` (as
    /// `cfr` does; with `[0, 1]` a loss would leave every regret unchanged) and adds the
    /// sampled regret `x(b) - u` to every action offered in this iteration, where
    /// `x(a) = u / σ'(a)` for the chosen action and 0 for the others.
    fn update_stochastic(&mut self, step: &Step, r: f64) {
        let edges = &mut self.arena.edges;
        if self.sm == Sm::Exp3 {
            edges[step.edge as usize].stats.aux += r / step.prob;
            return;
        }
        let u = 2.0 * r - 1.0;
        let x = u / step.prob;
        let mut e = self.arena.nodes[step.node as usize].first[step.seat as usize];
        while e != NONE {
            let edge = &mut edges[e as usize];
            if edge.stats.stamp == self.iteration {
                let estimate = if e == step.edge { x } else { 0.0 };
                edge.stats.aux += estimate - u;
            }
            e = edge.next;
        }
    }

    /// Adds the root statistics of `seat` for each of `actions` (sorted) to `visits` and
    /// `rewards` (same order).
    pub(crate) fn root_stats(
        &mut self,
        seat: usize,
        actions: &[G::Action],
        visits: &mut [f64],
        rewards: &mut [f64],
    ) {
        self.arena.sync_edges(0, seat, actions, &mut self.idx);
        for (i, &e) in self.idx.iter().enumerate() {
            let s = self.arena.edges[e as usize].stats;
            visits[i] += f64::from(s.visits);
            rewards[i] += s.reward;
        }
    }
}

/// Picks the index of the final move from summed root `visits` and `rewards`.
pub(crate) fn final_choice(rule: Final, visits: &[f64], rewards: &[f64]) -> usize {
    let mean = |i: usize| {
        if visits[i] > 0.0 {
            rewards[i] / visits[i]
        } else {
            f64::NEG_INFINITY
        }
    };
    let mut best = 0;
    for i in 1..visits.len() {
        let better = match rule {
            Final::Visits => {
                visits[i] > visits[best] || (visits[i] == visits[best] && mean(i) > mean(best))
            }
            Final::Value => mean(i) > mean(best),
        };
        if better {
            best = i;
        }
    }
    best
}

/// The root of one decision, shared by `mcts` and `ismcts`: the seat's legal actions and
/// their root visits and rewards summed over the trees searched.
#[derive(Debug, Clone)]
pub(crate) struct RootStats<A> {
    /// The seat's legal actions, sorted.
    pub mine: Vec<A>,
    /// Summed root visits, per action.
    pub visits: Vec<f64>,
    /// Summed root rewards, per action.
    pub rewards: Vec<f64>,
}

impl<A: Copy> RootStats<A> {
    /// Empty statistics.
    pub fn new() -> Self {
        RootStats {
            mine: Vec::new(),
            visits: Vec::new(),
            rewards: Vec::new(),
        }
    }

    /// Loads the view's legal actions and zeroes the statistics.
    ///
    /// # Panics
    /// If the seat has no legal action (`kind` names the agent in the message).
    pub fn start<G: Playable<Action = A>>(&mut self, view: &View<'_, G>, kind: &str) {
        view.legal_actions(&mut self.mine);
        assert!(
            !self.mine.is_empty(),
            "{kind} asked to act with no legal action"
        );
        self.visits.clear();
        self.visits.resize(self.mine.len(), 0.0);
        self.rewards.clear();
        self.rewards.resize(self.mine.len(), 0.0);
    }

    /// `(action, visits, mean reward)` per legal action (NaN mean when unvisited).
    pub fn table(&self) -> Vec<(A, f64, f64)> {
        self.mine
            .iter()
            .zip(self.visits.iter().zip(&self.rewards))
            .map(|(&a, (&v, &r))| (a, v, r / v))
            .collect()
    }

    /// The final move under `rule` ([`final_choice`]).
    pub fn choose(&self, rule: Final) -> A {
        self.mine[final_choice(rule, &self.visits, &self.rewards)]
    }
}

/// The `mcts` agent (see the module docs). Its arena and buffers are reused between
/// decisions; a warmed-up agent allocates nothing per iteration.
#[derive(Debug, Clone)]
pub struct MctsAgent<G: Playable> {
    params: Params,
    search: UctSearch<G>,
    root: RootStats<G::Action>,
    belief: Belief<G>,
}

impl<G: Playable> MctsAgent<G> {
    /// An agent with these settings (see [`validate`]; out-of-range values are clamped).
    pub fn new(mut params: Params) -> Self {
        params.iters = params.iters.max(1);
        params.worlds = params.worlds.max(1);
        params.epsilon = params.epsilon.clamp(0.0, 1.0);
        let rollout = Rollout::new(params.rollout, params.epsilon, params.depth, params.rounds);
        MctsAgent {
            search: UctSearch::new(params.c.max(0.0), false, rollout, params.sm, params.gamma)
                .with_tree(params.chance, params.root)
                .with_bias(params.bias)
                .with_reuse(params.reuse),
            belief: Belief::new(params.weights, params.tau, params.pool),
            params,
            root: RootStats::new(),
        }
    }

    /// Bytes used by the search tree of the last world searched (lengths, not capacity).
    pub fn arena_bytes(&self) -> usize {
        self.search.arena.bytes_used()
    }

    /// Runs the search for the view's seat and returns its legal actions with the summed
    /// root visits and mean rewards (NaN when unvisited). Used by `act` and by tests.
    pub fn search(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> Vec<(G::Action, f64, f64)> {
        self.root.start(view, "mcts");
        self.search.forget();
        self.run(view, rng, NONE);
        self.root.table()
    }

    /// Searches after [`RootStats::start`], from the node `keep` of the previous tree
    /// ([`NONE`]: a fresh tree; reuse applies only with one world).
    fn run(&mut self, view: &View<'_, G>, rng: &mut SimRng, keep: u32) {
        let seat = view.seat();
        let p = &self.params;
        let keep = if p.worlds == 1 { keep } else { NONE };
        let (search, root, belief) = (&mut self.search, &mut self.root, &mut self.belief);
        let RootStats {
            mine,
            visits,
            rewards,
        } = root;
        belief.prepare(view, rng);
        for_each_world(p.iters, p.worlds, p.time_ms, |_, iters, end| {
            let world = belief.draw(view, rng);
            search.begin(iters, seat, mine, end.is_some(), keep);
            run_budget(iters, end, || search.iterate(world.clone(), rng));
            search.root_stats(seat, mine, visits, rewards);
        });
    }
}

impl<G: Playable> Agent<G> for MctsAgent<G> {
    fn spec(&self) -> String {
        canonical_spec("mcts", &self.params)
    }

    /// Drops the tree kept for subtree reuse (`reuse`).
    fn start_game(&mut self, _: &crate::game::GameStart<G>) {
        self.search.forget();
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        self.root.start(view, "mcts");
        let keep = self.search.reusable(view);
        if self.root.mine.len() == 1 {
            let a = self.root.mine[0];
            self.search.pass_through(keep, view, a);
            return a;
        }
        self.run(view, rng, keep);
        let a = self.root.choose(self.params.r#final);
        if self.params.worlds == 1 {
            self.search.played(view, a);
        }
        a
    }

    /// The root visits (summed over worlds; they sum to `iters`) and mean rewards.
    fn analyze(
        &mut self,
        view: &View<'_, G>,
        rng: &mut SimRng,
    ) -> Option<Vec<super::ActionStat<G::Action>>> {
        Some(super::uct_stats(self.search(view, rng)))
    }
}

/// Visit counts below this read [`ln_count`]'s table.
const LN_TABLE: usize = 4096;

/// `ln n` for a visit count, the `ln N` of UCB1: from a table of `f64::ln` for counts below
/// [`LN_TABLE`] (the same values, so searches are unchanged; `ln` itself costs about 80
/// instructions and selection needs one per node on the path), else computed.
#[inline]
pub(crate) fn ln_count(n: u64) -> f64 {
    static TABLE: std::sync::LazyLock<Box<[f64]>> =
        std::sync::LazyLock::new(|| (0..LN_TABLE).map(|n| (n as f64).ln()).collect());
    match TABLE.get(n as usize) {
        Some(&x) if n < LN_TABLE as u64 => x,
        _ => (n as f64).ln(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::agents::ismcts::{self, IsmctsAgent};
    use crate::game::GameState;
    use crate::games::goofspiel;
    use crate::params::ParamSet;
    use crate::rng::test_rng;

    /// Goofspiel with two cards and the point cards in descending order, at its first
    /// (simultaneous) decision: prize 2 now, prize 1 next. Bidding 2 wins against a bid of 1
    /// and draws against 2; bidding 1 draws against 1 and loses against 2: bid 2 dominates.
    pub(crate) fn goofspiel_two_cards() -> goofspiel::State {
        let params =
            goofspiel::Params::from_settings(&["num_cards=2", "order=descending"], "test").unwrap();
        crate::game::setup::<goofspiel::State>(&params, 2, &mut test_rng(1)).unwrap()
    }

    /// The share of root visits on the dominant bid (the second legal action) for seat 0.
    fn dominant_share(table: &[(goofspiel::Action, f64, f64)]) -> f64 {
        assert_eq!(table.len(), 2);
        table[1].1 / (table[0].1 + table[1].1)
    }

    /// The lockstep defect of decoupled UCT: with deterministic selection both seats hold the
    /// same statistics in this symmetric position, pick the same bid in every iteration and
    /// see only draws (51% of the visits on the dominant bid). Stochastic selection at
    /// simultaneous nodes must put at least 90% there, for `mcts` and `ismcts`, at every seed.
    #[test]
    fn simultaneous_selection_finds_the_dominant_bid() {
        let state = goofspiel_two_cards();
        let view = View::new(&state, 0);
        for seed in 0..8 {
            let mut m = MctsAgent::new(Params::from_settings(&["iters=2000"], "test").unwrap());
            let share = dominant_share(&m.search(&view, &mut test_rng(seed)));
            assert!(share >= 0.9, "mcts, seed {seed}: {share:.3} of the visits");
            let mut i =
                IsmctsAgent::new(ismcts::Params::from_settings(&["iters=2000"], "test").unwrap());
            let share = dominant_share(&i.search(&view, &mut test_rng(seed)));
            assert!(
                share >= 0.9,
                "ismcts, seed {seed}: {share:.3} of the visits"
            );
        }
    }

    /// Each stochastic rule finds the dominant bid; the deterministic UCB1 rules (with or
    /// without random ties) stay in lockstep near half the visits.
    #[test]
    fn only_stochastic_rules_escape_the_lockstep() {
        let state = goofspiel_two_cards();
        let view = View::new(&state, 0);
        for (sm, found) in [
            ("ucb", false),
            ("ucb-ties", false),
            ("ucb-mix", true),
            ("exp3", true),
            ("rm", true),
        ] {
            let settings = ["iters=2000".to_string(), format!("sm={sm}")];
            let mut m = MctsAgent::new(Params::from_settings(&settings, "test").unwrap());
            let share = dominant_share(&m.search(&view, &mut test_rng(3)));
            assert_eq!(share >= 0.9, found, "sm={sm}: {share:.3}");
            if !found {
                assert!(share < 0.6, "sm={sm}: {share:.3}");
            }
        }
    }

    /// Random tie-breaking chooses each tied action about equally often; first-action ties
    /// always choose the first.
    #[test]
    fn random_ties_are_uniform() {
        let state = goofspiel_two_cards();
        let mut search: UctSearch<goofspiel::State> = UctSearch::new(
            0.7,
            false,
            Rollout::new(Policy::Random, 0.1, 0, 0),
            Sm::UcbTies,
            0.1,
        );
        state.legal_actions(0, &mut search.legal);
        let mut idx = Vec::new();
        search.arena.sync_edges(0, 0, &search.legal, &mut idx);
        for &e in &idx {
            let s = &mut search.arena.edges[e as usize].stats;
            s.visits = 4;
            s.reward = 2.0;
        }
        let mut rng = test_rng(9);
        let mut counts = [0u32; 2];
        for _ in 0..2000 {
            let e = search.select(0, 0, true, None, &mut rng);
            counts[e as usize] += 1;
            assert_eq!(search.select(0, 0, false, None, &mut rng), idx[0]);
        }
        assert!(counts[0] > 850 && counts[1] > 850, "{counts:?}");
    }

    /// The halving schedule on arms with known means: 400 pulls over 4 arms are two rounds,
    /// 50 pulls each, then 100 each for the better two; further pulls go to the best arm.
    #[test]
    fn halving_follows_its_schedule() {
        let means = [0.1, 0.9, 0.5, 0.7];
        let mut h = Halving::default();
        h.start(&[0, 1, 2, 3], 400, false);
        let mut counts = [0u32; 4];
        for _ in 0..400 {
            counts[h.next(|a| means[a as usize]) as usize] += 1;
        }
        assert_eq!(counts, [50, 150, 50, 150]);
        assert_eq!(h.next(|a| means[a as usize]), 1, "the best arm is left");
        assert_eq!(h.alive(), &[1]);
    }

    /// Known answer on a constructed bandit: 8 Bernoulli arms (best 0.6, next 0.55), 4,000
    /// pulls. Sequential Halving names the best arm (the most pulled, ties by mean) in at
    /// least 90% of 200 runs and gives it at least a quarter of the pulls on average;
    /// uniform allocation would give it an eighth (and name it about 80% of the time).
    /// Anytime (time budget): once the 8 planned pulls are spent, the halving starts again
    /// over every arm with 16 pulls (two rounds of 2 pulls each over 4 arms, then 4 each
    /// for the better two), instead of pulling the winner only.
    #[test]
    fn anytime_halving_restarts_with_twice_the_budget() {
        let means = [0.1, 0.9, 0.5, 0.7];
        let mut h = Halving::default();
        h.start(&[0, 1, 2, 3], 8, true);
        let mut counts = [0u32; 4];
        for _ in 0..8 {
            counts[h.next(|a| means[a as usize]) as usize] += 1;
        }
        assert_eq!(counts, [1, 3, 1, 3]);
        for _ in 0..16 {
            counts[h.next(|a| means[a as usize]) as usize] += 1;
        }
        assert_eq!(counts, [3, 9, 3, 9]);
        assert_eq!(h.alive(), &[1, 3]);
    }

    #[test]
    fn halving_finds_the_best_arm_of_a_bandit() {
        let means = [0.3, 0.45, 0.5, 0.55, 0.6, 0.4, 0.35, 0.5];
        let arms: Vec<u32> = (0..8).collect();
        let mut rng = test_rng(17);
        let (mut right, mut best_pulls) = (0, 0u64);
        let mut h = Halving::default();
        for _ in 0..200 {
            h.start(&arms, 4000, false);
            let mut pulls = [0.0f64; 8];
            let mut wins = [0.0f64; 8];
            for _ in 0..4000 {
                let a = h.next(|a| {
                    let a = a as usize;
                    if pulls[a] > 0.0 {
                        wins[a] / pulls[a]
                    } else {
                        f64::NEG_INFINITY
                    }
                }) as usize;
                pulls[a] += 1.0;
                wins[a] += f64::from(u8::from(rng.random::<f64>() < means[a]));
            }
            right += usize::from(final_choice(Final::Visits, &pulls, &wins) == 4);
            best_pulls += pulls[4] as u64;
        }
        assert!(right >= 180, "best arm named in {right} of 200 runs");
        assert!(
            best_pulls >= 200 * 1000,
            "{best_pulls} pulls of the best arm"
        );
    }

    /// Race after the first (simultaneous) ply: seat 0 leads and chooses a bonus of 0 or 1.
    fn race_bonus_node(seed: u64) -> crate::games::race::Race {
        use crate::games::race::{Action, Race};
        let mut rng = test_rng(seed);
        let mut state = Race::new_game(crate::game::default_rules::<Race>(), &mut rng);
        let mut joint = [None; MAX_PLAYERS];
        joint[0] = Some(Action(1));
        joint[1] = Some(Action(1));
        state.apply_joint_unchecked(&joint, &mut rng);
        assert_eq!(state.turn(), Turn::Player(0));
        state
    }

    /// Progressive bias tries untried actions in order of their value estimate: with one
    /// iteration at Race's bonus node, `bias=1` always visits bonus 1 (the higher
    /// position), at every seed; without the bias (removed: untried actions uniformly at
    /// random) some seeds visit bonus 0.
    #[test]
    fn progressive_bias_tries_the_best_estimate_first() {
        let mut without = 0;
        for seed in 0..16 {
            let state = race_bonus_node(seed);
            let view = View::new(&state, 0);
            let mut m = MctsAgent::new(Params::from_settings(&["iters=1", "bias=1"], "t").unwrap());
            let t = m.search(&view, &mut test_rng(seed));
            assert_eq!((t[0].1, t[1].1), (0.0, 1.0), "seed {seed}: {t:?}");
            let mut m = MctsAgent::new(Params::from_settings(&["iters=1"], "t").unwrap());
            without += m.search(&view, &mut test_rng(seed))[1].1 as u32;
        }
        assert!(without < 16, "uniform choice took bonus 1 at every seed");
    }

    /// The bias term: two edges with equal visits and rewards, the second with the higher
    /// value estimate; UCB1 with `bias > 0` picks it (every time), without the bias term
    /// the first (exact ties to the first action).
    #[test]
    fn progressive_bias_adds_to_ucb() {
        let state = race_bonus_node(1);
        for (bias, pick) in [(1.0, 1), (0.0, 0)] {
            let mut search: UctSearch<crate::games::race::Race> = UctSearch::new(
                0.7,
                false,
                Rollout::new(Policy::Random, 0.1, 0, 0),
                Sm::Ucb,
                0.1,
            )
            .with_bias(bias);
            state.legal_actions(0, &mut search.legal);
            let mut idx = Vec::new();
            search.arena.sync_edges(0, 0, &search.legal, &mut idx);
            for (i, &e) in idx.iter().enumerate() {
                let s = &mut search.arena.edges[e as usize].stats;
                s.visits = 10;
                s.reward = 5.0;
                s.prior = 0.3 + 0.4 * i as f32;
            }
            let mut rng = test_rng(2);
            for _ in 0..10 {
                let e = search.select(0, 0, false, Some(&state), &mut rng);
                assert_eq!(e, idx[pick], "bias {bias}");
            }
        }
    }

    /// The search feeds MAST: after 200 iterations at Race's bonus node with
    /// `rollout=mast`, seat 0's table has its two bonus actions (ids 0 and 1) from the tree
    /// and its steps from the playouts, and the plays of each seat add up to its actions
    /// in the iterations (removing the search's `learn` call leaves the table empty).
    #[test]
    fn the_search_teaches_mast() {
        let state = race_bonus_node(3);
        let view = View::new(&state, 0);
        let mut m =
            MctsAgent::new(Params::from_settings(&["iters=200", "rollout=mast"], "t").unwrap());
        m.search(&view, &mut test_rng(3));
        let r = &m.search.rollout;
        let plays = |seat, id| r.mast_cell(seat, id).1;
        assert!(plays(0, 0) > 0 && plays(0, 1) > 0, "the root's bonuses");
        assert!(
            plays(0, 3) > 0 && plays(1, 3) > 0,
            "steps of 3 in the playouts"
        );
        let (sum, n) = r.mast_cell(0, 1);
        assert!(sum <= f64::from(n) && sum >= 0.0, "a mean of win shares");
    }

    /// Subtree reuse: in Race seat 0 chooses its bonus (ply 1) and then its step (ply 2).
    /// With `reuse=true` (open and closed loop, `mcts` and `ismcts`) the second search
    /// starts from the subtree of the bonus played: nodes are kept and the root visits
    /// exceed the 300 new iterations; without it (or with the mechanism removed) the tree
    /// starts empty and the visits are exactly 300. A new game drops the kept tree.
    #[test]
    fn subtree_reuse_keeps_the_subtree_of_the_move_played() {
        use crate::agents::Agent;
        use crate::games::race::Race;
        trait Kept: Agent<Race> {
            fn root_visits(&self) -> f64;
        }
        impl Kept for MctsAgent<Race> {
            fn root_visits(&self) -> f64 {
                self.root.visits.iter().sum()
            }
        }
        impl Kept for IsmctsAgent<Race> {
            fn root_visits(&self) -> f64 {
                self.root_visits_for_tests()
            }
        }
        // Two decisions of seat 0 in a row; with `new_game`, a new game starts between
        // them. Returns the root visits of the second search.
        let run = |agent: &mut dyn Kept, new_game: bool| -> f64 {
            let mut state = race_bonus_node(4);
            let mut rng = test_rng(4);
            let a = agent.act(&View::new(&state, 0), &mut rng);
            state.apply_unchecked(0, a, &mut rng);
            assert!(matches!(state.turn(), Turn::Simultaneous(_)));
            let view = View::new(&state, 0);
            if new_game {
                agent.start_game(&crate::game::GameStart {
                    seat: 0,
                    index: 1,
                    rules: view.rules(),
                });
            }
            agent.act(&view, &mut rng);
            agent.root_visits()
        };
        for kind in ["mcts", "ismcts"] {
            for (reuse, chance) in [(true, "open"), (true, "closed"), (false, "open")] {
                let settings = [
                    "iters=300".to_string(),
                    format!("reuse={reuse}"),
                    format!("chance={chance}"),
                ];
                let mut agent: Box<dyn Kept> = if kind == "mcts" {
                    Box::new(MctsAgent::new(
                        Params::from_settings(&settings, "t").unwrap(),
                    ))
                } else {
                    Box::new(IsmctsAgent::new(
                        ismcts::Params::from_settings(&settings, "t").unwrap(),
                    ))
                };
                let what = format!("{kind}, reuse={reuse}, chance={chance}");
                let visits = run(agent.as_mut(), false);
                if reuse {
                    assert!(visits > 300.0, "{what}: {visits}");
                } else {
                    assert_eq!(visits, 300.0, "{what}");
                }
                assert_eq!(
                    run(agent.as_mut(), true),
                    300.0,
                    "{what}: a new game, a new tree"
                );
            }
        }
    }

    #[test]
    fn ln_count_equals_ln() {
        for n in (0..LN_TABLE as u64 + 10).chain([1 << 20, u64::from(u32::MAX)]) {
            let (a, b) = (ln_count(n), (n as f64).ln());
            assert!(a == b || (a.is_nan() && b.is_nan()), "{n}: {a} vs {b}");
        }
    }
}
