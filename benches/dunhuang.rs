//! Merchants of Dunhuang throughput: uniform-random 4-player playouts (games/s; target
//! 300,000 per second on one core), and one `legal_actions` + `apply` step.
//!
//! Run with `cargo bench --bench dunhuang`; criterion reports the median time per
//! iteration and games per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabletop_sim::game::{random_games, rules};
use tabletop_sim::games::dunhuang::{Params, State};
use tabletop_sim::rng::test_rng;

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("dunhuang");
    const GAMES: u64 = 1000;
    for players in [2, 4] {
        let rules = rules::<State>(&Params::default(), players).unwrap();
        g.throughput(Throughput::Elements(GAMES));
        g.bench_function(format!("random_playout_{players}p_x1000"), |b| {
            let mut rng = test_rng(1);
            let mut buf = Vec::with_capacity(128);
            b.iter(|| black_box(random_games(rules, GAMES, &mut buf, &mut rng)))
        });
    }
    g.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
