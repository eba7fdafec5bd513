#!/usr/bin/env bash
# Fails when a quoted #include breaks the layering above the engine or joins two rooms in a cycle,
# naming the file and line. scripts/check_engine_layers.sh orders the engine's own folders.
#
# Layers (a folder may include itself and the layers listed after it):
#   app/X       app/X, ui/widgets, ui/core, engine   (never another app/ folder)
#   ui/widgets  ui/widgets, ui/core, engine
#   ui/core     ui/core, engine                      (never ui/widgets or app/)
#   engine      engine                               (never ui/ or app/)
#
# Rooms: a room is a source file with its header (foo.cpp + foo.h), or a header alone. Room A
# includes room B when a file of A includes a file of B. Two rooms that include each other are a
# cycle: neither can be read, tested or changed without the other. Longer cycles (A -> B -> C -> A)
# fail as well (long_cycles_fail=1; 0 would only warn). Rooms are checked above the
# engine (ui/, app/), whose folders scripts/check_engine_layers.sh already orders; inside a folder
# the engine still has one such pair, split/split_plan.cpp <-> split/plan_builders.h (the planner and
# its strategies), so the engine joins room_areas once that is mended.
#
# Pairs listed in scripts/layer_cycles_allowed.txt are tolerated while someone mends them; a listed
# pair that is no longer a cycle fails too, so the list only shrinks.
#
# Usage: check_layers.sh [SOURCE_DIR [ALLOW_LIST]]
set -euo pipefail
top="${1:-$(dirname "$0")/..}"
allow="${2:-$top/scripts/layer_cycles_allowed.txt}"
long_cycles_fail=1  # none is left (the study moved into engine/study)
room_areas="ui app"
cd "$top"
[[ -f "$allow" ]] || allow=/dev/null

areas=()
for a in engine ui app tests; do [[ -d $a ]] && areas+=("$a"); done
[[ ${#areas[@]} -gt 0 ]] || { echo "no engine/, ui/, app/ or tests/ under $top"; exit 1; }

# Input of the awk program: the allow-list, the list of source files, then every quoted include as
# path:line:text, each part after a marker line.
{
    grep -vE '^[[:space:]]*(#|$)' "$allow" || true
    echo "@@files"
    find "${areas[@]}" -type f \( -name '*.h' -o -name '*.cpp' \) | sort
    echo "@@includes"
    grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "${areas[@]}" --include='*.h' --include='*.cpp' | sort -t: -k1,1 -k2,2n
} | awk -v long_fail="$long_cycles_fail" -v room_areas="$room_areas" '
function dirname(p) { return sub(/\/[^\/]*$/, "", p) ? p : "." }
function stem(p) { sub(/\.(h|cpp)$/, "", p); return p }
function join(d, f) { return normal(d == "." ? f : d "/" f) }
# The path without "." and "dir/.." parts.
function normal(p,    parts, n, k, out, m) {
    n = split(p, parts, "/"); m = 0
    for (k = 1; k <= n; k++) {
        if (parts[k] == "." || parts[k] == "") continue
        if (parts[k] == ".." && m > 0 && out[m] != "..") { m--; continue }
        out[++m] = parts[k]
    }
    p = ""
    for (k = 1; k <= m; k++) p = p (k > 1 ? "/" : "") out[k]
    return p
}
# The words of a list, sorted (insertion sort: cycles are short).
function sorted(text,    w, n, i, j, t, out) {
    n = split(text, w, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && w[j - 1] > w[j]; j--) { t = w[j]; w[j] = w[j - 1]; w[j - 1] = t }
    out = ""
    for (i = 1; i <= n; i++) out = out (i > 1 ? " " : "") w[i]
    return out
}
# The file a quoted include names: beside the includer, then the include roots of the build
# (engine/, the source tree, tests/). Empty when it is generated or outside the tree.
function resolve(from, inc,    c) {
    c = join(dirname(from), inc); if (c in isfile) return c
    c = normal("engine/" inc); if (c in isfile) return c
    c = normal(inc); if (c in isfile) return c
    c = normal("tests/" inc); if (c in isfile) return c
    return ""
}
# engine, ui/core, ui/widgets, app/X, tests
function layer(p,    parts) {
    split(p, parts, "/")
    if (parts[1] == "ui" || parts[1] == "app") return parts[1] "/" parts[2]
    return parts[1]
}
function rank(l) {
    if (l == "engine") return 0
    if (l == "ui/core") return 1
    if (l == "ui/widgets") return 2
    if (l ~ /^app\//) return 3
    return -1
}
function allowed(from, to) {
    if (from == to || rank(from) < 0) return 1
    return rank(to) >= 0 && rank(to) < rank(from)
}
function may(from) {
    if (from == "engine") return "engine"
    if (from == "ui/core") return "ui/core, engine"
    if (from == "ui/widgets") return "ui/widgets, ui/core, engine"
    return from ", ui/widgets, ui/core, engine"
}
function inrooms(p,    parts) { split(p, parts, "/"); return parts[1] in roomarea }
# Tarjan: strongly connected components of the room graph; one of more than one room is a cycle.
function strong(v,    list, nl, k, w, comp, size) {
    idx[v] = low[v] = counter++
    stack[++sp] = v; onstack[v] = 1
    nl = split(substr(succ[v], 2), list, SUBSEP)
    for (k = 1; k <= nl; k++) {
        w = list[k]
        if (!(w in idx)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
        else if ((w in onstack) && idx[w] < low[v]) low[v] = idx[w]
    }
    if (low[v] == idx[v]) {
        comp = ""; size = 0
        do { w = stack[sp--]; delete onstack[w]; comp = w " " comp; size++ } while (w != v)
        if (size > 2) {
            print (long_fail ? "" : "warning: ") "rooms in a cycle: " sorted(comp)
            if (long_fail) status = 1
        }
    }
}
BEGIN { n = split(room_areas, list, " "); for (k = 1; k <= n; k++) roomarea[list[k]] = 1 }
$0 == "@@files" { part = 1; next }
$0 == "@@includes" { part = 2; next }
part == 0 { pair[$1, $2] = pair[$2, $1] = 1; listed[++nlisted] = $1 " " $2; next }
part == 1 { isfile[$0] = 1; if (inrooms($0)) isroom[stem($0)] = 1; next }
{
    file = $0; sub(/:.*/, "", file)
    line = $0; sub(/^[^:]*:/, "", line); sub(/:.*/, "", line)
    inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
    target = resolve(file, inc)
    if (target == "") next
    a = stem(file); b = stem(target)
    if (a != b && (a in isroom) && (b in isroom) && !((a SUBSEP b) in edge)) {
        edge[a, b] = file ":" line
        succ[a] = succ[a] SUBSEP b
    }
    from = layer(file); to = layer(target)
    if (!allowed(from, to)) {
        printf "%s:%s: %s may not include %s (%s): %s may include %s\n", file, line, from, to, inc, from, may(from)
        status = 1
    }
}
END {
    for (k in edge) {
        split(k, ab, SUBSEP); a = ab[1]; b = ab[2]
        if (a > b || !((b SUBSEP a) in edge)) continue
        if ((a SUBSEP b) in pair) {
            tolerated[a, b] = 1
            printf "tolerated (layer_cycles_allowed.txt): %s and %s include each other\n", a, b
            continue
        }
        printf "%s: %s includes %s, and %s: %s includes %s: the two rooms include each other\n", edge[a, b], a, b, edge[b, a], b, a
        status = 1
    }
    for (k = 1; k <= nlisted; k++) {
        split(listed[k], ab, " ")
        if (!((ab[1] SUBSEP ab[2]) in tolerated) && !((ab[2] SUBSEP ab[1]) in tolerated)) {
            printf "layer_cycles_allowed.txt: %s and %s no longer include each other: remove the line\n", ab[1], ab[2]
            status = 1
        }
    }
    for (r in isroom) if (!(r in idx)) strong(r)
    if (status == 0) print "layers include only downward (engine < ui/core < ui/widgets < app/) and no two rooms include each other"
    exit status
}
'
