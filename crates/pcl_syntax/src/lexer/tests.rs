//! Tests of the lexer: the hand scanners against the logos DFAs, modes,
//! and the invariants every token list keeps.

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

/// The eight-at-a-time mask's lowest set bit is exactly the first byte
/// quoted text stops at (and the mask is zero without one): every byte
/// value at every position of a word, next to fills that could borrow or
/// carry (0x00, 0x7f, 0x80, 0xff and stop bytes), and a second stop byte
/// after it.
#[test]
fn quoted_word_mask_matches_the_byte_test() {
    let is_stop = |b: &u8| matches!(b, b'"' | b'$' | b'%' | b'\r' | b'\n' | b'\\');
    for fill in [b'a', b'Z', b'#', b' ', 0x00, 0x7f, 0x80, 0xff, b'$', b'&'] {
        for at in 0..8 {
            for value in 0..=255u8 {
                for second in [None, Some(b'"'), Some(b'#'), Some(b'%')] {
                    let mut word = [fill; 8];
                    word[at] = value;
                    if let (Some(b), Some(slot)) = (second, word.get_mut(at + 1)) {
                        *slot = b;
                    }
                    let want = word
                        .iter()
                        .position(is_stop)
                        .map(|idx| 0x80u64 << (8 * idx));
                    let got = quoted_stops(u64::from_le_bytes(word));
                    let lowest = (got != 0).then(|| got & got.wrapping_neg());
                    assert_eq!(lowest, want, "{word:?}");
                }
            }
        }
    }
}

/// Identifiers and quoted text end at the same byte whether the stop is in
/// the first word, a later one or the partial tail.
#[test]
fn scanners_find_the_stop_in_every_position() {
    for len in 0..30 {
        let name = format!("a{}", "b".repeat(len));
        for stop in [" ", ".", "\u{e9}x", "\r", "", "#"] {
            let text = format!("{name}{stop}");
            let want = if stop == "\u{e9}x" {
                text.len()
            } else {
                name.len()
            };
            assert_eq!(ident_end(&text, 1), want, "{text:?}");
            let body = "c".repeat(len);
            let quoted = format!("{body}{stop}");
            let want = match stop {
                "\r" => len,
                _ => quoted.len(),
            };
            assert_eq!(quoted_lit_len(quoted.as_bytes()), want, "{quoted:?}");
        }
    }
}
