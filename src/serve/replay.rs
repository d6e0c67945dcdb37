//! Replaying one game of a result folder in the page, move by move, forwards and
//! backwards, from one seat's view or the omniscient one.
//!
//! **Which game.** A folder's `config.toml` names the tournament (game, players, rule
//! settings, agent specs, seed, `--paired`); game `index` is then rebuilt exactly as the
//! runner played it ([`crate::tournament::run()`]): chance from [`Plan::chance_seed`], seat
//! `s`'s agent stream from [`Plan::seat_rng`], the seating of [`crate::tournament::Lineup::seating`], every
//! action checked for legality. The whole game is played once when the replay is opened and
//! every state kept, so stepping is instant. A game that failed (a row of `errors.csv`: an
//! agent panicked or returned an illegal action, or the game overran its bound) replays up
//! to the failure, which the replay names.
//!
//! **What a step shows.** Step `k` is the state after `k` plies (step 0: after setup). From
//! a seat, the page gets only what that seat saw: its board and text view (its observation)
//! and the log as told to that seat ([`Audience::Seats`]). The omniscient view shows the
//! whole state, every seat's board and the log told to all.
//!
//! **Search statistics.** [`Replay::analyze`] reruns, for the ply after step `k`, the
//! deliberation of each acting seat's agent ([`Agent::analyze`]) from that seat's view with
//! its random stream as it stood before the ply. Agents start each game afresh and keep no
//! memory between decisions in this crate, so this is the search that chose the move (the
//! page marks the move that was played).

use serde_json::{Value, json};

use crate::agents::Agent;
use crate::game::{GameStart, JointAction, MAX_PLAYERS, PerSeat, Playable, Seat, Turn, View};
use crate::games::log::{Audience, GameLog};
use crate::rng::SimRng;
use crate::tournament::{Plan, TournamentError};

use super::results::Tournament;

/// A recorded game of any game type, as the web server holds it.
pub trait Replay: Send {
    /// The game's registry name.
    fn game(&self) -> &'static str;
    /// Number of plies recorded (the last step).
    fn steps(&self) -> usize;
    /// Step `step` (clamped to the last) from seat `seat`, or omniscient for `None`.
    ///
    /// # Errors
    /// A seat that does not exist.
    fn view(&self, step: usize, seat: Option<usize>) -> Result<Value, String>;
    /// The search statistics of each seat acting at the ply after step `step`.
    ///
    /// # Errors
    /// A step with no ply after it.
    fn analyze(&self, step: usize) -> Result<Value, String>;
    /// The state at step `step` in the saved-position format, for `sim analyze` and `sim
    /// play --start`.
    fn position(&self, step: usize) -> String;
}

/// One recorded game of `G` ([`Replay`]).
pub struct GameReplay<G: Playable> {
    plan: Plan<G>,
    dir: String,
    index: u64,
    /// Per seat: the lineup entry seated there.
    lineup: PerSeat<u8>,
    /// `states[k]`: the state after `k` plies.
    states: Vec<G>,
    /// `plies[k]`: the turn and actions of ply `k + 1` (from `states[k]`).
    plies: Vec<(Turn, JointAction<G::Action>)>,
    /// `streams[k]`: every seat's random stream before ply `k + 1`.
    streams: Vec<[SimRng; MAX_PLAYERS]>,
    /// Why the game stopped before its end, if it did.
    failure: Option<String>,
}

impl<G: Playable> GameReplay<G> {
    /// Replays game `index` of the tournament `t` (of folder `dir`, for the page).
    ///
    /// # Errors
    /// Settings that no longer resolve (an unknown agent or rule setting), or an index
    /// beyond the tournament's games.
    pub fn new(t: &Tournament, dir: &str, index: u64) -> Result<Self, String> {
        if index >= t.games {
            return Err(format!(
                "game {index}: {dir} has games 0 to {}",
                t.games.saturating_sub(1)
            ));
        }
        let mut plan = Plan::<G>::resolve(Some(t.players), &t.variant, &t.agents, t.seed)
            .map_err(|e: TournamentError| format!("{dir}/config.toml: {e}"))?;
        plan.lineup.set_paired(t.paired);
        let mut agents: Vec<Box<dyn Agent<G>>> = crate::tournament::run::build_agents(&plan.lineup)
            .map_err(|e| format!("{dir}/config.toml: {e}"))?;
        let players = plan.rules.players();
        let lineup = plan.lineup.seating(index);
        let mut chance = crate::rng::rng_from_seed(plan.chance_seed(index));
        let mut seat_rng: [SimRng; MAX_PLAYERS] = std::array::from_fn(|s| {
            if s < players {
                plan.seat_rng(index, s)
            } else {
                SimRng::new(1)
            }
        });
        // The setup's forced moves are told before ply 1 ([`GameLog::setup`]).
        let setup_log = crate::games::log::log::<G>();
        setup_log.listen();
        let mut state = G::new_game(plan.rules, &mut chance);
        setup_log.heard(&state);
        for seat in 0..players {
            agents[lineup[seat] as usize].start_game(&GameStart {
                seat,
                index,
                rules: plan.rules,
            });
        }
        let mut replay = GameReplay {
            dir: dir.to_string(),
            index,
            lineup,
            states: vec![state.clone()],
            plies: Vec::new(),
            streams: Vec::new(),
            failure: None,
            plan,
        };
        let bound = state.max_plies();
        let mut legal = Vec::new();
        let log = crate::games::log::log::<G>();
        loop {
            if state.turn().is_terminal() {
                break;
            }
            let streams = seat_rng.clone();
            let mut illegal = None;
            let mut asked = 0;
            let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let played = crate::game::play_ply(&mut state, &mut chance, |s, p, _| {
                    asked = p;
                    let a = agents[lineup[p] as usize].act(&View::new(s, p), &mut seat_rng[p]);
                    // The forced moves of the apply that follows are told with the ply.
                    log.listen();
                    if s.is_legal(p, a, &mut legal) {
                        return a;
                    }
                    s.legal_actions(p, &mut legal);
                    illegal.get_or_insert((p, a));
                    legal.first().copied().unwrap_or(a)
                });
                log.heard(&state);
                played
            }));
            let spec = |p: usize| replay.plan.lineup.entries()[lineup[p] as usize].clone();
            let (turn, joint) = match played {
                Ok(Some(x)) => x,
                Ok(None) => break,
                Err(payload) => {
                    replay.failure = Some(format!(
                        "the agent of seat {asked} ({}) failed at ply {}: {}",
                        spec(asked),
                        replay.states.len(),
                        crate::cli::play::panic_message(payload.as_ref())
                    ));
                    break;
                }
            };
            if let Some((p, a)) = illegal {
                replay.failure = Some(format!(
                    "seat {p} ({}) returned the illegal action {a} at ply {}; the runner \
                     abandoned the game without applying it",
                    spec(p),
                    replay.states.len()
                ));
                break;
            }
            replay.plies.push((turn, joint));
            replay.streams.push(streams);
            replay.states.push(state.clone());
            if state.ply() > bound {
                replay.failure = Some(format!("the game exceeded its bound of {bound} plies"));
                break;
            }
        }
        Ok(replay)
    }

    /// The state after the last recorded ply.
    pub fn last(&self) -> &G {
        self.states.last().expect("the setup is always recorded")
    }

    /// The spec of the agent in seat `seat`.
    fn spec(&self, seat: Seat) -> &str {
        &self.plan.lineup.entries()[self.lineup[seat] as usize]
    }

    /// The log lines of plies 1 to `step` told to `audience`.
    fn log_lines(&self, step: usize, audience: Audience) -> Vec<String> {
        let log = crate::games::log::log::<G>();
        let mut lines = Vec::new();
        let setup = log.setup(&self.states[0], audience);
        if !setup.is_empty() {
            lines.push("setup:".into());
            lines.extend(setup.into_iter().map(|l| format!("  {l}")));
        }
        for k in 0..step {
            let (before, after) = (&self.states[k], &self.states[k + 1]);
            let (turn, joint) = &self.plies[k];
            lines.push(ply_line(log, before, after, *turn, joint, audience));
            for line in log.consequences(before, joint, after, audience) {
                lines.push(format!("  {line}"));
            }
        }
        lines
    }
}

/// `ply K, round R: moves` as the terminal transcript writes it.
fn ply_line<G: Playable>(
    log: &dyn GameLog<G>,
    before: &G,
    after: &G,
    turn: Turn,
    joint: &JointAction<G::Action>,
    audience: Audience,
) -> String {
    let kind = match turn {
        Turn::Simultaneous(_) => " (simultaneous)",
        _ => "",
    };
    let moves: Vec<String> = joint
        .iter()
        .enumerate()
        .filter_map(|(p, a)| a.map(|a| log.action(before, p, a, audience)))
        .collect();
    format!(
        "ply {}, {}{kind}: {}",
        after.ply(),
        crate::games::log::round_label(before.round()),
        moves.join("; ")
    )
}

impl<G: Playable> Replay for GameReplay<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn steps(&self) -> usize {
        self.plies.len()
    }

    fn view(&self, step: usize, seat: Option<usize>) -> Result<Value, String> {
        let players = self.plan.rules.players();
        if let Some(s) = seat.filter(|&s| s >= players) {
            return Err(format!("seat {s}: the game has seats 0 to {}", players - 1));
        }
        let step = step.min(self.steps());
        let state = &self.states[step];
        let log = crate::games::log::log::<G>();
        let audience = match seat {
            Some(s) => Audience::Seats(crate::game::SeatSet::single(s)),
            None => Audience::All,
        };
        let boards: Vec<Value> = match seat {
            Some(s) => vec![json!({ "seat": s, "svg": super::board::board(state, s) })],
            None => (0..players)
                .map(|s| json!({ "seat": s, "svg": super::board::board(state, s) }))
                .collect(),
        };
        let text = match seat {
            Some(s) => log.view(state, s),
            None => log.state(state),
        };
        // The ply to come, told to the same audience (what a seat would see of it).
        let next = self.plies.get(step).map(|(turn, joint)| {
            ply_line(log, state, &self.states[step + 1], *turn, joint, audience)
        });
        let terminal = state.turn().is_terminal();
        let result = terminal.then(|| {
            let (scores, ranks) = state.scores_and_ranks();
            json!({
                "end": state.end_condition(),
                "scores": &scores[..players],
                "ranks": &ranks[..players],
                "breakdown": log.breakdown(state),
            })
        });
        Ok(json!({
            "game": G::NAME,
            "dir": self.dir,
            "index": self.index,
            "players": players,
            "seats": (0..players).map(|s| self.spec(s).to_string()).collect::<Vec<_>>(),
            "step": step,
            "steps": self.steps(),
            "seat": seat,
            "ply": state.ply(),
            "round": state.round(),
            "actors": state.turn().actors().iter().collect::<Vec<_>>(),
            "terminal": terminal,
            "boards": boards,
            "text": text,
            "log": self.log_lines(step, audience),
            "next": next,
            "result": result,
            "failure": self.failure,
        }))
    }

    fn analyze(&self, step: usize) -> Result<Value, String> {
        let Some((turn, joint)) = self.plies.get(step) else {
            return Err(format!(
                "step {step}: no ply follows it (the game has {} plies)",
                self.steps()
            ));
        };
        let state = &self.states[step];
        let log = crate::games::log::log::<G>();
        let mut seats = Vec::new();
        for p in turn.actors().iter() {
            let Some(played) = joint[p] else { continue };
            let spec = self.spec(p);
            let mut agent =
                crate::agents::build::<G>(spec).map_err(|e| format!("seat {p}: {e}"))?;
            agent.start_game(&GameStart {
                seat: p,
                index: self.index,
                rules: state.rules(),
            });
            let mut rng = self.streams[step][p].clone();
            let stats = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                agent.analyze(&View::new(state, p), &mut rng)
            }))
            .map_err(|e| {
                format!(
                    "seat {p} ({spec}): {}",
                    crate::cli::play::panic_message(e.as_ref())
                )
            })?;
            seats.push(stats_json(state, p, spec, played, stats, log));
        }
        Ok(json!({ "step": step, "ply": step + 1, "seats": seats }))
    }

    fn position(&self, step: usize) -> String {
        let step = step.min(self.steps());
        crate::position::Position {
            state: self.states[step].clone(),
            streams: None,
        }
        .to_json()
    }
}

/// One seat's statistics as the page shows them: every legal move with its id, visits
/// (and share), value and probability where the agent has them, and whether it was played.
pub fn stats_json<G: Playable>(
    state: &G,
    seat: Seat,
    spec: &str,
    played: G::Action,
    stats: Option<Vec<crate::agents::ActionStat<G::Action>>>,
    log: &dyn GameLog<G>,
) -> Value {
    let mut legal = Vec::new();
    state.legal_actions(seat, &mut legal);
    let total: u64 = stats.iter().flatten().filter_map(|s| s.visits).sum::<u64>();
    let rows: Vec<Value> = legal
        .iter()
        .map(|&a| {
            let s = stats.iter().flatten().find(|s| s.action == a);
            let visits = s.and_then(|s| s.visits);
            json!({
                "id": G::action_id(a),
                "name": log.move_name(state, seat, a),
                "visits": visits,
                "share": visits.filter(|_| total > 0).map(|v| v as f64 / total as f64),
                "value": s.and_then(|s| s.value),
                "probability": s.and_then(|s| s.probability),
                "played": a == played,
            })
        })
        .collect();
    json!({
        "seat": seat,
        "agent": spec,
        "has_stats": stats.is_some(),
        "moves": rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameVisitor, visit_all};

    /// A short tournament of every game written to a folder, then each game replayed from
    /// the folder's `config.toml`: the replay ends where the runner's game ended (the same
    /// scores, ranks and length as `games.csv`), and a seat's step shows only that seat's
    /// board.
    struct ReplaysReproduceTheRecordedGames;

    impl GameVisitor for ReplaysReproduceTheRecordedGames {
        fn visit<G: Playable>(&mut self) {
            let tmp = tempfile::tempdir().unwrap();
            let out = tmp.path().join("run");
            let settings = crate::tournament::Settings {
                game: G::NAME.to_string(),
                players: None,
                variant: Vec::new(),
                agents: vec!["random".into(), "greedy".into()],
                games: 3,
                seed: 5,
                threads: Some(1),
                out: out.clone(),
                progress: false,
                design: Default::default(),
            };
            crate::tournament::run_game::<G>(&settings).unwrap();
            let results = super::super::results::Results::new(tmp.path());
            let t = results.config("run").unwrap();
            let folder = results.folder("run", 0, 10).unwrap();
            let rows = folder["games_listed"].as_array().unwrap();
            assert_eq!(rows.len(), 3, "{}", G::NAME);
            for row in rows {
                let index = row["game"].as_u64().unwrap();
                let r = GameReplay::<G>::new(&t, "run", index).unwrap();
                assert!(r.failure.is_none());
                let end = r.view(usize::MAX, None).unwrap();
                assert_eq!(end["terminal"], true, "{} game {index}", G::NAME);
                assert_eq!(
                    end["ply"].to_string(),
                    row["plies"].as_str().unwrap(),
                    "{} game {index}: length",
                    G::NAME
                );
                for (seat, s) in row["seats"].as_array().unwrap().iter().enumerate() {
                    assert_eq!(
                        end["result"]["scores"][seat].to_string(),
                        s[1].as_str().unwrap(),
                        "{} game {index} seat {seat}: score",
                        G::NAME
                    );
                    // games.csv has the short label (`greedy`), the replay the full spec.
                    let spec = end["seats"][seat].as_str().unwrap();
                    assert!(
                        spec.starts_with(s[0].as_str().unwrap()),
                        "{} seat {seat}: agent {spec} vs {}",
                        G::NAME,
                        s[0]
                    );
                }
                let one = r.view(1, Some(1)).unwrap();
                assert_eq!(one["boards"].as_array().unwrap().len(), 1);
                assert_eq!(one["step"], 1);
                assert!(r.view(1, Some(9)).is_err());
            }
            assert!(
                GameReplay::<G>::new(&t, "run", 3).is_err(),
                "index past the end"
            );
        }
    }

    #[test]
    fn replays_reproduce_the_recorded_games() {
        visit_all(&mut ReplaysReproduceTheRecordedGames);
    }

    #[test]
    fn search_statistics_mark_the_move_played() {
        type G = crate::games::daxu::State;
        let t = Tournament {
            game: "daxu".into(),
            players: 2,
            variant: Vec::new(),
            agents: vec!["mcts:iters=64".into(), "greedy".into()],
            games: 2,
            seed: 3,
            paired: false,
        };
        let r = GameReplay::<G>::new(&t, "x", 0).unwrap();
        let a = r.analyze(0).unwrap();
        let seats = a["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 2, "Daxu's first ply is simultaneous");
        let mcts = seats
            .iter()
            .find(|s| s["agent"].as_str().unwrap().starts_with("mcts"))
            .unwrap();
        let moves = mcts["moves"].as_array().unwrap();
        let visits: u64 = moves.iter().filter_map(|m| m["visits"].as_u64()).sum();
        assert_eq!(visits, 64, "the root visits sum to the iterations");
        // The move played is the most visited one, ties to the higher mean value (Daxu's
        // preset root=sh plays the better of its two finalists, which share the most
        // visits): the same search that chose the move.
        let key = |m: &serde_json::Value| {
            let visits = m["visits"].as_u64().unwrap_or(0);
            (visits, m["value"].as_f64().unwrap_or(f64::NEG_INFINITY))
        };
        let best = moves
            .iter()
            .max_by(|a, b| key(a).partial_cmp(&key(b)).unwrap())
            .unwrap();
        assert_eq!(best["played"], true, "{moves:?}");
        assert!(r.analyze(r.steps()).is_err());
    }
}
