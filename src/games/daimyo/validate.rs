//! [`GameState::validate`](crate::game::GameState::validate) for Daimyo: the checks a
//! loaded position must pass before any method may be called on it (a hand-edited
//! position that no game could reach is refused naming the field, instead of panicking
//! or misbehaving later).
//!
//! Checked, in this order (each error message names the field and its values):
//!
//! 1. **Counters and seats:** `round` in `1..=rounds` of the data (DAI-3.1); `ply` within
//!    [`GameState::max_game_length`](crate::game::GameState::max_game_length);
//!    `turn_index` at most the dice in play (one die or none per turn, DAI-3.4); `first`,
//!    `actor` and `helmet` seats of the game; the setup step and the end-of-round position
//!    `k` below their bounds; the setup only in round 1 (DAI-2.10).
//! 2. **The effect stack:** `sp` ≤ the depth, exactly the first `sp` frames present, the
//!    ids in the frames (Hero, tile, island, tile kind) within the data.
//! 3. **Dice:** exactly the dice of the player count in play, in colour order (DAI-2.5),
//!    values 1..=6, each in the pool, set aside or on one clan-board space that names it
//!    back (DAI-3.4).
//! 4. **Heroes (conservation of cards):** every Hero of the market deck and of the seats'
//!    clans is in exactly one place: a hand, a Hero deck, a discard pile, a market slot, the
//!    face-up top card, the market deck, or a played Hero's pending frame (DAI-2.3,
//!    DAI-5.2, DAI-6.6); no other Hero is anywhere; the publicly known hand and the
//!    discard's top card are within the hand and the discard.
//! 5. **Resources (conservation of coins):** each resource's general supply plus what the
//!    seats hold equals the data's total (the ledger, DAI-14), the supply not negative
//!    under `supply_limited`; seats past the player count hold nothing.
//! 6. **Pieces and units:** Governors, buildings, Shadows and Restored-relic tokens only on
//!    the spaces of the islands in play, owned by seats of the game, each seat's counts
//!    equal to what its board records and within its clan's pieces (DAI-1.3).
//! 7. **Relic tiles (conservation):** per tile kind, the bag, the Black market, the face-up
//!    No man's land tiles, the loose tiles in storage, the Relics restored and a tile
//!    waiting for room add up to the copies of the kind for the islands in play and to
//!    none otherwise (DAI-2.6, DAI-4.7); storage within its maximum (DAI-07).
//! 8. **The decision:** a game that goes on offers the seat to act at least one option.

use super::data::{MAX_ALTARS, MAX_DICE, MAX_ISLANDS, MAX_NML, MAX_SHADOW_SPACES, MAX_SITES};
use super::state::*;
use crate::game::MAX_PLAYERS;

impl State {
    /// Every check of the module docs, in order.
    ///
    /// # Errors
    /// The first failed check, naming the field and its values.
    pub(super) fn check_position(&self) -> Result<(), String> {
        self.check_counters()?;
        self.check_stack()?;
        self.check_dice()?;
        self.check_heroes()?;
        self.check_resources()?;
        self.check_pieces()?;
        self.check_tiles()?;
        if self.phase != Phase::Over {
            let mut buf = Vec::new();
            self.options(&mut buf);
            if buf.is_empty() {
                return Err(format!(
                    "phase = {:?}: seat {} (actor) has no legal option",
                    self.phase, self.actor
                ));
            }
        }
        Ok(())
    }

    fn check_counters(&self) -> Result<(), String> {
        let n = self.n();
        let rounds = self.data().round_pp.len();
        if !(1..=rounds).contains(&usize::from(self.round)) {
            return Err(format!(
                "round = {} is outside 1..={rounds} (the rounds of the data)",
                self.round
            ));
        }
        if self.phase == Phase::Over && usize::from(self.round) != rounds {
            return Err(format!(
                "phase = over in round {} (the game ends after round {rounds})",
                self.round
            ));
        }
        let max_ply = <State as crate::game::GameState>::max_game_length(self.rules.get());
        if self.ply > max_ply {
            return Err(format!(
                "ply = {} exceeds the game's bound 0..={max_ply}",
                self.ply
            ));
        }
        let dice: usize = self.rd().dice.iter().map(|&d| usize::from(d)).sum();
        if usize::from(self.turn_index) > dice {
            return Err(format!(
                "turn_index = {} exceeds the {dice} dice in play (one die per turn)",
                self.turn_index
            ));
        }
        for (name, v) in [
            ("first", self.first),
            ("actor", self.actor),
            ("helmet", self.helmet),
        ] {
            if usize::from(v) >= n {
                return Err(format!(
                    "{name} = {v} is not a seat of a {n}-player game (0..={})",
                    n - 1
                ));
            }
        }
        match self.phase {
            Phase::SetupGovernor { step } if usize::from(step) >= 2 * n || self.round != 1 => {
                return Err(format!(
                    "phase = setup_governor step {step} in round {}: the setup places 2 \
                     Governors per seat (steps 0..{}) in round 1",
                    self.round,
                    2 * n
                ));
            }
            Phase::Revenue { k } | Phase::Hire { k } if usize::from(k) >= n => {
                return Err(format!(
                    "phase = {:?}: k = {k} is not a position in the {n}-seat Helmet order",
                    self.phase
                ));
            }
            _ => {}
        }
        Ok(())
    }

    fn check_stack(&self) -> Result<(), String> {
        let sp = usize::from(self.sp);
        if sp > STACK {
            return Err(format!("sp = {sp} exceeds the stack depth {STACK}"));
        }
        if let Some(i) = (0..STACK).find(|&i| self.stack[i].is_some() != (i < sp)) {
            return Err(format!(
                "stack[{i}] is {} but sp = {sp} (exactly the first sp frames are present)",
                if i < sp { "empty" } else { "present" }
            ));
        }
        let d = self.data();
        for f in self.stack[..sp].iter().flatten() {
            let ok = match *f {
                Frame::HeroDone(c) => usize::from(c) < d.heroes.len(),
                Frame::PlaceTile(t) => usize::from(t) < d.tiles.len(),
                Frame::MakeRoom(k) => usize::from(k) < MAX_ISLANDS * self.pieces_of_data(),
                Frame::Victim(i) | Frame::Altar(i) => self.rd().islands.contains(&i),
                Frame::DiscardShift { sub } => sub <= 1,
                Frame::Eff { .. } | Frame::EndRevenue => true,
            };
            if !ok {
                return Err(format!(
                    "stack frame {f:?} names no Hero, tile, tile kind or island in play"
                ));
            }
        }
        Ok(())
    }

    fn pieces_of_data(&self) -> usize {
        usize::from(self.data().pieces)
    }

    fn check_dice(&self) -> Result<(), String> {
        let n = self.n();
        let mut k = 0;
        for (colour, &count) in self.rd().dice.iter().enumerate() {
            for _ in 0..count {
                if self.die_loc[k] == UNUSED || usize::from(self.die_colour[k]) != colour {
                    return Err(format!(
                        "die {k}: die_loc {:#x}, die_colour {}: the dice in play are \
                         {:?} (blue, green, red) in colour order",
                        self.die_loc[k],
                        self.die_colour[k],
                        self.rd().dice
                    ));
                }
                k += 1;
            }
        }
        for d in 0..MAX_DICE {
            let loc = self.die_loc[d];
            if d >= k && loc != UNUSED {
                return Err(format!(
                    "die_loc[{d}] = {loc:#x} but only {k} dice are in play"
                ));
            }
            if d < k && !(1..=6).contains(&self.die_value[d]) {
                return Err(format!(
                    "die_value[{d}] = {} is outside 1..=6",
                    self.die_value[d]
                ));
            }
            if d < k && !matches!(loc, POOL | ASIDE) {
                let (p, space) = (usize::from(loc / 8), usize::from(loc % 8));
                if p >= n || space >= SPACES || usize::from(self.seats[p].board[space]) != d + 1 {
                    return Err(format!(
                        "die_loc[{d}] = {loc:#x} names seat {p} space {space}, which does not \
                         hold die {d}"
                    ));
                }
            }
        }
        for p in 0..MAX_PLAYERS {
            for (space, &b) in self.seats[p].board.iter().enumerate() {
                if b == 0 {
                    continue;
                }
                let d = usize::from(b) - 1;
                if d >= k || p >= n || usize::from(self.die_loc[d]) != p * 8 + space {
                    return Err(format!(
                        "seats[{p}].board[{space}] = {b} names die {d}, which is not there"
                    ));
                }
            }
        }
        Ok(())
    }

    fn check_heroes(&self) -> Result<(), String> {
        let n = self.n();
        let d = self.data();
        let all = if d.heroes.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << d.heroes.len()) - 1
        };
        let mut expected = 0u64;
        for h in 0..d.heroes.len() {
            if d.is_market(h) {
                expected |= 1 << h;
            }
        }
        let mut clans = 0u32;
        for p in 0..n {
            let c = usize::from(self.seats[p].clan);
            if c >= d.clans.len() || clans & (1 << c) != 0 {
                return Err(format!(
                    "seats[{p}].clan = {c}: not a clan of the data (0..{}) or another seat's",
                    d.clans.len()
                ));
            }
            clans |= 1 << c;
            for &h in &d.clans[c].heroes {
                expected |= 1 << h;
            }
        }
        let mut seen = 0u64;
        // The place is named lazily (format_args!, formatted only in an error): this
        // runs at every node of a soak, where building the ~17 names cost a quarter of
        // the instructions of a Daimyo random game.
        let mut place = |what: std::fmt::Arguments<'_>, set: u64| -> Result<(), String> {
            if set & !all != 0 || set & seen != 0 {
                return Err(format!(
                    "{what} = {set:#x} holds a Hero that does not exist or is elsewhere too"
                ));
            }
            seen |= set;
            Ok(())
        };
        for p in 0..MAX_PLAYERS {
            let s = &self.seats[p];
            if p >= n && (s.hand | s.deck | s.discard) != 0 {
                return Err(format!("seats[{p}] of an unused seat holds Heroes"));
            }
            place(format_args!("seats[{p}].hand"), s.hand)?;
            place(format_args!("seats[{p}].deck"), s.deck)?;
            place(format_args!("seats[{p}].discard"), s.discard)?;
            if self.known_hand[p] & !s.hand != 0 {
                return Err(format!(
                    "known_hand[{p}] = {:#x} is not within seats[{p}].hand = {:#x}",
                    self.known_hand[p], s.hand
                ));
            }
            let top = self.discard_top[p];
            if top != NONE && (top >= 64 || s.discard & (1 << top) == 0) {
                return Err(format!(
                    "discard_top[{p}] = {top} is not in seats[{p}].discard"
                ));
            }
        }
        for (slot, &h) in self.market.iter().enumerate() {
            if h != NONE {
                if slot >= usize::from(d.market) || h >= 64 {
                    return Err(format!("market[{slot}] = {h}: no such slot or Hero"));
                }
                place(format_args!("market[{slot}]"), 1 << h)?;
            }
        }
        if self.top != NONE {
            if self.top >= 64 {
                return Err(format!("top = {} is not a Hero", self.top));
            }
            place(format_args!("top"), 1 << self.top)?;
        }
        place(format_args!("hero_deck"), self.hero_deck)?;
        for f in self.stack[..usize::from(self.sp)].iter().flatten() {
            if let Frame::HeroDone(c) = *f {
                place(format_args!("stack frame HeroDone({c})"), 1 << c)?;
            }
        }
        if seen != expected {
            return Err(format!(
                "Heroes {:#x} are missing and {:#x} should not be in play (every market Hero and \
                 every Hero of the seats' clans is in exactly one place)",
                expected & !seen,
                seen & !expected
            ));
        }
        Ok(())
    }

    fn check_resources(&self) -> Result<(), String> {
        let n = self.n();
        let total = &self.data().supply;
        for (r, &total) in total.iter().enumerate() {
            let held: i64 = self.seats[..n].iter().map(|s| i64::from(s.res[r])).sum();
            if i64::from(self.supply[r]) + held != i64::from(total) {
                return Err(format!(
                    "supply[{r}] = {} plus the seats' {held} is not the data's total {total} \
                     (resources are conserved)",
                    self.supply[r]
                ));
            }
            if self.params().supply_limited && self.supply[r] < 0 {
                return Err(format!(
                    "supply[{r}] = {} is negative under supply_limited",
                    self.supply[r]
                ));
            }
        }
        if let Some(p) = (n..MAX_PLAYERS).find(|&p| self.seats[p].res != [0; 4]) {
            return Err(format!("seats[{p}].res of an unused seat is not zero"));
        }
        Ok(())
    }

    fn check_pieces(&self) -> Result<(), String> {
        let n = self.n();
        let d = self.data();
        let rd = self.rd();
        let (mut gov, mut bld, mut shadow, mut tokens) = (
            [0u32; MAX_PLAYERS],
            [[0u32; 2]; MAX_PLAYERS],
            [0u32; MAX_PLAYERS],
            [0u32; MAX_PLAYERS],
        );
        for i in 0..MAX_ISLANDS {
            for s in 0..MAX_SITES {
                let on = rd.site_mask & (1 << (i * MAX_SITES + s)) != 0;
                let (g, b) = (self.gov[i][s], self.bld[i][s]);
                if g != NONE {
                    if !on || usize::from(g) >= n {
                        return Err(format!("gov[{i}][{s}] = {g}: no such site or seat"));
                    }
                    gov[usize::from(g)] += 1;
                }
                if b != NONE {
                    if !on || usize::from(b / 2) >= n {
                        return Err(format!("bld[{i}][{s}] = {b}: no such site or seat"));
                    }
                    bld[usize::from(b / 2)][usize::from(b % 2)] += 1;
                }
            }
            for s in 0..MAX_SHADOW_SPACES {
                let v = self.shadow[i][s];
                if v != NONE {
                    if rd.shadow_mask & (1 << (i * MAX_SHADOW_SPACES + s)) == 0
                        || usize::from(v) >= n
                    {
                        return Err(format!("shadow[{i}][{s}] = {v}: no such space or seat"));
                    }
                    shadow[usize::from(v)] += 1;
                }
            }
            for a in 0..MAX_ALTARS {
                let v = self.altar[i][a];
                if v != NONE {
                    let on = rd.islands.contains(&(i as u8)) && a < d.islands[i].altars.len();
                    if !on || usize::from(v) >= n {
                        return Err(format!("altar[{i}][{a}] = {v}: no such altar or seat"));
                    }
                    tokens[usize::from(v)] += 1;
                }
            }
        }
        for p in 0..MAX_PLAYERS {
            let s = &self.seats[p];
            if u32::from(s.governors) != gov[p] || s.governors > d.governors {
                return Err(format!(
                    "seats[{p}].governors = {} but {} Governors on the board (at most {} per clan)",
                    s.governors, gov[p], d.governors
                ));
            }
            if [u32::from(s.built[0]), u32::from(s.built[1])] != bld[p] {
                return Err(format!(
                    "seats[{p}].built = {:?} but {:?} buildings on the board",
                    s.built, bld[p]
                ));
            }
            if u32::from(s.shadows) != shadow[p] || s.shadows > d.shadows {
                return Err(format!(
                    "seats[{p}].shadows = {} but {} Shadows on the board (at most {} per game)",
                    s.shadows, shadow[p], d.shadows
                ));
            }
            if tokens[p] > u32::from(d.relic_tokens) {
                return Err(format!(
                    "seat {p} has {} Restored-relic tokens on altars (at most {})",
                    tokens[p], d.relic_tokens
                ));
            }
        }
        Ok(())
    }

    fn check_tiles(&self) -> Result<(), String> {
        let n = self.n();
        let d = self.data();
        let pieces = self.pieces_of_data();
        let kinds = MAX_ISLANDS * pieces;
        // The islands in play as a bit set and the visibility rule, looked up once rather
        // than per slot and tile kind (the same tests: `islands` holds island numbers
        // below MAX_ISLANDS).
        let in_play = self
            .rd()
            .islands
            .iter()
            .filter(|&&i| usize::from(i) < MAX_ISLANDS)
            .fold(0u32, |m, &i| m | 1 << i);
        let on_island = |i: usize| i < MAX_ISLANDS && in_play & (1 << i) != 0;
        let nml_visible = self.params().nml_visible;
        let mut count = [0u32; 24];
        let mut hidden = 0u32;
        for i in 0..MAX_ISLANDS {
            for slot in 0..MAX_NML {
                let k = self.nml[i][slot];
                let on = on_island(i) && slot < usize::from(d.nml);
                match k {
                    NONE => {}
                    HIDDEN if on && !nml_visible => hidden += 1,
                    k if on && usize::from(k) < kinds => count[usize::from(k)] += 1,
                    _ => {
                        return Err(format!(
                            "nml[{i}][{slot}] = {k}: no such No man's land slot or tile kind"
                        ));
                    }
                }
            }
        }
        let bag: u32 = self.bag.iter().map(|&b| u32::from(b)).sum();
        if hidden > bag {
            return Err(format!(
                "{hidden} face-down No man's land tiles but the bag (which counts them) holds {bag}"
            ));
        }
        for f in self.stack[..usize::from(self.sp)].iter().flatten() {
            if let Frame::MakeRoom(k) = *f {
                count[usize::from(k)] += 1;
            }
        }
        for p in 0..MAX_PLAYERS {
            let s = &self.seats[p];
            if p >= n && (s.loose != 0 || s.restored.iter().any(|&r| r != 0)) {
                return Err(format!("seats[{p}] of an unused seat holds Relic tiles"));
            }
            if s.loose >> kinds != 0 {
                return Err(format!(
                    "seats[{p}].loose = {:#x} holds a tile kind beyond {kinds}",
                    s.loose
                ));
            }
            // Island by island (kind k = island * pieces + piece), without a division per
            // kind.
            for (i, &restored) in s.restored.iter().enumerate() {
                let first = i * pieces;
                let end = (first + pieces).min(count.len());
                for (j, c) in count[first.min(end)..end].iter_mut().enumerate() {
                    *c += (s.loose >> (first + j) & 1) + u32::from(restored);
                }
            }
            if p < n && (s.storage > d.storage.1 || self.storage_used(p) > u32::from(s.storage)) {
                return Err(format!(
                    "seats[{p}].storage = {} (maximum {}) holds {} tiles and Relics",
                    s.storage,
                    d.storage.1,
                    self.storage_used(p)
                ));
            }
        }
        for (k, &seen) in count.iter().enumerate() {
            let c = seen + u32::from(self.bag[k]) + u32::from(self.black_market[k]);
            let want = if k < kinds && on_island(k / pieces) {
                u32::from(d.copies)
            } else {
                0
            };
            if c != want {
                return Err(format!(
                    "Relic tile kind {k}: {c} tiles in the bag ({}), the Black market ({}), No \
                     man's land, storage and restored Relics, but {want} exist (tiles are \
                     conserved)",
                    self.bag[k], self.black_market[k]
                ));
            }
        }
        Ok(())
    }
}
