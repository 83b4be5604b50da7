//! Semantic tokens (`textDocument/semanticTokens/full` and `/range`): what
//! each token of a file is, for editors to colour.
//!
//! Two sources, in one pass over the file's tokens:
//!
//! - the lexer (`pcl_syntax::lex`): comments, numbers, strings (quoted
//!   and heredoc templates' text and delimiters), operators, and a guess
//!   from the neighbouring tokens for identifiers: the first word of a
//!   line followed by a label or `{` is a block type (`keyword`), a word
//!   before `=` or `:` at the start of an item is a `property`, a word
//!   after `.` is a `property`, a word before `(` a `function`, and `for`,
//!   `in`, `if`, `else`, `endif`, `endfor`, `true`, `false`, `null` are
//!   keywords;
//! - the binder, which wins where it knows: each declaration's name
//!   (`declaration` modifier) and each reference to one, typed by what
//!   it names (a resource or `read` is a `class`, a component a
//!   `namespace`, a config a `readonly` `parameter`, a local, an output and
//!   a for-expression variable a `variable`, a hook a `function`),
//!   attribute names (`property`) and resolved function calls (builtins
//!   and `invoke`, `function` with `defaultLibrary`).
//!
//! Positions and lengths are in the negotiated encoding. A token never
//! spans lines (clients need not support multi-line tokens): a heredoc or
//! a block comment is cut at each line break, and line breaks themselves
//! are never part of a token.

use std::collections::HashMap;

use lsp_types::{SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokensLegend};
use pcl_binder::{NodeKind, Program};
use pcl_diagnostics::{FileId, Span};
use pcl_expr::{BoundExprKind, Definition};
use pcl_syntax::TokenKind;

use crate::position::Encoding;

/// The token types, in legend order.
const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::CLASS,
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::OPERATOR,
];

/// Indexes into [`TYPES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Kind {
    Keyword = 0,
    Class,
    Namespace,
    Parameter,
    Variable,
    Property,
    Function,
    String,
    Number,
    Comment,
    Operator,
}

/// The modifiers, in legend order (bit `i` is `MODIFIERS[i]`).
const MODIFIERS: &[SemanticTokenModifier] = &[
    SemanticTokenModifier::DECLARATION,
    SemanticTokenModifier::READONLY,
    SemanticTokenModifier::DEFAULT_LIBRARY,
];
const DECLARATION: u32 = 1;
const READONLY: u32 = 2;
const DEFAULT_LIBRARY: u32 = 4;

pub(crate) fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: MODIFIERS.to_vec(),
    }
}

/// The semantic tokens of `file` (whose text is `text`), or of the tokens
/// overlapping `range` (bytes) when given, delta-encoded.
pub(crate) fn tokens(
    program: Option<&Program>,
    file: FileId,
    text: &str,
    enc: Encoding,
    range: Option<std::ops::Range<usize>>,
) -> Vec<SemanticToken> {
    let known = program
        .map(|p| from_binder(p, file, text))
        .unwrap_or_default();
    let lexed = pcl_syntax::lex(text);
    let significant: Vec<usize> = (0..lexed.len())
        .filter(|&i| lexed.get(i).is_some_and(|t| !t.kind.is_trivia()))
        .collect();
    let mut out = Encoder::new(text, enc);
    let mut next_significant = 0;
    for (i, token) in lexed.iter().enumerate() {
        let r = token.range.to_usize();
        if let Some(want) = &range {
            if r.end < want.start || r.start > want.end {
                continue;
            }
        }
        // The position of this token among the significant ones.
        while significant.get(next_significant).is_some_and(|&s| s < i) {
            next_significant += 1;
        }
        let before = next_significant
            .checked_sub(1)
            .and_then(|k| significant.get(k))
            .and_then(|&k| lexed.get(k))
            .map(|t| t.kind);
        let after_index = if significant.get(next_significant) == Some(&i) {
            next_significant + 1
        } else {
            next_significant
        };
        let after = significant
            .get(after_index)
            .and_then(|&k| lexed.get(k))
            .map(|t| t.kind);
        let classified = match known.get(&token.range.start) {
            Some(&(kind, mods)) => Some((kind, mods)),
            None => lexical(token.kind, text.get(r.clone()).unwrap_or(""), before, after)
                .map(|k| (k, 0)),
        };
        if let Some((kind, mods)) = classified {
            out.push(r, kind, mods);
        }
    }
    out.tokens
}

/// What the tokens around a token say it is, when it is anything.
fn lexical(
    kind: TokenKind,
    text: &str,
    before: Option<TokenKind>,
    after: Option<TokenKind>,
) -> Option<Kind> {
    use TokenKind as T;
    Some(match kind {
        T::HashComment | T::SlashComment | T::BlockComment => Kind::Comment,
        T::NumberLit => Kind::Number,
        T::OQuote | T::CQuote | T::QuotedLit | T::StringLit | T::OHeredoc | T::CHeredoc => {
            Kind::String
        }
        T::Star
        | T::Slash
        | T::Plus
        | T::Minus
        | T::Percent
        | T::Equal
        | T::EqualOp
        | T::NotEqual
        | T::LessThan
        | T::LessThanEq
        | T::GreaterThan
        | T::GreaterThanEq
        | T::And
        | T::Or
        | T::Bang
        | T::Question
        | T::Colon
        | T::FatArrow
        | T::Ellipsis => Kind::Operator,
        T::Ident => ident(text, before, after),
        _ => return None,
    })
}

fn ident(text: &str, before: Option<TokenKind>, after: Option<TokenKind>) -> Kind {
    use TokenKind as T;
    let starts_item = matches!(before, None | Some(T::Newline | T::OBrace | T::Comma));
    if before == Some(T::Dot) {
        return Kind::Property;
    }
    if matches!(after, Some(T::OParen)) {
        return Kind::Function;
    }
    if starts_item && matches!(after, Some(T::Equal | T::Colon)) {
        return Kind::Property;
    }
    if matches!(before, None | Some(T::Newline))
        && matches!(after, Some(T::Ident | T::OQuote | T::OBrace))
    {
        return Kind::Keyword;
    }
    match text {
        "for" | "in" | "if" | "else" | "endif" | "endfor" | "true" | "false" | "null" => {
            Kind::Keyword
        }
        _ => Kind::Variable,
    }
}

/// Token offsets to what the binder knows of them: hashed with foldhash
/// (SipHash, the standard default, was a fifth of a whole-file request on
/// a 1 MB program).
type Known = HashMap<u32, (Kind, u32), foldhash::fast::RandomState>;

/// What the binder knows, by the byte offset a token starts at.
fn from_binder(program: &Program, file: FileId, text: &str) -> Known {
    let mut known = Known::default();
    let node_kind = |id| program.node(id).map(|n| of_node(&n.kind));
    for node in program.nodes().iter().filter(|n| n.file() == file) {
        let (kind, mods) = of_node(&node.kind);
        known.insert(
            unquoted_start(text, node.name_span),
            (kind, mods | DECLARATION),
        );
        for attr in crate::walk::node_attributes(&node.kind) {
            known.insert(attr.name_span.range.start, (Kind::Property, 0));
        }
        crate::walk::for_each_expr(node, |e| match e.kind() {
            BoundExprKind::ScopeTraversal(t) => {
                let Some(def) = &t.definition else {
                    return;
                };
                let root_range = t.root_range;
                let found = match def {
                    Definition::Node(id) => node_kind(*id),
                    Definition::Variable(v) => {
                        if let Some(decl) = v.range.filter(|s| s.file == file) {
                            known.insert(decl.range.start, (Kind::Variable, DECLARATION));
                        }
                        Some((Kind::Variable, 0))
                    }
                    Definition::Null | Definition::Keyword(_) => Some((Kind::Keyword, 0)),
                    Definition::ResourceProperty(_) => Some((Kind::Property, 0)),
                };
                if let Some(found) = found {
                    known.insert(root_range.start, found);
                }
            }
            BoundExprKind::Call(call) if call.function.is_some() => {
                known.insert(call.name_range.start, (Kind::Function, DEFAULT_LIBRARY));
            }
            _ => {}
        });
    }
    known
}

/// The token type and modifiers of a declaration's kind.
fn of_node(kind: &NodeKind) -> (Kind, u32) {
    match kind {
        NodeKind::Resource(_) => (Kind::Class, 0),
        NodeKind::Component(_) => (Kind::Namespace, 0),
        NodeKind::Config(_) => (Kind::Parameter, READONLY),
        NodeKind::Local(_) | NodeKind::Output(_) => (Kind::Variable, 0),
        NodeKind::Hook(_) => (Kind::Function, 0),
        NodeKind::Pulumi(_) => (Kind::Keyword, 0),
    }
}

/// Where the token naming `span` starts: inside the quotes of a quoted
/// label (its text token), else at the span.
fn unquoted_start(text: &str, span: Span) -> u32 {
    let r = span.range.to_usize();
    match text.get(r) {
        Some(label) if label.len() >= 2 && label.starts_with('"') => span.range.start + 1,
        _ => span.range.start,
    }
}

/// Delta-encodes tokens in the negotiated encoding, one per line segment.
/// Tokens come in source order, so positions are found by walking the
/// text once from the previous token (linear in the file; converting
/// each offset on its own costs a scan from the nearest checkpoint).
struct Encoder<'a> {
    text: &'a str,
    enc: Encoding,
    tokens: Vec<SemanticToken>,
    /// The start of the previous token.
    last: lsp_types::Position,
    /// Where the walk is: a byte offset and its position.
    at: usize,
    at_pos: lsp_types::Position,
}

impl<'a> Encoder<'a> {
    fn new(text: &'a str, enc: Encoding) -> Encoder<'a> {
        Encoder {
            text,
            enc,
            tokens: Vec::new(),
            last: lsp_types::Position::new(0, 0),
            at: 0,
            at_pos: lsp_types::Position::new(0, 0),
        }
    }

    /// The position of `offset`, walking forward from the last one (an
    /// offset behind it, which sorted tokens never give, restarts the
    /// walk).
    fn position(&mut self, offset: usize) -> lsp_types::Position {
        if offset < self.at {
            self.at = 0;
            self.at_pos = lsp_types::Position::new(0, 0);
        }
        let Some(between) = self.text.get(self.at..offset) else {
            return self.at_pos;
        };
        for c in between.chars() {
            if c == '\n' {
                self.at_pos.line += 1;
                self.at_pos.character = 0;
            } else {
                let units = match self.enc {
                    Encoding::Utf8 => c.len_utf8(),
                    Encoding::Utf16 => c.len_utf16(),
                };
                self.at_pos.character += units as u32;
            }
        }
        self.at = offset;
        self.at_pos
    }

    /// Adds the token at `range`, cut at line breaks (which are left out).
    fn push(&mut self, range: std::ops::Range<usize>, kind: Kind, mods: u32) {
        let Some(slice) = self.text.get(range.clone()) else {
            return;
        };
        let mut start = range.start;
        for piece in slice.split('\n') {
            let end = start + piece.len();
            let trimmed = start + piece.trim_end_matches('\r').len();
            if trimmed > start {
                self.segment(start, trimmed, kind, mods);
            }
            start = end + 1;
        }
    }

    fn segment(&mut self, start: usize, end: usize, kind: Kind, mods: u32) {
        let from = self.position(start);
        let to = self.position(end);
        let length = to.character.saturating_sub(from.character);
        if length == 0 || to.line != from.line {
            return;
        }
        let delta_line = from.line.saturating_sub(self.last.line);
        let delta_start = if delta_line == 0 {
            from.character.saturating_sub(self.last.character)
        } else {
            from.character
        };
        self.tokens.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: kind as u32,
            token_modifiers_bitset: mods,
        });
        self.last = from;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Lines;

    /// The walk agrees with the line table's conversion at every
    /// character boundary, in both encodings, CRLF and wide characters
    /// included.
    #[test]
    fn the_walk_agrees_with_the_line_table() {
        let text = "a = \"é𝄞\"\r\n\nb = <<EOT\n  ü𝄞x\nEOT\n# 💡 end";
        let lines = Lines::new(text);
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            let mut walk = Encoder::new(text, enc);
            for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
                assert_eq!(
                    walk.position(offset),
                    lines.position(text, offset, enc),
                    "{enc:?} at {offset}"
                );
            }
            // Going back restarts the walk.
            assert_eq!(walk.position(1), lines.position(text, 1, enc));
        }
    }
}
