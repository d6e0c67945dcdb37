//! Tests of equal seats: the exact two-sided binomial test against 1/2 (2 seats) and
//! Pearson's chi-square goodness of fit against equal counts (3–4 seats), and the
//! standard normal tail used by the z-tests of [`super::difference`].

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

/// The standard normal's upper tail, `P(Z > z)` (from `statrs`).
pub(super) fn normal_sf(z: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    Normal::new(0.0, 1.0).expect("standard normal").sf(z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

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
    }
}
