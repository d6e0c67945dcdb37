//! Sequential stopping (`sim tournament --until-significant`): the run plays its games in
//! segments and stops at the first check point where a sequential test has answered its
//! question, or at `-n` games.
//!
//! # The test
//! **Wald's sequential probability ratio test** (Wald 1945; [`crate::stats::Sprt`]) of a
//! per-game score `x` in `[0, 1]` with mean `p`, `H0: p = p0` against `H1: p = p1`
//! (`p1 > p0`), error rates `alpha` (accepting H1 when H0 holds) and `beta` (accepting H0
//! when H1 holds), Wald's boundaries `ln(beta/(1 − alpha))` and `ln((1 − beta)/alpha)`.
//! Two questions are supported:
//! - **two agents** (exactly two lineup entries, different agents): "does the first agent
//!   win more than the second?": `x` = 1 when the first agent alone holds first place, ½
//!   for a shared first place (a draw), 0 when the second wins; defaults `p0 = 0.5`,
//!   `p1 = 0.55`. To ask the other way round, list the other agent first;
//! - **one agent in every seat** (self-play, any number of entries of the same spec): "does
//!   seat 0 (the first player) win more than its fair share?": `x` = 1 when seat 0 alone
//!   holds first place, `1/p` when it shares first place, 0 otherwise; defaults
//!   `p0 = 1/p`, `p1 = p0 + 0.05`. Under equal seats the seats are exchangeable and the
//!   shares of one game add up to at most 1, so `E[x] ≤ 1/p`.
//!
//! Anything else (three or more agents, an agent repeated beside another) is refused (exit
//! 2): the question would not be one number. The tests are one-sided; a "no" (H0
//! accepted) means the advantage is below `p1`, not that it is zero.
//!
//! # Check points
//! The test looks at the results only at fixed game counts, the multiples of `every`
//! (default 4096, rounded up to a multiple of the least common multiple of the seating
//! block and the runner's block of 32 games, so every check sees whole seating blocks), and
//! at `-n`. The stop point is therefore the same for any thread count and for a resumed
//! run. The statistic at a check point depends only on the totals (wins, draws, games), and
//! Wald's bounds on the error rates hold at any stopping time (see
//! [`crate::stats::Sprt::check`]), so checking less often only stops later. In the two-agent
//! question the seating alternates within a block, so the games are not identically
//! distributed when a seat has an advantage; over a whole seating block each agent holds
//! each seat equally often, and the product of the block's likelihood-ratio factors still
//! has mean at most 1 under H0 (the seat effect enters as `(m + sΔ)(m − sΔ) ≤ m²`), which is
//! why check points fall on whole blocks. That argument takes the games of a block to be
//! independent: with `--paired` they share one deal, and Wald's error bounds are then not
//! guaranteed (positively correlated games can make the test decide too early).

use serde::{Deserialize, Serialize};

use super::summary::Stats;
use crate::format::f6;
use crate::stats::{Sprt, SprtDecision};

/// The default spacing of the check points, in games.
pub const DEFAULT_EVERY: u64 = 4096;

/// The options of `--until-significant` as given (`p0=0.5,p1=0.55,alpha=0.05,beta=0.05,
/// every=4096`, each optional), or resolved (every field set).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SequentialSpec {
    /// The null rate (default 0.5 for two agents, `1/players` for a seat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p0: Option<f64>,
    /// The alternative rate, above `p0` (default `p0 + 0.05`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p1: Option<f64>,
    /// The chance of accepting H1 when H0 holds (default 0.05).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    /// The chance of accepting H0 when H1 holds (default 0.05).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<f64>,
    /// Games between check points (default 4096, rounded up to whole seating blocks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every: Option<u64>,
}

impl Eq for SequentialSpec {}

/// The valid keys of a [`SequentialSpec`].
pub const KEYS: &str = "p0, p1, alpha, beta, every";

impl std::str::FromStr for SequentialSpec {
    type Err = String;

    /// Parses `key=value,...` (empty: every default).
    fn from_str(s: &str) -> Result<Self, String> {
        let mut spec = SequentialSpec::default();
        for piece in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = piece.split_once('=').ok_or_else(|| {
                format!("'{piece}' is not key=value; the keys are {KEYS}, e.g. p1=0.55,alpha=0.01")
            })?;
            let (k, v) = (k.trim(), v.trim());
            let num = || {
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| format!("{k}: '{v}' is not a number"))
            };
            match k {
                "p0" => spec.p0 = Some(num()?),
                "p1" => spec.p1 = Some(num()?),
                "alpha" => spec.alpha = Some(num()?),
                "beta" => spec.beta = Some(num()?),
                "every" => {
                    spec.every = Some(
                        v.parse::<u64>()
                            .ok()
                            .filter(|&n| n > 0)
                            .ok_or_else(|| format!("every: '{v}' is not a whole number >= 1"))?,
                    )
                }
                _ => return Err(format!("unknown key '{k}'; the keys are {KEYS}")),
            }
        }
        Ok(spec)
    }
}

impl std::fmt::Display for SequentialSpec {
    /// `key=value` pairs of the fields that are set, comma-separated.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        for (k, v) in [
            ("p0", self.p0),
            ("p1", self.p1),
            ("alpha", self.alpha),
            ("beta", self.beta),
        ] {
            if let Some(v) = v {
                parts.push(format!("{k}={v}"));
            }
        }
        if let Some(e) = self.every {
            parts.push(format!("every={e}"));
        }
        write!(f, "{}", parts.join(","))
    }
}

/// The question a sequential run answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Does distinct agent 0 win more than distinct agent 1 (ties as half)?
    Agents,
    /// Does seat 0 win more than its fair share `1/players` (one agent in every seat)?
    FirstSeat,
}

/// A resolved sequential design: the question, the test and the check points.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequential {
    /// The question.
    pub question: Question,
    /// The resolved options (every field set).
    pub spec: SequentialSpec,
    test: Sprt,
}

impl Sequential {
    /// Resolves `spec` for a lineup of `entries` entries and `distinct` distinct agents at
    /// `players` seats, with seating block `block_len`.
    ///
    /// # Errors
    /// A message naming the unsupported lineup or the bad option and the valid range.
    pub fn resolve(
        spec: &SequentialSpec,
        entries: usize,
        distinct: usize,
        players: usize,
        block_len: u64,
    ) -> Result<Self, String> {
        let question = match (distinct, entries) {
            (1, _) => Question::FirstSeat,
            (2, 2) => Question::Agents,
            _ => {
                return Err(format!(
                    "it answers one question: two agents (exactly two \
                     different agents in the lineup: does the first win more than the \
                     second?) or one agent in every seat (does seat 0 win more than its \
                     share?); got {entries} lineup entries with {distinct} different agents"
                ));
            }
        };
        let p0 = spec.p0.unwrap_or(match question {
            Question::Agents => 0.5,
            Question::FirstSeat => 1.0 / players as f64,
        });
        let p1 = spec.p1.unwrap_or(p0 + 0.05);
        let alpha = spec.alpha.unwrap_or(0.05);
        let beta = spec.beta.unwrap_or(0.05);
        if !(p0 > 0.0 && p0 < 1.0) {
            return Err(format!("p0 must be between 0 and 1, got {p0}"));
        }
        if !(p1 > p0 && p1 < 1.0) {
            return Err(format!(
                "p1 must be above p0 = {p0} and below 1 (the test is one-sided), got {p1}"
            ));
        }
        for (k, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("{k} must be between 0 and 0.5, got {v}"));
            }
        }
        // Whole seating blocks and whole runner blocks, like a shard.
        let unit = super::shard::unit(block_len);
        let every = spec.every.unwrap_or(DEFAULT_EVERY).div_ceil(unit) * unit;
        Ok(Sequential {
            question,
            spec: SequentialSpec {
                p0: Some(p0),
                p1: Some(p1),
                alpha: Some(alpha),
                beta: Some(beta),
                every: Some(every),
            },
            test: Sprt::new(p0, p1, alpha, beta),
        })
    }

    /// Games between check points (a multiple of the seating block and of 32).
    pub fn every(&self) -> u64 {
        self.spec.every.expect("set by resolve")
    }

    /// The number of games and the sum of the scores `x` in `stats`.
    fn observed(&self, stats: &Stats) -> (f64, u64) {
        match self.question {
            Question::Agents => {
                let a = &stats.by_agent()[0];
                (a.wins as f64 + a.draws as f64 / 2.0, stats.games)
            }
            Question::FirstSeat => {
                let s = &stats.by_seat()[0];
                (
                    s.wins as f64 + s.draws as f64 / stats.players as f64,
                    stats.games,
                )
            }
        }
    }

    /// The test's decision on the games in `stats` (a check point).
    pub fn check(&mut self, stats: &Stats) -> SprtDecision {
        let (x, n) = self.observed(stats);
        // x ≤ n: at most one win (or shares of one) per game.
        self.test.check(x, n)
    }

    /// The outcome to record after the run stopped at `games` games of `max_games`.
    pub fn outcome(&self, stats: &Stats, agents: &[String], games: u64, max_games: u64) -> Outcome {
        let (x, n) = self.observed(stats);
        let (lower, upper) = self.test.bounds();
        let s = &self.spec;
        let resolved = |v: Option<f64>| v.expect("set by resolve");
        let (p0, p1) = (resolved(s.p0), resolved(s.p1));
        let question = match self.question {
            Question::Agents => format!(
                "does {} win more than {}? x = 1 for a win, 1/2 for a draw, 0 for a loss; H0: p = {p0}, H1: p = {p1}",
                agents.first().map_or("agent 0", String::as_str),
                agents.get(1).map_or("agent 1", String::as_str)
            ),
            Question::FirstSeat => format!(
                "does seat 0 win more than its share? x = 1 for a sole first place, 1/{} for a shared one; H0: p = {p0}, H1: p = {p1}",
                stats.players
            ),
        };
        let decision = self.test.decision();
        let mean = if n == 0 { 0.0 } else { x / n as f64 };
        let reason = match decision {
            SprtDecision::AcceptAlternative => format!(
                "stopped after {games} of at most {max_games} games: H1 accepted (the \
                 log-likelihood ratio {:.3} reached the upper boundary {upper:.3}); mean x = \
                 {mean:.4}",
                self.test.llr()
            ),
            SprtDecision::AcceptNull => format!(
                "stopped after {games} of at most {max_games} games: H0 accepted (the \
                 log-likelihood ratio {:.3} reached the lower boundary {lower:.3}); mean x = \
                 {mean:.4}",
                self.test.llr()
            ),
            SprtDecision::Continue => format!(
                "undecided: played all {games} games (-n) without reaching a boundary (the \
                 log-likelihood ratio {:.3} is between {lower:.3} and {upper:.3}); mean x = \
                 {mean:.4}",
                self.test.llr()
            ),
        };
        Outcome {
            method: format!(
                "Wald's sequential probability ratio test (Wald 1945), checked every {} games",
                self.every()
            ),
            question,
            p0,
            p1,
            alpha: resolved(s.alpha),
            beta: resolved(s.beta),
            every: self.every(),
            decision: match decision {
                SprtDecision::AcceptAlternative => "H1",
                SprtDecision::AcceptNull => "H0",
                SprtDecision::Continue => "undecided",
            }
            .into(),
            games,
            max_games,
            mean,
            llr: self.test.llr(),
            lower,
            upper,
            reason,
        }
    }
}

/// How a sequential run ended: the `[sequential]` table of `config.toml` and the row of
/// `sequential.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The test.
    pub method: String,
    /// The question and hypotheses, in words.
    pub question: String,
    /// The null rate.
    pub p0: f64,
    /// The alternative rate.
    pub p1: f64,
    /// Type I error bound.
    pub alpha: f64,
    /// Type II error bound.
    pub beta: f64,
    /// Games between check points.
    pub every: u64,
    /// `H1` (the advantage is there), `H0` (it is below `p1`) or `undecided` (`-n`
    /// reached first).
    pub decision: String,
    /// Games played.
    pub games: u64,
    /// The most games allowed (`-n`).
    pub max_games: u64,
    /// The mean score `x` over the games played.
    pub mean: f64,
    /// The log-likelihood ratio at the stop.
    pub llr: f64,
    /// The lower (accept H0) boundary.
    pub lower: f64,
    /// The upper (accept H1) boundary.
    pub upper: f64,
    /// One sentence: why the run stopped.
    pub reason: String,
}

/// The header of `sequential.csv`.
pub const SEQUENTIAL_HEADER: [&str; 13] = [
    "decision",
    "games",
    "max_games",
    "mean",
    "p0",
    "p1",
    "alpha",
    "beta",
    "every",
    "llr",
    "lower",
    "upper",
    "question",
];

impl Outcome {
    /// Writes `sequential.csv`: the header and one row.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_csv<W: std::io::Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(SEQUENTIAL_HEADER)?;
        w.write_record([
            self.decision.clone(),
            self.games.to_string(),
            self.max_games.to_string(),
            f6(self.mean),
            self.p0.to_string(),
            self.p1.to_string(),
            self.alpha.to_string(),
            self.beta.to_string(),
            self.every.to_string(),
            f6(self.llr),
            f6(self.lower),
            f6(self.upper),
            self.question.clone(),
        ])?;
        w.into_inner().map_err(|e| e.into_error().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_resolve_and_refuse_what_they_cannot_answer() {
        let s: SequentialSpec = "p1=0.6, alpha=0.01".parse().unwrap();
        assert_eq!((s.p1, s.alpha, s.p0), (Some(0.6), Some(0.01), None));
        assert_eq!(s.to_string(), "p1=0.6,alpha=0.01");
        assert_eq!(
            "".parse::<SequentialSpec>().unwrap(),
            SequentialSpec::default()
        );
        for (bad, needle) in [
            ("p2=1", "unknown key 'p2'; the keys are p0, p1"),
            ("p1", "not key=value"),
            ("every=0", "every: '0'"),
            ("alpha=x", "alpha: 'x' is not a number"),
        ] {
            let e = bad.parse::<SequentialSpec>().unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
        // Two agents at 2 seats (block 2): every 4096 stays 4096.
        let q = Sequential::resolve(&SequentialSpec::default(), 2, 2, 2, 2).unwrap();
        assert_eq!(q.question, Question::Agents);
        assert_eq!(q.spec.p0, Some(0.5));
        assert!((q.spec.p1.unwrap() - 0.55).abs() < 1e-12);
        assert_eq!(q.every(), 4096);
        // Self-play at 3 seats: p0 = 1/3; a block of 6 makes the unit 96: 4096 -> 4128.
        let q = Sequential::resolve(&SequentialSpec::default(), 3, 1, 3, 6).unwrap();
        assert_eq!(q.question, Question::FirstSeat);
        assert!((q.spec.p0.unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(q.every(), 4128);
        for (spec, entries, distinct, needle) in [
            ("", 3, 3, "got 3 lineup entries with 3 different agents"),
            ("", 3, 2, "got 3 lineup entries with 2 different agents"),
            ("p1=0.4", 2, 2, "p1 must be above p0 = 0.5"),
            ("p0=1", 2, 2, "p0 must be between 0 and 1, got 1"),
            ("beta=0.5", 2, 2, "beta must be between 0 and 0.5"),
        ] {
            let e =
                Sequential::resolve(&spec.parse().unwrap(), entries, distinct, 2, 2).unwrap_err();
            assert!(e.contains(needle), "{spec}: {e}");
        }
    }
}
