//! Daimyo's game log ([`crate::games::log`]): moves with readable names (die colour and
//! value and its action space, island and site, Hero cards, Relic tiles, buildings), and
//! what each ply did: who received or paid which resources and why, influence changes on
//! each island, Governors, Shadows, Buildings and the Scavenger placed or moved, Relic
//! tiles taken and Relics restored, the Mighty Helmet, the Hero market, the dice rolled at
//! a round start, and at each popularity scoring the breakdown per seat (the island
//! majorities of the influence scoring with their standings; the final scoring's Relics,
//! Buildings, army, Helmet and leftover resources).
//!
//! **Hidden information** (DAI-27): Hero hands are hidden; every decision is made in the
//! open (a Hero leaves the hand face up when it is played or discarded, a hired Hero is
//! seen going to the hand). So the moves are public ([`GameLog::public_action`]) and the
//! only secret a line can hold is which Heroes a seat drew: a seat audience
//! ([`Audience::Seats`]) is told another seat's draws as a count only, and a seat's view
//! ([`GameLog::view`]) names only its own hand and the Heroes known to be in the others'
//! hands (hired, not yet played).
//!
//! The lines are derived by comparing the state before and after each ply (forced steps
//! included: a ply ends at the next real decision), so the log can never disagree with the
//! rules engine; the influence scoring's per-island numbers come from
//! [`State::influence_awards`], the function the engine scores with.

use std::fmt::Write as _;

use super::action::{Action, Kind, SPACE_NAMES, TILE_SPACE_NAMES};
use super::data::{Data, Effect, Resource, Search};
use super::state::{Frame, Phase, State, source};
use crate::game::{GameState, JointAction, Seat};
use crate::games::log::{Audience, GameLog};

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<State> = &Log;

impl crate::games::log::Logged for State {
    fn log() -> &'static dyn GameLog<Self> {
        LOG
    }
}

/// Daimyo's [`GameLog`] (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct Log;

thread_local! {
    /// Whether this thread's next apply is listened to ([`GameLog::listen`]).
    static LISTENING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The forced moves heard in this thread since [`GameLog::listen`].
    static HEARD: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The forced moves of every listened ply, by the (ply, public history digest) of the
/// state after it, so that [`GameLog::consequences`] can tell them for any audience and
/// any number of times (`sim serve` tells one ply to each human seat and replays). Cleared
/// when it grows past [`FORCED_CAP`] plies.
static FORCED: std::sync::Mutex<Option<ForcedByPly>> = std::sync::Mutex::new(None);
/// Forced-move lines by the (ply, public history digest) of the state after their ply.
type ForcedByPly = std::collections::HashMap<(u32, u64), Vec<String>>;
/// Plies kept in [`FORCED`].
const FORCED_CAP: usize = 100_000;

/// Whether the rules engine should report its forced moves ([`note_forced`]): one
/// thread-local read, false except while a transcript listens to a ply.
#[inline]
pub(super) fn listening() -> bool {
    LISTENING.with(|l| l.get())
}

/// The rules engine takes `a`, the only option of the decision at `s`, without asking
/// (called only while [`listening`]).
pub(super) fn note_forced(s: &State, a: Action) {
    let seat = s.actor as Seat;
    let line = format!(
        "forced: seat {seat} {} (the only legal move)",
        describe(s, seat, a)
    );
    HEARD.with(|h| h.borrow_mut().push(line));
}

/// The forced moves heard on the way to `after` (the state after a ply, or after setup),
/// when that ply or setup was listened to ([`GameLog::listen`]); empty otherwise.
fn forced_before(after: &State) -> Vec<String> {
    FORCED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .and_then(|m| m.get(&(after.ply, after.history)).cloned())
        .unwrap_or_default()
}

/// Main-action spaces as the rulebook names them (DAI-3.5, DAI-4.1–4.14).
const SPACE_TITLES: [&str; 6] = [
    "Help from Villagers",
    "Production",
    "Relic",
    "Recruitment",
    "Construction",
    "Tax",
];
const COLOURS: [&str; 3] = ["blue", "green", "red"];
const BUILDINGS: [&str; 2] = ["Techno-farm", "Radio tower"];
/// Names of the popularity sources ([`source`]).
const SOURCES: [&str; source::COUNT] = [
    "influence",
    "relics",
    "buildings",
    "army",
    "helmet",
    "resources",
    "other",
];
const NONE: u8 = u8::MAX;
/// Die location: in the pool (as in the state).
const POOL: u8 = 0xF0;

fn data(s: &State) -> &'static Data {
    &s.rules().get().data().data
}

fn island(d: &Data, i: usize) -> String {
    format!("the {} island", d.islands[i].name)
}

fn site(d: &Data, i: usize, s: usize) -> String {
    format!(
        "{} site {} ({})",
        island(d, i),
        s + 1,
        d.islands[i].sites[s].name()
    )
}

/// A Hero card: `H07 (strength 5, cost 3: gain 1 rice, draw 1)`.
pub fn hero(d: &Data, c: usize) -> String {
    let h = &d.heroes[c];
    format!(
        "{} (strength {}, cost {}: {})",
        h.id,
        h.strength,
        h.cost,
        steps(&h.effect)
    )
}

/// A Hero card's short name (its id).
fn hero_id(d: &Data, c: usize) -> &str {
    &d.heroes[c].id
}

/// A Relic tile kind: `blue relic piece 2`.
fn tile(d: &Data, k: usize) -> String {
    let pieces = d.pieces as usize;
    format!(
        "{} relic piece {}",
        d.islands[k / pieces].name,
        k % pieces + 1
    )
}

fn die(g: u8) -> String {
    format!("{} {}", COLOURS[g as usize / 6], g % 6 + 1)
}

fn amounts(a: &[u8; 4]) -> String {
    let parts: Vec<String> = Resource::ALL
        .iter()
        .filter(|r| a[**r as usize] > 0)
        .map(|r| format!("{} {}", a[*r as usize], r.name()))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

fn kinds(mask: u8) -> String {
    Resource::ALL
        .iter()
        .filter(|r| mask & (1 << **r as u8) != 0)
        .map(|r| r.name())
        .collect::<Vec<_>>()
        .join("/")
}

/// One effect step in words.
pub fn effect(e: &Effect) -> String {
    match *e {
        Effect::Gain(a) => format!("gain {}", amounts(&a)),
        Effect::GainChoice {
            n,
            kinds: k,
            distinct,
        } => format!(
            "gain {n} of {}{}",
            kinds(k),
            if distinct && n > 1 {
                " (all different)"
            } else {
                ""
            }
        ),
        Effect::Storage(n) => format!("storage +{n}"),
        Effect::Draw(n) => format!("draw {n} Hero{}", if n == 1 { "" } else { "es" }),
        Effect::Villager => "activate a Villager tile".into(),
        Effect::Helmet { first_this_round } => String::from(if first_this_round {
            "the Mighty Helmet (first this round)"
        } else {
            "take the Mighty Helmet"
        }),
        Effect::MoveGovernor { collect, up_to } => format!(
            "move up to {} Governor{}{}",
            up_to.max(1),
            if up_to > 1 { "s" } else { "" },
            if collect > 0 {
                format!(", collecting {collect}")
            } else {
                String::new()
            }
        ),
        Effect::RelicScavenger => "take a Relic tile at the Scavenger".into(),
        Effect::RelicFromBag(n) => format!("draw {n} Relic tile(s) from the bag"),
        Effect::RelicChoice(n) => format!("take {n} Relic tile(s) from any No man's land"),
        Effect::RelicToBlackMarket(n) => format!("put {n} Relic tile(s) in the Black market"),
        Effect::BlackMarketFree(n) => format!("take {n} Black-market tile(s) free"),
        Effect::Scavenger {
            moves,
            search,
            shop,
        } => format!(
            "move the Scavenger {moves} time(s){}{}",
            match search {
                Search::None => "",
                Search::Paid => ", Search",
                Search::Free => ", free Search",
            },
            if shop { ", Black market" } else { "" }
        ),
        Effect::Recruit {
            n,
            discount,
            free,
            governor_only,
        } => {
            let what = if governor_only { "Governor" } else { "unit" };
            let mut t = if n == 0 {
                format!("recruit {what}s")
            } else {
                format!("recruit {n} {what}{}", if n > 1 { "s" } else { "" })
            };
            if free {
                t.push_str(" free");
            } else if discount > 0 {
                let _ = write!(t, " ({discount} rice less)");
            }
            t
        }
        Effect::ResetRecruitment => "reset the recruitment track".into(),
        Effect::Construct {
            n,
            discount,
            ignore_surcharge,
        } => {
            let mut t = if n == 0 {
                "construct Buildings".to_string()
            } else {
                format!("construct {n} Building{}", if n > 1 { "s" } else { "" })
            };
            if discount > 0 {
                let _ = write!(t, " ({discount} metal or crystal less)");
            }
            if ignore_surcharge {
                t.push_str(" (no surcharge)");
            }
            t
        }
        Effect::Production { governors, farms } => match (governors, farms) {
            (true, true) => "production".into(),
            (true, false) => "production by Governors".into(),
            _ => "production by Techno-farms".into(),
        },
        Effect::Influence(n) => format!("+{n} influence"),
        Effect::Popularity(n) => format!("+{n} PP"),
        Effect::MoveBuilding => "move a Building".into(),
        Effect::MainAction => "any main action".into(),
        Effect::HeroFree => "play a Hero ignoring its strength".into(),
    }
}

fn steps(s: &[Effect]) -> String {
    s.iter().map(effect).collect::<Vec<_>>().join(", ")
}

/// The effect step a sub-choice at `before` belongs to, if any.
fn pending(before: &State) -> Option<Frame> {
    before.top()
}

/// Why the resources of a ply moved: the action or the effect being resolved.
fn reason(before: &State, seat: Seat, a: Action) -> String {
    let d = data(before);
    match before.phase {
        Phase::SetupGovernor { .. } => return "setup".into(),
        Phase::Revenue { .. } if before.top().is_none() => return "revenue".into(),
        Phase::Hire { .. } => return "hiring".into(),
        Phase::Helmet => return "end of round".into(),
        _ => {}
    }
    if let Some(f) = pending(before) {
        return match f {
            Frame::Eff { eff, .. } => match eff {
                Effect::Recruit { .. } if a.kind() == Kind::Reset => {
                    "recruitment track reset".into()
                }
                e => effect(&e),
            },
            Frame::DiscardShift { .. } => "Hero discard".into(),
            Frame::MakeRoom(_) => "making room in storage".into(),
            Frame::Victim(_) => "assassination".into(),
            Frame::Altar(_) => "Relic restored".into(),
            Frame::PlaceTile(_) => "Bonus tile placed".into(),
            Frame::HeroDone(_) | Frame::EndRevenue => "end of effect".into(),
        };
    }
    match a.kind() {
        Kind::Main => format!(
            "{} main action",
            SPACE_TITLES
                .get(before.flags.space as usize)
                .unwrap_or(&"the")
        ),
        Kind::PlayHero => format!("Hero {}", hero_id(d, a.x() as usize)),
        Kind::Ability => format!(
            "{} clan ability",
            d.clans[before.seats[seat].clan as usize].name
        ),
        Kind::Tile => format!("Bonus tile {}", tile_on(before, seat, a.b() as usize)),
        Kind::Reset => "recruitment track reset".into(),
        Kind::EndTurn => "end of turn".into(),
        // Tax gains at once (DAI-4.14); other spaces act with the Main option.
        Kind::Die if a.a() == 5 => "Tax main action".into(),
        Kind::Die | Kind::SetAside | Kind::NoDie => "die taken".into(),
        _ => "the move".into(),
    }
}

/// The id of the Bonus tile on `seat`'s tile space `sp`.
fn tile_on(s: &State, seat: Seat, sp: usize) -> String {
    match s.seats[seat].tiles[sp] {
        0 => "(none)".into(),
        t => data(s).tiles[t as usize - 1].id.clone(),
    }
}

/// The move in words (without the seat).
fn describe(before: &State, seat: Seat, a: Action) -> String {
    let d = data(before);
    let (ua, ub) = (a.a() as usize, a.b() as usize);
    let frame_eff = match before.top() {
        Some(Frame::Eff { eff, .. }) => Some(eff),
        _ => None,
    };
    match a.kind() {
        Kind::Site => match (before.phase, frame_eff) {
            (Phase::SetupGovernor { .. }, _) => {
                format!("places a Governor on {}", site(d, ua, ub))
            }
            (_, Some(Effect::MoveGovernor { .. })) => {
                format!("moves the Governor to {}", site(d, ua, ub))
            }
            (_, Some(Effect::Recruit { .. })) => {
                format!("recruits a Governor on {}", site(d, ua, ub))
            }
            _ => format!("chooses {}", site(d, ua, ub)),
        },
        Kind::Die => format!(
            "takes the {} die for {}",
            die(a.b()),
            SPACE_TITLES.get(ua).unwrap_or(&"?")
        ),
        Kind::SetAside => format!("sets the {} die aside (no space open)", die(a.b())),
        Kind::NoDie => "takes no die (no space open)".into(),
        Kind::Main => format!(
            "resolves the {} main action",
            SPACE_TITLES
                .get(before.flags.space as usize)
                .unwrap_or(&"?")
        ),
        Kind::PlayHero => format!("plays Hero {}", hero(d, a.x() as usize)),
        Kind::Discard => "discards Heroes to shift a die".into(),
        Kind::Card => match frame_eff {
            Some(Effect::HeroFree) => format!(
                "plays Hero {} ignoring its strength",
                hero(d, a.x() as usize)
            ),
            _ => format!("discards Hero {}", hero_id(d, a.x() as usize)),
        },
        Kind::Shift => {
            let v = match before.seats[seat].board[ua] {
                0 => 0,
                die => before.die_value[die as usize - 1],
            };
            let to = if ub == 1 { v + 1 } else { v.saturating_sub(1) };
            format!(
                "shifts the die on {} from {v} to {to}",
                SPACE_TITLES.get(ua).unwrap_or(&"?")
            )
        }
        Kind::Ability => format!(
            "uses the {} clan ability ({})",
            d.clans[before.seats[seat].clan as usize].name,
            steps(&d.clans[before.seats[seat].clan as usize].ability)
        ),
        Kind::Tile => {
            let id = tile_on(before, seat, ub);
            let t = before.seats[seat].tiles[ub];
            let what = if t == 0 {
                String::new()
            } else {
                format!(": {}", steps(&d.tiles[t as usize - 1].effect))
            };
            format!(
                "uses the Bonus tile {id} on its {} space{what}",
                TILE_SPACE_NAMES.get(ub).unwrap_or(&"?")
            )
        }
        Kind::Reset => format!(
            "pays {} to reset the recruitment track",
            amounts(&d.recruit_reset)
        ),
        Kind::EndTurn => "ends the turn".into(),
        Kind::Resource => {
            let r = Resource::ALL[ub.min(3)].name();
            match (before.phase, before.top(), frame_eff) {
                (Phase::Revenue { .. }, None, _) => format!("takes 1 {r} as revenue"),
                (_, _, Some(Effect::Construct { .. })) => {
                    format!("applies the discount to {r}")
                }
                (_, _, Some(Effect::Scavenger { .. })) => format!("pays the Search with {r}"),
                _ => format!("takes 1 {r}"),
            }
        }
        Kind::Villager => {
            let back = before.villagers & (1 << ub) != 0;
            let v = &d.villagers[ub];
            format!(
                "activates Villager tile {} ({})",
                ub + 1,
                steps(if back { &v.back } else { &v.front })
            )
        }
        Kind::Island => match frame_eff {
            Some(Effect::Scavenger { .. }) => {
                format!("moves the Scavenger to {}", island(d, ub))
            }
            Some(Effect::Influence(n)) => format!("gains {n} influence on {}", island(d, ub)),
            _ => format!("chooses {}", island(d, ub)),
        },
        Kind::Take => {
            let i = before.seats[seat].scavenger as usize;
            format!(
                "takes {} from the No man's land of {}",
                nml_tile(before, i, ub),
                island(d, i)
            )
        }
        Kind::Search => "searches the No man's land".into(),
        Kind::SearchTile => {
            let i = before.seats[seat].scavenger as usize;
            format!("discards {} (Search)", nml_tile(before, i, ub))
        }
        Kind::Shop => match frame_eff {
            Some(Effect::BlackMarketFree(_)) => {
                format!("takes {} from the Black market, free", tile(d, ub))
            }
            _ => format!(
                "buys {} at the Black market for {}",
                tile(d, ub),
                amounts(&d.black_market_cost)
            ),
        },
        Kind::Done => match (before.phase, frame_eff) {
            (Phase::Hire { .. }, _) => "hires no more".into(),
            (_, Some(e)) => format!("stops ({})", effect(&e)),
            _ => "is done".into(),
        },
        Kind::RecruitGovernor => "recruits a Governor".into(),
        Kind::RecruitShadow => "recruits a Shadow".into(),
        Kind::Shadow => format!(
            "places a Shadow on {} (Shadow space {})",
            island(d, ua),
            ub + 1
        ),
        Kind::Victim => {
            let i = match before.top() {
                Some(Frame::Victim(i)) => i as usize,
                _ => 0,
            };
            let victim = before.gov[i][ub];
            format!("eliminates seat {victim}'s Governor on {}", site(d, i, ub))
        }
        Kind::Build => format!("constructs a {}", BUILDINGS[ub.min(1)]),
        Kind::Lot => match frame_eff {
            Some(Effect::MoveBuilding) => format!("moves the Building to {}", site(d, ua, ub)),
            _ => format!("builds on {}", site(d, ua, ub)),
        },
        Kind::Place => format!(
            "places the uncovered Bonus tile on its {} space",
            TILE_SPACE_NAMES.get(ub).unwrap_or(&"?")
        ),
        Kind::Relic => format!("sends {} to the Black market", tile(d, ub)),
        Kind::Pick => format!(
            "takes {} from the No man's land of {}",
            nml_tile(before, ua, ub),
            island(d, ua)
        ),
        Kind::Own => match frame_eff {
            Some(Effect::MoveBuilding) => format!("picks its Building on {}", site(d, ua, ub)),
            _ => format!("picks its Governor on {}", site(d, ua, ub)),
        },
        Kind::Give => {
            if ub == seat {
                "keeps the Mighty Helmet".into()
            } else {
                format!("gives the Mighty Helmet to seat {ub}")
            }
        }
        Kind::Hire => {
            let c = before.market[ub];
            if c == NONE {
                format!("hires from market slot {}", ub + 1)
            } else {
                format!(
                    "hires Hero {} from market slot {}",
                    hero(d, c as usize),
                    ub + 1
                )
            }
        }
        Kind::MainChoice => format!(
            "performs the {} main action",
            SPACE_TITLES.get(ub).unwrap_or(&"?")
        ),
        Kind::Altar => format!("puts the Relic token on altar {}", ub + 1),
    }
}

/// The tile in a No man's land slot, as a seat sees it.
fn nml_tile(s: &State, i: usize, slot: usize) -> String {
    match s.nml.get(i).and_then(|n| n.get(slot)) {
        Some(&k) if k == super::state::HIDDEN => "a face-down tile".into(),
        Some(&k) if k != NONE => tile(data(s), k as usize),
        _ => "an empty slot".into(),
    }
}

fn list(v: &[String]) -> String {
    v.join(", ")
}

/// The dice in the pool, grouped by colour: `blue 1 3, green 2 2 5, red 6`.
fn pool(s: &State) -> String {
    let mut by = [Vec::new(), Vec::new(), Vec::new()];
    for d in 0..s.die_loc.len() {
        if s.die_loc[d] == POOL {
            by[s.die_colour[d] as usize].push(s.die_value[d]);
        }
    }
    let mut parts = Vec::new();
    for (c, v) in by.iter_mut().enumerate() {
        if !v.is_empty() {
            v.sort_unstable();
            let vals: Vec<String> = v.iter().map(u8::to_string).collect();
            parts.push(format!("{} {}", COLOURS[c], vals.join(" ")));
        }
    }
    parts.join("; ")
}

/// The influence scoring of the round just ended, island by island (DAI-6.3).
fn influence_scoring(at: &State, out: &mut Vec<String>) {
    let d = data(at);
    let n = at.num_players();
    let awards = at.influence_awards();
    let (gold, silver) = d.round_pp[at.round as usize - 1];
    out.push(format!(
        "influence scoring of round {} (first {gold} PP, second {silver} PP; ties on \
         influence go to the most Shadows on the island):",
        at.round
    ));
    for &i in at.islands() {
        let i = i as usize;
        let standing: Vec<String> = (0..n)
            .filter(|&p| at.influence[i][p] > 0)
            .map(|p| {
                let sh = at.shadow[i].iter().filter(|&&s| s as usize == p).count();
                if sh > 0 {
                    format!(
                        "seat {p} {} ({sh} Shadow{})",
                        at.influence[i][p],
                        plural(sh)
                    )
                } else {
                    format!("seat {p} {}", at.influence[i][p])
                }
            })
            .collect();
        let won: Vec<String> = (0..n)
            .filter(|&p| awards[i][p] != 0)
            .map(|p| format!("seat {p} +{} PP", awards[i][p]))
            .collect();
        out.push(format!(
            "  {}: influence {}: {}",
            island(d, i),
            if standing.is_empty() {
                "none".into()
            } else {
                list(&standing)
            },
            if won.is_empty() {
                "no one scores".into()
            } else {
                list(&won)
            }
        ));
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Each seat's popularity change by source between two states.
fn pp_changes(before: &State, after: &State, why: &str, out: &mut Vec<String>) {
    for p in 0..after.num_players() {
        let (b, a) = (&before.seats[p], &after.seats[p]);
        if a.popularity == b.popularity && a.pp == b.pp {
            continue;
        }
        let parts: Vec<String> = (0..source::COUNT)
            .filter(|&s| a.pp[s] != b.pp[s])
            .map(|s| format!("{:+} {}", a.pp[s] - b.pp[s], SOURCES[s]))
            .collect();
        out.push(format!(
            "seat {p} popularity {} -> {} ({}; {why})",
            b.popularity,
            a.popularity,
            list(&parts)
        ));
    }
}

/// The final scoring (DAI-7.2–7.5) in words: what each seat's Relics, Buildings, army,
/// Helmet and resources gave.
fn final_scoring(before: &State, end: &State, out: &mut Vec<String>) {
    let d = data(end);
    out.push("final scoring:".into());
    for p in 0..end.num_players() {
        let (b, a) = (&before.seats[p], &end.seats[p]);
        let gained = |s: usize| a.pp[s] - b.pp[s];
        let restored: u32 = a.restored.iter().map(|&r| r as u32).sum();
        out.push(format!(
            "  seat {p}: relics {:+} ({restored} restored), buildings {:+} ({} Techno-farm{}, {} \
             Radio tower{}), army {:+} (army value {}), helmet {:+}, resources {:+} ({} left, \
             1 PP per {}): {} PP in all",
            gained(source::RELICS),
            gained(source::BUILDINGS),
            a.built[0],
            plural(a.built[0] as usize),
            a.built[1],
            plural(a.built[1] as usize),
            gained(source::ARMY),
            end.army(p),
            gained(source::HELMET),
            gained(source::RESOURCES),
            end.leftover(p),
            d.resources_per_point,
            a.popularity
        ));
    }
}

impl GameLog<State> for Log {
    fn listen(&self) {
        HEARD.with(|h| h.borrow_mut().clear());
        LISTENING.with(|l| l.set(true));
    }

    fn heard(&self, after: &State) {
        LISTENING.with(|l| l.set(false));
        let lines = HEARD.with(|h| std::mem::take(&mut *h.borrow_mut()));
        if lines.is_empty() {
            return;
        }
        let mut forced = FORCED.lock().unwrap_or_else(|e| e.into_inner());
        let map = forced.get_or_insert_with(Default::default);
        if map.len() >= FORCED_CAP {
            map.clear();
        }
        map.insert((after.ply, after.history), lines);
    }

    /// The setup's forced moves (a setup choice with one option), when the
    /// setup was listened to. Decisions are public, so every audience is told them.
    fn setup(&self, start: &State, _audience: Audience) -> Vec<String> {
        forced_before(start)
    }

    /// Decisions are public; only hands (drawn by chance) are hidden.
    fn public_action(&self, _before: &State, _seat: Seat, _action: Action) -> bool {
        true
    }

    fn action(&self, before: &State, seat: Seat, action: Action, _audience: Audience) -> String {
        format!("seat {seat} {}", describe(before, seat, action))
    }

    /// The move in words, as in the log (`takes the red 5 die for Recruitment`).
    fn move_name(&self, before: &State, seat: Seat, action: Action) -> String {
        describe(before, seat, action)
    }

    /// A die's action spaces share one line (`takes the red 5 die for: 1) Help from
    /// Villagers, 4) Production, ...`): one group per die; so do an island's sites
    /// (`places a Governor on the blue island: 1) site 1 (rice), 2) site 3 (metal)`).
    fn move_group(&self, before: &State, seat: Seat, action: Action) -> Option<(String, String)> {
        match action.kind() {
            Kind::Site => {
                let text = describe(before, seat, action);
                let at = text.rfind(" site ")?;
                Some((text[..at].to_string(), text[at + 1..].to_string()))
            }
            Kind::Die => Some((
                format!("takes the {} die for", die(action.b())),
                SPACE_TITLES
                    .get(action.a() as usize)
                    .unwrap_or(&"?")
                    .to_string(),
            )),
            _ => None,
        }
    }

    fn consequences(
        &self,
        before: &State,
        joint: &JointAction<Action>,
        after: &State,
        audience: Audience,
    ) -> Vec<String> {
        // The moves the rules engine made by itself, when the ply was listened to.
        let mut out = forced_before(after);
        let d = data(after);
        let n = after.num_players();
        let Some((seat, a)) = joint
            .iter()
            .enumerate()
            .find_map(|(p, a)| a.map(|a| (p, a)))
        else {
            return out;
        };
        let why = reason(before, seat, a);
        let round_ended = matches!(before.phase, Phase::PickDie | Phase::Turn)
            && (after.round != before.round
                || !matches!(after.phase, Phase::PickDie | Phase::Turn));
        // Resources.
        for p in 0..n {
            let (b, x) = (before.seats[p].res, after.seats[p].res);
            let mut gain = [0u8; 4];
            let mut loss = [0u8; 4];
            for r in 0..4 {
                let delta = x[r] as i32 - b[r] as i32;
                if delta > 0 {
                    gain[r] = delta.min(255) as u8;
                } else {
                    loss[r] = (-delta).min(255) as u8;
                }
            }
            let why_p = if p == seat {
                why.clone()
            } else if a.kind() == Kind::Victim {
                "compensation for the eliminated Governor".into()
            } else {
                why.clone()
            };
            if gain.iter().any(|&g| g > 0) {
                out.push(format!("seat {p} receives {} ({why_p})", amounts(&gain)));
            }
            if loss.iter().any(|&l| l > 0) {
                out.push(format!("seat {p} pays {} ({why_p})", amounts(&loss)));
            }
        }
        // Influence.
        for &i in after.islands() {
            let i = i as usize;
            for p in 0..n {
                let (b, x) = (before.influence[i][p], after.influence[i][p]);
                if b != x {
                    out.push(format!(
                        "seat {p} influence on {} {b} -> {x} ({:+})",
                        island(d, i),
                        x - b
                    ));
                }
            }
        }
        // Units and buildings on the board.
        for &i in after.islands() {
            let i = i as usize;
            for s in 0..d.islands[i].sites.len() {
                let (b, x) = (before.gov[i][s], after.gov[i][s]);
                if b != x {
                    if b != NONE {
                        let how = if a.kind() == Kind::Victim {
                            "is eliminated by a Shadow"
                        } else {
                            "leaves"
                        };
                        out.push(format!("seat {b}'s Governor on {} {how}", site(d, i, s)));
                    }
                    if x != NONE {
                        out.push(format!("seat {x} has a Governor on {}", site(d, i, s)));
                    }
                }
                let (b, x) = (before.bld[i][s], after.bld[i][s]);
                if b != x {
                    if b != NONE {
                        out.push(format!(
                            "seat {}'s {} leaves {}",
                            b / 2,
                            BUILDINGS[(b % 2) as usize],
                            site(d, i, s)
                        ));
                    }
                    if x != NONE {
                        out.push(format!(
                            "seat {} has a {} on {}",
                            x / 2,
                            BUILDINGS[(x % 2) as usize],
                            site(d, i, s)
                        ));
                    }
                }
            }
            for s in 0..d.islands[i].shadow_spaces.len() {
                let (b, x) = (before.shadow[i][s], after.shadow[i][s]);
                if b != x && x != NONE {
                    out.push(format!(
                        "seat {x} has a Shadow on {} (Shadow space {}, worth {} gold)",
                        island(d, i),
                        s + 1,
                        d.islands[i].shadow_spaces[s]
                    ));
                }
            }
            for s in 0..d.islands[i].altars.len() {
                let (b, x) = (before.altar[i][s], after.altar[i][s]);
                if b != x && x != NONE {
                    out.push(format!(
                        "seat {x} puts a Relic token on altar {} of {}",
                        s + 1,
                        island(d, i)
                    ));
                }
            }
        }
        for p in 0..n {
            let (b, x) = (&before.seats[p], &after.seats[p]);
            if b.scavenger != x.scavenger && (x.scavenger as usize) < d.islands.len() {
                out.push(format!(
                    "seat {p}'s Scavenger is on {}",
                    island(d, x.scavenger as usize)
                ));
            }
            if b.track != x.track {
                out.push(format!(
                    "seat {p}'s recruitment track {} -> {}",
                    b.track, x.track
                ));
            }
            if b.storage != x.storage {
                out.push(format!("seat {p}'s storage {} -> {}", b.storage, x.storage));
            }
            let got = x.loose & !b.loose;
            let lost = b.loose & !x.loose;
            let names = |m: u32| {
                (0..32)
                    .filter(|k| m & (1 << k) != 0)
                    .map(|k| tile(d, k))
                    .collect::<Vec<_>>()
            };
            if got != 0 {
                out.push(format!("seat {p} gains {}", list(&names(got))));
            }
            for c in 0..b.restored.len() {
                if x.restored[c] > b.restored[c] {
                    out.push(format!(
                        "seat {p} restores the {} Relic ({} restored in all)",
                        d.islands[c].name,
                        x.restored.iter().map(|&r| r as u32).sum::<u32>()
                    ));
                }
            }
            if lost != 0 && x.restored == b.restored {
                out.push(format!("seat {p} gives up {}", list(&names(lost))));
            }
            for (t, name) in BUILDINGS.iter().enumerate() {
                if x.built[t] != b.built[t] {
                    out.push(format!(
                        "seat {p} has {} {name}{}",
                        x.built[t],
                        plural(x.built[t] as usize)
                    ));
                }
            }
            for (sp, space) in TILE_SPACE_NAMES.iter().enumerate() {
                if x.tiles[sp] != b.tiles[sp] && x.tiles[sp] != 0 {
                    out.push(format!(
                        "seat {p}'s Bonus tile {} now lies on its {space} space",
                        d.tiles[x.tiles[sp] as usize - 1].id
                    ));
                }
            }
            // Heroes drawn (hidden from the other seats: DAI-27).
            let hired = if matches!(before.phase, Phase::Hire { .. }) && p == seat {
                x.hand & after.known_hand[p] & !before.known_hand[p]
            } else {
                0
            };
            let drawn = x.hand & !b.hand & !hired;
            if drawn != 0 {
                let k = drawn.count_ones() as usize;
                if audience.knows_private(p) {
                    let names: Vec<String> = (0..64)
                        .filter(|c| drawn & (1u64 << c) != 0)
                        .map(|c| hero(d, c))
                        .collect();
                    out.push(format!("seat {p} draws {}", list(&names)));
                } else {
                    out.push(format!("seat {p} draws {k} Hero{}", plural(k)));
                }
            }
            if x.deck.count_ones() > b.deck.count_ones()
                && x.discard.count_ones() < b.discard.count_ones()
            {
                out.push(format!(
                    "seat {p}'s deck was empty: the discard pile becomes the deck"
                ));
            }
        }
        if after.villagers != before.villagers {
            for t in 0..d.villagers.len() {
                if (after.villagers ^ before.villagers) & (1 << t) != 0 {
                    out.push(format!("Villager tile {} is flipped", t + 1));
                }
            }
        }
        // The No man's lands and the Black market (public).
        for &i in after.islands() {
            let i = i as usize;
            for slot in 0..d.nml as usize {
                let (b, x) = (before.nml[i][slot], after.nml[i][slot]);
                if b != x && x != NONE {
                    out.push(format!(
                        "the No man's land of {} shows {} in slot {}",
                        island(d, i),
                        nml_tile(after, i, slot),
                        slot + 1
                    ));
                }
            }
        }
        for k in 0..after.black_market.len() {
            let (b, x) = (before.black_market[k], after.black_market[k]);
            if x > b {
                out.push(format!("{} goes to the Black market", tile(d, k)));
            } else if x < b {
                out.push(format!("{} leaves the Black market", tile(d, k)));
            }
        }
        // The Hero market (public).
        for slot in 0..d.market as usize {
            let (b, x) = (before.market[slot], after.market[slot]);
            if b != x && x != NONE {
                out.push(format!(
                    "the market's slot {} now holds Hero {}",
                    slot + 1,
                    hero(d, x as usize)
                ));
            }
        }
        if after.top != before.top && after.top != NONE {
            out.push(format!(
                "the Hero deck's top card is now {}",
                hero(d, after.top as usize)
            ));
        }
        if after.helmet != before.helmet {
            out.push(format!("seat {} takes the Mighty Helmet", after.helmet));
        }
        // Popularity: the influence scoring of a round's end, told island by island.
        if round_ended {
            let mut at = after.clone();
            at.round = before.round;
            influence_scoring(&at, &mut out);
        }
        if after.phase == Phase::Over {
            // Revenue of the last round, then the final scoring: the final-scoring sources.
            let mut pre = after.clone();
            for p in 0..n {
                for s in [
                    source::RELICS,
                    source::BUILDINGS,
                    source::ARMY,
                    source::HELMET,
                    source::RESOURCES,
                ] {
                    pre.seats[p].pp[s] = before.seats[p].pp[s];
                }
            }
            pp_changes(before, after, "round end and final scoring", &mut out);
            final_scoring(&pre, after, &mut out);
        } else {
            let why_pp = if round_ended {
                format!("influence scoring of round {}", before.round)
            } else {
                why.clone()
            };
            pp_changes(before, after, &why_pp, &mut out);
        }
        // A new round: the roll.
        let started = matches!(after.phase, Phase::PickDie | Phase::Turn)
            && (after.round != before.round || matches!(before.phase, Phase::SetupGovernor { .. }));
        if started {
            out.push(format!(
                "round {} begins; seat {} (the Mighty Helmet) plays first; dice rolled: {}",
                after.round,
                after.first,
                pool(after)
            ));
        }
        out
    }

    fn breakdown(&self, end: &State) -> Vec<String> {
        let d = data(end);
        (0..end.num_players())
            .map(|p| {
                let s = &end.seats[p];
                let parts: Vec<String> = (0..source::COUNT)
                    .map(|k| format!("{} {}", SOURCES[k], s.pp[k]))
                    .collect();
                format!(
                    "seat {p} ({}): {} PP = {}",
                    d.clans[s.clan as usize].name,
                    s.popularity,
                    list(&parts)
                )
            })
            .collect()
    }

    fn view(&self, state: &State, seat: Seat) -> String {
        view(state, Some(seat))
    }

    fn state(&self, state: &State) -> String {
        view(state, None)
    }
}

/// The stage of the game in words ([`Phase`]), with its step where it has one.
fn stage(s: &State) -> String {
    let n = s.num_players();
    match s.phase {
        Phase::SetupGovernor { step } => format!(
            "setup: Governor placement {} of {} (DAI-2.10)",
            step + 1,
            2 * n
        ),
        Phase::PickDie => "pick a die from the pool (DAI-3.4)".into(),
        Phase::Turn => "the turn after the die (DAI-3.5)".into(),
        Phase::Revenue { k } => format!(
            "end of round: revenue, seat {} of {n} in Helmet order (DAI-6.4)",
            k + 1
        ),
        Phase::Helmet => "end of round: the Helmet holder gives or keeps it (DAI-6.5)".into(),
        Phase::Hire { k } => format!(
            "end of round: hiring, seat {} of {n} in Helmet order (DAI-6.6)",
            k + 1
        ),
        Phase::Over => "the game is over".into(),
    }
}

/// Tiles per kind, `blue relic piece 1 x2, green relic piece 3`, or `empty`.
fn tile_counts(d: &Data, counts: &[u8]) -> String {
    let parts: Vec<String> = (0..counts.len())
        .filter(|&k| counts[k] > 0)
        .map(|k| {
            if counts[k] > 1 {
                format!("{} x{}", tile(d, k), counts[k])
            } else {
                tile(d, k)
            }
        })
        .collect();
    if parts.is_empty() {
        "empty".into()
    } else {
        list(&parts)
    }
}

/// The dice set aside this round, grouped by colour as [`pool`].
fn aside(s: &State) -> String {
    let mut by = [Vec::new(), Vec::new(), Vec::new()];
    for d in 0..s.die_loc.len() {
        if s.die_loc[d] == super::state::ASIDE {
            by[s.die_colour[d] as usize].push(s.die_value[d]);
        }
    }
    let mut parts = Vec::new();
    for (c, v) in by.iter_mut().enumerate() {
        if !v.is_empty() {
            v.sort_unstable();
            let vals: Vec<String> = v.iter().map(u8::to_string).collect();
            parts.push(format!("{} {}", COLOURS[c], vals.join(" ")));
        }
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join("; ")
    }
}

/// The tile spaces of a bit set, by name, or `none`.
fn tile_spaces(mask: u8) -> String {
    let v: Vec<String> = (0..TILE_SPACE_NAMES.len())
        .filter(|sp| mask & (1 << sp) != 0)
        .map(|sp| TILE_SPACE_NAMES[sp].to_string())
        .collect();
    if v.is_empty() {
        "none".into()
    } else {
        list(&v)
    }
}

/// `yes` or `no`.
fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// What this turn has done so far (DAI-3.5, DAI-5.2, DAI-10, DAI-18), for the turn phase.
fn turn_line(s: &State) -> String {
    let f = &s.flags;
    format!(
        "this turn: die on {}; main action done {}; Hero played by strength {}; clan ability \
         used {}; this die is the round's first blue die {}; Bonus tiles used: {}; Bonus \
         tiles received: {}",
        SPACE_NAMES
            .get(f.space as usize)
            .copied()
            .unwrap_or("no space (set aside)"),
        yes(f.main_done),
        yes(f.hero),
        yes(f.ability),
        yes(f.first_blue),
        tile_spaces(f.tiles_used),
        tile_spaces(f.tiles_new)
    )
}

/// A seat's Heroes by id, or `empty`.
fn hero_ids(d: &Data, set: u64) -> String {
    let v: Vec<String> = (0..64)
        .filter(|c| set & (1u64 << c) != 0)
        .map(|c| hero_id(d, c).to_string())
        .collect();
    if v.is_empty() {
        "empty".into()
    } else {
        v.join(", ")
    }
}

/// What `seat` sees, for a human at the table: everything its observation holds
/// ([`State::canonical`], DAI-27), labelled: the round, stage, first player, turns taken,
/// actor and Helmet with this round's flags; the dice in the pool and set aside; this
/// turn's die, flags and Bonus tiles; each seat's clan, PP (and by source), resources,
/// storage, units, buildings, Relic tiles, Bonus tiles and dice, its Hero piles (its own
/// hand and deck by name, the others' hands as counts plus the Heroes known to be in them,
/// and the discard piles as public); each island's sites, influence, Shadows, altars,
/// Scavengers and No man's land (with slots waiting for their refill); the Hero market,
/// the top of the Hero deck and its size, the Black market, the bag, the Villager tiles,
/// the general supply and every pending effect step. With no seat, the whole state for
/// an omniscient transcript: every hand by name.
#[allow(clippy::needless_range_loop)] // seats index several parallel arrays
fn view(real: &State, seat: Option<Seat>) -> String {
    let canon = seat.map(|q| real.canonical(q));
    let s = canon.as_ref().unwrap_or(real);
    let sizes = real.pile_sizes();
    let d = data(s);
    let n = s.num_players();
    let mut t = String::new();
    let _ = writeln!(
        t,
        "round {} of {}; stage: {}; first player seat {}; turns taken this round {} of {}",
        s.round,
        d.round_pp.len(),
        stage(s),
        s.first,
        s.turn_index,
        3 * n
    );
    let _ = writeln!(
        t,
        "seat {} to act; seat {} holds the Mighty Helmet; Helmet taken by Help from Villagers \
         this round {}; the round's first blue die placed {}",
        s.actor,
        s.helmet,
        yes(s.helmet_taken),
        yes(s.blue_placed)
    );
    let _ = writeln!(
        t,
        "dice in the pool: {}; dice set aside this round: {}",
        match pool(s) {
            _ if matches!(s.phase, Phase::SetupGovernor { .. }) => "not rolled yet".into(),
            p if p.is_empty() => "none".into(),
            p => p,
        },
        aside(s)
    );
    if s.phase == Phase::Turn {
        let _ = writeln!(t, "{}", turn_line(s));
    }
    for p in 0..n {
        let x = &s.seats[p];
        let board: Vec<String> = (0..x.board.len())
            .filter(|&sp| x.board[sp] != 0)
            .map(|sp| {
                let die = x.board[sp] as usize - 1;
                format!(
                    "{} {} on {}",
                    COLOURS[s.die_colour[die] as usize], s.die_value[die], SPACE_NAMES[sp]
                )
            })
            .collect();
        let loose: Vec<String> = (0..32)
            .filter(|k| x.loose & (1 << k) != 0)
            .map(|k| tile(d, k))
            .collect();
        let restored: Vec<String> = (0..x.restored.len())
            .filter(|&c| x.restored[c] > 0)
            .map(|c| match x.restored[c] {
                1 => d.islands[c].name.clone(),
                k => format!("{} x{k}", d.islands[c].name),
            })
            .collect();
        let tiles: Vec<String> = (0..x.tiles.len())
            .filter(|&sp| x.tiles[sp] != 0)
            .map(|sp| {
                format!(
                    "{} on {}",
                    d.tiles[x.tiles[sp] as usize - 1].id,
                    TILE_SPACE_NAMES[sp]
                )
            })
            .collect();
        let by_source: Vec<String> = (0..source::COUNT)
            .filter(|&k| x.pp[k] != 0)
            .map(|k| format!("{} {}", SOURCES[k], x.pp[k]))
            .collect();
        let _ = writeln!(
            t,
            "seat {p}{} ({}): {} PP (by source: {}); {}; storage {}/{}; Governors {}, Shadows \
             {}, {} Techno-farm(s), {} Radio tower(s); recruitment track {}{}; relic tiles: \
             {}; restored: {}; Bonus tiles: {}; dice: {}",
            if Some(p) == seat { " (you)" } else { "" },
            d.clans[x.clan as usize].name,
            x.popularity,
            if by_source.is_empty() {
                "none".into()
            } else {
                list(&by_source)
            },
            amounts(&[
                x.res[0].min(255) as u8,
                x.res[1].min(255) as u8,
                x.res[2].min(255) as u8,
                x.res[3].min(255) as u8
            ]),
            s.storage_used(p),
            x.storage,
            x.governors,
            x.shadows,
            x.built[0],
            x.built[1],
            x.track,
            if x.at_max {
                " (recruited at the last cost)"
            } else {
                ""
            },
            if loose.is_empty() {
                "none".into()
            } else {
                list(&loose)
            },
            if restored.is_empty() {
                "none".into()
            } else {
                list(&restored)
            },
            if tiles.is_empty() {
                "none".into()
            } else {
                list(&tiles)
            },
            if board.is_empty() {
                "none".into()
            } else {
                list(&board)
            },
        );
        let [hand_n, deck_n, discard_n] = sizes[p];
        if seat.is_none_or(|seat| p == seat) {
            let hand: Vec<String> = (0..64)
                .filter(|c| x.hand & (1u64 << c) != 0)
                .map(|c| hero(d, c))
                .collect();
            let _ = writeln!(
                t,
                "  {}hand: {}",
                if seat.is_some() { "your " } else { "" },
                if hand.is_empty() {
                    "empty".into()
                } else {
                    list(&hand)
                }
            );
            let _ = writeln!(
                t,
                "  deck: {deck_n} Hero(es): {}; discard pile: {}",
                hero_ids(d, x.deck),
                hero_ids(d, x.discard)
            );
        } else {
            let _ = writeln!(
                t,
                "  hand: {hand_n} Hero(es){}",
                if x.hand == 0 {
                    String::new()
                } else {
                    format!(", known: {}", hero_ids(d, x.hand))
                }
            );
            let discard = if discard_n == x.discard.count_ones() {
                hero_ids(d, x.discard)
            } else {
                format!(
                    "{discard_n} Hero(es), the top one {}",
                    hero_ids(d, x.discard)
                )
            };
            let _ = writeln!(t, "  deck: {deck_n} Hero(es); discard pile: {discard}");
        }
    }
    let _ = writeln!(
        t,
        "islands (a site: its number and resource, then G = Governor, F = Techno-farm, \
         R = Radio tower, each followed by its seat):"
    );
    for &i in s.islands() {
        let i = i as usize;
        let isl = &d.islands[i];
        let sites: Vec<String> = (0..isl.sites.len())
            .map(|k| {
                let mut c = format!("{} {}", k + 1, isl.sites[k].name());
                if s.gov[i][k] != NONE {
                    let _ = write!(c, " G{}", s.gov[i][k]);
                }
                if s.bld[i][k] != NONE {
                    let b = s.bld[i][k];
                    let _ = write!(c, " {}{}", ["F", "R"][(b % 2) as usize], b / 2);
                }
                c
            })
            .collect();
        let shadows: Vec<String> = (0..isl.shadow_spaces.len())
            .filter(|&k| s.shadow[i][k] != NONE)
            .map(|k| format!("seat {}", s.shadow[i][k]))
            .collect();
        let altars: Vec<String> = (0..isl.altars.len())
            .filter(|&k| s.altar[i][k] != NONE)
            .map(|k| format!("altar {} seat {}", k + 1, s.altar[i][k]))
            .collect();
        let nml: Vec<String> = (0..d.nml as usize)
            .filter_map(|k| {
                let waits = s.pending_refill & (1 << (i * super::data::MAX_NML + k)) != 0;
                match (s.nml[i][k] != NONE, waits) {
                    (true, _) => Some(nml_tile(s, i, k)),
                    (false, true) => Some(format!("slot {} waits for its refill", k + 1)),
                    (false, false) => None,
                }
            })
            .collect();
        let infl: Vec<String> = (0..n).map(|p| format!("{}", s.influence[i][p])).collect();
        let scav: Vec<String> = (0..n)
            .filter(|&p| s.seats[p].scavenger as usize == i)
            .map(|p| p.to_string())
            .collect();
        let _ = writeln!(
            t,
            "{}: sites [{}]; influence by seat {}; Shadows: {}; Relic altars: {}; Scavengers: \
             {}; No man's land: {}",
            island(d, i),
            sites.join("; "),
            infl.join("/"),
            if shadows.is_empty() {
                "none".into()
            } else {
                list(&shadows)
            },
            if altars.is_empty() {
                "none".into()
            } else {
                list(&altars)
            },
            if scav.is_empty() {
                "none".into()
            } else {
                scav.join(", ")
            },
            if nml.is_empty() {
                "empty".into()
            } else {
                list(&nml)
            },
        );
    }
    let market: Vec<String> = (0..d.market as usize)
        .filter(|&k| s.market[k] != NONE)
        .map(|k| format!("{}) {}", k + 1, hero(d, s.market[k] as usize)))
        .collect();
    let _ = writeln!(t, "Hero market: {}", list(&market));
    if s.top != NONE {
        let _ = writeln!(t, "  top of the Hero deck: {}", hero(d, s.top as usize));
    }
    let _ = writeln!(
        t,
        "  Hero deck below the top card: {} Hero(es)",
        s.hero_deck.count_ones()
    );
    let _ = writeln!(t, "Black market: {}", tile_counts(d, &s.black_market));
    let _ = writeln!(
        t,
        "bag: {} tile(s): {}",
        s.bag.iter().map(|&c| u32::from(c)).sum::<u32>(),
        tile_counts(d, &s.bag)
    );
    let villagers: Vec<String> = (0..d.villagers.len())
        .map(|v| {
            format!(
                "{} {}",
                v + 1,
                if s.villagers & (1 << v) != 0 {
                    "back"
                } else {
                    "front"
                }
            )
        })
        .collect();
    let _ = writeln!(t, "Villager tiles (the side up): {}", list(&villagers));
    let supply: Vec<String> = super::data::Resource::ALL
        .iter()
        .map(|r| format!("{} {}", s.supply[*r as usize], r.name()))
        .collect();
    let _ = write!(t, "general supply: {}", list(&supply));
    let frames: Vec<String> = s.stack[..s.sp as usize]
        .iter()
        .rev()
        .flatten()
        .map(|f| frame_text(s, f))
        .collect();
    if !frames.is_empty() {
        let _ = write!(t, "\npending: {}", frames.join("; then "));
    }
    t
}

/// The effect step waiting for the actor's choice, in words (`nothing` when the top
/// frame is bookkeeping, which asks no choice).
fn pending_text(s: &State) -> String {
    match s.top() {
        Some(Frame::HeroDone(_)) | Some(Frame::EndRevenue) | None => "nothing".into(),
        Some(f) => frame_text(s, &f),
    }
}

/// A pending effect step in words.
fn frame_text(s: &State, frame: &Frame) -> String {
    match *frame {
        Frame::Eff { eff, .. } => effect(&eff),
        Frame::DiscardShift { sub: 0 } => "choose a Hero to discard".into(),
        Frame::DiscardShift { .. } => "shift a die by 1".into(),
        Frame::PlaceTile(t) => format!(
            "place the uncovered Bonus tile {}",
            data(s).tiles[t as usize].id
        ),
        Frame::MakeRoom(k) => {
            format!("make room in storage for {}", tile(data(s), k as usize))
        }
        Frame::Victim(i) => format!(
            "choose the Governor your Shadow eliminates on {}",
            island(data(s), i as usize)
        ),
        Frame::Altar(c) => format!(
            "choose the altar of the {} Relic",
            data(s).islands[c as usize].name
        ),
        Frame::HeroDone(c) => format!("finish playing {}", hero_id(data(s), c as usize)),
        Frame::EndRevenue => "finish the revenue".into(),
    }
}

/// One island as a seat sees it ([`Table`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IslandView {
    /// Its colour name (`blue`).
    pub name: String,
    /// Each site: its number and resource (`1 rice`), and what stands on it: `G`
    /// (Governor), `F` (Techno-farm) or `R` (Radio tower) with the owning seat.
    pub sites: Vec<(String, Vec<(char, Seat)>)>,
    /// Influence of each seat.
    pub influence: Vec<i32>,
    /// The seats whose Shadows stand on its Shadow spaces.
    pub shadows: Vec<Seat>,
    /// The seats whose Scavenger is here.
    pub scavengers: Vec<Seat>,
    /// Its No man's land tiles as the seat sees them (face-down ones as such).
    pub nml: Vec<String>,
}

/// One seat's supply as every seat sees it, and its hand as the observer may know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatView {
    /// The clan's name.
    pub clan: String,
    /// Popularity points.
    pub pp: i32,
    /// Rice, metal, crystal, gold.
    pub resources: [u32; 4],
    /// Storage used and its size.
    pub storage: (u32, u32),
    /// Governors and Shadows left in the supply.
    pub units: (u32, u32),
    /// Techno-farms and Radio towers built.
    pub built: (u32, u32),
    /// Position on the recruitment track.
    pub track: u32,
    /// The dice on its action spaces: `green 4 on Production`.
    pub dice: Vec<String>,
    /// Relic tiles held loose, Relics restored and Bonus tiles, in words.
    pub relics: Vec<String>,
    /// The Heroes in hand the observer may name (all of its own; of another seat, those
    /// known to be there), as `H07 (strength 5, ...)`.
    pub heroes: Vec<String>,
    /// Heroes in hand in all (the count is public).
    pub hand: u32,
    /// Heroes in the deck.
    pub deck: u32,
    /// The discard pile, by id.
    pub discard: Vec<String>,
}

/// What the table shows one seat, for drawn boards (`sim serve`): built only from what
/// that seat may know (the same facts as its text view, [`GameLog::view`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Round and number of rounds.
    pub round: (u32, usize),
    /// Who holds the Mighty Helmet, and who acts.
    pub helmet: Seat,
    /// The seat to act.
    pub actor: Seat,
    /// The dice in the pool: colour name and value.
    pub pool: Vec<(&'static str, u8)>,
    /// The islands in play.
    pub islands: Vec<IslandView>,
    /// Every seat.
    pub seats: Vec<SeatView>,
    /// The Hero market, slot by slot.
    pub market: Vec<String>,
    /// The top of the Hero deck, when it is visible.
    pub top: Option<String>,
    /// The Black market's tiles.
    pub black_market: Vec<String>,
    /// The effect step waiting for the actor's choice, if any.
    pub pending: Option<String>,
}

/// The table `s` shows seat `seat` (see [`Table`]).
pub fn table(s: &State, seat: Seat) -> Table {
    let d = data(s);
    let n = s.num_players();
    let mut pool = Vec::new();
    if !matches!(s.phase, Phase::SetupGovernor { .. }) {
        for k in 0..s.die_loc.len() {
            if s.die_loc[k] == POOL {
                pool.push((COLOURS[s.die_colour[k] as usize], s.die_value[k]));
            }
        }
        pool.sort_unstable();
    }
    let islands = s
        .islands()
        .iter()
        .map(|&i| {
            let i = i as usize;
            let isl = &d.islands[i];
            IslandView {
                name: isl.name.clone(),
                sites: (0..isl.sites.len())
                    .map(|k| {
                        let mut on = Vec::new();
                        if s.gov[i][k] != NONE {
                            on.push(('G', Seat::from(s.gov[i][k])));
                        }
                        if s.bld[i][k] != NONE {
                            let b = s.bld[i][k];
                            on.push((['F', 'R'][(b % 2) as usize], Seat::from(b / 2)));
                        }
                        (format!("{} {}", k + 1, isl.sites[k].name()), on)
                    })
                    .collect(),
                influence: (0..n).map(|p| i32::from(s.influence[i][p])).collect(),
                shadows: (0..isl.shadow_spaces.len())
                    .filter(|&k| s.shadow[i][k] != NONE)
                    .map(|k| Seat::from(s.shadow[i][k]))
                    .collect(),
                scavengers: (0..n)
                    .filter(|&p| s.seats[p].scavenger as usize == i)
                    .collect(),
                nml: (0..d.nml as usize)
                    .filter(|&k| s.nml[i][k] != NONE)
                    .map(|k| nml_tile(s, i, k))
                    .collect(),
            }
        })
        .collect();
    let seats = (0..n)
        .map(|p| {
            let x = &s.seats[p];
            let dice = (0..x.board.len())
                .filter(|&sp| x.board[sp] != 0)
                .map(|sp| {
                    let k = x.board[sp] as usize - 1;
                    format!(
                        "{} {} on {}",
                        COLOURS[s.die_colour[k] as usize], s.die_value[k], SPACE_NAMES[sp]
                    )
                })
                .collect();
            let mut relics: Vec<String> = (0..32)
                .filter(|k| x.loose & (1 << k) != 0)
                .map(|k| tile(d, k))
                .collect();
            relics.extend(
                (0..x.restored.len())
                    .filter(|&c| x.restored[c] > 0)
                    .map(|c| format!("{} Relic restored", d.islands[c].name)),
            );
            relics.extend((0..x.tiles.len()).filter(|&sp| x.tiles[sp] != 0).map(|sp| {
                format!(
                    "Bonus {} on {}",
                    d.tiles[x.tiles[sp] as usize - 1].id,
                    TILE_SPACE_NAMES[sp]
                )
            }));
            let named = if p == seat {
                x.hand
            } else {
                x.hand & s.known_hand[p]
            };
            SeatView {
                clan: d.clans[x.clan as usize].name.clone(),
                pp: i32::from(x.popularity),
                resources: x.res.map(u32::from),
                storage: (s.storage_used(p), u32::from(x.storage)),
                units: (u32::from(x.governors), u32::from(x.shadows)),
                built: (u32::from(x.built[0]), u32::from(x.built[1])),
                track: u32::from(x.track),
                dice,
                relics,
                heroes: (0..64)
                    .filter(|c| named & (1u64 << c) != 0)
                    .map(|c| hero(d, c))
                    .collect(),
                hand: x.hand.count_ones(),
                deck: x.deck.count_ones(),
                discard: (0..64)
                    .filter(|c| x.discard & (1u64 << c) != 0)
                    .map(|c| hero_id(d, c).to_string())
                    .collect(),
            }
        })
        .collect();
    Table {
        round: (u32::from(s.round), d.round_pp.len()),
        helmet: Seat::from(s.helmet),
        actor: Seat::from(s.actor),
        pool,
        islands,
        seats,
        market: (0..d.market as usize)
            .filter(|&k| s.market[k] != NONE)
            .map(|k| hero(d, s.market[k] as usize))
            .collect(),
        top: (s.top != NONE).then(|| hero(d, s.top as usize)),
        black_market: (0..s.black_market.len())
            .filter(|&k| s.black_market[k] > 0)
            .map(|k| {
                if s.black_market[k] > 1 {
                    format!("{} x{}", tile(d, k), s.black_market[k])
                } else {
                    tile(d, k)
                }
            })
            .collect(),
        pending: s.top().is_some().then(|| pending_text(s)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Turn, play_ply, setup};
    use crate::params::ParamSet;
    use crate::rng::rng_from_seed;

    /// The labelled text each field of the observation tensor (module docs of `daimyo`,
    /// "Observation tensor") must show in `seat`'s view, from the seat's canonical state
    /// (what its observation holds), line by line: `(line prefix, text)`. An empty prefix
    /// searches the whole view. A field of the layout without a check fails the test.
    #[allow(clippy::needless_range_loop)] // seats index several parallel arrays
    fn wanted(real: &State, seat: Seat, field: &str) -> Vec<(String, String)> {
        let c = real.canonical(seat);
        let d = data(&c);
        let n = c.num_players();
        let all = |t: String| vec![(String::new(), t)];
        let seat_line = |p: usize, t: String| -> (String, String) {
            let you = if p == seat { " (you)" } else { "" };
            (
                format!(
                    "seat {p}{you} ({}): ",
                    d.clans[c.seats[p].clan as usize].name
                ),
                t,
            )
        };
        let per_seat = |f: &dyn Fn(usize) -> String| -> Vec<(String, String)> {
            (0..n).map(|p| seat_line(p, f(p))).collect()
        };
        let isle = |i: usize| format!("{}: sites [", island(d, i));
        let yn = |b: bool| if b { "yes" } else { "no" };
        match field {
            "phase" | "phase_step" => all(format!("stage: {}", stage(&c))),
            "round" => all(format!("round {} of {}", c.round, d.round_pp.len())),
            "turn_index" => all(format!(
                "turns taken this round {} of {}",
                c.turn_index,
                3 * n
            )),
            "actor" => all(format!("seat {} to act", c.actor)),
            "first_player" => all(format!("first player seat {}", c.first)),
            "helmet" => all(format!("seat {} holds the Mighty Helmet", c.helmet)),
            "round_flags" => all(format!(
                "Helmet taken by Help from Villagers this round {}; the round's first blue die \
                 placed {}",
                yn(c.helmet_taken),
                yn(c.blue_placed)
            )),
            "turn_space" | "turn_flags" | "tiles_used" | "tiles_new" if c.phase == Phase::Turn => {
                let f = &c.flags;
                let space = SPACE_NAMES
                    .get(f.space as usize)
                    .copied()
                    .unwrap_or("no space (set aside)");
                let used: Vec<&str> = (0..8)
                    .filter(|k| f.tiles_used & (1 << k) != 0)
                    .map(|k| TILE_SPACE_NAMES[k])
                    .collect();
                let new: Vec<&str> = (0..8)
                    .filter(|k| f.tiles_new & (1 << k) != 0)
                    .map(|k| TILE_SPACE_NAMES[k])
                    .collect();
                let names = |v: Vec<&str>| {
                    if v.is_empty() {
                        "none".to_string()
                    } else {
                        v.join(", ")
                    }
                };
                vec![(
                    "this turn: ".into(),
                    format!(
                        "die on {space}; main action done {}; Hero played by strength {}; clan \
                         ability used {}; this die is the round's first blue die {}; Bonus tiles \
                         used: {}; Bonus tiles received: {}",
                        yn(f.main_done),
                        yn(f.hero),
                        yn(f.ability),
                        yn(f.first_blue),
                        names(used),
                        names(new)
                    ),
                )]
            }
            "turn_space" | "turn_flags" | "tiles_used" | "tiles_new" => Vec::new(),
            "stack" => c.stack[..c.sp as usize]
                .iter()
                .flatten()
                .map(|f| ("pending: ".to_string(), frame_text(&c, f)))
                .collect(),
            "governors" | "buildings" => {
                let mut v = Vec::new();
                for &i in c.islands() {
                    let i = i as usize;
                    for k in 0..d.islands[i].sites.len() {
                        let mut tok = format!("{} {}", k + 1, d.islands[i].sites[k].name());
                        if c.gov[i][k] != NONE {
                            tok.push_str(&format!(" G{}", c.gov[i][k]));
                        }
                        if c.bld[i][k] != NONE {
                            let b = c.bld[i][k];
                            tok.push_str(&format!(" {}{}", ["F", "R"][(b % 2) as usize], b / 2));
                        }
                        let end = if k + 1 == d.islands[i].sites.len() {
                            "]"
                        } else {
                            ";"
                        };
                        v.push((isle(i), format!("{tok}{end}")));
                    }
                }
                v
            }
            "shadows" | "altars" | "influence" | "no_mans_land" | "pending_refill"
            | "scavenger" => {
                let mut v = Vec::new();
                for &i in c.islands() {
                    let i = i as usize;
                    let t = match field {
                        "shadows" => {
                            let s: Vec<String> = c.shadow[i]
                                .iter()
                                .filter(|&&q| q != NONE)
                                .map(|q| format!("seat {q}"))
                                .collect();
                            format!(
                                "Shadows: {}",
                                if s.is_empty() {
                                    "none".into()
                                } else {
                                    s.join(", ")
                                }
                            )
                        }
                        "altars" => {
                            let s: Vec<String> = (0..d.islands[i].altars.len())
                                .filter(|&k| c.altar[i][k] != NONE)
                                .map(|k| format!("altar {} seat {}", k + 1, c.altar[i][k]))
                                .collect();
                            format!(
                                "Relic altars: {}",
                                if s.is_empty() {
                                    "none".into()
                                } else {
                                    s.join(", ")
                                }
                            )
                        }
                        "influence" => format!(
                            "influence by seat {}",
                            (0..n)
                                .map(|p| c.influence[i][p].to_string())
                                .collect::<Vec<_>>()
                                .join("/")
                        ),
                        "scavenger" => {
                            let s: Vec<String> = (0..n)
                                .filter(|&p| c.seats[p].scavenger as usize == i)
                                .map(|p| p.to_string())
                                .collect();
                            format!(
                                "Scavengers: {}",
                                if s.is_empty() {
                                    "none".into()
                                } else {
                                    s.join(", ")
                                }
                            )
                        }
                        _ => {
                            let s: Vec<String> = (0..d.nml as usize)
                                .filter_map(|k| {
                                    let waits = c.pending_refill
                                        & (1 << (i * super::super::data::MAX_NML + k))
                                        != 0;
                                    if c.nml[i][k] != NONE {
                                        Some(nml_tile(&c, i, k))
                                    } else if waits {
                                        Some(format!("slot {} waits for its refill", k + 1))
                                    } else {
                                        None
                                    }
                                })
                                .collect();
                            format!(
                                "No man's land: {}",
                                if s.is_empty() {
                                    "empty".into()
                                } else {
                                    s.join(", ")
                                }
                            )
                        }
                    };
                    v.push((isle(i), t));
                }
                v
            }
            "black_market" => all(format!("Black market: {}", tile_counts(d, &c.black_market))),
            "bag" => all(format!(
                "bag: {} tile(s): {}",
                c.bag.iter().map(|&x| u32::from(x)).sum::<u32>(),
                tile_counts(d, &c.bag)
            )),
            "villagers" => (0..d.villagers.len())
                .map(|v| {
                    let side = if c.villagers & (1 << v) != 0 {
                        "back"
                    } else {
                        "front"
                    };
                    (
                        "Villager tiles (the side up): ".to_string(),
                        format!("{} {side}", v + 1),
                    )
                })
                .collect(),
            "hero_market" => (0..d.market as usize)
                .filter(|&k| c.market[k] != NONE)
                .map(|k| {
                    (
                        "Hero market: ".to_string(),
                        format!("{}) {}", k + 1, hero(d, c.market[k] as usize)),
                    )
                })
                .collect(),
            "hero_deck_top" if c.top != NONE => {
                all(format!("top of the Hero deck: {}", hero(d, c.top as usize)))
            }
            "hero_deck_top" => Vec::new(),
            "hero_deck" => all(format!(
                "Hero deck below the top card: {} Hero(es)",
                c.hero_deck.count_ones()
            )),
            "dice_pool" if matches!(c.phase, Phase::SetupGovernor { .. }) => {
                all("dice in the pool: not rolled yet".into())
            }
            "dice_pool" => {
                let p = pool(&c);
                all(format!(
                    "dice in the pool: {}",
                    if p.is_empty() { "none".into() } else { p }
                ))
            }
            "dice_aside" => all(format!("dice set aside this round: {}", aside(&c))),
            "supply" => all(format!(
                "general supply: {} rice, {} metal, {} crystal, {} gold",
                c.supply[0], c.supply[1], c.supply[2], c.supply[3]
            )),
            "clan" => per_seat(&|_| String::new()),
            "resources" => per_seat(&|p| {
                let r = c.seats[p].res;
                amounts(&[r[0] as u8, r[1] as u8, r[2] as u8, r[3] as u8])
            }),
            "storage" => {
                per_seat(&|p| format!("storage {}/{}", c.storage_used(p), c.seats[p].storage))
            }
            "popularity" => per_seat(&|p| format!("{} PP", c.seats[p].popularity)),
            "pp_by_source" => per_seat(&|p| {
                let v: Vec<String> = (0..source::COUNT)
                    .filter(|&k| c.seats[p].pp[k] != 0)
                    .map(|k| format!("{} {}", SOURCES[k], c.seats[p].pp[k]))
                    .collect();
                format!(
                    "(by source: {})",
                    if v.is_empty() {
                        "none".into()
                    } else {
                        v.join(", ")
                    }
                )
            }),
            "loose_relics" => per_seat(&|p| {
                let v: Vec<String> = (0..24)
                    .filter(|k| c.seats[p].loose & (1 << k) != 0)
                    .map(|k| tile(d, k))
                    .collect();
                format!(
                    "relic tiles: {}",
                    if v.is_empty() {
                        "none".into()
                    } else {
                        v.join(", ")
                    }
                )
            }),
            "restored" => per_seat(&|p| {
                let x = &c.seats[p];
                let v: Vec<String> = (0..x.restored.len())
                    .filter(|&k| x.restored[k] > 0)
                    .map(|k| match x.restored[k] {
                        1 => d.islands[k].name.clone(),
                        m => format!("{} x{m}", d.islands[k].name),
                    })
                    .collect();
                format!(
                    "restored: {}",
                    if v.is_empty() {
                        "none".into()
                    } else {
                        v.join(", ")
                    }
                )
            }),
            "units" => per_seat(&|p| {
                let x = &c.seats[p];
                format!(
                    "Governors {}, Shadows {}, {} Techno-farm(s), {} Radio tower(s); recruitment track {}{};",
                    x.governors,
                    x.shadows,
                    x.built[0],
                    x.built[1],
                    x.track,
                    if x.at_max {
                        " (recruited at the last cost)"
                    } else {
                        ""
                    }
                )
            }),
            "built" => per_seat(&|p| {
                format!(
                    "{} Techno-farm(s), {} Radio tower(s)",
                    c.seats[p].built[0], c.seats[p].built[1]
                )
            }),
            "bonus_tiles" => {
                let mut v = Vec::new();
                for p in 0..n {
                    for sp in 0..c.seats[p].tiles.len() {
                        if c.seats[p].tiles[sp] != 0 {
                            v.push(seat_line(
                                p,
                                format!(
                                    "{} on {}",
                                    d.tiles[c.seats[p].tiles[sp] as usize - 1].id,
                                    TILE_SPACE_NAMES[sp]
                                ),
                            ));
                        }
                    }
                }
                v
            }
            "board_dice" => {
                let mut v = Vec::new();
                for p in 0..n {
                    for sp in 0..c.seats[p].board.len() {
                        let die = c.seats[p].board[sp] as usize;
                        if die != 0 {
                            v.push(seat_line(
                                p,
                                format!(
                                    "{} {} on {}",
                                    COLOURS[c.die_colour[die - 1] as usize],
                                    c.die_value[die - 1],
                                    SPACE_NAMES[sp]
                                ),
                            ));
                        }
                    }
                }
                v
            }
            "heroes_seen" | "pile_sizes" => {
                let sizes = real.pile_sizes();
                let mut v = Vec::new();
                for p in 0..n {
                    let x = &c.seats[p];
                    let [h, dk, ds] = sizes[p];
                    if p == seat {
                        let hand: Vec<String> = (0..64)
                            .filter(|k| x.hand & (1u64 << k) != 0)
                            .map(|k| hero(d, k))
                            .collect();
                        v.push((
                            String::new(),
                            format!(
                                "\n  your hand: {}\n",
                                if hand.is_empty() {
                                    "empty".into()
                                } else {
                                    hand.join(", ")
                                }
                            ),
                        ));
                        v.push((
                            String::new(),
                            format!(
                                "\n  deck: {dk} Hero(es): {}; discard pile: {}\n",
                                hero_ids(d, x.deck),
                                hero_ids(d, x.discard)
                            ),
                        ));
                    } else {
                        let known = if x.hand == 0 {
                            String::new()
                        } else {
                            format!(", known: {}", hero_ids(d, x.hand))
                        };
                        v.push((String::new(), format!("\n  hand: {h} Hero(es){known}\n")));
                        let top = if ds == x.discard.count_ones() {
                            hero_ids(d, x.discard)
                        } else {
                            format!("{ds} Hero(es), the top one {}", hero_ids(d, x.discard))
                        };
                        v.push((
                            String::new(),
                            format!("\n  deck: {dk} Hero(es); discard pile: {top}\n"),
                        ));
                    }
                }
                v
            }
            other => panic!(
                "the observation field `{other}` has no check: show it, labelled, in the human view and check it here"
            ),
        }
    }

    /// The human view labels every public field of the observation (issue 25): the test
    /// walks the observation tensor's fields by name (a new field without a check fails)
    /// at every decision of random games at 2, 3 and 4 players and under
    /// `hero_discard_public = false`, for the actor and the next seat.
    #[test]
    fn the_human_view_labels_every_public_field() {
        let mut buf = Vec::new();
        let mut phases = std::collections::BTreeSet::new();
        for (players, settings, seed) in [
            (2, vec![], 1),
            (3, vec!["hero_discard_public=false"], 2),
            (4, vec![], 3),
        ] {
            let params = crate::games::daimyo::Params::from_settings(&settings, "test").unwrap();
            let mut rng = rng_from_seed(seed);
            let mut s: State = setup(&params, players, &mut rng).unwrap();
            let layout = <State as GameState>::observation_layout(s.rules().get());
            let mut ply = 0;
            loop {
                if ply % 3 == 0 {
                    let actor = usize::from(s.actor);
                    for seat in [actor, (actor + 1) % players] {
                        let view = Log.view(&s, seat);
                        phases.insert(
                            format!("{:?}", s.phase)
                                .split(' ')
                                .next()
                                .unwrap()
                                .to_string(),
                        );
                        for f in &layout {
                            for (prefix, text) in wanted(&s, seat, &f.name) {
                                let hay = if prefix.is_empty() {
                                    format!("\n{view}\n")
                                } else {
                                    view.lines()
                                        .find(|l| l.starts_with(&prefix))
                                        .unwrap_or_else(|| {
                                            panic!("{}: no line '{prefix}' in\n{view}", f.name)
                                        })
                                        .to_string()
                                };
                                assert!(hay.contains(&text), "{}: no '{text}' in\n{view}", f.name);
                            }
                        }
                    }
                }
                ply += 1;
                if matches!(s.turn(), Turn::Terminal)
                    || play_ply(&mut s, &mut rng, |s, p, r| s.random_action(p, &mut buf, r))
                        .is_none()
                {
                    break;
                }
            }
        }
        assert!(phases.len() >= 6, "{phases:?}");
    }
}

#[cfg(test)]
mod forced_tests {
    use super::*;
    use crate::game::{play_ply, setup};
    use crate::rng::rng_from_seed;

    /// Forced moves (a decision with one option, which the rules engine takes by itself)
    /// are told with the ply that caused them when the ply is listened to, and only then
    /// (issue 25: a die placed because it was the only option was never printed).
    #[test]
    fn forced_moves_are_told_with_their_ply() {
        let mut buf = Vec::new();
        let mut told = 0;
        for seed in 0..3 {
            let mut rng = rng_from_seed(seed);
            let mut s: State = setup(&Default::default(), 3, &mut rng).unwrap();
            let mut listen = true;
            loop {
                let before = s.clone();
                let played = play_ply(&mut s, &mut rng, |s, p, r| {
                    let a = s.random_action(p, &mut buf, r);
                    if listen {
                        Log.listen();
                    }
                    a
                });
                if listen {
                    Log.heard(&s);
                }
                let Some((_, joint)) = played else { break };
                let lines = Log.consequences(&before, &joint, &s, Audience::All);
                let forced: Vec<&String> = lines
                    .iter()
                    .filter(|l| l.starts_with("forced: seat "))
                    .collect();
                if listen {
                    told += forced.len();
                    for l in forced {
                        assert!(l.ends_with("(the only legal move)"), "{l}");
                    }
                } else {
                    assert!(forced.is_empty(), "an unheard ply told {forced:?}");
                }
                listen = !listen;
            }
        }
        assert!(told > 0, "no forced move in three games");
    }

    /// A forced move heard while the game is set up (listened around `new_game`) is told
    /// by [`GameLog::setup`], before ply 1, and only for that start. With the built-in data
    /// no setup has one (the first Governor choice has one option per free Rice site, two
    /// or more whenever another seat must choose after it), so the engine's note is made
    /// here by hand, as `settle` makes it.
    #[test]
    fn forced_moves_of_the_setup_are_told_before_ply_1() {
        let mut rng = rng_from_seed(4);
        Log.listen();
        let s: State = setup(&Default::default(), 2, &mut rng).unwrap();
        let mut legal = Vec::new();
        s.legal_actions(s.actor as Seat, &mut legal);
        note_forced(&s, legal[0]);
        Log.heard(&s);
        let told = Log.setup(&s, Audience::Seats(crate::game::SeatSet::single(1)));
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(
            told[0].starts_with("forced: seat 0 places a Governor on"),
            "{told:?}"
        );
        // Another start (other seed) was never listened to: nothing is told.
        let other: State = setup(&Default::default(), 2, &mut rng_from_seed(5)).unwrap();
        assert!(Log.setup(&other, Audience::All).is_empty());
    }

    /// The terminal transcript (`sim play`) prints them.
    #[test]
    fn the_transcript_prints_forced_moves() {
        let plan = crate::tournament::Plan::<State>::resolve(
            Some(2),
            &[] as &[&str],
            &["random", "random"],
            1,
        )
        .unwrap();
        let mut out = Vec::new();
        crate::cli::play::write_playthrough(&plan, 0, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\n  forced: seat "), "{text}");
    }
}
