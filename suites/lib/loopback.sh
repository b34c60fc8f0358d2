# Sourced by the shell tests that need a server on a loopback TCP port (socat, a CDash drop site):
# `listen_on_free_port COMMAND...` starts COMMAND with the port substituted for every {PORT} in
# its arguments, in a process group of its own, tries other ports while the chosen one is taken,
# and returns once the port accepts connections. It sets $port and appends the process to
# $servers (stop them with `stop_servers`, e.g. from an EXIT trap).
servers=()

listen_on_free_port() {
  local attempt
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 40000))
    setsid "${@//\{PORT\}/$port}" >/dev/null 2>&1 &
    local pid=$!
    for _ in $(seq 50); do
      if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        servers+=("$pid")
        return 0
      fi
      kill -0 "$pid" 2>/dev/null || break  # the port was taken: another one
      sleep 0.1
    done
    kill -- "-$pid" 2>/dev/null
  done
  echo "FAIL: no free loopback port for $1"
  exit 1
}

stop_servers() {
  local p
  for p in "${servers[@]}"; do kill -- "-$p" 2>/dev/null; done
}
