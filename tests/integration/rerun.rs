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
