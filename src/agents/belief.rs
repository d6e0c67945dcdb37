//! Weighted determinization: worlds sampled in proportion to how likely the opponents'
//! observed past actions are in them under an opponent model (Policy-Based Inference;
//! Rebstock, Solinas, Buro & Sturtevant 2019, "Policy Based Inference in Trick-Taking Card
//! Games", IEEE CoG).
//!
//! [`View::determinize`] samples a world uniformly among the deals consistent with what the
//! searching seat saw. That ignores what the opponents *did*: in Kuhn poker, an opponent
//! who bet is more likely to hold the King than the Jack. With `weights=greedy` the search
//! agents (`ismcts`, and `mcts` with any `worlds`) draw their worlds from a weighted pool:
//!
//! 1. At the start of a decision, `pool` worlds are drawn by [`View::determinize`] (the
//!    uniform prior over consistent deals).
//! 2. Each world's history is replayed from its start ([`replay`]), and every past decision
//!    of a seat other than the searching one contributes the probability of the action it
//!    took under the opponent model: the greedy policy's softmax over its one-step value
//!    estimates, `P(a | s) = exp(v_a / tau) / sum_b exp(v_b / tau)`, where `v_b` is the
//!    deciding seat's [`GameState::value`] after `b` (chance
//!    after `b` sampled once) in that world. The world's weight is the product (computed as
//!    a sum of logs, so long histories do not underflow).
//! 3. Every iteration (`ismcts`) or every world (`mcts`) draws one world of the pool with
//!    probability proportional to its weight (sampling importance resampling). As `pool`
//!    grows, the drawn worlds follow the posterior `prior(world) * likelihood(history |
//!    world)`.
//!
//! **Which games.** Replaying a world's history needs the game to keep what was played
//! and a way to rebuild the world's past; a state holds neither in general (Daxu hides
//! nothing that `determinize` resamples). Games that replay are listed in [`replay`]:
//! Kuhn poker (its deal and whole betting history) and Merchants of Dunhuang, which keeps
//! an *evidence window* inline (the previous turn and the current one, each rebuilt in
//! the world from a snapshot while no card moved unseen by the searching seat since;
//! [`dunhuang::State::replay_evidence`]), so there only the opponents' decisions of the
//! last turn or two weigh a world. In every other game the weights are all equal and the
//! agent draws its worlds by [`View::determinize`] exactly as without weights (same RNG
//! draws), so `weights=greedy` plays as `weights=off` there.
//!
//! **Cost.** Building the pool replays `pool` worlds once per decision (Dunhuang: up to a
//! turn or two of decisions, each evaluated for every legal action of the decider);
//! nothing is allocated per iteration.
//!
//! **Not handled.** Simultaneous decisions in the replayed history carry no evidence (the
//! opponent model is defined at turn-based nodes only); the model is the same for every
//! opponent; the searching seat's own past actions are not weighted (they do not depend on
//! what it cannot see).

use std::any::Any;

use rand::RngExt;

use super::mcts::invalid;
use crate::game::{Chance, GameState, Playable, Seat, Turn, View};
use crate::games::{dunhuang, kuhn};
use crate::params::ParamError;
use crate::rng::SimRng;

crate::param_enum! {
    /// How the worlds of a decision are weighted.
    pub enum Weights {
        /// Uniform over the consistent deals: every world straight from `determinize`.
        Off = "off",
        /// By the likelihood of the opponents' past actions under the greedy policy's
        /// softmax with temperature `tau` (Policy-Based Inference).
        Greedy = "greedy",
    }
}

/// Checks the weighting settings: `tau > 0` and finite, `pool >= 1`.
///
/// # Errors
/// [`ParamError::Invalid`] naming the bad parameter.
pub(crate) fn check_weights(owner: &str, tau: f64, pool: u32) -> Result<(), ParamError> {
    if !(tau.is_finite() && tau > 0.0) {
        return Err(invalid(owner, "tau must be > 0"));
    }
    if pool == 0 {
        return Err(invalid(owner, "pool must be >= 1"));
    }
    Ok(())
}

/// Chance for replays of games whose history after the deal draws nothing (Kuhn poker).
struct NoChance;

impl Chance for NoChance {
    /// # Panics
    /// Always: a replay drew chance that its game does not have.
    fn below(&mut self, n: u32) -> u32 {
        panic!("a history replay asked chance for 0..{n}")
    }
}

/// A game that can replay the history of one of its (determinized) worlds.
pub trait Replay: GameState {
    /// Calls `f(before, seat, action)` for turn-based decisions played in this world (a
    /// world that `observer` sees: the real state or one dealt for `observer` by
    /// [`GameState::determinize`]), in order, with the state just before each: the whole
    /// history, or the part of it that the game keeps (see each implementation).
    fn replay(&self, observer: Seat, f: &mut dyn FnMut(&Self, Seat, Self::Action));
}

impl Replay for kuhn::State {
    /// The deal, then the betting history (seat 0 first, alternating); no chance after the
    /// deal.
    fn replay(&self, _: Seat, f: &mut dyn FnMut(&Self, Seat, kuhn::Action)) {
        let mut s = kuhn::State::from_deal(self.cards());
        for (i, &a) in self.history().iter().enumerate() {
            f(&s, i % 2, a);
            s.apply_unchecked(i % 2, a, &mut NoChance);
        }
    }
}

impl Replay for dunhuang::State {
    /// The evidence window: the previous turn and the current one, each while no card
    /// moved unseen by `observer` since it began
    /// ([`dunhuang::State::replay_evidence`]).
    fn replay(&self, observer: Seat, f: &mut dyn FnMut(&Self, Seat, dunhuang::Action)) {
        self.replay_evidence(observer, f);
    }
}

/// Replays `R`'s `world` for `observer` as `G` (the same type, checked at run time).
fn replay_as<G: Playable, R: Replay>(
    world: &G,
    observer: Seat,
    f: &mut dyn FnMut(&G, Seat, G::Action),
) -> bool {
    let Some(r) = (world as &dyn Any).downcast_ref::<R>() else {
        return false;
    };
    r.replay(observer, &mut |s, seat, a| {
        let a = G::action_from_id(R::action_id(a)).expect("same game");
        let s = (s as &dyn Any).downcast_ref::<G>().expect("same game");
        f(s, seat, a);
    });
    true
}

/// Replays `world`'s past turn-based decisions for `observer` ([`Replay`]) when its game
/// can: returns false, without calling `f`, for the other games. Games that replay: Kuhn
/// poker (the whole history) and Merchants of Dunhuang (the evidence window).
pub fn replay<G: Playable>(
    world: &G,
    observer: Seat,
    f: &mut dyn FnMut(&G, Seat, G::Action),
) -> bool {
    replay_as::<G, kuhn::State>(world, observer, f)
        || replay_as::<G, dunhuang::State>(world, observer, f)
}

/// Whether `G`'s worlds can be replayed ([`replay`]).
pub fn replays<G: Playable>() -> bool {
    use std::any::TypeId;
    [TypeId::of::<kuhn::State>(), TypeId::of::<dunhuang::State>()].contains(&TypeId::of::<G>())
}

/// The log-probability of `seat` playing `action` at `state` under the opponent model: the
/// softmax with temperature `tau` of the seat's value estimate after each of its legal
/// actions (chance after the action drawn from `rng`). `buf` is scratch space.
pub fn model_log_prob<G: Playable>(
    state: &G,
    seat: Seat,
    action: G::Action,
    tau: f64,
    buf: &mut Vec<G::Action>,
    rng: &mut SimRng,
) -> f64 {
    state.legal_actions(seat, buf);
    let value = |b: G::Action, rng: &mut SimRng| {
        let mut s = state.clone();
        s.apply_unchecked(seat, b, rng);
        s.value()[seat] / tau
    };
    let (mut best, mut chosen) = (f64::NEG_INFINITY, f64::NAN);
    let mut logits = [0.0f64; 64];
    let n = buf.len();
    // Up to 64 logits on the stack; wider action sets evaluate each action twice (no
    // allocation either way).
    let stored = n <= logits.len();
    for (i, &b) in buf.iter().enumerate() {
        let l = value(b, rng);
        if stored {
            logits[i] = l;
        }
        best = best.max(l);
        if b == action {
            chosen = l;
        }
    }
    let mut sum = 0.0;
    for i in 0..n {
        let l = if stored {
            logits[i]
        } else {
            value(buf[i], rng)
        };
        sum += (l - best).exp();
    }
    chosen - best - sum.ln()
}

/// The world sampler of one decision (see the module docs): uniform ([`Weights::Off`]) or a
/// weighted pool. Its buffers are reused between decisions.
#[derive(Debug, Clone)]
pub(crate) struct Belief<G: Playable> {
    mode: Weights,
    tau: f64,
    size: usize,
    /// Whether the pool of this decision is in use (weighting on and the game replays).
    active: bool,
    pool: Vec<G>,
    /// Log-likelihood of each pool world, then (after [`Belief::prepare`]) the running sums
    /// of the normalised weights.
    cum: Vec<f64>,
    buf: Vec<G::Action>,
}

impl<G: Playable> Belief<G> {
    /// A sampler with weighting `mode`, temperature `tau` and a pool of `pool` worlds.
    pub fn new(mode: Weights, tau: f64, pool: u32) -> Self {
        Belief {
            mode,
            tau,
            size: pool.max(1) as usize,
            active: false,
            pool: Vec::new(),
            cum: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Builds this decision's weighted pool for `view`'s seat (nothing when weighting is
    /// off or the game does not replay, so the RNG stream stays as without weights).
    pub fn prepare(&mut self, view: &View<'_, G>, rng: &mut SimRng) {
        self.active = self.mode == Weights::Greedy && replays::<G>();
        if !self.active {
            return;
        }
        let me = view.seat();
        self.pool.clear();
        self.cum.clear();
        for _ in 0..self.size {
            let world = view.determinize(rng);
            let mut log_l = 0.0;
            let (tau, buf) = (self.tau, &mut self.buf);
            replay(&world, me, &mut |s, seat, a| {
                if seat != me && matches!(s.turn(), Turn::Player(_)) {
                    log_l += model_log_prob(s, seat, a, tau, buf, rng);
                }
            });
            self.pool.push(world);
            self.cum.push(log_l);
        }
        let top = self.cum.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        for w in &mut self.cum {
            total += (*w - top).exp();
            *w = total;
        }
        for w in &mut self.cum {
            *w /= total;
        }
    }

    /// A world for one search: from the weighted pool after [`Belief::prepare`], otherwise
    /// [`View::determinize`].
    pub fn draw(&self, view: &View<'_, G>, rng: &mut SimRng) -> G {
        if !self.active {
            return view.determinize(rng);
        }
        self.pool[self.pick(rng)].clone()
    }

    /// The index of a pool world, drawn in proportion to its weight.
    fn pick(&self, rng: &mut SimRng) -> usize {
        let u: f64 = rng.random();
        self.cum
            .partition_point(|&c| c <= u)
            .min(self.pool.len() - 1)
    }

    /// The pool of the last decision with each world's normalised weight (empty when the
    /// pool is not in use). For tests.
    #[cfg(test)]
    pub fn weighted_pool(&self) -> impl Iterator<Item = (&G, f64)> {
        let n = if self.active { self.pool.len() } else { 0 };
        (0..n).map(move |i| {
            let below = if i == 0 { 0.0 } else { self.cum[i - 1] };
            (&self.pool[i], self.cum[i] - below)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kuhn::{Action, State};
    use crate::rng::test_rng;

    /// Seat 1 holds the Queen and seat 0 has bet: under the greedy softmax with
    /// temperature `tau`, seat 0 bets the Jack with probability `1 / (1 + e^{0.25/tau})`
    /// (pass keeps a showdown return of 0.25, betting drops it to 0) and the King with
    /// probability 1/2 (both 0.75). The hidden card is J or K with prior 1/2 each.
    fn queen_facing_a_bet() -> State {
        let mut s = State::from_deal([0, 1]);
        s.apply_unchecked(0, Action::Bet, &mut NoChance);
        s
    }

    #[test]
    fn the_model_gives_the_hand_computed_probabilities() {
        let tau = 0.1;
        let mut buf = Vec::new();
        let mut rng = test_rng(1);
        let jack = State::from_deal([0, 1]);
        let king = State::from_deal([2, 1]);
        let p_jack = model_log_prob(&jack, 0, Action::Bet, tau, &mut buf, &mut rng).exp();
        let p_king = model_log_prob(&king, 0, Action::Bet, tau, &mut buf, &mut rng).exp();
        assert!(
            (p_jack - 1.0 / (1.0 + (2.5f64).exp())).abs() < 1e-12,
            "{p_jack}"
        );
        assert!((p_king - 0.5).abs() < 1e-12, "{p_king}");
    }

    /// Weighted determinization samples worlds with the stated likelihoods: the pool's
    /// weights are the hand-computed likelihoods (normalised), and 20,000 draws from the
    /// pool pass a chi-square test (1 degree of freedom, 0.1% level: 10.83) against them;
    /// the Jack's posterior share is near the hand-computed 0.1317, far from the prior's 1/2.
    #[test]
    fn weighted_determinization_samples_worlds_with_the_stated_likelihoods() {
        let tau = 0.1;
        let p_bet_jack = 1.0 / (1.0 + (2.5f64).exp());
        let state = queen_facing_a_bet();
        let view = View::new(&state, 1);
        let mut belief = Belief::<State>::new(Weights::Greedy, tau, 256);
        let mut rng = test_rng(7);
        belief.prepare(&view, &mut rng);
        let (mut jack_pool, mut total) = (0.0, 0.0);
        for (world, w) in belief.weighted_pool() {
            let unnormalised = if world.cards()[0] == 0 {
                p_bet_jack
            } else {
                0.5
            };
            total += unnormalised;
            if world.cards()[0] == 0 {
                jack_pool += w;
            }
        }
        // The stated weight of each world is its likelihood over the pool's total.
        for (world, w) in belief.weighted_pool() {
            let l = if world.cards()[0] == 0 {
                p_bet_jack
            } else {
                0.5
            };
            assert!((w - l / total).abs() < 1e-12, "{w} vs {}", l / total);
        }
        let draws = 20_000;
        let jacks = (0..draws)
            .filter(|_| belief.draw(&view, &mut rng).cards()[0] == 0)
            .count() as f64;
        let n = f64::from(draws);
        let expected = [n * jack_pool, n * (1.0 - jack_pool)];
        let observed = [jacks, n - jacks];
        let chi2: f64 = (0..2)
            .map(|i| (observed[i] - expected[i]).powi(2) / expected[i])
            .sum();
        assert!(
            chi2 < 10.83,
            "chi-square {chi2}: {observed:?} vs {expected:?}"
        );
        let posterior = p_bet_jack / (p_bet_jack + 0.5);
        assert!(
            (jacks / n - posterior).abs() < 0.05,
            "{} vs {posterior}",
            jacks / n
        );
    }

    /// Weighting changes which worlds are drawn in Dunhuang: at the start of each turn
    /// of random 2-player games, the pool's weights (the opponent's decisions of the
    /// previous turn scored in each world) are not all equal in most positions, and in
    /// some they span a factor of 2. Fails when Dunhuang does not replay (the pool is
    /// then unused and empty) or when its replay reports no decision (equal weights).
    #[test]
    fn weighting_changes_the_worlds_drawn_in_dunhuang() {
        use crate::games::dunhuang::{Phase, State};
        let r = crate::game::rules::<State>(&Default::default(), 2).unwrap();
        let mut rng = test_rng(5);
        let mut buf = Vec::new();
        let (mut checked, mut unequal, mut wide) = (0, 0, 0);
        for _ in 0..4 {
            let mut s = State::new_game(r, &mut rng);
            while let Turn::Player(p) = s.turn() {
                if s.phase() == Phase::Move && s.ply() > 8 {
                    let view = View::new(&s, p);
                    let mut belief = Belief::<State>::new(Weights::Greedy, 0.1, 32);
                    belief.prepare(&view, &mut rng);
                    let w: Vec<f64> = belief.weighted_pool().map(|(_, w)| w).collect();
                    assert_eq!(w.len(), 32, "the weighted pool is in use");
                    let lo = w.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = w.iter().copied().fold(0.0, f64::max);
                    checked += 1;
                    unequal += usize::from(hi > lo * (1.0 + 1e-9));
                    wide += usize::from(hi > 2.0 * lo);
                }
                let a = s.random_action(p, &mut buf, &mut rng);
                s.apply_unchecked(p, a, &mut rng);
            }
        }
        eprintln!("{checked} positions, {unequal} unequal, {wide} wide");
        assert!(checked > 40, "{checked}");
        assert!(2 * unequal > checked, "{unequal} of {checked}");
        assert!(wide > 0, "{wide} of {checked}");
    }

    #[test]
    fn off_draws_exactly_what_determinize_draws() {
        let state = queen_facing_a_bet();
        let view = View::new(&state, 1);
        let mut belief = Belief::<State>::new(Weights::Off, 0.1, 64);
        let (mut a, mut b) = (test_rng(3), test_rng(3));
        belief.prepare(&view, &mut a);
        for _ in 0..50 {
            assert_eq!(belief.draw(&view, &mut a), view.determinize(&mut b));
        }
        assert_eq!(belief.weighted_pool().count(), 0);
    }
}
