//! The arena that holds the search trees of `mcts`, `ismcts` and `cfr`.
//!
//! A tree is over *action sequences* (open loop): chance is sampled inside
//! [`GameState::apply_unchecked`] during the descent, so one node stands for every state reached
//! by the same actions, whatever chance did on the way. Because of that (and, for ISMCTS,
//! because each iteration searches a different determinization) the legal actions seen at a
//! node may differ between visits, so edges are added when an action is first seen, not
//! all at once.
//!
//! Layout (all indices are `u32` into three `Vec`s that are cleared, not freed, between
//! decisions, so a warmed-up agent allocates nothing per iteration):
//! - [`Node`]: the head of each seat's edge list and the head of the joint-children list;
//! - [`Edge`]: one (seat, action) pair at a node with the algorithm's statistics `S`. Each
//!   seat's list is a singly linked list kept sorted by action, so matching it against the
//!   sorted legal actions is one merge walk. At a [`Turn::Player`] node the edge also holds
//!   the child reached by its action;
//! - [`JointChild`]: at a [`Turn::Simultaneous`] node, the child reached by one joint action
//!   (keyed by [`joint_key`]); each acting seat's edges there hold that seat's own
//!   statistics (decoupled selection, Lanctot et al. 2013, Tak et al. 2014).
//!
//! [`Turn::Player`]: crate::game::Turn::Player
//! [`Turn::Simultaneous`]: crate::game::Turn::Simultaneous
//! [`GameState::apply_unchecked`]: crate::game::GameState::apply_unchecked

use crate::game::{JointAction, MAX_PLAYERS, PerSeat, Playable, Seat};

/// The null index: no edge, no child.
pub const NONE: u32 = u32::MAX;

/// Nodes beyond which a search stops expanding (it keeps iterating, with playouts starting
/// at the deepest existing node): a memory guard for long time-based searches.
pub const MAX_NODES: usize = 4_000_000;

/// One tree node: where each seat's edges and the joint children start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Head of each seat's edge list (sorted by action), or [`NONE`].
    pub first: PerSeat<u32>,
}

impl Node {
    const EMPTY: Node = Node {
        first: [NONE; MAX_PLAYERS],
    };
}

/// One (seat, action) pair at a node, with statistics `S`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge<A, S> {
    /// The action.
    pub action: A,
    /// At a turn-based node, the node its action leads to, or [`NONE`] if not expanded.
    pub child: u32,
    /// The next edge of the same seat at the same node (greater action), or [`NONE`].
    pub next: u32,
    /// The algorithm's statistics.
    pub stats: S,
}

/// The child of a simultaneous node reached by one joint action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JointChild {
    /// [`joint_key`] of the joint action.
    pub key: u64,
    /// The child node.
    pub child: u32,
    /// The parent node.
    pub node: u32,
}

/// The hash slot of (node, joint key), before masking (SplitMix64's finaliser).
fn joint_slot(node: u32, key: u64) -> usize {
    crate::rng::mix64(key ^ (u64::from(node) << 40) ^ u64::from(node)) as usize
}

/// A packed key of a joint action: 16 bits per seat holding `action_id + 1` (0 = the seat
/// does not act).
///
/// # Panics
/// Debug builds panic if an action id does not fit in 16 bits.
pub fn joint_key<G: Playable>(joint: &JointAction<G::Action>) -> u64 {
    let mut key = 0u64;
    for (p, a) in joint.iter().enumerate() {
        if let Some(a) = a {
            let id = G::action_id(*a) as u64 + 1;
            debug_assert!(id < 1 << 16, "action id too large for a joint key");
            key |= id << (16 * p);
        }
    }
    key
}

/// A search tree: nodes, edges and joint children in three reused vectors. Node 0 is the
/// root after [`Arena::reset`].
#[derive(Clone, Debug)]
pub struct Arena<A, S> {
    /// The nodes; index 0 is the root.
    pub nodes: Vec<Node>,
    /// The edges of every node.
    pub edges: Vec<Edge<A, S>>,
    /// The joint children of every simultaneous node.
    pub joints: Vec<JointChild>,
    /// Open-addressing index of `joints` by (node, key): a power-of-two table of indices
    /// into `joints` ([`NONE`] = empty slot), kept at most half full. A simultaneous node
    /// can have many joint children (169 at the root of goofspiel(13)), so they are hashed
    /// rather than listed.
    pub joint_index: Vec<u32>,
}

impl<A, S> Default for Arena<A, S> {
    fn default() -> Self {
        Arena {
            nodes: Vec::new(),
            edges: Vec::new(),
            joints: Vec::new(),
            joint_index: Vec::new(),
        }
    }
}

impl<A: Copy + Ord, S: Copy + Default> Arena<A, S> {
    /// Empties the tree (keeping the memory) and adds the root, node 0.
    pub fn reset(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.joints.clear();
        self.joint_index.fill(NONE);
        self.nodes.push(Node::EMPTY);
    }

    /// Adds an empty node and returns its index, or [`NONE`] when the tree already holds
    /// [`MAX_NODES`] nodes.
    pub fn add_node(&mut self) -> u32 {
        if self.nodes.len() >= MAX_NODES {
            return NONE;
        }
        self.nodes.push(Node::EMPTY);
        (self.nodes.len() - 1) as u32
    }

    /// Writes into `out` the index of `seat`'s edge for each of `legal` (same order),
    /// adding the missing edges with default statistics. `legal` must be sorted without
    /// duplicates (the [`GameState::legal_actions`](crate::game::GameState::legal_actions) contract). One merge walk: O(edges + legal).
    pub fn sync_edges(&mut self, node: u32, seat: Seat, legal: &[A], out: &mut Vec<u32>) {
        debug_assert!(
            legal.windows(2).all(|w| w[0] < w[1]),
            "legal actions not sorted"
        );
        out.clear();
        let mut prev = NONE;
        let mut cur = self.nodes[node as usize].first[seat];
        for &a in legal {
            while cur != NONE && self.edges[cur as usize].action < a {
                prev = cur;
                cur = self.edges[cur as usize].next;
            }
            if cur != NONE && self.edges[cur as usize].action == a {
                out.push(cur);
                prev = cur;
                cur = self.edges[cur as usize].next;
                continue;
            }
            let new = self.edges.len() as u32;
            self.edges.push(Edge {
                action: a,
                child: NONE,
                next: cur,
                stats: S::default(),
            });
            if prev == NONE {
                self.nodes[node as usize].first[seat] = new;
            } else {
                self.edges[prev as usize].next = new;
            }
            out.push(new);
            prev = new;
        }
    }

    /// The child of simultaneous node `node` under joint key `key`, or [`NONE`].
    pub fn joint_child(&self, node: u32, key: u64) -> u32 {
        if self.joint_index.is_empty() {
            return NONE;
        }
        let mask = self.joint_index.len() - 1;
        let mut i = joint_slot(node, key) & mask;
        loop {
            let j = self.joint_index[i];
            if j == NONE {
                return NONE;
            }
            let jc = &self.joints[j as usize];
            if jc.node == node && jc.key == key {
                return jc.child;
            }
            i = (i + 1) & mask;
        }
    }

    /// Records `child` as the child of `node` under joint key `key` (which must be new).
    /// Allocates only when the index must grow (it keeps its capacity across decisions).
    pub fn add_joint_child(&mut self, node: u32, key: u64, child: u32) {
        debug_assert_eq!(self.joint_child(node, key), NONE);
        if (self.joints.len() + 1) * 2 > self.joint_index.len() {
            let size = (self.joint_index.len() * 2).max(64);
            self.joint_index.clear();
            self.joint_index.resize(size, NONE);
            for j in 0..self.joints.len() {
                self.index_joint(j as u32);
            }
        }
        self.joints.push(JointChild { key, child, node });
        self.index_joint((self.joints.len() - 1) as u32);
    }

    fn index_joint(&mut self, j: u32) {
        let jc = self.joints[j as usize];
        let mask = self.joint_index.len() - 1;
        let mut i = joint_slot(jc.node, jc.key) & mask;
        while self.joint_index[i] != NONE {
            i = (i + 1) & mask;
        }
        self.joint_index[i] = j;
    }

    /// The edge indices of `seat` at `node`, in action order.
    pub fn seat_edges(&self, node: u32, seat: Seat) -> SeatEdges<'_, A, S> {
        SeatEdges {
            arena: self,
            cur: self.nodes[node as usize].first[seat],
        }
    }

    /// Bytes in use by the tree (lengths, not capacities), for memory reports.
    pub fn bytes_used(&self) -> usize {
        self.nodes.len() * size_of::<Node>()
            + self.edges.len() * size_of::<Edge<A, S>>()
            + self.joints.len() * size_of::<JointChild>()
            + self.joint_index.len() * size_of::<u32>()
    }
}

/// Iterator over one seat's edge indices at one node (see [`Arena::seat_edges`]).
pub struct SeatEdges<'a, A, S> {
    arena: &'a Arena<A, S>,
    cur: u32,
}

impl<A, S> Iterator for SeatEdges<'_, A, S> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.cur == NONE {
            return None;
        }
        let e = self.cur;
        self.cur = self.arena.edges[e as usize].next;
        Some(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sync_edges_merges_new_actions_in_order() {
        let mut t: Arena<u8, u32> = Arena::default();
        t.reset();
        let mut out = Vec::new();
        t.sync_edges(0, 1, &[2, 5], &mut out);
        assert_eq!(out, vec![0, 1]);
        t.edges[1].stats = 7;
        t.sync_edges(0, 1, &[1, 5, 9], &mut out);
        assert_eq!(out, vec![2, 1, 3]);
        let order: Vec<u8> = t
            .seat_edges(0, 1)
            .map(|e| t.edges[e as usize].action)
            .collect();
        assert_eq!(order, vec![1, 2, 5, 9]);
        assert_eq!(t.edges[1].stats, 7);
        assert_eq!(t.seat_edges(0, 0).count(), 0);
    }

    #[test]
    fn joint_children_are_found_by_key() {
        let mut t: Arena<u8, u32> = Arena::default();
        t.reset();
        let c = t.add_node();
        t.add_joint_child(0, 42, c);
        assert_eq!(t.joint_child(0, 42), c);
        assert_eq!(t.joint_child(0, 43), NONE);
        t.reset();
        assert_eq!(t.nodes.len(), 1);
        assert_eq!(t.joint_child(0, 42), NONE);
    }
}
