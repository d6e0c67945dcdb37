//! Per-action tables ([`ActionTally`]): how often an agent plays each action per
//! seat-game, and the win rate of the seat-games that played it against those that did
//! not.

use super::difference::{Difference, proportion_difference};
use super::interval::{Z95, wilson};

/// Per-action statistics of one agent: for each action (a per-seat count metric such as
/// Daimyo's `actions_production` or Daxu's `give`), the total count over its seat-games,
/// and the seat-games that played it at least once, with their wins.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionTally {
    /// The action names (metric columns).
    pub actions: Vec<String>,
    /// Seat-games seen.
    pub seats: u64,
    /// Seat-games won (the seat alone in first place).
    pub seat_wins: u64,
    /// Per action: the total count over all seat-games.
    pub total: Vec<u64>,
    /// Per action: seat-games with a count of at least 1.
    pub played: Vec<u64>,
    /// Per action: those seat-games that were won.
    pub played_won: Vec<u64>,
}

/// One action's row of [`ActionTally::rows`].
#[derive(Clone, Debug, PartialEq)]
pub struct ActionRow {
    /// The action.
    pub action: String,
    /// Mean count per seat-game.
    pub per_game: f64,
    /// Its share of all counted actions of the agent.
    pub share: f64,
    /// Seat-games that played it at least once.
    pub played: u64,
    /// The win rate of those seat-games with its 95% Wilson interval.
    pub win_rate_played: (f64, f64, f64),
    /// The win rate of the other seat-games with its interval.
    pub win_rate_not_played: (f64, f64, f64),
    /// The difference played − not played (Newcombe interval, z-test).
    pub difference: Difference,
}

impl ActionTally {
    /// An empty tally for these actions.
    pub fn new(actions: Vec<String>) -> Self {
        let k = actions.len();
        ActionTally {
            actions,
            seats: 0,
            seat_wins: 0,
            total: vec![0; k],
            played: vec![0; k],
            played_won: vec![0; k],
        }
    }

    /// Adds one seat-game: its count of each action (in [`ActionTally::actions`] order) and
    /// whether it won.
    ///
    /// # Panics
    /// If `counts` has the wrong length.
    pub fn add(&mut self, counts: &[u64], won: bool) {
        assert_eq!(counts.len(), self.actions.len(), "one count per action");
        self.seats += 1;
        self.seat_wins += u64::from(won);
        for (i, &c) in counts.iter().enumerate() {
            self.total[i] += c;
            if c > 0 {
                self.played[i] += 1;
                self.played_won[i] += u64::from(won);
            }
        }
    }

    /// One row per action. The win rates are per seat-game, so with several seats of one
    /// game held by the agent the trials are not independent (the interval is then too
    /// narrow); in a game with one seat per agent they are.
    pub fn rows(&self) -> Vec<ActionRow> {
        let all: u64 = self.total.iter().sum();
        let rate = |x: u64, n: u64| {
            let (lo, hi) = wilson(x, n, Z95);
            (if n == 0 { 0.0 } else { x as f64 / n as f64 }, lo, hi)
        };
        (0..self.actions.len())
            .map(|i| {
                let (p, pw) = (self.played[i], self.played_won[i]);
                let (q, qw) = (self.seats - p, self.seat_wins - pw);
                ActionRow {
                    action: self.actions[i].clone(),
                    per_game: if self.seats == 0 {
                        0.0
                    } else {
                        self.total[i] as f64 / self.seats as f64
                    },
                    share: if all == 0 {
                        0.0
                    } else {
                        self.total[i] as f64 / all as f64
                    },
                    played: p,
                    win_rate_played: rate(pw, p),
                    win_rate_not_played: rate(qw, q),
                    difference: proportion_difference(pw, p, qw, q),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

    #[test]
    fn action_tallies_count_frequencies_and_win_rates() {
        let mut t = ActionTally::new(vec!["give".into(), "take".into()]);
        t.add(&[3, 0], true);
        t.add(&[1, 2], false);
        t.add(&[0, 4], false);
        t.add(&[2, 0], true);
        let r = t.rows();
        // give: 6 of 12 actions, 1.5 per seat-game; played in 3 seat-games, 2 won.
        assert_eq!((r[0].played, r[0].share, r[0].per_game), (3, 0.5, 1.5));
        assert!(close(r[0].win_rate_played.0, 2.0 / 3.0, 1e-12));
        assert_eq!(r[0].win_rate_not_played.0, 0.0);
        // take: played twice, never won; the others won both.
        assert_eq!((r[1].played, r[1].win_rate_played.0), (2, 0.0));
        assert_eq!(r[1].win_rate_not_played.0, 1.0);
        assert!(close(r[1].difference.estimate, -1.0, 1e-12));
    }
}
