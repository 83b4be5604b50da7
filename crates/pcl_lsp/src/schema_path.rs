//! Following a path of keys through schema types: from a resource's or a
//! function's properties, through lists, maps, unions and named object
//! types (also of other packages), to the property a nested key sets, the
//! properties an object written there may set, or the values of an enum.
//!
//! Hover on a nested key, completion of nested keys and of enum values
//! read the schema through here. Every walk is a loop over a work list
//! with a budget ([`MAX_EXPANSIONS`] types per step, [`MAX_PATH`] steps),
//! never recursion, so a schema whose types refer to themselves, or a
//! path of any length, costs a bounded amount.

use std::sync::Arc;

use pcl_schema::{
    EnumType, Package, Property, Resolved, SchemaLoader, SchemaType, SchemaTypeKind, TypeDef,
};

/// The most types one step expands (union members, list and map
/// elements, references).
pub(crate) const MAX_EXPANSIONS: usize = 256;

/// The longest path followed; deeper keys are not described.
pub(crate) const MAX_PATH: usize = 64;

/// What a schema type holds once lists, unions and references are seen
/// through.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    /// An object type, with the package that defines it.
    Object(Arc<Package>, Arc<TypeDef>),
    /// A map: any key, of this element type.
    Map(Arc<Package>, SchemaType),
    /// An enum type.
    Enum(Arc<TypeDef>),
}

impl Shape {
    fn object(&self) -> Option<&pcl_schema::ObjectType> {
        match self {
            Shape::Object(_, def) => match &**def {
                TypeDef::Object(o) => Some(o),
                TypeDef::Enum(_) => None,
            },
            _ => None,
        }
    }
}

/// A property found at the end of a path, with the package its type's
/// references are resolved in. A key of a map has no property of its
/// own: `property` is `None` and `ty` is the map's element type.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub(crate) package: Arc<Package>,
    pub(crate) ty: SchemaType,
    pub(crate) property: Option<Property>,
}

/// The shapes `ty` holds (lists, unions and references seen through),
/// at most [`MAX_EXPANSIONS`] types looked at.
pub(crate) fn shapes(
    package: &Arc<Package>,
    ty: &SchemaType,
    loader: &dyn SchemaLoader,
) -> Vec<Shape> {
    let mut out = Vec::new();
    let mut pending = vec![(Arc::clone(package), ty.clone())];
    let mut budget = MAX_EXPANSIONS;
    while let Some((owner, ty)) = pending.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        match ty.kind {
            SchemaTypeKind::Array(inner) => pending.push((owner, *inner)),
            SchemaTypeKind::Map(inner) => out.push(Shape::Map(owner, *inner)),
            // Reversed so that the members come out in schema order.
            SchemaTypeKind::Union(u) => {
                pending.extend(u.members.into_iter().rev().map(|m| (Arc::clone(&owner), m)));
            }
            SchemaTypeKind::Ref(reference) => {
                let Ok(found) = owner.resolve_ref(&reference, loader) else {
                    continue;
                };
                if let Resolved::TypeDef(def) = found.resolved {
                    match &*def {
                        TypeDef::Object(_) => out.push(Shape::Object(found.package, def)),
                        TypeDef::Enum(_) => out.push(Shape::Enum(def)),
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The property `path` names, starting at `root` (a resource's inputs, a
/// function's inputs): each further key is a property of an object type
/// the previous one holds, or a key of a map it holds.
pub(crate) fn property_at<'a>(
    package: &Arc<Package>,
    root: impl Fn(&str) -> Option<&'a Property>,
    path: &[String],
    loader: &dyn SchemaLoader,
) -> Option<Found> {
    if path.len() > MAX_PATH {
        return None;
    }
    let (first, rest) = path.split_first()?;
    let first = root(first)?;
    let mut here = Found {
        package: Arc::clone(package),
        ty: first.ty.clone(),
        property: Some(first.clone()),
    };
    for key in rest {
        let shapes = shapes(&here.package, &here.ty, loader);
        let in_object = shapes.iter().find_map(|s| match s {
            Shape::Object(owner, _) => s.object()?.property(key).map(|p| (owner, p)),
            _ => None,
        });
        here = match in_object {
            Some((owner, p)) => Found {
                package: Arc::clone(owner),
                ty: p.ty.clone(),
                property: Some(p.clone()),
            },
            None => {
                let (owner, element) = shapes.iter().find_map(|s| match s {
                    Shape::Map(owner, element) => Some((owner, element)),
                    _ => None,
                })?;
                Found {
                    package: Arc::clone(owner),
                    ty: element.clone(),
                    property: None,
                }
            }
        };
    }
    Some(here)
}

/// The properties an object written at `found` may set: those of every
/// object type its type holds, each name once, in schema order. `None`
/// when it holds no object type (a map's keys are free).
pub(crate) fn object_properties(found: &Found, loader: &dyn SchemaLoader) -> Option<Vec<Property>> {
    let mut out: Vec<Property> = Vec::new();
    let mut any = false;
    for shape in shapes(&found.package, &found.ty, loader) {
        if let Some(object) = shape.object() {
            any = true;
            for p in object.properties.values() {
                if !out.iter().any(|o| o.name == p.name) {
                    out.push(p.clone());
                }
            }
        }
    }
    any.then_some(out)
}

/// The enum types `found`'s type holds.
pub(crate) fn enums(found: &Found, loader: &dyn SchemaLoader) -> Vec<EnumType> {
    shapes(&found.package, &found.ty, loader)
        .into_iter()
        .filter_map(|s| match s {
            Shape::Enum(def) => match &*def {
                TypeDef::Enum(e) => Some(e.clone()),
                TypeDef::Object(_) => None,
            },
            _ => None,
        })
        .collect()
}

/// A property as hover shows it: `name: type` in PCL's words (the
/// schema's type, without the input's `output(…)` wrapping), required or
/// optional, whether it accepts outputs, and its description.
pub(crate) fn describe(name: &str, ty: &SchemaType, property: Option<&Property>) -> String {
    let mut text = format!("```pcl\n{name}: {}\n```", crate::completion::type_label(ty));
    if let Some(p) = property {
        let need = if p.required { "required" } else { "optional" };
        text.push_str("\n\n");
        text.push_str(need);
        if !p.plain() {
            text.push_str(", accepts outputs");
        }
        if let Some(d) = &p.description {
            text.push_str("\n\n");
            text.push_str(d);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A type that holds itself (`Node.next: Node`, `Node.children:
    /// list(Node | map(Node))`) and an enum.
    const SELF: &str = r##"{
      "name": "rec",
      "version": "1.0.0",
      "types": {
        "rec:index:Node": {
          "type": "object",
          "properties": {
            "next": { "$ref": "#/types/rec:index:Node", "description": "The next one." },
            "children": { "type": "array", "items": { "oneOf": [
              { "$ref": "#/types/rec:index:Node" },
              { "type": "object", "additionalProperties": { "$ref": "#/types/rec:index:Node" } }
            ] } },
            "kind": { "$ref": "#/types/rec:index:Kind" }
          },
          "required": ["kind"]
        },
        "rec:index:Kind": { "type": "string", "enum": [{ "value": "a" }, { "value": "b" }] }
      },
      "resources": {
        "rec:index:Tree": { "inputProperties": { "root": { "$ref": "#/types/rec:index:Node" } } }
      }
    }"##;

    fn setup() -> (
        pcl_schema::MemoryLoader,
        Arc<Package>,
        Arc<pcl_schema::Resource>,
    ) {
        let mut loader = pcl_schema::MemoryLoader::new();
        let package = loader.add(SELF).unwrap_or_else(|e| panic!("{e}"));
        let tree = package
            .resource("rec:index:Tree")
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("no Tree"));
        (loader, package, tree)
    }

    fn path(keys: &[&str]) -> Vec<String> {
        keys.iter().map(|k| k.to_string()).collect()
    }

    #[test]
    fn paths_go_through_references_lists_unions_and_maps() {
        let (loader, package, tree) = setup();
        let at = |keys: &[&str]| property_at(&package, |k| tree.input(k), &path(keys), &loader);
        let found = at(&["root", "next", "children", "next"]).unwrap_or_else(|| panic!("found"));
        assert_eq!(
            found.property.as_ref().map(|p| p.name.as_str()),
            Some("next")
        );
        assert_eq!(
            describe("next", &found.ty, found.property.as_ref()),
            "```pcl\nnext: Node\n```\n\noptional, accepts outputs\n\nThe next one."
        );
        // A map's key (any name), then a property of its element.
        let found = at(&["root", "children", "anyKey", "kind"]).unwrap_or_else(|| panic!("found"));
        let kinds = enums(&found, &loader);
        let values: Vec<String> = kinds
            .iter()
            .flat_map(|e| e.values.iter().map(|v| v.value.to_string()))
            .collect();
        assert_eq!(values, ["\"a\"", "\"b\""]);
        let props = object_properties(&at(&["root"]).unwrap_or_else(|| panic!("root")), &loader);
        let names: Vec<String> = props.into_iter().flatten().map(|p| p.name).collect();
        assert_eq!(names, ["next", "children", "kind"]);
        assert!(at(&["root", "nothing"]).is_none());
    }

    /// A path as long as the limit resolves through a type that holds
    /// itself; one longer is refused at once, whatever its length.
    #[test]
    fn path_length_is_bounded() {
        let (loader, package, tree) = setup();
        let mut keys = vec!["root".to_string()];
        keys.extend(std::iter::repeat_n("next".to_string(), MAX_PATH - 1));
        assert!(property_at(&package, |k| tree.input(k), &keys, &loader).is_some());
        keys.push("next".to_string());
        assert!(property_at(&package, |k| tree.input(k), &keys, &loader).is_none());
        keys.extend(std::iter::repeat_n("next".to_string(), 100_000));
        assert!(property_at(&package, |k| tree.input(k), &keys, &loader).is_none());
    }
}
