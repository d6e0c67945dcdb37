//! Helpers shared by the test modules that run the `sim` binary.

use std::path::Path;
use std::process::{Command, Output};

/// The files every tournament writes (`labels.csv` only for games with labels).
pub const FILES: [&str; 10] = [
    "games.csv",
    "agents.csv",
    "variants.csv",
    "summary.csv",
    "seats.csv",
    "agent_seats.csv",
    "seat_test.csv",
    "metrics.csv",
    "ends.csv",
    "config.toml",
];

/// Runs the `sim` binary with `args` in `cwd`.
pub fn sim(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the sim binary runs")
}

/// Bytes as text, lossily.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs the `sim` binary with `args` in `cwd`, asserts that it succeeded (naming the
/// arguments, stderr and stdout otherwise) and returns its stdout.
pub fn ok(args: &[&str], cwd: &Path) -> String {
    let o = sim(args, cwd);
    assert!(
        o.status.success(),
        "sim {args:?}: {}\n{}",
        text(&o.stderr),
        text(&o.stdout)
    );
    text(&o.stdout)
}

/// Every file of `dir` by name, except the manifest (it records the pid; a merge's also
/// lists its shards).
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() != "manifest.json")
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// Runs `sim` with `base` (a tournament's arguments, without `--out`) as shards `0/count`
/// .. `count-1/count` in `dir/shard{i}`, then `sim merge`s them into `out`.
pub fn run_shards_and_merge(base: &[&str], count: u64, dir: &Path, out: &Path) {
    let mut shards = Vec::new();
    for i in 0..count {
        let d = dir.join(format!("shard{i}"));
        let shard = format!("{i}/{count}");
        let mut args = base.to_vec();
        args.extend(["--out", d.to_str().unwrap(), "--shard", &shard]);
        ok(&args, dir);
        shards.push(d.to_str().unwrap().to_string());
    }
    let mut args: Vec<&str> = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--out", out.to_str().unwrap()]);
    ok(&args, dir);
}
