//! `page`: every decoded field of one page, with offsets.

use crate::inputs::Inputs;
use crate::output::Output;
use crate::CliError;
use innodb_analysis::PageDetail;
use innodb_render::text;
use std::path::Path;

/// `page FILE N`.
pub fn run(inputs: &Inputs, file: &Path, page: u32, out: &mut Output) -> Result<u8, CliError> {
    let detail = match inputs.open(file) {
        Ok(space) => PageDetail::build(&space, page)?,
        Err(e) => {
            return super::doublewrite::instead(inputs, e, |f| {
                let detail = PageDetail::of_slot(&f, page)?;
                out.report(inputs.format, &detail, text::page);
                Ok(0)
            })
        }
    };
    out.report(inputs.format, &detail, text::page);
    Ok(0)
}
