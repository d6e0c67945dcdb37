//! Decisiveness and lead changes (`--decisiveness`): how often the seat leading after a
//! round goes on to win, and how often the lead changes hands.
//!
//! **The leader.** At the end of every round but the last (when [`GameState::round`](crate::game::GameState::round) moves on),
//! the runner reads the game's running score ([`RunningScore::running_score`](crate::game::RunningScore::running_score): the points each
//! seat would have if the game ended now) and records the seat with the strictly highest
//! value, or no leader when the highest value is tied. At the end of the game the leader is
//! the winner: the one seat ranked first ([`GameState::ranks`](crate::game::GameState::ranks), with the rulebook's
//! tie-breaks), or no leader when first place is shared.
//!
//! **Decisiveness** (Browne 2008, *Automatic Generation and Evaluation of Recombination
//! Games*, the "decisiveness" and "lead change" criteria): for every point of the game,
//! among the games that had a leader there, the fraction in which that leader wins (the
//! only seat ranked first), with a Wilson interval (Wilson 1927). Two kinds of points:
//! - `round` r: after round r (rounds as in `games.csv`);
//! - `percent` q (10, 20, ..., 90): after round `floor(q R / 100)` of a game of R rounds,
//!   which compares games of different lengths (greedy Q.A.X. games last 3 to 26
//!   rounds). Points before the end of round 1 are skipped.
//!
//! A lead that says nothing about the result wins a seat's share, `1 / players`; a leader
//! who always wins means the rest of the game did not change the result.
//!
//! **Lead changes**: the number of times the leader differs from the previous leader in
//! the sequence of leaders after rounds 1, 2, ..., R − 1 and the winner, skipping the
//! points without a leader. A game whose winner led from round 1 has none; a game decided
//! by an overtaking in the last round has at least one.
//!
//! Every tally is an integer, so blocks, shards and a resumed run add up to exactly the
//! same tables. Only games that did not fail count.

use super::records::GameRecord;
use crate::game::Playable;
use crate::stats::decisiveness::{Decisiveness, leader};

/// Records the leader after each finished round of a game: the runner calls
/// [`Trace::after_ply`] after every ply, then reads [`Trace::leaders`]. Holds its buffer
/// across games, so a game allocates nothing once the longest game so far has been seen.
#[derive(Debug, Default)]
pub struct Trace {
    round: u32,
    leaders: Vec<u8>,
}

impl Trace {
    /// Starts a game at state `state` (after setup).
    pub fn start<G: Playable>(&mut self, state: &G) {
        self.round = state.round();
        self.leaders.clear();
    }

    /// Records the leader of every round that ended with the last ply: when the round
    /// number moved on from r to r' (r ≥ 1), the leader by [`RunningScore::running_score`](crate::game::RunningScore::running_score) after
    /// rounds r..r'. The ply that ends a game starts no round ([`GameState::round`](crate::game::GameState::round) counts rounds
    /// started; the conformance harness checks it), so the last round is never recorded
    /// here: its leader is the winner. A game without a running score records nothing.
    #[inline]
    pub fn after_ply<G: Playable>(&mut self, state: &G) {
        let now = state.round();
        if now == self.round {
            return;
        }
        let ended = now.saturating_sub(self.round.max(1));
        self.round = now;
        if ended == 0 {
            return;
        }
        if let Some(s) = state.running_score() {
            let l = leader(&s, state.num_players());
            self.leaders.extend(std::iter::repeat_n(l, ended as usize));
        }
    }

    /// The leader after rounds 1, 2, ... of the game so far ([`crate::stats::decisiveness::NO_LEADER`] on a tie).
    pub fn leaders(&self) -> &[u8] {
        &self.leaders
    }
}

impl Decisiveness {
    /// [`Decisiveness::add_game`] for the game of record `r`, whose leaders after its rounds
    /// before the last are `leaders`.
    pub fn add_record(&mut self, leaders: &[u8], r: &GameRecord) {
        self.add_game(leaders, r.rounds, &r.ranks, r.players as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState;
    use crate::game::{ScriptedChance, Turn, rules};
    use crate::games::race::{Action, Params, Race};

    /// A scripted 2-player race of 3 rounds: positions (3, 1) after round 1, (4, 7) after
    /// round 2, (8, 8) at the end (a shared first place).
    #[test]
    fn the_trace_records_the_leader_after_each_round_but_the_last() {
        let p = Params {
            rounds: crate::params::PerCount::all(3),
            ..Params::default()
        };
        let r = rules::<Race>(&p, 2).unwrap();
        // Dice for (seat 0, seat 1) in rounds 1, 2, 3.
        let mut chance = ScriptedChance::new(&[0, 0, 0, 2, 0, 0]);
        let mut s = Race::new_game(r, &mut chance);
        let mut t = Trace::default();
        t.start(&s);
        let plies: [(u8, u8, u8); 3] = [(3, 1, 0), (1, 3, 1), (3, 1, 1)];
        for (a, b, bonus) in plies {
            s.apply_joint(&[Some(Action(a)), Some(Action(b)), None, None], &mut chance)
                .unwrap();
            t.after_ply(&s);
            let Turn::Player(p) = s.turn() else {
                panic!("{:?}", s.turn())
            };
            s.apply(p, Action(bonus), &mut chance).unwrap();
            t.after_ply(&s);
        }
        assert!(s.turn().is_terminal());
        assert_eq!(s.scores()[..2], [8, 8]);
        assert_eq!(t.leaders(), &[0, 1]);
        let mut d = Decisiveness::default();
        d.add_game(t.leaders(), s.round(), &s.ranks(), 2);
        assert_eq!(d.by_round.len(), 2);
        // Both leaders shared first place: draws, not wins.
        for p in &d.by_round {
            assert_eq!(
                (p.games, p.with_leader, p.leader_wins, p.leader_draws),
                (1, 1, 0, 1)
            );
        }
        // One change (seat 0 to seat 1); the shared first place names no final leader.
        assert_eq!(d.lead_changes, [0, 1]);
        // A fresh game clears the trace.
        t.start(&Race::new_game(r, &mut chance));
        assert!(t.leaders().is_empty());
    }
}
