//! Daimyo rule tests (docs/rules/daimyo.md). Each `rule_*` test quotes the line it
//! checks.

use super::action::{Action, Kind};
use super::data::{Data, Resource};

use super::*;
use crate::game::{GameState, Measured, ScriptedChance, rules};
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

/// Parsed settings; a `clans=` list implies `clan_assignment=fixed` (DAI-31) unless the
/// settings say otherwise.
fn params(settings: &[&str]) -> Params {
    let listed = settings
        .iter()
        .any(|s| s.starts_with("clans=") && *s != "clans=random");
    let mut all: Vec<&str> = Vec::new();
    if listed && !settings.iter().any(|s| s.starts_with("clan_assignment=")) {
        all.push("clan_assignment=fixed");
    }
    all.extend(settings);
    Params::from_settings(&all, "game daimyo").unwrap()
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

/// The code of Bonus Action tile `id` as a seat's tile slot holds it (index + 1; 0 = none).
fn tile_code(s: &State, id: &str) -> u8 {
    let tiles = &s.rules().get().data().data.tiles;
    tiles.iter().position(|t| t.id == id).unwrap() as u8 + 1
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
/// dice, units and buildings, and the resource ledger (supply + storage = the totals).
fn invariants(s: &State) -> Result<(), String> {
    let rd = s.rules().get().data();
    let d = &rd.data;
    let n = s.rules().players();
    // Relic tiles: bag + Black market + No man's lands + loose + restored stacks.
    let mut tiles: u32 = s.bag.iter().map(|&x| x as u32).sum::<u32>()
        + s.black_market.iter().map(|&x| x as u32).sum::<u32>();
    // Face-down tiles (nml_visible = false) are still counted in the bag.
    for &i in &rd.islands {
        tiles += s.nml[i as usize].iter().filter(|&&k| k < 24).count() as u32;
    }
    let params = s.rules().get().params();
    if params.nml_visible && s.nml.iter().flatten().any(|&k| k == state::HIDDEN) {
        return Err("a face-down No man's land tile with nml_visible".into());
    }
    // Refills wait only while an effect resolves (nml_refill = after_effect).
    if s.pending_refill != 0 && s.sp == 0 {
        return Err(format!(
            "refills {:#x} pending outside an effect",
            s.pending_refill
        ));
    }
    // The resource ledger: every gain comes from the supply and every spend returns to it.
    for r in 0..4 {
        let held: i32 = (0..n).map(|p| s.seats[p].res[r] as i32).sum();
        if s.supply[r] + held != d.supply[r] as i32 {
            return Err(format!(
                "resource {r}: supply {} + held {held} != total {}",
                s.supply[r], d.supply[r]
            ));
        }
        if params.supply_limited && s.supply[r] < 0 {
            return Err(format!("resource {r}: supply {} < 0", s.supply[r]));
        }
    }
    for p in 0..n {
        let top = s.discard_top[p];
        let ok = if s.seats[p].discard == 0 {
            top == NONE
        } else {
            top < 64 && s.seats[p].discard & (1u64 << top) != 0
        };
        if !ok {
            return Err(format!(
                "seat {p}: discard top {top} not on the pile {:#x}",
                s.seats[p].discard
            ));
        }
    }
    // A tile waiting for room (DAI-4.6) is in the player's hands.
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
        let beyond = restored > tokens && tokens == d.relic_tokens as u32;
        if (restored != tokens && !beyond) || tokens > d.relic_tokens as u32 {
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

/// What `observer` cannot see: the other seats' hands.
fn hidden(s: &State, observer: usize) -> u64 {
    (0..s.rules().players())
        .filter(|&q| q != observer)
        .fold(0u64, |h, q| crate::rng::mix64(h ^ s.seats[q].hand))
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
            hidden: Some(&hidden),
            resamples: 3,
            determinize_every: 13,
        };
        let rep = crate::testing::check_random_games(&cfg).unwrap();
        assert!(rep.nodes > 600, "{rep:?}");
        assert!(rep.hidden_changes > 10, "{rep:?}");
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
        "nml_visible=false",
        "nml_refill=after_effect",
        "partial_effects=false",
        "supply_limited=true",
        "hero_discard_public=false",
        "relic_discard=any_time",
        "bonus_before_die=true",
        "main_action_optional=true",
        "counted_effects_optional=true",
        "altar_choice=owner_chooses",
        "relic_beyond_tokens=restore_without_token",
    ]);
    for players in [2, 4] {
        let cfg = crate::testing::Conformance::<State> {
            params: p.clone(),
            players,
            games: 4,
            seed: 5,
            invariants: &invariants,
            hidden: Some(&hidden),
            resamples: 2,
            determinize_every: 29,
        };
        crate::testing::check_random_games(&cfg).unwrap();
    }
}

/// The information contract (`crate::testing::check_information`: tensor shape, no hidden
/// Hero in the tensor, the information state and its key, perfect recall, the action
/// mask) under the alternatives that hide more: covered discards (`hero_discard_public =
/// false`) and face-down No man's land tiles (`nml_visible = false`), with a
/// determinization at every third node.
#[test]
fn information_contract_when_more_is_hidden() {
    let p = params(&[
        "nml_visible=false",
        "hero_discard_public=false",
        "first_player=random",
        "shadow_victim=random",
        "bonus_before_die=true",
        "relic_discard=any_time",
        "altar_choice=owner_chooses",
    ]);
    for players in 2..=4 {
        let r = rules::<State>(&p, players).unwrap();
        let rep = crate::testing::check_information(r, 3, 3, 3, 2)
            .unwrap_or_else(|e| panic!("{players} players: {e}"));
        assert!(rep.determinizations > 200, "{rep:?}");
    }
}

/// The tensor's length per player count (built-in data), the layout's field lengths add
/// up to it, and the observer's own hand is in its tensor while another seat's unknown
/// Heroes are not (only their union with the deck is).
#[test]
fn observation_tensor_layout_and_hands() {
    for (players, want) in [(2, 2647), (3, 3200), (4, 3753)] {
        let r = rules::<State>(&Params::default(), players).unwrap();
        let layout = State::observation_layout(&r);
        assert_eq!(crate::game::tensor_len(&layout), want, "{players} players");
    }
    let s = fresh_with(2, &["clans=nature,tech"]);
    let r = s.rules();
    let layout = State::observation_layout(&r);
    let len = crate::game::tensor_len(&layout);
    let start = |name: &str| {
        layout
            .iter()
            .take_while(|f| f.name != name)
            .map(|f| f.len)
            .sum::<usize>()
    };
    let h = s.data().heroes.len();
    let seen = start("heroes_seen");
    let mut t = vec![f32::NAN; len];
    for p in 0..2 {
        s.observation_tensor(p, &mut t);
        let own = &t[seen..seen + 4 * h];
        let other = &t[seen + 4 * h..seen + 8 * h];
        let (me, them) = (&s.seats[p], &s.seats[1 - p]);
        for c in 0..h {
            assert_eq!(own[c], (me.hand >> c & 1) as f32, "own hand, Hero {c}");
            assert_eq!(own[h + c], (me.deck >> c & 1) as f32, "own deck, Hero {c}");
            assert_eq!(own[2 * h + c], 0.0);
            assert_eq!(other[c], 0.0, "no hired Hero yet: none known in hand");
            assert_eq!(other[h + c], 0.0, "another seat's deck is not shown");
            assert_eq!(
                other[2 * h + c],
                ((them.hand | them.deck) >> c & 1) as f32,
                "another seat's hand and deck as one pile"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Setup.

#[test]
fn rule_setup_islands_dice_and_relic_tiles_by_player_count() {
    // DAI-2.1 "For a 2-player game, only use the blue, red, yellow and purple islands."
    // DAI-2.5 "2-player game: 1 [blue], 3 [green], 3 [red]" (DAI-11); DAI-2.6 relic tiles of
    // the islands in play; DAI-2.6 "Draw 3 random Relic tiles for each island"; DAI-2.6 "place 3
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
        // Only tiles of the islands in play (DAI-2.6: "remove the green and black Relic tiles").
        for k in 0..24 {
            if !s.islands().contains(&(k / 4)) {
                assert_eq!(s.bag[k as usize] + s.black_market[k as usize], 0);
            }
        }
    }
}

#[test]
fn rule_setup_hero_market_villagers_and_clan_boards() {
    // DAI-2.3 "lay the first 5 cards of the Hero deck face up ... Also flip the top card".
    // DAI-2.4 "If the 'Draw 2 cards' side appears during setup, flip it face down".
    // DAI-2.9 "Your 3 Starting Hero cards. Shuffle them ... Draw 2 cards"; DAI-4.6 storage 3.
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
    // DAI-2.10 "This player chooses an island and places a Governor there on a Rice production
    // site, and places their Scavenger in this island's No man's land. Then each player in
    // clockwise order does the same on a different island." DAI-2.10 "+2 Influence per
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
    // DAI-2.10 "Starting with the 1st player, each player places a second Governor in any
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
    // DAI-3.4 "place it on a Main Action space on your Clan board that is the same color as the
    // die"; DAI-4.14 Tax: "Place a die of any color"; DAI-3.4 "You cannot place 2 dice on the same
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
    // DAI-4.14 "Place a die of any color on this action. Immediately gain 2 [Gold]".
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    turn(&mut s, 0);
    let a = die(&mut s, 0, 3, 5);
    act(&mut s, a, &mut c);
    assert_eq!(s.seats[0].res[3], 2);
    assert!(!legal(&s).contains(&plain(Kind::Main)));
}

// ---------------------------------------------------------------------------------------
// Main actions.

#[test]
fn rule_villagers_capucine_no_helmet_after_greg() {
    // DAI-4.1 the 4 steps in order; its example: "She increases her storage capacity by
    // 1, then she draws a Hero card, and then activates a villager tile to obtain 1 [?],
    // then flips it over. Because Greg has already taken this action this round, she does
    // not take the Mighty Helmet."
    let mut s = fresh(3, "nature,tech,nomad"); // Greg 0, Capucine 1, Jeremy 2
    let mut c = chance();
    s.villagers = 0; // all fronts up: tile 0 front = Gain 1 Metal or Crystal
    turn(&mut s, 0);
    let a = die(&mut s, 0, 2, 0);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    // Greg activates tile 1 (storage +1).
    act(&mut s, Action::new(Kind::Villager, 0, 1), &mut c);
    assert_eq!(s.helmet, 0);
    assert!(s.helmet_taken);
    s.helmet = 2; // say the Helmet is elsewhere now: Capucine still may not take it
    turn(&mut s, 1);
    let hand = s.seats[1].hand.count_ones();
    let a = die(&mut s, 0, 5, 0);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    assert_eq!(s.seats[1].storage, 4, "step 1: storage +1");
    assert_eq!(s.seats[1].hand.count_ones(), hand + 1, "step 2: draw 1");
    // Step 3: she activates tile 0 and takes 1 Metal.
    act(&mut s, Action::new(Kind::Villager, 0, 0), &mut c);
    act(
        &mut s,
        Action::new(Kind::Resource, 0, Resource::Metal as u8),
        &mut c,
    );
    assert_eq!(s.seats[1].res[1], 1);
    assert_eq!(s.villagers & 1, 1, "then flips it over");
    assert_eq!(s.helmet, 2, "step 4: not the first this round");
}

#[test]
fn rule_villagers_first_taker_takes_the_helmet_but_not_the_order() {
    // DAI-4.1 "If you are the first player this round to take a blue die, take the Mighty
    // Helmet. The turn order will not change until the next round."
    let mut s = fresh(3, "nature,tech,nomad");
    let mut c = chance();
    turn(&mut s, 1);
    s.first = 0;
    s.turn_index = 1;
    let a = die(&mut s, 0, 2, 0);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    if matches!(s.top(), Some(Frame::Eff { .. })) {
        act(&mut s, Action::new(Kind::Villager, 0, 1), &mut c);
    }
    assert_eq!(s.helmet, 1);
    assert_eq!(s.first, 0);
    while s.actor == 1 && s.phase == Phase::Turn {
        let l = legal(&s);
        let a = if l.contains(&plain(Kind::EndTurn)) {
            plain(Kind::EndTurn)
        } else {
            l[0]
        };
        act(&mut s, a, &mut c);
    }
    assert_eq!(s.actor, 2, "clockwise order continues");
}

#[test]
fn rule_production_governors_and_techno_farms() {
    // DAI-4.3 "Obtain the resource from each production site where you have a Governor
    // ... where you have a Techno-farm ... a Governor and a Techno-farm at the same
    // production location, you indeed obtain 2 ... An opponent's Governor or Techno-farm at
    // the same production site does not prevent you".
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.gov[BLUE as usize][0] = 0; // rice
    s.bld[BLUE as usize][0] = 0; // own farm, rice
    s.gov[BLUE as usize][2] = 1; // opponent governor on a metal site
    s.bld[BLUE as usize][2] = 0; // own farm there: metal
    s.gov[RED as usize][4] = 0; // crystal
    s.bld[RED as usize][3] = 1; // own Radio tower: nothing
    s.seats[0].governors = 2;
    s.seats[1].governors = 1;
    s.seats[0].built = [2, 1];
    turn(&mut s, 0);
    let a = die(&mut s, 1, 2, 1);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    assert_eq!(&s.seats[0].res[..3], &[2, 1, 1]);
    assert_eq!(s.seats[1].res, [0; 4]);
}

#[test]
fn rule_relic_capucine_search_and_black_market() {
    // DAI-4.4–4.5 and the example of DAI-4.4: she moves to the yellow No man's land and takes
    // a tile, draws a replacement; pays 1 to discard two tiles to the Black market and
    // draws two; spends 1 to buy a Black-market tile; moves to purple and takes a tile.
    let mut s = fresh(3, "nature,tech,nomad");
    let mut c = chance();
    let cap = 1;
    s.seats[cap].scavenger = BLUE;
    s.seats[cap].res = [0, 2, 0, 1]; // enough Metal for a second Search, which is refused
    s.nml[YELLOW as usize] = [kind(YELLOW, 0), kind(YELLOW, 1), kind(RED, 2), NONE];
    s.nml[PURPLE as usize] = [kind(PURPLE, 3), kind(GREEN, 0), kind(GREEN, 1), NONE];
    s.black_market = [0; 24];
    s.black_market[kind(BLUE, 2) as usize] = 1;
    turn(&mut s, cap);
    let a = die(&mut s, 1, 4, 2);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    // DAI-4.4: nothing before the first move: only destinations are offered.
    assert!(legal(&s).iter().all(|a| a.kind() == Kind::Island));
    assert!(
        !legal(&s).contains(&Action::new(Kind::Island, 0, BLUE)),
        "another island"
    );
    act(&mut s, Action::new(Kind::Island, 0, YELLOW), &mut c);
    act(&mut s, Action::new(Kind::Take, 0, 0), &mut c);
    assert!(s.seats[cap].loose & (1 << kind(YELLOW, 0)) != 0);
    assert!(
        s.nml[YELLOW as usize][0] != NONE,
        "a new tile drawn at once"
    );
    // Search: pay 1 Metal (the only affordable kind), discard slots 1 and 2.
    act(&mut s, plain(Kind::Search), &mut c);
    act(&mut s, Action::new(Kind::SearchTile, 0, 1), &mut c);
    act(&mut s, Action::new(Kind::SearchTile, 0, 2), &mut c);
    assert_eq!(s.seats[cap].res[1], 1);
    assert_eq!(s.black_market[kind(YELLOW, 1) as usize], 1);
    assert_eq!(s.black_market[kind(RED, 2) as usize], 1);
    assert!(s.nml[YELLOW as usize][..3].iter().all(|&k| k != NONE));
    // Once per No man's land: no second Search here.
    assert!(!legal(&s).contains(&plain(Kind::Search)));
    act(&mut s, Action::new(Kind::Shop, 0, kind(BLUE, 2)), &mut c);
    assert_eq!(s.seats[cap].res[3], 0);
    assert!(s.seats[cap].loose & (1 << kind(BLUE, 2)) != 0);
    // Taken, searched and shopped: the stop ends without asking (single option).
    assert_eq!(
        s.top().map(|f| matches!(
            f,
            Frame::Eff {
                sub: 0,
                done: 1,
                ..
            }
        )),
        Some(true)
    );
    act(&mut s, Action::new(Kind::Island, 0, PURPLE), &mut c);
    act(&mut s, Action::new(Kind::Take, 0, 0), &mut c);
    assert_eq!(s.seats[cap].loose.count_ones(), 3);
    assert!(s.seats[cap].loose & (1 << kind(PURPLE, 3)) != 0);
    assert_eq!(s.seats[cap].scavenger, PURPLE);
}

#[test]
fn rule_relic_no_second_copy_and_full_storage() {
    // DAI-4.5 "You cannot have 2 copies of the same Relic tile (same number and color)";
    // DAI-4.6 "If you are already at your storage capacity, you must first discard a Relic
    // tile to the Black market before taking the new tile."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[0].scavenger = BLUE;
    s.seats[0].loose = (1 << kind(RED, 0)) | (1 << kind(RED, 1)) | (1 << kind(YELLOW, 2));
    s.nml[RED as usize] = [kind(RED, 0), kind(RED, 3), kind(BLUE, 0), NONE];
    turn(&mut s, 0);
    let a = die(&mut s, 1, 4, 2);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, Action::new(Kind::Island, 0, RED), &mut c);
    let l = legal(&s);
    assert!(
        !l.contains(&Action::new(Kind::Take, 0, 0)),
        "a second red 1 is refused"
    );
    act(&mut s, Action::new(Kind::Take, 0, 2), &mut c);
    // Full (3/3): a loose tile goes to the Black market first.
    assert!(legal(&s).iter().all(|a| a.kind() == Kind::Relic));
    let bm = s.black_market[kind(YELLOW, 2) as usize];
    act(&mut s, Action::new(Kind::Relic, 0, kind(YELLOW, 2)), &mut c);
    assert_eq!(s.black_market[kind(YELLOW, 2) as usize], bm + 1);
    assert_eq!(s.storage_used(0), 3);
    assert!(s.seats[0].loose & (1 << kind(BLUE, 0)) != 0);
}

#[test]
fn rule_altar_capucine_restores_green_on_the_2_altar() {
    // DAI-4.7 and its example: "Capucine collects her final green Relic tile. She
    // stacks the 4 tiles ... places one of her Relic tokens on the green island. The 3
    // altar is already taken, so she places it on the 2 altar, and advances her disc 2
    // spaces on the green island's influence track."
    let mut s = fresh(3, "nature,tech,nomad");
    let mut c = chance();
    let cap = 1;
    s.altar[GREEN as usize][0] = 2; // the 3 altar, taken by Jeremy
    s.seats[cap].scavenger = BLUE;
    s.seats[cap].loose = (1 << kind(GREEN, 0)) | (1 << kind(GREEN, 1)) | (1 << kind(GREEN, 2));
    s.nml[GREEN as usize] = [kind(GREEN, 3), kind(RED, 0), kind(RED, 1), NONE];
    turn(&mut s, cap);
    let a = die(&mut s, 1, 4, 2);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, Action::new(Kind::Island, 0, GREEN), &mut c);
    // Storage 3/3: she must make room before taking the 4th piece (DAI-4.6).
    act(&mut s, Action::new(Kind::Take, 0, 0), &mut c);
    assert_eq!(s.seats[cap].restored[GREEN as usize], 0);
    act(&mut s, Action::new(Kind::Relic, 0, kind(GREEN, 0)), &mut c);
    assert_eq!(
        s.seats[cap].restored[GREEN as usize], 0,
        "the discarded piece breaks the set"
    );
    // Another try with room: storage 4.
    let mut s = fresh(3, "nature,tech,nomad");
    s.altar[GREEN as usize][0] = 2;
    s.seats[cap].storage = 4;
    s.seats[cap].scavenger = BLUE;
    s.seats[cap].loose = (1 << kind(GREEN, 0)) | (1 << kind(GREEN, 1)) | (1 << kind(GREEN, 2));
    s.nml[GREEN as usize] = [kind(GREEN, 3), kind(RED, 0), kind(RED, 1), NONE];
    turn(&mut s, cap);
    let a = die(&mut s, 1, 4, 2);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, Action::new(Kind::Island, 0, GREEN), &mut c);
    act(&mut s, Action::new(Kind::Take, 0, 0), &mut c);
    assert_eq!(s.seats[cap].restored[GREEN as usize], 1);
    assert_eq!(s.altar[GREEN as usize][1], cap as u8, "the 2 altar");
    assert_eq!(s.influence[GREEN as usize][cap], 2);
    assert_eq!(s.seats[cap].loose, 0);
    assert_eq!(
        s.storage_used(cap),
        1,
        "a restored Relic takes 1 space (L446)"
    );
}

#[test]
fn rule_recruitment_jeremy_two_governors_and_a_shadow() {
    // DAI-4.11 "Jeremy chooses the Recruitment action and recruits 2 Governors and 1 Shadow.
    // His 1st recruitment costs 2, his 2nd recruitment costs 3, and then he pays 2 to reset
    // his Recruitment track so his 3rd recruitment only costs 1. He places his 2 Governors
    // on the red island and increases his influence there by 4. He then places his Shadow
    // on the purple island on the 3 space. He receives 3 from the general supply and 1
    // influence; he eliminates a Governor belonging to Capucine, which makes her lose 2
    // influence there and gain 1 in compensation. Jeremy has taken the lead on this
    // island."
    let mut s = fresh(3, "nature,tech,nomad");
    let mut c = chance();
    let (cap, jer) = (1, 2);
    s.gov[PURPLE as usize][0] = cap as u8;
    s.seats[cap].governors = 1;
    s.influence[PURPLE as usize][cap] = 2;
    s.seats[jer].track = 1;
    s.seats[jer].res = [6, 0, 0, 2];
    turn(&mut s, jer);
    let a = die(&mut s, 2, 6, 3);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    // DAI-4.9: no reset before a recruit at 3.
    assert!(!legal(&s).contains(&plain(Kind::Reset)));
    act(&mut s, plain(Kind::RecruitGovernor), &mut c);
    act(&mut s, Action::new(Kind::Site, RED, 0), &mut c);
    assert_eq!(s.seats[jer].res[0], 4, "1st costs 2");
    // At the 3 space but not yet recruited there: still no reset.
    assert!(!legal(&s).contains(&plain(Kind::Reset)));
    act(&mut s, plain(Kind::RecruitGovernor), &mut c);
    act(&mut s, Action::new(Kind::Site, RED, 3), &mut c);
    assert_eq!(s.seats[jer].res[0], 1, "2nd costs 3");
    assert_eq!(s.influence[RED as usize][jer], 4);
    act(&mut s, plain(Kind::Reset), &mut c);
    assert_eq!(s.seats[jer].res[3], 0, "the reset costs 2 Gold");
    act(&mut s, plain(Kind::RecruitShadow), &mut c);
    act(&mut s, Action::new(Kind::Shadow, PURPLE, 2), &mut c);
    assert_eq!(s.seats[jer].res[0], 0, "3rd costs 1");
    assert_eq!(s.seats[jer].res[3], 3, "the 3 space gives 3 Gold");
    assert_eq!(s.influence[PURPLE as usize][jer], 1);
    assert_eq!(
        s.gov[PURPLE as usize][0], NONE,
        "Capucine's Governor is eliminated"
    );
    assert_eq!(s.seats[cap].governors, 0, "it returns to her supply");
    assert_eq!(s.influence[PURPLE as usize][cap], 0);
    assert_eq!(s.seats[cap].res[0], 1, "compensation: 1 Rice (DAI-14)");
    assert!(s.influence[PURPLE as usize][jer] > s.influence[PURPLE as usize][cap]);
    assert_eq!(s.seats[jer].assassinations, 1);
}

#[test]
fn rule_recruitment_track_stays_on_3_until_reset() {
    // DAI-4.9 "If you do not wish to pay the 2, your disc stays on the 3 space of the track,
    // and further recruitments will cost you 3"; DAI-4.9 "You can choose: Continue to
    // pay 3 Rice".
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[0].track = 2;
    s.seats[0].res = [9, 0, 0, 0];
    turn(&mut s, 0);
    let a = die(&mut s, 2, 1, 3);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    for (i, want) in [(0, 6), (1, 3), (2, 0)] {
        act(&mut s, plain(Kind::RecruitGovernor), &mut c);
        act(&mut s, Action::new(Kind::Site, BLUE, i), &mut c);
        assert_eq!(s.seats[0].res[0], want);
    }
    assert!(s.seats[0].at_max);
}

#[test]
fn rule_recruitment_only_three_shadows_per_game() {
    // DAI-4.11 "Attention: You can only recruit 3 Shadows per game. You can neither move nor
    // retrieve them."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[0].shadows = 3;
    s.seats[0].res = [9, 0, 0, 9];
    turn(&mut s, 0);
    let a = die(&mut s, 2, 1, 3);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    assert!(!legal(&s).contains(&plain(Kind::RecruitShadow)));
    assert!(legal(&s).contains(&plain(Kind::RecruitGovernor)));
}

#[test]
fn rule_shadow_kills_only_enemy_governors() {
    // DAI-4.11 "Can a Shadow kill a Scavenger or another Shadow? No, Shadows only
    // assassinate enemy Governors." With none there, nothing is eliminated (DAI-14).
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[1].scavenger = BLUE;
    s.shadow[BLUE as usize][0] = 1;
    s.seats[1].shadows = 1;
    s.gov[BLUE as usize][1] = 0; // own Governor: not a victim
    s.seats[0].governors = 1;
    s.seats[0].res = [3, 0, 0, 0];
    turn(&mut s, 0);
    let a = die(&mut s, 2, 1, 3);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, plain(Kind::RecruitShadow), &mut c);
    act(&mut s, Action::new(Kind::Shadow, BLUE, 1), &mut c);
    assert_eq!(s.seats[1].scavenger, BLUE);
    assert_eq!(s.shadow[BLUE as usize][0], 1);
    assert_eq!(s.gov[BLUE as usize][1], 0);
    assert_eq!(s.seats[0].assassinations, 0);
}

#[test]
fn rule_shadow_attacker_chooses_the_victim() {
    // DAI-4.11 "Eliminate 1 enemy Governor from this island" (DAI-14 attacker_chooses).
    let mut s = fresh(3, "nature,tech,nomad");
    let mut c = chance();
    s.gov[RED as usize][0] = 1;
    s.gov[RED as usize][3] = 2;
    s.seats[1].governors = 1;
    s.seats[2].governors = 1;
    s.influence[RED as usize] = [0, 2, 2, 0];
    s.seats[0].res = [3, 0, 0, 0];
    turn(&mut s, 0);
    let a = die(&mut s, 2, 1, 3);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, plain(Kind::RecruitShadow), &mut c);
    act(&mut s, Action::new(Kind::Shadow, RED, 0), &mut c);
    assert_eq!(
        legal(&s),
        vec![
            Action::new(Kind::Victim, 0, 0),
            Action::new(Kind::Victim, 0, 3)
        ]
    );
    act(&mut s, Action::new(Kind::Victim, 0, 3), &mut c);
    assert_eq!(s.gov[RED as usize], [1, NONE, NONE, NONE, NONE, NONE]);
    assert_eq!(s.influence[RED as usize][..3], [1, 2, 0]);
}

#[test]
fn rule_construction_greg_techno_farm_with_surcharge_2() {
    // DAI-4.15 "Greg ... constructs 1 Techno-farm: He pays its basic cost of 2 and 1 + its 2
    // surcharge because he had already built 2 Techno-farms on earlier turns. He places his
    // Techno-farm on a Metal production site and collects 1. Then he places the newly
    // exposed Bonus Action tile on his Clan ability. ... His next Techno-farm will have a
    // basic cost of 2 and 1 + a surcharge of 3."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[0].built = [2, 0];
    s.bld[YELLOW as usize][0] = 0;
    s.bld[YELLOW as usize][1] = 0;
    s.seats[0].res = [0, 4, 1, 0];
    turn(&mut s, 0);
    let a = die(&mut s, 2, 3, 4);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    assert_eq!(
        legal(&s),
        vec![plain(Kind::Done), Action::new(Kind::Build, 0, 0)]
    );
    act(&mut s, Action::new(Kind::Build, 0, 0), &mut c);
    act(&mut s, Action::new(Kind::Lot, BLUE, 2), &mut c); // a Metal site
    assert_eq!(
        s.seats[0].res,
        [0, 1, 0, 0],
        "paid 2+2 Metal and 1 Crystal, collected 1 Metal"
    );
    // The 3rd Techno-farm uncovers the construct-discount tile (grey): 6 grey spaces.
    let places = legal(&s);
    assert_eq!(places.len(), 6);
    act(&mut s, Action::new(Kind::Place, 0, 5), &mut c);
    let d = &s.rules().get().data().data;
    assert_eq!(
        d.tiles[s.seats[0].tiles[5] as usize - 1].id,
        "construct_discount"
    );
    // Next Techno-farm: 2 + 3 Metal, 1 Crystal.
    assert_eq!(s.build_cost(0, 0, false, 0, None), [0, 5, 1, 0]);
}

#[test]
fn rule_construction_radio_tower_influence_and_several_buildings() {
    // DAI-4.13 "Immediately gain 2 Influence on the island where you place it"; DAI-4.12 "You can
    // construct as many Buildings as you wish with a single action"; DAI-4.13 a resource
    // from a Techno-farm pays the next building.
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[0].res = [0, 3, 3, 0]; // farm: 2M 1C; then tower: 2C 1M
    turn(&mut s, 0);
    let a = die(&mut s, 2, 3, 4);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, Action::new(Kind::Build, 0, 1), &mut c);
    act(&mut s, Action::new(Kind::Lot, RED, 0), &mut c);
    assert_eq!(s.influence[RED as usize][0], 2);
    act(&mut s, Action::new(Kind::Place, 0, 3), &mut c);
    assert_eq!(s.seats[0].res, [0, 2, 1, 0]);
    act(&mut s, Action::new(Kind::Build, 0, 0), &mut c);
    act(&mut s, Action::new(Kind::Lot, BLUE, 4), &mut c); // crystal site
    assert_eq!(s.seats[0].res, [0, 0, 1, 0]);
    // The 1st Techno-farm's tile: Gain 2 Rice (grey).
    act(&mut s, Action::new(Kind::Place, 0, 1), &mut c);
    assert_eq!(s.seats[0].built, [1, 1]);
}

// ---------------------------------------------------------------------------------------
// Bonus actions.

#[test]
fn rule_bonus_capucine_clan_ability_discard_and_hero_10() {
    // DAI-5.6: "The sum of her dice is at least 13 (6 + 5 + 3 = 14), so she can trigger
    // her Clan ability and the Bonus Action tile associated with it: She increases her
    // storage capacity by 1, draws a Hero card, and finally collects 2 thanks to the Bonus
    // Action tile. Then she performs her main action ... Finally, she discards 1 card from
    // her hand to decrease her [5] to a [4]; by adding that to her [6], this allows her to
    // play her Hero card with a strength of 10. She activates its effect, placing one of her
    // Relic tiles in the Black market, then collecting 2 Relic tiles of her choice from the
    // board."
    let mut s = fresh(2, "tech,nature");
    let mut c = chance();
    let cap = 0;
    let h19 = hero(&s, "H19");
    let h01 = hero(&s, "H01");
    s.seats[cap].tiles[5] = tile_code(&s, "gain_2_metal");
    s.seats[cap].hand = (1 << h19) | (1 << h01);
    s.seats[cap].storage = 5;
    s.seats[cap].loose = 1 << kind(RED, 3);
    s.gov[BLUE as usize][0] = cap as u8; // a Governor on a Rice site
    s.seats[cap].governors = 1;
    board_die(&mut s, cap, 0, 6, 0);
    board_die(&mut s, cap, 2, 5, 3);
    turn(&mut s, cap);
    let a = die(&mut s, 1, 3, 1);
    act(&mut s, a, &mut c);
    assert_eq!(s.dice_sum(cap), 14);
    let l = legal(&s);
    assert!(l.contains(&plain(Kind::Ability)) && l.contains(&Action::new(Kind::Tile, 0, 5)));
    assert!(
        !l.contains(&Action::byte(Kind::PlayHero, h19 as u8)),
        "no subset sums to 10 yet"
    );
    let hand = s.seats[cap].hand.count_ones();
    act(&mut s, plain(Kind::Ability), &mut c);
    assert_eq!(s.seats[cap].storage, 6);
    assert_eq!(s.seats[cap].hand.count_ones(), hand + 1);
    act(&mut s, Action::new(Kind::Tile, 0, 5), &mut c);
    assert_eq!(s.seats[cap].res[1], 2);
    act(&mut s, plain(Kind::Main), &mut c);
    assert_eq!(s.seats[cap].res[0], 1, "Production with her Governor");
    // Discard H01 to turn the 5 into a 4.
    act(&mut s, plain(Kind::Discard), &mut c);
    act(&mut s, Action::byte(Kind::Card, h01 as u8), &mut c);
    act(&mut s, Action::new(Kind::Shift, 3, 0), &mut c);
    assert!(s.seats[cap].discard & (1 << h01) != 0);
    act(&mut s, Action::byte(Kind::PlayHero, h19 as u8), &mut c);
    // H19: one of her tiles to the Black market (only one: no choice), then 2 of her choice.
    assert_eq!(s.seats[cap].loose, 0);
    assert!(
        s.seats[cap].discard & (1 << h19) == 0,
        "not in the discard while resolving"
    );
    let picks: Vec<Action> = legal(&s)
        .into_iter()
        .filter(|a| a.kind() == Kind::Pick)
        .collect();
    assert!(picks.len() >= 6);
    act(&mut s, picks[0], &mut c);
    let picks: Vec<Action> = legal(&s)
        .into_iter()
        .filter(|a| a.kind() == Kind::Pick)
        .collect();
    act(&mut s, picks[picks.len() - 1], &mut c);
    assert_eq!(s.seats[cap].loose.count_ones(), 2);
    assert!(
        s.seats[cap].discard & (1 << h19) != 0,
        "discarded after its effect"
    );
    // DAI-5.2 one Hero per turn; DAI-5.1 each bonus action once per turn.
    let l = legal(&s);
    assert!(
        !l.iter()
            .any(|a| matches!(a.kind(), Kind::PlayHero | Kind::Ability | Kind::Tile))
    );
}

#[test]
fn rule_bonus_greg_production_then_construct_tile() {
    // DAI-5.5 "Greg places his die on the Production main action. First, he collects ...
    // Then he decides to activate his Bonus Action tile that allows him to construct a
    // building for 1 [Metal] or 1 [Crystal] less."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[0].tiles[1] = tile_code(&s, "construct_discount");
    s.gov[BLUE as usize][2] = 0; // Metal
    s.seats[0].governors = 1;
    s.seats[0].res = [0, 1, 1, 0];
    turn(&mut s, 0);
    let a = die(&mut s, 1, 2, 1);
    act(&mut s, a, &mut c);
    assert!(legal(&s).contains(&Action::new(Kind::Tile, 0, 1)));
    act(&mut s, plain(Kind::Main), &mut c);
    assert_eq!(s.seats[0].res, [0, 2, 1, 0]);
    act(&mut s, Action::new(Kind::Tile, 0, 1), &mut c);
    // A Techno-farm costs 2 Metal + 1 Crystal; a Radio tower 2 Crystal + 1 Metal, which
    // only the discount (1 Crystal less) makes affordable.
    assert_eq!(
        legal(&s),
        vec![
            Action::new(Kind::Build, 0, 0),
            Action::new(Kind::Build, 0, 1)
        ]
    );
    act(&mut s, Action::new(Kind::Build, 0, 0), &mut c);
    act(
        &mut s,
        Action::new(Kind::Resource, 0, Resource::Crystal as u8),
        &mut c,
    );
    act(&mut s, Action::new(Kind::Lot, RED, 0), &mut c);
    assert_eq!(
        s.seats[0].res,
        [1, 0, 1, 0],
        "paid 2 Metal, collected 1 Rice"
    );
    assert_eq!(s.seats[0].built, [1, 0]);
}

#[test]
fn rule_discard_shift_stays_within_1_to_6() {
    // DAI-5.3 "discard 1 or more cards from your hand to increase or decrease a die on
    // your board by 1 per card discarded ... You cannot decrease below 1 or increase above
    // 6."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    turn(&mut s, 0);
    let a = die(&mut s, 2, 6, 3);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Discard), &mut c);
    let card = bits_first(s.seats[0].hand);
    act(&mut s, Action::byte(Kind::Card, card), &mut c);
    // Only one option (-1): applied without asking.
    let d = s.seats[0].board[3] as usize - 1;
    assert_eq!(s.die_value[d], 5);
}

fn bits_first(m: u64) -> u8 {
    m.trailing_zeros() as u8
}

#[test]
fn rule_hero_strength_is_an_exact_subset_sum() {
    // DAI-5.2 "You can play a card if you have one or more dice whose total is exactly the
    // same as the strength of this card."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    let (h02, h05, h04) = (hero(&s, "H02"), hero(&s, "H05"), hero(&s, "H04"));
    s.seats[0].hand = (1 << h02) | (1 << h05) | (1 << h04); // strengths 3, 6, 5
    board_die(&mut s, 0, 0, 2, 0);
    turn(&mut s, 0);
    let a = die(&mut s, 1, 4, 1);
    act(&mut s, a, &mut c);
    let l = legal(&s);
    assert!(
        l.contains(&Action::byte(Kind::PlayHero, h05 as u8)),
        "2 + 4 = 6"
    );
    assert!(
        !l.contains(&Action::byte(Kind::PlayHero, h02 as u8)),
        "no subset sums to 3"
    );
    assert!(
        !l.contains(&Action::byte(Kind::PlayHero, h04 as u8)),
        "no subset sums to 5"
    );
}

#[test]
fn rule_hero_draw_with_empty_deck_and_discard_draws_nothing() {
    // DAI-5.2 "If both my deck and my discard are empty, and I play a Hero who makes
    // me draw ... your Hero card is not yet in the discard, so you simply draw nothing."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    let h05 = hero(&s, "H05"); // Draw 2, strength 6
    s.seats[0].hand = 1 << h05;
    s.seats[0].deck = 0;
    s.seats[0].discard = 0;
    turn(&mut s, 0);
    let a = die(&mut s, 0, 6, 5);
    act(&mut s, a, &mut c);
    act(&mut s, Action::byte(Kind::PlayHero, h05 as u8), &mut c);
    assert_eq!(s.seats[0].hand, 0);
    assert_eq!(s.seats[0].discard, 1 << h05);
}

#[test]
fn rule_hero_deck_refilled_from_discard() {
    // DAI-4.1 "If your deck is empty, shuffle the cards from your discard to form a new deck."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    let (h01, h02) = (hero(&s, "H01"), hero(&s, "H02"));
    s.seats[0].hand = 0;
    s.seats[0].deck = 0;
    s.seats[0].discard = (1 << h01) | (1 << h02);
    turn(&mut s, 0);
    let a = die(&mut s, 0, 1, 0);
    act(&mut s, a, &mut c); // the main action is the only option: resolved at once
    assert_eq!(s.seats[0].hand.count_ones(), 1);
    assert_eq!(s.seats[0].deck.count_ones(), 1);
    assert_eq!(s.seats[0].discard, 0);
}

#[test]
fn rule_clan_ability_needs_a_sum_of_13() {
    // DAI-5.4 "You can activate your Clan ability if the sum of the dice on your Clan board is
    // at least 13."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    board_die(&mut s, 0, 0, 6, 0);
    board_die(&mut s, 0, 2, 4, 3);
    turn(&mut s, 0);
    let a = die(&mut s, 1, 2, 1);
    act(&mut s, a, &mut c);
    assert_eq!(s.dice_sum(0), 12);
    assert!(!legal(&s).contains(&plain(Kind::Ability)));
    // Nature (DAI-5.4; DAI-30: two of a kind allowed): 2 resources of her choice.
    let d = s.seats[0].board[1] as usize - 1;
    s.die_value[d] = 3;
    assert!(legal(&s).contains(&plain(Kind::Ability)));
    act(&mut s, plain(Kind::Ability), &mut c);
    act(&mut s, Action::new(Kind::Resource, 0, 0), &mut c);
    act(&mut s, Action::new(Kind::Resource, 0, 0), &mut c);
    assert_eq!(s.seats[0].res[0], 2);
}

#[test]
fn rule_storage_beyond_9_gives_popularity() {
    // DAI-4.6 "If you have reached your maximum capacity (9), gain 1 popularity point for each
    // further increase"; DAI-07 "the +2 tile at 8 gives 9 and 1 PP".
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[0].tiles[0] = tile_code(&s, "storage_2");
    s.seats[0].storage = 8;
    turn(&mut s, 0);
    let a = die(&mut s, 0, 1, 0);
    act(&mut s, a, &mut c);
    act(&mut s, Action::new(Kind::Tile, 0, 0), &mut c);
    assert_eq!((s.seats[0].storage, s.seats[0].popularity), (9, 1));
}

// ---------------------------------------------------------------------------------------
// End of the round and final scoring.

/// A 3- or 4-player state at the end of round `round` with the given influence on blue.
fn scoring(players: usize, round: u8, blue: [i16; 4], shadows: &[(usize, u8)]) -> State {
    let mut s = fresh(
        players,
        [
            "nature,tech",
            "nature,tech,nomad",
            "nature,tech,nomad,noble",
        ][players - 2],
    );
    s.round = round;
    s.influence[BLUE as usize] = blue;
    for (i, &(sp, p)) in shadows.iter().enumerate() {
        let _ = i;
        s.shadow[BLUE as usize][sp] = p;
    }
    for p in 0..4 {
        s.seats[p].popularity = 0;
        s.seats[p].pp = [0; source::COUNT];
    }
    s.end_round();
    s
}

fn pp(s: &State) -> Vec<i16> {
    (0..s.rules().players())
        .map(|p| s.seats[p].pp[source::INFLUENCE])
        .collect()
}

#[test]
fn rule_round_influence_gold_and_silver() {
    // DAI-6.3 "The player with the most influence on the island earns the popularity
    // points depicted on the gold standard ... 2nd most ... silver" (DAI-05 round 1: 2/1).
    let s = scoring(3, 1, [5, 3, 1, 0], &[]);
    assert_eq!(pp(&s), vec![2, 1, 0]);
    // Round 5: 4/2.
    let s = scoring(3, 5, [5, 3, 1, 0], &[]);
    assert_eq!(pp(&s), vec![4, 2, 0]);
    // DAI-05 rank_min_influence = 1: nobody at 0 ranks.
    let s = scoring(3, 1, [5, 0, 0, 0], &[]);
    assert_eq!(pp(&s), vec![2, 0, 0]);
}

#[test]
fn rule_round_ties_break_on_shadows_then_split() {
    // DAI-6.3 "Break ties with shadows. The tied player with more shadows on the island wins
    // the tie."
    let s = scoring(3, 1, [4, 4, 1, 0], &[(0, 1)]);
    assert_eq!(pp(&s), vec![1, 2, 0]);
    // DAI-6.3 "If the players are tied for 1st place, add the points on the two standards,
    // then divide them amongst the tied players, rounding down. There will be no 2nd
    // place." Round 4: (3 + 2) / 2 = 2 each; the third gets nothing.
    let s = scoring(3, 4, [4, 4, 1, 0], &[]);
    assert_eq!(pp(&s), vec![2, 2, 0]);
    // DAI-6.3 "If the players are tied for 2nd place, divide the points indicated on the
    // silver standard amongst the tied players, rounding down." Round 4: silver 2 / 2.
    let s = scoring(3, 4, [6, 2, 2, 0], &[]);
    assert_eq!(pp(&s), vec![3, 1, 1]);
    // DAI-24: three tied for 1st at 4 players: (3 + 2) / 3 = 1 each.
    let s = scoring(4, 4, [3, 3, 3, 1], &[]);
    assert_eq!(pp(&s), vec![1, 1, 1, 0]);
    // Round 1 tie for 2nd among 3: 1 / 3 = 0.
    let s = scoring(4, 1, [5, 2, 2, 2], &[]);
    assert_eq!(pp(&s), vec![2, 0, 0, 0]);
}

#[test]
fn rule_round_end_revenue_helmet_hiring_draw() {
    // DAI-6.4 revenue: 1 resource of your choice + 1 Gold + yellow tiles; DAI-6.5 the Helmet
    // holder gives it or keeps it; DAI-6.6 hiring in Helmet order, the slot refilled from
    // the visible top card, then everyone draws 1.
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[1].tiles[6] = tile_code(&s, "revenue_metal_crystal");
    s.first = 0;
    s.helmet = 0;
    s.end_round();
    assert_eq!(s.phase, Phase::Revenue { k: 0 });
    act(&mut s, Action::new(Kind::Resource, 0, 0), &mut c);
    assert_eq!(s.seats[0].res, [1, 0, 0, 1]);
    act(&mut s, Action::new(Kind::Resource, 0, 2), &mut c);
    assert_eq!(
        s.seats[1].res,
        [0, 1, 2, 1],
        "crystal + gold + the yellow tile"
    );
    assert_eq!((s.phase, s.actor), (Phase::Helmet, 0));
    // Seat 1 will hire a Hero in a slot it can afford.
    s.seats[1].res[3] = 9;
    act(&mut s, Action::new(Kind::Give, 0, 1), &mut c);
    assert_eq!((s.helmet, s.phase, s.actor), (1, Phase::Hire { k: 0 }, 1));
    let top = s.top;
    let slot = legal(&s)
        .iter()
        .find(|a| a.kind() == Kind::Hire)
        .copied()
        .unwrap();
    let card = s.market[slot.b() as usize];
    let hand = s.seats[1].hand.count_ones();
    act(&mut s, slot, &mut c);
    assert!(s.seats[1].hand & (1 << card) != 0);
    assert_eq!(
        s.market[slot.b() as usize],
        top,
        "the visible top card fills the slot"
    );
    assert_ne!(s.top, top);
    assert_eq!(s.seats[1].heroes_hired, 1);
    act(&mut s, plain(Kind::Done), &mut c);
    let hand0 = s.seats[0].hand.count_ones();
    if s.phase == (Phase::Hire { k: 1 }) {
        assert_eq!(s.actor, 0, "hiring in Helmet order");
        act(&mut s, plain(Kind::Done), &mut c);
    }
    assert_eq!(s.round, 2);
    assert_eq!(s.phase, Phase::PickDie);
    assert_eq!(s.first, 1, "the new holder starts (L678)");
    assert_eq!(s.seats[1].hand.count_ones(), hand + 2);
    assert!(s.seats[0].hand.count_ones() >= hand0.min(3));
}

#[test]
fn rule_round_5_ends_after_revenue() {
    // DAI-6.5, DAI-6.6 skip the 1st player and hiring in round 5; DAI-7.1 "The game ends after
    // Revenue of the 5th round."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.round = 5;
    s.end_round();
    act(&mut s, Action::new(Kind::Resource, 0, 0), &mut c);
    act(&mut s, Action::new(Kind::Resource, 0, 0), &mut c);
    assert!(s.turn().is_terminal());
    assert_eq!(s.end_condition(), "rounds_done");
}

fn final_state(players: usize) -> State {
    let mut s = fresh(
        players,
        [
            "nature,tech",
            "nature,tech,nomad",
            "nature,tech,nomad,noble",
        ][players - 2],
    );
    for p in 0..players {
        s.seats[p].popularity = 0;
        s.seats[p].pp = [0; source::COUNT];
        s.seats[p].hand = 0;
        s.seats[p].deck = 0;
        s.seats[p].discard = 0;
    }
    s
}

fn heroes_of_cost(s: &State, costs: &[u8]) -> u64 {
    let d = &s.rules().get().data().data;
    let mut used = 0u64;
    for &c in costs {
        let h = (0..d.heroes.len())
            .find(|&h| d.heroes[h].cost == c && !d.heroes[h].clan && used & (1 << h) == 0)
            .unwrap();
        used |= 1 << h;
    }
    used
}

#[test]
fn rule_final_relics_buildings_helmet_resources() {
    // DAI-7.2 relics 1..6 -> 3/7/12/18/25/33; DAI-7.3 Techno-farm 1/4/8/13, Radio
    // tower 1/2/4/7; DAI-7.5 Mighty Helmet +2; DAI-7.5 1 PP per 5 leftover non-Gold resources.
    let mut s = final_state(2);
    s.seats[0].restored = [1, 1, 1, 0, 0, 0];
    s.seats[0].built = [4, 2];
    s.seats[0].res = [4, 3, 2, 7];
    s.seats[1].restored = [0, 0, 2, 3, 0, 0];
    s.seats[1].built = [1, 4];
    s.seats[1].res = [0, 0, 4, 0];
    s.helmet = 1;
    s.final_scoring();
    let p0 = s.seats[0].pp;
    let p1 = s.seats[1].pp;
    assert_eq!((p0[source::RELICS], p1[source::RELICS]), (12, 25));
    assert_eq!(
        (p0[source::BUILDINGS], p1[source::BUILDINGS]),
        (13 + 2, 1 + 7)
    );
    assert_eq!((p0[source::HELMET], p1[source::HELMET]), (0, 2));
    assert_eq!((p0[source::RESOURCES], p1[source::RESOURCES]), (1, 0));
}

#[test]
fn rule_final_army_jeremy_30_against_capucine_30() {
    // DAI-7.4 "In a 2-player game, Jérémy has [Heroes] ... an army of value 27. He adds
    // his remaining 3 [Gold] to this for a total of 30. Capucine also has a total of 30,
    // but only 2 value-5 Heroes. So Jérémy earns 10 Popularity points, and Capucine gains
    // 2 Popularity points."
    let mut s = final_state(2);
    s.seats[0].hand = heroes_of_cost(&s, &[5, 5, 5, 4, 4, 4]);
    s.seats[0].res[3] = 3;
    s.seats[1].deck = heroes_of_cost(&s, &[5, 5, 4, 4, 4, 4]);
    s.seats[1].res[3] = 4;
    assert_eq!((s.army(0), s.army(1)), (30, 30));
    s.final_scoring();
    assert_eq!(
        (s.seats[0].pp[source::ARMY], s.seats[1].pp[source::ARMY]),
        (10, 2)
    );
}

#[test]
fn rule_final_army_fewer_heroes_then_split() {
    // DAI-7.4 "If there is a tie, the tied player with fewer Heroes is considered to have the
    // more valuable army." 3-4 players: 10 / 5 / 2.
    let mut s = final_state(3);
    s.seats[0].hand = heroes_of_cost(&s, &[1, 1, 1, 1, 1]);
    s.seats[1].hand = heroes_of_cost(&s, &[5]);
    s.seats[2].hand = heroes_of_cost(&s, &[2]);
    s.final_scoring();
    let army: Vec<i16> = (0..3).map(|p| s.seats[p].pp[source::ARMY]).collect();
    assert_eq!(army, vec![5, 10, 2]);
    // DAI-25 split: two identical armies tied for 1st share (10 + 5) / 2 = 7.
    let mut s = final_state(3);
    s.seats[0].res[3] = 5;
    s.seats[1].res[3] = 5;
    s.seats[2].res[3] = 1;
    s.final_scoring();
    let army: Vec<i16> = (0..3).map(|p| s.seats[p].pp[source::ARMY]).collect();
    assert_eq!(army, vec![7, 7, 2]);
}

#[test]
fn rule_final_winner_tie_break_on_leftover_resources() {
    // DAI-7.6 "If there is a tie for most, the tied player with the most resources
    // remaining (excluding Gold coins) is declared the victor. If the tie persists, the
    // tied players must share the empire."
    let mut s = final_state(2);
    s.seats[0].popularity = 20;
    s.seats[1].popularity = 20;
    s.seats[0].res = [1, 1, 1, 9];
    s.seats[1].res = [2, 1, 1, 0];
    assert_eq!(&s.ranks()[..2], &[2, 1]);
    s.seats[1].res = [1, 1, 1, 0];
    assert_eq!(&s.ranks()[..2], &[1, 1]);
}

// ---------------------------------------------------------------------------------------
// Data file and parameters.

#[test]
fn data_builtin_parses_and_holds_the_gaps_defaults() {
    let d = Data::builtin();
    assert_eq!(d.islands.len(), 6);
    assert_eq!(d.heroes.iter().filter(|h| !h.clan).count(), 40);
    assert_eq!(d.heroes.iter().filter(|h| h.clan).count(), 12);
    assert_eq!(d.clans.len(), 4);
    assert_eq!(d.recruit_track, vec![1, 2, 3]);
    assert_eq!(d.storage, (3, 9));
    assert_eq!(d.round_pp, vec![(2, 1), (2, 1), (3, 1), (3, 2), (4, 2)]);
    assert_eq!((d.governors, d.shadows, d.relic_tokens), (8, 3, 6));
    assert_eq!((d.buildings[0].count, d.buildings[1].count), (4, 4));
    let h19 = d.heroes.iter().find(|h| h.id == "H19").unwrap();
    assert_eq!((h19.cost, h19.strength), (3, 10));
}

fn bad(edit: impl Fn(String) -> String) -> String {
    let text = edit(super::data::BUILTIN.to_string());
    Data::parse(&text, "bad.toml").unwrap_err().to_string()
}

#[test]
fn data_errors_name_the_file_the_entry_and_the_field() {
    let e = bad(|t| t.replacen("strength = 10", "strength = 0", 1));
    assert!(
        e.contains("data file 'bad.toml'") && e.contains("hero 'H19'") && e.contains("'strength'"),
        "{e}"
    );
    let e = bad(|t| {
        t.replacen(
            "\"rice\", \"rice\", \"metal\", \"metal\", \"crystal\"",
            "\"rice\", \"ric\"",
            1,
        )
    });
    assert!(
        e.contains("island 1 'blue'")
            && e.contains("'sites'")
            && e.contains("unknown resource 'ric'"),
        "{e}"
    );
    let e = bad(|t| {
        t.replacen(
            "op = \"gain\", rice = 2 }]\n\n[[hero]]",
            "op = \"gian\", rice = 2 }]\n\n[[hero]]",
            1,
        )
    });
    assert!(
        e.contains("hero 'H01'") && e.contains("effect[1].op") && e.contains("unknown op 'gian'"),
        "{e}"
    );
    let e = bad(|t| {
        t.replacen(
            "heroes = [\"NA3\", \"NA6\", \"NA9\"]",
            "heroes = [\"NA3\", \"XX\"]",
            1,
        )
    });
    assert!(
        e.contains("clan 'nature'") && e.contains("unknown hero 'XX'"),
        "{e}"
    );
    let e = bad(|t| t.replacen("count = 5\npopularity", "count = 4\npopularity", 1));
    assert!(
        e.contains("rounds") && e.contains("5 entries for 4 rounds"),
        "{e}"
    );
    let e = bad(|t| t.replacen("cost = 1\n", "cost = \"one\"\n", 1));
    assert!(
        e.contains("data file 'bad.toml'") && e.contains("line"),
        "{e}"
    );
    let e = bad(|t| t.replacen("[limits]\n", "[limits]\nwizards = 2\n", 1));
    assert!(e.contains("unknown field") && e.contains("wizards"), "{e}");
    let e = bad(|t| {
        t.replacen(
            "islands = [\"blue\", \"red\", \"yellow\", \"purple\"]",
            "islands = [\"blue\", \"mauve\"]",
            1,
        )
    });
    assert!(
        e.contains("players.2") && e.contains("unknown island 'mauve'"),
        "{e}"
    );
}

#[test]
fn data_file_parameter_loads_a_users_file_and_changes_the_game() {
    // `--variant data=path.toml`: here a Tax worth 3 Gold.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.toml");
    let text = super::data::BUILTIN.replacen(
        "tax = [{ op = \"gain\", gold = 2 }]",
        "tax = [{ op = \"gain\", gold = 3 }]",
        1,
    );
    std::fs::write(&path, text).unwrap();
    let p = params(&[&format!("data={}", path.display()), "clans=nature,tech"]);
    let r = rules::<State>(&p, 2).unwrap();
    let mut c = chance();
    let mut s = State::new_game(r, &mut c);
    let mut buf = Vec::new();
    while matches!(s.phase, Phase::SetupGovernor { .. }) {
        s.legal_actions(s.actor as usize, &mut buf);
        let a = buf[0];
        act(&mut s, a, &mut c);
    }
    let gold = s.seats[0].res[3];
    turn(&mut s, 0);
    let a = die(&mut s, 0, 3, 5);
    act(&mut s, a, &mut c);
    assert_eq!(s.seats[0].res[3], gold + 3);
    // A malformed user file is a parameter error naming it.
    std::fs::write(&path, "island = 3\n").unwrap();
    let p = params(&[&format!("data={}", path.display())]);
    let e = rules::<State>(&p, 2).unwrap_err().to_string();
    assert!(
        e.contains("parameter 'data'") && e.contains("mine.toml"),
        "{e}"
    );
}

/// DAI-31: clans are dealt at random, or fixed per seat with
/// `clan_assignment=fixed` and `clans`; each without the other is bad input.
#[test]
fn rule_dai31_clan_assignment() {
    let fixed = rules::<State>(&params(&["clan_assignment=fixed", "clans=tech,noble"]), 2).unwrap();
    let s = State::new_game(fixed, &mut chance());
    let mut labels = crate::game::Labels::default();
    s.labels(&mut labels);
    assert_eq!([labels.seat[0][0], labels.seat[1][0]], ["tech", "noble"]);
    let e = rules::<State>(&params(&["clan_assignment=fixed"]), 2)
        .unwrap_err()
        .to_string();
    assert!(e.contains("clan_assignment = fixed needs clans"), "{e}");
    let e = rules::<State>(&params(&["clan_assignment=random", "clans=tech,noble"]), 2)
        .unwrap_err()
        .to_string();
    assert!(e.contains("set clan_assignment=fixed"), "{e}");
    assert!(rules::<State>(&params(&["clan_assignment=random"]), 2).is_ok());
}

#[test]
fn params_are_checked_with_the_player_count() {
    let e = rules::<State>(&params(&["clans=nature,tech,nomad"]), 2)
        .unwrap_err()
        .to_string();
    assert!(e.contains("3 clans for 2 players"), "{e}");
    let e = rules::<State>(&params(&["clans=nature,ninja"]), 2)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("unknown clan 'ninja'") && e.contains("nature, tech, nomad, noble"),
        "{e}"
    );
    let e = rules::<State>(&params(&["clans=nature,nature"]), 2)
        .unwrap_err()
        .to_string();
    assert!(e.contains("listed twice"), "{e}");
    let e = rules::<State>(&params(&["first_player=3"]), 3)
        .unwrap_err()
        .to_string();
    assert!(e.contains("first_player = 3"), "{e}");
    let e = rules::<State>(&params(&["yellow_spaces=3"]), 2)
        .unwrap_err()
        .to_string();
    assert!(e.contains("yellow_spaces"), "{e}");
    let e = rules::<State>(&params(&["returns=margin"]), 3)
        .unwrap_err()
        .to_string();
    assert!(e.contains("margin"), "{e}");
    let e = Params::from_settings(&["first_player=seven"], "game daimyo")
        .unwrap_err()
        .to_string();
    assert!(e.contains("a seat 0..=3, or random"), "{e}");
    assert!(
        rules::<State>(
            &params(&["clans=noble,nomad,tech,nature", "first_player=3"]),
            4
        )
        .is_ok()
    );
}

#[test]
fn hidden_hired_heroes_stay_known_and_drawn_ones_are_resampled() {
    // DAI-27: hands are hidden; hired Heroes are seen by all (the market is face up).
    let mut s = fresh(2, "nature,tech");
    let (h01, h02) = (hero(&s, "H01"), hero(&s, "H02"));
    s.seats[1].hand |= 1 << h01;
    s.known_hand[1] = 1 << h01;
    s.seats[1].deck |= 1 << h02;
    let union = s.seats[1].hand | s.seats[1].deck;
    let mut rng = test_rng(3);
    let mut seen_hands = std::collections::HashSet::new();
    for _ in 0..50 {
        let d = s.determinize(0, &mut rng);
        assert!(
            d.seats[1].hand & (1 << h01) != 0,
            "a hired Hero stays in hand"
        );
        assert_eq!(d.seats[1].hand | d.seats[1].deck, union);
        assert_eq!(d.seats[1].hand.count_ones(), s.seats[1].hand.count_ones());
        assert_eq!(d.seats[0], s.seats[0], "the observer's own cards are kept");
        assert_eq!(d.info_key(0), s.info_key(0));
        assert_eq!(d.observation(0), s.observation(0));
        seen_hands.insert(d.seats[1].hand);
    }
    assert!(seen_hands.len() > 1);
    assert_ne!(s.observation(0), s.observation(1));
}

// ---------------------------------------------------------------------------------------
// FAQ and "Don't forget" clauses.

#[test]
fn rule_faq_governor_and_building_share_a_site_and_no_collection_on_recruit() {
    // DAI-4.10 "Can I place a Governor on a production site that has an opponent's
    // Building? Yes." DAI-4.13 "Can I place a Building at a production site that has
    // an enemy Governor? Yes." DAI-4.10 "The Governor does not collect the resource from
    // the production site when recruited."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.bld[BLUE as usize][0] = 2; // seat 1's Techno-farm on a Rice site
    s.gov[RED as usize][2] = 1; // seat 1's Governor on a Metal site
    s.seats[1].built = [1, 0];
    s.seats[1].governors = 1;
    s.seats[0].res = [1, 2, 1, 0];
    turn(&mut s, 0);
    let a = die(&mut s, 2, 1, 3);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, plain(Kind::RecruitGovernor), &mut c);
    assert!(legal(&s).contains(&Action::new(Kind::Site, BLUE, 0)));
    act(&mut s, Action::new(Kind::Site, BLUE, 0), &mut c);
    assert_eq!(s.seats[0].res[0], 0, "paid 1 Rice, collected nothing");
    turn(&mut s, 0);
    let a = die(&mut s, 2, 1, 4);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, Action::new(Kind::Build, 0, 0), &mut c);
    assert!(legal(&s).contains(&Action::new(Kind::Lot, RED, 2)));
}

#[test]
fn rule_faq_scavengers_share_a_no_mans_land() {
    // DAI-4.4 "each No man's land can accommodate any number of Scavengers."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[0].scavenger = BLUE;
    s.seats[1].scavenger = RED;
    turn(&mut s, 0);
    let a = die(&mut s, 1, 4, 2);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    assert!(legal(&s).contains(&Action::new(Kind::Island, 0, RED)));
}

#[test]
fn rule_yellow_tiles_only_on_end_of_round_spaces_and_covering_loses_the_old() {
    // DAI-4.12 "Yellow Bonus Action tiles go only in the End of the Round area of your board,
    // and the gray ones never go there." DAI-4.12 "you can cover a Bonus Action tile
    // you have already placed, but you lose the old one's ability."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.seats[0].built = [1, 0]; // the next Techno-farm uncovers the yellow revenue_gold tile
    s.bld[YELLOW as usize][0] = 0;
    s.seats[0].res = [0, 9, 9, 0];
    s.seats[0].tiles[6] = 1; // something already on the first End-of-Round space
    turn(&mut s, 0);
    let a = die(&mut s, 2, 1, 4);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, Action::new(Kind::Build, 0, 0), &mut c);
    act(&mut s, Action::new(Kind::Lot, RED, 0), &mut c);
    assert_eq!(
        legal(&s),
        vec![
            Action::new(Kind::Place, 0, 6),
            Action::new(Kind::Place, 0, 7)
        ]
    );
    act(&mut s, Action::new(Kind::Place, 0, 6), &mut c);
    let d = &s.rules().get().data().data;
    assert_eq!(d.tiles[s.seats[0].tiles[6] as usize - 1].id, "revenue_gold");
    // The 3rd Techno-farm uncovers a grey tile: never on the yellow spaces.
    act(&mut s, Action::new(Kind::Build, 0, 0), &mut c);
    act(&mut s, Action::new(Kind::Lot, RED, 1), &mut c);
    assert!(
        legal(&s)
            .iter()
            .all(|a| a.kind() == Kind::Place && a.b() < 6)
    );
}

#[test]
fn rule_same_action_twice_by_another_source() {
    // DAI-3.4 "You cannot place 2 dice on the same action, but you can take the same action
    // twice in the same turn thanks to another source of that action (Hero ability / Bonus
    // Action tile...)."
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    let h39 = hero(&s, "H39"); // any main action, strength 18
    s.seats[0].hand = 1 << h39;
    s.gov[BLUE as usize][0] = 0;
    s.seats[0].governors = 1;
    board_die(&mut s, 0, 0, 6, 0);
    board_die(&mut s, 0, 2, 6, 3);
    turn(&mut s, 0);
    let a = die(&mut s, 1, 6, 1);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    assert_eq!(s.seats[0].res[0], 1);
    act(&mut s, Action::byte(Kind::PlayHero, h39 as u8), &mut c);
    act(&mut s, Action::new(Kind::MainChoice, 0, 1), &mut c);
    assert_eq!(s.seats[0].res[0], 2, "Production twice");
}

#[test]
fn rule_unplaceable_die_is_set_aside() {
    // DAI-11 unplaceable_die = set_aside: with every matching space and Tax taken, the
    // player sets a die aside; it does not count toward dice sums.
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    board_die(&mut s, 0, 2, 6, 3);
    board_die(&mut s, 0, 2, 6, 4);
    board_die(&mut s, 0, 1, 6, 5);
    for d in 0..16 {
        if s.die_loc[d] == 0xF0 && s.die_colour[d] != 2 {
            s.die_loc[d] = 0xF1; // only red dice left in the pool
        }
    }
    turn(&mut s, 0);
    let l = legal(&s);
    assert!(
        !l.is_empty() && l.iter().all(|a| a.kind() == Kind::SetAside),
        "{l:?}"
    );
    let sum = s.dice_sum(0);
    act(&mut s, l[0], &mut c);
    assert_eq!(s.dice_sum(0), sum);
    assert!(!legal(&s).contains(&plain(Kind::Main)));
}

// ---------------------------------------------------------------------------------------
// Rule variants (the ASSUMPTION rulings of docs/rules/daimyo.md) change the game as stated.

fn fresh_with(players: usize, settings: &[&str]) -> State {
    let p = params(settings);
    let r = rules::<State>(&p, players).unwrap();
    let mut c = chance();
    let mut s = State::new_game(r, &mut c);
    let mut buf = Vec::new();
    while matches!(s.phase, Phase::SetupGovernor { .. }) {
        let who = s.actor as usize;
        s.legal_actions(who, &mut buf);
        s.apply(who, buf[0], &mut c).unwrap();
    }
    s
}

#[test]
fn variant_helmet_trigger_first_blue_die() {
    // DAI-18 first_blue_die: "only the round's first blue die can earn it; if that die went
    // on Tax, nobody takes the Helmet that round".
    for (trigger, want) in [("first_villagers_die", 1u8), ("first_blue_die", 0)] {
        let mut s = fresh_with(
            2,
            &["clans=nature,tech", &format!("helmet_trigger={trigger}")],
        );
        let mut c = chance();
        s.villagers = 0b111;
        turn(&mut s, 0);
        let d = (0..16)
            .find(|&d| s.die_loc[d] == 0xF0 && s.die_colour[d] == 0)
            .unwrap();
        // Seat 0 puts the only blue die on Tax; then seat 1 gets Help from Villagers from a
        // blue die we hand it (the same die moved back to the pool, as if a second one).
        s.die_value[d] = 2;
        act(&mut s, Action::new(Kind::Die, 5, 1), &mut c);
        assert!(s.blue_placed);
        s.die_loc[d] = 0xF0;
        s.seats[0].board[5] = 0;
        turn(&mut s, 1);
        act(&mut s, Action::new(Kind::Die, 0, 1), &mut c);
        if s.top().is_none() && legal(&s).contains(&plain(Kind::Main)) {
            act(&mut s, plain(Kind::Main), &mut c);
        }
        while matches!(s.top(), Some(Frame::Eff { .. })) {
            let l = legal(&s);
            act(&mut s, l[0], &mut c);
        }
        assert_eq!(s.helmet, want, "{trigger}");
    }
}

#[test]
fn variant_allow_empty_main_action_false() {
    // DAI-21 false: "the die may go there only if at least one unit (building) is
    // affordable and placeable at that moment".
    let mut s = fresh_with(2, &["clans=nature,tech", "allow_empty_main_action=false"]);
    s.seats[0].res = [0; 4];
    turn(&mut s, 0);
    die(&mut s, 2, 3, 3);
    let l = legal(&s);
    assert!(
        !l.iter()
            .any(|a| a.kind() == Kind::Die && (a.a() == 3 || a.a() == 4)),
        "{l:?}"
    );
    s.seats[0].res = [1, 0, 0, 0];
    assert!(legal(&s).contains(&Action::new(Kind::Die, 3, 2 * 6 + 2)));
}

#[test]
fn variant_nature_same_kind_false_and_governor_scope() {
    // DAI-30 false: "two different kinds"; DAI-23 other_island: "the destination must be on
    // another island".
    let mut s = fresh_with(2, &["clans=nature,nomad", "nature_same_kind=false"]);
    let mut c = chance();
    board_die(&mut s, 0, 0, 6, 0);
    board_die(&mut s, 0, 2, 6, 3);
    turn(&mut s, 0);
    let a = die(&mut s, 1, 6, 1);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Ability), &mut c);
    act(&mut s, Action::new(Kind::Resource, 0, 0), &mut c);
    assert!(!legal(&s).contains(&Action::new(Kind::Resource, 0, 0)));
    let mut s = fresh_with(
        2,
        &["clans=nature,nomad", "governor_move_scope=other_island"],
    );
    let mut c = chance();
    s.gov = [[NONE; 6]; 6];
    s.gov[BLUE as usize][0] = 1;
    s.seats[1].governors = 1;
    s.influence = [[0; 4]; 6];
    s.influence[BLUE as usize][1] = 2;
    board_die(&mut s, 1, 0, 6, 0);
    board_die(&mut s, 1, 2, 6, 3);
    turn(&mut s, 1);
    let a = die(&mut s, 1, 6, 1);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Ability), &mut c);
    // Nomad: the only Governor is chosen without asking; destinations off blue only.
    let l = legal(&s);
    assert!(
        !l.is_empty() && l.iter().all(|a| a.kind() == Kind::Site && a.a() != BLUE),
        "{l:?}"
    );
    let metal = s.seats[1].res[1];
    act(&mut s, Action::new(Kind::Site, RED, 2), &mut c);
    assert_eq!(
        s.seats[1].res[1],
        metal + 2,
        "collect 2 Metal at the new site"
    );
    assert_eq!(
        (s.influence[BLUE as usize][1], s.influence[RED as usize][1]),
        (0, 2)
    );
}

// ---------------------------------------------------------------------------------------
// The rulings' alternatives that were fixed at their defaults, and the engine's own rulings.

/// Puts `s` in seat `p`'s turn after its die, with `eff` as the pending effect step.
fn pending(s: &mut State, p: usize, eff: super::data::Effect) {
    turn(s, p);
    s.phase = Phase::Turn;
    s.flags.main_done = true;
    s.stack = [None; state::STACK];
    s.stack[0] = Some(Frame::Eff {
        eff,
        done: 0,
        sub: 0,
        x: 0,
        y: 0,
    });
    s.sp = 1;
}

fn bag_total(s: &State) -> u32 {
    s.bag.iter().map(|&c| c as u32).sum()
}

#[test]
fn variant_nml_visible_false_tiles_are_face_down_and_taken_blind() {
    // DAI-13 alternative: "Crate side up" read as face down: the tiles are unknown until
    // taken, so any face-down tile is as good as another.
    let s = fresh_with(2, &["clans=nature,tech"]);
    assert!(s.nml[BLUE as usize][..3].iter().all(|&k| k < 24));
    let mut s = fresh_with(2, &["clans=nature,tech", "nml_visible=false"]);
    let mut c = chance();
    for &i in &[BLUE, RED, YELLOW, PURPLE] {
        assert_eq!(s.nml[i as usize][..3], [state::HIDDEN; 3]);
    }
    // 48 tiles: 3 face up in the Black market, the 12 face-down ones still unseen.
    assert_eq!(bag_total(&s), 45);
    invariants(&s).unwrap();
    s.seats[0].scavenger = BLUE;
    turn(&mut s, 0);
    let a = die(&mut s, 1, 4, 2);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    act(&mut s, Action::new(Kind::Island, 0, RED), &mut c);
    let takes: Vec<Action> = legal(&s)
        .into_iter()
        .filter(|a| a.kind() == Kind::Take)
        .collect();
    assert_eq!(takes, vec![Action::new(Kind::Take, 0, 0)], "one blind take");
    act(&mut s, takes[0], &mut c);
    assert_eq!(s.seats[0].loose.count_ones(), 1, "the tile is revealed");
    assert_eq!(s.nml[RED as usize][0], state::HIDDEN, "refilled face down");
    assert_eq!(bag_total(&s), 44);
    invariants(&s).unwrap();
}

#[test]
fn variant_nml_refill_after_effect() {
    // DAI-20: "immediate: every tile taken ... is replaced from the bag at once, also
    // between the two picks of a 'take 2 tiles' effect. Alternative after_effect: refill
    // when the whole effect is resolved."
    for (refill, between) in [("immediate", true), ("after_effect", false)] {
        let mut s = fresh_with(2, &["clans=nature,tech", &format!("nml_refill={refill}")]);
        let mut c = chance();
        s.seats[0].storage = 9;
        s.nml[RED as usize] = [kind(RED, 0), kind(RED, 1), kind(BLUE, 3), NONE];
        pending(&mut s, 0, super::data::Effect::RelicChoice(2));
        act(&mut s, Action::new(Kind::Pick, RED, 0), &mut c);
        assert_eq!(s.nml[RED as usize][0] != NONE, between, "{refill}");
        assert!(
            !legal(&s).contains(&Action::new(Kind::Pick, RED, 0)) || between,
            "{refill}: the emptied slot offers nothing"
        );
        act(&mut s, Action::new(Kind::Pick, RED, 1), &mut c);
        assert_eq!(s.sp, 0);
        assert!(
            s.nml[RED as usize][..3].iter().all(|&k| k != NONE),
            "{refill}: all refilled once the effect is over"
        );
        assert_eq!(s.pending_refill, 0);
    }
}

#[test]
fn variant_partial_effects_false_needs_every_part() {
    // DAI-22 alternative: "a Hero or Bonus tile may be used only if every part applies".
    for (partial, offered_without_rice) in [("true", true), ("false", false)] {
        let mut s = fresh_with(
            2,
            &["clans=nature,tech", &format!("partial_effects={partial}")],
        );
        let mut c = chance();
        let h = hero(&s, "H09"); // Recruit 1 unit (normal cost)
        let st = s.rules().data().data.heroes[h].strength;
        s.seats[0].hand = 1u64 << h;
        s.seats[0].res = [0; 4];
        turn(&mut s, 0);
        let a = die(&mut s, 1, st, 1);
        act(&mut s, a, &mut c);
        let play = Action::byte(Kind::PlayHero, h as u8);
        assert_eq!(legal(&s).contains(&play), offered_without_rice, "{partial}");
        s.seats[0].res = [1, 0, 0, 0];
        assert!(
            legal(&s).contains(&play),
            "{partial}: with 1 Rice it applies"
        );
    }
}

#[test]
fn variant_supply_limited_gain_beyond_the_supply_is_lost() {
    // DAI-14 alternative supply_limited = true: "a gain beyond the supply is lost".
    for (limited, got) in [("false", 2), ("true", 1)] {
        let mut s = fresh_with(
            2,
            &["clans=nature,tech", &format!("supply_limited={limited}")],
        );
        let mut c = chance();
        // All Gold but 1 is in seat 1's storage.
        let spare = s.supply[3] - 1;
        s.seats[1].res[3] += spare as u16;
        s.supply[3] = 1;
        let before = s.seats[0].res[3];
        turn(&mut s, 0);
        let a = die(&mut s, 2, 3, 5);
        act(&mut s, a, &mut c);
        assert_eq!(s.seats[0].res[3] - before, got, "supply_limited={limited}");
        assert_eq!(s.supply[3], 1 - got as i32);
        invariants(&s).unwrap();
    }
}

#[test]
fn variant_hero_discard_public_false_only_the_top_card_is_seen() {
    // DAI-27 alternative: "only the top card of each discard pile is public".
    for public in [true, false] {
        let mut s = fresh_with(
            2,
            &[
                "clans=nature,tech",
                &format!("hero_discard_public={public}"),
            ],
        );
        let heroes: Vec<usize> = bits64(s.seats[1].hand | s.seats[1].deck).collect();
        let (x, a, b) = (heroes[0], heroes[1], heroes[2]);
        s.seats[1].hand = 1 << x;
        s.seats[1].deck = 0;
        s.seats[1].discard = (1 << a) | (1 << b);
        s.discard_top[1] = b as u8;
        s.known_hand[1] = 0;
        let mut rng = test_rng(3);
        let mut changed = false;
        for _ in 0..40 {
            let d = s.determinize(0, &mut rng);
            assert_eq!(d.info_key(0), s.info_key(0));
            assert_eq!(d.observation(0), s.observation(0));
            assert!(d.seats[1].discard & (1 << b) != 0, "the top card stays");
            assert_eq!(d.seats[1].discard.count_ones(), 2);
            changed |= d.seats[1].discard != s.seats[1].discard;
        }
        assert_eq!(changed, !public, "hero_discard_public={public}");
    }
}

fn bits64(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

#[test]
fn variant_relic_discard_any_time() {
    // DAI-28 alternative any_time: "loose tiles may also be discarded to the Black market
    // at any moment of your own turn".
    for (rule, offered) in [("make_room_or_effect", false), ("any_time", true)] {
        let mut s = fresh_with(2, &["clans=nature,tech", &format!("relic_discard={rule}")]);
        let mut c = chance();
        s.seats[0].loose = 1 << kind(RED, 2);
        turn(&mut s, 0);
        let a = die(&mut s, 2, 3, 5);
        act(&mut s, a, &mut c);
        let discard = Action::new(Kind::Relic, 0, kind(RED, 2));
        assert_eq!(legal(&s).contains(&discard), offered, "{rule}");
        if offered {
            let bm = s.black_market[kind(RED, 2) as usize];
            act(&mut s, discard, &mut c);
            assert_eq!(s.seats[0].loose, 0);
            assert_eq!(s.black_market[kind(RED, 2) as usize], bm + 1);
        }
    }
}

#[test]
fn variant_bonus_before_die() {
    // DAI-29 alternative true: "bonus actions may also come before the die is placed,
    // using only the dice already on the board".
    for before in [false, true] {
        let mut s = fresh_with(
            2,
            &["clans=nature,tech", &format!("bonus_before_die={before}")],
        );
        let mut c = chance();
        let h = hero(&s, "H03"); // Gain 2 Gold, strength 4
        let st = s.rules().data().data.heroes[h].strength;
        s.seats[0].hand = 1u64 << h;
        board_die(&mut s, 0, 1, st, 1); // a die of an earlier turn
        turn(&mut s, 0);
        let play = Action::byte(Kind::PlayHero, h as u8);
        let l = legal(&s);
        assert_eq!(l.contains(&play), before, "bonus_before_die={before}");
        assert!(l.iter().any(|a| a.kind() == Kind::Die));
        if before {
            let gold = s.seats[0].res[3];
            act(&mut s, play, &mut c);
            assert_eq!(s.seats[0].res[3], gold + 2);
            assert_eq!(s.phase, Phase::PickDie, "the die is still to be placed");
            let a = die(&mut s, 2, 3, 5);
            act(&mut s, a, &mut c);
            s.seats[0].hand = 1u64 << h;
            assert!(!legal(&s).contains(&play), "one Hero per turn (L558)");
        }
    }
}

#[test]
fn ruling_main_action_optional() {
    // DAI-3.4 "Perform the main action associated with the die": compulsory by default (DAI-9.1).
    for (optional, can_end) in [("false", false), ("true", true)] {
        let mut s = fresh_with(
            2,
            &[
                "clans=nature,tech",
                &format!("main_action_optional={optional}"),
            ],
        );
        let mut c = chance();
        turn(&mut s, 0);
        let a = die(&mut s, 1, 3, 1);
        act(&mut s, a, &mut c);
        let l = legal(&s);
        assert!(l.contains(&plain(Kind::Main)));
        assert_eq!(l.contains(&plain(Kind::EndTurn)), can_end, "{optional}");
    }
}

#[test]
fn ruling_counted_effects_optional() {
    // A counted effect ("Recruit 1 unit") is done while possible, unless
    // counted_effects_optional.
    for (optional, can_stop) in [("false", false), ("true", true)] {
        let mut s = fresh_with(
            2,
            &[
                "clans=nature,tech",
                &format!("counted_effects_optional={optional}"),
            ],
        );
        s.seats[0].res = [3, 0, 0, 0];
        pending(
            &mut s,
            0,
            super::data::Effect::Recruit {
                n: 1,
                discount: 0,
                free: false,
                governor_only: false,
            },
        );
        let l = legal(&s);
        assert!(l.contains(&plain(Kind::RecruitGovernor)));
        assert_eq!(l.contains(&plain(Kind::Done)), can_stop, "{optional}");
    }
}

/// Seat 0 holds pieces 1-3 of the red Relic; the red 4 waits in red's No man's land.
fn red_relic_ready(settings: &[&str]) -> State {
    let mut all = vec!["clans=nature,tech"];
    all.extend_from_slice(settings);
    let mut s = fresh_with(2, &all);
    s.seats[0].storage = 9;
    s.seats[0].loose = (1 << kind(RED, 0)) | (1 << kind(RED, 1)) | (1 << kind(RED, 2));
    s.nml[RED as usize] = [kind(RED, 3), kind(BLUE, 0), kind(BLUE, 1), NONE];
    pending(&mut s, 0, super::data::Effect::RelicChoice(1));
    s
}

#[test]
fn ruling_altar_choice_owner_chooses() {
    // DAI-4.7 "Place one of your Restored Relic tokens on an available altar": the engine
    // takes the highest (DAI-04) unless altar_choice = owner_chooses.
    let mut c = chance();
    let mut s = red_relic_ready(&[]);
    act(&mut s, Action::new(Kind::Pick, RED, 0), &mut c);
    assert_eq!(s.altar[RED as usize][0], 0, "the 3 altar");
    assert_eq!(s.influence[RED as usize][0], 3);
    let mut s = red_relic_ready(&["altar_choice=owner_chooses"]);
    act(&mut s, Action::new(Kind::Pick, RED, 0), &mut c);
    let l = legal(&s);
    assert_eq!(
        l,
        (0..3)
            .map(|a| Action::new(Kind::Altar, 0, a))
            .collect::<Vec<_>>()
    );
    act(&mut s, Action::new(Kind::Altar, 0, 2), &mut c);
    assert_eq!(s.altar[RED as usize][2], 0);
    assert_eq!(s.influence[RED as usize][0], 1, "the 1 altar");
    assert_eq!(s.seats[0].restored[RED as usize], 1);
    assert_eq!(s.seats[0].loose, 0);
}

#[test]
fn ruling_relic_beyond_tokens() {
    // DAI-1.3 "24 Relic tokens (6 per Clan)": a 7th Relic has no token.
    for (rule, restored) in [("stay_loose", 0), ("restore_without_token", 1)] {
        let mut c = chance();
        let mut s = red_relic_ready(&[&format!("relic_beyond_tokens={rule}")]);
        // Six tokens already on altars of the other islands.
        let mut placed = 0;
        for &i in &[BLUE, YELLOW, PURPLE] {
            for a in 0..2 {
                s.altar[i as usize][a] = 0;
                s.seats[0].restored[i as usize] += 1;
                placed += 1;
            }
        }
        assert_eq!(placed, 6);
        s.seats[0].storage = 12; // room for the 6 restored Relics and 4 loose tiles
        act(&mut s, Action::new(Kind::Pick, RED, 0), &mut c);
        assert_eq!(s.seats[0].restored[RED as usize], restored, "{rule}");
        assert!(s.altar[RED as usize].iter().all(|&a| a == NONE));
        assert_eq!(s.seats[0].loose.count_ones(), 4 - 4 * restored as u32);
        assert_eq!(s.influence[RED as usize][0], 0);
    }
}

#[test]
fn perfect_recall_same_view_different_public_past() {
    // DESIGN.md §3: info_key is "a digest of everything that player has seen (perfect
    // recall)". Two orders of the same discards reach the same view at the same ply.
    let mut s = fresh_with(2, &["clans=nature,tech"]);
    let heroes: Vec<usize> = bits64(s.seats[0].hand | s.seats[0].deck).collect();
    let (a, b) = (heroes[0], heroes[1]);
    s.seats[0].hand = (1 << a) | (1 << b);
    s.seats[0].deck = 1 << heroes[2];
    turn(&mut s, 0);
    let d = die(&mut s, 1, 3, 1);
    let mut c = chance();
    act(&mut s, d, &mut c);
    let play = |s: &mut State, first: usize, second: usize| {
        let mut c = chance();
        for (card, up) in [(first, 1u8), (second, 0u8)] {
            act(s, plain(Kind::Discard), &mut c);
            if s.top()
                .is_some_and(|f| matches!(f, Frame::DiscardShift { sub: 0 }))
            {
                act(s, Action::byte(Kind::Card, card as u8), &mut c);
            }
            act(s, Action::new(Kind::Shift, 1, up), &mut c);
        }
    };
    let mut x = s.clone();
    let mut y = s.clone();
    play(&mut x, a, b); // a: +1, b: -1
    play(&mut y, a, b);
    assert_eq!(x.info_key(1), y.info_key(1), "same history, same key");
    let mut z = s.clone();
    let mut c = chance();
    // The same cards with the shifts the other way round: -1 then +1.
    act(&mut z, plain(Kind::Discard), &mut c);
    act(&mut z, Action::byte(Kind::Card, a as u8), &mut c);
    act(&mut z, Action::new(Kind::Shift, 1, 0), &mut c);
    act(&mut z, plain(Kind::Discard), &mut c);
    if z.top()
        .is_some_and(|f| matches!(f, Frame::DiscardShift { sub: 0 }))
    {
        act(&mut z, Action::byte(Kind::Card, b as u8), &mut c);
    }
    act(&mut z, Action::new(Kind::Shift, 1, 1), &mut c);
    assert_eq!(x.die_value, z.die_value);
    assert_eq!(x.seats, z.seats);
    assert_eq!(x.ply, z.ply);
    for p in 0..2 {
        assert_eq!(x.observation(p), z.observation(p), "the same view");
        assert_ne!(x.info_key(p), z.info_key(p), "a different past");
        assert_ne!(
            x.information_state_string(p),
            z.information_state_string(p),
            "a different past, a different information state"
        );
        let len = crate::game::tensor_len(&State::observation_layout(&s.rules()));
        let (mut tx, mut tz) = (vec![f32::NAN; len], vec![f32::NAN; len]);
        x.observation_tensor(p, &mut tx);
        z.observation_tensor(p, &mut tz);
        assert_eq!(tx, tz, "the same view, the same tensor");
    }
    assert_eq!(
        x.information_state_string(1),
        y.information_state_string(1),
        "same history, same information state"
    );
}

#[test]
fn seat_metrics_count_each_main_action() {
    let mut s = fresh_with(2, &["clans=nature,tech"]);
    let mut c = chance();
    turn(&mut s, 0);
    let a = die(&mut s, 2, 3, 5);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::EndTurn), &mut c);
    turn(&mut s, 0);
    let a = die(&mut s, 1, 3, 1);
    act(&mut s, a, &mut c);
    act(&mut s, plain(Kind::Main), &mut c);
    let mut m = crate::game::Metrics::default();
    s.metrics(&mut m);
    let names: Vec<&str> = State::SEAT_METRICS.iter().map(|c| c.name).collect();
    let at = |n: &str| m.seat[0][names.iter().position(|&x| x == n).unwrap()];
    assert_eq!(at("actions_tax"), 1);
    assert_eq!(at("actions_production"), 1);
    assert_eq!(at("actions_relic"), 0);
}

/// The settling probe (count, first option, early stop at two) agrees with the full
/// option list at every decision of random games, by default and under the variants that
/// change the turn menu and the bonus actions.
#[test]
fn settling_probe_agrees_with_the_options() {
    use rand::RngExt;
    let variants: [&[&str]; 3] = [
        &[],
        &["bonus_before_die=true", "main_action_optional=true"],
        &["partial_effects=false", "relic_discard=any_time"],
    ];
    let mut nodes = 0;
    for (i, extra) in variants.iter().enumerate() {
        for n in [2, 4] {
            let r = rules::<State>(&params(extra), n).unwrap();
            let mut rng = test_rng(70 + 10 * i as u64 + n as u64);
            let mut buf = Vec::new();
            for _ in 0..20 {
                let mut s = State::new_game(r, &mut rng);
                while let crate::game::Turn::Player(p) = s.turn() {
                    if let Err(e) = s.probe_agrees() {
                        panic!("{e} at\n{s}");
                    }
                    nodes += 1;
                    s.legal_actions(p, &mut buf);
                    let a = buf[rng.random_range(0..buf.len())];
                    s.apply(p, a, &mut rng).unwrap();
                }
            }
        }
    }
    assert!(nodes > 10_000, "{nodes}");
}

// ---------------------------------------------------------------------------------------
// The game log (log.rs).

/// The log's lines for `seat`'s action `a` applied to `s` (consequences included).
fn logged(s: &mut State, a: Action, c: &mut ScriptedChance, audience: Audience) -> Vec<String> {
    let log = super::log::LOG;
    let p = s.actor as usize;
    let before = s.clone();
    act(s, a, c);
    let mut joint = [None; crate::game::MAX_PLAYERS];
    joint[p] = Some(a);
    let mut lines = vec![log.action(&before, p, a, audience)];
    lines.extend(log.consequences(&before, &joint, s, audience));
    lines
}

use crate::games::log::Audience;

#[test]
fn log_names_the_move_the_receiver_and_the_reason() {
    // Production (DAI-4.3): one resource per own Governor.
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    s.gov[BLUE as usize][0] = 0; // rice
    s.gov[BLUE as usize][2] = 0; // metal
    s.seats[0].governors = 2;
    turn(&mut s, 0);
    let a = die(&mut s, 1, 2, 1);
    let lines = logged(&mut s, a, &mut c, Audience::All);
    assert_eq!(lines[0], "seat 0 takes the green 2 die for Production");
    let lines = logged(&mut s, plain(Kind::Main), &mut c, Audience::All);
    assert_eq!(lines[0], "seat 0 resolves the Production main action");
    assert!(
        lines.contains(&"seat 0 receives 1 rice, 1 metal (Production main action)".to_string()),
        "{lines:#?}"
    );
    // Tax (DAI-4.14): 2 Gold at once, told with the die.
    let mut s = fresh(2, "nature,tech");
    turn(&mut s, 1);
    let a = die(&mut s, 2, 6, 5);
    let lines = logged(&mut s, a, &mut c, Audience::All);
    assert_eq!(lines[0], "seat 1 takes the red 6 die for Tax");
    assert!(
        lines.contains(&"seat 1 receives 2 gold (Tax main action)".to_string()),
        "{lines:#?}"
    );
}

#[test]
fn log_tells_the_influence_scoring_island_by_island() {
    // DAI-6.3: the sole leader takes the gold standard, the next seat the silver one;
    // DAI-24: a tie on influence goes to the most Shadows on the island.
    let mut s = fresh(2, "nature,tech");
    let mut c = chance();
    let (gold, silver) = s.rules().get().data().data.round_pp[0];
    let (gold, silver) = (gold as i16, silver as i16);
    s.influence[BLUE as usize] = [5, 3, 0, 0];
    s.influence[RED as usize] = [2, 2, 0, 0];
    s.shadow[RED as usize][0] = 1;
    turn(&mut s, 1);
    s.turn_index = 5; // seat 1's last turn of round 1 (2 players, 3 turns each)
    let a = die(&mut s, 0, 3, 5);
    act(&mut s, a, &mut c);
    let pp = [s.seats[0].popularity, s.seats[1].popularity];
    let lines = logged(&mut s, plain(Kind::EndTurn), &mut c, Audience::All);
    let want = [
        format!(
            "  the blue island: influence seat 0 5, seat 1 3: seat 0 +{gold} PP, seat 1 +{silver} PP"
        ),
        format!(
            "  the red island: influence seat 0 2, seat 1 2 (1 Shadow): seat 0 +{silver} PP, seat 1 +{gold} PP"
        ),
        format!(
            "seat 0 popularity {} -> {} (+{} influence; influence scoring of round 1)",
            pp[0],
            pp[0] + gold + silver,
            gold + silver
        ),
    ];
    for w in &want {
        assert!(lines.contains(w), "missing {w:?} in {lines:#?}");
    }
    assert_eq!(s.seats[0].popularity, pp[0] + gold + silver);
}

/// Whether `text` names `id` as a whole word.
fn names(text: &str, id: &str) -> bool {
    text.split(|ch: char| !ch.is_ascii_alphanumeric())
        .any(|w| w == id)
}

#[test]
fn log_never_tells_a_seat_another_seats_hidden_heroes() {
    // DAI-27: hands are hidden. A seat audience learns its own draws by name and another
    // seat's as a count; its view names only the others' Heroes known to be in hand.
    let log = super::log::LOG;
    let mut own_draws_named = 0;
    let mut others_counted = 0;
    for players in [2, 4] {
        let r = rules::<State>(&Params::default(), players).unwrap();
        let mut rng = test_rng(40 + players as u64);
        let mut buf = Vec::new();
        let mut s = State::new_game(r, &mut rng);
        let me = 0;
        let audience = Audience::Seats(crate::game::SeatSet::single(me));
        let mut final_lines = Vec::new();
        while s.phase != Phase::Over {
            let p = s.actor as usize;
            let a = s.random_action(p, &mut buf, &mut rng);
            let before = s.clone();
            s.apply(p, a, &mut rng).unwrap();
            let mut joint = [None; crate::game::MAX_PLAYERS];
            joint[p] = Some(a);
            let lines = log.consequences(&before, &joint, &s, audience);
            let mut text = log.action(&before, p, a, audience);
            for l in &lines {
                text.push('\n');
                text.push_str(l);
            }
            text.push('\n');
            text.push_str(&log.view(&s, me));
            let d = &s.rules().get().data().data;
            for q in 0..players {
                let drawn = s.seats[q].hand & !before.seats[q].hand;
                if q == me {
                    for c in bits(drawn & !s.known_hand[q]) {
                        assert!(names(&text, &d.heroes[c].id), "own draw unnamed:\n{text}");
                        own_draws_named += 1;
                    }
                    continue;
                }
                let secret = s.seats[q].hand & !s.known_hand[q];
                for c in bits(secret) {
                    assert!(
                        !names(&text, &d.heroes[c].id),
                        "seat {me} learns seat {q}'s hidden {}:\n{text}",
                        d.heroes[c].id
                    );
                }
                if drawn & secret != 0 {
                    others_counted += 1;
                    assert!(
                        lines
                            .iter()
                            .any(|l| l.starts_with(&format!("seat {q} draws "))
                                && l.contains("Hero")),
                        "{lines:#?}"
                    );
                }
            }
            if s.phase == Phase::Over {
                final_lines = log.consequences(&before, &joint, &s, Audience::All);
            }
        }
        // The final scoring is told per seat and adds up to the final scores.
        for p in 0..players {
            let want = format!("{} PP in all", s.seats[p].popularity);
            assert!(
                final_lines
                    .iter()
                    .any(|l| l.starts_with(&format!("  seat {p}: relics")) && l.ends_with(&want)),
                "{final_lines:#?}"
            );
        }
    }
    assert!(
        own_draws_named > 5 && others_counted > 5,
        "{own_draws_named} {others_counted}"
    );
}

fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

#[test]
fn log_influence_scoring_adds_up_in_random_games() {
    // Every influence scoring told (the "+N PP" of each island line) sums, per seat, to the
    // change of the seat's influence points in that ply.
    let log = super::log::LOG;
    let mut scorings = 0;
    for players in [3, 4] {
        let r = rules::<State>(&Params::default(), players).unwrap();
        let mut rng = test_rng(60 + players as u64);
        let mut buf = Vec::new();
        let mut s = State::new_game(r, &mut rng);
        while s.phase != Phase::Over {
            let p = s.actor as usize;
            let a = s.random_action(p, &mut buf, &mut rng);
            let before = s.clone();
            s.apply(p, a, &mut rng).unwrap();
            let mut joint = [None; crate::game::MAX_PLAYERS];
            joint[p] = Some(a);
            let lines = log.consequences(&before, &joint, &s, Audience::All);
            if !lines
                .iter()
                .any(|l| l.starts_with("influence scoring of round"))
            {
                assert_eq!(
                    s.seats.map(|x| x.pp[source::INFLUENCE]),
                    before.seats.map(|x| x.pp[source::INFLUENCE])
                );
                continue;
            }
            scorings += 1;
            let mut told = [0i16; 4];
            for l in lines.iter().filter(|l| l.starts_with("  the ")) {
                let tail = l.rsplit(": ").next().unwrap();
                for part in tail.split(", ").filter(|x| x.ends_with(" PP")) {
                    let w: Vec<&str> = part.split(' ').collect();
                    let q: usize = w[1].parse().unwrap();
                    told[q] += w[2].parse::<i16>().unwrap();
                }
            }
            for (q, &t) in told.iter().enumerate().take(players) {
                assert_eq!(
                    t,
                    s.seats[q].pp[source::INFLUENCE] - before.seats[q].pp[source::INFLUENCE],
                    "{lines:#?}"
                );
            }
        }
    }
    assert_eq!(scorings, 10, "5 rounds in each of 2 games");
}

#[test]
fn cached_options_are_the_legal_actions_and_random_action_draws_the_same() {
    // `settle` keeps the options of the decision it stops at (OptionCache); the random
    // action picked from them is the one `uniform_legal_action` picks with the same draw.
    let variants: [&[&str]; 3] = [
        &[],
        &["bonus_before_die=true", "main_action_optional=true"],
        &["partial_effects=false", "relic_discard=any_time"],
    ];
    let mut nodes = 0;
    for (i, extra) in variants.iter().enumerate() {
        for n in [2, 3, 4] {
            let r = rules::<State>(&params(extra), n).unwrap();
            let mut rng = test_rng(170 + 10 * i as u64 + n as u64);
            let mut buf = Vec::new();
            for _ in 0..10 {
                let mut s = State::new_game(r, &mut rng);
                while let crate::game::Turn::Player(p) = s.turn() {
                    s.legal_actions(p, &mut buf);
                    if buf.len() <= super::options::CACHE_CAP {
                        assert_eq!(s.cache.get(), Some(&buf[..]), "at\n{s}");
                    } else {
                        assert_eq!(s.cache.get(), None, "an overflowing list is not cached");
                    }
                    let mut twin = rng.clone();
                    let want = crate::game::uniform_legal_action(&s, p, &mut buf, &mut twin);
                    let a = s.random_action(p, &mut buf, &mut rng);
                    assert_eq!(a, want);
                    s.apply(p, a, &mut rng).unwrap();
                    nodes += 1;
                }
                assert_eq!(s.cache.get(), None, "no options once the game is over");
                // A view with other hands carries no cache (its options may differ).
                assert_eq!(s.canonical(0).cache.get(), None);
            }
        }
    }
    assert!(nodes > 10_000, "{nodes}");
}

/// DAI-2.11: the default `seat_gold` (and `seat_gold=0` typed) changes nothing: the same
/// serialized states after setup and at the end of random games, and the same canonical
/// parameters (the knob is hidden at 0).
#[test]
fn rule_2_11_seat_gold_default_changes_nothing() {
    for n in 2..=4 {
        let default = Params::default();
        let zero = params(&["seat_gold=0/0"]);
        assert_eq!(default.canonical(","), zero.canonical(","));
        let (a, b) = (
            rules::<State>(&default, n).unwrap(),
            rules::<State>(&zero, n).unwrap(),
        );
        crate::game::seat_bonus::assert_same_games(a, b, 3);
    }
}

/// DAI-2.11: each seat starts with DAI-09's Gold plus its bonus, from the general supply
/// (the ledger); a start outside 0..=32, or starts beyond the supply under
/// `supply_limited`, is refused naming the bonus's range.
#[test]
fn rule_2_11_seat_gold_adds_to_the_start() {
    let gold = Resource::Gold as usize;
    let s = State::new_game(
        rules::<State>(&params(&["seat_gold=-1/3"]), 2).unwrap(),
        &mut test_rng(0),
    );
    assert_eq!((s.seats[0].res[gold], s.seats[1].res[gold]), (0, 4));
    assert_eq!(s.supply[gold], 32 - 4);
    for other in [0, 1, 2] {
        assert_eq!(s.seats[1].res[other], s.seats[0].res[other]);
    }
    let p = params(&["seat_gold=0/32"]);
    let e = rules::<State>(&p, 2).unwrap_err().to_string();
    assert!(e.contains("seat 1 bonus 32 is outside -1..=31"), "{e}");
    assert!(rules::<State>(&params(&["seat_gold=-2"]), 2).is_err());
    let p = params(&["seat_gold=16/16", "supply_limited=true"]);
    let e = rules::<State>(&p, 2).unwrap_err().to_string();
    assert!(e.contains("at most 30 Gold in all"), "{e}");
}

/// `parse_action` (a table of every id's text) answers as the trait's default search does:
/// the lowest id whose text is the trimmed input, `None` for any other text. The expected
/// answer here comes from sorting (text, id) pairs, not from the table.
#[test]
fn parse_action_is_the_lowest_id_with_that_text() {
    let mut pairs: Vec<(String, usize)> = (0..State::NUM_ACTION_IDS)
        .filter_map(State::action_from_id)
        .map(|a| (a.to_string(), State::action_id(a)))
        .collect();
    pairs.sort();
    let mut texts = 0;
    for (i, (text, id)) in pairs.iter().enumerate() {
        if i > 0 && pairs[i - 1].0 == *text {
            continue;
        }
        texts += 1;
        let want = State::action_from_id(*id);
        assert_eq!(State::parse_action(text), want, "{text}");
        assert_eq!(State::parse_action(&format!("  {text}\n")), want, "{text}");
    }
    // Texts are not unique (e.g. every `discard` id prints `discard`): the first id wins.
    assert!(texts < pairs.len(), "{texts} texts for {} ids", pairs.len());
    for junk in ["", "discard now", "die", "card -1", "Discard", "site 9.9.9"] {
        assert_eq!(State::parse_action(junk), None, "{junk:?}");
    }
}
