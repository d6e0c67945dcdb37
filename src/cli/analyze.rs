//! `sim analyze`: what an agent thinks of a saved position. For each seat that acts there
//! (or the one `--seat` names), it runs the agent's deliberation once ([`Agent::analyze`])
//! and prints every legal action with its name, its stable id and the agent's statistics:
//! root visits and mean value (`mcts`, `ismcts`), the regret-matching average strategy
//! (`cfr`), the mean evaluation (`greedy`).
//!
//! Output: an aligned table with a short header (`--format table`), or CSV with one row
//! per (seat, action) and every column, empty where the agent has no such statistic
//! (`--format csv`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::{Args, ValueEnum};

use super::CliError;
use crate::agents::{self, ActionStat, Agent};
use crate::game::{GameStart, Playable, Seat, View};
use crate::position::Position;
use crate::rng::rng_for;

/// The long help of `sim analyze`.
pub const LONG_ABOUT: &str = "\
Analyse a saved position (written by `sim play --save-at PLY FILE`, format `tabletop-sim
position v1`) with one agent: for the seat to move (each acting seat at a simultaneous node,
or the one --seat names), list every legal action with its name, its id and the agent's
statistics, from one run of the agent's full deliberation:

  mcts, ismcts  visits (summed over worlds; they sum to the iterations), share of the
                visits, mean value (mean root reward for the seat, in the units of the
                game's returns)
  cfr           probability of the root average strategy (regret matching)
  greedy        mean evaluation (the game's value estimate after the action)
  random        no statistics; the legal actions are listed

The agent sees only what its seat may see (it determinizes the rest). Its random stream
is seed_for(SEED, 0, 1 + seat), so a rerun with the same --seed prints the same numbers
(unless the agent uses a time budget). --format csv prints
`seat,action,id,visits,value,probability` rows, empty where the agent has no such value.

With --observation (no agent needed) it prints instead what each seat (or --seat) sees:
its observation string, its information-state key and its observation tensor field by
field (`sim info` documents the layout); --format csv prints `seat,field,index,value`.";

/// Output format of `sim analyze`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// An aligned table with a header naming the position, seat and agent.
    Table,
    /// CSV: `seat,action,id,visits,value,probability`.
    Csv,
}

/// Options of `sim analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Game of the position (`sim list` shows the games).
    #[arg(short, long)]
    pub game: String,

    /// The position file (JSON, from `sim play --save-at`).
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,

    /// The agent: `kind` or `kind:key=value,...` (e.g. `mcts:iters=5000`), or a preset
    /// (required unless --observation).
    #[arg(long, value_name = "SPEC", required_unless_present = "observation")]
    pub agent: Option<String>,

    /// Print what the seat sees instead of running an agent: its observation string, its
    /// information-state key and its observation tensor field by field (every seat, or the
    /// one --seat names; any seat, acting or not).
    #[arg(long)]
    pub observation: bool,

    /// Seed of the agent's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Analyse only this seat [default: every seat that acts].
    #[arg(long, value_name = "N")]
    pub seat: Option<usize>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Threads for the decision of a search agent (mcts, ismcts, cfr): N independent
    /// searches, each with the agent's full budget and its own seed drawn from --seed's
    /// stream, merged at the root (visits summed, values visit-weighted, cfr's
    /// probabilities averaged; root parallelism, Chaslot et al. 2008). 1 = the agent
    /// alone, exactly as before. The result is the same for any scheduling of the threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::positive_usize)]
    pub search_threads: usize,
}

/// One seat's analysis: its legal actions with the agent's statistics (or `None` when the
/// agent keeps none).
#[derive(Debug, Clone)]
pub struct SeatAnalysis<A> {
    /// The seat.
    pub seat: Seat,
    /// The legal actions, sorted.
    pub legal: Vec<A>,
    /// The agent's statistics, one per legal action, or `None`.
    pub stats: Option<Vec<ActionStat<A>>>,
}

/// Runs `agent` on `state` for each seat in `seats` (fresh start of game for each, random
/// stream `seed_for(seed, 0, 1 + seat)`).
pub fn analyze_seats<G: Playable>(
    state: &G,
    seats: &[Seat],
    agent: &mut dyn Agent<G>,
    seed: u64,
) -> Vec<SeatAnalysis<G::Action>> {
    seats
        .iter()
        .map(|&seat| {
            agent.start_game(&GameStart {
                seat,
                index: 0,
                rules: state.rules(),
            });
            let view = View::new(state, seat);
            let mut legal = Vec::new();
            view.legal_actions(&mut legal);
            let mut rng = rng_for(seed, 0, 1 + seat as u64);
            let stats = agent.analyze(&view, &mut rng);
            SeatAnalysis { seat, legal, stats }
        })
        .collect()
}

fn stat_of<A: PartialEq>(stats: &Option<Vec<ActionStat<A>>>, a: &A) -> Option<ActionStat<()>> {
    stats
        .as_ref()?
        .iter()
        .find(|s| s.action == *a)
        .map(|s| ActionStat {
            action: (),
            visits: s.visits,
            value: s.value,
            probability: s.probability,
        })
}

/// Writes CSV rows `seat,action,id,visits,value,probability` (with a header).
///
/// # Errors
/// The I/O error of writing.
pub fn write_csv<G: Playable>(
    analyses: &[SeatAnalysis<G::Action>],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out, "seat,action,id,visits,value,probability")?;
    for a in analyses {
        for action in &a.legal {
            let s = stat_of(&a.stats, action);
            let opt = |x: Option<String>| x.unwrap_or_default();
            writeln!(
                out,
                "{},{},{},{},{},{}",
                a.seat,
                csv_field(&action.to_string()),
                G::action_id(*action),
                opt(s.and_then(|s| s.visits).map(|v| v.to_string())),
                opt(s.and_then(|s| s.value).map(|v| format!("{v:.6}"))),
                opt(s.and_then(|s| s.probability).map(|v| format!("{v:.6}"))),
            )?;
        }
    }
    Ok(())
}

/// Quotes a CSV field when it needs it.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes one aligned table per seat: the action, its id, and the columns the agent fills
/// (visits with their share, value, probability), with a total row for visits.
///
/// # Errors
/// The I/O error of writing.
pub fn write_table<G: Playable>(
    analyses: &[SeatAnalysis<G::Action>],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for a in analyses {
        writeln!(out, "\nseat {} legal actions: {}", a.seat, a.legal.len())?;
        let rows: Vec<(String, Option<ActionStat<()>>)> = a
            .legal
            .iter()
            .map(|x| (x.to_string(), stat_of(&a.stats, x)))
            .collect();
        let has =
            |f: fn(&ActionStat<()>) -> bool| rows.iter().any(|(_, s)| s.is_some_and(|s| f(&s)));
        let (visits, value, prob) = (
            has(|s| s.visits.is_some()),
            has(|s| s.value.is_some()),
            has(|s| s.probability.is_some()),
        );
        let total: u64 = rows
            .iter()
            .filter_map(|(_, s)| s.and_then(|s| s.visits))
            .sum();
        let mut header = vec!["action".to_string(), "id".to_string()];
        if visits {
            header.extend(["visits".into(), "share".into()]);
        }
        if value {
            header.push("value".into());
        }
        if prob {
            header.push("probability".into());
        }
        let mut table = vec![header];
        let dash = || "-".to_string();
        for ((name, s), action) in rows.iter().zip(&a.legal) {
            let mut row = vec![name.clone(), G::action_id(*action).to_string()];
            if visits {
                let v = s.and_then(|s| s.visits);
                row.push(v.map_or_else(dash, |v| v.to_string()));
                row.push(
                    v.filter(|_| total > 0)
                        .map_or_else(dash, |v| format!("{:.1}%", 100.0 * v as f64 / total as f64)),
                );
            }
            if value {
                row.push(
                    s.and_then(|s| s.value)
                        .map_or_else(dash, |v| format!("{v:.4}")),
                );
            }
            if prob {
                row.push(
                    s.and_then(|s| s.probability)
                        .map_or_else(dash, |v| format!("{v:.4}")),
                );
            }
            table.push(row);
        }
        if visits {
            let mut row = vec!["total".to_string(), String::new(), total.to_string()];
            row.resize(table[0].len(), String::new());
            table.push(row);
        }
        if a.stats.is_none() {
            writeln!(out, "(the agent keeps no statistics)")?;
        }
        write_aligned(&table, out)?;
    }
    Ok(())
}

/// Left-aligns the first column and right-aligns the others, two spaces apart.
fn write_aligned(table: &[Vec<String>], out: &mut dyn Write) -> std::io::Result<()> {
    let cols = table.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            table
                .iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in table {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c == 0 {
                line.push_str(&format!("{cell:<w$}", w = width[0]));
            } else {
                line.push_str(&format!("  {cell:>w$}", w = width[c]));
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The seats to analyse: `seat` if given (it must act), else every acting seat.
fn seats_to_analyze<G: Playable>(state: &G, seat: Option<usize>) -> anyhow::Result<Vec<Seat>> {
    let actors = state.turn().actors();
    if actors.is_empty() {
        return Err(anyhow!(
            "the position is terminal ({} after {} plies): no seat acts, nothing to analyse",
            state.end_condition(),
            state.ply()
        ));
    }
    let acting = || {
        actors
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match seat {
        None => Ok(actors.iter().collect()),
        Some(s) if actors.contains(s) => Ok(vec![s]),
        Some(s) => Err(anyhow!(
            "--seat {s} does not act at this position; acting: {}",
            acting()
        )),
    }
}

fn analyze_game<G: Playable>(
    args: &AnalyzeArgs,
    path: &Path,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let pos = Position::<G>::load(path).map_err(CliError::bad_input)?;
    let state = pos.state;
    if args.observation {
        return write_observations(&state, args.seat, args.format, out);
    }
    let seats = seats_to_analyze(&state, args.seat).map_err(|e| {
        CliError::bad_input(e.context(format!("position file '{}'", path.display())))
    })?;
    let spec = args.agent.as_deref().unwrap_or_default();
    let mut agent = agents::parallel::build_parallel::<G>(spec, args.search_threads)
        .map_err(CliError::bad_input)?;
    let analyses = analyze_seats(&state, &seats, agent.as_mut(), args.seed);
    let written = match args.format {
        Format::Csv => write_csv::<G>(&analyses, out),
        Format::Table => (|| {
            writeln!(
                out,
                "{} position '{}': {} players, ply {}, round {}",
                G::NAME,
                path.display(),
                state.num_players(),
                state.ply(),
                state.round()
            )?;
            writeln!(out, "agent: {} (seed {})", agent.spec(), args.seed)?;
            let kind = agent.spec();
            let kind = kind.split(':').next().unwrap_or_default();
            if args.search_threads > 1 && agents::parallel::PARALLEL_KINDS.contains(&kind) {
                writeln!(
                    out,
                    "root parallelism: {} searches merged",
                    args.search_threads
                )?;
            }
            for &seat in &seats {
                writeln!(
                    out,
                    "observation of seat {seat}:\n{}",
                    state.observation(seat)
                )?;
            }
            write_table::<G>(&analyses, out)
        })(),
    };
    written.map_err(CliError::failure)
}

/// `sim analyze --observation`: for `seat` (or every seat), the observation string, the
/// information-state key and the observation tensor with its field names ([`Format::Table`]),
/// or CSV rows `seat,field,index,value` ([`Format::Csv`]).
///
/// # Errors
/// Bad input (exit 2) for a seat outside the game; a failure to write (exit 1).
pub fn write_observations<G: Playable>(
    state: &G,
    seat: Option<Seat>,
    format: Format,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let n = state.num_players();
    let seats: Vec<Seat> = match seat {
        Some(s) if s >= n => {
            return Err(CliError::bad_input(anyhow!(
                "seat {s} is not in this {n}-player game (seats 0 to {})",
                n - 1
            )));
        }
        Some(s) => vec![s],
        None => (0..n).collect(),
    };
    let layout = G::observation_layout(&state.rules());
    let mut tensor = vec![0f32; crate::game::tensor_len(&layout)];
    let written = (|| {
        if format == Format::Csv {
            writeln!(out, "seat,field,index,value")?;
        }
        for &p in &seats {
            state.observation_tensor(p, &mut tensor);
            if format == Format::Table {
                writeln!(
                    out,
                    "observation of seat {p}:\n{}",
                    state.observation_string(p)
                )?;
                writeln!(out, "information state key: {:016x}", state.info_key(p))?;
                writeln!(out, "observation tensor ({} values):", tensor.len())?;
            }
            let mut at = 0;
            for f in &layout {
                let values = &tensor[at..at + f.len];
                if format == Format::Csv {
                    for (i, v) in values.iter().enumerate() {
                        writeln!(out, "{p},{},{i},{v}", f.name)?;
                    }
                } else {
                    let shown: Vec<String> = values.iter().map(|v| format!("{v}")).collect();
                    writeln!(out, "  {} [{}]: {}", f.name, f.len, shown.join(" "))?;
                }
                at += f.len;
            }
        }
        Ok::<(), std::io::Error>(())
    })();
    written.map_err(CliError::failure)
}

/// Runs `sim analyze`.
///
/// # Errors
/// Bad input (exit 2): unknown game, unreadable or malformed position file, a position of
/// another game, an invalid state, a bad agent spec, a terminal position or a seat that
/// does not act. A failure to write (exit 1).
pub fn run(args: &AnalyzeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    crate::dispatch_game!(args.game.as_str(), G => analyze_game::<G>(args, &args.state, out))
        .map_err(CliError::bad_input)?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState;
    use crate::games::kuhn;

    fn analyse(spec: &str, state: &kuhn::State) -> Vec<SeatAnalysis<kuhn::Action>> {
        let mut agent = agents::build::<kuhn::State>(spec).unwrap();
        let seats = seats_to_analyze(state, None).unwrap();
        analyze_seats(state, &seats, agent.as_mut(), 3)
    }

    #[test]
    fn mcts_visits_sum_to_the_iterations_and_cover_every_action() {
        let s = kuhn::State::from_deal([2, 0]);
        let a = analyse("mcts:iters=300", &s);
        assert_eq!(a.len(), 1);
        let stats = a[0].stats.as_ref().unwrap();
        assert_eq!(stats.len(), 2);
        assert_eq!(stats.iter().map(|s| s.visits.unwrap()).sum::<u64>(), 300);
        let mut text = Vec::new();
        write_table::<kuhn::State>(&a, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("action  id  visits  share   value"), "{text}");
        let total = text.lines().find(|l| l.starts_with("total")).unwrap();
        assert_eq!(
            total.split_whitespace().collect::<Vec<_>>(),
            ["total", "300"]
        );
    }

    #[test]
    fn each_agent_fills_its_columns() {
        let s = kuhn::State::from_deal([2, 0]);
        let cfr = analyse("cfr:iters=200", &s);
        let p: f64 = cfr[0]
            .stats
            .as_ref()
            .unwrap()
            .iter()
            .map(|s| s.probability.unwrap())
            .sum();
        assert!((p - 1.0).abs() < 1e-9);
        let greedy = analyse("greedy", &s);
        assert!(
            greedy[0]
                .stats
                .as_ref()
                .unwrap()
                .iter()
                .all(|s| s.value.is_some() && s.visits.is_none())
        );
        assert!(analyse("random", &s)[0].stats.is_none());
        let mut csv = Vec::new();
        write_csv::<kuhn::State>(&analyse("random", &s), &mut csv).unwrap();
        assert_eq!(
            String::from_utf8(csv).unwrap(),
            "seat,action,id,visits,value,probability\n0,p,0,,,\n0,b,1,,,\n"
        );
    }

    #[test]
    fn analysis_does_not_change_decisions() {
        // `analyze` and `act` run the same search from the same stream.
        let s = kuhn::State::from_deal([1, 0]);
        let mut a = crate::agents::mcts::MctsAgent::<kuhn::State>::new(Default::default());
        let view = View::new(&s, 0);
        let stats = a.analyze(&view, &mut rng_for(1, 0, 1)).unwrap();
        let chosen = a.act(&view, &mut rng_for(1, 0, 1));
        let best = stats.iter().max_by_key(|s| s.visits.unwrap()).unwrap();
        assert_eq!(chosen, best.action);
    }

    #[test]
    fn terminal_positions_and_idle_seats_are_refused() {
        let mut s = kuhn::State::from_deal([1, 0]);
        let e = seats_to_analyze(&s, Some(1)).unwrap_err().to_string();
        assert!(
            e.contains("--seat 1 does not act") && e.contains("acting: 0"),
            "{e}"
        );
        let mut r = crate::rng::test_rng(0);
        for _ in 0..2 {
            s.apply(s.ply() as usize % 2, kuhn::Action::Pass, &mut r)
                .unwrap();
        }
        let e = seats_to_analyze(&s, None).unwrap_err().to_string();
        assert!(e.contains("terminal (showdown after 2 plies)"), "{e}");
    }
}
