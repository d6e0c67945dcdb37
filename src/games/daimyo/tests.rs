//! Daimyo rule tests (daimyo.txt; GAPS.md DAI). Each `rule_*` test quotes the line it
//! checks.

use super::action::{Action, Kind};
use super::data::{Data, Resource};
use super::*;
use crate::game::{Game, ScriptedChance, rules};
use crate::params::ParamSet;
use crate::rng::test_rng;

const BLUE: u8 = 0;
const RED: u8 = 1;
const YELLOW: u8 = 2;
const PURPLE: u8 = 3;
const GREEN: u8 = 4;
const NONE: u8 = u8::MAX;

fn chance() -> ScriptedChance {
    ScriptedChance::then(&[], test_rng(99))
}

fn params(settings: &[&str]) -> Params {
    Params::from_settings(settings, "game daimyo").unwrap()
}

/// A finished setup with fixed clans, then an empty board: no Governors, no influence;
/// ready for `turn`.
fn fresh(players: usize, clans: &str) -> State {
    let p = params(&[&format!("clans={clans}")]);
    let r = rules::<State>(&p, players).unwrap();
    let mut c = chance();
    let mut s = State::new_game(r, &mut c);
    let mut buf = Vec::new();
    while matches!(s.phase, Phase::SetupGovernor { .. }) {
        let who = s.actor as usize;
        s.legal_actions(who, &mut buf);
        s.apply(who, buf[0], &mut c).unwrap();
    }
    s.gov = [[NONE; 6]; 6];
    s.influence = [[0; 4]; 6];
    for p in 0..players {
        s.seats[p].governors = 0;
        s.seats[p].res = [0; 4];
    }
    s
}

/// Puts `p` at the start of a turn.
fn turn(s: &mut State, p: usize) {
    s.phase = Phase::PickDie;
    s.actor = p as u8;
    s.flags = TurnFlags::default();
}

/// Makes a pool die of `colour` show `value`; returns the Die action for `space`.
fn die(s: &mut State, colour: u8, value: u8, space: u8) -> Action {
    let d = (0..16)
        .find(|&d| s.die_loc[d] == 0xF0 && s.die_colour[d] == colour)
        .expect("a pool die of that colour");
    s.die_value[d] = value;
    Action::new(Kind::Die, space, colour * 6 + value - 1)
}

/// Puts a die of `colour`/`value` on `p`'s board space directly (an earlier turn).
fn board_die(s: &mut State, p: usize, colour: u8, value: u8, space: usize) {
    let d = (0..16)
        .find(|&d| s.die_loc[d] == 0xF0 && s.die_colour[d] == colour)
        .expect("a pool die of that colour");
    s.die_value[d] = value;
    s.die_loc[d] = (p * 8 + space) as u8;
    s.seats[p].board[space] = d as u8 + 1;
}

fn act(s: &mut State, a: Action, c: &mut ScriptedChance) {
    let p = s.actor as usize;
    s.apply(p, a, c)
        .unwrap_or_else(|e| panic!("{e}\nstate:\n{s}"));
}

fn plain(k: Kind) -> Action {
    Action::plain(k)
}

fn legal(s: &State) -> Vec<Action> {
    let mut v = Vec::new();
    s.legal_actions(s.actor as usize, &mut v);
    v
}

fn hero(s: &State, id: &str) -> usize {
    s.rules()
        .data()
        .data
        .heroes
        .iter()
        .position(|h| h.id == id)
        .unwrap()
}

fn kind(piece_colour: u8, piece: u8) -> u8 {
    piece_colour * 4 + piece
}

/// Conservation laws checked at every node of the conformance games: relic tiles, Heroes,
/// dice, units and buildings.
fn invariants(s: &State) -> Result<(), String> {
    let rd = s.rules().get().data();
    let d = &rd.data;
    let n = s.rules().players();
    // Relic tiles: bag + Black market + No man's lands + loose + restored stacks.
    let mut tiles: u32 = s.bag.iter().map(|&x| x as u32).sum::<u32>()
        + s.black_market.iter().map(|&x| x as u32).sum::<u32>();
    for &i in &rd.islands {
        tiles += s.nml[i as usize].iter().filter(|&&k| k != NONE).count() as u32;
    }
    // A tile waiting for room (L434) is in the player's hands.
    tiles += s
        .stack
        .iter()
        .flatten()
        .filter(|f| matches!(f, Frame::MakeRoom(_)))
        .count() as u32;
    for p in 0..n {
        tiles += s.seats[p].loose.count_ones();
        tiles += s.seats[p]
            .restored
            .iter()
            .map(|&r| r as u32 * d.pieces as u32)
            .sum::<u32>();
        if s.storage_used(p) > s.seats[p].storage as u32 {
            return Err(format!(
                "seat {p} stores {} > {}",
                s.storage_used(p),
                s.seats[p].storage
            ));
        }
    }
    let want = rd.islands.len() as u32 * d.pieces as u32 * d.copies as u32;
    if tiles != want {
        return Err(format!("{tiles} relic tiles, want {want}"));
    }
    // Heroes: every market Hero and the clans' Heroes are in exactly one place.
    let mut seen: u64 = 0;
    let mut count = 0u32;
    let mut add = |m: u64| {
        count += m.count_ones();
        seen |= m;
    };
    add(s.hero_deck);
    for &c in s.market.iter().chain(std::iter::once(&s.top)) {
        if c != NONE {
            add(1u64 << c);
        }
    }
    for p in 0..n {
        add(s.seats[p].hand);
        add(s.seats[p].deck);
        add(s.seats[p].discard);
    }
    for f in s.stack.iter().flatten() {
        if let Frame::HeroDone(c) = f {
            add(1u64 << c);
        }
    }
    let market = d.heroes.iter().filter(|h| !h.clan).count() as u32;
    if count != market + 3 * n as u32 || seen.count_ones() != count {
        return Err(format!(
            "{count} Heroes placed ({} distinct), want {}",
            seen.count_ones(),
            market + 3 * n as u32
        ));
    }
    // Dice.
    let in_play = (0..16).filter(|&i| s.die_loc[i] != 0xF2).count();
    let want_dice: u8 = rd.dice.iter().sum();
    if in_play != want_dice as usize {
        return Err(format!("{in_play} dice in play, want {want_dice}"));
    }
    for p in 0..n {
        for (sp, &x) in s.seats[p].board.iter().enumerate() {
            if x != 0 && s.die_loc[x as usize - 1] as usize != p * 8 + sp {
                return Err(format!("seat {p} space {sp}: die {} elsewhere", x - 1));
            }
        }
    }
    // Units and buildings on the board match the seats' counts and limits.
    for p in 0..n {
        let govs = s.gov.iter().flatten().filter(|&&g| g as usize == p).count();
        let shadows = s
            .shadow
            .iter()
            .flatten()
            .filter(|&&g| g as usize == p)
            .count();
        let farms = s
            .bld
            .iter()
            .flatten()
            .filter(|&&b| b as usize == 2 * p)
            .count();
        let towers = s
            .bld
            .iter()
            .flatten()
            .filter(|&&b| b as usize == 2 * p + 1)
            .count();
        let seat = &s.seats[p];
        if govs != seat.governors as usize || govs > d.governors as usize {
            return Err(format!(
                "seat {p}: {govs} Governors on the board, count {}",
                seat.governors
            ));
        }
        if shadows != seat.shadows as usize || shadows > d.shadows as usize {
            return Err(format!(
                "seat {p}: {shadows} Shadows, count {}",
                seat.shadows
            ));
        }
        if farms != seat.built[0] as usize || towers != seat.built[1] as usize {
            return Err(format!(
                "seat {p}: buildings {farms}/{towers}, built {:?}",
                seat.built
            ));
        }
        let restored: u32 = seat.restored.iter().map(|&r| r as u32).sum();
        let tokens = s
            .altar
            .iter()
            .flatten()
            .filter(|&&a| a as usize == p)
            .count() as u32;
        if restored != tokens || tokens > d.relic_tokens as u32 {
            return Err(format!(
                "seat {p}: {restored} relics restored, {tokens} tokens on altars"
            ));
        }
        if seat.popularity != seat.pp.iter().sum::<i16>() {
            return Err(format!(
                "seat {p}: popularity {} != sum of sources {:?}",
                seat.popularity, seat.pp
            ));
        }
    }
    Ok(())
}

#[test]
fn conformance_at_every_player_count() {
    for players in 2..=4 {
        let cfg = crate::testing::Conformance::<State> {
            params: Params::default(),
            players,
            games: 6,
            seed: 11,
            invariants: &invariants,
            hidden: None,
            resamples: 1,
            determinize_every: 13,
        };
        let rep = crate::testing::check_random_games(&cfg).unwrap();
        assert!(rep.nodes > 600, "{rep:?}");
    }
}

#[test]
fn conformance_with_the_alternative_rulings() {
    let p = params(&[
        "unplaceable_die=leave_in_pool",
        "bag_empty=leave_empty",
        "blind_duplicate=back_to_bag",
        "shadow_victim=random",
        "influence_cap=6",
        "helmet_trigger=first_blue_die",
        "relic_take_optional=false",
        "allow_empty_main_action=false",
        "governor_move_scope=other_island",
        "army_full_tie=share_full",
        "nature_same_kind=false",
        "yellow_spaces=1",
        "just_unlocked_tile_usable=false",
        "rank_min_influence=0",
        "first_player=random",
    ]);
    for players in [2, 4] {
        let cfg = crate::testing::Conformance::<State> {
            params: p.clone(),
            players,
            games: 4,
            seed: 5,
            invariants: &invariants,
            hidden: None,
            resamples: 1,
            determinize_every: 29,
        };
        crate::testing::check_random_games(&cfg).unwrap();
    }
}

// ---------------------------------------------------------------------------------------
// Setup.

#[test]
fn rule_setup_islands_dice_and_relic_tiles_by_player_count() {
    // L65-67 "For a 2-player game, only use the blue, red, yellow and purple islands."
    // L85-87 "2-player game: 1 [blue], 3 [green], 3 [red]" (DAI-11); L92-96 relic tiles of
    // the islands in play; L98 "Draw 3 random Relic tiles for each island"; L100 "place 3
    // random Relic tiles there face up".
    for (players, islands, dice) in [(2, 4, [1, 3, 3]), (3, 5, [2, 4, 4]), (4, 6, [3, 5, 5])] {
        let s = fresh(
            players,
            [
                "nature,tech",
                "nature,tech,nomad",
                "nature,tech,nomad,noble",
            ][players - 2],
        );
        assert_eq!(s.islands().len(), islands);
        for colour in 0..3u8 {
            let count = (0..16)
                .filter(|&d| s.die_loc[d] != 0xF2 && s.die_colour[d] == colour)
                .count();
            assert_eq!(count, dice[colour as usize], "{players}p colour {colour}");
        }
        let in_bag: u32 = s.bag.iter().map(|&x| x as u32).sum();
        let in_bm: u32 = s.black_market.iter().map(|&x| x as u32).sum();
        assert_eq!(in_bm, 3);
        assert_eq!(in_bag + in_bm + 3 * islands as u32, 12 * islands as u32);
        for &i in s.islands() {
            assert!(
                s.nml[i as usize][..3]
                    .iter()
                    .all(|&k| k != NONE && (k / 4) as usize <= 5)
            );
        }
        // Only tiles of the islands in play (L92: "remove the green and black Relic tiles").
        for k in 0..24 {
            if !s.islands().contains(&(k / 4)) {
                assert_eq!(s.bag[k as usize] + s.black_market[k as usize], 0);
            }
        }
    }
}

#[test]
fn rule_setup_hero_market_villagers_and_clan_boards() {
    // L73 "lay the first 5 cards of the Hero deck face up ... Also flip the top card".
    // L79 "If the 'Draw 2 cards' side appears during setup, flip it face down".
    // L172 "Your 3 Starting Hero cards. Shuffle them ... Draw 2 cards"; L173 storage 3.
    for seed in 0..8 {
        let r = rules::<State>(&params(&["clans=tech,noble"]), 2).unwrap();
        let s = State::new_game(r, &mut test_rng(seed));
        assert!(s.market[..5].iter().all(|&c| c != NONE) && s.top != NONE);
        assert_eq!(s.hero_deck.count_ones(), 40 - 6);
        assert_eq!(s.villagers & 0b100, 0, "the Draw-2 face starts face down");
        for p in 0..2 {
            let seat = &s.seats[p];
            assert_eq!((seat.hand.count_ones(), seat.deck.count_ones()), (2, 1));
            assert_eq!(seat.storage, 3);
            assert_eq!(seat.track, 0);
            // DAI-09: clan board 2 Rice + 1 Gold, mini-boards 1 Metal and 1 Crystal.
            assert_eq!(seat.res, [2, 1, 1, 1]);
        }
        assert_eq!(
            s.helmet, 0,
            "L230 the first player takes the Mighty Helmet (DAI-31: seat 0)"
        );
        assert_eq!(
            s.rules().get().data().data.clans[s.seats[0].clan as usize].name,
            "tech"
        );
    }
}

#[test]
fn rule_setup_greg_places_his_governors() {
    // L232 "This player chooses an island and places a Governor there on a Rice production
    // site, and places their Scavenger in this island's No man's land. Then each player in
    // clockwise order does the same on a different island." L236 "+2 Influence per
    // Governor". Example: "Greg places his Governor on the purple island, then advances his
    // disc 2 spaces".
    let r = rules::<State>(&params(&["clans=nature,tech,nomad"]), 3).unwrap();
    let mut c = chance();
    let mut s = State::new_game(r, &mut c);
    assert_eq!(s.phase, Phase::SetupGovernor { step: 0 });
    let opts = legal(&s);
    // Rice sites only (sites 0 and 1 of each of the 5 islands).
    assert_eq!(opts.len(), 10);
    assert!(opts.iter().all(|a| a.kind() == Kind::Site && a.b() < 2));
    act(&mut s, Action::new(Kind::Site, PURPLE, 1), &mut c);
    assert_eq!(s.influence[PURPLE as usize][0], 2);
    assert_eq!(s.seats[0].scavenger, PURPLE);
    // The next player may not choose purple.
    assert_eq!(s.actor, 1);
    assert!(legal(&s).iter().all(|a| a.a() != PURPLE));
    act(&mut s, Action::new(Kind::Site, RED, 0), &mut c);
    act(&mut s, Action::new(Kind::Site, BLUE, 0), &mut c);
    // L234 "Starting with the 1st player, each player places a second Governor in any
    // available space at a production site" (DAI-16: any island).
    assert_eq!(s.phase, Phase::SetupGovernor { step: 3 });
    assert_eq!(s.actor, 0);
    assert_eq!(legal(&s).len(), 25 - 3);
    act(&mut s, Action::new(Kind::Site, PURPLE, 4), &mut c);
    assert_eq!(s.influence[PURPLE as usize][0], 4);
    act(&mut s, Action::new(Kind::Site, PURPLE, 2), &mut c);
    act(&mut s, Action::new(Kind::Site, GREEN, 2), &mut c);
    assert_eq!(s.phase, Phase::PickDie);
    assert_eq!((s.round, s.actor), (1, 0));
    assert_eq!(s.seats[0].track, 0, "DAI-16: the track does not advance");
}

#[test]
fn rule_turn_die_colour_and_one_die_per_space() {
    // L256 "place it on a Main Action space on your Clan board that is the same color as the
    // die"; L538 Tax: "Place a die of any color"; L875 "You cannot place 2 dice on the same
    // action".
    let mut s = fresh(2, "nature,tech");
    turn(&mut s, 0);
    for d in 0..16 {
        if s.die_loc[d] == 0xF0 {
            s.die_value[d] = 4;
        }
    }
    board_die(&mut s, 0, 2, 4, 3); // a red die already on Recruitment
    let opts = legal(&s);
    let spaces = |colour: u8| -> Vec<u8> {
        let mut v: Vec<u8> = opts
            .iter()
            .filter(|a| a.kind() == Kind::Die && a.b() / 6 == colour)
            .map(|a| a.a())
            .collect();
        v.sort();
        v
    };
    assert_eq!(spaces(0), vec![0, 5], "blue: Help from Villagers or Tax");
    assert_eq!(spaces(1), vec![1, 2, 5], "green: Production, Relic or Tax");
    assert_eq!(
        spaces(2),
        vec![4, 5],
        "red: Construction or Tax (Recruitment is taken)"
    );
}

#[test]
fn rule_tax_gains_two_gold_immediately() {
    // L538-L540 "Place a die of any color on this action. Immediately gain 2 [Gold]".
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    turn(&mut s, 0);
    let a = die(&mut s, 0, 3, 5);
    act(&mut s, a, &mut c);
    assert_eq!(s.seats[0].res[3], 2);
    assert!(!legal(&s).contains(&plain(Kind::Main)));
}
