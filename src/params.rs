//! Named parameters for games (rule variants) and agents (search settings).
//!
//! A parameter set is a plain struct declared with [`param_set!`](crate::param_set!):
//! every field has a type, a default and a doc line, and the macro derives the table that
//! `sim list` prints, the `key=value` parser used by `--variant` and agent specs, and the
//! canonical form written to CSV and config files. Values are parsed by [`ParamValue`];
//! enums declare their spellings with [`param_enum!`](crate::param_enum!).
//!
//! # Value types
//!
//! | type | typed as | `sim list` shows |
//! |---|---|---|
//! | integers (`u8` … `i64`) | `42` | `int` |
//! | `f64` | `1.5` (finite) | `float` |
//! | `bool` | `true`/`false` (also `1`/`0`, `yes`/`no`) | `bool` |
//! | a [`param_enum!`](crate::param_enum!) | one of its words | `a\|b\|c` |
//! | `Vec<T>` | `a,b,c`; the empty list is `none` (or the empty string) | `list of T` |
//! | `[T; N]` | exactly `N` items `a/b/c` | `T/T/T` |
//! | [`PerCount<T>`] | `v` for every player count, or `v2/v3/v4` one per count | `T or T/T/... by player count` |
//! | [`DataFile`] | a path to a TOML file, or `builtin` | `path to a TOML data file, or builtin` |
//!
//! Whitespace around a value and around each item is ignored. Containers may nest when
//! their separators differ (`Vec<[u8; 3]>` is typed `2/2/5,1/3/5`); nesting that would be
//! ambiguous (`PerCount<[T; N]>`, `Vec<Vec<T>>`, a list of an enum with a word `none`) is a
//! compile error, checked through [`ParamValue::SYNTAX`].
//!
//! Every parse error is a [`ParamError::BadValue`] naming the parameter, the value as typed
//! and the accepted forms, followed by what was wrong (`item 2 'x': expected an integer
//! in 0..=255`).

mod data_file;
mod structured;

pub use data_file::DataFile;
pub use structured::{PerCount, parse_list};

use std::fmt::Debug;

/// Why a parameter could not be set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No parameter of that name.
    #[error("unknown parameter '{key}' for {owner}; valid parameters: {valid}")]
    UnknownKey {
        /// The offending key.
        key: String,
        /// What was being configured (`game daxu`, `agent mcts`).
        owner: String,
        /// Valid keys with their defaults, comma-separated.
        valid: String,
    },
    /// The value does not parse as the parameter's type.
    #[error("bad value '{value}' for parameter '{key}' of {owner}: expected {expected}")]
    BadValue {
        /// The parameter.
        key: String,
        /// The offending value.
        value: String,
        /// What was being configured.
        owner: String,
        /// A description of the valid values.
        expected: String,
    },
    /// A `key=value` pair without `=`.
    #[error("malformed setting '{0}': expected key=value")]
    Malformed(String),
    /// The values parse but do not fit together.
    #[error("invalid parameters for {owner}: {reason}")]
    Invalid {
        /// What was being configured.
        owner: String,
        /// Why.
        reason: String,
    },
}

/// One row of a parameter table: what `sim list` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamInfo {
    /// The key, as typed after `--variant` or in an agent spec.
    pub name: &'static str,
    /// The type (`int`, `float`, `bool`, `one of a|b`, ...).
    pub kind: String,
    /// The default value, formatted as it would be typed.
    pub default: String,
    /// What the parameter means, with its source (a clause or ruling id of `docs/rules/<game>.md`).
    pub meaning: String,
}

/// Which separators and reserved words a typed form may contain. Containers split on their
/// separator (`,` for lists, `/` for tuples and per-count values), so an item type whose
/// typed form may contain that separator cannot be nested in them: the list, tuple and
/// per-count impls refuse such nesting at compile time (a post-monomorphization error
/// naming the conflict).
///
/// A per-count tuple would be ambiguous (in `1/2/3/4`, which `/` separates counts?), and so
/// would a list of lists; neither compiles:
/// ```compile_fail
/// use tabletop_sim::params::{ParamValue, PerCount};
/// let _ = PerCount::<[u8; 2]>::parse_param("1/2");
/// ```
/// ```compile_fail
/// use tabletop_sim::params::ParamValue;
/// let _ = Vec::<Vec<u8>>::parse_param("1,2");
/// ```
/// Nesting with different separators is fine:
/// ```
/// use tabletop_sim::params::{ParamValue, PerCount};
/// let p = PerCount::<Vec<u8>>::parse_param("1,2/none/3").unwrap();
/// assert_eq!(p.values(), &[vec![1, 2], vec![], vec![3]]);
/// assert_eq!(Vec::<[u8; 2]>::parse_param("1/2,3/4"), Ok(vec![[1, 2], [3, 4]]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Syntax(u8);

impl Syntax {
    /// Nothing structural: numbers, booleans, plain words.
    pub const PLAIN: Syntax = Syntax(0);
    /// The typed form may contain `,` (lists).
    pub const COMMA: Syntax = Syntax(1);
    /// The typed form may contain `/` (tuples, per-count values, paths).
    pub const SLASH: Syntax = Syntax(2);
    /// The typed form may be the word `none` (the empty list, an enum word).
    pub const NONE_WORD: Syntax = Syntax(4);
    /// Anything (a path): nests in no container.
    pub const ANY: Syntax = Syntax(u8::MAX);

    /// Both sets.
    pub const fn union(self, other: Syntax) -> Syntax {
        Syntax(self.0 | other.0)
    }

    /// Whether the two sets share a separator or word.
    pub const fn intersects(self, other: Syntax) -> bool {
        self.0 & other.0 != 0
    }

    /// The syntax of a fixed set of words (the spellings of an enum).
    pub const fn of_words(words: &[&str]) -> Syntax {
        let mut bits = 0;
        let mut w = 0;
        while w < words.len() {
            let b = words[w].as_bytes();
            if b.len() == 4 && b[0] == b'n' && b[1] == b'o' && b[2] == b'n' && b[3] == b'e' {
                bits |= Syntax::NONE_WORD.0;
            }
            let mut i = 0;
            while i < b.len() {
                match b[i] {
                    b',' => bits |= Syntax::COMMA.0,
                    b'/' => bits |= Syntax::SLASH.0,
                    _ => {}
                }
                i += 1;
            }
            w += 1;
        }
        Syntax(bits)
    }
}

/// A value that can be typed on the command line.
pub trait ParamValue: Sized + Clone {
    /// The separators and reserved words the typed form may contain (see [`Syntax`]).
    const SYNTAX: Syntax = Syntax::PLAIN;

    /// Parses the typed form.
    ///
    /// # Errors
    /// A description of the accepted forms, then (after `; `) what was wrong when that
    /// helps; the caller wraps it in [`ParamError::BadValue`] with the key and the value.
    fn parse_param(s: &str) -> Result<Self, String>;
    /// The typed form; `parse_param(format_param(x)) == x`.
    fn format_param(&self) -> String;
    /// The type's name for tables and error messages.
    fn type_name() -> String;

    /// A digest of external content the value was loaded from (the SHA-256 of a
    /// [`DataFile`]), recorded beside the results so a rerun can tell whether the data
    /// changed. `None` for values that are fully described by their typed form.
    fn fingerprint(&self) -> Option<String> {
        None
    }

    /// Checks that the value fits a game played by `range.0..=range.1` players (a
    /// [`PerCount`] must hold one value, or one per count).
    ///
    /// # Errors
    /// The accepted forms for that range and what was wrong, as [`ParamValue::parse_param`].
    fn fits_players(&self, _range: (usize, usize)) -> Result<(), String> {
        Ok(())
    }

    /// Whether the value is left out of [`ParamSet::values`] (and so of the canonical
    /// form, variant labels, `variants.csv` and saved positions): true only for a
    /// parameter added after results were committed, at its no-op default, so that adding
    /// it changes no existing output byte ([`crate::game::Komi`]). `sim list` shows it.
    fn hidden_at_default(&self) -> bool {
        false
    }

    /// For an integer type: its range, as `i128`s (`None` for other types). With
    /// [`ParamValue::to_int`] and [`ParamValue::from_int`], lets a bad value's message name
    /// the range the parameter set accepts rather than the type's ([`valid_int_range`]).
    fn int_bounds() -> Option<(i128, i128)> {
        None
    }

    /// The value as an `i128`, for an integer type.
    fn to_int(&self) -> Option<i128> {
        None
    }

    /// The value `v`, for an integer type that holds it.
    fn from_int(_v: i128) -> Option<Self> {
        None
    }
}

/// The expected form of an integer parameter whose typed value did not parse (`-1` for an
/// unsigned parameter, a number past the type's range): the interval of values that
/// `set`, with the parameter `put` to each, accepts under [`ParamSet::validate`], found by
/// bisection from the parameter's current value `now` (a parameter set's checks accept an
/// interval of each integer parameter, such as Goofspiel's `num_cards` in `1..=16`); the
/// type's range (`expected`) when the checks do not narrow it, or for other types.
pub fn valid_int_range<P: ParamSet, T: ParamValue>(
    set: &P,
    put: impl Fn(&mut P, T),
    now: &T,
    owner: &str,
    expected: String,
) -> String {
    let (Some((min, max)), Some(start)) = (T::int_bounds(), now.to_int()) else {
        return expected;
    };
    let ok = |v: i128| {
        T::from_int(v).is_some_and(|x| {
            let mut p = set.clone();
            put(&mut p, x);
            p.validate(owner).is_ok()
        })
    };
    if !ok(start) {
        return expected;
    }
    // The least accepted value in min..=start, and the greatest in start..=max.
    let (mut bad, mut good) = (min - 1, start);
    while good - bad > 1 {
        let mid = bad + (good - bad) / 2;
        if ok(mid) { good = mid } else { bad = mid }
    }
    let lo = good;
    let (mut good, mut bad) = (start, max + 1);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if ok(mid) { good = mid } else { bad = mid }
    }
    let hi = good;
    if (lo, hi) == (min, max) {
        expected
    } else {
        format!("an integer in {lo}..={hi}")
    }
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl ParamValue for $t {
            fn parse_param(s: &str) -> Result<Self, String> {
                s.trim().parse().map_err(|_| format!("an integer in {}..={}", <$t>::MIN, <$t>::MAX))
            }
            fn format_param(&self) -> String { self.to_string() }
            fn type_name() -> String { "int".into() }
            fn int_bounds() -> Option<(i128, i128)> {
                Some((<$t>::MIN as i128, <$t>::MAX as i128))
            }
            fn to_int(&self) -> Option<i128> { Some(*self as i128) }
            fn from_int(v: i128) -> Option<Self> { <$t>::try_from(v).ok() }
        }
    )*};
}
int_param!(u8, u32, u64, usize, i32, i64);

impl ParamValue for f64 {
    fn parse_param(s: &str) -> Result<Self, String> {
        match s.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err("a finite number".into()),
        }
    }
    fn format_param(&self) -> String {
        format!("{self}")
    }
    fn type_name() -> String {
        "float".into()
    }
}

impl ParamValue for bool {
    fn parse_param(s: &str) -> Result<Self, String> {
        match s.trim() {
            "true" | "1" | "yes" => Ok(true),
            "false" | "0" | "no" => Ok(false),
            _ => Err("true or false".into()),
        }
    }
    fn format_param(&self) -> String {
        self.to_string()
    }
    fn type_name() -> String {
        "bool".into()
    }
}

/// A set of named parameters: a game's rule variants or an agent's settings.
pub trait ParamSet: Clone + Default + Debug + PartialEq + Send + Sync + 'static {
    /// The parameter table (name, type, default, meaning), in declaration order.
    fn info() -> Vec<ParamInfo>;
    /// Sets one parameter from its typed form. `owner` names the thing being configured
    /// in error messages.
    ///
    /// # Errors
    /// [`ParamError::UnknownKey`] listing the valid keys, or [`ParamError::BadValue`].
    fn set(&mut self, key: &str, value: &str, owner: &str) -> Result<(), ParamError>;
    /// Every parameter's current value, typed form, in declaration order.
    fn values(&self) -> Vec<(&'static str, String)>;
    /// Cross-field validation, run after all settings are applied.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] with the reason.
    fn validate(&self, _owner: &str) -> Result<(), ParamError> {
        Ok(())
    }

    /// The content digests of the data-file parameters ([`ParamValue::fingerprint`]), as
    /// (key, SHA-256 hex), in declaration order; empty when every value is built in.
    fn fingerprints(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// Checks every parameter against the game's player range ([`ParamValue::fits_players`]):
    /// a game's rules builder calls it with its `PLAYERS` range, since parsing cannot know
    /// it.
    ///
    /// # Errors
    /// [`ParamError::BadValue`] naming the first parameter that does not fit, its value and
    /// the accepted forms for the range.
    fn check_players(&self, _owner: &str, _range: (usize, usize)) -> Result<(), ParamError> {
        Ok(())
    }

    /// The canonical form: every parameter as `key=value`, joined by `sep`.
    fn canonical(&self, sep: &str) -> String {
        self.values()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Defaults overridden by `settings` (`key=value` strings), then validated.
    ///
    /// # Errors
    /// As [`ParamSet::set`] and [`ParamSet::validate`]; [`ParamError::Malformed`] for a
    /// setting without `=`.
    fn from_settings<S: AsRef<str>>(settings: &[S], owner: &str) -> Result<Self, ParamError> {
        let mut p = Self::default();
        for s in settings {
            let s = s.as_ref();
            let (k, v) = s
                .split_once('=')
                .ok_or_else(|| ParamError::Malformed(s.to_string()))?;
            p.set(k.trim(), v.trim(), owner)?;
        }
        p.validate(owner)?;
        Ok(p)
    }

    /// The valid keys with defaults, for error messages: `a (default 1), b (default x)`.
    fn valid_keys() -> String {
        let v: Vec<String> = Self::info()
            .iter()
            .map(|i| format!("{} (default {})", i.name, i.default))
            .collect();
        if v.is_empty() {
            "none".into()
        } else {
            v.join(", ")
        }
    }
}

/// The key of a parameter field: its name without a raw-identifier prefix, so a field
/// declared `r#final` is typed as `final`.
pub fn key_name(field: &'static str) -> &'static str {
    field.strip_prefix("r#").unwrap_or(field)
}

/// Declares a parameter struct and implements [`ParamSet`] for it. An optional trailing
/// `validate = path;` names a `fn(&Self, owner: &str) -> Result<(), ParamError>` run by
/// [`ParamSet::validate`] for cross-field or range checks.
///
/// An optional `elide_at_default = [field, ...];` after it names fields that
/// [`ParamSet::values`] (and so every canonical spec) leaves out while they hold their
/// default. It is for parameters added after results were committed: a spec written before
/// the parameter existed keeps its exact text when canonicalized again, so a rerun of a
/// committed result writes the same `agents.csv`, `config.toml` and reports (results/README.md,
/// "Spec strings"). A field at a non-default value is always written.
///
/// Fields that are Rust keywords are declared as raw identifiers (`r#final`) and keyed
/// without the prefix (`final=visits`).
///
/// ```
/// tabletop_sim::param_set! {
///     /// Settings of a toy agent.
///     pub struct Toy {
///         /// Iterations per decision.
///         pub iters: u32 = 100,
///     }
/// }
/// use tabletop_sim::params::ParamSet;
/// let t = Toy::from_settings(&["iters=5"], "agent toy").unwrap();
/// assert_eq!(t.iters, 5);
/// assert_eq!(t.canonical(","), "iters=5");
/// ```
#[macro_export]
macro_rules! param_set {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $fvis:vis $field:ident : $ty:ty = $default:expr
            ),* $(,)?
        }
        $(validate = $validate:path;)?
        $(elide_at_default = [$($elide:ident),* $(,)?];)?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $name {
            $( $(#[doc = $doc])* $fvis $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $( $field: $default, )* }
            }
        }

        impl $crate::params::ParamSet for $name {
            fn info() -> Vec<$crate::params::ParamInfo> {
                #[allow(unused_variables)]
                let d = Self::default();
                vec![$(
                    $crate::params::ParamInfo {
                        name: $crate::params::key_name(stringify!($field)),
                        kind: <$ty as $crate::params::ParamValue>::type_name(),
                        default: $crate::params::ParamValue::format_param(&d.$field),
                        meaning: [$($doc.trim()),*].join(" "),
                    },
                )*]
            }

            #[allow(unused_variables)]
            fn set(&mut self, key: &str, value: &str, owner: &str)
                -> Result<(), $crate::params::ParamError> {
                match key {
                    $(
                        k if k == $crate::params::key_name(stringify!($field)) => {
                            self.$field = <$ty as $crate::params::ParamValue>::parse_param(value)
                                .map_err(|expected| $crate::params::ParamError::BadValue {
                                    key: key.to_string(),
                                    value: value.to_string(),
                                    owner: owner.to_string(),
                                    expected: $crate::params::valid_int_range(
                                        &*self,
                                        |p: &mut Self, v| p.$field = v,
                                        &self.$field,
                                        owner,
                                        expected,
                                    ),
                                })?;
                            Ok(())
                        }
                    )*
                    _ => Err($crate::params::ParamError::UnknownKey {
                        key: key.to_string(),
                        owner: owner.to_string(),
                        valid: <Self as $crate::params::ParamSet>::valid_keys(),
                    }),
                }
            }

            fn values(&self) -> Vec<(&'static str, String)> {
                #[allow(unused_mut)]
                let mut out = Vec::new();
                #[allow(unused_variables)]
                let elide: &[&str] = &[$($($crate::params::key_name(stringify!($elide))),*)?];
                #[allow(unused_variables)]
                let d = Self::default();
                $(
                    let key = $crate::params::key_name(stringify!($field));
                    let value = $crate::params::ParamValue::format_param(&self.$field);
                    let elided = elide.contains(&key)
                        && value == $crate::params::ParamValue::format_param(&d.$field);
                    if !elided && !$crate::params::ParamValue::hidden_at_default(&self.$field) {
                        out.push((key, value));
                    }
                )*
                out
            }

            fn fingerprints(&self) -> Vec<(&'static str, String)> {
                #[allow(unused_mut)]
                let mut out = Vec::new();
                $(
                    if let Some(f) = $crate::params::ParamValue::fingerprint(&self.$field) {
                        out.push(($crate::params::key_name(stringify!($field)), f));
                    }
                )*
                out
            }

            #[allow(unused_variables)]
            fn check_players(&self, owner: &str, range: (usize, usize))
                -> Result<(), $crate::params::ParamError> {
                $(
                    $crate::params::ParamValue::fits_players(&self.$field, range).map_err(
                        |expected| $crate::params::ParamError::BadValue {
                            key: $crate::params::key_name(stringify!($field)).to_string(),
                            value: $crate::params::ParamValue::format_param(&self.$field),
                            owner: owner.to_string(),
                            expected,
                        },
                    )?;
                )*
                Ok(())
            }

            $(
                fn validate(&self, owner: &str) -> Result<(), $crate::params::ParamError> {
                    $validate(self, owner)
                }
            )?
        }
    };
}

/// Declares a `Copy` enum whose variants are typed as fixed words, and implements
/// [`ParamValue`] and `Display` for it.
///
/// ```
/// tabletop_sim::param_enum! {
///     /// How to pick the final move.
///     pub enum Final { Visits = "visits", Value = "value" }
/// }
/// use tabletop_sim::params::ParamValue;
/// assert_eq!(Final::parse_param("value"), Ok(Final::Value));
/// assert!(Final::parse_param("max").unwrap_err().contains("visits|value"));
/// ```
#[macro_export]
macro_rules! param_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident { $( $(#[doc = $doc:literal])* $variant:ident = $text:literal ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $( $(#[doc = $doc])* $variant, )* }

        impl $crate::params::ParamValue for $name {
            const SYNTAX: $crate::params::Syntax = $crate::params::Syntax::of_words(&[$($text),*]);

            fn parse_param(s: &str) -> Result<Self, String> {
                match s.trim() {
                    $( $text => Ok($name::$variant), )*
                    _ => Err(format!("one of {}", <Self as $crate::params::ParamValue>::type_name())),
                }
            }
            fn format_param(&self) -> String {
                match self { $( $name::$variant => $text.to_string(), )* }
            }
            fn type_name() -> String {
                [$($text),*].join("|")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$crate::params::ParamValue::format_param(self))
            }
        }
    };
}

/// The rule-variant set of a game (an alias of [`ParamSet`] for readability).
pub use ParamSet as GameParams;

#[cfg(test)]
mod tests {
    use super::*;

    fn at_most_ten(p: &Bounded, owner: &str) -> Result<(), ParamError> {
        if p.size <= 10 {
            Ok(())
        } else {
            Err(ParamError::Invalid {
                owner: owner.into(),
                reason: format!("size = {} exceeds 10", p.size),
            })
        }
    }

    crate::param_set! {
        /// A test set with a range check.
        struct Bounded {
            /// A size.
            size: u32 = 3,
        }
        validate = at_most_ten;
    }

    #[test]
    fn validate_hook_runs_after_settings() {
        assert_eq!(Bounded::from_settings(&["size=10"], "t").unwrap().size, 10);
        let e = Bounded::from_settings(&["size=11"], "game t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("game t") && e.contains("size = 11"), "{e}");
        assert!(matches!(
            Bounded::from_settings(&["size"], "t"),
            Err(ParamError::Malformed(_))
        ));
    }

    #[test]
    fn a_value_outside_the_type_names_the_range_the_checks_accept() {
        // -1 and 2^40 are no u32: the message names 0..=10 (what validate accepts), not
        // the type's 0..=4294967295.
        for v in ["-1", "1099511627776"] {
            let e = Bounded::from_settings(&[format!("size={v}")], "t")
                .unwrap_err()
                .to_string();
            assert!(e.contains("an integer in 0..=10"), "{e}");
        }
        // Without a check that narrows it, the type's range is the valid one.
        crate::param_set! {
            struct Free {
                /// A count.
                n: u8 = 1,
            }
        }
        let e = Free::from_settings(&["n=-1"], "t").unwrap_err().to_string();
        assert!(e.contains("an integer in 0..=255"), "{e}");
    }
}
