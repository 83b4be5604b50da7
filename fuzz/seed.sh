#!/usr/bin/env bash
# Copies seed inputs into fuzz/corpus/<target>/ (gitignored). Run from any
# directory; the shared corpus is read from ../shared relative to the repo
# root when it exists.
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$fuzz")"
shared="${PCL_SHARED:-$root/../shared}"

copy_pp() { # target, dirs...
    local out="$fuzz/corpus/$1"; shift
    mkdir -p "$out"
    for dir in "$@"; do
        [ -d "$dir" ] || continue
        find "$dir" -name '*.pp' -type f -print0 | while IFS= read -r -d '' f; do
            cp "$f" "$out/seed-$(sha1sum "$f" | cut -c1-16)"
        done
    done
}

for t in parse expr_template check; do
    copy_pp "$t" "$root/testdata/syntax" "$root/testdata/check" "$shared/corpus/programs"
done
# Two-file seeds for `check`: multi-file golden programs joined by 0xff.
for dir in "$root"/testdata/check/*/*/; do
    files=("$dir"*.pp)
    if [ "${#files[@]}" -ge 2 ] && [ -f "${files[0]}" ]; then
        { cat "${files[0]}"; printf '\xff'; cat "${files[1]}"; } > "$fuzz/corpus/check/seed-2f-$(basename "$dir")"
    fi
done
# Expression seeds: every attribute value of the golden files, one per file.
mkdir -p "$fuzz/corpus/expr_template"
cat "$root"/testdata/syntax/*/*.pp 2>/dev/null | sed -n 's/^[[:space:]]*[A-Za-z_][A-Za-z0-9_-]*[[:space:]]*=[[:space:]]*//p' \
    | sort -u | head -n 2000 | while IFS= read -r line; do
        printf '%s' "$line" > "$fuzz/corpus/expr_template/seed-e-$(printf '%s' "$line" | sha1sum | cut -c1-16)"
    done
# Type seeds: every field of the spec vectors (non-types are cheap rejects).
mkdir -p "$fuzz/corpus/type_notation"
if [ -d "$shared/spec/vectors" ]; then
    tail -q -n +2 "$shared"/spec/vectors/*.tsv | tr '\t' '\n' | sort -u | grep -v '^$' \
        | while IFS= read -r field; do
            printf '%s' "$field" > "$fuzz/corpus/type_notation/seed-$(printf '%s' "$field" | sha1sum | cut -c1-16)"
        done
fi
for t in parse expr_template check type_notation; do
    echo "$t: $(ls "$fuzz/corpus/$t" | wc -l) inputs"
done
