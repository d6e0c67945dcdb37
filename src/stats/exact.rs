//! Serde helpers for exact tallies: what a checkpoint (`checkpoint.json`) saves must read
//! back bit for bit, so a resumed or merged run adds up to the same digits. JSON numbers
//! are not portable beyond 64 bits and print floats in decimal, hence these encodings.

use serde::{Deserialize, Deserializer, Serializer};

/// `f64` as its bits (`x.to_bits()`, a `u64`).
pub mod f64_bits {
    use super::*;

    /// Serializes `x` as `x.to_bits()`.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(x.to_bits())
    }

    /// Deserializes what [`serialize`] wrote.
    ///
    /// # Errors
    /// The deserializer's.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        u64::deserialize(d).map(f64::from_bits)
    }
}

/// `i128` as a decimal string.
pub mod i128_text {
    use super::*;

    /// Serializes `x` as a decimal string.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(x: &i128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&x.to_string())
    }

    /// Deserializes what [`serialize`] wrote.
    ///
    /// # Errors
    /// The deserializer's, or a string that is not an integer.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
