//! Constants that convert to their destination type only unsafely and
//! never can (`constant-never-converts`, a warning): `"three"` where a
//! number is expected, `true` where a number is, `"yes"` or any number
//! (`1` too) where a bool is, at any depth of list, map and object literals. Used for config
//! defaults, output values and resource options (the program binder),
//! resource and component inputs, and invoke and builtin arguments.

use pcl_diagnostics::{Code, Diagnostic, Span, TextRange};
use pcl_types::Type;

use crate::bound::BoundRef;

/// How deep [`never_converts`] looks into a constant.
const MAX_CONSTANT_DEPTH: usize = 32;

/// `constant-never-converts` for a constant whose conversion to
/// `declared` is only unsafe (so no error) but that can never succeed: a
/// string that is no number where a number is declared (`"three"`), a
/// string other than `true`/`false` where a bool is (`protect = "yes"`),
/// at any depth of list, map and object literals. A value that might
/// convert (`"3"`, a reference, a template with interpolations) is silent.
pub fn never_converts(
    code: Code,
    value: BoundRef<'_>,
    declared: &Type,
    kind: &str,
    name: &str,
    span: &dyn Fn(TextRange) -> Span,
) -> Option<Diagnostic> {
    let (at, expected, (what, text), steps) = constant_mismatch(value, declared, 0)?;
    // The path is spelt only for a mismatch (its steps come innermost
    // first).
    let path: String = steps.iter().rev().map(Step::to_string).collect();
    // An invoke's argument object has no name of its own: the path is it.
    let subject = match (name, path.strip_prefix('.')) {
        ("", Some(rest)) => rest.to_string(),
        _ => format!("{name}{path}"),
    };
    Some(
        Diagnostic::warning(
            code,
            span(at),
            format!("{kind} `{subject}` expects {expected}, but {text} can never be one"),
        )
        .with_detail(format!("expected {expected}, found {what} {text}")),
    )
}

/// A string constant as a message shows it: quoted, cut and escaped.
fn shown(s: &str) -> (&'static str, String) {
    let text = pcl_diagnostics::elide_quoted(s).escape_debug().to_string();
    ("string", format!("\"{text}\""))
}

/// The literal `value` is, if it is one.
fn literal(value: BoundRef<'_>) -> Option<&pcl_types::Value> {
    match value.kind() {
        crate::bound::BoundExprKind::Literal(v) => Some(v),
        _ => None,
    }
}

/// One step of the path to a mismatching constant.
enum Step {
    /// `[i]`
    Index(usize),
    /// `["key"]` (a map's key)
    Key(String),
    /// `.key` (an object's property)
    Field(String),
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Index(i) => write!(f, "[{i}]"),
            Step::Key(k) => write!(f, "[\"{k}\"]"),
            Step::Field(k) => write!(f, ".{k}"),
        }
    }
}

/// An object key's text, borrowed when it is a string literal.
fn key_text(key: BoundRef<'_>) -> Option<std::borrow::Cow<'_, str>> {
    match key.literal_string() {
        Some(s) => Some(std::borrow::Cow::Borrowed(s)),
        None => key.key_string().map(std::borrow::Cow::Owned),
    }
}

/// The mismatching constant inside `value`: its range, what was
/// expected, what it is, and the path to it (innermost step first).
type Mismatch = (TextRange, &'static str, (&'static str, String), Vec<Step>);

fn constant_mismatch(value: BoundRef<'_>, declared: &Type, depth: usize) -> Option<Mismatch> {
    use crate::bound::BoundExprKind;
    use pcl_types::TypeKind;
    if depth > MAX_CONSTANT_DEPTH {
        return None;
    }
    let value = value.strip_parens();
    match declared.kind() {
        TypeKind::Union(u) => {
            // Only `optional(T)` and input types (`T | output(T)`): the one
            // member that is neither `none` nor eventual.
            let mut members = u.elements().iter().filter(|t| {
                !t.is_none() && !matches!(t.kind(), TypeKind::Output(_) | TypeKind::Promise(_))
            });
            match (members.next(), members.next()) {
                (Some(t), None) => constant_mismatch(value, t, depth + 1),
                _ => None,
            }
        }
        TypeKind::Number | TypeKind::Int => {
            // A bool converts to a number only through its text, which
            // is never a number.
            if let Some(pcl_types::Value::Bool(b)) = literal(value) {
                return Some((
                    value.range(),
                    "a number",
                    ("bool", b.to_string()),
                    Vec::new(),
                ));
            }
            let s = value.literal_string()?;
            let t = s.trim();
            let is_number = t.parse::<f64>().is_ok_and(f64::is_finite);
            (!is_number).then(|| (value.range(), "a number", shown(s), Vec::new()))
        }
        TypeKind::Bool => {
            // No number ever converts to a bool: cty, which evaluates
            // values, has no number-to-bool conversion at all (not even
            // `1` or `0`; only the strings `"1"` and `"0"` convert), and
            // the typed languages a program is generated into reject a
            // number where a bool is declared.
            if let Some(pcl_types::Value::Number(n)) = literal(value) {
                let text = pcl_types::Value::Number(n.clone()).pretty();
                return Some((value.range(), "a bool", ("number", text), Vec::new()));
            }
            // cty's string-to-bool conversion accepts exactly these.
            let s = value.literal_string()?;
            let ok = matches!(s, "true" | "false" | "1" | "0");
            (!ok).then(|| (value.range(), "a bool", shown(s), Vec::new()))
        }
        TypeKind::List(e) | TypeKind::Set(e) => match value.kind() {
            BoundExprKind::Tuple(items) => items.iter().enumerate().find_map(|(i, item)| {
                let mut found = constant_mismatch(item, e, depth + 1)?;
                found.3.push(Step::Index(i));
                Some(found)
            }),
            _ => None,
        },
        TypeKind::Map(e) => match value.kind() {
            BoundExprKind::Object(items) => items.iter().find_map(|(k, v)| {
                let key = key_text(k)?;
                let mut found = constant_mismatch(v, e, depth + 1)?;
                found.3.push(Step::Key(key.into_owned()));
                Some(found)
            }),
            _ => None,
        },
        TypeKind::Object(o) => match value.kind() {
            BoundExprKind::Object(items) => items.iter().find_map(|(k, v)| {
                let key = key_text(k)?;
                let t = &o.property(&key)?;
                let mut found = constant_mismatch(v, t, depth + 1)?;
                found.3.push(Step::Field(key.into_owned()));
                Some(found)
            }),
            _ => None,
        },
        _ => None,
    }
}
