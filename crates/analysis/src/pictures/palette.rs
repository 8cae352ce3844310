//! The colours of the pictures.

use super::Rgb;

/// LSN-age bands, oldest (cold) to newest (hot): ten steps of the
/// red-yellow-blue scale, reversed.
pub const LSN_BANDS: [Rgb; 10] = [
    Rgb(0x31, 0x36, 0x95),
    Rgb(0x45, 0x75, 0xb4),
    Rgb(0x74, 0xad, 0xd1),
    Rgb(0xab, 0xd9, 0xe9),
    Rgb(0xe0, 0xf3, 0xf8),
    Rgb(0xfe, 0xe0, 0x90),
    Rgb(0xfd, 0xae, 0x61),
    Rgb(0xf4, 0x6d, 0x43),
    Rgb(0xd7, 0x30, 0x27),
    Rgb(0xa5, 0x00, 0x26),
];

/// The hottest colour: the newest page's.
pub const HOTTEST: Rgb = LSN_BANDS[9];

/// Free pages (of free extents and free pages of fragment extents).
pub const FREE: Rgb = Rgb(0xd9, 0xd9, 0xd9);
/// Free pages inside an extent a segment reserved.
pub const RESERVED_UNUSED: Rgb = Rgb(0xff, 0xc0, 0xcb);
/// Pages at or past the free limit, or never written (all zero).
pub const EMPTY: Rgb = Rgb(0xf4, 0xf4, 0xf4);
/// Page 0, XDES, IBUF_BITMAP and INODE pages.
pub const BOOKKEEPING: Rgb = Rgb(0x40, 0x40, 0x40);
/// Pages no structure accounts for, or whose descriptor is unreadable.
pub const UNACCOUNTED: Rgb = Rgb(0xff, 0x00, 0xff);
/// Any other page.
pub const OTHER: Rgb = Rgb(0x99, 0x99, 0x99);

/// Distinct colours for indexes and segments, in order of first appearance
/// (Tableau 10, then Set 2).
pub const DISTINCT: [Rgb; 18] = [
    Rgb(0x4e, 0x79, 0xa7),
    Rgb(0xf2, 0x8e, 0x2b),
    Rgb(0x59, 0xa1, 0x4f),
    Rgb(0xe1, 0x57, 0x59),
    Rgb(0x76, 0xb7, 0xb2),
    Rgb(0xed, 0xc9, 0x48),
    Rgb(0xb0, 0x7a, 0xa1),
    Rgb(0xff, 0x9d, 0xa7),
    Rgb(0x9c, 0x75, 0x5f),
    Rgb(0xba, 0xb0, 0xac),
    Rgb(0x66, 0xc2, 0xa5),
    Rgb(0xfc, 0x8d, 0x62),
    Rgb(0x8d, 0xa0, 0xcb),
    Rgb(0xe7, 0x8a, 0xc3),
    Rgb(0xa6, 0xd8, 0x54),
    Rgb(0xff, 0xd9, 0x2f),
    Rgb(0xe5, 0xc4, 0x94),
    Rgb(0x1b, 0x9e, 0x77),
];

/// The `i`-th distinct colour (repeating after the last).
pub fn distinct(i: usize) -> Rgb {
    DISTINCT
        .get(i % DISTINCT.len())
        .copied()
        .unwrap_or(DISTINCT[0])
}

/// The colour of a page type, by its name (as `PageType::name` gives it);
/// INDEX pages are split into leaves and non-leaf pages.
pub fn page_type(name: &str, leaf: Option<bool>) -> Rgb {
    match (name, leaf) {
        ("INDEX" | "RTREE", Some(false)) => Rgb(0x1b, 0x78, 0x37),
        ("INDEX" | "RTREE", _) => Rgb(0x5a, 0xae, 0x61),
        ("SDI", _) => Rgb(0x80, 0xcd, 0xc1),
        ("UNDO_LOG", _) => Rgb(0x98, 0x4e, 0xa3),
        ("INODE", _) => Rgb(0xa6, 0x76, 0x1d),
        ("FSP_HDR" | "XDES", _) => Rgb(0x37, 0x7e, 0xb8),
        ("IBUF_BITMAP", _) => Rgb(0x17, 0xbe, 0xcf),
        ("IBUF_FREE_LIST", _) => Rgb(0x9e, 0xda, 0xe5),
        ("SYS", _) => Rgb(0xe7, 0x29, 0x8a),
        ("TRX_SYS" | "RSEG_ARRAY", _) => Rgb(0x40, 0x00, 0x4b),
        ("ALLOCATED", _) => EMPTY,
        (n, _) if n.contains("BLOB") || n.contains("LOB") => Rgb(0xff, 0x7f, 0x00),
        _ => OTHER,
    }
}
