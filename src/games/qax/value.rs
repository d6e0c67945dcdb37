//! The value estimate ([`crate::Playable::value`]) and the heuristic behind `greedy`: a
//! softmax over each seat's *projected wealth* (see the module docs of [`super`] for the
//! terms and the measurements behind the weights).

use super::board::cells;
use super::state::{NONE, Phase, State, UNSET};
use super::{NUM_COMPANIES, Rating};
use crate::game::{GameState, MAX_PLAYERS, PerSeat, Seat};

/// The weights of the projected wealth, in coins (module docs of [`super`], "Value
/// estimate"; chosen with `examples/qax_tuning.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// A held share is worth `alpha · price + (1 − alpha) · 2`: between its price on the
    /// (effective) Index and the mean price 2 of the next Indexes.
    pub alpha: f64,
    /// An owned company is worth `own_base + own_income · income` beyond its shares
    /// (income: +2 Hausse, +1 Nominale, −1 Baisse on the effective Index).
    pub own_base: f64,
    /// See `own_base`.
    pub own_income: f64,
    /// Penalty per own stack next to an opponent stack of the same height.
    pub threat: f64,
    /// Penalty per own stack with no field next to it (it cannot move).
    pub stuck: f64,
    /// Temperature of the softmax as a fraction of the coin goal.
    pub temperature: f64,
    /// Weight of the actor's best trade option in the trade step (0 or 1).
    pub option: f64,
}

/// The weights `value` uses (module docs of [`super`], "Value estimate").
pub const WEIGHTS: Weights = Weights {
    alpha: 0.25,
    own_base: 3.0,
    own_income: 1.0,
    threat: 0.5,
    stuck: 1.0,
    temperature: 1.0 / 6.0,
    option: 1.0,
};

impl State {
    /// The rating of `company` that prices trades from now on: during the Index setting
    /// the new Index (for a company not yet rated, the mean over the ratings still to
    /// place, as `(price, income)`), otherwise the current Index; before the first Index,
    /// Nominale-like `(2, 0)`.
    fn effective(&self, company: usize) -> (f64, f64) {
        let of = |r: u8| {
            let r = Rating::ALL[r as usize];
            (r.price() as f64, r.income() as f64)
        };
        if let Phase::SetIndex { .. } = self.phase {
            let r = self.new_index[company];
            if r != UNSET {
                return of(r);
            }
            let mut left = [3u8; 3];
            for &x in &self.new_index {
                if x != UNSET {
                    left[x as usize] -= 1;
                }
            }
            let total: u8 = left.iter().sum();
            let (mut p, mut i) = (0.0, 0.0);
            for r in 0..3u8 {
                let (rp, ri) = of(r);
                p += rp * left[r as usize] as f64;
                i += ri * left[r as usize] as f64;
            }
            return (p / total as f64, i / total as f64);
        }
        match self.index[company] {
            UNSET => (2.0, 0.0),
            r => of(r),
        }
    }

    /// The worth of `company` to a seat holding `mine` of its shares: share values and
    /// ownership (module docs).
    fn company_worth(w: &Weights, eff: (f64, f64), mine: u8) -> f64 {
        let (price, income) = eff;
        let mut x = mine as f64 * (w.alpha * price + (1.0 - w.alpha) * 2.0);
        if mine == 4 {
            x += w.own_base + w.own_income * income;
        }
        x
    }

    /// The projected wealth of every seat under `w` (module docs).
    pub(super) fn wealth_with(&self, w: &Weights) -> PerSeat<f64> {
        let n = self.num_players();
        let mut out = [0.0; MAX_PLAYERS];
        for (p, x) in out.iter_mut().enumerate().take(n) {
            *x = self.coins[p] as f64;
        }
        // Shares, progress and ownership per company.
        for c in 0..NUM_COMPANIES {
            let mut held = [0u8; MAX_PLAYERS];
            for &h in &self.share[4 * c..4 * c + 4] {
                if h != NONE {
                    held[h as usize] += 1;
                }
            }
            if held.iter().all(|&k| k == 0) {
                continue;
            }
            let eff = self.effective(c);
            for p in 0..n {
                if held[p] > 0 {
                    out[p] += Self::company_worth(w, eff, held[p]);
                }
            }
        }
        // Stacks: threatened or stuck.
        let geo = &self.rules.data().geo;
        for (p, x) in out.iter_mut().enumerate().take(n) {
            for &s in &self.stacks[p] {
                if s == NONE {
                    continue;
                }
                let nb = geo.neigh[s as usize];
                if nb & self.fields == 0 {
                    *x -= w.stuck;
                    continue;
                }
                let h = self.height[s as usize];
                let threatened = cells(nb).any(|c| {
                    let o = self.owner[c as usize];
                    o != NONE && o as Seat != p && self.height[c as usize] == h
                });
                if threatened {
                    *x -= w.threat;
                }
            }
        }
        // The trade the actor is about to make: its best option (pass is worth 0).
        if self.phase == Phase::Trade && w.option > 0.0 {
            let a = self.actor as usize;
            let f = self.field[self.moved_to as usize] as usize;
            let c = f / 4;
            let eff = self.effective(c);
            let price = self.index_price(f as u8) as f64;
            let mine = self.share[4 * c..4 * c + 4]
                .iter()
                .filter(|&&h| h as usize == a)
                .count() as u8;
            let now = Self::company_worth(w, eff, mine);
            let gain = if self.share[f] == NONE {
                if self.coins[a] as f64 >= price {
                    Self::company_worth(w, eff, mine + 1) - now - price
                } else {
                    0.0
                }
            } else if self.share[f] as usize == a {
                Self::company_worth(w, eff, mine - 1) - now + price
            } else {
                0.0
            };
            out[a] += w.option * gain.max(0.0);
        }
        out
    }

    /// The value estimate under `w`: a softmax over the projected wealth with a
    /// temperature of `w.temperature` × the coin goal; the returns at the end. One entry
    /// per seat in `0..1`, summing to 1 over the seats in play.
    pub fn value_with(&self, w: &Weights) -> PerSeat<f64> {
        if self.phase == Phase::Over {
            return self.returns();
        }
        let wealth = self.wealth_with(w);
        crate::game::win_share_from_scores(
            &wealth,
            self.num_players(),
            self.rules.data().goal as f64 * w.temperature,
        )
    }
}
