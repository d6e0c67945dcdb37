//! Kuhn poker's game log ([`crate::games::log`]): every bet and pass is public and told in
//! poker words (check, bet, call, fold); the pot after each action; who wins the pot and
//! why (a fold, or the higher card at the showdown). Each seat's card is private until the
//! showdown: a seat audience is told only its own card, and the other seat's card only when
//! the showdown reveals it (a folded hand is never shown).

use serde_json::{Value, json};

use super::{Action, CARD_NAMES, State, contributions};
use crate::game::{GameState, JointAction, Seat};
use crate::games::log::{Audience, GameLog};

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<State> = &Log;

impl crate::games::log::Logged for State {
    fn log() -> &'static dyn GameLog<Self> {
        LOG
    }
}

/// Kuhn poker's [`GameLog`].
#[derive(Debug, Clone, Copy)]
pub struct Log;

/// Each bet of the history `h` in words, in order: `seat 0 checks`, `seat 1 bets 1 chip`.
fn betting(h: &[Action]) -> Vec<String> {
    h.iter()
        .enumerate()
        .map(|(i, &a)| format!("seat {} {}", i % 2, word(&h[..i], a)))
        .collect()
}

/// The poker word for `action` after `history`: check or bet when no bet is pending,
/// fold or call when one is.
fn word(history: &[Action], action: Action) -> &'static str {
    let facing = history.last() == Some(&Action::Bet);
    match (facing, action) {
        (false, Action::Pass) => "checks",
        (false, Action::Bet) => "bets 1 chip",
        (true, Action::Pass) => "folds",
        (true, Action::Bet) => "calls 1 chip",
    }
}

fn card(c: u8) -> &'static str {
    CARD_NAMES[c as usize]
}

impl GameLog<State> for Log {
    /// Bets and passes are made in the open.
    fn public_action(&self, _before: &State, _seat: Seat, _action: Action) -> bool {
        true
    }

    /// `seat 0 bets 1 chip`, `seat 1 folds`.
    fn action(&self, before: &State, seat: Seat, action: Action, _audience: Audience) -> String {
        format!("seat {seat} {}", word(before.history(), action))
    }

    fn consequences(
        &self,
        _before: &State,
        _joint: &JointAction<Action>,
        after: &State,
        audience: Audience,
    ) -> Vec<String> {
        let h = after.history();
        let c = contributions(h);
        let pot = c[0] + c[1];
        if !after.turn().is_terminal() {
            return vec![format!(
                "the pot holds {pot} chips (seat 0 put in {}, seat 1 {})",
                c[0], c[1]
            )];
        }
        let chips = after.chips();
        let winner = usize::from(chips < 0);
        let won = chips.abs();
        if after.is_showdown() {
            let cards = after.cards();
            vec![
                format!(
                    "showdown: seat 0 shows {}, seat 1 shows {}",
                    card(cards[0]),
                    card(cards[1])
                ),
                format!(
                    "seat {winner} wins the pot of {pot} chips with the higher card: +{won} \
                     chips, seat {} -{won}",
                    1 - winner
                ),
            ]
        } else {
            let folder = 1 - winner;
            let mut out = vec![format!(
                "seat {folder} folds: seat {winner} wins the pot of {pot} chips without a \
                 showdown: +{won} chips, seat {folder} -{won}"
            )];
            // Own cards are never news to their seat; the other card stays hidden.
            if audience == Audience::All {
                let cards = after.cards();
                out.push(format!(
                    "(hidden from the table: seat 0 held {}, seat 1 held {})",
                    card(cards[0]),
                    card(cards[1])
                ));
            }
            out
        }
    }

    fn breakdown(&self, end: &State) -> Vec<String> {
        let h = end.history();
        let c = contributions(h);
        let betting = betting(h);
        let chips = end.chips();
        vec![
            format!("betting: {}", betting.join(", ")),
            format!(
                "stakes: seat 0 put in {} chips, seat 1 {}; seat 0 {:+} chips, seat 1 {:+}",
                c[0], c[1], chips, -chips
            ),
        ]
    }

    /// `seat 0: your card K | betting: seat 0 checks, seat 1 bets 1 chip | pot 3 chips (you
    /// put in 1)`, and the other card once the showdown has revealed it.
    fn view(&self, state: &State, seat: Seat) -> String {
        let h = state.history();
        let c = contributions(h);
        let betting = betting(h);
        let cards = state.cards();
        let mut s = format!(
            "seat {seat}: your card {} | betting: {} | pot {} chips (you put in {})",
            card(cards[seat]),
            if betting.is_empty() {
                "none yet".to_string()
            } else {
                betting.join(", ")
            },
            c[0] + c[1],
            c[seat]
        );
        if state.is_showdown() {
            s.push_str(&format!(
                " | seat {} showed {}",
                1 - seat,
                card(cards[1 - seat])
            ));
        }
        s
    }

    /// `{"text", "card": "K", "history": "pb", "pot": 3, "opponent_card": "Q" | null}`.
    fn observation_json(&self, observation: &String) -> Value {
        // The observation is the information-set string: own card rank, the bets, and the
        // opponent's card after `/` at a showdown (State::info_set_string).
        let (mine, other) = match observation.split_once('/') {
            Some((a, b)) => (a, b.parse::<u8>().ok()),
            None => (observation.as_str(), None),
        };
        let own = mine
            .chars()
            .next()
            .and_then(|c| c.to_digit(10))
            .filter(|&c| c < 3)
            .map(|c| card(c as u8));
        let history: String = mine.chars().skip(1).collect();
        let bets: Vec<Action> = history
            .chars()
            .map(|c| if c == 'b' { Action::Bet } else { Action::Pass })
            .collect();
        let c = contributions(&bets);
        json!({
            "text": observation,
            "card": own,
            "history": history,
            "pot": c[0] + c[1],
            "opponent_card": other.filter(|&c| c < 3).map(card),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ScriptedChance, SeatSet};

    fn play(cards: [u8; 2], moves: &[Action]) -> Vec<(State, State)> {
        let mut s = State::from_deal(cards);
        let mut out = Vec::new();
        for &a in moves {
            let before = s;
            let p = before.history().len() % 2;
            s.apply(p, a, &mut ScriptedChance::new(&[])).unwrap();
            out.push((before, s));
        }
        out
    }

    fn lines(pairs: &[(State, State)], audience: Audience) -> Vec<String> {
        let log = crate::games::log::log::<State>();
        let mut out = Vec::new();
        for (before, after) in pairs {
            let p = before.history().len() % 2;
            let a = after.history()[before.history().len()];
            out.push(log.action(before, p, a, audience));
            let mut joint = [None; 4];
            joint[p] = Some(a);
            out.extend(log.consequences(before, &joint, after, audience));
        }
        out
    }

    #[test]
    fn a_showdown_names_both_cards_and_the_pot() {
        use Action::*;
        let pairs = play([2, 1], &[Pass, Bet, Bet]);
        let l = lines(&pairs, Audience::All);
        assert_eq!(
            l,
            vec![
                "seat 0 checks",
                "the pot holds 2 chips (seat 0 put in 1, seat 1 1)",
                "seat 1 bets 1 chip",
                "the pot holds 3 chips (seat 0 put in 1, seat 1 2)",
                "seat 0 calls 1 chip",
                "showdown: seat 0 shows K, seat 1 shows Q",
                "seat 0 wins the pot of 4 chips with the higher card: +2 chips, seat 1 -2",
            ]
        );
        let log = crate::games::log::log::<State>();
        assert_eq!(
            log.breakdown(&pairs[2].1),
            vec![
                "betting: seat 0 checks, seat 1 bets 1 chip, seat 0 calls 1 chip",
                "stakes: seat 0 put in 2 chips, seat 1 2; seat 0 +2 chips, seat 1 -2",
            ]
        );
    }

    #[test]
    fn a_fold_wins_the_pot_and_hides_the_cards_from_the_table() {
        use Action::*;
        let pairs = play([0, 2], &[Bet, Pass]);
        let all = lines(&pairs, Audience::All);
        assert_eq!(all[2], "seat 1 folds");
        assert_eq!(
            all[3],
            "seat 1 folds: seat 0 wins the pot of 3 chips without a showdown: +1 chips, seat 1 -1"
        );
        assert!(all[4].contains("seat 0 held J, seat 1 held K"));
        for seats in [SeatSet::single(0), SeatSet::single(1), SeatSet::all(2)] {
            let l = lines(&pairs, Audience::Seats(seats)).join("\n");
            assert!(
                !l.contains('J') && !l.contains('K') && !l.contains('Q'),
                "{l}"
            );
        }
    }

    #[test]
    fn a_seat_sees_only_its_own_card_until_the_showdown() {
        use Action::*;
        let log = crate::games::log::log::<State>();
        for cards in [[0, 1], [1, 2], [2, 0]] {
            let pairs = play(cards, &[Pass, Bet, Bet]);
            for seat in 0..2 {
                let other = CARD_NAMES[cards[1 - seat] as usize];
                let own = CARD_NAMES[cards[seat] as usize];
                let audience = Audience::Seats(SeatSet::single(seat));
                for (i, (before, after)) in pairs.iter().enumerate() {
                    let view = log.view(before, seat);
                    assert!(view.contains(&format!("your card {own}")), "{view}");
                    assert!(!view.contains(other), "{view}");
                    let json = log.observation_json(&before.observation(seat));
                    assert_eq!(json["card"], own);
                    assert!(json["opponent_card"].is_null());
                    let mut joint = [None; 4];
                    joint[i % 2] = Some(after.history()[i]);
                    let said = log.consequences(before, &joint, after, audience).join(" ");
                    if after.is_showdown() {
                        assert!(said.contains(other), "{said}");
                    } else {
                        assert!(!said.contains(other), "{said}");
                    }
                }
                let end = &pairs[2].1;
                assert!(log.view(end, seat).contains(&format!("showed {other}")));
                assert_eq!(
                    log.observation_json(&end.observation(seat))["opponent_card"],
                    other
                );
            }
        }
    }
}
