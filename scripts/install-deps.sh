#!/usr/bin/env bash
# Installs the Debian 12 packages Skynnet builds and tests with, when any is missing.
# With arguments, only those packages (scripts/check_format.sh: clang-format-14).
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config clang-format-14
          qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev libxkbcommon-dev
          libeigen3-dev libopenblas-openmp-dev libblis-openmp-dev libblis-dev libdnnl-dev zlib1g-dev nlohmann-json3-dev libxxhash-dev libstb-dev xvfb xauth
          libonnx-dev libprotobuf-dev protobuf-compiler python3-onnx
          libopenmpi-dev openmpi-bin iproute2 util-linux
          dataset-fashion-mnist)
if [ $# -gt 0 ]; then packages=("$@"); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js runs ONNX Runtime in the export tests; these machines ship Node 20 with npm, and
# Debian's npm package would replace it, so Debian's is installed only where node is absent.
if [ $# -eq 0 ]; then
  command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
