//! Auto-balance (`sim balance SPEC`): from "is it balanced?" to "what setting balances
//! it?", with an interval on the answer where the method gives one; and design metrics
//! (`sim design`, [`design`]).
//!
//! A spec ([`spec::Spec`], documented field by field in `docs/balance.md`) names the game,
//! the seats, the lineup, the rule parameters searched (a rule setting with `{x}` in it,
//! e.g. the generic komi `komi=0/{x}`, [`crate::game::Komi`]) with their ranges or values,
//! the objectives (equal wins or equal expected points of one seat against the others,
//! a game length, a win share), the
//! method, the budget and the seed. [`run`] searches with one of:
//! - the stochastic root finder of [`root`] for one monotone parameter (an interval on the
//!   balanced value), or its grid baseline;
//! - racing ([`racing`], successive halving) over every combination of a small discrete
//!   space;
//! - NTBEA ([`ntbea`], Lucas, Liu & Perez-Liebana 2018) for a mixed space;
//! - every combination on the same games, with several objectives (equal wins or scores,
//!   a target game length, a seat's win share) and their Pareto front ([`front`],
//!   `method = "front"`);
//!
//! always with common random numbers (game `i` has the same seed at every setting), then
//! verifies the recommendation on fresh seeds against each one-step deviation
//! ([`verify_deviations`], as TAG's verification does, with intervals). [`report`] builds
//! the report.
//!
//! The responses come from games played through the tournament runner
//! ([`eval::GamesOracle`]) or, for Kuhn poker, from the exact value of each sampled deal
//! under a CFR+ equilibrium ([`eval::EquilibriumOracle`]).
//!
//! Not yet here (issue 24, later rounds): sharding a study.

pub mod alpharank;
pub mod design;
pub mod eval;
pub mod front;
pub mod journal;
pub mod ntbea;
pub mod racing;
pub mod report;
pub mod root;
pub mod spec;

use std::io::Write;

use crate::format::f6;
use crate::stats::{Difference, paired_difference};
use front::FrontResult;
use ntbea::{NtbeaConfig, NtbeaResult};
use racing::{Goal, Race};
use root::{Oracle, RootConfig, RootResult};
use spec::{Evaluator, ParamKind, Spec};

/// Why a balance study failed.
#[derive(Debug, thiserror::Error)]
pub enum BalanceError {
    /// The spec is malformed: the file, line and field, and what is wrong.
    #[error("{file}:{line}: field `{field}`: {message}")]
    Spec {
        /// The spec file.
        file: String,
        /// 1-based line.
        line: usize,
        /// The field (`budget.batch`).
        field: String,
        /// What is wrong and what would be valid.
        message: String,
    },
    /// A setting, agent or seat the game refuses, or a failed game.
    #[error("{0}")]
    Game(String),
    /// A game failed while playing (a bug in a game or an agent): exit code 1.
    #[error("a game failed: {0}")]
    Failed(String),
}

/// The first index of the verification games: far past any search (which uses games
/// `0..max_per_probe`), so verification never reuses a search game's seed.
pub const VERIFY_OFFSET: u64 = 1 << 48;

/// What a search found.
#[derive(Clone, Debug)]
pub enum Search {
    /// The root finder or the grid (`method = "root"` or `"grid"`): one ordered parameter.
    Root(RootResult),
    /// Racing (`method = "racing"`): every combination of the parameters' levels.
    Race {
        /// The race.
        race: Race,
        /// The arms' points, by arm index (a level index per parameter).
        arms: Vec<Vec<usize>>,
    },
    /// NTBEA (`method = "ntbea"`).
    Ntbea(NtbeaResult),
    /// Every combination on the same games and the Pareto front of the objectives
    /// (`method = "front"`, [`front`]).
    Front(FrontResult),
}

impl Search {
    /// Games (samples) the search used.
    pub fn samples(&self) -> u64 {
        match self {
            Search::Root(r) => r.samples,
            Search::Race { race, .. } => race.samples,
            Search::Ntbea(n) => n.samples,
            Search::Front(f) => f.samples,
        }
    }

    /// The root finder's result, if that was the method.
    pub fn root(&self) -> Option<&RootResult> {
        match self {
            Search::Root(r) => Some(r),
            _ => None,
        }
    }
}

/// One point of the verification: the recommendation or a one-step deviation from it.
#[derive(Clone, Debug)]
pub struct Check {
    /// The parameter moved (`None` for the recommendation itself).
    pub parameter: Option<String>,
    /// The moved parameter's value (the recommendation: every value, space-separated).
    pub value: String,
    /// The rule settings of the point.
    pub settings: Vec<String>,
    /// Its mean response on the fresh games, with the 95% t interval.
    pub mean: Difference,
    /// For a deviation: `|mean here| − |mean at the recommendation|`, paired by game, with
    /// its 95% interval ([`verify_deviations`]); negative means more balanced here.
    pub versus: Option<Difference>,
}

impl Check {
    /// `better`, `worse` or `no detectable difference` (a deviation against the
    /// recommendation, at the 5% level); `recommended` for the recommendation.
    pub fn verdict(&self) -> &'static str {
        match self.versus {
            None => "recommended",
            Some(d) if d.high < 0.0 => "better",
            Some(d) if d.low > 0.0 => "worse",
            Some(_) => "no detectable difference",
        }
    }
}

/// A finished study.
#[derive(Clone, Debug)]
pub struct Study {
    /// The search.
    pub search: Search,
    /// The recommended value of an ordered single parameter (the root finder's estimate,
    /// rounded for an int parameter); for racing and NTBEA the first parameter's value
    /// when it is ordered, else NaN.
    pub recommended: f64,
    /// The recommended value of every parameter, as typed (`2.5`, `sun`).
    pub values: Vec<String>,
    /// The recommended rule settings, one per parameter.
    pub settings: Vec<String>,
    /// The response at the recommendation on fresh seeds, if verification was asked for.
    pub verification: Option<Difference>,
    /// The recommendation and each one-step deviation on the same fresh seeds
    /// ([`verify_deviations`]); empty without verification.
    pub checks: Vec<Check>,
    /// Games of the verification, per point.
    pub verify_games: u64,
    /// For the equilibrium evaluator: seat 0's value and the exploitability of the profile.
    pub equilibrium: Option<(f64, f64)>,
}

/// The root finder's settings from the spec.
pub fn root_config(spec: &Spec) -> RootConfig {
    let p = spec.param();
    let (low, high) = (p.low.unwrap_or(0.0), p.high.unwrap_or(1.0));
    let integer = p.kind == ParamKind::Int;
    RootConfig {
        low,
        high,
        integer,
        increasing: p.increasing,
        tolerance: p
            .tolerance
            .unwrap_or(if integer { 1.0 } else { (high - low) / 64.0 }),
        alpha: spec.alpha,
        batch: spec.budget.batch,
        max_per_probe: spec.budget.max_per_probe,
        budget: spec.budget.games,
    }
}

/// An [`Oracle`] from a function.
struct FnOracle<F>(F);

impl<F: Fn(f64, u64, u64) -> Result<Vec<f64>, BalanceError>> Oracle for FnOracle<F> {
    type Error = BalanceError;
    fn responses(&self, x: f64, start: u64, count: u64) -> Result<Vec<f64>, BalanceError> {
        (self.0)(x, start, count)
    }
}

/// A sampler of responses: `play(settings, start, count)` returns samples
/// `start..start + count` with the searched parameters set by `settings`.
type Play<'a> = dyn Fn(&[String], u64, u64) -> Result<Vec<f64>, BalanceError> + 'a;

/// Runs the study of `spec`, reporting each probe on `log` (one line each).
///
/// # Errors
/// An unknown game, a setting or agent the game refuses, a failed game.
pub fn run(spec: &Spec, log: &mut dyn Write) -> Result<Study, BalanceError> {
    run_journaled(spec, log, &journal::Journal::none())
}

/// [`run`] with every sampler call answered from `journal` when it holds it and appended
/// to it otherwise ([`journal`]: resuming an interrupted study gives the same outputs).
///
/// # Errors
/// As [`run`]; writing the journal.
pub fn run_journaled(
    spec: &Spec,
    log: &mut dyn Write,
    journal: &journal::Journal,
) -> Result<Study, BalanceError> {
    let games = eval::GamesOracle {
        variant: &spec.variant,
        param: spec.param(),
        agents: &spec.agents,
        players: spec.players,
        seed: spec.seed,
        objectives: &spec.objectives,
    };
    let equilibrium = match spec.evaluator {
        Evaluator::Games => None,
        Evaluator::Equilibrium => Some(eval::EquilibriumOracle::new(
            &spec.variant,
            spec.param(),
            spec.seed,
            spec.objective().seat,
            spec.solver_iters,
        )?),
    };
    let play_one = |extra: &[String], s: u64, c: u64| match &equilibrium {
        Some(o) => o.play_with(extra, s, c),
        None => crate::dispatch_game!(spec.game.as_str(), G => games.play_with::<G>(extra, s, c))
            .map_err(|e| BalanceError::Game(e.to_string()))?,
    };
    let play = |extra: &[String], s: u64, c: u64| {
        let rows = journal.call("one", extra, (s, c), || {
            Ok(play_one(extra, s, c)?
                .into_iter()
                .map(|y| vec![y])
                .collect())
        })?;
        Ok(rows.into_iter().map(|r| r[0]).collect())
    };
    // Every objective's measure per game (method = "front"; the games evaluator).
    let play_all = |extra: &[String], s: u64, c: u64| {
        journal.call("all", extra, (s, c), || {
            crate::dispatch_game!(spec.game.as_str(), G => games.play_all::<G>(extra, s, c, &spec.objectives))
                .map_err(|e| BalanceError::Game(e.to_string()))?
        })
    };
    // Refuse a bad game, setting or agent before any probe.
    for p in &spec.parameter {
        for i in 0..p.level_count() {
            play(&[p.level_setting(i)], 0, 0)?;
        }
    }
    let mut study = match spec.method.as_str() {
        "racing" => run_racing(spec, &play, log)?,
        "ntbea" => run_ntbea(spec, &play, log)?,
        "front" => run_front(spec, &play, &play_all, log)?,
        _ => run_root(spec, &play, log)?,
    };
    study.equilibrium = equilibrium.map(|o| (o.value, o.exploitability));
    Ok(study)
}

/// The recommended value of the root finder's or the grid's estimate `x`: a whole
/// number for an int parameter; otherwise rounded to one decimal digit below the
/// tolerance (tolerance 0.002: 4 decimals), so the setting reads as typed.
pub fn recommend_value(spec: &Spec, x: f64) -> f64 {
    let cfg = root_config(spec);
    if spec.param().kind == ParamKind::Int {
        x.round()
    } else {
        let decimals = (-cfg.tolerance.log10()).ceil().max(0.0) as i32 + 1;
        let f = 10f64.powi(decimals);
        (x * f).round() / f
    }
}

/// The root finder or the grid, then the verification at the estimate and one step to
/// either side (the tolerance; the grid's spacing).
fn run_root(spec: &Spec, play: &Play<'_>, log: &mut dyn Write) -> Result<Study, BalanceError> {
    let cfg = root_config(spec);
    let p = spec.param();
    let recommend = |x: f64| recommend_value(spec, x);
    let oracle = FnOracle(|x: f64, s: u64, c: u64| play(&[p.setting(x)], s, c));
    let search = find(&oracle, spec, &cfg, log)?;
    let x = recommend(search.estimate);
    let step = if spec.method == "grid" {
        (cfg.high - cfg.low) / (p.points.unwrap_or(33).max(2) - 1) as f64
    } else if p.kind == ParamKind::Int {
        cfg.tolerance.max(1.0).round()
    } else {
        cfg.tolerance
    };
    let mut points = vec![(None, p.format(x), vec![p.setting(x)])];
    for d in [x - step, x + step] {
        let d = recommend(d);
        if d >= cfg.low && d <= cfg.high && d != x {
            points.push((Some(p.name.clone()), p.format(d), vec![p.setting(d)]));
        }
    }
    let checks = verify_deviations(play, &points, spec.budget.verify)?;
    Ok(Study {
        recommended: x,
        values: vec![p.format(x)],
        settings: vec![p.setting(x)],
        verification: checks.first().map(|c| c.mean),
        checks,
        verify_games: spec.budget.verify,
        equilibrium: None,
        search: Search::Root(search),
    })
}

/// One whole setting beside the root finder's estimate of an int parameter
/// ([`whole_settings`]).
#[derive(Clone, Debug)]
pub struct WholeSetting {
    /// The whole value (`0`, `1`).
    pub value: f64,
    /// Its rule setting (`seat_coins=0/1`).
    pub setting: String,
    /// Its mean response on the verification's fresh games with the 95% t interval
    /// (`None` without verification).
    pub mean: Option<Difference>,
}

/// The whole settings bracketing the estimate of an int parameter: the recommendation
/// of an integer knob (`seat_coins`, `seat_gold`), where a continuous estimate (0.39
/// coin) cannot be played.
#[derive(Clone, Debug)]
pub struct WholeSettings {
    /// The root finder's continuous estimate.
    pub estimate: f64,
    /// `⌊estimate⌋` and `⌈estimate⌉`, in order (one setting when the estimate is whole).
    pub settings: Vec<WholeSetting>,
    /// Which of `settings` is closer to fair: the smaller `|mean response|` on the fresh
    /// games (`None` without verification or with one setting).
    pub closer: Option<usize>,
    /// `|mean at the closer| − |mean at the other|`, paired by game with its 95%
    /// interval ([`verify_deviations`]): below 0 by construction of `closer`; its upper end
    /// below 0 means the closer setting is closer at the 5% level.
    pub margin: Option<Difference>,
}

impl WholeSettings {
    /// Whether the closer setting is detectably closer to fair than the other (the paired
    /// interval of [`WholeSettings::margin`] lies below 0).
    pub fn detectably_closer(&self) -> bool {
        self.margin.is_some_and(|m| m.high < 0.0)
    }
}

/// The whole settings bracketing the root finder's estimate, for an int parameter
/// (`None` for another method or a float parameter). Each gets its verified mean response
/// from `study.checks` (the verification plays the rounded estimate and one step to each
/// side, so both `⌊estimate⌋` and `⌈estimate⌉` are among its points), and the one with
/// the smaller `|mean|` is named closer to fair, with the paired difference of the two
/// `|mean|`s (the deviation's `versus` against the recommendation, negated when the
/// recommendation is the closer).
pub fn whole_settings(spec: &Spec, study: &Study) -> Option<WholeSettings> {
    let r = study.search.root()?;
    let p = spec.param();
    if p.kind != ParamKind::Int || spec.method == "grid" {
        return None;
    }
    let (lo, hi) = (r.estimate.floor(), r.estimate.ceil());
    let values = if lo == hi { vec![lo] } else { vec![lo, hi] };
    let check_at = |v: f64| {
        let setting = p.setting(v);
        study
            .checks
            .iter()
            .find(|c| c.settings == [setting.clone()])
    };
    let settings: Vec<WholeSetting> = values
        .iter()
        .map(|&v| WholeSetting {
            value: v,
            setting: p.setting(v),
            mean: check_at(v).map(|c| c.mean),
        })
        .collect();
    let (closer, margin) = match (settings.first(), settings.get(1)) {
        (Some(a), Some(b)) => match (a.mean, b.mean, check_at(a.value), check_at(b.value)) {
            (Some(ma), Some(mb), Some(ca), Some(cb)) => {
                let closer = usize::from(mb.estimate.abs() < ma.estimate.abs());
                // The deviation's `versus` is `|m_dev| − |m_rec|`; turned to `|m_closer| −
                // |m_other|`.
                let versus = |c: &Check, closer_is_dev: bool| {
                    c.versus.map(|d| {
                        if closer_is_dev {
                            d
                        } else {
                            Difference {
                                estimate: -d.estimate,
                                low: -d.high,
                                high: -d.low,
                                ..d
                            }
                        }
                    })
                };
                let margin = if ca.versus.is_some() {
                    versus(ca, closer == 0)
                } else {
                    versus(cb, closer == 1)
                };
                (Some(closer), margin)
            }
            _ => (None, None),
        },
        _ => (None, None),
    };
    Some(WholeSettings {
        estimate: r.estimate,
        settings,
        closer,
        margin,
    })
}

/// The recommendation of [`whole_settings`] in one sentence, e.g. `the whole settings
/// bracketing it: 0 (seat_coins=0/0): −0.065800 [−0.085361, −0.046239]; 1 (...): ...;
/// 1 is closer to fair (|response| smaller by 0.025600 [−0.006788, 0.057988]; not
/// detectably, at 10000 fresh games)`.
pub fn whole_sentence(spec: &Spec, w: &WholeSettings, games: u64) -> String {
    let p = spec.param();
    let each = w
        .settings
        .iter()
        .map(|s| {
            format!(
                "{} ({}): {}",
                p.format(s.value),
                s.setting,
                s.mean.map_or_else(
                    || "not verified".to_string(),
                    |m| format!("{} [{}, {}]", f6(m.estimate), f6(m.low), f6(m.high))
                )
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let head = if w.settings.len() == 1 {
        format!("the estimate is whole: {each}")
    } else {
        format!(
            "{} is whole, so the recommendation is the whole settings bracketing the \
             estimate, with their mean responses on {games} fresh games: {each}",
            p.name
        )
    };
    match (w.closer, w.margin) {
        (Some(i), Some(m)) => format!(
            "{head}; {} = {} is closer to fair (|mean response| smaller by {} [{}, {}], {})",
            p.name,
            p.format(w.settings[i].value),
            f6(-m.estimate),
            f6(-m.high),
            f6(-m.low),
            if w.detectably_closer() {
                "detectably, at the 5% level".to_string()
            } else {
                format!("not detectably at {games} games: either may be the fairer")
            }
        ),
        _ => head,
    }
}

/// Every combination of the parameters' levels (mixed radix, the last parameter fastest).
pub fn combinations(spec: &Spec) -> Vec<Vec<usize>> {
    let levels: Vec<usize> = spec.parameter.iter().map(|p| p.level_count()).collect();
    let mut out = vec![Vec::new()];
    for &l in &levels {
        out = out
            .into_iter()
            .flat_map(|prefix: Vec<usize>| {
                (0..l).map(move |i| {
                    let mut q = prefix.clone();
                    q.push(i);
                    q
                })
            })
            .collect();
    }
    out
}

/// The rule settings of a point (a level index per parameter).
pub fn point_settings(spec: &Spec, point: &[usize]) -> Vec<String> {
    spec.parameter
        .iter()
        .zip(point)
        .map(|(p, &i)| p.level_setting(i))
        .collect()
}

/// The one-step deviations of a point, with the recommendation first: each ordered
/// parameter one level down and up, each categorical parameter at every other value.
fn neighbourhood(spec: &Spec, point: &[usize]) -> Vec<(Option<String>, String, Vec<String>)> {
    let values = |q: &[usize]| -> String {
        spec.parameter
            .iter()
            .zip(q)
            .map(|(p, &i)| p.levels()[i].clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = vec![(None, values(point), point_settings(spec, point))];
    for (j, p) in spec.parameter.iter().enumerate() {
        let n = p.level_count();
        let others: Vec<usize> = if p.kind == ParamKind::Categorical {
            (0..n).filter(|&i| i != point[j]).collect()
        } else {
            [
                point[j].checked_sub(1),
                Some(point[j] + 1).filter(|&i| i < n),
            ]
            .into_iter()
            .flatten()
            .collect()
        };
        for i in others {
            let mut q = point.to_vec();
            q[j] = i;
            out.push((
                Some(p.name.clone()),
                p.levels()[i].clone(),
                point_settings(spec, &q),
            ));
        }
    }
    out
}

/// A study's result at a point chosen by racing or NTBEA.
fn discrete_study(
    spec: &Spec,
    play: &Play<'_>,
    point: &[usize],
    search: Search,
) -> Result<Study, BalanceError> {
    // A `max`/`min` first objective has no balanced value to verify (front only).
    let verify = if spec.objective().goal == spec::ObjectiveGoal::Target {
        spec.budget.verify
    } else {
        0
    };
    let checks = verify_deviations(play, &neighbourhood(spec, point), verify)?;
    let first = &spec.parameter[0];
    Ok(Study {
        recommended: first
            .numeric_levels()
            .get(point[0])
            .copied()
            .unwrap_or(f64::NAN),
        values: spec
            .parameter
            .iter()
            .zip(point)
            .map(|(p, &i)| p.levels()[i].clone())
            .collect(),
        settings: point_settings(spec, point),
        verification: checks.first().map(|c| c.mean),
        checks,
        verify_games: spec.budget.verify,
        equilibrium: None,
        search,
    })
}

/// Racing ([`racing::successive_halving`]) over every combination of the levels.
fn run_racing(spec: &Spec, play: &Play<'_>, log: &mut dyn Write) -> Result<Study, BalanceError> {
    let arms = combinations(spec);
    let race =
        racing::successive_halving(arms.len(), spec.budget.games, Goal::Balance, |a, s, c| {
            play(&point_settings(spec, &arms[a]), s, c)
        })?;
    for a in &race.arms {
        let _ = writeln!(
            log,
            "arm {}: {} over {} games: mean response {} [{}, {}]{}",
            a.index,
            point_settings(spec, &arms[a.index]).join(" "),
            a.samples,
            f6(a.mean.estimate),
            f6(a.mean.low),
            f6(a.mean.high),
            a.dropped_in.map_or_else(
                || " (survived)".to_string(),
                |r| format!(" (dropped in round {r})")
            )
        );
    }
    let best = arms[race.best].clone();
    discrete_study(spec, play, &best, Search::Race { race, arms })
}

/// NTBEA ([`ntbea::ntbea`]) with `games / batch` evaluations of `batch` games.
fn run_ntbea(spec: &Spec, play: &Play<'_>, log: &mut dyn Write) -> Result<Study, BalanceError> {
    let cfg = NtbeaConfig {
        levels: spec.parameter.iter().map(|p| p.level_count()).collect(),
        iterations: (spec.budget.games / spec.budget.batch).max(1),
        batch: spec.budget.batch,
        neighbours: spec.ntbea.neighbours,
        exploration: spec.ntbea.exploration,
        goal: Goal::Balance,
        seed: spec.seed,
    };
    let r = ntbea::ntbea(&cfg, |q, s, c| play(&point_settings(spec, q), s, c))?;
    let _ = writeln!(
        log,
        "ntbea: {} evaluations of {} games; recommended {} (model estimate {})",
        r.evaluations.len(),
        cfg.batch,
        point_settings(spec, &r.best).join(" "),
        f6(r.best_estimate)
    );
    let best = r.best.clone();
    discrete_study(spec, play, &best, Search::Ntbea(r))
}

/// Every objective's measures per game at a point: `play_all(settings, start, count)`.
type PlayAll<'a> = dyn Fn(&[String], u64, u64) -> Result<Vec<Vec<f64>>, BalanceError> + 'a;

/// The games per point of `method = "front"`: the budget shared evenly over the
/// combinations, at most `max_per_probe` (at least 2, which the spec check guarantees).
pub fn front_games(spec: &Spec) -> u64 {
    (spec.budget.games / spec.arms().max(1) as u64)
        .min(spec.budget.max_per_probe)
        .max(2)
}

/// Every combination on the same games ([`front::evaluate`]), the Pareto front of the
/// objectives, and the recommendation: the front point with the smallest loss on the
/// first objective (ties: the first in combination order), verified against its one-step
/// deviations on the first objective when its goal is a target.
fn run_front(
    spec: &Spec,
    play: &Play<'_>,
    play_all: &PlayAll<'_>,
    log: &mut dyn Write,
) -> Result<Study, BalanceError> {
    let points = combinations(spec);
    let games = front_games(spec);
    let r = front::evaluate(&points, &spec.objectives, games, |q, s, c| {
        play_all(&point_settings(spec, q), s, c)
    })?;
    for p in &r.points {
        let _ = writeln!(
            log,
            "{}: {}{}",
            point_settings(spec, &p.point).join(" "),
            spec.objectives
                .iter()
                .zip(&p.means)
                .map(|(o, m)| format!(
                    "{} {} [{}, {}]",
                    o.label(),
                    f6(m.estimate),
                    f6(m.low),
                    f6(m.high)
                ))
                .collect::<Vec<_>>()
                .join(", "),
            if p.on_front { " (front)" } else { "" }
        );
    }
    let best = r
        .front()
        .min_by(|a, b| a.losses[0].total_cmp(&b.losses[0]))
        .map(|p| p.point.clone())
        .expect("a non-empty set has a non-dominated point");
    discrete_study(spec, play, &best, Search::Front(r))
}

fn find<O: Oracle<Error = BalanceError>>(
    oracle: &O,
    spec: &Spec,
    cfg: &RootConfig,
    log: &mut dyn Write,
) -> Result<RootResult, BalanceError> {
    let r = if spec.method == "grid" {
        root::grid_search(oracle, cfg, spec.param().points.unwrap_or(33))?
    } else {
        root::find_root(oracle, cfg)?
    };
    for (i, p) in r.probes.iter().enumerate() {
        let _ = writeln!(
            log,
            "probe {i}: x = {} over {} games: mean response {} [{}, {}] -> {}; bracket [{}, {}]",
            f6(p.x),
            p.samples,
            f6(p.mean),
            f6(p.low),
            f6(p.high),
            p.sign.word(),
            f6(p.bracket.0),
            f6(p.bracket.1)
        );
    }
    Ok(r)
}

/// The verification (TAG's, with intervals): the recommendation (the first point) and each
/// one-step deviation are played on the same `games` fresh games ([`VERIFY_OFFSET`] on,
/// never used by a search). Each point gets its mean response with a 95% t interval; each
/// deviation is compared with the recommendation by `|m_dev| − |m_rec|`, paired by game by
/// the delta method with the signs fixed at the observed means: per game
/// `z_i = sgn(m_dev)·y_dev,i − sgn(m_rec)·y_rec,i`, whose paired t interval estimates
/// `|m_dev| − |m_rec|` when neither mean is near 0 (near 0 the interval is conservative
/// for "better"). A deviation that is better at the 5% level means the search stopped
/// short of the balanced setting. No games (`games = 0`): no checks.
///
/// # Errors
/// The sampler's.
pub fn verify_deviations(
    play: &Play<'_>,
    points: &[(Option<String>, String, Vec<String>)],
    games: u64,
) -> Result<Vec<Check>, BalanceError> {
    if games == 0 || points.is_empty() {
        return Ok(Vec::new());
    }
    let mut ys = Vec::new();
    for (_, _, settings) in points {
        ys.push(play(settings, VERIFY_OFFSET, games)?);
    }
    let sign = |m: f64| if m < 0.0 { -1.0 } else { 1.0 };
    let rec = paired_difference(&ys[0]);
    Ok(points
        .iter()
        .zip(&ys)
        .enumerate()
        .map(|(i, ((parameter, value, settings), y))| {
            let mean = paired_difference(y);
            let versus = (i > 0).then(|| {
                let (a, b) = (sign(mean.estimate), sign(rec.estimate));
                let z: Vec<f64> = y.iter().zip(&ys[0]).map(|(d, r)| a * d - b * r).collect();
                paired_difference(&z)
            });
            Check {
                parameter: parameter.clone(),
                value: value.clone(),
                settings: settings.clone(),
                mean,
                versus,
            }
        })
        .collect())
}

/// The `probes.csv` header.
pub const PROBES_HEADER: [&str; 11] = [
    "probe",
    "parameter",
    "x",
    "setting",
    "games",
    "mean",
    "low",
    "high",
    "sign",
    "bracket_low",
    "bracket_high",
];

/// The `probes.csv` header of racing and NTBEA, around one column per parameter (its
/// value) after `stage`.
pub const EVALUATIONS_HEADER: [&str; 9] = [
    "probe", "stage", "setting", "start", "games", "mean", "low", "high", "estimate",
];

/// Writes `probes.csv`. Root finder and grid: one row per probe in order: the value, the
/// rule setting, the games, the mean response with its interval at the per-look level
/// `1 − α'`, the sign decided and the bracket after it ([`PROBES_HEADER`]). Racing: one
/// row per arm: `stage` the round it was dropped in (`survived` for the winner), each
/// parameter's value, the settings, the games and the mean response with its 95% t
/// interval. NTBEA: one row per evaluation: `stage` the iteration, the first game, the
/// batch's mean response (no interval) and the model's estimate after it
/// ([`EVALUATIONS_HEADER`], parameter columns after `stage`).
///
/// # Errors
/// The I/O error of writing.
pub fn write_probes(w: impl Write, spec: &Spec, study: &Study) -> csv::Result<()> {
    if let Search::Front(f) = &study.search {
        return write_front(w, spec, f, false);
    }
    let mut w = csv::Writer::from_writer(w);
    let r = match &study.search {
        Search::Root(r) => r,
        other => {
            let mut header: Vec<String> = EVALUATIONS_HEADER[..2]
                .iter()
                .map(|s| s.to_string())
                .collect();
            header.extend(spec.parameter.iter().map(|p| p.name.clone()));
            header.extend(EVALUATIONS_HEADER[2..].iter().map(|s| s.to_string()));
            w.write_record(&header)?;
            let values = |q: &[usize]| -> Vec<String> {
                spec.parameter
                    .iter()
                    .zip(q)
                    .map(|(p, &i)| p.levels()[i].clone())
                    .collect()
            };
            match other {
                Search::Race { race, arms } => {
                    for a in &race.arms {
                        let mut row = vec![
                            a.index.to_string(),
                            a.dropped_in.map_or_else(
                                || "survived".to_string(),
                                |r| format!("dropped_round_{r}"),
                            ),
                        ];
                        row.extend(values(&arms[a.index]));
                        row.extend([
                            point_settings(spec, &arms[a.index]).join(" "),
                            "0".to_string(),
                            a.samples.to_string(),
                            f6(a.mean.estimate),
                            f6(a.mean.low),
                            f6(a.mean.high),
                            f6(a.mean.estimate),
                        ]);
                        w.write_record(&row)?;
                    }
                }
                Search::Ntbea(n) => {
                    for (i, e) in n.evaluations.iter().enumerate() {
                        let mut row = vec![i.to_string(), format!("iteration_{i}")];
                        row.extend(values(&e.point));
                        row.extend([
                            point_settings(spec, &e.point).join(" "),
                            e.start.to_string(),
                            e.samples.to_string(),
                            f6(e.mean),
                            String::new(),
                            String::new(),
                            f6(e.estimate),
                        ]);
                        w.write_record(&row)?;
                    }
                }
                Search::Root(_) | Search::Front(_) => unreachable!("handled above"),
            }
            w.flush()?;
            return Ok(());
        }
    };
    w.write_record(PROBES_HEADER)?;
    let p = spec.param();
    for (i, pr) in r.probes.iter().enumerate() {
        w.write_record([
            i.to_string(),
            p.name.clone(),
            f6(pr.x),
            p.setting(pr.x),
            pr.samples.to_string(),
            f6(pr.mean),
            f6(pr.low),
            f6(pr.high),
            pr.sign.word().to_string(),
            f6(pr.bracket.0),
            f6(pr.bracket.1),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// The header of `pareto.csv` and of `probes.csv` under `method = "front"`, around one
/// column per parameter (its value) after `front`.
pub const FRONT_HEADER: [&str; 12] = [
    "point",
    "front",
    "setting",
    "objective",
    "kind",
    "seat",
    "goal",
    "target",
    "games",
    "estimate",
    "low",
    "high",
];

/// Writes the points of a front search, tidy: one row per (point, objective), the point's
/// index, `true` if it is on the front, each parameter's value, the settings, the
/// objective's name, kind, seat, goal and target (empty unless the goal is a target), the
/// games, the mean measure with its 95% t interval, and the loss ([`FRONT_HEADER`] then
/// `loss`). `only_front`: the front's points only (`pareto.csv`); else every point
/// (`probes.csv`).
///
/// # Errors
/// The I/O error of writing.
pub fn write_front(
    w: impl Write,
    spec: &Spec,
    f: &FrontResult,
    only_front: bool,
) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    let mut header: Vec<String> = FRONT_HEADER[..2].iter().map(|s| s.to_string()).collect();
    header.extend(spec.parameter.iter().map(|p| p.name.clone()));
    header.extend(FRONT_HEADER[2..].iter().map(|s| s.to_string()));
    header.push("loss".to_string());
    w.write_record(&header)?;
    for (i, p) in f.points.iter().enumerate() {
        if only_front && !p.on_front {
            continue;
        }
        for ((o, m), loss) in spec.objectives.iter().zip(&p.means).zip(&p.losses) {
            let mut row = vec![i.to_string(), p.on_front.to_string()];
            row.extend(
                spec.parameter
                    .iter()
                    .zip(&p.point)
                    .map(|(q, &l)| q.levels()[l].clone()),
            );
            row.extend([
                point_settings(spec, &p.point).join(" "),
                o.label(),
                o.kind.word().to_string(),
                o.seat.to_string(),
                o.goal.word().to_string(),
                if o.goal == spec::ObjectiveGoal::Target {
                    f6(o.target_value())
                } else {
                    String::new()
                },
                f.games.to_string(),
                f6(m.estimate),
                f6(m.low),
                f6(m.high),
                f6(*loss),
            ]);
            w.write_record(&row)?;
        }
    }
    w.flush()?;
    Ok(())
}

/// The `recommendation.csv` header.
pub const RECOMMENDATION_HEADER: [&str; 13] = [
    "parameter",
    "setting",
    "estimate",
    "low",
    "high",
    "confidence",
    "games",
    "stop",
    "objective",
    "seat",
    "method",
    "verify_games",
    "verify_mean",
];

/// The method's description in `recommendation.csv`.
fn method_words(method: &str) -> &'static str {
    match method {
        "grid" => "grid (every point tested alike, sequential t tests, CRN)",
        "racing" => "racing (successive halving, CRN; no interval)",
        "ntbea" => "ntbea (1-, 2- and N-tuple bandit model, CRN; no interval)",
        "front" => "front (every combination on the same games, CRN; Pareto front in pareto.csv)",
        _ => "root (bracketing bisection, sequential t tests, CRN)",
    }
}

/// Writes `recommendation.csv`: the recommended setting, the point estimate and the
/// interval `low`, `high` on the root at confidence `1 − α`, the games used, why the
/// search stopped, the objective, and the response at the recommendation on fresh seeds.
/// Racing and NTBEA write one row per parameter, `estimate` its recommended value,
/// `setting` every parameter's setting, `low`, `high` and `confidence` empty (neither
/// gives an interval) and `stop` `budget`.
///
/// # Errors
/// The I/O error of writing.
pub fn write_recommendation(w: impl Write, spec: &Spec, study: &Study) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    w.write_record(RECOMMENDATION_HEADER)?;
    let tail = [
        spec.objective().kind.word().to_string(),
        spec.objective().seat.to_string(),
        method_words(&spec.method).to_string(),
        study.verify_games.to_string(),
        study.verification.map_or(String::new(), |v| f6(v.estimate)),
    ];
    if let Search::Root(r) = &study.search {
        let p = spec.param();
        let mut row = vec![
            p.name.clone(),
            p.setting(study.recommended),
            f6(r.estimate),
            f6(r.low),
            f6(r.high),
            f6(1.0 - spec.alpha),
            r.samples.to_string(),
            r.stop.word().to_string(),
        ];
        row.extend(tail);
        w.write_record(&row)?;
    } else {
        for (p, v) in spec.parameter.iter().zip(&study.values) {
            let mut row = vec![
                p.name.clone(),
                study.settings.join(" "),
                v.clone(),
                String::new(),
                String::new(),
                String::new(),
                study.search.samples().to_string(),
                "budget".to_string(),
            ];
            row.extend(tail.clone());
            w.write_record(&row)?;
        }
    }
    w.flush()?;
    Ok(())
}

/// The `verification.csv` header.
pub const VERIFICATION_HEADER: [&str; 12] = [
    "point",
    "parameter",
    "value",
    "setting",
    "games",
    "mean",
    "low",
    "high",
    "abs_diff",
    "abs_diff_low",
    "abs_diff_high",
    "verdict",
];

/// Writes `verification.csv`: the recommendation (`point` 0) and each one-step deviation
/// on the same fresh games: the mean response with its 95% t interval, and for a
/// deviation `|mean| − |mean at the recommendation|` with its paired 95% interval
/// ([`verify_deviations`]) and the verdict (`better`, `worse`, `no detectable
/// difference`).
///
/// # Errors
/// The I/O error of writing.
pub fn write_verification(w: impl Write, study: &Study) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    w.write_record(VERIFICATION_HEADER)?;
    for (i, c) in study.checks.iter().enumerate() {
        let (d, dl, dh) = c
            .versus
            .map_or((String::new(), String::new(), String::new()), |d| {
                (f6(d.estimate), f6(d.low), f6(d.high))
            });
        w.write_record([
            i.to_string(),
            c.parameter.clone().unwrap_or_default(),
            c.value.clone(),
            c.settings.join(" "),
            study.verify_games.to_string(),
            f6(c.mean.estimate),
            f6(c.mean.low),
            f6(c.mean.high),
            d,
            dl,
            dh,
            c.verdict().to_string(),
        ])?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// An int parameter's study: the estimate 0.39 between the whole settings 0 and 1,
    /// verified at `rec` (the rounded estimate) and one step to each side in range.
    fn int_study(rec: f64, means: &[(f64, f64)], versus: &[(f64, f64, f64)]) -> (Spec, Study) {
        let text = r#"
name = "t"
game = "qax"
players = 2
agents = ["greedy"]
method = "root"

[objective]
kind = "equal_wins"
seat = 1

[[parameter]]
name = "coins"
variant = "seat_coins=0/{x}"
type = "int"
low = 0
high = 8

[budget]
games = 1000
batch = 100
max_per_probe = 500
verify = 10000
"#;
        let spec = Spec::parse(Path::new("spec.toml"), text).unwrap();
        let d = |estimate: f64, low: f64, high: f64| Difference {
            estimate,
            low,
            high,
            p_value: if low > 0.0 || high < 0.0 { 0.001 } else { 0.5 },
            method: "test",
        };
        let checks: Vec<Check> = means
            .iter()
            .enumerate()
            .map(|(i, &(x, m))| Check {
                parameter: (i > 0).then(|| "coins".to_string()),
                value: spec.param().format(x),
                settings: vec![spec.param().setting(x)],
                mean: d(m, m - 0.02, m + 0.02),
                versus: (i > 0).then(|| {
                    let v = versus[i - 1];
                    d(v.0, v.1, v.2)
                }),
            })
            .collect();
        let search = Search::Root(RootResult {
            probes: Vec::new(),
            estimate: 0.391489,
            low: 0.0,
            high: 1.0,
            samples: 18000,
            stop: root::Stop::Converged,
        });
        let study = Study {
            search,
            recommended: rec,
            values: vec![spec.param().format(rec)],
            settings: vec![spec.param().setting(rec)],
            verification: checks.first().map(|c| c.mean),
            checks,
            verify_games: 10000,
            equilibrium: None,
        };
        (spec, study)
    }

    /// An int parameter's recommendation is the two whole settings bracketing the
    /// estimate, each with its verified response, and names the one closer to fair even
    /// when that is not the rounded estimate (Q.A.X.'s seat coins: 0.39 rounds to 0, but 1
    /// coin is closer to fair on the fresh games); with a paired margin whose interval
    /// holds 0 it says the two are not told apart.
    #[test]
    fn whole_settings_bracket_the_estimate_and_name_the_fairer() {
        // Recommended 0 (rounded), deviation 1: |0.040| − |−0.066| = −0.026 [−0.058, 0.007].
        let (spec, study) = int_study(
            0.0,
            &[(0.0, -0.0658), (1.0, 0.0402)],
            &[(-0.0256, -0.0580, 0.0068)],
        );
        let w = whole_settings(&spec, &study).expect("an int root study");
        let values: Vec<f64> = w.settings.iter().map(|s| s.value).collect();
        assert_eq!(values, [0.0, 1.0]);
        assert_eq!(w.settings[1].setting, "seat_coins=0/1");
        assert_eq!(w.settings[0].mean.unwrap().estimate, -0.0658);
        assert_eq!(w.closer, Some(1));
        let m = w.margin.unwrap();
        assert!(
            (m.estimate + 0.0256).abs() < 1e-12 && m.high == 0.0068,
            "{m:?}"
        );
        assert!(!w.detectably_closer());
        let md = report::build(&spec, &study, "sim balance t.toml").to_markdown();
        assert!(
            md.contains("coins = 1 is closer to fair (|mean response| smaller by 0.025600 [-0.006800, 0.058000], not detectably"),
            "{md}"
        );
        assert!(
            md.contains("| coins = 0 | seat_coins=0/0 | -0.065800 |"),
            "{md}"
        );
        assert!(md.contains("| coins = 1 | seat_coins=0/1 | 0.040200 | [0.020200, 0.060200] | yes (point estimate) |"), "{md}");

        // Recommended 1 (say the estimate were 0.6) and closer, detectably: the margin is
        // the deviation's `versus` negated.
        let (spec, mut study) = int_study(
            1.0,
            &[(1.0, 0.01), (0.0, -0.0658), (2.0, 0.09)],
            &[(0.0558, 0.03, 0.08), (0.08, 0.05, 0.11)],
        );
        if let Search::Root(r) = &mut study.search {
            r.estimate = 0.6;
        }
        let w = whole_settings(&spec, &study).unwrap();
        assert_eq!(w.closer, Some(1));
        let m = w.margin.unwrap();
        assert!((m.estimate + 0.0558).abs() < 1e-12 && m.low == -0.08 && m.high == -0.03);
        assert!(w.detectably_closer());
        assert!(whole_sentence(&spec, &w, 10000).contains("coins = 1 is closer to fair"));

        // A float parameter has no whole settings.
        let mut spec = spec;
        spec.parameter[0].kind = ParamKind::Float;
        assert!(whole_settings(&spec, &study).is_none());
    }
}
