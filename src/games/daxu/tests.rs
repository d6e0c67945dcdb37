//! Rule tests traced to the clauses of docs/rules/daxu.md, the conformance harness, and the golden
//! playthrough.

use super::action::FULL_HAND;
use super::*;
use crate::game::{GameState, JointAction, Measured, Turn};
use crate::params::{ParamSet, ParamValue};
use crate::rng::{SimRng, test_rng};
use crate::testing::{Conformance, check_random_games};

use Action::*;

const N: Symbol = Symbol::None;

fn card(shop: Shop, sym: Symbol) -> Card {
    Card::new(shop, sym)
}

/// A position whose unseen pool holds only neutral Rice wine cards, so every flip is
/// predictable: `deck` cards in the deck, none removed.
fn position(reps: [i8; 2], holder: usize, offer: &[Card], deck: u8) -> Setup {
    let mut unseen = [0u8; NUM_KINDS];
    unseen[card(Shop::RiceWine, N).0 as usize] = deck;
    Setup {
        sides: [[1; NUM_SHOPS]; 2],
        reps,
        holder,
        offer: offer.to_vec(),
        unseen,
        deck_len: deck,
        hands: [FULL_HAND; 2],
        round: 1,
    }
}

fn neutral_offer() -> Vec<Card> {
    vec![
        card(Shop::Silk, N),
        card(Shop::Teahouse, N),
        card(Shop::Basket, N),
    ]
}

fn build(params: &Params, s: &Setup) -> (State, SimRng) {
    let mut rng = test_rng(11);
    let rules = crate::game::rules::<State>(params, 2).unwrap();
    let st = State::from_setup(rules, s, &mut rng).unwrap();
    (st, rng)
}

fn joint(a: Action, b: Action) -> JointAction<Action> {
    [Some(a), Some(b), None, None]
}

fn cards_on(st: &State, p: usize) -> u32 {
    st.sides()[p].iter().map(|&c| c as u32).sum()
}

/// Who received the offer of the last resolution, judging by card counts (each side starts
/// with 6 cards in `position`).
fn receiver(st: &State) -> Option<usize> {
    match (cards_on(st, 0) > 6, cards_on(st, 1) > 6) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        _ => None,
    }
}

#[test]
fn rule_setup_removes_two_deals_eight_and_ignores_symbols() {
    // "Take the top two cards from this deck and remove them ... Each player draws eight
    // cards ... (All reputation markings on cards are ignored during the setup.)"
    for seed in 0..200 {
        let mut rng = test_rng(seed);
        let st = crate::game::setup::<State>(&Params::default(), 2, &mut rng).unwrap();
        assert_eq!(cards_on(&st, 0), 8);
        assert_eq!(cards_on(&st, 1), 8);
        assert_eq!(st.reputations(), [0, 0]);
        assert_eq!(st.removed(), 2);
        assert_eq!(st.offer().len(), 3, "round 1 flips three cards");
        assert_eq!(st.deck_len(), 54 - 2 - 16 - 3);
        assert_eq!(st.total_cards(), 54);
        assert_eq!(st.round(), 1);
        assert_eq!(st.turn(), Turn::Simultaneous(crate::game::SeatSet::all(2)));
    }
}

#[test]
fn rule_setup_initial_holder_is_random_unless_fixed() {
    let mut seen = [0; 2];
    for seed in 0..100 {
        let st = crate::game::setup::<State>(&Params::default(), 2, &mut test_rng(seed)).unwrap();
        seen[st.holder()] += 1;
    }
    assert!(seen[0] > 20 && seen[1] > 20, "{seen:?}");
    let p = Params::from_settings(&["initial_tiebreak_holder=1"], "game daxu").unwrap();
    for seed in 0..20 {
        assert_eq!(
            crate::game::setup::<State>(&p, 2, &mut test_rng(seed))
                .unwrap()
                .holder(),
            1
        );
    }
}

#[test]
fn rule_example_undermine_repeat_then_undermine_beats_take() {
    // DAXU-3.6, the worked example: "They both choose to Undermine ... an additional card is flipped.
    // ... Brian has chosen Undermine and Lucy has chosen Take ... Brian takes all four
    // cards ... For the Baker he loses one reputation point ... Brian also loses one
    // reputation point for playing the Undermine card."
    let (brian, lucy) = (0, 1);
    let offer = [
        card(Shop::Baker, Symbol::Minus),
        card(Shop::Silk, N),
        card(Shop::Teahouse, N),
    ];
    let (mut st, mut rng) = build(&Params::default(), &position([0, 0], lucy, &offer, 10));
    st.apply_joint(&joint(Undermine, Undermine), &mut rng)
        .unwrap();
    assert_eq!(st.offer().len(), 4, "Undermine/Undermine flips a 4th card");
    assert_eq!(st.phase(), Phase::Choose);
    assert_eq!(
        st.reputations(),
        [0, 0],
        "no reputation for a non-final pair"
    );
    let mut j = [None; 4];
    j[brian] = Some(Undermine);
    j[lucy] = Some(Take);
    st.apply_joint(&j, &mut rng).unwrap();
    assert_eq!(cards_on(&st, brian), 6 + 4, "Brian takes all four cards");
    assert_eq!(cards_on(&st, lucy), 6);
    assert_eq!(st.sides()[brian][Shop::Baker as usize], 2);
    assert_eq!(
        st.reputations()[brian],
        -2,
        "-1 for the Baker, -1 for Undermine"
    );
    assert_eq!(st.reputations()[lucy], 0);
    assert_eq!(st.offer().len(), 3, "the next round flips three new cards");
    assert_eq!(st.round(), 2);
}

#[test]
fn rule_scoring_example() {
    // DAXU-5.8, the scoring example: "Rice wine maker: Both players have 4: No points awarded.
    // Carpenter: Lucy has 2, Brian has 6: Lucy scores 2 points, Brian loses 1 point.
    // Basket maker: Lucy has 4, Brian has 5: Brian scores 5 points."
    assert_eq!(shop_points(Shop::RiceWine, 4, 4), (0, 0));
    assert_eq!(shop_points(Shop::Carpenter, 2, 6), (2, -1));
    assert_eq!(shop_points(Shop::Basket, 4, 5), (0, 5));
}

#[test]
fn rule_scoring_ladders_of_both_categories() {
    // "Baker, Rice wine maker, Carpenter: Win by 1 = 4, by 2 = 2, by 3 = 1, by 4+ = Player
    // loses 1 point; Opponent earns 1 point per card" and "Basket maker, Silk trader,
    // Teahouse: Win by 1 = 5, by 2 = 3, by 3+ = ..." (same penalty).
    for s in [Shop::Baker, Shop::RiceWine, Shop::Carpenter] {
        assert_eq!(shop_points(s, 3, 2), (4, 0));
        assert_eq!(shop_points(s, 4, 2), (2, 0));
        assert_eq!(shop_points(s, 5, 2), (1, 0));
        assert_eq!(shop_points(s, 6, 2), (-1, 2));
        assert_eq!(shop_points(s, 4, 0), (-1, 0));
        assert_eq!(shop_points(s, 2, 5), (0, 1));
    }
    for s in [Shop::Basket, Shop::Silk, Shop::Teahouse] {
        assert_eq!(shop_points(s, 3, 2), (5, 0));
        assert_eq!(shop_points(s, 4, 2), (3, 0));
        assert_eq!(shop_points(s, 5, 2), (-1, 2));
        assert_eq!(shop_points(s, 1, 7), (1, -1));
    }
}

#[test]
fn rule_reputation_points_tables() {
    // DAXU-02: identity by default, table B as the alternative.
    for r in REP_MIN..=REP_MAX {
        assert_eq!(reputation_points(RepPoints::Identity, r), r as i32);
    }
    let b: Vec<i32> = (REP_MIN..=REP_MAX)
        .map(|r| reputation_points(RepPoints::TableB, r))
        .collect();
    assert_eq!(b, vec![-7, -7, -6, -5, -3, -2, -1, 0, 1, 2, 3, 4, 5, 5, 5]);
}

#[test]
fn rule_resolution_matrix_every_cell() {
    // DAXU-01 matrix (row = seat 0, column = seat 1), seat 0 with the higher
    // reputation: Give/Give -> lower (seat 1), Take/Take -> higher (seat 0).
    enum Want {
        To(usize),
        Repeat,
        Decides(u8),
    }
    use Want::*;
    let cells = [
        (Give, Give, To(1)),
        (Give, Take, To(1)),
        (Give, Cooperate, To(1)),
        (Give, Undermine, To(0)),
        (Take, Give, To(0)),
        (Take, Take, To(0)),
        (Take, Cooperate, To(0)),
        (Take, Undermine, To(1)),
        (Cooperate, Give, To(0)),
        (Cooperate, Take, To(1)),
        (Cooperate, Cooperate, Repeat),
        (Cooperate, Undermine, Decides(1)),
        (Undermine, Give, To(1)),
        (Undermine, Take, To(0)),
        (Undermine, Cooperate, Decides(0)),
        (Undermine, Undermine, Repeat),
    ];
    for (a, b, want) in cells {
        let (mut st, mut rng) = build(
            &Params::default(),
            &position([2, -2], 0, &neutral_offer(), 9),
        );
        st.apply_joint(&joint(a, b), &mut rng).unwrap();
        match want {
            To(p) => {
                assert_eq!(receiver(&st), Some(p), "{a} vs {b}");
                let want_rep = [2 + a.reputation_delta(), -2 + b.reputation_delta()];
                assert_eq!(st.reputations(), want_rep, "{a} vs {b}");
                assert_eq!(
                    st.holder(),
                    0,
                    "{a} vs {b}: the tie-breaker card is not used"
                );
            }
            Repeat => {
                assert_eq!(receiver(&st), None);
                assert_eq!(st.offer().len(), 4, "{a} vs {b} flips one more card");
                assert_eq!(st.phase(), Phase::Choose);
                assert_eq!(st.reputations(), [2, -2]);
            }
            Decides(d) => {
                assert_eq!(
                    st.phase(),
                    Phase::Decide {
                        decider: d,
                        tiebreak: false
                    },
                    "{a} vs {b}"
                );
                assert_eq!(st.turn(), Turn::Player(d as usize));
            }
        }
    }
}

#[test]
fn rule_give_give_and_take_take_with_lower_seat_one() {
    // Mirror of the matrix's comparison cells with seat 1 higher.
    for (a, want) in [(Give, 0), (Take, 1)] {
        let (mut st, mut rng) = build(
            &Params::default(),
            &position([-1, 3], 0, &neutral_offer(), 9),
        );
        st.apply_joint(&joint(a, a), &mut rng).unwrap();
        assert_eq!(receiver(&st), Some(want), "{a}/{a}");
    }
}

#[test]
fn rule_underminer_decides_and_reputation_moves() {
    // "If one player chooses Cooperate and the other Undermine, the player who has chosen
    // Undermine determines who takes all the cards." Cooperate +1, Undermine -1.
    for (answer, want) in [(Keep, 1), (Pass, 0)] {
        let (mut st, mut rng) = build(
            &Params::default(),
            &position([0, 0], 0, &neutral_offer(), 9),
        );
        st.apply_joint(&joint(Cooperate, Undermine), &mut rng)
            .unwrap();
        assert!(
            st.apply(0, answer, &mut rng).is_err(),
            "only the underminer decides"
        );
        st.apply(1, answer, &mut rng).unwrap();
        assert_eq!(receiver(&st), Some(want));
        assert_eq!(st.reputations(), [1, -1]);
        assert_eq!(st.holder(), 0, "the tie-breaker card only passes when used");
    }
}

#[test]
fn rule_tiebreak_holder_chooses_and_card_passes() {
    // "If players are tied in reputation, the player with the tie breaker card chooses who
    // gets the cards. The tie breaker card is now given to the other player."
    for (a, answer, want) in [
        (Give, Keep, 1),
        (Give, Pass, 0),
        (Take, Keep, 1),
        (Take, Pass, 0),
    ] {
        let (mut st, mut rng) = build(
            &Params::default(),
            &position([3, 3], 1, &neutral_offer(), 9),
        );
        st.apply_joint(&joint(a, a), &mut rng).unwrap();
        assert_eq!(
            st.phase(),
            Phase::Decide {
                decider: 1,
                tiebreak: true
            }
        );
        let mut legal = Vec::new();
        st.legal_actions(1, &mut legal);
        assert_eq!(legal, vec![Keep, Pass]);
        st.legal_actions(0, &mut legal);
        assert!(legal.is_empty());
        st.apply(1, answer, &mut rng).unwrap();
        assert_eq!(receiver(&st), Some(want), "{a}/{a} then {answer}");
        assert_eq!(st.holder(), 0, "the card passes whatever the choice");
    }
}

#[test]
fn rule_tiebreak_holder_receives_variant() {
    // DAXU-05 alternative (Dutch summary): the holder gets the cards, then passes
    // the card on.
    let p = Params::from_settings(&["tiebreak_mode=holder_receives"], "game daxu").unwrap();
    let (mut st, mut rng) = build(&p, &position([0, 0], 1, &neutral_offer(), 9));
    st.apply_joint(&joint(Take, Take), &mut rng).unwrap();
    assert_eq!(receiver(&st), Some(1));
    assert_eq!(st.holder(), 0);
}

#[test]
fn rule_tiebreak_holder_receives_on_give_give_and_take_take() {
    // DAXU-05 alternative (daxu-summary-nl.txt): "the holder **gets** the cards,
    // then passes the card", for both Give/Give and Take/Take; "The card passes **every
    // time it is used**". Two tied rounds in a row: the holder receives, the card passes,
    // and the new holder receives the next tie.
    let p = Params::from_settings(&["tiebreak_mode=holder_receives"], "game daxu").unwrap();
    for a in [Give, Take] {
        for holder in 0..2 {
            for reps in [[0, 0], [-4, -4], [7, 7]] {
                let (mut st, mut rng) = build(&p, &position(reps, holder, &neutral_offer(), 9));
                for round in 0..2 {
                    let want = (holder + round) % 2;
                    let before = [cards_on(&st, 0), cards_on(&st, 1)];
                    st.apply_joint(&joint(a, a), &mut rng).unwrap();
                    let got = [cards_on(&st, 0) - before[0], cards_on(&st, 1) - before[1]];
                    let mut expected = [0, 0];
                    expected[want] = 3;
                    assert_eq!(
                        got, expected,
                        "{a}/{a}, reps {reps:?}, round {round}: the holder (seat {want}) \
                         receives the cards"
                    );
                    assert_eq!(st.holder(), 1 - want, "{a}/{a}: the card passes");
                    assert_eq!(st.phase(), Phase::Choose, "no decision in this variant");
                    assert_eq!(st.reputations(), reps, "Give and Take carry no reputation");
                }
            }
        }
    }
}

#[test]
fn rule_tiebreak_not_used_in_mixed_cells_with_equal_reputations() {
    // DAXU-3.5: "If players have both chosen the same action ... Both choose Give: the
    // player with the lowest reputation* ... Both choose Take: the player with the highest
    // reputation* ... * If players are tied in reputation, the player with the tie breaker
    // card chooses". DAXU-05: "It is used only for equal reputation in Give/Give
    // and Take/Take; nothing else passes it." Every mixed cell of the DAXU-01 matrix, with
    // equal reputations, in both tie-breaker modes and with either holder, resolves by
    // the matrix alone and leaves the card where it is.
    let cells = [
        (Give, Take, Some(1)),
        (Give, Cooperate, Some(1)),
        (Give, Undermine, Some(0)),
        (Take, Give, Some(0)),
        (Take, Cooperate, Some(0)),
        (Take, Undermine, Some(1)),
        (Cooperate, Give, Some(0)),
        (Cooperate, Take, Some(1)),
        (Cooperate, Undermine, None),
        (Undermine, Give, Some(1)),
        (Undermine, Take, Some(0)),
        (Undermine, Cooperate, None),
    ];
    for mode in ["holder_chooses", "holder_receives"] {
        let p = Params::from_settings(&[&format!("tiebreak_mode={mode}")], "game daxu").unwrap();
        for holder in 0..2 {
            for r in [0, 3, -7, 7] {
                for (a, b, want) in cells {
                    let what = format!("{mode}, holder {holder}, reps {r}/{r}, {a} vs {b}");
                    let (mut st, mut rng) =
                        build(&p, &position([r, r], holder, &neutral_offer(), 9));
                    st.apply_joint(&joint(a, b), &mut rng).unwrap();
                    let want = match want {
                        Some(to) => to,
                        None => {
                            // "the player who has chosen Undermine determines who takes all
                            // the cards": a decision, but not the tie-breaker's.
                            let underminer = if a == Undermine { 0 } else { 1 };
                            assert_eq!(
                                st.phase(),
                                Phase::Decide {
                                    decider: underminer as u8,
                                    tiebreak: false
                                },
                                "{what}"
                            );
                            st.apply(underminer, Keep, &mut rng).unwrap();
                            underminer
                        }
                    };
                    assert_eq!(receiver(&st), Some(want), "{what}");
                    assert_eq!(st.holder(), holder, "{what}: the tie-breaker card stays");
                    let moved = |rep: i8, x: Action| (rep + x.reputation_delta()).clamp(-7, 7);
                    assert_eq!(st.reputations(), [moved(r, a), moved(r, b)], "{what}");
                }
            }
        }
    }
}

#[test]
fn rule_reputation_clamps_at_both_ends() {
    // "A reputation marker cannot exceed the most left or right spaces ... your marker will
    // stay on that space." Clamped after each step (DAXU-04).
    let plus = [
        card(Shop::Silk, Symbol::Plus),
        card(Shop::Silk, Symbol::Plus),
        card(Shop::Silk, N),
    ];
    let (mut st, mut rng) = build(&Params::default(), &position([7, 0], 0, &plus, 9));
    st.apply_joint(&joint(Take, Cooperate), &mut rng).unwrap();
    assert_eq!(st.reputations(), [7, 1]);
    let minus = [
        card(Shop::Baker, Symbol::Minus),
        card(Shop::Baker, Symbol::Minus),
        card(Shop::Silk, N),
    ];
    let (mut st, mut rng) = build(&Params::default(), &position([-6, 0], 0, &minus, 9));
    st.apply_joint(&joint(Undermine, Take), &mut rng).unwrap();
    assert_eq!(receiver(&st), Some(0), "Undermine reverses Take");
    assert_eq!(st.reputations(), [-7, 0]);
}

#[test]
fn rule_reputation_order_matters_at_the_ends() {
    // DAXU-04: "at +7, Cooperate +1 then a -1 card gives 6; the other order gives
    // 7". Default: cards first (the worked example's order).
    let offer = [
        card(Shop::Baker, Symbol::Minus),
        card(Shop::Silk, N),
        card(Shop::Silk, N),
    ];
    let (mut st, mut rng) = build(&Params::default(), &position([7, 0], 0, &offer, 9));
    st.apply_joint(&joint(Cooperate, Take), &mut rng).unwrap();
    assert_eq!(receiver(&st), Some(1));
    let (mut st, mut rng) = build(&Params::default(), &position([7, 0], 0, &offer, 9));
    st.apply_joint(&joint(Cooperate, Give), &mut rng).unwrap();
    assert_eq!(receiver(&st), Some(0));
    assert_eq!(
        st.reputations()[0],
        7,
        "cards then action: 7 -1 = 6, +1 = 7"
    );
    let p = Params::from_settings(&["rep_order=action_then_cards"], "game daxu").unwrap();
    let (mut st, mut rng) = build(&p, &position([7, 0], 0, &offer, 9));
    st.apply_joint(&joint(Cooperate, Give), &mut rng).unwrap();
    assert_eq!(
        st.reputations()[0],
        6,
        "action then cards: 7 (clamped), -1 = 6"
    );
}

#[test]
fn rule_reputation_cards_apply_in_flip_order() {
    // DAXU-04: "Cards go in the order they were flipped", "clamping after **each**
    // ±1 step" ("your marker will stay on that space", DAXU-3.9). Near an end of the track
    // the order shows: at +6, +1 +1 -1 gives 7, 7 (clamped), 6, while the reverse order
    // gives 5, 6, 7. Give/Take carry no reputation, so only the cards move the markers, and
    // neither `rep_order` changes the result.
    let up_up_down = [
        card(Shop::Silk, Symbol::Plus),
        card(Shop::Teahouse, Symbol::Plus),
        card(Shop::Baker, Symbol::Minus),
    ];
    let down_down_up = [
        card(Shop::Baker, Symbol::Minus),
        card(Shop::Carpenter, Symbol::Minus),
        card(Shop::Silk, Symbol::Plus),
    ];
    for order in ["cards_then_action", "action_then_cards"] {
        let p = Params::from_settings(&[&format!("rep_order={order}")], "game daxu").unwrap();
        let (mut st, mut rng) = build(&p, &position([6, 0], 0, &up_up_down, 9));
        st.apply_joint(&joint(Take, Give), &mut rng).unwrap();
        assert_eq!(receiver(&st), Some(0));
        assert_eq!(
            st.reputations(),
            [6, 0],
            "{order}: 6 +1 = 7, +1 = 7, -1 = 6"
        );
        let (mut st, mut rng) = build(&p, &position([0, -6], 1, &down_down_up, 9));
        st.apply_joint(&joint(Give, Take), &mut rng).unwrap();
        assert_eq!(receiver(&st), Some(1));
        assert_eq!(
            st.reputations(),
            [0, -6],
            "{order}: -6 -1 = -7, -1 = -7, +1 = -6"
        );
    }
}

#[test]
fn rule_reputation_counts_only_the_final_pair() {
    // "In case both players choose Cooperate or Undermine in a round, reputation is only
    // gained/lost for the final action chosen in the round."
    let (mut st, mut rng) = build(
        &Params::default(),
        &position([0, 0], 0, &neutral_offer(), 9),
    );
    st.apply_joint(&joint(Cooperate, Cooperate), &mut rng)
        .unwrap();
    st.apply_joint(&joint(Undermine, Undermine), &mut rng)
        .unwrap();
    assert_eq!(st.offer().len(), 5);
    st.apply_joint(&joint(Take, Give), &mut rng).unwrap();
    assert_eq!(receiver(&st), Some(0));
    assert_eq!(cards_on(&st, 0), 6 + 5);
    assert_eq!(st.reputations(), [0, 0]);
}

#[test]
fn rule_empty_deck_repeat_removes_the_action_cards() {
    // DAXU-4.2: "If the deck has run out of cards during the game and
    // both players choose Cooperate or Undermine, instead of adding another card ... remove
    // these action cards from the game and the players choose again with their remaining
    // action cards." (DAXU-06)
    let (mut st, mut rng) = build(
        &Params::default(),
        &position([0, 0], 0, &neutral_offer(), 1),
    );
    st.apply_joint(&joint(Cooperate, Cooperate), &mut rng)
        .unwrap();
    assert_eq!(
        (st.offer().len(), st.deck_len()),
        (4, 0),
        "the last deck card is flipped"
    );
    assert_eq!(st.hands(), [FULL_HAND; 2]);
    st.apply_joint(&joint(Cooperate, Cooperate), &mut rng)
        .unwrap();
    assert_eq!(st.offer().len(), 4, "no card to add");
    assert_eq!(
        st.hands(),
        [0b1011, 0b1011],
        "both Cooperate cards leave the game"
    );
    let mut legal = Vec::new();
    st.legal_actions(0, &mut legal);
    assert_eq!(legal, vec![Give, Take, Undermine]);
    assert!(st.apply_joint(&joint(Cooperate, Give), &mut rng).is_err());
    st.apply_joint(&joint(Undermine, Undermine), &mut rng)
        .unwrap();
    assert_eq!(st.hands(), [0b0011, 0b0011]);
    st.apply_joint(&joint(Give, Give), &mut rng).unwrap();
    assert_eq!(
        st.phase(),
        Phase::Decide {
            decider: 0,
            tiebreak: true
        }
    );
    st.apply(0, Keep, &mut rng).unwrap();
    assert_eq!(receiver(&st), Some(0));
    assert_eq!(st.reputations(), [0, 0], "removed cards give no reputation");
    assert!(
        st.turn().is_terminal(),
        "the next round cannot flip three cards"
    );
}

#[test]
fn rule_game_ends_when_three_cards_cannot_be_flipped() {
    // "If you can't flip three cards at the beginning of a round, scoring will determine
    // who's the best shop keeper!" (DAXU-07: the leftover 1-2 cards are unused.)
    for (deck, rounds) in [(2u8, 0u32), (3, 1), (5, 1), (6, 2), (8, 2)] {
        let mut s = position([0, 0], 0, &[], deck);
        s.round = 0;
        let (mut st, mut rng) = build(&Params::default(), &s);
        let mut played = 0;
        while !st.turn().is_terminal() {
            st.apply_joint(&joint(Take, Give), &mut rng).unwrap();
            played += 1;
        }
        assert_eq!(played, rounds, "deck {deck}");
        assert_eq!(st.round(), rounds);
        assert_eq!(st.deck_len(), deck % 3);
        assert_eq!(st.end_condition(), "deck_exhausted");
    }
}

#[test]
fn rule_final_tie_goes_to_the_tiebreak_holder() {
    // "In case of a tie the player currently in possession of the tie-breaker card is the
    // winner."
    for holder in 0..2 {
        let mut s = position([0, 0], holder, &[], 0);
        s.round = 0;
        let (st, _) = build(&Params::default(), &s);
        assert!(st.turn().is_terminal());
        assert_eq!(st.scores()[0], st.scores()[1]);
        assert_eq!(st.ranks()[holder], 1);
        assert_eq!(st.ranks()[1 - holder], 2);
        assert_eq!(st.returns()[holder], 1.0);
    }
}

#[test]
fn final_scores_add_shops_and_reputation() {
    let sides = [[4, 2, 0, 4, 0, 0], [4, 6, 0, 5, 0, 0]];
    // Rice wine 4-4 = 0; carpenter-like margin on index 1 (Rice wine) 2-6: +2 / -1;
    // basket 4-5: 0 / +5.
    assert_eq!(
        final_scores(RepPoints::Identity, &sides, [3, -2]),
        [2 + 3, -1 + 5 - 2]
    );
    assert_eq!(
        final_scores(RepPoints::TableB, &sides, [7, -6]),
        [2 + 5, 4 - 7]
    );
}

#[test]
fn params_parse_and_print() {
    let p = Params::default();
    assert_eq!(
        p.canonical(";"),
        "reputation_points=identity;deck=2/2/5;rep_order=cards_then_action;\
         tiebreak_mode=holder_chooses;initial_tiebreak_holder=random;returns=win_share"
    );
    let d = DeckSpec::parse_param("1/3/5, 2/2/5,2/2/5,2/2/5,2/2/5,0/0/9").unwrap();
    assert_eq!(d.0[0], [1, 3, 5]);
    assert_eq!(d.0[5], [0, 0, 9]);
    assert_eq!(d.format_param(), "1/3/5,2/2/5,2/2/5,2/2/5,2/2/5,0/0/9");
    assert_eq!(DeckSpec::parse_param(&d.format_param()).unwrap(), d);
    let same = DeckSpec::parse_param(&["4/4/1"; 6].join(",")).unwrap();
    assert_eq!(same, DeckSpec([[4, 4, 1]; 6]));
    assert_eq!(same.format_param(), "4/4/1");
    assert!(
        DeckSpec::parse_param("2/2/4").is_err(),
        "a type must hold 9 cards"
    );
    assert!(DeckSpec::parse_param("2/2").is_err());
    assert!(DeckSpec::parse_param("2/2/5,2/2/5").is_err());
    let e = Params::from_settings(&["tiebreak_mode=coin"], "game daxu").unwrap_err();
    assert!(
        e.to_string().contains("holder_chooses|holder_receives"),
        "{e}"
    );
    let e = Params::from_settings(&["colour=red"], "game daxu").unwrap_err();
    assert!(e.to_string().contains("deck (default 2/2/5)"), "{e}");
}

#[test]
fn deck_errors_name_the_parameter_the_value_and_the_forms() {
    let err = |v: &str| {
        Params::from_settings(&[format!("deck={v}")], "game daxu")
            .unwrap_err()
            .to_string()
    };
    for (v, detail) in [
        ("2/2/4", "every type: 2/2/4 sums to 8, not 9"),
        (
            "2/2/5,2/2/5,2/2/5,2/2/5,3/3/4,2/2/5",
            "Silk trader: 3/3/4 sums to 10, not 9",
        ),
        ("2/2/5,2/2/5", "got 2 triples"),
        ("none", "got 0 triples"),
        ("2/2/5;2/2/5", "triples are separated by ',', not ';'"),
        ("2/2/5,2/x/5", "item 2 '2/x/5': expected exactly 3 values"),
        ("2/2/5,2/x/5", "item 2 'x': expected an integer in 0..=255"),
        ("9/0", "got 2 values"),
    ] {
        let e = err(v);
        assert!(
            e.contains(&format!(
                "bad value '{v}' for parameter 'deck' of game daxu"
            )),
            "{e}"
        );
        assert!(e.contains("or six such triples separated by ','"), "{e}");
        assert!(e.contains(detail), "{v}: {e}");
    }
}

#[test]
fn deck_parameter_changes_the_unseen_pool() {
    let p = Params::from_settings(&["deck=0/0/9"], "game daxu").unwrap();
    for seed in 0..50 {
        let mut rng = test_rng(seed);
        let mut st = crate::game::setup::<State>(&p, 2, &mut rng).unwrap();
        let mut buf = Vec::new();
        crate::game::random_playout(&mut st, &mut buf, &mut rng);
        for (k, &n) in st.unseen().iter().enumerate() {
            assert!(k % 3 == 0 || n == 0, "no symbol cards exist");
        }
    }
}

#[test]
fn wrong_player_count_is_an_error() {
    let e = crate::game::setup::<State>(&Params::default(), 3, &mut test_rng(0)).unwrap_err();
    assert!(e.to_string().contains("exactly 2 players, got 3"), "{e}");
}

fn invariants(st: &State) -> Result<(), String> {
    let board: u32 = st.sides().iter().flatten().map(|&c| c as u32).sum();
    let unseen: u32 = st.unseen().iter().map(|&c| c as u32).sum();
    // 54 = 2 removed + both sides + offer + deck (+ the unused 1-2 cards, still in the deck
    // count at the end).
    let total = st.removed() as u32 + board + st.offer().len() as u32 + st.deck_len() as u32;
    if total != 54 || unseen != st.deck_len() as u32 + 2 || st.removed() != 2 {
        return Err(format!(
            "card conservation broken: total {total}, unseen {unseen}"
        ));
    }
    if st
        .reputations()
        .iter()
        .any(|r| !(REP_MIN..=REP_MAX).contains(r))
    {
        return Err("reputation off the track".into());
    }
    if board < 16 {
        return Err("cards left a side".into());
    }
    if st.turn().is_terminal() && st.deck_len() >= 3 {
        return Err("game over with 3+ cards left".into());
    }
    Ok(())
}

#[test]
fn conformance_random_games() {
    for settings in [
        vec![],
        vec!["tiebreak_mode=holder_receives", "reputation_points=table_b"],
        vec!["rep_order=action_then_cards", "deck=4/4/1"],
    ] {
        let cfg = Conformance::<State> {
            params: Params::from_settings(&settings, "game daxu").unwrap(),
            players: 2,
            games: 1500,
            seed: 5,
            invariants: &invariants,
            hidden: None,
            resamples: 2,
            determinize_every: 3,
        };
        let rep = check_random_games(&cfg).unwrap();
        assert_eq!(rep.games, 1500);
        assert!(rep.simultaneous_nodes > 10 * rep.games, "{rep:?}");
        assert!(
            rep.nodes > rep.simultaneous_nodes,
            "decision nodes occur: {rep:?}"
        );
    }
}

#[test]
fn info_key_tracks_the_public_history() {
    let mut rng = test_rng(3);
    let st = crate::game::setup::<State>(&Params::default(), 2, &mut rng).unwrap();
    assert_eq!(st.info_key(0), st.info_key(1));
    let mut a = st.clone();
    let mut b = st.clone();
    let mut r1 = test_rng(9);
    let mut r2 = test_rng(9);
    a.apply_joint(&joint(Take, Give), &mut r1).unwrap();
    b.apply_joint(&joint(Give, Take), &mut r2).unwrap();
    assert_ne!(a.info_key(0), b.info_key(0), "different revealed pairs");
}

#[test]
fn value_is_a_win_share_and_projects_the_margin() {
    let mut rng = test_rng(4);
    let mut buf = Vec::new();
    let margin = Params::from_settings(&["returns=margin"], "game daxu").unwrap();
    for _ in 0..200 {
        let mut st = crate::game::setup::<State>(&Params::default(), 2, &mut rng).unwrap();
        let margin_rules = crate::game::rules::<State>(&margin, 2).unwrap();
        while !st.turn().is_terminal() {
            let v = st.value();
            assert!((0.0..=1.0).contains(&v[0]) && (v[0] + v[1] - 1.0).abs() < 1e-12);
            // The same position under returns=margin: the projected margin itself, and the
            // logistic of it under win_share.
            let m = st.projected_margin(0);
            assert!((v[0] - 1.0 / (1.0 + (-m / 5.0).exp())).abs() < 1e-12);
            let mut sm = st.clone();
            sm.set_rules(margin_rules);
            assert_eq!(sm.value()[0], m);
            assert_eq!(sm.value()[1], -m);
            crate::game::play_ply(&mut st, &mut rng, |s, p, _| {
                s.legal_actions(p, &mut buf);
                buf[0]
            });
        }
        assert_eq!(st.value(), st.returns(), "exact at the end");
        let s = st.scores();
        assert!((st.projected_margin(0) - (s[0] - s[1]) as f64).abs() < 1e-12);
    }
}

#[test]
#[allow(clippy::needless_range_loop)]
fn metrics_add_up_to_the_game() {
    use crate::game::Metrics;
    let mut rng = test_rng(21);
    let mut buf = Vec::new();
    let mut ties = 0;
    for _ in 0..300 {
        let mut st = crate::game::setup::<State>(&Params::default(), 2, &mut rng).unwrap();
        let mut pairs = 0;
        while let Some((turn, _)) =
            crate::game::play_ply(&mut st, &mut rng, |s, p, r| s.random_action(p, &mut buf, r))
        {
            pairs += i32::from(matches!(turn, crate::game::Turn::Simultaneous(_)));
        }
        let mut m = Metrics::default();
        st.metrics(&mut m);
        let s = st.scores();
        for p in 0..2 {
            let cards: i32 = m.seat[p][..4].iter().sum();
            assert_eq!(cards, pairs, "one action card per revealed pair");
            assert_eq!(m.seat[p][5], i32::from(st.reputations()[p]));
            let table = st.rules().params().reputation_points;
            assert_eq!(
                m.seat[p][6] + reputation_points(table, st.reputations()[p]),
                s[p]
            );
            let penalised = Shop::ALL
                .iter()
                .filter(|&&sh| {
                    let side = |q: usize| st.sides()[q][sh as usize];
                    shop_points(sh, side(p), side(1 - p)).0 == -1
                })
                .count() as i32;
            assert_eq!(
                m.seat[p][4], penalised,
                "over-dominance = the -1 majorities"
            );
        }
        assert_eq!(m.game[1], i32::from(s[0] == s[1]));
        ties += m.game[1];
    }
    assert!(ties > 0, "some games end in a points tie");
}

/// The observation tensor holds the documented values at a known position, observer
/// first, and a position built from a [`Setup`] differs in its information state from
/// one that differs only in a public fact the digest of a new game never needed.
#[test]
fn observation_tensor_and_information_state() {
    let plus = card(Shop::Baker, Symbol::Plus);
    let offer = [plus, card(Shop::Silk, N), card(Shop::Baker, Symbol::Minus)];
    let (st, _) = build(&Params::default(), &position([3, -7], 1, &offer, 6));
    let rules = st.rules();
    let layout = State::observation_layout(&rules);
    assert_eq!(crate::game::tensor_len(&layout), 148);
    let mut t = [f32::NAN; 148];
    st.observation_tensor(1, &mut t);
    assert_eq!(
        &t[..10],
        &[0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    );
    // Reputation: seat 1 (-7) first, then seat 0 (+3).
    assert_eq!(t[10], 1.0);
    assert_eq!(t[25 + 10], 1.0);
    assert_eq!(t[10..40].iter().sum::<f32>(), 2.0);
    assert_eq!(&t[40..52], &[1.0 / 9.0; 12]);
    assert_eq!(&t[52..60], &[1.0; 8]);
    assert_eq!(&t[60..68], &[0.0; 8], "no pair revealed at a choose node");
    assert_eq!(t[68 + plus.0 as usize], 1.0 / 9.0);
    assert_eq!(
        &t[86..90],
        &[1.0, 0.0, -1.0, 0.0],
        "offer symbols in flip order"
    );
    assert_eq!(t[126 + card(Shop::RiceWine, N).0 as usize], 6.0 / 9.0);
    assert_eq!(t[144], 6.0 / 54.0);
    // Undermine against Cooperate: seat 0 (the underminer) decides; seat 1 sees it.
    let mut d = st.clone();
    d.apply_joint(&joint(Undermine, Cooperate), &mut test_rng(1))
        .unwrap();
    d.observation_tensor(1, &mut t);
    assert_eq!(&t[2..8], &[0.0, 1.0, 0.0, 0.0, 1.0, 0.0]);
    assert_eq!(&t[60..68], &[0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    // Setups that differ only in reputations have different information states and keys.
    let (other, _) = build(&Params::default(), &position([2, -7], 1, &offer, 6));
    assert_ne!(st.info_key(0), other.info_key(0));
    assert_ne!(
        st.information_state_string(0),
        other.information_state_string(0)
    );
}
