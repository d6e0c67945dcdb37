//! `cfr`: simultaneous-move MCTS with regret matching (SM-MCTS-RM; Lanctot, Lisý &
//! Winands 2013, "Monte Carlo Tree Search in Simultaneous Move Games with Applications to
//! Goofspiel", CGW 2013, §3–4; convergence: Lisý, Kovařík, Lanctot & Bošanský 2013).
//!
//! Variant implemented:
//! - **Tree**: open loop over action sequences with chance sampled in `apply`
//!   ([`super::tree`]); one node added per iteration; playout from it
//!   ([`super::rollout`]) gives a reward vector in the units of `returns` (`[0, 1]^n`
//!   under the default win share, which the utility mapping below assumes).
//! - **Selection (regret matching with exploration)**: at a node, every acting seat `i`
//!   computes the regret-matching strategy over its currently legal actions,
//!   `σ_i(a) = R_i(a)^+ / Σ_b R_i(b)^+` (uniform when no regret is positive), mixes in
//!   exploration, `σ'_i(a) = (1 - γ) σ_i(a) + γ / |A_i|`, samples its action from `σ'_i`
//!   without seeing the others' choices, and adds `σ_i` to its cumulative (average)
//!   strategy at the node.
//! - **Update (sampling-corrected regrets)**: with `u_i` the utility of seat `i` backed up
//!   through the node and `a_i` its sampled action, the importance-weighted estimate
//!   `x_i(b) = u_i / σ'_i(a_i)` if `b = a_i`, else 0, updates the regret of every action
//!   legal at the node *in this iteration*: `R_i(b) += x_i(b) - u_i`. Chance drawn in
//!   `apply` changes the legal set at a node from one visit to the next, and an action the
//!   seat could not choose has no regret to record (updating it anyway would pile up
//!   `-u_i` from the visits where it was absent; tests/integration/search.rs, Detour). Utilities are per seat (the paper's two-player zero-sum form
//!   generalised to `n` seats with one reward each) and mapped from the playout reward
//!   `r_i ∈ [0, 1]` to `u_i = 2 r_i - 1 ∈ [-1, 1]`, the paper's win/loss utilities. The
//!   estimate is unbiased for any shift of the utilities, but with `[0, 1]` a loss leaves
//!   every regret unchanged; on Daxu the `[-1, 1]` form raised cfr (final=max, 1000
//!   iterations) from 0.25 to 0.48 against mcts with the same budget (400 games).
//! - **Turn-based nodes** are treated as simultaneous nodes with one actor: the acting seat
//!   runs the same regret matching over its actions (a bandit; this is what lets the agent
//!   enter any tournament, e.g. Daxu's tie-break choices, and converges like the
//!   simultaneous case with the other sets of actions being singletons).
//! - **Hidden information: PIMC.** The agent only holds a [`View`]; it searches `worlds`
//!   determinizations ([`View::determinize`]), each with its own tree and
//!   `iters / worlds` iterations, and sums the root average strategies (each normalised).
//! - **Final move**: `final=max` (default) plays the most probable move of the summed
//!   root average strategy; `final=sample` samples the move from it (the paper's way of
//!   playing, needed to stay unexploitable in games that call for mixing). At small budgets
//!   the average strategy is still diluted by the early, near-uniform visits, so `max` wins
//!   more head-to-head (Daxu, against mcts with equal budgets: sample 0.23 and max 0.48 at
//!   1000 iterations, 400 games; sample 0.30 and max 0.56 at 10000, 100 games).
//! - **Linear averaging** (`average=linear`, default) weighs the strategy of iteration t by
//!   t in the average (Brown & Sandholm 2019), so the near-uniform first visits fade;
//!   `average=uniform` counts every visit once. **Regret matching+** (`regret=plus`, off)
//!   floors every regret at 0 after each update (Tammelin 2014); `turns=ucb` (off) selects
//!   by UCB1 (constant `c`) at turn-based nodes. Against `mcts` at 1,000 iterations
//!   (`results/agents-cfr`, 400 paired games): `final=max,average=linear` beats the former
//!   default (`final=sample,average=uniform`) by 27 points on Goofspiel(13) and 50 on Daxu,
//!   and with `gamma=0.2` scores 0.472 [0.424, 0.521] against `mcts` on Goofspiel(13);
//!   `regret=plus` and `turns=ucb` do not pay. Head to head at 1,000 iterations the new
//!   default beats the former one 0.745 [0.680, 0.800] on Dunhuang 2p (200 paired games,
//!   `results/agents-cfr-default`), 0.630 [0.582, 0.676] on Goofspiel(13) and 0.750
//!   [0.705, 0.790] on Daxu (400 games each).
//! - **Recorded specs keep their meaning.** Until 2026-11 the defaults were
//!   `final=sample,average=uniform`. `final` has always been written in canonical specs;
//!   `average` is written only when `linear` (`uniform` is left out, as it always was), and a
//!   spec that names every other always-written key but not `average` — a canonical spec a
//!   program recorded — means `average=uniform` ([`pin_recorded_average`]). The presets
//!   `cfr-fast` and `cfr-strong` pin `average = "uniform"`. So `cfr` and
//!   `cfr:iters=1000` typed today get the new defaults, while every committed canonical spec
//!   and preset plays and canonicalizes exactly as recorded.
//! - **Budget** `iters`, or `time_ms` when non-zero (not reproducible). More iterations
//!   play better at the defaults (10,000 against 2,000 iterations, `sim tournament --seed
//!   11 --threads 1`, balanced seats): Daxu, 600 games: win rate 0.627, 95% CI [0.587,
//!   0.664]; Goofspiel(13), 1,000 games: 560 wins, 15 draws, 425 losses (0.560 [0.529,
//!   0.591]).
//!
//! Not handled: Online Outcome Sampling (the paper's other algorithm), averaging over
//! information sets across determinizations (each world is searched as if fully seen).

use rand::RngExt;

use super::mcts::{check_common, for_each_world, invalid, run_budget};
use super::rollout::{Policy, Rollout};
use super::tree::{Arena, NONE, joint_key};
use super::{Agent, canonical_spec};
use crate::game::{JointAction, MAX_PLAYERS, Playable, Turn, View};
use crate::params::{ParamError, ParamValue, Syntax};
use crate::rng::SimRng;

/// One line for `sim list`.
pub const DESCRIPTION: &str = "simultaneous-move MCTS with regret matching (Lanctot, Lisy & Winands 2013); average strategy at the root; PIMC over `worlds`";

crate::param_enum! {
    /// How the move is chosen from the root average strategy.
    pub enum Final {
        /// Sample from the average strategy.
        Sample = "sample",
        /// Play the most probable action of the average strategy.
        Max = "max",
    }
}

crate::param_enum! {
    /// How sampled regrets accumulate.
    pub enum Regret {
        /// Plain regret matching: regrets sum without bound (Hart & Mas-Colell 2000).
        Rm = "rm",
        /// Regret matching+ (Tammelin 2014): a regret is floored at 0 after every update,
        /// so an action that turns good is played again at once instead of first paying
        /// back its accumulated negative regret.
        Plus = "plus",
    }
}

/// How the average strategy weighs the visits of a node.
///
/// Written out by hand rather than with `param_enum!` for one reason: `uniform`, the
/// default until `linear` replaced it, is the value a canonical spec leaves out
/// ([`ParamValue::hidden_at_default`] is true for it, not for the default). Canonical specs
/// written before the change omit `average` and meant `uniform`; they keep their exact
/// text and, through [`pin_recorded_average`], their meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Average {
    /// Every visit counts once (the default before `linear`; left out of canonical specs).
    Uniform,
    /// The visit in iteration t counts t (linear averaging; Brown & Sandholm 2019), so
    /// the near-uniform strategies of the first visits fade from the average.
    Linear,
}

impl ParamValue for Average {
    const SYNTAX: Syntax = Syntax::of_words(&["uniform", "linear"]);

    fn parse_param(s: &str) -> Result<Self, String> {
        match s.trim() {
            "uniform" => Ok(Average::Uniform),
            "linear" => Ok(Average::Linear),
            _ => Err(format!("one of {}", Self::type_name())),
        }
    }
    fn format_param(&self) -> String {
        match self {
            Average::Uniform => "uniform",
            Average::Linear => "linear",
        }
        .to_string()
    }
    fn type_name() -> String {
        "uniform|linear".into()
    }
    /// `uniform` is left out of canonical specs (the former default: committed specs
    /// omit it), `linear` always written.
    fn hidden_at_default(&self) -> bool {
        *self == Average::Uniform
    }
}

impl std::fmt::Display for Average {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format_param())
    }
}

/// The keys every canonical `cfr` spec has spelled out since the agent existed (the
/// parameters not elided at their default). A spec that names all of them is a canonical
/// spec a program wrote, not one a person typed.
pub const RECORDED_KEYS: [&str; 9] = [
    "iters", "time_ms", "gamma", "rollout", "epsilon", "depth", "rounds", "final", "worlds",
];

/// Keeps recorded `cfr` specs meaning what they meant when they were written: when
/// `settings` (a spec's own `key=value` settings, after any preset's) name every key of
/// the canonical form ([`RECORDED_KEYS`]) but not `average`, the spec is a canonical one
/// written either before `average=linear` became the default or for `average=uniform`
/// (which canonical specs leave out), so `average=uniform` is put first. A spec a person
/// types (`cfr`, `cfr:iters=1000`) names fewer keys and gets the default, `linear`.
pub fn pin_recorded_average(settings: &mut Vec<String>) {
    let key = |s: &String| s.split_once('=').map(|(k, _)| k.trim().to_string());
    let keys: Vec<String> = settings.iter().filter_map(key).collect();
    let complete = RECORDED_KEYS.iter().all(|k| keys.iter().any(|x| x == k));
    if complete && !keys.iter().any(|k| k == "average") {
        settings.insert(0, "average=uniform".to_string());
    }
}

crate::param_enum! {
    /// The rule at turn-based nodes (one seat acts).
    pub enum Turns {
        /// Regret matching, as at simultaneous nodes (a bandit with one player).
        Rm = "rm",
        /// UCB1 on the mean reward, as `mcts` (untried actions first, uniformly at
        /// random; `mean + c*sqrt(ln N / n)`): there is no opponent to mix against, and a
        /// bandit's cumulative regret is what UCB1 minimises. The average strategy of such
        /// a node is its visit shares.
        Ucb = "ucb",
    }
}

crate::param_set! {
    /// Settings of the `cfr` agent.
    pub struct Params {
        /// Iterations per decision, split over `worlds` (used when time_ms = 0); >= 1.
        pub iters: u32 = 2000,
        /// Wall time per decision in milliseconds; 0 = use iters. Not reproducible.
        pub time_ms: u64 = 0,
        /// Exploration gamma mixed into regret matching: (1-gamma)*sigma + gamma/|A|; in (0, 1].
        pub gamma: f64 = 0.1,
        /// Playout policy: random, greedy (epsilon-greedy one-step lookahead) or mast (epsilon-greedy on each action's mean reward).
        pub rollout: Policy = Policy::Random,
        /// Probability of a random move in a greedy or mast playout, in [0, 1].
        pub epsilon: f64 = 0.1,
        /// Playout cut-off in plies, scored by the game's value estimate; 0 = play to the end.
        pub depth: u32 = 0,
        /// Playout cut-off in rounds: stop once this many rounds have ended since the playout began (1 = at the end of the current round), scored by the value estimate; 0 = none.
        pub rounds: u32 = 0,
        /// Final move: max (the most probable move of the average strategy; the default since 2026-11) or sample (drawn from it; the former default).
        pub r#final: Final = Final::Max,
        /// Determinizations searched (PIMC), each with its own tree; >= 1.
        pub worlds: u32 = 1,
        /// Regret accumulation: rm (plain) or plus (regret matching+, regrets floored at 0).
        pub regret: Regret = Regret::Rm,
        /// Average strategy: linear (iteration t weighs t; the default since 2026-11) or uniform (every visit once; the former default, left out of canonical specs: a recorded canonical spec without average means uniform).
        pub average: Average = Average::Linear,
        /// Rule at turn-based nodes: rm (regret matching) or ucb (UCB1; visit shares as the strategy).
        pub turns: Turns = Turns::Rm,
        /// UCB1 exploration constant at turn-based nodes with turns=ucb; >= 0.
        pub c: f64 = 0.7,
    }
    validate = validate;
    elide_at_default = [regret, turns, c];
}

/// Checks the ranges that the parameter types cannot express (run by
/// [`ParamSet::from_settings`](crate::params::ParamSet::from_settings)).
///
/// # Errors
/// [`ParamError::Invalid`] naming the bad parameter.
pub fn validate(p: &Params, owner: &str) -> Result<(), ParamError> {
    check_common(owner, p.iters, 0.0, p.epsilon)?;
    if !(p.gamma > 0.0 && p.gamma <= 1.0) {
        return Err(invalid(owner, "gamma must be in (0, 1]"));
    }
    if p.worlds == 0 {
        return Err(invalid(owner, "worlds must be >= 1"));
    }
    if !(p.c.is_finite() && p.c >= 0.0) {
        return Err(invalid(owner, "c must be >= 0"));
    }
    Ok(())
}

/// Regret-matching edge statistics. At a turn-based node under `turns=ucb` the same two
/// fields hold UCB1's statistics: `regret` the summed reward, `strategy` the visits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RmStats {
    /// Cumulative (sampled) regret `R_i(a)` (`turns=ucb`, turn-based node: summed reward).
    pub regret: f64,
    /// Cumulative strategy: the sum of `σ_i(a)` over the node's visits (`turns=ucb`,
    /// turn-based node: the visit count).
    pub strategy: f64,
    /// The last iteration in which the action was legal at its node.
    pub stamp: u32,
}

#[derive(Clone, Copy, Debug)]
struct Step {
    node: u32,
    edge: u32,
    seat: u8,
    /// Chosen by UCB1 (`turns=ucb` at a turn-based node): the update adds the reward and a
    /// visit to the chosen edge only.
    ucb: bool,
    prob: f64,
}

/// The SM-MCTS-RM search core: one arena, reused buffers.
#[derive(Debug, Clone)]
struct SmSearch<G: Playable> {
    arena: Arena<G::Action, RmStats>,
    legal: Vec<G::Action>,
    idx: Vec<u32>,
    probs: Vec<f64>,
    path: Vec<Step>,
    rollout: Rollout<G>,
    gamma: f64,
    iteration: u32,
    /// Regret matching+ ([`Regret::Plus`]).
    plus: bool,
    /// Linear averaging ([`Average::Linear`]).
    linear: bool,
    /// UCB1 at turn-based nodes ([`Turns::Ucb`]) with this exploration constant.
    ucb: Option<f64>,
}

impl<G: Playable> SmSearch<G> {
    fn reset(&mut self, iters: u32) {
        self.arena.reset();
        self.arena
            .nodes
            .reserve((iters as usize + 1).min(super::tree::MAX_NODES));
        self.iteration = 0;
        self.rollout.begin_search();
    }

    /// Regret matching with exploration for `seat` at `node` over `self.legal`: returns the
    /// sampled edge and its sampling probability `σ'(a)`.
    fn select(&mut self, node: u32, seat: usize, rng: &mut SimRng) -> (u32, f64) {
        self.arena
            .sync_edges(node, seat, &self.legal, &mut self.idx);
        let edges = &mut self.arena.edges;
        let k = self.idx.len() as f64;
        let positive: f64 = self
            .idx
            .iter()
            .map(|&e| edges[e as usize].stats.regret.max(0.0))
            .sum();
        self.probs.clear();
        let weight = if self.linear {
            f64::from(self.iteration)
        } else {
            1.0
        };
        for &e in &self.idx {
            let s = &mut edges[e as usize].stats;
            let sigma = if positive > 0.0 {
                s.regret.max(0.0) / positive
            } else {
                1.0 / k
            };
            s.strategy += sigma * weight;
            s.stamp = self.iteration;
            self.probs.push((1.0 - self.gamma) * sigma + self.gamma / k);
        }
        let mut x = rng.random::<f64>() * self.probs.iter().sum::<f64>();
        let last = self.idx.len() - 1;
        for (i, &p) in self.probs.iter().enumerate() {
            if x < p || i == last {
                return (self.idx[i], p);
            }
            x -= p;
        }
        unreachable!()
    }

    /// UCB1 for `seat` at the turn-based `node` over `self.legal` (`turns=ucb`): an untried
    /// action uniformly at random, else the best `mean + c*sqrt(ln N / n)` (ties: first).
    fn select_ucb(&mut self, node: u32, seat: usize, c: f64, rng: &mut SimRng) -> u32 {
        self.arena
            .sync_edges(node, seat, &self.legal, &mut self.idx);
        let edges = &self.arena.edges;
        let visits = |e: u32| edges[e as usize].stats.strategy;
        let untried = self.idx.iter().filter(|&&e| visits(e) == 0.0).count();
        if untried > 0 {
            let k = rng.random_range(0..untried);
            return *self
                .idx
                .iter()
                .filter(|&&e| visits(e) == 0.0)
                .nth(k)
                .expect("k < untried");
        }
        let total: f64 = self.idx.iter().map(|&e| visits(e)).sum();
        let ln = super::mcts::ln_count(total as u64);
        let mut best = (self.idx[0], f64::NEG_INFINITY);
        for &e in &self.idx {
            let s = edges[e as usize].stats;
            let score = s.regret / s.strategy + c * (ln / s.strategy).sqrt();
            if score > best.1 {
                best = (e, score);
            }
        }
        best.0
    }

    fn iterate(&mut self, mut state: G, rng: &mut SimRng) {
        self.iteration += 1;
        self.path.clear();
        let mut node = 0u32;
        let rewards = loop {
            match state.turn() {
                Turn::Terminal => break state.returns(),
                Turn::Player(p) => {
                    state.legal_actions(p, &mut self.legal);
                    let (e, prob, ucb) = match self.ucb {
                        None => {
                            let (e, prob) = self.select(node, p, rng);
                            (e, prob, false)
                        }
                        Some(c) => (self.select_ucb(node, p, c, rng), 1.0, true),
                    };
                    self.path.push(Step {
                        node,
                        edge: e,
                        seat: p as u8,
                        ucb,
                        prob,
                    });
                    let edge = self.arena.edges[e as usize];
                    self.rollout.note(p, edge.action);
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
                        let (e, prob) = self.select(node, p, rng);
                        self.path.push(Step {
                            node,
                            edge: e,
                            seat: p as u8,
                            ucb: false,
                            prob,
                        });
                        let action = self.arena.edges[e as usize].action;
                        self.rollout.note(p, action);
                        joint[p] = Some(action);
                    }
                    let key = joint_key::<G>(&joint);
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
        self.rollout.learn(&rewards);
        for step in &self.path {
            if step.ucb {
                let s = &mut self.arena.edges[step.edge as usize].stats;
                s.regret += rewards[step.seat as usize];
                s.strategy += 1.0;
                continue;
            }
            let u = 2.0 * rewards[step.seat as usize] - 1.0;
            let x = u / step.prob;
            let mut e = self.arena.nodes[step.node as usize].first[step.seat as usize];
            while e != NONE {
                let edge = &mut self.arena.edges[e as usize];
                if edge.stats.stamp == self.iteration {
                    let estimate = if e == step.edge { x } else { 0.0 };
                    edge.stats.regret += estimate - u;
                    if self.plus {
                        edge.stats.regret = edge.stats.regret.max(0.0);
                    }
                }
                e = edge.next;
            }
        }
    }

    /// Adds the normalised root average strategy of `seat` over `actions` (sorted) to `out`.
    fn add_root_strategy(&mut self, seat: usize, actions: &[G::Action], out: &mut [f64]) {
        self.arena.sync_edges(0, seat, actions, &mut self.idx);
        let total: f64 = self
            .idx
            .iter()
            .map(|&e| self.arena.edges[e as usize].stats.strategy)
            .sum();
        for (i, &e) in self.idx.iter().enumerate() {
            out[i] += if total > 0.0 {
                self.arena.edges[e as usize].stats.strategy / total
            } else {
                1.0 / actions.len() as f64
            };
        }
    }
}

/// The `cfr` agent (see the module docs). Its arena and buffers are reused between
/// decisions; a warmed-up agent allocates nothing per iteration.
#[derive(Debug, Clone)]
pub struct SmMctsAgent<G: Playable> {
    params: Params,
    search: SmSearch<G>,
    mine: Vec<G::Action>,
    strategy: Vec<f64>,
}

impl<G: Playable> SmMctsAgent<G> {
    /// An agent with these settings (see [`validate`]; out-of-range values are clamped).
    pub fn new(mut params: Params) -> Self {
        params.iters = params.iters.max(1);
        params.worlds = params.worlds.max(1);
        params.epsilon = params.epsilon.clamp(0.0, 1.0);
        if !(params.gamma > 0.0 && params.gamma <= 1.0) {
            params.gamma = params.gamma.clamp(1e-6, 1.0);
        }
        let mut arena = Arena::default();
        arena.reset();
        SmMctsAgent {
            search: SmSearch {
                arena,
                legal: Vec::new(),
                idx: Vec::new(),
                probs: Vec::new(),
                path: Vec::new(),
                rollout: Rollout::new(params.rollout, params.epsilon, params.depth, params.rounds),
                gamma: params.gamma,
                iteration: 0,
                plus: params.regret == Regret::Plus,
                linear: params.average == Average::Linear,
                ucb: (params.turns == Turns::Ucb).then_some(params.c.max(0.0)),
            },
            params,
            mine: Vec::new(),
            strategy: Vec::new(),
        }
    }

    /// Bytes used by the search tree of the last world searched (lengths, not capacity).
    pub fn arena_bytes(&self) -> usize {
        self.search.arena.bytes_used()
    }

    /// Runs the search for the view's seat and returns its root average strategy: each
    /// legal action (sorted) with its probability (summing to 1).
    pub fn average_strategy(
        &mut self,
        view: &View<'_, G>,
        rng: &mut SimRng,
    ) -> Vec<(G::Action, f64)> {
        self.run(view, rng);
        self.mine
            .iter()
            .copied()
            .zip(self.strategy.iter().copied())
            .collect()
    }

    fn run(&mut self, view: &View<'_, G>, rng: &mut SimRng) {
        let seat = view.seat();
        view.legal_actions(&mut self.mine);
        assert!(
            !self.mine.is_empty(),
            "cfr asked to act with no legal action"
        );
        self.strategy.clear();
        self.strategy.resize(self.mine.len(), 0.0);
        let p = &self.params;
        let (search, mine, strategy) = (&mut self.search, &self.mine, &mut self.strategy);
        for_each_world(p.iters, p.worlds, p.time_ms, |_, iters, end| {
            let world = view.determinize(rng);
            search.reset(iters);
            run_budget(iters, end, || search.iterate(world.clone(), rng));
            search.add_root_strategy(seat, mine, strategy);
        });
        let total: f64 = self.strategy.iter().sum();
        for p in &mut self.strategy {
            *p /= total;
        }
    }
}

impl<G: Playable> Agent<G> for SmMctsAgent<G> {
    fn spec(&self) -> String {
        canonical_spec("cfr", &self.params)
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        view.legal_actions(&mut self.mine);
        assert!(
            !self.mine.is_empty(),
            "cfr asked to act with no legal action"
        );
        if self.mine.len() == 1 {
            return self.mine[0];
        }
        self.run(view, rng);
        let chosen = match self.params.r#final {
            Final::Max => {
                let mut best = 0;
                for i in 1..self.strategy.len() {
                    if self.strategy[i] > self.strategy[best] {
                        best = i;
                    }
                }
                best
            }
            Final::Sample => {
                let mut x = rng.random::<f64>();
                let last = self.strategy.len() - 1;
                let mut chosen = last;
                for (i, &p) in self.strategy.iter().enumerate() {
                    if x < p {
                        chosen = i;
                        break;
                    }
                    x -= p;
                }
                chosen
            }
        };
        self.mine[chosen]
    }

    /// The root average strategy (summed over worlds, normalised) as probabilities.
    fn analyze(
        &mut self,
        view: &View<'_, G>,
        rng: &mut SimRng,
    ) -> Option<Vec<super::ActionStat<G::Action>>> {
        let strategy = self.average_strategy(view, rng);
        Some(
            strategy
                .into_iter()
                .map(|(action, p)| super::ActionStat {
                    probability: Some(p),
                    ..super::ActionStat::new(action)
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::goofspiel;
    use crate::params::ParamSet;
    use crate::rng::test_rng;

    /// Goofspiel with two cards in descending order, first (simultaneous) decision: bid 2
    /// (the second legal action) dominates bid 1 (the fixture of `mcts`'s tests).
    use crate::agents::mcts::tests::goofspiel_two_cards;

    fn agent(settings: &[&str]) -> SmMctsAgent<goofspiel::State> {
        SmMctsAgent::new(Params::from_settings(settings, "test").unwrap())
    }

    /// Regret matching+ floors every regret at 0 (plain regret matching leaves the
    /// dominated bid's regret negative).
    #[test]
    fn regret_matching_plus_keeps_regrets_non_negative() {
        let state = goofspiel_two_cards();
        let view = View::new(&state, 0);
        let min_regret = |settings: &[&str]| {
            let mut a = agent(settings);
            a.average_strategy(&view, &mut test_rng(3));
            a.search
                .arena
                .edges
                .iter()
                .map(|e| e.stats.regret)
                .fold(f64::INFINITY, f64::min)
        };
        assert!(min_regret(&["iters=200"]) < 0.0);
        assert!(min_regret(&["iters=200", "regret=plus"]) >= 0.0);
    }

    /// `turns=ucb`: at a turn-based root (Kuhn poker, seat 0 holding the Jack) the edges
    /// hold UCB1's statistics: whole visit counts summing to the iterations, every action
    /// tried, means in [0, 1]. Regret matching there leaves fractional strategy sums and
    /// negative regrets.
    #[test]
    fn ucb_at_turn_based_nodes_keeps_visit_counts() {
        use crate::games::kuhn;
        let state = kuhn::State::from_deal([0, 2]);
        let view = View::new(&state, 0);
        let root_edges = |settings: &[&str]| {
            let mut a =
                SmMctsAgent::<kuhn::State>::new(Params::from_settings(settings, "t").unwrap());
            a.average_strategy(&view, &mut test_rng(4));
            let mut idx = Vec::new();
            let mine = a.mine.clone();
            a.search.arena.sync_edges(0, 0, &mine, &mut idx);
            idx.iter()
                .map(|&e| a.search.arena.edges[e as usize].stats)
                .collect::<Vec<_>>()
        };
        let ucb = root_edges(&["iters=400", "turns=ucb"]);
        let total: f64 = ucb.iter().map(|s| s.strategy).sum();
        assert_eq!(total, 400.0);
        for s in &ucb {
            assert!(s.strategy >= 1.0 && s.strategy.fract() == 0.0, "{s:?}");
            assert!((0.0..=1.0).contains(&(s.regret / s.strategy)), "{s:?}");
        }
        let rm = root_edges(&["iters=400"]);
        assert!(
            rm.iter()
                .any(|s| s.strategy.fract() != 0.0 || s.regret < 0.0)
        );
    }

    /// Linear averaging lets the first, near-uniform visits fade: at a small budget the
    /// average strategy puts more on the dominant bid than the uniform average does, at
    /// every seed tried (same samples: the weights change only the average).
    #[test]
    fn linear_averaging_fades_the_first_visits() {
        let state = goofspiel_two_cards();
        let view = View::new(&state, 0);
        for seed in 0..5 {
            let share = |settings: &[&str]| {
                agent(settings).average_strategy(&view, &mut test_rng(seed))[1].1
            };
            let (uniform, linear) = (
                share(&["iters=60", "average=uniform"]),
                share(&["iters=60", "average=linear"]),
            );
            assert!(linear > uniform, "seed {seed}: {linear} <= {uniform}");
        }
    }
}
