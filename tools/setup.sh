#!/usr/bin/env bash
# Installs whatever qconform needs and is missing; a no-op when everything is there. (chromium
# renders the HTML report in its test; python3-numpy runs the Python adapter kit's example.)
#   tools/setup.sh [--vendor] [BUILD_DIR]
#   tools/setup.sh --help
# Debian packages come from apt-get (we run as root on the project's machines). With BUILD_DIR,
# ONNX Runtime (npm's onnxruntime-node, which carries its native CPU library) goes into
# BUILD_DIR/npm, with onnxruntime-web (the WebAssembly build); their install scripts only fetch
# GPU binaries and are not run.
# --vendor: only what building qconform and judging your own backend needs (the compiler, the
# test and protobuf libraries, ONNX, Boost): none of the runtimes qconform judges side by side,
# no browser, no ONNX Runtime. The in-tree library plugins whose packages are missing are then
# not built (CMake says which), and `--backend onnxruntime` says how to install it.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
vendor=""
while (($#)); do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --vendor) vendor=1; shift ;;
    -*) echo "setup: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) break ;;
  esac
done
(($# <= 1)) || { echo "setup: one BUILD_DIR at most" >&2; usage >&2; exit 2; }

# What building qconform and judging one backend need.
vendor_packages=(
  cmake ninja-build g++
  # The compiler cache (cmake/ccache.cmake): a clone of a commit this machine built compiles in
  # seconds.
  ccache
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libboost-dev libprotobuf-dev protobuf-compiler libonnx-dev python3
)
debian_packages=(
  "${vendor_packages[@]}" clang clang-format
  libonnx-testdata
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
[[ -z $vendor ]] || debian_packages=("${vendor_packages[@]}")

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
if (($# >= 1)) && [[ -z $vendor ]]; then
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
