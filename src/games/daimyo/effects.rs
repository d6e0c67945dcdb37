//! Resolving a decision (docs/rules/daimyo.md): `settle` (automatic steps and
//! single-option decisions), the effect of each chosen option on the turn menu, the die,
//! the effect frames and the end-of-round phases, and the end of a turn.

use super::action::{Action, Kind};
use super::data::{Effect, MAX_DICE, MAX_NML, Resource, Search};
use super::options::{OptionCache, Sink};
use super::state::*;
use super::{HelmetTrigger, NmlRefill, ShadowVictim};
use crate::game::Chance;

impl State {
    /// Resolves automatic steps and single-option decisions until a real decision (two or
    /// more options) or the end of the game.
    pub(super) fn settle<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        // The full list (not a counting probe): the decision this stops at keeps it.
        let mut buf = OptionCache::default();
        loop {
            if !self.run_auto(chance, &mut buf) {
                if self.phase == Phase::Over {
                    self.cache.clear();
                    return;
                }
                self.options(&mut buf);
            }
            match buf.n {
                1 => {
                    // A forced move: told in transcripts that listen (`log::listening`).
                    if super::log::listening() {
                        super::log::note_forced(self, buf.first());
                    }
                    self.choose(buf.first(), chance)
                }
                0 => unreachable!("no option at a decision node: {:?}", self.phase),
                _ => {
                    buf.seal();
                    // The used part only (a whole-array copy costs a `memcpy` call).
                    self.cache.n = buf.n;
                    self.cache.valid = buf.valid;
                    if buf.valid {
                        for (to, from) in self.cache.acts.iter_mut().zip(&buf.acts[..buf.n]) {
                            *to = *from;
                        }
                    }
                    return;
                }
            }
        }
    }

    /// Resolves the automatic steps on top of the stack; pops effects that cannot apply
    /// (DAI-22 `partial_effects`). Returns `true` when it stopped at an effect's decision,
    /// with that decision's options in `buf`.
    fn run_auto<C: Chance + ?Sized>(&mut self, chance: &mut C, buf: &mut OptionCache) -> bool {
        while matches!(
            self.phase,
            Phase::Turn | Phase::Revenue { .. } | Phase::PickDie
        ) {
            let Some(f) = self.top() else {
                if self.pending_refill != 0 {
                    self.flush_refills(chance);
                }
                return false;
            };
            let p = self.actor as usize;
            match f {
                Frame::HeroDone(c) => {
                    self.pop();
                    self.put_on_discard(p, c as usize);
                }
                Frame::EndRevenue => {
                    self.pop();
                    self.next_revenue();
                }
                Frame::Eff { eff, done, y, .. } => {
                    let auto = match eff {
                        Effect::Gain(a) => {
                            self.pop();
                            self.gain(p, &a);
                            true
                        }
                        Effect::Storage(n) => {
                            self.pop();
                            self.storage_up(p, n);
                            true
                        }
                        Effect::Draw(n) => {
                            self.pop();
                            for _ in 0..n {
                                self.draw_hero(p, chance);
                            }
                            true
                        }
                        Effect::Helmet { first_this_round } => {
                            self.pop();
                            if !first_this_round {
                                self.helmet = p as u8;
                            } else if y == 1 && !self.helmet_taken {
                                // y = 1: a die-placed Help from Villagers that may earn it
                                // (DAI-18); the first one this round takes it.
                                self.helmet_taken = true;
                                self.helmet = p as u8;
                            }
                            true
                        }
                        Effect::RelicFromBag(n) => {
                            if done + 1 >= n {
                                self.pop();
                            } else {
                                self.set_top(Frame::Eff {
                                    eff,
                                    done: done + 1,
                                    sub: 0,
                                    x: 0,
                                    y,
                                });
                            }
                            if let Some(k) = self.draw_tile(chance) {
                                self.receive_tile(p, k);
                            }
                            true
                        }
                        Effect::ResetRecruitment => {
                            self.pop();
                            self.reset_track(p);
                            true
                        }
                        Effect::Production { governors, farms } => {
                            self.pop();
                            self.production(p, governors, farms);
                            true
                        }
                        Effect::Popularity(n) => {
                            self.pop();
                            self.add_pp(p, source::OTHER, n as i16);
                            true
                        }
                        _ => false,
                    };
                    if !auto {
                        self.options(buf);
                        if buf.n > 0 {
                            return true;
                        }
                        // Nothing can apply: the step ends (DAI-22).
                        self.pop();
                    }
                }
                _ => {
                    self.options(buf);
                    if buf.n > 0 {
                        return true;
                    }
                    self.pop();
                }
            }
        }
        false
    }

    /// Production (DAI-4.3): one resource per own Governor and per own Techno-farm.
    fn production(&mut self, p: usize, governors: bool, farms: bool) {
        let d = self.data();
        for &i in self.islands() {
            let i = i as usize;
            for (site, &r) in d.islands[i].sites.iter().enumerate() {
                if governors && self.gov[i][site] as usize == p {
                    self.gain_res(p, r as usize, 1);
                }
                if farms && self.bld[i][site] as usize == 2 * p {
                    self.gain_res(p, r as usize, 1);
                }
            }
        }
    }

    /// Applies one decision of the actor.
    pub(super) fn choose<C: Chance + ?Sized>(&mut self, a: Action, chance: &mut C) {
        let p = self.actor as usize;
        match self.phase {
            Phase::Over => unreachable!("no decision after the end"),
            Phase::SetupGovernor { step } => {
                let (i, site) = (a.a() as usize, a.b() as usize);
                self.place_governor(p, i, site);
                let n = self.n() as u8;
                if step < n {
                    // The Scavenger goes to the island of the first Governor (DAI-2.10).
                    self.seats[p].scavenger = i as u8;
                }
                let step = step + 1;
                if step == 2 * n {
                    self.start_round(chance);
                } else {
                    self.phase = Phase::SetupGovernor { step };
                    self.actor = (self.first + step % n) % n;
                }
            }
            Phase::PickDie => match (self.top(), a.kind()) {
                (Some(f), _) => self.frame_choose(p, f, a, chance),
                (None, Kind::Die | Kind::SetAside | Kind::NoDie) => self.take_die(p, a),
                // A bonus action before the die (bonus_before_die, DAI-29).
                (None, _) => self.menu_choose(p, a),
            },
            Phase::Turn | Phase::Revenue { .. } => match self.top() {
                Some(f) => self.frame_choose(p, f, a, chance),
                None if self.phase == Phase::Turn => self.menu_choose(p, a),
                None => {
                    // Revenue (DAI-6.4): the chosen resource, the fixed gain, then the
                    // yellow tiles.
                    let d = self.data();
                    self.gain_res(p, a.b() as usize, 1);
                    self.gain(p, &d.revenue.1);
                    self.push(Frame::EndRevenue);
                    for sp in (6..TILE_SPACES).rev() {
                        let t = self.seats[p].tiles[sp];
                        if t != 0 {
                            self.push_steps(&d.tiles[t as usize - 1].effect, false);
                        }
                    }
                }
            },
            Phase::Helmet => {
                // DAI-6.5: give it to any player or keep it.
                self.helmet = a.b();
                self.phase = Phase::Hire { k: 0 };
                self.actor = self.helmet;
            }
            Phase::Hire { k } => match a.kind() {
                Kind::Hire => {
                    let slot = a.b() as usize;
                    let c = self.market[slot] as usize;
                    self.spend_res(p, 3, self.data().heroes[c].cost as u16);
                    self.seats[p].hand |= 1u64 << c;
                    self.known_hand[p] |= 1u64 << c;
                    self.seats[p].heroes_hired += 1;
                    // DAI-6.6: the visible top card fills the slot; the next one is flipped.
                    self.market[slot] = self.top;
                    self.top = self.draw_market(chance);
                }
                _ => {
                    let n = self.n() as u8;
                    if k + 1 < n {
                        self.phase = Phase::Hire { k: k + 1 };
                        self.actor = (self.helmet + k + 1) % n;
                    } else {
                        // DAI-6.6: everyone draws 1, then the next round.
                        for q in 0..self.n() {
                            self.draw_hero(q, chance);
                        }
                        self.round += 1;
                        self.start_round(chance);
                    }
                }
            },
        }
    }

    fn take_die(&mut self, p: usize, a: Action) {
        // Bonus actions used before the die (bonus_before_die) stay used.
        self.flags.space = NONE;
        self.flags.main_done = true;
        self.flags.first_blue = false;
        self.phase = Phase::Turn;
        match a.kind() {
            Kind::Die | Kind::SetAside => {
                let g = a.b();
                let die = (0..MAX_DICE)
                    .find(|&d| {
                        self.die_loc[d] == POOL
                            && self.die_colour[d] * 6 + self.die_value[d] - 1 == g
                    })
                    .expect("a die of the chosen group is in the pool");
                if a.kind() == Kind::SetAside {
                    self.die_loc[die] = ASIDE;
                    return;
                }
                let space = a.a() as usize;
                if self.die_colour[die] == 0 && !self.blue_placed {
                    self.blue_placed = true;
                    self.flags.first_blue = true;
                }
                self.die_loc[die] = (p * 8 + space) as u8;
                self.seats[p].board[space] = die as u8 + 1;
                self.flags.space = space as u8;
                if space == TAX {
                    // Tax is immediate (DAI-4.14).
                    self.seats[p].mains[TAX] += 1;
                    self.push_steps(self.main_steps(TAX), true);
                } else {
                    self.flags.main_done = false;
                }
            }
            _ => {} // NoDie: the turn has no main action.
        }
    }

    fn menu_choose(&mut self, p: usize, a: Action) {
        match a.kind() {
            Kind::Main => {
                let space = self.flags.space as usize;
                self.flags.main_done = true;
                self.seats[p].mains[space] += 1;
                let eligible = match self.params().helmet_trigger {
                    HelmetTrigger::FirstVillagersDie => true,
                    HelmetTrigger::FirstBlueDie => self.flags.first_blue,
                };
                self.push_steps(self.main_steps(space), eligible);
            }
            Kind::PlayHero => {
                self.flags.hero = true;
                self.play_hero(p, a.x() as usize);
            }
            Kind::Discard => self.push(Frame::DiscardShift { sub: 0 }),
            Kind::Ability => {
                self.flags.ability = true;
                let d = self.data();
                let same = self.params().nature_same_kind;
                for &eff in d.clans[self.seats[p].clan as usize].ability.iter().rev() {
                    let eff = match eff {
                        Effect::GainChoice { n, kinds, distinct } => Effect::GainChoice {
                            n,
                            kinds,
                            distinct: distinct || !same,
                        },
                        e => e,
                    };
                    self.push(Frame::Eff {
                        eff,
                        done: 0,
                        sub: 0,
                        x: 0,
                        y: 0,
                    });
                }
            }
            Kind::Tile => {
                let sp = a.b() as usize;
                self.flags.tiles_used |= 1 << sp;
                let t = self.seats[p].tiles[sp] as usize - 1;
                self.push_steps(&self.data().tiles[t].effect, false);
            }
            Kind::Reset => {
                let cost = self.data().recruit_reset;
                self.pay(p, &cost);
                self.reset_track(p);
            }
            Kind::EndTurn => self.end_turn(),
            Kind::Relic => {
                // relic_discard = any_time (DAI-28).
                let k = a.b();
                self.seats[p].loose &= !(1 << k);
                self.black_market[k as usize] += 1;
            }
            k => unreachable!("{k:?} is not a menu option"),
        }
    }

    fn frame_choose<C: Chance + ?Sized>(&mut self, p: usize, f: Frame, a: Action, chance: &mut C) {
        let d = self.data();
        match f {
            Frame::PlaceTile(t) => {
                let sp = a.b() as usize;
                // A new tile may cover an old one, which is lost (DAI-4.12).
                self.seats[p].tiles[sp] = t + 1;
                self.flags.tiles_new |= 1 << sp;
                self.pop();
            }
            Frame::DiscardShift { sub: 0 } => {
                let c = a.x() as usize;
                self.seats[p].hand &= !(1u64 << c);
                self.known_hand[p] &= !(1u64 << c);
                self.put_on_discard(p, c);
                self.set_top(Frame::DiscardShift { sub: 1 });
            }
            Frame::DiscardShift { .. } => {
                let die = self.seats[p].board[a.a() as usize] as usize - 1;
                if a.b() == 1 {
                    self.die_value[die] += 1;
                } else {
                    self.die_value[die] -= 1;
                }
                self.pop();
            }
            Frame::MakeRoom(kind) => {
                let k = a.b();
                self.seats[p].loose &= !(1 << k);
                self.black_market[k as usize] += 1;
                self.pop();
                self.add_tile(p, kind);
            }
            Frame::Victim(island) => {
                self.pop();
                self.kill(p, island as usize, a.b() as usize);
            }
            Frame::Altar(colour) => {
                self.pop();
                self.restore(p, colour as usize, a.b() as usize);
            }
            Frame::HeroDone(_) | Frame::EndRevenue => unreachable!("automatic frame"),
            Frame::Eff {
                eff,
                done,
                sub,
                x,
                y,
            } => {
                let next = |s: &mut State, done: u8, sub: u8, x: u8, y: u8, limit: u8| {
                    if limit > 0 && done >= limit {
                        s.pop();
                    } else {
                        s.set_top(Frame::Eff {
                            eff,
                            done,
                            sub,
                            x,
                            y,
                        });
                    }
                };
                match eff {
                    Effect::GainChoice { n, .. } => {
                        let r = a.b();
                        self.gain_res(p, r as usize, 1);
                        next(self, done + 1, 0, x | (1 << r), y, n);
                    }
                    Effect::Villager => {
                        let t = a.b() as usize;
                        let back = self.villagers & (1 << t) != 0;
                        self.villagers ^= 1 << t;
                        self.pop();
                        let v = &d.villagers[t];
                        self.push_steps(if back { &v.back } else { &v.front }, false);
                    }
                    Effect::MoveGovernor { collect, up_to } => {
                        if a.kind() == Kind::Done {
                            self.pop();
                        } else if sub == 0 {
                            next(self, done, 1, (a.a() << 4) | a.b(), y, 0);
                        } else {
                            let (oi, os) = ((x >> 4) as usize, (x & 15) as usize);
                            let (ni, ns) = (a.a() as usize, a.b() as usize);
                            self.gov[oi][os] = NONE;
                            self.gov[ni][ns] = p as u8;
                            self.add_influence(oi, p, -2);
                            self.add_influence(ni, p, 2);
                            let r = d.islands[ni].sites[ns];
                            self.gain_res(p, r as usize, collect as u16);
                            next(self, done + 1, 0, 0, y, up_to);
                        }
                    }
                    Effect::RelicScavenger => {
                        self.pop();
                        if a.kind() == Kind::Take {
                            let i = self.seats[p].scavenger as usize;
                            self.take_from(p, i, a.b() as usize, false, chance);
                        }
                    }
                    Effect::RelicChoice(n) => {
                        if a.kind() == Kind::Done {
                            self.pop();
                        } else {
                            next(self, done + 1, 0, 0, y, n);
                            self.take_from(p, a.a() as usize, a.b() as usize, false, chance);
                        }
                    }
                    Effect::RelicToBlackMarket(n) => {
                        let k = a.b();
                        self.seats[p].loose &= !(1 << k);
                        self.black_market[k as usize] += 1;
                        next(self, done + 1, 0, 0, y, n);
                    }
                    Effect::BlackMarketFree(n) => {
                        if a.kind() == Kind::Done {
                            self.pop();
                        } else {
                            let k = a.b();
                            self.black_market[k as usize] -= 1;
                            next(self, done + 1, 0, 0, y, n);
                            self.receive_tile(p, k);
                        }
                    }
                    Effect::Scavenger {
                        moves,
                        search,
                        shop,
                    } => match (sub, a.kind()) {
                        (0, _) => {
                            // Move to another island (DAI-4.4; DAI-4.4).
                            self.seats[p].scavenger = a.b();
                            next(self, done, 1, 0, 0, 0);
                        }
                        (1, Kind::Take) => {
                            next(self, done, 1, x | 1, 0, 0);
                            let i = self.seats[p].scavenger as usize;
                            // Only the Relic main action shops (DAI-4.4): its take is DAI-4.4's.
                            self.take_from(p, i, a.b() as usize, shop, chance);
                        }
                        (1, Kind::Search) => {
                            let sub = if search == Search::Free { 3 } else { 2 };
                            next(self, done, sub, x | 2, 0, 0);
                        }
                        (1, Kind::Shop) => {
                            // DAI-4.4: 1 Gold for a Black-market tile.
                            let k = a.b();
                            let cost = d.black_market_cost;
                            self.pay(p, &cost);
                            self.black_market[k as usize] -= 1;
                            next(self, done, 1, x | 4, 0, 0);
                            self.receive_tile(p, k);
                        }
                        (1, _) => next(self, done + 1, 0, 0, 0, moves),
                        (2, _) => {
                            self.spend_res(p, a.b() as usize, d.search_cost.0 as u16);
                            next(self, done, 3, x, 0, 0);
                        }
                        (_, Kind::SearchTile) => {
                            let y = y | (1 << a.b());
                            if y.count_ones() >= d.search_discard as u32 {
                                self.finish_search(p, y, chance);
                                next(self, done, 1, x, 0, 0);
                            } else {
                                next(self, done, 4, x, y, 0);
                            }
                        }
                        _ => {
                            self.finish_search(p, y, chance);
                            next(self, done, 1, x, 0, 0);
                        }
                    },
                    Effect::Recruit {
                        n, discount, free, ..
                    } => match (sub, a.kind()) {
                        (0, Kind::RecruitGovernor) => next(self, done, 1, 0, 0, 0),
                        (0, Kind::RecruitShadow) => next(self, done, 2, 0, 0, 0),
                        (0, Kind::Reset) => {
                            let cost = d.recruit_reset;
                            self.pay(p, &cost);
                            self.reset_track(p);
                        }
                        (0, _) => self.pop(),
                        (1, _) => {
                            let cost = self.recruit_cost(p, discount, free);
                            self.spend_res(p, 0, cost);
                            self.advance_track(p);
                            next(self, done + 1, 0, 0, 0, n);
                            self.place_governor(p, a.a() as usize, a.b() as usize);
                        }
                        _ => {
                            let cost = self.recruit_cost(p, discount, free);
                            self.spend_res(p, 0, cost);
                            self.advance_track(p);
                            next(self, done + 1, 0, 0, 0, n);
                            self.place_shadow(p, a.a() as usize, a.b() as usize, chance);
                        }
                    },
                    Effect::Construct {
                        n,
                        discount,
                        ignore_surcharge,
                    } => match (sub, a.kind()) {
                        (0, Kind::Build) => {
                            let sub = if discount > 0 { 1 } else { 2 };
                            next(self, done, sub, a.b(), NONE, 0);
                        }
                        (0, _) => self.pop(),
                        (1, _) => next(self, done, 2, x, a.b(), 0),
                        _ => {
                            let t = x as usize;
                            let disc = (y != NONE).then(|| Resource::ALL[y as usize]);
                            let cost = self.build_cost(p, t, ignore_surcharge, discount, disc);
                            self.pay(p, &cost);
                            next(self, done + 1, 0, 0, 0, n);
                            self.build(p, t, a.a() as usize, a.b() as usize);
                        }
                    },
                    Effect::Influence(n) => {
                        self.pop();
                        self.add_influence(a.b() as usize, p, n as i16);
                    }
                    Effect::MoveBuilding => {
                        if sub == 0 {
                            next(self, done, 1, (a.a() << 4) | a.b(), y, 0);
                        } else {
                            self.pop();
                            let (oi, os) = ((x >> 4) as usize, (x & 15) as usize);
                            let (ni, ns) = (a.a() as usize, a.b() as usize);
                            let b = self.bld[oi][os];
                            self.bld[oi][os] = NONE;
                            self.bld[ni][ns] = b;
                            let inf = d.buildings[b as usize % 2].influence as i16;
                            self.add_influence(oi, p, -inf);
                            self.add_influence(ni, p, inf);
                        }
                    }
                    Effect::MainAction => {
                        self.pop();
                        self.push_steps(self.main_steps(a.b() as usize), false);
                    }
                    Effect::HeroFree => {
                        self.pop();
                        self.play_hero(p, a.x() as usize);
                    }
                    _ => unreachable!("automatic effect {eff:?} has no decision"),
                }
            }
        }
    }

    /// Takes the tile in `slot` of `island`'s No man's land, refills the slot at once
    /// (DAI-4.4, DAI-20) and stores the tile.
    /// `immediate`: the Relic action's own take (DAI-4.4), always refilled at once; other
    /// takes follow `nml_refill` (DAI-20). A face-down tile is revealed as it is taken.
    fn take_from<C: Chance + ?Sized>(
        &mut self,
        p: usize,
        island: usize,
        slot: usize,
        immediate: bool,
        chance: &mut C,
    ) {
        let mut k = self.nml[island][slot];
        self.nml[island][slot] = NONE;
        if k == HIDDEN {
            k = self.draw_kind(chance);
        }
        if immediate || self.params().nml_refill == NmlRefill::Immediate {
            self.refill(island, slot, chance);
        } else {
            self.pending_refill |= 1 << (island * MAX_NML + slot);
        }
        self.receive_tile(p, k);
    }

    /// Refills the slots emptied during the effect just resolved (`nml_refill =
    /// after_effect`, DAI-20).
    fn flush_refills<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        let pending = self.pending_refill;
        self.pending_refill = 0;
        for b in bits(pending as u64) {
            self.refill(b / MAX_NML, b % MAX_NML, chance);
        }
    }

    /// Search (DAI-4.4): the chosen tiles go to the Black market, as many are drawn.
    fn finish_search<C: Chance + ?Sized>(&mut self, p: usize, slots: u8, chance: &mut C) {
        let i = self.seats[p].scavenger as usize;
        for slot in bits(slots as u64) {
            let mut k = self.nml[i][slot];
            self.nml[i][slot] = NONE;
            if k == HIDDEN {
                k = self.draw_kind(chance);
            }
            self.black_market[k as usize] += 1;
        }
        for slot in bits(slots as u64) {
            self.refill(i, slot, chance);
        }
    }

    /// A Shadow (DAI-4.11): Gold of its space, +1 influence, one enemy Governor
    /// eliminated.
    fn place_shadow<C: Chance + ?Sized>(&mut self, p: usize, i: usize, sp: usize, chance: &mut C) {
        let gold = self.data().islands[i].shadow_spaces[sp];
        self.shadow[i][sp] = p as u8;
        self.seats[p].shadows += 1;
        self.gain_res(p, 3, gold as u16);
        self.add_influence(i, p, 1);
        let count = self.enemy_governors(p, i).count();
        if count == 1 || (count > 1 && self.params().shadow_victim == ShadowVictim::Random) {
            let k = if count == 1 {
                0
            } else {
                self.public_below(chance, count as u32) as usize
            };
            let site = self.enemy_governors(p, i).nth(k).expect("k < count");
            self.kill(p, i, site);
        } else if count > 1 {
            self.push(Frame::Victim(i as u8));
        }
    }

    /// A Building of type `t` on `i`/`site` (DAI-4.12–4.13).
    fn build(&mut self, p: usize, t: usize, i: usize, site: usize) {
        let d = self.data();
        self.bld[i][site] = (2 * p + t) as u8;
        self.seats[p].built[t] += 1;
        if t == 0 {
            // Techno-farm: 1 of the site's resource at once (DAI-4.13).
            let r = d.islands[i].sites[site];
            self.gain_res(p, r as usize, 1);
        }
        self.add_influence(i, p, d.buildings[t].influence as i16);
        let tile = d.buildings[t].tiles[self.seats[p].built[t] as usize - 1];
        self.push(Frame::PlaceTile(tile));
    }

    fn end_turn(&mut self) {
        let n = self.n() as u8;
        self.turn_index += 1;
        self.flags = TurnFlags::default();
        if self.turn_index == 3 * n {
            self.end_round();
        } else {
            self.actor = (self.first + self.turn_index) % n;
            self.phase = Phase::PickDie;
        }
    }
}
