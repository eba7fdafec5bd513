#!/usr/bin/env bash
# Fails when an engine folder includes a folder above it in the allowed order, or when the engine
# includes Qt. The order (lowest first) is the one docs/architecture.md explains; a folder may
# include itself and any folder before it, so no two folders can include each other.
set -euo pipefail
order=(core io data layers losses optim spec model train split project run study distributed export)
engine="${1:-$(dirname "$0")/../engine}"

rank() {
    local i
    for i in "${!order[@]}"; do [[ "${order[$i]}" == "$1" ]] && { echo "$i"; return; }; done
    echo -1
}

status=0
for dir in "$engine"/*/; do
    from=$(basename "$dir")
    from_rank=$(rank "$from")
    if [[ $from_rank -lt 0 ]]; then
        echo "engine/$from/ is not in the folder order of scripts/check_engine_layers.sh (add it there and in docs/architecture.md)"
        status=1
        continue
    fi
    while IFS=: read -r file line text; do
        to=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"$text")
        to_rank=$(rank "$to")
        if [[ $to_rank -gt $from_rank || $to_rank -lt 0 ]]; then
            echo "${file#"$engine"/}:$line: engine/$from/ may not include $to/ (allowed: ${order[*]:0:$((from_rank + 1))})"
            status=1
        fi
    done < <(grep -rnE '^#include "[a-z_]+/' "$dir" --include='*.h' --include='*.cpp' || true)
    if grep -rnE '^#include <Q' "$dir" --include='*.h' --include='*.cpp'; then
        echo "engine/$from/ includes Qt: the engine must build without it"
        status=1
    fi
done
[[ $status -eq 0 ]] && echo "engine folders include only downward (${order[*]})"
exit $status
