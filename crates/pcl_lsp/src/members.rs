//! Completion after a `.`: the properties of what a traversal names (a
//! resource's outputs, an invoke's result, a component's outputs, an
//! object-typed config or local, `range.key`/`range.value`), step by step,
//! from the types the last analysis gave each declaration.
//!
//! Types are read as the binder built them; where an object type came from
//! a schema (it carries the binder's schema annotation), the schema adds
//! each property's description and whether it is required. Every walk is a
//! loop over a work list with a budget ([`MAX_EXPANSIONS`] types per step),
//! never recursion, so a type that refers to itself costs a bounded amount.

use lsp_types::{CompletionItem, CompletionItemKind};
use pcl_binder::{NodeKind, RangeKind, SchemaObjectAnnotation, SchemaResourceAnnotation};
use pcl_schema::{PackageDescriptor, Property, SchemaLoader, TypeDef};
use pcl_types::{Type, TypeKind};

use crate::completion::Inputs;
use crate::context::{Cursor, Step};

/// The most types one step looks at (union members, output wrappers).
pub(crate) const MAX_EXPANSIONS: usize = 256;

/// The items after `root.steps.`.
pub(crate) fn complete(
    cursor: &Cursor,
    inputs: &Inputs<'_>,
    root: &str,
    steps: &[Step],
) -> Vec<CompletionItem> {
    // A `for` variable: its type is not known from the text alone.
    if cursor.for_vars.iter().any(|v| v == root) {
        return Vec::new();
    }
    let range = inputs.node.and_then(|n| match &n.kind {
        NodeKind::Resource(r) => r.range.as_ref(),
        NodeKind::Component(c) => c.range.as_ref(),
        _ => None,
    });
    let start = match range {
        Some(kind) if root == "range" && cursor.in_resource => {
            let (key, value) = range_types(kind);
            match steps.split_first() {
                None => {
                    return vec![
                        field("key", &key, None, "the key of this instance"),
                        field("value", &value, None, "the value of this instance"),
                    ];
                }
                Some((Step::Attr(k), rest)) if k == "key" => (key, rest),
                Some((Step::Attr(k), rest)) if k == "value" => (value, rest),
                Some(_) => return Vec::new(),
            }
        }
        _ => {
            let Some(node) = inputs
                .program
                .and_then(|p| p.nodes().iter().find(|n| n.name.as_str() == root))
            else {
                return Vec::new();
            };
            if matches!(node.kind, NodeKind::Pulumi(_) | NodeKind::Hook(_)) {
                return Vec::new();
            }
            (node.ty.clone(), steps)
        }
    };
    let (ty, rest) = start;
    match walk(&ty, rest, false) {
        Some(ty) => properties(&ty, inputs.schemas),
        None => Vec::new(),
    }
}

/// The types of `range.key` and `range.value` for a range option.
fn range_types(kind: &RangeKind) -> (Type, Type) {
    match kind {
        RangeKind::Bool => (Type::none(), Type::none()),
        RangeKind::Count => (Type::int(), Type::int()),
        RangeKind::List { key, value } | RangeKind::Map { key, value } => {
            (key.clone(), value.clone())
        }
    }
}

/// The types `ty` stands for once outputs, promises and unions are seen
/// through (and, with `through_lists`, lists and sets), at most
/// [`MAX_EXPANSIONS`] looked at.
fn expand(ty: &Type, through_lists: bool) -> Vec<Type> {
    let mut out = Vec::new();
    let mut pending = vec![ty.clone()];
    let mut budget = MAX_EXPANSIONS;
    while let Some(t) = pending.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        match t.kind() {
            TypeKind::Output(e) | TypeKind::Promise(e) => pending.push(e.clone()),
            TypeKind::List(e) | TypeKind::Set(e) if through_lists => pending.push(e.clone()),
            TypeKind::Union(u) => pending.extend(u.elements().iter().rev().cloned()),
            TypeKind::None => {}
            _ => out.push(t),
        }
    }
    out
}

/// The type `steps` lead to from `ty`: `.name` a property of an object
/// (or any key of a map), `[…]` an element. With `through_lists`, a
/// property step also passes through lists (the keys of an object
/// written in a list element).
pub(crate) fn walk(ty: &Type, steps: &[Step], through_lists: bool) -> Option<Type> {
    let mut here = ty.clone();
    for step in steps {
        let mut next = None;
        for t in expand(&here, through_lists && matches!(step, Step::Attr(_))) {
            next = match (t.kind(), step) {
                (TypeKind::Object(def), Step::Attr(name)) => def.property(name),
                (TypeKind::Map(e), _) => Some(e.clone()),
                (TypeKind::List(e) | TypeKind::Set(e), Step::Index) => Some(e.clone()),
                (TypeKind::Tuple(es), Step::Index) => es.first().cloned(),
                _ => None,
            };
            if next.is_some() {
                break;
            }
        }
        here = next?;
    }
    Some(here)
}

/// The properties of the object types `ty` stands for, each name once,
/// with the schema's description and required marker where the object
/// came from a schema.
pub(crate) fn properties(ty: &Type, schemas: &dyn SchemaLoader) -> Vec<CompletionItem> {
    let mut out: Vec<CompletionItem> = Vec::new();
    for t in expand(ty, false) {
        let TypeKind::Object(def) = t.kind() else {
            continue;
        };
        let described = schema_properties(def.annotations(), schemas);
        for (name, prop_ty) in &def.properties() {
            if out.iter().any(|i| i.label == **name) {
                continue;
            }
            let schema = described
                .as_ref()
                .and_then(|props| props.iter().find(|p| p.name == **name));
            out.push(field(name, prop_ty, schema, ""));
        }
    }
    out
}

/// One property as completion offers it; `schema` (when the object came
/// from one) gives its type in the schema's words, required and
/// description.
fn field(name: &str, ty: &Type, schema: Option<&Property>, about: &str) -> CompletionItem {
    let (detail, documentation) = match schema {
        Some(p) => {
            let label = crate::completion::type_label(&p.ty);
            let detail = if p.required {
                format!("{label} (required)")
            } else {
                label
            };
            (detail, p.description.clone())
        }
        None => (
            plain_type(ty),
            (!about.is_empty()).then(|| about.to_string()),
        ),
    };
    CompletionItem {
        label: name.to_string(),
        kind: Some(CompletionItemKind::FIELD),
        detail: Some(detail),
        documentation: documentation.map(|d| {
            lsp_types::Documentation::MarkupContent(lsp_types::MarkupContent {
                kind: lsp_types::MarkupKind::Markdown,
                value: d,
            })
        }),
        deprecated: schema
            .and_then(|p| p.deprecation_message.as_ref())
            .map(|_| true),
        ..CompletionItem::default()
    }
}

/// The schema properties behind an object type the binder built from a
/// schema: a named object type's, or a resource's outputs or inputs.
fn schema_properties(
    annotations: &pcl_types::Annotations,
    schemas: &dyn SchemaLoader,
) -> Option<Vec<Property>> {
    if let Some(a) = annotations.first::<SchemaObjectAnnotation>() {
        let package = schemas
            .load(&PackageDescriptor::new(a.package.clone()))
            .ok()?;
        let def = match package.type_def(&a.token) {
            Some(def) => def.ok()?,
            None => package.lookup_type(&a.token).ok()??.item,
        };
        return match &*def {
            TypeDef::Object(o) => Some(o.properties.values().cloned().collect()),
            TypeDef::Enum(_) => None,
        };
    }
    let a = annotations.first::<SchemaResourceAnnotation>()?;
    let package = schemas
        .load(&PackageDescriptor::new(a.package.clone()))
        .ok()?;
    let resource = package.resource(&a.token)?.ok()?;
    let props = if a.inputs {
        &resource.input_properties
    } else {
        &resource.properties
    };
    Some(props.values().cloned().collect())
}

/// A type in the words an author writes: outputs, promises, the input's
/// `union(T, output(T))` and an optional `union(T, none)` show as `T`.
pub(crate) fn plain_type(ty: &Type) -> String {
    let mut here = ty.clone();
    for _ in 0..MAX_EXPANSIONS {
        let next = match here.kind() {
            TypeKind::Output(e) | TypeKind::Promise(e) => e.clone(),
            TypeKind::Union(u) => match u.elements() {
                [a, b] => match (a.kind(), b.kind()) {
                    (_, TypeKind::None) => a.clone(),
                    (TypeKind::None, _) => b.clone(),
                    (_, TypeKind::Output(e)) if e.to_string() == a.to_string() => a.clone(),
                    (TypeKind::Output(e), _) if e.to_string() == b.to_string() => b.clone(),
                    _ => break,
                },
                _ => break,
            },
            _ => break,
        };
        here = next;
    }
    here.to_string()
}
