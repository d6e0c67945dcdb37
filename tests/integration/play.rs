//! `sim play` with human seats (scripted stdin), the external-agent protocol against the
//! shipped Python client and misbehaving ones, and `sim replay` against a tournament.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use super::common::{sim, text};

/// Runs `sim` with `input` on its stdin.
fn sim_with_input(args: &[&str], input: &str, cwd: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(cwd)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sim binary runs");
    // The game may end before reading everything: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

/// The prompts of a human session: each from its `--- seat` header to the `seat N>` line.
fn prompts(out: &str) -> Vec<String> {
    out.split("\n--- seat ")
        .skip(1)
        .map(|p| p.split("\nseat ").next().unwrap().to_string())
        .collect()
}

const DAXU_HUMAN: [&str; 8] = [
    "play",
    "--game",
    "daxu",
    "--agents",
    "human,random",
    "--seed",
    "3",
    "--index",
];

#[test]
fn a_human_plays_daxu_to_the_end_from_scripted_input() {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = DAXU_HUMAN.to_vec();
    args.push("0");
    let o = sim_with_input(&args, &"1\n".repeat(300), tmp.path());
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}\n{out}", text(&o.stderr));
    assert!(out.contains("end: deck_exhausted"), "{out}");
    assert!(out.contains("seat 0 (human): score"), "{out}");
    // The log names the receiver and the reputation steps, and breaks the score down.
    assert!(out.contains(" receives "), "{out}");
    assert!(out.contains("reputation"), "{out}");
    assert!(out.contains("seat 0: shops "), "{out}");
    // A human audience is not shown the whole state (the omniscient transcript's lines).
    assert!(!out.contains("round 1 ply 0 |"), "{out}");
    assert!(prompts(&out).len() >= 5);
}

#[test]
fn bad_input_is_refused_with_the_reason_and_asked_again() {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = DAXU_HUMAN.to_vec();
    args.push("0");
    let o = sim_with_input(&args, "9\nfoo\n\nhelp\nquit\n", tmp.path());
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        out.contains("there is no move 9: the moves are numbered 1 to 4"),
        "{out}"
    );
    assert!(out.contains("'foo' is not a legal move here"), "{out}");
    assert!(
        out.contains("undo   take back your previous decision"),
        "{out}"
    );
    assert!(out.contains("game abandoned at ply 0"), "{out}");
    assert_eq!(
        prompts(&out).len(),
        1,
        "one decision, asked until answered: {out}"
    );
}

#[test]
fn the_end_of_the_input_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = DAXU_HUMAN.to_vec();
    args.push("0");
    let o = sim_with_input(&args, "2\n", tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    let err = text(&o.stderr);
    assert!(
        err.contains("the input ended while seat 0 (human) was to move at ply"),
        "{err}"
    );
}

#[test]
fn undo_goes_back_to_the_previous_decision_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let mut args = DAXU_HUMAN.to_vec();
    args.push("1");
    // Decide, decide, undo (back to the second decision), decide the same, undo twice
    // (back to the first), then play on. (Moves 1 and 2 are legal at every Daxu decision.)
    let script = format!("2\n2\nundo\n2\nundo\nundo\n{}", "1\n".repeat(300));
    let o = sim_with_input(&args, &script, tmp.path());
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}\n{out}", text(&o.stderr));
    let p = prompts(&out);
    // p[0] first decision, p[1] second, p[2] third (undone), back at p[3] == p[1],
    // p[4] third again == p[2], undo -> p[5] == p[1], undo -> p[6] == p[0].
    assert_eq!(
        p[3], p[1],
        "undo returns to the position before the undone move"
    );
    assert_eq!(
        p[4], p[2],
        "the same decision after undo leads to the same position"
    );
    assert_eq!(p[5], p[1]);
    assert_eq!(p[6], p[0]);
    assert_ne!(p[0], p[1]);
    assert_eq!(
        out.matches("undone: back to the previous decision").count(),
        3
    );
    assert!(out.contains("end: deck_exhausted"), "{out}");
}

#[test]
fn other_seats_secret_moves_are_hidden_from_a_human() {
    // Dunhuang's setup keeps are secret; the plain log names none of another seat's moves.
    let tmp = tempfile::tempdir().unwrap();
    let o = sim_with_input(
        &[
            "play",
            "--game",
            "dunhuang",
            "--agents",
            "random,human",
            "--players",
            "2",
        ],
        &"1\n".repeat(3),
        tmp.path(),
    );
    let out = text(&o.stdout);
    assert!(out.contains("seat 0 moves"), "{out}");
    assert!(!out.contains("seat 0 plays keep"), "{out}");
}

/// The shipped client, by absolute path.
fn random_bot() -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/python/random_bot.py");
    format!("ext:cmd=python3 {}", p.display())
}

#[test]
fn the_python_client_plays_a_game_and_a_tournament() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = random_bot();
    let agents = format!("{bot},random");
    let o = sim(&["play", "--game", "daxu", "--agents", &agents], tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("end: deck_exhausted"));
    // A small tournament, with one and with two worker threads: the client draws from the
    // decision's seed, so both give the same games.
    let agents = format!("{bot},timeout_ms=20000,greedy");
    let mut files = Vec::new();
    for threads in ["1", "2"] {
        let out = tmp.path().join(format!("t{threads}"));
        let o = sim(
            &[
                "tournament",
                "--game",
                "daxu",
                "-n",
                "6",
                "--threads",
                threads,
                "--agents",
                &agents,
                "--out",
                out.to_str().unwrap(),
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
        assert_eq!(games.lines().count(), 1 + 6 * 2, "{games}");
        files.push(games);
    }
    assert_eq!(files[0], files[1]);
}

/// A client that greets and then answers every `act` with `answer` (Python code run per
/// request).
fn bad_bot(dir: &Path, name: &str, answer: &str) -> String {
    let file = dir.join(format!("{name}.py"));
    std::fs::write(
        &file,
        format!(
            "import sys, time\n\
             for line in sys.stdin:\n\
             \x20   word = line.split(' ')[0].strip()\n\
             \x20   if word == 'hello':\n\
             \x20       print('hello {{\"name\": \"{name}\"}}', flush=True)\n\
             \x20   elif word == 'act':\n\
             \x20       {answer}\n"
        ),
    )
    .unwrap();
    format!("ext:cmd=python3 {},timeout_ms=1500", file.display())
}

#[test]
fn misbehaving_clients_fail_with_the_program_game_and_move() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "garbage",
            "print('I will play the blue one', flush=True)",
            "printed garbage instead of an action: 'I will play the blue one'",
        ),
        (
            "illegal",
            "print('action 99', flush=True)",
            "answered action 99, which is not legal here; legal ids: 0 (give)",
        ),
        (
            "hangs",
            "time.sleep(60)",
            "did not send an action within 1500 ms (timeout_ms)",
        ),
        (
            "exits",
            "sys.exit(3)",
            "exited (exit status: 3) before sending an action",
        ),
    ];
    for (name, answer, problem) in cases {
        let spec = bad_bot(tmp.path(), name, answer);
        let agents = format!("random,{spec}");
        let o = sim(
            &[
                "play", "--game", "daxu", "--index", "4", "--agents", &agents,
            ],
            tmp.path(),
        );
        assert_eq!(o.status.code(), Some(1), "{name}");
        let err = text(&o.stderr);
        let program = format!(
            "external agent `python3 {}",
            tmp.path().join(name).display()
        );
        assert!(err.contains(&program), "{name}: {err}");
        assert!(err.contains("(game 4, seat "), "{name}: {err}");
        assert!(err.contains(", ply 1): "), "{name}: {err}");
        assert!(err.contains(problem), "{name}: {err}");
    }
    // Inside a tournament the error names the game too.
    let spec = bad_bot(tmp.path(), "illegal", "print('action 99', flush=True)");
    let agents = format!("random,{spec}");
    let out = tmp.path().join("t");
    let o = sim(
        &[
            "tournament",
            "--game",
            "daxu",
            "-n",
            "4",
            "--threads",
            "1",
            "--agents",
            &agents,
            "--out",
            out.to_str().unwrap(),
            "--allow-failures",
            "--ext-failures",
            "0",
        ],
        tmp.path(),
    );
    // The runner isolates the failing games: the run completes, and errors.csv names the
    // game, the seat, the ply and what the program did.
    assert!(o.status.success(), "{}", text(&o.stderr));
    let errors = std::fs::read_to_string(out.join("errors.csv")).unwrap();
    assert!(
        errors.contains("(game 0, seat 1, ply 1): answered action 99"),
        "{errors}"
    );
}

#[test]
fn replay_reproduces_a_tournament_game() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    let o = sim(
        &[
            "tournament",
            "--game",
            "daxu",
            "-n",
            "6",
            "--seed",
            "5",
            "--agents",
            "greedy,random",
            "--variant",
            "reputation_points=table_b",
            "--out",
            out.to_str().unwrap(),
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    for index in ["3", "4"] {
        let o = sim(
            &[
                "replay",
                "--game",
                "daxu",
                "--seed",
                "5",
                "--index",
                index,
                "--agents",
                "greedy,random",
                "--variant",
                "reputation_points=table_b",
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        let replay = text(&o.stdout);
        assert!(replay.contains("[seat 0 sees]") && replay.contains("[seat 1 sees]"));
        for row in games
            .lines()
            .filter(|l| l.starts_with(&format!("{index},")))
        {
            let f: Vec<&str> = row.split(',').collect();
            let (seat, agent, score, rank) = (f[3], f[4], f[5], f[6]);
            let line = replay
                .lines()
                .find(|l| l.starts_with(&format!("seat {seat} (")) && l.contains("): score"))
                .unwrap();
            assert!(line.starts_with(&format!("seat {seat} ({agent}")), "{line}");
            assert!(
                line.contains(&format!("): score {score}, rank {rank},")),
                "games.csv row {row} vs replay {line}"
            );
        }
    }
}

#[test]
fn replay_reports_a_panicking_agent_with_the_ply() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = bad_bot(tmp.path(), "exits", "sys.exit(3)");
    let agents = format!("{spec},random");
    let o = sim(
        &[
            "replay", "--game", "daxu", "--seed", "1", "--index", "0", "--agents", &agents,
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("game 0, ply 1: the agent of seat "), "{err}");
    assert!(err.contains("panicked: external agent"), "{err}");
}

#[test]
fn the_omniscient_daimyo_transcript_names_everything_and_shows_every_hand() {
    let tmp = tempfile::tempdir().unwrap();
    let o = sim(
        &[
            "play",
            "--game",
            "daimyo",
            "--agents",
            "random",
            "--players",
            "3",
            "--seed",
            "3",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    // The state after setup and after every ply: each seat's hand by Hero name (no seat
    // is "you" in a transcript), islands and the Hero market in words.
    let setup = out.split("\nply 1,").next().unwrap();
    for seat in 0..3 {
        assert!(setup.contains(&format!("seat {seat} (")), "{setup}");
    }
    assert_eq!(setup.matches("\n  hand: ").count(), 3, "{setup}");
    assert!(setup.contains("(strength "), "{setup}");
    assert!(
        !setup.contains("(you)") && !setup.contains("your hand"),
        "{setup}"
    );
    assert!(out.contains("Hero market: 1) "), "{out}");
    assert!(out.contains("the blue island: sites [1 "), "{out}");
    // Not the raw dump of the rules engine (bit sets, 255 for an empty site).
    assert!(
        !out.contains("hand 0x") && !out.contains("gov [255"),
        "{out}"
    );
    let plies = out.matches("\nply ").count();
    assert!(plies > 50, "{plies} plies");
    assert!(
        out.matches("\n  hand: ").count() >= 3 * plies,
        "a state after every ply"
    );
}

/// `sim play --start FILE` takes the game from the file: `--game` may be left out, and a
/// file that is not a position exits 2 naming it.
#[test]
fn play_start_takes_the_game_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.json");
    let f = file.to_str().unwrap();
    let o = sim(
        &[
            "play",
            "--game",
            "daxu",
            "--agents",
            "random",
            "--save-at",
            "2",
            f,
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = sim(&["play", "--start", f, "--agents", "random"], dir.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("start: position"),
        "{}",
        text(&o.stdout)
    );
    std::fs::write(&file, "not json").unwrap();
    let o = sim(&["play", "--start", f, "--agents", "random"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("p.json"), "{}", text(&o.stderr));
    let o = sim(&["play", "--agents", "random"], dir.path());
    assert_eq!(o.status.code(), Some(2), "neither --game nor --start");
}
