//! Q.A.X. throughput: uniform-random decisions per second (the target is ≥ 1,000,000 on
//! one core) and complete uniform-random games per second at the default `max_rounds`,
//! at 2 and 4 players.
//!
//! Run with `cargo bench --bench qax`; criterion reports the median time per iteration and
//! elements (decisions, games) per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabletop_sim::game::{GameState, play_ply, random_games, rules};
use tabletop_sim::games::qax::{Params, State};
use tabletop_sim::rng::test_rng;

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("qax");
    for players in [2, 4] {
        let rules = rules::<State>(&Params::default(), players).unwrap();
        const DECISIONS: u64 = 100_000;
        g.throughput(Throughput::Elements(DECISIONS));
        g.bench_function(format!("random_decisions_x100k_{players}p"), |b| {
            let mut rng = test_rng(1);
            let mut buf = Vec::with_capacity(128);
            let mut s = State::new_game(rules, &mut rng);
            b.iter(|| {
                for _ in 0..DECISIONS {
                    if play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r))
                        .is_none()
                    {
                        s = State::new_game(rules, &mut rng);
                    }
                }
                black_box(s.ply())
            })
        });
        const GAMES: u64 = 20;
        g.throughput(Throughput::Elements(GAMES));
        g.bench_function(format!("random_games_x20_{players}p"), |b| {
            let mut rng = test_rng(2);
            let mut buf = Vec::with_capacity(128);
            b.iter(|| black_box(random_games(rules, GAMES, &mut buf, &mut rng)))
        });
    }
    g.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
