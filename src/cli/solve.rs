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

use std::io::{self, Write};
use std::path::PathBuf;

use super::CliError;
use crate::output::OutputDir;
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
    /// Algorithm: cfr, cfr+, es-mccfr, os-mccfr or cfr-alt (vanilla CFR with alternating
    /// updates, OpenSpiel's default CFRSolver).
    #[arg(long, default_value = "cfr+")]
    pub algo: String,
    /// Iterations (one MCCFR iteration = one sampled traversal per seat).
    #[arg(long, default_value_t = 10_000, value_parser = super::positive_u64, allow_negative_numbers = true)]
    pub iters: u64,
    /// Evaluate (exact best responses) every this many iterations.
    #[arg(long, default_value_t = 1_000, value_parser = super::positive_u64, allow_negative_numbers = true)]
    pub every: u64,
    /// Seed of the MCCFR sampling (ignored by cfr and cfr+).
    #[arg(long, default_value_t = 1, value_parser = super::seed_u64, allow_negative_numbers = true)]
    pub seed: u64,
    /// Output directory for strategy.csv and curve.csv [default: out/solve-GAME-ALGO].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Largest game tree to expand, in nodes.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES, value_parser = super::positive_usize, allow_negative_numbers = true)]
    pub max_nodes: usize,
    /// Replace the files of another run in --out (refused without it; see `sim tournament
    /// --help`, "Output directories").
    #[arg(long)]
    pub overwrite: bool,
}

impl SolveArgs {
    /// The configuration recorded in the manifest, and the command that reruns the solve.
    fn owner(&self, dir: &std::path::Path) -> crate::output::Owner {
        let mut cmd = vec![
            "sim".to_string(),
            "solve".into(),
            "--game".into(),
            self.game.clone(),
        ];
        for v in &self.variant {
            cmd.extend(["--variant".into(), v.clone()]);
        }
        cmd.extend([
            "--algo".into(),
            self.algo.clone(),
            "--iters".into(),
            self.iters.to_string(),
            "--every".into(),
            self.every.to_string(),
            "--seed".into(),
            self.seed.to_string(),
            "--max-nodes".into(),
            self.max_nodes.to_string(),
            "--out".into(),
            dir.display().to_string(),
        ]);
        let command = crate::tournament::shell_join(&cmd);
        crate::output::Owner::new(
            "solve",
            command,
            &serde_json::json!({
                "game": self.game,
                "variant": self.variant,
                "algo": self.algo,
                "iters": self.iters,
                "every": self.every,
                "seed": self.seed,
                "max_nodes": self.max_nodes,
            }),
        )
    }
}

/// Runs `sim solve`, printing the curve to `out`.
///
/// # Errors
/// Bad input (exit 2): an unknown game, algorithm or variant key, zero iterations, a tree
/// over the node limit (a [`SolverError`] naming the bad value and the valid choices), or
/// an unwritable `--out`, found before solving. A failure writing the files or `out` (exit
/// 1).
pub fn run(args: &SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let algo: Algo = args.algo.parse().map_err(CliError::bad_input)?;
    for (name, value) in [("--iters", args.iters), ("--every", args.every)] {
        if value == 0 {
            return Err(CliError::bad_input(SolverError::BadArgument(format!(
                "bad value '0' for {name}: expected a positive number of iterations"
            ))));
        }
    }
    let tree = crate::analysis::efg::build_tree(&args.game, &args.variant, args.max_nodes)
        .map_err(CliError::bad_input)?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("out/solve-{}-{}", args.game, args.algo)));
    // Both files are created before solving: an unwritable directory is bad input, found
    // at once.
    let mut files = OutputDir::claim(&dir, &args.owner(&dir), args.overwrite)?;
    files.create_file("strategy.csv")?;
    files.create_file("curve.csv")?;
    let print = |out: &mut dyn Write, curve: &[CurvePoint]| -> std::io::Result<()> {
        writeln!(
            out,
            "{:>12} {:>14} {:>14} {:>12}",
            "iterations", "exploitability", "nash_conv", "value"
        )?;
        for p in curve {
            writeln!(
                out,
                "{:>12} {:>14.3e} {:>14.3e} {:>12.6}",
                p.iterations, p.eval.exploitability, p.eval.nash_conv, p.eval.value
            )?;
        }
        Ok(())
    };
    writeln!(
        out,
        "{}: {} nodes, {} information sets; {} for {} iterations (seed {})",
        tree.name,
        tree.nodes.len(),
        tree.infosets.len(),
        algo,
        args.iters,
        args.seed
    )
    .map_err(CliError::failure)?;
    let (curve, policy) = solvers::run_curve(&tree, algo, args.iters, args.every, args.seed);
    print(out, &curve).map_err(CliError::failure)?;
    files.write_with("strategy.csv", |w| write_strategy(&tree, &policy, w))?;
    files.write_with("curve.csv", |w| write_curve(&curve, w))?;
    files.commit()?;
    writeln!(out, "wrote {}/strategy.csv and curve.csv", dir.display()).map_err(CliError::failure)
}

/// Writes `policy` as CSV rows `info_set,player,action,probability`.
///
/// # Errors
/// The I/O error of writing.
pub fn write_strategy(tree: &Tree, policy: &Policy, out: &mut dyn Write) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
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
/// The I/O error of writing.
pub fn write_curve(curve: &[CurvePoint], out: &mut dyn Write) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
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
