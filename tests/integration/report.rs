//! `sim report`: the page renders from a small tournament, a small sweep and a small
//! ladder, holds the expected charts and numbers, `--format md` writes Markdown, and a
//! wrong directory exits 2 naming it.

use std::fs;

use crate::common::{sim, text};

/// The `<svg id=…>` charts of a page.
fn chart_ids(html: &str) -> Vec<String> {
    html.match_indices("<svg id=\"")
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            rest[..rest.find('"').expect("closing quote")].to_string()
        })
        .collect()
}

/// The `field` of the first data row of a CSV whose header names it.
fn csv_field(path: &std::path::Path, row: usize, field: &str) -> String {
    let t = fs::read_to_string(path).unwrap();
    let mut lines = t.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let c = head.iter().position(|h| *h == field).unwrap();
    lines
        .nth(row)
        .unwrap()
        .split(',')
        .nth(c)
        .unwrap()
        .to_string()
}

#[test]
fn a_tournament_report_has_its_charts_and_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let o = sim(
        &[
            "tournament",
            "--game",
            "daxu",
            "--agents",
            "greedy,random",
            "-n",
            "60",
            "--seed",
            "5",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = sim(&["report", out.to_str().unwrap()], dir.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("report.html"));
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    // Self-contained: no scripts, no external resources.
    assert!(
        !html.contains("<script") && !html.contains("src=\"http") && !html.contains("href=\"http")
    );
    let ids = chart_ids(&html);
    for want in [
        "chart-win-rates",
        "chart-seats",
        "chart-agent-seats",
        "chart-ratings",
        "chart-score-histogram",
        "chart-margin-histogram",
        "chart-actions",
        "chart-metric-score",
    ] {
        assert!(ids.iter().any(|i| i == want), "no {want} in {ids:?}");
    }
    assert!(html.contains("<title>Win rate by agent (95% Wilson interval)</title>"));
    // Every Daxu game ends when the deck runs out: one bar would compare nothing, so the
    // ends are a table without a chart.
    assert!(!ids.iter().any(|i| i == "chart-ends"), "{ids:?}");
    // The numbers of summary.csv, as a percentage, and the seat verdict of seat_test.csv.
    let rate: f64 = csv_field(&out.join("summary.csv"), 0, "win_rate")
        .parse()
        .unwrap();
    let wins = csv_field(&out.join("summary.csv"), 0, "wins");
    assert!(
        html.contains(&format!("{:.1}%", 100.0 * rate)),
        "win rate {rate}"
    );
    assert!(html.contains(&format!("<td class=\"n\">{wins}</td>")));
    assert!(html.contains("Seats: "));
    assert!(html.contains("Agents: "), "the head-to-head verdict");
    // Rerunning gives the same page (the bootstrap has a fixed seed).
    let first = html.clone();
    let o = sim(&["report", out.to_str().unwrap()], dir.path());
    assert!(o.status.success());
    assert_eq!(fs::read_to_string(out.join("report.html")).unwrap(), first);

    let o = sim(
        &["report", out.to_str().unwrap(), "--format", "md"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.starts_with("# daxu: greedy vs random"), "{}", &md[..80]);
    assert!(md.contains("## Win rates") && md.contains("| agent |"));
    assert!(md.contains(&format!("{:.1}%", 100.0 * rate)));
    assert!(!md.contains("<svg"));
}

#[test]
fn a_sweep_report_compares_the_levels() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("sweep.toml");
    fs::write(
        &spec,
        "name = \"small-sweep\"\nkind = \"tournament\"\ngame = \"daxu\"\nagents = [\"greedy\", \"random\"]\n\
         games = 40\nseed = 2\nout = \"out\"\n[sweep]\nreputation_points = [\"identity\", \"table_b\"]\n",
    )
    .unwrap();
    let o = sim(
        &["experiment", spec.to_str().unwrap(), "--threads", "1"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = dir.path().join("out");
    let o = sim(&["report", out.to_str().unwrap()], dir.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    let ids = chart_ids(&html);
    for want in [
        "chart-sweep-win-rates",
        "chart-sweep-seats",
        "chart-variant-comparison",
    ] {
        assert!(ids.iter().any(|i| i == want), "no {want} in {ids:?}");
    }
    // One verdict per agent and seat of the table_b cell against identity, and the Welch
    // comparisons of score and length.
    assert!(html.contains("reputation_points=table_b (against identity)"));
    assert!(html.contains("Newcombe hybrid score interval"));
    assert!(html.contains("Welch t interval and test"));
    let rate: f64 = csv_field(&out.join("sweep.csv"), 2, "win_rate")
        .parse()
        .unwrap();
    assert!(html.contains(&format!("{:.1}%", 100.0 * rate)));
    let o = sim(
        &["report", out.to_str().unwrap(), "--format", "md"],
        dir.path(),
    );
    assert!(o.status.success());
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Variant comparison") && md.contains("**"));
}

#[test]
fn a_self_play_sweep_compares_seats_not_the_lone_agent() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("selfplay.toml");
    fs::write(
        &spec,
        "name = \"self-play\"\nkind = \"tournament\"\ngame = \"daxu\"\nagents = [\"greedy\"]\n\
         games = 20\nseed = 2\nout = \"out\"\n[sweep]\nreputation_points = [\"identity\", \"table_b\"]\n",
    )
    .unwrap();
    let o = sim(
        &["experiment", spec.to_str().unwrap(), "--threads", "1"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = dir.path().join("out");
    let o = sim(
        &["report", out.to_str().unwrap(), "--format", "md"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("seat 0's win rate"), "{md}");
    assert!(!md.contains("greedy's win rate"), "{md}");
}

#[test]
fn a_ladder_report_has_ratings_and_a_heat_map() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("ladder.toml");
    fs::write(
        &spec,
        "name = \"small-ladder\"\nkind = \"ladder\"\ngame = \"daxu\"\n\
         agents = [\"random\", \"greedy:samples=1\", \"greedy:samples=4\"]\ngames = 20\nseed = 1\nout = \"out\"\n",
    )
    .unwrap();
    let o = sim(
        &["experiment", spec.to_str().unwrap(), "--threads", "1"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = dir.path().join("out");
    let o = sim(&["report", out.to_str().unwrap()], dir.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    let ids = chart_ids(&html);
    for want in ["chart-ratings", "chart-head-to-head"] {
        assert!(ids.iter().any(|i| i == want), "no {want} in {ids:?}");
    }
    assert!(html.contains("greedy samples=4") && html.contains("random beats the strongest agent"));
}

#[test]
fn a_wrong_directory_exits_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope");
    let o = sim(&["report", missing.to_str().unwrap()], dir.path());
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("nope") && e.contains("not a directory"), "{e}");
    let o = sim(&["report", dir.path().to_str().unwrap()], dir.path());
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("not a results directory") && e.contains("summary.csv"),
        "{e}"
    );
    let o = sim(
        &["report", dir.path().to_str().unwrap(), "--format", "pdf"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("html"));
    // A results file without its columns names the file and the column.
    fs::write(dir.path().join("summary.csv"), "who,what\nx,y\n").unwrap();
    let o = sim(&["report", dir.path().to_str().unwrap()], dir.path());
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("summary.csv") && e.contains("no column 'agent'"),
        "{e}"
    );
}

/// Issue 25: a report does not mislead. Two agents hold Daimyo's clans unequally, so the
/// label rates are shown within each agent (the pooled row last); no action is compared
/// against an empty group; rate axes stay within 0–100%; the setup lists only the
/// settings that differ from the defaults, and the rerun command leaves the defaults out.
#[test]
fn reports_compare_within_agents_and_never_against_empty_groups() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let o = sim(
        &[
            "tournament",
            "--game",
            "daimyo",
            "--agents",
            "greedy:samples=1,random",
            "--variant",
            "yellow_spaces=1",
            "-n",
            "24",
            "--seed",
            "3",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = sim(
        &["report", out.to_str().unwrap(), "--format", "md"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let labels = &md[md.find("## Labels").expect("a labels section")..];
    assert!(
        labels.contains("| greedy | ") && labels.contains("| random | "),
        "per-agent label rows: {labels}"
    );
    assert!(labels.contains("| all (pooled) | "), "{labels}");
    // No comparison with an empty group: its cell says so instead of a 0-game rate.
    assert!(!md.contains("0.0% [0.0, 100.0]"), "{md}");
    let actions = &md[md.find("## Actions").expect("an actions section")..];
    for line in actions.lines().filter(|l| l.starts_with("| ")) {
        if line.contains("always played") || line.contains("never played") {
            assert!(line.contains("no comparison"), "{line}");
        }
    }
    // The setup: one non-default setting, and a rerun line without the defaults.
    assert!(md.contains("yellow_spaces=1"), "{md}");
    assert!(!md.contains("rank_min_influence=1"), "{md}");
    let config = fs::read_to_string(out.join("config.toml")).unwrap();
    assert!(
        config.contains("rank_min_influence=1"),
        "config.toml keeps every setting"
    );
    // Rate axes within 0–100%.
    let o = sim(&["report", out.to_str().unwrap()], dir.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    // Tick labels are written as `>\n100%\n</text>`.
    assert!(
        html.contains("\n100%\n") || html.contains("\n90%\n"),
        "rate axes"
    );
    for above in ["\n110%\n", "\n120%\n", "\n-10%\n"] {
        assert!(!html.contains(above), "an axis label {above:?}");
    }
}

/// `sim experiment` writes both reports, and a rerun with `--overwrite` writes both again
/// (it never leaves the previous run's report.md, nor none): each the same as `sim report`
/// writes from the folder.
#[test]
fn experiments_write_report_md_beside_report_html() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec.toml");
    let body = "name = \"t\"\nkind = \"tournament\"\ngame = \"goofspiel\"\n\
                agents = [\"greedy\", \"random\"]\ngames = 20\nseed = 1\nout = \"out\"\n";
    fs::write(&spec, body).unwrap();
    let out = dir.path().join("out");
    for args in [
        vec!["experiment", spec.to_str().unwrap()],
        vec!["experiment", spec.to_str().unwrap(), "--overwrite"],
    ] {
        let o = sim(&args, dir.path());
        assert!(o.status.success(), "{}", text(&o.stderr));
        let stdout = text(&o.stdout);
        assert!(
            stdout.contains("report.html") && stdout.contains("report.md"),
            "{stdout}"
        );
        let md = fs::read_to_string(out.join("report.md")).unwrap();
        let html = fs::read_to_string(out.join("report.html")).unwrap();
        let o = sim(
            &["report", out.to_str().unwrap(), "--format", "md"],
            dir.path(),
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert_eq!(fs::read_to_string(out.join("report.md")).unwrap(), md);
        assert!(html.contains("<h2>Win rates</h2>"));
    }
}
