//! The uniform random agent: every legal action with equal probability.

use super::{Agent, canonical_spec};
use crate::game::{Playable, View};
use crate::rng::SimRng;

/// One line for `sim list`.
pub const DESCRIPTION: &str = "uniform over legal actions";

crate::param_set! {
    /// The random agent has no parameters.
    pub struct Params {}
}

/// Plays a uniformly random legal action. Keeps one reused action buffer, so it
/// allocates nothing per decision.
#[derive(Debug)]
pub struct RandomAgent<G: Playable> {
    buf: Vec<G::Action>,
}

impl<G: Playable> RandomAgent<G> {
    /// A random agent (the parameter set is empty).
    pub fn new(_params: Params) -> Self {
        RandomAgent {
            buf: Vec::with_capacity(G::NUM_ACTION_IDS),
        }
    }
}

impl<G: Playable> Agent<G> for RandomAgent<G> {
    fn spec(&self) -> String {
        canonical_spec("random", &Params::default())
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        // Debug only: the runner asks acting seats alone, and in release builds this check
        // cost about 5% of a random-vs-random Daxu tournament (it recomputes the turn).
        debug_assert!(
            view.turn().actors().contains(view.seat()),
            "random agent asked to act when its seat does not act"
        );
        view.random_action(&mut self.buf, rng)
    }
}
