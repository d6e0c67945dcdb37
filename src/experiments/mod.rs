//! Experiments: a TOML spec in `experiments/` that one command (`sim experiment FILE`)
//! turns into a results directory, so every committed result can be rerun exactly.
//!
//! Kinds:
//! - `tournament`: one [`crate::tournament`] run (`games` in total);
//! - `ladder`: a round robin: every pair of distinct agents plays a two-agent tournament of
//!   `games` games (seated by the balanced schedule of [`crate::tournament::plan`]; every
//!   pair uses the same `seed`, so the pairs meet the same deals), then a Bradley–Terry fit
//!   ([`crate::ratings`]) puts all agents on one Elo scale with 95% intervals;
//! - `endgame` (Daxu only): the exploitability of each agent in exactly solved endgames
//!   ([`endgame`]).
//!
//! Spec fields (unknown fields are errors):
//!
//! | field | kinds | meaning |
//! |---|---|---|
//! | `name` | all | a label |
//! | `kind` | all | `tournament`, `ladder` or `endgame` |
//! | `game` | all | registry name |
//! | `variant` | all | rule settings `key=value` (default: none) |
//! | `players` | tournament, ladder | seats per game (default: the game's) |
//! | `agents` | all | agent specs or preset names |
//! | `games` | tournament, ladder | games in total / per pair |
//! | `seed` | all | master seed |
//! | `out` | all | results directory |
//! | `max_deck`, `positions`, `samples`, `sampler` | endgame | see [`endgame::EndgameSpec`] |
//!
//! Outputs: `tournament` writes the tournament files; `ladder` writes `ladder.csv`
//! (`agent,elo,ci_low,ci_high,games,score`), `pairs.csv`
//! (`agent_a,agent_b,games,a_wins,b_wins,draws,a_win_rate,ci_low,ci_high`) and one
//! tournament directory per pair under `pairs/`; `endgame` writes `endgame.csv`
//! (`agent,n,mean_loss,ci_low,ci_high,max_loss`) and `positions.csv`
//! (`position,deck,seat,agent,equilibrium,best_response,loss`); in these files `agent` is
//! the full canonical spec (in the tournament files under `pairs/` it is the short label
//! of that directory's `agents.csv`). Every kind writes
//! `experiment.toml`: the program version, the spec with every agent spelled out, the
//! command that reruns it, and whether a rerun is exact (`reproducible = false`, with the
//! reason, when an agent has a wall-clock budget `time_ms > 0`; also printed on stderr).
//! Files are written through one [`OutputDir`]: as `NAME.partial`, all created before the
//! first game (so an unusable `out` is reported at once) and renamed together when the
//! experiment succeeded, `experiment.toml` last.

pub mod endgame;

use std::fs;
use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::agents;
use crate::output::{OutputDir, OutputError};
use crate::params::ParamSet;
use crate::ratings::{PairwiseResults, Rating};
use crate::stats::{Z95, wilson};
use crate::tournament::{self, Settings};

/// The kind of an experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// One tournament.
    Tournament,
    /// A round robin with Bradley–Terry ratings.
    Ladder,
    /// Daxu endgame exploitability.
    Endgame,
}

/// An experiment spec, as read from TOML (see the module docs for the fields).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// A label.
    pub name: String,
    /// What to run.
    pub kind: Kind,
    /// Game name.
    pub game: String,
    /// Rule settings, `key=value`.
    #[serde(default)]
    pub variant: Vec<String>,
    /// Seats per game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
    /// Agent specs or preset names.
    pub agents: Vec<String>,
    /// Games in total (tournament) or per pair (ladder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
    /// Master seed.
    pub seed: u64,
    /// Results directory.
    pub out: PathBuf,
    /// Endgame: largest deck at the sampled positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_deck: Option<u8>,
    /// Endgame: number of positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positions: Option<usize>,
    /// Endgame: `act` calls per node to estimate a policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<usize>,
    /// Endgame: the agent that plays games down to the endgame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampler: Option<String>,
}

/// Why an experiment could not run.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// The spec file cannot be read.
    #[error("cannot read the experiment spec '{}': {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The spec is not valid TOML of the expected shape.
    #[error("invalid experiment spec '{}': {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong (unknown field, missing field, wrong type, with the valid kinds).
        message: String,
    },
    /// A field has a bad value.
    #[error("experiment spec: {0}")]
    Invalid(String),
    /// An agent spec is bad.
    #[error(transparent)]
    Agent(#[from] agents::AgentError),
    /// A tournament of the experiment failed.
    #[error(transparent)]
    Tournament(#[from] tournament::TournamentError),
    /// Writing results failed ([`OutputError::Dir`], an unusable `out`, is bad input).
    #[error(transparent)]
    Output(#[from] OutputError),
}

impl ExperimentError {
    /// Whether the error is bad input (exit code 2) rather than a failed run.
    pub fn is_bad_input(&self) -> bool {
        match self {
            ExperimentError::Read { .. }
            | ExperimentError::Parse { .. }
            | ExperimentError::Invalid(_)
            | ExperimentError::Agent(_) => true,
            ExperimentError::Tournament(t) => t.is_bad_input(),
            ExperimentError::Output(o) => o.is_bad_input(),
        }
    }
}

/// What an experiment produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The results directory.
    pub out: PathBuf,
    /// A human-readable summary table.
    pub summary: String,
}

impl Kind {
    /// The files an experiment of this kind writes in its `out` directory, in the order
    /// they are committed (`experiment.toml` last). A `tournament` also writes the
    /// tournament files, through its own [`OutputDir`] in the same directory.
    pub fn files(self) -> &'static [&'static str] {
        match self {
            Kind::Tournament => &["experiment.toml"],
            Kind::Ladder => &["pairs.csv", "ladder.csv", "experiment.toml"],
            Kind::Endgame => &["positions.csv", "endgame.csv", "experiment.toml"],
        }
    }
}

impl Spec {
    /// Reads a spec file.
    ///
    /// # Errors
    /// [`ExperimentError::Read`] or [`ExperimentError::Parse`] naming the file.
    pub fn load(path: &Path) -> Result<Spec, ExperimentError> {
        let text = fs::read_to_string(path).map_err(|error| ExperimentError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        toml::from_str(&text).map_err(|e| ExperimentError::Parse {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }

    fn need<T: Copy>(&self, v: Option<T>, field: &str) -> Result<T, ExperimentError> {
        v.ok_or_else(|| {
            ExperimentError::Invalid(format!(
                "a {:?} experiment needs the field '{field}'",
                self.kind
            ))
        })
    }

    fn settings(
        &self,
        agents: Vec<String>,
        games: u64,
        out: PathBuf,
        threads: Option<usize>,
    ) -> Settings {
        Settings {
            game: self.game.clone(),
            players: self.players,
            variant: self.variant.clone(),
            agents,
            games,
            seed: self.seed,
            threads,
            out,
            progress: std::io::stderr().is_terminal(),
        }
    }
}

/// Runs the experiment of the spec file at `path`. `threads` never changes the results.
///
/// # Errors
/// Bad input ([`ExperimentError::is_bad_input`]) before anything is written; failures of
/// the runs or of writing results.
pub fn run(path: &Path, threads: Option<usize>) -> Result<Outcome, ExperimentError> {
    let spec = Spec::load(path)?;
    if spec.agents.is_empty() {
        return Err(ExperimentError::Invalid("'agents' is empty".into()));
    }
    let canon: Vec<String> = spec
        .agents
        .iter()
        .map(|a| {
            agents::canonicalize_with(a, crate::games::agent_defaults(&spec.game).unwrap_or(&[]))
        })
        .collect::<Result<_, _>>()?;
    let mut resolved = spec.clone();
    if let Some(s) = &resolved.sampler {
        resolved.sampler = Some(agents::canonicalize(s)?);
    }
    let mut all_agents = canon.clone();
    all_agents.extend(resolved.sampler.clone());
    let why_not = tournament::not_reproducible_because(&all_agents);
    if let Some(why) = &why_not {
        eprintln!("warning: {why} (experiment.toml records reproducible = false)");
    }
    // Everything is validated before anything is written.
    let job = match spec.kind {
        Kind::Tournament => {
            let games = spec.need(spec.games, "games")?;
            let settings = spec.settings(spec.agents.clone(), games, spec.out.clone(), threads);
            tournament::validate(&settings)?;
            Job::Tournament(settings)
        }
        Kind::Ladder => Job::Ladder(ladder_plan(&spec, &canon, threads)?),
        Kind::Endgame => Job::Endgame(endgame_spec(&spec)?),
    };
    // Then every file is created, so an unusable `out` fails before any game is played;
    // experiment.toml is created last, so it is renamed last.
    let mut out = OutputDir::create(&spec.out)?;
    for name in spec.kind.files() {
        out.create_file(name)?;
    }
    let summary = match job {
        Job::Tournament(settings) => tournament::run(&settings)?.stats.render(),
        Job::Ladder(plan) => run_ladder(&spec, plan, threads, &mut out)?,
        Job::Endgame(es) => run_endgame(es, threads, &mut out)?,
    };
    resolved.agents = canon;
    let record = ExperimentRecord {
        program: env!("CARGO_PKG_NAME").into(),
        version: env!("CARGO_PKG_VERSION").into(),
        command: format!("sim experiment {}", path.display()),
        reproducible: why_not.is_none(),
        reproducibility: why_not.unwrap_or_else(|| {
            "every result is a pure function of the spec: rerunning `command` gives \
             byte-identical files for any --threads"
                .into()
        }),
        experiment: resolved,
    };
    let text = toml::to_string(&record).map_err(|e| ExperimentError::Invalid(e.to_string()))?;
    out.write("experiment.toml", text.as_bytes())?;
    out.commit()?;
    Ok(Outcome {
        out: spec.out.clone(),
        summary,
    })
}

/// The contents of `experiment.toml`.
#[derive(Debug, Clone, Serialize)]
struct ExperimentRecord {
    program: String,
    version: String,
    command: String,
    /// False when an agent searches on a wall-clock budget (`time_ms` > 0).
    reproducible: bool,
    reproducibility: String,
    experiment: Spec,
}

fn csv_bytes(header: &[&str], rows: Vec<Vec<String>>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).expect("in-memory CSV");
    for r in rows {
        w.write_record(&r).expect("in-memory CSV");
    }
    w.into_inner().expect("in-memory CSV")
}

fn f6(x: f64) -> String {
    format!("{x:.6}")
}

/// A validated experiment, ready to run.
enum Job {
    Tournament(Settings),
    Ladder(LadderPlan),
    Endgame(endgame::EndgameSpec),
}

/// The agents of a ladder: distinct canonical specs (the names) and the specs as given.
struct LadderPlan {
    games: u64,
    names: Vec<String>,
    specs: Vec<String>,
}

/// Checks a ladder: games, at least two distinct agents, every pair a valid tournament.
fn ladder_plan(
    spec: &Spec,
    canon: &[String],
    threads: Option<usize>,
) -> Result<LadderPlan, ExperimentError> {
    let games = spec.need(spec.games, "games")?;
    let mut names: Vec<String> = Vec::new();
    let mut specs: Vec<String> = Vec::new();
    for (a, c) in spec.agents.iter().zip(canon) {
        if !names.contains(c) {
            names.push(c.clone());
            specs.push(a.clone());
        }
    }
    if names.len() < 2 {
        return Err(ExperimentError::Invalid(
            "a ladder needs at least two distinct agents".into(),
        ));
    }
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            let s = spec.settings(
                vec![specs[i].clone(), specs[j].clone()],
                games,
                spec.out.clone(),
                threads,
            );
            tournament::validate(&s)?;
        }
    }
    Ok(LadderPlan {
        games,
        names,
        specs,
    })
}

fn run_ladder(
    spec: &Spec,
    plan: LadderPlan,
    threads: Option<usize>,
    out: &mut OutputDir,
) -> Result<String, ExperimentError> {
    let LadderPlan {
        games,
        names,
        specs,
    } = plan;
    let mut results = PairwiseResults::new(names.clone());
    let mut pair_rows = Vec::new();
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            let out = spec.out.join("pairs").join(format!("{i}-{j}"));
            let s = spec.settings(
                vec![specs[i].clone(), specs[j].clone()],
                games,
                out,
                threads,
            );
            let report = tournament::run(&s)?;
            let by = report.stats.by_agent();
            let (a, b) = (&by[0], &by[1]);
            results.wins[i][j] += a.wins as f64 + 0.5 * a.draws as f64;
            results.wins[j][i] += b.wins as f64 + 0.5 * b.draws as f64;
            let (lo, hi) = wilson(a.wins, a.games, Z95);
            pair_rows.push(vec![
                names[i].clone(),
                names[j].clone(),
                a.games.to_string(),
                a.wins.to_string(),
                b.wins.to_string(),
                a.draws.to_string(),
                f6(a.win_rate()),
                f6(lo),
                f6(hi),
            ]);
            eprintln!(
                "pair {} vs {}: {:.4} [{lo:.4}, {hi:.4}] over {} games",
                names[i],
                names[j],
                a.win_rate(),
                a.games
            );
        }
    }
    let ratings = results.fit();
    out.write(
        "pairs.csv",
        &csv_bytes(
            &[
                "agent_a",
                "agent_b",
                "games",
                "a_wins",
                "b_wins",
                "draws",
                "a_win_rate",
                "ci_low",
                "ci_high",
            ],
            pair_rows,
        ),
    )?;
    out.write(
        "ladder.csv",
        &csv_bytes(
            &["agent", "elo", "ci_low", "ci_high", "games", "score"],
            ratings
                .iter()
                .map(|r| {
                    vec![
                        r.name.clone(),
                        format!("{:.1}", r.elo),
                        format!("{:.1}", r.ci_low),
                        format!("{:.1}", r.ci_high),
                        format!("{}", r.games),
                        f6(r.score),
                    ]
                })
                .collect(),
        ),
    )?;
    Ok(render_ladder(&ratings))
}

fn render_ladder(ratings: &[Rating]) -> String {
    let mut sorted: Vec<&Rating> = ratings.iter().collect();
    sorted.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    let w = sorted
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut s = format!(
        "Ladder (Bradley-Terry, Elo scale, first agent = 0; 95% intervals)\n{:<w$}  {:>8}  {:>19}  {:>7}  {:>6}\n",
        "agent", "elo", "95% CI", "games", "score"
    );
    for r in sorted {
        s.push_str(&format!(
            "{:<w$}  {:>8.1}  [{:>7.1}, {:>7.1}]  {:>7}  {:>6.3}\n",
            r.name, r.elo, r.ci_low, r.ci_high, r.games, r.score
        ));
    }
    s
}

/// Checks an endgame spec: Daxu, its variant, the required fields and the deck bound.
fn endgame_spec(spec: &Spec) -> Result<endgame::EndgameSpec, ExperimentError> {
    if spec.game != "daxu" {
        return Err(ExperimentError::Invalid(format!(
            "endgame experiments exist for daxu only, got game '{}'",
            spec.game
        )));
    }
    let params = crate::games::daxu::Params::from_settings(&spec.variant, "game daxu")
        .map_err(|e| ExperimentError::Invalid(e.to_string()))?;
    let es = endgame::EndgameSpec {
        params,
        agents: spec.agents.clone(),
        max_deck: spec.need(spec.max_deck, "max_deck")?,
        positions: spec.need(spec.positions, "positions")?,
        samples: spec.need(spec.samples, "samples")?,
        sampler: spec.sampler.clone().unwrap_or_else(|| "random".into()),
        seed: spec.seed,
    };
    if es.max_deck > 6 {
        return Err(ExperimentError::Invalid(format!(
            "max_deck = {} is too large for exact solving; use at most 6",
            es.max_deck
        )));
    }
    Ok(es)
}

fn run_endgame(
    es: endgame::EndgameSpec,
    threads: Option<usize>,
    out: &mut OutputDir,
) -> Result<String, ExperimentError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| ExperimentError::Tournament(e.into()))?;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(es.positions as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {per_sec}, ETA {eta}")
                .expect("valid template"),
        )
    } else {
        ProgressBar::hidden()
    };
    let rows = pool.install(|| endgame::run(&es, &bar))?;
    bar.finish_and_clear();
    let summary = endgame::summarize(&rows);
    out.write(
        "positions.csv",
        &csv_bytes(
            &[
                "position",
                "deck",
                "seat",
                "agent",
                "equilibrium",
                "best_response",
                "loss",
            ],
            rows.iter()
                .map(|r| {
                    vec![
                        r.position.to_string(),
                        r.deck.to_string(),
                        r.seat.to_string(),
                        r.agent.clone(),
                        f6(r.equilibrium),
                        f6(r.best_response),
                        f6(r.loss),
                    ]
                })
                .collect(),
        ),
    )?;
    out.write(
        "endgame.csv",
        &csv_bytes(
            &["agent", "n", "mean_loss", "ci_low", "ci_high", "max_loss"],
            summary
                .iter()
                .map(|s| {
                    vec![
                        s.agent.clone(),
                        s.n.to_string(),
                        f6(s.mean_loss),
                        f6(s.ci_low),
                        f6(s.ci_high),
                        f6(s.max_loss),
                    ]
                })
                .collect(),
        ),
    )?;
    let w = summary
        .iter()
        .map(|s| s.agent.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!(
        "Endgame exploitability (win-probability loss against a best response; 95% CI)\n{:<w$}  {:>5}  {:>9}  {:>21}  {:>8}\n",
        "agent", "n", "mean loss", "95% CI", "max"
    );
    for s in &summary {
        out.push_str(&format!(
            "{:<w$}  {:>5}  {:>9.4}  [{:>8.4}, {:>8.4}]  {:>8.4}\n",
            s.agent, s.n, s.mean_loss, s.ci_low, s.ci_high, s.max_loss
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_file(dir: &Path, body: &str) -> PathBuf {
        let p = dir.join("spec.toml");
        fs::write(&p, body).unwrap();
        p
    }

    #[test]
    fn ladder_ranks_greedy_above_random_and_writes_its_files() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("ladder");
        let spec = spec_file(
            dir.path(),
            &format!(
                "name = \"t\"\nkind = \"ladder\"\ngame = \"daxu\"\nagents = [\"random\", \"greedy\", \"random\"]\n\
                 games = 400\nseed = 3\nout = \"{}\"\n",
                out.display()
            ),
        );
        let outcome = run(&spec, Some(2)).unwrap();
        assert!(outcome.summary.contains("greedy:samples=4"));
        let ladder = fs::read_to_string(out.join("ladder.csv")).unwrap();
        let rows: Vec<&str> = ladder.lines().collect();
        assert_eq!(rows.len(), 3, "duplicate agents are rated once: {ladder}");
        let greedy_lo: f64 = rows[2].split(',').nth(2).unwrap().parse().unwrap();
        assert!(
            greedy_lo > 0.0,
            "greedy's interval is above random's anchor: {ladder}"
        );
        let record = fs::read_to_string(out.join("experiment.toml")).unwrap();
        assert!(
            record.contains("command = \"sim experiment") && record.contains("greedy:samples=4")
        );
        assert!(out.join("pairs/0-1/summary.csv").exists());
    }

    #[test]
    fn bad_specs_are_bad_input_naming_the_problem() {
        let dir = tempfile::tempdir().unwrap();
        let never = dir.path().join("never");
        let base = format!(
            "name = \"t\"\ngame = \"daxu\"\nagents = [\"random\", \"greedy\"]\nseed = 1\nout = \"{}\"\n",
            never.display()
        );
        let cases = [
            (format!("{base}kind = \"league\"\n"), "league"),
            (format!("{base}kind = \"ladder\"\ncolour = 1\n"), "colour"),
            (format!("{base}kind = \"ladder\"\n"), "games"),
            (format!("{base}kind = \"endgame\"\n"), "max_deck"),
            (
                format!("{base}kind = \"ladder\"\ngames = 2\nvariant = [\"deck=x\"]\n"),
                "deck",
            ),
            (
                format!("{base}kind = \"endgame\"\nmax_deck = 9\npositions = 1\nsamples = 1\n"),
                "max_deck = 9",
            ),
        ];
        for (body, needle) in cases {
            let e = run(&spec_file(dir.path(), &body), Some(1)).unwrap_err();
            assert!(e.is_bad_input(), "{e}");
            assert!(e.to_string().contains(needle), "{needle}: {e}");
        }
        let e = run(&dir.path().join("missing.toml"), None).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("missing.toml"),
            "{e}"
        );
        let plain = dir.path().join("plain-file");
        fs::write(&plain, "x").unwrap();
        let unwritable = format!(
            "{}kind = \"ladder\"\ngames = 2\n",
            base.replace(
                &never.display().to_string(),
                &format!("{}/sub", plain.display())
            )
        );
        let e = run(&spec_file(dir.path(), &unwritable), Some(1)).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("plain-file/sub"),
            "{e}"
        );
        let bad_agent =
            format!("{base}kind = \"tournament\"\ngames = 2\n").replace("greedy", "alphazero");
        let e = run(&spec_file(dir.path(), &bad_agent), None).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("alphazero"),
            "{e}"
        );
        assert!(!never.exists(), "bad input wrote nothing");
    }
}
