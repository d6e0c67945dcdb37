//! Plays uniformly random Daimyo games, prints the throughput and checks
//! that the games allocate nothing (a counting allocator around the games, the action
//! buffer sized for any legal list; one warm-up game first). A quick profiling target:
//! `cargo run --release --example daimyo_playouts -- 100000 4` (games, players); under
//! `valgrind --tool=callgrind` it gives instructions per game on a loaded machine. The
//! criterion bench `cargo bench --bench daimyo` is the reference measurement.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use tabletop_sim::game::{GameState, random_games};
use tabletop_sim::games::daimyo::{Params, State};
use tabletop_sim::rng::test_rng;

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let players: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(4);
    let rules = tabletop_sim::game::rules::<State>(&Params::default(), players).expect("defaults");
    let mut rng = test_rng(1);
    // Room for any legal list (at most one action per id).
    let mut buf = Vec::with_capacity(<State as GameState>::NUM_ACTION_IDS);
    let mut warm = rng.clone();
    random_games(rules, 1, &mut buf, &mut warm);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let start = Instant::now();
    let wins = random_games(rules, n, &mut buf, &mut rng);
    let secs = start.elapsed().as_secs_f64();
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    println!(
        "{n} games in {secs:.3} s: {:.0} games/s; seat 0 won {:.4}; {allocations} allocations",
        n as f64 / secs,
        wins / n as f64
    );
    assert_eq!(allocations, 0, "random games allocated");
}
