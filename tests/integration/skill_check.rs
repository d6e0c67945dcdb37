//! `--skill-check` (issue 22, item 4): the study is played again with every search agent
//! at twice its budget, each verdict line says whether it holds, and the summary names the
//! agents and budgets the verdicts rest on. The judging itself is tested on constructed
//! verdicts that hold, flip and vanish in `src/experiments/skill_check.rs`.

use std::fs;

use crate::common::{ok, sim, text};

#[test]
fn tournament_skill_check_doubles_every_search_budget() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    let o = out.display().to_string();
    let summary = ok(
        &[
            "tournament",
            "--game",
            "goofspiel",
            "--variant",
            "num_cards=4",
            "--agents",
            "mcts:iters=20,greedy",
            "-n",
            "40",
            "--seed",
            "3",
            "--threads",
            "1",
            "--out",
            &o,
            "--skill-check",
        ],
        dir.path(),
    );
    let lines: Vec<&str> = summary.lines().collect();
    let at = lines.iter().position(|l| *l == "Verdicts").unwrap();
    assert!(lines[at + 1].starts_with("Seats: "), "{summary}");
    assert!(
        lines[at + 2]
            .starts_with("  skill check (mcts at 40 iterations per decision): the verdict "),
        "{summary}"
    );
    assert!(lines[at + 3].starts_with("Agents: "), "{summary}");
    assert!(lines[at + 4].starts_with("  skill check ("), "{summary}");
    assert_eq!(
        lines[at + 5],
        "Rests on: mcts at 20 iterations per decision; greedy (no search budget)"
    );
    assert!(
        summary.contains("verdicts hold at twice the budget"),
        "{summary}"
    );
    // The check is a tournament directory of its own, with the doubled spec.
    let agents = fs::read_to_string(dir.path().join("g-skill-check/agents.csv")).unwrap();
    assert!(agents.contains("mcts:iters=40,"), "{agents}");
    assert!(agents.contains("greedy,greedy:samples=4"), "{agents}");
    let base = fs::read_to_string(out.join("agents.csv")).unwrap();
    assert!(base.contains("mcts:iters=20,"), "{base}");
    // Without the flag the line naming the budgets is still there, and no check is run.
    let plain = ok(
        &[
            "tournament",
            "--game",
            "goofspiel",
            "--variant",
            "num_cards=4",
            "--agents",
            "mcts:iters=20,greedy",
            "-n",
            "4",
            "--out",
            &format!("{o}2"),
        ],
        dir.path(),
    );
    assert!(plain.contains("\nRests on: mcts at 20 iterations per decision; greedy"));
    assert!(!plain.contains("skill check"));
    assert!(!dir.path().join("g2-skill-check").exists());
    // Refused with --resume (exit 2).
    let r = sim(&["tournament", "--resume", &o, "--skill-check"], dir.path());
    assert_eq!(r.status.code(), Some(2), "{}", text(&r.stderr));
}

#[test]
fn experiment_skill_check() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("e");
    let spec = dir.path().join("e.toml");
    let body = |extra: &str| {
        format!(
            "name = \"e\"\nkind = \"tournament\"\ngame = \"goofspiel\"\n\
             variant = [\"num_cards=4\"]\nagents = [\"mcts:iters=10\", \"random\"]\n\
             games = 20\nseed = 5\nout = \"{}\"\nskill_check = true\n{extra}",
            out.display()
        )
    };
    fs::write(&spec, body("")).unwrap();
    let s = ok(&["experiment", &spec.display().to_string()], dir.path());
    assert!(
        s.contains("  skill check (mcts at 20 iterations per decision): the verdict"),
        "{s}"
    );
    let agents = fs::read_to_string(dir.path().join("e-skill-check/agents.csv")).unwrap();
    assert!(agents.contains("mcts:iters=20,"), "{agents}");
    let record = fs::read_to_string(out.join("experiment.toml")).unwrap();
    assert!(record.contains("skill_check = true"), "{record}");
    // Not for a sweep (bad input, exit 2, naming the field).
    fs::write(&spec, body("[sweep]\nnum_cards = [\"3\", \"4\"]\n")).unwrap();
    let r = sim(
        &["experiment", &spec.display().to_string(), "--overwrite"],
        dir.path(),
    );
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("skill_check"),
        "{}",
        text(&r.stderr)
    );
}
