//! The stable diagnostic codes of expression binding.
//!
//! Codes shared with the type layer (traversal, iteration, conversion) are
//! re-exported from [`pcl_types::codes`] so one condition has one code.

use pcl_diagnostics::Code;

pub use pcl_types::codes::{
    CANNOT_ITERATE, CANNOT_TRAVERSE, CASE_INSENSITIVE_PROPERTY, LIST_INDEX_NOT_NUMBER,
    MAP_KEY_NOT_STRING, MISSING_ARGUMENT, OBJECT_KEY_NOT_STRING, TOO_MANY_ARGUMENTS,
    TUPLE_INDEX_NOT_INTEGER, TUPLE_INDEX_OUT_OF_RANGE, TUPLE_LENGTH_MISMATCH, TYPE_NOT_CONVERTIBLE,
    TYPE_TOO_DEEP, UNDEFINED_VARIABLE, UNKNOWN_FUNCTION, UNKNOWN_PROPERTY,
};

// Diagnostic: object-key-not-convertible — an object constructor key is not a string.
pub const OBJECT_KEY_NOT_CONVERTIBLE: Code = Code("object-key-not-convertible");
// Diagnostic: unsupported-literal — a literal value of an unsupported kind (or an invalid number).
pub const UNSUPPORTED_LITERAL: Code = Code("unsupported-literal");
// Diagnostic: duplicate-for-variable — `for k, k in …`.
pub const DUPLICATE_FOR_VARIABLE: Code = Code("duplicate-for-variable");
// Diagnostic: undefined-anonymous-symbol — a splat item outside a splat.
pub const UNDEFINED_ANONYMOUS_SYMBOL: Code = Code("undefined-anonymous-symbol");
// Diagnostic: keyword-traversal — traversing a keyword definition.
pub const KEYWORD_TRAVERSAL: Code = Code("keyword-traversal");
// Diagnostic: node-not-traversable — traversing a node that cannot be traversed (the `pulumi` block).
pub const NODE_NOT_TRAVERSABLE: Code = Code("node-not-traversable");
// Diagnostic: untyped-reference — a traversal that ends in a definition without a type.
pub const UNTYPED_REFERENCE: Code = Code("untyped-reference");
// Diagnostic: expression-too-deep — expression nesting beyond MAX_EXPR_DEPTH.
pub const EXPRESSION_TOO_DEEP: Code = Code("expression-too-deep");
// Diagnostic: builtin-arity — a builtin called with the wrong number of arguments.
pub const BUILTIN_ARITY: Code = Code("builtin-arity");
// Diagnostic: builtin-argument — a builtin's argument has the wrong shape.
pub const BUILTIN_ARGUMENT: Code = Code("builtin-argument");
// Diagnostic: invoke-token — the invoke token is not a string literal or is malformed.
pub const INVOKE_TOKEN: Code = Code("invoke-token");
// Diagnostic: unknown-package — the invoke's package could not be loaded (warning).
pub const UNKNOWN_PACKAGE: Code = Code("unknown-package");
// Diagnostic: constant-never-converts — an invoke or builtin argument is a constant that converts to the parameter's type only unsafely and never can (warning; the program binder reports it for its values too).
pub const CONSTANT_NEVER_CONVERTS: Code = Code("constant-never-converts");
// Diagnostic: pinned-version-missing — an invoke's `version` option pins a package version the schema sources lack while they hold others (warning; the program binder reports it for resources too).
pub const PINNED_VERSION_MISSING: Code = Code("pinned-version-missing");
// Diagnostic: invoke-function — the invoke's function could not be loaded or found.
pub const INVOKE_FUNCTION: Code = Code("invoke-function");
// Diagnostic: invoke-arguments — invoke called with the wrong argument shape.
pub const INVOKE_ARGUMENTS: Code = Code("invoke-arguments");
// Diagnostic: call-arguments — `call` with a bad receiver, method name or arguments.
pub const CALL_ARGUMENTS: Code = Code("call-arguments");
// Diagnostic: unknown-method — `call` names a method the resource does not have.
pub const UNKNOWN_METHOD: Code = Code("unknown-method");

/// Every code this crate defines itself (the shared ones are listed by
/// `pcl_types::codes::ALL`).
pub const ALL: &[Code] = &[
    CONSTANT_NEVER_CONVERTS,
    PINNED_VERSION_MISSING,
    OBJECT_KEY_NOT_CONVERTIBLE,
    UNSUPPORTED_LITERAL,
    DUPLICATE_FOR_VARIABLE,
    UNDEFINED_ANONYMOUS_SYMBOL,
    KEYWORD_TRAVERSAL,
    NODE_NOT_TRAVERSABLE,
    UNTYPED_REFERENCE,
    EXPRESSION_TOO_DEEP,
    BUILTIN_ARITY,
    BUILTIN_ARGUMENT,
    INVOKE_TOKEN,
    UNKNOWN_PACKAGE,
    INVOKE_FUNCTION,
    INVOKE_ARGUMENTS,
    CALL_ARGUMENTS,
    UNKNOWN_METHOD,
];

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_kebab_case_and_unique() {
        let mut seen = std::collections::HashSet::new();
        for c in super::ALL.iter().chain(pcl_types::codes::ALL) {
            assert!(
                c.0.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-'),
                "{c}"
            );
            assert!(seen.insert(c.0), "duplicate code {c}");
        }
    }
}
