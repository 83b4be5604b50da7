//! The parser: token stream → [`crate::ast`] plus diagnostics.
//!
//! Production names follow `grammar/pcl.ebnf` (`body`, `body_item`,
//! `attribute_rest`, `block_rest`, `expression`, `conditional`, `binary`,
//! `unary`, `postfix_expr`, `term`, `function_call`, `tuple_or_for`,
//! `object_or_for`, `for_body`, `template_expr`, …).
//!
//! Why hand-written recursive descent rather than chumsky: HCL's newline
//! significance is a *stack* switched by the enclosing construct (ignored
//! in `( )`, `[ ]`, `${ }`; significant in bodies and `{ }`), the nesting
//! limit must hold on a 2 MiB stack in debug builds (a combinator stack
//! costs several frames per grammar level), recovery must resynchronise
//! at body items, and the throughput goal (≥ 5× hcl-edit) rules out
//! backtracking. A plain recursive-descent parser with precedence climbing
//! does all four with a handful of frames per nesting level.
//!
//! Newlines: the parser reads through `peek`, which skips trivia and, when
//! newlines are insignificant, `Newline` tokens and line comments. When
//! they are significant, a line comment (which includes its line break)
//! reads as a `Newline`.
//!
//! Recovery: an error sets `recovering`, which silences further
//! suppressible errors until the next body item starts. The body loop
//! skips to the end of the broken item (bracket-aware; it also stops at a
//! line that looks like the start of a new item at or left of the broken
//! item's column), so one mistake gives one diagnostic.

use pcl_diagnostics::{Code, Diagnostic, FileId, Span, TextRange};

use crate::ast::*;
use crate::codes;
use crate::comments;
use crate::literal::{self, NumberError};
use crate::token::{Token, TokenKind};
use crate::MAX_NESTING_DEPTH;

use TokenKind as K;

pub(crate) struct Parser<'t> {
    pub(crate) file: FileId,
    pub(crate) text: &'t str,
    pub(crate) tokens: &'t [Token],
    pub(crate) pos: usize,
    nl_significant: bool,
    depth: usize,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) recovering: bool,
    depth_reported: bool,
    /// How many block bodies enclose the current position.
    depth_of_blocks: usize,
    /// Column (in bytes) of the body item being parsed, for recovery.
    item_column: Option<usize>,
    /// End offset of the last consumed token.
    pub(crate) last_end: u32,
    /// Token index just after the last consumed token.
    last_bump_pos: usize,
}

pub(crate) fn parse_file(file: FileId, text: &str, tokens: &[Token]) -> (Body, Vec<Diagnostic>) {
    let mut p = Parser::new(file, text, tokens, true);
    p.lexer_diagnostics();
    let body = p.body(false, 0);
    (body, p.diags)
}

pub(crate) fn parse_expression_file(
    file: FileId,
    text: &str,
    tokens: &[Token],
) -> (Expr, Vec<Diagnostic>) {
    let mut p = Parser::new(file, text, tokens, false);
    p.lexer_diagnostics();
    let expr = p.expression();
    if let Some(kind) = p.peek() {
        let range = p.peek_range();
        p.error_r(
            codes::EXTRA_AFTER_EXPRESSION,
            range,
            format!(
                "expected the end of the expression, found {}",
                kind.describe()
            ),
        );
    }
    (expr, p.diags)
}

pub(crate) fn parse_template_file(
    file: FileId,
    text: &str,
    tokens: &[Token],
) -> (Template, Vec<Diagnostic>) {
    let mut p = Parser::new(file, text, tokens, false);
    let template = p.bare_template();
    (template, p.diags)
}

impl<'t> Parser<'t> {
    fn new(file: FileId, text: &'t str, tokens: &'t [Token], significant: bool) -> Self {
        Parser {
            file,
            text,
            tokens,
            pos: 0,
            nl_significant: significant,
            depth: 0,
            diags: Vec::new(),
            recovering: false,
            depth_reported: false,
            depth_of_blocks: 0,
            item_column: None,
            last_end: 0,
            last_bump_pos: 0,
        }
    }

    // ------------------------------------------------------------------
    // Token access
    // ------------------------------------------------------------------

    pub(crate) fn raw(&self) -> Option<Token> {
        self.tokens.get(self.pos).copied()
    }

    pub(crate) fn slice(&self, range: TextRange) -> &'t str {
        self.text.get(range.to_usize()).unwrap_or("")
    }

    fn is_skippable(&self, token: Token) -> bool {
        match token.kind {
            K::Whitespace | K::BlockComment | K::Bom => true,
            K::HashComment | K::SlashComment => {
                !self.nl_significant || !self.slice(token.range).ends_with('\n')
            }
            K::Newline => !self.nl_significant,
            _ => false,
        }
    }

    fn skip_trivia(&mut self) {
        while let Some(token) = self.tokens.get(self.pos) {
            if self.is_skippable(*token) {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// The next significant token kind (`None` at the end of input). A line
    /// comment reads as `Newline` when newlines are significant.
    pub(crate) fn peek(&mut self) -> Option<TokenKind> {
        self.skip_trivia();
        self.tokens.get(self.pos).map(|t| match t.kind {
            K::HashComment | K::SlashComment => K::Newline,
            kind => kind,
        })
    }

    pub(crate) fn peek_range(&mut self) -> TextRange {
        self.skip_trivia();
        self.tokens
            .get(self.pos)
            .map_or(TextRange::empty(self.text.len() as u32), |t| t.range)
    }

    pub(crate) fn peek_text(&mut self) -> &'t str {
        let range = self.peek_range();
        self.slice(range)
    }

    fn peek_is_keyword(&mut self, word: &str) -> bool {
        self.peek() == Some(K::Ident) && self.peek_text() == word
    }

    /// The kind of the significant token after the next one.
    fn peek_second(&mut self) -> Option<TokenKind> {
        self.skip_trivia();
        let mut idx = self.pos + 1;
        while let Some(token) = self.tokens.get(idx) {
            if self.is_skippable(*token) {
                idx += 1;
            } else {
                return Some(match token.kind {
                    K::HashComment | K::SlashComment => K::Newline,
                    kind => kind,
                });
            }
        }
        None
    }

    /// Consumes the next significant token.
    pub(crate) fn bump(&mut self) -> Token {
        self.skip_trivia();
        let token = self.tokens.get(self.pos).copied().unwrap_or(Token {
            kind: K::Invalid,
            range: TextRange::empty(self.text.len() as u32),
        });
        if self.pos < self.tokens.len() {
            self.pos += 1;
            self.last_end = token.range.end;
            self.last_bump_pos = self.pos;
        }
        token
    }

    /// Consumes the raw token at `pos` (no trivia skipping).
    pub(crate) fn bump_raw(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.pos).copied()?;
        self.pos += 1;
        self.last_end = token.range.end;
        self.last_bump_pos = self.pos;
        Some(token)
    }

    pub(crate) fn eat(&mut self, kind: TokenKind) -> Option<Token> {
        if self.peek() == Some(kind) {
            Some(self.bump())
        } else {
            None
        }
    }

    pub(crate) fn with_newlines<T>(
        &mut self,
        significant: bool,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let saved = self.nl_significant;
        self.nl_significant = significant;
        let out = f(self);
        self.nl_significant = saved;
        out
    }

    pub(crate) fn range_from(&self, start: u32) -> TextRange {
        TextRange::new(start, self.last_end.max(start))
    }

    // ------------------------------------------------------------------
    // Diagnostics
    // ------------------------------------------------------------------

    /// Reports an error unconditionally.
    pub(crate) fn error(&mut self, code: Code, range: TextRange, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(
            code,
            Span::new(self.file, range),
            message,
        ));
    }

    /// Reports an error unless already recovering from one, and starts
    /// recovering.
    pub(crate) fn error_r(&mut self, code: Code, range: TextRange, message: impl Into<String>) {
        if !self.recovering {
            self.error(code, range, message);
        }
        self.recovering = true;
    }

    fn lexer_diagnostics(&mut self) {
        for token in self.tokens {
            let (code, message) = match token.kind {
                K::Invalid => {
                    let ch = self.slice(token.range);
                    let message = match ch {
                        "\u{201c}" | "\u{201d}" => {
                            "curly quotes are not valid here; use a straight quote (\")".to_string()
                        }
                        _ => format!("invalid character {:?}: it is not used in the language", ch),
                    };
                    (codes::INVALID_CHARACTER, message)
                }
                K::BitwiseAnd => (
                    codes::UNSUPPORTED_OPERATOR,
                    "bitwise operators are not supported; did you mean `&&`?".to_string(),
                ),
                K::BitwiseOr => (
                    codes::UNSUPPORTED_OPERATOR,
                    "bitwise operators are not supported; did you mean `||`?".to_string(),
                ),
                K::BitwiseXor => (
                    codes::UNSUPPORTED_OPERATOR,
                    "bitwise operators are not supported".to_string(),
                ),
                K::BitwiseNot => (
                    codes::UNSUPPORTED_OPERATOR,
                    "bitwise operators are not supported; did you mean `!`?".to_string(),
                ),
                K::Apostrophe => (
                    codes::SINGLE_QUOTE,
                    "single quotes are not valid; use double quotes (\") for strings".to_string(),
                ),
                K::Backtick => (
                    codes::BACKTICK,
                    "backticks are not valid; use a heredoc (<<EOT) for multi-line strings"
                        .to_string(),
                ),
                K::Semicolon => (
                    codes::SEMICOLON,
                    "`;` is not valid; separate items with newlines (or commas in collections)"
                        .to_string(),
                ),
                _ => continue,
            };
            self.error(code, token.range, message);
        }
    }

    // ------------------------------------------------------------------
    // Nesting limit
    // ------------------------------------------------------------------

    /// Enters one nesting level; false (after reporting once) when the
    /// limit is reached.
    pub(crate) fn enter(&mut self) -> bool {
        if self.depth >= MAX_NESTING_DEPTH {
            if !self.depth_reported {
                self.depth_reported = true;
                let range = self.peek_range();
                self.error(
                    codes::NESTING_TOO_DEEP,
                    range,
                    format!("nesting is deeper than the limit of {MAX_NESTING_DEPTH} levels"),
                );
            }
            self.recovering = true;
            return false;
        }
        self.depth += 1;
        true
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips, without recursion, the balanced group starting at the next
    /// token (or just that token if it opens nothing); returns an error
    /// expression covering it.
    pub(crate) fn skip_group(&mut self) -> Expr {
        let start = self.peek_range().start;
        let mut depth: usize = 0;
        while let Some(token) = self.raw() {
            if token.kind == K::Newline && depth == 0 && self.nl_significant {
                break;
            }
            self.bump_raw();
            match token.kind {
                K::OParen
                | K::OBrack
                | K::OBrace
                | K::TemplateInterp
                | K::TemplateControl
                | K::OQuote
                | K::OHeredoc => depth += 1,
                K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd | K::CQuote | K::CHeredoc => {
                    depth = depth.saturating_sub(1)
                }
                _ => {}
            }
            if depth == 0 {
                break;
            }
        }
        Expr::new(ExprKind::Error, self.range_from(start))
    }

    // ------------------------------------------------------------------
    // Recovery
    // ------------------------------------------------------------------

    fn column_of(&self, offset: u32) -> usize {
        let before = self.text.get(..offset as usize).unwrap_or("");
        match before.rfind('\n') {
            Some(idx) => before.len() - idx - 1,
            None => before.len(),
        }
    }

    /// After a line break at token index `idx`: does an item (`name =`,
    /// `name {`, `name "`, `name name`) start on the next line at or left
    /// of the broken item's column?
    fn item_starts_after(&self, idx: usize) -> bool {
        let Some(column) = self.item_column else {
            return false;
        };
        let mut iter = self
            .tokens
            .get(idx + 1..)
            .unwrap_or(&[])
            .iter()
            .filter(|t| !matches!(t.kind, K::Whitespace | K::BlockComment));
        let Some(first) = iter.next() else {
            return false;
        };
        if first.kind != K::Ident || self.column_of(first.range.start) > column {
            return false;
        }
        matches!(
            iter.next().map(|t| t.kind),
            Some(K::Equal | K::OBrace | K::OQuote | K::Ident)
        )
    }

    /// Inside `( )`, `[ ]` or a call, where `name =` can never be valid:
    /// has a line break been skipped before the next token, and does a new
    /// body item start after it? Then the construct is unclosed.
    fn newline_then_item(&mut self) -> bool {
        self.skip_trivia();
        let skipped = self.tokens.get(self.last_bump_pos..self.pos).unwrap_or(&[]);
        let last_break = skipped
            .iter()
            .rposition(|t| matches!(t.kind, K::Newline | K::HashComment | K::SlashComment));
        match last_break {
            Some(offset) => {
                let idx = self.last_bump_pos + offset;
                if self.item_starts_after(idx) {
                    // Leave the line break for the enclosing body.
                    self.pos = idx;
                    true
                } else {
                    false
                }
            }
            None => false,
        }
    }

    /// Skips to the closer of the construct whose opener was consumed:
    /// consumes the matching `close` at depth zero, stops before a closer
    /// of an outer construct, before the start of a new body item, or at
    /// the end of input. Returns whether `close` was consumed.
    pub(crate) fn recover_to(&mut self, close: TokenKind) -> bool {
        let mut depth: usize = 0;
        while let Some(token) = self.raw() {
            match token.kind {
                K::OParen | K::OBrack | K::OBrace | K::TemplateInterp | K::TemplateControl => {
                    depth += 1
                }
                K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd => {
                    if depth == 0 {
                        if token.kind == close {
                            self.bump_raw();
                            return true;
                        }
                        return false;
                    }
                    depth -= 1;
                }
                K::Newline | K::HashComment | K::SlashComment
                    if self.item_starts_after(self.pos) =>
                {
                    return false;
                }
                _ => {}
            }
            self.bump_raw();
        }
        false
    }

    /// Skips the rest of a broken body item: up to (not including) the
    /// line break that ends it, bracket-aware.
    fn recover_line(&mut self) {
        let mut depth: usize = 0;
        while let Some(token) = self.raw() {
            match token.kind {
                K::OParen | K::OBrack | K::OBrace | K::TemplateInterp | K::TemplateControl => {
                    depth += 1
                }
                K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd => {
                    if depth == 0 {
                        if token.kind == K::CBrace {
                            return;
                        }
                    } else {
                        depth -= 1;
                    }
                }
                K::Newline if depth == 0 || self.item_starts_after(self.pos) => return,
                K::HashComment | K::SlashComment
                    if self.slice(token.range).ends_with('\n')
                        && (depth == 0 || self.item_starts_after(self.pos)) =>
                {
                    return
                }
                _ => {}
            }
            self.bump_raw();
        }
    }

    // ------------------------------------------------------------------
    // Bodies
    // ------------------------------------------------------------------

    /// `body_until_eof` / `body_until_brace`. Stops before the `}` when
    /// `in_block`.
    fn body(&mut self, in_block: bool, start: u32) -> Body {
        let mut items = Vec::new();
        let first_token = self.pos;
        loop {
            self.recovering = false;
            match self.peek() {
                None => break,
                Some(K::Newline) => {
                    self.bump();
                }
                Some(K::CBrace) if in_block => break,
                Some(K::Ident) => {
                    if let Some(item) = self.body_item() {
                        items.push(item);
                    }
                }
                Some(kind) => {
                    let range = self.peek_range();
                    let before = self.pos;
                    self.item_column = Some(self.column_of(range.start));
                    match kind {
                        K::OQuote => self.error_r(
                            codes::QUOTED_ATTRIBUTE_NAME,
                            range,
                            "attribute names must not be quoted",
                        ),
                        K::CBrace => self.error_r(
                            codes::UNEXPECTED_CLOSE_BRACE,
                            range,
                            "unexpected `}`: no block is open here",
                        ),
                        _ => self.error_r(
                            codes::EXPECTED_ATTRIBUTE_OR_BLOCK,
                            range,
                            format!(
                                "expected an attribute or block definition, found {}",
                                kind.describe()
                            ),
                        ),
                    }
                    self.recover_line();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        let end = if in_block {
            self.peek_range().start
        } else {
            self.text.len() as u32
        };
        let range = TextRange::new(start, end);
        check_duplicates(self, &items);
        let _ = first_token;
        let dangling = comments::dangling(self.text, self.tokens, range, &items);
        Body {
            items,
            range,
            dangling_comments: dangling,
        }
        .covered()
    }

    /// `body_item = IDENT ( attribute_rest | block_rest )`.
    fn body_item(&mut self) -> Option<BodyItem> {
        let name_token = self.bump();
        let first_idx = self.pos - 1;
        self.item_column = Some(self.column_of(name_token.range.start));
        let name = self.ident_of(name_token);
        let item = match self.peek() {
            Some(K::Equal) => {
                let attr = self.attribute_rest(name);
                self.item_end(true);
                BodyItem::Attribute(attr)
            }
            Some(K::OQuote | K::OBrace | K::Ident) => {
                let block = self.block_rest(name);
                self.item_end(false);
                BodyItem::Block(block)
            }
            other => {
                let range = self.peek_range();
                let found = other.map_or("the end of the file", TokenKind::describe);
                self.error_r(
                    codes::EXPECTED_ATTRIBUTE_OR_BLOCK,
                    range,
                    format!(
                        "expected `=` (attribute) or a block label or `{{` after `{}`, found {found}",
                        name.name
                    ),
                );
                self.recover_line();
                return None;
            }
        };
        let last_idx = self.last_token_index(first_idx);
        Some(comments::attach(
            self.text,
            self.tokens,
            item,
            first_idx,
            last_idx,
        ))
    }

    /// The index of the last consumed non-trivia token at or after `first`.
    fn last_token_index(&self, first: usize) -> usize {
        let mut idx = self.pos;
        while idx > first {
            idx -= 1;
            if let Some(token) = self.tokens.get(idx) {
                if token.range.end <= self.last_end
                    && !token.kind.is_trivia()
                    && token.kind != K::Newline
                {
                    return idx;
                }
            }
        }
        first
    }

    /// After an item: a newline, the end of input or (in a block) `}`.
    fn item_end(&mut self, attribute: bool) {
        match self.peek() {
            None | Some(K::Newline) => {}
            Some(K::CBrace) if self.depth_of_blocks > 0 && attribute => {
                let range = self.peek_range();
                self.error_r(
                    codes::MISSING_NEWLINE_AFTER_ATTRIBUTE,
                    range,
                    "expected a newline after the attribute value; the closing `}` of a multi-line block goes on its own line",
                );
            }
            Some(K::CBrace) if self.depth_of_blocks > 0 => {
                let range = self.peek_range();
                self.error_r(
                    codes::MISSING_NEWLINE_AFTER_BLOCK,
                    range,
                    "expected a newline after the block's closing `}`",
                );
            }
            Some(kind) => {
                let range = self.peek_range();
                if attribute {
                    let message = if kind == K::Comma {
                        "unexpected `,` after the attribute value: attributes are separated by newlines".to_string()
                    } else {
                        format!(
                            "expected a newline after the attribute value, found {}",
                            kind.describe()
                        )
                    };
                    self.error_r(codes::MISSING_NEWLINE_AFTER_ATTRIBUTE, range, message);
                } else {
                    self.error_r(
                        codes::MISSING_NEWLINE_AFTER_BLOCK,
                        range,
                        format!(
                            "expected a newline after the block's closing `}}`, found {}",
                            kind.describe()
                        ),
                    );
                }
                self.recover_line();
            }
        }
    }

    pub(crate) fn ident_of(&self, token: Token) -> Ident {
        Ident {
            name: self.slice(token.range).into(),
            range: token.range,
        }
    }

    /// `attribute_rest = "=" expression`.
    fn attribute_rest(&mut self, name: Ident) -> Attribute {
        let equals = self.bump();
        let expr = match self.peek() {
            None | Some(K::Newline) => {
                let range = self.peek_range();
                self.error_r(
                    codes::MISSING_ATTRIBUTE_VALUE,
                    TextRange::new(equals.range.start, range.start.max(equals.range.end)),
                    format!(
                        "expected a value for `{}` after `=` on the same line",
                        name.name
                    ),
                );
                Expr::new(ExprKind::Error, TextRange::empty(equals.range.end))
            }
            _ => self.expression(),
        };
        let range = TextRange::new(name.range.start, expr.range.end.max(equals.range.end));
        Attribute {
            name,
            expr,
            equals_range: equals.range,
            range,
            leading_comments: Vec::new(),
            trailing_comments: Vec::new(),
        }
        .covered()
    }

    /// `block_rest = { block_label } "{" block_body`.
    fn block_rest(&mut self, type_name: Ident) -> Block {
        let mut labels = Vec::new();
        loop {
            match self.peek() {
                Some(K::Ident) => {
                    let token = self.bump();
                    labels.push(Label {
                        value: self.slice(token.range).into(),
                        quoted: false,
                        range: token.range,
                    });
                }
                Some(K::OQuote) => labels.push(self.quoted_label()),
                _ => break,
            }
        }
        let start = type_name.range.start;
        let Some(open) = self.eat(K::OBrace) else {
            let range = self.peek_range();
            let message = match self.peek() {
                Some(K::Equal) => {
                    "unexpected `=` in a block header: `=` defines an attribute, a block has no `=`"
                        .to_string()
                }
                Some(K::Newline) | None => {
                    "expected `{` to open the block body on the same line as the block header"
                        .to_string()
                }
                Some(kind) => format!(
                    "expected a quoted block label or `{{`, found {}",
                    kind.describe()
                ),
            };
            self.error_r(codes::INVALID_BLOCK_HEADER, range, message);
            self.recover_line();
            let end = self.last_end.max(start);
            return Block {
                type_name,
                labels,
                body: Body {
                    items: Vec::new(),
                    range: TextRange::empty(end),
                    dangling_comments: Vec::new(),
                }
                .covered(),
                open_brace_range: TextRange::empty(end),
                close_brace_range: TextRange::empty(end),
                range: TextRange::new(start, end),
                leading_comments: Vec::new(),
                trailing_comments: Vec::new(),
            }
            .covered();
        };
        let body = match self.peek() {
            Some(K::CBrace) | Some(K::Newline) | None => {
                if self.enter() {
                    self.depth_of_blocks += 1;
                    let body = self.body(true, open.range.end);
                    self.depth_of_blocks -= 1;
                    self.leave();
                    body
                } else {
                    // Skip the whole block, ignoring item-start heuristics.
                    let saved = self.item_column.take();
                    if self.recover_to(K::CBrace) {
                        self.pos = self.last_bump_pos.saturating_sub(1);
                    }
                    self.item_column = saved;
                    Body {
                        items: Vec::new(),
                        range: self.range_from(open.range.end),
                        dangling_comments: Vec::new(),
                    }
                    .covered()
                }
            }
            _ => self.one_line_body(open.range.end),
        };
        let close = match self.eat(K::CBrace) {
            Some(token) => token.range,
            None => {
                self.error_r(
                    codes::UNCLOSED_BLOCK,
                    open.range,
                    "this block's `{` has no matching `}`",
                );
                TextRange::empty(self.last_end)
            }
        };
        Block {
            type_name,
            labels,
            body,
            open_brace_range: open.range,
            close_brace_range: close,
            range: TextRange::new(start, close.end.max(self.last_end)),
            leading_comments: Vec::new(),
            trailing_comments: Vec::new(),
        }
        .covered()
    }

    /// `one_line_attribute`: `{ name = expr }` on one line.
    fn one_line_body(&mut self, start: u32) -> Body {
        let mut items = Vec::new();
        if self.peek() == Some(K::Ident) && self.peek_second() == Some(K::Equal) {
            let name_token = self.bump();
            let name = self.ident_of(name_token);
            items.push(BodyItem::Attribute(self.attribute_rest(name)));
        } else {
            let range = self.peek_range();
            self.error_r(
                codes::INVALID_ONE_LINE_BLOCK,
                range,
                "a single-line block may only contain one attribute (`name = value`); put nested blocks on their own lines",
            );
        }
        match self.peek() {
            Some(K::CBrace) => {}
            Some(kind) => {
                let range = self.peek_range();
                let message = match kind {
                    K::Comma => "a single-line block may only contain one attribute",
                    K::Newline => "a single-line block must be closed with `}` on the same line",
                    _ => "expected `}` right after the single attribute of a single-line block",
                };
                self.error_r(codes::INVALID_ONE_LINE_BLOCK, range, message);
                // Skip to this block's `}` (possibly on a later line) and
                // leave it for `block_rest`.
                if self.recover_to(K::CBrace) {
                    self.pos = self.last_bump_pos.saturating_sub(1);
                }
            }
            None => {}
        }
        let end = self.peek_range().start.max(start);
        Body {
            items,
            range: TextRange::new(start, end),
            dangling_comments: Vec::new(),
        }
        .covered()
    }

    /// A quoted block label: escapes resolved, no template sequences.
    fn quoted_label(&mut self) -> Label {
        let open = self.bump();
        let mut value = String::new();
        let mut errors = Vec::new();
        loop {
            match self.raw().map(|t| t.kind) {
                Some(K::QuotedLit) => {
                    if let Some(token) = self.bump_raw() {
                        let raw = self.slice(token.range);
                        let mut escape_errors = Vec::new();
                        value.push_str(&literal::decode_quoted(raw, &mut escape_errors));
                        for e in escape_errors {
                            errors.push((
                                TextRange::from_usize(
                                    token.range.start as usize + e.start
                                        ..token.range.start as usize + e.end,
                                ),
                                e.message,
                            ));
                        }
                    }
                }
                Some(K::CQuote) => {
                    self.bump_raw();
                    break;
                }
                Some(K::TemplateInterp | K::TemplateControl) => {
                    let seq_start = self.raw().map_or(0, |t| t.range.start);
                    let sigil = self
                        .raw()
                        .map_or("$", |t| self.slice(t.range).get(..1).unwrap_or("$"));
                    // Skip the sequence.
                    self.bump_raw();
                    self.with_newlines(false, |p| p.recover_to(K::TemplateSeqEnd));
                    self.error(
                        codes::TEMPLATE_IN_LABEL,
                        self.range_from(seq_start),
                        format!("template sequences are not allowed in a block label; write `{sigil}{sigil}{{` for a literal `{sigil}{{`"),
                    );
                    value.push_str(if sigil == "$" { "${ ... }" } else { "%{ ... }" });
                }
                Some(K::Invalid) => {
                    self.bump_raw();
                }
                _ => {
                    self.error_r(
                        codes::UNTERMINATED_TEMPLATE,
                        open.range,
                        "this string has no closing `\"` on its line",
                    );
                    break;
                }
            }
        }
        for (range, message) in errors {
            self.error(codes::INVALID_ESCAPE, range, message);
        }
        Label {
            value: value.into(),
            quoted: true,
            range: self.range_from(open.range.start),
        }
    }

    // ------------------------------------------------------------------
    // Expressions
    // ------------------------------------------------------------------

    /// `expression = conditional`.
    pub(crate) fn expression(&mut self) -> Expr {
        self.conditional()
    }

    /// `conditional = binary [ "?" expression ":" expression ]`.
    fn conditional(&mut self) -> Expr {
        let condition = self.binary(1);
        if self.peek() != Some(K::Question) {
            return condition;
        }
        if !self.enter() {
            self.recover_line_in_expr();
            return Expr::new(ExprKind::Error, self.range_from(condition.range.start));
        }
        self.bump();
        let then_expr = self.expression();
        let else_expr = if self.eat(K::Colon).is_some() {
            self.expression()
        } else {
            let range = self.peek_range();
            self.error_r(
                codes::MISSING_CONDITIONAL_ELSE,
                range,
                "expected `:` and the false branch of the conditional",
            );
            Expr::new(ExprKind::Error, TextRange::empty(then_expr.range.end))
        };
        self.leave();
        let range = TextRange::new(
            condition.range.start,
            else_expr.range.end.max(then_expr.range.end),
        );
        Expr::new(
            ExprKind::Conditional(Box::new(Conditional {
                condition,
                then_expr,
                else_expr,
            })),
            range,
        )
    }

    /// Skips what is left of an expression cut off at the nesting limit.
    fn recover_line_in_expr(&mut self) {
        while let Some(kind) = self.peek() {
            match kind {
                K::Newline | K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd | K::Comma => {
                    break
                }
                _ => {
                    self.skip_group();
                }
            }
        }
    }

    fn peek_binary_op(&mut self) -> Option<BinaryOp> {
        Some(match self.peek()? {
            K::Or => BinaryOp::Or,
            K::And => BinaryOp::And,
            K::EqualOp => BinaryOp::Equal,
            K::NotEqual => BinaryOp::NotEqual,
            K::LessThan => BinaryOp::Less,
            K::LessThanEq => BinaryOp::LessEqual,
            K::GreaterThan => BinaryOp::Greater,
            K::GreaterThanEq => BinaryOp::GreaterEqual,
            K::Plus => BinaryOp::Add,
            K::Minus => BinaryOp::Subtract,
            K::Star => BinaryOp::Multiply,
            K::Slash => BinaryOp::Divide,
            K::Percent => BinaryOp::Modulo,
            _ => return None,
        })
    }

    /// Precedence climbing over `or_expr` … `multiplicative`; all levels
    /// are left-associative, so recursion depth is bounded by the number
    /// of levels, not by the length of a chain.
    fn binary(&mut self, min_prec: u8) -> Expr {
        let mut lhs = self.unary();
        while let Some(op) = self.peek_binary_op() {
            let prec = op.precedence();
            if prec < min_prec {
                break;
            }
            let op_token = self.bump();
            let rhs = if prec < 6 {
                self.binary(prec + 1)
            } else {
                self.unary()
            };
            let range = TextRange::new(lhs.range.start, rhs.range.end.max(op_token.range.end));
            lhs = Expr::new(
                ExprKind::Binary(Box::new(Binary {
                    op,
                    op_range: op_token.range,
                    lhs,
                    rhs,
                })),
                range,
            );
        }
        lhs
    }

    /// `unary = ( "-" | "!" ) unary | postfix_expr`.
    fn unary(&mut self) -> Expr {
        let op = match self.peek() {
            Some(K::Minus) => UnaryOp::Negate,
            Some(K::Bang) => UnaryOp::Not,
            _ => return self.postfix_expr(),
        };
        if !self.enter() {
            let start = self.peek_range().start;
            while matches!(self.peek(), Some(K::Minus | K::Bang)) {
                self.bump();
            }
            self.recover_line_in_expr();
            return Expr::new(ExprKind::Error, self.range_from(start));
        }
        let op_token = self.bump();
        let operand = self.unary();
        self.leave();
        let range = TextRange::new(
            op_token.range.start,
            operand.range.end.max(op_token.range.end),
        );
        Expr::new(
            ExprKind::Unary(Box::new(Unary {
                op,
                op_range: op_token.range,
                operand,
            })),
            range,
        )
    }

    /// `postfix_expr = term { postfix_op }`.
    fn postfix_expr(&mut self) -> Expr {
        let term = self.term();
        if term.is_error() {
            return term;
        }
        self.postfix_chain(term)
    }

    /// Applies postfix operators to `source` while they follow.
    fn postfix_chain(&mut self, mut source: Expr) -> Expr {
        let mut steps: Vec<Step> = Vec::new();
        loop {
            match self.peek() {
                Some(K::Dot) => {
                    let dot = self.bump();
                    match self.peek() {
                        Some(K::Ident) => {
                            let token = self.bump();
                            steps.push(
                                Step {
                                    kind: StepKind::Attr(self.ident_of(token)),
                                    range: TextRange::new(dot.range.start, token.range.end),
                                }
                                .covered(),
                            );
                        }
                        Some(K::NumberLit) => {
                            let token = self.bump();
                            steps.push(self.legacy_index(dot, token, false));
                        }
                        Some(K::Star) => {
                            let star = self.bump();
                            source = finish_traversal(source, std::mem::take(&mut steps));
                            source = self.attr_splat(
                                source,
                                TextRange::new(dot.range.start, star.range.end),
                            );
                        }
                        _ => {
                            let range = self.peek_range();
                            self.error_r(
                                codes::INVALID_ATTRIBUTE_NAME,
                                TextRange::new(dot.range.start, range.end),
                                "expected an attribute name, a number or `*` after `.`",
                            );
                            return Expr::new(ExprKind::Error, self.range_from(source.range.start));
                        }
                    }
                }
                Some(K::OBrack) => {
                    let open = self.bump();
                    let is_splat = self.with_newlines(false, |p| p.peek() == Some(K::Star));
                    if is_splat {
                        self.with_newlines(false, |p| p.bump());
                        let close = self.with_newlines(false, |p| p.eat(K::CBrack));
                        let marker = match close {
                            Some(close) => TextRange::new(open.range.start, close.range.end),
                            None => {
                                let range = self.peek_range();
                                self.error_r(
                                    codes::UNCLOSED_INDEX,
                                    range,
                                    "expected `]` right after `[*`",
                                );
                                self.range_from(open.range.start)
                            }
                        };
                        source = finish_traversal(source, std::mem::take(&mut steps));
                        return self.full_splat(source, marker);
                    }
                    if !self.enter() {
                        self.pos -= 1;
                        self.skip_group();
                        return Expr::new(ExprKind::Error, self.range_from(source.range.start));
                    }
                    let key = self.with_newlines(false, |p| {
                        let key = p.expression();
                        if p.eat(K::CBrack).is_none() {
                            let range = p.peek_range();
                            p.error_r(
                                codes::UNCLOSED_INDEX,
                                range,
                                "expected `]` to close the index",
                            );
                            p.recover_to(K::CBrack);
                        }
                        key
                    });
                    self.leave();
                    steps.push(
                        Step {
                            kind: StepKind::Index(key),
                            range: self.range_from(open.range.start),
                        }
                        .covered(),
                    );
                }
                _ => break,
            }
        }
        finish_traversal(source, steps)
    }

    fn legacy_index(&mut self, dot: Token, token: Token, in_splat: bool) -> Step {
        let text = self.slice(token.range);
        let range = TextRange::new(dot.range.start, token.range.end);
        if text.contains('.') {
            let hint = if in_splat {
                "chained legacy indexes are not allowed; use a full splat with brackets, like [*][0][1]"
            } else {
                "chained legacy indexes are not allowed; use brackets, like [0][1]"
            };
            self.error(codes::INVALID_LEGACY_INDEX, token.range, hint);
        }
        let value = match literal::parse_number(text) {
            Ok(NumberValue::Int(v)) => v,
            _ => num_bigint::BigInt::default(),
        };
        Step {
            kind: StepKind::LegacyIndex {
                text: text.into(),
                value,
            },
            range,
        }
        .covered()
    }

    /// `attr_splat = ".*" { "." IDENT | "." NUMBER_LIT }`.
    fn attr_splat(&mut self, source: Expr, marker: TextRange) -> Expr {
        let item = Expr::new(ExprKind::SplatItem, TextRange::empty(marker.end));
        let mut steps = Vec::new();
        while self.peek() == Some(K::Dot) {
            match self.peek_second() {
                Some(K::Ident) => {
                    let dot = self.bump();
                    let token = self.bump();
                    steps.push(
                        Step {
                            kind: StepKind::Attr(self.ident_of(token)),
                            range: TextRange::new(dot.range.start, token.range.end),
                        }
                        .covered(),
                    );
                }
                Some(K::NumberLit) => {
                    let dot = self.bump();
                    let token = self.bump();
                    steps.push(self.legacy_index(dot, token, true));
                }
                Some(K::Star) => {
                    let dot = self.bump();
                    let star = self.bump();
                    self.error_r(
                        codes::NESTED_SPLAT,
                        TextRange::new(dot.range.start, star.range.end),
                        "a `.*` splat cannot follow another `.*` splat; use `[*]` instead",
                    );
                }
                _ => break,
            }
        }
        let each = finish_traversal(item, steps);
        let range = TextRange::new(source.range.start, each.range.end.max(marker.end));
        Expr::new(
            ExprKind::Splat(Box::new(Splat {
                source,
                kind: SplatKind::Attr,
                marker_range: marker,
                each,
            })),
            range,
        )
    }

    /// `full_splat = "[*]" { postfix_op }`: the rest of the chain applies
    /// to each element.
    fn full_splat(&mut self, source: Expr, marker: TextRange) -> Expr {
        let item = Expr::new(ExprKind::SplatItem, TextRange::empty(marker.end));
        let each = if self.enter() {
            let each = self.postfix_chain(item);
            self.leave();
            each
        } else {
            self.recover_line_in_expr();
            Expr::new(ExprKind::Error, self.range_from(marker.end))
        };
        let range = TextRange::new(source.range.start, each.range.end.max(marker.end));
        Expr::new(
            ExprKind::Splat(Box::new(Splat {
                source,
                kind: SplatKind::Full,
                marker_range: marker,
                each,
            })),
            range,
        )
    }

    /// `term`: a literal, variable, call, template, group or collection.
    fn term(&mut self) -> Expr {
        let Some(kind) = self.peek() else {
            let range = self.peek_range();
            self.error_r(
                codes::EXPECTED_EXPRESSION,
                range,
                "expected an expression, found the end of the file",
            );
            return Expr::new(ExprKind::Error, range);
        };
        match kind {
            K::NumberLit => {
                let token = self.bump();
                self.number(token)
            }
            K::Ident => {
                if matches!(self.peek_second(), Some(K::OParen | K::DoubleColon)) {
                    return self.nested(Self::function_call);
                }
                let token = self.bump();
                let literal = match self.slice(token.range) {
                    "true" => Some(Literal::Bool(true)),
                    "false" => Some(Literal::Bool(false)),
                    "null" => Some(Literal::Null),
                    _ => None,
                };
                match literal {
                    Some(lit) => Expr::new(ExprKind::Literal(lit), token.range),
                    None => Expr::new(ExprKind::Variable(self.ident_of(token)), token.range),
                }
            }
            K::OParen => self.nested(Self::paren_expr),
            K::OBrack => self.nested(Self::tuple_or_for),
            K::OBrace => self.nested(Self::object_or_for),
            K::OQuote | K::OHeredoc => self.nested(Self::template_expr),
            _ => {
                let range = self.peek_range();
                self.error_r(
                    codes::EXPECTED_EXPRESSION,
                    range,
                    format!("expected an expression, found {}", kind.describe()),
                );
                Expr::new(ExprKind::Error, range)
            }
        }
    }

    /// Runs a nesting production under the depth limit.
    fn nested(&mut self, production: fn(&mut Self) -> Expr) -> Expr {
        if !self.enter() {
            return self.skip_group();
        }
        let expr = production(self);
        self.leave();
        expr
    }

    fn number(&mut self, token: Token) -> Expr {
        let text = self.slice(token.range);
        let value = match literal::parse_number(text) {
            Ok(value) => value,
            Err(NumberError::Malformed) => {
                self.error(
                    codes::INVALID_NUMBER,
                    token.range,
                    format!("`{text}` is not a valid number"),
                );
                NumberValue::Invalid
            }
            Err(NumberError::OutOfRange) => {
                self.error(
                    codes::NUMBER_OUT_OF_RANGE,
                    token.range,
                    literal::out_of_range_message(text),
                );
                NumberValue::Invalid
            }
        };
        Expr::new(
            ExprKind::Literal(Literal::Number(Number {
                text: text.into(),
                value,
            })),
            token.range,
        )
    }

    /// `paren_expr = "(" expression ")"`, newlines ignored inside.
    fn paren_expr(&mut self) -> Expr {
        let open = self.bump();
        let inner = self.with_newlines(false, |p| {
            let inner = p.expression();
            if p.newline_then_item() {
                p.error_r(
                    codes::UNCLOSED_PAREN,
                    open.range,
                    "this `(` has no matching `)`",
                );
            } else if p.eat(K::CParen).is_none() {
                let range = p.peek_range();
                p.error_r(
                    codes::UNCLOSED_PAREN,
                    range,
                    "expected `)` to close the parenthesised expression",
                );
                p.recover_to(K::CParen);
            }
            inner
        });
        // Recovery may stop before the end of the operand; the node still
        // covers its child.
        let range = self.range_from(open.range.start).cover(inner.range);
        Expr::new(ExprKind::Parens(Box::new(inner)), range)
    }

    /// `function_call = IDENT { "::" IDENT } "(" [ call_args ] ")"`.
    fn function_call(&mut self) -> Expr {
        let first = self.bump();
        let start = first.range.start;
        let mut segments = vec![self.ident_of(first)];
        while self.peek() == Some(K::DoubleColon) {
            let colons = self.bump();
            match self.eat(K::Ident) {
                Some(token) => segments.push(self.ident_of(token)),
                None => {
                    self.error(
                        codes::INVALID_FUNCTION_NAME,
                        colons.range,
                        "expected a function name after `::`",
                    );
                    self.recovering = true;
                    return Expr::new(ExprKind::Error, self.range_from(start));
                }
            }
        }
        let name_range = self.range_from(start);
        let Some(open) = self.eat(K::OParen) else {
            self.error(
                codes::INVALID_FUNCTION_NAME,
                name_range,
                "expected `(` after the namespaced function name",
            );
            self.recovering = true;
            return Expr::new(ExprKind::Error, name_range);
        };
        let name: Box<str> = if segments.len() == 1 {
            segments.first().map(|s| s.name.clone()).unwrap_or_default()
        } else {
            segments
                .iter()
                .map(|s| &*s.name)
                .collect::<Vec<_>>()
                .join("::")
                .into()
        };
        let (args, expand_final, close) = self.with_newlines(false, |p| p.call_args(open.range));
        let close_paren_range = close.unwrap_or(TextRange::empty(p_end(self)));
        Expr::new(
            ExprKind::Call(Box::new(Call {
                name,
                name_range,
                segments,
                args,
                expand_final,
                open_paren_range: open.range,
                close_paren_range,
            })),
            self.range_from(start),
        )
    }

    /// `call_args = expression { "," expression } [ "," | "..." ]`, then `)`.
    fn call_args(&mut self, open: TextRange) -> (Vec<Expr>, bool, Option<TextRange>) {
        let mut args = Vec::new();
        let mut expand = false;
        loop {
            if let Some(close) = self.eat(K::CParen) {
                return (args, expand, Some(close.range));
            }
            if self.peek().is_none() || self.newline_then_item() {
                let range = open;
                self.error_r(
                    codes::UNCLOSED_CALL,
                    range,
                    "this function call has no closing `)`",
                );
                return (args, expand, None);
            }
            let before = self.pos;
            args.push(self.expression());
            match self.peek() {
                Some(K::Comma) => {
                    self.bump();
                }
                Some(K::Ellipsis) => {
                    self.bump();
                    expand = true;
                    if let Some(close) = self.eat(K::CParen) {
                        return (args, expand, Some(close.range));
                    }
                    let range = self.peek_range();
                    self.error_r(
                        codes::INVALID_EXPANSION,
                        range,
                        "an argument expanded with `...` must be the last one, followed by `)`",
                    );
                    let closed = self.recover_to(K::CParen);
                    return (
                        args,
                        expand,
                        closed.then(|| TextRange::empty(self.last_end)),
                    );
                }
                Some(K::CParen) => {}
                None => {}
                Some(_) => {
                    let range = self.peek_range();
                    self.error_r(
                        codes::MISSING_COMMA,
                        range,
                        "expected `,` between function arguments, or `)`",
                    );
                    let closed = self.recover_to(K::CParen);
                    return (
                        args,
                        expand,
                        closed.then(|| TextRange::empty(self.last_end)),
                    );
                }
            }
            if self.pos == before {
                self.bump();
            }
        }
    }

    /// `tuple_or_for = "[" ( for_body | tuple_items ) "]"`.
    fn tuple_or_for(&mut self) -> Expr {
        let open = self.bump();
        self.with_newlines(false, |p| {
            if p.peek_is_keyword("for") {
                return p.for_body(open, ForKind::Tuple);
            }
            let mut items = Vec::new();
            loop {
                if p.eat(K::CBrack).is_some() {
                    break;
                }
                if p.peek().is_none() || p.newline_then_item() {
                    p.error_r(
                        codes::UNCLOSED_TUPLE,
                        open.range,
                        "this `[` has no matching `]`",
                    );
                    break;
                }
                let before = p.pos;
                items.push(p.expression());
                match p.peek() {
                    Some(K::Comma) => {
                        p.bump();
                    }
                    Some(K::CBrack) | None => {}
                    Some(_) => {
                        let range = p.peek_range();
                        p.error_r(
                            codes::MISSING_COMMA,
                            range,
                            "expected `,` between tuple elements, or `]`",
                        );
                        p.recover_to(K::CBrack);
                        break;
                    }
                }
                if p.pos == before {
                    p.bump();
                }
            }
            Expr::new(ExprKind::Tuple(items), p.range_from(open.range.start))
        })
    }

    /// `object_or_for = "{" ( for_body | object_items ) "}"`.
    fn object_or_for(&mut self) -> Expr {
        let open = self.bump();
        let is_for = self.with_newlines(false, |p| p.peek_is_keyword("for"));
        if is_for {
            return self.with_newlines(false, |p| p.for_body(open, ForKind::Object));
        }
        self.with_newlines(true, |p| p.object_items(open))
    }

    /// `object_items`: items separated by `,` or a newline.
    fn object_items(&mut self, open: Token) -> Expr {
        let mut items = Vec::new();
        loop {
            while self.eat(K::Newline).is_some() {}
            if self.eat(K::CBrace).is_some() {
                break;
            }
            if self.peek().is_none() {
                self.error_r(
                    codes::UNCLOSED_OBJECT,
                    open.range,
                    "this `{` has no matching `}`",
                );
                break;
            }
            let before = self.pos;
            let key = self.expression();
            let value = match self.peek() {
                Some(K::Equal | K::Colon) => {
                    self.bump();
                    match self.peek() {
                        Some(K::Newline) | Some(K::Comma) | Some(K::CBrace) | None => {
                            let range = self.peek_range();
                            self.error_r(
                                codes::MISSING_ATTRIBUTE_VALUE,
                                range,
                                "expected a value after `=` on the same line",
                            );
                            Expr::new(ExprKind::Error, TextRange::empty(self.last_end))
                        }
                        _ => self.expression(),
                    }
                }
                other => {
                    let range = self.peek_range();
                    let message = match other {
                        Some(K::Newline) | Some(K::Comma) => {
                            "expected `=` and a value after the object key".to_string()
                        }
                        None => "this `{` has no matching `}`".to_string(),
                        Some(K::Ident) => "expected `=` after the object key; quote keys that contain dots or spaces".to_string(),
                        Some(kind) => format!("expected `=` after the object key, found {}", kind.describe()),
                    };
                    let code = if other.is_none() {
                        codes::UNCLOSED_OBJECT
                    } else {
                        codes::MISSING_KEY_VALUE_SEPARATOR
                    };
                    self.error_r(code, range, message);
                    self.recover_to(K::CBrace);
                    let item_range = self.range_from(key.range.start);
                    items.push(
                        ObjectItem {
                            key,
                            value: Expr::new(ExprKind::Error, TextRange::empty(self.last_end)),
                            range: item_range,
                        }
                        .covered(),
                    );
                    return Expr::new(ExprKind::Object(items), self.range_from(open.range.start));
                }
            };
            let range = TextRange::new(key.range.start, value.range.end.max(key.range.end));
            items.push(ObjectItem { key, value, range });
            match self.peek() {
                Some(K::Comma | K::Newline) => {
                    self.bump();
                }
                Some(K::CBrace) | None => {}
                Some(_) => {
                    let range = self.peek_range();
                    self.error_r(
                        codes::MISSING_ITEM_SEPARATOR,
                        range,
                        "expected a newline or `,` before the next object item",
                    );
                    self.recover_to(K::CBrace);
                    break;
                }
            }
            if self.pos == before {
                self.bump();
            }
        }
        Expr::new(ExprKind::Object(items), self.range_from(open.range.start))
    }

    /// `for_body = "for" IDENT [ "," IDENT ] "in" expression ":" expression
    /// [ "=>" expression ] [ "..." ] [ "if" expression ]`, then the closer.
    fn for_body(&mut self, open: Token, kind: ForKind) -> Expr {
        let close = if kind == ForKind::Tuple {
            K::CBrack
        } else {
            K::CBrace
        };
        let for_token = self.bump();
        let fail = |p: &mut Self, message: &str| {
            let range = p.peek_range();
            p.error_r(codes::INVALID_FOR, range, message.to_string());
            p.recover_to(close);
            Expr::new(ExprKind::Error, p.range_from(open.range.start))
        };
        let Some(first) = self.eat(K::Ident) else {
            return fail(self, "expected a variable name after `for`");
        };
        let mut key_var = None;
        let mut value_var = self.ident_of(first);
        if self.eat(K::Comma).is_some() {
            let Some(second) = self.eat(K::Ident) else {
                return fail(self, "expected a value variable name after `,`");
            };
            key_var = Some(value_var);
            value_var = self.ident_of(second);
        }
        if !self.peek_is_keyword("in") {
            return fail(self, "expected `in` after the `for` variable names");
        }
        self.bump();
        let collection = self.expression();
        if self.eat(K::Colon).is_none() {
            return fail(self, "expected `:` after the `for` collection expression");
        }
        let first_expr = self.expression();
        let (key_expr, value_expr) = if self.eat(K::FatArrow).is_some() {
            (Some(first_expr), self.expression())
        } else {
            (None, first_expr)
        };
        let grouping = self.eat(K::Ellipsis);
        let condition = if self.peek_is_keyword("if") {
            self.bump();
            Some(self.expression())
        } else {
            None
        };
        if self.eat(close).is_none() {
            let range = self.peek_range();
            self.error_r(
                codes::INVALID_FOR,
                range,
                format!("expected {} to end the `for` expression", close.describe()),
            );
            self.recover_to(close);
        }
        if kind == ForKind::Tuple {
            if let Some(key) = &key_expr {
                self.error(
                    codes::INVALID_FOR,
                    key.range,
                    "a tuple `for` expression cannot have a key (`=>`)",
                );
            }
            if let Some(dots) = grouping {
                self.error(
                    codes::INVALID_FOR,
                    dots.range,
                    "grouping (`...`) is only allowed in an object `for` expression",
                );
            }
        } else if key_expr.is_none() {
            self.error(
                codes::INVALID_FOR,
                for_token.range,
                "an object `for` expression needs a key: `for k, v in coll : key => value`",
            );
        }
        Expr::new(
            ExprKind::For(Box::new(ForExpr {
                kind,
                key_var,
                value_var,
                collection,
                key_expr,
                value_expr,
                grouping: grouping.is_some(),
                condition,
            })),
            self.range_from(open.range.start),
        )
    }
}

fn p_end(p: &Parser<'_>) -> u32 {
    p.last_end
}

/// Wraps `source` in a traversal when there are steps.
fn finish_traversal(source: Expr, steps: Vec<Step>) -> Expr {
    match steps.last() {
        None => source,
        Some(last) => {
            let range = TextRange::new(source.range.start, last.range.end);
            Expr::new(
                ExprKind::Traversal(Box::new(Traversal { source, steps })),
                range,
            )
        }
    }
}

/// Reports attributes defined twice in one body.
fn check_duplicates(p: &mut Parser<'_>, items: &[BodyItem]) {
    let mut seen: std::collections::HashMap<&str, TextRange> = std::collections::HashMap::new();
    let mut dups = Vec::new();
    for item in items {
        if let BodyItem::Attribute(attr) = item {
            match seen.get(attr.name()) {
                Some(first) => dups.push((attr.name.range, attr.name().to_string(), *first)),
                None => {
                    seen.insert(attr.name(), attr.name.range);
                }
            }
        }
    }
    for (range, name, first) in dups {
        p.diags.push(
            Diagnostic::error(
                codes::DUPLICATE_ATTRIBUTE,
                Span::new(p.file, range),
                format!("attribute `{name}` is already defined in this body"),
            )
            .with_related(Span::new(p.file, first), "first defined here"),
        );
    }
}
