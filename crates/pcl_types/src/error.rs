//! Diagnostics produced by the type layer, as data.
//!
//! The type layer never knows where an expression is. It returns
//! [`TypeDiagnostic`]s (severity, stable kebab-case [`Code`], summary,
//! optional detail, optional byte range relative to a type label) and the
//! binder turns them into [`pcl_diagnostics::Diagnostic`]s with
//! [`TypeDiagnostic::into_diagnostic`], supplying the span.

use pcl_diagnostics::{Code, Diagnostic, Severity, Span, TextRange};

/// The stable codes of every diagnostic this crate produces.
pub mod codes {
    use pcl_diagnostics::Code;

    // Diagnostic: cannot-traverse — a value of this type has no attributes or indexes.
    pub const CANNOT_TRAVERSE: Code = Code("cannot-traverse");
    // Diagnostic: list-index-not-number
    pub const LIST_INDEX_NOT_NUMBER: Code = Code("list-index-not-number");
    // Diagnostic: map-key-not-string
    pub const MAP_KEY_NOT_STRING: Code = Code("map-key-not-string");
    // Diagnostic: tuple-index-not-integer
    pub const TUPLE_INDEX_NOT_INTEGER: Code = Code("tuple-index-not-integer");
    // Diagnostic: tuple-index-out-of-range
    pub const TUPLE_INDEX_OUT_OF_RANGE: Code = Code("tuple-index-out-of-range");
    // Diagnostic: object-key-not-string
    pub const OBJECT_KEY_NOT_STRING: Code = Code("object-key-not-string");
    // Diagnostic: unknown-property
    pub const UNKNOWN_PROPERTY: Code = Code("unknown-property");
    // Diagnostic: case-insensitive-property — matched a property ignoring case (warning).
    pub const CASE_INSENSITIVE_PROPERTY: Code = Code("case-insensitive-property");
    // Diagnostic: cannot-iterate
    pub const CANNOT_ITERATE: Code = Code("cannot-iterate");
    // Diagnostic: type-not-convertible — a value of one type cannot be used as another.
    pub const TYPE_NOT_CONVERTIBLE: Code = Code("type-not-convertible");
    // Diagnostic: tuple-length-mismatch
    pub const TUPLE_LENGTH_MISMATCH: Code = Code("tuple-length-mismatch");
    // Diagnostic: type-too-deep — a type nests deeper than MAX_TYPE_DEPTH.
    pub const TYPE_TOO_DEEP: Code = Code("type-too-deep");
    // Diagnostic: invalid-type-label — a config/output type label does not parse.
    pub const INVALID_TYPE_LABEL: Code = Code("invalid-type-label");
    // Diagnostic: undefined-variable — a name not in the type scope.
    pub const UNDEFINED_VARIABLE: Code = Code("undefined-variable");
    // Diagnostic: unknown-function — a call to a name not in the type scope.
    pub const UNKNOWN_FUNCTION: Code = Code("unknown-function");
    // Diagnostic: missing-argument
    pub const MISSING_ARGUMENT: Code = Code("missing-argument");
    // Diagnostic: too-many-arguments
    pub const TOO_MANY_ARGUMENTS: Code = Code("too-many-arguments");
    // Diagnostic: object-type-argument — object() needs an object type.
    pub const OBJECT_TYPE_ARGUMENT: Code = Code("object-type-argument");
    // Diagnostic: tuple-type-argument — tuple() needs a tuple type.
    pub const TUPLE_TYPE_ARGUMENT: Code = Code("tuple-type-argument");
    // Diagnostic: optional-arity — optional() takes exactly one argument.
    pub const OPTIONAL_ARITY: Code = Code("optional-arity");
    // Diagnostic: object-key-type — a key in an object type is not a string.
    pub const OBJECT_KEY_TYPE: Code = Code("object-key-type");

    // Diagnostic: unknown-object-key — a key of an object value that its schema object type does not
    // declare, below the top level (a warning: conversion ignores it; an error when it stands for a
    // missing required key).
    pub const UNKNOWN_OBJECT_KEY: Code = Code("unknown-object-key");

    // Diagnostic: unknown-enum-value — a string constant that is none of the values of the string
    // enum it is assigned to (a warning: the conversion is only unsafe, so the reference is silent).
    pub const UNKNOWN_ENUM_VALUE: Code = Code("unknown-enum-value");

    /// Every code, for documentation and tidy tests.
    pub const ALL: &[Code] = &[
        CANNOT_TRAVERSE,
        LIST_INDEX_NOT_NUMBER,
        MAP_KEY_NOT_STRING,
        TUPLE_INDEX_NOT_INTEGER,
        TUPLE_INDEX_OUT_OF_RANGE,
        OBJECT_KEY_NOT_STRING,
        UNKNOWN_PROPERTY,
        CASE_INSENSITIVE_PROPERTY,
        CANNOT_ITERATE,
        TYPE_NOT_CONVERTIBLE,
        TUPLE_LENGTH_MISMATCH,
        TYPE_TOO_DEEP,
        INVALID_TYPE_LABEL,
        UNDEFINED_VARIABLE,
        UNKNOWN_FUNCTION,
        MISSING_ARGUMENT,
        TOO_MANY_ARGUMENTS,
        OBJECT_TYPE_ARGUMENT,
        TUPLE_TYPE_ARGUMENT,
        OPTIONAL_ARITY,
        OBJECT_KEY_TYPE,
        UNKNOWN_OBJECT_KEY,
        UNKNOWN_ENUM_VALUE,
    ];
}

/// One diagnostic from the type layer, without a file position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeDiagnostic {
    pub severity: Severity,
    pub code: Code,
    pub summary: String,
    pub detail: Option<String>,
    /// A byte range relative to the text the diagnostic is about (type
    /// labels); `None` means "the whole subject" (the binder's range).
    pub range: Option<TextRange>,
}

impl TypeDiagnostic {
    pub fn error(code: Code, summary: impl Into<String>) -> TypeDiagnostic {
        TypeDiagnostic {
            severity: Severity::Error,
            code,
            summary: summary.into(),
            detail: None,
            range: None,
        }
    }

    pub fn warning(code: Code, summary: impl Into<String>) -> TypeDiagnostic {
        TypeDiagnostic {
            severity: Severity::Warning,
            ..TypeDiagnostic::error(code, summary)
        }
    }

    /// An error, or a warning when `strict` is false.
    pub fn error_if(strict: bool, code: Code, summary: impl Into<String>) -> TypeDiagnostic {
        if strict {
            TypeDiagnostic::error(code, summary)
        } else {
            TypeDiagnostic::warning(code, summary)
        }
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> TypeDiagnostic {
        self.detail = Some(detail.into());
        self
    }

    pub fn with_range(mut self, range: TextRange) -> TypeDiagnostic {
        self.range = Some(range);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The diagnostic at `span`. When the diagnostic has a relative range,
    /// it is offset from the start of `span` (the label's text).
    pub fn into_diagnostic(self, span: Span) -> Diagnostic {
        let span = match self.range {
            Some(r) => Span::new(
                span.file,
                TextRange::new(span.range.start + r.start, span.range.start + r.end),
            ),
            None => span,
        };
        let mut d = Diagnostic::new(self.severity, self.code, span, self.summary);
        d.set_detail(self.detail);
        d
    }

    /// `error: <summary>[ [detail: <detail>]]`, the vector format.
    pub fn to_vector_string(&self) -> String {
        let mut s = format!("{}: {}", self.severity, self.summary);
        if let Some(d) = &self.detail {
            s.push_str(&format!(" [detail: {d}]"));
        }
        s
    }
}
