# shellcheck shell=bash
# Sourced by the benchmark scripts: the journal each server runs with, made fresh for every server
# start and removed after it. JOURNAL names one kind or several (space-separated); each kind is a
# row of its own:
#   on        the server's default: SQLite in a fresh temporary --data-dir (--sync process)
#   off       --no-journal (memory only)
#   full      SQLite in a fresh --data-dir with --sync full (an fsync per commit)
#   postgres  --database postgres://...: a fresh database in a throwaway PostgreSQL cluster of the
#             script's own (Debian's postgresql: initdb in a temporary folder, pg_ctl on a free
#             loopback port, its socket in that folder), started on first use and stopped by
#             journal_cleanup; JOURNAL_PG_OPTIONS adds server options (e.g. "-c fsync=off").
#
#   journal_kinds DEFAULT        the kinds JOURNAL asks for (DEFAULT when it is unset), checked
#   journal_begin BINARY KIND    sets JOURNAL_ARGS (an array of server options), JOURNAL_LABEL
#                                (what the row ran with) and JOURNAL_SUFFIX (for a row's name)
#   journal_sizes                "WAL DB FOLDER" in bytes for the journal begun ('-' where none):
#                                SQLite: journal.sqlite-wal, journal.sqlite, the whole --data-dir;
#                                PostgreSQL: the cluster's pg_wal folder, pg_database_size, '-'
#   journal_end                  removes the data folder or drops the database
#   journal_cleanup              journal_end, then stops the cluster: call it from the EXIT trap
# A binary older than the journal gets no option.

JOURNAL_ARGS=()
JOURNAL_LABEL=""
JOURNAL_SUFFIX=""
JOURNAL_KIND=""
JOURNAL_DIR=""
JOURNAL_DB=""
PG_DIR=""
PG_PORT=""
PG_BIN=""
PG_AS=()
PG_DATABASES=0
PG_USER=mlive

journal_kinds() {
  local kinds=${JOURNAL:-$1} kind
  for kind in $kinds; do
    case "$kind" in
      on | off | full | postgres) ;;
      *) echo "JOURNAL must name on, off, full or postgres (or several, space-separated)" >&2; return 1 ;;
    esac
  done
  echo "$kinds"
}

# shellcheck disable=SC2034  # JOURNAL_SUFFIX and JOURNAL_LABEL are read by the scripts
journal_begin() {
  local binary=$1 kind=$2
  JOURNAL_ARGS=()
  JOURNAL_KIND=$kind
  JOURNAL_DIR=""
  JOURNAL_DB=""
  JOURNAL_SUFFIX=""
  if ! "$binary" --help 2>&1 | grep -- "--no-journal" >/dev/null; then
    JOURNAL_KIND=none
    JOURNAL_LABEL="none (a server older than the journal)"
    return 0
  fi
  case "$kind" in
    on | full)
      JOURNAL_DIR=$(mktemp -d "${TMPDIR:-/tmp}/mlive-journal.XXXXXX")
      JOURNAL_ARGS=(--data-dir "$JOURNAL_DIR")
      JOURNAL_LABEL="SQLite, fresh --data-dir"
      if [[ $kind == full ]]; then
        JOURNAL_ARGS+=(--sync full)
        JOURNAL_LABEL+=", --sync full"
        JOURNAL_SUFFIX=" (sync full)"
      fi
      ;;
    off)
      JOURNAL_ARGS=(--no-journal)
      JOURNAL_LABEL="off (--no-journal)"
      JOURNAL_SUFFIX=" (no journal)"
      ;;
    postgres)
      [[ -n $PG_DIR ]] || pg_cluster_start || return 1
      PG_DATABASES=$((PG_DATABASES + 1))
      JOURNAL_DB="bench$PG_DATABASES"
      "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" "$JOURNAL_DB" || return 1
      JOURNAL_ARGS=(--database "postgres://$PG_USER@127.0.0.1:$PG_PORT/$JOURNAL_DB")
      JOURNAL_LABEL="PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}'), fresh database"
      JOURNAL_SUFFIX=" (PostgreSQL)"
      ;;
    *) echo "journal_begin: unknown kind '$kind'" >&2; return 1 ;;
  esac
}

journal_sizes() {
  case "$JOURNAL_KIND" in
    on | full)
      local wal=0 db=0
      [[ -f $JOURNAL_DIR/journal.sqlite-wal ]] && wal=$(stat -c %s "$JOURNAL_DIR/journal.sqlite-wal")
      [[ -f $JOURNAL_DIR/journal.sqlite ]] && db=$(stat -c %s "$JOURNAL_DIR/journal.sqlite")
      echo "$wal $db $(du -sb "$JOURNAL_DIR" 2>/dev/null | cut -f1)"
      ;;
    postgres)
      local wal db
      wal=$(du -sb "$PG_DIR/data/pg_wal" 2>/dev/null | cut -f1)
      db=$(timeout 10 "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d "$JOURNAL_DB" -Atqc \
        "SELECT pg_database_size(current_database())" 2>/dev/null)
      echo "${wal:--} ${db:--} -"
      ;;
    *) echo "- - -" ;;
  esac
}

journal_end() {
  if [[ -n $JOURNAL_DIR ]]; then rm -rf "$JOURNAL_DIR"; fi
  if [[ -n $JOURNAL_DB && -n $PG_DIR ]]; then
    timeout 30 "$PG_BIN/dropdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" --force "$JOURNAL_DB" \
      >/dev/null 2>&1 || true
  fi
  JOURNAL_DIR=""
  JOURNAL_DB=""
}

journal_cleanup() {
  journal_end
  pg_cluster_stop
}

free_port() {
  python3 scripts/free_port.py
}

# The newest PostgreSQL under /usr/lib/postgresql, run as the postgres user when we are root (it
# refuses root), trust authentication for PG_USER on loopback only. A watchdog stops the cluster
# and removes its folder should the script die without running its traps (SIGKILL).
pg_cluster_start() {
  local initdb
  initdb=$(find /usr/lib/postgresql -path '*/bin/initdb' 2>/dev/null | sort -V | tail -1)
  if [[ -z $initdb ]]; then
    echo "JOURNAL=postgres needs Debian's postgresql (no /usr/lib/postgresql/*/bin/initdb):" \
      "apt-get install postgresql" >&2
    return 1
  fi
  PG_BIN=$(dirname "$initdb")
  PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/mlive-pg.XXXXXX")
  PG_PORT=$(free_port)
  PG_AS=()
  if [[ $(id -u) == 0 ]]; then
    PG_AS=(runuser -u postgres --)
    chown postgres:postgres "$PG_DIR"
  fi
  local stop="${PG_AS[*]} $PG_BIN/pg_ctl -D $PG_DIR/data -m immediate -w stop"
  setsid bash -c "while kill -0 $$ 2>/dev/null; do sleep 1; done; $stop; rm -rf $PG_DIR" \
    </dev/null >/dev/null 2>&1 &
  echo "== PostgreSQL cluster in $PG_DIR on 127.0.0.1:$PG_PORT" >&2
  # Output to a file, not our pipes: the postmaster pg_ctl starts must not hold them open.
  if ! "${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$PG_USER" --auth=trust -E UTF8 \
    --no-sync </dev/null >"$PG_DIR/initdb.log" 2>&1 ||
    ! "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t 60 \
      -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 ${JOURNAL_PG_OPTIONS:-}" start \
      </dev/null >>"$PG_DIR/initdb.log" 2>&1; then
    echo "the PostgreSQL cluster did not start:" >&2
    cat "$PG_DIR/initdb.log" "$PG_DIR/log" >&2 2>/dev/null || true
    pg_cluster_stop
    return 1
  fi
}

pg_cluster_stop() {
  [[ -n $PG_DIR ]] || return 0
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w -t 30 stop \
    </dev/null >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  PG_DIR=""
}
