//! Tests over the fixture schemas in `testdata/schemas` (also used by the
//! binder's golden tests): loading, version resolution, lookups, refs,
//! parameterization, laziness and error values.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;

use pcl_schema::{
    Builtin, CachingLoader, ChainLoader, DirLoader, LoadError, LookupError, MemoryLoader,
    PackageDescriptor, Parameterization, Primitive, RefKind, ResolveError, Resolved, ReturnType,
    SchemaLoader, SchemaTypeKind, TypeDef, TypeProblem,
};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/schemas")
}

fn loader() -> CachingLoader<DirLoader> {
    CachingLoader::new(DirLoader::new([dir()]))
}

fn v(s: &str) -> semver::Version {
    semver::Version::parse(s).unwrap()
}

#[test]
fn tiny_resource_model() {
    let l = loader();
    let pkg = l.load_package("tiny", None).unwrap();
    assert_eq!((pkg.name(), pkg.version()), ("tiny", Some(&v("1.0.0"))));
    assert_eq!(pkg.display_name(), Some("Tiny"));
    let found = pkg.lookup_resource("tiny:index:Widget").unwrap().unwrap();
    assert_eq!(found.canonical_token, "tiny::Widget");
    let w = &found.item;
    let name = w.input("name").unwrap();
    assert!(name.required && name.will_replace_on_changes);
    assert_eq!(name.ty.kind, SchemaTypeKind::Primitive(Primitive::String));
    assert!(w.input("labels").unwrap().plain());
    assert!(w.input("password").unwrap().secret);
    assert_eq!(
        w.input("kind").unwrap().const_value,
        Some(pcl_schema::Literal::String("widget".into()))
    );
    assert_eq!(
        w.input("count").unwrap().default_value,
        Some(serde_json::json!(1))
    );
    assert!(w.input("legacy").unwrap().deprecation_message.is_some());
    assert!(matches!(
        &w.input("tags").unwrap().ty.kind,
        SchemaTypeKind::Map(_)
    ));
    assert_eq!(
        w.output_names(),
        ["arn", "id", "name", "password", "size", "tags", "urn"]
    );
    assert!(w.has_output("id") && w.has_output("urn") && !w.has_output("count"));
    assert_eq!(w.aliases[0].ty.as_deref(), Some("tiny:index:OldWidget"));
    assert!(w.state_inputs.as_ref().unwrap().has_property("arn"));
    let names: Vec<&str> = w.sorted_inputs().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names.first(), Some(&"count"));

    let gadget = pkg.lookup_resource("tiny:Gadget").unwrap().unwrap();
    assert!(gadget.item.is_component);
    assert!(gadget.item.deprecation_message.is_some());
}

#[test]
fn tiny_functions_methods_and_provider() {
    let pkg = loader().load_package("tiny", None).unwrap();
    let get = pkg.lookup_function("tiny::getWidget").unwrap().unwrap();
    assert_eq!(get.schema_token, "tiny:index:getWidget");
    assert!(
        get.item
            .inputs
            .as_ref()
            .unwrap()
            .property("name")
            .unwrap()
            .required
    );
    assert!(
        get.item
            .outputs()
            .unwrap()
            .property("arn")
            .unwrap()
            .required
    );
    assert!(!get.item.return_type.as_ref().unwrap().plain());

    let count = pkg.lookup_function("tiny:getCount").unwrap().unwrap();
    assert!(matches!(
        &count.item.return_type,
        Some(ReturnType::Type(t)) if t.kind == SchemaTypeKind::Primitive(Primitive::Integer) && !t.plain
    ));
    let labels = pkg.function("tiny:index:getPlainLabels").unwrap().unwrap();
    assert!(labels.return_type.as_ref().unwrap().plain());

    let join = pkg
        .lookup_function("tiny:index:joinStrings")
        .unwrap()
        .unwrap();
    let order: Vec<&str> = join
        .item
        .positional_inputs()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(order, ["a", "b"]);

    let widget = pkg.resource("tiny:index:Widget").unwrap().unwrap();
    let describe = pkg.method(&widget, "describe").unwrap().unwrap();
    assert!(describe.has_self_input());
    assert!(describe.return_type.as_ref().unwrap().plain());
    assert!(pkg.is_method("tiny:index:Widget/describe"));
    assert!(!pkg.is_method("tiny:index:getWidget"));
    assert!(pkg.method(&widget, "nope").is_none());

    let provider = pkg
        .lookup_resource("pulumi:providers:tiny")
        .unwrap()
        .unwrap();
    assert!(provider.item.is_provider);
    assert!(provider.item.input("token").unwrap().secret);
    // Only string-typed provider outputs are kept, as in the reference.
    assert!(provider.item.output("region").is_some());
    assert!(provider.item.output("settings").is_none());
    assert!(pkg.is_method("pulumi:providers:tiny/whoami"));

    let config = pkg.config().unwrap();
    assert!(config.variables["region"].required);
    assert!(!config.variables["retries"].required);
}

#[test]
fn enums_and_objects() {
    let pkg = loader().load_package("tiny", None).unwrap();
    let size = pkg.lookup_type("tiny:index:Size").unwrap().unwrap();
    let TypeDef::Enum(size) = &*size.item else {
        panic!("enum expected")
    };
    assert_eq!(size.element_type, Primitive::String);
    assert_eq!(size.values.len(), 2);
    let prio = pkg.type_def("tiny:index:Priority").unwrap().unwrap();
    let TypeDef::Enum(prio) = &*prio else {
        panic!()
    };
    assert_eq!(prio.values[1].value, pcl_schema::Literal::Int(10));
    let settings = pkg.type_def("tiny:index:Settings").unwrap().unwrap();
    let TypeDef::Object(settings) = &*settings else {
        panic!()
    };
    assert_eq!(settings.token.as_deref(), Some("tiny:index:Settings"));
    assert_eq!(
        settings.property("extra").unwrap().ty.kind,
        SchemaTypeKind::Builtin(Builtin::Any)
    );
}

#[test]
fn recursive_types_resolve_by_token() {
    let l = loader();
    let pkg = l.load_package("recursive", None).unwrap();
    let tree = pkg.type_def("recursive:index:Tree").unwrap().unwrap();
    let TypeDef::Object(tree) = &*tree else {
        panic!()
    };
    let SchemaTypeKind::Ref(left) = &tree.property("left").unwrap().ty.kind else {
        panic!()
    };
    let resolved = pkg.resolve_ref(left, &l).unwrap();
    assert!(
        matches!(&resolved.resolved, Resolved::TypeDef(t) if t.token() == "recursive:index:Tree")
    );
    let SchemaTypeKind::Array(items) = &tree.property("children").unwrap().ty.kind else {
        panic!()
    };
    assert!(matches!(&items.kind, SchemaTypeKind::Ref(r) if r.token == "recursive:index:Tree"));
    assert!(pkg.decode_all().is_empty());
}

#[test]
fn unions_with_discriminators() {
    let pkg = loader().load_package("unions", None).unwrap();
    let drawing = pkg.resource("unions:index:Drawing").unwrap().unwrap();
    let SchemaTypeKind::Union(shape) = &drawing.input("shape").unwrap().ty.kind else {
        panic!()
    };
    let d = shape.discriminator.as_ref().unwrap();
    assert_eq!(d.property_name, "kind");
    assert_eq!(d.mapping.keys().collect::<Vec<_>>(), ["circle", "square"]);
    assert_eq!(shape.members.len(), 2);
    let SchemaTypeKind::Union(width) = &drawing.input("width").unwrap().ty.kind else {
        panic!()
    };
    assert_eq!(width.default_type, Some(Primitive::String));
    assert!(width.discriminator.is_none() && width.problems.is_empty());
    assert!(pkg.decode_all().is_empty());
}

#[test]
fn cross_package_refs_load_lazily() {
    let l = loader();
    let pkg = l.load_package("crossref", None).unwrap();
    let holder = pkg.resource("crossref:index:Holder").unwrap().unwrap();
    let r = |name: &str| match &holder.input(name).unwrap().ty.kind {
        SchemaTypeKind::Ref(r) => r.clone(),
        other => panic!("{other:?}"),
    };
    let settings = pkg.resolve_ref(&r("settings"), &l).unwrap();
    assert_eq!(settings.package.name(), "tiny");
    assert!(
        matches!(&settings.resolved, Resolved::TypeDef(t) if matches!(&**t, TypeDef::Object(_)))
    );
    let widget = pkg.resolve_ref(&r("widget"), &l).unwrap();
    assert!(matches!(&widget.resolved, Resolved::Resource(w) if w.token == "tiny:index:Widget"));
    let provider = r("provider");
    assert_eq!(provider.kind, RefKind::Provider);
    let provider = pkg.resolve_ref(&provider, &l).unwrap();
    assert!(matches!(&provider.resolved, Resolved::Resource(p) if p.is_provider));
    // tiny 9.0.0 does not exist: falls back to the default version.
    let newer = pkg.resolve_ref(&r("newer"), &l).unwrap();
    assert_eq!(newer.package.version(), Some(&v("1.0.0")));
    let dangling = pkg.resource("crossref:index:Dangling").unwrap().unwrap();
    let missing = match &dangling.input("missing").unwrap().ty.kind {
        SchemaTypeKind::Ref(r) => r.clone(),
        other => panic!("{other:?}"),
    };
    let missing = pkg.resolve_ref(&missing, &l).unwrap_err();
    assert!(
        matches!(missing, ResolveError::Load(LoadError::NotFound { .. })),
        "{missing}"
    );
    let opaque = pkg.resolve_ref(&r("opaque"), &l).unwrap();
    assert!(matches!(
        &opaque.resolved,
        Resolved::Token { token, underlying: Some(Primitive::String) } if token == "crossref:index:Opaque"
    ));
}

#[test]
fn module_format_canonicalisation() {
    let pkg = loader().load_package("modfmt", None).unwrap();
    for (written, canonical) in [
        ("modfmt:storage:Bucket", "modfmt:storage:Bucket"),
        ("modfmt:storage/bucket:Bucket", "modfmt:storage:Bucket"),
        ("modfmt:index/thing:Thing", "modfmt::Thing"),
        ("modfmt:index:Thing", "modfmt::Thing"),
        ("modfmt:Thing", "modfmt::Thing"),
        ("modfmt::Thing", "modfmt::Thing"),
    ] {
        let found = pkg
            .lookup_resource(written)
            .unwrap()
            .unwrap_or_else(|| panic!("{written}"));
        assert_eq!(found.canonical_token, canonical, "{written}");
    }
    assert!(pkg
        .lookup_resource("modfmt:storage:Nope")
        .unwrap()
        .is_none());
    assert!(pkg.lookup_resource("not a token").unwrap().is_none());
    // Two schema tokens share the canonical form modfmt:net:Link.
    let err = pkg.lookup_resource("modfmt:net:Link").unwrap_err();
    assert!(matches!(&err, LookupError::Ambiguous { candidates, .. } if candidates.len() == 2));
    // … but the exact schema token is not ambiguous.
    let a = pkg.lookup_resource("modfmt:net/a:Link").unwrap().unwrap();
    assert_eq!(a.schema_token, "modfmt:net/a:Link");
    let f = pkg
        .lookup_function("modfmt:storage:getBucket")
        .unwrap()
        .unwrap();
    assert_eq!(f.schema_token, "modfmt:storage/getBucket:getBucket");
    assert!(pkg.lookup_function("modfmt:getAnswer").unwrap().is_some());
    assert!(pkg.lookup_type("modfmt:storage:Acl").unwrap().is_some());
    assert_eq!(
        pcl_schema::suggest::suggest_functions(&pkg, "modfmt:storage:getBucketOutput"),
        ["modfmt:storage:getBucket"]
    );
}

#[test]
fn version_resolution() {
    let l = loader();
    // Highest semver, not highest string; a pre-release of 2.0.0 is above 1.10.0.
    assert_eq!(
        l.load_package("versioned", None).unwrap().version(),
        Some(&v("2.0.0-beta.1"))
    );
    assert_eq!(
        l.load_package("versioned", Some(&v("1.5.0")))
            .unwrap()
            .version(),
        Some(&v("1.5.0"))
    );
    let only_stable = DirLoader::new([dir()]);
    assert!(only_stable
        .load_package("versioned", Some(&v("1.10.0")))
        .is_ok());
    let err = l.load_package("versioned", Some(&v("3.0.0"))).unwrap_err();
    match &err {
        LoadError::NotFound { available, .. } => {
            assert_eq!(available, &[v("1.5.0"), v("1.10.0"), v("2.0.0-beta.1")])
        }
        other => panic!("{other}"),
    }
    assert!(
        err.to_string()
            .contains("available versions: 1.5.0, 1.10.0, 2.0.0-beta.1"),
        "{err}"
    );
    assert!(err.help().unwrap().contains("versioned-3.0.0.json"));
}

#[test]
fn parameterized_packages() {
    let l = loader();
    let request = PackageDescriptor::new("base")
        .with_version(Some(v("1.0.0")))
        .with_parameterization(Parameterization {
            name: "ext".into(),
            version: v("0.3.0"),
            value: "ZXh0".into(),
        });
    assert_eq!(request.package_name(), "ext");
    let ext = l.load(&request).unwrap();
    assert_eq!(ext.name(), "ext");
    let p = ext.parameterization().unwrap();
    assert_eq!(
        (p.base_provider.name.as_str(), p.parameter.as_str()),
        ("base", "ZXh0")
    );
    assert!(ext.support_pack());
    assert_eq!(ext.descriptor(), request);
    let thing = ext.lookup_resource("ext:index:Thing").unwrap().unwrap();
    assert_eq!(thing.canonical_token, "ext::Thing");
    // The wrong base provider is an error.
    let mut wrong = request.clone();
    wrong.name = "tiny".into();
    assert!(matches!(
        loader().load(&wrong),
        Err(LoadError::Invalid { .. })
    ));
    // The base package is a normal (empty) package.
    assert_eq!(
        l.load_package("base", None)
            .unwrap()
            .resource_tokens()
            .count(),
        0
    );
}

#[test]
fn cache_loads_once_and_remembers_failures() {
    let l = loader();
    let a = l.load_package("tiny", None).unwrap();
    let b = l.load_package("tiny", Some(&v("1.0.0"))).unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    let e1 = l.load_package("nosuch", None).unwrap_err();
    let e2 = l.load_package("nosuch", None).unwrap_err();
    assert_eq!(e1, e2);
    assert_eq!(e1.code().as_str(), "schema-not-found");
    // The built-in pulumi package answers when no directory has it.
    let pulumi = l.load_package("pulumi", None).unwrap();
    assert!(pulumi
        .lookup_resource("pulumi:pulumi:StackReference")
        .unwrap()
        .is_some());
    // Loads from several threads share one package.
    let shared = Arc::new(loader());
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let s = Arc::clone(&shared);
            std::thread::spawn(move || s.load_package("unions", None).unwrap())
        })
        .collect();
    let pkgs: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(pkgs.windows(2).all(|w| Arc::ptr_eq(&w[0], &w[1])));
}

#[test]
fn quirks_are_values_not_panics() {
    let pkg = loader().load_package("quirks", None).unwrap();
    let odd = pkg.resource("quirks:index:Odd").unwrap().unwrap();
    let kind = |n: &str| odd.input(n).unwrap().ty.kind.clone();
    assert_eq!(
        kind("flag"),
        SchemaTypeKind::Invalid(TypeProblem::UnknownPrimitive("bool".into()))
    );
    assert_eq!(
        kind("list"),
        SchemaTypeKind::Invalid(TypeProblem::MissingItems)
    );
    assert_eq!(kind("nothing"), SchemaTypeKind::Invalid(TypeProblem::Empty));
    assert!(matches!(
        kind("badRef"),
        SchemaTypeKind::Invalid(TypeProblem::BadRef { .. })
    ));
    assert_eq!(kind("asset"), SchemaTypeKind::Builtin(Builtin::Asset));
    assert_eq!(kind("archive"), SchemaTypeKind::Builtin(Builtin::Archive));
    assert_eq!(kind("json"), SchemaTypeKind::Builtin(Builtin::Json));
    assert!(odd.input("count").unwrap().const_value.is_none());
    assert!(matches!(kind("self"), SchemaTypeKind::Ref(r) if r.kind == RefKind::Resource));
    assert!(matches!(kind("lonely"), SchemaTypeKind::Union(u) if !u.problems.is_empty()));
    let messages: Vec<String> = odd.problems.iter().map(ToString::to_string).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("unknown required property \"ghost\"")),
        "{messages:?}"
    );
    // The reference's wording and path (`…/type: unknown type kind bool`).
    assert!(
        messages
            .iter()
            .any(|m| m.contains("/type: unknown type kind bool")),
        "{messages:?}"
    );
    // A member whose JSON has the wrong shape is a DecodeError with a position.
    let broken = pkg.resource("quirks:index:Broken").unwrap().unwrap_err();
    assert!(
        broken.line > 1 && broken.to_string().contains("quirks:index:Broken"),
        "{broken}"
    );
    // An enum of a non-primitive type does not decode; bad values are problems.
    assert!(pkg.type_def("quirks:index:BadEnum").unwrap().is_err());
    let mixed = pkg.type_def("quirks:index:MixedEnum").unwrap().unwrap();
    let TypeDef::Enum(mixed) = &*mixed else {
        panic!()
    };
    assert_eq!((mixed.values.len(), mixed.problems.len()), (1, 2));
    assert_eq!(pkg.decode_all().len(), 2);
}

#[test]
fn malformed_schema_file_is_a_load_error() {
    let err = loader().load_package("broken", None).unwrap_err();
    match &err {
        LoadError::Malformed { line, path, .. } => {
            assert_eq!(*line, 7);
            assert!(path.as_ref().unwrap().ends_with("broken-1.0.0.json"));
        }
        other => panic!("{other}"),
    }
    assert_eq!(err.code().as_str(), "schema-malformed");
}

#[test]
fn lookups_decode_only_what_they_touch() {
    let pkg = loader().load_package("tiny", None).unwrap();
    assert_eq!(pkg.decoded_count(), 0);
    pkg.lookup_resource("tiny:index:Widget").unwrap();
    assert_eq!(pkg.decoded_count(), 1);
}

#[test]
fn memory_and_chain_loaders() {
    let mem = MemoryLoader::new()
        .with(r#"{"name":"m","version":"0.1.0","resources":{"m:index:R":{}}}"#)
        .unwrap()
        .with(r#"{"name":"m","version":"0.2.0"}"#)
        .unwrap();
    assert_eq!(
        mem.load_package("m", None).unwrap().version(),
        Some(&v("0.2.0"))
    );
    assert!(mem
        .load_package("m", Some(&v("0.1.0")))
        .unwrap()
        .lookup_resource("m:R")
        .unwrap()
        .is_some());
    let chain = ChainLoader::new(vec![Box::new(mem), Box::new(DirLoader::new([dir()]))]);
    assert_eq!(chain.load_package("tiny", None).unwrap().name(), "tiny");
    assert_eq!(chain.load_package("m", None).unwrap().name(), "m");
    match chain
        .load_package("versioned", Some(&v("9.0.0")))
        .unwrap_err()
    {
        LoadError::NotFound {
            available,
            searched,
            ..
        } => {
            assert_eq!(available.len(), 3);
            assert_eq!(searched, [dir()]);
        }
        other => panic!("{other}"),
    }
    assert!(MemoryLoader::new().with("{not json").is_err());
}
