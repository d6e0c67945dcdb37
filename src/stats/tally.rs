//! Integer tallies of game outcomes: one seat's or one (agent, seat) pair's counts and
//! exact moments ([`Tally`]), an agent's per-game counts ([`GameCounts`], [`AgentTally`]),
//! and a label group's ([`LabelCell`]). Every field is an integer or exact integer
//! moments, so tallies merge exactly in any order or grouping (blocks, shards, a resumed
//! run). The definitions (win, draw, margin, rank, an agent's games) are those of
//! `summary.csv`, documented in [`crate::tournament::summary`], which fills these tallies
//! from its game records.

use serde::{Deserialize, Serialize};

use super::{IntMoments, MAX_SEATS, Z95, wilson};

/// Counts and running moments for one seat, one (agent, seat) pair, or all of an agent's
/// seat-games ([`AgentTally::seats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Games (seat-games) played.
    pub games: u64,
    /// Outright wins.
    pub wins: u64,
    /// Shared first places.
    pub draws: u64,
    /// Final scores (exact integer moments).
    pub score: IntMoments,
    /// Final margins (own score minus best other score; exact integer moments).
    pub margin: IntMoments,
    /// Seat-games finished at each rank: `ranks[r - 1]` counts rank `r`.
    pub ranks: [u64; MAX_SEATS],
}

impl Tally {
    /// Combines another tally into this one (counts and moments add exactly).
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.score.merge(&other.score);
        self.margin.merge(&other.margin);
        for (a, b) in self.ranks.iter_mut().zip(&other.ranks) {
            *a += b;
        }
    }

    /// Adds one seat-game: its `rank` (1 = best; clamped to `1..=MAX_SEATS`), final
    /// `score` and `margin` (own score minus the best other score), in a game with
    /// `winners` seats at rank 1 (a win when it is the only one, a draw otherwise).
    #[inline]
    pub fn add_seat(&mut self, rank: u8, score: i64, margin: i64, winners: usize) {
        let first = rank == 1;
        self.games += 1;
        self.wins += u64::from(first && winners == 1);
        self.draws += u64::from(first && winners > 1);
        self.score.push(score);
        self.margin.push(margin);
        // The clamp keeps a misbehaving game from indexing out of bounds.
        self.ranks[(rank as usize).clamp(1, MAX_SEATS) - 1] += 1;
    }

    /// Games neither won nor drawn.
    pub fn losses(&self) -> u64 {
        self.games - self.wins - self.draws
    }

    /// Wins / games (0 with no games).
    pub fn win_rate(&self) -> f64 {
        ratio(self.wins, self.games)
    }

    /// The 95% Wilson interval of the win rate.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins, self.games, Z95)
    }

    /// The mean rank, 1 = best (0 with no games).
    pub fn mean_rank(&self) -> f64 {
        let total: u64 = (1..).zip(&self.ranks).map(|(r, &n)| r * n).sum();
        ratio(total, self.games)
    }

    /// The share of games finished at rank `rank` (1-based; 0 with no games or for a rank
    /// outside `1..=MAX_PLAYERS`).
    pub fn rank_share(&self, rank: usize) -> f64 {
        match rank.checked_sub(1).and_then(|i| self.ranks.get(i)) {
            Some(&n) => ratio(n, self.games),
            None => 0.0,
        }
    }
}

/// `x / n`, or 0 when `n` is 0.
pub fn ratio(x: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { x as f64 / n as f64 }
}

/// Per-game outcome counts of one agent: the independent trials of its win rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCounts {
    /// Games in which the agent held at least one seat.
    pub games: u64,
    /// Games it won (alone in first place).
    pub wins: u64,
    /// Games in which it shared first place with another agent.
    pub draws: u64,
}

impl GameCounts {
    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &GameCounts) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
    }
}

/// One agent's statistics: its games (the trials of its win rate) and all its seat-games
/// merged. See the module docs for the definitions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AgentTally {
    /// Games in which the agent held at least one seat.
    pub games: u64,
    /// Games it won: it alone held first place, through one or more of its seats.
    pub wins: u64,
    /// Games in which it shared first place with another agent.
    pub draws: u64,
    /// All its seat-games merged (seat 0 first): per-seat wins, scores, margins, ranks.
    pub seats: Tally,
}

impl AgentTally {
    /// Games neither won nor drawn.
    pub fn losses(&self) -> u64 {
        self.games - self.wins - self.draws
    }

    /// Games won / games played (0 with no games).
    pub fn win_rate(&self) -> f64 {
        ratio(self.wins, self.games)
    }

    /// The 95% Wilson interval of the win rate, with games as the trials.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins, self.games, Z95)
    }

    /// Seats / (games × `players`): the win rate of an equally strong agent without draws.
    pub fn expected_win_rate(&self, players: usize) -> f64 {
        ratio(self.seats.games, self.games * players as u64)
    }
}

/// The agent column of a [`LabelCell`] that pools every agent.
pub const ALL_AGENTS: u32 = u32::MAX;

/// The outcomes of one group of seats: the seats of one game holding one value of one label
/// column, held by one agent (or by any agent, [`ALL_AGENTS`]). See the [`crate::tournament::summary`] docs.
/// (Read back from a checkpoint by `crate::tournament::checkpoint`, which interns the
/// value.)
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LabelCell {
    /// Index of the label column: seat labels first, then game labels.
    pub column: u8,
    /// The label value.
    pub value: &'static str,
    /// The distinct agent, or [`ALL_AGENTS`].
    pub agent: u32,
    /// Games in which the group held at least one seat (the trials of the win rate).
    pub games: u64,
    /// Games in which the group alone held first place.
    pub wins: u64,
    /// Games in which it shared first place with seats outside the group.
    pub draws: u64,
    /// Seat-games of the group.
    pub seats: u64,
    /// Final scores per seat-game (exact integer moments).
    pub score: IntMoments,
    /// Sum of the ranks of its seat-games.
    pub rank_sum: u64,
}

impl LabelCell {
    /// Wins / games (0 with no games).
    pub fn win_rate(&self) -> f64 {
        ratio(self.wins, self.games)
    }

    /// The 95% Wilson interval of the win rate, with games as the trials.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins, self.games, Z95)
    }

    /// Mean rank per seat-game (0 with none).
    pub fn mean_rank(&self) -> f64 {
        ratio(self.rank_sum, self.seats)
    }

    /// Adds the counts and moments of `o` (a cell of the same column, value and agent).
    pub fn merge(&mut self, o: &LabelCell) {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
        self.seats += o.seats;
        self.score.merge(&o.score);
        self.rank_sum += o.rank_sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_counts_wins_draws_and_ranks_and_merges_exactly() {
        let mut t = Tally::default();
        t.add_seat(1, 10, 3, 1); // an outright win
        t.add_seat(1, 8, 0, 2); // a shared first place
        t.add_seat(3, 2, -6, 1); // a loss at rank 3
        t.add_seat(9, 0, -9, 1); // a rank past the table is clamped to the last
        assert_eq!((t.games, t.wins, t.draws, t.losses()), (4, 1, 1, 2));
        assert_eq!(t.ranks, [2, 0, 1, 1]);
        assert_eq!(t.score.mean(), 5.0);
        assert_eq!(t.margin.mean(), -3.0);
        assert_eq!(t.mean_rank(), (1 + 1 + 3 + 4) as f64 / 4.0);
        assert_eq!(t.rank_share(1), 0.5);
        assert_eq!(t.rank_share(0), 0.0);
        // Merging two halves gives the tally of all four seat-games.
        let (mut a, mut b) = (Tally::default(), Tally::default());
        a.add_seat(1, 10, 3, 1);
        a.add_seat(1, 8, 0, 2);
        b.add_seat(3, 2, -6, 1);
        b.add_seat(9, 0, -9, 1);
        a.merge(&b);
        assert_eq!(a, t);
    }

    #[test]
    fn an_agent_wins_games_not_seats() {
        let a = AgentTally {
            games: 10,
            wins: 4,
            draws: 1,
            seats: Tally {
                games: 20,
                ..Tally::default()
            },
        };
        assert_eq!(a.losses(), 5);
        assert_eq!(a.win_rate(), 0.4);
        assert_eq!(a.interval(), wilson(4, 10, Z95));
        // Two seats per game at 4 players: half the games for an equally strong agent.
        assert_eq!(a.expected_win_rate(4), 0.5);
        assert_eq!(ratio(1, 0), 0.0);
    }
}
