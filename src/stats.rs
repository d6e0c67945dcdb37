//! Summary statistics for tournaments: the Wilson score interval for win rates and
//! Welford's running mean and variance for scores and margins.
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

/// The two-sided 95% normal quantile, `Φ⁻¹(0.975)`, to 7 significant digits.
pub const Z95: f64 = 1.959964;

/// The Wilson score interval `(low, high)` for `successes` out of `trials` at normal
/// quantile `z` (use [`Z95`] for a 95% interval). Both bounds lie in `[0, 1]`.
///
/// With no trials there is no information and the interval is `(0, 1)`.
///
/// # Panics
/// Panics in debug builds if `successes > trials`.
///
/// ```
/// use tabletop_sim::stats::{wilson, Z95};
/// let (lo, hi) = wilson(8, 10, Z95);
/// assert!((lo - 0.4902).abs() < 1e-4 && (hi - 0.9433).abs() < 1e-4);
/// ```
pub fn wilson(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    debug_assert!(successes <= trials);
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Rounding can push a bound a hair past [0, 1] when p is 0 or 1.
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The exact two-sided binomial test of `x` successes in `n` trials against success
/// probability 1/2: `min(1, 2 P(X <= min(x, n - x)))` for `X ~ Binomial(n, 1/2)` (the
/// distribution is symmetric, so this equals the sum of the probabilities of the outcomes
/// no more likely than `x`). Returns 1 when `n = 0`. The CDF comes from `statrs`.
///
/// # Panics
/// If `x > n`.
pub fn binomial_test_half(x: u64, n: u64) -> f64 {
    use statrs::distribution::{Binomial, DiscreteCDF};
    assert!(x <= n, "{x} successes in {n} trials");
    if n == 0 {
        return 1.0;
    }
    let tail = Binomial::new(0.5, n)
        .expect("p = 0.5 is a probability")
        .cdf(x.min(n - x));
    (2.0 * tail).min(1.0)
}

/// Pearson's chi-square goodness-of-fit test of `counts` against equal expected counts:
/// returns `(statistic, degrees of freedom, p-value)` with `statistic = Σ (O − E)² / E`,
/// `E = Σ O / k`, `k − 1` degrees of freedom and the upper tail of the chi-square
/// distribution (from `statrs`). With fewer than 2 categories or no counts, `(0, 0, 1)`.
/// The approximation wants every `E` of at least about 5.
pub fn chi_square_uniform(counts: &[u64]) -> (f64, u32, f64) {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    let total: u64 = counts.iter().sum();
    if counts.len() < 2 || total == 0 {
        return (0.0, 0, 1.0);
    }
    let e = total as f64 / counts.len() as f64;
    let stat: f64 = counts.iter().map(|&o| (o as f64 - e).powi(2) / e).sum();
    let df = counts.len() as u32 - 1;
    let p = ChiSquared::new(f64::from(df)).expect("df >= 1").sf(stat);
    (stat, df, p)
}

/// Formats a p-value for a verdict: `p < 0.001`, or `p = 0.042` (3 decimals).
pub fn format_p(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    }
}

/// Exact moments of a stream of integers: the count, the sum and the sum of squares, in
/// integer arithmetic. Adding a value is three additions (no division, unlike
/// [`Welford`]), and merging is exact, so the result does not depend on the order or the
/// grouping of the values. Holds up to 2^63 values of magnitude up to 2^31 without
/// overflow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IntMoments {
    count: u64,
    sum: i64,
    #[serde(with = "crate::tournament::checkpoint::i128_text")]
    sum_sq: i128,
}

impl IntMoments {
    /// No values.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one value.
    #[inline]
    pub fn push(&mut self, x: i64) {
        self.count += 1;
        self.sum += x;
        self.sum_sq += i128::from(x) * i128::from(x);
    }

    /// Adds the values of `other`.
    pub fn merge(&mut self, other: &IntMoments) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// Number of values.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The mean (0 when empty).
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// The sample variance, with Bessel's correction (`n − 1`); 0 with fewer than two
    /// values. Computed as `(n Σx² − (Σx)²) / (n (n − 1))` in exact integer arithmetic when
    /// it fits in 128 bits, so it suffers no cancellation.
    pub fn variance(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let n = i128::from(self.count);
        let s = i128::from(self.sum);
        match n
            .checked_mul(self.sum_sq)
            .and_then(|a| a.checked_sub(s * s))
        {
            Some(num) => num as f64 / (n * (n - 1)) as f64,
            None => {
                let mean = self.mean();
                (self.sum_sq as f64 - self.sum as f64 * mean) / (self.count - 1) as f64
            }
        }
    }

    /// The sample standard deviation, `sqrt(variance())`.
    pub fn sd(&self) -> f64 {
        self.variance().sqrt()
    }
}

/// Running mean and variance of a stream of numbers (Welford 1962), in O(1) memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Welford {
    count: u64,
    #[serde(with = "crate::tournament::checkpoint::f64_bits")]
    mean: f64,
    /// Sum of squared deviations from the current mean.
    #[serde(with = "crate::tournament::checkpoint::f64_bits")]
    m2: f64,
}

impl Welford {
    /// An empty accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one observation.
    pub fn push(&mut self, x: f64) {
        self.count += 1;
        let delta = x - self.mean;
        self.mean += delta / self.count as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// Combines another accumulator into this one, as if its observations had been pushed
    /// here (Chan, Golub & LeVeque 1979, pairwise update).
    pub fn merge(&mut self, other: &Welford) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 {
            *self = *other;
            return;
        }
        let n = self.count + other.count;
        let delta = other.mean - self.mean;
        let (na, nb) = (self.count as f64, other.count as f64);
        self.mean += delta * nb / n as f64;
        self.m2 += other.m2 + delta * delta * na * nb / n as f64;
        self.count = n;
    }

    /// Number of observations.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The mean (0 when empty).
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The sample variance, with Bessel's correction (divides by `n − 1`); 0 with fewer
    /// than two observations.
    pub fn variance(&self) -> f64 {
        if self.count < 2 {
            0.0
        } else {
            self.m2 / (self.count - 1) as f64
        }
    }

    /// The sample standard deviation, `sqrt(variance())`.
    pub fn sd(&self) -> f64 {
        self.variance().sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn tests_of_equal_seats_match_published_values() {
        // R: binom.test(60, 100)$p.value = 0.05688793; binom.test(5, 10) = 1;
        // binom.test(0, 10) = 0.001953125 (2 / 1024).
        assert!(close(binomial_test_half(60, 100), 0.056_887_93, 1e-7));
        assert!(close(binomial_test_half(40, 100), 0.056_887_93, 1e-7));
        assert_eq!(binomial_test_half(5, 10), 1.0);
        assert!(close(binomial_test_half(0, 10), 2.0 / 1024.0, 1e-12));
        assert_eq!(binomial_test_half(0, 0), 1.0);
        // R: chisq.test(c(30, 20, 25, 25)): X-squared = 2, df = 3, p-value = 0.5724067.
        let (x, df, p) = chi_square_uniform(&[30, 20, 25, 25]);
        assert!(close(x, 2.0, 1e-12) && df == 3 && close(p, 0.572_406_7, 1e-7));
        // chisq.test(c(50, 20, 30)): X-squared = 14, df = 2, p-value = 0.000911882.
        let (x, df, p) = chi_square_uniform(&[50, 20, 30]);
        assert!(close(x, 14.0, 1e-12) && df == 2 && close(p, 0.000_911_882, 1e-9));
        assert_eq!(format_p(0.0004), "p < 0.001");
        assert_eq!(format_p(0.0424), "p = 0.042");
    }

    #[test]
    fn int_moments_match_welford_and_merge_exactly() {
        let xs = [3i64, -7, 12, 12, 0, 5, 1_000_000, -2];
        let mut m = IntMoments::new();
        let mut w = Welford::new();
        xs.iter().for_each(|&x| {
            m.push(x);
            w.push(x as f64);
        });
        assert_eq!(m.count(), 8);
        assert!(close(m.mean(), w.mean(), 1e-9));
        assert!(close(m.variance(), w.variance(), 1e-6 * w.variance()));
        // Hand-computed: 1, 2, 3, 4 has mean 2.5 and sample variance 5/3.
        let mut h = IntMoments::new();
        (1..=4).for_each(|x| h.push(x));
        assert_eq!((h.mean(), h.variance()), (2.5, 5.0 / 3.0));
        let (mut a, mut b) = (IntMoments::new(), IntMoments::new());
        xs[..3].iter().for_each(|&x| a.push(x));
        xs[3..].iter().for_each(|&x| b.push(x));
        a.merge(&b);
        assert_eq!(a, m);
    }

    #[test]
    fn wilson_matches_published_values() {
        // 8/10 at 95%: [0.4902, 0.9433] (e.g. Newcombe 1998, Stat. Med. 17:857, method 3).
        let (lo, hi) = wilson(8, 10, Z95);
        assert!(
            close(lo, 0.4902, 5e-5) && close(hi, 0.9433, 5e-5),
            "{lo} {hi}"
        );
        // Newcombe 1998 Table I: 15/148 -> [0.0624, 0.1605]; 0/20 -> [0, 0.1611].
        let (lo, hi) = wilson(15, 148, Z95);
        assert!(
            close(lo, 0.0624, 5e-5) && close(hi, 0.1605, 5e-5),
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 20, Z95);
        assert!(lo == 0.0 && close(hi, 0.1611, 5e-5), "{lo} {hi}");
        // 1/29 -> [0.0061, 0.1718].
        let (lo, hi) = wilson(1, 29, Z95);
        assert!(
            close(lo, 0.0061, 5e-5) && close(hi, 0.1718, 5e-5),
            "{lo} {hi}"
        );
    }

    #[test]
    fn wilson_edge_cases() {
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
        let (lo, hi) = wilson(20, 20, Z95);
        assert!(close(lo, 0.8389, 5e-5) && hi == 1.0, "{lo} {hi}");
        // Symmetric: x/n and (n-x)/n mirror each other.
        let (a, b) = wilson(3, 17, Z95);
        let (c, d) = wilson(14, 17, Z95);
        assert!(close(a, 1.0 - d, 1e-12) && close(b, 1.0 - c, 1e-12));
        // Narrows as n grows at a fixed rate.
        let w1 = wilson(50, 100, Z95);
        let w2 = wilson(5000, 10000, Z95);
        assert!(w2.1 - w2.0 < w1.1 - w1.0);
    }

    #[test]
    fn welford_matches_two_pass() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        let mut w = Welford::new();
        for &x in &xs {
            w.push(x);
        }
        assert_eq!(w.count(), 8);
        assert!(close(w.mean(), 5.0, 1e-12));
        // Sum of squared deviations 32, sample variance 32/7.
        assert!(close(w.variance(), 32.0 / 7.0, 1e-12));
        assert!(close(w.sd(), (32.0f64 / 7.0).sqrt(), 1e-12));
    }

    #[test]
    fn welford_is_stable_with_a_large_offset() {
        // The textbook one-pass formula sum(x²) - n·mean² loses every digit here.
        let mut w = Welford::new();
        for x in [4.0, 7.0, 13.0, 16.0] {
            w.push(1e9 + x);
        }
        assert!(close(w.mean(), 1e9 + 10.0, 1e-6));
        assert!(close(w.variance(), 30.0, 1e-6), "{}", w.variance());
    }

    #[test]
    fn welford_edge_cases_and_merge() {
        let mut w = Welford::new();
        assert_eq!((w.mean(), w.variance()), (0.0, 0.0));
        w.push(3.0);
        assert_eq!((w.mean(), w.variance()), (3.0, 0.0));

        let xs: Vec<f64> = (0..57).map(|i| ((i * 37) % 11) as f64 - 2.5).collect();
        let mut all = Welford::new();
        xs.iter().for_each(|&x| all.push(x));
        let (mut a, mut b) = (Welford::new(), Welford::new());
        xs[..20].iter().for_each(|&x| a.push(x));
        xs[20..].iter().for_each(|&x| b.push(x));
        a.merge(&b);
        assert_eq!(a.count(), all.count());
        assert!(close(a.mean(), all.mean(), 1e-12));
        assert!(close(a.variance(), all.variance(), 1e-12));
        let mut e = Welford::new();
        e.merge(&all);
        assert_eq!(e, all);
    }
}
