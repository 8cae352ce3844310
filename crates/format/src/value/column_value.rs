//! Column values: the bytes of one field decoded by its InnoDB type
//! (`data0type.h`: main type `mtype`, precise type `prtype` with the MySQL
//! type in its low byte, flags and the collation in bits 16–23, and the
//! length).
//!
//! What InnoDB's own dictionary does not say is not guessed: a DECIMAL's
//! precision and scale and an ENUM's or SET's labels live in the server's
//! table definition, so those come out as their stored form (hex, or the
//! number), marked as such.

use serde::Serialize;

/// `DATA_VARCHAR`.
pub const DATA_VARCHAR: u32 = 1;
/// `DATA_CHAR`.
pub const DATA_CHAR: u32 = 2;
/// `DATA_FIXBINARY`.
pub const DATA_FIXBINARY: u32 = 3;
/// `DATA_BINARY`.
pub const DATA_BINARY: u32 = 4;
/// `DATA_BLOB`.
pub const DATA_BLOB: u32 = 5;
/// `DATA_INT`.
pub const DATA_INT: u32 = 6;
/// `DATA_SYS`.
pub const DATA_SYS: u32 = 8;
/// `DATA_FLOAT`.
pub const DATA_FLOAT: u32 = 9;
/// `DATA_DOUBLE`.
pub const DATA_DOUBLE: u32 = 10;
/// `DATA_DECIMAL` (the old, text form).
pub const DATA_DECIMAL: u32 = 11;
/// `DATA_VARMYSQL`.
pub const DATA_VARMYSQL: u32 = 12;
/// `DATA_MYSQL`.
pub const DATA_MYSQL: u32 = 13;
/// `DATA_GEOMETRY`.
pub const DATA_GEOMETRY: u32 = 14;
/// `DATA_NOT_NULL` flag of `prtype`.
pub const DATA_NOT_NULL: u32 = 256;
/// `DATA_UNSIGNED` flag of `prtype`.
pub const DATA_UNSIGNED: u32 = 512;

/// MySQL field types (`enum_field_types`) found in `prtype`'s low byte.
mod mysql {
    pub const TIMESTAMP: u32 = 7;
    pub const TIME: u32 = 11;
    pub const DATETIME: u32 = 12;
    pub const TIMESTAMP2: u32 = 17;
    pub const DATETIME2: u32 = 18;
    pub const TIME2: u32 = 19;
    pub const DATE: u32 = 10;
    pub const NEWDATE: u32 = 14;
    pub const YEAR: u32 = 13;
    pub const BIT: u32 = 16;
    pub const NEWDECIMAL: u32 = 246;
    pub const JSON: u32 = 245;
    pub const VECTOR: u32 = 242;
}

/// A column's InnoDB type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ColumnType {
    /// Main type.
    pub mtype: u32,
    /// Precise type.
    pub prtype: u32,
    /// Length in bytes (maximum, for variable-length types).
    pub len: u32,
}

/// Bytes per character at most, for a collation id.
fn mbmaxlen(collation: u32) -> u32 {
    crate::value::charset::mbmaxlen(collation)
}

/// Bytes per character at least, for a collation id (2 for ucs2 and
/// utf16, 4 for utf32).
fn mbminlen(collation: u32) -> u32 {
    crate::value::charset::mbminlen(collation)
}

impl ColumnType {
    /// The MySQL field type (low byte of `prtype`).
    #[inline]
    pub fn mysql_type(&self) -> u32 {
        self.prtype & 0xFF
    }

    /// The collation id (`prtype` bits 16–30, `DATA_MYSQL_TYPE_MASK`'s
    /// neighbour `CHAR_COLL_MASK`).
    #[inline]
    pub fn collation(&self) -> u32 {
        (self.prtype >> 16) & 0x7FFF
    }

    /// True when the column can be NULL.
    #[inline]
    pub fn nullable(&self) -> bool {
        self.prtype & DATA_NOT_NULL == 0
    }

    /// Bytes a COMPACT record always gives the column, or `None` when it has
    /// a length byte (`dict_col_get_fixed_size` with COMPACT rules: a CHAR in
    /// a multi-byte character set is variable-length).
    #[inline]
    pub fn fixed_size(&self) -> Option<usize> {
        match self.mtype {
            DATA_INT | DATA_FLOAT | DATA_DOUBLE | DATA_FIXBINARY | DATA_SYS => {
                Some(self.len as usize)
            }
            DATA_CHAR => Some(self.len as usize),
            DATA_MYSQL => {
                let c = self.collation();
                (mbminlen(c) == mbmaxlen(c)).then_some(self.len as usize)
            }
            _ => None,
        }
    }

    /// True when the length may take two bytes (`DATA_BIG_COL`).
    #[inline]
    pub fn big(&self) -> bool {
        self.len > 255 || self.mtype == DATA_BLOB || self.mtype == DATA_GEOMETRY
    }

    fn is_text(&self) -> bool {
        matches!(
            self.mtype,
            DATA_VARCHAR | DATA_CHAR | DATA_VARMYSQL | DATA_MYSQL
        ) || (self.mtype == DATA_BLOB && self.prtype & 1024 == 0 && self.collation() != 63)
    }
}

/// A decoded value.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    UInt(u64),
    /// A floating-point number.
    Float(f64),
    /// Text, or a formatted date/time.
    Text(String),
    /// Bytes the type does not say how to read (binary strings, DECIMAL
    /// without its scale), as `{"hex": …}`.
    Hex {
        /// The bytes in hex.
        hex: String,
    },
    /// A value that could not be read, as `{"undecoded": reason}`.
    Undecoded {
        /// Why.
        undecoded: String,
    },
}

/// `b` in upper-case hex, appended to `out`.
pub fn push_hex(out: &mut String, b: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    out.reserve(2 * b.len());
    for &x in b {
        for d in [x >> 4, x & 15] {
            out.push(char::from(
                DIGITS.get(usize::from(d)).copied().unwrap_or(b'0'),
            ));
        }
    }
}

/// The string `slot` holds (text, hex or a reason), emptied, for the
/// value written over it to reuse.
fn take_string(slot: &mut Value) -> String {
    match std::mem::replace(slot, Value::Null) {
        Value::Text(mut s) | Value::Hex { hex: mut s } | Value::Undecoded { undecoded: mut s } => {
            s.clear();
            s
        }
        _ => String::new(),
    }
}

/// `b` as hex, written over `slot`.
fn hex_into(b: &[u8], slot: &mut Value) {
    let mut hex = take_string(slot);
    push_hex(&mut hex, b);
    *slot = Value::Hex { hex };
}

fn be(b: &[u8]) -> u64 {
    b.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x))
}

/// Fractional seconds stored in `n` bytes, as microseconds.
fn frac_micros(b: &[u8]) -> u64 {
    match b.len() {
        1 => be(b) * 10_000,
        2 => be(b) * 100,
        3 => be(b),
        _ => 0,
    }
}

/// The fraction `.ddd` of `micros` with the declared `digits` (fractional
/// seconds precision), else two digits a stored byte.
fn frac_text(micros: u64, n_bytes: usize, digits: Option<u32>) -> String {
    let digits = digits.map_or(n_bytes * 2, |d| d as usize);
    if digits == 0 {
        return String::new();
    }
    let s = format!("{micros:06}");
    // `s` has at least 6 ASCII digits.
    format!(".{}", s.get(..digits.min(6)).unwrap_or(&s))
}

/// Decodes the field bytes `b` of a column of type `t`.
pub fn decode(t: &ColumnType, b: &[u8]) -> Value {
    decode_with_digits(t, b, None)
}

/// Decodes the field bytes `b` of a column of type `t` whose fractional
/// seconds have `digits` digits (`TIME(5)`: 5), when the schema says.
pub fn decode_with_digits(t: &ColumnType, b: &[u8], digits: Option<u32>) -> Value {
    let mut v = Value::Null;
    decode_into(t, b, digits, &mut v);
    v
}

/// [`decode_with_digits`] written over `slot`: text and hex reuse the
/// string `slot` held (a row's values decoded one record after another
/// allocate nothing once their strings are long enough).
pub fn decode_into(t: &ColumnType, b: &[u8], digits: Option<u32>, slot: &mut Value) {
    match (t.mtype, t.mysql_type()) {
        (DATA_INT, _)
            if !is_temporal_int(t.mysql_type(), b.len()) && (1..=8).contains(&b.len()) =>
        {
            *slot = integer(b, t.prtype & DATA_UNSIGNED != 0);
        }
        (DATA_FIXBINARY | DATA_BINARY, mysql::NEWDECIMAL) => hex_into(b, slot),
        (DATA_BLOB, mysql::JSON) => *slot = decode_other(t, b, digits),
        (DATA_BLOB, mysql::VECTOR) if b.len().is_multiple_of(4) => {
            *slot = decode_other(t, b, digits);
        }
        // Bytes that are not text of the column's character set are kept,
        // as hex.
        _ if t.is_text() => {
            let mut s = take_string(slot);
            if crate::value::charset::decode_into(b, t.collation(), &mut s) {
                // CHAR is padded with spaces, which the server strips on reading.
                if matches!(t.mtype, DATA_CHAR | DATA_MYSQL) {
                    s.truncate(s.trim_end_matches(' ').len());
                }
                *slot = Value::Text(s);
            } else {
                *slot = Value::Hex { hex: s };
                hex_into(b, slot);
            }
        }
        (DATA_INT | DATA_FLOAT | DATA_DOUBLE | DATA_FIXBINARY, _) => {
            *slot = decode_other(t, b, digits);
        }
        _ => hex_into(b, slot),
    }
}

/// True when an integer field of MySQL type `mysql_type` and `len` bytes
/// holds a YEAR, DATE or a temporal value of before MySQL 5.6.4.
fn is_temporal_int(mysql_type: u32, len: usize) -> bool {
    matches!(
        (mysql_type, len),
        (mysql::YEAR, 1)
            | (mysql::DATE | mysql::NEWDATE, 3)
            | (mysql::DATETIME, 8)
            | (mysql::TIMESTAMP, 4)
            | (mysql::TIME, 3)
    )
}

/// The values that are neither integers nor text nor hex: dates and
/// times, floating point, BIT, binary JSON, VECTOR (hex when the bytes do
/// not fit the type).
fn decode_other(t: &ColumnType, b: &[u8], digits: Option<u32>) -> Value {
    let unsigned = t.prtype & DATA_UNSIGNED != 0;
    match (t.mtype, t.mysql_type()) {
        // YEAR as the server prints it: four digits, 0 as `0000`.
        (DATA_INT, mysql::YEAR) if b.len() == 1 => {
            let y = be(b);
            Value::Text(format!("{:04}", if y == 0 { 0 } else { 1900 + y }))
        }
        (DATA_INT, mysql::DATE | mysql::NEWDATE) if b.len() == 3 => {
            Value::Text(date(be(b) ^ if unsigned { 0 } else { 0x80_0000 }))
        }
        // The temporal formats before MySQL 5.6 (integers).
        (DATA_INT, mysql::DATETIME) if b.len() == 8 => {
            Value::Text(old_datetime(be(b) ^ if unsigned { 0 } else { 1 << 63 }))
        }
        (DATA_INT, mysql::TIMESTAMP) if b.len() == 4 => Value::Text(timestamp(
            (be(b) ^ if unsigned { 0 } else { 1 << 31 }) as i64,
            0,
            String::new(),
        )),
        (DATA_INT, mysql::TIME) if b.len() == 3 => Value::Text(old_time(b)),
        (DATA_INT, _) if (1..=8).contains(&b.len()) => integer(b, unsigned),
        (DATA_FLOAT, _) if b.len() == 4 => {
            // The double nearest to the float's shortest decimal form, so
            // that 3.14 shows as 3.14 and not 3.140000104904175.
            let f = f32::from_le_bytes(b.try_into().unwrap_or_default());
            Value::Float(f.to_string().parse().unwrap_or(f64::from(f)))
        }
        (DATA_DOUBLE, _) if b.len() == 8 => {
            Value::Float(f64::from_le_bytes(b.try_into().unwrap_or_default()))
        }
        (DATA_FIXBINARY, mysql::DATETIME | mysql::DATETIME2) if b.len() >= 5 => {
            Value::Text(datetime2(b, digits))
        }
        (DATA_FIXBINARY, mysql::TIMESTAMP | mysql::TIMESTAMP2) if b.len() >= 4 => {
            let (int, frac) = b.split_at_checked(4).unwrap_or((b, &[]));
            Value::Text(timestamp(
                be(int) as i64,
                frac_micros(frac),
                frac_text(frac_micros(frac), frac.len(), digits),
            ))
        }
        (DATA_FIXBINARY, mysql::TIME | mysql::TIME2) if (3..=6).contains(&b.len()) => {
            Value::Text(time2(b, digits))
        }
        (DATA_FIXBINARY, mysql::BIT) => Value::UInt(be(b.get(..8).unwrap_or(b))),
        (DATA_BLOB, mysql::JSON) => match crate::value::json_binary::to_text(b) {
            Ok(json) => Value::Text(json),
            Err(e) => Value::Undecoded {
                undecoded: format!("binary JSON: {e}"),
            },
        },
        (DATA_BLOB, mysql::VECTOR) if b.len().is_multiple_of(4) => Value::Text(vector_text(b)),
        _ => {
            let mut v = Value::Null;
            hex_into(b, &mut v);
            v
        }
    }
}

/// An integer of 1 to 8 bytes: big-endian, the sign bit flipped when signed.
fn integer(b: &[u8], unsigned: bool) -> Value {
    let v = be(b);
    if unsigned {
        Value::UInt(v)
    } else {
        let bits = 8 * b.len() as u32;
        let flipped = v ^ (1u64 << (bits - 1));
        // Sign-extend.
        let shift = 64 - bits;
        Value::Int(((flipped << shift) as i64) >> shift)
    }
}

/// A DATE: day (5 bits), month (4 bits) and year in an integer.
fn date(v: u64) -> String {
    format!("{:04}-{:02}-{:02}", v >> 9, (v >> 5) & 15, v & 31)
}

/// A DATETIME before MySQL 5.6.4: the decimal digits YYYYMMDDhhmmss.
fn old_datetime(v: u64) -> String {
    let (d, t) = (v / 1_000_000, v % 1_000_000);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        d / 10000,
        (d / 100) % 100,
        d % 100,
        t / 10000,
        (t / 100) % 100,
        t % 100
    )
}

/// A TIME before MySQL 5.6.4: the decimal digits hhmmss, signed, in 3 bytes.
fn old_time(b: &[u8]) -> String {
    let v = ((be(b) ^ 0x80_0000) as i64) << 40 >> 40;
    let (neg, v) = (v < 0, v.unsigned_abs());
    format!(
        "{}{:02}:{:02}:{:02}",
        if neg { "-" } else { "" },
        v / 10000,
        (v / 100) % 100,
        v % 100
    )
}

/// A DATETIME of MySQL 5.6.4+ (`DATETIME2`): 5 bytes of year×13+month,
/// day, hour, minute and second, then the fraction.
fn datetime2(b: &[u8], digits: Option<u32>) -> String {
    let (int, frac) = b.split_at_checked(5).unwrap_or((b, &[]));
    let v = be(int).wrapping_sub(0x80_0000_0000);
    let ymd = v >> 17;
    let ym = ymd >> 5;
    let hms = v & ((1 << 17) - 1);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}{}",
        ym / 13,
        ym % 13,
        ymd & 31,
        hms >> 12,
        (hms >> 6) & 63,
        hms & 63,
        frac_text(frac_micros(frac), frac.len(), digits)
    )
}

/// A TIME of MySQL 5.6.4+ (`TIME2`): 3 bytes of hour, minute and second,
/// then the fraction.
fn time2(b: &[u8], digits: Option<u32>) -> String {
    // my_time_packed_from_binary: a negative time with a fraction
    // stores the integer part one lower and the fraction as its complement.
    let (int, frac) = b.split_at_checked(3).unwrap_or((b, &[]));
    let n = frac.len();
    let (int, micros) = if n == 3 {
        let v = be(b) as i64 - 0x8000_0000_0000;
        (v >> 24, v - ((v >> 24) << 24))
    } else {
        let mut int = be(int) as i64 - 0x80_0000;
        let mut frac = be(frac) as i64;
        if int < 0 && frac != 0 {
            int += 1;
            frac -= 1 << (8 * n);
        }
        (int, frac * if n == 1 { 10_000 } else { 100 })
    };
    let neg = int < 0 || micros < 0;
    let (int, micros) = (int.unsigned_abs(), micros.unsigned_abs());
    format!(
        "{}{:02}:{:02}:{:02}{}",
        if neg { "-" } else { "" },
        (int >> 12) & 1023,
        (int >> 6) & 63,
        int & 63,
        frac_text(micros, n, digits)
    )
}

/// A VECTOR (little-endian 4-byte floats) as MySQL's `VECTOR_TO_STRING`
/// prints it: `[1.00000e+00,2.00000e+00]`.
fn vector_text(b: &[u8]) -> String {
    let parts: Vec<String> = b
        .as_chunks::<4>()
        .0
        .iter()
        .map(|&c| {
            let f = f32::from_le_bytes(c);
            let s = format!("{f:.5e}");
            // Rust writes `1.00000e0`; MySQL (printf %.5e) `1.00000e+00`.
            match s.split_once('e') {
                Some((m, e)) => {
                    let (sign, digits) = e.strip_prefix('-').map_or(("+", e), |d| ("-", d));
                    format!("{m}e{sign}{digits:0>2}")
                }
                None => s,
            }
        })
        .collect();
    format!("[{}]", parts.join(","))
}

/// A TIMESTAMP: seconds since 1970 in UTC, with the fraction `frac`
/// (`.ddd`) of `micros`; 0 is the server's zero timestamp
/// `0000-00-00 00:00:00`.
fn timestamp(secs: i64, micros: u64, frac: String) -> String {
    if secs == 0 && micros == 0 {
        format!("0000-00-00 00:00:00{frac}")
    } else {
        format!("{}{frac}", utc(secs))
    }
}

/// `YYYY-MM-DD hh:mm:ss` in UTC for seconds since 1970.
fn utc(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        (rem / 60) % 60,
        rem % 60
    )
}

/// `DB_ROLL_PTR` taken apart (7 bytes): insert flag (bit 55), rollback
/// segment id (7 bits), undo page number (4 bytes), offset (2 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RollPtr {
    /// The record was inserted (its undo record is an insert).
    pub insert: bool,
    /// Rollback segment id.
    pub rseg: u8,
    /// Undo log page.
    pub page: u32,
    /// Byte offset of the undo record.
    pub offset: u16,
}

impl RollPtr {
    /// Reads the 7 bytes.
    pub fn parse(b: &[u8]) -> Option<Self> {
        let &[flags, p0, p1, p2, p3, o0, o1] = b else {
            return None;
        };
        Some(RollPtr {
            insert: flags & 0x80 != 0,
            rseg: flags & 0x7F,
            page: u32::from_be_bytes([p0, p1, p2, p3]),
            offset: u16::from_be_bytes([o0, o1]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_flip_their_sign_bit() {
        let int = |b: &[u8], unsigned| {
            decode(
                &ColumnType {
                    mtype: DATA_INT,
                    prtype: if unsigned { DATA_UNSIGNED } else { 0 } | 3,
                    len: b.len() as u32,
                },
                b,
            )
        };
        assert_eq!(int(&[0x7F], false), Value::Int(-1));
        assert_eq!(int(&[0x00], false), Value::Int(-128));
        assert_eq!(int(&[0x80, 0, 0, 1], false), Value::Int(1));
        assert_eq!(int(&[0xFF, 0xFF], true), Value::UInt(65535));
    }

    #[test]
    fn fractions_with_their_declared_digits_and_year_zero() {
        let t = |mysql: u32, len: u32| ColumnType {
            mtype: DATA_FIXBINARY,
            prtype: mysql,
            len,
        };
        // TIME(5) 12:34:56.45638: hh:mm:ss packed after 0x800000, then the
        // fraction in 3 bytes (microseconds).
        let hms: u64 = (12 << 12) | (34 << 6) | 56;
        let packed = ((0x80_0000 + hms) << 24) | 456_380;
        let b = packed.to_be_bytes();
        let time = &b[2..];
        assert_eq!(
            decode_with_digits(&t(mysql::TIME, 6), time, Some(5)),
            Value::Text("12:34:56.45638".into())
        );
        assert_eq!(
            decode(&t(mysql::TIME, 6), time),
            Value::Text("12:34:56.456380".into())
        );
        // DATETIME(3) 2020-01-02 03:04:05.123: the fraction in 2 bytes
        // (hundreds of microseconds).
        let ymd: u64 = ((2020 * 13 + 1) << 5) | 2;
        let int = 0x80_0000_0000 + ((ymd << 17) | (3 << 12) | (4 << 6) | 5);
        let mut dt = int.to_be_bytes()[3..].to_vec();
        dt.extend_from_slice(&1230u16.to_be_bytes());
        assert_eq!(
            decode_with_digits(&t(mysql::DATETIME, 7), &dt, Some(3)),
            Value::Text("2020-01-02 03:04:05.123".into())
        );
        let year = ColumnType {
            mtype: DATA_INT,
            prtype: DATA_UNSIGNED | mysql::YEAR,
            len: 1,
        };
        assert_eq!(decode(&year, &[0]), Value::Text("0000".into()));
        assert_eq!(decode(&year, &[101]), Value::Text("2001".into()));
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc(1_500_003_600), "2017-07-14 03:40:00");
        assert_eq!(utc(0), "1970-01-01 00:00:00");
    }
}
