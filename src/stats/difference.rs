//! Differences between two groups with a 95% interval and a p-value: two independent
//! proportions (Newcombe's hybrid score interval, pooled z-test) and two independent means
//! (Welch's t), and the t interval shared with the paired design ([`super::paired`]).

use super::hypothesis::normal_sf;
use super::interval::{Z95, wilson};
use crate::format::format_p;

/// An estimated difference with its 95% interval and two-sided p-value of "no difference"
/// ([`proportion_difference`], [`mean_difference`], [`super::paired_difference`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// The estimate: first group minus second group (a proportion or a mean).
    pub estimate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// The two-sided p-value of a zero difference.
    pub p_value: f64,
    /// The interval and test used, e.g. `Newcombe hybrid score interval, pooled z-test`.
    pub method: &'static str,
}

impl Difference {
    /// Whether the difference is significant at the 5% level.
    pub fn significant(&self) -> bool {
        self.p_value < 0.05
    }

    /// One plain sentence, e.g. `professional=true raises seat 0's win rate by 2.1 points
    /// [0.8, 3.4], p = 0.002` or `no detectable change in mean rounds under
    /// professional=true: +0.04 [-0.05, 0.13], p = 0.41`.
    ///
    /// `subject` is what changed (a variant, an agent), `quantity` what was measured, and
    /// `scale` and `unit` how to print the numbers: `(100, "points")` prints a difference of
    /// proportions in percentage points, `(1, "")` a mean difference as it is.
    pub fn verdict(&self, subject: &str, quantity: &str, scale: f64, unit: &str) -> String {
        let dec = if scale >= 100.0 { 1 } else { 3 };
        let f = |x: f64| format!("{:.*}", dec, x * scale);
        let unit = if unit.is_empty() {
            String::new()
        } else {
            format!(" {unit}")
        };
        let interval = format!("[{}, {}]", f(self.low), f(self.high));
        if self.significant() {
            let verb = if self.estimate > 0.0 {
                "raises"
            } else {
                "lowers"
            };
            format!(
                "{subject} {verb} {quantity} by {}{unit} {interval}, {}",
                f(self.estimate.abs()),
                format_p(self.p_value)
            )
        } else {
            format!(
                "no detectable change in {quantity} under {subject}: {}{}{unit} {interval}, {}",
                if self.estimate >= 0.0 { "+" } else { "" },
                f(self.estimate),
                format_p(self.p_value)
            )
        }
    }
}

/// The difference `x1/n1 − x2/n2` of two independent proportions with Newcombe's hybrid
/// score 95% interval (Newcombe 1998, method 10; see the module docs) and the two-sided
/// pooled two-proportion z-test. An empty group has the interval `(0, 1)` of
/// [`wilson`] and estimate 0; with both groups empty the p-value is 1.
///
/// # Panics
/// If `x1 > n1` or `x2 > n2`.
///
/// ```
/// use tabletop_sim::stats::proportion_difference;
/// // Newcombe (1998), Table II, example (a): 56/70 − 48/80.
/// let d = proportion_difference(56, 70, 48, 80);
/// assert!((d.low - 0.0524).abs() < 1e-4 && (d.high - 0.3339).abs() < 1e-4);
/// ```
pub fn proportion_difference(x1: u64, n1: u64, x2: u64, n2: u64) -> Difference {
    assert!(x1 <= n1 && x2 <= n2, "{x1}/{n1} or {x2}/{n2}");
    let p = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    let (p1, p2) = (p(x1, n1), p(x2, n2));
    let (l1, u1) = wilson(x1, n1, Z95);
    let (l2, u2) = wilson(x2, n2, Z95);
    let d = p1 - p2;
    let low = d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt();
    let high = d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt();
    let p_value = if n1 == 0 || n2 == 0 {
        1.0
    } else {
        let pooled = (x1 + x2) as f64 / (n1 + n2) as f64;
        let se = (pooled * (1.0 - pooled) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
        if se == 0.0 {
            1.0
        } else {
            (2.0 * normal_sf((d / se).abs())).min(1.0)
        }
    };
    Difference {
        estimate: d,
        low: low.max(-1.0),
        high: high.min(1.0),
        p_value,
        method: "Newcombe hybrid score interval, pooled two-proportion z-test",
    }
}

/// A group's mean, sample standard deviation and size, as in `metrics.csv`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanSd {
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation (Bessel's `n − 1`).
    pub sd: f64,
    /// The number of values.
    pub n: u64,
}

/// The difference `a.mean − b.mean` of two independent means with Welch's 95% t interval
/// and two-sided t-test (Welch 1947), degrees of freedom by Welch–Satterthwaite:
/// `ν = (s₁²/n₁ + s₂²/n₂)² / ((s₁²/n₁)²/(n₁ − 1) + (s₂²/n₂)²/(n₂ − 1))`.
///
/// Degenerate inputs: with fewer than 2 values in a group, or both variances 0, the
/// interval is the point estimate (or ±∞ when a group has under 2 values) and the p-value
/// is 1 for equal means and 0 otherwise (both variances 0) or 1 (too few values).
pub fn mean_difference(a: MeanSd, b: MeanSd) -> Difference {
    let d = a.mean - b.mean;
    let method = "Welch t interval and test";
    if a.n < 2 || b.n < 2 {
        return t_difference(d, f64::NAN, 0.0, method);
    }
    let (va, vb) = (a.sd * a.sd / a.n as f64, b.sd * b.sd / b.n as f64);
    let se2 = va + vb;
    let df = se2 * se2 / (va * va / (a.n - 1) as f64 + vb * vb / (b.n - 1) as f64);
    t_difference(d, se2.sqrt(), df, method)
}

/// The difference `d` with the 95% t interval `d ± t(0.975; df)·se` and the two-sided
/// t-test of zero, shared by [`mean_difference`] and [`paired_difference`]. A NaN `se`
/// (too few values) gives the infinite interval and p-value 1; `se = 0` gives the point
/// interval and p-value 1 for `d = 0`, else 0.
pub(super) fn t_difference(d: f64, se: f64, df: f64, method: &'static str) -> Difference {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    if se.is_nan() {
        return Difference {
            estimate: d,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
            p_value: 1.0,
            method,
        };
    }
    if se == 0.0 {
        return Difference {
            estimate: d,
            low: d,
            high: d,
            p_value: if d == 0.0 { 1.0 } else { 0.0 },
            method,
        };
    }
    let t = StudentsT::new(0.0, 1.0, df).expect("df > 0");
    let q = t.inverse_cdf(0.975);
    Difference {
        estimate: d,
        low: d - q * se,
        high: d + q * se,
        p_value: (2.0 * t.sf((d / se).abs())).min(1.0),
        method,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::stats::Welford;
    use crate::stats::close;

    #[test]
    fn newcombe_difference_matches_newcombe_1998_table_ii() {
        // Newcombe (1998) Table II, method 10 (hybrid score), examples (a)–(f).
        let cases = [
            ((56, 70, 48, 80), (0.0524, 0.3339)),
            ((9, 10, 3, 10), (0.1705, 0.8090)),
            ((6, 7, 2, 7), (0.0582, 0.8062)),
            ((5, 56, 0, 29), (-0.0381, 0.1926)),
            ((0, 10, 0, 20), (-0.1611, 0.2775)),
            ((10, 10, 0, 20), (0.6791, 1.0)),
        ];
        for ((x1, n1, x2, n2), (lo, hi)) in cases {
            let d = proportion_difference(x1, n1, x2, n2);
            assert!(
                close(d.low, lo, 5e-5) && close(d.high, hi, 5e-5),
                "{x1}/{n1} - {x2}/{n2}: {d:?}"
            );
        }
        // prop.test(c(56, 48), c(70, 80), correct = FALSE): X-squared = 7.0234 (= z²),
        // p-value = 0.008045.
        let d = proportion_difference(56, 70, 48, 80);
        assert!(close(d.estimate, 0.2, 1e-12));
        assert!(close(d.p_value, 0.008_045, 1e-6), "{}", d.p_value);
        assert_eq!(proportion_difference(0, 0, 0, 0).p_value, 1.0);
    }

    #[test]
    fn verdicts_say_the_direction_and_the_interval() {
        let d = proportion_difference(56, 70, 48, 80);
        assert_eq!(
            d.verdict("variant B", "seat 1's win rate", 100.0, "points"),
            "variant B raises seat 1's win rate by 20.0 points [5.2, 33.4], p = 0.008"
        );
        let d = proportion_difference(48, 80, 56, 70);
        assert!(
            d.verdict("B", "x", 100.0, "points")
                .starts_with("B lowers x by 20.0 points [-33.4, -5.2]")
        );
        let d = proportion_difference(50, 100, 52, 100);
        assert_eq!(
            d.verdict("B", "x", 100.0, "points"),
            "no detectable change in x under B: -2.0 points [-15.5, 11.6], p = 0.777"
        );
    }

    /// R's `sleep` data (Cushny & Peebles 1905), the extra hours of sleep under two drugs.
    pub(crate) const SLEEP_1: [f64; 10] = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    pub(crate) const SLEEP_2: [f64; 10] = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

    pub(crate) fn mean_sd(xs: &[f64]) -> MeanSd {
        let mut w = Welford::new();
        xs.iter().for_each(|&x| w.push(x));
        MeanSd {
            mean: w.mean(),
            sd: w.sd(),
            n: w.count(),
        }
    }

    #[test]
    fn welch_matches_r_on_the_sleep_data() {
        // t.test(extra ~ group, data = sleep): t = -1.8608, df = 17.776,
        // p-value = 0.07939, 95% CI [-3.3654832, 0.2054832].
        let d = mean_difference(mean_sd(&SLEEP_1), mean_sd(&SLEEP_2));
        assert!(close(d.estimate, -1.58, 1e-12));
        assert!(close(d.low, -3.365_483_2, 1e-6), "{d:?}");
        assert!(close(d.high, 0.205_483_2, 1e-6), "{d:?}");
        assert!(close(d.p_value, 0.079_39, 1e-5), "{d:?}");
        // Unequal sizes and variances, by hand: se² = 4/4 + 1/9, ν = (10/9)² / (1/3 +
        // (1/9)²/8) = 3.6866…, so the interval is 1 ± t(0.975, ν)·sqrt(10/9).
        let d = mean_difference(
            MeanSd {
                mean: 3.0,
                sd: 2.0,
                n: 4,
            },
            MeanSd {
                mean: 2.0,
                sd: 1.0,
                n: 9,
            },
        );
        let nu = (10.0f64 / 9.0).powi(2) / (1.0 / 3.0 + (1.0f64 / 9.0).powi(2) / 8.0);
        use statrs::distribution::{ContinuousCDF, StudentsT};
        let q = StudentsT::new(0.0, 1.0, nu).unwrap().inverse_cdf(0.975);
        assert!(close(d.high, 1.0 + q * (10.0f64 / 9.0).sqrt(), 1e-12));
        assert!(close(nu, 3.686_6, 1e-4), "{nu}");
    }
}
