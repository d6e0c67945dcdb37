//! The balance spec: a TOML file naming the game, seats, agents, the parameter searched
//! with its range, the objective, the budget and the seed (`docs/balance.md` documents
//! every field). Errors name the file, the line and the field.

use std::path::Path;

use serde::Deserialize;

use super::BalanceError;

/// A parsed balance spec (see `docs/balance.md`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// A name for the study (the default output folder is `out/balance-NAME`).
    pub name: String,
    /// The game (`sim list`).
    pub game: String,
    /// Seats per game [default: the game's default].
    #[serde(default)]
    pub players: Option<usize>,
    /// The agent lineup (one entry: self-play in every seat) for `evaluator = "games"`.
    #[serde(default)]
    pub agents: Vec<String>,
    /// `games` (play games with the agents, the default) or `equilibrium` (exact play of a
    /// CFR+ solution of the game's extensive form; Kuhn poker), see [`Evaluator`].
    #[serde(default)]
    pub evaluator: Evaluator,
    /// CFR+ iterations of the `equilibrium` evaluator.
    #[serde(default = "default_solver_iters")]
    pub solver_iters: u64,
    /// Fixed rule settings (`key=value`) applied at every probe.
    #[serde(default)]
    pub variant: Vec<String>,
    /// The master seed: sample `i` of every probe uses game `i` of this seed.
    #[serde(default)]
    pub seed: u64,
    /// The search method: `root` (the stochastic root finder for one monotone parameter),
    /// `grid` (its baseline: every point of an even grid tested alike), `racing`
    /// (successive halving over every combination of a small discrete space) or `ntbea`
    /// (the N-tuple bandit evolutionary algorithm for a mixed space).
    pub method: String,
    /// The error level of the interval (0.05: a 95% interval).
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    /// Output folder [default: `out/balance-NAME`]; `--out` overrides it.
    #[serde(default)]
    pub out: Option<String>,
    /// What is balanced or optimised: one `[objective]` table, or several
    /// `[[objective]]` tables (then `method = "front"`: the Pareto front). The first is
    /// the primary objective ([`Spec::objective`]).
    #[serde(rename = "objective", deserialize_with = "one_or_many")]
    pub objectives: Vec<Objective>,
    /// The parameters searched (the root finder takes exactly one).
    pub parameter: Vec<Parameter>,
    /// How many games may be spent.
    pub budget: Budget,
    /// NTBEA's settings (`method = "ntbea"`).
    #[serde(default)]
    pub ntbea: NtbeaSettings,
}

/// NTBEA's settings ([`super::ntbea`]).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NtbeaSettings {
    /// Mutants drawn per iteration [default: 50].
    #[serde(default = "default_neighbours")]
    pub neighbours: usize,
    /// The exploration constant, in units of the evaluations' spread [default: 2].
    #[serde(default = "default_exploration")]
    pub exploration: f64,
}

impl Default for NtbeaSettings {
    fn default() -> Self {
        NtbeaSettings {
            neighbours: default_neighbours(),
            exploration: default_exploration(),
        }
    }
}

fn default_neighbours() -> usize {
    50
}

fn default_exploration() -> f64 {
    2.0
}

/// The most combinations `method = "racing"` races.
pub const MAX_ARMS: usize = 256;

fn default_solver_iters() -> u64 {
    2000
}

fn default_alpha() -> f64 {
    0.05
}

/// Where the responses come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Evaluator {
    /// Games played by the lineup through the tournament runner (seeded, paired).
    #[default]
    Games,
    /// The game's extensive form solved by CFR+ ([`crate::solvers::cfr`]); each sample
    /// is a deal drawn from the seed, scored by its exact expected value under the average
    /// strategy. Kuhn poker only (the one game whose tree utility is its score).
    Equilibrium,
}

/// `[objective]` (one table) or `[[objective]]` (an array of tables), as a list.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Objective>, D::Error> {
    struct OneOrMany;
    impl<'de> serde::de::Visitor<'de> for OneOrMany {
        type Value = Vec<Objective>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an [objective] table or [[objective]] tables")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            Objective::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                .map(|o| vec![o])
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(o) = seq.next_element()? {
                out.push(o);
            }
            Ok(out)
        }
    }
    d.deserialize_any(OneOrMany)
}

/// An objective: a per-game measure of the finished games, and what is wanted of its mean.
/// The single-objective methods drive `mean − target` to 0; `method = "front"` minimises
/// each objective's loss ([`Objective::loss`]) and lists the non-dominated settings.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    /// What is measured ([`ObjectiveKind`]).
    pub kind: ObjectiveKind,
    /// The seat whose result is measured (`equal_wins`, `equal_score`, `win_share`).
    #[serde(default)]
    pub seat: usize,
    /// `target` (the default: bring the mean to `target`), `max` or `min` (front only).
    #[serde(default)]
    pub goal: ObjectiveGoal,
    /// The wanted mean for `goal = "target"` [default: 0 for `equal_wins` and
    /// `equal_score`; required for `length` and `win_share`].
    #[serde(default)]
    pub target: Option<f64>,
    /// The objective's name in the outputs [default: [`Objective::label`]'s].
    #[serde(default)]
    pub name: Option<String>,
}

/// What an objective wants of its mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectiveGoal {
    /// The mean at the target: loss `|mean − target|`.
    #[default]
    Target,
    /// The largest mean: loss `−mean`.
    Max,
    /// The smallest mean: loss `mean`.
    Min,
}

impl ObjectiveGoal {
    /// The spelling in a spec.
    pub fn word(self) -> &'static str {
        match self {
            ObjectiveGoal::Target => "target",
            ObjectiveGoal::Max => "max",
            ObjectiveGoal::Min => "min",
        }
    }
}

impl Objective {
    /// The objective's name in the outputs: `name`, else the kind and the seat
    /// (`equal_wins_seat1`; `length`).
    pub fn label(&self) -> String {
        self.name.clone().unwrap_or_else(|| match self.kind {
            ObjectiveKind::Length => "length".to_string(),
            k => format!("{}_seat{}", k.word(), self.seat),
        })
    }

    /// The target of `goal = "target"` (0 when not given).
    pub fn target_value(&self) -> f64 {
        self.target.unwrap_or(0.0)
    }

    /// The loss of a mean (smaller is better): `|mean − target|`, `−mean` or `mean`.
    pub fn loss(&self, mean: f64) -> f64 {
        match self.goal {
            ObjectiveGoal::Target => (mean - self.target_value()).abs(),
            ObjectiveGoal::Max => -mean,
            ObjectiveGoal::Min => mean,
        }
    }
}

/// The kinds of objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectiveKind {
    /// Equal chances to win: `share(seat) − mean share(others)`, a share being `1/k` for
    /// each of `k` seats tied first and 0 otherwise.
    EqualWins,
    /// Equal expected points: `points(seat) + komi(seat) − mean over the others`.
    EqualScore,
    /// The game's length in plies (decisions and chance events, as `games.csv`'s `plies`).
    Length,
    /// The seat's share of first place alone (`1/k` when `k` seats tie first, else 0).
    WinShare,
}

impl ObjectiveKind {
    /// The spelling in a spec.
    pub fn word(self) -> &'static str {
        match self {
            ObjectiveKind::EqualWins => "equal_wins",
            ObjectiveKind::EqualScore => "equal_score",
            ObjectiveKind::Length => "length",
            ObjectiveKind::WinShare => "win_share",
        }
    }
}

/// One searched parameter.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    /// The parameter's name in the outputs.
    pub name: String,
    /// The rule setting it controls, with `{x}` (and `{-x}`, its negation) standing for the
    /// value: `komi=0/{x}`, `komi={x}/{-x}`.
    pub variant: String,
    /// `float`, `int` (ordered) or `categorical` (a list of `values`, no order).
    #[serde(rename = "type")]
    pub kind: ParamKind,
    /// Smallest value (ordered types).
    #[serde(default)]
    pub low: Option<f64>,
    /// Largest value (ordered types).
    #[serde(default)]
    pub high: Option<f64>,
    /// The values of a categorical parameter.
    #[serde(default)]
    pub values: Vec<String>,
    /// Gaps at most this wide are closed [default: (high − low) / 64; 1 for int].
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// Whether the objective's response increases with the value.
    #[serde(default = "default_true")]
    pub increasing: bool,
    /// Grid points for `method = "grid"`, and the levels of a float parameter (or of an
    /// int parameter with more whole numbers than this) for `racing` and `ntbea`
    /// [default: 33].
    #[serde(default)]
    pub points: Option<u64>,
}

fn default_true() -> bool {
    true
}

/// The type of a searched parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamKind {
    /// A real number.
    Float,
    /// A whole number.
    Int,
    /// One of a list of values, without an order.
    Categorical,
}

/// The budget.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// Most games (samples) the search may use.
    pub games: u64,
    /// Games per look of the sequential test at a probe.
    pub batch: u64,
    /// Most games at one probe.
    pub max_per_probe: u64,
    /// Games at the recommendation on fresh seeds afterwards (0: none).
    #[serde(default)]
    pub verify: u64,
}

/// The 1-based line of byte offset `at` in `text`.
fn line_of_offset(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// The key on a line `key = value` (empty when the line is not one).
fn key_on_line(text: &str, line: usize) -> String {
    text.lines()
        .nth(line.saturating_sub(1))
        .and_then(|l| l.split_once('='))
        .map(|(k, _)| k.trim().to_string())
        .unwrap_or_default()
}

/// The line of `key` in table `table` (`""` for the top level, `parameter` for the
/// first `[[parameter]]`), or of the table's header when the key is absent, or 1.
pub fn line_of(text: &str, table: &str, key: &str) -> usize {
    let mut current = String::new();
    let mut header = None;
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.starts_with('[') {
            let name = l.trim_matches(|c| c == '[' || c == ']').trim().to_string();
            if current == table && !table.is_empty() && header.is_some() {
                break;
            }
            current = name;
            if current == table {
                header = Some(i + 1);
            }
            continue;
        }
        if current == table && l.split_once('=').is_some_and(|(k, _)| k.trim() == key) {
            return i + 1;
        }
    }
    header.unwrap_or(1)
}

/// A spec error at `table.key` of `file`.
pub fn field_error(file: &Path, text: &str, table: &str, key: &str, msg: String) -> BalanceError {
    let field = if table.is_empty() {
        key.to_string()
    } else {
        format!("{table}.{key}")
    };
    BalanceError::Spec {
        file: file.display().to_string(),
        line: line_of(text, table, key),
        field,
        message: msg,
    }
}

impl Spec {
    /// Parses the spec text of `file` and checks what the types cannot.
    ///
    /// # Errors
    /// [`BalanceError::Spec`] naming the file, line and field.
    pub fn parse(file: &Path, text: &str) -> Result<Spec, BalanceError> {
        let spec: Spec = toml::from_str(text).map_err(|e| {
            let line = e.span().map_or(1, |s| line_of_offset(text, s.start));
            let msg = e.message().trim().to_string();
            // The message names unknown and missing fields itself; otherwise the field is
            // the key on the line the error points at.
            let field = msg
                .split('`')
                .nth(1)
                .filter(|_| msg.contains("field"))
                .map(str::to_string)
                .unwrap_or_else(|| key_on_line(text, line));
            BalanceError::Spec {
                file: file.display().to_string(),
                line,
                field,
                message: msg,
            }
        })?;
        spec.check(file, text)?;
        Ok(spec)
    }

    fn check(&self, file: &Path, text: &str) -> Result<(), BalanceError> {
        let err = |table: &str, key: &str, msg: String| field_error(file, text, table, key, msg);
        let ordered_only = self.method == "root" || self.method == "grid";
        let front = self.method == "front";
        if !ordered_only && !front && self.method != "racing" && self.method != "ntbea" {
            return Err(err(
                "",
                "method",
                format!(
                    "unknown method '{}'; valid methods: root (the root finder for one \
                     ordered parameter), grid (its baseline), racing (successive halving \
                     over a small discrete space), ntbea (NTBEA for a mixed space), front \
                     (every combination of a small discrete space on the same games, and the \
                     Pareto front of several objectives)",
                    self.method
                ),
            ));
        }
        if !(self.alpha > 0.0 && self.alpha < 0.5) {
            return Err(err(
                "",
                "alpha",
                format!("must be in (0, 0.5), got {}", self.alpha),
            ));
        }
        if ordered_only && self.parameter.len() != 1 {
            return Err(err(
                "parameter",
                "name",
                format!(
                    "the root finder and the grid search exactly one parameter, got {}; \
                     racing and ntbea search several",
                    self.parameter.len()
                ),
            ));
        }
        if self.parameter.is_empty() {
            return Err(err(
                "parameter",
                "name",
                "at least one [[parameter]] is needed".to_string(),
            ));
        }
        for k in 0..self.parameter.len() {
            self.check_param(k, ordered_only, file, text)?;
        }
        self.check_objectives(front, file, text)?;
        if self.method == "racing" || front {
            let arms = self.arms();
            if arms > MAX_ARMS as u128 {
                return Err(err(
                    "parameter",
                    "points",
                    format!(
                        "{} tries every combination, and these parameters have {arms} \
                         (at most {MAX_ARMS}); use fewer points or method = \"ntbea\"",
                        self.method
                    ),
                ));
            }
        }
        if front && (self.budget.games as u128) < 2 * self.arms() {
            return Err(err(
                "budget",
                "games",
                format!(
                    "method = \"front\" plays every one of the {} combinations on the same \
                     games, at least 2 each: budget.games must be at least {}, got {}",
                    self.arms(),
                    2 * self.arms(),
                    self.budget.games
                ),
            ));
        }
        if self.method == "ntbea" {
            if self.ntbea.neighbours == 0 {
                return Err(err("ntbea", "neighbours", "must be at least 1".to_string()));
            }
            if !(self.ntbea.exploration.is_finite() && self.ntbea.exploration >= 0.0) {
                return Err(err(
                    "ntbea",
                    "exploration",
                    format!(
                        "must be finite and not negative, got {}",
                        self.ntbea.exploration
                    ),
                ));
            }
        }
        let b = &self.budget;
        if b.batch < 2 {
            return Err(err(
                "budget",
                "batch",
                format!("must be at least 2, got {}", b.batch),
            ));
        }
        if b.max_per_probe < b.batch {
            return Err(err(
                "budget",
                "max_per_probe",
                format!(
                    "must be at least one batch ({}), got {}",
                    b.batch, b.max_per_probe
                ),
            ));
        }
        if b.games < b.batch {
            return Err(err(
                "budget",
                "games",
                format!("must be at least one batch ({}), got {}", b.batch, b.games),
            ));
        }
        match self.evaluator {
            Evaluator::Games if self.agents.is_empty() => {
                return Err(err(
                    "",
                    "agents",
                    "the games evaluator needs a lineup (agents = [\"greedy\"])".to_string(),
                ));
            }
            Evaluator::Equilibrium if self.game != "kuhn" => {
                return Err(err(
                    "",
                    "evaluator",
                    format!(
                        "the equilibrium evaluator supports kuhn only, got game '{}'; use \
                         evaluator = \"games\"",
                        self.game
                    ),
                ));
            }
            Evaluator::Equilibrium
                if self.objectives.len() != 1
                    || self.objective().kind != ObjectiveKind::EqualScore =>
            {
                return Err(err(
                    "objective",
                    "kind",
                    "the equilibrium evaluator supports one objective, equal_score".to_string(),
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// Checks the objectives: several, or a `max`/`min` goal, need `method = "front"`; a
    /// `target` goal of `length` or `win_share` needs its target.
    fn check_objectives(&self, front: bool, file: &Path, text: &str) -> Result<(), BalanceError> {
        if self.objectives.is_empty() {
            return Err(field_error(
                file,
                text,
                "",
                "objective",
                "at least one objective is needed".to_string(),
            ));
        }
        let many = self.objectives.len() > 1;
        for (k, o) in self.objectives.iter().enumerate() {
            let err = |key: &str, message: String| {
                let (table, line) = if many {
                    ("objective", line_of_nth(text, "objective", k, key))
                } else {
                    ("objective", line_of(text, "objective", key))
                };
                BalanceError::Spec {
                    file: file.display().to_string(),
                    line,
                    field: if k == 0 {
                        format!("{table}.{key}")
                    } else {
                        format!("{table}[{k}].{key}")
                    },
                    message,
                }
            };
            if !front && many {
                return Err(err(
                    "kind",
                    format!(
                        "{} objectives need method = \"front\" (every combination on the \
                         same games, and the Pareto front); method = \"{}\" takes one",
                        self.objectives.len(),
                        self.method
                    ),
                ));
            }
            if !front && o.goal != ObjectiveGoal::Target {
                return Err(err(
                    "goal",
                    format!(
                        "goal = \"{}\" needs method = \"front\"; method = \"{}\" brings a \
                         mean to its target (goal = \"target\")",
                        o.goal.word(),
                        self.method
                    ),
                ));
            }
            let needs_target = matches!(o.kind, ObjectiveKind::Length | ObjectiveKind::WinShare);
            if o.goal == ObjectiveGoal::Target && needs_target && o.target.is_none() {
                return Err(err(
                    "target",
                    format!(
                        "objective {} with goal = \"target\" needs target = <the wanted \
                         mean> (or goal = \"max\" / \"min\" with method = \"front\")",
                        o.kind.word()
                    ),
                ));
            }
            if o.target.is_some_and(|t| !t.is_finite()) {
                return Err(err("target", "must be a finite number".to_string()));
            }
        }
        Ok(())
    }

    /// Checks parameter `k` (0-based); `ordered_only` for the root finder and the grid.
    fn check_param(
        &self,
        k: usize,
        ordered_only: bool,
        file: &Path,
        text: &str,
    ) -> Result<(), BalanceError> {
        let p = &self.parameter[k];
        let err = |key: &str, message: String| BalanceError::Spec {
            file: file.display().to_string(),
            line: line_of_nth(text, "parameter", k, key),
            field: if k == 0 {
                format!("parameter.{key}")
            } else {
                format!("parameter[{k}].{key}")
            },
            message,
        };
        if p.kind == ParamKind::Categorical && ordered_only {
            return Err(err(
                "type",
                format!(
                    "parameter '{}' is categorical (values {:?}), which has no order: the \
                     root finder (method = \"root\") and the grid need an ordered parameter \
                     (type = \"int\" or \"float\" with low and high). Methods that apply to \
                     an unordered parameter: method = \"racing\" (successive halving) and \
                     method = \"ntbea\" (NTBEA)",
                    p.name, p.values
                ),
            ));
        }
        if !p.variant.contains("{x}") {
            return Err(err(
                "variant",
                format!(
                    "'{}' does not contain {{x}}, the place of the value (e.g. komi=0/{{x}})",
                    p.variant
                ),
            ));
        }
        if p.kind == ParamKind::Categorical {
            if p.values.is_empty() {
                return Err(err(
                    "values",
                    format!("categorical parameter '{}' needs values = [...]", p.name),
                ));
            }
            return Ok(());
        }
        let (Some(low), Some(high)) = (p.low, p.high) else {
            let key = if p.low.is_none() { "low" } else { "high" };
            return Err(err(
                key,
                format!("parameter '{}' needs low and high", p.name),
            ));
        };
        if low.is_nan() || high.is_nan() || low >= high {
            return Err(err(
                "high",
                format!("high ({high}) must be above low ({low})"),
            ));
        }
        if p.kind == ParamKind::Int && (low.fract() != 0.0 || high.fract() != 0.0) {
            return Err(err(
                "low",
                format!("an int parameter needs whole low and high, got {low} and {high}"),
            ));
        }
        if p.points.is_some_and(|n| n < 2) {
            return Err(err("points", "a grid needs at least 2 points".to_string()));
        }
        if p.tolerance.is_some_and(|t| t.is_nan() || t <= 0.0) {
            return Err(err("tolerance", "must be positive".to_string()));
        }
        Ok(())
    }

    /// The number of combinations of every parameter's levels.
    pub fn arms(&self) -> u128 {
        self.parameter
            .iter()
            .map(|p| p.level_count() as u128)
            .product()
    }

    /// The primary (first) objective; the only one of every method but `front`.
    pub fn objective(&self) -> &Objective {
        &self.objectives[0]
    }

    /// The searched parameter (the spec has exactly one, checked by [`Spec::parse`]).
    pub fn param(&self) -> &Parameter {
        &self.parameter[0]
    }
}

/// The line of `key` in the `k`-th (0-based) `[[table]]`, or of that table's header, or
/// the line of [`line_of`] when there are fewer.
pub fn line_of_nth(text: &str, table: &str, k: usize, key: &str) -> usize {
    let header = format!("[[{table}]]");
    let mut index: Option<usize> = None;
    let mut inside = false;
    let mut header_line = None;
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.starts_with('[') {
            inside = l.replace(' ', "") == header;
            if inside {
                index = Some(index.map_or(0, |j| j + 1));
                if index == Some(k) {
                    header_line = Some(i + 1);
                }
            }
            continue;
        }
        if inside && index == Some(k) && l.split_once('=').is_some_and(|(kk, _)| kk.trim() == key) {
            return i + 1;
        }
    }
    header_line.unwrap_or_else(|| line_of(text, table, key))
}

impl Parameter {
    /// The number of levels racing and NTBEA search: a categorical parameter's values;
    /// an int parameter's whole numbers from low to high (at most `points`, default 33,
    /// evenly spaced and rounded); a float parameter's `points` evenly spaced values.
    pub fn level_count(&self) -> usize {
        self.levels().len()
    }

    /// The levels' texts, in order (see [`Parameter::level_count`]).
    pub fn levels(&self) -> Vec<String> {
        if self.kind == ParamKind::Categorical {
            return self.values.clone();
        }
        self.numeric_levels()
            .into_iter()
            .map(|x| self.format(x))
            .collect()
    }

    /// The numeric levels of an ordered parameter (empty for a categorical one).
    pub fn numeric_levels(&self) -> Vec<f64> {
        let (Some(low), Some(high)) = (self.low, self.high) else {
            return Vec::new();
        };
        let points = self.points.unwrap_or(33).max(2);
        let mut xs: Vec<f64> = if self.kind == ParamKind::Int && high - low < points as f64 {
            (low as i64..=high as i64).map(|v| v as f64).collect()
        } else {
            (0..points)
                .map(|i| {
                    let x = low + (high - low) * i as f64 / (points - 1) as f64;
                    // Rounded to 9 decimals, so a level reads as typed (0.072, not
                    // 0.07199999999999995) in settings and outputs.
                    if self.kind == ParamKind::Int {
                        x.round()
                    } else {
                        (x * 1e9).round() / 1e9
                    }
                })
                .collect()
        };
        xs.dedup();
        xs
    }

    /// The value `x` as typed in a setting (a whole number for int).
    pub fn format(&self, x: f64) -> String {
        if self.kind == ParamKind::Int {
            format!("{}", x.round() as i64)
        } else if x == 0.0 {
            "0".to_string()
        } else {
            format!("{x}")
        }
    }

    /// The rule setting at level `i` of [`Parameter::levels`].
    pub fn level_setting(&self, i: usize) -> String {
        if self.kind == ParamKind::Categorical {
            self.variant.replace("{x}", &self.values[i])
        } else {
            self.setting(self.numeric_levels()[i])
        }
    }

    /// The rule setting at value `x`: `{x}` and `{-x}` replaced (whole numbers for int).
    pub fn setting(&self, x: f64) -> String {
        let f = |v: f64| self.format(v);
        self.variant.replace("{-x}", &f(-x)).replace("{x}", &f(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
name = "t"
game = "goofspiel"
agents = ["random"]
method = "root"

[objective]
kind = "equal_wins"
seat = 1

[[parameter]]
name = "komi1"
variant = "komi=0/{x}"
type = "float"
low = -5
high = 5

[budget]
games = 1000
batch = 100
max_per_probe = 500
"#;

    fn parse(text: &str) -> Result<Spec, BalanceError> {
        Spec::parse(Path::new("spec.toml"), text)
    }

    #[test]
    fn a_good_spec_parses_and_settings_substitute() {
        let s = parse(GOOD).unwrap();
        assert_eq!(s.param().setting(1.5), "komi=0/1.5");
        assert_eq!(s.param().setting(0.0), "komi=0/0");
        let mut p = s.param().clone();
        p.variant = "komi={x}/{-x}".into();
        assert_eq!(p.setting(0.25), "komi=0.25/-0.25");
    }

    /// A malformed spec names the file, the line and the field.
    #[test]
    fn malformed_specs_name_file_line_and_field() {
        let cases = [
            (GOOD.replace("low = -5", "low = \"x\""), 15, "low"),
            (
                GOOD.replace("seat = 1", "seat = 1\ncolour = 2"),
                10,
                "colour",
            ),
            (GOOD.replace("high = 5", "high = -6"), 16, "parameter.high"),
            (GOOD.replace("batch = 100", "batch = 1"), 20, "budget.batch"),
            (
                GOOD.replace("method = \"root\"", "method = \"anneal\""),
                5,
                "method",
            ),
        ];
        for (text, line, field) in cases {
            let e = parse(&text).unwrap_err();
            let BalanceError::Spec {
                file,
                line: l,
                field: f,
                ..
            } = &e
            else {
                panic!("{e}")
            };
            assert_eq!(
                (file.as_str(), *l, f.as_str()),
                ("spec.toml", line, field),
                "{e}"
            );
            assert!(
                e.to_string().starts_with(&format!("spec.toml:{line}: ")),
                "{e}"
            );
        }
    }

    /// Several `[[objective]]` tables parse; they need `method = "front"` (the message
    /// says so), as does a `max` goal; `length` with a target goal needs its target.
    #[test]
    fn several_objectives_need_the_front_method() {
        let two = GOOD.replace(
            "[objective]\nkind = \"equal_wins\"\nseat = 1\n",
            "[[objective]]\nkind = \"equal_wins\"\nseat = 1\n\n[[objective]]\nkind = \
             \"length\"\ngoal = \"min\"\n",
        );
        assert_ne!(two, GOOD);
        let e = parse(&two).unwrap_err().to_string();
        assert!(e.contains("method = \"front\""), "{e}");
        let s = parse(&two.replace("method = \"root\"", "method = \"front\"")).unwrap();
        assert_eq!(s.objectives.len(), 2);
        assert_eq!(s.objectives[1].label(), "length");
        assert_eq!(s.objective().label(), "equal_wins_seat1");
        assert_eq!(s.objectives[1].loss(40.0), 40.0);
        let max = GOOD.replace("seat = 1\n", "seat = 1\ngoal = \"max\"\n");
        let e = parse(&max).unwrap_err().to_string();
        assert!(e.contains("objective.goal") && e.contains("front"), "{e}");
        let len = GOOD.replace("kind = \"equal_wins\"", "kind = \"length\"");
        let e = parse(&len).unwrap_err().to_string();
        assert!(e.contains("objective.target"), "{e}");
        assert!(parse(&len.replace("seat = 1\n", "seat = 1\ntarget = 40\n")).is_ok());
    }

    /// A parameter without an order is refused by the root finder, naming the methods
    /// that apply.
    #[test]
    fn an_unordered_parameter_is_refused_for_the_root_finder() {
        let text = GOOD.replace(
            "type = \"float\"",
            "type = \"categorical\"\nvalues = [\"a\", \"b\"]",
        );
        let e = parse(&text).unwrap_err().to_string();
        assert!(
            e.contains("no order") && e.contains("racing") && e.contains("NTBEA"),
            "{e}"
        );
        assert!(e.contains("parameter.type"), "{e}");
    }
}
