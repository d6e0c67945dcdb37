//! Tournament statistics in O(agents × seats) memory, and the definitions of the
//! `summary.csv`, `seats.csv` and `agent_seats.csv` tables.
//!
//! Two small tables are accumulated ([`Tallies`]): an agent × seat table of [`crate::stats::tally::Tally`]s (one
//! entry per seat-game) and a per-agent count of games played, won and drawn. The runner's
//! workers fill one partial [`Tallies`] per block of games, and the writer merges the blocks
//! in index order ([`Stats::absorb`]; scores and margins are kept as exact integer moments,
//! [`crate::stats::IntMoments`], so merging is exact and order-free). Per-agent and per-seat rows are merged from the cells in a fixed order. Block
//! boundaries do not depend on the thread count, so neither does any digit of the output.
//!
//! Definitions per seat of a game (`seats.csv`, `agent_seats.csv`):
//! - *win*: the seat alone has rank 1; *draw*: it shares rank 1; *loss*: anything else.
//! - *win rate* = wins / games, with a 95% Wilson score interval ([`crate::stats::wilson`]).
//!   Draws are not counted as half wins; they are reported separately.
//! - *margin* = own score minus the best score among the other seats (positive = ahead).
//! - *rank*: the rulebook rank after tie-breaks, 1 = best; tied seats share a rank.
//!
//! Definitions per agent (`summary.csv`). An agent may hold several seats of one game (fewer
//! agents than seats, or repeated entries such as `random,random`). Those seats' outcomes
//! are not independent trials (they share one game, and at most one of them wins), so the
//! agent's win rate counts *games*, not seats:
//! - `games`: games in which the agent held at least one seat; `seats`: its seat-games;
//! - the agent *wins* a game when it alone holds first place: one or more of its seats have
//!   rank 1 and no other agent's seat does (two of its own seats tying for first is a win);
//!   it *draws* when it shares rank 1 with another agent; otherwise it loses;
//! - `win_rate` = wins / games, a proportion over independent games (each game has its own
//!   seeds), so the 95% Wilson interval applies as is. (Seat-games as trials would misstate
//!   the interval: with two seats per game, at most one of which wins, the binomial variance
//!   `p(1−p)/2n` of the per-seat rate exceeds its true variance `p(1−2p)/2n`.)
//! - `expected_win_rate` = seats / (games × players): the win rate of an agent exactly as
//!   strong as its opponents when there are no draws and seats are balanced (each seat then
//!   wins with chance 1/players); 1/players when the agent holds one seat per game, 1/2 for
//!   each of two agents at 4 seats;
//! - `mean_score`, `sd_score`, `mean_margin`, `mean_rank` and the rank shares are per
//!   seat-game: `rankR` is the share of its seat-games finishing at rank R (`rank1` includes
//!   shared first places). With ties some ranks are skipped (`1, 1, 3`).
//!
//! When every agent holds one seat per game (distinct agents, at least as many as seats),
//! `games = seats` and the per-game and per-seat definitions agree.
//!
//! `summary.csv` columns: `agent, games, seats, wins, draws, losses, win_rate, ci_low,
//! ci_high, expected_win_rate, mean_score, sd_score, mean_margin, mean_rank, rank1, …,
//! rankP` (P = players; `sd_score` is the sample standard deviation).
//!
//! `seats.csv` columns: `seat, games, wins, draws, win_rate, ci_low, ci_high,
//! expected_win_rate, mean_score`, where `expected_win_rate = 1/players` is the reference
//! rate if all seats were equal and there were no draws: a seat whose interval excludes it
//! has a measurable advantage or handicap.
//!
//! `agent_seats.csv` columns: `agent, seat, games, wins, draws, win_rate, ci_low, ci_high,
//! mean_score, mean_margin`: each agent's results from each seat (one trial per game).
//!
//! `labels.csv` columns (games that declare labels, [`Measured::SEAT_LABELS`](crate::game::Measured::SEAT_LABELS) and
//! [`Measured::GAME_LABELS`](crate::game::Measured::GAME_LABELS)): `label, value, agent, games, wins, draws, win_rate,
//! ci_low, ci_high, seats, mean_score, mean_rank`. For each label column and value, the
//! seats of a game holding that value (a game label gives it to every seat) form one group
//! per agent, and one group `all` pooling the agents. Like an agent's, a group's win rate
//! counts games: `games` are the games in which it held a seat; it *wins* a game when one of
//! its seats has rank 1 and no seat outside the group does, and *draws* when it shares rank
//! 1 with a seat outside it; the Wilson interval treats games as the trials. `seats`,
//! `mean_score` and `mean_rank` are per seat-game. (For a game label, the `all` group holds
//! every seat and always wins: its row just counts the games with that value.)
//!
//! `seat_test.csv` ([`Stats::seat_test`]): a test of equal seats over the games with a
//! single winner (draws are left out; under equal seats each such game's winner is any
//! seat with chance 1/players): the exact two-sided binomial test of seat 0's wins at 2
//! seats ([`crate::stats::binomial_test_half`]), Pearson's chi-square goodness of fit at
//! 3–4 seats ([`crate::stats::chi_square_uniform`]), with the best seat's win rate and a
//! one-line verdict ([`crate::stats::verdicts::SeatTest::verdict`]; "not equal" at p < 0.05).
//!
//! Floats are written with 6 decimals.
//!
//! Files: this one holds [`Stats`] (accumulate, merge, restore, the per-agent and per-seat
//! rows, the tests); [`super::tallies`] fills the tallies from game records;
//! [`super::tables`] writes the CSV files; [`super::console`] prints the console summary.
//! The tallies themselves are in [`crate::stats::tally`].

use super::metrics::{EndTally, MetricRow};
use super::plan::Lineup;
use super::records::GameRecord;
pub use super::tallies::{CellMap, GroupColumn, GroupSource, StatsState, Tallies};
use crate::stats::decisiveness::Decisiveness;
use crate::stats::paired::{Outcome, PairedStats};
use crate::stats::tally::{ALL_AGENTS, AgentTally, LabelCell, Tally};
use crate::stats::verdicts::{SeatTest, head_to_head_verdict};

/// All statistics of a tournament: [`Tallies`] from which the per-agent and per-seat rows
/// are merged in a fixed order (so they are deterministic).
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Seats per game.
    pub players: usize,
    /// Games played so far.
    pub games: u64,
    /// The names of the distinct agents, the rows of [`Stats::by_agent`]: their canonical
    /// specs from [`Stats::new`]; the tournament runner renames them to the short labels of
    /// `agents.csv`.
    pub agents: Vec<String>,
    pub(super) map: CellMap,
    pub(super) tallies: Tallies,
    /// With `--paired`, the statistics over deals ([`super::paired`], [`crate::stats::paired`]).
    pub paired: Option<PairedStats>,
    /// With `--decisiveness`, the leader's win rate and the lead changes
    /// ([`crate::stats::decisiveness`]); set by [`Stats::with_decisiveness`].
    pub decisiveness: Option<Decisiveness>,
}

fn merged<'a>(tallies: impl Iterator<Item = &'a Tally>) -> Tally {
    let mut t = Tally::default();
    for x in tallies {
        t.merge(x);
    }
    t
}

impl Stats {
    /// Empty statistics for this lineup and player count.
    pub fn new(lineup: &Lineup, players: usize) -> Self {
        let map = CellMap::new(lineup, players);
        Stats {
            players,
            games: 0,
            agents: lineup.distinct().to_vec(),
            tallies: map.empty(),
            map,
            paired: lineup
                .is_paired()
                .then(|| super::paired::paired_stats(lineup, players)),
            decisiveness: None,
        }
    }

    /// The same statistics, with the decisiveness tallies if `on` (`--decisiveness`).
    pub fn with_decisiveness(mut self, on: bool) -> Self {
        self.decisiveness = on.then(Default::default);
        self
    }

    /// The same statistics, also per value of these `labels.csv` columns (none: no
    /// `labels.csv`).
    pub fn with_labels(mut self, columns: Vec<GroupColumn>) -> Self {
        self.map = self.map.with_labels(columns);
        self.tallies = self.map.empty();
        self
    }

    /// The same statistics, also of these seat and game metrics (`metrics.csv`).
    pub fn with_metrics(
        mut self,
        seat_metrics: &[&'static str],
        game_metrics: &[&'static str],
    ) -> Self {
        self.map = self.map.with_metrics(seat_metrics, game_metrics);
        self.tallies = self.map.empty();
        self
    }

    /// The rows of `metrics.csv` ([`crate::tournament::metrics`]).
    pub fn metric_rows(&self) -> Vec<MetricRow> {
        self.map.metrics.rows(&self.tallies.metrics, &self.agents)
    }

    /// The end conditions, sorted by name (`ends.csv`).
    pub fn ends(&self) -> Vec<EndTally> {
        self.map.metrics.ends(&self.tallies.metrics)
    }

    /// Whether the game declares label columns (then `labels.csv` is written).
    pub fn has_labels(&self) -> bool {
        !self.map.labels.is_empty()
    }

    /// The label cells, sorted by column, value, then agent (distinct agents in lineup
    /// order, [`ALL_AGENTS`] last): a fixed order whatever the order of first appearance.
    pub fn by_label(&self) -> Vec<LabelCell> {
        let mut cells = self.tallies.labels.cells.clone();
        cells.sort_by(|a, b| (a.column, a.value, a.agent).cmp(&(b.column, b.value, b.agent)));
        cells
    }

    /// The name of label column `column` (seat labels first, then game labels).
    pub fn label_name(&self, column: u8) -> &'static str {
        self.map.labels[column as usize].name
    }

    /// The name of a [`LabelCell::agent`]: the agent's label, or `all`.
    pub(super) fn agent_name(&self, agent: u32) -> &str {
        if agent == ALL_AGENTS {
            "all"
        } else {
            &self.agents[agent as usize]
        }
    }

    /// The cell map, for accumulating partial tallies elsewhere (the runner's workers).
    pub fn cell_map(&self) -> &CellMap {
        &self.map
    }

    /// Adds one game's outcome.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        self.map.add(&mut self.tallies, r);
    }

    /// The accumulated state, for a checkpoint ([`crate::tournament::checkpoint`]).
    pub fn state(&self) -> StatsState {
        StatsState {
            games: self.games,
            tallies: self.tallies.clone(),
            paired: self.paired.as_ref().map(|p| p.state()),
            decisiveness: self.decisiveness.clone(),
        }
    }

    /// Replaces the accumulated state with a checkpoint's (of statistics of the same
    /// shape: lineup, players, labels and metrics).
    ///
    /// # Errors
    /// A message if the state's shape differs from these statistics'.
    pub fn restore(&mut self, state: StatsState) -> Result<(), String> {
        let empty = self.map.empty();
        let t = &state.tallies;
        if t.cells.len() != empty.cells.len()
            || t.agents.len() != empty.agents.len()
            || t.metrics.shape() != empty.metrics.shape()
        {
            return Err(
                "the saved statistics have another shape (lineup, players or metrics)".into(),
            );
        }
        // Counts that no run can produce (an edited checkpoint of a version without the
        // checksum chain) are refused here, before a table divides by them.
        let impossible = t.cells.iter().any(|c| {
            c.wins.checked_add(c.draws).is_none_or(|w| w > c.games)
                || c.ranks.iter().try_fold(0u64, |a, &r| a.checked_add(r)) != Some(c.games)
        }) || t.agents.iter().any(|a| {
            a.wins.checked_add(a.draws).is_none_or(|w| w > a.games) || a.games > state.games
        });
        if impossible {
            return Err(
                "the saved statistics are impossible (more wins and draws than games, or ranks \
                 that do not add up to the games): they were edited"
                    .into(),
            );
        }
        match (&mut self.paired, state.paired) {
            (Some(p), Some(saved)) => p.restore(saved)?,
            (None, None) => {}
            _ => return Err("the saved statistics are of another design (--paired)".into()),
        }
        if self.decisiveness.is_some() != state.decisiveness.is_some() {
            return Err("the saved statistics are of another design (--decisiveness)".into());
        }
        self.decisiveness = state.decisiveness;
        self.games = state.games;
        self.tallies = state.tallies;
        let labels = &mut self.tallies.labels;
        labels.index = labels
            .cells
            .iter()
            .enumerate()
            .map(|(i, c)| ((c.column, c.value, c.agent), i))
            .collect();
        Ok(())
    }

    /// Adds another run's statistics of the same shape (a later shard, [`Stats::state`]).
    pub fn absorb_state(&mut self, state: &StatsState) {
        self.absorb(state.games, &state.tallies);
        if let (Some(p), Some(other)) = (&mut self.paired, &state.paired) {
            p.absorb_state(other);
        }
        if let (Some(d), Some(other)) = (&mut self.decisiveness, &state.decisiveness) {
            d.merge(other);
        }
    }

    /// Adds a block's decisiveness tallies ([`super::run::Block::decisiveness`]; without
    /// `--decisiveness`, nothing).
    pub fn absorb_decisiveness(&mut self, block: &Decisiveness) {
        if let Some(d) = &mut self.decisiveness {
            d.merge(block);
        }
    }

    /// Adds the outcomes of a block's games to the statistics over deals (a paired run;
    /// otherwise nothing).
    pub fn absorb_outcomes(&mut self, outcomes: &[Outcome]) {
        if let Some(p) = &mut self.paired {
            p.add(outcomes);
        }
    }

    /// Adds the partial tallies of `games` games, accumulated with [`CellMap::add`] from
    /// [`Stats::cell_map`]. Absorbing the partial tallies of consecutive blocks in order
    /// always gives the same result. Allocates nothing.
    pub fn absorb(&mut self, games: u64, tallies: &Tallies) {
        self.games += games;
        self.tallies.merge(tallies);
    }

    /// The tally of agent `agent` (distinct index) in seat `seat`.
    pub fn agent_seat(&self, agent: usize, seat: usize) -> &Tally {
        &self.tallies.cells[agent * self.players + seat]
    }

    /// One row per distinct agent: its game counts and all its seats merged (seat 0 first).
    pub fn by_agent(&self) -> Vec<AgentTally> {
        (0..self.agents.len())
            .map(|a| {
                let g = self.tallies.agents[a];
                AgentTally {
                    games: g.games,
                    wins: g.wins,
                    draws: g.draws,
                    seats: merged((0..self.players).map(|s| self.agent_seat(a, s))),
                }
            })
            .collect()
    }

    /// One tally per seat (all agents merged, in lineup order).
    pub fn by_seat(&self) -> Vec<Tally> {
        (0..self.players)
            .map(|s| merged((0..self.agents.len()).map(|a| self.agent_seat(a, s))))
            .collect()
    }

    /// The test of equal seats over the games with a single winner (see the module docs).
    pub fn seat_test(&self) -> SeatTest {
        let seats = self.by_seat();
        let wins: Vec<u64> = seats.iter().map(|t| t.wins).collect();
        let decisive: u64 = wins.iter().sum();
        let (method, statistic, df, p_value) = if self.players == 2 {
            let p = crate::stats::binomial_test_half(wins[0], decisive);
            ("exact binomial", wins[0] as f64, None, p)
        } else {
            let (x, df, p) = crate::stats::chi_square_uniform(&wins);
            ("chi-square", x, Some(df), p)
        };
        let (seat, best) = seats
            .iter()
            .enumerate()
            .max_by(|a, b| {
                a.1.win_rate()
                    .total_cmp(&b.1.win_rate())
                    .then(b.0.cmp(&a.0))
            })
            .expect("at least one seat");
        SeatTest {
            method,
            decisive,
            statistic,
            df,
            p_value,
            seat,
            win_rate: best.win_rate(),
            interval: best.interval(),
            expected: 1.0 / self.players as f64,
        }
    }

    /// The head-to-head verdict of a tournament between exactly two agents holding equal
    /// shares of the seats ([`head_to_head_verdict`]); `None` otherwise.
    pub fn head_to_head(&self) -> Option<String> {
        if self.agents.len() != 2 {
            return None;
        }
        let t = self.by_agent();
        let equal = (t[0].expected_win_rate(self.players) - t[1].expected_win_rate(self.players))
            .abs()
            < 1e-9;
        equal.then(|| {
            head_to_head_verdict(
                &self.agents[0],
                t[0].wins,
                &self.agents[1],
                t[1].wins,
                t[0].games,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Z95, wilson};
    use crate::tournament::tables::{LABELS_HEADER, SEAT_TEST_HEADER};

    fn rec(index: u64, lineup: [u8; 4], scores: [i32; 4], ranks: [u8; 4]) -> GameRecord {
        rec_n(2, index, lineup, scores, ranks)
    }

    fn rec_n(
        players: u8,
        index: u64,
        lineup: [u8; 4],
        scores: [i32; 4],
        ranks: [u8; 4],
    ) -> GameRecord {
        GameRecord {
            index,
            seed: 0,
            players,
            lineup,
            scores,
            ranks,
            plies: 1,
            rounds: 1,
            end: "x",
            metrics: Default::default(),
            labels: Default::default(),
        }
    }

    #[test]
    fn tallies_by_agent_seat_and_pair() {
        let lineup = Lineup::new(&["random", "greedy"], 2).unwrap();
        let mut st = Stats::new(&lineup, 2);
        st.add(&rec(0, [0, 1, 0, 0], [10, 7, 0, 0], [1, 2, 0, 0])); // random wins from seat 0
        st.add(&rec(1, [1, 0, 0, 0], [4, 4, 0, 0], [1, 1, 0, 0])); // draw
        st.add(&rec(2, [0, 1, 0, 0], [3, 9, 0, 0], [2, 1, 0, 0])); // greedy wins from seat 1
        assert_eq!(st.games, 3);
        let by_agent = st.by_agent();
        let by_seat = st.by_seat();
        let r = &by_agent[0];
        assert_eq!((r.games, r.wins, r.draws, r.losses()), (3, 1, 1, 1));
        assert_eq!((r.seats.games, r.seats.wins, r.seats.draws), (3, 1, 1));
        assert!((r.seats.margin.mean() - (3.0 + 0.0 - 6.0) / 3.0).abs() < 1e-12);
        assert!((r.seats.score.mean() - 17.0 / 3.0).abs() < 1e-12);
        assert_eq!(r.seats.ranks, [2, 1, 0, 0]);
        assert!((r.seats.mean_rank() - 4.0 / 3.0).abs() < 1e-12);
        assert_eq!(r.expected_win_rate(2), 0.5);
        let s0 = &by_seat[0];
        assert_eq!((s0.games, s0.wins, s0.draws), (3, 1, 1));
        let s1 = &by_seat[1];
        assert_eq!((s1.games, s1.wins, s1.draws), (3, 1, 1));
        assert_eq!(st.agent_seat(1, 1).wins, 1);
        assert_eq!(st.agent_seat(1, 0).games, 1);
        assert_eq!(st.agent_seat(0, 0).games, 2);
        // Seat-games add up.
        let total: u64 = by_agent.iter().map(|t| t.seats.games).sum();
        assert_eq!(total, 3 * 2);
    }

    /// `random,greedy` at 4 seats: each agent holds two seats of every game. The trials of
    /// an agent's win rate are its games, not its seat-games (10, not 20), and at most one
    /// of its two seats wins a game.
    #[test]
    fn agent_win_rates_count_games_not_seats() {
        let lineup = Lineup::new(&["random", "greedy"], 4).unwrap();
        let mut st = Stats::new(&lineup, 4);
        for g in 0..10u64 {
            // Greedy (entry 1) sits in seats 1 and 3 and wins 7 games, from either seat.
            let winner = match g {
                0..=3 => 1,
                4..=6 => 3,
                _ => 0,
            };
            let mut r = [0u8; 4];
            let mut next = 2;
            for (s, x) in r.iter_mut().enumerate() {
                if s == winner {
                    *x = 1;
                } else {
                    *x = next;
                    next += 1;
                }
            }
            st.add(&rec_n(4, g, [0, 1, 0, 1], [0; 4], r));
        }
        let by_agent = st.by_agent();
        let greedy = &by_agent[1];
        assert_eq!((greedy.games, greedy.wins, greedy.draws), (10, 7, 0));
        assert_eq!(greedy.seats.games, 20);
        assert_eq!(greedy.interval(), wilson(7, 10, Z95));
        assert_eq!(greedy.expected_win_rate(4), 0.5);
        let random = &by_agent[0];
        assert_eq!((random.games, random.wins, random.losses()), (10, 3, 7));
        assert_eq!(random.interval(), wilson(3, 10, Z95));
        // Wins and draws of the agents exhaust the games.
        assert_eq!(greedy.wins + random.wins, st.games);
    }

    #[test]
    fn agents_win_alone_or_draw_with_another_agent() {
        // Entries 0 and 2 are the same agent (random), 1 is greedy; 3 seats.
        let lineup = Lineup::new(&["random", "greedy", "random"], 3).unwrap();
        let mut st = Stats::new(&lineup, 3);
        // Random's two seats tie for first: a win for random, a loss for greedy.
        st.add(&rec_n(3, 0, [0, 1, 2, 0], [5, 1, 5, 0], [1, 3, 1, 0]));
        // Random and greedy tie for first: a draw for both.
        st.add(&rec_n(3, 1, [2, 1, 0, 0], [5, 5, 1, 0], [1, 1, 3, 0]));
        // Greedy alone first.
        st.add(&rec_n(3, 2, [1, 0, 2, 0], [9, 5, 1, 0], [1, 2, 3, 0]));
        let by_agent = st.by_agent();
        let (random, greedy) = (&by_agent[0], &by_agent[1]);
        assert_eq!((random.games, random.wins, random.draws), (3, 1, 1));
        assert_eq!((greedy.games, greedy.wins, greedy.draws), (3, 1, 1));
        assert_eq!((random.seats.games, random.seats.wins), (6, 0));
        assert_eq!(random.seats.draws, 3);
        assert!((random.expected_win_rate(3) - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(random.seats.ranks, [3, 1, 2, 0]);
        assert!((random.seats.rank_share(1) - 0.5).abs() < 1e-12);
        assert_eq!(random.seats.rank_share(4), 0.0);
        assert_eq!(random.seats.rank_share(0), 0.0);
        assert_eq!(random.seats.rank_share(9), 0.0);
        assert!((greedy.seats.mean_rank() - 5.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn absorbing_partial_tables_equals_adding_games() {
        let lineup = Lineup::new(&["random", "greedy"], 2).unwrap();
        let games: Vec<GameRecord> = (0..10)
            .map(|i| {
                let (a, b) = ((i * 7 % 5) as i32, (i * 3 % 4) as i32);
                let ranks = crate::game::ranks_by_key(&[a, b, 0, 0], 2);
                rec(
                    i,
                    [(i % 2) as u8, ((i + 1) % 2) as u8, 0, 0],
                    [a, b, 0, 0],
                    ranks,
                )
            })
            .collect();
        let mut one = Stats::new(&lineup, 2);
        games.iter().for_each(|r| one.add(r));
        let mut blocks = Stats::new(&lineup, 2);
        for part in games.chunks(3) {
            let mut t = blocks.cell_map().empty();
            part.iter().for_each(|r| blocks.cell_map().add(&mut t, r));
            blocks.absorb(part.len() as u64, &t);
        }
        assert_eq!(one.games, blocks.games);
        for (x, y) in one.by_agent().iter().zip(&blocks.by_agent()) {
            assert_eq!((x.games, x.wins, x.draws), (y.games, y.wins, y.draws));
            assert_eq!(x.seats.ranks, y.seats.ranks);
            assert!((x.seats.score.mean() - y.seats.score.mean()).abs() < 1e-12);
            assert!((x.seats.margin.sd() - y.seats.margin.sd()).abs() < 1e-12);
        }
    }

    /// A 3-seat game with seat labels `clans` and game label `layout`.
    fn labelled(
        index: u64,
        lineup: [u8; 4],
        ranks: [u8; 4],
        clans: [&'static str; 3],
        layout: &'static str,
    ) -> GameRecord {
        let mut r = rec_n(
            3,
            index,
            lineup,
            [
                ranks[0] as i32 * -10,
                ranks[1] as i32 * -10,
                ranks[2] as i32 * -10,
                0,
            ],
            ranks,
        );
        for (seat, clan) in clans.iter().enumerate() {
            r.labels.seat[seat][0] = clan;
        }
        r.labels.game[0] = layout;
        r
    }

    fn cell<'a>(cells: &'a [LabelCell], column: u8, value: &str, agent: u32) -> &'a LabelCell {
        cells
            .iter()
            .find(|c| c.column == column && c.value == value && c.agent == agent)
            .unwrap_or_else(|| panic!("no cell {column} {value} {agent}"))
    }

    #[test]
    fn set_labels_and_flag_metrics_group_per_member() {
        let lineup = Lineup::new(&["mcts", "greedy"], 3).unwrap();
        let columns = vec![
            GroupColumn {
                name: "in_play",
                source: GroupSource::Game {
                    index: 0,
                    set: true,
                },
            },
            GroupColumn {
                name: "used",
                source: GroupSource::Flags {
                    metric: 1,
                    bits: &["Farmer", "Painter", "Maid"],
                },
            },
        ];
        let mut st = Stats::new(&lineup, 3).with_labels(columns);
        // Game 0: Farmer and Painter in play; seat 0 (mcts) used Farmer and Maid (bits 0,
        // 2), seat 1 (greedy) used Farmer, seat 2 (mcts) nothing. Seat 1 wins alone.
        let mut r = labelled(
            0,
            [0, 1, 0, 0],
            [2, 1, 3, 0],
            ["", "", ""],
            "Farmer/Painter",
        );
        r.metrics.seat[0][1] = 0b101;
        r.metrics.seat[1][1] = 0b001;
        st.add(&r);
        // Game 1: Painter only; seat 2 (mcts) used Painter and wins alone.
        let mut r = labelled(1, [0, 1, 0, 0], [2, 3, 1, 0], ["", "", ""], "Painter");
        r.metrics.seat[2][1] = 0b010;
        st.add(&r);
        let cells = st.by_label();
        let counts = |c: &LabelCell| (c.games, c.wins, c.draws, c.seats, c.rank_sum);
        // Each member of a set value is its own group, held by every seat of the game.
        assert_eq!(
            counts(cell(&cells, 0, "Farmer", ALL_AGENTS)),
            (1, 1, 0, 3, 6)
        );
        assert_eq!(
            counts(cell(&cells, 0, "Painter", 0)),
            (2, 1, 0, 4, 2 + 3 + 2 + 1)
        );
        assert_eq!(counts(cell(&cells, 0, "Painter", 1)), (2, 1, 0, 2, 1 + 3));
        assert!(!cells.iter().any(|c| c.value.contains('/')));
        // A flag groups the seats with its bit set.
        assert_eq!(counts(cell(&cells, 1, "Farmer", 0)), (1, 0, 0, 1, 2));
        assert_eq!(counts(cell(&cells, 1, "Farmer", 1)), (1, 1, 0, 1, 1));
        assert_eq!(
            counts(cell(&cells, 1, "Farmer", ALL_AGENTS)),
            (1, 1, 0, 2, 3)
        );
        assert_eq!(counts(cell(&cells, 1, "Maid", 0)), (1, 0, 0, 1, 2));
        assert_eq!(counts(cell(&cells, 1, "Painter", 0)), (1, 1, 0, 1, 1));
        // Nobody used a flag in no game: no cell; greedy never used Maid.
        assert!(
            !cells
                .iter()
                .any(|c| c.column == 1 && c.value == "Maid" && c.agent == 1)
        );
        assert_eq!(cells.len(), 3 + 3 + 3 + 2 + 2);
        let text = String::from_utf8(st.write_labels_csv(Vec::new()).unwrap()).unwrap();
        assert!(text.contains("\nused,Farmer,all,1,1,0,1.000000,"), "{text}");
    }

    #[test]
    fn seat_test_and_verdict() {
        let lineup = Lineup::new(&["random", "greedy"], 2).unwrap();
        let mut st = Stats::new(&lineup, 2);
        // 60 single-winner games won by seat 0, 40 by seat 1, 5 draws.
        for i in 0..105u64 {
            let ranks = match i {
                0..60 => [1, 2, 0, 0],
                60..100 => [2, 1, 0, 0],
                _ => [1, 1, 0, 0],
            };
            st.add(&rec(
                i,
                [(i % 2) as u8, 1 - (i % 2) as u8, 0, 0],
                [0; 4],
                ranks,
            ));
        }
        let t = st.seat_test();
        assert_eq!(
            (t.method, t.decisive, t.statistic, t.seat),
            ("exact binomial", 100, 60.0, 0)
        );
        // R: binom.test(60, 100)$p.value.
        assert!((t.p_value - 0.056_887_93).abs() < 1e-7, "{}", t.p_value);
        assert!((t.win_rate - 60.0 / 105.0).abs() < 1e-12);
        let v = t.verdict();
        assert!(
            v.starts_with("no seat advantage detected (exact binomial test over 100 games"),
            "{v}"
        );
        assert!(
            v.contains("p = 0.057") && v.contains("seat 0 wins 57.1%"),
            "{v}"
        );
        // Ten more wins for seat 0: 70 of 110, p = 2 P(X <= 40) = 0.00544743 (summed exactly).
        for i in 105..115u64 {
            st.add(&rec(i, [0, 1, 0, 0], [0; 4], [1, 2, 0, 0]));
        }
        let t = st.seat_test();
        assert!((t.p_value - 0.005_447_43).abs() < 1e-8, "{}", t.p_value);
        assert!(
            t.verdict()
                .contains(": the seats are not equal (exact binomial"),
            "{}",
            t.verdict()
        );
        let text = String::from_utf8(st.write_seat_test_csv(Vec::new()).unwrap()).unwrap();
        assert!(text.starts_with(&SEAT_TEST_HEADER.join(",")));
        assert!(
            text.contains("\nexact binomial,2,110,70.000000,,"),
            "{text}"
        );
        assert!(st.render().contains("the seats are not equal"));
        // At 3 seats: chi-square on the single-winner counts (50, 20, 30): X² = 14, p =
        // exp(-7).
        let lineup = Lineup::new(&["random"], 3).unwrap();
        let mut st = Stats::new(&lineup, 3);
        for i in 0..100u64 {
            let ranks = match i {
                0..50 => [1, 2, 2, 0],
                50..70 => [2, 1, 2, 0],
                _ => [2, 2, 1, 0],
            };
            st.add(&rec_n(3, i, [0; 4], [0; 4], ranks));
        }
        let t = st.seat_test();
        assert_eq!((t.method, t.df), ("chi-square", Some(2)));
        assert!((t.statistic - 14.0).abs() < 1e-9);
        assert!((t.p_value - (-7.0f64).exp()).abs() < 1e-12);
        assert!(
            t.verdict()
                .starts_with("seat 0 wins 50.0% [40.4%, 59.6%] against 33.3%"),
            "{}",
            t.verdict()
        );
    }

    #[test]
    fn metrics_and_ends_by_agent_and_outcome() {
        let lineup = Lineup::new(&["mcts", "greedy"], 2).unwrap();
        let mut st = Stats::new(&lineup, 2).with_metrics(&["m"], &["g"]);
        // Game 0: mcts (seat 0) wins 10-4, metric 3 vs 1; game 1: a draw 5-5, metrics
        // 2 and 6; game 2: greedy (seat 0) wins 9-1, metric 8 vs 0.
        let mut games = [
            rec(0, [0, 1, 0, 0], [10, 4, 0, 0], [1, 2, 0, 0]),
            rec(1, [0, 1, 0, 0], [5, 5, 0, 0], [1, 1, 0, 0]),
            rec(2, [1, 0, 0, 0], [9, 1, 0, 0], [1, 2, 0, 0]),
        ];
        let ms = [[3, 1], [2, 6], [8, 0]];
        for (i, g) in games.iter_mut().enumerate() {
            g.metrics.seat[0][0] = ms[i][0];
            g.metrics.seat[1][0] = ms[i][1];
            g.metrics.game[0] = 10 * i as i32;
            g.plies = 10 + i as u32;
            g.end = if i == 2 { "b" } else { "a" };
        }
        games.iter().for_each(|g| st.add(g));
        st.agents = vec!["mcts".into(), "greedy".into()];
        let rows = st.metric_rows();
        // Means rounded to 1e-9, so the test does not depend on the merge's last bit.
        let get = |m: &str, a: &str, o: &str| {
            let r = rows
                .iter()
                .find(|r| r.metric == m && r.agent == a && r.outcome == o)
                .unwrap();
            (r.values.count(), (r.values.mean() * 1e9).round() / 1e9)
        };
        assert_eq!(get("score", "mcts", "won"), (1, 10.0));
        assert_eq!(get("score", "mcts", "draw"), (1, 5.0));
        assert_eq!(get("score", "mcts", "lost"), (1, 1.0));
        assert_eq!(get("score", "mcts", "all"), (3, 5.333333333));
        assert_eq!(get("m", "all", "won"), (2, 5.5));
        assert_eq!(get("m", "all", "lost"), (2, 0.5));
        assert_eq!(get("m", "greedy", "all"), (3, 5.0));
        assert_eq!(get("g", "all", "all"), (3, 10.0));
        assert_eq!(get("plies", "all", "all"), (3, 11.0));
        // 2 metrics x 3 agent rows x 4 outcomes, then g, plies, rounds.
        assert_eq!(rows.len(), 2 * 3 * 4 + 3);
        let ends = st.ends();
        assert_eq!(
            ends.iter().map(|e| (e.end, e.games)).collect::<Vec<_>>(),
            [("a", 2), ("b", 1)]
        );
        assert_eq!(ends[0].plies.mean(), 10.5);
        let text = String::from_utf8(st.write_ends_csv(Vec::new()).unwrap()).unwrap();
        assert!(
            text.starts_with(
                "end,games,share,ci_low,ci_high,mean_plies,mean_rounds\na,2,0.666667,"
            )
        );
        let text = String::from_utf8(st.write_metrics_csv(Vec::new()).unwrap()).unwrap();
        assert!(
            text.contains("\nscore,seat,mcts,won,1,10.000000,,,\n"),
            "{text}"
        );
        assert!(
            text.contains("\nplies,game,all,all,3,11.000000,1.000000,"),
            "{text}"
        );
        assert!(st.render().contains("End conditions"));
        // Block-wise accumulation gives the same rows.
        let mut blocks = Stats::new(&lineup, 2).with_metrics(&["m"], &["g"]);
        blocks.agents = st.agents.clone();
        for part in games.chunks(2) {
            let mut t = blocks.cell_map().empty();
            part.iter().for_each(|r| blocks.cell_map().add(&mut t, r));
            blocks.absorb(part.len() as u64, &t);
        }
        let merged = blocks.metric_rows();
        for (x, y) in merged.iter().zip(&rows) {
            assert_eq!((x.metric, x.values.count()), (y.metric, y.values.count()));
            assert!((x.values.mean() - y.values.mean()).abs() < 1e-12);
        }
        assert_eq!(blocks.ends(), st.ends());
    }

    #[test]
    fn label_groups_count_games_wins_and_draws() {
        let lineup = Lineup::new(&["mcts", "greedy"], 3).unwrap();
        let mut st = Stats::new(&lineup, 3).with_labels(GroupColumn::plain(&["clan"], &["layout"]));
        // mcts holds seats 0 and 2, both clan A; seat 0 wins alone.
        st.add(&labelled(
            0,
            [0, 1, 0, 0],
            [1, 2, 3, 0],
            ["A", "B", "A"],
            "L1",
        ));
        // Seats 0 (A, mcts) and 1 (B, greedy) share first place.
        st.add(&labelled(
            1,
            [0, 1, 0, 0],
            [1, 1, 3, 0],
            ["A", "B", "A"],
            "L1",
        ));
        // Seat 2 (B, mcts) wins alone; clan A is greedy's only.
        st.add(&labelled(
            2,
            [1, 1, 0, 0],
            [2, 3, 1, 0],
            ["A", "A", "B"],
            "L2",
        ));
        let cells = st.by_label();
        let counts = |c: &LabelCell| (c.games, c.wins, c.draws, c.seats, c.rank_sum);
        // Clan A for mcts: games 0 and 1 (two seats each): a win and a draw.
        assert_eq!(counts(cell(&cells, 0, "A", 0)), (2, 1, 1, 4, 1 + 3 + 1 + 3));
        // Clan A pooled: games 0, 1 (mcts) and 2 (greedy, seats 0 and 1, ranks 2 and 3).
        assert_eq!(counts(cell(&cells, 0, "A", ALL_AGENTS)), (3, 1, 1, 6, 13));
        assert_eq!(counts(cell(&cells, 0, "A", 1)), (1, 0, 0, 2, 5));
        assert_eq!(counts(cell(&cells, 0, "B", 1)), (2, 0, 1, 2, 3));
        assert_eq!(counts(cell(&cells, 0, "B", 0)), (1, 1, 0, 1, 1));
        // The game label: every seat of the game holds it.
        assert_eq!(counts(cell(&cells, 1, "L1", 0)), (2, 1, 1, 4, 8));
        assert_eq!(counts(cell(&cells, 1, "L1", 1)), (2, 0, 1, 2, 3));
        assert_eq!(counts(cell(&cells, 1, "L2", 0)), (1, 1, 0, 1, 1));
        assert_eq!(counts(cell(&cells, 1, "L2", ALL_AGENTS)), (1, 1, 0, 3, 6));
        assert!((cell(&cells, 0, "B", 0).score.mean() - -10.0).abs() < 1e-12);
        // Sorted by column, value, agent, `all` last.
        let keys: Vec<(u8, &str, u32)> =
            cells.iter().map(|c| (c.column, c.value, c.agent)).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        assert_eq!(keys[0], (0, "A", 0));
        // labels.csv: the header, then one row per cell.
        let text = String::from_utf8(st.write_labels_csv(Vec::new()).unwrap()).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), LABELS_HEADER.join(","));
        assert!(text.contains("\nclan,A,all,3,1,1,0.333333,"));
        st.agents = vec!["mcts".into(), "greedy".into()];
        let text = String::from_utf8(st.write_labels_csv(Vec::new()).unwrap()).unwrap();
        assert!(text.contains("\nlayout,L2,mcts,1,1,0,1.000000,"), "{text}");
        assert_eq!(lines.count(), cells.len());
        assert!(st.render().contains("Labels (per game"));
        // Block-wise accumulation gives the same cells.
        let games = [
            labelled(0, [0, 1, 0, 0], [1, 2, 3, 0], ["A", "B", "A"], "L1"),
            labelled(1, [0, 1, 0, 0], [1, 1, 3, 0], ["A", "B", "A"], "L1"),
            labelled(2, [1, 1, 0, 0], [2, 3, 1, 0], ["A", "A", "B"], "L2"),
        ];
        let mut blocks =
            Stats::new(&lineup, 3).with_labels(GroupColumn::plain(&["clan"], &["layout"]));
        for part in games.chunks(2) {
            let mut t = blocks.cell_map().empty();
            part.iter().for_each(|r| blocks.cell_map().add(&mut t, r));
            blocks.absorb(part.len() as u64, &t);
        }
        let merged = blocks.by_label();
        assert_eq!(merged.len(), cells.len());
        for (x, y) in merged.iter().zip(&cells) {
            assert_eq!((x.column, x.value, x.agent), (y.column, y.value, y.agent));
            assert_eq!(counts(x), counts(y));
            assert!((x.score.mean() - y.score.mean()).abs() < 1e-12);
            assert!((x.score.sd() - y.score.sd()).abs() < 1e-9);
        }
    }

    #[test]
    fn no_labels_no_label_cells() {
        let lineup = Lineup::new(&["mcts", "greedy"], 3).unwrap();
        let mut st = Stats::new(&lineup, 3);
        st.add(&labelled(
            0,
            [0, 1, 0, 0],
            [1, 2, 3, 0],
            ["A", "B", "A"],
            "L1",
        ));
        assert!(!st.has_labels() && st.by_label().is_empty());
        assert!(!st.render().contains("Labels"));
    }

    #[test]
    fn csv_tables_have_the_documented_columns() {
        // Self-play: one agent holding both seats wins every game it does not draw.
        let lineup = Lineup::new(&["random", "random"], 2).unwrap();
        let mut st = Stats::new(&lineup, 2);
        st.add(&rec(0, [0, 1, 0, 0], [8, 2, 0, 0], [1, 2, 0, 0]));
        let text = String::from_utf8(st.write_summary_csv(Vec::new()).unwrap()).unwrap();
        assert_eq!(
            text,
            "agent,games,seats,wins,draws,losses,win_rate,ci_low,ci_high,expected_win_rate,\
             mean_score,sd_score,mean_margin,mean_rank,rank1,rank2\n\
             random,1,2,1,0,0,1.000000,0.206549,1.000000,1.000000,5.000000,4.242641,0.000000,\
             1.500000,0.500000,0.500000\n"
        );
        let text = String::from_utf8(st.write_seats_csv(Vec::new()).unwrap()).unwrap();
        assert!(text.starts_with(
            "seat,games,wins,draws,win_rate,ci_low,ci_high,expected_win_rate,mean_score\n\
             0,1,1,0,1.000000,0.206549,1.000000,0.500000,8.000000\n"
        ));
        let text = String::from_utf8(st.write_agent_seats_csv(Vec::new()).unwrap()).unwrap();
        assert_eq!(text.lines().count(), 3);
        let shown = st.render();
        assert!(
            shown.contains("random") && shown.contains("100.0% [20.7, 100.0]"),
            "{shown}"
        );
        assert!(
            shown.contains("mean rank") && shown.contains("rank 2"),
            "{shown}"
        );
    }
}
