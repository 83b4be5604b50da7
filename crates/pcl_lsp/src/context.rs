//! Where the cursor is, read from the tokens before it: which block,
//! object, call or string it is inside, whether it is about to name a key
//! or write an expression, and the word typed so far. For an object
//! nested in a resource's, invoke's or component's input it also reads
//! the path of keys down to it (list elements passed through), and after
//! a `.` the traversal written before it (read backwards, each token
//! once).
//!
//! This reads tokens, not a syntax tree, so it works while the text does
//! not parse (mid-typing: an unclosed brace, a half-written header). One
//! pass over the tokens before the cursor keeps a stack of open
//! delimiters; for a key position, a second pass over the tokens after
//! the cursor collects the keys already set later in the same body. Both
//! are linear in the text and use no recursion.

use pcl_syntax::{Token, TokenKind};

/// What completion and signature help need to know about the cursor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cursor {
    pub(crate) place: Place,
    /// The identifier (or string text) typed before the cursor.
    pub(crate) word: String,
    /// Where `word` starts (a byte offset).
    pub(crate) word_start: usize,
    /// Variables of the `for` expressions the cursor is in the body of.
    pub(crate) for_vars: Vec<String>,
    /// Whether the cursor is inside a resource's body (where a `range`
    /// option makes `range` a name).
    pub(crate) in_resource: bool,
    /// The innermost call the cursor is in the arguments of.
    pub(crate) call: Option<Call>,
    /// At an expression written right after `key =` in an object of a
    /// resource, invoke or component input: where that key is.
    pub(crate) value_of: Option<(Root, Vec<String>)>,
}

/// What the keys of a path of nested objects start from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Root {
    /// The inputs of the resource of this token.
    Resource(String),
    /// The arguments of `invoke("token", { … })`.
    Invoke(String),
    /// The inputs of the component around the cursor.
    Component,
}

/// One step of a traversal written before a `.`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// `.name`
    Attr(String),
    /// `[…]` (or `.0`): an element.
    Index,
}

/// A call around the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Call {
    pub(crate) name: String,
    /// The index of the argument the cursor is in.
    pub(crate) argument: usize,
    /// The first argument, when it is a string literal without
    /// interpolations (the token of an `invoke`).
    pub(crate) first_string: Option<String>,
}

/// What the cursor is about to write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Place {
    /// The start of a top-level item.
    TopLevel,
    /// Inside the token string of a `resource`/`read` header.
    ResourceToken,
    /// Inside the first (string) argument of `invoke(`.
    FunctionToken,
    /// The key of an attribute in the body of `resource … "token"`, or
    /// of an object written at `path` (keys from the input down; list
    /// elements are passed through) in it.
    ResourceKey {
        token: String,
        path: Vec<String>,
        set: Vec<String>,
    },
    /// The key of an attribute in a resource's `options { }`.
    OptionKey { set: Vec<String> },
    /// A key of the argument object of `invoke("token", { … })`, or of an
    /// object written at `path` in it.
    InvokeKey {
        token: String,
        path: Vec<String>,
        set: Vec<String>,
    },
    /// The key of an attribute in a component's body, or of an object
    /// written at `path` in it.
    ComponentKey { path: Vec<String>, set: Vec<String> },
    /// After `root.steps.`: a property of what the traversal names.
    Member { root: String, steps: Vec<Step> },
    /// Inside a string (no interpolation) written right after `key =`:
    /// [`Cursor::value_of`] says where the key is; `word` is the text
    /// typed in the string so far.
    StringValue,
    /// The value of a resource option that names resources (`provider =`,
    /// `parent =`, `deletedWith =`, an element of `dependsOn = [ ]`).
    ResourceName,
    /// An expression: a value, an argument, an interpolation.
    Expression,
    /// Anywhere else (inside another string, after `.`, inside a header,
    /// a key of another block): nothing to offer.
    #[default]
    Nothing,
}

/// An open delimiter and what it opened.
#[derive(Clone, Debug)]
struct Frame {
    role: Role,
    /// Where this object or tuple sits in the one around it.
    seg: Seg,
    /// The statement being written in a body (blocks, objects, the top
    /// level).
    stmt: Statement,
    /// Keys set in this body before the cursor.
    keys: Vec<String>,
    /// Commas at this level (arguments of a call).
    commas: usize,
    /// `[for a, b in xs : …]` / `{for …}`: the state of the header.
    for_state: ForState,
    for_vars: Vec<String>,
    /// The text of a string literal (no interpolations), for quote frames.
    literal: String,
    literal_start: usize,
    interpolated: bool,
    /// Significant tokens seen at this level (for calls: the first
    /// argument; for brackets: a leading `for`).
    seen: usize,
    first_string: Option<String>,
}

/// Where an object or tuple is written: as the value of `key =`, as an
/// element of a tuple, or anywhere else (a call's argument, an operand).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seg {
    Key(String),
    Element,
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Role {
    TopLevel,
    /// A block body: its header words (`resource`, `name`, `"token"`).
    Block(Vec<String>),
    /// An object constructor; `Some(token)` for the argument object of an
    /// invoke whose token is known.
    Object(Option<String>),
    /// `name(`.
    Call(String),
    /// `(` of a group, `[` of a tuple.
    Group,
    Quote,
    Heredoc,
    /// `${` or `%{`.
    Interp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum ForState {
    #[default]
    None,
    Vars,
    Collection,
    Body,
}

/// The statement being written: its words so far (identifiers and string
/// labels, at most [`MAX_WORDS`]) and whether `=` (or an object's `:`)
/// came.
#[derive(Clone, Debug, Default)]
struct Statement {
    words: Vec<String>,
    tokens: usize,
    assigned: bool,
    /// The previous token, when it was an identifier (the name of a call
    /// if `(` follows).
    last_ident: Option<String>,
}

const MAX_WORDS: usize = 4;

impl Frame {
    fn new(role: Role) -> Frame {
        Frame {
            role,
            seg: Seg::Other,
            stmt: Statement::default(),
            keys: Vec::new(),
            commas: 0,
            for_state: ForState::None,
            for_vars: Vec::new(),
            literal: String::new(),
            literal_start: 0,
            interpolated: false,
            seen: 0,
            first_string: None,
        }
    }

    fn is_body(&self) -> bool {
        matches!(self.role, Role::TopLevel | Role::Block(_) | Role::Object(_))
    }
}

/// Reads the cursor at byte `offset` of `text`.
#[cfg(test)]
pub(crate) fn cursor(text: &str, offset: usize) -> Cursor {
    cursor_within(text, 0, offset, text.len())
}

/// Reads the cursor at byte `offset` of `text`, lexing only
/// `start..end`: `start` must be where a top-level item starts (or 0), and
/// `end` bounds the look for keys set after the cursor. A cursor outside
/// the window, or inside a character, is no cursor.
pub(crate) fn cursor_within(text: &str, start: usize, offset: usize, end: usize) -> Cursor {
    let (Some(before), Some(_)) = (text.get(start..offset), text.get(offset..end)) else {
        return Cursor::default();
    };
    let tokens = pcl_syntax::lex(before);
    // Inside a line comment (not ended by its line break yet): nothing to
    // offer. (An unclosed `/*` is no comment: it lexes as `/` `*`.)
    let in_comment = tokens.last().is_some_and(|t| {
        let text = before.get(t.range.to_usize()).unwrap_or("");
        matches!(t.kind, TokenKind::HashComment | TokenKind::SlashComment) && !text.ends_with('\n')
    });
    if in_comment {
        return Cursor::default();
    }
    let significant: Vec<Token> = tokens.into_iter().filter(|t| !t.kind.is_trivia()).collect();
    // The identifier being typed is not part of the statement yet.
    let (body, word, word_start) = match significant.split_last() {
        Some((last, rest))
            if last.kind == TokenKind::Ident && last.range.end as usize == before.len() =>
        {
            let at = last.range.start as usize;
            (rest, before.get(at..).unwrap_or("").to_string(), start + at)
        }
        _ => (significant.as_slice(), String::new(), offset),
    };
    let mut stack = vec![Frame::new(Role::TopLevel)];
    for t in body {
        step(&mut stack, *t, before);
    }
    let last_kind = body.last().map(|t| t.kind);
    let mut cursor = Cursor {
        word,
        word_start,
        ..Cursor::default()
    };
    for frame in &stack {
        if frame.for_state == ForState::Body {
            cursor.for_vars.extend(frame.for_vars.iter().cloned());
        }
        if is_resource_header(&frame.role) {
            cursor.in_resource = true;
        }
    }
    cursor.call = innermost_call(&stack);
    let Some(top) = stack.last() else {
        return cursor;
    };
    let parent = stack.len().checked_sub(2).and_then(|i| stack.get(i));
    cursor.place = place(&stack, top, parent, last_kind);
    if last_kind == Some(TokenKind::Dot) {
        if let Some((root, steps)) = member_chain(body, before) {
            cursor.place = Place::Member { root, steps };
        }
    }
    if cursor.place == Place::Expression && top.is_body() && top.stmt.tokens == 2 {
        if let Some(key) = top.stmt.words.first() {
            cursor.value_of = object_path(&stack).map(|(root, mut path)| {
                path.push(key.strip_prefix('"').unwrap_or(key).to_string());
                (root, path)
            });
        }
    }
    if cursor.place == Place::Nothing && top.role == Role::Quote && !top.interpolated {
        let below = stack.len().saturating_sub(1);
        let in_value = parent.filter(|p| p.is_body() && p.stmt.tokens == 2 && p.stmt.assigned);
        if let Some(key) = in_value.and_then(|p| p.stmt.words.first()) {
            let path = stack.get(..below).and_then(object_path);
            if let Some((root, mut path)) = path {
                path.push(key.strip_prefix('"').unwrap_or(key).to_string());
                cursor.value_of = Some((root, path));
                cursor.place = Place::StringValue;
            }
        }
    }
    if matches!(
        cursor.place,
        Place::ResourceToken | Place::FunctionToken | Place::StringValue
    ) {
        cursor.word = top.literal.clone();
        cursor.word_start = start + top.literal_start;
    }
    if let Place::ResourceKey { set, .. }
    | Place::OptionKey { set }
    | Place::InvokeKey { set, .. }
    | Place::ComponentKey { set, .. } = &mut cursor.place
    {
        set.extend(top.keys.iter().cloned());
        set.extend(keys_after(text.get(offset..end).unwrap_or("")));
    }
    cursor
}

fn place(stack: &[Frame], top: &Frame, parent: Option<&Frame>, last: Option<TokenKind>) -> Place {
    if last == Some(TokenKind::Dot) {
        return Place::Nothing;
    }
    if names_resources(stack, top, parent, last) {
        return Place::ResourceName;
    }
    match &top.role {
        Role::Quote => {
            if top.interpolated {
                return Place::Nothing;
            }
            match parent.map(|p| (&p.role, p)) {
                Some((Role::Call(name), p)) if name == "invoke" && p.commas == 0 && p.seen == 0 => {
                    Place::FunctionToken
                }
                Some((_, p)) if p.is_body() && !p.stmt.assigned => {
                    let words = &p.stmt.words;
                    let header = words.first().map(String::as_str);
                    if matches!(header, Some("resource" | "read")) && words.len() == 2 {
                        Place::ResourceToken
                    } else {
                        Place::Nothing
                    }
                }
                _ => Place::Nothing,
            }
        }
        Role::Heredoc => Place::Nothing,
        Role::Call(_) | Role::Group | Role::Interp => match top.for_state {
            ForState::Vars => Place::Nothing,
            _ => Place::Expression,
        },
        Role::TopLevel | Role::Block(_) | Role::Object(_) => {
            if top.for_state == ForState::Vars {
                return Place::Nothing;
            }
            if top.stmt.assigned || matches!(top.for_state, ForState::Collection | ForState::Body) {
                return Place::Expression;
            }
            if top.stmt.tokens > 0 {
                return Place::Nothing;
            }
            key_place(stack, top, parent)
        }
    }
}

/// The options whose value is a resource, and those whose value is a
/// list of resources.
const RESOURCE_OPTIONS: &[&str] = &["provider", "parent", "deletedWith"];
const RESOURCE_LIST_OPTIONS: &[&str] = &["dependsOn"];

/// Whether the cursor is where a resource option names a resource: right
/// after `provider =` (and the like) in `options { }`, or after `[` or
/// `,` in `dependsOn = [ ]`.
fn names_resources(
    stack: &[Frame],
    top: &Frame,
    parent: Option<&Frame>,
    last: Option<TokenKind>,
) -> bool {
    let is_options = |f: &Frame, at: usize| {
        matches!(&f.role, Role::Block(w) if w.len() == 1 && w.first().is_some_and(|w| w == "options"))
            && at
                .checked_sub(1)
                .and_then(|i| stack.get(i))
                .is_some_and(|p| is_resource_header(&p.role))
    };
    let depth = stack.len().saturating_sub(1);
    let key = |f: &Frame| f.stmt.words.first().cloned().unwrap_or_default();
    if is_options(top, depth) && top.stmt.assigned && top.stmt.tokens == 2 {
        return RESOURCE_OPTIONS.contains(&key(top).as_str());
    }
    if top.role == Role::Group && matches!(last, Some(TokenKind::OBrack | TokenKind::Comma)) {
        if let (Some(p), Seg::Key(k)) = (parent, &top.seg) {
            return is_options(p, depth.saturating_sub(1))
                && RESOURCE_LIST_OPTIONS.contains(&k.as_str());
        }
    }
    false
}

/// Where an object or tuple opened now sits in `top`, the frame around it.
fn seg_in(top: &Frame) -> Seg {
    if top.is_body() && top.stmt.assigned && top.stmt.tokens == 2 && top.for_state == ForState::None
    {
        if let Some(key) = top.stmt.words.first() {
            return Seg::Key(key.strip_prefix('"').unwrap_or(key).to_string());
        }
    }
    if top.role == Role::Group && top.for_state == ForState::None {
        return Seg::Element;
    }
    Seg::Other
}

/// The path of keys from the resource, invoke or component whose input
/// the innermost frames are written in, down to the top frame: each
/// object or tuple the value of a key, or an element of a tuple. `None`
/// when another construct (a call, a `for`, a group) is between them.
fn object_path(stack: &[Frame]) -> Option<(Root, Vec<String>)> {
    let mut keys = Vec::new();
    for f in stack.iter().rev() {
        let root = match &f.role {
            Role::Block(words) => match resource_token(words) {
                Some(token) => Root::Resource(token),
                None if is_component_header(words) => Root::Component,
                None => return None,
            },
            Role::Object(Some(token)) => Root::Invoke(token.clone()),
            Role::Object(None) | Role::Group => {
                if f.for_state != ForState::None {
                    return None;
                }
                match &f.seg {
                    Seg::Key(k) => keys.push(k.clone()),
                    Seg::Element => {}
                    Seg::Other => return None,
                }
                continue;
            }
            _ => return None,
        };
        keys.reverse();
        return Some((root, keys));
    }
    None
}

fn is_component_header(words: &[String]) -> bool {
    matches!(words, [kind, _, source] if kind == "component" && source.starts_with('"'))
}

/// The traversal written before the `.` that ends `body`: its root name
/// and steps (`a.b[0].` is `a` with `.b`, `[…]`). Read backwards, each
/// token once.
fn member_chain(body: &[Token], text: &str) -> Option<(String, Vec<Step>)> {
    let mut steps = Vec::new();
    // `dot` is the index of a `.` whose left side is read next.
    let mut dot = body.len().checked_sub(1)?;
    loop {
        if body.get(dot)?.kind != TokenKind::Dot {
            return None;
        }
        let mut at = dot.checked_sub(1)?;
        // Index brackets: skipped to their opening, each an element.
        while body.get(at)?.kind == TokenKind::CBrack {
            let mut depth = 0usize;
            loop {
                match body.get(at)?.kind {
                    TokenKind::CBrack => depth += 1,
                    TokenKind::OBrack => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                at = at.checked_sub(1)?;
            }
            steps.push(Step::Index);
            at = at.checked_sub(1)?;
        }
        let t = body.get(at)?;
        let after_dot = at
            .checked_sub(1)
            .and_then(|i| body.get(i))
            .is_some_and(|p| p.kind == TokenKind::Dot);
        match t.kind {
            TokenKind::NumberLit if after_dot => steps.push(Step::Index),
            TokenKind::Ident if after_dot => {
                steps.push(Step::Attr(text.get(t.range.to_usize())?.to_string()));
            }
            TokenKind::Ident => {
                steps.reverse();
                return Some((text.get(t.range.to_usize())?.to_string(), steps));
            }
            _ => return None,
        }
        dot = at.checked_sub(1)?;
    }
}

/// The place at the start of a statement in a body.
fn key_place(stack: &[Frame], top: &Frame, parent: Option<&Frame>) -> Place {
    if top.role == Role::TopLevel {
        return Place::TopLevel;
    }
    if let Role::Block(words) = &top.role {
        let in_resource = parent.is_some_and(|p| is_resource_header(&p.role));
        if words.len() == 1 && words.first().is_some_and(|w| w == "options") && in_resource {
            return Place::OptionKey { set: Vec::new() };
        }
    }
    let set = Vec::new();
    match object_path(stack) {
        Some((Root::Resource(token), path)) => Place::ResourceKey { token, path, set },
        Some((Root::Invoke(token), path)) => Place::InvokeKey { token, path, set },
        Some((Root::Component, path)) => Place::ComponentKey { path, set },
        None => Place::Nothing,
    }
}

fn resource_token(words: &[String]) -> Option<String> {
    match words {
        [kind, _, token] if kind == "resource" || kind == "read" => {
            token.strip_prefix('"').map(str::to_string)
        }
        _ => None,
    }
}

fn is_resource_header(role: &Role) -> bool {
    matches!(role, Role::Block(words) if resource_token(words).is_some())
}

fn innermost_call(stack: &[Frame]) -> Option<Call> {
    stack.iter().rev().find_map(|f| match &f.role {
        Role::Call(name) => Some(Call {
            name: name.clone(),
            argument: f.commas,
            first_string: f.first_string.clone(),
        }),
        _ => None,
    })
}

/// Advances the stack over one significant token.
fn step(stack: &mut Vec<Frame>, t: Token, text: &str) {
    let token_text = text.get(t.range.to_usize()).unwrap_or("");
    let Some(top) = stack.last_mut() else {
        return;
    };
    match t.kind {
        TokenKind::QuotedLit | TokenKind::StringLit if top.role == Role::Quote => {
            top.literal.push_str(token_text);
            return;
        }
        TokenKind::CQuote | TokenKind::QuotedNewline => {
            close_quote(stack);
            return;
        }
        // A raw line break ends a quoted string (the lexer goes back to
        // the enclosing mode), then counts as a line break there.
        TokenKind::Newline if top.role == Role::Quote => {
            close_quote(stack);
            step(stack, t, text);
            return;
        }
        TokenKind::CHeredoc => {
            if let Some(pos) = stack.iter().rposition(|f| f.role == Role::Heredoc) {
                stack.truncate(pos);
                after_operand(stack, None);
            }
            return;
        }
        TokenKind::TemplateSeqEnd => {
            if let Some(pos) = stack.iter().rposition(|f| f.role == Role::Interp) {
                stack.truncate(pos);
            }
            return;
        }
        _ if matches!(top.role, Role::Quote | Role::Heredoc)
            && !matches!(
                t.kind,
                TokenKind::TemplateInterp | TokenKind::TemplateControl
            ) =>
        {
            return;
        }
        _ => {}
    }
    let prev_ident = top.stmt.last_ident.take();
    match t.kind {
        TokenKind::Newline => {
            if top.is_body() {
                top.stmt = Statement::default();
            }
        }
        TokenKind::Comma => {
            top.commas += 1;
            if top.is_body() {
                top.stmt = Statement::default();
            }
        }
        TokenKind::Equal | TokenKind::Colon if top.is_body() && !top.stmt.assigned => {
            if top.for_state == ForState::Collection && t.kind == TokenKind::Colon {
                top.for_state = ForState::Body;
                return;
            }
            if top.stmt.tokens == 1 {
                if let Some(key) = top.stmt.words.first() {
                    let key = key.strip_prefix('"').unwrap_or(key).to_string();
                    top.keys.push(key);
                }
            }
            top.stmt.assigned = true;
            top.stmt.tokens += 1;
        }
        TokenKind::Colon if top.for_state == ForState::Collection => {
            top.for_state = ForState::Body;
        }
        TokenKind::OBrace => {
            let role = brace_role(top);
            let seg = seg_in(top);
            note_token(top, None);
            let mut frame = Frame::new(role);
            frame.seg = seg;
            stack.push(frame);
        }
        TokenKind::OParen => {
            let role = match prev_ident {
                Some(name) => Role::Call(name),
                None => {
                    note_token(top, None);
                    Role::Group
                }
            };
            stack.push(Frame::new(role));
        }
        TokenKind::OBrack => {
            let seg = seg_in(top);
            note_token(top, None);
            let mut frame = Frame::new(Role::Group);
            frame.seg = seg;
            stack.push(frame);
        }
        TokenKind::TemplateInterp | TokenKind::TemplateControl => {
            top.interpolated = true;
            stack.push(Frame::new(Role::Interp));
        }
        TokenKind::OQuote => {
            let mut quote = Frame::new(Role::Quote);
            quote.literal_start = t.range.end as usize;
            stack.push(quote);
        }
        TokenKind::OHeredoc => stack.push(Frame::new(Role::Heredoc)),
        TokenKind::CBrace => close(stack, |r| matches!(r, Role::Block(_) | Role::Object(_))),
        TokenKind::CParen => close(stack, |r| matches!(r, Role::Call(_) | Role::Group)),
        TokenKind::CBrack => close(stack, |r| *r == Role::Group),
        TokenKind::Ident => {
            match (top.for_state, token_text) {
                (ForState::None, "for") if top.seen == 0 && top.stmt.tokens == 0 => {
                    top.for_state = ForState::Vars;
                    top.seen += 1;
                    return;
                }
                (ForState::Vars, "in") => {
                    top.for_state = ForState::Collection;
                    return;
                }
                (ForState::Vars, var) => {
                    top.for_vars.push(var.to_string());
                    return;
                }
                _ => {}
            }
            note_token(top, Some(token_text.to_string()));
            top.stmt.last_ident = Some(token_text.to_string());
        }
        _ => note_token(top, None),
    }
}

/// Counts a token of the current statement; `word` is an identifier or
/// label to remember.
fn note_token(top: &mut Frame, word: Option<String>) {
    if top.role != Role::Quote && top.seen == 0 && top.commas == 0 {
        if let Some(w) = word.as_ref().filter(|w| w.starts_with('"')) {
            top.first_string = Some(w.get(1..).unwrap_or("").to_string());
        }
    }
    top.seen += 1;
    top.stmt.tokens += 1;
    top.stmt.last_ident = None;
    if let Some(w) = word {
        if top.stmt.words.len() < MAX_WORDS {
            top.stmt.words.push(w);
        }
    }
}

/// Pops the innermost quote frame: a closed string.
fn close_quote(stack: &mut Vec<Frame>) {
    if let Some(pos) = stack.iter().rposition(|f| f.role == Role::Quote) {
        if let Some(q) = stack.split_off(pos).into_iter().next() {
            let value = (!q.interpolated).then_some(q.literal);
            after_operand(stack, value.map(|v| format!("\"{v}")));
        }
    }
}

/// A string (or heredoc) closed: it counts as one operand of the frame
/// below; `value` is `"` and its text when it had no interpolation.
fn after_operand(stack: &mut [Frame], value: Option<String>) {
    if let Some(top) = stack.last_mut() {
        note_token(top, value);
    }
}

/// What a `{` opens, given the frame it is in.
fn brace_role(top: &Frame) -> Role {
    if let Role::Call(name) = &top.role {
        if name == "invoke" && top.commas == 1 && top.seen <= 1 {
            return Role::Object(top.first_string.clone());
        }
        return Role::Object(None);
    }
    if top.is_body() && !top.stmt.assigned && top.for_state == ForState::None {
        return Role::Block(top.stmt.words.clone());
    }
    Role::Object(None)
}

/// Pops up to and including the innermost frame `closes` accepts (a
/// stray closer pops nothing).
fn close(stack: &mut Vec<Frame>, closes: impl Fn(&Role) -> bool) {
    if let Some(pos) = stack.iter().rposition(|f| closes(&f.role)) {
        if pos > 0 {
            stack.truncate(pos);
            if let Some(top) = stack.last_mut() {
                top.stmt.last_ident = None;
            }
        }
    }
}

/// The keys set in `after` (the text after the cursor) in the body the
/// cursor is in: attribute names at the body's own level, from the
/// statement after the cursor's to the body's closing brace (or a
/// top-level item starting in the first column, should the brace never
/// close).
fn keys_after(after: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut depth = 0usize;
    // The rest of the cursor's own statement is skipped (none when a
    // space follows the cursor: `{ a = 1, | b = 2 }`).
    let mut started = after.starts_with([' ', '\t']);
    let mut line_start = false;
    let mut words = 0usize;
    let mut key: Option<&str> = None;
    for t in pcl_syntax::lex(after) {
        let token_text = after.get(t.range.to_usize()).unwrap_or("");
        let column_zero = line_start;
        line_start = t.kind == TokenKind::Newline;
        if t.kind.is_trivia() {
            continue;
        }
        let level = depth;
        match t.kind {
            TokenKind::OBrace
            | TokenKind::OParen
            | TokenKind::OBrack
            | TokenKind::OQuote
            | TokenKind::OHeredoc
            | TokenKind::TemplateInterp
            | TokenKind::TemplateControl => depth += 1,
            TokenKind::CBrace | TokenKind::CParen | TokenKind::CBrack if depth == 0 => break,
            TokenKind::CBrace
            | TokenKind::CParen
            | TokenKind::CBrack
            | TokenKind::CQuote
            | TokenKind::CHeredoc
            | TokenKind::TemplateSeqEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
        if level > 0 {
            continue;
        }
        if column_zero && t.kind == TokenKind::Ident {
            break;
        }
        match t.kind {
            TokenKind::Newline | TokenKind::Comma => {
                started = true;
                words = 0;
                key = None;
            }
            TokenKind::Equal | TokenKind::Colon if started && words == 1 => {
                keys.extend(key.map(str::to_string));
                words += 1;
            }
            TokenKind::Ident if words == 0 => {
                key = Some(token_text);
                words = 1;
            }
            _ => words += 1,
        }
    }
    keys
}

#[cfg(test)]
mod tests;
