#!/usr/bin/env bash
# Installs whatever qconform needs and is missing; a no-op when everything is there.
# Debian packages come from apt-get (we run as root on the project's machines); the npm
# packages (ONNX Runtime) are installed into the build tree by later steps.
set -euo pipefail

debian_packages=(
  cmake ninja-build g++ clang-format
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libboost-dev libprotobuf-dev protobuf-compiler libonnx-dev
  libonnx-testdata
)

missing=()
for p in "${debian_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
