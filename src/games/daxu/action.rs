//! Daxu actions: the four action cards and the two answers of a player who decides who
//! receives the offer.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One Daxu move. Ids are stable: Give 0, Take 1, Cooperate 2, Undermine 3, Keep 4,
/// Pass 5.
///
/// The four action cards are played secretly and simultaneously (DAXU-3.2, "Choose one
/// action"). `Keep` and `Pass` answer the two turn-based decisions of the rules: the
/// tie-breaker card holder choosing who gets the cards when Give/Give or Take/Take meet
/// equal reputations (DAXU-3.5), and the underminer deciding
/// after Cooperate vs Undermine (DAXU-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Action {
    /// Action card Give: "The opponent gets all cards."
    Give = 0,
    /// Action card Take: "You take all cards."
    Take = 1,
    /// Action card Cooperate: "Accept the action of your opponent and gain 1 reputation."
    Cooperate = 2,
    /// Action card Undermine: "Perform the opposite action of your opponent and lose 1
    /// reputation" (reverses the opponent's own action, DAXU-01).
    Undermine = 3,
    /// The deciding player receives the offered cards.
    Keep = 4,
    /// The deciding player's opponent receives the offered cards.
    Pass = 5,
}

/// All actions by id.
pub const ALL: [Action; 6] = [
    Action::Give,
    Action::Take,
    Action::Cooperate,
    Action::Undermine,
    Action::Keep,
    Action::Pass,
];

/// Bitmask of all four action cards (bit = action id).
pub const FULL_HAND: u8 = 0b1111;

impl Action {
    /// Whether this is one of the four action cards (not a Keep/Pass answer).
    pub fn is_card(self) -> bool {
        (self as u8) < 4
    }

    /// Reputation change of playing this card as part of the final pair: Cooperate +1,
    /// Undermine -1, otherwise 0 (DAXU-3.3, DAXU-3.8).
    pub fn reputation_delta(self) -> i8 {
        match self {
            Action::Cooperate => 1,
            Action::Undermine => -1,
            _ => 0,
        }
    }

    /// The lowercase word used on the command line and in transcripts.
    pub fn word(self) -> &'static str {
        match self {
            Action::Give => "give",
            Action::Take => "take",
            Action::Cooperate => "cooperate",
            Action::Undermine => "undermine",
            Action::Keep => "keep",
            Action::Pass => "pass",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}
