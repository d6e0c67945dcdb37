//! The harness that chose the weights of Q.A.X.'s value estimate (module docs of
//! `tabletop_sim::games::qax`, "Value estimate"): one-step greedy play with weights `A` in
//! one seat (rotating) against weights `B` in every other seat, on the given rules.
//!
//! ```text
//! cargo run --release --example qax_tuning -- A B [players] [games] [setting ...]
//! cargo run --release --example qax_tuning -- alpha=0.5 new 2 200
//! ```
//!
//! `A`/`B`: `random` (uniform play), `old` (the first value estimate: shares at the current
//! price, +2 per company owned, −1 per threatened stack, no trade option) or `new`
//! (the shipped [`WEIGHTS`]), each optionally followed by `,key=value` overrides (`alpha`,
//! `ob` own_base, `oi` own_income, `threat`, `stuck`, `temp`, `option`); a bare
//! `key=value,...` list overrides `new`. Players default to 2, games to 100; game `g` uses
//! `test_rng(1000 + g)`; the settings are rule variants (`key=value`). Prints A's win share
//! with a normal-approximation 95% interval.

use std::process::ExitCode;

use rand::RngExt;
use tabletop_sim::game::{GameState, Seat, Turn, rules};
use tabletop_sim::games::qax::{Action, Params, State, WEIGHTS, Weights};
use tabletop_sim::params::ParamSet;
use tabletop_sim::rng::{SimRng, test_rng};

/// The first value estimate's weights.
const OLD: Weights = Weights {
    alpha: 1.0,
    own_base: 2.0,
    own_income: 0.0,
    threat: 1.0,
    stuck: 0.0,
    temperature: 1.0 / 6.0,
    option: 0.0,
};

/// One-step greedy on `w` (ties uniformly at random), or uniform play without weights.
fn pick(
    s: &State,
    p: Seat,
    w: Option<&Weights>,
    rng: &mut SimRng,
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
    let mut choice = buf[0];
    let mut ties = 0;
    for &a in buf.iter() {
        let mut t = s.clone();
        t.apply_unchecked(p, a, rng);
        let v = t.value_with(w)[p];
        if v > best {
            best = v;
            choice = a;
            ties = 1;
        } else if v == best {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                choice = a;
            }
        }
    }
    choice
}

/// Weights from the `A`/`B` syntax; `Ok(None)` for `random`.
fn parse(spec: &str) -> Result<Option<Weights>, String> {
    let (mut w, rest) = match spec.split_once(',').map_or((spec, ""), |(h, t)| (h, t)) {
        ("random", "") => return Ok(None),
        ("old", rest) => (OLD, rest),
        ("new", rest) => (WEIGHTS, rest),
        _ => (WEIGHTS, spec),
    };
    for kv in rest.split(',').filter(|x| !x.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("{kv:?} is not key=value"))?;
        let v: f64 = v
            .parse()
            .map_err(|_| format!("{v:?} is not a number (key {k})"))?;
        let slot = match k {
            "alpha" => &mut w.alpha,
            "ob" => &mut w.own_base,
            "oi" => &mut w.own_income,
            "threat" => &mut w.threat,
            "stuck" => &mut w.stuck,
            "temp" => &mut w.temperature,
            "option" => &mut w.option,
            _ => {
                return Err(format!(
                    "unknown weight {k:?}; valid: alpha, ob, oi, threat, stuck, temp, option"
                ));
            }
        };
        *slot = v;
    }
    Ok(Some(w))
}

fn run(args: &[String]) -> Result<(), String> {
    let a = args.first().map_or("new", String::as_str);
    let b = args.get(1).map_or("old", String::as_str);
    let players: usize = match args.get(2) {
        Some(x) => x
            .parse()
            .map_err(|_| format!("players {x:?} is not a number"))?,
        None => 2,
    };
    let n: usize = match args.get(3) {
        Some(x) => x
            .parse()
            .map_err(|_| format!("games {x:?} is not a number"))?,
        None => 100,
    };
    let settings: Vec<&str> = args.iter().skip(4).map(String::as_str).collect();
    let params = Params::from_settings(&settings, "game qax").map_err(|e| e.to_string())?;
    let (wa, wb) = (parse(a)?, parse(b)?);
    let r = rules::<State>(&params, players).map_err(|e| e.to_string())?;
    let (mut wins, mut plies, mut rounds, mut limit) = (0.0, 0u64, 0u64, 0);
    let mut buf = Vec::new();
    for g in 0..n {
        let mut rng = test_rng(1000 + g as u64);
        let mut s = State::new_game(r, &mut rng);
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
        wins += s.returns()[seat_a];
        plies += s.ply() as u64;
        rounds += u64::from(s.round());
        if s.end_condition() == "round_limit" {
            limit += 1;
        }
    }
    let m = wins / n as f64;
    let se = (m * (1.0 - m) / n as f64).sqrt();
    println!(
        "A={a} B={b} P={players} N={n}: A win share {m:.3} ± {:.3} (fair {:.3}); mean plies {} rounds {} round limit {limit}",
        1.96 * se,
        1.0 / players as f64,
        plies / n as u64,
        rounds / n as u64
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
