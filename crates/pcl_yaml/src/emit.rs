//! A YAML document model and a writer that lays it out as pulumi-yaml's
//! generator does: yaml.v3's encoder with an indentation of 2 and its
//! default line width of 80, fed the nodes pulumi-yaml's `MarshalYAML`
//! builds (strings that read as numbers or booleans single-quoted, the
//! empty string double-quoted, multi-line strings as literal blocks).
//!
//! The writer follows the emitter's rules for what it needs: block
//! mappings and sequences (empty ones in flow style, `{}` and `[]`),
//! scalar style selection (plain, single-quoted, double-quoted, literal),
//! folding of long plain and quoted scalars at spaces past column 80, and
//! head and line comments on mapping keys. Nesting is bounded by the bound
//! program the document is built from (expressions are at most
//! the binder's depth limit deep), so the recursion here is too.

/// A YAML value.
#[derive(Clone, Debug, PartialEq)]
pub enum Yaml {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    List(Vec<Yaml>),
    Map(Vec<Entry>),
}

/// One mapping entry; the comments are the key's (yaml.v3 writes a head
/// comment on the lines before the key and a line comment after the
/// value, or after the `:` when a block follows).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub head_comment: String,
    pub line_comment: String,
    pub value: Yaml,
}

impl Entry {
    pub fn new(key: impl Into<String>, value: Yaml) -> Entry {
        Entry {
            key: key.into(),
            head_comment: String::new(),
            line_comment: String::new(),
            value,
        }
    }
}

const BEST_INDENT: i64 = 2;
const BEST_WIDTH: usize = 80;

/// The text of `doc`, ending with a line break.
pub fn to_string(doc: &Yaml) -> String {
    let mut e = Emitter {
        out: String::new(),
        column: 0,
        whitespace: true,
        indention: true,
        indent: -1,
        indents: Vec::new(),
        line_comment: String::new(),
    };
    e.node(doc, Context::Root);
    e.write_indent();
    e.out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Root,
    /// A sequence item (indentation grows by the `- ` indicator).
    Item,
    /// A simple mapping key.
    Key,
    /// A complex (`? `) mapping key.
    ComplexKey,
    /// A mapping value.
    Value,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

struct Emitter {
    out: String,
    column: usize,
    whitespace: bool,
    indention: bool,
    indent: i64,
    indents: Vec<i64>,
    /// A line comment waiting to be written after the current value.
    line_comment: String,
}

/// What yaml.v3's scalar analysis finds.
struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// yaml.v3's `is_printable` (characters outside the basic plane are not).
fn is_printable(c: char) -> bool {
    let v = c as u32;
    v == 0x0A
        || (0x20..=0x7E).contains(&v)
        || (0xA0..=0xD7FF).contains(&v)
        || ((0xE000..=0xFFFD).contains(&v) && v != 0xFEFF)
}

fn analyze(value: &str) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = value.starts_with("---") || value.starts_with("...");
    let mut line_breaks = false;
    let mut special = false;
    let mut tabs = false;
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_whitespace = true;
    let chars: Vec<char> = value.chars().collect();
    let n = chars.len();
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let followed_by_whitespace = next.is_none_or(is_blank);
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        if c == '\t' {
            tabs = true;
        } else if !is_printable(c) {
            special = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= i + 1 == n;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            leading_break |= i == 0;
            trailing_break |= i + 1 == n;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_blank(c) || is_break(c);
    }
    let mut a = Analysis {
        multiline: line_breaks,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space || space_break || tabs || special {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a.block_allowed = false;
    }
    if line_breaks || block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// Whether Go's `strconv.ParseFloat(s, 32)` accepts `s` (pulumi-yaml
/// single-quotes such strings so they stay strings).
fn parses_as_float32(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = body.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
        return true;
    }
    if let Some(hex) = lower.strip_prefix("0x") {
        return parses_hex_float(hex);
    }
    // Decimal: digits with at most one point, at least one digit, an
    // optional exponent; underscores only come with a base prefix.
    let (mantissa, exponent) = match lower.split_once('e') {
        Some((m, e)) => (m, Some(e)),
        None => (lower.as_str(), None),
    };
    let mut digits = 0;
    let mut points = 0;
    for c in mantissa.chars() {
        match c {
            '0'..='9' => digits += 1,
            '.' => points += 1,
            _ => return false,
        }
    }
    if digits == 0 || points > 1 {
        return false;
    }
    if let Some(e) = exponent {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        if e.is_empty() || !e.chars().all(|c| c.is_ascii_digit()) {
            return false;
        }
    }
    // Out of float32's range is an error (ErrRange).
    match body.parse::<f64>() {
        Ok(v) => v.is_finite() && (v as f32).is_finite(),
        Err(_) => false,
    }
}

fn parses_hex_float(hex: &str) -> bool {
    // Go requires a `p` exponent for a hexadecimal float; underscores may
    // separate digits after the prefix.
    let Some((mantissa, exponent)) = hex.split_once('p') else {
        return false;
    };
    let mantissa: String = mantissa.chars().filter(|&c| c != '_').collect();
    let mut digits = 0;
    let mut points = 0;
    for c in mantissa.chars() {
        match c {
            '0'..='9' | 'a'..='f' => digits += 1,
            '.' => points += 1,
            _ => return false,
        }
    }
    let e = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    digits > 0 && points <= 1 && !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
}

/// Go's `strconv.FormatFloat(v, 'g', -1, 64)`.
pub fn format_number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    if v == 0.0 {
        return if v.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    // Shortest round-trip digits and the decimal exponent.
    let sci = format!("{:e}", v.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if v < 0.0 { "-" } else { "" };
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let point = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{point}e{esign}{:02}", exp.abs());
    }
    // %f with as many digits as needed.
    let nd = digits.len() as i64;
    let dp = exp + 1;
    let text = if dp <= 0 {
        format!("0.{}{digits}", "0".repeat((-dp) as usize))
    } else if dp >= nd {
        format!("{digits}{}", "0".repeat((dp - nd) as usize))
    } else {
        let (int, frac) = digits.split_at(dp as usize);
        format!("{int}.{frac}")
    };
    format!("{sign}{text}")
}

impl Emitter {
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
        self.indention = true;
    }

    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
            self.indention = true;
        }
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
    }

    fn write_indicator(&mut self, indicator: &str, need_ws: bool, is_ws: bool, is_indention: bool) {
        if need_ws && !self.whitespace {
            self.put(' ');
        }
        for c in indicator.chars() {
            self.put(c);
        }
        self.whitespace = is_ws;
        self.indention = self.indention && is_indention;
    }

    fn increase_indent(&mut self, flow: bool, in_item: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if in_item {
            self.indent += 2;
        } else {
            self.indent = BEST_INDENT * ((self.indent + BEST_INDENT) / BEST_INDENT);
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn write_comment(&mut self, comment: &str) {
        let mut breaks = false;
        let mut pound = false;
        for c in comment.chars() {
            if is_break(c) {
                self.write_break(c);
                breaks = true;
                pound = false;
            } else {
                if breaks {
                    self.write_indent();
                }
                if !pound {
                    if c != '#' {
                        self.put('#');
                        self.put(' ');
                    }
                    pound = true;
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
        if !breaks {
            self.put_break();
        }
        self.whitespace = true;
    }

    fn process_line_comment(&mut self) {
        if self.line_comment.is_empty() {
            return;
        }
        if !self.whitespace {
            self.put(' ');
        }
        let comment = std::mem::take(&mut self.line_comment);
        self.write_comment(&comment);
    }

    fn node(&mut self, node: &Yaml, ctx: Context) {
        match node {
            Yaml::Null => self.scalar("null", Style::Plain, ctx),
            Yaml::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain, ctx),
            Yaml::Number(v) => self.scalar(&format_number(*v), Style::Plain, ctx),
            Yaml::String(s) => self.string(s, ctx),
            Yaml::List(items) if items.is_empty() => self.empty_flow("[", "]"),
            Yaml::Map(entries) if entries.is_empty() => self.empty_flow("{", "}"),
            Yaml::List(items) => self.sequence(items, ctx),
            Yaml::Map(entries) => self.mapping(entries, ctx),
        }
    }

    /// A string as pulumi-yaml's `MarshalYAML` styles it.
    fn string(&mut self, s: &str, ctx: Context) {
        let style = if s.is_empty() {
            Style::Double
        } else if parses_as_float32(s) || s == "true" || s == "false" {
            Style::Single
        } else if s.contains('\n') {
            Style::Literal
        } else {
            Style::Plain
        };
        self.scalar(s, style, ctx);
    }

    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    fn scalar(&mut self, value: &str, requested: Style, ctx: Context) {
        let a = analyze(value);
        let simple_key = ctx == Context::Key;
        let mut style = requested;
        if simple_key && a.multiline {
            style = Style::Double;
        }
        if style == Style::Plain && (!a.block_plain_allowed || (value.is_empty() && simple_key)) {
            style = Style::Single;
        }
        if style == Style::Single && !a.single_quoted_allowed {
            style = Style::Double;
        }
        if style == Style::Literal && (!a.block_allowed || simple_key) {
            style = Style::Double;
        }
        self.increase_indent(true, ctx == Context::Item);
        let allow_breaks = !simple_key;
        match style {
            Style::Plain => self.write_unescaped(value, allow_breaks, false),
            Style::Single => self.write_unescaped(value, allow_breaks, true),
            Style::Double => self.write_double(value, allow_breaks),
            Style::Literal => self.write_literal(value),
        }
        self.pop_indent();
    }

    /// A plain or single-quoted scalar (libyaml's `write_plain` and
    /// `write_single_quoted`): the same folding of spaces and line breaks;
    /// a quoted one is written between `'`, doubles each `'` and never
    /// folds at its first or last character.
    fn write_unescaped(&mut self, value: &str, allow_breaks: bool, quoted: bool) {
        if quoted {
            self.write_indicator("'", true, false, false);
        } else if !value.is_empty() && !self.whitespace {
            self.put(' ');
        }
        let chars: Vec<char> = value.chars().collect();
        let n = chars.len();
        let mut spaces = false;
        let mut breaks = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                let inside = !quoted || (i > 0 && i + 1 < n);
                if allow_breaks && !spaces && self.column > BEST_WIDTH && inside && !next_space {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if quoted && c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        if quoted {
            self.write_indicator("'", false, false, false);
            self.whitespace = false;
        } else if !value.is_empty() {
            self.whitespace = false;
        }
        self.indention = false;
    }

    fn write_double(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let chars: Vec<char> = value.chars().collect();
        let n = chars.len();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || c == '\u{FEFF}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let v = c as u32;
                match c {
                    '\0' => self.put('0'),
                    '\u{7}' => self.put('a'),
                    '\u{8}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{b}' => self.put('v'),
                    '\u{c}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1b}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{a0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    _ => {
                        let (letter, width) = if v <= 0xFF {
                            ('x', 2)
                        } else if v <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(letter);
                        for ch in format!("{v:0width$X}").chars() {
                            self.put(ch);
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i + 1 < n {
                    self.write_indent();
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        let chars: Vec<char> = value.chars().collect();
        if chars.first().is_some_and(|&c| c == ' ' || is_break(c)) {
            self.write_indicator("2", false, false, false);
        }
        let chomp = match chars.as_slice() {
            [] => Some("-"),
            [.., last] if !is_break(*last) => Some("-"),
            [_] => Some("+"),
            [.., before, _] if is_break(*before) => Some("+"),
            _ => None,
        };
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
        self.process_line_comment();
        self.whitespace = true;
        let mut breaks = true;
        for &c in &chars {
            if is_break(c) {
                self.write_break(c);
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }

    fn sequence(&mut self, items: &[Yaml], ctx: Context) {
        self.increase_indent(false, ctx == Context::Item);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Context::Item);
            self.process_line_comment();
        }
        self.pop_indent();
    }

    fn mapping(&mut self, entries: &[Entry], ctx: Context) {
        self.increase_indent(false, ctx == Context::Item);
        for entry in entries {
            if !entry.head_comment.is_empty() {
                self.write_indent();
                self.write_comment(&entry.head_comment);
            }
            self.write_indent();
            let key_line_comment = entry.line_comment.clone();
            let key = Yaml::String(entry.key.clone());
            let simple = !entry.key.contains(is_break) && entry.key.len() <= 128;
            if simple {
                self.node(&key, Context::Key);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.node(&key, Context::ComplexKey);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            if !key_line_comment.is_empty() {
                match &entry.value {
                    Yaml::List(_) | Yaml::Map(_) => {
                        self.line_comment = key_line_comment;
                        self.process_line_comment();
                    }
                    _ => self.line_comment = key_line_comment,
                }
            }
            self.node(&entry.value, Context::Value);
            self.process_line_comment();
        }
        self.pop_indent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(entries: Vec<(&str, Yaml)>) -> Yaml {
        Yaml::Map(entries.into_iter().map(|(k, v)| Entry::new(k, v)).collect())
    }

    fn s(v: &str) -> Yaml {
        Yaml::String(v.to_string())
    }

    #[test]
    fn numbers_print_as_go_formats_them() {
        assert_eq!(format_number(42.0), "42");
        assert_eq!(format_number(2.5), "2.5");
        assert_eq!(format_number(-1.5), "-1.5");
        assert_eq!(format_number(1e6), "1e+06");
        assert_eq!(format_number(123456.0), "123456");
        assert_eq!(format_number(1234567.0), "1.234567e+06");
        assert_eq!(format_number(1e20), "1e+20");
        assert_eq!(format_number(0.0001), "0.0001");
        assert_eq!(format_number(0.00001), "1e-05");
        assert_eq!(format_number(1.25e-7), "1.25e-07");
    }

    #[test]
    fn strings_are_quoted_as_pulumi_yaml_quotes_them() {
        let doc = map(vec![
            ("a", s("-1")),
            ("b", s("true")),
            ("c", s("")),
            ("d", s("2008-10-17")),
            ("e", s("#x")),
            ("f", s("a: b")),
            ("g", s("it's: x")),
            ("h", s("tab\there")),
            ("404", s("x")),
            ("i", s("one\ntwo")),
            ("j", s("one\ntwo\n")),
            ("k", s("😀")),
        ]);
        let expected = "a: '-1'\nb: 'true'\nc: \"\"\nd: 2008-10-17\ne: '#x'\nf: 'a: b'\ng: 'it''s: x'\nh: \"tab\\there\"\n'404': x\ni: |-\n  one\n  two\nj: |\n  one\n  two\nk: \"\\U0001F600\"\n";
        assert_eq!(to_string(&doc), expected);
    }

    #[test]
    fn blocks_nest_with_sequences_indented_under_their_key() {
        let doc = map(vec![(
            "resources",
            map(vec![(
                "r",
                map(vec![
                    (
                        "list",
                        Yaml::List(vec![
                            s("x"),
                            map(vec![("a", Yaml::Number(1.0)), ("b", Yaml::Null)]),
                        ]),
                    ),
                    ("empty", Yaml::List(vec![])),
                    ("none", Yaml::Map(vec![])),
                ]),
            )]),
        )]);
        let expected = "resources:\n  r:\n    list:\n      - x\n      - a: 1\n        b: null\n    empty: []\n    none: {}\n";
        assert_eq!(to_string(&doc), expected);
    }

    #[test]
    fn comments_go_before_keys_and_after_values() {
        let mut first = Entry::new("a", s("x"));
        first.head_comment = "first\n// second".to_string();
        first.line_comment = "after".to_string();
        let mut second = Entry::new("b", map(vec![("c", Yaml::Bool(true))]));
        second.line_comment = "# block".to_string();
        let doc = Yaml::Map(vec![first, second]);
        let expected = "# first\n# // second\na: x # after\nb: # block\n  c: true\n";
        assert_eq!(to_string(&doc), expected);
    }

    #[test]
    fn long_plain_strings_fold_past_column_80() {
        let long = "word ".repeat(30);
        let long = long.trim_end();
        let out = to_string(&map(vec![("k", s(long))]));
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 1, "{out}");
        assert!(lines[1].starts_with("  word"), "{out}");
        let rejoined: Vec<&str> = out.trim_start_matches("k: ").split_whitespace().collect();
        assert_eq!(rejoined.len(), 30);
    }

    #[test]
    fn long_single_quoted_strings_fold_and_double_quotes() {
        // A leading `*` cannot start a plain scalar: the value is quoted.
        let value = format!("*{} it's", " word".repeat(30));
        let out = to_string(&map(vec![("k", s(&value))]));
        assert!(out.starts_with("k: '*"), "{out}");
        assert!(out.lines().count() > 1, "{out}");
        assert!(out.contains("it''s"), "{out}");
        // Read back as YAML reads a folded single-quoted scalar: each line
        // break between words is one space, `''` is `'`.
        let body = out
            .trim_end()
            .trim_start_matches("k: '")
            .trim_end_matches('\'');
        let read: Vec<&str> = body.lines().map(str::trim).collect();
        assert_eq!(read.join(" ").replace("''", "'"), value);
    }

    #[test]
    fn an_empty_document_is_an_empty_mapping() {
        assert_eq!(to_string(&Yaml::Map(vec![])), "{}\n");
    }
}
