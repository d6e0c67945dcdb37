//! Exact solution of two-player zero-sum matrix games by linear programming.
//!
//! Variant implemented: the classical reduction (von Neumann 1928; Dantzig 1951). The
//! payoffs `A` (to the row player, who maximises) are shifted to be positive, the column
//! player's problem `max Σy s.t. A'y ≤ 1, y ≥ 0` is solved by the dense tableau simplex
//! method with Bland's rule (Bland 1977; no cycling), and the row player's optimal
//! strategy is read from the dual values of the slack columns. Value = 1 / Σy, shifted
//! back. Exact up to floating-point rounding; meant for small games (the Daxu endgame's
//! stages are at most 4 × 4). Iterative regret-matching solvers live beside it.

// Tableau code reads best with explicit row and column indices.
#![allow(clippy::needless_range_loop)]

/// An equilibrium of a zero-sum matrix game.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixSolution {
    /// The game value to the row player.
    pub value: f64,
    /// The row player's optimal mixed strategy (sums to 1).
    pub row: Vec<f64>,
    /// The column player's optimal mixed strategy (sums to 1).
    pub col: Vec<f64>,
}

const EPS: f64 = 1e-12;

/// Solves the zero-sum matrix game with payoffs `a[i][j]` to the row player.
///
/// # Panics
/// Panics if the matrix is empty or ragged.
pub fn solve_zero_sum(a: &[Vec<f64>]) -> MatrixSolution {
    let m = a.len();
    assert!(m > 0 && !a[0].is_empty(), "empty matrix game");
    let n = a[0].len();
    assert!(a.iter().all(|r| r.len() == n), "ragged matrix game");
    let lo = a.iter().flatten().cloned().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - lo;
    // Tableau: m constraint rows [A' | I | 1], objective row [-1..-1 | 0 | 0].
    let cols = n + m + 1;
    let mut t = vec![vec![0.0; cols]; m + 1];
    for i in 0..m {
        for j in 0..n {
            t[i][j] = a[i][j] + shift;
        }
        t[i][n + i] = 1.0;
        t[i][cols - 1] = 1.0;
    }
    for j in 0..n {
        t[m][j] = -1.0;
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    // Bland: the entering column is the lowest index with a negative reduced cost.
    while let Some(e) = (0..n + m).find(|&j| t[m][j] < -EPS) {
        let mut leave: Option<usize> = None;
        for i in 0..m {
            if t[i][e] > EPS {
                let r = t[i][cols - 1] / t[i][e];
                leave = match leave {
                    None => Some(i),
                    Some(l) => {
                        let rl = t[l][cols - 1] / t[l][e];
                        if r < rl - EPS || (r <= rl + EPS && basis[i] < basis[l]) {
                            Some(i)
                        } else {
                            Some(l)
                        }
                    }
                };
            }
        }
        let l = leave.expect("bounded: every A' entry is positive");
        let piv = t[l][e];
        for x in t[l].iter_mut() {
            *x /= piv;
        }
        for i in 0..=m {
            if i != l && t[i][e].abs() > 0.0 {
                let f = t[i][e];
                for j in 0..cols {
                    t[i][j] -= f * t[l][j];
                }
            }
        }
        basis[l] = e;
    }
    let total = t[m][cols - 1];
    let mut col = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            col[b] = t[i][cols - 1] / total;
        }
    }
    let row: Vec<f64> = (0..m).map(|i| t[m][n + i].max(0.0) / total).collect();
    MatrixSolution {
        value: 1.0 / total - shift,
        row,
        col,
    }
}

/// The NashConv of a strategy pair in a zero-sum matrix game: the sum of what the two best
/// responses gain, `max_i (A q)_i - min_j (pᵀA)_j` (0 exactly at an equilibrium). The
/// crate's *exploitability* is NashConv / 2 (the OpenSpiel convention), as in
/// [`crate::solvers::matrix`].
pub fn nash_conv(a: &[Vec<f64>], row: &[f64], col: &[f64]) -> f64 {
    let best_row = a
        .iter()
        .map(|r| r.iter().zip(col).map(|(x, q)| x * q).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    let n = a[0].len();
    let worst_col = (0..n)
        .map(|j| a.iter().zip(row).map(|(r, p)| r[j] * p).sum::<f64>())
        .fold(f64::INFINITY, f64::min);
    best_row - worst_col
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(a: &[Vec<f64>], value: f64) -> MatrixSolution {
        let s = solve_zero_sum(a);
        assert!(
            (s.value - value).abs() < 1e-9,
            "value {} != {value}",
            s.value
        );
        assert!((s.row.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((s.col.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(nash_conv(a, &s.row, &s.col) < 1e-9);
        s
    }

    #[test]
    fn rock_paper_scissors_is_uniform_with_value_zero() {
        let a = vec![
            vec![0.0, -1.0, 1.0],
            vec![1.0, 0.0, -1.0],
            vec![-1.0, 1.0, 0.0],
        ];
        let s = check(&a, 0.0);
        for p in s.row.iter().chain(&s.col) {
            assert!((p - 1.0 / 3.0).abs() < 1e-9);
        }
    }

    #[test]
    fn two_by_two_mixed_equilibrium() {
        // Row mixes p on row 0: 3p + 0(1-p) = -1p + 1(1-p) → p = 0.2; value 0.6.
        // Column mixes q on column 0: 3q - (1-q) = 0q + (1-q) → q = 0.4.
        let a = vec![vec![3.0, -1.0], vec![0.0, 1.0]];
        let s = check(&a, 0.6);
        assert!((s.row[0] - 0.2).abs() < 1e-9 && (s.col[0] - 0.4).abs() < 1e-9);
    }

    #[test]
    fn saddle_point_and_degenerate_games() {
        check(&[vec![2.0, 3.0], vec![1.0, 4.0]], 2.0);
        check(&[vec![1.0, 1.0], vec![1.0, 1.0]], 1.0);
        check(&[vec![5.0]], 5.0);
        check(&[vec![0.0, 1.0, 1.0, 0.5]], 0.0);
        check(&[vec![0.0], vec![1.0], vec![0.5]], 1.0);
    }
}
