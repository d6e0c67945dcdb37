//! Daxu throughput: uniform-random playouts (games/s), greedy-vs-random games, and a
//! single `apply_joint` and `legal_actions`.
//!
//! Run with `cargo bench --bench daxu`; criterion reports the median time per iteration
//! and, where a throughput is set, elements (games) per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabletop_sim::agents::{self, Agent};
use tabletop_sim::game::{GameState, JointAction, Turn, View, random_games, rules};
use tabletop_sim::games::daxu::{Action, Params, State};
use tabletop_sim::rng::test_rng;

fn playouts(c: &mut Criterion) {
    let rules = rules::<State>(&Params::default(), 2).unwrap();
    let mut g = c.benchmark_group("daxu");
    const GAMES: u64 = 1000;
    g.throughput(Throughput::Elements(GAMES));
    g.bench_function("random_playout_x1000", |b| {
        let mut rng = test_rng(1);
        let mut buf = Vec::with_capacity(8);
        b.iter(|| black_box(random_games(rules, GAMES, &mut buf, &mut rng)))
    });
    const GREEDY_GAMES: u64 = 100;
    g.throughput(Throughput::Elements(GREEDY_GAMES));
    g.bench_function("greedy_vs_random_x100", |b| {
        let mut rng = test_rng(2);
        let mut seats: Vec<Box<dyn Agent<State>>> = vec![
            agents::build::<State>("greedy").unwrap(),
            agents::build::<State>("random").unwrap(),
        ];
        b.iter(|| {
            let mut wins = 0.0;
            for _ in 0..GREEDY_GAMES {
                let mut s = State::new_game(rules, &mut rng);
                loop {
                    match s.turn() {
                        Turn::Terminal => break,
                        Turn::Player(p) => {
                            let a = seats[p].act(&View::new(&s, p), &mut rng);
                            s.apply_unchecked(p, a, &mut rng);
                        }
                        Turn::Simultaneous(_) => {
                            let a = seats[0].act(&View::new(&s, 0), &mut rng);
                            let b = seats[1].act(&View::new(&s, 1), &mut rng);
                            s.apply_joint_unchecked(&[Some(a), Some(b), None, None], &mut rng);
                        }
                    }
                }
                wins += s.returns()[0];
            }
            black_box(wins)
        })
    });
    g.throughput(Throughput::Elements(1));
    let mut rng = test_rng(3);
    let start = State::new_game(rules, &mut rng);
    let joint: JointAction<Action> = [Some(Action::Take), Some(Action::Give), None, None];
    g.bench_function("apply_joint", |b| {
        b.iter(|| {
            let mut s = start.clone();
            s.apply_joint_unchecked(black_box(&joint), &mut rng);
            black_box(s.deck_len())
        })
    });
    g.bench_function("legal_actions", |b| {
        let mut buf = Vec::with_capacity(8);
        b.iter(|| {
            black_box(&start).legal_actions(black_box(0), &mut buf);
            black_box(buf.len())
        })
    });
    g.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
