//! Saved positions through the `sim` binary: `sim play --save-at` then `--start` continues
//! the very same game; `sim analyze` lists every legal action with the agent's statistics;
//! bad positions, games and specs exit with code 2 and name the bad value.

use std::path::Path;

use crate::common::{ok, sim, text};
use tabletop_sim::GameState;
use tabletop_sim::games::daxu;
use tabletop_sim::position::Position;

/// Runs a command that must exit with 2, print nothing on stdout, and name every needle
/// on stderr.
fn rejects(args: &[&str], cwd: &Path, needles: &[&str]) {
    let out = sim(args, cwd);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks '{n}': {err}");
    }
    assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
}

/// The output from the line `ply N, ...` on.
fn from_ply(out: &str, ply: u32) -> &str {
    let at = out
        .find(&format!("\nply {ply}, "))
        .unwrap_or_else(|| panic!("no ply {ply} in:\n{out}"));
    &out[at..]
}

const PLAY: [&str; 9] = [
    "play",
    "--game",
    "daxu",
    "--agents",
    "mcts:iters=60,greedy",
    "--seed",
    "3",
    "--index",
    "1",
];

#[test]
fn save_at_then_start_prints_the_rest_of_the_same_game() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = ok(&PLAY, tmp.path());
    for ply in [0u32, 5] {
        let file = format!("at{ply}.json");
        let mut args = PLAY.to_vec();
        let p = ply.to_string();
        args.extend(["--save-at", &p, &file]);
        let saving = sim(&args, tmp.path());
        assert_eq!(saving.status.code(), Some(0), "{}", text(&saving.stderr));
        assert_eq!(text(&saving.stdout), whole, "--save-at changed the game");
        assert!(text(&saving.stderr).contains(&format!("saved the position after ply {ply}")));

        let cont = ok(
            &[
                "play",
                "--game",
                "daxu",
                "--agents",
                "mcts:iters=60,greedy",
                "--start",
                &file,
            ],
            tmp.path(),
        );
        assert!(
            cont.contains(&format!(
                "start: position '{file}' at ply {ply}, resuming its saved streams"
            )),
            "{cont}"
        );
        assert!(cont.contains("seed 3, game 1"), "{cont}");
        assert_eq!(from_ply(&cont, ply + 1), from_ply(&whole, ply + 1));
    }
    // Another seed continues the position with that game's fresh streams.
    let other = ok(
        &[
            "play", "--game", "daxu", "--agents", "random", "--start", "at5.json", "--seed", "9",
        ],
        tmp.path(),
    );
    assert!(
        other.contains("with fresh streams (it was saved from seed 3 game 1)"),
        "{other}"
    );
    assert!(other.contains("\nply 6, "), "{other}");
}

#[test]
fn analyze_lists_every_legal_action_with_the_agents_statistics() {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = PLAY.to_vec();
    args.extend(["--save-at", "4", "pos.json"]);
    ok(&args, tmp.path());
    let pos = Position::<daxu::State>::load(&tmp.path().join("pos.json")).unwrap();
    let seats: Vec<usize> = pos.state.turn().actors().iter().collect();
    assert!(!seats.is_empty());

    let csv = ok(
        &[
            "analyze",
            "--game",
            "daxu",
            "--state",
            "pos.json",
            "--agent",
            "mcts:iters=200",
            "--format",
            "csv",
        ],
        tmp.path(),
    );
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("seat,action,id,visits,value,probability")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let mut buf = Vec::new();
    for &seat in &seats {
        pos.state.legal_actions(seat, &mut buf);
        let mine: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0] == seat.to_string()).collect();
        let names: Vec<String> = buf.iter().map(|a| a.to_string()).collect();
        let listed: Vec<String> = mine.iter().map(|r| r[1].to_string()).collect();
        assert_eq!(listed, names, "seat {seat}");
        let visits: u64 = mine.iter().map(|r| r[3].parse::<u64>().unwrap()).sum();
        assert_eq!(visits, 200, "seat {seat}: {csv}");
    }
    assert_eq!(
        rows.len(),
        seats
            .iter()
            .map(|&s| {
                pos.state.legal_actions(s, &mut buf);
                buf.len()
            })
            .sum::<usize>()
    );

    let table = ok(
        &[
            "analyze",
            "--game",
            "daxu",
            "--state",
            "pos.json",
            "--agent",
            "cfr:iters=100",
            "--seat",
            &seats[0].to_string(),
        ],
        tmp.path(),
    );
    assert!(
        table.starts_with("daxu position 'pos.json': 2 players, ply 4"),
        "{table}"
    );
    assert!(table.contains("agent: cfr:iters=100,"), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["action", "id", "probability"]),
        "{table}"
    );
    pos.state.legal_actions(seats[0], &mut buf);
    for a in &buf {
        assert!(
            table.lines().any(|l| l.starts_with(&a.to_string())),
            "{a}: {table}"
        );
    }
}

#[test]
fn bad_positions_games_and_specs_exit_2_naming_the_bad_value() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut args = PLAY.to_vec();
    args.extend(["--save-at", "2", "pos.json"]);
    ok(&args, dir);
    let good = std::fs::read_to_string(dir.join("pos.json")).unwrap();
    std::fs::write(dir.join("broken.json"), &good[..good.len() / 2]).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
    v["state"]["rep"][0] = 9.into();
    std::fs::write(dir.join("offtrack.json"), v.to_string()).unwrap();
    let analyze = |game: &'static str, file: &'static str, agent: &'static str| {
        vec!["analyze", "--game", game, "--state", file, "--agent", agent]
    };
    rejects(&analyze("chess", "pos.json", "mcts"), dir, &["'chess'"]);
    rejects(
        &analyze("daxu", "missing.json", "mcts"),
        dir,
        &["position file 'missing.json'", "cannot read"],
    );
    rejects(
        &analyze("daxu", "broken.json", "mcts"),
        dir,
        &["position file 'broken.json'", "not a valid position"],
    );
    rejects(
        &analyze("kuhn", "pos.json", "mcts"),
        dir,
        &["position file 'pos.json'", "game 'daxu', not 'kuhn'"],
    );
    rejects(
        &analyze("daxu", "offtrack.json", "mcts"),
        dir,
        &[
            "position file 'offtrack.json'",
            "invalid daxu state",
            "outside [-7, 7]",
        ],
    );
    rejects(
        &analyze("daxu", "pos.json", "mcts:iterations=5"),
        dir,
        &["'iterations'", "iters"],
    );
    rejects(
        &[
            "play", "--game", "kuhn", "--agents", "random", "--start", "pos.json",
        ],
        dir,
        &["position file 'pos.json'", "game 'daxu', not 'kuhn'"],
    );
    rejects(
        &[
            "play",
            "--game",
            "daxu",
            "--agents",
            "random",
            "--start",
            "pos.json",
            "--players",
            "2",
        ],
        dir,
        &["--players"],
    );
    rejects(
        &[
            "play",
            "--game",
            "daxu",
            "--agents",
            "random",
            "--save-at",
            "x",
            "a.json",
        ],
        dir,
        &["PLY 'x'"],
    );
    // A ply the game never reaches: the game is printed, then the error.
    let out = sim(
        &[
            "play",
            "--game",
            "kuhn",
            "--agents",
            "random",
            "--save-at",
            "9",
            "late.json",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("never reached ply 9"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("late.json").exists());
}

/// `--search-threads`: 1 is the agent alone (the same output as without the option); N
/// merges N searches (the visits add up to N times the budget, the same on a rerun); 0 is
/// refused with exit code 2; `sim play` takes it too and finishes the game.
#[test]
fn search_threads_merge_root_searches_in_analyze_and_play() {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = PLAY.to_vec();
    args.extend(["--save-at", "4", "pos.json"]);
    ok(&args, tmp.path());
    let analyze = |threads: Option<&'static str>| {
        let mut a = vec![
            "analyze",
            "--game",
            "daxu",
            "--state",
            "pos.json",
            "--agent",
            "mcts:iters=150",
            "--format",
            "csv",
        ];
        if let Some(t) = threads {
            a.extend(["--search-threads", t]);
        }
        ok(&a, tmp.path())
    };
    assert_eq!(analyze(None), analyze(Some("1")));
    let three = analyze(Some("3"));
    assert_eq!(three, analyze(Some("3")));
    let pos = Position::<daxu::State>::load(&tmp.path().join("pos.json")).unwrap();
    let seat = pos.state.turn().actors().iter().next().unwrap().to_string();
    let visits: u64 = three
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| r[0] == seat)
        .map(|r| r[3].parse::<u64>().unwrap())
        .sum();
    assert_eq!(visits, 450, "{three}");
    rejects(
        &[
            "analyze",
            "--game",
            "daxu",
            "--state",
            "pos.json",
            "--agent",
            "mcts",
            "--search-threads",
            "0",
        ],
        tmp.path(),
        &["--search-threads", "'0'"],
    );
    let out = ok(
        &[
            "play",
            "--game",
            "daxu",
            "--agents",
            "mcts:iters=40,cfr:iters=40",
            "--seed",
            "3",
            "--search-threads",
            "2",
        ],
        tmp.path(),
    );
    assert!(out.contains("rank 1, won"), "{out}");
}
