//! `tabletop_sim.solvers`: the crate's exact tabular solvers ([`tabletop_sim::solvers`]) on
//! the games that have an extensive form ([`tabletop_sim::analysis::efg`]: Kuhn poker and
//! 2-player Goofspiel), so Python can compare them with other implementations (OpenSpiel's
//! CFR and exploitability through the bridge, `tests/test_solvers.py`).
//!
//! A [`GameTree`] is the expanded tree of `sim solve`. Policies cross the boundary as dicts
//! `{information-set key: [probability per action]}`, in the order of the set's actions as
//! `GameTree.infosets()` lists them; the keys are the game's `information_state_string` of
//! the seat to move (for Goofspiel: at the round start, so seat 1's key does not show seat
//! 0's pending bid). Values are in the tree's utility units, from seat 0's point of view.

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use tabletop_sim::analysis::efg::build_tree;
use tabletop_sim::solvers::best_response::{Evaluation, evaluate};
use tabletop_sim::solvers::efg::{Policy, Tree};
use tabletop_sim::solvers::{Algo, DEFAULT_MAX_NODES, Solver, SolverError};
use tabletop_sim::{Playable, dispatch_game};

use crate::{value_error, variant_text};

/// How far a policy's probabilities at one information set may sum from 1.
const SUM_TOLERANCE: f64 = 1e-6;

/// The expanded extensive form of a small two-player zero-sum game (the tree `sim solve`
/// runs on), with its exact solvers.
///
/// Built by `tabletop_sim.solvers.game_tree(name, max_nodes=..., **settings)`. Immutable.
///
/// Utilities are seat 0's, seat 1 receiving the negation: Kuhn poker in chips (bridged
/// returns are `(2 + chips) / 4`, so values there are these / 4), Goofspiel `win-loss`
/// +1/0/-1 (bridged win shares are `(1 + u) / 2`: values there are these / 2) or `points`
/// `(a - b) / 2`.
#[pyclass(frozen, module = "tabletop_sim")]
pub(crate) struct GameTree {
    tree: Tree,
    game: &'static str,
    /// The action ids of every information set, in its action order.
    ids: Vec<Vec<usize>>,
    /// Information-set index by key.
    index: HashMap<String, usize>,
}

/// The action ids (`Game.string_to_action`) of every information set's action labels.
fn label_ids<G: Playable>(tree: &Tree) -> Result<Vec<Vec<usize>>, String> {
    tree.infosets
        .iter()
        .map(|set| {
            set.actions
                .iter()
                .map(|label| {
                    G::parse_action(label).map(G::action_id).ok_or_else(|| {
                        format!(
                            "action '{label}' of information set '{}' is not an action of {}",
                            set.key,
                            G::NAME
                        )
                    })
                })
                .collect()
        })
        .collect()
}

/// An [`Evaluation`] as a dict.
fn eval_dict<'py>(py: Python<'py>, e: &Evaluation) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("value", e.value)?;
    d.set_item("best_response", (e.best_response[0], e.best_response[1]))?;
    d.set_item("nash_conv", e.nash_conv)?;
    d.set_item("exploitability", e.exploitability)?;
    Ok(d)
}

impl GameTree {
    /// A flat policy as `{key: [probabilities]}`, in information-set order.
    fn policy_dict<'py>(&self, py: Python<'py>, policy: &[f64]) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for set in &self.tree.infosets {
            d.set_item(
                &set.key,
                policy[set.offset..set.offset + set.actions.len()].to_vec(),
            )?;
        }
        Ok(d)
    }

    /// A flat policy from `{key: [probabilities]}`: every information set exactly once,
    /// one non-negative finite probability per action, summing to 1 within
    /// [`SUM_TOLERANCE`].
    fn policy_from(&self, policy: &Bound<'_, PyDict>) -> PyResult<Policy> {
        let tree = &self.tree;
        let mut out = vec![0.0; tree.num_actions];
        let mut seen = vec![false; tree.infosets.len()];
        for (k, v) in policy.iter() {
            let key: String = k.extract().map_err(|_| {
                value_error(format!(
                    "policy keys are information-set keys (str); got {}",
                    k.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                ))
            })?;
            let &i = self.index.get(&key).ok_or_else(|| {
                value_error(format!(
                    "'{key}' is not an information set of {}; the keys are those of \
                     GameTree.infosets()",
                    tree.name
                ))
            })?;
            let set = &tree.infosets[i];
            let n = set.actions.len();
            let probs: Vec<f64> = v.extract().map_err(|_| {
                value_error(format!(
                    "the policy of '{key}' must be a sequence of {n} probabilities (actions {})",
                    set.actions.join(", ")
                ))
            })?;
            if probs.len() != n {
                return Err(value_error(format!(
                    "the policy of '{key}' has {} probabilities; its actions are {n} ({})",
                    probs.len(),
                    set.actions.join(", ")
                )));
            }
            if probs.iter().any(|p| !p.is_finite() || *p < 0.0) {
                return Err(value_error(format!(
                    "the policy of '{key}' has a negative or non-finite probability: {probs:?}"
                )));
            }
            let sum: f64 = probs.iter().sum();
            if (sum - 1.0).abs() > SUM_TOLERANCE {
                return Err(value_error(format!(
                    "the policy of '{key}' sums to {sum}, not 1 (tolerance {SUM_TOLERANCE})"
                )));
            }
            out[set.offset..set.offset + n].copy_from_slice(&probs);
            seen[i] = true;
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            let missing = seen.iter().filter(|s| !**s).count();
            return Err(value_error(format!(
                "the policy misses {missing} of the {} information sets of {}, e.g. '{}'",
                tree.infosets.len(),
                tree.name,
                tree.infosets[i].key
            )));
        }
        Ok(out)
    }
}

#[pymethods]
impl GameTree {
    /// The game and variant (`"goofspiel num_cards=3 imp_info=true order=descending
    /// utility=win-loss"`).
    #[getter]
    fn name(&self) -> String {
        self.tree.name.clone()
    }

    /// The registry name of the game (`"kuhn"`, `"goofspiel"`).
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// Number of nodes (decision, chance and terminal).
    #[getter]
    fn num_nodes(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Number of information sets (both seats).
    #[getter]
    fn num_infosets(&self) -> usize {
        self.tree.infosets.len()
    }

    /// Every information set, in depth-first order of first visit: `(key, seat, action_ids,
    /// action_names)`, the actions in the order of a policy's probabilities; ids and names
    /// are those of `Game.action_to_string`.
    fn infosets(&self) -> Vec<(String, usize, Vec<usize>, Vec<String>)> {
        self.tree
            .infosets
            .iter()
            .zip(&self.ids)
            .map(|(set, ids)| {
                (
                    set.key.clone(),
                    set.player,
                    ids.clone(),
                    set.actions.to_vec(),
                )
            })
            .collect()
    }

    /// The uniform policy: `{key: [1/k] * k}`.
    fn uniform_policy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.policy_dict(py, &self.tree.uniform_policy())
    }

    /// Evaluates `policy` (`{key: [probabilities]}` covering every information set) by
    /// exact best responses: `{"value": seat 0's expected utility, "best_response": (seat
    /// 0's, seat 1's best-response value), "nash_conv", "exploitability": nash_conv / 2}`,
    /// in the tree's utility units (OpenSpiel's definitions; see the Rust
    /// `solvers::best_response`).
    ///
    /// Raises `ValueError` for an unknown or missing key, a wrong number of probabilities, a
    /// negative one, or a set whose probabilities do not sum to 1 (within 1e-6).
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        policy: &Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = self.policy_from(policy)?;
        let tree = &self.tree;
        let e = py.detach(|| evaluate(tree, &p));
        eval_dict(py, &e)
    }

    /// Runs `iterations` of `algo` (`cfr`: vanilla CFR with simultaneous updates and uniform
    /// averaging; `cfr+`: regret matching+, alternating updates, linear averaging;
    /// `cfr-alt`: regret matching, alternating updates, uniform averaging; `es-mccfr`,
    /// `os-mccfr` sampled from `seed`) with the GIL released, and returns the
    /// evaluation of the average policy (as `evaluate`) with `"average_policy"` (`{key:
    /// [probabilities]}`), `"algo"` and `"iterations"`.
    ///
    /// Raises `ValueError` naming the valid algorithms.
    #[pyo3(signature = (algo = "cfr", iterations = 1000, seed = 0))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        algo: &str,
        iterations: u64,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let algo: Algo = algo
            .parse()
            .map_err(|e: SolverError| value_error(e.to_string()))?;
        let tree = &self.tree;
        let (avg, e) = py.detach(|| {
            let mut solver = Solver::new(tree, algo, seed);
            for _ in 0..iterations {
                solver.iterate();
            }
            let avg = solver.average_policy();
            let e = evaluate(tree, &avg);
            (avg, e)
        });
        let d = eval_dict(py, &e)?;
        d.set_item("average_policy", self.policy_dict(py, &avg)?)?;
        d.set_item("algo", algo.name())?;
        d.set_item("iterations", iterations)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<GameTree {}: {} nodes, {} information sets>",
            self.tree.name,
            self.tree.nodes.len(),
            self.tree.infosets.len()
        )
    }
}

/// The extensive form of game `name` (`kuhn`, `goofspiel`) under rule settings as keywords
/// (`num_cards=4, order="descending", imp_info=True`; Goofspiel also takes
/// `utility="win-loss"` (default) or `"points"`), expanded with the GIL released.
///
/// Raises `ValueError` naming the valid games, the bad setting and its valid values, or a
/// tree larger than `max_nodes`.
#[pyfunction]
#[pyo3(signature = (name, max_nodes = DEFAULT_MAX_NODES, **settings))]
pub(crate) fn game_tree(
    py: Python<'_>,
    name: &str,
    max_nodes: usize,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<GameTree> {
    let mut s = Vec::new();
    if let Some(v) = settings {
        for (k, val) in v.iter() {
            s.push(format!("{}={}", k.str()?, variant_text(&val)?));
        }
    }
    let tree = py
        .detach(|| build_tree(name, &s, max_nodes))
        .map_err(|e| value_error(e.to_string()))?;
    let (game, ids) = dispatch_game!(name, G => (G::NAME, label_ids::<G>(&tree)))
        .map_err(|e| value_error(e.to_string()))?;
    let ids = ids.map_err(value_error)?;
    let index = tree
        .infosets
        .iter()
        .enumerate()
        .map(|(i, set)| (set.key.clone(), i))
        .collect();
    Ok(GameTree {
        tree,
        game,
        ids,
        index,
    })
}

/// The algorithm names `GameTree.solve` accepts.
pub(crate) const ALGORITHMS: [&str; 5] = Algo::NAMES;
