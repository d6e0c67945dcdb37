//! Plays uniformly random Merchants of Dunhuang games and prints the throughput (a quick profiling target:
//! `cargo run --release --example dunhuang_playouts -- 1000000 4`: games, players). The criterion bench
//! `cargo bench --bench dunhuang` is the reference measurement.

use std::time::Instant;

use tabletop_sim::game::random_games;
use tabletop_sim::games::dunhuang::{Params, State};
use tabletop_sim::rng::test_rng;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let players: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(4);
    let rules = tabletop_sim::game::rules::<State>(&Params::default(), players).expect("defaults");
    let mut rng = test_rng(1);
    let mut buf = Vec::with_capacity(8);
    let start = Instant::now();
    let wins = random_games(rules, n, &mut buf, &mut rng);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} games in {secs:.3} s: {:.0} games/s; seat 0 won {:.4}",
        n as f64 / secs,
        wins / n as f64
    );
}
