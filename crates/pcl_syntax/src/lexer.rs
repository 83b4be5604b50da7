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
//! just pushing or popping. Frequent main-mode tokens (in one loop with
//! the position in a local and the tokens gathered in a fixed batch; a
//! plain string costs no mode switch), comments and all of quoted mode are
//! scanned by hand (long runs eight bytes at a time); the rest of main
//! mode (operators, `~}`, `\r\n`) uses a logos DFA. Hand scanning matters beyond speed: logos's generated code calls
//! itself once per byte of a match, which overflows a debug build's stack
//! on a multi-megabyte string or comment. The DFAs (`MainTok`, and
//! `QuotedTok` in tests) are the reference the hand scanners are tested
//! against. The lexer never fails: every byte ends up in exactly one token, and
//! anything unusable becomes an error token (`Invalid`, `Semicolon`, …)
//! that the parser reports.

use logos::Logos;

use crate::token::{Token, TokenKind, Tokens};

mod scan;
mod sink;

use scan::*;
pub(crate) use scan::{is_unicode_space, ByteSet};
use sink::{Batch, Sink, BATCH};

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

/// A main-mode token at `pos` that neither opens nor closes anything
/// (an operator, a block comment, a non-ASCII identifier or an invalid
/// character): its kind and length, exactly as [`Lexer::main_token`]
/// would push it. `None` for everything else (quotes, heredoc
/// introducers, braces, `~}`), which the general path lexes.
fn simple_token(text: &str, pos: usize) -> Option<(TokenKind, usize)> {
    let rest = text.get(pos..)?;
    let bytes = rest.as_bytes();
    match bytes.first()? {
        b'"' | b'{' | b'}' => return None,
        b'<' if bytes.get(1) == Some(&b'<') => return None,
        b'/' if bytes.get(1) == Some(&b'*') => {
            // An unterminated `/*` is not a comment: it lexes as `/` `*`.
            if let Some(end) = rest.get(2..).and_then(|tail| tail.find("*/")) {
                return Some((TokenKind::BlockComment, end + 4));
            }
        }
        _ => {}
    }
    let mut logos = MainTok::lexer(rest);
    let result = logos.next()?;
    let len = logos.span().end;
    let kind = match result {
        Ok(tok) => simple_kind(tok)?,
        Err(()) => {
            let ch = rest.chars().next()?;
            if unicode_ident::is_xid_start(ch) {
                let tail = rest.get(ch.len_utf8()..).unwrap_or("");
                return Some((TokenKind::Ident, ch.len_utf8() + ident_continue_len(tail)));
            }
            return Some((TokenKind::Invalid, ch.len_utf8()));
        }
    };
    // Every token is at least one byte long (`ensure_progress`).
    (len > 0).then_some((kind, len))
}

/// The kind of a DFA token that changes no mode or brace count.
fn simple_kind(tok: MainTok) -> Option<TokenKind> {
    Some(match tok {
        MainTok::OBrace | MainTok::CBrace | MainTok::TildeCBrace | MainTok::Quote => return None,
        MainTok::Whitespace => TokenKind::Whitespace,
        MainTok::Newline => TokenKind::Newline,
        MainTok::HashComment => TokenKind::HashComment,
        MainTok::SlashComment => TokenKind::SlashComment,
        MainTok::Ident => TokenKind::Ident,
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
        MainTok::BitwiseAnd => TokenKind::BitwiseAnd,
        MainTok::BitwiseOr => TokenKind::BitwiseOr,
        MainTok::BitwiseXor => TokenKind::BitwiseXor,
        MainTok::BitwiseNot => TokenKind::BitwiseNot,
        MainTok::Apostrophe => TokenKind::Apostrophe,
        MainTok::Backtick => TokenKind::Backtick,
        MainTok::Semicolon => TokenKind::Semicolon,
    })
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

struct Lexer<'a, S> {
    text: &'a str,
    pos: usize,
    modes: Vec<Mode>,
    tokens: S,
    /// The main loop's batch, empty outside it (here rather than a local
    /// so that its arrays are initialised once per input, not per call).
    batch: Batch,
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
        batch: Batch::new(),
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
    /// ends. The most frequent tokens are decided in this loop, with the
    /// position and the brace count in locals and the tokens gathered in a
    /// [`Batch`]; each arm produces exactly what [`Lexer::main_token`]
    /// (the general path) would. Operators and other DFA tokens that
    /// change no state go into the batch too ([`simple_token`]); the
    /// general path is left for quotes it cannot finish, heredoc
    /// introducers and `~}`. A quoted
    /// string without sequences or line breaks is lexed here too (its
    /// `QuotedLit` is what [`Lexer::quoted_token`] would produce), so that
    /// most strings cost no mode switch.
    fn main_tokens(&mut self) {
        let text = self.text;
        let bytes = text.as_bytes();
        let depth = self.modes.len();
        let mut pos = self.pos;
        // How many tokens the batch holds.
        let mut n = 0;
        let mut braces = match self.modes.last() {
            Some(Mode::Main { braces }) => *braces,
            _ => 0,
        };
        loop {
            // Room for the three tokens of a plain string.
            if n > BATCH - 3 {
                self.batch.flush(n, &mut self.tokens, pos);
                n = 0;
            }
            let Some(&first) = bytes.get(pos) else { break };
            let mut start = pos;
            let kind = match first {
                b' ' | b'\t' => {
                    pos = blanks_end(bytes, pos + 1);
                    TokenKind::Whitespace
                }
                b'\n' => {
                    pos += 1;
                    TokenKind::Newline
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    pos = ident_end(text, pos + 1);
                    TokenKind::Ident
                }
                b'[' | b']' | b'(' | b')' | b',' => {
                    pos += 1;
                    PUNCT[usize::from(first)]
                }
                b'{' => {
                    braces = braces.saturating_add(1);
                    pos += 1;
                    TokenKind::OBrace
                }
                b'}' if braces > 0 || depth <= 1 => {
                    braces = braces.saturating_sub(1);
                    pos += 1;
                    TokenKind::CBrace
                }
                b'"' => {
                    n = self.batch.put(n, TokenKind::OQuote, pos);
                    pos += 1;
                    let rest = bytes.get(pos..).unwrap_or(&[]);
                    let lit = quoted_lit_len(rest);
                    if lit > 0 {
                        n = self.batch.put(n, TokenKind::QuotedLit, pos);
                        pos += lit;
                    }
                    if rest.get(lit) != Some(&b'"') {
                        // A sequence, a line break or an invalid
                        // character: quoted mode takes over.
                        self.batch.flush(n, &mut self.tokens, pos);
                        self.pos = pos;
                        self.set_braces(braces);
                        self.modes.push(Mode::Quoted);
                        return;
                    }
                    start = pos;
                    pos += 1;
                    TokenKind::CQuote
                }
                b'=' if !matches!(bytes.get(pos + 1), Some(b'=' | b'>')) => {
                    pos += 1;
                    TokenKind::Equal
                }
                b'.' if bytes.get(pos + 1) != Some(&b'.') => {
                    pos += 1;
                    TokenKind::Dot
                }
                b'0'..=b'9' => {
                    pos += number_len(bytes.get(pos..).unwrap_or(&[]));
                    TokenKind::NumberLit
                }
                // Comments are scanned here, not by the DFA, whose
                // generated code recurses once per byte in a debug build (a
                // long comment overflowed the stack).
                b'#' => {
                    pos += line_comment_len(bytes.get(pos..).unwrap_or(&[]));
                    TokenKind::HashComment
                }
                b'/' if bytes.get(pos + 1) == Some(&b'/') => {
                    pos += line_comment_len(bytes.get(pos..).unwrap_or(&[]));
                    TokenKind::SlashComment
                }
                b'}' => {
                    // Closes the enclosing `${`/`%{` (see `close_brace`).
                    n = self.batch.put(n, TokenKind::TemplateSeqEnd, pos);
                    self.batch.flush(n, &mut self.tokens, pos + 1);
                    self.pos = pos + 1;
                    self.pop_mode();
                    return;
                }
                _ => {
                    if let Some((kind, len)) = simple_token(text, pos) {
                        pos += len;
                        kind
                    } else {
                        // The general path, with the state written back.
                        self.batch.flush(n, &mut self.tokens, pos);
                        n = 0;
                        self.pos = pos;
                        self.set_braces(braces);
                        self.main_token();
                        self.ensure_progress(start);
                        if self.modes.len() != depth {
                            return;
                        }
                        pos = self.pos;
                        braces = match self.modes.last() {
                            Some(Mode::Main { braces }) => *braces,
                            _ => 0,
                        };
                        continue;
                    }
                }
            };
            n = self.batch.put(n, kind, start);
        }
        self.batch.flush(n, &mut self.tokens, pos);
        self.pos = pos;
        self.set_braces(braces);
    }

    /// Writes the main loop's brace count back to the mode stack.
    fn set_braces(&mut self, value: u32) {
        if let Some(Mode::Main { braces }) = self.modes.last_mut() {
            *braces = value;
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
            MainTok::Quote => {
                self.push(TokenKind::OQuote, len);
                self.modes.push(Mode::Quoted);
                return;
            }
            other => match simple_kind(other) {
                Some(kind) => kind,
                // `simple_kind` knows every other token.
                None => TokenKind::Invalid,
            },
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

#[cfg(test)]
mod tests;
