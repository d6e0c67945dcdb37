//! Bit tables and bit tricks shared by the rules engines and the knowledge tracker, in one
//! place: pop-counts and the index of the `k`-th set bit of small masks, by table lookups
//! or SWAR arithmetic. The portable x86-64 target has no `popcnt` instruction, so
//! `count_ones` costs about 15 instructions; hot paths (hands, seat sets, card sets) use
//! these instead.

/// `POPCOUNT8[x]`: the number of set bits of the byte `x`. The portable x86-64 target has
/// no `popcnt` instruction, so `count_ones` costs about 15 instructions; hot paths that
/// count small masks (hands, seat sets) read this table instead ([`popcount16`]).
pub static POPCOUNT8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

/// `SELECT8[x][k]`: the position of the `k`-th lowest set bit of the byte `x` (8 when `x`
/// has at most `k` set bits).
static SELECT8: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut x = 0;
    while x < 256 {
        let mut k = 0;
        let mut b = 0;
        while b < 8 {
            if x >> b & 1 != 0 {
                t[x][k] = b as u8;
                k += 1;
            }
            b += 1;
        }
        x += 1;
    }
    t
};

/// The position of the `k`-th lowest set bit of `mask` (0-based; equal to
/// [`nth_bit`]`(mask as u32, k)`), by table lookups instead of clearing `k` bits one by
/// one.
///
/// # Panics
/// Panics in debug builds if `mask` has at most `k` set bits.
#[inline]
pub fn nth_bit16(mask: u16, k: u32) -> u32 {
    debug_assert!(mask.count_ones() > k);
    let lo = (mask & 0xff) as usize;
    let below = u32::from(POPCOUNT8[lo]);
    if k < below {
        u32::from(SELECT8[lo][k as usize])
    } else {
        8 + u32::from(SELECT8[(mask >> 8) as usize][(k - below) as usize & 7])
    }
}

/// The index of the `k`-th set bit of the byte `mask` (0-based, from the lowest), by one
/// table lookup (equal to [`nth_bit`]; for hands and other masks of at most 8 actions).
///
/// # Panics
/// Debug builds panic if `mask` has `k` or fewer set bits.
#[inline]
pub fn nth_bit8(mask: u8, k: u32) -> u32 {
    debug_assert!(mask.count_ones() > k);
    u32::from(SELECT8[usize::from(mask)][k as usize & 7])
}

/// The number of set bits of `x`, by two lookups in [`POPCOUNT8`] (equal to
/// `x.count_ones()`).
#[inline]
pub fn popcount16(x: u16) -> u32 {
    u32::from(POPCOUNT8[usize::from(x & 0xff)]) + u32::from(POPCOUNT8[usize::from(x >> 8)])
}

/// The index of the `k`-th set bit of `mask` (0-based, from the lowest), for games whose
/// legal actions are a bitmask in sorted order.
///
/// # Panics
/// Debug builds panic if `mask` has `k` or fewer set bits.
#[inline]
pub fn nth_bit(mut mask: u32, k: u32) -> u32 {
    debug_assert!(mask.count_ones() > k);
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

/// The indices of the set bits of `set`, lowest first.
#[inline]
pub fn ones(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(c)
        }
    })
}

/// Byte `i` of every byte set (`0x0101...`).
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of each byte.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Byte `i`: the set bits of `mask` in bytes `0..=i` (at most 64, so no carries between
/// bytes; the top byte is the pop-count). SWAR, without a `popcnt` instruction.
#[inline]
pub fn cumulative_byte_counts(mask: u64) -> u64 {
    let x = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    let bytes = (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    bytes.wrapping_mul(ONES)
}

/// The `k`-th set bit of `mask` given its [`cumulative_byte_counts`] `cum`, branch-free:
/// the byte holding it, then a table lookup.
#[inline]
pub fn select_bit(mask: u64, cum: u64, k: u32) -> usize {
    // High bit of byte i set iff cum_i <= k: a prefix of the bytes, ending before the
    // byte that holds the bit.
    let below = (((u64::from(k) * ONES) | HIGH) - cum) & HIGH;
    let byte = ((!below & HIGH).trailing_zeros() / 8) as usize;
    let before = (cum << 8 >> (8 * byte)) as u32 & 0xff;
    let b = (mask >> (8 * byte)) as usize & 0xff;
    8 * byte + usize::from(SELECT8[b][(k - before) as usize])
}

/// The index of the `k`-th set bit of `mask` (0-based, from the lowest): [`select_bit`] with
/// [`cumulative_byte_counts`].
///
/// # Panics
/// Debug builds panic if `mask` has `k` or fewer set bits.
#[inline]
pub fn nth_bit64(mask: u64, k: u32) -> usize {
    debug_assert!(mask.count_ones() > k);
    select_bit(mask, cumulative_byte_counts(mask), k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::test_rng;

    /// The branch-free select (Dunhuang's bottom-batch draw, the knowledge tracker) picks the same card as counting set
    /// bits one by one.
    #[test]
    fn nth_bit64_selects_the_kth_set_bit() {
        use rand::RngExt;
        let mut rng = test_rng(7);
        for i in 0..20_000u32 {
            let mask: u64 = match i {
                0 => u64::MAX,
                1 => 1 << 63,
                _ => rng.random::<u64>() & rng.random::<u64>() | 1 << rng.random_range(0..64),
            };
            let naive: Vec<usize> = (0..64).filter(|b| mask & 1 << b != 0).collect();
            for (k, &b) in naive.iter().enumerate() {
                assert_eq!(nth_bit64(mask, k as u32), b, "{mask:#x} k={k}");
            }
        }
    }

    /// The index of the `k`-th set bit agrees across the widths.
    #[test]
    fn the_widths_agree() {
        for mask in 1u16..=u16::MAX {
            for k in 0..mask.count_ones() {
                let want = nth_bit(u32::from(mask), k);
                assert_eq!(nth_bit16(mask, k), want);
                assert_eq!(nth_bit64(u64::from(mask), k), want as usize);
                if mask <= 0xff {
                    assert_eq!(nth_bit8(mask as u8, k), want);
                }
            }
            assert_eq!(popcount16(mask), mask.count_ones());
            assert_eq!(ones(u64::from(mask)).count() as u32, mask.count_ones());
        }
    }
}
