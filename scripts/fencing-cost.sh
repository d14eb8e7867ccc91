#!/usr/bin/env bash
# What the takeover's fencing check costs a journal commit on PostgreSQL: pgbench calls the
# journal's write with and without it (journal_write_v5, which locks the touched tables' rows
# and checks owner and epoch, and journal_write_v4 before it), the same batch each time: four
# moves at two of 250 tables held by one node, one transaction per call as the server's commit
# is, with synchronous_commit off as the server sets it by default. Alternating runs of
# SECONDS_EACH (default 10) seconds, ROUNDS (default 3) of each; one client.
#
#   scripts/fencing-cost.sh            (needs Debian's postgresql; builds the server if needed)
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${SECONDS_EACH:-10}
ROUNDS=${ROUNDS:-3}
swift build -c release --product matchismo >/dev/null
DIR=$(mktemp -d "${TMPDIR:-/tmp}/mlive-fencing.XXXXXX")
cleanup() { scripts/cluster.sh down --dir "$DIR" >/dev/null 2>&1 || true; rm -rf "$DIR"; }
trap cleanup EXIT
# One node makes the schema; then it stops, and the database is the benchmark's.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
scripts/cluster.sh up --dir "$DIR" --nodes 1 --port "$port" >/dev/null
url=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["postgres"]["url"])' "$DIR/cluster.json")
node_pid=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["nodes"][0]["pid"])' "$DIR/cluster.json")
kill -TERM "$node_pid"
while kill -0 "$node_pid" 2>/dev/null; do sleep 0.1; done
bin=$(dirname "$(find /usr/lib/postgresql -path '*/bin/pgbench' | sort -V | tail -1)")

"$bin/psql" -q "$url" <<'EOF'
INSERT INTO cluster_node (id, lease_until) VALUES ('bench', now() + interval '1 day')
  ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until;
INSERT INTO game_table (id, number, open, deal, record, owner, lease_until, epoch)
  SELECT 't' || g, g, TRUE, 1, '{}', 'bench', now() + interval '1 day', 1
  FROM generate_series(1, 250) AS g;
EOF

# The batch's arrays, after the fencing arguments (v5) or on their own (v4).
batch="'{}'::TEXT[], '{}'::BIGINT[], '{}'::BOOLEAN[], '{}'::BIGINT[], '{}'::TEXT[],
  '{}'::TEXT[], '{}'::TEXT[], '{}'::BIGINT[],
  ARRAY['t' || :a, 't' || :a, 't' || :b, 't' || :b], ARRAY[1, 1, 1, 1]::BIGINT[],
  ARRAY[:i, :i + 1, :i, :i + 1]::BIGINT[], ARRAY[0, 0, 0, 0]::BIGINT[], ARRAY[0, 1, 0, 1]::BIGINT[],
  ARRAY[5, 6, 7, 8]::BIGINT[], ARRAY[1.5, 1.6, 1.7, 1.8]::FLOAT8[], ARRAY[:i, :i + 1, :i, :i + 1]::BIGINT[],
  '{}'::TEXT[], '{}'::TEXT[], '{}'::TEXT[], '{}'::BIGINT[], '{}'::TEXT[], '{}'::TEXT[], '{}'::TEXT[],
  '{}'::TEXT[], '{}'::TEXT[], '{}'::FLOAT8[], '{}'::FLOAT8[], '{}'::BIGINT[], '{}'::TEXT[], '{}'::TEXT[]"
header='\set a random(1, 125)
\set b random(126, 250)
\set i random(0, 100000)'
printf '%s\nSELECT journal_write_v4(%s);\n' "$header" "'bench', 30, $batch" >"$DIR/v4.sql"
printf '%s\nSELECT journal_write_v5(%s);\n' "$header" \
  "'bench', 30, ARRAY['t' || :a, 't' || :b], ARRAY[1, 1]::BIGINT[], $batch" >"$DIR/v5.sql"

printf '| function | round | commits/s | mean ms per commit |\n|---|---|---:|---:|\n'
for round in $(seq "$ROUNDS"); do
  for function in v4 v5; do
    # As the server commits by default (--sync process): synchronous_commit off.
    out=$(PGOPTIONS="-c synchronous_commit=off" "$bin/pgbench" -n -c 1 -T "$SECONDS_EACH" -f "$DIR/$function.sql" "$url" 2>&1)
    tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
    latency=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")
    [[ -n $tps ]] || { echo "$out" >&2; exit 1; }
    printf '| journal_write_%s | %d | %.0f | %.3f |\n' "$function" "$round" "$tps" "$latency"
  done
done
