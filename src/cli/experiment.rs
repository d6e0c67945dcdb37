//! `sim experiment FILE`: run an experiment spec (see [`crate::experiments`]) and write
//! its results directory.

use std::io::Write;
use std::path::PathBuf;

use super::CliError;
use crate::experiments;

/// Help text.
pub const LONG_ABOUT: &str = "Run an experiment spec (TOML, see experiments/) and write its results \
directory: a tournament, a round-robin ladder with Bradley-Terry (Elo) ratings, or the Daxu endgame \
exploitability of agents. The same spec always gives the same files, whatever --threads is.";

/// Arguments of `sim experiment`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExperimentArgs {
    /// The experiment spec (TOML), e.g. experiments/daxu-ladder.toml (optional with
    /// --resume: the spec is recorded in DIR/manifest.json).
    #[arg(required_unless_present = "resume")]
    pub spec: Option<PathBuf>,
    /// Worker threads (default: all cores); never changes the results.
    #[arg(long, value_parser = super::positive_usize, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Replace the files of another run in the spec's `out` directory (refused without
    /// it; the files of an older version of sim, without a manifest.json, too).
    #[arg(long, conflicts_with = "resume")]
    pub overwrite: bool,
    /// Continue the interrupted (or killed) experiment in DIR: finished tournaments (ladder
    /// pairs, sweep cells) are kept, an interrupted one continues from its checkpoint; the
    /// files come out byte-identical to an uninterrupted run. A complete experiment is
    /// reported as such (exit 0) and nothing is played; a spec given with it must be the
    /// run's (a difference is refused, naming the field).
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// (Testing) checkpoint the tournaments every N blocks of 32 games.
    #[arg(long, value_name = "N", value_parser = super::positive_u64, hide = true)]
    pub checkpoint_every: Option<u64>,
    /// (Testing) sleep N ms after each block of 32 games.
    #[arg(long, value_name = "MS", default_value_t = 0, hide = true)]
    pub throttle_ms: u64,
}

/// Runs `sim experiment`.
///
/// # Errors
/// A [`CliError`] with exit code 2 for a bad spec, 1 for a failed run.
pub fn run(args: &ExperimentArgs, out: &mut dyn Write) -> Result<(), CliError> {
    crate::interrupt::install();
    let options = experiments::Options {
        overwrite: args.overwrite,
        resume: args.resume.is_some(),
        stop: Some(&crate::interrupt::REQUESTED),
        checkpoint_every: args.checkpoint_every,
        throttle_ms: args.throttle_ms,
    };
    let outcome = match (&args.resume, &args.spec) {
        (Some(dir), spec) => experiments::resume(dir, spec.as_deref(), args.threads, &options),
        (None, Some(spec)) => experiments::run_with(spec, args.threads, &options),
        (None, None) => unreachable!("clap requires a spec without --resume"),
    };
    let outcome = outcome.map_err(|e| {
        if let experiments::ExperimentError::Interrupted { .. } = e {
            CliError {
                code: crate::interrupt::EXIT_CODE,
                error: e.into(),
            }
        } else if e.is_bad_input() {
            CliError::bad_input(e)
        } else {
            CliError::failure(e)
        }
    })?;
    if outcome.already_complete {
        eprintln!(
            "the experiment in {} is already complete: nothing to resume, no game played",
            outcome.out.display()
        );
        // The reports are written after the commit: a run killed in between has none yet.
        for (format, file) in REPORTS {
            if !outcome.out.join(file).exists()
                && let Err(e) = crate::report::write(&outcome.out, format)
            {
                eprintln!("warning: the results are complete, but no {file}: {e}");
            }
        }
        return Ok(());
    }
    write!(out, "{}", outcome.summary).map_err(CliError::failure)?;
    writeln!(out, "wrote {}", outcome.out.display()).map_err(CliError::failure)?;
    // Both reports, so a rerun never leaves a report.md of the previous run beside the new
    // report.html (or none at all after --overwrite).
    for (format, file) in REPORTS {
        match crate::report::write(&outcome.out, format) {
            Ok(page) => writeln!(out, "report: {}", page.display()).map_err(CliError::failure)?,
            Err(e) => eprintln!("warning: the results are complete, but no {file}: {e}"),
        }
    }
    Ok(())
}

/// The reports an experiment writes when it completes: `report.html` and `report.md`.
const REPORTS: [(crate::report::Format, &str); 2] = [
    (crate::report::Format::Html, "report.html"),
    (crate::report::Format::Md, "report.md"),
];
