//! Daimyo throughput: uniform-random complete games (games/s) at 2 and 4 players.
//!
//! Run with `cargo bench --bench daimyo`; criterion reports the median time per iteration
//! and the games per second. Target (issue 10): at least 20,000 random 4-player games/s on
//! one core.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabletop_sim::game::{random_games, rules};
use tabletop_sim::games::daimyo::{Params, State};
use tabletop_sim::rng::test_rng;

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("daimyo");
    const GAMES: u64 = 100;
    g.throughput(Throughput::Elements(GAMES));
    for players in [2, 4] {
        let rules = rules::<State>(&Params::default(), players).unwrap();
        g.bench_function(format!("random_playout_{players}p_x100"), |b| {
            let mut rng = test_rng(1);
            let mut buf = Vec::with_capacity(64);
            b.iter(|| black_box(random_games(rules, GAMES, &mut buf, &mut rng)))
        });
    }
    g.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
