//! Root parallelism for one decision (`sim play --search-threads N`, `sim analyze
//! --search-threads N`): N independent searches of the same agent spec, one per thread,
//! whose root statistics are merged (Chaslot, Winands & van den Herik 2008, "Parallel
//! Monte-Carlo Tree Search", CG 2008: root parallelization; Cazenave & Jouandeau 2007's
//! "single-run" ensemble).
//!
//! **What it does.** For a decision, N seeds are drawn from the seat's random stream; the
//! k-th copy of the agent runs its full deliberation ([`Agent::analyze`]) with a stream
//! seeded by the k-th seed, on its own thread, with its own tree and its whole budget
//! (`iters`, or `time_ms` of wall time), so N threads spend N times the iterations of one.
//! The merged root statistics are, per legal action: the summed visits, the visit-weighted
//! mean value, and the mean probability (`cfr`'s average strategy). The move played is the
//! most visited action (ties: higher merged value), the majority vote of Chaslot et al.;
//! for `cfr` (no visits) a draw from the mean strategy with the seat's stream, or its
//! argmax when the agent plays `final=max`.
//!
//! **Determinism.** Each copy's result depends only on its seed, and results are merged in
//! copy order, so the merged statistics and the move are the same for any scheduling of
//! the threads; they equal the merge of the same N searches run one after the other
//! (tested). With N = 1 no copy is made: the agent plays exactly as without the option.
//! With N > 1 the move can differ from one thread's move at the same seed: the first copy
//! searches with a stream seeded from the seat's stream, not with the stream itself, and
//! the other copies add their votes.
//!
//! **Which agents.** The search kinds `mcts`, `ismcts` and `cfr` (and presets of them).
//! Other agents (`random`, `greedy`, `human`, `ext`) are used as they are, on one thread.
//! Subtree reuse (`reuse=true`) does not carry over between decisions: every decision
//! starts fresh trees. Tournaments never use it: they keep one thread per game, so their
//! results stay identical for every thread count.

use rand::{Rng, RngExt, SeedableRng};

use super::{ActionStat, Agent, AgentError, build};
use crate::game::{GameStart, Playable, View};
use crate::rng::SimRng;

/// The agent kinds that run as root-parallel ensembles (the others run on one thread).
pub const PARALLEL_KINDS: [&str; 3] = ["mcts", "ismcts", "cfr"];

/// Builds the agent of `spec` for `threads` root-parallel searches: the plain agent when
/// `threads <= 1` or its kind is not a search kind ([`PARALLEL_KINDS`]), otherwise a
/// [`RootParallel`] of `threads` copies.
///
/// # Errors
/// As [`build`].
pub fn build_parallel<G: Playable>(
    spec: &str,
    threads: usize,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    let first = build::<G>(spec)?;
    let kind = first.spec();
    let kind = kind.split(':').next().unwrap_or_default();
    if threads <= 1 || !PARALLEL_KINDS.contains(&kind) {
        return Ok(first);
    }
    let mut copies = vec![first];
    for _ in 1..threads {
        copies.push(build::<G>(spec)?);
    }
    Ok(Box::new(RootParallel::new(copies)))
}

/// N copies of one search agent deciding together (see the module docs).
pub struct RootParallel<G: Playable> {
    copies: Vec<Box<dyn Agent<G>>>,
    /// Whether the move is the argmax of the mean probability (`cfr` with `final=max`)
    /// rather than a draw from it, when the statistics carry no visits.
    argmax_probability: bool,
}

impl<G: Playable> RootParallel<G> {
    /// An ensemble of `copies` (built from one spec; at least one).
    ///
    /// # Panics
    /// If `copies` is empty.
    pub fn new(copies: Vec<Box<dyn Agent<G>>>) -> Self {
        assert!(!copies.is_empty(), "a root-parallel ensemble needs a copy");
        let argmax_probability = copies[0].spec().contains("final=max");
        RootParallel {
            copies,
            argmax_probability,
        }
    }

    /// Runs every copy's deliberation on its own thread with its own seed (drawn from
    /// `rng`, one per copy, in order) and merges the root statistics ([`merge`]).
    fn deliberate(
        &mut self,
        view: &View<'_, G>,
        rng: &mut SimRng,
    ) -> Option<Vec<ActionStat<G::Action>>> {
        let seeds: Vec<u64> = self.copies.iter().map(|_| rng.next_u64()).collect();
        let results: Vec<Option<Vec<ActionStat<G::Action>>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .copies
                .iter_mut()
                .zip(&seeds)
                .map(|(copy, &seed)| {
                    scope.spawn(move || copy.analyze(view, &mut SimRng::seed_from_u64(seed)))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let results: Option<Vec<_>> = results.into_iter().collect();
        Some(merge(&results?))
    }
}

/// Merges the root statistics of several searches of one decision (same legal actions, same
/// order): visits summed, values averaged with the visits as weights (plain mean when no
/// search reports visits), probabilities averaged.
///
/// # Panics
/// If `parts` is empty or the parts list different actions.
pub fn merge<A: Copy + PartialEq + std::fmt::Debug>(
    parts: &[Vec<ActionStat<A>>],
) -> Vec<ActionStat<A>> {
    let n = parts.len() as f64;
    (0..parts[0].len())
        .map(|i| {
            let action = parts[0][i].action;
            let rows: Vec<&ActionStat<A>> = parts.iter().map(|p| &p[i]).collect();
            assert!(rows.iter().all(|r| r.action == action), "different actions");
            let visits: Option<u64> = rows.iter().map(|r| r.visits).sum();
            let value = match visits {
                Some(total) => {
                    let weighted: f64 = rows
                        .iter()
                        .filter_map(|r| r.value.map(|v| v * r.visits.unwrap_or(0) as f64))
                        .sum();
                    (total > 0).then(|| weighted / total as f64)
                }
                None => {
                    let vals: Option<Vec<f64>> = rows.iter().map(|r| r.value).collect();
                    vals.map(|v| v.iter().sum::<f64>() / n)
                }
            };
            let probability: Option<f64> = rows
                .iter()
                .map(|r| r.probability)
                .sum::<Option<f64>>()
                .map(|p| p / n);
            ActionStat {
                action,
                visits,
                value,
                probability,
            }
        })
        .collect()
}

/// The move of merged statistics: the most visited action (ties: higher value) when there
/// are visits; else the argmax of the probability (`argmax_probability`) or a draw from it
/// with `rng`; else the highest value (ties: first).
pub fn choose<A: Copy>(stats: &[ActionStat<A>], argmax_probability: bool, rng: &mut SimRng) -> A {
    let key = |s: &ActionStat<A>| s.value.unwrap_or(f64::NEG_INFINITY);
    let mut best = 0;
    if stats[0].visits.is_some() {
        for i in 1..stats.len() {
            let (v, b) = (stats[i].visits, stats[best].visits);
            if v > b || (v == b && key(&stats[i]) > key(&stats[best])) {
                best = i;
            }
        }
        return stats[best].action;
    }
    if stats[0].probability.is_some() {
        let p = |s: &ActionStat<A>| s.probability.unwrap_or(0.0);
        if argmax_probability {
            for i in 1..stats.len() {
                if p(&stats[i]) > p(&stats[best]) {
                    best = i;
                }
            }
            return stats[best].action;
        }
        let mut x = rng.random::<f64>();
        for s in stats {
            if x < p(s) {
                return s.action;
            }
            x -= p(s);
        }
        return stats[stats.len() - 1].action;
    }
    for i in 1..stats.len() {
        if key(&stats[i]) > key(&stats[best]) {
            best = i;
        }
    }
    stats[best].action
}

impl<G: Playable> Agent<G> for RootParallel<G> {
    /// The spec of the copies (the ensemble is a way of running it, not another agent).
    fn spec(&self) -> String {
        self.copies[0].spec()
    }

    fn start_game(&mut self, start: &GameStart<G>) {
        for c in &mut self.copies {
            c.start_game(start);
        }
    }

    fn end_game(&mut self, view: &View<'_, G>) {
        for c in &mut self.copies {
            c.end_game(view);
        }
    }

    fn uses_wall_clock(&self) -> bool {
        self.copies[0].uses_wall_clock()
    }

    /// A single legal action is played at once (as the search agents do); otherwise the
    /// merged ensemble's move ([`choose`]).
    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        let mut legal = Vec::new();
        view.legal_actions(&mut legal);
        if legal.len() == 1 {
            return legal[0];
        }
        match self.deliberate(view, rng) {
            Some(stats) => choose(&stats, self.argmax_probability, rng),
            None => self.copies[0].act(view, rng),
        }
    }

    /// The merged statistics of the N searches ([`merge`]).
    fn analyze(
        &mut self,
        view: &View<'_, G>,
        rng: &mut SimRng,
    ) -> Option<Vec<ActionStat<G::Action>>> {
        self.deliberate(view, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::Race;
    use crate::rng::test_rng;

    fn position() -> Race {
        let mut rng = test_rng(4);
        crate::game::setup::<Race>(&Default::default(), 2, &mut rng).unwrap()
    }

    /// Root parallelism gives the same move as one thread where the algorithm allows it:
    /// with one thread it is the agent itself (bit for bit); with N threads the merged
    /// statistics and the move equal the sequential merge of the same N seeded searches,
    /// whatever the scheduling (run twice), and the visits add up to N times the budget.
    #[test]
    fn root_parallelism_equals_the_sequential_merge_of_the_same_seeded_searches() {
        let state = position();
        let view = View::new(&state, 0);
        for spec in ["mcts:iters=300", "ismcts:iters=300", "cfr:iters=300"] {
            let mut one = build_parallel::<Race>(spec, 1).unwrap();
            let mut plain = build::<Race>(spec).unwrap();
            assert_eq!(
                one.analyze(&view, &mut test_rng(9)),
                plain.analyze(&view, &mut test_rng(9)),
                "{spec}, one thread"
            );
            for threads in [2, 3] {
                let mut par = build_parallel::<Race>(spec, threads).unwrap();
                let got = par.analyze(&view, &mut test_rng(9)).unwrap();
                let again = par.analyze(&view, &mut test_rng(9)).unwrap();
                assert_eq!(got, again, "{spec}: scheduling changed the result");
                let mut seeds = test_rng(9);
                let parts: Vec<_> = (0..threads)
                    .map(|_| {
                        let mut rng = SimRng::seed_from_u64(seeds.next_u64());
                        build::<Race>(spec)
                            .unwrap()
                            .analyze(&view, &mut rng)
                            .unwrap()
                    })
                    .collect();
                let want = merge(&parts);
                assert_eq!(got, want, "{spec}, {threads} threads");
                if let Some(v) = got[0].visits {
                    let total: u64 = got.iter().map(|s| s.visits.unwrap()).sum();
                    assert!(v > 0 && total == 300 * threads as u64, "{spec}: {total}");
                }
                let a = par.act(&view, &mut test_rng(9));
                let b = choose(&want, false, &mut {
                    let mut r = test_rng(9);
                    for _ in 0..threads {
                        r.next_u64();
                    }
                    r
                });
                assert_eq!(a, b, "{spec}, {threads} threads: move");
            }
        }
    }

    #[test]
    fn merging_sums_visits_and_weights_values() {
        let row = |v: u64, m: f64| ActionStat {
            visits: Some(v),
            value: Some(m),
            ..ActionStat::new(0u8)
        };
        let m = merge(&[vec![row(10, 0.5)], vec![row(30, 0.9)]]);
        assert_eq!(m[0].visits, Some(40));
        assert!((m[0].value.unwrap() - 0.8).abs() < 1e-12);
        let p = |x: f64| ActionStat {
            probability: Some(x),
            ..ActionStat::new(1u8)
        };
        let m = merge(&[vec![p(0.2)], vec![p(0.6)]]);
        assert!((m[0].probability.unwrap() - 0.4).abs() < 1e-12);
    }

    #[test]
    fn other_kinds_run_unwrapped() {
        let state = position();
        let view = View::new(&state, 0);
        let mut g = build_parallel::<Race>("greedy", 4).unwrap();
        let mut plain = build::<Race>("greedy").unwrap();
        assert_eq!(
            g.act(&view, &mut test_rng(2)),
            plain.act(&view, &mut test_rng(2))
        );
    }
}
