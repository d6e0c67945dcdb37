//! `sim report DIR`: write `report.html` (or `report.md`) for a results directory (see
//! [`crate::report`]).

use std::io::Write;
use std::path::PathBuf;

use super::CliError;
use crate::report::{self, Format};

/// The long help of `sim report`.
pub const LONG_ABOUT: &str = "\
Write a report of a results directory: one self-contained report.html with SVG charts (win
rates with 95% intervals, seat advantage, ratings with bootstrap intervals, score and margin
histograms, head-to-head heat map, variant comparison with verdicts, game metrics), or with
--format md a report.md for a design document. Reads only the directory's files (a
tournament's, or an experiment's: sweep, ladder, endgame; or a sim balance or sim design
folder's, whose report it rebuilds byte for byte from the CSVs, the spec and the command),
so it can be rerun at any time; sim experiment runs it at the end.

Exit codes: 0 success, 2 the directory is missing or holds no results, 1 the report cannot be
written.";

/// Arguments of `sim report`.
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// The results directory (written by `sim tournament --out` or `sim experiment`).
    pub dir: PathBuf,
    /// Output format: html (report.html) or md (report.md).
    #[arg(long, value_enum, default_value = "html")]
    pub format: Format,
}

/// Runs `sim report`.
///
/// # Errors
/// Exit code 2 for a missing or non-results directory or a malformed file, 1 when the
/// report cannot be written.
pub fn run(args: &ReportArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let path = report::write(&args.dir, args.format).map_err(|e| {
        if e.is_bad_input() {
            CliError::bad_input(e)
        } else {
            CliError::failure(e)
        }
    })?;
    writeln!(out, "wrote {}", path.display()).map_err(CliError::failure)
}
