//! Distributions of values: type 7 sample quantiles (Hyndman & Fan 1996), a summary with
//! mean, sd and quantiles ([`Distribution`]), and histograms of whole numbers.

use super::moments::Welford;

/// The sample quantile at probability `p` of `sorted` (ascending), Hyndman & Fan (1996)
/// type 7: `h = (n − 1) p`, `x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋ + 1] − x[⌊h⌋])` (0-based). R's
/// `quantile()` and NumPy's default. `None` for an empty slice.
///
/// # Panics
/// If `p` is outside `[0, 1]`. (The slice being sorted is the caller's duty; it is
/// checked in debug builds.)
pub fn quantile(sorted: &[f64], p: f64) -> Option<f64> {
    assert!((0.0..=1.0).contains(&p), "probability {p}");
    debug_assert!(sorted.windows(2).all(|w| w[0] <= w[1]), "not sorted");
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let h = (n - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// A distribution's summary: count, mean, sample sd, and the type 7 quantiles
/// ([`quantile`]) at 0, 0.05, 0.25, 0.5, 0.75, 0.95 and 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distribution {
    /// Number of values.
    pub n: u64,
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation.
    pub sd: f64,
    /// The quantiles at [`Distribution::PROBS`].
    pub quantiles: [f64; 7],
}

impl Distribution {
    /// The probabilities of [`Distribution::quantiles`]: min, 5%, 25%, median, 75%, 95%, max.
    pub const PROBS: [f64; 7] = [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0];

    /// The summary of `values` (any order); `None` when empty.
    pub fn of(values: &[f64]) -> Option<Distribution> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let mut w = Welford::new();
        v.iter().for_each(|&x| w.push(x));
        let q = Self::PROBS.map(|p| quantile(&v, p).expect("non-empty"));
        Some(Distribution {
            n: w.count(),
            mean: w.mean(),
            sd: w.sd(),
            quantiles: q,
        })
    }

    /// The median.
    pub fn median(&self) -> f64 {
        self.quantiles[3]
    }
}

/// A histogram of whole numbers: equal-width bins `[low, low + width)`, the first starting
/// at the minimum, the width `⌈(max − min + 1) / max_bins⌉` (1 when the range has at most
/// `max_bins` values, so every value has its own bin).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    /// The lower edge of the first bin (the smallest value).
    pub low: i64,
    /// The bin width (at least 1).
    pub width: i64,
    /// The count in each bin.
    pub counts: Vec<u64>,
}

impl Histogram {
    /// Bins `values` into at most `max_bins` bins; `None` when `values` is empty.
    ///
    /// # Panics
    /// If `max_bins` is 0.
    pub fn of_integers(values: &[i64], max_bins: usize) -> Option<Histogram> {
        assert!(max_bins > 0, "max_bins = 0");
        let (&min, &max) = (values.iter().min()?, values.iter().max()?);
        let range = (max - min + 1) as u64;
        let width = range.div_ceil(max_bins as u64).max(1) as i64;
        let bins = ((max - min) / width + 1) as usize;
        let mut counts = vec![0u64; bins];
        for &v in values {
            counts[((v - min) / width) as usize] += 1;
        }
        Some(Histogram {
            low: min,
            width,
            counts,
        })
    }

    /// The bins as `(low, high_exclusive, count)`.
    pub fn bins(&self) -> impl Iterator<Item = (i64, i64, u64)> + '_ {
        self.counts.iter().enumerate().map(|(i, &c)| {
            let lo = self.low + i as i64 * self.width;
            (lo, lo + self.width, c)
        })
    }

    /// The total count.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

    #[test]
    fn type_7_quantiles_match_r() {
        // quantile(1:10, c(0, .25, .5, .9, 1)) = 1, 3.25, 5.5, 9.1, 10.
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        let q: Vec<f64> = [0.0, 0.25, 0.5, 0.9, 1.0]
            .iter()
            .map(|&p| quantile(&v, p).unwrap())
            .collect();
        for (a, b) in q.iter().zip([1.0, 3.25, 5.5, 9.1, 10.0]) {
            assert!(close(*a, b, 1e-12), "{q:?}");
        }
        // quantile(c(1, 3, 7), .25) = 2; a single value is every quantile.
        assert_eq!(quantile(&[1.0, 3.0, 7.0], 0.25), Some(2.0));
        assert_eq!(quantile(&[4.0], 0.3), Some(4.0));
        assert_eq!(quantile(&[], 0.5), None);
        let d = Distribution::of(&[7.0, 1.0, 3.0]).unwrap();
        assert_eq!(d.median(), 3.0);
        assert_eq!(d.quantiles[0], 1.0);
        assert_eq!(d.quantiles[6], 7.0);
        assert!(close(d.mean, 11.0 / 3.0, 1e-12));
    }

    #[test]
    fn integer_histograms() {
        let h = Histogram::of_integers(&[1, 2, 2, 5], 10).unwrap();
        assert_eq!(
            (h.low, h.width, h.counts.clone()),
            (1, 1, vec![1, 2, 0, 0, 1])
        );
        let v: Vec<i64> = (0..100).collect();
        let h = Histogram::of_integers(&v, 10).unwrap();
        assert_eq!((h.width, h.counts.clone()), (10, vec![10; 10]));
        // 101 values into at most 10 bins: width 11, the last bin [99, 110) holds 99, 100.
        let v: Vec<i64> = (0..=100).collect();
        let h = Histogram::of_integers(&v, 10).unwrap();
        assert_eq!(
            (h.width, h.counts.len(), h.counts[9], h.total()),
            (11, 10, 2, 101)
        );
        assert_eq!(h.bins().nth(9), Some((99, 110, 2)));
        let h = Histogram::of_integers(&[-3, -3, 4], 2).unwrap();
        assert_eq!((h.low, h.width, h.counts.clone()), (-3, 4, vec![2, 1]));
        assert_eq!(Histogram::of_integers(&[], 5), None);
    }
}
