//! The stable codes of every diagnostic the program binder produces.
//!
//! Expression-level codes come from `pcl_expr::codes` and type-level codes
//! from `pcl_types::codes`; these are the program-level ones (binder.md
//! §8.3). Codes never change once released.

use pcl_diagnostics::Code;

// Diagnostic: block-labels — a block has the wrong number of labels.
pub const BLOCK_LABELS: Code = Code("block-labels");
// Diagnostic: invalid-hook-kind — a hook kind other than `resource`/`error`.
pub const INVALID_HOOK_KIND: Code = Code("invalid-hook-kind");
// Diagnostic: duplicate-declaration — two top-level declarations share a name.
pub const DUPLICATE_DECLARATION: Code = Code("duplicate-declaration");
// Diagnostic: circular-reference — nodes depend on each other in a cycle.
pub const CIRCULAR_REFERENCE: Code = Code("circular-reference");
// Diagnostic: literal-required — an attribute must be a string or bool literal.
pub const LITERAL_REQUIRED: Code = Code("literal-required");
// Diagnostic: malformed-token — a type token is not `pkg:module:member`.
pub const MALFORMED_TOKEN: Code = Code("malformed-token");
// Diagnostic: unknown-package — no schema for a package.
pub const UNKNOWN_PACKAGE: Code = Code("unknown-package");
// Diagnostic: schema-error — a schema member could not be decoded.
pub const SCHEMA_ERROR: Code = Code("schema-error");
// Diagnostic: unknown-resource-type — the package has no such resource.
pub const UNKNOWN_RESOURCE_TYPE: Code = Code("unknown-resource-type");
// Diagnostic: cannot-read — provider and component resources cannot be read.
pub const CANNOT_READ: Code = Code("cannot-read");
// Diagnostic: unsupported-attribute — an attribute that is not an input.
pub const UNSUPPORTED_ATTRIBUTE: Code = Code("unsupported-attribute");
// Diagnostic: missing-required-attribute — a required input is not set.
pub const MISSING_REQUIRED_ATTRIBUTE: Code = Code("missing-required-attribute");
// Diagnostic: attribute-type-mismatch — an input value has the wrong type.
pub const ATTRIBUTE_TYPE_MISMATCH: Code = Code("attribute-type-mismatch");
// Diagnostic: unsupported-block — a nested block that is not allowed here.
pub const UNSUPPORTED_BLOCK: Code = Code("unsupported-block");
// Diagnostic: duplicate-block — a second `options` block.
pub const DUPLICATE_BLOCK: Code = Code("duplicate-block");
// Diagnostic: invalid-hooks-option — the `hooks` option is malformed.
pub const INVALID_HOOKS_OPTION: Code = Code("invalid-hooks-option");
// Diagnostic: unknown-hook-name — a `hooks` key that is no lifecycle event.
pub const UNKNOWN_HOOK_NAME: Code = Code("unknown-hook-name");
// Diagnostic: hook-kind-mismatch — an error hook bound to a resource event or vice versa.
pub const HOOK_KIND_MISMATCH: Code = Code("hook-kind-mismatch");
// Diagnostic: missing-hook-command — a hook without `command`.
pub const MISSING_HOOK_COMMAND: Code = Code("missing-hook-command");
// Diagnostic: unknown-hook-attribute — an attribute a hook does not have.
pub const UNKNOWN_HOOK_ATTRIBUTE: Code = Code("unknown-hook-attribute");
// Diagnostic: component-error — a component source cannot be bound.
pub const COMPONENT_ERROR: Code = Code("component-error");
// Diagnostic: component-outside-root — a component directory, or a `.pp` file a program directory lists, lies outside the root (symbolic links resolved).
pub const COMPONENT_OUTSIDE_ROOT: Code = Code("component-outside-root");
// Diagnostic: component-cycle — a component includes itself.
pub const COMPONENT_CYCLE: Code = Code("component-cycle");
// Diagnostic: component-too-deep — components nest deeper than the limit.
pub const COMPONENT_TOO_DEEP: Code = Code("component-too-deep");
// Diagnostic: missing-component-token — a sourceless component without `token`.
pub const MISSING_COMPONENT_TOKEN: Code = Code("missing-component-token");
// Diagnostic: package-block — a malformed `package` block.
pub const PACKAGE_BLOCK: Code = Code("package-block");
// Diagnostic: package-label-deprecated — `package "name" {}` (warning).
pub const PACKAGE_LABEL_DEPRECATED: Code = Code("package-label-deprecated");
// Diagnostic: duplicate-package — two different `package` blocks for one name.
pub const DUPLICATE_PACKAGE: Code = Code("duplicate-package");
// Diagnostic: invalid-type-label — a config/output type label is invalid.
pub const INVALID_TYPE_LABEL: Code = Code("invalid-type-label");
// Diagnostic: no-source-files — a program (or component) has no `.pp` files.
pub const NO_SOURCE_FILES: Code = Code("no-source-files");
// Diagnostic: unknown-block-type — a top-level block of a type PCL does not have, such as `resorce` (warning; the reference ignores it).
pub const UNKNOWN_BLOCK_TYPE: Code = Code("unknown-block-type");
// Diagnostic: unknown-block-attribute — an attribute a `config`, `output`, `pulumi` or `package` block does not have (warning; the reference ignores it).
pub const UNKNOWN_BLOCK_ATTRIBUTE: Code = Code("unknown-block-attribute");
// Diagnostic: constant-never-converts — a constant that converts to its declared or option type only unsafely, and whose value never can (warning).
pub const CONSTANT_NEVER_CONVERTS: Code = Code("constant-never-converts");
// Diagnostic: unknown-type — a config or output type label names a type that does not exist, such as `numbr`.
pub const UNKNOWN_TYPE: Code = Code("unknown-type");
// Diagnostic: invalid-utf8 — a program or component file is not UTF-8 (the rest is checked).
pub const INVALID_UTF8: Code = Code("invalid-utf8");
// Diagnostic: unreadable-file — a `.pp` entry is no readable regular file (never opened).
pub const UNREADABLE_FILE: Code = Code("unreadable-file");
// Diagnostic: declared-in-sibling — a file checked alone uses names another `.pp` file of its directory declares (a note, once per declaring file).
pub const DECLARED_IN_SIBLING: Code = Code("declared-in-sibling");
// Diagnostic: pinned-version-missing — a resource's `version` option pins a schema version the schema sources lack while they have others; the resource is checked against the default version (a warning).
pub const PINNED_VERSION_MISSING: Code = Code("pinned-version-missing");

/// Every code above, for documentation and tidy tests.
pub const ALL: &[Code] = &[
    BLOCK_LABELS,
    INVALID_HOOK_KIND,
    DUPLICATE_DECLARATION,
    CIRCULAR_REFERENCE,
    LITERAL_REQUIRED,
    MALFORMED_TOKEN,
    UNKNOWN_PACKAGE,
    SCHEMA_ERROR,
    UNKNOWN_RESOURCE_TYPE,
    CANNOT_READ,
    UNSUPPORTED_ATTRIBUTE,
    MISSING_REQUIRED_ATTRIBUTE,
    ATTRIBUTE_TYPE_MISMATCH,
    UNSUPPORTED_BLOCK,
    DUPLICATE_BLOCK,
    INVALID_HOOKS_OPTION,
    UNKNOWN_HOOK_NAME,
    HOOK_KIND_MISMATCH,
    MISSING_HOOK_COMMAND,
    UNKNOWN_HOOK_ATTRIBUTE,
    COMPONENT_ERROR,
    COMPONENT_OUTSIDE_ROOT,
    COMPONENT_CYCLE,
    COMPONENT_TOO_DEEP,
    MISSING_COMPONENT_TOKEN,
    PACKAGE_BLOCK,
    PACKAGE_LABEL_DEPRECATED,
    DUPLICATE_PACKAGE,
    INVALID_TYPE_LABEL,
    NO_SOURCE_FILES,
    UNKNOWN_BLOCK_TYPE,
    UNKNOWN_BLOCK_ATTRIBUTE,
    CONSTANT_NEVER_CONVERTS,
    UNKNOWN_TYPE,
    INVALID_UTF8,
    UNREADABLE_FILE,
    DECLARED_IN_SIBLING,
    PINNED_VERSION_MISSING,
];
