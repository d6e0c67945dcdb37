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

/// Reused buffers of [`Arena::reroot`].
#[derive(Clone, Debug)]
pub struct Reroot<A, S> {
    /// The new tree being built (swapped with the old one at the end).
    tree: Arena<A, S>,
    /// Old node index -> new node index ([`NONE`]: not in the subtree).
    map: Vec<u32>,
    /// Per old node, the first of its joint children (index into `joints`), or [`NONE`].
    first_joint: Vec<u32>,
    /// Per joint child, the next joint child of the same parent, or [`NONE`].
    next_joint: Vec<u32>,
    /// Old nodes in the order they were copied.
    queue: Vec<u32>,
}

impl<A, S> Default for Reroot<A, S> {
    fn default() -> Self {
        Reroot {
            tree: Arena::default(),
            map: Vec::new(),
            first_joint: Vec::new(),
            next_joint: Vec::new(),
            queue: Vec::new(),
        }
    }
}

impl<A: Copy + Ord, S: Copy + Default> Arena<A, S> {
    /// Makes node `node` the root (node 0): the tree becomes the subtree below `node`,
    /// every node, edge (with its statistics, passed through `keep`) and joint child of it
    /// copied in breadth-first order, the rest dropped; `extra` more nodes are reserved.
    /// Subtree reuse between decisions. Allocates only when the buffers must grow.
    pub fn reroot(
        &mut self,
        node: u32,
        extra: usize,
        buf: &mut Reroot<A, S>,
        keep: impl Fn(S) -> S,
    ) {
        let n = self.nodes.len();
        buf.map.clear();
        buf.map.resize(n, NONE);
        buf.first_joint.clear();
        buf.first_joint.resize(n, NONE);
        buf.next_joint.clear();
        for (j, jc) in self.joints.iter().enumerate() {
            buf.next_joint.push(buf.first_joint[jc.node as usize]);
            buf.first_joint[jc.node as usize] = j as u32;
        }
        let new = &mut buf.tree;
        new.reset();
        buf.queue.clear();
        buf.queue.push(node);
        buf.map[node as usize] = 0;
        let mut head = 0;
        while head < buf.queue.len() {
            let old = buf.queue[head];
            head += 1;
            let at = buf.map[old as usize];
            for seat in 0..MAX_PLAYERS {
                let mut e = self.nodes[old as usize].first[seat];
                let mut prev = NONE;
                while e != NONE {
                    let edge = self.edges[e as usize];
                    let child = if edge.child == NONE {
                        NONE
                    } else {
                        let c = new.nodes.len() as u32;
                        new.nodes.push(Node::EMPTY);
                        buf.map[edge.child as usize] = c;
                        buf.queue.push(edge.child);
                        c
                    };
                    let idx = new.edges.len() as u32;
                    new.edges.push(Edge {
                        action: edge.action,
                        child,
                        next: NONE,
                        stats: keep(edge.stats),
                    });
                    if prev == NONE {
                        new.nodes[at as usize].first[seat] = idx;
                    } else {
                        new.edges[prev as usize].next = idx;
                    }
                    prev = idx;
                    e = edge.next;
                }
            }
            let mut j = buf.first_joint[old as usize];
            while j != NONE {
                let jc = self.joints[j as usize];
                let c = new.nodes.len() as u32;
                new.nodes.push(Node::EMPTY);
                buf.map[jc.child as usize] = c;
                buf.queue.push(jc.child);
                new.add_joint_child(at, jc.key, c);
                j = buf.next_joint[j as usize];
            }
        }
        new.nodes.reserve(extra);
        std::mem::swap(self, new);
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

    /// A tree of 5 nodes: root 0 --a1--> 1 --a3--> 3, root 0 --a2--> 2 with joint child
    /// 4 under key 9. Rerooting at node 1 keeps 1 and 3 with their edges and statistics;
    /// at node 2 it keeps 2 and its joint child.
    #[test]
    fn reroot_keeps_exactly_the_subtree() {
        let build = || {
            let mut t: Arena<u8, u32> = Arena::default();
            t.reset();
            let mut out = Vec::new();
            t.sync_edges(0, 0, &[1, 2], &mut out);
            let (n1, n2) = (t.add_node(), t.add_node());
            t.edges[out[0] as usize].child = n1;
            t.edges[out[1] as usize].child = n2;
            t.edges[out[0] as usize].stats = 10;
            t.sync_edges(n1, 1, &[3, 4], &mut out);
            let n3 = t.add_node();
            t.edges[out[0] as usize].child = n3;
            t.edges[out[0] as usize].stats = 7;
            t.edges[out[1] as usize].stats = 8;
            let n4 = t.add_node();
            t.add_joint_child(n2, 9, n4);
            t.sync_edges(n4, 0, &[5], &mut out);
            t.edges[out[0] as usize].stats = 6;
            t
        };
        let mut buf = Reroot::default();
        let mut t = build();
        t.reroot(1, 10, &mut buf, |s| s + 100);
        assert_eq!(t.nodes.len(), 2);
        let root: Vec<(u8, u32)> = t
            .seat_edges(0, 1)
            .map(|e| (t.edges[e as usize].action, t.edges[e as usize].stats))
            .collect();
        assert_eq!(root, vec![(3, 107), (4, 108)]);
        assert_eq!(t.edges[t.nodes[0].first[1] as usize].child, 1);
        assert_eq!(t.joints.len(), 0);
        let mut t = build();
        t.reroot(2, 0, &mut buf, |s| s);
        assert_eq!(t.nodes.len(), 2);
        let c = t.joint_child(0, 9);
        assert_eq!(c, 1);
        let e = t.nodes[c as usize].first[0];
        assert_eq!(
            (t.edges[e as usize].action, t.edges[e as usize].stats),
            (5, 6)
        );
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
