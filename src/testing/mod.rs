//! The conformance harness every game runs (DESIGN.md §5 items 1–3), generic over
//! [`game::GameState`](crate::game::GameState).
//!
//! [`check_random_games`] plays uniformly random games and, at every node, checks:
//! 1. *Random simulation*: a clone equals the original; legal actions are non-empty iff the
//!    seat acts, sorted and unique; every legal action applies through the checked apply;
//!    an action that is not legal is rejected; the game's invariants (conservation of
//!    cards, coins, tokens) hold; the game ends within [`GameState::max_plies`](crate::game::GameState::max_plies); returns are
//!    finite and constant-sum; the value estimate ([`GameState::value`](crate::game::GameState::value)) is finite, sums to the
//!    same constant at every node (one scale with the returns) and equals the returns at the
//!    end; [`GameState::random_action`](crate::game::GameState::random_action) picks what the default rule picks from the same RNG
//!    state; [`GameState::round`](crate::game::GameState::round) never decreases, and the ply that ends the game starts no
//!    round.
//! 2. *Determinization*: for every seat, a determinized state keeps that seat's info key,
//!    observation ([`GameState::observation`](crate::game::GameState::observation)), turn, rules and legal actions, and plays on
//!    legally to the end; over many resamples the
//!    hidden parts (as digested by the game's `hidden` hook) do change.
//! 3. *Snapshot independence*: clones taken earlier never change when the original or
//!    another clone moves on.
//! 4. *Save → load → continue* (DESIGN.md §5 item 8): every state passes
//!    [`GameState::validate`](crate::game::GameState::validate); at sampled nodes (about one in eight, and every final state) the
//!    state saved as a position ([`crate::position`]) loads back `==`, saves to the same
//!    text, and the loaded copy and the original, continued with clones of one RNG, play
//!    the same plies to the same end.

use rand::RngExt;

pub mod golden;
pub mod information;

pub use information::{InformationReport, check_information};

use crate::game::{JointAction, MAX_PLAYERS, Playable, Seat, Turn, random_playout};
use crate::position::Position;
use crate::rng::{SimRng, rng_from_seed, seed_for};

/// A digest of what an observer cannot see (see [`Conformance::hidden`]).
pub type HiddenDigest<'a, G> = &'a dyn Fn(&G, Seat) -> u64;

/// What to run and which game-specific checks to apply.
pub struct Conformance<'a, G: Playable> {
    /// Rule variants.
    pub params: G::Params,
    /// Player count.
    pub players: usize,
    /// Number of random games.
    pub games: usize,
    /// Master seed (game `i` uses `seed_for(seed, i, 0)`).
    pub seed: u64,
    /// Game invariants (conservation laws, ranges), checked at every node.
    pub invariants: &'a dyn Fn(&G) -> Result<(), String>,
    /// A digest of what `observer` cannot see, or `None` if every hidden part of the game
    /// is lazily drawn chance (then determinize must return an equal state).
    pub hidden: Option<HiddenDigest<'a, G>>,
    /// Determinizations tried per seat at each checked node.
    pub resamples: usize,
    /// Check determinization at every `determinize_every`-th node (1 = all).
    pub determinize_every: usize,
}

/// Counts of what the harness checked, so a test can assert that coverage is non-trivial.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Games played.
    pub games: usize,
    /// Decision nodes visited.
    pub nodes: usize,
    /// Simultaneous nodes visited.
    pub simultaneous_nodes: usize,
    /// Determinizations checked.
    pub determinizations: usize,
    /// (node, seat) pairs where some resample changed the hidden digest.
    pub hidden_changes: usize,
    /// Longest game in plies.
    pub max_plies_seen: u32,
    /// States saved, loaded and continued to the end (check 4).
    pub positions_saved: usize,
}

/// Runs the conformance checks; returns what was covered.
///
/// # Errors
/// The first violated contract, naming the game index, the ply and the state.
pub fn check_random_games<G: Playable>(cfg: &Conformance<'_, G>) -> Result<Report, String> {
    let mut rep = Report::default();
    let mut buf = Vec::new();
    let mut returns_sum: Option<f64> = None;
    for gi in 0..cfg.games {
        let mut rng = rng_from_seed(seed_for(cfg.seed, gi as u64, 0));
        let rules = crate::game::rules::<G>(&cfg.params, cfg.players)
            .map_err(|e| format!("game {gi}: rules rejected: {e}"))?;
        let mut state = G::new_game(rules, &mut rng);
        let bound = state.max_plies();
        let mut snapshots: Vec<(G, String)> = Vec::new();
        let mut value_sums: Vec<f64> = Vec::new();
        let mut prev_round = state.round();
        loop {
            let ctx =
                |msg: String| format!("game {gi}, ply {}: {msg}\nstate:\n{state}", state.ply());
            (cfg.invariants)(&state).map_err(ctx)?;
            state
                .validate()
                .map_err(|e| ctx(format!("a state reached by play fails validate: {e}")))?;
            check_node(&state, &mut buf, &mut rng).map_err(ctx)?;
            let turn = state.turn();
            // Rounds started so far: never fewer, and the ply that ends the game starts
            // none (the leader traces of `--decisiveness` read the round at every ply).
            let round = state.round();
            if round < prev_round || (turn.is_terminal() && round != prev_round) {
                return Err(ctx(format!(
                    "the round went from {prev_round} to {round}{}",
                    if turn.is_terminal() {
                        " on the ply that ended the game, which starts no round"
                    } else {
                        ": rounds never go back"
                    }
                )));
            }
            prev_round = round;
            let value = state.value();
            let n = state.num_players();
            if value[..n].iter().any(|v| !v.is_finite()) {
                return Err(ctx(format!("value {:?} is not finite", &value[..n])));
            }
            value_sums.push(value[..n].iter().sum());
            if turn.is_terminal() {
                check_terminal(&state, &mut returns_sum).map_err(ctx)?;
                check_save_load(&state, &mut buf, &rng).map_err(ctx)?;
                rep.positions_saved += 1;
                if value != state.returns() {
                    return Err(ctx(format!(
                        "value {:?} differs from returns {:?} at the end",
                        &value[..n],
                        &state.returns()[..n]
                    )));
                }
                // One scale: the value estimate sums to what the returns sum to (1 for win
                // share, n/2 for normalised rank, 0 for a margin) at every node.
                if let Some(v) = value_sums
                    .iter()
                    .find(|v| (*v - returns_sum.unwrap_or(0.0)).abs() > 1e-9)
                {
                    return Err(ctx(format!(
                        "a value estimate summed to {v} but the returns sum to {returns_sum:?}: \
                         not on the scale of the returns"
                    )));
                }
                break;
            }
            rep.nodes += 1;
            if matches!(turn, Turn::Simultaneous(_)) {
                rep.simultaneous_nodes += 1;
            }
            if rep.nodes % cfg.determinize_every.max(1) == 0 {
                let (d, h) = check_determinize(cfg, &state, &mut rng).map_err(ctx)?;
                rep.determinizations += d;
                rep.hidden_changes += h;
            }
            if rng.random_range(0..8) == 0 {
                snapshots.push((state.clone(), format!("{state:?}")));
                check_save_load(&state, &mut buf, &rng).map_err(ctx)?;
                rep.positions_saved += 1;
            }
            if state.ply() >= bound {
                return Err(ctx(format!("game not over after max_plies = {bound}")));
            }
            random_step(&mut state, &mut buf, &mut rng);
        }
        rep.max_plies_seen = rep.max_plies_seen.max(state.ply());
        for (snap, printed) in &snapshots {
            let mut moved = snap.clone();
            random_playout(&mut moved, &mut buf, &mut rng);
            if format!("{snap:?}") != *printed {
                return Err(format!(
                    "game {gi}: a snapshot changed after its copy moved on"
                ));
            }
        }
        rep.games += 1;
    }
    Ok(rep)
}

pub(crate) fn random_step<G: Playable>(
    state: &mut G,
    buf: &mut Vec<G::Action>,
    rng: &mut SimRng,
) -> Option<(Turn, JointAction<G::Action>)> {
    crate::game::play_ply(state, rng, |s, p, rng| {
        s.legal_actions(p, buf);
        buf[rng.random_range(0..buf.len())]
    })
}

/// Plays uniformly random legal actions to the end, checking before each ply that every
/// acting seat has a legal action (a determinized state that breaks this would otherwise
/// panic deep in the playout), and that the first and the final state pass
/// [`GameState::validate`] (a determinized state is a state of the game like any other; the
/// final check found Q.A.X.'s attack that ended the game before the attacked stack was
/// relocated). The states in between come from legal play, which the node checks cover.
fn checked_playout<G: Playable>(
    state: &mut G,
    buf: &mut Vec<G::Action>,
    rng: &mut SimRng,
) -> Result<(), String> {
    let bound = state.max_plies();
    let start = state.ply();
    state
        .validate()
        .map_err(|e| format!("a determinized state fails validate: {e}\n{state}"))?;
    loop {
        for p in state.turn().actors().iter() {
            state.legal_actions(p, buf);
            if buf.is_empty() {
                return Err(format!(
                    "after {} random plies seat {p} acts without a legal action:\n{state}",
                    state.ply() - start
                ));
            }
        }
        if state.ply() > bound {
            return Err(format!("the game exceeded its bound of {bound} plies"));
        }
        // At a turn-based node `buf` already holds the one actor's legal actions (listed
        // just above): choose from it as `random_step` does, without listing them again
        // (the same draw, so the same playout).
        let step = match state.turn() {
            Turn::Player(_) => {
                crate::game::play_ply(state, rng, |_, _, rng| buf[rng.random_range(0..buf.len())])
            }
            _ => random_step(state, buf, rng),
        };
        if step.is_none() {
            return state.validate().map_err(|e| {
                format!("the final state of a random playout fails validate: {e}\n{state}")
            });
        }
    }
}

/// Check 4: save → load gives an equal state and the same text, and both copies, continued
/// with clones of `rng`, play identically to the end. `rng` itself is not advanced, so the
/// harness plays the same games with or without this check.
pub(crate) fn check_save_load<G: Playable>(
    state: &G,
    buf: &mut Vec<G::Action>,
    rng: &SimRng,
) -> Result<(), String> {
    let text = Position::new(state.clone()).to_json();
    let mut loaded = Position::<G>::from_json(&text)
        .map_err(|e| format!("a saved position does not load: {e}\n{text}"))?
        .state;
    if loaded != *state {
        return Err(format!(
            "save -> load changed the state:\n{state:?}\nbecame\n{loaded:?}\nvia\n{text}"
        ));
    }
    let again = Position::new(loaded.clone()).to_json();
    if again != text {
        return Err(format!(
            "saving a loaded state gives other text:\n{text}\nthen\n{again}"
        ));
    }
    let mut original = state.clone();
    let (mut r1, mut r2) = (rng.clone(), rng.clone());
    loop {
        let a = random_step(&mut original, buf, &mut r1);
        let b = random_step(&mut loaded, buf, &mut r2);
        if a != b || original != loaded {
            return Err(format!(
                "the loaded copy played {b:?} where the original played {a:?}, reaching\n\
                 {loaded:?}\ninstead of\n{original:?}"
            ));
        }
        if a.is_none() {
            return Ok(());
        }
    }
}

pub(crate) fn check_node<G: Playable>(
    state: &G,
    buf: &mut Vec<G::Action>,
    rng: &mut SimRng,
) -> Result<(), String> {
    let copy = state.clone();
    if copy != *state {
        return Err("a clone differs from its original".into());
    }
    let actors = state.turn().actors();
    for p in 0..state.num_players() {
        state.legal_actions(p, buf);
        if actors.contains(p) == buf.is_empty() {
            return Err(format!(
                "seat {p}: {} legal actions but acts = {}",
                buf.len(),
                actors.contains(p)
            ));
        }
        if buf.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!(
                "seat {p}: legal actions not sorted and unique: {buf:?}"
            ));
        }
        for &a in buf.iter() {
            if G::action_from_id(G::action_id(a)) != Some(a) {
                return Err(format!("action {a} does not round-trip through its id"));
            }
            if G::parse_action(&a.to_string()) != Some(a) {
                return Err(format!("action {a} does not round-trip through its text"));
            }
        }
        if !actors.contains(p) {
            continue;
        }
        let (mut r1, mut r2) = (rng.clone(), rng.clone());
        let want = buf[r1.random_range(0..buf.len())];
        let mut scratch = Vec::new();
        let got = state.random_action(p, &mut scratch, &mut r2);
        if got != want || r1 != r2 {
            return Err(format!(
                "random_action gave {got} but the default rule gives {want} (or used the RNG differently)"
            ));
        }
        for &a in buf.iter() {
            let mut s = state.clone();
            apply_one(&mut s, p, a, rng).map_err(|e| format!("legal action {a} refused: {e}"))?;
        }
        // Every action id: `is_legal` agrees with the list; the first illegal one is tried.
        let mut illegal = None;
        for a in (0..G::NUM_ACTION_IDS).filter_map(G::action_from_id) {
            // `buf` is sorted and unique (checked above), so a binary search finds the same.
            let listed = buf.binary_search(&a).is_ok();
            if state.is_legal(p, a, &mut scratch) != listed {
                return Err(format!(
                    "is_legal({p}, {a}) disagrees with legal_actions {buf:?}"
                ));
            }
            if !listed && illegal.is_none() {
                illegal = Some(a);
            }
        }
        if let Some(a) = illegal {
            let mut s = state.clone();
            if apply_one(&mut s, p, a, rng).is_ok() {
                return Err(format!("illegal action {a} accepted for seat {p}"));
            }
            if s != *state {
                return Err(format!("refused action {a} changed the state"));
            }
        }
    }
    Ok(())
}

/// Applies `a` for seat `p` with checked apply; at a simultaneous node the other acting
/// seats play their first legal action.
fn apply_one<G: Playable>(
    s: &mut G,
    p: Seat,
    a: G::Action,
    rng: &mut SimRng,
) -> Result<(), String> {
    match s.turn() {
        Turn::Player(_) => s.apply(p, a, rng).map_err(|e| e.to_string()),
        Turn::Simultaneous(set) => {
            let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
            let mut tmp = Vec::new();
            for q in set.iter() {
                s.legal_actions(q, &mut tmp);
                joint[q] = tmp.first().copied();
            }
            joint[p] = Some(a);
            s.apply_joint(&joint, rng).map_err(|e| e.to_string())
        }
        Turn::Terminal => Err("terminal".into()),
    }
}

/// Returns must be finite and constant-sum (the same total at every terminal state of the
/// run: 1 for win shares, n/2 for normalised ranks, 0 for margins).
pub(crate) fn check_terminal<G: Playable>(
    state: &G,
    sum_seen: &mut Option<f64>,
) -> Result<(), String> {
    let n = state.num_players();
    let r = state.returns();
    let sum: f64 = r[..n].iter().sum();
    if r[..n].iter().any(|x| !x.is_finite()) {
        return Err(format!("returns {:?} not finite", &r[..n]));
    }
    match sum_seen {
        Some(s) if (*s - sum).abs() > 1e-9 => {
            return Err(format!(
                "returns {:?} sum to {sum}, another game's to {s}: not constant-sum",
                &r[..n]
            ));
        }
        Some(_) => {}
        None => *sum_seen = Some(sum),
    }
    let ranks = state.ranks();
    if ranks[..n].iter().any(|&k| k == 0 || k as usize > n) || !ranks[..n].contains(&1) {
        return Err(format!("ranks {:?} invalid", &ranks[..n]));
    }
    if state.scores_and_ranks() != (state.scores(), ranks) {
        return Err(format!(
            "scores_and_ranks {:?} differs from (scores, ranks) {:?}",
            state.scores_and_ranks(),
            (state.scores(), ranks)
        ));
    }
    if state.end_condition().is_empty() {
        return Err("terminal state without an end condition".into());
    }
    Ok(())
}

fn check_determinize<G: Playable>(
    cfg: &Conformance<'_, G>,
    state: &G,
    rng: &mut SimRng,
) -> Result<(usize, usize), String> {
    let hidden = match cfg.hidden {
        Some(h) => Hidden::Digest(h),
        None => Hidden::NoneDeclared,
    };
    check_determinize_with(state, rng, cfg.resamples, hidden)
}

/// What the determinization check knows of a game's hidden parts.
pub(crate) enum Hidden<'a, G> {
    /// Every hidden part is lazily drawn chance: determinize must return an equal state.
    NoneDeclared,
    /// A digest of what the observer cannot see: resamples should change it.
    Digest(HiddenDigest<'a, G>),
    /// Unknown (the soak, which has no game-specific digest): neither is checked.
    Unchecked,
}

/// Check 2 at one node: for every seat, `resamples` determinizations keep the seat's info
/// key, turn, observation, rules and legal actions, and play on legally to the end.
/// Returns (determinizations checked, seats whose hidden digest changed).
pub(crate) fn check_determinize_with<G: Playable>(
    state: &G,
    rng: &mut SimRng,
    resamples: usize,
    hidden: Hidden<'_, G>,
) -> Result<(usize, usize), String> {
    let mut checked = 0;
    let mut changed = 0;
    let mut mine = Vec::new();
    let mut theirs = Vec::new();
    let mut buf = Vec::new();
    for p in 0..state.num_players() {
        state.legal_actions(p, &mut mine);
        let mut digests = Vec::new();
        for _ in 0..resamples.max(1) {
            let d = state.determinize(p, rng);
            checked += 1;
            if d.info_key(p) != state.info_key(p) {
                return Err(format!("determinize for seat {p} changed its info key"));
            }
            if d.turn() != state.turn() {
                return Err(format!("determinize for seat {p} changed the turn"));
            }
            if d.observation(p) != state.observation(p) {
                return Err(format!(
                    "determinize for seat {p} changed what it sees:\n{}\nbecame\n{}",
                    state.observation(p),
                    d.observation(p)
                ));
            }
            if d.rules() != state.rules() {
                return Err(format!("determinize for seat {p} changed the rules"));
            }
            d.legal_actions(p, &mut theirs);
            if theirs != mine {
                return Err(format!(
                    "determinize for seat {p} changed its legal actions"
                ));
            }
            match hidden {
                Hidden::Digest(h) => digests.push(h(&d, p)),
                Hidden::NoneDeclared if d != *state => {
                    return Err(format!(
                        "determinize for seat {p} changed a game declared to have no hidden state"
                    ));
                }
                Hidden::NoneDeclared | Hidden::Unchecked => {}
            }
            let mut cont = d.clone();
            checked_playout(&mut cont, &mut buf, rng).map_err(|e| {
                format!(
                    "a state determinized for seat {p} does not play on: {e}\n\
                     the determinized state:\n{d}"
                )
            })?;
        }
        if digests.windows(2).any(|w| w[0] != w[1]) {
            changed += 1;
        }
    }
    Ok((checked, changed))
}

/// Plays a game whose decisions are chosen by `choices` and checks the conformance
/// contracts along it (for property tests: proptest picks the choices).
///
/// From setup with chance drawn from `seed`, each acting seat in turn takes the legal
/// action at index `choices[k] mod len` (at a simultaneous node every acting seat
/// consumes one choice), while choices remain and the game goes on.
/// Every node of that scripted part gets the full node checks of
/// [`check_random_games`] (check 1: clone, legal lists, checked apply of every legal
/// action, illegal refused, ids and texts, `random_action`; `validate`; the value
/// estimate) and a determinization per seat (check 2, without the hidden-part digest).
/// Where the choices end, the state is saved, loaded and both copies continued (check 4);
/// then the game is finished with uniformly random play, checking `validate`, the legal
/// lists and the ply bound at every node, and the terminal contracts (returns, ranks,
/// scores, end condition) at the end.
///
/// Returns the number of plies of the whole game.
///
/// # Errors
/// The first violated contract, naming the ply and the state.
pub fn check_scripted_game<G: Playable>(
    params: &G::Params,
    players: usize,
    seed: u64,
    choices: &[u32],
) -> Result<u32, String> {
    let rules = crate::game::rules::<G>(params, players).map_err(|e| e.to_string())?;
    let mut rng = rng_from_seed(seed);
    let mut state = G::new_game(rules, &mut rng);
    let bound = state.max_plies();
    let mut buf = Vec::new();
    let mut next = choices.iter().copied();
    let mut saved = false;
    let mut value_sum: Option<f64> = None;
    loop {
        let ctx = |msg: String| format!("ply {}: {msg}\nstate:\n{state}", state.ply());
        state
            .validate()
            .map_err(|e| ctx(format!("a state reached by play fails validate: {e}")))?;
        let n = state.num_players();
        let value = state.value();
        let sum: f64 = value[..n].iter().sum();
        if value[..n].iter().any(|v| !v.is_finite()) {
            return Err(ctx(format!("value {:?} is not finite", &value[..n])));
        }
        if value_sum.is_some_and(|s| (s - sum).abs() > 1e-9) {
            return Err(ctx(format!("the value estimate's sum moved to {sum}")));
        }
        value_sum = Some(sum);
        let turn = state.turn();
        let in_script = next.len() > 0;
        if in_script {
            check_node(&state, &mut buf, &mut rng).map_err(ctx)?;
            if !turn.is_terminal() {
                check_determinize_with(&state, &mut rng, 1, Hidden::Unchecked).map_err(ctx)?;
            }
        } else {
            for p in 0..n {
                state.legal_actions(p, &mut buf);
                if turn.actors().contains(p) == buf.is_empty()
                    || buf.windows(2).any(|w| w[0] >= w[1])
                {
                    return Err(ctx(format!("seat {p}: bad legal actions {buf:?}")));
                }
            }
        }
        if !in_script && !saved {
            check_save_load(&state, &mut buf, &rng).map_err(ctx)?;
            saved = true;
        }
        if turn.is_terminal() {
            check_terminal(&state, &mut None).map_err(ctx)?;
            if value != state.returns() {
                return Err(ctx("the value estimate differs from the returns".into()));
            }
            return Ok(state.ply());
        }
        if state.ply() >= bound {
            return Err(ctx(format!("game not over after max_plies = {bound}")));
        }
        let mut joint: JointAction<G::Action> = [None; MAX_PLAYERS];
        for p in turn.actors().iter() {
            state.legal_actions(p, &mut buf);
            let k = match next.next() {
                Some(c) => c as usize % buf.len(),
                None => rng.random_range(0..buf.len()),
            };
            joint[p] = Some(buf[k]);
        }
        let applied = match turn {
            Turn::Player(p) => state.apply(p, joint[p].expect("the seat chose"), &mut rng),
            _ => state.apply_joint(&joint, &mut rng),
        };
        if let Err(e) = applied {
            return Err(format!(
                "ply {}: a legal action was refused: {e}\nstate:\n{state}",
                state.ply()
            ));
        }
    }
}

/// One test module per registered game (generated from the registry, so a new game gets
/// them by being registered): the information conformance ([`check_information`]) at
/// every player count, under the default parameters.
#[cfg(test)]
mod registry {
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __registry_tests {
        (() $($n:ident => $T:ty,)*) => {
            $(
                mod $n {
                    use $crate::game::GameState;

                    #[test]
                    fn information_conformance() {
                        type G = $T;
                        let (lo, hi) = G::PLAYERS;
                        for players in lo..=hi {
                            let rules = $crate::game::rules::<G>(&Default::default(), players)
                                .expect("default rules");
                            let rep = $crate::testing::check_information(rules, 7, 3, 5, 2)
                                .unwrap_or_else(|e| panic!("{players} players: {e}"));
                            assert!(rep.determinizations > 0 && rep.information_states > players);
                        }
                    }

                    /// A short soak ([`crate::soak`]): every player count and agent mix,
                    /// deep checks at sampled nodes, no failure.
                    #[test]
                    fn soak() {
                        type G = $T;
                        let opts = $crate::soak::SoakOptions {
                            games: 36,
                            seed: 5,
                            threads: Some(1),
                            check_every: 16,
                            save_every: 32,
                            ..Default::default()
                        };
                        let rep = $crate::soak::run::<G>(&opts, &Default::default()).unwrap();
                        assert_eq!(rep.failures, 0, "{:?}", rep.failure_list);
                        assert_eq!(rep.games, 36);
                    }

                    /// The golden playthrough and perft counts at every player count.
                    #[test]
                    fn golden() {
                        type G = $T;
                        let (lo, hi) = G::PLAYERS;
                        for players in lo..=hi {
                            let rules = $crate::game::rules::<G>(&Default::default(), players)
                                .expect("default rules");
                            let text = $crate::testing::golden::playthrough(rules, 2024);
                            let file = format!("{}/{players}p.txt", G::NAME);
                            $crate::testing::golden::check_golden(&file, &text)
                                .unwrap_or_else(|e| panic!("{e}"));
                        }
                    }
                }
            )*
        };
    }
    crate::with_game_registry!(__registry_tests!());
}
