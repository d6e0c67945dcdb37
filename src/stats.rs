//! Statistics for tournaments and experiments: intervals for win rates and their
//! differences, tests of equal seats, differences of means, distributions (quantiles and
//! histograms), per-action tables, and the building blocks of paired and sequential
//! designs.
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

/// The standard normal's upper tail, `P(Z > z)` (from `statrs`).
fn normal_sf(z: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    Normal::new(0.0, 1.0).expect("standard normal").sf(z)
}

/// An estimated difference with its 95% interval and two-sided p-value of "no difference"
/// ([`proportion_difference`], [`mean_difference`], [`paired_difference`]).
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
fn t_difference(d: f64, se: f64, df: f64, method: &'static str) -> Difference {
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

/// The decision of a sequential test after the observations so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither boundary crossed: play more games.
    Continue,
    /// The lower boundary was crossed: accept H0 (`p = p0`).
    AcceptNull,
    /// The upper boundary was crossed: accept H1 (`p = p1`).
    AcceptAlternative,
}

/// Wald's sequential probability ratio test (Wald 1945, "Sequential tests of statistical
/// hypotheses", Ann. Math. Stat. 16:117–186) of a Bernoulli success rate, `H0: p = p0`
/// against `H1: p = p1`, with error rates `α` (accepting H1 under H0) and `β` (accepting
/// H0 under H1). After each trial the log-likelihood ratio `Σ log(P₁(x)/P₀(x))` is compared
/// with Wald's boundaries `A = ln((1 − β)/α)` (accept H1) and `B = ln(β/(1 − α))` (accept
/// H0); the boundaries are Wald's approximations, so the realised error rates are at most
/// about `α/(1 − β)` and `β/(1 − α)`.
///
/// **Fractional outcomes and checks at fixed points** ([`Sprt::check`], used by `sim
/// tournament --until-significant`): an observation `x` in `[0, 1]` (a draw scoring ½)
/// adds `x·ln(p1/p0) + (1 − x)·ln((1 − p1)/(1 − p0))`, so the statistic after `n`
/// observations depends only on their sum. `exp` of that term is convex in `x`, hence at
/// most `x·p1/p0 + (1 − x)(1 − p1)/(1 − p0)`, whose mean is at most 1 whenever
/// `E[x] ≤ p0` (for `p1 > p0`): the likelihood ratio stays a nonnegative supermartingale
/// under H0, and Ville's inequality bounds the chance it ever reaches `e^A` by
/// `e^{−A} = α/(1 − β)`; symmetrically under H1 for the lower boundary. Both bounds hold at
/// any stopping time, so looking only at fixed check points (every few thousand games)
/// keeps them; it only stops later.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    win: f64,
    loss: f64,
    upper: f64,
    lower: f64,
    llr: f64,
    trials: u64,
    decision: SprtDecision,
}

impl Sprt {
    /// A test of `p0` against `p1` at error rates `alpha`, `beta`.
    ///
    /// # Panics
    /// Unless `0 < p0, p1 < 1`, `p0 != p1` and `0 < alpha, beta < 1/2`.
    pub fn new(p0: f64, p1: f64, alpha: f64, beta: f64) -> Self {
        assert!(
            p0 > 0.0 && p0 < 1.0 && p1 > 0.0 && p1 < 1.0 && p0 != p1,
            "p0 = {p0}, p1 = {p1}"
        );
        assert!(
            alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5,
            "alpha = {alpha}, beta = {beta}"
        );
        Sprt {
            win: (p1 / p0).ln(),
            loss: ((1.0 - p1) / (1.0 - p0)).ln(),
            upper: ((1.0 - beta) / alpha).ln(),
            lower: (beta / (1.0 - alpha)).ln(),
            llr: 0.0,
            trials: 0,
            decision: SprtDecision::Continue,
        }
    }

    /// Adds one trial (a success or not) and returns the decision. Once a boundary is
    /// crossed the decision is final and further trials are ignored.
    pub fn push(&mut self, success: bool) -> SprtDecision {
        if self.decision != SprtDecision::Continue {
            return self.decision;
        }
        self.trials += 1;
        self.llr += if success { self.win } else { self.loss };
        self.decide()
    }

    /// Compares the log-likelihood ratio with the boundaries and records the decision.
    fn decide(&mut self) -> SprtDecision {
        if self.llr >= self.upper {
            self.decision = SprtDecision::AcceptAlternative;
        } else if self.llr <= self.lower {
            self.decision = SprtDecision::AcceptNull;
        }
        self.decision
    }

    /// Replaces the observations with `trials` trials whose outcomes sum to `successes`
    /// (fractional outcomes allowed, see above), as seen at a check point, and returns the
    /// decision. Once a boundary has been crossed the decision is final.
    ///
    /// # Panics
    /// If `successes` is outside `[0, trials]`.
    pub fn check(&mut self, successes: f64, trials: u64) -> SprtDecision {
        assert!(
            (0.0..=trials as f64).contains(&successes),
            "{successes} successes in {trials} trials"
        );
        if self.decision != SprtDecision::Continue {
            return self.decision;
        }
        self.trials = trials;
        self.llr = successes * self.win + (trials as f64 - successes) * self.loss;
        self.decide()
    }

    /// The boundaries `(B, A)`: accept H0 at or below `B = ln(β/(1 − α))`, H1 at or above
    /// `A = ln((1 − β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (self.lower, self.upper)
    }

    /// The trials used (up to and including the one that decided).
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// The current log-likelihood ratio.
    pub fn llr(&self) -> f64 {
        self.llr
    }

    /// The current decision.
    pub fn decision(&self) -> SprtDecision {
        self.decision
    }
}

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

/// Per-action statistics of one agent: for each action (a per-seat count metric such as
/// Daimyo's `actions_production` or Daxu's `give`), the total count over its seat-games,
/// and the seat-games that played it at least once, with their wins.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionTally {
    /// The action names (metric columns).
    pub actions: Vec<String>,
    /// Seat-games seen.
    pub seats: u64,
    /// Seat-games won (the seat alone in first place).
    pub seat_wins: u64,
    /// Per action: the total count over all seat-games.
    pub total: Vec<u64>,
    /// Per action: seat-games with a count of at least 1.
    pub played: Vec<u64>,
    /// Per action: those seat-games that were won.
    pub played_won: Vec<u64>,
}

/// One action's row of [`ActionTally::rows`].
#[derive(Clone, Debug, PartialEq)]
pub struct ActionRow {
    /// The action.
    pub action: String,
    /// Mean count per seat-game.
    pub per_game: f64,
    /// Its share of all counted actions of the agent.
    pub share: f64,
    /// Seat-games that played it at least once.
    pub played: u64,
    /// The win rate of those seat-games with its 95% Wilson interval.
    pub win_rate_played: (f64, f64, f64),
    /// The win rate of the other seat-games with its interval.
    pub win_rate_not_played: (f64, f64, f64),
    /// The difference played − not played (Newcombe interval, z-test).
    pub difference: Difference,
}

impl ActionTally {
    /// An empty tally for these actions.
    pub fn new(actions: Vec<String>) -> Self {
        let k = actions.len();
        ActionTally {
            actions,
            seats: 0,
            seat_wins: 0,
            total: vec![0; k],
            played: vec![0; k],
            played_won: vec![0; k],
        }
    }

    /// Adds one seat-game: its count of each action (in [`ActionTally::actions`] order) and
    /// whether it won.
    ///
    /// # Panics
    /// If `counts` has the wrong length.
    pub fn add(&mut self, counts: &[u64], won: bool) {
        assert_eq!(counts.len(), self.actions.len(), "one count per action");
        self.seats += 1;
        self.seat_wins += u64::from(won);
        for (i, &c) in counts.iter().enumerate() {
            self.total[i] += c;
            if c > 0 {
                self.played[i] += 1;
                self.played_won[i] += u64::from(won);
            }
        }
    }

    /// One row per action. The win rates are per seat-game, so with several seats of one
    /// game held by the agent the trials are not independent (the interval is then too
    /// narrow); in a game with one seat per agent they are.
    pub fn rows(&self) -> Vec<ActionRow> {
        let all: u64 = self.total.iter().sum();
        let rate = |x: u64, n: u64| {
            let (lo, hi) = wilson(x, n, Z95);
            (if n == 0 { 0.0 } else { x as f64 / n as f64 }, lo, hi)
        };
        (0..self.actions.len())
            .map(|i| {
                let (p, pw) = (self.played[i], self.played_won[i]);
                let (q, qw) = (self.seats - p, self.seat_wins - pw);
                ActionRow {
                    action: self.actions[i].clone(),
                    per_game: if self.seats == 0 {
                        0.0
                    } else {
                        self.total[i] as f64 / self.seats as f64
                    },
                    share: if all == 0 {
                        0.0
                    } else {
                        self.total[i] as f64 / all as f64
                    },
                    played: p,
                    win_rate_played: rate(pw, p),
                    win_rate_not_played: rate(qw, q),
                    difference: proportion_difference(pw, p, qw, q),
                }
            })
            .collect()
    }
}

/// One point of a skill-depth curve ([`skill_depth`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthPoint {
    /// The search budget (e.g. iterations per decision).
    pub budget: u64,
    /// Wins (or score: wins + draws/2, rounded down to whole games by the caller).
    pub wins: u64,
    /// Games.
    pub games: u64,
    /// The win rate and its 95% Wilson interval.
    pub rate: (f64, f64, f64),
    /// The change from the previous (smaller) budget: Newcombe interval and z-test
    /// (`None` for the smallest budget).
    pub gain: Option<Difference>,
}

/// Skill depth: the win rate (against a fixed opponent or field) as a function of the
/// search budget. `points` are `(budget, wins, games)` in any order; the result is sorted
/// by budget, each point with its Wilson interval and the gain over the previous budget
/// (a difference of independent proportions, [`proportion_difference`]). A game has skill
/// depth in this sense while more search keeps winning more.
pub fn skill_depth(points: &[(u64, u64, u64)]) -> Vec<DepthPoint> {
    let mut p = points.to_vec();
    p.sort_unstable();
    let mut out: Vec<DepthPoint> = Vec::with_capacity(p.len());
    for &(budget, wins, games) in &p {
        let (lo, hi) = wilson(wins, games, Z95);
        let rate = if games == 0 {
            0.0
        } else {
            wins as f64 / games as f64
        };
        let gain = out
            .last()
            .map(|prev| proportion_difference(wins, games, prev.wins, prev.games));
        out.push(DepthPoint {
            budget,
            wins,
            games,
            rate: (rate, lo, hi),
            gain,
        });
    }
    out
}

/// Chance versus skill: how often the weakest agent (uniform random play) beats the
/// strongest, `random_wins / games` with its Wilson interval, as `(rate, low, high)`. Near
/// 0 the game rewards skill almost always; near the fair share `1/players` the outcome is
/// mostly luck (or the strongest agent is not strong).
pub fn chance_vs_skill(random_wins: u64, games: u64) -> (f64, f64, f64) {
    let (lo, hi) = wilson(random_wins, games, Z95);
    let rate = if games == 0 {
        0.0
    } else {
        random_wins as f64 / games as f64
    };
    (rate, lo, hi)
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
    const SLEEP_1: [f64; 10] = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    const SLEEP_2: [f64; 10] = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

    fn mean_sd(xs: &[f64]) -> MeanSd {
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
    fn sprt_stops_on_constructed_streams() {
        // p0 = 0.5, p1 = 0.6, α = β = 0.05: A = ln 19 = 2.944; a win adds ln 1.2 = 0.1823,
        // a loss ln 0.8 = -0.2231.
        let mut t = Sprt::new(0.5, 0.6, 0.05, 0.05);
        let mut stops = None;
        for i in 1..=100 {
            if t.push(true) != SprtDecision::Continue {
                stops = Some(i);
                break;
            }
        }
        // ⌈2.944 / 0.1823⌉ = 17 straight wins.
        assert_eq!(
            (stops, t.decision()),
            (Some(17), SprtDecision::AcceptAlternative)
        );
        let mut t = Sprt::new(0.5, 0.6, 0.05, 0.05);
        (0..14).for_each(|_| {
            t.push(false);
        });
        assert_eq!((t.trials(), t.decision()), (14, SprtDecision::AcceptNull));
        // Alternating win, loss: -0.0408 per pair, decided after 73 pairs (146 trials).
        let mut t = Sprt::new(0.5, 0.6, 0.05, 0.05);
        let mut i = 0u64;
        while t.decision() == SprtDecision::Continue {
            t.push(i % 2 == 0);
            i += 1;
        }
        assert_eq!((t.trials(), t.decision()), (146, SprtDecision::AcceptNull));
        assert!(close(t.llr(), -2.980_005_6, 1e-6));
        assert_eq!(t.push(true), SprtDecision::AcceptNull);
        assert_eq!(t.trials(), 146);
    }

    #[test]
    fn sprt_checked_at_fixed_points_stops_at_the_first_point_past_a_boundary() {
        // The same test seen every 10 trials: 17 straight wins would decide, the check at
        // 20 does (llr = 20 ln 1.2 = 3.646 >= ln 19 = 2.944; at 10 it is 1.823).
        let mut t = Sprt::new(0.5, 0.6, 0.05, 0.05);
        assert_eq!(t.check(10.0, 10), SprtDecision::Continue);
        assert!(close(t.llr(), 10.0 * 1.2f64.ln(), 1e-12));
        assert_eq!(t.check(20.0, 20), SprtDecision::AcceptAlternative);
        assert_eq!(t.trials(), 20);
        // Final: later checks change nothing.
        assert_eq!(t.check(20.0, 1000), SprtDecision::AcceptAlternative);
        assert_eq!(t.trials(), 20);
        // Draws score 1/2: each adds ln(0.96)/2 = -0.020411, so the lower boundary
        // ln(0.05/0.95) = -2.944 is passed after 144.3 draws: at the check of 150, not 140.
        let mut t = Sprt::new(0.5, 0.6, 0.05, 0.05);
        let mut stop = None;
        for n in (10..=400u64).step_by(10) {
            if t.check(n as f64 / 2.0, n) != SprtDecision::Continue {
                stop = Some(n);
                break;
            }
        }
        assert_eq!((stop, t.decision()), (Some(150), SprtDecision::AcceptNull));
        assert!(close(t.llr(), 75.0 * 0.96f64.ln(), 1e-12));
        let (lo, hi) = t.bounds();
        assert!(close(lo, -(19f64.ln()), 1e-12) && close(hi, 19f64.ln(), 1e-12));
        // A fair stream of a 55% alternative with 3 wins in 5: never decided in 50 trials.
        let mut t = Sprt::new(0.5, 0.55, 0.05, 0.05);
        assert_eq!(t.check(30.0, 50), SprtDecision::Continue);
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

    #[test]
    fn action_tallies_count_frequencies_and_win_rates() {
        let mut t = ActionTally::new(vec!["give".into(), "take".into()]);
        t.add(&[3, 0], true);
        t.add(&[1, 2], false);
        t.add(&[0, 4], false);
        t.add(&[2, 0], true);
        let r = t.rows();
        // give: 6 of 12 actions, 1.5 per seat-game; played in 3 seat-games, 2 won.
        assert_eq!((r[0].played, r[0].share, r[0].per_game), (3, 0.5, 1.5));
        assert!(close(r[0].win_rate_played.0, 2.0 / 3.0, 1e-12));
        assert_eq!(r[0].win_rate_not_played.0, 0.0);
        // take: played twice, never won; the others won both.
        assert_eq!((r[1].played, r[1].win_rate_played.0), (2, 0.0));
        assert_eq!(r[1].win_rate_not_played.0, 1.0);
        assert!(close(r[1].difference.estimate, -1.0, 1e-12));
    }

    #[test]
    fn skill_depth_sorts_budgets_and_measures_gains() {
        let d = skill_depth(&[(1000, 70, 100), (100, 50, 100), (10000, 72, 100)]);
        let budgets: Vec<u64> = d.iter().map(|p| p.budget).collect();
        assert_eq!(budgets, [100, 1000, 10000]);
        assert!(d[0].gain.is_none());
        let g = d[1].gain.unwrap();
        assert!(close(g.estimate, 0.2, 1e-12) && g.significant());
        assert!(!d[2].gain.unwrap().significant());
        let (r, lo, hi) = chance_vs_skill(8, 10);
        assert!(close(r, 0.8, 1e-12) && close(lo, 0.4902, 5e-5) && close(hi, 0.9433, 5e-5));
    }
}
