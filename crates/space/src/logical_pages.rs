//! Pages as checked, logical page images, for the walkers (space map,
//! B+trees): a MariaDB page-compressed page comes back inflated.

use crate::page_check::{PageCheck, PageChecker};
use crate::Tablespace;
use innodb_format::index::page_zip::{ZipInflater, ZipPage, ZipSpace};
use innodb_format::FormatError;

/// Reads pages of one tablespace one at a time, as logical images.
pub struct LogicalPages<'a> {
    space: &'a Tablespace,
    checker: PageChecker,
    /// The physical page last read (reused).
    raw: Vec<u8>,
    /// Inflater for ROW_FORMAT=COMPRESSED pages.
    zip: ZipInflater,
    /// How the last compressed page's bytes are used, or why it could not be rebuilt.
    last_zip: Option<Result<ZipSpace, FormatError>>,
}

/// A page read for the walkers: its check and its logical bytes.
pub struct LogicalPage {
    /// The page's check (type, checksum, LSN).
    pub check: PageCheck,
    /// The logical page image.
    pub bytes: Vec<u8>,
}

impl<'a> LogicalPages<'a> {
    /// A reader over `space`.
    pub fn new(space: &'a Tablespace) -> Self {
        LogicalPages {
            space,
            // The walkers leave checksums to the scan that reports them.
            checker: space.checker().without_checksums(),
            raw: Vec::new(),
            zip: ZipInflater::new(),
            last_zip: None,
        }
    }

    /// The tablespace read.
    pub fn space(&self) -> &'a Tablespace {
        self.space
    }

    /// Page `n`, or `None` when it is beyond the file. Problems with the page
    /// itself (checksum, LSN) are left to the scan that reports them.
    pub fn read(&mut self, n: u32) -> Option<LogicalPage> {
        let mut bytes = Vec::new();
        let check = self.read_into(n, &mut bytes)?;
        Some(LogicalPage { check, bytes })
    }

    /// Page `n`'s check, with its logical image in `buf` (whose allocation
    /// is reused from call to call). A page stored as it is read goes
    /// from the file into `buf` with no copy in between.
    pub fn read_into(&mut self, n: u32, buf: &mut Vec<u8>) -> Option<PageCheck> {
        let ps = self.space.format().physical_page_size();
        buf.resize(ps, 0);
        let got = self.space.read_page_prefix(n, buf).ok()?;
        if got < ps {
            return None;
        }
        std::mem::swap(&mut self.raw, buf);
        Some(self.image(n, buf))
    }

    /// As [`LogicalPages::read_into`], for page `n` whose physical bytes
    /// `raw` were already read (by a sequential scan): the same check and
    /// logical image, with no read of the file.
    pub fn read_from(&mut self, n: u32, raw: &[u8], buf: &mut Vec<u8>) -> PageCheck {
        self.raw.clear();
        self.raw.extend_from_slice(raw);
        self.image(n, buf)
    }

    /// The check and logical image of the physical page in `self.raw`.
    fn image(&mut self, n: u32, buf: &mut Vec<u8>) -> PageCheck {
        let mut ignored = Vec::new();
        let check = self.checker.check(n, &self.raw, &mut ignored);
        self.last_zip = None;
        let format = self.space.format();
        if format.is_zip() && check.page_type.is_index_layout(format.vendor) && !check.all_zero {
            // A ROW_FORMAT=COMPRESSED index page: rebuild the logical page.
            let rebuilt = ZipPage::parse(&self.raw, format.logical_page_size())
                .and_then(|z| z.decompress(&mut self.zip, buf));
            if rebuilt.is_err() {
                buf.clear();
                buf.extend_from_slice(&self.raw);
            }
            self.last_zip = Some(rebuilt);
            return check;
        }
        match (&check.compressed, self.checker.inflated_page()) {
            (Some(_), Some(inflated)) => {
                buf.clear();
                buf.extend_from_slice(inflated);
            }
            // The page as stored is its image: its bytes change hands.
            _ => std::mem::swap(buf, &mut self.raw),
        }
        check
    }

    /// For the last page read, when it was a ROW_FORMAT=COMPRESSED index
    /// page: how its bytes are used, or why it could not be rebuilt (its
    /// image is then the physical page).
    pub fn last_zip(&self) -> Option<&Result<ZipSpace, FormatError>> {
        self.last_zip.as_ref()
    }

    /// The first `len` bytes of page `n` as stored (headers of an
    /// uncompressed or ROW_FORMAT=COMPRESSED page), into `buf`.
    pub fn read_prefix(&self, n: u32, len: usize, buf: &mut Vec<u8>) -> Option<()> {
        buf.resize(len, 0);
        let got = self.space.read_page_prefix(n, buf).ok()?;
        (got == len).then_some(())
    }
}
