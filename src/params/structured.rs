//! Structured parameter values: lists (`a,b,c`), fixed-length tuples (`a/b/c`) and values
//! that depend on the player count (`21/14/14`).
//!
//! Each container splits its typed form on one separator and parses the pieces with the
//! item type's [`ParamValue`] impl, so the pieces compose: `Vec<[u8; 3]>` is typed
//! `2/2/5,1/3/5`. An item type whose typed form may contain the container's separator
//! ([`ParamValue::SYNTAX`]) is refused at compile time, so no typed form is ambiguous.

use super::{ParamError, ParamValue, Syntax};

/// The type name of an item inside a compound name: bracketed unless it is one word, so
/// `[RepOrder; 2]` reads `(a|b)/(a|b)`, not `a|b/a|b`.
fn item_name<T: ParamValue>() -> String {
    let n = T::type_name();
    if n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        n
    } else {
        format!("({n})")
    }
}

/// `1 value` / `3 values`.
fn values(n: usize) -> String {
    if n == 1 {
        "1 value".into()
    } else {
        format!("{n} values")
    }
}

/// Parses one piece of a container, naming its position when it fails.
fn item<T: ParamValue>(i: usize, piece: &str) -> Result<T, String> {
    T::parse_param(piece).map_err(|e| format!("item {} '{}': expected {e}", i + 1, piece.trim()))
}

/// Parses a comma-separated list without the list's own description in the error: the
/// building block for parameters that are lists with extra rules (Daxu's `deck`), which
/// put their own accepted forms in front of the detail.
///
/// `none` and the empty string (after trimming) are the empty list.
///
/// # Errors
/// Which item failed and what it should be: `item 2 'x': expected an integer in 0..=255`.
pub fn parse_list<T: ParamValue>(s: &str) -> Result<Vec<T>, String> {
    const {
        assert!(
            !T::SYNTAX.intersects(Syntax::COMMA.union(Syntax::NONE_WORD)),
            "a list item's typed form must not contain ',' or be the word 'none'"
        );
    }
    let s = s.trim();
    if s.is_empty() || s == "none" {
        return Ok(Vec::new());
    }
    s.split(',')
        .enumerate()
        .map(|(i, piece)| item(i, piece))
        .collect()
}

/// A list, typed as its items separated by `,` (`dragon, turtle,phoenix`; whitespace
/// around items is ignored). The empty list is typed `none`, and also accepted as the empty
/// string (`clans=`); it is printed as `none`. Items may not contain `,` nor be the word
/// `none` (checked at compile time), so every list has exactly one typed form.
///
/// Not for agent parameters: agent specs separate their settings with `,`.
impl<T: ParamValue> ParamValue for Vec<T> {
    const SYNTAX: Syntax = T::SYNTAX.union(Syntax::COMMA).union(Syntax::NONE_WORD);

    fn parse_param(s: &str) -> Result<Self, String> {
        parse_list(s).map_err(|detail| {
            format!(
                "a list of {} separated by ',' ('none' for an empty list); {detail}",
                T::type_name()
            )
        })
    }

    fn format_param(&self) -> String {
        if self.is_empty() {
            "none".into()
        } else {
            let items: Vec<String> = self.iter().map(T::format_param).collect();
            items.join(",")
        }
    }

    fn type_name() -> String {
        format!("list of {}", T::type_name())
    }

    fn fits_players(&self, range: (usize, usize)) -> Result<(), String> {
        self.iter().try_for_each(|x| x.fits_players(range))
    }
}

/// A fixed-length tuple, typed as exactly `N` items separated by `/` (`2/2/5`; whitespace
/// around items is ignored). `N` is at least 1 and items may not contain `/` (both checked
/// at compile time).
impl<T: ParamValue, const N: usize> ParamValue for [T; N] {
    const SYNTAX: Syntax = T::SYNTAX.union(Syntax::SLASH);

    fn parse_param(s: &str) -> Result<Self, String> {
        const {
            assert!(N > 0, "a tuple parameter holds at least one item");
            assert!(
                !T::SYNTAX.intersects(Syntax::SLASH),
                "a tuple item's typed form must not contain '/'"
            );
        }
        let forms = || {
            format!(
                "exactly {} separated by '/' ({})",
                values(N),
                Self::type_name()
            )
        };
        let pieces: Vec<&str> = s.split('/').collect();
        if pieces.len() != N {
            return Err(format!("{}; got {}", forms(), values(pieces.len())));
        }
        let items = pieces
            .iter()
            .enumerate()
            .map(|(i, p)| item(i, p))
            .collect::<Result<Vec<T>, String>>()
            .map_err(|detail| format!("{}; {detail}", forms()))?;
        match items.try_into() {
            Ok(a) => Ok(a),
            Err(_) => unreachable!("the length was checked"),
        }
    }

    fn format_param(&self) -> String {
        let items: Vec<String> = self.iter().map(T::format_param).collect();
        items.join("/")
    }

    fn type_name() -> String {
        vec![item_name::<T>(); N].join("/")
    }

    fn fits_players(&self, range: (usize, usize)) -> Result<(), String> {
        self.iter().try_for_each(|x| x.fits_players(range))
    }
}

/// A value that may depend on the number of players, for a game played by `min..=max`
/// players: typed as one value for every count (`14`), or one value per count from `min`
/// to `max` separated by `/` (`21/14/14` for 2, 3 and 4 players; whitespace around items is
/// ignored).
///
/// Parsing cannot know the game's range, so it accepts any number of values; the game's
/// rules builder checks the count with [`PerCount::check`] (or, for a whole parameter set,
/// [`super::ParamSet::check_players`]) and then reads the value with [`PerCount::at`].
/// Items may not contain `/` (checked at compile time), so `PerCount<[T; N]>` does not
/// compile; `PerCount<Vec<T>>` (`1,2/3/4,5`) does.
///
/// The typed form is kept as given: `14/14/14` stays three values and prints as such, and
/// equals neither `14` nor anything else that prints differently.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PerCount<T> {
    /// One value (every count), or one per count; never empty.
    values: Vec<T>,
}

impl<T> PerCount<T> {
    /// The same value for every player count.
    pub fn all(value: T) -> Self {
        PerCount {
            values: vec![value],
        }
    }

    /// One value per player count, from the smallest count up (a single value means every
    /// count, as [`PerCount::all`]).
    ///
    /// # Panics
    /// If `values` is empty.
    pub fn by_count(values: Vec<T>) -> Self {
        assert!(!values.is_empty(), "PerCount needs at least one value");
        PerCount { values }
    }

    /// The values as given: one, or one per count.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// Whether the number of values fits a game played by `range.0..=range.1` players:
    /// one value, or exactly one per count.
    pub fn fits(&self, range: (usize, usize)) -> bool {
        let (min, max) = range;
        self.values.len() == 1 || (min <= max && self.values.len() == max - min + 1)
    }

    /// The accepted forms for a player range, for error messages: `one value, or 3 values
    /// separated by '/' for 2, 3, 4 players`.
    pub fn forms(range: (usize, usize)) -> String {
        let (min, max) = range;
        if min >= max {
            format!("one value (played by {min} players only)")
        } else {
            let counts: Vec<String> = (min..=max).map(|n| n.to_string()).collect();
            format!(
                "one value, or {} separated by '/' for {} players",
                values(max - min + 1),
                counts.join(", ")
            )
        }
    }
}

impl<T: ParamValue> PerCount<T> {
    /// Checks that the number of values fits a game played by `range.0..=range.1` players.
    /// `key` and `owner` name the parameter and the game in the error.
    ///
    /// # Errors
    /// [`ParamError::BadValue`] with the value as typed and the accepted forms:
    /// `bad value '21/14' for parameter 'win_coins' of game dunhuang: expected one value,
    /// or 3 values separated by '/' for 2, 3, 4 players; got 2 values`.
    pub fn check(&self, key: &str, owner: &str, range: (usize, usize)) -> Result<(), ParamError> {
        self.fits_players(range)
            .map_err(|expected| ParamError::BadValue {
                key: key.to_string(),
                value: self.format_param(),
                owner: owner.to_string(),
                expected,
            })
    }

    /// The value for `players` in a game played by `range.0..=range.1` players.
    ///
    /// # Panics
    /// If `players` is outside the range, or the number of values does not fit it (call
    /// [`PerCount::check`] when building the rules, where bad input is reported).
    pub fn at(&self, players: usize, range: (usize, usize)) -> T {
        let (min, max) = range;
        assert!(
            (min..=max).contains(&players),
            "{players} players is outside {min}..={max}"
        );
        assert!(
            self.fits(range),
            "{} values do not fit {min}..={max} players; PerCount::check was not called",
            self.values.len()
        );
        if self.values.len() == 1 {
            self.values[0].clone()
        } else {
            self.values[players - min].clone()
        }
    }
}

impl<T: ParamValue> ParamValue for PerCount<T> {
    const SYNTAX: Syntax = T::SYNTAX.union(Syntax::SLASH);

    fn parse_param(s: &str) -> Result<Self, String> {
        const {
            assert!(
                !T::SYNTAX.intersects(Syntax::SLASH),
                "a per-count item's typed form must not contain '/'"
            );
        }
        let values = s
            .split('/')
            .enumerate()
            .map(|(i, p)| item(i, p))
            .collect::<Result<Vec<T>, String>>()
            .map_err(|detail| {
                format!(
                    "one value ({}), or one per player count separated by '/'; {detail}",
                    T::type_name()
                )
            })?;
        Ok(PerCount { values })
    }

    fn format_param(&self) -> String {
        let items: Vec<String> = self.values.iter().map(T::format_param).collect();
        items.join("/")
    }

    fn type_name() -> String {
        let t = item_name::<T>();
        format!("{t} or {t}/{t}/... by player count")
    }

    fn fits_players(&self, range: (usize, usize)) -> Result<(), String> {
        if self.fits(range) {
            self.values.iter().try_for_each(|x| x.fits_players(range))
        } else {
            Err(format!(
                "{}; got {}",
                Self::forms(range),
                values(self.values.len())
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamSet;
    use proptest::prelude::*;

    crate::param_enum! {
        /// A test enum.
        enum Clan { Dragon = "dragon", Turtle = "turtle", Phoenix = "phoenix" }
    }

    crate::param_set! {
        /// A test set with every structured type.
        struct Shapes {
            /// A list of enums.
            clans: Vec<Clan> = vec![Clan::Dragon, Clan::Turtle],
            /// A list of ints.
            sizes: Vec<u32> = Vec::new(),
            /// A triple.
            split: [u8; 3] = [2, 2, 5],
            /// Per player count, for a 2-4 player game.
            win_coins: PerCount<u32> = PerCount::by_count(vec![21, 14, 14]),
            /// Per player count, lists.
            hands: PerCount<Vec<u8>> = PerCount::all(vec![1, 2]),
        }
    }

    fn bad(setting: &str) -> String {
        Shapes::from_settings(&[setting], "game g")
            .unwrap_err()
            .to_string()
    }

    fn round_trip<T: ParamValue + PartialEq + std::fmt::Debug>(x: &T) {
        assert_eq!(T::parse_param(&x.format_param()).as_ref(), Ok(x));
    }

    #[test]
    fn lists_parse_trim_and_round_trip() {
        assert_eq!(Vec::<u32>::parse_param(" 1, 2 ,3"), Ok(vec![1, 2, 3]));
        assert_eq!(Vec::<u32>::parse_param("none"), Ok(vec![]));
        assert_eq!(Vec::<u32>::parse_param(" "), Ok(vec![]));
        assert_eq!(Vec::<u32>::new().format_param(), "none");
        assert_eq!(vec![7u8].format_param(), "7");
        let p = Shapes::from_settings(&["clans=phoenix, dragon", "sizes="], "t").unwrap();
        assert_eq!(p.clans, vec![Clan::Phoenix, Clan::Dragon]);
        assert_eq!(p.values()[0], ("clans", "phoenix,dragon".to_string()));
        assert_eq!(p.values()[1], ("sizes", "none".to_string()));
        round_trip(&vec![[1u8, 2, 6], [0, 0, 9]]);
        round_trip(&Vec::<Clan>::new());
        assert_eq!(
            Vec::<[u8; 3]>::parse_param("1/2/6, 0/0/9"),
            Ok(vec![[1, 2, 6], [0, 0, 9]])
        );
    }

    #[test]
    fn list_errors_name_the_item_and_the_forms() {
        let e = bad("sizes=1,x,3");
        assert_eq!(
            e,
            "bad value '1,x,3' for parameter 'sizes' of game g: expected a list of int \
             separated by ',' ('none' for an empty list); item 2 'x': expected an integer \
             in 0..=4294967295"
        );
        assert!(bad("sizes=1,,3").contains("item 2 '': expected an integer"));
        assert!(bad("sizes=1,2,").contains("item 3 ''"));
        let e = bad("clans=dragon,tiger");
        assert!(
            e.contains("a list of dragon|turtle|phoenix separated by ','")
                && e.contains("item 2 'tiger': expected one of dragon|turtle|phoenix"),
            "{e}"
        );
    }

    #[test]
    fn tuples_take_exactly_n_items() {
        assert_eq!(<[u8; 3]>::parse_param(" 4/ 4 /1 "), Ok([4, 4, 1]));
        round_trip(&[Clan::Turtle, Clan::Dragon]);
        round_trip(&[0.5f64]);
        assert_eq!(
            bad("split=2/2"),
            "bad value '2/2' for parameter 'split' of game g: expected exactly 3 values \
             separated by '/' (int/int/int); got 2 values"
        );
        assert!(bad("split=2/2/5/0").ends_with("got 4 values"));
        assert!(bad("split=2/256/5").ends_with("item 2 '256': expected an integer in 0..=255"));
        assert!(
            <[bool; 1]>::parse_param("true/false")
                .unwrap_err()
                .starts_with("exactly 1 value separated by '/'")
        );
    }

    #[test]
    fn per_count_parses_one_or_many_and_reads_by_count() {
        let one = PerCount::<u32>::parse_param(" 14 ").unwrap();
        assert_eq!(one, PerCount::all(14));
        assert_eq!(one.format_param(), "14");
        let many = PerCount::<u32>::parse_param("21/ 14/14").unwrap();
        assert_eq!(many.values(), &[21, 14, 14]);
        assert_eq!(many.format_param(), "21/14/14");
        assert_ne!(many, PerCount::all(14));
        assert_eq!(PerCount::by_count(vec![5u32]), PerCount::all(5));
        for players in 2..=4 {
            assert_eq!(one.at(players, (2, 4)), 14);
        }
        assert_eq!(
            [2, 3, 4].map(|n| many.at(n, (2, 4))),
            [21, 14, 14],
            "values are indexed from the smallest count"
        );
        assert_eq!(many.at(5, (3, 5)), 14);
        let lists = PerCount::<Vec<u8>>::parse_param("1,2/none/3").unwrap();
        assert_eq!(lists.values(), &[vec![1, 2], vec![], vec![3]]);
        round_trip(&lists);
        round_trip(&PerCount::by_count(vec![Clan::Dragon, Clan::Phoenix]));
        let e = bad("win_coins=21/x");
        assert_eq!(
            e,
            "bad value '21/x' for parameter 'win_coins' of game g: expected one value (int), \
             or one per player count separated by '/'; item 2 'x': expected an integer in \
             0..=4294967295"
        );
    }

    #[test]
    fn per_count_check_names_the_parameter_and_the_forms_for_the_range() {
        let two = PerCount::<u32>::parse_param("21/14").unwrap();
        assert_eq!(
            two.check("win_coins", "game dunhuang", (2, 4))
                .unwrap_err()
                .to_string(),
            "bad value '21/14' for parameter 'win_coins' of game dunhuang: expected one \
             value, or 3 values separated by '/' for 2, 3, 4 players; got 2 values"
        );
        assert!(two.check("k", "g", (2, 3)).is_ok());
        assert!(two.check("k", "g", (3, 4)).is_ok());
        assert!(PerCount::all(1u32).check("k", "g", (2, 4)).is_ok());
        assert!(PerCount::all(1u32).check("k", "g", (2, 2)).is_ok());
        let e = two.check("k", "game daxu", (2, 2)).unwrap_err().to_string();
        assert!(
            e.ends_with("expected one value (played by 2 players only); got 2 values"),
            "{e}"
        );
        let p = Shapes::default();
        assert!(p.check_players("game g", (2, 4)).is_ok());
        let e = p.check_players("game g", (2, 5)).unwrap_err().to_string();
        assert_eq!(
            e,
            "bad value '21/14/14' for parameter 'win_coins' of game g: expected one value, \
             or 4 values separated by '/' for 2, 3, 4, 5 players; got 3 values"
        );
        let nested = vec![PerCount::by_count(vec![1u8, 2])];
        assert!(nested.fits_players((2, 3)).is_ok());
        assert!(nested.fits_players((2, 4)).is_err());
    }

    #[test]
    #[should_panic(expected = "PerCount::check was not called")]
    fn per_count_at_panics_when_the_count_does_not_fit() {
        PerCount::by_count(vec![1u8, 2]).at(2, (2, 4));
    }

    #[test]
    #[should_panic(expected = "outside 2..=4")]
    fn per_count_at_panics_outside_the_range() {
        PerCount::all(1u8).at(5, (2, 4));
    }

    #[test]
    fn type_names_read_as_typed_forms() {
        let kinds: Vec<String> = Shapes::info().into_iter().map(|i| i.kind).collect();
        assert_eq!(
            kinds,
            [
                "list of dragon|turtle|phoenix",
                "list of int",
                "int/int/int",
                "int or int/int/... by player count",
                "(list of int) or (list of int)/(list of int)/... by player count",
            ]
        );
        assert_eq!(
            <[Clan; 2]>::type_name(),
            "(dragon|turtle|phoenix)/(dragon|turtle|phoenix)"
        );
        let defaults: Vec<String> = Shapes::info().into_iter().map(|i| i.default).collect();
        assert_eq!(
            defaults,
            ["dragon,turtle", "none", "2/2/5", "21/14/14", "1,2"]
        );
    }

    #[test]
    fn syntax_tracks_separators_and_the_word_none() {
        assert_eq!(u32::SYNTAX, Syntax::PLAIN);
        assert_eq!(Clan::SYNTAX, Syntax::PLAIN);
        assert_eq!(Syntax::of_words(&["a", "none"]), Syntax::NONE_WORD);
        assert_eq!(
            Syntax::of_words(&["a/b", "c,d"]),
            Syntax::SLASH.union(Syntax::COMMA)
        );
        assert_eq!(Syntax::of_words(&["nonex"]), Syntax::PLAIN);
        assert!(<Vec<u8>>::SYNTAX.intersects(Syntax::COMMA));
        assert!(<Vec<u8>>::SYNTAX.intersects(Syntax::NONE_WORD));
        assert!(!<Vec<u8>>::SYNTAX.intersects(Syntax::SLASH));
        assert!(<[u8; 2]>::SYNTAX.intersects(Syntax::SLASH));
        assert!(<PerCount<u8>>::SYNTAX.intersects(Syntax::SLASH));
    }

    proptest! {
        #[test]
        fn structured_values_round_trip(
            list in proptest::collection::vec(any::<i64>(), 0..6),
            triples in proptest::collection::vec(any::<[u8; 3]>(), 0..6),
            per in proptest::collection::vec(any::<u32>(), 1..5),
            floats in any::<[f64; 2]>().prop_filter("finite", |a| a.iter().all(|x| x.is_finite())),
        ) {
            round_trip(&list);
            round_trip(&triples);
            round_trip(&PerCount::by_count(per.clone()));
            round_trip(&PerCount::by_count(vec![per]));
            round_trip(&floats);
        }
    }
}
