//! Rule tests traced to qax.txt and GAPS.md §3, perft counts, the conformance harness and
//! golden playthroughs.

use super::*;
use crate::game::{Game, Player, Turn, random_playout, rules};
use crate::params::ParamSet;
use crate::rng::test_rng;

fn params(settings: &[&str]) -> Params {
    Params::from_settings(settings, "game qax").unwrap()
}

#[test]
#[ignore]
fn random_game_lengths() {
    let mut buf = Vec::new();
    for n in 2..=4 {
        let r = rules::<State>(&Params::default(), n).unwrap();
        let mut rng = test_rng(n as u64);
        let mut plies = 0;
        let mut limit = 0;
        let mut rounds = 0;
        for _ in 0..200 {
            let mut s = State::new_game(r, &mut rng);
            random_playout(&mut s, &mut buf, &mut rng);
            plies += s.ply();
            rounds += s.round();
            limit += (s.end_condition() == "round_limit") as u32;
        }
        eprintln!(
            "{n}p: mean plies {} rounds {} limit {limit}",
            plies / 200,
            rounds / 200
        );
    }
}

/// Conservation: coins + bank = bank_coins, 36 fields on the play area after setup, 36
/// shares (held or on the table, by construction), 3 pieces per seat once placed.
fn invariants(s: &State) -> Result<(), String> {
    s.validate()?;
    let placed = (0..NUM_FIELDS as u8)
        .filter(|&f| s.cell_of(f).is_some())
        .count();
    let setup_fields = matches!(s.phase(), Phase::ChooseField | Phase::PlaceField { .. });
    if !setup_fields && placed != NUM_FIELDS {
        return Err(format!("{placed} fields on the play area"));
    }
    let total: u32 = s.coins()[..s.num_players()]
        .iter()
        .map(|&c| c as u32)
        .sum::<u32>()
        + s.bank() as u32;
    if total != s.rules().params().bank_coins {
        return Err(format!("coins not conserved: {total}"));
    }
    Ok(())
}

fn conformance(settings: &[&str], players: usize, games: usize, seed: u64) {
    let hidden = |s: &State, obs: Player| {
        let mut h = 0u64;
        for f in 0..NUM_FIELDS {
            if s.cell_of(f as u8).is_none() && s.dealt[f] as Player != obs {
                h = crate::rng::mix64(h ^ ((f as u64) << 8) ^ s.dealt[f] as u64);
            }
        }
        h
    };
    let p = params(settings);
    let players_setup = p.field_setup == FieldSetup::Players;
    let cfg = crate::testing::Conformance::<State> {
        params: p,
        players,
        games,
        seed,
        invariants: &invariants,
        hidden: if players_setup { Some(&hidden) } else { None },
        resamples: 2,
        determinize_every: 7,
    };
    let rep = crate::testing::check_random_games(&cfg).unwrap();
    assert_eq!(rep.games, games);
    // At 2 players the other hand is every unplaced field not in one's own: nothing hidden.
    if players_setup && players > 2 {
        assert!(rep.hidden_changes > 0, "determinize resamples the hands");
    }
}

#[test]
fn conformance_2p() {
    conformance(&["max_rounds=12"], 2, 6, 1);
    conformance(&["win_coins=9"], 2, 4, 2);
}

#[test]
fn conformance_3p() {
    conformance(&["max_rounds=8"], 3, 5, 3);
    conformance(&["win_coins=9"], 3, 4, 4);
}

#[test]
fn conformance_4p() {
    conformance(&["max_rounds=6"], 4, 5, 5);
    conformance(&["win_coins=9"], 4, 4, 6);
}

#[test]
fn conformance_variants() {
    conformance(
        &[
            "max_rounds=6",
            "field_setup=players",
            "attack_relocation=split",
            "start_rule=any_stack",
            "piece_placement=one_stack",
        ],
        3,
        3,
        7,
    );
    conformance(
        &[
            "max_rounds=6",
            "income_timing=after_trade",
            "unaffordable_attack=no_purchase",
            "trade_after_attack=none",
            "baisse_when_broke=forbid_move",
            "diagonal_rule=one_orthogonal_field",
            "first_start_player=random",
            "placement_first=left_of_start",
            "limit_tiebreak=coins_plus_shares",
            "board=4x9",
        ],
        4,
        3,
        8,
    );
    conformance(
        &[
            "max_rounds=6",
            "combined_attack=false",
            "diagonal_rule=both_orthogonal_fields",
            "board=3x12",
            "field_setup=players",
        ],
        2,
        3,
        9,
    );
}

#[test]
fn debug_empty_legal() {
    for set in [
        &[
            "max_rounds=6",
            "field_setup=players",
            "attack_relocation=split",
            "start_rule=any_stack",
            "piece_placement=one_stack",
        ][..],
        &[
            "max_rounds=6",
            "income_timing=after_trade",
            "unaffordable_attack=no_purchase",
            "trade_after_attack=none",
            "baisse_when_broke=forbid_move",
            "diagonal_rule=one_orthogonal_field",
            "first_start_player=random",
            "placement_first=left_of_start",
            "limit_tiebreak=coins_plus_shares",
            "board=4x9",
        ][..],
        &[
            "max_rounds=6",
            "combined_attack=false",
            "diagonal_rule=both_orthogonal_fields",
            "board=3x12",
            "field_setup=players",
        ][..],
    ] {
        let n = if set.len() == 5 && set[1] == "field_setup=players" {
            3
        } else if set.len() > 6 {
            4
        } else {
            2
        };
        let r = rules::<State>(&params(set), n).unwrap();
        let mut rng = test_rng(1);
        let mut buf = Vec::new();
        for _ in 0..300 {
            let mut s = State::new_game(r, &mut rng);
            while let Turn::Player(p) = s.turn() {
                s.legal_actions(p, &mut buf);
                if buf.is_empty() {
                    panic!("{set:?}\n{s}\n{s:?}");
                }
                let a = buf[rand::RngExt::random_range(&mut rng, 0..buf.len())];
                s.apply(p, a, &mut rng).unwrap();
            }
        }
    }
}
