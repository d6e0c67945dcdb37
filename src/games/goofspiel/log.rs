//! Goofspiel's game log: bids are revealed after each round, except under `imp_info = true` (only the winner is seen) ([`crate::games::log`]).

use crate::game::Game;
use crate::game::Player;
use crate::games::log::GameLog;

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<super::State> = &Log;

/// The game's [`GameLog`]: every method's default except the visibility of moves.
#[derive(Debug, Clone, Copy)]
pub struct Log;

impl GameLog<super::State> for Log {
    /// Bids are revealed after the round unless `imp_info = true`.
    fn public_action(&self, before: &super::State, _seat: Player, _action: super::Action) -> bool {
        !before.rules().params().imp_info
    }
}
