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
