//! How much stack the grammar needs at the depth limit: parses every
//! nesting construct 200 levels deep (past `MAX_NESTING_DEPTH`, so each
//! hits the limit) as a file, an expression and a template, on a thread
//! with the given stack, and prints `ok` (a stack overflow aborts).
//!
//! `STACK_NEEDED` in `grammar/mod.rs` is four times the smallest stack
//! that passes in a debug build and 2.6 times the one in a release build:
//!
//! ```text
//! cargo build -p pcl_syntax --example stackprobe [--release]
//! for kb in 256 384 512 1024 2048 3072 4096; do
//!     target/debug/examples/stackprobe $kb; done
//! ```
//!
//! (Run it with `run` unchanged, which grows the stack itself, and every
//! size passes; the figures are taken with `stacker::maybe_grow` removed.)

use pcl_diagnostics::FileId;

fn cases() -> Vec<String> {
    let n = 200;
    vec![
        format!("a = {}1{}\n", "(".repeat(n), ")".repeat(n)),
        format!("a = {}1{}\n", "[".repeat(n), "]".repeat(n)),
        format!("a = {}1{}\n", "{a=".repeat(n), "}".repeat(n)),
        format!("a = {}1{}\n", "f(".repeat(n), ")".repeat(n)),
        format!("a = {}1{}\n", "\"${".repeat(n / 2), "}\"".repeat(n / 2)),
        format!("a = {}1{}\n", "x[".repeat(n), "]".repeat(n)),
        format!("a = {}x\n", "-".repeat(n)),
        format!("a = {}x\n", "!".repeat(n)),
        format!("a = {}x{}\n", "c ? x : (".repeat(n / 2), ")".repeat(n / 2)),
        format!("a = {}x\n", "c ? x : ".repeat(n)),
        format!("a = {}x\n", "c ? ".repeat(n)),
        format!(
            "a = [for v in {}x{} : v]\n",
            "[for v in ".repeat(n / 2 - 1),
            " : v]".repeat(n / 2 - 1)
        ),
        format!(
            "a = {{for k, v in {}x{} : k => v}}\n",
            "{for k, v in ".repeat(n / 2 - 1),
            " : k => v}".repeat(n / 2 - 1)
        ),
        format!("{}a = 1\n{}", "b {\n".repeat(n), "}\n".repeat(n)),
        format!("a = x{}\n", "[*].a".repeat(n)),
        format!("a = x{}\n", ".*.a".repeat(n)),
        format!("a = <<EOT\n{}\nEOT\n", "${\"".repeat(n)),
        format!("a = \"{}\"\n", "%{if x}".repeat(n)),
        format!("a = \"{}\"\n", "%{for x in y}".repeat(n)),
    ]
}

fn main() {
    let Some(kib) = std::env::args()
        .nth(1)
        .and_then(|a| a.parse::<usize>().ok())
    else {
        eprintln!("usage: stackprobe <stack size in KiB>");
        std::process::exit(2);
    };
    let cases = cases();
    let thread = std::thread::Builder::new()
        .stack_size(kib * 1024)
        .spawn(move || {
            for text in &cases {
                std::hint::black_box(pcl_syntax::parse(FileId(0), text));
                let expr = text.trim_start_matches("a = ");
                std::hint::black_box(pcl_syntax::parse_expr(FileId(0), expr));
                std::hint::black_box(pcl_syntax::parse_template(FileId(0), text));
            }
        });
    match thread.map(|t| t.join()) {
        Ok(Ok(())) => println!("ok {kib}"),
        _ => {
            eprintln!("failed at {kib} KiB");
            std::process::exit(1);
        }
    }
}
