//! # Daxu (J. Alex Kevern, White Goblin Games 2015), 2 players
//!
//! Rules summary; the rules as implemented, with every ruling, are `docs/rules/daxu.md`,
//! whose clause ids are cited in parentheses (`DAXU-3.5` a rule, `DAXU-05` a ruling):
//!
//! - **Setup** (DAXU-2.1–2.4). 54 shop cards (9 of each of 6 types, DAXU-1.1). Two are
//!   removed unseen; each player gets 8 cards face up on their side, their reputation
//!   symbols ignored. Reputations start at 0 on a track from -7 to +7 (DAXU-1.3). One player
//!   holds the tie-breaker card.
//! - **Round.** (1) Flip 3 cards (the *offer*, DAXU-3.1). (2) Both players secretly choose
//!   one of their action cards Give, Take, Cooperate, Undermine (DAXU-3.2). (3) Resolve
//!   (matrix of DAXU-01): Give/Give → lower reputation receives, Take/Take → higher
//!   reputation receives; on equal reputations the tie-breaker holder chooses who receives,
//!   and the card passes to the other player (DAXU-3.5, DAXU-05). Cooperate accepts the
//!   opponent's action; Undermine reverses it; Cooperate vs Undermine → the underminer
//!   decides (DAXU-3.4). Cooperate/Cooperate and Undermine/Undermine flip one more card and
//!   both choose again (an empty deck instead removes both copies of that card from the
//!   game, DAXU-3.6, DAXU-06). (4) The receiver applies the symbols of the received cards
//!   in flip order, then each player applies their final action card (Cooperate +1,
//!   Undermine -1), clamping at ±7 after each step (DAXU-3.8, DAXU-3.9, DAXU-04).
//! - **End.** When 3 cards cannot be flipped at the start of a round (DAXU-4.1, DAXU-07).
//! - **Scoring.** Per shop type the majority scores by margin (Baker, Rice wine maker,
//!   Carpenter: 4/2/1, penalty at 4+; Basket maker, Silk trader, Teahouse: 5/3, penalty at
//!   3+); the penalty costs the majority 1 point and gives the opponent 1 point per card of
//!   theirs (DAXU-5.1–5.4). Reputation scores by table (DAXU-5.6, DAXU-02). A final tie
//!   goes to the tie-breaker holder (DAXU-5.7).
//!
//! ## Model
//!
//! The state is a fixed-size value (136 bytes on x86-64, no heap). The deck is not stored in order:
//! the unseen pool (deck + the 2 removed cards) is kept as counts per card kind and each
//! flip draws uniformly from it, which has the same distribution as a shuffled deck and
//! leaves nothing to resample in [`determinize`](crate::game::GameState::determinize). The action cards are a joint
//! action at a simultaneous node; the tie-breaker choice and the underminer's choice are
//! turn-based nodes with the answers [`Action::Keep`] and [`Action::Pass`].
//!
//! Hidden information: the deck order, the 2 removed cards (both lazily drawn chance) and
//! the opponent's pending action card (never visible: joint actions). Everything else is
//! public, so the info key is a digest of the public history and is the same for both
//! seats. Hence the game type says *perfect* information: in this crate's sense
//! ([`crate::game::Information`]) only future chance and pending simultaneous choices are
//! unseen, and the removed cards are never drawn, so they are future chance too.
//!
//! ## Information state and observation tensor
//!
//! The information state ([`GameState::information_state_string`](crate::game::GameState::information_state_string)) is the observation
//! printed, then `history` and the public history digest in hex: the digest (which is the
//! info key) folds in the setup (holder and sides; for a position built from a [`Setup`]
//! also its reputations, hands, round, deck size and unseen pool), every flipped card,
//! every revealed pair of action cards, every Keep/Pass decision and every receiver. A
//! seat sees nothing private (its own pending action card is applied at once with the
//! other's), so this is everything it has seen and done: perfect recall, up to 64-bit
//! collisions of the digest.
//!
//! The observation tensor has 148 values; "observer first" lists the observing seat, then
//! the other one:
//!
//! | field | length | encoding |
//! |---|---|---|
//! | `player` | 2 | one-hot of the observing seat |
//! | `phase` | 3 | one-hot: choose (simultaneous action cards), decide (Keep/Pass), over |
//! | `decider` | 2 | at a decide node, one-hot of the deciding seat, observer first; else zeros |
//! | `tiebreak_decision` | 1 | 1 if the pending decision is the tie-breaker holder's (the card then passes on) |
//! | `holder` | 2 | one-hot of the tie-breaker holder, observer first |
//! | `reputation` | 30 | per seat, observer first, one-hot of the reputation -7..=7 (15 values) |
//! | `sides` | 12 | per seat, observer first, per shop type in board order ([`Shop`]): cards / 9 |
//! | `hands` | 8 | per seat, observer first, 1 per action card (Give, Take, Cooperate, Undermine) still in hand |
//! | `revealed_pair` | 8 | at a decide node, per seat, observer first, one-hot of its revealed action card; else zeros |
//! | `offer_kinds` | 18 | the offer's cards per kind (card id `3 · shop + symbol`, symbol none/+1/-1) / 9 |
//! | `offer_symbols` | 40 | per offer slot in flip order, its reputation symbol (+1, -1 or 0); 0 past the offer (the order matters where the track clamps at ±7) |
//! | `unseen_kinds` | 18 | the unseen pool (deck and removed cards) per kind / 9: counts only, never the order |
//! | `deck` | 1 | cards left in the deck / 54 |
//! | `round` | 1 | rounds started / 18 |
//! | `scores` | 2 | the points each seat would score if the game ended now, observer first, / 30 |
//!
//! ## Parameters
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `reputation_points` | `identity` | reputation → points table; `table_b` is DAXU-02's alternative |
//! | `deck` | `2/2/5` | cards with +1, -1, no symbol (sum 9): one `p/m/n` for all types, or six joined by `,` in board order ([`DeckSpec`], DAXU-03) |
//! | `rep_order` | `cards_then_action` | order of reputation steps (DAXU-04) |
//! | `tiebreak_mode` | `holder_chooses` | `holder_receives` is the Dutch summary's reading (DAXU-05) |
//! | `initial_tiebreak_holder` | `random` | `0` or `1` to fix the seat (DAXU-05) |
//! | `returns` | `win_share` | what search maximises: `win_share`, `rank` (the same at 2 seats) or `margin` (score difference); not a rule |
//!
//! ## Deviations
//!
//! Every ASSUMPTION ruling of `docs/rules/daxu.md` is a parameter above with the ruling's
//! default (DAXU-8.1–8.3):
//! - DAXU-02: the rulebook's reputation table is garbled; default identity (points =
//!   reputation), alternative table B.
//! - DAXU-03: no card list is public; default 2 × (+1), 2 × (-1), 5 × none per type.
//! - DAXU-04: cards before the action card (the worked example's order), clamped per step.
//! - DAXU-05: the initial holder is "the player who recently lost a game"; the simulator
//!   draws it at random (chance stream of the game) unless fixed.
//!
//! The value estimate ([`GameState::value`](crate::game::GameState::value)) starts from the *projected final score
//! difference* ([`State::projected_margin`]): the score difference if the game ended now,
//! where an undecided offer counts as the mean of giving it to either seat, and at a
//! decision node as the decider's better choice. It is given in the units of `returns`:
//! the margin itself for `returns=margin`, otherwise the win-share estimate
//! `1 / (1 + exp(-margin / 5))`.

mod action;
mod card;
pub mod log;
mod score;
mod state;
#[cfg(test)]
mod tests;

pub use action::Action;
pub use card::{CARDS_PER_SHOP, Card, NUM_KINDS, NUM_SHOPS, Shop, Symbol};
pub use score::{REP_MAX, REP_MIN, TABLE_B, final_scores, reputation_points, shop_points};
pub use state::{Observation, Phase, RulesData, Setup, SetupError, State};

use crate::game::Utility;
use crate::params::{ParamValue, Syntax, parse_list};

crate::param_enum! {
    /// Reputation → points table (DAXU-02, ASSUMPTION, `daxu.reputation_points`).
    pub enum RepPoints {
        /// Points = reputation, -7..=7.
        Identity = "identity",
        /// The alternative table B of DAXU-02.
        TableB = "table_b",
    }
}

crate::param_enum! {
    /// Order of the reputation steps of phase 4 (DAXU-04, `daxu.rep_order`).
    pub enum RepOrder {
        /// Received cards' symbols in flip order, then the action card (worked example).
        CardsThenAction = "cards_then_action",
        /// The action card first, then the received cards.
        ActionThenCards = "action_then_cards",
    }
}

crate::param_enum! {
    /// What the tie-breaker card does on equal reputations (DAXU-05).
    pub enum TiebreakMode {
        /// The holder chooses who gets the cards (English rulebook).
        HolderChooses = "holder_chooses",
        /// The holder gets the cards (Dutch summary).
        HolderReceives = "holder_receives",
    }
}

crate::param_enum! {
    /// Who holds the tie-breaker card at the start (DAXU-05,
    /// `daxu.initial_tiebreak_holder`).
    pub enum InitialHolder {
        /// Drawn at random from the game's chance stream.
        Random = "random",
        /// Seat 0.
        Seat0 = "0",
        /// Seat 1.
        Seat1 = "1",
    }
}

/// The deck composition (DAXU-03, \[ASSUMPTION\] `daxu.deck`): for each shop type in
/// board order, the number of cards with +1, with -1 and without a symbol; each type sums
/// to 9 (DAXU-1.1: 9 of each type).
///
/// Typed as a list of triples ([`crate::params::parse_list`] of `[u8; 3]`): one triple
/// `p/m/n` for every type (`2/2/5`), or six triples separated by `,` in the order Baker,
/// Rice wine maker, Carpenter, Basket maker, Silk trader, Teahouse
/// (`1/3/5,2/2/5,2/2/5,2/2/5,2/2/5,0/0/9`). Printed as one triple when all six are equal.
///
/// # Errors
/// Parsing names the accepted forms and what was wrong: a triple that is not three
/// integers, a count other than 1 or 6, or a triple that does not sum to 9 (naming the type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeckSpec(pub [[u8; 3]; NUM_SHOPS]);

impl Default for DeckSpec {
    fn default() -> Self {
        DeckSpec([[2, 2, 5]; NUM_SHOPS])
    }
}

/// The shop types in board order, as the rulebook names them (the order of [`DeckSpec`]).
const SHOP_NAMES: [&str; NUM_SHOPS] = [
    "Baker",
    "Rice wine maker",
    "Carpenter",
    "Basket maker",
    "Silk trader",
    "Teahouse",
];

/// The accepted forms of [`DeckSpec`], for error messages.
const DECK_FORMS: &str = "p/m/n (cards with +1, with -1, without symbol, summing to 9) for every \
                          shop type, or six such triples separated by ',' (Baker, Rice wine \
                          maker, Carpenter, Basket maker, Silk trader, Teahouse)";

impl ParamValue for DeckSpec {
    const SYNTAX: Syntax = <Vec<[u8; 3]> as ParamValue>::SYNTAX;

    fn parse_param(s: &str) -> Result<Self, String> {
        if s.contains(';') {
            return Err(format!(
                "{DECK_FORMS}; triples are separated by ',', not ';'"
            ));
        }
        let triples: Vec<[u8; 3]> =
            parse_list(s).map_err(|detail| format!("{DECK_FORMS}; {detail}"))?;
        let deck = match triples[..] {
            [t] => [t; NUM_SHOPS],
            _ => triples
                .as_slice()
                .try_into()
                .map_err(|_| format!("{DECK_FORMS}; got {} triples", triples.len()))?,
        };
        for (i, [p, m, n]) in deck.iter().enumerate() {
            let sum = u32::from(*p) + u32::from(*m) + u32::from(*n);
            if sum != CARDS_PER_SHOP as u32 {
                let which = if triples.len() == 1 {
                    "every type".to_string()
                } else {
                    SHOP_NAMES[i].to_string()
                };
                return Err(format!(
                    "{DECK_FORMS}; {which}: {p}/{m}/{n} sums to {sum}, not {CARDS_PER_SHOP}"
                ));
            }
        }
        Ok(DeckSpec(deck))
    }

    fn format_param(&self) -> String {
        if self.0.iter().all(|t| *t == self.0[0]) {
            self.0[0].format_param()
        } else {
            self.0.to_vec().format_param()
        }
    }

    fn type_name() -> String {
        "p/m/n, or six p/m/n separated by ','".into()
    }
}

crate::param_set! {
    /// Daxu rule variants: every ASSUMPTION ruling of docs/rules/daxu.md, with its default.
    pub struct Params {
        /// Reputation to points table: identity or the alternative table_b (DAXU-02, ASSUMPTION).
        pub reputation_points: RepPoints = RepPoints::Identity,
        /// Per shop type: cards with +1, with -1, without symbol; p/m/n for every type, or six triples separated by ',' (DAXU-03, ASSUMPTION).
        pub deck: DeckSpec = DeckSpec::default(),
        /// Order of phase-4 reputation steps, clamped after each step (DAXU-04).
        pub rep_order: RepOrder = RepOrder::CardsThenAction,
        /// Equal reputations on Give/Give or Take/Take: the holder chooses, or receives (DAXU-05).
        pub tiebreak_mode: TiebreakMode = TiebreakMode::HolderChooses,
        /// Seat holding the tie-breaker card at the start: random, 0 or 1 (DAXU-05, ASSUMPTION).
        pub initial_tiebreak_holder: InitialHolder = InitialHolder::Random,
        /// What search agents maximise: win_share, rank (equal to win_share at 2 seats) or margin (score difference in points); not a rule, records are unaffected.
        pub returns: Utility = Utility::WinShare,
        /// End-of-game bonus per seat in points, added before ranking: seat 0 first, `/`-separated (`0/0.5`), 0 for seats not given (DAXU-5.9; a compensation knob for `sim balance`, not in the rulebook).
        pub komi: crate::game::Komi = crate::game::Komi::NONE,
    }
}
