//! Traversal: the type of `x.name` / `x[key]` given the type of `x`
//! (types.md §4).
//!
//! Defects handled here: a literal tuple index equal to the length is
//! rejected with `tuple index must be between 0 and <len>` instead of
//! crashing (`tuple-index-off-by-one`); a case-insensitive property match
//! among several candidates picks the first in sorted order. Tuple keys must
//! be *assignable* to `number` (`tuple-key-assignable-only`, replicated).
//!
//! Deliberate difference: a failed union traversal reports one error (the
//! failing element's when only one failed, else the union's), where the
//! reference reports every element's error and then the union's.

use std::sync::Arc;

use crate::conversion::{assignable_from, conversion_from};
use crate::error::{codes, TypeDiagnostic};
use crate::eventual::input_type;
use crate::ty::{Type, TypeKind};
use crate::value::Value;
use crate::MAX_TYPE_DEPTH;

/// One traversal step.
#[derive(Clone, Debug, PartialEq)]
pub enum Traverser {
    /// `.name` (shared: a bound step holds the same name)
    Attr(Arc<str>),
    /// `[literal]`
    Literal(Value),
    /// `[expr]` with an unknown key of this type.
    Typed(Type),
}

impl Traverser {
    /// The key's type (types.md §4.1): literal numbers are `number`.
    pub fn key_type(&self) -> Type {
        match self {
            Traverser::Attr(_) => Type::string(),
            Traverser::Literal(v) => literal_key_type(v),
            Traverser::Typed(t) => t.clone(),
        }
    }

    fn key_value(&self) -> Option<Value> {
        match self {
            Traverser::Attr(n) => Some(Value::String(n.clone())),
            Traverser::Literal(v) => Some(v.clone()),
            Traverser::Typed(_) => None,
        }
    }
}

fn literal_key_type(v: &Value) -> Type {
    match v {
        Value::Null => Type::none(),
        Value::Unknown => Type::dynamic(),
        Value::Bool(_) => Type::bool(),
        Value::Number(_) => Type::number(),
        Value::String(_) => Type::string(),
        Value::List(items) => {
            Type::list(items.first().map_or_else(Type::dynamic, literal_key_type))
        }
    }
}

/// The result of one traversal step.
#[derive(Clone, Debug, PartialEq)]
pub struct Traversal {
    pub ty: Type,
    pub diagnostics: Vec<TypeDiagnostic>,
}

impl Traversal {
    fn ok(ty: Type) -> Traversal {
        Traversal {
            ty,
            diagnostics: Vec::new(),
        }
    }

    fn fail(ty: Type, d: TypeDiagnostic) -> Traversal {
        Traversal {
            ty,
            diagnostics: vec![d],
        }
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(TypeDiagnostic::is_error)
    }
}

fn cannot_traverse(t: &Type) -> TypeDiagnostic {
    TypeDiagnostic::error(
        codes::CANNOT_TRAVERSE,
        format!(
            "cannot traverse value of type {}",
            crate::print::message_type_text(t, crate::message::MAX_TYPE_CHARS)
        ),
    )
}

/// `receiver.Traverse(step)`.
pub fn traverse(receiver: &Type, step: &Traverser) -> Traversal {
    traverse_in(receiver, step, 0)
}

impl Type {
    /// `self.Traverse(step)`.
    pub fn traverse(&self, step: &Traverser) -> Traversal {
        traverse(self, step)
    }
}

fn traverse_in(t: &Type, step: &Traverser, depth: usize) -> Traversal {
    if depth > MAX_TYPE_DEPTH {
        return Traversal::fail(
            Type::dynamic(),
            TypeDiagnostic::error(
                codes::TYPE_TOO_DEEP,
                "type is nested too deeply to traverse",
            ),
        );
    }
    use TypeKind as K;
    match t.kind() {
        K::Dynamic => Traversal::ok(Type::dynamic()),
        K::None => Traversal::fail(
            Type::none(),
            TypeDiagnostic::warning(codes::CANNOT_TRAVERSE, "cannot traverse value of type none"),
        ),
        K::Bool | K::Int | K::Number | K::String | K::Id | K::Opaque(_) | K::Set(_) => {
            Traversal::fail(Type::dynamic(), cannot_traverse(t))
        }
        K::Const(c) => traverse_in(c.underlying(), step, depth + 1),
        K::Enum(_) => Traversal::ok(t.clone()),
        K::List(e) => {
            let mut r = Traversal::ok(e.clone());
            if !conversion_from(&input_type(&Type::number()), &step.key_type()).exists() {
                r.diagnostics.push(TypeDiagnostic::error(
                    codes::LIST_INDEX_NOT_NUMBER,
                    "list indices must be numbers",
                ));
            }
            r
        }
        K::Map(e) => {
            let mut r = Traversal::ok(e.clone());
            if !conversion_from(&input_type(&Type::string()), &step.key_type()).exists() {
                r.diagnostics.push(TypeDiagnostic::error(
                    codes::MAP_KEY_NOT_STRING,
                    "map keys must be strings",
                ));
            }
            r
        }
        K::Tuple(es) => traverse_tuple(es, step),
        K::Object(_) => traverse_object(t, step),
        K::Promise(e) => {
            let r = traverse_in(e, step, depth + 1);
            Traversal {
                ty: Type::promise(r.ty),
                diagnostics: r.diagnostics,
            }
        }
        K::Output(e) => {
            let r = traverse_in(e, step, depth + 1);
            Traversal {
                ty: Type::output(r.ty),
                diagnostics: r.diagnostics,
            }
        }
        K::Union(u) => {
            let mut contributions: Vec<Type> = Vec::new();
            let mut diags = Vec::new();
            for e in u.elements() {
                if e.is_none() {
                    contributions.push(Type::none());
                    continue;
                }
                let r = traverse_in(e, step, depth + 1);
                if !r.has_errors() {
                    contributions.push(r.ty);
                }
                diags.extend(r.diagnostics);
            }
            match contributions.as_slice() {
                [] => union_fails(t, diags),
                [only] if only.is_none() => union_fails(t, diags),
                [only] => Traversal::ok(only.clone()),
                _ => Traversal::ok(Type::union(contributions)),
            }
        }
    }
}

/// A union none of whose elements (but `none`) can be traversed. One
/// problem, one diagnostic: when exactly one element failed, its error
/// (`unknown property 'x' among [a b]`) is the reason and stands alone;
/// otherwise the union's `cannot traverse value of type union(…)` stands
/// for its elements' errors. The reference reports the elements' errors
/// and the union's (a deliberate difference, see `union_failure_is_one_error`).
fn union_fails(t: &Type, mut diags: Vec<TypeDiagnostic>) -> Traversal {
    if diags.iter().filter(|d| d.is_error()).count() != 1 {
        diags.retain(|d| !d.is_error());
        diags.push(cannot_traverse(t));
    }
    Traversal {
        ty: Type::dynamic(),
        diagnostics: diags,
    }
}

fn traverse_tuple(es: &[Type], step: &Traverser) -> Traversal {
    let not_integer = || {
        Traversal::fail(
            Type::dynamic(),
            TypeDiagnostic::error(
                codes::TUPLE_INDEX_NOT_INTEGER,
                "tuple indices must be integers",
            ),
        )
    };
    if !assignable_from(&input_type(&Type::number()), &step.key_type()) {
        return not_integer();
    }
    match step {
        Traverser::Literal(Value::Number(n)) => {
            let Some(i) = n.to_i64() else {
                return not_integer();
            };
            match usize::try_from(i).ok().and_then(|i| es.get(i)) {
                Some(t) => Traversal::ok(t.clone()),
                None => Traversal::fail(
                    Type::dynamic(),
                    TypeDiagnostic::error(
                        codes::TUPLE_INDEX_OUT_OF_RANGE,
                        format!("tuple index must be between 0 and {}", es.len()),
                    ),
                ),
            }
        }
        _ => Traversal::ok(Type::union(es.iter().cloned())),
    }
}

fn traverse_object(t: &Type, step: &Traverser) -> Traversal {
    let Some(o) = t.as_object() else {
        return Traversal::fail(Type::dynamic(), cannot_traverse(t));
    };
    // `.name` of a property the object has: what the general path below
    // finds too (a name's key type, `string`, always converts to
    // `InputType(string)`), without building the key as a value and a
    // string again.
    if let Traverser::Attr(name) = step {
        if let Some(p) = o.property(name) {
            return Traversal::ok(p.clone());
        }
    }
    let strict = o.is_strict();
    if !conversion_from(&input_type(&Type::string()), &step.key_type()).exists() {
        return Traversal::fail(
            Type::dynamic(),
            TypeDiagnostic::error_if(
                strict,
                codes::OBJECT_KEY_NOT_STRING,
                "object properties must be strings",
            ),
        );
    }
    let Some(key) = step.key_value() else {
        return Traversal::ok(Type::union(o.properties().values().cloned()));
    };
    let Some(name) = key.to_key_string() else {
        return Traversal::fail(
            Type::dynamic(),
            TypeDiagnostic::error_if(
                strict,
                codes::OBJECT_KEY_NOT_STRING,
                "object properties must be strings",
            ),
        );
    };
    if let Some(p) = o.property(&name) {
        return Traversal::ok(p.clone());
    }
    let lower = name.to_lowercase();
    if let Some((actual, p)) = o
        .properties()
        .iter()
        .find(|(k, _)| k.to_lowercase() == lower)
    {
        return Traversal::fail(
            p.clone(),
            TypeDiagnostic::warning(
                codes::CASE_INSENSITIVE_PROPERTY,
                "Found matching case-insensitive property",
            )
            .with_detail(format!("Matched {name} with {actual}")),
        );
    }
    let props = o.properties();
    let names: Vec<&str> = props.keys().map(|k| k.as_ref()).collect();
    Traversal::fail(
        Type::dynamic(),
        TypeDiagnostic::error_if(
            strict,
            codes::UNKNOWN_PROPERTY,
            format!("unknown property `{name}` among [{}]", names.join(" ")),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuple_index_equal_to_length_is_rejected() {
        let t = Type::tuple([Type::int(), Type::string()]);
        let r = traverse(&t, &Traverser::Literal(Value::int(2)));
        assert_eq!(r.ty, Type::dynamic());
        assert_eq!(
            r.diagnostics[0].summary,
            "tuple index must be between 0 and 2"
        );
        let r = traverse(&t, &Traverser::Literal(Value::int(1)));
        assert_eq!(r.ty, Type::string());
        let r = traverse(&t, &Traverser::Typed(Type::int()));
        assert_eq!(r.diagnostics[0].summary, "tuple indices must be integers");
    }

    #[test]
    fn optional_scalar_fails() {
        let r = traverse(
            &Type::optional(Type::string()),
            &Traverser::Attr("foo".into()),
        );
        assert_eq!(r.ty, Type::dynamic());
        let sums: Vec<&str> = r.diagnostics.iter().map(|d| d.summary.as_str()).collect();
        // One error: the only failing element's (the reference adds the
        // union's `cannot traverse value of type union(none, string)`).
        assert_eq!(sums, ["cannot traverse value of type string"]);
    }

    /// A failed union traversal is one error: the failing element's when
    /// only one element failed, else the union's, never both.
    #[test]
    fn union_failure_is_one_error() {
        let object = |name: &str| Type::object([(name, Type::string())]);
        let step = Traverser::Attr("nope".into());
        let summaries = |t: &Type| -> Vec<String> {
            let r = traverse(t, &step);
            assert_eq!(r.ty, Type::dynamic(), "{t}");
            r.diagnostics.into_iter().map(|d| d.summary).collect()
        };
        assert_eq!(
            summaries(&Type::optional(object("b"))),
            ["unknown property `nope` among [b]"]
        );
        let two = Type::union([object("a"), object("b")]);
        assert_eq!(
            summaries(&two),
            [format!("cannot traverse value of type {two}")]
        );
        let scalars = Type::union([Type::int(), Type::string()]);
        assert_eq!(
            summaries(&scalars),
            [format!("cannot traverse value of type {scalars}")]
        );
    }
}
