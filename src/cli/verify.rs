//! `sim verify DIR`: checks a finished tournament directory against itself (see
//! [`crate::tournament::verify`]).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::tournament::verify::verify_with;

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
written again from the tallies. A folder of sim experiment: its manifest complete, every
file (those of its tournaments under cells/ and pairs/ included) matching the SHA-256
recorded in manifest.json (a folder written before experiments recorded hashes is reported
as of the older format, its files checked for presence only), and each of its tournaments
checked as above. A directory of sim skill, sim balance or sim design: its manifest
complete and every file matching the SHA-256 recorded in manifest.json. Agent specs recorded
in an older spelling (before parameters joined their kind, such as bias and reuse) are checked
to name the same agent as today's canonical form, then used as recorded; the output lists
them. Files that a rerun
left from an earlier run (kept in manifest.json) are named as such: not part of the run,
not checked. With --without-games a games file listed but absent (committed results do not
keep games.csv) is allowed: everything else is checked, the rows are not, and the output
says so. Exit 0 when every check passes, 2 naming the file and the first check that
fails.

With --rerun, each folder is instead rerun with the command its manifest.json records (the
README's rerun command) in a temporary working directory (the spec it names copied there, so
the command runs word for word), and every CSV file of the folder, those under cells/ and
pairs/ included, is compared byte for byte with the rerun's; no CSV file holds a wall-clock
time, so no column is ignored. CSV files the folder does not hold (games.csv) are not
compared; other files (reports, config.toml) are compared and reported only. One line per
folder (reproduced, or the first differing line of each CSV file that differs); exit 2 when
any folder did not reproduce or has no manifest.json (such folders rerun by hand from their
command.txt or README.md). A full rerun takes as long as the original run.";

/// Options of `sim verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The directories to check (each the --out of a `sim tournament` or `sim merge`).
    #[arg(required = true, value_name = "DIRS")]
    pub dirs: Vec<PathBuf>,

    /// Allow a games file (games.csv, games.csv.gz) listed in manifest.json to be absent
    /// (the committed results of this repository do not keep it): everything else is
    /// checked, the rows are not, and the output says so.
    #[arg(long = "without-games")]
    pub without_games: bool,

    /// Rerun each folder with the command its manifest.json records, in a temporary
    /// working directory, and compare every CSV file byte for byte with the rerun's
    /// (instead of checking the folder against itself).
    #[arg(long, conflicts_with = "without_games")]
    pub rerun: bool,

    /// With --rerun: worker threads of each rerun (`--threads N` added to its command; the
    /// results never depend on it). Default: the command's own default, all cores.
    #[arg(long, requires = "rerun", value_parser = super::positive_usize, allow_negative_numbers = true)]
    pub threads: Option<usize>,

    /// With --rerun: run in a new folder under DIR (named after the folder) and keep it,
    /// to look at the files that differ; default a temporary directory, removed afterwards.
    #[arg(long, requires = "rerun", value_name = "DIR")]
    pub rerun_into: Option<PathBuf>,
}

/// Runs `sim verify`.
///
/// # Errors
/// Bad input (exit 2) naming the directory, the file and the check that failed.
pub fn run(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if args.rerun {
        return super::rerun::run_all(&args.dirs, args.threads, args.rerun_into.as_deref(), out);
    }
    for dir in &args.dirs {
        // A sim experiment folder: its files against their SHA-256, its tournaments
        // against themselves.
        if let Ok(Some(m)) = crate::output::read_manifest(dir)
            && m.kind == "experiment"
        {
            let r = crate::tournament::verify::verify_experiment(dir, &m, args.without_games)
                .map_err(|e| CliError::bad_input(anyhow::anyhow!(e)))?;
            let hashes = match r.hashed {
                Some(n) => format!("{n} files match their SHA-256 in manifest.json"),
                None => "older format: hashes not recorded (its files are present; written \
                         before experiments recorded them)"
                    .into(),
            };
            let games: u64 = r.tournaments.iter().map(|t| t.games).sum();
            let unchecked = r.tournaments.iter().filter(|t| !t.rows_checked).count();
            let rows = if unchecked == 0 {
                String::new()
            } else {
                format!(
                    "; rows NOT checked in {unchecked} of them (games file absent, \
                     --without-games)"
                )
            };
            let older: Vec<_> = r
                .tournaments
                .iter()
                .flat_map(|t| &t.older_spellings)
                .collect();
            writeln!(
                out,
                "{}: ok: an experiment: {hashes}; {} tournaments ({games} games) checked, \
                 rows against tallies against tables{rows}{}{}; rerun: {}",
                dir.display(),
                r.tournaments.len(),
                spelling_note(&older),
                kept_note(&r.kept),
                r.command
            )
            .map_err(CliError::failure)?;
            continue;
        }
        // A run of sim skill, sim balance or sim design: its files against their
        // recorded SHA-256.
        if let Ok(Some(m)) = crate::output::read_manifest(dir)
            && m.kind != "tournament"
        {
            let m = crate::output::verify_recorded(dir)
                .map_err(|e| CliError::bad_input(anyhow::anyhow!("'{}': {e}", dir.display())))?;
            writeln!(
                out,
                "{}: ok: a {} run of {} {}: {} files match their SHA-256 in manifest.json{}; \
                 rerun: {}",
                dir.display(),
                m.kind,
                m.program,
                m.version,
                m.hashes.len(),
                kept_note(&m.kept),
                m.command
            )
            .map_err(CliError::failure)?;
            continue;
        }
        let r = verify_with(dir, args.without_games).map_err(|e| {
            if e.is_bad_input() {
                CliError::bad_input(e)
            } else {
                CliError::failure(e)
            }
        })?;
        let rows = if r.rows_checked {
            "rows match checkpoint.json"
        } else {
            "rows NOT checked (games file absent, --without-games)"
        };
        let chain = match r.chain_blocks {
            Some(n) => format!("checksum chain of {n} blocks ok"),
            None => "no checksum chain (written by an older version: seal, length, SHA-256 \
                     and line count checked)"
                .into(),
        };
        writeln!(
            out,
            "{}: ok: {} games ({} failed), {rows}, {chain}, {} files \
             rebuilt from the tallies match: {}{}{}",
            r.dir.display(),
            r.games,
            r.failures,
            r.rebuilt.len(),
            r.rebuilt.join(", "),
            spelling_note(&r.older_spellings.iter().collect::<Vec<_>>()),
            kept_note(&r.kept)
        )
        .map_err(CliError::failure)?;
    }
    Ok(())
}

/// The note on files that a rerun left from an earlier run ([`crate::output::Manifest::kept`]):
/// empty when there are none.
fn kept_note(kept: &[String]) -> String {
    if kept.is_empty() {
        String::new()
    } else {
        format!(
            "; NOT checked: {} kept from an earlier run (a rerun did not write them again; \
             they are not results of this run): {}",
            kept.len(),
            kept.join(", ")
        )
    }
}

/// The note on agent specs recorded in an older spelling than today's
/// ([`crate::tournament::verify::recorded_agents`]): empty when there are none. Each
/// distinct spec once, with what the game's agent defaults would give it today where that
/// is not the agent that played.
fn spelling_note(older: &[&crate::tournament::verify::OlderSpelling]) -> String {
    let mut distinct: Vec<&crate::tournament::verify::OlderSpelling> = Vec::new();
    for o in older {
        if !distinct.iter().any(|d| d.recorded == o.recorded) {
            distinct.push(o);
        }
    }
    if distinct.is_empty() {
        return String::new();
    }
    let specs: Vec<String> = distinct
        .iter()
        .map(|o| {
            let mut t = format!("'{}' (today: '{}')", o.recorded, o.canonical);
            if !o.preset_would_set.is_empty() {
                t.push_str(&format!(
                    " [as text given to sim today it would take {} from the game's agent \
                     defaults: name the parameters to play this agent]",
                    o.preset_would_set.join(",")
                ));
            }
            t
        })
        .collect();
    format!(
        "; {} agent specs recorded in an older spelling, each the same agent as its \
         canonical form today (the files and the configuration hash checked with the \
         specs as recorded): {}",
        distinct.len(),
        specs.join(", ")
    )
}
