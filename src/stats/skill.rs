//! Skill depth (win rate against search budget) and chance versus skill (how often the
//! weakest agent beats the strongest); the budget ladder of `sim skill`: the score of each
//! budget against the previous one over paired deals ([`ladder_rung`]), the Elo each
//! doubling of the budget is worth ([`skill_slope`]).

use super::difference::{Difference, proportion_difference};
use super::interval::{Z95, wilson};
use super::moments::Welford;
use super::ratings::ELO_PER_THETA;

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

/// The score of one rung of a budget ladder: a stronger budget against a weaker one over
/// paired deals (each deal played twice with the seats swapped, common random numbers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RungScore {
    /// Mean score of the stronger budget per game (win 1, draw 1/2, loss 0).
    pub score: f64,
    /// Standard error of `score`: the sample standard deviation of the per-deal mean
    /// scores over `sqrt(deals)` (paired t; Student 1908).
    pub se: f64,
    /// Lower end of the 95% t interval of `score`.
    pub low: f64,
    /// Upper end of the 95% t interval of `score`.
    pub high: f64,
    /// Deals (independent blocks).
    pub deals: u64,
}

/// [`RungScore`] from the per-deal mean scores of the stronger budget (each in `[0, 1]`).
/// With fewer than 2 deals the interval is `[0, 1]` and `se` infinite.
pub fn ladder_rung(deal_scores: &[f64]) -> RungScore {
    let mut w = Welford::new();
    deal_scores.iter().for_each(|&x| w.push(x));
    let d = super::paired_difference(&deal_scores.iter().map(|x| x - 0.5).collect::<Vec<_>>());
    let deals = w.count();
    let se = if deals < 2 {
        f64::INFINITY
    } else {
        w.sd() / (deals as f64).sqrt()
    };
    RungScore {
        score: w.mean(),
        se,
        low: (d.low + 0.5).clamp(0.0, 1.0),
        high: (d.high + 0.5).clamp(0.0, 1.0),
        deals,
    }
}

/// The Elo difference of a score `s` (logistic, 400 points per factor 10 of the odds):
/// `400 log10(s / (1 - s))`, with `s` clamped to `[eps, 1 - eps]` so that a clean sweep
/// stays finite.
pub fn elo_of_score(s: f64, eps: f64) -> f64 {
    let s = s.clamp(eps, 1.0 - eps);
    ELO_PER_THETA * (s / (1.0 - s)).ln()
}

/// The skill slope of a budget ladder: the Elo one doubling of the budget is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slope {
    /// Elo per doubling of the budget (weighted least squares through the origin).
    pub elo_per_doubling: f64,
    /// Lower end of its 95% normal interval.
    pub low: f64,
    /// Upper end of its 95% normal interval.
    pub high: f64,
}

/// Fits the skill slope to the rungs of a ladder: `rungs` are `(doublings, score)` with
/// `doublings = log2(budget / previous budget) > 0` and `score` the rung's [`RungScore`].
///
/// Model: the Elo of each rung, `y = elo(score)`, is `slope * doublings` plus noise; the
/// fit is weighted least squares through the origin, weight `1 / var(y)`, with `var(y)`
/// from the score's standard error by the delta method, `(dy/ds)^2 se^2`,
/// `dy/ds = 400 / (ln 10 * s (1 - s))`. A rung whose standard error is 0 (every deal
/// scored alike) gets the error of one game's difference among its deals,
/// `1 / (2 deals)`, so that it cannot take all the weight. The interval is
/// `slope ± 1.96 / sqrt(Σ w x^2)`. A positive slope means more budget wins more; an
/// interval that contains 0 means the ladder shows no skill bought by the budget.
///
/// # Panics
/// If `rungs` is empty or a `doublings` is not positive.
pub fn skill_slope(rungs: &[(f64, RungScore)]) -> Slope {
    assert!(!rungs.is_empty(), "a ladder needs at least one rung");
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for &(x, r) in rungs {
        assert!(x > 0.0, "doublings must be positive: {x}");
        let deals = r.deals.max(1) as f64;
        let eps = 0.25 / deals;
        let s = r.score.clamp(eps, 1.0 - eps);
        let se = if r.se.is_finite() && r.se > 0.0 {
            r.se
        } else if r.se.is_finite() {
            0.5 / deals
        } else {
            1.0
        };
        let dyds = ELO_PER_THETA / (s * (1.0 - s));
        let var = (dyds * se).powi(2);
        let y = elo_of_score(r.score, eps);
        sxy += x * y / var;
        sxx += x * x / var;
    }
    let slope = sxy / sxx;
    let half = Z95 / sxx.sqrt();
    Slope {
        elo_per_doubling: slope,
        low: slope - half,
        high: slope + half,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

    #[test]
    fn rung_scores_and_slopes() {
        let r = ladder_rung(&[1.0, 0.5, 1.0, 0.5]);
        assert!(close(r.score, 0.75, 1e-12) && r.deals == 4, "{r:?}");
        assert!(r.low < 0.75 && r.high > 0.75 && r.high <= 1.0, "{r:?}");
        assert!(close(elo_of_score(0.75, 1e-3), 190.848, 1e-3));
        // Two rungs of one doubling at 0.64 (about +100 Elo) and one of two doublings
        // at 0.76 (about +200): the slope is 100 Elo per doubling.
        let rung = |score: f64| RungScore {
            score,
            se: 0.01,
            low: score - 0.02,
            high: score + 0.02,
            deals: 1000,
        };
        let s = skill_slope(&[(1.0, rung(0.64)), (1.0, rung(0.64)), (2.0, rung(0.76))]);
        assert!((s.elo_per_doubling - 100.0).abs() < 3.0, "{s:?}");
        assert!(s.low > 80.0 && s.high < 120.0, "{s:?}");
        // Even scores: no skill; the interval straddles 0.
        let s = skill_slope(&[(1.0, rung(0.5)), (1.0, rung(0.5))]);
        assert!(
            s.elo_per_doubling.abs() < 1e-9 && s.low < 0.0 && s.high > 0.0,
            "{s:?}"
        );
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
