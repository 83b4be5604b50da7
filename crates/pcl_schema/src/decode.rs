//! Turning serde's view of one schema member ([`crate::spec`]) into the
//! public model ([`crate::model`]).
//!
//! Decoding never fails on a semantic problem inside a member: a bad type
//! spec becomes [`SchemaTypeKind::Invalid`], a bad `required` name or
//! constant becomes a [`SchemaProblem`] on the owner. Only an enum whose
//! element type is not a primitive fails outright (there is nothing to map
//! it to). The rules follow the reference schema binder (binder.md §6.2).

use indexmap::IndexMap;
use serde_json::Value;

use crate::model::{
    Alias, BaseProvider, Builtin, Config, DefaultInfo, Discriminator, EnumType, EnumValue,
    Function, Literal, ObjectType, PackageRef, Primitive, Property, RefKind, Resource, ReturnType,
    SchemaParameterization, SchemaProblem, SchemaType, SchemaTypeKind, TypeDef, TypeProblem,
    TypeRef, UnionType,
};
use crate::spec::{
    RawComplexType, RawConfig, RawFunction, RawMap, RawObject, RawParameterization, RawProperty,
    RawResource, RawTypeSpec,
};

/// Collects problems under JSON-pointer-like paths.
#[derive(Default)]
pub(crate) struct Problems(pub Vec<SchemaProblem>);

impl Problems {
    fn push(&mut self, path: &str, message: impl Into<String>) {
        self.0.push(SchemaProblem {
            path: path.to_owned(),
            message: message.into(),
        });
    }

    fn push_at(&mut self, path: &Path<'_>, message: impl Into<String>) {
        self.push(&path.render(), message);
    }
}

/// The JSON-pointer-like path of a type spec, built as text only when a
/// problem is reported there (most members have none).
#[derive(Clone, Copy)]
pub(crate) enum Path<'a> {
    Root(&'a str),
    /// `<parent>/<segment>`.
    Child(&'a Path<'a>, &'a str),
    /// `<parent>/<segment>/<index>`.
    Index(&'a Path<'a>, &'a str, usize),
}

impl Path<'_> {
    fn render(&self) -> String {
        match self {
            Path::Root(text) => (*text).to_owned(),
            Path::Child(parent, segment) => format!("{}/{segment}", parent.render()),
            Path::Index(parent, segment, i) => format!("{}/{segment}/{i}", parent.render()),
        }
    }
}

pub(crate) fn type_spec(path: &Path<'_>, raw: RawTypeSpec, problems: &mut Problems) -> SchemaType {
    let plain = raw.plain;
    let kind = type_kind(path, raw, problems);
    // The reference's paths and wording (`bindTypeSpec`).
    match &kind {
        SchemaTypeKind::Invalid(TypeProblem::UnknownPrimitive(name)) => problems.push_at(
            &Path::Child(path, "type"),
            format!("unknown type kind {name}"),
        ),
        SchemaTypeKind::Invalid(TypeProblem::BadRef { reason, .. }) => {
            problems.push_at(&Path::Child(path, "$ref"), reason.clone());
        }
        SchemaTypeKind::Invalid(problem) => problems.push_at(path, problem.to_string()),
        _ => {}
    }
    SchemaType { kind, plain }
}

fn type_kind(path: &Path<'_>, raw: RawTypeSpec, problems: &mut Problems) -> SchemaTypeKind {
    if let Some(reference) = raw.reference {
        return match builtin(&reference) {
            Some(b) => SchemaTypeKind::Builtin(b),
            None => match parse_ref(&reference, raw.ty) {
                Ok(r) => SchemaTypeKind::Ref(r),
                Err(reason) => SchemaTypeKind::Invalid(TypeProblem::BadRef { reference, reason }),
            },
        };
    }
    if let Some(one_of) = raw.one_of {
        return SchemaTypeKind::Union(union(path, one_of, raw.ty, raw.discriminator, problems));
    }
    let Some(name) = raw.ty else {
        return SchemaTypeKind::Invalid(TypeProblem::Empty);
    };
    if let Some(p) = Primitive::parse(&name) {
        return SchemaTypeKind::Primitive(p);
    }
    match name.as_str() {
        "array" => match raw.items {
            Some(items) => SchemaTypeKind::Array(Box::new(type_spec(
                &Path::Child(path, "items"),
                *items,
                problems,
            ))),
            None => SchemaTypeKind::Invalid(TypeProblem::MissingItems),
        },
        "object" => {
            let element = match raw.additional_properties {
                Some(el) => type_spec(&Path::Child(path, "additionalProperties"), *el, problems),
                None => SchemaType {
                    kind: SchemaTypeKind::Primitive(Primitive::String),
                    plain: false,
                },
            };
            SchemaTypeKind::Map(Box::new(element))
        }
        _ => SchemaTypeKind::Invalid(TypeProblem::UnknownPrimitive(name)),
    }
}

fn union(
    path: &Path<'_>,
    one_of: Vec<RawTypeSpec>,
    default_type: Option<String>,
    discriminator: Option<Box<crate::spec::RawDiscriminator>>,
    problems: &mut Problems,
) -> UnionType {
    let mut own = Vec::new();
    if one_of.len() < 2 {
        own.push("oneOf should list at least two types".to_owned());
    }
    let default_type = default_type.and_then(|name| {
        let p = Primitive::parse(&name);
        if p.is_none() {
            own.push(format!("unknown primitive type {name}"));
        }
        p
    });
    let members = one_of
        .into_iter()
        .enumerate()
        .map(|(i, m)| type_spec(&Path::Index(path, "oneOf", i), m, problems))
        .collect();
    let discriminator = discriminator.map(|d| {
        if d.property_name.is_empty() {
            own.push("discriminator must provide a property name".to_owned());
        }
        Discriminator {
            property_name: d.property_name,
            mapping: d.mapping,
        }
    });
    for message in &own {
        problems.push_at(path, message.clone());
    }
    UnionType {
        members,
        default_type,
        discriminator,
        problems: own,
    }
}

fn builtin(reference: &str) -> Option<Builtin> {
    match reference {
        "pulumi.json#/Any" => Some(Builtin::Any),
        "pulumi.json#/Json" => Some(Builtin::Json),
        "pulumi.json#/Archive" => Some(Builtin::Archive),
        "pulumi.json#/Asset" => Some(Builtin::Asset),
        _ => None,
    }
}

/// Parses `[<path>]#/(types|resources)/<token>` or `[<path>]#/provider`,
/// where `<path>` is `/<pkg>/v<version>/schema.json`, optionally inside an
/// absolute URL.
pub(crate) fn parse_ref(reference: &str, type_hint: Option<String>) -> Result<TypeRef, String> {
    let (path, fragment) = match reference.split_once('#') {
        Some((p, f)) => (p, f),
        None => (reference, ""),
    };
    let package = if path.is_empty() {
        None
    } else {
        Some(parse_ref_path(path)?)
    };
    let fragment = fragment.trim_start_matches('/').trim_end_matches('/');
    let (kind, token) = match fragment.split_once('/') {
        Some((k, t)) => (k, t),
        None => (fragment, ""),
    };
    let (kind, token) = match kind {
        "provider" if token.is_empty() => {
            let pkg = package.as_ref().map(|p| p.name.clone());
            // The provider token of the current package is filled in by the
            // resolver when the reference is local.
            (
                RefKind::Provider,
                pkg.map(|n| format!("pulumi:providers:{n}"))
                    .unwrap_or_default(),
            )
        }
        "provider" => return Err(format!("invalid provider reference `{reference}`")),
        "types" => (RefKind::Type, percent_decode(token)?),
        "resources" => (RefKind::Resource, percent_decode(token)?),
        _ => return Err(format!("invalid type reference `{reference}`")),
    };
    if token.is_empty() && kind != RefKind::Provider {
        return Err("missing token".to_owned());
    }
    Ok(TypeRef {
        raw: reference.to_owned(),
        package,
        kind,
        token,
        type_hint,
    })
}

fn parse_ref_path(path: &str) -> Result<PackageRef, String> {
    // Drop a scheme and host: only the URL path matters.
    let path = match path.find("://") {
        Some(i) => {
            let after = path.get(i + 3..).unwrap_or_default();
            after.find('/').and_then(|j| after.get(j..)).unwrap_or("")
        }
        None => path,
    };
    let path = percent_decode(path)?;
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let (name, version) = match parts.as_slice() {
        [name, version, "schema.json"]
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c == '-' || c == '_' || c.is_alphanumeric()) =>
        {
            (*name, *version)
        }
        _ => return Err(format!("failed to parse path `{path}`")),
    };
    let Some(version_text) = version.strip_prefix('v') else {
        return Err(format!("failed to parse path `{path}`"));
    };
    let version = parse_version_tolerant(version_text)
        .ok_or_else(|| format!("failed to parse package version `{version}`"))?;
    Ok(PackageRef {
        name: name.to_owned(),
        version,
    })
}

/// Parses a semantic version, also accepting a leading `v` and missing
/// minor/patch numbers (`5`, `5.4`).
pub(crate) fn parse_version_tolerant(text: &str) -> Option<semver::Version> {
    let text = text.trim().trim_start_matches('v');
    if let Ok(v) = semver::Version::parse(text) {
        return Some(v);
    }
    let split = text.find(['-', '+']).unwrap_or(text.len());
    let (core, rest) = text.split_at(split);
    let dots = core.matches('.').count();
    let padded = match dots {
        0 => format!("{core}.0.0{rest}"),
        1 => format!("{core}.0{rest}"),
        _ => return None,
    };
    semver::Version::parse(&padded).ok()
}

fn percent_decode(text: &str) -> Result<String, String> {
    if !text.contains('%') {
        return Ok(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("invalid escape in `{text}`"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("invalid UTF-8 after unescaping `{text}`"))
}

/// A JSON scalar as a literal, without a type to check against.
fn untyped_literal(value: &Value) -> Option<Literal> {
    match value {
        Value::Bool(b) => Some(Literal::Bool(*b)),
        Value::String(s) => Some(Literal::String(s.clone())),
        Value::Number(n) => n
            .as_i64()
            .map(Literal::Int)
            .or_else(|| n.as_f64().map(Literal::Number)),
        _ => None,
    }
}

/// A constant checked against a primitive type (the reference's rules:
/// integers must be integral and fit in 32 bits).
fn typed_literal(value: &Value, ty: Primitive) -> Result<Literal, String> {
    let mismatch = || format!("invalid constant {value} for type {ty}");
    match ty {
        Primitive::Boolean => value.as_bool().map(Literal::Bool).ok_or_else(mismatch),
        Primitive::String => value
            .as_str()
            .map(|s| Literal::String(s.to_owned()))
            .ok_or_else(mismatch),
        Primitive::Number => value.as_f64().map(Literal::Number).ok_or_else(mismatch),
        Primitive::Integer => {
            let f = value.as_f64().ok_or_else(mismatch)?;
            if f.fract() != 0.0 || f < f64::from(i32::MIN) || f > f64::from(i32::MAX) {
                return Err(mismatch());
            }
            value
                .as_i64()
                .or_else(|| format!("{f}").parse::<i64>().ok())
                .map(Literal::Int)
                .ok_or_else(mismatch)
        }
    }
}

fn const_value(
    path: &Path<'_>,
    value: &Value,
    ty: &SchemaType,
    problems: &mut Problems,
) -> Option<Literal> {
    let result = match &ty.kind {
        SchemaTypeKind::Primitive(p) => typed_literal(value, *p),
        SchemaTypeKind::Ref(_) | SchemaTypeKind::Union(_) => {
            untyped_literal(value).ok_or_else(|| format!("invalid constant {value}"))
        }
        SchemaTypeKind::Invalid(_) => return None,
        _ => {
            Err("only booleans, integers, numbers and strings may have constant values".to_owned())
        }
    };
    match result {
        Ok(l) => Some(l),
        Err(message) => {
            problems.push_at(&Path::Child(path, "const"), message);
            None
        }
    }
}

fn property(
    path: &Path<'_>,
    name: &str,
    mut raw: RawProperty,
    problems: &mut Problems,
) -> Property {
    let ty = type_spec(path, raw.type_spec(), problems);
    let const_value = raw
        .constant
        .as_deref()
        .and_then(|v| const_value(path, v, &ty, problems));
    if let Some(info) = &raw.default_info {
        if info.environment.is_empty() {
            problems.push_at(
                &Path::Child(path, "defaultInfo"),
                "Default must specify an environment",
            );
        }
    }
    Property {
        name: name.to_owned(),
        ty,
        required: false,
        description: raw.description,
        const_value,
        default_value: raw.default.map(|v| *v),
        default_info: raw.default_info.map(|d| DefaultInfo {
            environment: d.environment,
            language: d.language,
        }),
        deprecation_message: raw.deprecation_message,
        secret: raw.secret,
        replace_on_changes: raw.replace_on_changes,
        will_replace_on_changes: raw.will_replace_on_changes,
        language: raw.language.map(|v| *v),
    }
}

fn properties(
    path: &Path<'_>,
    raw: RawMap<RawProperty>,
    required_path: &Path<'_>,
    required: &[String],
    problems: &mut Problems,
) -> IndexMap<String, Property> {
    let mut props: IndexMap<String, Property> = raw
        .into_unique()
        .into_iter()
        .map(|(name, p)| {
            let prop = property(&Path::Child(path, &name), &name, p, problems);
            (name, prop)
        })
        .collect();
    for (i, name) in required.iter().enumerate() {
        match props.get_mut(name) {
            Some(p) => p.required = true,
            None => problems.push(
                &format!("{}/{i}", required_path.render()),
                format!("unknown required property {name:?}"),
            ),
        }
    }
    props
}

pub(crate) fn object(path: &Path<'_>, token: Option<String>, raw: RawObject) -> ObjectType {
    let mut problems = Problems::default();
    if matches!(&raw.plain, Some(Value::Array(list)) if !list.is_empty()) {
        problems.push_at(
            &Path::Child(path, "plain"),
            "plain has been removed; the property type must be marked as plain instead",
        );
    }
    let properties = properties(
        &Path::Child(path, "properties"),
        raw.properties,
        &Path::Child(path, "required"),
        &raw.required,
        &mut problems,
    );
    ObjectType {
        token,
        description: raw.description,
        properties,
        language: raw.language,
        is_overlay: raw.is_overlay,
        problems: problems.0,
    }
}

pub(crate) fn type_def(token: &str, raw: RawComplexType) -> Result<TypeDef, String> {
    let path = Path::Child(&Path::Root("#/types"), token);
    if raw.ty.as_deref() == Some("object") {
        let obj = RawObject {
            description: raw.description,
            properties: raw.properties,
            ty: raw.ty,
            required: raw.required,
            plain: raw.plain,
            language: raw.language,
            is_overlay: raw.is_overlay,
        };
        return Ok(TypeDef::Object(object(&path, Some(token.to_owned()), obj)));
    }
    let name = raw.ty.unwrap_or_default();
    let element_type = Primitive::parse(&name).ok_or_else(|| {
        format!("enums may only be of type string, integer, number or boolean, not `{name}`")
    })?;
    let mut problems = Problems::default();
    let mut values = Vec::with_capacity(raw.values.len());
    for (i, v) in raw.values.into_iter().enumerate() {
        match typed_literal(&v.value, element_type) {
            Ok(value) => values.push(EnumValue {
                name: v.name,
                description: v.description,
                value,
                deprecation_message: v.deprecation_message,
            }),
            Err(message) => problems.push(&format!("{}/enum/{i}/value", path.render()), message),
        }
    }
    Ok(TypeDef::Enum(EnumType {
        token: token.to_owned(),
        description: raw.description,
        element_type,
        values,
        is_overlay: raw.is_overlay,
        problems: problems.0,
    }))
}

pub(crate) fn resource(token: &str, raw: RawResource, is_provider: bool) -> Resource {
    let resources = Path::Root("#/resources");
    let path = if is_provider {
        Path::Root("#/provider")
    } else {
        Path::Child(&resources, token)
    };
    let mut problems = Problems::default();
    if raw.plain.as_ref().is_some_and(non_empty_list) {
        problems.push_at(&Path::Child(&path, "plain"), "plain has been removed");
    }
    if raw.plain_inputs.as_ref().is_some_and(non_empty_list) {
        problems.push_at(
            &Path::Child(&path, "plainInputs"),
            "plainInputs has been removed",
        );
    }
    let mut outputs = properties(
        &Path::Child(&path, "properties"),
        raw.properties,
        &Path::Child(&path, "required"),
        &raw.required,
        &mut problems,
    );
    if is_provider {
        // The reference keeps only string-typed provider outputs (non-string
        // provider configuration is JSON-serialised and not readable back):
        // strings, string enums and token types whose underlying type is
        // string. What a type reference names is known only once it is
        // resolved: the package keeps those that name string enums or
        // string token types ([`crate::Package::provider`]).
        outputs.retain(|_, p| match &p.ty.kind {
            SchemaTypeKind::Primitive(Primitive::String) => true,
            SchemaTypeKind::Ref(r) => r.kind == RefKind::Type,
            _ => false,
        });
    }
    let inputs = properties(
        &Path::Child(&path, "inputProperties"),
        raw.input_properties,
        &Path::Child(&path, "requiredInputs"),
        &raw.required_inputs,
        &mut problems,
    );
    for name in raw.methods.keys() {
        if outputs.contains_key(name) {
            problems.push(
                &format!("{}/methods/{name}", path.render()),
                format!("{token} already has a property named {name}"),
            );
        }
    }
    let state_inputs = raw
        .state_inputs
        .map(|s| object(&Path::Child(&path, "stateInputs"), None, s));
    Resource {
        token: token.to_owned(),
        is_provider,
        description: raw.description,
        input_properties: inputs,
        properties: outputs,
        state_inputs,
        aliases: raw
            .aliases
            .into_iter()
            .map(|a| Alias {
                name: a.name,
                project: a.project,
                ty: a.ty,
            })
            .collect(),
        deprecation_message: raw.deprecation_message,
        is_component: raw.is_component,
        methods: raw.methods,
        is_overlay: raw.is_overlay,
        language: raw.language,
        problems: problems.0,
    }
}

fn non_empty_list(v: &Value) -> bool {
    matches!(v, Value::Array(list) if !list.is_empty())
}

pub(crate) fn function(token: &str, raw: RawFunction) -> Result<Function, String> {
    let path = format!("#/functions/{token}");
    let mut problems = Problems::default();
    let inputs = raw
        .inputs
        .map(|i| object(&Path::Child(&Path::Root(&path), "inputs"), None, i));
    if let Some(names) = &raw.multi_argument_inputs {
        match &inputs {
            None if !names.is_empty() => problems.push(
                &path,
                "cannot specify multi-argument inputs without specifying inputs",
            ),
            None => {}
            Some(inputs) => {
                for (i, n) in names.iter().enumerate() {
                    if !inputs.properties.contains_key(n) {
                        problems.push(
                            &format!("{path}/multiArgumentInputs/{i}"),
                            format!("refers to non-existent property {n:?}"),
                        );
                    }
                }
                for n in inputs.properties.keys() {
                    if !names.contains(n) {
                        problems.push(
                            &format!("{path}/inputs/properties/{n}"),
                            format!("property {n:?} not specified by multiArgumentInputs"),
                        );
                    }
                }
            }
        }
    }
    let return_type = match raw.outputs {
        None | Some(Value::Null) => None,
        Some(value) => Some(return_type(
            &format!("{path}/outputs"),
            value,
            &mut problems,
        )?),
    };
    Ok(Function {
        token: token.to_owned(),
        description: raw.description,
        inputs,
        multi_argument_inputs: raw.multi_argument_inputs.filter(|n| !n.is_empty()),
        return_type,
        deprecation_message: raw.deprecation_message,
        is_overlay: raw.is_overlay,
        language: raw.language,
        problems: problems.0,
    })
}

fn return_type(path: &str, value: Value, problems: &mut Problems) -> Result<ReturnType, String> {
    let is_object = value.get("properties").is_some();
    if is_object {
        let plain = value.get("plain").and_then(Value::as_bool).unwrap_or(false);
        let raw: RawObject = serde_json::from_value(value).map_err(|e| format!("{path}: {e}"))?;
        let object = object(&Path::Root(path), None, raw);
        Ok(ReturnType::Object { object, plain })
    } else {
        let raw: RawTypeSpec = serde_json::from_value(value).map_err(|e| format!("{path}: {e}"))?;
        Ok(ReturnType::Type(type_spec(
            &Path::Root(path),
            raw,
            problems,
        )))
    }
}

pub(crate) fn config(raw: RawConfig) -> Config {
    let mut problems = Problems::default();
    let variables = properties(
        &Path::Root("#/config/variables"),
        raw.variables,
        &Path::Root("#/config/defaults"),
        &raw.required,
        &mut problems,
    );
    if variables.contains_key("version") {
        problems.push(
            "#/config/variables/version",
            "version is a reserved configuration key",
        );
    }
    Config {
        variables,
        problems: problems.0,
    }
}

pub(crate) fn parameterization(raw: RawParameterization) -> Result<SchemaParameterization, String> {
    if raw.base_provider.name.is_empty() {
        return Err(
            "#/parameterization/baseProvider/name: provider name must be specified".to_owned(),
        );
    }
    let version = semver::Version::parse(&raw.base_provider.version).map_err(|e| {
        format!(
            "#/parameterization/baseProvider/version: invalid version {:?}: {e}",
            raw.base_provider.version
        )
    })?;
    Ok(SchemaParameterization {
        base_provider: BaseProvider {
            name: raw.base_provider.name,
            version,
            plugin_download_url: raw.base_provider.plugin_download_url,
        },
        parameter: raw.parameter,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(json: &str) -> (SchemaType, Vec<SchemaProblem>) {
        let raw: RawTypeSpec = serde_json::from_str(json).unwrap();
        let mut problems = Problems::default();
        (type_spec(&Path::Root("#"), raw, &mut problems), problems.0)
    }

    #[test]
    fn primitives_and_collections() {
        assert_eq!(
            ty(r#"{"type":"integer"}"#).0.kind,
            SchemaTypeKind::Primitive(Primitive::Integer)
        );
        let (map, _) = ty(r#"{"type":"object"}"#);
        assert!(
            matches!(map.kind, SchemaTypeKind::Map(el) if el.kind == SchemaTypeKind::Primitive(Primitive::String))
        );
        let (arr, _) = ty(r#"{"type":"array","items":{"type":"boolean","plain":true}}"#);
        assert!(matches!(arr.kind, SchemaTypeKind::Array(el) if el.plain));
    }

    #[test]
    fn invalid_types_are_values_with_problems() {
        let (t, problems) = ty(r#"{"type":"bool"}"#);
        assert_eq!(
            t.kind,
            SchemaTypeKind::Invalid(TypeProblem::UnknownPrimitive("bool".into()))
        );
        assert_eq!(problems.len(), 1);
        assert_eq!(
            ty(r#"{"type":"array"}"#).0.kind,
            SchemaTypeKind::Invalid(TypeProblem::MissingItems)
        );
        assert_eq!(ty("{}").0.kind, SchemaTypeKind::Invalid(TypeProblem::Empty));
        assert!(matches!(
            ty(r##"{"$ref":"#/nothing/x"}"##).0.kind,
            SchemaTypeKind::Invalid(TypeProblem::BadRef { .. })
        ));
    }

    #[test]
    fn refs() {
        let r = parse_ref(
            "/aws/v5.4.0/schema.json#/types/aws:s3%2Fbucket:Bucket",
            None,
        )
        .unwrap();
        assert_eq!(r.kind, RefKind::Type);
        assert_eq!(r.token, "aws:s3/bucket:Bucket");
        let pkg = r.package.unwrap();
        assert_eq!(
            (pkg.name.as_str(), pkg.version.to_string().as_str()),
            ("aws", "5.4.0")
        );
        let r = parse_ref("#/resources/x:index:Y", Some("ref".into())).unwrap();
        assert_eq!(
            (r.kind, r.package, r.type_hint.as_deref()),
            (RefKind::Resource, None, Some("ref"))
        );
        let r = parse_ref("/kubernetes/v3.0.0/schema.json#/provider", None).unwrap();
        assert_eq!(
            (r.kind, r.token.as_str()),
            (RefKind::Provider, "pulumi:providers:kubernetes")
        );
        let r = parse_ref(
            "https://example.com/google/v6/schema.json#/types/g:a:B",
            None,
        )
        .unwrap();
        assert_eq!(r.package.unwrap().version, semver::Version::new(6, 0, 0));
        for bad in [
            "#/types/",
            "#/provider/x",
            "/aws/5.0/schema.json#/types/a",
            "/a/b/c/d#/types/x",
            "x",
        ] {
            assert!(parse_ref(bad, None).is_err(), "{bad}");
        }
    }

    #[test]
    fn constants_follow_the_type() {
        let prop: RawProperty = serde_json::from_str(r#"{"type":"integer","const":3}"#).unwrap();
        let mut problems = Problems::default();
        assert_eq!(
            property(&Path::Root("#"), "p", prop, &mut problems).const_value,
            Some(Literal::Int(3))
        );
        let prop: RawProperty = serde_json::from_str(r#"{"type":"integer","const":3.5}"#).unwrap();
        assert_eq!(
            property(&Path::Root("#"), "p", prop, &mut problems).const_value,
            None
        );
        assert_eq!(problems.0.len(), 1);
    }

    #[test]
    fn tolerant_versions() {
        assert_eq!(parse_version_tolerant("v5").unwrap().to_string(), "5.0.0");
        assert_eq!(
            parse_version_tolerant("1.2-beta").unwrap().to_string(),
            "1.2.0-beta"
        );
        assert!(parse_version_tolerant("x").is_none());
    }

    /// Problems deep inside a type name their place with the full path.
    #[test]
    fn nested_problem_paths() {
        let raw: RawComplexType = serde_json::from_str(
            r#"{"type": "object", "properties": {
                "a": {"type": "array", "items": {"type": "nope"}},
                "m": {"type": "object", "additionalProperties": {"type": "array"}},
                "u": {"oneOf": [{"type": "string"}, {"type": "bogus"}]},
                "c": {"type": "string", "const": 1},
                "d": {"type": "string", "defaultInfo": {}}
            }, "required": ["zz"]}"#,
        )
        .unwrap();
        let Ok(TypeDef::Object(obj)) = type_def("p:index:T", raw) else {
            panic!("not an object");
        };
        let paths: Vec<&str> = obj.problems.iter().map(|p| p.path.as_str()).collect();
        let base = "#/types/p:index:T";
        for want in [
            format!("{base}/properties/a/items/type"),
            format!("{base}/properties/m/additionalProperties"),
            format!("{base}/properties/u/oneOf/1/type"),
            format!("{base}/properties/c/const"),
            format!("{base}/properties/d/defaultInfo"),
            format!("{base}/required/0"),
        ] {
            assert!(paths.contains(&want.as_str()), "{want} not in {paths:?}");
        }
    }
}
