//! Entry points over raw bytes: decoders that work on one page image.

use innodb_format::index::page_zip::{ZipInflater, ZipPage};
use innodb_format::undo::trx_undo_rec::UndoRecordHeader;

/// Inflates `page` as a ROW_FORMAT=COMPRESSED page under every logical page
/// size it could belong to; returns the bytes produced.
pub fn zip_page(page: &[u8]) -> usize {
    let mut inflater = ZipInflater::new();
    let mut out = Vec::new();
    let mut produced = 0;
    for logical in [1024, 2048, 4096, 8192, 16384] {
        if page.len() > logical {
            continue;
        }
        if let Ok(zip) = ZipPage::parse(page, logical) {
            let _ = zip.dense_slots();
            if zip.decompress(&mut inflater, &mut out).is_ok() {
                produced += out.len();
            }
        }
    }
    produced
}

/// Reads an undo record header, and its body under 1 to 3 key fields, at
/// every offset of `page` and along each record's chain; returns how many
/// headers were read.
pub fn undo_records(page: &[u8]) -> usize {
    let mut read = 0;
    for offset in 0..page.len() {
        if let Ok(h) = UndoRecordHeader::parse_at(page, offset) {
            read += 1;
            for n_unique in 1..=3 {
                let _ = h.body(page, n_unique);
            }
        }
    }
    read
}
