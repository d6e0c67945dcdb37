//! `sim verify DIR`: checks a finished tournament directory against itself (see
//! [`crate::tournament::verify`]).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::tournament::verify::verify;

/// The long help of `sim verify`.
pub const LONG_ABOUT: &str = "\
Check a finished tournament directory (a whole run, a shard or the output of sim merge)
against itself: manifest.json complete with every file it lists; checkpoint.json matching its
seal (SHA-256 of its tallies and progress); its checksum chain, block by block (4,096 games a
block: each block's rows and integer tallies, chained by SHA-256; the first bad block is
named; directories written before the chain are checked without it, and the output says so);
the games file matching the length and SHA-256 in
checkpoint.json, with one row per seat of every game that did not fail; and every table
(summary.csv, seats.csv, ..., errors.csv, config.toml) equal, byte for byte, to the table
written again from the tallies. A directory of sim skill or sim balance: its manifest
complete and every file matching the SHA-256 recorded in manifest.json. Exit 0 when every
check passes, 2 naming the file and the first check that fails.";

/// Options of `sim verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The directories to check (each the --out of a `sim tournament` or `sim merge`).
    #[arg(required = true, value_name = "DIRS")]
    pub dirs: Vec<PathBuf>,
}

/// Runs `sim verify`.
///
/// # Errors
/// Bad input (exit 2) naming the directory, the file and the check that failed.
pub fn run(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), CliError> {
    for dir in &args.dirs {
        // A run of sim skill or sim balance: its files against their recorded SHA-256.
        if let Ok(Some(m)) = crate::output::read_manifest(dir)
            && m.kind != "tournament"
        {
            let m = crate::output::verify_recorded(dir)
                .map_err(|e| CliError::bad_input(anyhow::anyhow!("'{}': {e}", dir.display())))?;
            writeln!(
                out,
                "{}: ok: a {} run of {} {}: {} files match their SHA-256 in manifest.json; \
                 rerun: {}",
                dir.display(),
                m.kind,
                m.program,
                m.version,
                m.hashes.len(),
                m.command
            )
            .map_err(CliError::failure)?;
            continue;
        }
        let r = verify(dir).map_err(|e| {
            if e.is_bad_input() {
                CliError::bad_input(e)
            } else {
                CliError::failure(e)
            }
        })?;
        let chain = match r.chain_blocks {
            Some(n) => format!("checksum chain of {n} blocks ok"),
            None => "no checksum chain (written by an older version: seal, length, SHA-256 \
                     and line count checked)"
                .into(),
        };
        writeln!(
            out,
            "{}: ok: {} games ({} failed), rows match checkpoint.json, {chain}, {} files \
             rebuilt from the tallies match: {}",
            r.dir.display(),
            r.games,
            r.failures,
            r.rebuilt.len(),
            r.rebuilt.join(", ")
        )
        .map_err(CliError::failure)?;
    }
    Ok(())
}
