//! Statistics for tournaments and experiments: intervals for win rates and their
//! differences, tests of equal seats, differences of means, distributions (quantiles and
//! histograms), per-action tables, ratings, and the building blocks of paired and
//! sequential designs, with the integer tallies the runner accumulates and merges.
//!
//! This is the bottom layer (DESIGN.md §2): pure mathematics and tallies with their merge
//! and serialisation. It imports nothing from the game API, the agents or the runner; the
//! runner ([`crate::tournament`]) feeds it numbers taken from its game records.
//!
//! - **Wilson score interval** (Wilson 1927, "Probable inference, the law of succession,
//!   and statistical inference", JASA 22:209–212). For `x` successes in `n` trials,
//!   `p̂ = x/n` and normal quantile `z`, the interval is
//!   `(p̂ + z²/2n ± z·sqrt(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)`.
//!   Unlike the Wald interval `p̂ ± z·sqrt(p̂(1−p̂)/n)` it stays inside `[0, 1]` and keeps
//!   close to its nominal coverage for small `n` and for rates near 0 or 1 (Brown, Cai &
//!   DasGupta 2001, "Interval estimation for a binomial proportion", Stat. Sci. 16:101–133).
//!   It needs independent Bernoulli trials. Games are: every game has its own seeds. The
//!   seats of one game are not (they share the game, and at most one of them wins alone),
//!   so an agent holding several seats of a game counts that game once
//!   ([`crate::tournament::summary`]); the per-seat tables have one trial per game anyway.
//! - **Welford's algorithm** (Welford 1962, "Note on a method for calculating corrected sums
//!   of squares and products", Technometrics 4:419–420; as presented in Knuth, TAOCP vol. 2,
//!   §4.2.2): a numerically stable one-pass mean and variance in O(1) memory, so a
//!   tournament's memory stays flat in the number of games. [`Welford::merge`] combines two
//!   partial results (Chan, Golub & LeVeque 1979).
//! - **Exact binomial test** of equal seats at 2 players and **Pearson's chi-square
//!   goodness of fit** at 3–4 ([`binomial_test_half`], [`chi_square_uniform`]).
//! - **Difference of two independent proportions** ([`proportion_difference`]): the
//!   estimate `p̂₁ − p̂₂` with **Newcombe's hybrid score interval** (Newcombe 1998,
//!   "Interval estimation for the difference between independent proportions: comparison
//!   of eleven methods", Stat. Med. 17:873–890, method 10), built from the two Wilson
//!   intervals `[l₁, u₁]`, `[l₂, u₂]`: `[d − sqrt((p̂₁ − l₁)² + (u₂ − p̂₂)²), d + sqrt((u₁ −
//!   p̂₁)² + (p̂₂ − l₂)²)]`. Its p-value is the two-sided pooled two-proportion z-test
//!   (equivalently Pearson's chi-square on the 2 × 2 table without continuity correction).
//! - **Difference of two means** ([`mean_difference`]): **Welch's t interval and test**
//!   (Welch 1947, "The generalization of 'Student's' problem when several different
//!   population variances are involved", Biometrika 34:28–35) with the Welch–Satterthwaite
//!   degrees of freedom, from each group's mean, sd and n (so it works from
//!   `metrics.csv`).
//! - **Quantiles** ([`quantile`]): Hyndman & Fan (1996, "Sample quantiles in statistical
//!   packages", Am. Stat. 50:361–365) **type 7**, linear interpolation between order
//!   statistics at `h = (n − 1) p` (R's and NumPy's default).
//! - **Histograms** of integer values ([`Histogram::of_integers`]): equal-width bins of
//!   whole numbers, one per value when the range allows.
//! - **Per-action tables** ([`ActionTally`]): how often each action is played per
//!   seat-game, and the win rate of the seats that played it at least once against those
//!   that did not.
//! - **Skill depth and chance versus skill** ([`skill_depth`], [`chance_vs_skill`]): win
//!   rates as a function of a search budget, and how often the weakest (random) agent
//!   beats the strongest.
//! - **Paired differences** ([`paired_difference`], [`paired_difference_moments`]): the
//!   one-sample t interval (Student 1908) on per-block differences, used by `sim
//!   tournament --paired` with one block per deal (common random numbers).
//! - **Wald's sequential probability ratio test** ([`Sprt`]), used by `sim tournament
//!   --until-significant`.

pub mod actions;
pub mod decisiveness;
pub mod difference;
pub mod distribution;
pub mod exact;
pub mod hypothesis;
pub mod interval;
pub mod moments;
pub mod paired;
pub mod ratings;
pub mod sequential;
pub mod skill;
pub mod tally;
pub mod verdicts;

/// The most seats of a game a tally holds (arrays of seats are this long). Equal to
/// [`crate::game::MAX_PLAYERS`], checked at compile time by the runner, which fills
/// these tallies from its game records.
pub const MAX_SEATS: usize = 4;

pub use actions::{ActionRow, ActionTally};
pub use difference::{Difference, MeanSd, mean_difference, proportion_difference};
pub use distribution::{Distribution, Histogram, quantile};
pub use hypothesis::{binomial_test_half, chi_square_uniform};
pub use interval::{Z95, wilson};
pub use moments::{IntMoments, Welford};
pub use paired::{PAIRED_METHOD, paired_difference, paired_difference_moments};
pub use sequential::{Sprt, SprtDecision};
pub use skill::{DepthPoint, chance_vs_skill, skill_depth};

/// Whether `a` and `b` differ by at most `tol` (the tests' comparison of floats).
#[cfg(test)]
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}
