//! # Q.A.X. (print-and-play stock game), 2–4 players
//!
//! Rules summary; the rules as implemented, with the rulings QAX-01 to QAX-15, are
//! `docs/rules/qax.md`, whose clause ids are cited in parentheses (`QAX-3.4` a rule,
//! `QAX-07` a ruling):
//!
//! - **Components** (QAX-1.1–1.5, QAX-01/02). A 6×6 board (`board`) inside an 8×8 play area
//!   (the board plus one ring of "outside" spaces); 36 company fields = 9 companies ×
//!   numbers 1–4; 36 shares face up; the Index with 3 Hausse, 3 Nominale and 3 Baisse
//!   pieces; 3 pieces and 7 coins per player; the bank as a counter starting at
//!   `bank_coins − 7·players` (QAX-09: bank + players = `bank_coins` at all times).
//! - **Setup** (QAX-2.1–2.5, QAX-03). The 36 fields cover the board: at random
//!   (`field_setup=random`), or dealt face down and placed by the players one at a time
//!   (`players`, QAX-14). Then the players place their pieces one at a time in turn
//!   (`piece_placement`), on any field not occupied by an opponent, stacking on their own;
//!   then the start player sets the Index (3 Hausse / 3 Nominale / 3 Baisse over the 9
//!   companies).
//! - **Round** (QAX-3.1, QAX-3.10, QAX-13). Clockwise from the player left of the start
//!   player; the start player moves last. Then the start player role passes left and the
//!   new start player re-sets the Index.
//! - **Turn** (QAX-3.2: always in this order). (1) Optionally shift one vacant field (no
//!   pieces of anyone) to an empty cell of the play area that borders another field at
//!   least diagonally once the field is lifted (QAX-3.3, QAX-05). (2) Exactly 3 movements:
//!   a stack of height h moves one step for h movements; stacks may be created and divided;
//!   never onto or over an empty (white) space; never recreating a (field, height) of the
//!   player's own stacks at the start of the turn (QAX-3.5, QAX-07). When no legal movement
//!   remains the turn ends (QAX-3.4, QAX-12).
//! - **After each move, on the field moved to** (QAX-3.6–3.8, QAX-08): compulsory owner
//!   income (Hausse +2, Nominale +1, Baisse −1 to the bank) for the owner of all 4 shares
//!   of its company, then one optional trade: buy that field's share at the Index price
//!   (3/2/1) if nobody holds it, or sell it back at that price.
//! - **Attacks** (QAX-3.9). A stack may enter an opponent's stack of the same height (also
//!   several of the mover's stacks at once, `combined_attack`); the attacker relocates the
//!   attacked stack onto vacant fields (`attack_relocation`) and must buy the defender's
//!   share of that field at the Index price, paid to the defender, unless the defender owns
//!   the company (QAX-08, QAX-10, QAX-11).
//! - **End** (QAX-4.1, QAX-4.2, QAX-09, QAX-15). The first player whose coins reach the
//!   goal (21/14/14 for 2/3/4 players, `professional` 28/21/21) wins at once, mid-turn
//!   included (end condition `coin_goal`). After round `max_rounds` the game ends
//!   (`round_limit`): ranked by coins, equal coins share a rank.
//!
//! ## Decisions (action encoding, [`Action`])
//!
//! Every decision is a small sub-decision, so branching stays manageable for search. The
//! worst case of each step (6×6 board, 8×8 play area) is:
//!
//! | step | actions | worst case |
//! |---|---|---|
//! | place a field (`field_setup=players`): choose a field of your hand, then an empty board cell | `field`, then `place` | 18, then 36 |
//! | place a piece (`one_piece`; under `one_stack` also its height) | `pieces` | 36 (`one_stack`: 108) |
//! | set the Index: the rating of company 1, 2, … 9 in order; ratings forced by 3/3/3 are filled in | `hausse` `nominale` `baisse` | 3 |
//! | shift: skip, or lift a vacant field that has a destination (skipped when no field can be lifted) | `noshift`, `lift` | 35 (34 vacant fields + skip) |
//! | shift destination | `put` | 28 (empty cells of the play area) |
//! | movement: a stack, a direction, a height ≤ movements left | `move` | 24 (3 pieces: 3 singles × 8, single + double 8 + 16, or triple 8 × 3) |
//! | combined attack: the next part joining (sources in increasing cell order) | `move` | 2 |
//! | relocate the attacked stack onto a vacant field (`split`: also a part height; parts in non-increasing height, equal parts in increasing cell order) | `relocate` | 34 (`split`: 102) |
//! | trade after a move: pass, buy or sell, whichever is possible; skipped when neither is | `pass` `buy` `sell` | 2 |
//!
//! A combined attack is a sequence of `move` actions into the attacked stack: the first
//! moves part of the total, the state holds the joined pieces until the total equals the
//! defender's height, and only then does the attack resolve. Each sequence of decisions
//! gives a distinct outcome: sources join in increasing cell order, relocation parts in a
//! canonical order.
//!
//! ## Parameters
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `board` | `6x6` | board shape (QAX-01); `4x9`, `3x12` |
//! | `company_names` | `Dinero Bros,C2,…,C9` | the 9 company names (QAX-02); no rules meaning |
//! | `win_coins` | `21/14/14` | coin goal by player count (QAX-4.1) |
//! | `win_coins_pro` | `28/21/21` | the "Professional" goal (QAX-4.1) |
//! | `professional` | `false` | play to `win_coins_pro` (QAX-09) |
//! | `bank_coins` | `90` | coins in the game, 80–90 (QAX-09) |
//! | `field_setup` | `random` | `players`: dealt hands, placement decisions (QAX-03, QAX-14) |
//! | `placement_first` | `start_player` | who places first at setup; `left_of_start` (QAX-03) |
//! | `piece_placement` | `one_piece` | `one_stack`: a single, double or triple per placement turn (QAX-03) |
//! | `first_start_player` | `0` | seat of the first start player, or `random` (QAX-13) |
//! | `baisse_when_broke` | `pay_what_you_can` | `forbid_move`: a move whose Baisse charge cannot be paid is illegal (QAX-04) |
//! | `diagonal_rule` | `destination_only` | `one_orthogonal_field`, `both_orthogonal_fields` (QAX-06) |
//! | `start_rule` | `destination` | `any_stack`: the stack left behind is checked too (QAX-07) |
//! | `income_timing` | `before_trade` | `after_trade` (QAX-08) |
//! | `combined_attack` | `true` | several stacks may attack together (QAX-08) |
//! | `attack_relocation` | `whole` | `split` (rule b, QAX-08, QAX-11) |
//! | `unaffordable_attack` | `illegal` | `no_purchase`: allowed, the share stays (QAX-08) |
//! | `trade_after_attack` | `normal` | `none`: no trade beyond the forced purchase (QAX-10) |
//! | `allow_forfeit_moves` | `true` | any legal move may be made; `false`: only moves that keep a full 3-movement sequence possible, while one exists (QAX-12) |
//! | `max_rounds` | `1000` | rounds before the game ends with `round_limit` (QAX-15) |
//! | `limit_tiebreak` | `none` | `coins_plus_shares` at the round limit (QAX-15) |
//! | `komi` | `0` | end-of-game bonus per seat, before ranking (QAX-15.1; compensation, not a rule) |
//! | `seat_coins` | `0` | starting coins added per seat, from the bank (QAX-2.6; compensation, not a rule) |
//!
//! ## Deviations
//!
//! Every ASSUMPTION ruling of `docs/rules/qax.md` is a parameter above with its default:
//! QAX-01 `board`; QAX-02 `company_names`; QAX-03 `field_setup`, `placement_first`,
//! `piece_placement`; QAX-04 `baisse_when_broke`; QAX-06 `diagonal_rule`; QAX-07
//! `start_rule`; QAX-08 `income_timing`, `combined_attack`, `attack_relocation`,
//! `unaffordable_attack`; QAX-09 `bank_coins` below 83 (a bank that cannot pay in full pays
//! what it holds); QAX-10 `trade_after_attack`; QAX-11 (the meaning of `split`); QAX-12
//! `allow_forfeit_moves`; QAX-13 `first_start_player`; QAX-14 (placement decisions under
//! `players`); QAX-15 `max_rounds`, `limit_tiebreak`.
//!
//! Fixed by the rulebook, not parameters: start coins 7 (QAX-2.2), prices 3/2/1 (QAX-3.7),
//! owner income +2/+1/−1 (QAX-3.8), and `win_check = immediate_any_gain` (QAX-09, QAX-4.1).
//!
//! Readings where neither the rulebook nor the rulings decide (most literal reading,
//! QAX-7.1–7.4):
//! - **Combined attack parts.** Each joining stack may send part of itself (a single taken
//!   from a double, as any split of QAX-3.4 allows); the
//!   parts sum to the defender's height. Every part must be able to step onto the target.
//! - **Order after an attack.** Arrival income (`before_trade`), then the forced purchase,
//!   then the relocation, then the trade. Coins change only at the income and the purchase,
//!   so the order matters only for which goal check fires first.
//! - **Ranks.** The coin-goal winner has strictly the most coins, so every end ranks by coins
//!   (equal coins share a rank; at the round limit `limit_tiebreak` may add share values).
//!
//! ## Not yet implemented
//!
//! Nothing of the rules. (The `allow_forfeit_moves=false` look-ahead searches the turn's
//! decision tree and allocates; it is exact but not fast.)
//!
//! ## Information
//!
//! Everything is public once the fields are placed. Under `field_setup=players` each
//! player's unplaced fields are private: [`GameState::observation`](crate::game::GameState::observation) shows one's own hand
//! and the sizes of the others', and [`GameState::determinize`](crate::game::GameState::determinize) deals the unplaced fields
//! of the other players anew, keeping hand sizes.
//!
//! ## Information state and observation tensor
//!
//! The information state ([`GameState::information_state_string`](crate::game::GameState::information_state_string)) is the observation
//! printed, then `history` and the public history digest in hex, and under
//! `field_setup=players` also `dealt` and the seat's dealt fields as a hex mask (bit = field
//! id). The digest folds in the start player, the random layout of the fields and every
//! action with its seat (all actions are public, the choice of a field of one's hand
//! included: it is placed face up at once); a seat's only private knowledge is its own deal.
//! So the string is everything the seat has seen and done: perfect recall, up to 64-bit
//! collisions. [`GameState::info_key`](crate::game::GameState::info_key) digests the same two facts.
//!
//! The observation tensor is flat; `n` is the player count, `A` the number of play-area
//! cells (64 on `6x6`, 66 on `4x9`, 70 on `3x12`), "seat-relative" lists the observer
//! first, then the seats after it in turn order. Per-cell fields list the play-area cells
//! in cell id order (row by row, `a1` first) with the per-cell values together.
//!
//! | field | length | encoding |
//! |---|---|---|
//! | `player` | `n` | one-hot of the observing seat |
//! | `phase` | 11 | one-hot: choose_field, place_field, place_pieces, set_index, lift, put, move, join, relocate, trade, over |
//! | `actor` | `n` | one-hot of the acting seat, seat-relative; zeros when over |
//! | `start_player` | `n` | one-hot of the start player, seat-relative |
//! | `round` | 1 | round / `max_rounds` |
//! | `movements_left` | 1 | movements left in the turn / 3 |
//! | `coins` | `n` | coins, seat-relative, / the coin goal |
//! | `bank` | 1 | coins in the bank / `bank_coins` |
//! | `placed` | `n` | pieces placed at setup, seat-relative, / 3 |
//! | `index` | 27 | per company, one-hot of its rating (Hausse, Nominale, Baisse) on the Index; zeros before the first |
//! | `new_index` | 27 | while the start player sets the Index: the new ratings given so far, as `index`; else zeros |
//! | `index_company` | 9 | while the Index is set: one-hot of the company rated next; else zeros |
//! | `shares` | `36 n` | per share (field id `4 · company + number − 1`), one-hot of its holder, seat-relative; zeros on the table |
//! | `attack` | 6 | pieces joined / 3 and pieces still needed / 3 (combined attack); pieces left / 3 and last part's height / 3 (relocation); flags: the move was an attack, the forced purchase was made |
//! | `victim` | `n` | while attacked pieces are relocated, one-hot of their seat, seat-relative; else zeros |
//! | `winner` | `n` | one-hot of the coin-goal winner, seat-relative; else zeros |
//! | `cell_field` | `A` | per cell, 1 if a field lies there |
//! | `cell_company` | `9 A` | per cell, one-hot of its field's company |
//! | `cell_number` | `4 A` | per cell, one-hot of its field's number 1–4 |
//! | `cell_stack` | `3 n A` | per cell and seat (seat-relative), one-hot of that seat's stack height 1–3 there |
//! | `cell_turn_start` | `3 A` | per cell, one-hot of the height of the actor's stack there at the start of its turn (the QAX-07 start-position rule) |
//! | `cell_marks` | `4 A` | per cell, flags: the field moved to (trade, income), the cell a field was lifted from (put), the attacked cell (combined attack), the last part's cell (combined attack or relocation) |
//! | `hand` | 36 | `field_setup=players` only: the seat's own unplaced fields (field id order) |
//! | `hand_sizes` | `n` | `field_setup=players` only: unplaced fields per seat, seat-relative, / 18 (sizes only: where another seat's fields are is hidden) |
//! | `chosen_field` | 36 | `field_setup=players` only: while a chosen field is placed, its one-hot; else zeros |
//!
//! Total: `43 n + 83 + A (21 + 3 n)`, plus `72 + n` under `field_setup=players`; on the
//! default `6x6` board 1,897 values at 2 players, 2,132 at 3 and 2,367 at 4.
//!
//! ## Value estimate and the `greedy` heuristic
//!
//! [`GameState::value`](crate::game::GameState::value) is a win share (the units of `returns`): a softmax over each
//! seat's *projected wealth* in coins with a temperature of goal/6 coins (3.5 at 2
//! players), exact returns at the end. `greedy` is one-step lookahead on it, and `mcts`
//! scores its cut-off playouts with it. Projected wealth =
//!
//! - **coins**;
//! - **+ each held share at `0.25 · price + 0.75 · 2`**: between its price on the
//!   *effective* Index and the mean price 2 (the next start player re-sets the Index, so
//!   today's price lasts at most a round). The effective Index is the current one, except
//!   while the start player sets the new one: companies already rated count at their new
//!   rating, the others at the mean of the ratings still to place. So buying at Baisse
//!   (worth 1.75 for 1 coin) and selling at Hausse (3 coins for 2.25) gain, Nominale is
//!   even, and the start player rates its own companies Hausse and its opponents' Baisse;
//! - **+ `3 + income` per owned company** (income +2 Hausse, +1 Nominale, −1 Baisse on the
//!   effective Index): the arrivals to come;
//! - **− 0.5 per own stack next to an opponent stack of the same height** (it can be
//!   attacked and relocated) and **− 1 per own stack with no field next to it** (stuck);
//! - **+ the actor's best trade, in the trade step**: `max(0, gain of buy or sell)` with
//!   the gains above. This lets one-step lookahead choose a *movement* by the trade it
//!   opens, not only by the arrival income.
//!
//! Why: the first estimate (shares at the current price, +2 per company, −1 per threatened
//! stack) made every trade and every Index rating worth exactly nothing, so greedy traded
//! and set the Index at random, and lost to random play at 4 players (1 greedy against 3
//! random: 17 wins of 80, 0.21 against the fair 0.25; random games last about 6,700
//! plies). The weights were chosen with the harness `examples/qax_tuning.rs` (one-step greedy
//! matches, 200 games per setting, seeds `1000 + g`): the new estimate beat the old one
//! 100 of 100 games at 2 players and 97 of 100 at 4 (1 new against 3 old); without the
//! trade option it won 3 of 200 against the full estimate (2 and 4 players); the share
//! weight 0.25 beat 0.5 (0.715 ± 0.063 at 2 players), 0.75 and 1.0 lost to 0.5 (0.365,
//! 0.075) and 0 lost to 0.25 (0.23); a bonus for holding 2 or 3 shares of a company no one
//! else holds hurt (the estimate without it won 0.76 ± 0.06 at 2 players); the other
//! weights (owner 1.5–6 + 0–2 · income, threat 0–1.5, stuck 0–3, temperature 0.1–0.3 of
//! the goal) made no difference within ± 0.07.
//! With it, greedy beats random 40 of 40 games at 2 players and games between greedy
//! players end by the coin goal in about 12 rounds (280 plies) at 2 players.
//!
//! ## Search defaults
//!
//! The per-game agent presets (`agents/games/qax.toml`): `mcts`, `ismcts` and `cfr` default to 200 iterations
//! per decision with epsilon-greedy playouts (`rollout=greedy`, epsilon 0.1) cut after 20
//! plies (`depth=20`, about one player turn and a half) and scored by the value estimate.
//! Full random playouts are hopeless (random games last about 6,700 plies) and random
//! playouts cut after 20 plies lose to greedy (mcts `iters=200,depth=20,rollout=random`
//! won 7 of 24 games as 1 against 3 greedy at 4 players). Greedy playouts at 4 players, 1
//! mcts against 3 greedy, 48 games, seed 3: depth 10 with 400 iterations won 0.625, depth
//! 20 with 200 iterations 0.8125 [0.681, 0.898], depth 40 with 200 iterations 0.875 but at
//! about three times the cost; the round cut-off (`rounds=1`, 100 iterations) won 0.646.
//!
//! Measured (`sim experiment experiments/qax-mcts-vs-greedy-2p.toml` and `-4p.toml`,
//! `--threads 1`, seed 1, balanced seats, on the loaded 2-core machine):
//! - 2 players, 200 games: mcts won 194 (0.970, 95% Wilson interval [0.936, 0.986],
//!   fair share 0.5); 218.6 s of CPU, 0.92 games/s (1.09 s per game; games last 13.4
//!   rounds, 303 plies on average);
//! - 4 players, 1 mcts against 3 greedy, 192 games (mcts 48 times in each seat): mcts won
//!   146 (0.760 [0.695, 0.815], fair share 0.25); 217.7 s of CPU, 0.88 games/s (11.0
//!   rounds, 394 plies).

//! ## Speed
//!
//! Uniform random self-play through the tournament runner (`qax-random-2p`: 10,000 games
//! at 2 players, 6,799 plies each on average, 8.0 s of CPU on one core of the loaded
//! machine): about 8.5 million decisions and 1,250 complete games per second, agent and
//! output overhead included (`cargo bench --bench qax` measures the engine alone). Greedy
//! self-play: 20,000 games in 40 s (2 players) and 72 s (4 players).
//!
//! ## Balance (experiments, `results/NOTES.md`, "Q.A.X. results notes")
//!
//! Greedy self-play, 20,000 games per player count, seed 1: the first start player (seat
//! 0) wins 0.5195 [0.5126, 0.5264] at 2 players; no seat differs from the fair share at 3
//! or 4 players. Every game between playing agents ends by the coin goal; only uniform
//! random self-play reaches `round_limit` (9 of 10,000 at 2 players). `professional`
//! lengthens games × 1.27 (2 players), × 1.51 (3) and × 1.61 (4) in rounds. Owning a
//! company pays at 2 players (owners win 0.541 [0.533, 0.549] of their seats against
//! 0.476) but not at 3 or 4, where the others set the Index (0.285 against 0.340 at 3,
//! 0.188 against 0.253 at 4).
//!
mod action;
mod board;
pub mod log;
mod state;
#[cfg(test)]
mod tests;
mod value;

pub use action::{Action, Kind, NUM_IDS};
pub use board::{
    DIR_NAMES, GRID_H, GRID_W, Geometry, MAX_CELLS, NO_CELL, cell_name, cells, parse_cell,
};
pub use state::{Observation, Phase, RulesData, State};
pub use value::{WEIGHTS, Weights};

use crate::params::{ParamError, ParamValue, PerCount, Syntax};

/// Companies on the Index (QAX-1.3).
pub const NUM_COMPANIES: usize = 9;
/// Company fields and shares: 9 companies × numbers 1–4 (QAX-1.2).
pub const NUM_FIELDS: usize = 36;
/// Pieces per player (QAX-1.4 "3 of each color").
pub const PIECES_PER_PLAYER: u8 = 3;
/// Coins each player receives at setup (QAX-2.2).
pub const START_COINS: u8 = 7;
/// Movements per turn (QAX-3.4 "You have to make 3 movements").
pub const MOVEMENTS: u8 = 3;

crate::param_enum! {
    /// A quotation on the Index (QAX-2.5, QAX-3.7).
    pub enum Rating {
        /// Black piece: price 3, owner income +2.
        Hausse = "hausse",
        /// Grey piece: price 2, owner income +1.
        Nominale = "nominale",
        /// Red piece: price 1, owner pays 1.
        Baisse = "baisse",
    }
}

impl Rating {
    /// All ratings in id order.
    pub const ALL: [Rating; 3] = [Rating::Hausse, Rating::Nominale, Rating::Baisse];

    /// Buy and sell price in coins (QAX-3.7).
    pub fn price(self) -> u8 {
        3 - self as u8
    }

    /// Owner income on arrival (QAX-3.8): +2, +1, −1.
    pub fn income(self) -> i8 {
        [2, 1, -1][self as usize]
    }

    /// The word (`hausse`).
    pub fn word(self) -> &'static str {
        ["hausse", "nominale", "baisse"][self as usize]
    }

    /// Parses the word.
    pub fn parse(s: &str) -> Option<Rating> {
        Rating::ALL.into_iter().find(|r| r.word() == s)
    }
}

crate::param_enum! {
    /// Board shape (QAX-01, \[ASSUMPTION\] `qax.board`): 36 spaces.
    pub enum BoardShape {
        /// 6 rows × 6 columns (play area 8 × 8).
        B6x6 = "6x6",
        /// 4 rows × 9 columns (play area 6 × 11).
        B4x9 = "4x9",
        /// 3 rows × 12 columns (play area 5 × 14).
        B3x12 = "3x12",
    }
}

impl BoardShape {
    /// (rows, columns) of the board.
    pub fn dims(self) -> (usize, usize) {
        match self {
            BoardShape::B6x6 => (6, 6),
            BoardShape::B4x9 => (4, 9),
            BoardShape::B3x12 => (3, 12),
        }
    }
}

crate::param_enum! {
    /// How the fields are laid out at setup (QAX-03, QAX-14).
    pub enum FieldSetup {
        /// At random, no decisions.
        Random = "random",
        /// Dealt face down; the players place them one at a time (private hands).
        Players = "players",
    }
}

crate::param_enum! {
    /// Who places first at setup (QAX-03, `qax.placement_first`).
    pub enum PlacementFirst {
        /// The start player, then clockwise.
        StartPlayer = "start_player",
        /// The player left of the start player, as in the rounds (QAX-3.1).
        LeftOfStart = "left_of_start",
    }
}

crate::param_enum! {
    /// Pieces per placement turn at setup (QAX-03, `qax.piece_placement`).
    pub enum PiecePlacement {
        /// One piece per placement turn (QAX-2.4).
        OnePiece = "one_piece",
        /// A single, double or triple per placement turn.
        OneStack = "one_stack",
    }
}

crate::param_enum! {
    /// The first start player (QAX-13, `qax.first_start_player`).
    pub enum FirstStart {
        /// Seat 0.
        Seat0 = "0",
        /// Seat 1.
        Seat1 = "1",
        /// Seat 2 (3–4 players).
        Seat2 = "2",
        /// Seat 3 (4 players).
        Seat3 = "3",
        /// Drawn at setup from the game's chance stream.
        Random = "random",
    }
}

crate::param_enum! {
    /// A compulsory Baisse charge with 0 coins (QAX-04, `qax.baisse_when_broke`).
    pub enum BaisseWhenBroke {
        /// Costs nothing (coins never go below 0).
        PayWhatYouCan = "pay_what_you_can",
        /// A move that would bring a charge you cannot pay is illegal.
        ForbidMove = "forbid_move",
    }
}

crate::param_enum! {
    /// What a diagonal move needs (QAX-06, `qax.diagonal_rule`).
    pub enum DiagonalRule {
        /// Only the destination must be a field.
        DestinationOnly = "destination_only",
        /// At least one of the two cells passed between holds a field.
        OneOrthogonalField = "one_orthogonal_field",
        /// Both cells passed between hold fields.
        BothOrthogonalFields = "both_orthogonal_fields",
    }
}

crate::param_enum! {
    /// Which stacks the start-position rule checks (QAX-07, `qax.start_rule`).
    pub enum StartRule {
        /// Only the destination stack a move creates.
        Destination = "destination",
        /// Also the stack left behind by a split.
        AnyStack = "any_stack",
    }
}

crate::param_enum! {
    /// When owner income is paid (QAX-08, `qax.income_timing`).
    pub enum IncomeTiming {
        /// On arrival, before the trade.
        BeforeTrade = "before_trade",
        /// After the trade.
        AfterTrade = "after_trade",
    }
}

crate::param_enum! {
    /// How an attacked double or triple is relocated (QAX-3.9, QAX-08/11).
    pub enum Relocation {
        /// Rule a: the whole stack onto one vacant field.
        Whole = "whole",
        /// Rule b: any partition, each part onto a different vacant field.
        Split = "split",
    }
}

crate::param_enum! {
    /// An attack whose forced purchase the attacker cannot pay (QAX-08).
    pub enum UnaffordableAttack {
        /// The attack is illegal.
        Illegal = "illegal",
        /// The attack is allowed and the share stays with the defender.
        NoPurchase = "no_purchase",
    }
}

crate::param_enum! {
    /// The trade of an attack move (QAX-10, `qax.trade_after_attack`).
    pub enum TradeAfterAttack {
        /// The forced purchase is the move's trade; otherwise a normal trade.
        Normal = "normal",
        /// No buy or sell beyond the forced purchase.
        None = "none",
    }
}

crate::param_enum! {
    /// Ranking at the round limit (QAX-15, `qax.limit_tiebreak`).
    pub enum LimitTiebreak {
        /// Coins only; equal coins share the rank.
        None = "none",
        /// Coins plus each held share at its current Index price.
        CoinsPlusShares = "coins_plus_shares",
    }
}

/// The 9 company names (QAX-02, \[ASSUMPTION\] `qax.company_names`), typed as 9 names
/// separated by `,`. Names carry no rules meaning; they appear in printed states.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CompanyNames(pub Vec<String>);

impl Default for CompanyNames {
    fn default() -> Self {
        let mut v = vec!["Dinero Bros".to_string()];
        v.extend((2..=9).map(|i| format!("C{i}")));
        CompanyNames(v)
    }
}

impl ParamValue for CompanyNames {
    const SYNTAX: Syntax = Syntax::COMMA;

    fn parse_param(s: &str) -> Result<Self, String> {
        let names: Vec<String> = s.split(',').map(|x| x.trim().to_string()).collect();
        if names.len() != NUM_COMPANIES || names.iter().any(|n| n.is_empty()) {
            return Err(format!(
                "9 non-empty company names separated by ','; got {} names",
                names.iter().filter(|n| !n.is_empty()).count()
            ));
        }
        Ok(CompanyNames(names))
    }

    fn format_param(&self) -> String {
        self.0.join(",")
    }

    fn type_name() -> String {
        "9 names separated by ','".into()
    }
}

fn check(p: &Params, owner: &str) -> Result<(), ParamError> {
    let bad = |reason: String| {
        Err(ParamError::Invalid {
            owner: owner.to_string(),
            reason,
        })
    };
    if !(80..=90).contains(&p.bank_coins) {
        return bad(format!(
            "bank_coins = {} is outside 80..=90 (L52 \"BANK = 81-90 COINS\", L29 \"80-90\")",
            p.bank_coins
        ));
    }
    if p.max_rounds == 0 || p.max_rounds > 100_000 {
        return bad(format!(
            "max_rounds = {} is outside 1..=100000",
            p.max_rounds
        ));
    }
    for (key, v) in [
        ("win_coins", &p.win_coins),
        ("win_coins_pro", &p.win_coins_pro),
    ] {
        if let Some(x) = v.values().iter().find(|&&x| !(8..=80).contains(&x)) {
            return bad(format!("{key} = {x} is outside 8..=80"));
        }
    }
    Ok(())
}

crate::param_set! {
    /// Q.A.X. rule variants: every ASSUMPTION ruling of docs/rules/qax.md, with its default.
    pub struct Params {
        /// Board shape 6x6, 4x9 or 3x12; the play area adds one ring (QAX-01, ASSUMPTION).
        pub board: BoardShape = BoardShape::B6x6,
        /// The 9 company names, no rules meaning (QAX-02, ASSUMPTION).
        pub company_names: CompanyNames = CompanyNames::default(),
        /// Coin goal: one value, or one per player count 2/3/4 (QAX-4.1, QAX-09).
        pub win_coins: PerCount<u32> = PerCount::by_count(vec![21, 14, 14]),
        /// Coin goal of the "Professional" version (QAX-4.1, QAX-09).
        pub win_coins_pro: PerCount<u32> = PerCount::by_count(vec![28, 21, 21]),
        /// Play the "Professional" version (QAX-09).
        pub professional: bool = false,
        /// Coins in the game, 80-90; the bank starts with bank_coins - 7 x players (QAX-09, DERIVED; below 83 ASSUMPTION).
        pub bank_coins: u32 = 90,
        /// Field layout at setup: random, or players (dealt hands, placement decisions) (QAX-03, QAX-14, ASSUMPTION).
        pub field_setup: FieldSetup = FieldSetup::Random,
        /// Who places fields and pieces first: start_player or left_of_start (QAX-03, ASSUMPTION).
        pub placement_first: PlacementFirst = PlacementFirst::StartPlayer,
        /// Pieces per placement turn: one_piece or one_stack (QAX-03, ASSUMPTION).
        pub piece_placement: PiecePlacement = PiecePlacement::OnePiece,
        /// Seat of the first start player, or random (QAX-13, ASSUMPTION).
        pub first_start_player: FirstStart = FirstStart::Seat0,
        /// A Baisse charge with 0 coins: pay_what_you_can (nothing) or forbid_move (QAX-04, ASSUMPTION).
        pub baisse_when_broke: BaisseWhenBroke = BaisseWhenBroke::PayWhatYouCan,
        /// What a diagonal move needs besides its destination field (QAX-06, ASSUMPTION).
        pub diagonal_rule: DiagonalRule = DiagonalRule::DestinationOnly,
        /// Start-position rule: destination stack only, or any_stack (also the stack left behind) (QAX-07, ASSUMPTION).
        pub start_rule: StartRule = StartRule::Destination,
        /// Owner income before or after the trade of a move (QAX-08, ASSUMPTION).
        pub income_timing: IncomeTiming = IncomeTiming::BeforeTrade,
        /// Several own stacks may attack one opponent stack together (QAX-08, ASSUMPTION).
        pub combined_attack: bool = true,
        /// Relocation of an attacked double or triple: whole (rule a) or split (rule b) (QAX-08, QAX-11, ASSUMPTION).
        pub attack_relocation: Relocation = Relocation::Whole,
        /// An attack whose forced purchase cannot be paid: illegal or no_purchase (QAX-08, ASSUMPTION).
        pub unaffordable_attack: UnaffordableAttack = UnaffordableAttack::Illegal,
        /// Trade on an attack move: normal or none (QAX-10, ASSUMPTION).
        pub trade_after_attack: TradeAfterAttack = TradeAfterAttack::Normal,
        /// Any legal move may be made even if movements are then lost; false: only moves keeping a full 3-movement sequence possible, while one exists (QAX-12, ASSUMPTION).
        pub allow_forfeit_moves: bool = true,
        /// The game ends with round_limit after this round, 1..=100000 (QAX-15, ASSUMPTION).
        pub max_rounds: u32 = 1000,
        /// Ranking at the round limit: none (coins) or coins_plus_shares (QAX-15, ASSUMPTION).
        pub limit_tiebreak: LimitTiebreak = LimitTiebreak::None,
        /// End-of-game bonus per seat in coins, added before ranking: seat 0 first, `/`-separated (`0/0.5`), 0 for seats not given (QAX-15.1; a compensation knob for `sim balance`, not in the rulebook).
        pub komi: crate::game::Komi = crate::game::Komi::NONE,
        /// Starting coins added per seat: seat 0 first, `/`-separated (`0/2`), 0 for seats not given, negative takes away; paid from (or returned to) the bank, each start below the coin goal (QAX-2.6; a compensation knob for `sim balance`, not in the rulebook).
        pub seat_coins: crate::game::SeatBonus = crate::game::SeatBonus::NONE,
    }
    validate = check;
}
