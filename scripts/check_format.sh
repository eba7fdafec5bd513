#!/usr/bin/env bash
# Checks with clang-format 14 (the top-level .clang-format) the C++ files a change touches: those
# added, copied, modified or renamed between BASE and the working tree, and new untracked ones.
# Prints each file that is not formatted and exits 1; `clang-format-14 -i FILE` formats it.
#
# Usage: check_format.sh [BASE]
#   BASE defaults to the merge-base with origin/main when that branch exists, else HEAD~1. When
#   nothing differs from it (a fresh clone of main, as CI checks), every tracked C++ file is
#   checked: the whole tree was formatted in one commit, so every change since must keep it so.
# Without git history (no repository, or no BASE to compare with) it says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "check_format: not a git checkout: no change to check"
    exit 0
fi
if [[ $# -gt 0 ]]; then
    base=$1
elif git rev-parse -q --verify origin/main >/dev/null; then
    base=$(git merge-base origin/main HEAD)
elif git rev-parse -q --verify HEAD~1 >/dev/null; then
    base=HEAD~1
else
    echo "check_format: no origin/main and no parent commit (a shallow or new clone): no change to check"
    exit 0
fi
git rev-parse -q --verify "$base^{commit}" >/dev/null || { echo "check_format: unknown BASE '$base'" >&2; exit 2; }

# clang-format 14 exactly: another version lays some code out differently.
format=
for candidate in clang-format-14 clang-format; do
    if command -v "$candidate" >/dev/null && "$candidate" --version | grep -q 'version 14\.'; then
        format=$candidate
        break
    fi
done
if [[ -z $format ]]; then
    ./scripts/install-deps.sh clang-format-14
    format=clang-format-14
fi

cpp=('*.cpp' '*.h')
mapfile -t files < <({
    git diff --name-only --diff-filter=ACMR "$base" -- "${cpp[@]}"
    git ls-files --others --exclude-standard -- "${cpp[@]}"
} | sort -u)
if [[ ${#files[@]} -eq 0 ]]; then
    echo "check_format: no C++ file changed since $(git rev-parse --short "$base"): checking every tracked one"
    mapfile -t files < <(git ls-files -- "${cpp[@]}")
fi

bad=()
for f in "${files[@]}"; do
    "$format" --dry-run --Werror --ferror-limit=3 "$f" || bad+=("$f")  # the first places, on stderr
done
if [[ ${#bad[@]} -gt 0 ]]; then
    echo "check_format: not formatted as .clang-format says ($format -i FILE formats it):"
    printf '  %s\n' "${bad[@]}"
    exit 1
fi
echo "check_format: ${#files[@]} C++ file(s) checked, all formatted as .clang-format says"
