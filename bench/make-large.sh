#!/usr/bin/env bash
# Build a large InnoDB tablespace for the full-file scan benchmark.
#
# Usage: bench/make-large.sh [--force] [--checksum ALGO] [--page-size SIZE] [--order ORDER] [--out FILE] [SIZE_MB]
#
#   SIZE_MB         target size of the .ibd file in MiB (default 600)
#   --force         rebuild even if the output file exists
#   --out FILE      where to write the tablespace (default bench/out/t_large.ibd);
#                   the metadata goes next to it, FILE with .json for .ibd
#   --checksum ALGO innodb_checksum_algorithm of the throwaway server
#                   (default full_crc32, the MariaDB 10.11 default; "crc32"
#                   writes the classic layout).  A non-default algorithm is
#                   written to bench/out/t_large-ALGO.ibd.
#   --page-size SIZE innodb_page_size of the throwaway server: 4k, 8k, 16k
#                   (default), 32k or 64k.  A non-default size is written to
#                   bench/out/t_large-SIZE.ibd.
#   --rows N        insert exactly N rows instead of filling to SIZE_MB
#   --order ORDER   primary-key order of the inserts: random (default: a
#                   scrambled key) or sequential (id = the sequence number,
#                   inserted in key order).  Sequential is written to
#                   bench/out/t_large-sequential.ibd.
#
# Starts a throwaway MariaDB server (its own datadir, socket and pid file in a
# fresh temporary directory, no networking), creates test.t_large with a
# random-order primary key and one secondary index, inserts rows in batches
# from the Sequence engine until the .ibd reaches SIZE_MB, shuts the server
# down cleanly (default innodb_fast_shutdown=1: every dirty page is flushed)
# and copies t_large.ibd to bench/out/ (or --out).  Also writes the .json beside it
# (rows, page size, server version, how long it took).
#
# Re-runnable: does nothing if the output exists, unless --force.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${BENCH_DIR}/.." && pwd)"
OUT_DIR="${BENCH_DIR}/out"

SIZE_MB=600
FORCE=0
ALGO=full_crc32
PAGE=16k
ORDER=random
ROWS_WANTED=""
OUT=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --force) FORCE=1 ;;
    --checksum) shift; ALGO="${1:?--checksum needs a value}" ;;
    --checksum=*) ALGO="${1#--checksum=}" ;;
    --page-size) shift; PAGE="${1:?--page-size needs a value}" ;;
    --order) shift; ORDER="${1:?--order needs a value}" ;;
    --rows) shift; ROWS_WANTED="${1:?--rows needs a value}" ;;
    --page-size=*) PAGE="${1#--page-size=}" ;;
    --out) shift; OUT="${1:?--out needs a value}" ;;
    --out=*) OUT="${1#--out=}" ;;
    -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) SIZE_MB="$1" ;;
  esac
  shift
done
case "$SIZE_MB" in ''|*[!0-9]*) echo "SIZE_MB must be a whole number of MiB" >&2; exit 2 ;; esac
case "$ALGO" in full_crc32|strict_full_crc32|crc32|strict_crc32) ;;
  *) echo "unknown checksum algorithm '$ALGO'" >&2; exit 2 ;; esac
case "$ROWS_WANTED" in ''|*[!0-9]*) [ -z "$ROWS_WANTED" ] || { echo "--rows needs a whole number" >&2; exit 2; } ;; esac
case "$ORDER" in random|sequential) ;;
  *) echo "unknown order '$ORDER' (random or sequential)" >&2; exit 2 ;; esac
case "$PAGE" in 4k|8k|16k|32k|64k) ;;
  *) echo "unknown page size '$PAGE' (4k, 8k, 16k, 32k or 64k)" >&2; exit 2 ;; esac

if [ -z "$OUT" ]; then
  OUT="${OUT_DIR}/t_large"
  [ "$ALGO" = full_crc32 ] || OUT="${OUT}-${ALGO}"
  [ "$PAGE" = 16k ] || OUT="${OUT}-${PAGE}"
  [ "$ORDER" = random ] || OUT="${OUT}-${ORDER}"
  OUT="${OUT}.ibd"
fi
mkdir -p "$(dirname "$OUT")"
OUT="$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")"
META="${OUT%.ibd}.json"

log() { printf '[make-large %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

page_info() {
  local f="$1" bytes
  bytes=$(stat -c %s "$f")
  log "$f: ${bytes} bytes ($(( bytes / 1048576 )) MiB)"
}

if [ -e "$OUT" ] && [ "$FORCE" -eq 0 ]; then
  log "$OUT exists; skipping (use --force to rebuild)"
  page_info "$OUT"
  exit 0
fi

export PATH="$PATH:/usr/sbin:/usr/bin"
if ! command -v mariadbd >/dev/null 2>&1; then
  log "mariadbd not found; installing mariadb-server with apt-get"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y mariadb-server
fi
for tool in mariadbd mariadb mariadb-install-db mariadb-admin; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found"
done

mkdir -p "$OUT_DIR"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/innodb-bench-large.XXXXXX")"
DATADIR="${WORK}/data"
SOCK="${WORK}/mysqld.sock"
PIDFILE="${WORK}/mysqld.pid"
ERRLOG="${WORK}/error.log"
SERVER_PID=""

cleanup() {
  local rc=$?
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    log "killing leftover mariadbd (pid $SERVER_PID)"
    kill -9 "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ]; then
    log "failed (exit $rc); work directory kept for inspection: $WORK"
    [ -f "$ERRLOG" ] && tail -n 20 "$ERRLOG" >&2
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

sql() { mariadb --no-defaults --socket="$SOCK" --user=root -B -N test -e "$1"; }

START=$(date +%s)
log "work directory $WORK; target ${SIZE_MB} MiB; checksum algorithm $ALGO; page size $PAGE; key order $ORDER"
mariadb-install-db --no-defaults --datadir="$DATADIR" --user=root \
  --innodb-page-size="$PAGE" \
  --auth-root-authentication-method=normal --skip-test-db >"${WORK}/install.log" 2>&1 \
  || { cat "${WORK}/install.log" >&2; die "mariadb-install-db failed"; }

mariadbd --no-defaults --datadir="$DATADIR" --socket="$SOCK" --pid-file="$PIDFILE" \
  --skip-networking --user=root --log-error="$ERRLOG" \
  --innodb-page-size="$PAGE" --innodb-buffer-pool-size=1G \
  --innodb-stats-persistent=ON --innodb-stats-auto-recalc=OFF --innodb-log-file-size=1G \
  --innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 \
  --innodb-checksum-algorithm="$ALGO" --innodb-file-per-table=1 \
  --character-set-server=latin1 --skip-log-bin >>"$ERRLOG" 2>&1 &
SERVER_PID=$!

for _ in $(seq 1 120); do
  if mariadb-admin --no-defaults --socket="$SOCK" --user=root ping >/dev/null 2>&1; then break; fi
  kill -0 "$SERVER_PID" 2>/dev/null || die "mariadbd exited during startup"
  sleep 0.5
done
mariadb-admin --no-defaults --socket="$SOCK" --user=root ping >/dev/null 2>&1 || die "mariadbd did not start"
VERSION=$(mariadb --no-defaults --socket="$SOCK" --user=root -B -N -e "SELECT VERSION()")
log "server $VERSION up (pid $SERVER_PID)"

mariadb --no-defaults --socket="$SOCK" --user=root -e "CREATE DATABASE IF NOT EXISTS test"
# id: a bijective scramble of the sequence number (multiplication by an odd
# constant modulo 2^32), so primary-key order is random across the whole
# table; within a batch rows are inserted in CRC32(seq) order.  a: random
# values for the secondary index.  b: 10..99 characters.  c: CHAR(60), latin1.
sql "CREATE TABLE t_large (
       id INT UNSIGNED NOT NULL PRIMARY KEY,
       a INT NOT NULL,
       b VARCHAR(100) NOT NULL,
       c CHAR(60) NOT NULL,
       KEY k_a (a)
     ) ENGINE=InnoDB DEFAULT CHARSET=latin1 ROW_FORMAT=DYNAMIC"

IBD="${DATADIR}/test/t_large.ibd"
TARGET=$(( SIZE_MB * 1048576 ))
BATCH=200000
ROWS=0
while :; do
  size=$(stat -c %s "$IBD")
  if [ -n "$ROWS_WANTED" ]; then
    [ "$ROWS" -ge "$ROWS_WANTED" ] && break
  else
    [ "$size" -ge "$TARGET" ] && break
  fi
  lo=$(( ROWS + 1 )); hi=$(( ROWS + BATCH ))
  if [ -n "$ROWS_WANTED" ] && [ "$hi" -gt "$ROWS_WANTED" ]; then hi=$ROWS_WANTED; fi
  if [ "$ORDER" = sequential ]; then KEY="seq"; SORT="seq"; else KEY="(seq * 2654435761) % 4294967296"; SORT="CRC32(seq)"; fi
  sql "INSERT INTO t_large (id, a, b, c)
       SELECT ${KEY},
              CRC32(CONCAT('a', seq)) % 100000000,
              LEFT(REPEAT(MD5(seq), 4), 10 + seq % 90),
              LEFT(CONCAT(SHA1(seq), MD5(seq)), 60)
       FROM seq_${lo}_to_${hi}
       ORDER BY ${SORT}"
  ROWS=$hi
  log "rows ${ROWS}: t_large.ibd $(( $(stat -c %s "$IBD") / 1048576 )) MiB (elapsed $(( $(date +%s) - START )) s)"
done

COUNT=$(sql "SELECT COUNT(*) FROM t_large")
[ "$COUNT" -eq "$ROWS" ] || die "expected $ROWS rows, table has $COUNT"
PAGE_SIZE=$(sql "SELECT @@innodb_page_size")
ALGO_SERVER=$(sql "SELECT @@innodb_checksum_algorithm")

# The server's own index statistics of the final file, to compare with `segments`.
sql "ANALYZE TABLE t_large" >/dev/null
STATS=$(sql "SELECT JSON_ARRAYAGG(JSON_OBJECT('index', index_name, 'stat', stat_name, 'value', stat_value))
             FROM mysql.innodb_index_stats
             WHERE database_name = 'test' AND table_name = 't_large' AND stat_name IN ('size', 'n_leaf_pages')")
ROOTS=$(sql "SELECT JSON_ARRAYAGG(JSON_OBJECT('index', i.NAME, 'index_id', i.INDEX_ID, 'root_page', i.PAGE_NO))
             FROM information_schema.INNODB_SYS_INDEXES i JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID)
             WHERE t.NAME = 'test/t_large'")

log "clean shutdown (innodb_fast_shutdown=$(sql 'SELECT @@innodb_fast_shutdown'))"
mariadb-admin --no-defaults --socket="$SOCK" --user=root shutdown
wait "$SERVER_PID" || die "mariadbd exited with an error on shutdown"
SERVER_PID=""
grep -q "Shutdown complete" "$ERRLOG" || die "no 'Shutdown complete' in the error log"

cp -f "$IBD" "${OUT}.tmp"
mv -f "${OUT}.tmp" "$OUT"
BYTES=$(stat -c %s "$OUT")
ELAPSED=$(( $(date +%s) - START ))
cat >"$META" <<EOF
{
  "file": "${OUT#"$ROOT"/}",
  "bytes": ${BYTES},
  "page_size": ${PAGE_SIZE},
  "pages": $(( BYTES / PAGE_SIZE )),
  "rows": ${ROWS},
  "target_mib": ${SIZE_MB},
  "server_version": "${VERSION}",
  "checksum_algorithm": "${ALGO_SERVER}",
  "seconds_to_build": ${ELAPSED},
  "index_stats": ${STATS},
  "indexes": ${ROOTS}
}
EOF
log "done in ${ELAPSED} s: ${ROWS} rows, page size ${PAGE_SIZE}, checksum ${ALGO_SERVER}"
page_info "$OUT"
