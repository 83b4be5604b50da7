//! Every real schema in `../shared/corpus/schemas` loads, every member
//! decodes, every `$ref` resolves (or fails for a listed reason), token
//! lookups round-trip, and unpinned version resolution is checked against
//! the corpus README. Skipped (with a message) when the corpus is absent,
//! and failed then under `PCL_REQUIRE_CORPUS=1`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_schema::{
    CachingLoader, DirLoader, LoadError, LookupError, Package, ResolveError, ReturnType,
    SchemaLoader, SchemaType, SchemaTypeKind, TypeDef, TypeRef,
};

/// `../shared/corpus/schemas`; absent, it skips the test locally and fails
/// it under `PCL_REQUIRE_CORPUS=1`.
fn corpus() -> Option<PathBuf> {
    pcl_testkit::shared("corpus/schemas", "schema corpus")
}

/// The `*.json` schemas of `dir`, sorted; at least one (a present but
/// emptied folder fails).
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    pcl_testkit::at_least(&format!("schemas in {}", dir.display()), files.len(), 1);
    files
}

fn collect_refs(ty: &SchemaType, out: &mut Vec<TypeRef>) {
    match &ty.kind {
        SchemaTypeKind::Ref(r) => out.push(r.clone()),
        SchemaTypeKind::Array(el) | SchemaTypeKind::Map(el) => collect_refs(el, out),
        SchemaTypeKind::Union(u) => u.members.iter().for_each(|m| collect_refs(m, out)),
        _ => {}
    }
}

/// Decodes everything in `pkg` and returns all `$ref`s found.
fn all_refs(pkg: &Package) -> Vec<TypeRef> {
    let mut refs = Vec::new();
    let mut scalar_returns: Vec<SchemaType> = Vec::new();
    let mut props = |p: &pcl_schema::Property| collect_refs(&p.ty, &mut refs);
    let provider = pkg.provider().unwrap();
    provider.input_properties.values().for_each(&mut props);
    provider.properties.values().for_each(&mut props);
    for tok in pkg.resource_tokens() {
        let r = pkg.resource(tok).unwrap().unwrap();
        r.input_properties.values().for_each(&mut props);
        r.properties.values().for_each(&mut props);
        if let Some(s) = &r.state_inputs {
            s.properties.values().for_each(&mut props);
        }
    }
    for tok in pkg.function_tokens() {
        let f = pkg.function(tok).unwrap().unwrap();
        if let Some(i) = &f.inputs {
            i.properties.values().for_each(&mut props);
        }
        match &f.return_type {
            Some(ReturnType::Object { object, .. }) => {
                object.properties.values().for_each(&mut props)
            }
            Some(ReturnType::Type(t)) => scalar_returns.push(t.clone()),
            None => {}
        }
    }
    for tok in pkg.type_tokens() {
        if let TypeDef::Object(o) = &*pkg.type_def(tok).unwrap().unwrap() {
            o.properties.values().for_each(&mut props);
        }
    }
    pkg.config()
        .unwrap()
        .variables
        .values()
        .for_each(&mut props);
    for t in &scalar_returns {
        collect_refs(t, &mut refs);
    }
    refs
}

#[test]
fn every_corpus_schema_loads_and_decodes() {
    let Some(root) = corpus() else { return };
    let mut total = (0, 0, 0, 0);
    let mut unresolved: BTreeSet<String> = BTreeSet::new();
    let mut version_mismatches = Vec::new();
    for folder in ["codegen", "conformance"] {
        let dir = root.join(folder);
        let loader = CachingLoader::new(DirLoader::new([dir.clone()]));
        for file in json_files(&dir) {
            let bytes = std::fs::read(&file).unwrap();
            let pkg = Arc::new(
                Package::parse_bytes(bytes, "corpus", Some(&file))
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display())),
            );
            let errors = pkg.decode_all();
            assert!(errors.is_empty(), "{}: {errors:?}", file.display());
            total.0 += 1;
            total.1 += pkg.resource_tokens().count();
            total.2 += pkg.function_tokens().count();
            total.3 += pkg.type_tokens().count();

            // Member problems (semantic, non-fatal): only the conformance
            // package `bad`, which exists to carry an invalid type
            // (`"type": "not a type"`), may have any.
            for tok in pkg.resource_tokens() {
                let r = pkg.resource(tok).unwrap().unwrap();
                if !r.problems.is_empty() {
                    assert_eq!(pkg.name(), "bad", "{tok}: {:?}", r.problems);
                    println!("expected problems in {tok}: {:?}", r.problems);
                }
            }
            // Token lookups: schema and canonical forms find the same member.
            for tok in pkg.resource_tokens().take(25) {
                let by_schema = match pkg.lookup_resource(tok) {
                    // A resource the schema gets wrong does not look up.
                    Err(LookupError::Invalid { problems, .. }) if pkg.name() == "bad" => {
                        assert!(!problems.is_empty());
                        continue;
                    }
                    other => other.unwrap().unwrap(),
                };
                assert_eq!(by_schema.schema_token, tok);
                let by_canonical = pkg
                    .lookup_resource(&by_schema.canonical_token)
                    .unwrap()
                    .unwrap();
                assert_eq!(by_canonical.schema_token, tok, "{}", file.display());
            }
            for tok in pkg.function_tokens().take(25) {
                let found = pkg.lookup_function(tok).unwrap().unwrap();
                assert_eq!(found.schema_token, tok);
            }
            // Every $ref resolves, or its package is absent from the corpus.
            for r in all_refs(&pkg) {
                match pkg.resolve_ref(&r, &loader) {
                    Ok(_) => {}
                    Err(ResolveError::Load(LoadError::NotFound { name, .. })) => {
                        unresolved.insert(format!("{folder}: {} -> {name}", pkg.name()));
                    }
                    Err(e) => panic!("{}: {}: {e}", file.display(), r.raw),
                }
            }
            // File-name version vs declared version.
            let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
            let declared = pkg.version().map(ToString::to_string).unwrap_or_default();
            if !stem.ends_with(&format!("-{declared}")) {
                version_mismatches.push(format!("{folder}/{stem}: declares {declared:?}"));
            }
        }
    }
    println!(
        "packages {}, resources {}, functions {}, types {}",
        total.0, total.1, total.2, total.3
    );
    println!("unresolved cross-package refs (package not in corpus): {unresolved:?}");
    println!("file name / declared version mismatches: {version_mismatches:?}");
    assert!(total.0 >= 80);
    // Only packages that are really absent may be unresolved.
    for u in &unresolved {
        assert!(u.ends_with("-> aws"), "{u}");
    }
}

#[test]
fn unpinned_resolution_vs_corpus_readme() {
    let Some(root) = corpus() else { return };
    let loader = DirLoader::new([root.join("conformance")]);
    // corpus/README.md: an unpinned reference in the conformance folder
    // resolves to these versions.
    let readme = [
        ("simple", "2.0.0"),
        ("nestedobject", "1.42.0"),
        ("conformance-component", "22.0.0"),
        ("builtin-info-component", "37.0.0"),
        ("bad", "3.0.0"),
    ];
    let mut differs = Vec::new();
    for (name, expected) in readme {
        let pkg = loader.load_package(name, None).unwrap();
        let got = pkg.version().unwrap().to_string();
        if got != expected {
            differs.push(format!(
                "{name}: highest present {got}, README says {expected}"
            ));
        }
    }
    println!("README exceptions inconsistent with highest-present: {differs:?}");
    // Only `simple` (2.0.0, 26.0.0 and 27.0.0 present) differs: the loader
    // cannot know; callers must pin simple@2.0.0 (e.g. via a package block).
    assert_eq!(differs.len(), 1, "{differs:?}");
    assert!(differs[0].starts_with("simple:"));
    let pinned = loader
        .load_package("simple", Some(&semver::Version::new(2, 0, 0)))
        .unwrap();
    assert_eq!(pinned.version(), Some(&semver::Version::new(2, 0, 0)));
    // Versions that look alike by prefix do not leak into each other.
    assert_eq!(
        loader.load_package("simple-invoke", None).unwrap().name(),
        "simple-invoke"
    );
    // Pre-release + build metadata file names.
    let alpha = loader.load_package("alpha", None).unwrap();
    assert_eq!(alpha.version().unwrap().pre.as_str(), "alpha.1.internal");
}

/// A lookup's result with its item in debug form.
fn item<T: std::fmt::Debug>(
    found: Result<Option<pcl_schema::Found<T>>, LookupError>,
) -> Result<Option<String>, LookupError> {
    found.map(|f| f.map(|f| format!("{:?}", f.item)))
}

#[test]
fn big_schema_lookups_are_lazy() {
    let Some(root) = corpus() else { return };
    let loader = DirLoader::new([root.join("codegen")]);
    let pkg = loader.load_package("azure-native", None).unwrap();
    assert!(pkg.resource_tokens().count() > 100);
    let first: Vec<String> = pkg.resource_tokens().take(3).map(str::to_owned).collect();
    for t in &first {
        pkg.lookup_resource(t).unwrap().unwrap();
    }
    assert_eq!(pkg.decoded_count(), 3);
    let k8s = loader.load_package("kubernetes", None).unwrap();
    let found = k8s
        .lookup_resource("kubernetes:apps/v1:Deployment")
        .unwrap()
        .unwrap();
    assert!(found.item.has_output("spec"));
    let random = loader.load_package("random", None).unwrap();
    assert_eq!(
        random
            .lookup_resource("random:index:RandomPet")
            .unwrap()
            .unwrap()
            .canonical_token,
        "random::RandomPet"
    );
}

/// The layout fast path against the full serde skim: every corpus schema
/// is also parsed minified (no layout, so the full skim runs) and both
/// packages must list the same members and decode them identically.
#[test]
fn layout_skim_matches_full_skim_on_corpus() {
    let Some(root) = corpus() else { return };
    for folder in ["codegen", "conformance"] {
        for file in json_files(&root.join(folder)) {
            let text = std::fs::read_to_string(&file).unwrap();
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            let fast = Package::parse(text.clone(), "fast", None).unwrap();
            let full = Package::parse(value.to_string(), "full", None).unwrap();
            let what = file.display();
            assert_eq!(fast.name(), full.name(), "{what}");
            assert_eq!(fast.version(), full.version(), "{what}");
            assert_eq!(
                fast.language_json()
                    .map(|j| serde_json::from_str::<serde_json::Value>(j).unwrap()),
                full.language_json()
                    .map(|j| serde_json::from_str::<serde_json::Value>(j).unwrap()),
                "{what}"
            );
            let listed = |p: &Package| {
                (
                    p.resource_tokens().map(str::to_owned).collect::<Vec<_>>(),
                    p.function_tokens().map(str::to_owned).collect::<Vec<_>>(),
                    p.type_tokens().map(str::to_owned).collect::<Vec<_>>(),
                )
            };
            assert_eq!(listed(&fast), listed(&full), "{what}");
            let dbg = |x: &dyn std::fmt::Debug| format!("{x:?}");
            assert_eq!(dbg(&fast.provider().ok()), dbg(&full.provider().ok()));
            assert_eq!(dbg(&fast.config().ok()), dbg(&full.config().ok()));
            // Whole results: a member the schema gets wrong is the same
            // `LookupError::Invalid` both ways.
            for t in full.resource_tokens() {
                let a = item(fast.lookup_resource(t));
                let b = item(full.lookup_resource(t));
                assert!(matches!(a, Ok(Some(_)) | Err(_)), "{what}: {t}");
                assert_eq!(a, b, "{what}: {t}");
            }
            for t in full.function_tokens() {
                let a = item(fast.lookup_function(t));
                let b = item(full.lookup_function(t));
                assert_eq!(a, b, "{what}: {t}");
            }
            for t in full.type_tokens() {
                let a = fast.type_def(t).map(|r| dbg(&r.ok()));
                let b = full.type_def(t).map(|r| dbg(&r.ok()));
                assert_eq!(a, b, "{what}: {t}");
            }
            assert!(fast.decode_all().is_empty(), "{what}");
        }
    }
}
