//! `sim merge`: combines the directories of a sharded tournament into the files of the
//! whole run (see [`crate::tournament::merge`]).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use super::CliError;
use crate::tournament::GamesFile;
use crate::tournament::merge::{MergeError, merge};

/// The long help of `sim merge`.
pub const LONG_ABOUT: &str = "\
Combine the output directories of the shards of one tournament (`sim tournament --shard i/n`,
0-based) into the files of the whole run: every file (games.csv, summary.csv, seats.csv,
metrics.csv, labels.csv, errors.csv, config.toml, checkpoint.json, ...) is byte-identical to a
single-machine run with the same settings and --out DIR; manifest.json differs only in its pid
and its merged_from list. games.csv is streamed, never held in memory; the statistics are
rebuilt exactly from each shard's checkpoint.json (integer tallies).

Refused with exit code 2, naming the directory and the problem: a shard that is not complete
(interrupted, still running or killed: finish it with `sim tournament --resume DIR`), shards of
different configurations (the differing fields are named) or of different shard counts,
overlapping shards, missing shards (gaps, named with their games), and truncated or corrupt
shards (a games file whose size, rows or lines do not match the shard's checkpoint, a
malformed line, a corrupt checkpoint.json or manifest.json).";

/// Options of `sim merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard directories, in any order (each the --out of one `sim tournament --shard
    /// i/n`); every shard 0..n-1 exactly once.
    #[arg(required = true, value_name = "DIRS")]
    pub dirs: Vec<PathBuf>,

    /// Output directory of the merged run.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,

    /// How to write the merged games: csv, gz or none [default: as the shards wrote them].
    #[arg(long = "games-file", value_name = "FORMAT")]
    pub games_file: Option<GamesFile>,

    /// Replace the files of another run in --out.
    #[arg(long)]
    pub overwrite: bool,
}

/// Runs `sim merge`.
///
/// # Errors
/// Bad input (exit 2) or a failed write (exit 1).
pub fn run(args: &MergeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let report = merge(&args.dirs, &args.out, args.games_file, args.overwrite).map_err(
        |e: MergeError| {
            if e.is_bad_input() {
                CliError::bad_input(e)
            } else {
                CliError::failure(e)
            }
        },
    )?;
    let files = crate::output::file_names(&report.files);
    (|| -> std::io::Result<()> {
        writeln!(
            out,
            "merged {} shards: {} games ({} failed, in errors.csv)",
            report.shards, report.games, report.failures
        )?;
        if report.games_file == GamesFile::None {
            writeln!(
                out,
                "no games file (--games-file none): statistics from the tallies"
            )?;
        }
        writeln!(out, "wrote {}: {}", report.out.display(), files.join(", "))?;
        writeln!(out, "the same files as: {}", report.command)
    })()
    .context("writing the summary to stdout")
    .map_err(CliError::failure)
}
