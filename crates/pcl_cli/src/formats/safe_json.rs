//! JSON that is safe to print on a terminal: `serde_json` escapes the C0
//! controls in strings, but writes DEL, the C1 controls (U+009B is a CSI on
//! some terminals) and the bidi and other format characters as raw UTF-8.
//! [`SafeFormatter`] wraps a formatter and writes every character
//! [`pcl_diagnostics::is_unsafe_char`] rejects as a `\uXXXX` escape (a
//! surrogate pair above U+FFFF), so the JSON, SARIF and model outputs carry
//! the same text, escaped, and a reader gets back exactly the input's
//! characters.

use std::io::{self, Write};

use pcl_diagnostics::is_unsafe_char;
use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

/// A [`Formatter`] that escapes unsafe characters in strings and otherwise
/// defers to `F`.
pub struct SafeFormatter<F>(pub F);

/// Writes `text`'s characters, escaping the unsafe ones.
pub fn write_safe_fragment<W: ?Sized + Write>(writer: &mut W, text: &str) -> io::Result<()> {
    let mut from = 0;
    for (at, c) in text.char_indices() {
        if !is_unsafe_char(c) {
            continue;
        }
        writer.write_all(text.get(from..at).unwrap_or("").as_bytes())?;
        let mut units = [0u16; 2];
        for unit in c.encode_utf16(&mut units) {
            write!(writer, "\\u{unit:04x}")?;
        }
        from = at + c.len_utf8();
    }
    writer.write_all(text.get(from..).unwrap_or("").as_bytes())
}

macro_rules! forward {
    ($($name:ident),*) => {
        $(
            fn $name<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
                self.0.$name(w)
            }
        )*
    };
}

impl<F: Formatter> Formatter for SafeFormatter<F> {
    forward!(
        begin_array,
        end_array,
        begin_object,
        end_object,
        end_array_value,
        end_object_value,
        begin_object_value
    );

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        write_safe_fragment(writer, fragment)
    }
}

/// Writes `value` pretty-printed (as `serde_json::to_writer_pretty`
/// does), with unsafe characters escaped.
pub fn to_writer_pretty<T: Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let mut serializer =
        serde_json::Serializer::with_formatter(out, SafeFormatter(PrettyFormatter::new()));
    value.serialize(&mut serializer).map_err(io::Error::from)
}

/// Writes `skeleton` pretty-printed, streaming a list into it: the first
/// occurrences of the key `"KEY": []` (an empty list under `key`) get the
/// items `lists[i]` yields instead, each built (as a value) only when it is
/// written. Byte-identical to printing the skeleton with the lists filled
/// in, without ever holding a whole list.
pub fn write_streamed<I>(
    out: &mut dyn Write,
    skeleton: &serde_json::Value,
    key: &str,
    lists: Vec<I>,
) -> io::Result<()>
where
    I: Iterator<Item = serde_json::Value>,
{
    let mut text = Vec::new();
    to_writer_pretty(&mut text, skeleton)?;
    let text = String::from_utf8_lossy(&text);
    let needle = format!("\"{key}\": []");
    let mut from = 0;
    for items in lists {
        let Some(at) = text
            .get(from..)
            .and_then(|t| t.find(&needle))
            .map(|i| from + i)
        else {
            break;
        };
        let line_start = text
            .get(..at)
            .and_then(|t| t.rfind('\n'))
            .map_or(0, |i| i + 1);
        let indent = at - line_start;
        out.write_all(text.get(from..at).unwrap_or("").as_bytes())?;
        write!(out, "\"{key}\": [")?;
        let inner = " ".repeat(indent + 2);
        let mut any = false;
        for item in items {
            out.write_all(if any { b",\n" } else { b"\n" })?;
            any = true;
            out.write_all(inner.as_bytes())?;
            let mut value = Vec::new();
            to_writer_pretty(&mut value, &item)?;
            let value = String::from_utf8_lossy(&value);
            let mut lines = value.split('\n');
            if let Some(first) = lines.next() {
                out.write_all(first.as_bytes())?;
            }
            for line in lines {
                out.write_all(b"\n")?;
                out.write_all(inner.as_bytes())?;
                out.write_all(line.as_bytes())?;
            }
        }
        if any {
            write!(out, "\n{}]", " ".repeat(indent))?;
        } else {
            out.write_all(b"]")?;
        }
        from = at + needle.len();
    }
    out.write_all(text.get(from..).unwrap_or("").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(value: &serde_json::Value) -> String {
        let mut out = Vec::new();
        to_writer_pretty(&mut out, value).unwrap_or_default();
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn unsafe_characters_are_escaped_and_read_back() {
        let text = "a\u{1b}[31m\u{7f}\u{9b}\u{202e}b\u{e0041}é\n";
        let value = serde_json::json!({ "k\u{202e}": text });
        let out = written(&value);
        assert_eq!(
            out,
            "{\n  \"k\\u202e\": \"a\\u001b[31m\\u007f\\u009b\\u202eb\\udb40\\udc41é\\n\"\n}"
        );
        let back: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
        assert_eq!(back, value);
        // Without unsafe characters, byte-identical to serde_json's own.
        let plain = serde_json::json!({"a": [1, "é", {"b": null}]});
        assert_eq!(
            written(&plain),
            serde_json::to_string_pretty(&plain).unwrap_or_default()
        );
    }
}
