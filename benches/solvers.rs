//! Criterion benches of the tabular solvers: one iteration of each algorithm and one exact
//! exploitability evaluation, on Kuhn poker and on Goofspiel with 4 cards (descending point
//! order, perfect information). Run: `cargo bench --bench solvers`.

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop_sim::analysis::efg::build_tree;
use tabletop_sim::solvers::best_response::evaluate;
use tabletop_sim::solvers::efg::Tree;
use tabletop_sim::solvers::{Algo, Solver};

fn trees() -> Vec<(&'static str, Tree)> {
    vec![
        ("kuhn", build_tree::<&str>("kuhn", &[], 1_000).unwrap()),
        (
            "goofspiel4",
            build_tree("goofspiel", &["num_cards=4", "order=descending"], 1_000_000).unwrap(),
        ),
    ]
}

fn iterations(c: &mut Criterion) {
    for (name, tree) in trees() {
        for algo in Algo::ALL {
            let mut solver = Solver::new(&tree, algo, 1);
            c.bench_function(&format!("{name}/{algo}/iteration"), |b| {
                b.iter(|| solver.iterate())
            });
        }
        let policy = tree.uniform_policy();
        c.bench_function(&format!("{name}/exploitability"), |b| {
            b.iter(|| evaluate(&tree, &policy))
        });
    }
}

criterion_group!(benches, iterations);
criterion_main!(benches);
