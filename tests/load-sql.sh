#!/usr/bin/env bash
# Loads `records --format sql` of the MariaDB fixture sets into a fresh
# MariaDB server (fixtures/server.sh) and compares each table with the
# server truth the set was made with (truth.json):
#   t_random, t_deleted, t_zip4, t_pagecomp: COUNT(*) and the row digest
#     BIT_XOR(CRC32(CONCAT_WS('|', id, a, b, c))) that truth.json records;
#   t_blob (and p16k-offpage's t_zblob8, t_zblob4, t_compact_blob,
#     t_redundant_blob): COUNT(*), and every row's id, k, LENGTH/MD5 of t
#     and of b against the rows truth.json records; the CRC printed is
#     BIT_XOR(CRC32(CONCAT_WS('|', id, k, LENGTH(t), MD5(t), LENGTH(b), MD5(b))))
#     of the loaded table and of the truth's rows;
#   on the undo sets, t_ordered with --committed and t_undo with
#     --as-of-trx (the read view the server held): COUNT(*) and digest.
#
# Usage: tests/load-sql.sh BIN [FIXTURES]
#   BIN: the innodb-inspect binary; FIXTURES: the directory of the sets
#   (default: $INNODB_INSPECT_FIXTURES, else fixtures/).
# Exit 0: all equal; 1: a difference or a load that failed; 77: no server
# (mariadbd) installed and INNODB_INSPECT_REQUIRE_SERVER not set (when it
# is set, the server is installed as fixtures/generate.sh does).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin=$1
fixtures=${2:-${INNODB_INSPECT_FIXTURES:-$here/fixtures}}
# shellcheck source=../fixtures/server.sh
source "$here/fixtures/server.sh"
if ! server_available; then
  if [ -z "${INNODB_INSPECT_REQUIRE_SERVER:-}" ]; then
    echo "load-sql: skipped: no MariaDB server (mariadbd) installed; set INNODB_INSPECT_REQUIRE_SERVER=1 to install and require it" >&2
    exit 77
  fi
  server_install
fi
work=$(mktemp -d)
trap 'server_stop "$work/server"; rm -rf "$work"' EXIT
sock=$(server_start "$work/server")
sql() { mariadb --no-defaults --socket="$sock" --user=root --default-character-set=utf8mb4 "$@"; }

status=0
printf '%-14s %-18s %8s %8s %12s %12s %s\n' set table truth loaded "truth crc" "loaded crc" result
for set in "$fixtures"/p*/; do
  set=${set%/}
  [ -f "$set/truth.json" ] && [ -d "$set/files" ] || continue
  name=$(basename "$set")
  db="load_${name//-/_}"
  sql -e "CREATE DATABASE \`$db\`"
  for table in t_random t_deleted t_zip4 t_pagecomp t_blob t_zblob8 t_zblob4 t_compact_blob t_redundant_blob; do
    python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); sys.exit(0 if any(x["name"]=="test/"+sys.argv[2] for x in t["tables"]) else 1)' \
      "$set/truth.json" "$table" || continue
    if ! "$bin" --quiet --datadir "$set/files" --format sql records "test/$table" >"$work/$table.sql" 2>"$work/err"; then
      printf '%-14s %-18s records failed: %s\n' "$name" "$table" "$(cat "$work/err")"; status=1; continue
    fi
    if ! sql "$db" <"$work/$table.sql" 2>"$work/err"; then
      printf '%-14s %-18s load failed: %s\n' "$name" "$table" "$(cat "$work/err")"; status=1; continue
    fi
    python3 - "$set/truth.json" "$table" "$name" "$sock" "$db" <<'PY' || status=1
import json, subprocess, sys, zlib
truth_path, table, set_name, sock, db = sys.argv[1:]
truth = json.load(open(truth_path))
t = next(x for x in truth["tables"] if x["name"] == "test/" + table)
def q(query):
    out = subprocess.run(["mariadb", "--no-defaults", "--socket=" + sock, "--user=root",
                          "-B", "-N", db, "-e", query], check=True, capture_output=True, text=True)
    return [line.split("\t") for line in out.stdout.splitlines()]
count = int(q("SELECT COUNT(*) FROM `%s`" % table)[0][0])
ok = count == t["count"]
checks = t.get("checks", {})
if "row_digest" in checks:
    loaded = int(q("SELECT BIT_XOR(CRC32(CONCAT_WS('|', id, a, b, c))) FROM `%s`" % table)[0][0])
    want = checks["row_digest"]
    ok = ok and loaded == want
else:
    rows = truth["rows"]["test/" + table]
    cols = ["id", "k", "t_len", "t_md5", "b_len", "b_md5"]
    want_rows = [[None if r[c] is None else str(r[c]) for c in cols] for r in sorted(rows, key=lambda r: r["id"])]
    got = q("SELECT id, k, LENGTH(t), MD5(t), LENGTH(b), MD5(b) FROM `%s` ORDER BY id" % table)
    got_rows = [[None if v == "NULL" else v for v in r] for r in got]
    ok = ok and got_rows == want_rows and len(rows) == t["count"]
    def digest(rs):
        d = 0
        for r in rs:
            d ^= zlib.crc32("|".join(v for v in r if v is not None).encode())
        return d
    want = digest(want_rows)
    loaded = int(q("SELECT BIT_XOR(CRC32(CONCAT_WS('|', id, k, LENGTH(t), MD5(t), LENGTH(b), MD5(b)))) FROM `%s`" % table)[0][0])
    ok = ok and loaded == want
print("%-14s %-18s %8d %8d %12d %12d %s" % (set_name, table, t["count"], count, want, loaded, "ok" if ok else "DIFFERENT"))
sys.exit(0 if ok else 1)
PY
  done
done

# The views of the undo sets (an XA transaction left PREPARED on
# t_ordered; a read view held over t_undo's update rounds): `records
# --committed` of t_ordered against the committed count and row digest,
# `records --as-of-trx <first history trx>` of t_undo against the
# snapshot the server's held read view saw (undo_scenario).
for set in "$fixtures"/p*/; do
  set=${set%/}
  [ -f "$set/truth.json" ] && [ -d "$set/files" ] || continue
  python3 -c 'import json,sys; sys.exit(0 if "xa_prepared" in json.load(open(sys.argv[1])).get("undo_scenario", {}) else 1)' \
    "$set/truth.json" || continue
  name=$(basename "$set")
  db="view_${name//-/_}"
  sql -e "CREATE DATABASE \`$db\`"
  first=$("$bin" --quiet --datadir "$set/files" --format json undo \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["by_transaction"][0]["trx_id"])')
  for view in "t_ordered --committed" "t_undo --as-of-trx $first"; do
    read -r table flag arg <<<"$view"
    # shellcheck disable=SC2086
    if ! "$bin" --quiet --datadir "$set/files" --format sql records "test/$table" $flag $arg >"$work/$table.view.sql" 2>"$work/err"; then
      printf '%-14s %-18s records %s failed: %s\n' "$name" "$table" "$flag" "$(cat "$work/err")"; status=1; continue
    fi
    if ! sql "$db" <"$work/$table.view.sql" 2>"$work/err"; then
      printf '%-14s %-18s load of %s failed: %s\n' "$name" "$table" "$flag" "$(cat "$work/err")"; status=1; continue
    fi
    python3 - "$set/truth.json" "$table" "$name" "$sock" "$db" "$flag" <<'PY' || status=1
import json, subprocess, sys
truth_path, table, set_name, sock, db, flag = sys.argv[1:]
truth = json.load(open(truth_path))
if table == "t_ordered":
    t = next(x for x in truth["tables"] if x["name"] == "test/t_ordered")
    want_count, want, cols = t["count"], t["checks"]["row_digest"], "id, a, b, c"
else:
    v = truth["undo_scenario"]["snapshot_view_before_updates"]
    want_count, want, cols = v["count"], v["row_digest"], "id, v, s"
out = subprocess.run(["mariadb", "--no-defaults", "--socket=" + sock, "--user=root", "-B", "-N", db, "-e",
                      "SELECT COUNT(*), BIT_XOR(CRC32(CONCAT_WS('|', %s))) FROM `%s`" % (cols, table)],
                     check=True, capture_output=True, text=True)
count, loaded = (int(x) for x in out.stdout.split())
ok = count == want_count and loaded == want
print("%-14s %-18s %8d %8d %12d %12d %s" % (set_name, table + " " + flag, want_count, count, want, loaded,
                                           "ok" if ok else "DIFFERENT"))
sys.exit(0 if ok else 1)
PY
  done
done
exit $status
