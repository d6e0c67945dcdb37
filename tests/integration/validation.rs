//! Saved positions that no game could reach are refused (issue 26, item 7): for Daxu,
//! Dunhuang, Q.A.X. and Daimyo, a position saved mid-game is edited one field at a time
//! (impossible counters, an inconsistent phase, cards, coins, pieces or units created or
//! lost) and every edit must be refused by the loader naming the field; `sim play --start`
//! and `sim analyze --state` exit 2 naming it. And the other way round: every position
//! reached in random games (and every determinization the conformance harness makes)
//! validates, so validation never refuses a legal position.

use serde_json::Value;

use crate::common::{sim, text};
use tabletop_sim::game::{GameState, Playable, default_rules, play_ply};
use tabletop_sim::games::{daimyo, daxu, dunhuang, qax};
use tabletop_sim::position::Position;
use tabletop_sim::rng::test_rng;

/// A position of `G` after `plies` random plies of game `seed` (or the end, if sooner).
fn mid_game<G: Playable>(seed: u64, plies: u32) -> G {
    let mut rng = test_rng(seed);
    let mut buf = Vec::new();
    let mut s = G::new_game(default_rules::<G>(), &mut rng);
    while s.ply() < plies
        && play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r)).is_some()
    {}
    s
}

/// The first position of random games (seeds from 0) that satisfies `want`.
fn first_where<G: Playable>(want: impl Fn(&G) -> bool) -> G {
    let mut buf = Vec::new();
    for seed in 0..1000 {
        let mut rng = test_rng(seed);
        let mut s = G::new_game(default_rules::<G>(), &mut rng);
        loop {
            if want(&s) {
                return s;
            }
            if play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r)).is_none() {
                break;
            }
        }
    }
    panic!("no such position in 1000 random games");
}

/// One edit: what it does, the change to the saved `state` object, and the text the
/// refusal must contain (the field).
type Edit = (&'static str, fn(&mut Value), &'static str);

fn set(v: &mut Value, pointer: &str, to: Value) {
    *v.pointer_mut(pointer)
        .unwrap_or_else(|| panic!("no {pointer} in the saved state")) = to;
}

fn add(v: &mut Value, pointer: &str, d: i64) {
    let x = v
        .pointer(pointer)
        .and_then(Value::as_i64)
        .unwrap_or_else(|| panic!("{pointer}"));
    set(v, pointer, (x + d).into());
}

/// Applies every edit to the saved `state` of `base` and checks the refusal; returns how
/// many edits were refused (all of them, or the test fails).
fn refuses_every_edit<G: Playable>(base: &G, edits: &[Edit]) -> usize {
    let good = Position::new(base.clone()).to_json();
    Position::<G>::from_json(&good).expect("the unedited position loads");
    for (what, edit, needle) in edits {
        let mut v: Value = serde_json::from_str(&good).unwrap();
        edit(&mut v["state"]);
        match Position::<G>::from_json(&v.to_string()) {
            Ok(_) => panic!("{}: the edit '{what}' was accepted", G::NAME),
            Err(e) => {
                let e = e.to_string();
                assert!(
                    e.contains(needle),
                    "{}: '{what}' refused without naming '{needle}': {e}",
                    G::NAME
                );
            }
        }
    }
    edits.len()
}

#[test]
fn daxu_refuses_the_issues_edits_naming_the_field() {
    // A Cooperate/Undermine decision of seat 0 with cards left in the deck.
    let s: daxu::State = first_where(|s: &daxu::State| {
        matches!(
            s.phase(),
            daxu::Phase::Decide {
                decider: 0,
                tiebreak: false
            }
        ) && s.deck_len() >= 3
    });
    let edits: &[Edit] = &[
        ("ply 65535", |v| set(v, "/ply", 65535.into()), "ply = 65535"),
        (
            "round 0 in play",
            |v| set(v, "/round", 0.into()),
            "round = 0",
        ),
        ("round 200", |v| set(v, "/round", 200.into()), "round = 200"),
        (
            "deck_len 0 with cards left",
            |v| set(v, "/deck_len", 0.into()),
            "deck_len = 0",
        ),
        (
            "deck_len beyond the deck",
            |v| set(v, "/deck_len", 40.into()),
            "deck_len = 40",
        ),
        (
            "phase over with cards left",
            |v| set(v, "/phase", "over".into()),
            "phase = over",
        ),
        (
            "phase choose with an empty offer",
            |v| {
                set(v, "/phase", "choose".into());
                set(v, "/offer_len", 0.into());
            },
            "offer_len = 0",
        ),
        (
            "offer longer than the cards flipped",
            |v| set(v, "/offer_len", 35.into()),
            "offer",
        ),
        (
            "unseen_len beyond the box",
            |v| set(v, "/unseen_len", 60.into()),
            "unseen_len = 60",
        ),
        ("holder 2", |v| set(v, "/holder", 2.into()), "holder = 2"),
        ("reputation 9", |v| set(v, "/rep/0", 9.into()), "rep = [9"),
        (
            "a hand without Give",
            |v| set(v, "/hands/1", 14.into()),
            "hands = [15, 14]",
        ),
        (
            "hands emptied with cards in the deck",
            |v| set(v, "/hands", serde_json::json!([3, 3])),
            "hands = [3, 3]",
        ),
        (
            "decider 1 after the underminer 0",
            |v| set(v, "/phase/decide/decider", 1.into()),
            "phase = decide",
        ),
        (
            "a Give/Give pair at a Cooperate/Undermine decision",
            |v| set(v, "/pair", serde_json::json!(["give", "give"])),
            "pair",
        ),
        (
            "a tie-break decision without a tie",
            |v| set(v, "/phase/decide/tiebreak", true.into()),
            "tiebreak",
        ),
        (
            "more cards revealed by one seat",
            |v| add(v, "/played/0/0", 3),
            "played",
        ),
        (
            "tiebreak_uses beyond the plies",
            |v| set(v, "/tiebreak_uses", 200.into()),
            "tiebreak_uses = 200",
        ),
        (
            "20 more cards on a side",
            |v| add(v, "/sides/0/0", 20),
            "sides",
        ),
    ];
    assert_eq!(refuses_every_edit(&s, edits), 19);
}

#[test]
fn dunhuang_refuses_impossible_counters_and_zones_naming_the_field() {
    let s: dunhuang::State = mid_game(5, 12);
    let edits: &[Edit] = &[
        ("ply 99999", |v| set(v, "/ply", 99999.into()), "ply = 99999"),
        (
            "more turns than plies",
            |v| set(v, "/turns", 50.into()),
            "turns = 50",
        ),
        (
            "the wrong seat active",
            |v| add(v, "/active", -1),
            "active = ",
        ),
        (
            "phase over without an end",
            |v| set(v, "/phase", "over".into()),
            "phase = over",
        ),
        (
            "camel off the circle",
            |v| set(v, "/camel", 9.into()),
            "camel = 9",
        ),
        (
            "first not a seat",
            |v| set(v, "/first", 7.into()),
            "first, active",
        ),
        (
            "an instant winner mid-game",
            |v| set(v, "/winner", 1.into()),
            "winner = 1",
        ),
        (
            "a Market card twice",
            |v| {
                let c = v["market"][0].clone();
                set(v, "/market/1", c);
            },
            "market",
        ),
        (
            "a token held by seat 7",
            |v| set(v, "/holder/2", 7.into()),
            "holder[2] = 7",
        ),
        (
            "steps beyond the most",
            |v| set(v, "/steps", 200.into()),
            "steps = 200",
        ),
        (
            "a character twice",
            |v| {
                let c = v["tiles"][0].clone();
                set(v, "/tiles/1", c);
            },
            "tiles",
        ),
    ];
    assert_eq!(refuses_every_edit(&s, edits), 11);
}

#[test]
fn qax_refuses_impossible_counters_coins_and_pieces_naming_the_field() {
    let s: qax::State = mid_game(5, 60);
    assert!(
        s.round() >= 1,
        "a position after the setup: round {}",
        s.round()
    );
    let edits: &[Edit] = &[
        (
            "ply 999999",
            |v| set(v, "/ply", 999_999.into()),
            "ply = 999999",
        ),
        (
            "round 1001",
            |v| set(v, "/round", 1001.into()),
            "round = 1001",
        ),
        (
            "round 0 in a turn",
            |v| set(v, "/round", 0.into()),
            "round = 0",
        ),
        (
            "5 coins from nowhere",
            |v| add(v, "/coins/0", 5),
            "bank_coins",
        ),
        (
            "a coin lost from the bank",
            |v| add(v, "/bank", -1),
            "bank_coins",
        ),
        (
            "an end without a winner",
            |v| set(v, "/end", 1.into()),
            "end = 1",
        ),
        (
            "a winner mid-game",
            |v| set(v, "/winner", 0.into()),
            "winner = 0",
        ),
        (
            "phase over without an end",
            |v| set(v, "/phase", "over".into()),
            "end = 0",
        ),
        ("a piece lost", |v| add(v, "/placed/0", -1), "placed[0]"),
        ("actor 7", |v| set(v, "/actor", 7.into()), "actor = 7"),
        (
            "9 movements left",
            |v| set(v, "/left", 9.into()),
            "left = 9",
        ),
        (
            "an Index rating of 9",
            |v| set(v, "/index/0", 9.into()),
            "index = [9",
        ),
        (
            // Once a panic: the message read `at[200]` of the 36 fields.
            "field id 200 on a cell",
            |v| {
                let cells = v["field"].as_array().expect("field is a list");
                let c = cells.iter().position(|x| x != 255).expect("a field");
                set(v, &format!("/field/{c}"), 200.into());
            },
            "field: 200 on",
        ),
    ];
    assert_eq!(refuses_every_edit(&s, edits), 13);
}

#[test]
fn daimyo_refuses_impossible_counters_cards_resources_and_units_naming_the_field() {
    let s: daimyo::State = mid_game(5, 12);
    assert!(s.sp >= 1, "a position with a pending effect: sp {}", s.sp);
    let edits: &[Edit] = &[
        ("round 0", |v| set(v, "/round", 0.into()), "round = 0"),
        ("round 99", |v| set(v, "/round", 99.into()), "round = 99"),
        (
            "phase over in round 1",
            |v| set(v, "/phase", "over".into()),
            "phase = over",
        ),
        ("ply 30000", |v| set(v, "/ply", 30000.into()), "ply = 30000"),
        ("actor 5", |v| set(v, "/actor", 5.into()), "actor = 5"),
        ("helmet 9", |v| set(v, "/helmet", 9.into()), "helmet = 9"),
        (
            "turn_index 100",
            |v| set(v, "/turn_index", 100.into()),
            "turn_index = 100",
        ),
        (
            "a Rice from nowhere",
            |v| add(v, "/seats/0/res/0", 1),
            "supply[0]",
        ),
        ("the supply grows", |v| add(v, "/supply/2", 1), "supply[2]"),
        (
            "a Hero in the market twice",
            |v| {
                let h = v["market"][0].clone();
                set(v, "/top", h);
            },
            "Hero",
        ),
        (
            "the market deck lost",
            |v| set(v, "/hero_deck", 0.into()),
            "Heroes",
        ),
        (
            "a die showing 7",
            |v| set(v, "/die_value/1", 7.into()),
            "die_value[1] = 7",
        ),
        (
            "a die on seat 10's board",
            |v| set(v, "/die_loc/1", 0x50.into()),
            "die_loc[1]",
        ),
        (
            "a die in play marked unused",
            |v| set(v, "/die_loc/2", 0xF2.into()),
            "die 2",
        ),
        (
            "a stack deeper than its depth",
            |v| set(v, "/sp", 13.into()),
            "sp = 13",
        ),
        ("frames above sp", |v| set(v, "/sp", 0.into()), "stack[0]"),
        (
            "a Relic tile from nowhere",
            |v| add(v, "/bag/0", 1),
            "Relic tile kind 0",
        ),
        (
            "a Governor from nowhere",
            |v| add(v, "/seats/0/governors", 1),
            "seats[0].governors",
        ),
        (
            "a Shadow from nowhere",
            |v| add(v, "/seats/1/shadows", 1),
            "seats[1].shadows",
        ),
        (
            "a building from nowhere",
            |v| add(v, "/seats/0/built/1", 1),
            "seats[0].built",
        ),
    ];
    assert_eq!(refuses_every_edit(&s, edits), 20);
}

/// Every state of `games` random games of `G` (seeds 0..games) validates and survives
/// a save and a load.
fn every_reached_position_validates<G: Playable>(games: u64) -> u64 {
    let mut buf = Vec::new();
    let mut checked = 0;
    for seed in 0..games {
        let mut rng = test_rng(seed);
        let mut s = G::new_game(default_rules::<G>(), &mut rng);
        loop {
            if let Err(e) = s.validate() {
                panic!(
                    "{} game {seed}, ply {}: a reached position fails validate: {e}",
                    G::NAME,
                    s.ply()
                );
            }
            if s.ply() % 7 == 0 {
                let text = Position::new(s.clone()).to_json();
                Position::<G>::from_json(&text)
                    .unwrap_or_else(|e| panic!("{} game {seed}, ply {}: {e}", G::NAME, s.ply()));
            }
            checked += 1;
            if play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r)).is_none() {
                break;
            }
        }
    }
    checked
}

#[test]
fn every_position_reached_in_random_games_validates() {
    assert!(every_reached_position_validates::<daxu::State>(300) > 300 * 10);
    assert!(every_reached_position_validates::<dunhuang::State>(40) > 40 * 50);
    assert!(every_reached_position_validates::<qax::State>(20) > 20 * 50);
    assert!(every_reached_position_validates::<daimyo::State>(4) > 4 * 100);
}

#[test]
fn play_start_and_analyze_exit_2_naming_the_field_of_an_impossible_position() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let cases: [(&str, String, &str, &str); 4] = [
        (
            "daxu",
            Position::new(mid_game::<daxu::State>(5, 12)).to_json(),
            "/ply",
            "ply = 65535",
        ),
        (
            "dunhuang",
            Position::new(mid_game::<dunhuang::State>(5, 12)).to_json(),
            "/ply",
            "ply = 65535",
        ),
        (
            "qax",
            Position::new(mid_game::<qax::State>(5, 60)).to_json(),
            "/ply",
            "ply = 65535",
        ),
        (
            "daimyo",
            Position::new(mid_game::<daimyo::State>(5, 12)).to_json(),
            "/ply",
            "ply = 65535",
        ),
    ];
    for (game, good, pointer, needle) in cases {
        let mut v: Value = serde_json::from_str(&good).unwrap();
        set(&mut v["state"], pointer, 65535.into());
        let file = format!("{game}.json");
        std::fs::write(dir.join(&file), v.to_string()).unwrap();
        for args in [
            vec!["play", "--agents", "random", "--start", &file],
            vec![
                "analyze", "--game", game, "--state", &file, "--agent", "random",
            ],
        ] {
            let o = sim(&args, dir);
            let e = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
            assert!(e.contains(needle) && e.contains(&file), "{args:?}: {e}");
        }
    }
}
