//! Helpers shared by the test modules that run the `sim` binary.

use std::path::Path;
use std::process::{Command, Output};

/// The files every tournament writes (`labels.csv` only for games with labels).
pub const FILES: [&str; 10] = [
    "games.csv",
    "agents.csv",
    "variants.csv",
    "summary.csv",
    "seats.csv",
    "agent_seats.csv",
    "seat_test.csv",
    "metrics.csv",
    "ends.csv",
    "config.toml",
];

/// Runs the `sim` binary with `args` in `cwd`.
pub fn sim(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the sim binary runs")
}

/// Bytes as text, lossily.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
