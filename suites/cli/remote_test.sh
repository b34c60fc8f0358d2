#!/usr/bin/env bash
# Exec protocol 3 over real transports, the way a backend on another device is reached:
# - the plugin host behind socat on a loopback TCP port gives the local run's results, case for
#   case (the example plugin and a real library's), and so does protocol 2 locally;
# - a backend in a mount namespace of its own, where qconform's files (source, build, /tmp,
#   /dev/shm) are hidden, gives them too over protocol 3, while over protocol 2 it can read no
#   case at all: the namespace has teeth;
# - a crash and a hang on the far side of the socket fail only their own case.
#   remote_test.sh QCONFORM PLUGIN_HOST PLUGIN_DIR FAULT_BACKEND SOURCE_DIR BUILD_DIR
set -uo pipefail
qconform=$1 host=$2 plugins=$3 fault=$4 source_dir=$5 build_dir=$6
work=$(mktemp -d)
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/loopback.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/results.sh"
trap 'stop_servers; rm -rf "$work"' EXIT
command -v socat >/dev/null || { echo "socat is missing: run tools/setup.sh (Debian's socat)"; exit 1; }

# serve COMMAND: a socat on a free loopback port, one COMMAND per connection; sets $port.
serve() {
  listen_on_free_port socat "TCP-LISTEN:{PORT},bind=127.0.0.1,reuseaddr,fork" "SYSTEM:$1"
}

same_verdicts() {  # NAME LOCAL_REPORT OTHER_REPORT
  local fields=(id kind gate nearest_strategy deviation first_mismatch detail)
  case_lines "$2/results.json" "${fields[@]}" >"$work/a"
  case_lines "$3/results.json" "${fields[@]}" >"$work/b"
  expect "$1" 0 "" -- diff "$work/a" "$work/b"
  expect "$1: it judged cases" 0 "" -- test -s "$work/a"
}

# 1. Loopback TCP: the example plugin and a real library's, against the local runs.
libraries=(example)
[[ -f "$plugins/libqconform_onednn_plugin.so" ]] && libraries+=(onednn)
for name in "${libraries[@]}"; do
  lib="$plugins/libqconform_${name}_plugin.so"
  "$qconform" run --backend "plugin:$name" -j 2 --report "$work/local-$name" >/dev/null 2>&1
  serve "$host $lib"
  expect "$name over socat on 127.0.0.1:$port matches its baseline" 0 "MATCHES" -- \
    "$qconform" run --backend "exec:socat - TCP:127.0.0.1:$port" -j 2 --report "$work/tcp-$name"
  same_verdicts "$name over socat (protocol 3) gives the local results" \
    "$work/local-$name" "$work/tcp-$name"
done
"$qconform" run --backend "exec:$host --protocol 2 $plugins/libqconform_example_plugin.so" -j 2 \
  --report "$work/v2" >/dev/null 2>&1
same_verdicts "protocol 2 still gives the same results" "$work/local-example" "$work/v2"

# 2. A mount namespace that cannot see qconform's files.
if ! unshare --user --map-root-user --mount true 2>/dev/null; then
  echo "SKIPPED the namespace checks: unprivileged user namespaces are off on this machine"
else
  hidden="/tmp /dev/shm $source_dir $build_dir $work ${TMPDIR:-}"
  lib=libqconform_example_plugin.so
  # The host and the plugin are copied into a tmpfs of the namespace's own, then everything of
  # qconform's is covered by empty ones.
  isolated() {  # PROTOCOL
    echo "unshare --user --map-root-user --mount sh -c 'mount -t tmpfs none /srv && cp $host $plugins/$lib /srv/ && for d in $hidden; do if [ -d \$d ]; then mount -t tmpfs none \$d; fi; done && exec /srv/qconform-plugin-host --protocol $1 /srv/$lib'"
  }
  expect "the namespace hides qconform's files" 0 "" -- \
    sh -c "unshare --user --map-root-user --mount sh -c 'for d in $hidden; do if [ -d \$d ]; then mount -t tmpfs none \$d; fi; done; test ! -e $source_dir/golden && test ! -e $host'"
  expect "protocol 3 from the namespace matches the baseline" 0 "MATCHES" -- \
    "$qconform" run --backend "exec:$(isolated 3)" -j 2 --report "$work/ns3"
  same_verdicts "protocol 3 from the namespace gives the local results" \
    "$work/local-example" "$work/ns3"
  "$qconform" run --backend "exec:$(isolated 2)" --filter dq21 --count 0 --report "$work/ns2" \
    >/dev/null 2>&1
  case_lines "$work/ns2/results.json" kind >"$work/ns2.kinds"
  expect "protocol 2 from the namespace reads no case (paths are not shared)" 0 "" -- \
    sh -c "test -s '$work/ns2.kinds' && ! grep -qx conformant '$work/ns2.kinds'"
fi

# 3. Faults on the far side of the socket fail only their own case.
for fault_case in "crash-before-outputs crash" "hang-after-partial-output timeout"; do
  read -r mode kind <<<"$fault_case"
  serve "$fault $mode dq21-int8-pt"
  "$qconform" run --backend "exec:socat - TCP:127.0.0.1:$port" --filter dq21-int8 --count 0 \
    --timeout 3 --report "$work/fault-$mode" >/dev/null 2>&1
  case_lines "$work/fault-$mode/results.json" id kind >"$work/fault.cases"
  expect "$mode over socat fails its case only, as $kind" 0 "" -- sh -c \
    "test \$(wc -l <'$work/fault.cases') -gt 3 && test \"\$(grep -v ' conformant\$' '$work/fault.cases')\" = 'dq21-int8-pt $kind'"
done
finish
