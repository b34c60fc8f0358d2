#!/usr/bin/env bash
# qconform's entry point for people and CI. Installs whatever is missing (tools/setup.sh),
# configures and builds into build/ (or $QCONFORM_BUILD_DIR), then:
#   tools/build.sh run [ARGS...]    the main job: the conformance run against ONNX Runtime
#                                   (ARGS go to qconform run, e.g. --backend plugin:LIB.so)
#   tools/build.sh test [ARGS...]   every test, through ctest (ARGS go to ctest, e.g. -L oracle)
#   tools/build.sh test --sanitize [ARGS...]
#                                   the sanitizer set under AddressSanitizer + UndefinedBehavior-
#                                   Sanitizer (clang, into build-sanitize/): the oracle, element-
#                                   type, I/O and adapter tests and the libFuzzer targets (10 s
#                                   each); ARGS replace that selection, within the set (-L fuzz)
#   tools/build.sh bench [ARGS...]  the benchmarks and their table (bench/RESULTS.md; ARGS go to
#                                   qconform_bench, e.g. --benchmark_filter=oracle_fast)
#   tools/build.sh matrix           the conformance matrix: every real implementation on the
#                                   golden catalogue, side by side (docs/conformance-matrix.md,
#                                   .html and the README's picture of it, .png; each backend's
#                                   report in build/matrix/)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${QCONFORM_BUILD_DIR:-$root/build}

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
command=${1:-}
case "$command" in
  run|test|bench|matrix) shift ;;
  -h|--help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac

configure=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DQCONFORM_WARNINGS_AS_ERRORS=ON)
"$root/tools/setup.sh" "$build"
if [[ $command == test && ${1:-} == --sanitize ]]; then
  shift
  # ONNX Runtime stays where setup put it for the main build.
  # -O1, as the sanitizers' own documentation advises: a third less compile time than -O3 for
  # the same checks (quantize_kernel.cc: 11 s against 16 s), the larger share of CI's time.
  configure+=(-DCMAKE_CXX_COMPILER=clang++ -DQCONFORM_FUZZ=ON -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG"
              -DQCONFORM_ORT_MODULES="$build/npm/node_modules")
  build=${QCONFORM_SANITIZE_BUILD_DIR:-$root/build-sanitize}
  # The set's targets (suites/CMakeLists.txt, sanitizer_set) and the labels of their tests; the
  # element-type tables' Python and JavaScript checks need the qconform tool, outside the set.
  sanitizer_set=(-L '^(oracle|layer:types|io|adapters|fuzz)$' -E '^types\.tables_')
  targets=(--target sanitizer_set)
  (($#)) || set -- "${sanitizer_set[@]}"
fi
cmake -S "$root" -B "$build" "${configure[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" ${targets[@]+"${targets[@]}"}

case "$command" in
  run)
    # From the source tree, with relative paths: the reproducers' commands paste from here.
    # --backend defaults to onnxruntime; --report to build/report/<the backend>.
    cd "$root"
    rel=${build#"$root"/}
    defaults=()
    backend=onnxruntime
    for ((i = 1; i <= $#; i++)); do
      case "${!i}" in
        --backend) j=$((i + 1)); backend=${!j:-}; found_backend=1 ;;
        --backend=*) backend=${!i#--backend=}; found_backend=1 ;;
        --report|--report=*) found_report=1 ;;
        --resume|--resume=*) found_backend=1; found_report=1 ;;  # the run's own options
      esac
    done
    [[ -n ${found_backend:-} ]] || defaults+=(--backend onnxruntime)
    name=$(printf '%s' "$backend" | tr -c 'A-Za-z0-9._\n-' '-' | cut -c1-60)
    [[ -n ${found_report:-} ]] || defaults+=(--report "$rel/report/$name")
    exec "$rel/tools/qconform" run "${defaults[@]}" "$@" ;;
  test)
    # The tests' scratch (mktemp's directories, golden --verify's regenerated catalogue: tens of
    # thousands of small files) on a RAM disk where the machine has one that may hold programs:
    # on a disk mounted with online discard, creating and deleting them costs more than the
    # tests' own work. QCONFORM_TEST_TMPDIR names another parent ("" keeps TMPDIR as it is).
    parent=${QCONFORM_TEST_TMPDIR-/dev/shm} scratch=""
    if [[ -n $parent && -d $parent && -w $parent ]] &&
       ! awk -v p="$parent" '$2 == p && $4 ~ /(^|,)noexec(,|$)/ {found = 1} END {exit !found}' /proc/mounts; then
      scratch=$(mktemp -d "$parent/qconform-test.XXXXXX")
      export TMPDIR=$scratch
    fi
    status=0
    (cd "$build" && ctest --output-on-failure -j"$(nproc)" "$@") || status=$?
    [[ -z $scratch ]] || rm -rf "$scratch"
    exit "$status" ;;
  bench)
    cmake --build "$build" -j"$(nproc)" --target qconform_bench  # not part of the default build
    exec "$build/bench/qconform_bench" "$@" ;;
  matrix)
    # The implementations judged (tools/backends.txt); each must match its own baseline.
    args=()
    while read -r b; do args+=(--backend "$b"); done < <(grep -v '^#' "$root/tools/backends.txt")
    cd "$root"
    status=0
    "$build/tools/qconform" run "${args[@]}" --count 0 -j 2 --report "$build/matrix" || status=$?
    rel=${build#"$root"/}
    # The documents live in docs/; their links go to the reports in the build tree.
    sed -E "s#\]\(([a-z0-9.-]+-[0-9][^/)]*/)#](../$rel/matrix/\1#g" "$build/matrix/compare.md" \
      >docs/conformance-matrix.md
    sed -E "s#href=\"([a-z0-9.-]+-[0-9][^/\"]*/)#href=\"../$rel/matrix/\1#g" \
      "$build/matrix/compare.html" >docs/conformance-matrix.html
    # The README's picture of the page: its first screen (the backends, their deviations by
    # cause, the start of the matrix), rendered by headless Chromium as the report's is.
    if chromium=$(command -v chromium || command -v chromium-browser); then
      "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1500 \
        --screenshot="$root/docs/conformance-matrix.png" "file://$root/docs/conformance-matrix.html" \
        2>/dev/null && echo "matrix: docs/conformance-matrix.png"
    else
      echo "matrix: chromium is not installed (tools/setup.sh installs it): no picture" >&2
    fi
    echo "matrix: docs/conformance-matrix.md and docs/conformance-matrix.html"
    exit "$status" ;;
esac
