//! The harness that chose the weights of the value estimate (module docs of [`super`],
//! "Value estimate"): one-step greedy play with weights `A` in one seat (rotating) against
//! weights `B` in the others, on the default rules. Not part of the normal test run:
//!
//! ```text
//! A=alpha=0.5 B=new P=2 N=200 cargo test --lib games::qax::tuning -- --ignored --nocapture
//! ```
//!
//! `A`/`B`: `random`, `old` (the first value estimate: shares at the current price, +2
//! per company owned, −1 per threatened stack, no trade option) or `new` followed by
//! `,key=value` overrides of [`WEIGHTS`] (`alpha`, `ob` own_base, `oi` own_income,
//! `threat`, `stuck`, `temp`, `option`); `P` players, `N` games (game `g` uses
//! `test_rng(1000 + g)`), `V` space-separated rule settings.
use super::value::{WEIGHTS, Weights};
use super::*;
use crate::game::{GameState, Seat, Turn, rules};
use crate::params::ParamSet;
use crate::rng::test_rng;
use rand::RngExt;

/// The first value estimate's weights.
fn old() -> Weights {
    Weights {
        alpha: 1.0,
        own_base: 2.0,
        own_income: 0.0,
        threat: 1.0,
        stuck: 0.0,
        temperature: 1.0 / 6.0,
        option: 0.0,
    }
}

/// One-step greedy on `w` (ties uniformly at random), or uniform play without weights.
fn pick(
    s: &State,
    p: Seat,
    w: Option<&Weights>,
    rng: &mut crate::rng::SimRng,
    buf: &mut Vec<Action>,
) -> Action {
    s.legal_actions(p, buf);
    let Some(w) = w else {
        return buf[rng.random_range(0..buf.len())];
    };
    if buf.len() == 1 {
        return buf[0];
    }
    let mut best = f64::NEG_INFINITY;
    let mut ch = buf[0];
    let mut ties = 0;
    for &a in buf.iter() {
        let mut t = s.clone();
        t.apply_unchecked(p, a, rng);
        let v = t.value_with(w)[p];
        if v > best {
            best = v;
            ch = a;
            ties = 1;
        } else if v == best {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                ch = a;
            }
        }
    }
    ch
}

/// Weights from the `A`/`B` syntax; `None` for `random`.
fn parse(spec: &str) -> Option<Weights> {
    if spec == "random" {
        return None;
    }
    if spec == "old" {
        return Some(old());
    }
    let mut w = WEIGHTS;
    for kv in spec.split(',').filter(|x| !x.is_empty() && *x != "new") {
        let (k, v) = kv.split_once('=').unwrap();
        let v: f64 = v.parse().unwrap();
        match k {
            "alpha" => w.alpha = v,
            "ob" => w.own_base = v,
            "oi" => w.own_income = v,
            "threat" => w.threat = v,
            "stuck" => w.stuck = v,
            "temp" => w.temperature = v,
            "option" => w.option = v,
            _ => panic!("{k}"),
        }
    }
    Some(w)
}

/// Plays the match and prints A's win share with a normal 95% interval.
#[test]
#[ignore]
fn tune() {
    let a = std::env::var("A").unwrap_or("new".into());
    let b = std::env::var("B").unwrap_or("old".into());
    let n: usize = std::env::var("N").unwrap_or("100".into()).parse().unwrap();
    let players: usize = std::env::var("P").unwrap_or("2".into()).parse().unwrap();
    let var = std::env::var("V").unwrap_or_default();
    let settings: Vec<&str> = var.split(' ').filter(|x| !x.is_empty()).collect();
    let params = Params::from_settings(&settings, "game qax").unwrap();
    let (wa, wb) = (parse(&a), parse(&b));
    let r = rules::<State>(&params, players).unwrap();
    let mut wins = 0.0;
    let mut plies = 0u64;
    let mut rounds = 0u64;
    let mut limit = 0;
    let mut buf = Vec::new();
    for g in 0..n {
        let mut rng = test_rng(1000 + g as u64);
        let mut s = State::new_game(r, &mut rng);
        // seat of agent A: rotates; the others are B.
        let seat_a = g % players;
        while let Turn::Player(p) = s.turn() {
            let w = if p == seat_a {
                wa.as_ref()
            } else {
                wb.as_ref()
            };
            let act = pick(&s, p, w, &mut rng, &mut buf);
            s.apply_unchecked(p, act, &mut rng);
        }
        let ret = s.returns();
        wins += ret[seat_a];
        plies += s.ply() as u64;
        rounds += s.round() as u64;
        if s.end_condition() == "round_limit" {
            limit += 1;
        }
    }
    let m = wins / n as f64;
    let se = (m * (1.0 - m) / n as f64).sqrt();
    println!(
        "A={a} B={b} P={players} N={n}: A win share {m:.3} ± {:.3} (fair {:.3}); mean plies {} rounds {} limit {limit}",
        1.96 * se,
        1.0 / players as f64,
        plies / n as u64,
        rounds / n as u64
    );
}
