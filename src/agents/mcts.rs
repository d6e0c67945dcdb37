//! `mcts`: UCT (Kocsis & Szepesvári 2006) with Perfect Information Monte Carlo
//! determinization and decoupled UCT at simultaneous nodes.
//!
//! Variant implemented:
//! - **Tree**: open loop over action sequences ([`super::tree`]); chance is sampled inside
//!   `apply` during each descent. One node is added per iteration (the first node off the
//!   tree), then a playout ([`super::rollout`]) gives a reward vector in the units of
//!   `returns` (`[0, 1]^n` under the default win share; `c` assumes that range, so a game
//!   played with `returns=margin` needs `c` scaled to its point spread).
//! - **Selection (UCB1)**: at a node, a seat first tries its untried legal actions (one of
//!   them uniformly at random), then picks the action maximising
//!   `mean_a + c * sqrt(ln N / n_a)`, where `n_a` is the action's visit count, `mean_a`
//!   its mean reward *for the seat that chooses it*, and `N` the sum of the visit counts of
//!   the seat's currently legal actions (the node's visit count when the legal set is
//!   fixed). Exact ties go to the first action in sorted order.
//! - **Multiplayer backup (max^n)**: each edge accumulates the reward of the seat that
//!   chose it, so every seat maximises its own reward.
//! - **Simultaneous nodes: decoupled UCT** (Lanctot, Lisý & Winands 2013; Tak, Lanctot &
//!   Winands 2014): every acting seat selects its own action with UCB1 on its own edge
//!   statistics at the node, without seeing the others' choices; the joint action leads to
//!   the child stored under its key.
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
//! - **Budget**: `iters` iterations per decision, or `time_ms` of wall time when non-zero.
//!   Time-based searches are **not reproducible** (the iteration count depends on the
//!   machine and its load); tournaments that must be rerun exactly use `iters`.
//!
//! Not handled: transpositions (the tree is a tree), progressive widening, RAVE, reuse of
//! the subtree from the previous decision (the arena is reused, its contents are not).

use std::time::{Duration, Instant};

use rand::RngExt;

use super::rollout::{Policy, Rollout};
use super::tree::{Arena, NONE};
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

crate::param_set! {
    /// Settings of the `mcts` agent.
    pub struct Params {
        /// Iterations per decision, split over `worlds` (used when time_ms = 0); >= 1.
        pub iters: u32 = 2000,
        /// Wall time per decision in milliseconds; 0 = use iters. Not reproducible.
        pub time_ms: u64 = 0,
        /// UCB1 exploration constant c in mean + c*sqrt(ln N / n); returns in [0, 1] (win share).
        pub c: f64 = 0.7,
        /// Playout policy: random or greedy (epsilon-greedy one-step lookahead).
        pub rollout: Policy = Policy::Random,
        /// Probability of a random move in a greedy playout, in [0, 1].
        pub epsilon: f64 = 0.1,
        /// Playout cut-off in plies, scored by the game's value estimate; 0 = play to the end.
        pub depth: u32 = 0,
        /// Playout cut-off in rounds: stop once this many rounds have ended since the playout began (1 = at the end of the current round), scored by the value estimate; 0 = none.
        pub rounds: u32 = 0,
        /// Determinizations searched (PIMC), each with its own tree; >= 1.
        pub worlds: u32 = 1,
        /// Final move: visits (most visited) or value (best mean).
        pub r#final: Final = Final::Visits,
    }
    validate = validate;
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
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UctStats {
    /// Times the edge was selected.
    pub visits: u32,
    /// Times the edge's action was legal when its node was visited (ISMCTS only).
    pub avail: u32,
    /// Sum of the rewards of the seat that chooses this edge.
    pub reward: f64,
}

/// The UCT search core shared by `mcts` and `ismcts`: one arena, reused buffers.
#[derive(Debug, Clone)]
pub(crate) struct UctSearch<G: Playable> {
    pub(crate) arena: Arena<G::Action, UctStats>,
    legal: Vec<G::Action>,
    idx: Vec<u32>,
    path: Vec<(u32, u8)>,
    rollout: Rollout<G>,
    c: f64,
    availability: bool,
}

impl<G: Playable> UctSearch<G> {
    /// A search with exploration `c`; `availability` switches UCB1 to the subset-armed
    /// bandit of ISMCTS (`N` = the edge's availability count).
    pub(crate) fn new(c: f64, availability: bool, rollout: Rollout<G>) -> Self {
        let mut arena = Arena::default();
        arena.reset();
        UctSearch {
            arena,
            legal: Vec::with_capacity(G::NUM_ACTION_IDS.min(256)),
            idx: Vec::new(),
            path: Vec::new(),
            rollout,
            c,
            availability,
        }
    }

    /// Empties the tree, keeping its memory, and reserves room for `iters` more nodes.
    pub(crate) fn reset(&mut self, iters: u32) {
        self.arena.reset();
        self.arena
            .nodes
            .reserve((iters as usize + 1).min(super::tree::MAX_NODES));
    }

    /// Chooses `seat`'s edge at `node` among the legal actions in `self.legal`.
    fn select(&mut self, node: u32, seat: usize, rng: &mut SimRng) -> u32 {
        self.arena
            .sync_edges(node, seat, &self.legal, &mut self.idx);
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
        for &e in &self.idx {
            let s = &edges[e as usize].stats;
            let n = f64::from(s.visits);
            if self.availability && s.avail != ln_of {
                ln_of = s.avail;
                ln_n = ln_count(u64::from(s.avail));
            }
            let ucb = s.reward / n + self.c * (ln_n / n).sqrt();
            if ucb > best {
                best = ucb;
                chosen = e;
            }
        }
        chosen
    }

    /// One iteration from `state` (consumed): selection, expansion of one node, playout,
    /// backup.
    pub(crate) fn iterate(&mut self, mut state: G, rng: &mut SimRng) {
        self.path.clear();
        let mut node = 0u32;
        let rewards = loop {
            match state.turn() {
                Turn::Terminal => break state.returns(),
                Turn::Player(p) => {
                    state.legal_actions(p, &mut self.legal);
                    let e = self.select(node, p, rng);
                    self.path.push((e, p as u8));
                    let edge = self.arena.edges[e as usize];
                    state.apply_unchecked(p, edge.action, rng);
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
                        state.legal_actions(p, &mut self.legal);
                        let e = self.select(node, p, rng);
                        self.path.push((e, p as u8));
                        joint[p] = Some(self.arena.edges[e as usize].action);
                    }
                    let key = super::tree::joint_key::<G>(&joint);
                    state.apply_joint_unchecked(&joint, rng);
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
        for &(e, p) in &self.path {
            let s = &mut self.arena.edges[e as usize].stats;
            s.visits += 1;
            s.reward += rewards[p as usize];
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
}

impl<G: Playable> MctsAgent<G> {
    /// An agent with these settings (see [`validate`]; out-of-range values are clamped).
    pub fn new(mut params: Params) -> Self {
        params.iters = params.iters.max(1);
        params.worlds = params.worlds.max(1);
        params.epsilon = params.epsilon.clamp(0.0, 1.0);
        let rollout = Rollout::new(params.rollout, params.epsilon, params.depth, params.rounds);
        MctsAgent {
            search: UctSearch::new(params.c.max(0.0), false, rollout),
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
        self.run(view, rng);
        self.root.table()
    }

    /// Searches after [`RootStats::start`].
    fn run(&mut self, view: &View<'_, G>, rng: &mut SimRng) {
        let seat = view.seat();
        let p = &self.params;
        let (search, root) = (&mut self.search, &mut self.root);
        let RootStats {
            mine,
            visits,
            rewards,
        } = root;
        for_each_world(p.iters, p.worlds, p.time_ms, |_, iters, end| {
            let world = view.determinize(rng);
            search.reset(iters);
            run_budget(iters, end, || search.iterate(world.clone(), rng));
            search.root_stats(seat, mine, visits, rewards);
        });
    }
}

impl<G: Playable> Agent<G> for MctsAgent<G> {
    fn spec(&self) -> String {
        canonical_spec("mcts", &self.params)
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        self.root.start(view, "mcts");
        if self.root.mine.len() == 1 {
            return self.root.mine[0];
        }
        self.run(view, rng);
        self.root.choose(self.params.r#final)
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
mod tests {
    use super::*;

    #[test]
    fn ln_count_equals_ln() {
        for n in (0..LN_TABLE as u64 + 10).chain([1 << 20, u64::from(u32::MAX)]) {
            let (a, b) = (ln_count(n), (n as f64).ln());
            assert!(a == b || (a.is_nan() && b.is_nan()), "{n}: {a} vs {b}");
        }
    }
}
