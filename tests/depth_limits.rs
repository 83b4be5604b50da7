//! Depth limits wherever recursion meets user input, each tested at the
//! limit, just past it and far beyond it (100 000), on a thread with a
//! 2 MiB stack, through every consumer of the deep structure: parser,
//! printers (`print`, `dump`, human rendering, `--emit model`), binder,
//! type operations and `Drop`.
//!
//! | limit | where | what deeper input gets |
//! |---|---|---|
//! | `pcl_syntax::MAX_NESTING_DEPTH` | parser: brackets, calls, unary and conditional chains, templates, directives, blocks, `for` | `nesting-too-deep`, the excess skipped without recursion |
//! | `pcl_expr::MAX_EXPR_DEPTH` | expression binder (long operator chains) | `expression-too-deep` |
//! | `pcl_types::MAX_TYPE_DEPTH` | type labels, type notation, every walk over a type | a label error; walks fall back; traversal reports `type-too-deep` |
//! | `MAX_SCHEMA_DEPTH` (64, `pcl_binder::schema_types`) | schema type conversion within one property (arrays, maps, unions; objects are converted lazily, each from depth 0) | `dynamic` below it |
//! | `pcl_binder::policy::DEFAULT_MAX_COMPONENT_DEPTH` | nested components | `component-too-deep` |
//!
//! The `.ci/run` script runs this target in release mode as well.

mod common;

use common::on_small_stack;

use std::path::{Path, PathBuf};
use std::process::Command;

use pcl_binder::policy::DEFAULT_MAX_COMPONENT_DEPTH;
use pcl_binder::{check_program, check_program_with_files, BindPolicy, MemoryFiles};
use pcl_diagnostics::FileId;
use pcl_schema::MemoryLoader;
use pcl_syntax::{codes as syntax_codes, parse, MAX_NESTING_DEPTH};
use pcl_types::{
    bind_type_label, conversion_from, input_type, pretty, pretty_capped, to_notation, traverse,
    unify, Traverser, Type, Value, MAX_TYPE_DEPTH,
};

const FAR: usize = 100_000;

/// Each nesting form of the parser: a name and `depth` → program text with
/// `depth` nesting levels of that form.
type Form = (&'static str, fn(usize) -> String);

const FORMS: &[Form] = &[
    ("parentheses", |n| {
        format!("a = {}1{}\n", "(".repeat(n), ")".repeat(n))
    }),
    ("lists", |n| {
        format!("a = {}1{}\n", "[".repeat(n), "]".repeat(n))
    }),
    ("objects", |n| {
        format!("a = {}1{}\n", "{a = ".repeat(n), "}".repeat(n))
    }),
    ("calls", |n| {
        format!("a = {}1{}\n", "f(".repeat(n), ")".repeat(n))
    }),
    ("index", |n| {
        format!("a = {}0{}\n", "x[".repeat(n), "]".repeat(n))
    }),
    ("negation", |n| format!("a = {}1\n", "-".repeat(n))),
    ("not", |n| format!("a = {}x\n", "!".repeat(n))),
    ("conditionals", |n| {
        format!("a = {}x\n", "c ? 1 : ".repeat(n))
    }),
    ("interpolations", |n| {
        format!("a = {}1{}\n", "\"${".repeat(n), "}\"".repeat(n))
    }),
    ("directives", |n| {
        format!(
            "a = \"{}{}\"\n",
            "%{ if x }".repeat(n),
            "%{ endif }".repeat(n)
        )
    }),
    ("for", |n| {
        format!("a = {}1{}\n", "[for x in y : ".repeat(n), "]".repeat(n))
    }),
    ("blocks", |n| {
        format!("{}{}", "b {\n".repeat(n), "}\n".repeat(n))
    }),
];

/// The codes of the diagnostics of checking `text` as `main.pp`, strictly.
fn strict_codes(loader: &MemoryLoader, text: String) -> Vec<String> {
    let sources = vec![("main.pp".to_string(), text)];
    check_program(&sources, loader, &BindPolicy::strict())
        .diagnostics()
        .iter()
        .map(|d| d.code.as_str().to_string())
        .collect()
}

fn too_deep_count(text: &str) -> usize {
    parse(FileId(0), text)
        .diagnostics()
        .iter()
        .filter(|d| d.code == syntax_codes::NESTING_TOO_DEEP)
        .count()
}

/// The deepest nesting of `form` that parses without `nesting-too-deep`
/// (a binary search; the forms are monotonic).
fn deepest_accepted(form: fn(usize) -> String) -> usize {
    let (mut ok, mut bad) = (0, 4 * MAX_NESTING_DEPTH);
    assert!(too_deep_count(&form(bad)) > 0);
    while bad - ok > 1 {
        let mid = (ok + bad) / 2;
        if too_deep_count(&form(mid)) == 0 {
            ok = mid;
        } else {
            bad = mid;
        }
    }
    ok
}

/// Every form accepts nesting up to the limit (some forms use two levels
/// per repetition, e.g. a template and its interpolation) and reports one
/// `nesting-too-deep` just past it.
#[test]
fn parser_limit_is_exact_for_every_form() {
    on_small_stack(|| {
        let mut problems = Vec::new();
        for (name, form) in FORMS {
            let deepest = deepest_accepted(*form);
            // One repetition is one or two levels; the boundary must sit at
            // the limit, not below it.
            if !(MAX_NESTING_DEPTH / 2 - 1..=MAX_NESTING_DEPTH).contains(&deepest) {
                problems.push(format!(
                    "{name}: {deepest} levels accepted, limit {MAX_NESTING_DEPTH}"
                ));
            }
            let past = too_deep_count(&form(deepest + 1));
            if past != 1 {
                problems.push(format!(
                    "{name}: {past} nesting-too-deep diagnostics at {} levels",
                    deepest + 1
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    });
}

/// Deepest-accepted depths per form, for the record (printed with
/// `--nocapture`): they say how many levels one repetition costs.
#[test]
fn parser_limit_table() {
    on_small_stack(|| {
        for (name, form) in FORMS {
            println!("{name}: {} levels accepted", deepest_accepted(*form));
        }
    });
}

/// 100 000 levels of every form, through the whole library: parse (one
/// `nesting-too-deep`, lossless print, dump), check (bind) and drop, on a
/// 2 MiB stack.
#[test]
fn far_beyond_the_parser_limit() {
    on_small_stack(|| {
        let loader = MemoryLoader::new();
        for (name, form) in FORMS {
            let text = form(FAR);
            let parsed = parse(FileId(0), &text);
            let deep = parsed
                .diagnostics()
                .iter()
                .filter(|d| d.code == syntax_codes::NESTING_TOO_DEEP)
                .count();
            assert_eq!(deep, 1, "{name}: {deep} nesting-too-deep diagnostics");
            assert_eq!(parsed.print(), text, "{name}: print is not lossless");
            let dump = parsed.dump();
            assert!(!dump.is_empty());
            drop(parsed);

            let sources = vec![("main.pp".to_string(), text)];
            let checked = check_program(&sources, &loader, &BindPolicy::strict());
            let too_deep: Vec<_> = checked
                .diagnostics()
                .iter()
                .filter(|d| d.code.as_str() == "nesting-too-deep")
                .collect();
            assert_eq!(too_deep.len(), 1, "{name}");
            // Rendering is exercised by `printers_in_the_binary` (the human
            // report of the same inputs).
            drop(checked);
        }
    });
}

/// Long flat chains the parser accepts at any length: the binder must not
/// recurse once per element beyond `MAX_EXPR_DEPTH`. A chain of 100 000
/// gives at most one diagnostic (`expression-too-deep` where binding is
/// still recursive) and never overflows.
#[test]
fn long_chains_through_the_binder() {
    on_small_stack(|| {
        let loader = MemoryLoader::new();
        let chains = [
            ("sum", format!("a = 1{}\n", " + 1".repeat(FAR))),
            ("concat", format!("a = true{}\n", " && true".repeat(FAR))),
            (
                "attributes",
                format!("x = {{}}\na = x{}\n", ".b".repeat(FAR)),
            ),
            ("indexes", format!("x = []\na = x{}\n", "[0]".repeat(FAR))),
            // `.b` of the empty tuple's `none` item is reported once, not
            // once per splat (each splat nests: 100 is within the parser's
            // limit).
            ("splats", format!("x = []\na = x{}\n", "[*].b".repeat(100))),
            ("none", format!("a = null{}\n", ".b".repeat(FAR))),
        ];
        for (name, text) in chains {
            let codes = strict_codes(&loader, text);
            // No storm: at most one diagnostic (`expression-too-deep`, or a
            // type error at the head of the chain, e.g. indexing `[]`).
            assert!(
                codes.len() <= 1,
                "{name}: {:?}",
                &codes[..codes.len().min(5)]
            );
            println!("{name}: {codes:?}");
        }
    });
}

fn nested_label(n: usize) -> String {
    format!("{}string{}", "list(".repeat(n), ")".repeat(n))
}

/// Type labels nest up to `MAX_TYPE_DEPTH`; deeper labels are one error,
/// also 100 000 deep.
#[test]
fn type_label_limit() {
    on_small_stack(|| {
        let deepest = (1..=4 * MAX_TYPE_DEPTH)
            .take_while(|n| bind_type_label(&nested_label(*n)).diagnostics.is_empty())
            .last()
            .unwrap_or(0);
        assert!(
            (MAX_TYPE_DEPTH - 2..=MAX_TYPE_DEPTH).contains(&deepest),
            "labels nest {deepest} deep, limit {MAX_TYPE_DEPTH}"
        );
        let past = bind_type_label(&nested_label(deepest + 1));
        assert_eq!(past.diagnostics.len(), 1);
        let far = bind_type_label(&nested_label(FAR));
        assert_eq!(far.diagnostics.len(), 1);

        // Through the binder too (the label 100 000 deep is a string
        // literal of 600 000 characters).
        let loader = MemoryLoader::new();
        let depths: &[usize] = &[MAX_TYPE_DEPTH + 1, FAR];
        for n in depths {
            let text = format!("config c \"{}\" {{}}\nv = c\n", nested_label(*n));
            let codes = strict_codes(&loader, text);
            assert_eq!(codes, ["invalid-type-label"], "{n} levels");
        }
    });
}

fn nested_type(n: usize) -> Type {
    let mut t = Type::int();
    for i in 0..n {
        t = match i % 4 {
            0 => Type::list(t),
            1 => Type::object([("p", t)]),
            2 => Type::union([t, Type::none()]),
            _ => Type::output(t),
        };
    }
    t
}

/// Types built 100 000 deep (by an API user, not a label) go through every
/// walk within `MAX_TYPE_DEPTH` and drop without overflowing.
#[test]
fn types_far_beyond_the_limit() {
    on_small_stack(|| {
        for n in [MAX_TYPE_DEPTH, MAX_TYPE_DEPTH + 1, FAR] {
            let a = nested_type(n);
            let b = nested_type(n);
            let _ = a == b;
            let _ = conversion_from(&a, &b);
            let _ = unify(&a, &Type::string());
            let _ = input_type(&a);
            assert!(a.to_string().len() < 1_000_000);
            let _ = pretty(&a);
            assert!(pretty_capped(&a).chars().count() < 10_000);
            let _ = to_notation(&a);
            drop(a);
            drop(b);
        }
    });
}

/// `object({a = string})` under `n` `const` layers: the one type
/// constructor that does not normalise nesting away (`output`, `promise`
/// and `union` flatten), so the only way to reach traversal's limit.
fn nested_const(n: usize) -> Type {
    let mut t = Type::object([("a", Type::string())]);
    for _ in 0..n {
        t = Type::constant(t, Value::string("v"));
    }
    t
}

/// Traversal stops at `MAX_TYPE_DEPTH` layers with one `type-too-deep`
/// error and a `dynamic` result, at the limit, past it and far beyond it.
#[test]
fn traversal_limit() {
    on_small_stack(|| {
        let step = Traverser::Attr("a".into());
        let at = traverse(&nested_const(MAX_TYPE_DEPTH), &step);
        assert!(at.diagnostics.is_empty(), "{:?}", at.diagnostics);
        assert_eq!(at.ty, Type::string());
        for n in [MAX_TYPE_DEPTH + 1, FAR] {
            let t = nested_const(n);
            let past = traverse(&t, &step);
            let codes: Vec<&str> = past.diagnostics.iter().map(|d| d.code.as_str()).collect();
            assert_eq!(codes, [pcl_types::codes::TYPE_TOO_DEEP.as_str()], "{n}");
            assert!(past.has_errors());
            assert_eq!(past.ty, Type::dynamic(), "{n}");
            drop(t);
        }
    });
}

/// A schema property nested `n` arrays deep.
fn deep_schema(n: usize) -> String {
    let ty = format!(
        r#"{}{{"type": "string"}}{}"#,
        r#"{"type": "array", "items": "#.repeat(n),
        "}".repeat(n)
    );
    format!(
        r#"{{"name": "deep", "version": "1.0.0", "resources": {{"deep:index:R": {{"inputProperties": {{"p": {ty}}}}}}}}}"#
    )
}

/// Schema types convert up to `MAX_SCHEMA_DEPTH` (64) levels of arrays,
/// maps and unions within a property (objects each start again at 0; see
/// `pcl_binder::schema_types`) and fall back
/// to `dynamic` below; a schema nested 100 000 deep is refused as a
/// malformed file with one diagnostic, not a crash.
#[test]
fn schema_depth() {
    on_small_stack(|| {
        for n in [60, 64, 65, 100] {
            let loader = match MemoryLoader::new().with(deep_schema(n)) {
                Ok(l) => l,
                Err(e) => panic!("{n} levels: {e}"),
            };
            let text = format!(
                "resource r \"deep:index:R\" {{\n  p = {}\"s\"{}\n}}\n",
                "[".repeat(n),
                "]".repeat(n)
            );
            let codes = strict_codes(&loader, text);
            let expected: &[&str] = if n + 1 < MAX_NESTING_DEPTH {
                &[]
            } else {
                &["nesting-too-deep"]
            };
            assert_eq!(codes, expected, "{n} levels");
        }
        // 100 000 levels: the file is refused when it is read or when the
        // resource is decoded (serde_json's recursion limit), never a crash.
        if let Ok(loader) = MemoryLoader::new().with(deep_schema(FAR)) {
            let text = "resource r \"deep:index:R\" {\n  p = []\n}\n".to_string();
            let codes = strict_codes(&loader, text);
            assert_eq!(codes.len(), 1, "{codes:?}");
        }
    });
}

/// Components nest up to `DEFAULT_MAX_COMPONENT_DEPTH`; one more level is a
/// `component-too-deep` error, and a chain of 100 000 directories stops
/// there too.
#[test]
fn component_depth() {
    on_small_stack(|| {
        let loader = MemoryLoader::new();
        for (levels, too_deep) in [
            (DEFAULT_MAX_COMPONENT_DEPTH, false),
            (DEFAULT_MAX_COMPONENT_DEPTH + 1, true),
            (FAR, true),
        ] {
            let mut files = MemoryFiles::new();
            let mut dir = String::new();
            // Only the first levels are ever read; the rest exist so that
            // the chain is really `levels` long.
            for level in 1..=levels.min(DEFAULT_MAX_COMPONENT_DEPTH + 2) {
                dir = if dir.is_empty() {
                    "c".to_string()
                } else {
                    format!("{dir}/c")
                };
                let text = if level < levels {
                    "component c \"./c\" {}\n"
                } else {
                    "x = 1\n"
                };
                files.add(format!("{dir}/main.pp"), text);
            }
            let sources = vec![(
                "main.pp".to_string(),
                "component c \"./c\" {}\n".to_string(),
            )];
            let checked =
                check_program_with_files(&sources, &loader, &BindPolicy::strict(), &files);
            let codes: Vec<&str> = checked
                .diagnostics()
                .iter()
                .map(|d| d.code.as_str())
                .collect();
            if too_deep {
                assert_eq!(codes, ["component-too-deep"], "{levels} levels");
            } else {
                assert!(codes.is_empty(), "{levels} levels: {codes:?}");
            }
        }
    });
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("depth-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// The CLI printers on 100 000-deep input: `parse --emit tree|source`,
/// `check` (human) and `check --emit model` finish with a verdict, never a
/// crash (the binary binds on rayon threads with their default stacks).
#[test]
fn printers_in_the_binary() {
    let dir = scratch("printers");
    let mut names = Vec::new();
    for (name, form) in FORMS {
        let file = format!("{name}.pp");
        std::fs::write(dir.join(&file), form(FAR)).unwrap_or_else(|e| panic!("{e}"));
        names.push(file);
    }
    // A 100 000-term `+` chain: `tree_dump_of_a_long_chain_is_linear`.
    // One program of all the files: each printer runs once over all forms.
    for args in [
        &["parse", "--emit", "tree"][..],
        &["parse", "--emit", "source"][..],
        &["check", "--no-schema-cache", "--color", "never"][..],
        &["check", "--no-schema-cache", "--emit", "model"][..],
    ] {
        let out = pcl(&[args, &["."]].concat(), &dir);
        let code = out.status.code();
        assert!(
            code == Some(1),
            "pcl {args:?}: status {code:?}\n{}",
            String::from_utf8_lossy(&out.stderr)
                .chars()
                .take(2000)
                .collect::<String>()
        );
    }
    assert_eq!(names.len(), FORMS.len());
}

/// `pcl parse --emit tree` of a 100 000-term `+` chain: the left-nested
/// chain is 100 000 levels deep, and its dump is linear in the chain (about
/// 40 bytes a term; indenting every level made it about 10 GB).
#[test]
fn tree_dump_of_a_long_chain_is_linear() {
    let dir = scratch("chain");
    let text = format!("a = x{}\n", " + x".repeat(FAR - 1));
    std::fs::write(dir.join("chain.pp"), &text).unwrap_or_else(|e| panic!("{e}"));
    let out = pcl(&["parse", "--emit", "tree", "chain.pp"], &dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    // Body, attribute, FAR - 1 binary nodes and FAR variables.
    assert_eq!(tree.lines().count(), 2 * FAR + 1);
    assert!(
        tree.len() < 100 * FAR,
        "{} bytes of tree for {FAR} terms",
        tree.len()
    );
    assert!(tree
        .lines()
        .any(|l| l.starts_with(&format!("@{FAR} Variable"))));
}

fn pcl(args: &[&str], cwd: &Path) -> std::process::Output {
    Command::new(pcl_tests::pcl_binary())
        .args(args)
        .current_dir(cwd)
        .env_remove("PCL_INTERNAL_TEST_PANIC")
        .output()
        .unwrap_or_else(|e| panic!("cannot run pcl: {e}"))
}
