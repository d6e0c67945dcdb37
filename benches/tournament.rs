//! Tournament runner throughput on Daxu random-vs-random (the cheapest games, so the
//! runner's own overhead shows): whole runs of 8192 games through `run_games` (play, format
//! rows, per-block statistics, in-order hand-over) with 1 and 2 worker threads, and the row
//! formatter alone.
//!
//! Run with `cargo bench --bench tournament`; criterion reports games/s. On a 2-core
//! machine the 2-thread figure over the 1-thread one is the runner's parallel speedup.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabletop_sim::games::daxu::State;
use tabletop_sim::tournament::records::RowFormat;
use tabletop_sim::tournament::run::{Control, Plan, play_game, run_games};
use tabletop_sim::tournament::{Stats, run::build_agents};

fn plan() -> Plan<State> {
    Plan::resolve(None, &[] as &[&str], &["random", "random"], 1).unwrap()
}

fn runs(c: &mut Criterion) {
    let plan = plan();
    let format = RowFormat::new("default", plan.lineup.entries());
    let stats = Stats::new(&plan.lineup, plan.rules.players());
    const GAMES: u64 = 8192;
    let mut g = c.benchmark_group("tournament");
    g.throughput(Throughput::Elements(GAMES));
    g.sample_size(20);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        g.bench_function(format!("daxu_random_x8192_threads{threads}"), |b| {
            b.iter(|| {
                let mut bytes = 0usize;
                let mut st = stats.clone();
                run_games(
                    &plan,
                    &Control::all(GAMES),
                    &pool,
                    (&format, stats.cell_map()),
                    None,
                    |blk| {
                        bytes += blk.rows.len();
                        st.absorb(blk.games, &blk.tallies);
                        Ok(())
                    },
                )
                .unwrap();
                black_box((bytes, st.games))
            })
        });
    }
    g.finish();
}

fn rows(c: &mut Criterion) {
    let plan = plan();
    let format = RowFormat::new("default", plan.lineup.entries());
    let mut agents = build_agents(&plan.lineup).unwrap();
    let records: Vec<_> = (0..1000)
        .map(|i| play_game(&plan, &mut agents, i, |_| {}).unwrap())
        .collect();
    let mut g = c.benchmark_group("tournament");
    g.throughput(Throughput::Elements(records.len() as u64));
    g.bench_function("format_rows_x1000", |b| {
        let mut buf = Vec::with_capacity(1 << 20);
        b.iter(|| {
            buf.clear();
            for r in &records {
                format.write(r, &mut buf);
            }
            black_box(buf.len())
        })
    });
    g.finish();
}

criterion_group!(benches, runs, rows);
criterion_main!(benches);
