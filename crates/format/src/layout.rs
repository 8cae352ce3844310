//! One declaration per fixed-layout structure.
//!
//! [`layout!`] declares a structure once: for each field its server constant
//! name, its offset, its on-disk type, the Rust field it is read into, its
//! documentation, and optionally what it points to (`points page`) and how
//! its value reads (`shows f`, a function of the value and the
//! [`PageContext`]). From that one declaration come the `pub const` offsets,
//! the struct, `parse_at` (every read bounds-checked through
//! [`crate::bytes`], errors naming the field and its offset) and `fields_at`
//! (the display fields `page` shows).
//!
//! ```text
//! layout! {
//!     /// The FIL header.
//!     pub struct FilHeader {
//!         /// Offset 8: the left sibling.
//!         FIL_PAGE_PREV @ 8 => prev: u32, points page;
//!         /// Offset 24: the page type.
//!         FIL_PAGE_TYPE @ 24 => page_type: PageType, shows show_type;
//!     }
//! }
//! ```
//!
//! A constant may be named apart from the field it displays as (`LOB_FIRST_VERSION
//! "OFFSET_VERSION" @ 38 => …`), and a structure may begin with the fields it
//! shares with a relative (`pub struct LobFirstPage includes LobFirstCommon
//! as common { … }`): the shared part is declared once, in its own file.
//! Offsets are counted from the `base` given to `parse_at` and `fields_at`:
//! structures at a fixed place on their page are declared with absolute
//! offsets and read at base 0; entries (XDES, INODE, index entries, undo log
//! headers) are declared relative to their start.

use crate::context::PageContext;
use crate::field::Field;
use crate::FormatError;

/// A type read from a fixed number of bytes: the field types of [`layout!`].
pub trait OnDisk {
    /// The value read.
    type Value;
    /// Bytes it takes on disk.
    const SIZE: usize;
    /// Reads the value at `offset` of `buf`; `name` names the field in errors.
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<Self::Value, FormatError>;
    /// The value as one display field at absolute `offset`.
    fn field(value: &Self::Value, offset: usize, name: &'static str) -> Field;
}

macro_rules! primitive {
    ($t:ty, $size:expr, $read:path) => {
        impl OnDisk for $t {
            type Value = $t;
            const SIZE: usize = $size;
            fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<$t, FormatError> {
                $read(buf, offset, name)
            }
            fn field(value: &$t, offset: usize, name: &'static str) -> Field {
                Field::new(offset, $size, name, u64::from(*value))
            }
        }
    };
}

primitive!(u8, 1, crate::bytes::u8_at);
primitive!(u16, 2, crate::bytes::u16_at);
primitive!(u32, 4, crate::bytes::u32_at);
primitive!(u64, 8, crate::bytes::u64_at);

/// A big-endian 48-bit integer (transaction ids), read into a `u64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct U48;

impl OnDisk for U48 {
    type Value = u64;
    const SIZE: usize = 6;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<u64, FormatError> {
        crate::bytes::u48_at(buf, offset, name)
    }
    fn field(value: &u64, offset: usize, name: &'static str) -> Field {
        Field::new(offset, 6, name, *value)
    }
}

/// A big-endian 56-bit integer (roll pointers), read into a `u64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct U56;

impl OnDisk for U56 {
    type Value = u64;
    const SIZE: usize = 7;
    fn read(buf: &[u8], offset: usize, name: &'static str) -> Result<u64, FormatError> {
        crate::bytes::u56_at(buf, offset, name)
    }
    fn field(value: &u64, offset: usize, name: &'static str) -> Field {
        Field::new(offset, 7, name, *value)
    }
}

/// A structure declared with [`layout!`]: what code generic over
/// structures (arrays of entries, say) needs of it.
pub trait Declared: Sized {
    /// The offset just past its last field.
    const END: usize;
    /// Reads it from `buf`, its offsets counted from `base`.
    fn parse_at(buf: &[u8], base: usize) -> Result<Self, FormatError>;
    /// Its fields for display, at their absolute offsets.
    fn fields_at(&self, base: usize, ctx: &PageContext) -> Vec<Field>;
}

/// Reads a composite value: its whole extent first (an error then names the
/// outer field), then its parts.
pub fn read_composite<T>(
    buf: &[u8],
    offset: usize,
    size: usize,
    name: &'static str,
    parse_at: fn(&[u8], usize) -> Result<T, FormatError>,
) -> Result<T, FormatError> {
    crate::bytes::slice(buf, offset, size, name)?;
    parse_at(buf, offset)
}

/// The larger of two sizes, for the `END` constants [`layout!`] computes.
pub const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// What `points …` in a [`layout!`] declaration does to a field.
pub mod points {
    use super::{Field, PageContext};
    use crate::field::Pointer;

    /// The value is a page number of this tablespace; `FIL_NULL` points nowhere.
    pub fn page(f: &mut Field, value: &u32, _ctx: &PageContext) {
        if *value == crate::FIL_NULL {
            f.meaning = Some("FIL_NULL".into());
        } else {
            f.pointer = Some(Pointer::Page(*value));
        }
    }

    /// The value is a file segment id; 0 (an unused slot) points nowhere.
    pub fn segment(f: &mut Field, value: &u64, _ctx: &PageContext) {
        if *value != 0 {
            f.pointer = Some(Pointer::Segment(*value));
        }
    }

    /// The value is a roll pointer (`DB_ROLL_PTR`, 7 bytes).
    pub fn roll_ptr(f: &mut Field, value: &u64, _ctx: &PageContext) {
        f.pointer = Some(Pointer::roll_ptr(*value));
    }
}

/// Declares a fixed-layout structure once; see the [module documentation](self).
macro_rules! layout {
    (@name $c:ident) => {
        stringify!($c)
    };
    (@name $c:ident $d:literal) => {
        $d
    };
    (
        $(#[$smeta:meta])*
        pub struct $name:ident $(includes $common:ident as $cfield:ident)? {
            $(
                $(#[$fmeta:meta])*
                $cname:ident $($disp:literal)? @ $off:expr => $field:ident : $kind:ty
                    $(, points $ptr:ident)? $(, shows $show:path)? ;
            )*
        }
    ) => {
        $(
            $(#[$fmeta])*
            pub const $cname: usize = $off;
        )*

        $(#[$smeta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
        pub struct $name {
            $(
                #[doc = concat!("The fields shared with related structures ([`", stringify!($common), "`]).")]
                #[serde(flatten)]
                pub $cfield: $common,
            )?
            $(
                $(#[$fmeta])*
                pub $field: <$kind as $crate::layout::OnDisk>::Value,
            )*
        }

        impl $name {
            /// The offset just past the last field, counted as the fields are.
            pub const END: usize = {
                #[allow(unused_mut)]
                let mut end = 0;
                $( end = $crate::layout::max(end, $common::END); )?
                $( end = $crate::layout::max(end, $off + <$kind as $crate::layout::OnDisk>::SIZE); )*
                end
            };

            /// Reads the structure from `buf`, its offsets counted from `base`.
            pub fn parse_at(buf: &[u8], base: usize) -> Result<Self, $crate::FormatError> {
                Ok($name {
                    $( $cfield: $common::parse_at(buf, base)?, )?
                    $(
                        $field: <$kind as $crate::layout::OnDisk>::read(
                            buf,
                            base + $off,
                            $crate::layout::layout!(@name $cname $($disp)?),
                        )?,
                    )*
                })
            }

            /// Every field for display, at its absolute offset (its declared
            /// offset plus `base`), in declaration order.
            pub fn fields_at(
                &self,
                base: usize,
                ctx: &$crate::context::PageContext,
            ) -> Vec<$crate::field::Field> {
                let _ = ctx;
                #[allow(unused_mut)]
                let mut out = Vec::new();
                $( out.extend(self.$cfield.fields_at(base, ctx)); )?
                $(
                    #[allow(unused_mut)]
                    let mut f = <$kind as $crate::layout::OnDisk>::field(
                        &self.$field,
                        base + $off,
                        $crate::layout::layout!(@name $cname $($disp)?),
                    );
                    $( $crate::layout::points::$ptr(&mut f, &self.$field, ctx); )?
                    $(
                        if let Some(m) = $show(&self.$field, ctx) {
                            f.meaning = Some(m);
                        }
                    )?
                    out.push(f);
                )*
                out
            }
        }

        impl $crate::layout::Declared for $name {
            const END: usize = $name::END;
            fn parse_at(buf: &[u8], base: usize) -> Result<Self, $crate::FormatError> {
                $name::parse_at(buf, base)
            }
            fn fields_at(
                &self,
                base: usize,
                ctx: &$crate::context::PageContext,
            ) -> Vec<$crate::field::Field> {
                $name::fields_at(self, base, ctx)
            }
        }
    };
}

pub(crate) use layout;

#[cfg(test)]
mod tests {
    use super::*;

    fn show_double(v: &u16, _: &PageContext) -> Option<String> {
        Some(format!("twice {}", 2 * v))
    }

    layout! {
        /// A test structure.
        pub struct Inner {
            /// Offset 0.
            INNER_A @ 0 => a: u16;
        }
    }

    layout! {
        /// A test structure that includes another.
        pub struct Outer includes Inner as inner {
            /// Offset 2.
            OUTER_B "SERVER_B" @ 2 => b: u32, points page;
            /// Offset 6.
            OUTER_C @ 6 => c: U48;
            /// Offset 12.
            OUTER_D @ 12 => d: u16, shows show_double;
        }
    }

    #[test]
    fn one_declaration_gives_constants_parse_and_fields() {
        assert_eq!((INNER_A, OUTER_B, OUTER_C, OUTER_D), (0, 2, 6, 12));
        assert_eq!((Inner::END, Outer::END), (2, 14));
        let mut b = vec![0xAAu8; 4];
        b.extend_from_slice(&[0, 7, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 1, 2, 0, 21]);
        let o = Outer::parse_at(&b, 4).unwrap();
        assert_eq!((o.inner.a, o.b, o.c, o.d), (7, crate::FIL_NULL, 0x0102, 21));
        let f = o.fields_at(4, &PageContext::default());
        let names: Vec<_> = f.iter().map(|f| (f.name, f.offset, f.size)).collect();
        assert_eq!(
            names,
            [
                ("INNER_A", 4, 2),
                ("SERVER_B", 6, 4),
                ("OUTER_C", 10, 6),
                ("OUTER_D", 16, 2)
            ]
        );
        assert_eq!(f[1].meaning.as_deref(), Some("FIL_NULL"));
        assert_eq!(f[1].pointer, None);
        assert_eq!(f[3].meaning.as_deref(), Some("twice 42"));
        // A short buffer: the error names the first field that does not fit.
        assert_eq!(
            Outer::parse_at(&b, 7),
            Err(FormatError::OutOfBounds {
                field: "OUTER_C",
                offset: 13,
                len: 6,
                available: 18
            })
        );
    }
}
