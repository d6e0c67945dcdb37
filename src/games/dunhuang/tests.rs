//! Rule tests for Merchants of Dunhuang (one `rule_<section>_<what>` per clause, quoting
//! the rulebook and citing the clause ids of docs/rules/dunhuang.md), the conformance
//! harness at 2, 3 and 4 players, determinization after the hidden-card powers, and golden
//! playthroughs.

use super::state::{BOTTOM, DRAWN, PILE, REMOVED, TABLE};
use super::*;
use crate::game::{GameState, Measured, SeatSet, Turn, rules};
use crate::params::ParamSet;
use crate::rng::test_rng;
use crate::testing::{Conformance, check_random_games};
use state::NONE;

/// Layout A in circle order (spaces 0–7).
const A: &str = "Painter,Princess,Interpreter,Soldier,Trader,Maid,Shepherd,Manichean";
/// Layout B: the other side of every tile.
const B: &str = "Musician,Dancer,Diplomat,General,Merchant,Domestic,Farmer,Buddhist";

fn params(chars: &str, extra: &[&str]) -> Params {
    let mut v = vec![
        format!("characters={chars}"),
        "circle_order=given".to_string(),
    ];
    v.extend(extra.iter().map(|s| s.to_string()));
    Params::from_settings(&v, "game dunhuang").unwrap()
}

/// After setup (first legal keeps, camel on space 0), with every card back in the pile,
/// an empty Market, empty Shops and all tokens in the middle: a blank table for scripted
/// positions. Seat 0 is active at the camel step.
fn clean(n: usize, chars: &str, extra: &[&str]) -> State {
    let r = rules::<State>(&params(chars, extra), n).unwrap();
    let mut rng = test_rng(1);
    let mut s = State::new_game(r, &mut rng);
    let mut buf = Vec::new();
    while matches!(s.phase(), Phase::Keep | Phase::Camel) {
        let Turn::Player(p) = s.turn() else { panic!() };
        s.legal_actions(p, &mut buf);
        s.apply(p, buf[0], &mut rng).unwrap();
    }
    let deck = r.data().deck as usize;
    s.set_for_test(|t| {
        for c in 0..deck {
            t.know().move_card(c, PILE, SeatSet::EMPTY);
        }
        *t.market() = [NONE; 8];
        *t.shop() = [0; 4];
        *t.holder() = [NONE; 11];
        *t.camel() = 0;
    });
    assert_eq!(s.phase(), Phase::Move);
    assert_eq!(s.active(), 0);
    s
}

fn pile_card(s: &State, v: u8) -> usize {
    let m = s.knowledge().cards(PILE) & s.rules().data().mask[v as usize];
    assert!(m != 0, "no {v} left in the pile");
    m.trailing_zeros() as usize
}

fn hand(s: &mut State, p: usize, vals: &[u8]) {
    for &v in vals {
        let c = pile_card(s, v);
        s.set_for_test(|t| t.know().move_card(c, p, SeatSet::single(p)));
    }
}

fn shop(s: &mut State, p: usize, vals: &[u8]) {
    let all = SeatSet::all(s.num_players());
    for &v in vals {
        let c = pile_card(s, v);
        s.set_for_test(|t| {
            t.know().move_card(c, TABLE, all);
            t.shop()[p] |= 1 << c;
        });
    }
}

/// Puts a card of value `v` from the pile on Market space `m` (a card already there goes
/// back to the pile).
fn market(s: &mut State, m: usize, v: u8) {
    let all = SeatSet::all(s.num_players());
    s.set_for_test(|t| {
        let old = t.market()[m];
        if old != NONE {
            t.know().move_card(old as usize, PILE, SeatSet::EMPTY);
            t.market()[m] = NONE;
        }
    });
    let c = pile_card(s, v);
    s.set_for_test(|t| {
        t.know().move_card(c, TABLE, all);
        t.market()[m] = c as u8;
    });
}

fn token(s: &mut State, v: u8, holder: usize, zh: bool) {
    s.set_for_test(|t| {
        t.holder()[v as usize] = holder as u8;
        if zh {
            *t.zh() |= 1 << v;
        } else {
            *t.zh() &= !(1 << v);
        }
    });
}

fn act(s: &mut State, a: Action) {
    act_rng(s, a, &mut test_rng(9));
}

fn act_rng(s: &mut State, a: Action, rng: &mut crate::SimRng) {
    let Turn::Player(p) = s.turn() else {
        panic!("terminal")
    };
    s.apply(p, a, rng).unwrap_or_else(|e| panic!("{e}\n{s}"));
}

fn legal(s: &State) -> Vec<Action> {
    let mut v = Vec::new();
    if let Turn::Player(p) = s.turn() {
        s.legal_actions(p, &mut v);
    }
    v
}

fn set_active(s: &mut State, p: usize, camel: usize) {
    s.set_for_test(|t| {
        *t.active() = p as u8;
        *t.camel() = camel as u8;
    });
}

// ---------------------------------------------------------------- setup

/// DUN-01: "2p: remove the 1, the 9s and the 10s. 3p: remove the 1 and the 10s. 4p: use
/// all cards." "Do the same for the Majority Tokens." Market = 8, 3 cards per player;
/// DUN-2.4 "4 players: 7 coins each • 3 players: 6 coins each • 2 players: 5 coins each".
#[test]
fn rule_setup_deck_tokens_and_coins_by_player_count() {
    for (n, deck, pile, coins, values) in [
        (2, 35, 21, 5, 0b01_1111_1100u16),
        (3, 44, 27, 6, 0b11_1111_1100),
        (4, 55, 35, 7, 0b111_1111_1110),
    ] {
        let r = rules::<State>(&Params::default(), n).unwrap();
        assert_eq!(r.data().deck, deck);
        assert_eq!(r.data().values, values);
        let s = State::new_game(r, &mut test_rng(n as u64));
        assert_eq!(s.knowledge().len(PILE), pile);
        assert!(s.market().iter().all(|&c| c != NONE));
        for p in 0..n {
            assert_eq!(s.knowledge().len(p), 3, "L53 each player draws 3");
            assert_eq!(s.coins(p), coins);
        }
        assert_eq!(r.data().win_tokens, if n == 2 { 5 } else { 4 });
    }
}

/// DUN-2.3 "Each player draws 3 cards and keeps 1 card in hand. The others are removed from
/// the game, face down." DUN-14: each keep is a decision of that seat, in seat order; the
/// removed cards are known to their owner only. DUN-2.5 "The last player places the Camel
/// Pawn on the character of their choice."
#[test]
fn rule_setup_keep_one_of_three_then_last_player_places_camel() {
    let r = rules::<State>(&Params::default(), 3).unwrap();
    let mut s = State::new_game(r, &mut test_rng(5));
    for p in 0..3 {
        assert_eq!(s.turn(), Turn::Player(p));
        let l = legal(&s);
        assert!(l.iter().all(|a| matches!(a, Action::Keep(_))) && !l.is_empty());
        let before = s.hand(p);
        act(&mut s, l[l.len() - 1]);
        assert_eq!(s.knowledge().len(p), 1);
        let removed = before & !s.hand(p);
        assert_eq!(removed.count_ones(), 2);
        for c in (0..64).filter(|c| removed & (1 << c) != 0) {
            assert_eq!(s.knowledge().zone_of(c), REMOVED);
            for q in 0..3 {
                assert_eq!(s.knowledge().knows(q, c), q == p, "seat {q} card {c}");
            }
        }
    }
    assert_eq!(s.phase(), Phase::Camel);
    assert_eq!(s.turn(), Turn::Player(2), "the last player");
    assert_eq!(legal(&s), (0..8).map(Action::Camel).collect::<Vec<_>>());
    act(&mut s, Action::Camel(5));
    assert_eq!((s.camel(), s.active(), s.phase()), (5, 0, Phase::Move));
}

/// The setup draws are uniform (DUN-2.1, DUN-01/03): each tile shows either side half of the
/// time, each tile stands on space 0 an eighth of the time, and a Market card or a dealt
/// card is of value v with probability v / 55 (4 players). Chi-square tests over 40,000
/// setups (seed 31) at a 1e-4 level, each draw's own distribution: a side, a first tile
/// or a dealt card that is not uniform fails them (a dependence between the sides and the
/// circle order would not).
#[test]
fn setup_draws_are_uniform() {
    let r = rules::<State>(&Params::default(), 4).unwrap();
    let mut rng = test_rng(31);
    let games = 40_000u32;
    let mut side_b = [0u32; 8];
    let mut at0 = [0u32; 8];
    let mut market0 = [0u32; 11];
    let mut last_dealt = [0u32; 11];
    for _ in 0..games {
        let s = State::new_game(r, &mut rng);
        for &c in &s.tiles() {
            side_b[usize::from(c / 2)] += u32::from(c % 2);
        }
        at0[usize::from(s.tiles()[0] / 2)] += 1;
        market0[usize::from(s.market_values()[0])] += 1;
        let h = s.hand(3);
        // Seat 3's 3 cards, dealt last (drawn without replacement: slightly less spread
        // than independent draws, which only makes the test more lenient).
        for c in (0..64).filter(|c| h & (1u64 << c) != 0) {
            last_dealt[usize::from(r.data().value_of[c])] += 1;
        }
    }
    let chi2 = |obs: &[u32], expect: &dyn Fn(usize) -> f64| -> f64 {
        obs.iter()
            .enumerate()
            .map(|(i, &o)| {
                let e = expect(i);
                if e == 0.0 {
                    assert_eq!(o, 0);
                    0.0
                } else {
                    (f64::from(o) - e).powi(2) / e
                }
            })
            .sum()
    };
    let g = f64::from(games);
    for (t, &b) in side_b.iter().enumerate() {
        // Binomial(40000, 1/2): sd 100; 4.5 sd is about 1e-5 per tile.
        assert!((f64::from(b) - g / 2.0).abs() < 450.0, "tile {t}: {b}");
    }
    // Critical values at 1e-4: 7 df 29.9, 9 df 33.7.
    let x = chi2(&at0, &|_| g / 8.0);
    assert!(x < 29.9, "tile on space 0: {at0:?}, chi2 {x}");
    let by_value = |n: f64| move |v: usize| n * v as f64 / 55.0;
    let x = chi2(&market0, &by_value(g));
    assert!(x < 33.7, "Market space 0: {market0:?}, chi2 {x}");
    let x = chi2(&last_dealt, &by_value(3.0 * g));
    assert!(x < 33.7, "seat 3's hand: {last_dealt:?}, chi2 {x}");
}

/// DUN-14 `seat_known_at_keep=false`: the keeps come first, then the first player is
/// drawn at random, and the player on their right places the camel.
#[test]
fn rule_setup_first_player_drawn_after_the_keeps() {
    let p = Params::from_settings(&["seat_known_at_keep=false"], "t").unwrap();
    let mut firsts = [0; 4];
    for seed in 0..40 {
        let mut rng = test_rng(seed);
        let mut s = crate::game::setup::<State>(&p, 4, &mut rng).unwrap();
        for k in 0..4 {
            let l = legal(&s);
            s.apply(k, l[0], &mut rng).unwrap();
        }
        let Turn::Player(placer) = s.turn() else {
            panic!()
        };
        act(&mut s, Action::Camel(0));
        assert_eq!(placer, (s.active() + 3) % 4);
        firsts[s.active()] += 1;
    }
    assert!(firsts.iter().all(|&f| f > 0), "{firsts:?}");
}

/// DUN-03: an explicit list names one side of each tile; two sides of a tile, an unknown
/// name or a wrong count are bad input naming the parameter.
#[test]
fn rule_setup_characters_parameter_is_validated() {
    assert!(Params::from_settings(&[format!("characters={A}")], "t").is_ok());
    for bad in [
        "Painter,Musician,Interpreter,Soldier,Trader,Maid,Shepherd,Manichean",
        "Painter,Princess,Interpreter,Soldier,Trader,Maid,Shepherd,Buddhist,Dancer",
        "Painter,Princess,Interpreter,Soldier,Trader,Maid,Shepherd,Monk",
    ] {
        let e = Params::from_settings(&[format!("characters={bad}")], "game dunhuang")
            .unwrap_err()
            .to_string();
        assert!(e.contains("characters") && e.contains("one side of"), "{e}");
    }
    let e = Params::from_settings(&["max_camel_steps=0"], "g")
        .unwrap_err()
        .to_string();
    assert!(e.contains("max_camel_steps") && e.contains("none"), "{e}");
    let e = Params::from_settings(&["removed_values=1,1/none/none"], "g")
        .unwrap_err()
        .to_string();
    assert!(e.contains("removed_values"), "{e}");
    let p = Params::from_settings(&["returns=margin"], "g").unwrap();
    let e = rules::<State>(&p, 3).unwrap_err().to_string();
    assert!(e.contains("returns=margin"), "{e}");
    let p = Params::from_settings(&["removed_values=2,3,4,5,6,7,8,9"], "g").unwrap();
    let e = rules::<State>(&p, 4).unwrap_err().to_string();
    assert!(
        e.contains("removed_values") && e.contains("setup needs"),
        "{e}"
    );
    // Random sides: both sides of a tile appear over games, never together.
    let mut seen = 0u16;
    for seed in 0..30 {
        let s = crate::game::setup::<State>(&Params::default(), 2, &mut test_rng(seed)).unwrap();
        let tiles = s.tiles();
        for t in 0..8 {
            assert_eq!(tiles.iter().filter(|&&c| c / 2 == t).count(), 1);
        }
        seen |= tiles.iter().fold(0, |m, &c| m | 1 << c);
    }
    assert_eq!(seen, u16::MAX);
}

// ---------------------------------------------------------------- the turn

/// DUN-3.2 "This first move is free; however, if you want to move the Camel further, you
/// must spend one coin for each extra move." Example: "Moving the Camel to the Soldier is
/// free, but Antony must spend one coin for the extra move to the Shepherd."
#[test]
fn rule_move_antony_extra_step_to_the_shepherd_costs_one_coin() {
    let mut s = clean(
        4,
        "Painter,Soldier,Shepherd,Princess,Interpreter,Trader,Maid,Manichean",
        &[],
    );
    market(&mut s, 1, 5);
    market(&mut s, 2, 6);
    assert_eq!(s.coins(0), 7);
    act(&mut s, Action::Steps(2));
    assert_eq!(s.camel(), 2);
    assert_eq!(CHARACTERS[s.tiles()[2] as usize], "Shepherd");
    assert_eq!(s.coins(0), 6);
    assert_eq!(s.stats(0).step_coins, 1);
    // The free step.
    let mut s2 = clean(4, A, &[]);
    market(&mut s2, 1, 5);
    act(&mut s2, Action::Steps(1));
    assert_eq!(s2.coins(0), 7);
}

/// DUN-3.2 "You must move the Camel Pawn at least one step"; each extra step needs a coin;
/// DUN-07 caps the move at `max_camel_steps` (default 7).
#[test]
fn rule_move_steps_are_limited_by_coins_and_the_cap() {
    let mut s = clean(4, A, &[]);
    s.set_for_test(|t| t.coins()[0] = 2);
    assert_eq!(legal(&s), (1..=3).map(Action::Steps).collect::<Vec<_>>());
    s.set_for_test(|t| t.coins()[0] = 0);
    assert_eq!(legal(&s), vec![Action::Steps(1)]);
    s.set_for_test(|t| t.coins()[0] = 40);
    assert_eq!(legal(&s).len(), 7);
    let mut s = clean(4, A, &["max_camel_steps=none"]);
    s.set_for_test(|t| t.coins()[0] = 40);
    assert_eq!(legal(&s).len(), 41);
}

/// DUN-3.2 "These spaces still count towards the Camel's move ... if the Camel stops on such
/// a space, you do not collect any card." DUN-11: the bonus remains (default), or not.
#[test]
fn rule_move_empty_spaces_count_and_an_empty_stop_collects_nothing() {
    let mut s = clean(4, A, &[]);
    market(&mut s, 3, 5);
    act(&mut s, Action::Steps(2));
    assert_eq!(s.camel(), 2);
    assert_eq!(s.phase(), Phase::Bonus, "no pick on an empty space");
    assert_eq!(s.knowledge().len(0), 0);
    act(&mut s, Action::Coins);
    assert_eq!(s.coins(0), 7 - 1 + 3);
    let mut s = clean(4, A, &["bonus_on_empty_stop=false"]);
    act(&mut s, Action::Steps(1));
    assert_eq!((s.phase(), s.active()), (Phase::Move, 1), "turn over");
}

/// DUN-3.3: the good goes to the hand or the Shop; a move between the Market and a hand is
/// seen by all (DUN-13).
#[test]
fn rule_pick_to_hand_or_shop() {
    let mut s = clean(3, A, &[]);
    market(&mut s, 1, 7);
    act(&mut s, Action::Steps(1));
    assert_eq!(legal(&s), vec![Action::Hand, Action::Shop]);
    let mut h = s.clone();
    act(&mut h, Action::Hand);
    assert_eq!(h.hand_counts(0)[7], 1);
    let c = (0..64).find(|c| h.hand(0) & (1 << c) != 0).unwrap();
    assert!((0..3).all(|q| h.knowledge().knows(q, c)), "seen by all");
    assert_eq!(h.market()[1], NONE);
    act(&mut s, Action::Shop);
    assert_eq!(s.shop_counts(0)[7], 1);
    assert_eq!(s.token(7), (Some(0), false));
}

/// DUN-3.4 "take the Majority Token of the matching number and place it on that card (number
/// face up), except if the Majority Token already is in a Shop that has more cards of this
/// type than yours. Note that in the case of a tie, you still get the Majority Token." The
/// Nicole / Antony Tea examples (DUN-3.4).
#[test]
fn rule_pick_nicole_takes_the_tea_token_then_antony_ties_and_takes_it() {
    let mut s = clean(4, A, &[]);
    // Nicole (seat 0) has a Tea; Antony (seat 1) has a Tea.
    shop(&mut s, 0, &[7]);
    shop(&mut s, 1, &[7]);
    token(&mut s, 7, 1, false);
    market(&mut s, 1, 7);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    assert_eq!(s.shop_counts(0)[7], 2);
    assert_eq!(s.token(7), (Some(0), false), "Nicole takes it with 2 Tea");
    assert_eq!(s.stats(0).stolen, 1);
    act(&mut s, Action::Coins);
    // Antony adds a second Tea: tie, he takes it.
    assert_eq!(s.active(), 1);
    let m = (s.camel() + 1) % 8;
    market(&mut s, m, 7);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    assert_eq!(s.token(7), (Some(1), false), "a tie still takes the token");
    assert_eq!(s.stats(0).lost, 1);
}

/// DUN-04: a token in the middle is taken "even if another Shop, which does not hold the
/// token, has more cards of that type"; a Shop with more cards keeps it.
#[test]
fn rule_pick_token_in_the_middle_and_a_bigger_shop() {
    let mut s = clean(4, A, &[]);
    shop(&mut s, 1, &[6, 6, 6]);
    market(&mut s, 1, 6);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    assert_eq!(s.token(6), (Some(0), false), "from the middle");
    let mut s = clean(4, A, &[]);
    shop(&mut s, 1, &[6, 6, 6]);
    token(&mut s, 6, 1, false);
    market(&mut s, 1, 6);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    assert_eq!(s.token(6), (Some(1), false), "the bigger Shop keeps it");
}

/// DUN-3.5 "Take three coins"; DUN-08 the bonus may be refused.
#[test]
fn rule_bonus_three_coins_or_nothing() {
    let mut s = clean(4, A, &[]);
    market(&mut s, 1, 6);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Hand);
    // Princess: always available (DUN-16).
    assert_eq!(
        legal(&s),
        vec![Action::Coins, Action::Power, Action::NoBonus]
    );
    let mut n = s.clone();
    act(&mut n, Action::NoBonus);
    assert_eq!(n.coins(0), 7);
    act(&mut s, Action::Coins);
    assert_eq!(s.coins(0), 10);
    assert_eq!(s.stats(0).bonus_coins, 3);
    let mut s = clean(4, A, &["bonus_may_be_skipped=false"]);
    market(&mut s, 1, 6);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Hand);
    assert_eq!(legal(&s), vec![Action::Coins, Action::Power]);
}

/// DUN-3.7 "Draw new goods from the pile to refill any empty space of the Market. If there
/// are several empty spaces, start from the Camel's space, then proceed clockwise."
#[test]
fn rule_refill_from_the_camel_clockwise() {
    let mut s = clean(4, A, &[]);
    market(&mut s, 1, 6);
    // Leave exactly 2 cards in the pile: spaces 1 (camel) and 2 get them, the rest stay
    // empty, and the end is triggered.
    let keep: Vec<usize> = vec![pile_card(&s, 9), pile_card(&s, 10)];
    let deck = s.rules().data().deck as usize;
    s.set_for_test(|t| {
        for c in 0..deck {
            if t.know().zone_of(c) == PILE && !keep.contains(&c) {
                t.know().move_card(c, REMOVED, SeatSet::EMPTY);
            }
        }
    });
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Hand);
    act(&mut s, Action::Coins);
    let mv = s.market_values();
    assert!(mv[1] >= 9 && mv[2] >= 9, "{mv:?}");
    assert!(
        mv.iter()
            .enumerate()
            .all(|(m, &v)| (m == 1 || m == 2) == (v != 0))
    );
    assert!(s.triggered());
}

// ---------------------------------------------------------------- victory and the end

/// DUN-3.6 "If, at the end of your turn, you have 4 Majority Tokens in your Shop (or 5 in a
/// 2-player game) and at least 4 different goods in your hand, then you immediately win
/// the game." The example: "Nicole has 4 Majority Tokens and 4 different goods in her
/// hand. She instantly wins the game." The Market is not refilled (DUN-05).
#[test]
fn rule_victory_nicole_instant_win_example() {
    for n in 2..=4 {
        let mut s = clean(n, A, &[]);
        hand(&mut s, 0, &[3, 4, 5]);
        for v in [2, 3, 4, 5, 6] {
            token(&mut s, v, 0, v == 6);
        }
        if n > 2 {
            token(&mut s, 6, 1, false);
        }
        market(&mut s, 1, 6);
        act(&mut s, Action::Steps(1));
        act(&mut s, Action::Hand);
        assert_eq!(
            s.phase(),
            Phase::Bonus,
            "checked at step 4, after the bonus"
        );
        act(&mut s, Action::Coins);
        assert_eq!(s.instant_winner(), Some(0), "{n} players");
        assert!(s.turn().is_terminal());
        assert_eq!(s.end_condition(), "instant_win");
        assert!(
            s.market().iter().all(|&c| c == NONE),
            "no refill after a win"
        );
        assert_eq!(s.ranks()[0], 1);
        assert_eq!(s.returns()[0], 1.0);
        // At 2 players 4 tokens are not enough.
        if n == 2 {
            let mut t = clean(2, A, &[]);
            hand(&mut t, 0, &[3, 4, 5, 6]);
            for v in [2, 3, 4, 5] {
                token(&mut t, v, 0, false);
            }
            market(&mut t, 1, 6);
            act(&mut t, Action::Steps(1));
            act(&mut t, Action::Hand);
            act(&mut t, Action::Coins);
            assert_eq!(t.instant_winner(), None);
        }
    }
}

/// DUN-05 `win_check=active_player_only`: a player who meets the condition during another
/// player's turn wins only at their own step 4; `any_player` checks everyone.
#[test]
fn rule_victory_only_the_active_player_is_checked() {
    for (variant, want) in [
        ("win_check=active_player_only", None),
        ("win_check=any_player", Some(1)),
    ] {
        let mut s = clean(4, A, &[variant]);
        hand(&mut s, 1, &[3, 4, 5, 6]);
        for v in [2, 3, 4, 5] {
            token(&mut s, v, 1, false);
        }
        market(&mut s, 1, 7);
        act(&mut s, Action::Steps(1));
        act(&mut s, Action::Hand);
        act(&mut s, Action::Coins);
        assert_eq!(s.instant_winner(), want, "{variant}");
    }
}

/// DUN-15 `instant_win_rest`: the winner ranks first, the others by points then coins, or
/// all second.
#[test]
fn rule_victory_ranks_of_the_others_after_an_instant_win() {
    for (variant, want) in [
        ("instant_win_rest=by_score", [1, 3, 2, 4]),
        ("instant_win_rest=tied_second", [1, 2, 2, 2]),
    ] {
        let mut s = clean(4, A, &[variant]);
        hand(&mut s, 0, &[3, 4, 5]);
        for v in [2, 3, 4, 5] {
            token(&mut s, v, 0, false);
        }
        s.set_for_test(|t| {
            t.prestige()[1] = 5;
            t.prestige()[2] = 9;
            t.prestige()[3] = 1;
        });
        market(&mut s, 1, 6);
        act(&mut s, Action::Steps(1));
        act(&mut s, Action::Hand);
        act(&mut s, Action::NoBonus);
        assert_eq!(s.ranks(), want, "{variant}");
    }
}

/// DUN-4.1 "the game ends when you run out of cards to refill the Market. In that case, play
/// until the last player (the person that sits on the right of the First player) plays
/// their turn". DUN-10 `refill_incomplete`; at 2, 3 and 4 players, triggered by each seat.
#[test]
fn rule_end_trigger_and_the_last_turns() {
    for n in 2..=4 {
        for trigger_seat in 0..n {
            let mut s = clean(n, A, &[]);
            s.set_for_test(|t| *t.active() = trigger_seat as u8);
            // Fill the Market; empty the pile.
            for m in 0..8 {
                market(&mut s, m, [2, 3, 4, 5, 6, 7, 8, 8][m]);
            }
            let deck = s.rules().data().deck as usize;
            s.set_for_test(|t| {
                for c in 0..deck {
                    if t.know().zone_of(c) == PILE {
                        t.know().move_card(c, REMOVED, SeatSet::EMPTY);
                    }
                }
            });
            act(&mut s, Action::Steps(1));
            act(&mut s, Action::Hand);
            act(&mut s, Action::Coins);
            assert!(s.triggered());
            let mut turns = 0;
            while !s.turn().is_terminal() {
                assert_eq!(s.phase(), Phase::Move);
                turns += 1;
                act(&mut s, Action::Steps(1));
                if s.phase() == Phase::Pick {
                    act(&mut s, Action::Hand);
                }
                act(&mut s, Action::Coins);
            }
            assert_eq!(
                turns,
                n - 1 - trigger_seat,
                "{n} players, trigger by {trigger_seat}"
            );
            assert_eq!(s.end_condition(), "pile_exhausted");
        }
    }
}

/// DUN-10 `end_trigger=pile_empty`: the turn that takes the last card triggers the end
/// even if every space was filled.
#[test]
fn rule_end_trigger_pile_empty_variant() {
    for (variant, want) in [
        ("end_trigger=refill_incomplete", false),
        ("end_trigger=pile_empty", true),
    ] {
        let mut s = clean(4, A, &[variant]);
        for m in 0..8 {
            market(&mut s, m, [2, 3, 4, 5, 6, 7, 8, 8][m]);
        }
        let keep = pile_card(&s, 9);
        let deck = s.rules().data().deck as usize;
        s.set_for_test(|t| {
            for c in 0..deck {
                if t.know().zone_of(c) == PILE && c != keep {
                    t.know().move_card(c, REMOVED, SeatSet::EMPTY);
                }
            }
        });
        act(&mut s, Action::Steps(1));
        act(&mut s, Action::Hand);
        act(&mut s, Action::Coins);
        assert_eq!(s.pile_len(), 0);
        assert_eq!(s.triggered(), want, "{variant}");
    }
}

// ---------------------------------------------------------------- scoring

/// Fills hands, tokens and Prestige of the scoring example (DUN-4.6) at 4 players
/// (DUN-01: the example is a 4-player game; seats 2 and 3 hold nothing).
fn scoring_example() -> State {
    let mut s = clean(4, A, &[]);
    // Adrien (seat 0): more Glass, Tea and Silk than Nicole.
    hand(&mut s, 0, &[5, 5, 7, 7, 10]);
    // Nicole (seat 1): Glass, Bamboo, Tea, two Wool.
    hand(&mut s, 1, &[5, 6, 7, 9, 9]);
    for v in [1, 2] {
        token(&mut s, v, 0, false);
    }
    for v in [3, 4, 8] {
        token(&mut s, v, 1, v == 8);
    }
    s.set_for_test(|t| t.prestige()[1] = 2);
    s
}

/// DUN-4.3 and the example: "Adrien ... can only score two cards out of three. He
/// chooses to discard the Glass (#5) ... Total 21"; "Nicole ... keeps her Bamboo (#6) and
/// one of her Wool (#9) ... Total 23. Nicole wins."
#[test]
fn rule_scoring_example_adrien_21_nicole_23() {
    let s = scoring_example();
    let pts = s.final_points();
    assert_eq!(pts[0], 21, "Adrien");
    assert_eq!(pts[1], 23, "Nicole");
    assert_eq!(&pts[2..], &[0, 0]);
    let r = s.ranks();
    assert_eq!((r[1], r[0]), (1, 2), "Nicole wins");
}

/// DUN-4.3 "you cannot score more cards than you have Majority Tokens"; DUN-4.3 Shop cards
/// score nothing; a player without tokens scores no hand card.
#[test]
fn rule_scoring_more_hand_cards_than_tokens() {
    let mut s = clean(3, A, &[]);
    hand(&mut s, 0, &[2, 5, 8]);
    shop(&mut s, 0, &[3, 3, 3]);
    token(&mut s, 3, 0, false);
    assert_eq!(s.final_points()[0], 2 + 8, "one token: only the best card");
    hand(&mut s, 1, &[8, 8]);
    assert_eq!(s.final_points()[0], 2 + 5, "the 8s go to seat 1's majority");
    assert_eq!(s.final_points()[1], 0, "no token, no hand card");
    token(&mut s, 4, 1, true);
    assert_eq!(s.final_points()[1], 2 + 8, "a 裔 token counts too");
}

/// DUN-4.4 "In the case of a tie, the richest player (most coins) among the tied players
/// wins"; DUN-10 `final_tie=shared`.
#[test]
fn rule_scoring_ties_by_coins_then_shared() {
    let mut s = clean(3, A, &[]);
    s.set_for_test(|t| {
        t.prestige()[0] = 4;
        t.prestige()[1] = 4;
        t.coins()[0] = 3;
        t.coins()[1] = 5;
    });
    assert_eq!(s.ranks(), [2, 1, 3, 0]);
    s.set_for_test(|t| t.coins()[0] = 5);
    assert_eq!(s.ranks(), [1, 1, 3, 0]);
}

// ---------------------------------------------------------------- the Majority Tokens

/// DUN-5.13 "If any opponent has more goods of that type than you, you must immediately
/// return the Majority Token to the middle." (Musician) — and then "a token in the middle
/// taken by the next card of its type" (DUN-04), even by a smaller Shop.
#[test]
fn rule_token_returned_to_the_middle_then_taken_by_the_next_card() {
    let mut s = clean(
        4,
        "Musician,Princess,Interpreter,Soldier,Trader,Maid,Shepherd,Manichean",
        &[],
    );
    shop(&mut s, 0, &[6, 6]);
    shop(&mut s, 1, &[6, 6]);
    shop(&mut s, 2, &[6]);
    token(&mut s, 6, 0, false);
    set_active(&mut s, 0, 7);
    act(&mut s, Action::Steps(1));
    assert_eq!(s.tiles()[0], ch::MUSICIAN);
    act(&mut s, Action::Power);
    assert_eq!(legal(&s), vec![Action::Discard(6)]);
    act(&mut s, Action::Discard(6));
    assert_eq!(s.prestige(0), 3);
    assert_eq!(s.token(6), (None, false), "to the middle, not to seat 1");
    assert_eq!(s.stats(0).returned, 1);
    assert_eq!(s.discarded(), 1);
    // Seat 1 does not get it; seat 2 (1 Bamboo) adding a second takes it from the middle.
    set_active(&mut s, 2, 0);
    market(&mut s, 1, 6);
    s.set_for_test(|t| *t.phase() = Phase::Move);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    assert_eq!(s.token(6), (Some(2), false));
}

/// DUN-04 `zero_count_returns_token`: the last card of a value leaves and nobody has any.
#[test]
fn rule_token_zero_count_returns_by_default() {
    for (variant, want) in [
        ("zero_count_returns_token=true", None),
        ("zero_count_returns_token=false", Some(0)),
    ] {
        let mut s = clean(
            2,
            "Musician,Princess,Interpreter,Soldier,Trader,Maid,Shepherd,Manichean",
            &[variant],
        );
        shop(&mut s, 0, &[6]);
        token(&mut s, 6, 0, false);
        set_active(&mut s, 0, 7);
        act(&mut s, Action::Steps(1));
        act(&mut s, Action::Power);
        act(&mut s, Action::Discard(6));
        assert_eq!(s.token(6).0, want, "{variant}");
    }
}

// ---------------------------------------------------------------- characters

/// Moves seat 0's camel one step onto space 1 holding a card of value `pick_v` and picks
/// it into the hand, leaving seat 0 at the bonus. Space 1 holds `chars`' second name.
fn at_bonus(chars: &str, n: usize, extra: &[&str], pick_v: u8) -> State {
    let mut s = clean(n, chars, extra);
    market(&mut s, 1, pick_v);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Hand);
    assert_eq!(s.phase(), Phase::Bonus);
    s
}

fn layout_with(at1: &str) -> String {
    let mut names: Vec<&str> = A.split(',').collect();
    let c = CHARACTERS.iter().position(|c| *c == at1).unwrap();
    let tile = c / 2;
    // Put the wanted character on space 1 (swap the tile that was there).
    let pos = names
        .iter()
        .position(|n| CHARACTERS.iter().position(|c| c == n).unwrap() / 2 == tile)
        .unwrap();
    names.swap(1, pos);
    names[1] = at1;
    names.join(",")
}

/// DUN-5.1 Painter: "Discard one good from your hand and take 3 Prestige Tokens." Empty hand:
/// unavailable (DUN-16). The discard is public (DUN-13 default) or known to its owner.
#[test]
fn rule_character_painter() {
    let l = layout_with("Painter");
    let mut s = at_bonus(&l, 3, &[], 4);
    act(&mut s, Action::Power);
    assert_eq!(legal(&s), vec![Action::Discard(4)]);
    act(&mut s, Action::Discard(4));
    assert_eq!(
        (s.prestige(0), s.knowledge().len(0), s.discarded()),
        (3, 0, 1)
    );
    // Empty hand: the power is unavailable.
    let mut s = clean(3, &l, &[]);
    market(&mut s, 1, 4);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    assert_eq!(legal(&s), vec![Action::Coins, Action::NoBonus]);
    // A private discard goes face down, known to the Painter only.
    let mut s = at_bonus(&l, 3, &["discards_public=false"], 4);
    act(&mut s, Action::Power);
    act(&mut s, Action::Discard(4));
    let c = (0..64).find(|&c| {
        s.knowledge().cards(REMOVED) & (1u64 << c) != 0
            && s.rules().data().value_of[c] == 4
            && s.knowledge().knows(0, c)
    });
    assert!(
        !s.knowledge()
            .knows(1, c.expect("the discard, known to the Painter"))
    );
}

/// DUN-5.2 Musician: "Discard one good from your Shop and take 3 Prestige Tokens"; with an
/// empty Shop unavailable. (The token return: `rule_token_returned_to_the_middle_...`.)
#[test]
fn rule_character_musician() {
    let l = layout_with("Musician");
    let mut s = at_bonus(&l, 2, &[], 4);
    assert_eq!(
        legal(&s),
        vec![Action::Coins, Action::NoBonus],
        "empty Shop"
    );
    shop(&mut s, 0, &[3, 5]);
    assert!(legal(&s).contains(&Action::Power));
    act(&mut s, Action::Power);
    assert_eq!(legal(&s), vec![Action::Discard(3), Action::Discard(5)]);
    act(&mut s, Action::Discard(5));
    assert_eq!((s.prestige(0), s.shop_counts(0)[5]), (3, 0));
}

/// DUN-5.3 Princess: "Collect as many Prestige Tokens as you have Majority Tokens,
/// regardless on their status"; always available, 0 tokens give 0 (DUN-16).
#[test]
fn rule_character_princess() {
    let l = layout_with("Princess");
    let mut s = at_bonus(&l, 4, &[], 4);
    token(&mut s, 2, 0, false);
    token(&mut s, 3, 0, true);
    token(&mut s, 4, 1, false);
    act(&mut s, Action::Power);
    assert_eq!(s.prestige(0), 2);
    let mut s = at_bonus(&l, 4, &[], 4);
    act(&mut s, Action::Power);
    assert_eq!(s.prestige(0), 0);
    assert_eq!(s.stats(0).characters, 1 << ch::PRINCESS);
}

/// DUN-5.4 Dancer: "Collect 2 Prestige Tokens."
#[test]
fn rule_character_dancer() {
    let mut s = at_bonus(&layout_with("Dancer"), 2, &[], 4);
    act(&mut s, Action::Power);
    assert_eq!(s.prestige(0), 2);
    assert_eq!(s.stats(0).powers, 1);
}

/// DUN-5.5 Interpreter: "Pick up from the drawing pile as many goods as steps taken by the
/// Camel. Keep one in your hand and place the others at the bottom of the drawing pile in
/// a random order." The bottom is drawn after the rest of the pile; a short pile draws
/// what exists (DUN-08) or makes the power unavailable; an empty pile, unavailable.
#[test]
fn rule_character_interpreter() {
    let l = layout_with("Interpreter");
    let mut s = clean(3, &l, &[]);
    s.set_for_test(|t| *t.camel() = 6);
    market(&mut s, 1, 4);
    act(&mut s, Action::Steps(3));
    act(&mut s, Action::Hand);
    act(&mut s, Action::Power);
    assert_eq!(s.phase(), Phase::KeepDrawn);
    assert_eq!(s.knowledge().len(DRAWN), 3, "as many as the steps");
    let drawn = s.knowledge().cards(DRAWN);
    assert!(
        (0..64)
            .filter(|c| drawn & (1 << c) != 0)
            .all(|c| s.knowledge().knows(0, c) && !s.knowledge().knows(1, c))
    );
    let l2 = legal(&s);
    assert!(l2.iter().all(|a| matches!(a, Action::Keep(_))));
    act(&mut s, l2[0]);
    assert_eq!(s.knowledge().len(0), 2);
    assert_eq!(s.knowledge().len(BOTTOM), 2);
    let bottom = s.knowledge().cards(BOTTOM);
    // The bottom cards come after every other pile card.
    let pile = s.knowledge().len(PILE) as usize;
    let mut t = s.clone();
    let mut rng = test_rng(3);
    let mut buf = Vec::new();
    let mut drawn_order = Vec::new();
    while !t.turn().is_terminal() && t.knowledge().len(BOTTOM) > 0 {
        let before = t.knowledge().cards(PILE) | t.knowledge().cards(BOTTOM);
        let Turn::Player(p) = t.turn() else { break };
        t.legal_actions(p, &mut buf);
        // Avoid powers that put cards back.
        let a = *buf.iter().find(|a| !matches!(a, Action::Power)).unwrap();
        t.apply(p, a, &mut rng).unwrap();
        let after = t.knowledge().cards(PILE) | t.knowledge().cards(BOTTOM);
        for c in (0..64).filter(|c| before & !after & (1u64 << c) != 0) {
            drawn_order.push(bottom & (1 << c) != 0);
        }
    }
    assert!(drawn_order.len() > pile);
    assert!(drawn_order[..pile].iter().all(|&b| !b), "pile first");
    // Short and empty piles.
    for (variant, left, want) in [
        ("short_pile_draw=what_exists", 2, Some(2)),
        ("short_pile_draw=unavailable", 2, None),
        ("short_pile_draw=what_exists", 0, None),
    ] {
        let mut s = clean(3, &l, &[variant]);
        s.set_for_test(|t| *t.camel() = 6);
        market(&mut s, 1, 4);
        let deck = s.rules().data().deck as usize;
        let mut kept = 0;
        s.set_for_test(|t| {
            for c in 0..deck {
                if t.know().zone_of(c) == PILE {
                    if kept < left {
                        kept += 1;
                    } else {
                        t.know().move_card(c, REMOVED, SeatSet::EMPTY);
                    }
                }
            }
        });
        act(&mut s, Action::Steps(3));
        act(&mut s, Action::Hand);
        let has = legal(&s).contains(&Action::Power);
        assert_eq!(has, want.is_some(), "{variant} {left}");
        if let Some(k) = want {
            act(&mut s, Action::Power);
            assert_eq!(s.knowledge().len(DRAWN), k);
        }
    }
}

/// DUN-5.6 Diplomat: "Pick up two goods from the drawing pile. Keep one in your hand and place
/// the other at the bottom of the drawing pile." Later batches lie below earlier ones.
#[test]
fn rule_character_diplomat() {
    let l = layout_with("Diplomat");
    let mut s = at_bonus(&l, 4, &[], 4);
    act(&mut s, Action::Power);
    assert_eq!(s.knowledge().len(DRAWN), 2);
    let l2 = legal(&s);
    act(&mut s, l2[0]);
    assert_eq!(s.knowledge().len(BOTTOM), 1);
    let first = s.knowledge().cards(BOTTOM).trailing_zeros() as usize;
    assert!(s.knowledge().knows(0, first) && !s.knowledge().knows(1, first));
    // A second batch by seat 1, then empty the pile: seat 0's card is drawn first.
    let mut s2 = s.clone();
    s2.set_for_test(|t| {
        *t.active() = 0;
        *t.camel() = 0;
        *t.phase() = Phase::Move;
    });
    let deck = s2.rules().data().deck as usize;
    let second = pile_card(&s2, 9);
    market(&mut s2, 1, 10);
    s2.set_for_test(|t| {
        t.know().move_card(second, BOTTOM, SeatSet::single(1));
        t.batch_of()[second] = 2;
        *t.batch_next() = 3;
        for c in 0..deck {
            if t.know().zone_of(c) == PILE {
                t.know().move_card(c, REMOVED, SeatSet::EMPTY);
            }
        }
        for m in [0, 2, 3, 4, 5, 6, 7] {
            if t.market()[m] != NONE {
                let c = t.market()[m] as usize;
                t.market()[m] = NONE;
                t.know().move_card(c, REMOVED, SeatSet::EMPTY);
            }
        }
    });
    act(&mut s2, Action::Steps(1));
    act(&mut s2, Action::Hand);
    act(&mut s2, Action::Coins);
    // Space 1 (the camel) is refilled first, with the first batch's card.
    assert_eq!(s2.market()[1] as usize, first);
    assert_eq!(s2.market()[2] as usize, second);
}

/// DUN-5.7 Soldier: "Exchange one good from your Shop with one good from the Market." The
/// Shop card takes the Market space (DUN-12); the entering card is checked "as if it were
/// a new card" and the leaving one by the return rule (DUN-5.13).
#[test]
fn rule_character_soldier() {
    let l = layout_with("Soldier");
    let mut s = at_bonus(&l, 4, &[], 4);
    assert!(!legal(&s).contains(&Action::Power), "empty Shop");
    shop(&mut s, 0, &[7, 7]);
    shop(&mut s, 1, &[7, 7]);
    shop(&mut s, 2, &[8]);
    token(&mut s, 7, 0, false);
    token(&mut s, 8, 2, false);
    market(&mut s, 3, 8);
    market(&mut s, 4, 7);
    act(&mut s, Action::Power);
    assert_eq!(
        legal(&s),
        vec![Action::Exchange(7, 3), Action::Exchange(7, 4)],
        "only spaces with a card"
    );
    let mut same = s.clone();
    act(&mut s, Action::Exchange(7, 3));
    assert_eq!(s.market_values()[3], 7);
    assert_eq!((s.shop_counts(0)[7], s.shop_counts(0)[8]), (1, 1));
    assert_eq!(
        s.token(7),
        (None, false),
        "seat 1 has more Tea now: returned"
    );
    assert_eq!(s.token(8), (Some(0), false), "1 Paper ties seat 2's: taken");
    // Same type (DUN-12 soldier_same_type): leave first returns nothing (2-1 vs 2 → the
    // token returns), then the entering Tea ties at 2 and takes it back from the middle.
    act(&mut same, Action::Exchange(7, 4));
    assert_eq!(same.token(7), (Some(0), false));
    assert_eq!(same.stats(0).returned, 1);
    let mut ns = at_bonus(&l, 4, &["soldier_same_type=false"], 4);
    shop(&mut ns, 0, &[7]);
    market(&mut ns, 4, 7);
    assert!(
        !legal(&ns).contains(&Action::Power),
        "only a same-type exchange"
    );
}

/// DUN-12 `exchange_order`: holding #7 with 1 Tea while seat 1 has 2 (taken from the
/// middle), a Tea-for-Tea exchange: leave_first returns and retakes it; enter_first keeps
/// it at 2 then returns it when the count drops back to 1.
#[test]
fn rule_character_soldier_exchange_order() {
    let l = layout_with("Soldier");
    for (variant, want) in [
        ("exchange_order=leave_first", Some(0)),
        ("exchange_order=enter_first", None),
    ] {
        let mut s = at_bonus(&l, 3, &[variant], 4);
        shop(&mut s, 0, &[7]);
        shop(&mut s, 1, &[7, 7]);
        token(&mut s, 7, 0, false);
        market(&mut s, 4, 7);
        act(&mut s, Action::Power);
        act(&mut s, Action::Exchange(7, 4));
        assert_eq!(s.token(7).0, want, "{variant}");
    }
}

/// DUN-5.8 General: "Exchange one good from your hand with one good from the Market"; seen by
/// all (DUN-13); an empty hand: unavailable.
#[test]
fn rule_character_general() {
    let l = layout_with("General");
    let mut s = clean(3, &l, &[]);
    market(&mut s, 1, 4);
    market(&mut s, 5, 9);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    assert!(!legal(&s).contains(&Action::Power), "empty hand");
    hand(&mut s, 0, &[2]);
    act(&mut s, Action::Power);
    assert_eq!(legal(&s), vec![Action::Exchange(2, 5)]);
    act(&mut s, Action::Exchange(2, 5));
    assert_eq!(s.market_values()[5], 2);
    assert_eq!(s.hand_counts(0)[9], 1);
    let c = s.hand(0).trailing_zeros() as usize;
    assert!((0..3).all(|q| s.knowledge().knows(q, c)));
}

/// DUN-5.9 Trader: "Choose an opponent and randomly take two goods from their hand. Then,
/// give them two goods from your hand. You may give back the exact same goods if you
/// want." Uniform over the victim's cards (DUN-08); short hands: min(2, hand) and the same
/// number back; an opponent without cards is no target (DUN-16). Only the two parties see
/// the cards; the others forget what they knew of both hands (DUN-13).
#[test]
fn rule_character_trader() {
    let l = layout_with("Trader");
    let mut s = at_bonus(&l, 3, &[], 4);
    assert!(
        !legal(&s).contains(&Action::Power),
        "no opponent holds a card"
    );
    hand(&mut s, 1, &[2, 3, 5]);
    hand(&mut s, 2, &[6]);
    // Seat 2 knew seat 1's 2 (seen at a pick-up).
    let two = s.hand(1) & s.rules().data().mask[2];
    let two = two.trailing_zeros() as usize;
    s.set_for_test(|t| t.know().reveal(two, SeatSet::single(2)));
    act(&mut s, Action::Power);
    assert_eq!(legal(&s), vec![Action::Opponent(1), Action::Opponent(2)]);
    let mut counts = [0; 11];
    for seed in 0..300 {
        let mut t = s.clone();
        t.apply(0, Action::Opponent(1), &mut test_rng(seed))
            .unwrap();
        assert_eq!(t.phase(), Phase::ActiveGive);
        assert_eq!((t.knowledge().len(0), t.knowledge().len(1)), (3, 1));
        let taken = t.hand(0);
        for v in [2, 3, 5] {
            counts[v] += t.hand_counts(0)[v];
        }
        assert!(!t.knowledge().knows(2, two), "seat 2 forgets");
        for c in (0..64).filter(|c| taken & (1u64 << c) != 0) {
            assert!(t.knowledge().knows(1, c), "the victim sees what was taken");
        }
        if seed == 0 {
            let back = legal(&t);
            assert!(back.iter().all(|a| matches!(a, Action::Give(_))));
            act(&mut t, back[0]);
            let first = legal(&t)[0];
            act(&mut t, first);
            assert_eq!((t.knowledge().len(0), t.knowledge().len(1)), (1, 3));
            assert_eq!(t.phase(), Phase::Move);
        }
    }
    for v in [2, 3, 5] {
        assert!((170..=230).contains(&counts[v]), "uniform: {counts:?}");
    }
    // A one-card victim: one taken, one given back.
    let mut t = s.clone();
    act(&mut t, Action::Opponent(2));
    assert_eq!(t.knowledge().len(2), 0);
    let first = legal(&t)[0];
    act(&mut t, first);
    assert_eq!((t.knowledge().len(0), t.knowledge().len(2)), (1, 1));
    // `trade_short_hand=unavailable`: seat 2 (1 card) is no target.
    let mut u = at_bonus(&l, 3, &["trade_short_hand=unavailable"], 4);
    hand(&mut u, 1, &[2, 3]);
    hand(&mut u, 2, &[6]);
    act(&mut u, Action::Power);
    assert_eq!(legal(&u), vec![Action::Opponent(1)]);
}

/// DUN-5.10 Merchant: "Choose an opponent. That opponent chooses two goods from their hand and
/// gives them to you. Then, give them two goods from your hand ... Take 1 Prestige Token."
/// The victim's choice is the victim's decision; an empty-handed victim still gives the
/// Prestige (DUN-16).
#[test]
fn rule_character_merchant() {
    let l = layout_with("Merchant");
    let mut s = at_bonus(&l, 4, &[], 4);
    hand(&mut s, 2, &[2, 3, 5]);
    act(&mut s, Action::Power);
    assert_eq!(
        legal(&s),
        vec![
            Action::Opponent(1),
            Action::Opponent(2),
            Action::Opponent(3)
        ]
    );
    let mut e = s.clone();
    act(&mut e, Action::Opponent(1));
    assert_eq!(e.prestige(0), 1);
    assert_eq!((e.phase(), e.active()), (Phase::Move, 1), "nothing to give");
    act(&mut s, Action::Opponent(2));
    assert_eq!(s.prestige(0), 1);
    assert_eq!(s.turn(), Turn::Player(2), "the victim chooses");
    assert_eq!(
        legal(&s),
        vec![Action::Give(2), Action::Give(3), Action::Give(5)]
    );
    act(&mut s, Action::Give(5));
    act(&mut s, Action::Give(3));
    assert_eq!(s.turn(), Turn::Player(0));
    assert_eq!(s.hand_counts(0)[5], 1);
    assert!(
        legal(&s).contains(&Action::Give(5)),
        "may give back the same goods"
    );
    act(&mut s, Action::Give(5));
    act(&mut s, Action::Give(3));
    assert_eq!(s.hand_counts(2), {
        let mut h = [0u8; 11];
        h[2] = 1;
        h[3] = 1;
        h[5] = 1;
        h
    });
    assert_eq!(s.phase(), Phase::Move);
}

/// DUN-5.11 Maid: "Exchange one good from your Shop with a different one from your hand"
/// (DUN-08 `maid_different=type`), with both token checks (DUN-5.13).
#[test]
fn rule_character_maid() {
    let l = layout_with("Maid");
    let mut s = at_bonus(&l, 3, &[], 4);
    shop(&mut s, 0, &[4]);
    token(&mut s, 4, 0, false);
    shop(&mut s, 1, &[6]);
    token(&mut s, 6, 1, false);
    hand(&mut s, 0, &[6]);
    act(&mut s, Action::Power);
    assert_eq!(
        legal(&s),
        vec![Action::Maid(4, 6)],
        "the hand 4 is the same type"
    );
    act(&mut s, Action::Maid(4, 6));
    assert_eq!(s.token(4), (None, false), "count 0: back to the middle");
    assert_eq!(
        s.token(6),
        (Some(0), false),
        "1 Bamboo ties seat 1's: taken"
    );
    assert_eq!(s.hand_counts(0)[4], 2);
    let mut c = at_bonus(&l, 3, &["maid_different=card"], 4);
    shop(&mut c, 0, &[4]);
    act(&mut c, Action::Power);
    assert_eq!(legal(&c), vec![Action::Maid(4, 4)]);
}

/// DUN-5.12 Domestic: "Take one good from your Shop and add it to your hand, or the other way
/// around"; unavailable with both empty.
#[test]
fn rule_character_domestic() {
    let l = layout_with("Domestic");
    let mut s = clean(3, &l, &[]);
    market(&mut s, 1, 4);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    assert!(legal(&s).contains(&Action::Power));
    let mut e = s.clone();
    act(&mut e, Action::Power);
    assert_eq!(legal(&e), vec![Action::ToHand(4)]);
    act(&mut e, Action::ToHand(4));
    assert_eq!((e.token(4).0, e.hand_counts(0)[4]), (None, 1));
    hand(&mut s, 0, &[8]);
    shop(&mut s, 1, &[8, 8]);
    token(&mut s, 8, 1, false);
    act(&mut s, Action::Power);
    assert_eq!(legal(&s), vec![Action::ToHand(4), Action::ToShop(8)]);
    act(&mut s, Action::ToShop(8));
    assert_eq!(s.token(8), (Some(1), false), "seat 1 has more");
    let mut none = clean(3, &l, &[]);
    act(&mut none, Action::Steps(1));
    assert!(!legal(&none).contains(&Action::Power));
}

/// DUN-5.14 Shepherd: "Collect a Goods Card from the next or previous Market space, and place
/// it in your hand"; an empty neighbour is no target; both empty: unavailable.
#[test]
fn rule_character_shepherd() {
    let l = layout_with("Shepherd");
    let mut s = at_bonus(&l, 2, &[], 4);
    assert!(!legal(&s).contains(&Action::Power));
    market(&mut s, 2, 8);
    act(&mut s, Action::Power);
    assert_eq!(legal(&s), vec![Action::Take(2)]);
    market(&mut s, 0, 3);
    assert_eq!(legal(&s), vec![Action::Take(0), Action::Take(2)]);
    act(&mut s, Action::Take(0));
    assert_eq!(s.hand_counts(0)[3], 1);
}

/// DUN-5.15 Farmer and the example DUN-5.15: "Matthew spends one coin to move the Camel two steps
/// ... The Camel stops on the Farmer. Matthew collects the Farmer's Goods Card (the Tea
/// (#7)) ... Since the Camel moved two steps, Matthew can take a good from any of the next
/// two spaces: either the Glass (#5), or the Paper (#8)."
#[test]
fn rule_character_farmer_matthew_example() {
    let l = layout_with("Farmer");
    let mut s = clean(4, &l, &[]);
    s.set_for_test(|t| *t.camel() = 7);
    market(&mut s, 1, 7);
    market(&mut s, 2, 5);
    market(&mut s, 3, 8);
    market(&mut s, 4, 9);
    act(&mut s, Action::Steps(2));
    assert_eq!(s.coins(0), 6);
    act(&mut s, Action::Hand);
    assert_eq!(s.hand_counts(0)[7], 1);
    act(&mut s, Action::Power);
    assert_eq!(legal(&s), vec![Action::Take(2), Action::Take(3)]);
    act(&mut s, Action::Take(3));
    assert_eq!(s.hand_counts(0)[8], 1);
    // One step: the next space only.
    let mut s = at_bonus(&l, 4, &[], 7);
    market(&mut s, 2, 5);
    market(&mut s, 3, 8);
    act(&mut s, Action::Power);
    assert_eq!(legal(&s), vec![Action::Take(2)]);
}

/// Sets up the Bamboo example (DUN-5.16): Adrien (seat 1) has 2 Bamboo and the token on its 裔
/// side; Nicole (seat 0) has 1 and adds a second from space 1.
fn bamboo_example(chars: &str, nicole_coins: u16) -> State {
    let mut s = clean(4, chars, &[]);
    shop(&mut s, 1, &[6, 6]);
    shop(&mut s, 0, &[6]);
    token(&mut s, 6, 1, true);
    market(&mut s, 1, 6);
    s.set_for_test(|t| t.coins()[0] = nicole_coins);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    s
}

/// DUN-5.16 Manichean: "If the Manichean is in the game, Adrien may decide to flip the
/// Majority Token on it's number side to prevent Nicole from stealing the Majority Token
/// – or he can decide to let her steal the token." Both branches; then "Adrien adds a
/// third Bamboo ... instantly takes the Majority Token, regardless of its side."
#[test]
fn rule_character_manichean_example_both_branches() {
    let mut s = bamboo_example(A, 7);
    assert_eq!(s.phase(), Phase::TokenOwner);
    assert_eq!(s.turn(), Turn::Player(1), "Adrien decides");
    assert_eq!(legal(&s), vec![Action::FlipBack, Action::LetSteal]);
    let mut keep = s.clone();
    act(&mut keep, Action::FlipBack);
    assert_eq!(keep.token(6), (Some(1), false), "kept, number side up");
    assert_eq!(keep.phase(), Phase::Bonus);
    assert_eq!(keep.turn(), Turn::Player(0));
    act(&mut s, Action::LetSteal);
    assert_eq!(s.token(6), (Some(0), false), "stolen, number side up");
    // Next turn: Nicole's token on 裔; Adrien adds a third Bamboo → takes it regardless.
    act(&mut s, Action::Coins);
    token(&mut s, 6, 0, true);
    let m = (s.camel() + 1) % 8;
    market(&mut s, m, 6);
    act(&mut s, Action::Steps(1));
    act(&mut s, Action::Shop);
    assert_eq!(s.token(6), (Some(1), false));
    assert_eq!(s.phase(), Phase::Bonus, "no decision for a bigger Shop");
}

/// DUN-5.16 Buddhist: "Nicole must pay 2 coins to Adrien to steal the Majority Token – she
/// may also decide not to steal it and keep her coins." With fewer than 2 coins no steal
/// (DUN-06 `buddhist_needs_two_coins`).
#[test]
fn rule_character_buddhist_example_both_branches() {
    let mut s = bamboo_example(B, 7);
    assert_eq!(s.phase(), Phase::TokenPay);
    assert_eq!(s.turn(), Turn::Player(0), "Nicole decides");
    let mut no = s.clone();
    act(&mut no, Action::Decline);
    assert_eq!(no.token(6), (Some(1), true));
    assert_eq!((no.coins(0), no.coins(1)), (7, 7));
    act(&mut s, Action::Pay);
    assert_eq!(s.token(6), (Some(0), false), "stolen, number side up");
    assert_eq!((s.coins(0), s.coins(1)), (5, 9));
    assert_eq!((s.stats(0).buddhist_net, s.stats(1).buddhist_net), (-2, 2));
    let poor = bamboo_example(B, 1);
    assert_eq!(poor.phase(), Phase::Bonus);
    assert_eq!(poor.token(6), (Some(1), true));
}

/// DUN-5.16 "Both characters allow you to flip one of your Majority Tokens on its 裔 side";
/// DUN-06 `flip_requires_number_side`: no number-side token, no power.
#[test]
fn rule_character_flip_power() {
    for chars in [A, B] {
        let name = if chars == A { "Manichean" } else { "Buddhist" };
        let mut s = at_bonus(&layout_with(name), 3, &[], 4);
        assert!(!legal(&s).contains(&Action::Power), "no token");
        token(&mut s, 3, 0, true);
        assert!(!legal(&s).contains(&Action::Power), "only a 裔 token");
        token(&mut s, 5, 0, false);
        act(&mut s, Action::Power);
        assert_eq!(legal(&s), vec![Action::Flip(5)]);
        act(&mut s, Action::Flip(5));
        assert_eq!(s.token(5), (Some(0), true));
    }
}

// ---------------------------------------------------------------- hidden information

/// DUN-13: determinization after Interpreter, Diplomat, Trader and Merchant keeps every
/// seat's observation, the cards each seat knows, and the bottom batches of their owners.
#[test]
fn determinize_respects_powers_that_move_hidden_cards() {
    let mut rng = test_rng(11);
    let mut checked = [0; 16];
    for seed in 0..400u64 {
        let chars = if seed % 2 == 0 { A } else { B };
        let p = params(chars, &[]);
        let mut s =
            crate::game::setup::<State>(&p, 2 + (seed % 3) as usize, &mut test_rng(seed)).unwrap();
        let mut buf = Vec::new();
        while !s.turn().is_terminal() {
            let Turn::Player(pl) = s.turn() else { break };
            s.legal_actions(pl, &mut buf);
            // Prefer powers, to reach the hidden-card ones often.
            let a =
                if buf.contains(&Action::Power) && rand::RngExt::random_range(&mut rng, 0..3) > 0 {
                    Action::Power
                } else {
                    buf[rand::RngExt::random_range(&mut rng, 0..buf.len())]
                };
            let c = s.tiles()[s.camel()];
            let power_target = s.phase() == Phase::Power
                || s.phase() == Phase::KeepDrawn
                || s.phase() == Phase::ActiveGive;
            s.apply(pl, a, &mut rng).unwrap();
            if power_target {
                checked[c as usize] += 1;
                for o in 0..s.num_players() {
                    let d = s.determinize(o, &mut rng);
                    assert_eq!(d.observation(o), s.observation(o));
                    assert_eq!(d.info_key(o), s.info_key(o));
                    assert_eq!(d.knowledge().known_to(o), s.knowledge().known_to(o));
                    assert!(d.validate().is_ok(), "{:?}", d.validate());
                    let mine = s.knowledge().cards(BOTTOM) & s.knowledge().known_to(o);
                    for c in (0..64).filter(|c| mine & (1u64 << c) != 0) {
                        assert_eq!(d.knowledge().zone_of(c), BOTTOM);
                    }
                }
            }
        }
    }
    for c in [ch::INTERPRETER, ch::DIPLOMAT, ch::TRADER, ch::MERCHANT] {
        assert!(
            checked[c as usize] > 10,
            "{}: {checked:?}",
            CHARACTERS[c as usize]
        );
    }
}

/// Soak failure 1 (`results/soak/README.md`; `sim soak --game dunhuang --seed 1 --from
/// 52207 -n 1 --players 3 --mix random`): seat 0 at its Maid power step with a hidden hand
/// [9] and a Shop [6]. That it stands at the power step is public and tells that its hand
/// holds a type other than 6 (`maid_different=type`), so no determinization for another
/// seat may deal it a hand [6] (which left it without a legal action).
#[test]
fn determinize_keeps_the_maid_power_step_legal() {
    let l = layout_with("Maid");
    let mut s = clean(3, &l, &[]);
    hand(&mut s, 0, &[9]);
    shop(&mut s, 0, &[6]);
    token(&mut s, 6, 0, false);
    act(&mut s, Action::Steps(1));
    assert_eq!(s.phase(), Phase::Bonus, "stopped on the empty Maid space");
    act(&mut s, Action::Power);
    assert_eq!(s.phase(), Phase::Power);
    assert_eq!(legal(&s), vec![Action::Maid(6, 9)]);
    assert!(!s.knowledge().knows(1, s.hand(0).trailing_zeros() as usize));
    let mut rng = test_rng(5);
    let mut buf = Vec::new();
    let mut others = [0u32; 3];
    for (o, other) in others.iter_mut().enumerate() {
        for _ in 0..2000 {
            let d = s.determinize(o, &mut rng);
            assert_eq!(d.observation(o), s.observation(o));
            d.validate()
                .unwrap_or_else(|e| panic!("seat {o}: {e}\n{d}"));
            d.legal_actions(0, &mut buf);
            assert!(!buf.is_empty(), "for seat {o}, seat 0 cannot act:\n{d}");
            assert_eq!(d.hand(0).count_ones(), 1);
            if d.hand_counts(0)[9] == 0 {
                *other += u32::from(d.hand_counts(0)[6] == 0);
            }
            let mut end = d.clone();
            crate::game::random_playout(&mut end, &mut buf, &mut rng);
        }
    }
    assert_eq!(others[0], 0, "seat 0 knows its hand");
    // The other seats see a hand of any type but 6, uniformly: of the 38 unknown cards
    // that are not 6s, 29 are neither 6 nor 9 (expected 1526 of 2000, sd 19).
    assert!(others[1] > 1400 && others[2] > 1400, "{others:?}");
}

/// Every decision step of many random games (powers preferred, so the Maid, Trader,
/// Merchant, Interpreter, Diplomat and Domestic steps are reached often): every
/// determinization for every seat passes `validate`, keeps the seat's observation, and
/// leaves the seat to act with a legal action, including at the Maid steps where the
/// active hand is hidden from the observer and the Shop holds one type.
#[test]
fn determinize_leaves_the_seat_to_act_a_legal_action_at_every_step() {
    let mut rng = test_rng(21);
    let mut buf = Vec::new();
    let mut theirs = Vec::new();
    let mut hidden_maid = 0;
    let mut steps = 0;
    for seed in 0..300u64 {
        let chars = layout_with(if seed % 3 == 0 { "Domestic" } else { "Maid" });
        let extra: &[&str] = if seed % 5 == 4 {
            &["maid_different=card"]
        } else {
            &[]
        };
        let p = params(&chars, extra);
        let n = 2 + (seed % 3) as usize;
        let mut s = crate::game::setup::<State>(&p, n, &mut test_rng(seed)).unwrap();
        while let Turn::Player(pl) = s.turn() {
            steps += 1;
            let a = s.active();
            let maid = s.phase() == Phase::Power
                && s.tiles()[s.camel()] == ch::MAID
                && s.shop_counts(a).iter().filter(|&&c| c > 0).count() == 1;
            for o in 0..n {
                if maid && o != a && s.hand(a) & !s.knowledge().known_to(o) != 0 {
                    hidden_maid += 1;
                }
                for _ in 0..3 {
                    let d = s.determinize(o, &mut rng);
                    assert_eq!(d.observation(o), s.observation(o));
                    d.validate()
                        .unwrap_or_else(|e| panic!("seed {seed}, seat {o}: {e}\n{d}"));
                    d.legal_actions(pl, &mut theirs);
                    assert!(
                        !theirs.is_empty(),
                        "seed {seed}: determinized for seat {o}, seat {pl} cannot act:\n{d}"
                    );
                }
            }
            s.legal_actions(pl, &mut buf);
            let act =
                if buf.contains(&Action::Power) && rand::RngExt::random_range(&mut rng, 0..4) > 0 {
                    Action::Power
                } else {
                    buf[rand::RngExt::random_range(&mut rng, 0..buf.len())]
                };
            s.apply(pl, act, &mut rng).unwrap();
        }
    }
    assert!(
        hidden_maid > 100,
        "{hidden_maid} hidden Maid steps of {steps}"
    );
}

// ---------------------------------------------------------------- conformance

/// Card and token conservation and the coin ledger (DUN-09).
fn invariants(s: &State) -> Result<(), String> {
    let n = s.num_players();
    let k = s.knowledge();
    let r = s.rules();
    let d = r.data();
    let market = s.market().iter().filter(|&&c| c != NONE).count() as u32;
    let shops: u32 = (0..n).map(|p| s.shop(p).count_ones()).sum();
    let hands: u32 = (0..n).map(|p| k.len(p)).sum();
    let total = k.len(PILE)
        + k.len(BOTTOM)
        + k.len(DRAWN)
        + market
        + hands
        + shops
        + k.len(REMOVED)
        + s.discarded();
    if total != u32::from(d.deck) {
        return Err(format!("{total} cards, deck {}", d.deck));
    }
    let mut held = 0;
    for v in 1..=10u8 {
        if d.values & (1 << v) != 0 {
            held += 1;
        } else if s.token(v).0.is_some() {
            return Err(format!("token {v} is not in play"));
        }
    }
    let tokens: u32 = (0..n).map(|p| s.tokens(p)).sum();
    if tokens > held {
        return Err("more tokens held than in play".into());
    }
    for p in 0..n {
        let st = s.stats(p);
        let ledger = i32::from(d.start_coins) + i32::from(st.bonus_coins)
            - i32::from(st.step_coins)
            + i32::from(st.buddhist_net);
        if ledger != i32::from(s.coins(p)) {
            return Err(format!("seat {p}: {} coins, ledger {ledger}", s.coins(p)));
        }
        if s.tokens(p) != u32::from(st.from_middle + st.stolen) - u32::from(st.lost + st.returned) {
            return Err(format!(
                "seat {p}: token counters {st:?} vs {}",
                s.tokens(p)
            ));
        }
    }
    Ok(())
}

fn conformance(players: usize, params: Params, games: usize, seed: u64) {
    let cfg = Conformance::<State> {
        params,
        players,
        games,
        seed,
        invariants: &invariants,
        hidden: Some(&|s: &State, p| s.hidden_digest(p)),
        resamples: 2,
        determinize_every: 5,
    };
    let rep = check_random_games(&cfg).unwrap();
    assert_eq!(rep.games, games);
    assert!(rep.hidden_changes > 0);
}

#[test]
fn conformance_2_players() {
    conformance(2, Params::default(), 40, 2);
}

#[test]
fn conformance_3_players() {
    conformance(3, Params::default(), 40, 3);
}

#[test]
fn conformance_4_players() {
    conformance(4, Params::default(), 40, 4);
}

/// Every alternative of every parameter plays conformant games.
#[test]
fn conformance_variants() {
    let sets: &[&[&str]] = &[
        &[
            "exchange_order=enter_first",
            "soldier_same_type=false",
            "maid_different=card",
        ],
        &[
            "end_trigger=pile_empty",
            "short_pile_draw=unavailable",
            "trade_short_hand=unavailable",
        ],
        &[
            "seat_known_at_keep=false",
            "discards_public=false",
            "bonus_may_be_skipped=false",
        ],
        &[
            "supply_limited=true",
            "max_camel_steps=none",
            "buddhist_needs_two_coins=false",
        ],
        &[
            "zh_protects_return=true",
            "flip_requires_number_side=false",
            "zero_count_returns_token=false",
        ],
        &[
            "bonus_on_empty_stop=false",
            "instant_win_rest=tied_second",
            "win_check=any_player",
            "returns=rank",
        ],
        &[
            "characters=Musician,Dancer,Diplomat,General,Merchant,Domestic,Farmer,Buddhist",
            "circle_order=given",
        ],
    ];
    for (i, set) in sets.iter().enumerate() {
        let p = Params::from_settings(set, "game dunhuang").unwrap();
        conformance(2 + i % 3, p, 12, 100 + i as u64);
    }
    let p = Params::from_settings(&["returns=margin"], "g").unwrap();
    conformance(2, p, 10, 7);
}

/// Random games end both ways; the metrics add up.
#[test]
fn random_games_end_both_ways_and_metrics_add_up() {
    use crate::game::{Labels, Metrics, random_playout};
    let mut rng = test_rng(5);
    let mut buf = Vec::new();
    let mut ends = [0; 2];
    for n in 2..=4 {
        let r = rules::<State>(&Params::default(), n).unwrap();
        for _ in 0..300 {
            let mut s = State::new_game(r, &mut rng);
            random_playout(&mut s, &mut buf, &mut rng);
            let mut m = Metrics::default();
            s.metrics(&mut m);
            ends[m.game[0] as usize] += 1;
            let wins: i32 = (0..n).map(|p| m.seat[p][6]).sum();
            assert_eq!(wins, m.game[0]);
            let names: Vec<&str> = State::SEAT_METRICS
                .iter()
                .chain(State::GAME_METRICS)
                .chain(State::GAME_LABELS)
                .map(|c| c.name)
                .collect();
            let mut unique = names.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), names.len(), "column names are unique");
            let mut l = Labels::default();
            s.labels(&mut l);
            assert_eq!(l.game[0].split('/').count(), 8);
            for p in 0..n {
                assert_eq!(m.seat[p][10], s.tokens(p) as i32);
            }
        }
    }
    assert!(ends[0] > 50 && ends[1] > 20, "{ends:?}");
}

/// The value estimate is in the returns' units and rewards a seat near the instant win.
#[test]
fn value_rewards_progress_toward_the_instant_win() {
    let mut s = clean(3, A, &[]);
    let base = s.value();
    assert!((base[..3].iter().sum::<f64>() - 1.0).abs() < 1e-9);
    hand(&mut s, 0, &[2, 3, 4, 5]);
    for v in [2, 3, 4] {
        token(&mut s, v, 0, false);
    }
    let v = s.value();
    assert!(v[0] > 0.9, "{v:?}");
}

/// `random_action`'s shortcuts pick what the default rule picks (the `k`-th legal action
/// for one `random_range(0..len)` draw), so playouts and their random stream are those
/// of `legal_actions`: by default and under the variants that change the power targets.
#[test]
fn random_action_matches_the_uniform_legal_choice() {
    let variants: [&[&str]; 3] = [
        &[],
        &[
            "soldier_same_type=false",
            "maid_different=card",
            "flip_requires_number_side=false",
        ],
        &["trade_short_hand=unavailable", "max_camel_steps=none"],
    ];
    let mut powers = 0;
    for (i, extra) in variants.iter().enumerate() {
        let settings: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        let params = Params::from_settings(&settings, "game dunhuang").unwrap();
        for n in 2..=4 {
            let r = rules::<State>(&params, n).unwrap();
            let mut rng = test_rng(40 + 10 * i as u64 + n as u64);
            let mut buf = Vec::new();
            for _ in 0..200 {
                let mut s = State::new_game(r, &mut rng);
                while let Turn::Player(p) = s.turn() {
                    let mut r1 = rng.clone();
                    let mut r2 = rng.clone();
                    let a = s.random_action(p, &mut buf, &mut r1);
                    let b = crate::game::uniform_legal_action(&s, p, &mut buf, &mut r2);
                    assert_eq!(a, b, "at {:?}\n{s}", s.phase());
                    assert_eq!(r1, r2);
                    powers += usize::from(s.phase() == Phase::Power);
                    s.apply(p, a, &mut rng).unwrap();
                }
            }
        }
    }
    assert!(powers > 5_000, "{powers}");
}

/// The bonus stage's power check (shortcuts per character) agrees with the list of
/// targets, under the variants that change the targets.
#[test]
fn power_availability_shortcuts_agree_with_the_targets() {
    use rand::RngExt;
    let variants: [&[&str]; 3] = [
        &[],
        &[
            "soldier_same_type=false",
            "maid_different=card",
            "trade_short_hand=unavailable",
            "flip_requires_number_side=false",
        ],
        &["max_camel_steps=none", "short_pile_draw=unavailable"],
    ];
    let mut checked = 0;
    for (i, extra) in variants.iter().enumerate() {
        for n in 2..=4 {
            let settings: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
            let p = Params::from_settings(&settings, "game dunhuang").unwrap();
            let r = rules::<State>(&p, n).unwrap();
            let mut rng = test_rng(90 + 10 * i as u64 + n as u64);
            let mut buf = Vec::new();
            for _ in 0..150 {
                let mut s = State::new_game(r, &mut rng);
                while let Turn::Player(pl) = s.turn() {
                    if s.phase() == Phase::Bonus {
                        assert!(s.power_shortcut_agrees(), "{s}");
                        checked += 1;
                    }
                    s.legal_actions(pl, &mut buf);
                    let a = buf[rng.random_range(0..buf.len())];
                    s.apply(pl, a, &mut rng).unwrap();
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// The pile is drawn by continuing the setup's Fisher–Yates shuffle; when the pile is not
/// the set the deal order lists (a position built by hand, as here: every card put back),
/// the draw lists it again. After such a re-listing (the same Fisher–Yates step as the
/// continued setup shuffle, which the golden files and `validate` cover) each draw is a
/// uniform card of the pile: the first
/// card of the refill after a position with every card in the pile is uniform over the
/// 55 cards (20,000 positions, seeds 0.., chi-square with 54 degrees of freedom below
/// 110, p ≈ 1e-5 for a uniform draw), every Market card comes from the pile and the state
/// passes `validate`.
#[test]
fn pile_draws_are_uniform_after_the_pile_changed() {
    let base = clean(4, "random", &[]);
    let deck = base.rules().data().deck as usize;
    let mut first = vec![0u32; deck];
    let trials = 20_000;
    for seed in 0..trials {
        let mut s = base.clone();
        let mut rng = test_rng(seed);
        // One step onto an empty space, then 3 coins: the refill fills all 8 spaces,
        // the camel's space (1) first.
        act_rng(&mut s, Action::Steps(1), &mut rng);
        act_rng(&mut s, Action::Coins, &mut rng);
        let m = s.market();
        assert!(m.iter().all(|&c| c != NONE), "8 cards drawn");
        assert_eq!(s.knowledge().len(PILE) as usize, deck - 8);
        assert!(s.validate().is_ok(), "{:?}", s.validate());
        first[usize::from(m[1])] += 1;
    }
    let e = f64::from(trials as u32) / deck as f64;
    let chi2: f64 = first.iter().map(|&o| (f64::from(o) - e).powi(2) / e).sum();
    assert!(
        chi2 < 110.0,
        "first draw not uniform: chi-square {chi2:.1} over {first:?}"
    );
}

/// `validate` refuses a deal order that claims to list the pile but does not.
#[test]
fn validate_checks_the_deal_order() {
    let r = rules::<State>(&Params::default(), 4).unwrap();
    let mut s = State::new_game(r, &mut test_rng(5));
    assert!(s.validate().is_ok(), "{:?}", s.validate());
    s.set_for_test(|t| {
        let next = usize::from(t.order_next());
        // A dealt card in place of a pile card.
        t.order().swap(0, next);
    });
    assert!(
        s.validate().is_err(),
        "a deal order that lists a Market card as the pile"
    );
}

// ----- information state and observation tensor (DESIGN.md §3 "Information") -----

/// Plays `script` (seat, action) from a 3-player setup whose first Market card is the
/// card id `first_market` (the rest of the deal in id order), every later chance pick 0.
fn scripted_three(first_market: u32, script: &[(usize, Action)]) -> State {
    let p = params(
        "Painter,Trader,Princess,Interpreter,Soldier,Maid,Shepherd,Manichean",
        &[],
    );
    let mut picks = vec![first_market];
    picks.resize(200, 0);
    let mut chance = crate::game::ScriptedChance::new(&picks);
    let mut s = crate::game::setup::<State>(&p, 3, &mut chance).unwrap();
    for &(seat, a) in script {
        s.apply(seat, a, &mut chance)
            .unwrap_or_else(|e| panic!("{a} by seat {seat}: {e}\n{s}"));
    }
    s
}

/// A played-out state stops folding its history digests and plays the same game: from
/// the same position and seed, the same moves, returns and table with and without
/// [`GameState::start_playout`], but the digests stay where the playout began.
#[test]
fn a_playout_skips_the_history_digests_and_plays_the_same_game() {
    let r = rules::<State>(&Params::default(), 4).unwrap();
    for seed in 0..20 {
        let mut rng = test_rng(seed);
        let start = State::new_game(r, &mut rng);
        let (mut kept, mut played) = (start.clone(), start.clone());
        let (mut r1, mut r2) = (test_rng(100 + seed), test_rng(100 + seed));
        let mut buf = Vec::new();
        while let Turn::Player(p) = kept.turn() {
            let a = kept.random_action(p, &mut buf, &mut r1);
            kept.apply_unchecked(p, a, &mut r1);
        }
        let returns = crate::game::random_playout(&mut played, &mut buf, &mut r2);
        assert_eq!(returns, kept.returns(), "seed {seed}");
        assert_eq!(played.ply(), kept.ply(), "seed {seed}");
        assert_eq!(
            played.to_string(),
            kept.to_string(),
            "seed {seed}: the same table"
        );
        for p in 0..4 {
            assert_eq!(played.observation(p), kept.observation(p), "seed {seed}");
        }
        assert_eq!(
            played.history_digests(),
            start.history_digests(),
            "seed {seed}"
        );
        assert_ne!(
            kept.history_digests().0,
            start.history_digests().0,
            "seed {seed}"
        );
    }
}

/// Asking a played-out state for its information state is a logic error that debug
/// builds catch.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "in a playout")]
fn a_played_out_state_has_no_information_state() {
    let mut s = State::new_game(crate::game::default_rules(), &mut test_rng(1));
    s.start_playout();
    s.info_key(0);
}

/// The old `info_key` (a digest of the current observation only) merged two histories
/// that seat 2 can tell apart; the information state separates them (perfect recall,
/// issue 21 item 3). Game A deals a 5 to Market space 0, game B a 7 (3 players: card 9 is
/// the first 5, card 20 the first 7). Seat 0 takes it into its hand, seen by all; then
/// seat 1's Trader takes both cards of seat 0's hand and gives two back (L272), so seat 2
/// forgets what seat 0 holds (DUN-13). Seat 2 now sees the same table, sizes, coins and
/// hand in both games, but it saw a 5 in A and a 7 in B.
#[test]
fn info_state_separates_histories_that_leave_the_same_observation() {
    use std::hash::{Hash, Hasher};
    let script = [
        (0, Action::Keep(4)),
        (1, Action::Keep(5)),
        (2, Action::Keep(6)),
        (2, Action::Camel(7)),
        (0, Action::Steps(1)),
        (0, Action::Hand),
        (0, Action::NoBonus),
        (1, Action::Steps(1)),
        (1, Action::Hand),
        (1, Action::Power),
        (1, Action::Opponent(0)),
        (1, Action::Give(4)),
        (1, Action::Give(5)),
    ];
    let a = scripted_three(9, &script[..5]);
    let b = scripted_three(20, &script[..5]);
    assert_eq!((a.market_values()[0], b.market_values()[0]), (5, 7));
    let a = scripted_three(9, &script);
    let b = scripted_three(20, &script);
    assert_eq!(a.turn(), Turn::Player(2));
    assert_eq!(
        a.observation(2),
        b.observation(2),
        "seat 2 sees the same now"
    );
    let old_key = |s: &State| {
        let mut h = rustc_hash::FxHasher::default();
        s.observation(2).hash(&mut h);
        h.finish()
    };
    assert_eq!(old_key(&a), old_key(&b), "the old key merged them");
    assert_ne!(
        a.info_key(2),
        b.info_key(2),
        "different pasts, different keys"
    );
    assert_ne!(a.information_state_string(2), b.information_state_string(2));
    // Seat 1 saw the difference too (it took the card); a replay gives the same keys.
    assert_ne!(a.info_key(1), b.info_key(1));
    let again = scripted_three(9, &script);
    for p in 0..3 {
        assert_eq!(again.info_key(p), a.info_key(p));
    }
}

/// A hidden action (the setup keep) changes the keeper's information state, not the
/// others': they see only that seat 0 kept something.
#[test]
fn a_hidden_keep_is_private_to_the_keeper() {
    // Seat 0 holds cards 8 (a 4), 0 (a 2) and 10 (a 5): two ways to keep.
    let x = scripted_three(9, &[(0, Action::Keep(4))]);
    let y = scripted_three(9, &[(0, Action::Keep(2))]);
    assert_ne!(x.info_key(0), y.info_key(0));
    for p in 1..3 {
        assert_eq!(x.info_key(p), y.info_key(p), "seat {p}");
        assert_eq!(x.information_state_string(p), y.information_state_string(p));
    }
}

/// The conformance of the information contract (tensor shape and invariance, key =
/// digest of the information state, perfect recall, mask) over more games than the
/// registry's test, with the powers that move hidden cards in play and the variants that
/// hide more (face-down Painter discards, the first player drawn after the keeps, the
/// instant-win check of every seat).
#[test]
fn information_contract_holds_with_hidden_card_powers_and_variants() {
    let hide = [
        "discards_public=false",
        "seat_known_at_keep=false",
        "win_check=any_player",
    ];
    for (chars, extra) in [(A, &[][..]), (B, &[][..]), (A, &hide[..]), (B, &hide[..])] {
        for n in 2..=4 {
            let r = rules::<State>(&params(chars, extra), n).unwrap();
            let rep = crate::testing::check_information(r, 11 + n as u64, 12, 7, 2)
                .unwrap_or_else(|e| panic!("{chars} {extra:?} {n} players: {e}"));
            assert!(rep.determinizations > 100, "{rep:?}");
        }
    }
}

/// The tensor's length is `326 + 39 n`, its layout is [`GameInfo`]'s shape, the
/// observer's own hand is its first `hand_known` block, and the seat-relative blocks
/// rotate with the observer.
#[test]
fn observation_tensor_layout_and_own_hand() {
    use crate::game::{GameInfo, tensor_len};
    for (n, len) in [(2, 404), (3, 443), (4, 482)] {
        let r = rules::<State>(&Params::default(), n).unwrap();
        let layout = State::observation_layout(&r);
        assert_eq!(tensor_len(&layout), len, "{n} players");
        assert_eq!(GameInfo::of(&r).observation_shape, vec![len]);
        let offset = |name: &str| {
            let i = layout.iter().position(|f| f.name == name).unwrap();
            layout[..i].iter().map(|f| f.len).sum::<usize>()
        };
        let mut rng = test_rng(n as u64);
        let mut s = State::new_game(r, &mut rng);
        let mut buf = Vec::new();
        let mut t = vec![0f32; len];
        for _ in 0..40 {
            let Turn::Player(p) = s.turn() else { break };
            for seat in 0..n {
                s.observation_tensor(seat, &mut t);
                let own = &t[offset("hand_known")..][..10];
                let counts = s.hand_counts(seat);
                for v in 1..=10 {
                    assert_eq!(own[v - 1], f32::from(counts[v]) / 10.0, "seat {seat}");
                }
                let coins = &t[offset("coins")..][..n];
                for (r, c) in coins.iter().enumerate() {
                    assert_eq!(*c, f32::from(s.coins((seat + r) % n)) / 44.0);
                }
                let to_act = &t[offset("to_act")..][..n];
                assert_eq!(to_act[(p + n - seat) % n], 1.0);
            }
            let a = s.random_action(p, &mut buf, &mut rng);
            s.apply(p, a, &mut rng).unwrap();
        }
    }
}

/// A determinized world does not carry the other seats' real private histories (they
/// summarise cards the observer cannot see); the observer's stays.
#[test]
fn determinize_replaces_the_other_seats_private_histories() {
    let r = rules::<State>(&Params::default(), 4).unwrap();
    let mut rng = test_rng(3);
    let mut s = State::new_game(r, &mut rng);
    let mut buf = Vec::new();
    for _ in 0..30 {
        let Turn::Player(p) = s.turn() else { break };
        let a = s.random_action(p, &mut buf, &mut rng);
        s.apply(p, a, &mut rng).unwrap();
    }
    for o in 0..4 {
        let d = s.determinize(o, &mut rng);
        assert_eq!(d.info_key(o), s.info_key(o));
        for q in (0..4).filter(|&q| q != o) {
            assert_ne!(d.info_key(q), s.info_key(q), "observer {o}, seat {q}");
        }
    }
}

/// Perfect recall where random games cannot test it (every node of a random game has a
/// history of its own): two copies of one position play the same actions on with
/// different chance (Market refills, draws, Trader picks, a drawn first player). Each
/// seat whose observations ever differed between the copies must have different
/// information states from then on; equal keys must mean equal strings.
#[test]
fn siblings_that_differ_only_by_chance_keep_apart_what_each_seat_saw() {
    use crate::rng::mix64;
    use std::hash::{Hash, Hasher};
    let digest = |text: &str| {
        let mut h = rustc_hash::FxHasher::default();
        text.hash(&mut h);
        h.finish()
    };
    let hide = ["discards_public=false", "seat_known_at_keep=false"];
    let mut split = 0;
    let mut powers = [0u32; 16];
    for seed in 0..300u64 {
        let (chars, extra) = match seed % 3 {
            0 => (A, &[][..]),
            1 => (B, &[][..]),
            _ => (A, &hide[..]),
        };
        let n = 2 + (seed % 3) as usize;
        let r = rules::<State>(&params(chars, extra), n).unwrap();
        let mut rng = test_rng(seed);
        let mut s = State::new_game(r, &mut rng);
        let mut buf = Vec::new();
        let mut other = Vec::new();
        let start = (seed * 7) % 40;
        while s.ply() < start as u32 {
            let Turn::Player(p) = s.turn() else { break };
            let a = s.random_action(p, &mut buf, &mut rng);
            s.apply(p, a, &mut rng).unwrap();
        }
        let (mut x, mut y) = (s.clone(), s);
        let (mut rx, mut ry) = (test_rng(1000 + seed), test_rng(2000 + seed));
        let mut hist = [[0u64; 2]; 4];
        loop {
            for (p, h) in hist.iter_mut().enumerate().take(n) {
                h[0] = mix64(h[0] ^ digest(&x.observation_string(p)));
                h[1] = mix64(h[1] ^ digest(&y.observation_string(p)));
                let (kx, ky) = (x.info_key(p), y.info_key(p));
                if h[0] != h[1] {
                    split += 1;
                    assert_ne!(
                        kx,
                        ky,
                        "seed {seed} ply {} seat {p}: one key, two pasts",
                        x.ply()
                    );
                }
                if kx == ky {
                    assert_eq!(
                        x.information_state_string(p),
                        y.information_state_string(p),
                        "seed {seed} ply {} seat {p}",
                        x.ply()
                    );
                }
            }
            let Turn::Player(p) = x.turn() else { break };
            if y.turn() != Turn::Player(p) {
                break;
            }
            // Prefer powers, to reach the hidden-card ones often.
            x.legal_actions(p, &mut buf);
            let a = if buf.contains(&Action::Power) && rand::RngExt::random_range(&mut rx, 0..3) > 0
            {
                Action::Power
            } else {
                buf[rand::RngExt::random_range(&mut rx, 0..buf.len())]
            };
            if matches!(x.phase(), Phase::Power | Phase::KeepDrawn) {
                powers[usize::from(x.tiles()[x.camel()])] += 1;
            }
            y.legal_actions(p, &mut other);
            if !other.contains(&a) {
                break;
            }
            x.apply(p, a, &mut rx).unwrap();
            y.apply(p, a, &mut ry).unwrap();
        }
    }
    assert!(split > 1000, "{split} seat-nodes with different pasts");
    for c in [
        ch::INTERPRETER,
        ch::DIPLOMAT,
        ch::TRADER,
        ch::MERCHANT,
        ch::PAINTER,
    ] {
        assert!(
            powers[usize::from(c)] > 10,
            "{}: {powers:?}",
            CHARACTERS[usize::from(c)]
        );
    }
}

/// An instant win (L133) is decided by the winner's hand, which the others do not see:
/// two copies that differ only in seat 0's hidden hand, with the same public moves and
/// an empty pile (so no refill tells them apart), end differently for seat 1, whose
/// information states must then differ.
#[test]
fn an_instant_win_is_an_event_of_its_own() {
    let mut s = clean(3, A, &[]);
    shop(&mut s, 0, &[2, 3, 4, 5]);
    s.set_for_test(|t| {
        for v in 2..=5 {
            t.holder()[v] = 0;
        }
    });
    let (mut x, mut y) = (s.clone(), s);
    hand(&mut x, 0, &[6, 7, 8, 9]);
    hand(&mut y, 0, &[6, 6, 7, 8]);
    for st in [&mut x, &mut y] {
        let pile = st.knowledge().cards(PILE);
        st.set_for_test(|t| t.know().move_set(pile, PILE, REMOVED, SeatSet::EMPTY));
    }
    assert_eq!(x.observation_string(1), y.observation_string(1));
    assert_eq!(x.info_key(1), y.info_key(1));
    let mut rng = test_rng(1);
    for st in [&mut x, &mut y] {
        st.apply(0, Action::Steps(1), &mut rng).unwrap();
        st.apply(0, Action::NoBonus, &mut rng).unwrap();
    }
    assert_eq!(x.instant_winner(), Some(0));
    assert_eq!(y.turn(), Turn::Player(1));
    assert_ne!(x.info_key(1), y.info_key(1));
}

/// DUN-2.6: the default `seat_coins` (and `seat_coins=0` typed) changes nothing: the same
/// serialized states after setup and at the end of random games, and the same canonical
/// parameters (the knob is hidden at 0).
#[test]
fn rule_2_6_seat_coins_default_changes_nothing() {
    for n in 2..=4 {
        let default = Params::default();
        let zero = Params::from_settings(&["seat_coins=0/0"], "game dunhuang").unwrap();
        assert_eq!(default.canonical(","), zero.canonical(","));
        let (a, b) = (
            rules::<State>(&default, n).unwrap(),
            rules::<State>(&zero, n).unwrap(),
        );
        crate::game::seat_bonus::assert_same_games(a, b, 12);
    }
}

/// DUN-2.6: each seat starts with DUN-2.4's coins plus its bonus; a start outside 0..=44
/// (or, under `supply_limited`, starts beyond the box) is refused naming the bonus's range.
#[test]
fn rule_2_6_seat_coins_add_to_each_start() {
    let p = Params::from_settings(&["seat_coins=-2/3"], "game dunhuang").unwrap();
    let s = State::new_game(rules::<State>(&p, 2).unwrap(), &mut test_rng(0));
    assert_eq!((s.coins(0), s.coins(1)), (3, 8));
    let p = Params::from_settings(&["seat_coins=0/0/0/4"], "game dunhuang").unwrap();
    let s = State::new_game(rules::<State>(&p, 4).unwrap(), &mut test_rng(0));
    assert_eq!(
        (0..4).map(|q| s.coins(q)).collect::<Vec<_>>(),
        [7, 7, 7, 11]
    );
    let p = Params::from_settings(&["seat_coins=0/40"], "game dunhuang").unwrap();
    let e = rules::<State>(&p, 2).unwrap_err().to_string();
    assert!(e.contains("seat 1 bonus 40 is outside -5..=39"), "{e}");
    let p = Params::from_settings(&["seat_coins=-6"], "game dunhuang").unwrap();
    assert!(rules::<State>(&p, 2).is_err());
    let p = Params::from_settings(&["seat_coins=0/0/0/1"], "game dunhuang").unwrap();
    assert!(rules::<State>(&p, 3).is_err(), "seat 3 at 3 players");
    let p = Params::from_settings(
        &["seat_coins=20/20", "supply_limited=true"],
        "game dunhuang",
    )
    .unwrap();
    let e = rules::<State>(&p, 2).unwrap_err().to_string();
    assert!(e.contains("at most 34 coins in all"), "{e}");
}
