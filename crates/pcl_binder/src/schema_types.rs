//! Schemas → PCL types (binder.md §6.2), loaded lazily and converted lazily.
//!
//! [`Schemas`] owns the loaded packages of one check (shared with component
//! sub-programs), the `package`-block descriptors, and the converted types
//! of the resources and functions the program uses.
//!
//! Conversion is lazy per object: a resource's (or function's) own input
//! and output objects are built when the program names it, but every
//! schema object type below them (and every resource reference) is a lazy
//! object ([`Type::lazy_object`]) whose properties are converted the first
//! time anything reads them. A program that uses three resources of a big
//! schema converts (and decodes) only the types it looks into. The lazy
//! objects share a [`Converter`] that holds what converting needs after
//! the check returned (codegen walks a bound program's types later): the
//! type-relevant policy, the packages references to other packages
//! resolved to, and one object per (package, token, shape) — held weakly,
//! so that the converter holds no type, no reference cycle forms through
//! it, and a recursive schema type is still a cyclic graph of one object
//! per token (as long as it is alive) rather than an infinite tree.
//!
//! Depth: each object's properties are converted from depth 0, so a
//! schema's objects nest as deep as it says (each level is converted when
//! it is reached); `MAX_SCHEMA_DEPTH` bounds the nesting of arrays, maps
//! and unions *within* one property, below which the type is `dynamic`.
//! (Conversion used to be eager, with one depth count through all objects:
//! objects nested deeper than 64 levels became `dynamic`. They are now
//! converted like any other, which is a deliberate change.) A conversion
//! therefore depends only on what is converted, never on where it started,
//! and a [`crate::SchemaCache`] can keep every conversion for later checks.
//!
//! Used packages (binder.md §6.1): types from other packages reached
//! through a resource's or function's type closure count as used, in the
//! order a depth-first conversion of the closure meets them. Laziness must
//! not change that, so it is computed separately when the resource or
//! function is first used, by [`Reach`]: first by scanning the raw text of
//! the closure's members for references (no decoding); only when that
//! finds a reference to another package does a walk over the decoded
//! closure, in conversion order, find which packages (loading them, so the
//! lazy objects can resolve their references later without the loader).
//! The result is kept with the converted types and recorded again when a
//! later check reuses them.
//!
//! Decisions recorded here:
//! * schema types the schema gets wrong (unknown primitive, array without
//!   items, unresolvable `$ref`) map to `dynamic`, not to the reference's
//!   `none` (QUIRK of §6.2): an accidental `none` makes every assignment
//!   fail, while the schema's problem is not the program's;
//! * a `read` block's `id` accepts an output (`InputType(string)`), fixing the
//!   QUIRK of §5.6.2;
//! * integer `const` values are supported (the reference panics);
//! * a resource reference (`$ref: #/resources/…`) is the referenced
//!   resource's variable type (`id`, `urn` and output-wrapped properties),
//!   so passing a resource where the schema asks for one type-checks; the
//!   reference uses unwrapped properties and hides the resulting mismatch
//!   behind the §5.6.4 quirk.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::{Arc, Mutex, MutexGuard};

use indexmap::IndexMap;
use pcl_expr::ResourceAnnotation;
use pcl_schema::{
    Builtin, Found, Function, LoadError, LookupError, ObjectType, Package, PackageDescriptor,
    Primitive, Property, Resolved, Resource, ReturnType, SchemaLoader, SchemaType, SchemaTypeKind,
    Section, TypeDef,
};
use pcl_types::{
    Annotations, FastHasher, Number, ObjectOptions, Properties, Type, TypeGroup, Value, WeakType,
};

use crate::model::PackageUse;
use crate::policy::BindPolicy;

/// How deep arrays, maps and unions may nest within one property before
/// conversion gives up with `dynamic`.
const MAX_SCHEMA_DEPTH: usize = 64;

/// Attached to object types converted from a schema object type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaObjectAnnotation {
    pub package: String,
    pub token: String,
}

/// Attached to a resource's output object type and input object type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaResourceAnnotation {
    pub package: String,
    pub package_version: Option<String>,
    /// The schema token.
    pub token: String,
    /// True on the input object, false on the output object.
    pub inputs: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shape {
    /// Resource inputs: non-plain properties accept outputs.
    Input,
    /// Values as seen after resolution.
    Plain,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct ObjectKey {
    package: String,
    version: Option<Arc<str>>,
    token: String,
    shape: Shape,
    resource_ref: bool,
}

fn key(pkg: &Package, token: &str, shape: Shape, resource_ref: bool) -> ObjectKey {
    ObjectKey {
        package: pkg.name().to_string(),
        version: version_key(pkg),
        token: token.to_string(),
        shape,
        resource_ref,
    }
}

/// (package, version, token, read block).
type ResourceKey = (String, Option<Arc<str>>, String, bool);
/// (package, version, function or resource token).
type FunctionKey = (String, Option<Arc<str>>, String);

/// Packages (name, version) a conversion reaches in other packages, in
/// the order a depth-first conversion meets them.
type Reached = Arc<[(String, Option<String>)]>;

/// The converted types of one resource.
#[derive(Clone, Debug)]
pub(crate) struct ResourceTypes {
    pub input: Type,
    pub output: Type,
}

/// A schema function as the binder needs it.
#[derive(Clone, Debug)]
pub(crate) struct FunctionTypes {
    pub inputs: Option<Type>,
    pub input_shape: Option<Type>,
    pub return_type: Option<Type>,
    pub multi_argument_inputs: Option<Vec<(String, Type, bool)>>,
    pub plain_return: bool,
    pub method_inputs: Vec<(String, Type)>,
}

/// A package load request and its answer.
type Load = (PackageDescriptor, Result<Arc<Package>, LoadError>);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What converting schema types needs, shared by the lazy objects it makes
/// (see the module documentation). It holds no type: converted objects are
/// remembered weakly.
struct Converter {
    /// Whether schema objects are strict (not `non_strict_objects`).
    strict: bool,
    allow_missing_properties: bool,
    /// Every package load a reference made, with its answer, in order:
    /// the converter answers the same requests the same way later,
    /// without the check's loader.
    loads: Mutex<Vec<Load>>,
    /// Converted named objects and resource references.
    objects: Mutex<FastMap<ObjectKey, WeakType>>,
    /// The group of the lazy objects: recursive schema types are cycles
    /// among them, freed together once nothing holds them.
    group: TypeGroup,
}

/// Answers the package loads references made while [`Reach`] walked a
/// closure (all the loads converting it can make); any other request is
/// not found.
impl SchemaLoader for Converter {
    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        let loads = lock(&self.loads);
        match loads.iter().find(|(r, _)| r == request) {
            Some((_, answer)) => answer.clone(),
            None => Err(LoadError::NotFound {
                name: request.name.clone(),
                version: request.version.clone(),
                available: Vec::new(),
                searched: Vec::new(),
            }),
        }
    }
}

/// A loader that remembers what it answered in the converter.
struct Recording<'a> {
    loader: &'a dyn SchemaLoader,
    converter: &'a Converter,
}

impl SchemaLoader for Recording<'_> {
    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        if let Some((_, answer)) = lock(&self.converter.loads)
            .iter()
            .find(|(r, _)| r == request)
        {
            return answer.clone();
        }
        let answer = self.loader.load(request);
        lock(&self.converter.loads).push((request.clone(), answer.clone()));
        answer
    }
}

impl Converter {
    fn new(policy: &BindPolicy) -> Converter {
        Converter {
            strict: !policy.non_strict_objects(),
            allow_missing_properties: policy.allow_missing_properties,
            loads: Mutex::new(Vec::new()),
            objects: Mutex::new(FastMap::default()),
            group: TypeGroup::new(),
        }
    }

    fn options(&self, annotations: Annotations, name: Option<&str>, strict: bool) -> ObjectOptions {
        ObjectOptions {
            annotations,
            strict,
            name: name.map(Arc::from),
        }
    }

    /// A property of an object / resource inputs: `Input<…>` unless plain
    /// (input shape only), `const` types, optional unless required.
    fn property(
        self: &Arc<Self>,
        pkg: &Arc<Package>,
        p: &Property,
        shape: Shape,
        depth: usize,
    ) -> Type {
        let t = match &p.const_value {
            Some(lit) => {
                let base = self.convert(pkg, &p.ty, Shape::Plain, depth + 1);
                let underlying = match base.kind() {
                    pcl_types::TypeKind::Int
                    | pcl_types::TypeKind::Number
                    | pcl_types::TypeKind::Bool
                    | pcl_types::TypeKind::String => base,
                    _ => literal_underlying(lit),
                };
                Type::constant(underlying, literal_value(lit))
            }
            None => self.wrapped(pkg, &p.ty, shape, depth + 1),
        };
        if p.required && !self.allow_missing_properties {
            t
        } else {
            Type::optional(t)
        }
    }

    /// An output property: plain, optional unless required (never made
    /// optional by AllowMissingProperties).
    fn output_property(self: &Arc<Self>, pkg: &Arc<Package>, p: &Property, depth: usize) -> Type {
        let t = self.convert(pkg, &p.ty, Shape::Plain, depth + 1);
        if p.required {
            t
        } else {
            Type::optional(t)
        }
    }

    /// A type in `shape`, wrapped in `Input<…>` when the shape is input and
    /// the type is not plain.
    fn wrapped(
        self: &Arc<Self>,
        pkg: &Arc<Package>,
        st: &SchemaType,
        shape: Shape,
        depth: usize,
    ) -> Type {
        let t = self.convert(pkg, st, shape, depth);
        if shape == Shape::Input && !st.plain {
            // The resolution of a lazy object is a lazy view of it, shared
            // by every place that wraps it.
            let output = Type::output(t.clone());
            Type::union([t, output])
        } else {
            t
        }
    }

    fn convert(
        self: &Arc<Self>,
        pkg: &Arc<Package>,
        st: &SchemaType,
        shape: Shape,
        depth: usize,
    ) -> Type {
        if depth > MAX_SCHEMA_DEPTH {
            return Type::dynamic();
        }
        match &st.kind {
            SchemaTypeKind::Primitive(p) => primitive(*p),
            SchemaTypeKind::Builtin(b) => match b {
                Builtin::Any | Builtin::Json => Type::dynamic(),
                Builtin::Archive => Type::opaque("Archive"),
                Builtin::Asset => Type::union([Type::opaque("Archive"), Type::opaque("Asset")]),
            },
            SchemaTypeKind::Array(e) => Type::list(self.wrapped(pkg, e, shape, depth + 1)),
            SchemaTypeKind::Map(e) => Type::map(self.wrapped(pkg, e, shape, depth + 1)),
            SchemaTypeKind::Union(u) => {
                let members: Vec<Type> = u
                    .members
                    .iter()
                    .map(|m| self.convert(pkg, m, shape, depth + 1))
                    .collect();
                if members.is_empty() {
                    return u.default_type.map_or_else(Type::dynamic, primitive);
                }
                Type::union(members)
            }
            SchemaTypeKind::Ref(r) => {
                // Other packages were loaded (and recorded as used) by
                // `Reach` when the closure was first used.
                let resolved = match pkg.resolve_ref(r, self.as_ref()) {
                    Ok(resolved) => resolved,
                    Err(_) => return Type::dynamic(),
                };
                let target = &resolved.package;
                match &resolved.resolved {
                    Resolved::TypeDef(def) => match def.as_ref() {
                        TypeDef::Object(_) => self.named_object(target, def, shape),
                        TypeDef::Enum(e) => {
                            let values: Vec<Value> =
                                e.values.iter().map(|v| literal_value(&v.value)).collect();
                            let token = target.canonical_token(&e.token);
                            Type::enumeration(
                                token,
                                primitive(e.element_type),
                                values,
                                Annotations::none(),
                            )
                            .unwrap_or_else(|_| primitive(e.element_type))
                        }
                    },
                    Resolved::Resource(res) => self.resource_ref(target, res),
                    Resolved::Token { token, underlying } => {
                        let opaque = Type::opaque(token.as_str());
                        match underlying {
                            Some(p) => Type::union([opaque, primitive(*p)]),
                            None => opaque,
                        }
                    }
                }
            }
            SchemaTypeKind::Invalid(_) => Type::dynamic(),
        }
    }

    /// The object converted for `key` if it is alive, else a new lazy one
    /// (remembered) whose properties `define` converts.
    fn object(
        self: &Arc<Self>,
        key: ObjectKey,
        annotations: Annotations,
        define: impl Fn(&Arc<Converter>) -> Properties + Send + Sync + 'static,
    ) -> Type {
        let mut objects = lock(&self.objects);
        if let Some(t) = objects.get(&key).and_then(WeakType::upgrade) {
            return t;
        }
        let strict = self.strict;
        let converter = Arc::clone(self);
        let opts = self.options(annotations, Some(&key.token), strict);
        let t = self
            .group
            .scope(|| Type::lazy_object(opts, move || Some(define(&converter))));
        objects.insert(key, t.weak());
        t
    }

    fn named_object(
        self: &Arc<Self>,
        pkg: &Arc<Package>,
        def: &Arc<TypeDef>,
        shape: Shape,
    ) -> Type {
        let TypeDef::Object(o) = def.as_ref() else {
            return Type::dynamic();
        };
        let token = o.token.clone().unwrap_or_default();
        let annotations = Annotations::new(vec![Arc::new(SchemaObjectAnnotation {
            package: pkg.name().to_string(),
            token: token.clone(),
        })]);
        let (pkg, def) = (Arc::clone(pkg), Arc::clone(def));
        self.object(key(&pkg, &token, shape, false), annotations, move |c| {
            let TypeDef::Object(o) = def.as_ref() else {
                return Properties::default();
            };
            o.properties
                .values()
                .map(|p| (Arc::from(p.name.as_str()), c.property(&pkg, p, shape, 0)))
                .collect()
        })
    }

    fn resource_ref(self: &Arc<Self>, pkg: &Arc<Package>, res: &Arc<Resource>) -> Type {
        let annotations = Annotations::new(vec![Arc::new(ResourceAnnotation {
            token: Arc::from(res.token.as_str()),
        })]);
        let (pkg, res) = (Arc::clone(pkg), Arc::clone(res));
        self.object(
            key(&pkg, &res.token, Shape::Plain, true),
            annotations,
            move |c| {
                let mut props: Vec<(String, Type)> = vec![
                    ("id".into(), Type::output(Type::id())),
                    ("urn".into(), Type::output(Type::string())),
                ];
                for p in res.properties.values() {
                    props.retain(|(n, _)| *n != p.name);
                    let t = c.output_property(&pkg, p, 0);
                    props.push((p.name.clone(), Type::output(t)));
                }
                props.into_iter().map(|(k, v)| (Arc::from(k), v)).collect()
            },
        )
    }

    fn anonymous_object(
        self: &Arc<Self>,
        pkg: &Arc<Package>,
        obj: &ObjectType,
        shape: Shape,
        skip: &[&str],
    ) -> Type {
        let props: Vec<(String, Type)> = obj
            .properties
            .values()
            .filter(|p| !skip.contains(&p.name.as_str()))
            .map(|p| (p.name.clone(), self.property(pkg, p, shape, 0)))
            .collect();
        Type::object_with(props, self.options(Annotations::none(), None, self.strict))
    }

    fn resource(self: &Arc<Self>, pkg: &Arc<Package>, res: &Resource, read: bool) -> ResourceTypes {
        let annotation = |inputs: bool| -> Annotations {
            let mut items: Vec<pcl_types::Annotation> = vec![Arc::new(SchemaResourceAnnotation {
                package: pkg.name().to_string(),
                package_version: version_string(pkg),
                token: res.token.clone(),
                inputs,
            })];
            if !inputs {
                items.push(Arc::new(ResourceAnnotation {
                    token: Arc::from(res.token.as_str()),
                }));
            }
            Annotations::new(items)
        };
        let mut inputs: Vec<(String, Type)> = Vec::new();
        if read {
            inputs.push(("id".into(), pcl_types::input_type(&Type::string())));
            if let Some(state) = &res.state_inputs {
                for p in state.properties.values() {
                    inputs.push((p.name.clone(), self.property(pkg, p, Shape::Input, 0)));
                }
            }
        } else {
            for p in res.input_properties.values() {
                inputs.push((p.name.clone(), self.property(pkg, p, Shape::Input, 0)));
            }
        }
        let input = Type::object_with(
            inputs,
            self.options(annotation(true), Some(&res.token), self.strict),
        );
        let mut outputs: Vec<(String, Type)> = vec![
            ("id".into(), Type::output(Type::id())),
            ("urn".into(), Type::output(Type::string())),
        ];
        for p in res.properties.values() {
            let t = self.output_property(pkg, p, 0);
            outputs.retain(|(n, _)| *n != p.name);
            outputs.push((p.name.clone(), Type::output(t)));
        }
        let output = Type::object_with(
            outputs,
            self.options(annotation(false), Some(&res.token), true),
        );
        ResourceTypes { input, output }
    }

    fn function(self: &Arc<Self>, pkg: &Arc<Package>, f: &Function) -> FunctionTypes {
        let has_inputs = f.inputs.as_ref().is_some_and(|i| !i.properties.is_empty());
        let (inputs, input_shape) = match (&f.inputs, has_inputs) {
            (Some(obj), true) => (
                Some(self.anonymous_object(pkg, obj, Shape::Plain, &["__self__"])),
                Some(self.anonymous_object(pkg, obj, Shape::Input, &["__self__"])),
            ),
            _ => (None, None),
        };
        let return_type = f.return_type.as_ref().map(|r| match r {
            ReturnType::Object { object, .. } => {
                self.anonymous_object(pkg, object, Shape::Plain, &[])
            }
            ReturnType::Type(t) => self.convert(pkg, t, Shape::Plain, 0),
        });
        let multi_argument_inputs = f.multi_argument_inputs.as_ref().map(|_| {
            f.positional_inputs()
                .into_iter()
                .map(|p| {
                    (
                        p.name.clone(),
                        self.property(pkg, p, Shape::Plain, 0),
                        p.required,
                    )
                })
                .collect()
        });
        let method_inputs = f
            .inputs
            .as_ref()
            .map(|o| {
                o.properties
                    .values()
                    .map(|p| (p.name.clone(), self.property(pkg, p, Shape::Input, 0)))
                    .collect()
            })
            .unwrap_or_default();
        FunctionTypes {
            inputs,
            input_shape,
            return_type,
            multi_argument_inputs,
            plain_return: f.return_type.as_ref().is_some_and(ReturnType::plain),
            method_inputs,
        }
    }
}

/// Whether everything the member `token` of `section` reaches through
/// references is in `pkg` itself (or a builtin), read from the raw text of
/// the members ([`Package::member_refs`]: every reference written in
/// them, a superset of what conversion follows) without decoding them.
/// False when a reference leaves the package or the scan cannot tell.
fn reaches_only_itself(pkg: &Package, section: Section, token: &str) -> bool {
    let mut seen: FastSet<(Section, String)> = FastSet::default();
    let mut stack = vec![(section, token.to_string())];
    while let Some((section, token)) = stack.pop() {
        let Some(refs) = pkg.member_refs(section, &token) else {
            return false;
        };
        for r in refs {
            if matches!(
                r,
                "pulumi.json#/Any"
                    | "pulumi.json#/Json"
                    | "pulumi.json#/Archive"
                    | "pulumi.json#/Asset"
            ) {
                continue;
            }
            // Only a reference into the same document has no path before
            // its fragment (`pcl_schema`'s reference syntax).
            let Some(fragment) = r.strip_prefix('#') else {
                return false;
            };
            let fragment = fragment.trim_start_matches('/').trim_end_matches('/');
            let (kind, target) = fragment.split_once('/').unwrap_or((fragment, ""));
            let next = match kind {
                "types" => Section::Type,
                "resources" => Section::Resource,
                "provider" => Section::Provider,
                // Not a reference conversion can follow.
                _ => continue,
            };
            if target.contains('%') {
                // Percent-encoded: not worth decoding here.
                return false;
            }
            if seen.insert((next, target.to_string())) {
                stack.push((next, target.to_string()));
            }
        }
    }
    true
}

/// Finds the packages a closure reaches in other packages, walking the
/// decoded schema in exactly the order [`Converter`] converts it (same
/// shapes, same per-object depth), loading them through the check's
/// loader and remembering the loads in the converter. Objects nest without
/// limit (each is converted from depth 0), so the walk keeps its own stack
/// of objects whose references are still to visit.
struct Reach<'a> {
    loader: Recording<'a>,
    seen: FastSet<ObjectKey>,
    found: Vec<(String, Option<String>)>,
}

/// References in conversion order, with the package they are written in
/// and the shape they are converted in.
type Refs = std::vec::IntoIter<(Arc<Package>, pcl_schema::TypeRef, Shape)>;

/// The references of one type, in conversion order (see
/// [`Converter::convert`]: arrays, maps and unions nest up to
/// `MAX_SCHEMA_DEPTH`).
fn refs_of(
    pkg: &Arc<Package>,
    st: &SchemaType,
    shape: Shape,
    depth: usize,
    out: &mut Vec<(Arc<Package>, pcl_schema::TypeRef, Shape)>,
) {
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    match &st.kind {
        SchemaTypeKind::Array(e) | SchemaTypeKind::Map(e) => refs_of(pkg, e, shape, depth + 1, out),
        SchemaTypeKind::Union(u) => {
            for m in &u.members {
                refs_of(pkg, m, shape, depth + 1, out);
            }
        }
        SchemaTypeKind::Ref(r) => out.push((Arc::clone(pkg), r.clone(), shape)),
        SchemaTypeKind::Primitive(_) | SchemaTypeKind::Builtin(_) | SchemaTypeKind::Invalid(_) => {}
    }
}

/// The references of a property converted at `depth` (see
/// [`Converter::property`]; `const` properties convert in the plain shape).
fn property_refs(
    pkg: &Arc<Package>,
    p: &Property,
    shape: Shape,
    depth: usize,
    out: &mut Vec<(Arc<Package>, pcl_schema::TypeRef, Shape)>,
) {
    let shape = if p.const_value.is_some() {
        Shape::Plain
    } else {
        shape
    };
    refs_of(pkg, &p.ty, shape, depth + 1, out);
}

impl Reach<'_> {
    /// Visits `refs` and, depth first, the properties of every object
    /// they reach for the first time.
    fn walk(&mut self, refs: Vec<(Arc<Package>, pcl_schema::TypeRef, Shape)>) {
        let mut stack: Vec<Refs> = vec![refs.into_iter()];
        while let Some(top) = stack.last_mut() {
            let Some((pkg, r, shape)) = top.next() else {
                stack.pop();
                continue;
            };
            let Ok(resolved) = pkg.resolve_ref(&r, &self.loader) else {
                continue;
            };
            let target = &resolved.package;
            if target.name() != pkg.name() {
                self.found
                    .push((target.name().to_string(), version_string(target)));
            }
            let mut inner = Vec::new();
            match &resolved.resolved {
                Resolved::TypeDef(def) => {
                    if let TypeDef::Object(o) = def.as_ref() {
                        let token = o.token.as_deref().unwrap_or_default();
                        if self.seen.insert(key(target, token, shape, false)) {
                            for p in o.properties.values() {
                                property_refs(target, p, shape, 0, &mut inner);
                            }
                        }
                    }
                }
                Resolved::Resource(res) => {
                    if self
                        .seen
                        .insert(key(target, &res.token, Shape::Plain, true))
                    {
                        for p in res.properties.values() {
                            refs_of(target, &p.ty, Shape::Plain, 1, &mut inner);
                        }
                    }
                }
                Resolved::Token { .. } => {}
            }
            if !inner.is_empty() {
                stack.push(inner.into_iter());
            }
        }
    }

    fn resource(&mut self, pkg: &Arc<Package>, res: &Resource, read: bool) {
        let mut refs = Vec::new();
        if read {
            if let Some(state) = &res.state_inputs {
                for p in state.properties.values() {
                    property_refs(pkg, p, Shape::Input, 0, &mut refs);
                }
            }
        } else {
            for p in res.input_properties.values() {
                property_refs(pkg, p, Shape::Input, 0, &mut refs);
            }
        }
        for p in res.properties.values() {
            refs_of(pkg, &p.ty, Shape::Plain, 1, &mut refs);
        }
        self.walk(refs);
    }

    fn function(&mut self, pkg: &Arc<Package>, f: &Function) {
        let mut refs = Vec::new();
        let has_inputs = f.inputs.as_ref().is_some_and(|i| !i.properties.is_empty());
        if let (Some(obj), true) = (&f.inputs, has_inputs) {
            for shape in [Shape::Plain, Shape::Input] {
                for p in obj.properties.values().filter(|p| p.name != "__self__") {
                    property_refs(pkg, p, shape, 0, &mut refs);
                }
            }
        }
        match &f.return_type {
            Some(ReturnType::Object { object, .. }) => {
                for p in object.properties.values() {
                    property_refs(pkg, p, Shape::Plain, 0, &mut refs);
                }
            }
            Some(ReturnType::Type(t)) => refs_of(pkg, t, Shape::Plain, 0, &mut refs),
            None => {}
        }
        if f.multi_argument_inputs.is_some() {
            for p in f.positional_inputs() {
                property_refs(pkg, p, Shape::Plain, 0, &mut refs);
            }
        }
        if let Some(o) = &f.inputs {
            for p in o.properties.values() {
                property_refs(pkg, p, Shape::Input, 0, &mut refs);
            }
        }
        self.walk(refs);
    }
}

/// The converted types of a check, which a [`crate::SchemaCache`] keeps
/// for later checks (with the same loader and the same type-relevant
/// policy): a conversion depends only on what is converted, so reusing
/// one gives exactly what converting it afresh gives.
#[derive(Default)]
pub(crate) struct Conversions {
    /// Made with the first check's policy (the cache keys kept conversions
    /// by the type-relevant policy).
    converter: Option<Arc<Converter>>,
    /// Converted resource types by (package, version, token, read), so a
    /// resource used by several blocks is converted once, with the
    /// packages their conversion reaches.
    resources: RefCell<FastMap<ResourceKey, (ResourceTypes, Reached)>>,
    /// Converted function types by (package, version, token), so a
    /// function invoked (or a method called) several times is converted
    /// once.
    functions: RefCell<FastMap<FunctionKey, (FunctionTypes, Reached)>>,
    /// Resources found by token, by (package, version, token as written).
    found_resources: RefCell<FastMap<FunctionKey, Found<Resource>>>,
    /// The converted types a check asks `InputType` of (function inputs,
    /// resource input properties), by address, kept alive here, and their
    /// `InputType` answers: a pure function of the type, so later checks
    /// reuse them (a big schema object's input type is a rebuilt copy of
    /// the whole object).
    input_keys: RefCell<FastMap<usize, Type>>,
    input_types: RefCell<pcl_types::InputTypeMemo>,
}

/// Loaded packages and converted types of one check.
pub struct Schemas<'a> {
    loader: &'a dyn SchemaLoader,
    descriptors: RefCell<IndexMap<String, PackageDescriptor>>,
    /// Loads by package name and pinned version (`None`: unpinned, or a
    /// `package` block decides).
    #[allow(clippy::type_complexity)]
    packages:
        RefCell<FastMap<String, Vec<(Option<semver::Version>, Result<Arc<Package>, LoadError>)>>>,
    /// Pinned loads that fell back to the default version, and why.
    missing_pins: RefCell<HashMap<PackageKey, LoadError>>,
    conv: Conversions,
    converter: Arc<Converter>,
    /// Packages used, by name and version: two resources pinning two
    /// versions of one package use both.
    used: RefCell<IndexMap<(String, Option<String>), PackageUse>>,
}

/// A package load: its name and the version a `version` option pins.
type PackageKey = (String, Option<semver::Version>);

/// The package's version as text (formatted once per package).
fn version_string(pkg: &Package) -> Option<String> {
    pkg.version_text().map(|v| v.to_string())
}

/// The package's version as a cache key part: the text, shared.
fn version_key(pkg: &Package) -> Option<Arc<str>> {
    pkg.version_text().cloned()
}

impl<'a> Schemas<'a> {
    pub fn new(loader: &'a dyn SchemaLoader, policy: &BindPolicy) -> Schemas<'a> {
        Schemas::with_conversions(loader, policy, Conversions::default())
    }

    /// A check's schemas starting from conversions kept from earlier checks
    /// (made with the same loader and type-relevant policy).
    pub(crate) fn with_conversions(
        loader: &'a dyn SchemaLoader,
        policy: &BindPolicy,
        mut conv: Conversions,
    ) -> Schemas<'a> {
        let converter = Arc::clone(
            conv.converter
                .get_or_insert_with(|| Arc::new(Converter::new(policy))),
        );
        Schemas {
            loader,
            descriptors: RefCell::new(IndexMap::new()),
            packages: RefCell::new(FastMap::default()),
            missing_pins: RefCell::new(HashMap::new()),
            conv,
            converter,
            used: RefCell::new(IndexMap::new()),
        }
    }

    /// The conversions made so far, to keep for a later check.
    pub(crate) fn into_conversions(self) -> Conversions {
        self.conv
    }

    pub fn loader(&self) -> &'a dyn SchemaLoader {
        self.loader
    }

    /// Registers a `package` block's descriptor under its package name.
    /// Returns false when a different one is already registered.
    pub fn add_descriptor(&self, descriptor: PackageDescriptor) -> bool {
        let name = descriptor.package_name().to_string();
        let mut map = self.descriptors.borrow_mut();
        match map.get(&name) {
            Some(existing) => *existing == descriptor,
            None => {
                map.insert(name, descriptor);
                true
            }
        }
    }

    /// Loads a package by name (through its descriptor when one was
    /// declared), once.
    pub fn load(&self, name: &str) -> Result<Arc<Package>, LoadError> {
        self.load_pinned(name, None)
    }

    /// Loads a package by name at the version a resource's or invoke's
    /// `version` option pins (`None`: the highest available), once per
    /// name and version. A `package` block for the name decides the
    /// version instead, as in the reference (`loadReferencedPackageSchemas`
    /// loads through the descriptor when there is one). Each resource and
    /// invoke binds against the version it pins, so two resources pinning
    /// two versions of one package each see their own schema.
    pub fn load_pinned(
        &self,
        name: &str,
        pin: Option<&semver::Version>,
    ) -> Result<Arc<Package>, LoadError> {
        let pin = if self.descriptors.borrow().contains_key(name) {
            None
        } else {
            pin
        };
        if let Some((_, found)) = self
            .packages
            .borrow()
            .get(name)
            .and_then(|loads| loads.iter().find(|(v, _)| v.as_ref() == pin))
        {
            return found.clone();
        }
        let key: PackageKey = (name.to_string(), pin.cloned());
        let descriptor = self.descriptors.borrow().get(name).cloned();
        let descriptor =
            descriptor.unwrap_or_else(|| PackageDescriptor::new(name).with_version(pin.cloned()));
        // Local adapter: an extension package is requested by its own name
        // and version first, because schemas that declare
        // `extensionParameterization` are not recognised as parameterized
        // by every loader (and caching loaders key by name and version).
        let mut result = match &descriptor.parameterization {
            Some(p) => {
                let plain =
                    PackageDescriptor::new(p.name.clone()).with_version(Some(p.version.clone()));
                match self.loader.load(&plain) {
                    Ok(pkg) if pkg.name() == p.name => Ok(pkg),
                    _ => self.loader.load(&descriptor),
                }
            }
            None => self.loader.load(&descriptor),
        };
        // A pinned version the schema sources lack, where they have others:
        // checked against the default version (the schema directory is an
        // approximation of what the deployment installs), the miss kept for
        // a warning ([`Schemas::missing_pin`]).
        if let (Some(_), Err(e @ LoadError::NotFound { available, .. })) = (pin, &result) {
            if !available.is_empty() {
                if let Ok(pkg) = self.load_pinned(name, None) {
                    self.missing_pins
                        .borrow_mut()
                        .insert(key.clone(), e.clone());
                    result = Ok(pkg);
                }
            }
        }
        self.packages
            .borrow_mut()
            .entry(key.0)
            .or_default()
            .push((key.1, result.clone()));
        match &result {
            Ok(pkg) => self.record_use(name, Some(pkg)),
            // A pinned package that is missing is listed at its pin.
            Err(_) => self.record_use_parts(name, pin.map(ToString::to_string), false),
        }
        result
    }

    /// Why a pinned version of `name` was not loaded, when the load fell
    /// back to the default version (see [`Schemas::load_pinned`]).
    pub(crate) fn missing_pin(
        &self,
        name: &str,
        pin: Option<&semver::Version>,
    ) -> Option<LoadError> {
        let pin = pin?;
        self.missing_pins
            .borrow()
            .get(&(name.to_string(), Some(pin.clone())))
            .cloned()
    }

    fn record_use(&self, name: &str, pkg: Option<&Arc<Package>>) {
        self.record_use_parts(name, pkg.and_then(|p| version_string(p)), pkg.is_some());
    }

    fn record_use_parts(&self, name: &str, version: Option<String>, loaded: bool) {
        let mut used = self.used.borrow_mut();
        let key = (name.to_string(), version.clone());
        if !used.contains_key(&key) {
            used.insert(
                key,
                PackageUse {
                    name: name.to_string(),
                    version,
                    loaded,
                },
            );
        }
    }

    /// Records the packages a conversion reaches (binder.md §6.1; a
    /// package reached through another's types is used too,
    /// binder-vectors E20).
    fn record_reached(&self, reached: &[(String, Option<String>)]) {
        for (name, version) in reached {
            self.record_use_parts(name, version.clone(), true);
        }
    }

    /// Packages the loader has (schema directories, cache, built-ins) one
    /// edit from `name`, for an unknown package's did-you-mean.
    pub(crate) fn suggest_packages(&self, name: &str) -> Vec<String> {
        pcl_schema::suggest::suggest_packages(name, &self.loader.package_names())
    }

    /// Packages loaded (or attempted) so far, in first-use order.
    pub fn used_packages(&self) -> Vec<PackageUse> {
        self.used.borrow().values().cloned().collect()
    }

    /// [`Schemas::used_packages`], forgetting them and the packages loaded
    /// (not the conversions): what the next binding uses is recorded
    /// afresh, as in a check of its own (re-binding one declaration,
    /// `incremental`; a package loads again from the loader's cache).
    pub(crate) fn take_used_packages(&self) -> Vec<PackageUse> {
        self.packages.borrow_mut().clear();
        self.missing_pins.borrow_mut().clear();
        std::mem::take(&mut *self.used.borrow_mut())
            .into_values()
            .collect()
    }

    /// A walk of a closure for the packages it reaches (see [`Reach`]).
    fn reach(&self) -> Reach<'_> {
        Reach {
            loader: Recording {
                loader: self.loader,
                converter: &self.converter,
            },
            seen: FastSet::default(),
            found: Vec::new(),
        }
    }

    // ----- resources --------------------------------------------------------

    /// `Package::lookup_resource`, remembered per check when it finds the
    /// resource (a token used by several blocks is looked up once).
    pub(crate) fn lookup_resource(
        &self,
        pkg: &Arc<Package>,
        token: &str,
    ) -> Result<Option<Found<Resource>>, LookupError> {
        let key = (pkg.name().to_string(), version_key(pkg), token.to_string());
        if let Some(found) = self.conv.found_resources.borrow().get(&key) {
            return Ok(Some(found.clone()));
        }
        let found = pkg.lookup_resource(token)?;
        if let Some(found) = &found {
            // What the schema gets wrong in the types the resource names
            // (the lookup checked the resource itself): converting it
            // decodes them and loads the packages it names anyway.
            let problems = pkg.resource_problems(&found.item, Some(&self.reach().loader));
            if !problems.is_empty() {
                return Err(LookupError::Invalid {
                    token: found.schema_token.clone(),
                    problems,
                });
            }
            self.conv
                .found_resources
                .borrow_mut()
                .insert(key, found.clone());
        }
        Ok(found)
    }

    /// `Package::lookup_function`, with the problems of the types the
    /// function names (see [`Schemas::lookup_resource`]).
    pub(crate) fn lookup_function(
        &self,
        pkg: &Arc<Package>,
        token: &str,
    ) -> Result<Option<Found<Function>>, LookupError> {
        let found = pkg.lookup_function(token)?;
        if let Some(found) = &found {
            let problems = pkg.function_problems(&found.item, Some(&self.reach().loader));
            if !problems.is_empty() {
                return Err(LookupError::Invalid {
                    token: found.schema_token.clone(),
                    problems,
                });
            }
        }
        Ok(found)
    }

    /// The input and output object types of a resource, converted once per
    /// check.
    pub(crate) fn resource_types(
        &self,
        pkg: &Arc<Package>,
        res: &Resource,
        read: bool,
    ) -> ResourceTypes {
        let key = (
            pkg.name().to_string(),
            version_key(pkg),
            res.token.clone(),
            read,
        );
        self.top_level(
            &self.conv.resources,
            key,
            (pkg, Section::Resource, &res.token),
            |reach| reach.resource(pkg, res, read),
            || self.converter.resource(pkg, res, read),
            |types| {
                if let Some(o) = types.input.as_object() {
                    self.keep_input_keys(o.properties().values());
                }
            },
        )
    }

    /// A resource's or function's converted types from `cache`, with what
    /// their closure reached recorded again. The first time: what the
    /// closure reaches, found by `reach` (unless the raw scan of `pkg`
    /// shows that it reaches only its own package), then the types made by
    /// `convert`, and those that `keep` names kept for `InputType`.
    fn top_level<K: Eq + std::hash::Hash, T: Clone>(
        &self,
        cache: &RefCell<FastMap<K, (T, Reached)>>,
        key: K,
        (pkg, section, token): (&Package, Section, &str),
        reach: impl FnOnce(&mut Reach<'_>),
        convert: impl FnOnce() -> T,
        keep: impl FnOnce(&T),
    ) -> T {
        let cached = cache.borrow().get(&key).cloned();
        if let Some((types, reached)) = cached {
            self.record_reached(&reached);
            return types;
        }
        let reached: Reached = if reaches_only_itself(pkg, section, token) {
            Arc::from([])
        } else {
            let mut walk = self.reach();
            reach(&mut walk);
            walk.found.into()
        };
        self.record_reached(&reached);
        let types = convert();
        keep(&types);
        cache.borrow_mut().insert(key, (types.clone(), reached));
        types
    }

    fn keep_input_keys<'t>(&self, types: impl Iterator<Item = &'t Type>) {
        let mut keys = self.conv.input_keys.borrow_mut();
        for t in types {
            keys.insert(type_addr(t), t.clone());
        }
    }

    /// `InputType(t)` for a converted type these conversions hold (see
    /// `Conversions::input_types`); `None` for any other type.
    pub(crate) fn kept_input_type(&self, t: &Type) -> Option<Type> {
        if !self.conv.input_keys.borrow().contains_key(&type_addr(t)) {
            return None;
        }
        Some(self.conv.input_types.borrow_mut().input_type(t))
    }

    // ----- functions --------------------------------------------------------

    /// The converted types of a function, converted once per check.
    pub(crate) fn function_types(&self, pkg: &Arc<Package>, f: &Function) -> FunctionTypes {
        let key = (pkg.name().to_string(), version_key(pkg), f.token.clone());
        self.top_level(
            &self.conv.functions,
            key,
            (pkg, Section::Function, &f.token),
            |reach| reach.function(pkg, f),
            || self.converter.function(pkg, f),
            |types| {
                let multi = types.multi_argument_inputs.iter().flatten();
                self.keep_input_keys(
                    types
                        .inputs
                        .iter()
                        .chain(&types.input_shape)
                        .chain(multi.map(|(_, t, _)| t)),
                );
            },
        )
    }
}

/// The conversion caches' hash maps: their keys (tokens, node addresses)
/// come from schemas and the program, are looked up very often and are
/// never iterated where order shows, so they use [`FastHasher`] instead of
/// SipHash.
pub(crate) use pcl_types::FastMap;
type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// The identity of a type's node (stable while the type is alive).
fn type_addr(t: &Type) -> usize {
    t.kind() as *const pcl_types::TypeKind as usize
}

fn primitive(p: Primitive) -> Type {
    match p {
        Primitive::Boolean => Type::bool(),
        Primitive::Integer => Type::int(),
        Primitive::Number => Type::number(),
        Primitive::String => Type::string(),
    }
}

fn literal_underlying(lit: &pcl_schema::Literal) -> Type {
    match lit {
        pcl_schema::Literal::Bool(_) => Type::bool(),
        pcl_schema::Literal::Int(_) => Type::int(),
        pcl_schema::Literal::Number(_) => Type::number(),
        pcl_schema::Literal::String(_) => Type::string(),
    }
}

/// A schema literal as a PCL value.
pub(crate) fn literal_value(lit: &pcl_schema::Literal) -> Value {
    match lit {
        pcl_schema::Literal::Bool(b) => Value::Bool(*b),
        pcl_schema::Literal::Int(i) => Value::int(*i),
        pcl_schema::Literal::Number(n) => {
            Number::parse(&n.to_string()).map_or(Value::Unknown, Value::Number)
        }
        pcl_schema::Literal::String(s) => Value::string(s.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use pcl_schema::{DirLoader, MemoryLoader, Package, PackageDescriptor, SchemaLoader};
    use pcl_types::{ObjectDef, Type};

    use super::Schemas;
    use crate::policy::BindPolicy;

    /// The object inside an input property type (`union(T, output(T))`,
    /// maybe optional).
    fn object_in(t: &Type) -> Option<Type> {
        if t.as_object().is_some() {
            return Some(t.clone());
        }
        t.as_union()?
            .elements()
            .iter()
            .find(|e| e.as_object().is_some())
            .cloned()
    }

    fn load(loader: &dyn SchemaLoader, name: &str) -> Arc<Package> {
        loader
            .load(&PackageDescriptor::new(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// A resource whose input `next` starts a chain of `n` object types
    /// (`T0.next: T1`, …), the last with a string property `v`.
    fn chain_schema(n: usize) -> String {
        let types: Vec<String> = (0..n)
            .map(|i| {
                let prop = if i + 1 < n {
                    format!(r##""next": {{"$ref": "#/types/chain:index:T{}"}}"##, i + 1)
                } else {
                    r#""v": {"type": "string"}"#.to_string()
                };
                format!(
                    r#""chain:index:T{i}": {{"type": "object", "properties": {{{prop}}}, "required": ["{}"]}}"#,
                    if i + 1 < n { "next" } else { "v" }
                )
            })
            .collect();
        format!(
            r##"{{"name": "chain", "version": "1.0.0", "types": {{{}}}, "resources": {{"chain:index:R": {{"inputProperties": {{"next": {{"$ref": "#/types/chain:index:T0"}}}}, "requiredInputs": ["next"]}}}}}}"##,
            types.join(", ")
        )
    }

    /// Schema objects are converted when their properties are first read,
    /// one level at a time.
    #[test]
    fn objects_are_converted_on_first_use() {
        let loader = MemoryLoader::new()
            .with(chain_schema(3))
            .unwrap_or_else(|e| panic!("{e}"));
        let policy = BindPolicy::strict();
        let schemas = Schemas::new(&loader, &policy);
        let pkg = load(&loader, "chain");
        let Some(Ok(res)) = pkg.resource("chain:index:R") else {
            panic!("no resource");
        };
        let types = schemas.resource_types(&pkg, &res, false);
        let next = |t: &Type| {
            let o = t.as_object()?;
            object_in(&o.property("next")?)
        };
        let Some(t0) = next(&types.input) else {
            panic!(
                "no T0 in {:?}",
                types.input.as_object().map(ObjectDef::properties)
            );
        };
        let pending = |t: &Type| t.as_object().is_some_and(ObjectDef::is_pending);
        assert!(pending(&t0), "T0 converted with the resource");
        let Some(t1) = next(&t0) else {
            panic!("no T1");
        };
        assert!(!pending(&t0));
        assert!(pending(&t1), "T1 converted with T0");
        assert_eq!(
            t1.to_string(),
            "object({next = union(object({v = union(output(string), string)}, annotated), \
             output(object({v = string}, annotated)))}, annotated)"
        );
        // The same object for the same token and shape while it is alive.
        let again = schemas.resource_types(&pkg, &res, false);
        assert!(next(&again.input).is_some_and(|t| t.ptr_eq(&t0)));
    }

    /// Objects nest as deep as the schema says: each level is converted
    /// from depth 0 when it is reached (no `dynamic` at 64 levels).
    #[test]
    fn deep_object_chains_convert_fully() {
        let n = 300;
        let loader = MemoryLoader::new()
            .with(chain_schema(n))
            .unwrap_or_else(|e| panic!("{e}"));
        let policy = BindPolicy::strict();
        let schemas = Schemas::new(&loader, &policy);
        let pkg = load(&loader, "chain");
        let Some(Ok(res)) = pkg.resource("chain:index:R") else {
            panic!("no resource");
        };
        let mut t = schemas.resource_types(&pkg, &res, false).input;
        for level in 0..n {
            let o = t.as_object().and_then(|o| object_in(&o.property("next")?));
            t = o.unwrap_or_else(|| panic!("level {level}: {t:?}"));
        }
        assert_eq!(
            t.to_string(),
            "object({v = union(output(string), string)}, annotated)"
        );
    }

    /// Converts up to `limit` resources of a schema in one `Schemas` (so
    /// objects converted for earlier resources are reused) and each in a
    /// fresh one, and requires the same types, printed in full (union
    /// order included): a conversion does not depend on what was
    /// converted before it.
    fn same_types_in_any_order(dir: &Path, package: &str, limit: usize) -> usize {
        let loader = DirLoader::new([dir.to_path_buf()]);
        let policy = BindPolicy::strict();
        let shared = Schemas::new(&loader, &policy);
        let pkg = load(&loader, package);
        let tokens: Vec<String> = pkg
            .resource_tokens()
            .take(limit)
            .map(String::from)
            .collect();
        for token in tokens.iter().rev() {
            let Some(Ok(res)) = pkg.resource(token) else {
                continue;
            };
            for read in [false, true] {
                let fresh = Schemas::new(&loader, &policy);
                let a = shared.resource_types(&pkg, &res, read);
                let b = fresh.resource_types(&pkg, &res, read);
                for (x, y) in [(&a.input, &b.input), (&a.output, &b.output)] {
                    assert_eq!(format!("{x:?}"), format!("{y:?}"), "{token}");
                    assert_eq!(x.to_string(), y.to_string(), "{token}");
                    assert!(x.equals(y), "{token}");
                }
            }
        }
        tokens.len()
    }

    #[test]
    fn conversions_do_not_depend_on_order() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let examples = root.join("examples/schemas");
        assert!(same_types_in_any_order(&examples, "aws", usize::MAX) > 0);
        let Some(codegen) = pcl_testkit::shared(
            "corpus/schemas/codegen",
            "conversions_do_not_depend_on_order",
        ) else {
            return;
        };
        // Kubernetes has deep, shared and recursive types (JSONSchemaProps).
        assert!(same_types_in_any_order(&codegen, "kubernetes", 40) > 0);
        for package in [
            "docker",
            "basic-unions",
            "synthetic",
            "typeddict",
            "awsx",
            "eks",
        ] {
            same_types_in_any_order(&codegen, package, usize::MAX);
        }
    }
}
