//! Daxu shop cards: 6 shop types, each card with a reputation symbol of +1, -1 or none
//! (DAXU-1.1, DAXU-1.2, DAXU-3.8; DAXU-03).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Number of shop types.
pub const NUM_SHOPS: usize = 6;
/// Number of distinct cards: shop type × reputation symbol.
pub const NUM_KINDS: usize = NUM_SHOPS * 3;
/// Cards per shop type in the box (DAXU-1.1).
pub const CARDS_PER_SHOP: u8 = 9;

/// A shop type. The first three are the "forgiving" category (4/2/1 points, penalty at a
/// margin of 4+), the last three the "rewarding" one (5/3, penalty at 3+).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Shop {
    /// Baker.
    Baker = 0,
    /// Rice wine maker.
    RiceWine = 1,
    /// Carpenter.
    Carpenter = 2,
    /// Basket maker.
    Basket = 3,
    /// Silk trader.
    Silk = 4,
    /// Teahouse.
    Teahouse = 5,
}

impl Shop {
    /// All shop types in board order.
    pub const ALL: [Shop; NUM_SHOPS] = [
        Shop::Baker,
        Shop::RiceWine,
        Shop::Carpenter,
        Shop::Basket,
        Shop::Silk,
        Shop::Teahouse,
    ];

    /// Whether the type scores in the forgiving category (Baker, Rice wine maker,
    /// Carpenter).
    pub fn is_forgiving(self) -> bool {
        (self as u8) < 3
    }

    /// Short name for transcripts.
    pub fn name(self) -> &'static str {
        [
            "baker",
            "rice_wine",
            "carpenter",
            "basket",
            "silk",
            "teahouse",
        ][self as usize]
    }
}

/// The reputation symbol printed on a shop card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Symbol {
    /// No symbol.
    None = 0,
    /// "This card raises your reputation by 1."
    Plus = 1,
    /// "This card decreases your reputation by 1."
    Minus = 2,
}

/// Shop index by card id, for every `u8` (ids past 17 map to 0), so a lookup needs neither
/// a bounds check nor a division in the playout loop.
const SHOP_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < NUM_KINDS {
        t[i] = (i / 3) as u8;
        i += 1;
    }
    t
};
/// Reputation change by card id, for every `u8` (ids past 17 map to 0).
const DELTA_OF: [i8; 256] = {
    let mut t = [0i8; 256];
    let mut i = 0;
    while i < NUM_KINDS {
        t[i] = [0, 1, -1][i % 3];
        i += 1;
    }
    t
};

/// A shop card: a type and a symbol, packed as `shop * 3 + symbol` (0..18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(pub u8);

impl Card {
    /// The card of this type with this symbol.
    pub const fn new(shop: Shop, symbol: Symbol) -> Card {
        Card(shop as u8 * 3 + symbol as u8)
    }

    /// The card's shop type.
    pub fn shop(self) -> Shop {
        Shop::ALL[(self.0 / 3) as usize]
    }

    /// The card's shop type as an index `0..6` (a table lookup, for hot loops).
    #[inline]
    pub fn shop_index(self) -> usize {
        SHOP_OF[self.0 as usize] as usize
    }

    /// The card's reputation change for its receiver: +1, -1 or 0.
    #[inline]
    pub fn delta(self) -> i8 {
        DELTA_OF[self.0 as usize]
    }
}

/// Saved as its name (`"silk+"`, `"baker"`), as in transcripts.
impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        (0..NUM_KINDS as u8)
            .map(Card)
            .find(|c| c.to_string() == name)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown card '{name}': a shop ({}) with an optional + or -",
                    Shop::ALL.map(Shop::name).join(", ")
                ))
            })
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sym = ["", "+", "-"][(self.0 % 3) as usize];
        write!(f, "{}{}", self.shop().name(), sym)
    }
}
