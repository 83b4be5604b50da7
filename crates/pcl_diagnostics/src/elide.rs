//! Cutting long user-derived text for messages.
//!
//! A message quotes names, literals and types taken from the input; a
//! 100,000-digit literal or a 283 KB type must not be echoed whole. Every
//! phase cuts such text with [`elide`], so the limits and the marker are the
//! same everywhere.

use std::borrow::Cow;

/// The longest quoted text a message shows, in characters.
pub const MAX_QUOTED_CHARS: usize = 120;

/// The marker that stands for the characters left out.
pub const ELLIPSIS: char = '…';

/// `text` when it has at most `max_chars` characters; otherwise its first
/// `max_chars - 1` characters followed by `…`. Linear in the characters kept,
/// not in the length of `text`.
pub fn elide(text: &str, max_chars: usize) -> Cow<'_, str> {
    let keep = max_chars.saturating_sub(1);
    let mut chars = text.char_indices();
    let cut = match chars.nth(keep) {
        None => return Cow::Borrowed(text),
        Some((at, _)) => at,
    };
    if chars.next().is_none() {
        // Exactly `max_chars` characters: nothing to cut.
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(cut + ELLIPSIS.len_utf8());
    out.push_str(text.get(..cut).unwrap_or_default());
    out.push(ELLIPSIS);
    Cow::Owned(out)
}

/// [`elide`] with [`MAX_QUOTED_CHARS`].
pub fn elide_quoted(text: &str) -> Cow<'_, str> {
    elide(text, MAX_QUOTED_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept() {
        assert_eq!(elide("abc", 3), "abc");
        assert_eq!(elide("", 0), "");
        assert!(matches!(elide("abc", 3), Cow::Borrowed(_)));
    }

    #[test]
    fn long_text_is_cut_with_a_marker() {
        assert_eq!(elide("abcd", 3), "ab…");
        assert_eq!(elide("ééééé", 4), "ééé…");
        let digits = "1".repeat(100_000);
        let cut = elide_quoted(&digits);
        assert_eq!(cut.chars().count(), MAX_QUOTED_CHARS);
        assert!(cut.ends_with(ELLIPSIS));
    }
}
