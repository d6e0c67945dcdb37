//! The `sim` binary: bad input exits with code 2 and a message naming the bad value and the
//! valid choices, and leaves no output presented as complete; good input writes every file.

use crate::common::{FILES, sim, text};
use std::path::Path;
use std::process::{Command, Output};

/// Runs a tournament that must fail with exit code 2, a message containing every `needle`,
/// and no output directory left behind.
fn rejects(extra: &[&str], needles: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = vec!["tournament", "--out", "res"];
    args.extend_from_slice(extra);
    let out = sim(&args, tmp.path());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks '{n}': {err}");
    }
    assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
    assert!(
        !tmp.path().join("res").exists(),
        "{args:?} created the output directory"
    );
}

#[test]
fn unknown_game_lists_the_games() {
    rejects(
        &["--game", "chess", "--agents", "random"],
        &["'chess'", "daxu"],
    );
}

#[test]
fn unknown_agent_lists_the_agents() {
    rejects(
        &["--game", "daxu", "--agents", "random,alphazero"],
        &["'alphazero'", "random", "greedy"],
    );
}

#[test]
fn unknown_agent_parameter_lists_the_parameters() {
    rejects(
        &["--game", "daxu", "--agents", "greedy:depth=3,random"],
        &["'depth'", "samples (default 4)"],
    );
    rejects(
        &["--game", "daxu", "--agents", "greedy:samples=many,random"],
        &["'many'", "samples", "integer"],
    );
}

#[test]
fn bad_game_counts_are_rejected() {
    rejects(
        &["--game", "daxu", "--agents", "random", "-n", "0"],
        &["'0'", "at least 1"],
    );
    rejects(
        &["--game", "daxu", "--agents", "random", "-n", "abc"],
        &["'abc'", "positive integer"],
    );
    rejects(
        &["--game", "daxu", "--agents", "random", "--threads", "0"],
        &["at least 1"],
    );
}

#[test]
fn bad_player_count_names_the_range() {
    rejects(
        &["--game", "daxu", "--agents", "random", "--players", "9"],
        &["daxu", "got 9"],
    );
}

#[test]
fn unknown_variant_key_lists_the_parameters() {
    rejects(
        &[
            "--game",
            "daxu",
            "--agents",
            "random",
            "--variant",
            "warp_speed=3",
        ],
        &["'warp_speed'", "game daxu", "valid parameters"],
    );
    rejects(
        &[
            "--game",
            "daxu",
            "--agents",
            "random",
            "--variant",
            "novalue",
        ],
        &["'novalue'", "key=value"],
    );
}

#[test]
fn bad_variant_value_names_the_expected_type() {
    let daxu = tabletop_sim::games::all()
        .into_iter()
        .find(|g| g.name == "daxu")
        .unwrap();
    // Every parameter type (int, float, bool, enum) rejects this value.
    for p in &daxu.params {
        let setting = format!("{}=??", p.name);
        rejects(
            &[
                "--game",
                "daxu",
                "--agents",
                "random",
                "--variant",
                &setting,
            ],
            &["'??'", p.name, "expected"],
        );
    }
}

#[test]
fn missing_agents_is_a_usage_error() {
    rejects(&["--game", "daxu"], &["--agents"]);
}

#[test]
fn unwritable_output_directory_exits_2_before_playing() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a-file"), "not a directory").unwrap();
    let out = sim(
        &[
            "tournament",
            "--game",
            "daxu",
            "--agents",
            "random",
            "-n",
            "10",
            "--out",
            "a-file/res",
        ],
        tmp.path(),
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot write") && err.contains("a-file/res"),
        "{err}"
    );
    assert!(!err.contains("played"), "{err}");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[test]
fn a_tournament_writes_every_file_and_prints_the_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sim(
        &[
            "tournament",
            "--game",
            "daxu",
            "--agents",
            "greedy,random",
            "-n",
            "101",
            "--seed",
            "3",
            "--threads",
            "2",
        ],
        tmp.path(),
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // The default output directory is out/<game>.
    let dir = tmp.path().join("out/daxu");
    for f in FILES {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let leftovers = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("partial".as_ref()))
        .count();
    assert_eq!(leftovers, 0);
    // 101 is not a multiple of 2 agents.
    assert!(
        stderr.contains("warning") && stderr.contains("multiple"),
        "{stderr}"
    );
    for needle in [
        "greedy:samples=4",
        "random",
        "95% CI",
        "Seats",
        "wrote out/daxu",
        "rerun: sim tournament --game daxu",
        "seed 3",
    ] {
        assert!(
            stdout.contains(needle),
            "stdout lacks '{needle}':\n{stdout}"
        );
    }
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert!(games.starts_with(
        "game,seed,variant,seat,agent,score,rank,won,draw,plies,rounds,end,give,take,\
             cooperate,undermine,over_dominance,reputation,shop_points,tiebreak_uses,points_tie\n"
    ));
    assert_eq!(games.lines().count(), 1 + 101 * 2);
    // Short labels per row; the specs beside them.
    for row in games.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f.len(), 21, "{row}");
        assert_eq!(f[2], "default", "{row}");
        assert!(f[4] == "greedy" || f[4] == "random", "{row}");
    }
    let agents = std::fs::read_to_string(dir.join("agents.csv")).unwrap();
    assert_eq!(
        agents,
        "agent,spec\ngreedy,greedy:samples=4\nrandom,random\n"
    );
    let variants = std::fs::read_to_string(dir.join("variants.csv")).unwrap();
    assert!(
        variants.starts_with("variant,parameter,value,default\ndefault,"),
        "{variants}"
    );
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 3);
}

#[test]
fn list_shows_games_agents_and_parameters() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sim(&["list"], tmp.path());
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    for needle in ["daxu", "players", "random", "greedy", "samples", "default"] {
        assert!(s.contains(needle), "list lacks '{needle}':\n{s}");
    }
}

#[test]
fn tournament_help_documents_the_seat_rotation() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sim(&["tournament", "--help"], tmp.path());
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    for needle in [
        "every ordered pair of distinct seats",
        "Wilson",
        "games.csv",
        "--threads",
        "--variant",
    ] {
        assert!(s.contains(needle), "help lacks '{needle}'");
    }
}

#[test]
fn play_prints_a_reproducible_game() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "--game",
        "daxu",
        "--agents",
        "greedy,random",
        "--seed",
        "1",
        "--index",
        "2",
    ];
    let a = sim(&args, tmp.path());
    let b = sim(&args, tmp.path());
    assert_eq!(a.status.code(), Some(0), "{}", text(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let s = text(&a.stdout);
    assert!(
        // The preset (greedy with Daxu's defaults) is named by its kind alone.
        s.contains("seat 0: greedy\n") && s.contains("end: "),
        "{s}"
    );
    let bad = sim(
        &["play", "--game", "daxu", "--agents", "nobody"],
        tmp.path(),
    );
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn greedy_with_zero_samples_is_bad_input() {
    rejects(
        &["--game", "daxu", "--agents", "greedy:samples=0,random"],
        &["samples", "'0'", ">= 1"],
    );
}

/// Spawns `sim` with stdout a pipe whose reading end is closed at once, as `| head -1`
/// does after its line. `args` must print more than a pipe buffer (64 KiB) so that the
/// closed pipe is hit whatever the timing.
fn with_stdout_closed(args: &[&str], cwd: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(cwd)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the sim binary runs");
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_is_not_a_failure() {
    let tmp = tempfile::tempdir().unwrap();
    // About 1 MB of curve lines: far more than a pipe buffer.
    let out = with_stdout_closed(
        &[
            "solve", "--game", "kuhn", "--iters", "20000", "--every", "1", "--out", "res",
        ],
        tmp.path(),
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // The files are still written: stdout is only the report.
    for f in ["strategy.csv", "curve.csv"] {
        assert!(tmp.path().join("res").join(f).is_file(), "{f} missing");
    }
    let out = with_stdout_closed(&["list"], tmp.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = with_stdout_closed(
        &["play", "--game", "daxu", "--agents", "greedy,random"],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = with_stdout_closed(
        &[
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "random",
            "-n",
            "10",
            "--out",
            "t",
        ],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(tmp.path().join("t/config.toml").is_file());
}

#[test]
fn help_and_description_name_only_registered_games() {
    let tmp = tempfile::tempdir().unwrap();
    let registered = |g: &str| {
        tabletop_sim::games::NAMES
            .iter()
            .any(|n| g.to_lowercase().replace('.', "").contains(n))
    };
    for args in [&["--help"][..], &["tournament", "--help"]] {
        let out = sim(args, tmp.path());
        assert_eq!(out.status.code(), Some(0));
        let s = text(&out.stdout);
        for g in tabletop_sim::games::NAMES {
            assert!(s.contains(g), "{args:?} help lacks '{g}':\n{s}");
        }
        for g in ["Dunhuang", "Q.A.X", "Daimyo"] {
            assert!(
                registered(g) || !s.contains(g),
                "{args:?} help advertises '{g}', which `sim list` does not offer:\n{s}"
            );
        }
    }
    let desc = env!("CARGO_PKG_DESCRIPTION");
    for g in ["Dunhuang", "Q.A.X", "Daimyo"] {
        assert!(registered(g) || !desc.contains(g), "{desc}");
    }
}

#[test]
fn a_time_budget_is_reported_as_not_reproducible() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sim(
        &[
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "mcts:iters=10,time_ms=1,random",
            "-n",
            "4",
            "--out",
            "res",
        ],
        tmp.path(),
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("not reproducible") && err.contains("time_ms"),
        "{err}"
    );
    let config = std::fs::read_to_string(tmp.path().join("res/config.toml")).unwrap();
    assert!(config.contains("reproducible = false"), "{config}");
    assert!(config.contains("time_ms"), "{config}");
    // Without a time budget the run says it is reproducible.
    let out = sim(
        &[
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "mcts:iters=10,random",
            "-n",
            "4",
            "--out",
            "res2",
        ],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(!text(&out.stderr).contains("not reproducible"));
    let config = std::fs::read_to_string(tmp.path().join("res2/config.toml")).unwrap();
    assert!(config.contains("reproducible = true"), "{config}");
}

#[test]
fn dunhuang_tournament_with_a_variant_groups_characters_in_labels() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "tournament",
        "--game",
        "dunhuang",
        "-p",
        "3",
        "--agents",
        "random",
        "--variant",
        "max_camel_steps=3",
        "-n",
        "6",
        "--seed",
        "1",
        "--out",
        "res",
    ];
    let out = sim(&args, tmp.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let dir = tmp.path().join("res");
    for f in FILES.iter().chain(&["labels.csv"]) {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 6 * 3);
    let variants = std::fs::read_to_string(dir.join("variants.csv")).unwrap();
    assert!(variants.contains("max_camel_steps,3,7"), "{variants}");
    // One group per character in play (set label) and per power used (flag metric).
    let labels = std::fs::read_to_string(dir.join("labels.csv")).unwrap();
    let groups = |column: &str| {
        labels
            .lines()
            .filter(|l| l.starts_with(&format!("{column},")) && l.contains(",all,"))
            .count()
    };
    assert!((8..=16).contains(&groups("characters")), "{labels}");
    assert!(groups("characters_used") >= 1, "{labels}");
    let ends = std::fs::read_to_string(dir.join("ends.csv")).unwrap();
    assert!(ends.contains("instant_win") || ends.contains("pile_exhausted"));
}

#[test]
fn dunhuang_bad_character_name_exits_2_naming_it() {
    rejects(
        &[
            "--game",
            "dunhuang",
            "--agents",
            "random",
            "--variant",
            "characters=Painter,Princess,Interpreter,Soldier,Trader,Maid,Juggler,Manichean",
        ],
        &["characters", "'Juggler'", "Shepherd|Farmer"],
    );
}
