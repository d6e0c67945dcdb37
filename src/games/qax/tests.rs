//! Rule tests traced to docs/rules/qax.md, perft counts, the conformance harness and
//! golden playthroughs.

use super::*;
use crate::game::{GameState, Measured, Seat, Turn, rules};
use crate::params::ParamSet;
use crate::rng::test_rng;

fn params(settings: &[&str]) -> Params {
    Params::from_settings(settings, "game qax").unwrap()
}

/// Conservation: coins + bank = bank_coins, 36 fields on the play area after setup, 36
/// shares (held or on the table, by construction), 3 pieces per seat once placed.
fn invariants(s: &State) -> Result<(), String> {
    s.validate().map_err(|e| e.problem)?;
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
    let hidden = |s: &State, obs: Seat| {
        let mut h = 0u64;
        for f in 0..NUM_FIELDS {
            if s.cell_of(f as u8).is_none() && s.dealt[f] as Seat != obs {
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
    conformance(&["max_rounds=12"], 2, 4, 1);
    conformance(&["win_coins=9"], 2, 3, 2);
}

#[test]
fn conformance_3p() {
    conformance(&["max_rounds=8"], 3, 3, 3);
    conformance(&["win_coins=9"], 3, 3, 4);
}

#[test]
fn conformance_4p() {
    conformance(&["max_rounds=6"], 4, 3, 5);
    conformance(&["win_coins=9"], 4, 3, 6);
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
            "allow_forfeit_moves=false",
            "diagonal_rule=both_orthogonal_fields",
            "board=3x12",
            "field_setup=players",
        ],
        2,
        3,
        9,
    );
}

// ----- positions for rule tests ------------------------------------------------------

/// A cell by name.
fn c(name: &str) -> u8 {
    parse_cell(name).unwrap()
}

/// The field on a cell of [`table`]: board cell (row r, col k), both 1-based on the board,
/// holds field `6(r-1) + (k-1)`; so `b2` = C1 1, `d2` = C1 3 ("dinero bros 3"), `b3` = C2 3.
/// The Index: C1–C3 Hausse, C4–C6 Nominale, C7–C9 Baisse. Round 1, the last seat is the
/// start player (seat 0 moves first), no pieces, 7 coins each.
pub(super) fn table(n: usize, settings: &[&str]) -> State {
    let r = rules::<State>(&params(settings), n).unwrap();
    let mut s = State::blank(r);
    let board = s.rules.data().geo.board;
    for (i, cell) in cells(board).enumerate() {
        s.field[cell as usize] = i as u8;
        s.at[i] = cell;
        s.fields |= 1u128 << cell;
    }
    s.index = [0, 0, 0, 1, 1, 1, 2, 2, 2];
    s.round = 1;
    s.start = (n - 1) as u8;
    s
}

/// An island layout: 32 fields fill rows 1–4 (a1–h4), and the line b7, c7, d7 (fields 32,
/// 33, 34 = C9 1–3) plus g7 alone (field 35 = C9 4) lie apart, bordered only by white
/// spaces. C9 is Baisse (price 1).
fn island(n: usize, settings: &[&str]) -> State {
    let mut s = table(n, settings);
    s.field = [NONE_FIELD; MAX_CELLS];
    s.at = [NONE_FIELD; NUM_FIELDS];
    s.fields = 0;
    let mut cs: Vec<u8> = (0..32).map(|i| (16 * (i / 8) + i % 8) as u8).collect();
    cs.extend([c("b7"), c("c7"), c("d7"), c("g7")]);
    for (i, &cell) in cs.iter().enumerate() {
        s.field[cell as usize] = i as u8;
        s.at[i] = cell;
        s.fields |= 1u128 << cell;
    }
    s
}

const NONE_FIELD: u8 = u8::MAX;

/// Puts `h` pieces of seat `p` on a cell.
fn put(s: &mut State, p: u8, cell: &str, h: u8) {
    s.add_pieces(p, c(cell), h);
    s.placed[p as usize] += h;
}

/// Starts seat `p`'s turn; if `skip_shift`, answers `noshift`.
fn begin(s: &mut State, p: u8, skip_shift: bool) {
    s.begin_turn(p);
    if skip_shift && s.phase == Phase::Lift {
        play(s, "noshift");
    }
}

fn legal(s: &State) -> Vec<String> {
    let mut v = Vec::new();
    if let Turn::Player(p) = s.turn() {
        s.legal_actions(p, &mut v);
    }
    v.iter().map(|a| a.to_string()).collect()
}

fn has(s: &State, a: &str) -> bool {
    legal(s).iter().any(|x| x == a)
}

fn play(s: &mut State, a: &str) {
    let Turn::Player(p) = s.turn() else {
        panic!("game over, cannot play {a}")
    };
    let act = State::parse_action(a).unwrap_or_else(|| panic!("unparsable {a}"));
    let mut rng = test_rng(0);
    s.apply(p, act, &mut rng)
        .unwrap_or_else(|e| panic!("{a}: {e}\n{s}"));
}

fn field_on(s: &State, cell: &str) -> u8 {
    s.field_at(c(cell)).unwrap()
}

/// Number of distinct legal decision sequences from `s` until the turn of seat `p` ends
/// (another seat acts, a new Index is due, or the game is over).
fn perft(s: &State, p: Seat) -> u64 {
    match s.turn() {
        Turn::Player(q) if q == p && !matches!(s.phase, Phase::SetIndex { .. }) => {
            let mut v = Vec::new();
            s.legal_actions(p, &mut v);
            let mut rng = test_rng(0);
            v.iter()
                .map(|&a| {
                    let mut t = s.clone();
                    t.apply(p, a, &mut rng).unwrap();
                    perft(&t, p)
                })
                .sum()
        }
        _ => 1,
    }
}

// ----- setup (QAX-03) ------------------------------------------------------------------

/// QAX-2.1–2.3: 36 fields face up on the board, 3 pieces and 7 coins each, shares on the table;
/// the bank holds the rest of `bank_coins` (QAX-09).
#[test]
fn rule_setup_counts() {
    for n in 2..=4 {
        let r = rules::<State>(&Params::default(), n).unwrap();
        let s = State::new_game(r, &mut test_rng(n as u64));
        let geo = &s.rules.data().geo;
        assert_eq!(s.fields, geo.board, "the 36 fields cover the board");
        assert_eq!(s.fields.count_ones(), 36);
        assert_eq!(&s.coins()[..n], &vec![7; n][..]);
        assert_eq!(s.bank() as usize, 90 - 7 * n);
        assert!(
            (0..36).all(|f| s.holder(f).is_none()),
            "shares on the table"
        );
        assert_eq!(s.phase, Phase::PlacePieces);
        assert_eq!(s.actor, 0, "placement_first = start_player = seat 0");
    }
}

/// QAX-2.4 "Take turns placing pieces on any company-field not occupied by opponent's pieces";
/// one piece per placement turn (QAX-03 `one_piece`); stacking on one's own (QAX-1.4). Then the
/// start player sets the Index (QAX-2.5).
#[test]
fn rule_setup_piece_placement_in_turn_never_on_opponents() {
    let r = rules::<State>(&Params::default(), 3).unwrap();
    let mut s = State::new_game(r, &mut test_rng(1));
    play(&mut s, "pieces 1 d4");
    assert_eq!(s.actor, 1, "clockwise, one piece per placement turn");
    assert!(!has(&s, "pieces 1 d4"), "not on an opponent's field");
    assert!(
        !legal(&s).iter().any(|a| a.starts_with("pieces 2")),
        "one_piece"
    );
    play(&mut s, "pieces 1 e4");
    play(&mut s, "pieces 1 f4");
    assert!(has(&s, "pieces 1 d4"), "own field: create a double");
    play(&mut s, "pieces 1 d4");
    play(&mut s, "pieces 1 e5");
    play(&mut s, "pieces 1 f5");
    play(&mut s, "pieces 1 d4");
    play(&mut s, "pieces 1 e6");
    play(&mut s, "pieces 1 f6");
    assert_eq!(s.stack(c("d4")), Some((0, 3)), "a triple");
    assert_eq!(s.phase, Phase::SetIndex { company: 0 });
    assert_eq!(s.actor, 0, "the start player sets the Index");
    let one_stack = rules::<State>(&params(&["piece_placement=one_stack"]), 2).unwrap();
    let s = State::new_game(one_stack, &mut test_rng(1));
    assert!(has(&s, "pieces 3 d4"), "one_stack: a triple at once");
}

/// QAX-2.5: 3 Hausse, 3 Nominale, 3 Baisse over the 9 companies: 9!/(3!3!3!) = 1680
/// distinct Indexes, each reached by exactly one decision sequence.
#[test]
fn rule_index_three_three_three() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "d4", 3);
    put(&mut s, 1, "e6", 3);
    s.start_index();
    assert_eq!(s.actor, 1);
    fn walk(s: &State, seen: &mut std::collections::BTreeSet<[u8; 9]>) -> u64 {
        if let Phase::SetIndex { .. } = s.phase {
            let mut v = Vec::new();
            s.legal_actions(s.actor as Seat, &mut v);
            assert!(v.len() >= 2, "forced ratings are filled in, not asked");
            let mut rng = test_rng(0);
            return v
                .iter()
                .map(|&a| {
                    let mut t = s.clone();
                    t.apply(s.actor as Seat, a, &mut rng).unwrap();
                    walk(&t, seen)
                })
                .sum();
        }
        let mut count = [0; 3];
        for &r in &s.index {
            count[r as usize] += 1;
        }
        assert_eq!(count, [3, 3, 3]);
        assert!(seen.insert(s.index));
        1
    }
    let mut seen = Default::default();
    assert_eq!(walk(&s, &mut seen), 1680);
}

/// QAX-14: under `field_setup=players` the fields are dealt 18/12/9 and placed one per
/// placement turn on empty board cells.
#[test]
fn rule_setup_players_place_dealt_fields() {
    for (n, each) in [(2, 18), (3, 12), (4, 9)] {
        let r = rules::<State>(&params(&["field_setup=players"]), n).unwrap();
        let mut s = State::new_game(r, &mut test_rng(3));
        for p in 0..n {
            assert_eq!(s.dealt.iter().filter(|&&d| d as usize == p).count(), each);
        }
        assert_eq!(legal(&s).len(), each, "choose one of your fields");
        let first = legal(&s)[0].clone();
        play(&mut s, &first);
        assert_eq!(legal(&s).len(), 36, "any empty board cell");
        play(&mut s, "place b2");
        assert_eq!(s.actor, 1);
        assert!(!has(&s, "place b2") || matches!(s.phase, Phase::ChooseField));
        let other = legal(&s)[0].clone();
        play(&mut s, &other);
        assert!(!has(&s, "place b2"), "b2 is taken");
    }
}

// ----- turn order (QAX-13) -------------------------------------------------------------

/// QAX-3.1 "the one left to the start-player begins"; QAX-3.10 "New start-player = the player to
/// the left of the previous start-player: gets the index"; QAX-3.1 "(start-player is always
/// the last for the turn!)".
#[test]
fn rule_rounds_rotation_start_player_last() {
    let r = rules::<State>(&Params::default(), 3).unwrap();
    let mut s = State::new_game(r, &mut test_rng(5));
    let mut rng = test_rng(6);
    let mut buf = Vec::new();
    let mut order = Vec::new(); // (round, start player, actor at each turn start)
    let mut last = None;
    while s.round() < 4 && !s.turn().is_terminal() {
        let key = (
            s.round(),
            s.start,
            s.actor,
            matches!(s.phase, Phase::SetIndex { .. }),
        );
        let fresh = order.last().map(|x: &(u32, u8, u8, bool)| (x.0, x.2, x.3))
            != Some((key.0, key.2, key.3));
        if (s.phase == Phase::Lift || s.phase == Phase::Move || key.3) && last != Some(key) && fresh
        {
            order.push(key);
        }
        last = Some(key);
        let a = s.random_action(s.actor as Seat, &mut buf, &mut rng);
        s.apply(s.actor as Seat, a, &mut rng).unwrap();
    }
    let want = vec![
        (0, 0, 0, true), // setup: the start player sets the Index
        (1, 0, 1, false),
        (1, 0, 2, false),
        (1, 0, 0, false), // start player last
        (2, 1, 1, true),  // the new start player (left) sets a new Index
        (2, 1, 2, false),
        (2, 1, 0, false),
        (2, 1, 1, false),
        (3, 2, 2, true),
        (3, 2, 0, false),
        (3, 2, 1, false),
        (3, 2, 2, false),
    ];
    assert_eq!(order, want);
}

/// QAX-15: after round `max_rounds` (its start player's turn) the game ends with
/// `round_limit`, ranked by coins, equal coins sharing a rank.
#[test]
fn rule_round_limit_ranks_by_coins() {
    let mut s = table(3, &["max_rounds=1"]);
    put(&mut s, 0, "b2", 3);
    put(&mut s, 1, "d4", 3);
    put(&mut s, 2, "g7", 3);
    s.coins = [9, 5, 9, 0];
    s.bank = 90 - 23;
    s.actor = 2;
    s.left = 0;
    s.end_turn();
    assert!(s.turn().is_terminal());
    assert_eq!(s.end_condition(), "round_limit");
    assert_eq!(&s.ranks()[..3], &[1, 3, 1]);
    assert_eq!(&s.returns()[..3], &[0.5, 0.0, 0.5]);
    let mut m = crate::game::Metrics::default();
    s.metrics(&mut m);
    assert_eq!(m.game[0], 1);
    // coins_plus_shares breaks the tie by share values (C1 is Hausse: 3).
    let mut t = table(3, &["max_rounds=1", "limit_tiebreak=coins_plus_shares"]);
    t.coins = s.coins;
    t.bank = s.bank;
    t.share[0] = 2;
    t.actor = 2;
    t.end_turn();
    assert_eq!(&t.ranks()[..3], &[2, 3, 1]);
}

// ----- shift (QAX-05) ------------------------------------------------------------------

/// QAX-3.3 "Take ONE vacant (= no pieces on it) company-field"; QAX-3.3 "You don't have to shift".
#[test]
fn rule_shift_only_vacant_fields_and_optional() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "d4", 3);
    put(&mut s, 1, "e6", 3);
    begin(&mut s, 0, false);
    assert_eq!(s.phase, Phase::Lift);
    assert!(has(&s, "noshift"));
    assert!(!has(&s, "lift d4"), "own pieces");
    assert!(!has(&s, "lift e6"), "opponent pieces");
    assert!(has(&s, "lift e4"));
    assert_eq!(legal(&s).len(), 1 + 34);
}

/// QAX-3.3 "A company-field has to border on another company field! (At least diagonally.)",
/// judged after lifting it (QAX-05): the ring corner a1 borders only b2, so b2 cannot go
/// there but c2 can. QAX-3.3 "never further away from the board than one row": destinations
/// are ring cells only. Shifting counts: 27 destinations for a corner field, 28 otherwise.
#[test]
fn rule_shift_border_rule_and_one_ring() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "d4", 3);
    put(&mut s, 1, "e6", 3);
    begin(&mut s, 0, false);
    let mut t = s.clone();
    play(&mut t, "lift b2");
    assert!(!has(&t, "put a1"), "a1 would border no other field");
    assert!(has(&t, "put a2") && has(&t, "put b1"));
    assert_eq!(legal(&t).len(), 27);
    let mut u = s.clone();
    play(&mut u, "lift c2");
    assert!(has(&u, "put a1"), "a1 still borders b2");
    assert_eq!(legal(&u).len(), 28);
    let ring = s.rules.data().geo.area & !s.rules.data().geo.board;
    for a in legal(&u) {
        let cell = parse_cell(a.strip_prefix("put ").unwrap()).unwrap();
        assert!(ring & (1u128 << cell) != 0, "{a} is in the one ring");
    }
    // The hole left on the board is a white space a later shift may fill (QAX-3.3).
    play(&mut u, "put a1");
    assert!(u.field_at(c("c2")).is_none());
    assert_eq!(u.phase, Phase::Move, "L99: once shifted, the move follows");
    let mut v = u.clone();
    begin(&mut v, 1, false);
    play(&mut v, "lift e2");
    assert!(has(&v, "put c2"), "the white space on the board");
    assert!(!has(&v, "put e2"), "not back to its origin");
    // The outer edge of the play area is the limit: from a field in the ring, nothing lies
    // beyond it.
    assert!(!legal(&v).iter().any(|a| {
        let cell = parse_cell(a.strip_prefix("put ").unwrap()).unwrap() as usize;
        cell % 16 > 7 || cell / 16 > 7
    }));
}

/// Perft of the shift step on the full 6×6 table with 2 occupied non-corner fields:
/// `noshift` + 4 corners × 27 + 30 others × 28 = 949 sequences (hand count, see
/// [`rule_shift_border_rule_and_one_ring`]).
#[test]
fn perft_shift_step() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "d4", 3);
    put(&mut s, 1, "e6", 3);
    begin(&mut s, 0, false);
    let mut count = 0;
    for a in legal(&s) {
        if a == "noshift" {
            count += 1;
        } else {
            let mut t = s.clone();
            play(&mut t, &a);
            count += legal(&t).len();
        }
    }
    assert_eq!(count, 1 + 4 * 27 + 30 * 28);
}

// ----- movement (QAX-06, QAX-07) -------------------------------------------------------

/// QAX-3.4: a single moves 1 space for 1 movement, a double for 2, a triple for 3; create
/// (a single onto a single) and divide (a single taken from a triple).
#[test]
fn rule_move_costs_create_and_divide() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "d4", 3);
    put(&mut s, 1, "g7", 3);
    begin(&mut s, 0, true);
    assert!(has(&s, "move 1 d4 e") && has(&s, "move 2 d4 e") && has(&s, "move 3 d4 e"));
    play(&mut s, "move 1 d4 e"); // divide: a single taken from the triple
    assert_eq!(s.stack(c("d4")), Some((0, 2)));
    assert_eq!(s.stack(c("e4")), Some((0, 1)));
    play(&mut s, "pass");
    assert_eq!(s.movements_left(), 2);
    assert!(has(&s, "move 2 d4 n"));
    assert!(!has(&s, "move 3 d4 n") && !legal(&s).iter().any(|a| a.starts_with("move 3")));
    play(&mut s, "move 1 d4 se"); // d4 keeps a single, e5 gets one
    play(&mut s, "pass");
    assert!(
        !legal(&s).iter().any(|a| a.starts_with("move 2")),
        "1 movement left"
    );
    play(&mut s, "move 1 e4 s"); // create: a single onto a single
    assert_eq!(s.stack(c("e5")), Some((0, 2)));
}

/// QAX-3.6: "1 movement = 1 space with a single-piece"; a double uses 2 movements for
/// one trade; a triple all 3; three singles allow 3 trades.
#[test]
fn rule_trade_after_each_movement_combinations() {
    // (moves, trades): triple 1 move 1 trade; single + double 2 trades; 3 singles 3 trades.
    for (plan, trades) in [
        (&["move 3 d4 e"][..], 1),
        (&["move 1 d4 e", "move 2 d4 w"][..], 2),
        (&["move 1 d4 e", "move 1 e4 e", "move 1 d4 n"][..], 3),
    ] {
        let mut s = table(2, &[]);
        put(&mut s, 0, "d4", 3);
        put(&mut s, 1, "g7", 3);
        s.coins[0] = 20;
        s.bank -= 13;
        begin(&mut s, 0, true);
        let mut seen = 0;
        for m in plan {
            play(&mut s, m);
            assert_eq!(s.phase, Phase::Trade, "a trade after each move");
            seen += 1;
            play(&mut s, "pass");
        }
        assert_eq!(seen, trades);
        assert_eq!(s.actor, 1, "3 movements used: the next player's turn");
    }
}

/// QAX-3.4 "Don't move on or over empty (white) spaces": the hole of a shifted field and the
/// ring without fields are not destinations. QAX-06 `diagonal_rule` alternatives.
#[test]
fn rule_move_never_onto_white_spaces() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "b2", 3);
    put(&mut s, 1, "g7", 3);
    begin(&mut s, 0, false);
    play(&mut s, "lift c3");
    play(&mut s, "put h8");
    assert!(!has(&s, "move 1 b2 se"), "c3 is white now");
    assert!(
        !has(&s, "move 1 b2 n") && !has(&s, "move 1 b2 w"),
        "ring without fields"
    );
    assert!(has(&s, "move 1 b2 e") && has(&s, "move 1 b2 s"));
    // Diagonal rule variants: c2 -> b3 passes between b2 and c3 (white).
    for (rule, ok) in [
        ("destination_only", true),
        ("one_orthogonal_field", true),
        ("both_orthogonal_fields", false),
    ] {
        let mut t = table(2, &[&format!("diagonal_rule={rule}")]);
        put(&mut t, 0, "d2", 3);
        put(&mut t, 1, "g7", 3);
        begin(&mut t, 0, false);
        play(&mut t, "lift d3");
        play(&mut t, "put h8");
        assert_eq!(
            has(&t, "move 1 d2 sw"),
            ok,
            "{rule}: d2 -> c3 between c2 and white d3"
        );
    }
}

/// QAX-3.5, first example: start with a double on X; a single leaves X; moving a single
/// back onto X would recreate (X, 2): illegal.
#[test]
fn rule_start_position_example_same_height_forbidden() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "d4", 2);
    put(&mut s, 0, "b7", 1);
    put(&mut s, 1, "g7", 3);
    begin(&mut s, 0, true);
    play(&mut s, "move 1 d4 e");
    play(&mut s, "pass");
    assert!(!has(&s, "move 1 e4 w"), "recreates the double on d4");
    assert!(has(&s, "move 1 e4 e"));
}

/// QAX-3.5, second example: start with a single on X; it leaves; a single may not move onto X
/// again, a double may (different height).
#[test]
fn rule_start_position_example_different_height_allowed() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "d4", 1);
    put(&mut s, 0, "e4", 2);
    put(&mut s, 1, "g7", 3);
    begin(&mut s, 0, true);
    play(&mut s, "move 1 d4 w");
    play(&mut s, "pass");
    assert!(!has(&s, "move 1 c4 e"), "same place and height");
    assert!(
        !has(&s, "move 1 e4 w"),
        "a single from the double: same height too"
    );
    assert!(has(&s, "move 2 e4 w"), "a double: different height");
}

/// QAX-07 `start_rule`: start with a double on Y and a single on X; X -> Y makes a triple;
/// a single then leaving Y leaves (Y, 2) behind: allowed by default, illegal under
/// `any_stack`.
#[test]
fn rule_start_rule_any_stack() {
    for (rule, ok) in [("destination", true), ("any_stack", false)] {
        let mut s = table(2, &[&format!("start_rule={rule}")]);
        put(&mut s, 0, "e4", 2);
        put(&mut s, 0, "d4", 1);
        put(&mut s, 1, "g7", 3);
        begin(&mut s, 0, true);
        play(&mut s, "move 1 d4 e");
        play(&mut s, "pass");
        assert_eq!(s.stack(c("e4")), Some((0, 3)));
        assert_eq!(has(&s, "move 1 e4 e"), ok, "{rule}");
    }
}

/// QAX-12: when no legal movement remains, the turn ends and the movements are lost.
#[test]
fn rule_dead_end_ends_the_turn() {
    let mut s = island(2, &[]);
    put(&mut s, 0, "g7", 3);
    put(&mut s, 1, "a1", 3);
    begin(&mut s, 0, false);
    // g7 borders no field: only the shift is possible, then the turn passes.
    play(&mut s, "noshift");
    assert_eq!(s.actor, 1, "no movement possible: seat 1's turn");
}

/// QAX-12 `allow_forfeit_moves=false`: on the island line a7–e7 a single on b7 (and a
/// stuck double on g7) may step to a7 or c7; from a7 it could only return to b7, a start
/// position, so 2 movements would be lost. The look-ahead keeps only c7 (then d7, then c7
/// or e7 spend all 3); the default allows both.
#[test]
fn rule_look_ahead_keeps_a_full_three_movement_sequence() {
    for (setting, west) in [
        ("allow_forfeit_moves=true", true),
        ("allow_forfeit_moves=false", false),
    ] {
        let mut s = island(2, &[setting]);
        s.field = [NONE_FIELD; MAX_CELLS];
        s.at = [NONE_FIELD; NUM_FIELDS];
        s.fields = 0;
        let mut cs: Vec<u8> = (0..30).map(|i| (16 * (i / 8) + i % 8) as u8).collect();
        cs.extend([c("a7"), c("b7"), c("c7"), c("d7"), c("e7"), c("g7")]);
        for (i, &cell) in cs.iter().enumerate() {
            s.field[cell as usize] = i as u8;
            s.at[i] = cell;
            s.fields |= 1u128 << cell;
        }
        put(&mut s, 0, "b7", 1);
        put(&mut s, 0, "g7", 2);
        put(&mut s, 1, "a1", 3);
        begin(&mut s, 0, true);
        assert!(has(&s, "move 1 b7 e"), "{setting}");
        assert_eq!(has(&s, "move 1 b7 w"), west, "{setting}");
    }
}

/// Perft of the movement phase (after `noshift`) of a triple on c7 of the island line
/// b7–c7–d7, with every arrival offering exactly two trades (buy or pass; sell or pass):
/// hand count f = 2 + 2 + 12 + 12 + 64 + 64 = 156 (the triple moves whole: 2 per side;
/// a double moves then 3 single moves remain: 2·6 per side; a single moves, then 4 ways
/// go on, 2·32 per side; the single coming back to c7 would recreate (c7, 3)).
#[test]
fn perft_movement_phase_triple_on_an_island() {
    let mut s = island(2, &[]);
    put(&mut s, 0, "c7", 3);
    put(&mut s, 1, "a1", 3);
    s.coins[0] = 10;
    s.bank -= 3;
    begin(&mut s, 0, true);
    assert_eq!(s.phase, Phase::Move);
    assert_eq!(perft(&s, 0), 156);
}

/// Perft with a combined attack: singles on b7 and d7 (and one stuck on g7) against an
/// opponent double on c7. The only sequence start is b7 joining (d7 cannot start: the
/// other part must come from a later cell); then d7 completes, the double is relocated to
/// one of 33 vacant fields (36 minus c7, g7 and the defender's a1), then buy or pass, and
/// no movement remains legal ((b7,1) and (d7,1) are start positions; a double needs 2
/// movements): 33 × 2 = 66. Under `split`: (33 + C(33,2)) × 2 = 1122. With the defender
/// holding the share of c7, the forced purchase is the trade: 33.
#[test]
fn perft_combined_attack_on_an_island() {
    let build = |settings: &[&str]| {
        let mut s = island(2, settings);
        put(&mut s, 0, "b7", 1);
        put(&mut s, 0, "d7", 1);
        put(&mut s, 0, "g7", 1);
        put(&mut s, 1, "c7", 2);
        put(&mut s, 1, "a1", 1);
        begin(&mut s, 0, true);
        s
    };
    let s = build(&[]);
    assert_eq!(legal(&s), vec!["move 1 b7 e"]);
    assert_eq!(perft(&s, 0), 66);
    assert_eq!(perft(&build(&["attack_relocation=split"]), 0), 1122);
    let mut t = build(&[]);
    t.share[33] = 1;
    assert_eq!(perft(&t, 0), 33);
}

/// Perft of a whole turn, shift included: a triple alone on g7 of [`island`] (no field
/// next to it), the opponent on a1, 10 coins (every arrival offers exactly buy or pass, or
/// sell or pass). Hand count:
/// - `noshift`: no movement is possible, the turn ends: 1.
/// - A shift (lift, put) whose destination is not next to g7 leaves the triple stuck: 1.
/// - A shift onto one of the 8 cells next to g7 (f6 g6 h6 f7 h7 f8 g8 h8) gives a
///   two-field component {A = g7, B}: the triple to B (2 trades) = 2; a double to B, then
///   a single A→B or B→A (2 · (2 + 2)) = 8; a single to B, then a single A→B and a last
///   single either way (2 · 2 · 2), or a double A→B (2 · 2) — a single B→A would recreate
///   (A, 3) — = 2 · (8 + 2) = 20; in all 30.
/// - Liftable fields: the 34 vacant ones. Empty cells: rows 5–8 minus b7 c7 d7 g7 = 28,
///   all bordering a field, so a field lifted from rows 1–4 (31 of them) or from c7 has 28
///   destinations (8 next to g7); lifting b7 strands a6 a7 a8 and lifting d7 strands e6
///   e7 e8 (they border only the lifted field): 25 destinations (8 next to g7).
///
/// Total: 1 + 32 · (8 · 30 + 20) + 2 · (8 · 30 + 17) = 8835.
#[test]
fn perft_whole_turn_with_shifts() {
    let mut s = island(2, &[]);
    put(&mut s, 0, "g7", 3);
    put(&mut s, 1, "a1", 3);
    s.coins[0] = 10;
    s.bank -= 3;
    begin(&mut s, 0, false);
    assert_eq!(s.phase, Phase::Lift);
    assert_eq!(legal(&s).len(), 1 + 34);
    assert_eq!(perft(&s, 0), 1 + 32 * (8 * 30 + 20) + 2 * (8 * 30 + 17));
}

// ----- trading (QAX-08) ----------------------------------------------------------------

/// QAX-3.7: "you have moved to the field 'dinero bros 3'. On the index there is Baisse for
/// dinero bros. If you want to buy it: pay the price (here:1 coin) to the bank & you
/// receive the share (here: dinero bros 3)."
#[test]
fn rule_buy_dinero_bros_3_at_baisse() {
    let mut s = table(2, &[]);
    s.index = [2, 0, 0, 0, 1, 1, 1, 2, 2]; // Dinero Bros (C1) at Baisse
    put(&mut s, 0, "c2", 3);
    put(&mut s, 1, "g7", 3);
    begin(&mut s, 0, true);
    play(&mut s, "move 1 c2 e");
    assert_eq!(field_on(&s, "d2"), 2, "d2 holds Dinero Bros 3");
    assert_eq!(legal(&s), vec!["pass", "buy"]);
    let bank = s.bank();
    play(&mut s, "buy");
    assert_eq!(s.coins()[0], 6, "paid 1 coin");
    assert_eq!(s.bank(), bank + 1, "to the bank");
    assert_eq!(s.holder(2), Some(0), "received dinero bros 3");
    // Prices (QAX-3.7): Hausse 3, Nominale 2.
    for (idx, price) in [(0u8, 3u8), (1, 2)] {
        let mut t = table(2, &[]);
        t.index[0] = idx;
        put(&mut t, 0, "c2", 3);
        put(&mut t, 1, "g7", 3);
        begin(&mut t, 0, true);
        play(&mut t, "move 1 c2 e");
        play(&mut t, "buy");
        assert_eq!(t.coins()[0], 7 - price);
    }
}

/// QAX-3.6 "Trading always & only applies to the company-field on which you have moved"; QAX-3.7
/// "Numbers of company-field and share have to be the same!"; QAX-3.7 "If another player
/// already has that share - bad luck - you can't buy it!"; paying requires the coins.
#[test]
fn rule_buy_needs_the_matching_free_share_and_the_price() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "c2", 3);
    put(&mut s, 1, "g7", 3);
    s.share[2] = 1; // seat 1 holds dinero bros 3
    begin(&mut s, 0, true);
    play(&mut s, "move 1 c2 e");
    assert_eq!(
        s.phase,
        Phase::Move,
        "nothing to trade on d2: no trade step"
    );
    play(&mut s, "move 1 c2 w");
    play(&mut s, "buy");
    assert_eq!(
        s.holder(0),
        Some(0),
        "the share numbered like the field moved to (b2 = C1 1)"
    );
    assert!((1..36).all(|f| s.holder(f) != Some(0)));
    let mut t = table(2, &[]);
    put(&mut t, 0, "c2", 3);
    put(&mut t, 1, "g7", 3);
    t.coins = [2, 7, 0, 0];
    t.bank += 5;
    begin(&mut t, 0, true);
    play(&mut t, "move 1 c2 e"); // C1 Hausse: 3 coins, only 2 held
    assert_eq!(t.phase, Phase::Move, "cannot pay: no trade");
}

/// QAX-3.7: "if you already own the share of the field you have moved to (same number!), you
/// may sell it ... you get the coins from the bank and put back the share (now it can again
/// be bought by anyone)."
#[test]
fn rule_sell_and_rebuy() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "c2", 3);
    put(&mut s, 1, "g7", 3);
    s.share[2] = 0;
    begin(&mut s, 0, true);
    play(&mut s, "move 1 c2 e");
    assert_eq!(legal(&s), vec!["pass", "sell"]);
    play(&mut s, "sell");
    assert_eq!(s.coins()[0], 10, "Hausse: 3 coins from the bank");
    assert_eq!(s.holder(2), None);
    play(&mut s, "move 1 d2 s");
    play(&mut s, "pass");
    play(&mut s, "move 1 c2 e"); // another piece onto d2 (a double: new height)
    assert_eq!(
        legal(&s),
        vec!["pass", "buy"],
        "the share can be bought again"
    );
    play(&mut s, "buy");
    assert_eq!(s.holder(2), Some(0));
    assert_eq!(s.coins()[0], 7);
}

/// QAX-3.8: the owner of all 4 shares receives 2 (Hausse) or 1 (Nominale) from the bank,
/// or pays 1 (Baisse), on every arrival, compulsorily (QAX-08); QAX-04
/// `baisse_when_broke`.
#[test]
fn rule_owner_income_at_each_index_level() {
    for (rating, delta) in [(0u8, 2i32), (1, 1), (2, -1)] {
        let mut s = table(2, &[]);
        s.index[0] = rating;
        for f in 0..4 {
            s.share[f] = 0;
        }
        put(&mut s, 0, "c3", 3);
        put(&mut s, 1, "g7", 3);
        begin(&mut s, 0, true);
        let bank = s.bank() as i32;
        play(&mut s, "move 1 c3 n"); // onto c2 = C1 2
        assert_eq!(s.coins()[0] as i32, 7 + delta, "rating {rating}");
        assert_eq!(
            s.bank() as i32,
            bank - delta,
            "income comes from / goes to the bank"
        );
        assert_eq!(
            s.phase,
            Phase::Trade,
            "then the trade (sell the owned share)"
        );
    }
    // Baisse with 0 coins: pay_what_you_can costs nothing; forbid_move forbids the move.
    for (rule, legal_move) in [("pay_what_you_can", true), ("forbid_move", false)] {
        let mut s = table(2, &[&format!("baisse_when_broke={rule}")]);
        s.index[0] = 2;
        for f in 0..4 {
            s.share[f] = 0;
        }
        s.coins = [0, 7, 0, 0];
        s.bank += 7;
        put(&mut s, 0, "c3", 3);
        put(&mut s, 1, "g7", 3);
        begin(&mut s, 0, true);
        assert_eq!(has(&s, "move 1 c3 n"), legal_move, "{rule}");
        if legal_move {
            play(&mut s, "move 1 c3 n");
            assert_eq!(s.coins()[0], 0);
        }
    }
}

/// QAX-3.8 "If you sell one or more shares of the company - you don't own the company
/// anymore"; QAX-08 `income_timing=before_trade`: selling on arrival still collects that
/// arrival's income, buying the 4th share pays from the next arrival.
#[test]
fn rule_selling_ends_ownership_and_income_timing() {
    let mut s = table(2, &[]);
    for f in 0..4 {
        s.share[f] = 0;
    }
    put(&mut s, 0, "c3", 3);
    put(&mut s, 1, "g7", 3);
    begin(&mut s, 0, true);
    play(&mut s, "move 1 c3 n");
    assert_eq!(s.coins()[0], 9, "Hausse income first");
    play(&mut s, "sell");
    assert_eq!(s.coins()[0], 12);
    assert!(!s.owns(0, 0), "selling ends ownership");
    play(&mut s, "move 1 c3 nw"); // onto b2 = C1 1, no income now
    assert_eq!(s.coins()[0], 12);
    play(&mut s, "pass");
    play(&mut s, "move 1 c3 n"); // onto c2 again (now a double), buying back: no income yet
    play(&mut s, "buy");
    assert!(s.owns(0, 0));
    assert_eq!(s.coins()[0], 9);
    // The `owner` label and `companies_ever_owned` remember the ownership after a sale.
    let mut m = crate::game::Metrics::default();
    let mut l = crate::game::Labels::default();
    s.labels(&mut l);
    s.metrics(&mut m);
    assert_eq!((l.seat[0][0], l.seat[1][0]), ("yes", "no"));
    assert_eq!((m.seat[0][11], m.seat[1][11]), (1, 0));
    begin(&mut s, 0, true);
    play(&mut s, "move 1 c2 e"); // onto d2 = C1 3: income, then sell
    play(&mut s, "sell");
    assert!(!s.owns(0, 0));
    s.labels(&mut l);
    s.metrics(&mut m);
    assert_eq!((l.seat[0][0], m.seat[0][11], m.seat[0][8]), ("yes", 1, 0));
    // after_trade: the income follows the buy.
    let mut t = table(2, &["income_timing=after_trade"]);
    for f in [0, 1, 3] {
        t.share[f] = 0;
    }
    put(&mut t, 0, "c3", 3);
    put(&mut t, 1, "g7", 3);
    begin(&mut t, 0, true);
    play(&mut t, "move 1 c3 ne");
    play(&mut t, "buy");
    assert_eq!(t.coins()[0], 7 - 3 + 2, "bought the 4th share, then income");
}

// ----- attacks (QAX-3.9, QAX-08, QAX-10, QAX-11) --------------------------------------

/// QAX-3.9: only stacks of the same height attack each other, both ways.
#[test]
fn rule_attack_equal_height_only() {
    for (mine, theirs, h, ok) in [
        (1, 1, 1, true),
        (2, 2, 2, true),
        (3, 3, 3, true),
        (2, 1, 2, false),
        (3, 2, 3, false),
        (2, 1, 1, true), // a single taken from the double attacks a single
    ] {
        let mut s = table(2, &["combined_attack=false"]);
        put(&mut s, 0, "d4", mine);
        if mine < 3 {
            put(&mut s, 0, "b7", 3 - mine);
        }
        put(&mut s, 1, "e4", theirs);
        if theirs < 3 {
            put(&mut s, 1, "g7", 3 - theirs);
        }
        begin(&mut s, 0, true);
        assert_eq!(
            has(&s, &format!("move {h} d4 e")),
            ok,
            "{mine} vs {theirs} with {h}"
        );
        // And the other way round.
        let mut t = s.clone();
        t.phase = Phase::Over;
        begin(&mut t, 1, true);
        assert_eq!(
            has(&t, &format!("move {h} e4 w")),
            theirs >= h && mine == h,
            "seat 1: {theirs} vs {mine} with {h}"
        );
    }
    let mut s = table(2, &["combined_attack=false"]);
    put(&mut s, 0, "d4", 1);
    put(&mut s, 0, "d6", 1);
    put(&mut s, 0, "b7", 1);
    put(&mut s, 1, "d5", 2);
    put(&mut s, 1, "g7", 1);
    begin(&mut s, 0, true);
    assert!(
        !has(&s, "move 1 d4 s"),
        "no combined attack when switched off"
    );
}

/// QAX-3.9 "two of your single-pieces move on an opponent's double-piece" (QAX-08
/// `combined_attack`): the first part waits, the second completes the attack; 2 movements,
/// one trade.
#[test]
fn rule_attack_combined() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "d4", 1);
    put(&mut s, 0, "d6", 1);
    put(&mut s, 0, "b7", 1);
    put(&mut s, 1, "d5", 2);
    put(&mut s, 1, "g7", 1);
    begin(&mut s, 0, true);
    assert!(has(&s, "move 1 d4 s"));
    assert!(
        !has(&s, "move 1 d6 n"),
        "parts join in cell order: d4 first"
    );
    play(&mut s, "move 1 d4 s");
    assert_eq!(legal(&s), vec!["move 1 d6 n"]);
    play(&mut s, "move 1 d6 n");
    assert_eq!(s.stack(c("d5")), Some((0, 2)));
    assert_eq!(s.movements_left(), 1);
    assert!(matches!(
        s.phase,
        Phase::Relocate {
            victim: 1,
            left: 2,
            ..
        }
    ));
    let mut m = crate::game::Metrics::default();
    s.metrics(&mut m);
    assert_eq!(
        (m.seat[0][4], m.seat[1][5]),
        (1, 1),
        "attacks made / suffered"
    );
}

/// QAX-3.9 "places the attacked piece on any vacant company-field (not on an empty white
/// one)"; QAX-3.9 rule a (whole, the default) and QAX-3.9 rule b (split, QAX-11: any partition,
/// each part on a different field).
#[test]
fn rule_attack_relocation_targets() {
    // 33 vacant fields: 36 minus e4 (the attacker), b7 and g7, with a1 (shifted) included.
    for (rule, want) in [("whole", 33usize), ("split", 33 + 33 * 32 / 2)] {
        let mut s = table(2, &[&format!("attack_relocation={rule}")]);
        put(&mut s, 0, "d4", 2);
        put(&mut s, 0, "b7", 1);
        put(&mut s, 1, "e4", 2);
        put(&mut s, 1, "g7", 1);
        begin(&mut s, 0, false);
        play(&mut s, "lift c2");
        play(&mut s, "put a1");
        play(&mut s, "move 2 d4 e");
        let mut n = 0;
        for a in legal(&s) {
            let (h, cell) = a
                .strip_prefix("relocate ")
                .unwrap()
                .split_once(' ')
                .unwrap();
            let cell = c(cell);
            assert!(s.field_at(cell).is_some() && s.stack(cell).is_none(), "{a}");
            if h == "2" {
                n += 1;
            } else {
                let mut t = s.clone();
                play(&mut t, &a);
                n += legal(&t).len();
            }
        }
        assert!(!has(&s, "relocate 2 c2"), "the white hole");
        assert_eq!(n, want, "{rule}");
    }
}

/// QAX-3.9: the attacker HAS TO buy the attacked player's share of that field at the
/// Index price, paid to the attacked player; QAX-10: that is the move's trade. QAX-3.9: not if
/// the attacked player owns the company.
#[test]
fn rule_attack_forced_purchase_and_owner_exception() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "d4", 3);
    put(&mut s, 1, "e4", 3);
    s.share[15] = 1; // e4 = C4 4, Nominale: 2 coins
    begin(&mut s, 0, true);
    let bank = s.bank();
    play(&mut s, "move 3 d4 e");
    assert_eq!(s.coins()[..2], [5, 9], "paid to the attacked player");
    assert_eq!(s.bank(), bank, "not to the bank");
    assert_eq!(s.holder(15), Some(0));
    play(&mut s, "relocate 3 b2");
    assert_eq!(s.stack(c("b2")), Some((1, 3)));
    assert_eq!(s.actor, 1, "no further trade, the turn is over");
    // The exception: seat 1 owns C4.
    let mut t = table(2, &[]);
    put(&mut t, 0, "d4", 3);
    put(&mut t, 1, "e4", 3);
    for f in 12..16 {
        t.share[f] = 1;
    }
    begin(&mut t, 0, true);
    play(&mut t, "move 3 d4 e");
    assert_eq!(t.coins()[..2], [7, 7]);
    assert_eq!(t.holder(15), Some(1), "the owner keeps the share");
    // Unaffordable forced purchase (QAX-08 unaffordable_attack).
    for (rule, ok) in [("illegal", false), ("no_purchase", true)] {
        let mut u = table(2, &[&format!("unaffordable_attack={rule}")]);
        put(&mut u, 0, "d4", 3);
        put(&mut u, 1, "e4", 3);
        u.share[15] = 1;
        u.coins = [1, 7, 0, 0];
        u.bank += 6;
        begin(&mut u, 0, true);
        assert_eq!(has(&u, "move 3 d4 e"), ok, "{rule}");
        if ok {
            play(&mut u, "move 3 d4 e");
            assert_eq!(u.holder(15), Some(1));
            assert_eq!(u.coins()[0], 1);
        }
    }
}

/// QAX-10 `trade_after_attack`: without a forced purchase the attacker trades normally
/// (`normal`) or not at all (`none`).
#[test]
fn rule_trade_after_attack() {
    for (rule, trade) in [("normal", true), ("none", false)] {
        let mut s = table(2, &[&format!("trade_after_attack={rule}")]);
        put(&mut s, 0, "d4", 3);
        put(&mut s, 1, "e4", 3);
        begin(&mut s, 0, true);
        play(&mut s, "move 3 d4 e");
        play(&mut s, "relocate 3 b2");
        assert_eq!(s.phase == Phase::Trade, trade, "{rule}");
    }
}

// ----- winning (QAX-09) ----------------------------------------------------------------

/// QAX-4.1 "The game ends as soon as one of the players reaches the goal"; QAX-4.1 21 coins at 2
/// players: reached by owner income in the middle of a turn, the game ends at once.
#[test]
fn rule_win_at_the_goal_mid_turn() {
    let mut s = table(2, &[]);
    for f in 0..4 {
        s.share[f] = 0;
    }
    s.coins = [19, 7, 0, 0];
    s.bank = 90 - 26;
    put(&mut s, 0, "c3", 3);
    put(&mut s, 1, "g7", 3);
    begin(&mut s, 0, true);
    play(&mut s, "move 1 c3 n");
    assert!(
        s.turn().is_terminal(),
        "21 coins: over at once, 2 movements unused"
    );
    assert_eq!(s.movements_left(), 2);
    assert_eq!(s.end_condition(), "coin_goal");
    assert_eq!(s.winner(), Some(0));
    assert_eq!(&s.returns()[..2], &[1.0, 0.0]);
    // Passive gain (QAX-09 immediate_any_gain): the attacked player reaches 14 at 3 players
    // through the forced purchase, during the attacker's turn.
    let mut t = table(3, &[]);
    put(&mut t, 0, "d4", 3);
    put(&mut t, 1, "e4", 3);
    put(&mut t, 2, "g7", 3);
    t.share[15] = 1;
    t.coins = [7, 12, 7, 0];
    t.bank = 90 - 26;
    begin(&mut t, 0, true);
    play(&mut t, "move 3 d4 e");
    assert!(t.turn().is_terminal());
    assert_eq!(t.winner(), Some(1));
    assert_eq!(&t.ranks()[..3], &[3, 1, 2], "coins 5, 14, 7");
    // The attacked stack is never relocated: its 3 pieces stay off the board, and the final
    // position is still valid and can be saved and loaded (found by `sim soak`).
    assert_eq!(t.stranded, [1, 3]);
    assert_eq!(t.stack(c("e4")), Some((0, 3)));
    invariants(&t).unwrap();
    let saved = crate::position::Position::new(t.clone()).to_json();
    let loaded = crate::position::Position::<State>::from_json(&saved).unwrap();
    assert_eq!(loaded.state, t);
    // The same end through owner income paid before the trade (`income_timing`): seat 0
    // owns C1 and reaches 14 coins as its attack arrives.
    let mut u = table(3, &["income_timing=before_trade"]);
    put(&mut u, 0, "d4", 3);
    put(&mut u, 1, "e4", 3);
    put(&mut u, 2, "g7", 3);
    for f in 12..16 {
        u.share[f] = 0;
    }
    u.owned[0] |= 1 << 3;
    u.coins = [13, 7, 7, 0];
    u.bank = 90 - 27;
    begin(&mut u, 0, true);
    play(&mut u, "move 3 d4 e");
    assert!(u.turn().is_terminal());
    assert_eq!(u.winner(), Some(0));
    assert_eq!(u.stranded, [1, 3]);
    invariants(&u).unwrap();
    // professional: 28 at 2 players.
    let p = rules::<State>(&params(&["professional=true"]), 2).unwrap();
    assert_eq!(p.data().goal, 28);
}

// ----- parameters ----------------------------------------------------------------------

#[test]
fn bad_parameters_are_errors_naming_them() {
    let e = rules::<State>(&params(&["first_start_player=3"]), 2)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("first_start_player") && e.contains("0..=1"),
        "{e}"
    );
    let e = Params::from_settings(&["bank_coins=95"], "game qax")
        .unwrap_err()
        .to_string();
    assert!(e.contains("bank_coins") && e.contains("80..=90"), "{e}");
    let e = Params::from_settings(&["board=5x5"], "game qax")
        .unwrap_err()
        .to_string();
    assert!(e.contains("6x6|4x9|3x12"), "{e}");
    let e = rules::<State>(&params(&["win_coins=21/14"]), 2)
        .unwrap_err()
        .to_string();
    assert!(e.contains("win_coins"), "{e}");
}

// ----- value and agents ----------------------------------------------------------------

/// The value is a win share (sums to 1, in [0, 1]) that grows with coins, shares held and
/// companies owned; greedy and mcts play complete games through the agent API.
#[test]
fn value_is_a_win_share_and_agents_play() {
    let mut s = table(2, &[]);
    put(&mut s, 0, "b2", 3);
    put(&mut s, 1, "g7", 3);
    let v = s.value();
    assert!((v[0] - 0.5).abs() < 1e-12 && (v[0] + v[1] - 1.0).abs() < 1e-12);
    s.share[20] = 0; // a Nominale share: worth 2 coins
    let w = s.value();
    assert!(w[0] > v[0]);
    for f in 0..4 {
        s.share[f] = 0;
    }
    let x = s.value();
    assert!(
        x[0] > w[0],
        "owning a company is worth more than its shares' prices"
    );
    let r = rules::<State>(&params(&["max_rounds=4"]), 3).unwrap();
    let mut rng = test_rng(3);
    let mut st = State::new_game(r, &mut rng);
    let mut seats: Vec<Box<dyn crate::agents::Agent<State>>> = vec![
        crate::agents::build::<State>("greedy").unwrap(),
        crate::agents::build::<State>("mcts:iters=20").unwrap(),
        crate::agents::build::<State>("random").unwrap(),
    ];
    while let Turn::Player(p) = st.turn() {
        let a = seats[p].act(&crate::game::View::new(&st, p), &mut rng);
        st.apply(p, a, &mut rng).unwrap();
    }
    assert!(!st.end_condition().is_empty());
}

/// The projected wealth term by term (module docs, "Value estimate"): a share is worth
/// `0.25 · price + 0.75 · 2`; an owned company adds `3 + income`; a threatened stack costs
/// 0.5, a stuck one 1; in the trade step the actor adds its best trade's gain.
#[test]
fn value_wealth_terms() {
    let w = super::value::WEIGHTS;
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let mut s = table(2, &[]);
    put(&mut s, 0, "b2", 3);
    put(&mut s, 1, "g7", 3);
    assert!(close(s.wealth_with(&w)[0], 7.0));
    s.share[0] = 0; // C1 (Hausse, price 3)
    s.share[32] = 0; // C9 (Baisse, price 1)
    assert!(close(s.wealth_with(&w)[0], 7.0 + 2.25 + 1.75));
    for f in 1..4 {
        s.share[f] = 0;
    }
    // C1 owned at Hausse: 4 shares at 2.25, plus 3 + 2.
    assert!(close(s.wealth_with(&w)[0], 7.0 + 4.0 * 2.25 + 5.0 + 1.75));
    // Threat: a single next to an opponent single.
    let mut t = table(2, &[]);
    put(&mut t, 0, "d4", 1);
    put(&mut t, 0, "b2", 2);
    put(&mut t, 1, "e4", 1);
    put(&mut t, 1, "g7", 2);
    let x = t.wealth_with(&w);
    assert!(close(x[0], 7.0 - 0.5) && close(x[1], 7.0 - 0.5));
    // Stuck: g7 of the island borders no field.
    let mut u = island(2, &[]);
    put(&mut u, 0, "g7", 3);
    put(&mut u, 1, "a1", 3);
    assert!(close(u.wealth_with(&w)[0], 7.0 - 1.0));
    // The trade option: seat 0 moves onto b7 (C9 1, Baisse): buying gains 1.75 - 1.
    put(&mut u, 0, "c7", 1);
    u.placed[0] -= 1;
    begin(&mut u, 0, true);
    play(&mut u, "move 1 c7 w");
    assert_eq!(u.phase, Phase::Trade);
    assert!(close(u.wealth_with(&w)[0], 7.0 - 1.0 + 0.75));
    let mut no = w;
    no.option = 0.0;
    assert!(close(u.wealth_with(&no)[0], 7.0 - 1.0));
}

/// The Index being set prices the shares (rated companies at their new rating, the others
/// at the mean of the ratings still to place), so greedy rates its own company Hausse and
/// its opponent's Baisse; in trades it buys at Baisse and sells at Hausse.
#[test]
fn value_guides_greedy_index_and_trades() {
    let w = super::value::WEIGHTS;
    let mut s = table(2, &[]);
    put(&mut s, 0, "b2", 3);
    put(&mut s, 1, "g7", 3);
    s.share[0] = 0; // C1 1
    s.share[4] = 1; // C2 1
    s.start = 0;
    s.start_index();
    assert_eq!(s.phase, Phase::SetIndex { company: 0 });
    // All 9 unrated: expected price (3 + 2 + 1) / 3 = 2.
    assert!((s.wealth_with(&w)[0] - 9.0).abs() < 1e-9);
    let mut rng = test_rng(1);
    let mut greedy = crate::agents::build::<State>("greedy").unwrap();
    let a = greedy.act(&crate::game::View::new(&s, 0), &mut rng);
    assert_eq!(a.to_string(), "hausse", "own share's company");
    play(&mut s, "hausse");
    let a = greedy.act(&crate::game::View::new(&s, 0), &mut rng);
    assert_eq!(a.to_string(), "baisse", "the opponent's company");
    // Trades: on b7 (C9 1, Baisse) greedy buys; holding C1 1 at Hausse on b2 it sells.
    let mut u = island(2, &[]);
    put(&mut u, 0, "c7", 1);
    put(&mut u, 0, "h1", 2);
    put(&mut u, 1, "a1", 3);
    begin(&mut u, 0, true);
    play(&mut u, "move 1 c7 w");
    let a = greedy.act(&crate::game::View::new(&u, 0), &mut rng);
    assert_eq!(a.to_string(), "buy");
    let mut v = table(2, &[]);
    put(&mut v, 0, "c2", 1);
    put(&mut v, 0, "g7", 2);
    put(&mut v, 1, "e6", 3);
    v.share[0] = 0; // C1 1 on b2, Hausse
    begin(&mut v, 0, true);
    play(&mut v, "move 1 c2 w");
    let a = greedy.act(&crate::game::View::new(&v, 0), &mut rng);
    assert_eq!(a.to_string(), "sell");
}

/// The information contract under `field_setup=players` (the registry test runs the
/// default random layout): while fields are dealt, the tensor and the strings never show
/// where another seat's unplaced fields are, and the information state keeps the seat's
/// own deal.
#[test]
fn information_conformance_players_setup() {
    for players in 2..=4 {
        let rules =
            rules::<State>(&params(&["field_setup=players", "max_rounds=2"]), players).unwrap();
        let rep = crate::testing::check_information(rules, 9, 3, 1, 2)
            .unwrap_or_else(|e| panic!("{players} players: {e}"));
        assert!(rep.determinizations > 0 && rep.information_states > players);
    }
}

/// The tensor's length is the module docs' formula for every board and player count, and
/// a fresh position shows the documented values.
#[test]
fn observation_tensor_follows_the_documented_layout() {
    for (board, a) in [("6x6", 64), ("4x9", 66), ("3x12", 70)] {
        for n in 2..=4 {
            for (setup, extra) in [("random", 0), ("players", 2 * NUM_FIELDS + n)] {
                let b = format!("board={board}");
                let f = format!("field_setup={setup}");
                let r = rules::<State>(&params(&[&b, &f]), n).unwrap();
                let len = crate::game::tensor_len(&State::observation_layout(&r));
                assert_eq!(
                    len,
                    43 * n + 83 + a * (21 + 3 * n) + extra,
                    "{board} {n} {setup}"
                );
            }
        }
    }
    // The table of `table`: 36 fields on the board, Index H H H N N N B B B, seat 1 the
    // start player; seat 1 looks, seat 0 to act.
    let mut s = table(2, &[]);
    s.begin_turn(0);
    let r = s.rules();
    let layout = State::observation_layout(&r);
    let mut t = vec![f32::NAN; crate::game::tensor_len(&layout)];
    s.observation_tensor(1, &mut t);
    let field = |name: &str| {
        let start: usize = layout
            .iter()
            .take_while(|f| f.name != name)
            .map(|f| f.len)
            .sum();
        let len = layout.iter().find(|f| f.name == name).unwrap().len;
        t[start..start + len].to_vec()
    };
    assert_eq!(field("player"), [0.0, 1.0]);
    assert_eq!(field("actor"), [0.0, 1.0], "seat 0 is the other seat");
    assert_eq!(field("start_player"), [1.0, 0.0], "seat 1 itself");
    assert_eq!(field("coins"), [7.0 / 21.0; 2]);
    let index = field("index");
    assert_eq!(&index[..3], &[1.0, 0.0, 0.0], "C1 Hausse");
    assert_eq!(&index[24..], &[0.0, 0.0, 1.0], "C9 Baisse");
    assert_eq!(field("cell_field").iter().sum::<f32>(), 36.0);
    assert_eq!(field("cell_company").iter().sum::<f32>(), 36.0);
    assert_eq!(field("cell_stack").iter().sum::<f32>(), 0.0);
    // b2 (play-area cell 9 in cell order: row 1 holds a1-h1, then a2, b2) holds C1 1.
    assert_eq!(field("cell_field")[9], 1.0);
    assert_eq!(field("cell_company")[9 * 9], 1.0);
    assert_eq!(field("cell_number")[9 * 4], 1.0);
}

/// QAX-2.6: the default `seat_coins` (and `seat_coins=0` typed) changes nothing: the same
/// serialized states after setup and at the end of random games, and the same canonical
/// parameters (the knob is hidden at 0).
#[test]
fn rule_2_6_seat_coins_default_changes_nothing() {
    for n in 2..=4 {
        let default = Params::default();
        let zero = params(&["seat_coins=0/0"]);
        assert_eq!(default.canonical(","), zero.canonical(","));
        let (a, b) = (
            rules::<State>(&default, n).unwrap(),
            rules::<State>(&zero, n).unwrap(),
        );
        crate::game::seat_bonus::assert_same_games(a, b, 6);
    }
}

/// QAX-2.6: each seat starts with 7 coins plus its bonus, paid from the bank (bank plus
/// players stays `bank_coins`, QAX-09); a start at the goal or below 0 is refused naming the
/// bonus's range.
#[test]
fn rule_2_6_seat_coins_come_from_the_bank() {
    let s = State::new_game(
        rules::<State>(&params(&["seat_coins=-3/4"]), 2).unwrap(),
        &mut test_rng(0),
    );
    assert_eq!(&s.coins()[..2], &[4, 11]);
    assert_eq!(u32::from(s.bank()), 90 - 15);
    let e = rules::<State>(&params(&["seat_coins=0/14"]), 2)
        .unwrap_err()
        .to_string();
    assert!(e.contains("seat 1 bonus 14 is outside -7..=13"), "{e}");
    assert!(rules::<State>(&params(&["seat_coins=-8"]), 2).is_err());
    let e = rules::<State>(&params(&["seat_coins=20/20/20/20", "win_coins=80"]), 4)
        .unwrap_err()
        .to_string();
    assert!(e.contains("bank_coins"), "{e}");
}
