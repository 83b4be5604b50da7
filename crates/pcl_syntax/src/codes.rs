//! Stable diagnostic codes of the syntax phase.
//!
//! Codes never change once released; tools match on them. Each constant's
//! doc line says when it is reported.

use pcl_diagnostics::Code;

/// A character that has no meaning in the language (`$`, `@`, NBSP, curly quotes, a lone CR…).
pub const INVALID_CHARACTER: Code = Code("invalid-character");
/// A bitwise operator (`&`, `|`, `^`, `~`), which the language does not have.
pub const UNSUPPORTED_OPERATOR: Code = Code("unsupported-operator");
/// A single quote: strings use double quotes.
pub const SINGLE_QUOTE: Code = Code("single-quote");
/// A backtick: multi-line strings use heredocs.
pub const BACKTICK: Code = Code("backtick");
/// A semicolon: items are separated by newlines or commas.
pub const SEMICOLON: Code = Code("semicolon");
/// A raw line break inside a quoted string.
pub const MULTILINE_STRING: Code = Code("multiline-string");
/// A quoted string or heredoc without its closing quote or marker.
pub const UNTERMINATED_TEMPLATE: Code = Code("unterminated-template");
/// A `${` or `%{` sequence without its closing `}`.
pub const UNCLOSED_TEMPLATE_SEQUENCE: Code = Code("unclosed-template-sequence");
/// Extra tokens before the `}` of `${…}` or `%{…}`.
pub const EXTRA_IN_TEMPLATE_SEQUENCE: Code = Code("extra-in-template-sequence");
/// A bad backslash escape in a quoted string.
pub const INVALID_ESCAPE: Code = Code("invalid-escape");
/// `%{` not followed by `if`, `else`, `endif`, `for` or `endfor`.
pub const INVALID_TEMPLATE_DIRECTIVE: Code = Code("invalid-template-directive");
/// Unbalanced `%{if}`/`%{else}`/`%{endif}`/`%{for}`/`%{endfor}` directives.
pub const UNBALANCED_TEMPLATE_DIRECTIVE: Code = Code("unbalanced-template-directive");
/// A template sequence inside a block label.
pub const TEMPLATE_IN_LABEL: Code = Code("template-in-label");
/// A number lexeme that is not a valid number (`1.2.3`).
pub const INVALID_NUMBER: Code = Code("invalid-number");
/// A number beyond every finite `f64` (`1e999999999`).
pub const NUMBER_OUT_OF_RANGE: Code = Code("number-out-of-range");
/// A number literal longer than `literal::MAX_NUMBER_LEN` (10,000) characters.
pub const NUMBER_TOO_LONG: Code = Code("number-too-long");
/// A body item that does not start with an identifier, or an identifier not followed by `=` or a block header.
pub const EXPECTED_ATTRIBUTE_OR_BLOCK: Code = Code("expected-attribute-or-block");
/// An attribute name written in quotes.
pub const QUOTED_ATTRIBUTE_NAME: Code = Code("quoted-attribute-name");
/// `name =` with no expression after it.
pub const MISSING_ATTRIBUTE_VALUE: Code = Code("missing-attribute-value");
/// Tokens after an attribute value on the same line.
pub const MISSING_NEWLINE_AFTER_ATTRIBUTE: Code = Code("missing-newline-after-attribute");
/// Tokens after a block's closing brace on the same line.
pub const MISSING_NEWLINE_AFTER_BLOCK: Code = Code("missing-newline-after-block");
/// The same attribute name twice in one body.
pub const DUPLICATE_ATTRIBUTE: Code = Code("duplicate-attribute");
/// A malformed block header (`=` after labels, newline before `{`, a bad label).
pub const INVALID_BLOCK_HEADER: Code = Code("invalid-block-header");
/// A block whose `{` has no matching `}`.
pub const UNCLOSED_BLOCK: Code = Code("unclosed-block");
/// A one-line block with more than one item, or not closed on its line.
pub const INVALID_ONE_LINE_BLOCK: Code = Code("invalid-one-line-block");
/// A `}` with no open block.
pub const UNEXPECTED_CLOSE_BRACE: Code = Code("unexpected-close-brace");
/// A token that cannot start an expression, or the end of input where an expression is needed.
pub const EXPECTED_EXPRESSION: Code = Code("expected-expression");
/// Tokens after a complete standalone expression.
pub const EXTRA_AFTER_EXPRESSION: Code = Code("extra-after-expression");
/// `(` without its `)`.
pub const UNCLOSED_PAREN: Code = Code("unclosed-paren");
/// `[` of an index or `[*` of a splat without its `]`.
pub const UNCLOSED_INDEX: Code = Code("unclosed-index");
/// `[` of a tuple without its `]`.
pub const UNCLOSED_TUPLE: Code = Code("unclosed-tuple");
/// `{` of an object without its `}`.
pub const UNCLOSED_OBJECT: Code = Code("unclosed-object");
/// A function call without its `)`.
pub const UNCLOSED_CALL: Code = Code("unclosed-call");
/// Two tuple elements or call arguments without a comma between them.
pub const MISSING_COMMA: Code = Code("missing-comma");
/// Two object items on one line without a comma.
pub const MISSING_ITEM_SEPARATOR: Code = Code("missing-item-separator");
/// An object key not followed by `=` or `:`.
pub const MISSING_KEY_VALUE_SEPARATOR: Code = Code("missing-key-value-separator");
/// `?` without the `:` branch.
pub const MISSING_CONDITIONAL_ELSE: Code = Code("missing-conditional-else");
/// A `.` not followed by a name, a number or `*`.
pub const INVALID_ATTRIBUTE_NAME: Code = Code("invalid-attribute-name");
/// `a.0.1`: chained legacy indexes.
pub const INVALID_LEGACY_INDEX: Code = Code("invalid-legacy-index");
/// `.*` directly after another `.*` splat.
pub const NESTED_SPLAT: Code = Code("nested-splat");
/// `ns::` not followed by a function name, or a namespaced name not followed by `(`.
pub const INVALID_FUNCTION_NAME: Code = Code("invalid-function-name");
/// `...` not on the last call argument.
pub const INVALID_EXPANSION: Code = Code("invalid-expansion");
/// A malformed `for` expression or directive header.
pub const INVALID_FOR: Code = Code("invalid-for");
/// Nesting deeper than [`crate::MAX_NESTING_DEPTH`].
pub const NESTING_TOO_DEEP: Code = Code("nesting-too-deep");

/// Every code, for documentation and tidy tests.
pub const ALL: &[Code] = &[
    INVALID_CHARACTER,
    UNSUPPORTED_OPERATOR,
    SINGLE_QUOTE,
    BACKTICK,
    SEMICOLON,
    MULTILINE_STRING,
    UNTERMINATED_TEMPLATE,
    UNCLOSED_TEMPLATE_SEQUENCE,
    EXTRA_IN_TEMPLATE_SEQUENCE,
    INVALID_ESCAPE,
    INVALID_TEMPLATE_DIRECTIVE,
    UNBALANCED_TEMPLATE_DIRECTIVE,
    TEMPLATE_IN_LABEL,
    INVALID_NUMBER,
    NUMBER_OUT_OF_RANGE,
    NUMBER_TOO_LONG,
    EXPECTED_ATTRIBUTE_OR_BLOCK,
    QUOTED_ATTRIBUTE_NAME,
    MISSING_ATTRIBUTE_VALUE,
    MISSING_NEWLINE_AFTER_ATTRIBUTE,
    MISSING_NEWLINE_AFTER_BLOCK,
    DUPLICATE_ATTRIBUTE,
    INVALID_BLOCK_HEADER,
    UNCLOSED_BLOCK,
    INVALID_ONE_LINE_BLOCK,
    UNEXPECTED_CLOSE_BRACE,
    EXPECTED_EXPRESSION,
    EXTRA_AFTER_EXPRESSION,
    UNCLOSED_PAREN,
    UNCLOSED_INDEX,
    UNCLOSED_TUPLE,
    UNCLOSED_OBJECT,
    UNCLOSED_CALL,
    MISSING_COMMA,
    MISSING_ITEM_SEPARATOR,
    MISSING_KEY_VALUE_SEPARATOR,
    MISSING_CONDITIONAL_ELSE,
    INVALID_ATTRIBUTE_NAME,
    INVALID_LEGACY_INDEX,
    NESTED_SPLAT,
    INVALID_FUNCTION_NAME,
    INVALID_EXPANSION,
    INVALID_FOR,
    NESTING_TOO_DEEP,
];
