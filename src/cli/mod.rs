//! The `sim` command line (clap derive): `sim tournament`, `sim experiment`, `sim play`,
//! `sim replay`, `sim report`, `sim analyze`, `sim list`, `sim info`, `sim solve`, `sim soak`,
//! `sim merge`.
//!
//! [`run`] executes a parsed [`Cli`] and returns a [`CliError`] carrying the exit code: 2
//! for bad input (unknown game, agent, parameter or value, an unwritable output directory),
//! 1 for a failure while running. clap's own usage errors exit with 2 as well. A closed
//! stdout is not a failure ([`ClosedPipeOk`]): the command finishes and writes its files.

pub mod analyze;
pub mod balance;
pub mod design;
pub mod experiment;
pub mod info;
pub mod list;
pub mod merge;
pub mod play;
pub mod replay;
pub mod report;
pub mod rerun;
pub mod serve;
pub mod skill;
pub mod soak;
pub mod solve;
pub mod tournament;
pub mod verify;
pub mod width;

use std::io::{self, Write};

use clap::{Parser, Subcommand};

/// Fast tabletop-game simulator for AI research and balance analysis.
#[derive(Debug, Parser)]
#[command(name = "sim", version, about = about(), long_about = None, propagate_version = true)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The one-line help of `sim`, naming the games this build offers (from the registry, so
/// it never advertises a game that `sim list` does not show).
pub fn about() -> String {
    format!(
        "Fast tabletop-game simulator for AI research and balance analysis.\nGames: {} \
         (`sim list` shows their rule parameters and the agents).",
        game_names()
    )
}

/// The registered games, comma-separated ([`crate::games::NAMES`]).
pub fn game_names() -> String {
    crate::games::NAMES.join(", ")
}

/// The help of a `--game` option: the registered games.
pub(crate) fn game_help() -> String {
    format!(
        "Game to play: {} (`sim list` shows their parameters)",
        game_names()
    )
}

/// The subcommands.
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once per run: the size does not matter
pub enum Command {
    /// Play N games in parallel between agents and write CSV results and statistics.
    #[command(long_about = tournament::LONG_ABOUT, after_help = tournament::AFTER_HELP)]
    Tournament(tournament::TournamentArgs),
    /// Play one game and print it move by move (the same game as in a tournament); save or
    /// continue a position.
    #[command(long_about = play::LONG_ABOUT)]
    Play(play::PlayArgs),
    /// Reproduce one game of a tournament exactly, printing every seat's observation and
    /// every move (to debug a failed game).
    #[command(long_about = replay::LONG_ABOUT)]
    Replay(replay::ReplayArgs),
    /// Show an agent's statistics for each legal action at a saved position.
    #[command(long_about = analyze::LONG_ABOUT)]
    Analyze(analyze::AnalyzeArgs),
    /// List the games with their rule parameters and the agents with their parameters
    /// (`sim list GAME`: one game).
    List(list::ListArgs),
    /// Print a game's facts: dynamics, chance, information, utility, action ids, the game
    /// length bound and the observation tensor's layout.
    #[command(long_about = info::LONG_ABOUT)]
    Info(info::InfoArgs),
    /// Run an experiment spec (tournament, ladder with Elo ratings, endgame exploitability).
    #[command(long_about = experiment::LONG_ABOUT)]
    Experiment(experiment::ExperimentArgs),
    /// Solve a small game with a tabular solver (CFR, CFR+, ...) and write its strategy.
    Solve(solve::SolveArgs),
    /// Soak test: many random and greedy games with every invariant checked; games/s and
    /// failures with their replay commands.
    #[command(long_about = soak::LONG_ABOUT)]
    Soak(soak::SoakArgs),
    /// Combine the directories of a sharded tournament (--shard i/n) into the files of the
    /// whole run, byte-identical to a single-machine run.
    #[command(long_about = merge::LONG_ABOUT)]
    Merge(merge::MergeArgs),
    /// Write report.html (SVG charts) or report.md for a results directory.
    #[command(long_about = report::LONG_ABOUT)]
    Report(report::ReportArgs),
    /// The budget ladder: each budget of an agent against the previous one, the skill slope
    /// (Elo per doubling) and the luck share.
    #[command(long_about = skill::LONG_ABOUT)]
    Skill(skill::SkillArgs),
    /// Play any game against the agents in a browser: a local web app on 127.0.0.1.
    #[command(long_about = serve::LONG_ABOUT)]
    Serve(serve::ServeArgs),
    /// Check a finished tournament directory: rows against its sealed checkpoint, tallies
    /// against its tables.
    #[command(long_about = verify::LONG_ABOUT)]
    Verify(verify::VerifyArgs),
    /// Search a rule parameter (e.g. the komi) for the setting that balances the game, with
    /// an interval on it (docs/balance.md).
    #[command(long_about = balance::LONG_ABOUT)]
    Balance(balance::BalanceArgs),
    /// Design metrics: restricted play, per-action statistics, dominance between personas,
    /// kingmaking, with intervals (docs/balance.md).
    #[command(long_about = design::LONG_ABOUT)]
    Design(design::DesignArgs),
}

/// A failed command: the error and the process exit code.
#[derive(Debug)]
pub struct CliError {
    /// 2 = bad input, 1 = the run failed.
    pub code: u8,
    /// What went wrong (printed with its context chain).
    pub error: anyhow::Error,
}

impl CliError {
    /// Bad user input: exit code 2.
    pub fn bad_input(error: impl Into<anyhow::Error>) -> Self {
        CliError {
            code: 2,
            error: error.into(),
        }
    }

    /// A failure while running: exit code 1.
    pub fn failure(error: impl Into<anyhow::Error>) -> Self {
        CliError {
            code: 1,
            error: error.into(),
        }
    }
}

impl From<crate::output::OutputError> for CliError {
    fn from(e: crate::output::OutputError) -> Self {
        if e.is_bad_input() {
            CliError::bad_input(e)
        } else {
            CliError::failure(e)
        }
    }
}

impl From<crate::tournament::TournamentError> for CliError {
    fn from(e: crate::tournament::TournamentError) -> Self {
        if let crate::tournament::TournamentError::Interrupted { .. } = e {
            CliError {
                code: crate::interrupt::EXIT_CODE,
                error: e.into(),
            }
        } else if e.is_bad_input() {
            CliError::bad_input(e)
        } else {
            CliError::failure(e)
        }
    }
}

/// Runs a parsed command line, printing results to stdout and warnings and progress to
/// stderr.
///
/// A closed stdout (`sim solve ... | head -1`) is not a failure: stdout only carries a
/// report, so the rest of it is discarded ([`ClosedPipeOk`]) while the command finishes its
/// work and writes its files, and the exit code is the one the command would have had with
/// stdout open (0 on success). This is deliberate: dying of `SIGPIPE` (exit 141 in a
/// shell) would lose the files of a long run because its report was piped to `head`.
///
/// # Errors
/// A [`CliError`] with the exit code to use.
pub fn run(cli: Cli) -> Result<(), CliError> {
    // Console tables and report lines fitted to a terminal on stdout (unchanged bytes
    // otherwise): src/cli/width.rs.
    let width = width::stdout_width();
    crate::format::set_console_width(width);
    let wrap = width.filter(|_| width::wraps_lines(&cli.command));
    let mut out = width::WrapLines::new(ClosedPipeOk::new(io::stdout().lock()), wrap);
    utf8_out(&cli.command)?;
    match cli.command {
        Command::Tournament(args) => tournament::run(&args, &mut out),
        Command::Play(args) => play::run(&args, &mut out),
        Command::Replay(args) => replay::run(&args, &mut out),
        Command::Analyze(args) => analyze::run(&args, &mut out),
        Command::List(args) => list::run(&args, &mut out),
        Command::Info(args) => info::run(&args, &mut out),
        Command::Experiment(args) => experiment::run(&args, &mut out),
        Command::Solve(args) => solve::run(&args, &mut out),
        Command::Soak(args) => soak::run(&args, &mut out),
        Command::Report(args) => report::run(&args, &mut out),
        Command::Merge(args) => merge::run(&args, &mut out),
        Command::Skill(args) => skill::run(&args, &mut out),
        Command::Serve(args) => serve::run(&args, &mut out),
        Command::Verify(args) => verify::run(&args, &mut out),
        Command::Balance(args) => balance::run(&args, &mut out),
        Command::Design(args) => design::run(&args, &mut out),
    }
    .map_err(suggest_game)?;
    out.flush().map_err(CliError::failure)
}

/// Adds a "did you mean" hint to the error of an unknown game name, agent kind or
/// parameter key (anywhere in the error's chain; exit code kept).
fn suggest_game(e: CliError) -> CliError {
    let hint = e
        .error
        .chain()
        .find_map(|cause| {
            if let Some(unknown) = cause.downcast_ref::<crate::games::UnknownGame>() {
                return Some(crate::format::did_you_mean_hint(
                    &unknown.name,
                    crate::games::NAMES,
                ));
            }
            use crate::agents::AgentError;
            use crate::params::ParamError;
            use crate::tournament::TournamentError;
            // `#[error(transparent)]` wrappers hide the inner error from the chain: unwrap
            // them by hand.
            let agent = cause.downcast_ref::<AgentError>().or(
                match cause.downcast_ref::<TournamentError>() {
                    Some(TournamentError::Agent(a)) => Some(a),
                    _ => None,
                },
            );
            let param = match agent {
                Some(AgentError::Param(p)) => Some(p),
                _ => cause.downcast_ref::<ParamError>().or(
                    match cause.downcast_ref::<TournamentError>() {
                        Some(TournamentError::Variant(p)) => Some(p),
                        _ => None,
                    },
                ),
            };
            let (name, valid) = match (agent, param) {
                (Some(AgentError::UnknownKind { kind, valid }), _) => (kind, valid),
                (_, Some(ParamError::UnknownKey { key, valid, .. })) => (key, valid),
                _ => return None,
            };
            Some(crate::format::did_you_mean_hint(name, &choice_names(valid)))
        })
        .unwrap_or_default();
    if hint.is_empty() || format!("{:#}", e.error).contains("did you mean") {
        return e;
    }
    CliError {
        code: e.code,
        error: anyhow::anyhow!("{:#}{hint}", e.error),
    }
}

/// `text` wrapped at word boundaries to the width of the terminal on stderr, or unchanged
/// when stderr is not a terminal (a pipe, a file, a test) or narrower than 20 columns:
/// error messages and warnings, whose lists of valid choices run to hundreds of
/// characters.
pub fn wrap_stderr(text: &str) -> String {
    match terminal_size::terminal_size_of(std::io::stderr()) {
        Some((terminal_size::Width(w), _)) if w >= 20 => wrap_to(text, usize::from(w)),
        _ => text.to_string(),
    }
}

/// Each line of `text` filled to at most `width` columns at word boundaries (a word longer
/// than the width is split), its continuation lines indented by two spaces.
pub fn wrap_to(text: &str, width: usize) -> String {
    let options = textwrap::Options::new(width).subsequent_indent("  ");
    text.lines()
        .map(|line| textwrap::fill(line, &options))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names in an error's list of valid choices: `iters (default 2000), c (default 0.7)`
/// or `random, greedy; presets: mcts-fast` give `iters, c` and `random, greedy, mcts-fast`.
fn choice_names(valid: &str) -> Vec<&str> {
    valid
        .split([',', ';'])
        .map(|c| c.trim())
        .map(|c| c.rsplit(": ").next().unwrap_or(c))
        .map(|c| c.split(" (").next().unwrap_or(c))
        .filter(|c| {
            !c.is_empty()
                && c.chars()
                    .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '-')
        })
        .collect()
}

/// A writer that treats a closed pipe as a reader that stopped listening: the first
/// `BrokenPipe` error marks the pipe closed, and that write and every later one succeed
/// without writing anything. Other errors pass through.
#[derive(Debug)]
pub struct ClosedPipeOk<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> ClosedPipeOk<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        ClosedPipeOk {
            inner,
            closed: false,
        }
    }

    /// Whether the reader has gone (output is being discarded).
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    fn absorb<T>(&mut self, r: io::Result<T>, done: T) -> io::Result<T> {
        match r {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(done)
            }
            r => r,
        }
    }
}

impl<W: Write> Write for ClosedPipeOk<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let r = self.inner.write(buf);
        self.absorb(r, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let r = self.inner.flush();
        self.absorb(r, ())
    }
}

/// Splits every `--agents` occurrence into specs ([`crate::tournament::split_agent_list`]).
pub(crate) fn agent_specs(lists: &[String]) -> Vec<String> {
    lists
        .iter()
        .flat_map(|l| crate::tournament::split_agent_list(l))
        .collect()
}

/// clap value parser for counts that must be at least 1.
pub(crate) fn positive_u64(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "expected a positive integer (1, 2, ...), got '{s}'"
        )),
    }
}

/// clap value parser for seeds: any whole number from 0 to 2^64 - 1 (a negative or
/// fractional seed is named in the message, not taken for an option).
pub(crate) fn seed_u64(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| {
        format!(
            "'{s}' is not a seed: expected a whole number from 0 to {}",
            u64::MAX
        )
    })
}

/// clap value parser for game indices: any whole number from 0 (a negative index is
/// named in the message, not taken for an option).
pub(crate) fn game_index(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| {
        format!(
            "'{s}' is not a game index: expected a whole number from 0 to {} (game g of a \
             tournament is --index g)",
            u64::MAX
        )
    })
}

/// clap value parser for thread counts.
pub(crate) fn positive_usize(s: &str) -> Result<usize, String> {
    positive_u64(s).and_then(|n| usize::try_from(n).map_err(|_| "too large".to_string()))
}

/// Refuses a `--out` of `sim skill`, `sim balance`, `sim soak` and `sim merge` that is not
/// valid UTF-8, before any work (issue 26): the rerun command and the manifest record the
/// path as text, so such a path could not be recorded exactly (`sim tournament` and `sim
/// experiment` refuse it when they resolve their settings).
///
/// # Errors
/// Bad input (exit 2) naming the path.
fn utf8_out(command: &Command) -> Result<(), CliError> {
    let out = match command {
        Command::Skill(a) => a.out.as_deref(),
        Command::Balance(a) => a.out.as_deref(),
        Command::Soak(a) => a.out.as_deref(),
        Command::Design(a) => a.out.as_deref(),
        Command::Merge(a) => Some(a.out.as_path()),
        _ => None,
    };
    match out {
        Some(p) if p.to_str().is_none() => Err(CliError::bad_input(anyhow::anyhow!(
            "--out {} is not valid UTF-8: it could not be recorded exactly in the rerun \
             command; choose a UTF-8 name",
            p.display()
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// A writer whose reader has gone after `room` bytes.
    struct Pipe {
        room: usize,
        got: Vec<u8>,
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.got.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_swallows_the_rest_and_other_errors_pass() {
        let mut w = ClosedPipeOk::new(Pipe {
            room: 5,
            got: Vec::new(),
        });
        writeln!(w, "line one").unwrap();
        assert!(w.is_closed());
        writeln!(w, "line two").unwrap();
        w.flush().unwrap();
        assert_eq!(w.inner.got, b"line ");
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut w = ClosedPipeOk::new(Full);
        assert!(writeln!(w, "x").is_err() && !w.is_closed());
    }

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn parses_a_tournament_command() {
        let cli = Cli::try_parse_from([
            "sim",
            "tournament",
            "--game",
            "daxu",
            "--agents",
            "greedy,random",
            "-n",
            "100",
            "--variant",
            "a=1",
            "--variant",
            "b=2",
        ])
        .unwrap();
        let Command::Tournament(t) = cli.command else {
            panic!("not a tournament")
        };
        assert_eq!(t.games, Some(100));
        assert_eq!(t.variant, ["a=1", "b=2"]);
        assert_eq!(agent_specs(&t.agents), ["greedy", "random"]);
        assert_eq!(t.seed, None);
    }

    #[test]
    fn counts_must_be_positive() {
        assert!(positive_u64("0").unwrap_err().contains("at least 1"));
        assert!(positive_u64("abc").unwrap_err().contains("'abc'"));
        assert_eq!(positive_u64("12"), Ok(12));
        let e = Cli::try_parse_from([
            "sim",
            "tournament",
            "--game",
            "daxu",
            "--agents",
            "random",
            "-n",
            "0",
        ])
        .unwrap_err();
        assert_eq!(e.exit_code(), 2);
    }
}

#[cfg(test)]
mod suggest_tests {
    use super::*;

    /// Long console lines wrap at word boundaries within the width, words intact, and
    /// the continuation lines are indented.
    #[test]
    fn console_lines_wrap_at_words_within_the_width() {
        let long = "error: unknown agent 'greddy'; valid agents: random, greedy, mcts, ismcts, \
                    cfr, human, ext; presets: mcts-fast, mcts-strong, mcts-pimc\nsecond line";
        let wrapped = wrap_to(long, 40);
        assert!(wrapped.lines().count() > 3, "{wrapped}");
        for line in wrapped.lines() {
            assert!(line.chars().count() <= 40, "{line}");
        }
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&wrapped), words(long));
        assert!(
            wrapped.lines().nth(1).unwrap().starts_with("  "),
            "{wrapped}"
        );
        assert!(wrapped.ends_with("\nsecond line"), "{wrapped}");
        // Tests run with stderr not a terminal (or wider): short text passes unchanged.
        assert_eq!(wrap_stderr("short"), "short");
    }

    /// Unknown agent kinds and parameter keys get a "did you mean" hint naming the
    /// closest valid choice, and keep their exit code.
    #[test]
    fn unknown_agents_and_keys_get_a_suggestion() {
        let hint = |e: anyhow::Error| format!("{:#}", suggest_game(CliError::bad_input(e)).error);
        let err = |spec: &str| match crate::agents::build::<crate::games::daxu::State>(spec) {
            Err(e) => e,
            Ok(_) => panic!("{spec} is a valid agent"),
        };
        let text = hint(err("greddy").into());
        assert!(text.contains("did you mean 'greedy'?"), "{text}");
        let text = hint(anyhow::Error::from(err("mcts:itres=3")).context("--agents"));
        assert!(text.contains("did you mean 'iters'?"), "{text}");
        let variant =
            crate::tournament::TournamentError::Variant(crate::params::ParamError::UnknownKey {
                key: "komj".into(),
                owner: "game daxu".into(),
                valid: "deck (default 2/2/5), komi (default 0)".into(),
            });
        let text = hint(variant.into());
        assert!(text.contains("did you mean 'komi'?"), "{text}");
        let e = suggest_game(CliError::bad_input(anyhow::anyhow!("plain")));
        assert_eq!(e.code, CliError::bad_input(anyhow::anyhow!("x")).code);
        assert!(!format!("{:#}", e.error).contains("did you mean"));
        assert_eq!(
            choice_names(
                "random, greedy; presets: mcts-fast, cfr-fast; or a path to a preset file (.toml)"
            ),
            ["random", "greedy", "mcts-fast", "cfr-fast"]
        );
    }
}
