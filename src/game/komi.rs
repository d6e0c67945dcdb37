//! The generic compensation parameter every game offers: `komi`, an end-of-game bonus per
//! seat in the game's own points, added before ranking (as Go's komi). Typed
//! `--variant komi=0/0.5` (seat 0 first, missing seats 0; fractional values allowed, so a
//! half-point komi rules out ties the way Go's 6.5 does).
//!
//! Each game declares a `komi: Komi = Komi::NONE` field in its parameters and ranks by
//! `points + komi[seat]` (its own tie-breakers unchanged behind that), through
//! [`Komi::rank`]. The rulebook points ([`GameState::scores`](super::GameState::scores),
//! the `score` column of `games.csv`) stay the points scored: the komi shows in the ranks
//! (and so in `won`, the win rates and the returns that follow ranks), and `sim balance`
//! adds it to the scores where an objective needs adjusted points ([`Komi::adjusted`]).
//!
//! The default (no bonus) changes nothing: ranks are computed exactly as before, and the
//! parameter is left out of every listing of a variant's values while it is zero
//! ([`ParamValue::hidden_at_default`]), so variant labels, `variants.csv`, saved positions
//! and every committed result stay byte-identical. `sim list` shows it.

use super::{MAX_PLAYERS, PerSeat, ranks_by_key};
use crate::params::{ParamValue, Syntax};

/// An end-of-game bonus per seat, in the game's points (see the module docs). Seats past
/// the last value typed get 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Komi(pub PerSeat<f64>);

impl Komi {
    /// No bonus for any seat: the default of every game.
    pub const NONE: Komi = Komi([0.0; MAX_PLAYERS]);

    /// Whether every seat's bonus is 0.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&k| k == 0.0)
    }

    /// Seat `seat`'s bonus (0 past [`MAX_PLAYERS`]).
    pub fn bonus(&self, seat: usize) -> f64 {
        self.0.get(seat).copied().unwrap_or(0.0)
    }

    /// `points[p] + bonus(p)` for the first `n` seats (0 for the rest).
    pub fn adjusted(&self, points: &PerSeat<i32>, n: usize) -> PerSeat<f64> {
        let mut out = [0.0; MAX_PLAYERS];
        for (p, o) in out.iter_mut().enumerate().take(n) {
            *o = f64::from(points[p]) + self.0[p];
        }
        out
    }

    /// Ranks by `points + komi` (higher first), then by the game's own tie-break key
    /// `tiebreak` (higher first); seats equal on both share a rank, as in
    /// [`ranks_by_key`]. With a zero komi this is exactly ranking by `(points, tiebreak)`.
    pub fn rank<K: PartialOrd + Copy + Default>(
        &self,
        points: &PerSeat<i32>,
        tiebreak: &PerSeat<K>,
        n: usize,
    ) -> PerSeat<u8> {
        let adjusted = self.adjusted(points, n);
        let mut keys = [(0.0, K::default()); MAX_PLAYERS];
        for (p, k) in keys.iter_mut().enumerate().take(n) {
            *k = (adjusted[p], tiebreak[p]);
        }
        ranks_by_key(&keys, n)
    }
}

impl ParamValue for Komi {
    const SYNTAX: Syntax = Syntax::SLASH;

    fn parse_param(s: &str) -> Result<Self, String> {
        const FORMS: &str = "a bonus in points per seat, seat 0 first, `/`-separated \
                             (`0/0.5`; missing seats get 0), each a finite number";
        let s = s.trim();
        let pieces: Vec<&str> = s.split('/').collect();
        if pieces.len() > MAX_PLAYERS {
            return Err(format!(
                "{FORMS}; {} values given, at most {MAX_PLAYERS}",
                pieces.len()
            ));
        }
        let mut k = [0.0; MAX_PLAYERS];
        for (i, piece) in pieces.iter().enumerate() {
            k[i] = f64::parse_param(piece)
                .map_err(|e| format!("{FORMS}; item {} '{}': expected {e}", i + 1, piece.trim()))?;
        }
        Ok(Komi(k))
    }

    /// The values up to the last non-zero one, `/`-separated (`0` when all are zero).
    fn format_param(&self) -> String {
        format_per_seat(&self.0, |k| k.format_param())
    }

    fn type_name() -> String {
        "points per seat a/b/...".into()
    }

    fn fits_players(&self, range: (usize, usize)) -> Result<(), String> {
        fits_per_seat(&self.0, range)
    }

    fn hidden_at_default(&self) -> bool {
        self.is_zero()
    }
}

/// The `/`-separated form of a per-seat bonus (`komi`, and the starting bonuses of
/// [`SeatBonus`](super::SeatBonus)): the values up to the last non-zero one, `0` when all
/// are zero, each written by `fmt`.
pub(crate) fn format_per_seat<T: Copy + Default + PartialEq>(
    values: &[T],
    fmt: impl Fn(&T) -> String,
) -> String {
    let last = values.iter().rposition(|k| *k != T::default()).unwrap_or(0);
    values[..=last]
        .iter()
        .map(fmt)
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether a per-seat bonus fits `range` (fewest, most players): no seat at or past the
/// most players may hold a non-zero value.
///
/// # Errors
/// A message naming the largest seat count and the seat that has a bonus.
pub(crate) fn fits_per_seat<T: Copy + Default + PartialEq>(
    values: &[T],
    range: (usize, usize),
) -> Result<(), String> {
    match values.iter().rposition(|k| *k != T::default()) {
        Some(last) if last >= range.1 => Err(format!(
            "at most {} values (one per seat); seat {last} has a bonus",
            range.1
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_formats_and_round_trips() {
        let k = Komi::parse_param("0/0.5").unwrap();
        assert_eq!(k.0, [0.0, 0.5, 0.0, 0.0]);
        assert_eq!(k.format_param(), "0/0.5");
        assert_eq!(Komi::parse_param("0").unwrap(), Komi::NONE);
        assert_eq!(Komi::NONE.format_param(), "0");
        assert_eq!(
            Komi::parse_param("-1/0/0/2").unwrap().format_param(),
            "-1/0/0/2"
        );
        assert!(
            Komi::parse_param("1/2/3/4/5")
                .unwrap_err()
                .contains("at most 4")
        );
        assert!(Komi::parse_param("1/x").unwrap_err().contains("item 2 'x'"));
        assert!(Komi::parse_param("inf").is_err());
        assert!(Komi([0.0, 0.0, 1.0, 0.0]).fits_players((2, 2)).is_err());
        assert!(Komi([0.0, 1.0, 0.0, 0.0]).fits_players((2, 2)).is_ok());
    }

    /// A komi moves a seat past another exactly when it covers the point gap; the game's
    /// tie-break decides only exact equality; a zero komi ranks as `(points, tiebreak)`.
    #[test]
    fn ranks_by_adjusted_points_then_tiebreak() {
        let pts = [10, 12, 0, 0];
        assert_eq!(Komi::NONE.rank(&pts, &[0u8; 4], 2)[..2], [2, 1]);
        assert_eq!(
            Komi([2.5, 0.0, 0.0, 0.0]).rank(&pts, &[0u8; 4], 2)[..2],
            [1, 2]
        );
        assert_eq!(
            Komi([2.0, 0.0, 0.0, 0.0]).rank(&pts, &[0u8; 4], 2)[..2],
            [1, 1]
        );
        assert_eq!(
            Komi([2.0, 0.0, 0.0, 0.0]).rank(&pts, &[0u8, 1, 0, 0], 2)[..2],
            [2, 1]
        );
        assert_eq!(
            Komi::NONE.rank(&[5, 5, 0, 0], &[3u8, 1, 0, 0], 2)[..2],
            [1, 2]
        );
    }
}
