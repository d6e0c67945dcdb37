//! `sim skill`: the budget ladder. How much skill does a game reward, and how much does a
//! verdict rest on? For one agent kind and a list of budgets `b_0 < b_1 < … < b_k`, each
//! budget plays the previous one (the rungs), the weakest plays the strongest and uniform
//! random plays the strongest (the luck rows). Every match is two-player, with paired
//! seats: each deal (chance stream) is played twice with the seats swapped, exactly the
//! games of `sim tournament --paired --seed S --agents A,B -n N` (the same plan, seeds
//! and game defaults) for the match's seed `S`. Statistics from [`crate::stats::skill`]: the score of each rung
//! with its paired t interval over deals, its Elo, the fitted skill slope (Elo per
//! doubling of the budget, with its interval) and the luck share (how often the weakest
//! and random win against the strongest, Wilson intervals). Match `i` (the rungs in
//! order, then the weakest and random against the strongest) uses the master seed
//! `seed_for(SEED, i, 0)` (in `skill.csv`), so the matches are independent samples, as
//! the slope's fit assumes. Match `i` (the rungs in
//! order, then the weakest and random against the strongest) uses the master seed
//! `seed_for(SEED, i, 0)` (in `skill.csv`), so the matches are independent samples, as
//! the slope's fit assumes.
//!
//! Output: a table on stdout, `skill.csv` and `command.txt` (the command that reruns it
//! exactly) in `--out`. Games run in parallel on `--threads` workers; the results do not
//! depend on the thread count (every game is seeded by its index).

use indicatif::ProgressBar;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use rayon::prelude::*;

use super::CliError;
use crate::game::Playable;
use crate::stats::interval::{Z95, wilson};
use crate::stats::skill::{RungScore, Slope, elo_of_score, ladder_rung, skill_slope};
use crate::tournament::{Plan, TournamentError, play_game, run::build_agents};

/// The long help of `sim skill`.
pub const LONG_ABOUT: &str = "\
The budget ladder: how much skill the game rewards, and how much skill a verdict rests on.

For one agent (kind, preset or spec) and a list of increasing budgets, each budget plays the
previous one (a rung), then the weakest budget and uniform random each play the strongest (the
luck rows). Every match is 2 players with paired seats: each deal is played twice with the
seats swapped, the games of `sim tournament --paired --seed S --agents A,B -n N`, where S, the
seed of match i (in skill.csv), is derived from --seed and i so that the matches are
independent.

Per rung: games, wins/draws/losses of the larger budget, its score (win 1, draw 1/2) with the
95% paired t interval over deals, and the Elo of that score. The skill slope is the Elo one
doubling of the budget is worth, fitted over the rungs by weighted least squares with its 95%
interval: above 0, more search wins more; an interval containing 0 shows no skill bought by
the budget. The luck share is how often the weakest budget, and random, win outright against
the strongest (95% Wilson intervals): near 0 the game rewards skill almost always.

Writes skill.csv (one row per rung, the slope, the luck rows) and command.txt (the command
that reruns the ladder exactly) to --out. Results do not depend on --threads.";

/// Arguments of `sim skill`.
#[derive(Debug, Args)]
pub struct SkillArgs {
    /// Game to play (`sim list` shows the games and their parameters).
    #[arg(short, long)]
    pub game: String,
    /// The agent whose budget is varied: a kind, preset or spec (`mcts`, `ismcts:c=1`).
    #[arg(short, long, default_value = "mcts")]
    pub agent: String,
    /// The budgets, comma-separated and increasing (values of --param).
    #[arg(
        short,
        long,
        value_delimiter = ',',
        default_value = "125,250,500,1000,2000"
    )]
    pub budgets: Vec<u64>,
    /// The agent parameter that holds the budget (`iters`, or `time_ms` for wall time,
    /// which is not reproducible).
    #[arg(long, default_value = "iters")]
    pub param: String,
    /// Games per match (even: every deal is played with both seatings).
    #[arg(short = 'n', long, default_value_t = 200)]
    pub games: u64,
    /// Master seed (the same for every match, so each match is one `sim tournament`).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A rule variant setting (repeatable).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variant: Vec<String>,
    /// Worker threads [default: all cores]. Never changes the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory [default: out/skill-GAME].
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// What a ladder plays: the variant, the budgets, how a budget becomes an agent spec, the
/// games per match and the seed.
pub struct LadderConfig<'a> {
    /// Rule variant settings (`key=value`).
    pub variant: &'a [String],
    /// Increasing budgets, at least 2.
    pub budgets: &'a [u64],
    /// The agent spec of a budget.
    pub spec: &'a (dyn Fn(u64) -> String + Sync),
    /// Games per match (even).
    pub games: u64,
    /// The ladder's seed; match `i` plays with master seed `seed_for(seed, i, 0)`.
    pub seed: u64,
}

/// One match of the ladder: agent `a` against agent `b`, from `a`'s side.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    /// `a`'s spec as given.
    pub a: String,
    /// `b`'s spec as given.
    pub b: String,
    /// The match's master seed (of its `sim tournament --paired`).
    pub seed: u64,
    /// Games played.
    pub games: u64,
    /// Games `a` won outright.
    pub wins: u64,
    /// Games `a` and `b` shared first place.
    pub draws: u64,
    /// Games `b` won outright.
    pub losses: u64,
    /// `a`'s score with its paired interval over deals.
    pub score: RungScore,
}

impl MatchResult {
    /// `a`'s outright win rate with its 95% Wilson interval, `(rate, low, high)`.
    pub fn win_rate(&self) -> (f64, f64, f64) {
        let (lo, hi) = wilson(self.wins, self.games, Z95);
        (self.wins as f64 / self.games.max(1) as f64, lo, hi)
    }
}

/// The ladder's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// Budget `i + 1` against budget `i`, with the doublings `log2(b_{i+1} / b_i)`.
    pub rungs: Vec<(u64, u64, f64, MatchResult)>,
    /// The fitted skill slope.
    pub slope: Slope,
    /// The weakest budget against the strongest.
    pub weakest: MatchResult,
    /// Uniform random against the strongest budget.
    pub random: MatchResult,
}

/// Plays `games` games (paired seats) of `a` against `b` and scores them from `a`'s side.
///
/// # Errors
/// A bad variant or agent spec, or a failed game.
pub fn play_match<G: Playable>(
    variant: &[String],
    a: &str,
    b: &str,
    games: u64,
    seed: u64,
    progress: &ProgressBar,
) -> Result<MatchResult, TournamentError> {
    let mut plan = Plan::<G>::resolve(Some(2), variant, &[a.to_string(), b.to_string()], seed)?;
    plan.lineup.set_paired(true);
    build_agents::<G>(&plan.lineup)?;
    let scores: Vec<f64> = (0..games)
        .into_par_iter()
        .map_init(
            || build_agents::<G>(&plan.lineup).expect("the specs were validated"),
            |agents, g| {
                let r = play_game(&plan, agents, g, |_| {})?;
                progress.inc(1);
                let seat_a = usize::from(r.lineup[1] == 0);
                let (ra, rb) = (r.ranks[seat_a], r.ranks[1 - seat_a]);
                Ok(match ra.cmp(&rb) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                })
            },
        )
        .collect::<Result<_, TournamentError>>()?;
    let count = |v: f64| scores.iter().filter(|&&s| s == v).count() as u64;
    let deals: Vec<f64> = scores
        .chunks(2)
        .map(|c| c.iter().sum::<f64>() / 2.0)
        .collect();
    Ok(MatchResult {
        a: a.to_string(),
        b: b.to_string(),
        seed,
        games,
        wins: count(1.0),
        draws: count(0.5),
        losses: count(0.0),
        score: ladder_rung(&deals),
    })
}

/// Plays the whole ladder ([`LadderConfig`]) of game `G`.
///
/// # Errors
/// As [`play_match`].
///
/// # Panics
/// If fewer than 2 budgets are given or they do not increase.
pub fn run_ladder<G: Playable>(
    cfg: &LadderConfig<'_>,
    progress: &ProgressBar,
) -> Result<Ladder, TournamentError> {
    let b = cfg.budgets;
    assert!(
        b.len() >= 2 && b.windows(2).all(|w| w[0] < w[1]),
        "budgets must increase"
    );
    let play = |i: usize, x: &str, y: &str| {
        let seed = crate::rng::seed_for(cfg.seed, i as u64, 0);
        play_match::<G>(cfg.variant, x, y, cfg.games, seed, progress)
    };
    let mut rungs = Vec::new();
    for (i, w) in b.windows(2).enumerate() {
        let m = play(i, &(cfg.spec)(w[1]), &(cfg.spec)(w[0]))?;
        rungs.push((w[1], w[0], (w[1] as f64 / w[0] as f64).log2(), m));
    }
    let slope = skill_slope(&rungs.iter().map(|r| (r.2, r.3.score)).collect::<Vec<_>>());
    let strongest = (cfg.spec)(b[b.len() - 1]);
    let weakest = play(rungs.len(), &(cfg.spec)(b[0]), &strongest)?;
    let random = play(rungs.len() + 1, "random", &strongest)?;
    Ok(Ladder {
        rungs,
        slope,
        weakest,
        random,
    })
}

/// The spec of `agent` with `param=budget` added after its own settings.
pub fn budget_spec(agent: &str, param: &str, budget: u64) -> String {
    let sep = if agent.contains(':') { ',' } else { ':' };
    format!("{agent}{sep}{param}={budget}")
}

fn elo_interval(r: &RungScore) -> (f64, f64, f64) {
    let eps = 0.25 / r.deals.max(1) as f64;
    (
        elo_of_score(r.score, eps),
        elo_of_score(r.low, eps),
        elo_of_score(r.high, eps),
    )
}

/// The header of `skill.csv`.
pub const CSV_HEADER: [&str; 19] = [
    "row",
    "a",
    "b",
    "seed",
    "budget_a",
    "budget_b",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "score_low",
    "score_high",
    "elo",
    "elo_low",
    "elo_high",
    "win_rate",
    "win_low",
    "win_high",
];

/// Writes `skill.csv`: a `rung` row per rung, a `slope` row (Elo per doubling in the `elo`
/// columns), then `weakest` and `random` (the luck rows, from the weaker side).
///
/// # Errors
/// A failure to write.
pub fn write_csv<W: Write>(ladder: &Ladder, budgets: &[u64], w: W) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    w.write_record(CSV_HEADER)?;
    let f = |x: f64| format!("{x:.6}");
    let row = |kind: &str, ba: String, bb: String, m: &MatchResult| {
        let (e, el, eh) = elo_interval(&m.score);
        let (r, rl, rh) = m.win_rate();
        vec![
            kind.to_string(),
            m.a.clone(),
            m.b.clone(),
            m.seed.to_string(),
            ba,
            bb,
            m.games.to_string(),
            m.wins.to_string(),
            m.draws.to_string(),
            m.losses.to_string(),
            f(m.score.score),
            f(m.score.low),
            f(m.score.high),
            f(e),
            f(el),
            f(eh),
            f(r),
            f(rl),
            f(rh),
        ]
    };
    for (ba, bb, _, m) in &ladder.rungs {
        w.write_record(row("rung", ba.to_string(), bb.to_string(), m))?;
    }
    let s = &ladder.slope;
    let mut slope = vec![String::new(); CSV_HEADER.len()];
    slope[0] = "slope".into();
    slope[13] = f(s.elo_per_doubling);
    slope[14] = f(s.low);
    slope[15] = f(s.high);
    w.write_record(&slope)?;
    let strongest = budgets[budgets.len() - 1].to_string();
    w.write_record(row(
        "weakest",
        budgets[0].to_string(),
        strongest.clone(),
        &ladder.weakest,
    ))?;
    w.write_record(row("random", String::new(), strongest, &ladder.random))?;
    w.flush()?;
    Ok(())
}

/// Writes the console table of a ladder.
///
/// # Errors
/// A failure to write.
pub fn render(ladder: &Ladder, budgets: &[u64], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>8}  {:>8}  {:>6}  {:>15}  {:>22}  {:>18}",
        "budget", "against", "games", "wins-draws-loss", "score [95% CI]", "Elo [95% CI]"
    )?;
    for (ba, bb, _, m) in &ladder.rungs {
        let (e, el, eh) = elo_interval(&m.score);
        writeln!(
            out,
            "{ba:>8}  {bb:>8}  {:>6}  {:>15}  {:>22}  {:>18}",
            m.games,
            format!("{}-{}-{}", m.wins, m.draws, m.losses),
            format!(
                "{:.3} [{:.3}, {:.3}]",
                m.score.score, m.score.low, m.score.high
            ),
            format!("{e:+.0} [{el:+.0}, {eh:+.0}]"),
        )?;
    }
    let s = &ladder.slope;
    let verdict = if s.low > 0.0 {
        "more budget wins more"
    } else if s.high < 0.0 {
        "more budget wins LESS"
    } else {
        "no skill shown: the interval contains 0"
    };
    writeln!(
        out,
        "skill slope: {:+.0} Elo per doubling of the budget [{:+.0}, {:+.0}] ({verdict}; weighted least squares over {} rungs)",
        s.elo_per_doubling,
        s.low,
        s.high,
        ladder.rungs.len()
    )?;
    let strongest = budgets[budgets.len() - 1];
    for (who, m) in [
        (format!("the weakest ({})", budgets[0]), &ladder.weakest),
        ("random".to_string(), &ladder.random),
    ] {
        let (r, lo, hi) = m.win_rate();
        writeln!(
            out,
            "luck: {who} beats the strongest ({strongest}) in {:.1}% [{:.1}, {:.1}] of {} games (draws {:.1}%)",
            100.0 * r,
            100.0 * lo,
            100.0 * hi,
            m.games,
            100.0 * m.draws as f64 / m.games.max(1) as f64
        )?;
    }
    Ok(())
}

/// The command that reruns `args` exactly (every option spelled out).
pub fn rerun_command(args: &SkillArgs, out: &std::path::Path) -> String {
    let mut words: Vec<String> = vec![
        "sim".into(),
        "skill".into(),
        "--game".into(),
        args.game.clone(),
        "--agent".into(),
        args.agent.clone(),
        "--param".into(),
        args.param.clone(),
        "--budgets".into(),
        args.budgets
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(","),
        "-n".into(),
        args.games.to_string(),
        "--seed".into(),
        args.seed.to_string(),
    ];
    for v in &args.variant {
        words.push("--variant".into());
        words.push(v.clone());
    }
    words.push("--out".into());
    words.push(out.display().to_string());
    crate::tournament::shell_join(&words)
}

/// Checks the arguments that clap cannot: at least 2 increasing positive budgets, an even
/// positive game count.
fn check(args: &SkillArgs) -> Result<(), CliError> {
    let b = &args.budgets;
    if b.len() < 2 || b[0] == 0 || !b.windows(2).all(|w| w[0] < w[1]) {
        return Err(CliError::bad_input(anyhow::anyhow!(
            "bad --budgets '{}': expected at least 2 positive budgets in increasing order, e.g. 125,250,500",
            b.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        )));
    }
    if args.games == 0 || args.games % 2 == 1 {
        return Err(CliError::bad_input(anyhow::anyhow!(
            "bad -n {}: expected a positive even number of games (each deal is played with both seatings)",
            args.games
        )));
    }
    Ok(())
}

fn run_game<G: Playable>(args: &SkillArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("out/skill-{}", G::NAME)));
    let spec = |b: u64| budget_spec(&args.agent, &args.param, b);
    let cfg = LadderConfig {
        variant: &args.variant,
        budgets: &args.budgets,
        spec: &spec,
        games: args.games,
        seed: args.seed,
    };
    // Check every spec and the variant before playing anything.
    for &b in &args.budgets {
        Plan::<G>::resolve(Some(2), &args.variant, &[spec(b), "random".into()], 0)?;
    }
    let matches = args.budgets.len() as u64 + 1;
    let bar = super::soak::progress_bar(matches * args.games);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(CliError::failure)?;
    let ladder = pool.install(|| run_ladder::<G>(&cfg, &bar))?;
    bar.finish_and_clear();
    writeln!(
        out,
        "skill ladder of {} on {} (2 players), {} games per match with paired seats, seed {}",
        args.agent,
        G::NAME,
        args.games,
        args.seed
    )
    .map_err(CliError::failure)?;
    render(&ladder, &args.budgets, out).map_err(CliError::failure)?;
    std::fs::create_dir_all(&dir).map_err(|e| {
        CliError::bad_input(anyhow::anyhow!("cannot create {}: {e}", dir.display()))
    })?;
    let file = std::fs::File::create(dir.join("skill.csv")).map_err(CliError::failure)?;
    write_csv(&ladder, &args.budgets, file).map_err(CliError::failure)?;
    let command = rerun_command(args, &dir);
    std::fs::write(dir.join("command.txt"), format!("{command}\n")).map_err(CliError::failure)?;
    // manifest.json: the command, the version and each file's SHA-256, for `sim verify`.
    crate::output::record_run(&dir, "skill", &command, &["skill.csv", "command.txt"])
        .map_err(CliError::failure)?;
    writeln!(
        out,
        "wrote {}: skill.csv, command.txt\nrerun: {command}",
        dir.display()
    )
    .map_err(CliError::failure)?;
    Ok(())
}

/// Runs `sim skill`.
///
/// # Errors
/// Bad input (exit 2): an unknown game, a bad agent spec, variant, budget list or game
/// count, an output directory that cannot be created. A failed game or write (exit 1).
pub fn run(args: &SkillArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check(args)?;
    crate::dispatch_game!(args.game.as_str(), G => run_game::<G>(args, out))
        .map_err(CliError::bad_input)?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::Race;

    fn ladder(spec: &(dyn Fn(u64) -> String + Sync), games: u64, seed: u64) -> Ladder {
        let variant = ["rounds=3".to_string()];
        let cfg = LadderConfig {
            variant: &variant,
            budgets: &[1, 4, 16, 64],
            spec,
            games,
            seed,
        };
        run_ladder::<Race>(&cfg, &ProgressBar::hidden()).unwrap()
    }

    /// Race has a known skill order: the longest step and the bonus always pay, and `mcts`
    /// finds them more reliably with more iterations (at 1 iteration it plays at random).
    /// The ladder's slope is positive with its interval above 0, and random rarely beats
    /// the strongest.
    #[test]
    fn a_game_with_a_known_skill_order_has_a_positive_slope() {
        let l = ladder(&|b| format!("mcts:iters={b}"), 100, 3);
        assert!(l.slope.low > 0.0, "{:?}", l.slope);
        assert!(l.random.win_rate().0 < 0.2, "{:?}", l.random);
        let mut csv = Vec::new();
        write_csv(&l, &[1, 4, 16, 64], &mut csv).unwrap();
        let text = String::from_utf8(csv).unwrap();
        assert_eq!(text.lines().count(), 1 + 3 + 1 + 2, "{text}");
        let first = format!(
            "rung,mcts:iters=4,mcts:iters=1,{},4,1,100,",
            crate::rng::seed_for(3, 0, 0)
        );
        assert!(text.lines().nth(1).unwrap().starts_with(&first), "{text}");
    }

    /// When the budget buys nothing (every budget plays uniformly at random: the outcome
    /// is chance, as in a coin flip), the slope's interval contains 0: a 95% interval, so
    /// over 20 ladders (seeds 0..20) at least 16 contain 0 (fewer has probability below
    /// 2% when the coverage is 95%), and the slopes average near 0.
    #[test]
    fn a_budget_that_buys_nothing_has_a_slope_interval_containing_zero() {
        let mut covered = 0;
        let mut mean = 0.0;
        for seed in 0..20 {
            let s = ladder(&|_| "random".to_string(), 100, seed).slope;
            covered += usize::from(s.low < 0.0 && s.high > 0.0);
            mean += s.elo_per_doubling / 20.0;
        }
        assert!(covered >= 16, "{covered} of 20 intervals contain 0");
        assert!(mean.abs() < 25.0, "mean slope {mean}");
    }

    #[test]
    fn specs_and_bad_arguments() {
        assert_eq!(budget_spec("mcts", "iters", 5), "mcts:iters=5");
        assert_eq!(budget_spec("mcts:c=1", "iters", 5), "mcts:c=1,iters=5");
        let args = |budgets: Vec<u64>, games: u64| SkillArgs {
            game: "race".into(),
            agent: "mcts".into(),
            budgets,
            param: "iters".into(),
            games,
            seed: 0,
            variant: vec![],
            threads: None,
            out: None,
        };
        assert!(check(&args(vec![10, 20], 4)).is_ok());
        for bad in [
            args(vec![10], 4),
            args(vec![20, 10], 4),
            args(vec![0, 10], 4),
        ] {
            let e = check(&bad).unwrap_err();
            assert_eq!(e.code, 2);
            assert!(e.error.to_string().contains("--budgets"), "{}", e.error);
        }
        assert_eq!(check(&args(vec![10, 20], 3)).unwrap_err().code, 2);
        assert_eq!(
            run(&args(vec![10, 20], 4), &mut Vec::new())
                .unwrap_err()
                .code,
            2
        );
    }
}
