//! One list per parameter struct: [`tunable!`](crate::tunable!) defines the struct, its
//! defaults and its `key=value` keys from a single declaration, so that the parser, the
//! defaults and the documentation (`docs/search-parameters.md`, printed by
//! `pbrain-sente params`) cannot drift apart. Used by `eval::params` and
//! `search::params`.

/// One `key=value` setting of a parameter struct `P`.
pub struct Key<P: 'static> {
    /// The key as written in a spec (`top_n`).
    pub name: &'static str,
    /// What the key sets, for the documentation.
    pub help: &'static str,
    /// The values it accepts (a clamped range, `on`/`off`, a list), for the documentation.
    pub values: &'static str,
    /// Sets the value from its text; an error leaves `P` unchanged.
    pub set: fn(&mut P, &str) -> Result<(), String>,
    /// The value in `P`, written as a spec would write it.
    pub show: fn(&P) -> String,
}

/// A value a key can set: read from a spec's text and written back.
pub trait ParamValue: Sized {
    /// Read a value (errors name the bad text).
    ///
    /// # Errors
    /// A message naming the bad text.
    fn parse(v: &str) -> Result<Self, String>;
    /// The value as a spec writes it.
    fn show(&self) -> String;
}

/// A flag: `1`/`true`/`on` or `0`/`false`/`off`; written `on`/`off`.
impl ParamValue for bool {
    fn parse(v: &str) -> Result<Self, String> {
        match v {
            "1" | "true" | "on" => Ok(true),
            "0" | "false" | "off" => Ok(false),
            _ => Err(format!("bad flag {v:?}")),
        }
    }
    fn show(&self) -> String {
        if *self { "on" } else { "off" }.to_string()
    }
}

/// A list of numbers separated by `/` (one per pattern class).
impl<const N: usize> ParamValue for [i32; N] {
    fn parse(v: &str) -> Result<Self, String> {
        let w: Vec<i32> = v
            .split('/')
            .map(|x| x.parse::<i32>().map_err(|_| format!("bad weight {x:?}")))
            .collect::<Result<_, _>>()?;
        w.try_into()
            .map_err(|_| format!("expected {N} weights in {v:?}"))
    }
    fn show(&self) -> String {
        self.iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join("/")
    }
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        /// A whole number (keys with a range clamp it with [`int`] instead).
        impl ParamValue for $t {
            fn parse(v: &str) -> Result<Self, String> {
                v.parse().map_err(|_| format!("bad number {v:?}"))
            }
            fn show(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
int_value!(i32, u32, u64, usize);

/// A whole number clamped to `lo..=hi` (out-of-range values are clamped, not refused).
///
/// # Errors
/// A message naming `v` when it is not a number.
pub fn int<T: TryFrom<i64>>(v: &str, lo: i64, hi: i64) -> Result<T, String> {
    let n = v.parse::<i64>().map_err(|_| format!("bad number {v:?}"))?;
    T::try_from(n.clamp(lo, hi)).map_err(|_| format!("number out of range {v:?}"))
}

/// The parser of one key: clamped to a range, through a named function, or by the
/// value's [`ParamValue`] impl.
#[doc(hidden)]
#[macro_export]
macro_rules! tunable_parse {
    ($v:ident, [$lo:expr, $hi:expr], ) => {
        $crate::tunable::int($v, $lo, $hi)
    };
    ($v:ident, , $parse:path) => {
        $parse($v)
    };
    ($v:ident, , ) => {
        $crate::tunable::ParamValue::parse($v)
    };
}

/// The "values" column of one key: its range, or what its type accepts.
#[doc(hidden)]
#[macro_export]
macro_rules! tunable_values {
    ([$lo:expr, $hi:expr], $values:literal) => {
        $values
    };
    ([$lo:expr, $hi:expr], ) => {
        concat!(stringify!($lo), " to ", stringify!($hi))
    };
    (, $values:literal) => {
        $values
    };
    (, ) => {
        ""
    };
}

/// The writer of one key: a named function or the value's [`ParamValue`] impl.
#[doc(hidden)]
#[macro_export]
macro_rules! tunable_show {
    ($p:ident . $f:ident, $show:path) => {
        $show(&$p.$f)
    };
    ($p:ident . $f:ident, ) => {
        $crate::tunable::ParamValue::show(&$p.$f)
    };
}

/// Defines a parameter struct with public fields, its `Default`, and `KEYS`, the table of
/// its `key=value` keys (in declaration order), from one list. Each field is
/// `name: Type = default` followed by zero or more keys:
///
/// `, "key" [lo, hi] (values) with parse, show => "help"`
///
/// `[lo, hi]` clamps a whole number; `with parse, show` names a reader
/// `fn(&str) -> Result<T, String>` and a writer `fn(&T) -> String` instead of
/// [`ParamValue`]'s; `(values)` says what the key accepts (the documentation's
/// "values" column; default: the range). All three are optional, in this order. A
/// field without keys is set only from code.
#[macro_export]
macro_rules! tunable {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr
                $(, $key:literal $([$lo:expr, $hi:expr])? $(($values:literal))?
                    $(with $parse:path, $show:path)? => $help:literal)*
                ;
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $(
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)* }
            }
        }

        impl $name {
            /// Every `key=value` key of this struct, in declaration order.
            pub const KEYS: &'static [$crate::tunable::Key<$name>] = &[
                $($(
                    $crate::tunable::Key {
                        name: $key,
                        help: $help,
                        values: $crate::tunable_values!($([$lo, $hi])?, $($values)?),
                        set: |p: &mut $name, v: &str| {
                            p.$field = $crate::tunable_parse!(v, $([$lo, $hi])?, $($parse)?)?;
                            Ok(())
                        },
                        show: |p: &$name| $crate::tunable_show!(p.$field, $($show)?),
                    },
                )*)*
            ];
        }
    };
}

/// The key called `name` in `keys`, if there is one.
#[must_use]
pub fn find<P>(keys: &'static [Key<P>], name: &str) -> Option<&'static Key<P>> {
    keys.iter().find(|k| k.name == name)
}
