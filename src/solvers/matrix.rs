//! A two-player zero-sum matrix-game solver by regret matching, reporting the value and
//! exploitability of the average strategies.
//!
//! Variants implemented:
//! - **Regret matching** (Hart & Mas-Colell 2000): both players update simultaneously from
//!   the same iterate; the average strategies (uniform weights) converge to a Nash
//!   equilibrium at rate `O(1/√T)`.
//! - **Regret matching+** (Tammelin 2014; Tammelin et al. 2015): cumulative regrets
//!   clipped at 0, alternating updates (the column player responds to the row player's
//!   updated strategy), linear averaging (iterate `t` weighs `t`).
//!
//! Both start from the uniform strategies. The row player maximises `x^T A y`, the column
//! player minimises it.

use super::cfr::regret_matching;

/// A zero-sum matrix game: the row player's payoffs, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixGame {
    /// Number of rows (row player's actions).
    pub rows: usize,
    /// Number of columns (column player's actions).
    pub cols: usize,
    /// `payoff[r * cols + c]`: what the column player pays the row player.
    pub payoff: Vec<f64>,
}

/// Which regret-matching variant to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixAlgo {
    /// Regret matching, simultaneous updates, uniform averaging.
    RegretMatching,
    /// Regret matching+, alternating updates, linear averaging.
    RegretMatchingPlus,
}

/// The average strategies after solving, with their value and exploitability.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixSolution {
    /// The row player's average strategy.
    pub row: Vec<f64>,
    /// The column player's average strategy.
    pub col: Vec<f64>,
    /// `row^T A col`.
    pub value: f64,
    /// `min_c (row^T A)_c`: what the row strategy guarantees (a lower bound on the value).
    pub lower: f64,
    /// `max_r (A col)_r`: what the column strategy concedes at most (an upper bound).
    pub upper: f64,
    /// `(upper - lower) / 2` (NashConv / 2); 0 exactly at an equilibrium.
    pub exploitability: f64,
}

/// Why a matrix game is malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("matrix game of {rows}x{cols} needs {expected} finite payoffs, got {got}")]
pub struct MatrixError {
    /// Rows given.
    pub rows: usize,
    /// Columns given.
    pub cols: usize,
    /// `rows * cols` (must be positive).
    pub expected: usize,
    /// Finite payoffs given.
    pub got: usize,
}

impl MatrixGame {
    /// A game from the row player's payoffs, row-major.
    ///
    /// # Errors
    /// [`MatrixError`] if a dimension is 0, the length is not `rows * cols`, or a payoff is
    /// not finite.
    pub fn new(rows: usize, cols: usize, payoff: Vec<f64>) -> Result<Self, MatrixError> {
        let got = payoff.iter().filter(|x| x.is_finite()).count();
        if rows == 0 || cols == 0 || payoff.len() != rows * cols || got != payoff.len() {
            return Err(MatrixError {
                rows,
                cols,
                expected: rows * cols,
                got,
            });
        }
        Ok(MatrixGame { rows, cols, payoff })
    }

    /// `A y`: each row's expected payoff against column strategy `y`.
    pub fn row_values(&self, y: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.rows];
        self.row_values_into(y, &mut out);
        out
    }

    /// `x^T A`: each column's expected payoff (to the row player) against row strategy `x`.
    pub fn col_values(&self, x: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.cols];
        self.col_values_into(x, &mut out);
        out
    }

    fn row_values_into(&self, y: &[f64], out: &mut [f64]) {
        for (r, o) in out.iter_mut().enumerate() {
            let row = &self.payoff[r * self.cols..(r + 1) * self.cols];
            *o = row.iter().zip(y).map(|(a, b)| a * b).sum();
        }
    }

    fn col_values_into(&self, x: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        for (r, &xr) in x.iter().enumerate() {
            let row = &self.payoff[r * self.cols..(r + 1) * self.cols];
            for (o, a) in out.iter_mut().zip(row) {
                *o += xr * a;
            }
        }
    }

    /// Value, bounds and exploitability of the profile `(x, y)`.
    pub fn evaluate(&self, x: &[f64], y: &[f64]) -> MatrixSolution {
        let rv = self.row_values(y);
        let cv = self.col_values(x);
        let value: f64 = x.iter().zip(&rv).map(|(a, b)| a * b).sum();
        let upper = rv.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let lower = cv.iter().cloned().fold(f64::INFINITY, f64::min);
        MatrixSolution {
            row: x.to_vec(),
            col: y.to_vec(),
            value,
            lower,
            upper,
            exploitability: (upper - lower) / 2.0,
        }
    }

    /// Runs `iterations` of `algo` and returns the average strategies, evaluated. The
    /// iterations allocate nothing (buffers are allocated once).
    pub fn solve(&self, algo: MatrixAlgo, iterations: u64) -> MatrixSolution {
        let (m, n) = (self.rows, self.cols);
        let (mut rr, mut cr) = (vec![0.0; m], vec![0.0; n]);
        let (mut x, mut y) = (vec![1.0 / m as f64; m], vec![1.0 / n as f64; n]);
        let (mut xs, mut ys) = (vec![0.0; m], vec![0.0; n]);
        let (mut rv, mut cv) = (vec![0.0; m], vec![0.0; n]);
        let plus = algo == MatrixAlgo::RegretMatchingPlus;
        for t in 1..=iterations {
            let w = if plus { t as f64 } else { 1.0 };
            // Both players' payoffs against the current iterate (RM), or the row player's
            // first and the column player's against the updated row strategy (RM+).
            self.row_values_into(&y, &mut rv);
            if !plus {
                self.col_values_into(&x, &mut cv);
            }
            let v: f64 = x.iter().zip(&rv).map(|(a, b)| a * b).sum();
            for r in 0..m {
                rr[r] += rv[r] - v;
                if plus {
                    rr[r] = rr[r].max(0.0);
                }
                xs[r] += w * x[r];
            }
            if plus {
                regret_matching(&rr, &mut x);
                self.col_values_into(&x, &mut cv);
            }
            let u: f64 = y.iter().zip(&cv).map(|(a, b)| a * b).sum();
            for c in 0..n {
                cr[c] += u - cv[c];
                if plus {
                    cr[c] = cr[c].max(0.0);
                }
                ys[c] += w * y[c];
            }
            if !plus {
                regret_matching(&rr, &mut x);
            }
            regret_matching(&cr, &mut y);
        }
        if iterations == 0 {
            return self.evaluate(&x, &y);
        }
        let norm = |s: &mut Vec<f64>| {
            let t: f64 = s.iter().sum();
            s.iter_mut().for_each(|v| *v /= t);
        };
        norm(&mut xs);
        norm(&mut ys);
        self.evaluate(&xs, &ys)
    }
}
