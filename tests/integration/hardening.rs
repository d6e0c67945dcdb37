//! Results that cannot be silently wrong (issue 26): a resume that refuses a changed run,
//! a lock on the output directory, a failed run that says so, bounds on the options, a
//! commit protocol that is consistent after a kill at any step, checksums over rows and
//! tallies. Each test reproduces one failure of the adversarial trial.

use std::path::{Path, PathBuf};

use crate::common::{sim, text};
use crate::reliability::{manifest_state, spawn, stop, wait_for};

/// An interrupted (SIGINT) tournament in `dir`: Daxu, greedy against random, 3000 games,
/// seed 3, stopped after its first checkpoint.
fn interrupted_tournament(cwd: &Path, dir: &Path) {
    let child = spawn(
        &[
            "tournament",
            "--game",
            "daxu",
            "--agents",
            "greedy:samples=1,random",
            "-n",
            "3000",
            "--seed",
            "3",
            "--threads",
            "1",
            "--out",
            dir.to_str().unwrap(),
            "--checkpoint-every",
            "1",
            "--throttle-ms",
            "20",
        ],
        cwd,
    );
    wait_for(&dir.join("checkpoint.json"));
    let (code, err) = stop(child, false);
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(manifest_state(dir), "interrupted");
}

#[test]
fn a_resume_refuses_every_changed_option_naming_it_and_both_values() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    interrupted_tournament(tmp.path(), &dir);
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--seed", "4", "-n", "30000", "--agents", "random"],
            &[
                "--seed: 3 in the directory, 4 given",
                "-n: 3000 in the directory, 30000 given",
                "--agents: greedy:",
                "random given",
            ],
        ),
        (
            &["--variant", "reputation_points=table_b"],
            &[
                "--variant: reputation_points=identity in the directory, reputation_points=table_b given",
            ],
        ),
        (&["--paired"], &["--paired: off in the directory, on given"]),
        (
            &["--decisiveness"],
            &["--decisiveness: off in the directory, on given"],
        ),
        (
            &["--shard", "1/2"],
            &["--shard: no shard in the directory, 1/2 given"],
        ),
        (
            &["--games-file", "gz"],
            &["--games-file: csv in the directory, gz given"],
        ),
        (
            &["--game", "qax"],
            &["--game: daxu in the directory, qax given"],
        ),
        (
            &["--until-significant"],
            &["--until-significant: off in the directory, '' given"],
        ),
    ];
    for (extra, needles) in cases {
        let mut args = vec!["tournament", "--resume", d];
        args.extend_from_slice(extra);
        let o = sim(&args, tmp.path());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {e}");
        for n in *needles {
            assert!(e.contains(n), "{extra:?}: {n:?} not in {e}");
        }
        assert_eq!(manifest_state(&dir), "interrupted", "{extra:?}: untouched");
    }
    // The same options as the run's (spelled as given, or canonical) and another
    // --threads are accepted.
    let o = sim(
        &[
            "tournament",
            "--resume",
            d,
            "--game",
            "daxu",
            "--agents",
            "greedy:samples=1,random",
            "--seed",
            "3",
            "-n",
            "3000",
            "--threads",
            "2",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("resumed at game"));
    assert_eq!(manifest_state(&dir), "complete");
    let summary = std::fs::read(dir.join("summary.csv")).unwrap();

    // Resuming the complete run says so, plays nothing and exits 0.
    let o = sim(&["tournament", "--resume", d], tmp.path());
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("already complete: nothing to resume"), "{e}");
    assert!(!e.contains("played") || e.contains("no game played"), "{e}");
    assert!(!e.contains("on 0 threads"), "{e}");
    assert_eq!(std::fs::read(dir.join("summary.csv")).unwrap(), summary);
    // A changed option is refused against a complete run too.
    let o = sim(&["tournament", "--resume", d, "--seed", "9"], tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

#[test]
fn resuming_a_complete_experiment_says_so_and_exits_0() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ladder");
    let spec = tmp.path().join("ladder.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"l\"\nkind = \"ladder\"\ngame = \"kuhn\"\nagents = [\"random\", \
             \"greedy\"]\ngames = 64\nseed = 3\nout = \"{}\"\n",
            out.display()
        ),
    )
    .unwrap();
    let o = sim(&["experiment", spec.to_str().unwrap()], tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = sim(
        &[
            "experiment",
            "--resume",
            out.to_str().unwrap(),
            "--threads",
            "1",
        ],
        tmp.path(),
    );
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("already complete: nothing to resume"), "{e}");
    assert_eq!(manifest_state(&out), "complete");
}

/// A slow Kuhn tournament into `dir` (20 ms after each of its 40 blocks).
fn slow_kuhn(dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "tournament",
        "--game",
        "kuhn",
        "--agents",
        "random,greedy",
        "-n",
        "1280",
        "--seed",
        "1",
        "--threads",
        "1",
        "--throttle-ms",
        "20",
        "--checkpoint-every",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

#[test]
fn two_concurrent_runs_into_one_directory_exactly_one_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let args = slow_kuhn(&dir, &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Started together: one runs, the other is refused at once.
    let a = spawn(&args, tmp.path());
    let b = spawn(&args, tmp.path());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let mut codes = [a.status.code(), b.status.code()];
    codes.sort();
    assert_eq!(
        codes,
        [Some(0), Some(2)],
        "{} / {}",
        text(&a.stderr),
        text(&b.stderr)
    );
    let refused = if a.status.code() == Some(2) { &a } else { &b };
    let e = text(&refused.stderr);
    assert!(e.contains("is in use by another sim run (pid "), "{e}");
    assert_eq!(manifest_state(&dir), "complete");
    assert!(
        !dir.join(".sim.lock").exists(),
        "the lock file goes with its run"
    );

    // A live run refuses an overwrite, a resume and another configuration, naming its pid
    // and start time, and none of them touches its files.
    std::fs::remove_dir_all(&dir).unwrap();
    let live = spawn(&args, tmp.path());
    let pid = live.id();
    wait_for(&dir.join("checkpoint.json"));
    let d = dir.to_str().unwrap();
    let other = slow_kuhn(&dir, &["--overwrite", "--games-file", "gz"]);
    let other: Vec<&str> = other.iter().map(String::as_str).collect();
    for attempt in [
        other.as_slice(),
        &["tournament", "--resume", d][..],
        &args[..],
    ] {
        let t = std::time::Instant::now();
        let o = sim(attempt, tmp.path());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{attempt:?}: {e}");
        assert!(
            e.contains(&format!("in use by another sim run (pid {pid}, started "))
                && e.contains(" UTC)"),
            "{attempt:?}: {e}"
        );
        assert!(t.elapsed() < std::time::Duration::from_secs(5), "at once");
    }
    // Killed, its lock is stale: a resume takes it over and finishes the run.
    let (code, _) = stop(live, true);
    assert_eq!(code, None);
    assert!(
        dir.join(".sim.lock").exists(),
        "a killed run leaves its lock file"
    );
    let o = sim(&["tournament", "--resume", d], tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(manifest_state(&dir), "complete");
    assert!(!dir.join(".sim.lock").exists());
}

#[test]
fn a_run_whose_games_failed_says_so_last_and_exits_1() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    let d = dir.to_str().unwrap();
    // Every game fails: no verdict over 0 games, the failure is the last line, exit 1.
    let all = [
        "tournament",
        "--game",
        "daxu",
        "--agents",
        "panic:ply=1",
        "-n",
        "10",
        "--seed",
        "1",
        "--threads",
        "1",
        "--out",
        d,
    ];
    let o = sim(&all, tmp.path());
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        !out.contains("of 0 games") && !out.contains("p = "),
        "{out}"
    );
    assert!(out.contains("none: no game finished"), "{out}");
    let last = out.lines().rev().find(|l| !l.is_empty()).unwrap();
    assert!(
        last.starts_with("FAILED GAMES: 10 of 10 games failed"),
        "{out}"
    );
    assert!(err.contains("--allow-failures"), "{err}");
    assert_eq!(manifest_state(&dir), "complete", "the files are written");
    // Some games fail: the line stands under the verdicts and last; accepted with
    // --allow-failures, or with a share above the share that failed, not below it.
    let some = [
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
        "1",
        "--out",
        d,
        "--overwrite",
    ];
    let o = sim(&some, tmp.path());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let mut lines = out.lines();
    assert!(lines.any(|l| l == "Verdicts"));
    assert!(lines.next().unwrap().starts_with("FAILED GAMES: "), "{out}");
    let last = out.lines().rev().find(|l| !l.is_empty()).unwrap();
    assert!(last.starts_with("FAILED GAMES: "), "{out}");
    for (allow, code) in [
        ("--allow-failures", 0),
        ("--allow-failures=0.5", 0),
        ("--allow-failures=0.001", 1),
    ] {
        let mut args = some.to_vec();
        args.push(allow);
        let o = sim(&args, tmp.path());
        assert_eq!(o.status.code(), Some(code), "{allow}: {}", text(&o.stderr));
    }
}

#[test]
fn unbounded_or_repeated_options_and_an_empty_out_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let base = ["tournament", "-n", "10", "--out", "o"];
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "--game",
                "kuhn",
                "--agents",
                "random",
                "--threads",
                "100000",
            ],
            "at most 512 worker threads, got 100000",
        ),
        (
            &["--game", "kuhn", "--agents", "greedy:samples=4,samples=5"],
            "samples given more than once",
        ),
        (
            &[
                "--game",
                "goofspiel",
                "--agents",
                "random",
                "--variant",
                "num_cards=4",
                "--variant",
                "num_cards=5",
            ],
            "--variant: num_cards given more than once",
        ),
    ];
    for (extra, needle) in cases {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let t = std::time::Instant::now();
        let o = sim(&args, tmp.path());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {e}");
        assert!(e.contains(needle), "{extra:?}: {e}");
        assert!(t.elapsed() < std::time::Duration::from_secs(10));
    }
    assert!(!tmp.path().join("o").exists(), "nothing written");
    let o = sim(
        &[
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "random",
            "--out",
            "",
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--out"), "{}", text(&o.stderr));
    let spec = tmp.path().join("s.toml");
    std::fs::write(
        &spec,
        "name = \"x\"\nkind = \"tournament\"\ngame = \"kuhn\"\nagents = [\"random\"]\ngames = 10\nseed = 1\nout = \"\"\n",
    )
    .unwrap();
    let o = sim(&["experiment", spec.to_str().unwrap()], tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("'out' is empty"),
        "{}",
        text(&o.stderr)
    );
    let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(
        names.len(),
        1,
        "only the spec: nothing written into the working directory"
    );
}

/// Every file under `dir` by relative path, except the manifests (they record the pid)
/// and names starting with `.` (the lock file of a killed run, temporary files).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    crate::reliability::snapshot(dir)
        .into_iter()
        .filter(|(name, _)| !name.split('/').any(|part| part.starts_with('.')))
        .collect()
}

/// Runs `sim args` (which write `dir`) killed at file-system step 1, 2, ... (the debug
/// build's `SIM_KILL_AT_STEP` hook) until a run gets past its last step, and checks what
/// each kill leaves: no manifest and no file of a run (the state before it started), or a
/// directory that `resume` finishes, or one that is complete and that `resume` recognises
/// as complete; each finished directory byte-identical to an uninterrupted run. Returns
/// the number of steps.
fn kill_at_every_step(cwd: &Path, args: &[&str], dir: &Path, resume: &[&str]) -> u64 {
    let o = sim(args, cwd);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want = files(dir);
    std::fs::remove_dir_all(dir).unwrap();
    for k in 1u64.. {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(args)
            .current_dir(cwd)
            .env("SIM_KILL_AT_STEP", k.to_string())
            .output()
            .unwrap();
        let err = text(&o.stderr);
        if o.status.success() {
            assert!(!err.contains("SIM_KILL_AT_STEP"), "{err}");
            assert_eq!(files(dir), want, "past the last step");
            std::fs::remove_dir_all(dir).unwrap();
            return k - 1;
        }
        assert_eq!(o.status.code(), None, "step {k}: killed, not failed: {err}");
        let at = err
            .lines()
            .find(|l| l.contains("SIM_KILL_AT_STEP"))
            .unwrap_or("?");
        let what = format!("step {k} ({at})");
        if dir.join("manifest.json").exists() {
            let state = manifest_state(dir);
            assert!(state == "running" || state == "complete", "{what}: {state}");
            let o = sim(resume, cwd);
            let e = text(&o.stderr);
            assert!(o.status.success(), "{what}: resume failed: {e}");
            if state == "complete" {
                assert!(e.contains("already complete"), "{what}: {e}");
            }
        } else {
            let left: Vec<String> = files(dir).into_iter().map(|f| f.0).collect();
            assert!(left.is_empty(), "{what}: no manifest, yet {left:?}");
            let o = sim(args, cwd);
            assert!(
                o.status.success(),
                "{what}: a fresh run: {}",
                text(&o.stderr)
            );
        }
        assert_eq!(manifest_state(dir), "complete", "{what}");
        let got = files(dir);
        let names = |v: &[(String, Vec<u8>)]| v.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(&got), names(&want), "{what}");
        for (g, w) in got.iter().zip(&want) {
            assert!(g.1 == w.1, "{what}: {} differs", g.0);
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
    unreachable!()
}

#[test]
fn a_tournament_and_a_shard_killed_at_every_file_system_step_resume_or_are_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let base = [
        "tournament",
        "--game",
        "kuhn",
        "--agents",
        "random,greedy",
        "-n",
        "64",
        "--seed",
        "2",
        "--threads",
        "1",
        "--checkpoint-every",
        "1",
        "--out",
        d,
    ];
    let steps = kill_at_every_step(tmp.path(), &base, &dir, &["tournament", "--resume", d]);
    assert!(steps >= 30, "{steps} steps");
    let mut shard = base.to_vec();
    shard.extend(["-n", "128", "--shard", "1/2"]);
    shard.retain(|a| *a != "64");
    let pos = shard.iter().position(|a| *a == "-n").unwrap();
    shard.remove(pos);
    let steps = kill_at_every_step(tmp.path(), &shard, &dir, &["tournament", "--resume", d]);
    assert!(steps >= 30, "{steps} steps");
}

#[test]
fn an_experiment_sweep_killed_at_every_file_system_step_resumes_or_is_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("sweep");
    let spec = tmp.path().join("sweep.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"s\"\nkind = \"tournament\"\ngame = \"goofspiel\"\nagents = \
             [\"random\"]\ngames = 32\nseed = 3\nout = \"{}\"\n[sweep]\nnum_cards = [3, 4]\n",
            out.display()
        ),
    )
    .unwrap();
    let steps = kill_at_every_step(
        tmp.path(),
        &[
            "experiment",
            spec.to_str().unwrap(),
            "--threads",
            "1",
            "--checkpoint-every",
            "1",
        ],
        &out,
        &["experiment", "--resume", out.to_str().unwrap()],
    );
    assert!(steps >= 40, "{steps} steps");
}

/// An edit of a copied shard, by what it does.
type Edit<'a> = (&'a str, Box<dyn Fn() + 'a>);

/// Replaces the byte at `at` of `path` with another byte of the same class (a digit by
/// another digit, anything else by `x`), keeping the length.
fn edit_byte(path: &Path, at: usize) {
    let mut b = std::fs::read(path).unwrap();
    b[at] = if b[at].is_ascii_digit() {
        b'0' + (b[at] - b'0' + 1) % 10
    } else if b[at] == b'x' {
        b'y'
    } else {
        b'x'
    };
    std::fs::write(path, b).unwrap();
}

#[test]
fn edited_rows_and_tallies_are_refused_by_merge_verify_and_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let base = [
        "tournament",
        "--game",
        "kuhn",
        "--agents",
        "random,greedy",
        "-n",
        "256",
        "--seed",
        "4",
        "--threads",
        "1",
    ];
    let (s0, s1) = (tmp.path().join("s0"), tmp.path().join("s1"));
    for (i, d) in [&s0, &s1].iter().enumerate() {
        let mut a = base.to_vec();
        let shard = format!("{i}/2");
        a.extend(["--out", d.to_str().unwrap(), "--shard", &shard]);
        let o = sim(&a, tmp.path());
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let merged = tmp.path().join("m");
    let m = merged.to_str().unwrap();
    let merge = |a: &Path, b: &Path| {
        let _ = std::fs::remove_dir_all(&merged);
        sim(
            &[
                "merge",
                a.to_str().unwrap(),
                b.to_str().unwrap(),
                "--out",
                m,
            ],
            tmp.path(),
        )
    };
    let o = merge(&s0, &s1);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want = files(&merged);
    let o = sim(
        &["verify", s0.to_str().unwrap(), s1.to_str().unwrap(), m],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));

    // The edits: a digit of a row, wins + 1, next_game + 32, a cut games_bytes.
    let copy = tmp.path().join("c");
    let fresh = || {
        let _ = std::fs::remove_dir_all(&copy);
        std::fs::create_dir(&copy).unwrap();
        for e in std::fs::read_dir(&s1).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
        }
    };
    let cp = copy.join("checkpoint.json");
    let edits: Vec<Edit<'_>> = vec![
        (
            "a digit of a row",
            Box::new(|| edit_byte(&copy.join("games.csv"), 200)),
        ),
        (
            "wins + 1",
            Box::new(|| {
                let t = std::fs::read_to_string(&cp).unwrap();
                std::fs::write(&cp, t.replacen("\"wins\":", "\"wins\":1", 1)).unwrap();
            }),
        ),
        (
            "next_game + 32",
            Box::new(|| {
                let t = std::fs::read_to_string(&cp).unwrap();
                std::fs::write(&cp, t.replace("\"next_game\":256", "\"next_game\":288")).unwrap();
            }),
        ),
        (
            "a cut games_bytes",
            Box::new(|| {
                let t = std::fs::read_to_string(&cp).unwrap();
                let at = t.find("\"games_bytes\":").unwrap() + 14;
                let mut b = t.into_bytes();
                b[at] = if b[at] == b'1' { b'2' } else { b'1' };
                std::fs::write(&cp, b).unwrap();
            }),
        ),
    ];
    for (what, edit) in &edits {
        fresh();
        edit();
        for o in [
            merge(&s0, &copy),
            sim(&["verify", copy.to_str().unwrap()], tmp.path()),
        ] {
            let e = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{what}: {e}");
            assert!(
                e.contains("games.csv") || e.contains("checkpoint.json"),
                "{what}: {e}"
            );
        }
    }
    // Arbitrary same-length byte edits of the files of a finished shard: refused, or
    // (a byte that carries no data) the same merged files.
    for name in ["games.csv", "checkpoint.json", "manifest.json"] {
        let len = std::fs::metadata(s1.join(name)).unwrap().len() as usize;
        for at in (0..len).step_by((len / 12).max(1)) {
            fresh();
            edit_byte(&copy.join(name), at);
            let o = merge(&s0, &copy);
            match o.status.code() {
                Some(2) => {}
                Some(0) => assert_eq!(files(&merged), want, "{name} byte {at}: accepted, differs"),
                c => panic!("{name} byte {at}: exit {c:?}: {}", text(&o.stderr)),
            }
        }
    }
}

#[test]
fn a_resume_refuses_edited_rows_and_tallies() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    for what in ["rows", "tallies"] {
        let _ = std::fs::remove_dir_all(&dir);
        interrupted_tournament(tmp.path(), &dir);
        if what == "rows" {
            edit_byte(&dir.join("games.csv.partial"), 300);
        } else {
            let cp = dir.join("checkpoint.json");
            let t = std::fs::read_to_string(&cp).unwrap();
            std::fs::write(&cp, t.replacen("\"wins\":", "\"wins\":1", 1)).unwrap();
        }
        let o = sim(&["tournament", "--resume", d], tmp.path());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{what}: {e}");
        let needle = if what == "rows" {
            "games.csv.partial: the rows after its last complete block"
        } else {
            "checkpoint.json does not match its seal"
        };
        assert!(e.contains(needle), "{what}: {e}");
    }
}

#[test]
fn a_full_disk_keeps_the_last_checkpoint_and_says_how_to_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let args = [
        "tournament",
        "--game",
        "kuhn",
        "--agents",
        "random,greedy",
        "-n",
        "640",
        "--seed",
        "6",
        "--threads",
        "1",
        "--checkpoint-every",
        "2",
        "--out",
        d,
    ];
    let o = sim(&args, tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want = files(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    // The disk fills while the rows of the 13th block are written.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(tmp.path())
        .env("SIM_ENOSPC_AT_STEP", "13")
        .output()
        .unwrap();
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("No space left on device")
            && e.contains("the progress up to game 384 is kept")
            && e.contains(&format!("sim tournament --resume {d}")),
        "{e}"
    );
    assert_eq!(manifest_state(&dir), "interrupted");
    assert!(dir.join("games.csv.partial").exists() && dir.join("checkpoint.json").exists());
    let o = sim(&["tournament", "--resume", d], tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("resumed at game 384"));
    assert_eq!(files(&dir), want);
}

/// A property test over arbitrary edits of a finished shard (issue 26, item 4): any byte of
/// its `games.csv`, `checkpoint.json` or `manifest.json` replaced by any other byte, or
/// removed, is refused by `sim merge` (exit 2) or (a byte that carries no data for it)
/// merged into the files of the unedited shards; `sim verify` refuses it or accepts it,
/// never fails otherwise.
/// 24 cases (each spawns `sim` twice), a new random sample on every run; a failure prints
/// the file, offset and byte to reproduce it.
#[test]
fn arbitrary_byte_edits_of_a_finished_shard_are_refused_or_change_nothing() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let tmp = tempfile::tempdir().unwrap();
    let (s0, s1) = (tmp.path().join("s0"), tmp.path().join("s1"));
    for (i, d) in [&s0, &s1].iter().enumerate() {
        let shard = format!("{i}/2");
        let o = sim(
            &[
                "tournament",
                "--game",
                "kuhn",
                "--agents",
                "random,greedy",
                "-n",
                "96",
                "--seed",
                "9",
                "--threads",
                "1",
                "--shard",
                &shard,
                "--out",
                d.to_str().unwrap(),
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let merged = tmp.path().join("m");
    let merge = |other: &Path| {
        let _ = std::fs::remove_dir_all(&merged);
        sim(
            &[
                "merge",
                s0.to_str().unwrap(),
                other.to_str().unwrap(),
                "--out",
                merged.to_str().unwrap(),
            ],
            tmp.path(),
        )
    };
    assert!(merge(&s1).status.success());
    let want = files(&merged);
    let copy = tmp.path().join("c");
    let names = ["games.csv", "checkpoint.json", "manifest.json"];
    let lens: Vec<usize> = names
        .iter()
        .map(|n| std::fs::metadata(s1.join(n)).unwrap().len() as usize)
        .collect();
    let edits =
        (0..names.len()).prop_flat_map(|f| (Just(f), 0..lens[f], prop::option::of(any::<u8>())));
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&edits, |(f, at, byte)| {
            let _ = std::fs::remove_dir_all(&copy);
            std::fs::create_dir(&copy).unwrap();
            for e in std::fs::read_dir(&s1).unwrap() {
                let e = e.unwrap();
                std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
            }
            let path = copy.join(names[f]);
            let mut b = std::fs::read(&path).unwrap();
            match byte {
                Some(x) if x == b[at] => return Ok(()),
                Some(x) => b[at] = x,
                None => {
                    b.remove(at);
                }
            }
            std::fs::write(&path, b).unwrap();
            let what = format!("{} byte {at} -> {byte:?}", names[f]);
            let o = merge(&copy);
            let v = sim(&["verify", copy.to_str().unwrap()], tmp.path());
            // Each refuses or accepts on its own: a byte of the recorded command, say, is
            // no data for merge but a mismatch with config.toml for verify.
            match (o.status.code(), v.status.code()) {
                (Some(2), Some(0 | 2)) => {}
                (Some(0), Some(0 | 2)) => {
                    prop_assert_eq!(files(&merged), want.clone(), "{}: accepted, differs", what)
                }
                (m, v) => prop_assert!(
                    false,
                    "{}: merge exit {:?}, verify exit {:?}: {}",
                    what,
                    m,
                    v,
                    text(&o.stderr)
                ),
            }
            Ok(())
        })
        .unwrap();
}

/// Out of disk in an experiment (issue 26, item 5): a sweep whose disk fills in its second
/// cell, and a tournament experiment whose disk fills mid-run, keep their progress, say how
/// to resume the experiment (not the cell), and resume to the files of an uninterrupted run.
#[test]
fn a_full_disk_in_an_experiment_keeps_its_progress_and_says_how_to_resume_it() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, extra, at) in [
        ("sweep", "games = 64\n[sweep]\nnum_cards = [3, 4]\n", "3"),
        ("single", "games = 96\n", "2"),
    ] {
        let (out, spec) = goofspiel_experiment(tmp.path(), name, extra);
        let args = [
            "experiment",
            spec.to_str().unwrap(),
            "--threads",
            "1",
            "--checkpoint-every",
            "1",
        ];
        let o = sim(&args, tmp.path());
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        let want = files(&out);
        std::fs::remove_dir_all(&out).unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(args)
            .current_dir(tmp.path())
            .env("SIM_ENOSPC_AT_STEP", at)
            .output()
            .unwrap();
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{name}: {e}");
        let resume = format!("sim experiment --resume {}", out.display());
        assert!(
            e.contains("No space left on device")
                && e.contains("the progress of the experiment is kept")
                && e.contains(&resume),
            "{name}: {e}"
        );
        assert_eq!(manifest_state(&out), "interrupted", "{name}");
        let o = sim(
            &["experiment", "--resume", out.to_str().unwrap()],
            tmp.path(),
        );
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        assert_eq!(files(&out), want, "{name}");
    }
}

/// Writes `dir/<name>.toml`, a `kind = "tournament"` experiment of Goofspiel with `random`
/// in every seat, seed 3, writing `dir/<name>`, with the spec lines `extra` added; returns
/// the output folder and the spec's path.
fn goofspiel_experiment(dir: &Path, name: &str, extra: &str) -> (PathBuf, PathBuf) {
    let out = dir.join(name);
    let spec = dir.join(format!("{name}.toml"));
    std::fs::write(
        &spec,
        format!(
            "name = \"{name}\"\nkind = \"tournament\"\ngame = \"goofspiel\"\nagents = \
             [\"random\"]\nseed = 3\nout = \"{}\"\n{extra}",
            out.display()
        ),
    )
    .unwrap();
    (out, spec)
}

/// A tournament experiment's tournament writes its checkpoint beside the experiment's
/// manifest, which has no tournament manifest of its own: the experiment's manifest records
/// the chain version from the start, so that `--resume` of the unfinished experiment refuses
/// a checkpoint whose chain was removed (its format downgraded) and whose rows were then
/// edited, as a tournament's resume does; an experiment begun without the record resumes an
/// unedited downgraded checkpoint with that format's checks, to the same files.
#[test]
fn an_experiment_resume_refuses_a_downgraded_checkpoint_of_its_tournament() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, spec) = goofspiel_experiment(tmp.path(), "single", "games = 96\n");
    let args = [
        "experiment",
        spec.to_str().unwrap(),
        "--threads",
        "1",
        "--checkpoint-every",
        "1",
    ];
    let o = sim(&args, tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want = files(&out);
    let stopped = |edit: bool| {
        std::fs::remove_dir_all(&out).unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(args)
            .current_dir(tmp.path())
            .env("SIM_ENOSPC_AT_STEP", "2")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["state"], "interrupted", "{m}");
        assert_eq!(m["kind"], "experiment", "{m}");
        assert_eq!(m["chain_version"], 2, "{m}");
        let cp = out.join("checkpoint.json");
        let t = std::fs::read_to_string(&cp).unwrap();
        let (a, b) = (
            t.find(",\"chain\":").unwrap(),
            t.rfind(",\"seal\":").unwrap(),
        );
        let t = format!("{}{}", &t[..a], &t[b..]).replace("checkpoint v4", "checkpoint v2");
        std::fs::write(&cp, reseal(&t)).unwrap();
        if edit {
            let partial = out.join("games.csv.partial");
            let len = std::fs::metadata(&partial).unwrap().len() as usize;
            edit_byte(&partial, len / 2);
        }
    };
    stopped(true);
    let o = sim(
        &["experiment", "--resume", out.to_str().unwrap()],
        tmp.path(),
    );
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("manifest.json records that this run writes a checksum chain of version 2")
            && e.contains("carries none"),
        "{e}"
    );
    stopped(false);
    let m = out.join("manifest.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&m).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("chain_version");
    std::fs::write(&m, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = sim(
        &["experiment", "--resume", out.to_str().unwrap()],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let strip = |f: Vec<(String, Vec<u8>)>| -> Vec<(String, Vec<u8>)> {
        f.into_iter()
            .filter(|(n, _)| n != "manifest.json" && n != "checkpoint.json")
            .collect()
    };
    assert_eq!(strip(files(&out)), strip(want));
}

/// Forges the checksum chain of the checkpoint at `cp` (of a run whose games file is
/// `games`) as a careful forger would: one win of the first cell that has one in block
/// `from` is moved to block `to` (`None`: to the open block of an unfinished run, whose
/// counts are the totals less the closed blocks'), so the run's totals are kept; every
/// link (from the chain's seed), the head and the seal are computed again.
fn forge_move_win(cp: &Path, games: &Path, from: usize, to: Option<usize>) {
    use sha2::Digest;
    let sha = |b: &[u8]| -> String {
        sha2::Sha256::digest(b)
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect()
    };
    let mut t = std::fs::read_to_string(cp).unwrap();
    let v: serde_json::Value = serde_json::from_str(&t).unwrap();
    let chain = &v["chain"];
    let blocks = chain["blocks"].as_array().unwrap();
    let mut tallies: Vec<Vec<[u64; 3]>> = blocks
        .iter()
        .map(|b| serde_json::from_value(b["tallies"].clone()).unwrap())
        .collect();
    let cell = tallies[from].iter().position(|c| c[1] > 0).unwrap();
    tallies[from][cell][1] -= 1;
    if let Some(to) = to {
        tallies[to][cell][1] += 1;
    }
    // The seed: SHA-256 of the chain's name and version, the configuration hash and the
    // games file's header.
    let file = std::fs::read(games).unwrap();
    let header = &file[..=file.iter().position(|&b| b == b'\n').unwrap()];
    let mut seed = format!(
        "tabletop-sim chain v{}\n{}\n",
        chain["version"],
        v["config_hash"].as_str().unwrap()
    )
    .into_bytes();
    seed.extend_from_slice(header);
    let mut prev = sha(&seed);
    for (k, b) in blocks.iter().enumerate() {
        let failed: Vec<String> = b["failed"]
            .as_array()
            .map(|f| f.iter().map(|g| g.to_string()).collect())
            .unwrap_or_default();
        let cells: Vec<String> = tallies[k]
            .iter()
            .map(|[g, w, d]| format!("{g}/{w}/{d}"))
            .collect();
        let text = format!(
            "{},{},{},{},{},{},{}",
            b["first"],
            b["end"],
            b["played"],
            failed.join(";"),
            b["rows_bytes"],
            b["rows_sha256"].as_str().unwrap(),
            cells.join(";")
        );
        let link = sha(format!("{prev}\n{text}").as_bytes());
        let old_t = serde_json::to_string(&b["tallies"]).unwrap();
        let new_t = serde_json::to_string(&tallies[k]).unwrap();
        let old_link = b["link"].as_str().unwrap();
        let at = t.find(old_link).unwrap();
        let tal = t[..at].rfind(&format!("\"tallies\":{old_t}")).unwrap();
        t = format!(
            "{}\"tallies\":{new_t}{}",
            &t[..tal],
            &t[tal + 10 + old_t.len()..]
        );
        t = t.replacen(old_link, &link, 1);
        prev = link;
    }
    // The head: the last link, the next game and the compact JSON of the tallies and the
    // failed games, as written.
    let stats = &t[t.find("\"stats\":").unwrap() + 8..t.find(",\"failures\":").unwrap()];
    let f_at = t.find(",\"failures\":").unwrap() + 12;
    let f_end = f_at + t[f_at..].find("],\"").unwrap() + 1;
    let head = sha(format!("{prev}\n{}\n[{stats},{}]", v["next_game"], &t[f_at..f_end]).as_bytes());
    let old_head = chain["head"].as_str().unwrap();
    t = t.replacen(old_head, &head, 1);
    std::fs::write(cp, reseal(&t)).unwrap();
}

/// Seals `checkpoint.json` text again after an edit, as a careful forger would: the seal is
/// the SHA-256 of the compact JSON without its last field, the seal itself.
fn reseal(text: &str) -> String {
    use sha2::Digest;
    let at = text.rfind(",\"seal\":\"").expect("a sealed checkpoint");
    let body = &text[..at];
    let seal: String = sha2::Sha256::digest(format!("{body}}}").as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{body},\"seal\":\"{seal}\"}}")
}

/// The chain of issue 26, item 4: two shards of 10,000 Kuhn games (shard 1: games
/// 4992..10000, blocks 4992..8192 and 8192..10000). Each edit of shard 1, made after the
/// run, is refused by `sim merge` and `sim verify` naming the file and the first bad
/// block, even when the checkpoint is sealed again (which the seal alone lets through).
#[test]
fn the_checksum_chain_names_the_first_bad_block_of_an_edited_forged_cut_or_reordered_shard() {
    let tmp = tempfile::tempdir().unwrap();
    let base = [
        "tournament",
        "--game",
        "kuhn",
        "--agents",
        "random,greedy",
        "-n",
        "10000",
        "--seed",
        "4",
        "--threads",
        "1",
    ];
    let (s0, s1) = (tmp.path().join("s0"), tmp.path().join("s1"));
    for (i, d) in [&s0, &s1].iter().enumerate() {
        let mut a = base.to_vec();
        let shard = format!("{i}/2");
        a.extend(["--out", d.to_str().unwrap(), "--shard", &shard]);
        let o = sim(&a, tmp.path());
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let merged = tmp.path().join("m");
    let merge = |other: &Path| {
        let _ = std::fs::remove_dir_all(&merged);
        sim(
            &[
                "merge",
                s0.to_str().unwrap(),
                other.to_str().unwrap(),
                "--out",
                merged.to_str().unwrap(),
            ],
            tmp.path(),
        )
    };
    let o = merge(&s1);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want = files(&merged);
    let o = sim(&["verify", s1.to_str().unwrap()], tmp.path());
    assert!(
        text(&o.stdout).contains("checksum chain of 2 blocks ok"),
        "{}",
        text(&o.stdout)
    );
    let copy = tmp.path().join("c");
    let fresh = || {
        let _ = std::fs::remove_dir_all(&copy);
        std::fs::create_dir(&copy).unwrap();
        for e in std::fs::read_dir(&s1).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
        }
    };
    let games = copy.join("games.csv");
    let cp = copy.join("checkpoint.json");
    let edit_cp = |f: &dyn Fn(&str) -> String| {
        let t = std::fs::read_to_string(&cp).unwrap();
        std::fs::write(&cp, reseal(&f(&t))).unwrap();
    };
    let lines = || -> Vec<String> {
        std::fs::read_to_string(&games)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    };
    let write_lines = |l: &[String]| std::fs::write(&games, l.join("\n") + "\n").unwrap();
    let block2 = "games.csv: block 2 of 2 (games 8192..10000)";
    let block1 = "games.csv: block 1 of 2 (games 4992..8192)";
    // (what, the message's needle, the edit)
    type NamedEdit<'a> = (&'a str, &'a str, Box<dyn Fn() + 'a>);
    let edits: Vec<NamedEdit<'_>> = vec![
        (
            "a digit of a row of the second block",
            block2,
            Box::new(|| {
                let len = std::fs::metadata(&games).unwrap().len() as usize;
                let b = std::fs::read(&games).unwrap();
                let at = (len - 3000..len).find(|&i| b[i].is_ascii_digit()).unwrap();
                edit_byte(&games, at);
            }),
        ),
        (
            "two rows of the first block swapped",
            block1,
            Box::new(|| {
                let mut l = lines();
                l.swap(10, 12);
                write_lines(&l);
            }),
        ),
        (
            "the last row of the first block moved into the second",
            block1,
            Box::new(|| {
                let mut l = lines();
                let i = l.iter().position(|r| r.starts_with("8192,")).unwrap();
                l.swap(i - 1, i);
                write_lines(&l);
            }),
        ),
        (
            "the file cut in its second block",
            "block 2 of 2 (games 8192..10000)",
            Box::new(|| {
                let b = std::fs::read(&games).unwrap();
                std::fs::write(&games, &b[..b.len() - 10_000]).unwrap();
            }),
        ),
        (
            "wins + 1, sealed again",
            "checkpoint.json: its tallies' win counts are not the sum of its checksum chain's \
             blocks",
            Box::new(|| {
                edit_cp(&|t| {
                    let at = t.find("\"wins\":").unwrap() + 7;
                    let end = at + t[at..].find(|c: char| !c.is_ascii_digit()).unwrap();
                    let wins: u64 = t[at..end].parse().unwrap();
                    format!("{}{}{}", &t[..at], wins + 1, &t[end..])
                })
            }),
        ),
        (
            "a block's played + 1, sealed again",
            "checkpoint.json: block 1 of 2 (games 4992..8192)",
            Box::new(|| edit_cp(&|t| t.replacen("\"played\":3200", "\"played\":3201", 1))),
        ),
        (
            "a win moved from the first block's record to the second's, the links, the \
             head and the seal recomputed (the totals kept)",
            "games.csv: block 1 of 2 (games 4992..8192), bytes",
            Box::new(|| forge_move_win(&cp, &games, 0, Some(1))),
        ),
        (
            "the two blocks' records swapped, sealed again",
            "checkpoint.json: block 1 of 2",
            Box::new(|| {
                edit_cp(&|t| {
                    let start = t.find("\"blocks\":[").unwrap() + 10;
                    let mid = start + t[start..].find("},{").unwrap() + 1;
                    let end = mid + t[mid..].find("}]").unwrap() + 1;
                    let (a, c) = (&t[start..mid], &t[mid + 1..end]);
                    format!("{}{c},{a}{}", &t[..start], &t[end..])
                })
            }),
        ),
    ];
    for (what, needle, edit) in &edits {
        fresh();
        edit();
        for (cmd, o) in [
            ("merge", merge(&copy)),
            (
                "verify",
                sim(&["verify", copy.to_str().unwrap()], tmp.path()),
            ),
        ] {
            let e = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{what}: {cmd}: {e}");
            assert!(e.contains(needle), "{what}: {cmd}: {e}");
            if !needle.starts_with("checkpoint.json: its tallies") {
                assert!(e.contains("first bad block"), "{what}: {cmd}: {e}");
            }
        }
    }

    // A shard written before the chain (checkpoint format v2, no chain in either file)
    // still verifies and merges into the same files, and sim verify says what it checked.
    fresh();
    let strip_chain = |t: &str| {
        let (a, b) = (
            t.find(",\"chain\":").unwrap(),
            t.rfind(",\"seal\":").unwrap(),
        );
        format!("{}{}", &t[..a], &t[b..])
    };
    edit_cp(&|t| strip_chain(t).replace("checkpoint v4", "checkpoint v2"));
    let m = copy.join("manifest.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&m).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("chain");
    v.as_object_mut().unwrap().remove("chain_version");
    std::fs::write(&m, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = sim(&["verify", copy.to_str().unwrap()], tmp.path());
    assert!(
        o.status.success() && text(&o.stdout).contains("no checksum chain (written by an older"),
        "{}{}",
        text(&o.stderr),
        text(&o.stdout)
    );
    let o = merge(&copy);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(files(&merged), want);
    // A checkpoint downgraded to v2 while manifest.json still records its chain: refused
    // by both, not checked with the v2 checks alone.
    fresh();
    edit_cp(&|t| strip_chain(t).replace("checkpoint v4", "checkpoint v2"));
    for (cmd, o, needle) in [
        (
            "merge",
            merge(&copy),
            "manifest.json records a checksum chain",
        ),
        (
            "verify",
            sim(&["verify", copy.to_str().unwrap()], tmp.path()),
            "manifest.json: its checksum chain",
        ),
    ] {
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {e}");
        assert!(e.contains(needle), "{cmd}: {e}");
    }
    // ... and a v4 checkpoint stripped of its chain is refused.
    fresh();
    edit_cp(&strip_chain);
    let o = merge(&copy);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("without a checksum chain"),
        "{}",
        text(&o.stderr)
    );
}

/// A resume checks the chain of the blocks it keeps: a run of 20,000 Kuhn games stopped by
/// a full disk after game 4416 (one closed block, 0..4096), whose first block is edited,
/// is refused naming that block; unedited, it resumes to the files of a run never stopped.
#[test]
fn a_resume_names_the_first_bad_block_of_the_rows_it_keeps() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let args = kuhn_full_disk_args(d);
    let o = sim(&args, tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want = files(&dir);
    // (the rows edited, the first block's win counts forged keeping the totals, neither)
    for (edit, forge) in [(true, false), (false, true), (false, false)] {
        run_stopped_by_full_disk(&args, &dir, tmp.path());
        if edit {
            edit_byte(&dir.join("games.csv.partial"), 2000);
        }
        if forge {
            // A win moved from the closed block's record to the open block (the rest of
            // the totals), the link, head and seal recomputed.
            forge_move_win(
                &dir.join("checkpoint.json"),
                &dir.join("games.csv.partial"),
                0,
                None,
            );
        }
        let o = sim(&["tournament", "--resume", d], tmp.path());
        let e = text(&o.stderr);
        if edit || forge {
            assert_eq!(o.status.code(), Some(2), "{e}");
            assert!(
                e.contains("games.csv.partial: block 1 of 1 (games 0..4096)")
                    && e.contains("first bad block"),
                "{e}"
            );
            if forge {
                assert!(e.contains("rows count"), "{e}");
            }
        } else {
            assert!(o.status.success(), "{e}");
            assert_eq!(files(&dir), want);
        }
    }
}

/// The known gap of round 5, closed: the manifest of an unfinished run has no chain summary
/// yet, so a checkpoint downgraded to format v2 (its chain removed, sealed again) was
/// resumed with the v2 checks only, and an edit of its rows went through. The manifest now
/// records the chain version from the run's start, and `--resume` refuses the downgrade;
/// an unedited downgraded checkpoint with a manifest of an older version (no
/// `chain_version`) still resumes, to the files of a run never stopped.
#[test]
fn a_resume_refuses_a_downgraded_checkpoint_of_an_unfinished_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let args = kuhn_full_disk_args(d);
    let o = sim(&args, tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want: Vec<_> = files(&dir)
        .into_iter()
        .filter(|(n, _)| n != "manifest.json" && n != "checkpoint.json")
        .collect();
    let stopped = |edit: bool| {
        run_stopped_by_full_disk(&args, &dir, tmp.path());
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["state"], "interrupted", "{m}");
        assert_eq!(m["chain_version"], 2, "{m}");
        assert!(m.get("chain").is_none(), "{m}");
        let cp = dir.join("checkpoint.json");
        let t = std::fs::read_to_string(&cp).unwrap();
        let (a, b) = (
            t.find(",\"chain\":").unwrap(),
            t.rfind(",\"seal\":").unwrap(),
        );
        let t = format!("{}{}", &t[..a], &t[b..]).replace("checkpoint v4", "checkpoint v2");
        std::fs::write(&cp, reseal(&t)).unwrap();
        if edit {
            edit_byte(&dir.join("games.csv.partial"), 2000);
        }
    };
    stopped(true);
    let o = sim(&["tournament", "--resume", d], tmp.path());
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("manifest.json records that this run writes a checksum chain of version 2")
            && e.contains("carries none"),
        "{e}"
    );
    // As a run of a version that did not record the chain version (and unedited): resumed
    // with that format's checks, as before.
    stopped(false);
    let m = dir.join("manifest.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&m).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("chain_version");
    std::fs::write(&m, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = sim(&["tournament", "--resume", d], tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let got: Vec<_> = files(&dir)
        .into_iter()
        .filter(|(n, _)| n != "manifest.json" && n != "checkpoint.json")
        .collect();
    assert_eq!(got, want);
}

/// The arguments of the full-disk resume tests: 20,000 Kuhn games, `random` against
/// `greedy`, seed 6, one thread, a checkpoint every 2 blocks, written into `d`.
fn kuhn_full_disk_args(d: &str) -> [&str; 15] {
    [
        "tournament",
        "--game",
        "kuhn",
        "--agents",
        "random,greedy",
        "-n",
        "20000",
        "--seed",
        "6",
        "--threads",
        "1",
        "--checkpoint-every",
        "2",
        "--out",
        d,
    ]
}

/// Runs `args` (from [`kuhn_full_disk_args`]) into a fresh `dir` with the disk made full
/// at file-system step 140, which stops the run after game 4416 with one closed block
/// (games 0..4096) kept; checks that it says so.
fn run_stopped_by_full_disk(args: &[&str], dir: &Path, cwd: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(cwd)
        .env("SIM_ENOSPC_AT_STEP", "140")
        .output()
        .unwrap();
    let e = text(&o.stderr);
    assert!(e.contains("the progress up to game 4416 is kept"), "{e}");
}

/// The files of a run under `dir` that a rerun may not lose: every file but the manifest,
/// by name, from `dir` or, while a rerun waits to commit, from its `.sim-previous`.
fn old_run_files(dir: &Path, names: &[String]) -> Vec<(String, Vec<u8>)> {
    names
        .iter()
        .map(|n| {
            let here = dir.join(n);
            let there = dir.join(".sim-previous").join(n);
            let path = if here.exists() && !there.exists() {
                here
            } else {
                there
            };
            (n.clone(), std::fs::read(&path).unwrap_or_default())
        })
        .collect()
}

/// A rerun with --overwrite over a complete run (issue 26, item 5; issue 25's report.md):
/// killed at every file-system step, the complete run is never damaged before the rerun
/// has committed (each of its files is whole, in the directory or set aside in
/// `.sim-previous`); each directory left behind then resumes, or reruns, to the rerun's
/// files plus the old `report.md`, which the rerun does not write and never removes. A
/// full disk during the rerun keeps both the old run and the rerun's progress.
#[test]
fn a_rerun_over_a_complete_run_never_damages_it_before_it_commits() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let run = |seed: &str, extra: &[&str]| {
        let mut a = vec![
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "random,greedy",
            "-n",
            "64",
            "--seed",
            seed,
            "--threads",
            "1",
            "--checkpoint-every",
            "1",
            "--out",
            d,
        ];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<String>>()
    };
    let old_args = run("2", &[]);
    let new_args = run("3", &["--overwrite"]);
    let args = |v: &[String]| v.to_vec();
    let setup = || {
        let _ = std::fs::remove_dir_all(&dir);
        let a = args(&old_args);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = sim(&a, tmp.path());
        assert!(o.status.success(), "{}", text(&o.stderr));
        std::fs::write(dir.join("report.md"), "notes written by hand").unwrap();
    };
    let new: Vec<&str> = new_args.iter().map(String::as_str).collect();
    // What the rerun gives: its own files, and the old report.md.
    setup();
    let old = files(&dir);
    let old_names: Vec<String> = old.iter().map(|f| f.0.clone()).collect();
    let o = sim(&new, tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let want = files(&dir);
    assert!(
        want.iter()
            .any(|f| f.0 == "report.md" && f.1 == b"notes written by hand")
    );
    assert_ne!(want, old);
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["kept"], serde_json::json!(["report.md"]));

    let resume = ["tournament", "--resume", d];
    let mut steps = 0;
    for k in 1u64.. {
        setup();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(&new)
            .current_dir(tmp.path())
            .env("SIM_KILL_AT_STEP", k.to_string())
            .output()
            .unwrap();
        let err = text(&o.stderr);
        if o.status.success() {
            assert_eq!(files(&dir), want, "past the last step");
            steps = k - 1;
            break;
        }
        let at = err
            .lines()
            .find(|l| l.contains("SIM_KILL_AT_STEP"))
            .unwrap_or("?");
        let what = format!("step {k} ({at})");
        let manifest: Option<serde_json::Value> = std::fs::read(dir.join("manifest.json"))
            .ok()
            .map(|b| serde_json::from_slice(&b).unwrap());
        let committed = manifest.as_ref().is_some_and(|m| {
            m["state"] == "complete" && m["command"].as_str().unwrap().contains("--seed 3")
        });
        if !committed {
            assert_eq!(old_run_files(&dir, &old_names), old, "{what}: the old run");
        }
        // Then: a rerun in progress resumes, a committed one is complete, anything else
        // (the old run, or its set-aside not finished) takes the rerun again.
        let rerun_state = manifest
            .as_ref()
            .filter(|m| m["command"].as_str().unwrap().contains("--seed 3"))
            .map(|m| m["state"].as_str().unwrap().to_string());
        let o = match rerun_state.as_deref() {
            Some("running" | "interrupted" | "complete") => sim(&resume, tmp.path()),
            _ => sim(&new, tmp.path()),
        };
        assert!(o.status.success(), "{what}: {}", text(&o.stderr));
        assert_eq!(files(&dir), want, "{what}");
        assert!(!dir.join(".sim-previous").exists(), "{what}");
    }
    assert!(steps >= 40, "{steps} steps");

    // A full disk during the rerun: exit 1, the old run whole in .sim-previous, the
    // rerun's progress kept; --resume finishes it.
    setup();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(&new)
        .current_dir(tmp.path())
        .env("SIM_ENOSPC_AT_STEP", "2")
        .output()
        .unwrap();
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("No space left on device") && e.contains("--resume"),
        "{e}"
    );
    assert_eq!(old_run_files(&dir, &old_names), old);
    assert_eq!(manifest_state(&dir), "interrupted");
    let o = sim(&resume, tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(files(&dir), want);
}

/// Range messages name the valid range, not the type's (issue 26, item 7): a value that is
/// no integer of the parameter's type (`-1` for an unsigned one, a number past its range)
/// is refused naming what the parameter set accepts.
#[test]
fn a_value_outside_its_type_is_refused_naming_the_valid_range() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, want) in [
        (
            vec![
                "--game",
                "goofspiel",
                "--agents",
                "random",
                "--variant",
                "num_cards=-1",
            ],
            "expected an integer in 1..=16",
        ),
        (
            vec![
                "--game",
                "goofspiel",
                "--agents",
                "random",
                "--variant",
                "num_cards=99999999999999999999",
            ],
            "expected an integer in 1..=16",
        ),
        (
            vec!["--game", "daxu", "--agents", "greedy:samples=-1,random"],
            "expected an integer in 1..=4294967295",
        ),
    ] {
        let mut a = vec!["tournament", "-n", "2", "--out", "o"];
        a.extend(args);
        let o = sim(&a, tmp.path());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {e}");
        assert!(e.contains(want), "{a:?}: {e}");
        assert!(!e.contains("18446744073709551615"), "{a:?}: {e}");
    }
}

/// A non-UTF-8 `--out` (issue 26, item 7) is refused before any work by `sim skill`, `sim
/// soak`, `sim balance` and `sim merge` (it could not be recorded exactly in the rerun
/// command; `sim soak` used to panic on it).
#[cfg(unix)]
#[test]
fn a_non_utf8_out_is_refused_by_every_command_that_writes() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let bad = std::ffi::OsStr::from_bytes(b"out-\xff");
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/kuhn-komi.toml");
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec![
            "skill",
            "--game",
            "kuhn",
            "--agent",
            "mcts",
            "--budgets",
            "2,4",
            "-n",
            "2",
        ]
        .into_iter()
        .map(Into::into)
        .collect(),
        vec!["soak", "--game", "kuhn", "-n", "2"]
            .into_iter()
            .map(Into::into)
            .collect(),
        vec!["balance".into(), spec.into_os_string()],
        vec!["merge", "a", "b"]
            .into_iter()
            .map(Into::into)
            .collect(),
    ];
    for mut args in cases {
        args.push("--out".into());
        args.push(bad.into());
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(&args)
            .current_dir(tmp.path())
            .output()
            .unwrap();
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains("is not valid UTF-8"), "{args:?}: {e}");
    }
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

/// `sim skill` and `sim balance` folders record a manifest (command, version, files with
/// SHA-256, state complete) that `sim verify DIR` checks: an edited file is refused by
/// name (issue 26, item 4 of the round's brief).
#[test]
fn skill_and_balance_folders_record_a_manifest_that_sim_verify_checks() {
    let tmp = tempfile::tempdir().unwrap();
    // experiments/kuhn-komi.toml with a small budget.
    let text_of = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/kuhn-komi.toml"),
    )
    .unwrap();
    let small = text_of
        .replace("solver_iters = 2000", "solver_iters = 100")
        .replace("games = 1000000", "games = 4000")
        .replace("batch = 2000", "batch = 1000")
        .replace("max_per_probe = 64000", "max_per_probe = 2000")
        .replace("verify = 100000", "verify = 1000");
    assert_ne!(small, text_of);
    let spec = tmp.path().join("komi.toml");
    std::fs::write(&spec, small).unwrap();
    let runs: [(Vec<&str>, &str, &str); 2] = [
        (
            vec![
                "skill",
                "--game",
                "kuhn",
                "--agent",
                "mcts",
                "--budgets",
                "2,4",
                "-n",
                "4",
                "--threads",
                "1",
                "--out",
                "sk",
            ],
            "sk",
            "skill.csv",
        ),
        (
            vec![
                "balance",
                spec.to_str().unwrap(),
                "--threads",
                "1",
                "--out",
                "ba",
            ],
            "ba",
            "probes.csv",
        ),
    ];
    for (args, dir, file) in runs {
        let o = sim(&args, tmp.path());
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        let d = tmp.path().join(dir);
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["state"], "complete");
        assert!(
            m["command"]
                .as_str()
                .unwrap()
                .contains(&format!("--out {dir}")),
            "{m}"
        );
        assert!(
            m["hashes"][file].as_str().is_some_and(|h| h.len() == 64),
            "{m}"
        );
        let o = sim(&["verify", dir], tmp.path());
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(
            text(&o.stdout).contains("files match their SHA-256"),
            "{}",
            text(&o.stdout)
        );
        let len = std::fs::metadata(d.join(file)).unwrap().len() as usize;
        edit_byte(&d.join(file), len - 2);
        let o = sim(&["verify", dir], tmp.path());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert!(
            e.contains(&format!("{file} does not match its SHA-256")),
            "{e}"
        );
    }
}

/// `sim experiment` records the SHA-256 of every file it writes (its tournaments' under
/// `cells/` included) in manifest.json, and `sim verify DIR` checks an experiment folder:
/// every listed file, the hashes, and each tournament's rows against its tallies against
/// its tables. An edited file is named; a folder written before experiments recorded
/// hashes is reported as of the older format (never as corrupt) and still has its
/// tournaments checked; files kept from an earlier run are named as not checked.
#[test]
fn sim_verify_checks_an_experiment_folder() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, extra, tournaments) in [
        (
            "sweep",
            "games = 64\n[sweep]\nnum_cards = [3, 4]\n",
            "2 tournaments",
        ),
        ("single", "games = 96\n", "1 tournaments"),
    ] {
        let out = tmp.path().join(name);
        let spec = tmp.path().join(format!("{name}.toml"));
        std::fs::write(
            &spec,
            format!(
                "name = \"{name}\"\nkind = \"tournament\"\ngame = \"goofspiel\"\nagents = \
                 [\"random\", \"greedy\"]\nseed = 3\nout = \"{}\"\n{extra}",
                out.display()
            ),
        )
        .unwrap();
        let o = sim(
            &["experiment", spec.to_str().unwrap(), "--threads", "1"],
            tmp.path(),
        );
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        let d = out.to_str().unwrap();
        let m_path = out.join("manifest.json");
        let manifest = std::fs::read(&m_path).unwrap();
        let m: serde_json::Value = serde_json::from_slice(&manifest).unwrap();
        let summary = if name == "sweep" {
            "cells/000/summary.csv"
        } else {
            "summary.csv"
        };
        assert!(
            m["hashes"][summary].as_str().is_some_and(|h| h.len() == 64)
                && m["hashes"]["experiment.toml"].is_string(),
            "{name}: {m}"
        );
        let o = sim(&["verify", d], tmp.path());
        let said = text(&o.stdout);
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        assert!(
            said.contains("files match their SHA-256") && said.contains(tournaments),
            "{name}: {said}"
        );
        // An edited table: named by its hash.
        let path = out.join(summary);
        let keep = std::fs::read(&path).unwrap();
        let len = keep.len();
        edit_byte(&path, len - 2);
        let o = sim(&["verify", d], tmp.path());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {e}");
        assert!(
            e.contains(&format!("{summary} does not match its SHA-256")),
            "{name}: {e}"
        );
        // A file added under a directory of the run.
        if name == "sweep" {
            std::fs::write(&path, &keep).unwrap();
            std::fs::write(out.join("cells/000/extra.csv"), "x\n").unwrap();
            let o = sim(&["verify", d], tmp.path());
            let e = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{name}: {e}");
            assert!(e.contains("cells/000/extra.csv: a file of the run"), "{e}");
            std::fs::remove_file(out.join("cells/000/extra.csv")).unwrap();
            edit_byte(&path, len - 2);
        }
        // The older format (no hashes): reported as such, and the edit is still found by
        // the tournament's own check (its table against its tallies).
        let mut old = m.clone();
        old.as_object_mut().unwrap().remove("hashes");
        std::fs::write(&m_path, serde_json::to_string_pretty(&old).unwrap()).unwrap();
        let o = sim(&["verify", d], tmp.path());
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {e}");
        assert!(
            e.contains("summary.csv is not what the tallies in checkpoint.json give"),
            "{name}: {e}"
        );
        std::fs::write(&path, &keep).unwrap();
        let o = sim(&["verify", d], tmp.path());
        let said = text(&o.stdout);
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        assert!(
            said.contains("older format: hashes not recorded") && said.contains(tournaments),
            "{name}: {said}"
        );
        // Without its games file: refused, unless --without-games, which says that the
        // rows were not checked.
        let games = if name == "sweep" {
            out.join("cells/000/games.csv")
        } else {
            out.join("games.csv")
        };
        let rows = std::fs::read(&games).unwrap();
        std::fs::remove_file(&games).unwrap();
        let o = sim(&["verify", d], tmp.path());
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(
            text(&o.stderr).contains("--without-games"),
            "{}",
            text(&o.stderr)
        );
        let o = sim(&["verify", "--without-games", d], tmp.path());
        let said = text(&o.stdout);
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        assert!(
            said.contains("rows NOT checked in 1 of them"),
            "{name}: {said}"
        );
        std::fs::write(&games, rows).unwrap();
        // Files kept from an earlier run are named as not checked.
        old["kept"] = serde_json::json!(["report.md"]);
        std::fs::write(&m_path, serde_json::to_string_pretty(&old).unwrap()).unwrap();
        let said = text(&sim(&["verify", d], tmp.path()).stdout);
        assert!(
            said.contains("NOT checked: 1 kept from an earlier run") && said.contains("report.md"),
            "{name}: {said}"
        );
        std::fs::write(&m_path, &manifest).unwrap();
    }
}
