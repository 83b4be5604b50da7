//! Schemas → PCL types (binder.md §6.2), loaded lazily and cached.
//!
//! [`Schemas`] owns the loaded packages of one check (shared with component
//! sub-programs), the `package`-block descriptors, and a cache of converted
//! object types keyed by (package, token, shape), so a recursive schema type
//! becomes a cyclic graph of one deferred object per token rather than an
//! infinite tree. Only what a program touches is converted. A resource's
//! and a function's converted types are cached per check too, and so is
//! `ResolveOutputs` of every complete (acyclic, fully defined) converted type,
//! which each `Input<T> = union(T, output(T))` needs: without sharing it, a
//! deep schema (kubernetes) re-resolved every subtree once per level.
//!
//! These caches (`Conversions`) outlive a check when a
//! [`crate::SchemaCache`] keeps them for the next one. Reuse must not show:
//! every conversion records what it reached (external packages, which a
//! check lists among its used packages, and the objects it used), and a
//! reuse records the same, in the same order, as converting afresh would;
//! conversions that hit `MAX_SCHEMA_DEPTH` (whose result depends on where
//! they started) are never kept, and reusing a kept object where a fresh
//! conversion could have hit the limit (known from each object's height,
//! or for a cyclic one from a bound over what it reaches) makes the check
//! start again without kept conversions.
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

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use indexmap::IndexMap;
use pcl_expr::ResourceAnnotation;
use pcl_schema::{
    Builtin, Found, Function, LoadError, LookupError, ObjectType, Package, PackageDescriptor,
    Primitive, Property, Resolved, Resource, ReturnType, SchemaLoader, SchemaType, SchemaTypeKind,
    TypeDef,
};
use pcl_types::{Annotations, Number, ObjectOptions, Type, Value};

use crate::model::PackageUse;
use crate::policy::BindPolicy;

/// How deep schema types may nest before conversion gives up with `dynamic`.
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
    version: Option<String>,
    token: String,
    shape: Shape,
    resource_ref: bool,
}

/// (package, version, token, read block).
type ResourceKey = (String, Option<String>, String, bool);
/// (package, version, function or resource token).
type FunctionKey = (String, Option<String>, String);

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

/// Something a conversion reached that a reuse of its result must record
/// again: an external package (binder.md §6.1: a package reached through
/// another's types is used too), or a converted object (whose own events
/// are replayed in turn). See `Schemas::replay_events`.
#[derive(Clone, Debug)]
enum Event {
    Package(String, Option<String>),
    /// An object, by its index in `Conversions::objects`.
    Object(usize),
}

/// A converted named object or resource reference.
#[derive(Clone, Debug)]
struct ObjectEntry {
    ty: Type,
    /// Whether its graph is complete (see `incomplete_uses`).
    complete: bool,
    /// How much deeper than its own conversion depth its conversion went
    /// (for a complete object, exactly what converting it afresh reaches).
    height: usize,
    /// How much deeper than its own conversion depth its own properties
    /// went, up to the objects they refer to.
    local: usize,
    /// For an incomplete object: an upper bound of the height of a fresh
    /// conversion (the sum of `local` over everything it reaches), once
    /// computed.
    bound: Cell<Option<usize>>,
    /// What its conversion reached, in order.
    events: Arc<[Event]>,
    /// The check (`Conversions::generation`) that last recorded its events.
    mark: Cell<u64>,
}

/// A top-level conversion (a resource's or a function's types) with what
/// it reached and an upper bound of the depth converting it afresh reaches.
type TopLevel<T> = (T, Arc<[Event]>, usize);

/// The events and the deepest depth of a conversion under way.
#[derive(Default)]
struct Frame {
    events: Vec<Event>,
    local_max: usize,
}

/// The converted types of a check, which a [`crate::SchemaCache`] keeps
/// for later checks (with the same loader and the same type-relevant
/// policy) when reusing them cannot change any result (see
/// [`Conversions::reusable`]).
#[derive(Default)]
pub(crate) struct Conversions {
    /// Converted named objects and resource references, by `ids`.
    objects: RefCell<Vec<ObjectEntry>>,
    ids: RefCell<FastMap<ObjectKey, usize>>,
    /// How many times conversion has returned a cached object whose graph
    /// was not complete (a placeholder still being defined, or an object
    /// that reached one). A conversion during which this does not change
    /// produced a complete graph: acyclic and fully defined, so immutable.
    incomplete_uses: Cell<usize>,
    /// `ResolveOutputs` of complete converted types, by address (the key
    /// type is kept alive beside its result): (type, resolved, height).
    resolved: RefCell<FastMap<usize, (Type, Type, usize)>>,
    /// Converted resource types by (package, version, token, read), so a
    /// resource used by several blocks is converted once, with what their
    /// conversion reached.
    resources: RefCell<FastMap<ResourceKey, TopLevel<ResourceTypes>>>,
    /// Converted function types by (package, version, token), so a
    /// function invoked (or a method called) several times is converted
    /// once.
    functions: RefCell<FastMap<FunctionKey, TopLevel<FunctionTypes>>>,
    /// Resources found by token, by (package, version, token as written).
    found_resources: RefCell<FastMap<FunctionKey, Found<Resource>>>,
    /// The conversions under way, innermost last.
    events: RefCell<Vec<Frame>>,
    /// The deepest conversion depth reached by the conversion under way.
    max_depth: Cell<usize>,
    /// Set when a conversion hit `MAX_SCHEMA_DEPTH`, or reused an object
    /// at a depth where converting it afresh could have: the result then
    /// depends on the order of conversions, so these conversions are not
    /// kept for another check (and a check that reused kept ones is redone
    /// without them).
    depth_dependent: Cell<bool>,
    /// The current check, for `ObjectEntry::mark` (objects whose events
    /// were recorded, converted or replayed, in it).
    generation: Cell<u64>,
    /// Top-level conversions used in the current check.
    used_top: RefCell<FastSet<(bool, FunctionKey, bool)>>,
    /// The converted types a check asks `InputType` of (function inputs,
    /// resource input properties), by address, kept alive here, and their
    /// `InputType` answers: a pure function of the type, so later checks
    /// reuse them (a big schema object's input type is a rebuilt copy of
    /// the whole object).
    input_keys: RefCell<FastMap<usize, Type>>,
    input_types: RefCell<pcl_types::InputTypeMemo>,
}

impl Conversions {
    /// Whether these conversions may serve another check: none of them
    /// depends on the depth it was made at, so reusing one gives exactly
    /// what converting it afresh gives.
    pub(crate) fn reusable(&self) -> bool {
        !self.depth_dependent.get() && self.events.borrow().is_empty()
    }

    /// Whether anything was converted.
    pub(crate) fn is_empty(&self) -> bool {
        self.resources.borrow().is_empty()
            && self.functions.borrow().is_empty()
            && self.ids.borrow().is_empty()
            && self.found_resources.borrow().is_empty()
    }

    /// Prepares kept conversions for a new check.
    pub(crate) fn start_check(&mut self) {
        self.generation.set(self.generation.get() + 1);
        self.used_top.get_mut().clear();
    }
}

/// Loaded packages and converted types of one check.
pub struct Schemas<'a> {
    loader: &'a dyn SchemaLoader,
    policy: BindPolicy,
    descriptors: RefCell<IndexMap<String, PackageDescriptor>>,
    packages: RefCell<IndexMap<String, Result<Arc<Package>, LoadError>>>,
    conv: Conversions,
    /// False only in tests, to compare with resolving each output afresh.
    share_resolutions: bool,
    used: RefCell<IndexMap<String, PackageUse>>,
}

fn version_string(pkg: &Package) -> Option<String> {
    pkg.version().map(ToString::to_string)
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
        conv.start_check();
        Schemas {
            loader,
            policy: policy.clone(),
            descriptors: RefCell::new(IndexMap::new()),
            packages: RefCell::new(IndexMap::new()),
            conv,
            share_resolutions: true,
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
        if let Some(found) = self.packages.borrow().get(name) {
            return found.clone();
        }
        let descriptor = self
            .descriptors
            .borrow()
            .get(name)
            .cloned()
            .unwrap_or_else(|| PackageDescriptor::new(name));
        // Local adapter: an extension package is requested by its own name
        // and version first, because schemas that declare
        // `extensionParameterization` are not recognised as parameterized
        // by every loader (and caching loaders key by name and version).
        let result = match &descriptor.parameterization {
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
        self.packages
            .borrow_mut()
            .insert(name.to_string(), result.clone());
        self.record_use(name, result.as_ref().ok());
        result
    }

    fn record_use(&self, name: &str, pkg: Option<&Arc<Package>>) {
        self.record_use_parts(name, pkg.and_then(|p| version_string(p)), pkg.is_some());
    }

    fn record_use_parts(&self, name: &str, version: Option<String>, loaded: bool) {
        let mut used = self.used.borrow_mut();
        if !used.contains_key(name) {
            used.insert(
                name.to_string(),
                PackageUse {
                    name: name.to_string(),
                    version,
                    loaded,
                },
            );
        }
    }

    /// Packages loaded (or attempted) so far, in first-use order.
    pub fn used_packages(&self) -> Vec<PackageUse> {
        self.used.borrow().values().cloned().collect()
    }

    fn object_options(
        &self,
        annotations: Annotations,
        name: Option<&str>,
        strict: bool,
    ) -> ObjectOptions {
        ObjectOptions {
            annotations,
            strict,
            name: name.map(Arc::from),
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
        let key = (
            pkg.name().to_string(),
            version_string(pkg),
            token.to_string(),
        );
        if let Some(found) = self.conv.found_resources.borrow().get(&key) {
            return Ok(Some(found.clone()));
        }
        let found = pkg.lookup_resource(token)?;
        if let Some(found) = &found {
            self.conv
                .found_resources
                .borrow_mut()
                .insert(key, found.clone());
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
            version_string(pkg),
            res.token.clone(),
            read,
        );
        let top = (true, (key.0.clone(), key.1.clone(), key.2.clone()), read);
        let cached = self.conv.resources.borrow().get(&key).cloned();
        if let Some((types, events, bound)) = cached {
            self.reuse_top(top, &events, bound);
            return types;
        }
        let started = self.start_top(top);
        let types = self.convert_resource(pkg, res, read);
        let (events, bound) = self.finish_top(started);
        if let Some(o) = types.input.as_object() {
            self.keep_input_keys(o.properties().values());
        }
        self.conv
            .resources
            .borrow_mut()
            .insert(key, (types.clone(), events, bound));
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

    fn convert_resource(&self, pkg: &Arc<Package>, res: &Resource, read: bool) -> ResourceTypes {
        let strict_inputs = !self.policy.non_strict_objects();
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
            self.object_options(annotation(true), Some(&res.token), strict_inputs),
        );
        let mut outputs: Vec<(String, Type)> = vec![
            ("id".into(), Type::output(Type::id())),
            ("urn".into(), Type::output(Type::string())),
        ];
        for p in res.properties.values() {
            let before = self.conv.incomplete_uses.get();
            let t = self.output_property(pkg, p, 0);
            outputs.retain(|(n, _)| *n != p.name);
            outputs.push((p.name.clone(), self.output_of(&t, before)));
        }
        let output = Type::object_with(
            outputs,
            self.object_options(annotation(false), Some(&res.token), true),
        );
        ResourceTypes { input, output }
    }

    /// An output property: plain, optional unless required (never made
    /// optional by AllowMissingProperties).
    fn output_property(&self, pkg: &Arc<Package>, p: &Property, depth: usize) -> Type {
        let t = self.convert(pkg, &p.ty, Shape::Plain, depth + 1);
        if p.required {
            t
        } else {
            Type::optional(t)
        }
    }

    // ----- functions --------------------------------------------------------

    /// The converted types of a function, converted once per check.
    pub(crate) fn function_types(&self, pkg: &Arc<Package>, f: &Function) -> FunctionTypes {
        let key = (pkg.name().to_string(), version_string(pkg), f.token.clone());
        let top = (false, key.clone(), false);
        let cached = self.conv.functions.borrow().get(&key).cloned();
        if let Some((types, events, bound)) = cached {
            self.reuse_top(top, &events, bound);
            return types;
        }
        let started = self.start_top(top);
        let types = self.convert_function(pkg, f);
        let (events, bound) = self.finish_top(started);
        let multi = types.multi_argument_inputs.iter().flatten();
        self.keep_input_keys(
            types
                .inputs
                .iter()
                .chain(&types.input_shape)
                .chain(multi.map(|(_, t, _)| t)),
        );
        self.conv
            .functions
            .borrow_mut()
            .insert(key, (types.clone(), events, bound));
        types
    }

    fn convert_function(&self, pkg: &Arc<Package>, f: &Function) -> FunctionTypes {
        let strict = !self.policy.non_strict_objects();
        let has_inputs = f.inputs.as_ref().is_some_and(|i| !i.properties.is_empty());
        let (inputs, input_shape) = match (&f.inputs, has_inputs) {
            (Some(obj), true) => (
                Some(self.anonymous_object(pkg, obj, Shape::Plain, strict, &["__self__"])),
                Some(self.anonymous_object(pkg, obj, Shape::Input, strict, &["__self__"])),
            ),
            _ => (None, None),
        };
        let return_type = f.return_type.as_ref().map(|r| match r {
            ReturnType::Object { object, .. } => {
                self.anonymous_object(pkg, object, Shape::Plain, strict, &[])
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

    fn anonymous_object(
        &self,
        pkg: &Arc<Package>,
        obj: &ObjectType,
        shape: Shape,
        strict: bool,
        skip: &[&str],
    ) -> Type {
        let props: Vec<(String, Type)> = obj
            .properties
            .values()
            .filter(|p| !skip.contains(&p.name.as_str()))
            .map(|p| (p.name.clone(), self.property(pkg, p, shape, 0)))
            .collect();
        Type::object_with(
            props,
            self.object_options(Annotations::none(), None, strict),
        )
    }

    // ----- property types ---------------------------------------------------

    /// A property of an object / resource inputs: `Input<…>` unless plain
    /// (input shape only), `const` types, optional unless required.
    fn property(&self, pkg: &Arc<Package>, p: &Property, shape: Shape, depth: usize) -> Type {
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
        if p.required && !self.policy.allow_missing_properties {
            t
        } else {
            Type::optional(t)
        }
    }

    /// A type in `shape`, wrapped in `Input<…>` when the shape is input and
    /// the type is not plain.
    fn wrapped(&self, pkg: &Arc<Package>, st: &SchemaType, shape: Shape, depth: usize) -> Type {
        let before = self.conv.incomplete_uses.get();
        let t = self.convert(pkg, st, shape, depth);
        if shape == Shape::Input && !st.plain {
            // `output(t)` resolves every output inside `t`. For a complete
            // graph the resolution is shared between the places that wrap
            // the same type instead of being redone for each.
            let output = self.output_of(&t, before);
            Type::union([t, output])
        } else {
            t
        }
    }

    /// `output(t)` for a `t` converted since `incomplete_uses` was `before`:
    /// through the shared resolutions when `t` is complete.
    fn output_of(&self, t: &Type, before: usize) -> Type {
        let resolved = if self.share_resolutions && self.conv.incomplete_uses.get() == before {
            self.resolve_complete(t, 0)
                .filter(|(_, height)| *height <= pcl_types::MAX_TYPE_DEPTH)
        } else {
            None
        };
        match resolved {
            Some((element, _)) => Type::output_of_resolved(element),
            None => Type::output(t.clone()),
        }
    }

    /// `ResolveOutputs(t)` of a complete (acyclic, fully defined) converted
    /// type, memoised by node, with the height of `t`; `None` when `t` is
    /// deeper than the type depth limit. Rebuilds exactly what
    /// `pcl_types::resolve_outputs` rebuilds: a node without eventuals
    /// below it is kept, an output or promise is replaced by its resolved
    /// element, everything else is rebuilt through the normalising
    /// constructors. Because the graph is acyclic and within the depth
    /// limit, the result does not depend on where the walk started.
    fn resolve_complete(&self, t: &Type, depth: usize) -> Option<(Type, usize)> {
        use pcl_types::TypeKind as K;
        if depth > pcl_types::MAX_TYPE_DEPTH {
            return None;
        }
        if let Some((_, resolved, height)) = self.conv.resolved.borrow().get(&type_addr(t)) {
            return Some((resolved.clone(), *height));
        }
        let mut height = 0;
        let mut child = |e: &Type| -> Option<Type> {
            let (r, h) = self.resolve_complete(e, depth + 1)?;
            height = height.max(h + 1);
            Some(r)
        };
        let result = match t.kind() {
            K::Output(e) | K::Promise(e) => child(e)?,
            K::List(e) | K::Map(e) | K::Set(e) => {
                let r = child(e)?;
                match t.kind() {
                    _ if r.ptr_eq(e) => t.clone(),
                    K::List(_) => Type::list(r),
                    K::Map(_) => Type::map(r),
                    _ => Type::set(r),
                }
            }
            K::Tuple(es) => {
                let rs = es.iter().map(&mut child).collect::<Option<Vec<_>>>()?;
                if rs.iter().zip(es.iter()).all(|(r, e)| r.ptr_eq(e)) {
                    t.clone()
                } else {
                    Type::tuple(rs)
                }
            }
            K::Union(u) => {
                let rs = u
                    .elements()
                    .iter()
                    .map(&mut child)
                    .collect::<Option<Vec<_>>>()?;
                if rs.iter().zip(u.elements()).all(|(r, e)| r.ptr_eq(e)) {
                    t.clone()
                } else {
                    Type::union_annotated(rs, u.annotations().clone())
                }
            }
            K::Object(o) => {
                let mut props = Vec::with_capacity(o.properties().len());
                let mut same = true;
                for (k, v) in o.properties() {
                    let r = child(v)?;
                    same &= r.ptr_eq(v);
                    props.push((k.clone(), r));
                }
                if same {
                    t.clone()
                } else {
                    let rebuilt = Type::deferred_object(ObjectOptions {
                        annotations: o.annotations().clone(),
                        strict: o.is_strict(),
                        name: o.name().map(Arc::from),
                    });
                    rebuilt.define_object(props);
                    rebuilt
                }
            }
            _ => t.clone(),
        };
        self.conv
            .resolved
            .borrow_mut()
            .insert(type_addr(t), (t.clone(), result.clone(), height));
        Some((result, height))
    }

    fn convert(&self, pkg: &Arc<Package>, st: &SchemaType, shape: Shape, depth: usize) -> Type {
        if depth > MAX_SCHEMA_DEPTH {
            self.conv.depth_dependent.set(true);
            return Type::dynamic();
        }
        self.reached(depth);
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
                let resolved = match pkg.resolve_ref(r, self.loader) {
                    Ok(resolved) => resolved,
                    Err(_) => return Type::dynamic(),
                };
                let target = &resolved.package;
                if target.name() != pkg.name() {
                    // A package reached through another's types is used
                    // too (binder.md §6.1; binder-vectors E20).
                    self.record_use(target.name(), Some(target));
                    self.push_event(Event::Package(
                        target.name().to_string(),
                        version_string(target),
                    ));
                }
                match &resolved.resolved {
                    Resolved::TypeDef(def) => match def.as_ref() {
                        TypeDef::Object(o) => self.named_object(target, o, shape, depth),
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
                    Resolved::Resource(res) => self.resource_ref(target, res, depth),
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

    fn key(&self, pkg: &Package, token: &str, shape: Shape, resource_ref: bool) -> ObjectKey {
        ObjectKey {
            package: pkg.name().to_string(),
            version: version_string(pkg),
            token: token.to_string(),
            shape,
            resource_ref,
        }
    }

    /// Notes that conversion reached `depth`.
    fn reached(&self, depth: usize) {
        if depth > self.conv.max_depth.get() {
            self.conv.max_depth.set(depth);
        }
        if let Some(top) = self.conv.events.borrow_mut().last_mut() {
            top.local_max = top.local_max.max(depth);
        }
    }

    /// A converted object from the cache, counting a use of an incomplete
    /// one and recording (once per check) what its conversion reached.
    fn cached_object(&self, key: &ObjectKey, depth: usize) -> Option<Type> {
        let id = *self.conv.ids.borrow().get(key)?;
        let generation = self.conv.generation.get();
        let (ty, events, height, first) = {
            let objects = self.conv.objects.borrow();
            let entry = objects.get(id)?;
            if !entry.complete {
                self.conv
                    .incomplete_uses
                    .set(self.conv.incomplete_uses.get() + 1);
            }
            let first = entry.mark.replace(generation) != generation;
            (
                entry.ty.clone(),
                Arc::clone(&entry.events),
                entry.height,
                first,
            )
        };
        self.reached(depth);
        if depth + height > self.conv.max_depth.get() {
            self.conv.max_depth.set(depth + height);
        }
        self.push_event(Event::Object(id));
        if first {
            // Kept from an earlier check: this check would convert it
            // here, which must not reach the depth limit.
            if depth + self.fresh_bound(id) > MAX_SCHEMA_DEPTH {
                self.conv.depth_dependent.set(true);
            }
            self.replay_events(&events);
        }
        Some(ty)
    }

    /// An upper bound of how much deeper than its own depth a fresh
    /// conversion of a finished object goes: its height when complete
    /// (no cycle, so the conversion is the same wherever it starts), else
    /// the sum of the local heights of everything it reaches (a fresh
    /// conversion's deepest path passes through each object at most once).
    fn fresh_bound(&self, id: usize) -> usize {
        let objects = self.conv.objects.borrow();
        let Some(entry) = objects.get(id) else {
            return 0;
        };
        if entry.complete {
            return entry.height;
        }
        if let Some(bound) = entry.bound.get() {
            return bound;
        }
        let mut seen: FastSet<usize> = FastSet::default();
        let mut stack = vec![id];
        let mut sum = 0usize;
        while let Some(k) = stack.pop() {
            if !seen.insert(k) {
                continue;
            }
            let Some(e) = objects.get(k) else {
                continue;
            };
            sum = sum.saturating_add(e.local);
            for event in e.events.iter() {
                if let Event::Object(child) = event {
                    stack.push(*child);
                }
            }
        }
        entry.bound.set(Some(sum));
        sum
    }

    /// Records what a reused conversion reached, as converting it afresh
    /// would have: external packages in order, and for each object the
    /// first time it is met in this check, what its own conversion reached.
    fn replay_events(&self, events: &[Event]) {
        for event in events {
            match event {
                Event::Package(name, version) => {
                    self.record_use_parts(name, version.clone(), true);
                }
                Event::Object(id) => {
                    let generation = self.conv.generation.get();
                    let inner = match self.conv.objects.borrow().get(*id) {
                        Some(e) if e.mark.replace(generation) != generation => {
                            Arc::clone(&e.events)
                        }
                        _ => continue,
                    };
                    self.replay_events(&inner);
                }
            }
        }
    }

    fn push_event(&self, event: Event) {
        if let Some(top) = self.conv.events.borrow_mut().last_mut() {
            top.events.push(event);
        }
    }

    /// Starts a top-level conversion.
    fn start_top(&self, top: (bool, FunctionKey, bool)) -> (usize, usize) {
        self.conv.used_top.borrow_mut().insert(top);
        self.conv.events.borrow_mut().push(Frame::default());
        (
            self.conv.incomplete_uses.get(),
            self.conv.max_depth.replace(0),
        )
    }

    /// Finishes a top-level conversion: its events and an upper bound of
    /// the depth converting it afresh reaches.
    fn finish_top(&self, (before, outer_max): (usize, usize)) -> (Arc<[Event]>, usize) {
        let frame = self.conv.events.borrow_mut().pop().unwrap_or_default();
        let reach = self.conv.max_depth.replace(outer_max);
        let bound = if self.conv.incomplete_uses.get() == before {
            reach
        } else {
            frame
                .events
                .iter()
                .filter_map(|e| match e {
                    Event::Object(k) => Some(self.fresh_bound(*k)),
                    Event::Package(..) => None,
                })
                .fold(frame.local_max, usize::saturating_add)
        };
        (frame.events.into(), bound)
    }

    /// Reuses a top-level conversion: the first time in a check, converting
    /// it afresh must not have reached the depth limit.
    fn reuse_top(&self, top: (bool, FunctionKey, bool), events: &[Event], bound: usize) {
        if self.conv.used_top.borrow_mut().insert(top) && bound > MAX_SCHEMA_DEPTH {
            self.conv.depth_dependent.set(true);
        }
        self.replay_events(events);
    }

    /// Starts converting the object `key` at `depth`: files its
    /// placeholder and returns the state to restore in [`Self::finish_object`].
    fn start_object(&self, key: ObjectKey, placeholder: &Type, depth: usize) -> Started {
        self.reached(depth);
        let mut objects = self.conv.objects.borrow_mut();
        let id = objects.len();
        objects.push(ObjectEntry {
            ty: placeholder.clone(),
            complete: false,
            height: 0,
            local: 0,
            bound: Cell::new(None),
            events: Arc::from([]),
            mark: Cell::new(self.conv.generation.get()),
        });
        drop(objects);
        self.conv.ids.borrow_mut().insert(key, id);
        self.conv.events.borrow_mut().push(Frame {
            events: Vec::new(),
            local_max: depth,
        });
        let outer_max = self.conv.max_depth.replace(depth);
        Started {
            id,
            incomplete_uses: self.conv.incomplete_uses.get(),
            outer_max,
        }
    }

    /// Finishes an object started at `depth`: it is complete when no
    /// incomplete object was used while its properties were converted.
    fn finish_object(&self, depth: usize, started: Started) {
        let Started {
            id,
            incomplete_uses: before,
            outer_max,
        } = started;
        let frame = self.conv.events.borrow_mut().pop().unwrap_or_default();
        let reach = self.conv.max_depth.get().max(depth);
        self.conv.max_depth.set(outer_max.max(reach));
        let complete = self.conv.incomplete_uses.get() == before;
        if let Some(entry) = self.conv.objects.borrow_mut().get_mut(id) {
            entry.complete = complete;
            entry.height = reach - depth;
            entry.local = frame.local_max.saturating_sub(depth);
            entry.events = frame.events.into();
        }
        self.push_event(Event::Object(id));
    }

    fn named_object(&self, pkg: &Arc<Package>, o: &ObjectType, shape: Shape, depth: usize) -> Type {
        let token = o.token.clone().unwrap_or_default();
        let key = self.key(pkg, &token, shape, false);
        if let Some(t) = self.cached_object(&key, depth) {
            return t;
        }
        let annotations = Annotations::new(vec![Arc::new(SchemaObjectAnnotation {
            package: pkg.name().to_string(),
            token: token.clone(),
        })]);
        let placeholder = Type::deferred_object(self.object_options(
            annotations,
            Some(&token),
            !self.policy.non_strict_objects(),
        ));
        let started = self.start_object(key, &placeholder, depth);
        let props: Vec<(String, Type)> = o
            .properties
            .values()
            .map(|p| (p.name.clone(), self.property(pkg, p, shape, depth + 1)))
            .collect();
        placeholder.define_object(props);
        self.finish_object(depth, started);
        placeholder
    }

    fn resource_ref(&self, pkg: &Arc<Package>, res: &Resource, depth: usize) -> Type {
        let key = self.key(pkg, &res.token, Shape::Plain, true);
        if let Some(t) = self.cached_object(&key, depth) {
            return t;
        }
        let annotations = Annotations::new(vec![Arc::new(ResourceAnnotation {
            token: Arc::from(res.token.as_str()),
        })]);
        let placeholder = Type::deferred_object(self.object_options(
            annotations,
            Some(&res.token),
            !self.policy.non_strict_objects(),
        ));
        let started = self.start_object(key, &placeholder, depth);
        let mut props: Vec<(String, Type)> = vec![
            ("id".into(), Type::output(Type::id())),
            ("urn".into(), Type::output(Type::string())),
        ];
        for p in res.properties.values() {
            props.retain(|(n, _)| *n != p.name);
            let before = self.conv.incomplete_uses.get();
            let t = self.output_property(pkg, p, depth + 1);
            props.push((p.name.clone(), self.output_of(&t, before)));
        }
        placeholder.define_object(props);
        self.finish_object(depth, started);
        placeholder
    }
}

/// An object being converted ([`Schemas::start_object`]).
struct Started {
    id: usize,
    incomplete_uses: usize,
    outer_max: usize,
}

/// The conversion caches' hash maps: their keys (tokens, node addresses)
/// come from schemas and the program, are looked up very often and are
/// never iterated where order shows, so they use [`FastHasher`] instead of
/// SipHash.
type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;
type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// A multiply-rotate hasher (the one rustc uses for its own tables): a few
/// instructions per 8 bytes; not meant to resist chosen collisions.
#[derive(Default)]
struct FastHasher(u64);

impl FastHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            if let Some(head) = word.get_mut(..rest.len()) {
                head.copy_from_slice(rest);
            }
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

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

    use pcl_schema::{DirLoader, PackageDescriptor, SchemaLoader};

    use super::Schemas;
    use crate::policy::BindPolicy;

    /// Converts up to `limit` resources of a schema twice, sharing output
    /// resolutions and resolving each afresh, in one `Schemas` each (so
    /// objects converted for earlier resources are reused), and requires
    /// the same types, printed in full (union order included).
    fn same_types_with_shared_resolutions(dir: &Path, package: &str, limit: usize) -> usize {
        let loader = DirLoader::new([dir.to_path_buf()]);
        let policy = BindPolicy::strict();
        let shared = Schemas::new(&loader, &policy);
        let mut fresh = Schemas::new(&loader, &policy);
        fresh.share_resolutions = false;
        let Ok(pkg) = loader.load(&PackageDescriptor::new(package)) else {
            panic!("{package} does not load from {}", dir.display());
        };
        let tokens: Vec<String> = pkg
            .resource_tokens()
            .take(limit)
            .map(String::from)
            .collect();
        for token in &tokens {
            let Some(Ok(res)) = pkg.resource(token) else {
                continue;
            };
            for read in [false, true] {
                let a = shared.resource_types(&pkg, &res, read);
                let b = fresh.resource_types(&pkg, &res, read);
                for (x, y) in [(&a.input, &b.input), (&a.output, &b.output)] {
                    assert_eq!(format!("{x:?}"), format!("{y:?}"), "{token}");
                    assert_eq!(x.to_string(), y.to_string(), "{token}");
                    assert!(x.equals(y), "{token}");
                }
            }
        }
        if package == "kubernetes" {
            assert!(!shared.conv.resolved.borrow().is_empty());
        }
        tokens.len()
    }

    #[test]
    fn fast_hasher_separates_keys() {
        use std::hash::BuildHasher;
        let build = std::hash::BuildHasherDefault::<super::FastHasher>::default();
        let text = "azure-native:eventgrid:TopicSpace";
        let hashes: Vec<u64> = (0..=text.len())
            .filter_map(|n| text.get(..n))
            .map(|t| build.hash_one(t))
            .collect();
        let mut unique = hashes.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), hashes.len());
        assert_eq!(build.hash_one(text), build.hash_one(String::from(text)));
        assert_ne!(build.hash_one(1usize), build.hash_one(2usize));
        let mut map: super::FastMap<String, usize> = super::FastMap::default();
        for (i, n) in (0..=text.len()).enumerate() {
            map.insert(text.get(..n).unwrap_or_default().to_owned(), i);
        }
        assert_eq!(map.get(text), Some(&text.len()));
    }

    #[test]
    fn shared_output_resolutions_change_no_type() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let examples = root.join("examples/schemas");
        assert!(same_types_with_shared_resolutions(&examples, "aws", usize::MAX) > 0);
        let codegen = root.join("../shared/corpus/schemas/codegen");
        if !codegen.exists() {
            eprintln!("corpus absent; skipping its schemas");
            return;
        }
        // Kubernetes has deep, shared and recursive types (JSONSchemaProps).
        let checked = same_types_with_shared_resolutions(&codegen, "kubernetes", 80);
        assert!(checked > 0);
        for package in [
            "docker",
            "basic-unions",
            "synthetic",
            "typeddict",
            "awsx",
            "eks",
        ] {
            same_types_with_shared_resolutions(&codegen, package, usize::MAX);
        }
    }
}
