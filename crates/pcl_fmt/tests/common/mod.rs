//! Shared helpers of the formatter's tests: where the corpus, the goldens
//! and the hclwrite oracle are, and the checks every formatted file passes.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use pcl_diagnostics::FileId;
use pcl_syntax::tree::{BodyRef, CommentRef, List};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The corpus's 337 `.pp` files, less a margin.
pub const MIN_CORPUS_FILES: usize = 330;

/// `../shared/corpus`, when it is there; absent, `test` is skipped locally
/// and fails under `PCL_REQUIRE_CORPUS=1`.
pub fn corpus(test: &str) -> Option<PathBuf> {
    pcl_testkit::shared("corpus/programs", test)?;
    Some(root().join("../shared/corpus"))
}

/// The hclwrite oracle (`../shared/peers/go-hclfmt` built, as `.ci/run`
/// does): `$PCL_HCLFMT`, else `target/peers/hclfmt`, when it exists. With
/// `PCL_REQUIRE_HCLFMT=1` (set by `.ci/run`) a missing oracle fails.
pub fn oracle() -> Option<PathBuf> {
    let path = match std::env::var_os("PCL_HCLFMT") {
        Some(p) => PathBuf::from(p),
        None => root().join("target/peers/hclfmt"),
    };
    if path.is_file() {
        return Some(path);
    }
    assert!(
        std::env::var_os("PCL_REQUIRE_HCLFMT").is_none_or(|v| v != "1"),
        "the hclwrite oracle {} is not built, and PCL_REQUIRE_HCLFMT=1 requires it",
        path.display()
    );
    None
}

/// Every `*.pp` file under `dir`, sorted.
pub fn pp_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pp") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// hclwrite's output for each of `files` (all under `base`; read back from
/// a scratch directory the oracle writes to), in order; `None` for a file
/// it could not parse.
pub fn run_oracle(
    oracle: &Path,
    base: &Path,
    files: &[PathBuf],
    scratch: &str,
) -> Vec<Option<Vec<u8>>> {
    let files: Vec<&Path> = files
        .iter()
        .map(|f| f.strip_prefix(base).unwrap())
        .collect();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(scratch);
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let status = Command::new(oracle)
        .current_dir(base)
        .arg("-o")
        .arg(&out)
        .args(&files)
        .status()
        .unwrap();
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "the oracle failed: {status}"
    );
    files
        .iter()
        .map(|f| std::fs::read(out.join(f)).ok())
        .collect()
}

/// FNV-1a, 64 bits: the checked-in fingerprint of hclwrite's output.
pub fn fnv64(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The significant tokens (kind and text) of `text`.
pub fn significant_tokens(text: &str) -> Vec<(pcl_syntax::TokenKind, String)> {
    pcl_syntax::lex(text)
        .into_iter()
        .filter(|t| t.kind != pcl_syntax::TokenKind::Whitespace)
        .map(|t| (t.kind, text[t.range.to_usize()].to_string()))
        .collect()
}

/// Every comment of `text` with the body item it is attached to, as a
/// path of item indices, how (`leading`, `trailing`, `dangling`) and its
/// text: what formatting must keep.
pub fn comment_attachment(text: &str) -> Vec<String> {
    let parse = pcl_syntax::parse(FileId(0), text);
    let mut out = Vec::new();
    walk(parse.body(), "", &mut out);
    out
}

/// Recursive over block nesting, which the parser bounds.
fn walk(body: BodyRef<'_>, path: &str, out: &mut Vec<String>) {
    let show = |out: &mut Vec<String>, at: &str, how: &str, comments: List<'_, CommentRef<'_>>| {
        for c in comments {
            out.push(format!("{at} {how} {:?}", c.text()));
        }
    };
    show(out, path, "dangling", body.dangling_comments());
    for (i, item) in body.items().iter().enumerate() {
        let at = format!("{path}/{i}");
        show(out, &at, "leading", item.leading_comments());
        show(out, &at, "trailing", item.trailing_comments());
        if let Some(block) = item.as_block() {
            walk(block.body(), &at, out);
        }
    }
}

/// Checks what formatting `text` into `formatted` must keep: the tokens,
/// the comments' attachment, and that formatting again changes nothing.
pub fn check_invariants(name: &str, text: &str, formatted: &str) {
    assert_eq!(
        significant_tokens(text),
        significant_tokens(formatted),
        "{name}: tokens changed"
    );
    assert_eq!(
        comment_attachment(text),
        comment_attachment(formatted),
        "{name}: a comment moved"
    );
    let again = pcl_fmt::format(FileId(0), formatted).unwrap();
    assert!(
        again == formatted,
        "{name}: not idempotent:\n{formatted}\n---\n{again}"
    );
}

/// Whether golden files are being regenerated (`UPDATE_EXPECT=1`).
pub fn updating() -> bool {
    pcl_testkit::updating()
}
