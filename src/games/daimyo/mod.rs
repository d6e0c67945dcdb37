//! # Daimyo: Rebirth of the Empire (Jérémy Ducret, La Boite de Jeu 2019), 2–4 players
//!
//! **Status: registered and playable; every DAI ruling is a parameter; the items
//! under "Not yet implemented" are open.**
//!
//! Rules: `docs/rules/daimyo.md`, the rules as implemented with the rulings DAI-00 to
//! DAI-31; its clause ids are cited in parentheses (`DAI-4.11` a rule, `DAI-14` a ruling).
//! Components are data ([`data`]): the shipped `daimyo.toml` holds the rulings' defaults
//! (which of its parts are assumptions or synthetic: DAI-10.1), and `--variant
//! data=path.toml` loads a user's file of the same shape (e.g. the printed card list).
//! **The Hero list is synthetic** (DAI-15): no printed card
//! list is public.
//!
//! ## Model
//!
//! A fixed-size [`State`] (no heap): the board (Governor and Building spaces per site,
//! Shadow spaces, altars, No man's lands), the relic bag and Black market as counts per
//! tile kind, Hero hands / decks / discards as 64-bit sets (a deck is a set, drawn
//! uniformly and lazily, which has the distribution of a shuffled deck), the dice, the
//! seats, and a small stack of effect frames. Every effect of the game (main actions,
//! Heroes, tiles, Villager faces, clan abilities) is a list of [`data::Effect`] steps
//! resolved by the same code, so the Relic main action and a Hero's "move your Scavenger"
//! are one mechanism.
//!
//! ## Decisions
//!
//! A turn (DAI-3.4, DAI-29) is: take a die and its space ([`Kind::Die`]); then a menu of
//! the main action ([`Kind::Main`]), Hero play, Hero discards (then a die shift), the clan
//! ability, the Bonus Action tile, the recruitment reset and End turn; each effect then
//! asks its sub-choices one at a time (an island, a site, a tile, a resource). A decision
//! with a single legal option is applied without asking. Decisions outside turns: the
//! setup Governors, the revenue resource, the Helmet gift, hiring.
//!
//! Worst-case branching (4 players): die choice ≤ 13 groups × ≤ 3 spaces = 39 (in
//! practice ≤ 5 values × 3 colours × spaces); the second setup Governor and a recruited
//! or moved Governor ≤ 30 sites; a Building lot ≤ 30; a Black-market purchase ≤ 24 tile
//! kinds; relic picks from any No man's land ≤ 18; the turn menu ≤ hand size + 7 (a hand
//! is 1-4 Heroes in practice). Recruitment and Construction ask the unit or building type
//! first, then the site, so no step lists every (type, site) pair. The alternatives add at
//! most: `relic_discard = any_time` one menu option per loose tile (storage ≤ 9);
//! `bonus_before_die = true` the pre-die bonus options to the die choice (≤ hand + 3);
//! `altar_choice = owner_chooses` a choice among ≤ 3 altars.
//!
//! Decisions per game (uniform random play, the golden games): about 220 at 2 players and
//! 440 at 4 players, setup placements and end-of-round decisions included.
//!
//! ## Search defaults
//!
//! The per-game agent presets (`agents/games/daimyo.toml`): `mcts` defaults to 75
//! iterations per decision with MAST playouts (`rollout=mast`, issue 22: about the cost of
//! 100 random-playout iterations and +51.5 points [43.5, 59.5] against them; the table is
//! in the preset file), `ismcts` to 100 iterations with MAST playouts, and `cfr` to 100
//! iterations; all cut playouts at the end of the current round (`rounds=1`) and score
//! them by the value estimate, so that the headline command
//! `sim tournament --game daimyo --agents mcts,greedy -n 100000` finishes within an hour on
//! 2 cores. Measured (2 players, seed 0, balanced seats, `--threads 1` on the loaded 2-core
//! machine, with the value estimate of [`State::projected`] as documented below): 2,000
//! games took 61 s of CPU, 30 ms per game, so 100,000 games need about 25 minutes of two
//! cores; mcts won 1,970 of 2,000 games against greedy (0.9850, 95% CI [0.9787, 0.9895]).
//! (Before the projected-value changes of the same day: 64 s, 1,977 of 2,000.)
//! With the MAST preset (2026-11-28, 1,000 games, seed 0, `--threads 1`, the machine
//! loaded by a build): 42 ms per game against 35 ms for `iters=100,rollout=random` in the
//! same conditions, so 100,000 games need about 35 minutes of two cores; mcts won 993 of
//! 1,000 against greedy (99.3% [98.6, 99.7]; the former preset 98.7% [97.8, 99.2]).
//! The comparisons that follow were measured with the earlier value estimate and random
//! playouts. At equal
//! iterations the round cut-off plays better than a ply cut-off
//! (mcts `iters=100,rounds=1` against `iters=100,depth=10`: 121 of 200 games, 0.605
//! [0.536, 0.670], seed 0), and doubling the iterations gains little (200 against 100,
//! both `rounds=1`: 107 of 200, 0.535 [0.466, 0.603]), which is why the budget stays at
//! 100. On the quiet 2-core machine (load average 1.1, release build, `--threads` default
//! 2, seed 0): the headline command's 2,000 first games took 33.5 s of wall time (59.6
//! games/s, so 100,000 games in about 28 minutes), mcts winning 1,970 (0.9850 [0.9787,
//! 0.9895]); with `--players 4` (mcts and greedy two seats each), 200 games took 13.2 s
//! (15.2 games/s, so 100,000 games in about 1.8 hours), mcts winning 195 with 1 draw
//! (0.975 [0.943, 0.989] against a fair share of 0.5).
//!
//! ## Parameters
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `data` | `builtin` | component data file (see [`data`]) |
//! | `clan_assignment` | `random` | `random` (clans dealt) or `fixed` (listed in `clans`) (DAI-31) |
//! | `clans` | `random` | under `clan_assignment=fixed`: one clan name per seat (DAI-31) |
//! | `first_player` | `0` | seat with the Mighty Helmet at setup, or `random` (DAI-31) |
//! | `rank_min_influence` | `1` | influence needed to rank on an island (DAI-05) |
//! | `yellow_spaces` | `2` | End-of-Round tile spaces, 1 or 2 (DAI-10) |
//! | `just_unlocked_tile_usable` | `true` | DAI-10 |
//! | `unplaceable_die` | `set_aside` | DAI-11 |
//! | `bag_empty` | `refill_from_black_market` | DAI-13 |
//! | `blind_duplicate` | `to_black_market` | DAI-13 |
//! | `shadow_victim` | `attacker_chooses` | DAI-14 |
//! | `influence_cap` | `none` | DAI-14 |
//! | `helmet_trigger` | `first_villagers_die` | DAI-18; `first_blue_die`. The same game at 2 players, whose one blue die is the only die Help from Villagers takes |
//! | `relic_take_optional` | `true` | DAI-19 |
//! | `allow_empty_main_action` | `true` | DAI-21 |
//! | `governor_move_scope` | `any_island` | DAI-23 |
//! | `army_full_tie` | `split` | DAI-25 |
//! | `nature_same_kind` | `true` | DAI-30 |
//! | `nml_visible` | `true` | DAI-13; `false`: No man's land tiles lie face down |
//! | `nml_refill` | `immediate` | DAI-20; `after_effect` |
//! | `partial_effects` | `true` | DAI-22; `false`: a Hero or tile only if every part applies |
//! | `supply_limited` | `false` | DAI-14; `true`: 32/27/27/32 (`[limits] supply`), excess gains lost |
//! | `hero_discard_public` | `true` | DAI-27; `false`: only each discard pile's top card is seen |
//! | `relic_discard` | `make_room_or_effect` | DAI-28; `any_time` |
//! | `bonus_before_die` | `false` | DAI-29; `true` |
//! | `main_action_optional` | `false` | engine ruling (DAI-9.1) |
//! | `counted_effects_optional` | `false` | engine ruling (DAI-9.2) |
//! | `altar_choice` | `highest` | engine ruling (DAI-9.4, DAI-04); `owner_chooses` |
//! | `relic_beyond_tokens` | `stay_loose` | engine ruling (DAI-9.5); `restore_without_token` |
//! | `returns` | `win_share` | what search maximises (not a rule) |
//! | `komi` | `0` | end-of-game bonus per seat in PP, before ranking (DAI-7.7; compensation, not a rule) |
//! | `seat_gold` | `0` | starting Gold added per seat (DAI-2.11; compensation, not a rule) |
//!
//! ## Deviations
//!
//! Every ASSUMPTION ruling of `docs/rules/daimyo.md` is a parameter above (or a value of
//! the data file, DAI-10.1:
//! `sites` DAI-02, `shadow_spaces` DAI-03, `round_pp` DAI-05, `building_costs` DAI-08,
//! `start_resources` DAI-09, `bonus_tiles` DAI-10, `villagers` DAI-12, `search_cost` and
//! `black_market_cost` DAI-13, `tax_gain`, `revenue`, `shadow_kill_compensation` DAI-14,
//! `heroes` DAI-15, `supply` DAI-00/DAI-14), with the ruling's default. How the
//! alternatives are modelled:
//! - `nml_visible = false`: a face-down tile (`HIDDEN`, 0xFE in [`State::nml`]) stays
//!   counted in the bag and its kind is drawn from the unseen tiles when it is taken or
//!   searched away (the unseen tiles are exchangeable, so this is the distribution of a
//!   tile placed face down); it is taken blind, so a duplicate follows `blind_duplicate`
//!   and full storage makes room after the draw (DAI-4.6). Face-down tiles are
//!   interchangeable: one take (or Search discard) per No man's land is offered, not one
//!   per slot.
//! - `nml_refill = after_effect` applies to every take except the Relic main action's own
//!   (DAI-4.4: the space is refilled at once) and Search (DAI-13), which the rulebook
//!   refills at once; the slots refill when the effect stack is empty.
//! - `partial_effects = false`: a Hero (played by strength or by the Noble ability) or a
//!   Bonus tile is offered only if each step can apply now (a step's target exists, its
//!   cost can be paid); the steps are checked one by one in the current state.
//! - `hero_discard_public = false`: another seat's view holds the top card of each discard
//!   pile ([`State::discard_top`]) and the pile's size; `determinize` redraws the covered
//!   cards with the unseen hand and deck. The info key still records each discard (the card
//!   was the pile's top when it landed), so the alternative models an observer who does not
//!   track covered cards, not a face-down discard.
//! - `relic_discard = any_time`: the turn menu (before or after the main action) offers each
//!   loose tile to the Black market.
//! - `bonus_before_die = true`: the die choice also offers the bonus actions that need no
//!   die of this turn (a Hero by strength over the dice already on the board, Hero
//!   discards, the clan ability and its tile at a sum of 13 or more, the reset); the flags
//!   of bonus actions used stay set once the die is placed.
//! - `supply_limited = true`: every gain is capped by [`State::supply`].
//!
//! Rulings the engine makes where the rulebook and the rulings are silent (DAI-9.1–9.8):
//! - Clans are dealt (`clan_assignment=random`) or fixed by `clans`
//!   (`clan_assignment=fixed`) instead of chosen by the players (DAI-9.3, DAI-31).
//! - DAI-9.1, the main action of the die is performed (DAI-3.4): the turn cannot end
//!   before the main action of a placed die is resolved; `main_action_optional = true` lets it end.
//! - Counted effects ("Recruit 1 unit", "Construct 2 buildings", "Move a Governor") are
//!   done while possible (the Hero says so); `counted_effects_optional = true` lets the
//!   player stop early (DAI-9.2). A Search discards at least 1 tile (DAI-13).
//! - DAI-9.4, "an available altar" (DAI-4.7): the token goes on the highest free altar,
//!   never worse for the owner (DAI-04); `altar_choice = owner_chooses` asks.
//! - DAI-9.5, six Relic tokens per clan (DAI-1.3): a Relic that would need a 7th token is
//!   not restored, its tiles stay loose; `relic_beyond_tokens = restore_without_token` restores
//!   and scores it without a token (no altar, no influence).
//! - DAI-9.7, revenue (DAI-6.4): the choices are made one seat after another in Helmet
//!   order, not at once. No parameter: the choices are independent (each seat's own
//!   resource) unless `supply_limited`, where the order decides who gets the last tokens of
//!   the supply.
//!
//! ## Hidden information
//!
//! Hands are hidden (DAI-27); everything else a seat could need is public or lazily drawn
//! chance: the discard piles are face up, the union of a seat's hand and deck is public
//! (its clan's starting Heroes, its hires and the discard that refills its deck), the relic
//! bag and the Hero deck are counts/sets drawn uniformly when needed, dice are rolled when
//! a round starts. Hired Heroes are known to be in hand until they leave it
//! ([`State::known_hand`]). [`State::canonical`] is a seat's view; the observation is built
//! from it; `determinize` redraws which of another seat's unknown Heroes are in its hand.
//!
//! ## Information state (perfect recall)
//!
//! The state keeps two running digests, updated as the game goes: [`State::history`], the
//! public history (every decision, all of which are public, and every public chance
//! outcome: dice, tiles, market cards, villager sides, clans, a random first player or
//! Shadow victim), and [`State::recall`], each seat's private history (the Heroes it drew,
//! which only it sees). `information_state_string(seat)` is the observation string (the
//! seat's view [`State::canonical`] printed, and the pile sizes) followed by
//! `public history <16 hex digits>` and `private history <16 hex digits>` (the seat's own
//! digest). It is perfect recall: every observation the seat made and every action it
//! took is a function of the setup (fixed by the rules), the public events and its own
//! draws, which the two digests record in order; two different pasts give different
//! digests (up to 64-bit collisions), hence different strings, even when they reach the
//! same view (`perfect_recall_same_view_different_public_past`). Another seat's draws
//! enter only as the public event that caused them.
//!
//! [`GameState::info_key`](crate::game::GameState::info_key) hashes the same content without building the string: the seat's
//! view [`State::canonical`] (which keeps both digests of the seat and clears the other
//! seats' private digests) and the pile sizes. Equal strings have equal digests and so the
//! same past, hence the same view and key; equal keys have the same view including the
//! digests, hence equal strings (the conformance check tests both directions). The key is
//! the one the ISMCTS tree used before the information contract, so search results are
//! unchanged.
//!
//! ## Observation tensor
//!
//! [`GameState::observation_tensor`](crate::game::GameState::observation_tensor) writes what the seat sees now as a flat `f32` vector
//! (no allocation, every element written, zeros first), field by field in this order.
//! `n` is the player count; seats are seat-relative (0 = the observer, then the next seats
//! in turn order); `H` is the number of Heroes, `T` of Bonus Action tiles, `C` of clans,
//! `V` of Villager tiles, `R` of rounds and `M` of Hero market slots in the data (built-in:
//! 52, 8, 4, 3, 5, 5). Board geometry uses the fixed capacities: 6 islands × 6 sites,
//! × 4 Shadow spaces, × 4 altars, × 4 No man's land slots; 24 Relic tile kinds (colour ×
//! piece); stack depth 12. Counts are divided by the documented scale and not clamped.
//! Length with the built-in data: **2,647** values at 2 players, **3,200** at 3, **3,753**
//! at 4 (1,541 + 553 n).
//!
//! | field | length | encoding |
//! |---|---|---|
//! | `phase` | 7 | one-hot: setup Governors, pick a die, turn, revenue, Helmet, hiring, over |
//! | `phase_step` | 1 | setup placement / 2n, or revenue / hiring position / n, else 0 |
//! | `round` | R | one-hot round |
//! | `turn_index` | 1 | turns taken this round / 3n |
//! | `actor`, `first_player`, `helmet` | n each | one-hot seat (acting now, first this round, holds the Mighty Helmet) |
//! | `round_flags` | 2 | 0/1: Helmet taken by Help from Villagers this round; first blue die placed (DAI-18) |
//! | `turn_space` | 6 | one-hot main-action space of this turn's die (all 0: none) |
//! | `turn_flags` | 4 | 0/1: main action done, Hero played by strength, clan ability used, first blue die |
//! | `tiles_used`, `tiles_new` | 8 each | 0/1 per tile space: tile used this turn; tile received this turn (DAI-10) |
//! | `stack` | 12 × 35 | pending effect frames, top first: frame kind one-hot (8: effect step, Hero done, place tile, discard-and-shift, make room, Shadow victim, end of revenue, altar), effect kind one-hot (22, [`data::Effect`] order), done / 8, sub-step / 8, scratch x / 64, scratch y / 64, argument / 64 (the effect's count, or the frame's Hero, tile, kind or island); empty rows 0 |
//! | `governors` | 36 n | per island and site: one-hot owner |
//! | `buildings` | 72 n | per island and site: one-hot owner × 2 + type (Techno-farm, Radio tower) |
//! | `shadows` | 24 n | per island and Shadow space: one-hot owner |
//! | `altars` | 24 n | per island and altar: one-hot owner of the Relic token |
//! | `influence` | 6 n | per island and seat: influence / 10 |
//! | `no_mans_land` | 24 × 25 | per island and slot: tile kind one-hot (24), then 1 if face down (`nml_visible = false`) |
//! | `pending_refill` | 24 | 0/1 per island and slot: waiting for its refill (DAI-20) |
//! | `black_market`, `bag` | 24 each | tiles per kind / 4 (the bag counts face-down No man's land tiles: both are public counts) |
//! | `villagers` | V | 0/1: the tile shows its back |
//! | `hero_market` | M × H | per slot: one-hot Hero |
//! | `hero_deck_top`, `hero_deck` | H each | one-hot face-up top card; 0/1 Heroes below it (a set, public by elimination) |
//! | `dice_pool`, `dice_aside` | 18 each | dice per colour (blue, green, red) × value 1-6 / 4, in the pool; set aside this round |
//! | `supply` | 4 | general supply of Rice, Metal, Crystal, Gold / 32 (DAI-14) |
//! | `clan` | n × C | per seat: one-hot clan |
//! | `resources` | n × 4 | per seat: Rice, Metal, Crystal, Gold / 10 |
//! | `storage`, `popularity` | n each | per seat: storage capacity / 10; PP / 100 |
//! | `loose_relics` | n × 24 | per seat: 0/1 per loose Relic tile kind |
//! | `restored` | n × 6 | per seat: Relics restored per colour / 2 |
//! | `scavenger` | n × 6 | per seat: one-hot island of the Scavenger |
//! | `units` | n × 4 | per seat: recruitment track position / 4, recruited at the last cost (0/1), Shadows recruited / 4, Governors on the board / 8 |
//! | `built` | n × 2 | per seat: Techno-farms, Radio towers / 4 |
//! | `bonus_tiles` | n × 8 × T | per seat and tile space: one-hot tile |
//! | `board_dice` | n × 6 × 9 | per seat and main-action space: the die there, colour one-hot (3), value one-hot (6) |
//! | `heroes_seen` | n × 4 × H | per seat, four 0/1 rows over the Heroes: in hand, in deck, in hand or deck (unseen), in the discard pile. The observer: its hand, its deck, 0, its discard. Another seat: the hired Heroes known to be in hand, 0, the rest of its hand and deck as one pile, its discard pile (under `hero_discard_public = false` only the top card; the covered cards join the unseen pile) (DAI-27) |
//! | `pile_sizes` | n × 3 | per seat: hand, deck, discard sizes / 10 |
//! | `pp_by_source` | n × 7 | per seat: PP by source / 50 ([`source`] order) |
//!
//! No field reads which of another seat's unknown Heroes are in its hand, nor the order of
//! anything drawn lazily (the conformance check compares the tensor bit for bit across
//! determinized worlds).
//!
//! ## The game log
//!
//! [`log`] tells a game for `sim play` and `sim replay`: each move by name (the die's
//! colour and value and its action space, islands and sites, Heroes with their strength,
//! cost and effect, Relic tiles, buildings), then what the ply did (forced steps
//! included): who received or paid which resources and why, influence changes, Governors,
//! Shadows, Buildings, the Scavenger, Relic tiles and restored Relics, the Helmet, the
//! markets, the dice rolled at each round start, each round's influence scoring island by
//! island, and the final scoring's breakdown per seat. A seat audience learns another
//! seat's Hero draws as a count only (DAI-27).
//!
//! ## Value, the greedy heuristic, and metrics
//!
//! [`GameState::value`](crate::game::GameState::value) (what `greedy` maximises one decision ahead, and what a search
//! cut-off scores) is, in the Foundation value units (the returns' scale: win share, 1 for a
//! sure win, summing to 1 over the seats), the win share of a softmax with temperature 6 PP
//! over [`State::projected`], each seat's projected final popularity in PP:
//!
//! | term | PP |
//! |---|---|
//! | points scored so far | [`SeatState::popularity`] |
//! | influence still to score | for each island, today's standings scored with the sums of the gold and silver standards of the rounds not yet scored (DAI-6.3: a sole leader takes the gold sum, the next group shares the silver sum; tied leaders share both) |
//! | Relics | the DAI-7.2 table at `restored + loose / (2 * pieces)` Relics, linearly interpolated (a loose tile is worth half its share of a Relic) |
//! | buildings | the DAI-7.3 tables at the buildings built |
//! | army | the DAI-7.4 table at today's army rank (Hero costs + Gold; ties take the better rank) |
//! | Mighty Helmet | +2 for its holder (DAI-7.5) |
//! | leftover resources | (Rice + Metal + Crystal) / 5, fractional: a resource is worth 0.2 PP (DAI-7.5 floors at the end) |
//!
//! Seat metrics: PP by source (`pp_influence`, `pp_relics`, `pp_buildings`, `pp_army`,
//! `pp_helmet`, `pp_resources`, `pp_other`), `heroes_played`, `heroes_hired`,
//! `relics_restored`, `assassinations`, and the main actions resolved from dice
//! (`actions_villagers`, `actions_production`, `actions_relic`, `actions_recruitment`,
//! `actions_construction`, `actions_tax`); seat label `clan`.
//!
//! ## Performance
//!
//! Uniform-random 4-player games (`benches/daimyo.rs`; the profiling twin is
//! `examples/daimyo_playouts.rs`, which also checks that the games allocate nothing),
//! measured by instruction counts under callgrind (the shared machine is too loaded for
//! stable wall times): `daimyo_playouts 300 4` minus `daimyo_playouts 100 4` (seed 1,
//! release profile with LTO): **324,800 instructions per game** (about 420 decisions, so
//! about 0.77 k per decision), down from 372,900 at the start of the 2026-11-24 session and
//! 412,000 before the one before. Each decision's options are built once: `settle` must
//! list them anyway to apply single-option steps, so it writes the full, sorted list into
//! the state's `OptionCache` (a fixed array, no heap) and
//! [`GameState::random_action`](crate::game::GameState::random_action) draws from it (the same single draw and the same action
//! as [`crate::game::uniform_legal_action`], so the random stream is unchanged; a test
//! checks both at every decision of 90 games); `legal_actions` still builds its list
//! afresh, so code that edits a state's fields directly stays correct. The option
//! generators write straight into the caller's `Vec` or the cache; `legal_actions` sorts
//! only when the generators did not already write the ids in increasing order (they
//! mostly do); free spaces and the takeable Black-market kinds are bitmasks found with
//! SWAR over the board bytes; Heroes are indexed by strength in the rules. None of this
//! changes the random stream (the golden playthroughs are unchanged, and 300 playouts of
//! `daimyo_playouts` give the same result before and after).
//!
//! ## Greedy self-play findings (`results/daimyo-greedy-{2,3,4}p`)
//!
//! 100,000 games each (seed 1, default rules, clans dealt at random, seat 0 first; 70, 148
//! and 258 s of CPU). Win rates with 95% Wilson intervals (about ±0.3 to ±0.5 points):
//!
//! | | nature | noble | nomad | tech | seat 0 (Helmet) | last seat |
//! |---|---|---|---|---|---|---|
//! | 2 players (fair 0.50) | 0.537 | 0.542 | 0.482 | 0.437 | 0.486 | 0.513 |
//! | 3 players (fair 0.33) | 0.394 | 0.343 | 0.325 | 0.269 | 0.326 | 0.382 |
//! | 4 players (fair 0.25) | 0.305 | 0.273 | 0.235 | 0.184 | 0.239 | 0.256 |
//!
//! Under greedy play Tech is the weakest clan at every count and Nature the strongest at 3
//! and 4 players; the first player (who starts with the Helmet) is at a small disadvantage
//! and the last seat at an advantage (3 players: 0.382). Winners' points come from influence
//! (36-39 PP against 23 for the others) and army (7-8 against 3-5); winners recruit more
//! (2.4-2.5 Recruitment actions against 1.8-1.9, and twice the assassinations) and take
//! fewer Relic actions (1.1-1.5 against 1.5-1.9). Greedy hardly restores Relics (0.01-0.03
//! per game), so these are findings about this heuristic's play, not about strong play.
//!
//! ## Not yet implemented
//!
//! - The experiments of issue 10 that need mcts (greedy self-play experiments are in
//!   `results/daimyo-greedy-{2,3,4}p`).
//! - The speed target on a quiet machine: criterion (load average below 2, `cargo bench
//!   --bench daimyo -- --measurement-time 5`) gave 17,900 4-player games/s at 412,000-
//!   420,000 instructions per game and 19.1k and 19.8k [19.3k, 20.3k] at 372,900 (helpers
//!   paused). The cached options cut the count to 324,800 (-12.9%), about 22k games/s at
//!   the same instructions per second; the only criterion run since was on the loaded
//!   machine (load average 12.6 on 2 cores: 4,730 games/s [4,600, 4,870], meaningless as
//!   an absolute number), so the quiet-machine criterion number is still to be taken.

pub mod action;
pub mod data;
mod effects;
mod game_impl;
pub mod log;
mod observation;
mod options;
mod scoring;
mod setup;
mod state;
#[cfg(test)]
mod tests;
mod validate;

pub use action::{Action, Kind};
pub use data::Data;
pub use observation::Observation;
pub use setup::RulesData;
pub use state::{Frame, Phase, SeatState, State, TurnFlags, source};

use crate::game::Utility;
use crate::params::{DataFile, ParamValue, Syntax};

crate::param_enum! {
    /// What happens when no remaining die can be placed (DAI-11).
    pub enum UnplaceableDie {
        /// The player sets one remaining die aside: no main action (bonus actions allowed).
        SetAside = "set_aside",
        /// The player takes no die.
        LeaveInPool = "leave_in_pool",
    }
}

crate::param_enum! {
    /// An empty relic bag (DAI-13).
    pub enum BagEmpty {
        /// Refill with every Black-market tile.
        RefillFromBlackMarket = "refill_from_black_market",
        /// Spaces stay empty.
        LeaveEmpty = "leave_empty",
    }
}

crate::param_enum! {
    /// A blind-drawn tile you may not keep (DAI-13).
    pub enum BlindDuplicate {
        /// It goes to the Black market.
        ToBlackMarket = "to_black_market",
        /// It goes back to the bag.
        BackToBag = "back_to_bag",
    }
}

crate::param_enum! {
    /// Which Governor a Shadow eliminates (DAI-14).
    pub enum ShadowVictim {
        /// The attacker chooses among the enemy Governors on the island.
        AttackerChooses = "attacker_chooses",
        /// Uniformly at random.
        Random = "random",
    }
}

crate::param_enum! {
    /// Who takes the Mighty Helmet by Help from Villagers (DAI-18).
    pub enum HelmetTrigger {
        /// The first player this round to resolve Help from Villagers with a die on it.
        FirstVillagersDie = "first_villagers_die",
        /// Only the round's first blue die, if it went on Help from Villagers.
        FirstBlueDie = "first_blue_die",
    }
}

crate::param_enum! {
    /// Where a moved Governor may go (DAI-23).
    pub enum GovernorMoveScope {
        /// Any free Governor space but its origin.
        AnyIsland = "any_island",
        /// A free Governor space on another island.
        OtherIsland = "other_island",
    }
}

crate::param_enum! {
    /// An army tie that survives every tie-break (DAI-25).
    pub enum ArmyFullTie {
        /// The tied players share the PP of the ranks they occupy, rounded down.
        Split = "split",
        /// Each tied player gets the PP of the best rank they share.
        ShareFull = "share_full",
    }
}

crate::param_enum! {
    /// When a No man's land slot emptied outside the Relic action is refilled (DAI-20).
    pub enum NmlRefill {
        /// At once, also between the two picks of a "take 2 tiles" effect.
        Immediate = "immediate",
        /// When the whole effect (Hero, tile, Villager face) is resolved.
        AfterEffect = "after_effect",
    }
}

crate::param_enum! {
    /// Which Relic tiles may leave a player's storage (DAI-28).
    pub enum RelicDiscard {
        /// Only loose tiles, only to make room or by an effect.
        MakeRoomOrEffect = "make_room_or_effect",
        /// Also any loose tile to the Black market at any moment of the owner's turn.
        AnyTime = "any_time",
    }
}

crate::param_enum! {
    /// Which free altar a restored Relic's token takes (DAI-4.7 "an available altar").
    pub enum AltarChoice {
        /// The highest free altar, never worse for the owner (DAI-04).
        Highest = "highest",
        /// The owner chooses among the free altars.
        OwnerChooses = "owner_chooses",
    }
}

crate::param_enum! {
    /// A Relic completed when the clan has no Restored-relic token left (DAI-1.3 "6 per Clan").
    pub enum RelicBeyondTokens {
        /// It is not restored: its tiles stay loose in storage.
        StayLoose = "stay_loose",
        /// It is restored (one storage space, scored) without a token: no altar, no influence.
        RestoreWithoutToken = "restore_without_token",
    }
}

crate::param_enum! {
    /// How the seats get their clans (DAI-31, ASSUMPTION: the rulebook lets each
    /// player choose, DAI-2.8).
    pub enum ClanAssignment {
        /// Clans are dealt to the seats at random.
        Random = "random",
        /// One clan per seat, listed in `clans`.
        Fixed = "fixed",
    }
}

/// `random`, or one clan name per seat (DAI-31): typed `random` or
/// `nature,tech,...`; names are checked against the data file when the rules are built.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Clans(pub Option<Vec<String>>);

impl ParamValue for Clans {
    const SYNTAX: Syntax = Syntax::COMMA.union(Syntax::NONE_WORD);

    fn parse_param(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s == "random" {
            return Ok(Clans(None));
        }
        let names: Vec<String> = s.split(',').map(|x| x.trim().to_string()).collect();
        if names
            .iter()
            .any(|n| n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            return Err(format!("{}; got '{s}'", Self::type_name()));
        }
        Ok(Clans(Some(names)))
    }

    fn format_param(&self) -> String {
        match &self.0 {
            None => "random".into(),
            Some(v) => v.join(","),
        }
    }

    fn type_name() -> String {
        "random, or one clan name per seat separated by ','".into()
    }
}

/// A seat index or `random` (DAI-31 `first_player`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FirstPlayer(pub Option<u8>);

impl ParamValue for FirstPlayer {
    fn parse_param(s: &str) -> Result<Self, String> {
        match s.trim() {
            "random" => Ok(FirstPlayer(None)),
            t => t
                .parse::<u8>()
                .ok()
                .filter(|&v| v < 4)
                .map(|v| FirstPlayer(Some(v)))
                .ok_or_else(Self::type_name),
        }
    }

    fn format_param(&self) -> String {
        self.0.map_or("random".into(), |v| v.to_string())
    }

    fn type_name() -> String {
        "a seat 0..=3, or random".into()
    }
}

/// An influence cap (DAI-14): `none` or a positive integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InfluenceCap(pub Option<u16>);

impl ParamValue for InfluenceCap {
    const SYNTAX: Syntax = Syntax::NONE_WORD;

    fn parse_param(s: &str) -> Result<Self, String> {
        match s.trim() {
            "none" => Ok(InfluenceCap(None)),
            t => t
                .parse::<u16>()
                .ok()
                .filter(|&v| v > 0)
                .map(|v| InfluenceCap(Some(v)))
                .ok_or_else(Self::type_name),
        }
    }

    fn format_param(&self) -> String {
        self.0.map_or("none".into(), |v| v.to_string())
    }

    fn type_name() -> String {
        "none, or an integer 1..=65535".into()
    }
}

crate::param_set! {
    /// Daimyo rule variants: every ASSUMPTION ruling of docs/rules/daimyo.md, with its default.
    pub struct Params {
        /// Component data: a TOML file of the shape of the built-in daimyo.toml, or builtin (DAI-00..DAI-15; the Hero list is synthetic).
        pub data: DataFile = DataFile::BUILTIN,
        /// How seats get clans: random (dealt) or fixed (listed in clans) (DAI-31, ASSUMPTION).
        pub clan_assignment: ClanAssignment = ClanAssignment::Random,
        /// The clans by seat under clan_assignment=fixed: one clan name per seat; random (no list) otherwise (DAI-31).
        pub clans: Clans = Clans(None),
        /// Seat that is the first player and takes the Mighty Helmet: 0..=3 or random (DAI-31, ASSUMPTION).
        pub first_player: FirstPlayer = FirstPlayer(Some(0)),
        /// Influence a player needs on an island to rank there (DAI-05, ASSUMPTION).
        pub rank_min_influence: u8 = 1,
        /// End-of-Round spaces for yellow tiles, 1 or 2 (DAI-10, ASSUMPTION).
        pub yellow_spaces: u8 = 2,
        /// A just-unlocked Bonus Action tile may be used in the same turn (DAI-10, ASSUMPTION).
        pub just_unlocked_tile_usable: bool = true,
        /// No placeable die left: set one aside, or take none (DAI-11, ASSUMPTION).
        pub unplaceable_die: UnplaceableDie = UnplaceableDie::SetAside,
        /// Empty relic bag: refill from the Black market, or leave spaces empty (DAI-13, ASSUMPTION).
        pub bag_empty: BagEmpty = BagEmpty::RefillFromBlackMarket,
        /// A blind-drawn tile you may not keep goes to the Black market or back to the bag (DAI-13, ASSUMPTION).
        pub blind_duplicate: BlindDuplicate = BlindDuplicate::ToBlackMarket,
        /// Which enemy Governor a Shadow eliminates (DAI-14, ASSUMPTION).
        pub shadow_victim: ShadowVictim = ShadowVictim::AttackerChooses,
        /// Influence track cap per island: none or an integer (DAI-14, ASSUMPTION).
        pub influence_cap: InfluenceCap = InfluenceCap(None),
        /// Who takes the Helmet by Help from Villagers (DAI-18, ASSUMPTION).
        pub helmet_trigger: HelmetTrigger = HelmetTrigger::FirstVillagersDie,
        /// Taking a tile at a Scavenger stop is optional (DAI-19, ASSUMPTION).
        pub relic_take_optional: bool = true,
        /// A die may go on Recruitment/Construction and the action may do nothing (DAI-21, ASSUMPTION).
        pub allow_empty_main_action: bool = true,
        /// Where a moved Governor may go: any_island or other_island (DAI-23, ASSUMPTION).
        pub governor_move_scope: GovernorMoveScope = GovernorMoveScope::AnyIsland,
        /// An army tie surviving every tie-break: split or share_full (DAI-25, ASSUMPTION).
        pub army_full_tie: ArmyFullTie = ArmyFullTie::Split,
        /// The Nature ability's two resources may be of one kind (DAI-30, ASSUMPTION).
        pub nature_same_kind: bool = true,
        /// No man's land tiles lie face up; false: face down, drawn blind when taken (DAI-13, ASSUMPTION).
        pub nml_visible: bool = true,
        /// No man's land refill outside the Relic action: immediate or after_effect (DAI-20, ASSUMPTION).
        pub nml_refill: NmlRefill = NmlRefill::Immediate,
        /// A Hero or Bonus tile may be used when it cannot apply in full; false: only if every part applies (DAI-22, ASSUMPTION).
        pub partial_effects: bool = true,
        /// Resources come from a limited supply (32 Rice, 27 Metal, 27 Crystal, 32 Gold); a gain beyond it is lost (DAI-14, ASSUMPTION).
        pub supply_limited: bool = false,
        /// Discard piles are face up; false: only each pile's top card is public (DAI-27, ASSUMPTION).
        pub hero_discard_public: bool = true,
        /// Relic tiles leave storage: make_room_or_effect, or any_time in your turn (DAI-28, ASSUMPTION).
        pub relic_discard: RelicDiscard = RelicDiscard::MakeRoomOrEffect,
        /// Bonus actions may come before the die is placed (DAI-29, ASSUMPTION).
        pub bonus_before_die: bool = false,
        /// The main action of a placed die may be skipped (DAI-9.1, engine ruling).
        pub main_action_optional: bool = false,
        /// Counted effects (recruit n, construct n, move a Governor) may stop early; false: each is done while possible (DAI-9.2, engine ruling).
        pub counted_effects_optional: bool = false,
        /// Altar of a restored Relic: highest, or owner_chooses (DAI-9.4, DAI-04; engine ruling).
        pub altar_choice: AltarChoice = AltarChoice::Highest,
        /// A Relic completed with no token left: stay_loose or restore_without_token (DAI-9.5, engine ruling).
        pub relic_beyond_tokens: RelicBeyondTokens = RelicBeyondTokens::StayLoose,
        /// What search agents maximise: win_share or rank; not a rule, records are unaffected.
        pub returns: Utility = Utility::WinShare,
        /// End-of-game bonus per seat in Popularity Points, added before ranking: seat 0 first, `/`-separated (`0/0.5`), 0 for seats not given (DAI-7.7; a compensation knob for `sim balance`, not in the rulebook).
        pub komi: crate::game::Komi = crate::game::Komi::NONE,
        /// Starting Gold added per seat: seat 0 first, `/`-separated (`0/2`), 0 for seats not given, negative takes away; each start within 0..=32 (the supply's Gold), taken from the supply under supply_limited (DAI-2.11; a compensation knob for `sim balance`, not in the rulebook).
        pub seat_gold: crate::game::SeatBonus = crate::game::SeatBonus::NONE,
    }
}
