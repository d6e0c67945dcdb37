//! Accumulating game records into tallies: the agent × seat table of
//! [`crate::stats::tally::Tally`]s, the per-agent game counts, the label groups and the
//! metric tallies of a block of games ([`Tallies`]), filled through a [`CellMap`] (which
//! maps each lineup entry and seat of a record to its cell) and merged in index order by
//! [`super::summary::Stats::absorb`]. The definitions are in [`super::summary`].

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::metrics::{MetricMap, MetricTallies};
use super::plan::Lineup;
use super::records::GameRecord;
use crate::game::MAX_PLAYERS;
use crate::stats::IntMoments;
use crate::stats::decisiveness::Decisiveness;
use crate::stats::paired::PairedState;
use crate::stats::tally::{ALL_AGENTS, GameCounts, LabelCell, Tally};

/// The accumulated statistics of some games: the agent × seat table of [`Tally`]s and the
/// per-agent game counts. Built by [`CellMap::empty`], filled by [`CellMap::add`], merged by
/// [`Stats::absorb`](super::summary::Stats::absorb).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tallies {
    pub(super) cells: Vec<Tally>,
    pub(super) agents: Vec<GameCounts>,
    pub(super) labels: LabelTallies,
    pub(super) metrics: MetricTallies,
}

/// Label cells in order of first appearance, with an index by key. Label values are
/// `'static`, so a game adds no allocation once its values have been seen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct LabelTallies {
    pub(super) cells: Vec<LabelCell>,
    /// Rebuilt from `cells` after a checkpoint is read ([`Stats::restore`]).
    #[serde(skip)]
    pub(super) index: HashMap<(u8, &'static str, u32), usize>,
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
    pub(super) fn merge(&mut self, other: &Tallies) {
        self.labels.merge(&other.labels);
        self.metrics.merge(&other.metrics);
        for (c, x) in self.cells.iter_mut().zip(&other.cells) {
            c.merge(x);
        }
        for (c, x) in self.agents.iter_mut().zip(&other.agents) {
            c.merge(x);
        }
    }
}

/// The accumulated state of [`Stats`](super::summary::Stats): what a checkpoint saves ([`Stats::state`](super::summary::Stats::state),
/// [`Stats::restore`](super::summary::Stats::restore)). Serializes exactly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StatsState {
    /// Games accumulated.
    pub games: u64,
    pub(super) tallies: Tallies,
    /// The statistics over deals of a paired run ([`crate::stats::paired`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) paired: Option<PairedState>,
    /// The decisiveness tallies of a run with `--decisiveness` ([`crate::stats::decisiveness`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) decisiveness: Option<Decisiveness>,
}

/// Where the values of a `labels.csv` column come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupSource {
    /// Seat label `index`; with `set`, its value is a `/`-joined set grouped per member.
    Seat {
        /// Index in [`Measured::SEAT_LABELS`](crate::game::Measured::SEAT_LABELS).
        index: usize,
        /// Whether the value is a set ([`Measured::SET_LABELS`](crate::game::Measured::SET_LABELS)).
        set: bool,
    },
    /// Game label `index` (every seat of the game holds its value).
    Game {
        /// Index in [`Measured::GAME_LABELS`](crate::game::Measured::GAME_LABELS).
        index: usize,
        /// Whether the value is a set ([`Measured::SET_LABELS`](crate::game::Measured::SET_LABELS)).
        set: bool,
    },
    /// Seat metric `metric`, a bit set: bit `b` puts the seat in group `bits[b]`
    /// ([`Measured::FLAG_METRICS`](crate::game::Measured::FLAG_METRICS)).
    Flags {
        /// Index in [`Measured::SEAT_METRICS`](crate::game::Measured::SEAT_METRICS).
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
    /// A message naming a [`Measured::SET_LABELS`](crate::game::Measured::SET_LABELS) entry that is not a label, or a
    /// [`Measured::FLAG_METRICS`](crate::game::Measured::FLAG_METRICS) entry that is not a seat metric or has more
    /// than 32 bits (a bug in the game's declarations, caught by the registry's tests).
    pub fn of<G: crate::game::Playable>() -> Result<Vec<GroupColumn>, String> {
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
    pub(super) labels: Vec<GroupColumn>,
    /// The shape of the metric tallies.
    pub(super) metrics: MetricMap,
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
            t.cells[a * self.players + seat].add_seat(
                r.ranks[seat],
                i64::from(r.scores[seat]),
                r.margin(seat),
                winners,
            );
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
