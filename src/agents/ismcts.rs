//! `ismcts`: Single-Observer Information Set MCTS (SO-ISMCTS; Cowling, Powley & Whitehouse
//! 2012, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), Algorithm 3).
//!
//! Variant implemented:
//! - **One determinization per iteration**: each iteration samples a state from the
//!   searching seat's information set ([`View::determinize`]) and descends the single
//!   tree with it. The agent only holds a [`View`], so it never reads the true hidden
//!   state.
//! - **Tree**: nodes are action sequences from the root (open loop; chance sampled inside
//!   `apply`), shared by all determinizations; edges are added when an action is first
//!   legal in some determinization ([`super::tree`]).
//! - **Selection: UCB with availability counts** (the subset-armed bandit of the paper): a
//!   seat first tries untried legal actions (uniformly at random), then maximises
//!   `mean_a + c * sqrt(ln m_a / n_a)`, where `m_a` counts the visits of the node in which
//!   action `a` was legal, and `n_a` the times it was chosen. With the node's visit count in
//!   place of `m_a`, an action legal in few determinizations would be over-explored
//!   (tests/integration/search.rs, Rare: 37 instead of about 21 tries of a poor rare move).
//! - **Multiplayer**: each edge accumulates the reward of the seat that chooses it (max^n).
//! - **Simultaneous nodes**: the other seats' pending choices are hidden information, so
//!   every acting seat selects with its own statistics without seeing the others' choices
//!   (decoupled selection; Lanctot, Lisý & Winands 2013); the joint action leads to its
//!   child. The rule is `sm`, as in `mcts` (default `ucb-mix`: UCB1 with random ties and
//!   a uniformly random action with probability `gamma`, so the seats' choices never move
//!   in lockstep; see [`super::mcts`]).
//! - **Weighted determinization** (`weights=greedy`, off by default): each iteration's
//!   world is drawn from a pool of `pool` determinizations weighted by the likelihood of the
//!   opponents' past actions under the greedy softmax ([`super::belief`]; Rebstock et al.
//!   2019); games that cannot replay a world's history (all but Kuhn poker and Dunhuang)
//!   play as `off`.
//! - **Playouts and cut-off** as [`super::rollout`]; **final move** as in `mcts`
//!   (`visits` or `value`); **budget** `iters`, or `time_ms` when non-zero (not
//!   reproducible).
//! - **More iterations play better at the defaults** (10,000 against 2,000 iterations,
//!   `sim tournament --seed 11 --threads 1`, balanced seats): Daxu, 600 games: win rate
//!   0.553, 95% CI [0.513, 0.593]; Goofspiel(13), 1,000 games: 592 wins, 74 draws, 334
//!   losses (0.592 [0.561, 0.622]).
//!
//! - **Observers** (`observers`): `single` (default) is the one tree above, in which every
//!   other seat's move is a tree edge, hidden or not, so the nodes below an opponent's
//!   hidden move (a Dunhuang keep or give) are split by what the searching seat cannot see;
//!   `multi` is Multiple-Observer ISMCTS ([`super::mo_ismcts`]): one tree per seat, each
//!   keyed by the moves as its seat sees them. On Dunhuang at 2,000 iterations `multi`
//!   against `single` wins 48.5% [44.5, 52.5] at 2 players (600 paired games) and, as one
//!   seat against three, 25.7% [21.7, 30.2] at 4 (408 games; fair share 25%): no
//!   difference detected, so `single` stays the default (`results/agents-mo-ismcts`).

use super::belief::{Belief, Weights, check_weights};
use super::mcts::{
    ChanceLoop, Final, Root, RootStats, Sm, UctSearch, check_bias, check_common, check_gamma,
    deadline, run_budget,
};
use super::mo_ismcts::MoSearch;
use super::rollout::{Policy, Rollout};
use super::tree::NONE;
use super::{Agent, canonical_spec};
use crate::game::{Playable, View};
use crate::params::ParamError;

crate::param_enum! {
    /// Whose information sets the tree is built on.
    pub enum Observers {
        /// SO-ISMCTS: one tree over action sequences; every move is an edge.
        Single = "single",
        /// MO-ISMCTS (Cowling, Powley & Whitehouse 2012): one tree per seat, a move that a
        /// seat does not see is one edge of its tree whatever it was.
        Multi = "multi",
    }
}
use crate::rng::SimRng;

/// One line for `sim list`.
pub const DESCRIPTION: &str = "single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one determinization per iteration, UCB with availability counts";

crate::param_set! {
    /// Settings of the `ismcts` agent.
    pub struct Params {
        /// Iterations (= determinizations) per decision (used when time_ms = 0); >= 1.
        pub iters: u32 = 2000,
        /// Wall time per decision in milliseconds; 0 = use iters. Not reproducible.
        pub time_ms: u64 = 0,
        /// Exploration constant c in mean + c*sqrt(ln m / n); returns in [0, 1] (win share).
        pub c: f64 = 0.7,
        /// Playout policy: random, greedy (epsilon-greedy one-step lookahead) or mast (epsilon-greedy on each action's mean reward).
        pub rollout: Policy = Policy::Random,
        /// Probability of a random move in a greedy or mast playout, in [0, 1].
        pub epsilon: f64 = 0.1,
        /// Playout cut-off in plies, scored by the game's value estimate; 0 = play to the end.
        pub depth: u32 = 0,
        /// Playout cut-off in rounds: stop once this many rounds have ended since the playout began (1 = at the end of the current round), scored by the value estimate; 0 = none.
        pub rounds: u32 = 0,
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
        /// Subtree reuse: when the same seat decides again right after its own move, search on from that move's subtree.
        pub reuse: bool = false,
        /// World weighting: off (uniform determinizations) or greedy (each iteration's world drawn from a pool by the likelihood of the opponents' past actions under the greedy softmax; games that replay their history: kuhn, dunhuang (the last turn or two); elsewhere as off).
        pub weights: Weights = Weights::Off,
        /// Temperature of the opponent model's softmax over value estimates (weights=greedy); > 0.
        pub tau: f64 = 0.1,
        /// Worlds drawn per decision into the weighted pool (weights=greedy); >= 1.
        pub pool: u32 = 64,
        /// Trees: single (SO-ISMCTS, one tree over action sequences) or multi (MO-ISMCTS: one tree per seat, keyed by the moves as that seat sees them; not with reuse=true).
        pub observers: Observers = Observers::Single,
    }
    validate = validate;
    elide_at_default = [weights, tau, pool, observers];
}

/// Checks the ranges that the parameter types cannot express (run by
/// [`ParamSet::from_settings`](crate::params::ParamSet::from_settings)).
///
/// # Errors
/// [`ParamError::Invalid`] naming the bad parameter.
pub fn validate(p: &Params, owner: &str) -> Result<(), ParamError> {
    check_common(owner, p.iters, p.c, p.epsilon)?;
    check_bias(owner, p.bias)?;
    check_weights(owner, p.tau, p.pool)?;
    if p.observers == Observers::Multi && p.reuse {
        return Err(super::mcts::invalid(
            owner,
            "observers=multi does not combine with reuse=true",
        ));
    }
    check_gamma(owner, p.gamma)
}

/// The `ismcts` agent (see the module docs). Its arena and buffers are reused between
/// decisions; a warmed-up agent allocates nothing per iteration.
#[derive(Debug, Clone)]
pub struct IsmctsAgent<G: Playable> {
    params: Params,
    search: UctSearch<G>,
    root: RootStats<G::Action>,
    belief: Belief<G>,
    /// The per-seat trees of `observers=multi`.
    multi: Option<MoSearch<G>>,
}

impl<G: Playable> IsmctsAgent<G> {
    /// An agent with these settings (see [`validate`]; out-of-range values are clamped).
    pub fn new(mut params: Params) -> Self {
        params.iters = params.iters.max(1);
        params.epsilon = params.epsilon.clamp(0.0, 1.0);
        let rollout = Rollout::new(params.rollout, params.epsilon, params.depth, params.rounds);
        let search = UctSearch::new(
            params.c.max(0.0),
            true,
            rollout.clone(),
            params.sm,
            params.gamma,
        )
        .with_tree(params.chance, params.root)
        .with_bias(params.bias)
        .with_reuse(params.reuse);
        let multi = (params.observers == Observers::Multi).then(|| {
            let (closed, sh) = (params.chance == ChanceLoop::Closed, params.root == Root::Sh);
            MoSearch::new(search.clone().with_reuse(false), rollout, closed, sh)
        });
        IsmctsAgent {
            search,
            multi,
            belief: Belief::new(params.weights, params.tau, params.pool),
            params,
            root: RootStats::new(),
        }
    }

    /// Bytes used by the search tree of the last decision (lengths, not capacity).
    pub fn arena_bytes(&self) -> usize {
        match &self.multi {
            Some(m) => m.bytes_used(),
            None => self.search.arena.bytes_used(),
        }
    }

    /// Runs the search for the view's seat and returns its legal actions with the root
    /// visits and mean rewards (NaN when unvisited). Used by `act` and by tests.
    pub fn search(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> Vec<(G::Action, f64, f64)> {
        self.root.start(view, "ismcts");
        self.search.forget();
        self.run(view, rng, NONE);
        self.root.table()
    }

    /// The root visits of the last search, summed (tests).
    #[cfg(test)]
    pub(crate) fn root_visits_for_tests(&self) -> f64 {
        self.root.visits.iter().sum()
    }

    /// Searches after [`RootStats::start`], from the node `keep` of the previous tree
    /// ([`NONE`]: a fresh tree).
    fn run(&mut self, view: &View<'_, G>, rng: &mut SimRng, keep: u32) {
        let end = deadline(self.params.time_ms);
        if let Some(multi) = &mut self.multi {
            multi.begin(
                self.params.iters,
                view.seat(),
                &self.root.mine,
                view.num_players(),
                end.is_some(),
            );
            let belief = &mut self.belief;
            belief.prepare(view, rng);
            run_budget(self.params.iters, end, || {
                let world = belief.draw(view, rng);
                multi.iterate(world, rng);
            });
            let r = &mut self.root;
            multi
                .tree(view.seat())
                .root_stats(view.seat(), &r.mine, &mut r.visits, &mut r.rewards);
            return;
        }
        self.search.begin(
            self.params.iters,
            view.seat(),
            &self.root.mine,
            end.is_some(),
            keep,
        );
        let (search, belief) = (&mut self.search, &mut self.belief);
        belief.prepare(view, rng);
        run_budget(self.params.iters, end, || {
            let world = belief.draw(view, rng);
            search.iterate(world, rng);
        });
        let r = &mut self.root;
        self.search
            .root_stats(view.seat(), &r.mine, &mut r.visits, &mut r.rewards);
    }
}

impl<G: Playable> Agent<G> for IsmctsAgent<G> {
    fn spec(&self) -> String {
        canonical_spec("ismcts", &self.params)
    }

    /// Drops the tree kept for subtree reuse (`reuse`).
    fn start_game(&mut self, _: &crate::game::GameStart<G>) {
        self.search.forget();
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        self.root.start(view, "ismcts");
        let keep = self.search.reusable(view);
        if self.root.mine.len() == 1 {
            let a = self.root.mine[0];
            self.search.pass_through(keep, view, a);
            return a;
        }
        self.run(view, rng, keep);
        let a = self.root.choose(self.params.r#final);
        self.search.played(view, a);
        a
    }

    /// The root visits (they sum to `iters`) and mean rewards.
    fn analyze(
        &mut self,
        view: &View<'_, G>,
        rng: &mut SimRng,
    ) -> Option<Vec<super::ActionStat<G::Action>>> {
        Some(super::uct_stats(self.search(view, rng)))
    }
}
