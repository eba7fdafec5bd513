#!/usr/bin/env bash
# Installs what is missing, builds Release, and runs every test headless.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./tests/export/setup.sh   # ONNX Runtime (npm: onnxruntime-node) for the export tests
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure -j1
