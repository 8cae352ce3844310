//! `page`: every decoded field of one page, with offsets.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::PageDetail;
use innodb_render::text;
use std::path::Path;

/// `page FILE N`.
pub fn run(inputs: &Inputs, file: &Path, page: u32, out: &mut Output) -> Result<u8, CliError> {
    let detail = PageDetail::build(&inputs.open(file)?, page)?;
    out.report(inputs.format, &detail, text::page);
    Ok(0)
}
