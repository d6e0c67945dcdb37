//! Tabular solvers for small two-player zero-sum games: CFR, CFR+, external- and
//! outcome-sampling MCCFR over a generic extensive-form interface, exact best responses
//! (exploitability, NashConv), a regret-matching matrix-game solver and an exact LP one.
//!
//! - [`efg`]: the [`efg::ExtensiveForm`] trait and the expanded [`efg::Tree`]. The
//!   extensive forms of the games (Kuhn poker, Goofspiel) and `sim solve`'s game lookup
//!   are in [`crate::analysis::efg`]: solvers never import games.
//! - [`cfr`]: CFR (Zinkevich et al. 2007; simultaneous or alternating updates) and CFR+
//!   (Tammelin 2014).
//! - [`mccfr`]: external and outcome sampling MCCFR (Lanctot et al. 2009).
//! - [`best_response`]: exact best response, NashConv, exploitability.
//! - [`matrix`]: regret matching and RM+ on matrix games.
//! - [`lp`]: exact solution of small matrix games by linear programming.
//!
//! [`Algo`] and [`Solver`] give the tree algorithms one interface, and [`run_curve`]
//! records the exploitability curve that `sim solve` prints.

pub mod best_response;
pub mod cfr;
pub mod efg;
pub mod lp;
pub mod matrix;
pub mod mccfr;

use crate::rng::rng_from_seed;

use self::best_response::{Evaluation, evaluate};
use self::cfr::{Cfr, CfrVariant};
use self::efg::{Policy, Tree};
use self::mccfr::{Mccfr, Sampling};

/// Why a solver could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// An algorithm name not among [`Algo::NAMES`].
    #[error("unknown algorithm '{0}'; valid algorithms: cfr, cfr+, es-mccfr, os-mccfr, cfr-alt")]
    UnknownAlgo(String),
    /// A game without an extensive form.
    #[error("game '{name}' has no extensive form for the solvers; valid games: {valid}")]
    UnknownGame {
        /// The requested game.
        name: String,
        /// The games that have one, comma-separated.
        valid: String,
    },
    /// The game tree exceeds the node limit.
    #[error(
        "the game tree of {game} has more than {limit} nodes; choose a smaller variant or raise --max-nodes"
    )]
    TooLarge {
        /// The game and variant.
        game: String,
        /// The node limit.
        limit: usize,
    },
    /// A malformed extensive form or a bad variant.
    #[error("bad game: {0}")]
    BadGame(String),
    /// A bad numeric option (`--iters 0`), with what would be valid.
    #[error("{0}")]
    BadArgument(String),
}

/// The default node limit of [`efg::Tree::build`] in `sim solve`.
/// (About 110 bytes per node at peak: goofspiel `num_cards=5 order=random` has 8.5 million
/// nodes and 4.4 million information sets, and its build peaks at 0.95 GB.)
pub const DEFAULT_MAX_NODES: usize = 10_000_000;

/// A tree algorithm, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// `cfr`: vanilla CFR.
    Cfr,
    /// `cfr+`: CFR+.
    CfrPlus,
    /// `es-mccfr`: external-sampling MCCFR.
    EsMccfr,
    /// `os-mccfr`: outcome-sampling MCCFR.
    OsMccfr,
    /// `cfr-alt`: vanilla CFR with alternating updates (OpenSpiel's default `CFRSolver`).
    CfrAlternating,
}

impl Algo {
    /// The command-line names, in the order of [`Algo::ALL`].
    pub const NAMES: [&'static str; 5] = ["cfr", "cfr+", "es-mccfr", "os-mccfr", "cfr-alt"];
    /// Every algorithm.
    pub const ALL: [Algo; 5] = [
        Algo::Cfr,
        Algo::CfrPlus,
        Algo::EsMccfr,
        Algo::OsMccfr,
        Algo::CfrAlternating,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl std::str::FromStr for Algo {
    type Err = SolverError;

    fn from_str(s: &str) -> Result<Self, SolverError> {
        Algo::NAMES
            .iter()
            .position(|n| *n == s.trim())
            .map(|i| Algo::ALL[i])
            .ok_or_else(|| SolverError::UnknownAlgo(s.to_string()))
    }
}

impl std::fmt::Display for Algo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the tree algorithms behind one interface.
#[derive(Clone, Debug)]
pub enum Solver<'t> {
    /// CFR or CFR+.
    Cfr(Cfr<'t>),
    /// ES or OS MCCFR.
    Mccfr(Mccfr<'t>),
}

impl<'t> Solver<'t> {
    /// A fresh solver of `algo` over `tree`; MCCFR samples from a generator seeded by
    /// `seed` ([`rng_from_seed`]).
    pub fn new(tree: &'t Tree, algo: Algo, seed: u64) -> Self {
        match algo {
            Algo::Cfr => Solver::Cfr(Cfr::new(tree, CfrVariant::Vanilla)),
            Algo::CfrPlus => Solver::Cfr(Cfr::new(tree, CfrVariant::Plus)),
            Algo::CfrAlternating => Solver::Cfr(Cfr::new(tree, CfrVariant::Alternating)),
            Algo::EsMccfr => {
                Solver::Mccfr(Mccfr::new(tree, Sampling::External, rng_from_seed(seed)))
            }
            Algo::OsMccfr => {
                Solver::Mccfr(Mccfr::new(tree, Sampling::Outcome, rng_from_seed(seed)))
            }
        }
    }

    /// Runs one iteration.
    pub fn iterate(&mut self) {
        match self {
            Solver::Cfr(s) => s.iterate(),
            Solver::Mccfr(s) => s.iterate(),
        }
    }

    /// Iterations run so far.
    pub fn iterations(&self) -> u64 {
        match self {
            Solver::Cfr(s) => s.iterations(),
            Solver::Mccfr(s) => s.iterations(),
        }
    }

    /// The average strategy profile.
    pub fn average_policy(&self) -> Policy {
        match self {
            Solver::Cfr(s) => s.average_policy(),
            Solver::Mccfr(s) => s.average_policy(),
        }
    }
}

/// One point of an exploitability curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    /// Iterations completed.
    pub iterations: u64,
    /// The average strategy's evaluation.
    pub eval: Evaluation,
}

/// Runs `algo` for `iterations` on `tree`, evaluating the average strategy after every
/// `every` iterations (and after the last); returns the curve and the final average policy.
pub fn run_curve(
    tree: &Tree,
    algo: Algo,
    iterations: u64,
    every: u64,
    seed: u64,
) -> (Vec<CurvePoint>, Policy) {
    let every = every.max(1);
    let mut solver = Solver::new(tree, algo, seed);
    let mut curve = Vec::new();
    for t in 1..=iterations {
        solver.iterate();
        if t % every == 0 || t == iterations {
            curve.push(CurvePoint {
                iterations: t,
                eval: evaluate(tree, &solver.average_policy()),
            });
        }
    }
    (curve, solver.average_policy())
}
