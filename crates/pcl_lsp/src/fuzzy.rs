//! A fuzzy matcher for completion: does a typed pattern match a candidate
//! as a subsequence, and how well.
//!
//! A candidate matches when every character of the pattern occurs in it in
//! order (ignoring case). Among matches, a prefix match ranks first, then
//! matches whose characters fall on word boundaries (after `:`, `/`, `_`,
//! `-`, `.`, or where lower case turns to upper case) and in contiguous
//! runs. The cost is linear in the candidate: a greedy pass and, for
//! patterns of at most [`LOOKAHEAD_PATTERN`] characters that are not a
//! prefix of the candidate, a second pass that prefers boundaries (each
//! of its lookaheads may scan the rest of the candidate); the better of
//! the two counts.

/// Ranks `candidates` against `pattern`: the indices of those that match,
/// best first; equal scores keep the candidates' order (the sort is
/// stable), so the answer is deterministic.
pub(crate) fn rank<'a>(pattern: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<usize> {
    let pattern: Vec<char> = pattern.chars().collect();
    // One buffer for the characters of every candidate.
    let mut buffer = Vec::new();
    let mut scored: Vec<(u32, usize)> = candidates
        .enumerate()
        .filter_map(|(i, c)| Some((score_chars(&pattern, c, &mut buffer)?, i)))
        .collect();
    scored.sort_by_key(|s| std::cmp::Reverse(s.0));
    scored.into_iter().map(|(_, i)| i).collect()
}

/// How well `pattern` matches `candidate` (higher is better), or `None`
/// when it is not a subsequence of it. The empty pattern matches
/// everything equally.
#[cfg(test)]
pub(crate) fn score(pattern: &str, candidate: &str) -> Option<u32> {
    let pattern: Vec<char> = pattern.chars().collect();
    score_chars(&pattern, candidate, &mut Vec::new())
}

/// The longest pattern that gets the boundary-preferring pass (which
/// costs up to this many scans of the candidate).
pub(crate) const LOOKAHEAD_PATTERN: usize = 16;

const PREFIX: u32 = 1000;
const FIRST_CHAR: u32 = 16;
const BOUNDARY: u32 = 10;
const CONTIGUOUS: u32 = 6;
const SAME_CASE: u32 = 1;
const MATCHED: u32 = 2;

fn score_chars(pattern: &[char], candidate: &str, chars: &mut Vec<char>) -> Option<u32> {
    if pattern.is_empty() {
        return Some(0);
    }
    chars.clear();
    chars.extend(candidate.chars());
    // Greedy leftmost matching is the most permissive: when it fails,
    // every pass does.
    let greedy = pass(pattern, chars, false)?;
    // A case-insensitive prefix ranks above every other match; its greedy
    // pass is already contiguous from the start.
    let prefix = pattern.len() <= chars.len()
        && pattern
            .iter()
            .zip(chars.iter())
            .all(|(p, c)| same_letter(*p, *c));
    let best = if prefix || pattern.len() > LOOKAHEAD_PATTERN {
        greedy
    } else {
        pass(pattern, chars, true).map_or(greedy, |b| b.max(greedy))
    };
    Some(best + if prefix { PREFIX } else { 0 })
}

/// One left-to-right pass matching each pattern character at its next
/// occurrence. With `prefer_boundaries`, a character that would match
/// neither contiguously nor on a word boundary looks further ahead for an
/// occurrence on a word boundary and takes that one if there is one.
fn pass(pattern: &[char], chars: &[char], prefer_boundaries: bool) -> Option<u32> {
    let mut score = 0u32;
    let mut at = 0usize;
    let mut last: Option<usize> = None;
    let mut run_bonus = 0u32;
    for p in pattern {
        let next_plain =
            (at..chars.len()).find(|&i| chars.get(i).is_some_and(|c| same_letter(*p, *c)))?;
        let mut chosen = next_plain;
        let contiguous_here = last.is_some_and(|l| l + 1 == next_plain);
        if prefer_boundaries && !contiguous_here && !is_boundary(chars, next_plain) {
            // The next boundary occurrence, if any.
            if let Some(b) = (next_plain + 1..chars.len()).find(|&i| {
                chars.get(i).is_some_and(|c| same_letter(*p, *c)) && is_boundary(chars, i)
            }) {
                chosen = b;
            }
        }
        score += MATCHED;
        if chosen == 0 {
            score += FIRST_CHAR;
        }
        // A character continuing a run earns at least what the run's first
        // character earned for its boundary.
        if last.is_some_and(|l| l + 1 == chosen) {
            score += CONTIGUOUS.max(run_bonus);
        } else {
            run_bonus = if is_boundary(chars, chosen) {
                BOUNDARY
            } else {
                0
            };
            score += run_bonus;
        }
        if chars.get(chosen) == Some(p) {
            score += SAME_CASE;
        }
        last = Some(chosen);
        at = chosen + 1;
    }
    // Shorter candidates rank above longer ones with the same matches.
    let slack = u32::try_from(chars.len().saturating_sub(pattern.len()).min(255)).unwrap_or(255);
    Some(score.saturating_mul(256).saturating_add(255 - slack))
}

fn same_letter(a: char, b: char) -> bool {
    if a.is_ascii() || b.is_ascii() {
        return a.eq_ignore_ascii_case(&b);
    }
    a == b || a.to_lowercase().eq(b.to_lowercase())
}

/// Whether `chars[i]` starts a word: the first character, one after a
/// separator, or an upper-case letter after a lower-case one.
fn is_boundary(chars: &[char], i: usize) -> bool {
    let Some(c) = chars.get(i) else {
        return false;
    };
    let Some(prev) = i.checked_sub(1).and_then(|j| chars.get(j)) else {
        return true;
    };
    matches!(prev, ':' | '/' | '_' | '-' | '.' | ' ')
        || (prev.is_lowercase() && c.is_uppercase())
        || (!prev.is_alphanumeric() && c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked<'a>(pattern: &str, candidates: &[&'a str]) -> Vec<&'a str> {
        rank(pattern, candidates.iter().copied())
            .into_iter()
            .filter_map(|i| candidates.get(i).copied())
            .collect()
    }

    #[test]
    fn subsequences_match_and_others_do_not() {
        assert!(score("bkt", "aws:s3/bucket:Bucket").is_some());
        assert!(score("BKT", "aws:s3/bucket:Bucket").is_some());
        assert!(score("tkb", "aws:s3/bucket:Bucket").is_none());
        assert!(score("bucketz", "aws:s3/bucket:Bucket").is_none());
        assert_eq!(score("", "anything"), Some(0));
    }

    #[test]
    fn prefix_beats_boundary_beats_scattered() {
        let got = ranked("buc", &["abuxc", "aws:s3/bucket:Bucket", "bucketName"]);
        assert_eq!(got, ["bucketName", "aws:s3/bucket:Bucket", "abuxc"]);
    }

    #[test]
    fn case_changes_are_word_boundaries() {
        // `cT` picks the `T` of `contentType` over the `t` of `content`.
        let got = ranked("ct", &["acts", "contentType"]);
        assert_eq!(got, ["contentType", "acts"]);
        let got = ranked(
            "bo",
            &["aws:s3/boat:Boat", "aws:s3/bucketObject:BucketObject"],
        );
        // Both are boundary matches; contiguous `bo` in `boat` wins.
        assert_eq!(got.first(), Some(&"aws:s3/boat:Boat"));
    }

    #[test]
    fn contiguous_beats_scattered() {
        let got = ranked("get", &["agxextx", "axget"]);
        assert_eq!(got, ["axget", "agxextx"]);
    }

    #[test]
    fn case_is_ignored_beyond_ascii_too() {
        assert!(score("éc", "École").is_some());
        assert!(score("É", "été").is_some());
        assert!(score("e", "É").is_none(), "a different letter");
    }

    #[test]
    fn ties_keep_the_input_order() {
        let got = ranked("a", &["ba", "ca", "da"]);
        assert_eq!(got, ["ba", "ca", "da"]);
        let got = ranked("", &["z", "y", "x"]);
        assert_eq!(got, ["z", "y", "x"]);
    }
}
