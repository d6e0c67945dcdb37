//! # Merchants of Dunhuang (Gabriele Bubola, Mandoo Games 2020), 2–4 players
//!
//! Rules summary; the rules as implemented, with every ruling, are `docs/rules/dunhuang.md`,
//! whose clause ids are cited in parentheses (`DUN-3.4` a rule, `DUN-04` a ruling):
//!
//! - **Components by player count** (DUN-1.1–1.6, DUN-01/02): value v has v goods cards
//!   (1 = Gold … 10 = Silk); 2 players remove the 1, 9s and 10s, 3 players the 1 and 10s;
//!   the Majority Tokens of removed values leave too. Coins and Prestige come from an
//!   unlimited supply (DUN-09).
//! - **Setup** (DUN-2.1–2.5, DUN-01/03/14): 8 characters on a circle (one side of each of
//!   the 8 double-sided tiles of DUN-03); one Market card face up beside each; each player
//!   draws 3 and *chooses* 1 to keep (a decision of each seat, in seat order; the 2 others
//!   are removed face down, known to their owner); 5/6/7 coins at 2/3/4 players; seat 0
//!   starts; the last player *chooses* the camel's start space.
//! - **Turn** (DUN-3.1–3.7): (1) move the camel 1 or more steps clockwise, each step after
//!   the first costs 1 coin, empty spaces count (DUN-3.2, DUN-07); (2) pick up the good
//!   beside the camel into the hand or the Shop (nothing on an empty space, DUN-3.3); a good
//!   entering a Shop takes that value's Majority Token number side up unless the Shop
//!   holding it has more of that value (ties take it, DUN-3.4, DUN-04); (3) bonus: the
//!   character's power or 3 coins (DUN-3.5); (4) the active player wins at once with 4
//!   tokens (5 at 2 players) and 4 different goods in hand (DUN-3.6, DUN-05); (5) refill
//!   empty spaces from the camel's space clockwise (DUN-3.7).
//! - **End** (DUN-4.1, DUN-10): when a refill cannot fill every space, play on until the
//!   last player (right of the first) has played. **Scoring** (DUN-4.3, DUN-4.4): 2 per
//!   token, 1 per Prestige, Shop cards nothing; per value, the players with the most (or
//!   tied most) hand cards keep one; at most one scoring hand card per token (the best);
//!   ties by coins.
//! - **Characters** (DUN-5.1–5.16, DUN-06/08/11/12/16): all 16, with every optional choice
//!   asked of the seat that makes it ([`Action`] lists them).
//!
//! ## Model
//!
//! Goods cards have identities `0..deck` sorted by value, so a value's cards are one
//! contiguous bit range; hands, the pile and the removed cards live in a
//! [`crate::knowledge::Knowledge`] (zones: four hands, the pile, the cards put at its
//! bottom, the cards drawn by an Interpreter/Diplomat not yet kept, the removed cards, and
//! the table: Market, Shops, public discards). Shops are bitsets of cards; counts per value
//! are pop-counts. The pile is drawn one uniform card at a time, by continuing the setup's
//! Fisher–Yates shuffle of the card ids (a deal order kept beside the knowledge, listed again
//! from the pile whenever the pile is not the set it holds, e.g. after `determinize`); cards
//! put at its bottom form
//! ordered batches (each use of the Interpreter/Diplomat is one batch, drawn after the rest
//! of the pile and after earlier batches, uniformly inside a batch, which is the
//! Interpreter's "random order", DUN-5.5). The state is a fixed-size value (no heap).
//!
//! ## Hidden information (DUN-13)
//!
//! Public: Market, Shops, tokens and sides, coins, Prestige, hand sizes, pile and bottom
//! sizes. A card moving between the table and a hand is seen by all; setup-removed cards
//! by their owner; Interpreter/Diplomat draws and bottom cards by the drawer; cards
//! exchanged by Trader/Merchant by both parties, while every other seat forgets what it
//! knew of both hands (knowledge is exact or nothing, so "one of these two cards moved" is
//! forgotten rather than half-known: the sampler never uses what the seat could not know).
//! [`GameState::observation`](crate::game::GameState::observation) shows a seat its hand and the values it knows elsewhere
//! (card identities never appear: goods are named by value); its information state and
//! [`GameState::info_key`](crate::game::GameState::info_key) are its whole history (below); [`GameState::determinize`](crate::game::GameState::determinize) deals
//! the unknown cards uniformly into their zones ([`crate::knowledge::Knowledge::sample_mapped`])
//! and carries the bottom batches along with the relabelling. It keeps only a deal in
//! which the seat to act has a legal action (rejection sampling, so uniform over the
//! consistent deals with that property): the active player standing at its Maid power
//! step (`maid_different=type`) is public and tells that its hand holds a type other than
//! its Shop's only type; no other stage's legality reads which cards a hidden hand holds
//! (`State::seat_to_act_can_act` lists them all).
//!
//! ## Information state
//!
//! Perfect recall ([`crate::game::GameType::perfect_recall`]). The state keeps two running
//! digests of the history (FxHash's combining step per event, a bijection of the digest,
//! so an event is never lost; goods enter as values, never card ids):
//! - the **public history**, updated on every event all seats see: the characters and
//!   the first Market at setup, every public action (seat and action id), every card
//!   drawn to a Market space (space and value), the first player when it is drawn
//!   (`seat_known_at_keep=false`), an instant win; a hidden action enters it as its
//!   stage and seat only;
//! - per seat, the **private history** of what that seat saw and not all did: its dealt
//!   hand (values), its setup keep and Interpreter/Diplomat keep (the action), the values
//!   it drew with the Interpreter/Diplomat (as a set: their order is never seen), the
//!   values a Trader took from or gave to it, each give of a Trader/Merchant exchange it
//!   took part in, its Painter discard when `discards_public=false`.
//!
//! Every change of what a seat sees follows from these events (the stage, turn, camel,
//! Market, Shops, tokens, coins, Prestige and sizes from the public ones, its hand from
//! its private ones), except the instant win, decided by a hidden hand, which is an event
//! of its own. So [`GameState::information_state_string`](crate::game::GameState::information_state_string) is the seat, the two digests
//! in hex and the observation printed, and [`GameState::info_key`](crate::game::GameState::info_key) is `mix64` of the
//! seat and the two digests only (two `mix64`, no observation built; the conformance check
//! confirms on played games that one key never stands for two strings). Two histories
//! that differ in anything the seat saw or did give different digests (up to 64-bit
//! collisions), even when they leave the seat the same knowledge.
//!
//! The knowledge tracker's per-zone counts (which goods a seat knows in another hand) are
//! in the observation and the tensor but not in the string: which of two goods of one
//! value leaves a hand is decided by card ids, so after such a move a seat may still be
//! credited with a known good in one world and not in another it cannot tell apart.
//! [`GameState::determinize`](crate::game::GameState::determinize) gives the other seats stand-in private digests (of their
//! hand and knowledge in the resampled world, drawing nothing), since their real ones
//! summarise what the observer cannot see. Positions saved before the digests existed
//! load with zeros (their history before the save is unknown).
//!
//! **Evidence window** (for weighted determinization, [`crate::agents::belief`]): the
//! state also keeps, inline, a snapshot of the start of the previous and of the current
//! turn with the decisions played since, and for each the seats that missed a card move
//! (a keep, a give, a face-down discard). [`State::replay_evidence`] rebuilds a
//! determinized world's recent past from them for the searching seat, reading no card
//! that seat does not know. It is not saved, `==` ignores it, and playouts and
//! determinized worlds do not write it (`state/evidence.rs`).
//!
//! ## Observation tensor
//!
//! [`GameState::observation_tensor`](crate::game::GameState::observation_tensor) writes `326 + 39 n` values for `n` players (404,
//! 443, 482 at 2, 3, 4), whatever the other parameters. Seats are seat-relative: `r` is
//! seat `(observer + r) % n`, so the observer comes first. Spaces are absolute (0–7, as
//! in the actions `camel m`, `exchange v@m`, `take m`); values run 1–10 (all ten, a value
//! out of play reading 0). It reads the public fields, zone sizes and the cards the
//! observer knows ([`crate::knowledge::Knowledge::known_to`]), never a hidden card: the
//! other hands appear as sizes and as the goods the observer knows are there.
//!
//! | field | length | encoding |
//! |---|---|---|
//! | `phase` | 12 | one-hot stage ([`Phase`] order: Keep, Camel, Move, Pick, Bonus, Power, KeepDrawn, VictimGive, ActiveGive, TokenOwner, TokenPay, Over) |
//! | `to_act` | n | one-hot seat to act (all 0 when over) |
//! | `active` | n | one-hot active seat (seat 0 until the first turn) |
//! | `first` | n | one-hot first player (seat 0 until drawn when `seat_known_at_keep=false`) |
//! | `victim` | n | one-hot Trader/Merchant opponent during the gives, else 0 |
//! | `winner` | n | one-hot instant winner (L133), else 0 |
//! | `gives` | 2 | cards still to give / 2, cards given / 2 (during the gives, else 0) |
//! | `pending_token` | 10 | one-hot value of the token awaiting a Manichean/Buddhist decision, else 0 |
//! | `steps` | 1 | camel steps of this turn / `max_camel_steps` |
//! | `triggered` | 1 | 1 once the end is triggered (DUN-10) |
//! | `turns` | 1 | turns completed / (pile after setup + n + 1), the bound on turns |
//! | `camel` | 8 | one-hot camel space (all 0 before it is placed) |
//! | `characters` | 128 | per space, one-hot character (16, [`CHARACTERS`] order) |
//! | `market` | 88 | per space, one-hot of 11: 0 = empty, else the good's value |
//! | `values_in_play` | 10 | per value: 1 if in play (DUN-01/02) |
//! | `token_holder` | 10 (n + 1) | per value, one-hot: 0 = the middle, 1 + r = seat r (all 0 out of play) |
//! | `token_zh` | 10 | per value: 1 if the token shows 裔 |
//! | `shops` | 10 n | per seat, per value: Shop goods / 10 |
//! | `hand_sizes` | n | per seat: hand size / goods in play |
//! | `hand_known` | 10 n | per seat, per value: hand goods whose place the observer knows / 10 (its own hand in full) |
//! | `coins` | n | per seat: coins / 44 (the box; above 1 only with the unlimited supply) |
//! | `prestige` | n | per seat: Prestige / 28 (likewise) |
//! | `tokens` | n | per seat: Majority Tokens held / 10 |
//! | `zone_sizes` | 5 | pile, bottom, drawn, removed face down, discarded face up: cards / goods in play |
//! | `bottom_known` | 10 | per value: cards at the bottom the observer put there / 10 |
//! | `drawn_known` | 10 | per value: drawn cards awaiting the keep that the observer sees / 10 |
//! | `removed_known` | 10 | per value: cards removed face down that the observer knows / 10 |
//! | `unknown` | 10 | per value: goods whose place the observer does not know / 10 |
//!
//! ## Value estimate
//!
//! [`GameState::value`](crate::game::GameState::value) is in the units of `returns`: a softmax with a temperature of 6
//! points ([`crate::game::win_share_from_scores`]) over a projected score per seat: the
//! final-scoring points if the game ended now ([`State::final_points`]), plus 0.25 per coin
//! (coins break ties and buy steps), plus an instant-win term
//! `40 · (min(tokens, T)/T)² · (min(distinct hand goods, 4)/4)²` (T = 4, or 5 at 2
//! players), which approaches the value of a certain win as the seat nears the DUN-3.6
//! condition. For `returns=margin` (2 players) the projected difference is used. The
//! greedy agent ([`crate::agents`]) plays the action whose successor maximises it.
//!
//! ## Parameters
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `characters` | `random` | `random` (a random side of each tile) or 8 names, one per tile (DUN-03) |
//! | `circle_order` | `random` | `random` (shuffled circle) or `given` (the order of `characters`, tile order for `random`) |
//! | `removed_values` | `1,9,10/1,10/none` | values removed at 2/3/4 players (DUN-01/02) |
//! | `start_coins` | `5/6/7` | coins per player at 2/3/4 players (DUN-2.4) |
//! | `seat_known_at_keep` | `true` | seats fixed before the keeps (DUN-14); `false`: first player drawn after |
//! | `max_camel_steps` | `7` | 1..=63 or `none` (DUN-07) |
//! | `zero_count_returns_token` | `true` | a token with no card left under it returns (DUN-04) |
//! | `flip_requires_number_side` | `true` | Manichean/Buddhist flip needs a number-side token (DUN-06) |
//! | `zh_protects_return` | `false` | a 裔 token is exempt from the return rule (DUN-06) |
//! | `buddhist_needs_two_coins` | `true` | a Buddhist steal needs 2 coins (DUN-06) |
//! | `short_pile_draw` | `what_exists` | Interpreter/Diplomat on a short pile (DUN-08) |
//! | `trade_short_hand` | `min2_same_count` | Trader/Merchant with < 2 cards (DUN-08) |
//! | `maid_different` | `type` | the Maid's "different one" (DUN-08) |
//! | `bonus_may_be_skipped` | `true` | refuse both bonuses (DUN-08) |
//! | `supply_limited` | `false` | 44 coins / 28 Prestige caps (DUN-09) |
//! | `end_trigger` | `refill_incomplete` | or `pile_empty` (DUN-10) |
//! | `final_tie` | `shared` | players tied on points and coins share the win (DUN-10) |
//! | `bonus_on_empty_stop` | `true` | bonus after stopping on an empty space (DUN-11) |
//! | `exchange_order` | `leave_first` | Soldier/Maid token checks order (DUN-12) |
//! | `soldier_same_type` | `true` | Soldier may exchange goods of one value (DUN-12) |
//! | `discards_public` | `true` | the Painter's discard is shown (DUN-13) |
//! | `instant_win_rest` | `by_score` | ranks of the others after an instant win (DUN-15) |
//! | `win_check` | `active_player_only` | or `any_player`: everyone checked at step 4 (DUN-05) |
//! | `returns` | `win_share` | what search maximises (not a rule) |
//! | `komi` | `0` | end-of-game bonus per seat, before ranking (DUN-15.1; compensation, not a rule) |
//! | `seat_coins` | `0` | starting coins added per seat (DUN-2.6; compensation, not a rule) |
//!
//! ## Deviations
//!
//! Every ASSUMPTION ruling of `docs/rules/dunhuang.md` is a parameter above with its default
//! (DUN-03 `characters`, DUN-04 `zero_count_returns_token`, DUN-05 `win_check`, DUN-06
//! three keys, DUN-07 `max_camel_steps`, DUN-08 four keys, DUN-09 `supply_limited`,
//! DUN-10 `end_trigger` and `final_tie`, DUN-11, DUN-12 two keys, DUN-13
//! `discards_public`, DUN-14 `seat_known_at_keep`, DUN-15 `instant_win_rest`). Where the
//! rulebook and the rulings are silent, this engine reads literally (DUN-8.1–8.8):
//! - `max_camel_steps=none` is capped at 63 steps (the action ids): any longer move has a
//!   move 8 steps shorter with the same effect (same space, the Interpreter draws the whole
//!   pile of at most 35 cards either way, the Farmer reaches every space) and 8 coins less.
//! - `final_tie` offers only `shared`: DUN-10's alternative "nobody wins" has no place in
//!   constant-sum returns (a win share must go to someone).
//! - `end_trigger=pile_empty` is checked at the end of the turn (after the refill): an
//!   Interpreter who draws the last cards and puts some back has not emptied the pile.
//! - A player who already holds a value's token keeps it, on its current side, when more
//!   cards of that value enter their Shop (DUN-04 "it stays").
//! - The General may exchange a hand good for a Market good of the same value (the text
//!   sets no condition; it changes nothing but is legal).
//! - `zh_protects_return=true` also protects against the zero-count return.
//! - A forced choice is still a decision node (e.g. a Merchant victim holding two cards of
//!   one value chooses `give v` twice).
//!
//! ## Speed
//!
//! Uniform-random playouts (`benches/dunhuang.rs`, [`crate::game::random_games`]; the
//! profiling twin is `examples/dunhuang_playouts.rs`). Measured in instructions, which a
//! loaded machine does not disturb (`valgrind --tool=callgrind` on
//! `dunhuang_playouts 4000 4` minus `dunhuang_playouts 2000 4`, release profile with LTO,
//! seed 1): **22,333 instructions per 4-player game** (about 120 plies: 186 per ply), down
//! from 51,200 before this work (26,597 at the parent of commit `a702add`, the same
//! callgrind measurement). What it
//! took: card moves name their source zone
//! ([`crate::knowledge::Knowledge::move_from`]; the setup deal and keep move card sets,
//! [`crate::knowledge::Knowledge::move_set`]) and update who saw them from a mask table;
//! exchanges forget with one [`crate::knowledge::Knowledge::forget`]; counts of one value
//! are a table lookup on its run of card ids; the set of values in a hand costs one step
//! per distinct value, and sets of values are counted and indexed by table
//! ([`crate::game::popcount16`], [`crate::game::nth_bit16`]; no `popcnt` on the baseline
//! x86-64 target); the tokens of a seat are one SWAR pass over the holder bytes; the
//! bonus stage asks each character's power for a target without listing the targets
//! (Farmer, Maid and Trader by masks), inlined into the turn with the instant-win test
//! and the token gain check; `random_action` picks keeps, gives, bonuses, the camel's
//! space and power targets without writing the legal list (the same single
//! `random_range` draw and the same `k`-th action as the default); final scoring counts
//! only the values some hand holds, branch-free; the refill stops when nothing is left to
//! draw. Two changes changed the random stream, each with the same distributions before
//! and after (scores, lengths, instant-win rate, seat 0's win rate over 100,000 random
//! games, the golden files and `results/dunhuang-*` regenerated after the check): setup
//! takes the 8 tile sides and the circle order from one draw (the mixed-radix digits of a
//! uniform draw of `0..256 * 8!`) and deals the Market and the hands by a partial
//! Fisher–Yates shuffle of the card ids (commit `af92f27`); the pile draws continue that
//! shuffle, one swap per card instead of a select in the pile's bitset (commit `a702add`,
//! `examples/dunhuang_stream_check.rs`). Wall clock: criterion on a quiet machine (load
//! average below 2, `-- --measurement-time 5`, at 29,300 instructions per game) gave
//! 4.16 ms per 1,000 4-player games (240,000 per second) and 2.26 ms per 1,000 2-player
//! games. At 22,333 instructions, criterion on the quiet machine of 2026-11-24 (other work
//! paused, `-- --warm-up-time 2 --measurement-time 8`) gave **2.69 ms [2.67, 2.71] per
//! 1,000 4-player games: 371,000 [369,000, 374,000] games per second**, and 1.61 ms
//! [1.60, 1.62] per 1,000 2-player games (621,000 per second).
//! The history digests of the information state (issue 21 item 3) cost about 3,300
//! instructions per 4-player game: **25,768** instead of 22,492 (the same callgrind
//! measurement on `dunhuang_playouts 4000 4` minus `2000 4`, main at `150d2f5` against
//! this code; 26,793 before the stages of every turn recorded their action in their own
//! arm). About 1,000 of them are the folds themselves (one per ply, one per card drawn to
//! the Market, the setup); the rest is the code around them in the inlined `apply`.
//! Criterion on the loaded machine of 2026-11-27 (load average 4–5 on 2 cores,
//! `-- --warm-up-time 2 --measurement-time 6`, main and this code one after the other):
//! 2.79 → 3.12 ms per 1,000 4-player games, 1.63 → 1.85 ms per 1,000 2-player games
//! (about +12%). In a playout no information state is asked, so
//! [`crate::GameState::start_playout`] (called by `random_playout` and the search agents'
//! playouts) stops the folds: **23,916** instructions per random 4-player game through
//! `random_playout` (callgrind, as above, 2026-11-27), +6.3% on 22,492; per search
//! iteration from a 4-player position at ply 6 (`sim analyze --agent KIND:iters=3000`
//! minus `iters=1000`, over 2,000): `mcts` 33,165 before the digests, 35,879 with them,
//! 34,164 with the mark; `ismcts` 38,422, 40,674, 38,978. The mark's checks cost about
//! 1,100 instructions in a game played move by move through the runner (random agents:
//! 85,436 per game before the digests, 88,192 with them, 89,320 with the mark).
//! `apply` allocates nothing (the state is a fixed-size value; tested by
//! `tests/integration/alloc.rs` for every registered game).
//!
//! ## Not yet implemented
//!
//! Nothing of the rules is missing. Experiments: `experiments/dunhuang-seats-{2,3,4}p.toml`
//! (ismcts-fast self-play; seat advantage, characters, finishes; see `results/README.md` and `results/NOTES.md`).

mod action;
pub mod log;
mod state;
#[cfg(test)]
mod tests;

pub use action::{Action, MAX_STEP_ID, NUM_ACTION_IDS};
pub use state::{NONE, Observation, Phase, RulesData, SeatStats, State};

use crate::game::Utility;
use crate::params::{ParamError, ParamValue, PerCount, Syntax};

/// The goods' names by value (index 0 unused): DUN-1.1.
pub const GOODS: [&str; 11] = [
    "",
    "Gold",
    "Silver",
    "Lapis Lazuli",
    "Pottery",
    "Glass",
    "Bamboo",
    "Tea",
    "Paper",
    "Wool",
    "Silk",
];

/// The 16 characters, as the annex names them. Character `c` is on tile `c / 2`, side
/// `c % 2` (the DUN-03 pairing: Painter/Musician, Princess/Dancer, Interpreter/Diplomat,
/// Soldier/General, Trader/Merchant, Maid/Domestic, Shepherd/Farmer, Manichean/Buddhist).
pub const CHARACTERS: [&str; 16] = [
    "Painter",
    "Musician",
    "Princess",
    "Dancer",
    "Interpreter",
    "Diplomat",
    "Soldier",
    "General",
    "Trader",
    "Merchant",
    "Maid",
    "Domestic",
    "Shepherd",
    "Farmer",
    "Manichean",
    "Buddhist",
];

/// Character ids (indices into [`CHARACTERS`]).
#[allow(missing_docs)]
pub mod ch {
    pub const PAINTER: u8 = 0;
    pub const MUSICIAN: u8 = 1;
    pub const PRINCESS: u8 = 2;
    pub const DANCER: u8 = 3;
    pub const INTERPRETER: u8 = 4;
    pub const DIPLOMAT: u8 = 5;
    pub const SOLDIER: u8 = 6;
    pub const GENERAL: u8 = 7;
    pub const TRADER: u8 = 8;
    pub const MERCHANT: u8 = 9;
    pub const MAID: u8 = 10;
    pub const DOMESTIC: u8 = 11;
    pub const SHEPHERD: u8 = 12;
    pub const FARMER: u8 = 13;
    pub const MANICHEAN: u8 = 14;
    pub const BUDDHIST: u8 = 15;
}

/// The characters in play (DUN-03, \[ASSUMPTION\] `dunhuang.characters`): `random` (one
/// random side of each tile) or 8 names, one side of each double-sided tile, in the
/// order they stand on the circle (used when `circle_order=given`).
///
/// # Errors
/// Parsing names the accepted forms and what was wrong: an unknown name, not 8 names, or
/// two sides of one tile (e.g. the Manichean and the Buddhist).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Characters {
    /// A random side of each tile.
    Random,
    /// These characters (ids into [`CHARACTERS`]), in circle order.
    List([u8; 8]),
}

const CHARACTER_FORMS: &str = "random, or 8 character names separated by ',', one side of \
    each tile: Painter|Musician, Princess|Dancer, Interpreter|Diplomat, Soldier|General, \
    Trader|Merchant, Maid|Domestic, Shepherd|Farmer, Manichean|Buddhist";

impl ParamValue for Characters {
    const SYNTAX: Syntax = Syntax::COMMA;

    fn parse_param(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("random") {
            return Ok(Characters::Random);
        }
        let names: Vec<&str> = s.split(',').map(str::trim).collect();
        if names.len() != 8 {
            return Err(format!("{CHARACTER_FORMS}; got {} names", names.len()));
        }
        let mut out = [0u8; 8];
        let mut tiles = [None::<&str>; 8];
        for (i, name) in names.iter().enumerate() {
            let c = CHARACTERS
                .iter()
                .position(|c| c.eq_ignore_ascii_case(name))
                .ok_or_else(|| format!("{CHARACTER_FORMS}; unknown character '{name}'"))?;
            if let Some(other) = tiles[c / 2] {
                return Err(format!(
                    "{CHARACTER_FORMS}; '{other}' and '{name}' are the two sides of one tile"
                ));
            }
            tiles[c / 2] = Some(name);
            out[i] = c as u8;
        }
        Ok(Characters::List(out))
    }

    fn format_param(&self) -> String {
        match self {
            Characters::Random => "random".into(),
            Characters::List(l) => l
                .iter()
                .map(|&c| CHARACTERS[usize::from(c)])
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    fn type_name() -> String {
        "random, or 8 character names separated by ','".into()
    }
}

/// The camel-step cap (DUN-07, \[ASSUMPTION\] `dunhuang.max_camel_steps`): an integer
/// 1..=63, or `none` (only coins limit the move; capped at [`MAX_STEP_ID`], see
/// Deviations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaxSteps(pub Option<u8>);

impl ParamValue for MaxSteps {
    const SYNTAX: Syntax = Syntax::NONE_WORD;

    fn parse_param(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s == "none" {
            return Ok(MaxSteps(None));
        }
        match s.parse::<u8>() {
            Ok(n) if (1..=MAX_STEP_ID).contains(&n) => Ok(MaxSteps(Some(n))),
            _ => Err(format!("an integer in 1..={MAX_STEP_ID}, or none")),
        }
    }

    fn format_param(&self) -> String {
        match self.0 {
            None => "none".into(),
            Some(n) => n.to_string(),
        }
    }

    fn type_name() -> String {
        format!("int 1..={MAX_STEP_ID} or none")
    }
}

crate::param_enum! {
    /// Circle order of the character tiles (DUN-2.1, DUN-03).
    pub enum CircleOrder {
        /// Shuffled (DUN-2.1 "Shuffle the 8 Character Tiles").
        Random = "random",
        /// As listed in `characters` (tile order 1–8 when `characters=random`).
        Given = "given",
    }
}

crate::param_enum! {
    /// Interpreter/Diplomat on a pile shorter than the draw (DUN-08 `short_pile_draw`).
    pub enum ShortPile {
        /// Draw what exists, keep 1.
        WhatExists = "what_exists",
        /// The power needs the full draw in the pile.
        Unavailable = "unavailable",
    }
}

crate::param_enum! {
    /// Trader/Merchant when the opponent holds fewer than 2 cards (DUN-08 `trade_short_hand`).
    pub enum TradeShort {
        /// Take (Trader) / receive (Merchant) min(2, hand) cards, give back as many.
        Min2SameCount = "min2_same_count",
        /// The opponent must hold at least 2 cards.
        Unavailable = "unavailable",
    }
}

crate::param_enum! {
    /// The Maid's "a different one" (DUN-5.11, DUN-08 `maid_different`).
    pub enum MaidDifferent {
        /// The hand good must be of a different value than the Shop good.
        Type = "type",
        /// Any other card, the same value allowed.
        Card = "card",
    }
}

crate::param_enum! {
    /// When the end of the game is triggered (DUN-10 `end_trigger`).
    pub enum EndTrigger {
        /// The first refill that cannot fill every empty space.
        RefillIncomplete = "refill_incomplete",
        /// The turn at whose end the pile (with its bottom) is empty.
        PileEmpty = "pile_empty",
    }
}

crate::param_enum! {
    /// Players tied on points and coins (DUN-10 `final_tie`).
    pub enum FinalTie {
        /// They share the win (and the rank).
        Shared = "shared",
    }
}

crate::param_enum! {
    /// Order of the token checks of an exchange (DUN-12 `exchange_order`).
    pub enum ExchangeOrder {
        /// The card leaving the Shop (return check) first, then the entering card.
        LeaveFirst = "leave_first",
        /// The entering card (gain check) first.
        EnterFirst = "enter_first",
    }
}

crate::param_enum! {
    /// Ranks of the other players after an instant win (DUN-15 `instant_win_rest`).
    pub enum InstantWinRest {
        /// By the final-scoring points they hold, then coins.
        ByScore = "by_score",
        /// All share second place.
        TiedSecond = "tied_second",
    }
}

crate::param_enum! {
    /// Who is checked for the instant win at step 4 (DUN-05 `win_check`).
    pub enum WinCheck {
        /// Only the active player (DUN-3.6 "at the end of your turn").
        ActivePlayerOnly = "active_player_only",
        /// The active player, then the others clockwise; the first who qualifies wins.
        AnyPlayer = "any_player",
    }
}

fn check(p: &Params, owner: &str) -> Result<(), ParamError> {
    for list in p.removed_values.values() {
        let mut seen = 0u16;
        for &v in list {
            if !(1..=10).contains(&v) || seen & (1 << v) != 0 {
                return Err(ParamError::Invalid {
                    owner: owner.to_string(),
                    reason: format!(
                        "removed_values: {v} is not a value 1..=10 or is listed twice \
                         (valid: distinct values 1..=10, e.g. 1,9,10/1,10/none)"
                    ),
                });
            }
            seen |= 1 << v;
        }
    }
    Ok(())
}

crate::param_set! {
    /// Merchants of Dunhuang rule variants: every ASSUMPTION of docs/rules/dunhuang.md, with the dossier's default.
    pub struct Params {
        /// Characters in play: random (a random side of each tile) or 8 names, one per double-sided tile (DUN-03, ASSUMPTION).
        pub characters: Characters = Characters::Random,
        /// Circle order: random, or given (the order of characters; tile order when characters=random) (DUN-2.1, DUN-03).
        pub circle_order: CircleOrder = CircleOrder::Random,
        /// Goods values (and their Majority Tokens) removed at 2/3/4 players (DUN-01 SOURCE, DUN-02 default).
        pub removed_values: PerCount<Vec<u8>> = PerCount::by_count(vec![vec![1, 9, 10], vec![1, 10], vec![]]),
        /// Starting coins per player at 2/3/4 players (DUN-2.4 RULEBOOK).
        pub start_coins: PerCount<u8> = PerCount::by_count(vec![5, 6, 7]),
        /// Seats (so the first player, seat 0) are fixed before the keeps; false: the keeps first, then a random first player (DUN-14, ASSUMPTION).
        pub seat_known_at_keep: bool = true,
        /// Most camel steps per move, 1..=63, or none (DUN-07, ASSUMPTION).
        pub max_camel_steps: MaxSteps = MaxSteps(Some(7)),
        /// A token whose holder has no card of its value left returns to the middle (DUN-04, ASSUMPTION).
        pub zero_count_returns_token: bool = true,
        /// The Manichean/Buddhist flip must target a number-side token (DUN-06, ASSUMPTION).
        pub flip_requires_number_side: bool = true,
        /// A token on its 裔 side is exempt from the return to the middle (DUN-06, ASSUMPTION).
        pub zh_protects_return: bool = false,
        /// A Buddhist steal needs 2 coins; false: the stealer pays what they hold (DUN-06, ASSUMPTION).
        pub buddhist_needs_two_coins: bool = true,
        /// Interpreter/Diplomat on a short pile: what_exists or unavailable (DUN-08, ASSUMPTION).
        pub short_pile_draw: ShortPile = ShortPile::WhatExists,
        /// Trader/Merchant against fewer than 2 cards: min2_same_count or unavailable (DUN-08, ASSUMPTION).
        pub trade_short_hand: TradeShort = TradeShort::Min2SameCount,
        /// The Maid's hand good must differ by type, or only be another card (DUN-08, ASSUMPTION).
        pub maid_different: MaidDifferent = MaidDifferent::Type,
        /// The bonus may be refused altogether (DUN-08, ASSUMPTION).
        pub bonus_may_be_skipped: bool = true,
        /// Coins (44) and Prestige (28) are limited; a gain beyond the supply is lost (DUN-09, ASSUMPTION).
        pub supply_limited: bool = false,
        /// End trigger: refill_incomplete or pile_empty (DUN-10, ASSUMPTION).
        pub end_trigger: EndTrigger = EndTrigger::RefillIncomplete,
        /// Players tied on points and coins: shared (DUN-10, ASSUMPTION).
        pub final_tie: FinalTie = FinalTie::Shared,
        /// The bonus is available after stopping on an empty Market space (DUN-11, ASSUMPTION).
        pub bonus_on_empty_stop: bool = true,
        /// Soldier/Maid token checks: leave_first or enter_first (DUN-12, ASSUMPTION).
        pub exchange_order: ExchangeOrder = ExchangeOrder::LeaveFirst,
        /// The Soldier may exchange goods of the same value (DUN-12, ASSUMPTION).
        pub soldier_same_type: bool = true,
        /// A good discarded from a hand (Painter) is shown to all (DUN-13, ASSUMPTION).
        pub discards_public: bool = true,
        /// Ranks of the others after an instant win: by_score or tied_second (DUN-15, ASSUMPTION).
        pub instant_win_rest: InstantWinRest = InstantWinRest::ByScore,
        /// Instant-win check at step 4: active_player_only or any_player (DUN-05, ASSUMPTION).
        pub win_check: WinCheck = WinCheck::ActivePlayerOnly,
        /// What search agents maximise: win_share, rank or margin (2 players); not a rule, records are unaffected.
        pub returns: Utility = Utility::WinShare,
        /// End-of-game bonus per seat in points, added before ranking: seat 0 first, `/`-separated (`0/0.5`), 0 for seats not given (DUN-15.1; a compensation knob for `sim balance`, not in the rulebook).
        pub komi: crate::game::Komi = crate::game::Komi::NONE,
        /// Starting coins added per seat: seat 0 first, `/`-separated (`0/2`), 0 for seats not given, negative takes away; each start within 0..=44 (the box), taken from the box under supply_limited (DUN-2.6; a compensation knob for `sim balance`, not in the rulebook).
        pub seat_coins: crate::game::SeatBonus = crate::game::SeatBonus::NONE,
    }
    validate = check;
}
