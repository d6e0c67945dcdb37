//! The tournament runner: plays `n` games of one game between a lineup of agents, in
//! parallel, and writes tidy CSV plus summary statistics (DESIGN.md §1, §4, §7).
//!
//! # Reproducibility
//! Every game is a pure function of (master seed, game index, rule variant, player count,
//! lineup): game `g` draws its chance from `seed_for(seed, g, 0)` (with `--paired`,
//! `seed_for(seed, g / B, 0)`: [`paired`]) and the agent in seat `s`
//! from `seed_for(seed, g, 1 + s)` ([`crate::rng::seed_for`]); seats follow the balanced
//! schedule of [`plan`] ([`Lineup::seating`]). Games are played in
//! fixed-size chunks ([`run::CHUNK`]) and written in index order, so every output file is
//! byte-identical for any thread count. A single game can be replayed move by move with
//! `sim play --seed S --index g`.
//!
//! # Outputs
//! In the output directory ([`Settings::out`], created if needed), through one
//! [`crate::output::OutputDir`] (every file written as `NAME.partial`, renamed when the whole run
//! succeeded, `config.toml` last, so a directory holding `config.toml` holds a complete,
//! consistent set; a failed run removes its partial files, a killed one leaves a directory
//! that `--resume` continues or recognises as complete: the commit protocol of
//! [`crate::output`]; the directory is locked for the life of the run):
//! - `games.csv`: one row per (game, seat), streamed as games finish ([`records`]); agents
//!   and the rule variant appear as short labels;
//! - `agents.csv`: `agent,spec`, each agent label with its canonical spec
//!   ([`records::agent_labels`]: the kind, `kind#n` when kinds repeat);
//! - `variants.csv`: `variant,parameter,value,default`, every rule parameter of the
//!   variant label ([`records::variant_label`]: `default` or `v` + 8 hex digits);
//! - `summary.csv`, `seats.csv`, `agent_seats.csv`: per agent, per seat and per (agent, seat)
//!   win rates with 95% Wilson intervals, draws, scores and margins, and per agent the mean
//!   rank and the rank distribution ([`summary`]; an agent's win rate counts games, not its
//!   seats); agents by label;
//! - `seat_test.csv`: a test of equal seats (exact binomial at 2 seats, chi-square at 3–4)
//!   with its p-value and a one-line verdict ([`crate::stats::verdicts::SeatTest`]);
//! - `metrics.csv`: mean, sd and 95% interval of the score and of every seat metric per
//!   agent and seat outcome (won, draw, lost), and of every game metric and the game length
//!   ([`metrics`]);
//! - `ends.csv`: each end condition's share of the games with its interval, and the mean
//!   length of those games ([`metrics`]);
//! - `labels.csv` (only for games that declare labels or flag metrics): win rates per value
//!   of each label column (a Daimyo clan, each Dunhuang character in play or used), per
//!   agent and for all agents pooled ([`summary`]);
//! - `paired.csv` (only with `--paired`, [`Design::paired`]): differences between agents
//!   and between seats paired over deals ([`paired`]);
//! - `sequential.csv` (only with `--until-significant`): how the sequential test stopped
//!   ([`sequential`]);
//! - `decisiveness.csv` and `lead_changes.csv` (only with `--decisiveness`,
//!   [`Design::decisiveness`]): how often the leader after each round, and after 10%..90%
//!   of the rounds, wins, and the games by number of lead changes ([`decisiveness`]);
//! - `config.toml`: the program version, the command that reruns the tournament, whether
//!   that rerun is exact (`reproducible`, false when an agent searches on a wall-clock
//!   budget, [`not_reproducible_because`]), the resolved settings (every rule parameter and
//!   every agent parameter spelled out) and the labels ([`ConfigFile`]);
//! - `checkpoint.json`: the progress and integer tallies ([`checkpoint`]), sealed with the
//!   SHA-256 of its contents and carrying the SHA-256 of the games file, which `--resume`,
//!   `sim merge` and `sim verify` ([`verify`]) check.
//!
//! # Failures
//! A failed game (a panic, an illegal action, a game over its ply bound) is listed in
//! `errors.csv` and left out of every statistic; `sim tournament` then exits with status 1
//! unless `--allow-failures` (or `--allow-failures=SHARE` and at most that share failed).
//!
//! # Memory and speed
//! Statistics are accumulated incrementally ([`summary::Stats`]) and rows streamed, so memory
//! is flat in the number of games. A game record is a small `Copy` value and writing a row
//! allocates nothing.
//!
//! # Files
//! Running games lives here; the statistics they feed are [`crate::stats`] (tallies,
//! intervals, tests, paired and sequential statistics, decisiveness), printed with the
//! helpers of [`crate::format`].
//! - [`settings`]: what a tournament is asked for, its errors, `config.toml`, the rerun command;
//! - [`driver`]: resolving settings and running a tournament (directory, segments, writer,
//!   checkpoints, resume, progress, the files written at the end);
//! - [`plan`] (seating), [`mod@run`] (the rayon loop), [`records`] (game records and
//!   `games.csv` rows), [`games_file`], [`checkpoint`], [`shard`], [`merge`];
//! - [`summary`] ([`Stats`]), [`tallies`] (records into tallies), [`tables`] (the CSV
//!   tables), [`console`] (the console summary), [`metrics`] (`metrics.csv`, `ends.csv`),
//!   [`paired`], [`sequential`], [`decisiveness`]: the runner's side of those designs.

pub mod chain;
pub mod checkpoint;
pub mod console;
pub mod decisiveness;
pub mod driver;
pub mod games_file;
pub mod merge;
pub mod metrics;
pub mod paired;
pub mod plan;
pub mod records;
pub mod run;
pub mod sequential;
pub mod settings;
pub mod shard;
pub mod summary;
pub mod tables;
pub mod tallies;
pub mod verify;

#[cfg(test)]
mod tests;

pub use checkpoint::Checkpoint;
pub use driver::*;
pub use games_file::{GamesFile, GamesWriter};
pub use plan::{Lineup, Schedule, split_agent_list};
pub use records::GameRecord;
pub use run::{Event, Failure, Plan, play_game, play_game_with};
pub use settings::*;
pub use shard::Shard;
pub use summary::Stats;

// The statistics hold seats in arrays of `stats::MAX_SEATS`, filled from records of
// `game::MAX_PLAYERS` seats.
const _: () = assert!(crate::stats::MAX_SEATS == crate::game::MAX_PLAYERS);
