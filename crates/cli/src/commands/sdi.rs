//! `sdi`: the Serialized Dictionary Information of MySQL 8.0+ files.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::runner::{over, status};
use crate::CliError;
use innodb_analysis::reports::datadir_totals::{with_notes, SdiTotals};
use innodb_analysis::reports::sdi_report::{NoSdi, SdiReport};
use innodb_render::{datadir_text, space_text};
use std::path::Path;

/// Why a file has no SDI.
pub const NO_SDI: &str =
    "no SDI index: only MySQL 8.0 and later keep the dictionary in the tablespace";

/// `sdi [FILE]`: with no file, every tablespace's SDI, made in parallel; a
/// file without an SDI index (MariaDB, MySQL before 8.0) says so in its
/// place and is no failure.
pub fn run(inputs: &Inputs, file: Option<&Path>, out: &mut Output) -> Result<u8, CliError> {
    let Some(file) = file else {
        let files = over(inputs, "sdi", |s| match SdiReport::build(s) {
            Ok(r) => Ok(Ok(r)),
            Err(NoSdi::NoSdiIndex) => Ok(Err(NO_SDI.to_string())),
            Err(NoSdi::NoSpaceMap(_)) => Err(CliError::NoSpaceMap(s.path().into()).in_datadir()),
        })?;
        let r = files.convert(with_notes).with_totals(SdiTotals::of);
        out.report(inputs.format, &r, datadir_text::sdi);
        return Ok(status(&r.files));
    };
    let space = inputs.open(file)?;
    let r = SdiReport::build(&space).map_err(|e| match e {
        NoSdi::NoSpaceMap(_) => CliError::NoSpaceMap(space.path().into()),
        NoSdi::NoSdiIndex => CliError::file(space.path(), NO_SDI),
    })?;
    out.report(inputs.format, &r, space_text::sdi);
    Ok(0)
}
