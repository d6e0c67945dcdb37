//! Boards drawn in SVG for the page, one per game, each from **one seat's observation**
//! ([`GameState::observation`]) and that seat's legal moves, never from the whole state: a
//! board shows exactly what the seat may know. Elements that play a move carry
//! `data-action="<action id>"`, so the page plays it on a click.
//!
//! Games without a board of their own get none; the page then shows the game log's text
//! view ([`crate::games::log::GameLog::view`]) alone.

use std::any::Any;
use std::fmt::Write;

use crate::game::{GameState, Playable, Seat};
use crate::games::{daimyo, daxu, dunhuang, qax};

/// The board of `state` as `seat` sees it, as an SVG document, or `None` for a game without
/// a board of its own.
pub fn board<G: Playable>(state: &G, seat: Seat) -> Option<String> {
    let any = state as &dyn Any;
    if let Some(s) = any.downcast_ref::<daxu::State>() {
        return Some(daxu_board(s, seat));
    }
    if let Some(s) = any.downcast_ref::<dunhuang::State>() {
        return Some(dunhuang_board(s, seat));
    }
    if let Some(s) = any.downcast_ref::<qax::State>() {
        return Some(qax_board(s, seat));
    }
    if let Some(s) = any.downcast_ref::<daimyo::State>() {
        return Some(daimyo_board(s, seat));
    }
    None
}

/// Text made safe for SVG/HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A small SVG writer: every shape in user units of a `w × h` view box.
struct Svg {
    out: String,
}

impl Svg {
    fn new(w: u32, h: u32, label: &str) -> Self {
        let mut out = String::with_capacity(8192);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" role="img" aria-label="{}" class="board">"#,
            escape(label)
        );
        Svg { out }
    }

    /// A rectangle; `action` makes it a clickable move, `title` a tooltip.
    #[allow(clippy::too_many_arguments)]
    fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: &str,
        stroke: &str,
        action: Option<usize>,
        title: Option<&str>,
    ) {
        let act = action.map_or(String::new(), |a| {
            format!(r#" data-action="{a}" class="clickable""#)
        });
        let _ = write!(
            self.out,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="5" fill="{fill}" stroke="{stroke}"{act}>"#
        );
        if let Some(t) = title {
            let _ = write!(self.out, "<title>{}</title>", escape(t));
        }
        self.out.push_str("</rect>");
    }

    fn circle(&mut self, x: f64, y: f64, r: f64, fill: &str, stroke: &str, action: Option<usize>) {
        let act = action.map_or(String::new(), |a| {
            format!(r#" data-action="{a}" class="clickable""#)
        });
        let _ = write!(
            self.out,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}"{act}/>"#
        );
    }

    /// Text anchored at its middle (`anchor` = `middle`) or start.
    fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, weight: &str, text: &str) {
        let _ = write!(
            self.out,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" pointer-events="none">{}</text>"#,
            escape(text)
        );
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

/// The legal moves of `seat` with their ids.
fn legal_of<G: GameState>(state: &G, seat: Seat) -> Vec<(G::Action, usize)> {
    let mut legal = Vec::new();
    state.legal_actions(seat, &mut legal);
    legal.into_iter().map(|a| (a, G::action_id(a))).collect()
}

/// Colours of the seats (seat 0 first), readable on white.
const SEAT_COLOURS: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

/// Daxu: both seats' shop cards, reputations and action cards, the offer in the middle,
/// the deck and the tie-breaker card (DAXU rules, `docs/rules/daxu.md`). Own action cards
/// that are legal now are clickable.
fn daxu_board(state: &daxu::State, seat: Seat) -> String {
    use daxu::Action::{Cooperate, Give, Take, Undermine};
    use daxu::Shop;
    const ALL: [daxu::Action; 4] = [Give, Take, Cooperate, Undermine];
    let o = state.observation(seat);
    let legal = legal_of(state, seat);
    let mut svg = Svg::new(760, 470, "Daxu board");
    let panel = |svg: &mut Svg, p: usize, y: f64| {
        let you = if p == seat { " (you)" } else { "" };
        svg.rect(
            10.0,
            y,
            740.0,
            150.0,
            "#fbfaf6",
            SEAT_COLOURS[p],
            None,
            None,
        );
        svg.text(
            20.0,
            y + 22.0,
            16.0,
            "start",
            "bold",
            &format!("seat {p}{you} · reputation {:+}", o.reputations[p]),
        );
        if usize::from(o.holder) == p {
            svg.rect(
                560.0,
                y + 6.0,
                180.0,
                24.0,
                "#ffe9a8",
                "#b8860b",
                None,
                None,
            );
            svg.text(
                650.0,
                y + 23.0,
                13.0,
                "middle",
                "normal",
                "tie-breaker card",
            );
        }
        for s in Shop::ALL {
            let x = 20.0 + 80.0 * s as usize as f64;
            let n = o.sides[p][s as usize];
            svg.rect(x, y + 36.0, 72.0, 58.0, "#fff", "#999", None, None);
            svg.text(x + 36.0, y + 54.0, 11.0, "middle", "normal", s.name());
            svg.text(x + 36.0, y + 84.0, 22.0, "middle", "bold", &n.to_string());
        }
        for (i, a) in ALL.iter().enumerate() {
            let x = 20.0 + 120.0 * i as f64;
            let held = o.hands[p] & (1 << *a as u8) != 0;
            let playable = (p == seat)
                .then(|| legal.iter().find(|(l, _)| l == a).map(|(_, id)| *id))
                .flatten();
            let fill = match (held, playable.is_some()) {
                (_, true) => "#d8f0d0",
                (true, false) => "#eef",
                (false, false) => "#eee",
            };
            svg.rect(
                x,
                y + 104.0,
                110.0,
                36.0,
                fill,
                if held { "#446" } else { "#ccc" },
                playable,
                Some(if held { "in hand" } else { "played" }),
            );
            svg.text(
                x + 55.0,
                y + 127.0,
                14.0,
                "middle",
                if held { "bold" } else { "normal" },
                a.word(),
            );
        }
    };
    let other = 1 - seat.min(1);
    panel(&mut svg, other, 10.0);
    // The middle: offer, deck, phase.
    let y = 170.0;
    svg.text(20.0, y + 20.0, 14.0, "start", "bold", "offer");
    for (i, c) in o.offer.iter().enumerate() {
        let x = 70.0 + 110.0 * i as f64;
        svg.rect(x, y + 4.0, 100.0, 60.0, "#fff7e0", "#a07020", None, None);
        svg.text(x + 50.0, y + 40.0, 14.0, "middle", "bold", &c.to_string());
    }
    svg.text(
        560.0,
        y + 26.0,
        14.0,
        "start",
        "normal",
        &format!("deck: {} cards", o.deck_len),
    );
    svg.text(
        560.0,
        y + 46.0,
        13.0,
        "start",
        "normal",
        &format!("round {}", o.round),
    );
    let phase = match o.phase {
        daxu::Phase::Choose => "both seats choose an action card in secret".to_string(),
        daxu::Phase::Decide { decider, tiebreak } => format!(
            "seat {decider} decides who receives the offer{}",
            if tiebreak {
                " (with the tie-breaker card)"
            } else {
                ""
            }
        ),
        daxu::Phase::Over => "the game is over".to_string(),
    };
    let revealed = o.revealed.map_or(String::new(), |[a, b]| {
        format!(" · revealed: seat 0 {}, seat 1 {}", a.word(), b.word())
    });
    svg.text(
        20.0,
        y + 84.0,
        13.0,
        "start",
        "normal",
        &format!("{phase}{revealed}"),
    );
    panel(&mut svg, seat.min(1), 290.0);
    svg.finish()
}

/// Merchants of Dunhuang: the circle of eight spaces with their characters and Market
/// goods and the camel; the Majority Tokens with their holders and sides; each seat's
/// Shop, coins, Prestige and hand size; the observer's own hand. Camel spaces that are
/// legal moves now are clickable.
fn dunhuang_board(state: &dunhuang::State, seat: Seat) -> String {
    use dunhuang::{CHARACTERS, GOODS, NONE};
    let o = state.observation(seat);
    let legal = legal_of(state, seat);
    let players = state.num_players();
    let mut svg = Svg::new(900, 650, "Merchants of Dunhuang board");
    // The circle: space m at angle m * 45°, clockwise from the top.
    let (cx, cy, r) = (232.0, 222.0, 160.0);
    svg.circle(cx, cy, r + 48.0, "#f7efe0", "#c9b48a", None);
    svg.text(cx, cy - 6.0, 14.0, "middle", "bold", "the Market");
    svg.text(
        cx,
        cy + 14.0,
        12.0,
        "middle",
        "normal",
        &format!("pile {} · bottom {}", o.sizes[PILE], o.sizes[BOTTOM]),
    );
    for m in 0..8usize {
        let angle = std::f64::consts::PI * (m as f64 / 4.0 - 0.5);
        let (x, y) = (cx + r * angle.cos(), cy + r * angle.sin());
        // A move that ends the camel here (setup placement or a turn's steps).
        let target = legal.iter().find_map(|(a, id)| match a {
            dunhuang::Action::Camel(s) if usize::from(*s) == m => Some(*id),
            dunhuang::Action::Steps(k) => {
                ((usize::from(o.camel) + usize::from(*k)) % 8 == m).then_some(*id)
            }
            _ => None,
        });
        let camel = usize::from(o.camel) == m && o.phase != dunhuang::Phase::Keep;
        let character = CHARACTERS
            .get(usize::from(o.tiles[m]))
            .copied()
            .unwrap_or("?");
        svg.rect(
            x - 52.0,
            y - 34.0,
            104.0,
            68.0,
            if target.is_some() { "#d8f0d0" } else { "#fff" },
            if camel { "#8b4513" } else { "#bbb" },
            target,
            Some(&format!("space {m}: {character}")),
        );
        svg.text(
            x,
            y - 17.0,
            12.0,
            "middle",
            "bold",
            &format!("{m} · {character}"),
        );
        let good = o.market[m];
        let good = if good == 0 {
            "(empty)".to_string()
        } else {
            format!(
                "{} {good}",
                GOODS.get(usize::from(good)).copied().unwrap_or("?")
            )
        };
        svg.text(x, y + 3.0, 12.0, "middle", "normal", &good);
        if camel {
            svg.text(x, y + 24.0, 12.0, "middle", "bold", "the camel");
        }
    }
    // The Majority Tokens: one per value in play, with its holder and side.
    let tx = 450.0;
    svg.text(tx, 24.0, 15.0, "start", "bold", "Majority Tokens");
    let mut row = 0.0;
    for (v, good_name) in GOODS.iter().enumerate().skip(1) {
        let holder = o.holder[v];
        if state.rules().data().values & (1 << v) == 0 {
            continue;
        }
        let y = 36.0 + row * 24.0;
        row += 1.0;
        let side = if o.zh & (1 << v) != 0 {
            "裔 (zh) side"
        } else {
            "number side"
        };
        let who = if holder == NONE {
            "in the middle".to_string()
        } else {
            format!("held by seat {holder}")
        };
        let colour = if holder == NONE {
            "#fff"
        } else {
            SEAT_COLOURS[usize::from(holder) % 4]
        };
        svg.circle(tx + 10.0, y + 8.0, 8.0, colour, "#555", None);
        svg.text(
            tx + 26.0,
            y + 13.0,
            13.0,
            "start",
            "normal",
            &format!("{v} {good_name}: {who}, {side}"),
        );
    }
    // The seats.
    let top = 440.0_f64.max(60.0 + row * 24.0);
    let width = 880.0 / players as f64;
    for (p, colour) in SEAT_COLOURS.iter().enumerate().take(players) {
        let x = 10.0 + width * p as f64;
        let you = if p == seat { " (you)" } else { "" };
        let active = if usize::from(o.active) == p && o.phase != dunhuang::Phase::Keep {
            " · to play"
        } else {
            ""
        };
        svg.rect(x, top, width - 10.0, 200.0, "#fbfaf6", colour, None, None);
        svg.text(
            x + 10.0,
            top + 20.0,
            14.0,
            "start",
            "bold",
            &format!("seat {p}{you}{active}"),
        );
        svg.text(
            x + 10.0,
            top + 40.0,
            12.0,
            "start",
            "normal",
            &format!(
                "coins {} · Prestige {} · hand {} cards",
                o.coins[p], o.prestige[p], o.sizes[p]
            ),
        );
        let shop: Vec<String> = (1..=10)
            .filter(|&v| o.shops[p][v] > 0)
            .map(|v| format!("{}×{}", o.shops[p][v], GOODS[v]))
            .collect();
        svg.text(x + 10.0, top + 60.0, 12.0, "start", "bold", "Shop:");
        for (i, chunk) in shop.chunks(3).enumerate() {
            svg.text(
                x + 10.0,
                top + 78.0 + 16.0 * i as f64,
                12.0,
                "start",
                "normal",
                &chunk.join(", "),
            );
        }
        if shop.is_empty() {
            svg.text(x + 10.0, top + 78.0, 12.0, "start", "normal", "(empty)");
        }
        if p == seat {
            let hand: Vec<String> = (1..=10)
                .flat_map(|v| {
                    std::iter::repeat_n(format!("{} {v}", GOODS[v]), usize::from(o.known[seat][v]))
                })
                .collect();
            svg.text(x + 10.0, top + 124.0, 12.0, "start", "bold", "your hand:");
            // Two goods a line: a 4-player panel is about 210 pixels wide.
            let hand = if hand.is_empty() {
                vec!["empty".to_string()]
            } else {
                hand
            };
            for (i, chunk) in hand.chunks(2).enumerate() {
                svg.text(
                    x + 10.0,
                    top + 140.0 + 15.0 * i as f64,
                    12.0,
                    "start",
                    "normal",
                    &chunk.join(", "),
                );
            }
        }
    }
    svg.finish()
}

/// Fill colours of the nine Q.A.X. companies.
const COMPANY_COLOURS: [&str; 9] = [
    "#fde2a7", "#c9e7f5", "#d9f0c4", "#f6cfe0", "#e3d7f7", "#fbd3b5", "#cfeee8", "#efe9b8",
    "#dcdcdc",
];

/// Q.A.X.: the board with its fields (company and number), the stacks on them (seat and
/// height) and the vacant cells of the ring; the Index, the bank, each seat's coins and
/// shares, the observer's hand. A cell that exactly one legal move concerns (a field to
/// lift, put or place, pieces to place or relocate, a movement's arrival) is clickable.
fn qax_board(state: &qax::State, seat: Seat) -> String {
    let o = state.observation(seat);
    let t = qax::log::table(&o);
    let legal = legal_of(state, seat);
    let (rows, cols) = t.size;
    let cell_px = 58.0;
    let board_w = cols as f64 * cell_px + 20.0;
    let side = 330.0;
    let height =
        (rows as f64 * cell_px + 60.0).max(120.0 + 22.0 * (9.0 + 2.0 * t.seats.len() as f64));
    let mut svg = Svg::new((board_w + side) as u32, height as u32, "Q.A.X. board");
    for c in &t.cells {
        let x = 10.0 + c.at.1 as f64 * cell_px;
        let y = 30.0 + c.at.0 as f64 * cell_px;
        let mut targets = legal
            .iter()
            .filter(|(a, _)| qax::log::action_cell(state, *a) == Some(c.cell));
        let action = match (targets.next(), targets.next()) {
            (Some((_, id)), None) => Some(*id),
            _ => None,
        };
        let fill = match c.field {
            Some((company, _)) => COMPANY_COLOURS[company % COMPANY_COLOURS.len()],
            None => "#f4f4f4",
        };
        let title = match c.field {
            Some((company, n)) => format!("{}: {} {n}", c.name, &t.companies[company].0),
            None => format!("{}: vacant", c.name),
        };
        svg.rect(
            x + 2.0,
            y + 2.0,
            cell_px - 4.0,
            cell_px - 4.0,
            if action.is_some() { "#c8f0c0" } else { fill },
            if action.is_some() { "#2a8a2a" } else { "#bbb" },
            action,
            Some(&title),
        );
        svg.text(x + 6.0, y + 14.0, 9.0, "start", "normal", &c.name);
        if let Some((company, n)) = c.field {
            let name: String = t.companies[company].0.chars().take(7).collect();
            svg.text(
                x + cell_px / 2.0,
                y + 30.0,
                10.0,
                "middle",
                "bold",
                &format!("{name} {n}"),
            );
        }
        if let Some((owner, h)) = c.stack {
            svg.circle(
                x + cell_px / 2.0,
                y + 44.0,
                9.0,
                SEAT_COLOURS[owner % 4],
                "#222",
                None,
            );
            svg.text(
                x + cell_px / 2.0,
                y + 48.0,
                11.0,
                "middle",
                "bold",
                &h.to_string(),
            );
        }
    }
    let (actor, phase, round, left) = &t.turn;
    svg.text(
        10.0,
        20.0,
        13.0,
        "start",
        "bold",
        &format!(
            "{} · seat {actor} to act: {phase} · movements left {left}",
            crate::games::log::round_label(*round)
        ),
    );
    let x = board_w + 10.0;
    svg.text(x, 44.0, 14.0, "start", "bold", "Index");
    for (i, (name, rating, next)) in t.companies.iter().enumerate() {
        let y = 64.0 + 20.0 * i as f64;
        svg.rect(
            x,
            y - 13.0,
            14.0,
            14.0,
            COMPANY_COLOURS[i % 9],
            "#999",
            None,
            None,
        );
        svg.text(
            x + 20.0,
            y,
            12.0,
            "start",
            "normal",
            &format!(
                "{name}: {}{}",
                rating.unwrap_or("not rated"),
                next.map_or(String::new(), |n| format!(" (next round: {n})"))
            ),
        );
    }
    let mut y = 64.0 + 20.0 * t.companies.len() as f64 + 10.0;
    svg.text(
        x,
        y,
        13.0,
        "start",
        "normal",
        &format!("bank: {} coins", t.bank),
    );
    for (p, (coins, shares)) in t.seats.iter().enumerate() {
        y += 24.0;
        let you = if p == seat { " (you)" } else { "" };
        svg.circle(x + 6.0, y - 4.0, 6.0, SEAT_COLOURS[p % 4], "#222", None);
        svg.text(
            x + 18.0,
            y,
            13.0,
            "start",
            "bold",
            &format!("seat {p}{you}: {coins} coins"),
        );
        y += 18.0;
        let shares = if shares.is_empty() {
            "no shares".to_string()
        } else {
            format!("shares: {}", shares.join(", "))
        };
        svg.text(x + 18.0, y, 11.0, "start", "normal", &shares);
    }
    if !t.hand.is_empty() {
        y += 24.0;
        svg.text(
            x,
            y,
            12.0,
            "start",
            "normal",
            &format!("your hand: {}", t.hand.join(", ")),
        );
    }
    svg.finish()
}

/// Splits `text` at spaces into lines of at most `width` characters (a longer word stands
/// on its own line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// A pale fill for a Daimyo island or die colour by its name.
fn colour_of(name: &str) -> (&'static str, &'static str) {
    match name {
        "blue" => ("#dbe8fb", "#3a6fc4"),
        "red" => ("#f9dcdc", "#c43a3a"),
        "yellow" => ("#fbf3c8", "#b59a12"),
        "purple" => ("#ecdff7", "#7b4bb0"),
        "green" => ("#dcf2dc", "#3a9a3a"),
        _ => ("#eeeeee", "#777777"),
    }
}

/// Daimyo: the dice pool; the islands with their five sites (Governors, Techno-farms and
/// Radio towers by seat), each seat's influence, Shadows, Scavengers and No man's land;
/// every seat's supply and tracks (Popularity, resources, storage, units, buildings,
/// recruitment track, dice placed, Relics); the observer's own Heroes as cards (another
/// seat's only as a count and the Heroes known to be in its hand); the Hero market and the
/// Black market (rules: `docs/rules/daimyo.md`). Built from [`daimyo::log::table`], which
/// reads only what the seat may know. A site the seat may choose now is clickable.
fn daimyo_board(state: &daimyo::State, seat: Seat) -> String {
    let t = daimyo::log::table(state, seat);
    let legal = legal_of(state, seat);
    let data = &state.rules().get().data().data;
    let players = t.seats.len();
    let width = 1000.0;
    let island_w = (width - 20.0) / t.islands.len().max(1) as f64;
    let seat_h = 128.0;
    let heroes = t.seats[seat].heroes.len();
    let top_seats = 390.0;
    let market_y = top_seats + seat_h * players as f64 + 10.0;
    let height = market_y + 150.0 + 64.0 * heroes.div_ceil(4) as f64;
    let mut svg = Svg::new(width as u32, height as u32, "Daimyo board");
    let pending = t
        .pending
        .as_ref()
        .map_or(String::new(), |p| format!(" · to choose: {p}"));
    svg.text(
        10.0,
        20.0,
        14.0,
        "start",
        "bold",
        &format!(
            "round {} of {} · seat {} to act · seat {} holds the Mighty Helmet{pending}",
            t.round.0, t.round.1, t.actor, t.helmet
        ),
    );
    // The dice pool.
    svg.text(10.0, 46.0, 13.0, "start", "bold", "dice in the pool:");
    if t.pool.is_empty() {
        svg.text(130.0, 46.0, 13.0, "start", "normal", "none");
    }
    for (k, (colour, value)) in t.pool.iter().enumerate() {
        let x = 130.0 + 30.0 * k as f64;
        let (_, dark) = colour_of(colour);
        svg.rect(
            x,
            30.0,
            24.0,
            24.0,
            dark,
            "#222",
            None,
            Some(&format!("{colour} die {value}")),
        );
        let _ = write!(
            svg.out,
            r##"<text x="{:.1}" y="47" font-size="14" text-anchor="middle" font-weight="bold" fill="#fff" pointer-events="none">{value}</text>"##,
            x + 12.0
        );
    }
    // The islands.
    for (k, isl) in t.islands.iter().enumerate() {
        let x = 10.0 + island_w * k as f64;
        let (fill, dark) = colour_of(&isl.name);
        svg.rect(x, 64.0, island_w - 10.0, 316.0, fill, dark, None, None);
        svg.text(
            x + 10.0,
            84.0,
            14.0,
            "start",
            "bold",
            &format!("the {} island", isl.name),
        );
        for (j, (label, on)) in isl.sites.iter().enumerate() {
            let y = 100.0 + 30.0 * j as f64;
            // A site the seat may choose now (a Governor placed, moved or recruited
            // there) is clicked to choose it: the one legal move naming this site.
            let act = legal
                .iter()
                .find(|(a, _)| {
                    a.kind() == daimyo::Kind::Site
                        && data.islands[a.a() as usize].name == isl.name
                        && a.b() as usize == j
                })
                .map(|(_, id)| *id);
            let fill = if act.is_some() { "#e6f4ea" } else { "#fff" };
            svg.rect(
                x + 10.0,
                y,
                96.0,
                24.0,
                fill,
                "#999",
                act,
                Some(&format!("site {label}")),
            );
            svg.text(
                x + 16.0,
                y + 16.0,
                12.0,
                "start",
                "normal",
                &format!("site {label}"),
            );
            for (m, (kind, owner)) in on.iter().enumerate() {
                let cx = x + 120.0 + 24.0 * m as f64;
                svg.circle(cx, y + 12.0, 10.0, SEAT_COLOURS[owner % 4], "#222", None);
                let _ = write!(
                    svg.out,
                    r##"<text x="{cx:.1}" y="{:.1}" font-size="11" text-anchor="middle" font-weight="bold" fill="#fff" pointer-events="none">{kind}{owner}</text>"##,
                    y + 16.0
                );
            }
        }
        let mut y = 262.0;
        svg.text(x + 10.0, y, 12.0, "start", "bold", "influence:");
        let max = isl.influence.iter().copied().max().unwrap_or(0).max(1) as f64;
        for (p, v) in isl.influence.iter().enumerate() {
            y += 14.0;
            let w = (island_w - 110.0) * (*v).max(0) as f64 / max;
            svg.rect(
                x + 64.0,
                y - 10.0,
                w.max(1.0),
                10.0,
                SEAT_COLOURS[p % 4],
                "none",
                None,
                None,
            );
            svg.text(
                x + 12.0,
                y,
                11.0,
                "start",
                "normal",
                &format!("seat {p}: {v}"),
            );
        }
        y += 16.0;
        let seats = |v: &[Seat]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter()
                    .map(|s| format!("seat {s}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        svg.text(
            x + 10.0,
            y,
            11.0,
            "start",
            "normal",
            &format!("Shadows: {}", seats(&isl.shadows)),
        );
        y += 14.0;
        svg.text(
            x + 10.0,
            y,
            11.0,
            "start",
            "normal",
            &format!("Scavengers: {}", seats(&isl.scavengers)),
        );
        y += 14.0;
        let nml = if isl.nml.is_empty() {
            "No man's land: empty".to_string()
        } else {
            format!("No man's land: {}", isl.nml.join(", "))
        };
        for line in wrap(&nml, ((island_w - 20.0) / 5.6) as usize)
            .iter()
            .take(3)
        {
            svg.text(x + 10.0, y, 10.0, "start", "normal", line);
            y += 12.0;
        }
    }
    // The seats: supply and tracks.
    let max_pp = t.seats.iter().map(|s| s.pp).max().unwrap_or(0).max(1) as f64;
    for (p, s) in t.seats.iter().enumerate() {
        let y = top_seats + seat_h * p as f64;
        let you = if p == seat { " (you)" } else { "" };
        svg.rect(
            10.0,
            y,
            width - 20.0,
            seat_h - 10.0,
            "#fbfaf6",
            SEAT_COLOURS[p % 4],
            None,
            None,
        );
        svg.text(
            20.0,
            y + 20.0,
            14.0,
            "start",
            "bold",
            &format!("seat {p}{you} · clan {} · {} PP", s.clan, s.pp),
        );
        // The Popularity track, relative to the leader.
        let bar = 300.0 * s.pp.max(0) as f64 / max_pp;
        svg.rect(400.0, y + 8.0, 300.0, 14.0, "#eee", "#ccc", None, None);
        svg.rect(
            400.0,
            y + 8.0,
            bar.max(1.0),
            14.0,
            SEAT_COLOURS[p % 4],
            "none",
            None,
            Some("Popularity"),
        );
        svg.text(
            710.0,
            y + 20.0,
            11.0,
            "start",
            "normal",
            "Popularity (bar: relative to the leader)",
        );
        svg.text(
            20.0,
            y + 40.0,
            12.0,
            "start",
            "normal",
            &format!(
                "rice {} · metal {} · crystal {} · gold {} · storage {}/{} · Governors {} and Shadows {} in supply · Techno-farms {} · Radio towers {} · recruitment track {}",
                s.resources[0], s.resources[1], s.resources[2], s.resources[3],
                s.storage.0, s.storage.1, s.units.0, s.units.1, s.built.0, s.built.1, s.track
            ),
        );
        let dice = if s.dice.is_empty() {
            "none".to_string()
        } else {
            s.dice.join(", ")
        };
        svg.text(
            20.0,
            y + 58.0,
            12.0,
            "start",
            "normal",
            &format!("dice placed: {dice}"),
        );
        let relics = if s.relics.is_empty() {
            "none".to_string()
        } else {
            s.relics.join(", ")
        };
        let mut ly = y + 76.0;
        for line in wrap(&format!("Relics and Bonus tiles: {relics}"), 150)
            .iter()
            .take(2)
        {
            svg.text(20.0, ly, 12.0, "start", "normal", line);
            ly += 16.0;
        }
        let known = if p == seat || s.heroes.is_empty() {
            String::new()
        } else {
            format!(
                ", known: {}",
                s.heroes
                    .iter()
                    .map(|h| h.split(' ').next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let discard = if s.discard.is_empty() {
            "empty".to_string()
        } else {
            s.discard.join(", ")
        };
        svg.text(
            20.0,
            ly,
            12.0,
            "start",
            "normal",
            &format!(
                "Heroes: {} in hand{known} · {} in deck · discard pile: {discard}",
                s.hand, s.deck
            ),
        );
    }
    // The observer's Heroes as cards, then the markets.
    let mut y = market_y;
    svg.text(10.0, y + 14.0, 13.0, "start", "bold", "your Heroes:");
    if heroes == 0 {
        svg.text(110.0, y + 14.0, 13.0, "start", "normal", "none in hand");
        y += 24.0;
    } else {
        y += 22.0;
        for (k, h) in t.seats[seat].heroes.iter().enumerate() {
            let (cx, cy) = (10.0 + 245.0 * (k % 4) as f64, y + 64.0 * (k / 4) as f64);
            svg.rect(
                cx,
                cy,
                235.0,
                58.0,
                "#fff8e8",
                SEAT_COLOURS[seat % 4],
                None,
                Some(h),
            );
            for (i, line) in wrap(h, 36).iter().take(4).enumerate() {
                svg.text(
                    cx + 6.0,
                    cy + 13.0 + 13.0 * i as f64,
                    11.0,
                    "start",
                    if i == 0 { "bold" } else { "normal" },
                    line,
                );
            }
        }
        y += 64.0 * heroes.div_ceil(4) as f64;
    }
    svg.text(10.0, y + 14.0, 13.0, "start", "bold", "Hero market:");
    for (k, h) in t.market.iter().enumerate() {
        let cx = 10.0 + 196.0 * k as f64;
        svg.rect(cx, y + 22.0, 190.0, 58.0, "#fff", "#a07020", None, Some(h));
        for (i, line) in wrap(h, 29).iter().take(4).enumerate() {
            svg.text(
                cx + 5.0,
                y + 35.0 + 13.0 * i as f64,
                10.5,
                "start",
                if i == 0 { "bold" } else { "normal" },
                line,
            );
        }
    }
    let top = t.top.as_deref().unwrap_or("not visible");
    svg.text(
        10.0,
        y + 100.0,
        12.0,
        "start",
        "normal",
        &format!("top of the Hero deck: {top}"),
    );
    let bm = if t.black_market.is_empty() {
        "empty".to_string()
    } else {
        t.black_market.join(", ")
    };
    svg.text(
        10.0,
        y + 118.0,
        12.0,
        "start",
        "normal",
        &format!("Black market: {bm}"),
    );
    svg.finish()
}

/// Dunhuang's zones of the pile and of the cards put at its bottom, in
/// [`dunhuang::Observation::sizes`] (the order of its Display: four hands, pile, bottom, ...).
const PILE: usize = 4;
/// See [`PILE`].
const BOTTOM: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState;

    /// At Daimyo's first Governor placement every legal site is clickable on the board, with
    /// the move's id, and nothing else is.
    #[test]
    fn daimyo_sites_the_seat_may_choose_are_clickable() {
        let s: daimyo::State =
            crate::game::setup(&Default::default(), 2, &mut crate::rng::rng_from_seed(1)).unwrap();
        let seat = s.turn().actors().iter().next().expect("a seat acts");
        let svg = daimyo_board(&s, seat);
        let mut ids: Vec<usize> = svg
            .split(r#"data-action=""#)
            .skip(1)
            .map(|r| r.split('"').next().unwrap().parse().unwrap())
            .collect();
        ids.sort_unstable();
        let mut want: Vec<usize> = legal_of(&s, seat).into_iter().map(|(_, id)| id).collect();
        want.sort_unstable();
        assert!(!want.is_empty());
        assert_eq!(ids, want);
        let other = daimyo_board(&s, 1 - seat);
        assert!(!other.contains("data-action"));
    }
}
