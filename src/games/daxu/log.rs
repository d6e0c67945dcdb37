//! Daxu's game log ([`crate::games::log`]): why the offer went to whom (the DAXU-01 matrix,
//! the tie-breaker, the underminer's choice), each reputation step in the order of
//! `rep_order` with the clamp at ±7 (DAXU-04), the new round's flips, and the final score
//! breakdown by shop type and reputation (DAXU-5.1–5.7).
//!
//! Everything in Daxu is public once the action cards are revealed (only the deck order and
//! the two removed cards are hidden), so every line is fit for any audience and both
//! revealed action cards are named.

use serde_json::{Value, json};

use super::action::{ALL, Action};
use super::card::{Card, Shop};
use super::score::{REP_MAX, REP_MIN, over_dominant, reputation_points, shop_points};
use super::state::{Observation, Phase, State};
use super::{RepOrder, TiebreakMode};
use crate::game::{GameState, JointAction, Seat};
use crate::games::log::{Audience, GameLog};

/// Daxu's log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<State> = &DaxuLog;

impl crate::games::log::Logged for State {
    fn log() -> &'static dyn GameLog<Self> {
        LOG
    }
}

/// Daxu's [`GameLog`].
#[derive(Debug, Clone, Copy)]
pub struct DaxuLog;

fn cards(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "nothing".into();
    }
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn hand(mask: u8) -> String {
    ALL[..4]
        .iter()
        .filter(|a| mask & (1 << **a as u8) != 0)
        .map(|a| a.word())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The seat whose shop cards grew from `before` to `after`, if any.
fn receiver(before: &State, after: &State) -> Option<usize> {
    (0..2).find(|&p| {
        let (b, a) = (before.sides()[p], after.sides()[p]);
        a.iter().sum::<u8>() > b.iter().sum::<u8>()
    })
}

/// One clamped reputation step, told: `baker+ +1 → +3`.
fn step_line(what: &str, rep: &mut i8, delta: i8) -> Option<String> {
    if delta == 0 {
        return None;
    }
    let next = (*rep + delta).clamp(REP_MIN, REP_MAX);
    let line = if next == *rep {
        format!("{what} {delta:+} (the track ends at ±7) → {next:+}")
    } else {
        format!("{what} {delta:+} → {next:+}")
    };
    *rep = next;
    Some(line)
}

/// Phase 4 told step by step: the receiver takes the offer, then the reputation steps in
/// the order of `rep_order` (DAXU-04).
fn settlement(before: &State, receiver: usize, pair: [Action; 2], out: &mut Vec<String>) {
    let offer = before.offer();
    out.push(format!(
        "seat {receiver} receives {} ({} card{})",
        cards(offer),
        offer.len(),
        if offer.len() == 1 { "" } else { "s" }
    ));
    let mut rep = before.reputations();
    let mut steps: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let actions = |rep: &mut [i8; 2], steps: &mut [Vec<String>; 2]| {
        for p in 0..2 {
            if let Some(l) = step_line(pair[p].word(), &mut rep[p], pair[p].reputation_delta()) {
                steps[p].push(l);
            }
        }
    };
    let actions_first = before.rules().params().rep_order == RepOrder::ActionThenCards;
    if actions_first {
        actions(&mut rep, &mut steps);
    }
    for c in offer {
        if let Some(l) = step_line(&c.to_string(), &mut rep[receiver], c.delta()) {
            steps[receiver].push(l);
        }
    }
    if !actions_first {
        actions(&mut rep, &mut steps);
    }
    for (p, steps) in steps.iter().enumerate() {
        let from = before.reputations()[p];
        if steps.is_empty() {
            out.push(format!("seat {p} reputation stays at {from:+}"));
        } else {
            out.push(format!(
                "seat {p} reputation {from:+}: {}",
                steps.join(", ")
            ));
        }
    }
}

/// Why the revealed pair `(a, b)` at `before` leads where it does (DAXU-3.3–3.6, "Resolve
/// actions"; DAXU-01).
fn resolution(before: &State, pair: [Action; 2]) -> String {
    use Action::*;
    let rep = before.reputations();
    let holder = before.holder();
    match (pair[0], pair[1]) {
        (x @ (Give | Take), y) if x == y => {
            let rule = if x == Give {
                "Give/Give: the lower reputation receives"
            } else {
                "Take/Take: the higher reputation receives"
            };
            if rep[0] == rep[1] {
                match before.rules().params().tiebreak_mode {
                    TiebreakMode::HolderChooses => format!(
                        "{rule}; reputations are equal ({:+}), so seat {holder}, who holds the \
                         tie-breaker card, chooses who receives and then hands the card over",
                        rep[0]
                    ),
                    TiebreakMode::HolderReceives => format!(
                        "{rule}; reputations are equal ({:+}), so seat {holder}, who holds the \
                         tie-breaker card, receives and hands the card to seat {}",
                        rep[0],
                        1 - holder
                    ),
                }
            } else {
                let lower = if rep[0] < rep[1] { 0 } else { 1 };
                let r = if x == Give { lower } else { 1 - lower };
                format!("{rule}: seat {r} ({:+} against {:+})", rep[r], rep[1 - r])
            }
        }
        (x @ (Cooperate | Undermine), y) if x == y => {
            if before.deck_len() > 0 {
                format!(
                    "both played {}: one more card is flipped and both choose again",
                    x.word()
                )
            } else {
                format!(
                    "both played {}, and the deck is empty: both {} cards leave the game and \
                     both choose again (GAPS.md DAXU-06)",
                    x.word(),
                    x.word()
                )
            }
        }
        (Cooperate, Undermine) | (Undermine, Cooperate) => {
            let u = if pair[0] == Undermine { 0 } else { 1 };
            format!("Cooperate against Undermine: seat {u}, the underminer, decides who receives")
        }
        _ => {
            let i = if matches!(pair[0], Give | Take) { 0 } else { 1 };
            let j = 1 - i;
            let base = if pair[i] == Give { j } else { i };
            let what = if pair[i] == Give {
                format!("seat {i}'s give hands the offer to seat {j}")
            } else {
                format!("seat {i}'s take keeps the offer")
            };
            if pair[j] == Undermine {
                format!(
                    "{what}, but seat {j}'s undermine reverses it: seat {} receives",
                    1 - base
                )
            } else if pair[j] == Cooperate {
                format!("{what}, and seat {j}'s cooperate accepts it")
            } else {
                format!("{what}, and seat {j}'s {} agrees", pair[j].word())
            }
        }
    }
}

/// The decision a phase asks for, in words.
fn stage(phase: Phase) -> String {
    match phase {
        Phase::Choose => "both seats choose an action card in secret".into(),
        Phase::Decide { decider, tiebreak } => {
            let why = if tiebreak {
                "equal reputations: the tie-breaker holder"
            } else {
                "the underminer"
            };
            format!(
                "seat {decider} ({why}) decides who receives: keep = seat {decider}, pass = \
                 seat {}",
                1 - decider
            )
        }
        Phase::Over => "the game is over".into(),
    }
}

/// The unseen cards by kind, `2× baker+, silk`, or `none`.
fn unseen(counts: &[u8]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| match n {
            1 => Card(k as u8).to_string(),
            n => format!("{n}× {}", Card(k as u8)),
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The human view of observation `o`, every field labelled (everything in Daxu is public
/// but the deck's order and the cards removed at setup, DAXU-2.2): the round, the deck's size,
/// the tie-breaker card's holder, the stage, each seat's reputation, shop cards by shop
/// and action cards in hand, the offer, the revealed pair while a decision on it is
/// pending, and the cards not yet seen (the deck and the removed cards) by kind.
pub fn human_view(o: &Observation) -> String {
    let mut s = format!(
        "round {} | deck {} cards | tie-breaker card: seat {}\n",
        o.round, o.deck_len, o.holder
    );
    s.push_str(&format!("{:<12} {:>3} ", "", "rep"));
    for shop in Shop::ALL {
        s.push_str(&format!(" {:>9}", shop.name()));
    }
    s.push_str(" | action cards in hand\n");
    for p in 0..2 {
        let who = format!("seat {p}{}", if p == o.seat { " (you)" } else { "" });
        s.push_str(&format!("{who:<12} {:>+3} ", o.reputations[p]));
        for shop in Shop::ALL {
            s.push_str(&format!(" {:>9}", o.sides[p][shop as usize]));
        }
        s.push_str(&format!(" | {}\n", hand(o.hands[p])));
    }
    s.push_str(&format!("offer: {}\n", cards(&o.offer)));
    if let Some([a, b]) = o.revealed {
        s.push_str(&format!("revealed: seat 0 {a}, seat 1 {b}\n"));
    }
    s.push_str(&format!(
        "not yet seen (the deck and the cards removed at setup): {}\n",
        unseen(&o.unseen)
    ));
    s.push_str(&format!("stage: {}", stage(o.phase)));
    s
}

impl GameLog<State> for DaxuLog {
    /// Action cards are revealed together; the decisions are public.
    fn public_action(&self, _before: &State, _seat: Seat, _action: Action) -> bool {
        true
    }

    fn consequences(
        &self,
        before: &State,
        joint: &JointAction<Action>,
        after: &State,
        _audience: Audience,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let pair = match before.phase() {
            Phase::Choose => {
                let (Some(a), Some(b)) = (joint[0], joint[1]) else {
                    return out;
                };
                out.push(resolution(before, [a, b]));
                if after.offer().len() > before.offer().len() && after.round() == before.round() {
                    out.push(format!(
                        "flipped {}; the offer is now {}",
                        cards(&after.offer()[before.offer().len()..]),
                        cards(after.offer())
                    ));
                }
                [a, b]
            }
            Phase::Decide { decider, tiebreak } => {
                let d = decider as usize;
                let to = match joint[d] {
                    Some(Action::Keep) => d,
                    _ => 1 - d,
                };
                out.push(if to == d {
                    format!("seat {d} keeps the offer")
                } else {
                    format!("seat {d} passes the offer to seat {to}")
                });
                if tiebreak {
                    out.push(format!("the tie-breaker card passes to seat {}", 1 - d));
                }
                before.observation(0).revealed.unwrap_or([Action::Give; 2])
            }
            Phase::Over => return out,
        };
        if let Some(r) = receiver(before, after) {
            settlement(before, r, pair, &mut out);
            if after.holder() != before.holder() && before.phase() == Phase::Choose {
                out.push(format!(
                    "the tie-breaker card passes to seat {}",
                    after.holder()
                ));
            }
            if after.phase() == Phase::Over {
                out.push(format!(
                    "fewer than 3 cards are left in the deck ({}): the game ends",
                    after.deck_len()
                ));
            } else if after.round() > before.round() {
                out.push(format!(
                    "round {}: flipped {}",
                    after.round(),
                    cards(after.offer())
                ));
            }
        }
        out
    }

    fn breakdown(&self, end: &State) -> Vec<String> {
        let mut out = Vec::new();
        let sides = end.sides();
        let mut shops = [0i32; 2];
        for s in Shop::ALL {
            let (a, b) = (sides[0][s as usize], sides[1][s as usize]);
            let (x, y) = shop_points(s, a, b);
            shops[0] += x;
            shops[1] += y;
            let why = if a == b {
                "equal: no points".to_string()
            } else {
                let (m, lead, other) = if a > b { (0, a, b) } else { (1, b, a) };
                if over_dominant(s, lead, other) {
                    format!(
                        "seat {m} leads by {} (too dominant): seat {m} loses 1, seat {} gains 1 \
                         per card it has",
                        lead - other,
                        1 - m
                    )
                } else {
                    format!("seat {m} leads by {}", lead - other)
                }
            };
            out.push(format!("{}: {a} - {b}, {why} → {x:+} / {y:+}", s.name()));
        }
        let table = end.rules().params().reputation_points;
        let rep = end.reputations();
        let rp = [
            reputation_points(table, rep[0]),
            reputation_points(table, rep[1]),
        ];
        out.push(format!(
            "reputation ({} table): seat 0 {:+} → {:+}, seat 1 {:+} → {:+}",
            crate::params::ParamValue::format_param(&table),
            rep[0],
            rp[0],
            rep[1],
            rp[1]
        ));
        for p in 0..2 {
            out.push(format!(
                "seat {p}: shops {:+} + reputation {:+} = {}",
                shops[p],
                rp[p],
                shops[p] + rp[p]
            ));
        }
        if shops[0] + rp[0] == shops[1] + rp[1] {
            out.push(format!(
                "equal scores: seat {}, who holds the tie-breaker card, wins",
                end.holder()
            ));
        }
        out
    }

    /// The card or answer with what it does (DAXU-3.3, DAXU-01): `give: the other seat
    /// receives the offer`. The word alone is what a human types.
    fn move_name(&self, before: &State, seat: Seat, action: Action) -> String {
        let _ = (before, seat);
        let what = match action {
            Action::Give => "the other seat receives the offer",
            Action::Take => "you receive the offer",
            Action::Cooperate => "accept the other seat's card; +1 reputation",
            Action::Undermine => "do the opposite of the other seat's card; -1 reputation",
            Action::Keep => "you receive the offer",
            Action::Pass => "the other seat receives the offer",
        };
        format!("{action}: {what}")
    }

    /// Every field of the seat's observation, labelled ([`human_view`]).
    fn view(&self, state: &State, seat: Seat) -> String {
        human_view(&state.observation(seat))
    }

    fn observation_json(&self, o: &Observation) -> Value {
        let shops = |side: &[u8; 6]| -> Value {
            Shop::ALL
                .iter()
                .map(|s| (s.name().to_string(), json!(side[*s as usize])))
                .collect::<serde_json::Map<_, _>>()
                .into()
        };
        let phase = match o.phase {
            Phase::Choose => json!({"kind": "choose"}),
            Phase::Decide { decider, tiebreak } => {
                json!({"kind": "decide", "decider": decider, "tiebreak": tiebreak})
            }
            Phase::Over => json!({"kind": "over"}),
        };
        let unseen: serde_json::Map<String, Value> = o
            .unseen
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| (Card(k as u8).to_string(), json!(n)))
            .collect();
        json!({
            "seat": o.seat,
            "round": o.round,
            "sides": [shops(&o.sides[0]), shops(&o.sides[1])],
            "reputations": o.reputations,
            "tiebreak_holder": o.holder,
            "offer": o.offer.iter().map(Card::to_string).collect::<Vec<_>>(),
            "unseen": unseen,
            "deck": o.deck_len,
            "hands": [hand(o.hands[0]), hand(o.hands[1])],
            "phase": phase,
            "revealed": o.revealed.map(|[a, b]| [a.word(), b.word()]),
            "text": o.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{play_ply, setup};
    use crate::rng::rng_from_seed;

    /// The human view labels every field of the observation (issue 25): the test
    /// enumerates them, each with the words that must show it, at every decision of
    /// random games (so the decide stage and a revealed pair are met).
    #[test]
    fn the_human_view_labels_every_public_field() {
        let mut buf = Vec::new();
        let mut decided = false;
        for seed in 0..6 {
            let mut rng = rng_from_seed(seed);
            let mut s: State = setup(&Default::default(), 2, &mut rng).unwrap();
            loop {
                for seat in 0..2 {
                    let o = s.observation(seat);
                    let view = DaxuLog.view(&s, seat);
                    let Observation {
                        seat: _,
                        round,
                        sides,
                        reputations,
                        holder,
                        offer,
                        unseen: pool,
                        deck_len,
                        hands,
                        phase,
                        revealed,
                    } = &o;
                    let mut fields: Vec<(&str, String)> = vec![
                        ("round", format!("round {round} |")),
                        ("deck_len", format!("deck {deck_len} cards")),
                        ("holder", format!("tie-breaker card: seat {holder}")),
                        ("offer", format!("offer: {}", cards(offer))),
                        (
                            "unseen",
                            format!(
                                "not yet seen (the deck and the cards removed at setup): {}",
                                unseen(pool)
                            ),
                        ),
                        ("phase", format!("stage: {}", stage(*phase))),
                        (
                            "sides (header)",
                            Shop::ALL.map(|x| format!("{:>9}", x.name())).join(" "),
                        ),
                        ("hands (header)", "| action cards in hand".into()),
                    ];
                    for p in 0..2 {
                        let you = if p == seat { " (you)" } else { "" };
                        let shops: String = Shop::ALL
                            .iter()
                            .map(|x| format!(" {:>9}", sides[p][*x as usize]))
                            .collect();
                        fields.push((
                            "reputations, sides, hands",
                            format!(
                                "{:<12} {:>+3} {shops} | {}",
                                format!("seat {p}{you}"),
                                reputations[p],
                                hand(hands[p])
                            ),
                        ));
                    }
                    if let Some([a, b]) = revealed {
                        decided = true;
                        fields.push(("revealed", format!("revealed: seat 0 {a}, seat 1 {b}")));
                    }
                    for (field, want) in fields {
                        assert!(view.contains(&want), "{field}: no '{want}' in\n{view}");
                    }
                }
                if play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r)).is_none() {
                    break;
                }
            }
        }
        assert!(decided, "no game met a pending decision");
    }

    /// Plays random games and checks that every settlement line ends at the reputation the
    /// rules engine reached, and that the breakdown's totals are the engine's scores.
    #[test]
    fn the_log_agrees_with_the_rules_engine() {
        let mut buf = Vec::new();
        for seed in 0..30 {
            let mut rng = rng_from_seed(seed);
            let mut s: State = setup(&Default::default(), 2, &mut rng).unwrap();
            let mut told_receiver = false;
            loop {
                let before = s.clone();
                let Some((_, joint)) =
                    play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r))
                else {
                    break;
                };
                let lines = DaxuLog.consequences(&before, &joint, &s, Audience::All);
                if let Some(r) = receiver(&before, &s) {
                    told_receiver = true;
                    assert!(
                        lines
                            .iter()
                            .any(|l| l.starts_with(&format!("seat {r} receives")))
                    );
                    for p in 0..2 {
                        let line = lines
                            .iter()
                            .find(|l| l.starts_with(&format!("seat {p} reputation")))
                            .unwrap();
                        let want = format!("{:+}", s.reputations()[p]);
                        assert!(line.ends_with(&want), "{line} should end at {want}");
                    }
                }
            }
            assert!(told_receiver);
            let b = DaxuLog.breakdown(&s);
            let sc = s.scores();
            for p in 0..2 {
                assert!(
                    b.iter().any(|l| l.starts_with(&format!("seat {p}: shops"))
                        && l.ends_with(&format!("= {}", sc[p]))),
                    "{b:?} vs {sc:?}"
                );
            }
        }
    }
}
