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
//! Resumable and shardable through [`journal`]: every method is a deterministic function
//! of its responses, so a journal of them replays a study, and N shards that each play a
//! slice of every batch's games follow the search exactly as one process would.

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
    /// A shard of a study needs another shard's games before it can go on
    /// ([`journal::Journal::open_shard`]): not a failure, the shard is run again later.
    #[error("{0}")]
    Waiting(String),
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
    /// `|mean a| − |mean b|` for every pair of verification points, paired by game
    /// ([`verify_deviations`]; `verification_pairs.csv`). Empty for a folder written
    /// before the pairs were recorded: [`fairness`] then goes through the recommendation.
    pub pairs: Vec<PairDiff>,
    /// `method = "front"`: the front's settings replayed on the verification's fresh games
    /// ([`VERIFY_OFFSET`] on), every objective measured again, the front marked among
    /// them on the fresh estimates (`front_replay.csv`); `None` for another method or
    /// without verification games.
    pub front_replay: Option<FrontResult>,
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
        let rows = journal.call("one", extra, (s, c), |s, c| {
            Ok(play_one(extra, s, c)?
                .into_iter()
                .map(|y| vec![y])
                .collect())
        })?;
        Ok(rows.into_iter().map(|r| r[0]).collect())
    };
    // Every objective's measure per game (method = "front"; the games evaluator).
    let play_all = |extra: &[String], s: u64, c: u64| {
        journal.call("all", extra, (s, c), |s, c| {
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
    let (checks, pairs) = verify_deviations(play, &points, spec.budget.verify)?;
    Ok(Study {
        recommended: x,
        values: vec![p.format(x)],
        settings: vec![p.setting(x)],
        verification: checks.first().map(|c| c.mean),
        checks,
        pairs,
        front_replay: None,
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
}

/// The whole settings bracketing the root finder's estimate, for an int parameter
/// (`None` for another method or a float parameter). Each gets its verified mean response
/// from `study.checks` (the verification plays the rounded estimate and one step to each
/// side, so both `⌊estimate⌋` and `⌈estimate⌉` are among its points). Which verified
/// whole setting is the fairer is [`fairness`]'s to say: every verified point, the
/// one-step deviations beyond the bracket included, against the fairest.
pub fn whole_settings(spec: &Spec, study: &Study) -> Option<WholeSettings> {
    let r = study.search.root()?;
    let p = spec.param();
    if p.kind != ParamKind::Int || spec.method == "grid" {
        return None;
    }
    let (lo, hi) = (r.estimate.floor(), r.estimate.ceil());
    let values = if lo == hi { vec![lo] } else { vec![lo, hi] };
    let settings = values
        .iter()
        .map(|&v| {
            let setting = p.setting(v);
            WholeSetting {
                value: v,
                mean: study
                    .checks
                    .iter()
                    .find(|c| c.settings == [setting.clone()])
                    .map(|c| c.mean),
                setting,
            }
        })
        .collect();
    Some(WholeSettings {
        estimate: r.estimate,
        settings,
    })
}

/// The recommendation of [`whole_settings`] in sentences: the bracketing whole settings,
/// then every verified whole setting against the fairest ([`fairness_sentence`]), e.g.
/// `seat_gold_seat0 takes whole values: the estimate 2.27 lies between 2 and 3, and every
/// whole setting verified (the rounded estimate and its one-step deviations) was played
/// on the same 1,000 fresh games. Fairest on ...`.
pub fn whole_sentence(spec: &Spec, study: &Study, w: &WholeSettings) -> String {
    match fairness(study) {
        Some(f) => format!(
            "{} {}",
            whole_head(spec, study, w),
            fairness_sentence(spec, study, &f)
        ),
        None => whole_head(spec, study, w),
    }
}

/// The first sentence of [`whole_sentence`]: the whole settings around the estimate.
pub fn whole_head(spec: &Spec, study: &Study, w: &WholeSettings) -> String {
    let p = spec.param();
    let head = match w.settings.as_slice() {
        [one] => format!(
            "{} takes whole values and the estimate is whole: {}",
            p.name,
            p.format(one.value)
        ),
        _ => format!(
            "{} takes whole values: the estimate {} lies between {} and {}",
            p.name,
            crate::format::num(w.estimate, 2),
            p.format(w.settings[0].value),
            p.format(w.settings[1].value)
        ),
    };
    if study.checks.len() >= 2 {
        format!(
            "{head}, and every whole setting verified (the rounded estimate and its one-step \
             deviations) was played on the same {} fresh games.",
            grouped(study.verify_games)
        )
    } else {
        format!("{head}.")
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
    let (checks, pairs) = verify_deviations(play, &neighbourhood(spec, point), verify)?;
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
        pairs,
        front_replay: None,
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
    log_front_points(log, spec, "", &r.points);
    let best = r
        .front()
        .min_by(|a, b| a.losses[0].total_cmp(&b.losses[0]))
        .map(|p| p.point.clone())
        .expect("a non-empty set has a non-dominated point");
    // The front replayed on fresh games: a setting on the front by the luck of the search's
    // games shows it here (its fresh estimates fall back, and it may leave the front).
    let front_points: Vec<Vec<usize>> = r.front().map(|p| p.point.clone()).collect();
    let replay = if spec.budget.verify > 0 {
        let replay = front::evaluate(
            &front_points,
            &spec.objectives,
            spec.budget.verify,
            |q, s, c| play_all(&point_settings(spec, q), VERIFY_OFFSET + s, c),
        )?;
        log_front_points(log, spec, "fresh games, ", &replay.points);
        Some(replay)
    } else {
        None
    };
    let mut study = discrete_study(spec, play, &best, Search::Front(r))?;
    study.front_replay = replay;
    Ok(study)
}

/// One progress line per evaluated setting of a front search, each objective's estimate
/// and interval, `(front)` for a setting on the front; `prefix` starts each line.
fn log_front_points(log: &mut dyn Write, spec: &Spec, prefix: &str, points: &[front::FrontPoint]) {
    for p in points {
        let _ = writeln!(
            log,
            "{prefix}{}: {}{}",
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
/// short of the balanced setting. The same difference is returned for every pair of
/// points (`a < b`, [`PairDiff`]), so any point can be compared with the fairest
/// ([`fairness`]). No games (`games = 0`): no checks.
///
/// # Errors
/// The sampler's.
pub fn verify_deviations(
    play: &Play<'_>,
    points: &[(Option<String>, String, Vec<String>)],
    games: u64,
) -> Result<(Vec<Check>, Vec<PairDiff>), BalanceError> {
    if games == 0 || points.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut ys = Vec::new();
    for (_, _, settings) in points {
        ys.push(play(settings, VERIFY_OFFSET, games)?);
    }
    let means: Vec<Difference> = ys.iter().map(|y| paired_difference(y)).collect();
    let abs_diff = |a: usize, b: usize| {
        let sign = |m: f64| if m < 0.0 { -1.0 } else { 1.0 };
        let (sa, sb) = (sign(means[a].estimate), sign(means[b].estimate));
        let z: Vec<f64> = ys[a]
            .iter()
            .zip(&ys[b])
            .map(|(x, y)| sa * x - sb * y)
            .collect();
        paired_difference(&z)
    };
    let checks = points
        .iter()
        .zip(&means)
        .enumerate()
        .map(|(i, ((parameter, value, settings), mean))| Check {
            parameter: parameter.clone(),
            value: value.clone(),
            settings: settings.clone(),
            mean: *mean,
            versus: (i > 0).then(|| abs_diff(i, 0)),
        })
        .collect();
    let pairs = (0..points.len())
        .flat_map(|a| (a + 1..points.len()).map(move |b| (a, b)))
        .map(|(a, b)| PairDiff {
            a,
            b,
            diff: abs_diff(a, b),
        })
        .collect();
    Ok((checks, pairs))
}

/// `|mean at point a| − |mean at point b|` of two verification points (indices into
/// [`Study::checks`], `a < b`), paired by game as in [`verify_deviations`]: below 0 means
/// `a` is nearer balance.
#[derive(Clone, Copy, Debug)]
pub struct PairDiff {
    /// The first point.
    pub a: usize,
    /// The second point.
    pub b: usize,
    /// The difference with its 95% interval.
    pub diff: Difference,
}

/// Where a verified point stands against the fairest one ([`fairness`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The smallest `|mean response|` on the fresh games.
    Fairest,
    /// Not told apart from the fairest: the interval of `|mean| − |mean at the fairest|`
    /// holds 0, and it is not detectably unbalanced while the fairest is not.
    Inseparable,
    /// Detectably farther from balance than the fairest (that interval lies above 0).
    Farther,
    /// Its own interval excludes 0 while the fairest's holds it: detectably unbalanced
    /// where the fairest may be balanced.
    Unbalanced,
}

impl Standing {
    /// The word of the report's tables.
    pub fn word(self) -> &'static str {
        match self {
            Standing::Fairest => "fairest (point estimate)",
            Standing::Inseparable => "cannot be separated from the fairest",
            Standing::Farther => "farther from fair (5% level)",
            Standing::Unbalanced => "unbalanced (5% level)",
        }
    }
}

/// One verified point against the fairest ([`fairness`]).
#[derive(Clone, Copy, Debug)]
pub struct FairRow {
    /// The point (an index into [`Study::checks`]).
    pub index: usize,
    /// `|mean here| − |mean at the fairest|` with its 95% interval (`None` for the
    /// fairest), and whether it is paired by game (`false`: composed through the
    /// recommendation for a folder without `verification_pairs.csv`, see [`fairness`]).
    pub versus: Option<(Difference, bool)>,
    /// Where it stands.
    pub standing: Standing,
}

/// Every verified point against the fairest by point estimate.
#[derive(Clone, Debug)]
pub struct Fairness {
    /// The point with the smallest `|mean response|` (the first such, so the
    /// recommendation on a tie).
    pub fairest: usize,
    /// Every point, in the order of [`Study::checks`].
    pub rows: Vec<FairRow>,
}

impl Fairness {
    /// The fairest point and those not separable from it, in the order of the checks.
    pub fn candidates(&self) -> Vec<usize> {
        self.rows
            .iter()
            .filter(|r| matches!(r.standing, Standing::Fairest | Standing::Inseparable))
            .map(|r| r.index)
            .collect()
    }
}

/// `|mean at k| − |mean at f|` of two verification points, with whether it is paired by
/// game: from [`Study::pairs`]; without them (a folder written before they were
/// recorded) from the deviations' comparisons with the recommendation (point 0), paired
/// when either point is the recommendation, else the difference of the two comparisons
/// with the interval's half-widths added (valid whatever their correlation, so
/// conservative).
fn abs_diff(study: &Study, k: usize, f: usize) -> Option<(Difference, bool)> {
    let neg = |d: Difference| Difference {
        estimate: -d.estimate,
        low: -d.high,
        high: -d.low,
        ..d
    };
    if let Some(p) = study
        .pairs
        .iter()
        .find(|p| (p.a, p.b) == (k, f) || (p.a, p.b) == (f, k))
    {
        return Some((if p.a == k { p.diff } else { neg(p.diff) }, true));
    }
    let versus = |i: usize| study.checks.get(i).and_then(|c| c.versus);
    match (k, f) {
        (_, 0) => versus(k).map(|d| (d, true)),
        (0, _) => versus(f).map(|d| (neg(d), true)),
        _ => {
            let (dk, df) = (versus(k)?, versus(f)?);
            let estimate = dk.estimate - df.estimate;
            let (low, high) = (dk.low - df.high, dk.high - df.low);
            Some((
                Difference {
                    estimate,
                    low,
                    high,
                    p_value: if low > 0.0 || high < 0.0 { 0.0 } else { 1.0 },
                    ..dk
                },
                false,
            ))
        }
    }
}

/// Every verified point against the fairest one by point estimate (the smallest
/// `|mean response|` on the fresh games), with the paired interval of `|mean| − |mean at
/// the fairest|` ([`Study::pairs`]): a point is [`Standing::Farther`] when that interval
/// lies above 0, [`Standing::Unbalanced`] when its own interval excludes 0 while the
/// fairest's holds 0, else [`Standing::Inseparable`] (the fresh games cannot tell it from
/// the fairest). `None` with fewer than two verified points.
pub fn fairness(study: &Study) -> Option<Fairness> {
    if study.checks.len() < 2 {
        return None;
    }
    let fairest = (0..study.checks.len())
        .min_by(|&a, &b| {
            let m = |i: usize| study.checks[i].mean.estimate.abs();
            m(a).total_cmp(&m(b)).then(a.cmp(&b))
        })
        .expect("two checks");
    // By the interval, as the CSVs hold it (their p-values are not written).
    let unbalanced = |d: &Difference| d.low > 0.0 || d.high < 0.0;
    let fair_balanced = !unbalanced(&study.checks[fairest].mean);
    let rows = (0..study.checks.len())
        .map(|k| {
            if k == fairest {
                return FairRow {
                    index: k,
                    versus: None,
                    standing: Standing::Fairest,
                };
            }
            let versus = abs_diff(study, k, fairest);
            let standing = match versus {
                Some((d, _)) if d.low > 0.0 => Standing::Farther,
                _ if fair_balanced && unbalanced(&study.checks[k].mean) => Standing::Unbalanced,
                _ => Standing::Inseparable,
            };
            FairRow {
                index: k,
                versus,
                standing,
            }
        })
        .collect();
    Some(Fairness { fairest, rows })
}

/// A count with thousands separators (`1,000`), for prose.
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A response (a mean or an interval end) at the precision of its objective's kind: win
/// shares and score gaps with 3 decimals and their sign, plies with 1 decimal.
pub fn response_text(spec: &Spec, x: f64) -> String {
    kind_text(spec.objective().kind, x)
}

/// A measure of an objective of `kind` at its precision ([`response_text`]).
pub fn kind_text(kind: spec::ObjectiveKind, x: f64) -> String {
    let t = match kind {
        spec::ObjectiveKind::Length => crate::format::num(x, 1),
        _ => crate::format::signed(x, 3),
    };
    // A value that rounds to zero has no sign to show (-0.0003 is 0.000, not -0.000).
    if t.trim_start_matches(['-', '+'])
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        t.trim_start_matches(['-', '+']).to_string()
    } else {
        t
    }
}

/// A value of the searched parameter for prose and tables: a whole value of an int
/// parameter as a whole number; otherwise 2 decimals for an int parameter (its estimate)
/// and, for a float one, one decimal digit below its tolerance (as
/// [`recommend_value`] rounds: tolerance 0.002, 4 decimals).
pub fn x_text(spec: &Spec, x: f64) -> String {
    let p = spec.param();
    if p.kind == ParamKind::Int {
        if x.fract() == 0.0 {
            crate::format::num(x, 0)
        } else {
            crate::format::num(x, 2)
        }
    } else {
        let tol = root_config(spec).tolerance;
        let d = ((-tol.log10()).ceil().max(0.0) as usize + 1).min(6);
        crate::format::num(x, d)
    }
}

/// A response with its interval: `-0.029 [-0.091, +0.033]`.
pub fn response_interval(spec: &Spec, d: &Difference) -> String {
    format!(
        "{} [{}, {}]",
        response_text(spec, d.estimate),
        response_text(spec, d.low),
        response_text(spec, d.high)
    )
}

/// A verification point's name: `seat_gold_seat0 = 1` for one parameter, else its rule
/// settings.
pub fn check_name(spec: &Spec, c: &Check) -> String {
    if spec.parameter.len() == 1 {
        format!("{} = {}", spec.parameter[0].name, c.value)
    } else {
        c.settings.join(" ")
    }
}

/// [`fairness`] in sentences, e.g. `Fairest on the 1,000 fresh games: seat_gold_seat0 = 1
/// (seat_gold=1/0), -0.029 [-0.091, +0.033]. Not separable from it: seat_gold_seat0 = 2
/// (|mean| larger by +0.014 [-0.070, +0.098]). Unbalanced at the 5% level where the
/// fairest may be balanced: seat_gold_seat0 = 3, +0.105 [+0.043, +0.167]. So
/// seat_gold_seat0 = 1 or 2: 1,000 fresh games cannot separate them.`
pub fn fairness_sentence(spec: &Spec, study: &Study, f: &Fairness) -> String {
    let c = &study.checks;
    let games = grouped(study.verify_games);
    let name = |i: usize| check_name(spec, &c[i]);
    let fair = &c[f.fairest];
    // The settings beside the name unless they say the same (a categorical value).
    let settings = if fair.settings.join("") == name(f.fairest).replace(' ', "") {
        String::new()
    } else {
        format!(" ({})", fair.settings.join(" "))
    };
    let mut out = format!(
        "Fairest on the {games} fresh games (the smallest |mean response|): {}{settings}, {}.",
        name(f.fairest),
        response_interval(spec, &fair.mean)
    );
    let composed = f.rows.iter().any(|r| r.versus.is_some_and(|v| !v.1));
    let versus = |r: &FairRow| {
        r.versus.map_or_else(String::new, |(d, paired)| {
            format!(
                "|mean| larger by {}{}",
                response_interval(spec, &d),
                if paired { "" } else { "*" }
            )
        })
    };
    let group =
        |s: Standing| -> Vec<&FairRow> { f.rows.iter().filter(|r| r.standing == s).collect() };
    let inseparable = group(Standing::Inseparable);
    if !inseparable.is_empty() {
        out += &format!(
            " Not separable from it: {}.",
            inseparable
                .iter()
                .map(|r| format!("{} ({})", name(r.index), versus(r)))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    let farther = group(Standing::Farther);
    if !farther.is_empty() {
        out += &format!(
            " Farther from fair at the 5% level: {}.",
            farther
                .iter()
                .map(|r| format!("{} ({})", name(r.index), versus(r)))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    let unbalanced = group(Standing::Unbalanced);
    if !unbalanced.is_empty() {
        out += &format!(
            " Unbalanced at the 5% level where the fairest may be balanced: {}.",
            unbalanced
                .iter()
                .map(|r| format!(
                    "{}, {}",
                    name(r.index),
                    response_interval(spec, &c[r.index].mean)
                ))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    let cands = f.candidates();
    if cands.len() == 1 {
        out += &format!(" So {} is the fairest setting verified.", name(f.fairest));
    } else {
        let values: Vec<String> = cands
            .iter()
            .map(|&i| {
                if spec.parameter.len() == 1 {
                    c[i].value.clone()
                } else {
                    name(i)
                }
            })
            .collect();
        let head = if spec.parameter.len() == 1 {
            format!("{} = ", spec.parameter[0].name)
        } else {
            String::new()
        };
        // The fairest first, then the others in the order of the checks.
        let first = cands
            .iter()
            .position(|&i| i == f.fairest)
            .expect("the fairest is a candidate");
        let mut ordered: Vec<&String> = vec![&values[first]];
        ordered.extend(
            values
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != first)
                .map(|(_, v)| v),
        );
        let list = match ordered.split_last() {
            Some((l, r)) if !r.is_empty() => format!(
                "{} or {l}",
                r.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            ),
            _ => ordered[0].clone(),
        };
        out += &format!(" So {head}{list}: {games} fresh games cannot separate them.");
    }
    if composed {
        out += " (*: see below.)";
    }
    out
}

/// The note under [`fairness_sentence`] when a comparison was not paired by game (a
/// folder without `verification_pairs.csv`; [`fairness`]).
pub fn fairness_note(f: &Fairness) -> Option<String> {
    f.rows
        .iter()
        .any(|r| r.versus.is_some_and(|v| !v.1))
        .then(|| {
            "*: not paired by game: this folder predates verification_pairs.csv, so two \
         deviations are compared through their comparisons with the recommendation, the \
         difference of the two with their intervals' half-widths added (valid whatever \
         their correlation, so wider than the paired interval)."
                .to_string()
        })
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
    let rows = f
        .points
        .iter()
        .enumerate()
        .filter(|(_, p)| !only_front || p.on_front)
        .map(|(i, p)| (i, p, None));
    write_front_rows(w, spec, f.games, false, rows)
}

/// Writes `front_replay.csv`: the front's settings replayed on fresh games
/// ([`Study::front_replay`]), in the columns of `pareto.csv` ([`write_front`]) with
/// `point` the setting's index among every combination (as in `probes.csv`), `front`
/// whether it stays undominated among the front's settings on the fresh estimates,
/// `games` the fresh games, and one more column, `search_estimate`, the search's
/// estimate of the same objective at the same setting.
///
/// # Errors
/// The I/O error of writing.
pub fn write_front_replay(
    w: impl Write,
    spec: &Spec,
    search: &FrontResult,
    replay: &FrontResult,
) -> csv::Result<()> {
    let rows = replay.points.iter().map(|p| {
        let i = search
            .points
            .iter()
            .position(|q| q.point == p.point)
            .expect("a replayed point is a searched point");
        (i, p, Some(&search.points[i]))
    });
    write_front_rows(w, spec, replay.games, true, rows)
}

/// The rows of [`write_front`] and [`write_front_replay`] (`replayed`: with the
/// `search_estimate` column): `(index, point, the search's point when replayed)`.
fn write_front_rows<'a>(
    w: impl Write,
    spec: &Spec,
    games: u64,
    replayed: bool,
    rows: impl Iterator<Item = (usize, &'a front::FrontPoint, Option<&'a front::FrontPoint>)>,
) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    let mut header: Vec<String> = FRONT_HEADER[..2].iter().map(|s| s.to_string()).collect();
    header.extend(spec.parameter.iter().map(|p| p.name.clone()));
    header.extend(FRONT_HEADER[2..].iter().map(|s| s.to_string()));
    header.push("loss".to_string());
    if replayed {
        header.push("search_estimate".to_string());
    }
    w.write_record(&header)?;
    for (i, p, searched) in rows {
        for (k, ((o, m), loss)) in spec
            .objectives
            .iter()
            .zip(&p.means)
            .zip(&p.losses)
            .enumerate()
        {
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
                games.to_string(),
                f6(m.estimate),
                f6(m.low),
                f6(m.high),
                f6(*loss),
            ]);
            if let Some(q) = searched {
                row.push(f6(q.means[k].estimate));
            }
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

/// The `verification_pairs.csv` header.
pub const PAIRS_HEADER: [&str; 7] = [
    "a",
    "b",
    "setting_a",
    "setting_b",
    "abs_diff",
    "abs_diff_low",
    "abs_diff_high",
];

/// Writes `verification_pairs.csv`: one row per pair of verification points `a < b`
/// (the `point` column of `verification.csv`), with their settings and `|mean at a| −
/// |mean at b|` paired by game with its 95% interval ([`PairDiff`]). Written when two or
/// more points were verified; the report compares every point with the fairest from it
/// ([`fairness`]).
///
/// # Errors
/// The I/O error of writing.
pub fn write_verification_pairs(w: impl Write, study: &Study) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    w.write_record(PAIRS_HEADER)?;
    for p in &study.pairs {
        w.write_record([
            p.a.to_string(),
            p.b.to_string(),
            study.checks[p.a].settings.join(" "),
            study.checks[p.b].settings.join(" "),
            f6(p.diff.estimate),
            f6(p.diff.low),
            f6(p.diff.high),
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
            pairs: Vec::new(),
            front_replay: None,
            verify_games: 10000,
            equilibrium: None,
        };
        (spec, study)
    }

    /// An int parameter's recommendation names the whole settings bracketing the estimate
    /// and compares every verified whole setting with the fairest by point estimate, even
    /// when that is not the rounded estimate (Q.A.X.'s seat coins: 0.39 rounds to 0, but 1
    /// coin is nearer fair on the fresh games), and says when the fresh games cannot
    /// separate them.
    #[test]
    fn whole_settings_bracket_the_estimate_and_name_the_fairest() {
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
        let f = fairness(&study).unwrap();
        assert_eq!(f.fairest, 1);
        // Both are unbalanced (their intervals exclude 0), so only the paired test counts.
        assert_eq!(f.rows[0].standing, Standing::Inseparable);
        let (d, paired) = f.rows[0].versus.unwrap();
        assert!(paired && (d.estimate - 0.0256).abs() < 1e-12 && d.low == -0.0068);
        let md = report::build(&spec, &study, "sim balance t.toml").to_markdown();
        for needle in [
            "coins takes whole values: the estimate 0.39 lies between 0 and 1",
            "Fairest on the 10,000 fresh games (the smallest |mean response|): coins = 1 \
             (seat_coins=0/1), +0.040 [+0.020, +0.060].",
            "Not separable from it: coins = 0 (|mean| larger by +0.026 [-0.007, +0.058]).",
            "So coins = 1 or 0: 10,000 fresh games cannot separate them.",
            "| coins = 1 | seat_coins=0/1 | yes | +0.040 | [+0.020, +0.060] |  | fairest (point estimate) |",
        ] {
            assert!(md.contains(needle), "{needle}\n{md}");
        }
        assert!(!md.contains("0.065800"), "six decimals: {md}");

        // Daimyo's seat gold: recommended 2 (the estimate 2.27), deviations 1 and 3. The
        // fairest is the deviation 1, not either bracketing setting; 2 cannot be separated
        // from it; 3 is unbalanced where 1 may be balanced.
        let (spec, mut study) = int_study(
            2.0,
            &[(2.0, -0.043), (1.0, -0.029), (3.0, 0.105)],
            &[(-0.014, -0.098, 0.070), (0.062, -0.030, 0.154)],
        );
        if let Search::Root(r) = &mut study.search {
            r.estimate = 2.265705;
        }
        study.checks[0].mean.low = -0.105;
        study.checks[0].mean.high = 0.019;
        study.checks[1].mean.low = -0.091;
        study.checks[1].mean.high = 0.033;
        let f = fairness(&study).unwrap();
        assert_eq!(f.fairest, 1);
        let standings: Vec<Standing> = f.rows.iter().map(|r| r.standing).collect();
        assert_eq!(
            standings,
            [
                Standing::Inseparable,
                Standing::Fairest,
                Standing::Unbalanced
            ]
        );
        // Without verification_pairs.csv, 3 against 1 goes through the recommendation:
        // 0.062 − (−0.014), the half-widths added.
        let (d, paired) = f.rows[2].versus.unwrap();
        assert!(!paired);
        assert!((d.estimate - 0.076).abs() < 1e-12);
        assert!((d.low + 0.1).abs() < 1e-12 && (d.high - 0.252).abs() < 1e-12);
        let w = whole_settings(&spec, &study).unwrap();
        let sentence = whole_sentence(&spec, &study, &w);
        assert!(
            sentence.contains("So coins = 1 or 2: 10,000 fresh games cannot separate them."),
            "{sentence}"
        );
        assert!(
            sentence.contains("coins = 3, +0.105 [+0.085, +0.125]"),
            "{sentence}"
        );
        assert!(sentence.contains("(*: see below.)"), "{sentence}");
        assert!(
            fairness_note(&f)
                .unwrap()
                .contains("predates verification_pairs.csv")
        );
        // With the pairs, the paired interval is used, and 3 is detectably farther.
        let neg = |e: f64, l: f64, h: f64| Difference {
            estimate: e,
            low: l,
            high: h,
            p_value: 0.5,
            method: "test",
        };
        study.pairs = vec![PairDiff {
            a: 1,
            b: 2,
            diff: neg(-0.076, -0.12, -0.03),
        }];
        let f = fairness(&study).unwrap();
        assert_eq!(f.rows[2].standing, Standing::Farther);
        let (d, paired) = f.rows[2].versus.unwrap();
        assert!(paired && d.low == 0.03 && d.high == 0.12);
        assert!(!whole_sentence(&spec, &study, &w).contains("see below"));
        assert!(fairness_note(&f).is_none());

        // A float parameter has no whole settings.
        let mut spec = spec;
        spec.parameter[0].kind = ParamKind::Float;
        assert!(whole_settings(&spec, &study).is_none());
    }
}
