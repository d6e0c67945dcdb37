//! Property tests (proptest) of the rules engines and of the readers of user input:
//! - every game, played along arbitrary legal action sequences (proptest picks the index
//!   into the legal list at each decision), keeps the conformance contracts at every node,
//!   and its position saved where the sequence ends loads back equal and plays on
//!   identically ([`tabletop_sim::testing::check_scripted_game`]);
//! - agent specs: arbitrary strings never panic the parser, the canonicalizer or the
//!   builder; specs built from the kinds' parameter tables that are accepted round-trip
//!   through their canonical form;
//! - `--variant key=value` settings of every game: arbitrary settings never panic (parsing,
//!   then building the rules at every player count); valid values round-trip through the
//!   canonical form;
//! - experiment specs and agent preset files: arbitrary TOML-ish text never panics, and is
//!   refused as bad input unless it is a valid spec.
//!
//! Every property runs a modest, fixed number of cases from a fixed seed (the suite must
//! stay fast and deterministic on 2-core CI); `PROPTEST_CASES` raises the count for a
//! longer local run.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use tabletop_sim::game::{GameState, Playable};
use tabletop_sim::games::{GameVisitor, daxu, goofspiel, kuhn, qax, race, visit_all};
use tabletop_sim::params::ParamSet;
use tabletop_sim::testing::check_scripted_game;

/// `cases` cases from a fixed seed, no regression files.
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(12),
        failure_persistence: None,
        ..Config::default()
    }
}

/// [`scripted`] for every registered game, under the default rules.
struct Scripted<'a> {
    players: usize,
    seed: u64,
    choices: &'a [u32],
}

impl GameVisitor for Scripted<'_> {
    fn visit<G: Playable>(&mut self) {
        scripted::<G>(&[], self.players, self.seed, self.choices);
    }
}

/// Plays `choices` in game `G` at `players` (clamped into the game's range) with the
/// default rules plus `variant`.
fn scripted<G: Playable>(variant: &[&str], players: usize, seed: u64, choices: &[u32]) {
    let (min, max) = G::PLAYERS;
    let players = min + players % (max - min + 1);
    let params = G::Params::from_settings(variant, "test").unwrap();
    if let Err(e) = check_scripted_game::<G>(&params, players, seed, choices) {
        panic!(
            "{} at {players} players, seed {seed}, choices {choices:?}: {e}",
            G::NAME
        );
    }
}

fn choices(max_len: usize) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(any::<u32>(), 0..max_len)
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn daxu_keeps_its_contracts_along_any_legal_sequence(
        seed in any::<u64>(), c in choices(40), tiebreak in any::<bool>()
    ) {
        let v: &[&str] = if tiebreak { &["tiebreak_mode=holder_receives"] } else { &[] };
        scripted::<daxu::State>(v, 2, seed, &c);
    }

    /// Every registered game (from the registry, so a new game is fuzzed by being
    /// registered), under its default rules.
    #[test]
    fn every_registered_game_keeps_its_contracts_along_any_legal_sequence(
        seed in any::<u64>(), p in 0usize..3, c in choices(120)
    ) {
        visit_all(&mut Scripted { players: p, seed, choices: &c });
    }

    #[test]
    fn kuhn_goofspiel_and_race_keep_their_contracts_along_any_legal_sequence(
        seed in any::<u64>(), p in 0usize..3, c in choices(30)
    ) {
        scripted::<kuhn::State>(&[], p, seed, &c);
        scripted::<goofspiel::State>(&["num_cards=6"], p, seed, &c);
        scripted::<goofspiel::State>(&["num_cards=5", "imp_info=true"], p, seed, &c);
        scripted::<race::Race>(&[], p, seed, &c);
    }
}

proptest! {
    // Q.A.X. games run to thousands of plies when played at random: a round limit keeps
    // the random finish short (the scripted part is checked in full either way).
    #![proptest_config(config(16))]

    #[test]
    fn qax_keeps_its_contracts_along_any_legal_sequence(
        seed in any::<u64>(), p in 0usize..3, c in choices(150)
    ) {
        scripted::<qax::State>(&["max_rounds=40"], p, seed, &c);
    }
}

// --- agent specs ----------------------------------------------------------------------------

/// A spec built from the agent kinds' parameter tables: a kind, then some of its
/// parameters with plausible values (ints, floats, words of an enum, bools), sometimes a
/// value of the wrong type.
fn agent_spec() -> impl Strategy<Value = String> {
    let kinds = tabletop_sim::agents::kinds();
    let n = kinds.len();
    (
        0..n,
        proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..10), 0..4),
    )
        .prop_map(move |(k, picks)| {
            let kind = &kinds[k];
            let mut settings = Vec::new();
            for (i, v, style) in picks {
                if kind.params.is_empty() {
                    break;
                }
                let p = &kind.params[i % kind.params.len()];
                let value = match (p.kind.as_str(), style) {
                    (_, 0) => "x".to_string(),
                    ("int", _) => (1 + v as u32 % 40).to_string(),
                    ("float", _) => format!("{}", v as f64 / 255.0),
                    ("bool", _) => (v % 2 == 0).to_string(),
                    (words, _) if words.contains('|') => {
                        let w: Vec<&str> = words.split('|').collect();
                        w[v as usize % w.len()].to_string()
                    }
                    _ => p.default.clone(),
                };
                settings.push(format!("{}={value}", p.name));
            }
            if settings.is_empty() {
                kind.name.to_string()
            } else {
                format!("{}:{}", kind.name, settings.join(","))
            }
        })
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn arbitrary_agent_specs_never_panic(s in "\\PC{0,40}") {
        let _ = tabletop_sim::agents::AgentSpec::parse(&s);
        let _ = tabletop_sim::agents::canonicalize(&s);
        let _ = tabletop_sim::agents::build::<kuhn::State>(&s).map(|a| a.spec());
    }

    #[test]
    fn spec_like_strings_never_panic(
        s in "(random|greedy|mcts|ismcts|cfr|mcts-fast|bogus)(:([a-z_]{0,8}(=[-0-9a-z.]{0,6})?,?){0,4})?"
    ) {
        match tabletop_sim::agents::canonicalize(&s) {
            Ok(c) => prop_assert_eq!(tabletop_sim::agents::canonicalize(&c).unwrap(), c),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn valid_agent_specs_round_trip_through_their_canonical_form(spec in agent_spec()) {
        match tabletop_sim::agents::canonicalize(&spec) {
            Ok(canonical) => {
                prop_assert_eq!(
                    tabletop_sim::agents::canonicalize(&canonical).unwrap(),
                    canonical.clone()
                );
                let agent = tabletop_sim::agents::build::<daxu::State>(&spec).unwrap();
                let defaults = tabletop_sim::games::defaults_of(<daxu::State as GameState>::NAME);
                prop_assert_eq!(
                    agent.spec(),
                    tabletop_sim::agents::canonicalize_with(&spec, defaults).unwrap()
                );
            }
            Err(e) => {
                // Only a value of the wrong type or out of range is refused, naming it.
                let msg = e.to_string();
                prop_assert!(msg.contains("bad value") || msg.contains("invalid"), "{spec}: {msg}");
            }
        }
    }
}

// --- rule variants --------------------------------------------------------------------------

/// Arbitrary settings never panic parsing or building the rules at any count, and settings
/// built from the parameter table (every parameter's own words, defaults, and a few
/// arbitrary values) either fail with a message or give rules whose canonical form parses
/// back to the same parameters.
fn variants_hold<G: Playable>(raw: &[String], picks: &[(usize, u8, u8)]) {
    let _ = G::Params::from_settings(raw, "fuzz").map(|p| {
        for n in G::PLAYERS.0..=G::PLAYERS.1 {
            let _ = tabletop_sim::game::rules::<G>(&p, n);
        }
    });
    let info = G::Params::info();
    if info.is_empty() {
        return;
    }
    let mut settings = Vec::new();
    for &(i, v, style) in picks {
        let p = &info[i % info.len()];
        let value = match style % 6 {
            0 => p.default.clone(),
            1 => (v as u32).to_string(),
            2 => "none".into(),
            3 => String::from_utf8_lossy(&[b'a' + v % 26, b'/', b'0' + v % 10]).into_owned(),
            _ if p.kind.contains('|') => {
                let w: Vec<&str> = p.kind.split('|').collect();
                w[v as usize % w.len()].to_string()
            }
            _ => (v % 2 == 0).to_string(),
        };
        settings.push(format!("{}={value}", p.name));
    }
    let Ok(params) = G::Params::from_settings(&settings, "fuzz") else {
        return;
    };
    let again: Vec<String> = params
        .values()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let back = G::Params::from_settings(&again, "fuzz")
        .unwrap_or_else(|e| panic!("{}: canonical {again:?} refused: {e}", G::NAME));
    assert_eq!(back, params, "{}: {settings:?}", G::NAME);
    for n in G::PLAYERS.0..=G::PLAYERS.1 {
        if let Ok(rules) = tabletop_sim::game::rules::<G>(&params, n) {
            let back = G::Params::from_settings(&rules.variant(), "fuzz").unwrap();
            assert_eq!(back, params, "{} at {n}", G::NAME);
        }
    }
}

/// [`variants_hold`] for every registered game.
struct Variants<'a> {
    raw: &'a [String],
    picks: &'a [(usize, u8, u8)],
}

impl GameVisitor for Variants<'_> {
    fn visit<G: Playable>(&mut self) {
        variants_hold::<G>(self.raw, self.picks);
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn variant_settings_never_panic_and_round_trip(
        raw in proptest::collection::vec("[a-z_]{0,12}=?\\PC{0,12}", 0..3),
        picks in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 0..4),
    ) {
        visit_all(&mut Variants { raw: &raw, picks: &picks });
        variants_hold::<race::Race>(&raw, &picks);
    }
}

// --- experiment specs and presets ----------------------------------------------------------

/// TOML-ish experiment specs: every field from a pool of valid and invalid values, in any
/// subset, sometimes with an unknown field or broken syntax. Valid specs are tiny (Kuhn,
/// two games).
fn experiment_text() -> impl Strategy<Value = String> {
    let field = prop_oneof![
        Just("name = \"fuzz\"".to_string()),
        Just("name = 3".to_string()),
        prop_oneof![
            Just("tournament"),
            Just("ladder"),
            Just("endgame"),
            Just("bogus")
        ]
        .prop_map(|k| format!("kind = \"{k}\"")),
        prop_oneof![Just("kuhn"), Just("chess"), Just("")].prop_map(|g| format!("game = \"{g}\"")),
        prop_oneof![
            Just("[\"random\"]"),
            Just("[]"),
            Just("[\"random\", \"greedy\"]"),
            Just("[\"bogus:x=1\"]"),
            Just("[\"mcts:iters=0\"]"),
            Just("\"random\""),
        ]
        .prop_map(|a| format!("agents = {a}")),
        prop_oneof![Just("0"), Just("1"), Just("2"), Just("-1"), Just("\"x\"")]
            .prop_map(|n| format!("games = {n}")),
        prop_oneof![Just("1"), Just("2"), Just("7"), Just("-3")]
            .prop_map(|n| format!("players = {n}")),
        prop_oneof![
            Just("0"),
            Just("18446744073709551615"),
            Just("-1"),
            Just("1.5")
        ]
        .prop_map(|n| format!("seed = {n}")),
        Just("variant = [\"x=1\"]".to_string()),
        Just("variant = [\"\"]".to_string()),
        Just("positions = 1".to_string()),
        Just("max_deck = 300".to_string()),
        Just("samples = 0".to_string()),
        Just("sampler = \"random\"".to_string()),
        Just("[sweep]\nplayers = [2]".to_string()),
        Just("[sweep]\nbogus = [1]".to_string()),
        Just("[sweep]\nagents = [[\"random\"], \"x\"]".to_string()),
        Just("unknown = 1".to_string()),
        "\\PC{0,20}",
    ];
    proptest::collection::vec(field, 0..10).prop_map(|fields| fields.join("\n"))
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn experiment_specs_never_panic_and_bad_ones_are_bad_input(body in experiment_text()) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let path = dir.path().join("spec.toml");
        // Every spec writes into the temporary directory.
        let text = format!("out = {:?}\n{body}", out.display().to_string());
        std::fs::write(&path, &text).unwrap();
        let _ = tabletop_sim::experiments::Spec::load(&path);
        if let Err(e) = tabletop_sim::experiments::run(&path, Some(1)) {
            prop_assert!(!e.to_string().is_empty());
            if tabletop_sim::experiments::Spec::load(&path).is_err() {
                prop_assert!(e.is_bad_input(), "{text}\n{e}");
            }
        }
    }

    #[test]
    fn preset_files_never_panic(body in "(kind = \"(mcts|bogus)\"\n)?(description = \"d\"\n)?(\\[params\\]\n)?([a-z]{1,6} = (1|\"x\"|true|1.5)\n){0,3}\\PC{0,10}") {
        if let Ok(p) = tabletop_sim::agents::presets::parse("fuzz", &body) {
            let _ = tabletop_sim::agents::canonicalize(&p.spec());
        }
    }
}

// --- the sim soak command -----------------------------------------------------------------

/// `sim soak` plays, checks and reports; bad input is exit 2 naming the value.
#[test]
fn sim_soak_reports_and_refuses_bad_input() {
    use crate::common::{sim, text};
    let dir = tempfile::tempdir().unwrap();
    let out = sim(
        &[
            "soak", "--game", "race", "-n", "90", "--seed", "4", "--out", "r.toml",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("90 games ("), "{stdout}");
    assert!(stdout.contains("failures: 0"), "{stdout}");
    let report = std::fs::read_to_string(dir.path().join("r.toml")).unwrap();
    assert!(report.contains("games = 90") && report.contains("interrupted = false"));
    assert!(report.contains("allocation_checked_plies"), "{report}");
    for (args, needle) in [
        (vec!["--game", "chess"], "valid games"),
        (vec!["--game", "daxu", "-n", "-5"], "-5"),
        (vec!["--game", "daxu", "--mix", "bogus"], "greedy-random"),
        (vec!["--game", "daxu", "--players", "3"], "3"),
        (vec!["--game", "daxu", "--variant", "deck=x"], "deck"),
        (vec!["--game", "daxu", "--check-every", "0"], "at least 1"),
    ] {
        let mut a = vec!["soak"];
        a.extend(&args);
        let out = sim(&a, dir.path());
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(needle),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

// --- the merge reader ------------------------------------------------------------------------

/// A valid shard games file of games `start..end` at 2 players (csv text).
fn shard_rows(start: u64, end: u64) -> (Vec<u8>, Vec<u8>) {
    let header = b"game,seed,variant,seat,agent,score,rank,won,draw,plies,rounds,end\n".to_vec();
    let mut v = header.clone();
    for g in start..end {
        for s in 0..2 {
            v.extend_from_slice(
                format!(
                    "{g},{},default,{s},random,{},1,0,1,9,3,done\n",
                    g * 7,
                    g % 5
                )
                .as_bytes(),
            );
        }
    }
    (header, v)
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

proptest! {
    #![proptest_config(config(64))]

    /// Arbitrary bytes, as csv or as gz, never panic the merge reader: they are refused
    /// with an error naming the games file.
    #[test]
    fn the_merge_reader_refuses_arbitrary_bytes_without_panicking(
        bytes in proptest::collection::vec(any::<u8>(), 0..400), gz_mode in any::<bool>()
    ) {
        let (header, _) = shard_rows(0, 0);
        let r = tabletop_sim::tournament::merge::check_games_bytes(&bytes, gz_mode, &header, 2, 32, 36);
        prop_assert!(r.is_err());
        prop_assert!(r.unwrap_err().is_bad_input());
    }

    /// A valid file cut anywhere is refused (never accepted short); one with a byte
    /// changed is accepted or refused as bad input, never a panic; intact it is accepted.
    #[test]
    fn the_merge_reader_refuses_truncated_or_altered_files(
        cut in any::<prop::sample::Index>(), flip in any::<prop::sample::Index>(),
        byte in any::<u8>(), gz_mode in any::<bool>()
    ) {
        use tabletop_sim::tournament::merge::check_games_bytes;
        let (header, full) = shard_rows(64, 70);
        let enc = |b: &[u8]| if gz_mode { gz(b) } else { b.to_vec() };
        prop_assert!(check_games_bytes(&enc(&full), gz_mode, &header, 2, 64, 70).is_ok());
        let at = cut.index(full.len());
        let r = check_games_bytes(&enc(&full[..at]), gz_mode, &header, 2, 64, 70);
        prop_assert!(r.is_err(), "accepted a file cut at {}", at);
        let mut altered = full.clone();
        let i = flip.index(full.len());
        // A changed score or label may still be a valid row: only no panic is asked.
        if altered[i] != byte {
            altered[i] = byte;
            if let Err(e) = check_games_bytes(&enc(&altered), gz_mode, &header, 2, 64, 70) {
                prop_assert!(e.is_bad_input());
            }
        }
        // A compressed file cut inside is refused too.
        if gz_mode {
            let z = gz(&full);
            let at = cut.index(z.len());
            prop_assert!(check_games_bytes(&z[..at], true, &header, 2, 64, 70).is_err());
        }
    }
}
