//! Token kinds produced by the lexer, trivia included.
//!
//! Every byte of the input belongs to exactly one token. Trivia kinds
//! (whitespace, comments, a leading byte-order mark) are kept in the token
//! stream so that printing all tokens reproduces the input.

use pcl_diagnostics::TextRange;

/// One token: its kind and its byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token {
    pub kind: TokenKind,
    pub range: TextRange,
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TokenKind {
    // ----- trivia -----
    /// Spaces and tabs.
    Whitespace,
    /// `# …` including its terminating line break, if any.
    HashComment,
    /// `// …` including its terminating line break, if any.
    SlashComment,
    /// `/* … */`.
    BlockComment,
    /// A byte-order mark at offset 0 (silently accepted).
    Bom,

    // ----- line structure -----
    /// `\n` or `\r\n`.
    Newline,

    // ----- atoms -----
    Ident,
    NumberLit,

    // ----- punctuation -----
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
    DoubleColon,
    Ellipsis,
    FatArrow,

    // ----- templates -----
    /// `"` opening a quoted template.
    OQuote,
    /// `"` closing a quoted template.
    CQuote,
    /// `<<ID` / `<<-ID` plus its line break.
    OHeredoc,
    /// The closing marker line of a heredoc, without its line break (which
    /// follows as a `Newline`).
    CHeredoc,
    /// `${` or `${~`.
    TemplateInterp,
    /// `%{` or `%{~`.
    TemplateControl,
    /// `}` or `~}` closing a template sequence (`~}` always lexes as this).
    TemplateSeqEnd,
    /// Literal text of a quoted template (backslash escapes allowed).
    QuotedLit,
    /// Literal text of a heredoc or bare template (including line breaks).
    StringLit,

    // ----- errors (never valid syntax) -----
    /// A raw line break inside a quoted template.
    QuotedNewline,
    /// `&`
    BitwiseAnd,
    /// `|`
    BitwiseOr,
    /// `^`
    BitwiseXor,
    /// `~`
    BitwiseNot,
    /// `'`
    Apostrophe,
    /// `` ` ``
    Backtick,
    /// `;`
    Semicolon,
    /// Any other character with no meaning here.
    Invalid,
}

impl TokenKind {
    /// Every kind, in declaration order (`ALL[k as usize] == k`).
    pub(crate) const ALL: [TokenKind; 54] = [
        TokenKind::Whitespace,
        TokenKind::HashComment,
        TokenKind::SlashComment,
        TokenKind::BlockComment,
        TokenKind::Bom,
        TokenKind::Newline,
        TokenKind::Ident,
        TokenKind::NumberLit,
        TokenKind::OBrace,
        TokenKind::CBrace,
        TokenKind::OBrack,
        TokenKind::CBrack,
        TokenKind::OParen,
        TokenKind::CParen,
        TokenKind::Star,
        TokenKind::Slash,
        TokenKind::Plus,
        TokenKind::Minus,
        TokenKind::Percent,
        TokenKind::Equal,
        TokenKind::EqualOp,
        TokenKind::NotEqual,
        TokenKind::LessThan,
        TokenKind::LessThanEq,
        TokenKind::GreaterThan,
        TokenKind::GreaterThanEq,
        TokenKind::And,
        TokenKind::Or,
        TokenKind::Bang,
        TokenKind::Dot,
        TokenKind::Comma,
        TokenKind::Question,
        TokenKind::Colon,
        TokenKind::DoubleColon,
        TokenKind::Ellipsis,
        TokenKind::FatArrow,
        TokenKind::OQuote,
        TokenKind::CQuote,
        TokenKind::OHeredoc,
        TokenKind::CHeredoc,
        TokenKind::TemplateInterp,
        TokenKind::TemplateControl,
        TokenKind::TemplateSeqEnd,
        TokenKind::QuotedLit,
        TokenKind::StringLit,
        TokenKind::QuotedNewline,
        TokenKind::BitwiseAnd,
        TokenKind::BitwiseOr,
        TokenKind::BitwiseXor,
        TokenKind::BitwiseNot,
        TokenKind::Apostrophe,
        TokenKind::Backtick,
        TokenKind::Semicolon,
        TokenKind::Invalid,
    ];

    /// Whitespace, comments and a byte-order mark.
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            TokenKind::Whitespace
                | TokenKind::HashComment
                | TokenKind::SlashComment
                | TokenKind::BlockComment
                | TokenKind::Bom
        )
    }

    /// `#` and `//` comments.
    pub fn is_line_comment(self) -> bool {
        matches!(self, TokenKind::HashComment | TokenKind::SlashComment)
    }

    pub fn is_comment(self) -> bool {
        matches!(
            self,
            TokenKind::HashComment | TokenKind::SlashComment | TokenKind::BlockComment
        )
    }

    /// A short human description for diagnostics.
    pub fn describe(self) -> &'static str {
        match self {
            TokenKind::Whitespace => "whitespace",
            TokenKind::HashComment | TokenKind::SlashComment | TokenKind::BlockComment => {
                "a comment"
            }
            TokenKind::Bom => "a byte-order mark",
            TokenKind::Newline => "a newline",
            TokenKind::Ident => "an identifier",
            TokenKind::NumberLit => "a number",
            TokenKind::OBrace => "`{`",
            TokenKind::CBrace => "`}`",
            TokenKind::OBrack => "`[`",
            TokenKind::CBrack => "`]`",
            TokenKind::OParen => "`(`",
            TokenKind::CParen => "`)`",
            TokenKind::Star => "`*`",
            TokenKind::Slash => "`/`",
            TokenKind::Plus => "`+`",
            TokenKind::Minus => "`-`",
            TokenKind::Percent => "`%`",
            TokenKind::Equal => "`=`",
            TokenKind::EqualOp => "`==`",
            TokenKind::NotEqual => "`!=`",
            TokenKind::LessThan => "`<`",
            TokenKind::LessThanEq => "`<=`",
            TokenKind::GreaterThan => "`>`",
            TokenKind::GreaterThanEq => "`>=`",
            TokenKind::And => "`&&`",
            TokenKind::Or => "`||`",
            TokenKind::Bang => "`!`",
            TokenKind::Dot => "`.`",
            TokenKind::Comma => "`,`",
            TokenKind::Question => "`?`",
            TokenKind::Colon => "`:`",
            TokenKind::DoubleColon => "`::`",
            TokenKind::Ellipsis => "`...`",
            TokenKind::FatArrow => "`=>`",
            TokenKind::OQuote | TokenKind::CQuote => "`\"`",
            TokenKind::OHeredoc => "a heredoc introducer",
            TokenKind::CHeredoc => "a heredoc closing marker",
            TokenKind::TemplateInterp => "`${`",
            TokenKind::TemplateControl => "`%{`",
            TokenKind::TemplateSeqEnd => "`}`",
            TokenKind::QuotedLit | TokenKind::StringLit => "template text",
            TokenKind::QuotedNewline => "a line break in a quoted string",
            TokenKind::BitwiseAnd => "`&`",
            TokenKind::BitwiseOr => "`|`",
            TokenKind::BitwiseXor => "`^`",
            TokenKind::BitwiseNot => "`~`",
            TokenKind::Apostrophe => "`'`",
            TokenKind::Backtick => "a backtick",
            TokenKind::Semicolon => "`;`",
            TokenKind::Invalid => "an invalid character",
        }
    }
}

/// The tokens of one input, stored compactly for the parser and the
/// [`crate::Parsed`] result: a kind (1 byte) and a start offset (4 bytes)
/// per token, where a [`Token`] is 12 bytes. Tokens cover the input
/// without gaps, so a token ends where the next one starts (the last one
/// at `end`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Tokens {
    kinds: Vec<TokenKind>,
    starts: Vec<u32>,
    /// The end of the last token.
    end: u32,
}

impl Tokens {
    pub(crate) fn with_capacity(capacity: usize) -> Tokens {
        Tokens {
            kinds: Vec::with_capacity(capacity),
            starts: Vec::with_capacity(capacity),
            end: 0,
        }
    }

    /// Appends a token; `start` must be the previous token's end. Call
    /// [`Tokens::set_end`] after the last one.
    pub(crate) fn push(&mut self, kind: TokenKind, start: u32) {
        self.kinds.push(kind);
        self.starts.push(start);
    }

    /// Appends tokens (`starts` as long as `kinds`; see [`Tokens::push`]).
    pub(crate) fn extend(&mut self, kinds: &[TokenKind], starts: &[u32]) {
        self.kinds.extend_from_slice(kinds);
        self.starts.extend_from_slice(starts);
    }

    /// Sets where the last token ends.
    pub(crate) fn set_end(&mut self, end: u32) {
        self.end = end;
    }

    /// Where the last token ends (the input's length).
    pub(crate) fn end(&self) -> u32 {
        self.end
    }

    pub(crate) fn len(&self) -> usize {
        self.kinds.len()
    }

    pub(crate) fn kind(&self, idx: usize) -> Option<TokenKind> {
        self.kinds.get(idx).copied()
    }

    /// Every token's kind, in order (for scans that rarely need ranges).
    pub(crate) fn kinds(&self) -> &[TokenKind] {
        &self.kinds
    }

    /// Every token's start offset, in order.
    pub(crate) fn starts(&self) -> &[u32] {
        &self.starts
    }

    pub(crate) fn start(&self, idx: usize) -> Option<u32> {
        self.starts.get(idx).copied()
    }

    pub(crate) fn get(&self, idx: usize) -> Option<Token> {
        let kind = *self.kinds.get(idx)?;
        let start = *self.starts.get(idx)?;
        let end = match self.starts.get(idx + 1) {
            Some(next) => *next,
            None => self.end,
        };
        Some(Token {
            kind,
            range: TextRange { start, end },
        })
    }

    /// The tokens from index `from` on, in order.
    pub(crate) fn iter_from(&self, from: usize) -> impl Iterator<Item = Token> + '_ {
        let kinds = self.kinds.get(from..).unwrap_or(&[]);
        let starts = self.starts.get(from..).unwrap_or(&[]);
        let ends = starts
            .iter()
            .skip(1)
            .copied()
            .chain(std::iter::once(self.end));
        kinds
            .iter()
            .zip(starts)
            .zip(ends)
            .map(|((kind, start), end)| Token {
                kind: *kind,
                range: TextRange { start: *start, end },
            })
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = Token> + '_ {
        self.iter_from(0)
    }

    /// The tokens before index `before`, last first.
    pub(crate) fn iter_back(&self, before: usize) -> impl Iterator<Item = Token> + '_ {
        (0..before.min(self.len()))
            .rev()
            .filter_map(move |idx| self.get(idx))
    }

    /// How many tokens end at or before `offset` (they are a prefix):
    /// token `i` ends where token `i + 1` starts, the last one at `end`.
    pub(crate) fn count_ending_by(&self, offset: u32) -> usize {
        let starting_by = self.starts.partition_point(|start| *start <= offset);
        if starting_by == self.len() && self.end <= offset {
            return starting_by;
        }
        starting_by.saturating_sub(1)
    }

    pub(crate) fn to_vec(&self) -> Vec<Token> {
        self.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::TokenKind;

    #[test]
    fn all_lists_every_kind_at_its_discriminant() {
        for (idx, kind) in TokenKind::ALL.iter().enumerate() {
            assert_eq!(*kind as usize, idx, "{kind:?}");
        }
        // The last variant is the last entry: nothing is missing at the end.
        assert_eq!(TokenKind::ALL.last(), Some(&TokenKind::Invalid));
    }
}
