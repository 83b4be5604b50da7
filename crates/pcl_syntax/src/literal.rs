//! Decoding of literal tokens: quoted-string escapes, heredoc text and
//! numbers.
//!
//! Numbers keep their exact text (HCL numbers are arbitrary precision).
//! A plain integer literal (digits only) is computed exactly as a `BigInt`
//! whatever its width (`2^256`, a 309-digit `f64::MAX` written out, as
//! converters produce). An integral value written with an exponent or a
//! fraction (`1e3`, `2.50e1`) is exact when it fits in 256 bits; beyond
//! that, and for every fraction, the value is an `f64` approximation and
//! its exact value is the literal's text. The exponent is read with
//! saturation and sizes are estimated from digit counts first, so
//! `1e999999999` costs nothing; it is out of range only because its value
//! exceeds every finite float.
//!
//! Against denial of service, a literal longer than [`MAX_NUMBER_LEN`]
//! characters is `number-too-long` and is never converted (decimal to
//! binary conversion is quadratic in the digits; bounding the length keeps
//! the cost per source byte bounded).

use std::borrow::Cow;

use num_bigint::BigInt;
use num_traits::{One, Zero};

use crate::lexer::ByteSet;
use crate::tree::builder::NumberLit as NumberValue;

/// The widest integral value computed exactly from a literal written with
/// an exponent or a fraction (`1e77`), in bits. Plain integer literals have
/// no such bound (only [`MAX_NUMBER_LEN`]).
pub const MAX_EXPONENT_INT_BITS: u64 = 256;

/// The longest number literal accepted, in characters (digits, `.`,
/// exponent). Longer literals are `number-too-long`.
pub const MAX_NUMBER_LEN: usize = 10_000;

/// Why a number literal has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Not a valid decimal (`1.2.3`).
    Malformed,
    /// A value beyond every finite `f64` (`1e999999999`).
    OutOfRange,
    /// Longer than [`MAX_NUMBER_LEN`] characters (not looked at further).
    TooLong,
}

/// The value of a plain integer of at most 19 digits (most literals),
/// which always fits in a `u64`, accumulated in the same pass that checks
/// the digits; `None` for any other lexeme. [`parse_number`]'s fast path,
/// also taken without it where only such a value is wanted (the parser's
/// and the tree's number leaves: the general result, with its `BigInt`
/// variant, cost about 60 instructions more per number).
#[inline]
pub(crate) fn small_int(text: &str) -> Option<u64> {
    if text.len() > 19 || text.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for b in text.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        value = value * 10 + u64::from(b - b'0');
    }
    Some(value)
}

/// Parses a number lexeme.
pub fn parse_number(text: &str) -> Result<NumberValue, NumberError> {
    if text.len() > MAX_NUMBER_LEN {
        return Err(NumberError::TooLong);
    }
    if let Some(value) = small_int(text) {
        return Ok(NumberValue::Small(value));
    }
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(idx) => (
            text.get(..idx).unwrap_or(""),
            Some(text.get(idx + 1..).unwrap_or("")),
        ),
        None => (text, None),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((int, frac)) => (int, frac),
        None => (mantissa, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int_part.is_empty() || !all_digits(int_part) || !all_digits(frac_part) {
        return Err(NumberError::Malformed);
    }
    let exp: i64 = match exponent {
        None => 0,
        Some(exp) => {
            let (negative, digits) = match exp.as_bytes().first() {
                Some(b'+') => (false, exp.get(1..).unwrap_or("")),
                Some(b'-') => (true, exp.get(1..).unwrap_or("")),
                _ => (false, exp),
            };
            if digits.is_empty() || !all_digits(digits) {
                return Err(NumberError::Malformed);
            }
            let mut value: i64 = 0;
            for b in digits.bytes() {
                value = value.saturating_mul(10).saturating_add(i64::from(b - b'0'));
            }
            if negative {
                -value
            } else {
                value
            }
        }
    };
    let frac_trimmed = frac_part.trim_end_matches('0');
    if exponent.is_none() && !frac_trimmed.is_empty() {
        // A plain decimal with a fractional part (`12.34`): never integral,
        // so the f64 below, which Rust's parser rounds the same whether
        // given `12.34` or the rebuilt `12.34e0`.
        return match mantissa.parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(NumberValue::Fraction(value)),
            _ => Err(NumberError::OutOfRange),
        };
    }
    let digits: String = format!("{int_part}{frac_trimmed}");
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Ok(NumberValue::Int(BigInt::zero()));
    }
    let frac_len = i64::try_from(frac_trimmed.len()).unwrap_or(i64::MAX);
    let scale = exp.saturating_sub(frac_len);
    let plain_integer = exponent.is_none() && frac_part.is_empty() && !mantissa.contains('.');
    if plain_integer {
        // Digits only, at most `MAX_NUMBER_LEN` of them: exact.
        return digits
            .parse::<BigInt>()
            .map(NumberValue::Int)
            .map_err(|_| NumberError::Malformed);
    }
    if scale >= 0 {
        // 10^78 > 2^256: anything with more digits is not a 256-bit integer.
        let n_digits = i64::try_from(digits.len()).unwrap_or(i64::MAX);
        if n_digits.saturating_add(scale) <= 80 {
            let mantissa: BigInt = digits.parse().map_err(|_| NumberError::Malformed)?;
            let mut factor = BigInt::one();
            for _ in 0..scale {
                factor *= 10;
            }
            let value = mantissa * factor;
            if value.bits() <= MAX_EXPONENT_INT_BITS {
                return Ok(NumberValue::Int(value));
            }
        }
    }
    // A fraction, or an integral value written with an exponent or a
    // fraction that is too wide for an exact integer. Rebuild a plain form Rust's float parser accepts, with
    // the exponent clamped (any exponent beyond ±400 is 0 or infinite).
    let clamped = exp.clamp(-100_000, 100_000);
    let plain = format!(
        "{int_part}.{}e{clamped}",
        if frac_part.is_empty() { "0" } else { frac_part }
    );
    match plain.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(NumberValue::Fraction(value)),
        _ => Err(NumberError::OutOfRange),
    }
}

/// An escape problem in a quoted literal: byte offsets relative to the
/// token and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EscapeError {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

/// The message of a `number-out-of-range` diagnostic for `text` (cut
/// when long).
pub fn out_of_range_message(text: &str) -> String {
    format!(
        "`{}` cannot be represented: its magnitude is beyond the range of numbers",
        pcl_diagnostics::elide_quoted(text)
    )
}

/// The message of a `number-too-long` diagnostic for `text`: the literal is
/// cut, its length given.
pub fn too_long_message(text: &str) -> String {
    format!(
        "number literal `{}` is {} characters long: at most {MAX_NUMBER_LEN} are accepted",
        pcl_diagnostics::elide(text, 40),
        text.len()
    )
}

/// Does `raw` contain a backslash, `$` or `%` (which a quoted literal's decoding
/// must look at)? A byte scan: all three are ASCII.
pub(crate) fn has_escape_or_sigil(raw: &str) -> bool {
    static SPECIAL: ByteSet<3> = ByteSet::new([b'\\', b'$', b'%'], false);
    SPECIAL.find(raw.as_bytes()) < raw.len()
}

/// Decodes one quoted-template literal token (`\n`, `\uXXXX`, `$${`, …).
/// A token without escapes is its own value: `raw` is returned borrowed
/// (no copy), and only then.
pub fn decode_quoted<'a>(raw: &'a str, errors: &mut Vec<EscapeError>) -> Cow<'a, str> {
    if !has_escape_or_sigil(raw) {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices().peekable();
    while let Some((idx, ch)) = chars.next() {
        match ch {
            '\\' => {
                let Some((_, sel)) = chars.next() else {
                    errors.push(EscapeError {
                        start: idx,
                        end: idx + 1,
                        message: "a backslash must be followed by an escape character".into(),
                    });
                    break;
                };
                match sel {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    'u' | 'U' => {
                        let want = if sel == 'u' { 4 } else { 8 };
                        let mut hex = String::new();
                        let mut end = idx + 2;
                        while hex.len() < want {
                            match chars.peek() {
                                Some(&(pos, c)) if c.is_ascii_hexdigit() => {
                                    hex.push(c);
                                    end = pos + 1;
                                    chars.next();
                                }
                                _ => break,
                            }
                        }
                        if hex.len() < want {
                            errors.push(EscapeError {
                                start: idx,
                                end,
                                message: format!(
                                    "expected {want} hexadecimal digits after `\\{sel}`"
                                ),
                            });
                            continue;
                        }
                        match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                            Some(c) => out.push(c),
                            None => errors.push(EscapeError {
                                start: idx,
                                end,
                                message: format!("cannot encode character U+{hex} in UTF-8"),
                            }),
                        }
                    }
                    other => {
                        errors.push(EscapeError {
                            start: idx,
                            end: idx + 1 + other.len_utf8(),
                            message: format!(
                                "`\\{other}` is not a valid escape; expected one of \\n \\r \\t \\\" \\\\ \\uXXXX \\UXXXXXXXX"
                            ),
                        });
                        out.push(other);
                    }
                }
            }
            '$' | '%' => {
                out.push(ch);
                // `$${` -> `${`, `%%{` -> `%{`.
                let doubled = raw.get(idx + 1..).is_some_and(|rest| {
                    rest.starts_with(ch) && rest.get(1..).is_some_and(|r| r.starts_with('{'))
                });
                if doubled {
                    chars.next();
                }
            }
            other => out.push(other),
        }
    }
    Cow::Owned(out)
}

/// Decodes heredoc or bare-template text: only `$${` and `%%{` are
/// escapes. Text without them is returned borrowed (no copy), and only
/// then.
pub fn decode_heredoc(raw: &str) -> Cow<'_, str> {
    static SIGIL: ByteSet<2> = ByteSet::new([b'$', b'%'], false);
    if SIGIL.find(raw.as_bytes()) >= raw.len() || (!raw.contains("${") && !raw.contains("%{")) {
        return Cow::Borrowed(raw);
    }
    Cow::Owned(raw.replace("$${", "${").replace("%%{", "%{"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        let int = |s: &str| match parse_number(s) {
            Ok(NumberValue::Int(v)) => v.to_string(),
            Ok(NumberValue::Small(v)) => v.to_string(),
            other => format!("{other:?}"),
        };
        assert_eq!(int("007"), "7");
        assert_eq!(int("0"), "0");
        // The 19-digit fast path and the general path on either side of it.
        assert_eq!(int("0000000000000000001"), "1");
        assert_eq!(int("9999999999999999999"), "9999999999999999999");
        assert_eq!(int("18446744073709551615"), "18446744073709551615");
        assert_eq!(int("18446744073709551616"), "18446744073709551616");
        assert_eq!(parse_number("12a"), Err(NumberError::Malformed));
        assert_eq!(int("1e3"), "1000");
        assert_eq!(int("2.50e1"), "25");
        assert_eq!(int("1.e5"), "100000");
        assert_eq!(
            int("123456789012345678901234567890"),
            "123456789012345678901234567890"
        );
        assert_eq!(parse_number("1.2.3"), Err(NumberError::Malformed));
        assert_eq!(parse_number("1e999999999"), Err(NumberError::OutOfRange));
        assert_eq!(
            parse_number("1e99999999999999999999999999"),
            Err(NumberError::OutOfRange)
        );
        assert_eq!(parse_number("1.5"), Ok(NumberValue::Fraction(1.5)));
        // Plain decimals take a shortcut: the same value as the general
        // path's rebuilt `…e0` form, integral ones still exact integers.
        for text in [
            "12.34",
            "0.10",
            "007.250",
            "3.14159265358979323846264338327950288",
        ] {
            let general: f64 = format!("{text}e0").parse().unwrap_or(f64::NAN);
            assert_eq!(
                parse_number(text),
                Ok(NumberValue::Fraction(general)),
                "{text}"
            );
        }
        assert_eq!(int("1.0"), "1");
        assert_eq!(int("3.000"), "3");
        let huge = format!("{}.5", "9".repeat(400));
        assert_eq!(parse_number(&huge), Err(NumberError::OutOfRange));
        // Integral values written with an exponent or a fraction are
        // numbers even beyond 256 bits (their exact value is their text).
        assert_eq!(parse_number("1e100"), Ok(NumberValue::Fraction(1e100)));
        assert_eq!(parse_number("1.0e100"), Ok(NumberValue::Fraction(1e100)));
        assert_eq!(parse_number("1E+300"), Ok(NumberValue::Fraction(1e300)));
        assert_eq!(int("1e77"), "1".to_string() + &"0".repeat(77));
        assert_eq!(parse_number("1e-999999999"), Ok(NumberValue::Fraction(0.0)));
        // Plain integers of any width up to the length limit are exact:
        // 2^256 (257 bits), f64::MAX written out (309 digits).
        let two_256 =
            "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        assert_eq!(int(two_256), two_256);
        let max_f64 = format!("{:.0}", f64::MAX);
        assert_eq!(max_f64.len(), 309);
        assert_eq!(int(&max_f64), max_f64);
        let longest = "7".repeat(MAX_NUMBER_LEN);
        assert_eq!(int(&longest), longest);
        assert_eq!(
            parse_number(&"7".repeat(MAX_NUMBER_LEN + 1)),
            Err(NumberError::TooLong)
        );
        assert_eq!(
            parse_number(&format!("1.{}", "0".repeat(MAX_NUMBER_LEN))),
            Err(NumberError::TooLong)
        );
        // With an exponent, exact only within 256 bits.
        assert!(matches!(parse_number("1e77"), Ok(NumberValue::Int(_))));
        assert_eq!(
            parse_number("18446744073709551615"),
            Ok(NumberValue::Int(BigInt::from(u64::MAX)))
        );
        assert_eq!(
            parse_number("1234567890123456789"),
            Ok(NumberValue::Small(1234567890123456789))
        );
        assert_eq!(parse_number("1e78"), Ok(NumberValue::Fraction(1e78)));
    }

    #[test]
    fn number_messages_cut_the_literal() {
        let long = "9".repeat(100_000);
        let message = too_long_message(&long);
        assert!(message.len() < 200, "{message}");
        assert!(message.contains("100000 characters"), "{message}");
        let exponent = format!("1e{}", "9".repeat(5_000));
        assert!(out_of_range_message(&exponent).len() < 300);
    }

    #[test]
    fn escapes() {
        let mut errors = Vec::new();
        assert_eq!(decode_quoted(r#"a\n\t\"\\"#, &mut errors), "a\n\t\"\\");
        assert_eq!(decode_quoted(r"\u00e9\U0001F600", &mut errors), "é😀");
        assert_eq!(decode_quoted("$${x}%%{y}$$z", &mut errors), "${x}%{y}$$z");
        assert!(errors.is_empty());
        decode_quoted(r"\q\u12\uD800", &mut errors);
        assert_eq!(errors.len(), 3);
    }
}
