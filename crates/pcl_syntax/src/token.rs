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
