#!/usr/bin/env bash
# Installs ONNX Runtime for Node.js (onnxruntime-node, CPU) next to run_onnx.js, for tst_export.
# --ignore-scripts: the package ships the CPU runtime; its install script only fetches optional
# GPU parts from outside the npm registry. Does nothing without node and npm (the test then skips).
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "tests/export/setup.sh: node or npm not found, the ONNX Runtime check of tst_export will be skipped" >&2
  exit 0
fi
[ -f node_modules/onnxruntime-node/package.json ] && exit 0
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
