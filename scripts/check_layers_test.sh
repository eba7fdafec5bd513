#!/usr/bin/env bash
# scripts/check_layers.sh must fail on each kind of violation, naming the file and line, and pass a
# clean tree: it runs on a small source tree made here, once clean and once with bad includes.
set -euo pipefail
check="$(cd "$(dirname "$0")" && pwd)/check_layers.sh"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT

put() {  # put FILE [INCLUDED...]: a file that includes the given headers
    local file=$tree/$1
    shift
    mkdir -p "$(dirname "$file")"
    : >"$file"
    local inc
    for inc in "$@"; do echo "#include \"$inc\"" >>"$file"; done
}

failures=0
expect() {  # expect TEXT: the last output holds TEXT
    if ! grep -qF -- "$1" <<<"$output"; then
        echo "FAIL: expected '$1' in:"
        echo "$output"
        failures=$((failures + 1))
    fi
}

# A clean tree: every layer includes only downward, no two rooms include each other; one tolerated
# pair.
put engine/core/base.h
put engine/core/base.cpp core/base.h
put ui/core/doc.h core/base.h
put ui/core/doc.cpp ui/core/doc.h
put ui/core/job.h ui/core/doc.h
put ui/core/job.cpp ui/core/job.h ui/core/session.h
put ui/core/session.h ui/core/job.h
put ui/core/session.cpp ui/core/session.h
put ui/widgets/page.h ui/core/doc.h
put ui/widgets/page.cpp ui/widgets/page.h core/base.h
put app/gui/main.cpp ui/widgets/page.h ui/core/doc.h core/base.h
put app/cli/main.cpp args.h core/base.h
put app/cli/args.h
put tests/tst_a.cpp app/cli/args.h ui/widgets/page.h
echo "ui/core/job ui/core/session" >"$tree/allowed.txt"
if output=$("$check" "$tree" "$tree/allowed.txt" 2>&1); then :; else
    echo "FAIL: a clean tree was refused:"
    echo "$output"
    failures=$((failures + 1))
fi
expect "tolerated (layer_cycles_allowed.txt): ui/core/job and ui/core/session"

# Each rule broken once.
put engine/core/base.cpp core/base.h ui/core/doc.h          # the engine includes ui/
put ui/core/doc.cpp ui/core/doc.h ui/widgets/page.h         # ui/core includes ui/widgets
put ui/core/job.cpp ui/core/job.h ui/core/session.h ../../app/gui/main.cpp
put ui/widgets/page.cpp ui/widgets/page.h app/cli/args.h    # ui/widgets includes app/
put app/cli/main.cpp args.h app/gui/window.h                # one app folder includes another
put app/gui/window.h
put ui/widgets/chart.h
put ui/widgets/chart.cpp ui/widgets/chart.h ui/widgets/look.h
put ui/widgets/look.h
put ui/widgets/look.cpp ui/widgets/look.h ui/widgets/chart.h  # two rooms include each other
put ui/widgets/a.cpp ui/widgets/b.h                        # a longer cycle a -> b -> c -> a
put ui/widgets/b.h ui/widgets/c.h
put ui/widgets/c.h ui/widgets/a.h
put ui/widgets/a.h
put ui/core/session.h                                       # the tolerated pair is mended
if output=$("$check" "$tree" "$tree/allowed.txt" 2>&1); then
    echo "FAIL: a tree with bad includes passed:"
    echo "$output"
    failures=$((failures + 1))
fi
expect "engine/core/base.cpp:2: engine may not include ui/core (ui/core/doc.h)"
expect "ui/core/doc.cpp:2: ui/core may not include ui/widgets (ui/widgets/page.h)"
expect "ui/core/job.cpp:3: ui/core may not include app/gui (../../app/gui/main.cpp)"
expect "ui/widgets/page.cpp:2: ui/widgets may not include app/cli (app/cli/args.h)"
expect "app/cli/main.cpp:2: app/cli may not include app/gui (app/gui/window.h)"
expect "ui/widgets/chart.cpp:2: ui/widgets/chart includes ui/widgets/look, and ui/widgets/look.cpp:2: ui/widgets/look includes ui/widgets/chart"
expect "rooms in a cycle: ui/widgets/a ui/widgets/b ui/widgets/c"
expect "ui/core/job and ui/core/session no longer include each other: remove the line"

if [[ $failures -gt 0 ]]; then
    echo "$failures expectation(s) failed"
    exit 1
fi
echo "check_layers.sh passes a clean tree and names every bad include"
