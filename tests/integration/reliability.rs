//! Reliability of the runner's outputs (issue 12): runs killed mid-way (SIGINT, SIGKILL)
//! and resumed give byte-identical files; an output directory belongs to one run; a
//! panicking agent's games are isolated and replayable; bad input exits 2 naming the value.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{sim, text};

/// Every file of a directory (recursively, by relative path) except the manifests, which
/// record the writing process's pid.
pub(crate) fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.file_name().unwrap() != "manifest.json" {
                let rel = p.strip_prefix(root).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, dir, &mut v);
    v.sort();
    v
}

/// Asserts equal snapshots, naming the files that differ.
pub(crate) fn assert_same(got: &[(String, Vec<u8>)], want: &[(String, Vec<u8>)], what: &str) {
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(got), names(want), "{what}: file names");
    let differ: Vec<&String> = got
        .iter()
        .zip(want)
        .filter(|(a, b)| a.1 != b.1)
        .map(|(a, _)| &a.0)
        .collect();
    assert!(differ.is_empty(), "{what}: files differ: {differ:?}");
}

pub(crate) fn spawn(args: &[&str], cwd: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sim starts")
}

/// Waits (up to 60 s) until `path` exists.
pub(crate) fn wait_for(path: &Path) {
    let t = Instant::now();
    while !path.exists() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub(crate) fn manifest_state(dir: &Path) -> String {
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    m["state"].as_str().unwrap().to_string()
}

/// Sends SIGINT (via `kill`, as a terminal's Ctrl-C would) or SIGKILL to `child` and
/// returns its exit status and stderr.
pub(crate) fn stop(mut child: Child, sigkill: bool) -> (Option<i32>, String) {
    if sigkill {
        child.kill().unwrap();
    } else {
        let ok = Command::new("kill")
            .args(["-s", "INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code(), text(&out.stderr))
}

const TOURNAMENT: &[&str] = &[
    "tournament",
    "--game",
    "daxu",
    "--agents",
    "greedy:samples=1,random",
    "-n",
    "3000",
    "--seed",
    "11",
    "--threads",
    "2",
];

#[test]
fn a_tournament_killed_by_sigint_or_sigkill_resumes_to_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let mut args = TOURNAMENT.to_vec();
    args.extend(["--out", d]);
    let o = sim(&args, tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want = snapshot(&dir);
    assert!(want.iter().any(|f| f.0 == "checkpoint.json") && want.len() >= 12);
    std::fs::remove_dir_all(&dir).unwrap();

    for sigkill in [false, true] {
        let what = if sigkill { "SIGKILL" } else { "SIGINT" };
        let mut slow = args.clone();
        slow.extend(["--checkpoint-every", "1", "--throttle-ms", "20"]);
        let child = spawn(&slow, tmp.path());
        wait_for(&dir.join("checkpoint.json"));
        let (code, err) = stop(child, sigkill);
        // Nothing looks complete: no final summary, partial rows, the manifest says so.
        assert!(!dir.join("summary.csv").exists() && !dir.join("config.toml").exists());
        assert!(dir.join("games.csv.partial").exists(), "{what}");
        if sigkill {
            assert_eq!(code, None, "{what}: killed by the signal");
            assert_eq!(manifest_state(&dir), "running");
        } else {
            assert_eq!(code, Some(130), "{what}: {err}");
            assert!(
                err.contains(&format!("resume with: sim tournament --resume {d}")),
                "{what}: {err}"
            );
            assert_eq!(manifest_state(&dir), "interrupted");
        }
        // A fresh run of the same command points at --resume instead of starting over.
        let o = sim(&args, tmp.path());
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        assert!(text(&o.stderr).contains("--resume"), "{}", text(&o.stderr));
        let o = sim(&["tournament", "--resume", d], tmp.path());
        assert!(o.status.success(), "{what}: {}", text(&o.stderr));
        // It continued from its checkpoint rather than starting over.
        let resumed = text(&o.stderr);
        let at: u64 = resumed
            .split("resumed at game ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{what}: {resumed}"));
        assert!(at > 0 && at < 3000 && at % 32 == 0, "{what}: {resumed}");
        assert_eq!(manifest_state(&dir), "complete");
        assert_same(&snapshot(&dir), &want, what);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_resume_with_another_configuration_is_refused_naming_the_field() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let mut args = TOURNAMENT.to_vec();
    args.extend(["--out", d, "--checkpoint-every", "1", "--throttle-ms", "20"]);
    let child = spawn(&args, tmp.path());
    wait_for(&dir.join("checkpoint.json"));
    let (code, _) = stop(child, false);
    assert_eq!(code, Some(130));
    let o = sim(
        &[
            "tournament",
            "--resume",
            d,
            "--game",
            "daxu",
            "--agents",
            "greedy:samples=1,random",
            "-n",
            "3000",
            "--seed",
            "12",
        ],
        tmp.path(),
    );
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("--seed: 11 in the directory, 12 given"), "{e}");
    for (bad, needle) in [
        (tmp.path().join("nowhere"), "no such directory"),
        (tmp.path().to_path_buf(), "no manifest.json"),
    ] {
        let o = sim(
            &["tournament", "--resume", bad.to_str().unwrap()],
            tmp.path(),
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(text(&o.stderr).contains(needle), "{}", text(&o.stderr));
    }
}

#[test]
fn a_directory_belongs_to_one_run_and_overwrite_replaces_what_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("shared");
    let d = dir.to_str().unwrap();
    let t = |seed: &str, extra: &[&str]| {
        let mut a = vec![
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "random",
            "-n",
            "40",
            "--seed",
            seed,
            "--out",
            d,
        ];
        a.extend(extra);
        sim(&a, tmp.path())
    };
    assert!(t("1", &[]).status.success());
    // The same run again: allowed (same files).
    assert!(t("1", &[]).status.success());
    // Another configuration, another command: refused, naming the files.
    let o = t("2", &[]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("games.csv")
            && e.contains("seed: 1 in the directory, 2 now")
            && e.contains("--overwrite"),
        "{e}"
    );
    let solve = |extra: &[&str]| {
        let mut a = vec![
            "solve", "--game", "kuhn", "--iters", "20", "--every", "10", "--out", d,
        ];
        a.extend(extra);
        sim(&a, tmp.path())
    };
    let o = solve(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("a tournament run"),
        "{}",
        text(&o.stderr)
    );
    // With --overwrite the solve replaces what it writes and keeps, listed in the
    // manifest's `kept`, the tournament's files it does not write again (issue 26).
    let o = solve(&["--overwrite"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["kind"], "solve");
    assert_eq!(m["files"], serde_json::json!(["curve.csv", "strategy.csv"]));
    let kept = m["kept"].as_array().unwrap();
    assert!(kept.contains(&"games.csv".into()) && kept.contains(&"config.toml".into()));
    assert!(dir.join("games.csv").exists() && dir.join("strategy.csv").exists());
    // A file no sim run wrote is never removed, even with --overwrite.
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let o = t("1", &["--overwrite"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("notes.txt"), "{}", text(&o.stderr));
    assert!(dir.join("notes.txt").exists() && dir.join("strategy.csv").exists());
}

#[test]
fn a_panicking_agent_fails_only_its_games_which_replay_to_the_same_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    let d = dir.to_str().unwrap();
    let args = [
        "tournament",
        "--game",
        "daxu",
        "--agents",
        "panic:ply=3,share=0.25,random",
        "-n",
        "64",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        d,
        "--allow-failures",
    ];
    let o = sim(&args, tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let errors = std::fs::read_to_string(dir.join("errors.csv")).unwrap();
    let rows: Vec<&str> = errors.lines().skip(1).collect();
    assert!(!rows.is_empty() && rows.len() < 40, "{errors}");
    let summary = text(&o.stdout);
    assert!(
        summary.contains(&format!(
            "{} of 64 games failed and are excluded",
            rows.len()
        )),
        "{summary}"
    );
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 2 * (64 - rows.len()));
    let stats = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let played = (64 - rows.len()).to_string();
    assert!(
        stats.lines().nth(1).unwrap().split(',').nth(1) == Some(played.as_str()),
        "{stats}"
    );
    // The first failure: its row names the game, and its replay command panics the same way.
    let mut r = csv::Reader::from_reader(errors.as_bytes());
    let rec = r.records().next().unwrap().unwrap();
    let game: u64 = rec[0].parse().unwrap();
    assert!(!games.lines().any(|l| l.starts_with(&format!("{game},"))));
    assert!(rec[5].contains("panics on purpose at ply 3"), "{:?}", rec);
    let replay = &rec[6];
    assert!(
        replay.starts_with("sim play --game daxu") && replay.ends_with(&format!("--index {game}"))
    );
    let words: Vec<&str> = replay.split(' ').skip(1).collect();
    let o = sim(&words, tmp.path());
    // `sim play` reports an agent's panic as a failure while running (exit 1), naming the ply.
    assert_eq!(o.status.code(), Some(1), "the replay panics too");
    assert!(
        text(&o.stderr).contains("panics on purpose at ply 3"),
        "{}",
        text(&o.stderr)
    );
    // --fail-fast stops at that game instead.
    let mut ff = args.to_vec();
    ff.extend(["--fail-fast", "--overwrite"]);
    let o = sim(&ff, tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains(&format!("game {game}: panic")),
        "{}",
        text(&o.stderr)
    );
    // The failed rerun put back the complete run it was to replace.
    assert!(dir.join("summary.csv").exists());
    assert_eq!(manifest_state(&dir), "complete");
}

#[test]
fn bad_input_exits_2_naming_the_value() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "tournament",
                "--game",
                "kuhn",
                "--agents",
                "random",
                "-n",
                "-5",
            ],
            "'-5'",
        ),
        (
            &[
                "tournament",
                "--game",
                "kuhn",
                "--agents",
                "random",
                "--seed",
                "-1",
            ],
            "'-1' is not a seed",
        ),
        (
            &[
                "tournament",
                "--game",
                "kuhn",
                "--agents",
                "random",
                "--threads",
                "-2",
            ],
            "'-2'",
        ),
        (
            &[
                "tournament",
                "--game",
                "kuhn",
                "--agents",
                "random",
                "-n",
                "1e3",
            ],
            "'1e3'",
        ),
        (
            &["solve", "--game", "kuhn", "--seed", "-3"],
            "'-3' is not a seed",
        ),
        (
            &["tournament", "--game", "kuhn", "--agents", "nosuchpreset"],
            "nosuchpreset",
        ),
        (&["experiment", "no-such-spec.toml"], "no-such-spec.toml"),
    ];
    for (args, needle) in cases {
        let o = sim(args, tmp.path());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(needle), "{args:?}: {e}");
        assert!(!e.contains("unexpected argument"), "{args:?}: {e}");
    }
    // A ladder spec that is not a spec.
    let spec: PathBuf = tmp.path().join("bad.toml");
    std::fs::write(&spec, "name = \"x\"\nkind = \"ladder\"\ngame = \"race\"\nagents = [\"random\", \"greedy\"]\ngames = -4\nseed = 1\nout = \"o\"\n").unwrap();
    let o = sim(&["experiment", spec.to_str().unwrap()], tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("games"), "{}", text(&o.stderr));
}

#[test]
fn a_ladder_killed_mid_pair_resumes_pair_by_pair_to_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ladder");
    let spec = tmp.path().join("ladder.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"l\"\nkind = \"ladder\"\ngame = \"kuhn\"\nagents = [\"random\", \
             \"greedy\", \"greedy:samples=2\"]\ngames = 640\nseed = 3\nout = \"{}\"\n",
            out.display()
        ),
    )
    .unwrap();
    let s = spec.to_str().unwrap();
    let o = sim(&["experiment", s, "--threads", "1"], tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want = snapshot(&out);
    assert!(
        want.iter().any(|f| f.0 == "ladder.csv")
            && want.iter().any(|f| f.0 == "pairs/1-2/games.csv")
    );
    std::fs::remove_dir_all(&out).unwrap();
    for sigkill in [false, true] {
        let what = if sigkill { "SIGKILL" } else { "SIGINT" };
        let child = spawn(
            &[
                "experiment",
                s,
                "--threads",
                "1",
                "--checkpoint-every",
                "1",
                "--throttle-ms",
                "20",
            ],
            tmp.path(),
        );
        // Stopped inside the second pair: the first is complete, the second partial.
        wait_for(&out.join("pairs/0-2/checkpoint.json"));
        let (code, err) = stop(child, sigkill);
        assert!(!out.join("ladder.csv").exists() && !out.join("experiment.toml").exists());
        assert_eq!(manifest_state(&out.join("pairs/0-1")), "complete");
        if sigkill {
            assert_eq!(code, None);
            assert_eq!(manifest_state(&out), "running");
        } else {
            assert_eq!(code, Some(130), "{err}");
            assert!(err.contains("sim experiment --resume"), "{err}");
            assert_eq!(manifest_state(&out), "interrupted");
            assert_eq!(manifest_state(&out.join("pairs/0-2")), "interrupted");
        }
        let first_pair = out.join("pairs/0-1/summary.csv");
        let written = std::fs::metadata(&first_pair).unwrap().modified().unwrap();
        let o = sim(
            &[
                "experiment",
                "--resume",
                out.to_str().unwrap(),
                "--threads",
                "2",
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{what}: {}", text(&o.stderr));
        // The finished pair was read back, not played again.
        let now = std::fs::metadata(&first_pair).unwrap().modified().unwrap();
        assert_eq!(now, written, "{what}");
        assert_same(&snapshot(&out), &want, what);
        std::fs::remove_dir_all(&out).unwrap();
    }
}
