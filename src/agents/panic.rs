//! A test agent that panics on purpose (hidden: not in `sim list`), for testing the
//! runner's fault isolation (`errors.csv`) and the replay of a failed game.
//!
//! `panic:ply=P,share=S`: plays like `random`, except that at its first decision at or
//! after ply `P` of a game it draws from its seat's random stream and panics with
//! probability `S` (default 1: always). The draw comes from the per-game stream, so
//! whether a game panics is a pure function of (seed, game index): `sim play --index I`
//! reproduces it.

use rand::RngExt;

use super::{Agent, GameStart, canonical_spec};
use crate::game::{Playable, View};
use crate::rng::SimRng;

/// The kind's name.
pub const NAME: &str = "panic";

crate::param_set! {
    /// Settings of the panicking test agent.
    pub struct Params {
        /// The ply from which it may panic.
        pub ply: u32 = 3,
        /// The probability that a game panics, in [0, 1].
        pub share: f64 = 1.0,
    }
}

/// The panicking test agent (see the module docs).
#[derive(Debug)]
pub struct PanicAgent<G: Playable> {
    params: Params,
    /// Whether this game's draw is done.
    drawn: bool,
    buf: Vec<G::Action>,
}

impl<G: Playable> PanicAgent<G> {
    /// A panicking agent with these settings.
    pub fn new(params: Params) -> Self {
        PanicAgent {
            params,
            drawn: false,
            buf: Vec::new(),
        }
    }
}

impl<G: Playable> Agent<G> for PanicAgent<G> {
    fn spec(&self) -> String {
        canonical_spec(NAME, &self.params)
    }

    fn start_game(&mut self, _start: &GameStart<G>) {
        self.drawn = false;
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        if !self.drawn && view.ply() >= self.params.ply {
            self.drawn = true;
            if rng.random::<f64>() < self.params.share {
                panic!(
                    "the panic test agent panics on purpose at ply {} (seat {})",
                    view.ply(),
                    view.seat()
                );
            }
        }
        view.random_action(&mut self.buf, rng)
    }
}
