//! Per-game records and the `games.csv` writer.
//!
//! `games.csv` is tidy: one row per (game, seat), rows in game-index order then seat order.
//!
//! | column  | meaning |
//! |---------|---------|
//! | `game`  | game index, `0..n` |
//! | `seed`  | the game's chance seed, `seed_for(master, game, 0)` (with `--paired`, `seed_for(master, game / B, 0)`: the games of a deal share it; seat `s`'s agent uses stream `1 + s`) |
//! | `variant` | the rule variant's label: `default`, or `v` + 8 hex digits ([`variant_label`]); its settings are in `variants.csv` and `config.toml` |
//! | `seat`  | seat index, `0..players` (seat 0 moves first where the rules say so) |
//! | `agent` | the agent's label: its kind, numbered when two specs share a kind (`mcts#1`, `mcts#2`) ([`agent_labels`]); its full spec is in `agents.csv` and `config.toml` |
//! | `score` | the rulebook points at the end |
//! | `rank`  | final rank after the rulebook's tie-breaks, 1 = best; tied seats share a rank |
//! | `won`   | 1 if this seat alone has rank 1, else 0 |
//! | `draw`  | 1 if this seat shares rank 1 with another seat, else 0 |
//! | `plies` | plies played (one ply = one move, or one joint move at a simultaneous node) |
//! | `rounds`| rounds played, in the rulebook's sense |
//! | `end`   | why the game ended (the game's end condition, e.g. `deck_exhausted`) |
//!
//! Labels instead of full settings keep every row short: the file is the bulk of a run's
//! output and its writer the one serial part of a run. No label needs CSV quoting, so a
//! row can be split at commas. Beside it, `agents.csv` ([`write_agents_csv`]) maps each
//! agent label to its canonical spec and `variants.csv` ([`write_variants_csv`]) lists
//! every rule parameter of the variant, one CSV field per value (Daxu's `deck` may hold
//! `;` and `/`), so no value is ever split on a separator of ours.
//!
//! Rows are formatted by [`RowFormat`] on the worker threads: integers through a stack
//! buffer, constant strings (labels) escaped once; no allocation per game.

use crate::game::{Column, Labels, MAX_PLAYERS, Metrics, PerSeat, Playable};
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
    pub lineup: PerSeat<u8>,
    /// Final rulebook points per seat.
    pub scores: PerSeat<i32>,
    /// Final ranks per seat, 1 = best.
    pub ranks: PerSeat<u8>,
    /// Plies played.
    pub plies: u32,
    /// Rounds played.
    pub rounds: u32,
    /// The end condition.
    pub end: &'static str,
    /// The game's metrics ([`Measured::metrics`](crate::game::Measured::metrics)).
    pub metrics: Metrics,
    /// The game's labels ([`Measured::labels`](crate::game::Measured::labels)).
    pub labels: Labels,
}

impl GameRecord {
    /// Reads the outcome of the terminal state `state` of game `index`.
    pub fn from_terminal<G: Playable>(
        state: &G,
        index: u64,
        seed: u64,
        lineup: PerSeat<u8>,
    ) -> Self {
        let (scores, ranks) = state.scores_and_ranks();
        GameRecord {
            index,
            seed,
            players: state.num_players() as u8,
            lineup,
            scores,
            ranks,
            plies: state.ply(),
            rounds: state.round(),
            end: state.end_condition(),
            metrics: {
                let mut m = Metrics::default();
                state.metrics(&mut m);
                m
            },
            labels: {
                let mut l = Labels::default();
                state.labels(&mut l);
                l
            },
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

/// The label of a rule variant, for the `variant` column of `games.csv`: `default` when
/// every parameter has its default value, otherwise `v` and 8 hex digits of a hash of the
/// canonical settings (every parameter, `key=value`, one per line, in declaration order):
/// FNV-1a, 64 bits, folded to 32. The label is short, has no character that needs CSV
/// quoting, and does not change between runs or versions as long as the settings and the
/// game's parameter list do not, so `games.csv` files of runs with different variants can be
/// concatenated and told apart. The settings themselves are in `variants.csv` and
/// `config.toml` ([`write_variants_csv`]).
pub fn variant_label<P: ParamSet>(params: &P) -> String {
    if *params == P::default() {
        return "default".into();
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (k, v) in params.values() {
        for b in k.bytes().chain([b'=']).chain(v.bytes()).chain([b'\n']) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("v{:08x}", (h ^ (h >> 32)) as u32)
}

/// Short labels for agents given by their canonical specs (the distinct agents of a
/// lineup, in order of first appearance), for the `agent` column of every tournament file:
/// the agent's kind (`greedy`, `mcts`) when no other spec has that kind, otherwise the kind
/// numbered in order of first appearance (`mcts#1`, `mcts#2`), so a bare kind always means
/// the only agent of its kind. The full specs are in `agents.csv` and `config.toml`
/// ([`write_agents_csv`]). Labels are distinct when the specs are, and contain no character
/// that needs CSV quoting (kinds are plain words).
pub fn agent_labels<S: AsRef<str>>(specs: &[S]) -> Vec<String> {
    let kind = |s: &S| -> String {
        let s = s.as_ref();
        s.split_once(':').map_or(s, |(k, _)| k).trim().to_string()
    };
    let kinds: Vec<String> = specs.iter().map(kind).collect();
    let mut labels = Vec::with_capacity(specs.len());
    for (i, k) in kinds.iter().enumerate() {
        let total = kinds.iter().filter(|x| *x == k).count();
        if total == 1 {
            labels.push(k.clone());
        } else {
            let nth = kinds[..=i].iter().filter(|x| *x == k).count();
            labels.push(format!("{k}#{nth}"));
        }
    }
    labels
}

/// The `agents.csv` header.
pub const AGENTS_HEADER: [&str; 2] = ["agent", "spec"];

/// Writes `agents.csv`: one row per distinct agent, `agent,spec`: the label used in the
/// other files and the canonical spec with every parameter (quoted as CSV needs: specs hold
/// commas).
///
/// # Errors
/// The I/O error of writing.
pub fn write_agents_csv(
    out: &mut dyn std::io::Write,
    labels: &[String],
    specs: &[String],
) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(AGENTS_HEADER)?;
    for (l, s) in labels.iter().zip(specs) {
        w.write_record([l, s])?;
    }
    w.flush()
}

/// The `variants.csv` header.
pub const VARIANTS_HEADER: [&str; 4] = ["variant", "parameter", "value", "default"];

/// Writes `variants.csv`: one row per rule parameter of the variant labelled `label`,
/// `variant,parameter,value,default`, in declaration order: the parameter's value in this
/// run and its default, each one CSV field (quoted when it holds a comma or a quote; any
/// other character, `;` included, is kept verbatim), so values need no further decoding.
///
/// # Errors
/// The I/O error of writing.
pub fn write_variants_csv<P: ParamSet>(
    out: &mut dyn std::io::Write,
    label: &str,
    params: &P,
) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(VARIANTS_HEADER)?;
    // Defaults by key: a parameter hidden at its default ([`crate::params::ParamValue::
    // hidden_at_default`]) is listed only when set, so the two lists need not align.
    let info = P::info();
    for (k, v) in params.values() {
        let d = info.iter().find(|i| i.name == k).map_or("", |i| &i.default);
        w.write_record([label, k, &v, d])?;
    }
    w.flush()
}

/// Writes the decimal form of `x` at `buf[at..]` (formatted by the `itoa` crate) and
/// returns the position after it.
///
/// # Panics
/// If `buf` is too short.
#[inline(always)]
fn put_u64(buf: &mut [u8], at: usize, x: u64) -> usize {
    // Most fields (ranks, flags, counts) are below 100: written in place, which saves the
    // variable-length copy out of itoa's buffer (a `memcpy` call per field).
    if x < 10 {
        buf[at] = b'0' + x as u8;
        return at + 1;
    }
    if x < 100 {
        buf[at] = b'0' + (x / 10) as u8;
        buf[at + 1] = b'0' + (x % 10) as u8;
        return at + 2;
    }
    let mut b = itoa::Buffer::new();
    let digits = b.format(x).as_bytes();
    buf[at..at + digits.len()].copy_from_slice(digits);
    at + digits.len()
}

/// [`put_u64`] for a signed `x`, with a `-` when negative.
#[inline(always)]
fn put_i64(buf: &mut [u8], at: usize, x: i64) -> usize {
    if (0..100).contains(&x) {
        return put_u64(buf, at, x as u64);
    }
    let mut b = itoa::Buffer::new();
    let digits = b.format(x).as_bytes();
    buf[at..at + digits.len()].copy_from_slice(digits);
    at + digits.len()
}

/// Appends the decimal form of `x` (no allocation beyond `out` growing).
fn push_u64(out: &mut Vec<u8>, x: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(x).as_bytes());
}

/// Appends the decimal form of `x`, with a `-` when negative.
fn push_i64(out: &mut Vec<u8>, x: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(x).as_bytes());
}

/// Whether `field` must be quoted in CSV (RFC 4180).
fn needs_quotes(field: &[u8]) -> bool {
    field
        .iter()
        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
}

/// Appends `field` as one CSV field (RFC 4180): quoted, with inner quotes doubled, if it
/// holds a comma, a quote, CR or LF; verbatim otherwise.
pub fn push_csv_field(out: &mut Vec<u8>, field: &str) {
    if needs_quotes(field.as_bytes()) {
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

/// The fixed size of the precomputed pieces of a row on the fast path: short labels fit.
const SLOT: usize = 32;

/// Formats `games.csv` rows into a byte buffer. Built once per tournament, shared by the
/// worker threads, which format their games' rows in parallel.
///
/// The row schema is fixed and mostly numeric, so rows are formatted by hand: formatting
/// and writing rows is most of a fast game's overhead (a Daxu random game takes about a
/// microsecond). `variant,seat,agent,` is precomputed for every seat and lineup entry; the
/// parts shared by a game's rows (`game,seed,` and `,plies,rounds,end`) are formatted once
/// per game; integers are formatted by the `itoa` crate; and when the labels fit in 32
/// bytes (short labels always do) every piece is copied with a fixed-size copy into one
/// stack buffer, so a row costs one `memcpy` into `out`. Longer labels take a general path with
/// the same output. The output is standard CSV (checked against the `csv` crate's reader
/// in the tests).
#[derive(Debug, Clone)]
pub struct RowFormat {
    /// The game's metric and label columns, appended after `end`.
    columns: Columns,
    /// `variant,seat,agent,` for seat `s` and lineup entry `e` at `s * entries + e`.
    middles: Vec<Vec<u8>>,
    /// The same, zero-padded to [`SLOT`] bytes, with their lengths; empty if one is longer.
    slots: Vec<([u8; SLOT], usize)>,
    entries: usize,
}

impl RowFormat {
    /// A formatter for the variant label `variant` ([`variant_label`]) and the agent label
    /// of each lineup entry, `agents[entry]` ([`agent_labels`]).
    pub fn new(variant: &str, agents: &[String]) -> Self {
        let mut middles = Vec::with_capacity(MAX_PLAYERS * agents.len());
        for seat in 0..MAX_PLAYERS {
            for a in agents {
                let mut m = Vec::new();
                push_csv_field(&mut m, variant);
                m.push(b',');
                push_u64(&mut m, seat as u64);
                m.push(b',');
                push_csv_field(&mut m, a);
                m.push(b',');
                middles.push(m);
            }
        }
        let slots = if middles.iter().all(|m| m.len() <= SLOT) {
            middles
                .iter()
                .map(|m| {
                    let mut slot = [0u8; SLOT];
                    slot[..m.len()].copy_from_slice(m);
                    (slot, m.len())
                })
                .collect()
        } else {
            Vec::new()
        };
        RowFormat {
            columns: Columns::default(),
            middles,
            slots,
            entries: agents.len(),
        }
    }

    /// The same formatter with the game's metric and label columns after `end`.
    pub fn with_columns(mut self, columns: Columns) -> Self {
        self.columns = columns;
        self
    }

    /// The header line, newline-terminated.
    pub fn header(&self) -> Vec<u8> {
        let mut v = GAMES_HEADER.join(",").into_bytes();
        for name in self.columns.names() {
            v.push(b',');
            push_csv_field(&mut v, name);
        }
        v.push(b'\n');
        v
    }

    /// Appends `,metric...,label...` of `seat` (no newline), for the general path.
    fn write_extras(&self, r: &GameRecord, seat: usize, out: &mut Vec<u8>) {
        let c = &self.columns;
        for &m in &r.metrics.seat[seat][..c.seat_metrics.len()] {
            out.push(b',');
            push_i64(out, m as i64);
        }
        for &m in &r.metrics.game[..c.game_metrics.len()] {
            out.push(b',');
            push_i64(out, m as i64);
        }
        for l in &r.labels.seat[seat][..c.seat_labels.len()] {
            out.push(b',');
            push_csv_field(out, l);
        }
        for l in &r.labels.game[..c.game_labels.len()] {
            out.push(b',');
            push_csv_field(out, l);
        }
    }

    /// Whether the game's labels and end condition fit the fast path: at most [`SLOT`]
    /// bytes each and nothing to quote.
    fn fits_fast_path(&self, r: &GameRecord) -> bool {
        let c = &self.columns;
        let fits = |l: &str| l.len() <= SLOT && !needs_quotes(l.as_bytes());
        !self.slots.is_empty()
            && fits(r.end)
            && r.labels.game[..c.game_labels.len()].iter().all(|l| fits(l))
            && r.labels.seat[..r.players as usize]
                .iter()
                .all(|ls| ls[..c.seat_labels.len()].iter().all(|l| fits(l)))
    }

    /// Appends the rows of one game, one per seat, each newline-terminated.
    pub fn write(&self, r: &GameRecord, out: &mut Vec<u8>) {
        if !self.fits_fast_path(r) {
            return self.write_general(r, out);
        }
        let c = &self.columns;
        let end = r.end.as_bytes();
        // Shared by the rows: `game,seed,` (at most 42 bytes) and `,plies,rounds,end`
        // (at most 23 + 32 bytes), then the game metrics (at most 12 * 12 bytes) and the
        // game labels (at most 4 * 33 bytes), formatted once per game.
        let mut head = [0u8; 48];
        let mut h = put_u64(&mut head, 0, r.index);
        head[h] = b',';
        h = put_u64(&mut head, h + 1, r.seed);
        head[h] = b',';
        h += 1;
        let mut tail = [0u8; 64];
        tail[0] = b',';
        let mut t = put_u64(&mut tail, 1, r.plies as u64);
        tail[t] = b',';
        t = put_u64(&mut tail, t + 1, r.rounds as u64);
        tail[t] = b',';
        tail[t + 1..t + 1 + end.len()].copy_from_slice(end);
        t += 1 + end.len();
        let mut game_metrics = [0u8; 160];
        let mut gm = 0;
        for &m in &r.metrics.game[..c.game_metrics.len()] {
            game_metrics[gm] = b',';
            gm = put_i64(&mut game_metrics, gm + 1, m as i64);
        }
        let mut game_labels = [0u8; 160];
        let mut gl = 0;
        for l in &r.labels.game[..c.game_labels.len()] {
            game_labels[gl] = b',';
            gl += 1;
            game_labels[gl..gl + l.len()].copy_from_slice(l.as_bytes());
            gl += l.len();
        }
        // One row is at most 48 + 32 + 17 + 55 + 144 + 144 + 132 + 132 + 1 bytes; the
        // fixed-size copies below may write up to 160 bytes past the row's end.
        let mut row = [0u8; 1024];
        let winners = r.winners();
        for seat in 0..r.players as usize {
            row[..48].copy_from_slice(&head);
            let mut p = h;
            let (slot, len) = &self.slots[seat * self.entries + r.lineup[seat] as usize];
            row[p..p + SLOT].copy_from_slice(slot);
            p += len;
            p = put_i64(&mut row, p, r.scores[seat] as i64);
            row[p] = b',';
            p = put_u64(&mut row, p + 1, r.ranks[seat] as u64);
            row[p..p + 4].copy_from_slice(match (r.ranks[seat] == 1, winners == 1) {
                (true, true) => b",1,0",
                (true, false) => b",0,1",
                _ => b",0,0",
            });
            p += 4;
            row[p..p + 64].copy_from_slice(&tail);
            p += t;
            for &m in &r.metrics.seat[seat][..c.seat_metrics.len()] {
                row[p] = b',';
                p = put_i64(&mut row, p + 1, m as i64);
            }
            row[p..p + 160].copy_from_slice(&game_metrics);
            p += gm;
            for l in &r.labels.seat[seat][..c.seat_labels.len()] {
                row[p] = b',';
                p += 1;
                row[p..p + l.len()].copy_from_slice(l.as_bytes());
                p += l.len();
            }
            row[p..p + 160].copy_from_slice(&game_labels);
            p += gl;
            row[p] = b'\n';
            out.extend_from_slice(&row[..p + 1]);
        }
    }

    /// [`RowFormat::write`] for any labels and end condition.
    fn write_general(&self, r: &GameRecord, out: &mut Vec<u8>) {
        let winners = r.winners();
        for seat in 0..r.players as usize {
            push_u64(out, r.index);
            out.push(b',');
            push_u64(out, r.seed);
            out.push(b',');
            out.extend_from_slice(&self.middles[seat * self.entries + r.lineup[seat] as usize]);
            push_i64(out, r.scores[seat] as i64);
            out.push(b',');
            push_u64(out, r.ranks[seat] as u64);
            out.extend_from_slice(match (r.ranks[seat] == 1, winners == 1) {
                (true, true) => b",1,0,",
                (true, false) => b",0,1,",
                _ => b",0,0,",
            });
            push_u64(out, r.plies as u64);
            out.push(b',');
            push_u64(out, r.rounds as u64);
            out.push(b',');
            push_csv_field(out, r.end);
            self.write_extras(r, seat, out);
            out.push(b'\n');
        }
    }
}

/// The game-specific columns of `games.csv`: per-seat metrics, per-game metrics, per-seat
/// labels, per-game labels, in that order after `end` ([`Measured::SEAT_METRICS`](crate::game::Measured::SEAT_METRICS) and the
/// others). A per-game value is repeated on each of the game's rows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Columns {
    /// Per-seat metric names.
    pub seat_metrics: Vec<&'static str>,
    /// Per-game metric names.
    pub game_metrics: Vec<&'static str>,
    /// Per-seat label names.
    pub seat_labels: Vec<&'static str>,
    /// Per-game label names.
    pub game_labels: Vec<&'static str>,
}

impl Columns {
    /// The columns game `G` declares.
    ///
    /// # Panics
    /// If `G` declares more than [`crate::game::MAX_METRICS`] metrics or
    /// [`crate::game::MAX_LABELS`] labels of a kind (a bug caught by its tests).
    pub fn of<G: Playable>() -> Self {
        let names = |c: &'static [Column], max: usize| {
            assert!(c.len() <= max, "{} declares too many columns", G::NAME);
            c.iter().map(|c| c.name).collect::<Vec<_>>()
        };
        Columns {
            seat_metrics: names(G::SEAT_METRICS, crate::game::MAX_METRICS),
            game_metrics: names(G::GAME_METRICS, crate::game::MAX_METRICS),
            seat_labels: names(G::SEAT_LABELS, crate::game::MAX_LABELS),
            game_labels: names(G::GAME_LABELS, crate::game::MAX_LABELS),
        }
    }

    /// Whether there are no game-specific columns.
    pub fn is_empty(&self) -> bool {
        self.names().next().is_none()
    }

    /// The column names in file order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.seat_metrics
            .iter()
            .chain(&self.game_metrics)
            .chain(&self.seat_labels)
            .chain(&self.game_labels)
            .copied()
    }
}

/// The largest lineup: [`GameRecord::lineup`] stores entries as `u8`.
pub const MAX_LINEUP: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MAX_LABELS, MAX_METRICS};

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
            metrics: Metrics::default(),
            labels: Labels::default(),
        }
    }

    #[test]
    fn metric_and_label_columns_follow_end_on_both_paths() {
        let mut r = record();
        r.metrics.seat[0][..2].copy_from_slice(&[3, -4]);
        r.metrics.seat[1][..2].copy_from_slice(&[0, 7]);
        r.metrics.game[0] = 1;
        r.labels.seat[2][0] = "crane, clan";
        r.labels.game[0] = "layout_a";
        let columns = Columns {
            seat_metrics: vec!["gives", "delta"],
            game_metrics: vec!["ties"],
            seat_labels: vec!["clan"],
            game_labels: vec!["layout"],
        };
        let short =
            RowFormat::new("default", &["a".into(), "b".into()]).with_columns(columns.clone());
        let long = RowFormat::new(
            "default",
            &vec!["a_label_much_longer_than_a_slot_of_32".to_string(); 2],
        )
        .with_columns(columns);
        assert!(
            String::from_utf8(short.header())
                .unwrap()
                .ends_with("end,gives,delta,ties,clan,layout\n")
        );
        for f in [&short, &long] {
            let mut out = Vec::new();
            f.write(&r, &mut out);
            let text = String::from_utf8(out).unwrap();
            let rows: Vec<&str> = text.lines().collect();
            assert_eq!(rows.len(), 3, "{text}");
            assert!(
                rows[0].ends_with(",deck_exhausted,3,-4,1,,layout_a"),
                "{text}"
            );
            assert!(
                rows[1].ends_with(",deck_exhausted,0,7,1,,layout_a"),
                "{text}"
            );
            assert!(
                rows[2].ends_with(",deck_exhausted,0,0,1,\"crane, clan\",layout_a"),
                "{text}"
            );
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
        let f = RowFormat::new("v0a1b2c3d", &["random".into(), "mcts,odd".into()]);
        let mut out = f.header();
        f.write(&record(), &mut out);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "game,seed,variant,seat,agent,score,rank,won,draw,plies,rounds,end\n\
             7,12345678901234567890,v0a1b2c3d,0,\"mcts,odd\",5,1,0,1,40,9,deck_exhausted\n\
             7,12345678901234567890,v0a1b2c3d,1,random,-12,3,0,0,40,9,deck_exhausted\n\
             7,12345678901234567890,v0a1b2c3d,2,\"mcts,odd\",5,1,0,1,40,9,deck_exhausted\n"
        );
    }

    #[test]
    fn the_fast_path_writes_what_the_general_path_writes() {
        let f = RowFormat::new("default", &["random".into(), "mcts#2".into()]);
        assert!(!f.slots.is_empty(), "short labels take the fast path");
        let mut r = crate::rng::test_rng(4);
        use rand::RngExt;
        for i in 0..2000u64 {
            let mut rec = record();
            rec.index = i * 7919 + (i % 3) * (u64::MAX / 3);
            rec.seed = rand::Rng::next_u64(&mut r) >> r.random_range(0..64);
            rec.players = r.random_range(1..=4);
            for s in 0..4 {
                rec.lineup[s] = r.random_range(0..2);
                rec.scores[s] = r.random_range(-1_000_000..1_000_000) >> r.random_range(0..20);
                rec.ranks[s] = r.random_range(1..=4);
            }
            rec.scores[0] = [i32::MIN, i32::MAX, 0, -1][i as usize % 4];
            rec.plies = rand::Rng::next_u32(&mut r) >> r.random_range(0..32);
            rec.rounds = rand::Rng::next_u32(&mut r) >> r.random_range(0..32);
            rec.end = [
                "deck_exhausted",
                "x",
                "",
                "an_end_condition_of_32_bytes____",
            ][i as usize % 4];
            let (mut fast, mut general) = (Vec::new(), Vec::new());
            f.write(&rec, &mut fast);
            f.write_general(&rec, &mut general);
            assert_eq!(
                String::from_utf8(fast).unwrap(),
                String::from_utf8(general).unwrap()
            );
            // The most metric and label columns a game may declare, with extreme values
            // and labels up to a slot long (and some that must be quoted).
            const NAMES: [&str; 26] = [
                "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p",
                "q", "r", "s", "t", "u", "v", "w", "x", "y", "z",
            ];
            const LABELS: [&str; 5] = ["", "x", "tea", "a_label_of_exactly_32_bytes_____", "a,b"];
            let full = f.clone().with_columns(Columns {
                seat_metrics: NAMES[..MAX_METRICS].to_vec(),
                game_metrics: NAMES[..MAX_METRICS].to_vec(),
                seat_labels: NAMES[..MAX_LABELS].to_vec(),
                game_labels: NAMES[..MAX_LABELS].to_vec(),
            });
            for s in 0..MAX_PLAYERS {
                for m in 0..MAX_METRICS {
                    rec.metrics.seat[s][m] =
                        r.random_range(i32::MIN..=i32::MAX) >> r.random_range(0..32);
                }
                for l in 0..MAX_LABELS {
                    rec.labels.seat[s][l] =
                        LABELS[r.random_range(0..LABELS.len() - (i % 2) as usize)];
                }
            }
            for m in 0..MAX_METRICS {
                rec.metrics.game[m] =
                    [i32::MIN, i32::MAX, -1, r.random_range(-99..99)][(i as usize + m) % 4];
            }
            for l in 0..MAX_LABELS {
                rec.labels.game[l] = LABELS[r.random_range(0..LABELS.len() - (i % 2) as usize)];
            }
            let (mut fast, mut general) = (Vec::new(), Vec::new());
            full.write(&rec, &mut fast);
            full.write_general(&rec, &mut general);
            assert_eq!(
                String::from_utf8(fast).unwrap(),
                String::from_utf8(general).unwrap()
            );
        }
        // A label too long for a slot: the general path for every game.
        let long = RowFormat::new("default", &["a_label_much_longer_than_a_slot_of_32".into()]);
        assert!(long.slots.is_empty());
        let mut out = Vec::new();
        long.write(&record(), &mut out);
        assert!(
            String::from_utf8(out)
                .unwrap()
                .contains(",a_label_much_longer_than_a_slot_of_32,")
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
        // An end condition too long for the stack buffer takes the general path.
        let mut long = r;
        long.end = "an_end_condition_with_a_rather_long_name_that_does_not_fit_in_the_tail";
        long.index = u64::MAX;
        f.write(&long, &mut out);
        let mut rd = csv::Reader::from_reader(out.as_slice());
        let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 6);
        for (i, row) in rows.iter().enumerate() {
            let (rec, seat) = if i < 3 { (&r, i) } else { (&long, i - 3) };
            assert_eq!(row.len(), GAMES_HEADER.len());
            assert_eq!(&row[0], rec.index.to_string());
            assert_eq!(&row[1], rec.seed.to_string());
            assert_eq!(&row[2], tricky);
            assert_eq!(&row[3], seat.to_string());
            assert_eq!(&row[5], rec.scores[seat].to_string());
            assert_eq!(&row[9], rec.plies.to_string());
            assert_eq!(&row[11], rec.end);
        }
    }

    #[test]
    fn variant_labels_are_short_stable_and_distinct() {
        use crate::games::daxu;
        assert_eq!(variant_label(&daxu::Params::default()), "default");
        // Explicit defaults are the default variant.
        let p = daxu::Params::from_settings(&["deck=2/2/5"], "t").unwrap();
        assert_eq!(variant_label(&p), "default");
        let a = daxu::Params::from_settings(&["tiebreak_mode=holder_receives"], "t").unwrap();
        let la = variant_label(&a);
        assert!(
            la.len() == 9 && la.starts_with('v') && la[1..].bytes().all(|b| b.is_ascii_hexdigit()),
            "{la}"
        );
        // Pinned: the label of a setting never changes silently.
        assert_eq!(la, "vff9d3a3f");
        let b = daxu::Params::from_settings(&["deck=3/3/3"], "t").unwrap();
        assert_ne!(variant_label(&b), la);
        assert_eq!(
            variant_label(&daxu::Params::from_settings(&["deck=3/3/3"], "u").unwrap()),
            variant_label(&b)
        );
    }

    #[test]
    fn agent_labels_are_kinds_numbered_only_when_kinds_repeat() {
        assert_eq!(
            agent_labels(&["greedy:samples=4", "random"]),
            ["greedy", "random"]
        );
        assert_eq!(
            agent_labels(&[
                "mcts:iters=10,c=1",
                "random",
                "mcts:iters=20,c=1",
                "greedy:samples=2",
                "mcts:iters=30,c=1",
            ]),
            ["mcts#1", "random", "mcts#2", "greedy", "mcts#3"]
        );
        assert!(agent_labels::<&str>(&[]).is_empty());
    }

    #[test]
    fn side_tables_quote_what_needs_quoting() {
        use crate::games::daxu;
        let mut buf = Vec::new();
        write_agents_csv(
            &mut buf,
            &["mcts".into(), "random".into()],
            &["mcts:iters=10,c=1.4".into(), "random".into()],
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "agent,spec\nmcts,\"mcts:iters=10,c=1.4\"\nrandom,random\n"
        );
        // A deck of six triples holds commas: one quoted field, read back verbatim.
        let deck = "1/1/7,2/2/5,3/3/3,1/1/7,2/2/5,3/3/3";
        let p = daxu::Params::from_settings(&[format!("deck={deck}")], "t").unwrap();
        let label = variant_label(&p);
        let mut buf = Vec::new();
        write_variants_csv(&mut buf, &label, &p).unwrap();
        let mut rd = csv::Reader::from_reader(buf.as_slice());
        assert_eq!(rd.headers().unwrap(), VARIANTS_HEADER.as_slice());
        let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), p.values().len());
        let deck_row = rows.iter().find(|r| &r[1] == "deck").unwrap();
        assert_eq!(
            (&deck_row[0], &deck_row[2], &deck_row[3]),
            (label.as_str(), deck, "2/2/5")
        );
    }

    #[test]
    fn integers_format_like_display() {
        let mut r = crate::rng::test_rng(9);
        let mut xs = vec![
            0u64,
            9,
            10,
            99,
            100,
            999,
            1000,
            9999,
            10_000,
            10_001,
            u64::MAX,
        ];
        for p in 1..20 {
            let t = 10u64.pow(p);
            xs.extend([t - 1, t, t + 1]);
        }
        xs.extend(
            (0..1000).map(|_| rand::Rng::next_u64(&mut r) >> (rand::Rng::next_u64(&mut r) % 64)),
        );
        for x in xs {
            let mut buf = [b'x'; 24];
            let n = put_u64(&mut buf, 2, x);
            assert_eq!(&buf[2..n], x.to_string().as_bytes());
            assert!(buf[..2] == *b"xx" && buf[n..].iter().all(|&b| b == b'x'));
        }
        for x in (-120i64..=120).chain([123456789, i64::MIN, i64::MAX]) {
            let mut buf = [b'x'; 24];
            let n = put_i64(&mut buf, 1, x);
            assert_eq!(&buf[1..n], x.to_string().as_bytes());
            assert!(buf[0] == b'x' && buf[n..].iter().all(|&b| b == b'x'));
        }
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
