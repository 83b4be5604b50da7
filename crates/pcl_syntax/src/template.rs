//! Templates: quoted strings, heredocs and bare templates.
//!
//! Parsing happens in two stages, as in HCL. First the template's tokens
//! become a flat list of parts: literal tokens (decoded), interpolations
//! and directive markers (`if`, `else`, `endif`, `for`, `endfor`). Then,
//! in order: strip markers (`~`) trim the neighbouring literal *tokens*;
//! for `<<-` heredocs the common leading whitespace of the lines is
//! removed; adjacent literals are merged and NFC-normalised; and the
//! directive markers are matched into `%{if}`/`%{for}` part nodes of the
//! tree with an explicit stack (no recursion, so directive nesting
//! cannot overflow the stack; it is capped at [`crate::MAX_NESTING_DEPTH`]).

use std::borrow::Cow;
use std::marker::PhantomData;

use pcl_diagnostics::TextRange;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

use crate::codes;
use crate::lexer::is_unicode_space;
use crate::tree::builder::Builder;
use crate::tree::{
    ExprId, PartNode, PartNodeKind, Run, Strip, TemplateForNode, TemplateIfNode, Text,
};
use crate::MAX_NESTING_DEPTH;

/// One element of the flat part list.
pub(crate) enum Flat<'s> {
    /// A literal token's decoded text (most are their source bytes,
    /// never copied).
    Lit {
        value: LitText<'s>,
        range: TextRange,
    },
    /// An interpolation part, built already.
    Interp(PartNode),
    If {
        condition: ExprId,
        strip: Strip,
        range: TextRange,
    },
    Else {
        strip: Strip,
        range: TextRange,
    },
    EndIf {
        strip: Strip,
        range: TextRange,
    },
    /// Boxed: the largest part by far, and rare; inline it would make
    /// every part (most are literals) twice as large.
    For(Box<FlatFor>),
    EndFor {
        strip: Strip,
        range: TextRange,
    },
    /// A broken directive, already reported.
    Broken,
}

/// The decoded text of a literal at a range: the source bytes there, or
/// a text of its own (boxed: few literals have one, and a flat part stays
/// 24 bytes, the size of an interpolation's).
pub(crate) struct LitText<'s> {
    // A box of one pointer, not the 24-byte `String` (see above).
    #[allow(clippy::box_collection)]
    owned: Option<Box<String>>,
    source: PhantomData<&'s str>,
}

impl<'s> LitText<'s> {
    /// `value`, decoded from the source at `range`.
    #[inline]
    pub(crate) fn new(text: &'s str, value: Cow<'s, str>, range: TextRange) -> LitText<'s> {
        match value {
            Cow::Borrowed(v) if is_source(text, v, range) => LitText {
                owned: None,
                source: PhantomData,
            },
            value => LitText::owned(value.into_owned()),
        }
    }

    fn owned(value: String) -> LitText<'s> {
        LitText {
            owned: Some(Box::new(value)),
            source: PhantomData,
        }
    }

    fn is_source(&self) -> bool {
        self.owned.is_none()
    }

    /// The text of the literal at `range` of `text`.
    #[inline]
    pub(crate) fn get<'a>(&'a self, text: &'a str, range: TextRange) -> &'a str {
        match &self.owned {
            Some(owned) => owned,
            None => text.get(range.to_usize()).unwrap_or(""),
        }
    }

    /// The text, as a string of its own.
    fn to_mut(&mut self, text: &str, range: TextRange) -> &mut String {
        self.owned
            .get_or_insert_with(|| Box::new(text.get(range.to_usize()).unwrap_or("").to_string()))
    }
}

/// The head of a `%{for}` directive.
pub(crate) struct FlatFor {
    pub(crate) key_var: Option<TextRange>,
    pub(crate) value_var: TextRange,
    pub(crate) collection: ExprId,
    pub(crate) strip: Strip,
    pub(crate) range: TextRange,
}

impl Flat<'_> {
    fn strip(&self) -> Strip {
        match self {
            Flat::Lit { .. } | Flat::Broken => Strip::default(),
            Flat::Interp(interp) => interp_strip(interp),
            Flat::For(head) => head.strip,
            Flat::If { strip, .. }
            | Flat::Else { strip, .. }
            | Flat::EndIf { strip, .. }
            | Flat::EndFor { strip, .. } => *strip,
        }
    }
}

fn interp_strip(part: &PartNode) -> Strip {
    match part.kind {
        PartNodeKind::Interpolation { strip, .. } => strip,
        _ => Strip::default(),
    }
}

/// Where template post-processing reports its diagnostics.
pub(crate) struct Sink {
    pub(crate) file: pcl_diagnostics::FileId,
    /// End offset of the template's last token.
    pub(crate) last_end: u32,
    pub(crate) diags: pcl_diagnostics::DiagnosticList,
}

impl Sink {
    fn error(&mut self, code: pcl_diagnostics::Code, range: TextRange, message: impl Into<String>) {
        self.diags.push(pcl_diagnostics::Diagnostic::error(
            code,
            pcl_diagnostics::Span::new(self.file, range),
            message,
        ));
    }
}

/// Strip markers, flush indentation, merging, NFC, then structuring.
pub(crate) fn finish_parts(
    sink: &mut Sink,
    text: &str,
    b: &mut Builder,
    mut flat: Vec<Flat<'_>>,
    flush: bool,
) -> Run {
    apply_strip_markers(text, &mut flat);
    if flush {
        flush_heredoc(text, &mut flat);
    }
    let flat = merge_literals(text, flat);
    structure(sink, text, b, flat)
}

/// The common case, done without the general passes: a template of
/// literal text and interpolations with no strip markers, no directives
/// and no `<<-` indentation, given as the run of `stack` above `base`.
/// Merges adjacent literals and NFC-normalises them exactly as
/// [`finish_parts`] would, and takes the run off the stack; returns `None`
/// (the stack untouched) when the template needs the general path.
/// Adjacent literals that are their tokens' whole text (no escapes) are
/// merged as one slice of `text`, without copying.
pub(crate) fn finish_plain<'s>(
    text: &'s str,
    b: &mut Builder,
    stack: &mut Vec<Flat<'s>>,
    base: usize,
    flush: bool,
) -> Option<Run> {
    if flush {
        return None;
    }
    let run = stack.get(base..)?;
    for part in run {
        match part {
            Flat::Lit { .. } => {}
            Flat::Interp(interp) if interp_strip(interp) == Strip::default() => {}
            _ => return None,
        }
    }
    let mark = b.mark_parts();
    // Adjacent literals are merged here, then stored once.
    let mut pending: Option<(LitText<'s>, TextRange)> = None;
    for part in stack.drain(base..) {
        match part {
            Flat::Lit { value, range } => match &mut pending {
                Some((prev, prev_range)) => join(
                    text,
                    prev,
                    prev_range,
                    (value.get(text, range), value.is_source()),
                    range,
                ),
                None => pending = Some((value, range)),
            },
            Flat::Interp(interp) => {
                if let Some(lit) = pending.take() {
                    let part = literal_part(text, b, lit);
                    b.push_part(part);
                }
                b.push_part(interp);
            }
            // Ruled out by the first pass.
            _ => {}
        }
    }
    if let Some(lit) = pending.take() {
        let part = literal_part(text, b, lit);
        b.push_part(part);
    }
    Some(b.finish_parts(mark))
}

/// Appends the literal `value` at `range` to the literal `prev` at
/// `prev_range`. Two literals that are their source bytes and touch stay
/// their source bytes; otherwise `prev` becomes a string of its own that
/// grows.
// `value` is a `Cow` on purpose: whether it is borrowed decides the join.
#[allow(clippy::ptr_arg)]
pub(crate) fn merge_literal<'s>(
    text: &'s str,
    prev: &mut LitText<'s>,
    prev_range: &mut TextRange,
    value: &Cow<'_, str>,
    range: TextRange,
) {
    let whole = matches!(value, Cow::Borrowed(v) if is_source(text, v, range));
    join(text, prev, prev_range, (value, whole), range);
}

/// Whether `value` is the slice of `text` at `range` (the same bytes in
/// place, compared by address: no slicing, no boundary checks).
fn is_source(text: &str, value: &str, range: TextRange) -> bool {
    let at = (value.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    at == range.start as usize
        && value.len() == range.len() as usize
        && range.end as usize <= text.len()
}

/// [`merge_literal`] of a text that is (`source`) or is not the source
/// bytes at `range`.
fn join(
    text: &str,
    prev: &mut LitText<'_>,
    prev_range: &mut TextRange,
    (value, source): (&str, bool),
    range: TextRange,
) {
    if !(prev.is_source() && source && prev_range.end == range.start) {
        prev.to_mut(text, *prev_range).push_str(value);
    }
    *prev_range = prev_range.cover(range);
}

/// A merged literal as a part: NFC-normalised (a copy only when it is not
/// NFC already).
fn literal_part(text: &str, b: &mut Builder, (value, range): (LitText<'_>, TextRange)) -> PartNode {
    let source = value.is_source();
    let value = nfc(Cow::Borrowed(value.get(text, range)));
    let text = match value {
        // Its source bytes, NFC already: no need to compare them.
        Cow::Borrowed(_) if source => Text::Source(range),
        value => b.text(text, range, &value),
    };
    PartNode {
        kind: PartNodeKind::Literal(text),
        range,
    }
}

fn nfc(value: Cow<'_, str>) -> Cow<'_, str> {
    if value.is_ascii() || is_nfc_quick(value.chars()) == IsNormalized::Yes {
        value
    } else {
        Cow::Owned(value.nfc().collect())
    }
}

/// Matches directive markers into a tree with an explicit stack.
fn structure(sink: &mut Sink, text: &str, b: &mut Builder, flat: Vec<Flat<'_>>) -> Run {
    let mut stack: Vec<Frame> = vec![Frame::root()];
    // One `nesting-too-deep` per template, not one per excess directive;
    // the `else`/`end…` directives of the skipped (innermost) ones are
    // skipped with them instead of each being "without a matching" one.
    let mut too_deep_reported = false;
    let mut skipped_open = 0usize;
    for part in flat {
        if skipped_open > 0 {
            match &part {
                Flat::EndIf { .. } | Flat::EndFor { .. } => {
                    skipped_open -= 1;
                    continue;
                }
                Flat::Else { .. } => continue,
                _ => {}
            }
        }
        // An `if` or `for` past the limit opens nothing.
        let opening = match &part {
            Flat::If { range, .. } => Some(*range),
            Flat::For(head) => Some(head.range),
            _ => None,
        };
        if let Some(range) = opening {
            if stack.len() > MAX_NESTING_DEPTH {
                if !too_deep_reported {
                    too_deep_reported = true;
                    sink.error(
                        codes::NESTING_TOO_DEEP,
                        range,
                        format!("template directives nest deeper than {MAX_NESTING_DEPTH} levels"),
                    );
                }
                skipped_open += 1;
                continue;
            }
        }
        match part {
            Flat::Lit { value, range } => {
                let part = PartNode {
                    kind: PartNodeKind::Literal(b.text(text, range, value.get(text, range))),
                    range,
                };
                push_part(&mut stack, part)
            }
            Flat::Interp(interp) => push_part(&mut stack, interp),
            Flat::Broken => {}
            Flat::If {
                condition,
                strip,
                range,
            } => {
                stack.push(Frame {
                    head: FrameHead::If {
                        condition,
                        strip,
                        range,
                        else_strip: Strip::default(),
                        then_parts: None,
                    },
                    parts: Vec::new(),
                });
            }
            Flat::For(head) => {
                let FlatFor {
                    key_var,
                    value_var,
                    collection,
                    strip,
                    range,
                } = *head;
                stack.push(Frame {
                    head: FrameHead::For {
                        key_var,
                        value_var,
                        collection,
                        strip,
                        range,
                    },
                    parts: Vec::new(),
                });
            }
            Flat::Else { strip, range } => {
                let top = stack.last_mut();
                match top.map(|f| (&mut f.head, &mut f.parts)) {
                    Some((
                        FrameHead::If {
                            then_parts,
                            else_strip,
                            ..
                        },
                        parts,
                    )) if then_parts.is_none() => {
                        *then_parts = Some(std::mem::take(parts));
                        *else_strip = strip;
                    }
                    Some((
                        FrameHead::If {
                            range: if_range, ..
                        },
                        _,
                    )) => {
                        let message =
                            format!("this `if` (at bytes {if_range}) already has an `else`");
                        sink.error(codes::UNBALANCED_TEMPLATE_DIRECTIVE, range, message);
                    }
                    Some((FrameHead::For { .. }, _)) => {
                        sink.error(
                            codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                            range,
                            "a `for` directive cannot have an `else`",
                        );
                    }
                    _ => sink.error(
                        codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                        range,
                        "`else` without a matching `if` directive",
                    ),
                }
            }
            Flat::EndIf { strip, range } => match stack.last().map(|f| &f.head) {
                Some(FrameHead::If { .. }) => close_frame(b, &mut stack, strip, range),
                Some(FrameHead::For { .. }) => {
                    sink.error(
                        codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                        range,
                        "expected `endfor` to close the `for` directive, found `endif`",
                    );
                }
                _ => sink.error(
                    codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                    range,
                    "`endif` without a matching `if` directive",
                ),
            },
            Flat::EndFor { strip, range } => match stack.last().map(|f| &f.head) {
                Some(FrameHead::For { .. }) => close_frame(b, &mut stack, strip, range),
                Some(FrameHead::If { .. }) => {
                    sink.error(
                        codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                        range,
                        "expected `endif` to close the `if` directive, found `endfor`",
                    );
                }
                _ => sink.error(
                    codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                    range,
                    "`endfor` without a matching `for` directive",
                ),
            },
        }
    }
    while stack.len() > 1 {
        if let Some(frame) = stack.last() {
            let (range, word) = match &frame.head {
                FrameHead::If { range, .. } => (*range, "endif"),
                FrameHead::For { range, .. } => (*range, "endfor"),
                FrameHead::Root => (TextRange::default(), ""),
            };
            sink.error(
                codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                range,
                format!("this directive has no matching `{word}`"),
            );
        }
        let end = sink.last_end;
        close_frame(b, &mut stack, Strip::default(), TextRange::empty(end));
    }
    let parts = stack.pop().map(|f| f.parts).unwrap_or_default();
    push_run(b, parts)
}

/// Moves `parts` into the tree as one run.
fn push_run(b: &mut Builder, parts: Vec<PartNode>) -> Run {
    let mark = b.mark_parts();
    for part in parts {
        b.push_part(part);
    }
    b.finish_parts(mark)
}

enum FrameHead {
    Root,
    If {
        condition: ExprId,
        strip: Strip,
        range: TextRange,
        else_strip: Strip,
        then_parts: Option<Vec<PartNode>>,
    },
    For {
        key_var: Option<TextRange>,
        value_var: TextRange,
        collection: ExprId,
        strip: Strip,
        range: TextRange,
    },
}

struct Frame {
    head: FrameHead,
    parts: Vec<PartNode>,
}

impl Frame {
    fn root() -> Frame {
        Frame {
            head: FrameHead::Root,
            parts: Vec::new(),
        }
    }
}

fn push_part(stack: &mut [Frame], part: PartNode) {
    if let Some(frame) = stack.last_mut() {
        frame.parts.push(part);
    }
}

/// Pops the top directive frame and adds the finished directive to its parent.
fn close_frame(b: &mut Builder, stack: &mut Vec<Frame>, end_strip: Strip, end_range: TextRange) {
    let Some(frame) = stack.pop() else { return };
    let part = match frame.head {
        FrameHead::Root => {
            stack.push(frame);
            return;
        }
        FrameHead::If {
            condition,
            strip,
            range,
            else_strip,
            then_parts,
        } => {
            let (then_parts, else_parts) = match then_parts {
                Some(then_parts) => (then_parts, Some(frame.parts)),
                None => (frame.parts, None),
            };
            let then_parts = push_run(b, then_parts);
            let else_parts = else_parts.map(|parts| push_run(b, parts));
            b.template_if(
                TemplateIfNode {
                    condition,
                    then_parts,
                    else_parts,
                    if_strip: strip,
                    else_strip,
                    endif_strip: end_strip,
                },
                range.cover(end_range),
            )
        }
        FrameHead::For {
            key_var,
            value_var,
            collection,
            strip,
            range,
        } => {
            let body = push_run(b, frame.parts);
            b.template_for(
                TemplateForNode {
                    key_var,
                    value_var,
                    collection,
                    body,
                    for_strip: strip,
                    endfor_strip: end_strip,
                },
                range.cover(end_range),
            )
        }
    };
    push_part(stack, part);
}

/// `${~`/`%{~` trim the literal token just before; `~}` the one just after.
fn apply_strip_markers(text: &str, flat: &mut [Flat<'_>]) {
    for idx in 0..flat.len() {
        let strip = match flat.get(idx) {
            Some(part) => part.strip(),
            None => continue,
        };
        if strip.left && idx > 0 {
            if let Some(Flat::Lit { value, range }) = flat.get_mut(idx - 1) {
                let value = value.to_mut(text, *range);
                let trimmed = value.trim_end_matches(is_unicode_space).len();
                value.truncate(trimmed);
            }
        }
        if strip.right {
            if let Some(Flat::Lit { value, range }) = flat.get_mut(idx + 1) {
                let trimmed = value.get(text, *range).trim_start_matches(is_unicode_space);
                *value = LitText::owned(trimmed.to_string());
            }
        }
    }
}

/// Removes the common leading whitespace of a `<<-` heredoc's lines.
fn flush_heredoc(text: &str, flat: &mut [Flat<'_>]) {
    let mut min: Option<usize> = None;
    let mut line_starts = Vec::new();
    let mut at_line_start = true;
    for (idx, part) in flat.iter().enumerate() {
        if at_line_start {
            match part {
                Flat::Lit { value, range } => {
                    let value = value.get(text, *range);
                    let blank = value.ends_with('\n') && value.chars().all(is_unicode_space);
                    if !blank {
                        let count = value
                            .chars()
                            .take_while(|c| is_unicode_space(*c) && *c != '\n')
                            .count();
                        min = Some(min.map_or(count, |m| m.min(count)));
                        line_starts.push(idx);
                    }
                }
                _ => min = Some(0),
            }
        }
        at_line_start =
            matches!(part, Flat::Lit { value, range } if value.get(text, *range).ends_with('\n'));
    }
    let Some(min) = min.filter(|m| *m > 0) else {
        return;
    };
    for idx in line_starts {
        if let Some(Flat::Lit { value, range }) = flat.get_mut(idx) {
            let value = value.to_mut(text, *range);
            let cut: usize = value.chars().take(min).map(char::len_utf8).sum();
            value.replace_range(..cut, "");
        }
    }
}

/// Merges adjacent literals and NFC-normalises every literal.
fn merge_literals<'s>(text: &'s str, flat: Vec<Flat<'s>>) -> Vec<Flat<'s>> {
    let mut out: Vec<Flat<'s>> = Vec::with_capacity(flat.len());
    for part in flat {
        if let Flat::Lit { value, range } = &part {
            if let Some(Flat::Lit {
                value: prev,
                range: prev_range,
            }) = out.last_mut()
            {
                let value = (value.get(text, *range), value.is_source());
                join(text, prev, prev_range, value, *range);
                continue;
            }
        }
        out.push(part);
    }
    for part in &mut out {
        if let Flat::Lit { value, range } = part {
            let current = value.get(text, *range);
            if !current.is_ascii() {
                *value = LitText::owned(current.nfc().collect());
            }
        }
    }
    out
}
