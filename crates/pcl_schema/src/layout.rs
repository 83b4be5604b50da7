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

/// The probes of one section (see [`Prober::probe`]): the section's frame,
/// the key-line search pattern, and every key line a probe has read.
#[derive(Debug)]
pub(crate) struct Prober {
    /// The newline that starts the section's first line.
    start: usize,
    /// The newline that ends its last entry.
    end: usize,
    /// The indentation of the section's keys.
    entry: usize,
    /// Finds `"\n" + entry spaces + "\""`: the start of a key line.
    finder: memmem::Finder<'static>,
    /// Key lines read so far whose keys are plain (no escapes, valid):
    /// `(line, end)`, the key's text being `src[line + entry + 2..end]`,
    /// in document order.
    known: Vec<(usize, usize)>,
}

impl Prober {
    /// The prober of a section whose value spans `range` (its key indented
    /// by `indent`); `None` when the section is not framed like one that
    /// [`section`] accepts (probes then decline).
    pub(crate) fn new(src: &[u8], range: Range<usize>, indent: usize) -> Option<Prober> {
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
        Some(Prober {
            start,
            end,
            entry,
            finder: memmem::Finder::new(&needle).into_owned(),
            known: Vec::new(),
        })
    }

    /// The value range of the entry `token`, found without splitting the
    /// section: a binary search over byte offsets that reads only the key
    /// lines it lands next to, for sections whose keys are sorted (Pulumi
    /// writes every map with sorted keys). Key lines earlier probes read
    /// narrow the search first. `None` when it cannot tell (the caller then
    /// splits the section): the key is not where sorted keys would put it,
    /// the next key is not above it (a repeated key: sorted, the repeats
    /// are adjacent), or the layout around it is not what [`section`]
    /// accepts. What it finds is always an entry with that key; in a
    /// section that is not sorted and repeats a key far apart (which JSON
    /// discourages and no Pulumi tool writes) it may be another repeat than
    /// the one the full skim keeps, until the document is validated.
    pub(crate) fn probe(&mut self, src: &[u8], token: &str) -> Option<Range<usize>> {
        let bytes = src;
        let (entry, end) = (self.entry, self.end);
        let wanted = token.as_bytes();
        // The known key lines bracket the token: the last one below it and
        // the first one not below it (in a sorted section).
        let known_key = |(line, key_end): (usize, usize)| bytes.get(line + entry + 2..key_end);
        let split = self
            .known
            .partition_point(|k| known_key(*k).is_some_and(|key| key < wanted));
        let mut lo = match split.checked_sub(1).and_then(|i| self.known.get(i)) {
            Some((line, _)) => line + 1,
            None => self.start,
        };
        let mut best: Option<(usize, Ordering, usize)> = None;
        let mut hi = end;
        if let Some(&(line, key_end)) = self.known.get(split) {
            let key = known_key((line, key_end))?;
            best = Some((line, key.cmp(wanted), key_end + 1));
            hi = line;
        }
        // The first key line whose key is not below `token`: a binary
        // search over byte offsets while the window is large, then key
        // line by key line (each step of either reads up to the next key
        // line).
        // (A known key line equal to the token is not enough: a repeat of
        // it may come first.)
        while hi > lo {
            let linear = hi - lo <= LINEAR_WINDOW;
            let from = if linear { lo } else { lo + (hi - lo) / 2 };
            match self.next_line(bytes, from, hi) {
                None if linear => break,
                None => hi = from,
                Some(line) => {
                    let (order, after) = self.compare(bytes, line, token)?;
                    if order == Ordering::Less {
                        lo = line + 1;
                    } else {
                        best = Some((line, order, after));
                        hi = line;
                        if linear {
                            break;
                        }
                    }
                }
            }
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
        let next = self.next_line(bytes, line + 1, end);
        let value_end = match next {
            Some(next_line) => {
                // The next key must be above it (a repeated key is adjacent
                // in a sorted section; the split leaves it to the full skim).
                if self.compare(bytes, next_line, token)?.0 != Ordering::Greater {
                    return None;
                }
                value_before_comma(bytes, value_start, next_line)?
            }
            None => trim_end(bytes, value_start, end)?,
        };
        check_value_end(bytes, value_start, value_end, entry)?;
        Some(value_start..value_end)
    }

    /// The first key line that starts at or after `from` and before `to`
    /// (and ends before the section's end).
    fn next_line(&self, bytes: &[u8], from: usize, to: usize) -> Option<usize> {
        let hay = bytes.get(from..(to + self.entry + 1).min(self.end))?;
        let line = from + self.finder.find(hay)?;
        (line < to).then_some(line)
    }

    /// How the key of the key line `line` compares with `token`, and the
    /// offset after it (see [`key_cmp`]); a plain key is remembered.
    fn compare(&mut self, bytes: &[u8], line: usize, token: &str) -> Option<(Ordering, usize)> {
        let (order, after, plain) = key_cmp(bytes, line + self.entry + 1, token)?;
        if plain {
            if let Err(at) = self.known.binary_search_by_key(&line, |(l, _)| *l) {
                self.known.insert(at, (line, after - 1));
            }
        }
        Some((order, after))
    }
}

/// The value range of the entry `token` of a section whose value spans
/// `range` (its key indented by `indent`), found by a fresh [`Prober`].
#[cfg(test)]
pub(crate) fn probe(
    src: &[u8],
    range: Range<usize>,
    indent: usize,
    token: &str,
) -> Option<Range<usize>> {
    Prober::new(src, range, indent)?.probe(src, token)
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
            Some(next_line) => value_before_comma(bytes, value_start, next_line)?,
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

/// How the JSON string key starting at `at` compares with `token`, the
/// offset after its closing quote, and whether it is plain (no escapes:
/// its text is the bytes between the quotes). `None` unless it is a valid
/// key, as for [`key_at`]. Plain keys are compared in place.
fn key_cmp(src: &[u8], at: usize, token: &str) -> Option<(Ordering, usize, bool)> {
    let inner = src.get(at + 1..)?;
    let close = memchr::memchr3(b'"', b'\\', b'\n', inner)?;
    if src.get(at) == Some(&b'"') && inner.get(close) == Some(&b'"') {
        let raw = inner.get(..close)?;
        // Branch-free folds (they vectorise): no control character, and
        // ASCII or else valid UTF-8.
        let control = raw.iter().fold(false, |any, b| any | (*b < 0x20));
        let ascii = raw.iter().fold(true, |all, b| all & (*b < 0x80));
        let valid = !control && (ascii || std::str::from_utf8(raw).is_ok());
        if valid {
            return Some((raw.cmp(token.as_bytes()), at + 1 + close + 1, true));
        }
        return None;
    }
    let (key, after) = key_at(src, at)?;
    Some((key.as_str().cmp(token), after, false))
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

/// The end of a value that starts at `start` and is followed by `,`, then
/// whitespace up to `next_line` (`value` `,` spaces newline); `None` when
/// the comma is missing or the value is empty.
fn value_before_comma(bytes: &[u8], start: usize, next_line: usize) -> Option<usize> {
    let comma = trim_end(bytes, start, next_line)?;
    if bytes.get(comma - 1) != Some(&b',') {
        return None;
    }
    trim_end(bytes, start, comma - 1)
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
        let absent = ["p:index:R", "p:index:R40", "a", "z", "p:index:R05x"];
        for key in absent {
            assert_eq!(probe(src.as_bytes(), range.clone(), doc.indent, key), None);
        }
        // One prober for all probes (each narrowed by the key lines the
        // earlier ones read), in an order that jumps about, misses between.
        let mut shared = Prober::new(src.as_bytes(), range.clone(), doc.indent).unwrap();
        for i in 0..split.len() {
            let (key, value) = &split[(i * 17) % split.len()];
            assert_eq!(
                shared.probe(src.as_bytes(), key),
                Some(value.clone()),
                "{key}"
            );
            let miss = absent[i % absent.len()];
            assert_eq!(shared.probe(src.as_bytes(), miss), None, "{miss}");
        }
        assert!(shared.known.len() >= split.len() / 2);
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
        // Repeated (adjacent, as sorting puts them): declined, also when
        // earlier probes have read one of the repeats or its neighbours.
        let mut repeated = keys.clone();
        repeated.insert(20, keys[20]);
        let src = entries(&repeated);
        let doc = document(src.as_bytes()).unwrap();
        let range = doc.members["resources"].clone();
        assert_eq!(
            probe(src.as_bytes(), range.clone(), doc.indent, keys[20]),
            None
        );
        assert!(probe(src.as_bytes(), range.clone(), doc.indent, keys[21]).is_some());
        let mut knew_a_repeat = 0;
        for first in [keys[19], keys[21], keys[22], keys[18]] {
            let mut shared = Prober::new(src.as_bytes(), range.clone(), doc.indent).unwrap();
            for key in keys.iter().rev().filter(|k| **k != keys[20]) {
                if *key == first {
                    break;
                }
                assert!(shared.probe(src.as_bytes(), key).is_some(), "{key}");
            }
            assert!(shared.probe(src.as_bytes(), first).is_some(), "{first}");
            let repeat = keys[20].as_bytes();
            let entry = shared.entry;
            knew_a_repeat += shared
                .known
                .iter()
                .filter(|(line, end)| src.as_bytes().get(line + entry + 2..*end) == Some(repeat))
                .count();
            assert_eq!(shared.probe(src.as_bytes(), keys[20]), None, "{first}");
            assert_eq!(shared.probe(src.as_bytes(), keys[20]), None, "{first}");
        }
        assert!(knew_a_repeat > 0);
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
