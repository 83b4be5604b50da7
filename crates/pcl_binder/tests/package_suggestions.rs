//! An unknown package one edit from a package the schema directories hold
//! is suggested with a machine-applicable fix on the package name in the
//! token (issue #13 §2).

use std::path::PathBuf;

use pcl_binder::{check_program, codes, BindPolicy};
use pcl_schema::DirLoader;

#[test]
fn unknown_package_suggests_and_fixes_the_name() {
    let schemas = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/schemas");
    let loader = DirLoader::new([schemas]);
    let source = "resource w \"tinyy:index:Widget\" {}\nresource p \"pulumi:providers:tin\" {}\nresource f \"zzzzzz:index:X\" {}\n";
    let checked = check_program(
        &[("main.pp".to_string(), source.to_string())],
        &loader,
        &BindPolicy::strict(),
    );
    let unknown: Vec<_> = checked
        .diagnostics()
        .iter()
        .filter(|d| d.code == codes::UNKNOWN_PACKAGE)
        .collect();
    assert_eq!(unknown.len(), 3, "{unknown:?}");
    let mut fixed = source.to_string();
    let mut fixes: Vec<_> = unknown.iter().flat_map(|d| d.fixes().iter()).collect();
    assert_eq!(fixes.len(), 2, "{fixes:?}");
    // Apply from the end so earlier ranges stay valid.
    fixes.sort_by_key(|f| std::cmp::Reverse(f.span.range.start));
    for fix in fixes {
        let range = fix.span.range.start as usize..fix.span.range.end as usize;
        assert!(source
            .get(range.clone())
            .is_some_and(|t| t == "tinyy" || t == "tin"));
        fixed.replace_range(range, &fix.replacement);
    }
    assert_eq!(
        fixed,
        "resource w \"tiny:index:Widget\" {}\nresource p \"pulumi:providers:tiny\" {}\nresource f \"zzzzzz:index:X\" {}\n"
    );
    // Nothing one edit from `zzzzzz`: the remedy is to get the schema.
    let far = unknown
        .iter()
        .find(|d| d.summary.contains("zzzzzz"))
        .map(|d| d.help().join("\n"))
        .unwrap_or_default();
    assert!(far.contains("pulumi package get-schema"), "{far}");
}
