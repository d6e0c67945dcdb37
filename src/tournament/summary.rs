//! Tournament statistics in O(agents × seats) memory, and the `summary.csv`, `seats.csv` and
//! `agent_seats.csv` tables.
//!
//! Two small tables are accumulated ([`Tallies`]): an agent × seat table of [`Tally`]s (one
//! entry per seat-game) and a per-agent count of games played, won and drawn. The runner's
//! workers fill one partial [`Tallies`] per block of games, and the writer merges the blocks
//! in index order ([`Stats::absorb`]; scores and margins are kept as exact integer moments,
//! [`IntMoments`], so merging is exact and order-free). Per-agent and per-seat rows are merged from the cells in a fixed order. Block
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
//! `labels.csv` columns (games that declare labels, [`crate::game::Game::SEAT_LABELS`] and
//! [`crate::game::Game::GAME_LABELS`]): `label, value, agent, games, wins, draws, win_rate,
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
//! one-line verdict ([`SeatTest::verdict`]; "not equal" at p < 0.05).
//!
//! Floats are written with 6 decimals.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write;

use super::metrics::{self, EndTally, MetricMap, MetricRow, MetricTallies};
use super::plan::Lineup;
use super::records::GameRecord;
use crate::game::{MAX_PLAYERS, PerPlayer};
use crate::stats::{IntMoments, Z95, wilson};
use serde::{Deserialize, Serialize};

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
    pub ranks: PerPlayer<u64>,
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

    /// Adds `seat` of game `r`, which has `winners` seats at rank 1.
    #[inline]
    fn add(&mut self, r: &GameRecord, seat: usize, winners: usize) {
        let first = r.ranks[seat] == 1;
        self.games += 1;
        self.wins += u64::from(first && winners == 1);
        self.draws += u64::from(first && winners > 1);
        self.score.push(i64::from(r.scores[seat]));
        self.margin.push(r.margin(seat));
        // Ranks are 1..=players; the clamp keeps a misbehaving game from indexing out of
        // bounds.
        self.ranks[(r.ranks[seat] as usize).clamp(1, MAX_PLAYERS) - 1] += 1;
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
fn ratio(x: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { x as f64 / n as f64 }
}

/// Per-game outcome counts of one agent: the independent trials of its win rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct GameCounts {
    games: u64,
    wins: u64,
    draws: u64,
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

/// The accumulated statistics of some games: the agent × seat table of [`Tally`]s and the
/// per-agent game counts. Built by [`CellMap::empty`], filled by [`CellMap::add`], merged by
/// [`Stats::absorb`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tallies {
    cells: Vec<Tally>,
    agents: Vec<GameCounts>,
    labels: LabelTallies,
    metrics: MetricTallies,
}

/// The agent column of a [`LabelCell`] that pools every agent.
pub const ALL_AGENTS: u32 = u32::MAX;

/// The outcomes of one group of seats: the seats of one game holding one value of one label
/// column, held by one agent (or by any agent, [`ALL_AGENTS`]). See the module docs.
/// (Deserialized in [`crate::tournament::checkpoint`].)
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

    fn merge(&mut self, o: &LabelCell) {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
        self.seats += o.seats;
        self.score.merge(&o.score);
        self.rank_sum += o.rank_sum;
    }
}

/// Label cells in order of first appearance, with an index by key. Label values are
/// `'static`, so a game adds no allocation once its values have been seen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct LabelTallies {
    cells: Vec<LabelCell>,
    /// Rebuilt from `cells` after a checkpoint is read ([`Stats::restore`]).
    #[serde(skip)]
    index: HashMap<(u8, &'static str, u32), usize>,
    /// (value, seats holding it) of the column being added; empty between games.
    #[serde(skip)]
    scratch: Vec<(&'static str, u8)>,
}

impl LabelTallies {
    fn cell(&mut self, column: u8, value: &'static str, agent: u32) -> &mut LabelCell {
        let next = self.cells.len();
        let i = *self.index.entry((column, value, agent)).or_insert(next);
        if i == next {
            self.cells.push(LabelCell {
                column,
                value,
                agent,
                games: 0,
                wins: 0,
                draws: 0,
                seats: 0,
                score: IntMoments::new(),
                rank_sum: 0,
            });
        }
        &mut self.cells[i]
    }

    fn clear(&mut self) {
        self.cells.clear();
        self.index.clear();
    }

    fn merge(&mut self, other: &LabelTallies) {
        for c in &other.cells {
            self.cell(c.column, c.value, c.agent).merge(c);
        }
    }
}

impl Tallies {
    fn merge(&mut self, other: &Tallies) {
        self.labels.merge(&other.labels);
        self.metrics.merge(&other.metrics);
        for (c, x) in self.cells.iter_mut().zip(&other.cells) {
            c.merge(x);
        }
        for (c, x) in self.agents.iter_mut().zip(&other.agents) {
            c.games += x.games;
            c.wins += x.wins;
            c.draws += x.draws;
        }
    }
}

/// The accumulated state of [`Stats`]: what a checkpoint saves ([`Stats::state`],
/// [`Stats::restore`]). Serializes exactly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StatsState {
    /// Games accumulated.
    pub games: u64,
    tallies: Tallies,
    /// The statistics over deals of a paired run ([`super::paired`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    paired: Option<crate::stats::paired::PairedState>,
    /// The decisiveness tallies of a run with `--decisiveness` ([`super::decisiveness`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    decisiveness: Option<crate::stats::decisiveness::Decisiveness>,
}

/// Where the values of a `labels.csv` column come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupSource {
    /// Seat label `index`; with `set`, its value is a `/`-joined set grouped per member.
    Seat {
        /// Index in [`crate::game::Game::SEAT_LABELS`].
        index: usize,
        /// Whether the value is a set ([`crate::game::Game::SET_LABELS`]).
        set: bool,
    },
    /// Game label `index` (every seat of the game holds its value).
    Game {
        /// Index in [`crate::game::Game::GAME_LABELS`].
        index: usize,
        /// Whether the value is a set ([`crate::game::Game::SET_LABELS`]).
        set: bool,
    },
    /// Seat metric `metric`, a bit set: bit `b` puts the seat in group `bits[b]`
    /// ([`crate::game::Game::FLAG_METRICS`]).
    Flags {
        /// Index in [`crate::game::Game::SEAT_METRICS`].
        metric: usize,
        /// The name of each bit, bit 0 first.
        bits: &'static [&'static str],
    },
}

/// A column of `labels.csv`: its name and where its values come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupColumn {
    /// The label's (or flag metric's) name.
    pub name: &'static str,
    /// Where the values come from.
    pub source: GroupSource,
}

impl GroupColumn {
    /// The `labels.csv` columns of game `G`: its seat labels, its game labels, then its
    /// flag metrics.
    ///
    /// # Errors
    /// A message naming a [`crate::game::Game::SET_LABELS`] entry that is not a label, or a
    /// [`crate::game::Game::FLAG_METRICS`] entry that is not a seat metric or has more
    /// than 32 bits (a bug in the game's declarations, caught by the registry's tests).
    pub fn of<G: crate::game::Game>() -> Result<Vec<GroupColumn>, String> {
        let is_set = |name: &str| G::SET_LABELS.contains(&name);
        for name in G::SET_LABELS {
            if !G::SEAT_LABELS
                .iter()
                .chain(G::GAME_LABELS)
                .any(|c| c.name == *name)
            {
                return Err(format!("{}: SET_LABELS names {name}, not a label", G::NAME));
            }
        }
        let mut out: Vec<GroupColumn> = G::SEAT_LABELS
            .iter()
            .enumerate()
            .map(|(index, c)| GroupColumn {
                name: c.name,
                source: GroupSource::Seat {
                    index,
                    set: is_set(c.name),
                },
            })
            .collect();
        out.extend(
            G::GAME_LABELS
                .iter()
                .enumerate()
                .map(|(index, c)| GroupColumn {
                    name: c.name,
                    source: GroupSource::Game {
                        index,
                        set: is_set(c.name),
                    },
                }),
        );
        for &(name, bits) in G::FLAG_METRICS {
            let metric = G::SEAT_METRICS
                .iter()
                .position(|c| c.name == name)
                .ok_or_else(|| {
                    format!("{}: FLAG_METRICS names {name}, not a seat metric", G::NAME)
                })?;
            if bits.len() > 32 {
                return Err(format!(
                    "{}: FLAG_METRICS {name} has more than 32 bits",
                    G::NAME
                ));
            }
            out.push(GroupColumn {
                name,
                source: GroupSource::Flags { metric, bits },
            });
        }
        Ok(out)
    }

    /// Plain (not set-valued) columns: the seat labels, then the game labels.
    #[cfg(test)]
    pub fn plain(seat_labels: &[&'static str], game_labels: &[&'static str]) -> Vec<Self> {
        let seat = seat_labels
            .iter()
            .enumerate()
            .map(|(index, &name)| GroupColumn {
                name,
                source: GroupSource::Seat { index, set: false },
            });
        let game = game_labels
            .iter()
            .enumerate()
            .map(|(index, &name)| GroupColumn {
                name,
                source: GroupSource::Game { index, set: false },
            });
        seat.chain(game).collect()
    }
}

/// Maps each (lineup entry, seat) of a game to a cell of the agent × seat table, and each
/// entry to its distinct agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellMap {
    players: usize,
    agents: usize,
    entry_to_distinct: Vec<usize>,
    /// The `labels.csv` columns.
    labels: Vec<GroupColumn>,
    /// The shape of the metric tallies.
    metrics: MetricMap,
}

impl CellMap {
    /// The map for this lineup and player count.
    pub fn new(lineup: &Lineup, players: usize) -> Self {
        CellMap {
            players,
            agents: lineup.distinct().len(),
            entry_to_distinct: (0..lineup.len()).map(|e| lineup.distinct_of(e)).collect(),
            labels: Vec::new(),
            metrics: MetricMap::new(lineup.distinct().len(), &[], &[]),
        }
    }

    /// The same map, also tallying win rates per value of these `labels.csv` columns.
    pub fn with_labels(mut self, columns: Vec<GroupColumn>) -> Self {
        self.labels = columns;
        self
    }

    /// The same map, also tallying these seat and game metrics (`metrics.csv`).
    pub fn with_metrics(
        mut self,
        seat_metrics: &[&'static str],
        game_metrics: &[&'static str],
    ) -> Self {
        self.metrics = MetricMap::new(self.agents, seat_metrics, game_metrics);
        self
    }

    /// Adds one game to the label cells: for each label column, the seats holding each
    /// value (each member of a set value, each bit of a flag metric) form one group per
    /// agent and one for all agents (see the module docs).
    fn add_labels(&self, t: &mut Tallies, r: &GameRecord) {
        let n = r.players as usize;
        let firsts = (0..n)
            .filter(|&s| r.ranks[s] == 1)
            .fold(0u8, |m, s| m | 1 << s);
        let mut values = std::mem::take(&mut t.labels.scratch);
        for (column, g) in self.labels.iter().enumerate() {
            values.clear();
            for seat in 0..n {
                let mut add = |v: &'static str| match values.iter_mut().find(|(x, _)| *x == v) {
                    Some((_, seats)) => *seats |= 1 << seat,
                    None => values.push((v, 1 << seat)),
                };
                let (value, set) = match g.source {
                    GroupSource::Seat { index, set } => (r.labels.seat[seat][index], set),
                    GroupSource::Game { index, set } => (r.labels.game[index], set),
                    GroupSource::Flags { metric, bits } => {
                        let x = r.metrics.seat[seat][metric] as u32;
                        for (b, name) in bits.iter().enumerate() {
                            if x >> b & 1 != 0 {
                                add(name);
                            }
                        }
                        continue;
                    }
                };
                if set {
                    value
                        .split('/')
                        .filter(|m| !m.is_empty())
                        .for_each(&mut add);
                } else {
                    add(value);
                }
            }
            for &(value, seats) in &values {
                let mut done = 0u8;
                for seat in (0..n).filter(|&s| seats & 1 << s != 0) {
                    if done & 1 << seat != 0 {
                        continue;
                    }
                    let agent = self.entry_to_distinct[r.lineup[seat] as usize];
                    let mine = (0..n)
                        .filter(|&s| {
                            seats & 1 << s != 0
                                && self.entry_to_distinct[r.lineup[s] as usize] == agent
                        })
                        .fold(0u8, |m, s| m | 1 << s);
                    done |= mine;
                    Self::tally_group(t, column as u8, value, agent as u32, mine, firsts, r);
                }
                Self::tally_group(t, column as u8, value, ALL_AGENTS, seats, firsts, r);
            }
        }
        values.clear();
        t.labels.scratch = values;
    }

    /// Adds one game to the label cell of (`column`, `value`, `agent`), whose seats in this
    /// game are the bit set `seats`; `firsts` are the seats with rank 1.
    fn tally_group(
        t: &mut Tallies,
        column: u8,
        value: &'static str,
        agent: u32,
        seats: u8,
        firsts: u8,
        r: &GameRecord,
    ) {
        let c = t.labels.cell(column, value, agent);
        c.games += 1;
        if seats & firsts != 0 {
            if firsts & !seats == 0 {
                c.wins += 1;
            } else {
                c.draws += 1;
            }
        }
        for seat in (0..r.players as usize).filter(|&s| seats & 1 << s != 0) {
            c.seats += 1;
            c.score.push(i64::from(r.scores[seat]));
            c.rank_sum += u64::from(r.ranks[seat]);
        }
    }

    /// Empty tallies (the cells agent-major).
    pub fn empty(&self) -> Tallies {
        Tallies {
            cells: vec![Tally::default(); self.agents * self.players],
            agents: vec![GameCounts::default(); self.agents],
            labels: LabelTallies::default(),
            metrics: self.metrics.empty(),
        }
    }

    /// Makes `t` empty tallies for this map, reusing its memory.
    pub fn reset(&self, t: &mut Tallies) {
        t.cells.clear();
        t.cells.resize(self.agents * self.players, Tally::default());
        t.agents.clear();
        t.agents.resize(self.agents, GameCounts::default());
        t.labels.clear();
        self.metrics.reset(&mut t.metrics);
    }

    /// Adds one game's outcome to `t` (from [`CellMap::empty`]). Allocates nothing, except
    /// a label cell the first time a (label value, agent) pair is seen.
    pub fn add(&self, t: &mut Tallies, r: &GameRecord) {
        if !self.labels.is_empty() {
            self.add_labels(t, r);
        }
        // The distinct agents at this table, each with whether one of its seats is first.
        let mut present = [(0usize, false); MAX_PLAYERS];
        let mut agent_of = [0usize; MAX_PLAYERS];
        let mut n = 0;
        let winners = r.winners();
        for (seat, slot) in agent_of.iter_mut().enumerate().take(r.players as usize) {
            let a = self.entry_to_distinct[r.lineup[seat] as usize];
            *slot = a;
            t.cells[a * self.players + seat].add(r, seat, winners);
            let first = r.ranks[seat] == 1;
            match present[..n].iter_mut().find(|(x, _)| *x == a) {
                Some((_, f)) => *f |= first,
                None => {
                    present[n] = (a, first);
                    n += 1;
                }
            }
        }
        self.metrics.add(&mut t.metrics, r, &agent_of);
        let firsts = present[..n].iter().filter(|(_, f)| *f).count();
        for &(a, first) in &present[..n] {
            let c = &mut t.agents[a];
            c.games += 1;
            if first {
                if firsts == 1 {
                    c.wins += 1;
                } else {
                    c.draws += 1;
                }
            }
        }
    }
}

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
    map: CellMap,
    tallies: Tallies,
    /// With `--paired`, the statistics over deals ([`super::paired`]).
    pub paired: Option<crate::stats::paired::PairedStats>,
    /// With `--decisiveness`, the leader's win rate and the lead changes
    /// ([`super::decisiveness`]); set by [`Stats::with_decisiveness`].
    pub decisiveness: Option<crate::stats::decisiveness::Decisiveness>,
}

fn f6(x: f64) -> String {
    format!("{x:.6}")
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

    /// Writes `metrics.csv` (see [`crate::tournament::metrics`]).
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_metrics_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        metrics::write_metrics_csv(out, &self.metric_rows())
    }

    /// Writes `ends.csv` (see [`crate::tournament::metrics`]).
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_ends_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        metrics::write_ends_csv(out, self.games, &self.ends())
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
    fn agent_name(&self, agent: u32) -> &str {
        if agent == ALL_AGENTS {
            "all"
        } else {
            &self.agents[agent as usize]
        }
    }

    /// Writes `labels.csv` (see the module docs).
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_labels_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(LABELS_HEADER)?;
        for c in self.by_label() {
            let (lo, hi) = c.interval();
            w.write_record([
                self.label_name(c.column).to_string(),
                c.value.to_string(),
                self.agent_name(c.agent).to_string(),
                c.games.to_string(),
                c.wins.to_string(),
                c.draws.to_string(),
                f6(c.win_rate()),
                f6(lo),
                f6(hi),
                c.seats.to_string(),
                f6(c.score.mean()),
                f6(c.mean_rank()),
            ])?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
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
    pub fn absorb_decisiveness(&mut self, block: &crate::stats::decisiveness::Decisiveness) {
        if let Some(d) = &mut self.decisiveness {
            d.merge(block);
        }
    }

    /// Adds the outcomes of a block's games to the statistics over deals (a paired run;
    /// otherwise nothing).
    pub fn absorb_outcomes(&mut self, outcomes: &[crate::stats::paired::Outcome]) {
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

    /// Writes `seat_test.csv`: the header and one row ([`Stats::seat_test`]).
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_seat_test_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let t = self.seat_test();
        let mut w = csv::Writer::from_writer(out);
        w.write_record(SEAT_TEST_HEADER)?;
        w.write_record([
            t.method.to_string(),
            self.players.to_string(),
            t.decisive.to_string(),
            f6(t.statistic),
            t.df.map_or_else(String::new, |d| d.to_string()),
            format!("{:e}", t.p_value),
            t.seat.to_string(),
            f6(t.win_rate),
            f6(t.interval.0),
            f6(t.interval.1),
            f6(t.expected),
            t.verdict(),
        ])?;
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// The first fields of a `seats.csv` row ([`SEAT_FIELDS`]) of seat `seat` with tally
    /// `t` ([`Stats::by_seat`]).
    pub fn seat_fields(&self, seat: usize, t: &Tally) -> Vec<String> {
        let (lo, hi) = t.interval();
        vec![
            seat.to_string(),
            t.games.to_string(),
            t.wins.to_string(),
            t.draws.to_string(),
            f6(t.win_rate()),
            f6(lo),
            f6(hi),
            f6(1.0 / self.players as f64),
        ]
    }

    /// Writes `summary.csv`.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_summary_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        let mut header: Vec<String> = [
            "agent",
            "games",
            "seats",
            "wins",
            "draws",
            "losses",
            "win_rate",
            "ci_low",
            "ci_high",
            "expected_win_rate",
            "mean_score",
            "sd_score",
            "mean_margin",
            "mean_rank",
        ]
        .map(String::from)
        .to_vec();
        header.extend((1..=self.players).map(|r| format!("rank{r}")));
        w.write_record(&header)?;
        for (name, t) in self.agents.iter().zip(&self.by_agent()) {
            let (lo, hi) = t.interval();
            let seats = &t.seats;
            let mut row = vec![
                name.clone(),
                t.games.to_string(),
                seats.games.to_string(),
                t.wins.to_string(),
                t.draws.to_string(),
                t.losses().to_string(),
                f6(t.win_rate()),
                f6(lo),
                f6(hi),
                f6(t.expected_win_rate(self.players)),
                f6(seats.score.mean()),
                f6(seats.score.sd()),
                f6(seats.margin.mean()),
                f6(seats.mean_rank()),
            ];
            row.extend((1..=self.players).map(|r| f6(seats.rank_share(r))));
            w.write_record(&row)?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// Writes `seats.csv`.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_seats_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(SEAT_FIELDS.iter().chain(&["mean_score"]))?;
        for (seat, t) in self.by_seat().iter().enumerate() {
            let mut row = self.seat_fields(seat, t);
            row.push(f6(t.score.mean()));
            w.write_record(row)?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// Writes `agent_seats.csv`.
    ///
    /// # Errors
    /// The I/O error, if any.
    pub fn write_agent_seats_csv<W: Write>(&self, out: W) -> csv::Result<W> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record([
            "agent",
            "seat",
            "games",
            "wins",
            "draws",
            "win_rate",
            "ci_low",
            "ci_high",
            "mean_score",
            "mean_margin",
        ])?;
        for (a, name) in self.agents.iter().enumerate() {
            for seat in 0..self.players {
                let t = self.agent_seat(a, seat);
                let (lo, hi) = t.interval();
                w.write_record([
                    name.clone(),
                    seat.to_string(),
                    t.games.to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    f6(t.win_rate()),
                    f6(lo),
                    f6(hi),
                    f6(t.score.mean()),
                    f6(t.margin.mean()),
                ])?;
            }
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// The human-readable summary printed by `sim tournament`: per agent (per game) and per
    /// seat and per (agent, seat), win rates with 95% Wilson intervals, draws, mean score and
    /// margin; per agent the mean rank and the rank distribution.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let ci = |r: f64, (lo, hi): (f64, f64)| rate_ci(r, lo, hi);
        let by_agent = self.by_agent();
        let _ = writeln!(s, "Verdicts\nSeats: {}", self.seat_test().verdict());
        if let Some(v) = self.head_to_head() {
            let _ = writeln!(s, "Agents: {v}");
        }
        if let Some(p) = &self.paired {
            s += &crate::stats::paired::render(p, &p.rows(&self.agents));
        }
        if let Some(d) = &self.decisiveness {
            s += &d.render(self.players);
        }
        let rows: Vec<Vec<String>> = self
            .agents
            .iter()
            .zip(&by_agent)
            .map(|(name, t)| {
                vec![
                    name.clone(),
                    t.games.to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    ci(t.win_rate(), t.interval()),
                    pct(t.expected_win_rate(self.players)),
                    format!("{:.3}", t.seats.score.mean()),
                    format!("{:.3}", t.seats.score.sd()),
                    format!("{:+.3}", t.seats.margin.mean()),
                ]
            })
            .collect();
        let _ = writeln!(
            s,
            "\nAgents (per game: win = the agent alone holds first place; 95% Wilson intervals; \
             scores and margins per seat)"
        );
        s += &table(
            &[
                "agent",
                "games",
                "wins",
                "draws",
                "win rate [95% CI]",
                "expected",
                "mean score",
                "sd score",
                "mean margin",
            ],
            &rows,
        );
        let rows: Vec<Vec<String>> = self
            .agents
            .iter()
            .zip(&by_agent)
            .map(|(name, t)| {
                let mut row = vec![
                    name.clone(),
                    t.seats.games.to_string(),
                    format!("{:.3}", t.seats.mean_rank()),
                ];
                row.extend((1..=self.players).map(|r| format!("{:.4}", t.seats.rank_share(r))));
                row
            })
            .collect();
        let _ = writeln!(
            s,
            "\nRanks (per seat-game: mean rank and the share finishing at each rank, 1 = best)"
        );
        let rank_heads: Vec<String> = (1..=self.players).map(|r| format!("rank {r}")).collect();
        let mut heads = vec!["agent", "seats", "mean rank"];
        heads.extend(rank_heads.iter().map(String::as_str));
        s += &table(&heads, &rows);
        let expected = 1.0 / self.players as f64;
        let rows: Vec<Vec<String>> = self
            .by_seat()
            .iter()
            .enumerate()
            .map(|(seat, t)| {
                vec![
                    seat.to_string(),
                    t.games.to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    ci(t.win_rate(), t.interval()),
                    format!("{:.3}", t.score.mean()),
                ]
            })
            .collect();
        let _ = writeln!(
            s,
            "\nSeats (equal seats without draws would win {} each)",
            pct(expected)
        );
        s += &table(
            &[
                "seat",
                "games",
                "wins",
                "draws",
                "win rate [95% CI]",
                "mean score",
            ],
            &rows,
        );
        let mut rows = Vec::new();
        for (a, name) in self.agents.iter().enumerate() {
            for seat in 0..self.players {
                let t = self.agent_seat(a, seat);
                rows.push(vec![
                    name.clone(),
                    seat.to_string(),
                    t.games.to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    ci(t.win_rate(), t.interval()),
                    format!("{:+.3}", t.margin.mean()),
                ]);
            }
        }
        let _ = writeln!(s, "\nAgent by seat");
        s += &table(
            &[
                "agent",
                "seat",
                "games",
                "wins",
                "draws",
                "win rate [95% CI]",
                "mean margin",
            ],
            &rows,
        );
        s += &self.render_ends_and_metrics();
        if self.has_labels() {
            let cells = self.by_label();
            let rows: Vec<Vec<String>> = cells
                .iter()
                .take(MAX_LABEL_ROWS)
                .map(|c| {
                    vec![
                        self.label_name(c.column).to_string(),
                        c.value.to_string(),
                        self.agent_name(c.agent).to_string(),
                        c.games.to_string(),
                        c.wins.to_string(),
                        c.draws.to_string(),
                        ci(c.win_rate(), c.interval()),
                        format!("{:.3}", c.score.mean()),
                        format!("{:.3}", c.mean_rank()),
                    ]
                })
                .collect();
            let _ = writeln!(
                s,
                "\nLabels (per game: the seats holding a label value win when one of them \
                 alone holds first place; `all` pools the agents)"
            );
            s += &table(
                &[
                    "label",
                    "value",
                    "agent",
                    "games",
                    "wins",
                    "draws",
                    "win rate [95% CI]",
                    "mean score",
                    "mean rank",
                ],
                &rows,
            );
            if cells.len() > MAX_LABEL_ROWS {
                let _ = writeln!(
                    s,
                    "({} more rows in labels.csv)",
                    cells.len() - MAX_LABEL_ROWS
                );
            }
        }
        s
    }
}

impl Stats {
    /// The "End conditions" table and the "Metrics" table (the mean of the score and of
    /// each seat metric per agent, and pooled for winners and for the others), then the
    /// game metrics and the game length.
    fn render_ends_and_metrics(&self) -> String {
        let mut s = String::new();
        let ends = self.ends();
        let rows: Vec<Vec<String>> = ends
            .iter()
            .map(|e| {
                let (lo, hi) = wilson(e.games, self.games, Z95);
                vec![
                    e.end.to_string(),
                    e.games.to_string(),
                    format!("{:.4}", ratio(e.games, self.games)),
                    format!("[{lo:.4}, {hi:.4}]"),
                    format!("{:.1}", e.plies.mean()),
                    format!("{:.2}", e.rounds.mean()),
                ]
            })
            .collect();
        let _ = writeln!(s, "\nEnd conditions");
        s += &table(
            &[
                "end",
                "games",
                "share",
                "95% CI",
                "mean plies",
                "mean rounds",
            ],
            &rows,
        );
        let metric_rows = self.metric_rows();
        let mean = |m: &str, agent: &str, outcome: &str| {
            metric_rows
                .iter()
                .find(|r| r.metric == m && r.agent == agent && r.outcome == outcome)
                .filter(|r| r.values.count() > 0)
                .map_or_else(String::new, |r| format!("{:.3}", r.values.mean()))
        };
        let names: Vec<&'static str> = std::iter::once("score")
            .chain(self.map.metrics.seat_metrics().iter().copied())
            .collect();
        if names.len() > 1 {
            let mut heads: Vec<String> = vec!["metric (mean per seat-game)".into()];
            heads.extend(self.agents.iter().cloned());
            heads.extend(["winners".into(), "others".into()]);
            let rows: Vec<Vec<String>> = names
                .iter()
                .map(|m| {
                    let mut row = vec![m.to_string()];
                    row.extend(self.agents.iter().map(|a| mean(m, a, "all")));
                    row.push(mean(m, "all", "won"));
                    let others = metric_rows
                        .iter()
                        .filter(|r| r.metric == *m && r.agent == "all")
                        .filter(|r| r.outcome == "draw" || r.outcome == "lost")
                        .fold(crate::stats::IntMoments::new(), |mut w, r| {
                            w.merge(&r.values);
                            w
                        });
                    row.push(if others.count() > 0 {
                        format!("{:.3}", others.mean())
                    } else {
                        String::new()
                    });
                    row
                })
                .collect();
            let _ = writeln!(
                s,
                "\nMetrics (winners: seats alone in first place; metrics.csv has intervals)"
            );
            let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
            s += &table(&heads, &rows);
        }
        s
    }
}

/// The test of equal seats ([`Stats::seat_test`], `seat_test.csv`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatTest {
    /// `exact binomial` (2 seats) or `chi-square` (3–4 seats).
    pub method: &'static str,
    /// Games with a single winner (the trials; draws are left out).
    pub decisive: u64,
    /// Seat 0's wins among them (binomial), or Pearson's X² (chi-square).
    pub statistic: f64,
    /// Degrees of freedom (chi-square only): seats − 1.
    pub df: Option<u32>,
    /// The two-sided p-value of equal seats.
    pub p_value: f64,
    /// The seat with the highest win rate (the lowest such seat on ties).
    pub seat: usize,
    /// Its win rate (wins / games, draws not counted as wins).
    pub win_rate: f64,
    /// Its 95% Wilson interval.
    pub interval: (f64, f64),
    /// The win rate of equal seats without draws, 1 / seats.
    pub expected: f64,
}

impl SeatTest {
    /// One plain sentence: whether the seats differ, with the best seat's win rate, its
    /// interval, the method and the p-value. "An advantage" means p < 0.05.
    pub fn verdict(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let best = format!(
            "seat {} wins {} [{}, {}] against {} for equal seats",
            self.seat,
            pct(self.win_rate),
            pct(self.interval.0),
            pct(self.interval.1),
            pct(self.expected)
        );
        let how = format!(
            "{} test over {} games with a single winner, {}",
            self.method,
            self.decisive,
            crate::format::format_p(self.p_value)
        );
        if self.decisive == 0 {
            "no game had a single winner: no test of equal seats".to_string()
        } else if self.p_value < 0.05 {
            format!("{best}: the seats are not equal ({how})")
        } else {
            format!("no seat advantage detected ({how}); the best seat: {best}")
        }
    }
}

impl Stats {
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

/// One plain sentence comparing two agents that played `games` games against each other
/// with equal shares of the seats: the stronger agent's win rate with its 95% Wilson
/// interval, the other's, and the exact two-sided binomial test of the first agent's wins
/// among the games one of them won against 1/2 ([`crate::stats::binomial_test_half`]).
/// "Stronger" means p < 0.05. Example: `greedy is stronger than random: it wins 80.6%
/// [78.8, 82.3] of 2000 games, random 19.4% (exact binomial test over the 2000 games one
/// of them won, p < 0.001)`.
pub fn head_to_head_verdict(a: &str, wins_a: u64, b: &str, wins_b: u64, games: u64) -> String {
    let rate = |w: u64| {
        let (lo, hi) = wilson(w, games, Z95);
        (
            if games == 0 {
                0.0
            } else {
                w as f64 / games as f64
            },
            lo,
            hi,
        )
    };
    let (ra, rb) = (rate(wins_a), rate(wins_b));
    let decisive = wins_a + wins_b;
    let p = crate::stats::binomial_test_half(wins_a, decisive);
    let how = format!(
        "exact binomial test over the {decisive} games one of them won, {}",
        crate::format::format_p(p)
    );
    if decisive > 0 && p < 0.05 {
        let ((w, rw), (l, rl)) = if wins_a >= wins_b {
            ((a, ra), (b, rb))
        } else {
            ((b, rb), (a, ra))
        };
        format!(
            "{w} is stronger than {l}: it wins {} of {games} games, {l} {} ({how})",
            rate_ci(rw.0, rw.1, rw.2),
            pct(rl.0)
        )
    } else {
        format!(
            "no difference detected between {a} and {b}: {a} wins {}, {b} {} of {games} games ({how})",
            rate_ci(ra.0, ra.1, ra.2),
            rate_ci(rb.0, rb.1, rb.2)
        )
    }
}

/// A proportion as a percentage with one decimal: `53.1%`.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A rate and its interval in percent: `53.1% [52.2, 54.0]`.
fn rate_ci(r: f64, lo: f64, hi: f64) -> String {
    format!("{} [{:.1}, {:.1}]", pct(r), 100.0 * lo, 100.0 * hi)
}

/// The first columns of `seats.csv`, filled by [`Stats::seat_fields`].
pub const SEAT_FIELDS: [&str; 8] = [
    "seat",
    "games",
    "wins",
    "draws",
    "win_rate",
    "ci_low",
    "ci_high",
    "expected_win_rate",
];

/// The `seat_test.csv` header.
pub const SEAT_TEST_HEADER: [&str; 12] = [
    "test",
    "players",
    "decisive_games",
    "statistic",
    "df",
    "p_value",
    "best_seat",
    "win_rate",
    "ci_low",
    "ci_high",
    "expected_win_rate",
    "verdict",
];

/// The `labels.csv` header.
pub const LABELS_HEADER: [&str; 12] = [
    "label",
    "value",
    "agent",
    "games",
    "wins",
    "draws",
    "win_rate",
    "ci_low",
    "ci_high",
    "seats",
    "mean_score",
    "mean_rank",
];

/// At most this many label rows are printed by [`Stats::render`]; `labels.csv` has all.
const MAX_LABEL_ROWS: usize = 40;

/// A plain-text table: the first column left-aligned, the others right-aligned.
pub(crate) fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut l = String::new();
        for (i, (c, w)) in cells.zip(&widths).enumerate() {
            if i == 0 {
                let _ = write!(l, "{c:<w$}");
            } else {
                let _ = write!(l, "  {c:>w$}");
            }
        }
        out += l.trim_end();
        out.push('\n');
    };
    line(&mut headers.iter().copied());
    for r in rows {
        line(&mut r.iter().map(String::as_str));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
