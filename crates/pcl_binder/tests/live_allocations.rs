//! Checking a program that uses a recursive schema type, again and again
//! without a schema cache (each round loads the schema afresh, as a
//! server that does not cache does), leaves no allocation behind: the
//! recursive types, the package and everything the check built are freed
//! (a counting global allocator; the rounds run on one thread without the
//! test harness, so nothing else allocates meanwhile).

use pcl_binder::{check_program, BindPolicy};
use pcl_schema::MemoryLoader;
use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

fn live() -> (usize, usize) {
    let s = GLOBAL.stats();
    (
        s.allocations - s.deallocations,
        s.bytes_allocated - s.bytes_deallocated,
    )
}

const SCHEMA: &str = include_str!("../../../testdata/schemas/recursive-1.0.0.json");

/// Walks the recursive `Tree` and `Meta` types through several levels, in
/// resource inputs (lazy views of outputs) and outputs, with one mistake so
/// that a diagnostic prints a recursive type.
const PROGRAM: &str = r#"
resource forest "recursive:index:Forest" {
  root = {
    value = "a"
    left = { value = "b", children = [{ value = "c", left = { value = "d" } }] }
    meta = { owner = { value = "e", meta = { notes = { x = {} } } } }
  }
}
resource other "recursive:index:Forest" {
  root = forest.root.left
}
output deep {
  value = forest.root.left.left.meta.owner.children[0].value
}
output wrong {
  value = forest.root.meta.owner.nope
}
"#;

/// One check with a schema loaded for it alone; returns how many
/// diagnostics it reported.
fn check_once() -> usize {
    let loader = MemoryLoader::new()
        .with(SCHEMA)
        .unwrap_or_else(|e| panic!("{e}"));
    let sources = vec![("main.pp".to_string(), PROGRAM.to_string())];
    let checked = check_program(&sources, &loader, &BindPolicy::strict());
    checked.diagnostics().len()
}

fn main() {
    let problems = check_once();
    // The one mistake (`nope`), nothing else.
    assert_eq!(problems, 1, "the program checks as expected");
    for _ in 0..3 {
        check_once();
    }
    let first = live();
    let mut worst = (0isize, 0isize);
    for round in 0..50 {
        let before = live();
        check_once();
        let after = live();
        let grew = (
            after.0 as isize - before.0 as isize,
            after.1 as isize - before.1 as isize,
        );
        worst = (worst.0.max(grew.0), worst.1.max(grew.1));
        assert_eq!(
            before, after,
            "round {round}: a check left {} blocks / {} bytes live",
            grew.0, grew.1
        );
    }
    let last = live();
    assert_eq!(first, last);
    println!("test checks_with_a_recursive_schema_type_leave_nothing_live ... ok");
    println!("1 passed, 0 failed");
}
