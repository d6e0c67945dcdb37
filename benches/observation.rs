//! Observation tensors: the time to write one seat's `GameState::observation_tensor` into
//! a caller's buffer, per registered game at its default player count (issue 21: the write
//! allocates nothing, see `tests/integration/alloc.rs`; this bench gives its ns per call).
//!
//! The positions are the first 64 decision points of a uniformly random game (seed 1), the
//! seat the one to act (seat 0 at a simultaneous node); one criterion iteration writes all
//! 64, so criterion's time divided by 64 is the ns per call. Run with
//! `cargo bench --bench observation`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabletop_sim::Playable;
use tabletop_sim::game::{Turn, default_rules, tensor_len, uniform_legal_action};
use tabletop_sim::games::{GameVisitor, visit_all};
use tabletop_sim::rng::test_rng;

/// Positions written per criterion iteration.
const POSITIONS: usize = 64;

struct Bench<'a>(&'a mut Criterion);

impl GameVisitor for Bench<'_> {
    fn visit<G: Playable>(&mut self) {
        let rules = default_rules::<G>();
        let mut rng = test_rng(1);
        let mut buf = Vec::new();
        let mut positions: Vec<(G, usize)> = Vec::with_capacity(POSITIONS);
        while positions.len() < POSITIONS {
            let mut s = G::new_game(rules, &mut rng);
            loop {
                let seat = match s.turn() {
                    Turn::Terminal => break,
                    Turn::Player(p) => p,
                    Turn::Simultaneous(set) => set.iter().next().unwrap_or(0),
                };
                if positions.len() == POSITIONS {
                    break;
                }
                positions.push((s.clone(), seat));
                match s.turn() {
                    Turn::Player(p) => {
                        let a = uniform_legal_action(&s, p, &mut buf, &mut rng);
                        s.apply_unchecked(p, a, &mut rng);
                    }
                    Turn::Simultaneous(set) => {
                        let mut joint = [None; tabletop_sim::game::MAX_PLAYERS];
                        for p in set.iter() {
                            joint[p] = Some(uniform_legal_action(&s, p, &mut buf, &mut rng));
                        }
                        s.apply_joint_unchecked(&joint, &mut rng);
                    }
                    Turn::Terminal => unreachable!(),
                }
            }
        }
        let mut out = vec![0.0f32; tensor_len(&G::observation_layout(&rules))];
        let mut g = self.0.benchmark_group("observation_tensor");
        g.throughput(Throughput::Elements(POSITIONS as u64));
        g.bench_function(format!("{}_x{POSITIONS}", G::NAME), |b| {
            b.iter(|| {
                for (s, seat) in &positions {
                    s.observation_tensor(*seat, &mut out);
                }
                black_box(out[0])
            })
        });
        g.finish();
    }
}

fn tensors(c: &mut Criterion) {
    visit_all(&mut Bench(c));
}

criterion_group!(benches, tensors);
criterion_main!(benches);
