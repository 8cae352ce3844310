//! The colours of the pictures.

use super::Rgb;

/// LSN-age bands, oldest to newest: ten steps of the sequential, perceptually
/// even "plasma" scale (matplotlib's), from yellow (oldest) through orange and
/// magenta to purple (newest), as in Jeremy Cole's pictures where a table whose
/// every page is recent is purple all over. Its darkest, near-black blue end
/// is left out so that the newest band stays purple and reads on a dark
/// terminal. No band is grey or pale, so a page never written (pale grey,
/// [`EMPTY`]) cannot be taken for one.
pub const LSN_BANDS: [Rgb; 10] = [
    Rgb(0xf0, 0xf9, 0x21),
    Rgb(0xfb, 0xd0, 0x25),
    Rgb(0xfb, 0xab, 0x35),
    Rgb(0xf3, 0x8a, 0x48),
    Rgb(0xe5, 0x6b, 0x5d),
    Rgb(0xd1, 0x4f, 0x72),
    Rgb(0xba, 0x34, 0x88),
    Rgb(0x9e, 0x19, 0x9d),
    Rgb(0x7b, 0x05, 0xa6),
    Rgb(0x56, 0x02, 0xa2),
];

/// The newest band's colour: the newest page's.
pub const NEWEST: Rgb = LSN_BANDS[9];
/// The oldest band's colour: the oldest written page's.
pub const OLDEST: Rgb = LSN_BANDS[0];

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

/// Distinct colours for indexes, by rank (Tableau 10, then Set 2).
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

/// Index letters by rank: `A`–`Z`, then `a`–`z`, then `0`–`9` (repeating
/// after the last).
pub const INDEX_SYMBOLS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// The letter and colour of the index of rank `rank` in its tablespace.
pub fn index_key(rank: usize) -> (char, Rgb) {
    let n = INDEX_SYMBOLS.len();
    let symbol = INDEX_SYMBOLS.chars().nth(rank % n).unwrap_or('?');
    (symbol, distinct(rank))
}

/// The ranks of a tablespace's indexes, which give each index its letter
/// and colour ([`index_key`]) in every picture of the file: the heatmaps by
/// index and by fill, and the series of `plot --levels` and
/// `--fill-histogram`. The indexes the space map names (their roots, in
/// index id order) come first, from `A`; ids met only on pages follow, in
/// id order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexKeys {
    ids: Vec<u64>,
}

impl IndexKeys {
    /// Keys for the indexes `known` (sorted here, duplicates dropped).
    pub fn new(known: impl IntoIterator<Item = u64>) -> IndexKeys {
        let mut ids: Vec<u64> = known.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        IndexKeys { ids }
    }

    /// Adds the ids of `others` that are not known yet, after the known
    /// ones, in id order.
    pub fn add_others(&mut self, others: impl IntoIterator<Item = u64>) {
        let mut extra: Vec<u64> = others
            .into_iter()
            .filter(|id| !self.ids.contains(id))
            .collect();
        extra.sort_unstable();
        extra.dedup();
        self.ids.extend(extra);
    }

    /// The rank of index `id` (after every known index when it is not one).
    pub fn rank(&self, id: u64) -> usize {
        self.ids
            .iter()
            .position(|&i| i == id)
            .unwrap_or(self.ids.len())
    }

    /// The letter and colour of index `id`.
    pub fn key(&self, id: u64) -> (char, Rgb) {
        index_key(self.rank(id))
    }
}

/// The segments that are not indexes, in legend order: label, symbol and
/// colour, fixed so that every file shows them alike. Their symbols are
/// no letters and their colours none of the index colours.
pub const SEGMENTS: [(&str, char, Rgb); 8] = [
    ("change buffer", '@', Rgb(0x6b, 0x3e, 0x26)),
    ("transaction system", '*', Rgb(0x40, 0x00, 0x4b)),
    ("doublewrite buffer", '%', Rgb(0xb1, 0x59, 0x28)),
    ("dictionary header", '&', Rgb(0x01, 0x66, 0x5e)),
    ("rollback segment headers", '=', Rgb(0xc2, 0xa5, 0xcf)),
    ("rollback segment array", '+', Rgb(0x76, 0x2a, 0x83)),
    ("undo log segments", '~', Rgb(0x9e, 0x4f, 0xc9)),
    ("segment no header points at", '$', Rgb(0x8c, 0x6d, 0x31)),
];

/// The row of [`SEGMENTS`] of a segment that is no index's (an index's
/// segments and one no header points at are the last row).
pub fn segment_kind(owner: innodb_space::segment::SegmentOwner) -> usize {
    use innodb_space::segment::SegmentOwner;
    match owner {
        SegmentOwner::ChangeBuffer => 0,
        SegmentOwner::TransactionSystem => 1,
        SegmentOwner::Doublewrite => 2,
        SegmentOwner::DictionaryHeader => 3,
        SegmentOwner::RollbackSegment { .. } => 4,
        SegmentOwner::RollbackSegmentArray { .. } => 5,
        SegmentOwner::UndoLog { .. } => 6,
        SegmentOwner::IndexLeaf { .. }
        | SegmentOwner::IndexNonLeaf { .. }
        | SegmentOwner::Unknown => 7,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Squared distance of two colours.
    fn dist2(a: Rgb, b: Rgb) -> i32 {
        let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2);
        d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)
    }

    /// How far a colour is from grey: its largest channel less its smallest.
    fn chroma(c: Rgb) -> u8 {
        c.0.max(c.1).max(c.2) - c.0.min(c.1).min(c.2)
    }

    #[test]
    fn lsn_bands_stand_apart_from_free_and_never_written() {
        for (b, &c) in LSN_BANDS.iter().enumerate() {
            // No band is grey or pale: each is a strong colour, far from
            // the greys of free and never-written pages.
            assert!(chroma(c) >= 120, "band {b} {c:?} is greyish");
            for grey in [EMPTY, FREE, OTHER] {
                assert!(dist2(c, grey) >= 100 * 100, "band {b} {c:?} near {grey:?}");
            }
        }
        // Neighbouring bands differ, and the ends are the named colours.
        for w in LSN_BANDS.windows(2) {
            assert!(dist2(w[0], w[1]) >= 20 * 20, "{w:?}");
        }
        assert_eq!((OLDEST, NEWEST), (LSN_BANDS[0], LSN_BANDS[9]));
        assert!(dist2(EMPTY, FREE) >= 25 * 25);
    }

    #[test]
    fn index_keys_rank_known_indexes_first() {
        let mut k = IndexKeys::new([30, 10, 20, 10]);
        k.add_others([99, 5, 20]);
        assert_eq!(k.rank(10), 0);
        assert_eq!(k.rank(30), 2);
        assert_eq!(k.rank(5), 3);
        assert_eq!(k.rank(99), 4);
        assert_eq!(k.key(10), ('A', DISTINCT[0]));
        assert_eq!(k.key(99).0, 'E');
        assert_eq!(index_key(26).0, 'a');
    }
}
