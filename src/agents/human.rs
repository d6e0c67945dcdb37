//! The `human` agent kind: a seat played by a person at the terminal in `sim play`.
//!
//! `sim play` ([`crate::cli::play::play_session`]) recognises `human` seats and asks the
//! person for each move itself (with the seat's own view, numbered moves, `undo`, `help`
//! and `quit`), so this agent is never asked to act there. Everywhere else (a tournament, a
//! replay) nobody is at the terminal to answer: `act` then panics with a message saying
//! so, which the runner reports like any failing agent.

use super::{Agent, canonical_spec};
use crate::game::{Playable, View};
use crate::rng::SimRng;

/// One line for `sim list`.
pub const DESCRIPTION: &str =
    "a person at the terminal (sim play only): the seat's own view, numbered moves, undo";

crate::param_set! {
    /// The human agent has no parameters.
    pub struct Params {}
}

/// A seat whose moves a person types in `sim play`.
#[derive(Debug, Default)]
pub struct HumanAgent;

impl HumanAgent {
    /// The human agent (the parameter set is empty).
    pub fn new(_params: Params) -> Self {
        HumanAgent
    }
}

impl<G: Playable> Agent<G> for HumanAgent {
    fn spec(&self) -> String {
        canonical_spec("human", &Params::default())
    }

    /// A human takes decisions only in `sim play`, which asks the person directly.
    ///
    /// # Panics
    /// Always: nobody is at a terminal outside `sim play`.
    fn act(&mut self, view: &View<'_, G>, _rng: &mut SimRng) -> G::Action {
        panic!(
            "the human agent (seat {}, ply {}) plays only in `sim play`, which reads its moves \
             from the terminal; use another agent kind here",
            view.seat(),
            view.ply() + 1
        )
    }
}
