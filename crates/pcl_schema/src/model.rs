//! The decoded schema model: resources, functions, object and enum types,
//! properties and property types.
//!
//! This is schema data, not PCL types: the binder maps it to `pcl_types`
//! (see binder.md §6.2). Everything the mapping needs is here, including
//! flags PCL ignores today (`secret`, `willReplaceOnChanges`, …) so that
//! code generators can use the same model. Types refer to named types by
//! token ([`TypeRef`]); [`crate::Package::resolve_ref`] resolves them on
//! demand, so recursive types need no cycles in memory.
//!
//! Properties keep schema document order (`IndexMap`); the reference sorts
//! them by name, which [`ObjectType::sorted_properties`] offers.

use std::fmt;

use indexmap::IndexMap;
use serde_json::Value;

/// A primitive schema type name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    Boolean,
    Integer,
    Number,
    String,
}

impl Primitive {
    /// Parses a schema primitive type name (`boolean`, `integer`, `number`,
    /// `string`).
    pub fn parse(name: &str) -> Option<Primitive> {
        match name {
            "boolean" => Some(Primitive::Boolean),
            "integer" => Some(Primitive::Integer),
            "number" => Some(Primitive::Number),
            "string" => Some(Primitive::String),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Primitive::Boolean => "boolean",
            Primitive::Integer => "integer",
            Primitive::Number => "number",
            Primitive::String => "string",
        }
    }
}

impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The built-in types referenced as `pulumi.json#/<Name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `pulumi.json#/Any`
    Any,
    /// `pulumi.json#/Json`
    Json,
    /// `pulumi.json#/Archive`
    Archive,
    /// `pulumi.json#/Asset` (PCL accepts an asset or an archive)
    Asset,
}

/// A property type as written in the schema, with its `plain` flag.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaType {
    pub kind: SchemaTypeKind,
    /// The spec's `plain` flag: not wrapped in `Input<…>` in input shapes.
    pub plain: bool,
}

/// The shape of a [`SchemaType`].
#[derive(Clone, Debug, PartialEq)]
pub enum SchemaTypeKind {
    Primitive(Primitive),
    Builtin(Builtin),
    /// `type: array` with `items`.
    Array(Box<SchemaType>),
    /// `type: object` with `additionalProperties` (default element `string`).
    Map(Box<SchemaType>),
    /// `$ref` to a named type, resource or provider, here or in another
    /// package.
    Ref(TypeRef),
    /// `oneOf`.
    Union(UnionType),
    /// A type the schema gets wrong. The reference maps some of these to
    /// `none` or an "invalid" type silently; the binder should diagnose.
    Invalid(TypeProblem),
}

/// Why a type spec is invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeProblem {
    /// `type` names no known primitive or composite kind (e.g. `"bool"`).
    UnknownPrimitive(String),
    /// `type: array` without `items`.
    MissingItems,
    /// Neither `type`, `$ref` nor `oneOf`.
    Empty,
    /// A `$ref` that cannot be parsed.
    BadRef { reference: String, reason: String },
}

impl fmt::Display for TypeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeProblem::UnknownPrimitive(name) => write!(f, "unknown primitive type {name}"),
            TypeProblem::MissingItems => {
                f.write_str("missing \"items\" property in array type spec")
            }
            TypeProblem::Empty => f.write_str("type spec has no type, $ref or oneOf"),
            TypeProblem::BadRef { reference, reason } => {
                write!(f, "invalid type reference `{reference}`: {reason}")
            }
        }
    }
}

/// What a `$ref` points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// `#/types/<token>`: an object or enum type (or an opaque token type).
    Type,
    /// `#/resources/<token>`: a resource reference.
    Resource,
    /// `#/provider`: the package's provider resource.
    Provider,
}

/// The package named by a cross-package `$ref` path
/// (`/aws/v5.0.0/schema.json`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackageRef {
    pub name: String,
    pub version: semver::Version,
}

/// A parsed `$ref`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeRef {
    /// The `$ref` text as written.
    pub raw: String,
    /// `None` for a reference into the same document.
    pub package: Option<PackageRef>,
    pub kind: RefKind,
    /// The referenced token (`pulumi:providers:<pkg>` for `#/provider`).
    pub token: String,
    /// The spec's `type` next to the `$ref`: the underlying type of an
    /// opaque token type. Ignored when the token names a defined type.
    pub type_hint: Option<String>,
}

/// `oneOf` with its optional default type and discriminator.
#[derive(Clone, Debug, PartialEq)]
pub struct UnionType {
    pub members: Vec<SchemaType>,
    /// The spec's `type` next to `oneOf`.
    pub default_type: Option<Primitive>,
    pub discriminator: Option<Discriminator>,
    /// Problems found while decoding (fewer than two members, unknown
    /// default type, empty discriminator property).
    pub problems: Vec<String>,
}

/// A union discriminator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discriminator {
    pub property_name: String,
    /// Discriminator value → type token or `$ref`, in schema order.
    pub mapping: IndexMap<String, String>,
}

/// A scalar constant (`const`, enum values).
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Bool(bool),
    Int(i64),
    Number(f64),
    String(String),
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Bool(b) => write!(f, "{b}"),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Number(n) => write!(f, "{n}"),
            Literal::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// A property default taken from the environment or a language.
#[derive(Clone, Debug, PartialEq)]
pub struct DefaultInfo {
    pub environment: Vec<String>,
    pub language: Option<Value>,
}

/// An object, resource, function or config property.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    pub name: String,
    pub ty: SchemaType,
    /// Listed in the owner's `required` / `requiredInputs` list.
    pub required: bool,
    pub description: Option<String>,
    /// The `const` value. `None` also when the schema's value does not fit
    /// the type (that case is recorded in the owner's `problems`).
    pub const_value: Option<Literal>,
    /// The `default` value as written (no effect on PCL typing).
    pub default_value: Option<Value>,
    pub default_info: Option<DefaultInfo>,
    pub deprecation_message: Option<String>,
    pub secret: bool,
    pub replace_on_changes: bool,
    pub will_replace_on_changes: bool,
    pub language: Option<Value>,
}

impl Property {
    /// The property's `plain` flag (its type spec's).
    pub fn plain(&self) -> bool {
        self.ty.plain
    }
}

/// A problem found while decoding one member (JSON path relative to it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaProblem {
    pub path: String,
    pub message: String,
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A named (`types`) or anonymous (function inputs/outputs, state inputs)
/// object type.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectType {
    /// The type token; `None` for anonymous objects.
    pub token: Option<String>,
    pub description: Option<String>,
    pub properties: IndexMap<String, Property>,
    pub language: Option<Value>,
    pub is_overlay: bool,
    pub problems: Vec<SchemaProblem>,
}

impl ObjectType {
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.get(name)
    }

    /// Properties sorted by name (the reference's order).
    pub fn sorted_properties(&self) -> Vec<&Property> {
        let mut props: Vec<&Property> = self.properties.values().collect();
        props.sort_by(|a, b| a.name.cmp(&b.name));
        props
    }
}

/// One enum case.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumValue {
    pub name: Option<String>,
    pub description: Option<String>,
    pub value: Literal,
    pub deprecation_message: Option<String>,
}

/// An enum type.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumType {
    pub token: String,
    pub description: Option<String>,
    pub element_type: Primitive,
    pub values: Vec<EnumValue>,
    pub is_overlay: bool,
    pub problems: Vec<SchemaProblem>,
}

/// An entry of `types`.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeDef {
    Object(ObjectType),
    Enum(EnumType),
}

impl TypeDef {
    pub fn token(&self) -> &str {
        match self {
            TypeDef::Object(o) => o.token.as_deref().unwrap_or_default(),
            TypeDef::Enum(e) => &e.token,
        }
    }
}

/// A resource alias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    pub name: Option<String>,
    pub project: Option<String>,
    pub ty: Option<String>,
}

/// The outputs every resource has without declaring them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImplicitOutput {
    /// `id` (PCL type `output(id)`).
    Id,
    /// `urn` (PCL type `output(string)`).
    Urn,
}

impl ImplicitOutput {
    pub const ALL: [ImplicitOutput; 2] = [ImplicitOutput::Id, ImplicitOutput::Urn];

    pub fn name(self) -> &'static str {
        match self {
            ImplicitOutput::Id => "id",
            ImplicitOutput::Urn => "urn",
        }
    }
}

/// A resource, or a package's provider resource.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    /// The schema token (`pulumi:providers:<pkg>` for the provider).
    pub token: String,
    pub is_provider: bool,
    pub description: Option<String>,
    pub input_properties: IndexMap<String, Property>,
    /// Output properties as declared (without the implicit `id`/`urn`).
    pub properties: IndexMap<String, Property>,
    /// `stateInputs`, used by `read` blocks.
    pub state_inputs: Option<ObjectType>,
    pub aliases: Vec<Alias>,
    pub deprecation_message: Option<String>,
    pub is_component: bool,
    /// Method name → function token, in schema order.
    pub methods: IndexMap<String, String>,
    pub is_overlay: bool,
    pub language: Option<Value>,
    pub problems: Vec<SchemaProblem>,
}

impl Resource {
    pub fn input(&self, name: &str) -> Option<&Property> {
        self.input_properties.get(name)
    }

    pub fn output(&self, name: &str) -> Option<&Property> {
        self.properties.get(name)
    }

    /// Whether `name` is an output, counting the implicit `id` and `urn`.
    pub fn has_output(&self, name: &str) -> bool {
        self.properties.contains_key(name) || ImplicitOutput::ALL.iter().any(|o| o.name() == name)
    }

    /// Every output name including `id` and `urn`, sorted and deduplicated
    /// (the list "unknown property" messages show).
    pub fn output_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.properties.keys().map(String::as_str).collect();
        names.extend(ImplicitOutput::ALL.iter().map(|o| o.name()));
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Input properties sorted by name.
    pub fn sorted_inputs(&self) -> Vec<&Property> {
        let mut props: Vec<&Property> = self.input_properties.values().collect();
        props.sort_by(|a, b| a.name.cmp(&b.name));
        props
    }
}

/// What a function returns.
#[derive(Clone, Debug, PartialEq)]
pub enum ReturnType {
    /// An inline object (`outputs` with `properties`); `plain` when the
    /// object is marked `plain: true`.
    Object { object: ObjectType, plain: bool },
    /// Any other type spec (`outputs: {"type": "number"}` …); plain-ness is
    /// the type's `plain` flag.
    Type(SchemaType),
}

impl ReturnType {
    /// Whether the result is not wrapped in an output.
    pub fn plain(&self) -> bool {
        match self {
            ReturnType::Object { plain, .. } => *plain,
            ReturnType::Type(ty) => ty.plain,
        }
    }
}

/// A function (invoke) or method.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub token: String,
    pub description: Option<String>,
    pub inputs: Option<ObjectType>,
    /// The positional order when the function takes multi-argument inputs.
    pub multi_argument_inputs: Option<Vec<String>>,
    pub return_type: Option<ReturnType>,
    pub deprecation_message: Option<String>,
    pub is_overlay: bool,
    pub language: Option<Value>,
    pub problems: Vec<SchemaProblem>,
}

impl Function {
    /// The output object, when the function returns an inline object.
    pub fn outputs(&self) -> Option<&ObjectType> {
        match &self.return_type {
            Some(ReturnType::Object { object, .. }) => Some(object),
            _ => None,
        }
    }

    /// For a method token `<resource token>/<name>`: the resource token and
    /// the method name. This is the token's shape only; a function is a
    /// method when its resource lists it (see `Package::method`).
    pub fn method_parts(&self) -> Option<(&str, &str)> {
        method_parts(&self.token)
    }

    /// The inputs in positional order for multi-argument functions: the
    /// `multiArgumentInputs` names that exist, in that order.
    pub fn positional_inputs(&self) -> Vec<&Property> {
        match (&self.multi_argument_inputs, &self.inputs) {
            (Some(names), Some(inputs)) => {
                names.iter().filter_map(|n| inputs.property(n)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Whether the function has a `__self__` input (methods must).
    pub fn has_self_input(&self) -> bool {
        self.inputs
            .as_ref()
            .is_some_and(|i| i.properties.contains_key("__self__"))
    }
}

/// Splits a method token `pkg:mod:Resource/method` into the resource token
/// and the method name; `None` when the member part has no `/`.
pub fn method_parts(token: &str) -> Option<(&str, &str)> {
    let member_start = token.rfind(':')? + 1;
    let slash = token.get(member_start..)?.rfind('/')? + member_start;
    Some((token.get(..slash)?, token.get(slash + 1..)?))
}

/// Provider configuration variables (`config`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Config {
    pub variables: IndexMap<String, Property>,
    pub problems: Vec<SchemaProblem>,
}

/// `parameterization` of a parameterized (extension) package.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SchemaParameterization {
    pub base_provider: BaseProvider,
    /// The parameter as written (base64).
    pub parameter: String,
}

/// The provider plugin a parameterized package runs on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BaseProvider {
    pub name: String,
    pub version: semver::Version,
    pub plugin_download_url: Option<String>,
}

/// A package this package declares it depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    pub name: String,
    pub version: Option<String>,
    pub download_url: Option<String>,
    /// (name, version, base64 value)
    pub parameterization: Option<(String, String, String)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_token_parts() {
        assert_eq!(
            method_parts("call:index:Custom/providerValue"),
            Some(("call:index:Custom", "providerValue"))
        );
        assert_eq!(
            method_parts("pulumi:providers:call/identity"),
            Some(("pulumi:providers:call", "identity"))
        );
        assert_eq!(method_parts("aws:s3/getBucket:getBucket"), None);
        assert_eq!(method_parts("nocolon"), None);
    }
}
