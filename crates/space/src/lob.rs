//! MySQL 8.0+ off-page columns in the LOB format: an uncompressed LOB
//! (`FIL_PAGE_TYPE_LOB_FIRST`, then `LOB_INDEX` and `LOB_DATA` pages) or a
//! compressed one (`FIL_PAGE_TYPE_ZLOB_FIRST`, then `ZLOB_INDEX`,
//! `ZLOB_DATA` and `ZLOB_FRAG` pages, ROW_FORMAT=COMPRESSED tables).
//!
//! The first page's index list links one entry per piece of the current
//! version, in LOB order; each entry heads a list of the entries it
//! replaced (partial updates of JSON documents), newest first. Reading
//! follows the server (`lob::read`, `lob::z_read`): an entry whose LOB
//! version is newer than the one wanted gives way to the first older entry
//! that is not, and when none is, the entry itself is read.
//!
//! Every walk is bounded: the index list and each version list have at most
//! as many entries as the file has pages, no entry and no data page is
//! visited twice, and no more than the wanted length is produced. Damage
//! is reported as a message naming the page and the field.

use crate::logical_pages::LogicalPages;
use innodb_format::fil::header::FIL_PAGE_NEXT;
use innodb_format::fil::page_type::PageType;
use innodb_format::fsp::flst::{FilAddr, FlstBase};
use innodb_format::lob;
use innodb_format::lob::data_page::LobDataPage;
use innodb_format::lob::first_page::{LobFirstPage, LOB_FIRST_INDEX_LIST};
use innodb_format::lob::index_entry::{LobIndexEntry, LobIndexEntryCommon};
use innodb_format::zlob;
use innodb_format::zlob::data_page::ZlobDataPage;
use innodb_format::zlob::first_page::{ZlobFirstPage, ZLOB_FIRST_INDEX_LIST};
use innodb_format::zlob::frag_page::ZlobFragPage;
use innodb_format::zlob::index_entry::ZlobIndexEntry;
use innodb_format::FIL_NULL;
use std::collections::HashSet;

/// Reads the current version of the LOB whose first page is `first_page`
/// (the external reference's `BTR_EXTERN_PAGE_NO`): `want` bytes, the
/// length the reference gives (capped by the caller).
///
/// The first page must be a `LOB_FIRST` page (uncompressed LOB) or a
/// `ZLOB_FIRST` page (compressed LOB); old-style `BLOB`/`ZBLOB` chains are
/// not read here. The current version is the one the index list links.
pub fn read_lob(
    pages: &mut LogicalPages<'_>,
    first_page: u32,
    want: usize,
    buf: &mut Vec<u8>,
) -> Result<Vec<u8>, String> {
    read_lob_version(pages, first_page, None, want, buf)
}

/// Reads the LOB whose first page is `first_page` as LOB version `version`
/// sees it: the value the reference's `BTR_EXTERN_VERSION` names, or (for
/// `None`) the current version. A piece written by a newer version is read
/// from the newest older entry of its version list that `version` sees,
/// as the server does; a piece with no such entry is read as it is now.
pub fn read_lob_version(
    pages: &mut LogicalPages<'_>,
    first_page: u32,
    version: Option<u32>,
    want: usize,
    buf: &mut Vec<u8>,
) -> Result<Vec<u8>, String> {
    let mut first = Vec::new();
    let page_count = pages.space().page_count();
    let check = pages.read_into(first_page, &mut first).ok_or_else(|| {
        format!("LOB first page {first_page} cannot be read (the file has {page_count} pages)")
    })?;
    let kind = if check.page_type == PageType::LOB_FIRST {
        Kind::Lob
    } else if check.page_type == PageType::ZLOB_FIRST {
        Kind::Zlob
    } else {
        return Err(format!(
            "page {first_page} is a page of type {}, not LOB_FIRST or ZLOB_FIRST",
            check.page_type.name(pages.space().format().vendor)
        ));
    };
    let mut walk = Walk {
        pages,
        kind,
        first_no: first_page,
        first,
        node_page: None,
        limit: page_count as usize,
        seen_nodes: HashSet::new(),
        seen_data: HashSet::new(),
        want,
        out: Vec::new(),
    };
    walk.run(version, buf)?;
    Ok(walk.out)
}

/// The two LOB formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `LOB_FIRST` / `LOB_INDEX` / `LOB_DATA`.
    Lob,
    /// `ZLOB_FIRST` / `ZLOB_INDEX` / `ZLOB_DATA` / `ZLOB_FRAG`.
    Zlob,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Lob => "LOB",
            Kind::Zlob => "ZLOB",
        }
    }
}

/// An index entry of either format, with where it is.
#[derive(Debug, Clone, Copy)]
enum Entry {
    Lob(LobIndexEntry),
    Zlob(ZlobIndexEntry),
}

impl Entry {
    /// The fields both formats share.
    fn common(&self) -> &LobIndexEntryCommon {
        match self {
            Entry::Lob(e) => &e.common,
            Entry::Zlob(e) => &e.common,
        }
    }

    fn next(&self) -> FilAddr {
        self.common().node.next
    }

    fn versions(&self) -> FlstBase {
        self.common().versions
    }

    fn lob_version(&self) -> u32 {
        match self {
            Entry::Lob(e) => e.lob_version,
            Entry::Zlob(e) => e.lob_version,
        }
    }
}

/// Who points to a list node, for messages.
#[derive(Debug, Clone, Copy)]
struct Link {
    /// The page holding the pointer.
    page: u32,
    /// The byte offset of the list base or entry holding the pointer.
    offset: usize,
    /// True when the pointer is in the first page's index list base.
    base: bool,
    /// Which pointer: "first node", "next node", "first node of
    /// OFFSET_VERSIONS", "next node (version list)".
    what: &'static str,
}

/// One LOB being read.
struct Walk<'p, 'a> {
    /// The tablespace's pages.
    pages: &'p mut LogicalPages<'a>,
    /// The LOB's format, from the first page's type.
    kind: Kind,
    /// The first page's number.
    first_no: u32,
    /// The first page's image.
    first: Vec<u8>,
    /// The index page read last, with its number.
    node_page: Option<(u32, Vec<u8>)>,
    /// Pages in the file: no list is longer.
    limit: usize,
    /// Every index entry visited (page, byte).
    seen_nodes: HashSet<(u32, u16)>,
    /// Every data page read (LOB_DATA, ZLOB_DATA, and the first page as data).
    seen_data: HashSet<u32>,
    /// Bytes wanted: the output stops there.
    want: usize,
    /// The LOB's bytes read so far.
    out: Vec<u8>,
}

impl Walk<'_, '_> {
    fn page_type_name(&self, t: PageType) -> String {
        t.name(self.pages.space().format().vendor).into_owned()
    }

    fn link_text(&self, link: &Link) -> String {
        let holder = if link.base { "list" } else { "entry" };
        format!(
            "page {}: {} index {holder} at offset {}: {}",
            link.page,
            self.kind.name(),
            link.offset,
            link.what
        )
    }

    fn entry_text(&self, at: FilAddr) -> String {
        format!(
            "page {}: {} index entry at offset {}",
            at.page,
            self.kind.name(),
            at.byte
        )
    }

    /// Walks the index list, reading each piece, until `want` bytes are out.
    fn run(&mut self, version: Option<u32>, buf: &mut Vec<u8>) -> Result<(), String> {
        let (list, list_at) = match self.kind {
            Kind::Lob => {
                let h = LobFirstPage::parse(&self.first)
                    .map_err(|e| format!("page {}: {e}", self.first_no))?;
                (h.index_list, LOB_FIRST_INDEX_LIST)
            }
            Kind::Zlob => {
                let h = ZlobFirstPage::parse(&self.first)
                    .map_err(|e| format!("page {}: {e}", self.first_no))?;
                (h.index_list, ZLOB_FIRST_INDEX_LIST)
            }
        };
        let mut link = Link {
            page: self.first_no,
            offset: list_at,
            base: true,
            what: "first node",
        };
        let mut at = list.first;
        let mut entries = 0usize;
        while self.out.len() < self.want {
            if at.is_null() {
                return Err(format!(
                    "page {}: the {} index list ends after {} of {} bytes ({entries} entries)",
                    self.first_no,
                    self.kind.name(),
                    self.out.len(),
                    self.want
                ));
            }
            entries += 1;
            if entries > self.limit {
                return Err(format!(
                    "page {}: the {} index list has more entries than the file's {} pages",
                    self.first_no,
                    self.kind.name(),
                    self.limit
                ));
            }
            let entry = self.visit(at, &link)?;
            let (read_at, read) = match version {
                Some(v) if entry.lob_version() > v => {
                    self.older_version(at, &entry, v)?.unwrap_or((at, entry))
                }
                _ => (at, entry),
            };
            self.read_piece(read_at, &read, buf)?;
            link = Link {
                page: at.page,
                offset: usize::from(at.byte),
                base: false,
                what: "next node",
            };
            at = entry.next();
        }
        self.out.truncate(self.want);
        Ok(())
    }

    /// The newest entry of `entry`'s version list that version `v` sees, if any.
    fn older_version(
        &mut self,
        at: FilAddr,
        entry: &Entry,
        v: u32,
    ) -> Result<Option<(FilAddr, Entry)>, String> {
        let mut link = Link {
            page: at.page,
            offset: usize::from(at.byte),
            base: false,
            what: "first node of OFFSET_VERSIONS",
        };
        let mut cur = entry.versions().first;
        let mut n = 0usize;
        while !cur.is_null() {
            n += 1;
            if n > self.limit {
                return Err(format!(
                    "{}: the version list has more entries than the file's {} pages",
                    self.entry_text(at),
                    self.limit
                ));
            }
            let old = self.visit(cur, &link)?;
            if old.lob_version() <= v {
                return Ok(Some((cur, old)));
            }
            link = Link {
                page: cur.page,
                offset: usize::from(cur.byte),
                base: false,
                what: "next node (version list)",
            };
            cur = old.next();
        }
        Ok(None)
    }

    /// Reads the entry at `at`, which `link` points to; each entry once.
    fn visit(&mut self, at: FilAddr, link: &Link) -> Result<Entry, String> {
        if !self.seen_nodes.insert((at.page, at.byte)) {
            return Err(format!(
                "{} points back to page {} offset {}, an entry already visited",
                self.link_text(link),
                at.page,
                at.byte
            ));
        }
        let byte = usize::from(at.byte);
        let bad_slot = |this: &Self, what: String| {
            format!(
                "{} points to page {} offset {}, {what}",
                this.link_text(link),
                at.page,
                at.byte
            )
        };
        if at.page == self.first_no {
            let ps = self.first.len();
            let ok = match self.kind {
                Kind::Lob => LobFirstPage::entry_slot(byte).is_some(),
                Kind::Zlob => ZlobFirstPage::entry_slot(byte, ps).is_some(),
            };
            if !ok {
                return Err(bad_slot(
                    self,
                    "which is not an index entry slot of the first page".into(),
                ));
            }
            return self
                .parse_entry(&self.first, byte)
                .map_err(|e| format!("{}: {e}", self.entry_text(at)));
        }
        // An index page: reuse the one read last.
        let cached = matches!(&self.node_page, Some((n, _)) if *n == at.page);
        if !cached {
            let mut img = self.node_page.take().map(|(_, b)| b).unwrap_or_default();
            let check = match self.pages.read_into(at.page, &mut img) {
                Some(c) => c,
                None => {
                    return Err(bad_slot(
                        self,
                        format!("which cannot be read (the file has {} pages)", self.limit),
                    ))
                }
            };
            let expected = match self.kind {
                Kind::Lob => PageType::LOB_INDEX,
                Kind::Zlob => PageType::ZLOB_INDEX,
            };
            if check.page_type != expected {
                return Err(bad_slot(
                    self,
                    format!(
                        "a page of type {}, not the first page or a {} page",
                        self.page_type_name(check.page_type),
                        self.page_type_name(expected)
                    ),
                ));
            }
            self.node_page = Some((at.page, img));
        }
        let img = match &self.node_page {
            Some((_, img)) => img,
            None => return Err(bad_slot(self, "which could not be kept".into())),
        };
        let ok = match self.kind {
            Kind::Lob => lob::index_page::entry_slot(byte, img.len()).is_some(),
            Kind::Zlob => zlob::index_page::entry_slot(byte, img.len()).is_some(),
        };
        if !ok {
            return Err(bad_slot(
                self,
                "which is not an index entry slot of that index page".into(),
            ));
        }
        self.parse_entry(img, byte)
            .map_err(|e| format!("{}: {e}", self.entry_text(at)))
    }

    fn parse_entry(&self, img: &[u8], byte: usize) -> Result<Entry, innodb_format::FormatError> {
        Ok(match self.kind {
            Kind::Lob => Entry::Lob(LobIndexEntry::parse_at(img, byte)?),
            Kind::Zlob => Entry::Zlob(ZlobIndexEntry::parse_at(img, byte)?),
        })
    }

    /// Appends the piece `entry` (at `at`) describes, up to `want` bytes in all.
    fn read_piece(&mut self, at: FilAddr, entry: &Entry, buf: &mut Vec<u8>) -> Result<(), String> {
        match entry {
            Entry::Lob(e) => self.read_lob_piece(at, e, buf),
            Entry::Zlob(e) => self.read_zlob_chunk(at, e, buf),
        }
    }

    /// Claims data page `page` for the entry at `at`: each data page once.
    fn claim(&mut self, at: FilAddr, page: u32) -> Result<(), String> {
        if self.seen_data.insert(page) {
            Ok(())
        } else {
            Err(format!(
                "{}: data page {page} was already read for this LOB",
                self.entry_text(at)
            ))
        }
    }

    fn read_lob_piece(
        &mut self,
        at: FilAddr,
        e: &LobIndexEntry,
        buf: &mut Vec<u8>,
    ) -> Result<(), String> {
        if e.page_no == FIL_NULL {
            return Ok(());
        }
        self.claim(at, e.page_no)?;
        if e.page_no == self.first_no {
            let data = LobFirstPage::parse(&self.first)
                .and_then(|h| h.data(&self.first))
                .map_err(|err| format!("page {}: {err}", self.first_no))?;
            append_capped(&mut self.out, self.want, data);
            return Ok(());
        }
        let check = self.pages.read_into(e.page_no, buf).ok_or_else(|| {
            format!(
                "{}: OFFSET_PAGE_NO {} cannot be read (the file has {} pages)",
                self.entry_text(at),
                e.page_no,
                self.limit
            )
        })?;
        if check.page_type != PageType::LOB_DATA {
            return Err(format!(
                "{}: OFFSET_PAGE_NO {} is a page of type {}, not LOB_DATA",
                self.entry_text(at),
                e.page_no,
                self.page_type_name(check.page_type)
            ));
        }
        let data = LobDataPage::parse(buf)
            .and_then(|h| h.data(buf))
            .map_err(|err| format!("page {}: {err}", e.page_no))?;
        append_capped(&mut self.out, self.want, data);
        Ok(())
    }

    /// Gathers the zlib stream of `e` and inflates it.
    fn read_zlob_chunk(
        &mut self,
        at: FilAddr,
        e: &ZlobIndexEntry,
        buf: &mut Vec<u8>,
    ) -> Result<(), String> {
        if e.z_page_no == FIL_NULL || e.data_len == 0 {
            return Ok(());
        }
        let total = e.zdata_len as usize;
        let mut z: Vec<u8> = Vec::new();
        let mut page = e.z_page_no;
        let mut hops = 0usize;
        while z.len() < total {
            if page == FIL_NULL {
                return Err(format!(
                    "{}: the zlib stream ends after {} of its {total} bytes (OFFSET_ZDATA_LEN)",
                    self.entry_text(at),
                    z.len()
                ));
            }
            hops += 1;
            if hops > self.limit {
                return Err(format!(
                    "{}: the zlib stream runs over more pages than the file's {}",
                    self.entry_text(at),
                    self.limit
                ));
            }
            let remain = total - z.len();
            if page == self.first_no {
                if hops != 1 {
                    return Err(format!(
                        "{}: the zlib stream comes back to the first page {page}",
                        self.entry_text(at)
                    ));
                }
                self.claim(at, page)?;
                let h = ZlobFirstPage::parse(&self.first)
                    .map_err(|err| format!("page {page}: {err}"))?;
                let data = h
                    .data(&self.first)
                    .map_err(|err| format!("page {page}: {err}"))?;
                z.extend_from_slice(head(data, remain));
                page = next_page(&self.first, page)?;
                continue;
            }
            let check = self.pages.read_into(page, buf).ok_or_else(|| {
                format!(
                    "{}: zlib stream page {page} cannot be read (the file has {} pages)",
                    self.entry_text(at),
                    self.limit
                )
            })?;
            if check.page_type == PageType::ZLOB_DATA {
                self.claim(at, page)?;
                let data = ZlobDataPage::parse(buf)
                    .and_then(|h| h.data(buf))
                    .map_err(|err| format!("page {page}: {err}"))?;
                z.extend_from_slice(head(data, remain));
                page = next_page(buf, page)?;
            } else if check.page_type == PageType::ZLOB_FRAG {
                // A stream's fragment is its last part; the page's
                // FIL_PAGE_NEXT links fragment pages, not the stream.
                let frag = ZlobFragPage::parse(buf)
                    .and_then(|h| h.fragment(buf, e.z_frag_id))
                    .map_err(|err| {
                        format!(
                            "page {page}: fragment {} of {}: {err}",
                            e.z_frag_id,
                            self.entry_text(at)
                        )
                    })?;
                let data = frag.2;
                z.extend_from_slice(head(data, remain));
                if z.len() < total {
                    return Err(format!(
                        "{}: the zlib stream has {} of its {total} bytes after its fragment on page {page}",
                        self.entry_text(at),
                        z.len()
                    ));
                }
            } else {
                return Err(format!(
                    "{}: zlib stream page {page} is a page of type {}, not ZLOB_DATA or ZLOB_FRAG",
                    self.entry_text(at),
                    self.page_type_name(check.page_type)
                ));
            }
        }
        self.inflate(at, e, &z)
    }

    /// Inflates one chunk's zlib stream, which must give `OFFSET_DATA_LEN`
    /// bytes (or at least what is still wanted).
    fn inflate(&mut self, at: FilAddr, e: &ZlobIndexEntry, z: &[u8]) -> Result<(), String> {
        let data_len = e.data_len as usize;
        let cap = data_len.min(self.want.saturating_sub(self.out.len()));
        let mut chunk = vec![0u8; cap];
        let mut d = flate2::Decompress::new(true);
        let status = d
            .decompress(z, &mut chunk, flate2::FlushDecompress::Finish)
            .map_err(|err| {
                format!(
                    "{}: the zlib stream of {} bytes does not inflate: {err}",
                    self.entry_text(at),
                    z.len()
                )
            })?;
        let got = usize::try_from(d.total_out()).unwrap_or(usize::MAX);
        if got < cap {
            return Err(format!(
                "{}: the zlib stream of {} bytes inflates to only {got} bytes, OFFSET_DATA_LEN says {data_len}",
                self.entry_text(at),
                z.len()
            ));
        }
        if cap == data_len && status != flate2::Status::StreamEnd {
            return Err(format!(
                "{}: the zlib stream goes on past the {data_len} bytes OFFSET_DATA_LEN gives",
                self.entry_text(at)
            ));
        }
        self.out.extend_from_slice(head(&chunk, got));
        Ok(())
    }
}

/// Appends `data` to `out`, which stops at `want` bytes.
fn append_capped(out: &mut Vec<u8>, want: usize, data: &[u8]) {
    let room = want.saturating_sub(out.len());
    out.extend_from_slice(head(data, room));
}

/// The first `n` bytes of `data`, or all of it when it is shorter.
fn head(data: &[u8], n: usize) -> &[u8] {
    data.get(..n).unwrap_or(data)
}

/// `FIL_PAGE_NEXT` of the page image `img` (page `page`).
fn next_page(img: &[u8], page: u32) -> Result<u32, String> {
    innodb_format::bytes::u32_at(img, FIL_PAGE_NEXT, "FIL_PAGE_NEXT")
        .map_err(|err| format!("page {page}: {err}"))
}
