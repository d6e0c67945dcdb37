//! Named parameters for games (rule variants) and agents (search settings).
//!
//! A parameter set is a plain struct declared with [`param_set!`]: every field has a type,
//! a default and a doc line, and the macro derives the table that `sim list` prints, the
//! `key=value` parser used by `--variant` and agent specs, and the canonical form written
//! to CSV and config files. Values are parsed by [`ParamValue`]; enums declare their
//! spellings with [`param_enum!`].

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
    /// What the parameter means, with its source (rulebook or GAPS.md id).
    pub meaning: String,
}

/// A value that can be typed on the command line.
pub trait ParamValue: Sized + Clone {
    /// Parses the typed form.
    ///
    /// # Errors
    /// A description of the expected form.
    fn parse_param(s: &str) -> Result<Self, String>;
    /// The typed form; `parse_param(format_param(x)) == x`.
    fn format_param(&self) -> String;
    /// The type's name for tables and error messages.
    fn type_name() -> String;
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl ParamValue for $t {
            fn parse_param(s: &str) -> Result<Self, String> {
                s.trim().parse().map_err(|_| format!("an integer in {}..={}", <$t>::MIN, <$t>::MAX))
            }
            fn format_param(&self) -> String { self.to_string() }
            fn type_name() -> String { "int".into() }
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
                                    expected,
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
                vec![$(
                    ($crate::params::key_name(stringify!($field)), $crate::params::ParamValue::format_param(&self.$field)),
                )*]
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
}
