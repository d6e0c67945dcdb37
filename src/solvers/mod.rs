//! Solvers: exact and iterative equilibrium computation for small games.

pub mod lp;
