//! Auto-balance (`sim balance SPEC`): from "is it balanced?" to "what setting balances
//! it?", with an interval on the answer.
//!
//! A spec ([`spec::Spec`], documented field by field in `docs/balance.md`) names the game,
//! the seats, the lineup, one ordered rule parameter with its range (a rule setting with
//! `{x}` in it, e.g. the generic komi `komi=0/{x}`, [`crate::game::Komi`]), the objective
//! (equal wins or equal expected points of one seat against the others), the budget and
//! the seed. [`run`] searches the parameter with the stochastic root finder of [`root`]
//! (common random numbers: game `i` has the same seed at every probe), then verifies the
//! recommendation on fresh seeds (games never used by the search) with a paired t
//! interval of the response ([`crate::stats::paired_difference`]).
//!
//! The responses come from games played through the tournament runner
//! ([`eval::GamesOracle`]) or, for Kuhn poker, from the exact value of each sampled deal
//! under a CFR+ equilibrium ([`eval::EquilibriumOracle`]).
//!
//! Not yet here (issue 24, later rounds): racing and NTBEA for discrete and mixed spaces,
//! several objectives and the Pareto front, design metrics, resuming and sharding.

pub mod eval;
pub mod racing;
pub mod root;
pub mod spec;

use std::io::Write;

use crate::format::f6;
use crate::stats::{Difference, paired_difference};
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

/// A finished study.
#[derive(Clone, Debug)]
pub struct Study {
    /// The search.
    pub search: RootResult,
    /// The recommended value (the estimate; rounded for an int parameter).
    pub recommended: f64,
    /// The response at the recommendation on fresh seeds, if verification was asked for.
    pub verification: Option<Difference>,
    /// Games of the verification.
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

/// Runs the study of `spec`, reporting each probe on `log` (one line each).
///
/// # Errors
/// An unknown game, a setting or agent the game refuses, a failed game.
pub fn run(spec: &Spec, log: &mut dyn Write) -> Result<Study, BalanceError> {
    let cfg = root_config(spec);
    let p = spec.param();
    // A whole number for an int parameter; otherwise rounded to one decimal digit below
    // the tolerance (tolerance 0.002: 4 decimals), so the setting reads as typed.
    let decimals = (-cfg.tolerance.log10()).ceil().max(0.0) as i32 + 1;
    let recommend = |x: f64| {
        if p.kind == ParamKind::Int {
            x.round()
        } else {
            let f = 10f64.powi(decimals);
            (x * f).round() / f
        }
    };
    let (search, verification, equilibrium) = match spec.evaluator {
        Evaluator::Games => {
            let o = eval::GamesOracle {
                variant: &spec.variant,
                param: p,
                agents: &spec.agents,
                players: spec.players,
                seed: spec.seed,
                objective: spec.objective.kind,
                seat: spec.objective.seat,
            };
            let play = |x: f64, s: u64, c: u64| {
                crate::dispatch_game!(spec.game.as_str(), G => o.play::<G>(x, s, c))
                    .map_err(|e| BalanceError::Game(e.to_string()))?
            };
            // Refuse a bad game, setting or agent before any probe.
            play(cfg.low, 0, 0)?;
            let search = find(&FnOracle(&play), spec, &cfg, log)?;
            let v = verify(&play, recommend(search.estimate), spec.budget.verify)?;
            (search, v, None)
        }
        Evaluator::Equilibrium => {
            let o = eval::EquilibriumOracle::new(
                &spec.variant,
                p,
                spec.seed,
                spec.objective.seat,
                spec.solver_iters,
            )?;
            let play = |x: f64, s: u64, c: u64| o.play(x, s, c);
            play(cfg.low, 0, 0)?;
            let search = find(&FnOracle(&play), spec, &cfg, log)?;
            let v = verify(&play, recommend(search.estimate), spec.budget.verify)?;
            (search, v, Some((o.value, o.exploitability)))
        }
    };
    Ok(Study {
        recommended: recommend(search.estimate),
        search,
        verification,
        verify_games: spec.budget.verify,
        equilibrium,
    })
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

/// The response at `x` over `games` fresh games ([`VERIFY_OFFSET`]) with its t interval.
fn verify(
    play: &dyn Fn(f64, u64, u64) -> Result<Vec<f64>, BalanceError>,
    x: f64,
    games: u64,
) -> Result<Option<Difference>, BalanceError> {
    if games == 0 {
        return Ok(None);
    }
    let ys = play(x, VERIFY_OFFSET, games)?;
    Ok(Some(paired_difference(&ys)))
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

/// Writes `probes.csv`: one row per probe in order: the value, the rule setting, the
/// games, the mean response with its interval at the per-look level `1 − α'`, the sign
/// decided and the bracket after it.
///
/// # Errors
/// The I/O error of writing.
pub fn write_probes(w: impl Write, spec: &Spec, study: &Study) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    w.write_record(PROBES_HEADER)?;
    let p = spec.param();
    for (i, pr) in study.search.probes.iter().enumerate() {
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

/// Writes `recommendation.csv`: the recommended setting, the point estimate and the
/// interval `low`, `high` on the root at confidence `1 − α`, the games used, why the
/// search stopped, the objective, and the response at the recommendation on fresh seeds.
///
/// # Errors
/// The I/O error of writing.
pub fn write_recommendation(w: impl Write, spec: &Spec, study: &Study) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    w.write_record(RECOMMENDATION_HEADER)?;
    let p = spec.param();
    let r = &study.search;
    w.write_record([
        p.name.clone(),
        p.setting(study.recommended),
        f6(r.estimate),
        f6(r.low),
        f6(r.high),
        f6(1.0 - spec.alpha),
        r.samples.to_string(),
        r.stop.word().to_string(),
        spec.objective.kind.word().to_string(),
        spec.objective.seat.to_string(),
        if spec.method == "grid" {
            "grid (every point tested alike, sequential t tests, CRN)".to_string()
        } else {
            "root (bracketing bisection, sequential t tests, CRN)".to_string()
        },
        study.verify_games.to_string(),
        study.verification.map_or(String::new(), |v| f6(v.estimate)),
    ])?;
    w.flush()?;
    Ok(())
}

/// The Markdown report: the question, the recommendation with its interval, the
/// verification, and the search path.
pub fn report_md(spec: &Spec, study: &Study, command: &str) -> String {
    let p = spec.param();
    let r = &study.search;
    let mut s = String::new();
    let players = spec
        .players
        .map_or_else(|| "default".to_string(), |n| n.to_string());
    s += &format!("# Balance study `{}`\n\n", spec.name);
    s += &format!(
        "Game `{}`, players {players}, {}; objective `{}` of seat {} (0 at balance); \
         parameter `{}` = `{}` searched in [{}, {}]{}.\n\n",
        spec.game,
        match spec.evaluator {
            Evaluator::Games => format!("lineup {}", spec.agents.join(", ")),
            Evaluator::Equilibrium => format!(
                "equilibrium play (CFR+, {} iterations, exact value per deal)",
                spec.solver_iters
            ),
        },
        spec.objective.kind.word(),
        spec.objective.seat,
        p.name,
        p.variant,
        p.low.unwrap_or(0.0),
        p.high.unwrap_or(0.0),
        if spec.variant.is_empty() {
            String::new()
        } else {
            format!(", fixed settings {}", spec.variant.join(" "))
        }
    );
    if let Some((v, e)) = study.equilibrium {
        s += &format!(
            "The profile's value for seat 0 is {} chips (Kuhn 1950: −1/18 = −0.055556); \
             exploitability {}.\n\n",
            f6(v),
            f6(e)
        );
    }
    s += "## Recommendation\n\n";
    s += &format!(
        "**{}** (`{}`): estimate {}, {:.0}% interval [{}, {}], {} games, stopped: {}.\n\n",
        p.name,
        p.setting(study.recommended),
        f6(r.estimate),
        100.0 * (1.0 - spec.alpha),
        f6(r.low),
        f6(r.high),
        r.samples,
        r.stop.word()
    );
    if let Some(v) = study.verification {
        s += &format!(
            "Verification on {} fresh games at `{}`: mean response {} [{}, {}] (95% t \
             interval), p = {:.3}: {}.\n\n",
            study.verify_games,
            p.setting(study.recommended),
            f6(v.estimate),
            f6(v.low),
            f6(v.high),
            v.p_value,
            if v.significant() {
                "still unbalanced at the 5% level"
            } else {
                "no detectable imbalance"
            }
        );
    }
    s += "## Search path\n\n| probe | x | games | mean response | interval (per-look level) | sign | bracket |\n|---|---|---|---|---|---|---|\n";
    for (i, pr) in r.probes.iter().enumerate() {
        s += &format!(
            "| {i} | {} | {} | {} | [{}, {}] | {} | [{}, {}] |\n",
            f6(pr.x),
            pr.samples,
            f6(pr.mean),
            f6(pr.low),
            f6(pr.high),
            pr.sign.word(),
            f6(pr.bracket.0),
            f6(pr.bracket.1)
        );
    }
    s += &format!("\nRerun: `{command}`\n");
    s
}
