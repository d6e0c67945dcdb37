//! Planning a tournament: the agent lineup and the seat rotation.
//!
//! **Seat rotation.** With `k` agents in the lineup (in the order given), in game `g` seat
//! `s` is played by agent `(g + s) mod k`. For a fixed seat, `k` consecutive games visit
//! every agent exactly once, so over any `k` consecutive games every agent occupies every
//! seat exactly once. This holds whatever the relation between `k` and the player count:
//! - `k = players`: each game is a rotation of the lineup (a Latin square over `k` games);
//! - `k < players`: the lineup cycles within a game (`a,b` at 4 seats gives `a b a b`, then
//!   `b a b a`), so an agent may hold several seats of one game;
//! - `k > players`: each game seats `players` consecutive agents of the cyclic lineup, and
//!   every agent sits out `k − players` of every `k` games.
//!
//! Seats are therefore balanced exactly when the number of games is a multiple of `k`
//! ([`Lineup::is_balanced`]); the CLI warns otherwise.

use crate::agents::{self, AgentError};

/// The agents of a tournament, in the order given, with their canonical specs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineup {
    entries: Vec<String>,
    distinct: Vec<String>,
    entry_to_distinct: Vec<usize>,
}

impl Lineup {
    /// Canonicalizes every spec ([`agents::canonicalize`]). Entries with the same canonical
    /// spec are the same agent for the statistics (self-play such as `random,random` gives
    /// one summary row).
    ///
    /// # Errors
    /// [`AgentError`] naming the first bad spec and the valid choices;
    /// [`AgentError::Empty`] if `specs` is empty.
    pub fn new<S: AsRef<str>>(specs: &[S]) -> Result<Self, AgentError> {
        if specs.is_empty() {
            return Err(AgentError::Empty);
        }
        let mut entries = Vec::with_capacity(specs.len());
        let mut distinct: Vec<String> = Vec::new();
        let mut entry_to_distinct = Vec::with_capacity(specs.len());
        for s in specs {
            let c = agents::canonicalize(s.as_ref())?;
            let d = match distinct.iter().position(|x| *x == c) {
                Some(d) => d,
                None => {
                    distinct.push(c.clone());
                    distinct.len() - 1
                }
            };
            entries.push(c);
            entry_to_distinct.push(d);
        }
        Ok(Lineup {
            entries,
            distinct,
            entry_to_distinct,
        })
    }

    /// `k`, the number of lineup entries (with repeats).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false: a lineup has at least one entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The canonical specs, in the order given (length `k`).
    pub fn entries(&self) -> &[String] {
        &self.entries
    }

    /// The distinct canonical specs, in order of first appearance: the rows of the
    /// per-agent statistics.
    pub fn distinct(&self) -> &[String] {
        &self.distinct
    }

    /// The distinct-agent index of lineup entry `entry`.
    pub fn distinct_of(&self, entry: usize) -> usize {
        self.entry_to_distinct[entry]
    }

    /// The lineup entry playing `seat` in game `game`: `(game + seat) mod k`.
    pub fn entry_for(&self, game: u64, seat: usize) -> usize {
        let k = self.entries.len() as u64;
        ((game % k + seat as u64 % k) % k) as usize
    }

    /// Whether `games` games give every agent every seat equally often (`games mod k = 0`).
    pub fn is_balanced(&self, games: u64) -> bool {
        games % self.entries.len() as u64 == 0
    }
}

/// Splits an `--agents` list into specs. Commas separate agents, but a piece of the form
/// `key=value` (an `=` and no `:` before it) continues the previous agent's settings, so
/// canonical specs can be pasted back: `mcts:iters=100,c=1.4,random` is
/// `["mcts:iters=100,c=1.4", "random"]`. Empty pieces are skipped.
pub fn split_agent_list(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let continues = match (piece.find('='), piece.find(':')) {
            (Some(eq), Some(colon)) => eq < colon,
            (Some(_), None) => true,
            (None, _) => false,
        };
        match out.last_mut() {
            Some(prev) if continues => {
                prev.push(if prev.contains(':') { ',' } else { ':' });
                prev.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_plays_every_seat_once_per_k_games() {
        for k in 1..=5usize {
            let specs = vec!["random"; k];
            let lineup = Lineup::new(&specs).unwrap();
            for players in 1..=4usize {
                for start in [0u64, 3, 1000, u64::MAX - 20] {
                    let mut count = vec![vec![0; players]; k];
                    for g in start..start + k as u64 {
                        for s in 0..players {
                            count[lineup.entry_for(g, s)][s] += 1;
                        }
                    }
                    assert!(
                        count.iter().flatten().all(|&c| c == 1),
                        "k={k} players={players} start={start}: {count:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn rotation_examples() {
        let l = Lineup::new(&["random", "greedy"]).unwrap();
        let seats = |g| (0..4).map(|s| l.entry_for(g, s)).collect::<Vec<_>>();
        assert_eq!(seats(0), [0, 1, 0, 1]);
        assert_eq!(seats(1), [1, 0, 1, 0]);
        let l3 = Lineup::new(&["random", "greedy", "random:"]).unwrap();
        assert_eq!(l3.entry_for(0, 0), 0);
        assert_eq!(l3.entry_for(2, 1), 0);
        assert!(l3.is_balanced(9) && !l3.is_balanced(10));
    }

    #[test]
    fn lineup_canonicalizes_and_merges_repeats() {
        let l = Lineup::new(&["greedy", "random", "greedy:samples=4"]).unwrap();
        assert_eq!(
            l.entries(),
            ["greedy:samples=4", "random", "greedy:samples=4"]
        );
        assert_eq!(l.distinct(), ["greedy:samples=4", "random"]);
        assert_eq!(
            (l.distinct_of(0), l.distinct_of(1), l.distinct_of(2)),
            (0, 1, 0)
        );
        assert!(Lineup::new::<&str>(&[]).is_err());
        let e = Lineup::new(&["random", "alphago"]).unwrap_err().to_string();
        assert!(e.contains("alphago") && e.contains("greedy"), "{e}");
    }

    #[test]
    fn agent_lists_split_at_agent_boundaries() {
        assert_eq!(split_agent_list("greedy,random"), ["greedy", "random"]);
        assert_eq!(
            split_agent_list("mcts:iters=100,c=1.4, random ,greedy:samples=2"),
            ["mcts:iters=100,c=1.4", "random", "greedy:samples=2"]
        );
        assert_eq!(split_agent_list("greedy,samples=2"), ["greedy:samples=2"]);
        assert_eq!(split_agent_list(" ,random,,"), ["random"]);
        assert!(split_agent_list("").is_empty());
    }
}
