//! Golden playthroughs and perft (DESIGN.md §5 item 5): one writer and one format for every
//! game, in one place (`tests/golden/<game>/<players>p.txt`).
//!
//! A golden file holds, for a fixed seed under the default rules at one player count:
//! 1. the perft counts from the initial position ([`perft`], depths 1 to 3 while the count
//!    stays small, chance from the seed's stream);
//! 2. a uniformly random game: the state at the start, one line per ply (`> seat 0: give,
//!    seat 1: take`), the state again at every new round and at the end, and the end
//!    condition, scores and ranks.
//!
//! A changed file means a rule (or a state's printed form) changed: regenerate with
//! `UPDATE_GOLDEN=1 cargo test --lib golden` and say in the commit which rule changed.

use std::fmt::Write as _;

use crate::game::{
    JointAction, MAX_PLAYERS, Playable, RulesRef, Turn, play_ply, uniform_legal_action,
};
use crate::rng::{SimRng, rng_from_seed};

/// The number of action sequences of length `depth` from `state` (a sequence that reaches
/// the end of the game sooner counts once), the standard move-generator check of chess
/// programs extended to simultaneous nodes (every joint action is one step) and chance
/// (each child draws its chance from its own copy of `chance`, so the count is a function
/// of the position and the stream).
///
/// Cost: the number of nodes visited; keep `depth` small.
///
/// ```
/// use tabletop_sim::game::{GameState, Measured, Playable, RunningScore, rules};
/// use tabletop_sim::games::kuhn;
/// use tabletop_sim::rng::rng_from_seed;
/// use tabletop_sim::testing::golden::perft;
///
/// let mut r = rng_from_seed(1);
/// let s = kuhn::State::new_game(rules::<kuhn::State>(&Default::default(), 2).unwrap(), &mut r);
/// // Kuhn poker: pass or bet, then the answer; pass-bet is answered once more.
/// assert_eq!(perft(&s, 1, &r), 2);
/// assert_eq!(perft(&s, 2, &r), 4);
/// assert_eq!(perft(&s, 3, &r), 5);
/// ```
pub fn perft<G: Playable>(state: &G, depth: u32, chance: &SimRng) -> u64 {
    let turn = state.turn();
    if depth == 0 || turn.is_terminal() {
        return 1;
    }
    let mut total = 0;
    match turn {
        Turn::Terminal => unreachable!("handled above"),
        Turn::Player(p) => {
            let mut legal = Vec::new();
            state.legal_actions(p, &mut legal);
            for a in legal {
                let (mut child, mut rng) = (state.clone(), chance.clone());
                child.apply_unchecked(p, a, &mut rng);
                total += perft(&child, depth - 1, &rng);
            }
        }
        Turn::Simultaneous(set) => {
            let seats: Vec<usize> = set.iter().collect();
            let legal: Vec<Vec<G::Action>> = seats
                .iter()
                .map(|&p| {
                    let mut v = Vec::new();
                    state.legal_actions(p, &mut v);
                    v
                })
                .collect();
            let mut pick = vec![0usize; seats.len()];
            'joint: loop {
                let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
                for (i, &p) in seats.iter().enumerate() {
                    joint[p] = Some(legal[i][pick[i]]);
                }
                let (mut child, mut rng) = (state.clone(), chance.clone());
                child.apply_joint_unchecked(&joint, &mut rng);
                total += perft(&child, depth - 1, &rng);
                for i in (0..seats.len()).rev() {
                    pick[i] += 1;
                    if pick[i] < legal[i].len() {
                        continue 'joint;
                    }
                    pick[i] = 0;
                }
                break;
            }
        }
    }
    total
}

/// The golden file's perft goes one depth deeper (up to 3) only while the count is at most
/// this.
const PERFT_NODES: u64 = 5_000;

/// The golden text of game `G` under `rules` with `seed` (see the module docs).
pub fn playthrough<G: Playable>(rules: RulesRef<G>, seed: u64) -> String {
    let mut rng = rng_from_seed(seed);
    let mut state = G::new_game(rules, &mut rng);
    let n = rules.players();
    let mut out = format!(
        "{} at {n} players, default rules, seed {seed}\nperft from the start:",
        G::NAME
    );
    // Deeper only while the tree stays small (Goofspiel at 4 seats has 13^4 joint bids).
    let mut d = 1;
    loop {
        let count = perft(&state, d, &rng);
        let _ = write!(out, " depth {d}: {count}");
        if d == 3 || count > PERFT_NODES {
            break;
        }
        d += 1;
    }
    let _ = write!(out, "\n\n{state}\n");
    let mut buf = Vec::new();
    let mut round = state.round();
    while let Some((_, joint)) = play_ply(&mut state, &mut rng, |s, p, r| {
        uniform_legal_action(s, p, &mut buf, r)
    }) {
        let moves: Vec<String> = joint
            .iter()
            .enumerate()
            .filter_map(|(p, a)| a.map(|a| format!("seat {p}: {a}")))
            .collect();
        let _ = writeln!(out, "> {}", moves.join(", "));
        if state.round() != round || state.turn().is_terminal() {
            round = state.round();
            let _ = writeln!(out, "{state}");
        }
    }
    let (scores, ranks) = state.scores_and_ranks();
    let _ = writeln!(
        out,
        "end: {}; plies {}; rounds {}; scores {:?}; ranks {:?}",
        state.end_condition(),
        state.ply(),
        state.round(),
        &scores[..n],
        &ranks[..n]
    );
    out
}

/// Compares `text` with the golden file `tests/golden/<relative>` (or writes it when the
/// environment has `UPDATE_GOLDEN`).
///
/// # Errors
/// The file is missing or differs (naming the first differing line).
pub fn check_golden(relative: &str, text: &str) -> Result<(), String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(relative);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().expect("a file in a folder"))
            .and_then(|()| std::fs::write(&path, text))
            .map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    let want = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "golden file {} unreadable ({e}): run with UPDATE_GOLDEN=1 to write it",
            path.display()
        )
    })?;
    if want == text {
        return Ok(());
    }
    let line = want
        .lines()
        .zip(text.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| want.lines().count().min(text.lines().count()));
    Err(format!(
        "golden file {} differs from line {}: a rule or a state's printed form changed \
         (UPDATE_GOLDEN=1 rewrites it; say which rule in the commit)",
        path.display(),
        line + 1
    ))
}
