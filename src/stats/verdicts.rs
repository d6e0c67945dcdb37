//! Plain-language verdicts of the tests of a tournament: equal seats ([`SeatTest`]) and
//! the head-to-head comparison of two agents ([`head_to_head_verdict`]). One sentence each,
//! naming the numbers they rest on; "not equal" and "stronger" mean p < 0.05.

use super::{Z95, binomial_test_half, wilson};
use crate::format::{format_p, pct, rate_ci};

/// The test of equal seats over the games with a single winner (`seat_test.csv`; built by
/// `crate::tournament::Stats::seat_test`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatTest {
    /// `exact binomial` (2 seats) or `chi-square` (3–4 seats).
    pub method: &'static str,
    /// Games with a single winner (the trials; draws are left out).
    pub decisive: u64,
    /// Seat 0's wins among them (binomial), or Pearson's X² (chi-square).
    pub statistic: f64,
    /// Degrees of freedom (chi-square only): seats − 1.
    pub df: Option<u32>,
    /// The two-sided p-value of equal seats.
    pub p_value: f64,
    /// The seat with the highest win rate (the lowest such seat on ties).
    pub seat: usize,
    /// Its win rate (wins / games, draws not counted as wins).
    pub win_rate: f64,
    /// Its 95% Wilson interval.
    pub interval: (f64, f64),
    /// The win rate of equal seats without draws, 1 / seats.
    pub expected: f64,
}

impl SeatTest {
    /// One plain sentence: whether the seats differ, with the best seat's win rate, its
    /// interval, the method and the p-value. "An advantage" means p < 0.05.
    pub fn verdict(&self) -> String {
        let best = format!(
            "seat {} wins {} [{}, {}] against {} for equal seats",
            self.seat,
            pct(self.win_rate),
            pct(self.interval.0),
            pct(self.interval.1),
            pct(self.expected)
        );
        let how = format!(
            "{} test over {} games with a single winner, {}",
            self.method,
            self.decisive,
            format_p(self.p_value)
        );
        if self.decisive == 0 {
            "no game had a single winner: no test of equal seats".to_string()
        } else if self.p_value < 0.05 {
            format!("{best}: the seats are not equal ({how})")
        } else {
            format!("no seat advantage detected ({how}); the best seat: {best}")
        }
    }
}

/// One plain sentence comparing two agents that played `games` games against each other
/// with equal shares of the seats: the stronger agent's win rate with its 95% Wilson
/// interval, the other's, and the exact two-sided binomial test of the first agent's wins
/// among the games one of them won against 1/2 ([`binomial_test_half`]).
/// "Stronger" means p < 0.05. Example: `greedy is stronger than random: it wins 80.6%
/// [78.8, 82.3] of 2000 games, random 19.4% (exact binomial test over the 2000 games one
/// of them won, p < 0.001)`.
pub fn head_to_head_verdict(a: &str, wins_a: u64, b: &str, wins_b: u64, games: u64) -> String {
    let rate = |w: u64| {
        let (lo, hi) = wilson(w, games, Z95);
        (
            if games == 0 {
                0.0
            } else {
                w as f64 / games as f64
            },
            lo,
            hi,
        )
    };
    let (ra, rb) = (rate(wins_a), rate(wins_b));
    let decisive = wins_a + wins_b;
    let p = binomial_test_half(wins_a, decisive);
    let how = format!(
        "exact binomial test over the {decisive} games one of them won, {}",
        format_p(p)
    );
    if decisive > 0 && p < 0.05 {
        let ((w, rw), (l, rl)) = if wins_a >= wins_b {
            ((a, ra), (b, rb))
        } else {
            ((b, rb), (a, ra))
        };
        format!(
            "{w} is stronger than {l}: it wins {} of {games} games, {l} {} ({how})",
            rate_ci(rw.0, rw.1, rw.2),
            pct(rl.0)
        )
    } else {
        format!(
            "no difference detected between {a} and {b}: {a} wins {}, {b} {} of {games} games ({how})",
            rate_ci(ra.0, ra.1, ra.2),
            rate_ci(rb.0, rb.1, rb.2)
        )
    }
}
