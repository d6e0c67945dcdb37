//! Skill depth (win rate against search budget) and chance versus skill (how often the
//! weakest agent beats the strongest).

use super::difference::{Difference, proportion_difference};
use super::interval::{Z95, wilson};

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
    use crate::stats::close;

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
