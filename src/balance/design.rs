//! Design metrics (`sim design`, issue 24): restricted play, strategy dominance between
//! personas, kingmaking, and per-action statistics, each with its method named and an
//! interval.
//!
//! Every game is played by [`play_seated`]: game `g` of master seed `S` draws its chance
//! from `seed_for(S, g, 0)` and seat `p`'s agent from `rng_for(S, g, 1 + p)`, the streams
//! of `sim tournament --seed S` ([`crate::tournament::Plan`]), with an agent chosen per
//! seat. Two arms that differ in one seat's agent therefore share every deal and every
//! other seat's random stream (common random numbers), and their difference is paired by
//! game.
//!
//! - **Restricted play** (Jaffe et al. 2012): for each named class of action, game `g`
//!   is played twice: all seats the base agent (the baseline), and seat `g mod n` the base
//!   agent restricted never to take the class ([`crate::agents::restricted`]). The cost of
//!   the restriction is the mean paired difference of that seat's win share (1/k for a
//!   k-way tie for first), baseline minus restricted, with its paired t interval: about 0
//!   (the interval contains 0) means the class is a weak option; a large cost means the
//!   class matters. Beside it, from the baseline games: the share of winners that played
//!   the class at least once (Wilson interval): near 100% marks a candidate dominant
//!   strategy.
//! - **Per-action statistics** within the base agent (the baseline games): per class, the
//!   share of the agent's decisions at which the class was legal, the share of those at
//!   which it was chosen, and the win rate of seat-games that played it against seat-games
//!   in which it was legal but never played (Newcombe interval). A group that is empty
//!   gives no comparison (never a comparison against an empty group).
//! - **Dominance between personas** (agent specs): at 2 seats, persona `i` against `j`
//!   over games alternating the seats; at `n > 2` seats, `i` in seat `g mod n` and `j` in
//!   every other seat. `M[i][j]` is `i`'s mean win share with its t interval. The meta-game
//!   `A[i][j] = M[i][j] − M[j][i]` is antisymmetric (a symmetric zero-sum game; Balduzzi
//!   et al. 2018); its Nash equilibrium by linear programming
//!   ([`crate::solvers::lp::solve_zero_sum`]) gives the support (personas with positive
//!   mass). A persona is dominant when its win share against every other persona exceeds
//!   the fair share `1/n` with the interval above it. Beside the Nash support, α-Rank
//!   (Omidshafiei et al. 2019, [`super::alpharank`]) of the payoff matrix `P[i][j] =
//!   M[i][j]` (diagonal `1/n`) at the stated α and in the large-α limit: the stationary
//!   distribution of an evolutionary process over the personas and its ranking.
//! - **Kingmaking** (3–4 players): in each baseline game the seat that finished last (in
//!   hindsight, a seat that could not win under the base play) has its decisions from the
//!   ply at fraction `from` of the game on replayed by another agent, every other seat
//!   keeping its agent and random stream and the chance stream unchanged
//!   ([`replay_with`]). The kingmaking rate is the share of games whose winner changed to
//!   another seat alone (Wilson interval); games the replayed seat itself wins are counted
//!   apart (it was not out of contention after all). Any change of decisions also changes
//!   which chance outcomes are drawn later (one chance stream), so the same seat is also
//!   replayed by the base agent with a fresh random stream (the control); the excess, the
//!   paired difference kingmaker minus control per game (t interval), is the kingmaking
//!   beyond the game's sensitivity to any change.

use rayon::prelude::*;

use crate::agents::{self, Agent};
use crate::game::{GameStart, MAX_PLAYERS, Playable, RulesRef, Turn, View, play_ply, rules};
use crate::rng::{rng_for, rng_from_seed, seed_for};
use crate::stats::{Difference, Welford, Z95, paired_difference, proportion_difference, wilson};

/// Why a design study failed.
#[derive(Debug, thiserror::Error)]
pub enum DesignError {
    /// A bad setting, agent, class or seat count (exit code 2).
    #[error("{0}")]
    Bad(String),
}

/// A game's result: final points and ranks per seat, and per seat the actions played.
#[derive(Clone, Debug)]
pub struct Played<A> {
    /// Points per seat.
    pub scores: Vec<i32>,
    /// Ranks per seat (1 = first).
    pub ranks: Vec<u8>,
    /// Every decision in order: `(ply, seat, action)`.
    pub actions: Vec<(u32, usize, A)>,
}

impl<A> Played<A> {
    /// Seat `p`'s win share: `1/k` when `k` seats tie first, else 0.
    pub fn share(&self, p: usize) -> f64 {
        let k = self.ranks.iter().filter(|&&r| r == 1).count().max(1);
        if self.ranks[p] == 1 {
            1.0 / k as f64
        } else {
            0.0
        }
    }

    /// The seat alone in first place, if one.
    pub fn winner(&self) -> Option<usize> {
        let w: Vec<usize> = (0..self.ranks.len())
            .filter(|&p| self.ranks[p] == 1)
            .collect();
        (w.len() == 1).then(|| w[0])
    }
}

/// Builds one agent per spec.
///
/// # Errors
/// [`DesignError::Bad`] naming the spec.
pub fn build_all<G: Playable>(specs: &[String]) -> Result<Vec<Box<dyn Agent<G>>>, DesignError> {
    specs
        .iter()
        .map(|s| agents::build::<G>(s).map_err(|e| DesignError::Bad(format!("agent '{s}': {e}"))))
        .collect()
}

/// Plays game `g` of master seed `seed` with `agents[p]` in seat `p` (module docs: the
/// tournament's chance and seat streams), switching seat `switch.0`'s agent to
/// `switch.1` from ply `switch.2` on (0-based plies; `None`: no switch). From the switch
/// on, that seat draws from its own stream `rng_for(seed, g, 1 + MAX_PLAYERS + seat)`
/// (not the base agent's), so a switch to the base agent itself measures how much a
/// fresh random stream alone changes the game (the control of kingmaking). `visit(state,
/// seat, action)` sees every decision with the state before it.
pub fn replay_with<G: Playable>(
    rules: RulesRef<G>,
    agents: &mut [Box<dyn Agent<G>>],
    mut switch: Option<(usize, &mut Box<dyn Agent<G>>, u32)>,
    seed: u64,
    g: u64,
    mut visit: impl FnMut(&G, usize, G::Action),
) -> Played<G::Action> {
    let mut chance = rng_from_seed(seed_for(seed, g, 0));
    let n = rules.players();
    let mut seat_rng: Vec<_> = (0..n).map(|p| rng_for(seed, g, 1 + p as u64)).collect();
    let mut switch_rng = rng_for(
        seed,
        g,
        1 + (MAX_PLAYERS + switch.as_ref().map_or(0, |s| s.0)) as u64,
    );
    let mut state = G::new_game(rules, &mut chance);
    for (p, a) in agents.iter_mut().enumerate().take(n) {
        let start = GameStart {
            seat: p,
            index: g,
            rules,
        };
        a.start_game(&start);
        if let Some((q, other, _)) = switch.as_mut()
            && *q == p
        {
            other.start_game(&start);
        }
    }
    let mut actions = Vec::new();
    while state.turn() != Turn::Terminal {
        let ply = state.ply();
        play_ply(&mut state, &mut chance, |s, p, _| {
            let view = View::new(s, p);
            let a = match switch.as_mut() {
                Some((q, other, from)) if *q == p && ply >= *from => {
                    other.act(&view, &mut switch_rng)
                }
                _ => agents[p].act(&view, &mut seat_rng[p]),
            };
            visit(s, p, a);
            actions.push((ply, p, a));
            a
        });
    }
    let (scores, ranks) = state.scores_and_ranks();
    Played {
        scores: scores[..n].to_vec(),
        ranks: ranks[..n].to_vec(),
        actions,
    }
}

/// [`replay_with`] without a switch.
pub fn play_seated<G: Playable>(
    rules: RulesRef<G>,
    agents: &mut [Box<dyn Agent<G>>],
    seed: u64,
    g: u64,
    visit: impl FnMut(&G, usize, G::Action),
) -> Played<G::Action> {
    replay_with(rules, agents, None, seed, g, visit)
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct DesignConfig {
    /// Rule settings (`key=value`).
    pub variant: Vec<String>,
    /// Seats [default: the game's].
    pub players: Option<usize>,
    /// The base agent (every seat of the baseline).
    pub agent: String,
    /// The action classes for restricted play and per-action statistics (empty: none).
    pub classes: Vec<String>,
    /// The personas (agent specs) for the dominance matrix (fewer than 2: none).
    pub personas: Vec<String>,
    /// The agent that replays a seat out of contention (`None`: no kingmaking).
    pub kingmaker: Option<String>,
    /// The fraction of the game after which the kingmaking replay starts.
    pub from: f64,
    /// Games per arm.
    pub games: u64,
    /// The master seed.
    pub seed: u64,
    /// α-Rank's selection intensity for the persona meta-game ([`super::alpharank`]), in
    /// inverse win-share units.
    pub alpha: f64,
}

/// α-Rank's population size for the persona meta-game (the paper's examples use 50).
pub const ALPHARANK_POPULATION: usize = 50;

/// Restricted play and per-action statistics of one class.
#[derive(Clone, Debug)]
pub struct ClassResult {
    /// The class (an action-text prefix).
    pub class: String,
    /// Win share lost by the restricted seat: baseline minus restricted (paired t).
    pub cost: Difference,
    /// Decisions at which the restricted agent had only the class to play.
    pub forced_games: u64,
    /// Baseline winners (alone first) that played the class, and winners.
    pub winners_using: (u64, u64),
    /// Base agent decisions, those at which the class was legal, those at which it was
    /// chosen.
    pub decisions: (u64, u64, u64),
    /// Seat-games that played the class (and won), seat-games in which it was legal but
    /// not played (and won).
    pub played: (u64, u64),
    /// See `played`.
    pub not_played: (u64, u64),
    /// Win rate played minus legal-but-not-played (Newcombe), `None` when a group is
    /// empty.
    pub played_vs_not: Option<Difference>,
}

impl ClassResult {
    /// A one-line verdict.
    pub fn verdict(&self) -> String {
        let (u, w) = self.winners_using;
        let used = if w > 0 { u as f64 / w as f64 } else { 0.0 };
        let c = self.cost;
        let cost = format!(
            "never taking `{}` changes the seat's win share by {:+.1} points [{:+.1}, {:+.1}]",
            self.class,
            -100.0 * c.estimate,
            -100.0 * c.high,
            -100.0 * c.low
        );
        if c.low > 0.0 && w > 0 && u == w {
            format!("{cost}: every winner used it, a candidate dominant strategy")
        } else if c.low > 0.0 {
            format!(
                "{cost}: the class matters ({:.0}% of winners used it)",
                100.0 * used
            )
        } else if c.high < 0.0 {
            format!("{cost}: the agent plays better without it (a trap for this agent)")
        } else {
            format!("{cost}: no detectable cost, a weak option for this agent")
        }
    }
}

/// The persona matrix.
#[derive(Clone, Debug)]
pub struct Dominance {
    /// The personas.
    pub personas: Vec<String>,
    /// `m[i][j]`: persona `i`'s mean win share against `j` with its 95% t interval
    /// (`None` on the diagonal).
    pub m: Vec<Vec<Option<(f64, f64, f64)>>>,
    /// The fair share `1/n`.
    pub fair: f64,
    /// The meta-game's Nash equilibrium (a mixed strategy over the personas).
    pub nash: Vec<f64>,
    /// The dominant persona, if one.
    pub dominant: Option<usize>,
    /// α-Rank's selection intensity.
    pub alpha: f64,
    /// The α-Rank distribution over the personas at [`Dominance::alpha`], population
    /// [`ALPHARANK_POPULATION`], of the payoff matrix `P[i][j] = M[i][j]` (the mean win
    /// share; the diagonal the fair share `1/n`, every seat playing the same persona).
    pub alpharank: Vec<f64>,
    /// The same in the large-α limit ([`super::alpharank::alpha_rank_limit`]).
    pub alpharank_limit: Vec<f64>,
}

impl Dominance {
    /// The personas with positive Nash mass.
    pub fn support(&self) -> Vec<usize> {
        (0..self.nash.len())
            .filter(|&i| self.nash[i] > 1e-6)
            .collect()
    }

    /// A one-line verdict.
    pub fn verdict(&self) -> String {
        let support: Vec<String> = self
            .support()
            .iter()
            .map(|&i| format!("{} ({:.0}%)", self.personas[i], 100.0 * self.nash[i]))
            .collect();
        let top = super::alpharank::ranking(&self.alpharank)[0];
        let alpha = format!(
            "; α-Rank (α = {}) puts {:.0}% on {} ({:.0}% in the large-α limit)",
            self.alpha,
            100.0 * self.alpharank[top],
            self.personas[top],
            100.0 * self.alpharank_limit[top]
        );
        match self.dominant {
            Some(d) => format!(
                "{} dominates: it beats every other persona (win share above {:.0}% with the \
                 interval above it); Nash support: {}{alpha}",
                self.personas[d],
                100.0 * self.fair,
                support.join(", ")
            ),
            None => format!(
                "no dominant persona; the Nash equilibrium of the meta-game mixes {}{alpha}",
                support.join(", ")
            ),
        }
    }
}

/// Kingmaking.
#[derive(Clone, Debug)]
pub struct Kingmaking {
    /// Games replayed (a seat finished last and the game has a single winner).
    pub games: u64,
    /// Replays in which another seat won instead.
    pub changed: u64,
    /// Replays in which the replayed seat itself won (it was not out of contention).
    pub self_won: u64,
    /// The control: the same seat replayed from the same ply by the base agent with a
    /// fresh random stream; games in which another seat won instead.
    pub control_changed: u64,
    /// Per game, changed with the kingmaker minus changed in the control: the paired
    /// difference (t interval), the kingmaking beyond the game's sensitivity to any change.
    pub excess: Difference,
    /// The agent that replayed the seat.
    pub kingmaker: String,
}

/// The whole study.
#[derive(Clone, Debug)]
pub struct Design {
    /// Seats.
    pub players: usize,
    /// Per class.
    pub classes: Vec<ClassResult>,
    /// The persona matrix, if asked for.
    pub dominance: Option<Dominance>,
    /// Kingmaking, if asked for.
    pub kingmaking: Option<Kingmaking>,
}

/// Runs the study for game `G`.
///
/// # Errors
/// [`DesignError::Bad`] for a bad setting, agent or class.
pub fn run<G: Playable>(cfg: &DesignConfig) -> Result<Design, DesignError> {
    let params = crate::params::ParamSet::from_settings(&cfg.variant, &format!("game {}", G::NAME))
        .map_err(|e: crate::params::ParamError| DesignError::Bad(e.to_string()))?;
    let n = cfg.players.unwrap_or(G::DEFAULT_PLAYERS);
    let rules: RulesRef<G> = rules::<G>(&params, n).map_err(|e| DesignError::Bad(e.to_string()))?;
    let base = vec![cfg.agent.clone(); n];
    build_all::<G>(&base)?;
    let restricted: Vec<String> = cfg
        .classes
        .iter()
        .map(|c| format!("restricted:agent={},never={c}", cfg.agent.replace(',', ";")))
        .collect();
    build_all::<G>(&restricted)?;
    // Baseline games with their per-class tallies.
    struct Base {
        shares: Vec<f64>,
        winner: Option<usize>,
        last: Option<usize>,
        plies: u32,
        /// Per class and seat: (decisions legal, chosen).
        legal: Vec<Vec<(u64, u64)>>,
        decisions: Vec<u64>,
    }
    let per_class: Vec<crate::agents::restricted::Classes> = cfg
        .classes
        .iter()
        .map(|c| crate::agents::restricted::Classes(vec![c.clone()]))
        .collect();
    let baseline: Vec<Base> = (0..cfg.games)
        .into_par_iter()
        .map_init(
            || (build_all::<G>(&base).expect("validated"), Vec::new()),
            |(agents, buf), g| {
                let mut legal = vec![vec![(0u64, 0u64); n]; per_class.len()];
                let mut decisions = vec![0u64; n];
                let r = play_seated(rules, agents, cfg.seed, g, |s, p, a| {
                    decisions[p] += 1;
                    if per_class.is_empty() {
                        return;
                    }
                    s.legal_actions(p, buf);
                    let texts: Vec<String> = buf.iter().map(|x| x.to_string()).collect();
                    let chosen = a.to_string();
                    for (c, cl) in per_class.iter().enumerate() {
                        if texts.iter().any(|t| cl.contains(t)) {
                            legal[c][p].0 += 1;
                            legal[c][p].1 += u64::from(cl.contains(&chosen));
                        }
                    }
                });
                let last = {
                    let worst = *r.ranks.iter().max().unwrap_or(&1);
                    let l: Vec<usize> = (0..n).filter(|&p| r.ranks[p] == worst).collect();
                    (l.len() == 1 && worst > 1).then(|| l[0])
                };
                Base {
                    shares: (0..n).map(|p| r.share(p)).collect(),
                    winner: r.winner(),
                    last,
                    plies: r.actions.last().map_or(0, |x| x.0 + 1),
                    legal,
                    decisions,
                }
            },
        )
        .collect();
    let mut results = Vec::new();
    for (c, class) in cfg.classes.iter().enumerate() {
        let seats: Vec<String> = base.clone();
        let diffs: Vec<(f64, u64)> = (0..cfg.games)
            .into_par_iter()
            .map(|g| {
                let s = (g % n as u64) as usize;
                let mut treated = build_all::<G>(&seats).expect("validated");
                treated[s] = agents::build::<G>(&restricted[c]).expect("validated");
                let r = play_seated(rules, &mut treated, cfg.seed, g, |_, _, _| {});
                let forced = u64::from(
                    r.actions
                        .iter()
                        .any(|&(_, p, a)| p == s && per_class[c].contains(&a.to_string())),
                );
                (baseline[g as usize].shares[s] - r.share(s), forced)
            })
            .collect();
        let d: Vec<f64> = diffs.iter().map(|x| x.0).collect();
        let mut winners = (0, 0);
        let (mut dec, mut leg, mut cho) = (0, 0, 0);
        let (mut played, mut not_played) = ((0, 0), (0, 0));
        for b in &baseline {
            for p in 0..n {
                dec += b.decisions[p];
                let (l, ch) = b.legal[c][p];
                leg += l;
                cho += ch;
                let won = u64::from(b.winner == Some(p));
                if ch > 0 {
                    played.0 += 1;
                    played.1 += won;
                } else if l > 0 {
                    not_played.0 += 1;
                    not_played.1 += won;
                }
                if won == 1 {
                    winners.1 += 1;
                    winners.0 += u64::from(ch > 0);
                }
            }
        }
        results.push(ClassResult {
            class: class.clone(),
            cost: paired_difference(&d),
            forced_games: diffs.iter().map(|x| x.1).sum(),
            winners_using: winners,
            decisions: (dec, leg, cho),
            played,
            not_played,
            played_vs_not: (played.0 > 0 && not_played.0 > 0)
                .then(|| proportion_difference(played.1, played.0, not_played.1, not_played.0)),
        });
    }
    let dominance = if cfg.personas.len() >= 2 {
        build_all::<G>(&cfg.personas)?;
        Some(dominance::<G>(rules, cfg, n))
    } else {
        None
    };
    let kingmaking = match &cfg.kingmaker {
        Some(k) if n >= 3 => {
            build_all::<G>(std::slice::from_ref(k))?;
            // Per game: (replayed seat won, winner changed) with the kingmaker, and winner
            // changed in the control.
            let outcomes: Vec<Option<(bool, bool, bool)>> = (0..cfg.games)
                .into_par_iter()
                .map(|g| {
                    let b = &baseline[g as usize];
                    let (Some(q), Some(w)) = (b.last, b.winner) else {
                        return None;
                    };
                    let from = (f64::from(b.plies) * cfg.from).floor() as u32;
                    let replay = |spec: &str| {
                        let mut agents = build_all::<G>(&base).expect("validated");
                        let mut other = agents::build::<G>(spec).expect("validated");
                        let r = replay_with(
                            rules,
                            &mut agents,
                            Some((q, &mut other, from)),
                            cfg.seed,
                            g,
                            |_, _, _| {},
                        );
                        r.winner()
                    };
                    let nw = replay(k);
                    let cw = replay(&cfg.agent);
                    let changed = |x: Option<usize>| x != Some(w) && x != Some(q) && x.is_some();
                    Some((nw == Some(q), changed(nw), changed(cw)))
                })
                .collect();
            let done: Vec<(bool, bool, bool)> = outcomes.into_iter().flatten().collect();
            let diffs: Vec<f64> = done
                .iter()
                .map(|x| f64::from(u8::from(x.1)) - f64::from(u8::from(x.2)))
                .collect();
            Some(Kingmaking {
                games: done.len() as u64,
                changed: done.iter().filter(|x| x.1).count() as u64,
                self_won: done.iter().filter(|x| x.0).count() as u64,
                control_changed: done.iter().filter(|x| x.2).count() as u64,
                excess: paired_difference(&diffs),
                kingmaker: k.clone(),
            })
        }
        Some(_) => {
            return Err(DesignError::Bad(format!(
                "kingmaking needs 3 or 4 players, got {n}"
            )));
        }
        None => None,
    };
    Ok(Design {
        players: n,
        classes: results,
        dominance,
        kingmaking,
    })
}

/// The persona matrix and its meta-game (module docs).
fn dominance<G: Playable>(rules: RulesRef<G>, cfg: &DesignConfig, n: usize) -> Dominance {
    let k = cfg.personas.len();
    let m: Vec<Vec<Option<(f64, f64, f64)>>> = (0..k)
        .map(|i| {
            (0..k)
                .map(|j| (i != j).then(|| persona_share::<G>(rules, cfg, n, i, j)))
                .collect()
        })
        .collect();
    let fair = 1.0 / n as f64;
    let a: Vec<Vec<f64>> = (0..k)
        .map(|i| {
            (0..k)
                .map(|j| match (m[i][j], m[j][i]) {
                    (Some(x), Some(y)) => x.0 - y.0,
                    _ => 0.0,
                })
                .collect()
        })
        .collect();
    let nash = crate::solvers::lp::solve_zero_sum(&a).row;
    let dominant = dominant_persona(&m, fair);
    let payoff: Vec<Vec<f64>> = (0..k)
        .map(|i| (0..k).map(|j| m[i][j].map_or(fair, |x| x.0)).collect())
        .collect();
    Dominance {
        personas: cfg.personas.clone(),
        m,
        fair,
        nash,
        dominant,
        alpha: cfg.alpha,
        alpharank: super::alpharank::alpha_rank(&payoff, cfg.alpha, ALPHARANK_POPULATION),
        alpharank_limit: super::alpharank::alpha_rank_limit(&payoff, ALPHARANK_POPULATION),
    }
}

/// A mean win share with its 95% interval: `(mean, low, high)`.
pub type Share = (f64, f64, f64);

/// The dominant persona of a win-share matrix (`m[i][j]`: persona `i`'s mean win share
/// against `j` with its 95% interval): the first whose interval lies above the fair share
/// against every other persona, if one.
pub fn dominant_persona(m: &[Vec<Option<Share>>], fair: f64) -> Option<usize> {
    let k = m.len();
    (0..k).find(|&i| {
        (0..k)
            .filter(|&j| j != i)
            .all(|j| m[i][j].is_some_and(|x| x.1 > fair))
    })
}

/// Persona `i`'s mean win share with its 95% t interval against persona `j` (module
/// docs: `i` in seat `g mod n`, `j` in every other seat).
fn persona_share<G: Playable>(
    rules: RulesRef<G>,
    cfg: &DesignConfig,
    n: usize,
    i: usize,
    j: usize,
) -> (f64, f64, f64) {
    let shares: Vec<f64> = (0..cfg.games)
        .into_par_iter()
        .map(|g| {
            let s = (g % n as u64) as usize;
            let specs: Vec<String> = (0..n)
                .map(|p| cfg.personas[if p == s { i } else { j }].clone())
                .collect();
            let mut agents = build_all::<G>(&specs).expect("validated");
            play_seated(rules, &mut agents, cfg.seed, g, |_, _, _| {}).share(s)
        })
        .collect();
    let mut w = Welford::new();
    shares.iter().for_each(|&x| w.push(x));
    let (lo, hi) = w.t_interval(0.05);
    (w.mean(), lo, hi)
}

/// The Wilson 95% interval of `x` of `n`, as (rate, low, high).
pub fn rate(x: u64, n: u64) -> (f64, f64, f64) {
    let (lo, hi) = wilson(x, n, Z95);
    (if n == 0 { 0.0 } else { x as f64 / n as f64 }, lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::goofspiel;

    type G = goofspiel::State;

    fn rules3() -> RulesRef<G> {
        rules::<G>(&Default::default(), 3).unwrap()
    }

    /// The kingmaking replay keeps every other seat's agent and random stream and the
    /// chance stream: before the switch every decision is the same; with the switch past
    /// the end the whole game is the same; and the
    /// other seats' streams are those of `sim tournament` (`rng_for(seed, g, 1 + seat)`).
    #[test]
    fn the_kingmaking_replay_keeps_every_other_seats_decisions_and_seeds() {
        let r = rules3();
        let specs = vec!["random".to_string(); 3];
        for g in 0..20 {
            let mut a = build_all::<G>(&specs).unwrap();
            let base = play_seated(r, &mut a, 5, g, |_, _, _| {});
            // A switch past the end changes nothing.
            let mut a = build_all::<G>(&specs).unwrap();
            let mut other = agents::build::<G>("greedy:samples=1").unwrap();
            let same = replay_with(r, &mut a, Some((1, &mut other, 99)), 5, g, |_, _, _| {});
            assert_eq!(same.actions, base.actions);
            // Switch seat 1 at ply 4 to greedy: the first 4 plies are the same for every
            // seat; afterwards seat 1 may differ.
            let mut a = build_all::<G>(&specs).unwrap();
            let mut greedy = agents::build::<G>("greedy:samples=1").unwrap();
            let k = replay_with(r, &mut a, Some((1, &mut greedy, 4)), 5, g, |_, _, _| {});
            let before = |p: &Played<_>| -> Vec<_> {
                p.actions.iter().filter(|x| x.0 < 4).copied().collect()
            };
            assert_eq!(before(&k), before(&base));
            // The other seats draw from their own tournament streams: seat 0's and seat 2's
            // random choices at ply 4 are the next draws of rng_for(5, g, 1 + seat), the
            // same in both games (goofspiel's legal bids differ only by seat 1's hand).
            let at = |p: &Played<goofspiel::Action>, ply: u32, seat: usize| {
                p.actions
                    .iter()
                    .find(|x| x.0 == ply && x.1 == seat)
                    .map(|x| x.2)
            };
            for seat in [0, 2] {
                assert_eq!(at(&k, 4, seat), at(&base, 4, seat), "game {g} seat {seat}");
            }
        }
    }

    /// Against random, MCTS dominates at 2 seats: the matrix, the meta-game's Nash
    /// support (MCTS alone) and the verdict name it.
    #[test]
    fn a_dominant_persona_is_named() {
        let cfg = DesignConfig {
            variant: vec!["num_cards=6".into()],
            players: Some(2),
            agent: "random".into(),
            classes: Vec::new(),
            personas: vec!["random".into(), "mcts:iters=100".into()],
            kingmaker: None,
            from: 0.5,
            games: 100,
            seed: 1,
            alpha: 10.0,
        };
        let d = run::<G>(&cfg).unwrap();
        let m = d.dominance.unwrap();
        assert_eq!(m.dominant, Some(1), "{:?}", m.m);
        assert_eq!(m.support(), vec![1]);
        // α-Rank agrees: MCTS first, with more mass in the large-α limit.
        assert_eq!(crate::balance::alpharank::ranking(&m.alpharank)[0], 1);
        assert!(m.alpharank_limit[1] > 0.99, "{:?}", m.alpharank_limit);
        assert!(
            m.verdict().starts_with("mcts:iters=100 dominates"),
            "{}",
            m.verdict()
        );
    }

    /// Restricting Goofspiel's highest bid (`bid6`) of a greedy agent: every hand must
    /// play it at last, so the restricted seat plays it only when it is the seat's one
    /// legal bid (forced in every game); the per-action statistics are filled within the
    /// agent and never compare against an empty group.
    #[test]
    fn restricted_play_measures_the_cost_of_a_class() {
        let cfg = DesignConfig {
            variant: vec!["num_cards=6".into()],
            players: Some(2),
            agent: "greedy:samples=1".into(),
            classes: vec!["bid6".into()],
            personas: Vec::new(),
            kingmaker: None,
            from: 0.5,
            games: 300,
            seed: 2,
            alpha: 10.0,
        };
        let d = run::<G>(&cfg).unwrap();
        let c = &d.classes[0];
        assert!(c.decisions.1 > 0 && c.decisions.2 > 0, "{c:?}");
        assert_eq!(c.forced_games, 300, "{c:?}");
        assert_eq!(
            c.played_vs_not.is_some(),
            c.played.0 > 0 && c.not_played.0 > 0
        );
        assert!(c.cost.estimate.is_finite());
    }
}
