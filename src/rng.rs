//! The one random number generator of the crate and the seed derivation that makes every
//! game reproducible from (master seed, game index) whatever the thread count.
//!
//! Generator: PCG-64 MCG (`rand_pcg::Pcg64Mcg`, O'Neill 2014): 128-bit state, 64-bit output,
//! portable and stable across platforms and crate versions, about 1 ns per draw.

use rand::SeedableRng;

/// The generator every game, agent and runner uses.
pub type SimRng = rand_pcg::Pcg64Mcg;

/// SplitMix64's finaliser (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of stream `stream` of game `game` under master seed `master`.
///
/// Streams separate the randomness of one game: stream 0 is the game's chance (shuffles,
/// flips, dice); stream `1 + seat` is the agent in that seat. Distinct inputs give
/// independent-looking seeds, and the value depends on nothing else (not the thread).
pub fn seed_for(master: u64, game: u64, stream: u64) -> u64 {
    // The golden-ratio offset keeps (0, 0, 0) away from mix64's fixed point 0.
    let m = mix64(master.wrapping_add(0x9e37_79b9_7f4a_7c15));
    mix64(mix64(m ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15)) ^ stream)
}

/// A generator seeded from a 64-bit seed (expanded to the 128-bit state by SplitMix64).
pub fn rng_from_seed(seed: u64) -> SimRng {
    let lo = mix64(seed) as u128;
    let hi = mix64(seed ^ 0x5851_f42d_4c95_7f2d) as u128;
    SimRng::new((hi << 64) | lo | 1)
}

/// Convenience: the generator of stream `stream` of game `game`.
pub fn rng_for(master: u64, game: u64, stream: u64) -> SimRng {
    rng_from_seed(seed_for(master, game, stream))
}

/// Seeds a generator for a quick test or example (`SeedableRng::seed_from_u64`).
pub fn test_rng(seed: u64) -> SimRng {
    SimRng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn seeds_depend_on_every_input() {
        let a = seed_for(1, 2, 3);
        assert_ne!(a, seed_for(0, 2, 3));
        assert_ne!(a, seed_for(1, 3, 3));
        assert_ne!(a, seed_for(1, 2, 4));
        assert_eq!(a, seed_for(1, 2, 3));
        assert_ne!(
            seed_for(0, 0, 0),
            0,
            "the default seed's first game is not seed 0"
        );
    }

    #[test]
    fn same_seed_same_stream() {
        let mut x = rng_for(7, 9, 0);
        let mut y = rng_for(7, 9, 0);
        for _ in 0..10 {
            assert_eq!(x.next_u64(), y.next_u64());
        }
        let mut z = rng_for(7, 10, 0);
        assert_ne!(rng_for(7, 9, 0).next_u64(), z.next_u64());
    }
}
