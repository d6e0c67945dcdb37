//! Multiple-Observer ISMCTS (MO-ISMCTS; Cowling, Powley & Whitehouse 2012, "Information Set
//! Monte Carlo Tree Search", IEEE TCIAIG 4(2), §V-C and Algorithm 4): `ismcts:observers=multi`.
//!
//! **Why.** Single-observer ISMCTS ([`super::ismcts`]) keeps one tree over action sequences.
//! When an opponent makes a move the searching seat does not see (Dunhuang's setup keep,
//! DUN-2.3, Interpreter/Diplomat keep, DUN-5.5/5.6, a Trader/Merchant give between two other
//! seats, a face-down Painter discard, DUN-13), each determinization's actual move becomes
//! its own edge, so every node below it is conditioned on information nobody but the
//! mover has: the searching seat's later decisions in the tree are made as if it had seen
//! the hidden move, and the values backed up to the root assume it did (the paper's
//! "information leak" of SO-ISMCTS with partially observable moves). In a game where a
//! hidden choice is followed by a guess, SO-ISMCTS at the hider's root finds every hiding
//! move lost (the guesser, seeing it, always matches); the known answer is one half
//! (`tests/integration/search.rs`, `HiddenGuess`).
//!
//! **What.** One tree per seat, all rooted at the decision being searched. A node of seat
//! `i`'s tree stands for what `i` has observed since the root. Each iteration samples one
//! determinization and descends every tree at once:
//! - where seat `p` acts, `p` selects in its own tree (UCB1 with availability counts and
//!   the other options of `ismcts`: the `sm` rule at a simultaneous node, progressive
//!   `bias`), and its tree follows the chosen edge;
//! - every other tree `i` follows the child keyed by the move *as `i` sees it*: the action
//!   itself when `i` sees it ([`GameLog::seen_by`](crate::games::log::GameLog::seen_by), from
//!   the game's log: every seat for a public move, the two parties for a Dunhuang give),
//!   else only "seat `p` moved" (one child for all of `p`'s hidden moves, which is where
//!   MO-ISMCTS merges what SO-ISMCTS splits);
//! - when some tree has no node for the step yet, each tree that lacks one gets it (one
//!   node per tree per iteration) and a playout ([`super::rollout`]) gives the rewards;
//! - the backup adds each seat's reward to the edges it chose in its own tree (max^n).
//!
//! The searching seat's root statistics, and so its move, come from its own tree. With
//! only public moves every tree follows the same path and the searching seat's tree
//! equals SO-ISMCTS's (the others hold the same statistics for their own moves), so the
//! two play alike, at the cost of `n` tree lookups per step.
//!
//! Chance is open loop (sampled inside `apply`) as in the default `ismcts`; with
//! `chance=closed` the searching seat's tree also keys each child by that seat's
//! information key after the step (what it has observed, chance included), as `ismcts`
//! does; the other trees stay keyed by the moves as seen (their owners' information keys
//! differ between determinizations). With `root=sh` the searching seat's root is spent by
//! Sequential Halving, as in `ismcts`. `reuse` is not combined with it (validated in
//! [`super::ismcts`]). A hidden move that changes which actions a seat has next is handled
//! as in SO-ISMCTS, by availability counts.
//!
//! Memory: `n` arenas, each reserved for `iters + 1` nodes and reused across decisions; an
//! iteration allocates nothing once they have grown (`tests/integration/alloc.rs`).

use super::mcts::{UctSearch, closed_key};
use super::rollout::Rollout;
use crate::game::{JointAction, MAX_PLAYERS, Playable, Turn};
use crate::rng::{SimRng, mix64};

/// A step of one iteration: the edge `seat` chose at `node` of its own tree.
#[derive(Clone, Copy, Debug)]
struct MoStep {
    seat: u8,
    node: u32,
    edge: u32,
    prob: f64,
}

/// The key of seat `p`'s move in a tree whose owner sees it (`action_id + 1`) or not (0).
#[inline]
fn seen_key(p: usize, id: u64) -> u64 {
    mix64(((p as u64) << 32) ^ id ^ 0x9e37_79b9_7f4a_7c15)
}

/// The MO-ISMCTS search: one [`UctSearch`] per seat (only their arenas, buffers and
/// selection rules are used), a shared playout policy, and the iteration's path.
#[derive(Debug, Clone)]
pub(crate) struct MoSearch<G: Playable> {
    /// The tree of seat `i` (grown to the player count on first use).
    trees: Vec<UctSearch<G>>,
    /// The configuration every tree is cloned from.
    prototype: UctSearch<G>,
    rollout: Rollout<G>,
    path: Vec<MoStep>,
    /// Seats in the game being searched.
    players: usize,
    /// The searching seat.
    observer: usize,
    /// `chance=closed`: the searching seat's tree keys children by its information key.
    closed: bool,
    /// `root=sh`: Sequential Halving at the searching seat's root.
    sh: bool,
}

impl<G: Playable> MoSearch<G> {
    /// A search whose trees select as `prototype` (an empty [`UctSearch`] with the agent's
    /// `c`, availability counts, `sm`, `gamma` and `bias`), with playouts `rollout`.
    /// `closed` and `sh` are the agent's `chance=closed` and `root=sh`; `prototype` carries
    /// the same (its [`UctSearch::begin`] starts the halving schedule).
    pub(crate) fn new(
        prototype: UctSearch<G>,
        rollout: Rollout<G>,
        closed: bool,
        sh: bool,
    ) -> Self {
        MoSearch {
            trees: Vec::new(),
            prototype,
            rollout,
            path: Vec::new(),
            players: 0,
            observer: 0,
            closed,
            sh,
        }
    }

    /// Starts a search of `iters` iterations for `seat`, whose legal actions at the root
    /// are `mine` (sorted), in a game of `players` seats: every tree emptied (keeping its
    /// memory) with room for `iters + 1` nodes; under `root=sh` the searching seat's halving
    /// schedule started (`anytime`: a time budget, [`UctSearch::begin`]).
    pub(crate) fn begin(
        &mut self,
        iters: u32,
        seat: usize,
        mine: &[G::Action],
        players: usize,
        anytime: bool,
    ) {
        while self.trees.len() < players {
            self.trees.push(self.prototype.clone());
        }
        self.players = players;
        self.observer = seat;
        for (i, t) in self.trees[..players].iter_mut().enumerate() {
            if i == seat {
                t.begin(iters, seat, mine, anytime, super::tree::NONE);
            } else {
                t.reset(iters);
            }
        }
        self.rollout.begin_search();
    }

    /// The tree of `seat` (root statistics, memory reports).
    pub(crate) fn tree(&mut self, seat: usize) -> &mut UctSearch<G> {
        &mut self.trees[seat]
    }

    /// Bytes used by all trees (lengths, not capacities).
    pub(crate) fn bytes_used(&self) -> usize {
        self.trees[..self.players]
            .iter()
            .map(|t| t.arena.bytes_used())
            .sum()
    }

    /// The child of `node` in tree `i` under `key`, added when missing: returns it and
    /// whether it was added (a full arena returns [`super::tree::NONE`], added).
    fn follow(&mut self, i: usize, node: u32, key: u64) -> (u32, bool) {
        let arena = &mut self.trees[i].arena;
        let child = arena.joint_child(node, key);
        if child != super::tree::NONE {
            return (child, false);
        }
        let child = arena.add_node();
        if child != super::tree::NONE {
            arena.add_joint_child(node, key, child);
        }
        (child, true)
    }

    /// One iteration from the determinization `state` (consumed).
    pub(crate) fn iterate(&mut self, mut state: G, rng: &mut SimRng) {
        let n = self.players;
        for t in &mut self.trees[..n] {
            t.tick();
        }
        self.path.clear();
        let log = G::log();
        let mut cur = [0u32; MAX_PLAYERS];
        let rewards = 'descent: loop {
            match state.turn() {
                Turn::Terminal => break state.returns(),
                Turn::Player(p) => {
                    let halving = self.sh && p == self.observer && cur[p] == 0;
                    let (e, prob) = self.trees[p].choose(cur[p], p, &state, (false, halving), rng);
                    self.path.push(MoStep {
                        seat: p as u8,
                        node: cur[p],
                        edge: e,
                        prob,
                    });
                    let action = self.trees[p].arena.edges[e as usize].action;
                    let seen = log.seen_by(&state, p, action);
                    self.rollout.note(p, action);
                    state.apply_unchecked(p, action, rng);
                    let id = G::action_id(action) as u64 + 1;
                    let mut added = false;
                    let info = if self.closed {
                        state.info_key(self.observer)
                    } else {
                        0
                    };
                    for i in 0..n {
                        if self.closed && i == self.observer {
                            let shown = i == p || seen.contains(i);
                            let key = closed_key(seen_key(p, if shown { id } else { 0 }), info);
                            let (child, new) = self.follow(i, cur[i], key);
                            cur[i] = child;
                            added |= new;
                        } else if i == p {
                            let child = self.trees[p].arena.edges[e as usize].child;
                            if child == super::tree::NONE {
                                let arena = &mut self.trees[p].arena;
                                let new = arena.add_node();
                                arena.edges[e as usize].child = new;
                                added = true;
                            }
                            cur[p] = self.trees[p].arena.edges[e as usize].child;
                        } else {
                            let key = seen_key(p, if seen.contains(i) { id } else { 0 });
                            let (child, new) = self.follow(i, cur[i], key);
                            cur[i] = child;
                            added |= new;
                        }
                    }
                    if added {
                        break 'descent self.rollout.run(&mut state, rng);
                    }
                }
                Turn::Simultaneous(set) => {
                    let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
                    for p in set.iter() {
                        let halving = self.sh && p == self.observer && cur[p] == 0;
                        let (e, prob) =
                            self.trees[p].choose(cur[p], p, &state, (true, halving), rng);
                        self.path.push(MoStep {
                            seat: p as u8,
                            node: cur[p],
                            edge: e,
                            prob,
                        });
                        let action = self.trees[p].arena.edges[e as usize].action;
                        self.rollout.note(p, action);
                        joint[p] = Some(action);
                    }
                    // Each tree's key: the joint move as its owner sees it (its own
                    // choice always, the others' when the log says it sees them).
                    let mut keys = [0u64; MAX_PLAYERS];
                    for p in set.iter() {
                        let action = joint[p].expect("every acting seat chose");
                        let seen = log.seen_by(&state, p, action);
                        let id = G::action_id(action) as u64 + 1;
                        for (i, k) in keys.iter_mut().enumerate().take(n) {
                            let shown = i == p || seen.contains(i);
                            *k ^= seen_key(p, if shown { id } else { 0 });
                        }
                    }
                    state.apply_joint_unchecked(&joint, rng);
                    if self.closed {
                        let o = self.observer;
                        keys[o] = closed_key(keys[o], state.info_key(o));
                    }
                    let mut added = false;
                    for (i, &key) in keys.iter().enumerate().take(n) {
                        let (child, new) = self.follow(i, cur[i], key);
                        cur[i] = child;
                        added |= new;
                    }
                    if added {
                        break 'descent self.rollout.run(&mut state, rng);
                    }
                }
            }
        };
        self.rollout.learn(&rewards);
        for step in &self.path {
            let seat = usize::from(step.seat);
            self.trees[seat].back_up(step.node, step.edge, seat, step.prob, rewards[seat]);
        }
    }
}
