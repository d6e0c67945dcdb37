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
    /// The experiment spec (TOML), e.g. experiments/daxu-ladder.toml.
    pub spec: PathBuf,
    /// Worker threads (default: all cores); never changes the results.
    #[arg(long, value_parser = super::positive_usize)]
    pub threads: Option<usize>,
}

/// Runs `sim experiment`.
///
/// # Errors
/// A [`CliError`] with exit code 2 for a bad spec, 1 for a failed run.
pub fn run(args: &ExperimentArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let outcome = experiments::run(&args.spec, args.threads).map_err(|e| {
        if e.is_bad_input() {
            CliError::bad_input(e)
        } else {
            CliError::failure(e)
        }
    })?;
    write!(out, "{}", outcome.summary).map_err(CliError::failure)?;
    writeln!(out, "wrote {}", outcome.out.display()).map_err(CliError::failure)?;
    match crate::report::write(&outcome.out, crate::report::Format::Html) {
        Ok(page) => writeln!(out, "report: {}", page.display()).map_err(CliError::failure)?,
        Err(e) => eprintln!("warning: the results are complete, but no report: {e}"),
    }
    Ok(())
}
