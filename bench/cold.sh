#!/usr/bin/env bash
# Cold-cache timings: before every run the input is dropped from the page
# cache with posix_fadvise(POSIX_FADV_DONTNEED), for innodb-inspect's commands
# and for the references (`cat`, MariaDB's `innochecksum`) alike.
#
# Usage: bench/cold.sh [FILE]   (default bench/out/t_large.ibd; make it with
#                                bench/make-large.sh; the release binary is
#                                built first unless INSPECT_BIN is given)
# Environment: RUNS (default 3; runs alternate between the commands),
#              ONLY (a regular expression: time only the commands whose label
#              matches), DDL (a CREATE TABLE for `records`; default
#              bench/t_large.sql), INDEX (the index of `tree`; default the
#              first index of `indexes --format json`).
#
# Prints one line per command: mean wall, user and system seconds, peak RSS,
# and the ratio to a cold `cat` and a cold `innochecksum`; writes the same to
# bench/out/cold-STEM.md. The file is only read (posix_fadvise on a read-only
# descriptor).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${BENCH_DIR}/.." && pwd)"
FILE="${1:-${BENCH_DIR}/out/t_large.ibd}"
RUNS="${RUNS:-3}"
ONLY="${ONLY:-.}"
DDL="${DDL:-${BENCH_DIR}/t_large.sql}"
[ -f "$FILE" ] || { echo "$FILE not found (make it with bench/make-large.sh)" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/usr/bin"
need=()
[ -x /usr/bin/time ] || need+=(time)
command -v innochecksum >/dev/null 2>&1 || need+=(mariadb-server)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ "${#need[@]}" -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" \
    || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"; }
fi
if [ -n "${INSPECT_BIN:-}" ]; then
  BIN="$INSPECT_BIN"
else
  (cd "$ROOT" && cargo build --release --quiet -p innodb-inspect)
  BIN="$ROOT/target/release/innodb-inspect"
fi
TMP="$(mktemp -d /tmp/innodb-bench-cold.XXXXXX)"
trap 'rm -rf "$TMP"' EXIT

drop() {
  python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)' "$FILE"
}
# How much of the file is in the page cache (util-linux `fincore`), to show
# that the drop worked.
cached() { fincore --noheadings --output RES "$FILE" | tr -d ' '; }

INDEX="${INDEX:-$("$BIN" indexes --format json "$FILE" | python3 -c 'import json,sys; print(json.load(sys.stdin)["indexes"][0]["index_id"])')}"
LABELS=(cat innochecksum checksum summary indexes count fill tree records carve)
cmd_of() {
  case "$1" in
    cat) echo "cat $FILE" ;;
    innochecksum) echo "innochecksum $FILE" ;;
    tree) echo "$BIN tree $FILE --index $INDEX" ;;
    records) echo "$BIN records $FILE --ddl $DDL" ;;
    *) echo "$BIN $1 $FILE" ;;
  esac
}
drop
echo "file $FILE ($(stat -c %s "$FILE") bytes); in the page cache after the drop: $(cached);" \
  "load $(cut -d' ' -f1-3 /proc/loadavg); $RUNS runs each" >&2
for run in $(seq 1 "$RUNS"); do
  for label in "${LABELS[@]}"; do
    [[ "$label" =~ $ONLY ]] || continue
    drop
    # shellcheck disable=SC2046
    /usr/bin/time -f "$label %e %U %S %M" -a -o "$TMP/times" $(cmd_of "$label") >/dev/null 2>"$TMP/err" \
      || { [ "$label" = innochecksum ] || { cat "$TMP/err" >&2; exit 1; }; }
  done
done
echo "load after $(cut -d' ' -f1-3 /proc/loadavg)" >&2
STEM="$(basename "$FILE" .ibd)"
grep -v '^Command' "$TMP/times" | awk -v order="${LABELS[*]}" '
  { n[$1]++; e[$1]+=$2; u[$1]+=$3; s[$1]+=$4; if ($5>m[$1]) m[$1]=$5 }
  END {
    split(order, o, " ")
    print "| command (cold) | wall s | user s | sys s | peak RSS MB | × cold cat | × cold innochecksum |"
    print "|---|--:|--:|--:|--:|--:|--:|"
    for (i = 1; i in o; i++) { k = o[i]; if (!(k in n)) continue
      w = e[k]/n[k]
      printf "| %s | %.2f | %.2f | %.2f | %.1f | %s | %s |\n", k, w, u[k]/n[k], s[k]/n[k], m[k]/1000,
        ("cat" in n) ? sprintf("%.2f", w/(e["cat"]/n["cat"])) : "",
        ("innochecksum" in n) ? sprintf("%.2f", w/(e["innochecksum"]/n["innochecksum"])) : "" }
  }' | tee "$BENCH_DIR/out/cold-$STEM.md"
