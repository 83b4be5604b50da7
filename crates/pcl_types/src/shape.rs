//! The three shapes of the Pulumi type system: the *plain* shape (values as
//! a program sees them after resolution), the *input* shape (what a resource
//! input accepts: every level may be an output) and the *output* shape (what
//! a resource output property reads as).
//!
//! The binder builds schema types in input shape (`Input<T>` becomes
//! `union(T', output(T''))`, binder.md §6.2); these functions convert between
//! the shapes for types that are already built.

use crate::eventual::{input_type, resolve_outputs};
use crate::ty::Type;

/// `plainShape(T)`: every output and promise removed; input unions
/// `union(T, output(T))` collapse to `T` by normalisation.
pub fn plain_shape(t: &Type) -> Type {
    resolve_outputs(t)
}

/// `inputShape(T)`: `InputType` of the plain shape.
pub fn input_shape(t: &Type) -> Type {
    input_type(&plain_shape(t))
}

/// `outputShape(T)`: `output(plainShape(T))`.
pub fn output_shape(t: &Type) -> Type {
    Type::output(plain_shape(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_round_trip() {
        let t = Type::object([
            ("a", Type::list(Type::string())),
            ("b", Type::optional(Type::int())),
        ]);
        let input = input_shape(&t);
        assert_eq!(plain_shape(&input), t);
        assert_eq!(output_shape(&input).to_string(), format!("output({t})"));
        assert_eq!(input_shape(&input), input);
    }
}
