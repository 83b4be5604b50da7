//! One pass over a schema document that finds where each member is
//! without building it.
//!
//! Loading a 3 MB schema to use three of its resources must not decode the
//! rest. This module runs serde_json over the text once, with visitors that
//! keep every value as a borrowed `RawValue` (serde still validates the
//! whole document, so malformed JSON anywhere is reported with its line and
//! column at load time), and records the byte range of each top-level
//! member and of each entry of `resources`, `functions` and `types`.

use std::fmt;
use std::ops::Range;

use indexmap::IndexMap;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// A JSON error at a byte offset.
#[derive(Clone, Debug)]
pub(crate) struct SkimError {
    pub offset: usize,
    pub message: String,
}

/// The members of one JSON object: decoded key → byte range of the value.
pub(crate) type Members = IndexMap<String, Range<usize>>;

/// The scanned document: top-level members plus the three big maps.
#[derive(Debug, Default)]
pub(crate) struct Document {
    pub members: Members,
    pub resources: Members,
    pub functions: Members,
    pub types: Members,
    /// The indentation unit of a document skimmed by layout; the sections
    /// are then not yet split (`members` holds their value ranges).
    pub indent: usize,
}

/// Scans `src`, which must hold one JSON object.
pub(crate) fn document(src: &str) -> Result<Document, SkimError> {
    let mut doc = Document::default();
    let base = src.as_ptr() as usize;
    let mut de = serde_json::Deserializer::from_str(src);
    let result = DocumentSeed {
        base,
        doc: &mut doc,
    }
    .deserialize(&mut de)
    .and_then(|()| de.end());
    match result {
        Ok(()) => Ok(doc),
        Err(err) => Err(SkimError {
            offset: offset_of(src, err.line(), err.column()),
            message: err.to_string(),
        }),
    }
}

/// Scans document bytes: [`document`] once they are known to be UTF-8.
pub(crate) fn document_bytes(src: &[u8]) -> Result<Document, SkimError> {
    match std::str::from_utf8(src) {
        Ok(text) => document(text),
        Err(e) => Err(SkimError {
            offset: e.valid_up_to(),
            message: "invalid UTF-8".to_owned(),
        }),
    }
}

/// The range of a borrowed raw value inside the text starting at `base`.
fn range_of(base: usize, raw: &RawValue) -> Range<usize> {
    let start = (raw.get().as_ptr() as usize).saturating_sub(base);
    start..start + raw.get().len()
}

struct DocumentSeed<'d> {
    base: usize,
    doc: &'d mut Document,
}

impl<'de> DeserializeSeed<'de> for DocumentSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DocumentSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a package schema object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            let section = match key.as_str() {
                "resources" => Some(&mut self.doc.resources),
                "functions" => Some(&mut self.doc.functions),
                "types" => Some(&mut self.doc.types),
                _ => None,
            };
            match section {
                Some(into) => {
                    into.clear();
                    map.next_value_seed(SectionSeed {
                        base: self.base,
                        into,
                    })?;
                    self.doc.members.insert(key, 0..0);
                }
                None => {
                    let raw: &'de RawValue = map.next_value()?;
                    self.doc.members.insert(key, range_of(self.base, raw));
                }
            }
        }
        Ok(())
    }
}

/// A token → definition map (or `null`).
struct SectionSeed<'d> {
    base: usize,
    into: &'d mut Members,
}

impl<'de> DeserializeSeed<'de> for SectionSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for SectionSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map from tokens to definitions")
    }

    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            let raw: &'de RawValue = map.next_value()?;
            self.into.insert(key, range_of(self.base, raw));
        }
        Ok(())
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_col(src: &[u8], offset: usize) -> (usize, usize) {
    let mut offset = offset.min(src.len());
    // Back to the start of a character (a UTF-8 continuation byte is
    // 0b10xx_xxxx).
    while offset > 0 && src.get(offset).is_some_and(|b| b & 0xc0 == 0x80) {
        offset -= 1;
    }
    let prefix = src.get(..offset).unwrap_or_default();
    let line = memchr::memchr_iter(b'\n', prefix).count() + 1;
    let line_start = memchr::memrchr(b'\n', prefix).map_or(0, |i| i + 1);
    let line_text = String::from_utf8_lossy(prefix.get(line_start..).unwrap_or_default());
    let column = line_text.chars().count() + 1;
    (line, column)
}

/// Byte offset of a serde_json (line, column) position inside `src`.
pub(crate) fn offset_of(src: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    if line > 1 {
        match memchr::memchr_iter(b'\n', src.as_bytes()).nth(line - 2) {
            Some(i) => offset = i + 1,
            None => return src.len(),
        }
    }
    let rest = src.get(offset..).unwrap_or_default();
    let within = rest
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(rest.len(), |(i, _)| i);
    offset + within
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_members_and_maps() {
        let src = r#" { "name": "x", "resources": { "x:index:A": {"a": "}"}, "x:index:B": [1, {"b": "\"]"}] },
            "types": null, "meta": {"moduleFormat": "(.*)"} } "#;
        let doc = document(src).unwrap();
        assert_eq!(
            doc.members.keys().collect::<Vec<_>>(),
            ["name", "resources", "types", "meta"]
        );
        assert_eq!(&src[doc.members["name"].clone()], "\"x\"");
        assert_eq!(&src[doc.resources["x:index:A"].clone()], r#"{"a": "}"}"#);
        assert_eq!(
            &src[doc.resources["x:index:B"].clone()],
            r#"[1, {"b": "\"]"}]"#
        );
        assert!(doc.types.is_empty());
    }

    #[test]
    fn escaped_keys_are_decoded() {
        let doc = document(r#"{"types": {"a\u003ab": 1}}"#).unwrap();
        assert!(doc.types.contains_key("a:b"));
    }

    #[test]
    fn errors_have_positions() {
        for (src, line) in [
            ("{\"a\": [1, 2}", 1),
            ("{\n\"a\": \"x", 2),
            ("{\"a\" 1}", 1),
            ("{\"a\": 1}\n x", 2),
            ("[]", 1),
            ("", 1),
            ("{\"a\": 1,}", 1),
            ("{\"types\": \"x\"}", 1),
            ("{\"types\": {\"t\": {\"x\": tru}}}", 1),
        ] {
            let err = document(src).unwrap_err();
            assert_eq!(
                line_col(src.as_bytes(), err.offset).0,
                line,
                "{src}: {}",
                err.message
            );
        }
    }

    #[test]
    fn line_and_column() {
        let src = "ab\ncdé\nf";
        assert_eq!(line_col(src.as_bytes(), 0), (1, 1));
        assert_eq!(line_col(src.as_bytes(), 4), (2, 2));
        assert_eq!(line_col(src.as_bytes(), 7), (2, 4));
        assert_eq!(line_col(src.as_bytes(), 8), (3, 1));
        assert_eq!(offset_of(src, 2, 2), 4);
        assert_eq!(offset_of(src, 2, 4), 7);
        assert_eq!(offset_of(src, 3, 1), 8);
    }
}
