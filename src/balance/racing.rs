//! Racing on a small discrete space: successive halving (Karnin, Koren & Somekh 2013) with
//! common random numbers, for picking the most balanced of a few rule settings.
//!
//! The budget is split evenly over `⌈log2 k⌉` rounds for `k` arms. In each round every
//! surviving arm gets the same number of new samples, samples `i` of every arm sharing
//! their random numbers (game `i` has the same seed for every setting), and the better half
//! by the goal of the mean response survives (ties keep the lower index). Samples
//! accumulate over rounds. The goal is "closest to 0" ([`Goal::Balance`], the most
//! balanced setting) or "largest" ([`Goal::Largest`]).
//!
//! What it gives: the chosen arm and every arm's mean with its 95% t interval over the
//! samples it received. What it does not give: an interval on which arm is best (use the
//! root finder, [`super::root`], when the parameter has an order). `sim balance` uses it
//! for `method = "racing"` over every combination of the parameters' levels.

use crate::stats::{Difference, Welford, paired_difference};

/// What a round keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The mean response closest to 0.
    Balance,
    /// The largest mean response.
    Largest,
}

/// One arm's record.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm {
    /// The arm's index.
    pub index: usize,
    /// Samples received.
    pub samples: u64,
    /// The mean response with its 95% t interval.
    pub mean: Difference,
    /// The round in which it was dropped (`None`: it survived to the end).
    pub dropped_in: Option<usize>,
}

/// The result of a race.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    /// The chosen arm.
    pub best: usize,
    /// Every arm, by index.
    pub arms: Vec<Arm>,
    /// Samples used.
    pub samples: u64,
}

/// Races `arms` arms with `budget` samples in all; `sample(arm, start, count)` returns
/// samples `start..start + count` of an arm (common random numbers across arms).
///
/// # Errors
/// The sampler's error.
///
/// # Panics
/// If `arms` is 0.
pub fn successive_halving<E>(
    arms: usize,
    budget: u64,
    goal: Goal,
    sample: impl Fn(usize, u64, u64) -> Result<Vec<f64>, E>,
) -> Result<Race, E> {
    assert!(arms > 0, "a race needs an arm");
    let rounds = (arms as f64).log2().ceil().max(1.0) as usize;
    let mut data: Vec<Vec<f64>> = vec![Vec::new(); arms];
    let mut dropped: Vec<Option<usize>> = vec![None; arms];
    let mut alive: Vec<usize> = (0..arms).collect();
    let mut used = 0;
    for round in 0..rounds {
        if alive.len() == 1 {
            break;
        }
        let per_arm = budget / (rounds as u64 * alive.len() as u64);
        for &a in &alive {
            let start = data[a].len() as u64;
            let ys = sample(a, start, per_arm)?;
            used += ys.len() as u64;
            data[a].extend(ys);
        }
        let key = |a: usize| {
            let mut w = Welford::new();
            data[a].iter().for_each(|&y| w.push(y));
            match goal {
                Goal::Balance => -w.mean().abs(),
                Goal::Largest => w.mean(),
            }
        };
        let mut ranked: Vec<(f64, usize)> = alive.iter().map(|&a| (key(a), a)).collect();
        ranked.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let keep = alive.len().div_ceil(2);
        for &(_, a) in &ranked[keep..] {
            dropped[a] = Some(round);
        }
        alive = ranked[..keep].iter().map(|&(_, a)| a).collect();
        alive.sort_unstable();
    }
    let best = alive[0];
    let arms = (0..arms)
        .map(|a| Arm {
            index: a,
            samples: data[a].len() as u64,
            mean: paired_difference(&data[a]),
            dropped_in: dropped[a],
        })
        .collect();
    Ok(Race {
        best,
        arms,
        samples: used,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, seed_for};
    use rand::RngExt;

    /// Bernoulli arms with known means, sampled with common random numbers.
    fn bernoulli(means: &[f64], seed: u64) -> impl Fn(usize, u64, u64) -> Result<Vec<f64>, ()> {
        let means = means.to_vec();
        move |a, start, count| {
            Ok((start..start + count)
                .map(|i| {
                    let u: f64 = rng_from_seed(seed_for(seed, i, 0)).random();
                    f64::from(u8::from(u < means[a])) - 0.5
                })
                .collect())
        }
    }

    /// On arms with known means the race picks the arm closest to balance (mean 1/2, a
    /// response of 0) in at least 45 of 50 seeded races, within its budget, and the
    /// largest-mean goal picks the largest.
    #[test]
    fn racing_finds_the_known_best_arm() {
        let means = [0.30, 0.42, 0.47, 0.51, 0.56, 0.62, 0.70, 0.80];
        let mut right = 0;
        for seed in 0..50 {
            let r = successive_halving(8, 24_000, Goal::Balance, bernoulli(&means, seed)).unwrap();
            assert!(r.samples <= 24_000);
            right += usize::from(r.best == 3);
        }
        assert!(right >= 45, "right {right} of 50");
        let r = successive_halving(8, 24_000, Goal::Largest, bernoulli(&means, 1)).unwrap();
        assert_eq!(r.best, 7);
        assert_eq!(r.arms.iter().filter(|a| a.dropped_in.is_none()).count(), 1);
        // The survivors of later rounds received more samples.
        assert!(r.arms[7].samples > r.arms[0].samples);
    }
}
