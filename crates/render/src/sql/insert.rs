//! Batched `INSERT`s of decoded rows: each value written as the literal
//! that gives the server the same value back.
//!
//! - integers as they are; FLOAT and DOUBLE in exponent form with the
//!   shortest digits that give the same number back; DECIMAL (its scale
//!   known) as its exact digits; BIT as `b'…'`;
//! - dates and times, ENUM and SET labels, JSON as quoted strings (zero
//!   dates as the server prints them; the dump sets `time_zone` to UTC,
//!   in which TIMESTAMPs are decoded);
//! - text escaped in quotes, in `utf8mb4` (the dump's `SET NAMES`), which
//!   the server converts to the column's character set; latin1 text
//!   beyond ASCII as `_latin1 X'…'`, its bytes exactly;
//! - bytes (binary strings, BLOBs, GEOMETRY in the server's internal
//!   format, DECIMALs whose scale is not known, text that did not decode)
//!   as `X'…'`, after the column's character set introducer when it has
//!   one;
//! - a value that could not be read as `NULL`, with a comment saying why.

use super::{ident, push_hex, push_string};
use innodb_analysis::rows::collation_names::collation;
use innodb_analysis::rows::records::IndexField;
use innodb_analysis::rows::table_definition::TableDefinition;
use innodb_format::value::column_value::{
    Value, DATA_BLOB, DATA_CHAR, DATA_FIXBINARY, DATA_MYSQL, DATA_SYS, DATA_VARCHAR, DATA_VARMYSQL,
};

/// How a column's values are written.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// Numbers, dates and times, labels, JSON: by the value alone.
    Plain,
    /// A DECIMAL whose scale is known: its digits, unquoted.
    Decimal,
    /// Text in a character set (its name when known).
    Text(Option<&'static str>),
    /// BIT: `b'…'`.
    Bit,
}

/// `DATA_BINARY_TYPE` of `prtype`.
const DATA_BINARY_TYPE: u32 = 1024;

impl Kind {
    fn of(f: &IndexField) -> Kind {
        let t = &f.column_type;
        let coll = t.collation();
        let text_type = matches!(
            t.mtype,
            DATA_VARCHAR | DATA_CHAR | DATA_VARMYSQL | DATA_MYSQL
        ) || (t.mtype == DATA_BLOB
            && t.prtype & DATA_BINARY_TYPE == 0
            && t.mysql_type() != 245);
        if f.decimal.is_some() {
            Kind::Decimal
        } else if t.mtype == DATA_FIXBINARY && t.mysql_type() == 16 {
            Kind::Bit
        } else if text_type && coll != 63 {
            Kind::Text(collation(coll).map(|c| c.charset))
        } else {
            Kind::Plain
        }
    }
}

/// One column of the `INSERT`s: its place among the row's values.
#[derive(Debug, Clone)]
struct Column {
    at: usize,
    kind: Kind,
}

/// Writes rows as `INSERT INTO t (…) VALUES (…),(…);` statements of at most
/// `max_rows` rows or about `max_bytes` bytes each.
#[derive(Debug)]
pub struct InsertWriter {
    head: String,
    columns: Vec<Column>,
    max_rows: usize,
    max_bytes: usize,
    in_batch: usize,
    batch_bytes: usize,
    /// Values that could not be read, written as NULL.
    pub undecoded: usize,
    /// Rows written.
    pub rows: usize,
}

impl InsertWriter {
    /// A writer of rows whose values come in the order of `fields` (a
    /// clustered index's), into table `table`. The columns are those of
    /// `definition` that are not generated, in its order (all the fields
    /// but the system ones when there is no definition).
    pub fn new(table: &str, fields: &[IndexField], definition: Option<&TableDefinition>) -> Self {
        let stored = |f: &IndexField| f.column_type.mtype != DATA_SYS;
        let places: Vec<(String, usize)> = match definition {
            Some(def) => def
                .columns
                .iter()
                .filter(|c| c.generated.is_none())
                .filter_map(|c| {
                    let at = fields.iter().position(|f| f.name == c.name && stored(f))?;
                    Some((c.name.clone(), at))
                })
                .collect(),
            None => fields
                .iter()
                .enumerate()
                .filter(|(_, f)| stored(f))
                .map(|(at, f)| (f.name.clone(), at))
                .collect(),
        };
        let names: Vec<String> = places.iter().map(|(n, _)| ident(n)).collect();
        let columns = places
            .iter()
            .filter_map(|(_, at)| {
                Some(Column {
                    at: *at,
                    kind: Kind::of(fields.get(*at)?),
                })
            })
            .collect();
        InsertWriter {
            head: format!(
                "INSERT INTO {} ({}) VALUES\n",
                ident(table),
                names.join(",")
            ),
            columns,
            max_rows: 100,
            max_bytes: 1 << 20,
            in_batch: 0,
            batch_bytes: 0,
            undecoded: 0,
            rows: 0,
        }
    }

    /// The same with batches of at most `rows` rows and about `bytes` bytes.
    pub fn with_batch(mut self, rows: usize, bytes: usize) -> Self {
        self.max_rows = rows.max(1);
        self.max_bytes = bytes.max(1);
        self
    }

    /// True when the writer has columns to write (a table whose columns
    /// are all generated or unknown has none).
    pub fn has_columns(&self) -> bool {
        !self.columns.is_empty()
    }

    /// The same with the columns `names` first, whose values
    /// [`Self::row_marked`] is given (what a recovered row is: its state,
    /// page and place).
    pub fn with_marks(mut self, names: &[&str]) -> Self {
        let marks: Vec<String> = names.iter().map(|n| ident(n)).collect();
        if let Some(at) = self.head.find(" (") {
            let rest = if self.columns.is_empty() { "" } else { "," };
            self.head
                .insert_str(at + 2, &format!("{}{rest}", marks.join(",")));
        }
        self
    }

    /// Appends the row `values` (in field order) to `out`.
    pub fn row(&mut self, out: &mut String, values: &[Value]) {
        self.row_marked(out, &[], values);
    }

    /// Appends the row `values` (in field order) after the values `marks`
    /// of the columns [`Self::with_marks`] added.
    pub fn row_marked(&mut self, out: &mut String, marks: &[Value], values: &[Value]) {
        let start = out.len();
        if self.in_batch == 0 {
            out.push_str(&self.head);
        } else {
            out.push_str(",\n");
        }
        out.push('(');
        for (i, m) in marks.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_value(out, &Kind::Plain, m);
        }
        for (i, c) in self.columns.iter().enumerate() {
            if i > 0 || !marks.is_empty() {
                out.push(',');
            }
            let v = values.get(c.at).unwrap_or(&Value::Null);
            if push_value(out, &c.kind, v) {
                self.undecoded += 1;
            }
        }
        out.push(')');
        self.in_batch += 1;
        self.rows += 1;
        self.batch_bytes += out.len() - start;
        if self.in_batch >= self.max_rows || self.batch_bytes >= self.max_bytes {
            self.finish(out);
        }
    }

    /// Ends the statement being written, if any.
    pub fn finish(&mut self, out: &mut String) {
        if self.in_batch > 0 {
            out.push_str(";\n");
        }
        self.in_batch = 0;
        self.batch_bytes = 0;
    }
}

/// Appends `v` as a literal of a column written as `kind`; true when the
/// value could not be read (written as NULL).
fn push_value(out: &mut String, kind: &Kind, v: &Value) -> bool {
    match v {
        Value::Null => out.push_str("NULL"),
        Value::Int(n) => out.push_str(&n.to_string()),
        Value::UInt(n) if *kind == Kind::Bit => {
            out.push_str("b'");
            out.push_str(&format!("{n:b}"));
            out.push('\'');
        }
        Value::UInt(n) => out.push_str(&n.to_string()),
        Value::Float(f) if f.is_finite() => out.push_str(&format!("{f:e}")),
        Value::Float(_) => out.push_str("NULL /* not a finite number */"),
        Value::Text(s) => push_text(out, kind, s),
        Value::Hex { hex } => match kind {
            Kind::Text(cs) => push_hex(out, *cs, hex),
            _ => push_hex(out, None, hex),
        },
        Value::Undecoded { undecoded } => {
            out.push_str("NULL /* not read: ");
            out.push_str(&undecoded.replace("*/", "* /"));
            out.push_str(" */");
            return true;
        }
    }
    false
}

/// Appends the text `s` of a column written as `kind`.
fn push_text(out: &mut String, kind: &Kind, s: &str) {
    match kind {
        Kind::Decimal if is_number(s) => out.push_str(s),
        // latin1 text is decoded a byte a character: its bytes exactly.
        Kind::Text(Some("latin1")) if !s.is_ascii() && s.chars().all(|c| u32::from(c) < 256) => {
            let hex: String = s.chars().map(|c| format!("{:02X}", u32::from(c))).collect();
            push_hex(out, Some("latin1"), &hex);
        }
        _ => push_string(out, s),
    }
}

/// True for the digits of a decimal number (`-12.50`).
fn is_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.chars().filter(|&c| c == '.').count() <= 1
        && !digits.starts_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use innodb_format::value::column_value::{ColumnType, DATA_INT, DATA_NOT_NULL};

    fn field(name: &str, mtype: u32, prtype: u32, len: u32) -> IndexField {
        IndexField {
            name: name.into(),
            column_type: ColumnType { mtype, prtype, len },
            decimal: None,
            labels: None,
            set: false,
            fsp: None,
            instant: Default::default(),
        }
    }

    #[test]
    fn values_as_literals_in_batches() {
        let mut dec = field("d", DATA_FIXBINARY, 246, 5);
        dec.decimal = Some((10, 2));
        let fields = [
            field("id", DATA_INT, DATA_NOT_NULL | 3, 4),
            field("DB_TRX_ID", DATA_SYS, DATA_NOT_NULL, 6),
            field("s", DATA_VARMYSQL, (8 << 16) | 15, 64),
            field("u", DATA_VARMYSQL, (45 << 16) | 15, 64),
            field("b", DATA_BLOB, DATA_BINARY_TYPE | 252, 10),
            field("bt", DATA_FIXBINARY, 16, 2),
            field("f", 10, 5, 8),
            dec,
        ];
        let mut w = InsertWriter::new("t", &fields, None).with_batch(2, 1 << 20);
        let row = |id: i64| {
            vec![
                Value::Int(id),
                Value::UInt(7),
                Value::Text("café\u{80}".into()),
                Value::Text("it's\n".into()),
                Value::Hex { hex: "00FF".into() },
                Value::UInt(5),
                Value::Float(-0.1),
                Value::Text("-12.50".into()),
            ]
        };
        let mut out = String::new();
        for id in 1..=3 {
            w.row(&mut out, &row(id));
        }
        w.finish(&mut out);
        assert_eq!(
            out,
            "INSERT INTO `t` (`id`,`s`,`u`,`b`,`bt`,`f`,`d`) VALUES\n\
             (1,_latin1 X'636166E980','it\\'s\\n',X'00FF',b'101',-1e-1,-12.50),\n\
             (2,_latin1 X'636166E980','it\\'s\\n',X'00FF',b'101',-1e-1,-12.50);\n\
             INSERT INTO `t` (`id`,`s`,`u`,`b`,`bt`,`f`,`d`) VALUES\n\
             (3,_latin1 X'636166E980','it\\'s\\n',X'00FF',b'101',-1e-1,-12.50);\n"
        );
        assert_eq!(w.rows, 3);
    }

    #[test]
    fn unreadable_values_are_null_and_counted() {
        let fields = [field("b", DATA_BLOB, DATA_BINARY_TYPE | 252, 10)];
        let mut w = InsertWriter::new("t", &fields, None);
        let mut out = String::new();
        w.row(
            &mut out,
            &[Value::Undecoded {
                undecoded: "off-page column: gone */".into(),
            }],
        );
        w.finish(&mut out);
        assert!(out.contains("(NULL /* not read: off-page column: gone * / */);"));
        assert_eq!(w.undecoded, 1);
    }
}
