//! A generic extensive-form interface for small two-player zero-sum games, and the
//! explicit game tree every tabular solver runs on.
//!
//! The [`GameState`](crate::Playable) API samples chance inside `apply`, so it cannot enumerate
//! chance outcomes; [`ExtensiveForm`] is the small separate trait that can (Kuhn 1953's
//! extensive form: decision nodes grouped into information sets, chance nodes with explicit
//! probabilities, terminal utilities). Simultaneous moves are encoded the standard way: the
//! seats move one after the other, and the later mover's information set does not contain
//! the earlier mover's pending choice.
//!
//! [`Tree::build`] expands an [`ExtensiveForm`] once into a flat arena ([`Tree`]), checks
//! that every information set has one player and one action list, and interns the
//! information-set keys. The solvers ([`super::cfr`], [`super::mccfr`],
//! [`super::best_response`]) then walk the arena by index and allocate nothing per
//! iteration. Strategies are flat `Vec<f64>`s indexed by [`InfoSet::offset`] + action.
//!
//! The extensive forms of the games (Kuhn poker, Goofspiel) live in
//! [`crate::analysis::efg`]: solvers never import games (DESIGN.md §2).

use std::collections::HashMap;
use std::sync::Arc;

use crate::game::Seat;

use super::SolverError;

/// Largest number of actions at one node that the solvers support (stack buffers).
pub const MAX_ACTIONS: usize = 32;

/// What kind of node a state is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The game is over; see [`ExtensiveForm::utility`].
    Terminal,
    /// Chance picks an outcome; see [`ExtensiveForm::chance_outcomes`].
    Chance,
    /// This seat (0 or 1) chooses; see [`ExtensiveForm::actions`].
    Decision(Seat),
}

/// A two-player zero-sum game in extensive form with explicit chance.
///
/// The tree must be finite and small enough to expand ([`Tree::build`] takes a node
/// limit). Perfect recall is assumed (it holds for every game here).
pub trait ExtensiveForm {
    /// A history (node) of the game.
    type State: Clone;

    /// A short name for messages (`kuhn`).
    fn name(&self) -> String;

    /// The root node.
    fn root(&self) -> Self::State;

    /// Who moves at `s`.
    fn node_kind(&self, s: &Self::State) -> NodeKind;

    /// At a chance node: the outcomes' labels and probabilities (positive, summing to 1).
    /// Outcome `i` leads to `child(s, i)`.
    fn chance_outcomes(&self, s: &Self::State) -> Vec<(String, f64)>;

    /// At a decision node: the action labels (`p`, `bid3`). Action `i` leads to
    /// `child(s, i)`. Nodes of one information set must have the same labels.
    fn actions(&self, s: &Self::State) -> Vec<String>;

    /// At a decision node: the printable information-set key of the mover (`1pb`).
    fn info_set_key(&self, s: &Self::State) -> String;

    /// The node after action or chance outcome `i` at `s`.
    fn child(&self, s: &Self::State, i: usize) -> Self::State;

    /// At a terminal node: seat 0's utility (seat 1 receives its negation).
    fn utility(&self, s: &Self::State) -> f64;
}

/// One information set of a [`Tree`].
#[derive(Clone, Debug)]
pub struct InfoSet {
    /// The printable key (`1pb`).
    pub key: String,
    /// The seat that moves here.
    pub player: Seat,
    /// Action labels, in child order (shared between sets with the same labels).
    pub actions: Arc<[String]>,
    /// Index of this set's first action in flat per-action arrays (strategies, regrets).
    pub offset: usize,
    /// This set's nodes are `Tree::infoset_nodes[first_node..first_node + num_nodes]`
    /// (see [`Tree::nodes_of`]).
    pub first_node: u32,
    /// Number of nodes in this set.
    pub num_nodes: u32,
}

/// The kind of a tree node, with its data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TreeNode {
    /// Seat 0's utility.
    Terminal(f64),
    /// Children at `first..first + count` of [`Tree::children`], probabilities alongside in
    /// [`Tree::chance_probs`].
    Chance {
        /// First index into the child list.
        first: u32,
        /// Number of outcomes.
        count: u32,
    },
    /// A decision of `player` in information set `infoset`; children at
    /// `first..first + count`.
    Decision {
        /// The mover.
        player: u8,
        /// Index into [`Tree::infosets`].
        infoset: u32,
        /// First index into the child list.
        first: u32,
        /// Number of actions.
        count: u32,
    },
}

/// An expanded two-player zero-sum game tree: a flat arena, node 0 is the root, children
/// are listed after their parent (so every child index is larger than its parent's).
#[derive(Clone, Debug)]
pub struct Tree {
    /// A short name of the game and variant.
    pub name: String,
    /// The nodes; 0 is the root.
    pub nodes: Vec<TreeNode>,
    /// Child node indices, referenced by `first..first + count` ranges.
    pub children: Vec<u32>,
    /// Probabilities parallel to `children` (1 for decision children).
    pub chance_probs: Vec<f64>,
    /// The information sets, in order of first visit (depth first).
    pub infosets: Vec<InfoSet>,
    /// Total number of (information set, action) pairs: the length of a strategy vector.
    pub num_actions: usize,
    /// The decision nodes grouped by information set (see [`InfoSet::first_node`]).
    pub infoset_nodes: Vec<u32>,
}

/// A behaviour strategy profile over a [`Tree`]: for every information set, a probability
/// per action at `offset + a`.
pub type Policy = Vec<f64>;

impl Tree {
    /// Expands `game` into an arena.
    ///
    /// # Errors
    /// [`SolverError::TooLarge`] if the tree has more than `max_nodes` nodes;
    /// [`SolverError::BadGame`] if an information set mixes players or action lists, a
    /// node has no or more than [`MAX_ACTIONS`] actions, or chance probabilities do not sum
    /// to 1.
    pub fn build<E: ExtensiveForm>(game: &E, max_nodes: usize) -> Result<Tree, SolverError> {
        let mut b = Builder {
            game,
            max_nodes,
            tree: Tree {
                name: game.name(),
                nodes: Vec::new(),
                children: Vec::new(),
                chance_probs: Vec::new(),
                infosets: Vec::new(),
                num_actions: 0,
                infoset_nodes: Vec::new(),
            },
            index: HashMap::new(),
            collisions: HashMap::new(),
            labels: HashMap::new(),
        };
        b.tree.nodes.push(TreeNode::Terminal(0.0));
        b.expand(0, game.root())?;
        let mut tree = b.tree;
        tree.group_infoset_nodes();
        Ok(tree)
    }

    /// Fills `infoset_nodes` and the sets' ranges (a counting sort of the decision nodes by
    /// information set; `num_nodes` was counted during the build).
    fn group_infoset_nodes(&mut self) {
        let mut next = 0u32;
        for set in &mut self.infosets {
            set.first_node = next;
            next += set.num_nodes;
        }
        let mut fill: Vec<u32> = self.infosets.iter().map(|s| s.first_node).collect();
        self.infoset_nodes = vec![0; next as usize];
        for (n, node) in self.nodes.iter().enumerate() {
            if let TreeNode::Decision { infoset, .. } = *node {
                let slot = &mut fill[infoset as usize];
                self.infoset_nodes[*slot as usize] = n as u32;
                *slot += 1;
            }
        }
    }

    /// The nodes (arena indices) of information set `infoset`.
    pub fn nodes_of(&self, infoset: usize) -> &[u32] {
        let set = &self.infosets[infoset];
        &self.infoset_nodes[set.first_node as usize..(set.first_node + set.num_nodes) as usize]
    }

    /// The uniform policy (every action of every information set equally likely).
    pub fn uniform_policy(&self) -> Policy {
        let mut p = vec![0.0; self.num_actions];
        for set in &self.infosets {
            let k = set.actions.len();
            p[set.offset..set.offset + k].fill(1.0 / k as f64);
        }
        p
    }

    /// Seat 0's expected utility when both seats follow `policy`.
    pub fn expected_value(&self, policy: &[f64]) -> f64 {
        self.value_at(0, policy)
    }

    fn value_at(&self, node: usize, policy: &[f64]) -> f64 {
        match self.nodes[node] {
            TreeNode::Terminal(u) => u,
            TreeNode::Chance { first, count } => (first..first + count)
                .map(|i| {
                    let i = i as usize;
                    self.chance_probs[i] * self.value_at(self.children[i] as usize, policy)
                })
                .sum(),
            TreeNode::Decision {
                infoset,
                first,
                count,
                ..
            } => {
                let off = self.infosets[infoset as usize].offset;
                (0..count as usize)
                    .map(|a| {
                        let pr = policy[off + a];
                        if pr == 0.0 {
                            0.0
                        } else {
                            pr * self.value_at(self.children[first as usize + a] as usize, policy)
                        }
                    })
                    .sum()
            }
        }
    }

    /// Normalises per-information-set weights (e.g. cumulative strategy sums) into a
    /// policy; a set whose weights sum to 0 gets the uniform distribution.
    pub fn normalize(&self, weights: &[f64]) -> Policy {
        let mut p = weights.to_vec();
        for set in &self.infosets {
            let s = &mut p[set.offset..set.offset + set.actions.len()];
            let total: f64 = s.iter().sum();
            if total > 0.0 {
                s.iter_mut().for_each(|x| *x /= total);
            } else {
                let k = s.len() as f64;
                s.fill(1.0 / k);
            }
        }
        p
    }

    /// The index of the information set with this key, if any.
    pub fn infoset_by_key(&self, key: &str) -> Option<usize> {
        self.infosets.iter().position(|s| s.key == key)
    }
}

struct Builder<'a, E: ExtensiveForm> {
    game: &'a E,
    max_nodes: usize,
    tree: Tree,
    /// Information sets by a 64-bit hash of the key (keys are long; storing them twice
    /// would double the build's peak memory); `collisions` holds keys whose hash was taken.
    index: HashMap<u64, u32>,
    collisions: HashMap<String, u32>,
    labels: HashMap<Vec<String>, Arc<[String]>>,
}

impl<E: ExtensiveForm> Builder<'_, E> {
    /// Fills node `id` (already pushed) from state `s`, then its subtree.
    fn expand(&mut self, id: usize, s: E::State) -> Result<(), SolverError> {
        let g = self.game;
        match g.node_kind(&s) {
            NodeKind::Terminal => {
                self.tree.nodes[id] = TreeNode::Terminal(g.utility(&s));
            }
            NodeKind::Chance => {
                let outcomes = g.chance_outcomes(&s);
                let total: f64 = outcomes.iter().map(|o| o.1).sum();
                if outcomes.is_empty() || (total - 1.0).abs() > 1e-9 {
                    return Err(SolverError::BadGame(format!(
                        "chance probabilities sum to {total} at a node of {}",
                        g.name()
                    )));
                }
                let first = self.reserve(outcomes.len())?;
                for (i, (_, pr)) in outcomes.iter().enumerate() {
                    self.tree.chance_probs[first + i] = *pr;
                }
                self.tree.nodes[id] = TreeNode::Chance {
                    first: first as u32,
                    count: outcomes.len() as u32,
                };
                for i in 0..outcomes.len() {
                    let c = self.tree.children[first + i] as usize;
                    self.expand(c, g.child(&s, i))?;
                }
            }
            NodeKind::Decision(player) => {
                let actions = g.actions(&s);
                let key = g.info_set_key(&s);
                if actions.is_empty() || actions.len() > MAX_ACTIONS || player > 1 {
                    return Err(SolverError::BadGame(format!(
                        "information set '{key}': {} actions, player {player} (need 1..={MAX_ACTIONS} actions, player 0 or 1)",
                        actions.len()
                    )));
                }
                let infoset = match self.lookup(&key) {
                    Some(&i) => {
                        let set = &self.tree.infosets[i as usize];
                        if set.player != player || *set.actions != actions[..] {
                            return Err(SolverError::BadGame(format!(
                                "information set '{key}' has nodes with different players or actions"
                            )));
                        }
                        i
                    }
                    None => {
                        let i = self.tree.infosets.len() as u32;
                        let shared = self
                            .labels
                            .entry(actions.clone())
                            .or_insert_with(|| actions.clone().into())
                            .clone();
                        self.tree.infosets.push(InfoSet {
                            key: key.clone(),
                            player,
                            offset: self.tree.num_actions,
                            actions: shared,
                            first_node: 0,
                            num_nodes: 0,
                        });
                        self.tree.num_actions += actions.len();
                        self.insert(key, i);
                        i
                    }
                };
                self.tree.infosets[infoset as usize].num_nodes += 1;
                let first = self.reserve(actions.len())?;
                self.tree.nodes[id] = TreeNode::Decision {
                    player: player as u8,
                    infoset,
                    first: first as u32,
                    count: actions.len() as u32,
                };
                for i in 0..actions.len() {
                    let c = self.tree.children[first + i] as usize;
                    self.expand(c, g.child(&s, i))?;
                }
            }
        }
        Ok(())
    }

    fn hash(key: &str) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault};
        BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(key)
    }

    fn lookup(&self, key: &str) -> Option<&u32> {
        match self.index.get(&Self::hash(key)) {
            Some(i) if self.tree.infosets[*i as usize].key == key => Some(i),
            Some(_) => self.collisions.get(key),
            None => None,
        }
    }

    fn insert(&mut self, key: String, i: u32) {
        match self.index.entry(Self::hash(&key)) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(i);
            }
            std::collections::hash_map::Entry::Occupied(_) => {
                self.collisions.insert(key, i);
            }
        }
    }

    /// Pushes `k` placeholder children; returns the index of the first in the child list.
    fn reserve(&mut self, k: usize) -> Result<usize, SolverError> {
        if self.tree.nodes.len() + k > self.max_nodes {
            return Err(SolverError::TooLarge {
                game: self.game.name(),
                limit: self.max_nodes,
            });
        }
        let first = self.tree.children.len();
        for _ in 0..k {
            self.tree.children.push(self.tree.nodes.len() as u32);
            self.tree.chance_probs.push(1.0);
            self.tree.nodes.push(TreeNode::Terminal(0.0));
        }
        Ok(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Matching pennies with a broken information set: the second mover's key depends on
    /// the first mover's action only through `leak`, and its action lists differ when
    /// `mismatch` is set.
    struct Pennies {
        leak: bool,
        mismatch: bool,
    }

    impl ExtensiveForm for Pennies {
        type State = Vec<usize>;
        fn name(&self) -> String {
            "pennies".into()
        }
        fn root(&self) -> Vec<usize> {
            Vec::new()
        }
        fn node_kind(&self, s: &Vec<usize>) -> NodeKind {
            match s.len() {
                0 => NodeKind::Decision(0),
                1 => NodeKind::Decision(1),
                _ => NodeKind::Terminal,
            }
        }
        fn chance_outcomes(&self, _: &Vec<usize>) -> Vec<(String, f64)> {
            Vec::new()
        }
        fn actions(&self, s: &Vec<usize>) -> Vec<String> {
            if self.mismatch && s == &[1] {
                vec!["h".into()]
            } else {
                vec!["h".into(), "t".into()]
            }
        }
        fn info_set_key(&self, s: &Vec<usize>) -> String {
            if self.leak {
                format!("{s:?}")
            } else {
                format!("p{}", s.len())
            }
        }
        fn child(&self, s: &Vec<usize>, i: usize) -> Vec<usize> {
            let mut c = s.clone();
            c.push(i);
            c
        }
        fn utility(&self, s: &Vec<usize>) -> f64 {
            if s[0] == s[1] { 1.0 } else { -1.0 }
        }
    }

    #[test]
    fn tree_groups_information_sets_and_rejects_inconsistent_ones() {
        let t = Tree::build(
            &Pennies {
                leak: false,
                mismatch: false,
            },
            100,
        )
        .unwrap();
        assert_eq!((t.nodes.len(), t.infosets.len(), t.num_actions), (7, 2, 4));
        assert_eq!(t.nodes_of(1), &[1, 2]);
        assert_eq!(t.nodes_of(0), &[0]);
        // Hidden first move: value 0 in mixed strategies, the uniform profile is exact.
        let e = super::super::best_response::evaluate(&t, &t.uniform_policy());
        assert!(e.exploitability.abs() < 1e-12 && e.value.abs() < 1e-12);
        // Leaking the first move lets the second mover always match.
        let t = Tree::build(
            &Pennies {
                leak: true,
                mismatch: false,
            },
            100,
        )
        .unwrap();
        assert_eq!(t.infosets.len(), 3);
        let br = super::super::best_response::best_response_value(&t, &t.uniform_policy(), 1);
        assert!(
            (br - 1.0).abs() < 1e-12,
            "seat 1 wins -u = 1 by mismatching: {br}"
        );
        let e = Tree::build(
            &Pennies {
                leak: false,
                mismatch: true,
            },
            100,
        )
        .unwrap_err();
        assert!(matches!(e, SolverError::BadGame(_)), "{e}");
        let e = Tree::build(
            &Pennies {
                leak: false,
                mismatch: false,
            },
            5,
        )
        .unwrap_err();
        assert!(matches!(e, SolverError::TooLarge { limit: 5, .. }), "{e}");
    }
}
