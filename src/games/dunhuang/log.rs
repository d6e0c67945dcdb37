//! Merchants of Dunhuang's game log ([`crate::games::log`]): moves are public except the
//! goods a seat keeps from a secret draw (setup, Interpreter, Diplomat) and the goods given
//! in a Trader or Merchant exchange (DUN-13), which only the mover's seat is told. After
//! each ply the log says, from the public table only, where the camel went, which goods
//! entered or left each Shop and the Market, and how each seat's coins and Prestige moved.

use super::{CHARACTERS, GOODS, NONE, Observation, Phase, State};
use crate::game::{GameState, JointAction, MAX_PLAYERS, Seat, SeatSet};
use crate::games::log::{Audience, GameLog};

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<State> = &Log;

impl crate::games::log::Logged for State {
    fn log() -> &'static dyn GameLog<Self> {
        LOG
    }
}

/// Dunhuang's [`GameLog`].
#[derive(Debug, Clone, Copy)]
pub struct Log;

/// `+Tea, -Silk`: the goods whose counts changed from `a` to `b` (by value, 1..=10).
fn goods_delta(a: &[u8; 11], b: &[u8; 11]) -> Vec<String> {
    let mut out = Vec::new();
    for v in 1..=10 {
        let d = i32::from(b[v]) - i32::from(a[v]);
        if d != 0 {
            let name = format!("{} ({v})", GOODS[v]);
            let n = d.unsigned_abs();
            let count = if n == 1 {
                String::new()
            } else {
                format!("{n}× ")
            };
            out.push(format!("{}{count}{name}", if d > 0 { '+' } else { '-' }));
        }
    }
    out
}

/// The public table's changes from `a` to `b` (both seen from the same seat).
fn table_changes(a: &Observation, b: &Observation) -> Vec<String> {
    let mut out = Vec::new();
    if a.camel != b.camel {
        out.push(format!("the camel moves to space {}", b.camel));
    }
    let market = |o: &Observation| {
        let mut c = [0u8; 11];
        for &v in &o.market {
            if (1..=10).contains(&v) {
                c[v as usize] += 1;
            }
        }
        c
    };
    let m = goods_delta(&market(a), &market(b));
    if !m.is_empty() {
        out.push(format!("Market: {}", m.join(", ")));
    }
    for p in 0..MAX_PLAYERS {
        let mut parts = goods_delta(&a.shops[p], &b.shops[p]);
        if !parts.is_empty() {
            parts.insert(0, "Shop".into());
        }
        let mut line = parts.join(" ");
        for (what, x, y) in [
            ("coins", a.coins[p], b.coins[p]),
            ("Prestige", a.prestige[p], b.prestige[p]),
        ] {
            if x != y {
                if !line.is_empty() {
                    line.push_str("; ");
                }
                line.push_str(&format!(
                    "{what} {x} → {y} ({:+})",
                    i32::from(y) - i32::from(x)
                ));
            }
        }
        if a.sizes[p] != b.sizes[p] {
            if !line.is_empty() {
                line.push_str("; ");
            }
            line.push_str(&format!("hand {} → {} cards", a.sizes[p], b.sizes[p]));
        }
        if !line.is_empty() {
            out.push(format!("seat {p}: {line}"));
        }
    }
    out
}

/// `Tea (7)`.
fn good(v: usize) -> String {
    format!("{} ({v})", GOODS.get(v).copied().unwrap_or("?"))
}

/// The goods of a count-per-value array, `2× Tea (7), Silver (2)`, or `none`.
fn goods_list(counts: &[u8; 11]) -> String {
    let parts: Vec<String> = (1..=10)
        .filter(|&v| counts[v] > 0)
        .map(|v| match counts[v] {
            1 => good(v),
            n => format!("{n}× {}", good(v)),
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The decision a stage asks for, in words.
fn stage(phase: Phase) -> &'static str {
    match phase {
        Phase::Keep => "setup: each seat keeps 1 of its 3 cards",
        Phase::Camel => "setup: the last player places the camel",
        Phase::Move => "move the camel",
        Phase::Pick => "take the good into the hand or the Shop",
        Phase::Bonus => "bonus: the character's power, 3 coins, or nothing",
        Phase::Power => "the power's target",
        Phase::KeepDrawn => "keep one of the drawn cards",
        Phase::VictimGive => "Merchant: the victim gives a card",
        Phase::ActiveGive => "Trader/Merchant: the active player gives a card back",
        Phase::TokenOwner => "Manichean: the token's owner flips it back or lets it go",
        Phase::TokenPay => "Buddhist: pay 2 coins or not",
        Phase::Over => "the game is over",
    }
}

/// The human view (DUN-13's public table and the seat's own hand), every field labelled:
/// the stage, the circle's characters with the good beside each space and the camel,
/// every Majority Token's holder and side, each seat's coins, Prestige, hand size and
/// Shop, the pile, the seat's hand and what it knows of other hands. `values` has bit `v`
/// set for each value in play ([`super::RulesData::values`]).
pub fn human_view(o: &Observation, players: usize, values: u16) -> String {
    let me = usize::from(o.seat);
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!(
        "stage: {}; active seat {}; first player seat {}; turns completed {}{}",
        stage(o.phase),
        o.active,
        o.first,
        o.turns,
        if o.steps > 0 {
            format!("; camel steps this turn {}", o.steps)
        } else {
            String::new()
        }
    ));
    if o.triggered {
        line("the end is triggered: play goes on until the last player has played".into());
    }
    if o.winner != NONE {
        line(format!("seat {} won at once (instant win)", o.winner));
    }
    line("the circle (space: character, good on the Market):".into());
    for m in 0..8 {
        let character = CHARACTERS
            .get(usize::from(o.tiles[m]))
            .copied()
            .unwrap_or("?");
        let here = if usize::from(o.camel) == m && o.phase != Phase::Keep && o.phase != Phase::Camel
        {
            "  <- the camel"
        } else {
            ""
        };
        let market = match o.market[m] {
            0 => "empty".to_string(),
            v => good(usize::from(v)),
        };
        line(format!("  {m} {character}: {market}{here}"));
    }
    line("Majority Tokens (value: holder, side):".into());
    for v in (1..=10usize).filter(|v| values & (1 << v) != 0) {
        let holder = o.holder[v];
        let who = if holder == NONE {
            "in the middle".to_string()
        } else {
            format!("seat {holder}")
        };
        let side = if o.zh & (1 << v) != 0 {
            "裔 (zh) side"
        } else {
            "number side"
        };
        line(format!("  {}: {who}, {side}", good(v)));
    }
    line("seats:".into());
    for p in 0..players {
        let you = if p == me { " (you)" } else { "" };
        line(format!(
            "  seat {p}{you}: {} coins, {} Prestige, {} cards in hand; Shop: {}",
            o.coins[p],
            o.prestige[p],
            o.sizes[p],
            goods_list(&o.shops[p])
        ));
    }
    line(format!(
        "pile: {} cards; put at its bottom: {} cards",
        o.sizes[4], o.sizes[5]
    ));
    line(format!("your hand: {}", goods_list(&o.known[me])));
    for p in (0..players).filter(|&p| p != me) {
        if o.known[p].iter().any(|&n| n > 0) {
            line(format!(
                "you know seat {p} holds: {}",
                goods_list(&o.known[p])
            ));
        }
    }
    out.trim_end().to_string()
}

/// A move in words, from what `seat` sees at `before`: goods by name and value, spaces
/// with their character and Market good, the camel's destination and the extra steps'
/// cost (DUN-3.2), the power's character; `you`: told to the seat itself (`your Shop`),
/// else to others (`their Shop`).
fn words(before: &State, seat: Seat, action: super::Action, you: bool) -> String {
    use super::Action::*;
    let your = if you { "your" } else { "their" };
    let o = before.observation(seat);
    let character = |m: u8| {
        CHARACTERS
            .get(usize::from(o.tiles[usize::from(m) % 8]))
            .copied()
            .unwrap_or("?")
    };
    let market = |m: u8| match o.market[usize::from(m) % 8] {
        0 => "no good".to_string(),
        v => good(usize::from(v)),
    };
    let space = |m: u8| format!("space {m} ({}: {})", character(m), market(m));
    let plural = |n: u8, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    match action {
        Keep(v) => format!("keep {}", good(usize::from(v))),
        Camel(m) => format!("place the camel on {}", space(m)),
        Steps(k) => {
            let to = (o.camel + k) % 8;
            let cost = if k > 1 {
                format!("; costs {}", plural(k - 1, "coin", "coins"))
            } else {
                String::new()
            };
            format!(
                "move the camel {} to {}{cost}",
                plural(k, "step", "steps"),
                space(to)
            )
        }
        Hand => format!("take {} into {your} hand", market(o.camel)),
        Shop => format!("put {} in {your} Shop", market(o.camel)),
        Coins => "bonus: take 3 coins".into(),
        Power => format!("bonus: use the power of the {}", character(o.camel)),
        NoBonus => "no bonus".into(),
        Discard(v) => format!("discard {}", good(usize::from(v))),
        Exchange(v, m) => format!(
            "exchange {your} {} with the Market's {} on space {m}",
            good(usize::from(v)),
            market(m)
        ),
        Maid(a, b) => format!(
            "exchange {your} Shop's {} with {your} hand's {}",
            good(usize::from(a)),
            good(usize::from(b))
        ),
        ToHand(v) => format!(
            "move {} from {your} Shop to {your} hand",
            good(usize::from(v))
        ),
        ToShop(v) => format!(
            "move {} from {your} hand to {your} Shop",
            good(usize::from(v))
        ),
        Take(m) => format!(
            "take the Market's {} on space {m} into {your} hand",
            market(m)
        ),
        Flip(v) => format!(
            "flip {your} {} token to its 裔 (zh) side",
            good(usize::from(v))
        ),
        Opponent(p) => format!("choose seat {p}"),
        Give(v) => format!("give {}", good(usize::from(v))),
        FlipBack => "flip the 裔 token back to its number side and keep it".into(),
        LetSteal => "let the tying seat take the token".into(),
        Pay => "pay 2 coins and take the 裔 token".into(),
        Decline => "do not pay".into(),
    }
}

impl GameLog<State> for Log {
    /// Every field of the seat's observation, labelled ([`human_view`]).
    fn view(&self, state: &State, seat: Seat) -> String {
        human_view(
            &state.observation(seat),
            state.num_players(),
            state.rules().data().values,
        )
    }

    /// A move as the log tells it, with the power's character named (`seat 2 plays power
    /// (Painter)`); secret keeps and gives stay "seat p moves" for other seats.
    fn action(
        &self,
        before: &State,
        seat: Seat,
        action: super::Action,
        audience: Audience,
    ) -> String {
        if audience.knows_private(seat) || self.public_action(before, seat, action) {
            format!("seat {seat} plays {}", words(before, seat, action, false))
        } else {
            format!("seat {seat} moves")
        }
    }

    /// A move in words, with its short form to type: `move the camel 2 steps to space 5
    /// (Buddhist: Pottery (4)); costs 1 coin [steps 2]`; the power names its character.
    fn move_name(&self, before: &State, seat: Seat, action: super::Action) -> String {
        format!("{} [{action}]", words(before, seat, action, true))
    }

    /// Everything moves in the open except secret keeps and exchanged goods (DUN-13).
    fn public_action(&self, _before: &State, _seat: Seat, action: super::Action) -> bool {
        !matches!(action, super::Action::Keep(_) | super::Action::Give(_))
    }

    /// The seats that see a move ([`State::seen_by`], DUN-13): a keep its keeper, a give
    /// the two parties, a face-down Painter discard the painter.
    fn seen_by(&self, before: &State, seat: Seat, action: super::Action) -> SeatSet {
        before.seen_by(seat, action)
    }

    /// The public table's changes (camel, Market, Shops, coins, Prestige, hand sizes); a
    /// seat's own hand is in its view.
    fn consequences(
        &self,
        before: &State,
        _joint: &JointAction<super::Action>,
        after: &State,
        _audience: Audience,
    ) -> Vec<String> {
        table_changes(&before.observation(0), &after.observation(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The human view labels every public field of the observation (issue 25): the test
    /// enumerates them, each with the words that must show it.
    #[test]
    fn the_human_view_labels_every_public_field() {
        let mut buf = Vec::new();
        let mut rng = rng_from_seed(3);
        let mut s: State = setup(&Default::default(), 3, &mut rng).unwrap();
        for _ in 0..40 {
            if s.turn().is_terminal() {
                break;
            }
            play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r));
        }
        let o = s.observation(1);
        let view = Log.view(&s, 1);
        let mut fields: Vec<(&str, String)> = vec![
            ("phase", format!("stage: {}", stage(o.phase))),
            ("active", format!("active seat {}", o.active)),
            ("first", format!("first player seat {}", o.first)),
            ("turns", format!("turns completed {}", o.turns)),
            ("sizes (pile)", format!("pile: {} cards", o.sizes[4])),
            ("sizes (bottom)", format!("bottom: {} cards", o.sizes[5])),
            (
                "known (own hand)",
                format!("your hand: {}", goods_list(&o.known[1])),
            ),
        ];
        for m in 0..8 {
            let character = CHARACTERS[usize::from(o.tiles[m])];
            fields.push(("tiles", format!("{m} {character}: ")));
            if o.market[m] > 0 {
                fields.push((
                    "market",
                    format!("{m} {character}: {}", good(usize::from(o.market[m]))),
                ));
            }
        }
        fields.push(("camel", format!("{} {}", o.camel, "")));
        for p in 0..3 {
            fields.push((
                "coins",
                format!(
                    "seat {p}{}: {} coins",
                    if p == 1 { " (you)" } else { "" },
                    o.coins[p]
                ),
            ));
            fields.push(("prestige", format!("{} Prestige", o.prestige[p])));
            fields.push((
                "sizes (hands)",
                format!(
                    "{} cards in hand; Shop: {}",
                    o.sizes[p],
                    goods_list(&o.shops[p])
                ),
            ));
        }
        for v in (1..=10).filter(|v| s.rules().data().values & (1 << v) != 0) {
            let holder = if o.holder[v] == NONE {
                "in the middle".to_string()
            } else {
                format!("seat {}", o.holder[v])
            };
            fields.push(("holder", format!("{}: {holder}", good(v))));
        }
        for (field, want) in fields {
            assert!(view.contains(&want), "{field}: no '{want}' in\n{view}");
        }
        assert!(view.contains("<- the camel"), "{view}");
    }
    use crate::game::{play_ply, setup};
    use crate::rng::rng_from_seed;

    /// Over random games, every change of coins and Prestige is told, with the right
    /// numbers.
    #[test]
    fn coins_and_prestige_changes_are_told() {
        let mut buf = Vec::new();
        let mut told = 0;
        for seed in 0..5 {
            let mut rng = rng_from_seed(seed);
            let mut s: State = setup(&Default::default(), 3, &mut rng).unwrap();
            loop {
                let before = s.clone();
                let Some((_, joint)) =
                    play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r))
                else {
                    break;
                };
                let lines = Log.consequences(&before, &joint, &s, Audience::All);
                for p in 0..3 {
                    let (x, y) = (before.coins(p), s.coins(p));
                    if x != y {
                        told += 1;
                        let want = format!("coins {x} → {y}");
                        assert!(
                            lines.iter().any(|l| l.starts_with(&format!("seat {p}: "))
                                && l.contains(&want)),
                            "{lines:?} lacks {want}"
                        );
                    }
                }
            }
        }
        assert!(told > 0);
    }
}
