//! Scoring: the influence awards of each round's end (DAI-6.3, DAI-24), the end of the
//! round and the revenue order, the army ranking, the final scoring (DAI-7.2–7.5), and the
//! projected final popularity the value estimate and the greedy agent use.

use super::ArmyFullTie;
use super::data::MAX_ISLANDS;
use super::state::*;
use crate::game::{MAX_PLAYERS, PerSeat};

impl State {
    /// The popularity each seat earns on each island at this round's influence scoring
    /// (DAI-6.3, DAI-24): `[island][seat]` in PP (islands not in play score 0). A sole
    /// leader takes the round's gold standard and the next group shares the silver one;
    /// tied leaders share both (rounded down); influence ties are broken by Shadows on the
    /// island; a seat below `rank_min_influence` does not rank. The log tells the same
    /// numbers ([`super::log`]).
    pub fn influence_awards(&self) -> [[i16; MAX_PLAYERS]; MAX_ISLANDS] {
        let n = self.n();
        let d = self.data();
        let mut out = [[0i16; MAX_PLAYERS]; MAX_ISLANDS];
        let (gold, silver) = d.round_pp[self.round as usize - 1];
        let min = self.params().rank_min_influence as i16;
        for &i in self.islands() {
            let i = i as usize;
            let mut key = [(0i16, 0u8); MAX_PLAYERS];
            let mut ranked = [false; MAX_PLAYERS];
            for p in 0..n {
                let shadows = self.shadow[i].iter().filter(|&&s| s as usize == p).count() as u8;
                key[p] = (self.influence[i][p], shadows);
                ranked[p] = self.influence[i][p] >= min;
            }
            let best = (0..n).filter(|&p| ranked[p]).map(|p| key[p]).max();
            let Some(best) = best else { continue };
            let top = (0..n).filter(|&p| ranked[p] && key[p] == best).count();
            if top >= 2 {
                let share = (gold + silver) as i16 / top as i16;
                for p in 0..n {
                    if ranked[p] && key[p] == best {
                        out[i][p] += share;
                    }
                }
                continue;
            }
            for p in 0..n {
                if ranked[p] && key[p] == best {
                    out[i][p] += gold as i16;
                }
            }
            let second = (0..n)
                .filter(|&p| ranked[p] && key[p] < best)
                .map(|p| key[p])
                .max();
            if let Some(second) = second {
                let group = (0..n).filter(|&p| ranked[p] && key[p] == second).count();
                let share = silver as i16 / group as i16;
                for p in 0..n {
                    if ranked[p] && key[p] == second {
                        out[i][p] += share;
                    }
                }
            }
        }
        out
    }

    /// Influence scoring (DAI-6.3, DAI-24), then revenue.
    pub(super) fn end_round(&mut self) {
        let awards = self.influence_awards();
        for &i in self.islands() {
            // In island order, as the scoring is told (add_pp of 0 changes nothing).
            for (p, &v) in awards[i as usize].iter().enumerate().take(self.n()) {
                if v != 0 {
                    self.add_pp(p, source::INFLUENCE, v);
                }
            }
        }
        self.phase = Phase::Revenue { k: 0 };
        self.actor = self.first;
    }

    pub(super) fn next_revenue(&mut self) {
        let Phase::Revenue { k } = self.phase else {
            unreachable!()
        };
        let n = self.n() as u8;
        if k + 1 < n {
            self.phase = Phase::Revenue { k: k + 1 };
            self.actor = (self.first + k + 1) % n;
        } else if self.round as usize == self.data().round_pp.len() {
            // DAI-7.1: the game ends after the last round's Revenue.
            self.final_scoring();
            self.phase = Phase::Over;
        } else {
            self.phase = Phase::Helmet;
            self.actor = self.helmet;
        }
    }

    /// Army value (DAI-7.4): Hero costs in hand, deck and discard, plus Gold.
    pub fn army(&self, p: usize) -> u32 {
        let s = &self.seats[p];
        bits(s.hand | s.deck | s.discard)
            .map(|c| self.data().heroes[c].cost as u32)
            .sum::<u32>()
            + s.res[3] as u32
    }

    /// Army comparison key (DAI-7.4): value, fewer Heroes, more value-5, -4, -3, -2.
    fn army_key(&self, p: usize) -> (u32, i32, [u8; 4]) {
        let s = &self.seats[p];
        let cards = s.hand | s.deck | s.discard;
        let mut by_cost = [0u8; 4];
        for c in bits(cards) {
            let cost = self.data().heroes[c].cost;
            if (2..=5).contains(&cost) {
                by_cost[5 - cost as usize] += 1;
            }
        }
        (self.army(p), -(cards.count_ones() as i32), by_cost)
    }

    /// Final scoring (DAI-7.2–7.5).
    pub(super) fn final_scoring(&mut self) {
        let n = self.n();
        let d = self.data();
        for p in 0..n {
            let restored: usize = self.seats[p].restored.iter().map(|&r| r as usize).sum();
            if restored > 0 {
                let v = d.relic_pp[restored.min(d.relic_pp.len()) - 1];
                self.add_pp(p, source::RELICS, v as i16);
            }
            for t in 0..2 {
                let b = self.seats[p].built[t] as usize;
                if b > 0 {
                    self.add_pp(
                        p,
                        source::BUILDINGS,
                        d.buildings[t].popularity[b - 1] as i16,
                    );
                }
            }
        }
        // Army (DAI-7.4, DAI-25).
        let table: &[u8] = if n == 2 { &d.army_pp.0 } else { &d.army_pp.1 };
        let mut keys = [(0u32, 0i32, [0u8; 4]); MAX_PLAYERS];
        for (p, k) in keys.iter_mut().enumerate().take(n) {
            *k = self.army_key(p);
        }
        for p in 0..n {
            let better = (0..n).filter(|&q| keys[q] > keys[p]).count();
            let tied = (0..n).filter(|&q| keys[q] == keys[p]).count();
            let pp_at = |r: usize| table.get(r).copied().unwrap_or(0) as i16;
            let v = match self.params().army_full_tie {
                ArmyFullTie::Split => (better..better + tied).map(pp_at).sum::<i16>() / tied as i16,
                ArmyFullTie::ShareFull => pp_at(better),
            };
            self.add_pp(p, source::ARMY, v);
        }
        let h = self.helmet as usize;
        self.add_pp(h, source::HELMET, d.helmet_pp as i16);
        for p in 0..n {
            let left = self.leftover(p);
            self.add_pp(
                p,
                source::RESOURCES,
                (left / d.resources_per_point as u32) as i16,
            );
        }
    }

    /// Rice + Metal + Crystal left (DAI-7.5, DAI-7.6).
    pub fn leftover(&self, p: usize) -> u32 {
        let r = &self.seats[p].res;
        (r[0] + r[1] + r[2]) as u32
    }
}

impl State {
    /// Projected final popularity per seat (the greedy basis, in PP; the terms are listed
    /// in the module docs, "Value, the greedy heuristic, and metrics"): points so far; the
    /// influence standings scored for the rounds not yet scored; the final-scoring tables
    /// applied to the current relics (plus 1/8 of a Relic per loose tile), buildings, army
    /// ranks, Helmet and leftover resources (0.2 PP each).
    #[allow(clippy::needless_range_loop)] // seats index several arrays at once
    pub fn projected(&self) -> PerSeat<f64> {
        let n = self.n();
        let d = self.data();
        let mut out = [0.0; MAX_PLAYERS];
        for (p, o) in out.iter_mut().enumerate().take(n) {
            let s = &self.seats[p];
            *o = s.popularity as f64;
            let restored: f64 = s.restored.iter().map(|&r| r as f64).sum::<f64>()
                + s.loose.count_ones() as f64 / d.pieces as f64 * 0.5;
            if restored > 0.0 {
                let k = restored.min(d.relic_pp.len() as f64);
                let lo = k.floor() as usize;
                let base = if lo == 0 {
                    0.0
                } else {
                    d.relic_pp[lo - 1] as f64
                };
                let next = d
                    .relic_pp
                    .get(lo)
                    .copied()
                    .unwrap_or(d.relic_pp[d.relic_pp.len() - 1]) as f64;
                *o += base + (next - base) * (k - lo as f64);
            }
            for t in 0..2 {
                let b = s.built[t] as usize;
                if b > 0 {
                    *o += d.buildings[t].popularity[b - 1] as f64;
                }
            }
            // Fractional: each resource counts toward the next lot of 5 (DAI-7.5).
            *o += self.leftover(p) as f64 / d.resources_per_point as f64;
            if self.helmet as usize == p {
                *o += d.helmet_pp as f64;
            }
        }
        // Influence for the rounds still to score, at today's ranks: this round's too, unless
        // it is already scored (revenue, Helmet and hiring follow its scoring, DAI-6.3–6.6).
        let scored = matches!(
            self.phase,
            Phase::Revenue { .. } | Phase::Helmet | Phase::Hire { .. } | Phase::Over
        );
        let first = self.round as usize - 1 + scored as usize;
        let rounds_left = d.round_pp.len().saturating_sub(first);
        let mean = |f: fn(&(u8, u8)) -> u8| {
            d.round_pp[first.min(d.round_pp.len())..]
                .iter()
                .map(f)
                .map(f64::from)
                .sum::<f64>()
        };
        let (gold, silver) = if rounds_left > 0 && self.phase != Phase::Over {
            (mean(|r| r.0), mean(|r| r.1))
        } else {
            (0.0, 0.0)
        };
        for &i in self.islands() {
            let i = i as usize;
            let best = (0..n).map(|p| self.influence[i][p]).max().unwrap_or(0);
            if best <= 0 {
                continue;
            }
            let top = (0..n).filter(|&p| self.influence[i][p] == best).count() as f64;
            for p in 0..n {
                if self.influence[i][p] == best {
                    out[p] += (gold + if top > 1.0 { silver } else { 0.0 }) / top;
                }
            }
            if top == 1.0 {
                let second = (0..n)
                    .map(|p| self.influence[i][p])
                    .filter(|&v| v < best)
                    .max()
                    .unwrap_or(0);
                if second > 0 {
                    let k = (0..n).filter(|&p| self.influence[i][p] == second).count() as f64;
                    for p in 0..n {
                        if self.influence[i][p] == second {
                            out[p] += silver / k;
                        }
                    }
                }
            }
        }
        // Army at today's values.
        let table: &[u8] = if n == 2 { &d.army_pp.0 } else { &d.army_pp.1 };
        for p in 0..n {
            let v = self.army(p);
            let better = (0..n).filter(|&q| self.army(q) > v).count();
            out[p] += table.get(better).copied().unwrap_or(0) as f64;
        }
        out
    }
}
