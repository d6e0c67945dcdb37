//! Counterfactual regret minimisation over an explicit [`Tree`]: vanilla CFR and CFR+.
//!
//! Variants implemented:
//! - **CFR** (Zinkevich, Johanson, Bowling & Piccione 2007, "Regret minimization in games
//!   with incomplete information"): full-tree traversals with *simultaneous* updates (both
//!   seats' regrets from the same traversal), regret matching on cumulative counterfactual
//!   regrets, and the average strategy weighted by the seat's own reach probability with
//!   uniform weight per iteration.
//! - **Alternating CFR**: the same regret matching and uniform averaging, with *alternating*
//!   updates (seat 0's traversal, then seat 1's against seat 0's updated strategy, each
//!   traversal updating only its seat's regrets and strategy sums), as in Burch, Moravcik &
//!   Schmid 2019 ("Revisiting CFR+ and alternating updates") and OpenSpiel's default
//!   `CFRSolver` (`alternating_updates=True`, `regret_matching_plus=False`,
//!   `linear_averaging=False`), whose policies it reproduces.
//! - **CFR+** (Tammelin 2014, "Solving large imperfect information games using CFR+";
//!   Tammelin, Burch, Johanson & Bowling 2015): regret matching+ (cumulative regrets
//!   clipped at 0 after every update), *alternating* updates (seat 0's traversal, then seat
//!   1's against seat 0's updated strategy), and *linear* averaging (iteration `t` weighs
//!   `t`), without the averaging delay.
//!
//! The current strategy of an information set is regret matching over its cumulative
//! regrets (uniform when none is positive) and is recomputed after each update pass. No
//! pruning. A traversal allocates nothing: per-node action values live in stack buffers of
//! [`MAX_ACTIONS`].

// Per-action loops index several parallel buffers (values, strategy, regrets) at once.
#![allow(clippy::needless_range_loop)]

use super::efg::{MAX_ACTIONS, Policy, Tree, TreeNode};

/// Which CFR variant to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfrVariant {
    /// Zinkevich et al. 2007: regret matching, simultaneous updates, uniform averaging.
    Vanilla,
    /// Tammelin 2014: regret matching+, alternating updates, linear averaging.
    Plus,
    /// Regret matching, alternating updates, uniform averaging (OpenSpiel's `CFRSolver`).
    Alternating,
}

/// A CFR or CFR+ solver over a tree it borrows.
#[derive(Clone, Debug)]
pub struct Cfr<'t> {
    tree: &'t Tree,
    variant: CfrVariant,
    regrets: Vec<f64>,
    strategy_sum: Vec<f64>,
    current: Vec<f64>,
    iterations: u64,
}

/// Regret matching: writes into `out` the positive parts of `regrets`, normalised, or the
/// uniform distribution when none is positive (Hart & Mas-Colell 2000).
pub fn regret_matching(regrets: &[f64], out: &mut [f64]) {
    let total: f64 = regrets.iter().map(|r| r.max(0.0)).sum();
    if total > 0.0 {
        for (o, r) in out.iter_mut().zip(regrets) {
            *o = r.max(0.0) / total;
        }
    } else {
        out.fill(1.0 / regrets.len() as f64);
    }
}

impl<'t> Cfr<'t> {
    /// A fresh solver: zero regrets, uniform current strategy.
    pub fn new(tree: &'t Tree, variant: CfrVariant) -> Self {
        Cfr {
            tree,
            variant,
            regrets: vec![0.0; tree.num_actions],
            strategy_sum: vec![0.0; tree.num_actions],
            current: tree.uniform_policy(),
            iterations: 0,
        }
    }

    /// Iterations run so far.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Runs one iteration (one traversal for CFR, one per seat for CFR+ and alternating
    /// CFR).
    pub fn iterate(&mut self) {
        self.iterations += 1;
        match self.variant {
            CfrVariant::Vanilla => {
                self.walk(0, [1.0, 1.0], 1.0, [true, true], 1.0);
                self.update_current(None);
            }
            CfrVariant::Plus | CfrVariant::Alternating => {
                let w = if self.variant == CfrVariant::Plus {
                    self.iterations as f64
                } else {
                    1.0
                };
                for p in 0..2 {
                    self.walk(0, [1.0, 1.0], 1.0, [p == 0, p == 1], w);
                    self.update_current(Some(p));
                }
            }
        }
    }

    /// The current strategy profile (what the last iteration played).
    pub fn current_policy(&self) -> Policy {
        self.current.clone()
    }

    /// The average strategy profile, the one that converges to a Nash equilibrium.
    pub fn average_policy(&self) -> Policy {
        self.tree.normalize(&self.strategy_sum)
    }

    /// Recomputes the current strategy of `player`'s information sets (all if `None`),
    /// clipping regrets at 0 first under CFR+.
    fn update_current(&mut self, player: Option<usize>) {
        for set in &self.tree.infosets {
            if player.is_some_and(|p| p != set.player) {
                continue;
            }
            let r = set.offset..set.offset + set.actions.len();
            if self.variant == CfrVariant::Plus {
                self.regrets[r.clone()]
                    .iter_mut()
                    .for_each(|x| *x = x.max(0.0));
            }
            regret_matching(&self.regrets[r.clone()], &mut self.current[r]);
        }
    }

    /// Returns seat 0's expected utility below `node` under the current strategy, updating
    /// regrets and strategy sums of the seats flagged in `update`. `reach` holds the seats'
    /// own reach probabilities, `chance` the chance reach.
    fn walk(
        &mut self,
        node: usize,
        reach: [f64; 2],
        chance: f64,
        update: [bool; 2],
        w: f64,
    ) -> f64 {
        let tree = self.tree;
        match tree.nodes[node] {
            TreeNode::Terminal(u) => u,
            TreeNode::Chance { first, count } => {
                let mut v = 0.0;
                for i in first as usize..(first + count) as usize {
                    let pr = tree.chance_probs[i];
                    v += pr * self.walk(tree.children[i] as usize, reach, chance * pr, update, w);
                }
                v
            }
            TreeNode::Decision {
                player,
                infoset,
                first,
                count,
            } => {
                let p = player as usize;
                let k = count as usize;
                let off = tree.infosets[infoset as usize].offset;
                let mut vals = [0.0; MAX_ACTIONS];
                let mut v = 0.0;
                for a in 0..k {
                    let pr = self.current[off + a];
                    let mut r = reach;
                    r[p] *= pr;
                    if r[0] == 0.0 && r[1] == 0.0 {
                        // Nobody's counterfactual value depends on a subtree no seat reaches.
                        continue;
                    }
                    vals[a] = self.walk(
                        tree.children[first as usize + a] as usize,
                        r,
                        chance,
                        update,
                        w,
                    );
                    v += pr * vals[a];
                }
                if update[p] {
                    let sign = if p == 0 { 1.0 } else { -1.0 };
                    let cf = reach[1 - p] * chance * sign;
                    for a in 0..k {
                        self.regrets[off + a] += cf * (vals[a] - v);
                        self.strategy_sum[off + a] += w * reach[p] * self.current[off + a];
                    }
                }
                v
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::efg::KuhnEfg;
    use crate::solvers::best_response::evaluate;

    /// Alternating CFR converges on Kuhn poker (the game value is -1/18), and it is not
    /// simultaneous CFR under another name: after one iteration seat 1 has already answered
    /// seat 0's updated strategy, so the two average policies differ.
    #[test]
    fn alternating_cfr_converges_and_differs_from_simultaneous_cfr() {
        let tree = Tree::build(&KuhnEfg, 1000).unwrap();
        let mut alt = Cfr::new(&tree, CfrVariant::Alternating);
        let mut sim = Cfr::new(&tree, CfrVariant::Vanilla);
        alt.iterate();
        sim.iterate();
        alt.iterate();
        sim.iterate();
        assert_ne!(alt.average_policy(), sim.average_policy());
        for _ in 0..2000 {
            alt.iterate();
        }
        let e = evaluate(&tree, &alt.average_policy());
        assert!(e.exploitability < 5e-3, "{}", e.exploitability);
        assert!((e.value + 1.0 / 18.0).abs() < 5e-3, "{}", e.value);
    }
}
