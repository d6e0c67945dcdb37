//! `sim play`: plays one game and prints it move by move: the state after setup, then each
//! ply's actions, what they did ([`crate::games::log`]) and the state after it, then the
//! result with its score breakdown. Seats of the agent kind `human` are played by the
//! person at the terminal ([`play_session`]). Game `--index g` under `--seed S`
//! is exactly game `g` of `sim tournament --seed S` with the same agents and settings (same
//! seeds, same seating), so any row of `games.csv` can be replayed. The output is
//! deterministic, which makes it usable for golden playthrough files.
//!
//! `--save-at PLY FILE` also writes the position after ply `PLY` with the game's random
//! streams ([`crate::position`]); `--start FILE` continues a saved position. A game saved at
//! ply `P` and continued with the same agents prints, from ply `P + 1` on, exactly what the
//! uninterrupted game prints: the saved streams carry on where they were.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use clap::Args;

use super::{CliError, agent_specs};
use crate::game::{
    GameStart, JointAction, MAX_PLAYERS, PerSeat, Playable, Seat, SeatSet, Turn, View, play_ply,
};
use crate::games::log::Audience;
use crate::position::{Position, Streams};
use crate::rng::SimRng;
use crate::tournament::records::GameRecord;
use crate::tournament::{Plan, run::build_agents};

/// The long help of `sim play`.
pub const LONG_ABOUT: &str = "\
Play one game and print it move by move: the state after setup, each ply's actions with the
state after them, and the result.

`--index g` with `--seed S` replays game g of `sim tournament --seed S` with the same agents,
players and variant: the same seeds (chance from seed_for(S, g, 0), seat s's agent from
seed_for(S, g, 1 + s)) and the same seating (the tournament's balanced seating schedule).
Add --paired for a game of a `sim tournament --paired` run (chance from its deal).

`--save-at PLY FILE` also writes the position after ply PLY (0 = after setup) to FILE as JSON
(format `tabletop-sim position v1`: the state with its rules, and the game's random streams);
the game goes on and prints as without it. `--start FILE` continues a saved position: the
players and variant come from the file; the seed and index default to the ones saved with it,
and then the saved streams are resumed, so with the same agents the game prints, from ply
PLY + 1 on, exactly what the uninterrupted game printed. Another --seed or --index continues
with that game's fresh streams instead. A saved position can be analysed with `sim analyze`.

Play against the AI: give the agent kind `human` for any seats (e.g. `--agents human,mcts`;
`--index` picks the deal and the seating). At each of its decisions a human seat is shown its
own view only and its legal moves, numbered; type a number or a move's name, `undo` (back to
your previous decision; the game replays exactly to it), `help` or `quit`. The log then tells
only what the human seats may know. The end of the input abandons the game (exit code 2).";

/// Options of `sim play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Game to play (`sim list` shows the games); with --start, the file names the game.
    #[arg(short, long, help = super::game_help(), required_unless_present = "start")]
    pub game: Option<String>,

    /// Agents, comma-separated `kind` or `kind:key=value,...`, as for `sim tournament`.
    #[arg(short, long, value_name = "SPECS", required = true)]
    pub agents: Vec<String>,

    /// Master seed [default: 0, or the one saved with the --start position].
    #[arg(long, value_parser = super::seed_u64, allow_negative_numbers = true)]
    pub seed: Option<u64>,

    /// Game index within the tournament of that seed [default: 0, or the one saved with the
    /// --start position].
    #[arg(long, value_parser = super::game_index, allow_negative_numbers = true)]
    pub index: Option<u64>,

    /// Players [default: the game's default].
    #[arg(short, long, value_name = "N", conflicts_with = "start", value_parser = super::positive_usize, allow_negative_numbers = true)]
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

    /// Replay game --index of a `sim tournament --paired` run: its chance comes from its
    /// deal, seed_for(S, floor(g / B), 0), B the seating block.
    #[arg(long)]
    pub paired: bool,

    /// Threads per decision of each search agent (mcts, ismcts, cfr): N independent
    /// searches, each with the agent's full budget and its own seed drawn from the seat's
    /// stream, merged at the root (summed visits, most visited move; root parallelism,
    /// Chaslot et al. 2008). 1 = the agent as in `sim tournament`. With N > 1 the game
    /// differs from the tournament's game of the same seed, but is the same for any
    /// scheduling of the threads. Not offered by `sim tournament`, which keeps one thread
    /// per game.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::positive_usize)]
    pub search_threads: usize,
}

/// Where a playthrough starts and what it saves ([`write_playthrough_with`]).
#[derive(Debug, Clone)]
pub struct PlayOptions<G: Playable> {
    /// Continue this position (named by the string, for the header) instead of a fresh
    /// setup. Its streams are resumed when they were saved from the same seed and index;
    /// otherwise that game's fresh streams are used.
    pub start: Option<(Position<G>, String)>,
    /// Save the position after this ply to this file.
    pub save_at: Option<(u32, PathBuf)>,
    /// Threads per search decision (root parallelism, [`crate::agents::parallel`]); 1 =
    /// each agent as it is.
    pub search_threads: usize,
}

impl<G: Playable> PlayOptions<G> {
    /// A fresh game, nothing saved.
    pub fn fresh() -> Self {
        PlayOptions {
            start: None,
            save_at: None,
            search_threads: 1,
        }
    }
}

/// Plays game `index` of `plan` and writes the playthrough to `out`.
///
/// # Errors
/// A game error (a bug in the rules engine) or the I/O error of writing.
pub fn write_playthrough<G: Playable>(
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

/// Game `index`'s fresh streams, exactly as the tournament runner seeds them (chance from
/// the game's deal, [`crate::tournament::Lineup::deal`]).
fn fresh_streams<G: Playable>(plan: &Plan<G>, index: u64) -> (SimRng, [SimRng; MAX_PLAYERS]) {
    (
        crate::rng::rng_from_seed(plan.chance_seed(index)),
        std::array::from_fn(|s| plan.seat_rng(index, s)),
    )
}

fn start_from<G: Playable>(
    plan: &Plan<G>,
    index: u64,
    start: Option<(Position<G>, String)>,
) -> Start<G> {
    let (chance, seats) = fresh_streams(plan, index);
    let Some((pos, name)) = start else {
        let mut chance = chance;
        // The setup's forced moves are told before ply 1 ([`GameLog::setup`]).
        let log = crate::games::log::log::<G>();
        log.listen();
        let state = G::new_game(plan.rules, &mut chance);
        log.heard(&state);
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

/// How a session is shown and driven: where its text goes, where human seats read their
/// moves, and whether every seat's observation is printed after each ply (`sim replay`).
pub struct Io<'a> {
    /// The transcript (and, with human seats, the prompts).
    pub out: &'a mut dyn Write,
    /// The moves of human seats (the terminal's stdin in `sim play`); `None` when no seat
    /// is human.
    pub input: Option<&'a mut dyn BufRead>,
    /// Print every seat's observation after setup and after every ply (`sim replay`).
    pub observations: bool,
}

/// How a session ended ([`play_session`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The game was played to the end; its record, as the runner writes it.
    Finished(Box<GameRecord>),
    /// A human typed `quit` at this ply.
    Abandoned {
        /// Plies played.
        ply: u32,
    },
}

/// The human seats' input ended (end of file) before the game did: bad input, exit 2.
#[derive(Debug, thiserror::Error)]
#[error(
    "the input ended while seat {seat} (human) was to move at ply {ply}; the game is \
     abandoned (type `quit` to leave a game)"
)]
pub struct InputClosed {
    seat: Seat,
    ply: u32,
}

/// An agent panicked during a session: the seat, its spec, the ply and the panic message.
#[derive(Debug, thiserror::Error)]
#[error("game {index}, ply {ply}: the agent of seat {seat} ({spec}) panicked: {message}")]
pub struct AgentPanic {
    index: u64,
    ply: u32,
    seat: Seat,
    spec: String,
    message: String,
}

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(a panic without a message)".into())
}

/// The agent kind that takes its moves from the terminal ([`crate::agents::human`]).
const HUMAN: &str = "human";

/// Plays game `index` of `plan` as [`write_playthrough`], from `options.start` if given,
/// saving the position of `options.save_at` if given. The game loop is the runner's
/// ([`crate::tournament::play_game`]): the same streams, seating, `start_game` calls and
/// ply bound, so a fresh game here is the tournament's game.
///
/// Returns the game's record, as the runner would write it.
///
/// # Errors
/// A game error (a bug in the rules engine), the I/O error of writing, or a save that could
/// not be written or whose ply the game never reached (naming the ply and the file); a
/// lineup with a `human` seat (use [`play_session`] with an input).
pub fn write_playthrough_with<G: Playable>(
    plan: &Plan<G>,
    index: u64,
    options: PlayOptions<G>,
    out: &mut dyn Write,
) -> anyhow::Result<GameRecord> {
    let io = Io {
        out,
        input: None,
        observations: false,
    };
    match play_session(plan, index, options, io)? {
        Outcome::Finished(record) => Ok(*record),
        Outcome::Abandoned { ply } => anyhow::bail!("the game was abandoned at ply {ply}"),
    }
}

/// What a human typed at a prompt.
enum Reply<A> {
    Act(A),
    Undo,
    Quit,
}

const HELP: &str = "Type the number of a move (or its name) and press Enter.
  undo   take back your previous decision (the game replays exactly to that point)
  help   show this help
  quit   abandon the game";

/// The width menu lines are wrapped at (columns; fixed so transcripts are reproducible).
const MENU_WIDTH: usize = 100;

/// The numbered moves `legal` of human `seat` at `state`, as lines: a move of its own
/// (`  12) plays Hero ...`), or all the moves of one group
/// ([`crate::games::log::GameLog::move_group`]) on one line under the group's heading, at
/// the place of the group's first move (`  takes the red 5 die for: 1) Help from Villagers,
/// 4) Production, ...`), wrapped between items at [`MENU_WIDTH`] columns. Every move keeps
/// its own number (its place in the legal moves), so the numbers typed do not depend on
/// the grouping.
fn menu<G: Playable>(state: &G, seat: Seat, legal: &[G::Action]) -> Vec<String> {
    let log = crate::games::log::log::<G>();
    // Entries in order of first appearance: a single move, or a group with its items.
    let mut entries: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for (i, a) in legal.iter().enumerate() {
        match log.move_group(state, seat, *a) {
            Some((head, item)) => {
                let item = format!("{}) {item}", i + 1);
                match entries.iter_mut().find(|(h, _)| h.as_ref() == Some(&head)) {
                    Some((_, items)) => items.push(item),
                    None => entries.push((Some(head), vec![item])),
                }
            }
            None => entries.push((
                None,
                vec![format!(
                    "  {:>3}) {}",
                    i + 1,
                    log.move_name(state, seat, *a)
                )],
            )),
        }
    }
    let mut lines = Vec::new();
    for (head, items) in entries {
        let Some(head) = head else {
            lines.extend(items);
            continue;
        };
        // Greedy wrap between items, never inside one (`1) Help from Villagers` stays whole).
        let mut line = format!("  {head}:");
        let last = items.len() - 1;
        for (k, item) in items.into_iter().enumerate() {
            let item = if k < last { format!("{item},") } else { item };
            if k > 0 && line.chars().count() + 1 + item.chars().count() > MENU_WIDTH {
                lines.push(std::mem::replace(&mut line, format!("      {item}")));
            } else {
                line.push(' ');
                line += &item;
            }
        }
        lines.push(line);
    }
    lines
}

/// Asks human `seat` for a move at `state` until the answer is valid.
fn prompt<G: Playable>(
    state: &G,
    seat: Seat,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<Reply<G::Action>> {
    let log = crate::games::log::log::<G>();
    let mut legal = Vec::new();
    state.legal_actions(seat, &mut legal);
    writeln!(
        out,
        "\n--- seat {seat} to move (ply {}, {}) ---\n{}\nmoves:",
        state.ply() + 1,
        crate::games::log::round_label(state.round()),
        log.view(state, seat)
    )?;
    for line in menu(state, seat, &legal) {
        writeln!(out, "{line}")?;
    }
    loop {
        write!(out, "seat {seat}> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Err(InputClosed {
                seat,
                ply: state.ply() + 1,
            }
            .into());
        }
        let text = line.trim();
        match text.to_ascii_lowercase().as_str() {
            "" => {
                writeln!(out, "type a move's number (1-{}), or help", legal.len())?;
                continue;
            }
            "undo" | "u" => return Ok(Reply::Undo),
            "quit" | "q" | "exit" => return Ok(Reply::Quit),
            "help" | "h" | "?" => {
                writeln!(out, "{HELP}\nthe moves of this decision:")?;
                for line in menu(state, seat, &legal) {
                    writeln!(out, "{line}")?;
                }
                continue;
            }
            _ => {}
        }
        if let Ok(n) = text.parse::<usize>() {
            match legal.get(n.wrapping_sub(1)) {
                Some(a) => return Ok(Reply::Act(*a)),
                None => {
                    writeln!(
                        out,
                        "there is no move {n}: the moves are numbered 1 to {}",
                        legal.len()
                    )?;
                    continue;
                }
            }
        }
        match legal.iter().find(|a| {
            a.to_string().eq_ignore_ascii_case(text)
                || log.move_name(state, seat, **a).eq_ignore_ascii_case(text)
        }) {
            Some(a) => return Ok(Reply::Act(*a)),
            None => writeln!(
                out,
                "'{text}' is not a legal move here: type a number from 1 to {}, a move's \
                 name, undo, help or quit",
                legal.len()
            )?,
        }
    }
}

/// Plays game `index` of `plan` as one session: agents play their seats, human seats
/// (agent kind `human`) are asked through `io.input`, and the game is told on `io.out`.
///
/// Without human seats the transcript is omniscient (the whole state after each ply, as
/// [`write_playthrough_with`] prints it). With human seats it tells only what the human
/// seats may know ([`Audience::Seats`]): each human is shown its own view
/// ([`crate::games::log::GameLog::view`]) and its legal moves, numbered; the log names
/// other seats' moves only when they are public. `undo` takes back the last human decision:
/// the game restarts from its streams and replays every decision up to that point (agents
/// are asked again and answer the same, by the agent contract), so the position is exactly
/// the one at that decision.
///
/// # Errors
/// As [`write_playthrough_with`]; [`InputClosed`] when the input ends before the game;
/// [`AgentPanic`] when an agent panics (naming the seat and the ply).
pub fn play_session<G: Playable>(
    plan: &Plan<G>,
    index: u64,
    options: PlayOptions<G>,
    mut io: Io<'_>,
) -> anyhow::Result<Outcome> {
    let mut agents = if options.search_threads > 1 {
        plan.lineup
            .entries()
            .iter()
            .map(|s| crate::agents::parallel::build_parallel::<G>(s, options.search_threads))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        build_agents::<G>(&plan.lineup)?
    };
    let entries = plan.lineup.entries();
    let players = plan.rules.players();
    let log = crate::games::log::log::<G>();
    let chance_seed = plan.chance_seed(index);
    let mut lineup: PerSeat<u8> = [0; MAX_PLAYERS];
    let mut humans = SeatSet::EMPTY;
    for (seat, e) in lineup.iter_mut().enumerate().take(players) {
        *e = plan.lineup.entry_for(index, seat) as u8;
        if entries[*e as usize] == HUMAN {
            humans.0 |= SeatSet::single(seat).0;
        }
    }
    if !humans.is_empty() && io.input.is_none() {
        anyhow::bail!("a `human` seat needs a terminal: use `sim play`");
    }
    let audience = if humans.is_empty() {
        Audience::All
    } else {
        Audience::Seats(humans)
    };
    let out = &mut *io.out;
    writeln!(
        out,
        "{} with {} players, seed {}, game {} (chance seed {chance_seed})",
        G::NAME,
        players,
        plan.seed,
        index,
    )?;
    let variant = crate::params::ParamSet::canonical(plan.rules.params(), " ");
    if !variant.is_empty() {
        writeln!(out, "variant: {variant}")?;
    }
    let names: Vec<String> = entries.iter().map(|e| short_spec::<G>(e)).collect();
    for seat in 0..players {
        writeln!(out, "seat {seat}: {}", names[lineup[seat] as usize])?;
    }
    if !humans.is_empty() {
        writeln!(out, "(type help at a prompt for the commands)")?;
    }
    let print_observations = |out: &mut dyn Write, state: &G| -> std::io::Result<()> {
        for seat in 0..players {
            writeln!(out, "[seat {seat} sees]\n{}", log.view(state, seat))?;
        }
        Ok(())
    };
    let mut save = options.save_at;
    // The human decisions so far, in the order they were asked; `undo` pops the last one
    // and the game is replayed from its start with the rest.
    let mut decisions: Vec<G::Action> = Vec::new();
    let mut first_pass = true;
    'game: loop {
        let Start {
            mut state,
            mut chance,
            seats: mut seat_rng,
            note,
        } = start_from(plan, index, options.start.clone());
        for seat in 0..players {
            // An agent may fail as it joins (an external program that does not start or
            // greet): a failure like one while acting (exit 1), not a crash.
            let joined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                agents[lineup[seat] as usize].start_game(&GameStart {
                    seat,
                    index,
                    rules: plan.rules,
                })
            }));
            if let Err(payload) = joined {
                return Err(AgentPanic {
                    index,
                    ply: state.ply(),
                    seat,
                    spec: entries[lineup[seat] as usize].clone(),
                    message: panic_message(payload.as_ref()),
                }
                .into());
            }
        }
        // After an undo the game replays silently (it was told before) up to the prompt.
        let mut quiet = !first_pass;
        let mut used = 0;
        if first_pass {
            if let Some(note) = note {
                writeln!(out, "{note}")?;
            }
            writeln!(out)?;
            let setup = log.setup(&state, audience);
            if !setup.is_empty() {
                writeln!(out, "setup:")?;
                for line in setup {
                    writeln!(out, "  {line}")?;
                }
            }
            if audience == Audience::All {
                writeln!(out, "{}", log.state(&state))?;
            }
            if io.observations {
                print_observations(out, &state)?;
            }
        }
        first_pass = false;
        let mut save_if_due =
            |state: &G, chance: &SimRng, seats: &[SimRng]| -> anyhow::Result<()> {
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
        save_if_due(&state, &chance, &seat_rng)?;
        // The round a ply was played in is the round before it (the state after may have
        // moved on to the next round).
        let mut round = state.round();
        let bound = state.max_plies();
        let first_ply = state.ply();
        loop {
            let turn = state.turn();
            if turn.is_terminal() {
                break;
            }
            let mut chosen: JointAction<G::Action> = [None; MAX_PLAYERS];
            for p in turn.actors().iter().filter(|&p| humans.contains(p)) {
                if used < decisions.len() {
                    chosen[p] = Some(decisions[used]);
                    used += 1;
                    continue;
                }
                quiet = false;
                let input = io
                    .input
                    .as_deref_mut()
                    .expect("checked: humans have an input");
                loop {
                    match prompt(&state, p, input, out)? {
                        Reply::Act(a) => {
                            decisions.push(a);
                            used += 1;
                            chosen[p] = Some(a);
                            break;
                        }
                        Reply::Undo if decisions.is_empty() => {
                            writeln!(out, "nothing to undo: this is the first decision")?;
                        }
                        Reply::Undo => {
                            decisions.pop();
                            writeln!(out, "undone: back to the previous decision")?;
                            continue 'game;
                        }
                        Reply::Quit => {
                            writeln!(out, "game abandoned at ply {}", state.ply())?;
                            return Ok(Outcome::Abandoned { ply: state.ply() });
                        }
                    }
                }
            }
            let before = state.clone();
            let mut asked = None;
            let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let played = play_ply(&mut state, &mut chance, |s, p, _| {
                    let a = match chosen[p] {
                        Some(a) => a,
                        None => {
                            asked = Some(p);
                            agents[lineup[p] as usize].act(&View::new(s, p), &mut seat_rng[p])
                        }
                    };
                    // The forced moves of the apply that follows are told with the ply.
                    log.listen();
                    a
                });
                log.heard(&state);
                played
            }));
            let (turn, actions) = match played {
                Ok(Some(x)) => x,
                Ok(None) => break,
                Err(payload) => {
                    let seat = asked.unwrap_or(0);
                    return Err(AgentPanic {
                        index,
                        ply: before.ply() + 1,
                        seat,
                        spec: entries[lineup[seat] as usize].clone(),
                        message: panic_message(payload.as_ref()),
                    }
                    .into());
                }
            };
            let played_in = std::mem::replace(&mut round, state.round());
            if !quiet {
                let moves: Vec<String> = actions
                    .iter()
                    .enumerate()
                    .filter_map(|(p, a)| a.map(|a| log.action(&before, p, a, audience)))
                    .collect();
                let kind = match turn {
                    Turn::Simultaneous(_) => " (simultaneous)",
                    _ => "",
                };
                writeln!(
                    out,
                    "\nply {}, {}{kind}: {}",
                    state.ply(),
                    crate::games::log::round_label(played_in),
                    moves.join("; ")
                )?;
                for line in log.consequences(&before, &actions, &state, audience) {
                    writeln!(out, "  {line}")?;
                }
                if audience == Audience::All {
                    writeln!(out, "{}", log.state(&state))?;
                }
                if io.observations {
                    print_observations(out, &state)?;
                }
            }
            save_if_due(&state, &chance, &seat_rng)?;
            if state.ply() > bound {
                anyhow::bail!("game {index}: game exceeded its bound of {bound} plies");
            }
        }
        for seat in 0..players {
            // An agent may fail after the last move (an external program that answered a
            // request twice): the game fails (exit 1), as in a tournament.
            let ended = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                agents[lineup[seat] as usize].end_game(&View::new(&state, seat))
            }));
            if let Err(payload) = ended {
                return Err(AgentPanic {
                    index,
                    ply: state.ply(),
                    seat,
                    spec: entries[lineup[seat] as usize].clone(),
                    message: panic_message(payload.as_ref()),
                }
                .into());
            }
        }
        let record = GameRecord::from_terminal(&state, index, chance_seed, lineup);
        writeln!(
            out,
            "\nend: {} after {} plies, {} rounds",
            record.end, record.plies, record.rounds
        )?;
        for line in log.breakdown(&state) {
            writeln!(out, "  {line}")?;
        }
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
                names[record.lineup[seat] as usize], record.scores[seat], record.ranks[seat]
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
        return Ok(Outcome::Finished(Box::new(record)));
    }
}

/// How a transcript names the agent of canonical spec `entry`: its kind alone (`mcts`) when
/// the spec is that kind with game `G`'s defaults (the preset `--agents mcts` stands for,
/// [`crate::games::defaults_of`]), so the common case does not spell out every parameter;
/// otherwise the whole spec, which says exactly what played.
pub fn short_spec<G: Playable>(entry: &str) -> String {
    let kind = entry.split(':').next().unwrap_or(entry);
    match crate::agents::canonicalize_with(kind, crate::games::defaults_of(G::NAME)) {
        Ok(preset) if preset == entry => kind.to_string(),
        _ => entry.to_string(),
    }
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

/// The exit code of a failed session: 2 for bad input (a save the game never reached, an
/// unreadable position, the human's input ended), 1 for a failure while playing.
pub(crate) fn session_error(e: anyhow::Error) -> CliError {
    if e.is::<UnreachedSave>() || e.is::<crate::position::PositionError>() || e.is::<InputClosed>()
    {
        CliError::bad_input(e)
    } else {
        CliError::failure(e.context("playing the game"))
    }
}

/// The game a saved position names (`sim play --start FILE` without `--game`).
///
/// # Errors
/// Bad input (exit 2): the file cannot be read or is not a saved position.
fn game_of_file(path: &std::path::Path) -> Result<String, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::bad_input(anyhow::anyhow!("--start {}: {e}", path.display())))?;
    crate::position::game_of(&text)
        .map_err(|e| CliError::bad_input(anyhow::anyhow!("--start {}: {e}", path.display())))
}

/// The lineup `sim play` seats: with a `human` among fewer specs than `players`, the rest
/// of the table takes the last AI named (or the default AI, `mcts`, when only humans were
/// named), so `--agents human,mcts` at four players is one human against three `mcts`,
/// never a second human unless asked (a tournament's rotation would seat each entry
/// equally often). Lineups without a human, or already as long as the table, are kept.
pub fn fill_lineup(specs: &[String], players: usize) -> Vec<String> {
    if specs.len() >= players || !specs.iter().any(|s| s.trim() == HUMAN) {
        return specs.to_vec();
    }
    let filler = specs
        .iter()
        .rev()
        .find(|s| s.trim() != HUMAN)
        .cloned()
        .unwrap_or_else(|| "mcts".to_string());
    let mut out = specs.to_vec();
    out.resize(players, filler);
    out
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
    let game = match (&args.game, &args.start) {
        (Some(g), _) => g.clone(),
        (None, Some(path)) => game_of_file(path)?,
        (None, None) => {
            return Err(CliError::bad_input(anyhow::anyhow!(
                "--game is required (or --start FILE, which names the game)"
            )));
        }
    };
    crate::dispatch_game!(game.as_str(), G => {
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
        let specs = fill_lineup(&specs, players.unwrap_or(G::DEFAULT_PLAYERS));
        let mut plan = Plan::<G>::resolve(players, &variant, &specs, seed)?;
        plan.lineup.set_paired(args.paired);
        if let Some((p, _)) = &start {
            plan.rules = p.state.rules();
        }
        let options = PlayOptions {
            start,
            save_at,
            search_threads: args.search_threads,
        };
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let io = Io {
            out,
            input: Some(&mut input),
            observations: false,
        };
        match play_session(&plan, index, options, io) {
            Ok(_) => Ok(()),
            Err(e) => Err(session_error(e)),
        }
    })
    .map_err(CliError::bad_input)?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState;
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
        assert!(text.contains("seat 0: random\nseat 1: greedy\n"), "{text}");
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
        fn same<G: Playable>(players: usize, agents: &[&str]) {
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

    /// A human session (scripted input) against a searching agent: a decision undone and
    /// taken again differently plays exactly the game in which it was taken so at once.
    #[test]
    fn undo_replays_to_the_same_game_as_never_having_decided_otherwise() {
        let plan =
            Plan::<Race>::resolve(Some(2), &["rounds=3"], &["human", "mcts:iters=30"], 9).unwrap();
        let session = |script: &str| {
            let mut out = Vec::new();
            let mut input = script.as_bytes();
            let io = Io {
                out: &mut out,
                input: Some(&mut input),
                observations: false,
            };
            let outcome = play_session(&plan, 0, PlayOptions::fresh(), io).unwrap();
            (outcome, String::from_utf8(out).unwrap())
        };
        let rest = "1\n".repeat(20);
        let (straight, a) = session(&format!("1\n2\n{rest}"));
        let (undone, b) = session(&format!("1\n1\nundo\n2\n{rest}"));
        assert!(matches!(straight, Outcome::Finished(_)), "{a}");
        assert_eq!(straight, undone);
        assert!(b.contains("undone: back to the previous decision"), "{b}");
        // After the undo the session goes on exactly as the one that took the second
        // decision so at once: the same prompt (the position before the undone move), the
        // same moves, the same end.
        let second = a.match_indices("\n--- seat 0 to move").nth(1).unwrap().0;
        let undone_at = b.rfind("undone: back to the previous decision\n").unwrap();
        let after_undo = &b[undone_at + "undone: back to the previous decision\n".len()..];
        assert_eq!(after_undo, &a[second..]);
        // quit abandons; nothing to undo before the first decision.
        let (quit, text) = session("undo\nquit\n");
        assert_eq!(quit, Outcome::Abandoned { ply: 0 });
        assert!(text.contains("nothing to undo"), "{text}");
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
            search_threads: 1,
        };
        let want = write_playthrough_with(&plan, 2, options, &mut whole).unwrap();
        let pos = Position::<Race>::load(&file).unwrap();
        assert_eq!(pos.state.ply(), 3);
        let mut rest = Vec::new();
        let options = PlayOptions {
            start: Some((pos, "saved".into())),
            save_at: None,
            search_threads: 1,
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

    #[test]
    fn a_short_lineup_seats_one_human_against_the_named_ai() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            fill_lineup(&s(&["human", "greedy"]), 4),
            s(&["human", "greedy", "greedy", "greedy"])
        );
        assert_eq!(
            fill_lineup(&s(&["human"]), 3),
            s(&["human", "mcts", "mcts"])
        );
        assert_eq!(
            fill_lineup(&s(&["human", "human"]), 2),
            s(&["human", "human"])
        );
        assert_eq!(
            fill_lineup(&s(&["greedy", "random"]), 4),
            s(&["greedy", "random"])
        );
        // Whatever the game index, the filled lineup seats exactly one human.
        let specs = fill_lineup(&s(&["human", "greedy"]), 4);
        let plan = Plan::<Race>::resolve(Some(4), &[] as &[String], &specs, 1).unwrap();
        for index in 0..8 {
            let humans = (0..4)
                .filter(|&seat| plan.lineup.entries()[plan.lineup.entry_for(index, seat)] == HUMAN)
                .count();
            assert_eq!(humans, 1, "game {index}");
        }
    }

    #[test]
    fn help_lists_the_moves_of_the_decision() {
        let plan =
            Plan::<Race>::resolve(Some(2), &[] as &[&str], &["random", "random"], 1).unwrap();
        let state = Race::new_game(plan.rules, &mut crate::rng::rng_from_seed(1));
        let mut input: &[u8] = b"help\nquit\n";
        let mut out = Vec::new();
        let seat = state.turn().actors().iter().next().expect("a seat acts");
        let _ = prompt(&state, seat, &mut input, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let after_help = &text[text.find("the moves of this decision:").unwrap()..];
        let mut legal = Vec::new();
        state.legal_actions(seat, &mut legal);
        let log = crate::games::log::log::<Race>();
        for a in &legal {
            assert!(
                after_help.contains(&log.move_name(&state, seat, *a)),
                "{text}"
            );
        }
    }

    /// Daimyo's die choice (every die once per open action space) is grouped one line per
    /// die, and every legal move keeps its own number, exactly once.
    #[test]
    fn the_daimyo_menu_groups_a_die_s_spaces_and_numbers_every_move_once() {
        use crate::games::daimyo;
        let plan =
            Plan::<daimyo::State>::resolve(Some(2), &[] as &[&str], &["random", "random"], 0)
                .unwrap();
        let mut rng = crate::rng::rng_from_seed(3);
        let mut state = daimyo::State::new_game(plan.rules, &mut rng);
        let mut buf = Vec::new();
        let log = crate::games::log::log::<daimyo::State>();
        // Play randomly to the first die choice.
        let (seat, legal) = loop {
            let seat = state.turn().actors().iter().next().expect("a seat acts");
            let mut legal = Vec::new();
            state.legal_actions(seat, &mut legal);
            if legal
                .iter()
                .any(|a| log.move_name(&state, seat, *a).starts_with("takes the "))
            {
                break (seat, legal);
            }
            let a = state.random_action(seat, &mut buf, &mut rng);
            state.apply(seat, a, &mut rng).unwrap();
        };
        let lines = menu(&state, seat, &legal);
        let text = lines.join("\n");
        assert!(lines.len() < legal.len(), "{text}");
        let numbers: Vec<usize> = text
            .split(|c: char| !c.is_ascii_digit() && c != ')')
            .filter_map(|w| w.strip_suffix(')')?.parse().ok())
            .collect();
        let mut sorted = numbers.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=legal.len()).collect::<Vec<_>>(), "{text}");
        for (i, a) in legal.iter().enumerate() {
            let (head, item) = log
                .move_group(&state, seat, *a)
                .expect("a die's move is grouped");
            let line = lines
                .iter()
                .find(|l| l.contains(&format!(" {}) {item}", i + 1)))
                .unwrap_or_else(|| panic!("move {} not listed:\n{text}", i + 1));
            assert!(line.contains(&head) || line.starts_with("      "), "{text}");
            assert_eq!(
                lines
                    .iter()
                    .filter(|l| l.contains(&format!("{head}:")))
                    .count(),
                1
            );
        }
    }

    /// The transcript names an agent whose spec is the game's preset by its kind alone,
    /// and spells out any other spec.
    #[test]
    fn the_transcript_names_the_preset_mcts_by_its_kind() {
        use crate::games::daimyo;
        let preset =
            crate::agents::canonicalize_with("mcts", crate::games::defaults_of("daimyo")).unwrap();
        assert!(preset.len() > "mcts".len(), "{preset}");
        assert_eq!(short_spec::<daimyo::State>(&preset), "mcts");
        let other =
            crate::agents::canonicalize_with("mcts:iters=76", crate::games::defaults_of("daimyo"))
                .unwrap();
        assert_eq!(short_spec::<daimyo::State>(&other), other);
        // The built-in defaults are not Daimyo's preset.
        let plain = crate::agents::canonicalize("mcts").unwrap();
        assert_eq!(short_spec::<daimyo::State>(&plain), plain);
        let plan = Plan::<daimyo::State>::resolve(Some(2), &[] as &[&str], &["mcts", "random"], 0)
            .unwrap();
        let mut out = Vec::new();
        write_playthrough(&plan, 0, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\nseat 0: mcts\n"), "{}", &text[..400]);
        assert!(
            text.contains("\nseat 0 (mcts): score "),
            "{}",
            &text[text.len() - 400..]
        );
    }
}
