//! MySQL's binary JSON (the stored form of a `JSON` column, 5.7+), turned
//! into the text `SELECT` shows (`sql-common/json_binary.cc` for the format,
//! `Json_wrapper::to_string` in `json_dom.cc` for the printing).
//!
//! A document is one type byte and the value it types. Integers are
//! little-endian. Tags: `0x00`/`0x01` small/large object, `0x02`/`0x03`
//! small/large array, `0x04` literal (`0` null, `1` true, `2` false), `0x05`
//! int16, `0x06` uint16, `0x07` int32, `0x08` uint32, `0x09` int64, `0x0A`
//! uint64, `0x0B` double, `0x0C` string, `0x0F` opaque.
//!
//! An object or array starts with its element count and its size in bytes
//! (2 bytes each in the small format, 4 in the large), then, for objects,
//! one key entry per member (key offset, then a 2-byte key length), then one
//! value entry per element (type byte, then an offset or the value itself).
//! Offsets count from the start of the object or array (just after its type
//! byte). Literals, int16 and uint16 are inlined in the value entry, and in
//! the large format int32 and uint32 too. Strings are a variable-length
//! length (7 bits a byte, low bits first, high bit set when another byte
//! follows) and the bytes; opaque values are a MySQL field-type byte, a
//! variable-length length and the bytes.
//!
//! Printing follows the server: `", "` between elements, `": "` after keys,
//! keys in stored order, strings escaped as JSON (`\b \t \n \f \r \" \\`,
//! other control bytes as `\u00xx`), doubles as `my_gcvt` writes them plus
//! `.0` when neither a point nor an exponent was written, DECIMAL opaques as
//! bare numbers, DATE/TIME/DATETIME/TIMESTAMP opaques as quoted strings with
//! six fractional digits (except DATE), VAR_STRING opaques as strings and any
//! other opaque as `"base64:typeNN:…"` (MIME base64, a newline every 76
//! characters, escaped as `\n`).
//!
//! Where this decoder is stricter than the server: a temporal opaque must hold
//! exactly 8 bytes, a double must be finite (the server prints NaN/infinity,
//! which it never stores, as `0.0`), and the text may be at most
//! [`MAX_TEXT_PER_BYTE`] times the input (the format lets entries share a
//! value, so a crafted document could otherwise expand exponentially).
//! Invalid UTF-8 in strings and keys is replaced by U+FFFD.

use crate::bytes::slice;
use crate::value::decimal::decode_decimal;
use crate::FormatError;

/// Deepest nesting of objects and arrays printed, as the server's
/// `JSON_DOCUMENT_MAX_DEPTH`; deeper documents are an error.
pub const MAX_DEPTH: usize = 100;

/// Bound on the text produced: this many characters per input byte (plus a
/// small constant). Real documents need at most about 6 (a control byte
/// escaped as `\u00xx`).
pub const MAX_TEXT_PER_BYTE: usize = 16;

const SMALL_OBJECT: u8 = 0x00;
const LARGE_OBJECT: u8 = 0x01;
const SMALL_ARRAY: u8 = 0x02;
const LARGE_ARRAY: u8 = 0x03;
const LITERAL: u8 = 0x04;
const INT16: u8 = 0x05;
const UINT16: u8 = 0x06;
const INT32: u8 = 0x07;
const UINT32: u8 = 0x08;
const INT64: u8 = 0x09;
const UINT64: u8 = 0x0A;
const DOUBLE: u8 = 0x0B;
const STRING: u8 = 0x0C;
const OPAQUE: u8 = 0x0F;

// MySQL field types (`enum_field_types`) that opaque values print specially.
const MYSQL_TYPE_TIMESTAMP: u8 = 7;
const MYSQL_TYPE_DATE: u8 = 10;
const MYSQL_TYPE_TIME: u8 = 11;
const MYSQL_TYPE_DATETIME: u8 = 12;
const MYSQL_TYPE_NEWDECIMAL: u8 = 246;
const MYSQL_TYPE_VAR_STRING: u8 = 253;

/// The text MySQL prints for the stored JSON value `b` (the column's bytes,
/// off-page parts already joined).
///
/// An empty value is the JSON null literal: the server stores one when NULL
/// goes into a `NOT NULL` JSON column under `INSERT IGNORE` or a non-strict
/// SQL mode, and `parse_binary` reads it as null.
///
/// Errors name the field and its offset within `b`: a structure that runs
/// past its container or the buffer, an unknown type tag or literal, an
/// offset pointing into a header, nesting deeper than [`MAX_DEPTH`], an
/// opaque DECIMAL or temporal value of the wrong size.
pub fn to_text(b: &[u8]) -> Result<String, FormatError> {
    let Some(&tag) = b.first() else {
        return Ok("null".to_owned());
    };
    let mut p = Printer {
        doc: b,
        out: String::new(),
        limit: b.len().saturating_mul(MAX_TEXT_PER_BYTE).saturating_add(64),
    };
    known(tag, 0)?;
    p.value(tag, 1, b.len(), 0)?;
    Ok(p.out)
}

struct Printer<'a> {
    doc: &'a [u8],
    out: String,
    limit: usize,
}

/// Checks the type byte `tag` found at `at`.
fn known(tag: u8, at: usize) -> Result<(), FormatError> {
    if tag <= STRING || tag == OPAQUE {
        Ok(())
    } else {
        Err(bad("JSON type", at, format!("unknown type tag {tag:#04x}")))
    }
}

fn bad(field: &'static str, offset: usize, reason: impl Into<String>) -> FormatError {
    FormatError::BadValue {
        field,
        offset,
        reason: reason.into(),
    }
}

impl<'a> Printer<'a> {
    /// `n` bytes at `at`, which must end by `end` (the enclosing value's end).
    fn bytes(
        &self,
        at: usize,
        n: usize,
        end: usize,
        field: &'static str,
    ) -> Result<&'a [u8], FormatError> {
        let doc: &'a [u8] = self.doc;
        slice(doc.get(..end).unwrap_or(doc), at, n, field)
    }

    /// A little-endian unsigned integer of `n` (at most 8) bytes.
    fn le(&self, at: usize, n: usize, end: usize, field: &'static str) -> Result<u64, FormatError> {
        let b = self.bytes(at, n, end, field)?;
        Ok(b.iter().rev().fold(0, |acc, &x| (acc << 8) | u64::from(x)))
    }

    /// A variable-length length: returns it and the bytes it took.
    fn var_len(
        &self,
        at: usize,
        end: usize,
        field: &'static str,
    ) -> Result<(usize, usize), FormatError> {
        let mut len = 0u64;
        for i in 0..5 {
            let byte = self.le(at + i, 1, end, field)? as u8;
            len |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                if len > u64::from(u32::MAX) {
                    return Err(bad(field, at, "length exceeds 32 bits"));
                }
                return Ok((len as usize, i + 1));
            }
        }
        Err(bad(field, at, "length runs over 5 bytes"))
    }

    fn check_limit(&self, at: usize) -> Result<(), FormatError> {
        if self.out.len() > self.limit {
            return Err(bad(
                "JSON document",
                at,
                format!(
                    "text exceeds {} bytes: entries share values (corrupt or crafted document)",
                    self.limit
                ),
            ));
        }
        Ok(())
    }

    /// The value of type `tag` at `at`, which must end by `end`.
    fn value(&mut self, tag: u8, at: usize, end: usize, depth: usize) -> Result<(), FormatError> {
        self.check_limit(at)?;
        match tag {
            SMALL_OBJECT | LARGE_OBJECT | SMALL_ARRAY | LARGE_ARRAY => {
                self.container(tag, at, end, depth)
            }
            _ => self.scalar(tag, at, end),
        }
    }

    fn container(
        &mut self,
        tag: u8,
        at: usize,
        end: usize,
        depth: usize,
    ) -> Result<(), FormatError> {
        let object = matches!(tag, SMALL_OBJECT | LARGE_OBJECT);
        let large = matches!(tag, LARGE_OBJECT | LARGE_ARRAY);
        let depth = depth + 1;
        if depth > MAX_DEPTH {
            return Err(bad(
                "JSON element count",
                at,
                format!("nesting deeper than {MAX_DEPTH}"),
            ));
        }
        let os = if large { 4 } else { 2 };
        let key_entry = os + 2;
        let value_entry = 1 + os;
        let count = self.le(at, os, end, "JSON element count")? as usize;
        let size = self.le(at + os, os, end, "JSON size")? as usize;
        if size > end - at {
            return Err(bad(
                "JSON size",
                at + os,
                format!("{size} bytes, only {} available", end - at),
            ));
        }
        let keys = if object { key_entry } else { 0 };
        let header = count
            .checked_mul(keys + value_entry)
            .and_then(|h| h.checked_add(2 * os))
            .filter(|&h| h <= size)
            .ok_or_else(|| {
                bad(
                    "JSON element count",
                    at,
                    format!("{count} entries do not fit in {size} bytes"),
                )
            })?;
        let cend = at + size;
        let values = at + 2 * os + count * keys;
        self.out.push(if object { '{' } else { '[' });
        for i in 0..count {
            if i > 0 {
                self.out.push_str(", ");
            }
            if object {
                let e = at + 2 * os + i * key_entry;
                let koff = self.le(e, os, cend, "JSON key entry")? as usize;
                let klen = self.le(e + os, 2, cend, "JSON key entry")? as usize;
                if koff < header {
                    return Err(bad(
                        "JSON key entry",
                        e,
                        format!("key offset {koff} inside the header"),
                    ));
                }
                let key = self.bytes(at + koff, klen, cend, "JSON key")?;
                self.check_limit(at + koff)?;
                quote(&mut self.out, key);
                self.out.push_str(": ");
            }
            let e = values + i * value_entry;
            let t = self.le(e, 1, cend, "JSON value entry")? as u8;
            known(t, e)?;
            let inlined =
                matches!(t, LITERAL | INT16 | UINT16) || (large && matches!(t, INT32 | UINT32));
            if inlined {
                self.scalar(t, e + 1, e + value_entry)?;
            } else {
                let voff = self.le(e + 1, os, cend, "JSON value entry")? as usize;
                if voff > size || voff < e - at + value_entry {
                    return Err(bad(
                        "JSON value entry",
                        e,
                        format!("value offset {voff} outside 0..{size} or inside the header"),
                    ));
                }
                self.value(t, at + voff, cend, depth)?;
            }
        }
        self.out.push(if object { '}' } else { ']' });
        Ok(())
    }

    fn scalar(&mut self, tag: u8, at: usize, end: usize) -> Result<(), FormatError> {
        let text = match tag {
            LITERAL => match self.le(at, 1, end, "JSON literal")? {
                0 => "null".to_owned(),
                1 => "true".to_owned(),
                2 => "false".to_owned(),
                v => return Err(bad("JSON literal", at, format!("unknown literal {v}"))),
            },
            INT16 => (self.le(at, 2, end, "JSON int16")? as u16 as i16).to_string(),
            UINT16 => self.le(at, 2, end, "JSON uint16")?.to_string(),
            INT32 => (self.le(at, 4, end, "JSON int32")? as u32 as i32).to_string(),
            UINT32 => self.le(at, 4, end, "JSON uint32")?.to_string(),
            INT64 => (self.le(at, 8, end, "JSON int64")? as i64).to_string(),
            UINT64 => self.le(at, 8, end, "JSON uint64")?.to_string(),
            DOUBLE => {
                let d = f64::from_bits(self.le(at, 8, end, "JSON double")?);
                double(d)
                    .ok_or_else(|| bad("JSON double", at, format!("{d} is not a JSON number")))?
            }
            STRING => {
                let (len, n) = self.var_len(at, end, "JSON string length")?;
                let s = self.bytes(at + n, len, end, "JSON string")?;
                quote(&mut self.out, s);
                return Ok(());
            }
            OPAQUE => {
                let ftype = self.le(at, 1, end, "JSON opaque type")? as u8;
                let (len, n) = self.var_len(at + 1, end, "JSON opaque length")?;
                let data = self.bytes(at + 1 + n, len, end, "JSON opaque data")?;
                self.opaque(ftype, data, at + 1 + n)?;
                return Ok(());
            }
            t => return Err(bad("JSON type", at, format!("unknown type tag {t:#04x}"))),
        };
        self.out.push_str(&text);
        Ok(())
    }

    /// An opaque value of MySQL field type `ftype`; `at` is where `data` starts.
    fn opaque(&mut self, ftype: u8, data: &[u8], at: usize) -> Result<(), FormatError> {
        match ftype {
            MYSQL_TYPE_NEWDECIMAL => {
                let text = match data {
                    [precision, scale, bin @ ..] => {
                        decode_decimal(bin, usize::from(*precision), usize::from(*scale))
                    }
                    _ => None,
                };
                let text = text.ok_or_else(|| {
                    bad(
                        "JSON opaque data",
                        at,
                        "not a DECIMAL (precision, scale, binary digits)",
                    )
                })?;
                self.out.push_str(&text);
            }
            MYSQL_TYPE_DATE | MYSQL_TYPE_TIME | MYSQL_TYPE_DATETIME | MYSQL_TYPE_TIMESTAMP => {
                let packed: [u8; 8] = data.try_into().map_err(|_| {
                    bad(
                        "JSON opaque data",
                        at,
                        format!("{} bytes, a packed temporal value has 8", data.len()),
                    )
                })?;
                let text = temporal(ftype, i64::from_le_bytes(packed));
                quote(&mut self.out, text.as_bytes());
            }
            MYSQL_TYPE_VAR_STRING => quote(&mut self.out, data),
            _ => {
                let text = format!("base64:type{ftype}:{}", base64(data));
                quote(&mut self.out, text.as_bytes());
            }
        }
        Ok(())
    }
}

/// `s` as a quoted JSON string, escaped as the server's `double_quote`.
fn quote(out: &mut String, s: &[u8]) {
    out.push('"');
    for c in String::from_utf8_lossy(s).chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A double as `my_gcvt(d, MY_GCVT_ARG_DOUBLE, 34)` writes it, plus `.0`
/// when that has neither a point nor an exponent; `None` for NaN/infinity.
///
/// `my_gcvt` takes the shortest digits that read back as `d` (dtoa mode 4
/// with more digits allowed than a double has) and writes them in fixed
/// notation for magnitudes from 1e-15 up to below 1e15 (or beyond, when
/// digits follow the point), else in `1.5e-20` style with no `+` and no
/// exponent padding. Within the 34 characters digits are never cut.
fn double(d: f64) -> Option<String> {
    if !d.is_finite() {
        return None;
    }
    // Shortest round-trip digits and the decimal point position (value = 0.DIGITS × 10^decpt).
    let (digits, decpt) = if d == 0.0 {
        ("0".to_owned(), 1i64)
    } else {
        let sci = format!("{:e}", d.abs());
        let (mantissa, exp) = sci.split_once('e')?;
        (mantissa.replace('.', ""), exp.parse::<i64>().ok()? + 1)
    };
    let len = digits.len() as i64;
    // The field is 34 characters, one less for a minus sign.
    let width: i64 = if d < 0.0 { 33 } else { 34 };
    // Length of the fixed notation: "0.00DDD", "DD.DDD" or "DDD000".
    let f_len = if decpt <= 0 {
        len - decpt + 2
    } else if decpt < len {
        len + 1
    } else {
        decpt
    };
    // my_gcvt also picks fixed notation without room for every digit when
    // -2 <= decpt <= width, but at most 17 digits always fit there in 33.
    let f_format = f_len <= width && decpt >= -14 && (decpt <= 15 || len > decpt);
    let mut s = String::new();
    if d.is_sign_negative() {
        s.push('-');
    }
    if f_format {
        if decpt <= 0 {
            s.push_str("0.");
            s.push_str(&"0".repeat(decpt.unsigned_abs() as usize));
            s.push_str(&digits);
        } else if decpt < len {
            let (int, frac) = digits.split_at(decpt as usize);
            s.push_str(int);
            s.push('.');
            s.push_str(frac);
        } else {
            s.push_str(&digits);
            s.push_str(&"0".repeat((decpt - len) as usize));
        }
    } else {
        let (first, rest) = digits.split_at(1);
        s.push_str(first);
        if !rest.is_empty() {
            s.push('.');
            s.push_str(rest);
        }
        s.push('e');
        s.push_str(&(decpt - 1).to_string());
    }
    if !s.contains(['.', 'e']) {
        s.push_str(".0");
    }
    Some(s)
}

/// A packed temporal value (`my_time.h`: `TIME_from_longlong_*_packed`) as
/// `my_TIME_to_str(…, 6)` prints it.
fn temporal(ftype: u8, packed: i64) -> String {
    let neg = packed < 0;
    let v = packed.unsigned_abs();
    let micro = (v % (1 << 24)) % 1_000_000;
    let int = v >> 24;
    // Two digits, or "00" for a value that has more (as `format_two_digits`).
    let two = |x: u64| {
        if x >= 100 {
            "00".to_owned()
        } else {
            format!("{x:02}")
        }
    };
    if ftype == MYSQL_TYPE_TIME {
        let hour = (int >> 12) % (1 << 10);
        let sign = if neg { "-" } else { "" };
        return format!(
            "{sign}{hour:02}:{}:{}.{micro:06}",
            two((int >> 6) % 64),
            two(int % 64)
        );
    }
    let ymd = int >> 17;
    let hms = int % (1 << 17);
    let (ym, day) = (ymd >> 5, ymd % 32);
    let (year, month) = (ym / 13, ym % 13);
    let date = format!(
        "{}{}-{}-{}",
        two(year / 100),
        two(year % 100),
        two(month),
        two(day)
    );
    if ftype == MYSQL_TYPE_DATE {
        return date;
    }
    format!(
        "{date} {}:{}:{}.{micro:06}",
        two(hms >> 12),
        two((hms >> 6) % 64),
        two(hms % 64)
    )
}

/// MIME base64 as the server's `base64_encode`: padded, a newline after every
/// 76 characters that are followed by more.
fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for (i, chunk) in data.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            s.push('\n');
        }
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                let sextet = ((n >> (18 - 6 * k)) & 0x3f) as usize;
                // In bounds: a 6-bit value (masked with 0x3f) indexes the
                // 64-entry alphabet.
                #[allow(clippy::indexing_slicing)]
                let c = ALPHABET[sextet];
                s.push(char::from(c));
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JSON value to serialize the way `json_binary::serialize` does.
    enum V {
        Lit(u8),
        I16(i16),
        U16(u16),
        I32(i32),
        U32(u32),
        I64(i64),
        U64(u64),
        D(f64),
        S(Vec<u8>),
        Opaque(u8, Vec<u8>),
        Arr(bool, Vec<V>),
        Obj(bool, Vec<(&'static str, V)>),
    }

    fn s(x: &str) -> V {
        V::S(x.as_bytes().to_vec())
    }

    fn var_len(n: usize, out: &mut Vec<u8>) {
        let mut n = n;
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            out.push(if n == 0 { b } else { b | 0x80 });
            if n == 0 {
                break;
            }
        }
    }

    /// The type tag and the bytes after it.
    fn enc(v: &V) -> (u8, Vec<u8>) {
        match v {
            V::Lit(l) => (LITERAL, vec![*l]),
            V::I16(x) => (INT16, x.to_le_bytes().to_vec()),
            V::U16(x) => (UINT16, x.to_le_bytes().to_vec()),
            V::I32(x) => (INT32, x.to_le_bytes().to_vec()),
            V::U32(x) => (UINT32, x.to_le_bytes().to_vec()),
            V::I64(x) => (INT64, x.to_le_bytes().to_vec()),
            V::U64(x) => (UINT64, x.to_le_bytes().to_vec()),
            V::D(x) => (DOUBLE, x.to_le_bytes().to_vec()),
            V::S(b) => {
                let mut out = Vec::new();
                var_len(b.len(), &mut out);
                out.extend_from_slice(b);
                (STRING, out)
            }
            V::Opaque(t, b) => {
                let mut out = vec![*t];
                var_len(b.len(), &mut out);
                out.extend_from_slice(b);
                (OPAQUE, out)
            }
            V::Arr(large, items) => {
                let items: Vec<(&str, &V)> = items.iter().map(|v| ("", v)).collect();
                let tag = if *large { LARGE_ARRAY } else { SMALL_ARRAY };
                (tag, container(*large, false, &items))
            }
            V::Obj(large, members) => {
                let members: Vec<(&str, &V)> = members.iter().map(|(k, v)| (*k, v)).collect();
                let tag = if *large { LARGE_OBJECT } else { SMALL_OBJECT };
                (tag, container(*large, true, &members))
            }
        }
    }

    fn container(large: bool, object: bool, members: &[(&str, &V)]) -> Vec<u8> {
        let os = if large { 4 } else { 2 };
        let put =
            |out: &mut Vec<u8>, x: usize| out.extend_from_slice(&(x as u32).to_le_bytes()[..os]);
        let n = members.len();
        let header = 2 * os + n * (1 + os) + if object { n * (os + 2) } else { 0 };
        let mut tail = Vec::new();
        if object {
            for (k, _) in members {
                tail.extend_from_slice(k.as_bytes());
            }
        }
        let mut entries = Vec::new();
        for (_, v) in members {
            let (tag, bytes) = enc(v);
            entries.push(tag);
            let inline =
                matches!(tag, LITERAL | INT16 | UINT16) || (large && matches!(tag, INT32 | UINT32));
            if inline {
                let mut slot = bytes.clone();
                slot.resize(os, 0);
                entries.extend_from_slice(&slot);
            } else {
                put(&mut entries, header + tail.len());
                tail.extend_from_slice(&bytes);
            }
        }
        let mut out = Vec::new();
        put(&mut out, n);
        put(&mut out, header + tail.len());
        if object {
            let mut at = header;
            for (k, _) in members {
                put(&mut out, at);
                out.extend_from_slice(&(k.len() as u16).to_le_bytes());
                at += k.len();
            }
        }
        out.extend_from_slice(&entries);
        out.extend_from_slice(&tail);
        out
    }

    fn doc(v: &V) -> Vec<u8> {
        let (tag, bytes) = enc(v);
        let mut out = vec![tag];
        out.extend_from_slice(&bytes);
        out
    }

    fn text(v: &V) -> String {
        to_text(&doc(v)).unwrap()
    }

    #[test]
    fn empty_value_is_null() {
        assert_eq!(to_text(&[]).unwrap(), "null");
    }

    #[test]
    fn literals() {
        assert_eq!(to_text(&[0x04, 0x00]).unwrap(), "null");
        assert_eq!(to_text(&[0x04, 0x01]).unwrap(), "true");
        assert_eq!(to_text(&[0x04, 0x02]).unwrap(), "false");
        assert!(matches!(
            to_text(&[0x04, 0x03]),
            Err(FormatError::BadValue {
                field: "JSON literal",
                offset: 1,
                ..
            })
        ));
        assert!(matches!(
            to_text(&[0x04]),
            Err(FormatError::OutOfBounds {
                field: "JSON literal",
                offset: 1,
                ..
            })
        ));
    }

    #[test]
    fn integers() {
        assert_eq!(to_text(&[0x05, 0xfe, 0xff]).unwrap(), "-2");
        assert_eq!(to_text(&[0x06, 0xff, 0xff]).unwrap(), "65535");
        assert_eq!(text(&V::I32(i32::MIN)), "-2147483648");
        assert_eq!(text(&V::U32(u32::MAX)), "4294967295");
        assert_eq!(text(&V::I64(i64::MIN)), "-9223372036854775808");
        assert_eq!(text(&V::U64(u64::MAX)), "18446744073709551615");
        assert!(to_text(&[0x09, 1, 2, 3, 4, 5, 6, 7]).is_err());
    }

    #[test]
    fn doubles_as_mysql_prints_them() {
        for (d, want) in [
            (2.5, "2.5"),
            (1.0, "1.0"),
            (-1.0, "-1.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (0.1, "0.1"),
            (1234.5678, "1234.5678"),
            (1e14, "100000000000000.0"),
            (1e15, "1e15"),
            (1234567890123456.7, "1234567890123456.8"),
            (1.2345678901234568e17, "1.2345678901234568e17"),
            (0.0001, "0.0001"),
            (1e-15, "0.000000000000001"),
            (1e-16, "1e-16"),
            (-1.5e-20, "-1.5e-20"),
            (1.7976931348623157e308, "1.7976931348623157e308"),
            (5e-324, "5e-324"),
        ] {
            assert_eq!(text(&V::D(d)), want, "{d}");
        }
        assert!(matches!(
            to_text(&doc(&V::D(f64::NAN))),
            Err(FormatError::BadValue {
                field: "JSON double",
                offset: 1,
                ..
            })
        ));
    }

    #[test]
    fn strings_escaped_with_variable_length_lengths() {
        assert_eq!(
            text(&s("a\"b\\c\n\t\r\u{8}\u{c}\u{1}\u{1f}é/")),
            r#""a\"b\\c\n\t\r\b\f\u0001\u001fé/""#
        );
        let long = "x".repeat(200);
        let d = doc(&s(&long));
        assert_eq!(&d[..3], &[0x0c, 0xc8, 0x01], "200 = 0x48 | 0x80, then 1");
        assert_eq!(to_text(&d).unwrap(), format!("\"{long}\""));
        // Invalid UTF-8 is replaced, not an error.
        assert_eq!(to_text(&[0x0c, 0x01, 0xff]).unwrap(), "\"\u{fffd}\"");
        // A length without its last byte, one over 5 bytes, one past the end.
        assert!(to_text(&[0x0c, 0x80]).is_err());
        assert!(to_text(&[0x0c, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]).is_err());
        assert!(matches!(
            to_text(&[0x0c, 0x05, b'a']),
            Err(FormatError::OutOfBounds {
                field: "JSON string",
                offset: 2,
                len: 5,
                ..
            })
        ));
    }

    #[test]
    fn small_object_and_array_byte_for_byte() {
        // {"a": 1, "b": [1, 2.5, "x"]} written out by hand from the format.
        let b: Vec<u8> = [
            &[0x00, 0x02, 0x00, 0x2b, 0x00][..], // small object, 2 members, 43 bytes
            &[0x12, 0x00, 0x01, 0x00, 0x13, 0x00, 0x01, 0x00], // keys at 18 and 19, length 1
            &[0x05, 0x01, 0x00, 0x02, 0x14, 0x00], // int16 1 inlined; array at 20
            b"ab",
            &[0x03, 0x00, 0x17, 0x00], // array: 3 elements, 23 bytes
            &[0x05, 0x01, 0x00, 0x0b, 0x0d, 0x00, 0x0c, 0x15, 0x00], // 1; double at 13; string at 21
            &2.5f64.to_le_bytes(),
            &[0x01, b'x'],
        ]
        .concat();
        assert_eq!(to_text(&b).unwrap(), r#"{"a": 1, "b": [1, 2.5, "x"]}"#);
        let v = V::Obj(
            false,
            vec![
                ("a", V::I16(1)),
                ("b", V::Arr(false, vec![V::I16(1), V::D(2.5), s("x")])),
            ],
        );
        assert_eq!(doc(&v), b);
    }

    #[test]
    fn every_type_small_and_large() {
        for large in [false, true] {
            let v = V::Obj(
                large,
                vec![
                    ("n", V::Lit(0)),
                    ("t", V::Lit(1)),
                    ("f", V::Lit(2)),
                    ("i16", V::I16(-32768)),
                    ("u16", V::U16(65535)),
                    ("i32", V::I32(-100000)),
                    ("u32", V::U32(4000000000)),
                    ("i64", V::I64(-9999999999)),
                    ("u64", V::U64(18446744073709551615)),
                    ("dbl", V::D(-0.5)),
                    ("str", s("s")),
                    (
                        "arr",
                        V::Arr(!large, vec![V::Obj(large, vec![]), V::Arr(large, vec![])]),
                    ),
                ],
            );
            assert_eq!(
                text(&v),
                r#"{"n": null, "t": true, "f": false, "i16": -32768, "u16": 65535, "i32": -100000, "u32": 4000000000, "i64": -9999999999, "u64": 18446744073709551615, "dbl": -0.5, "str": "s", "arr": [{}, []]}"#,
                "large {large}"
            );
        }
        // Large format inlines int32 in its 4-byte entry.
        let d = doc(&V::Arr(true, vec![V::I32(-7)]));
        assert_eq!(
            d,
            [0x03, 1, 0, 0, 0, 13, 0, 0, 0, 0x07, 0xf9, 0xff, 0xff, 0xff]
        );
        assert_eq!(to_text(&d).unwrap(), "[-7]");
    }

    #[test]
    fn opaque_values() {
        // DECIMAL(4,2) 2.99: precision, scale, then decimal2bin.
        assert_eq!(text(&V::Opaque(246, vec![4, 2, 0x82, 0x63])), "2.99");
        assert_eq!(text(&V::Opaque(246, vec![4, 2, 0x7e, 0xcd])), "-1.50");
        assert!(to_text(&doc(&V::Opaque(246, vec![4, 2, 0x82]))).is_err());
        let date = |y: i64, m: i64, d: i64| ((y * 13 + m) << 5 | d) << 17;
        let dt = (date(2015, 1, 15) | (23 << 12) | (24 << 6) | 25) << 24 | 123456;
        for (t, packed, want) in [
            (10, date(2015, 1, 15) << 24, r#""2015-01-15""#),
            (12, dt, r#""2015-01-15 23:24:25.123456""#),
            (
                7,
                date(1970, 1, 1) << 24 | (1 << 24),
                r#""1970-01-01 00:00:01.000000""#,
            ),
            (
                11,
                -(((838 << 12) | (59 << 6) | 59) << 24),
                r#""-838:59:59.000000""#,
            ),
            (
                11,
                ((12 << 12) | (5 << 6)) << 24 | 500000,
                r#""12:05:00.500000""#,
            ),
            (12, 0, r#""0000-00-00 00:00:00.000000""#),
        ] {
            assert_eq!(text(&V::Opaque(t, packed.to_le_bytes().to_vec())), want);
        }
        assert!(to_text(&doc(&V::Opaque(10, vec![0; 7]))).is_err());
        // Garbage packed values print, never panic.
        assert!(to_text(&doc(&V::Opaque(12, i64::MIN.to_le_bytes().to_vec()))).is_ok());
        assert!(to_text(&doc(&V::Opaque(11, (-1i64).to_le_bytes().to_vec()))).is_ok());
        // VAR_STRING opaques are strings; other types base64.
        assert_eq!(text(&V::Opaque(253, b"hi".to_vec())), r#""hi""#);
        assert_eq!(
            text(&V::Opaque(252, b"hi".to_vec())),
            r#""base64:type252:aGk=""#
        );
        assert_eq!(text(&V::Opaque(16, vec![])), r#""base64:type16:""#);
        let long = text(&V::Opaque(15, vec![0; 60]));
        assert_eq!(
            long,
            format!("\"base64:type15:{}\\n{}\"", "A".repeat(76), "A".repeat(4))
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let nest = |n: usize| {
            let mut v = V::Arr(false, vec![]);
            for _ in 1..n {
                v = V::Arr(false, vec![v]);
            }
            doc(&v)
        };
        let ok = to_text(&nest(MAX_DEPTH)).unwrap();
        assert_eq!(ok.len(), 2 * MAX_DEPTH);
        assert!(matches!(
            to_text(&nest(MAX_DEPTH + 1)),
            Err(FormatError::BadValue {
                field: "JSON element count",
                ..
            })
        ));
    }

    #[test]
    fn shared_values_cannot_blow_up() {
        // Every level's two entries point at the same child: 2^40 leaves.
        let mut b = vec![0x00, 0x00, 0x04, 0x00]; // []
        for _ in 0..40 {
            let size = (10 + b.len()) as u16;
            let mut level = vec![0x02, 0x00];
            level.extend_from_slice(&size.to_le_bytes());
            level.extend_from_slice(&[0x02, 0x0a, 0x00, 0x02, 0x0a, 0x00]);
            level.extend_from_slice(&b);
            b = level;
        }
        b.insert(0, 0x02);
        assert!(matches!(
            to_text(&b),
            Err(FormatError::BadValue {
                field: "JSON document",
                ..
            })
        ));
    }

    #[test]
    fn bad_offsets_are_errors() {
        let good = doc(&V::Obj(false, vec![("k", s("v"))]));
        assert_eq!(to_text(&good).unwrap(), r#"{"k": "v"}"#);
        // Key offset inside the header.
        let mut b = good.clone();
        b[5] = 2;
        assert!(matches!(
            to_text(&b),
            Err(FormatError::BadValue {
                field: "JSON key entry",
                offset: 5,
                ..
            })
        ));
        // Value offset past the object.
        let mut b = good.clone();
        b[10] = 0x40;
        assert!(matches!(
            to_text(&b),
            Err(FormatError::BadValue {
                field: "JSON value entry",
                offset: 9,
                ..
            })
        ));
        // Size larger than the buffer; count too big for the size.
        let mut b = good.clone();
        b[3] = 0x40;
        assert!(matches!(
            to_text(&b),
            Err(FormatError::BadValue {
                field: "JSON size",
                offset: 3,
                ..
            })
        ));
        let mut b = good.clone();
        b[1] = 0x40;
        assert!(matches!(
            to_text(&b),
            Err(FormatError::BadValue {
                field: "JSON element count",
                offset: 1,
                ..
            })
        ));
        // Unknown type tags, at the top and in an entry.
        assert!(matches!(
            to_text(&[0x0d]),
            Err(FormatError::BadValue {
                field: "JSON type",
                offset: 0,
                ..
            })
        ));
        let mut b = good;
        b[9] = 0x0e;
        assert!(matches!(
            to_text(&b),
            Err(FormatError::BadValue {
                field: "JSON type",
                offset: 9,
                ..
            })
        ));
    }

    #[test]
    fn never_panics_on_damaged_input() {
        let v = V::Obj(
            false,
            vec![
                (
                    "a",
                    V::Arr(true, vec![V::I32(1), V::D(1.5), s("x"), V::Lit(1)]),
                ),
                ("bb", V::Opaque(246, vec![4, 2, 0x82, 0x63])),
                ("ccc", V::Opaque(12, 77i64.to_le_bytes().to_vec())),
                (
                    "dddd",
                    V::Obj(
                        true,
                        vec![("e", V::U64(5)), ("f", V::Opaque(1, vec![1, 2]))],
                    ),
                ),
            ],
        );
        let good = doc(&v);
        assert!(to_text(&good).is_ok());
        for n in 0..good.len() {
            let _ = to_text(&good[..n]);
        }
        for i in 0..good.len() {
            for x in [
                0x00, 0x01, 0x02, 0x03, 0x04, 0x0b, 0x0c, 0x0f, 0x7f, 0x80, 0xff,
            ] {
                let mut b = good.clone();
                b[i] = x;
                let _ = to_text(&b);
            }
        }
        // Random bytes behind every type tag.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 48) as usize;
            let b: Vec<u8> = (0..len)
                .map(|i| (seed.rotate_left(i as u32 * 5) % 19) as u8)
                .collect();
            let _ = to_text(&b);
        }
    }
}
