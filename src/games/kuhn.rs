//! Kuhn poker (Kuhn 1950), two players: a reference game with a published solution.
//!
//! Rules implemented (the standard variant, as in OpenSpiel's `kuhn_poker`):
//! - A deck of three cards, Jack < Queen < King (written `0`, `1`, `2`). Each player antes
//!   one chip and is dealt one card face down; the third card is not used.
//! - Seat 0 acts first. An action is *pass* (`p`: check, or fold facing a bet) or *bet*
//!   (`b`: bet one chip, or call facing a bet). The betting sequences are
//!   `pp`, `bp`, `bb`, `pbp` and `pbb`.
//! - A pass facing a bet folds: the other player wins the pot. Otherwise (`pp`, `bb`,
//!   `pbb`) the higher card wins the pot at the showdown.
//!
//! Chance (the deal) is sampled in [`GameState::new_game`] from the caller's RNG. The hidden
//! information of a seat is the opponent's card, revealed at a showdown (then it is part of
//! the info key). [`GameState::determinize`] resamples the opponent's card uniformly from the
//! two cards the observer does not hold.
//!
//! Utilities. [`GameState::scores`] are the chips won (in `[-2, 2]`, zero-sum); the first
//! player's game value is `-1/18` chips (Kuhn 1950). [`GameState::returns`] maps chips
//! linearly into `[0, 1]`: `(2 + chips) / 4`, so the two returns sum to 1 and maximising the
//! expected return is maximising expected chips. Ranks: the pot winner is ranked 1.
//!
//! Heuristic (in `[-1, 1]`): at a terminal state, chips / 2; otherwise the expected chips of
//! an immediate showdown against a uniformly random unseen card (win probability
//! `own_card / 2`), winning the opponent's contribution or losing one's own, divided by 2.
//!
//! ## Information state and observation tensor
//!
//! A seat's information state ([`GameState::information_state_string`], equal to
//! [`State::info_set_string`] and to the observation string) is OpenSpiel's: its own card
//! rank, then the betting history in `p`/`b` letters, e.g. `1pb`; after a showdown the
//! opponent's revealed card follows after `/` (`1pbb/2`). The string grows by one letter
//! per ply, so every earlier observation is a prefix of it: it is perfect recall, and
//! [`GameState::info_key`] packs exactly the same facts (the seat, its card, the history, the
//! revealed card) into one word.
//!
//! The observation tensor (16 values, the same at every node; OpenSpiel's information
//! state tensor of 11 values, then the revealed card and the pot) is:
//!
//! | field | length | encoding |
//! |---|---|---|
//! | `player` | 2 | one-hot of the observing seat (seat 0 acts first) |
//! | `private_card` | 3 | one-hot of the seat's own card: Jack, Queen, King |
//! | `betting` | 6 | for each of the 3 betting slots in order, one-hot `[pass, bet]`; `0, 0` for a slot not yet played |
//! | `revealed_card` | 3 | one-hot of the opponent's card after a showdown, else zeros |
//! | `pot` | 2 | chips each seat has put in the pot (ante 1, plus bets and calls) / 2, seat 0 first |

use crate::game::InvalidState;
use crate::game::{ChanceMode, Dynamics, GameType, Information, Rules, TensorField, UtilityKind};
use std::fmt;

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::game::{
    Chance, GameState, JointAction, Measured, PerSeat, RulesRef, RunningScore, Seat, Turn,
    default_rules, ranks_by_key,
};
use crate::rng::{SimRng, mix64};

crate::param_set! {
    /// Kuhn poker's one parameter is the generic compensation `komi` (KUHN-1.6); the
    /// rules themselves have no variants.
    pub struct Params {
        /// End-of-game bonus per seat in chips, added before ranking: seat 0 first, `/`-separated (`0/0.5`), 0 for seats not given (KUHN-1.6; a compensation knob for `sim balance`, not in the rulebook).
        pub komi: crate::game::Komi = crate::game::Komi::NONE,
    }
}

/// A betting action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Check, or fold when facing a bet. Written `p`.
    #[serde(rename = "p")]
    Pass,
    /// Bet one chip, or call a bet. Written `b`.
    #[serde(rename = "b")]
    Bet,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Pass => "p",
            Action::Bet => "b",
        })
    }
}

/// The card names, indexed by rank (0 = Jack).
pub const CARD_NAMES: [&str; 3] = ["J", "Q", "K"];

/// A Kuhn poker state: the deal and the betting history (at most three actions). Saved as
/// `{"rules", "cards": [seat 0's, seat 1's], "history": [3 actions "p"/"b"], "len"}`, of
/// which the first `len` history entries were played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    rules: RulesRef<State>,
    cards: [u8; 2],
    history: [Action; 3],
    len: u8,
}

/// Chips in the pot per seat after `history` (ante 1, plus 1 per bet or call).
pub(super) fn contributions(history: &[Action]) -> [i32; 2] {
    let mut c = [1, 1];
    for (i, &a) in history.iter().enumerate() {
        if a == Action::Bet {
            c[i % 2] += 1;
        }
    }
    c
}

impl State {
    /// The state after the deal `cards` (seat 0's card, seat 1's card; ranks 0..=2).
    ///
    /// # Panics
    /// If a card is not in `0..=2` or both cards are equal.
    pub fn from_deal(cards: [u8; 2]) -> Self {
        assert!(
            cards[0] < 3 && cards[1] < 3 && cards[0] != cards[1],
            "bad deal {cards:?}"
        );
        State {
            rules: default_rules(),
            cards,
            history: [Action::Pass; 3],
            len: 0,
        }
    }

    /// The dealt cards (seat 0's, seat 1's), ranks 0 = Jack, 1 = Queen, 2 = King.
    pub fn cards(&self) -> [u8; 2] {
        self.cards
    }

    /// The betting history so far.
    pub fn history(&self) -> &[Action] {
        &self.history[..self.len as usize]
    }

    /// Chips put in the pot per seat (ante 1, plus 1 per bet or call).
    fn contributions(&self) -> [i32; 2] {
        contributions(self.history())
    }

    /// The seat that folded, if any: a pass right after a bet.
    fn folder(&self) -> Option<Seat> {
        let h = self.history();
        (1..h.len())
            .find(|&i| h[i] == Action::Pass && h[i - 1] == Action::Bet)
            .map(|i| i % 2)
    }

    fn is_terminal(&self) -> bool {
        let h = self.history();
        match h.len() {
            0 | 1 => false,
            2 => h != [Action::Pass, Action::Bet],
            _ => true,
        }
    }

    /// Whether the game ended at a showdown (cards revealed).
    pub fn is_showdown(&self) -> bool {
        self.is_terminal() && self.folder().is_none()
    }

    /// Chips won by seat 0 (negative = lost) at a terminal state; 0 before the end.
    pub fn chips(&self) -> i32 {
        if !self.is_terminal() {
            return 0;
        }
        let c = self.contributions();
        let winner = match self.folder() {
            Some(f) => 1 - f,
            None => usize::from(self.cards[1] > self.cards[0]),
        };
        if winner == 0 { c[1] } else { -c[0] }
    }

    /// The printable information-set string of `player`: own card rank then the betting
    /// history, e.g. `1pb` (the Queen after pass, bet), as in OpenSpiel. At a showdown the
    /// opponent's revealed card follows after `/`.
    pub fn info_set_string(&self, player: Seat) -> String {
        let mut s = self.cards[player].to_string();
        for a in self.history() {
            s.push_str(&a.to_string());
        }
        if self.is_showdown() {
            s.push('/');
            s.push_str(&self.cards[1 - player].to_string());
        }
        s
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "kuhn cards {} {} history '",
            CARD_NAMES[self.cards[0] as usize], CARD_NAMES[self.cards[1] as usize]
        )?;
        for a in self.history() {
            write!(f, "{a}")?;
        }
        write!(f, "'")?;
        if self.is_terminal() {
            write!(f, " chips {}", self.chips())?;
        }
        Ok(())
    }
}

impl GameState for State {
    type Action = Action;
    type Params = Params;
    type RulesData = ();
    type Observation = String;

    const TYPE: GameType = GameType {
        short_name: "kuhn",
        long_name: "Kuhn poker",
        description: "Kuhn poker (2 players, 3 cards; reference game, first player's value -1/18 chips)",
        min_players: 2,
        max_players: 2,
        default_players: 2,
        dynamics: Dynamics::Sequential,
        chance_mode: ChanceMode::SampledStochastic,
        information: Information::Imperfect,
        // The returns `(2 + chips) / 4` sum to 1 (the chips, `scores`, are zero-sum).
        utility: UtilityKind::ConstantSum,
        num_action_ids: 2,
        perfect_recall: true,
    };

    fn build_rules(_: &Params, _: usize) -> Result<(), crate::ParamError> {
        Ok(())
    }

    /// Deals two distinct cards: seat 0's uniformly, seat 1's uniformly among the other two.
    fn new_game<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> Self {
        let c0 = chance.below(3) as u8;
        let c1 = (c0 + 1 + chance.below(2) as u8) % 3;
        State {
            rules,
            ..State::from_deal([c0, c1])
        }
    }

    fn rules(&self) -> RulesRef<State> {
        self.rules
    }

    fn turn(&self) -> Turn {
        if self.is_terminal() {
            Turn::Terminal
        } else {
            Turn::Player(self.len as usize % 2)
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.turn() == Turn::Player(player) {
            out.extend_from_slice(&[Action::Pass, Action::Bet]);
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, player: Seat, action: Action, _: &mut C) {
        debug_assert_eq!(self.turn(), Turn::Player(player));
        self.history[self.len as usize] = action;
        self.len += 1;
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<Action>, _: &mut C) {
        debug_assert!(false, "Kuhn poker has no simultaneous nodes");
    }

    /// `(2 + chips) / 4` per seat: in `[0, 1]`, summing to 1 (see the module docs).
    fn returns(&self) -> PerSeat<f64> {
        let r0 = (2.0 + f64::from(self.chips())) / 4.0;
        [r0, 1.0 - r0, 0.0, 0.0]
    }

    /// Chips won per seat (zero-sum).
    fn scores(&self) -> PerSeat<i32> {
        let c = self.chips();
        [c, -c, 0, 0]
    }

    /// The pot winner first; a nonzero `komi` ranks by chips plus komi (KUHN-1.6).
    fn ranks(&self) -> PerSeat<u8> {
        let komi = &self.rules.params().komi;
        if komi.is_zero() {
            ranks_by_key(&self.scores(), 2)
        } else {
            komi.rank(&self.scores(), &[0u8; 4], 2)
        }
    }

    fn info_key(&self, player: Seat) -> u64 {
        let mut code = u64::from(self.cards[player]) | (player as u64) << 2;
        code |= u64::from(self.len) << 3;
        for (i, &a) in self.history().iter().enumerate() {
            code |= u64::from(a == Action::Bet) << (5 + i);
        }
        if self.is_showdown() {
            code |= (1 + u64::from(self.cards[1 - player])) << 8;
        }
        mix64(code)
    }

    fn determinize(&self, observer: Seat, rng: &mut SimRng) -> Self {
        let mut d = *self;
        if !self.is_showdown() {
            let own = self.cards[observer];
            d.cards[1 - observer] = (own + rng.random_range(1..3u8)) % 3;
        }
        d
    }

    /// The returns if the hand went to a showdown now: the higher card wins the other
    /// seat's contribution so far, `(2 + chips) / 4` as in [`GameState::returns`].
    fn value(&self) -> PerSeat<f64> {
        if self.is_terminal() {
            return self.returns();
        }
        let c = self.contributions();
        let chips = if self.cards[0] > self.cards[1] {
            c[1]
        } else {
            -c[0]
        };
        let r0 = (2.0 + f64::from(chips)) / 4.0;
        [r0, 1.0 - r0, 0.0, 0.0]
    }

    /// The information-set string ([`State::info_set_string`]): own card, the bets, and
    /// the opponent's card after a showdown.
    fn observation(&self, seat: Seat) -> String {
        self.info_set_string(seat)
    }

    fn action_id(action: Action) -> usize {
        action as usize
    }

    fn action_from_id(id: usize) -> Option<Action> {
        match id {
            0 => Some(Action::Pass),
            1 => Some(Action::Bet),
            _ => None,
        }
    }

    fn ply(&self) -> u32 {
        u32::from(self.len)
    }

    fn round(&self) -> u32 {
        1
    }

    fn end_condition(&self) -> &'static str {
        if !self.is_terminal() {
            ""
        } else if self.folder().is_some() {
            "fold"
        } else {
            "showdown"
        }
    }

    fn max_plies(&self) -> u32 {
        3
    }

    /// Check, bet, and a call or fold: at most three decisions.
    fn max_game_length(_: &Rules<Self>) -> u32 {
        3
    }

    /// 16 values (module docs, "Information state and observation tensor").
    fn observation_layout(_: &Rules<Self>) -> Vec<TensorField> {
        vec![
            TensorField::new("player", 2, "one-hot of the observing seat"),
            TensorField::new("private_card", 3, "one-hot of the own card: J, Q, K"),
            TensorField::new(
                "betting",
                6,
                "per betting slot (3, in order) one-hot [pass, bet]; zeros if not played",
            ),
            TensorField::new(
                "revealed_card",
                3,
                "one-hot of the opponent's card after a showdown, else zeros",
            ),
            TensorField::new("pot", 2, "chips in the pot per seat (seat 0 first) / 2"),
        ]
    }

    /// Reads the seat's own card, the public betting and, only after a showdown, the
    /// opponent's card.
    fn observation_tensor(&self, seat: Seat, out: &mut [f32]) {
        assert_eq!(out.len(), 16, "Kuhn's observation tensor has 16 values");
        out.fill(0.0);
        out[seat] = 1.0;
        out[2 + usize::from(self.cards[seat])] = 1.0;
        for (i, &a) in self.history().iter().enumerate() {
            out[5 + 2 * i + a as usize] = 1.0;
        }
        if self.is_showdown() {
            out[11 + usize::from(self.cards[1 - seat])] = 1.0;
        }
        let pot = self.contributions();
        out[14] = pot[0] as f32 / 2.0;
        out[15] = pot[1] as f32 / 2.0;
    }

    /// OpenSpiel's string ([`State::info_set_string`]): own card, bets, and the opponent's
    /// card after a showdown.
    fn information_state_string(&self, seat: Seat) -> String {
        self.info_set_string(seat)
    }

    /// Two distinct cards of `0..=2`; at most three actions, none after the hand ended.
    fn validate(&self) -> Result<(), InvalidState> {
        let check = || -> Result<(), String> {
            let c = self.cards;
            if c[0] > 2 || c[1] > 2 || c[0] == c[1] {
                return Err(format!("cards {c:?}: two distinct cards of 0..=2 expected"));
            }
            if self.len > 3 {
                return Err(format!("{} actions; a hand has at most 3", self.len));
            }
            let ended = (0..self.len).find(|&k| State { len: k, ..*self }.is_terminal());
            if let Some(k) = ended {
                return Err(format!(
                    "the hand ended after {k} actions but {} are recorded",
                    self.len
                ));
            }
            Ok(())
        };
        check().map_err(InvalidState::of::<Self>)
    }
}

impl Measured for State {}

impl RunningScore for State {}

pub mod log;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::test_rng;

    fn play(cards: [u8; 2], moves: &str) -> State {
        let mut s = State::from_deal(cards);
        let mut r = test_rng(0);
        for ch in moves.chars() {
            let p = match s.turn() {
                Turn::Player(p) => p,
                t => panic!("no player to move: {t:?}"),
            };
            s.apply(p, State::parse_action(&ch.to_string()).unwrap(), &mut r)
                .unwrap();
        }
        s
    }

    #[test]
    fn rule_payoffs_of_every_terminal_sequence() {
        // King (2) against Jack (0): the showdown pays the loser's contribution.
        assert_eq!(play([2, 0], "pp").chips(), 1);
        assert_eq!(play([2, 0], "bb").chips(), 2);
        assert_eq!(play([2, 0], "pbb").chips(), 2);
        assert_eq!(play([0, 2], "pbb").chips(), -2);
        // Folds pay the folder's contribution, whatever the cards.
        assert_eq!(play([0, 2], "bp").chips(), 1);
        assert_eq!(play([2, 0], "pbp").chips(), -1);
        assert_eq!(play([2, 0], "pbp").end_condition(), "fold");
        assert_eq!(play([2, 0], "pp").end_condition(), "showdown");
        assert!(!play([2, 0], "pb").turn().is_terminal());
    }

    #[test]
    fn info_set_strings_follow_openspiel() {
        let s = play([1, 2], "pb");
        assert_eq!(s.info_set_string(0), "1pb");
        assert_eq!(s.info_set_string(1), "2pb");
        assert_eq!(play([1, 2], "pbb").info_set_string(0), "1pbb/2");
    }

    #[test]
    fn observation_tensor_follows_the_documented_layout() {
        let rules = default_rules::<State>();
        let layout = State::observation_layout(&rules);
        assert_eq!(crate::game::tensor_len(&layout), 16);
        let mut t = [f32::NAN; 16];
        // Seat 1 holds the King after pass, bet: its own card and the public betting.
        play([1, 2], "pb").observation_tensor(1, &mut t);
        #[rustfmt::skip]
        let want = [
            0.0, 1.0, // player
            0.0, 0.0, 1.0, // private_card: K
            1.0, 0.0, 0.0, 1.0, 0.0, 0.0, // betting: p, b, -
            0.0, 0.0, 0.0, // revealed_card: none yet
            0.5, 1.0, // pot: 1 and 2 chips
        ];
        assert_eq!(t, want);
        // After the call the showdown reveals the Queen to seat 1.
        play([1, 2], "pbb").observation_tensor(1, &mut t);
        assert_eq!(&t[11..], &[0.0, 1.0, 0.0, 1.0, 1.0]);
        // The opponent's card never shows before a showdown.
        let mut other = [f32::NAN; 16];
        play([0, 2], "pb").observation_tensor(1, &mut other);
        play([1, 2], "pb").observation_tensor(1, &mut t);
        assert_eq!(t, other);
    }

    fn invariants(s: &State) -> Result<(), String> {
        let c = s.cards();
        if c[0] > 2 || c[1] > 2 || c[0] == c[1] {
            return Err(format!("bad deal {c:?}"));
        }
        let sc = s.scores();
        if sc[0] + sc[1] != 0 || sc[0].abs() > 2 {
            return Err(format!("chips {sc:?} not zero-sum in [-2, 2]"));
        }
        Ok(())
    }

    #[test]
    fn conformance_random_games() {
        let hidden = |s: &State, p: Seat| u64::from(s.cards()[1 - p]);
        let rep = crate::testing::check_random_games(&crate::testing::Conformance::<State> {
            params: Params::default(),
            players: 2,
            games: 3000,
            seed: 7,
            invariants: &invariants,
            hidden: Some(&hidden),
            resamples: 6,
            determinize_every: 1,
        })
        .unwrap();
        assert_eq!(rep.games, 3000);
        assert!(rep.hidden_changes > 1000, "{rep:?}");
        assert_eq!(rep.max_plies_seen, 3);
    }

    /// Every deal and every betting history: determinization keeps the observer's info key
    /// and reaches both unseen cards; payoffs are zero-sum; returns map chips linearly.
    #[test]
    fn all_deals_and_histories() {
        let mut r = test_rng(3);
        let mut seen_keys = std::collections::HashSet::new();
        for c0 in 0..3u8 {
            for c1 in (0..3u8).filter(|&c| c != c0) {
                for moves in ["", "p", "b", "pp", "pb", "bp", "bb", "pbp", "pbb"] {
                    let s = play([c0, c1], moves);
                    invariants(&s).unwrap();
                    for p in 0..2 {
                        seen_keys.insert((p, s.info_key(p), s.info_set_string(p)));
                        let mut others = std::collections::HashSet::new();
                        for _ in 0..40 {
                            let d = s.determinize(p, &mut r);
                            assert_eq!(d.info_key(p), s.info_key(p));
                            assert_eq!(d.cards()[p], s.cards()[p]);
                            others.insert(d.cards()[1 - p]);
                        }
                        let expected = if s.is_showdown() { 1 } else { 2 };
                        assert_eq!(others.len(), expected, "deal {c0}{c1} '{moves}' seat {p}");
                    }
                    if s.turn().is_terminal() {
                        let ret = s.returns();
                        assert!((ret[0] - (2.0 + f64::from(s.chips())) / 4.0).abs() < 1e-12);
                        assert_eq!(ret[0] + ret[1], 1.0);
                    }
                }
            }
        }
        // Info keys and printable strings identify the same information sets.
        let keys: std::collections::HashSet<_> = seen_keys.iter().map(|k| (k.0, k.1)).collect();
        let strings: std::collections::HashSet<_> =
            seen_keys.iter().map(|k| (k.0, k.2.clone())).collect();
        assert_eq!(keys.len(), strings.len());
        assert_eq!(keys.len(), seen_keys.len());
    }
}
