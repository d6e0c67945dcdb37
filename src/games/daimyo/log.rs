//! Daimyo's game log: hands are hidden (DAI-27) but every decision is made in the open (a Hero leaves the hand face up when played or discarded) ([`crate::games::log`]).

use crate::game::Player;
use crate::games::log::GameLog;

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<super::State> = &Log;

/// The game's [`GameLog`]: every method's default except the visibility of moves.
#[derive(Debug, Clone, Copy)]
pub struct Log;

impl GameLog<super::State> for Log {
    /// Decisions are public; only hands (drawn by chance) are hidden.
    fn public_action(&self, _before: &super::State, _seat: Player, _action: super::Action) -> bool {
        true
    }
}
