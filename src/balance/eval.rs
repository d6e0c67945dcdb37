//! The responses a search measures ([`super::root::Oracle`]): games played by a lineup
//! through the tournament runner ([`GamesOracle`]), or deals scored exactly under an
//! equilibrium ([`EquilibriumOracle`]). Sample `i` is game `i` of the spec's seed at every
//! probe (common random numbers).

use rayon::prelude::*;

use super::BalanceError;
use super::spec::{Objective, ObjectiveKind, Parameter};
use crate::game::{Komi, MAX_PLAYERS, PerSeat, Playable};
use crate::params::ParamValue;
use crate::solvers::efg::{Tree, TreeNode};
use crate::tournament::{Plan, play_game, run::build_agents};

/// The komi in a list of settings (`komi=...`), or none.
///
/// # Errors
/// A `komi` setting that does not parse.
pub fn komi_of(settings: &[String]) -> Result<Komi, BalanceError> {
    for s in settings {
        if let Some((k, v)) = s.split_once('=')
            && k.trim() == "komi"
        {
            return Komi::parse_param(v).map_err(|e| {
                BalanceError::Game(format!(
                    "bad value '{v}' for parameter 'komi': expected {e}"
                ))
            });
        }
    }
    Ok(Komi::NONE)
}

/// The response of one finished game to the objective, for seat `seat` of `n`: for
/// `equal_wins` the seat's share of first place minus the mean share of the others; for
/// `equal_score` its points plus komi minus the others' mean. (The other kinds are not
/// gaps between seats: [`measure`] gives their per-game measure; here they read as
/// `equal_wins` for `win_share` and `equal_score` for `length`.)
pub fn response(
    kind: ObjectiveKind,
    seat: usize,
    n: usize,
    points: &PerSeat<f64>,
    ranks: &PerSeat<u8>,
) -> f64 {
    let value: PerSeat<f64> = match kind {
        ObjectiveKind::EqualScore | ObjectiveKind::Length => *points,
        ObjectiveKind::EqualWins | ObjectiveKind::WinShare => {
            let winners = ranks[..n].iter().filter(|&&r| r == 1).count().max(1) as f64;
            std::array::from_fn(|p| {
                if p < n && ranks[p] == 1 {
                    1.0 / winners
                } else {
                    0.0
                }
            })
        }
    };
    let others = (0..n).filter(|&q| q != seat).map(|q| value[q]).sum::<f64>() / (n - 1) as f64;
    value[seat] - others
}

/// The measure of one finished game for an objective, before its target is subtracted:
/// [`response`] for `equal_wins` and `equal_score`, the plies for `length`, and for
/// `win_share` the seat's share of first place (`1/k` when `k` seats tie first).
pub fn measure(
    o: &Objective,
    n: usize,
    points: &PerSeat<f64>,
    ranks: &PerSeat<u8>,
    plies: u32,
) -> f64 {
    match o.kind {
        ObjectiveKind::EqualWins | ObjectiveKind::EqualScore => {
            response(o.kind, o.seat, n, points, ranks)
        }
        ObjectiveKind::Length => f64::from(plies),
        ObjectiveKind::WinShare => {
            let winners = ranks[..n].iter().filter(|&&r| r == 1).count().max(1) as f64;
            if ranks[o.seat] == 1 {
                1.0 / winners
            } else {
                0.0
            }
        }
    }
}

/// Games of game `G` played by a lineup: sample `i` at `x` is game `i` of a tournament
/// with the spec's seed, the fixed settings plus the parameter's setting at `x`, the
/// lineup and the seat count (`sim tournament --seed S --variant ... -n N` plays the
/// same games).
pub struct GamesOracle<'a> {
    /// The fixed rule settings.
    pub variant: &'a [String],
    /// The searched parameter.
    pub param: &'a Parameter,
    /// The lineup.
    pub agents: &'a [String],
    /// Seats per game.
    pub players: Option<usize>,
    /// The master seed.
    pub seed: u64,
    /// The objectives; the single-objective samplers measure the first.
    pub objectives: &'a [Objective],
}

impl GamesOracle<'_> {
    /// The settings at `x`: the fixed ones, then the parameter's.
    pub fn settings(&self, x: f64) -> Vec<String> {
        let mut s = self.variant.to_vec();
        s.push(self.param.setting(x));
        s
    }

    /// Samples `start..start + count` at `x` for game `G`.
    ///
    /// # Errors
    /// A bad setting or agent ([`BalanceError::Game`]), a failed game.
    pub fn play<G: Playable>(
        &self,
        x: f64,
        start: u64,
        count: u64,
    ) -> Result<Vec<f64>, BalanceError> {
        self.play_with::<G>(&[self.param.setting(x)], start, count)
    }

    /// Samples `start..start + count` for game `G` with the fixed settings followed by
    /// `extra` (the searched parameters' settings at one point of the space).
    ///
    /// # Errors
    /// A bad setting or agent ([`BalanceError::Game`]), a failed game.
    pub fn play_with<G: Playable>(
        &self,
        extra: &[String],
        start: u64,
        count: u64,
    ) -> Result<Vec<f64>, BalanceError> {
        let first = &self.objectives[..1];
        let target = first[0].target_value();
        Ok(self
            .play_all::<G>(extra, start, count, first)?
            .into_iter()
            .map(|m| m[0] - target)
            .collect())
    }

    /// Samples `start..start + count` for game `G` with the fixed settings followed by
    /// `extra`: per game, the [`measure`] of each of `objectives`, in order (the target
    /// not subtracted).
    ///
    /// # Errors
    /// A bad setting or agent ([`BalanceError::Game`]), a seat the game does not have, a
    /// failed game.
    pub fn play_all<G: Playable>(
        &self,
        extra: &[String],
        start: u64,
        count: u64,
        objectives: &[Objective],
    ) -> Result<Vec<Vec<f64>>, BalanceError> {
        let mut settings = self.variant.to_vec();
        settings.extend_from_slice(extra);
        let komi = komi_of(&settings)?;
        let plan = Plan::<G>::resolve(self.players, &settings, self.agents, self.seed)
            .map_err(|e| BalanceError::Game(e.to_string()))?;
        let n = plan.rules.players();
        if let Some(o) = objectives.iter().find(|o| o.seat >= n) {
            return Err(BalanceError::Game(format!(
                "objective seat {} does not exist at {n} players (seats 0..={})",
                o.seat,
                n - 1
            )));
        }
        build_agents::<G>(&plan.lineup).map_err(|e| BalanceError::Game(e.to_string()))?;
        (start..start + count)
            .into_par_iter()
            .map_init(
                || build_agents::<G>(&plan.lineup).expect("the specs were validated"),
                |agents, g| {
                    let r = play_game(&plan, agents, g, |_| {})
                        .map_err(|e| BalanceError::Failed(e.to_string()))?;
                    let points = komi.adjusted(&r.scores, n);
                    Ok(objectives
                        .iter()
                        .map(|o| measure(o, n, &points, &r.ranks, r.plies))
                        .collect())
                },
            )
            .collect()
    }
}

/// Kuhn poker under an equilibrium: the extensive form solved by CFR+ (Tammelin 2014)
/// for a number of iterations; sample `i` is the deal drawn from `seed_for(seed, i, 0)`
/// (the root's chance outcomes with their probabilities), scored by its exact expected
/// chips for seat 0 under the average strategy, plus the komi. Only the deal is sampled,
/// so the responses vary less than sampled games would, and their mean is exactly the
/// profile's value (−1/18 chip for seat 0 at the equilibrium).
pub struct EquilibriumOracle<'a> {
    /// The fixed rule settings.
    pub variant: &'a [String],
    /// The searched parameter.
    pub param: &'a Parameter,
    /// The master seed.
    pub seed: u64,
    /// The seat compared with the other.
    pub seat: usize,
    /// Seat 0's expected chips under the average strategy, per root outcome.
    deal_values: Vec<f64>,
    /// The root outcomes' probabilities.
    deal_probs: Vec<f64>,
    /// Seat 0's value of the whole profile.
    pub value: f64,
    /// The profile's exploitability (NashConv / 2), in chips: how far from equilibrium.
    pub exploitability: f64,
}

impl<'a> EquilibriumOracle<'a> {
    /// Solves Kuhn poker with `iters` CFR+ iterations.
    ///
    /// # Errors
    /// A bad setting.
    pub fn new(
        variant: &'a [String],
        param: &'a Parameter,
        seed: u64,
        seat: usize,
        iters: u64,
    ) -> Result<Self, BalanceError> {
        let tree = crate::analysis::efg::build_tree("kuhn", &[] as &[String], 1 << 16)
            .map_err(|e| BalanceError::Game(e.to_string()))?;
        let mut cfr = crate::solvers::cfr::Cfr::new(&tree, crate::solvers::cfr::CfrVariant::Plus);
        for _ in 0..iters {
            cfr.iterate();
        }
        let policy = cfr.average_policy();
        let TreeNode::Chance { first, count } = tree.nodes[0] else {
            return Err(BalanceError::Game(
                "the root of Kuhn poker is not a deal".into(),
            ));
        };
        let range = first as usize..(first + count) as usize;
        let deal_values = range
            .clone()
            .map(|c| node_value(&tree, tree.children[c] as usize, &policy))
            .collect();
        let deal_probs = range.map(|c| tree.chance_probs[c]).collect();
        Ok(EquilibriumOracle {
            variant,
            param,
            seed,
            seat,
            deal_values,
            deal_probs,
            value: tree.expected_value(&policy),
            exploitability: crate::solvers::best_response::exploitability(&tree, &policy),
        })
    }

    /// Samples `start..start + count` at `x`.
    ///
    /// # Errors
    /// A bad komi setting.
    pub fn play(&self, x: f64, start: u64, count: u64) -> Result<Vec<f64>, BalanceError> {
        self.play_with(&[self.param.setting(x)], start, count)
    }

    /// Samples `start..start + count` with the fixed settings followed by `extra`.
    ///
    /// # Errors
    /// A bad komi setting.
    pub fn play_with(
        &self,
        extra: &[String],
        start: u64,
        count: u64,
    ) -> Result<Vec<f64>, BalanceError> {
        let mut settings = self.variant.to_vec();
        settings.extend_from_slice(extra);
        crate::games::kuhn::Params::from_settings(&settings, "game kuhn")
            .map_err(|e| BalanceError::Game(e.to_string()))?;
        let komi = komi_of(&settings)?;
        Ok((start..start + count)
            .map(|i| {
                let mut rng = crate::rng::rng_from_seed(crate::rng::seed_for(self.seed, i, 0));
                let u: f64 = rand::RngExt::random(&mut rng);
                let mut acc = 0.0;
                let mut deal = self.deal_probs.len() - 1;
                for (d, p) in self.deal_probs.iter().enumerate() {
                    acc += p;
                    if u < acc {
                        deal = d;
                        break;
                    }
                }
                let v = self.deal_values[deal];
                let mut points = [0.0; MAX_PLAYERS];
                points[0] = v + komi.bonus(0);
                points[1] = -v + komi.bonus(1);
                response(
                    ObjectiveKind::EqualScore,
                    self.seat,
                    2,
                    &points,
                    &[0; MAX_PLAYERS],
                )
            })
            .collect())
    }
}

use crate::params::ParamSet as _;

/// Seat 0's expected utility at `node` when both seats follow `policy`.
fn node_value(tree: &Tree, node: usize, policy: &[f64]) -> f64 {
    match tree.nodes[node] {
        TreeNode::Terminal(u) => u,
        TreeNode::Chance { first, count } => (first..first + count)
            .map(|i| {
                let i = i as usize;
                tree.chance_probs[i] * node_value(tree, tree.children[i] as usize, policy)
            })
            .sum(),
        TreeNode::Decision {
            infoset,
            first,
            count,
            ..
        } => {
            let off = tree.infosets[infoset as usize].offset;
            (0..count as usize)
                .map(|a| {
                    let p = policy[off + a];
                    if p == 0.0 {
                        0.0
                    } else {
                        p * node_value(tree, tree.children[first as usize + a] as usize, policy)
                    }
                })
                .sum()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_compare_the_seat_with_the_others() {
        let ranks = [2, 1, 1, 3];
        let r = response(ObjectiveKind::EqualWins, 1, 4, &[0.0; 4], &ranks);
        assert!((r - (0.5 - 0.5 / 3.0)).abs() < 1e-12);
        let pts = [1.0, 4.0, 7.0, 0.0];
        let r = response(ObjectiveKind::EqualScore, 0, 3, &pts, &ranks);
        assert!((r - (1.0 - 5.5)).abs() < 1e-12);
    }

    #[test]
    fn komi_is_read_from_the_settings() {
        let k = komi_of(&["a=1".to_string(), "komi=0/1.5".to_string()]).unwrap();
        assert_eq!(k.bonus(1), 1.5);
        assert!(komi_of(&["komi=x".to_string()]).is_err());
        assert!(komi_of(&[]).unwrap().is_zero());
    }
}
