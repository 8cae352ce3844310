//! Text made safe for a terminal: control characters from data (a row
//! value, a column or index name, a file name) are shown escaped, never
//! sent raw. A raw `ESC ]0;…BEL` sets the window title, `ESC ]52;…` writes
//! the clipboard, `\r` overprints a line: anyone who can write a row could
//! forge what the report shows.

use std::borrow::Cow;

/// True for a character escaped in text: C0 controls, DEL and C1 controls.
fn is_control(c: char) -> bool {
    let n = u32::from(c);
    n < 0x20 || n == 0x7f || (0x80..=0x9f).contains(&n)
}

/// True when some byte of `bytes` may begin a control character that
/// [`escape_controls`] escapes: C0 but newline and tab, DEL, and 0xC2, the
/// first byte of every C1 character in UTF-8.
fn may_hold_control(bytes: &[u8]) -> bool {
    any_byte(bytes, |b| {
        ((b < 0x20) & (b != b'\n') & (b != b'\t')) | (b == 0x7f) | (b == 0xc2)
    })
}

/// True when `hit` holds for some byte of `bytes`: a branch-free test of
/// each 32-byte block, which the compiler turns into vector instructions
/// (the text values of `records` pass here). The bytes after the last
/// whole block are tested as a block too: the last 32 bytes, or, in a
/// shorter slice, its bytes padded with its first (which changes nothing).
pub(crate) fn any_byte(bytes: &[u8], hit: impl Fn(u8) -> bool) -> bool {
    let block_hits =
        |block: &[u8; 32]| block.iter().fold(0u8, |acc, &b| acc | u8::from(hit(b))) != 0;
    let (blocks, rest) = bytes.as_chunks::<32>();
    if blocks.iter().any(block_hits) {
        return true;
    }
    if rest.is_empty() {
        return false;
    }
    let tail = match bytes.last_chunk::<32>() {
        Some(last) => *last,
        None => {
            let mut padded = [rest.first().copied().unwrap_or_default(); 32];
            if let Some(head) = padded.get_mut(..rest.len()) {
                head.copy_from_slice(rest);
            }
            padded
        }
    };
    block_hits(&tail)
}

/// `s` with every control character escaped visibly — `\e` (ESC), `\r`,
/// `\0`, `\x07` (other C0 and DEL), `\u{9b}` (C1) — but newlines and tabs,
/// which text output uses as its structure.
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    // A byte scan first (the streamed `records` output passes here in
    // 64 KiB pieces).
    if !may_hold_control(s.as_bytes()) {
        return Cow::Borrowed(s);
    }
    if !s.chars().any(|c| is_control(c) && c != '\n' && c != '\t') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\x1b' => out.push_str("\\e"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if u32::from(c) < 0x20 || c == '\x7f' => {
                out.push_str(&format!("\\x{:02x}", u32::from(c)));
            }
            c if is_control(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `s` with every control character escaped, newlines and tabs included
/// (`\n`, `\t`): for a value or name inside one line or one cell.
pub fn escape_all_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push_str(&escape_controls(c.encode_utf8(&mut [0; 4]))),
        }
    }
    Cow::Owned(out)
}

/// Text that carries the program's own colour (SGR sequences `ESC [ … m`
/// of digits and `;`): every control character escaped as
/// [`escape_controls`] does, but the ESC that opens such a sequence.
pub fn escape_controls_keep_sgr(s: &str) -> Cow<'_, str> {
    if !s.contains(|c: char| is_control(c) && c != '\n' && c != '\t' && c != '\x1b') {
        let all_sgr = s.match_indices('\x1b').all(|(i, _)| sgr_at(s, i));
        if all_sgr {
            return Cow::Borrowed(s);
        }
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    while let Some(i) = rest.find('\x1b') {
        let (before, from) = rest.split_at(i);
        out.push_str(&escape_controls(before));
        if sgr_at(from, 0) {
            out.push('\x1b');
        } else {
            out.push_str("\\e");
        }
        rest = from.get(1..).unwrap_or("");
    }
    out.push_str(&escape_controls(rest));
    Cow::Owned(out)
}

/// True when an SGR sequence (`ESC [`, digits and `;`, `m`) starts at byte `i` of `s`.
fn sgr_at(s: &str, i: usize) -> bool {
    let Some(tail) = s.get(i..).and_then(|t| t.strip_prefix("\x1b[")) else {
        return false;
    };
    let params = tail
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b';')
        .count();
    tail.as_bytes().get(params) == Some(&b'm')
}

/// JSON text (as serde_json writes it, which escapes C0 but not DEL and
/// C1) with DEL and C1 characters escaped as `\u007f` … `\u009f`: still
/// the same JSON, now safe on a terminal. They can only stand inside
/// strings, where `\u` escapes mean the same characters.
pub fn escape_json_controls(s: &str) -> Cow<'_, str> {
    // DEL, and 0xC2: the first byte of every C1 character in UTF-8.
    if !s.as_bytes().iter().any(|&b| b == 0x7f || b == 0xc2) {
        return Cow::Borrowed(s);
    }
    if !s
        .chars()
        .any(|c| c == '\x7f' || (0x80..=0x9f).contains(&u32::from(c)))
    {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        let n = u32::from(c);
        if n == 0x7f || (0x80..=0x9f).contains(&n) {
            out.push_str(&format!("\\u{n:04x}"));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value, at the start, inside and at the end of a 64-byte
    /// block and past it: flagged exactly when it may begin an escaped
    /// control character.
    #[test]
    fn the_byte_scan_flags_exactly_the_control_lead_bytes() {
        for b in 0..=255u8 {
            let expected = (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f || b == 0xc2;
            for at in [0usize, 31, 63, 64, 100, 129] {
                let mut bytes = vec![b'a'; 130];
                bytes[at] = b;
                assert_eq!(may_hold_control(&bytes), expected, "byte {b:#x} at {at}");
            }
        }
        assert!(!may_hold_control(b""));
    }

    /// One flagged byte at every place of slices of every length up to
    /// three blocks (short ones padded, the tail after whole blocks read
    /// as the last 32 bytes): found exactly where it is, nothing in clean
    /// bytes, and a flagged first byte of a short slice found once padded.
    #[test]
    fn any_byte_finds_a_byte_at_every_place_of_every_length() {
        let hit = |b: u8| b == b'!';
        for len in 0..=97usize {
            let clean = vec![b'a'; len];
            assert!(!any_byte(&clean, hit), "clean, {len} bytes");
            for at in 0..len {
                let mut bytes = clean.clone();
                bytes[at] = b'!';
                assert!(any_byte(&bytes, hit), "at {at} of {len}");
            }
        }
    }

    #[test]
    fn controls_are_shown_not_sent() {
        assert_eq!(escape_controls("plain\ttext\n"), "plain\ttext\n");
        assert!(matches!(escape_controls("plain"), Cow::Borrowed(_)));
        assert_eq!(
            escape_controls("\x1b]0;owned\x07 legit\rFORGED\x08\0\x7f\u{9b}2J"),
            "\\e]0;owned\\x07 legit\\rFORGED\\x08\\0\\x7f\\u{9b}2J"
        );
        assert_eq!(escape_all_controls("a\tb\nc\x1b"), "a\\tb\\nc\\e");
        assert_eq!(escape_controls("grüße ✓"), "grüße ✓");
    }

    #[test]
    fn colour_stays_and_other_escapes_do_not() {
        let ours = "\x1b[38;5;33m██\x1b[0m name";
        assert!(matches!(escape_controls_keep_sgr(ours), Cow::Borrowed(_)));
        assert_eq!(
            escape_controls_keep_sgr("\x1b[1mA\x1b[0m \x1b]0;title\x07 x\rY \x1b[2J"),
            "\x1b[1mA\x1b[0m \\e]0;title\\x07 x\\rY \\e[2J"
        );
    }

    #[test]
    fn json_keeps_its_meaning() {
        let v = serde_json::json!({"name": "a\u{9b}b\x7f\x1b"});
        let text = serde_json::to_string(&v).unwrap();
        let safe = escape_json_controls(&text);
        assert!(!safe.contains('\u{9b}') && !safe.contains('\x7f') && !safe.contains('\x1b'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, v);
    }
}
