//! Hot paths allocate nothing: a counting global allocator watches whole games (setup,
//! legal actions, apply, random playout) of every game at every player count, after the
//! action buffer has grown and the rules are built.

use crate::counting::allocations;
use tabletop_sim::game::{Playable, play_ply, random_playout, rules, tensor_len};
use tabletop_sim::games::daxu;
use tabletop_sim::games::race::Race;
use tabletop_sim::games::{GameVisitor, visit_all};
use tabletop_sim::rng::test_rng;

#[test]
fn daxu_random_games_allocate_nothing() {
    let params = daxu::Params::default();
    let mut rng = test_rng(1);
    let mut buf = Vec::with_capacity(8);
    let mut s = tabletop_sim::game::setup::<daxu::State>(&params, 2, &mut rng).unwrap();
    random_playout(&mut s, &mut buf, &mut rng);
    let before = allocations();
    let mut wins = 0.0;
    for _ in 0..2000 {
        let mut s = tabletop_sim::game::setup::<daxu::State>(&params, 2, &mut rng).unwrap();
        wins += random_playout(&mut s, &mut buf, &mut rng)[0];
    }
    let after = allocations();
    assert!(wins > 0.0);
    assert_eq!(
        after - before,
        0,
        "allocations during 2000 random Daxu games"
    );
}

/// Random games of `G` at every player count until `plies` plies have been played (after
/// as many to grow the action buffer) allocate nothing: setup, legal actions, apply.
/// Writing every seat's observation tensor at every node ([`GameState::observation_tensor`])
/// and the legal-action mask allocates nothing either.
struct NoAllocation {
    plies: u32,
}

impl GameVisitor for NoAllocation {
    fn visit<G: Playable>(&mut self) {
        let (min, max) = G::PLAYERS;
        for players in min..=max {
            let rules = rules::<G>(&G::Params::default(), players).unwrap();
            let mut rng = test_rng(7);
            let mut buf = Vec::new();
            let mut tensor = vec![0f32; tensor_len(&G::observation_layout(&rules))];
            let mut mask = vec![0u8; G::NUM_ACTION_IDS];
            for counted in [false, true] {
                let before = allocations();
                let mut played = 0;
                while played < self.plies {
                    let mut s = G::new_game(rules, &mut rng);
                    loop {
                        for seat in 0..players {
                            s.observation_tensor(seat, &mut tensor);
                            s.legal_actions_mask(seat, &mut buf, &mut mask);
                        }
                        let played_ply =
                            play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r));
                        if played_ply.is_none() {
                            break;
                        }
                    }
                    played += s.ply();
                }
                if counted {
                    assert_eq!(
                        allocations() - before,
                        0,
                        "allocations during {played} plies of random {} games at {players} \
                         players (with every seat's observation tensor and action mask)",
                        G::NAME
                    );
                }
            }
        }
    }
}

#[test]
fn every_game_plays_random_games_without_allocating() {
    visit_all(&mut NoAllocation { plies: 20_000 });
    NoAllocation { plies: 20_000 }.visit::<Race>();
}

/// Counts the allocations of writing every seat's observation tensor at every node of
/// `games` random games of `G` under `params` at each player count (the games themselves
/// are played outside the count).
fn tensor_writes_allocate_nothing<G: Playable>(params: &G::Params, games: u64) {
    use tabletop_sim::game::{play_ply, tensor_len, uniform_legal_action};
    let (min, max) = G::PLAYERS;
    for players in min..=max {
        let rules = rules::<G>(params, players).unwrap();
        let mut out = vec![0f32; tensor_len(&G::observation_layout(&rules))];
        let mut rng = test_rng(5);
        let mut buf = Vec::new();
        let mut counted = 0;
        let mut writes = 0u64;
        for _ in 0..games {
            let mut s = G::new_game(rules, &mut rng);
            loop {
                let before = allocations();
                for p in 0..players {
                    s.observation_tensor(p, &mut out);
                }
                counted += allocations() - before;
                writes += players as u64;
                if play_ply(&mut s, &mut rng, |s, p, r| {
                    uniform_legal_action(s, p, &mut buf, r)
                })
                .is_none()
                {
                    break;
                }
            }
        }
        assert!(writes > games);
        assert_eq!(
            counted,
            0,
            "allocations while writing {writes} {} tensors at {players} players",
            G::NAME
        );
    }
}

/// The variants whose tensors have extra fields (the registry-wide test above covers the
/// default rules of every game): Goofspiel's `imp_info`, Q.A.X.'s dealt fields.
#[test]
fn observation_tensors_of_the_variants_allocate_nothing() {
    use tabletop_sim::games::{goofspiel, qax};
    use tabletop_sim::params::ParamSet;
    let imp = goofspiel::Params::from_settings(&["imp_info=true"], "test").unwrap();
    tensor_writes_allocate_nothing::<goofspiel::State>(&imp, 50);
    let dealt =
        qax::Params::from_settings(&["field_setup=players", "max_rounds=5"], "test").unwrap();
    tensor_writes_allocate_nothing::<qax::State>(&dealt, 3);
}
