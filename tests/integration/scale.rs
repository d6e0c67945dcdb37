//! Scale-out (issue 12 item 3, issue 11 item 7): `--shard i/n` runs merged with `sim
//! merge` equal a single run byte for byte; broken shard sets are refused with exit 2
//! naming the problem; `--games-file csv|gz|none` changes only the games file.

use std::io::Read;
use std::path::Path;

use crate::common::{ok, sim, snapshot, text};

/// Asserts equal snapshots, naming the files that differ.
fn assert_same(got: &[(String, Vec<u8>)], want: &[(String, Vec<u8>)], what: &str) {
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

/// Runs `sim`, asserts exit code 2 and that stderr holds every needle; returns stderr.
fn refused(args: &[&str], cwd: &Path, needles: &[&str]) -> String {
    let o = sim(args, cwd);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "sim {args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "sim {args:?}: stderr lacks {n:?}: {err}");
    }
    err
}

/// A tournament's arguments with `--out out` and extra `more`.
fn args<'a>(base: &[&'a str], out: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = vec!["tournament"];
    v.extend_from_slice(base);
    v.extend_from_slice(&["--out", out]);
    v.extend_from_slice(more);
    v
}

/// Runs `count` shards of `base` with `more`, merges them in reverse order into `whole`
/// (moved to `merged`), runs the same tournament unsharded into `whole`, and compares.
fn sharded_equals_single(tmp: &Path, base: &[&str], count: u64, more: &[&str], what: &str) {
    let mut dirs = Vec::new();
    for i in 0..count {
        let d = format!("shard{i}");
        let s = format!("{i}/{count}");
        let mut a = args(base, &d, more);
        a.extend_from_slice(&["--shard", &s, "--threads", "2"]);
        ok(&a, tmp);
        dirs.push(d);
    }
    let mut m: Vec<&str> = vec!["merge"];
    m.extend(dirs.iter().rev().map(String::as_str));
    m.extend_from_slice(&["--out", "whole"]);
    let report = ok(&m, tmp);
    assert!(
        report.contains(&format!("merged {count} shards")),
        "{report}"
    );
    let merged = snapshot(&tmp.join("whole"));
    let manifest = std::fs::read_to_string(tmp.join("whole/manifest.json")).unwrap();
    assert!(manifest.contains("\"merged_from\"") && manifest.contains("\"complete\""));
    std::fs::remove_dir_all(tmp.join("whole")).unwrap();
    let mut a = args(base, "whole", more);
    a.extend_from_slice(&["--threads", "1"]);
    ok(&a, tmp);
    assert_same(&merged, &snapshot(&tmp.join("whole")), what);
    for d in dirs.iter().chain([&"whole".to_string()]) {
        std::fs::remove_dir_all(tmp.join(d)).unwrap();
    }
}

#[test]
fn sharded_runs_merged_equal_a_single_run_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    // Dunhuang has seat metrics, game metrics and labels (labels.csv).
    let two = [
        "--game",
        "dunhuang",
        "--players",
        "2",
        "--agents",
        "greedy:samples=1,random",
        "-n",
        "230",
        "--seed",
        "11",
    ];
    sharded_equals_single(tmp.path(), &two, 3, &[], "dunhuang, 2 players, 3 shards");
    let four = [
        "--game",
        "dunhuang",
        "--players",
        "4",
        "--agents",
        "random,greedy:samples=1",
        "-n",
        "200",
        "--seed",
        "5",
    ];
    sharded_equals_single(tmp.path(), &four, 3, &[], "dunhuang, 4 players, 3 shards");
    // Fewer units (one agent: a seating block of 1, so lcm(1, 32) = 32 games; 40 games are
    // 2 units) than shards: empty shards merge too.
    let small = [
        "--game", "daxu", "--agents", "random", "-n", "40", "--seed", "2",
    ];
    sharded_equals_single(tmp.path(), &small, 4, &[], "daxu, empty shards");
    // Compressed (above 4,096 games, so the merge splits gzip members at new places: shard
    // 0 ends at game 4,512) and no games file.
    let many = [
        "--game", "daxu", "--agents", "random", "-n", "9000", "--seed", "3",
    ];
    sharded_equals_single(tmp.path(), &many, 2, &["--games-file", "gz"], "gz");
    sharded_equals_single(tmp.path(), &two, 3, &["--games-file", "none"], "none");
}

#[test]
fn the_games_file_format_changes_only_the_games_file() {
    let tmp = tempfile::tempdir().unwrap();
    // More than one gzip member (4096 games each).
    let base = [
        "--game",
        "daxu",
        "--agents",
        "greedy,random",
        "-n",
        "5000",
        "--seed",
        "9",
    ];
    let mut snaps = Vec::new();
    for (dir, fmt) in [("c", "csv"), ("g", "gz"), ("x", "none")] {
        ok(&args(&base, dir, &["--games-file", fmt]), tmp.path());
        snaps.push(snapshot(&tmp.path().join(dir)));
    }
    let csv = std::fs::read(tmp.path().join("c/games.csv")).unwrap();
    let gz = std::fs::read(tmp.path().join("g/games.csv.gz")).unwrap();
    let mut unzipped = Vec::new();
    flate2::read::MultiGzDecoder::new(&gz[..])
        .read_to_end(&mut unzipped)
        .unwrap();
    assert!(unzipped == csv, "games.csv.gz decompresses to games.csv");
    assert!(
        !tmp.path().join("x/games.csv").exists() && !tmp.path().join("x/games.csv.gz").exists()
    );
    let others = |s: &[(String, Vec<u8>)]| -> Vec<(String, Vec<u8>)> {
        s.iter()
            .filter(|(n, _)| {
                !n.starts_with("games.csv") && n != "config.toml" && n != "checkpoint.json"
            })
            .cloned()
            .collect()
    };
    assert_same(&others(&snaps[1]), &others(&snaps[0]), "gz vs csv");
    assert_same(&others(&snaps[2]), &others(&snaps[0]), "none vs csv");
    assert!(others(&snaps[0]).iter().any(|(n, _)| n == "summary.csv"));
}

#[test]
fn an_interrupted_gz_run_resumes_to_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let base = [
        "--game",
        "daxu",
        "--agents",
        "greedy,random",
        "-n",
        "9000",
        "--seed",
        "4",
        "--games-file",
        "gz",
        "--threads",
        "2",
    ];
    ok(&args(&base, "run", &[]), tmp.path());
    let want = snapshot(&tmp.path().join("run"));
    std::fs::remove_dir_all(tmp.path().join("run")).unwrap();
    // Kill it after its first checkpoint (a gz checkpoint lands on a 4096-game boundary):
    // the rows past it were only in memory (a gz member is written whole), so the resume
    // plays them again.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args(
            &base,
            "run",
            &["--checkpoint-every", "1", "--throttle-ms", "10"],
        ))
        .current_dir(tmp.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let cp = tmp.path().join("run/checkpoint.json");
    let t = std::time::Instant::now();
    while !cp.exists() {
        assert!(t.elapsed().as_secs() < 120, "no checkpoint");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let text_cp = std::fs::read_to_string(&cp).unwrap();
    assert!(
        text_cp.contains("\"next_game\":4096"),
        "{}",
        &text_cp[..200]
    );
    ok(&["tournament", "--resume", "run"], tmp.path());
    assert_same(&snapshot(&tmp.path().join("run")), &want, "gz resumed");
}

/// Three complete shards of a small daxu tournament in `tmp` (`s0`, `s1`, `s2`).
fn three_shards(tmp: &Path) -> Vec<&'static str> {
    let base = [
        "--game",
        "daxu",
        "--agents",
        "greedy,random",
        "-n",
        "300",
        "--seed",
        "3",
    ];
    for (i, d) in ["s0", "s1", "s2"].iter().enumerate() {
        let s = format!("{i}/3");
        ok(&args(&base, d, &["--shard", &s]), tmp);
    }
    vec!["s0", "s1", "s2"]
}

/// Copies shard directory `from` to `to`.
fn copy_dir(tmp: &Path, from: &str, to: &str) {
    std::fs::create_dir_all(tmp.join(to)).unwrap();
    for e in std::fs::read_dir(tmp.join(from)).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), tmp.join(to).join(e.file_name())).unwrap();
    }
}

#[test]
fn merge_refuses_broken_shard_sets_naming_the_problem() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    three_shards(t);
    let merge = |dirs: &[&str], needles: &[&str]| {
        let mut a = vec!["merge"];
        a.extend_from_slice(dirs);
        a.extend_from_slice(&["--out", "m"]);
        refused(&a, t, needles);
        assert!(!t.join("m/config.toml").exists() && !t.join("m/games.csv").exists());
    };
    merge(
        &["s0", "s1", "s1", "s2"],
        &["'s1' and 's1' are both shard 1/3", "overlapping"],
    );
    merge(&["s0", "s2"], &["missing: shard 1/3", "gap"]);
    // Another configuration, another split.
    let base = ["--game", "daxu", "--agents", "greedy,random", "-n", "300"];
    ok(&args(&base, "seed4", &["--seed", "4", "--shard", "1/3"]), t);
    merge(
        &["s0", "seed4", "s2"],
        &["different configurations", "seed: 3 in 's0', 4 in 'seed4'"],
    );
    ok(&args(&base, "four", &["--seed", "3", "--shard", "1/4"]), t);
    merge(&["s0", "four", "s2"], &["different splits"]);
    // Not a shard, not complete.
    ok(&args(&base, "whole", &["--seed", "3"]), t);
    merge(&["s0", "whole", "s2"], &["'whole'", "not a shard"]);
    copy_dir(t, "s1", "int");
    let m = std::fs::read_to_string(t.join("int/manifest.json")).unwrap();
    std::fs::write(
        t.join("int/manifest.json"),
        m.replace("\"complete\"", "\"interrupted\""),
    )
    .unwrap();
    merge(
        &["s0", "int", "s2"],
        &["'int'", "interrupted", "--resume int"],
    );
    // A truncated games.csv (cut inside its last row), an appended one.
    let games = std::fs::read(t.join("s1/games.csv")).unwrap();
    copy_dir(t, "s1", "cut");
    std::fs::write(t.join("cut/games.csv"), &games[..games.len() - 10]).unwrap();
    merge(&["s0", "cut", "s2"], &["'cut'", "games.csv", "truncated"]);
    // The same size, but a row of another game, or a malformed line.
    let rows = text(&games);
    let second = rows.lines().nth(1).unwrap().to_string();
    let game: u64 = second.split(',').next().unwrap().parse().unwrap();
    let swapped = second.replacen(&game.to_string(), &(game + 1).to_string(), 1);
    // The same size, or the size check would refuse the file first.
    assert_eq!(swapped.len(), second.len(), "{second}");
    copy_dir(t, "s1", "row");
    std::fs::write(t.join("row/games.csv"), rows.replacen(&second, &swapped, 1)).unwrap();
    merge(
        &["s0", "row", "s2"],
        &["'row'", "games.csv: block 1 of 1", "first bad block"],
    );
    copy_dir(t, "s1", "bad");
    let third = rows.lines().nth(2).unwrap();
    std::fs::write(
        t.join("bad/games.csv"),
        rows.replacen(third, &third.replacen(',', ";", 1), 1),
    )
    .unwrap();
    merge(
        &["s0", "bad", "s2"],
        &["'bad'", "games.csv: block 1 of 1", "first bad block"],
    );
    // Rows of two games exchanged: same bytes, another order.
    copy_dir(t, "s1", "swap");
    let lines: Vec<&str> = rows.lines().collect();
    let mut v = lines.clone();
    v.swap(1, 3);
    std::fs::write(t.join("swap/games.csv"), v.join("\n") + "\n").unwrap();
    merge(&["s0", "swap", "s2"], &["'swap'", "reordered"]);
    // A corrupt checkpoint, and one whose tallies were dropped.
    copy_dir(t, "s1", "cp");
    std::fs::write(t.join("cp/checkpoint.json"), "{\"format\": 3").unwrap();
    merge(&["s0", "cp", "s2"], &["'cp'", "checkpoint.json is corrupt"]);
    copy_dir(t, "s1", "tally");
    let cp = std::fs::read_to_string(t.join("s1/checkpoint.json")).unwrap();
    let at = cp.find("\"games\":").unwrap();
    let end = at + cp[at..].find(',').unwrap();
    std::fs::write(
        t.join("tally/checkpoint.json"),
        format!("{}\"games\":0{}", &cp[..at], &cp[end..]),
    )
    .unwrap();
    merge(
        &["s0", "tally", "s2"],
        &["'tally'", "does not match its seal"],
    );
    refused(
        &["merge", "s0", "s1", "s2", "--out", "s1", "--overwrite"],
        t,
        &["'s1'", "also the --out"],
    );
    assert!(t.join("s1/games.csv").exists());
    // No shards given at all is a usage error.
    let o = sim(&["merge", "--out", "m"], t);
    assert_eq!(o.status.code(), Some(2));
    // The intact set merges.
    ok(&["merge", "s2", "s1", "s0", "--out", "m"], t);
}

#[test]
fn bad_shards_and_human_seats_are_refused_up_front() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let base = [
        "tournament",
        "--game",
        "daxu",
        "--agents",
        "random",
        "-n",
        "10",
        "--out",
        "o",
    ];
    for (shard, needle) in [
        ("3/3", "shard 3 does not exist among 3 (they are 0 to 2)"),
        ("-1/3", "'-1' is not a whole number"),
        ("1/0", "at least 1"),
        ("2", "no '/'"),
    ] {
        let mut a = base.to_vec();
        a.extend_from_slice(&["--shard", shard]);
        refused(&a, t, &[needle, "0-based"]);
    }
    let mut a = base.to_vec();
    a.extend_from_slice(&["--games-file", "zip"]);
    refused(&a, t, &["'zip'", "csv, gz, none"]);
    refused(
        &[
            "tournament",
            "--game",
            "daxu",
            "--agents",
            "human,random",
            "-n",
            "4",
            "--out",
            "o",
        ],
        t,
        &["human seats play only in `sim play`"],
    );
    assert!(!t.join("o").exists());
    std::fs::write(
        t.join("h.toml"),
        "name = \"h\"\nkind = \"tournament\"\ngame = \"daxu\"\nagents = [\"human\", \"random\"]\n\
         games = 4\nseed = 1\nout = \"ho\"\n",
    )
    .unwrap();
    refused(
        &["experiment", "h.toml"],
        t,
        &["human seats play only in `sim play`"],
    );
}

#[test]
fn sim_play_refuses_negative_and_out_of_range_numbers_naming_the_value() {
    let tmp = tempfile::tempdir().unwrap();
    let base = ["play", "--game", "daxu", "--agents", "random"];
    for (more, needle) in [
        (["--seed", "-1"], "'-1' is not a seed"),
        (["--index", "-3"], "'-3' is not a game index"),
        (
            ["--players", "9"],
            "daxu is played by exactly 2 players, got 9",
        ),
        (["--players", "-2"], "got '-2'"),
    ] {
        let mut a = base.to_vec();
        a.extend_from_slice(&more);
        refused(&a, tmp.path(), &[needle]);
    }
}
