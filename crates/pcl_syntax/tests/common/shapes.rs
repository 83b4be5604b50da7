//! Generated inputs that grow along one dimension (comments, errors,
//! blocks, one long line, …), shared by the `scaling` test and the `parse`
//! bench (which includes this file with `#[path]`). Each generator takes
//! a repetition count and returns the text.
//!
//! `SCALING` holds the shapes whose parse time must stay linear (the first
//! four were quadratic: the comment attachment of #18 finding 6);
//! `MEMORY` the dense shapes whose peak memory per source byte the bench
//! reports (#18 finding 7).

/// A named input generator.
pub type Shape = (&'static str, fn(usize) -> String);

fn repeat(unit: &str, n: usize) -> String {
    unit.repeat(n)
}

/// Shapes whose parse time must grow linearly with `n`.
pub const SCALING: &[Shape] = &[
    // n `# c` lines, all leading comments of the one item after them.
    ("comment lines before an item", |n| {
        repeat("# c\n", n) + "a = 1\n"
    }),
    // n block comments on one line, then an item on the next.
    ("block comments on one line", |n| {
        repeat("/**/", n) + "\na = 1\n"
    }),
    // n block comments trailing one attribute.
    ("block comments after an item", |n| {
        "a = 1 ".to_string() + &repeat("/**/", n) + "\n"
    }),
    // n attributes, each with a trailing comment.
    ("items with trailing comments", |n| {
        (0..n).map(|i| format!("a{i} = 1 # c\n")).collect()
    }),
    ("dangling comments in a block", |n| {
        "b {\n".to_string() + &repeat("# c\n", n) + "}\n"
    }),
    ("syntax errors (= = =)", |n| repeat("= = =\n", n)),
    ("unclosed parentheses", |n| repeat("a = (\n", n)),
    ("unclosed blocks", |n| repeat("b {\n", n)),
    ("stray closing braces", |n| repeat("}\n", n)),
    ("duplicate attributes", |n| repeat("a = 1\n", n)),
    ("semicolons", |n| repeat("a = 1;\n", n)),
    ("one-line blocks", |n| repeat("b { a = 1 }\n", n)),
    ("long sum on one line", |n| {
        "a = 1".to_string() + &repeat(" + 1", n) + "\n"
    }),
    ("object with n keys", |n| {
        "a = {".to_string() + &(0..n).map(|i| format!("k{i} = 1, ")).collect::<String>() + "}\n"
    }),
    ("labels of one block", |n| {
        "b ".to_string() + &repeat("\"l\" ", n) + "{\n}\n"
    }),
    ("heredoc lines", |n| {
        "a = <<EOT\n".to_string() + &repeat("x ${y}\n", n) + "EOT\n"
    }),
    ("unbalanced endif directives", |n| {
        "a = \"".to_string() + &repeat("%{endif}", n) + "\"\n"
    }),
    ("unclosed template sequence", |n| {
        "a = \"${".to_string() + &repeat("x ", n) + "\n"
    }),
];

/// Dense shapes for the memory-per-source-byte rows (used by the bench
/// only).
#[allow(dead_code)]
pub const MEMORY: &[Shape] = &[
    ("`$${` escapes in one string", |n| {
        "a = \"".to_string() + &repeat("$${", n) + "\"\n"
    }),
    ("`${a}` interpolations in one string", |n| {
        "a = \"".to_string() + &repeat("${a}", n) + "\"\n"
    }),
    ("`[1,1,1,…]`", |n| {
        "a = [".to_string() + &repeat("1,", n) + "1]\n"
    }),
    ("`{a=1,…}` objects", |n| {
        "a = {".to_string() + &repeat("a=1,", n) + "}\n"
    }),
    ("`a.b.c…` traversal", |n| {
        "a = x".to_string() + &repeat(".b", n) + "\n"
    }),
    ("`f(1,…)` call arguments", |n| {
        "a = f(".to_string() + &repeat("1,", n) + "1)\n"
    }),
    ("`1+1+…` sum", |n| {
        "a = 1".to_string() + &repeat("+1", n) + "\n"
    }),
    ("`a=1` lines", |n| repeat("a=1\n", n)),
    ("`# c` comment lines", |n| repeat("#c\n", n) + "a=1\n"),
    ("`b{}` blocks", |n| repeat("b{\n}\n", n)),
    ("`= = =` errors", |n| repeat("=\n", n)),
    ("`\"x\"` strings in a list", |n| {
        "a = [".to_string() + &repeat("\"x\",", n) + "1]\n"
    }),
    // A program of many small top-level definitions (each a node of the
    // bound program), unlike `a=1` lines, which repeat one name.
    ("`aN=1` distinct locals", |n| {
        (0..n).map(|i| format!("a{i}=1\n")).collect()
    }),
    // Each line a mistake: a name that is not defined, among as many that
    // are, so each asks for suggestions over every definition (a file
    // reports its first 1,000 diagnostics).
    ("`xN=yN` undefined names", |n| {
        (0..n).map(|i| format!("x{i}=y{i}\n")).collect()
    }),
];
