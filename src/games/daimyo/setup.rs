//! The rules value and the setup: [`RulesData`] checked and derived from the parameters
//! and the player count (`check_rules`), the setup of a new game (islands, tiles,
//! Heroes, clans, first Governors) and the start of each round (Hero market, dice).

use super::Params;
use super::data::{
    Data, MAX_ALTARS, MAX_DICE, MAX_ISLANDS, MAX_NML, MAX_SHADOW_SPACES, MAX_SITES, Resource,
};
use super::options::OptionCache;
use super::state::*;
use crate::game::{Chance, MAX_PLAYERS, RulesRef};
use crate::params::ParamError;

/// Rules data: the checked component data and what setup derives from it.
#[derive(Debug)]
pub struct RulesData {
    /// The component data.
    pub data: Data,
    /// Islands in play (indices into `data.islands`).
    pub islands: Vec<u8>,
    /// Dice in play per colour (blue, green, red).
    pub dice: [u8; 3],
    /// Clan per seat when fixed.
    pub clans: Option<Vec<u8>>,
    /// The Heroes of each strength 0..64, as sets (a Hero of strength 64 or more is never
    /// playable by strength).
    pub by_strength: [u64; 64],
    /// The production sites of the islands in play, as a set of `island * MAX_SITES + site`.
    pub site_mask: u64,
    /// The Shadow spaces of the islands in play, as a set of `island * MAX_SHADOW_SPACES +
    /// space`.
    pub shadow_mask: u64,
}
pub(super) fn check_rules(params: &Params, players: usize) -> Result<RulesData, ParamError> {
    let owner = "game daimyo";
    let invalid = |reason: String| ParamError::Invalid {
        owner: owner.into(),
        reason,
    };
    let data = match params.data.text() {
        None => Data::builtin(),
        Some(text) => Data::parse(text, params.data.path().unwrap_or("?"))?,
    };
    params.returns.check("returns", players, owner)?;
    if !(1..=2).contains(&params.yellow_spaces) {
        return Err(invalid(format!(
            "yellow_spaces = {} must be 1 or 2 (DAI-10)",
            params.yellow_spaces
        )));
    }
    if let Some(f) = params.first_player.0
        && f as usize >= players
    {
        return Err(invalid(format!(
            "first_player = {f} is not a seat of a {players}-player game (0..={})",
            players - 1
        )));
    }
    let clans = match (params.clan_assignment, &params.clans.0) {
        (super::ClanAssignment::Fixed, None) => {
            return Err(invalid(
                "clan_assignment = fixed needs clans: one clan name per seat".into(),
            ));
        }
        (super::ClanAssignment::Random, Some(_)) => {
            return Err(invalid(
                "clans lists a clan per seat but clan_assignment = random; set clan_assignment=fixed"
                    .into(),
            ));
        }
        (_, None) => {
            if data.clans.len() < players {
                return Err(invalid(format!(
                    "the data has {} clans for {players} players",
                    data.clans.len()
                )));
            }
            None
        }
        (_, Some(names)) => {
            if names.len() != players {
                return Err(invalid(format!(
                    "clans lists {} clans for {players} players; give one per seat",
                    names.len()
                )));
            }
            let mut out = Vec::new();
            for name in names {
                let c = data
                    .clans
                    .iter()
                    .position(|c| &c.name == name)
                    .ok_or_else(|| {
                        invalid(format!(
                            "clans: unknown clan '{name}'; valid: random, or names from {}",
                            data.clans
                                .iter()
                                .map(|c| c.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })?;
                if out.contains(&(c as u8)) {
                    return Err(invalid(format!("clans: '{name}' is listed twice")));
                }
                out.push(c as u8);
            }
            Some(out)
        }
    };
    // DAI-2.11: each seat starts with its clan's Gold plus its `seat_gold` bonus, within
    // 0..= the supply's Gold; under `supply_limited` the starts come out of that supply.
    // Checked at the fewest and the most starting Gold any clan the seats may get has.
    let gold = Resource::Gold as usize;
    let candidates: Vec<usize> = match &clans {
        Some(list) => list.iter().map(|&c| c as usize).collect(),
        None => (0..data.clans.len()).collect(),
    };
    let starts = candidates
        .iter()
        .map(|&c| i32::from(data.clans[c].start[gold]));
    let (least, most) = starts.fold((i32::MAX, i32::MIN), |(a, b), g| (a.min(g), b.max(g)));
    let supply_gold = i32::from(data.supply[gold]);
    for base in [least, most] {
        params
            .seat_gold
            .check(
                "seat_gold",
                players,
                base,
                (0, supply_gold),
                "Gold",
                params
                    .supply_limited
                    .then_some((supply_gold, "the general supply (supply_limited, DAI-14)")),
            )
            .map_err(invalid)?;
    }
    let count = data.count(players).clone();
    let mut by_strength = [0u64; 64];
    for (c, h) in data.heroes.iter().enumerate() {
        if (h.strength as usize) < 64 {
            by_strength[h.strength as usize] |= 1u64 << c;
        }
    }
    let (mut site_mask, mut shadow_mask) = (0u64, 0u64);
    for &i in &count.islands {
        let isl = &data.islands[i as usize];
        for s in 0..isl.sites.len() {
            site_mask |= 1 << (i as usize * MAX_SITES + s);
        }
        for s in 0..isl.shadow_spaces.len() {
            shadow_mask |= 1 << (i as usize * MAX_SHADOW_SPACES + s);
        }
    }
    Ok(RulesData {
        by_strength,
        site_mask,
        shadow_mask,
        islands: count.islands,
        dice: count.dice,
        clans,
        data,
    })
}
impl State {
    pub(super) fn setup<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> State {
        let n = rules.players();
        let mut s = State {
            rules,
            gov: [[NONE; MAX_SITES]; MAX_ISLANDS],
            bld: [[NONE; MAX_SITES]; MAX_ISLANDS],
            shadow: [[NONE; MAX_SHADOW_SPACES]; MAX_ISLANDS],
            altar: [[NONE; MAX_ALTARS]; MAX_ISLANDS],
            influence: [[0; MAX_PLAYERS]; MAX_ISLANDS],
            nml: [[NONE; MAX_NML]; MAX_ISLANDS],
            black_market: [0; 24],
            bag: [0; 24],
            villagers: 0,
            market: [NONE; 8],
            top: NONE,
            hero_deck: 0,
            die_colour: [0; MAX_DICE],
            die_value: [1; MAX_DICE],
            die_loc: [UNUSED; MAX_DICE],
            seats: [SeatState {
                clan: 0,
                res: [0; 4],
                storage: 0,
                loose: 0,
                restored: [0; MAX_ISLANDS],
                hand: 0,
                deck: 0,
                discard: 0,
                scavenger: NONE,
                track: 0,
                at_max: false,
                shadows: 0,
                governors: 0,
                built: [0; 2],
                tiles: [0; TILE_SPACES],
                board: [0; SPACES],
                popularity: 0,
                pp: [0; source::COUNT],
                heroes_played: 0,
                heroes_hired: 0,
                assassinations: 0,
                mains: [0; SPACES],
            }; MAX_PLAYERS],
            helmet: 0,
            helmet_taken: false,
            blue_placed: false,
            round: 1,
            first: 0,
            turn_index: 0,
            actor: 0,
            phase: Phase::SetupGovernor { step: 0 },
            flags: TurnFlags::default(),
            stack: [None; STACK],
            sp: 0,
            ply: 0,
            known_hand: [0; MAX_PLAYERS],
            discard_top: [NONE; MAX_PLAYERS],
            supply: [0; 4],
            pending_refill: 0,
            history: 0,
            recall: [0; MAX_PLAYERS],
            cache: OptionCache::default(),
        };
        for r in 0..4 {
            s.supply[r] = rules.data().data.supply[r] as i32;
        }
        let rd = s.rd();
        let d = &rd.data;
        let pieces = d.pieces as usize;
        // Relic tiles of the islands in play (DAI-2.6), 3 per No man's land (DAI-2.6),
        // 3 face up in the Black market (DAI-2.6).
        for &i in &rd.islands {
            for piece in 0..pieces {
                s.bag[i as usize * pieces + piece] = d.copies;
            }
        }
        for &i in &rd.islands {
            for slot in 0..d.nml as usize {
                s.refill(i as usize, slot, chance);
            }
        }
        for _ in 0..d.black_market_start {
            if let Some(k) = s.draw_tile(chance) {
                s.black_market[k as usize] += 1;
            }
        }
        // Hero deck, market of 5 and the face-up top card (DAI-2.3).
        for h in 0..d.heroes.len() {
            if d.is_market(h) {
                s.hero_deck |= 1u64 << h;
            }
        }
        for slot in 0..d.market as usize {
            s.market[slot] = s.draw_market(chance);
        }
        s.top = s.draw_market(chance);
        // Villager tiles (DAI-2.4): a random side, or the front (the "Draw 2" face down).
        for (t, v) in d.villagers.iter().enumerate() {
            if v.random_side && s.public_below(chance, 2) == 1 {
                s.villagers |= 1 << t;
            }
        }
        // Dice (DAI-2.5, DAI-11).
        let mut k = 0;
        for (colour, &count) in rd.dice.iter().enumerate() {
            for _ in 0..count {
                s.die_colour[k] = colour as u8;
                s.die_loc[k] = POOL;
                k += 1;
            }
        }
        // Clans (DAI-31): fixed, or dealt at random.
        let mut clans = [0u8; MAX_PLAYERS];
        match &rd.clans {
            Some(list) => clans[..n].copy_from_slice(&list[..n]),
            None => {
                // Dealt without replacement from the clans of the data (no allocation).
                let mut left: u32 = (1u32 << d.clans.len()) - 1;
                for c in clans.iter_mut().take(n) {
                    let i = s.public_below(chance, left.count_ones());
                    let k = bits(left as u64).nth(i as usize).expect("i < popcount");
                    left &= !(1 << k);
                    *c = k as u8;
                }
            }
        }
        let gold_bonus = s.rules.params().seat_gold;
        for (p, &clan) in clans.iter().enumerate().take(n) {
            let c = &d.clans[clan as usize];
            let seat = &mut s.seats[p];
            seat.clan = clan;
            for r in 0..4 {
                seat.res[r] = c.start[r] as u16;
            }
            // DAI-2.11: the seat's Gold bonus, checked when the rules were built.
            seat.res[Resource::Gold as usize] =
                (i32::from(seat.res[Resource::Gold as usize]) + gold_bonus.bonus(p)) as u16;
            seat.storage = d.storage.0;
            for &h in &c.heroes {
                seat.deck |= 1u64 << h;
            }
        }
        // The starting resources come from the general supply (the ledger).
        for p in 0..n {
            for r in 0..4 {
                s.supply[r] -= s.seats[p].res[r] as i32;
            }
        }
        for p in 0..n {
            for _ in 0..d.starting_hand {
                s.draw_hero(p, chance);
            }
        }
        // First player and the Mighty Helmet (DAI-2.10, DAI-31).
        s.first = match s.params().first_player.0 {
            Some(f) => f,
            None => s.public_below(chance, n as u32) as u8,
        };
        s.helmet = s.first;
        s.actor = s.first;
        s.settle(chance);
        s
    }

    pub(super) fn draw_market<C: Chance + ?Sized>(&mut self, chance: &mut C) -> u8 {
        if self.hero_deck == 0 {
            return NONE;
        }
        let k = self.public_below(chance, self.hero_deck.count_ones());
        let c = bits(self.hero_deck).nth(k as usize).expect("k < popcount");
        self.hero_deck &= !(1u64 << c);
        c as u8
    }

    /// Starts round `self.round`: dice back to the pool and rolled (DAI-3.2), the Helmet
    /// holder first (DAI-3.3).
    pub(super) fn start_round<C: Chance + ?Sized>(&mut self, chance: &mut C) {
        for p in 0..MAX_PLAYERS {
            self.seats[p].board = [0; SPACES];
        }
        for d in 0..MAX_DICE {
            if self.die_loc[d] != UNUSED {
                self.die_loc[d] = POOL;
                self.die_value[d] = 1 + self.public_below(chance, 6) as u8;
            }
        }
        self.first = self.helmet;
        self.turn_index = 0;
        self.actor = self.first;
        self.helmet_taken = false;
        self.blue_placed = false;
        self.phase = Phase::PickDie;
    }
}
