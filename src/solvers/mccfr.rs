//! Monte Carlo CFR over an explicit [`Tree`]: external sampling and outcome sampling.
//!
//! Variants implemented (Lanctot, Waugh, Zinkevich & Bowling 2009, "Monte Carlo sampling
//! for regret minimization in extensive games"; Lanctot 2013, PhD thesis, Alg. 3 and 4).
//! One iteration is one traversal per seat (seat 0, then seat 1), alternating updates.
//! Regrets use plain regret matching (no clipping).
//!
//! - **External sampling** (`es-mccfr`): chance and the opponent's actions are sampled
//!   (the opponent from its current strategy), every action of the traversing seat is
//!   explored. Regret update at the traverser's information sets: `r(I, a) += v(a) - v`
//!   on sampled counterfactual values. Average strategy: at the opponent's sampled nodes,
//!   `s(I, ·) += σ(I, ·)` (the opponent's reach is accounted for by the sampling itself).
//! - **Outcome sampling** (`os-mccfr`): one terminal history per traversal; the traverser
//!   samples from `ε`-on-policy exploration (`ε · uniform + (1 - ε) · σ`, `ε` =
//!   [`OS_EPSILON`]), the opponent and chance on-policy. With `q` the sampling probability
//!   of the prefix, `π_{-i}` the opponent-and-chance reach, the sampled counterfactual
//!   value of action `a` is `π_{-i} / q · û(a)` with `û(a) = u / σ'(a)` for the sampled
//!   action and 0 otherwise (no baseline); regrets get `cf(a) - Σ_b σ(b) cf(b)`. Average
//!   strategy: stochastically weighted, `s(I, a) += π_i / q · σ(I, a)` at the
//!   traverser's sampled nodes (an unbiased estimate of the own-reach-weighted sum).
//!
//! Traversals allocate nothing (stack buffers of [`MAX_ACTIONS`]).

// Per-action loops index several parallel buffers (values, strategy, regrets) at once.
#![allow(clippy::needless_range_loop)]

use rand::RngExt;

use super::cfr::regret_matching;
use super::efg::{MAX_ACTIONS, Policy, Tree, TreeNode};
use crate::rng::SimRng;

/// Exploration of outcome sampling at the traverser's nodes (Lanctot et al. 2009 use 0.6).
pub const OS_EPSILON: f64 = 0.6;

/// Which sampling scheme to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// External sampling: sample chance and the opponent, explore the traverser fully.
    External,
    /// Outcome sampling: sample one terminal history per traversal.
    Outcome,
}

/// An MCCFR solver over a tree it borrows, with its own RNG.
#[derive(Clone, Debug)]
pub struct Mccfr<'t> {
    tree: &'t Tree,
    sampling: Sampling,
    regrets: Vec<f64>,
    strategy_sum: Vec<f64>,
    iterations: u64,
    rng: SimRng,
}

fn sample(probs: &[f64], rng: &mut SimRng) -> usize {
    let x: f64 = rng.random();
    let mut acc = 0.0;
    for (i, &p) in probs.iter().enumerate() {
        acc += p;
        if x < acc {
            return i;
        }
    }
    // Rounding: fall back to the last action with positive probability.
    probs.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

impl<'t> Mccfr<'t> {
    /// A fresh solver with zero regrets, sampling from `rng`.
    pub fn new(tree: &'t Tree, sampling: Sampling, rng: SimRng) -> Self {
        Mccfr {
            tree,
            sampling,
            regrets: vec![0.0; tree.num_actions],
            strategy_sum: vec![0.0; tree.num_actions],
            iterations: 0,
            rng,
        }
    }

    /// Iterations run so far.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Runs one iteration: one sampled traversal per seat.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        for p in 0..2 {
            match self.sampling {
                Sampling::External => {
                    self.external(0, p);
                }
                Sampling::Outcome => {
                    self.outcome(0, p, 1.0, 1.0, 1.0);
                }
            }
        }
    }

    /// The average strategy profile.
    pub fn average_policy(&self) -> Policy {
        self.tree.normalize(&self.strategy_sum)
    }

    fn current(&self, off: usize, k: usize, out: &mut [f64; MAX_ACTIONS]) {
        regret_matching(&self.regrets[off..off + k], &mut out[..k]);
    }

    /// External-sampling traversal for seat `i`; returns seat `i`'s sampled value.
    fn external(&mut self, node: usize, i: usize) -> f64 {
        let tree = self.tree;
        match tree.nodes[node] {
            TreeNode::Terminal(u) => seat_utility(u, i),
            TreeNode::Chance { first, count } => {
                let r = first as usize..(first + count) as usize;
                let c = r.start + sample(&tree.chance_probs[r], &mut self.rng);
                self.external(tree.children[c] as usize, i)
            }
            TreeNode::Decision {
                player,
                infoset,
                first,
                count,
            } => {
                let k = count as usize;
                let off = tree.infosets[infoset as usize].offset;
                let mut sigma = [0.0; MAX_ACTIONS];
                self.current(off, k, &mut sigma);
                if player as usize == i {
                    let mut vals = [0.0; MAX_ACTIONS];
                    let mut v = 0.0;
                    for a in 0..k {
                        vals[a] = self.external(tree.children[first as usize + a] as usize, i);
                        v += sigma[a] * vals[a];
                    }
                    for a in 0..k {
                        self.regrets[off + a] += vals[a] - v;
                    }
                    v
                } else {
                    for a in 0..k {
                        self.strategy_sum[off + a] += sigma[a];
                    }
                    let a = sample(&sigma[..k], &mut self.rng);
                    self.external(tree.children[first as usize + a] as usize, i)
                }
            }
        }
    }

    /// Outcome-sampling traversal for seat `i`; returns seat `i`'s importance-weighted
    /// value estimate of `node` (utility / sampling probability of the suffix).
    fn outcome(&mut self, node: usize, i: usize, my_reach: f64, opp_reach: f64, q: f64) -> f64 {
        let tree = self.tree;
        match tree.nodes[node] {
            TreeNode::Terminal(u) => seat_utility(u, i),
            TreeNode::Chance { first, count } => {
                let r = first as usize..(first + count) as usize;
                let c = r.start + sample(&tree.chance_probs[r], &mut self.rng);
                let pr = tree.chance_probs[c];
                self.outcome(
                    tree.children[c] as usize,
                    i,
                    my_reach,
                    opp_reach * pr,
                    q * pr,
                )
            }
            TreeNode::Decision {
                player,
                infoset,
                first,
                count,
            } => {
                let k = count as usize;
                let off = tree.infosets[infoset as usize].offset;
                let mut sigma = [0.0; MAX_ACTIONS];
                self.current(off, k, &mut sigma);
                let mine = player as usize == i;
                let mut explore = sigma;
                if mine {
                    for x in explore.iter_mut().take(k) {
                        *x = OS_EPSILON / k as f64 + (1.0 - OS_EPSILON) * *x;
                    }
                }
                let a = sample(&explore[..k], &mut self.rng);
                let child = tree.children[first as usize + a] as usize;
                let (mr, or) = if mine {
                    (my_reach * sigma[a], opp_reach)
                } else {
                    (my_reach, opp_reach * sigma[a])
                };
                let u = self.outcome(child, i, mr, or, q * explore[a]);
                // The estimate of each action's value: u / q(a) for the sampled one, 0 else.
                let va = u / explore[a];
                let v = sigma[a] * va;
                if mine {
                    let w = opp_reach / q;
                    for b in 0..k {
                        let vb = if b == a { va } else { 0.0 };
                        self.regrets[off + b] += w * (vb - v);
                        self.strategy_sum[off + b] += my_reach / q * sigma[b];
                    }
                }
                v
            }
        }
    }
}

/// Seat `i`'s utility at a terminal whose utility to seat 0 is `u` (two-player zero-sum).
fn seat_utility(u: f64, i: usize) -> f64 {
    if i == 0 { u } else { -u }
}
