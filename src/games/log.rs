//! The game log: how a game is told to people (`sim play`, `sim replay`) and shown to
//! outside programs (the external-agent protocol), per game.
//!
//! A [`GameLog`] turns plies into readable lines ("seat 1 receives baker+, silk (Take/Take:
//! the higher reputation receives)"), renders what one seat sees for a human at the table,
//! and gives that seat's observation as JSON. Every method has a default built from the
//! [`GameState`] API alone (the action's `Display`, the observation's `Display`), so a game
//! without its own log still plays; a game adds one in `src/games/<game>/log.rs` and
//! returns it from its [`Logged`] capability.
//!
//! The presentation lives beside the rules engine, not in the core [`GameState`] trait, so
//! the rules engine's impl stays about rules; [`Logged`] is an optional capability with a
//! default, part of [`crate::game::Playable`].
//!
//! **Hidden information.** A log line is written for an [`Audience`]: everyone
//! ([`Audience::All`], the omniscient transcript of `sim play` without human seats and of
//! `sim replay`), or the human seats at the table ([`Audience::Seats`]), who must learn
//! nothing their seats could not see. The default log is safe for any game: with a seat
//! audience it names another seat's action only when the game's log says it is public
//! ([`GameLog::public_action`], default false: "seat 1 moves").

use serde_json::{Value, json};

use crate::game::{GameState, JointAction, Seat, SeatSet};

/// How views and transcripts name round `round` ([`GameState::round`], rounds started so
/// far): `round 3`, or `setup` before the first round starts (Q.A.X.'s pieces and first
/// Index are placed in round 0, QAX-2.4 and QAX-2.5; the rulebook counts rounds from 1).
pub fn round_label(round: u32) -> String {
    if round == 0 {
        "setup".to_string()
    } else {
        format!("round {round}")
    }
}

/// Who reads a log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone: the whole state may be told (transcripts, replays).
    All,
    /// The human seats at the table: only what all of them may see is told (with one
    /// human seat, what that seat sees).
    Seats(SeatSet),
}

impl Audience {
    /// Whether the audience may know what only `seat` sees (its hand, its secret choice):
    /// everyone, or exactly that one seat.
    pub fn knows_private(self, seat: Seat) -> bool {
        match self {
            Audience::All => true,
            Audience::Seats(s) => s == SeatSet::single(seat),
        }
    }
}

/// How one game is told (see the module docs). Every method has a default.
pub trait GameLog<G: GameState>: Sync {
    /// Whether `seat`'s `action`, played at `before`, is seen by every seat once the ply is
    /// applied (a public move, or a simultaneous choice that is revealed). Default: false
    /// (the log then says only "seat p moves" to a seat audience).
    fn public_action(&self, before: &G, seat: Seat, action: G::Action) -> bool {
        let _ = (before, seat, action);
        false
    }

    /// The seats that see `seat`'s `action`, played at `before`, once the ply is applied:
    /// every seat for a public action ([`GameLog::public_action`]), else `seat` alone. A
    /// game overrides it for a move some seats see and others do not (Dunhuang's
    /// Trader/Merchant gives, seen by the two parties). Multiple-observer ISMCTS
    /// ([`crate::agents::mo_ismcts`]) keys each seat's tree by it.
    fn seen_by(&self, before: &G, seat: Seat, action: G::Action) -> SeatSet {
        if self.public_action(before, seat, action) {
            SeatSet::all(before.num_players())
        } else {
            SeatSet::single(seat)
        }
    }

    /// How `seat`'s action reads in the log: `seat 1 plays take`, or `seat 1 moves` when the
    /// audience may not know it.
    fn action(&self, before: &G, seat: Seat, action: G::Action, audience: Audience) -> String {
        if audience.knows_private(seat) || self.public_action(before, seat, action) {
            format!("seat {seat} plays {action}")
        } else {
            format!("seat {seat} moves")
        }
    }

    /// How `action` reads in the numbered list of moves offered to human `seat` at
    /// `before` (`sim play`). Default: the action's `Display`, which is also the name a
    /// human may type; a game's readable name is accepted as typed input too.
    fn move_name(&self, before: &G, seat: Seat, action: G::Action) -> String {
        let _ = (before, seat);
        action.to_string()
    }

    /// The group `action` belongs to in the menu of human `seat` at `before`, and its
    /// short name within that group: `("takes the red 5 die for", "Production")`. A menu
    /// prints the consecutive moves of one group on one line under its heading, so a
    /// decision among many similar moves stays short while every move keeps its own
    /// number; [`GameLog::move_name`] stays the move's full name (and typed input). Default:
    /// `None` (a line of its own).
    fn move_group(&self, before: &G, seat: Seat, action: G::Action) -> Option<(String, String)> {
        let _ = (before, seat, action);
        None
    }

    /// What a ply did, beyond the actions: who received what and why, how scores and
    /// tracks moved, what chance revealed, as lines the audience may read. `before` is the
    /// state before the ply, `after` after it (chance included). Default: nothing.
    fn consequences(
        &self,
        before: &G,
        joint: &JointAction<G::Action>,
        after: &G,
        audience: Audience,
    ) -> Vec<String> {
        let _ = (before, joint, after, audience);
        Vec::new()
    }

    /// What the rules engine did by itself while setting the game up, before ply 1 (the
    /// forced moves of the setup, heard when [`GameLog::listen`] was called before
    /// [`GameState::new_game`] and [`GameLog::heard`] after it), as lines the audience may
    /// read. `start` is the state after setup. Default: nothing.
    fn setup(&self, start: &G, audience: Audience) -> Vec<String> {
        let _ = (start, audience);
        Vec::new()
    }

    /// The final score breakdown of a finished game (public at the end): how each seat's
    /// points came about. Default: nothing (the scores alone are printed).
    fn breakdown(&self, end: &G) -> Vec<String> {
        let _ = end;
        Vec::new()
    }

    /// What `seat` sees now, for a human deciding at that seat. Default: the observation
    /// ([`GameState::observation`]).
    fn view(&self, state: &G, seat: Seat) -> String {
        state.observation(seat).to_string()
    }

    /// The whole state, for the omniscient transcript ([`Audience::All`]: `sim play`
    /// without human seats, `sim replay`). Default: the state's `Display`.
    fn state(&self, state: &G) -> String {
        state.to_string()
    }

    /// Starts listening for the moves the rules engine makes by itself during the next
    /// apply (a choice with one option, which it takes without asking: a forced move), so
    /// that [`GameLog::consequences`] can name them. Call it after the ply's actions are
    /// chosen (an agent's search must not be heard) and right before they are applied;
    /// [`GameLog::heard`] ends it. Default: nothing (a game without forced moves).
    fn listen(&self) {}

    /// Stops listening ([`GameLog::listen`]) and files what was heard under the state
    /// `after` the ply, where [`GameLog::consequences`] finds it. Default: nothing.
    fn heard(&self, after: &G) {
        let _ = after;
    }

    /// An observation ([`GameState::observation`]) as JSON, for external agents
    /// (`docs/ext-protocol.md`): an object. Default: `{"text": <the observation's
    /// Display>}`; a game's log adds structured fields beside `text`.
    fn observation_json(&self, observation: &G::Observation) -> Value {
        json!({ "text": observation.to_string() })
    }
}

/// The default log of a game without its own (every method's default).
#[derive(Debug, Clone, Copy)]
pub struct PlainLog;

impl<G: GameState> GameLog<G> for PlainLog {}

/// Optional capability: how a game is told ([`GameLog`]). The default is [`PlainLog`], so a
/// new game starts with `impl Logged for State {}`; a game with its own log returns it.
pub trait Logged: GameState {
    /// The game's log.
    fn log() -> &'static dyn GameLog<Self>
    where
        Self: Sized,
    {
        &PlainLog
    }
}

/// The log of game `G` ([`Logged::log`]).
pub fn log<G: GameState + Logged>() -> &'static dyn GameLog<G> {
    G::log()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audiences_know_only_their_own_secrets() {
        assert!(Audience::All.knows_private(1));
        let one = Audience::Seats(SeatSet::single(1));
        assert!(one.knows_private(1) && !one.knows_private(0));
        let both = Audience::Seats(SeatSet::all(2));
        assert!(!both.knows_private(0) && !both.knows_private(1));
    }

    #[test]
    fn each_game_finds_its_own_log_and_others_the_plain_one() {
        use crate::games::daxu;
        let s = crate::game::setup::<daxu::State>(
            &Default::default(),
            2,
            &mut crate::rng::rng_from_seed(1),
        )
        .unwrap();
        let daxu_log = log::<daxu::State>();
        // Daxu's actions are revealed, so a seat audience sees the opponent's card.
        assert!(daxu_log.public_action(&s, 1, daxu::Action::Take));
        assert!(
            daxu_log
                .observation_json(&s.observation(0))
                .get("reputations")
                .is_some()
        );
        let plain: &dyn GameLog<daxu::State> = &PlainLog;
        assert!(!plain.public_action(&s, 1, daxu::Action::Take));
        assert_eq!(
            plain.action(
                &s,
                1,
                daxu::Action::Take,
                Audience::Seats(SeatSet::single(0))
            ),
            "seat 1 moves"
        );
    }
}
