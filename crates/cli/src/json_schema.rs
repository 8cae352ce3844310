//! A JSON Schema (draft 2020-12) of each command's `--format json`, made
//! from the same Rust types serde writes the JSON from (`schemars`), so
//! that it cannot say other than what is written. `docs/schema/` holds them
//! (`json-schema --write DIR`; a test checks they equal these).
//!
//! Two rules of the JSON output are applied to the generated schemas here:
//! every 64-bit (or pointer-sized) integer may also be a string of digits
//! (`innodb_render::json::exact_integers` writes those past 2^53 − 1 so),
//! and no object has properties beyond those its type declares.

use crate::commands::checksum::Checksums;
use crate::commands::doublewrite::Reports;
use crate::output::Named;
use innodb_analysis::pictures::{Chart, Raster};
use innodb_analysis::reports::carve_report::CarveReport;
use innodb_analysis::reports::count_report::CountReport;
use innodb_analysis::reports::datadir_report::{
    ChecksumTotals, DatadirReport, FileTotals, IndexesTotals, SummaryTotals, WasteTotals,
};
use innodb_analysis::reports::datadir_totals::{PagesTotals, SdiTotals};
use innodb_analysis::reports::doublewrite_report::{DoublewriteReport, DoublewriteTotals};
use innodb_analysis::reports::indexes::IndexesReport;
use innodb_analysis::reports::sdi_report::SdiReport;
use innodb_analysis::reports::space_reports::{ExtentsReport, SegmentsReport, WasteReport};
use innodb_analysis::reports::tree_report::TreeReport;
use innodb_analysis::reports::undo_report::{UndoComparison, UndoReport};
use innodb_analysis::rows::records::RowState;
use innodb_analysis::rows::row_history::RowHistory;
use innodb_analysis::rows::row_recovery::{RecoveryCounts, View};
use innodb_analysis::rows::row_state::{OpenTrx, RowTrx, TrxState};
use innodb_analysis::rows::table_definition::TableDefinition;
use innodb_analysis::{ChecksumReport, PageDetail, PageList, Summary};
use innodb_format::value::column_value::{RollPtr, Value};
use innodb_render::json::FORMAT_VERSION;
use innodb_space::Finding;
use schemars::JsonSchema;
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeMap;

/// The commands whose JSON has a schema, in the order of `docs/schema/`.
pub const COMMANDS: &[&str] = &[
    "summary",
    "checksum",
    "pages",
    "page",
    "indexes",
    "fill",
    "count",
    "tree",
    "segments",
    "extents",
    "waste",
    "heatmap",
    "plot",
    "undo",
    "history",
    "records",
    "schema",
    "sdi",
    "doublewrite",
    "carve",
];

/// A command's JSON object: the report with [`FORMAT_VERSION`] first (the
/// `Versioned` of `innodb_render::json`, for the schema).
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Versioned<T> {
    /// The version of the JSON output: 1.
    #[schemars(range(min = 1, max = 1))]
    format_version: u32,
    /// The report.
    #[serde(flatten)]
    report: T,
}

/// A per-file command: of one file, or of every tablespace of `--datadir`.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum PerFile<R, T> {
    /// `COMMAND FILE`.
    File(Versioned<R>),
    /// `--datadir DIR COMMAND`.
    Datadir(Versioned<DatadirReport<R, T>>),
}

/// A per-file command whose file may also be a doublewrite file (`summary`,
/// `pages`): that file's reports then.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum OrDoublewrite<R, T> {
    /// A tablespace, or a data directory.
    Space(PerFile<R, T>),
    /// A doublewrite file.
    Doublewrite(Versioned<Named<'static, Reports<'static>>>),
}

/// One of two shapes.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Either<A, B> {
    /// The first.
    A(Versioned<A>),
    /// The second.
    B(Versioned<B>),
}

/// A command with one shape.
type One<R> = Versioned<R>;

/// One line of `records`' JSON lines.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum RecordsLine {
    /// A row.
    Row(RowLine),
    /// A finding, after the rows.
    Finding(FindingLine),
    /// What the undo logs told of transactions, after the rows.
    Transactions(TransactionsLine),
}

/// A row of `records` (`innodb_render::json::records_line`).
#[derive(JsonSchema)]
#[allow(dead_code)]
struct RowLine {
    /// The version of the JSON output: 1.
    #[schemars(range(min = 1, max = 1))]
    format_version: u32,
    /// The page the record is on.
    page: u32,
    /// The record's origin on its page.
    origin: usize,
    /// The record is delete-marked (or garbage).
    deleted: bool,
    /// Live, delete-marked or garbage.
    state: RowState,
    /// The state of the transaction that last changed the row (undo logs read).
    #[serde(skip_serializing_if = "Option::is_none")]
    trx_state: Option<TrxState>,
    /// How the row was rebuilt from the undo logs, when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    rebuilt: Option<RowTrx>,
    /// `DB_ROLL_PTR` taken apart (clustered index records).
    #[serde(skip_serializing_if = "Option::is_none")]
    roll_ptr: Option<RollPtr>,
    /// Each field's value by its name.
    row: BTreeMap<String, Value>,
}

/// A finding of `records`.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct FindingLine {
    /// The version of the JSON output: 1.
    #[schemars(range(min = 1, max = 1))]
    format_version: u32,
    /// The finding.
    finding: Finding,
}

/// The transactions line of `records` (`recovery_text::trx_summary_json`).
#[derive(JsonSchema)]
#[allow(dead_code)]
struct TransactionsLine {
    /// The version of the JSON output: 1.
    #[schemars(range(min = 1, max = 1))]
    format_version: u32,
    /// What was told.
    transactions: Transactions,
}

/// The transactions of `records`' read.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Transactions {
    /// The view the rows were read in.
    view: View,
    /// The transactions in flight.
    open: Vec<OpenTrx>,
    /// Rows per open transaction.
    uncommitted_rows: Vec<UncommittedRows>,
    /// The rows by what was made of them.
    counts: RecoveryCounts,
}

/// The rows one open transaction changed.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct UncommittedRows {
    /// The transaction.
    trx_id: u64,
    /// Its state.
    state: TrxState,
    /// Rows.
    rows: u64,
}

/// The generated schema of `T`, with the rules of the JSON output applied.
fn schema_of<T: JsonSchema>(title: &str) -> Json {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let root = generator.into_root_schema_for::<T>();
    let mut v = root.to_value();
    as_written(&mut v);
    // `$schema` and the title first, for people reading the file.
    let mut head = Map::new();
    if let Json::Object(o) = &mut v {
        if let Some(s) = o.shift_remove("$schema") {
            head.insert("$schema".into(), s);
        }
        o.shift_remove("title");
        head.insert("title".into(), json!(title));
        head.append(o);
    }
    Json::Object(head)
}

/// The JSON Schema of `command`'s `--format json` (`records`: of each of
/// its JSON lines); `None` for a command with no JSON.
pub fn schema(command: &str) -> Option<Json> {
    let title = format!("innodb-inspect {command} --format json (format_version {FORMAT_VERSION})");
    let t = title.as_str();
    Some(match command {
        "summary" => schema_of::<OrDoublewrite<Summary, SummaryTotals>>(t),
        "checksum" => schema_of::<
            Either<Checksums<'static>, DatadirReport<ChecksumReport, ChecksumTotals>>,
        >(t),
        "pages" => schema_of::<OrDoublewrite<PageList, PagesTotals>>(t),
        "page" => schema_of::<One<PageDetail>>(t),
        "indexes" => schema_of::<PerFile<IndexesReport, IndexesTotals>>(t),
        "fill" => schema_of::<PerFile<IndexesReport, FileTotals>>(t),
        "count" => schema_of::<PerFile<CountReport, FileTotals>>(t),
        "tree" => schema_of::<One<TreeReport>>(t),
        "segments" => schema_of::<PerFile<SegmentsReport, FileTotals>>(t),
        "extents" => schema_of::<PerFile<ExtentsReport, FileTotals>>(t),
        "waste" => schema_of::<PerFile<WasteReport, WasteTotals>>(t),
        "heatmap" => {
            schema_of::<Either<Named<'static, Raster>, DatadirReport<Raster, FileTotals>>>(t)
        }
        "plot" => schema_of::<Either<Named<'static, Chart>, DatadirReport<Chart, FileTotals>>>(t),
        "undo" => schema_of::<Either<Named<'static, UndoReport>, UndoComparison>>(t),
        "history" => schema_of::<One<RowHistory>>(t),
        "records" => schema_of::<RecordsLine>(t),
        "schema" => schema_of::<One<TableDefinition>>(t),
        "sdi" => schema_of::<PerFile<SdiReport, SdiTotals>>(t),
        "doublewrite" => schema_of::<
            Either<
                Named<'static, Reports<'static>>,
                DatadirReport<DoublewriteReport, DoublewriteTotals>,
            >,
        >(t),
        "carve" => schema_of::<One<CarveReport>>(t),
        _ => return None,
    })
}

/// The pattern of an integer written as a string: past 2^53 − 1, so 16
/// to 20 digits, and a sign.
const DIGITS: &str = "^-?[0-9]{16,20}$";

/// The rules of the JSON output applied to a generated schema, in every
/// subschema: a 64-bit or pointer-sized integer may be a string of digits;
/// an object with declared properties has no others.
fn as_written(v: &mut Json) {
    match v {
        Json::Object(o) => {
            integer_or_digits(o);
            closed(o);
            for (_, sub) in o.iter_mut() {
                as_written(sub);
            }
        }
        Json::Array(a) => a.iter_mut().for_each(as_written),
        _ => {}
    }
}

/// `"type": "integer"` of a 64-bit format made `["integer", "string"]`,
/// the string held to [`DIGITS`].
fn integer_or_digits(o: &mut Map<String, Json>) {
    let wide = o
        .get("format")
        .and_then(Json::as_str)
        .is_some_and(|f| matches!(f, "uint64" | "int64" | "uint" | "int"));
    if !wide {
        return;
    }
    let types = match o.get("type") {
        Some(Json::String(t)) if t == "integer" => vec![json!("integer"), json!("string")],
        Some(Json::Array(ts)) if ts.iter().any(|t| t == "integer") => {
            let mut ts = ts.clone();
            ts.insert(1, json!("string"));
            ts
        }
        _ => return,
    };
    o.insert("type".into(), Json::Array(types));
    o.insert("pattern".into(), json!(DIGITS));
}

/// An object schema with `properties` and no word on others gets
/// `"unevaluatedProperties": false` (which, unlike `additionalProperties`,
/// sees the properties of the subschemas a flattened enum adds).
fn closed(o: &mut Map<String, Json>) {
    if o.contains_key("properties")
        && !o.contains_key("additionalProperties")
        && !o.contains_key("unevaluatedProperties")
    {
        o.insert("unevaluatedProperties".into(), json!(false));
    }
}

/// `schema(command)` as the text of its file in `docs/schema/`.
pub fn schema_text(command: &str) -> Option<String> {
    let v = schema(command)?;
    let mut s = serde_json::to_string_pretty(&v).ok()?;
    s.push('\n');
    Some(s)
}
