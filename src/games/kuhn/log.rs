//! Kuhn poker's game log: every bet and pass is public; the cards are in each seat's observation ([`crate::games::log`]).

use crate::game::Player;
use crate::games::log::GameLog;

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<super::State> = &Log;

/// The game's [`GameLog`]: every method's default except the visibility of moves.
#[derive(Debug, Clone, Copy)]
pub struct Log;

impl GameLog<super::State> for Log {
    /// Bets and passes are made in the open.
    fn public_action(&self, _before: &super::State, _seat: Player, _action: super::Action) -> bool {
        true
    }
}
