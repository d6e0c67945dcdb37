//! The legal options of the current decision (DAI-29): the option
//! generators of every phase, frame and effect step, the [`Sink`]s they write into, and the
//! [`OptionCache`] that keeps the options of the decision `settle` stopped at, so a random
//! playout builds each list once.

use super::action::{Action, Kind};
use super::data::{Effect, MAX_DICE, MAX_ISLANDS, Resource, Search};
use super::state::*;
use super::{GovernorMoveScope, RelicDiscard, UnplaceableDie};

/// Where the option generators write: the legal-action `Vec` (capacity reused), or a
/// [`Probe`] that only counts (settling single-option steps needs the count and the first
/// option, not the list).
pub(crate) trait Sink {
    /// Whether this sink only counts (a [`Probe`]): generators may then write the options
    /// in any order and stop at [`Sink::enough`].
    const PROBE: bool = false;
    /// Adds an option.
    fn push(&mut self, a: Action);
    /// Options so far.
    fn len(&self) -> usize;
    /// Forgets the options.
    fn clear(&mut self);
    /// Whether the caller has what it needs (a [`Probe`]: two options), so a generator may
    /// stop early.
    #[inline]
    fn enough(&self) -> bool {
        false
    }
}

impl Sink for Vec<Action> {
    #[inline]
    fn push(&mut self, a: Action) {
        Vec::push(self, a);
    }
    #[inline]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
}

/// Counts options and keeps the first (no allocation, no buffer to clear): the settling
/// probe before [`OptionCache`], kept for the tests of the generators' probe paths.
#[cfg(test)]
#[derive(Clone, Copy)]
pub(crate) struct Probe {
    n: usize,
    first: Action,
}

#[cfg(test)]
impl Probe {
    fn new() -> Probe {
        Probe {
            n: 0,
            first: Action(0),
        }
    }
}

#[cfg(test)]
impl Sink for Probe {
    const PROBE: bool = true;
    #[inline]
    fn push(&mut self, a: Action) {
        if self.n == 0 {
            self.first = a;
        }
        self.n += 1;
    }
    #[inline]
    fn len(&self) -> usize {
        self.n
    }
    #[inline]
    fn clear(&mut self) {
        self.n = 0;
    }
    #[inline]
    fn enough(&self) -> bool {
        self.n >= 2
    }
}

/// Most options [`OptionCache`] holds; a longer list (none is known at the default data,
/// see the module docs' worst-case branching) is not cached.
pub(crate) const CACHE_CAP: usize = 64;

/// The options of the decision `State::settle` stopped at, as `legal_actions` lists them
/// (sorted, without repeats), so that a random playout builds each decision's options once:
/// `settle` must count them anyway to apply single-option steps, and
/// [`GameState::random_action`] picks from this list instead of building it again. Only states
/// made by `new_game` and `apply` carry a valid cache (`canonical`, `determinize` and
/// deserialisation clear it; code that edits a state's fields directly must not rely on
/// `random_action`). Not part of the position: equality and hashing ignore it.
#[derive(Clone, Copy, Debug)]
pub struct OptionCache {
    /// Options written (may exceed [`CACHE_CAP`]: then only the count is right).
    pub(super) n: usize,
    /// The list is complete, sorted and deduplicated.
    pub(super) valid: bool,
    pub(super) acts: [Action; CACHE_CAP],
}

impl Default for OptionCache {
    fn default() -> Self {
        OptionCache {
            n: 0,
            valid: false,
            acts: [Action(0); CACHE_CAP],
        }
    }
}

impl PartialEq for OptionCache {
    /// Always equal: the cache is derived data, not part of the position.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::hash::Hash for OptionCache {
    /// Hashes nothing: the cache is derived data, not part of the position.
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl OptionCache {
    /// The first option written.
    #[inline]
    pub(super) fn first(&self) -> Action {
        self.acts[0]
    }

    /// Sorts and deduplicates the list as `legal_actions` does and marks it valid (or
    /// invalid when it overflowed).
    pub(super) fn seal(&mut self) {
        let n = self.n;
        if n > CACHE_CAP {
            self.valid = false;
            return;
        }
        let list = &mut self.acts[..n];
        if !list.windows(2).all(|w| w[0].0 < w[1].0) {
            list.sort_unstable();
            let mut k = 0;
            for i in 0..n {
                if k == 0 || list[i] != list[k - 1] {
                    list[k] = list[i];
                    k += 1;
                }
            }
            self.n = k;
        }
        self.valid = true;
    }

    /// The cached list, if valid.
    #[inline]
    pub(crate) fn get(&self) -> Option<&[Action]> {
        self.valid.then(|| &self.acts[..self.n])
    }
}

impl Sink for OptionCache {
    #[inline]
    fn push(&mut self, a: Action) {
        // No branch: an overflowing list wraps around (and is then never used).
        self.acts[self.n % CACHE_CAP] = a;
        self.n += 1;
    }
    #[inline]
    fn len(&self) -> usize {
        self.n
    }
    #[inline]
    fn clear(&mut self) {
        self.n = 0;
        self.valid = false;
    }
}
impl State {
    /// Writes the current actor's options into `out` (unsorted).
    pub(super) fn options(&self, out: &mut impl Sink) {
        out.clear();
        let p = self.actor as usize;
        let d = self.data();
        match self.phase {
            Phase::Over => {}
            Phase::SetupGovernor { step } => {
                let n = self.n() as u8;
                if step < n {
                    // A Rice site of an island no other player chose (DAI-2.10).
                    for &i in self.islands() {
                        let i = i as usize;
                        if (0..self.n()).any(|q| self.seats[q].scavenger as usize == i) {
                            continue;
                        }
                        for (site, &r) in d.islands[i].sites.iter().enumerate() {
                            if r == Resource::Rice && self.gov[i][site] == NONE {
                                out.push(Action::new(Kind::Site, i as u8, site as u8));
                            }
                        }
                    }
                } else {
                    for (i, site) in self.free_gov_sites() {
                        out.push(Action::new(Kind::Site, i as u8, site as u8));
                    }
                }
            }
            Phase::PickDie => match self.top() {
                None => {
                    self.die_options(p, out);
                    if self.params().bonus_before_die {
                        // DAI-29 alternative: bonus actions before the die, with the dice
                        // already on the board.
                        self.bonus_options(p, true, out);
                    }
                }
                Some(f) => self.frame_options(p, f, out),
            },
            Phase::Turn => match self.top() {
                None => self.menu_options(p, out),
                Some(f) => self.frame_options(p, f, out),
            },
            Phase::Revenue { .. } => match self.top() {
                None => {
                    for r in 0..3u8 {
                        if d.revenue.0 & (1 << r) != 0 {
                            out.push(Action::new(Kind::Resource, 0, r));
                        }
                    }
                }
                Some(f) => self.frame_options(p, f, out),
            },
            Phase::Helmet => {
                for q in 0..self.n() {
                    out.push(Action::new(Kind::Give, 0, q as u8));
                }
            }
            Phase::Hire { .. } => {
                for slot in 0..d.market as usize {
                    let c = self.market[slot];
                    if c != NONE && self.seats[p].res[3] >= d.heroes[c as usize].cost as u16 {
                        out.push(Action::new(Kind::Hire, 0, slot as u8));
                    }
                }
                out.push(Action::plain(Kind::Done));
            }
        }
    }

    /// Whether the settling probe agrees with the full option list here: the same count
    /// and option when the list has at most one, at least two otherwise (for tests).
    #[cfg(test)]
    pub(crate) fn probe_agrees(&self) -> Result<(), String> {
        let mut probe = Probe::new();
        self.options(&mut probe);
        let mut all = Vec::new();
        self.options(&mut all);
        let ok = match all.len() {
            0 => probe.n == 0,
            1 => probe.n == 1 && probe.first == all[0],
            _ => probe.n >= 2,
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "probe counted {} (first {}) but the options are {all:?}",
                probe.n, probe.first
            ))
        }
    }

    fn space_open(&self, p: usize, space: usize) -> bool {
        if self.seats[p].board[space] != 0 {
            return false;
        }
        if self.params().allow_empty_main_action {
            return true;
        }
        // DAI-21 alternative: Recruitment / Construction only if something is possible.
        match space {
            3 => self.can_recruit_governor(p, 0, false) || self.can_recruit_shadow(p, 0, false),
            4 => (0..2).any(|t| self.can_build(p, t, false, 0)),
            _ => true,
        }
    }

    fn die_options(&self, p: usize, out: &mut impl Sink) {
        let mut groups: u32 = 0; // bit colour*6 + value-1
        for die in 0..MAX_DICE {
            if self.die_loc[die] == POOL {
                groups |= 1 << (self.die_colour[die] * 6 + self.die_value[die] - 1);
            }
        }
        for (space, &want) in SPACE_COLOUR.iter().enumerate() {
            if !self.space_open(p, space) {
                continue;
            }
            // The groups of the space's colour (any colour on Tax).
            let mask = if want == 3 {
                u32::MAX
            } else {
                0x3F << (want * 6)
            };
            for g in bits((groups & mask) as u64) {
                out.push(Action::new(Kind::Die, space as u8, g as u8));
            }
            if out.enough() {
                return;
            }
        }
        if out.len() == 0 {
            match self.params().unplaceable_die {
                UnplaceableDie::SetAside => {
                    for g in bits(groups as u64) {
                        out.push(Action::new(Kind::SetAside, 0, g as u8));
                    }
                }
                UnplaceableDie::LeaveInPool => out.push(Action::plain(Kind::NoDie)),
            }
        }
    }

    fn tile_usable(&self, p: usize, space: usize) -> bool {
        let t = self.seats[p].tiles[space];
        t != 0
            && self.flags.tiles_used & (1 << space) == 0
            && (self.params().just_unlocked_tile_usable || self.flags.tiles_new & (1 << space) == 0)
    }

    fn menu_options<S: Sink>(&self, p: usize, out: &mut S) {
        let f = self.flags;
        if !f.main_done {
            out.push(Action::plain(Kind::Main));
        }
        // DAI-3.4 "Perform the main action": the turn ends once it is resolved, unless
        // `main_action_optional`.
        let end = f.main_done || self.params().main_action_optional;
        if S::PROBE && end {
            // A probe counts in any order: the cheap option first.
            out.push(Action::plain(Kind::EndTurn));
            if out.enough() {
                return;
            }
        }
        self.bonus_options(p, false, out);
        if !S::PROBE && end {
            out.push(Action::plain(Kind::EndTurn));
        }
    }

    /// The bonus actions of the turn menu (DAI-3.4, DAI-5.2–5.5); `pre_die`: before the die
    /// is placed (`bonus_before_die`, DAI-29), when no main-action tile can be used.
    fn bonus_options<S: Sink>(&self, p: usize, pre_die: bool, out: &mut S) {
        let d = self.data();
        let f = self.flags;
        let seat = &self.seats[p];
        let whole = self.params().partial_effects;
        // One pass over the dice: the subset sums; the largest is the sum of all of them.
        let sums = self.subset_sums(p);
        let total = if sums == 0 {
            0
        } else {
            63 - sums.leading_zeros()
        };
        if S::PROBE {
            // A probe counts in any order: the cheap options first, stopping at two.
            if seat.hand != 0 && sums != 0 {
                out.push(Action::plain(Kind::Discard));
            }
            if total >= 13 && !f.ability {
                out.push(Action::plain(Kind::Ability));
            }
            if self.can_reset(p) {
                out.push(Action::plain(Kind::Reset));
            }
            if out.enough() {
                return;
            }
        }
        if !f.hero && seat.hand != 0 {
            // The Heroes whose strength is the sum of a subset of the dice (DAI-5.2).
            let by_strength = &self.rd().by_strength;
            let mut playable = 0u64;
            for st in bits(sums) {
                playable |= by_strength[st];
            }
            for c in bits(seat.hand & playable) {
                if whole || self.applies_in_full(p, &d.heroes[c].effect, c) {
                    out.push(Action::byte(Kind::PlayHero, c as u8));
                    if out.enough() {
                        return;
                    }
                }
            }
        }
        if !S::PROBE && seat.hand != 0 && sums != 0 {
            out.push(Action::plain(Kind::Discard));
        }
        let strong = total >= 13;
        if !S::PROBE && strong && !f.ability {
            out.push(Action::plain(Kind::Ability));
        }
        let tile_ok = |sp: usize| {
            self.tile_usable(p, sp)
                && (whole
                    || self.applies_in_full(
                        p,
                        &d.tiles[seat.tiles[sp] as usize - 1].effect,
                        usize::MAX,
                    ))
        };
        if !pre_die && (f.space as usize) < 5 && tile_ok(f.space as usize) {
            out.push(Action::new(Kind::Tile, 0, f.space));
        }
        if strong && tile_ok(ABILITY_SPACE) {
            out.push(Action::new(Kind::Tile, 0, ABILITY_SPACE as u8));
        }
        if !S::PROBE && self.can_reset(p) {
            out.push(Action::plain(Kind::Reset));
        }
        if self.params().relic_discard == RelicDiscard::AnyTime {
            // DAI-28 alternative: a loose tile to the Black market at any moment.
            for k in bits(seat.loose as u64) {
                out.push(Action::new(Kind::Relic, 0, k as u8));
            }
        }
    }

    /// Whether every step of `steps` can apply now (`partial_effects = false`, DAI-22);
    /// `card`: the Hero being played (not in hand while it resolves), or `usize::MAX`.
    fn applies_in_full(&self, p: usize, steps: &[Effect], card: usize) -> bool {
        let seat = &self.seats[p];
        let hand = if card < 64 {
            seat.hand & !(1u64 << card)
        } else {
            seat.hand
        };
        steps.iter().all(|&e| match e {
            Effect::Draw(n) => (seat.deck | seat.discard).count_ones() >= n as u32,
            Effect::MoveGovernor { .. } => seat.governors > 0 && self.free_gov_mask() != 0,
            Effect::RelicScavenger => {
                let i = seat.scavenger as usize;
                i < MAX_ISLANDS && self.take_slots(p, i) != 0
            }
            Effect::RelicFromBag(_) => self.bag.iter().any(|&c| c > 0),
            Effect::RelicChoice(n) => {
                let mut k = 0;
                for &i in self.islands() {
                    k += self.take_slots(p, i as usize).count_ones();
                }
                k >= n as u32
            }
            Effect::RelicToBlackMarket(n) => seat.loose.count_ones() >= n as u32,
            Effect::BlackMarketFree(_) => self.black_market_takeable(p) != 0,
            Effect::Recruit {
                discount,
                free,
                governor_only,
                ..
            } => {
                self.can_recruit_governor(p, discount, free)
                    || (!governor_only && self.can_recruit_shadow(p, discount, free))
            }
            Effect::Construct {
                discount,
                ignore_surcharge,
                ..
            } => (0..2).any(|t| self.can_build(p, t, ignore_surcharge, discount)),
            Effect::Influence(_)
            | Effect::Production {
                governors: true, ..
            } => seat.governors > 0,
            Effect::Production { farms: true, .. } => seat.built[0] > 0,
            Effect::MoveBuilding => seat.built[0] + seat.built[1] > 0 && self.free_lot_mask() != 0,
            Effect::HeroFree => hand != 0,
            _ => true,
        })
    }

    fn frame_options(&self, p: usize, f: Frame, out: &mut impl Sink) {
        let d = self.data();
        match f {
            Frame::HeroDone(_) | Frame::EndRevenue => {}
            Frame::PlaceTile(t) => {
                let (lo, hi) = if d.tiles[t as usize].yellow {
                    (6, 6 + self.params().yellow_spaces as usize)
                } else {
                    (0, 6)
                };
                for sp in lo..hi {
                    out.push(Action::new(Kind::Place, 0, sp as u8));
                }
            }
            Frame::DiscardShift { sub: 0 } => {
                for c in bits(self.seats[p].hand) {
                    out.push(Action::byte(Kind::Card, c as u8));
                }
            }
            Frame::DiscardShift { .. } => {
                for (space, &die) in self.seats[p].board.iter().enumerate() {
                    if die != 0 {
                        let v = self.die_value[die as usize - 1];
                        if v > 1 {
                            out.push(Action::new(Kind::Shift, space as u8, 0));
                        }
                        if v < 6 {
                            out.push(Action::new(Kind::Shift, space as u8, 1));
                        }
                    }
                }
            }
            Frame::MakeRoom(_) => {
                for k in bits(self.seats[p].loose as u64) {
                    out.push(Action::new(Kind::Relic, 0, k as u8));
                }
            }
            Frame::Victim(island) => {
                for site in self.enemy_governors(p, island as usize) {
                    out.push(Action::new(Kind::Victim, 0, site as u8));
                }
            }
            Frame::Altar(colour) => {
                for a in 0..d.islands[colour as usize].altars.len() {
                    if self.altar[colour as usize][a] == NONE {
                        out.push(Action::new(Kind::Altar, 0, a as u8));
                    }
                }
            }
            Frame::Eff {
                eff,
                done,
                sub,
                x,
                y,
            } => self.effect_options(p, eff, done, sub, x, y, out),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn effect_options(
        &self,
        p: usize,
        eff: Effect,
        done: u8,
        sub: u8,
        x: u8,
        y: u8,
        out: &mut impl Sink,
    ) {
        let d = self.data();
        let optional = self.params().relic_take_optional;
        match eff {
            Effect::GainChoice {
                kinds, distinct, ..
            } => {
                for r in 0..4u8 {
                    if kinds & (1 << r) != 0 && !(distinct && x & (1 << r) != 0) {
                        out.push(Action::new(Kind::Resource, 0, r));
                    }
                }
            }
            Effect::Villager => {
                for t in 0..d.villagers.len() {
                    out.push(Action::new(Kind::Villager, 0, t as u8));
                }
            }
            Effect::MoveGovernor { .. } => {
                if sub == 0 {
                    for &i in self.islands() {
                        for s in 0..d.islands[i as usize].sites.len() {
                            if self.gov[i as usize][s] as usize == p {
                                out.push(Action::new(Kind::Own, i, s as u8));
                            }
                        }
                    }
                    // The first move is compulsory when possible, unless counted effects
                    // may stop early (counted_effects_optional).
                    if done > 0 || self.params().counted_effects_optional {
                        out.push(Action::plain(Kind::Done));
                    }
                } else {
                    let (oi, os) = (x >> 4, x & 15);
                    let other = self.params().governor_move_scope == GovernorMoveScope::OtherIsland;
                    for (i, s) in self.free_gov_sites() {
                        if (i as u8, s as u8) != (oi, os) && !(other && i as u8 == oi) {
                            out.push(Action::new(Kind::Site, i as u8, s as u8));
                        }
                    }
                }
            }
            Effect::RelicScavenger => {
                let i = self.seats[p].scavenger as usize;
                let mut any = false;
                if i < MAX_ISLANDS {
                    for slot in bits(self.take_slots(p, i) as u64) {
                        out.push(Action::new(Kind::Take, 0, slot as u8));
                        any = true;
                    }
                }
                if optional || !any {
                    out.push(Action::plain(Kind::Done));
                }
            }
            Effect::RelicChoice(_) => {
                let mut any = false;
                for &i in self.islands() {
                    for slot in bits(self.take_slots(p, i as usize) as u64) {
                        out.push(Action::new(Kind::Pick, i, slot as u8));
                        any = true;
                    }
                }
                if optional || !any {
                    out.push(Action::plain(Kind::Done));
                }
            }
            Effect::RelicToBlackMarket(_) => {
                for k in bits(self.seats[p].loose as u64) {
                    out.push(Action::new(Kind::Relic, 0, k as u8));
                }
            }
            Effect::BlackMarketFree(_) => {
                for k in bits(self.black_market_takeable(p)) {
                    out.push(Action::new(Kind::Shop, 0, k as u8));
                }
                out.push(Action::plain(Kind::Done));
            }
            Effect::Scavenger { search, shop, .. } => {
                self.scavenger_options(p, search, shop, sub, x, y, out)
            }
            Effect::Recruit {
                n,
                discount,
                free,
                governor_only,
            } => match sub {
                0 => {
                    let g = self.can_recruit_governor(p, discount, free);
                    let s = !governor_only && self.can_recruit_shadow(p, discount, free);
                    if g {
                        out.push(Action::plain(Kind::RecruitGovernor));
                    }
                    if s {
                        out.push(Action::plain(Kind::RecruitShadow));
                    }
                    if self.can_reset(p) {
                        out.push(Action::plain(Kind::Reset));
                    }
                    let may_stop = if n == 0 {
                        self.params().allow_empty_main_action || done > 0 || !(g || s)
                    } else {
                        self.params().counted_effects_optional || !(g || s)
                    };
                    if may_stop || out.len() == 0 {
                        out.push(Action::plain(Kind::Done));
                    }
                }
                1 => {
                    for (i, s) in self.free_gov_sites() {
                        out.push(Action::new(Kind::Site, i as u8, s as u8));
                    }
                }
                _ => {
                    for (i, s) in self.free_shadow_spaces() {
                        out.push(Action::new(Kind::Shadow, i as u8, s as u8));
                    }
                }
            },
            Effect::Construct {
                n,
                discount,
                ignore_surcharge,
            } => match sub {
                0 => {
                    let mut any = false;
                    for t in 0..2 {
                        if self.can_build(p, t, ignore_surcharge, discount) {
                            out.push(Action::new(Kind::Build, 0, t as u8));
                            any = true;
                        }
                    }
                    let may_stop = if n == 0 {
                        self.params().allow_empty_main_action || done > 0 || !any
                    } else {
                        self.params().counted_effects_optional || !any
                    };
                    if may_stop {
                        out.push(Action::plain(Kind::Done));
                    }
                }
                1 => {
                    // Which resource the discount applies to (only those that help and
                    // leave the building affordable).
                    let t = x as usize;
                    let full = self.build_cost(p, t, ignore_surcharge, 0, None);
                    for r in [Resource::Metal, Resource::Crystal] {
                        if full[r as usize] > 0
                            && self.can_pay(
                                p,
                                &self.build_cost(p, t, ignore_surcharge, discount, Some(r)),
                            )
                        {
                            out.push(Action::new(Kind::Resource, 0, r as u8));
                        }
                    }
                }
                _ => {
                    for (i, s) in self.free_lots() {
                        out.push(Action::new(Kind::Lot, i as u8, s as u8));
                    }
                }
            },
            Effect::Influence(_) => {
                for &i in self.islands() {
                    if (0..d.islands[i as usize].sites.len())
                        .any(|s| self.gov[i as usize][s] as usize == p)
                    {
                        out.push(Action::new(Kind::Island, 0, i));
                    }
                }
            }
            Effect::MoveBuilding => {
                if sub == 0 {
                    for &i in self.islands() {
                        for s in 0..d.islands[i as usize].sites.len() {
                            let b = self.bld[i as usize][s];
                            if b != NONE && b as usize / 2 == p {
                                out.push(Action::new(Kind::Own, i, s as u8));
                            }
                        }
                    }
                } else {
                    for (i, s) in self.free_lots() {
                        out.push(Action::new(Kind::Lot, i as u8, s as u8));
                    }
                }
            }
            Effect::MainAction => {
                for sp in 0..5u8 {
                    out.push(Action::new(Kind::MainChoice, 0, sp));
                }
            }
            Effect::HeroFree => {
                let whole = self.params().partial_effects;
                for c in bits(self.seats[p].hand) {
                    if whole || self.applies_in_full(p, &d.heroes[c].effect, c) {
                        out.push(Action::byte(Kind::Card, c as u8));
                    }
                }
            }
            // Automatic steps.
            Effect::Gain(_)
            | Effect::Storage(_)
            | Effect::Draw(_)
            | Effect::Helmet { .. }
            | Effect::RelicFromBag(_)
            | Effect::ResetRecruitment
            | Effect::Production { .. }
            | Effect::Popularity(_) => {}
        }
    }

    /// The No man's land slots of `island` seat `p` may take from, as a bitmask; face-down
    /// tiles are interchangeable, so only the first of them is offered.
    fn take_slots(&self, p: usize, island: usize) -> u8 {
        let mut m = 0u8;
        let mut hidden_seen = false;
        for slot in 0..self.data().nml as usize {
            let k = self.nml[island][slot];
            if k == HIDDEN {
                if hidden_seen {
                    continue;
                }
                hidden_seen = true;
            }
            if self.can_take_slot(p, k) {
                m |= 1 << slot;
            }
        }
        m
    }

    /// Scavenger sub-steps: 0 move; 1 at a stop (x: bit0 taken, bit1 searched, bit2
    /// shopped); 2 Search payment; 3 first Search tile; 4 further Search tiles (y: slots
    /// chosen).
    #[allow(clippy::too_many_arguments)]
    fn scavenger_options(
        &self,
        p: usize,
        search: Search,
        shop: bool,
        sub: u8,
        x: u8,
        y: u8,
        out: &mut impl Sink,
    ) {
        let d = self.data();
        let here = self.seats[p].scavenger as usize;
        match sub {
            0 => {
                for &i in self.islands() {
                    if i as usize != here {
                        out.push(Action::new(Kind::Island, 0, i));
                    }
                }
            }
            1 => {
                let mut any = false;
                if x & 1 == 0 {
                    for slot in bits(self.take_slots(p, here) as u64) {
                        out.push(Action::new(Kind::Take, 0, slot as u8));
                        any = true;
                    }
                }
                if x & 2 == 0
                    && search != Search::None
                    && self.nml[here]
                        .iter()
                        .take(d.nml as usize)
                        .any(|&k| k != NONE)
                {
                    let (amount, kinds) = d.search_cost;
                    let affordable = search == Search::Free
                        || (0..4).any(|r| {
                            kinds & (1 << r) != 0 && self.seats[p].res[r] >= amount as u16
                        });
                    if affordable {
                        out.push(Action::plain(Kind::Search));
                    }
                }
                if x & 4 == 0 && shop && self.can_pay(p, &d.black_market_cost) {
                    for k in bits(self.black_market_takeable(p)) {
                        out.push(Action::new(Kind::Shop, 0, k as u8));
                        if out.enough() {
                            return;
                        }
                    }
                }
                if self.params().relic_take_optional || x & 1 != 0 || !any {
                    out.push(Action::plain(Kind::Done));
                }
            }
            2 => {
                let (amount, kinds) = d.search_cost;
                for r in 0..4u8 {
                    if kinds & (1 << r) != 0 && self.seats[p].res[r as usize] >= amount as u16 {
                        out.push(Action::new(Kind::Resource, 0, r));
                    }
                }
            }
            _ => {
                let mut hidden_seen = false;
                for slot in 0..d.nml as usize {
                    let k = self.nml[here][slot];
                    if k != NONE && y & (1 << slot) == 0 {
                        // Face-down tiles are interchangeable: offer the first one only.
                        if k == HIDDEN {
                            if hidden_seen {
                                continue;
                            }
                            hidden_seen = true;
                        }
                        out.push(Action::new(Kind::SearchTile, 0, slot as u8));
                    }
                }
                if sub == 4 {
                    out.push(Action::plain(Kind::Done));
                }
            }
        }
    }
}
