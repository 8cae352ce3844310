//! The `undo_pages` entry point: the input laid over the undo pages of a
//! real system tablespace, so that nearly every byte the fuzzer changes
//! is on a page the undo walk reads (18 of the SYS pages are not: the
//! insert buffer and dictionary headers, and 16 doublewrite-buffer copies
//! of SYS pages).
//!
//! The base is the undo scenario's `ibdata1` (`fixtures/p4k-undo`, 4 KiB
//! pages, made by a real MariaDB server), up to its last undo page. Its
//! pages of type TRX_SYS (7), SYS (6: rollback segment headers and the
//! other system pages) and UNDO_LOG (2), in page order, are the undo pages.
//! The input is cut into 4 KiB pieces: piece *i* replaces undo page *i*
//! (a last, shorter piece the start of its page); the other pages, page 0
//! among them, stay as the server wrote them.

use crate::file;
use innodb_format::bytes::u16_at;
use innodb_format::fil::header::FIL_PAGE_TYPE;
use innodb_format::fil::page_type::PageType;
use innodb_space::{OpenOptions, Tablespace};
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

/// The base file, in this repository's fixtures (read once).
const BASE_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/p4k-undo/files/ibdata1.gz"
);

/// The base file's page size.
const PAGE_SIZE: usize = 4096;

/// The base file up to its last undo page, and its undo pages in order.
struct Base {
    file: Vec<u8>,
    undo_pages: Vec<usize>,
}

/// Whether a page of type `t` is one the undo walk reads.
fn is_undo_page(t: PageType) -> bool {
    [
        PageType::TYPE_TRX_SYS,
        PageType::TYPE_SYS,
        PageType::UNDO_LOG,
    ]
    .contains(&t)
}

fn base() -> Option<&'static Base> {
    static BASE: OnceLock<Option<Base>> = OnceLock::new();
    BASE.get_or_init(|| {
        let packed = std::fs::read(BASE_PATH).ok()?;
        let mut file = Vec::new();
        flate2::read::GzDecoder::new(&packed[..])
            .read_to_end(&mut file)
            .ok()?;
        let undo_pages: Vec<usize> = file
            .chunks_exact(PAGE_SIZE)
            .enumerate()
            .filter(|(_, page)| {
                u16_at(page, FIL_PAGE_TYPE, "FIL_PAGE_TYPE")
                    .is_ok_and(|t| is_undo_page(PageType(t)))
            })
            .map(|(n, _)| n)
            .collect();
        let last = *undo_pages.last()?;
        file.truncate((last + 1) * PAGE_SIZE);
        Some(Base { file, undo_pages })
    })
    .as_ref()
}

/// The base file's own undo pages, in order: the input under which
/// [`undo_pages`] leaves the file as the server wrote it, and the longest
/// it reads (empty when the base cannot be read).
pub fn base_undo_pages() -> Vec<u8> {
    let Some(base) = base() else {
        return Vec::new();
    };
    base.undo_pages
        .iter()
        .filter_map(|&p| base.file.get(p * PAGE_SIZE..(p + 1) * PAGE_SIZE))
        .flatten()
        .copied()
        .collect()
}

/// Lays `data` over the undo pages of the base file, writes the result to
/// `scratch` and runs `undo` over it as the system tablespace; returns the
/// bytes of output made (0 when the base file cannot be read).
pub fn undo_pages(data: &[u8], scratch: &Path) -> usize {
    let Some(base) = base() else {
        return 0;
    };
    let mut image = base.file.clone();
    for (piece, &page) in data.chunks(PAGE_SIZE).zip(&base.undo_pages) {
        let start = page * PAGE_SIZE;
        if let Some(target) = image.get_mut(start..start + piece.len()) {
            target.copy_from_slice(piece);
        }
    }
    if std::fs::write(scratch, &image).is_err() {
        return 0;
    }
    match Tablespace::open(scratch, OpenOptions::default()) {
        Ok(space) => file::undo(&file::Subject {
            space: &space,
            page_size: None,
            dict: None,
            limits: crate::Limits::default(),
        }),
        Err(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The base's own undo pages laid over it give back the file as the
    /// server wrote it, and the run over it the same output as no input;
    /// zeroing the first two (the insert buffer header page 3 and TRX_SYS
    /// page 5) changes what `undo` reports.
    #[test]
    fn the_input_lands_on_the_undo_pages_in_order() {
        let base = base().expect("the undo scenario's ibdata1 reads");
        assert_eq!(base.undo_pages.len(), 316);
        assert_eq!(base.undo_pages[..4], [3, 5, 6, 7]);
        assert_eq!(base.file.len(), 976 * PAGE_SIZE);
        let own = base_undo_pages();
        assert_eq!(own.len(), 316 * PAGE_SIZE);
        assert!(own[PAGE_SIZE..2 * PAGE_SIZE] == base.file[5 * PAGE_SIZE..6 * PAGE_SIZE]);
        let scratch = std::env::temp_dir().join(format!("undo-pages-{}.ibd", std::process::id()));
        let untouched = undo_pages(&[], &scratch);
        assert!(untouched > 0);
        assert_eq!(undo_pages(&own, &scratch), untouched);
        assert!(std::fs::read(&scratch).unwrap() == base.file);
        let zeroed = undo_pages(&[0; 2 * PAGE_SIZE], &scratch);
        let mut expected = base.file.clone();
        expected[3 * PAGE_SIZE..4 * PAGE_SIZE].fill(0);
        expected[5 * PAGE_SIZE..6 * PAGE_SIZE].fill(0);
        assert!(std::fs::read(&scratch).unwrap() == expected);
        assert_ne!(zeroed, untouched);
        std::fs::remove_file(&scratch).unwrap();
    }
}
