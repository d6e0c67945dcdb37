//! Exact best responses, NashConv and exploitability over an explicit [`Tree`].
//!
//! Method: the best responder `i` faces a fixed behaviour strategy of the opponent (and
//! chance). First one top-down pass computes every node's opponent-and-chance reach
//! `π_{-i}(h)`. Then a memoised recursion evaluates the tree: at the opponent's nodes the
//! expectation under its strategy, at chance nodes under the chance probabilities, at the
//! responder's nodes the value of the information set's best action
//! `argmax_a Σ_{h ∈ I} π_{-i}(h) · v(h a)` (exact expectimax per information set, the
//! standard best response for perfect-recall games; ties go to the first action). With
//! perfect recall every child of a node in `I` lies below `I`, so the recursion is well
//! founded.
//!
//! Definitions (two-player zero-sum, as in OpenSpiel's `exploitability`):
//! `NashConv(σ) = Σ_i (u_i(BR_i(σ_{-i}), σ_{-i}) - u_i(σ))` and
//! `exploitability(σ) = NashConv(σ) / 2`; both are 0 exactly at a Nash equilibrium.

use super::efg::{Tree, TreeNode};

/// The value and summary of evaluating a profile by best responses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// Seat 0's expected utility under the profile.
    pub value: f64,
    /// Each seat's best-response value against the other's strategy in the profile.
    pub best_response: [f64; 2],
    /// `Σ_i (BR value_i - u_i)`.
    pub nash_conv: f64,
    /// `nash_conv / 2`.
    pub exploitability: f64,
}

struct Responder<'a> {
    tree: &'a Tree,
    policy: &'a [f64],
    player: usize,
    reach: Vec<f64>,
    value: Vec<Option<f64>>,
    best: Vec<Option<usize>>,
}

impl Responder<'_> {
    fn reach_pass(&mut self) {
        self.reach[0] = 1.0;
        // Children always have larger indices than their parent (see `Tree`).
        for n in 0..self.tree.nodes.len() {
            let r = self.reach[n];
            match self.tree.nodes[n] {
                TreeNode::Terminal(_) => {}
                TreeNode::Chance { first, count } => {
                    for c in first as usize..(first + count) as usize {
                        self.reach[self.tree.children[c] as usize] = r * self.tree.chance_probs[c];
                    }
                }
                TreeNode::Decision {
                    player,
                    infoset,
                    first,
                    count,
                } => {
                    let off = self.tree.infosets[infoset as usize].offset;
                    for a in 0..count as usize {
                        let child = self.tree.children[first as usize + a] as usize;
                        self.reach[child] = if player as usize == self.player {
                            r
                        } else {
                            r * self.policy[off + a]
                        };
                    }
                }
            }
        }
    }

    /// The responder's value of `node`.
    fn value_of(&mut self, node: usize) -> f64 {
        if let Some(v) = self.value[node] {
            return v;
        }
        let tree = self.tree;
        let v = match tree.nodes[node] {
            TreeNode::Terminal(u) => {
                if self.player == 0 {
                    u
                } else {
                    -u
                }
            }
            TreeNode::Chance { first, count } => {
                let mut v = 0.0;
                for c in first as usize..(first + count) as usize {
                    v += tree.chance_probs[c] * self.value_of(tree.children[c] as usize);
                }
                v
            }
            TreeNode::Decision {
                player,
                infoset,
                first,
                count,
            } => {
                if player as usize == self.player {
                    let a = self.best_action(infoset as usize);
                    self.value_of(tree.children[first as usize + a] as usize)
                } else {
                    let off = tree.infosets[infoset as usize].offset;
                    let mut v = 0.0;
                    for a in 0..count as usize {
                        let pr = self.policy[off + a];
                        if pr > 0.0 {
                            v += pr * self.value_of(tree.children[first as usize + a] as usize);
                        }
                    }
                    v
                }
            }
        };
        self.value[node] = Some(v);
        v
    }

    fn best_action(&mut self, infoset: usize) -> usize {
        if let Some(a) = self.best[infoset] {
            return a;
        }
        let tree = self.tree;
        let set = &tree.infosets[infoset];
        let mut best = (f64::NEG_INFINITY, 0);
        for a in 0..set.actions.len() {
            let mut q = 0.0;
            for &h in tree.nodes_of(infoset) {
                let h = h as usize;
                let TreeNode::Decision { first, .. } = tree.nodes[h] else {
                    unreachable!("information sets hold decision nodes")
                };
                if self.reach[h] > 0.0 {
                    q += self.reach[h] * self.value_of(tree.children[first as usize + a] as usize);
                }
            }
            if q > best.0 {
                best = (q, a);
            }
        }
        self.best[infoset] = Some(best.1);
        best.1
    }
}

/// The best-response value of `player` (0 or 1) against the other seat's strategy in
/// `policy`: the responder's expected utility.
///
/// # Panics
/// If `policy` is shorter than `tree.num_actions` or `player > 1`.
pub fn best_response_value(tree: &Tree, policy: &[f64], player: usize) -> f64 {
    assert!(player < 2 && policy.len() >= tree.num_actions);
    let mut r = Responder {
        tree,
        policy,
        player,
        reach: vec![0.0; tree.nodes.len()],
        value: vec![None; tree.nodes.len()],
        best: vec![None; tree.infosets.len()],
    };
    r.reach_pass();
    r.value_of(0)
}

/// Evaluates `policy`: seat 0's value, both best-response values, NashConv and
/// exploitability.
///
/// # Panics
/// If `policy` is shorter than `tree.num_actions`.
pub fn evaluate(tree: &Tree, policy: &[f64]) -> Evaluation {
    let value = tree.expected_value(policy);
    let br = [
        best_response_value(tree, policy, 0),
        best_response_value(tree, policy, 1),
    ];
    let nash_conv = (br[0] - value) + (br[1] + value);
    Evaluation {
        value,
        best_response: br,
        nash_conv,
        exploitability: nash_conv / 2.0,
    }
}

/// `NashConv(policy)` (see the module docs).
pub fn nash_conv(tree: &Tree, policy: &[f64]) -> f64 {
    evaluate(tree, policy).nash_conv
}

/// `exploitability(policy) = NashConv / 2` (see the module docs).
pub fn exploitability(tree: &Tree, policy: &[f64]) -> f64 {
    evaluate(tree, policy).exploitability
}
