//! Daxu final scoring: shop majorities and reputation points (DAXU-5.1–5.7;
//! DAXU-02 and DAXU-08).

use super::RepPoints;
use super::card::{NUM_SHOPS, Shop};

/// The lowest and highest reputation: the ends of the track (DAXU-1.3, DAXU-3.9: "A
/// reputation marker cannot exceed the most left or right spaces"; DAXU-02).
pub const REP_MIN: i8 = -7;
/// See [`REP_MIN`].
pub const REP_MAX: i8 = 7;

/// Alternative reputation table B of DAXU-02, indexed by `reputation + 7`.
pub const TABLE_B: [i8; 15] = [-7, -7, -6, -5, -3, -2, -1, 0, 1, 2, 3, 4, 5, 5, 5];

/// Points for a final reputation in `[-7, 7]` under the chosen table (DAXU-02
/// ASSUMPTION, `daxu.reputation_points`).
pub fn reputation_points(table: RepPoints, rep: i8) -> i32 {
    debug_assert!((REP_MIN..=REP_MAX).contains(&rep));
    match table {
        RepPoints::Identity => rep as i32,
        RepPoints::TableB => TABLE_B[(rep - REP_MIN) as usize] as i32,
    }
}

/// Points `(for a, for b)` from one shop type where the two players hold `a` and `b`
/// cards (DAXU-5.1–5.4; DAXU-08):
/// - Baker, Rice wine maker, Carpenter: win by 1 = 4, by 2 = 2, by 3 = 1;
/// - Basket maker, Silk trader, Teahouse: win by 1 = 5, by 2 = 3;
/// - a larger margin (4+ or 3+): the majority player loses 1 point and the opponent earns
///   1 point per card of this type on their side (possibly 0);
/// - equal counts: nobody scores.
pub fn shop_points(shop: Shop, a: u8, b: u8) -> (i32, i32) {
    if a == b {
        return (0, 0);
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    let margin = hi - lo;
    let ladder: &[i32] = if shop.is_forgiving() {
        &[4, 2, 1]
    } else {
        &[5, 3]
    };
    let (major, minor) = match ladder.get(margin as usize - 1) {
        Some(&p) => (p, 0),
        None => (-1, lo as i32),
    };
    if a > b {
        (major, minor)
    } else {
        (minor, major)
    }
}

/// Whether the majority in `shop` with `a` against `b` cards is too large and triggers the
/// over-dominance penalty (a margin of 4+ for Baker, Rice wine maker, Carpenter; 3+ for
/// the others; DAXU-5.3).
pub fn over_dominant(shop: Shop, a: u8, b: u8) -> bool {
    let limit = if shop.is_forgiving() { 3 } else { 2 };
    a.abs_diff(b) > limit
}

/// Card counts per side below which [`shops_total`] reads [`SHOP_TABLE`]; larger counts
/// (possible only with a custom deck) fall back to [`shop_points`].
const TABLE_N: usize = 16;

/// [`shop_points`] as a `const fn` on the category (`forgiving`: Baker, Rice wine maker,
/// Carpenter) for counts below [`TABLE_N`].
const fn table_entry(forgiving: bool, a: u8, b: u8) -> (i8, i8) {
    if a == b {
        return (0, 0);
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    let margin = (hi - lo) as usize;
    let ladder: &[i8] = if forgiving { &[4, 2, 1] } else { &[5, 3] };
    let (major, minor) = if margin <= ladder.len() {
        (ladder[margin - 1], 0)
    } else {
        (-1, lo as i8)
    };
    if a > b {
        (major, minor)
    } else {
        (minor, major)
    }
}

/// `SHOP_TABLE[category][a][b]`: the points of [`shop_points`] for `a` against `b` cards,
/// category 0 = the others, 1 = forgiving; checked against [`shop_points`] by a test.
static SHOP_TABLE: [[[(i8, i8); TABLE_N]; TABLE_N]; 2] = {
    let mut t = [[[(0i8, 0i8); TABLE_N]; TABLE_N]; 2];
    let mut c = 0;
    while c < 2 {
        let mut a = 0;
        while a < TABLE_N {
            let mut b = 0;
            while b < TABLE_N {
                t[c][a][b] = table_entry(c == 1, a as u8, b as u8);
                b += 1;
            }
            a += 1;
        }
        c += 1;
    }
    t
};

/// Total shop points `(seat 0, seat 1)` over all six types for the two sides (a table
/// lookup per type; the same values as summing [`shop_points`]).
pub fn shops_total(sides: &[[u8; NUM_SHOPS]; 2]) -> (i32, i32) {
    let mut t = (0, 0);
    for s in Shop::ALL {
        let (a, b) = (sides[0][s as usize], sides[1][s as usize]);
        let (x, y) = if (a as usize) < TABLE_N && (b as usize) < TABLE_N {
            let (x, y) = SHOP_TABLE[s.is_forgiving() as usize][a as usize][b as usize];
            (i32::from(x), i32::from(y))
        } else {
            shop_points(s, a, b)
        };
        t.0 += x;
        t.1 += y;
    }
    t
}

#[cfg(test)]
#[test]
fn shop_table_equals_shop_points() {
    for s in Shop::ALL {
        for a in 0..TABLE_N as u8 + 3 {
            for b in 0..TABLE_N as u8 + 3 {
                let mut sides = [[0u8; NUM_SHOPS]; 2];
                sides[0][s as usize] = a;
                sides[1][s as usize] = b;
                assert_eq!(shops_total(&sides), shop_points(s, a, b), "{s:?} {a} {b}");
            }
        }
    }
}

/// Final score of each seat: shop points plus reputation points.
pub fn final_scores(table: RepPoints, sides: &[[u8; NUM_SHOPS]; 2], reps: [i8; 2]) -> [i32; 2] {
    let (a, b) = shops_total(sides);
    [
        a + reputation_points(table, reps[0]),
        b + reputation_points(table, reps[1]),
    ]
}
