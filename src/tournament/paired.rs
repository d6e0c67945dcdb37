//! Paired comparisons over deals (`sim tournament --paired`, common random numbers).
//!
//! # Design
//! With `--paired`, the `B` games of each seating block ([`super::plan::Lineup::block_len`])
//! share one *deal*: game `g` draws its chance from `seed_for(seed, g / B, 0)` instead of
//! `seed_for(seed, g, 0)` ([`super::plan::Lineup::deal`]), so each deal (the setup shuffle
//! and every later chance draw, as far as the games' choices keep the stream aligned) is
//! replayed under every seating of the block. The agents' own random streams stay per game
//! and per seat (`seed_for(seed, g, 1 + s)`, distinct for every seat of every game): the
//! pairing is over the chance of the game, not over the agents' tie-breaks. `-n` must be a
//! multiple of `B`, so every deal is complete.
//!
//!
//! The statistics over deals are [`crate::stats::paired::PairedStats`]; this module
//! builds them from the lineup and feeds them the games' outcomes.

use super::plan::Lineup;
use super::records::GameRecord;
use crate::stats::paired::{Outcome, PairedStats};

/// Empty paired statistics for a paired `lineup` ([`Lineup::set_paired`]) at `players`
/// seats: one deal is the lineup's seating block ([`Lineup::deal_len`]).
pub fn paired_stats(lineup: &Lineup, players: usize) -> PairedStats {
    let entry_to_distinct = (0..lineup.len()).map(|e| lineup.distinct_of(e)).collect();
    let deal: Vec<_> = (0..lineup.deal_len()).map(|g| lineup.seating(g)).collect();
    PairedStats::new(players, entry_to_distinct, &deal)
}

impl From<&GameRecord> for Outcome {
    fn from(r: &GameRecord) -> Self {
        Outcome {
            index: r.index,
            lineup: r.lineup,
            scores: r.scores,
            ranks: r.ranks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deal_is_the_lineups_seating_block() {
        let mut l = Lineup::new(&["greedy", "random"], 2).unwrap();
        l.set_paired(true);
        let from_lineup = paired_stats(&l, 2);
        let by_hand = PairedStats::new(2, vec![0, 1], &[[0, 1, 0, 0], [1, 0, 0, 0]]);
        assert_eq!(from_lineup, by_hand);
        assert_eq!(from_lineup.deal_len(), 2);
    }
}
