#!/usr/bin/env bash
# Time the row and tree reports against innochecksum on one file.
#
# Usage: bench/trees.sh [FILE]      (default bench/out/t_large.ibd)
#
# Environment: BIN (the innodb-inspect binary; default target/release, built
#              if missing), BASE (a second binary to time beside it, e.g. one
#              built from main: `git archive main | tar -x -C DIR` and
#              `cargo build --release` there), RUNS (default 3), ONLY (a regex
#              of the command names to run).
#
# Each round runs every command once, in turn (paired runs: a busy machine
# slows all of them alike), with GNU time: wall and user+system seconds and
# peak RSS (%M). Prints the median of each, and the ratio of wall time to
# `innochecksum FILE` in the same rounds. The page cache is warmed first (cat
# twice). The records commands read the columns from bench/t_large.sql (the
# table make-large.sh creates).
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${BENCH_DIR}/.." && pwd)"
FILE="${1:-${BENCH_DIR}/out/t_large.ibd}"
RUNS="${RUNS:-3}"
ONLY="${ONLY:-.}"
DDL="${BENCH_DIR}/t_large.sql"
BIN="${BIN:-${CARGO_TARGET_DIR:-${ROOT}/target}/release/innodb-inspect}"
[ -x "$BIN" ] || (cd "$ROOT" && cargo build --release --quiet)
[ -f "$FILE" ] || { echo "no $FILE (bench/make-large.sh)" >&2; exit 1; }
export PATH="$PATH:/usr/sbin"

names=("innochecksum FILE" "cat FILE")
cmds=("innochecksum $FILE" "cat $FILE")
add() { # label binary
  local l="$1" b="$2"
  names+=("$l records --ddl" "$l records --ddl --format json" "$l records --ddl --format csv"
          "$l records --ddl --index k_a" "$l indexes" "$l fill" "$l count" "$l tree --index 23")
  cmds+=("$b records --ddl $DDL $FILE" "$b --format json records --ddl $DDL $FILE"
         "$b --format csv records --ddl $DDL $FILE" "$b records --ddl $DDL --index k_a $FILE"
         "$b indexes $FILE" "$b fill $FILE" "$b count $FILE" "$b tree $FILE --index 23")
}
add new "$BIN"
[ -n "${BASE:-}" ] && add base "$BASE"

cat "$FILE" >/dev/null; cat "$FILE" >/dev/null
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
for r in $(seq 1 "$RUNS"); do
  for i in "${!cmds[@]}"; do
    [[ "${names[$i]}" =~ $ONLY ]] || [ "$i" -lt 2 ] || continue
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S %M %x" -o "$TMP/t" ${cmds[$i]} >/dev/null 2>"$TMP/err" || true
    echo "$i $(tail -n1 "$TMP/t")" >>"$TMP/all"
  done
  echo "round $r done" >&2
done
export TMP
python3 - "${names[@]}" <<'PY'
import os, statistics, sys
names = sys.argv[1:]
rows = {}
for line in open(os.path.join(os.environ["TMP"], "all")):
    i, e, u, s, m, x = line.split()
    rows.setdefault(int(i), []).append((float(e), float(u) + float(s), int(m), x))
base = statistics.median(r[0] for r in rows[0])
print("| command | wall (s, median) | user+sys (s) | × innochecksum | peak RSS (MB) | exit |")
print("|---|--:|--:|--:|--:|--:|")
for i in sorted(rows):
    rs = rows[i]
    w = statistics.median(r[0] for r in rs)
    c = statistics.median(r[1] for r in rs)
    print("| `%s` | %.2f | %.2f | %.1f | %.1f | %s |" % (names[i], w, c, w / base,
          max(r[2] for r in rs) / 1024, ",".join(sorted({r[3] for r in rs}))))
PY
