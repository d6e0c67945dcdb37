//! `sim tournament --paired` (common random numbers, paired intervals over deals),
//! `--until-significant` (Wald's SPRT at fixed check points) and `--decisiveness` (the
//! leader by running score, lead changes), run through the binary.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use tabletop_sim::stats::paired_difference;

use crate::common::{ok, run_shards_and_merge, sim, snapshot, text};

/// The rows of a CSV file as maps from column name to value.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Per block of `block` games from `games.csv`: the first agent's win rate minus the
/// second's, and the same for the score (the estimator of `paired.csv`).
fn block_differences(dir: &Path, block: u64, a: &str, b: &str) -> (Vec<f64>, Vec<f64>) {
    // block -> agent -> (wins, score, seats)
    let mut by_block: BTreeMap<u64, BTreeMap<String, (f64, f64, f64)>> = BTreeMap::new();
    for r in rows(&dir.join("games.csv")) {
        let g: u64 = r["game"].parse().unwrap();
        let e = by_block
            .entry(g / block)
            .or_default()
            .entry(r["agent"].clone())
            .or_default();
        e.0 += r["won"].parse::<f64>().unwrap();
        e.1 += r["score"].parse::<f64>().unwrap();
        e.2 += 1.0;
    }
    let mut wins = Vec::new();
    let mut scores = Vec::new();
    for agents in by_block.values() {
        let (x, y) = (agents[a], agents[b]);
        wins.push(x.0 / x.2 - y.0 / y.2);
        scores.push(x.1 / x.2 - y.1 / y.2);
    }
    (wins, scores)
}

#[test]
fn paired_gives_a_narrower_interval_than_unpaired_on_the_same_question() {
    // Kuhn poker, greedy against random, 2000 games (1000 deals of 2), seed 5: the deal
    // (the two cards) decides much of each hand, and replaying it with the seats swapped
    // cancels that luck in the difference between the agents.
    let dir = tempfile::tempdir().unwrap();
    let common = [
        "tournament",
        "--game",
        "kuhn",
        "--agents",
        "greedy,random",
        "-n",
        "2000",
        "--seed",
        "5",
        "--threads",
        "2",
    ];
    let unpaired = dir.path().join("unpaired");
    let paired = dir.path().join("paired");
    let mut args = common.to_vec();
    args.extend(["--out", unpaired.to_str().unwrap()]);
    ok(&args, dir.path());
    let mut args = common.to_vec();
    args.extend(["--out", paired.to_str().unwrap(), "--paired"]);
    let stdout = ok(&args, dir.path());
    assert!(
        stdout.contains("Paired over 1000 deals of 2 games")
            && stdout.contains("greedy − random win rate:"),
        "{stdout}"
    );
    assert!(!unpaired.join("paired.csv").exists());
    let config = fs::read_to_string(paired.join("config.toml")).unwrap();
    assert!(
        config.contains("paired = true") && config.contains("--paired"),
        "{config}"
    );
    // The games of a deal share the chance seed.
    let games = rows(&paired.join("games.csv"));
    assert_eq!(games[0]["seed"], games[2]["seed"]);
    assert_ne!(games[0]["seed"], games[4]["seed"]);

    let table = rows(&paired.join("paired.csv"));
    let find = |comparison: &str, quantity: &str| {
        table
            .iter()
            .find(|r| r["comparison"] == comparison && r["quantity"] == quantity)
            .unwrap_or_else(|| panic!("no {comparison} {quantity} row: {table:?}"))
            .clone()
    };
    let num = |r: &BTreeMap<String, String>, k: &str| r[k].parse::<f64>().unwrap();
    // Per-block differences (win rate, score) of both runs, read once from games.csv.
    let paired_blocks = block_differences(&paired, 2, "greedy", "random");
    let unpaired_blocks = block_differences(&unpaired, 2, "greedy", "random");
    for (quantity, column) in [("win_rate", 0), ("mean_score", 1)] {
        let row = find("agents", quantity);
        assert_eq!((row["a"].as_str(), row["b"].as_str()), ("greedy", "random"));
        assert_eq!(
            (row["deals"].as_str(), row["games_per_deal"].as_str()),
            ("1000", "2")
        );
        assert!(row["method"].contains("paired t interval"), "{row:?}");
        // paired.csv agrees with the same estimator recomputed from games.csv...
        let (w, s) = &paired_blocks;
        let check = paired_difference(if column == 0 { w } else { s });
        assert!(
            (num(&row, "difference") - check.estimate).abs() < 1e-6,
            "{row:?}"
        );
        assert!((num(&row, "ci_low") - check.low).abs() < 1e-6, "{row:?}");
        assert!((num(&row, "ci_high") - check.high).abs() < 1e-6, "{row:?}");
        // ...and is much narrower than that estimator on the unpaired run (independent
        // deals in each block of 2 games; measured: 0.021 against 0.087 for the win rate).
        let (w, s) = &unpaired_blocks;
        let un = paired_difference(if column == 0 { w } else { s });
        let width = num(&row, "ci_high") - num(&row, "ci_low");
        assert!(
            width < 0.6 * (un.high - un.low),
            "{quantity}: paired width {width}, unpaired {}",
            un.high - un.low
        );
    }
    let seats = find("seats", "win_rate");
    assert_eq!((seats["a"].as_str(), seats["b"].as_str()), ("0", "1"));
}

#[test]
fn a_paired_run_needs_whole_deals_and_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("odd");
    let o = sim(
        &[
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "greedy,random",
            "-n",
            "101",
            "--paired",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("multiple of 2, got 101; use 100 or 102"), "{e}");
    assert!(!out.exists());

    // Three shards of a paired 3-seat run (block 6) merge to the files of one run.
    let whole = dir.path().join("merged");
    let base = [
        "tournament",
        "--game",
        "dunhuang",
        "--players",
        "3",
        "--agents",
        "greedy,random",
        "-n",
        "192",
        "--seed",
        "2",
        "--paired",
        "--threads",
        "1",
    ];
    let mut args = base.to_vec();
    args.extend(["--out", whole.to_str().unwrap()]);
    ok(&args, dir.path());
    let expected: Vec<(String, Vec<u8>)> = ["games.csv", "summary.csv", "paired.csv", "seats.csv"]
        .iter()
        .map(|f| (f.to_string(), fs::read(whole.join(f)).unwrap()))
        .collect();
    fs::remove_dir_all(&whole).unwrap();
    run_shards_and_merge(&base, 3, dir.path(), &whole);
    for (f, bytes) in expected {
        assert!(fs::read(whole.join(&f)).unwrap() == bytes, "{f} differs");
    }
}

#[test]
fn until_significant_stops_early_with_its_reason_the_same_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seq");
    let args = |threads: &'static str| -> Vec<String> {
        [
            "tournament",
            "--game",
            "daxu",
            "--agents",
            "greedy,random",
            "-n",
            "50000",
            "--seed",
            "3",
            "--until-significant=every=1000",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
            "--overwrite",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let mut snapshots = Vec::new();
    for threads in ["1", "2"] {
        let a = args(threads);
        let stdout = ok(
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
            dir.path(),
        );
        assert!(
            stdout.contains("sequential test (Wald's sequential probability ratio test")
                && stdout.contains("stopped after 1024 of at most 50000 games: H1 accepted"),
            "{stdout}"
        );
        let seq = rows(&out.join("sequential.csv"));
        assert_eq!(seq.len(), 1);
        assert_eq!(
            (
                seq[0]["decision"].as_str(),
                seq[0]["games"].as_str(),
                seq[0]["every"].as_str()
            ),
            ("H1", "1024", "1024")
        );
        let games = fs::read_to_string(out.join("games.csv")).unwrap();
        assert_eq!(games.lines().count(), 1 + 2 * 1024);
        let config = fs::read_to_string(out.join("config.toml")).unwrap();
        assert!(
            config.contains("[sequential]")
                && config.contains("decision = \"H1\"")
                && config
                    .contains("--until-significant=p0=0.5,p1=0.55,alpha=0.05,beta=0.05,every=1024"),
            "{config}"
        );
        snapshots.push(snapshot(&out));
    }
    assert!(snapshots[0] == snapshots[1], "threads 1 and 2 differ");

    // A question it cannot answer is refused before anything is written.
    let bad = dir.path().join("bad");
    let o = sim(
        &[
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "greedy,random,cfr",
            "-n",
            "100",
            "--until-significant",
            "--out",
            bad.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("3 different agents"),
        "{}",
        text(&o.stderr)
    );
    assert!(!bad.exists());
}

#[test]
fn until_significant_says_when_n_was_reached_first() {
    // random against random at Kuhn: no advantage of 5 points, and 64 games are too few
    // to show it: the run plays all of them and says so.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seq");
    let stdout = ok(
        &[
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "random,random:",
            "-n",
            "64",
            "--until-significant=every=32",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(
        stdout.contains("undecided: played all 64 games (-n)"),
        "{stdout}"
    );
    let seq = rows(&out.join("sequential.csv"));
    assert_eq!(seq[0]["decision"], "undecided");
}

#[test]
fn experiment_specs_take_paired_and_until_significant() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec.toml");
    let body = "name = \"t\"\nkind = \"tournament\"\ngame = \"kuhn\"\n\
                agents = [\"greedy\", \"random\"]\ngames = 2000\nseed = 1\nout = \"out\"\n\
                paired = true\n[until_significant]\nevery = 1000\n";
    fs::write(&spec, body).unwrap();
    let stdout = ok(&["experiment", spec.to_str().unwrap()], dir.path());
    assert!(stdout.contains("Sequential test (Wald's"), "{stdout}");
    assert!(stdout.contains("Paired over"), "{stdout}");
    let out = dir.path().join("out");
    let seq = rows(&out.join("sequential.csv"));
    assert_eq!(seq[0]["every"], "1024");
    assert!(out.join("paired.csv").exists());
    // The report shows both.
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains("Paired comparisons")
            && html.contains("paired over 512 deals")
            && html.contains("SPRT, sequential.csv)"),
        "report.html lacks the paired or sequential results"
    );
    // A misspelt option is named with its line.
    fs::write(&spec, body.replace("every = 1000", "evry = 1000")).unwrap();
    let o = sim(&["experiment", spec.to_str().unwrap()], dir.path());
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("evry") && e.contains("line 10"), "{e}");
}

/// The games of `games.csv` by index: their `rounds` (one row per seat, the same in each).
fn rounds_by_game(dir: &Path) -> BTreeMap<u64, u64> {
    rows(&dir.join("games.csv"))
        .iter()
        .map(|r| (r["game"].parse().unwrap(), r["rounds"].parse().unwrap()))
        .collect()
}

#[test]
fn decisiveness_counts_every_round_the_same_for_any_thread_count_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "tournament",
        "--game",
        "dunhuang",
        "--players",
        "3",
        "--agents",
        "greedy,random",
        "-n",
        "96",
        "--seed",
        "3",
        "--decisiveness",
    ];
    let files = ["decisiveness.csv", "lead_changes.csv", "summary.csv"];
    let read =
        |d: &Path| -> Vec<Vec<u8>> { files.iter().map(|f| fs::read(d.join(f)).unwrap()).collect() };
    let one = dir.path().join("one");
    let mut args = base.to_vec();
    args.extend(["--threads", "1", "--out", one.to_str().unwrap()]);
    let stdout = ok(&args, dir.path());
    assert!(stdout.contains("Decisiveness over 96 games"), "{stdout}");
    let expected = read(&one);
    let config = fs::read_to_string(one.join("config.toml")).unwrap();
    assert!(config.contains("decisiveness = true") && config.contains(" --decisiveness"));

    // Each round row counts the games that went on past that round, and each percent row
    // the games with a round at floor(q R / 100) >= 1 (from games.csv, independently).
    let rounds = rounds_by_game(&one);
    assert_eq!(rounds.len(), 96);
    let dec = rows(&one.join("decisiveness.csv"));
    let longest = *rounds.values().max().unwrap();
    let by_round: Vec<_> = dec.iter().filter(|r| r["basis"] == "round").collect();
    assert_eq!(
        by_round.len() as u64,
        longest - 1,
        "a row per round before the last"
    );
    for r in by_round {
        let point: u64 = r["point"].parse().unwrap();
        let reached = rounds.values().filter(|&&n| n > point).count();
        assert_eq!(r["games"], reached.to_string(), "round {point}");
        let led: u64 = r["with_leader"].parse().unwrap();
        let wins: u64 = r["leader_wins"].parse().unwrap();
        assert!(wins <= led && led <= reached as u64);
    }
    for r in dec.iter().filter(|r| r["basis"] == "percent") {
        let q: u64 = r["point"].parse().unwrap();
        let reached = rounds.values().filter(|&&n| q * n / 100 >= 1).count();
        assert_eq!(r["games"], reached.to_string(), "{q}%");
    }
    let changes = rows(&one.join("lead_changes.csv"));
    let total: u64 = changes
        .iter()
        .map(|r| r["games"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 96);

    // Two threads, and two shards merged, give the same bytes.
    let two = dir.path().join("two");
    let mut args = base.to_vec();
    args.extend(["--threads", "2", "--out", two.to_str().unwrap()]);
    ok(&args, dir.path());
    assert!(read(&two) == expected, "--threads 2 differs");
    let merged = dir.path().join("merged");
    run_shards_and_merge(&base, 2, dir.path(), &merged);
    assert!(read(&merged) == expected, "the merged shards differ");

    // A game without a running score is refused, naming the games that have one.
    let o = sim(
        &[
            "tournament",
            "--game",
            "kuhn",
            "--agents",
            "random",
            "-n",
            "10",
            "--decisiveness",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("kuhn has no running score") && e.contains("daxu, dunhuang"),
        "{e}"
    );
}

#[test]
fn experiment_specs_take_decisiveness_and_their_reports_draw_it() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec.toml");
    let body = "name = \"t\"\nkind = \"tournament\"\ngame = \"goofspiel\"\n\
                agents = [\"greedy\", \"random\"]\ngames = 200\nseed = 1\nout = \"out\"\n\
                decisiveness = true\n";
    fs::write(&spec, body).unwrap();
    ok(&["experiment", spec.to_str().unwrap()], dir.path());
    let out = dir.path().join("out");
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    for id in ["chart-decisiveness", "chart-lead-changes"] {
        assert!(
            html.contains(&format!("id=\"{id}\"")),
            "report.html lacks {id}"
        );
    }
    assert!(html.contains("Decisiveness and lead changes"));

    // A sweep draws a line per cell.
    let body = "name = \"s\"\nkind = \"tournament\"\ngame = \"dunhuang\"\n\
                agents = [\"greedy\"]\ngames = 64\nseed = 1\nout = \"sweep\"\n\
                decisiveness = true\n[sweep]\nplayers = [2, 3]\n";
    fs::write(&spec, body).unwrap();
    ok(&["experiment", spec.to_str().unwrap()], dir.path());
    let html = fs::read_to_string(dir.path().join("sweep/report.html")).unwrap();
    assert!(
        html.contains("id=\"chart-sweep-decisiveness\"")
            && html.contains("players 2")
            && html.contains("players 3"),
        "the sweep report lacks the decisiveness lines"
    );
}
