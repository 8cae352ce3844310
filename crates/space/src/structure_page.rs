//! Reading the few pages the space-management walkers need, as checked,
//! logical page images (a MariaDB page-compressed page comes back inflated).

use crate::page_check::{PageCheck, PageChecker};
use crate::Tablespace;

/// Reads structural pages of one tablespace one at a time.
pub struct StructurePages<'a> {
    space: &'a Tablespace,
    checker: PageChecker,
}

/// A page read for the walkers: its check and its logical bytes.
pub struct StructurePage {
    /// The page's check (type, checksum, LSN).
    pub check: PageCheck,
    /// The logical page image.
    pub bytes: Vec<u8>,
}

impl<'a> StructurePages<'a> {
    /// A reader over `space`.
    pub fn new(space: &'a Tablespace) -> Self {
        StructurePages {
            space,
            checker: space.checker(),
        }
    }

    /// The tablespace read.
    pub fn space(&self) -> &'a Tablespace {
        self.space
    }

    /// Page `n`, or `None` when it is beyond the file. Problems with the page
    /// itself (checksum, LSN) are left to the scan that reports them.
    pub fn read(&mut self, n: u32) -> Option<StructurePage> {
        let raw = self.space.page(n).ok()?;
        let mut ignored = Vec::new();
        let check = self.checker.check(n, raw, &mut ignored);
        let bytes = match (&check.compressed, self.checker.inflated_page()) {
            (Some(_), Some(inflated)) => inflated.to_vec(),
            _ => raw.to_vec(),
        };
        Some(StructurePage { check, bytes })
    }
}
