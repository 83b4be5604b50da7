//! Function signatures: named parameters, an optional variadic parameter
//! and a return type (binder.md §3.9).

use std::fmt;

use pcl_types::{to_notation, Type};

/// One parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: Type,
}

impl Param {
    pub fn new(name: impl Into<String>, ty: Type) -> Param {
        Param {
            name: name.into(),
            ty,
        }
    }
}

/// A (possibly argument-dependent, already computed) signature.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    pub params: Vec<Param>,
    pub varargs: Option<Param>,
    pub result: Type,
}

impl Signature {
    pub fn new(params: Vec<Param>, result: Type) -> Signature {
        Signature {
            params,
            varargs: None,
            result,
        }
    }

    pub fn with_varargs(mut self, varargs: Param) -> Signature {
        self.varargs = Some(varargs);
        self
    }

    /// `(...args: dynamic) -> dynamic`, used for unknown functions.
    pub fn dynamic() -> Signature {
        Signature::new(Vec::new(), Type::dynamic())
            .with_varargs(Param::new("args", Type::dynamic()))
    }

    /// Parses the vector notation `(p1: T1, ...p2: T2) -> R`.
    pub fn parse(text: &str) -> Result<Signature, String> {
        let text = text.trim();
        let rest = text
            .strip_prefix('(')
            .ok_or("signature must start with '('")?;
        let close = matching_paren(rest).ok_or("unbalanced parentheses in signature")?;
        let (params_text, tail) = (
            rest.get(..close).unwrap_or(""),
            rest.get(close + 1..).unwrap_or(""),
        );
        let result_text = tail
            .trim()
            .strip_prefix("->")
            .ok_or("missing '->' in signature")?;
        let result = pcl_types::parse_type(result_text.trim()).map_err(|e| format!("{e:?}"))?;
        let mut sig = Signature::new(Vec::new(), result);
        for part in split_top_level(params_text) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (name, ty) = part
                .split_once(':')
                .ok_or_else(|| format!("parameter without type: {part}"))?;
            let ty = pcl_types::parse_type(ty.trim()).map_err(|e| format!("{e:?}"))?;
            match name.trim().strip_prefix("...") {
                Some(v) => sig.varargs = Some(Param::new(v, ty)),
                None => sig.params.push(Param::new(name.trim(), ty)),
            }
        }
        Ok(sig)
    }
}

fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start, mut in_str) = (0usize, 0usize, false);
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '(' | '[' | '{' if !in_str => depth += 1,
            ')' | ']' | '}' if !in_str => depth = depth.saturating_sub(1),
            ',' if depth == 0 && !in_str => {
                parts.push(s.get(start..i).unwrap_or(""));
                start = i + 1;
            }
            _ => {}
        }
        prev = c;
    }
    parts.push(s.get(start..).unwrap_or(""));
    parts
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut ps: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{}: {}", p.name, to_notation(&p.ty)))
            .collect();
        if let Some(v) = &self.varargs {
            ps.push(format!("...{}: {}", v.name, to_notation(&v.ty)));
        }
        write!(f, "({}) -> {}", ps.join(", "), to_notation(&self.result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let s = Signature::parse("(foo: string, ...bar: list(int)) -> bool").unwrap();
        assert_eq!(s.params.len(), 1);
        assert_eq!(s.varargs.as_ref().unwrap().ty, Type::list(Type::int()));
        assert_eq!(s.to_string(), "(foo: string, ...bar: list(int)) -> bool");
        let s =
            Signature::parse("(a: object({x = int, y = map(string)}), b: int) -> none").unwrap();
        assert_eq!(s.params.len(), 2);
        assert!(Signature::parse("foo").is_err());
    }
}
