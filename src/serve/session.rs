//! One game played in the browser: the state, its random streams, the agents of the AI
//! seats, the pending choices of human seats, each human seat's own log, and the snapshots
//! that `undo` returns to.
//!
//! **What a seat is shown.** [`GameSession::view`] builds a seat's page data only from what
//! that seat may know: its observation ([`GameState::observation`](crate::game::GameState::observation), through the game log's
//! [`GameLog::view`] and the board drawn from it, [`super::board`]), its own legal moves,
//! and log lines written for it alone ([`Audience::Seats`] of that one seat). The whole
//! state is read only for the end of the game (scores and ranks are public then) and for a
//! saved position, which the player asks for on purpose (the file holds the whole state,
//! as every saved position does: `sim analyze` needs it).
//!
//! **Undo.** Before a human decision is applied, the session keeps a snapshot (state, chance
//! stream, every seat's stream, log lengths). `undo` returns to the last snapshot taken at a
//! decision of the asking seat, so the AI's replies after it are taken back too; the agents
//! keep no memory between decisions (the agent contract: `start_game` drops it), so the
//! restored streams make them answer as before.

use std::time::Instant;

use serde::Serialize;
use serde_json::{Value, json};

use crate::agents::Agent;
use crate::game::{
    GameStart, JointAction, MAX_PLAYERS, PerSeat, Playable, Seat, SeatSet, Turn, View, play_ply,
};
use crate::games::log::{Audience, GameLog};
use crate::position::{Position, Streams};
use crate::rng::{SimRng, rng_for, rng_from_seed, seed_for};

/// The agent kind that marks a seat played in the browser.
pub const HUMAN: &str = "human";

/// Why a request about a session was refused: bad input from the page (HTTP 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The seat does not exist or is not played by a person.
    #[error("seat {seat} is not a human seat of this game (human seats: {humans})")]
    NotHuman {
        /// The seat asked for.
        seat: usize,
        /// The human seats, comma-separated.
        humans: String,
    },
    /// The seat does not act now, or has already chosen at this simultaneous node.
    #[error("seat {seat} does not act now")]
    NotYourTurn {
        /// The seat.
        seat: Seat,
    },
    /// The action id is not among the seat's legal moves.
    #[error("action id {id} is not a legal move of seat {seat} now; legal ids: {legal}")]
    Illegal {
        /// The seat.
        seat: Seat,
        /// The refused id.
        id: usize,
        /// The legal ids, comma-separated.
        legal: String,
    },
    /// Nothing of this seat to undo.
    #[error("seat {seat} has no decision to undo")]
    NothingToUndo {
        /// The seat.
        seat: Seat,
    },
    /// A bad setup: seats, agents, variant or position.
    #[error("{0}")]
    Setup(String),
    /// An agent panicked while choosing (a bug in the agent).
    #[error("the agent of seat {seat} ({spec}) failed at ply {ply}: {message}")]
    AgentFailed {
        /// The seat.
        seat: Seat,
        /// Its spec.
        spec: String,
        /// The ply being played.
        ply: u32,
        /// The panic message.
        message: String,
    },
}

/// A game session of any game, as the web server holds it.
pub trait Session: Send {
    /// The game's registry name.
    fn game(&self) -> &'static str;
    /// Seat `seat`'s page data (see the module docs for what it may contain).
    ///
    /// # Errors
    /// [`SessionError::NotHuman`] when the seat is not played by a person.
    fn view(&self, seat: usize) -> Result<Value, SessionError>;
    /// Seat `seat` plays the action with id `id`; the AI seats then play until a human
    /// must decide or the game ends.
    ///
    /// # Errors
    /// Not a human seat, not its turn, an illegal id, or an agent that failed.
    fn act(&mut self, seat: usize, id: usize) -> Result<(), SessionError>;
    /// Takes back seat `seat`'s last decision and everything played after it.
    ///
    /// # Errors
    /// Not a human seat, or nothing to undo.
    fn undo(&mut self, seat: usize) -> Result<(), SessionError>;
    /// The position now in the saved-position format ([`crate::position`]), with the
    /// session's streams.
    fn position(&self) -> String;
    /// Wall-clock milliseconds of every AI decision so far, in order.
    fn ai_millis(&self) -> &[f64];
    /// On-CPU milliseconds of the deciding thread for every AI decision so far, in order
    /// (empty where the system does not report it: see [`thread_cpu_ns`]). Unlike the
    /// wall clock, it does not grow when other processes share the cores.
    fn ai_cpu_millis(&self) -> &[f64];
    /// Agent `agent`'s statistics (default: [`default_ai`]) for human seat `seat`'s
    /// decision now, from that seat's view only: exactly what `sim analyze --seed SEED
    /// --seat SEAT` prints for the saved position (the same random stream, `seed_for(SEED,
    /// 0, 1 + seat)`, SEED the session's seed). The answer holds the command too.
    ///
    /// # Errors
    /// Not a human seat, the seat does not act now, a bad agent spec, or an agent that
    /// failed.
    fn analyze(&self, seat: usize, agent: Option<&str>) -> Result<Value, SessionError>;
}

/// A snapshot to undo to, taken before a human decision.
#[derive(Clone)]
struct Snapshot<G> {
    seat: Seat,
    state: G,
    chance: SimRng,
    seats: [SimRng; MAX_PLAYERS],
    logs: PerSeat<usize>,
}

/// One game in the browser ([`Session`] for game `G`).
pub struct GameSession<G: Playable> {
    state: G,
    chance: SimRng,
    seat_rng: [SimRng; MAX_PLAYERS],
    /// The agent of each AI seat (`None` for human seats).
    agents: Vec<Option<Box<dyn Agent<G>>>>,
    /// The spec of each seat as shown (`human` or the agent's canonical spec).
    specs: Vec<String>,
    humans: SeatSet,
    /// Choices of human seats at the current simultaneous node, waiting for the others.
    pending: JointAction<G::Action>,
    /// Each seat's own log lines (only human seats' are written).
    logs: PerSeat<Vec<String>>,
    snapshots: Vec<Snapshot<G>>,
    seed: u64,
    ai_millis: Vec<f64>,
    ai_cpu_millis: Vec<f64>,
}

/// One legal move as the page shows it.
#[derive(Serialize)]
struct Move {
    /// The action id ([`GameState::action_id`]), sent back to play it.
    id: usize,
    /// The readable name ([`GameLog::move_name`]).
    name: String,
    /// The group the page shows it in and its short name there ([`GameLog::move_group`]:
    /// `takes the red 5 die for`, `Production`); absent for a move of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    group: Option<(String, String)>,
}

impl<G: Playable> GameSession<G> {
    /// A new game of `G` with `players` seats, `variant` settings and one spec per seat
    /// (`human` or an agent spec), its streams drawn from `seed` as game 0 of a tournament
    /// with that seed (chance `seed_for(seed, 0, 0)`, seat `s` from stream `1 + s`).
    ///
    /// # Errors
    /// [`SessionError::Setup`] naming a bad player count, variant setting or agent spec, or a
    /// lineup without a human seat.
    pub fn new(
        players: Option<usize>,
        variant: &[String],
        seats: &[String],
        seed: u64,
    ) -> Result<Self, SessionError> {
        let params = <G::Params as crate::params::ParamSet>::from_settings(
            variant,
            &format!("game {}", G::NAME),
        )
        .map_err(|e| SessionError::Setup(e.to_string()))?;
        let players = players.unwrap_or(seats.len().max(G::DEFAULT_PLAYERS));
        let rules = crate::game::rules::<G>(&params, players)
            .map_err(|e| SessionError::Setup(e.to_string()))?;
        let mut chance = rng_from_seed(seed_for(seed, 0, 0));
        // The setup's forced moves open each human seat's log ([`GameLog::setup`]).
        let log = crate::games::log::log::<G>();
        log.listen();
        let state = G::new_game(rules, &mut chance);
        log.heard(&state);
        let seat_rng = std::array::from_fn(|s| rng_for(seed, 0, 1 + s as u64));
        let mut session = Self::from_state(state, chance, seat_rng, seats, seed)?;
        for h in session.humans.iter() {
            let setup = log.setup(&session.state, Audience::Seats(SeatSet::single(h)));
            if !setup.is_empty() {
                session.logs[h].push("setup:".into());
                session.logs[h].extend(setup.into_iter().map(|l| format!("  {l}")));
            }
        }
        Ok(session)
    }

    /// A session continuing a saved position with the given seats; its saved streams are
    /// resumed, or fresh ones drawn from `seed` when it has none.
    ///
    /// # Errors
    /// As [`GameSession::new`].
    pub fn from_position(
        position: Position<G>,
        seats: &[String],
        seed: u64,
    ) -> Result<Self, SessionError> {
        let (chance, seat_rng, seed) = match position.streams {
            Some(st) => (st.chance.clone(), st.seat_array(), st.seed),
            None => (
                rng_from_seed(seed_for(seed, 0, 0)),
                std::array::from_fn(|s| rng_for(seed, 0, 1 + s as u64)),
                seed,
            ),
        };
        Self::from_state(position.state, chance, seat_rng, seats, seed)
    }

    fn from_state(
        state: G,
        chance: SimRng,
        seat_rng: [SimRng; MAX_PLAYERS],
        seats: &[String],
        seed: u64,
    ) -> Result<Self, SessionError> {
        let players = state.num_players();
        let seats = fill_seats::<G>(seats, players)?;
        let mut agents = Vec::with_capacity(players);
        let mut specs = Vec::with_capacity(players);
        let mut humans = SeatSet::EMPTY;
        for (seat, spec) in seats.iter().enumerate() {
            if spec.trim() == HUMAN {
                humans = SeatSet(humans.0 | SeatSet::single(seat).0);
                agents.push(None);
                specs.push(HUMAN.to_string());
                continue;
            }
            let mut agent = crate::agents::build::<G>(spec)
                .map_err(|e| SessionError::Setup(format!("seat {seat}: {e}")))?;
            agent.start_game(&GameStart {
                seat,
                index: 0,
                rules: state.rules(),
            });
            specs.push(agent.spec());
            agents.push(Some(agent));
        }
        if humans.is_empty() {
            return Err(SessionError::Setup(format!(
                "no human seat: give `{HUMAN}` for at least one of the {players} seats"
            )));
        }
        let mut session = GameSession {
            state,
            chance,
            seat_rng,
            agents,
            specs,
            humans,
            pending: [None; MAX_PLAYERS],
            logs: Default::default(),
            snapshots: Vec::new(),
            seed,
            ai_millis: Vec::new(),
            ai_cpu_millis: Vec::new(),
        };
        session.advance()?;
        Ok(session)
    }

    /// The state now (for tests; the page never sees it).
    pub fn state(&self) -> &G {
        &self.state
    }

    fn check_human(&self, seat: usize) -> Result<Seat, SessionError> {
        if seat < self.state.num_players() && self.humans.contains(seat) {
            Ok(seat)
        } else {
            Err(SessionError::NotHuman {
                seat,
                humans: self
                    .humans
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }

    /// Plays the AI seats until a human seat must choose (and has not yet) or the game
    /// ends, writing each human seat's log.
    fn advance(&mut self) -> Result<(), SessionError> {
        let log = crate::games::log::log::<G>();
        loop {
            let turn = self.state.turn();
            if turn.is_terminal() {
                return Ok(());
            }
            if turn
                .actors()
                .iter()
                .any(|p| self.humans.contains(p) && self.pending[p].is_none())
            {
                return Ok(());
            }
            let before = self.state.clone();
            let pending = std::mem::replace(&mut self.pending, [None; MAX_PLAYERS]);
            let mut failed = None;
            let agents = &mut self.agents;
            let seat_rng = &mut self.seat_rng;
            let millis = &mut self.ai_millis;
            let cpu_millis = &mut self.ai_cpu_millis;
            let played = play_ply(&mut self.state, &mut self.chance, |s, p, _| {
                if let Some(a) = pending[p] {
                    log.listen();
                    return a;
                }
                let agent = agents[p]
                    .as_mut()
                    .expect("a seat without a choice is an AI");
                let started = Instant::now();
                let cpu_started = thread_cpu_ns();
                let chosen = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    agent.act(&View::new(s, p), &mut seat_rng[p])
                }));
                millis.push(started.elapsed().as_secs_f64() * 1e3);
                if let (Some(a), Some(b)) = (cpu_started, thread_cpu_ns()) {
                    cpu_millis.push(b.saturating_sub(a) as f64 / 1e6);
                }
                // The forced moves of the apply that follows are told with the ply.
                log.listen();
                match chosen {
                    Ok(a) => a,
                    Err(payload) => {
                        failed = Some((p, crate::cli::play::panic_message(payload.as_ref())));
                        // Any legal action keeps the state consistent; the error below
                        // restores the state from before the ply.
                        let mut buf = Vec::new();
                        s.legal_actions(p, &mut buf);
                        buf[0]
                    }
                }
            });
            log.heard(&self.state);
            if let Some((seat, message)) = failed {
                self.state = before;
                return Err(SessionError::AgentFailed {
                    seat,
                    spec: self.specs[seat].clone(),
                    ply: self.state.ply() + 1,
                    message,
                });
            }
            let Some((turn, joint)) = played else {
                return Ok(());
            };
            self.write_log(log, &before, turn, &joint);
        }
    }

    /// Appends the ply's lines to each human seat's own log, told for that seat alone.
    fn write_log(
        &mut self,
        log: &dyn GameLog<G>,
        before: &G,
        turn: Turn,
        joint: &JointAction<G::Action>,
    ) {
        let kind = match turn {
            Turn::Simultaneous(_) => " (simultaneous)",
            _ => "",
        };
        for h in self.humans.iter() {
            let audience = Audience::Seats(SeatSet::single(h));
            let moves: Vec<String> = joint
                .iter()
                .enumerate()
                .filter_map(|(p, a)| a.map(|a| log.action(before, p, a, audience)))
                .collect();
            let lines = &mut self.logs[h];
            lines.push(format!(
                "ply {}, {}{kind}: {}",
                self.state.ply(),
                crate::games::log::round_label(before.round()),
                moves.join("; ")
            ));
            for line in log.consequences(before, joint, &self.state, audience) {
                lines.push(format!("  {line}"));
            }
        }
    }

    /// What seat `seat` sees, as the page data (board, view text, moves): only from its
    /// observation and its legal moves. Split out so tests can compare it across states
    /// the seat cannot tell apart.
    pub fn seat_view(state: &G, seat: Seat, pending: Option<G::Action>) -> Value {
        let log = crate::games::log::log::<G>();
        let turn = state.turn();
        let mut moves = Vec::new();
        if turn.actors().contains(seat) && pending.is_none() {
            let mut legal = Vec::new();
            state.legal_actions(seat, &mut legal);
            moves = legal
                .iter()
                .map(|&a| Move {
                    id: G::action_id(a),
                    name: log.move_name(state, seat, a),
                    group: log.move_group(state, seat, a),
                })
                .collect();
        }
        json!({
            "seat": seat,
            "ply": state.ply(),
            "round": state.round(),
            "actors": turn.actors().iter().collect::<Vec<_>>(),
            "terminal": turn.is_terminal(),
            "view": log.view(state, seat),
            "board": super::board::board(state, seat),
            "moves": moves,
            "chosen": pending.map(|a| log.move_name(state, seat, a)),
        })
    }
}

/// The seats as given, filled to `players`: a lineup shorter than the table gets the last
/// AI named for the rest (never a second human unless asked), or the game's default search
/// agent ([`default_ai`]) when only humans were named.
///
/// # Errors
/// More seats than players.
pub fn fill_seats<G: Playable>(
    seats: &[String],
    players: usize,
) -> Result<Vec<String>, SessionError> {
    if seats.len() > players {
        return Err(SessionError::Setup(format!(
            "{} seats given for a {players}-player game",
            seats.len()
        )));
    }
    let mut out: Vec<String> = seats.iter().map(|s| s.trim().to_string()).collect();
    if out.is_empty() {
        out.push(HUMAN.to_string());
    }
    let filler = out
        .iter()
        .rev()
        .find(|s| s.as_str() != HUMAN)
        .cloned()
        .unwrap_or_else(|| default_ai::<G>().to_string());
    out.resize(players, filler);
    Ok(out)
}

/// Nanoseconds the calling thread has spent on a CPU, from Linux's
/// `/proc/thread-self/schedstat` (its first field); `None` elsewhere. Used to time the
/// AI's decisions independently of how loaded the machine is.
pub fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// The AI the page offers by default: determinizing MCTS (`mcts`) with the game's default
/// settings (`agents/games/<game>.toml`).
pub fn default_ai<G: Playable>() -> &'static str {
    "mcts"
}

impl<G: Playable> Session for GameSession<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn view(&self, seat: usize) -> Result<Value, SessionError> {
        let seat = self.check_human(seat)?;
        let mut v = Self::seat_view(&self.state, seat, self.pending[seat]);
        let log = crate::games::log::log::<G>();
        let players = self.state.num_players();
        let obj = v.as_object_mut().expect("seat_view is an object");
        obj.insert("game".into(), json!(G::NAME));
        obj.insert("players".into(), json!(players));
        obj.insert("seats".into(), json!(self.specs));
        obj.insert(
            "humans".into(),
            json!(self.humans.iter().collect::<Vec<_>>()),
        );
        obj.insert("log".into(), json!(self.logs[seat]));
        obj.insert(
            "can_undo".into(),
            json!(self.snapshots.iter().any(|s| s.seat == seat)),
        );
        if self.state.turn().is_terminal() {
            // Public at the end of every game: scores, ranks, the breakdown.
            let (scores, ranks) = self.state.scores_and_ranks();
            obj.insert(
                "result".into(),
                json!({
                    "end": self.state.end_condition(),
                    "scores": &scores[..players],
                    "ranks": &ranks[..players],
                    "breakdown": log.breakdown(&self.state),
                }),
            );
        }
        Ok(v)
    }

    fn act(&mut self, seat: usize, id: usize) -> Result<(), SessionError> {
        let seat = self.check_human(seat)?;
        if !self.state.turn().actors().contains(seat) || self.pending[seat].is_some() {
            return Err(SessionError::NotYourTurn { seat });
        }
        let mut legal = Vec::new();
        self.state.legal_actions(seat, &mut legal);
        let Some(&action) = legal.iter().find(|&&a| G::action_id(a) == id) else {
            return Err(SessionError::Illegal {
                seat,
                id,
                legal: legal
                    .iter()
                    .map(|&a| G::action_id(a).to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        let snapshot = Snapshot {
            seat,
            state: self.state.clone(),
            chance: self.chance.clone(),
            seats: self.seat_rng.clone(),
            logs: std::array::from_fn(|s| self.logs[s].len()),
        };
        self.snapshots.push(snapshot);
        self.pending[seat] = Some(action);
        self.advance()
    }

    fn undo(&mut self, seat: usize) -> Result<(), SessionError> {
        let seat = self.check_human(seat)?;
        let Some(at) = self.snapshots.iter().rposition(|s| s.seat == seat) else {
            return Err(SessionError::NothingToUndo { seat });
        };
        let snap = self.snapshots[at].clone();
        self.snapshots.truncate(at);
        self.state = snap.state;
        self.chance = snap.chance;
        self.seat_rng = snap.seats;
        for (log, len) in self.logs.iter_mut().zip(snap.logs) {
            log.truncate(len);
        }
        // Other humans' choices at this node are cleared with the pending set: they choose
        // again, so their snapshots taken at this very state go too.
        self.pending = [None; MAX_PLAYERS];
        self.snapshots.retain(|s| s.state != self.state);
        Ok(())
    }

    fn position(&self) -> String {
        let players = self.state.num_players();
        Position {
            state: self.state.clone(),
            streams: Some(Streams {
                seed: self.seed,
                index: 0,
                chance: self.chance.clone(),
                seats: self.seat_rng[..players].to_vec(),
            }),
        }
        .to_json()
    }

    fn ai_millis(&self) -> &[f64] {
        &self.ai_millis
    }

    fn ai_cpu_millis(&self) -> &[f64] {
        &self.ai_cpu_millis
    }

    fn analyze(&self, seat: usize, agent: Option<&str>) -> Result<Value, SessionError> {
        let seat = self.check_human(seat)?;
        if !self.state.turn().actors().contains(seat) || self.pending[seat].is_some() {
            return Err(SessionError::NotYourTurn { seat });
        }
        let spec = agent.map_or_else(|| default_ai::<G>().to_string(), |a| a.trim().to_string());
        let mut agent = crate::agents::build::<G>(&spec)
            .map_err(|e| SessionError::Setup(format!("agent: {e}")))?;
        let canonical = agent.spec();
        let analysis = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::cli::analyze::analyze_seats(&self.state, &[seat], agent.as_mut(), self.seed)
        }))
        .map_err(|payload| SessionError::AgentFailed {
            seat,
            spec: canonical.clone(),
            ply: self.state.ply() + 1,
            message: crate::cli::play::panic_message(payload.as_ref()),
        })?;
        let log = crate::games::log::log::<G>();
        let a = analysis.into_iter().next().expect("one seat asked");
        let best = best_of(&a.stats);
        let mut v = super::replay::stats_json(
            &self.state,
            seat,
            &canonical,
            best.unwrap_or(a.legal[0]),
            a.stats,
            log,
        );
        let obj = v.as_object_mut().expect("stats_json is an object");
        obj.insert("recommended".into(), json!(best.is_some()));
        obj.insert(
            "command".into(),
            json!(format!(
                "sim analyze --game {} --state {}-position.json --agent '{}' --seed {} --seat {seat}",
                G::NAME,
                G::NAME,
                canonical,
                self.seed
            )),
        );
        Ok(v)
    }
}

/// The action an agent's statistics favour: the most visited, else the most probable, else
/// the best valued (`None` without statistics).
fn best_of<A: Copy>(stats: &Option<Vec<crate::agents::ActionStat<A>>>) -> Option<A> {
    let stats = stats.as_ref()?;
    let key = |s: &crate::agents::ActionStat<A>| {
        (
            s.visits.unwrap_or(0) as f64,
            s.probability.unwrap_or(0.0),
            s.value.unwrap_or(f64::NEG_INFINITY),
        )
    };
    stats
        .iter()
        .max_by(|a, b| {
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|s| s.action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameVisitor, visit_all};
    use rand::RngExt;

    /// Plays `G` at every player count with seat 0 human (random moves) against `random`,
    /// checking at every decision that seat 0's page data is the same in every world it
    /// cannot tell apart (a determinization of the state for seat 0): whatever another
    /// seat hides (its cards, its pending choice) cannot appear on the page. Then undo,
    /// a saved position and the end of the game.
    struct PagesHideWhatTheSeatCannotSee;

    impl GameVisitor for PagesHideWhatTheSeatCannotSee {
        fn visit<G: Playable>(&mut self) {
            for players in G::PLAYERS.0..=G::PLAYERS.1 {
                for seed in 0..1 {
                    check_game::<G>(players, seed);
                }
            }
        }
    }

    fn check_game<G: Playable>(players: usize, seed: u64) {
        let seats = vec![HUMAN.to_string(), "random".to_string()];
        let mut s = GameSession::<G>::new(Some(players), &[], &seats, seed).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut decisions = 0;
        while !s.state().turn().is_terminal() {
            let state = s.state().clone();
            let page = GameSession::<G>::seat_view(&state, 0, None);
            for _ in 0..2 {
                let world = state.determinize(0, &mut rng);
                assert_eq!(
                    GameSession::<G>::seat_view(&world, 0, None),
                    page,
                    "{} {players}p seed {seed} ply {}: seat 0's page differs in a world it \
                     cannot tell apart",
                    G::NAME,
                    state.ply()
                );
            }
            let view = s.view(0).unwrap();
            let moves = view["moves"].as_array().unwrap();
            assert!(
                !moves.is_empty(),
                "{}: a human decision without moves",
                G::NAME
            );
            let pick = moves[rng.random_range(0..moves.len())]["id"]
                .as_u64()
                .unwrap();
            s.act(0, pick as usize).unwrap();
            decisions += 1;
            if decisions == 3 {
                // Undo returns to the page before the decision; the same move again plays
                // on identically (the streams were restored).
                let after = s.view(0).unwrap();
                s.undo(0).unwrap();
                assert_eq!(s.view(0).unwrap()["view"], view["view"]);
                assert_eq!(s.view(0).unwrap()["log"], view["log"]);
                s.act(0, pick as usize).unwrap();
                assert_eq!(s.view(0).unwrap(), after, "{}: undo then redo", G::NAME);
                // A saved position continues as the same game.
                let text = s.position();
                let pos = Position::<G>::from_json(&text).unwrap();
                let loaded = GameSession::<G>::from_position(pos, &seats, 99).unwrap();
                assert!(loaded.state() == s.state(), "{}: saved position", G::NAME);
            }
        }
        let end = s.view(0).unwrap();
        assert_eq!(end["terminal"], true);
        assert_eq!(end["result"]["scores"].as_array().unwrap().len(), players);
        assert!(!end["log"].as_array().unwrap().is_empty());
    }

    #[test]
    fn a_seat_page_never_shows_what_the_seat_cannot_see() {
        visit_all(&mut PagesHideWhatTheSeatCannotSee);
    }

    #[test]
    fn bad_requests_are_refused_by_name() {
        type G = crate::games::daxu::State;
        let seats = vec![HUMAN.to_string()];
        let mut s = GameSession::<G>::new(None, &[], &seats, 1).unwrap();
        assert_eq!(s.specs[1], s.agents[1].as_ref().unwrap().spec());
        assert!(s.specs[1].starts_with("mcts"), "{:?}", s.specs);
        assert!(matches!(s.view(1), Err(SessionError::NotHuman { .. })));
        assert!(matches!(s.act(0, 999), Err(SessionError::Illegal { .. })));
        assert!(matches!(s.undo(0), Err(SessionError::NothingToUndo { .. })));
        let none = GameSession::<G>::new(None, &[], &["random".into()], 1);
        assert!(matches!(none, Err(SessionError::Setup(m)) if m.contains("no human seat")));
        let bad = GameSession::<G>::new(None, &["nope=1".into()], &seats, 1);
        assert!(matches!(bad, Err(SessionError::Setup(m)) if m.contains("nope")));
    }

    #[test]
    fn short_lineups_fill_with_the_named_ai_never_a_second_human() {
        type G = crate::games::dunhuang::State;
        let filled = fill_seats::<G>(&[HUMAN.into(), "greedy".into()], 4).unwrap();
        assert_eq!(filled, [HUMAN, "greedy", "greedy", "greedy"]);
        let filled = fill_seats::<G>(&[HUMAN.into()], 3).unwrap();
        assert_eq!(filled, [HUMAN, "mcts", "mcts"]);
        assert!(fill_seats::<G>(&vec![HUMAN.to_string(); 5], 4).is_err());
    }

    /// Daimyo's die choice reaches the page grouped by die (`group`: heading and short
    /// name), every move still with its own id and full name; Q.A.X.'s setup is named
    /// `setup` in the seat's view, not round 0.
    #[test]
    fn moves_carry_their_group_and_the_setup_is_not_round_0() {
        type D = crate::games::daimyo::State;
        let mut s = GameSession::<D>::new(None, &[], &[HUMAN.into(), "random".into()], 2).unwrap();
        let mut grouped = None;
        for _ in 0..40 {
            let v = s.view(0).unwrap();
            let moves = v["moves"].as_array().unwrap().clone();
            if moves
                .iter()
                .any(|m| m["name"].as_str().unwrap().starts_with("takes the "))
            {
                grouped = Some(moves);
                break;
            }
            s.act(0, moves[0]["id"].as_u64().unwrap() as usize).unwrap();
        }
        let moves = grouped.expect("a die choice within 40 decisions");
        for m in &moves {
            let name = m["name"].as_str().unwrap();
            let g = m["group"].as_array().expect("a die's move has a group");
            let (head, item) = (g[0].as_str().unwrap(), g[1].as_str().unwrap());
            assert_eq!(name, format!("{head} {item}"), "{m}");
        }
        type Q = crate::games::qax::State;
        let q = GameSession::<Q>::new(None, &[], &[HUMAN.into(), "random".into()], 2).unwrap();
        let v = q.view(0).unwrap();
        assert_eq!(v["round"], 0);
        assert!(
            v["view"].as_str().unwrap().starts_with("setup; "),
            "{}",
            v["view"]
        );
        assert!(v["board"].as_str().unwrap().contains("setup · seat 0"));
    }
}
