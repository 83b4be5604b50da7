//! The heap blocks a bound tree owns: the small shapes most trees are
//! (one literal, one name reference, a plain string) own none, or only
//! their traversal, beyond the types they share (#18 finding 7). Each case
//! binds an expression and counts the blocks a clone of its tree
//! allocates (a counting global allocator; the cases run one after
//! another without the test harness, so nothing else allocates
//! meanwhile).

use pcl_diagnostics::FileId;
use pcl_expr::env::{EmptyEnvironment, ExprOptions};
use pcl_expr::scope::{Definition, Scope};
use pcl_expr::{bind_expr, BindContext, BoundTree};
use pcl_types::Type;
use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

fn bind(text: &str) -> BoundTree {
    let parsed = pcl_syntax::parse_expr(FileId(0), text);
    assert!(!parsed.has_errors(), "{text}: {:?}", parsed.diagnostics());
    let mut scope = Scope::root();
    let defined = scope.define("x", Definition::variable("x", Type::dynamic()), false);
    assert!(defined.is_ok(), "{text}");
    let options = ExprOptions::default();
    let mut cx = BindContext::new(FileId(0), &EmptyEnvironment, &options);
    let tree = bind_expr(parsed.expr(), &scope, &mut cx);
    let diagnostics = cx.take_diagnostics();
    assert!(diagnostics.is_empty(), "{text}: {diagnostics:?}");
    tree
}

/// The blocks a clone of `tree` allocates: those it owns.
fn owned_blocks(tree: &BoundTree) -> usize {
    let before = GLOBAL.stats().allocations;
    let copy = tree.clone();
    let blocks = GLOBAL.stats().allocations - before;
    assert!(copy == *tree);
    blocks
}

fn main() {
    let cases: &[(&str, usize, &str)] = &[
        ("1", 0, "a literal is inline"),
        ("true", 0, "a literal is inline"),
        ("-1", 0, "a folded negation is one literal"),
        ("[]", 0, "an empty tuple is inline"),
        ("{}", 0, "an empty object is inline"),
        ("\"abc\"", 0, "a string (a template and its part) is inline"),
        ("[1]", 0, "a tuple of one literal is inline"),
        ("(1)", 0, "parentheses around a literal are inline"),
        ("!true", 0, "an operator on a literal is inline"),
        ("x", 1, "a name reference owns its traversal"),
        ("x.a", 2, "and its steps"),
        ("1 + 1", 2, "a larger tree owns its box and its nodes"),
        (
            "\"a${x}\"",
            5,
            "box, nodes, a third type, child list, traversal",
        ),
        ("\"${x}\"", 1, "a lone interpolation is its reference"),
    ];
    let mut failures = Vec::new();
    for &(text, expected, why) in cases {
        let tree = bind(text);
        let blocks = owned_blocks(&tree);
        if blocks != expected {
            failures.push(format!(
                "{text}: {blocks} blocks, expected {expected} ({why})"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    println!("tree_allocations: {} cases ok", cases.len());
}
