# shellcheck shell=bash
# Sourced by the benchmark scripts: starting and stopping the one server under test, whose
# process id is in SERVER_PID.

# listening PORT: whether 127.0.0.1:PORT accepts a connection within 10 s.
listening() {
  for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}

# stop_server: asks the server to stop (it closes every client with 1001 and exits), gives it
# 10 s, then stops it hard; clears SERVER_PID. Nothing to do without one.
stop_server() {
  [[ -n "${SERVER_PID:-}" ]] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}
