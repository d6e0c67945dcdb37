//! Conformance of what a seat sees (Architecture v3, DESIGN.md §3 "Information"): the
//! observation tensor, the observation string, the information state and the legal-action
//! mask, for any game.
//!
//! [`check_information`] plays uniformly random games and, at every node and for every
//! seat, checks:
//! 1. *Shape*: the layout ([`GameState::observation_layout`](crate::game::GameState::observation_layout)) is non-empty with unique field names
//!    and non-empty fields; the tensor is written whole (every element is overwritten: the
//!    buffer is filled with NaN first) and every value is finite.
//! 2. *Invariance*: in every world [`GameState::determinize`](crate::game::GameState::determinize) produces for the seat, the tensor
//!    (bit for bit), the observation string and the information state string are the same
//!    (a tensor that reads a hidden card fails here).
//! 3. *Digest*: [`GameState::info_key`](crate::game::GameState::info_key) is a digest of [`GameState::information_state_string`](crate::game::GameState::information_state_string): one
//!    string never has two keys, and one key never stands for two strings.
//! 4. *Perfect recall* (when [`crate::game::GameType::perfect_recall`]): two nodes with the
//!    same information state string for a seat have the same history of that seat's
//!    observation strings (one per ply) and of its own actions.
//! 5. *Mask*: [`GameState::legal_actions_mask`](crate::game::GameState::legal_actions_mask) has one entry per action id and marks exactly the
//!    legal actions.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::game::{MAX_PLAYERS, Playable, RulesRef, play_ply, tensor_len, uniform_legal_action};
use crate::rng::{mix64, seed_for};

/// What [`check_information`] covered.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct InformationReport {
    /// Games played.
    pub games: usize,
    /// (node, seat) pairs checked.
    pub observations: usize,
    /// Determinized worlds compared.
    pub determinizations: usize,
    /// Distinct information states seen (over all seats).
    pub information_states: usize,
}

fn digest(text: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    text.hash(&mut h);
    mix64(h.finish())
}

/// Runs checks 1–5 on `games` random games under `rules`, determinizing at every
/// `determinize_every`-th node (`resamples` worlds per seat).
///
/// # Errors
/// The first violated contract, naming the game, the ply, the seat and the values.
pub fn check_information<G: Playable>(
    rules: RulesRef<G>,
    seed: u64,
    games: usize,
    determinize_every: usize,
    resamples: usize,
) -> Result<InformationReport, String> {
    let layout = G::observation_layout(&rules);
    let len = tensor_len(&layout);
    if layout.is_empty() || len == 0 {
        return Err(format!("{}: empty observation layout", G::NAME));
    }
    let mut names = std::collections::HashSet::new();
    for f in &layout {
        if f.len == 0 || !names.insert(f.name.as_str()) {
            return Err(format!(
                "{}: layout field '{}' is empty or repeated",
                G::NAME,
                f.name
            ));
        }
    }
    let n = rules.players();
    let ids = G::NUM_ACTION_IDS;
    let mut rep = InformationReport::default();
    let mut tensor = vec![0f32; len];
    let mut other = vec![0f32; len];
    let mut mask = vec![0u8; ids];
    let mut buf = Vec::new();
    // Per seat: information state digest -> (its key, the seat's history digest).
    let mut by_info: Vec<HashMap<u64, (u64, u64, String)>> = vec![HashMap::new(); n];
    let mut by_key: Vec<HashMap<u64, u64>> = vec![HashMap::new(); n];
    let mut node = 0usize;
    for g in 0..games {
        let mut rng = crate::rng::rng_from_seed(seed_for(seed, g as u64, 0));
        let mut state = G::new_game(rules, &mut rng);
        let mut history = [0u64; MAX_PLAYERS];
        loop {
            let at = |p: usize, what: &str| {
                format!("{} game {g} ply {} seat {p}: {what}", G::NAME, state.ply())
            };
            for (p, hist) in history.iter_mut().enumerate().take(n) {
                rep.observations += 1;
                let obs = state.observation_string(p);
                *hist = mix64(*hist ^ digest(&obs));
                tensor.fill(f32::NAN);
                state.observation_tensor(p, &mut tensor);
                if let Some(i) = tensor.iter().position(|v| !v.is_finite()) {
                    return Err(at(
                        p,
                        &format!("tensor[{i}] = {} (unwritten or not finite)", tensor[i]),
                    ));
                }
                let info = state.information_state_string(p);
                let (key, di) = (state.info_key(p), digest(&info));
                match by_info[p].get(&di) {
                    Some((k, _, _)) if *k != key => {
                        return Err(at(
                            p,
                            &format!("one information state, two keys {k:x} and {key:x}:\n{info}"),
                        ));
                    }
                    Some((_, h0, first)) if G::TYPE.perfect_recall && *h0 != *hist => {
                        return Err(at(
                            p,
                            &format!(
                                "perfect recall: two different observation histories share the information state\n{info}\n(first seen as\n{first})"
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => {
                        by_info[p].insert(di, (key, *hist, info.clone()));
                    }
                }
                if *by_key[p].entry(key).or_insert(di) != di {
                    return Err(at(
                        p,
                        &format!("key {key:x} stands for two information states, one is\n{info}"),
                    ));
                }
                state.legal_actions_mask(p, &mut buf, &mut mask);
                let marked = mask.iter().filter(|&&m| m == 1).count();
                state.legal_actions(p, &mut buf);
                if marked != buf.len() || buf.iter().any(|&a| mask[G::action_id(a)] != 1) {
                    return Err(at(
                        p,
                        "the legal-action mask differs from the legal actions",
                    ));
                }
                if node % determinize_every.max(1) == 0 {
                    for _ in 0..resamples {
                        rep.determinizations += 1;
                        let d = state.determinize(p, &mut rng);
                        other.fill(f32::NAN);
                        d.observation_tensor(p, &mut other);
                        if let Some(i) =
                            (0..len).find(|&i| tensor[i].to_bits() != other[i].to_bits())
                        {
                            let field = field_at(&layout, i);
                            return Err(at(
                                p,
                                &format!(
                                    "the tensor depends on what the seat cannot see: element {i} (field {field}) is {} here and {} in a determinized world",
                                    tensor[i], other[i]
                                ),
                            ));
                        }
                        if d.observation_string(p) != obs {
                            return Err(at(
                                p,
                                "the observation string differs in a determinized world",
                            ));
                        }
                        if d.information_state_string(p) != info {
                            return Err(at(
                                p,
                                "the information state differs in a determinized world",
                            ));
                        }
                    }
                }
            }
            node += 1;
            let played = play_ply(&mut state, &mut rng, |s, p, r| {
                uniform_legal_action(s, p, &mut buf, r)
            });
            match played {
                None => break,
                Some((_, joint)) => {
                    for (p, a) in joint.iter().enumerate() {
                        if let Some(a) = a {
                            history[p] = mix64(history[p] ^ (G::action_id(*a) as u64 + 1) << 20);
                        }
                    }
                }
            }
            if state.ply() > G::max_game_length(&rules) {
                return Err(format!("{} game {g}: longer than max_game_length", G::NAME));
            }
        }
        rep.games += 1;
    }
    rep.information_states = by_info.iter().map(HashMap::len).sum();
    Ok(rep)
}

/// The name of the layout field holding element `i`.
fn field_at(layout: &[crate::game::TensorField], mut i: usize) -> &str {
    for f in layout {
        if i < f.len {
            return &f.name;
        }
        i -= f.len;
    }
    "(past the end)"
}
