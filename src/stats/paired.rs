//! Paired differences over blocks (common random numbers): the one-sample t interval and
//! test on the per-block differences (Student 1908), from the values or from their exact
//! integer moments.

use super::difference::{Difference, t_difference};
use super::moments::{IntMoments, Welford};

/// The mean of paired differences (one per block of games played under both conditions
/// with common random numbers, e.g. the same deals under two variants or two seatings)
/// with the one-sample t interval and test on the block differences (Student 1908). The
/// pairing removes the deal-to-deal variance that two independent samples keep, so the
/// interval is narrower when the blocks' two results are positively correlated.
///
/// With fewer than 2 blocks the interval is infinite and the p-value 1.
pub fn paired_difference(block_differences: &[f64]) -> Difference {
    let mut w = Welford::new();
    block_differences.iter().for_each(|&x| w.push(x));
    paired_t(w.mean(), w.sd(), w.count())
}

/// [`paired_difference`] from the exact moments of the block differences, each
/// difference being `scale` times the quantity of interest (integers, so that the
/// moments are exact and do not depend on the order of the blocks: `sim tournament
/// --paired` keeps `wins_a·g_b − wins_b·g_a` per deal and divides by `g_a·g_b`).
///
/// # Panics
/// If `scale` is not positive.
pub fn paired_difference_moments(differences: &IntMoments, scale: f64) -> Difference {
    assert!(scale > 0.0, "scale = {scale}");
    paired_t(
        differences.mean() / scale,
        differences.sd() / scale,
        differences.count(),
    )
}

/// The name of the method of [`paired_difference`] and [`paired_difference_moments`].
pub const PAIRED_METHOD: &str = "paired t interval and test over blocks";

fn paired_t(mean: f64, sd: f64, n: u64) -> Difference {
    if n < 2 {
        return t_difference(mean, f64::NAN, 0.0, PAIRED_METHOD);
    }
    t_difference(mean, sd / (n as f64).sqrt(), (n - 1) as f64, PAIRED_METHOD)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;
    use crate::stats::difference::tests::{SLEEP_1, SLEEP_2, mean_sd};
    use crate::stats::mean_difference;
    #[test]
    fn paired_interval_matches_r_and_is_narrower_than_welch() {
        // t.test(extra ~ group, data = sleep, paired = TRUE): t = -4.0621, df = 9,
        // p-value = 0.002833, 95% CI [-2.4598858, -0.7001142].
        let diffs: Vec<f64> = SLEEP_1.iter().zip(&SLEEP_2).map(|(a, b)| a - b).collect();
        let d = paired_difference(&diffs);
        assert!(close(d.estimate, -1.58, 1e-12));
        assert!(close(d.low, -2.459_885_8, 1e-6) && close(d.high, -0.700_114_2, 1e-6));
        assert!(close(d.p_value, 0.002_833, 1e-6), "{}", d.p_value);
        let w = mean_difference(mean_sd(&SLEEP_1), mean_sd(&SLEEP_2));
        assert!(d.high - d.low < w.high - w.low);
        assert_eq!(paired_difference(&[1.0]).p_value, 1.0);
    }

    #[test]
    fn paired_moments_match_the_paired_interval_of_the_values() {
        // The sleep differences in tenths of an hour are integers.
        let diffs: Vec<f64> = SLEEP_1.iter().zip(&SLEEP_2).map(|(a, b)| a - b).collect();
        let mut m = IntMoments::new();
        for d in &diffs {
            m.push((d * 10.0).round() as i64);
        }
        let a = paired_difference(&diffs);
        let b = paired_difference_moments(&m, 10.0);
        assert!(close(a.estimate, b.estimate, 1e-12));
        assert!(close(a.low, b.low, 1e-9) && close(a.high, b.high, 1e-9));
        assert!(close(a.p_value, b.p_value, 1e-9));
        assert_eq!(b.method, PAIRED_METHOD);
    }
}
