//! `sim play`: plays one game and prints it move by move: the state after setup, then each
//! ply's actions and the state after it, then the result. Game `--index g` under `--seed S`
//! is exactly game `g` of `sim tournament --seed S` with the same agents and settings (same
//! seeds, same seating), so any row of `games.csv` can be replayed. The output is
//! deterministic, which makes it usable for golden playthrough files.

use std::io::Write;

use anyhow::Context;
use clap::Args;

use super::{CliError, agent_specs};
use crate::game::{Game, Turn};
use crate::tournament::{Event, Plan, play_game, run::build_agents};

/// The long help of `sim play`.
pub const LONG_ABOUT: &str = "\
Play one game and print it move by move: the state after setup, each ply's actions with the
state after them, and the result.

`--index g` with `--seed S` replays game g of `sim tournament --seed S` with the same agents,
players and variant: the same seeds (chance from seed_for(S, g, 0), seat s's agent from
seed_for(S, g, 1 + s)) and the same seating (the tournament's balanced seating schedule).";

/// Options of `sim play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Game to play (`sim list` shows the games).
    #[arg(short, long, help = super::game_help())]
    pub game: String,

    /// Agents, comma-separated `kind` or `kind:key=value,...`, as for `sim tournament`.
    #[arg(short, long, value_name = "SPECS", required = true)]
    pub agents: Vec<String>,

    /// Master seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Game index within the tournament of that seed.
    #[arg(long, default_value_t = 0)]
    pub index: u64,

    /// Players [default: the game's default].
    #[arg(short, long, value_name = "N")]
    pub players: Option<usize>,

    /// A rule variant setting (repeatable).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variant: Vec<String>,
}

/// Plays game `index` of `plan` and writes the playthrough to `out`.
///
/// # Errors
/// A game error (a bug in the rules engine) or the I/O error of writing.
pub fn write_playthrough<G: Game>(
    plan: &Plan<G>,
    index: u64,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut agents = build_agents::<G>(&plan.lineup)?;
    let entries = plan.lineup.entries();
    writeln!(
        out,
        "{} with {} players, seed {}, game {} (chance seed {})",
        G::NAME,
        plan.rules.players(),
        plan.seed,
        index,
        crate::rng::seed_for(plan.seed, index, 0)
    )?;
    let variant = crate::params::ParamSet::canonical(plan.rules.params(), " ");
    if !variant.is_empty() {
        writeln!(out, "variant: {variant}")?;
    }
    for seat in 0..plan.rules.players() {
        writeln!(
            out,
            "seat {seat}: {}",
            entries[plan.lineup.entry_for(index, seat)]
        )?;
    }
    let mut io_result = Ok(());
    // The round a ply was played in is the round before it (the state after may have
    // moved on to the next round).
    let mut round = 0;
    let record = play_game(plan, &mut agents, index, |event| {
        if io_result.is_err() {
            return;
        }
        io_result = match event {
            Event::Start(state) => {
                round = state.round();
                writeln!(out, "\n{state}")
            }
            Event::Ply {
                turn,
                actions,
                after,
            } => {
                let moves: Vec<String> = actions
                    .iter()
                    .enumerate()
                    .filter_map(|(p, a)| a.map(|a| format!("seat {p} plays {a}")))
                    .collect();
                let kind = match turn {
                    Turn::Simultaneous(_) => " (simultaneous)",
                    _ => "",
                };
                let played_in = std::mem::replace(&mut round, after.round());
                writeln!(
                    out,
                    "\nply {}, round {played_in}{kind}: {}\n{after}",
                    after.ply(),
                    moves.join("; ")
                )
            }
        };
    })?;
    io_result?;
    writeln!(
        out,
        "\nend: {} after {} plies, {} rounds",
        record.end, record.plies, record.rounds
    )?;
    for seat in 0..plan.rules.players() {
        let outcome = if record.won(seat) {
            "won"
        } else if record.drew(seat) {
            "shared first place"
        } else {
            "lost"
        };
        writeln!(
            out,
            "seat {seat} ({}): score {}, rank {}, {outcome}",
            entries[record.lineup[seat] as usize], record.scores[seat], record.ranks[seat]
        )?;
    }
    Ok(())
}

/// Runs `sim play`.
///
/// # Errors
/// Bad input (exit 2) or a failure while playing or writing (exit 1).
pub fn run(args: &PlayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let specs = agent_specs(&args.agents);
    crate::dispatch_game!(args.game.as_str(), G => {
        let plan = Plan::<G>::resolve(args.players, &args.variant, &specs, args.seed)?;
        write_playthrough(&plan, args.index, out)
            .context("playing the game")
            .map_err(CliError::failure)
    })
    .map_err(CliError::bad_input)?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::Race;

    #[test]
    fn playthrough_is_deterministic_and_complete() {
        let plan = Plan::<Race>::resolve(Some(2), &["rounds=2"], &["greedy", "random"], 5).unwrap();
        let mut a = Vec::new();
        write_playthrough(&plan, 3, &mut a).unwrap();
        let mut b = Vec::new();
        write_playthrough(&plan, 3, &mut b).unwrap();
        assert_eq!(a, b);
        let text = String::from_utf8(a).unwrap();
        assert!(
            text.starts_with("race with 2 players, seed 5, game 3"),
            "{text}"
        );
        assert!(
            text.contains("seat 0: random\nseat 1: greedy:samples=4"),
            "{text}"
        );
        assert!(
            text.contains("ply 1, round 1 (simultaneous): seat 0 plays"),
            "{text}"
        );
        assert!(text.contains("ply 4, round 2: seat 1 plays"), "{text}");
        assert!(text.contains("end: rounds_done after 4 plies"), "{text}");
    }
}
