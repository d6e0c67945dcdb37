//! `sim play`: plays one game and prints it move by move: the state after setup, then each
//! ply's actions and the state after it, then the result. Game `--index g` under `--seed S`
//! is exactly game `g` of `sim tournament --seed S` with the same agents and settings (same
//! seeds, same seating), so any row of `games.csv` can be replayed. The output is
//! deterministic, which makes it usable for golden playthrough files.
//!
//! `--save-at PLY FILE` also writes the position after ply `PLY` with the game's random
//! streams ([`crate::position`]); `--start FILE` continues a saved position. A game saved at
//! ply `P` and continued with the same agents prints, from ply `P + 1` on, exactly what the
//! uninterrupted game prints: the saved streams carry on where they were.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{CliError, agent_specs};
use crate::game::{Game, GameStart, MAX_PLAYERS, PerPlayer, Turn, View, play_ply};
use crate::position::{Position, Streams};
use crate::rng::{SimRng, rng_for, seed_for};
use crate::tournament::records::GameRecord;
use crate::tournament::{Plan, run::build_agents};

/// The long help of `sim play`.
pub const LONG_ABOUT: &str = "\
Play one game and print it move by move: the state after setup, each ply's actions with the
state after them, and the result.

`--index g` with `--seed S` replays game g of `sim tournament --seed S` with the same agents,
players and variant: the same seeds (chance from seed_for(S, g, 0), seat s's agent from
seed_for(S, g, 1 + s)) and the same seating (the tournament's balanced seating schedule).

`--save-at PLY FILE` also writes the position after ply PLY (0 = after setup) to FILE as JSON
(format `tabletop-sim position v1`: the state with its rules, and the game's random streams);
the game goes on and prints as without it. `--start FILE` continues a saved position: the
players and variant come from the file; the seed and index default to the ones saved with it,
and then the saved streams are resumed, so with the same agents the game prints, from ply
PLY + 1 on, exactly what the uninterrupted game printed. Another --seed or --index continues
with that game's fresh streams instead. A saved position can be analysed with `sim analyze`.";

/// Options of `sim play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Game to play (`sim list` shows the games).
    #[arg(short, long, help = super::game_help())]
    pub game: String,

    /// Agents, comma-separated `kind` or `kind:key=value,...`, as for `sim tournament`.
    #[arg(short, long, value_name = "SPECS", required = true)]
    pub agents: Vec<String>,

    /// Master seed [default: 0, or the one saved with the --start position].
    #[arg(long)]
    pub seed: Option<u64>,

    /// Game index within the tournament of that seed [default: 0, or the one saved with the
    /// --start position].
    #[arg(long)]
    pub index: Option<u64>,

    /// Players [default: the game's default].
    #[arg(short, long, value_name = "N", conflicts_with = "start")]
    pub players: Option<usize>,

    /// A rule variant setting (repeatable).
    #[arg(long = "variant", value_name = "KEY=VALUE", conflicts_with = "start")]
    pub variant: Vec<String>,

    /// Also save the position after ply PLY (0 = after setup) to FILE, with the game's
    /// random streams; the game goes on as usual.
    #[arg(long, num_args = 2, value_names = ["PLY", "FILE"])]
    pub save_at: Option<Vec<String>>,

    /// Continue from a position saved by --save-at (players and variant come from it).
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,
}

/// Where a playthrough starts and what it saves ([`write_playthrough_with`]).
#[derive(Debug, Clone)]
pub struct PlayOptions<G: Game> {
    /// Continue this position (named by the string, for the header) instead of a fresh
    /// setup. Its streams are resumed when they were saved from the same seed and index;
    /// otherwise that game's fresh streams are used.
    pub start: Option<(Position<G>, String)>,
    /// Save the position after this ply to this file.
    pub save_at: Option<(u32, PathBuf)>,
}

impl<G: Game> PlayOptions<G> {
    /// A fresh game, nothing saved.
    pub fn fresh() -> Self {
        PlayOptions {
            start: None,
            save_at: None,
        }
    }
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
    write_playthrough_with(plan, index, PlayOptions::fresh(), out).map(|_| ())
}

/// The state and random streams a playthrough starts from.
struct Start<G> {
    state: G,
    chance: SimRng,
    seats: [SimRng; MAX_PLAYERS],
    note: Option<String>,
}

/// Game `index`'s fresh streams, exactly as the tournament runner seeds them.
fn fresh_streams(seed: u64, index: u64) -> (SimRng, [SimRng; MAX_PLAYERS]) {
    (
        crate::rng::rng_from_seed(seed_for(seed, index, 0)),
        std::array::from_fn(|s| rng_for(seed, index, 1 + s as u64)),
    )
}

fn start_from<G: Game>(
    plan: &Plan<G>,
    index: u64,
    start: Option<(Position<G>, String)>,
) -> Start<G> {
    let (chance, seats) = fresh_streams(plan.seed, index);
    let Some((pos, name)) = start else {
        let mut chance = chance;
        let state = G::new_game(plan.rules, &mut chance);
        return Start {
            state,
            chance,
            seats,
            note: None,
        };
    };
    let at = format!("start: position {name} at ply {}", pos.state.ply());
    match pos.streams {
        Some(st) if st.seed == plan.seed && st.index == index => Start {
            chance: st.chance.clone(),
            seats: st.seat_array(),
            state: pos.state,
            note: Some(format!("{at}, resuming its saved streams")),
        },
        saved => Start {
            state: pos.state,
            chance,
            seats,
            note: Some(match saved {
                Some(st) => format!(
                    "{at}, with fresh streams (it was saved from seed {} game {})",
                    st.seed, st.index
                ),
                None => format!("{at}, with fresh streams (none saved with it)"),
            }),
        },
    }
}

/// Plays game `index` of `plan` as [`write_playthrough`], from `options.start` if given,
/// saving the position of `options.save_at` if given. The game loop is the runner's
/// ([`crate::tournament::play_game`]): the same streams, seating, `start_game` calls and
/// ply bound, so a fresh game here is the tournament's game.
///
/// Returns the game's record, as the runner would write it.
///
/// # Errors
/// A game error (a bug in the rules engine), the I/O error of writing, or a save that could
/// not be written or whose ply the game never reached (naming the ply and the file).
pub fn write_playthrough_with<G: Game>(
    plan: &Plan<G>,
    index: u64,
    options: PlayOptions<G>,
    out: &mut dyn Write,
) -> anyhow::Result<GameRecord> {
    let mut agents = build_agents::<G>(&plan.lineup)?;
    let entries = plan.lineup.entries();
    let players = plan.rules.players();
    let chance_seed = seed_for(plan.seed, index, 0);
    writeln!(
        out,
        "{} with {} players, seed {}, game {} (chance seed {chance_seed})",
        G::NAME,
        players,
        plan.seed,
        index,
    )?;
    let Start {
        mut state,
        mut chance,
        seats: mut seat_rng,
        note,
    } = start_from(plan, index, options.start);
    if let Some(note) = note {
        writeln!(out, "{note}")?;
    }
    let variant = crate::params::ParamSet::canonical(plan.rules.params(), " ");
    if !variant.is_empty() {
        writeln!(out, "variant: {variant}")?;
    }
    let mut lineup: PerPlayer<u8> = [0; MAX_PLAYERS];
    for (seat, e) in lineup.iter_mut().enumerate().take(players) {
        *e = plan.lineup.entry_for(index, seat) as u8;
        writeln!(out, "seat {seat}: {}", entries[*e as usize])?;
    }
    for seat in 0..players {
        agents[lineup[seat] as usize].start_game(&GameStart {
            seat,
            index,
            rules: plan.rules,
        });
    }
    let mut save = options.save_at;
    let mut save_if_due = |state: &G, chance: &SimRng, seats: &[SimRng]| -> anyhow::Result<()> {
        if let Some((ply, file)) = save.as_ref().filter(|(ply, _)| *ply == state.ply()) {
            let pos = Position {
                state: state.clone(),
                streams: Some(Streams {
                    seed: plan.seed,
                    index,
                    chance: chance.clone(),
                    seats: seats[..players].to_vec(),
                }),
            };
            pos.save(file)?;
            eprintln!("saved the position after ply {ply} to {}", file.display());
            save = None;
        }
        Ok(())
    };
    writeln!(out, "\n{state}")?;
    save_if_due(&state, &chance, &seat_rng)?;
    // The round a ply was played in is the round before it (the state after may have
    // moved on to the next round).
    let mut round = state.round();
    let bound = state.max_plies();
    let first_ply = state.ply();
    while let Some((turn, actions)) = play_ply(&mut state, &mut chance, |s, p, _| {
        agents[lineup[p] as usize].act(&View::new(s, p), &mut seat_rng[p])
    }) {
        let moves: Vec<String> = actions
            .iter()
            .enumerate()
            .filter_map(|(p, a)| a.map(|a| format!("seat {p} plays {a}")))
            .collect();
        let kind = match turn {
            Turn::Simultaneous(_) => " (simultaneous)",
            _ => "",
        };
        let played_in = std::mem::replace(&mut round, state.round());
        writeln!(
            out,
            "\nply {}, round {played_in}{kind}: {}\n{state}",
            state.ply(),
            moves.join("; ")
        )?;
        save_if_due(&state, &chance, &seat_rng)?;
        if state.ply() > bound {
            anyhow::bail!("game {index}: game exceeded its bound of {bound} plies");
        }
    }
    let record = GameRecord::from_terminal(&state, index, chance_seed, lineup);
    writeln!(
        out,
        "\nend: {} after {} plies, {} rounds",
        record.end, record.plies, record.rounds
    )?;
    for seat in 0..players {
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
    if let Some((ply, file)) = save {
        return Err(UnreachedSave {
            ply,
            file,
            from: first_ply,
            to: state.ply(),
        }
        .into());
    }
    Ok(record)
}

/// `--save-at` named a ply the game never reached (before the start, or after the end).
#[derive(Debug, thiserror::Error)]
#[error(
    "--save-at {ply} {}: the game went from ply {from} to ply {to} and never reached ply {ply}; \
     nothing was saved",
    file.display()
)]
struct UnreachedSave {
    ply: u32,
    file: PathBuf,
    from: u32,
    to: u32,
}

/// Parses `--save-at PLY FILE`.
fn parse_save_at(values: &[String]) -> Result<(u32, PathBuf), CliError> {
    let [ply, file] = values else {
        return Err(CliError::bad_input(anyhow::anyhow!(
            "--save-at takes two values, PLY and FILE"
        )));
    };
    let ply = ply.trim().parse::<u32>().map_err(|_| {
        CliError::bad_input(anyhow::anyhow!(
            "--save-at: PLY '{ply}' is not a ply number (0 = after setup, 1, 2, ...)"
        ))
    })?;
    Ok((ply, PathBuf::from(file)))
}

/// Runs `sim play`.
///
/// # Errors
/// Bad input (exit 2: unknown game or agent, bad variant, unreadable position or one of
/// another game, a --save-at ply the game never reached) or a failure while playing or
/// writing (exit 1).
pub fn run(args: &PlayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let specs = agent_specs(&args.agents);
    let save_at = args.save_at.as_deref().map(parse_save_at).transpose()?;
    crate::dispatch_game!(args.game.as_str(), G => {
        let start = match &args.start {
            Some(path) => Some((
                Position::<G>::load(path).map_err(CliError::bad_input)?,
                format!("'{}'", path.display()),
            )),
            None => None,
        };
        let saved = start.as_ref().and_then(|(p, _)| p.streams.as_ref());
        let seed = args.seed.or(saved.map(|s| s.seed)).unwrap_or(0);
        let index = args.index.or(saved.map(|s| s.index)).unwrap_or(0);
        let (players, variant) = match &start {
            Some((p, _)) => (Some(p.state.num_players()), p.state.rules().variant()),
            None => (args.players, args.variant.clone()),
        };
        let mut plan = Plan::<G>::resolve(players, &variant, &specs, seed)?;
        if let Some((p, _)) = &start {
            plan.rules = p.state.rules();
        }
        let options = PlayOptions { start, save_at };
        write_playthrough_with(&plan, index, options, out).map(|_| ()).map_err(|e| {
            if e.is::<UnreachedSave>() || e.is::<crate::position::PositionError>() {
                CliError::bad_input(e)
            } else {
                CliError::failure(e.context("playing the game"))
            }
        })
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

    /// `sim play` has its own game loop (to save and resume streams): it must play the
    /// runner's games.
    #[test]
    fn the_play_loop_plays_the_tournament_games() {
        fn same<G: Game>(players: usize, agents: &[&str]) {
            let plan = Plan::<G>::resolve(Some(players), &[], agents, 11).unwrap();
            let mut runner = build_agents::<G>(&plan.lineup).unwrap();
            for index in 0..6 {
                let want = crate::tournament::play_game(&plan, &mut runner, index, |_| {}).unwrap();
                let got =
                    write_playthrough_with(&plan, index, PlayOptions::fresh(), &mut Vec::new())
                        .unwrap();
                assert_eq!(got, want, "{} game {index}", G::NAME);
            }
        }
        same::<Race>(3, &["mcts:iters=30", "greedy", "random"]);
        same::<crate::games::daxu::State>(2, &["mcts:iters=30", "cfr:iters=30"]);
        same::<crate::games::kuhn::State>(2, &["ismcts:iters=30", "greedy"]);
    }

    #[test]
    fn a_position_saved_mid_game_continues_the_same_game() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("race.json");
        let plan =
            Plan::<Race>::resolve(Some(3), &["rounds=3"], &["mcts:iters=20", "random"], 4).unwrap();
        let mut whole = Vec::new();
        let options = PlayOptions {
            start: None,
            save_at: Some((3, file.clone())),
        };
        let want = write_playthrough_with(&plan, 2, options, &mut whole).unwrap();
        let pos = Position::<Race>::load(&file).unwrap();
        assert_eq!(pos.state.ply(), 3);
        let mut rest = Vec::new();
        let options = PlayOptions {
            start: Some((pos, "saved".into())),
            save_at: None,
        };
        let got = write_playthrough_with(&plan, 2, options, &mut rest).unwrap();
        assert_eq!(got, want);
        let (whole, rest) = (
            String::from_utf8(whole).unwrap(),
            String::from_utf8(rest).unwrap(),
        );
        let tail = |t: &str| t[t.find("\nply 4,").unwrap()..].to_string();
        assert_eq!(tail(&rest), tail(&whole));
        assert!(rest.contains("start: position saved at ply 3, resuming its saved streams"));
    }
}
