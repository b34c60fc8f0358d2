#!/usr/bin/env bash
# Installs whatever qconform needs and is missing; a no-op when everything is there. (chromium
# renders the HTML report in its test; python3-numpy runs the Python adapter kit's example.)
#   tools/setup.sh [BUILD_DIR]
# Debian packages come from apt-get (we run as root on the project's machines). With BUILD_DIR,
# ONNX Runtime (npm's onnxruntime-node, which carries its native CPU library) goes into
# BUILD_DIR/npm, with onnxruntime-web (the WebAssembly build); their install scripts only fetch
# GPU binaries and are not run.
set -euo pipefail

debian_packages=(
  cmake ninja-build g++ clang clang-format
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libboost-dev libprotobuf-dev protobuf-compiler libonnx-dev
  libonnx-testdata python3
  chromium python3-numpy python3-protobuf
  # A byte pipe over TCP: the exec protocol's loopback test and benchmark (adapters.remote).
  socat
  # The real implementations judged (README, "Backends"): OpenCV DNN, oneDNN, XNNPACK, PyTorch,
  # Arm NN (CpuRef) and gemmlowp.
  libopencv-dnn-dev libdnnl-dev libxnnpack-dev libpthreadpool-dev python3-torch
  libarmnn-dev libarmnn-cpuref-backend22 libgemmlowp-dev
)
# Node.js runs ONNX Runtime's adapter; the machines usually have it already.
command -v node >/dev/null && command -v npm >/dev/null || debian_packages+=(nodejs npm)

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

ort_version=1.30.0
if (($# >= 1)); then
  prefix="$1/npm"
  for package in onnxruntime-node onnxruntime-web; do
    installed="$prefix/node_modules/$package/package.json"
    if ! [[ -f $installed ]] || ! grep -q "\"version\": \"$ort_version\"" "$installed"; then
      echo "setup: installing $package@$ort_version into $prefix (about 150-290 MB)"
      mkdir -p "$prefix"
      npm install --prefix "$prefix" --ignore-scripts --no-audit --no-fund --no-save \
        --loglevel=error "onnxruntime-node@$ort_version" "onnxruntime-web@$ort_version" >/dev/null
    fi
  done
fi
