//! Ratings from pairwise results and rank orders: the Bradley–Terry model ([`PairwiseResults`],
//! 2 seats or round robins of pairs) and the Plackett–Luce model ([`RankOrders`], rank orders
//! of 3–4 seats), fitted by maximum likelihood, reported on the Elo scale with 95% intervals
//! (Fisher information, or the bootstrap: [`bradley_terry_bootstrap`],
//! [`RankOrders::ratings`]).
//!
//! Model (Bradley & Terry 1952): agent `i` beats agent `j` with probability
//! `exp(θ_i) / (exp(θ_i) + exp(θ_j))`. A draw counts as half a win for each side. The
//! strengths are fitted by the minorisation–maximisation iteration of Hunter (2004),
//! `π_i ← W_i / Σ_j n_ij / (π_i + π_j)`, then anchored so that the first agent has
//! rating 0. Standard errors come from the inverse of the observed Fisher information with
//! the anchor removed. Elo = `400 / ln 10 · θ`, so a 100-point gap is a 64% expected score.

/// Pairwise results between `n` agents.
#[derive(Debug, Clone, PartialEq)]
pub struct PairwiseResults {
    /// Agent names, in order.
    pub names: Vec<String>,
    /// `wins[i][j]`: games `i` won against `j`, draws counted as 0.5.
    pub wins: Vec<Vec<f64>>,
}

/// One agent's rating.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    /// Agent name.
    pub name: String,
    /// Elo-scale rating, the first agent anchored at 0.
    pub elo: f64,
    /// Lower end of the 95% interval (NaN when not estimable).
    pub ci_low: f64,
    /// Upper end of the 95% interval.
    pub ci_high: f64,
    /// Games played.
    pub games: f64,
    /// Score (wins + draws/2) over games.
    pub score: f64,
}

/// Elo points per unit of Bradley–Terry strength θ.
pub const ELO_PER_THETA: f64 = 400.0 / std::f64::consts::LN_10;

impl PairwiseResults {
    /// Empty results for these agents.
    pub fn new(names: Vec<String>) -> Self {
        let n = names.len();
        PairwiseResults {
            names,
            wins: vec![vec![0.0; n]; n],
        }
    }

    /// Records `score_i` (1 win, 0.5 draw, 0 loss) for `i` in one game against `j`.
    pub fn record(&mut self, i: usize, j: usize, score_i: f64) {
        self.wins[i][j] += score_i;
        self.wins[j][i] += 1.0 - score_i;
    }

    /// Fits the model. Agents that won or lost every game get an infinite rating, which
    /// the MM iteration approaches without reaching; to keep estimates finite a prior of
    /// one virtual draw against every opponent is added (a standard regularisation).
    pub fn fit(&self) -> Vec<Rating> {
        let n = self.names.len();
        let w = |i: usize, j: usize| self.wins[i][j] + if i != j { 0.5 } else { 0.0 };
        let games = |i: usize, j: usize| w(i, j) + w(j, i);
        let mut pi = vec![1.0f64; n];
        for _ in 0..10_000 {
            let mut next = vec![0.0; n];
            for i in 0..n {
                let wi: f64 = (0..n).filter(|&j| j != i).map(|j| w(i, j)).sum();
                let denom: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| games(i, j) / (pi[i] + pi[j]))
                    .sum();
                next[i] = if denom > 0.0 { wi / denom } else { pi[i] };
            }
            let norm = next[0];
            for x in next.iter_mut() {
                *x /= norm;
            }
            let delta = next
                .iter()
                .zip(&pi)
                .map(|(a, b)| (a.ln() - b.ln()).abs())
                .fold(0.0, f64::max);
            pi = next;
            if delta < 1e-12 {
                break;
            }
        }
        let theta: Vec<f64> = pi.iter().map(|p| p.ln()).collect();
        // Observed information for θ_1..θ_{n-1} (θ_0 = 0 anchored).
        let m = n.saturating_sub(1);
        let mut info = vec![vec![0.0; m]; m];
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                let v = games(i, j) * p * (1.0 - p) / 2.0;
                if i > 0 {
                    info[i - 1][i - 1] += v;
                    if j > 0 {
                        info[i - 1][j - 1] -= v;
                    }
                }
                if j > 0 {
                    info[j - 1][j - 1] += v;
                    if i > 0 {
                        info[j - 1][i - 1] -= v;
                    }
                }
            }
        }
        let cov = invert(&info);
        (0..n)
            .map(|i| {
                let se = if i == 0 {
                    0.0
                } else {
                    cov.as_ref()
                        .map_or(f64::NAN, |c| c[i - 1][i - 1].max(0.0).sqrt())
                };
                let g: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| self.wins[i][j] + self.wins[j][i])
                    .sum();
                let s: f64 = (0..n).filter(|&j| j != i).map(|j| self.wins[i][j]).sum();
                let elo = theta[i] * ELO_PER_THETA;
                Rating {
                    name: self.names[i].clone(),
                    elo,
                    ci_low: elo - 1.959964 * se * ELO_PER_THETA,
                    ci_high: elo + 1.959964 * se * ELO_PER_THETA,
                    games: g,
                    score: if g > 0.0 { s / g } else { f64::NAN },
                }
            })
            .collect()
    }
}

/// Gauss–Jordan inverse of a small symmetric positive-definite matrix; `None` if singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = r.clone();
            row.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            row
        })
        .collect();
    for c in 0..n {
        let piv = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[piv][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, piv);
        let d = m[c][c];
        for x in m[c].iter_mut() {
            *x /= d;
        }
        for r in 0..n {
            if r != c {
                let f = m[r][c];
                let pivot_row = m[c].clone();
                for (x, p) in m[r].iter_mut().zip(&pivot_row) {
                    *x -= f * p;
                }
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// The Elo-scale percentile bootstrap intervals `(2.5%, 97.5%)` of a set of strengths:
/// `replicates` is one vector of Elo ratings per bootstrap replicate.
fn percentile_intervals(replicates: &[Vec<f64>], agents: usize) -> Vec<(f64, f64)> {
    (0..agents)
        .map(|i| {
            let mut v: Vec<f64> = replicates.iter().map(|r| r[i]).collect();
            v.sort_by(f64::total_cmp);
            (
                super::quantile(&v, 0.025).unwrap_or(f64::NAN),
                super::quantile(&v, 0.975).unwrap_or(f64::NAN),
            )
        })
        .collect()
}

/// The results of one pair of agents (a `pairs.csv` row): agents `a` and `b` (indices
/// into the names) and the games each won and drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairCount {
    /// The first agent.
    pub a: usize,
    /// The second agent.
    pub b: usize,
    /// Games `a` won.
    pub a_wins: u64,
    /// Games `b` won.
    pub b_wins: u64,
    /// Drawn games.
    pub draws: u64,
}

/// Bradley–Terry ratings of a round robin ([`PairwiseResults::fit`]) with **bootstrap**
/// intervals instead of the Fisher-information ones: `replicates` times, every pair's
/// games are resampled with replacement (a stratified nonparametric bootstrap: each pair
/// keeps its number of games; Efron & Tibshirani 1993, ch. 6) from a generator seeded
/// with `seed` ([`crate::rng::rng_from_seed`]), the model is refitted, and each agent's
/// interval is the 2.5% and 97.5% type 7 quantile of its replicate ratings (the
/// percentile method). The first agent is the anchor (0) in every replicate, so its
/// interval is `[0, 0]` and the others measure the distance from it.
///
/// # Panics
/// If a pair names an agent outside `names`.
pub fn bradley_terry_bootstrap(
    names: &[String],
    pairs: &[PairCount],
    replicates: usize,
    seed: u64,
) -> Vec<Rating> {
    use rand::RngExt;
    let n = names.len();
    let build = |counts: &mut dyn FnMut(&PairCount) -> (f64, f64, f64)| {
        let mut r = PairwiseResults::new(names.to_vec());
        for p in pairs {
            let (aw, bw, d) = counts(p);
            r.wins[p.a][p.b] += aw + d / 2.0;
            r.wins[p.b][p.a] += bw + d / 2.0;
        }
        r
    };
    let mut fitted = build(&mut |p| (p.a_wins as f64, p.b_wins as f64, p.draws as f64)).fit();
    let mut rng = crate::rng::rng_from_seed(seed);
    let reps: Vec<Vec<f64>> = (0..replicates)
        .map(|_| {
            build(&mut |p| {
                let games = p.a_wins + p.b_wins + p.draws;
                let (mut aw, mut bw) = (0u64, 0u64);
                for _ in 0..games {
                    let u = rng.random_range(0..games);
                    if u < p.a_wins {
                        aw += 1;
                    } else if u < p.a_wins + p.b_wins {
                        bw += 1;
                    }
                }
                (aw as f64, bw as f64, (games - aw - bw) as f64)
            })
            .fit()
            .iter()
            .map(|r| r.elo)
            .collect()
        })
        .collect();
    if replicates > 0 {
        for (r, (lo, hi)) in fitted.iter_mut().zip(percentile_intervals(&reps, n)) {
            r.ci_low = lo;
            r.ci_high = hi;
        }
    }
    fitted
}

/// Rank orders of games for a **Plackett–Luce** fit (Plackett 1975, Luce 1959): in a game
/// the first place goes to seat `i` with probability `π_i / Σ_{all seats} π`, the next
/// place to one of the rest with probability `π_j / Σ_{remaining} π`, and so on; with two
/// seats this is the Bradley–Terry model. Several seats of one game may belong to one
/// agent (self-play), each seat then an item with the agent's strength.
///
/// **Ties** (seats sharing a rank) are handled by **Breslow's** approximation (Breslow
/// 1974, as for tied event times in the Cox model): the `t` seats tied at a place each
/// count as chosen from the same remaining set, contributing `Π π_i / (Σ_remaining π)^t`.
/// The last place group (the seats left when no choice remains, including seats tied for
/// last) contributes nothing.
///
/// The fit is the minorisation–maximisation (MM) iteration of Hunter (2004, "MM
/// algorithms for generalized Bradley–Terry models", Ann. Stat. 32:384–406, §5):
/// `π_i ← w_i / Σ_stages t_s [i ∈ R_s] / Σ_{j ∈ R_s} π_j`, where `w_i` counts the stages
/// at which a seat of agent `i` was chosen, then anchored so that the first agent has
/// strength 1 (rating 0). As in [`PairwiseResults::fit`], one virtual draw between every
/// pair of agents (half a win each way) keeps an unbeaten agent's rating finite and the
/// comparison graph connected. Identical rank orders are counted once with a weight,
/// so the cost per iteration is the number of distinct orders, not of games.
#[derive(Clone, Debug, Default)]
pub struct RankOrders {
    names: Vec<String>,
    /// Distinct rank orders: `(rank, agent)` per seat, sorted.
    patterns: Vec<Vec<(u8, u32)>>,
    lookup: std::collections::HashMap<Vec<(u8, u32)>, u32>,
    /// Per game, its pattern.
    games: Vec<u32>,
    /// Per agent: games played, seat-games, and the sum of pairwise scores per seat-game.
    agent_games: Vec<u64>,
    agent_seats: Vec<u64>,
    agent_score: Vec<f64>,
}

impl RankOrders {
    /// No games yet, for these agents.
    pub fn new(names: Vec<String>) -> Self {
        let n = names.len();
        RankOrders {
            names,
            agent_games: vec![0; n],
            agent_seats: vec![0; n],
            agent_score: vec![0.0; n],
            ..Default::default()
        }
    }

    /// Adds one game: `(agent, rank)` per seat, rank 1 = best, tied seats sharing a rank.
    ///
    /// # Panics
    /// If an agent index is out of range.
    pub fn add_game(&mut self, seats: &[(usize, u8)]) {
        let n = self.names.len();
        let mut key: Vec<(u8, u32)> = seats
            .iter()
            .map(|&(a, r)| {
                assert!(a < n, "agent {a} of {n}");
                (r, a as u32)
            })
            .collect();
        key.sort_unstable();
        let p = seats.len();
        let mut seen = vec![false; n];
        for &(a, r) in seats {
            if !std::mem::replace(&mut seen[a], true) {
                self.agent_games[a] += 1;
            }
            self.agent_seats[a] += 1;
            if p > 1 {
                let beaten = seats.iter().filter(|s| s.1 > r).count() as f64;
                let tied = seats.iter().filter(|s| s.1 == r).count() as f64 - 1.0;
                self.agent_score[a] += (beaten + tied / 2.0) / (p - 1) as f64;
            }
        }
        let id = match self.lookup.get(&key) {
            Some(&id) => id,
            None => {
                let id = self.patterns.len() as u32;
                self.patterns.push(key.clone());
                self.lookup.insert(key, id);
                id
            }
        };
        self.games.push(id);
    }

    /// Games added.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// The maximum-likelihood strengths θ = ln π (first agent 0) of games weighted by
    /// `weights` (one per distinct pattern).
    fn fit_weighted(&self, weights: &[f64]) -> Vec<f64> {
        let n = self.names.len();
        let mut w = vec![0.5 * n.saturating_sub(1) as f64; n];
        for (pat, &c) in self.patterns.iter().zip(weights) {
            if c == 0.0 {
                continue;
            }
            let mut k = 0;
            while k < pat.len() {
                let t = pat[k..].iter().take_while(|s| s.0 == pat[k].0).count();
                if t == pat.len() - k {
                    break;
                }
                for s in &pat[k..k + t] {
                    w[s.1 as usize] += c;
                }
                k += t;
            }
        }
        let mut pi = vec![1.0f64; n];
        let mut d = vec![0.0f64; n];
        for _ in 0..100_000 {
            d.iter_mut().for_each(|x| *x = 0.0);
            for i in 0..n {
                for j in i + 1..n {
                    let v = 1.0 / (pi[i] + pi[j]);
                    d[i] += v;
                    d[j] += v;
                }
            }
            for (pat, &c) in self.patterns.iter().zip(weights) {
                if c == 0.0 {
                    continue;
                }
                let mut rest: f64 = pat.iter().map(|s| pi[s.1 as usize]).sum();
                let mut k = 0;
                while k < pat.len() {
                    let t = pat[k..].iter().take_while(|s| s.0 == pat[k].0).count();
                    if t == pat.len() - k {
                        break;
                    }
                    let v = c * t as f64 / rest;
                    for s in &pat[k..] {
                        d[s.1 as usize] += v;
                    }
                    for s in &pat[k..k + t] {
                        rest -= pi[s.1 as usize];
                    }
                    k += t;
                }
            }
            let next: Vec<f64> = w.iter().zip(&d).map(|(w, d)| w / d).collect();
            let norm = next[0];
            let mut delta = 0.0f64;
            for (p, x) in pi.iter_mut().zip(&next) {
                let x = x / norm;
                delta = delta.max((x.ln() - p.ln()).abs());
                *p = x;
            }
            if delta < 1e-10 {
                break;
            }
        }
        pi.iter().map(|p| p.ln()).collect()
    }

    /// The Plackett–Luce strengths θ (natural-log scale, the first agent at 0).
    pub fn fit(&self) -> Vec<f64> {
        if self.names.is_empty() {
            return Vec::new();
        }
        self.fit_weighted(&self.pattern_counts())
    }

    fn pattern_counts(&self) -> Vec<f64> {
        let mut c = vec![0.0; self.patterns.len()];
        for &g in &self.games {
            c[g as usize] += 1.0;
        }
        c
    }

    /// The ratings on the Elo scale ([`ELO_PER_THETA`]) with percentile **bootstrap**
    /// intervals: `replicates` times the games are resampled with replacement (Efron &
    /// Tibshirani 1993) from a generator seeded with `seed` and the model refitted; the
    /// interval is the 2.5% and 97.5% type 7 quantile of the replicates. The first agent is
    /// the anchor (0, interval `[0, 0]`). `games` is the games an agent played and `score`
    /// its mean pairwise score per seat-game (the share of the other seats it finished
    /// ahead of, ties counting half).
    pub fn ratings(&self, replicates: usize, seed: u64) -> Vec<Rating> {
        use rand::RngExt;
        let n = self.names.len();
        if n == 0 {
            return Vec::new();
        }
        let theta = self.fit();
        let mut rng = crate::rng::rng_from_seed(seed);
        let g = self.games.len();
        let reps: Vec<Vec<f64>> = if g == 0 {
            Vec::new()
        } else {
            (0..replicates)
                .map(|_| {
                    let mut c = vec![0.0; self.patterns.len()];
                    for _ in 0..g {
                        c[self.games[rng.random_range(0..g)] as usize] += 1.0;
                    }
                    self.fit_weighted(&c)
                        .iter()
                        .map(|t| t * ELO_PER_THETA)
                        .collect()
                })
                .collect()
        };
        let ci = if reps.is_empty() {
            vec![(f64::NAN, f64::NAN); n]
        } else {
            percentile_intervals(&reps, n)
        };
        (0..n)
            .map(|i| Rating {
                name: self.names[i].clone(),
                elo: theta[i] * ELO_PER_THETA,
                ci_low: ci[i].0,
                ci_high: ci[i].1,
                games: self.agent_games[i] as f64,
                score: if self.agent_seats[i] == 0 {
                    f64::NAN
                } else {
                    self.agent_score[i] / self.agent_seats[i] as f64
                },
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_known_strength_gap() {
        // B beats A 76% of the time in 10,000 games: θ_B - θ_A = ln(0.76/0.24) → +200 Elo.
        let mut r = PairwiseResults::new(vec!["a".into(), "b".into()]);
        r.wins[0][1] = 2400.0;
        r.wins[1][0] = 7600.0;
        let f = r.fit();
        let want = (0.76f64 / 0.24).ln() * ELO_PER_THETA;
        assert_eq!(f[0].elo, 0.0);
        assert!((f[1].elo - want).abs() < 1.0, "{} vs {want}", f[1].elo);
        assert!(f[1].ci_low < f[1].elo && f[1].elo < f[1].ci_high);
        // Var θ = 1 / (n p (1 - p)) = 1 / 1824 → half-width 1.96 · 0.0234 · 173.7 ≈ 8.0.
        let half = (f[1].ci_high - f[1].ci_low) / 2.0;
        assert!((half - 7.97).abs() < 0.1, "half-width {half}");
        assert!((f[1].score - 0.76).abs() < 1e-12);
    }

    #[test]
    fn transitive_ladder_orders_agents() {
        let mut r = PairwiseResults::new(vec!["weak".into(), "mid".into(), "strong".into()]);
        for _ in 0..300 {
            r.record(1, 0, 1.0);
            r.record(2, 1, 1.0);
            r.record(2, 0, 1.0);
        }
        for _ in 0..100 {
            r.record(0, 1, 1.0);
            r.record(1, 2, 1.0);
            r.record(1, 2, 0.5);
        }
        let f = r.fit();
        assert!(f[0].elo < f[1].elo && f[1].elo < f[2].elo, "{f:?}");
        assert!(
            f[1].ci_low > f[0].elo,
            "the interval separates mid from weak"
        );
    }

    #[test]
    fn unbeaten_agent_stays_finite() {
        let mut r = PairwiseResults::new(vec!["a".into(), "b".into()]);
        for _ in 0..50 {
            r.record(1, 0, 1.0);
        }
        let f = r.fit();
        assert!(f[1].elo.is_finite() && f[1].elo > 300.0);
    }

    #[test]
    fn plackett_luce_at_two_seats_is_bradley_terry() {
        let mut r = RankOrders::new(vec!["a".into(), "b".into()]);
        let mut bt = PairwiseResults::new(vec!["a".into(), "b".into()]);
        for g in 0..40 {
            let a_wins = g < 30;
            r.add_game(&[
                (0, if a_wins { 1 } else { 2 }),
                (1, if a_wins { 2 } else { 1 }),
            ]);
            bt.record(0, 1, if a_wins { 1.0 } else { 0.0 });
        }
        // With one virtual draw: θ_b − θ_a = ln(10.5 / 30.5).
        let theta = r.fit();
        assert!((theta[1] - (10.5f64 / 30.5).ln()).abs() < 1e-8, "{theta:?}");
        assert!((theta[1] * ELO_PER_THETA - bt.fit()[1].elo).abs() < 1e-5);
    }

    /// The probability of each order of three seats with strengths `pi` under Plackett–Luce.
    fn pl_order_probability(pi: [f64; 3], order: [usize; 3]) -> f64 {
        let total: f64 = pi.iter().sum();
        pi[order[0]] / total * pi[order[1]] / (pi[order[1]] + pi[order[2]])
    }

    #[test]
    fn plackett_luce_recovers_known_strengths_at_three_seats() {
        let pi = [1.0, 2.0, 4.0];
        let mut r = RankOrders::new(vec!["a".into(), "b".into(), "c".into()]);
        let orders = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        for o in orders {
            // Expected counts in 200,000 games, seat s = agent s.
            let n = (pl_order_probability(pi, o) * 200_000.0).round() as usize;
            let mut seats = [(0, 0u8); 3];
            for (place, &agent) in o.iter().enumerate() {
                seats[agent] = (agent, place as u8 + 1);
            }
            (0..n).for_each(|_| r.add_game(&seats));
        }
        let theta = r.fit();
        assert!((theta[1] - 2f64.ln()).abs() < 2e-3, "{theta:?}");
        assert!((theta[2] - 4f64.ln()).abs() < 2e-3, "{theta:?}");
        // Agent c wins 4/7 of the games and beats both others: a mean pairwise score
        // (pi_c / (pi_c + pi_x) summed over the pairs) of (4/5 + 4/6) / 2.
        let rt = r.ratings(0, 1);
        assert!(
            (rt[2].score - (0.8 + 4.0 / 6.0) / 2.0).abs() < 1e-3,
            "{rt:?}"
        );
    }

    /// The Breslow log-likelihood of the rank orders plus the virtual draws, at θ.
    fn breslow_log_likelihood(games: &[Vec<(usize, u8)>], n: usize, theta: &[f64]) -> f64 {
        let mut l = 0.0;
        for i in 0..n {
            for j in i + 1..n {
                let lse = (theta[i].exp() + theta[j].exp()).ln();
                l += 0.5 * (theta[i] - lse) + 0.5 * (theta[j] - lse);
            }
        }
        for g in games {
            let mut ranks: Vec<u8> = g.iter().map(|s| s.1).collect();
            ranks.sort_unstable();
            ranks.dedup();
            for &r in &ranks {
                let chosen: Vec<usize> = g.iter().filter(|s| s.1 == r).map(|s| s.0).collect();
                let rest: Vec<usize> = g.iter().filter(|s| s.1 >= r).map(|s| s.0).collect();
                if chosen.len() == rest.len() {
                    break;
                }
                let denom: f64 = rest.iter().map(|&a| theta[a].exp()).sum();
                l += chosen.iter().map(|&a| theta[a]).sum::<f64>()
                    - chosen.len() as f64 * denom.ln();
            }
        }
        l
    }

    #[test]
    fn plackett_luce_with_ties_maximises_the_breslow_likelihood() {
        // Four agents at 4 seats, with ties for first, for second and for last, and an
        // agent holding two seats of one game.
        let games: Vec<Vec<(usize, u8)>> = vec![
            vec![(0, 1), (1, 2), (2, 3), (3, 4)],
            vec![(0, 1), (1, 1), (2, 3), (3, 4)],
            vec![(2, 1), (3, 2), (0, 2), (1, 4)],
            vec![(3, 1), (2, 2), (1, 3), (0, 3)],
            vec![(1, 1), (1, 2), (3, 3), (2, 4)],
            vec![(2, 1), (0, 2), (3, 3), (1, 4)],
            vec![(0, 2), (3, 1), (2, 3), (1, 3)],
        ];
        let mut r = RankOrders::new((0..4).map(|i| format!("a{i}")).collect());
        games.iter().for_each(|g| r.add_game(g));
        let theta = r.fit();
        assert_eq!(theta[0], 0.0);
        let l0 = breslow_log_likelihood(&games, 4, &theta);
        for i in 1..4 {
            let h = 1e-5;
            let mut up = theta.clone();
            up[i] += h;
            let mut down = theta.clone();
            down[i] -= h;
            let grad = (breslow_log_likelihood(&games, 4, &up)
                - breslow_log_likelihood(&games, 4, &down))
                / (2.0 * h);
            assert!(grad.abs() < 1e-6, "d/dθ{i} = {grad}");
            assert!(breslow_log_likelihood(&games, 4, &up) < l0);
        }
    }

    #[test]
    fn bootstrap_intervals_are_reproducible_and_cover_the_estimate() {
        let mut r = RankOrders::new(vec!["a".into(), "b".into(), "c".into()]);
        for g in 0..300u32 {
            let order = [[0, 1, 2], [1, 0, 2], [2, 1, 0], [1, 2, 0]][(g % 4) as usize];
            let seats: Vec<(usize, u8)> = (0..3).map(|a| (a, order[a] as u8 + 1)).collect();
            r.add_game(&seats);
        }
        let a = r.ratings(200, 7);
        assert_eq!(a, r.ratings(200, 7));
        assert_ne!(a, r.ratings(200, 8));
        assert_eq!((a[0].ci_low, a[0].ci_high), (0.0, 0.0));
        for x in &a[1..] {
            assert!(x.ci_low < x.elo && x.elo < x.ci_high, "{x:?}");
        }
        // Bradley–Terry: 2400 / 7600 over 10,000 games has a Fisher half-width of 8.0 Elo;
        // the bootstrap's 95% interval is about as wide.
        let names = vec!["a".to_string(), "b".to_string()];
        let pairs = [PairCount {
            a: 0,
            b: 1,
            a_wins: 2400,
            b_wins: 7600,
            draws: 0,
        }];
        let f = bradley_terry_bootstrap(&names, &pairs, 300, 3);
        assert_eq!(f, bradley_terry_bootstrap(&names, &pairs, 300, 3));
        let half = (f[1].ci_high - f[1].ci_low) / 2.0;
        assert!((half - 7.97).abs() < 1.5, "bootstrap half-width {half}");
        assert!(f[1].ci_low < f[1].elo && f[1].elo < f[1].ci_high);
    }
}
