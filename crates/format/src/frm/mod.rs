//! MariaDB's (10.x–11.x) and MySQL 5.x's `.frm` files: a table's
//! definition as the server keeps it beside the tablespace. The layout, as
//! `sql/unireg.cc` writes it and `TABLE_SHARE::init_from_binary_frm_image`
//! (`sql/table.cc`) reads it:
//!
//! ```text
//! 0       file header (64 bytes)                     header.rs
//! 64      MariaDB's extra2 segment, the form's offset
//! K       key information (keys, parts, names)       keys.rs
//! K+k     default-values record                      record.rs
//!         extra segment (engine, partitions, comment) extra.rs
//! F       the form (288 bytes)                       forminfo.rs
//!         screens, column records (17 bytes each)    column.rs
//!         column names, ENUM/SET labels              names.rs
//!         column comments, expressions               vcol.rs
//! ```
//!
//! Integers are little-endian. Every read is bounds-checked; a damaged
//! file is an error naming the field and its offset.

pub mod column;
pub mod engine_options;
pub mod extra;
pub mod forminfo;
pub mod header;
pub mod keys;
pub mod names;
pub mod record;
pub mod vcol;

use crate::bytes::slice;
use crate::FormatError;
use column::{ColumnRecord, FIELD_RECORD_SIZE};
use extra::ExtraSegment;
use forminfo::Forminfo;
use header::FileHeader;
use keys::FrmKey;
use record::RecordDefault;
use serde::Serialize;
use vcol::{Expression, ExpressionKind};

/// A `.frm` file read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Frm {
    /// The file header.
    pub header: FileHeader,
    /// The form.
    pub forminfo: Forminfo,
    /// The columns, in the table's order.
    pub columns: Vec<FrmColumn>,
    /// The keys, in the server's order.
    pub keys: Vec<FrmKey>,
    /// The extra segment.
    pub extra: ExtraSegment,
    /// MariaDB's expressions (generated columns, DEFAULT expressions,
    /// CHECK constraints).
    pub expressions: Vec<Expression>,
    /// MariaDB's engine-defined table options (`PAGE_COMPRESSED`, `1`).
    pub engine_options: Vec<(String, String)>,
}

/// One column: its record, name, labels, comment and default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FrmColumn {
    /// Its name.
    pub name: String,
    /// Its column record.
    pub record: ColumnRecord,
    /// Its ENUM or SET labels, as bytes of its character set.
    pub labels: Vec<Vec<u8>>,
    /// Its comment.
    pub comment: Vec<u8>,
    /// Its default from the default-values record, when it has one there.
    #[serde(skip)]
    pub default: Option<RecordDefault>,
    /// Its generated-column or DEFAULT expression (MariaDB 10.2+).
    pub expression: Option<Expression>,
}

impl Frm {
    /// Reads the whole file image `b`.
    pub fn parse(b: &[u8]) -> Result<Self, FormatError> {
        let header = FileHeader::parse(b)?;
        let forminfo = Forminfo::parse(b, header.forminfo_offset as usize)?;
        let keys = keys::parse(
            b,
            usize::from(header.keyinfo_offset),
            header.key_info_length as usize,
        )?;
        let rec_at = header.record_offset();
        let rec = slice(
            b,
            rec_at,
            usize::from(header.rec_length),
            "default-values record",
        )?;
        let extra_at = rec_at + usize::from(header.rec_length);
        let extra_bytes = slice(b, extra_at, header.extra_size as usize, "extra segment")?;
        let extra = extra::parse(
            extra_bytes,
            extra_at,
            forminfo.comment_length == 255,
            header.mysql_version,
        )?;
        let records = column_records(b, &forminfo)?;
        let tail = Tail::parse(b, &forminfo, &header)?;
        let columns = columns(&header, &records, rec, rec_at, &tail)?;
        let engine_options = match header
            .extra2
            .iter()
            .find(|e| e.kind == engine_options::EXTRA2_ENGINE_TABLEOPTS)
        {
            Some(e) => engine_options::table_options(&e.bytes, e.offset)?,
            None => Vec::new(),
        };
        Ok(Frm {
            engine_options,
            header,
            forminfo,
            columns,
            keys,
            extra,
            expressions: tail.expressions,
        })
    }

    /// The table comment (from the form, or the extra segment when long).
    pub fn comment(&self) -> &[u8] {
        match &self.extra.long_comment {
            Some(c) => c,
            None => &self.forminfo.comment,
        }
    }
}

/// The column records after the form.
fn column_records(b: &[u8], f: &Forminfo) -> Result<Vec<ColumnRecord>, FormatError> {
    let start = f.fields_offset();
    (0..usize::from(f.fields))
        .map(|i| ColumnRecord::parse(b, start + i * FIELD_RECORD_SIZE))
        .collect()
}

/// What follows the column records: names, label lists, comments,
/// expressions.
struct Tail {
    names: Vec<Vec<u8>>,
    intervals: Vec<Vec<Vec<u8>>>,
    comments: Vec<u8>,
    comments_at: usize,
    expressions: Vec<Expression>,
}

impl Tail {
    fn parse(b: &[u8], f: &Forminfo, h: &FileHeader) -> Result<Self, FormatError> {
        let names_at = f.fields_offset() + usize::from(f.fields) * FIELD_RECORD_SIZE;
        let names_seg = slice(b, names_at, usize::from(f.names_length), "column names")?;
        let (lists, _) = names::name_lists(names_seg, names_at, 1, "column names")?;
        let names = lists.into_iter().next().unwrap_or_default();
        if names.len() != usize::from(f.fields) {
            return Err(FormatError::BadValue {
                field: "column names",
                offset: names_at,
                reason: format!("{} names for {} columns", names.len(), f.fields),
            });
        }
        let int_at = names_at + usize::from(f.names_length);
        let int_seg = slice(
            b,
            int_at,
            usize::from(f.intervals_length),
            "interval labels",
        )?;
        let (intervals, _) = names::name_lists(
            int_seg,
            int_at,
            usize::from(f.interval_count),
            "interval labels",
        )?;
        let comments_at = int_at + usize::from(f.intervals_length);
        let comments = slice(
            b,
            comments_at,
            usize::from(f.comments_length),
            "column comments",
        )?;
        let vcol_at = comments_at + usize::from(f.comments_length);
        let vcol = slice(b, vcol_at, usize::from(f.vcol_screen_length), "vcol screen")?;
        // MySQL 5.7 keeps its generated columns otherwise; MariaDB before
        // 10.2 in another layout.
        let expressions = if h.mysql_version >= 100_200 {
            vcol::parse(vcol, vcol_at)?
        } else {
            Vec::new()
        };
        Ok(Tail {
            names,
            intervals,
            comments: comments.to_vec(),
            comments_at,
            expressions,
        })
    }
}

/// The columns: each record with its name, labels, comment, default and
/// expression.
fn columns(
    h: &FileHeader,
    records: &[ColumnRecord],
    rec: &[u8],
    rec_at: usize,
    tail: &Tail,
) -> Result<Vec<FrmColumn>, FormatError> {
    let pack_record = h.table_options & header::HA_OPTION_PACK_RECORD != 0;
    let nulls = record::null_bits(records, pack_record);
    let mut comment_pos = 0;
    let mut out = Vec::with_capacity(records.len());
    for (i, (r, name)) in records.iter().zip(&tail.names).enumerate() {
        let labels = match usize::from(r.interval_nr).checked_sub(1) {
            Some(n) => labels_of(
                tail.intervals.get(n).ok_or(FormatError::BadValue {
                    field: "column interval_nr",
                    offset: r.offset + 12,
                    reason: format!("list {} of {}", n + 1, tail.intervals.len()),
                })?,
                r.charset,
            ),
            None => Vec::new(),
        };
        let clen = usize::from(r.comment_length);
        let comment = slice(&tail.comments, comment_pos, clen, "column comment")
            .map_err(|e| forminfo::shift(e, tail.comments_at))?
            .to_vec();
        comment_pos += clen;
        let expression = tail
            .expressions
            .iter()
            .find(|e| {
                usize::from(e.field_nr) == i
                    && matches!(
                        e.kind,
                        ExpressionKind::Virtual | ExpressionKind::Stored | ExpressionKind::Default
                    )
            })
            .cloned();
        let default = match r.pack_length(labels.len()) {
            Some(len) if !r.no_default() && expression.is_none() => Some(record::default_of(
                rec,
                rec_at,
                r,
                nulls.get(i).copied().flatten(),
                len,
            )?),
            _ => None,
        };
        out.push(FrmColumn {
            name: String::from_utf8_lossy(name).into_owned(),
            record: r.clone(),
            labels,
            comment,
            default,
            expression,
        });
    }
    Ok(out)
}

/// The labels of a list; those of a character set of more than one byte
/// a character at least (ucs2, utf16, utf32) are kept in hex.
fn labels_of(list: &[Vec<u8>], charset: u32) -> Vec<Vec<u8>> {
    if crate::value::charset::mbminlen(charset) == 1 {
        return list.to_vec();
    }
    list.iter()
        .map(|l| {
            l.chunks(2)
                .filter_map(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok())
                .collect()
        })
        .collect()
}
