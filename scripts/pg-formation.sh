#!/usr/bin/env bash
# A highly available PostgreSQL on this machine, with pg_auto_failover: a monitor, a primary and
# a secondary that replicates synchronously, on free loopback ports, in folders of their own
# under DIR. Used by scripts/cluster.sh up --ha and by the tests.
#
#   scripts/pg-formation.sh up --dir DIR         # writes DIR/formation.json, prints the URL
#   scripts/pg-formation.sh state --dir DIR      # DIR/formation.json with roles and pids now
#   scripts/pg-formation.sh kill --dir DIR --node NAME    # kill -9 of its keeper and postmaster
#   scripts/pg-formation.sh freeze|thaw --dir DIR --node NAME  # SIGSTOP / SIGCONT of them all
#   scripts/pg-formation.sh start --dir DIR --node NAME   # its keeper again (it rejoins)
#   scripts/pg-formation.sh down --dir DIR
#
# formation.json: {"url": the nodes' multi-host URL, "monitor": {"pid", "port", "dir"},
# "nodes": [{"name", "role", "goal", "healthy", "pid", "port", "dir"}]}, pid being each
# postmaster's (null when it is not running); role is what the node last reported ("primary",
# "secondary", or the state of a node in between: "wait_primary", "demoted", ...), goal what the
# monitor asks of it, healthy whether the monitor's last health check of it passed.
#
# The timing (see docs/ARCHITECTURE.md, "A database that fails over"): the monitor checks each
# node every second and calls a primary that neither answers nor reports for 2 s unhealthy; it
# then waits 4 s (primary_demote_timeout) for the old primary to stop before the standby takes
# writes. A primary that lost the monitor and its standby demotes itself after 2 s
# (network_partition_timeout), well inside that wait, so two primaries never take writes. And
# with the nodes' synchronous commits, a primary cut off from its standby commits nothing.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATABASE_NAME=matchismo

usage() {
  sed -n '6,11p' "$0" | sed 's/^# //' >&2
  exit 2
}

free_port() {
  python3 "$ROOT/scripts/free_port.py"
}

# as_postgres CMD...: runs CMD as the owner of DIR's folders (postgres when we are root:
# pg_autoctl refuses root), with pg_autoctl's configuration kept under DIR.
as_postgres() {
  local as=()
  [[ $(id -u) == 0 ]] && as=(runuser -u postgres --)
  "${as[@]}" env PATH="$PG_BIN:$PATH" XDG_CONFIG_HOME="$DIR/config" XDG_DATA_HOME="$DIR/share" "$@"
}

find_bin() {
  local pg_ctl
  pg_ctl=$(find /usr/lib/postgresql -path '*/bin/pg_ctl' 2>/dev/null | sort -V | tail -1)
  if [[ -z $pg_ctl ]] || ! command -v pg_autoctl >/dev/null; then
    echo "pg-formation.sh needs Debian's postgresql-15-auto-failover and pg-auto-failover-cli" >&2
    return 1
  fi
  PG_BIN=$(dirname "$pg_ctl")
}

monitor_url() {
  echo "postgres://autoctl_node@127.0.0.1:$(cat "$DIR/mon.port")/pg_auto_failover?sslmode=disable"
}

# keeper NAME: starts NAME's pg_autoctl service (monitor or keeper) in the background.
keeper() {
  as_postgres setsid pg_autoctl run --pgdata "$DIR/$1" </dev/null >>"$DIR/$1.log" 2>&1 &
  echo $! >"$DIR/$1.keeper"
}

# sql NAME SQL...: runs each SQL on NAME's PostgreSQL (each on its own, outside a transaction),
# as the superuser; prints the rows unaligned.
sql() {
  local name=$1 commands=()
  shift
  for command in "$@"; do commands+=(-c "$command"); done
  "$PG_BIN/psql" -X -q -A -t -h 127.0.0.1 -p "$(cat "$DIR/$name.port")" -U postgres \
    -d "$([[ $name == mon ]] && echo pg_auto_failover || echo postgres)" "${commands[@]}" 2>/dev/null
}

monitor_sql() { sql mon "$@"; }

# settle NAME: loopback only, and a small server (pg_auto_failover sizes each for the whole
# machine: three of them would claim a quarter of its memory each).
settle() {
  as_postgres pg_autoctl config set --pgdata "$DIR/$1" postgresql.listen_addresses 127.0.0.1 \
    >/dev/null
  printf 'shared_buffers = 128MB\neffective_cache_size = 1GB\nmaintenance_work_mem = 64MB\nwork_mem = 4MB\n' |
    as_postgres tee -a "$DIR/$1/postgresql.auto.conf" >/dev/null
}

# states: "name reported_state goal_state" for each data node.
states() {
  monitor_sql "SELECT nodename, reportedstate, goalstate FROM pgautofailover.node ORDER BY nodeid" |
    tr '|' ' '
}

# wait_for SECONDS PATTERN: waits until `states` matches the extended regex PATTERN.
wait_for() {
  local tries=$(($1 * 5))
  for _ in $(seq "$tries"); do
    if states | tr '\n' ';' | grep -Eq "$2"; then return 0; fi
    sleep 0.2
  done
  echo "the formation did not reach '$2' within $1 s; it is:" >&2
  states >&2 || true
  return 1
}

create_node() {
  local name=$1 port
  port=$(free_port)
  echo "$port" >"$DIR/$name.port"
  if ! as_postgres pg_autoctl create postgres --pgdata "$DIR/$name" --pgport "$port" \
    --hostname 127.0.0.1 --listen 127.0.0.1 --auth trust --no-ssl --monitor "$(monitor_url)" \
    --name "$name" --dbname "$DATABASE_NAME" </dev/null >>"$DIR/$name.log" 2>&1; then
    echo "pg_autoctl create postgres ($name) failed:" >&2
    tail -20 "$DIR/$name.log" >&2
    return 1
  fi
  # A primary that can reach neither the monitor nor its standby demotes itself after this.
  as_postgres pg_autoctl config set --pgdata "$DIR/$name" timeout.network_partition_timeout 2 \
    >/dev/null
  keeper "$name"
}

up() {
  find_bin
  mkdir -p "$DIR"
  DIR=$(cd "$DIR" && pwd)
  if [[ $(id -u) == 0 ]]; then chown postgres:postgres "$DIR"; chmod 755 "$DIR"; fi
  local port
  port=$(free_port)
  echo "$port" >"$DIR/mon.port"
  if ! as_postgres pg_autoctl create monitor --pgdata "$DIR/mon" --pgport "$port" \
    --hostname 127.0.0.1 --auth trust --no-ssl </dev/null >"$DIR/mon.log" 2>&1; then
    echo "pg_autoctl create monitor failed:" >&2
    tail -20 "$DIR/mon.log" >&2
    return 1
  fi
  settle mon
  keeper mon
  local tries=0
  until monitor_sql "SELECT 1" >/dev/null; do
    tries=$((tries + 1))
    [[ $tries -lt 150 ]] || { echo "the monitor did not start" >&2; tail -20 "$DIR/mon.log" >&2; return 1; }
    sleep 0.2
  done
  monitor_sql \
    "ALTER SYSTEM SET pgautofailover.health_check_period = 1000" \
    "ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000" \
    "ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1" \
    "ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500" \
    "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 2000" \
    "ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 4000" \
    "SELECT pg_reload_conf()" >/dev/null
  create_node db1
  wait_for 60 'db1 (single|primary|wait_primary) ' || return 1
  create_node db2
  wait_for 90 '(db1 primary primary;db2 secondary secondary|db2 primary primary;db1 secondary secondary)' ||
    return 1
  write_state
  jq_url
}

# The formation's URL for the nodes: every data node, the one that takes writes chosen by the
# client; as the postgres role, which the data nodes trust on loopback.
url() {
  local hosts="" name
  for name in db1 db2; do hosts+="${hosts:+,}127.0.0.1:$(cat "$DIR/$name.port")"; done
  echo "postgres://postgres@$hosts/$DATABASE_NAME?target_session_attrs=read-write"
}

jq_url() { url; }

postmaster() {
  [[ -f $DIR/$1/postmaster.pid ]] || return 0
  local pid
  pid=$(head -1 "$DIR/$1/postmaster.pid")
  if kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

write_state() {
  local rows
  rows=$(monitor_sql "SELECT nodename, reportedstate, goalstate, health FROM pgautofailover.node ORDER BY nodeid" |
    tr '|' ' ' || true)
  python3 - "$DIR" "$(url)" "$rows" "$(postmaster mon)" "$(postmaster db1)" "$(postmaster db2)" \
    <<'EOF'
import json, pathlib, sys
folder, url, rows, mon, db1, db2 = sys.argv[1:]
folder = pathlib.Path(folder)
roles, goals, health = {}, {}, {}
for row in rows.splitlines():
    name, reported, goal, checked = row.split()
    roles[name], goals[name], health[name] = reported, goal, checked == "1"
pids = {"db1": db1, "db2": db2}
state = {
    "url": url,
    "monitor": {"pid": int(mon) if mon else None,
                "port": int((folder / "mon.port").read_text()), "dir": str(folder / "mon")},
    "nodes": [{"name": name, "role": roles.get(name), "goal": goals.get(name),
               "healthy": health.get(name, False), "pid": int(pids[name]) if pids[name] else None,
               "port": int((folder / f"{name}.port").read_text()), "dir": str(folder / name)}
              for name in ("db1", "db2")],
}
(folder / "formation.json").write_text(json.dumps(state, indent=2))
print(json.dumps(state, indent=2)) if sys.stdout.isatty() else None
EOF
}

# sessions NAME: the sessions of NAME's keeper (pg_autoctl runs in a session of its own; its
# services, renamed, and the PostgreSQL it starts are in it).
sessions() {
  local main
  for main in $(pgrep -f -x -- "pg_autoctl run --pgdata $DIR/$1" || true); do
    ps -o sid= -p "$main" | tr -d ' '
  done
}

# the_processes NAME SESSION...: every process of NAME's keeper (in SESSION...; as root, under
# a runuser that waits for it) and of its PostgreSQL.
the_processes() {
  local name=$1 pids=() session pm
  shift
  # The wrappers that started it (runuser, env), found by their command line: the pid in
  # DIR/NAME.keeper may be the subshell's that ran them.
  pids+=($(pgrep -f -- "setsid pg_autoctl run --pgdata $DIR/$name\$" || true))
  for session in "$@"; do pids+=($(pgrep -s "$session" || true)); done
  pm=$(postmaster "$name")
  [[ -n $pm ]] && pids+=("$pm" $(pgrep -P "$pm" || true))
  echo "${pids[@]}"
}

# unsignalled SIGNAL PIDS...: those of PIDS that SIGNAL has yet to reach: alive (a zombie is
# gone, though its pid still answers) and, for STOP, not stopped; for CONT, stopped.
unsignalled() {
  local signal=$1
  shift
  [[ $# -gt 0 ]] || return 0
  ps -o pid=,stat= -p "$(IFS=,; echo "$*")" 2>/dev/null | awk -v signal="$signal" '
    $2 ~ /^Z/ { next }
    signal == "STOP" && $2 ~ /^[Tt]/ { next }
    signal == "CONT" && $2 !~ /^[Tt]/ { next }
    { print $1 }'
}

# signal SIGNAL NAME: SIGNAL to every process of NAME, and again to any that appeared meanwhile
# (a service that the keeper started again, a backend forked between the listing and the
# signal), until none is left to reach: a machine that dies or freezes dies or freezes whole.
# A keeper left running would start its PostgreSQL again (or go on reporting to the monitor),
# and the monitor would never see the primary go. At most 5 s.
signal() {
  local pids session_ids
  session_ids=$(sessions "$2")
  for _ in $(seq 50); do
    pids=$(unsignalled "$1" $(the_processes "$2" $session_ids))
    [[ -n $pids ]] || return 0
    kill "-$1" $pids 2>/dev/null || true
    sleep 0.1
  done
  echo "pg-formation.sh: $1 did not reach every process of $2: $pids" >&2
  return 1
}

down() {
  find_bin
  DIR=$(cd "$DIR" && pwd)
  local name
  for name in db1 db2 mon; do signal CONT "$name" || true; done
  for name in db2 db1 mon; do
    [[ -d $DIR/$name ]] || continue
    as_postgres pg_autoctl stop --pgdata "$DIR/$name" --fast >/dev/null 2>&1 || true
  done
  for name in db2 db1 mon; do
    local keeper
    keeper=$(cat "$DIR/$name.keeper" 2>/dev/null || true)
    for _ in $(seq 50); do
      [[ -n $keeper ]] && kill -0 "$keeper" 2>/dev/null || break
      sleep 0.1
    done
    signal KILL "$name" || true
  done
}

command=${1:-}
[[ -n $command ]] || usage
shift
DIR=""
NODE=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --dir) DIR=$2; shift 2 ;;
    --node) NODE=$2; shift 2 ;;
    *) usage ;;
  esac
done
[[ -n $DIR ]] || usage
case $command in
  up) up ;;
  state) find_bin; DIR=$(cd "$DIR" && pwd); write_state; cat "$DIR/formation.json" ;;
  kill) find_bin; signal KILL "$NODE" ;;
  freeze) find_bin; signal STOP "$NODE" ;;
  thaw) find_bin; signal CONT "$NODE" ;;
  start) find_bin; DIR=$(cd "$DIR" && pwd); keeper "$NODE" ;;
  down) down ;;
  *) usage ;;
esac
