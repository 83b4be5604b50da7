//! Literal values carried by `const` and `enum` types, and the exact decimal
//! numbers PCL uses.
//!
//! PCL numbers are arbitrary precision (the reference parses literals at 512
//! bits). We keep every number as an exact decimal `±mant × 10^exp` with a
//! `BigUint` mantissa, so integer consts are exact and decimal literals such as
//! `3.14` keep their written value. The formatting helpers reproduce the
//! reference's renderings: Go's `%g` of a `big.Float` (shortest and with ten
//! significant digits) and cty's Go-syntax (`cty.NumberIntVal(…)`).

use std::fmt;
use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_traits::{ToPrimitive, Zero};

/// An exact decimal number `±mant × 10^exp`; `mant` carries no trailing zeros.
/// 24 bytes: a mantissa that fits a `u64` is held inline (no allocation for
/// the numbers programs write), a bigger one in a heap `BigUint`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Number {
    neg: bool,
    mant: Mantissa,
    exp: i32,
}

/// A mantissa, canonical so that the derived equality and hash hold: `Big`
/// only for values above `u64::MAX`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Mantissa {
    Small(u64),
    Big(Box<BigUint>),
}

impl Mantissa {
    fn from_big(b: BigUint) -> Mantissa {
        match b.to_u64() {
            Some(v) => Mantissa::Small(v),
            None => Mantissa::Big(Box::new(b)),
        }
    }

    fn to_big(&self) -> BigUint {
        match self {
            Mantissa::Small(v) => BigUint::from(*v),
            Mantissa::Big(b) => (**b).clone(),
        }
    }

    fn is_zero(&self) -> bool {
        matches!(self, Mantissa::Small(0))
    }

    fn to_u64(&self) -> Option<u64> {
        match self {
            Mantissa::Small(v) => Some(*v),
            Mantissa::Big(_) => None,
        }
    }
}

impl fmt::Display for Mantissa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mantissa::Small(v) => write!(f, "{v}"),
            Mantissa::Big(b) => write!(f, "{b}"),
        }
    }
}

/// Largest decimal exponent we accept when parsing (keeps `10^exp` bounded).
const MAX_DECIMAL_EXPONENT: i64 = 100_000;

impl Number {
    /// Builds a number from an integer.
    pub fn from_i64(v: i64) -> Number {
        Number::normalised_u64(v < 0, v.unsigned_abs(), 0)
    }

    /// Builds a number from an arbitrary-precision integer.
    pub fn from_bigint(v: &BigInt) -> Number {
        let neg = v.sign() == num_bigint::Sign::Minus;
        match v.magnitude().to_u64() {
            Some(m) => Number::normalised_u64(neg, m, 0),
            None => Number::normalised(neg, v.magnitude().clone(), 0),
        }
    }

    /// The exponent (an `i32` held, within ±[`MAX_DECIMAL_EXPONENT`] plus
    /// the digits of a literal).
    fn exp(&self) -> i64 {
        i64::from(self.exp)
    }

    fn new(neg: bool, mant: Mantissa, exp: i64) -> Number {
        // Exponents come from parsed literals (bounded above) and from
        // f64s; saturating keeps the type total.
        let exp = i32::try_from(exp).unwrap_or(if exp < 0 { i32::MIN } else { i32::MAX });
        Number { neg, mant, exp }
    }

    fn normalised_u64(neg: bool, mut mant: u64, mut exp: i64) -> Number {
        if mant == 0 {
            return Number::new(neg, Mantissa::Small(0), 0);
        }
        loop {
            let (quotient, digit) = (mant / 10, mant % 10);
            if digit != 0 {
                break;
            }
            mant = quotient;
            exp += 1;
        }
        Number::new(neg, Mantissa::Small(mant), exp)
    }

    fn normalised(neg: bool, mut mant: BigUint, mut exp: i64) -> Number {
        if let Some(small) = mant.to_u64() {
            return Number::normalised_u64(neg, small, exp);
        }
        let ten = BigUint::from(10u32);
        while (&mant % &ten).is_zero() {
            mant /= &ten;
            exp += 1;
        }
        Number::new(neg, Mantissa::from_big(mant), exp)
    }

    /// Parses `[-]DIGITS[.DIGITS][(e|E)[+|-]DIGITS]`. Returns `None` for
    /// anything else (including exponents beyond ±100000).
    pub fn parse(text: &str) -> Option<Number> {
        let (neg, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let (num, exp_part) = match rest.find(['e', 'E']) {
            Some(i) => (rest.get(..i)?, Some(rest.get(i + 1..)?)),
            None => (rest, None),
        };
        let (int_part, frac_part) = match num.find('.') {
            Some(i) => (num.get(..i)?, num.get(i + 1..)?),
            None => (num, ""),
        };
        if int_part.is_empty() || !int_part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if num.contains('.') && frac_part.is_empty() {
            return None;
        }
        if !frac_part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut exp: i64 = 0;
        if let Some(e) = exp_part {
            let (eneg, digits) = match e.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, e.strip_prefix('+').unwrap_or(e)),
            };
            if digits.is_empty() || digits.len() > 7 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            let v: i64 = digits.parse().ok()?;
            exp = if eneg { -v } else { v };
        }
        let exp = exp - frac_part.len() as i64;
        if exp.abs() > MAX_DECIMAL_EXPONENT {
            return None;
        }
        if frac_part.is_empty() && int_part.len() <= 19 {
            // At most 19 digits always fit a u64: no big integer.
            let mant: u64 = int_part.parse().ok()?;
            return Some(Number::normalised_u64(neg, mant, exp));
        }
        let all_digits = format!("{int_part}{frac_part}");
        let mant = BigUint::parse_bytes(all_digits.as_bytes(), 10)?;
        Some(Number::normalised(neg, mant, exp))
    }

    pub fn is_negative(&self) -> bool {
        self.neg
    }

    pub fn is_zero(&self) -> bool {
        self.mant.is_zero()
    }

    /// True when the value is an integer.
    pub fn is_integer(&self) -> bool {
        self.mant.is_zero() || self.exp >= 0
    }

    /// The value as an integer, when it is one.
    pub fn to_bigint(&self) -> Option<BigInt> {
        if !self.is_integer() || self.exp() > MAX_DECIMAL_EXPONENT {
            return None;
        }
        let mag = self.mant.to_big() * BigUint::from(10u32).pow(self.exp as u32);
        let sign = if self.neg && !mag.is_zero() {
            num_bigint::Sign::Minus
        } else {
            num_bigint::Sign::Plus
        };
        Some(BigInt::from_biguint(sign, mag))
    }

    /// The value as an `i64`, when it is an integer in range.
    pub fn to_i64(&self) -> Option<i64> {
        if self.is_integer() && self.exp() > 19 {
            return None;
        }
        if (0..=19).contains(&self.exp) {
            // Without building the integer: a mantissa or a product past
            // u64 is past i64 too.
            let magnitude = self
                .mant
                .to_u64()?
                .checked_mul(10u64.pow(self.exp as u32))?;
            let magnitude = i128::from(magnitude);
            return i64::try_from(if self.neg { -magnitude } else { magnitude }).ok();
        }
        self.to_bigint()?.to_i64()
    }

    /// True for an exact integer within `[-2147483648, 2147483647]`: the
    /// values the binder types as `int` (types.md §1.10).
    pub fn fits_int32(&self) -> bool {
        self.to_i64()
            .is_some_and(|v| v >= i64::from(i32::MIN) && v <= i64::from(i32::MAX))
    }

    /// Decimal digits (no trailing zeros) and the Go-style decimal point
    /// position: value = 0.DIGITS × 10^dp.
    fn digits(&self) -> (String, i64) {
        let d = self.mant.to_string();
        let dp = d.len() as i64 + self.exp();
        (d, dp)
    }

    /// The closest `f64`.
    pub fn to_f64(&self) -> f64 {
        let s = self.plain();
        s.parse::<f64>().unwrap_or(f64::NAN)
    }

    /// True when the value is exactly representable as an `f64`.
    pub fn is_exact_f64(&self) -> bool {
        let f = self.to_f64();
        if !f.is_finite() {
            return false;
        }
        Number::from_f64_exact(f).is_some_and(|n| n.mant == self.mant && n.exp == self.exp)
    }

    fn from_f64_exact(f: f64) -> Option<Number> {
        if !f.is_finite() {
            return None;
        }
        let bits = f.abs().to_bits();
        let raw_exp = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (m, e2) = if raw_exp == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), raw_exp - 1075)
        };
        let m = BigUint::from(m);
        let n = if e2 >= 0 {
            Number::normalised(f < 0.0, m << (e2 as usize), 0)
        } else {
            // m / 2^k = m * 5^k / 10^k
            let k = (-e2) as u32;
            Number::normalised(f < 0.0, m * BigUint::from(5u32).pow(k), -i64::from(k))
        };
        Some(n)
    }

    /// Plain positional decimal notation (`Text('f', -1)`): `3.14`, `1000`.
    pub fn plain(&self) -> String {
        let sign = if self.neg { "-" } else { "" };
        let (d, dp) = self.digits();
        if self.mant.is_zero() {
            return format!("{sign}0");
        }
        if dp <= 0 {
            format!("{sign}0.{}{d}", "0".repeat((-dp) as usize))
        } else if dp as usize >= d.len() {
            format!("{sign}{d}{}", "0".repeat(dp as usize - d.len()))
        } else {
            let (a, b) = d.split_at(dp as usize);
            format!("{sign}{a}.{b}")
        }
    }

    /// The notation form of vectors/README.md §1.2: integers with all their
    /// digits up to 21 digits, exponent form beyond; other values positional.
    pub fn notation(&self) -> String {
        let (d, dp) = self.digits();
        if self.is_integer() && !self.mant.is_zero() && dp > 21 {
            let sign = if self.neg { "-" } else { "" };
            let (first, rest) = d.split_at(1);
            if rest.is_empty() {
                format!("{sign}{first}e{}", dp - 1)
            } else {
                format!("{sign}{first}.{rest}e{}", dp - 1)
            }
        } else {
            self.plain()
        }
    }

    /// Go's `%v` of a `big.Float` (shortest `%g`).
    pub fn go_shortest(&self) -> String {
        // A non-zero integer below 10^6 prints positionally, as its plain
        // decimal digits (what `format_g` gives, without the digit string).
        if let Some(v) = self.small_integer() {
            return if self.neg {
                format!("-{v}")
            } else {
                v.to_string()
            };
        }
        self.go_shortest_general()
    }

    fn go_shortest_general(&self) -> String {
        let (d, dp) = self.digits();
        format_g(self.neg, &d, dp, None)
    }

    /// The magnitude of a non-zero integer below 10^6.
    pub(crate) fn small_integer(&self) -> Option<u64> {
        if self.mant.is_zero() || !(0..=5).contains(&self.exp) {
            return None;
        }
        let v = self
            .mant
            .to_u64()?
            .checked_mul(10u64.pow(self.exp as u32))?;
        (v < 1_000_000).then_some(v)
    }

    /// Go's `big.Float.String()` (`%g` with 10 significant digits), used by
    /// `Pretty()`.
    pub fn go_pretty(&self) -> String {
        let (d, dp) = self.digits();
        let (d, dp) = round_digits(&d, dp, 10);
        format_g(self.neg, &d, dp, Some(10))
    }

    /// cty's Go-syntax of a number value (types.md §1.14).
    pub fn cty_go_string(&self) -> String {
        if self.is_integer() {
            format!("cty.NumberIntVal({})", self.go_shortest())
        } else if self.is_exact_f64() {
            // shortest float64 digits
            let f = self.to_f64();
            let s = format!("{:e}", f.abs());
            let (m, e) = s.split_once('e').unwrap_or((s.as_str(), "0"));
            let digits: String = m.chars().filter(|c| *c != '.').collect();
            let digits = digits.trim_end_matches('0');
            let digits = if digits.is_empty() { "0" } else { digits };
            let e: i64 = e.parse().unwrap_or(0);
            format!(
                "cty.NumberFloatVal({})",
                format_g(self.neg, digits, e + 1, None)
            )
        } else {
            format!("cty.MustParseNumberVal({})", go_quote(&self.plain()))
        }
    }
}

/// Rounds a digit string to `n` significant digits, half to even, and trims
/// trailing zeros.
fn round_digits(d: &str, dp: i64, n: usize) -> (String, i64) {
    if d.len() <= n {
        return (d.to_string(), dp);
    }
    let bytes = d.as_bytes();
    let next = bytes.get(n).copied().unwrap_or(b'0');
    let rest_nonzero = bytes.iter().skip(n + 1).any(|b| *b != b'0');
    let last_odd = bytes
        .get(n.wrapping_sub(1))
        .is_some_and(|b| (b - b'0') % 2 == 1);
    let up = next > b'5' || (next == b'5' && (rest_nonzero || last_odd));
    let mut kept: Vec<u8> = bytes.iter().take(n).copied().collect();
    let mut dp = dp;
    if up {
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, b'1');
                kept.pop();
                dp += 1;
                break;
            }
            i -= 1;
            if let Some(b) = kept.get_mut(i) {
                if *b == b'9' {
                    *b = b'0';
                } else {
                    *b += 1;
                    break;
                }
            }
        }
    }
    let s = String::from_utf8_lossy(&kept).to_string();
    let s = s.trim_end_matches('0');
    let s = if s.is_empty() { "0" } else { s };
    (s.to_string(), dp)
}

/// Go's `%g` on decimal digits (value = 0.d × 10^dp). `prec = None` is the
/// shortest form.
fn format_g(neg: bool, d: &str, dp: i64, prec: Option<usize>) -> String {
    let sign = if neg { "-" } else { "" };
    if d == "0" || d.is_empty() {
        return format!("{sign}0");
    }
    let nd = d.len() as i64;
    let mut eprec = match prec {
        Some(p) => p as i64,
        None => nd,
    };
    if eprec > nd && nd >= dp {
        eprec = nd;
    }
    if prec.is_none() {
        eprec = 6;
    }
    let exp = dp - 1;
    if exp < -4 || exp >= eprec {
        let (first, rest) = d.split_at(1);
        let mut out = format!("{sign}{first}");
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let (es, ev) = if exp < 0 { ('-', -exp) } else { ('+', exp) };
        out.push('e');
        out.push(es);
        if ev < 10 {
            out.push('0');
        }
        out.push_str(&ev.to_string());
        return out;
    }
    // positional
    if dp <= 0 {
        format!("{sign}0.{}{d}", "0".repeat((-dp) as usize))
    } else if dp >= nd {
        format!("{sign}{d}{}", "0".repeat((dp - nd) as usize))
    } else {
        let (a, b) = d.split_at(dp as usize);
        format!("{sign}{a}.{b}")
    }
}

/// Go's `strconv.Quote`: escapes `"`, `\` and non-printable characters.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match go_escape(c) {
            GoEscaped::Plain(c) => out.push(c),
            GoEscaped::Ascii(bytes, len) => {
                out.extend(bytes.iter().take(usize::from(len)).map(|&b| char::from(b)))
            }
        }
    }
    out.push('"');
    out
}

/// How [`go_quote`] writes one character: as itself, or as an ASCII
/// escape (at most `\U` and 8 hex digits).
#[derive(Clone, Copy)]
pub(crate) enum GoEscaped {
    Plain(char),
    Ascii([u8; 10], u8),
}

pub(crate) fn go_escape(c: char) -> GoEscaped {
    let fixed = |text: &str| {
        let mut bytes = [0u8; 10];
        let len = text.len().min(bytes.len());
        bytes[..len].copy_from_slice(&text.as_bytes()[..len]);
        GoEscaped::Ascii(bytes, len as u8)
    };
    match c {
        '"' => fixed("\\\""),
        '\\' => fixed("\\\\"),
        '\n' => fixed("\\n"),
        '\r' => fixed("\\r"),
        '\t' => fixed("\\t"),
        '\u{7}' => fixed("\\a"),
        '\u{8}' => fixed("\\b"),
        '\u{c}' => fixed("\\f"),
        '\u{b}' => fixed("\\v"),
        c if c.is_control() => {
            let v = c as u32;
            if v < 0x80 {
                fixed(&format!("\\x{v:02x}"))
            } else if v < 0x10000 {
                fixed(&format!("\\u{v:04x}"))
            } else {
                fixed(&format!("\\U{v:08x}"))
            }
        }
        c => GoEscaped::Plain(c),
    }
}

/// A JSON-style quoted string, as the notation writes `STRING`.
pub fn json_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A literal value: what a `const` type is the singleton of, or an enum
/// member.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Null,
    /// An unknown value of the const's underlying type.
    Unknown,
    Bool(bool),
    Number(Number),
    String(Arc<str>),
    /// A list literal (only used as a traversal key, `[[0]]`).
    List(Arc<[Value]>),
}

impl Value {
    pub fn string(s: impl Into<Arc<str>>) -> Value {
        Value::String(s.into())
    }

    pub fn int(v: i64) -> Value {
        Value::Number(Number::from_i64(v))
    }

    /// cty's value equality used for enum members (`1` equals `1.0`).
    pub fn equals(&self, other: &Value) -> bool {
        self == other
    }

    /// The notation spelling (vectors/README.md §1.1 `value`).
    pub fn notation(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Unknown => "unknown".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.notation(),
            Value::String(s) => json_quote(s),
            Value::List(items) => {
                let parts: Vec<String> = items.iter().map(Value::notation).collect();
                format!("[{}]", parts.join(", "))
            }
        }
    }

    /// The `Pretty()` rendering of a const value (types.md §1.15).
    pub fn pretty(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Unknown => "unknown".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.go_pretty(),
            Value::String(s) => go_quote(s),
            Value::List(items) => {
                let parts: Vec<String> = items.iter().map(Value::pretty).collect();
                format!("[{}]", parts.join(", "))
            }
        }
    }

    /// The value converted to a property name as cty does (types.md §2.10):
    /// numbers positional, bools `true`/`false`, strings unchanged.
    pub fn to_key_string(&self) -> Option<String> {
        match self {
            Value::String(s) => Some(s.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.plain()),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

#[cfg(test)]
mod tests {
    /// `to_i64` computed without building the integer agrees with the
    /// integer's own conversion.
    #[test]
    fn to_i64_agrees_with_the_integer() {
        for t in [
            "0",
            "-0",
            "1",
            "-1",
            "7e3",
            "-7e3",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-2147483649",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "18446744073709551615",
            "18446744073709551616",
            "1e18",
            "1e19",
            "9e19",
            "1e20",
            "0.5",
            "12.5e1",
            "123456789012345678901234567890",
        ] {
            let n = super::Number::parse(t).unwrap_or_else(|| panic!("{t}"));
            let slow = n
                .to_bigint()
                .and_then(|b| num_traits::ToPrimitive::to_i64(&b));
            assert_eq!(n.to_i64(), slow, "{t}");
        }
    }

    /// The plain-digits shortcut of `go_shortest` prints what the general
    /// path prints.
    #[test]
    fn go_shortest_shortcut_agrees() {
        let mut texts: Vec<String> = Vec::new();
        for v in (0..2_000u64).chain([
            9_999, 10_000, 99_999, 100_000, 123_456, 999_999, 1_000_000, 1_000_001, 2_500_000,
        ]) {
            texts.push(v.to_string());
            texts.push(format!("-{v}"));
        }
        for t in [
            "1e2", "1e5", "1e6", "12e4", "-3e5", "0.5", "1.5e3", "-0", "0e3", "7e-1",
        ] {
            texts.push(t.to_string());
        }
        for t in &texts {
            let n = super::Number::parse(t).unwrap_or_else(|| panic!("{t}"));
            assert_eq!(n.go_shortest(), n.go_shortest_general(), "{t}");
        }
        assert_eq!(
            super::Number::parse("120")
                .map(|n| n.go_shortest())
                .as_deref(),
            Some("120")
        );
        assert_eq!(
            super::Number::parse("-7")
                .map(|n| n.go_shortest())
                .as_deref(),
            Some("-7")
        );
    }

    use super::*;

    fn n(s: &str) -> Number {
        Number::parse(s).unwrap()
    }

    #[test]
    fn go_forms() {
        assert_eq!(n("1000").cty_go_string(), "cty.NumberIntVal(1000)");
        assert_eq!(
            n("2147483648").cty_go_string(),
            "cty.NumberIntVal(2.147483648e+09)"
        );
        assert_eq!(n("1e21").cty_go_string(), "cty.NumberIntVal(1e+21)");
        assert_eq!(n("1.5").cty_go_string(), "cty.NumberFloatVal(1.5)");
        assert_eq!(
            n("3.14").cty_go_string(),
            "cty.MustParseNumberVal(\"3.14\")"
        );
        assert_eq!(n("12345678901").go_pretty(), "1.23456789e+10");
        assert_eq!(n("2147483648").go_pretty(), "2147483648");
        assert_eq!(n("1e21").go_pretty(), "1e+21");
        assert_eq!(n("0.1").go_pretty(), "0.1");
        assert_eq!(n("-3").go_pretty(), "-3");
        assert_eq!(n("-0").go_pretty(), "-0");
    }

    #[test]
    fn notation_round_trip() {
        for s in [
            "0",
            "-0",
            "1",
            "1e21",
            "1e100",
            "3.14",
            "0.001",
            "123456789012345678901",
        ] {
            assert_eq!(n(s).notation(), s);
        }
        assert!(Number::parse("1.").is_none());
        assert!(Number::parse("abc").is_none());
        assert!(Number::parse("1e99999999").is_none());
    }

    #[test]
    fn int32_range() {
        assert!(n("2147483647").fits_int32());
        assert!(n("-2147483648").fits_int32());
        assert!(!n("2147483648").fits_int32());
        assert!(!n("1.5").fits_int32());
    }
}
