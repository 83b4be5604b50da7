//! Ordering unions does not print (robustness issue #18, finding 6, last
//! bullet). A crafted schema of 4,000 types `U_i = object{p: oneOf[U_{i+1},
//! U_{i+2}, string]}` and `value = r.a.p.p…` with k steps: each step's
//! union has one more object than the last, and all of them print alike
//! for thousands of characters. Ordering them by printed form read up to
//! 16 KiB of printing per element (k = 320 took 8.8 s in release); the
//! structural keys read a bounded number of nodes per element, whatever
//! the elements would print. The test counts that work.

use pcl_binder::{check_program, BindPolicy};
use pcl_schema::MemoryLoader;

fn schema(n: usize) -> String {
    let types: Vec<String> = (0..n)
        .map(|i| {
            let r = |j: usize| {
                if j < n {
                    format!(r##"{{"$ref": "#/types/chain:index:U{j}"}}"##)
                } else {
                    r#"{"type": "string"}"#.to_string()
                }
            };
            format!(
                r#""chain:index:U{i}": {{"type": "object", "properties": {{"p": {{"oneOf": [{}, {}, {{"type": "string"}}]}}}}}}"#,
                r(i + 1),
                r(i + 2)
            )
        })
        .collect();
    format!(
        r##"{{"name": "chain", "version": "1.0.0", "types": {{{}}}, "resources": {{"chain:index:R": {{"properties": {{"a": {{"$ref": "#/types/chain:index:U0"}}}}, "required": ["a"]}}}}}}"##,
        types.join(", ")
    )
}

fn check(k: usize) -> (usize, usize) {
    let loader = MemoryLoader::new()
        .with(schema(4000))
        .unwrap_or_else(|e| panic!("{e}"));
    let program = format!(
        "resource r \"chain:index:R\" {{}}\nvalue = r.a{}\n",
        ".p".repeat(k)
    );
    let before = pcl_types::union::union_order_work();
    let start = std::time::Instant::now();
    let checked = check_program(
        &[("main.pp".to_string(), program)],
        &loader,
        &BindPolicy::strict(),
    );
    let elapsed = start.elapsed();
    let after = pcl_types::union::union_order_work();
    let summaries: Vec<&str> = checked
        .diagnostics()
        .iter()
        .map(|d| d.summary.as_str())
        .collect();
    assert!(summaries.is_empty(), "{summaries:?}");
    let work = (after.0 - before.0, after.1 - before.1);
    eprintln!(
        "k={k}: {elapsed:?}, {} union elements ordered, {} key nodes read",
        work.0, work.1
    );
    work
}

#[test]
fn ordering_work_per_union_element_is_bounded() {
    let k: usize = std::env::var("PCL_UNION_CHAIN_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    let (elements, nodes) = check(k);
    // The unions of the k steps hold about k²/2 elements in all.
    assert!(elements >= k * k / 2, "{elements} elements for k = {k}");
    // A key comparison reads a few nodes (the cut keeps it to objects
    // three deep), and a sort compares each element about log₂(width)
    // times: far below the thousands of characters each element prints.
    assert!(
        nodes <= 64 * elements,
        "{nodes} key nodes read for {elements} elements"
    );
}
