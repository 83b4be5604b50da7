//! The fast skim: finds the top-level members and the entries of
//! `resources`, `functions` and `types` from the document's line layout,
//! without reading the bytes in between.
//!
//! Schemas are nearly always pretty-printed: one member per line, each
//! nesting level indented by the same number of spaces `u`. JSON strings
//! cannot hold a raw newline, so every line starts outside any string, and
//! a line that starts with exactly `u` spaces and a `"` is a top-level key
//! (`2u` spaces inside a section: an entry key). Those lines are found with
//! a SIMD substring search (`memchr::memmem`) for `"\n" + spaces + "\""`,
//! which runs at memory speed; nothing else is read at load.
//!
//! The layout is checked wherever the check is local: the document is
//! `{`, newline, members, newline, `}`; every key is a complete JSON string
//! followed by `:`; consecutive members are separated by exactly `,` and a
//! line break; a value that spans lines closes with `}`/`]` at the
//! indentation of its key; a section opens with `{` and a newline and
//! closes at its key's indentation; no key repeats. When any check fails
//! the caller falls back to the full serde skim ([`crate::skim`]). What
//! this cannot see (a value's inside) is validated when that value is
//! decoded: decoding requires the whole span to be exactly one JSON value.

use std::cmp::Ordering;
use std::ops::Range;

use memchr::memmem;

use crate::skim::{Document, Members};

/// The largest indentation unit recognised.
const MAX_INDENT: usize = 16;

/// Skims `src` by layout. `None` when the text does not have the expected
/// layout (the caller then uses the full skim).
pub(crate) fn document(src: &[u8]) -> Option<Document> {
    let bytes = src;
    let open = bytes.iter().position(|b| !is_ws(*b))?;
    let close = bytes.iter().rposition(|b| !is_ws(*b))?;
    if bytes.get(open) != Some(&b'{') || bytes.get(close) != Some(&b'}') || close <= open {
        return None;
    }
    // `{` ends its line; the closing `}` starts its line.
    let body_start = line_end(bytes, open + 1)?;
    if close == 0 || bytes.get(close - 1) != Some(&b'\n') {
        return None;
    }
    let indent = bytes
        .get(body_start + 1..)?
        .iter()
        .take_while(|b| **b == b' ')
        .count();
    if indent == 0 || indent > MAX_INDENT {
        return None;
    }
    let mut unique = Members::new();
    for (key, range) in members(src, body_start, close - 1, indent)? {
        if unique.insert(key, range).is_some() {
            // A repeated key: leave its subtleties to the full skim.
            return None;
        }
    }
    let members = unique;
    let mut doc = Document {
        indent,
        ..Document::default()
    };
    // Sections keep their value ranges in `members`; [`section`] splits
    // them on first use.
    doc.members = members;
    Some(doc)
}

/// The entries of a section whose value spans `range` (its key is
/// indented by `indent`), in document order. Keys may repeat: the caller
/// builds its map once and declines on a repeated key.
pub(crate) fn section(src: &[u8], range: Range<usize>, indent: usize) -> Option<Keyed> {
    let bytes = src;
    let value = bytes.get(range.clone())?;
    if value == b"null"
        || (value.first() == Some(&b'{')
            && value.last() == Some(&b'}')
            && value.get(1..value.len() - 1)?.iter().all(|b| is_ws(*b)))
    {
        return Some(Keyed::new());
    }
    if value.first() != Some(&b'{') || value.last() != Some(&b'}') {
        return None;
    }
    let body_start = line_end(bytes, range.start + 1)?;
    // The closing `}` was checked to start its line at `indent`.
    let body_end = range.end.checked_sub(indent + 2)?;
    members(src, body_start, body_end, indent * 2)
}

/// Keys and value ranges in document order.
pub(crate) type Keyed = Vec<(String, Range<usize>)>;

/// The value range of the entry `token` of a section whose value spans
/// `range` (its key indented by `indent`), found without splitting the
/// section: a binary search over byte offsets that reads only the key
/// lines it lands next to, for sections whose keys are sorted (Pulumi
/// writes every map with sorted keys). `None` when it cannot tell (the
/// caller then splits the section): the key is not where sorted keys would
/// put it, the next key is not above it (a repeated key: sorted, the
/// repeats are adjacent), or the layout around it is not what [`section`]
/// accepts. What it finds is always an entry with that key; in a section
/// that is not sorted and repeats a key far apart (which JSON discourages
/// and no Pulumi tool writes) it may be another repeat than the one the
/// full skim keeps, until the document is validated.
pub(crate) fn probe(
    src: &[u8],
    range: Range<usize>,
    indent: usize,
    token: &str,
) -> Option<Range<usize>> {
    let bytes = src;
    let value = bytes.get(range.clone())?;
    if value.first() != Some(&b'{') || value.last() != Some(&b'}') {
        return None;
    }
    let start = line_end(bytes, range.start + 1)?;
    let end = range.end.checked_sub(indent + 2)?;
    if bytes.get(start) != Some(&b'\n') || bytes.get(end) != Some(&b'\n') || end <= start {
        return None;
    }
    let entry = indent * 2;
    let mut needle = Vec::with_capacity(entry + 2);
    needle.push(b'\n');
    needle.resize(entry + 1, b' ');
    needle.push(b'"');
    let finder = memmem::Finder::new(&needle);
    // The first key line at or after `from` (and before `end`).
    let next_line = |from: usize| -> Option<usize> {
        let hay = bytes.get(from..end)?;
        finder.find(hay).map(|i| from + i)
    };
    let compare = |line: usize| key_cmp(src, line + entry + 1, token);
    // The first key line whose key is not below `token`: a binary search
    // over byte offsets while the window is large, then key line by key
    // line (each step of either reads up to the next key line).
    let (mut lo, mut hi) = (start, end);
    let mut best: Option<(usize, Ordering, usize)> = None;
    while hi - lo > LINEAR_WINDOW {
        let mid = lo + (hi - lo) / 2;
        match next_line(mid).filter(|l| *l < hi) {
            None => hi = mid,
            Some(line) => {
                let (order, after) = compare(line)?;
                if order == Ordering::Less {
                    lo = line + 1;
                } else {
                    best = Some((line, order, after));
                    hi = mid;
                }
            }
        }
    }
    while let Some(line) = next_line(lo).filter(|l| *l < hi) {
        let (order, after) = compare(line)?;
        if order != Ordering::Less {
            best = Some((line, order, after));
            break;
        }
        lo = line + 1;
    }
    let (line, order, after_key) = best?;
    if order != Ordering::Equal {
        return None;
    }
    let colon = skip_spaces(bytes, after_key);
    if bytes.get(colon) != Some(&b':') {
        return None;
    }
    let value_start = skip_spaces(bytes, colon + 1);
    let next = next_line(line + 1);
    let value_end = match next {
        Some(next_line) => {
            // The next key must be above it (a repeated key is adjacent
            // in a sorted section; the split leaves it to the full skim).
            if compare(next_line)?.0 != Ordering::Greater {
                return None;
            }
            let comma = trim_end(bytes, value_start, next_line)?;
            if bytes.get(comma - 1) != Some(&b',') {
                return None;
            }
            trim_end(bytes, value_start, comma - 1)?
        }
        None => trim_end(bytes, value_start, end)?,
    };
    check_value_end(bytes, value_start, value_end, entry)?;
    Some(value_start..value_end)
}

/// The members of an object whose body runs from the newline at `start`
/// to the newline at `end`, keys indented by `indent` spaces (repeated
/// keys are kept).
fn members(src: &[u8], start: usize, end: usize, indent: usize) -> Option<Keyed> {
    let bytes = src;
    if bytes.get(start) != Some(&b'\n') || bytes.get(end) != Some(&b'\n') || end < start {
        return None;
    }
    let mut needle = Vec::with_capacity(indent + 2);
    needle.push(b'\n');
    needle.resize(indent + 1, b' ');
    needle.push(b'"');
    let body = bytes.get(start..end)?;
    let mut lines = memmem::find_iter(body, &needle).map(|i| start + i);
    // The first key line must be the body's first line.
    let mut line = lines.next()?;
    if line != start {
        return None;
    }
    let mut out = Keyed::new();
    loop {
        let key_start = line + indent + 1;
        let (key, after_key) = key_at(src, key_start)?;
        let colon = skip_spaces(bytes, after_key);
        if bytes.get(colon) != Some(&b':') {
            return None;
        }
        let value_start = skip_spaces(bytes, colon + 1);
        let next = lines.next();
        let value_end = match next {
            Some(next_line) => {
                // `value` `,` (spaces) newline.
                let comma = trim_end(bytes, value_start, next_line)?;
                if bytes.get(comma - 1) != Some(&b',') {
                    return None;
                }
                trim_end(bytes, value_start, comma - 1)?
            }
            None => trim_end(bytes, value_start, end)?,
        };
        check_value_end(bytes, value_start, value_end, indent)?;
        out.push((key, value_start..value_end));
        match next {
            Some(next_line) => line = next_line,
            None => return Some(out),
        }
    }
}

/// Below this many bytes, [`probe`] reads key lines in order.
const LINEAR_WINDOW: usize = 4096;

/// How the JSON string key starting at `at` compares with `token`, and the
/// offset after its closing quote (`None` unless it is a valid key, as for
/// [`key_at`]). Keys without escapes are compared in place.
fn key_cmp(src: &[u8], at: usize, token: &str) -> Option<(Ordering, usize)> {
    let inner = src.get(at + 1..)?;
    let close = memchr::memchr3(b'"', b'\\', b'\n', inner)?;
    if src.get(at) == Some(&b'"') && inner.get(close) == Some(&b'"') {
        let raw = inner.get(..close)?;
        if raw.iter().all(|b| *b >= 0x20) && std::str::from_utf8(raw).is_ok() {
            return Some((raw.cmp(token.as_bytes()), at + 1 + close + 1));
        }
        return None;
    }
    let (key, after) = key_at(src, at)?;
    Some((key.as_str().cmp(token), after))
}

/// A value that spans lines must close with `}`/`]` at the start of its
/// last line, indented like its key.
fn check_value_end(bytes: &[u8], start: usize, end: usize, indent: usize) -> Option<()> {
    let value = bytes.get(start..end)?;
    if memchr::memchr(b'\n', value).is_none() {
        return Some(());
    }
    let last = *value.last()?;
    if last != b'}' && last != b']' {
        return None;
    }
    let line_start = end.checked_sub(indent + 2)?;
    if bytes.get(line_start) != Some(&b'\n') {
        return None;
    }
    bytes
        .get(line_start + 1..end - 1)?
        .iter()
        .all(|b| *b == b' ')
        .then_some(())
}

/// The JSON string starting at `at` (which must be `"`): its decoded text
/// and the offset after its closing quote (`None` unless it is valid UTF-8).
fn key_at(src: &[u8], at: usize) -> Option<(String, usize)> {
    let bytes = src;
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut pos = at + 1;
    let mut escaped = false;
    loop {
        let i = pos + memchr::memchr3(b'"', b'\\', b'\n', bytes.get(pos..)?)?;
        match bytes.get(i)? {
            b'"' => {
                let raw = src.get(at..=i)?;
                let key = if escaped {
                    serde_json::from_slice::<String>(raw).ok()?
                } else {
                    let inner = src.get(at + 1..i)?;
                    if inner.iter().any(|b| *b < 0x20) {
                        return None;
                    }
                    std::str::from_utf8(inner).ok()?.to_owned()
                };
                return Some((key, i + 1));
            }
            b'\\' => {
                escaped = true;
                pos = i + 2;
            }
            _ => return None,
        }
    }
}

/// The offset after `\n` that ends the line containing `from`, provided
/// only spaces (or `\r`) stand between `from` and it. Returns the offset of
/// the newline itself.
fn line_end(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let i = rest.iter().position(|b| *b != b' ' && *b != b'\r')?;
    (rest.get(i) == Some(&b'\n')).then_some(from + i)
}

fn skip_spaces(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    at
}

/// The end of `start..end` with trailing whitespace removed; `None` when
/// nothing remains.
fn trim_end(bytes: &[u8], start: usize, mut end: usize) -> Option<usize> {
    while end > start && bytes.get(end - 1).is_some_and(|b| is_ws(*b)) {
        end -= 1;
    }
    (end > start).then_some(end)
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_members_by_layout() {
        let src = "{\n  \"name\": \"x\",\n  \"resources\": {\n    \"x:index:A\": {\n      \"description\": \"see \\\"x:index:B\\\": {\",\n      \"$ref\": \"x:index:B\"\n    },\n    \"x:index:B\": {}\n  },\n  \"types\": null\n}\n";
        let doc = document(src.as_bytes()).unwrap();
        assert_eq!(
            doc.members.keys().collect::<Vec<_>>(),
            ["name", "resources", "types"]
        );
        let resources: Members =
            section(src.as_bytes(), doc.members["resources"].clone(), doc.indent)
                .unwrap()
                .into_iter()
                .collect();
        assert!(
            section(src.as_bytes(), doc.members["types"].clone(), doc.indent)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            resources.keys().collect::<Vec<_>>(),
            ["x:index:A", "x:index:B"]
        );
        assert_eq!(&src[resources["x:index:B"].clone()], "{}");
        assert!(src[resources["x:index:A"].clone()].ends_with("    }"));
    }

    /// Member text by token, via the layout skim (`None` if it declines).
    fn fast(src: &str) -> Option<Vec<(String, String)>> {
        let doc = document(src.as_bytes())?;
        let range = doc.members.get("resources")?.clone();
        let members = section(src.as_bytes(), range, doc.indent)?;
        Some(
            members
                .into_iter()
                .map(|(k, r)| (k, src[r].to_owned()))
                .collect(),
        )
    }

    /// The same through the full serde skim.
    fn full(src: &str) -> Option<Vec<(String, String)>> {
        let doc = crate::skim::document(src).ok()?;
        Some(
            doc.resources
                .into_iter()
                .map(|(k, r)| (k, src[r].to_owned()))
                .collect(),
        )
    }

    const TRICKY: &str = "{\n  \"name\": \"p\",\n  \"description\": \"}\\n  \\\"resources\\\": {\",\n  \"resources\": {\n    \"p:index:A\": {\n      \"description\": \"has } and ] and { [ and \\\"p:index:B\\\": {} and \\u0022\",\n      \"properties\": {\n        \"p:index:B\": {\n          \"$ref\": \"#/resources/p:index:B\"\n        }\n      }\n    },\n    \"p:index:\\u0042\": {\n      \"x\": [\n        \"    \\\"p:index:C\\\": {\"\n      ]\n    },\n    \"p:index:C\": {}\n  }\n}\n";

    #[test]
    fn tricky_strings_escapes_and_depth() {
        let fast = fast(TRICKY).unwrap();
        assert_eq!(fast, full(TRICKY).unwrap());
        let keys: Vec<&str> = fast.iter().map(|(k, _)| k.as_str()).collect();
        // `p:index:B` as a nested key, a `$ref` and inside descriptions is
        // not the member; the escaped member key is decoded.
        assert_eq!(keys, ["p:index:A", "p:index:B", "p:index:C"]);
        assert!(fast[1].1.contains("\"x\""));
    }

    #[test]
    fn irregular_layouts_are_declined() {
        for src in [
            "{\"name\": \"p\"}",
            "{\n\"name\": \"p\"\n}",
            "{\n  \"name\": \"p\"\n  }",
            "{\n  \"name\": \"p\",\n  \"x\": {\n    \"a\": 1\n    }\n}",
            "{\n  \"name\": \"p\"\n  \"x\": 1\n}",
            "{\n  \"name\": \"p\",\n  \"name\": \"q\"\n}",
            "{\n\t\"name\": \"p\"\n}",
            "[\n  1\n]",
            "",
        ] {
            assert!(document(src.as_bytes()).is_none(), "{src:?}");
        }
        // A section that is not laid out like one is declined on its own.
        let src = "{\n  \"resources\": {\"a\": {}}\n}";
        let doc = document(src.as_bytes()).unwrap();
        assert!(section(src.as_bytes(), doc.members["resources"].clone(), doc.indent).is_none());
    }

    /// Every key of a sorted section is found by a probe at the range the
    /// split gives it; a key that is absent, out of order or repeated is
    /// not (the caller then splits the section).
    #[test]
    fn probe_agrees_with_the_split() {
        let entries = |keys: &[&str]| -> String {
            let body: Vec<String> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    if i % 2 == 0 {
                        format!("    \"{k}\": {{\n      \"n\": {i}\n    }}")
                    } else {
                        format!("    \"{k}\": {{\"n\": {i}}}")
                    }
                })
                .collect();
            format!(
                "{{\n  \"name\": \"p\",\n  \"resources\": {{\n{}\n  }}\n}}\n",
                body.join(",\n")
            )
        };
        let sorted: Vec<String> = (0..40).map(|i| format!("p:index:R{i:02}")).collect();
        let keys: Vec<&str> = sorted.iter().map(String::as_str).collect();
        let src = entries(&keys);
        let doc = document(src.as_bytes()).unwrap();
        let range = doc.members["resources"].clone();
        let split = section(src.as_bytes(), range.clone(), doc.indent).unwrap();
        assert_eq!(split.len(), 40);
        for (key, value) in &split {
            assert_eq!(
                probe(src.as_bytes(), range.clone(), doc.indent, key),
                Some(value.clone()),
                "{key}"
            );
        }
        for absent in ["p:index:R", "p:index:R40", "a", "z", "p:index:R05x"] {
            assert_eq!(
                probe(src.as_bytes(), range.clone(), doc.indent, absent),
                None
            );
        }
        // Out of order: a probe may miss a key, but what it finds is the
        // key's entry.
        let mut shuffled = keys.clone();
        shuffled.swap(10, 30);
        shuffled.swap(3, 4);
        let src = entries(&shuffled);
        let doc = document(src.as_bytes()).unwrap();
        let range = doc.members["resources"].clone();
        let split = section(src.as_bytes(), range.clone(), doc.indent).unwrap();
        let mut missed = 0;
        for (key, value) in &split {
            match probe(src.as_bytes(), range.clone(), doc.indent, key) {
                Some(found) => assert_eq!(&found, value, "{key}"),
                None => missed += 1,
            }
        }
        assert!(missed > 0);
        // Repeated (adjacent, as sorting puts them): declined.
        let mut repeated = keys.clone();
        repeated.insert(20, keys[20]);
        let src = entries(&repeated);
        let doc = document(src.as_bytes()).unwrap();
        let range = doc.members["resources"].clone();
        assert_eq!(
            probe(src.as_bytes(), range.clone(), doc.indent, keys[20]),
            None
        );
        assert!(probe(src.as_bytes(), range, doc.indent, keys[21]).is_some());
    }

    #[test]
    fn truncation_at_every_position_never_panics_or_lies() {
        for end in 0..TRICKY.len() {
            let Some(src) = TRICKY.get(..end) else {
                continue;
            };
            // The fast path either declines, or agrees with serde where
            // serde succeeds; it never panics.
            if let (Some(f), Some(g)) = (fast(src), full(src)) {
                assert_eq!(f, g, "{end}");
            }
            // A whole package never panics and never loads a prefix.
            let loaded = crate::Package::parse(src, "p", None);
            if end + 1 < TRICKY.len() {
                assert!(loaded.is_err(), "{end}: {src:?}");
            }
        }
    }
}
