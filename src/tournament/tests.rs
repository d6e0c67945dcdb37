//! Tests of the tournament runner end to end: determinism across thread counts, seats
//! and statistics adding up, config reruns, bad input, resume after interruption,
//! failing games and replay.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::games::race::Race;
use crate::output::OutputError;
use crate::params::ParamSet;
use driver::data_hashes;

fn settings(dir: &Path, agents: &[&str], games: u64, threads: usize) -> Settings {
    Settings {
        game: "race".into(),
        players: Some(3),
        variant: vec!["rounds=5".into()],
        agents: agents.iter().map(|s| s.to_string()).collect(),
        games,
        seed: 42,
        threads: Some(threads),
        out: dir.to_path_buf(),
        progress: false,
        design: Design::default(),
    }
}

const FILES: [&str; 11] = [
    "games.csv",
    "agents.csv",
    "variants.csv",
    "errors.csv",
    "summary.csv",
    "seats.csv",
    "agent_seats.csv",
    "seat_test.csv",
    "metrics.csv",
    "ends.csv",
    "config.toml",
];

fn read_all(dir: &Path) -> Vec<Vec<u8>> {
    FILES
        .iter()
        .map(|f| fs::read(dir.join(f)).unwrap())
        .collect()
}

#[test]
fn outputs_do_not_depend_on_the_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    // More than one chunk, not a multiple of it, so chunk boundaries are exercised.
    let n = run::CHUNK * 2 + 37;
    let mut outs = Vec::new();
    for threads in [1, 2, 3] {
        let dir = tmp.path().join("out");
        let rep = run_game::<Race>(&settings(&dir, &["greedy", "random"], n, threads)).unwrap();
        assert_eq!(rep.threads, threads);
        assert_eq!(rep.files.len(), FILES.len());
        assert!(rep.files.last().unwrap().ends_with("config.toml"));
        outs.push(read_all(&dir));
        fs::remove_dir_all(&dir).unwrap();
    }
    assert!(outs[0] == outs[1] && outs[1] == outs[2]);
    let games = String::from_utf8(outs[0][0].clone()).unwrap();
    assert_eq!(games.lines().count() as u64, 1 + 3 * n);
    // Rows are in game order.
    let idx: Vec<u64> = games
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert!(idx.windows(2).all(|w| w[0] <= w[1]) && idx[idx.len() - 1] == n - 1);
}

#[test]
fn a_different_seed_gives_different_games() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = settings(tmp.path(), &["random"], 50, 1);
    run_game::<Race>(&s).unwrap();
    let a = fs::read(tmp.path().join("games.csv")).unwrap();
    s.seed = 43;
    // Another configuration in the same directory: refused, then replaced on request.
    let e = run_game::<Race>(&s).unwrap_err();
    assert!(
        e.is_bad_input() && e.to_string().contains("seed: 42 in the directory, 43 now"),
        "{e}"
    );
    let overwrite = RunOptions {
        overwrite: true,
        ..RunOptions::default()
    };
    run_game_with::<Race>(&s, &overwrite).unwrap();
    let b = fs::read(tmp.path().join("games.csv")).unwrap();
    assert_ne!(a, b);
}

#[test]
fn seats_are_balanced_and_stats_add_up() {
    let tmp = tempfile::tempdir().unwrap();
    // k = 2 agents at 3 seats: the lineup cycles within a game.
    let rep = run_game::<Race>(&settings(tmp.path(), &["greedy", "random"], 600, 2)).unwrap();
    let st = &rep.stats;
    assert_eq!(st.games, 600);
    for a in 0..2 {
        for s in 0..3 {
            assert_eq!(st.agent_seat(a, s).games, 300, "agent {a} seat {s}");
        }
    }
    let (by_agent, by_seat) = (st.by_agent(), st.by_seat());
    for t in &by_agent {
        // Both agents sit at every game, holding 3 seats between them.
        assert_eq!((t.games, t.wins + t.draws + t.losses()), (600, 600));
        assert_eq!(t.expected_win_rate(3), 0.5);
    }
    assert_eq!(by_agent[0].seats.games + by_agent[1].seats.games, 1800);
    for t in &by_seat {
        assert_eq!(t.wins + t.draws + t.losses(), t.games);
    }
    // One sole winner or a shared first place per game.
    let wins: u64 = by_seat.iter().map(|t| t.wins).sum();
    assert!(wins <= 600 && wins > 300);
    // Greedy (maximises its lead) beats random in this race.
    assert!(by_agent[0].win_rate() > by_agent[1].win_rate() + 0.1);
    // Seat 0 leads first and gets a bonus move more often than seat 2 over 5 rounds.
    assert!(by_seat[0].score.mean() > by_seat[2].score.mean());
    // games.csv agrees with the statistics: an agent wins a game when it alone holds
    // rank 1 (through one or both of its seats).
    let text = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
    let mut first = vec![[false; 2]; 600];
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        if f[6] == "1" {
            first[f[0].parse::<usize>().unwrap()][usize::from(f[4] == "random")] = true;
        }
    }
    for (a, t) in by_agent.iter().enumerate() {
        let wins = first.iter().filter(|f| f[a] && !f[1 - a]).count() as u64;
        let draws = first.iter().filter(|f| f[0] && f[1]).count() as u64;
        assert_eq!((t.wins, t.draws), (wins, draws), "agent {a}");
    }
}

#[test]
fn config_reruns_the_same_tournament() {
    let tmp = tempfile::tempdir().unwrap();
    let rep = run_game::<Race>(&settings(
        tmp.path(),
        &["greedy:samples=2", "random"],
        10,
        1,
    ))
    .unwrap();
    let text = fs::read_to_string(tmp.path().join("config.toml")).unwrap();
    let back: ConfigFile = toml::from_str(&text).unwrap();
    assert_eq!(back, rep.config);
    assert_eq!(
        back.tournament.variant,
        ["rounds=5", "claimed_bound=0", "duel_bonus=false"]
    );
    assert_eq!(back.tournament.agents, ["greedy:samples=2", "random"]);
    assert!(
        back.command.starts_with(
            "sim tournament --game race --players 3 --variant rounds=5 \
             --variant claimed_bound=0 --variant duel_bonus=false --agents greedy:samples=2,random -n 10 --seed 42 --out "
        ),
        "{}",
        back.command
    );
    // The command's agent list splits back into the same specs.
    assert_eq!(
        split_agent_list(&back.tournament.agents.join(",")),
        back.tournament.agents
    );
    assert!(back.reproducible, "{}", back.reproducibility);
    assert!(text.contains("# Written by tabletop-sim") && text.contains("Rerun with"));
    // The labels of games.csv resolve through agents.csv and variants.csv, which agree
    // with config.toml.
    assert_eq!(back.labels.variant, "v87c36dfd");
    assert_eq!(back.labels.agent_labels(), ["greedy", "random"]);
    let agents = fs::read_to_string(tmp.path().join("agents.csv")).unwrap();
    assert_eq!(
        agents,
        "agent,spec\ngreedy,greedy:samples=2\nrandom,random\n"
    );
    let variants = fs::read_to_string(tmp.path().join("variants.csv")).unwrap();
    assert_eq!(
        variants,
        "variant,parameter,value,default\n\
         v87c36dfd,rounds,5,4\n\
         v87c36dfd,claimed_bound,0,0\n\
         v87c36dfd,duel_bonus,false,false\n"
    );
    let games = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
    for row in games.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[2], "v87c36dfd", "{row}");
        assert!(["greedy", "random"].contains(&f[4]), "{row}");
    }
}

#[test]
fn a_time_budget_makes_a_run_not_reproducible() {
    assert_eq!(
        not_reproducible_because(&["greedy:samples=4", "random", "mcts:iters=5,time_ms=0"]),
        None
    );
    let why = not_reproducible_because(&[
        "mcts:iters=5,time_ms=20,c=1",
        "random",
        "ismcts:iters=5,time_ms=7",
    ])
    .unwrap();
    assert!(
        why.contains("mcts (time_ms=20), ismcts (time_ms=7)") && why.contains("not reproducible"),
        "{why}"
    );
    let (ok, text) = reproducibility(&["mcts:time_ms=1"]);
    assert!(!ok && text.contains("time_ms=1"), "{text}");
}

#[test]
fn config_records_data_file_hashes_only_when_there_are_some() {
    crate::param_set! {
        /// A variant with a data file.
        struct WithData {
            /// Cards.
            cards: crate::params::DataFile = crate::params::DataFile::BUILTIN,
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let rep = run_game::<Race>(&settings(tmp.path(), &["random"], 2, 1)).unwrap();
    assert!(rep.config.tournament.data_hashes.is_empty());
    let text = fs::read_to_string(tmp.path().join("config.toml")).unwrap();
    assert!(!text.contains("data_hashes"), "{text}");
    assert!(data_hashes(&WithData::default()).is_empty());

    let file = tmp.path().join("cards.toml");
    fs::write(&file, "a = 1\n").unwrap();
    let p = WithData::from_settings(&[format!("cards={}", file.display())], "t").unwrap();
    let sha = "cb78bd8a17f7b751fe0d4663366dcbc257204033ef7ddd64b1f2969573b5b2e2";
    let mut config = rep.config;
    config.tournament.data_hashes = data_hashes(&p);
    assert_eq!(
        config.tournament.data_hashes,
        BTreeMap::from([("cards".to_string(), sha.to_string())])
    );
    let text = toml::to_string(&config).unwrap();
    assert!(
        text.contains(&format!("[tournament.data_hashes]\ncards = \"{sha}\"")),
        "{text}"
    );
    assert_eq!(toml::from_str::<ConfigFile>(&text).unwrap(), config);
}

#[test]
fn bad_input_is_rejected_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("never");
    let cases: Vec<(Settings, &str)> = vec![
        (settings(&dir, &["random"], 0, 1), "at least 1"),
        (settings(&dir, &["random"], 5, 0), "threads"),
        (settings(&dir, &["random", "minimax"], 5, 1), "minimax"),
        (
            Settings {
                variant: vec!["laps=3".into()],
                ..settings(&dir, &["random"], 5, 1)
            },
            "rounds (default 4)",
        ),
        (
            Settings {
                variant: vec!["rounds=x".into()],
                ..settings(&dir, &["random"], 5, 1)
            },
            "'x'",
        ),
        (
            Settings {
                players: Some(5),
                ..settings(&dir, &["random"], 5, 1)
            },
            "2 to 4 players, got 5",
        ),
        (
            // A variant that exists only at 2 players, asked for at 3.
            Settings {
                variant: vec!["duel_bonus=true".into()],
                ..settings(&dir, &["random"], 5, 1)
            },
            "duel_bonus=true exists only at 2 players, got 3",
        ),
    ];
    for (s, needle) in cases {
        let e = run_game::<Race>(&s).unwrap_err();
        assert!(e.is_bad_input(), "{e}");
        assert!(e.to_string().contains(needle), "{e} lacks {needle}");
    }
    assert!(!dir.exists());
    let e = run(&Settings {
        game: "chess".into(),
        ..settings(&dir, &["random"], 5, 1)
    })
    .unwrap_err();
    assert!(
        e.is_bad_input() && e.to_string().contains("valid games: daimyo, daxu"),
        "{e}"
    );
}

#[test]
fn game_metrics_are_games_csv_columns_with_their_documented_names() {
    use crate::game::Measured;
    use crate::games::daxu;
    let tmp = tempfile::tempdir().unwrap();
    let s = Settings {
        game: "daxu".into(),
        players: None,
        variant: vec![],
        agents: vec!["random".into()],
        games: 20,
        seed: 3,
        threads: Some(1),
        out: tmp.path().to_path_buf(),
        progress: false,
        design: Design::default(),
    };
    run(&s).unwrap();
    let text = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let names: Vec<&str> = daxu::State::SEAT_METRICS
        .iter()
        .chain(daxu::State::GAME_METRICS)
        .map(|c| c.name)
        .collect();
    assert_eq!(&header[records::GAMES_HEADER.len()..], names.as_slice());
    assert!(names.starts_with(&["give", "take", "cooperate", "undermine"]));
    // Documented in the column dictionary.
    let dict = include_str!("../../results/README.md");
    for n in &names {
        assert!(dict.contains(&format!("`{n}`")), "{n} undocumented");
    }
    // The two seats of a game reveal the same number of action cards.
    for game in text.lines().skip(1).collect::<Vec<_>>().chunks(2) {
        let cards = |row: &str| -> i64 {
            row.split(',')
                .skip(records::GAMES_HEADER.len())
                .take(4)
                .map(|x| x.parse::<i64>().unwrap())
                .sum()
        };
        assert_eq!(cards(game[0]), cards(game[1]));
    }
}

#[test]
fn an_unwritable_directory_is_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("plain-file");
    fs::write(&file, "x").unwrap();
    let e = run_game::<Race>(&settings(&file.join("sub"), &["random"], 5, 1)).unwrap_err();
    assert!(
        matches!(e, TournamentError::Output(OutputError::Dir { .. })),
        "{e}"
    );
    assert!(e.is_bad_input());
}

/// Every file of a finished run, by name (manifest.json aside: it records the pid).
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() != "manifest.json")
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// Asserts two snapshots are equal, naming the files that differ (not dumping bytes).
fn assert_same_files(got: &[(String, Vec<u8>)], want: &[(String, Vec<u8>)], what: &str) {
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(got), names(want), "{what}: file names");
    let differ: Vec<&String> = got
        .iter()
        .zip(want)
        .filter(|(a, b)| a.1 != b.1)
        .map(|(a, _)| &a.0)
        .collect();
    assert!(differ.is_empty(), "{what}: these files differ: {differ:?}");
}

#[test]
fn a_paired_sequential_run_with_decisiveness_interrupted_mid_deal_resumes_to_byte_identical_files()
{
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    // 3 seats, 2 agents: deals of 6 games, which straddle the runner's blocks of 32, so
    // checkpoints fall inside deals. The test is looked at every 960 games (30 blocks)
    // and stops at a check point before n.
    let n = 6 * 700;
    let s = |threads| Settings {
        players: Some(3),
        design: Design {
            paired: true,
            until_significant: Some("every=960".parse().unwrap()),
            decisiveness: true,
        },
        ..settings(&dir, &["greedy", "random"], n, threads)
    };
    let rep = run_game::<Race>(&s(2)).unwrap();
    let expected = snapshot(&dir);
    let q = rep.config.sequential.clone().unwrap();
    assert!(q.games % 960 == 0 && q.games < n, "{q:?}");
    let p = rep.stats.paired.as_ref().unwrap();
    assert_eq!((p.deals(), p.deal_len()), (q.games / 6, 6));
    for f in ["paired.csv", "decisiveness.csv", "lead_changes.csv"] {
        assert!(expected.iter().any(|(g, _)| g == f), "{f}");
    }
    assert_eq!(rep.stats.decisiveness.as_ref().unwrap().games(), q.games);
    fs::remove_dir_all(&dir).unwrap();
    static STOP: AtomicBool = AtomicBool::new(false);
    for threads in [1, 2] {
        let opts = RunOptions {
            stop: Some(&STOP),
            checkpoint_every: Some(1),
            ..RunOptions::default()
        };
        STOP.store(true, std::sync::atomic::Ordering::SeqCst);
        let e = run_game_with::<Race>(&s(threads), &opts).unwrap_err();
        assert!(matches!(e, TournamentError::Interrupted { .. }), "{e}");
        STOP.store(false, std::sync::atomic::Ordering::SeqCst);
        // Stopped again after a few checkpoints (each mid-deal: 32 is not a multiple
        // of 6), then resumed to the end.
        let mut resume = RunOptions {
            resume: true,
            throttle_ms: 1,
            ..opts
        };
        let watcher = {
            let cp = dir.join(checkpoint::FILE);
            std::thread::spawn(move || {
                let mut seen = 0;
                let mut last = fs::read(&cp).unwrap_or_default();
                while seen < 3 {
                    let now = fs::read(&cp).unwrap_or_default();
                    if now != last {
                        seen += 1;
                        last = now;
                    }
                    std::thread::yield_now();
                }
                STOP.store(true, std::sync::atomic::Ordering::SeqCst);
            })
        };
        let e = run_game_with::<Race>(&s(threads), &resume).unwrap_err();
        watcher.join().unwrap();
        assert!(matches!(e, TournamentError::Interrupted { .. }), "{e}");
        STOP.store(false, std::sync::atomic::Ordering::SeqCst);
        resume.throttle_ms = 0;
        let rep = run_game_with::<Race>(&s(threads), &resume).unwrap();
        assert_eq!(rep.config.sequential.as_ref().unwrap(), &q);
        assert_same_files(&snapshot(&dir), &expected, &format!("{threads} threads"));
        fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn an_interrupted_run_resumes_to_byte_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    // One path for every run: config.toml records it.
    let whole = tmp.path().join("run");
    let n = run::CHUNK + 300;
    let s = |dir: &Path, threads| Settings {
        players: Some(2),
        ..settings(dir, &["greedy", "random"], n, threads)
    };
    run_game::<Race>(&s(&whole, 2)).unwrap();
    let expected = snapshot(&whole);
    assert!(expected.iter().any(|(f, _)| f == checkpoint::FILE));
    fs::remove_dir_all(&whole).unwrap();
    for threads in [1, 2] {
        let dir = whole.clone();
        // Stopped before the first block, then mid-run once the first checkpoint exists.
        static STOP: AtomicBool = AtomicBool::new(false);
        STOP.store(true, std::sync::atomic::Ordering::SeqCst);
        let opts = RunOptions {
            stop: Some(&STOP),
            checkpoint_every: Some(1),
            ..RunOptions::default()
        };
        let e = run_game_with::<Race>(&s(&dir, threads), &opts).unwrap_err();
        assert!(
            matches!(e, TournamentError::Interrupted { done: 0, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("sim tournament --resume"), "{e}");
        STOP.store(false, std::sync::atomic::Ordering::SeqCst);
        let watcher = {
            let cp = dir.join(checkpoint::FILE);
            let before = fs::read(&cp).unwrap();
            std::thread::spawn(move || {
                while fs::read(&cp).map_or(true, |b| b == before) {
                    std::thread::yield_now();
                }
                STOP.store(true, std::sync::atomic::Ordering::SeqCst);
            })
        };
        let resume = RunOptions {
            resume: true,
            ..opts
        };
        let e = run_game_with::<Race>(&s(&dir, threads), &resume).unwrap_err();
        watcher.join().unwrap();
        let TournamentError::Interrupted { done, .. } = e else {
            panic!("{e}")
        };
        assert!(done > 0 && done < n, "{done}");
        let m = crate::output::read_manifest(&dir).unwrap().unwrap();
        assert_eq!(m.state, crate::output::RunState::Interrupted);
        assert!(!dir.join("summary.csv").exists() && dir.join("games.csv.partial").exists());
        // A kill after the checkpoint: rows past it in the partial file are cut away.
        let mut f = fs::OpenOptions::new()
            .append(true)
            .open(dir.join("games.csv.partial"))
            .unwrap();
        f.write_all(b"999999,half a row").unwrap();
        STOP.store(false, std::sync::atomic::Ordering::SeqCst);
        // Another configuration is refused, naming the field.
        let mut other = s(&dir, threads);
        other.seed = 5;
        let e = run_game_with::<Race>(&other, &resume).unwrap_err();
        assert!(
            e.is_bad_input() && e.to_string().contains("seed: 42 in the directory, 5 now"),
            "{e}"
        );
        let rep = run_game_with::<Race>(&s(&dir, threads), &resume).unwrap();
        assert_eq!(rep.stats.games, n);
        assert_same_files(&snapshot(&dir), &expected, &format!("{threads} threads"));
        fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_failing_game_is_recorded_and_excluded_or_fails_the_run_with_fail_fast() {
    let tmp = tempfile::tempdir().unwrap();
    for threads in [1, 2] {
        // Every game of this variant exceeds its ply bound (a bug in a game).
        let s = Settings {
            variant: vec!["claimed_bound=3".into()],
            ..settings(tmp.path(), &["random"], 40, threads)
        };
        let rep = run_game::<Race>(&s).unwrap();
        assert_eq!(rep.stats.games, 0);
        assert_eq!(rep.failures.len(), 40);
        assert_eq!(rep.failures[7].game, 7);
        assert_eq!(rep.failures[7].ply, 4, "the bound is checked after ply 4");
        let errors = fs::read_to_string(tmp.path().join("errors.csv")).unwrap();
        assert_eq!(errors.lines().count(), 41);
        assert!(
            errors
                .lines()
                .nth(1)
                .unwrap()
                .contains("game exceeded its bound of 3 plies,sim play --game race --players 3"),
            "{errors}"
        );
        let games = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
        assert_eq!(games.lines().count(), 1, "header only");
        let fail_fast = RunOptions {
            fail_fast: true,
            overwrite: true,
            ..RunOptions::default()
        };
        let e = run_game_with::<Race>(&s, &fail_fast).unwrap_err();
        assert!(!e.is_bad_input());
        assert!(
            e.to_string()
                .contains("game 0: game exceeded its bound of 3 plies"),
            "{e}"
        );
        // The failed rerun put back the complete run it was to replace, untouched.
        assert_eq!(
            fs::read_to_string(tmp.path().join("errors.csv")).unwrap(),
            errors
        );
        assert!(!tmp.path().join(crate::output::PREVIOUS).exists());
        let m = crate::output::read_manifest(tmp.path()).unwrap().unwrap();
        assert_eq!(m.state, crate::output::RunState::Complete);
    }
}

#[test]
fn replaying_one_game_matches_the_tournament_row() {
    let tmp = tempfile::tempdir().unwrap();
    let s = settings(tmp.path(), &["greedy", "random"], 20, 2);
    let rep = run_game::<Race>(&s).unwrap();
    let t = Tournament::<Race>::resolve(&s).unwrap();
    let mut agents = run::build_agents::<Race>(&t.plan.lineup).unwrap();
    let mut plies = 0;
    let r = play_game(&t.plan, &mut agents, 13, |e| {
        if let Event::Ply { .. } = e {
            plies += 1
        }
    })
    .unwrap();
    assert_eq!(plies, r.plies);
    let text = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
    let row = text.lines().find(|l| l.starts_with("13,")).unwrap();
    let fields: Vec<&str> = row.split(',').collect();
    assert_eq!(fields[1], r.seed.to_string());
    assert_eq!(fields[5], r.scores[0].to_string());
    assert_eq!(rep.stats.games, 20);
}

#[test]
fn shell_quoting() {
    assert_eq!(
        shell_quote("greedy:samples=4,random"),
        "greedy:samples=4,random"
    );
    assert_eq!(shell_quote("out dir"), "'out dir'");
    assert_eq!(shell_quote("it's"), r"'it'\''s'");
    assert_eq!(shell_quote(""), "''");
}
