//! `sim replay`: reproduces one game of a tournament exactly, printing every seat's
//! observation and every move, to debug a failed or surprising game (the command that
//! `errors.csv` prints for a failed game).
//!
//! It is `sim play` ([`super::play::play_session`], the runner's game loop with the same
//! seeds and seating) with every seat's observation printed after setup and after each ply.
//! An agent that panics is reported with the game, the ply, the seat and the message.

use std::io::Write;

use clap::Args;

use super::play::{Io, Outcome, PlayOptions, play_session, session_error};
use super::{CliError, agent_specs};
use crate::tournament::Plan;

/// The long help of `sim replay`.
pub const LONG_ABOUT: &str = "\
Reproduce game I of `sim tournament --seed S` exactly and print it: the state after setup,
each ply's moves with what they did and the state after them, every seat's observation
(what its agent was shown), and the result. Give the tournament's agents (in the same
order), players and variants; the seeds are seed_for(S, I, 0) for chance and
seed_for(S, I, 1 + s) for seat s's agent, and the seating is the tournament's.

An agent that panics is reported with the game, the ply, the seat and the panic message
(exit code 1).";

/// Options of `sim replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Game (`sim list` shows the games).
    #[arg(short, long, help = super::game_help())]
    pub game: String,

    /// The tournament's agents, comma-separated, in the same order.
    #[arg(short, long, value_name = "SPECS", required = true)]
    pub agents: Vec<String>,

    /// The tournament's master seed.
    #[arg(long)]
    pub seed: u64,

    /// The game's index in the tournament (the `game` column of games.csv).
    #[arg(long)]
    pub index: u64,

    /// Players [default: the game's default].
    #[arg(short, long, value_name = "N")]
    pub players: Option<usize>,

    /// A rule variant setting (repeatable).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variant: Vec<String>,
}

/// Runs `sim replay`.
///
/// # Errors
/// Bad input (exit 2: unknown game or agent, bad variant, a `human` seat) or a failure
/// while playing (exit 1, an agent's panic with its ply).
pub fn run(args: &ReplayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let specs = agent_specs(&args.agents);
    crate::dispatch_game!(args.game.as_str(), G => {
        let plan = Plan::<G>::resolve(args.players, &args.variant, &specs, args.seed)?;
        if plan.lineup.entries().iter().any(|e| e == "human") {
            return Err(CliError::bad_input(anyhow::anyhow!(
                "sim replay plays agents only; to play a seat yourself use sim play"
            )));
        }
        let io = Io {
            out,
            input: None,
            observations: true,
        };
        match play_session(&plan, args.index, PlayOptions::fresh(), io) {
            Ok(Outcome::Finished(_)) => Ok(()),
            Ok(Outcome::Abandoned { ply }) => Err(CliError::failure(anyhow::anyhow!(
                "the game was abandoned at ply {ply}"
            ))),
            Err(e) => Err(session_error(e)),
        }
    })
    .map_err(CliError::bad_input)?
}
