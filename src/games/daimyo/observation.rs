//! What a seat sees: the [`Observation`] value, the seat's view of the state
//! ([`State::canonical`]: other seats' hidden Heroes merged, DAI-27), the public pile sizes,
//! and the text form of a state.

use std::fmt;

use super::action::SPACE_NAMES;
use super::options::OptionCache;
use super::state::*;
use crate::game::{MAX_PLAYERS, Player};

/// What a seat sees (placeholder: see "Not yet implemented" in the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The observing seat.
    pub seat: Player,
    /// The public state and the seat's own hand, printed.
    pub text: String,
}

impl State {
    /// The state as `seat` sees it: every other seat's hand reduced to the Heroes known to
    /// be in it, and the rest of its hand and deck as one pile (in `deck`).
    ///
    /// Under `hero_discard_public = false` (DAI-27) only the top card of another seat's
    /// discard pile stays visible; the rest of the pile joins the unseen pile. The other
    /// seats' private histories are cleared.
    pub fn canonical(&self, seat: Player) -> State {
        let mut c = self.clone();
        c.cache = OptionCache::default();
        let public = self.params().hero_discard_public;
        for q in 0..self.n() {
            if q != seat {
                let s = &mut c.seats[q];
                let known = self.known_hand[q] & s.hand;
                let mut unseen = s.hand | s.deck;
                if !public {
                    let top = self.top_bit(q);
                    unseen |= s.discard & !top;
                    s.discard = top;
                }
                s.deck = unseen & !known;
                s.hand = known;
                c.recall[q] = 0;
            }
        }
        c
    }

    /// The top card of `q`'s discard pile as a set (0 when the pile is empty).
    pub(super) fn top_bit(&self, q: usize) -> u64 {
        match self.discard_top[q] {
            NONE => 0,
            c => 1u64 << c,
        }
    }

    /// The pile sizes every seat sees: hand, deck and discard of each seat.
    pub(super) fn pile_sizes(&self) -> [[u32; 3]; MAX_PLAYERS] {
        let mut out = [[0; 3]; MAX_PLAYERS];
        for (p, o) in out.iter_mut().enumerate().take(self.n()) {
            let s = &self.seats[p];
            *o = [
                s.hand.count_ones(),
                s.deck.count_ones(),
                s.discard.count_ones(),
            ];
        }
        out
    }
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}: {}", self.seat, self.text)
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.data();
        writeln!(
            f,
            "round {} phase {:?} actor {} helmet {}",
            self.round, self.phase, self.actor, self.helmet
        )?;
        for p in 0..self.n() {
            let s = &self.seats[p];
            writeln!(
                f,
                "seat {p} {}: pp {} res {:?} storage {}/{} loose {:#x} restored {:?} hand {:#x} built {:?} board {:?}",
                d.clans[s.clan as usize].name,
                s.popularity,
                s.res,
                self.storage_used(p),
                s.storage,
                s.loose,
                &s.restored[..],
                s.hand,
                s.built,
                s.board
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| **d != 0)
                    .map(|(sp, d)| format!(
                        "{}={}",
                        SPACE_NAMES[sp],
                        self.die_value[*d as usize - 1]
                    ))
                    .collect::<Vec<_>>()
            )?;
        }
        for &i in self.islands() {
            let i = i as usize;
            writeln!(
                f,
                "{}: gov {:?} bld {:?} shadow {:?} altar {:?} influence {:?} nml {:?}",
                d.islands[i].name,
                &self.gov[i][..d.islands[i].sites.len()],
                &self.bld[i][..d.islands[i].sites.len()],
                &self.shadow[i][..d.islands[i].shadow_spaces.len()],
                &self.altar[i][..d.islands[i].altars.len()],
                &self.influence[i][..self.n()],
                &self.nml[i][..d.nml as usize]
            )?;
        }
        write!(f, "stack {:?}", &self.stack[..self.sp as usize])
    }
}
