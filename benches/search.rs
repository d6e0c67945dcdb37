//! Search throughput: iterations per second of `mcts`, `ismcts` and `cfr` at their default
//! settings (only `iters` changed), of `mcts` with the former deterministic selection at
//! simultaneous nodes (`mcts_sm_ucb`), of `mcts` with `root=sh,chance=closed`
//! (`mcts_sh_closed`, Daxu's preset), and the arena memory per 1,000 iterations.
//!
//! Run with `cargo bench --bench search`. Each benchmark is one decision of `ITERS`
//! iterations from a fixed position; criterion's throughput line (elements/s) is the
//! number of iterations per second on one core. The arena bytes used after one
//! 1,000-iteration search are printed before the benchmarks (`arena bytes / 1000 iters`).
//!
//! Positions: Daxu at the first simultaneous node of a fresh game and after 4 random
//! plies; Kuhn poker at the first decision (seat 0 holds the queen); Goofspiel(13) (random
//! point order, the OpenSpiel default) at the first bid.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabletop_sim::agents::ismcts::{self, IsmctsAgent};
use tabletop_sim::agents::mcts::{self, MctsAgent};
use tabletop_sim::agents::sm_mcts::{self, SmMctsAgent};
use tabletop_sim::game::{GameState, Playable, View, play_ply};
use tabletop_sim::games::{daxu, goofspiel, kuhn};
use tabletop_sim::params::ParamSet;
use tabletop_sim::rng::test_rng;

const ITERS: u32 = 1000;

/// A Daxu position after `plies` uniformly random plies from the game of seed 7, at a node
/// where seat 0 acts.
fn daxu_position(plies: u32) -> daxu::State {
    use rand::RngExt;
    let mut rng = test_rng(7);
    let mut s =
        tabletop_sim::game::setup::<daxu::State>(&daxu::Params::default(), 2, &mut rng).unwrap();
    let mut buf = Vec::new();
    let mut played = 0;
    while played < plies || !s.turn().actors().contains(0) {
        assert!(!s.turn().is_terminal(), "position past the end");
        play_ply(&mut s, &mut rng, |s, p, rng| {
            s.legal_actions(p, &mut buf);
            buf[rng.random_range(0..buf.len())]
        });
        played += 1;
    }
    s
}

fn bench_game<G: Playable>(c: &mut Criterion, name: &str, position: &G) {
    let iters = format!("iters={ITERS}");
    let mut g = c.benchmark_group(format!("search_{name}"));
    g.throughput(Throughput::Elements(u64::from(ITERS)));
    let view = View::new(position, 0);

    let mut m = MctsAgent::<G>::new(mcts::Params::from_settings(&[&iters], "bench").unwrap());
    let mut i = IsmctsAgent::<G>::new(ismcts::Params::from_settings(&[&iters], "bench").unwrap());
    let mut f = SmMctsAgent::<G>::new(sm_mcts::Params::from_settings(&[&iters], "bench").unwrap());
    let mut rng = test_rng(1);
    m.search(&view, &mut rng);
    i.search(&view, &mut rng);
    f.average_strategy(&view, &mut rng);
    println!(
        "{name}: arena bytes / {ITERS} iters: mcts {}, ismcts {}, cfr {}",
        m.arena_bytes(),
        i.arena_bytes(),
        f.arena_bytes()
    );

    g.bench_function("mcts", |b| {
        let mut rng = test_rng(2);
        b.iter(|| black_box(m.search(&view, &mut rng)))
    });
    // The deterministic decoupled UCB1 of before 2026-11-27 (lockstep at simultaneous
    // nodes), side by side with the default `sm=ucb-mix`: the same code at turn-based nodes.
    let mut legacy =
        MctsAgent::<G>::new(mcts::Params::from_settings(&[&iters, "sm=ucb"], "bench").unwrap());
    g.bench_function("mcts_sm_ucb", |b| {
        let mut rng = test_rng(2);
        b.iter(|| black_box(legacy.search(&view, &mut rng)))
    });
    // Sequential Halving at the root and closed-loop chance (Daxu's preset): the
    // agent's own defaults here are `root=uct,chance=open`, as `mcts` above.
    let mut sc = MctsAgent::<G>::new(
        mcts::Params::from_settings(&[&iters, "root=sh", "chance=closed"], "bench").unwrap(),
    );
    g.bench_function("mcts_sh_closed", |b| {
        let mut rng = test_rng(2);
        b.iter(|| black_box(sc.search(&view, &mut rng)))
    });
    g.bench_function("ismcts", |b| {
        let mut rng = test_rng(3);
        b.iter(|| black_box(i.search(&view, &mut rng)))
    });
    g.bench_function("cfr", |b| {
        let mut rng = test_rng(4);
        b.iter(|| black_box(f.average_strategy(&view, &mut rng)))
    });
    g.finish();
}

fn daxu_search(c: &mut Criterion) {
    bench_game(c, "daxu_start", &daxu_position(0));
    bench_game(c, "daxu_mid", &daxu_position(4));
}

fn kuhn_search(c: &mut Criterion) {
    bench_game(c, "kuhn", &kuhn::State::from_deal([1, 2]));
}

fn goofspiel_search(c: &mut Criterion) {
    let mut rng = test_rng(5);
    let params = goofspiel::Params::default();
    assert_eq!(params.num_cards, 13);
    let mut s = tabletop_sim::game::setup::<goofspiel::State>(&params, 2, &mut rng).unwrap();
    let mut buf = Vec::new();
    while !s.turn().actors().contains(0) {
        play_ply(&mut s, &mut rng, |s, p, _| {
            s.legal_actions(p, &mut buf);
            buf[0]
        });
    }
    bench_game(c, "goofspiel13", &s);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = daxu_search, kuhn_search, goofspiel_search
}
criterion_main!(benches);
