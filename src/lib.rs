//! # tabletop-sim
//!
//! Fast rules engines, search agents and a reproducible parallel tournament runner for
//! balance analysis of modern tabletop games: Daxu, Merchants of Dunhuang, Q.A.X. and
//! Daimyo, with Kuhn poker and Goofspiel as reference games ([`games::NAMES`]).
//!
//! The pipeline (DESIGN.md §1): a rules engine implementing [`GameState`] → agents implementing
//! [`Agent`] that see a state only through a seat-restricted [`View`] → the
//! [`tournament`] runner (rayon; every game reproducible from (seed, game index)) → tidy
//! CSV and a summary with Wilson intervals per agent and per seat ([`stats`]).
//!
//! The main types are re-exported here: the game contract ([`GameState`], its optional
//! capabilities [`Measured`] and [`RunningScore`], [`Playable`]), its facts ([`GameType`],
//! [`GameInfo`]), [`Turn`], [`View`], [`Agent`]. The `cli`, `interrupt` and `soak`
//! modules serve the `sim` binary and are not a stable API.
//!
//! ```
//! use tabletop_sim::{GameState, games::daxu, rng};
//! use tabletop_sim::params::ParamSet;
//!
//! let params = daxu::Params::default();
//! let mut r = rng::test_rng(1);
//! let mut state = tabletop_sim::game::setup::<daxu::State>(&params, 2, &mut r).unwrap();
//! let mut buf = Vec::new();
//! let returns = tabletop_sim::game::random_playout(&mut state, &mut buf, &mut r);
//! assert!(state.turn().is_terminal());
//! assert_eq!(returns[0] + returns[1], 1.0);
//! ```

#![warn(missing_docs)]

pub mod agents;
pub mod analysis;
pub mod balance;
pub mod bits;
#[doc(hidden)]
pub mod cli;
pub mod experiments;
pub mod format;
pub mod game;
pub mod games;
#[doc(hidden)]
pub mod interrupt;
pub mod knowledge;
pub mod output;
pub mod params;
pub mod position;
pub mod report;
pub mod rng;
pub mod serve;
pub mod soak;
pub mod solvers;
pub mod stats;
pub mod testing;
pub mod tournament;
pub mod trajectories;

pub use agents::Agent;
pub use game::{
    GameError, GameInfo, GameState, GameType, InvalidState, JointAction, MAX_PLAYERS, Measured,
    PerSeat, Playable, RunningScore, Seat, SeatSet, Turn, View,
};
pub use games::{GameVisitor, visit_all};
pub use params::{ParamError, ParamInfo, ParamSet};
pub use rng::SimRng;
