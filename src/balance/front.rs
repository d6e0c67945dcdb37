//! Several objectives and their Pareto front (`method = "front"`, issue 24 item 2).
//!
//! Every combination of the parameters' levels (as racing's arms, at most
//! [`super::spec::MAX_ARMS`]) is played on the same games (game `i` of the spec's seed at
//! every point: common random numbers), and each objective's per-game measure is averaged
//! with its 95% one-sample t interval. Each objective turns its mean into a loss
//! ([`super::spec::Objective::loss`]: `|mean − target|`, `−mean` for `max`, `mean` for
//! `min`); a point is on the front when no other point has a loss at most as large on
//! every objective and strictly smaller on one ([`non_dominated`], Pareto dominance on
//! the point estimates).
//!
//! What it does not do: the front is of point estimates; a point whose intervals overlap
//! a front point's may be as good (the intervals are reported beside each estimate so a
//! reader can see it; [`super::Study::front_replay`] then replays the front's settings on
//! fresh seeds). The search spends the budget evenly (no adaptive allocation, no
//! scalarisation).

use crate::stats::{Difference, paired_difference};

use super::spec::Objective;

/// One evaluated point of the space.
#[derive(Clone, Debug)]
pub struct FrontPoint {
    /// A level index per parameter.
    pub point: Vec<usize>,
    /// Each objective's mean measure with its 95% t interval, in the spec's order.
    pub means: Vec<Difference>,
    /// Each objective's loss at its mean (smaller is better).
    pub losses: Vec<f64>,
    /// Whether no other point dominates it.
    pub on_front: bool,
}

/// The result of [`evaluate`].
#[derive(Clone, Debug)]
pub struct FrontResult {
    /// Every point, in the order given.
    pub points: Vec<FrontPoint>,
    /// Games per point.
    pub games: u64,
    /// Games in all.
    pub samples: u64,
}

impl FrontResult {
    /// The points on the front, in the order given.
    pub fn front(&self) -> impl Iterator<Item = &FrontPoint> {
        self.points.iter().filter(|p| p.on_front)
    }
}

/// Which rows of `losses` (one row per point, one loss per objective; smaller is better)
/// no other row dominates: row `b` dominates row `a` when `b ≤ a` everywhere and `b < a`
/// somewhere. Equal rows do not dominate each other (both stay on the front).
///
/// # Panics
/// If the rows are not all of one length.
pub fn non_dominated(losses: &[Vec<f64>]) -> Vec<bool> {
    let dominates = |b: &[f64], a: &[f64]| {
        assert_eq!(a.len(), b.len(), "every point needs one loss per objective");
        b.iter().zip(a).all(|(x, y)| x <= y) && b.iter().zip(a).any(|(x, y)| x < y)
    };
    losses
        .iter()
        .map(|a| !losses.iter().any(|b| dominates(b, a)))
        .collect()
}

/// Plays every point of `points` on games `0..games` through `sample(point, start,
/// count)` (per game, the measure of each objective, in order) and marks the front.
///
/// # Errors
/// The sampler's.
///
/// # Panics
/// If the sampler returns a row without one measure per objective.
pub fn evaluate<E>(
    points: &[Vec<usize>],
    objectives: &[Objective],
    games: u64,
    mut sample: impl FnMut(&[usize], u64, u64) -> Result<Vec<Vec<f64>>, E>,
) -> Result<FrontResult, E> {
    let mut out = Vec::with_capacity(points.len());
    for q in points {
        let rows = sample(q, 0, games)?;
        let means: Vec<Difference> = (0..objectives.len())
            .map(|k| {
                let ys: Vec<f64> = rows.iter().map(|r| r[k]).collect();
                paired_difference(&ys)
            })
            .collect();
        let losses = objectives
            .iter()
            .zip(&means)
            .map(|(o, m)| o.loss(m.estimate))
            .collect();
        out.push(FrontPoint {
            point: q.clone(),
            means,
            losses,
            on_front: false,
        });
    }
    let flags = non_dominated(&out.iter().map(|p| p.losses.clone()).collect::<Vec<_>>());
    for (p, f) in out.iter_mut().zip(flags) {
        p.on_front = f;
    }
    Ok(FrontResult {
        samples: games * points.len() as u64,
        games,
        points: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::spec::{ObjectiveGoal, ObjectiveKind};

    fn objective(goal: ObjectiveGoal, target: Option<f64>) -> Objective {
        Objective {
            kind: ObjectiveKind::Length,
            seat: 0,
            goal,
            target,
            name: None,
        }
    }

    #[test]
    fn dominance_keeps_ties_and_drops_dominated_rows() {
        let rows = vec![
            vec![1.0, 3.0],
            vec![2.0, 2.0],
            vec![2.0, 2.0],
            vec![2.0, 3.0],
            vec![3.0, 1.0],
            vec![4.0, 4.0],
        ];
        assert_eq!(non_dominated(&rows), [true, true, true, false, true, false]);
    }

    /// A constructed two-objective landscape with a known front. Points `(a, b)` on a 5×4
    /// grid; objective 1 wants the smallest `a + b/2` (`min`), objective 2 wants
    /// `|a − 3| + b` at target 0. The front is exactly `b = 0, a ∈ {0, 1, 2, 3}`: lowering
    /// `a` below 3 costs objective 2, raising `b` costs both (no two points tie, so noise
    /// cannot reorder equals). Each game adds
    /// noise: one shared draw per game (common random numbers: it cancels between points)
    /// plus a small independent draw, so the means sit within about 0.02 of the truth.
    #[test]
    fn the_front_of_a_constructed_landscape_is_found() {
        use rand::RngExt;
        let objectives = [
            objective(ObjectiveGoal::Min, None),
            objective(ObjectiveGoal::Target, Some(0.0)),
        ];
        let points: Vec<Vec<usize>> = (0..5)
            .flat_map(|a| (0..4).map(move |b| vec![a, b]))
            .collect();
        let r = evaluate(&points, &objectives, 2000, |q, start, count| {
            let (a, b) = (q[0] as f64, q[1] as f64);
            let rows = (start..start + count)
                .map(|i| {
                    let mut shared = crate::rng::test_rng(i);
                    let mut own = crate::rng::test_rng(i * 1000 + (q[0] * 4 + q[1]) as u64 + 7);
                    let s: f64 = shared.random::<f64>() - 0.5;
                    let e1: f64 = own.random::<f64>() - 0.5;
                    let e2: f64 = own.random::<f64>() - 0.5;
                    vec![
                        a + b / 2.0 + s + 0.2 * e1,
                        (a - 3.0).abs() + b + s + 0.2 * e2,
                    ]
                })
                .collect();
            Ok::<_, ()>(rows)
        })
        .unwrap();
        let front: Vec<Vec<usize>> = r.front().map(|p| p.point.clone()).collect();
        assert_eq!(
            front,
            vec![vec![0, 0], vec![1, 0], vec![2, 0], vec![3, 0]],
            "{:?}",
            r.points.iter().map(|p| &p.losses).collect::<Vec<_>>()
        );
        assert_eq!(r.samples, 2000 * 20);
        // Every mean's interval covers the truth on this landscape.
        for p in &r.points {
            let (a, b) = (p.point[0] as f64, p.point[1] as f64);
            for (m, truth) in p.means.iter().zip([a + b / 2.0, (a - 3.0).abs() + b]) {
                assert!(
                    m.low <= truth + 0.05 && truth - 0.05 <= m.high,
                    "{m:?} {truth}"
                );
            }
        }
    }
}
