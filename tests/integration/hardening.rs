//! Results that cannot be silently wrong (issue 26): a resume that refuses a changed run,
//! a lock on the output directory, a failed run that says so, bounds on the options, a
//! commit protocol that is consistent after a kill at any step, checksums over rows and
//! tallies. Each test reproduces one failure of the adversarial trial.

use std::path::Path;

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
            &["--variant: reputation_points=identity in the directory, reputation_points=table_b given"],
        ),
        (&["--paired"], &["--paired: off in the directory, on given"]),
        (&["--decisiveness"], &["--decisiveness: off in the directory, on given"]),
        (&["--shard", "1/2"], &["--shard: no shard in the directory, 1/2 given"]),
        (&["--games-file", "gz"], &["--games-file: csv in the directory, gz given"]),
        (&["--game", "qax"], &["--game: daxu in the directory, qax given"]),
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
        &["experiment", "--resume", out.to_str().unwrap(), "--threads", "1"],
        tmp.path(),
    );
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("already complete: nothing to resume"), "{e}");
    assert_eq!(manifest_state(&out), "complete");
}
