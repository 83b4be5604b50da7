//! "Did you mean" suggestions, computed in one place for every phase.

/// The largest number of candidates a suggestion lists.
pub const MAX_SUGGESTIONS: usize = 5;

/// Candidates close to `name` by edit distance, best first, at most
/// [`MAX_SUGGESTIONS`]. A candidate qualifies when its Damerau–Levenshtein
/// distance (compared case-insensitively) is at most a third of the longer
/// name, or at least 1; ties keep the candidates' given order.
pub fn did_you_mean<'a, I>(name: &str, candidates: I) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let lower = name.to_lowercase();
    let mut scored: Vec<(usize, usize, &'a str)> = Vec::new();
    for (order, candidate) in candidates.into_iter().enumerate() {
        if candidate == name {
            continue;
        }
        let distance = strsim::damerau_levenshtein(&lower, &candidate.to_lowercase());
        let limit = (name.chars().count().max(candidate.chars().count()) / 3).max(1);
        if distance <= limit {
            scored.push((distance, order, candidate));
        }
    }
    scored.sort();
    scored.dedup_by(|a, b| a.2 == b.2);
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, candidate)| candidate)
        .collect()
}

/// Formats suggestions as a help line, or `None` when there are none.
pub fn help_line(suggestions: &[&str]) -> Option<String> {
    match suggestions {
        [] => None,
        [one] => Some(format!("did you mean `{one}`?")),
        many => {
            let quoted: Vec<String> = many.iter().map(|s| format!("`{s}`")).collect();
            Some(format!("did you mean one of {}?", quoted.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_best_first() {
        let got = did_you_mean("bukcet", ["bucket", "buckets", "policy", "bucketName"]);
        assert_eq!(got, vec!["bucket", "buckets"]);
    }

    #[test]
    fn at_most_five() {
        let names = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"];
        assert_eq!(did_you_mean("a0", names).len(), MAX_SUGGESTIONS);
    }

    #[test]
    fn help_line_wording() {
        assert_eq!(help_line(&[]), None);
        assert_eq!(help_line(&["x"]).unwrap(), "did you mean `x`?");
        assert_eq!(
            help_line(&["x", "y"]).unwrap(),
            "did you mean one of `x`, `y`?"
        );
    }
}
