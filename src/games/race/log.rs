//! The race example's game log: nothing is hidden ([`crate::games::log`]).

use crate::game::Seat;
use crate::games::log::GameLog;

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<super::Race> = &Log;

impl crate::games::log::Logged for super::Race {
    fn log() -> &'static dyn GameLog<Self> {
        LOG
    }
}

/// The game's [`GameLog`]: every method's default except the visibility of moves.
#[derive(Debug, Clone, Copy)]
pub struct Log;

impl GameLog<super::Race> for Log {
    /// Nothing is hidden in the race.
    fn public_action(&self, _before: &super::Race, _seat: Seat, _action: super::Action) -> bool {
        true
    }
}
