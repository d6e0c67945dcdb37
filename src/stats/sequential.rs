//! Wald's sequential probability ratio test ([`Sprt`]), the statistic behind `sim tournament
//! --until-significant`.

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

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
}
