//! Signatures of HCL's built-in operators as the type layer sees them
//! (types.md §5.7), and the int-lifting rule for arithmetic.

use std::fmt;

use crate::ty::{Type, TypeKind};

/// A function signature: parameters and result.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    pub params: Vec<(String, Type)>,
    pub result: Type,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ps: Vec<String> = self
            .params
            .iter()
            .map(|(n, t)| format!("{n}: {}", crate::notation::to_notation(t)))
            .collect();
        write!(
            f,
            "({}) -> {}",
            ps.join(", "),
            crate::notation::to_notation(&self.result)
        )
    }
}

fn binary(t: Type, result: Type) -> Signature {
    Signature {
        params: vec![("a".into(), t.clone()), ("b".into(), t)],
        result,
    }
}

/// `optional(dynamic)`, built once (the parameter type of `==` and `!=`).
fn optional_dynamic() -> Type {
    static TYPE: std::sync::OnceLock<Type> = std::sync::OnceLock::new();
    TYPE.get_or_init(|| Type::optional(Type::dynamic())).clone()
}

/// The signature of an operator (`+`, `==`, `!`, `neg` for unary minus, …).
pub fn signature(op: &str) -> Option<Signature> {
    Some(match op {
        "||" | "&&" => binary(Type::bool(), Type::bool()),
        "!" => Signature {
            params: vec![("val".into(), Type::bool())],
            result: Type::bool(),
        },
        "==" | "!=" => binary(optional_dynamic(), Type::bool()),
        "<" | "<=" | ">" | ">=" => binary(Type::number(), Type::bool()),
        "+" | "-" | "*" | "/" | "%" => binary(Type::number(), Type::number()),
        "neg" | "unary -" => Signature {
            params: vec![("num".into(), Type::number())],
            result: Type::number(),
        },
        _ => return None,
    })
}

/// Int lifting: when every operand type *equals* `int` (a const int does
/// not count), `number` parameters and a `number` result become `int`.
pub fn lift_int(sig: &Signature, operands: &[Type]) -> Signature {
    let all_int =
        !operands.is_empty() && operands.iter().all(|t| matches!(t.kind(), TypeKind::Int));
    if !all_int {
        return sig.clone();
    }
    let fix = |t: &Type| {
        if matches!(t.kind(), TypeKind::Number) {
            Type::int()
        } else {
            t.clone()
        }
    };
    Signature {
        params: sig
            .params
            .iter()
            .map(|(n, t)| (n.clone(), fix(t)))
            .collect(),
        result: fix(&sig.result),
    }
}

/// Every operator [`signature`] knows.
const OPERATORS: [&str; 16] = [
    "||", "&&", "!", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "neg", "unary -",
];

/// `lift_int(signature(op), operands)`, without building either: both forms
/// of each operator's signature are built once per process (the binder asks
/// for one per unary and binary operation).
pub fn lifted_signature(op: &str, operands: &[&Type]) -> Option<&'static Signature> {
    static TABLE: std::sync::OnceLock<Vec<(&'static str, Signature, Signature)>> =
        std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        OPERATORS
            .iter()
            .filter_map(|name| {
                let plain = signature(name)?;
                let lifted = lift_int(&plain, &[Type::int()]);
                Some((*name, plain, lifted))
            })
            .collect()
    });
    let (_, plain, lifted) = table.iter().find(|(name, ..)| *name == op)?;
    let all_int =
        !operands.is_empty() && operands.iter().all(|t| matches!(t.kind(), TypeKind::Int));
    Some(if all_int { lifted } else { plain })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached signatures are exactly what `lift_int(signature(..))`
    /// builds, for every operator and kind of operands.
    #[test]
    fn lifted_signatures_match_lift_int() {
        let operand_lists: Vec<Vec<Type>> = vec![
            vec![],
            vec![Type::int()],
            vec![Type::number()],
            vec![Type::int(), Type::int()],
            vec![Type::int(), Type::number()],
            vec![Type::string(), Type::int()],
            vec![Type::literal(crate::Value::Bool(true)), Type::int()],
        ];
        for op in OPERATORS {
            let sig = signature(op).unwrap();
            for operands in &operand_lists {
                let refs: Vec<&Type> = operands.iter().collect();
                assert_eq!(
                    lifted_signature(op, &refs),
                    Some(&lift_int(&sig, operands)),
                    "{op} {operands:?}"
                );
            }
        }
        assert_eq!(lifted_signature("??", &[]), None);
        assert!(signature("??").is_none());
    }

    #[test]
    fn arithmetic_lifts_to_int() {
        let add = signature("+").unwrap();
        assert_eq!(add.to_string(), "(a: number, b: number) -> number");
        assert_eq!(
            lift_int(&add, &[Type::int(), Type::int()]).result,
            Type::int()
        );
        let one = Type::literal(crate::value::Value::int(1));
        assert_eq!(lift_int(&add, &[Type::int(), one]).result, Type::number());
        assert_eq!(
            signature("==").unwrap().params[0].1.to_string(),
            "union(dynamic, none)"
        );
    }
}
