//! The Wilson score interval of a proportion (Wilson 1927, "Probable inference, the law
//! of succession, and statistical inference", JASA 22:209–212), the workhorse of every
//! win rate the project prints. See the [`crate::stats`] module docs for the formula and
//! why it is preferred to the Wald interval.

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

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
}
