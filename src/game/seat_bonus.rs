//! A per-seat starting bonus in whole units of a game's own currency (coins, Gold): the
//! natural compensation knob of games whose rulebook gives every seat the same start
//! (issue 24 item 1). Typed `--variant seat_coins=0/2` (seat 0 first, missing seats 0;
//! negative values take from a seat's start). Dunhuang and Q.A.X. declare it as
//! `seat_coins`, Daimyo as `seat_gold`; each game adds the bonus to the seat's start,
//! takes it from its bank or supply where the rules have one, and checks the range its
//! rules allow when the rules are built (a bad value names that range).
//!
//! Like [`super::Komi`], the default (no bonus) changes nothing and is left out of every
//! listing of a variant's values ([`ParamValue::hidden_at_default`]), so variant labels,
//! saved positions and committed results stay byte-identical. It is a compensation knob
//! for `sim balance`, not a rule.

use super::{MAX_PLAYERS, PerSeat};
use crate::params::{ParamValue, Syntax};

/// The most a [`SeatBonus`] value may be in absolute terms when typed; each game narrows
/// it to what its components allow.
pub const SEAT_BONUS_LIMIT: i32 = 99;

/// A starting bonus per seat, in whole units (see the module docs). Seats past the last
/// value typed get 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatBonus(pub PerSeat<i32>);

impl SeatBonus {
    /// No bonus for any seat: the default.
    pub const NONE: SeatBonus = SeatBonus([0; MAX_PLAYERS]);

    /// Whether every seat's bonus is 0.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&k| k == 0)
    }

    /// Seat `seat`'s bonus (0 past [`MAX_PLAYERS`]).
    pub fn bonus(&self, seat: usize) -> i32 {
        self.0.get(seat).copied().unwrap_or(0)
    }

    /// The sum of the first `n` seats' bonuses.
    pub fn total(&self, n: usize) -> i32 {
        self.0.iter().take(n).sum()
    }

    /// Checks that every one of the first `n` seats starts with `base + bonus` inside
    /// `min..=max`, and that the starts sum to at most `pool` when given (a bank or
    /// supply the starts are taken from).
    ///
    /// # Errors
    /// A message naming the key, the seat, its value and the valid range of the bonus
    /// (`seat_coins: seat 1 bonus 50 is outside -5..=39 (a start of 0..=44 coins)`).
    pub fn check(
        &self,
        key: &str,
        n: usize,
        base: i32,
        (min, max): (i32, i32),
        unit: &str,
        pool: Option<(i32, &str)>,
    ) -> Result<(), String> {
        for p in 0..n {
            let b = self.bonus(p);
            if !(min..=max).contains(&(base + b)) {
                return Err(format!(
                    "{key}: seat {p} bonus {b} is outside {}..={} (a start of {min}..={max} \
                     {unit} from the {base} every seat has)",
                    min - base,
                    max - base
                ));
            }
        }
        if let Some((pool, what)) = pool {
            let total = base * n as i32 + self.total(n);
            if total > pool {
                return Err(format!(
                    "{key}: the {n} seats would start with {total} {unit} in all, more than \
                     the {pool} of {what}; the bonuses may add at most {} {unit} in all",
                    pool - base * n as i32
                ));
            }
        }
        for p in n..MAX_PLAYERS {
            if self.bonus(p) != 0 {
                return Err(format!(
                    "{key}: seat {p} has a bonus but a {n}-player game has seats 0..={}",
                    n - 1
                ));
            }
        }
        Ok(())
    }
}

impl ParamValue for SeatBonus {
    const SYNTAX: Syntax = Syntax::SLASH;

    fn parse_param(s: &str) -> Result<Self, String> {
        let forms = format!(
            "a whole-unit bonus per seat, seat 0 first, `/`-separated (`0/2`; missing seats \
             get 0), each an integer in -{SEAT_BONUS_LIMIT}..={SEAT_BONUS_LIMIT}"
        );
        let pieces: Vec<&str> = s.trim().split('/').collect();
        if pieces.len() > MAX_PLAYERS {
            return Err(format!(
                "{forms}; {} values given, at most {MAX_PLAYERS}",
                pieces.len()
            ));
        }
        let mut k = [0; MAX_PLAYERS];
        for (i, piece) in pieces.iter().enumerate() {
            let v: i32 = piece.trim().parse().map_err(|_| {
                format!(
                    "{forms}; item {} '{}' is not an integer",
                    i + 1,
                    piece.trim()
                )
            })?;
            if v.abs() > SEAT_BONUS_LIMIT {
                return Err(format!("{forms}; item {} is {v}", i + 1));
            }
            k[i] = v;
        }
        Ok(SeatBonus(k))
    }

    /// The values up to the last non-zero one, `/`-separated (`0` when all are zero).
    fn format_param(&self) -> String {
        super::komi::format_per_seat(&self.0, |k| k.to_string())
    }

    fn type_name() -> String {
        "whole units per seat a/b/...".into()
    }

    fn fits_players(&self, range: (usize, usize)) -> Result<(), String> {
        super::komi::fits_per_seat(&self.0, range)
    }

    fn hidden_at_default(&self) -> bool {
        self.is_zero()
    }
}

/// Test support: plays `games` uniformly random games under rules `a` and `b`, game `i`
/// from `test_rng(i)` for both, and asserts that the serialized states (the form saved
/// positions take) are equal byte for byte after setup and at the end, and that the games
/// took the same number of plies. The games' tests call it with the default parameters
/// and the same with the knob set to 0.
///
/// # Panics
/// At the first game that differs.
#[cfg(test)]
pub(crate) fn assert_same_games<G: super::GameState>(
    a: super::RulesRef<G>,
    b: super::RulesRef<G>,
    games: u64,
) {
    for i in 0..games {
        let (mut ra, mut rb) = (crate::rng::test_rng(i), crate::rng::test_rng(i));
        let mut sa = G::new_game(a, &mut ra);
        let mut sb = G::new_game(b, &mut rb);
        let json = |s: &G| serde_json::to_string(s).expect("states serialize");
        assert_eq!(json(&sa), json(&sb), "game {i} after setup");
        let (mut plies_a, mut plies_b) = (0, 0);
        let mut buf = Vec::new();
        while super::play_ply(&mut sa, &mut ra, |s, p, r| {
            super::uniform_legal_action(s, p, &mut buf, r)
        })
        .is_some()
        {
            plies_a += 1;
        }
        while super::play_ply(&mut sb, &mut rb, |s, p, r| {
            super::uniform_legal_action(s, p, &mut buf, r)
        })
        .is_some()
        {
            plies_b += 1;
        }
        assert_eq!(plies_a, plies_b, "game {i}: plies");
        assert_eq!(json(&sa), json(&sb), "game {i} at the end");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_formats_and_round_trips() {
        let k = SeatBonus::parse_param("0/2").unwrap();
        assert_eq!(k.0, [0, 2, 0, 0]);
        assert_eq!(k.format_param(), "0/2");
        assert_eq!(SeatBonus::parse_param("0").unwrap(), SeatBonus::NONE);
        assert_eq!(SeatBonus::NONE.format_param(), "0");
        assert!(SeatBonus::NONE.hidden_at_default());
        assert!(!k.hidden_at_default());
        assert_eq!(
            SeatBonus::parse_param("-1/0/0/3").unwrap().format_param(),
            "-1/0/0/3"
        );
        let e = SeatBonus::parse_param("1/x").unwrap_err();
        assert!(e.contains("item 2 'x'"), "{e}");
        let e = SeatBonus::parse_param("0/100").unwrap_err();
        assert!(e.contains("-99..=99"), "{e}");
        assert!(SeatBonus::parse_param("1.5").is_err());
        assert!(SeatBonus::parse_param("1/2/3/4/5").is_err());
    }

    /// The range check names the bonus's valid range and the pool.
    #[test]
    fn checks_name_the_valid_range() {
        let k = SeatBonus([0, 50, 0, 0]);
        let e = k
            .check("seat_coins", 2, 5, (0, 44), "coins", None)
            .unwrap_err();
        assert!(e.contains("seat 1 bonus 50 is outside -5..=39"), "{e}");
        let k = SeatBonus([-6, 0, 0, 0]);
        assert!(k.check("seat_coins", 2, 5, (0, 44), "coins", None).is_err());
        let k = SeatBonus([10, 10, 0, 0]);
        assert!(k.check("seat_coins", 2, 5, (0, 44), "coins", None).is_ok());
        let e = k
            .check("seat_coins", 2, 5, (0, 44), "coins", Some((20, "the box")))
            .unwrap_err();
        assert!(e.contains("at most 10 coins in all"), "{e}");
        let k = SeatBonus([0, 0, 1, 0]);
        assert!(k.check("seat_coins", 2, 5, (0, 44), "coins", None).is_err());
    }
}
