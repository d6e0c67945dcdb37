//! `sim solve`: run a tabular solver on a small game, print the exploitability curve, and
//! write the average strategy and the curve as CSV.
//!
//! ```text
//! sim solve --game kuhn --algo cfr+ --iters 10000 --every 1000 --out out/kuhn
//! ```
//!
//! Output files in `--out` (created if missing): `strategy.csv` with columns
//! `info_set,player,action,probability` (one row per information set and action, in tree
//! order) and `curve.csv` with columns
//! `iterations,exploitability,nash_conv,value,br_value_0,br_value_1` (value = seat 0's
//! expected utility of the average strategy: chips in Kuhn poker, win/loss or points in
//! Goofspiel).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::solvers::efg::{Policy, Tree};
use crate::solvers::{self, Algo, CurvePoint, DEFAULT_MAX_NODES, SolverError};

/// Arguments of `sim solve`.
#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    /// Game with an extensive form: kuhn or goofspiel.
    #[arg(long, default_value = "kuhn")]
    pub game: String,
    /// Rule variant key=value (repeatable); goofspiel also takes utility=win-loss|points.
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variant: Vec<String>,
    /// Algorithm: cfr, cfr+, es-mccfr or os-mccfr.
    #[arg(long, default_value = "cfr+")]
    pub algo: String,
    /// Iterations (one MCCFR iteration = one sampled traversal per seat).
    #[arg(long, default_value_t = 10_000)]
    pub iters: u64,
    /// Evaluate (exact best responses) every this many iterations.
    #[arg(long, default_value_t = 1_000)]
    pub every: u64,
    /// Seed of the MCCFR sampling (ignored by cfr and cfr+).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory for strategy.csv and curve.csv [default: out/solve-GAME-ALGO].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Largest game tree to expand, in nodes.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: usize,
}

/// Runs `sim solve`.
///
/// # Errors
/// Bad input (unknown game, algorithm or variant key, zero iterations, a tree over the
/// node limit) as a [`SolverError`] naming the bad value and the valid choices (the binary
/// maps these to exit code 2: `err.downcast_ref::<SolverError>().is_some()`); other errors
/// are I/O errors writing `--out`, with the path.
pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    let algo: Algo = args.algo.parse()?;
    for (name, value) in [("--iters", args.iters), ("--every", args.every)] {
        if value == 0 {
            return Err(SolverError::BadArgument(format!(
                "bad value '0' for {name}: expected a positive number of iterations"
            ))
            .into());
        }
    }
    let tree = crate::analysis::efg::build_tree(&args.game, &args.variant, args.max_nodes)?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("out/solve-{}-{}", args.game, args.algo)));
    // An unwritable directory is bad input: find out before solving.
    fs::create_dir_all(&dir)
        .and_then(|()| fs::File::create(dir.join(".write-test")).map(drop))
        .and_then(|()| fs::remove_file(dir.join(".write-test")))
        .map_err(|e| {
            SolverError::BadArgument(format!(
                "cannot write to the output directory '{}': {e}",
                dir.display()
            ))
        })?;
    println!(
        "{}: {} nodes, {} information sets; {} for {} iterations (seed {})",
        tree.name,
        tree.nodes.len(),
        tree.infosets.len(),
        algo,
        args.iters,
        args.seed
    );
    let (curve, policy) = solvers::run_curve(&tree, algo, args.iters, args.every, args.seed);
    println!(
        "{:>12} {:>14} {:>14} {:>12}",
        "iterations", "exploitability", "nash_conv", "value"
    );
    for p in &curve {
        println!(
            "{:>12} {:>14.3e} {:>14.3e} {:>12.6}",
            p.iterations, p.eval.exploitability, p.eval.nash_conv, p.eval.value
        );
    }
    // Written as NAME.partial and renamed, so a complete-looking file is complete.
    let finish = |name: &str, write: &dyn Fn(&Path) -> anyhow::Result<()>| -> anyhow::Result<()> {
        let partial = dir.join(format!("{name}.partial"));
        write(&partial)?;
        fs::rename(&partial, dir.join(name))
            .with_context(|| format!("renaming {}", partial.display()))
    };
    finish("strategy.csv", &|p| write_strategy(&tree, &policy, p))?;
    finish("curve.csv", &|p| write_curve(&curve, p))?;
    println!("wrote {}/strategy.csv and curve.csv", dir.display());
    Ok(())
}

/// Writes `policy` as CSV rows `info_set,player,action,probability`.
///
/// # Errors
/// I/O or CSV errors, with the path.
pub fn write_strategy(tree: &Tree, policy: &Policy, path: &Path) -> anyhow::Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record(["info_set", "player", "action", "probability"])?;
    for set in &tree.infosets {
        for (a, label) in set.actions.iter().enumerate() {
            w.write_record([
                set.key.as_str(),
                &set.player.to_string(),
                label,
                &format!("{:.6}", policy[set.offset + a]),
            ])?;
        }
    }
    w.flush()?;
    Ok(())
}

/// Writes the curve as CSV rows
/// `iterations,exploitability,nash_conv,value,br_value_0,br_value_1`.
///
/// # Errors
/// I/O or CSV errors, with the path.
pub fn write_curve(curve: &[CurvePoint], path: &Path) -> anyhow::Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record([
        "iterations",
        "exploitability",
        "nash_conv",
        "value",
        "br_value_0",
        "br_value_1",
    ])?;
    for p in curve {
        w.write_record([
            p.iterations.to_string(),
            format!("{:.9}", p.eval.exploitability),
            format!("{:.9}", p.eval.nash_conv),
            format!("{:.9}", p.eval.value),
            format!("{:.9}", p.eval.best_response[0]),
            format!("{:.9}", p.eval.best_response[1]),
        ])?;
    }
    w.flush()?;
    Ok(())
}
