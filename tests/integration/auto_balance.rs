//! `sim balance` through the binary (issue 24): the Kuhn komi known-answer benchmark in a
//! fast configuration, a games-evaluated study on Goofspiel with a planted seat bonus, and
//! malformed specs (exit 2, naming the file, line and field).

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{ok, sim, text};

/// The one row of `recommendation.csv` as a map from column to value.
fn recommendation(dir: &Path) -> BTreeMap<String, String> {
    let mut r = csv::Reader::from_path(dir.join("recommendation.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rec = r.records().next().unwrap().unwrap();
    header
        .into_iter()
        .zip(rec.iter().map(String::from))
        .collect()
}

/// The Kuhn spec of `experiments/kuhn-komi.toml` with a smaller budget.
fn kuhn_spec(seed: u64) -> String {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/kuhn-komi.toml"),
    )
    .unwrap();
    text.replace("seed = 1", &format!("seed = {seed}"))
        .replace("solver_iters = 2000", "solver_iters = 500")
        .replace("tolerance = 0.002", "tolerance = 0.01")
        .replace("games = 1000000", "games = 200000")
        .replace("batch = 2000", "batch = 1000")
        .replace("max_per_probe = 64000", "max_per_probe = 16000")
        .replace("verify = 100000", "verify = 10000")
}

/// Kuhn poker with a komi paid by seat 1 to seat 0: under equilibrium play the fair komi
/// is exactly 1/18 chip, and the recommendation's interval (`low`, `high`) contains it.
#[test]
fn kuhn_komi_interval_contains_one_eighteenth() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("kuhn.toml");
    std::fs::write(&spec, kuhn_spec(1)).unwrap();
    let out = tmp.path().join("out");
    let stdout = ok(
        &[
            "balance",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        tmp.path(),
    );
    assert!(stdout.contains("interval ["), "{stdout}");
    let r = recommendation(&out);
    let (low, high): (f64, f64) = (r["low"].parse().unwrap(), r["high"].parse().unwrap());
    let fair = 1.0 / 18.0;
    assert!(low <= fair && fair <= high, "[{low}, {high}]");
    assert!(high - low < 0.1, "[{low}, {high}]");
    assert!(r["games"].parse::<u64>().unwrap() <= 200_000);
    for f in ["probes.csv", "report.md", "spec.toml", "command.txt"] {
        assert!(out.join(f).exists(), "{f}");
    }
    let command = std::fs::read_to_string(out.join("command.txt")).unwrap();
    assert!(
        command.starts_with("sim balance ") && command.contains("--out"),
        "{command}"
    );
    // The equilibrium's value and exploitability, in no CSV, are solved again.
    assert!(
        std::fs::read_to_string(out.join("report.md"))
            .unwrap()
            .contains("exploitability")
    );
    assert_report_regenerates(&out);
}

/// A malformed spec exits 2 naming the file, line and field; so does an unknown game.
#[test]
fn malformed_specs_exit_2_naming_file_line_and_field() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("bad.toml");
    let good = kuhn_spec(1);
    let cases = [
        (
            good.replace("batch = 1000", "batch = \"many\""),
            "field `batch`",
        ),
        (
            good.replace("type = \"float\"", "type = \"categorical\""),
            "racing",
        ),
        (good.replace("game = \"kuhn\"", "game = \"chess\""), "chess"),
    ];
    for (text, needle) in cases {
        std::fs::write(&spec, &text).unwrap();
        let o = sim(&["balance", spec.to_str().unwrap()], tmp.path());
        let err = text_of(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(needle), "{err}");
        if needle.starts_with("field") {
            assert!(err.contains("bad.toml:"), "{err}");
        }
    }
}

fn text_of(b: &[u8]) -> String {
    text(b)
}

/// The rows of a CSV file as maps from column to value.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Runs `sim balance` on `text` and returns the output folder.
fn run_spec(tmp: &Path, text: &str) -> std::path::PathBuf {
    let spec = tmp.join("spec.toml");
    std::fs::write(&spec, text).unwrap();
    let out = tmp.join("out");
    ok(
        &[
            "balance",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        tmp,
    );
    out
}

/// `sim report DIR` (html, then `--format md`) rebuilds a balance or design folder's
/// reports from its files byte for byte, and `sim verify DIR` still accepts the folder.
fn assert_report_regenerates(dir: &Path) {
    for (file, format) in [("report.html", "html"), ("report.md", "md")] {
        let path = dir.join(file);
        let Ok(before) = std::fs::read(&path) else {
            continue;
        };
        std::fs::remove_file(&path).unwrap();
        ok(&["report", dir.to_str().unwrap(), "--format", format], dir);
        let after = std::fs::read(&path).unwrap();
        assert!(
            before == after,
            "{file} differs after sim report:\n{}\n---\n{}",
            text_of(&before),
            text_of(&after)
        );
    }
    ok(&["verify", dir.to_str().unwrap()], dir);
}

/// An int parameter's recommendation is the whole settings bracketing the root finder's
/// estimate, each with its verified response, naming the fairest verified setting (Goofspiel,
/// random self-play, seat 0 given a planted komi of 3 points, seat 1's whole komi
/// searched: the fair whole value is 3); and `sim report` regenerates the folder's reports.
#[test]
fn whole_settings_of_an_int_parameter_and_report_regeneration() {
    let tmp = tempfile::tempdir().unwrap();
    let text = r#"
name = "goofspiel-int-komi"
game = "goofspiel"
players = 2
agents = ["random"]
seed = 2
method = "root"

[objective]
kind = "equal_wins"
seat = 1

[[parameter]]
name = "komi_seat1"
variant = "komi=3/{x}"
type = "int"
low = 0
high = 8

[budget]
games = 8000
batch = 400
max_per_probe = 2000
verify = 2000
"#;
    let spec = tmp.path().join("spec.toml");
    std::fs::write(&spec, text).unwrap();
    let out = tmp.path().join("out");
    let stdout = ok(
        &[
            "balance",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        tmp.path(),
    );
    let rec = recommendation(&out);
    let estimate: f64 = rec["estimate"].parse().unwrap();
    let (lo, hi) = (estimate.floor(), estimate.ceil());
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let v = rows(&out.join("verification.csv"));
    for w in [lo, hi] {
        let setting = format!("komi=3/{w}");
        let row = v
            .iter()
            .find(|r| r["setting"] == setting)
            .unwrap_or_else(|| panic!("{setting} not verified: {v:?}"));
        // The report's whole-settings table gives each one's verified response (3
        // decimals; the CSV keeps 6).
        let mean: f64 = row["mean"].parse().unwrap();
        assert!(
            md.contains(&format!(
                "| komi_seat1 = {w} | {setting} | yes | {mean:+.3} |"
            )),
            "{md}"
        );
    }
    if lo != hi {
        assert!(
            md.contains(&format!("komi_seat1 takes whole values: the estimate {estimate:.2} lies between {lo} and {hi}")),
            "{md}"
        );
    }
    // The fairest of every verified whole setting (the bracketing ones and the one-step
    // deviations) is named, in the report and on the console.
    let fairest = v
        .iter()
        .min_by(|a, b| {
            let m = |r: &BTreeMap<String, String>| r["mean"].parse::<f64>().unwrap().abs();
            m(a).total_cmp(&m(b))
        })
        .unwrap();
    let sentence = format!(
        "Fairest on the 2,000 fresh games (the smallest |mean response|): komi_seat1 = {} ({})",
        fairest["value"], fairest["setting"]
    );
    assert!(md.contains(&sentence), "{md}");
    assert!(stdout.contains(&sentence), "{stdout}");
    // Every pair of verified points, paired by game.
    let pairs = rows(&out.join("verification_pairs.csv"));
    assert_eq!(pairs.len(), v.len() * (v.len() - 1) / 2, "{pairs:?}");
    assert_report_regenerates(&out);
}

/// Racing over a categorical komi on Kuhn poker picks the setting closest to the fair
/// 1/18 (0.05, whose response is −0.011 against −0.111 and +0.089 for its neighbours),
/// and the verification compares it with every other value on fresh deals.
#[test]
fn racing_picks_the_most_balanced_categorical_setting() {
    let tmp = tempfile::tempdir().unwrap();
    let text = kuhn_spec(2)
        .replace("method = \"root\"", "method = \"racing\"")
        .replace(
            "type = \"float\"",
            "type = \"categorical\"\nvalues = [\"0/0\", \"0.05/-0.05\", \"0.1/-0.1\", \"0.2/-0.2\"]",
        )
        .replace("variant = \"komi={x}/{-x}\"", "variant = \"komi={x}\"")
        .replace("low = -0.5\n", "")
        .replace("high = 0.5\n", "")
        .replace("tolerance = 0.01\n", "");
    let out = run_spec(tmp.path(), &text);
    assert_report_regenerates(&out);
    let r = recommendation(&out);
    assert_eq!(r["setting"], "komi=0.05/-0.05", "{r:?}");
    assert_eq!(r["low"], "");
    let v = rows(&out.join("verification.csv"));
    assert_eq!(v.len(), 4, "{v:?}");
    assert_eq!(v[0]["verdict"], "recommended");
    // No other value is more balanced on 10,000 fresh deals; the two farther from 1/18
    // are detectably less balanced (0.1 lies across the root, where common random numbers
    // do not cancel the noise of |mean|, and may stay undecided).
    assert!(v[1..].iter().all(|row| row["verdict"] != "better"), "{v:?}");
    assert_eq!(
        (v[1]["verdict"].as_str(), v[3]["verdict"].as_str()),
        ("worse", "worse"),
        "{v:?}"
    );
    assert_eq!(rows(&out.join("probes.csv")).len(), 4);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("chart-balance-verification"), "no chart");
}

/// NTBEA on Kuhn's komi as a 21-level float grid lands within one level (0.05) of the
/// fair 1/18 and verifies both neighbours; every evaluation is a row of `probes.csv`.
#[test]
fn ntbea_lands_next_to_the_fair_komi() {
    let tmp = tempfile::tempdir().unwrap();
    let text = kuhn_spec(3)
        .replace("method = \"root\"", "method = \"ntbea\"")
        .replace("tolerance = 0.01", "points = 21")
        .replace("games = 200000", "games = 60000");
    let out = run_spec(tmp.path(), &text);
    assert_report_regenerates(&out);
    let r = recommendation(&out);
    let x: f64 = r["estimate"].parse().unwrap();
    assert!((x - 1.0 / 18.0).abs() <= 0.05 + 1e-9, "{r:?}");
    assert_eq!(rows(&out.join("probes.csv")).len(), 60);
    let v = rows(&out.join("verification.csv"));
    assert_eq!(v.len(), 3, "{v:?}");
    assert!(
        v[1..].iter().all(|row| !row["abs_diff"].is_empty()),
        "{v:?}"
    );
}

/// `sim design` through the binary: restricted play on Daxu (never Give), the persona
/// matrix and kingmaking on 3-player Goofspiel, each file written with the rerun command;
/// nothing to measure or a bad class's agent is bad input (exit 2).
#[test]
fn design_metrics_through_the_binary() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("d");
    let o = out.to_str().unwrap();
    let stdout = ok(
        &[
            "design", "--game", "daxu", "--agent", "random", "--never", "give", "--games", "60",
            "--format", "md", "--out", o,
        ],
        tmp.path(),
    );
    assert!(stdout.contains("never taking `give`"), "{stdout}");
    let r = rows(&out.join("restricted.csv"));
    assert_eq!(r[0]["class"], "give");
    assert_eq!(r[0]["forced_games"], "0", "Daxu always offers another card");
    assert!(
        std::fs::read_to_string(out.join("report.md"))
            .unwrap()
            .contains("Restricted play")
    );
    let out2 = tmp.path().join("k");
    let stdout = ok(
        &[
            "design",
            "--game",
            "goofspiel",
            "-n",
            "3",
            "--agent",
            "random",
            "--persona",
            "random",
            "--persona",
            "greedy:samples=1",
            "--kingmaker",
            "greedy:samples=1",
            "--variant",
            "num_cards=5",
            "--games",
            "60",
            "--out",
            out2.to_str().unwrap(),
        ],
        tmp.path(),
    );
    assert!(stdout.contains("kingmaking:"), "{stdout}");
    assert_eq!(rows(&out2.join("personas.csv")).len(), 2);
    let k = rows(&out2.join("kingmaking.csv"));
    assert_eq!(k.len(), 1);
    assert!(
        !k[0]["excess"].is_empty() && !k[0]["control_changed"].is_empty(),
        "{k:?}"
    );
    let html = std::fs::read_to_string(out2.join("report.html")).unwrap();
    assert!(html.contains("chart-design-personas"), "no heat map");
    assert_report_regenerates(&out);
    assert_report_regenerates(&out2);
    let command = std::fs::read_to_string(out2.join("command.txt")).unwrap();
    assert!(
        command.contains("--kingmaker") && command.contains("num_cards=5"),
        "{command}"
    );
    for args in [
        vec!["design", "--game", "daxu"],
        vec![
            "design",
            "--game",
            "daxu",
            "--agent",
            "alphazero",
            "--never",
            "give",
        ],
        vec!["design", "--game", "daxu", "--kingmaker", "random"],
    ] {
        let o = sim(&args, tmp.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text_of(&o.stderr));
    }
}

/// A per-seat compensation knob works as a `sim balance` parameter, and its response is
/// monotone: Q.A.X.'s `seat_coins` for the second seat (QAX-2.6, coins from the bank) on
/// a 3-point grid, greedy self-play on the same 300 games at each point: the second seat's
/// win-share edge rises with its starting coins.
#[test]
fn seat_coins_is_a_monotone_balance_parameter() {
    let tmp = tempfile::tempdir().unwrap();
    let text = r#"
name = "qax-seat-coins"
game = "qax"
players = 2
agents = ["greedy"]
seed = 3
method = "grid"

[objective]
kind = "equal_wins"
seat = 1

[[parameter]]
name = "seat_coins_seat1"
variant = "seat_coins=0/{x}"
type = "int"
low = -6
high = 12
points = 3

[budget]
games = 900
batch = 300
max_per_probe = 300
"#;
    let out = run_spec(tmp.path(), text);
    assert_report_regenerates(&out);
    let p = rows(&out.join("probes.csv"));
    let mut by_x: Vec<(f64, f64)> = p
        .iter()
        .map(|r| (r["x"].parse().unwrap(), r["mean"].parse().unwrap()))
        .collect();
    by_x.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert_eq!(by_x.len(), 3, "{p:?}");
    assert!(
        by_x.windows(2).all(|w| w[1].1 > w[0].1),
        "not increasing: {by_x:?}"
    );
    assert!(p.iter().any(|r| r["setting"] == "seat_coins=0/12"), "{p:?}");
}

/// Two objectives and their Pareto front through the binary: Q.A.X. at 2 players, the
/// second seat's starting coins on 4 levels, greedy self-play; objectives equal wins for
/// seat 1 (target 0) and the shortest game. `probes.csv` has a row per (setting,
/// objective), `pareto.csv` the non-dominated settings only, and no front setting is
/// dominated by another setting's losses; the report draws the front; `front_replay.csv`
/// replays every front setting on the verification's fresh games.
#[test]
fn several_objectives_give_a_pareto_front() {
    let tmp = tempfile::tempdir().unwrap();
    let text = r#"
name = "qax-front"
game = "qax"
players = 2
agents = ["greedy"]
seed = 5
method = "front"

[[objective]]
kind = "equal_wins"
seat = 1

[[objective]]
kind = "length"
goal = "min"

[[parameter]]
name = "seat_coins_seat1"
variant = "seat_coins=0/{x}"
type = "int"
low = -6
high = 12
points = 4

[budget]
games = 800
batch = 100
max_per_probe = 200
verify = 100
"#;
    let out = run_spec(tmp.path(), text);
    assert_report_regenerates(&out);
    let probes = rows(&out.join("probes.csv"));
    assert_eq!(probes.len(), 8, "{probes:?}");
    let losses: Vec<(String, f64, f64)> = probes
        .chunks(2)
        .map(|c| {
            assert_eq!(c[0]["objective"], "equal_wins_seat1");
            assert_eq!(c[1]["objective"], "length");
            (
                c[0]["front"].clone(),
                c[0]["loss"].parse().unwrap(),
                c[1]["loss"].parse().unwrap(),
            )
        })
        .collect();
    for (front, a, b) in &losses {
        let dominated = losses
            .iter()
            .any(|(_, x, y)| x <= a && y <= b && (x < a || y < b));
        assert_eq!(front == "true", !dominated, "{losses:?}");
    }
    let pareto = rows(&out.join("pareto.csv"));
    let on = losses.iter().filter(|l| l.0 == "true").count();
    assert_eq!(pareto.len(), 2 * on);
    assert!(
        pareto
            .iter()
            .all(|r| r["front"] == "true" && r["games"] == "200")
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("chart-balance-front") && html.contains("Pareto front"));
    // The front replayed on the verification's fresh games: every front setting, every
    // objective, `verify` games each, beside the search's estimate of the same cell.
    let replay = rows(&out.join("front_replay.csv"));
    assert_eq!(replay.len(), pareto.len(), "{replay:?}");
    let mut fresh_differs = false;
    for (r, p) in replay.iter().zip(&pareto) {
        assert_eq!(
            (&r["point"], &r["setting"], &r["objective"]),
            (&p["point"], &p["setting"], &p["objective"])
        );
        assert_eq!(r["games"], "100");
        assert_eq!(r["search_estimate"], p["estimate"], "{r:?}");
        fresh_differs |= r["estimate"] != p["estimate"];
    }
    assert!(
        fresh_differs,
        "fresh games give other estimates: {replay:?}"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("The front on fresh games"), "{md}");
    assert!(md.contains("replayed on the same 100 fresh games"), "{md}");
}

/// Resume after an interrupt: a run that keeps its journal, the journal cut to half its
/// lines with the last one broken mid-write (as a kill leaves it), and `--resume` in a
/// second folder: every output file is byte for byte the uninterrupted run's, and the
/// resumed run replayed the journal's batches instead of playing them.
#[test]
fn resume_after_an_interrupt_reproduces_the_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("kuhn.toml");
    std::fs::write(
        &spec,
        kuhn_spec(4)
            .replace("games = 200000", "games = 60000")
            .replace("verify = 10000", "verify = 2000"),
    )
    .unwrap();
    let s = spec.to_str().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    ok(
        &["balance", s, "--out", a.to_str().unwrap(), "--keep-journal"],
        tmp.path(),
    );
    let journal = std::fs::read_to_string(a.join("journal.tsv")).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    assert!(lines.len() > 6, "{}", lines.len());
    let mut cut = lines[..lines.len() / 2].join("\n");
    cut.push('\n');
    cut.push_str(&lines[lines.len() / 2][..20]);
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(b.join("journal.tsv"), &cut).unwrap();
    // Without --resume the journal is refused (bad input), naming the flag.
    let o = sim(&["balance", s, "--out", b.to_str().unwrap()], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(text_of(&o.stderr).contains("--resume"));
    let o = sim(
        &["balance", s, "--out", b.to_str().unwrap(), "--resume"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text_of(&o.stderr));
    let replayed = format!("resumed: {} sampler calls replayed", lines.len() / 2 - 1);
    assert!(
        text_of(&o.stderr).contains(&replayed),
        "{}",
        text_of(&o.stderr)
    );
    // The reports differ only in the rerun command's --out.
    let (ad, bd) = (a.display().to_string(), b.display().to_string());
    for f in [
        "probes.csv",
        "recommendation.csv",
        "verification.csv",
        "report.md",
    ] {
        assert_eq!(
            std::fs::read_to_string(a.join(f))
                .unwrap()
                .replace(&ad, &bd),
            std::fs::read_to_string(b.join(f)).unwrap(),
            "{f}"
        );
    }
    assert!(!b.join("journal.tsv").exists(), "removed after the study");
}

/// A study in shards: Goofspiel with a planted komi, the root finder on seat 1's whole
/// komi, played once unsharded and once by 3 shards sharing one folder, the shards run in
/// rounds (each plays its slice of the next batch, then waits for the others) until shard
/// 0 writes the outputs. Every CSV is byte for byte the unsharded run's, the report too
/// but for the rerun command's folder; a shard with another spec's journal is refused.
#[test]
fn a_sharded_study_equals_the_unsharded_one_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let text = r#"
name = "goofspiel-shards"
game = "goofspiel"
players = 2
agents = ["random"]
seed = 3
method = "root"

[objective]
kind = "equal_wins"
seat = 1

[[parameter]]
name = "komi_seat1"
variant = "komi=3/{x}"
type = "int"
low = 0
high = 8

[budget]
games = 4000
batch = 401
max_per_probe = 1203
verify = 1001
"#;
    let spec = tmp.path().join("spec.toml");
    std::fs::write(&spec, text).unwrap();
    let s = spec.to_str().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    ok(&["balance", s, "--out", a.to_str().unwrap()], tmp.path());
    let bs = b.to_str().unwrap();
    let mut rounds = 0;
    let mut waited = false;
    'rounds: loop {
        rounds += 1;
        assert!(rounds < 200, "the shards never finished");
        for i in 0..3 {
            let shard = format!("{i}/3");
            let out = ok(&["balance", s, "--out", bs, "--shard", &shard], tmp.path());
            waited |= out.starts_with("waiting: shard");
            if i == 0 && out.contains("wrote ") {
                break 'rounds;
            }
        }
    }
    assert!(waited && rounds > 3, "{rounds} rounds");
    for f in [
        "probes.csv",
        "recommendation.csv",
        "verification.csv",
        "verification_pairs.csv",
    ] {
        let (x, y) = (
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
        );
        assert!(x == y, "{f}:\n{}\n---\n{}", text_of(&x), text_of(&y));
    }
    let (ad, bd) = (a.display().to_string(), b.display().to_string());
    assert_eq!(
        std::fs::read_to_string(a.join("report.md"))
            .unwrap()
            .replace(&ad, &bd),
        std::fs::read_to_string(b.join("report.md")).unwrap()
    );
    // The command recorded is the unsharded one.
    assert_eq!(
        std::fs::read_to_string(b.join("command.txt")).unwrap(),
        std::fs::read_to_string(a.join("command.txt"))
            .unwrap()
            .replace(&ad, &bd)
    );
    ok(&["verify", bs], tmp.path());
    // Another spec in the same folder: shard 1's journal is refused (exit 2).
    std::fs::write(&spec, text.replace("seed = 3", "seed = 4")).unwrap();
    let o = sim(&["balance", s, "--out", bs, "--shard", "1/3"], tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", text_of(&o.stderr));
    assert!(text_of(&o.stderr).contains("journal of another spec"));
}
