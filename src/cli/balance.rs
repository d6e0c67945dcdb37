//! `sim balance SPEC`: search one ordered rule parameter (a compensation such as the
//! generic `komi`) for the setting that balances the game, with an interval on it
//! ([`crate::balance`]; the spec format is in `docs/balance.md`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::CliError;
use crate::balance::{self, spec::Spec};

/// The long help of `sim balance`.
pub const LONG_ABOUT: &str = "\
Search rule parameters for the setting that balances the game, with an interval where the
method gives one, and verify the recommendation against its one-step deviations.

The spec (TOML, docs/balance.md) names the game, players, agents, the parameters as rule
settings with {x} in them (e.g. komi=0/{x}, the generic end-of-game bonus every game has),
their ranges or values, the objective (equal_wins or equal_score of one seat against the
others), the method, the budget and the seed. Methods: root (one ordered parameter: a
bisection whose every probe is a sequential t test, Bonferroni over every look; the interval
[low, high] covers the balanced setting with probability at least 1 - alpha if the response
is monotone), grid (its baseline), racing (successive halving over every combination of a
small discrete space) and ntbea (the N-tuple bandit evolutionary algorithm for a mixed
space). Game i has the same seed at every setting (common random numbers). The
recommendation and each one-step deviation are then played on fresh seeds.

Writes probes.csv (every probe or evaluation), recommendation.csv (estimate, low, high,
games), verification.csv (the recommendation against each one-step deviation),
verification_pairs.csv (every pair of verified points, so each is compared with the
fairest), pareto.csv and front_replay.csv (method front: the Pareto front, and its
settings replayed on the fresh games with every objective measured again), report.md
and report.html (charts), spec.toml (a copy) and command.txt (the exact rerun command) to
--out [default: the spec's out, else out/balance-NAME]. Results do not depend on --threads.

Resumable: while it runs, the study appends every batch of responses to journal.tsv in the
output folder (removed at the end unless --keep-journal); after an interrupt, the same
command with --resume replays the journal and plays only the rest, and writes the same
files byte for byte.

Shardable: with --shard I/N every shard plays its slice of each batch's games and writes it
to journal-shard-I-of-N.tsv in the shared --out folder, then reads the other shards' slices.
Run every shard (in any order) until each prints `complete`, e.g.
  until sim balance SPEC --out DIR --shard 0/2 | grep -q '^wrote'; do
    sim balance SPEC --out DIR --shard 1/2 >/dev/null; done
or all at once with --wait SECONDS. Shard 0 then writes the outputs (the command recorded
is the unsharded one): byte for byte those of one run, as game j of a batch has the same
seed whichever shard plays it.";

/// Arguments of `sim balance`.
#[derive(Debug, Args)]
pub struct BalanceArgs {
    /// The balance spec (TOML; docs/balance.md).
    pub spec: PathBuf,
    /// Output directory [default: the spec's `out`, else out/balance-NAME].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads [default: all cores]. Never changes the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Continue an interrupted study from the journal in the output folder
    /// (journal.tsv): its batches are replayed, the rest played, and every output is the
    /// same as an uninterrupted run's.
    #[arg(long)]
    pub resume: bool,
    /// Keep journal.tsv after the study finishes (it is removed otherwise).
    #[arg(long)]
    pub keep_journal: bool,
    /// Play only shard I of N of every batch's games (0-based: 0/2, 1/2, as Slurm's
    /// SLURM_ARRAY_TASK_ID), the shards sharing the --out folder: each plays its slice,
    /// appends it to journal-shard-I-of-N.tsv there, and reads the others' slices from
    /// theirs. A shard stops when another's slice is missing (run that shard, then this
    /// one again; or give --wait); when the study is complete, shard 0 writes the outputs,
    /// byte for byte those of one unsharded run.
    #[arg(long, conflicts_with_all = ["resume", "keep_journal"])]
    pub shard: Option<crate::tournament::Shard>,
    /// With --shard: poll the folder up to this many seconds for another shard's slice
    /// before stopping (run every shard at once, e.g. a Slurm array, with a long wait).
    #[arg(long, requires = "shard", value_name = "SECONDS")]
    pub wait: Option<u64>,
}

/// The command that reruns the study exactly.
pub fn rerun_command(spec: &Path, out: &Path) -> String {
    crate::tournament::shell_join(&[
        "sim".into(),
        "balance".into(),
        spec.display().to_string(),
        "--out".into(),
        out.display().to_string(),
    ])
}

/// Runs `sim balance`.
///
/// # Errors
/// Bad input (exit 2): an unreadable or malformed spec (naming the file, line and field),
/// an unknown game, a setting or agent the game refuses. A failed game or write (exit 1).
pub fn run(args: &BalanceArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&args.spec).map_err(|e| {
        CliError::bad_input(anyhow::anyhow!(
            "cannot read balance spec {}: {e}",
            args.spec.display()
        ))
    })?;
    let spec = Spec::parse(&args.spec, &text).map_err(CliError::bad_input)?;
    let dir = args.out.clone().unwrap_or_else(|| {
        spec.out.as_ref().map_or_else(
            || PathBuf::from(format!("out/balance-{}", spec.name)),
            PathBuf::from,
        )
    });
    if args.threads == Some(0) {
        return Err(CliError::bad_input(anyhow::anyhow!(
            "bad --threads 0: expected at least 1"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(CliError::failure)?;
    let mut log = std::io::stderr();
    std::fs::create_dir_all(&dir).map_err(|e| {
        CliError::bad_input(anyhow::anyhow!("cannot create {}: {e}", dir.display()))
    })?;
    let journal_path = dir.join(balance::journal::JOURNAL_FILE);
    let journal = match args.shard {
        Some(sh) => balance::journal::Journal::open_shard(
            &dir,
            &text,
            (sh.index as usize, sh.count as usize),
            args.wait.map(std::time::Duration::from_secs),
        ),
        None => balance::journal::Journal::open(&journal_path, &text, args.resume),
    }
    .map_err(CliError::bad_input)?;
    let result = pool.install(|| balance::run_journaled(&spec, &mut log, &journal));
    if args.resume {
        let _ = writeln!(
            log,
            "resumed: {} sampler calls replayed from {}",
            journal.replayed(),
            journal_path.display()
        );
    }
    let study = match result {
        Ok(s) => s,
        // A shard waiting for another's games: not an error; run the shards again.
        Err(balance::BalanceError::Waiting(why)) => {
            writeln!(out, "waiting: {why}").map_err(CliError::failure)?;
            return Ok(());
        }
        Err(e) if args.shard.is_some() => {
            return Err(match e {
                e @ balance::BalanceError::Failed(_) => CliError::failure(e),
                e => CliError::bad_input(e),
            });
        }
        Err(e) => {
            // A study refused before its first game leaves no journal behind.
            if !args.resume && journal.written() == 0 {
                let _ = std::fs::remove_file(&journal_path);
            }
            return Err(match e {
                e @ balance::BalanceError::Failed(_) => CliError::failure(e),
                e => CliError::bad_input(e),
            });
        }
    };
    drop(journal);
    if let Some(sh) = args.shard {
        // Every shard has the whole study now; one writes the files, so two shards
        // finishing at once never write the same file together. The shards' journals
        // stay (another shard may still be reading them).
        if sh.index != 0 {
            writeln!(
                out,
                "complete: shard {sh} has followed the study to its end; shard 0/{} writes \
                 the outputs to {} (remove the journal-shard-*.tsv files once every shard \
                 is complete)",
                sh.count,
                dir.display()
            )
            .map_err(CliError::failure)?;
            return Ok(());
        }
    } else if !args.keep_journal {
        std::fs::remove_file(&journal_path).map_err(CliError::failure)?;
    }
    let create = |name: &str| std::fs::File::create(dir.join(name)).map_err(CliError::failure);
    balance::write_probes(create("probes.csv")?, &spec, &study).map_err(CliError::failure)?;
    balance::write_recommendation(create("recommendation.csv")?, &spec, &study)
        .map_err(CliError::failure)?;
    balance::write_verification(create("verification.csv")?, &study).map_err(CliError::failure)?;
    let pairs = !study.pairs.is_empty();
    if pairs {
        balance::write_verification_pairs(create("verification_pairs.csv")?, &study)
            .map_err(CliError::failure)?;
    }
    if let balance::Search::Front(f) = &study.search {
        balance::write_front(create("pareto.csv")?, &spec, f, true).map_err(CliError::failure)?;
        if let Some(replay) = &study.front_replay {
            balance::write_front_replay(create("front_replay.csv")?, &spec, f, replay)
                .map_err(CliError::failure)?;
        }
    }
    let command = rerun_command(&args.spec, &dir);
    let write =
        |name: &str, body: &str| std::fs::write(dir.join(name), body).map_err(CliError::failure);
    write("spec.toml", &text)?;
    write("command.txt", &format!("{command}\n"))?;
    // The report from the files just written, as `sim report DIR` builds it: the two are
    // the same byte for byte.
    let report = balance::report::from_dir(&dir).map_err(CliError::failure)?;
    write("report.md", &report.to_markdown())?;
    write("report.html", &report.to_html())?;
    // manifest.json: the command, the version and each file's SHA-256, for `sim verify`.
    let mut files = vec![
        "probes.csv",
        "recommendation.csv",
        "verification.csv",
        "report.md",
        "report.html",
        "spec.toml",
        "command.txt",
    ];
    if pairs {
        files.insert(3, "verification_pairs.csv");
    }
    if study.front_replay.is_some() {
        files.insert(3, "front_replay.csv");
    }
    if matches!(study.search, balance::Search::Front(_)) {
        files.insert(3, "pareto.csv");
    }
    crate::output::record_run(&dir, "balance", &command, &files).map_err(CliError::failure)?;
    let line = match study.search.root() {
        Some(r) => format!(
            "{}: {} = {} (estimate {}), {:.0}% interval [{}, {}] after {} games ({})",
            spec.name,
            spec.param().name,
            spec.param().setting(study.recommended),
            crate::format::f6(r.estimate),
            100.0 * (1.0 - spec.alpha),
            crate::format::f6(r.low),
            crate::format::f6(r.high),
            r.samples,
            r.stop.word()
        ),
        None => format!(
            "{}: {} (by {}, no interval) after {} games",
            spec.name,
            study.settings.join(" "),
            spec.method,
            study.search.samples()
        ),
    };
    writeln!(out, "{line}").map_err(CliError::failure)?;
    if let Some(v) = study.verification {
        writeln!(
            out,
            "verification on {} fresh games: mean response {} [{}, {}], p = {:.3}",
            study.verify_games,
            crate::format::f6(v.estimate),
            crate::format::f6(v.low),
            crate::format::f6(v.high),
            v.p_value
        )
        .map_err(CliError::failure)?;
    }
    if let Some(w) = balance::whole_settings(&spec, &study) {
        writeln!(out, "{}", balance::whole_sentence(&spec, &study, &w))
            .map_err(CliError::failure)?;
    } else if let Some(f) = balance::fairness(&study) {
        writeln!(out, "{}", balance::fairness_sentence(&spec, &study, &f))
            .map_err(CliError::failure)?;
    }
    writeln!(
        out,
        "wrote {}: {}\nrerun: {command}",
        dir.display(),
        files.join(", ")
    )
    .map_err(CliError::failure)?;
    Ok(())
}
