//! Q.A.X.'s game log: every move is made in the open (a field chosen from a hand under `field_setup=players` is placed at once) ([`crate::games::log`]).

use crate::game::Player;
use crate::games::log::GameLog;

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<super::State> = &Log;

/// The game's [`GameLog`]: every method's default except the visibility of moves.
#[derive(Debug, Clone, Copy)]
pub struct Log;

impl GameLog<super::State> for Log {
    /// Every decision is visible on the board once applied.
    fn public_action(&self, _before: &super::State, _seat: Player, _action: super::Action) -> bool {
        true
    }
}
