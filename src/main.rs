//! `sim`: the command-line front end of tabletop-sim. Thin by design: parse the command
//! line, call the library ([`tabletop_sim::cli::run`]), map errors to exit codes (2 = bad
//! input, 1 = failure; clap's usage errors exit with 2).

use std::process::ExitCode;

use clap::Parser;
use tabletop_sim::cli::{Cli, run};

/// Counts each thread's allocations so `sim soak` can check that hot paths make none (one
/// thread-local increment per allocation).
#[global_allocator]
static GLOBAL: tabletop_sim::soak::CountingAlloc = tabletop_sim::soak::CountingAlloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "{}",
                tabletop_sim::cli::wrap_stderr(&format!("error: {:#}", e.error))
            );
            ExitCode::from(e.code)
        }
    }
}
