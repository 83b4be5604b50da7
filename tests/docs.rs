//! The documentation is checked (issue 31): every PCL example of
//! `README.md`, `CONTRIBUTING.md` and `docs/*.md` parses, is in the
//! canonical layout and gives exactly the diagnostics it claims; every
//! relative link and `#anchor` resolves; the user documentation names no
//! contributor-only path; `.pre-commit-hooks.yaml` offers the two hooks the
//! guide documents.
//!
//! A fenced block whose info string starts with `pcl` or `hcl` is an
//! example; words after the language say what it is (the convention is in
//! `CONTRIBUTING.md`, "Examples in the documentation"):
//!
//! - nothing: a whole program; it parses, `pcl fmt` leaves it unchanged,
//!   and `pcl check --schema-dir examples/schemas` reports nothing;
//! - `expect=CODE,CODE…`: a whole program for which `pcl check` reports
//!   exactly these codes (in any order, each as often as listed); when it
//!   has syntax errors, the layout is not checked;
//! - `unformatted`: it parses, is not in the canonical layout, and `pcl
//!   fmt` turns it into the next example of the same file;
//! - `fragment`: part of a program, shown alone; it parses and is in the
//!   canonical layout, but is not checked.
//!
//! `docs/codes.md` is left out of the examples: it is generated from the
//! code catalogue, whose own test (`pcl_cli` `catalogue`) checks that each
//! example gives its code. Its links are checked here like the others.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use pcl_diagnostics::FileId;
use pcl_tests::{repo, run_in, scratch, stderr, stdout, write};

/// At least this many examples (deleting or unmarking examples fails).
const MIN_EXAMPLES: usize = 12;
/// At least this many relative links.
const MIN_LINKS: usize = 75;

/// The Markdown files of the documentation, relative to the repository.
fn doc_files() -> Vec<String> {
    let mut files = vec!["README.md".to_string(), "CONTRIBUTING.md".to_string()];
    let dir = repo().join("docs");
    let mut guide: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.ends_with(".md").then(|| format!("docs/{name}"))
        })
        .collect();
    guide.sort();
    files.extend(guide);
    files
}

fn read(rel: &str) -> String {
    let path = repo().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fenced code block: its info string, its text and where it starts.
struct Block {
    file: String,
    line: usize,
    info: String,
    text: String,
}

/// The fenced code blocks of `text` (``` or ~~~ fences, possibly indented
/// as in a list item; the indent is removed from the block's lines).
fn blocks(file: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, String, usize, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let fence = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        match (&mut open, fence) {
            (None, Some(fence)) => {
                let info = trimmed.trim_start_matches(&fence[..1]).trim().to_string();
                open = Some((fence.to_string(), indent, info, i + 1, Vec::new()));
            }
            (Some((f, _, _, _, _)), Some(fence)) if f == fence && trimmed.trim() == fence => {
                if let Some((_, _, info, start, lines)) = open.take() {
                    let mut body = lines.join("\n");
                    body.push('\n');
                    out.push(Block {
                        file: file.to_string(),
                        line: start,
                        info,
                        text: body,
                    });
                }
            }
            (Some((_, ind, _, _, lines)), _) => {
                let strip = line.len().min(*ind);
                let cut = if line.get(..strip).is_some_and(|s| s.trim().is_empty()) {
                    line.get(strip..).unwrap_or("")
                } else {
                    line
                };
                lines.push(cut);
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{file}: a code fence is not closed");
    out
}

/// What an example is, from the words after its language.
#[derive(Debug, PartialEq)]
enum Kind {
    Program(Vec<String>),
    Unformatted,
    Fragment,
}

fn example_kind(block: &Block) -> Option<Kind> {
    let mut words = block.info.split_whitespace();
    let lang = words.next()?;
    if lang != "pcl" && lang != "hcl" {
        return None;
    }
    let mut kind = Kind::Program(Vec::new());
    for word in words {
        kind = match word {
            "unformatted" => Kind::Unformatted,
            "fragment" => Kind::Fragment,
            _ => match word.strip_prefix("expect=") {
                Some(codes) => Kind::Program(codes.split(',').map(str::to_string).collect()),
                None => panic!(
                    "{}:{}: unknown word `{word}` in the info string of an example \
                     (expected `expect=CODES`, `unformatted` or `fragment`)",
                    block.file, block.line
                ),
            },
        };
    }
    Some(kind)
}

/// Every example of the documentation with its kind (`docs/codes.md` aside).
fn examples() -> Vec<(Block, Kind)> {
    let mut out = Vec::new();
    for file in doc_files() {
        if file == "docs/codes.md" {
            continue;
        }
        for block in blocks(&file, &read(&file)) {
            if let Some(kind) = example_kind(&block) {
                out.push((block, kind));
            }
        }
    }
    out
}

fn format(text: &str) -> Result<String, String> {
    pcl_fmt::format(FileId(0), text).map_err(|e| e.to_string())
}

#[test]
fn examples_parse_are_canonical_and_give_the_diagnostics_they_claim() {
    let examples = examples();
    assert!(
        examples.len() >= MIN_EXAMPLES,
        "only {} PCL examples in the documentation (at least {MIN_EXAMPLES} expected)",
        examples.len()
    );
    let mut failures = Vec::new();
    // Programs to check, each in a directory of its own: `bNNN/main.pp`.
    let dir = scratch("docs-examples");
    let mut programs: BTreeMap<String, (usize, Vec<String>)> = BTreeMap::new();
    for (i, (block, kind)) in examples.iter().enumerate() {
        let at = format!("{}:{}", block.file, block.line);
        let parsed = pcl_syntax::parse(FileId(0), block.text.as_str());
        match kind {
            Kind::Unformatted => {
                let next = examples
                    .get(i + 1)
                    .filter(|(next, _)| next.file == block.file)
                    .map(|(next, _)| next.text.as_str());
                match (format(&block.text), next) {
                    (Ok(out), _) if out == block.text => {
                        failures.push(format!("{at}: marked `unformatted` but already canonical"));
                    }
                    (Ok(out), Some(next)) if out == next => {}
                    (Ok(out), _) => failures.push(format!(
                        "{at}: `pcl fmt` does not give the next example; it gives:\n{out}"
                    )),
                    (Err(e), _) => failures.push(format!("{at}: does not format: {e}")),
                }
            }
            Kind::Fragment | Kind::Program(_) => {
                let syntax_errors = parsed.has_errors();
                let expects_errors = matches!(kind, Kind::Program(codes) if !codes.is_empty());
                if syntax_errors && !expects_errors {
                    failures.push(format!("{at}: syntax errors: {:?}", parsed.diagnostics()));
                } else if !syntax_errors {
                    match format(&block.text) {
                        Ok(out) if out == block.text => {}
                        Ok(out) => failures.push(format!(
                            "{at}: not in the canonical layout; `pcl fmt` gives:\n{out}"
                        )),
                        Err(e) => failures.push(format!("{at}: does not format: {e}")),
                    }
                }
                if let Kind::Program(codes) = kind {
                    let name = format!("b{i:03}");
                    write(&dir, &format!("{name}/main.pp"), &block.text);
                    let mut codes = codes.clone();
                    codes.sort();
                    programs.insert(name, (i, codes));
                }
            }
        }
    }
    // One run checks every program, as a user would: with the example
    // schemas, and neither settings nor the schema cache of the machine.
    let schemas = repo().join("examples/schemas");
    let schemas = schemas.to_string_lossy().into_owned();
    let mut args = vec![
        "check",
        "--no-config",
        "--no-schema-cache",
        "--schema-dir",
        schemas.as_str(),
        "--format",
        "short",
    ];
    args.extend(programs.keys().map(String::as_str));
    let out = run_in(&dir, &args, b"");
    let status = out.status.code();
    assert!(
        status == Some(0) || status == Some(1),
        "pcl check of the examples: status {status:?}\n{}",
        stderr(&out)
    );
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in stdout(&out).lines() {
        let program = line.split('/').next().unwrap_or_default().to_string();
        let code = ["error[", "warning[", "note["]
            .iter()
            .find_map(|sev| line.split_once(&format!(": {sev}")))
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(code, _)| code.to_string())
            .unwrap_or_else(|| panic!("not a diagnostic line: {line}"));
        found.entry(program).or_default().push(code);
    }
    for (name, (i, expected)) in &programs {
        let mut got = found.remove(name).unwrap_or_default();
        got.sort();
        if &got != expected {
            let block = &examples[*i].0;
            failures.push(format!(
                "{}:{}: `pcl check` reports {got:?}, the example claims {expected:?}{}",
                block.file,
                block.line,
                if expected.is_empty() {
                    " (mark it `expect=CODE,…` if it is meant to be wrong)"
                } else {
                    ""
                }
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "docs examples: {} checked ({} programs run through `pcl check`)",
        examples.len(),
        programs.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// GitHub's anchor for a heading: lower case, inline markup dropped,
/// punctuation other than `-` and `_` removed, spaces made `-`.
fn slug(heading: &str) -> String {
    // `[text](url)` is `text`.
    let mut plain = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        let (before, after) = rest.split_at(open);
        plain.push_str(before);
        match after.find("](").and_then(|mid| {
            let close = after.get(mid..)?.find(')')? + mid;
            Some((mid, close))
        }) {
            Some((mid, close)) => {
                plain.push_str(after.get(1..mid).unwrap_or_default());
                rest = after.get(close + 1..).unwrap_or_default();
            }
            None => {
                plain.push_str(after);
                rest = "";
            }
        }
    }
    plain.push_str(rest);
    plain
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks), with
/// GitHub's `-1`, `-2` suffixes for repeated headings.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for line in prose_lines(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// The lines of `text` outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let starts = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        match (fence, starts) {
            (None, Some(f)) => fence = Some(f),
            (Some(f), Some(g)) if f == g && trimmed.trim() == f => fence = None,
            (None, None) => out.push(line),
            _ => {}
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of `text`, outside
/// code blocks and code spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose_lines(text) {
        // Code spans are not links: drop the text between backticks.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = rest.get(at + 2..).unwrap_or_default();
            let end = after.find(')').unwrap_or(after.len());
            let target = after.get(..end).unwrap_or_default();
            let target = target.split_whitespace().next().unwrap_or_default();
            out.push(target.trim_matches(['<', '>']).to_string());
            rest = after.get(end..).unwrap_or_default();
        }
    }
    out
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let root = repo();
    let mut checked = 0;
    let mut broken = Vec::new();
    let mut anchor_cache: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    for file in doc_files() {
        let text = read(&file);
        let base = root.join(&file);
        let dir = base.parent().unwrap_or(&root).to_path_buf();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                base.clone()
            } else {
                dir.join(path)
            };
            if !resolved.exists() {
                broken.push(format!(
                    "{file}: `{target}`: {} does not exist",
                    resolved.display()
                ));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if resolved.extension().is_none_or(|e| e != "md") {
                broken.push(format!(
                    "{file}: `{target}`: an anchor into a file that is not Markdown"
                ));
                continue;
            }
            let key = resolved.canonicalize().unwrap_or_else(|_| resolved.clone());
            let known = anchor_cache.entry(key).or_insert_with(|| {
                anchors(&std::fs::read_to_string(&resolved).unwrap_or_default())
            });
            if !known.contains(anchor) {
                broken.push(format!(
                    "{file}: `{target}`: no heading gives `#{anchor}` (there are: {})",
                    known.iter().cloned().collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    println!("docs links: {checked} relative links checked");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(
        checked >= MIN_LINKS,
        "only {checked} relative links in the documentation (at least {MIN_LINKS} expected)"
    );
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(slug("`pcl fmt`"), "pcl-fmt");
    assert_eq!(
        slug("Limits, safety and exit statuses"),
        "limits-safety-and-exit-statuses"
    );
    assert_eq!(slug("What `pcl check` reports"), "what-pcl-check-reports");
    assert_eq!(slug("`human` (default, stderr)"), "human-default-stderr");
    assert_eq!(slug("See [the guide](docs/cli.md)"), "see-the-guide");
    let twice = anchors("# A\n```\n# not a heading\n```\n## A\n");
    assert_eq!(twice, BTreeSet::from(["a".to_string(), "a-1".to_string()]));
}

/// The user documentation (the README and `docs/`) names no path that
/// exists only beside a contributor's clone.
#[test]
fn user_docs_name_no_contributor_only_path() {
    for file in doc_files() {
        if file == "CONTRIBUTING.md" {
            continue;
        }
        let text = read(&file);
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.contains("../shared") && !line.contains("shared/corpus"),
                "{file}:{}: a contributor-only path in the user documentation: {line}",
                n + 1
            );
        }
    }
}

/// The README keeps its two commands, which CI and new users run.
#[test]
fn readme_keeps_the_two_commands() {
    let readme = read("README.md");
    for command in [
        "cargo run --release -p pcl_cli -- check --schema-dir examples/schemas examples/webapp",
        "cargo test --workspace",
    ] {
        assert!(
            readme.lines().any(|l| l.trim() == command),
            "README.md lost the command `{command}`"
        );
    }
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines (at most 300: it is the front page)"
    );
}

/// `.pre-commit-hooks.yaml` offers `pcl-check` and `pcl-fmt` as
/// `docs/ci.md` documents them. A small reader of its flat list of maps;
/// `.ci/run` also validates it with pre-commit itself.
#[test]
fn pre_commit_hooks_offer_check_and_fmt() {
    let text = read(".pre-commit-hooks.yaml");
    let mut hooks: Vec<BTreeMap<String, String>> = Vec::new();
    for line in text.lines() {
        let line = line.split(" #").next().unwrap_or_default();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let entry = match line.strip_prefix("- ") {
            Some(rest) => {
                hooks.push(BTreeMap::new());
                rest
            }
            None => line
                .strip_prefix("  ")
                .unwrap_or_else(|| panic!("unexpected line in .pre-commit-hooks.yaml: {line}")),
        };
        let (key, value) = entry
            .split_once(':')
            .unwrap_or_else(|| panic!("not `key: value`: {line}"));
        let value = value.trim().trim_matches('\'').to_string();
        let hook = hooks
            .last_mut()
            .unwrap_or_else(|| panic!("a key before the first hook: {line}"));
        assert!(
            hook.insert(key.trim().to_string(), value).is_none(),
            "{key} twice"
        );
    }
    let by_id: BTreeMap<&str, &BTreeMap<String, String>> = hooks
        .iter()
        .map(|h| (h.get("id").map(String::as_str).unwrap_or_default(), h))
        .collect();
    assert_eq!(
        by_id.keys().copied().collect::<Vec<_>>(),
        ["pcl-check", "pcl-fmt"]
    );
    for (id, entry) in [("pcl-check", "pcl check"), ("pcl-fmt", "pcl fmt")] {
        let hook = by_id[id];
        let get = |key: &str| hook.get(key).map(String::as_str).unwrap_or_default();
        assert_eq!(get("entry"), entry, "{id}");
        assert_eq!(
            get("language"),
            "system",
            "{id}: docs/ci.md documents `system`"
        );
        assert_eq!(get("files"), r"\.pp$", "{id}");
        assert!(!get("name").is_empty(), "{id} has no name");
    }
    let guide = read("docs/ci.md");
    for id in ["pcl-check", "pcl-fmt"] {
        assert!(
            guide.contains(id),
            "docs/ci.md does not document the hook {id}"
        );
    }
}

/// The functions an example of any kind calls (unformatted ones and
/// fragments included, which `pcl check` does not run): the name before
/// each `(`, in source and in template interpolations.
fn called_functions(text: &str) -> Vec<String> {
    use pcl_syntax::TokenKind as K;
    let tokens = pcl_syntax::lex(text);
    tokens
        .windows(2)
        .filter(|w| w[0].kind == K::Ident && w[1].kind == K::OParen)
        .filter_map(|w| text.get(w[0].range.to_usize()).map(str::to_string))
        .collect()
}

/// Every function an example calls is one PCL defines (issue 28: the
/// README's `pcl fmt` example called `upper`, which PCL does not have).
#[test]
fn examples_call_only_functions_pcl_defines() {
    let defined = |name: &str| {
        pcl_expr::Builtin::from_name(name).is_some() || name == "invoke" || name == "call"
    };
    let mut failures = Vec::new();
    let mut calls = 0;
    for (block, _) in examples() {
        for name in called_functions(&block.text) {
            calls += 1;
            if !defined(&name) {
                failures.push(format!(
                    "{}:{}: calls `{name}`, which is not a PCL function (see docs/builtins.md)",
                    block.file, block.line
                ));
            }
        }
    }
    assert!(calls > 0, "no example calls a function");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The scan finds calls in interpolations and fragments.
    assert_eq!(
        called_functions("a = \"${upper(x)}\"\nb = join(\",\", [])\n"),
        ["upper", "join"]
    );
}
