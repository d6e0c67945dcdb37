//! Actions of Merchants of Dunhuang, staged: one decision per ply.
//!
//! # Action-id space (`NUM_ACTION_IDS` = 332)
//!
//! | ids | action | stage | written |
//! |---|---|---|---|
//! | 0–9 | [`Action::Keep`] value 1–10 | setup keep (3 drawn, keep 1); Interpreter/Diplomat keep | `keep 7` |
//! | 10–17 | [`Action::Camel`] space 0–7 | setup: the last player places the camel | `camel 3` |
//! | 18–80 | [`Action::Steps`] 1–63 | 1. move the camel | `steps 2` |
//! | 81, 82 | [`Action::Hand`], [`Action::Shop`] | 2. pick up the good | `hand`, `shop` |
//! | 83–85 | [`Action::Coins`], [`Action::Power`], [`Action::NoBonus`] | 3. bonus | `coins`, `power`, `no-bonus` |
//! | 86–95 | [`Action::Discard`] value | Painter (hand) / Musician (shop) target | `discard 7` |
//! | 96–175 | [`Action::Exchange`] value × space | Soldier (shop good) / General (hand good) target | `exchange 7@3` |
//! | 176–275 | [`Action::Maid`] shop value × hand value | Maid target | `maid 7/5` |
//! | 276–285 | [`Action::ToHand`] value | Domestic: shop → hand | `to-hand 7` |
//! | 286–295 | [`Action::ToShop`] value | Domestic: hand → shop | `to-shop 7` |
//! | 296–303 | [`Action::Take`] space | Shepherd / Farmer target | `take 3` |
//! | 304–313 | [`Action::Flip`] value | Manichean / Buddhist: flip a token to 裔 | `flip 7` |
//! | 314–317 | [`Action::Opponent`] seat | Trader / Merchant target | `opponent 2` |
//! | 318–327 | [`Action::Give`] value | Merchant victim gives; Trader/Merchant gives back | `give 7` |
//! | 328, 329 | [`Action::FlipBack`], [`Action::LetSteal`] | Manichean owner on a tie steal (DUN-06) | `flip-back`, `let-steal` |
//! | 330, 331 | [`Action::Pay`], [`Action::Decline`] | Buddhist: the stealer pays 2 coins or not (DUN-06) | `pay`, `decline` |
//!
//! Goods are named by their value (1 = Gold … 10 = Silk); spaces by their index on the
//! circle (0–7, clockwise). The derived order of the enum is the id order, so sorted
//! legal actions are sorted by id.
//!
//! # Worst-case branching per stage
//!
//! | stage | worst case |
//! |---|---|
//! | setup keep | 3 (distinct values among 3 cards) |
//! | camel placement | 8 |
//! | steps | 7 at the default `max_camel_steps=7` (min(cap, coins + 1)); 63 with `none` |
//! | pick | 2 |
//! | bonus | 3 |
//! | Painter, Musician, Flip, Give, Domestic one way | 10 (one per value held) |
//! | Soldier, General | 10 values × 7 Market spaces with a card = 70 (the camel's space was just emptied unless it already was: then 8, 80) |
//! | Maid | 10 × 9 = 90 (Shop value × another hand value) |
//! | Domestic | 20 |
//! | Interpreter keep | min(steps, 10) distinct values |
//! | Shepherd 2, Farmer ≤ 8, opponent ≤ 3, token decisions 2 | |
//!
//! A turn is 2–6 plies of the active player (steps, pick, bonus, target, gives) plus the
//! decisions of others (Merchant victim, Manichean owner).

use std::fmt;

/// One decision (see the module docs for the id space).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// Keep a good of this value (setup keep, DUN-2.3; Interpreter DUN-5.5 / Diplomat DUN-5.6 keep).
    Keep(u8),
    /// Place the camel on this space (setup, DUN-2.5; decision of the last player).
    Camel(u8),
    /// Move the camel this many steps (DUN-3.2): the first is free, each extra costs 1 coin.
    Steps(u8),
    /// Put the picked good in the hand (DUN-3.3).
    Hand,
    /// Put the picked good in the Shop (DUN-3.3–3.4).
    Shop,
    /// Bonus: take 3 coins (DUN-3.5).
    Coins,
    /// Bonus: use the character's power (DUN-3.5).
    Power,
    /// Bonus: neither (DUN-08 `bonus_may_be_skipped`).
    NoBonus,
    /// Painter: discard this good from the hand; Musician: from the Shop.
    Discard(u8),
    /// Soldier (a Shop good) / General (a hand good) of this value, exchanged with the
    /// Market card of this space: `Exchange(value, space)`.
    Exchange(u8, u8),
    /// Maid: the Shop good of the first value is exchanged with a hand good of the second.
    Maid(u8, u8),
    /// Domestic: a Shop good of this value goes to the hand.
    ToHand(u8),
    /// Domestic: a hand good of this value goes to the Shop.
    ToShop(u8),
    /// Shepherd / Farmer: take the Market card of this space into the hand.
    Take(u8),
    /// Manichean / Buddhist: flip your token of this value to its 裔 side.
    Flip(u8),
    /// Trader / Merchant: the chosen opponent (a seat).
    Opponent(u8),
    /// Give a hand good of this value (Merchant victim; Trader/Merchant giving back).
    Give(u8),
    /// Manichean owner: flip the 裔 token back to its number side and keep it.
    FlipBack,
    /// Manichean owner: let the tying opponent steal the token.
    LetSteal,
    /// Buddhist: pay the owner 2 coins and steal the 裔 token.
    Pay,
    /// Buddhist: do not steal; keep the coins.
    Decline,
}

/// Number of distinct action ids.
pub const NUM_ACTION_IDS: usize = 332;

/// Largest step count an action can name (with `max_camel_steps=none`).
pub const MAX_STEP_ID: u8 = 63;

impl Action {
    /// The stable id (module docs).
    pub fn id(self) -> usize {
        use Action::*;
        let v = |x: u8| usize::from(x) - 1;
        match self {
            Keep(x) => v(x),
            Camel(m) => 10 + usize::from(m),
            Steps(s) => 18 + usize::from(s) - 1,
            Hand => 81,
            Shop => 82,
            Coins => 83,
            Power => 84,
            NoBonus => 85,
            Discard(x) => 86 + v(x),
            Exchange(x, m) => 96 + v(x) * 8 + usize::from(m),
            Maid(s, h) => 176 + v(s) * 10 + v(h),
            ToHand(x) => 276 + v(x),
            ToShop(x) => 286 + v(x),
            Take(m) => 296 + usize::from(m),
            Flip(x) => 304 + v(x),
            Opponent(p) => 314 + usize::from(p),
            Give(x) => 318 + v(x),
            FlipBack => 328,
            LetSteal => 329,
            Pay => 330,
            Decline => 331,
        }
    }

    /// The action with this id, if any.
    pub fn from_id(id: usize) -> Option<Action> {
        use Action::*;
        let val = |i: usize| (i + 1) as u8;
        Some(match id {
            0..=9 => Keep(val(id)),
            10..=17 => Camel((id - 10) as u8),
            18..=80 => Steps((id - 17) as u8),
            81 => Hand,
            82 => Shop,
            83 => Coins,
            84 => Power,
            85 => NoBonus,
            86..=95 => Discard(val(id - 86)),
            96..=175 => Exchange(val((id - 96) / 8), ((id - 96) % 8) as u8),
            176..=275 => Maid(val((id - 176) / 10), val((id - 176) % 10)),
            276..=285 => ToHand(val(id - 276)),
            286..=295 => ToShop(val(id - 286)),
            296..=303 => Take((id - 296) as u8),
            304..=313 => Flip(val(id - 304)),
            314..=317 => Opponent((id - 314) as u8),
            318..=327 => Give(val(id - 318)),
            328 => FlipBack,
            329 => LetSteal,
            330 => Pay,
            331 => Decline,
            _ => return None,
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Action::*;
        match *self {
            Keep(v) => write!(f, "keep {v}"),
            Camel(m) => write!(f, "camel {m}"),
            Steps(s) => write!(f, "steps {s}"),
            Hand => f.write_str("hand"),
            Shop => f.write_str("shop"),
            Coins => f.write_str("coins"),
            Power => f.write_str("power"),
            NoBonus => f.write_str("no-bonus"),
            Discard(v) => write!(f, "discard {v}"),
            Exchange(v, m) => write!(f, "exchange {v}@{m}"),
            Maid(s, h) => write!(f, "maid {s}/{h}"),
            ToHand(v) => write!(f, "to-hand {v}"),
            ToShop(v) => write!(f, "to-shop {v}"),
            Take(m) => write!(f, "take {m}"),
            Flip(v) => write!(f, "flip {v}"),
            Opponent(p) => write!(f, "opponent {p}"),
            Give(v) => write!(f, "give {v}"),
            FlipBack => f.write_str("flip-back"),
            LetSteal => f.write_str("let-steal"),
            Pay => f.write_str("pay"),
            Decline => f.write_str("decline"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_follow_the_derived_order() {
        let all: Vec<Action> = (0..NUM_ACTION_IDS)
            .map(|i| Action::from_id(i).unwrap())
            .collect();
        for (i, a) in all.iter().enumerate() {
            assert_eq!(a.id(), i, "{a}");
        }
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Action::from_id(NUM_ACTION_IDS), None);
    }
}
