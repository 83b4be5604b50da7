//! First-token dispatch: a `choice` that tries only the alternatives that
//! can start with the next token ([`dispatch`]), and an `or_not` that
//! tries its parser only where it can start ([`optional`]). No production
//! of `grammar/pcl.ebnf` lives here; productions use them where they
//! would write `choice((…))` over alternatives that each begin with a
//! token test, or `[ … ]` / `{ … }` whose first token is known.
//!
//! Why: a `choice` tries its alternatives in order, and each one that
//! fails on its first token costs chumsky a checkpoint, a token read, a
//! span, a rewind and an error merge (about 140 instructions); a term
//! such as `[` tried seven alternatives before the one that starts with
//! it, and every operand ended with failed tests for a postfix step, an
//! operator and a `?`. chumsky 0.10 has no combinator that branches on the
//! next token, and its `Parser` trait cannot be implemented outside the
//! crate, so these are two of the grammar's three `custom` parsers (with
//! `recovery::skip`).
//!
//! Semantics are those of the `choice` it replaces: the alternatives that
//! admit the next token are tried in order (each from the same position,
//! rewound after a failure), and when none admits it the error is the one
//! the `choice` would have merged from its alternatives' first token
//! tests (the same token found, the same span, the same kinds expected).
//! [`optional`] records no error where it declines: an `or_not` would
//! have recorded a failed token test there, which only ever merged into
//! the expectations of the errors after it and never reached a
//! diagnostic (the grammar reports chumsky's errors only where a recovery
//! parser answered for them, at the token after a body item's name or a
//! block's labels).

use std::rc::Rc;

use chumsky::prelude::*;

use super::input::SyntaxError;
use super::{Ex, In, Inp};
use crate::token::TokenKind as K;

/// The tokens an alternative of [`dispatch`] can start with: those of
/// its first token test (`just` or `one_of`, which names them as expected
/// when it fails), optionally narrowed by the token after (a lookahead).
#[derive(Clone, Copy, Debug)]
pub(super) struct First {
    /// One bit per `TokenKind` the alternative starts with.
    kinds: u64,
    /// Whether the token after the first must (`Some(true)`) or must not
    /// (`Some(false)`) be one of `follows` (one bit per kind).
    follow: Option<bool>,
    follows: u64,
}

impl First {
    /// Starts with `just`/`one_of` of `kinds` (never at the end of the
    /// input).
    pub(super) fn tokens(kinds: &[K]) -> First {
        First {
            kinds: bits(kinds),
            follow: None,
            follows: 0,
        }
    }

    /// Only where the token after the first is one of `kinds` (a
    /// lookahead `&( … )` of the grammar).
    pub(super) fn before(mut self, kinds: &[K]) -> First {
        self.follow = Some(true);
        self.follows = bits(kinds);
        self
    }

    /// Only where the token after the first is not one of `kinds` (the
    /// other side of a [`First::before`]); the end of the input is not
    /// one of them.
    pub(super) fn not_before(mut self, kinds: &[K]) -> First {
        self.follow = Some(false);
        self.follows = bits(kinds);
        self
    }

    /// Whether the token after the first (`None` at the end) fits.
    fn admits_after(&self, second: Option<K>) -> bool {
        let listed = second.is_some_and(|kind| self.follows & bit(kind) != 0);
        self.follow.is_none_or(|must| must == listed)
    }
}

fn bit(kind: K) -> u64 {
    1u64 << (kind as u8)
}

fn bits(kinds: &[K]) -> u64 {
    kinds.iter().fold(0, |acc, kind| acc | bit(*kind))
}

/// An alternative of [`dispatch`].
pub(super) type Alt<'s, O> = (First, Boxed<'s, 's, In<'s>, O, Ex<'s>>);

/// The alternatives, and for each token kind the ones that admit it (one
/// bit per alternative, in order).
struct Table<'s, O> {
    alts: Vec<Alt<'s, O>>,
    by_kind: [u16; 64],
}

impl<'s, O> Table<'s, O> {
    fn new(alts: Vec<Alt<'s, O>>) -> Table<'s, O> {
        assert!(alts.len() <= 16, "a dispatch has at most 16 alternatives");
        let mut by_kind = [0u16; 64];
        for (kind, admitting) in by_kind.iter_mut().enumerate() {
            for (i, (first, _)) in alts.iter().enumerate() {
                if first.kinds & (1u64 << kind) != 0 {
                    *admitting |= 1 << i;
                }
            }
        }
        Table { alts, by_kind }
    }

    /// The alternatives that admit `kind` (the next token's; none admit
    /// the end of the input), one bit each.
    #[inline(always)]
    fn admitting(&self, kind: Option<K>) -> u16 {
        match kind {
            Some(kind) => self.by_kind.get(kind as usize).copied().unwrap_or(0),
            None => 0,
        }
    }

    /// Tries the `admitting` alternatives in order: the first success,
    /// else the last failure, else `None` (a lookahead ruled them all
    /// out).
    fn run(&self, mut admitting: u16, inp: &mut Inp<'s, '_>) -> Option<Result<O, SyntaxError>> {
        let mut second = None;
        let mut failed = None;
        while admitting != 0 {
            let i = admitting.trailing_zeros() as usize;
            admitting &= admitting - 1;
            let Some((first, alt)) = self.alts.get(i) else {
                break;
            };
            if first.follow.is_some() {
                let after = *second.get_or_insert_with(|| super::peek_second(inp));
                if !first.admits_after(after) {
                    continue;
                }
            }
            let before = inp.save();
            match inp.parse(alt) {
                Ok(out) => return Some(Ok(out)),
                Err(error) => {
                    inp.rewind(before);
                    failed = Some(error);
                }
            }
        }
        failed.map(Err)
    }
}

/// `choice` over `alts`, each tried only where [`First`] says it can
/// start (see the module doc). Where none can, the error names every
/// alternative's first tokens, as the `choice`'s merged error would.
pub(super) fn dispatch<'s, O: 's>(
    alts: Vec<Alt<'s, O>>,
) -> impl Parser<'s, In<'s>, O, Ex<'s>> + Clone {
    let expected = alts.iter().fold(0, |acc, (first, _)| acc | first.kinds);
    let table = Rc::new(Table::new(alts));
    custom(move |inp: &mut Inp<'s, '_>| {
        let kind = super::peek_kind(inp);
        let admitting = table.admitting(kind);
        let result = match admitting {
            0 => None,
            _ => table.run(admitting, inp),
        };
        match result {
            Some(result) => result,
            None => Err(SyntaxError::expecting(
                super::peek_span(inp),
                kind,
                expected,
            )),
        }
    })
}

/// `choice(alts).or_not()` where no alternative is tried unless it can
/// start: `None`, consuming nothing and failing nothing, where none can.
/// (What `or_not` adds is only a failed token test, whose error never
/// outlives the tests after it.)
pub(super) fn optional<'s, O: 's>(
    alts: Vec<Alt<'s, O>>,
) -> impl Parser<'s, In<'s>, Option<O>, Ex<'s>> + Clone {
    let table = Rc::new(Table::new(alts));
    custom(move |inp: &mut Inp<'s, '_>| {
        let admitting = table.admitting(super::peek_kind(inp));
        if admitting == 0 {
            return Ok(None);
        }
        match table.run(admitting, inp) {
            Some(result) => result.map(Some),
            None => Ok(None),
        }
    })
}
