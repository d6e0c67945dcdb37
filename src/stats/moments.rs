//! Running moments in O(1) memory: exact integer moments ([`IntMoments`], the tallies a
//! checkpoint saves and a merge adds up exactly) and Welford's one-pass mean and variance
//! for floats ([`Welford`]; Welford 1962, merged by Chan, Golub & LeVeque 1979).

/// Exact moments of a stream of integers: the count, the sum and the sum of squares, in
/// integer arithmetic. Adding a value is three additions (no division, unlike
/// [`Welford`]), and merging is exact, so the result does not depend on the order or the
/// grouping of the values. Holds up to 2^63 values of magnitude up to 2^31 without
/// overflow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IntMoments {
    count: u64,
    sum: i64,
    #[serde(with = "super::exact::i128_text")]
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

    /// Adds `x` `k` times (a histogram bin).
    pub fn push_n(&mut self, x: i64, k: u64) {
        self.count += k;
        self.sum += x * k as i64;
        self.sum_sq += i128::from(x) * i128::from(x) * i128::from(k);
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

    /// The normal-approximation interval of the mean at quantile `z`, `mean ± z sd /
    /// sqrt(count)` (NaN bounds with no values, the mean itself with one).
    pub fn mean_interval(&self, z: f64) -> (f64, f64) {
        let half = z * self.sd() / (self.count as f64).sqrt();
        (self.mean() - half, self.mean() + half)
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
    #[serde(with = "super::exact::f64_bits")]
    mean: f64,
    /// Sum of squared deviations from the current mean.
    #[serde(with = "super::exact::f64_bits")]
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

    /// The Student t interval of the mean at two-sided level `level` (e.g. 0.05 for 95%):
    /// `mean ± t(1 − level/2; count − 1) · sd / sqrt(count)`. Fewer than 2 values give the
    /// infinite interval; a zero spread gives the point interval.
    pub fn t_interval(&self, level: f64) -> (f64, f64) {
        use statrs::distribution::{ContinuousCDF, StudentsT};
        let n = self.count();
        let m = self.mean();
        if n < 2 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let se = self.sd() / (n as f64).sqrt();
        if se == 0.0 {
            return (m, m);
        }
        let t = StudentsT::new(0.0, 1.0, (n - 1) as f64).expect("n >= 2");
        let q = t.inverse_cdf(1.0 - level / 2.0);
        (m - q * se, m + q * se)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

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
