//! Q.A.X.'s game log ([`crate::games::log`]): moves in words (which stack goes from which
//! field to which, which vacant field is shifted where, which share is bought or sold at
//! what price, how the start player rates each company), then what they caused: owner
//! income (who receives or pays, and why: the company owned and its rating), attacks and
//! the forced purchase (or why there is none), companies won or lost, the coins after the
//! ply, the round's Index once set, whose turn and round it is, and how the game ended.
//! The final breakdown accounts for each seat's coins: 7 at the start + owner income +
//! trading + forced purchases received − forced purchases paid.
//!
//! Everything is public once the fields are placed. Under `field_setup=players` the field
//! a seat chooses from its hand is private until it is placed (the next ply names it), so
//! a seat audience is told only "chooses a field from their hand" for another seat.

use super::board::{DIR_NAMES, cell_name};
use super::state::{S_ATTACKS, S_FORCED_GOT, S_FORCED_PAID, S_INCOME, S_TRADE};
use super::{Action, Kind, NUM_COMPANIES, Phase, Rating, START_COINS, State};
use crate::game::{GameState, JointAction, Seat};
use crate::games::log::{Audience, GameLog};

/// One cell of the board as a seat sees it ([`table`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellView {
    /// The cell id (`row * GRID_W + col`), as the actions name it.
    pub cell: u8,
    /// Its name (`d3`).
    pub name: String,
    /// Row and column within the play area (board and ring), from 0.
    pub at: (usize, usize),
    /// The field lying here: its company index and number 1–4, or `None` (a vacant cell).
    pub field: Option<(usize, u8)>,
    /// The seat whose stack stands here, with its height.
    pub stack: Option<(Seat, u8)>,
}

/// What the table shows a seat ([`super::Observation`]), for drawn boards (`sim serve`):
/// the cells of the play area, the companies with their Index ratings, the bank, each
/// seat's coins and shares, the observer's own fields in hand, and whose turn it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableView {
    /// Rows and columns of the play area (the board and its ring).
    pub size: (usize, usize),
    /// Every cell of the play area, row by row.
    pub cells: Vec<CellView>,
    /// Each company's name, its rating this round (`Hausse`, ...; `None` when not yet
    /// rated) and the rating the start player has given it for the next round while the
    /// Index is being set.
    pub companies: Vec<(String, Option<&'static str>, Option<&'static str>)>,
    /// Coins in the bank.
    pub bank: u8,
    /// Per seat: coins and the shares held (`Dinero Bros 3`).
    pub seats: Vec<(u8, Vec<String>)>,
    /// The observer's fields in hand, not yet placed (`field_setup=players`).
    pub hand: Vec<String>,
    /// The seat to act, what it is doing ([`phase_text`]), the round and the
    /// movements left.
    pub turn: (Seat, String, u32, u8),
}

/// The table `o` shows its seat (every field read is public to it, or its own hand).
pub fn table(o: &super::Observation) -> TableView {
    let s = &o.view;
    let geo = &s.rules().get().data().geo;
    let (rows, cols) = (geo.rows + 2, geo.cols + 2);
    let mut cells = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let cell = (r * super::GRID_W + c) as u8;
            let field = s.field_at(cell).map(|f| (f as usize / 4, f % 4 + 1));
            let owner = s.owner[cell as usize];
            cells.push(CellView {
                cell,
                name: cell_name(cell),
                at: (r, c),
                field,
                stack: (owner != u8::MAX).then(|| (Seat::from(owner), s.height[cell as usize])),
            });
        }
    }
    let companies = (0..NUM_COMPANIES)
        .map(|c| {
            // new_index keeps its values after the Index is set: only while it is being
            // set are they the next round's.
            let setting = matches!(s.phase, Phase::SetIndex { .. });
            let next = Rating::ALL
                .iter()
                .find(|r| setting && **r as u8 == s.new_index[c])
                .map(|r| rating_name(*r));
            (
                company(s, c).to_string(),
                s.rating(c).map(rating_name),
                next,
            )
        })
        .collect();
    let n = s.rules().players();
    let seats = (0..n)
        .map(|p| {
            let shares = (0..super::NUM_FIELDS as u8)
                .filter(|&f| usize::from(s.share[f as usize]) == p)
                .map(|f| field(s, f))
                .collect();
            (s.coins[p], shares)
        })
        .collect();
    let hand = (0..super::NUM_FIELDS as u8)
        .filter(|&f| usize::from(s.dealt[f as usize]) == o.seat && s.at[f as usize] == u8::MAX)
        .map(|f| field(s, f))
        .collect();
    TableView {
        size: (rows, cols),
        cells,
        companies,
        bank: s.bank,
        seats,
        hand,
        turn: (Seat::from(s.actor), phase_text(s), s.round, s.left),
    }
}

/// The cell a move is made on or to, for a click on the board: the field lifted, put or
/// placed, the pieces placed or relocated, or where a movement arrives.
pub fn action_cell(before: &State, action: Action) -> Option<u8> {
    match action.kind()? {
        Kind::Lift(c) | Kind::Put(c) | Kind::PlaceField(c) => Some(c),
        Kind::Pieces(c, _) | Kind::Relocate(c, _) => Some(c),
        Kind::Move(..) => arrival(before, action),
        _ => None,
    }
}

/// The log, registered in [`crate::games::log::log`].
pub static LOG: &dyn GameLog<State> = &Log;

impl crate::games::log::Logged for State {
    fn log() -> &'static dyn GameLog<Self> {
        LOG
    }
}

/// Q.A.X.'s [`GameLog`].
#[derive(Debug, Clone, Copy)]
pub struct Log;

/// `Hausse`, with a capital as in the rulebook.
fn rating_name(r: Rating) -> &'static str {
    match r {
        Rating::Hausse => "Hausse",
        Rating::Nominale => "Nominale",
        Rating::Baisse => "Baisse",
    }
}

/// What the actor is doing, in words, for the board's heading: `rates Dinero Bros on the
/// Index`, `moves`, `relocates 2 pieces of seat 1`, ...
pub fn phase_text(s: &State) -> String {
    match s.phase {
        Phase::ChooseField => "chooses a field of their hand to place".into(),
        Phase::PlaceField { field: f } => format!("places the field {}", field(s, f)),
        Phase::PlacePieces => "places pieces".into(),
        Phase::SetIndex { company: c } => {
            format!("rates {} on the Index", company(s, usize::from(c)))
        }
        Phase::Lift => "may shift a vacant field".into(),
        Phase::Put { from } => format!("puts the field lifted from {} on a cell", cell_name(from)),
        Phase::Move => "moves".into(),
        Phase::Join { target, need, .. } => format!(
            "gathers {need} more {} for the attack on {}",
            if need == 1 { "piece" } else { "pieces" },
            cell_name(target)
        ),
        Phase::Relocate { victim, left, .. } => format!(
            "relocates {left} {} of seat {victim}",
            if left == 1 { "piece" } else { "pieces" }
        ),
        Phase::Trade => "may trade on the field moved to".into(),
        Phase::Over => "the game is over".into(),
    }
}

fn company(s: &State, c: usize) -> &'static str {
    &s.rules().get().data().names[c]
}

/// `Dinero Bros 3`: field id `f` (company `f / 4`, number `f % 4 + 1`).
fn field(s: &State, f: u8) -> String {
    format!("{} {}", company(s, f as usize / 4), f % 4 + 1)
}

/// `d3 (Dinero Bros 3)`, or `d3 (empty)`.
fn place(s: &State, cell: u8) -> String {
    match s.field_at(cell) {
        Some(f) => format!("{} ({})", cell_name(cell), field(s, f)),
        None => format!("{} (empty)", cell_name(cell)),
    }
}

fn pieces(h: u8) -> String {
    if h == 1 {
        "1 piece".to_string()
    } else {
        format!("{h} pieces")
    }
}

fn coins(x: i32) -> String {
    if x.abs() == 1 {
        format!("{x} coin")
    } else {
        format!("{x} coins")
    }
}

/// The Index price of field `f` at `s`, with its rating: `2 coins (Nominale)`.
fn price(s: &State, f: u8) -> String {
    match s.rating(f as usize / 4) {
        Some(r) => format!("{} ({})", coins(i32::from(r.price())), rating_name(r)),
        None => coins(i32::from(s.index_price(f))),
    }
}

/// The cell a movement or its trade concerns: where the stack arrives (a movement, a
/// joining part), or the field moved to (trade, relocation).
fn arrival(before: &State, action: Action) -> Option<u8> {
    match action.kind()? {
        Kind::Move(s, d, _) => match before.phase {
            Phase::Join { target, .. } => Some(target),
            _ => Some(before.rules().get().data().geo.step[s as usize][d as usize]),
        },
        Kind::Pass | Kind::Buy | Kind::Sell | Kind::Relocate(..) => {
            (before.moved_to != u8::MAX).then_some(before.moved_to)
        }
        _ => None,
    }
}

fn stat(s: &State, p: Seat, k: usize) -> i32 {
    i32::from(s.stats[p][k])
}

/// `Hausse (price 3, owner income +2): Dinero Bros, C2, C3`: one line per rating.
fn index_line(s: &State, index: &[u8; NUM_COMPANIES]) -> String {
    Rating::ALL
        .iter()
        .map(|&r| {
            let names: Vec<&str> = (0..NUM_COMPANIES)
                .filter(|&c| index[c] == r as u8)
                .map(|c| company(s, c))
                .collect();
            format!(
                "{} (price {}, owner income {:+}): {}",
                rating_name(r),
                r.price(),
                r.income(),
                names.join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `C4-3`: field id `f` in the grid's short form (company number, field number).
fn short(f: u8) -> String {
    format!("C{}-{}", f / 4 + 1, f % 4 + 1)
}

/// A list, or `none`.
fn or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// The human view of observation `o`, every public field labelled (QAX: everything is
/// public but the other seats' unplaced fields under `field_setup=players`): the round,
/// the start player, the seat to act and what it is doing, the movements left, the coin
/// goal and the bank; the Index (and the new one while it is being set); the board as a
/// grid of fields and stacks; each seat's coins, stacks, shares, companies owned and
/// fields in hand; the field moved to (trade), the actor's stacks at the start of its
/// turn (QAX-07), an attack or relocation under way, and the winner.
pub fn human_view(o: &super::Observation) -> String {
    let s = &o.view;
    let t = table(o);
    let n = s.num_players();
    let goal = s.rules().get().data().goal;
    let mut out = String::new();
    let mut line = |x: String| {
        out.push_str(&x);
        out.push('\n');
    };
    let turn = matches!(
        s.phase,
        Phase::Lift | Phase::Put { .. } | Phase::Move | Phase::Join { .. } | Phase::Trade
    );
    line(format!(
        "{}; start player seat {}; seat {} to act: {}{}",
        crate::games::log::round_label(s.round),
        s.start,
        s.actor,
        phase_text(s),
        if turn {
            format!("; movements left {}", s.left)
        } else {
            String::new()
        }
    ));
    line(format!(
        "coin goal {goal} coins; bank {} coins; shares on the table (held by no seat): {}",
        s.bank,
        (0..super::NUM_FIELDS as u8)
            .filter(|&f| s.holder(f).is_none())
            .count()
    ));
    if s.rating(0).is_some() {
        line(format!("Index: {}", index_line(s, &s.index)));
    } else {
        line("Index: not set yet".into());
    }
    if let Phase::SetIndex { company: c } = s.phase {
        let given: Vec<String> = t
            .companies
            .iter()
            .take(usize::from(c))
            .map(|(name, _, next)| format!("{name} {}", next.unwrap_or("?")))
            .collect();
        line(format!(
            "the new Index so far: {}; to rate next: {}",
            or_none(&given),
            company(s, usize::from(c))
        ));
    }
    let named: Vec<String> = (0..NUM_COMPANIES)
        .filter(|&c| company(s, c) != format!("C{}", c + 1))
        .map(|c| format!("C{} is {}", c + 1, company(s, c)))
        .collect();
    line(format!(
        "board (a cell: its field, C4-3 = company C4's field 3, .. = no field; then the stack \
         on it, s1x3 = 3 pieces of seat 1){}:",
        if named.is_empty() {
            String::new()
        } else {
            format!("; {}", named.join(", "))
        }
    ));
    let (rows, cols) = t.size;
    let mut head = "   ".to_string();
    for c in 0..cols {
        head.push_str(&format!(" {:<9}", (b'a' + c as u8) as char));
    }
    line(head.trim_end().to_string());
    for r in 0..rows {
        let mut row = format!("{:>2} ", r + 1);
        for c in 0..cols {
            let cell = &t.cells[r * cols + c];
            let f = match cell.field {
                Some((company, number)) => short((company * 4) as u8 + number - 1),
                None => "..".into(),
            };
            let st = match cell.stack {
                Some((p, h)) => format!("s{p}x{h}"),
                None => String::new(),
            };
            row.push_str(&format!(" {:<9}", format!("{f} {st}").trim_end()));
        }
        line(row.trim_end().to_string());
    }
    for p in 0..n {
        let stacks: Vec<String> = t
            .cells
            .iter()
            .filter_map(|c| match c.stack {
                Some((q, h)) if q == p => Some(format!("{} {}", place(s, c.cell), pieces(h))),
                _ => None,
            })
            .collect();
        let owned: Vec<String> = (0..NUM_COMPANIES)
            .filter(|&c| s.owns(p, c))
            .map(|c| company(s, c).to_string())
            .collect();
        let (coins, shares) = &t.seats[p];
        let in_hand = (0..super::NUM_FIELDS)
            .filter(|&f| usize::from(s.dealt[f]) == p && s.at[f] == u8::MAX)
            .count();
        line(format!(
            "seat {p}{}: {coins} coins; stacks: {}; shares ({}): {}; owns: {}{}{}",
            if p == o.seat { " (you)" } else { "" },
            or_none(&stacks),
            shares.len(),
            or_none(shares),
            or_none(&owned),
            if matches!(
                s.phase,
                Phase::PlacePieces | Phase::ChooseField | Phase::PlaceField { .. }
            ) {
                format!("; pieces placed at setup {}", s.placed[p])
            } else {
                String::new()
            },
            if in_hand > 0 {
                format!("; fields in hand {in_hand}")
            } else {
                String::new()
            }
        ));
    }
    if !t.hand.is_empty() {
        line(format!("your fields in hand: {}", t.hand.join(", ")));
    }
    if turn {
        let start: Vec<String> = s
            .start_pos
            .iter()
            .filter(|[c, _]| *c != u8::MAX)
            .map(|&[c, h]| format!("{} {}", cell_name(c), pieces(h)))
            .collect();
        line(format!(
            "seat {}'s stacks at the start of the turn (QAX-07: a stack may move again only \
             from these): {}",
            s.actor,
            or_none(&start)
        ));
    }
    if s.moved_to != u8::MAX && matches!(s.phase, Phase::Trade | Phase::Relocate { .. }) {
        let share = match s.field_at(s.moved_to) {
            Some(f) => format!(
                "; its share is {}, at the Index price {}",
                match s.holder(f) {
                    Some(q) => format!("held by seat {q}"),
                    None => "on the table".into(),
                },
                price(s, f)
            ),
            None => String::new(),
        };
        line(format!(
            "the field moved to: {}{share}",
            place(s, s.moved_to)
        ));
    }
    match s.phase {
        Phase::Join { target, need, last } => line(format!(
            "combined attack on {}: {} still to join, from stacks after {} (QAX-08)",
            place(s, target),
            pieces(need),
            cell_name(last)
        )),
        Phase::Relocate {
            victim,
            left,
            last_h,
            last_cell,
        } => line(format!(
            "relocating seat {victim}'s attacked pieces: {} left to place{}",
            pieces(left),
            if last_cell == u8::MAX {
                String::new()
            } else {
                format!(
                    "; the last part: {} on {}",
                    pieces(last_h),
                    cell_name(last_cell)
                )
            }
        )),
        _ => {}
    }
    if let Some(w) = s.winner() {
        line(format!("seat {w} reached the coin goal and wins"));
    }
    out.trim_end().to_string()
}

impl GameLog<State> for Log {
    /// Every public field of the seat's observation, labelled ([`human_view`]).
    fn view(&self, state: &State, seat: Seat) -> String {
        human_view(&state.observation(seat))
    }

    /// The move in words, with its short form to type: `moves 1 piece from d3 (C3 1) ne
    /// to e2 (Dinero Bros 4) [move 1 d3 ne]`.
    fn move_name(&self, before: &State, seat: Seat, action: Action) -> String {
        let text = self.action(
            before,
            seat,
            action,
            Audience::Seats(crate::game::SeatSet::single(seat)),
        );
        let text = text.strip_prefix(&format!("seat {seat} ")).unwrap_or(&text);
        format!("{text} [{action}]")
    }

    /// Every decision is visible on the board once applied, except the choice of a field
    /// from a hand (`field_setup=players`), which the next ply (placing it) reveals.
    fn public_action(&self, _before: &State, _seat: Seat, action: Action) -> bool {
        !matches!(action.kind(), Some(Kind::ChooseField(_)))
    }

    fn action(&self, before: &State, seat: Seat, action: Action, audience: Audience) -> String {
        let who = format!("seat {seat}");
        let Some(kind) = action.kind() else {
            return format!("{who} plays {action}");
        };
        match kind {
            Kind::ChooseField(f) => {
                if audience.knows_private(seat) {
                    format!("{who} chooses {} from their hand", field(before, f))
                } else {
                    format!("{who} chooses a field from their hand")
                }
            }
            Kind::PlaceField(c) => match before.phase {
                Phase::PlaceField { field: f } => {
                    format!("{who} places {} on {}", field(before, f), cell_name(c))
                }
                _ => format!("{who} places a field on {}", cell_name(c)),
            },
            Kind::Pieces(c, h) => format!("{who} places {} on {}", pieces(h), place(before, c)),
            Kind::Index(r) => match before.phase {
                Phase::SetIndex { company: c } => format!(
                    "{who} rates {} {} (price {}, owner income {:+})",
                    company(before, c as usize),
                    rating_name(r),
                    r.price(),
                    r.income()
                ),
                _ => format!("{who} rates {}", rating_name(r)),
            },
            Kind::NoShift => format!("{who} does not shift a field"),
            Kind::Lift(c) => format!("{who} lifts the vacant field {}", place(before, c)),
            Kind::Put(c) => match before.phase {
                Phase::Put { from } => match before.field_at(from) {
                    Some(f) => format!(
                        "{who} puts {} on {} (shifted from {})",
                        field(before, f),
                        cell_name(c),
                        cell_name(from)
                    ),
                    None => format!("{who} puts the lifted field on {}", cell_name(c)),
                },
                _ => format!("{who} puts the lifted field on {}", cell_name(c)),
            },
            Kind::Move(s, d, h) => {
                let from = place(before, s);
                if let Phase::Join { target, need, .. } = before.phase {
                    return format!(
                        "{who} joins the attack on {} with {} from {from} ({} of {need} still \
                         needed)",
                        cell_name(target),
                        pieces(h),
                        h
                    );
                }
                let t = arrival(before, action).expect("a move arrives on a cell");
                let mut line = format!(
                    "{who} moves {} from {from} {} to {}",
                    pieces(h),
                    DIR_NAMES[d as usize],
                    place(before, t)
                );
                if let Some((q, ht)) = before.stack(t)
                    && q != seat
                {
                    line.push_str(&format!(", attacking seat {q}'s stack of {}", pieces(ht)));
                }
                line
            }
            Kind::Relocate(c, h) => match before.phase {
                Phase::Relocate { victim, .. } => format!(
                    "{who} relocates {} of seat {victim}'s attacked stack to {}",
                    pieces(h),
                    place(before, c)
                ),
                _ => format!("{who} relocates {} to {}", pieces(h), place(before, c)),
            },
            Kind::Pass => match arrival(before, action).and_then(|t| before.field_at(t)) {
                Some(f) => format!("{who} does not trade the share {}", field(before, f)),
                None => format!("{who} does not trade"),
            },
            Kind::Buy | Kind::Sell => {
                let verb = if kind == Kind::Buy { "buys" } else { "sells" };
                match arrival(before, action).and_then(|t| before.field_at(t)) {
                    Some(f) => format!(
                        "{who} {verb} the share {} for {}",
                        field(before, f),
                        price(before, f)
                    ),
                    None => format!("{who} {verb} a share"),
                }
            }
        }
    }

    fn consequences(
        &self,
        before: &State,
        joint: &JointAction<Action>,
        after: &State,
        _audience: Audience,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let me = before.actor as Seat;
        let Some(action) = joint[me] else {
            return out;
        };
        let n = before.num_players();
        let goal = before.rules().get().data().goal;
        let target = arrival(before, action);

        // A combined attack under way.
        if let Phase::Join {
            target: t, need, ..
        } = after.phase
        {
            out.push(format!(
                "combined attack on {}: {} more must join from seat {me}'s other stacks",
                cell_name(t),
                pieces(need)
            ));
        }

        // Owner income on arrival (QAX-3.8; QAX-08 `income_timing`).
        for p in 0..n {
            let got = stat(after, p, S_INCOME) - stat(before, p, S_INCOME);
            if got == 0 {
                continue;
            }
            let why = match target.and_then(|t| after.field_at(t).or(before.field_at(t))) {
                Some(f) => {
                    let c = f as usize / 4;
                    let r = after.rating(c).map_or("unrated", rating_name);
                    format!(
                        "seat {p} owns {} (all 4 shares) and arrived on {}, rated {r}",
                        company(after, c),
                        field(after, f)
                    )
                }
                None => format!("seat {p} arrived on a company it owns"),
            };
            if got > 0 {
                out.push(format!(
                    "owner income: seat {p} receives {} from the bank ({why})",
                    coins(got)
                ));
            } else {
                out.push(format!(
                    "owner income: seat {p} pays {} to the bank ({why})",
                    coins(-got)
                ));
            }
        }

        // An attack resolved (QAX-3.9): the forced purchase, or why there is none.
        if stat(after, me, S_ATTACKS) > stat(before, me, S_ATTACKS)
            && let Some(t) = target
        {
            let (victim, h) = before.stack(t).unwrap_or((me, 0));
            let f = before.field_at(t);
            out.push(format!(
                "seat {me} takes seat {victim}'s stack of {} on {}",
                pieces(h),
                place(before, t)
            ));
            let paid = stat(after, me, S_FORCED_PAID) - stat(before, me, S_FORCED_PAID);
            if let Some(f) = f {
                let c = f as usize / 4;
                if paid > 0 {
                    out.push(format!(
                        "forced purchase: seat {me} must buy seat {victim}'s share {} at the \
                         Index price and pays {} to seat {victim}",
                        field(before, f),
                        coins(paid)
                    ));
                } else if before.holder(f) != Some(victim) {
                    out.push(format!(
                        "no forced purchase: seat {victim} does not hold the share {}",
                        field(before, f)
                    ));
                } else if before.owns(victim, c) {
                    out.push(format!(
                        "no forced purchase: seat {victim} owns {} and keeps the share",
                        company(before, c)
                    ));
                } else {
                    out.push(format!(
                        "no forced purchase: seat {me} cannot pay {} (the share stays with \
                         seat {victim})",
                        price(before, f)
                    ));
                }
            }
            if let Phase::Relocate { left, .. } = after.phase {
                out.push(format!(
                    "seat {me} must relocate seat {victim}'s {} onto vacant fields",
                    pieces(left)
                ));
            }
        }

        // A sale the bank could not pay in full (QAX-09).
        if action == Action::SELL
            && let Some(f) = target.and_then(|t| before.field_at(t))
        {
            let got = stat(after, me, S_TRADE) - stat(before, me, S_TRADE);
            if got < i32::from(before.index_price(f)) {
                out.push(format!(
                    "the bank holds only {}: seat {me} receives {}",
                    coins(i32::from(before.bank())),
                    coins(got)
                ));
            }
        }

        // Companies won or lost (QAX-3.8).
        for p in 0..n {
            for c in 0..NUM_COMPANIES {
                match (before.owns(p, c), after.owns(p, c)) {
                    (false, true) => out.push(format!(
                        "seat {p} now owns {} (all 4 shares): each arrival on its fields pays \
                         seat {p} its owner income",
                        company(after, c)
                    )),
                    (true, false) => {
                        out.push(format!("seat {p} no longer owns {}", company(after, c)))
                    }
                    _ => {}
                }
            }
        }

        // The coins after the ply, when they moved.
        if before.coins() != after.coins() {
            let parts: Vec<String> = (0..n)
                .map(|p| {
                    let d = i32::from(after.coins()[p]) - i32::from(before.coins()[p]);
                    if d == 0 {
                        format!("seat {p} {}", after.coins()[p])
                    } else {
                        format!("seat {p} {} ({d:+})", after.coins()[p])
                    }
                })
                .collect();
            out.push(format!(
                "coins: {}; bank {} (goal {goal})",
                parts.join(", "),
                after.bank()
            ));
        }

        // The Index, once the start player has rated every company.
        if let Phase::SetIndex { company: c } = before.phase
            && !matches!(after.phase, Phase::SetIndex { .. })
        {
            let forced: Vec<&str> = (c as usize + 1..NUM_COMPANIES)
                .map(|k| company(after, k))
                .collect();
            if !forced.is_empty()
                && let Some(r) = after.rating(NUM_COMPANIES - 1)
            {
                out.push(format!(
                    "{} rated {} (3 companies per rating)",
                    forced.join(", "),
                    rating_name(r)
                ));
            }
            out.push(format!(
                "the Index for round {}: {}",
                after.round,
                index_line(after, &after.index)
            ));
        }

        // The end, or whose turn it is.
        match after.turn() {
            crate::game::Turn::Terminal => match after.winner() {
                Some(w) => out.push(format!(
                    "seat {w} reaches {} coins, the goal of {goal}: the game ends and seat {w} \
                     wins",
                    after.coins()[w]
                )),
                None => out.push(format!(
                    "round {} was the last (max_rounds): the game ends, ranked by coins",
                    after.round
                )),
            },
            _ => {
                if matches!(after.phase, Phase::SetIndex { company: 0 })
                    && !matches!(before.phase, Phase::SetIndex { .. })
                {
                    if before.round == 0 {
                        out.push(format!(
                            "setup done: seat {} is the start player and sets the first Index",
                            after.start
                        ));
                    } else {
                        out.push(format!(
                            "round {} ends; round {} begins: seat {} is the start player and \
                             sets the new Index",
                            before.round, after.round, after.start
                        ));
                    }
                } else if after.actor != before.actor
                    && matches!(after.phase, Phase::Lift | Phase::Move)
                {
                    if !matches!(
                        before.phase,
                        Phase::SetIndex { .. }
                            | Phase::ChooseField
                            | Phase::PlaceField { .. }
                            | Phase::PlacePieces
                    ) {
                        out.push(format!("seat {me}'s turn ends"));
                    }
                    out.push(format!("seat {}'s turn (3 movements)", after.actor));
                }
            }
        }
        out
    }

    /// Each seat's coins accounted for, its shares and companies.
    fn breakdown(&self, end: &State) -> Vec<String> {
        let n = end.num_players();
        let mut out = Vec::new();
        for p in 0..n {
            let (inc, trade, got, paid) = (
                stat(end, p, S_INCOME),
                stat(end, p, S_TRADE),
                stat(end, p, S_FORCED_GOT),
                stat(end, p, S_FORCED_PAID),
            );
            out.push(format!(
                "seat {p}: {} coins = {START_COINS} at the start {inc:+} owner income {trade:+} \
                 trading (sales − purchases) +{got} received − {paid} paid in forced purchases",
                end.coins()[p]
            ));
            let shares: Vec<String> = (0..super::NUM_FIELDS as u8)
                .filter(|&f| end.holder(f) == Some(p))
                .map(|f| field(end, f))
                .collect();
            let owned: Vec<&str> = (0..NUM_COMPANIES)
                .filter(|&c| end.owns(p, c))
                .map(|c| company(end, c))
                .collect();
            out.push(format!(
                "seat {p} holds {} share{}{}{}",
                shares.len(),
                if shares.len() == 1 { "" } else { "s" },
                if shares.is_empty() {
                    String::new()
                } else {
                    format!(": {}", shares.join(", "))
                },
                if owned.is_empty() {
                    String::new()
                } else {
                    format!("; owns {}", owned.join(", "))
                }
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{SeatSet, Turn, rules};
    use crate::games::qax::board::parse_cell;
    use crate::games::qax::{Params, Rating};
    use crate::params::ParamSet;
    use crate::rng::test_rng;

    fn c(name: &str) -> u8 {
        parse_cell(name).unwrap()
    }

    use crate::games::qax::tests::table;

    fn put(s: &mut State, p: u8, cell: &str, h: u8) {
        s.add_pieces(p, c(cell), h);
        s.placed[p as usize] += h;
    }

    /// Plays `moves` (text form) and returns every log line for `audience`.
    fn told(s: &mut State, moves: &[&str], audience: Audience) -> Vec<String> {
        let log = crate::games::log::log::<State>();
        let mut out = Vec::new();
        for m in moves {
            let Turn::Player(p) = s.turn() else {
                panic!("game over before {m}")
            };
            let a = State::parse_action(m).unwrap();
            let before = s.clone();
            s.apply(p, a, &mut test_rng(0))
                .unwrap_or_else(|e| panic!("{m}: {e}"));
            let mut joint = [None; 4];
            joint[p] = Some(a);
            out.push(log.action(&before, p, a, audience));
            out.extend(log.consequences(&before, &joint, s, audience));
        }
        out
    }

    #[test]
    fn a_buy_and_owner_income_are_told_with_prices_and_reasons() {
        let mut s = table(2, &[]);
        for f in 0..3 {
            s.share[f] = 0; // seat 0 holds Dinero Bros 1-3 (b2, c2, d2); 4 (e2) is free.
        }
        put(&mut s, 0, "d3", 3);
        put(&mut s, 1, "g7", 3);
        s.begin_turn(0);
        let moves = [
            "noshift",
            "move 1 d3 ne",
            "buy",
            "move 1 d3 nw",
            "pass",
            "move 1 d3 n",
            "pass",
        ];
        let l = told(&mut s, &moves, Audience::All);
        let income = |f: &str| {
            format!(
                "owner income: seat 0 receives 2 coins from the bank (seat 0 owns Dinero Bros \
                 (all 4 shares) and arrived on Dinero Bros {f}, rated Hausse)"
            )
        };
        assert_eq!(
            l,
            [
                "seat 0 does not shift a field".to_string(),
                "seat 0 moves 1 piece from d3 (C3 1) ne to e2 (Dinero Bros 4)".into(),
                "seat 0 buys the share Dinero Bros 4 for 3 coins (Hausse)".into(),
                "seat 0 now owns Dinero Bros (all 4 shares): each arrival on its fields pays \
                 seat 0 its owner income"
                    .into(),
                "coins: seat 0 4 (-3), seat 1 7; bank 79 (goal 21)".into(),
                "seat 0 moves 1 piece from d3 (C3 1) nw to c2 (Dinero Bros 2)".into(),
                income("2"),
                "coins: seat 0 6 (+2), seat 1 7; bank 77 (goal 21)".into(),
                "seat 0 does not trade the share Dinero Bros 2".into(),
                "seat 0 moves 1 piece from d3 (C3 1) n to d2 (Dinero Bros 3)".into(),
                income("3"),
                "coins: seat 0 8 (+2), seat 1 7; bank 75 (goal 21)".into(),
                "seat 0 does not trade the share Dinero Bros 3".into(),
                "seat 0's turn ends".into(),
                "seat 1's turn (3 movements)".into(),
            ]
        );
    }

    #[test]
    fn an_attack_tells_the_forced_purchase_and_the_relocation() {
        let mut s = table(2, &[]);
        put(&mut s, 0, "d4", 3);
        put(&mut s, 1, "e4", 3);
        s.share[15] = 1; // e4 = C4 4, Nominale: 2 coins
        s.begin_turn(0);
        let l = told(
            &mut s,
            &["noshift", "move 3 d4 e", "relocate 3 b2"],
            Audience::All,
        );
        assert_eq!(l[0], "seat 0 does not shift a field");
        assert_eq!(
            l[1],
            "seat 0 moves 3 pieces from d4 (C4 3) e to e4 (C4 4), attacking seat 1's stack \
             of 3 pieces"
        );
        assert_eq!(
            l[2..6],
            [
                "seat 0 takes seat 1's stack of 3 pieces on e4 (C4 4)",
                "forced purchase: seat 0 must buy seat 1's share C4 4 at the Index price and \
                 pays 2 coins to seat 1",
                "seat 0 must relocate seat 1's 3 pieces onto vacant fields",
                "coins: seat 0 5 (-2), seat 1 9 (+2); bank 76 (goal 21)",
            ]
        );
        assert_eq!(
            l[6],
            "seat 0 relocates 3 pieces of seat 1's attacked stack to b2 (Dinero Bros 1)"
        );
        assert_eq!(
            l[7..],
            ["seat 0's turn ends", "seat 1's turn (3 movements)"]
        );

        // The owner keeps the share: no purchase, and the log says why.
        let mut t = table(2, &[]);
        put(&mut t, 0, "d4", 3);
        put(&mut t, 1, "e4", 3);
        for f in 12..16 {
            t.share[f] = 1;
        }
        t.begin_turn(0);
        let l = told(&mut t, &["noshift", "move 3 d4 e"], Audience::All);
        assert!(
            l.contains(&"no forced purchase: seat 1 owns C4 and keeps the share".to_string()),
            "{l:#?}"
        );
        assert!(!l.iter().any(|x| x.starts_with("coins:")), "{l:#?}");
    }

    #[test]
    fn the_index_and_the_new_round_are_announced() {
        let mut s = table(2, &[]);
        put(&mut s, 0, "b2", 3);
        put(&mut s, 1, "g7", 3);
        s.round = 3;
        s.start = 1;
        s.start_index();
        let moves = ["baisse", "baisse", "baisse", "hausse", "hausse", "hausse"];
        let l = told(&mut s, &moves, Audience::All);
        assert_eq!(
            l[0],
            "seat 1 rates Dinero Bros Baisse (price 1, owner income -1)"
        );
        let n = l.len();
        assert_eq!(
            l[n - 3..],
            [
                "C7, C8, C9 rated Nominale (3 companies per rating)",
                "the Index for round 3: Hausse (price 3, owner income +2): C4, C5, C6; \
                 Nominale (price 2, owner income +1): C7, C8, C9; Baisse (price 1, owner \
                 income -1): Dinero Bros, C2, C3",
                "seat 0's turn (3 movements)",
            ]
        );
    }

    /// Random 2- and 4-player games: the breakdown's account adds up to each seat's coins,
    /// every change of coins is followed by a `coins:` line that names the new amounts, and
    /// the last line tells the end.
    #[test]
    fn random_games_account_for_every_coin() {
        use crate::game::Chance;
        let log = crate::games::log::log::<State>();
        for (players, seed) in [(2, 1), (4, 2)] {
            let r = rules::<State>(&Params::default(), players).unwrap();
            let mut rng = test_rng(seed);
            let mut s = State::new_game(r, &mut rng);
            let mut legal = Vec::new();
            let mut last = Vec::new();
            while let Turn::Player(p) = s.turn() {
                s.legal_actions(p, &mut legal);
                let a = legal[rng.below(legal.len() as u32) as usize];
                let before = s.clone();
                s.apply(p, a, &mut rng).unwrap();
                let mut joint = [None; 4];
                joint[p] = Some(a);
                last = log.consequences(&before, &joint, &s, Audience::All);
                if before.coins() != s.coins() {
                    let want: Vec<String> = (0..players)
                        .map(|q| format!("seat {q} {}", s.coins()[q]))
                        .collect();
                    let line = last.iter().find(|x| x.starts_with("coins:")).unwrap();
                    for w in want {
                        assert!(line.contains(&w), "{line}");
                    }
                }
                if s.ply() > 20_000 {
                    break;
                }
            }
            if s.turn().is_terminal() {
                assert!(last.last().unwrap().contains("the game ends"), "{last:?}");
            }
            let b = log.breakdown(&s);
            for p in 0..players {
                // `seat 0: 21 coins = 7 at the start +8 owner income +4 trading (...) +2
                // received − 0 paid in forced purchases`: the terms add up to the coins.
                let line = &b[2 * p];
                let nums: Vec<i32> = line
                    .split_whitespace()
                    .filter_map(|w| w.trim_end_matches(':').parse().ok())
                    .collect();
                assert_eq!(nums.len(), 7, "{line}");
                assert_eq!(nums[0], p as i32, "{line}");
                assert_eq!(nums[1], i32::from(s.coins()[p]), "{line}");
                assert_eq!(
                    nums[1],
                    nums[2] + nums[3] + nums[4] + nums[5] - nums[6],
                    "{line}"
                );
            }
        }
    }

    /// The human view labels every public field of the observation (issue 25): the test
    /// walks the fields of the observation tensor (module docs of `qax`) and checks each
    /// appears, labelled, in random games at 2 and 4 players and under
    /// `field_setup=players`, for the actor and for another seat.
    #[test]
    fn the_human_view_labels_every_public_field() {
        let mut met = [false; 6]; // set Index, trade, join, relocate, hand, over
        for (players, setting, seed) in [
            (2, None, 3),
            (4, None, 4),
            (3, Some("field_setup=players"), 5),
            (2, None, 6),
            (2, None, 7),
        ] {
            let params = match setting {
                Some(x) => Params::from_settings(&[x], "test").unwrap(),
                None => Params::default(),
            };
            let r = rules::<State>(&params, players).unwrap();
            let mut rng = test_rng(seed);
            use crate::game::Chance;
            let mut s = State::new_game(r, &mut rng);
            let mut legal = Vec::new();
            for _ in 0..3000 {
                let actor = usize::from(s.actor);
                for seat in [actor, (actor + 1) % players] {
                    check_view(&s, seat, &mut met);
                }
                let Turn::Player(p) = s.turn() else { break };
                s.legal_actions(p, &mut legal);
                let a = legal[rng.below(legal.len() as u32) as usize];
                s.apply(p, a, &mut rng).unwrap();
            }
        }
        // A combined attack (rare in random play; QAX-3.9's example) and a won game.
        let mut s = table(2, &[]);
        put(&mut s, 0, "d4", 1);
        put(&mut s, 0, "d6", 1);
        put(&mut s, 1, "d5", 2);
        put(&mut s, 1, "g7", 1);
        s.begin_turn(0);
        told(&mut s, &["noshift", "move 1 d4 s"], Audience::All);
        check_view(&s, 0, &mut met);
        check_view(&s, 1, &mut met);
        s.coins[1] = s.rules().get().data().goal;
        s.winner = 1;
        s.phase = Phase::Over;
        check_view(&s, 0, &mut met);
        assert_eq!(
            met, [true; 6],
            "set Index, trade, join, relocate, hand, over"
        );
    }

    fn check_view(state: &State, seat: Seat, met: &mut [bool; 6]) {
        let o = state.observation(seat);
        let view = human_view(&o);
        let s = &o.view;
        let n = s.num_players();
        let mut want: Vec<(&str, String)> = vec![
            (
                "phase, actor",
                format!("seat {} to act: {}", s.actor, phase_text(s)),
            ),
            ("start_player", format!("start player seat {}", s.start)),
            (
                "round",
                format!("{};", crate::games::log::round_label(s.round)),
            ),
            ("bank", format!("bank {} coins", s.bank)),
            (
                "goal",
                format!("coin goal {} coins", s.rules().get().data().goal),
            ),
        ];
        let turn = matches!(
            s.phase,
            Phase::Lift | Phase::Put { .. } | Phase::Move | Phase::Join { .. } | Phase::Trade
        );
        if turn {
            want.push(("movements_left", format!("movements left {}", s.left)));
            let start: Vec<String> = s
                .start_pos
                .iter()
                .filter(|[c, _]| *c != u8::MAX)
                .map(|&[c, h]| format!("{} {}", cell_name(c), pieces(h)))
                .collect();
            want.push((
                "cell_turn_start",
                format!(
                    "start of the turn (QAX-07: a stack may move again only from these): {}",
                    or_none(&start)
                ),
            ));
        }
        match s.rating(0) {
            Some(_) => want.push(("index", format!("Index: {}", index_line(s, &s.index)))),
            None => want.push(("index", "Index: not set yet".into())),
        }
        if let Phase::SetIndex { company: c } = s.phase {
            met[0] = true;
            let given: Vec<String> = (0..usize::from(c))
                .map(|k| {
                    format!(
                        "{} {}",
                        company(s, k),
                        rating_name(Rating::ALL[usize::from(s.new_index[k])])
                    )
                })
                .collect();
            want.push((
                "new_index",
                format!("the new Index so far: {}", or_none(&given)),
            ));
            want.push((
                "index_company",
                format!("to rate next: {}", company(s, usize::from(c))),
            ));
        }
        for p in 0..n {
            let you = if p == seat { " (you)" } else { "" };
            want.push(("coins", format!("seat {p}{you}: {} coins", s.coins[p])));
            let shares: Vec<String> = (0..super::super::NUM_FIELDS as u8)
                .filter(|&f| s.holder(f) == Some(p))
                .map(|f| field(s, f))
                .collect();
            want.push((
                "shares",
                format!("shares ({}): {}", shares.len(), or_none(&shares)),
            ));
            if matches!(
                s.phase,
                Phase::PlacePieces | Phase::ChooseField | Phase::PlaceField { .. }
            ) {
                want.push(("placed", format!("pieces placed at setup {}", s.placed[p])));
            }
            let in_hand = (0..super::super::NUM_FIELDS)
                .filter(|&f| usize::from(s.dealt[f]) == p && s.at[f] == u8::MAX)
                .count();
            if in_hand > 0 {
                met[4] = true;
                want.push(("hand_sizes", format!("fields in hand {in_hand}")));
            }
        }
        let hand: Vec<String> = (0..super::super::NUM_FIELDS as u8)
            .filter(|&f| usize::from(s.dealt[f as usize]) == seat && s.at[f as usize] == u8::MAX)
            .map(|f| field(s, f))
            .collect();
        if !hand.is_empty() {
            want.push(("hand", format!("your fields in hand: {}", hand.join(", "))));
        }
        match s.phase {
            Phase::PlaceField { field: f } => {
                want.push(("chosen_field", format!("places the field {}", field(s, f))))
            }
            Phase::Put { from } => want.push((
                "cell_marks (lifted)",
                format!("lifted from {}", cell_name(from)),
            )),
            Phase::Trade => {
                met[1] = true;
                want.push((
                    "cell_marks (moved to)",
                    format!("the field moved to: {}", place(s, s.moved_to)),
                ));
            }
            Phase::Join { target, need, .. } => {
                met[2] = true;
                want.push((
                    "attack (needed), cell_marks (attacked)",
                    format!(
                        "combined attack on {}: {} still to join",
                        place(s, target),
                        pieces(need)
                    ),
                ));
            }
            Phase::Relocate {
                victim,
                left,
                last_h,
                last_cell,
            } => {
                met[3] = true;
                want.push((
                    "victim, attack (left)",
                    format!(
                        "relocating seat {victim}'s attacked pieces: {} left",
                        pieces(left)
                    ),
                ));
                if last_cell != u8::MAX {
                    want.push((
                        "attack (last part), cell_marks (last)",
                        format!(
                            "the last part: {} on {}",
                            pieces(last_h),
                            cell_name(last_cell)
                        ),
                    ));
                }
            }
            Phase::Over => met[5] = true,
            _ => {}
        }
        if let Some(w) = s.winner() {
            want.push(("winner", format!("seat {w} reached the coin goal")));
        }
        for (field, text) in want {
            assert!(view.contains(&text), "{field}: no '{text}' in\n{view}");
        }
        // Every cell of the grid: its field and stack under its column, in its row.
        let geo = &s.rules().get().data().geo;
        let rows: Vec<&str> = view.lines().collect();
        let top = rows.iter().position(|l| l.starts_with("board (")).unwrap() + 2;
        for r in 0..geo.rows + 2 {
            let row = rows[top + r];
            assert!(row.starts_with(&format!("{:>2} ", r + 1)), "{row}");
            for c in 0..geo.cols + 2 {
                let cell = (r * super::super::GRID_W + c) as u8;
                let token = row.get(3 + 10 * c + 1..).unwrap_or("");
                let token = token.get(..9.min(token.len())).unwrap_or(token).trim();
                let f = match s.field_at(cell) {
                    Some(f) => short(f),
                    None => "..".into(),
                };
                let want = match s.stack(cell) {
                    Some((p, h)) => format!("{f} s{p}x{h}"),
                    None => f,
                };
                assert_eq!(
                    token,
                    want,
                    "cell_field, cell_company, cell_number, cell_stack at {}\n{view}",
                    cell_name(cell)
                );
                if let Some((p, h)) = s.stack(cell) {
                    let seat_line = rows
                        .iter()
                        .find(|l| {
                            l.starts_with(&format!("seat {p}")) && l.contains("coins; stacks:")
                        })
                        .unwrap();
                    assert!(
                        seat_line.contains(&format!("{} {}", place(s, cell), pieces(h))),
                        "cell_stack: {seat_line}"
                    );
                }
            }
        }
    }

    /// Under `field_setup=players` the field chosen from a hand is named only to its seat
    /// (and to everyone in a replay); placing it then names it for all.
    #[test]
    fn a_chosen_field_stays_in_the_hand_until_placed() {
        let log = crate::games::log::log::<State>();
        let r = rules::<State>(
            &Params::from_settings(&["field_setup=players"], "test").unwrap(),
            2,
        )
        .unwrap();
        let mut rng = test_rng(7);
        let s = State::new_game(r, &mut rng);
        let Turn::Player(p) = s.turn() else { panic!() };
        assert_eq!(s.phase, Phase::ChooseField);
        let mut legal = Vec::new();
        s.legal_actions(p, &mut legal);
        let a = legal[0];
        let Some(Kind::ChooseField(f)) = a.kind() else {
            panic!("{a}")
        };
        let name = field(&s, f);
        let other = Audience::Seats(SeatSet::single(1 - p));
        let own = Audience::Seats(SeatSet::single(p));
        let mut after = s.clone();
        after.apply(p, a, &mut rng).unwrap();
        let mut joint = [None; 4];
        joint[p] = Some(a);
        let hidden = [
            vec![log.action(&s, p, a, other)],
            log.consequences(&s, &joint, &after, other),
        ]
        .concat()
        .join("\n");
        assert_eq!(hidden, format!("seat {p} chooses a field from their hand"));
        assert!(log.action(&s, p, a, own).contains(&name));
        assert!(log.action(&s, p, a, Audience::All).contains(&name));
        // Placing it is public.
        let mut placed = Vec::new();
        after.legal_actions(p, &mut placed);
        let line = log.action(&after, p, placed[0], other);
        assert!(line.contains(&name), "{line}");
    }
}
