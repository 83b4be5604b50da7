//! Lossless lexer and parser for PCL's surface syntax (HCL native syntax).
//!
//! This crate owns: the modal lexer ([`lex`], [`Token`], [`TokenKind`]), the
//! parser entry points ([`parse`], [`parse_expr`], [`parse_template`]), the
//! flat syntax tree and its typed views ([`tree`]), comment attachment,
//! literal decoding (string escapes, NFC, exact numbers), the validation
//! of what the grammar accepts but the language does not (`validate.rs`)
//! and the syntax diagnostic codes ([`codes`]).
//! It must not know about binding, types or schemas, and it never fails:
//! every entry point returns a tree plus diagnostics, and printing the
//! tokens of a result gives back the input byte for byte.
//!
//! Parsing is a logos lexer (`lexer.rs`), a pass that keeps the significant
//! tokens and decides which line breaks count (`newlines.rs`), and a
//! chumsky grammar over those tokens (`grammar/`, `template.rs`) that
//! builds the tree directly.
//!
//! Positions are [`TextRange`] byte offsets; use
//! [`pcl_diagnostics::LineIndex`] to turn them into lines and columns.
//! The grammar accepted is documented in `grammar/pcl.ebnf`, whose
//! production names match the parser's function names.

pub mod codes;
mod comments;
mod dump;
mod grammar;
mod lexer;
mod literal;
mod newlines;
mod template;
mod token;
pub mod tree;
mod validate;

use std::sync::Arc;

use pcl_diagnostics::{Diagnostic, DiagnosticList, FileId, TextRange};

pub use lexer::lex;
pub use token::{Token, TokenKind};

/// The deepest nesting of parentheses, brackets, braces, templates, calls
/// and unary/conditional chains the parser accepts. Deeper input gets a
/// `nesting-too-deep` diagnostic and the excess is skipped without
/// recursion, so parsing and dumping stay within a small stack.
pub const MAX_NESTING_DEPTH: usize = 128;

/// The result of a parse: the flat tree, every token of the input
/// (trivia included) and the diagnostics. `T` says what the root is:
/// [`Parse`], [`ParseExpr`] and [`ParseTemplate`] are the instances for
/// the three entry points.
#[derive(Clone, Debug)]
pub struct Parsed<T> {
    /// The source (see [`SourceText`]).
    text: SourceText,
    /// Every token, compactly (5 bytes each instead of 12).
    tokens: token::Tokens,
    /// The tokens as a slice of [`Token`], built on the first call of
    /// [`Parsed::tokens`] (most users never ask for them).
    token_slice: std::sync::OnceLock<Vec<Token>>,
    /// The flat tree (see [`tree`]).
    tree: tree::Tree,
    /// The root's index: a body, an expression or a template.
    root: u32,
    /// At most 1,000 per file, then one `too-many-diagnostics` summary
    /// (sealed: the summary is in the list).
    diagnostics: DiagnosticList,
    root_kind: std::marker::PhantomData<T>,
}

/// The root of a [`Parse`]: a file's body.
#[derive(Clone, Copy, Debug)]
pub struct BodyRoot;
/// The root of a [`ParseExpr`]: an expression.
#[derive(Clone, Copy, Debug)]
pub struct ExprRoot;
/// The root of a [`ParseTemplate`]: a bare template spanning the input.
#[derive(Clone, Copy, Debug)]
pub struct TemplateRoot;

/// The result of [`parse`].
pub type Parse = Parsed<BodyRoot>;
/// The result of [`parse_expr`].
pub type ParseExpr = Parsed<ExprRoot>;
/// The result of [`parse_template`].
pub type ParseTemplate = Parsed<TemplateRoot>;

impl<T> Parsed<T> {
    fn new(text: SourceText, tokens: token::Tokens, out: grammar::Output) -> Parsed<T> {
        let mut diagnostics = out.diagnostics;
        diagnostics.seal();
        Parsed {
            text,
            tokens,
            token_slice: std::sync::OnceLock::new(),
            tree: out.tree,
            root: out.root,
            diagnostics,
            root_kind: std::marker::PhantomData,
        }
    }
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
    /// The diagnostics, taking them out of the result.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics.into_vec()
    }
    /// Moves the diagnostics out, leaving none (for a caller that keeps
    /// the tree and collects every file's diagnostics in one list, so
    /// they are not held twice). Appending the list to another
    /// ([`DiagnosticList::append`]) carries over what the parse counted
    /// but did not keep, so the file's limit holds across phases.
    pub fn take_diagnostics(&mut self) -> DiagnosticList {
        std::mem::take(&mut self.diagnostics)
    }
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
    /// Prints the tokens back: always equal to the input.
    pub fn print(&self) -> String {
        print_tokens(&self.text, &self.tokens)
    }
    /// Every token, trivia included. The parse keeps them compactly; the
    /// first call builds this slice (12 bytes per token) and keeps it.
    pub fn tokens(&self) -> &[Token] {
        self.token_slice.get_or_init(|| self.tokens.to_vec())
    }
    /// The tokens (trivia included) that lie inside `range`, e.g. a node's.
    pub fn tokens_in(&self, range: TextRange) -> &[Token] {
        tokens_in(self.tokens(), range)
    }
    /// The source text.
    pub fn text(&self) -> &str {
        &self.text
    }
    /// The flat tree's arenas (for memory accounting; read it through the
    /// views).
    pub fn tree(&self) -> &tree::Tree {
        &self.tree
    }
    fn src(&self) -> tree::Src<'_> {
        tree::Src::new(&self.tree, &self.text)
    }
}

impl Parsed<BodyRoot> {
    /// The file's body.
    pub fn body(&self) -> tree::BodyRef<'_> {
        tree::BodyRef::new(self.src(), tree::BodyId(self.root))
    }
    /// The innermost node at `offset`.
    pub fn node_at(&self, offset: u32) -> tree::NodeRef<'_> {
        self.body().node_at(offset)
    }
    /// A deterministic, indented dump of the tree for golden files.
    pub fn dump(&self) -> String {
        dump::dump_body(self.body(), &self.diagnostics)
    }
}

impl Parsed<ExprRoot> {
    pub fn expr(&self) -> tree::ExprRef<'_> {
        tree::ExprRef {
            src: self.src(),
            id: tree::ExprId(self.root),
        }
    }
    pub fn dump(&self) -> String {
        dump::dump_expr(self.expr(), &self.diagnostics)
    }
}

impl Parsed<TemplateRoot> {
    pub fn template(&self) -> tree::TemplateRef<'_> {
        const EMPTY: tree::TemplateNode = tree::TemplateNode {
            kind: tree::TemplateNodeKind::Bare,
            parts: tree::Run { start: 0, len: 0 },
        };
        tree::TemplateRef {
            src: self.src(),
            node: *self
                .tree
                .templates
                .get(self.root as usize)
                .unwrap_or(&EMPTY),
        }
    }
    /// The range of the whole template (the whole input).
    pub fn range(&self) -> TextRange {
        TextRange::from_usize(0..self.text.len())
    }
    pub fn dump(&self) -> String {
        dump::dump_template(self.template(), self.range(), &self.diagnostics)
    }
}

/// The source text a parse keeps (its tree holds ranges into it). Given
/// as `&str` it is copied; a `String` is taken over, and an `Arc<str>`
/// shared, without a copy: a caller that keeps the text as well (a source
/// map for diagnostics, an editor's document) holds one buffer with the
/// parse.
#[derive(Clone, Debug)]
pub enum SourceText {
    Owned(String),
    Shared(Arc<str>),
}

impl std::ops::Deref for SourceText {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            SourceText::Owned(text) => text,
            SourceText::Shared(text) => text,
        }
    }
}

impl From<&str> for SourceText {
    fn from(text: &str) -> SourceText {
        SourceText::Owned(text.to_string())
    }
}

impl From<&String> for SourceText {
    fn from(text: &String) -> SourceText {
        SourceText::Owned(text.clone())
    }
}

impl From<String> for SourceText {
    fn from(text: String) -> SourceText {
        SourceText::Owned(text)
    }
}

impl From<Arc<str>> for SourceText {
    fn from(text: Arc<str>) -> SourceText {
        SourceText::Shared(text)
    }
}

impl From<&Arc<str>> for SourceText {
    fn from(text: &Arc<str>) -> SourceText {
        SourceText::Shared(Arc::clone(text))
    }
}

/// Parses a whole file (a body).
pub fn parse(file: FileId, text: impl Into<SourceText>) -> Parse {
    let text = text.into();
    let tokens = lexer::lex_compact(&text);
    let out = grammar::parse_file(file, &text, &tokens);
    Parsed::new(text, tokens, out)
}

/// Parses a standalone expression spanning the whole input (newlines are
/// insignificant, as inside parentheses).
pub fn parse_expr(file: FileId, text: impl Into<SourceText>) -> ParseExpr {
    let text = text.into();
    let tokens = lexer::lex_compact(&text);
    let out = grammar::parse_expression_file(file, &text, &tokens);
    Parsed::new(text, tokens, out)
}

/// Parses the whole input as a bare template (literal text with `${…}` and
/// `%{…}` sequences; backslashes are not special).
pub fn parse_template(file: FileId, text: impl Into<SourceText>) -> ParseTemplate {
    let text = text.into();
    let tokens = lexer::lex_template(&text);
    let out = grammar::parse_template_file(file, &text, &tokens);
    Parsed::new(text, tokens, out)
}

fn print_tokens(text: &str, tokens: &token::Tokens) -> String {
    let mut out = String::with_capacity(text.len());
    for token in tokens.iter() {
        out.push_str(text.get(token.range.to_usize()).unwrap_or(""));
    }
    out
}

fn tokens_in(tokens: &[Token], range: TextRange) -> &[Token] {
    let start = tokens.partition_point(|t| t.range.start < range.start);
    let end = tokens.partition_point(|t| t.range.end <= range.end && t.range.start < range.end);
    tokens.get(start..end.max(start)).unwrap_or(&[])
}

#[cfg(test)]
mod tests;
