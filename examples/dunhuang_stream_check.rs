//! Distributions of uniformly random Merchants of Dunhuang games, to show that a change of
//! the engine's random stream (how chance draws its outcomes) left the game itself alone:
//! run it before and after the change with the same arguments and compare the lines.
//!
//! `cargo run --release --example dunhuang_stream_check -- 100000 4 1` (games, players,
//! seed) prints a header line with the number of games, then one line per statistic: its
//! name, the mean over the games, the standard error and the 95% interval (mean ± 1.96
//! standard errors, normal approximation). Statistics: each seat's final score
//! ([`GameState::scores`]), the highest score (not always the instant winner's), the mean score,
//! plies and rounds per game, the instant-win rate (L133) and seat 0's win share
//! ([`GameState::returns`]). Two runs agree when every pair of means differs by less than `z *
//! sqrt(se1² + se2²)` with a Bonferroni z for the number of statistics compared: 2.8 for
//! the 10 statistics at 4 players, 2.7 for the 8 at 2 players (1.96 for each alone would
//! flag one of 10 about 40% of the time with no change at all).

use tabletop_sim::game::{GameState, random_playout, rules};
use tabletop_sim::games::dunhuang::{NUM_ACTION_IDS, Params, State};
use tabletop_sim::rng::test_rng;
use tabletop_sim::stats::Welford;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let rules = rules::<State>(&Params::default(), players).expect("default rules");
    let mut rng = test_rng(seed);
    let mut buf = Vec::with_capacity(NUM_ACTION_IDS);
    let mut names: Vec<String> = (0..players).map(|p| format!("score_seat{p}")).collect();
    names.extend(
        [
            "score_winner",
            "score_mean",
            "plies",
            "rounds",
            "instant_win",
            "seat0_win_share",
        ]
        .map(String::from),
    );
    let mut m = vec![Welford::new(); names.len()];
    for _ in 0..n {
        let mut s = State::new_game(rules, &mut rng);
        let returns = random_playout(&mut s, &mut buf, &mut rng);
        let scores = s.scores();
        let mut k = 0;
        for &x in &scores[..players] {
            m[k].push(f64::from(x));
            k += 1;
        }
        let best = scores[..players].iter().copied().max().unwrap_or(0);
        let mean = scores[..players].iter().map(|&x| f64::from(x)).sum::<f64>() / players as f64;
        for x in [
            f64::from(best),
            mean,
            f64::from(s.ply()),
            f64::from(s.round()),
            f64::from(u8::from(s.end_condition() == "instant_win")),
            returns[0],
        ] {
            m[k].push(x);
            k += 1;
        }
    }
    println!("# dunhuang {players} players, {n} uniformly random games, seed {seed}");
    println!("statistic mean se lo95 hi95");
    for (name, w) in names.iter().zip(&m) {
        let (mean, se) = (w.mean(), w.sd() / (n as f64).sqrt());
        println!(
            "{name} {mean:.5} {se:.5} {:.5} {:.5}",
            mean - 1.96 * se,
            mean + 1.96 * se
        );
    }
}
