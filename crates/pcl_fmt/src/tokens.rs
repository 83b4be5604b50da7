//! The one module that knows `pcl_syntax`: it parses the input and turns its
//! lossless token stream into the formatter's [`Tok`]s (whitespace folded
//! into the next token's `spaces`). When the syntax layer changes, only this
//! module has to follow.

use pcl_diagnostics::{Diagnostic, FileId};
use pcl_syntax::TokenKind;

/// The token classes the layout rules tell apart: hclsyntax's token types,
/// as hclwrite sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Newline,
    /// Any comment; `Tok::ends_line` says whether it ends with a line break.
    Comment,
    Ident,
    NumberLit,
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    Star,
    Slash,
    Plus,
    Minus,
    Percent,
    Equal,
    EqualOp,
    NotEqual,
    LessThan,
    LessThanEq,
    GreaterThan,
    GreaterThanEq,
    And,
    Or,
    Bang,
    Dot,
    Comma,
    Question,
    Colon,
    Ellipsis,
    /// `::` of a namespaced function name.
    DoubleColon,
    OQuote,
    CQuote,
    OHeredoc,
    CHeredoc,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    QuotedLit,
    StringLit,
    /// Everything without a rule of its own (`=>`).
    Other,
}

/// One significant token (or comment) of the input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok {
    pub kind: Kind,
    /// The lexer's kind, for the final check.
    pub token_kind: TokenKind,
    /// Byte range in the input.
    pub start: u32,
    pub end: u32,
    /// Where the whitespace before it starts (`start` when there is none).
    pub gap_start: u32,
    /// How many spaces to print before it: first the input's whitespace
    /// byte count (as hclwrite counts it), then the layout rules' choice.
    pub spaces: u32,
    /// A newline, or a `#`/`//` comment that includes its line break.
    pub ends_line: bool,
    /// The identifier `in`.
    pub is_in: bool,
}

/// The input split for the layout rules.
pub(crate) struct Lexed {
    /// A byte-order mark at offset 0, printed back as is.
    pub bom_len: u32,
    pub toks: Vec<Tok>,
    /// Whitespace after the last token: `(start, byte count)`.
    pub trailing: (u32, u32),
}

/// Parses `text`; `Err` holds the diagnostics when it has syntax errors.
pub(crate) fn lex(file: FileId, text: &str) -> Result<Lexed, Vec<Diagnostic>> {
    let parse = pcl_syntax::parse(file, text);
    if parse.has_errors() {
        return Err(parse.diagnostics().to_vec());
    }
    Ok(split(text, parse.tokens()))
}

/// Whether `output` lexes to the tokens `toks` of `input` (whitespace and
/// a byte-order mark aside); `Err` holds the input offset of the first
/// token that differs.
pub(crate) fn same_tokens(input: &str, toks: &[Tok], output: &str) -> Result<(), usize> {
    let mut expected = toks.iter();
    for token in pcl_syntax::lex(output) {
        if matches!(token.kind, TokenKind::Whitespace | TokenKind::Bom) {
            continue;
        }
        let Some(want) = expected.next() else {
            return Err(input.len());
        };
        let want_text = input.get(want.start as usize..want.end as usize);
        if token.kind != want.token_kind || output.get(token.range.to_usize()) != want_text {
            return Err(want.start as usize);
        }
    }
    match expected.next() {
        Some(missing) => Err(missing.start as usize),
        None => Ok(()),
    }
}

fn split(text: &str, tokens: &[pcl_syntax::Token]) -> Lexed {
    let mut out = Lexed {
        bom_len: 0,
        toks: Vec::with_capacity(tokens.len() / 2 + 1),
        trailing: (0, 0),
    };
    let mut gap: Option<u32> = None;
    let mut spaces = 0u32;
    for token in tokens {
        let (start, end) = (token.range.start, token.range.end);
        let kind = match token.kind {
            TokenKind::Whitespace => {
                gap.get_or_insert(start);
                spaces += end - start;
                continue;
            }
            TokenKind::Bom => {
                out.bom_len = end;
                continue;
            }
            other => kind_of(other),
        };
        let lexeme = text.get(start as usize..end as usize).unwrap_or("");
        let ends_line = match kind {
            Kind::Newline => true,
            Kind::Comment => lexeme.ends_with('\n'),
            _ => false,
        };
        out.toks.push(Tok {
            kind,
            token_kind: token.kind,
            start,
            end,
            gap_start: gap.take().unwrap_or(start),
            spaces,
            ends_line,
            is_in: kind == Kind::Ident && lexeme == "in",
        });
        spaces = 0;
    }
    let end = text.len() as u32;
    out.trailing = (gap.unwrap_or(end), spaces);
    out
}

fn kind_of(kind: TokenKind) -> Kind {
    use TokenKind as T;
    match kind {
        T::Newline => Kind::Newline,
        T::HashComment | T::SlashComment | T::BlockComment => Kind::Comment,
        T::Ident => Kind::Ident,
        T::NumberLit => Kind::NumberLit,
        T::OBrace => Kind::OBrace,
        T::CBrace => Kind::CBrace,
        T::OBrack => Kind::OBrack,
        T::CBrack => Kind::CBrack,
        T::OParen => Kind::OParen,
        T::CParen => Kind::CParen,
        T::Star => Kind::Star,
        T::Slash => Kind::Slash,
        T::Plus => Kind::Plus,
        T::Minus => Kind::Minus,
        T::Percent => Kind::Percent,
        T::Equal => Kind::Equal,
        T::EqualOp => Kind::EqualOp,
        T::NotEqual => Kind::NotEqual,
        T::LessThan => Kind::LessThan,
        T::LessThanEq => Kind::LessThanEq,
        T::GreaterThan => Kind::GreaterThan,
        T::GreaterThanEq => Kind::GreaterThanEq,
        T::And => Kind::And,
        T::Or => Kind::Or,
        T::Bang => Kind::Bang,
        T::Dot => Kind::Dot,
        T::Comma => Kind::Comma,
        T::Question => Kind::Question,
        T::Colon => Kind::Colon,
        T::Ellipsis => Kind::Ellipsis,
        T::DoubleColon => Kind::DoubleColon,
        T::OQuote => Kind::OQuote,
        T::CQuote => Kind::CQuote,
        T::OHeredoc => Kind::OHeredoc,
        T::CHeredoc => Kind::CHeredoc,
        T::TemplateInterp => Kind::TemplateInterp,
        T::TemplateControl => Kind::TemplateControl,
        T::TemplateSeqEnd => Kind::TemplateSeqEnd,
        T::QuotedLit => Kind::QuotedLit,
        T::StringLit => Kind::StringLit,
        // Never reached for a file without syntax errors except `=>`,
        // which has no rule of its own.
        _ => Kind::Other,
    }
}
