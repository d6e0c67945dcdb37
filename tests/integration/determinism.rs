//! DESIGN.md §5.7: the same seed gives byte-identical output files with 1 and with 2
//! threads, through the library and through the binary.

use std::path::Path;

use crate::common::{FILES, sim};
use tabletop_sim::tournament::{self, Settings, run::CHUNK};

fn read_all(dir: &Path) -> Vec<Vec<u8>> {
    FILES
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}")))
        .collect()
}

#[test]
fn library_runs_are_identical_for_1_and_2_threads() {
    let tmp = tempfile::tempdir().unwrap();
    // Crosses a chunk boundary, so the chunked writer's ordering is exercised.
    let games = CHUNK + 77;
    let mut outputs = Vec::new();
    for threads in [1, 2] {
        // Same --out for both runs (config.toml records it), one after the other.
        let out = tmp.path().join("res");
        let settings = Settings {
            game: "daxu".into(),
            players: None,
            variant: vec![],
            agents: vec!["random".into(), "greedy:samples=1".into()],
            games,
            seed: 2026,
            threads: Some(threads),
            out: out.clone(),
            progress: false,
            design: Default::default(),
        };
        let report = tournament::run(&settings).unwrap();
        assert_eq!(report.threads, threads);
        assert_eq!(report.stats.games, games);
        outputs.push(read_all(&out));
        std::fs::remove_dir_all(&out).unwrap();
    }
    assert!(
        outputs[0] == outputs[1],
        "outputs differ between 1 and 2 threads"
    );
}

#[test]
fn binary_runs_are_identical_for_1_and_2_threads() {
    let mut outputs = Vec::new();
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    for (threads, dir) in ["1", "2"].into_iter().zip(&dirs) {
        let out = sim(
            &[
                "tournament",
                "--game",
                "daxu",
                "--agents",
                "greedy,random",
                "-n",
                "300",
                "--seed",
                "11",
                "--threads",
                threads,
                "--out",
                "res",
            ],
            dir.path(),
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        outputs.push((read_all(&dir.path().join("res")), out.stdout));
    }
    assert!(
        outputs[0].0 == outputs[1].0,
        "files differ between 1 and 2 threads"
    );
    assert_eq!(outputs[0].1, outputs[1].1, "the printed summary differs");
}

/// Every file of an output directory, sorted by name (`labels.csv` included when the game
/// declares labels).
fn read_dir_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_game_is_identical_for_1_and_2_threads_at_its_largest_table() {
    let tmp = tempfile::tempdir().unwrap();
    for info in tabletop_sim::games::all() {
        let mut outputs = Vec::new();
        for threads in [1, 2] {
            let out = tmp.path().join(info.name);
            let settings = Settings {
                game: info.name.into(),
                players: Some(info.players.1),
                variant: vec![],
                agents: vec!["random".into(), "greedy:samples=1".into()],
                games: 12,
                seed: 7,
                threads: Some(threads),
                out: out.clone(),
                progress: false,
                design: Default::default(),
            };
            let report = tournament::run(&settings)
                .unwrap_or_else(|e| panic!("{} with {threads} threads: {e}", info.name));
            assert_eq!(report.stats.games, 12);
            outputs.push(read_dir_files(&out));
            std::fs::remove_dir_all(&out).unwrap();
        }
        assert!(
            outputs[0] == outputs[1],
            "{}: outputs differ between 1 and 2 threads",
            info.name
        );
        assert!(outputs[0].iter().any(|(f, _)| f == "games.csv"));
    }
}
