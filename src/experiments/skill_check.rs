//! `--skill-check` (`sim tournament`) and `skill_check = true` (experiment specs): does a
//! verdict survive stronger play? (Issue 22, item 4.)
//!
//! A balance verdict describes the game only as far as the agents play it well. The skill
//! check reruns the study's question — the same game, variant, seats, number of games,
//! seed and design (`--paired`, ...) — with every search agent at **twice its budget**
//! ([`double_budget`]: `iters`, or `time_ms` when the agent runs on wall time) and every
//! other agent unchanged, and compares each verdict of the first run with the rerun's
//! ([`compare`]):
//!
//! - **Seats** (the test of equal seats): the quantity is the win rate of the seat the
//!   first run found best, with its 95% Wilson interval; the direction is which seat is
//!   best.
//! - **Agents** (two agents with equal shares of the seats): the quantity is the first
//!   agent's win rate with its 95% Wilson interval; the direction is which of the two
//!   wins more games.
//!
//! A verdict **holds** when the rerun gives the same kind of verdict (both detect a
//! difference at p < 0.05, or neither does), in the same direction when a difference was
//! detected, and the two intervals of the quantity overlap. It **changes** otherwise, and
//! the line says why (the direction flipped, the difference appeared or vanished, or the
//! intervals no longer overlap). "No difference detected" has no direction, so two such
//! verdicts hold when their intervals overlap.
//!
//! Whether or not the check runs, the summary names what every verdict rests on
//! ([`rests_on`]): each agent with its search budget, or "no search budget" for fixed
//! policies (`greedy`, `random`, external programs).
//!
//! Only the built-in search kinds (`mcts`, `ismcts`, `cfr`, and presets that resolve to
//! them) have a budget to double; an `ext` agent's program is not touched.

use crate::format::{pct, rate_ci};
use crate::stats::{Z95, binomial_test_half, wilson};
use crate::tournament::{Report, Stats};

/// The agent kinds whose budget the skill check doubles.
pub const SEARCH_KINDS: &[&str] = &["mcts", "ismcts", "cfr"];

/// A search agent's budget, read from its canonical spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// `iters` or `time_ms` (the one in force: `time_ms` when non-zero).
    pub param: &'static str,
    /// Its value.
    pub value: u64,
}

impl Budget {
    /// `2,000 iterations` or `100 ms` per decision.
    pub fn describe(&self) -> String {
        match self.param {
            "time_ms" => format!("{} ms per decision", self.value),
            _ => format!("{} iterations per decision", self.value),
        }
    }
}

/// Where the check of a study written to `out` goes: the sibling directory
/// `OUT-skill-check` (its own tournament directory, with its manifest and rerun command).
pub fn check_dir(out: &std::path::Path) -> std::path::PathBuf {
    let text = out.display().to_string();
    let trimmed = text.trim_end_matches('/');
    std::path::PathBuf::from(format!(
        "{}-skill-check",
        if trimmed.is_empty() { "." } else { trimmed }
    ))
}

/// The settings of a canonical spec `kind:key=value,...`: `(kind, settings)`.
fn split_spec(spec: &str) -> (&str, Vec<(&str, &str)>) {
    let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let settings = rest
        .split(',')
        .filter_map(|s| s.split_once('='))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect();
    (kind.trim(), settings)
}

/// The budget of a canonical agent spec, or `None` when the agent has none to double (not
/// one of [`SEARCH_KINDS`], or no readable `iters`).
pub fn budget_of(spec: &str) -> Option<Budget> {
    let (kind, settings) = split_spec(spec);
    if !SEARCH_KINDS.contains(&kind) {
        return None;
    }
    let get = |key: &str| {
        settings
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| v.parse::<u64>().ok())
    };
    match get("time_ms") {
        Some(ms) if ms > 0 => Some(Budget {
            param: "time_ms",
            value: ms,
        }),
        _ => get("iters").map(|value| Budget {
            param: "iters",
            value,
        }),
    }
}

/// The canonical spec with its budget doubled ([`budget_of`]), or `None` when it has none.
/// Every other setting is kept as written.
pub fn double_budget(spec: &str) -> Option<String> {
    let b = budget_of(spec)?;
    let (kind, settings) = split_spec(spec);
    let body: Vec<String> = settings
        .iter()
        .map(|&(k, v)| {
            if k == b.param {
                format!("{k}={}", b.value.saturating_mul(2))
            } else {
                format!("{k}={v}")
            }
        })
        .collect();
    Some(format!("{kind}:{}", body.join(",")))
}

/// One line naming what the verdicts rest on: each agent (`label`, canonical `spec`) with
/// its budget, e.g. `mcts at 2000 iterations per decision; greedy (no search budget)`.
pub fn rests_on<'a>(agents: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    agents
        .into_iter()
        .map(|(label, spec)| match budget_of(spec) {
            Some(b) => format!("{label} at {}", b.describe()),
            None => format!("{label} (no search budget)"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The agents' specs for the check: every search agent's budget doubled, the others as
/// they are. `None` when no agent has a budget (the check would rerun the same games).
pub fn doubled_lineup(specs: &[String]) -> Option<Vec<String>> {
    let doubled: Vec<String> = specs
        .iter()
        .map(|s| double_budget(s).unwrap_or_else(|| s.clone()))
        .collect();
    (doubled != specs).then_some(doubled)
}

/// The comparable core of one verdict: whether it detected a difference, its direction
/// and the quantity it rests on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerdictCore {
    /// A difference at p < 0.05.
    pub significant: bool,
    /// The direction: the best seat, or 0 when the first agent wins more games and 1 when
    /// the second does (`None`: equal).
    pub direction: Option<usize>,
    /// The compared rate (see the module docs).
    pub rate: f64,
    /// Its 95% Wilson interval.
    pub interval: (f64, f64),
}

/// The seat verdict of `stats`, measured on `seat` (the seat the first run found best).
pub fn seat_core(stats: &Stats, seat: usize) -> VerdictCore {
    let test = stats.seat_test();
    let t = &stats.by_seat()[seat];
    VerdictCore {
        significant: test.decisive > 0 && test.p_value < 0.05,
        direction: Some(test.seat),
        rate: t.win_rate(),
        interval: t.interval(),
    }
}

/// The head-to-head verdict of `stats` (two agents with equal shares of the seats, as
/// [`Stats::head_to_head`]), or `None` for other lineups.
pub fn agents_core(stats: &Stats) -> Option<VerdictCore> {
    stats.head_to_head()?;
    let t = stats.by_agent();
    let (a, b, games) = (t[0].wins, t[1].wins, t[0].games);
    let p = binomial_test_half(a, a + b);
    Some(VerdictCore {
        significant: a + b > 0 && p < 0.05,
        direction: match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        },
        rate: if games == 0 {
            0.0
        } else {
            a as f64 / games as f64
        },
        interval: wilson(a, games, Z95),
    })
}

/// Whether a verdict held under the check, and the sentence that says so.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// `Seats` or `Agents`: the verdict line it belongs under.
    pub question: &'static str,
    /// The verdict holds (see the module docs).
    pub holds: bool,
    /// Why it holds or changes, with the rerun's numbers.
    pub reason: String,
}

/// Compares a verdict (`base`) with the same verdict at twice the budget (`check`);
/// `what` names the compared rate (`seat 0's win rate`).
pub fn judge(question: &'static str, what: &str, base: VerdictCore, check: VerdictCore) -> Check {
    let overlap = base.interval.0 <= check.interval.1 && check.interval.0 <= base.interval.1;
    let numbers = format!(
        "{what} {} at twice the budget, {} before",
        rate_ci(check.rate, check.interval.0, check.interval.1),
        rate_ci(base.rate, base.interval.0, base.interval.1)
    );
    let (holds, why) = match (base.significant, check.significant) {
        (true, false) => (false, "the difference is no longer detected"),
        (false, true) => (false, "a difference is detected that was not"),
        (true, true) if base.direction != check.direction => (false, "the direction flipped"),
        _ if !overlap => (false, "the intervals no longer overlap"),
        (true, true) => (true, "same direction, intervals overlap"),
        (false, false) => (true, "still no difference detected, intervals overlap"),
    };
    Check {
        question,
        holds,
        reason: format!("{why}: {numbers}"),
    }
}

/// Every verdict of `base` checked against `check` (the same study at twice the budget):
/// the seat verdict, and the head-to-head verdict when there is one; `first` names the
/// first agent (its label).
pub fn compare(base: &Stats, check: &Stats, first: &str) -> Vec<Check> {
    let seat = base.seat_test().seat;
    let mut out = vec![judge(
        "Seats",
        &format!("seat {seat}'s win rate"),
        seat_core(base, seat),
        seat_core(check, seat),
    )];
    if let (Some(b), Some(c)) = (agents_core(base), agents_core(check)) {
        out.push(judge("Agents", &format!("{first}'s win rate"), b, c));
    }
    out
}

/// The line printed under a verdict: `  skill check (...): the verdict holds (...)`.
pub fn check_line(c: &Check, doubled: &str) -> String {
    format!(
        "  skill check ({doubled}): the verdict {} ({})",
        if c.holds { "HOLDS" } else { "CHANGES" },
        c.reason
    )
}

/// Inserts the check's lines into a rendered summary ([`Stats::render`]): each under the
/// verdict line it belongs to (`Seats: ...`, `Agents: ...`), and the line naming what the
/// verdicts rest on ([`rests_on`]) after the last verdict line. Without checks only that
/// line is added.
pub fn annotate(rendered: &str, rests: &str, checks: &[Check], doubled: &str) -> String {
    let mut out = String::with_capacity(rendered.len() + 512);
    let mut in_verdicts = false;
    let mut placed = false;
    for line in rendered.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if in_verdicts && !placed && !bare.starts_with("Seats: ") && !bare.starts_with("Agents: ") {
            out.push_str(&format!("Rests on: {rests}\n"));
            placed = true;
        }
        out.push_str(line);
        if bare == "Verdicts" {
            in_verdicts = true;
        }
        for c in checks {
            if bare.starts_with(&format!("{}: ", c.question)) {
                out.push_str(&check_line(c, doubled));
                out.push('\n');
            }
        }
    }
    if in_verdicts && !placed {
        out.push_str(&format!("Rests on: {rests}\n"));
    }
    out
}

/// The words of a check's summary: `mcts at 4000 iterations per decision` for each agent
/// whose budget was doubled.
pub fn doubled_words<'a>(agents: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let words: Vec<String> = agents
        .into_iter()
        .filter_map(|(label, spec)| budget_of(spec).map(|b| format!("{label} at {}", b.describe())))
        .collect();
    words.join(", ")
}

/// A one-line tally for the end of the summary: how many verdicts hold.
pub fn tally(checks: &[Check]) -> String {
    let held = checks.iter().filter(|c| c.holds).count();
    format!(
        "skill check: {held} of {} verdicts hold at twice the budget ({})",
        checks.len(),
        pct(held as f64 / checks.len().max(1) as f64)
    )
}

/// The console summary of a study (`sim tournament`, a tournament experiment): its statistics with the line naming
/// what the verdicts rest on and, after a skill check (`check`), the check's line under
/// each verdict and where its files are (see the module docs).
pub fn summary(report: &Report, check: Option<&Report>, asked: bool) -> String {
    let pairs = |r: &Report| -> Vec<(String, String)> {
        r.config
            .labels
            .agents
            .iter()
            .map(|a| (a.agent.clone(), a.spec.clone()))
            .collect()
    };
    let base = pairs(report);
    let rests = rests_on(base.iter().map(|(a, s)| (a.as_str(), s.as_str())));
    let rendered = report.stats.render();
    match check {
        Some(c) if report.stats.games > 0 && c.stats.games > 0 => {
            let first = base.first().map_or("", |(a, _)| a.as_str());
            let checks = compare(&report.stats, &c.stats, first);
            let doubled = pairs(c);
            let words = doubled_words(doubled.iter().map(|(a, s)| (a.as_str(), s.as_str())));
            format!(
                "{}\n{}; the check's files: {}\n",
                annotate(&rendered, &rests, &checks, &words),
                tally(&checks),
                c.out.display()
            )
        }
        _ if asked => annotate(
            &rendered,
            &format!("{rests} (skill check: not run, no search budget to double)"),
            &[],
            "",
        ),
        _ => annotate(&rendered, &rests, &[], ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{GameRecord, Lineup};

    const MCTS: &str = "mcts:iters=2000,time_ms=0,c=0.7,rollout=random";

    #[test]
    fn budgets_are_read_and_doubled() {
        assert_eq!(
            budget_of(MCTS),
            Some(Budget {
                param: "iters",
                value: 2000
            })
        );
        assert_eq!(
            double_budget(MCTS).unwrap(),
            "mcts:iters=4000,time_ms=0,c=0.7,rollout=random"
        );
        let timed = "ismcts:iters=2000,time_ms=100,c=0.7";
        assert_eq!(
            double_budget(timed).unwrap(),
            "ismcts:iters=2000,time_ms=200,c=0.7"
        );
        assert_eq!(budget_of("greedy:samples=4"), None);
        assert_eq!(double_budget("random"), None);
        let lineup = vec![MCTS.to_string(), "greedy:samples=4".to_string()];
        let d = doubled_lineup(&lineup).unwrap();
        assert_eq!(d[1], "greedy:samples=4");
        assert!(d[0].contains("iters=4000"));
        assert_eq!(doubled_lineup(&["greedy:samples=4".to_string()]), None);
        assert_eq!(
            rests_on([("mcts", MCTS), ("greedy", "greedy:samples=4")]),
            "mcts at 2000 iterations per decision; greedy (no search budget)"
        );
    }

    /// Statistics of `mcts` against `greedy` (2 seats) from win counts: `m0` games that
    /// mcts won from seat 0, `m1` from seat 1, `g0` and `g1` likewise for greedy.
    fn stats(m0: u64, m1: u64, g0: u64, g1: u64) -> Stats {
        let lineup = Lineup::new(&["mcts", "greedy"], 2).unwrap();
        let mut st = Stats::new(&lineup, 2);
        let mut index = 0;
        // (count, entry at each seat, ranks)
        for (n, seating, ranks) in [
            (m0, [0, 1, 0, 0], [1, 2, 0, 0]),
            (m1, [1, 0, 0, 0], [2, 1, 0, 0]),
            (g0, [1, 0, 0, 0], [1, 2, 0, 0]),
            (g1, [0, 1, 0, 0], [2, 1, 0, 0]),
        ] {
            for _ in 0..n {
                st.add(&GameRecord {
                    index,
                    seed: 0,
                    players: 2,
                    lineup: seating,
                    scores: [0; 4],
                    ranks,
                    plies: 1,
                    rounds: 1,
                    end: "x",
                    metrics: Default::default(),
                    labels: Default::default(),
                });
                index += 1;
            }
        }
        st
    }

    fn verdicts(base: &Stats, check: &Stats) -> (Check, Check) {
        let c = compare(base, check, "mcts");
        assert_eq!(c.len(), 2);
        (c[0].clone(), c[1].clone())
    }

    /// mcts wins 60% at both budgets, seats even: both verdicts hold.
    #[test]
    fn a_verdict_that_holds() {
        let (seats, agents) = verdicts(&stats(150, 150, 100, 100), &stats(155, 155, 95, 95));
        assert!(agents.holds, "{agents:?}");
        assert!(agents.reason.starts_with("same direction"), "{agents:?}");
        assert!(seats.holds, "{seats:?}");
        assert!(seats.reason.starts_with("still no difference"), "{seats:?}");
    }

    /// The head-to-head verdict flips (mcts 60% -> 40%), vanishes (-> 51%), or keeps its
    /// direction with intervals that no longer overlap (-> 90%): each one changes.
    #[test]
    fn verdicts_that_change() {
        let base = stats(150, 150, 100, 100);
        let (_, a) = verdicts(&base, &stats(100, 100, 150, 150));
        assert!(
            !a.holds && a.reason.starts_with("the direction flipped"),
            "{a:?}"
        );
        let (_, a) = verdicts(&base, &stats(128, 127, 122, 123));
        assert!(
            !a.holds && a.reason.starts_with("the difference is no longer"),
            "{a:?}"
        );
        let (_, a) = verdicts(&base, &stats(225, 225, 25, 25));
        assert!(
            !a.holds && a.reason.starts_with("the intervals no longer"),
            "{a:?}"
        );
        let (_, a) = verdicts(&stats(128, 127, 122, 123), &base);
        assert!(
            !a.holds && a.reason.starts_with("a difference is detected"),
            "{a:?}"
        );
    }

    /// Seat 0 wins 60% of the games, then seat 1 does: the seat verdict changes, while the
    /// agents (even) keep theirs.
    #[test]
    fn a_seat_verdict_that_flips() {
        let (seats, agents) = verdicts(&stats(150, 100, 150, 100), &stats(100, 150, 100, 150));
        assert!(!seats.holds, "{seats:?}");
        assert!(
            seats.reason.starts_with("the direction flipped"),
            "{seats:?}"
        );
        assert!(
            seats.reason.contains("seat 0's win rate 40.0%"),
            "{seats:?}"
        );
        assert!(agents.holds, "{agents:?}");
    }

    #[test]
    fn the_lines_go_under_their_verdicts() {
        let base = stats(150, 150, 100, 100);
        let checks = compare(&base, &stats(100, 100, 150, 150), "mcts");
        let text = annotate(
            &base.render(),
            "mcts at 2000 iterations per decision",
            &checks,
            "x2",
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Verdicts");
        assert!(lines[1].starts_with("Seats: "));
        assert!(
            lines[2].starts_with("  skill check (x2): the verdict HOLDS"),
            "{}",
            lines[2]
        );
        assert!(lines[3].starts_with("Agents: mcts"), "{}", lines[3]);
        assert!(
            lines[4].starts_with("  skill check (x2): the verdict CHANGES"),
            "{}",
            lines[4]
        );
        assert_eq!(lines[5], "Rests on: mcts at 2000 iterations per decision");
        let plain = annotate(&base.render(), "r", &[], "");
        assert_eq!(plain.lines().nth(3), Some("Rests on: r"));
    }
}
