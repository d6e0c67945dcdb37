//! External agents (issue 26, items 6 and 8): a reply is matched to its request, so a
//! program that answers twice fails the game in which it did; the hello timeout suggests
//! flushing stdout; the `errors.csv` ply is the ply the message names; a program that fails
//! K games in a row stops the run with its last error.

use std::path::Path;

use crate::common::{sim, text};

/// A protocol-2 client whose answer to an `act` is the Python statement `answer`, run with
/// `r` (the request), `game` (the index of the current game) and `legal` (its first legal
/// id) in scope; it acknowledges every result.
fn bot(dir: &Path, name: &str, answer: &str) -> String {
    let file = dir.join(format!("{name}.py"));
    std::fs::write(
        &file,
        format!(
            "import json, sys, time\n\
             game = None\n\
             def say(s):\n\
             \x20   sys.stdout.write(s + '\\n'); sys.stdout.flush()\n\
             for line in sys.stdin:\n\
             \x20   word, _, payload = line.strip().partition(' ')\n\
             \x20   if word == 'hello':\n\
             \x20       say('hello {{\"name\": \"{name}\", \"protocol\": 2}}')\n\
             \x20   elif word == 'game':\n\
             \x20       game = json.loads(payload)['index']\n\
             \x20   elif word == 'act':\n\
             \x20       r = json.loads(payload)\n\
             \x20       legal = r['legal'][0]['id']\n\
             \x20       {answer}\n\
             \x20   elif word == 'result':\n\
             \x20       say('ready %d' % json.loads(payload)['request'])\n"
        ),
    )
    .unwrap();
    format!("ext:cmd=python3 {},timeout_ms=5000", file.display())
}

fn tournament(
    dir: &Path,
    agents: &str,
    n: &str,
    out: &str,
    extra: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "tournament",
        "--game",
        "daxu",
        "-n",
        n,
        "--threads",
        "1",
        "--agents",
        agents,
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    sim(&args, dir)
}

/// The `errors.csv` rows as (game, ply, message).
fn errors(dir: &Path) -> Vec<(u64, u64, String)> {
    let mut r = csv::Reader::from_path(dir.join("errors.csv")).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (
                rec[0].parse().unwrap(),
                rec[4].parse().unwrap(),
                rec[5].to_string(),
            )
        })
        .collect()
}

#[test]
fn a_program_that_answers_twice_fails_the_game_in_which_it_did() {
    let tmp = tempfile::tempdir().unwrap();
    // Game 2 only: every answer is sent twice (the second time after the first was read).
    let spec = bot(
        tmp.path(),
        "twice",
        "say('action %d %d' % (legal, r['request']))\n\
         \x20       if game == 2: time.sleep(0.05); say('action %d %d' % (legal, r['request']))",
    );
    let agents = format!("{spec},random");
    let o = tournament(tmp.path(), &agents, "5", "t", &["--allow-failures"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = errors(&tmp.path().join("t"));
    assert_eq!(rows.len(), 1, "{rows:?}");
    let (game, ply, message) = &rows[0];
    assert_eq!(*game, 2, "{message}");
    assert!(
        message.contains("each request gets one answer"),
        "{message}"
    );
    assert!(
        message.contains("(game 2, seat ") && message.contains(&format!(", ply {ply}): ")),
        "{message}"
    );
    // The replay of the blamed game fails the same way.
    let o = sim(
        &[
            "play", "--game", "daxu", "--seed", "0", "--index", "2", "--agents", &agents,
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("each request gets one answer"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn the_errors_ply_is_the_messages_and_k_failures_in_a_row_stop_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    // Illegal from ply 3 on, in even games only: failures that are not in a row.
    let spec = bot(
        tmp.path(),
        "illegal",
        "say('action %d %d' % (99 if r['ply'] >= 3 and game % 2 == 0 else legal, r['request']))",
    );
    let agents = format!("{spec},random");
    let o = tournament(tmp.path(), &agents, "6", "t", &["--allow-failures"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = errors(&tmp.path().join("t"));
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 2, 4]);
    for (game, ply, message) in &rows {
        assert!(*ply >= 3, "{message}");
        assert!(
            message.contains(&format!("(game {game}, seat "))
                && message.contains(&format!(", ply {ply}): answered action 99")),
            "{message}"
        );
    }
    // A program that fails every game: the run stops after the third, with its error.
    let spec = bot(tmp.path(), "exits", "sys.exit(3)");
    let agents = format!("{spec},random");
    let t = std::time::Instant::now();
    let o = tournament(tmp.path(), &agents, "100", "u", &[]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("an external agent failed 3 games in a row (games 0..=2); the run stops"),
        "{e}"
    );
    assert!(
        e.contains("exited (exit status: 3) before sending an action"),
        "{e}"
    );
    assert!(t.elapsed() < std::time::Duration::from_secs(60));
    // --ext-failures 0 plays every game.
    let o = tournament(tmp.path(), &agents, "5", "v", &["--ext-failures", "0"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(errors(&tmp.path().join("v")).len(), 5);
}

#[test]
fn a_program_that_never_greets_is_told_to_flush_and_protocol_1_programs_still_play() {
    let tmp = tempfile::tempdir().unwrap();
    // Never greets (as a program that writes its hello without flushing looks).
    let silent = tmp.path().join("silent.py");
    std::fs::write(&silent, "import time\ntime.sleep(60)\n").unwrap();
    let agents = format!("ext:cmd=python3 {},timeout_ms=500,random", silent.display());
    let o = sim(&["play", "--game", "daxu", "--agents", &agents], tmp.path());
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("did not send its hello within 10000 ms"), "{e}");
    assert!(e.contains("flushes stdout"), "{e}");
    // A protocol-1 client (no protocol in its hello, `action <id>` alone, no `ready`).
    let v1 = tmp.path().join("v1.py");
    std::fs::write(
        &v1,
        "import json, random, sys\n\
         for line in sys.stdin:\n\
         \x20   keyword, _, payload = line.strip().partition(' ')\n\
         \x20   if keyword == 'hello':\n\
         \x20       print('hello {\"name\": \"tiny\"}', flush=True)\n\
         \x20   elif keyword == 'act':\n\
         \x20       request = json.loads(payload)\n\
         \x20       print('action', random.Random(request['seed']).choice(request['legal'])['id'], flush=True)\n\
         \x20   elif keyword == 'quit':\n\
         \x20       break\n",
    )
    .unwrap();
    let agents = format!("ext:cmd=python3 {},greedy", v1.display());
    let o = tournament(tmp.path(), &agents, "4", "t", &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}
