//! `sim experiment` specs read from another working directory: relative paths resolve from
//! the spec's folder, an external agent (the shipped Python client) plays, and a malformed
//! spec names the line and the field.

use std::fs;
use std::path::Path;

use crate::common::{sim, text};

/// The repository root (the shipped example client lives under it).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn spec_paths_resolve_from_the_spec_folder_and_an_ext_agent_plays() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    fs::create_dir_all(specs.join("examples/python")).unwrap();
    fs::create_dir_all(specs.join("presets")).unwrap();
    fs::copy(
        root().join("examples/python/random_bot.py"),
        specs.join("examples/python/random_bot.py"),
    )
    .unwrap();
    fs::write(
        specs.join("presets/tiny.toml"),
        "kind = \"mcts\"\ndescription = \"tiny\"\n[params]\niters = 8\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    fs::write(
        specs.join("ext.toml"),
        format!(
            "name = \"ext\"\nkind = \"tournament\"\ngame = \"kuhn\"\n\
             agents = [\"ext:cmd=python3 examples/python/random_bot.py\", \"presets/tiny.toml\"]\n\
             games = 6\nseed = 3\nout = \"{}\"\n",
            out.display()
        ),
    )
    .unwrap();
    // Run from a folder that holds neither the script nor the preset.
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let o = sim(
        &["experiment", "../specs/ext.toml", "--threads", "1"],
        &elsewhere,
    );
    assert!(
        o.status.success(),
        "{}\n{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    let agents = fs::read_to_string(out.join("agents.csv")).unwrap();
    assert!(agents.contains("ext:cmd=python3"), "{agents}");
    assert!(
        agents.contains("../specs/examples/python/random_bot.py"),
        "the script path is the spec folder's: {agents}"
    );
    assert!(agents.contains("iters=8"), "the preset was read: {agents}");
    let rows: Vec<&str> = summary.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{summary}");
    for r in rows {
        assert_eq!(r.split(',').nth(1), Some("6"), "6 games each: {summary}");
    }

    // Read from the spec folder's parent, the same paths resolve.
    let o = sim(
        &[
            "experiment",
            "specs/ext.toml",
            "--threads",
            "1",
            "--overwrite",
        ],
        dir.path(),
    );
    assert!(
        o.status.success(),
        "read as specs/ext.toml from its parent: {}",
        text(&o.stderr)
    );
}

#[test]
fn a_malformed_spec_names_the_line_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.toml");
    fs::write(
        &spec,
        "name = \"bad\"\nkind = \"tournament\"\ngame = \"daxu\"\nagents = [\"random\"]\n\
         games = \"ten\"\nseed = 1\nout = \"never\"\n",
    )
    .unwrap();
    let o = sim(&["experiment", "bad.toml"], dir.path());
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("line 5"), "{err}");
    assert!(err.contains("games"), "{err}");
    assert!(err.contains("bad.toml"), "{err}");
    assert!(!dir.path().join("never").exists());
}
