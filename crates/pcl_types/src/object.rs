//! Object types: interned definitions with identity, optional late-filled
//! properties (for recursive schema types), host annotations and the strict
//! flag.
//!
//! An object type is a handle to an [`ObjectDef`]. The definition's property
//! map is set exactly once, possibly after the handle has been embedded in
//! other types; that is how a schema type whose properties mention the type
//! itself is built (see the crate documentation for why this is sound).

use std::any::Any;
use std::fmt;
use std::sync::{Arc, OnceLock};

use indexmap::IndexMap;

use crate::ty::Type;

/// One opaque host value attached to an object or union type (the binder
/// stores the schema type it came from).
pub type Annotation = Arc<dyn Any + Send + Sync>;

/// An ordered list of annotations. Ignored by equality, conversion and
/// unification.
#[derive(Clone, Default)]
pub struct Annotations(Option<Arc<[Annotation]>>);

impl Annotations {
    pub fn none() -> Annotations {
        Annotations(None)
    }

    pub fn new(items: Vec<Annotation>) -> Annotations {
        if items.is_empty() {
            Annotations(None)
        } else {
            Annotations(Some(items.into()))
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Annotation> {
        self.0.iter().flat_map(|a| a.iter())
    }

    /// A copy with `extra` appended.
    pub fn concat(&self, extra: &Annotations) -> Annotations {
        let items: Vec<Annotation> = self.iter().chain(extra.iter()).cloned().collect();
        Annotations::new(items)
    }

    /// The first annotation of concrete type `T` (`GetObjectTypeAnnotation`).
    pub fn first<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.iter().find_map(|a| a.downcast_ref::<T>())
    }

    /// The first annotation accepted by `pred` (used for "implements an
    /// interface" style queries).
    pub fn find(
        &self,
        mut pred: impl FnMut(&(dyn Any + Send + Sync)) -> bool,
    ) -> Option<&Annotation> {
        self.iter().find(|a| pred(a.as_ref()))
    }
}

impl fmt::Debug for Annotations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Annotations({})", self.iter().count())
    }
}

/// Property map of an object type, sorted by name. Hashed with foldhash
/// (iteration order is the map's order, never the hasher's).
pub type Properties = IndexMap<Arc<str>, Type, foldhash::fast::RandomState>;

/// The definition behind an object type.
pub struct ObjectDef {
    props: OnceLock<Properties>,
    annotations: Annotations,
    strict: bool,
    name: Option<Arc<str>>,
    /// The printed form once final (`Some(None)`: final but not kept); see
    /// `print::cached_form`.
    printed: OnceLock<Option<Arc<str>>>,
}

/// Options for a new object type.
#[derive(Clone, Debug)]
pub struct ObjectOptions {
    pub annotations: Annotations,
    /// `false` downgrades unknown-property and non-string-key traversal
    /// errors to warnings.
    pub strict: bool,
    /// The schema token, for named printing in diagnostics.
    pub name: Option<Arc<str>>,
}

impl Default for ObjectOptions {
    fn default() -> Self {
        ObjectOptions {
            annotations: Annotations::none(),
            strict: true,
            name: None,
        }
    }
}

impl ObjectDef {
    pub(crate) fn new(props: Option<Properties>, opts: ObjectOptions) -> ObjectDef {
        let cell = OnceLock::new();
        if let Some(p) = props {
            let _ = cell.set(sorted(p));
        }
        ObjectDef {
            props: cell,
            annotations: opts.annotations,
            strict: opts.strict,
            name: opts.name,
            printed: OnceLock::new(),
        }
    }

    /// The remembered printed form, if it was decided.
    pub(crate) fn printed_form(&self) -> Option<&Option<Arc<str>>> {
        self.printed.get()
    }

    /// Remembers the printed form (first answer wins; it is the same).
    pub(crate) fn set_printed_form(&self, form: Option<Arc<str>>) {
        let _ = self.printed.set(form);
    }

    /// The properties (empty until a deferred object is defined).
    pub fn properties(&self) -> &Properties {
        static EMPTY: OnceLock<Properties> = OnceLock::new();
        self.props
            .get()
            .unwrap_or_else(|| EMPTY.get_or_init(Properties::default))
    }

    pub fn property(&self, name: &str) -> Option<&Type> {
        self.properties().get(name)
    }

    pub fn is_defined(&self) -> bool {
        self.props.get().is_some()
    }

    /// Moves the properties out (for [`crate::Type`]'s iterative drop).
    pub(crate) fn take_properties(&mut self) -> Option<Properties> {
        self.props.take()
    }

    pub(crate) fn define(&self, props: Properties) -> bool {
        self.props.set(sorted(props)).is_ok()
    }

    pub fn annotations(&self) -> &Annotations {
        &self.annotations
    }

    pub fn is_strict(&self) -> bool {
        self.strict
    }

    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    pub(crate) fn options(&self) -> ObjectOptions {
        ObjectOptions {
            annotations: self.annotations.clone(),
            strict: self.strict,
            name: self.name.clone(),
        }
    }
}

fn sorted(mut p: Properties) -> Properties {
    p.sort_keys();
    p
}

impl fmt::Debug for ObjectDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.properties().keys().map(|k| k.as_ref()).collect();
        f.debug_struct("ObjectDef")
            .field("properties", &names)
            .field("strict", &self.strict)
            .field("name", &self.name)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct X(u32);
    #[derive(Debug)]
    struct Z;

    #[test]
    fn first_annotation_of_type() {
        let a = Annotations::new(vec![Arc::new(Z), Arc::new(X(1)), Arc::new(X(2))]);
        assert_eq!(a.first::<X>().map(|x| x.0), Some(1));
        assert!(a.first::<String>().is_none());
        assert!(a.find(|v| v.is::<Z>()).is_some());
    }
}
