//! The modal lexer.
//!
//! PCL text cannot be tokenised by one regular grammar: `"a ${ b + "c" } d"`
//! switches between template text and expression tokens, and the `}` that
//! closes `${` must be told apart from the `}` of an object inside it. The
//! lexer therefore keeps a *mode stack* (after nickel's modal lexer):
//!
//! * `Main` — expressions and bodies; holds a count of open `{` so that the
//!   `}` at count zero closes the enclosing `${`/`%{` (`TemplateSeqEnd`)
//!   instead of being a `CBrace`.
//! * `Quoted` — inside `"…"`; a raw line break ends the string (the parser
//!   reports it), which keeps the rest of the file lexing normally.
//! * `Heredoc` — after `<<ID⏎` / `<<-ID⏎`, scanned line by line by hand
//!   (like starlark's string bodies) because the closing marker is decided
//!   per line.
//! * `Bare` — a whole input parsed as a template ([`lex_template`]).
//!
//! One token is taken at a time in the current mode, so switching modes is
//! just pushing or popping. Frequent main-mode tokens, comments and all of
//! quoted mode are scanned by hand (long runs with [`ByteSet`], eight bytes
//! at a time); the rest of main mode (operators, `}`, `\r\n`) uses a logos
//! DFA. Hand scanning matters beyond speed: logos's generated code calls
//! itself once per byte of a match, which overflows a debug build's stack
//! on a multi-megabyte string or comment. The DFAs (`MainTok`, and
//! `QuotedTok` in tests) are the reference the hand scanners are tested
//! against. The lexer never fails: every byte ends up in exactly one token, and
//! anything unusable becomes an error token (`Invalid`, `Semicolon`, …)
//! that the parser reports.

use logos::Logos;
use pcl_diagnostics::TextRange;

use crate::token::{Token, TokenKind, Tokens};

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
enum MainTok {
    #[regex(r"[ \t]+")]
    Whitespace,
    #[regex(r"\r?\n")]
    Newline,
    #[regex(r"#[^\n]*\n?")]
    HashComment,
    #[regex(r"//[^\n]*\n?")]
    SlashComment,
    #[regex(r"[A-Za-z_][A-Za-z0-9_\-]*", ident_tail)]
    Ident,
    #[token("{")]
    OBrace,
    #[token("}")]
    CBrace,
    #[token("~}")]
    TildeCBrace,
    #[token("[")]
    OBrack,
    #[token("]")]
    CBrack,
    #[token("(")]
    OParen,
    #[token(")")]
    CParen,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("%")]
    Percent,
    #[token("=")]
    Equal,
    #[token("==")]
    EqualOp,
    #[token("!=")]
    NotEqual,
    #[token("<")]
    LessThan,
    #[token("<=")]
    LessThanEq,
    #[token(">")]
    GreaterThan,
    #[token(">=")]
    GreaterThanEq,
    #[token("&&")]
    And,
    #[token("||")]
    Or,
    #[token("!")]
    Bang,
    #[token(".")]
    Dot,
    #[token(",")]
    Comma,
    #[token("?")]
    Question,
    #[token(":")]
    Colon,
    #[token("::")]
    DoubleColon,
    #[token("...")]
    Ellipsis,
    #[token("=>")]
    FatArrow,
    #[token("\"")]
    Quote,
    #[token("&")]
    BitwiseAnd,
    #[token("|")]
    BitwiseOr,
    #[token("^")]
    BitwiseXor,
    #[token("~")]
    BitwiseNot,
    #[token("'")]
    Apostrophe,
    #[token("`")]
    Backtick,
    #[token(";")]
    Semicolon,
}

/// Extends an ASCII identifier prefix with non-ASCII continue characters.
fn ident_tail(lex: &mut logos::Lexer<'_, MainTok>) {
    let rest = lex.remainder();
    // The DFA took every ASCII continue character: only a non-ASCII
    // character can extend the identifier.
    if rest.as_bytes().first().is_some_and(|b| b.is_ascii()) {
        return;
    }
    let extra = ident_continue_len(rest);
    lex.bump(extra);
}

/// Byte length of the identifier-continue run at the start of `rest`.
fn ident_continue_len(rest: &str) -> usize {
    let mut len = 0;
    for ch in rest.chars() {
        if ch == '-' || unicode_ident::is_xid_continue(ch) {
            len += ch.len_utf8();
        } else {
            break;
        }
    }
    len
}

/// The quoted-mode tokens as a logos DFA: the reference the hand-written
/// [`Lexer::quoted_token`] is tested against. Not used to lex: logos's
/// generated code calls itself once per byte of a match, which overflows
/// a debug build's stack on a long string with escapes.
#[cfg(test)]
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
enum QuotedTok {
    #[token("${")]
    #[token("${~")]
    Interp,
    #[token("%{")]
    #[token("%{~")]
    Control,
    #[token("\"")]
    Close,
    #[regex(r#"([^"\\$%\r\n]|\\[^\r\n])+"#)]
    #[token("$")]
    #[token("$${")]
    #[token("$${~")]
    #[token("%")]
    #[token("%%{")]
    #[token("%%{~")]
    Lit,
    #[regex(r"\r?\n")]
    Newline,
}

/// One entry of the mode stack.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Main {
        braces: u32,
    },
    Quoted,
    Heredoc {
        marker: (usize, usize),
        line_start: bool,
    },
    Bare {
        line_start: bool,
    },
}

/// Where the lexer puts its tokens: the public `Vec<Token>` or the
/// parser's compact [`Tokens`].
trait Sink {
    fn with_capacity(capacity: usize) -> Self;
    /// Appends a token; offsets saturate like `TextRange::from_usize`.
    fn push_token(&mut self, kind: TokenKind, start: usize, end: usize);
    /// Called once, after the last token (which ends at `end`).
    fn finish(&mut self, end: usize);
}

fn clamp(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

impl Sink for Vec<Token> {
    fn with_capacity(capacity: usize) -> Self {
        Vec::with_capacity(capacity)
    }
    fn push_token(&mut self, kind: TokenKind, start: usize, end: usize) {
        // Built in place (the `TextRange` constructors are not inlined
        // across crates).
        self.push(Token {
            kind,
            range: TextRange {
                start: clamp(start),
                end: clamp(end),
            },
        });
    }
    fn finish(&mut self, _end: usize) {}
}

impl Sink for Tokens {
    fn with_capacity(capacity: usize) -> Self {
        Tokens::with_capacity(capacity)
    }
    fn push_token(&mut self, kind: TokenKind, start: usize, _end: usize) {
        // A token ends where the next starts: only the last end is kept.
        self.push(kind, clamp(start));
    }
    fn finish(&mut self, end: usize) {
        self.set_end(clamp(end));
    }
}

struct Lexer<'a, S> {
    text: &'a str,
    pos: usize,
    modes: Vec<Mode>,
    tokens: S,
}

/// Lexes `text` as a file or expression: every token, trivia included, in
/// order, covering the input exactly.
pub fn lex(text: &str) -> Vec<Token> {
    run(text, Mode::Main { braces: 0 })
}

/// [`lex`], into the compact form the parser keeps.
pub(crate) fn lex_compact(text: &str) -> Tokens {
    run(text, Mode::Main { braces: 0 })
}

/// Lexes `text` as a bare template (see [`crate::parse_template`]).
pub(crate) fn lex_template(text: &str) -> Tokens {
    run(text, Mode::Bare { line_start: true })
}

fn run<S: Sink>(text: &str, bottom: Mode) -> S {
    let mut lexer = Lexer {
        text,
        pos: 0,
        modes: {
            // Room for a few nested templates without growing.
            let mut modes = Vec::with_capacity(8);
            modes.push(bottom);
            modes
        },
        // Typical PCL has a token per three to four bytes, dense files
        // (short names, many operators) up to one per two; the untouched
        // tail of a large reservation is never paged in.
        tokens: S::with_capacity(text.len() / 2 + 8),
    };
    if text.starts_with('\u{feff}') {
        lexer.push(TokenKind::Bom, 3);
    }
    while lexer.pos < text.len() {
        match lexer.modes.last().copied() {
            Some(Mode::Main { .. }) | None => lexer.main_tokens(),
            Some(Mode::Quoted) => {
                let before = lexer.pos;
                lexer.quoted_token();
                lexer.ensure_progress(before);
            }
            Some(Mode::Heredoc { marker, line_start }) => {
                let before = lexer.pos;
                lexer.heredoc_token(marker, line_start);
                lexer.ensure_progress(before);
            }
            Some(Mode::Bare { line_start }) => {
                let before = lexer.pos;
                lexer.bare_token(line_start);
                lexer.ensure_progress(before);
            }
        }
    }
    lexer.tokens.finish(lexer.pos);
    lexer.tokens
}

impl<'a, S: Sink> Lexer<'a, S> {
    fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn push(&mut self, kind: TokenKind, len: usize) {
        let end = (self.pos + len).min(self.text.len());
        self.tokens.push_token(kind, self.pos, end);
        self.pos = end;
    }

    /// Defensive: never loop without progress.
    fn ensure_progress(&mut self, before: usize) {
        if self.pos == before {
            let len = self.rest().chars().next().map_or(1, char::len_utf8);
            self.push(TokenKind::Invalid, len);
        }
    }

    fn pop_mode(&mut self) {
        if self.modes.len() > 1 {
            self.modes.pop();
        }
    }

    fn set_line_start(&mut self, value: bool) {
        match self.modes.last_mut() {
            Some(Mode::Heredoc { line_start, .. }) | Some(Mode::Bare { line_start }) => {
                *line_start = value
            }
            _ => {}
        }
    }

    /// Main-mode tokens, until one pushes or pops a mode or the input
    /// ends. The most frequent tokens are decided in this loop; each arm
    /// produces exactly what [`Lexer::main_token`] (the general path, taken
    /// for everything else) would.
    fn main_tokens(&mut self) {
        let text = self.text;
        let bytes = text.as_bytes();
        let depth = self.modes.len();
        while let Some(&first) = bytes.get(self.pos) {
            let rest = bytes.get(self.pos..).unwrap_or(&[]);
            let (kind, len) = match first {
                b' ' | b'\t' => {
                    // Most runs are one space between two tokens.
                    let blanks = match rest.get(1) {
                        Some(b' ' | b'\t') => rest
                            .iter()
                            .skip(2)
                            .position(|b| !matches!(b, b' ' | b'\t'))
                            .map_or(rest.len(), |n| n + 2),
                        _ => 1,
                    };
                    (TokenKind::Whitespace, blanks)
                }
                b'\n' => (TokenKind::Newline, 1),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    let ascii = rest
                        .iter()
                        .skip(1)
                        .position(|&b| !IDENT_CONTINUE[usize::from(b)])
                        .map_or(rest.len(), |n| n + 1);
                    let tail = match rest.get(ascii) {
                        Some(b) if !b.is_ascii() => {
                            ident_continue_len(text.get(self.pos + ascii..).unwrap_or(""))
                        }
                        _ => 0,
                    };
                    (TokenKind::Ident, ascii + tail)
                }
                b'[' => (TokenKind::OBrack, 1),
                b']' => (TokenKind::CBrack, 1),
                b'(' => (TokenKind::OParen, 1),
                b')' => (TokenKind::CParen, 1),
                b',' => (TokenKind::Comma, 1),
                b'{' => {
                    if let Some(Mode::Main { braces }) = self.modes.last_mut() {
                        *braces += 1;
                    }
                    (TokenKind::OBrace, 1)
                }
                b'}' => {
                    if self.close_brace(1) {
                        return;
                    }
                    continue;
                }
                b'"' => {
                    self.push(TokenKind::OQuote, 1);
                    self.modes.push(Mode::Quoted);
                    return;
                }
                b'=' if !matches!(rest.get(1), Some(b'=' | b'>')) => (TokenKind::Equal, 1),
                b'.' if rest.get(1) != Some(&b'.') => (TokenKind::Dot, 1),
                b'0'..=b'9' => (TokenKind::NumberLit, number_len(rest)),
                // Comments are scanned here, not by the DFA, whose
                // generated code recurses once per byte in a debug build (a
                // long comment overflowed the stack).
                b'#' => (TokenKind::HashComment, line_comment_len(rest)),
                b'/' if rest.get(1) == Some(&b'/') => {
                    (TokenKind::SlashComment, line_comment_len(rest))
                }
                _ => {
                    let before = self.pos;
                    self.main_token();
                    self.ensure_progress(before);
                    if self.modes.len() != depth {
                        return;
                    }
                    continue;
                }
            };
            self.push(kind, len);
        }
    }

    /// One main-mode token that [`Lexer::main_tokens`] does not decide
    /// itself: a quote, a heredoc introducer, a block comment, a closing
    /// brace, an operator, a non-ASCII identifier or an invalid character.
    fn main_token(&mut self) {
        let rest = self.rest();
        let bytes = rest.as_bytes();
        match bytes.first() {
            Some(b'"') => {
                self.push(TokenKind::OQuote, 1);
                self.modes.push(Mode::Quoted);
                return;
            }
            Some(b'<') if bytes.get(1) == Some(&b'<') => {
                if let Some((len, marker)) = heredoc_intro(rest) {
                    let marker = (self.pos + marker.0, self.pos + marker.1);
                    self.push(TokenKind::OHeredoc, len);
                    self.modes.push(Mode::Heredoc {
                        marker,
                        line_start: true,
                    });
                    return;
                }
            }
            Some(b'/') if bytes.get(1) == Some(&b'*') => {
                // An unterminated `/*` is not a comment: it lexes as `/` `*`.
                if let Some(end) = rest.get(2..).and_then(|tail| tail.find("*/")) {
                    return self.push(TokenKind::BlockComment, end + 4);
                }
            }
            _ => {}
        }
        let mut logos = MainTok::lexer(rest);
        let Some(result) = logos.next() else { return };
        let len = logos.span().end;
        let tok = match result {
            Ok(tok) => tok,
            Err(()) => return self.main_fallback(rest),
        };
        let kind = match tok {
            MainTok::Whitespace => TokenKind::Whitespace,
            MainTok::Newline => TokenKind::Newline,
            MainTok::HashComment => TokenKind::HashComment,
            MainTok::SlashComment => TokenKind::SlashComment,
            MainTok::Ident => TokenKind::Ident,
            MainTok::OBrace => {
                if let Some(Mode::Main { braces }) = self.modes.last_mut() {
                    *braces += 1;
                }
                TokenKind::OBrace
            }
            MainTok::CBrace | MainTok::TildeCBrace => {
                self.close_brace(len);
                return;
            }
            MainTok::OBrack => TokenKind::OBrack,
            MainTok::CBrack => TokenKind::CBrack,
            MainTok::OParen => TokenKind::OParen,
            MainTok::CParen => TokenKind::CParen,
            MainTok::Star => TokenKind::Star,
            MainTok::Slash => TokenKind::Slash,
            MainTok::Plus => TokenKind::Plus,
            MainTok::Minus => TokenKind::Minus,
            MainTok::Percent => TokenKind::Percent,
            MainTok::Equal => TokenKind::Equal,
            MainTok::EqualOp => TokenKind::EqualOp,
            MainTok::NotEqual => TokenKind::NotEqual,
            MainTok::LessThan => TokenKind::LessThan,
            MainTok::LessThanEq => TokenKind::LessThanEq,
            MainTok::GreaterThan => TokenKind::GreaterThan,
            MainTok::GreaterThanEq => TokenKind::GreaterThanEq,
            MainTok::And => TokenKind::And,
            MainTok::Or => TokenKind::Or,
            MainTok::Bang => TokenKind::Bang,
            MainTok::Dot => TokenKind::Dot,
            MainTok::Comma => TokenKind::Comma,
            MainTok::Question => TokenKind::Question,
            MainTok::Colon => TokenKind::Colon,
            MainTok::DoubleColon => TokenKind::DoubleColon,
            MainTok::Ellipsis => TokenKind::Ellipsis,
            MainTok::FatArrow => TokenKind::FatArrow,
            MainTok::Quote => {
                self.push(TokenKind::OQuote, len);
                self.modes.push(Mode::Quoted);
                return;
            }
            MainTok::BitwiseAnd => TokenKind::BitwiseAnd,
            MainTok::BitwiseOr => TokenKind::BitwiseOr,
            MainTok::BitwiseXor => TokenKind::BitwiseXor,
            MainTok::BitwiseNot => TokenKind::BitwiseNot,
            MainTok::Apostrophe => TokenKind::Apostrophe,
            MainTok::Backtick => TokenKind::Backtick,
            MainTok::Semicolon => TokenKind::Semicolon,
        };
        self.push(kind, len);
    }

    /// A character the main DFA does not know: a non-ASCII identifier, or
    /// an invalid character.
    /// A `}` (`len` 1) or `~}` (`len` 2) in main mode: closes the
    /// enclosing `${`/`%{` when no `{` of its own is open (a
    /// `TemplateSeqEnd`, popping the mode; returns true), else closes a
    /// `{` (a `CBrace`; a `~}` is a `TemplateSeqEnd` either way).
    fn close_brace(&mut self, len: usize) -> bool {
        let nested = self.modes.len() > 1;
        let mut close_seq = false;
        if let Some(Mode::Main { braces }) = self.modes.last_mut() {
            if *braces == 0 && nested {
                close_seq = true;
            } else {
                *braces = braces.saturating_sub(1);
            }
        }
        if close_seq {
            self.push(TokenKind::TemplateSeqEnd, len);
            self.pop_mode();
            return true;
        }
        let kind = if len == 2 {
            TokenKind::TemplateSeqEnd
        } else {
            TokenKind::CBrace
        };
        self.push(kind, len);
        false
    }

    fn main_fallback(&mut self, rest: &str) {
        let Some(ch) = rest.chars().next() else {
            return;
        };
        if unicode_ident::is_xid_start(ch) {
            let tail = rest.get(ch.len_utf8()..).unwrap_or("");
            let len = ch.len_utf8() + ident_continue_len(tail);
            self.push(TokenKind::Ident, len);
        } else {
            self.push(TokenKind::Invalid, ch.len_utf8());
        }
    }

    /// One token of a quoted template, scanned by hand exactly as the
    /// `QuotedTok` DFA (the tests compare them) would.
    fn quoted_token(&mut self) {
        let bytes = self.rest().as_bytes();
        let Some(&first) = bytes.first() else { return };
        match first {
            b'"' => {
                self.push(TokenKind::CQuote, 1);
                self.pop_mode();
            }
            b'\n' | b'\r' if first == b'\n' || bytes.get(1) == Some(&b'\n') => {
                // A raw line break ends the string here; the parser reports
                // the unterminated string and the next line lexes normally.
                self.push(TokenKind::Newline, if first == b'\n' { 1 } else { 2 });
                self.pop_mode();
            }
            b'$' | b'%' => {
                let second = bytes.get(1).copied();
                let tilde_at = |idx: usize| usize::from(bytes.get(idx) == Some(&b'~'));
                if second == Some(b'{') {
                    let kind = if first == b'$' {
                        TokenKind::TemplateInterp
                    } else {
                        TokenKind::TemplateControl
                    };
                    self.push(kind, 2 + tilde_at(2));
                    self.modes.push(Mode::Main { braces: 0 });
                } else if second == Some(first) && bytes.get(2) == Some(&b'{') {
                    // `$${` / `%%{` (with an optional `~`): escaped openers.
                    self.push(TokenKind::QuotedLit, 3 + tilde_at(3));
                } else {
                    self.push(TokenKind::QuotedLit, 1);
                }
            }
            _ => match quoted_lit_len(bytes) {
                0 => {
                    // A lone `\r`, or a backslash before a line break or at
                    // the end of input.
                    let ch_len = self.rest().chars().next().map_or(1, char::len_utf8);
                    self.push(TokenKind::Invalid, ch_len);
                }
                len => self.push(TokenKind::QuotedLit, len),
            },
        }
    }

    fn heredoc_token(&mut self, marker: (usize, usize), line_start: bool) {
        if line_start {
            let rest = self.rest();
            let line_len = rest.find('\n').map(|idx| idx + 1);
            if let Some(line_len) = line_len {
                let line = rest.get(..line_len).unwrap_or("");
                let content = line.strip_suffix('\n').unwrap_or(line);
                let content = content.strip_suffix('\r').unwrap_or(content);
                let marker_text = self.text.get(marker.0..marker.1).unwrap_or("");
                if content.trim_matches(is_unicode_space) == marker_text {
                    let content_len = content.len();
                    self.push(TokenKind::CHeredoc, content_len);
                    self.push(TokenKind::Newline, line_len - content_len);
                    self.pop_mode();
                    return;
                }
            }
        }
        self.template_chunk();
    }

    fn bare_token(&mut self, _line_start: bool) {
        self.template_chunk();
    }

    /// One chunk of heredoc or bare template text: a sequence opener, an
    /// escaped opener, a lone `$`/`%`, or a run of other text up to and
    /// including the end of the line.
    fn template_chunk(&mut self) {
        let rest = self.rest();
        let bytes = rest.as_bytes();
        match bytes.first() {
            Some(b'$') | Some(b'%') => {
                let sigil = bytes.first().copied().unwrap_or(b'$');
                let second = bytes.get(1).copied();
                if second == Some(b'{') {
                    let kind = if sigil == b'$' {
                        TokenKind::TemplateInterp
                    } else {
                        TokenKind::TemplateControl
                    };
                    let len = if bytes.get(2) == Some(&b'~') { 3 } else { 2 };
                    self.push(kind, len);
                    self.set_line_start(false);
                    self.modes.push(Mode::Main { braces: 0 });
                } else if second == Some(sigil) && bytes.get(2) == Some(&b'{') {
                    let len = if bytes.get(3) == Some(&b'~') { 4 } else { 3 };
                    self.push(TokenKind::StringLit, len);
                    self.set_line_start(false);
                } else {
                    self.push(TokenKind::StringLit, 1);
                    self.set_line_start(false);
                }
            }
            Some(_) => {
                let stop = TEMPLATE_STOP.find(bytes);
                let ends_line = bytes.get(stop) == Some(&b'\n');
                let len = if ends_line { stop + 1 } else { stop };
                self.push(TokenKind::StringLit, len);
                self.set_line_start(ends_line);
            }
            None => {}
        }
    }
}

/// A set of bytes to stop at: some ASCII bytes and, optionally, every
/// non-ASCII byte. [`ByteSet::find`] tests the first 16 bytes one at a
/// time (a table load each) and the rest eight at a time (SWAR: a byte
/// equal to `t` is a zero byte of `word ^ t * 0x01…01`, found with the
/// usual "has a zero byte" bit trick), so long literal text and comments
/// cost about one instruction per byte.
pub(crate) struct ByteSet<const N: usize> {
    targets: [u8; N],
    non_ascii: bool,
    table: [bool; 256],
}

impl<const N: usize> ByteSet<N> {
    pub(crate) const fn new(targets: [u8; N], non_ascii: bool) -> ByteSet<N> {
        let mut table = [false; 256];
        let mut idx = 0;
        while idx < N {
            table[targets[idx] as usize] = true;
            idx += 1;
        }
        if non_ascii {
            let mut b = 0x80;
            while b < 256 {
                table[b] = true;
                b += 1;
            }
        }
        ByteSet {
            targets,
            non_ascii,
            table,
        }
    }

    fn scan(&self, bytes: &[u8]) -> Option<usize> {
        bytes.iter().position(|&b| self.table[usize::from(b)])
    }

    /// The index of the first byte of `bytes` in the set, or `bytes.len()`.
    #[inline(always)]
    pub(crate) fn find(&self, bytes: &[u8]) -> usize {
        const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
        // Short inputs (most strings) are not worth a word.
        let head = bytes.get(..16).unwrap_or(bytes);
        if let Some(idx) = self.scan(head) {
            return idx;
        }
        let mut offset = head.len();
        let rest = bytes.get(offset..).unwrap_or(&[]);
        for chunk in rest.chunks_exact(8) {
            let Ok(array) = <[u8; 8]>::try_from(chunk) else {
                break;
            };
            let word = u64::from_ne_bytes(array);
            let mut found = if self.non_ascii { word & HIGHS } else { 0 };
            for target in self.targets {
                let diff = word ^ (ONES * u64::from(target));
                found |= diff.wrapping_sub(ONES) & !diff & HIGHS;
            }
            if found != 0 {
                // Nonzero exactly when some byte is in the set (the trick
                // has false positives only above a real zero byte).
                return offset + self.scan(chunk).unwrap_or(8);
            }
            offset += 8;
        }
        let tail = bytes.get(offset..).unwrap_or(&[]);
        offset + self.scan(tail).unwrap_or(tail.len())
    }
}

/// Where quoted-template literal text stops (see [`quoted_lit_len`]).
static QUOTED_STOP: ByteSet<6> = ByteSet::new([b'"', b'$', b'%', b'\r', b'\n', b'\\'], false);
/// Where heredoc and bare-template text stops.
static TEMPLATE_STOP: ByteSet<3> = ByteSet::new([b'$', b'%', b'\n'], false);
/// Where a line comment stops.
static LINE_END: ByteSet<1> = ByteSet::new([b'\n'], false);

/// Length of the literal text at the start of a quoted template's
/// `bytes`: characters other than `"`, `\\`, `$`, `%` and line breaks, and
/// backslash escapes (a backslash and any character but a line break).
/// A loop, so that a long string costs no stack.
fn quoted_lit_len(bytes: &[u8]) -> usize {
    let mut len = 0;
    loop {
        let rest = bytes.get(len..).unwrap_or(&[]);
        len += QUOTED_STOP.find(rest);
        // The escaped character's UTF-8 continuation bytes (if any) are
        // taken by the next round: none of them is special.
        match (bytes.get(len), bytes.get(len + 1)) {
            (Some(b'\\'), Some(next)) if !matches!(next, b'\r' | b'\n') => len += 2,
            _ => return len,
        }
    }
}

/// Length of a `#` or `//` comment at the start of `bytes`: up to and
/// including its line break, if any.
fn line_comment_len(bytes: &[u8]) -> usize {
    let stop = LINE_END.find(bytes);
    if stop < bytes.len() {
        stop + 1
    } else {
        stop
    }
}

/// ASCII identifier-continue bytes (`[A-Za-z0-9_-]`), as a table.
static IDENT_CONTINUE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'-');
        b += 1;
    }
    table
};

/// Length of the greedy number lexeme at the start of `bytes` (which starts
/// with a digit): digits, `e`/`E` with an optional sign and a digit, and
/// dots, but never ending with a dot.
fn number_len(bytes: &[u8]) -> usize {
    let exponent_at = |idx: usize| -> Option<usize> {
        match bytes.get(idx) {
            Some(b'e') | Some(b'E') => match bytes.get(idx + 1) {
                Some(b'0'..=b'9') => Some(2),
                Some(b'+') | Some(b'-') if bytes.get(idx + 2).is_some_and(u8::is_ascii_digit) => {
                    Some(3)
                }
                _ => None,
            },
            _ => None,
        }
    };
    let mut len = 1;
    loop {
        match bytes.get(len) {
            Some(b'0'..=b'9') => len += 1,
            Some(b'.') => {
                let mut after = len;
                while bytes.get(after) == Some(&b'.') {
                    after += 1;
                }
                if bytes.get(after).is_some_and(u8::is_ascii_digit) {
                    len = after + 1;
                } else if let Some(exp) = exponent_at(after) {
                    len = after + exp;
                } else {
                    return len;
                }
            }
            _ => match exponent_at(len) {
                Some(exp) => len += exp,
                None => return len,
            },
        }
    }
}

/// Go's `unicode.IsSpace`.
pub(crate) fn is_unicode_space(ch: char) -> bool {
    matches!(
        ch,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}'
    ) || (ch > '\u{ff}' && ch.is_whitespace())
}

/// Matches `<<ID⏎` or `<<-ID⏎` at the start of `rest`: returns the token
/// length and the marker's byte range relative to `rest`.
fn heredoc_intro(rest: &str) -> Option<(usize, (usize, usize))> {
    let after = rest.strip_prefix("<<")?;
    let (after, dash) = match after.strip_prefix('-') {
        Some(tail) => (tail, 1),
        None => (after, 0),
    };
    let first = after.chars().next()?;
    if !(first == '_' || unicode_ident::is_xid_start(first)) {
        return None;
    }
    let ident_len = first.len_utf8() + ident_continue_len(after.get(first.len_utf8()..)?);
    let marker_start = 2 + dash;
    let tail = after.get(ident_len..)?;
    let newline_len = if tail.starts_with("\r\n") {
        2
    } else if tail.starts_with('\n') {
        1
    } else {
        return None;
    };
    Some((
        marker_start + ident_len + newline_len,
        (marker_start, marker_start + ident_len),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        lex(text).into_iter().map(|t| t.kind).collect()
    }

    fn covers(text: &str) {
        let tokens = lex(text);
        let mut pos = 0;
        for t in &tokens {
            assert_eq!(t.range.start, pos, "gap in {text:?}: {tokens:?}");
            pos = t.range.end;
        }
        assert_eq!(pos as usize, text.len());
    }

    #[test]
    fn basic_tokens() {
        use TokenKind::*;
        assert_eq!(
            kinds("a = 1.5e3 # c\n"),
            vec![
                Ident,
                Whitespace,
                Equal,
                Whitespace,
                NumberLit,
                Whitespace,
                HashComment
            ]
        );
        assert_eq!(kinds("a-1"), vec![Ident]);
        assert_eq!(kinds("1."), vec![NumberLit, Dot]);
        assert_eq!(kinds("1.2.3"), vec![NumberLit]);
        assert_eq!(kinds("/* x"), vec![Slash, Star, Whitespace, Ident]);
        assert_eq!(kinds("café=1"), vec![Ident, Equal, NumberLit]);
        assert_eq!(kinds("ñu"), vec![Ident]);
    }

    #[test]
    fn templates_and_braces() {
        use TokenKind::*;
        assert_eq!(
            kinds(r#""a${ {b=1}.b }c""#),
            vec![
                OQuote,
                QuotedLit,
                TemplateInterp,
                Whitespace,
                OBrace,
                Ident,
                Equal,
                NumberLit,
                CBrace,
                Dot,
                Ident,
                Whitespace,
                TemplateSeqEnd,
                QuotedLit,
                CQuote
            ]
        );
        assert_eq!(
            kinds("<<EOT\nhi ${x}\nEOT\n"),
            vec![
                OHeredoc,
                StringLit,
                TemplateInterp,
                Ident,
                TemplateSeqEnd,
                StringLit,
                CHeredoc,
                Newline
            ]
        );
        // `}` and `~}` at every brace depth, and stray ones at the top.
        assert_eq!(
            kinds(r#""${ {} ~}${x~}""#),
            vec![
                OQuote,
                TemplateInterp,
                Whitespace,
                OBrace,
                CBrace,
                Whitespace,
                TemplateSeqEnd,
                TemplateInterp,
                Ident,
                TemplateSeqEnd,
                CQuote
            ]
        );
        assert_eq!(
            kinds("}{}}~}\"x\""),
            vec![
                CBrace,
                OBrace,
                CBrace,
                CBrace,
                TemplateSeqEnd,
                OQuote,
                QuotedLit,
                CQuote
            ]
        );
    }

    #[test]
    fn covers_everything() {
        for text in [
            "\u{feff}a = 1\r\n",
            "a = \"unterminated\nb = 2",
            "x = <<EOT\nno end",
            "\u{0}\u{a0}$@\\",
            "\"\\",
            "a = \"${\"${\"x\"}\"}\"",
            "~} } { ${",
        ] {
            covers(text);
        }
    }

    /// `ByteSet::find` agrees with a plain scan, wherever the first match is
    /// (within or after the first 8-byte word, in the tail) and with
    /// bytes that borrow in the bit trick (0x00, 0x01, 0x80, 0xff).
    #[test]
    fn byte_set_matches_a_plain_scan() {
        let fill = [b'a', 0x00, 0x01, 0x7f, b'#', 0xfe];
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for len in 0..40 {
            for &f in &fill {
                for at in 0..=len {
                    for &hit in &[b'$', b'\n', 0x80, 0xc3, f] {
                        let mut bytes = vec![f; len];
                        if let Some(slot) = bytes.get_mut(at) {
                            *slot = hit;
                        }
                        cases.push(bytes);
                    }
                }
            }
        }
        for bytes in &cases {
            let plain = |non_ascii: bool| {
                bytes
                    .iter()
                    .position(|b| matches!(b, b'$' | b'\n') || (non_ascii && !b.is_ascii()))
                    .unwrap_or(bytes.len())
            };
            let ascii = ByteSet::new([b'$', b'\n'], false);
            let any = ByteSet::new([b'$', b'\n'], true);
            assert_eq!(ascii.find(bytes), plain(false), "{bytes:?}");
            assert_eq!(any.find(bytes), plain(true), "{bytes:?}");
        }
    }

    /// Line comments, scanned by hand, match `MainTok`'s regexes.
    #[test]
    fn comments_match_the_dfa() {
        for text in [
            "# a\nb",
            "#",
            "#\r\n",
            "// x\r\ny",
            "//",
            "// \u{e9} é\n\n",
            "#//\n",
        ] {
            let mut dfa = MainTok::lexer(text);
            let want = dfa
                .next()
                .and_then(Result::ok)
                .map(|tok| (tok, dfa.span().end));
            let got = lex(text).first().map(|t| {
                let tok = if t.kind == TokenKind::HashComment {
                    MainTok::HashComment
                } else {
                    MainTok::SlashComment
                };
                (tok, t.range.end as usize)
            });
            assert_eq!(got, want, "{text:?}");
        }
    }

    /// The hand-written quoted-string scanner splits string contents
    /// exactly like the `QuotedTok` DFA.
    #[test]
    fn quoted_scanner_matches_the_dfa() {
        let bodies = [
            "a\\\"b\\\\c",
            "\u{e9}\\\u{e9}x",
            "x\ry",
            "\r",
            "a\\\r\nb",
            "$",
            "%",
            "$$",
            "%%{~x",
            "$${~",
            "${~x}",
            "%{~ if x }",
            "$%{",
            "a\\",
            "plain text",
            "a\\nb",
            "\\\"x\\\"",
            "cost 5% or $5",
            "$${x} %%{y} $",
            "ab\\",
            "tab\\tend\\u00e9 \u{e9}t\u{e9}",
            "line\r\nnext",
            "x\\",
            "",
        ];
        for body in bodies {
            // The DFA alone, up to the closing quote or a line break.
            let quoted = format!("{body}\"");
            let mut want = Vec::new();
            let mut pos = 0;
            while let Some(rest) = quoted.get(pos..).filter(|r| !r.is_empty()) {
                let mut dfa = QuotedTok::lexer(rest);
                let Some(result) = dfa.next() else { break };
                let len = dfa.span().end;
                let kind = match result {
                    Ok(QuotedTok::Lit) => TokenKind::QuotedLit,
                    Ok(QuotedTok::Newline) => TokenKind::Newline,
                    Ok(QuotedTok::Interp) => TokenKind::TemplateInterp,
                    Ok(QuotedTok::Control) => TokenKind::TemplateControl,
                    Ok(QuotedTok::Close) => TokenKind::CQuote,
                    Err(()) => TokenKind::Invalid,
                };
                want.push((kind, pos, pos + len.max(1)));
                pos += len.max(1);
                if matches!(
                    kind,
                    TokenKind::Newline
                        | TokenKind::TemplateInterp
                        | TokenKind::TemplateControl
                        | TokenKind::CQuote
                ) {
                    break;
                }
            }
            let text = format!("\"{body}\"");
            let got: Vec<(TokenKind, usize, usize)> = lex(&text)
                .into_iter()
                .skip(1)
                .take(want.len())
                .map(|t| (t.kind, t.range.start as usize - 1, t.range.end as usize - 1))
                .collect();
            assert_eq!(got, want, "{body:?}");
        }
    }
}
