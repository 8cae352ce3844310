//! Collation ids as the servers number them (`SHOW COLLATION`), with their
//! names, character sets and bytes per character, for writing a column's
//! `CHARACTER SET … COLLATE …` back. Ids below 256 are the same in MariaDB
//! and MySQL for the collations listed here (MySQL's 255+ `utf8mb4_0900_*`
//! are MySQL's own).

/// A collation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Collation {
    /// Collation name (`latin1_swedish_ci`).
    pub name: &'static str,
    /// Its character set (`latin1`).
    pub charset: &'static str,
    /// Bytes per character at most.
    pub mbmaxlen: u32,
}

/// (id, name, character set, bytes per character at most).
const COLLATIONS: &[(u32, &str, &str, u32)] = &[
    (1, "big5_chinese_ci", "big5", 2),
    (2, "latin2_czech_cs", "latin2", 1),
    (3, "dec8_swedish_ci", "dec8", 1),
    (4, "cp850_general_ci", "cp850", 1),
    (5, "latin1_german1_ci", "latin1", 1),
    (6, "hp8_english_ci", "hp8", 1),
    (7, "koi8r_general_ci", "koi8r", 1),
    (8, "latin1_swedish_ci", "latin1", 1),
    (9, "latin2_general_ci", "latin2", 1),
    (10, "swe7_swedish_ci", "swe7", 1),
    (11, "ascii_general_ci", "ascii", 1),
    (12, "ujis_japanese_ci", "ujis", 3),
    (13, "sjis_japanese_ci", "sjis", 2),
    (14, "cp1251_bulgarian_ci", "cp1251", 1),
    (15, "latin1_danish_ci", "latin1", 1),
    (16, "hebrew_general_ci", "hebrew", 1),
    (18, "tis620_thai_ci", "tis620", 1),
    (19, "euckr_korean_ci", "euckr", 2),
    (20, "latin7_estonian_cs", "latin7", 1),
    (21, "latin2_hungarian_ci", "latin2", 1),
    (22, "koi8u_general_ci", "koi8u", 1),
    (23, "cp1251_ukrainian_ci", "cp1251", 1),
    (24, "gb2312_chinese_ci", "gb2312", 2),
    (25, "greek_general_ci", "greek", 1),
    (26, "cp1250_general_ci", "cp1250", 1),
    (27, "latin2_croatian_ci", "latin2", 1),
    (28, "gbk_chinese_ci", "gbk", 2),
    (29, "cp1257_lithuanian_ci", "cp1257", 1),
    (30, "latin5_turkish_ci", "latin5", 1),
    (31, "latin1_german2_ci", "latin1", 1),
    (32, "armscii8_general_ci", "armscii8", 1),
    (33, "utf8mb3_general_ci", "utf8mb3", 3),
    (34, "cp1250_czech_cs", "cp1250", 1),
    (35, "ucs2_general_ci", "ucs2", 2),
    (36, "cp866_general_ci", "cp866", 1),
    (37, "keybcs2_general_ci", "keybcs2", 1),
    (38, "macce_general_ci", "macce", 1),
    (39, "macroman_general_ci", "macroman", 1),
    (40, "cp852_general_ci", "cp852", 1),
    (41, "latin7_general_ci", "latin7", 1),
    (42, "latin7_general_cs", "latin7", 1),
    (43, "macce_bin", "macce", 1),
    (44, "cp1250_croatian_ci", "cp1250", 1),
    (45, "utf8mb4_general_ci", "utf8mb4", 4),
    (46, "utf8mb4_bin", "utf8mb4", 4),
    (47, "latin1_bin", "latin1", 1),
    (48, "latin1_general_ci", "latin1", 1),
    (49, "latin1_general_cs", "latin1", 1),
    (50, "cp1251_bin", "cp1251", 1),
    (51, "cp1251_general_ci", "cp1251", 1),
    (52, "cp1251_general_cs", "cp1251", 1),
    (53, "macroman_bin", "macroman", 1),
    (54, "utf16_general_ci", "utf16", 4),
    (55, "utf16_bin", "utf16", 4),
    (56, "utf16le_general_ci", "utf16le", 4),
    (57, "cp1256_general_ci", "cp1256", 1),
    (58, "cp1257_bin", "cp1257", 1),
    (59, "cp1257_general_ci", "cp1257", 1),
    (60, "utf32_general_ci", "utf32", 4),
    (61, "utf32_bin", "utf32", 4),
    (62, "utf16le_bin", "utf16le", 4),
    (63, "binary", "binary", 1),
    (64, "armscii8_bin", "armscii8", 1),
    (65, "ascii_bin", "ascii", 1),
    (66, "cp1250_bin", "cp1250", 1),
    (67, "cp1256_bin", "cp1256", 1),
    (68, "cp866_bin", "cp866", 1),
    (69, "dec8_bin", "dec8", 1),
    (70, "greek_bin", "greek", 1),
    (71, "hebrew_bin", "hebrew", 1),
    (72, "hp8_bin", "hp8", 1),
    (73, "keybcs2_bin", "keybcs2", 1),
    (74, "koi8r_bin", "koi8r", 1),
    (75, "koi8u_bin", "koi8u", 1),
    (77, "latin2_bin", "latin2", 1),
    (78, "latin5_bin", "latin5", 1),
    (79, "latin7_bin", "latin7", 1),
    (80, "cp850_bin", "cp850", 1),
    (81, "cp852_bin", "cp852", 1),
    (82, "swe7_bin", "swe7", 1),
    (83, "utf8mb3_bin", "utf8mb3", 3),
    (84, "big5_bin", "big5", 2),
    (85, "euckr_bin", "euckr", 2),
    (86, "gb2312_bin", "gb2312", 2),
    (87, "gbk_bin", "gbk", 2),
    (88, "sjis_bin", "sjis", 2),
    (89, "tis620_bin", "tis620", 1),
    (90, "ucs2_bin", "ucs2", 2),
    (91, "ujis_bin", "ujis", 3),
    (92, "geostd8_general_ci", "geostd8", 1),
    (93, "geostd8_bin", "geostd8", 1),
    (94, "latin1_spanish_ci", "latin1", 1),
    (95, "cp932_japanese_ci", "cp932", 2),
    (96, "cp932_bin", "cp932", 2),
    (97, "eucjpms_japanese_ci", "eucjpms", 3),
    (98, "eucjpms_bin", "eucjpms", 3),
    (99, "cp1250_polish_ci", "cp1250", 1),
    (128, "ucs2_unicode_ci", "ucs2", 2),
    (192, "utf8mb3_unicode_ci", "utf8mb3", 3),
    (224, "utf8mb4_unicode_ci", "utf8mb4", 4),
    (246, "utf8mb4_unicode_520_ci", "utf8mb4", 4),
    (248, "gb18030_chinese_ci", "gb18030", 4),
    (249, "gb18030_bin", "gb18030", 4),
    (255, "utf8mb4_0900_ai_ci", "utf8mb4", 4),
    (277, "utf8mb4_0900_as_ci", "utf8mb4", 4),
    (278, "utf8mb4_0900_as_cs", "utf8mb4", 4),
    (305, "utf8mb4_0900_bin", "utf8mb4", 4),
];

/// The collation with id `id`, when it is one of those listed.
pub fn collation(id: u32) -> Option<Collation> {
    COLLATIONS
        .iter()
        .find(|c| c.0 == id)
        .map(|&(_, name, charset, mbmaxlen)| Collation {
            name,
            charset,
            mbmaxlen,
        })
}

/// The collation named `name` (any case).
pub fn by_name(name: &str) -> Option<Collation> {
    COLLATIONS
        .iter()
        .find(|c| c.1.eq_ignore_ascii_case(name))
        .map(|&(_, name, charset, mbmaxlen)| Collation {
            name,
            charset,
            mbmaxlen,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_ids_have_their_names() {
        assert_eq!(collation(8).map(|c| c.name), Some("latin1_swedish_ci"));
        assert_eq!(collation(45).map(|c| c.charset), Some("utf8mb4"));
        assert_eq!(collation(33).map(|c| c.mbmaxlen), Some(3));
        assert_eq!(by_name("GBK_CHINESE_CI").map(|c| c.charset), Some("gbk"));
        assert_eq!(collation(17), None);
    }
}
