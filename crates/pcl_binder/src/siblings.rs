//! Checking one file of a multi-file program (issue 13 §2): the names the
//! other `.pp` files of its directory declare ([`Siblings`], read from
//! their top-level items only), so that a use of one of them is not an
//! `undefined-variable` error with a wrong did-you-mean but, once per
//! declaring file, a `declared-in-sibling` note at the first use: "`siteName`
//! is declared in `config.pp`; check the directory to check the whole
//! program". Such a name is `dynamic` in the checked file, and the file's
//! verdict does not depend on it (a pre-commit hook that checks the changed
//! files one by one passes a correct multi-file program).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use pcl_diagnostics::{Diagnostic, FileId, Severity, Span};
use pcl_syntax::tree::{Item, ItemRef};

use crate::codes;

/// How many names one note lists before it counts the rest.
const NAMES_SHOWN: usize = 3;

/// The top-level names the `.pp` files of one directory declare, each with
/// the (display) names of the first two files declaring it: built once per
/// directory and shared by every file of it checked alone ([`Siblings`]).
/// A file name is kept once and referred to by index, so a declaration
/// costs one key and no copies; the map hashes with foldhash (5 MB of
/// sibling files declare tens of thousands of names).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeclaredNames {
    /// The display names of the files, sorted; [`Declarers`] index them.
    files: Vec<String>,
    names: HashMap<Box<str>, Declarers, foldhash::fast::RandomState>,
}

/// An empty slot of [`Declarers`].
const NO_FILE: u32 = u32::MAX;

/// The first two files declaring a name, and the first two declaring it by
/// anything but an `output` block (in the directory such a name shadows an
/// output of the same name: a reference looks at definitions before
/// outputs). Indexes into [`DeclaredNames::files`], [`NO_FILE`] where there
/// are fewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Declarers {
    declared: [u32; 2],
    defined: [u32; 2],
}

impl DeclaredNames {
    /// The names declared by `files` (`(display name, text)`): locals,
    /// and the names of `resource`, `read`, `config`, `output`, `component`
    /// and `hook` blocks. Nothing is bound, and a file is only lexed and
    /// skimmed for its top-level names ([`skim`]) unless the skim meets
    /// something it does not read as the parser would (a syntax error, a
    /// label with escapes): then the file is parsed ([`parsed_names`]).
    pub fn from_files(files: &[(String, String)]) -> DeclaredNames {
        let mut sorted: Vec<&(String, String)> = files.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        let mut names = DeclaredNames {
            files: sorted.iter().map(|(file, _)| file.clone()).collect(),
            names: HashMap::default(),
        };
        for (index, (_, text)) in sorted.iter().enumerate() {
            let file = u32::try_from(index).unwrap_or(NO_FILE);
            match skim(text) {
                Some(found) => {
                    names.names.reserve(found.len());
                    for (name, is_output) in found {
                        names.note(name, is_output, file);
                    }
                }
                None => {
                    for (name, is_output) in parsed_names(text) {
                        names.note(&name, is_output, file);
                    }
                }
            }
        }
        names
    }

    /// Records that file `file` declares `name` (by an `output` block when
    /// `is_output`).
    fn note(&mut self, name: &str, is_output: bool, file: u32) {
        match self.names.get_mut(name) {
            None => {
                let defined = if is_output { NO_FILE } else { file };
                let declarers = Declarers {
                    declared: [file, NO_FILE],
                    defined: [defined, NO_FILE],
                };
                self.names.insert(name.into(), declarers);
            }
            Some(declarers) => {
                note_file(&self.files, &mut declarers.declared, file);
                if !is_output {
                    note_file(&self.files, &mut declarers.defined, file);
                }
            }
        }
    }

    /// The display name of file `index`.
    fn file(&self, index: u32) -> Option<&str> {
        self.files.get(index as usize).map(String::as_str)
    }

    /// The first file of `slots` other than `checked`.
    fn other_file(&self, slots: [u32; 2], checked: &str) -> Option<&str> {
        let [first, second] = slots;
        match self.file(first)? {
            first if first != checked => Some(first),
            _ => self.file(second),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// Fills the first empty slot of `slots` with `file` unless the file
/// there already is the same (by name).
fn note_file(files: &[String], slots: &mut [u32; 2], file: u32) {
    let same = |a: u32| files.get(a as usize) == files.get(file as usize);
    match slots {
        [first @ NO_FILE, _] => *first = file,
        [first, second @ NO_FILE] if !same(*first) => *second = file,
        _ => {}
    }
}

/// What the other files of a file's directory declare, for checking that
/// file alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Siblings {
    names: Arc<DeclaredNames>,
    checked: String,
}

impl Siblings {
    /// The names of `names` declared by files other than `checked` (the
    /// display name of the file checked alone).
    pub fn new(names: Arc<DeclaredNames>, checked: impl Into<String>) -> Siblings {
        Siblings {
            names,
            checked: checked.into(),
        }
    }

    /// The first file other than the checked one declaring `name`.
    pub fn file_of(&self, name: &str) -> Option<&str> {
        let declarers = self.names.names.get(name)?;
        self.names.other_file(declarers.declared, &self.checked)
    }

    /// Whether a file other than the checked one declares `name` by
    /// anything but an `output` block (so that, in the directory, `name`
    /// refers to that declaration and not to an output of the checked
    /// file).
    pub fn defines(&self, name: &str) -> bool {
        self.names
            .names
            .get(name)
            .and_then(|d| self.names.other_file(d.defined, &self.checked))
            .is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// The names `text` declares, each with whether an `output` block declares
/// it, read from a full parse: the top-level items, and after a syntax
/// error the blocks nested in them (after a block whose `}` is missing, the
/// parser reads the blocks that follow as nested in it; the binder
/// declares their names, `declare_swallowed`, so they are a sibling's too).
fn parsed_names(text: &str) -> Vec<(String, bool)> {
    let parse = pcl_syntax::parse(FileId(0), text);
    let mut out = Vec::new();
    for item in parse.body().items() {
        if let Some(name) = declared_name(item) {
            let is_output = item.as_block().is_some_and(|b| b.type_name() == "output");
            out.push((name, is_output));
        }
    }
    if parse
        .diagnostics()
        .iter()
        .any(|d| d.severity == Severity::Error)
    {
        let mut stack: Vec<_> = parse
            .body()
            .blocks()
            .flat_map(|b| b.body().blocks())
            .collect();
        while let Some(b) = stack.pop() {
            stack.extend(b.body().blocks());
            if !matches!(
                b.type_name(),
                "resource" | "read" | "config" | "output" | "component"
            ) {
                continue;
            }
            if let Some(label) = b.labels().first() {
                out.push((label.value(), b.type_name() == "output"));
            }
        }
    }
    out.into_iter()
        .map(|(name, is_output)| (name.to_string(), is_output))
        .collect()
}

/// Where [`skim`] is in the file's top-level items.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    /// Between items.
    Between,
    /// In an attribute's expression; the kind of its last significant
    /// token at top level (a bracket's closer for a bracketed part).
    Attribute(pcl_syntax::TokenKind),
    /// In a block's body.
    Body,
    /// After a block's `}`.
    Closed,
}

/// The names `text` declares at top level, with whether an `output` block
/// declares each, from its tokens alone: `NAME = …` and
/// `TYPE LABEL… { … }` items, brackets and templates matched by a stack.
/// `None` when the file holds anything the parser would report or read
/// differently (an error token, unmatched brackets, an item of another
/// shape, an expression ending in an operator, a quoted label with escapes
/// or templates, a block comment inside an item, or a block nested in
/// another, which a syntax error elsewhere would make a declaration): the
/// caller then parses it. One pass over the tokens, no recursion.
fn skim(text: &str) -> Option<Vec<(&str, bool)>> {
    use pcl_syntax::TokenKind as K;
    let tokens = pcl_syntax::lex(text);
    let slice = |t: &pcl_syntax::Token| token_text(text, t);
    // The significant tokens; a line comment that ends its line acts as
    // the line break it holds.
    let mut sig = tokens.iter().filter_map(|t| match t.kind {
        K::Whitespace | K::Bom => None,
        K::HashComment | K::SlashComment => slice(t)
            .is_some_and(|s| s.ends_with('\n'))
            .then_some((K::Newline, t)),
        kind => Some((kind, t)),
    });
    let mut out = Vec::new();
    let mut open: Vec<K> = Vec::new();
    let mut at = At::Between;
    // The previous significant token inside brackets when it was a name:
    // if it is a block keyword (`resource` …), a label after it makes a
    // nested block. Its text is looked at only when a label follows.
    let mut after_name: Option<&pcl_syntax::Token> = None;
    let is_nested_block = |after_name: Option<&pcl_syntax::Token>| match after_name {
        Some(name) => slice(name).map(is_block_keyword),
        None => Some(false),
    };
    while let Some((kind, tok)) = sig.next() {
        if !open.is_empty() {
            // Most tokens are inside an item's brackets and neither open
            // nor close one: decided first.
            match kind {
                K::Ident => {
                    if is_nested_block(after_name)? {
                        return None;
                    }
                    after_name = Some(tok);
                    continue;
                }
                K::Newline
                | K::NumberLit
                | K::QuotedLit
                | K::StringLit
                | K::Equal
                | K::Comma
                | K::Dot
                | K::Colon
                | K::Star
                | K::Plus
                | K::Minus
                | K::Slash
                | K::Percent
                | K::EqualOp
                | K::NotEqual
                | K::LessThan
                | K::LessThanEq
                | K::GreaterThan
                | K::GreaterThanEq
                | K::And
                | K::Or
                | K::Bang
                | K::Question
                | K::DoubleColon
                | K::Ellipsis
                | K::FatArrow => {
                    after_name = None;
                    continue;
                }
                _ => {}
            }
        }
        if matches!(
            kind,
            K::QuotedNewline
                | K::BitwiseAnd
                | K::BitwiseOr
                | K::BitwiseXor
                | K::BitwiseNot
                | K::Apostrophe
                | K::Backtick
                | K::Semicolon
                | K::Invalid
        ) {
            return None;
        }
        if kind == K::BlockComment {
            // Trivia between items; inside an item's brackets too, where
            // line breaks do not count. Within an item at top level it
            // could hide the line break that ends the item.
            if open.is_empty() && at != At::Between {
                return None;
            }
            continue;
        }
        if !open.is_empty() {
            if matches!(kind, K::Ident | K::OQuote) && is_nested_block(after_name)? {
                return None;
            }
            after_name = (kind == K::Ident).then_some(tok);
        }
        let opener = match kind {
            K::CBrace => Some(K::OBrace),
            K::CBrack => Some(K::OBrack),
            K::CParen => Some(K::OParen),
            K::CQuote => Some(K::OQuote),
            K::CHeredoc => Some(K::OHeredoc),
            K::TemplateSeqEnd => Some(K::TemplateInterp),
            _ => None,
        };
        if let Some(opener) = opener {
            match open.pop() {
                Some(o) if o == opener => {}
                Some(K::TemplateControl) if opener == K::TemplateInterp => {}
                _ => return None,
            }
            if open.is_empty() {
                at = match at {
                    At::Body => At::Closed,
                    At::Attribute(_) => At::Attribute(kind),
                    _ => return None,
                };
            }
            continue;
        }
        let is_opener = matches!(
            kind,
            K::OBrace
                | K::OBrack
                | K::OParen
                | K::OQuote
                | K::OHeredoc
                | K::TemplateInterp
                | K::TemplateControl
        );
        if !open.is_empty() {
            if is_opener {
                open.push(kind);
            }
            continue;
        }
        // A significant token at top level.
        at = match (at, kind) {
            (At::Between, K::Newline) => At::Between,
            (At::Between, K::Ident) => {
                let keyword = slice(tok)?;
                let (next, next_tok) = sig.next()?;
                if next == K::Equal {
                    out.push((keyword, false));
                    At::Attribute(K::Equal)
                } else {
                    // A block: its labels, then `{`.
                    let mut labels: [Option<&str>; 2] = [None, None];
                    let mut count = 0;
                    let (mut next, mut next_tok) = (next, next_tok);
                    loop {
                        let label = match next {
                            K::Ident => slice(next_tok)?,
                            K::OQuote => quoted_label(&mut sig, text)?,
                            K::OBrace => break,
                            _ => return None,
                        };
                        if let Some(slot) = labels.get_mut(count) {
                            *slot = Some(label);
                        }
                        count += 1;
                        (next, next_tok) = sig.next()?;
                    }
                    open.push(K::OBrace);
                    let declared = match keyword {
                        "hook" => labels[1],
                        k if is_block_keyword(k) => labels[0],
                        _ => None,
                    };
                    if let Some(name) = declared {
                        out.push((name, keyword == "output"));
                    }
                    At::Body
                }
            }
            (At::Attribute(last), K::Newline) => {
                if !ends_expression(last) {
                    return None;
                }
                At::Between
            }
            (At::Attribute(_), _) if is_opener => {
                open.push(kind);
                at
            }
            (At::Attribute(_), _) => At::Attribute(kind),
            (At::Closed, K::Newline) => At::Between,
            _ => return None,
        };
    }
    match at {
        _ if !open.is_empty() => None,
        At::Attribute(last) if !ends_expression(last) => None,
        _ => Some(out),
    }
}

/// A quoted label's value after its `"`, through its closing `"`: `None`
/// for a label the parser would decode or report (escapes, templates).
fn quoted_label<'a, 't>(
    sig: &mut impl Iterator<Item = (pcl_syntax::TokenKind, &'a pcl_syntax::Token)>,
    text: &'t str,
) -> Option<&'t str> {
    use pcl_syntax::TokenKind as K;
    let mut value = "";
    loop {
        match sig.next()? {
            (K::QuotedLit, t) if value.is_empty() => {
                value = token_text(text, t)?;
                if value.is_empty() || value.contains(['\\', '$', '%']) {
                    return None;
                }
            }
            (K::CQuote, _) => return Some(value),
            _ => return None,
        }
    }
}

/// The text of `token`, a token of `text`.
fn token_text<'t>(text: &'t str, token: &pcl_syntax::Token) -> Option<&'t str> {
    text.get(token.range.start as usize..token.range.end as usize)
}

/// Whether a top-level block of this type declares its first label.
fn is_block_keyword(word: &str) -> bool {
    matches!(
        word,
        "resource" | "read" | "config" | "output" | "component"
    )
}

/// Whether an expression may end with a token of this kind (a line break
/// after an operator is a syntax error, which the parser recovers from in
/// its own way).
fn ends_expression(kind: pcl_syntax::TokenKind) -> bool {
    use pcl_syntax::TokenKind as K;
    matches!(
        kind,
        K::Ident
            | K::NumberLit
            | K::CBrace
            | K::CBrack
            | K::CParen
            | K::CQuote
            | K::CHeredoc
            | K::Star
    )
}

/// The name a top-level item declares, as the binder declares it.
fn declared_name(item: ItemRef<'_>) -> Option<&str> {
    match item.kind() {
        Item::Attribute(attr) => Some(attr.name()),
        Item::Block(block) => {
            let label = match block.type_name() {
                "resource" | "read" | "config" | "output" | "component" => block.labels().first(),
                "hook" => block.labels().get(1),
                _ => None,
            };
            label.map(|l| l.value())
        }
    }
}

/// The uses of sibling names in one check: per declaring file, the first
/// use and the distinct names used.
#[derive(Default)]
pub(crate) struct SiblingUses {
    by_file: RefCell<BTreeMap<String, Uses>>,
}

struct Uses {
    first: Span,
    names: Vec<String>,
    seen: HashSet<String>,
}

impl SiblingUses {
    /// Records a use of `name` at `span` when a sibling declares it.
    pub(crate) fn record(&self, siblings: &Siblings, name: &str, span: Span) -> bool {
        let Some(file) = siblings.file_of(name) else {
            return false;
        };
        let mut by_file = self.by_file.borrow_mut();
        let uses = by_file.entry(file.to_string()).or_insert_with(|| Uses {
            first: span,
            names: Vec::new(),
            seen: HashSet::new(),
        });
        let key = (span.file, span.range.start);
        if key < (uses.first.file, uses.first.range.start) {
            uses.first = span;
        }
        if uses.seen.insert(name.to_string()) {
            uses.names.push(name.to_string());
        }
        true
    }

    /// One `declared-in-sibling` note per declaring file, at the first use.
    pub(crate) fn into_diagnostics(self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (file, uses) in self.by_file.into_inner() {
            let mut names: Vec<String> = uses.names;
            names.sort();
            let shown: Vec<String> = names
                .iter()
                .take(NAMES_SHOWN)
                .map(|n| format!("`{}`", pcl_diagnostics::elide_quoted(n)))
                .collect();
            let rest = names.len().saturating_sub(NAMES_SHOWN);
            let (list, verb) = match (shown.as_slice(), rest) {
                ([one], 0) => (one.clone(), "is"),
                (_, 0) => {
                    let (last, init) = shown
                        .split_last()
                        .map_or(("", &[][..]), |(l, i)| (l.as_str(), i));
                    (format!("{} and {last}", init.join(", ")), "are")
                }
                (_, n) => (
                    format!(
                        "{} and {n} more name{}",
                        shown.join(", "),
                        if n == 1 { "" } else { "s" }
                    ),
                    "are",
                ),
            };
            out.push(
                Diagnostic::new(
                    Severity::Note,
                    codes::DECLARED_IN_SIBLING,
                    uses.first,
                    format!(
                        "{list} {verb} declared in `{}`; check the directory to check the whole program",
                        pcl_diagnostics::elide_quoted(&file)
                    ),
                )
                .with_detail(
                    "This file was checked alone: names other files of its directory declare are not checked here.",
                ),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// The `.pp` files under `dir`, by path.
    fn pp_files(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut dirs = vec![dir.to_path_buf()];
        while let Some(d) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for path in entries.flatten().map(|e| e.path()) {
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "pp") {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    }

    /// Which file a name is reported from: the first declaring file other
    /// than the checked one (files in name order, a file counted once
    /// however often it declares the name), and whether a sibling defines
    /// it by anything but an `output` block.
    #[test]
    fn the_first_other_declaring_file_answers() {
        let file = |name: &str, text: &str| (name.to_string(), text.to_string());
        let files = [
            file("c.pp", "shared = 3\nonlyC = 1\n"),
            file("a.pp", "shared = 1\nshared2 = 1\nshared2 = 2\n"),
            file(
                "b.pp",
                "output shared2 {\n  value = 1\n}\noutput out {\n  value = 1\n}\n",
            ),
            // Parsed, not skimmed (a syntax error): the same answers.
            file("d.pp", "out = 1\nbroken = (\n"),
        ];
        let names = Arc::new(DeclaredNames::from_files(&files));
        let from = |checked: &str| Siblings::new(Arc::clone(&names), checked);
        assert_eq!(from("a.pp").file_of("shared"), Some("c.pp"));
        assert_eq!(from("c.pp").file_of("shared"), Some("a.pp"));
        assert_eq!(from("x.pp").file_of("shared"), Some("a.pp"));
        // a.pp declares `shared2` twice: the second file is b.pp.
        assert_eq!(from("a.pp").file_of("shared2"), Some("b.pp"));
        assert!(!from("a.pp").defines("shared2"), "b.pp only outputs it");
        assert!(from("b.pp").defines("shared2"));
        assert_eq!(from("c.pp").file_of("onlyC"), None);
        assert_eq!(from("a.pp").file_of("onlyC"), Some("c.pp"));
        assert_eq!(from("a.pp").file_of("out"), Some("b.pp"));
        assert!(from("a.pp").defines("out"), "d.pp defines it");
        assert!(!from("d.pp").defines("out"));
        assert_eq!(from("a.pp").file_of("missing"), None);
        assert!(!from("a.pp").is_empty());
        assert!(DeclaredNames::from_files(&[]).is_empty());
    }

    fn skimmed(text: &str) -> Option<Vec<(String, bool)>> {
        skim(text).map(|v| v.into_iter().map(|(n, o)| (n.to_string(), o)).collect())
    }

    /// Every `.pp` file of the corpus and the test data, whole and cut at
    /// four places (which leaves most of them broken): where the skim
    /// answers, it finds what a parse finds.
    #[test]
    fn the_skim_finds_the_names_a_parse_finds() {
        let mut files = pp_files(&pcl_testkit::repo().join("testdata"));
        if let Some(corpus) = pcl_testkit::shared("corpus/programs", "siblings skim (corpus)") {
            files.extend(pp_files(&corpus));
        }
        let (mut skims, mut fallbacks) = (0, 0);
        for path in &files {
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            let cuts = (1..=4).map(|k| text.len() * k / 5);
            for cut in cuts.chain([text.len()]) {
                let Some(part) = text.get(..cut) else {
                    continue;
                };
                match skimmed(part) {
                    Some(names) => {
                        skims += 1;
                        assert_eq!(names, parsed_names(part), "{} cut at {cut}", path.display());
                    }
                    None => fallbacks += 1,
                }
            }
        }
        eprintln!("{skims} skimmed, {fallbacks} parsed instead");
        // Most whole files are skimmed; most cut ones fall back.
        pcl_testkit::at_least("files skimmed", skims, 200);
        pcl_testkit::at_least("files parsed instead", fallbacks, 200);
    }

    #[test]
    fn the_skim_reads_items_and_leaves_the_rest_to_the_parse() {
        let text = "# c\nconfig a \"string\" {\n  default = \"x${y}\"\n}\nb = [1, 2] # d\n\
                    resource \"c\" \"t\" {\n  x = <<EOF\n${b}\nEOF\n}\noutput d { value = b.*.e }\n\
                    hook \"h\" e {}\nlocals {}\n";
        assert_eq!(
            skimmed(text),
            Some(vec![
                ("a".to_string(), false),
                ("b".to_string(), false),
                ("c".to_string(), false),
                ("d".to_string(), true),
                ("e".to_string(), false),
            ])
        );
        // Comments between items are trivia, whatever they hold.
        for text in [
            "/* c\n */ a = 1\n/* d */\nresource b \"t\" {\n  /* e\n */ x = 1\n}\n",
            "# c\n// d\nb = 2 // e\n",
        ] {
            let parsed = parsed_names(text);
            assert!(!parsed.is_empty());
            assert_eq!(skimmed(text), Some(parsed), "{text:?}");
        }
        for broken in [
            "a = 1 +\nb = 2\n",
            "resource a \"t\" {\n",
            "resource a \"t\" {\n}}\n",
            "resource \"a\\u0041\" \"t\" {}\n",
            "resource a \"t\" {\n  resource b \"t\" {}\n  x = (\n}\n",
            "a = 1; b = 2\n",
            "resource a \"t\" {} b = 1\n",
            "a = 1 /* c\n */ + 2\n",
            "a = (1]\n",
        ] {
            assert_eq!(skimmed(broken), None, "{broken:?}");
        }
    }

    /// A long file is one pass and no recursion: 100,000 nested brackets
    /// and 100,000 items.
    #[test]
    fn the_skim_is_flat() {
        let deep = format!("a = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(skimmed(&deep), Some(vec![("a".to_string(), false)]));
        let many: String = (0..100_000).map(|i| format!("v{i} = {i}\n")).collect();
        assert_eq!(skimmed(&many).map(|v| v.len()), Some(100_000));
    }
}
