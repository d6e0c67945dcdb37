//! Goofspiel rule tests, the conformance harness at 2–4 players, and the determinization
//! sampler against brute force.

use std::collections::BTreeSet;

use super::*;
use crate::game::ScriptedChance;
use crate::rng::test_rng;

fn params(n: usize, imp: bool, order: PointOrder) -> Params {
    Params {
        num_cards: n,
        imp_info: imp,
        order,
        ..Params::default()
    }
}

fn setup(p: &Params, players: usize) -> State {
    crate::game::setup::<State>(p, players, &mut test_rng(0)).unwrap()
}

fn joint(bids: &[u8]) -> JointAction<Action> {
    let mut j = [None; MAX_PLAYERS];
    for (slot, &b) in j.iter_mut().zip(bids) {
        *slot = Some(Action(b));
    }
    j
}

fn random_bids(s: &mut State, rounds: usize, r: &mut SimRng) {
    let mut buf = Vec::new();
    for _ in 0..rounds {
        crate::game::play_ply(s, r, |s, p, r| {
            s.legal_actions(p, &mut buf);
            buf[r.random_range(0..buf.len())]
        });
    }
}

#[test]
fn rule_higher_bid_wins_and_ties_discard() {
    let mut r = test_rng(1);
    let mut s = setup(&params(3, false, PointOrder::Descending), 2);
    assert_eq!(s.point(), 3);
    s.apply_joint(&joint(&[1, 2]), &mut r).unwrap();
    assert_eq!(s.scores()[..2], [0, 3]);
    assert_eq!(s.point(), 2);
    s.apply_joint(&joint(&[2, 2]), &mut r).unwrap_err();
    s.apply_joint(&joint(&[3, 3]), &mut r).unwrap();
    assert_eq!(s.scores()[..2], [0, 3], "tied bids discard the point card");
    assert_eq!(s.winner(1), None);
    s.apply_joint(&joint(&[2, 1]), &mut r).unwrap();
    assert_eq!(s.scores()[..2], [1, 3]);
    assert!(s.turn().is_terminal());
    assert_eq!(s.ranks()[..2], [2, 1]);
}

/// OpenSpiel's `DoApplyActions`: the single highest bid wins; "Tied among several players:
/// discarded", even when a lower bid is unique.
#[test]
fn rule_n_players_single_highest_bid_wins_else_discarded() {
    let mut r = test_rng(1);
    let mut s = setup(&params(5, false, PointOrder::Descending), 3);
    assert_eq!(s.turn(), Turn::Simultaneous(SeatSet::all(3)));
    s.apply_joint(&joint(&[2, 5, 1]), &mut r).unwrap();
    assert_eq!((s.winner(0), s.scores()), (Some(1), [0, 5, 0, 0]));
    s.apply_joint(&joint(&[4, 4, 2]), &mut r).unwrap();
    assert_eq!(
        s.winner(1),
        None,
        "the top bid is tied: the unique 2 does not win"
    );
    assert_eq!(s.scores(), [0, 5, 0, 0]);
    s.apply_joint(&joint(&[1, 1, 4]), &mut r).unwrap();
    assert_eq!((s.winner(2), s.scores()), (Some(2), [0, 5, 3, 0]));
    s.apply_joint(&joint(&[3, 2, 3]), &mut r).unwrap();
    assert_eq!(s.winner(3), None);
    s.apply_joint(&joint(&[5, 3, 5]), &mut r).unwrap();
    assert_eq!(s.winner(4), None);
    assert!(s.turn().is_terminal());
    assert_eq!(s.ranks()[..3], [3, 1, 2]);
    assert_eq!(s.returns()[..3], [0.0, 1.0, 0.0]);

    let mut s = setup(&params(2, false, PointOrder::Descending), 4);
    s.apply_joint(&joint(&[1, 1, 2, 1]), &mut r).unwrap();
    assert_eq!(s.scores(), [0, 0, 2, 0]);
    s.apply_joint(&joint(&[2, 2, 1, 2]), &mut r).unwrap();
    assert_eq!(
        s.scores(),
        [0, 0, 2, 0],
        "three-way tie at the top: discarded"
    );
    let e = s.apply_joint(&joint(&[1, 1, 1, 1]), &mut r).unwrap_err();
    assert_eq!(e, crate::GameError::Terminal);
}

#[test]
fn round_winner_is_the_unique_maximum() {
    assert_eq!(round_winner(&[3, 1]), Some(0));
    assert_eq!(round_winner(&[3, 3]), None);
    assert_eq!(round_winner(&[1, 2, 3, 2]), Some(2));
    assert_eq!(round_winner(&[4, 2, 4, 9]), Some(3));
    assert_eq!(round_winner(&[4, 2, 4, 1]), None);
}

#[test]
fn player_counts_and_returns_are_validated() {
    let p = Params::default();
    for n in 2..=4 {
        assert!(crate::game::rules::<State>(&p, n).is_ok());
    }
    let e = crate::game::rules::<State>(&p, 5).unwrap_err().to_string();
    assert!(e.contains("2 to 4 players"), "{e}");
    let margin = Params {
        returns: Utility::Margin,
        ..Params::default()
    };
    assert!(crate::game::rules::<State>(&margin, 2).is_ok());
    let e = crate::game::rules::<State>(&margin, 3)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("returns=margin") && e.contains("win_share"),
        "{e}"
    );
}

/// The returns follow `returns`; `margin` is own minus other (twice OpenSpiel's
/// `point_difference`, which is own minus the mean).
#[test]
fn returns_follow_the_returns_parameter() {
    let mut r = test_rng(1);
    let play = |p: &Params, players: usize, rounds: &[&[u8]], r: &mut SimRng| {
        let mut s = crate::game::setup::<State>(p, players, r).unwrap();
        for b in rounds {
            s.apply_joint(&joint(b), r).unwrap();
        }
        assert!(s.turn().is_terminal());
        s
    };
    let mut p = params(3, false, PointOrder::Descending);
    // Points 3, 2, 1: seat 0 wins 3 and 1, seat 1 wins 2.
    let two = [&[3u8, 1][..], &[1, 2], &[2, 3]];
    let s = play(&p, 2, &[&[3, 2], &[1, 3], &[2, 1]], &mut r);
    assert_eq!(s.scores()[..2], [4, 2]);
    assert_eq!(s.returns()[..2], [1.0, 0.0]);
    p.returns = Utility::Margin;
    let s = play(&p, 2, &[&[3, 2], &[1, 3], &[2, 1]], &mut r);
    assert_eq!(s.returns()[..2], [2.0, -2.0], "own minus other, in points");
    let s = play(&p, 2, &two, &mut r);
    assert_eq!(s.scores()[..2], [3, 3]);
    assert_eq!(s.returns()[..2], [0.0, 0.0]);
    p.returns = Utility::Rank;
    let s = play(&p, 3, &[&[3, 1, 2], &[1, 2, 1], &[2, 3, 3]], &mut r);
    assert_eq!(s.scores()[..3], [3, 2, 0]);
    assert_eq!(s.returns()[..3], [1.0, 0.5, 0.0]);
}

#[test]
fn feasibility_is_exact_on_small_cases() {
    // Brute force over all injective assignments of 4 cards to 2 bounds.
    let all = [
        Bound::Below(2),
        Bound::Below(4),
        Bound::Above(1),
        Bound::Above(3),
        Bound::Below(3),
        Bound::Free,
    ];
    for mask in 0u16..16 {
        for i in 0..all.len() {
            for j in 0..all.len() {
                let bounds = [all[i], all[j]];
                let mut brute = false;
                for a in 1..=4u8 {
                    for b in 1..=4u8 {
                        if a != b
                            && mask & bit(a) != 0
                            && mask & bit(b) != 0
                            && bounds[0].allows(a)
                            && bounds[1].allows(b)
                        {
                            brute = true;
                        }
                    }
                }
                assert_eq!(feasible(mask, &bounds), brute, "mask {mask:b} {i} {j}");
            }
        }
    }
}

/// `completable` against brute force over every completion, for 3 and 4 seats with small
/// hands.
#[test]
fn round_completion_is_exact() {
    let mut r = test_rng(3);
    for _ in 0..10000 {
        let seats = r.random_range(3..=4usize);
        let n_fixed = r.random_range(1..=seats);
        let fixed: Vec<(Seat, u8)> = (0..n_fixed).map(|p| (p, r.random_range(1..=5u8))).collect();
        let open: Vec<(Seat, u16)> = (n_fixed..seats)
            .map(|p| (p, r.random_range(0..32u16)))
            .collect();
        let win = match r.random_range(0..=seats) {
            w if w == seats => None,
            w => Some(w),
        };
        let mut brute = false;
        let mut choice = vec![1u8; open.len()];
        'outer: loop {
            if open.iter().zip(&choice).all(|(o, &c)| o.1 & bit(c) != 0) {
                let mut bids = vec![0u8; seats];
                for &(p, b) in &fixed {
                    bids[p] = b;
                }
                for (o, &c) in open.iter().zip(&choice) {
                    bids[o.0] = c;
                }
                if round_winner(&bids) == win {
                    brute = true;
                    break;
                }
            }
            for c in choice.iter_mut() {
                if *c < 5 {
                    *c += 1;
                    continue 'outer;
                }
                *c = 1;
            }
            break;
        }
        assert_eq!(
            completable(win, &fixed, &open),
            brute,
            "win {win:?} fixed {fixed:?} open {open:?}"
        );
    }
}

#[test]
fn imp_info_hides_the_opponent_bid() {
    let mut r = test_rng(2);
    let p = params(5, true, PointOrder::Descending);
    let mut a = setup(&p, 2);
    let mut b = a;
    a.apply_joint(&joint(&[5, 1]), &mut r).unwrap();
    b.apply_joint(&joint(&[5, 2]), &mut r).unwrap();
    assert_eq!(a.info_key(0), b.info_key(0));
    assert_eq!(a.observation(0), b.observation(0));
    assert_ne!(a.info_key(1), b.info_key(1));
    assert_eq!(a.info_set_string(0), "p0 pts=5-4 bids=5 res=W");
}

/// At 3–4 players a seat learns its own bid and the winner, not the others' bids.
#[test]
fn imp_info_at_n_players_reveals_only_the_winner() {
    let mut r = test_rng(2);
    let p = params(5, true, PointOrder::Descending);
    let start = setup(&p, 3);
    let after = |bids: &[u8], r: &mut SimRng| {
        let mut s = start;
        s.apply_joint(&joint(bids), r).unwrap();
        s
    };
    let (a, b, c) = (
        after(&[2, 5, 1], &mut r),
        after(&[2, 4, 3], &mut r),
        after(&[2, 3, 4], &mut r),
    );
    assert_eq!(
        a.info_key(0),
        b.info_key(0),
        "seat 1 won both: same for seat 0"
    );
    assert_eq!(a.observation(0), b.observation(0));
    assert_ne!(a.info_key(0), c.info_key(0), "seat 2 won: seat 0 sees it");
    assert_ne!(a.info_key(2), b.info_key(2), "seat 2's own bid differs");
    assert_eq!(a.info_set_string(0), "p0 pts=5-4 bids=2 res=1");
    assert_eq!(c.info_set_string(1), "p1 pts=5-4 bids=3 res=2");
    let tie = after(&[2, 4, 4], &mut r);
    assert_eq!(tie.info_set_string(0), "p0 pts=5-4 bids=2 res=D");
    // Relative winner codes: seat 0 and seat 2 both saw "the next seat won" in different
    // games, but the key also holds the seat, so keys never collide across seats.
    assert_ne!(a.info_key(0), c.info_key(1));
    // Perfect information lists every other seat's bids.
    let mut s = setup(&params(5, false, PointOrder::Descending), 3);
    s.apply_joint(&joint(&[2, 5, 1]), &mut r).unwrap();
    assert_eq!(s.info_set_string(1), "p1 pts=5-4 bids=5 p0=2 p2=1");
    assert_eq!(s.observation(0).bids[2][0], 1);
}

pub(super) fn invariants(s: &State) -> Result<(), String> {
    let n = s.num_cards() as u32;
    let r = u32::from(s.rounds);
    let full = full_mask(s.num_cards());
    for p in 0..MAX_PLAYERS {
        if p >= s.n() {
            if s.hands[p] != 0 || s.scores[p] != 0 {
                return Err(format!("seat {p} is not playing but holds cards or points"));
            }
            continue;
        }
        if s.hands[p].count_ones() != n - r {
            return Err(format!(
                "seat {p} holds {} cards after {r} rounds",
                s.hands[p].count_ones()
            ));
        }
        let mut played = 0u16;
        for i in 0..r as usize {
            played |= bit(s.bids[p][i]);
        }
        if played & s.hands[p] != 0 || (played | s.hands[p]) != full {
            return Err(format!(
                "seat {p}: played and held cards do not partition the hand"
            ));
        }
    }
    let mut revealed: u16 = 0;
    let mut won = [0; MAX_PLAYERS];
    for i in 0..r as usize {
        revealed |= bit(s.points[i]);
        if let Some(w) = s.winner(i) {
            won[w] += i32::from(s.points[i]);
        }
    }
    if s.point != 0 {
        revealed |= bit(s.point);
    }
    if revealed & s.deck != 0 || (revealed | s.deck) != full {
        return Err("point cards are not conserved".into());
    }
    if s.scores != won {
        return Err(format!("scores {:?} but the rounds give {won:?}", s.scores));
    }
    Ok(())
}

/// A digest of what `p` cannot see: every other seat's bids and hand.
fn hidden(s: &State, p: Seat) -> u64 {
    (0..s.n()).filter(|&o| o != p).fold(0, |h, o| {
        s.bids[o][..s.rounds_played()]
            .iter()
            .fold(mix64(h ^ u64::from(s.hands[o])), |h, &b| {
                mix64(h ^ u64::from(b))
            })
    })
}

fn conformance(
    players: usize,
    n: usize,
    imp: bool,
    order: PointOrder,
    games: usize,
) -> crate::testing::Report {
    crate::testing::check_random_games(&crate::testing::Conformance::<State> {
        params: params(n, imp, order),
        players,
        games,
        seed: 11 + n as u64,
        invariants: &invariants,
        hidden: if imp { Some(&hidden) } else { None },
        resamples: 4,
        determinize_every: 1,
    })
    .unwrap_or_else(|e| panic!("players={players} n={n} imp={imp} order={order}: {e}"))
}

#[test]
fn conformance_small_sizes() {
    for n in 1..=5 {
        for imp in [false, true] {
            for order in [PointOrder::Random, PointOrder::Descending] {
                let rep = conformance(2, n, imp, order, 1000);
                assert_eq!(rep.max_plies_seen, n as u32);
                assert_eq!(rep.simultaneous_nodes, 1000 * n);
                if imp && n >= 3 {
                    assert!(rep.hidden_changes > 100, "n={n}: {rep:?}");
                }
            }
        }
    }
}

#[test]
fn conformance_full_size() {
    let rep = conformance(2, 13, true, PointOrder::Random, 200);
    assert!(rep.hidden_changes > 1000, "{rep:?}");
    conformance(2, 13, false, PointOrder::Random, 200);
}

#[test]
fn conformance_three_and_four_players() {
    for players in 3..=4 {
        for (n, games) in [(1, 50), (3, 300), (6, 200), (13, 40)] {
            for imp in [false, true] {
                let rep = conformance(players, n, imp, PointOrder::Random, games);
                assert_eq!(rep.max_plies_seen, n as u32);
                if imp && n >= 3 {
                    assert!(rep.hidden_changes > 50, "{players}p n={n}: {rep:?}");
                }
            }
        }
        conformance(players, 5, true, PointOrder::Descending, 100);
    }
}

/// Every determinization keeps the observer's bids and every round's winner, and the
/// hands follow from the bids.
#[test]
fn determinize_respects_outcomes() {
    let mut r = test_rng(5);
    for players in 2..=4 {
        let p = params(8, true, PointOrder::Random);
        for _ in 0..200 {
            let mut s = crate::game::setup::<State>(&p, players, &mut r).unwrap();
            let stop = r.random_range(0..8);
            random_bids(&mut s, stop, &mut r);
            for obs in 0..players {
                let d = s.determinize(obs, &mut r);
                for i in 0..s.rounds_played() {
                    assert_eq!(d.winner(i), s.winner(i));
                    assert_eq!(d.bids[obs][i], s.bids[obs][i]);
                }
                assert_eq!(d.scores, s.scores);
                invariants(&d).unwrap();
            }
        }
    }
}

/// The other seats' bids of every assignment consistent with what `obs` saw, by brute
/// force over all bid sequences.
fn consistent_worlds(s: &State, obs: Seat) -> BTreeSet<Vec<u8>> {
    let rounds = s.rounds_played();
    let cards = s.num_cards() as u8;
    let others: Vec<Seat> = (0..s.n()).filter(|&q| q != obs).collect();
    // All injective bid sequences of one seat.
    fn sequences(cards: u8, len: usize, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if prefix.len() == len {
            out.push(prefix.clone());
            return;
        }
        for c in 1..=cards {
            if !prefix.contains(&c) {
                prefix.push(c);
                sequences(cards, len, prefix, out);
                prefix.pop();
            }
        }
    }
    let mut seqs = Vec::new();
    sequences(cards, rounds, &mut Vec::new(), &mut seqs);
    let mut out = BTreeSet::new();
    let mut idx = vec![0usize; others.len()];
    loop {
        let ok = (0..rounds).all(|r| {
            let mut bids = [0u8; MAX_PLAYERS];
            bids[obs] = s.bids[obs][r];
            for (q, &i) in others.iter().zip(&idx) {
                bids[*q] = seqs[i][r];
            }
            round_winner(&bids[..s.n()]) == s.winner(r)
        });
        if ok {
            out.insert(idx.iter().flat_map(|&i| seqs[i].clone()).collect());
        }
        let mut k = 0;
        while k < idx.len() {
            idx[k] += 1;
            if idx[k] < seqs.len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
        if k == idx.len() {
            return out;
        }
    }
}

fn world(s: &State, obs: Seat) -> Vec<u8> {
    (0..s.n())
        .filter(|&q| q != obs)
        .flat_map(|q| s.bids[q][..s.rounds_played()].to_vec())
        .collect()
}

/// On small positions at 2–4 players, the sampler reaches every consistent world and
/// nothing else.
#[test]
fn determinize_reaches_every_consistent_world() {
    let mut r = test_rng(8);
    let mut checked = 0;
    for players in 2..=4 {
        let p = params(4, true, PointOrder::Random);
        for _ in 0..12 {
            let mut s = crate::game::setup::<State>(&p, players, &mut r).unwrap();
            let stop = if players == 4 { 2 } else { 3 };
            random_bids(&mut s, stop, &mut r);
            for obs in 0..players {
                let want = consistent_worlds(&s, obs);
                assert!(want.contains(&world(&s, obs)));
                // Not uniform: the rarest world of these positions comes about 10 times
                // less often than 1 / worlds, so 500 draws per world miss one with
                // probability about exp(-50).
                let mut got = BTreeSet::new();
                for _ in 0..500 * want.len() {
                    let d = s.determinize(obs, &mut r);
                    let w = world(&d, obs);
                    assert!(want.contains(&w), "inconsistent world {w:?}\n{s}");
                    got.insert(w);
                    if got.len() == want.len() {
                        break;
                    }
                }
                let missing: Vec<_> = want.difference(&got).collect();
                assert!(
                    missing.is_empty(),
                    "{players}p observer {obs}: {} of {} never sampled, e.g. {:?}\n{s}",
                    missing.len(),
                    want.len(),
                    &missing[..missing.len().min(5)]
                );
                checked += want.len();
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

/// The N-player walk does not give up at the states agents determinize: every state
/// before the end of the game. (It gives up, keeping the true bids, on about 2 in 100,000
/// samples of *finished* 4-player games, where every card is spent and nothing is slack;
/// measured over 800,000 samples.)
#[test]
fn determinize_never_gives_up() {
    let mut r = test_rng(9);
    for players in 3..=4 {
        for cards in [6, 13, 16] {
            let p = params(cards, true, PointOrder::Random);
            for _ in 0..100 {
                let mut s = crate::game::setup::<State>(&p, players, &mut r).unwrap();
                let stop = r.random_range(0..cards);
                random_bids(&mut s, stop, &mut r);
                for obs in 0..players {
                    for _ in 0..3 {
                        assert!(
                            s.sample_bids(obs, &mut r).is_some(),
                            "gave up for seat {obs}\n{s}"
                        );
                    }
                }
            }
        }
    }
}

/// Scripted chance picks the `k`-th smallest remaining point card.
#[test]
fn scripted_chance_picks_the_kth_remaining_point_card() {
    let p = params(5, false, PointOrder::Random);
    let rules = crate::game::rules::<State>(&p, 3).unwrap();
    let mut c = ScriptedChance::new(&[1, 3]);
    let mut s = State::new_game(rules, &mut c);
    assert_eq!(s.point(), 2);
    s.apply_joint(&joint(&[1, 2, 3]), &mut c).unwrap();
    assert_eq!(s.point(), 5, "remaining 1 3 4 5: index 3");
    assert_eq!(c.asked(), &[5, 4]);
}

/// The 2-player sampler draws what it drew before the N-player generalisation: a digest
/// of determinizations and info keys over fixed-seed games, recorded with the old code.
#[test]
fn two_player_determinize_and_keys_are_unchanged() {
    let mut h = 0u64;
    let mut keys = 0u64;
    let mut r = test_rng(77);
    let mut buf = Vec::new();
    for n in [3usize, 5, 8, 13] {
        for order in [PointOrder::Random, PointOrder::Descending] {
            for imp in [true, false] {
                let p = params(n, imp, order);
                for _ in 0..50 {
                    let mut s = crate::game::setup::<State>(&p, 2, &mut r).unwrap();
                    while !s.turn().is_terminal() {
                        for obs in 0..2 {
                            keys = mix64(keys ^ s.info_key(obs));
                            let d = s.determinize(obs, &mut r);
                            for i in 0..s.rounds_played() {
                                h = mix64(h ^ u64::from(d.bids[1 - obs][i]));
                            }
                            h = mix64(h ^ u64::from(d.hands[1 - obs]));
                        }
                        crate::game::play_ply(&mut s, &mut r, |s, p, r| {
                            s.legal_actions(p, &mut buf);
                            buf[r.random_range(0..buf.len())]
                        });
                    }
                    keys = mix64(keys ^ s.scores()[0] as u64 ^ (s.scores()[1] as u64) << 20);
                }
            }
        }
    }
    assert_eq!(
        (h, keys),
        (0xe474db8a2a8efbf5, 0x34a942ba5bdfb2c7),
        "got ({h:#x}, {keys:#x})"
    );
}

/// The value estimate is in the units of the returns at every player count.
#[test]
fn value_is_on_the_scale_of_the_returns() {
    let mut r = test_rng(4);
    for (players, returns, sum) in [
        (2, Utility::WinShare, 1.0),
        (2, Utility::Margin, 0.0),
        (3, Utility::WinShare, 1.0),
        (3, Utility::Rank, 1.5),
        (4, Utility::Rank, 2.0),
    ] {
        let p = Params {
            returns,
            ..params(6, true, PointOrder::Random)
        };
        let mut s = crate::game::setup::<State>(&p, players, &mut r).unwrap();
        random_bids(&mut s, 3, &mut r);
        let v: f64 = s.value()[..players].iter().sum();
        assert!((v - sum).abs() < 1e-9, "{players}p {returns}: {v}");
        if returns == Utility::Margin {
            assert_eq!(
                s.value()[0],
                f64::from(s.scores[0] - s.scores[1]),
                "the score lead"
            );
        }
    }
}

/// The information contract under `imp_info=true` (the registry test runs the default,
/// `imp_info=false`): tensors, observation and information state strings never depend on
/// the other seats' bids, at every player count and a few sizes and orders.
#[test]
fn information_conformance_imp_info() {
    for players in 2..=4 {
        for (n, order) in [
            (13, PointOrder::Random),
            (4, PointOrder::Random),
            (5, PointOrder::Descending),
        ] {
            let rules = crate::game::rules::<State>(&params(n, true, order), players).unwrap();
            let rep = crate::testing::check_information(rules, 5, 20, 1, 2)
                .unwrap_or_else(|e| panic!("{players} players n={n} {order}: {e}"));
            assert!(rep.determinizations > 0 && rep.information_states > players);
        }
    }
}

/// The tensor's length is what the module docs say, and its fields hold the documented
/// values at a known position.
#[test]
fn observation_tensor_follows_the_documented_layout() {
    // Module docs: 2 players 122 (imp_info 96), 3 players 163 (111), 4 players 204 (126).
    for (players, full, imp) in [(2, 122, 96), (3, 163, 111), (4, 204, 126)] {
        for (info, want) in [(false, full), (true, imp)] {
            let rules =
                crate::game::rules::<State>(&params(13, info, PointOrder::Descending), players)
                    .unwrap();
            let len = crate::game::tensor_len(&State::observation_layout(&rules));
            assert_eq!(len, want, "{players} players imp_info={info}");
        }
    }
    // 3 cards, descending, 2 players: round 1 for the 3, seat 0 bids 2, seat 1 bids 1.
    let p = params(3, false, PointOrder::Descending);
    let mut s = setup(&p, 2);
    s.apply_joint(&joint(&[2, 1]), &mut test_rng(0)).unwrap();
    let mut t = [f32::NAN; 32];
    s.observation_tensor(1, &mut t);
    let third = 1.0 / 3.0;
    #[rustfmt::skip]
    let want = [
        0.0, 1.0, // player
        0.0, 1.0, 0.0, // current_point: 2
        1.0, 0.0, 0.0, // remaining_points: 1
        0.0, 0.5, // scores (seat 1, then seat 0): 3 of 6 points to seat 0
        third, // rounds
        0.0, 1.0, 1.0, // hand of seat 1: 2 3
        1.0, 0.0, 1.0, // other_hands: seat 0 holds 1 3
        1.0, 0.0, 0.0, // point_sequence: 3 / 3
        third, 0.0, 0.0, 2.0 * third, 0.0, 0.0, // bid_sequence: seat 1, then seat 0
        0.0, 1.0, 0.0, 0.0, 0.0, 0.0, // win_sequence: seat 0 (second, seat-relative)
    ];
    assert_eq!(t, want);
    // Under imp_info the other seat's hand and bids are not in the tensor.
    let p = params(3, true, PointOrder::Descending);
    let mut s = setup(&p, 2);
    s.apply_joint(&joint(&[2, 1]), &mut test_rng(0)).unwrap();
    let mut t = [f32::NAN; 26];
    s.observation_tensor(1, &mut t);
    assert_eq!(
        &t[11..],
        &[
            0.0, 1.0, 1.0, 1.0, 0.0, 0.0, third, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0
        ]
    );
}
