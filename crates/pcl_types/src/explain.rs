//! Explaining a failed conversion: the first mismatching path with the
//! expected and found types (`.tags["a"]: expected string, found
//! list(int)`), and the binder's "expression not convertible" diagnostic.
//!
//! The reference drops the explanation when the destination is a union
//! (defect `union-reason-dropped`) and then prints a generic message ending
//! in `: ` (defect `trailing-colon-space`). Here the explanation descends into
//! the union member that best matches the source's shape, and the message
//! has no trailing separator; the path explanation is the detail.

use std::fmt;
use std::sync::Arc;

use crate::conversion::{conversion_from, ConversionKind};
use crate::error::{codes, TypeDiagnostic};
use crate::eventual::resolve_outputs;
use crate::message::{expected_text, found_text};
use crate::pretty::pretty_capped;
use crate::print::is_hcl_identifier;
use crate::ty::{Type, TypeKind};
use crate::value::go_quote;
use crate::MAX_TYPE_DEPTH;

/// One step of a path into a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSegment {
    /// An object property `.name`.
    Property(Arc<str>),
    /// A map entry `["key"]` (an object source converted to a map).
    Key(Arc<str>),
    /// A tuple element `[i]`.
    Index(usize),
    /// Any element of a list, set or map `[*]`.
    Element,
}

impl fmt::Display for PathSegment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathSegment::Property(n) if is_hcl_identifier(n) => write!(f, ".{n}"),
            PathSegment::Property(n) | PathSegment::Key(n) => write!(f, "[{}]", go_quote(n)),
            PathSegment::Index(i) => write!(f, "[{i}]"),
            PathSegment::Element => f.write_str("[*]"),
        }
    }
}

/// Why the innermost pair fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MismatchReason {
    NotConvertible,
    TupleLengths { expected: usize, found: usize },
}

/// The innermost failing pair of a `None` conversion.
#[derive(Clone, Debug, PartialEq)]
pub struct ConversionError {
    pub path: Vec<PathSegment>,
    pub expected: Type,
    pub found: Type,
    pub reason: MismatchReason,
}

impl ConversionError {
    pub fn path_string(&self) -> String {
        self.path.iter().map(ToString::to_string).collect()
    }

    /// The reference's reason text for the innermost pair.
    pub fn summary(&self) -> String {
        match self.reason {
            MismatchReason::TupleLengths { .. } => {
                format!(
                    "tuples {} and {} have different lengths",
                    self.expected, self.found
                )
            }
            MismatchReason::NotConvertible => format!(
                "cannot assign value of type {} to type {}",
                pretty_capped(&self.found),
                pretty_capped(&self.expected)
            ),
        }
    }

    /// The path without its leading `.`, as a message names it:
    /// `tags["a"]`, `ingress[0].fromPort`, `[1]`.
    pub fn key_path(&self) -> String {
        let p = self.path_string();
        match p.strip_prefix('.') {
            Some(rest) => rest.to_string(),
            None => p,
        }
    }

    /// What was expected and found at the innermost pair, in the user's
    /// terms: `expected string, found a list of 1 string`.
    pub fn expected_found(&self) -> String {
        match self.reason {
            MismatchReason::TupleLengths { expected, .. } => {
                let plural = if expected == 1 { "" } else { "s" };
                format!(
                    "expected a list of {expected} element{plural}, found {}",
                    found_text(&self.found)
                )
            }
            MismatchReason::NotConvertible if self.is_missing_property() => {
                format!("missing, expected {}", expected_text(&self.expected))
            }
            MismatchReason::NotConvertible => format!(
                "expected {}, found {}",
                expected_text(&self.expected),
                found_text(&self.found)
            ),
        }
    }

    /// True when the innermost pair is an object property the value leaves
    /// out (found `none` at a property).
    pub fn is_missing_property(&self) -> bool {
        self.found.is_none() && matches!(self.path.last(), Some(PathSegment::Property(_)))
    }

    /// `tags["a"]: expected string, found list(int)`: the path (when there
    /// is one) and [`ConversionError::expected_found`].
    pub fn message(&self) -> String {
        let what = self.expected_found();
        let path = self.key_path();
        if path.is_empty() {
            what
        } else {
            format!("`{path}`: {what}")
        }
    }
}

/// Explains why `dest ← src` is `None`; `None` if it converts.
pub fn explain_conversion(dest: &Type, src: &Type) -> Option<ConversionError> {
    if conversion_from(dest, src).exists() {
        return None;
    }
    Some(
        explain_in(dest, src, Vec::new(), &mut Vec::new(), 0)
            .unwrap_or_else(|| leaf(dest, src, Vec::new())),
    )
}

fn leaf(dest: &Type, src: &Type, path: Vec<PathSegment>) -> ConversionError {
    ConversionError {
        path,
        expected: dest.clone(),
        found: src.clone(),
        reason: MismatchReason::NotConvertible,
    }
}

fn fails(d: &Type, s: &Type) -> bool {
    conversion_from(d, s) == ConversionKind::None
}

fn with(path: &[PathSegment], seg: PathSegment) -> Vec<PathSegment> {
    let mut p = path.to_vec();
    p.push(seg);
    p
}

/// The union member most like `src` (same outer kind, not an eventual).
fn best_member<'a>(members: &'a [Type], src: &Type) -> Option<&'a Type> {
    let same = |m: &&Type| std::mem::discriminant(m.kind()) == std::mem::discriminant(src.kind());
    let plain = |m: &&Type| {
        !matches!(
            m.kind(),
            TypeKind::Output(_) | TypeKind::Promise(_) | TypeKind::None
        )
    };
    if let Some(m) = members.iter().find(|m| same(m) && plain(m)) {
        return Some(m);
    }
    // An input-type union: one plain member plus its eventual forms.
    let mut plains = members.iter().filter(plain);
    match (plains.next(), plains.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// `dest ← src` is known to be `None`. Returns `None` when the only failure
/// found re-enters an object pair already on the path (a recursive type), so
/// the caller tries its next property.
fn explain_in(
    dest: &Type,
    src: &Type,
    path: Vec<PathSegment>,
    visited: &mut Vec<(usize, usize)>,
    depth: usize,
) -> Option<ConversionError> {
    if depth > MAX_TYPE_DEPTH {
        return Some(leaf(dest, src, path));
    }
    use TypeKind as K;
    if let K::Union(_) | K::Const(_) = src.kind() {
        return Some(leaf(dest, src, path));
    }
    if let (K::Object(d), K::Object(s)) = (dest.kind(), src.kind()) {
        let key = (dest.addr(), src.addr());
        if visited.contains(&key) {
            return None;
        }
        visited.push(key);
        let none = Type::none();
        let mut found = None;
        let sp = s.properties();
        for (k, t) in d.properties().iter() {
            let u = sp.get(k).unwrap_or(&none);
            if fails(t, u) {
                found = explain_in(
                    t,
                    u,
                    with(&path, PathSegment::Property(k.clone())),
                    visited,
                    depth + 1,
                );
                if found.is_some() {
                    break;
                }
            }
        }
        visited.pop();
        return Some(found.unwrap_or_else(|| leaf(dest, src, path)));
    }
    let mut go = |d: &Type, s: &Type, p: Vec<PathSegment>| explain_in(d, s, p, visited, depth + 1);
    let leaf = |d: &Type, s: &Type, p: Vec<PathSegment>| Some(leaf(d, s, p));
    match (dest.kind(), src.kind()) {
        (K::List(e) | K::Set(e), K::List(u) | K::Set(u)) | (K::Map(e), K::Map(u))
            if fails(e, u) =>
        {
            go(e, u, with(&path, PathSegment::Element))
        }
        (K::List(e) | K::Set(e), K::Tuple(us)) => match us.iter().position(|u| fails(e, u)) {
            Some(i) => go(e, &us[i], with(&path, PathSegment::Index(i))),
            None => leaf(dest, src, path),
        },
        (K::Map(e), K::Object(o)) => match o.properties().iter().find(|(_, u)| fails(e, u)) {
            Some((k, u)) => go(e, u, with(&path, PathSegment::Key(k.clone()))),
            None => leaf(dest, src, path),
        },
        (K::Tuple(ts), K::Tuple(us)) => {
            if ts.len() != us.len() {
                return Some(ConversionError {
                    path,
                    expected: dest.clone(),
                    found: src.clone(),
                    reason: MismatchReason::TupleLengths {
                        expected: ts.len(),
                        found: us.len(),
                    },
                });
            }
            match ts.iter().zip(us.iter()).position(|(t, u)| fails(t, u)) {
                Some(i) => go(&ts[i], &us[i], with(&path, PathSegment::Index(i))),
                None => leaf(dest, src, path),
            }
        }
        (K::Tuple(ts), K::List(u) | K::Set(u)) => match ts.iter().position(|t| fails(t, u)) {
            Some(i) => go(&ts[i], u, with(&path, PathSegment::Index(i))),
            None => leaf(dest, src, path),
        },
        (K::Object(d), K::Map(u)) => match d.properties().iter().find(|(_, t)| fails(t, u)) {
            Some((k, t)) => go(t, u, with(&path, PathSegment::Property(k.clone()))),
            None => leaf(dest, src, path),
        },
        (K::Union(m), _) => match best_member(m.elements(), src) {
            Some(b) => go(b, src, path),
            None => leaf(dest, src, path),
        },
        (K::Promise(e), K::Promise(u)) | (K::Output(e), K::Output(u)) => go(e, u, path),
        (K::Output(e), K::Promise(u)) => go(e, &resolve_outputs(u), path),
        (K::Promise(_), K::Output(_)) => leaf(dest, src, path),
        (K::Promise(e) | K::Output(e), _) => go(e, src, path),
        _ => leaf(dest, src, path),
    }
}

/// The binder's `ExprNotConvertible(dest, expression of type src)`: `None`
/// unless the conversion is `None` (defect
/// `exprnotconvertible-unsafe-panic` avoided by construction).
///
/// The reference says `cannot assign expression of type S to location of
/// type D`, printing both types whole (the destination as its internal
/// input union). pcl says what was expected and what was found at the
/// first mismatching path, in the user's terms (see [`crate::message`]):
/// `` `[1]`: expected string, found { a: number } ``.
pub fn expr_not_convertible(dest: &Type, src: &Type) -> Option<TypeDiagnostic> {
    let err = explain_conversion(dest, src)?;
    Some(TypeDiagnostic::error(
        codes::TYPE_NOT_CONVERTIBLE,
        err.message(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_to_innermost_mismatch() {
        let dest = Type::object([("tags", Type::map(Type::string()))]);
        let src = Type::object([("tags", Type::object([("a", Type::list(Type::int()))]))]);
        let e = explain_conversion(&dest, &src).unwrap();
        assert_eq!(
            e.message(),
            "`tags[\"a\"]`: expected string, found list(int)"
        );
        assert_eq!(
            e.summary(),
            "cannot assign value of type list(int) to type string"
        );
    }

    #[test]
    fn through_input_type_union() {
        let dest = crate::eventual::input_type(&Type::object([("a", Type::string())]));
        let src = Type::object([("a", Type::list(Type::int()))]);
        let e = explain_conversion(&dest, &src).unwrap();
        assert_eq!(e.message(), "`a`: expected string, found list(int)");
        let u = Type::union([Type::int(), Type::bool()]);
        let e = explain_conversion(&u, &Type::list(Type::int())).unwrap();
        assert_eq!(e.message(), "expected bool | int, found list(int)");
        let d = expr_not_convertible(&dest, &Type::literal(crate::Value::int(80))).unwrap();
        assert_eq!(d.summary, "expected { a: string }, found number 80");
        assert!(expr_not_convertible(&Type::int(), &Type::string()).is_none());
    }

    #[test]
    fn tuple_lengths() {
        let e = explain_conversion(
            &Type::tuple([Type::int(), Type::string()]),
            &Type::tuple([Type::string()]),
        )
        .unwrap();
        assert_eq!(
            e.summary(),
            "tuples tuple(int, string) and tuple(string) have different lengths"
        );
    }
}
