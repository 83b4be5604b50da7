//! Explaining why a value does not fit its destination type, one problem
//! per diagnostic, each at its own range.
//!
//! The verdict is the conversion's (binder.md §2): a value whose
//! conversion to the destination is `None` gets at least one error, a value
//! that converts gets none. What this module adds is the explanation. It
//! walks the value's object and list constructions alongside the
//! destination type and reports:
//!
//! * each element or property value that does not convert, at that value,
//!   by its key path (`ingress[0].fromPort: expected int, found string
//!   "80"`), with plain types ([`pcl_types::expected_text`],
//!   [`pcl_types::found_text`]);
//! * each key the destination's object type does not declare
//!   (`unknown-object-key`, a warning: the reference ignores such keys
//!   below the top level), with a did-you-mean that carries a structured
//!   fix replacing the key;
//! * each required key left out, unless a misspelt key stands for it: then
//!   the misspelt key's diagnostic says so and is the error, so one mistake
//!   gives one diagnostic.
//!
//! The walk visits each node of the value once and stops at
//! [`MAX_FIT_DEPTH`] (deeper values are judged whole by the conversion).

use std::collections::HashSet;

use pcl_diagnostics::{Code, Diagnostic, Severity, Span, TextRange};
use pcl_types::{
    codes, conversion_from, expected_text, explain_conversion, found_text, ConversionError,
    ConversionKind, MismatchReason, PathSegment, Type, TypeKind,
};

use pcl_types::print::is_hcl_identifier;
use pcl_types::value::go_quote;

use crate::bound::{BoundExprKind, BoundPairs, BoundRef};
use crate::suggest;

/// How deep the walk follows nested constructions.
pub const MAX_FIT_DEPTH: usize = 128;

/// What the checked value is, for the messages: a `noun` (`property`,
/// `argument`, `config`, `output`, `option`, `input`) and the name of the
/// value's root (`tags`, or empty when the value is an argument object
/// whose keys are the names, as for `invoke`).
#[derive(Clone, Copy, Debug)]
pub struct Subject<'a> {
    pub noun: &'a str,
    pub name: &'a str,
    /// The code of a value that does not convert.
    pub mismatch: Code,
}

/// The diagnostics explaining how `value` does not fit `dest` (the
/// destination as checked, usually an input type). Empty when the value
/// converts and has no unknown keys. `span` turns a range into a span.
pub fn fit_diagnostics(
    dest: &Type,
    value: BoundRef<'_>,
    subject: Subject<'_>,
    span: &dyn Fn(TextRange) -> Span,
) -> Vec<Diagnostic> {
    let convertible = conversion_from(dest, value.ty()) != ConversionKind::None;
    // A value that converts keeps only the walk's warnings, so the walk
    // then skips the checks that can only find errors (a conversion at
    // every leaf, the required keys of every object).
    let mut walk = Walk {
        subject,
        span,
        errors: !convertible,
        out: Vec::new(),
    };
    walk.value(dest, value, &mut Vec::new(), 0);
    let mut out = walk.out;
    if convertible {
        // The verdict is the conversion's: keep only the warnings.
        out.retain(|d| !d.is_error());
    } else if !out.iter().any(Diagnostic::is_error) {
        // The walk found no culprit (a union destination, a value that is
        // not a construction): the conversion explains the whole value.
        out.push(whole_mismatch(dest, value, subject, span));
    }
    out
}

/// One diagnostic for `value` as a whole, by the first mismatching path.
fn whole_mismatch(
    dest: &Type,
    value: BoundRef<'_>,
    subject: Subject<'_>,
    span: &dyn Fn(TextRange) -> Span,
) -> Diagnostic {
    match explain_conversion(dest, value.ty()) {
        Some(e) => {
            let at = value.sub_expression(&e.path);
            let place = place(subject, &e.path_string());
            mismatch(subject.mismatch, span(at.range()), place, what(&e, at))
        }
        None => mismatch(
            subject.mismatch,
            span(value.range()),
            place(subject, ""),
            format!(
                "expected {}, found {}",
                expected_text(dest),
                found_text(value.ty())
            ),
        ),
    }
}

/// What was expected and found; a string found where the value is a
/// string literal (a template of one literal part, typed `string`) shows
/// the literal, as the type of a literal would.
fn what(e: &ConversionError, at: BoundRef<'_>) -> String {
    match (at.literal_string(), e.found.kind(), &e.reason) {
        (Some(s), TypeKind::String, MismatchReason::NotConvertible) => format!(
            "expected {}, found {}",
            expected_text(&e.expected),
            found_text(&Type::literal(pcl_types::Value::string(s)))
        ),
        _ => e.expected_found(),
    }
}

/// A mismatch: the summary names the place and says what was expected and
/// found; the label at the value says the latter only.
fn mismatch(code: Code, span: Span, place: Option<String>, what: String) -> Diagnostic {
    match place {
        Some(p) => Diagnostic::error(code, span, format!("{p}: {what}")).with_detail(what),
        None => Diagnostic::error(code, span, what),
    }
}

/// `` property `tags["a"]` ``: the subject's root name followed by `path`
/// (a path string such as `.a[0]`), or `None` when both are empty.
fn place(subject: Subject<'_>, path: &str) -> Option<String> {
    let full = if subject.name.is_empty() {
        path.strip_prefix('.').unwrap_or(path).to_string()
    } else {
        format!("{}{path}", subject.name)
    };
    if full.is_empty() {
        return None;
    }
    let full = pcl_diagnostics::elide_quoted(&full).into_owned();
    Some(format!("{} `{full}`", subject.noun))
}

/// A key as a message shows it: an identifier as it is, anything else
/// quoted with escapes (no control character reaches a terminal), cut at
/// the usual length.
fn shown_key(key: &str) -> String {
    let cut = pcl_diagnostics::elide_quoted(key);
    if is_hcl_identifier(key) {
        cut.into_owned()
    } else {
        go_quote(&cut)
    }
}

fn with_place(place: Option<&str>, what: &str) -> String {
    match place {
        Some(p) => format!("{p}: {what}"),
        None => what.to_string(),
    }
}

/// One step of the path from the checked value to a value inside it,
/// borrowed from the bound tree: the walk spells a path only for a
/// diagnostic, as [`PathSegment`] does.
#[derive(Clone, Copy)]
enum Step<'t> {
    Property(&'t str),
    Key(&'t str),
    Index(usize),
}

fn path_string(path: &[Step<'_>]) -> String {
    path.iter()
        .map(|s| match *s {
            Step::Property(n) => PathSegment::Property(n.into()),
            Step::Key(n) => PathSegment::Key(n.into()),
            Step::Index(i) => PathSegment::Index(i),
        })
        .map(|s| s.to_string())
        .collect()
}

/// The one plain form of a destination the walk can descend into:
/// eventuals unwrapped, `none` left out, an input union reduced to its
/// plain member. `None` for a union of several plain members.
fn plain_dest(t: &Type) -> Option<Type> {
    let mut cur = t.clone();
    for _ in 0..pcl_types::MAX_TYPE_DEPTH {
        let next = match cur.kind() {
            TypeKind::Output(e) | TypeKind::Promise(e) => e.clone(),
            TypeKind::Union(u) => {
                let eventual =
                    |m: &Type| matches!(m.kind(), TypeKind::Output(_) | TypeKind::Promise(_));
                let mut plain = u.elements().iter().filter(|m| !m.is_none() && !eventual(m));
                match (plain.next(), plain.next()) {
                    (Some(one), None) => one.clone(),
                    (Some(_), Some(_)) => return None,
                    (None, _) => {
                        let mut ev = u.elements().iter().filter(|m| eventual(m));
                        match (ev.next(), ev.next()) {
                            (Some(one), None) => one.clone(),
                            _ => return None,
                        }
                    }
                }
            }
            _ => return Some(cur),
        };
        cur = next;
    }
    None
}

/// The literal key of an object item and whether it was written quoted.
fn literal_key<'t>(k: BoundRef<'t>) -> Option<(&'t str, bool)> {
    match k.strip_parens().kind() {
        BoundExprKind::Literal(pcl_types::Value::String(s)) => Some((&**s, false)),
        BoundExprKind::Template(_) => k.strip_parens().literal_string().map(|s| (s, true)),
        _ => None,
    }
}

struct Walk<'s, 'f> {
    subject: Subject<'s>,
    span: &'f dyn Fn(TextRange) -> Span,
    /// Whether errors are looked for (only warnings are, when the whole
    /// value converts).
    errors: bool,
    out: Vec<Diagnostic>,
}

impl Walk<'_, '_> {
    fn value<'t>(
        &mut self,
        dest: &Type,
        value: BoundRef<'t>,
        path: &mut Vec<Step<'t>>,
        depth: usize,
    ) {
        let v = value.strip_parens();
        let kind = v.kind();
        // Only constructions are descended into, and only a literal
        // string is checked against an enum: for any other value the
        // destination's plain form is not needed.
        let descends = matches!(
            kind,
            BoundExprKind::Object(_)
                | BoundExprKind::Tuple(_)
                | BoundExprKind::Literal(_)
                | BoundExprKind::Template(_)
        );
        if depth < MAX_FIT_DEPTH && descends {
            if let Some(d) = plain_dest(dest) {
                match (kind, d.kind()) {
                    (BoundExprKind::Object(items), TypeKind::Object(_))
                        if self.object(&d, v, items, path, depth) =>
                    {
                        return;
                    }
                    (BoundExprKind::Object(items), TypeKind::Map(e))
                        if items.iter().all(|(k, _)| literal_key(k).is_some()) =>
                    {
                        for (k, val) in items.iter() {
                            let key = literal_key(k).map(|(s, _)| s).unwrap_or_default();
                            path.push(Step::Key(key));
                            self.value(e, val, path, depth + 1);
                            path.pop();
                        }
                        return;
                    }
                    (BoundExprKind::Tuple(items), TypeKind::List(e) | TypeKind::Set(e)) => {
                        for (i, item) in items.iter().enumerate() {
                            path.push(Step::Index(i));
                            self.value(e, item, path, depth + 1);
                            path.pop();
                        }
                        return;
                    }
                    (BoundExprKind::Tuple(items), TypeKind::Tuple(ts))
                        if items.len() == ts.len() =>
                    {
                        for (i, (item, t)) in items.iter().zip(ts.iter()).enumerate() {
                            path.push(Step::Index(i));
                            self.value(t, item, path, depth + 1);
                            path.pop();
                        }
                        return;
                    }
                    (_, TypeKind::Enum(e)) => self.enum_constant(e, v, path),
                    _ => {}
                }
            }
        }
        if self.errors && conversion_from(dest, v.ty()) == ConversionKind::None {
            let prefix = path_string(path);
            let (at, inner, what) = match explain_conversion(dest, v.ty()) {
                Some(e) => {
                    let at = v.sub_expression(&e.path);
                    (at, e.path_string(), what(&e, at))
                }
                None => (
                    v,
                    String::new(),
                    format!(
                        "expected {}, found {}",
                        expected_text(dest),
                        found_text(v.ty())
                    ),
                ),
            };
            let place = place(self.subject, &format!("{prefix}{inner}"));
            self.out.push(mismatch(
                self.subject.mismatch,
                (self.span)(at.range()),
                place,
                what,
            ));
        }
    }

    /// A string constant against an enum of strings that does not list
    /// it: it converts (unsafely), but never to one of the enum's values,
    /// so it is a warning with the close values as fixes.
    fn enum_constant(&mut self, e: &pcl_types::EnumType, v: BoundRef<'_>, path: &[Step<'_>]) {
        let Some(s) = v.literal_string() else {
            return;
        };
        let mut values: Vec<&str> = Vec::with_capacity(e.values().len());
        for value in e.values() {
            match value {
                pcl_types::Value::String(x) if x.as_ref() == s => return,
                pcl_types::Value::String(x) => values.push(x.as_ref()),
                _ => return,
            }
        }
        let shown = pcl_diagnostics::elide_quoted(s).escape_debug().to_string();
        let at = place(self.subject, &path_string(path));
        let summary = format!(
            "{}\"{shown}\" is not a value of enum `{}`",
            at.map(|p| format!("{p}: ")).unwrap_or_default(),
            e.token()
        );
        let listed: Vec<String> = values
            .iter()
            .take(suggest::MAX_SUGGESTIONS)
            .map(|x| format!("\"{}\"", x.escape_debug()))
            .collect();
        let more = if values.len() > listed.len() {
            ", …"
        } else {
            ""
        };
        let d = Diagnostic::warning(codes::UNKNOWN_ENUM_VALUE, (self.span)(v.range()), summary)
            .with_detail(format!("expected one of {}{more}", listed.join(", ")));
        let hits = suggest::candidates(s, values.iter().copied());
        self.out
            .push(suggest::attach_quoted(d, (self.span)(v.range()), &hits));
    }

    /// An object construction against an object type. Returns `false`
    /// when a key is not a literal (the value is then judged whole).
    fn object<'t>(
        &mut self,
        dest: &Type,
        v: BoundRef<'t>,
        items: BoundPairs<'t>,
        path: &mut Vec<Step<'t>>,
        depth: usize,
    ) -> bool {
        let Some(o) = dest.as_object() else {
            return false;
        };
        let mut keys: Vec<(&str, bool)> = Vec::with_capacity(items.len());
        for (k, _) in items.iter() {
            match literal_key(k) {
                Some(key) => keys.push(key),
                None => return false,
            }
        }
        let props = o.properties();
        let written: HashSet<&str> = keys.iter().map(|(k, _)| *k).collect();
        let none = Type::none();
        let required_missing = |name: &str| -> Option<Type> {
            if written.contains(name) {
                return None;
            }
            let t = props.get(name)?;
            (conversion_from(t, &none) == ConversionKind::None).then(|| t.clone())
        };
        // Required keys a misspelt key already stands for.
        let mut accounted: HashSet<String> = HashSet::new();
        for ((key, quoted), (k, val)) in keys.iter().zip(items.iter()) {
            match props.get(*key) {
                Some(t) => {
                    path.push(Step::Property(key));
                    self.value(t, val, path, depth + 1);
                    path.pop();
                }
                None => {
                    let names = props
                        .keys()
                        .map(|n| n.as_ref())
                        .filter(|n| !written.contains(n));
                    let best = suggest::candidates(key, names).first().copied();
                    let required = best.and_then(|b| required_missing(b).map(|t| (b, t)));
                    let top = path.is_empty() && self.subject.name.is_empty();
                    let key_text = shown_key(key);
                    let mut summary = if top {
                        format!("unknown {} `{key_text}`", self.subject.noun)
                    } else {
                        let place = place(self.subject, &path_string(path))
                            .unwrap_or_else(|| self.subject.noun.to_string());
                        format!("unknown key `{key_text}` in {place}")
                    };
                    if let Some(b) = best {
                        summary.push_str(&format!(", did you mean `{}`?", shown_key(b)));
                    }
                    let mut d = match &required {
                        Some((b, t)) => {
                            accounted.insert(b.to_string());
                            summary.push_str(&format!(
                                " (`{}` of type {} is required)",
                                shown_key(b),
                                expected_text(t)
                            ));
                            Diagnostic::error(
                                codes::UNKNOWN_OBJECT_KEY,
                                (self.span)(k.range()),
                                summary,
                            )
                        }
                        None => Diagnostic::new(
                            Severity::Warning,
                            codes::UNKNOWN_OBJECT_KEY,
                            (self.span)(k.range()),
                            summary,
                        ),
                    };
                    // The label names the type that has no such key.
                    d = d.with_detail(match o.name() {
                        Some(token) => format!(
                            "{} has no key `{}`",
                            pcl_diagnostics::elide_quoted(token),
                            shown_key(key)
                        ),
                        None if top => {
                            format!("no {} is called `{}`", self.subject.noun, shown_key(key))
                        }
                        None => format!("the object type has no key `{}`", shown_key(key)),
                    });
                    if let Some(b) = best {
                        // A quoted key, or a name that is no identifier,
                        // is written as a string.
                        let replacement = if *quoted || !is_hcl_identifier(b) {
                            go_quote(b)
                        } else {
                            b.to_string()
                        };
                        d = d.with_fix((self.span)(k.range()), replacement);
                    }
                    self.out.push(d);
                }
            }
        }
        for (name, t) in props.iter().filter(|_| self.errors) {
            if accounted.contains(name.as_ref()) || required_missing(name).is_none() {
                continue;
            }
            let top = path.is_empty() && self.subject.name.is_empty();
            let summary = if top {
                format!(
                    "missing required {} `{name}` of type {}",
                    self.subject.noun,
                    expected_text(t)
                )
            } else {
                let place = place(self.subject, &path_string(path));
                let what = format!("missing required key `{name}` of type {}", expected_text(t));
                with_place(place.as_deref(), &what)
            };
            let label = format!("`{name}` is not set");
            self.out.push(
                Diagnostic::error(self.subject.mismatch, (self.span)(v.range()), summary)
                    .with_detail(label),
            );
        }
        true
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::{bind_expr, BindContext, EmptyEnvironment, ExprOptions, Scope};
    use pcl_diagnostics::{FileId, SourceMap};
    use pcl_types::{input_type, ObjectOptions};

    fn named(token: &str, props: Vec<(&str, Type)>) -> Type {
        Type::object_with(
            props,
            ObjectOptions {
                name: Some(token.into()),
                ..ObjectOptions::default()
            },
        )
    }

    fn ingress() -> Type {
        named(
            "aws:ec2:Ingress",
            vec![
                ("fromPort", Type::int()),
                ("toPort", Type::int()),
                ("protocol", Type::optional(Type::string())),
            ],
        )
    }

    /// Binds `text` and fits it to `InputType(dest)` as property `name`.
    fn fit(text: &str, dest: &Type, name: &str) -> Vec<Diagnostic> {
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text);
        let parsed = pcl_syntax::parse_expr(file, text);
        assert!(!parsed.has_errors(), "{text}");
        let options = ExprOptions::default();
        let mut cx = BindContext::new(file, &EmptyEnvironment, &options);
        let value = bind_expr(parsed.expr(), &Scope::root(), &mut cx);
        assert!(cx.take_diagnostics().is_empty());
        fit_diagnostics(
            &input_type(dest),
            value.root(),
            Subject {
                noun: "property",
                name,
                mismatch: codes::TYPE_NOT_CONVERTIBLE,
            },
            &|r| Span::new(FileId(0), r),
        )
    }

    fn summaries(ds: &[Diagnostic]) -> Vec<String> {
        ds.iter()
            .map(|d| format!("{}: {}", d.severity, d.summary))
            .collect()
    }

    #[test]
    fn each_offending_key_has_its_own_diagnostic() {
        let dest = Type::list(ingress());
        let text =
            "[{ fromPort = 1, toPort = [2] }, { fromPort = \"x\", toPort = {}, protcol = 1 }]";
        let ds = fit(text, &dest, "ingress");
        assert_eq!(
            summaries(&ds),
            [
                "error: property `ingress[0].toPort`: expected int, found a list of 1 number",
                "error: property `ingress[1].toPort`: expected int, found {}",
                "warning: unknown key `protcol` in property `ingress[1]`, did you mean `protocol`?",
            ]
        );
        // Each at its own value, the unknown key at the key, with a fix.
        let at = |d: &Diagnostic| text.get(d.span.range.start as usize..d.span.range.end as usize);
        assert_eq!(at(&ds[0]), Some("[2]"));
        assert_eq!(at(&ds[1]), Some("{}"));
        assert_eq!(at(&ds[2]), Some("protcol"));
        assert_eq!(ds[2].fixes().len(), 1);
        assert_eq!(ds[2].fixes()[0].replacement, "protocol");
        assert_eq!(ds[2].fixes()[0].span, ds[2].span);
    }

    #[test]
    fn a_misspelt_required_key_is_one_error() {
        let ds = fit(
            "[{ fromPrt = 1, toPort = 2 }]",
            &Type::list(ingress()),
            "ingress",
        );
        assert_eq!(
            summaries(&ds),
            ["error: unknown key `fromPrt` in property `ingress[0]`, did you mean `fromPort`? (`fromPort` of type int is required)"]
        );
        assert_eq!(ds[0].fixes()[0].replacement, "fromPort");
        // A quoted key is replaced by a quoted key.
        let ds = fit(
            "[{ \"fromPrt\" = 1, toPort = 2 }]",
            &Type::list(ingress()),
            "ingress",
        );
        assert_eq!(ds[0].fixes()[0].replacement, "\"fromPort\"");
        // A key that is simply missing is named as missing.
        let ds = fit("[{ toPort = 2 }]", &Type::list(ingress()), "ingress");
        assert_eq!(
            summaries(&ds),
            ["error: property `ingress[0]`: missing required key `fromPort` of type int"]
        );
    }

    #[test]
    fn keys_from_the_input_are_escaped() {
        let ds = fit(
            "[{ fromPort = 1, toPort = 2, \"\\u001b[31mred\" = 3 }]",
            &Type::list(ingress()),
            "i",
        );
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert!(!ds[0].summary.contains('\u{1b}'), "{}", ds[0].summary);
        assert!(ds[0].summary.contains("\\x1b[31mred"), "{}", ds[0].summary);
    }

    #[test]
    fn the_verdict_is_the_conversions() {
        // Converts: only warnings.
        let ds = fit(
            "[{ fromPort = 1, toPort = 2, extra = 3 }]",
            &Type::list(ingress()),
            "i",
        );
        assert!(ds.iter().all(|d| !d.is_error()), "{ds:?}");
        assert_eq!(ds.len(), 1);
        // Does not convert and is not a construction: one error, whole.
        let ds = fit("\"x\"", &Type::list(Type::string()), "names");
        assert_eq!(
            summaries(&ds),
            ["error: property `names`: expected list(string), found string \"x\""]
        );
        // A union destination is judged whole by the conversion.
        let u = Type::union([Type::list(Type::int()), Type::map(Type::int())]);
        let ds = fit("true", &u, "u");
        assert_eq!(ds.len(), 1);
        assert!(ds[0].is_error());
    }

    #[test]
    fn deep_values_stop_at_the_limit() {
        // 300 nested lists of strings against 300 nested list types, wrong
        // at the bottom: the walk stops at MAX_FIT_DEPTH and the conversion
        // judges the rest; one error, no overflow.
        let depth = 300;
        let mut dest = Type::string();
        for _ in 0..depth {
            dest = Type::list(dest);
        }
        let text = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text.as_str());
        let parsed = pcl_syntax::parse_expr(file, &text);
        let options = ExprOptions::default();
        let mut cx = BindContext::new(file, &EmptyEnvironment, &options);
        let value = bind_expr(parsed.expr(), &Scope::root(), &mut cx);
        let ds = fit_diagnostics(
            &dest,
            value.root(),
            Subject {
                noun: "property",
                name: "p",
                mismatch: codes::TYPE_NOT_CONVERTIBLE,
            },
            &|r| Span::new(FileId(0), r),
        );
        assert!(ds.len() <= 1, "{}", ds.len());
    }

    #[test]
    fn many_problems_are_linear() {
        // Up to 20,000 elements each with a misspelt key: one warning each,
        // and the work (counted in allocations) grows with the count, not
        // its square.
        let count = |n: usize| {
            let items: Vec<String> = (0..n)
                .map(|i| format!("{{ fromPort = {i}, toPort = 1, protcol = \"tcp\" }}"))
                .collect();
            let text = format!("[{}]", items.join(", "));
            let (ds, allocations) =
                pcl_testkit::allocations(|| fit(&text, &Type::list(ingress()), "ingress"));
            assert_eq!(ds.len(), n);
            allocations
        };
        pcl_testkit::assert_linear(
            "misspelt keys: allocations",
            [count(1_250), count(5_000), count(20_000)],
        );
    }
}
