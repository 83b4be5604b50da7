//! Schemas → PCL types (binder.md §6.2), loaded lazily and cached.
//!
//! [`Schemas`] owns the loaded packages of one check (shared with component
//! sub-programs), the `package`-block descriptors, and a cache of converted
//! object types keyed by (package, token, shape), so a recursive schema type
//! becomes a cyclic graph of one deferred object per token rather than an
//! infinite tree. Only what a program touches is converted.
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
use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use pcl_expr::ResourceAnnotation;
use pcl_schema::{
    Builtin, Function, LoadError, ObjectType, Package, PackageDescriptor, Primitive, Property,
    Resolved, Resource, ReturnType, SchemaLoader, SchemaType, SchemaTypeKind, TypeDef,
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
/// (package, version, function token).
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

/// Loaded packages and converted types of one check.
pub struct Schemas<'a> {
    loader: &'a dyn SchemaLoader,
    policy: BindPolicy,
    descriptors: RefCell<IndexMap<String, PackageDescriptor>>,
    packages: RefCell<IndexMap<String, Result<Arc<Package>, LoadError>>>,
    objects: RefCell<HashMap<ObjectKey, Type>>,
    /// Converted resource types by (package, version, token, read), so a
    /// resource used by several blocks is converted once per check.
    resources: RefCell<HashMap<ResourceKey, ResourceTypes>>,
    /// Converted function types by (package, version, token), so a
    /// function invoked (or a method called) several times is converted
    /// once per check.
    functions: RefCell<HashMap<FunctionKey, FunctionTypes>>,
    used: RefCell<IndexMap<String, PackageUse>>,
}

fn version_string(pkg: &Package) -> Option<String> {
    pkg.version().map(ToString::to_string)
}

impl<'a> Schemas<'a> {
    pub fn new(loader: &'a dyn SchemaLoader, policy: &BindPolicy) -> Schemas<'a> {
        Schemas {
            loader,
            policy: policy.clone(),
            descriptors: RefCell::new(IndexMap::new()),
            packages: RefCell::new(IndexMap::new()),
            objects: RefCell::new(HashMap::new()),
            resources: RefCell::new(HashMap::new()),
            functions: RefCell::new(HashMap::new()),
            used: RefCell::new(IndexMap::new()),
        }
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
        let mut used = self.used.borrow_mut();
        if !used.contains_key(name) {
            used.insert(
                name.to_string(),
                PackageUse {
                    name: name.to_string(),
                    version: pkg.and_then(|p| version_string(p)),
                    loaded: pkg.is_some(),
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
        if let Some(found) = self.resources.borrow().get(&key) {
            return found.clone();
        }
        let types = self.convert_resource(pkg, res, read);
        self.resources.borrow_mut().insert(key, types.clone());
        types
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
            let t = self.output_property(pkg, p, 0);
            outputs.retain(|(n, _)| *n != p.name);
            outputs.push((p.name.clone(), Type::output(t)));
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
        if let Some(found) = self.functions.borrow().get(&key) {
            return found.clone();
        }
        let types = self.convert_function(pkg, f);
        self.functions.borrow_mut().insert(key, types.clone());
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
        let t = self.convert(pkg, st, shape, depth);
        if shape == Shape::Input && !st.plain {
            Type::union([t.clone(), Type::output(t)])
        } else {
            t
        }
    }

    fn convert(&self, pkg: &Arc<Package>, st: &SchemaType, shape: Shape, depth: usize) -> Type {
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
                let resolved = match pkg.resolve_ref(r, self.loader) {
                    Ok(resolved) => resolved,
                    Err(_) => return Type::dynamic(),
                };
                let target = &resolved.package;
                if target.name() != pkg.name() {
                    // A package reached through another's types is used
                    // too (binder.md §6.1; binder-vectors E20).
                    self.record_use(target.name(), Some(target));
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

    fn named_object(&self, pkg: &Arc<Package>, o: &ObjectType, shape: Shape, depth: usize) -> Type {
        let token = o.token.clone().unwrap_or_default();
        let key = self.key(pkg, &token, shape, false);
        if let Some(t) = self.objects.borrow().get(&key) {
            return t.clone();
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
        self.objects.borrow_mut().insert(key, placeholder.clone());
        let props: Vec<(String, Type)> = o
            .properties
            .values()
            .map(|p| (p.name.clone(), self.property(pkg, p, shape, depth + 1)))
            .collect();
        placeholder.define_object(props);
        placeholder
    }

    fn resource_ref(&self, pkg: &Arc<Package>, res: &Resource, depth: usize) -> Type {
        let key = self.key(pkg, &res.token, Shape::Plain, true);
        if let Some(t) = self.objects.borrow().get(&key) {
            return t.clone();
        }
        let annotations = Annotations::new(vec![Arc::new(ResourceAnnotation {
            token: Arc::from(res.token.as_str()),
        })]);
        let placeholder = Type::deferred_object(self.object_options(
            annotations,
            Some(&res.token),
            !self.policy.non_strict_objects(),
        ));
        self.objects.borrow_mut().insert(key, placeholder.clone());
        let mut props: Vec<(String, Type)> = vec![
            ("id".into(), Type::output(Type::id())),
            ("urn".into(), Type::output(Type::string())),
        ];
        for p in res.properties.values() {
            props.retain(|(n, _)| *n != p.name);
            props.push((
                p.name.clone(),
                Type::output(self.output_property(pkg, p, depth + 1)),
            ));
        }
        placeholder.define_object(props);
        placeholder
    }
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
