//! Daimyo rule tests (daimyo.txt; GAPS.md DAI).

use super::*;
use crate::game::{Game, rules};
use crate::rng::test_rng;

fn random_game(players: usize, seed: u64) -> State {
    let r = rules::<State>(&Params::default(), players).unwrap();
    let mut rng = test_rng(seed);
    let mut s = State::new_game(r, &mut rng);
    let mut buf = Vec::new();
    crate::game::random_playout(&mut s, &mut buf, &mut rng);
    s
}

#[test]
fn smoke_random_games_end() {
    for players in 2..=4 {
        for seed in 0..20 {
            let s = random_game(players, seed);
            assert!(s.turn().is_terminal());
        }
    }
}

#[test]
fn conformance_at_every_player_count() {
    for players in 2..=4 {
        let cfg = crate::testing::Conformance::<State> {
            params: Params::default(),
            players,
            games: 20,
            seed: 11,
            invariants: &|_| Ok(()),
            hidden: None,
            resamples: 1,
            determinize_every: 7,
        };
        let rep = crate::testing::check_random_games(&cfg).unwrap();
        assert!(rep.nodes > 1000, "{rep:?}");
    }
}
