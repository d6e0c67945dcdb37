//! Per-game records and the `games.csv` writer.
//!
//! `games.csv` is tidy: one row per (game, seat), rows in game-index order then seat order.
//!
//! | column  | meaning |
//! |---------|---------|
//! | `game`  | game index, `0..n` |
//! | `seed`  | the game's chance seed, `seed_for(master, game, 0)` (seat `s`'s agent uses stream `1 + s`) |
//! | `variant` | the rule variant: the parameters that differ from the defaults, `key=value` joined by `;`, or `default` ([`variant_label`]); `config.toml` has every parameter |
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
//! Rows are formatted by [`RowFormat`] on the worker threads: integers through a stack
//! buffer, constant strings (variant, agent specs) escaped once; no allocation per game.

use crate::game::{Game, PerPlayer};
use crate::params::ParamSet;

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

/// The `variant` column: the settings that differ from the defaults, `key=value` joined by
/// `;` in declaration order, or `default` when there are none. (Every parameter is spelled
/// out in `config.toml`; repeating all of them on every row would double the file size.)
pub fn variant_label<P: ParamSet>(params: &P) -> String {
    let defaults = P::default().values();
    let changed: Vec<String> = params
        .values()
        .into_iter()
        .zip(defaults)
        .filter(|(v, d)| v.1 != d.1)
        .map(|((k, v), _)| format!("{k}={v}"))
        .collect();
    if changed.is_empty() {
        "default".into()
    } else {
        changed.join(";")
    }
}

/// Appends the decimal form of `x` (no allocation beyond `out` growing).
fn push_u64(out: &mut Vec<u8>, mut x: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

fn push_i64(out: &mut Vec<u8>, x: i64) {
    if x < 0 {
        out.push(b'-');
    }
    push_u64(out, x.unsigned_abs());
}

/// Appends `field` as one CSV field (RFC 4180): quoted, with inner quotes doubled, if it
/// holds a comma, a quote, CR or LF; verbatim otherwise.
pub fn push_csv_field(out: &mut Vec<u8>, field: &str) {
    if field
        .bytes()
        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        out.push(b'"');
        for b in field.bytes() {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(field.as_bytes());
    }
}

/// Formats `games.csv` rows into a byte buffer. Built once per tournament, shared by the
/// worker threads, which format their games' rows in parallel.
///
/// The row schema is fixed and mostly numeric, so rows are formatted by hand: integers with
/// a stack buffer, the constant text fields (variant, agent specs) escaped once up front.
/// This keeps the per-game cost to a few hundred nanoseconds, which matters because the
/// writer is the one serial part of a run. The output is standard CSV (checked against the
/// `csv` crate's reader in the tests).
#[derive(Debug, Clone)]
pub struct RowFormat {
    variant: Vec<u8>,
    agents: Vec<Vec<u8>>,
}

impl RowFormat {
    /// A formatter for the rule variant `variant` (canonical form) and the lineup entries'
    /// canonical specs `agents`.
    pub fn new(variant: &str, agents: &[String]) -> Self {
        let escaped = |s: &str| {
            let mut v = Vec::new();
            push_csv_field(&mut v, s);
            v
        };
        RowFormat {
            variant: escaped(variant),
            agents: agents.iter().map(|a| escaped(a)).collect(),
        }
    }

    /// The header line, newline-terminated.
    pub fn header(&self) -> Vec<u8> {
        let mut v = GAMES_HEADER.join(",").into_bytes();
        v.push(b'\n');
        v
    }

    /// Appends the rows of one game, one per seat, each newline-terminated.
    pub fn write(&self, r: &GameRecord, out: &mut Vec<u8>) {
        let winners = r.winners();
        for seat in 0..r.players as usize {
            push_u64(out, r.index);
            out.push(b',');
            push_u64(out, r.seed);
            out.push(b',');
            out.extend_from_slice(&self.variant);
            out.push(b',');
            push_u64(out, seat as u64);
            out.push(b',');
            out.extend_from_slice(&self.agents[r.lineup[seat] as usize]);
            out.push(b',');
            push_i64(out, r.scores[seat] as i64);
            out.push(b',');
            push_u64(out, r.ranks[seat] as u64);
            let first = r.ranks[seat] == 1;
            out.extend_from_slice(match (first, winners == 1) {
                (true, true) => b",1,0,",
                (true, false) => b",0,1,",
                _ => b",0,0,",
            });
            push_u64(out, r.plies as u64);
            out.push(b',');
            push_u64(out, r.rounds as u64);
            out.push(b',');
            push_csv_field(out, r.end);
            out.push(b'\n');
        }
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
        let f = RowFormat::new("a=1;b=x", &["random".into(), "mcts:iters=10,c=1.4".into()]);
        let mut out = f.header();
        f.write(&record(), &mut out);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "game,seed,variant,seat,agent,score,rank,won,draw,plies,rounds,end\n\
             7,12345678901234567890,a=1;b=x,0,\"mcts:iters=10,c=1.4\",5,1,0,1,40,9,deck_exhausted\n\
             7,12345678901234567890,a=1;b=x,1,random,-12,3,0,0,40,9,deck_exhausted\n\
             7,12345678901234567890,a=1;b=x,2,\"mcts:iters=10,c=1.4\",5,1,0,1,40,9,deck_exhausted\n"
        );
    }

    #[test]
    fn rows_read_back_with_the_csv_crate() {
        let tricky = "say \"hi\", then\nleave";
        let f = RowFormat::new(tricky, &["random".into()]);
        let mut r = record();
        r.lineup = [0; 4];
        r.end = "end,\"odd\"";
        let mut out = f.header();
        f.write(&r, &mut out);
        let mut rd = csv::Reader::from_reader(out.as_slice());
        let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 3);
        for (seat, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), GAMES_HEADER.len());
            assert_eq!(&row[2], tricky);
            assert_eq!(&row[3], seat.to_string());
            assert_eq!(&row[5], r.scores[seat].to_string());
            assert_eq!(&row[11], r.end);
        }
    }

    #[test]
    fn variant_label_lists_changed_settings() {
        use crate::games::daxu;
        let d = daxu::Params::default();
        assert_eq!(variant_label(&d), "default");
        let p = daxu::Params::from_settings(&["tiebreak_mode=holder_receives"], "t").unwrap();
        assert_eq!(variant_label(&p), "tiebreak_mode=holder_receives");
    }

    #[test]
    fn integers_format_like_display() {
        for x in [0i64, 1, -1, 9, 10, -10, 123456789, i64::MIN, i64::MAX] {
            let mut v = Vec::new();
            push_i64(&mut v, x);
            assert_eq!(v, x.to_string().as_bytes());
        }
        let mut v = Vec::new();
        push_u64(&mut v, u64::MAX);
        assert_eq!(v, u64::MAX.to_string().as_bytes());
    }
}
