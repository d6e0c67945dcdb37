//! Merchants of Dunhuang's game log: moves are public except the goods a seat keeps from a secret draw (setup, Interpreter, Diplomat) and the goods given in a Trader or Merchant exchange (DUN-13), which only the mover's seat is told ([`crate::games::log`]).

use crate::game::Player;
use crate::games::log::GameLog;

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<super::State> = &Log;

/// The game's [`GameLog`]: every method's default except the visibility of moves.
#[derive(Debug, Clone, Copy)]
pub struct Log;

impl GameLog<super::State> for Log {
    /// Everything moves in the open except secret keeps and exchanged goods (DUN-13).
    fn public_action(&self, _before: &super::State, _seat: Player, action: super::Action) -> bool {
        !matches!(action, super::Action::Keep(_) | super::Action::Give(_))
    }
}
