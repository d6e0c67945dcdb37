//! A profiling target for search: runs `reps` warm 1,000-iteration searches of one agent
//! from the positions of `benches/search.rs`, for instruction counts under
//! `valgrind --tool=callgrind` (iterations per second come from `cargo bench --bench
//! search`). Usage: `search_profile daxu_start|daxu_mid|goofspiel mcts|ismcts|cfr REPS`;
//! instructions per iteration = (count at REPS − count at 0) / (1,000 × REPS).

use rand::RngExt;
use tabletop_sim::agents::ismcts::{self, IsmctsAgent};
use tabletop_sim::agents::mcts::{self, MctsAgent};
use tabletop_sim::agents::sm_mcts::{self, SmMctsAgent};
use tabletop_sim::game::{GameState, Playable, View, play_ply, setup};
use tabletop_sim::games::{daxu, goofspiel};
use tabletop_sim::params::ParamSet;
use tabletop_sim::rng::test_rng;

/// The Daxu position of the search bench: `plies` random plies from the game of seed 7.
fn daxu_position(plies: u32) -> daxu::State {
    let mut rng = test_rng(7);
    let mut s = setup::<daxu::State>(&daxu::Params::default(), 2, &mut rng).expect("defaults");
    let mut buf = Vec::new();
    let mut played = 0;
    while played < plies || !s.turn().actors().contains(0) {
        play_ply(&mut s, &mut rng, |s, p, rng| {
            s.legal_actions(p, &mut buf);
            buf[rng.random_range(0..buf.len())]
        });
        played += 1;
    }
    s
}

/// Goofspiel(13) at the first bid.
fn goofspiel_position() -> goofspiel::State {
    let mut rng = test_rng(5);
    let mut s =
        setup::<goofspiel::State>(&goofspiel::Params::default(), 2, &mut rng).expect("defaults");
    let mut buf = Vec::new();
    while !s.turn().actors().contains(0) {
        play_ply(&mut s, &mut rng, |s, p, _| {
            s.legal_actions(p, &mut buf);
            buf[0]
        });
    }
    s
}

fn run<G: Playable>(pos: &G, agent: &str, reps: u32) {
    let view = View::new(pos, 0);
    let it = ["iters=1000"];
    let mut rng = test_rng(2);
    let mut out = 0.0;
    match agent {
        "mcts" => {
            let mut a = MctsAgent::<G>::new(mcts::Params::from_settings(&it, "p").unwrap());
            a.search(&view, &mut test_rng(1));
            for _ in 0..reps {
                out += a.search(&view, &mut rng)[0].1;
            }
        }
        "ismcts" => {
            let mut a = IsmctsAgent::<G>::new(ismcts::Params::from_settings(&it, "p").unwrap());
            a.search(&view, &mut test_rng(1));
            for _ in 0..reps {
                out += a.search(&view, &mut rng)[0].1;
            }
        }
        "cfr" => {
            let mut a = SmMctsAgent::<G>::new(sm_mcts::Params::from_settings(&it, "p").unwrap());
            a.average_strategy(&view, &mut test_rng(1));
            for _ in 0..reps {
                out += a.average_strategy(&view, &mut rng)[0].1;
            }
        }
        other => panic!("unknown agent {other}: mcts, ismcts or cfr"),
    }
    println!("{out}");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: search_profile daxu_start|daxu_mid|goofspiel mcts|ismcts|cfr REPS";
    let (Some(pos), Some(agent), Some(reps)) = (args.get(1), args.get(2), args.get(3)) else {
        panic!("{usage}");
    };
    let reps: u32 = reps.parse().expect(usage);
    match pos.as_str() {
        "daxu_start" => run(&daxu_position(0), agent, reps),
        "daxu_mid" => run(&daxu_position(4), agent, reps),
        "goofspiel" => run(&goofspiel_position(), agent, reps),
        other => panic!("unknown position {other}; {usage}"),
    }
}
