//! Goofspiel's game log ([`crate::games::log`]): for each round the point card at stake,
//! the bids once revealed, who won the point card and why (the single highest bid; a tie
//! at the top discards it), the running scores and the next point card. Under
//! `imp_info = true` the bids are never revealed: a seat audience is told its own bid and
//! who won each round, as the seats see it; [`Audience::All`] is told every bid.

use super::cards_text as cards;
use super::{Action, State};
use crate::game::{GameState, JointAction, Seat};
use crate::games::log::{Audience, GameLog};

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<State> = &Log;

impl crate::games::log::Logged for State {
    fn log() -> &'static dyn GameLog<Self> {
        LOG
    }
}

/// Goofspiel's [`GameLog`].
#[derive(Debug, Clone, Copy)]
pub struct Log;

/// Whether `audience` may see `seat`'s bids in this game.
fn sees_bid(state: &State, seat: Seat, audience: Audience) -> bool {
    !state.imp_info() || audience.knows_private(seat)
}

fn scores_line(state: &State) -> String {
    let n = state.num_players();
    let s = state.scores();
    let parts: Vec<String> = (0..n).map(|p| format!("seat {p} {}", s[p])).collect();
    format!("scores: {}", parts.join(", "))
}

impl GameLog<State> for Log {
    /// Bids are revealed after the round unless `imp_info = true`.
    fn public_action(&self, before: &State, _seat: Seat, _action: Action) -> bool {
        !before.rules().params().imp_info
    }

    /// `seat 0 bids 5`, or `seat 0 bids` when the audience may not see the card.
    fn action(&self, before: &State, seat: Seat, action: Action, audience: Audience) -> String {
        if sees_bid(before, seat, audience) {
            format!("seat {seat} bids {}", action.0)
        } else {
            format!("seat {seat} bids a hidden card")
        }
    }

    fn consequences(
        &self,
        before: &State,
        _joint: &JointAction<Action>,
        after: &State,
        audience: Audience,
    ) -> Vec<String> {
        let r = before.rounds_played();
        if after.rounds_played() <= r {
            return Vec::new();
        }
        let n = before.num_players();
        let prize = after.point_card(r);
        let mut out = Vec::new();
        let bids: Vec<String> = (0..n)
            .map(|p| {
                if sees_bid(before, p, audience) {
                    format!("seat {p} {}", after.bid(p, r))
                } else {
                    format!("seat {p} hidden")
                }
            })
            .collect();
        out.push(format!(
            "round {}: point card {prize}; bids {}",
            r + 1,
            bids.join(", ")
        ));
        match after.winner(r) {
            Some(w) => {
                let why = if (0..n).all(|p| sees_bid(before, p, audience)) {
                    format!(" with the single highest bid ({})", after.bid(w, r))
                } else {
                    " with the single highest bid".to_string()
                };
                out.push(format!(
                    "seat {w} wins the point card {prize}{why}: +{prize} points"
                ));
            }
            None => {
                let top = (0..n).map(|p| after.bid(p, r)).max().unwrap_or(0);
                let tied: Vec<String> = (0..n)
                    .filter(|&p| after.bid(p, r) == top)
                    .map(|p| p.to_string())
                    .collect();
                if (0..n).all(|p| sees_bid(before, p, audience)) {
                    out.push(format!(
                        "the highest bid ({top}) is tied by seats {}: the point card {prize} \
                         is discarded, nobody scores",
                        tied.join(" and ")
                    ));
                } else {
                    out.push(format!(
                        "the highest bid is tied: the point card {prize} is discarded, nobody \
                         scores"
                    ));
                }
            }
        }
        out.push(scores_line(after));
        if after.turn().is_terminal() {
            out.push("every card is played: the game ends".to_string());
        } else {
            out.push(format!(
                "the next point card is {} ({} rounds left)",
                after.point(),
                before.num_cards() - r - 1
            ));
        }
        out
    }

    /// Per seat, the point cards it won and their sum.
    fn breakdown(&self, end: &State) -> Vec<String> {
        let n = end.num_players();
        let mut won = vec![Vec::new(); n];
        let mut discarded = Vec::new();
        for r in 0..end.rounds_played() {
            match end.winner(r) {
                Some(w) => won[w].push(end.point_card(r).to_string()),
                None => discarded.push(end.point_card(r).to_string()),
            }
        }
        let mut out: Vec<String> = (0..n)
            .map(|p| {
                format!(
                    "seat {p}: {} points from the point cards {}",
                    end.scores()[p],
                    if won[p].is_empty() {
                        "(none)".to_string()
                    } else {
                        won[p].join(" + ")
                    }
                )
            })
            .collect();
        if !discarded.is_empty() {
            out.push(format!("discarded on tied bids: {}", discarded.join(", ")));
        }
        out
    }

    /// `seat 0: point card 7 at stake | your hand 1 2 3 | scores: seat 0 4, seat 1 0 |
    /// round 1: point 4, bids seat 0 3, seat 1 2, won by seat 0`.
    fn view(&self, state: &State, seat: Seat) -> String {
        let n = state.num_players();
        let mut s = format!(
            "seat {seat}: point card {} at stake | your hand {} | {}",
            state.point(),
            cards(state.hand(seat)),
            scores_line(state)
        );
        for r in 0..state.rounds_played() {
            let bids: Vec<String> = (0..n)
                .map(|p| {
                    if p == seat || !state.imp_info() {
                        format!("seat {p} {}", state.bid(p, r))
                    } else {
                        format!("seat {p} ?")
                    }
                })
                .collect();
            let won = state
                .winner(r)
                .map_or("discarded".to_string(), |w| format!("won by seat {w}"));
            s.push_str(&format!(
                " | round {}: point {}, bids {}, {won}",
                r + 1,
                state.point_card(r),
                bids.join(", ")
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ScriptedChance, SeatSet, rules};
    use crate::games::goofspiel::Params;
    use crate::params::ParamSet;

    fn start(settings: &[&str], players: usize) -> State {
        let params = Params::from_settings(settings, "test").unwrap();
        let r = rules::<State>(&params, players).unwrap();
        State::new_game(r, &mut ScriptedChance::new(&[]))
    }

    /// Plays rounds of `bids` (one bid per seat) and returns every log line.
    fn transcript(mut s: State, rounds: &[&[u8]], audience: Audience) -> Vec<String> {
        let log = crate::games::log::log::<State>();
        let mut out = Vec::new();
        for bids in rounds {
            let mut joint = [None; 4];
            for (p, &b) in bids.iter().enumerate() {
                joint[p] = Some(Action(b));
                out.push(log.action(&s, p, Action(b), audience));
            }
            let before = s;
            s.apply_joint(&joint, &mut ScriptedChance::new(&[]))
                .unwrap();
            out.extend(log.consequences(&before, &joint, &s, audience));
        }
        out.extend(log.breakdown(&s));
        out
    }

    #[test]
    fn rounds_tell_prize_bids_winner_and_scores() {
        let s = start(&["num_cards=3", "order=descending"], 2);
        let l = transcript(s, &[&[3, 1], &[2, 2], &[1, 3]], Audience::All);
        assert_eq!(
            l,
            vec![
                "seat 0 bids 3",
                "seat 1 bids 1",
                "round 1: point card 3; bids seat 0 3, seat 1 1",
                "seat 0 wins the point card 3 with the single highest bid (3): +3 points",
                "scores: seat 0 3, seat 1 0",
                "the next point card is 2 (2 rounds left)",
                "seat 0 bids 2",
                "seat 1 bids 2",
                "round 2: point card 2; bids seat 0 2, seat 1 2",
                "the highest bid (2) is tied by seats 0 and 1: the point card 2 is discarded, \
                 nobody scores",
                "scores: seat 0 3, seat 1 0",
                "the next point card is 1 (1 rounds left)",
                "seat 0 bids 1",
                "seat 1 bids 3",
                "round 3: point card 1; bids seat 0 1, seat 1 3",
                "seat 1 wins the point card 1 with the single highest bid (3): +1 points",
                "scores: seat 0 3, seat 1 1",
                "every card is played: the game ends",
                "seat 0: 3 points from the point cards 3",
                "seat 1: 1 points from the point cards 1",
                "discarded on tied bids: 2",
            ]
        );
    }

    #[test]
    fn hidden_bids_stay_hidden_from_the_other_seats() {
        let rounds: &[&[u8]] = &[&[4, 2, 1], &[3, 4, 2]];
        let s = start(&["num_cards=4", "order=descending", "imp_info=true"], 3);
        let seat1 = transcript(s, rounds, Audience::Seats(SeatSet::single(1)));
        let text = seat1.join("\n");
        assert!(text.contains("seat 1 bids 2") && text.contains("seat 1 bids 4"));
        assert!(text.contains("seat 0 bids a hidden card"));
        assert!(text.contains("bids seat 0 hidden, seat 1 2, seat 2 hidden"));
        assert!(text.contains("seat 0 wins the point card 4 with the single highest bid: +4"));
        // Seat 0's bids (4, 3) and seat 2's (1, 2) are never named.
        for line in seat1.iter().filter(|l| !l.starts_with("scores:")) {
            for other in ["seat 0 4", "seat 0 3", "seat 2 1", "seat 2 2", "(4)", "(3)"] {
                assert!(!line.contains(other), "{line}");
            }
        }
        let log = crate::games::log::log::<State>();
        let mut st = s;
        st.apply_joint(
            &[Some(Action(4)), Some(Action(2)), Some(Action(1)), None],
            &mut ScriptedChance::new(&[]),
        )
        .unwrap();
        let v = log.view(&st, 1);
        assert!(
            v.contains("bids seat 0 ?, seat 1 2, seat 2 ?, won by seat 0"),
            "{v}"
        );
        // Everyone (a replay) sees every bid.
        let all = transcript(s, rounds, Audience::All).join("\n");
        assert!(all.contains("bids seat 0 4, seat 1 2, seat 2 1"));
        // Without imp_info the bids are public to any audience.
        let open = start(&["num_cards=4", "order=descending"], 3);
        let seen = transcript(open, rounds, Audience::Seats(SeatSet::single(1))).join("\n");
        assert!(seen.contains("bids seat 0 4, seat 1 2, seat 2 1"), "{seen}");
    }
}
