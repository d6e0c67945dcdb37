//! `sim info`: the static facts and the facts under a player count, as text and JSON, for
//! every registered game; bad input exits with 2 naming the valid choices.

use crate::common::{ok, sim, text};
use tabletop_sim::game::{GameInfo, rules};
use tabletop_sim::games::{GameVisitor, NAMES, visit_all};

/// The JSON of `sim info` equals the library's [`GameInfo`] for every game and player count.
struct SameAsLibrary;

impl GameVisitor for SameAsLibrary {
    fn visit<G: tabletop_sim::Playable>(&mut self) {
        let dir = std::env::temp_dir();
        for n in G::PLAYERS.0..=G::PLAYERS.1 {
            let out = ok(
                &[
                    "info",
                    "--game",
                    G::NAME,
                    "--players",
                    &n.to_string(),
                    "--format",
                    "json",
                ],
                &dir,
            );
            let got: serde_json::Value = serde_json::from_str(&out).unwrap();
            let want = serde_json::to_value(GameInfo::of::<G>(
                &rules::<G>(&Default::default(), n).unwrap(),
            ))
            .unwrap();
            assert_eq!(got, want, "{} at {n}", G::NAME);
            assert_eq!(got["short_name"], G::NAME);
            assert_eq!(got["players"], n);
            let shape = got["observation_shape"][0].as_u64().unwrap() as usize;
            let fields: usize = got["observation_layout"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["len"].as_u64().unwrap() as usize)
                .sum();
            assert_eq!(
                shape,
                fields,
                "{}: the shape is the layout's length",
                G::NAME
            );
        }
    }
}

#[test]
fn json_matches_the_library_for_every_game_and_player_count() {
    visit_all(&mut SameAsLibrary);
}

#[test]
fn text_names_the_facts() {
    let dir = std::env::temp_dir();
    let out = ok(&["info", "--game", "goofspiel", "--players", "3"], &dir);
    for want in [
        "Goofspiel (goofspiel)",
        "players            3 (2 to 4 players; default 2)",
        "dynamics           simultaneous",
        "information        perfect",
        "action ids         16",
        "max game length    13 plies",
        "observation layout",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}

#[test]
fn bad_input_exits_2_naming_the_valid_choices() {
    let dir = std::env::temp_dir();
    for (args, says) in [
        (vec!["info", "--game", "chess"], NAMES.join(", ")),
        (
            vec!["info", "--game", "daxu", "--players", "3"],
            "exactly 2 players".into(),
        ),
        (
            vec!["info", "--game", "daxu", "--variant", "deck=x"],
            "deck".into(),
        ),
        (
            vec!["info", "--game", "daxu", "--format", "xml"],
            "json".into(),
        ),
    ] {
        let o = sim(&args, &dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(&says), "{args:?}: {err}");
    }
}

/// `sim analyze --observation` prints every seat's tensor with its field names: one CSV
/// row per (seat, element), in the layout's order, and the table names every field.
#[test]
fn analyze_prints_the_observation_tensor_field_by_field() {
    let dir = tempfile::tempdir().unwrap();
    let pos = dir.path().join("pos.json");
    let pos = pos.to_str().unwrap();
    ok(
        &[
            "play",
            "--game",
            "dunhuang",
            "--players",
            "3",
            "--agents",
            "random",
            "--seed",
            "5",
            "--save-at",
            "6",
            pos,
        ],
        dir.path(),
    );
    let info = GameInfo::of::<tabletop_sim::games::dunhuang::State>(
        &rules(&Default::default(), 3).unwrap(),
    );
    let analyze = |extra: &[&str]| {
        let mut args = vec![
            "analyze",
            "--game",
            "dunhuang",
            "--state",
            pos,
            "--observation",
        ];
        args.extend_from_slice(extra);
        sim(&args, dir.path())
    };
    let csv = text(&analyze(&["--format", "csv"]).stdout);
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(csv.lines().next(), Some("seat,field,index,value"));
    assert_eq!(rows.len(), 3 * info.observation_shape[0]);
    let table = text(&analyze(&["--seat", "2"]).stdout);
    assert!(table.contains("observation of seat 2:"));
    assert!(!table.contains("observation of seat 0:") && !table.contains("observation of seat 1:"));
    for f in &info.observation_layout {
        assert!(
            table.contains(&format!("  {} [{}]: ", f.name, f.len)),
            "{}",
            f.name
        );
    }
    let o = analyze(&["--seat", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("seats 0 to 2"));
}
