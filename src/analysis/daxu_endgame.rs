//! Exact equilibrium analysis of Daxu endgames.
//!
//! Method: backward induction over the position tree with every chance event enumerated
//! exactly. At a [`Phase::Choose`] node the two players' action cards form a zero-sum
//! matrix game whose entries are the expected values of the resulting positions; it is
//! solved exactly by linear programming ([`crate::solvers::lp`]). At a [`Phase::Decide`]
//! node the decider takes the better answer. Flips are enumerated by card kind, each with
//! its probability `count / unseen` (the unseen pool includes the 2 removed cards, exactly
//! as in play), and repeats and the empty-deck rule (DAXU-06) follow from the rules
//! engine itself, which is driven through [`State::choose_with`] and [`State::decide_with`]
//! with scripted flips. Positions are memoised by [`State::position_key`].
//!
//! Values are seat 0's probability of winning (the game's returns: win 1, loss 0; Daxu
//! has no draws). The game is constant-sum, so seat 1's value is `1 - v`.
//!
//! The size of the tree grows quickly with the deck; [`Endgame::new`] takes the largest
//! deck it accepts (`K`), and positions with more cards left are refused.

use std::collections::HashMap;

use crate::game::Chance;
use crate::game::{GameState, Seat};
use crate::games::daxu::{Action, Card, NUM_KINDS, Phase, State};
use crate::solvers::lp::solve_zero_sum;

/// Why a position cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndgameError {
    /// The deck is larger than the solver's limit.
    #[error("the deck holds {deck} cards; this endgame solver takes at most {max}")]
    TooLarge {
        /// Cards in the deck.
        deck: u8,
        /// The limit given to [`Endgame::new`].
        max: u8,
    },
}

/// A move at a decision node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Both action cards at a choose node.
    Pair([Action; 2]),
    /// The decider's answer at a decide node.
    Answer(Seat, Action),
}

/// The matrix game at a choose node.
#[derive(Debug, Clone, PartialEq)]
pub struct Stage {
    /// Seat 0's legal action cards (rows).
    pub rows: Vec<Action>,
    /// Seat 1's legal action cards (columns).
    pub cols: Vec<Action>,
    /// `payoff[i][j]`: seat 0's expected equilibrium value after `(rows[i], cols[j])`.
    pub payoff: Vec<Vec<f64>>,
}

/// The solution at a position.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// Seat 0's equilibrium win probability.
    pub value: f64,
    /// Each seat's equilibrium strategy at this node (empty for a seat that does not act):
    /// `(action, probability)`. At a decide node the decider's best answer has probability
    /// 1 (exact ties are split evenly).
    pub policy: [Vec<(Action, f64)>; 2],
}

/// A memoising exact solver for endgames with at most `max_deck` cards left in the deck.
#[derive(Debug)]
pub struct Endgame {
    max_deck: u8,
    memo: HashMap<[u8; 88], f64>,
    /// Positions evaluated (memo misses).
    pub nodes: u64,
}

/// Flips scripted by card kind; records when the script runs out. It mirrors the state's
/// unseen pool (same order, same swap-remove on each draw) to turn a kind into an index.
struct Script<'a> {
    kinds: &'a [u8],
    pool: Vec<Card>,
    used: usize,
    starved: bool,
}

impl Chance for Script<'_> {
    fn below(&mut self, n: u32) -> u32 {
        debug_assert_eq!(
            n as usize,
            self.pool.len(),
            "draws come from the unseen pool"
        );
        let i = match self.kinds.get(self.used) {
            Some(&k) => self
                .pool
                .iter()
                .position(|c| c.0 == k)
                .expect("scripted kinds are drawn from the pool"),
            None => {
                self.starved = true;
                0
            }
        };
        self.pool.swap_remove(i);
        self.used += 1;
        i as u32
    }
}

/// Applies `mv` to `s` with flips drawn by `chance`.
pub fn apply_move<C: Chance + ?Sized>(s: &mut State, mv: Move, chance: &mut C) {
    match mv {
        Move::Pair(p) => s.choose_with(p, chance),
        Move::Answer(p, a) => s.decide_with(p, a, chance),
    }
}

impl Endgame {
    /// A solver accepting positions with at most `max_deck` cards in the deck.
    pub fn new(max_deck: u8) -> Self {
        Endgame {
            max_deck,
            memo: HashMap::new(),
            nodes: 0,
        }
    }

    fn check(&self, s: &State) -> Result<(), EndgameError> {
        if s.deck_len() > self.max_deck {
            Err(EndgameError::TooLarge {
                deck: s.deck_len(),
                max: self.max_deck,
            })
        } else {
            Ok(())
        }
    }

    /// Seat 0's equilibrium win probability at `s`.
    ///
    /// # Errors
    /// [`EndgameError::TooLarge`] when the deck exceeds the limit.
    pub fn value(&mut self, s: &State) -> Result<f64, EndgameError> {
        self.check(s)?;
        Ok(self.value_of(s))
    }

    /// The equilibrium value and strategies at `s`.
    ///
    /// # Errors
    /// [`EndgameError::TooLarge`] when the deck exceeds the limit.
    pub fn solve(&mut self, s: &State) -> Result<Solution, EndgameError> {
        self.check(s)?;
        let mut policy: [Vec<(Action, f64)>; 2] = [Vec::new(), Vec::new()];
        let value = match s.phase() {
            Phase::Over => s.returns()[0],
            Phase::Choose => {
                let st = self.stage(s);
                let sol = solve_zero_sum(&st.payoff);
                policy[0] = st.rows.iter().copied().zip(sol.row).collect();
                policy[1] = st.cols.iter().copied().zip(sol.col).collect();
                sol.value
            }
            Phase::Decide { decider, .. } => {
                let d = decider as Seat;
                let keep = self.expect(s, Move::Answer(d, Action::Keep));
                let pass = self.expect(s, Move::Answer(d, Action::Pass));
                let (mine_keep, mine_pass) = if d == 0 {
                    (keep, pass)
                } else {
                    (1.0 - keep, 1.0 - pass)
                };
                policy[d] = if (mine_keep - mine_pass).abs() < 1e-12 {
                    vec![(Action::Keep, 0.5), (Action::Pass, 0.5)]
                } else if mine_keep > mine_pass {
                    vec![(Action::Keep, 1.0)]
                } else {
                    vec![(Action::Pass, 1.0)]
                };
                if d == 0 {
                    keep.max(pass)
                } else {
                    keep.min(pass)
                }
            }
        };
        Ok(Solution { value, policy })
    }

    /// The matrix game at a choose node, each entry the exact expected value of the
    /// position the pair leads to.
    ///
    /// # Panics
    /// Panics if `s` is not at a choose node.
    pub fn stage(&mut self, s: &State) -> Stage {
        assert_eq!(s.phase(), Phase::Choose, "stage() needs a choose node");
        let mut rows = Vec::new();
        let mut cols = Vec::new();
        s.legal_actions(0, &mut rows);
        s.legal_actions(1, &mut cols);
        let payoff = rows
            .iter()
            .map(|&a| {
                cols.iter()
                    .map(|&b| self.expect(s, Move::Pair([a, b])))
                    .collect()
            })
            .collect();
        Stage { rows, cols, payoff }
    }

    fn value_of(&mut self, s: &State) -> f64 {
        let key = s.position_key();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        self.nodes += 1;
        let v = self.solve(s).expect("children never grow the deck").value;
        self.memo.insert(key, v);
        v
    }

    /// Seat 0's expected value after `mv`, enumerating the flips it causes.
    pub fn expect(&mut self, s: &State, mv: Move) -> f64 {
        expect_over_flips(s, mv, &mut |child| self.value_of(child))
    }

    /// `seat`'s win probability when it plays `policy` at every node of the endgame and
    /// the opponent best-responds (with full knowledge of `policy`). The expected loss of
    /// the policy is `equilibrium value for seat - this` (>= 0 up to rounding).
    ///
    /// `policy(state, seat)` returns a distribution over the seat's legal actions; it is
    /// queried once per distinct position (memoised by [`State::position_key`]).
    ///
    /// # Errors
    /// [`EndgameError::TooLarge`] when the deck exceeds the limit.
    pub fn best_response_value(
        &mut self,
        s: &State,
        seat: Seat,
        policy: &mut Policy<'_>,
    ) -> Result<f64, EndgameError> {
        self.check(s)?;
        let mut memo = HashMap::new();
        Ok(br_value(s, seat, policy, &mut memo))
    }
}

type BrMemo = HashMap<[u8; 88], f64>;

/// A policy queried by [`Endgame::best_response_value`]: the distribution over a seat's
/// legal actions at a position, as `(action, probability)` pairs.
pub type Policy<'a> = dyn FnMut(&State, Seat) -> Vec<(Action, f64)> + 'a;

/// `seat`'s value at `s` under `policy` against a best response (see
/// [`Endgame::best_response_value`]).
fn br_value(s: &State, seat: Seat, policy: &mut Policy<'_>, memo: &mut BrMemo) -> f64 {
    let key = s.position_key();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = match s.phase() {
        Phase::Over => s.returns()[seat],
        Phase::Decide { decider, .. } => {
            let d = decider as Seat;
            let val = |a: Action, policy: &mut Policy<'_>, memo: &mut BrMemo| {
                br_expect(s, Move::Answer(d, a), seat, policy, memo)
            };
            if d == seat {
                let dist = policy(s, seat);
                dist.iter().map(|&(a, p)| p * val(a, policy, memo)).sum()
            } else {
                val(Action::Keep, policy, memo).min(val(Action::Pass, policy, memo))
            }
        }
        Phase::Choose => {
            let dist = policy(s, seat);
            let mut theirs = Vec::new();
            s.legal_actions(1 - seat, &mut theirs);
            theirs
                .iter()
                .map(|&b| {
                    dist.iter()
                        .map(|&(a, p)| {
                            let pair = if seat == 0 { [a, b] } else { [b, a] };
                            p * br_expect(s, Move::Pair(pair), seat, policy, memo)
                        })
                        .sum::<f64>()
                })
                .fold(f64::INFINITY, f64::min)
        }
    };
    memo.insert(key, v);
    v
}

fn br_expect(s: &State, mv: Move, seat: Seat, policy: &mut Policy<'_>, memo: &mut BrMemo) -> f64 {
    expect_over_flips(s, mv, &mut |child| br_value(child, seat, policy, memo))
}

/// The expectation of `value` over the positions `mv` leads to, every sequence of flips it
/// causes enumerated by card kind with its exact probability.
pub fn expect_over_flips(s: &State, mv: Move, value: &mut dyn FnMut(&State) -> f64) -> f64 {
    fn go(s: &State, mv: Move, value: &mut dyn FnMut(&State) -> f64, prefix: &mut Vec<u8>) -> f64 {
        let mut child = s.clone();
        let mut script = Script {
            kinds: prefix,
            pool: s.unseen_cards().to_vec(),
            used: 0,
            starved: false,
        };
        apply_move(&mut child, mv, &mut script);
        if !script.starved {
            return value(&child);
        }
        let mut counts: [u32; NUM_KINDS] = s.unseen().map(|c| c as u32);
        for &k in prefix.iter() {
            counts[k as usize] -= 1;
        }
        let total: u32 = counts.iter().sum();
        let mut v = 0.0;
        for (k, &n) in counts.iter().enumerate() {
            if n > 0 {
                prefix.push(k as u8);
                v += n as f64 / total as f64 * go(s, mv, value, prefix);
                prefix.pop();
            }
        }
        v
    }
    go(s, mv, value, &mut Vec::with_capacity(8))
}

#[cfg(test)]
// The brute-force linear algebra reads best with explicit indices.
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::game::{GameState, default_rules};
    use crate::games::daxu::Setup;
    use crate::rng::test_rng;

    /// Chance by individual card: each index of the unseen pool, probability 1/len.
    struct ByIndex<'a> {
        picks: &'a [usize],
        used: usize,
        starved: bool,
    }

    impl Chance for ByIndex<'_> {
        fn below(&mut self, _n: u32) -> u32 {
            let i = self.picks.get(self.used).copied().unwrap_or_else(|| {
                self.starved = true;
                0
            });
            self.used += 1;
            i as u32
        }
    }

    /// Independent exact matrix-game value by the Shapley–Snow kernel method (Shapley &
    /// Snow 1950): some square submatrix yields equalising strategies that are optimal in
    /// the whole game; try them all and keep the first certified saddle point.
    fn kernel_value(a: &[Vec<f64>]) -> f64 {
        let (m, n) = (a.len(), a[0].len());
        let subsets = |size: usize, k: usize| -> Vec<Vec<usize>> {
            (0u32..1 << size)
                .filter(|b| b.count_ones() as usize == k)
                .map(|b| (0..size).filter(|i| b & (1 << i) != 0).collect())
                .collect()
        };
        for k in 1..=m.min(n) {
            for rows in subsets(m, k) {
                for cols in subsets(n, k) {
                    // Unknowns p (k) and v: Σ_r p_r a[r][c] - v = 0 for c in cols, Σ p = 1.
                    let p = solve_linear(k, |i, j| a[rows[j]][cols[i]]);
                    let q = solve_linear(k, |i, j| a[rows[i]][cols[j]]);
                    let (Some((p, v)), Some((q, _))) = (p, q) else {
                        continue;
                    };
                    if p.iter().chain(&q).any(|&x| x < -1e-9) {
                        continue;
                    }
                    let best_row = (0..m)
                        .map(|i| cols.iter().zip(&q).map(|(&c, &w)| a[i][c] * w).sum::<f64>())
                        .fold(f64::NEG_INFINITY, f64::max);
                    let worst_col = (0..n)
                        .map(|j| rows.iter().zip(&p).map(|(&r, &w)| a[r][j] * w).sum::<f64>())
                        .fold(f64::INFINITY, f64::min);
                    if best_row <= v + 1e-9 && worst_col >= v - 1e-9 {
                        return v;
                    }
                }
            }
        }
        panic!("no kernel found")
    }

    /// Solves Σ_j w_j coef(i, j) = v (i < k), Σ w = 1 by Gaussian elimination.
    fn solve_linear(k: usize, coef: impl Fn(usize, usize) -> f64) -> Option<(Vec<f64>, f64)> {
        let size = k + 1;
        let mut m = vec![vec![0.0; size + 1]; size];
        for i in 0..k {
            for j in 0..k {
                m[i][j] = coef(i, j);
            }
            m[i][k] = -1.0;
        }
        for j in 0..k {
            m[k][j] = 1.0;
        }
        m[k][size] = 1.0;
        for c in 0..size {
            let piv = (c..size).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
            if m[piv][c].abs() < 1e-12 {
                return None;
            }
            m.swap(c, piv);
            for r in 0..size {
                if r != c {
                    let f = m[r][c] / m[c][c];
                    for x in c..=size {
                        m[r][x] -= f * m[c][x];
                    }
                }
            }
        }
        let sol: Vec<f64> = (0..size).map(|i| m[i][size] / m[i][i]).collect();
        Some((sol[..k].to_vec(), sol[k]))
    }

    /// Brute force: card-level chance, no memo, kernel-method matrix games.
    fn brute(s: &State) -> f64 {
        match s.phase() {
            Phase::Over => s.returns()[0],
            Phase::Decide { decider, .. } => {
                let d = decider as Seat;
                let k = brute_expect(s, Move::Answer(d, Action::Keep));
                let p = brute_expect(s, Move::Answer(d, Action::Pass));
                if d == 0 { k.max(p) } else { k.min(p) }
            }
            Phase::Choose => {
                let (mut r, mut c) = (Vec::new(), Vec::new());
                s.legal_actions(0, &mut r);
                s.legal_actions(1, &mut c);
                let a: Vec<Vec<f64>> = r
                    .iter()
                    .map(|&x| {
                        c.iter()
                            .map(|&y| brute_expect(s, Move::Pair([x, y])))
                            .collect()
                    })
                    .collect();
                kernel_value(&a)
            }
        }
    }

    fn brute_expect(s: &State, mv: Move) -> f64 {
        fn go(s: &State, mv: Move, picks: &mut Vec<usize>) -> f64 {
            let mut child = s.clone();
            let mut ch = ByIndex {
                picks,
                used: 0,
                starved: false,
            };
            apply_move(&mut child, mv, &mut ch);
            if !ch.starved {
                return brute(&child);
            }
            let pool = s.unseen().iter().map(|&c| c as usize).sum::<usize>() - picks.len();
            let mut v = 0.0;
            for i in 0..pool {
                picks.push(i);
                v += go(s, mv, picks) / pool as f64;
                picks.pop();
            }
            v
        }
        go(s, mv, &mut Vec::new())
    }

    fn position(seed: u64, deck: u8, removed: u8) -> State {
        // A late position: random sides and reputations, a random unseen pool.
        use rand::RngExt;
        let mut rng = test_rng(seed);
        let mut unseen = [0u8; NUM_KINDS];
        for _ in 0..deck + removed {
            unseen[rng.random_range(0..NUM_KINDS)] += 1;
        }
        let mut sides = [[0u8; 6]; 2];
        for side in sides.iter_mut() {
            for c in side.iter_mut() {
                *c = rng.random_range(0..6);
            }
        }
        let offer = (0..3)
            .map(|_| Card(rng.random_range(0..NUM_KINDS as u8)))
            .collect();
        let setup = Setup {
            sides,
            reps: [rng.random_range(-3..4), rng.random_range(-3..4)],
            holder: rng.random_range(0..2),
            offer,
            unseen,
            deck_len: deck,
            hands: [0b1111; 2],
            round: 11,
        };
        State::from_setup(default_rules(), &setup, &mut rng).unwrap()
    }

    #[test]
    fn agrees_with_brute_force_with_three_and_four_cards_left() {
        for (seed, deck, removed) in [
            (1, 3, 2),
            (2, 3, 0),
            (3, 4, 0),
            (4, 3, 1),
            (5, 4, 0),
            (6, 3, 2),
        ] {
            let s = position(seed, deck, removed);
            let mut eg = Endgame::new(4);
            let v = eg.value(&s).unwrap();
            let b = brute(&s);
            assert!(
                (v - b).abs() < 1e-9,
                "seed {seed}: solver {v} vs brute force {b}\n{s}"
            );
            assert!((0.0..=1.0).contains(&v));
        }
    }

    #[test]
    fn refuses_large_decks_and_solves_terminal_positions() {
        let mut rng = test_rng(0);
        let s = State::new_game(default_rules(), &mut rng);
        assert_eq!(
            Endgame::new(6).value(&s).unwrap_err(),
            EndgameError::TooLarge { deck: 33, max: 6 }
        );
        let mut t = position(9, 0, 2);
        let mut buf = Vec::new();
        crate::game::random_playout(&mut t, &mut buf, &mut rng);
        assert_eq!(Endgame::new(0).value(&t).unwrap(), t.returns()[0]);
    }

    #[test]
    fn equilibrium_policy_is_unexploitable_and_always_give_is_not() {
        let mut worst_give_loss: f64 = 0.0;
        for seed in 10..16 {
            let s = position(seed, 3, 2);
            let mut eg = Endgame::new(4);
            let v = eg.value(&s).unwrap();
            for seat in 0..2 {
                let eq = if seat == 0 { v } else { 1.0 - v };
                let mut oracle = Endgame::new(4);
                let mut policy = |st: &State, p: Seat| oracle.solve(st).unwrap().policy[p].clone();
                let br = eg.best_response_value(&s, seat, &mut policy).unwrap();
                assert!(
                    (br - eq).abs() < 1e-9,
                    "seed {seed} seat {seat}: {br} vs {eq}"
                );
                let mut give = |st: &State, p: Seat| {
                    let mut l = Vec::new();
                    st.legal_actions(p, &mut l);
                    let a = if l.contains(&Action::Give) {
                        Action::Give
                    } else {
                        l[0]
                    };
                    vec![(a, 1.0)]
                };
                let br = eg.best_response_value(&s, seat, &mut give).unwrap();
                assert!(br <= eq + 1e-9, "no policy beats the equilibrium value");
                worst_give_loss = worst_give_loss.max(eq - br);
            }
        }
        assert!(
            worst_give_loss > 0.05,
            "always-Give is exploitable: {worst_give_loss}"
        );
    }

    #[test]
    fn scripted_flips_follow_the_pool() {
        let s = position(20, 4, 0);
        // Enumerated probabilities over the next position sum to one.
        let total = expect_over_flips(&s, Move::Pair([Action::Take, Action::Give]), &mut |_| 1.0);
        assert!((total - 1.0).abs() < 1e-12);
    }
}
