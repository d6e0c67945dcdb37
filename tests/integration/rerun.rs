//! Committed results rerun with the README's command reproduce their CSV files byte for
//! byte (issue 25): `sim verify --rerun` on the committed folders that rerun in seconds
//! (the others are checked by hand with the same command; results/RERUNS.md records
//! which), and a folder with one CSV byte changed is named as differing.

use std::fs;
use std::path::Path;

use crate::common::{sim, text};

/// The repository root (the committed results and specs).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The committed folders rerun in CI: those whose full rerun costs seconds of CPU with the
/// test build (the four took 16 s of CPU together, 57 s of wall clock on the shared 2-core
/// machine at load 12; results/RERUNS.md). Two balance searches, a budget ladder and a
/// tournament; the other folders are rerun by hand with `sim verify --rerun`.
const CHEAP: [&str; 4] = [
    "kuhn-komi",
    "goofspiel-balance-planted",
    "daxu-decisiveness",
    "skill-goofspiel",
];

#[test]
fn cheap_committed_results_rerun_with_their_command_and_reproduce_every_csv() {
    let mut args = vec!["verify".to_string(), "--rerun".to_string()];
    args.extend(CHEAP.iter().map(|n| format!("results/{n}")));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = sim(&args, root());
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    for n in CHEAP {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("results/{n}: ")))
            .unwrap_or_else(|| panic!("no line for {n}:\n{out}"));
        assert!(line.contains(": reproduced: "), "{line}");
    }
    assert!(
        out.contains(&format!("{0} of {0} folders reproduced", CHEAP.len())),
        "{out}"
    );
}

/// Copies `results/NAME` and the spec its command names into `to`, laid out as in the
/// repository.
fn copy_committed(name: &str, spec: &str, to: &Path) {
    let from = root().join("results").join(name);
    let dest = to.join("results").join(name);
    fs::create_dir_all(&dest).unwrap();
    for e in fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        fs::copy(e.path(), dest.join(e.file_name())).unwrap();
    }
    fs::create_dir_all(to.join("experiments")).unwrap();
    fs::copy(root().join(spec), to.join(spec)).unwrap();
}

#[test]
fn one_changed_csv_byte_is_named_and_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    copy_committed("kuhn-komi", "experiments/kuhn-komi.toml", dir.path());
    let csv = dir.path().join("results/kuhn-komi/recommendation.csv");
    let mut bytes = fs::read(&csv).unwrap();
    // The last digit of the first data row's last field, changed.
    let second_line_end = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .unwrap()
        .0;
    let d = &mut bytes[second_line_end - 1];
    *d = if *d == b'1' { b'2' } else { b'1' };
    fs::write(&csv, &bytes).unwrap();
    // Run from elsewhere: the command's files are found from the folder's own root.
    let o = sim(
        &[
            "verify",
            "--rerun",
            dir.path().join("results/kuhn-komi").to_str().unwrap(),
        ],
        root(),
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}\n{}", text(&o.stderr));
    assert!(
        out.contains("DIFFERS: 1 of 3 CSV files: recommendation.csv line 2: committed"),
        "{out}"
    );
    assert!(
        text(&o.stderr).contains("1 of 1 folders did not reproduce"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_folder_without_a_manifest_is_named_as_rerun_by_hand() {
    let o = sim(&["verify", "--rerun", "results/agents-cfr"], root());
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("results/agents-cfr: NOT RERUN"), "{out}");
    assert!(out.contains("command.txt or README.md"), "{out}");
}

/// The `mcts` spec of `results/daxu-ladder/pairs/0-2` as that pair records it, written before
/// `bias` and `reuse` joined the kind (today's canonical form ends in `,bias=0,reuse=false`).
const OLDER_MCTS: &str = "mcts:iters=500,time_ms=0,c=0.7,rollout=random,epsilon=0.1,depth=0,\
                          rounds=0,worlds=1,final=visits,sm=ucb,gamma=0.1,chance=open,root=uct";

/// Copies the files of the committed folder `results/NAME` (no sub-folders) into `to`.
fn copy_files(name: &str, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(root().join("results").join(name)).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn sim_verify_checks_a_folder_with_older_agent_specs_as_recorded_and_refuses_an_edited_one() {
    let dir = tempfile::tempdir().unwrap();
    let pair = dir.path().join("0-2");
    copy_files("daxu-ladder/pairs/0-2", &pair);
    assert!(
        fs::read_to_string(pair.join("agents.csv"))
            .unwrap()
            .contains(&format!("\"{OLDER_MCTS}\"\n")),
        "the committed pair no longer records the older spelling"
    );
    let o = sim(
        &["verify", "--without-games", pair.to_str().unwrap()],
        dir.path(),
    );
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert!(
        out.contains(&format!(
            "1 agent specs recorded in an older spelling, each the same agent as its canonical \
             form today (the files and the configuration hash checked with the specs as \
             recorded): '{OLDER_MCTS}' (today: '{OLDER_MCTS},bias=0,reuse=false')"
        )),
        "{out}"
    );
    // Another agent (500 -> 600 iterations), written into every file that spells it: the
    // configuration hash is not the one the run recorded.
    for f in ["manifest.json", "config.toml", "agents.csv"] {
        let p = pair.join(f);
        let t = fs::read_to_string(&p).unwrap();
        assert!(t.contains(OLDER_MCTS), "{f}");
        fs::write(
            &p,
            t.replace(OLDER_MCTS, &OLDER_MCTS.replace("=500,", "=600,")),
        )
        .unwrap();
    }
    let o = sim(
        &["verify", "--without-games", pair.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    assert!(
        text(&o.stderr).contains("its config_hash is not that of its settings"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_rerun_that_spells_an_agent_spec_anew_reproduces_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "mcts:iters=8,time_ms=0,c=0.7,rollout=random,epsilon=0.1,depth=0,rounds=0,\
                worlds=1,final=visits,sm=ucb,gamma=0.1,chance=open,root=uct";
    crate::common::ok(
        &[
            "tournament",
            "--game",
            "daxu",
            "--agents",
            &format!("{spec},bias=0,reuse=false"),
            "--agents",
            "random",
            "-n",
            "4",
            "--out",
            "results/t",
        ],
        dir.path(),
    );
    let agents = dir.path().join("results/t/agents.csv");
    let today = fs::read_to_string(&agents).unwrap();
    let run = dir.path().join("results/t");
    let rerun = |path: &Path| sim(&["verify", "--rerun", path.to_str().unwrap()], dir.path());
    // The committed spelling without bias and reuse: the same agents.
    fs::write(&agents, today.replace(",bias=0,reuse=false", "")).unwrap();
    let o = rerun(&run);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert!(
        out.contains("agents.csv: same agents, older spelling (1 cells)"),
        "{out}"
    );
    // Another agent in the same cell: a difference.
    fs::write(&agents, today.replace("iters=8,", "iters=9,")).unwrap();
    let o = rerun(&run);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("DIFFERS: 1 of "), "{out}");
    assert!(out.contains("agents.csv line 2"), "{out}");
}
