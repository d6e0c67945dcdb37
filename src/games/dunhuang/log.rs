//! Merchants of Dunhuang's game log ([`crate::games::log`]): moves are public except the
//! goods a seat keeps from a secret draw (setup, Interpreter, Diplomat) and the goods given
//! in a Trader or Merchant exchange (DUN-13), which only the mover's seat is told. After
//! each ply the log says, from the public table only, where the camel went, which goods
//! entered or left each Shop and the Market, and how each seat's coins and Prestige moved.

use super::{GOODS, Observation, State};
use crate::game::{GameState, JointAction, MAX_PLAYERS, Seat};
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

impl GameLog<State> for Log {
    /// Everything moves in the open except secret keeps and exchanged goods (DUN-13).
    fn public_action(&self, _before: &State, _seat: Seat, action: super::Action) -> bool {
        !matches!(action, super::Action::Keep(_) | super::Action::Give(_))
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
