//! Sharding a tournament over machines: `--shard i/n` plays only shard `i` of `n` of the
//! game indices, and `sim merge` ([`super::merge`]) combines the shards' directories into
//! the files of the whole run.
//!
//! Shards are **0-based** (`0/4` .. `3/4`), like Slurm's `SLURM_ARRAY_TASK_ID` with
//! `--array=0-3` and Kubernetes' `JOB_COMPLETION_INDEX`.
//!
//! A shard is a contiguous range of whole *units*: a unit is the least common multiple of
//! the seating block ([`super::Schedule::block_len`]) and the runner's block of
//! [`super::run::BLOCK`] games, so every shard but the last holds whole seating blocks and
//! starts where the runner's blocks start. With `U = ceil(games / unit)` units, shard `i`
//! holds units `floor(i U / n) .. floor((i + 1) U / n)` (the last one cut at `games`), so
//! shard sizes differ by at most one unit. When `U < n` some shards are empty: they play
//! nothing and write a header-only `games.csv` and empty statistics, which merge like any
//! other shard (a scheduler's array size need not depend on `-n`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::run::BLOCK;
use crate::output::ShardInfo;

/// Shard `index` of `count` (0-based), as given to `--shard i/n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// The shard, `0..count`.
    pub index: u64,
    /// The number of shards, at least 1.
    pub count: u64,
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `i/n` with `0 <= i < n`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = |why: &str| {
            format!(
                "'{s}' is not a shard: {why}; expected i/n with 0 <= i < n (0-based, as \
                 SLURM_ARRAY_TASK_ID with --array=0-(n-1) or JOB_COMPLETION_INDEX), e.g. 0/4"
            )
        };
        let (i, n) = s.trim().split_once('/').ok_or_else(|| bad("no '/'"))?;
        let index: u64 = i
            .trim()
            .parse()
            .map_err(|_| bad(&format!("'{i}' is not a whole number")))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| bad(&format!("'{n}' is not a whole number")))?;
        if count == 0 {
            return Err(bad("the number of shards must be at least 1"));
        }
        if index >= count {
            return Err(bad(&format!(
                "shard {index} does not exist among {count} (they are 0 to {})",
                count - 1
            )));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The unit of sharding for a seating block of `block_len` games: the least common
/// multiple of `block_len` and [`BLOCK`].
pub fn unit(block_len: u64) -> u64 {
    let b = block_len.max(1);
    b / gcd(b, BLOCK) * BLOCK
}

impl Shard {
    /// The game indices `start..end` of this shard of a run of `games` games whose
    /// seating block is `block_len` (see the module docs). Empty (`start == end`) when
    /// there are fewer units than shards.
    pub fn range(&self, games: u64, block_len: u64) -> (u64, u64) {
        let unit = unit(block_len);
        let units = games.div_ceil(unit);
        let at = |i: u64| {
            let u = (u128::from(i) * u128::from(units) / u128::from(self.count)) as u64;
            u.saturating_mul(unit).min(games)
        };
        (at(self.index), at(self.index + 1))
    }

    /// This shard's record for the manifest and `config.toml`.
    pub fn info(&self, games: u64, block_len: u64) -> ShardInfo {
        let (start, end) = self.range(games, block_len);
        ShardInfo {
            index: self.index,
            count: self.count,
            start,
            end,
        }
    }
}

impl ShardInfo {
    /// The shard without its range.
    pub fn shard(&self) -> Shard {
        Shard {
            index: self.index,
            count: self.count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_zero_based_shards_and_names_bad_ones() {
        assert_eq!("0/4".parse(), Ok(Shard { index: 0, count: 4 }));
        assert_eq!(" 3 / 4 ".parse(), Ok(Shard { index: 3, count: 4 }));
        for (s, needle) in [
            ("4/4", "shard 4 does not exist among 4 (they are 0 to 3)"),
            ("1/0", "at least 1"),
            ("-1/4", "'-1' is not a whole number"),
            ("2", "no '/'"),
            ("a/b", "'a' is not"),
        ] {
            let e = s.parse::<Shard>().unwrap_err();
            assert!(e.contains(needle) && e.contains("0-based"), "{s}: {e}");
        }
    }

    #[test]
    fn shards_tile_the_games_in_whole_units() {
        assert_eq!(unit(1), 32);
        assert_eq!(unit(6), 96);
        assert_eq!(unit(36), 288);
        assert_eq!(unit(64), 64);
        for (games, block, count) in [(1000, 6, 3), (10, 2, 4), (96 * 7 + 5, 6, 7), (1, 1, 1)] {
            let mut next = 0;
            for index in 0..count {
                let (s, e) = Shard { index, count }.range(games, block);
                assert_eq!(s, next, "{games} {block} {count}");
                assert!(s <= e && (s % unit(block) == 0 || s == games));
                next = e;
            }
            assert_eq!(next, games);
        }
        // Fewer units than shards: the first shards are empty, the last holds everything.
        let r: Vec<_> = (0..4)
            .map(|index| Shard { index, count: 4 }.range(10, 2))
            .collect();
        assert_eq!(r, [(0, 0), (0, 0), (0, 0), (0, 10)]);
        // Sizes differ by at most one unit.
        let r: Vec<_> = (0..3)
            .map(|index| Shard { index, count: 3 }.range(1000, 6))
            .collect();
        assert_eq!(r, [(0, 288), (288, 672), (672, 1000)]);
    }
}
