//! α-Rank (Omidshafiei, Papadimitriou, Piliouras, Tuyls, Rowland, Lespiau, Czarnecki,
//! Lanctot, Perolat & Munos 2019, "α-Rank: Multi-Agent Evaluation by Evolution", Sci.
//! Rep. 9:9937), single-population form, for the persona meta-game of `sim design`.
//!
//! The strategies (personas) form a Markov chain over monomorphic populations of `m`
//! individuals. From a population all playing `s`, a mutant `r` appears (each other
//! strategy with probability `1/(K − 1)`) and takes over with the fixation probability of
//! the Moran process with Fermi selection at intensity `α`:
//!
//! `ρ(s → r) = 1 / (1 + Σ_{l=1}^{m−1} Π_{k=1}^{l} exp(−α (f_r(k) − f_s(k))))`,
//!
//! where with `k` mutants the mutant's fitness is its mean payoff against the others,
//! `f_r(k) = ((k − 1) P[r][r] + (m − k) P[r][s]) / (m − 1)`, and the resident's
//! `f_s(k) = (k P[s][r] + (m − k − 1) P[s][s]) / (m − 1)` (`P[i][j]` the payoff of `i`
//! against `j`; the paper's Eq. 3 and its finite-population fitness, as OpenSpiel's
//! `alpharank` computes it). The α-Rank distribution is the chain's stationary
//! distribution, and the ranking orders the strategies by their mass.
//!
//! `α` is in inverse payoff units (a win share: 1 per whole game). As α grows, mass
//! concentrates on the chain's sink components; [`alpha_rank_limit`] is that limit as the
//! paper's infinite-α variant computes it: a fixation that selection favours at every
//! step of the process has probability 1, a neutral one `1/m`, and every other
//! fixation the same small `ε` (`1e-9`), so the mass spreads over the sink components as
//! if each unfavourable move were equally rare. Sums are taken in log space, so large α
//! does not overflow.
//!
//! Known answers (tests): rock–paper–scissors gives the uniform distribution at every α;
//! a strategy that beats every other gets mass 1 as α grows.

/// The `ε` of [`alpha_rank_limit`]: the probability of every unfavourable fixation.
pub const LIMIT_EPSILON: f64 = 1e-9;

/// `log(Σ exp(x))` over `xs`, stable for large values.
fn log_sum_exp(xs: &[f64]) -> f64 {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + xs.iter().map(|x| (x - max).exp()).sum::<f64>().ln()
}

/// The exponents `S_l = −Σ_{k ≤ l} (f_r(k) − f_s(k))` for `l = 1..m−1` (per unit α) of
/// the fixation of mutant `r` in a population of `s` (module docs).
fn exponents(p: &[Vec<f64>], s: usize, r: usize, m: usize) -> Vec<f64> {
    let mf = (m - 1) as f64;
    let mut acc = 0.0;
    (1..m)
        .map(|k| {
            let kf = k as f64;
            let f_r = ((kf - 1.0) * p[r][r] + (m as f64 - kf) * p[r][s]) / mf;
            let f_s = (kf * p[s][r] + (m as f64 - kf - 1.0) * p[s][s]) / mf;
            acc -= f_r - f_s;
            acc
        })
        .collect()
}

/// The fixation probability `ρ(s → r)` at intensity `alpha` (module docs).
pub fn fixation(p: &[Vec<f64>], s: usize, r: usize, m: usize, alpha: f64) -> f64 {
    let mut xs = vec![0.0];
    xs.extend(exponents(p, s, r, m).into_iter().map(|e| alpha * e));
    (-log_sum_exp(&xs)).exp()
}

/// The stationary distribution of the chain whose transition probability from `s` to
/// `r ≠ s` is `rho(s, r) / (K − 1)`; solved exactly (Gaussian elimination on
/// `πC = π`, `Σπ = 1`), clamped at 0 and renormalised against rounding.
// Gaussian elimination reads as index arithmetic over rows and columns.
#[allow(clippy::needless_range_loop)]
fn stationary(k: usize, rho: impl Fn(usize, usize) -> f64) -> Vec<f64> {
    if k == 1 {
        return vec![1.0];
    }
    let eta = 1.0 / (k - 1) as f64;
    let mut c = vec![vec![0.0; k]; k];
    for s in 0..k {
        let mut out = 0.0;
        for r in 0..k {
            if r != s {
                c[s][r] = eta * rho(s, r);
                out += c[s][r];
            }
        }
        c[s][s] = 1.0 - out;
    }
    // Rows of (Cᵀ − I) π = 0, the last replaced by Σ π = 1.
    let mut a: Vec<Vec<f64>> = (0..k)
        .map(|i| {
            let mut row: Vec<f64> = (0..k).map(|j| c[j][i] - f64::from(i == j)).collect();
            row.push(0.0);
            row
        })
        .collect();
    a[k - 1] = vec![1.0; k + 1];
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .expect("a column has rows");
        a.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-300 {
            continue;
        }
        for j in col..=k {
            a[col][j] /= d;
        }
        for i in 0..k {
            if i != col && a[i][col] != 0.0 {
                let f = a[i][col];
                for j in col..=k {
                    a[i][j] -= f * a[col][j];
                }
            }
        }
    }
    let mut pi: Vec<f64> = (0..k).map(|i| a[i][k].max(0.0)).collect();
    let total: f64 = pi.iter().sum();
    if total > 0.0 {
        pi.iter_mut().for_each(|x| *x /= total);
    }
    pi
}

/// The α-Rank distribution of the symmetric meta-game `p` (`p[i][j]` the payoff of `i`
/// against `j`, diagonal included) at selection intensity `alpha` with population `m`.
///
/// # Panics
/// If `p` is not square or `m < 2`.
pub fn alpha_rank(p: &[Vec<f64>], alpha: f64, m: usize) -> Vec<f64> {
    check(p, m);
    stationary(p.len(), |s, r| fixation(p, s, r, m, alpha))
}

/// The large-α limit of [`alpha_rank`] (module docs: favourable fixations 1, neutral
/// `1/m`, every other [`LIMIT_EPSILON`]).
///
/// # Panics
/// If `p` is not square or `m < 2`.
pub fn alpha_rank_limit(p: &[Vec<f64>], m: usize) -> Vec<f64> {
    check(p, m);
    stationary(p.len(), |s, r| {
        let e = exponents(p, s, r, m);
        let worst = e.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if worst < -1e-12 {
            1.0
        } else if worst <= 1e-12 {
            1.0 / m as f64
        } else {
            LIMIT_EPSILON
        }
    })
}

/// The strategies ordered by mass, largest first (ties: the lower index first).
pub fn ranking(pi: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..pi.len()).collect();
    order.sort_by(|&a, &b| pi[b].total_cmp(&pi[a]).then(a.cmp(&b)));
    order
}

fn check(p: &[Vec<f64>], m: usize) {
    assert!(m >= 2, "a population needs at least 2 individuals");
    assert!(
        p.iter().all(|row| row.len() == p.len()),
        "the payoff matrix must be square"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rps() -> Vec<Vec<f64>> {
        vec![
            vec![0.5, 0.0, 1.0],
            vec![1.0, 0.5, 0.0],
            vec![0.0, 1.0, 0.5],
        ]
    }

    /// Rock–paper–scissors is a cycle: the uniform distribution at every α and in the
    /// limit.
    #[test]
    fn rock_paper_scissors_is_uniform() {
        for alpha in [0.1, 1.0, 10.0, 100.0, 1e4] {
            let pi = alpha_rank(&rps(), alpha, 50);
            for x in &pi {
                assert!((x - 1.0 / 3.0).abs() < 1e-9, "α {alpha}: {pi:?}");
            }
        }
        let pi = alpha_rank_limit(&rps(), 50);
        assert!(pi.iter().all(|x| (x - 1.0 / 3.0).abs() < 1e-9), "{pi:?}");
    }

    /// A strategy that beats every other gets more mass as α grows, and all of it in
    /// the limit; at α = 0 (no selection) every strategy is alike.
    #[test]
    fn a_dominant_strategy_takes_the_mass_as_alpha_grows() {
        let p = vec![
            vec![0.5, 0.8, 0.7, 0.6],
            vec![0.2, 0.5, 0.6, 0.4],
            vec![0.3, 0.4, 0.5, 0.5],
            vec![0.4, 0.6, 0.5, 0.5],
        ];
        let pi0 = alpha_rank(&p, 0.0, 50);
        assert!(pi0.iter().all(|x| (x - 0.25).abs() < 1e-9), "{pi0:?}");
        let mut last = 0.0;
        for alpha in [0.5, 2.0, 10.0, 50.0] {
            let pi = alpha_rank(&p, alpha, 50);
            assert!((pi.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(pi[0] > last || pi[0] > 1.0 - 1e-12, "α {alpha}: {pi:?}");
            assert_eq!(ranking(&pi)[0], 0);
            last = pi[0];
        }
        assert!(last > 0.99, "{last}");
        let lim = alpha_rank_limit(&p, 50);
        assert!(lim[0] > 1.0 - 1e-6, "{lim:?}");
    }

    /// The fixation probability is the neutral `1/m` without selection, above it for a
    /// fitter mutant, below it for a weaker one.
    #[test]
    fn fixation_is_neutral_without_selection() {
        let p = vec![vec![0.5, 0.8], vec![0.2, 0.5]];
        assert!((fixation(&p, 1, 0, 20, 0.0) - 1.0 / 20.0).abs() < 1e-12);
        assert!(fixation(&p, 1, 0, 20, 5.0) > 1.0 / 20.0);
        assert!(fixation(&p, 0, 1, 20, 5.0) < 1.0 / 20.0);
        assert!(fixation(&p, 0, 1, 20, 1e6) >= 0.0);
    }
}
