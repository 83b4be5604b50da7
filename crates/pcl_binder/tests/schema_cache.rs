//! A [`SchemaCache`] changes no result: every checkable corpus program
//! checked through one cache per schema folder (in manifest order, then
//! again in reverse order, so that each program meets types converted by
//! others) gives exactly what a check with a fresh loader gives: the same
//! diagnostics, the same bound program (types included, as printed by
//! `Debug`) and the same used packages in the same order. Skipped with a
//! message when the corpus is absent.

mod common;

use pcl_binder::{
    check_program_cached, check_program_with_files, BindPolicy, Checked, FileProvider, FsFiles,
    Program, SchemaCache,
};
use pcl_diagnostics::render_short;

use common::{corpus_dir, manifest, Defaults};

/// Everything a check produces, as text.
fn summary(checked: &Checked<Program>) -> String {
    let mut out = String::new();
    for d in checked.diagnostics() {
        out.push_str(&render_short(d, checked.sources()));
        if let Some(detail) = d.detail() {
            out.push_str(" | ");
            out.push_str(detail);
        }
        out.push('\n');
    }
    out.push_str(&format!("{:?}\n", checked.value().packages()));
    out.push_str(&format!("{:?}", checked.value()));
    out
}

#[test]
fn cached_checks_equal_fresh_checks() {
    let Some(rows) = manifest() else {
        return;
    };
    let mut caches: Vec<(String, SchemaCache<Defaults>)> = Vec::new();
    let mut programs = Vec::new();
    for row in rows.iter().filter(|r| r.checkable) {
        let policy = row.policy();
        let cache = match caches.iter().position(|(d, _)| *d == row.schema_dir) {
            Some(i) => i,
            None => {
                caches.push((row.schema_dir.clone(), SchemaCache::new(row.loader())));
                caches.len() - 1
            }
        };
        let path = corpus_dir().join(&row.program_dir);
        let files = FsFiles::new(&path);
        let Ok(sources) = files.read_dir("") else {
            continue;
        };
        let fresh = check_program_with_files(&sources, &row.loader(), &policy, &files);
        programs.push((
            row.name.clone(),
            path,
            sources,
            policy,
            cache,
            summary(&fresh),
        ));
    }
    assert!(!programs.is_empty());
    let mut compared = 0;
    let order: Vec<usize> = (0..programs.len())
        .chain((0..programs.len()).rev())
        .collect();
    for i in order {
        let (name, path, sources, policy, cache, expected) = &programs[i];
        let files = FsFiles::new(path);
        let cached = check_program_cached(sources, &caches[*cache].1, policy, &files);
        assert_eq!(&summary(&cached), expected, "{name}");
        compared += 1;
    }
    eprintln!("schema_cache: {compared} cached checks equal their fresh checks");
}

/// A schema with a chain of 40 nested object types `T0 → … → T39` and a
/// cycle of 20 `C0 → … → C19 → C0` reached from the end of a chain of 15
/// `P0 → … → P14`; resources use each from its start and from its middle.
fn deep_schema() -> String {
    let object = |next: Option<String>| -> String {
        let next = next
            .map(|n| format!(r##", "next": {{"$ref": "#/types/deep:index:{n}"}}"##))
            .unwrap_or_default();
        format!(r#"{{"type": "object", "properties": {{"leaf": {{"type": "string"}}{next}}}}}"#)
    };
    let mut types = Vec::new();
    for i in 0..40 {
        let next = (i < 39).then(|| format!("T{}", i + 1));
        types.push(format!(r#""deep:index:T{i}": {}"#, object(next)));
    }
    for i in 0..15 {
        let next = if i < 14 {
            format!("P{}", i + 1)
        } else {
            "C0".to_owned()
        };
        types.push(format!(r#""deep:index:P{i}": {}"#, object(Some(next))));
    }
    for i in 0..20 {
        types.push(format!(
            r#""deep:index:C{i}": {}"#,
            object(Some(format!("C{}", (i + 1) % 20)))
        ));
    }
    let resource = |name: &str, ty: &str| {
        format!(
            r##""deep:index:{name}": {{"inputProperties": {{"t": {{"$ref": "#/types/deep:index:{ty}"}}}}}}"##
        )
    };
    format!(
        r#"{{"name": "deep", "version": "1.0.0", "types": {{{}}}, "resources": {{{}, {}, {}, {}}}}}"#,
        types.join(", "),
        resource("Top", "T0"),
        resource("Mid", "T20"),
        resource("Entry", "P0"),
        resource("Ring", "C10"),
    )
}

/// A program setting `t` of a resource to `levels` nested `next` objects
/// whose innermost `leaf` is a list (an error where the schema type is
/// known there, nothing where it was cut to `dynamic` at the depth limit).
fn deep_program(resource: &str, levels: usize) -> Vec<(String, String)> {
    let mut value = "{ leaf = [1] }".to_owned();
    for _ in 0..levels {
        value = format!("{{ next = {value} }}");
    }
    vec![(
        "main.pp".to_owned(),
        format!("resource r \"deep:index:{resource}\" {{\n  t = {value}\n}}\n"),
    )]
}

/// Converting a type where converting it afresh would reach the schema
/// depth limit: a check that would reuse a kept conversion there (an
/// acyclic chain, a cycle) gives what a check of its own gives.
#[test]
fn reuse_near_the_depth_limit_changes_nothing() {
    use pcl_binder::NoFiles;
    use pcl_schema::MemoryLoader;
    let policy = BindPolicy::strict();
    let fresh = |sources: &[(String, String)]| {
        let loader = MemoryLoader::new().with(deep_schema()).unwrap();
        summary(&check_program_with_files(
            sources, &loader, &policy, &NoFiles,
        ))
    };
    for (first, then, levels) in [("Mid", "Top", 39), ("Ring", "Entry", 34)] {
        let cache = SchemaCache::new(MemoryLoader::new().with(deep_schema()).unwrap());
        let warm_up = deep_program(first, 1);
        let cached = check_program_cached(&warm_up, &cache, &policy, &NoFiles);
        assert_eq!(summary(&cached), fresh(&warm_up), "{first}");
        let program = deep_program(then, levels);
        let expected = fresh(&program);
        let cached = check_program_cached(&program, &cache, &policy, &NoFiles);
        assert_eq!(summary(&cached), expected, "{then}");
        // The whole check is the one that hits the limit: its conversions
        // are not kept, and the next check is right too.
        let cached = check_program_cached(&program, &cache, &policy, &NoFiles);
        assert_eq!(summary(&cached), expected, "{then}, again");
    }
}
