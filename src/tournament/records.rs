//! Per-game records and the `games.csv` writer.
//!
//! `games.csv` is tidy: one row per (game, seat), rows in game-index order then seat order.
//!
//! | column  | meaning |
//! |---------|---------|
//! | `game`  | game index, `0..n` |
//! | `seed`  | the game's chance seed, `seed_for(master, game, 0)` (seat `s`'s agent uses stream `1 + s`) |
//! | `variant` | the rule variant, canonical form: every parameter as `key=value`, joined by `;` (empty if the game has none) |
//! | `seat`  | seat index, `0..players` (seat 0 moves first where the rules say so) |
//! | `agent` | the agent's canonical spec with every parameter (`greedy:samples=4`) |
//! | `score` | the rulebook points at the end |
//! | `rank`  | final rank after the rulebook's tie-breaks, 1 = best; tied seats share a rank |
//! | `won`   | 1 if this seat alone has rank 1, else 0 |
//! | `draw`  | 1 if this seat shares rank 1 with another seat, else 0 |
//! | `plies` | plies played (one ply = one move, or one joint move at a simultaneous node) |
//! | `rounds`| rounds played, in the rulebook's sense |
//! | `end`   | why the game ended (the game's end condition, e.g. `deck_exhausted`) |
//!
//! Writing a row formats integers into a stack buffer and copies the constant strings
//! (variant, agent specs): no allocation per game.

use std::io::Write;

use crate::game::{Game, PerPlayer};

/// The `games.csv` header.
pub const GAMES_HEADER: [&str; 12] = [
    "game", "seed", "variant", "seat", "agent", "score", "rank", "won", "draw", "plies", "rounds",
    "end",
];

/// The outcome of one game: a small `Copy` value, all the runner keeps of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Game index, `0..n`.
    pub index: u64,
    /// The game's chance seed, `seed_for(master, index, 0)`.
    pub seed: u64,
    /// Number of seats.
    pub players: u8,
    /// The lineup entry playing each seat (see [`super::plan::Lineup::entry_for`]).
    pub lineup: PerPlayer<u8>,
    /// Final rulebook points per seat.
    pub scores: PerPlayer<i32>,
    /// Final ranks per seat, 1 = best.
    pub ranks: PerPlayer<u8>,
    /// Plies played.
    pub plies: u32,
    /// Rounds played.
    pub rounds: u32,
    /// The end condition.
    pub end: &'static str,
}

impl GameRecord {
    /// Reads the outcome of the terminal state `state` of game `index`.
    pub fn from_terminal<G: Game>(state: &G, index: u64, seed: u64, lineup: PerPlayer<u8>) -> Self {
        GameRecord {
            index,
            seed,
            players: state.num_players() as u8,
            lineup,
            scores: state.scores(),
            ranks: state.ranks(),
            plies: state.ply(),
            rounds: state.round(),
            end: state.end_condition(),
        }
    }

    /// How many seats share rank 1.
    pub fn winners(&self) -> usize {
        self.ranks[..self.players as usize]
            .iter()
            .filter(|&&r| r == 1)
            .count()
    }

    /// Whether `seat` won alone.
    pub fn won(&self, seat: usize) -> bool {
        self.ranks[seat] == 1 && self.winners() == 1
    }

    /// Whether `seat` shares first place with another seat.
    pub fn drew(&self, seat: usize) -> bool {
        self.ranks[seat] == 1 && self.winners() > 1
    }

    /// `seat`'s score minus the best score among the other seats (0 in a one-seat game).
    pub fn margin(&self, seat: usize) -> i64 {
        let best_other = (0..self.players as usize)
            .filter(|&q| q != seat)
            .map(|q| self.scores[q])
            .max();
        best_other.map_or(0, |b| self.scores[seat] as i64 - b as i64)
    }
}

/// Formats an integer into a stack buffer (decimal, no allocation).
struct IntBuf {
    buf: [u8; 24],
}

impl IntBuf {
    fn new() -> Self {
        IntBuf { buf: [0; 24] }
    }

    fn fmt_u64(&mut self, mut x: u64) -> &[u8] {
        let mut i = self.buf.len();
        loop {
            i -= 1;
            self.buf[i] = b'0' + (x % 10) as u8;
            x /= 10;
            if x == 0 {
                break;
            }
        }
        &self.buf[i..]
    }

    fn fmt_i64(&mut self, x: i64) -> &[u8] {
        if x >= 0 {
            return self.fmt_u64(x as u64);
        }
        let len = self.fmt_u64(x.unsigned_abs()).len();
        let start = self.buf.len() - len - 1;
        self.buf[start] = b'-';
        &self.buf[start..]
    }
}

/// Streams `games.csv` rows.
pub struct GamesWriter<W: Write> {
    csv: csv::Writer<W>,
    variant: String,
    agents: Vec<String>,
    num: IntBuf,
}

impl<W: Write> GamesWriter<W> {
    /// Wraps `out` (the csv writer buffers 64 KiB itself, so `out` may be a bare `File`)
    /// and writes the header. `agents` are the canonical specs of the lineup entries.
    ///
    /// # Errors
    /// The I/O error of writing the header.
    pub fn new(out: W, variant: String, agents: Vec<String>) -> csv::Result<Self> {
        let mut csv = csv::WriterBuilder::new()
            .buffer_capacity(1 << 16)
            .from_writer(out);
        csv.write_record(GAMES_HEADER)?;
        Ok(GamesWriter {
            csv,
            variant,
            agents,
            num: IntBuf::new(),
        })
    }

    /// Writes the rows of one game, one per seat.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write(&mut self, r: &GameRecord) -> csv::Result<()> {
        let winners = r.winners();
        for seat in 0..r.players as usize {
            let w = &mut self.csv;
            w.write_field(self.num.fmt_u64(r.index))?;
            w.write_field(self.num.fmt_u64(r.seed))?;
            w.write_field(&self.variant)?;
            w.write_field(self.num.fmt_u64(seat as u64))?;
            w.write_field(&self.agents[r.lineup[seat] as usize])?;
            w.write_field(self.num.fmt_i64(r.scores[seat] as i64))?;
            w.write_field(self.num.fmt_u64(r.ranks[seat] as u64))?;
            let first = r.ranks[seat] == 1;
            w.write_field(if first && winners == 1 { "1" } else { "0" })?;
            w.write_field(if first && winners > 1 { "1" } else { "0" })?;
            w.write_field(self.num.fmt_u64(r.plies as u64))?;
            w.write_field(self.num.fmt_u64(r.rounds as u64))?;
            w.write_field(r.end)?;
            w.write_record(None::<&[u8]>)?;
        }
        Ok(())
    }

    /// Flushes and returns the inner writer.
    ///
    /// # Errors
    /// The I/O error of the final flush.
    pub fn finish(self) -> std::io::Result<W> {
        self.csv.into_inner().map_err(|e| {
            let kind = e.error().kind();
            std::io::Error::new(kind, e.error().to_string())
        })
    }
}

/// The largest lineup: [`GameRecord::lineup`] stores entries as `u8`.
pub const MAX_LINEUP: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            index: 7,
            seed: 12345678901234567890,
            players: 3,
            lineup: [1, 0, 1, 0],
            scores: [5, -12, 5, 0],
            ranks: [1, 3, 1, 0],
            plies: 40,
            rounds: 9,
            end: "deck_exhausted",
        }
    }

    #[test]
    fn outcomes_per_seat() {
        let r = record();
        assert_eq!(r.winners(), 2);
        assert!(!r.won(0) && r.drew(0) && r.drew(2) && !r.drew(1) && !r.won(1));
        assert_eq!((r.margin(0), r.margin(1), r.margin(2)), (0, -17, 0));
        let mut solo = r;
        solo.ranks = [2, 3, 1, 0];
        solo.scores = [4, -12, 5, 0];
        assert!(solo.won(2) && !solo.drew(2));
        assert_eq!(solo.margin(2), 1);
    }

    #[test]
    fn rows_are_tidy_and_quoted_when_needed() {
        let mut w = GamesWriter::new(
            Vec::new(),
            "a=1;b=x".into(),
            vec!["random".into(), "mcts:iters=10,c=1.4".into()],
        )
        .unwrap();
        w.write(&record()).unwrap();
        let text = String::from_utf8(w.finish().unwrap()).unwrap();
        assert_eq!(
            text,
            "game,seed,variant,seat,agent,score,rank,won,draw,plies,rounds,end\n\
             7,12345678901234567890,a=1;b=x,0,\"mcts:iters=10,c=1.4\",5,1,0,1,40,9,deck_exhausted\n\
             7,12345678901234567890,a=1;b=x,1,random,-12,3,0,0,40,9,deck_exhausted\n\
             7,12345678901234567890,a=1;b=x,2,\"mcts:iters=10,c=1.4\",5,1,0,1,40,9,deck_exhausted\n"
        );
    }

    #[test]
    fn integers_format_like_display() {
        let mut b = IntBuf::new();
        for x in [0i64, 1, -1, 9, 10, -10, 123456789, i64::MIN, i64::MAX] {
            assert_eq!(b.fmt_i64(x), x.to_string().as_bytes());
        }
        assert_eq!(b.fmt_u64(u64::MAX), u64::MAX.to_string().as_bytes());
    }
}
