//! Hot paths allocate nothing: a counting global allocator watches whole Daxu games
//! (setup, legal actions, apply, random playout) after the action buffer has grown.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use tabletop_sim::game::{Game, random_playout};
use tabletop_sim::games::daxu::{Params, State};
use tabletop_sim::rng::test_rng;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn daxu_random_games_allocate_nothing() {
    let params = Params::default();
    let mut rng = test_rng(1);
    let mut buf = Vec::with_capacity(8);
    let mut s = State::new_game(&params, 2, &mut rng).unwrap();
    random_playout(&mut s, &mut buf, &mut rng);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut wins = 0.0;
    for _ in 0..2000 {
        let mut s = State::new_game(&params, 2, &mut rng).unwrap();
        wins += random_playout(&mut s, &mut buf, &mut rng)[0];
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert!(wins > 0.0);
    assert_eq!(
        after - before,
        0,
        "allocations during 2000 random Daxu games"
    );
}
