//! The Daxu endgame exploitability experiment: how far agents are from equilibrium in
//! endgames whose exact solution is known.
//!
//! Method. Positions are sampled by playing Daxu games (both seats played by the
//! `sampler` agent) from `seed` until the first choose node with at most `max_deck` cards
//! in the deck. For every position, agent and seat, the agent's policy at each node of the
//! endgame where the seat acts is estimated from `samples` calls of [`Agent::act`] (the
//! empirical distribution; a deterministic agent gives a pure policy), and the exact
//! best-response value against that policy is computed by
//! [`Endgame::best_response_value`]. The *loss* is the seat's equilibrium win probability
//! minus that value: 0 for an equilibrium policy, up to 1. Means are over positions ×
//! seats with a normal 95% interval.
//!
//! The empirical policy of a stochastic agent carries sampling noise that a best response
//! can exploit, so losses of stochastic agents are biased upwards by a term that shrinks
//! as `samples` grows; `samples` is recorded with the results.

use std::collections::HashMap;

use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::agents::{self, Agent};
use crate::analysis::daxu_endgame::Endgame;
use crate::game::{GameState, Seat, View, play_ply};
use crate::games::daxu::{Action, Params, Phase, State};
use crate::rng::{SimRng, rng_for};
use crate::stats::Welford;

/// What to measure.
#[derive(Debug, Clone, PartialEq)]
pub struct EndgameSpec {
    /// Rule variants.
    pub params: Params,
    /// Agent specs to measure.
    pub agents: Vec<String>,
    /// Largest deck (cards) at the sampled positions.
    pub max_deck: u8,
    /// Number of positions.
    pub positions: usize,
    /// `act` calls per node to estimate each agent's policy.
    pub samples: usize,
    /// Agent spec that plays both seats down to the endgame.
    pub sampler: String,
    /// Master seed: position `i` comes from game `i` of this seed.
    pub seed: u64,
}

/// One measurement: an agent in one seat of one position.
#[derive(Debug, Clone, PartialEq)]
pub struct EndgameRow {
    /// Position index.
    pub position: usize,
    /// Cards in the deck at the position.
    pub deck: u8,
    /// The measured seat.
    pub seat: Seat,
    /// Canonical agent spec.
    pub agent: String,
    /// The seat's equilibrium win probability.
    pub equilibrium: f64,
    /// The seat's win probability against a best response to the agent's policy.
    pub best_response: f64,
    /// `equilibrium - best_response`.
    pub loss: f64,
}

/// Per-agent aggregate.
#[derive(Debug, Clone, PartialEq)]
pub struct EndgameSummary {
    /// Canonical agent spec.
    pub agent: String,
    /// Measurements (positions × seats).
    pub n: u64,
    /// Mean loss (win probability).
    pub mean_loss: f64,
    /// 95% interval of the mean.
    pub ci_low: f64,
    /// See `ci_low`.
    pub ci_high: f64,
    /// Largest single loss.
    pub max_loss: f64,
}

/// Plays a game with `sampler` in both seats until a choose node with at most `max_deck`
/// cards; `None` if the game ended first.
pub fn sample_position(
    params: &Params,
    sampler: &str,
    max_deck: u8,
    seed: u64,
    index: u64,
) -> Option<State> {
    let mut chance = rng_for(seed, index, 0);
    let mut seats: Vec<Box<dyn Agent<State>>> = (0..2)
        .map(|_| agents::build::<State>(sampler).expect("validated spec"))
        .collect();
    let mut agent_rngs = [rng_for(seed, index, 1), rng_for(seed, index, 2)];
    let rules = crate::game::rules::<State>(params, 2).expect("validated Daxu parameters");
    let mut s = State::new_game(rules, &mut chance);
    loop {
        if s.turn().is_terminal() {
            return None;
        }
        if s.phase() == Phase::Choose && s.deck_len() <= max_deck {
            return Some(s);
        }
        play_ply(&mut s, &mut chance, |st, p, _| {
            seats[p].act(&View::new(st, p), &mut agent_rngs[p])
        });
    }
}

/// The empirical policy of `agent` for `seat` at `s` from `samples` decisions.
fn empirical_policy(
    agent: &mut dyn Agent<State>,
    s: &State,
    seat: Seat,
    samples: usize,
    rng: &mut SimRng,
) -> Vec<(Action, f64)> {
    let mut counts: HashMap<Action, usize> = HashMap::new();
    for _ in 0..samples.max(1) {
        *counts
            .entry(agent.act(&View::new(s, seat), rng))
            .or_default() += 1;
    }
    let mut v: Vec<(Action, f64)> = counts
        .into_iter()
        .map(|(a, c)| (a, c as f64 / samples.max(1) as f64))
        .collect();
    v.sort_by_key(|&(a, _)| a);
    v
}

/// Runs the experiment: one row per (position, agent, seat), in that order. `progress`
/// is advanced once per finished position (pass a hidden bar for none).
///
/// # Errors
/// An agent spec that does not build, with the valid choices.
pub fn run(
    spec: &EndgameSpec,
    progress: &ProgressBar,
) -> Result<Vec<EndgameRow>, agents::AgentError> {
    let canon: Vec<String> = spec
        .agents
        .iter()
        .map(|a| agents::canonicalize(a))
        .collect::<Result<_, _>>()?;
    agents::canonicalize(&spec.sampler)?;
    let rows: Vec<Vec<EndgameRow>> = (0..spec.positions)
        .into_par_iter()
        .map(|i| {
            let Some(pos) = sample_position(
                &spec.params,
                &spec.sampler,
                spec.max_deck,
                spec.seed,
                i as u64,
            ) else {
                return Vec::new();
            };
            let mut solver = Endgame::new(spec.max_deck);
            let eq = solver.value(&pos).expect("deck within the limit");
            let mut out = Vec::new();
            for (a, name) in spec.agents.iter().zip(&canon) {
                for seat in 0..2 {
                    let mut agent = agents::build::<State>(a).expect("validated spec");
                    let mut rng = rng_for(spec.seed ^ 0x5eed_e11d, i as u64, seat as u64 + 1);
                    let mut policy = |st: &State, p: Seat| {
                        empirical_policy(agent.as_mut(), st, p, spec.samples, &mut rng)
                    };
                    let br = solver
                        .best_response_value(&pos, seat, &mut policy)
                        .expect("deck within the limit");
                    let equilibrium = if seat == 0 { eq } else { 1.0 - eq };
                    out.push(EndgameRow {
                        position: i,
                        deck: pos.deck_len(),
                        seat,
                        agent: name.clone(),
                        equilibrium,
                        best_response: br,
                        loss: equilibrium - br,
                    });
                }
            }
            progress.inc(1);
            out
        })
        .collect();
    Ok(rows.into_iter().flatten().collect())
}

/// Aggregates rows per agent, in first-appearance order.
pub fn summarize(rows: &[EndgameRow]) -> Vec<EndgameSummary> {
    let mut order: Vec<String> = Vec::new();
    let mut acc: HashMap<String, (Welford, f64)> = HashMap::new();
    for r in rows {
        if !acc.contains_key(&r.agent) {
            order.push(r.agent.clone());
        }
        let e = acc
            .entry(r.agent.clone())
            .or_insert((Welford::default(), 0.0));
        e.0.push(r.loss);
        e.1 = e.1.max(r.loss);
    }
    order
        .into_iter()
        .map(|a| {
            let (w, max) = &acc[&a];
            let half = crate::stats::Z95 * w.sd() / (w.count() as f64).sqrt().max(1.0);
            EndgameSummary {
                agent: a,
                n: w.count(),
                mean_loss: w.mean(),
                ci_low: w.mean() - half,
                ci_high: w.mean() + half,
                max_loss: *max,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_reproducible_endgames() {
        let p = Params::default();
        let a = sample_position(&p, "random", 4, 7, 3).unwrap();
        let b = sample_position(&p, "random", 4, 7, 3).unwrap();
        assert_eq!(a, b);
        assert!(a.deck_len() <= 4 && a.phase() == Phase::Choose);
    }

    #[test]
    fn losses_are_in_range_and_random_play_loses_something() {
        let spec = EndgameSpec {
            params: Params::default(),
            agents: vec!["random".into(), "greedy".into()],
            max_deck: 3,
            positions: 6,
            samples: 8,
            sampler: "random".into(),
            seed: 1,
        };
        let rows = run(&spec, &ProgressBar::hidden()).unwrap();
        assert_eq!(rows.len(), 6 * 2 * 2);
        assert!(rows.iter().all(|r| r.loss > -1e-9 && r.loss <= 1.0));
        let s = summarize(&rows);
        assert_eq!(s.len(), 2);
        assert!(s[0].mean_loss > 0.0, "{s:?}");
    }
}
