//! Goofspiel at 4 seats through the tournament runner: the search agents (`mcts`, `ismcts`,
//! `cfr`) complete small 4-seat tournaments with perfect and imperfect information (the
//! latter through Goofspiel's N-player determinization), and the output has one row per
//! game and seat.

use tabletop_sim::games::goofspiel;
use tabletop_sim::tournament::{Settings, run_game};

fn tournament(agents: &[&str], variant: &[&str], dir: &std::path::Path) -> Settings {
    Settings {
        game: "goofspiel".into(),
        players: Some(4),
        variant: variant.iter().map(|s| s.to_string()).collect(),
        agents: agents.iter().map(|s| s.to_string()).collect(),
        games: 4,
        seed: 7,
        threads: Some(1),
        out: dir.to_path_buf(),
        progress: false,
        design: Default::default(),
    }
}

#[test]
fn search_agents_complete_four_seat_tournaments() {
    let lineups: [&[&str]; 2] = [
        &[
            "mcts:iters=200",
            "ismcts:iters=200",
            "cfr:iters=200",
            "random",
        ],
        &[
            "mcts:iters=100,worlds=2",
            "cfr:iters=100,worlds=2",
            "ismcts:iters=200",
            "greedy",
        ],
    ];
    for (lineup, imp) in lineups.iter().zip(["false", "true"]) {
        let dir = tempfile::tempdir().unwrap();
        let imp_info = format!("imp_info={imp}");
        let s = tournament(lineup, &["num_cards=8", &imp_info], dir.path());
        let report = run_game::<goofspiel::State>(&s).unwrap_or_else(|e| panic!("{imp}: {e}"));
        assert_eq!((report.stats.games, report.stats.players), (4, 4));
        assert_eq!(report.stats.agents.len(), 4);
        let games = std::fs::read_to_string(dir.path().join("games.csv")).unwrap();
        assert_eq!(games.lines().count(), 1 + 4 * 4, "{games}");
        assert!(games.contains("all_cards_played"), "{games}");
    }
}

#[test]
fn three_seats_and_bad_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = tournament(
        &["ismcts:iters=30", "random"],
        &["num_cards=5", "imp_info=true", "returns=rank"],
        dir.path(),
    );
    s.players = Some(3);
    let report = run_game::<goofspiel::State>(&s).unwrap();
    assert_eq!((report.stats.games, report.stats.players), (4, 3));
    s.players = Some(5);
    let e = run_game::<goofspiel::State>(&s).unwrap_err().to_string();
    assert!(e.contains("2 to 4 players"), "{e}");
    s.players = Some(3);
    s.variant = vec!["returns=margin".into()];
    let e = run_game::<goofspiel::State>(&s).unwrap_err().to_string();
    assert!(e.contains("returns=margin"), "{e}");
}
