//! Game-specific analysis: code that needs both a game and a solver (DESIGN.md §2: games
//! never import solvers and solvers never import games, so what joins them lives here).
//!
//! - [`efg`]: the extensive forms of Kuhn poker and Goofspiel over the game API (chance
//!   enumerated through [`crate::game::Chance`]), and [`efg::build_tree`], the game lookup
//!   of `sim solve`.
//! - [`daxu_endgame`]: the exact Daxu endgame solver (backward induction with exact LP
//!   matrix games and enumerated flips).

pub mod daxu_endgame;
pub mod efg;
