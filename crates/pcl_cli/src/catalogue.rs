//! The catalogue of every diagnostic code: what it means, a minimal
//! program that triggers it, how to fix it, its default severity and how
//! it differs from the reference (Pulumi's Go implementation).
//!
//! It is the single source of `pcl explain`, of `docs/codes.md` (generated
//! by [`markdown`]; a test fails when the file is stale) and of the SARIF
//! rules' descriptions. The codes themselves come from each crate's own
//! constant list ([`all_codes`]); a test fails when one has no entry here,
//! and another checks that each example really triggers its code.

use std::collections::HashSet;
use std::sync::OnceLock;

use pcl_diagnostics::{Code, Severity};

/// One code's entry.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub code: &'static str,
    /// The severity under the default (strict) options.
    pub severity: Severity,
    /// What the code means, one or two sentences.
    pub meaning: &'static str,
    /// A minimal program that triggers it, checked with the schemas of
    /// `testdata/schemas`; empty when no program can (then [`Entry::trigger`]
    /// says what does).
    pub example: &'static str,
    /// What triggers the code when no program can; empty otherwise.
    pub trigger: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// Whether and how it differs from the reference.
    pub reference: &'static str,
}

/// Every diagnostic code, from each crate's own list, without repeats, in
/// the order the crates list them. Computed once.
impl Entry {
    /// The one-line summary: the first sentence of the meaning.
    pub fn summary(&self) -> &'static str {
        let meaning = self.meaning;
        let mut from = 0;
        while let Some(at) = meaning[from..].find(". ") {
            let end = from + at + 1;
            // `e.g. ` and `i.e. ` do not end a sentence.
            if !meaning[..end].ends_with("e.g.") && !meaning[..end].ends_with("i.e.") {
                return &meaning[..end];
            }
            from = end;
        }
        meaning.lines().next().unwrap_or(meaning)
    }
}

pub fn all_codes() -> &'static [Code] {
    static ALL: OnceLock<Vec<Code>> = OnceLock::new();
    ALL.get_or_init(|| {
        let lists: [&[Code]; 7] = [
            SHARED_CODES,
            pcl_syntax::codes::ALL,
            pcl_types::codes::ALL,
            pcl_expr::codes::ALL,
            pcl_binder::codes::ALL,
            pcl_schema::error::ALL,
            CLI_CODES,
        ];
        let mut seen = HashSet::new();
        lists
            .into_iter()
            .flatten()
            .filter(|c| seen.insert(c.as_str()))
            .copied()
            .collect()
    })
}

/// The codes of `pcl_diagnostics` itself, which every phase can report.
pub const SHARED_CODES: &[Code] = &[pcl_diagnostics::TOO_MANY_DIAGNOSTICS];

/// The codes the command line itself reports.
pub const CLI_CODES: &[Code] = &[
    crate::inputs::INVALID_UTF8,
    crate::inputs::UNREADABLE_FILE,
    crate::ignore::UNUSED_IGNORE,
];

/// Whether `code` is a diagnostic code (a hash lookup).
pub fn is_code(code: &str) -> bool {
    static NAMES: OnceLock<HashSet<&'static str>> = OnceLock::new();
    NAMES
        .get_or_init(|| all_codes().iter().map(|c| c.as_str()).collect())
        .contains(code)
}

/// The entry for `code`.
pub fn lookup(code: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.code == code)
}

/// Same as the reference.
const SAME: &str = "Same as the reference.";
/// Only pcl reports it.
const PCL_ONLY: &str = "pcl only: the reference has no such check or code.";

const fn entry(
    code: &'static str,
    severity: Severity,
    meaning: &'static str,
    example: &'static str,
    fix: &'static str,
    reference: &'static str,
) -> Entry {
    Entry {
        code,
        severity,
        meaning,
        example,
        trigger: "",
        fix,
        reference,
    }
}

const fn untriggerable(
    code: &'static str,
    severity: Severity,
    meaning: &'static str,
    trigger: &'static str,
    fix: &'static str,
    reference: &'static str,
) -> Entry {
    Entry {
        code,
        severity,
        meaning,
        example: "",
        trigger,
        fix,
        reference,
    }
}

use Severity::{Error as E, Warning as W};

/// Every entry, sorted by code.
pub static ENTRIES: &[Entry] = &[
    entry(
        "attribute-type-mismatch",
        E,
        "A resource input is given a value of the wrong type.",
        "resource w \"tiny:index:Widget\" {\n  name = \"w\"\n  count = [1, 2]\n}\n",
        "Give a value of the input's type (the message names both types).",
        "pcl reports every property, names the property path and points at the element (docs/differences.md).",
    ),
    entry(
        "backtick",
        E,
        "A backtick: PCL has no backtick strings; multi-line text is a heredoc.",
        "x = `text`\n",
        "Use a double-quoted string, or a heredoc (`<<EOT … EOT`) for several lines.",
        "The reference reports a generic invalid character; pcl names the backtick.",
    ),
    entry(
        "block-labels",
        E,
        "A block has the wrong number of labels (`resource` takes a name and a type, `output` a name, and so on).",
        "resource r {\n}\n",
        "Give the block the labels its kind takes, such as `resource name \"pkg:module:Type\" { … }`.",
        SAME,
    ),
    entry(
        "builtin-argument",
        E,
        "An argument of a builtin function has the wrong shape, such as `element` of something that is not a list.",
        "flag = true\nx = element(flag, 0)\n",
        "Pass an argument of the kind the builtin expects.",
        SAME,
    ),
    entry(
        "builtin-arity",
        E,
        "A builtin function that needs a particular number of arguments gets another.",
        "x = toJSON(1, 2)\n",
        "Pass the number of arguments the builtin takes (see its signature in the message).",
        SAME,
    ),
    entry(
        "call-arguments",
        E,
        "`call` is not given a resource receiver, a method name literal and an arguments object.",
        "x = call()\n",
        "Write `call(resource, \"method\", { arguments })`.",
        SAME,
    ),
    entry(
        "cannot-iterate",
        E,
        "A `for` expression iterates over a value that is not a collection; a warning under `--skip-range-typecheck`.",
        "n = 1\nx = [for v in n : v]\n",
        "Iterate over a list, tuple, map or object.",
        SAME,
    ),
    entry(
        "cannot-read",
        E,
        "A `read` block names a provider or a component resource, which cannot be read.",
        "read p \"pulumi:providers:tiny\" {\n  id = \"x\"\n}\n",
        "Read only custom resources.",
        SAME,
    ),
    entry(
        "cannot-traverse",
        E,
        "An attribute or index is applied to a value whose type has none, such as a number.",
        "n = 1\nx = n.field\n",
        "Traverse only objects, maps, lists and tuples; check the value's type.",
        SAME,
    ),
    entry(
        "case-insensitive-property",
        W,
        "A property is found only by ignoring case (`obj.A` for `a`); the value is still typed.",
        "o = { a = 1 }\nx = o.A\n",
        "Write the property with its exact case.",
        SAME,
    ),
    entry(
        "circular-reference",
        E,
        "Declarations depend on each other in a cycle.",
        "a = b\nb = a\n",
        "Break the cycle: one of the values must not depend on the other.",
        SAME,
    ),
    untriggerable(
        "component-cycle",
        E,
        "A component includes itself, directly or through others.",
        "a component directory whose `.pp` file declares `component self \".\" {}` (a cycle needs a directory, not one program text).",
        "Remove the self-inclusion.",
        SAME,
    ),
    entry(
        "component-error",
        E,
        "A component's source cannot be bound: its directory is missing or holds no `.pp` files.",
        "component c \"./nothing-here\" {\n}\n",
        "Fix the component's source path.",
        SAME,
    ),
    entry(
        "component-outside-root",
        E,
        "A component's source path leaves the program's directory (or the project root).",
        "component c \"../../elsewhere\" {\n}\n",
        "Keep components inside the program's directory, or pass `--root` to widen the root.",
        PCL_ONLY,
    ),
    untriggerable(
        "component-too-deep",
        E,
        "Components nest deeper than the binder's limit.",
        "dozens of nested component directories, each including the next.",
        "Flatten the component hierarchy.",
        PCL_ONLY,
    ),
    entry(
        "constant-never-converts",
        W,
        "A constant converts to its declared (or option) type only unsafely, and its value never can, such as `\"three\"` for a number.",
        "config n int {\n  default = \"three\"\n}\n",
        "Give a value of the declared type (`3`), or change the declared type.",
        "pcl only: the reference accepts the unsafe conversion and fails at run time.",
    ),
    untriggerable(
        "declared-in-sibling",
        Severity::Note,
        "One `.pp` file of a multi-file program is checked alone (`pcl check main.pp`) and uses names that another `.pp` file of its directory declares; those names are not checked here. One note per declaring file, at the first use; it never fails a check.",
        "`pcl check main.pp` where `main.pp` holds `output o { value = siteName }` and `config.pp` beside it holds `config siteName string {}`.",
        "Check the directory (`pcl check .`) to check the whole program.",
        PCL_ONLY,
    ),
    entry(
        "duplicate-attribute",
        E,
        "The same attribute name appears twice in one body.",
        "x = 1\nx = 2\n",
        "Remove one of the two, or rename it.",
        SAME,
    ),
    entry(
        "duplicate-block",
        E,
        "A second `options` block in one resource or component.",
        "resource w \"tiny:index:Widget\" {\n  name = \"w\"\n  options {\n  }\n  options {\n  }\n}\n",
        "Merge the two `options` blocks.",
        SAME,
    ),
    entry(
        "duplicate-declaration",
        E,
        "Two top-level declarations share a name.",
        "x = 1\nconfig x int {}\n",
        "Rename one of them.",
        SAME,
    ),
    entry(
        "duplicate-for-variable",
        E,
        "The key and value variables of a `for` have the same name.",
        "names = [\"a\"]\nx = [for k, k in names : k]\n",
        "Give the key and value variables different names.",
        SAME,
    ),
    entry(
        "duplicate-package",
        E,
        "Two `package` blocks describe one package with different parameters.",
        "package {\n  baseProviderName = \"p\"\n  baseProviderVersion = \"1.0.0\"\n  parameterization {\n    name = \"sub\"\n    version = \"1.0.0\"\n    value = \"eA==\"\n  }\n}\npackage {\n  baseProviderName = \"p\"\n  baseProviderVersion = \"2.0.0\"\n  parameterization {\n    name = \"sub\"\n    version = \"1.0.0\"\n    value = \"eA==\"\n  }\n}\n",
        "Keep one `package` block per package.",
        SAME,
    ),
    entry(
        "expected-attribute-or-block",
        E,
        "A body item does not start with a name, or a name is followed by neither `=` nor a block header.",
        "42\n",
        "Write `name = value` or `type labels… { … }`.",
        SAME,
    ),
    entry(
        "expected-expression",
        E,
        "A token that cannot start an expression, or the end of the input where an expression is needed.",
        "x = )\n",
        "Write a value: a literal, a name, a call, a tuple or an object.",
        SAME,
    ),
    untriggerable(
        "expression-too-deep",
        E,
        "An expression nests deeper than the expression binder's limit (MAX_EXPR_DEPTH).",
        "the parser's nesting limit is lower, so programs get `nesting-too-deep` first; only the library API builds deeper expressions.",
        "Flatten the expression: move inner parts into locals.",
        PCL_ONLY,
    ),
    untriggerable(
        "extra-after-expression",
        E,
        "Tokens follow a complete standalone expression (an expression parsed alone, such as a template's).",
        "only expressions parsed on their own (the library's `parse_expression`) report it; in a program, tokens after a value are `missing-newline-after-attribute`.",
        "Remove the extra tokens.",
        SAME,
    ),
    entry(
        "extra-in-template-sequence",
        E,
        "Tokens follow the expression of a `${…}` or `%{…}` before its `}`.",
        "y = 1\nx = \"${y y}\"\n",
        "Keep one expression per `${…}`; join values with an operator or another interpolation.",
        SAME,
    ),
    entry(
        "hook-kind-mismatch",
        E,
        "An error hook is bound to a resource lifecycle event, or a resource hook to `onError`.",
        "hook error e {\n  command = [\"x\"]\n}\nresource w \"tiny:index:Widget\" {\n  name = \"w\"\n  options {\n    hooks = { beforeCreate = [e] }\n  }\n}\n",
        "Bind `hook resource` blocks to lifecycle events and `hook error` blocks to `onError`.",
        SAME,
    ),
    entry(
        "invalid-attribute-name",
        E,
        "A `.` is followed by neither a name, nor a number, nor `*`.",
        "y = {}\nx = y.\n",
        "Write the attribute after the `.`, or use an index `[\"name\"]`.",
        SAME,
    ),
    entry(
        "invalid-block-header",
        E,
        "A malformed block header: `=` after labels, a line break before `{`, or a label that is neither a name nor a string.",
        "resource r \"tiny:index:Widget\"\n{\n}\n",
        "Write the labels and the `{` on one line: `type \"label\" {`.",
        SAME,
    ),
    entry(
        "invalid-character",
        E,
        "A character that has no meaning in PCL, such as `$`, `@`, a no-break space or a curly quote.",
        "x = 1 @ 2\n",
        "Delete the character, or replace a curly quote or a no-break space with its plain ASCII form.",
        "Same kind of error as the reference (HCL's \"Invalid character\"); pcl names the character.",
    ),
    entry(
        "invalid-escape",
        E,
        "A backslash escape a quoted string does not allow (`\\q`, a short `\\u`).",
        "x = \"a\\qb\"\n",
        "Use one of `\\n \\r \\t \\\" \\\\ \\uNNNN \\UNNNNNNNN`, or write `\\\\` for a backslash.",
        SAME,
    ),
    entry(
        "invalid-expansion",
        E,
        "`...` is used on an argument that is not the last of the call.",
        "x = max([1]..., 2)\n",
        "Put the expanded argument last.",
        SAME,
    ),
    entry(
        "invalid-for",
        E,
        "A malformed `for` expression or `%{for}` directive header.",
        "x = [for in [1] : 1]\n",
        "Write `[for v in collection : expression]` or `{for k, v in collection : key => value}`.",
        SAME,
    ),
    entry(
        "invalid-function-name",
        E,
        "A namespaced function name is incomplete: `ns::` without a name, or `ns::f` not followed by `(`.",
        "x = std::\n",
        "Complete the call: `ns::name(arguments)`.",
        SAME,
    ),
    entry(
        "invalid-hook-kind",
        E,
        "A `hook` block's kind is neither `resource` nor `error`.",
        "hook other h {\n  command = [\"x\"]\n}\n",
        "Write `hook resource NAME { … }` or `hook error NAME { … }`.",
        SAME,
    ),
    entry(
        "invalid-hooks-option",
        E,
        "The `hooks` resource option is not an object mapping lifecycle events to lists of hooks.",
        "hook resource h {\n  command = [\"x\"]\n}\nresource w \"tiny:index:Widget\" {\n  name = \"w\"\n  options {\n    hooks = [h]\n  }\n}\n",
        "Write `hooks = { beforeCreate = [hookName] }`.",
        SAME,
    ),
    entry(
        "invalid-legacy-index",
        E,
        "Chained legacy indexes such as `a.0.1`, which HCL does not allow.",
        "y = [[1]]\nx = y.0.0\n",
        "Use brackets: `a[0][1]`.",
        SAME,
    ),
    entry(
        "invalid-number",
        E,
        "A number that is not well-formed, such as `1.2.3` or `1e`.",
        "x = 1.2.3\n",
        "Write one valid decimal number.",
        SAME,
    ),
    entry(
        "invalid-one-line-block",
        E,
        "A block written on one line holds more than one item, or is not closed on its line.",
        "output o { value = 1, other = 2 }\n",
        "Spread the block over several lines, one item per line.",
        SAME,
    ),
    entry(
        "invalid-template-directive",
        E,
        "`%{` is not followed by `if`, `else`, `endif`, `for` or `endfor`.",
        "x = \"%{ while true }%{ endwhile }\"\n",
        "Use an `if` or `for` directive, or write `%%{` for a literal `%{`.",
        SAME,
    ),
    entry(
        "invalid-type-label",
        E,
        "The type label of a `config` or `output` does not parse as a type.",
        "config c \"list(\" {}\n",
        "Write a type such as `string`, `list(int)`, `map(string)` or `object({a = string})`.",
        SAME,
    ),
    untriggerable(
        "invalid-utf8",
        E,
        "A source file is not valid UTF-8. It is still checked, with each bad byte read as U+FFFD, and the first bad byte is reported.",
        "a file holding bytes that are not UTF-8, such as a Latin-1 `é` (the byte 0xE9).",
        "Re-save the file as UTF-8.",
        PCL_ONLY,
    ),
    entry(
        "invoke-arguments",
        E,
        "`invoke` is called with arguments of the wrong shape (an object where the function takes positional arguments, or too many arguments).",
        "x = invoke(\"tiny:index:joinStrings\", { a = \"x\", b = \"y\" })\n",
        "Call the function the way its schema declares: an object of inputs, or positional arguments for multi-argument functions.",
        SAME,
    ),
    entry(
        "invoke-function",
        E,
        "The function an `invoke` names cannot be loaded from its package's schema (its entry does not decode).",
        "x = invoke(\"badfn:index:getBroken\", {})\n",
        "Fetch the schema again, or report the broken schema to its package's authors.",
        SAME,
    ),
    entry(
        "invoke-token",
        E,
        "The first argument of `invoke` is not a string literal holding a function token `pkg:module:member`.",
        "x = invoke(\"justaname\", {})\n",
        "Pass the function's token as a string literal, such as `\"aws:s3/getBucket:getBucket\"`.",
        SAME,
    ),
    untriggerable(
        "keyword-traversal",
        E,
        "An attribute or index is applied to a keyword definition.",
        "programs define no keywords; only the library API can build such a scope.",
        "Do not traverse keywords.",
        SAME,
    ),
    untriggerable(
        "list-index-not-number",
        E,
        "A list is indexed by a value that is not a number.",
        "reported for index keys that cannot convert to a number; every literal key a program can write (string, bool, null) converts, so only API-built types reach it.",
        "Index lists with numbers.",
        SAME,
    ),
    entry(
        "literal-required",
        E,
        "An attribute that must be a string or bool literal (a config's `description`, `nullable`, …) holds an expression.",
        "a = \"d\"\nconfig c string {\n  description = a\n}\n",
        "Write the value as a literal.",
        SAME,
    ),
    entry(
        "malformed-token",
        E,
        "A resource's type token is not of the form `pkg:module:member` or `pkg:member`.",
        "resource m \"bad token\" {\n}\n",
        "Write the type token, such as `\"aws:s3/bucket:Bucket\"`.",
        SAME,
    ),
    untriggerable(
        "map-key-not-string",
        E,
        "A map is indexed by a value that is not a string.",
        "reported for keys that cannot convert to a string; every literal key a program can write converts, so only API-built types reach it.",
        "Index maps with strings.",
        SAME,
    ),
    entry(
        "missing-argument",
        E,
        "A call or type constructor is missing a required argument.",
        "x = join(\",\")\n",
        "Pass every required argument.",
        SAME,
    ),
    entry(
        "missing-attribute-value",
        E,
        "`name =` has no expression after it on the same line.",
        "x =\n",
        "Write the value after `=` on the same line.",
        SAME,
    ),
    entry(
        "missing-comma",
        E,
        "Two tuple elements or call arguments have no comma between them.",
        "x = [1 2]\n",
        "Separate the elements with `,`.",
        SAME,
    ),
    entry(
        "missing-component-token",
        E,
        "A component declared without a source does not set `token`.",
        "component c {\n}\n",
        "Set `token = \"pkg:index:Component\"`, or give the component a source path.",
        SAME,
    ),
    entry(
        "missing-conditional-else",
        E,
        "A conditional `c ? a` has no `: b` branch.",
        "x = true ? 1\n",
        "Add the `: value` for when the condition is false.",
        SAME,
    ),
    entry(
        "missing-hook-command",
        E,
        "A `hook` block has no `command`.",
        "hook resource h {\n}\n",
        "Set `command = [\"program\", \"arg\", …]`.",
        SAME,
    ),
    entry(
        "missing-item-separator",
        E,
        "Two object items are on one line without a comma between them.",
        "x = { a = 1 b = 2 }\n",
        "Separate the items with `,` or put each on its own line.",
        SAME,
    ),
    entry(
        "missing-key-value-separator",
        E,
        "An object key is followed by neither `=` nor `:`.",
        "x = { a 1 }\n",
        "Write `key = value`.",
        SAME,
    ),
    entry(
        "missing-newline-after-attribute",
        E,
        "Tokens follow an attribute's value on the same line.",
        "x = 1 y = 2\n",
        "Start the next attribute on a new line.",
        SAME,
    ),
    entry(
        "missing-newline-after-block",
        E,
        "Tokens follow a block's closing `}` on the same line.",
        "output a {\n  value = 1\n} output b {\n  value = 2\n}\n",
        "Start the next item on a new line.",
        SAME,
    ),
    entry(
        "missing-required-attribute",
        E,
        "A required input of a resource is not set.",
        "resource w \"tiny:index:Widget\" {\n}\n",
        "Set the input.",
        SAME,
    ),
    entry(
        "multiline-string",
        E,
        "A quoted string holds a raw line break; quoted strings end on the line they start.",
        "x = \"one\ntwo\"\n",
        "Write `\\n` inside the string, or use a heredoc for text of several lines.",
        SAME,
    ),
    entry(
        "nested-splat",
        E,
        "A `.*` splat directly after another `.*`.",
        "y = [[1]]\nx = y.*.*\n",
        "Use a `for` expression, or `flatten`, to reach nested elements.",
        SAME,
    ),
    untriggerable(
        "nesting-too-deep",
        E,
        "Brackets, parentheses, braces or blocks nest deeper than the parser's limit (MAX_NESTING_DEPTH).",
        "a program whose expressions or blocks nest hundreds of levels deep, such as 1000 `(` before a value.",
        "Flatten the expression: move inner parts into locals.",
        PCL_ONLY,
    ),
    untriggerable(
        "no-source-files",
        E,
        "A program or component has no `.pp` files.",
        "reserved: an empty program directory is a run error of the command line, and an empty component directory is `component-error`.",
        "Add `.pp` files.",
        SAME,
    ),
    entry(
        "node-not-traversable",
        E,
        "A node that cannot be traversed, such as the `pulumi` block, is traversed.",
        "pulumi {\n  requiredVersionRange = \">=3.0.0\"\n}\nx = pulumi.requiredVersionRange\n",
        "Do not refer to the `pulumi` block; copy the value you need into a local.",
        SAME,
    ),
    entry(
        "number-out-of-range",
        E,
        "An integer literal wider than 256 bits, or a number whose exponent is out of range.",
        "x = 1e999999999999\n",
        "Use a smaller number, or a string if the value is an identifier rather than a quantity.",
        PCL_ONLY,
    ),
    untriggerable(
        "number-too-long",
        E,
        "A number literal longer than 10,000 characters. It is rejected without being converted, a limit against denial of service; the message cuts its text.",
        "a number literal of more than 10,000 characters, such as `a = 111…1` with 10,001 digits.",
        "Shorten the literal, or write the value as a string.",
        "pcl only: hclsyntax accepts number literals of any length.",
    ),
    entry(
        "object-key-not-convertible",
        E,
        "A key of an object constructor is not a string (or convertible to one).",
        "names = [\"a\"]\nx = { (names) = 1 }\n",
        "Use a string, or an expression of string type, as the key.",
        SAME,
    ),
    untriggerable(
        "object-key-not-string",
        E,
        "An object is traversed by a key that is not a string.",
        "reported for keys that cannot convert to a string; every literal key a program can write converts, so only API-built types reach it.",
        "Use a string key.",
        SAME,
    ),
    untriggerable(
        "object-key-type",
        E,
        "A key of an object type is not a string.",
        "reserved: never emitted (type labels only write names as keys).",
        "Use names as object type keys.",
        PCL_ONLY,
    ),
    entry(
        "object-type-argument",
        E,
        "`object(…)` in a type label is given something other than an object type.",
        "config c \"object(string)\" {}\n",
        "Write `object({name = type, …})`.",
        SAME,
    ),
    entry(
        "optional-arity",
        E,
        "`optional(…)` in a type label takes exactly one type.",
        "config c \"optional(string, int)\" {}\n",
        "Give `optional` one type: `optional(string)`.",
        SAME,
    ),
    entry(
        "package-block",
        E,
        "A malformed `package` block (a parameterized package without `baseProviderName`, and the like).",
        "package {\n}\n",
        "Write the `package` block as `pulumi package add` produces it.",
        SAME,
    ),
    entry(
        "package-label-deprecated",
        W,
        "A `package` block has a label (`package \"name\" { … }`), a deprecated form.",
        "package legacy {\n  baseProviderName = \"legacy\"\n  baseProviderVersion = \"1.0.0\"\n}\n",
        "Remove the label.",
        SAME,
    ),
    entry(
        "pinned-version-missing",
        W,
        "A resource's `version` option (or an `invoke`'s `{ version = … }`) pins a package version the schema sources lack, while they hold other versions of it: the block is checked against the default (highest) version instead.",
        "resource r \"pkgx:index:R\" {\n  options {\n    version = \"3.0.0\"\n  }\n}\n",
        "Get the pinned version's schema (`pulumi package get-schema NAME@VERSION > DIR/NAME-VERSION.json`) and pass `--schema-dir DIR`, or pin a version you have.",
        "pcl only: the reference loads the pinned version through the plugin host and fails when it cannot.",
    ),
    entry(
        "quoted-attribute-name",
        E,
        "An attribute name is written in quotes.",
        "\"x\" = 1\n",
        "Write the name bare: `x = 1`.",
        "The reference reports a generic syntax error; pcl says why.",
    ),
    untriggerable(
        "schema-error",
        E,
        "A schema member (resource, function or type) the program uses cannot be decoded.",
        "a schema whose entry for the resource the program uses is malformed JSON for its kind, such as testdata/schemas/quirks-1.0.0.json's `quirks:index:Broken`.",
        "Fetch the schema again, or report the broken schema to its package's authors.",
        SAME,
    ),
    untriggerable(
        "schema-io",
        E,
        "A package schema file cannot be read.",
        "reported by the schema loader (a file without read permission); the binder reports it to programs as `unknown-package`.",
        "Fix the file's permissions.",
        PCL_ONLY,
    ),
    untriggerable(
        "schema-malformed",
        E,
        "A package schema file is not valid JSON, or not a package schema.",
        "reported by the schema loader; the binder reports it to programs as `unknown-package`, with this error as its detail.",
        "Fetch the schema again.",
        PCL_ONLY,
    ),
    untriggerable(
        "schema-member-invalid",
        E,
        "One member of a schema (resource, function, type) does not decode.",
        "reported by the schema loader; the binder reports it to programs as `schema-error` or `invoke-function`.",
        "Fetch the schema again, or report it to the package's authors.",
        PCL_ONLY,
    ),
    untriggerable(
        "schema-not-found",
        E,
        "A package schema cannot be found in the schema directories or the schema cache.",
        "reported by the schema loader; the binder reports it to programs as `unknown-package`.",
        "Get the schema with `pulumi package get-schema` and pass `--schema-dir`.",
        PCL_ONLY,
    ),
    entry(
        "semicolon",
        E,
        "A semicolon: attributes and blocks are separated by line breaks, object items by commas or line breaks.",
        "x = 1; y = 2\n",
        "Put each attribute on its own line.",
        "The reference reports a generic invalid character; pcl names the semicolon.",
    ),
    entry(
        "single-quote",
        E,
        "A single-quoted string: PCL strings use double quotes.",
        "x = 'text'\n",
        "Write the string in double quotes: `\"text\"`.",
        "The reference reports a generic invalid character; pcl names the quote.",
    ),
    entry(
        "template-in-label",
        E,
        "A block label holds a `${…}` interpolation; labels are plain strings.",
        "resource \"r${1}\" \"tiny:index:Widget\" {\n}\n",
        "Write the label as a plain name or string.",
        SAME,
    ),
    entry(
        "too-many-arguments",
        E,
        "A call or type constructor has more arguments than it takes.",
        "x = length([1], [2])\n",
        "Remove the extra arguments.",
        SAME,
    ),
    untriggerable(
        "too-many-diagnostics",
        E,
        "A file has more than 1,000 problems: pcl reports the first 1,000 it finds and this one summary, which counts the rest and has the highest severity among them (so a file with an error not shown still fails).",
        "a file with more than 1,000 problems, such as 1,001 lines that each hold only `=` (too long to show here).",
        "Fix the problems shown and check again: the next ones appear as these go.",
        "pcl only: the reference reports every problem, however many (docs/differences.md).",
    ),
    entry(
        "tuple-index-not-integer",
        E,
        "A tuple is indexed by a number that is not a whole number.",
        "pair = [1, \"a\"]\nx = pair[0.5]\n",
        "Use a whole number between 0 and the tuple's length minus one.",
        SAME,
    ),
    entry(
        "tuple-index-out-of-range",
        E,
        "A tuple is indexed past its last element (or below 0).",
        "pair = [1, \"a\"]\nx = pair[5]\n",
        "Use an index between 0 and the tuple's length minus one.",
        SAME,
    ),
    untriggerable(
        "tuple-length-mismatch",
        E,
        "A tuple of one length is used where a tuple of another length is expected.",
        "reserved: a tuple-length failure is reported as the detail of `type-not-convertible`.",
        "Give a tuple of the expected length.",
        PCL_ONLY,
    ),
    entry(
        "tuple-type-argument",
        E,
        "`tuple(…)` in a type label is given something other than a tuple type.",
        "config c \"tuple(string)\" {}\n",
        "Write `tuple([type, …])`.",
        SAME,
    ),
    entry(
        "type-not-convertible",
        E,
        "A value's type cannot be used where another type is expected.",
        "config ports \"list(int)\" {\n  default = 80\n}\n",
        "Give a value of the expected type, or convert it (`toString`, `toNumber`…).",
        "pcl names the path and compact types and has no trailing `: ` (docs/differences.md).",
    ),
    untriggerable(
        "type-too-deep",
        E,
        "A type nests deeper than the type layer's limit (MAX_TYPE_DEPTH).",
        "only types built through the library API (deep `const(const(…))`) reach the limit; programs hit the parser's nesting limit first.",
        "Simplify the type.",
        PCL_ONLY,
    ),
    entry(
        "unbalanced-template-directive",
        E,
        "Template directives do not pair up: an `%{endif}` without `%{if}`, an `%{if}` without `%{endif}`, and so on.",
        "x = \"%{ if true }yes\"\n",
        "Close each `%{if}` with `%{endif}` and each `%{for}` with `%{endfor}`.",
        SAME,
    ),
    entry(
        "unclosed-block",
        E,
        "A block's `{` has no matching `}`.",
        "output o {\n  value = 1\n",
        "Add the closing `}`.",
        SAME,
    ),
    entry(
        "unclosed-call",
        E,
        "A function call has no closing `)`.",
        "x = length([1]\n",
        "Add the `)`.",
        SAME,
    ),
    entry(
        "unclosed-index",
        E,
        "The `[` of an index, or the `[*` of a splat, has no matching `]`.",
        "y = [1]\nx = y[0\n",
        "Add the `]`.",
        SAME,
    ),
    entry(
        "unclosed-object",
        E,
        "The `{` of an object has no matching `}`.",
        "x = { a = 1\n",
        "Add the `}`.",
        SAME,
    ),
    entry(
        "unclosed-paren",
        E,
        "A `(` has no matching `)`.",
        "x = (1 + 2\n",
        "Add the `)`.",
        SAME,
    ),
    entry(
        "unclosed-template-sequence",
        E,
        "A `${` or `%{` inside a string has no closing `}`.",
        "x = \"a ${b\n",
        "Close the interpolation or directive with `}`; write `$${` for a literal `${`.",
        SAME,
    ),
    entry(
        "unclosed-tuple",
        E,
        "The `[` of a tuple has no matching `]`.",
        "x = [1, 2\n",
        "Add the `]`.",
        SAME,
    ),
    untriggerable(
        "undefined-anonymous-symbol",
        E,
        "A splat's item is referenced outside a splat.",
        "the parser places splat items only inside splats; only the library API can build one elsewhere.",
        "Use the splat item only inside its splat.",
        SAME,
    ),
    entry(
        "undefined-variable",
        E,
        "A name that no declaration (config, local, resource, component, output, `for` variable) defines; a warning under `--allow-missing-variables`.",
        "x = nope\n",
        "Declare the name or fix its spelling; the message suggests close names.",
        SAME,
    ),
    entry(
        "unexpected-close-brace",
        E,
        "A `}` closes no open block.",
        "x = 1\n}\n",
        "Remove the `}`, or add the block it was meant to close.",
        SAME,
    ),
    entry(
        "unknown-block-attribute",
        W,
        "A `config`, `output`, `pulumi` or `package` block sets an attribute that block does not have.",
        "pulumi {\n  requiredVersionRang = \">=3.0.0\"\n}\n",
        "Fix the attribute's name (the message suggests close ones, with a fix) or remove it.",
        "pcl only: the reference ignores unknown attributes of these blocks.",
    ),
    entry(
        "unknown-block-type",
        W,
        "A top-level block of a type PCL does not have, such as `resorce`; a warning, or an error when other declarations use its name.",
        "resorce ghost \"tiny:index:Widget\" {\n}\n",
        "Fix the block type (the message suggests close ones, with a fix): `resource`, `config`, `output`, `component`, `locals`, `package`, `pulumi`, `hook`, `read`.",
        "pcl only: the reference ignores blocks of unknown types.",
    ),
    entry(
        "unknown-enum-value",
        W,
        "A string constant that is none of the values of the string enum it is assigned to. It converts (unsafely), so the reference is silent, but it can never be one of the enum's values.",
        "resource w \"tiny:index:Widget\" {\n  name = \"w\"\n  size = \"smal\"\n}\n",
        "Use one of the enum's values (the message lists them and suggests close ones, with a fix).",
        PCL_ONLY,
    ),
    entry(
        "unknown-function",
        E,
        "A call to a function that is not a PCL builtin.",
        "x = nosuch(1)\n",
        "Use a builtin (`length`, `join`, `toJSON`, …); the message suggests close names.",
        SAME,
    ),
    entry(
        "unknown-hook-attribute",
        E,
        "A `hook` block sets an attribute hooks do not have.",
        "hook resource h {\n  command = [\"x\"]\n  what = true\n}\n",
        "Use `command`, `onDryRun` or `ignoreErrors` (error hooks take no `onDryRun`).",
        SAME,
    ),
    entry(
        "unknown-hook-name",
        E,
        "A key of the `hooks` option is not a lifecycle event.",
        "hook resource h {\n  command = [\"x\"]\n}\nresource w \"tiny:index:Widget\" {\n  name = \"w\"\n  options {\n    hooks = { badHook = [h] }\n  }\n}\n",
        "Use an event such as `beforeCreate`, `afterUpdate` or `onError`; the message suggests close names.",
        SAME,
    ),
    entry(
        "unknown-method",
        E,
        "`call` names a method the resource type does not have.",
        "resource w \"tiny:index:Widget\" {\n  name = \"w\"\n}\nx = call(w, \"describ\", {})\n",
        "Use one of the resource's methods; the message suggests close names.",
        SAME,
    ),
    entry(
        "unknown-object-key",
        W,
        "A key of an object value, below the top level (a property's object, an element of a list of objects, an `invoke` argument object, an option's object), that its schema object type does not declare. An error when the key is a misspelling of a required key that is missing.",
        "resource sg \"messages:index:SecurityGroup\" {\n  name    = \"w\"\n  ingress = [{ fromPort = 80, toPort = 80, protocl = \"tcp\" }]\n}\n",
        "Rename the key to the suggested name (the diagnostic carries a fix) or remove it.",
        "pcl only: the reference reports unknown keys only at the top level of a resource or invoke.",
    ),
    entry(
        "unknown-package",
        E,
        "No schema can be found for a package that a resource or `invoke` names (an `invoke`'s is silent under `--skip-invoke-typecheck`).",
        "resource r \"nosuchpkg:index:Thing\" {\n}\n",
        "Get the schema (`pulumi package get-schema NAME@VERSION > DIR/NAME-VERSION.json`) and pass `--schema-dir DIR`, or fix the package name.",
        "One error per package and checking goes on; the reference stops with a bare error (docs/differences.md).",
    ),
    entry(
        "unknown-property",
        E,
        "An attribute the object type does not have (an object, a resource's outputs, an invoke's result).",
        "o = { a = 1 }\nx = o.b\n",
        "Use one of the listed properties; the message suggests close names.",
        "pcl lists the members only when there are at most five, else suggests close names (docs/differences.md).",
    ),
    entry(
        "unknown-resource-type",
        E,
        "The package's schema has no resource of that type; silent (`dynamic`) under `--skip-resource-typecheck`.",
        "resource r \"tiny:index:Nothing\" {\n}\n",
        "Fix the type token; the message suggests close names.",
        SAME,
    ),
    entry(
        "unknown-type",
        E,
        "A `config` or `output` type label names a type that does not exist, such as `numbr`.",
        "config port numbr {\n}\n",
        "Use a PCL type (`string`, `number`, `int`, `bool`, `list(T)`, `map(T)`, `object({…})`…); the message suggests close names.",
        SAME,
    ),
    untriggerable(
        "unreadable-file",
        E,
        "A `*.pp` entry of a program directory cannot be read as a regular file (a dangling or looping symbolic link, a directory, a FIFO); the rest of the program is still checked.",
        "a program directory holding a dangling symbolic link named `x.pp`.",
        "Remove or fix the entry.",
        PCL_ONLY,
    ),
    entry(
        "unsupported-attribute",
        E,
        "A resource or component sets an attribute that is not one of its inputs; a warning under `--allow-missing-properties`.",
        "resource w \"tiny:index:Widget\" {\n  name = \"w\"\n  nosuch = 1\n}\n",
        "Remove the attribute or fix its name; the message suggests close names.",
        SAME,
    ),
    entry(
        "unsupported-block",
        E,
        "A nested block that is not allowed where it is (only `options` blocks nest in resources).",
        "resource w \"tiny:index:Widget\" {\n  name = \"w\"\n  nested {\n  }\n}\n",
        "Write the value as an attribute (`name = { … }`) instead of a block.",
        SAME,
    ),
    untriggerable(
        "unsupported-literal",
        E,
        "A literal of a kind PCL does not support.",
        "reserved: never emitted (the parser rejects such literals first).",
        "Use a string, number, bool or null literal.",
        SAME,
    ),
    entry(
        "unsupported-operator",
        E,
        "A bitwise operator (`&`, `|`, `^`, `~`): PCL has only the logical `&&`, `||` and `!`.",
        "x = true & false\n",
        "Use `&&`, `||` or `!` for booleans; PCL has no bitwise arithmetic.",
        PCL_ONLY,
    ),
    entry(
        "unterminated-template",
        E,
        "A quoted string or heredoc has no closing quote or end marker.",
        "x = <<EOT\nopen\n",
        "Close the string with `\"`, or the heredoc with its marker alone on a line.",
        SAME,
    ),
    untriggerable(
        "untyped-reference",
        E,
        "A reference resolves to a definition that has no type.",
        "reserved: never emitted, every definition has a type.",
        "None needed.",
        SAME,
    ),
    entry(
        "unused-ignore",
        W,
        "A `pcl-ignore` comment names a code that silences nothing: no diagnostic with that code is on the line the comment covers (or the code does not exist).",
        "# pcl-ignore: undefined-variable\nx = 1\n",
        "Remove the code, or the whole comment, once the problem it silenced is gone.",
        PCL_ONLY,
    ),
];

/// A SARIF `reportingDescriptor` for `code`: its id and name, the
/// meaning as `shortDescription` (first sentence) and `fullDescription`,
/// how to fix it as `help`, and its default severity.
pub fn sarif_rule(code: &str) -> serde_json::Value {
    let Some(e) = lookup(code) else {
        return serde_json::json!({"id": code, "name": code});
    };
    let short = e
        .meaning
        .split(". ")
        .next()
        .unwrap_or(e.meaning)
        .trim_end_matches('.');
    let level = match e.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let mut help = format!("{}\n\nHow to fix: {}", e.meaning, e.fix);
    if !e.example.is_empty() {
        help.push_str("\n\nExample:\n");
        help.push_str(e.example);
    }
    serde_json::json!({
        "id": e.code,
        "name": e.code,
        "shortDescription": {"text": format!("{short}.")},
        "fullDescription": {"text": e.meaning},
        "help": {"text": help},
        "defaultConfiguration": {"level": level},
    })
}

/// `docs/codes.md`: every entry, by code.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\n\
         <!-- Generated from crates/pcl_cli/src/catalogue.rs by \
         `UPDATE_EXPECT=1 cargo test -p pcl_cli --lib catalogue`; do not edit. -->\n\n\
         Every code `pcl` reports, with its default severity (under the default, \
         strict options), a minimal program that triggers it, how to fix it, and \
         how it differs from the reference (Pulumi's Go implementation). \
         `pcl explain CODE` prints the same text. The examples that use a \
         package (`tiny`, `badfn`) are checked against the schemas in \
         `testdata/schemas`.\n",
    );
    let mut entries: Vec<&Entry> = ENTRIES.iter().collect();
    entries.sort_by_key(|e| e.code);
    for e in entries {
        out.push_str(&format!("\n## `{}`\n\n", e.code));
        out.push_str(&format!("Default severity: {}.\n\n", e.severity.as_str()));
        out.push_str(e.meaning);
        out.push_str("\n\n");
        if e.example.is_empty() {
            out.push_str(&format!("No program triggers it alone: {}\n\n", e.trigger));
        } else {
            out.push_str("```hcl\n");
            out.push_str(e.example);
            out.push_str("```\n\n");
        }
        out.push_str(&format!("**Fix:** {}\n\n", e.fix));
        out.push_str(&format!("**Reference:** {}\n", e.reference));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    #[test]
    fn every_code_has_one_entry_and_every_entry_is_a_code() {
        let codes = all_codes();
        let missing: Vec<&str> = codes
            .iter()
            .map(|c| c.as_str())
            .filter(|c| lookup(c).is_none())
            .collect();
        assert!(
            missing.is_empty(),
            "codes without a catalogue entry: {missing:?}"
        );
        let stale: Vec<&str> = ENTRIES
            .iter()
            .map(|e| e.code)
            .filter(|c| !codes.iter().any(|k| k.as_str() == *c))
            .collect();
        assert!(stale.is_empty(), "entries for no code: {stale:?}");
        let mut names: Vec<&str> = ENTRIES.iter().map(|e| e.code).collect();
        let sorted = names.clone();
        names.sort_unstable();
        assert_eq!(names, sorted, "entries are sorted by code");
        names.dedup();
        assert_eq!(names.len(), ENTRIES.len(), "one entry per code");
        for e in ENTRIES {
            assert!(
                e.example.is_empty() != e.trigger.is_empty(),
                "{}: an example or a trigger, not both",
                e.code
            );
            assert!(!e.meaning.is_empty() && !e.fix.is_empty(), "{}", e.code);
        }
    }

    /// Each example, checked through the library against
    /// `testdata/schemas`, reports its code, at its default severity.
    #[test]
    fn every_example_triggers_its_code() {
        let schemas = repo().join("testdata/schemas");
        if !schemas.is_dir() {
            eprintln!("skipped: no testdata/schemas");
            return;
        }
        let loader = pcl_schema::DirLoader::new([schemas]);
        let policy = pcl_binder::BindPolicy::strict();
        let scratch = std::env::temp_dir().join(format!("pcl-catalogue-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&scratch);
        let mut failures = Vec::new();
        for e in ENTRIES.iter().filter(|e| !e.example.is_empty()) {
            let sources = vec![("main.pp".to_string(), e.example.to_string())];
            let files = pcl_binder::FsFiles::new(&scratch);
            let checked = pcl_binder::check_program_with_files(&sources, &loader, &policy, &files);
            let (_, sources, mut diagnostics) = checked.into_parts();
            crate::ignore::apply(&sources, &mut diagnostics);
            let found = diagnostics
                .iter()
                .any(|d| d.code.as_str() == e.code && d.severity == e.severity);
            if !found {
                let got: Vec<String> = diagnostics
                    .iter()
                    .map(|d| format!("{} {}: {}", d.severity.as_str(), d.code.as_str(), d.summary))
                    .collect();
                failures.push(format!("{}: got {got:?}", e.code));
            }
        }
        let _ = std::fs::remove_dir_all(&scratch);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// `docs/codes.md` is generated from the catalogue;
    /// `UPDATE_EXPECT=1` rewrites it.
    #[test]
    fn docs_codes_md_is_current() {
        let path = repo().join("docs/codes.md");
        let expected = markdown();
        if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1") {
            std::fs::write(&path, &expected).unwrap_or_else(|e| panic!("{e}"));
            return;
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            actual == expected,
            "docs/codes.md is stale: run `UPDATE_EXPECT=1 cargo test -p pcl_cli --lib catalogue`"
        );
    }
}
