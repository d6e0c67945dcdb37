//! Hot paths allocate nothing: a counting global allocator watches whole Daxu games
//! (setup, legal actions, apply, random playout) after the action buffer has grown.

use crate::counting::allocations;
use tabletop_sim::game::random_playout;
use tabletop_sim::games::daxu::{Params, State};
use tabletop_sim::rng::test_rng;

#[test]
fn daxu_random_games_allocate_nothing() {
    let params = Params::default();
    let mut rng = test_rng(1);
    let mut buf = Vec::with_capacity(8);
    let mut s = tabletop_sim::game::setup::<State>(&params, 2, &mut rng).unwrap();
    random_playout(&mut s, &mut buf, &mut rng);
    let before = allocations();
    let mut wins = 0.0;
    for _ in 0..2000 {
        let mut s = tabletop_sim::game::setup::<State>(&params, 2, &mut rng).unwrap();
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
