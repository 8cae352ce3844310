#!/usr/bin/env bash
# Loads `export` of every MySQL fixture set's purged copy (mysql-*/purged:
# recovered, purged, shut down slowly, so its truth is its content) into a
# fresh MySQL 9.x (the project's chroot, fixtures/mysql-chroot.sh) and
# compares every table of truth.json with the server's numbers: COUNT(*)
# and its row_digest (BIT_XOR(CRC32(CONCAT_WS('|', …))) over the table's
# columns, as truth.json's row_digest_expr says). Then, on each crash
# copy, `records --format sql` with --committed and with --as-of-trx
# against the committed and the held read view's counts and digests.
#
# Usage: tests/load-sql-mysql.sh BIN [FIXTURES]
# Exit 0: all equal; 1: a difference or a load that failed; 77: no chroot
# (MYSQL_CHROOT, else /opt/mysql-sid) and INNODB_INSPECT_REQUIRE_SERVER
# not set (when it is set, the chroot is built; root only).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin=$1
fixtures=${2:-${INNODB_INSPECT_FIXTURES:-$here/fixtures}}
root=${MYSQL_CHROOT:-/opt/mysql-sid}
if [ ! -f "$root/.innodb-inspect-chroot-ok" ]; then
  if [ -z "${INNODB_INSPECT_REQUIRE_SERVER:-}" ]; then
    echo "load-sql-mysql: skipped: no MySQL chroot at $root (fixtures/mysql-chroot.sh builds it); set INNODB_INSPECT_REQUIRE_SERVER=1 to build and require it" >&2
    exit 77
  fi
  bash "$here/fixtures/mysql-chroot.sh" "$root" >&2
fi
work_c="/tmp/load-sql-mysql.$$"     # inside the chroot
work="$root$work_c"
mkdir -p "$work"
stop() {
  chroot "$root" /usr/bin/mysqladmin -uroot -S "$work_c/s.sock" shutdown >/dev/null 2>&1 || true
  local i
  for i in $(seq 1 300); do [ -e "$work/pid" ] || break; sleep 0.1; done
  rm -rf "$work"
}
trap stop EXIT
chroot "$root" /usr/sbin/mysqld --initialize-insecure --user=root --datadir="$work_c/data" >"$work/init.log" 2>&1 \
  || { cat "$work/init.log" >&2; exit 1; }
chroot "$root" /usr/sbin/mysqld --no-defaults --user=root --datadir="$work_c/data" --socket="$work_c/s.sock" \
  --skip-networking --mysqlx=OFF --secure-file-priv= --max-allowed-packet=256M \
  --log-error="$work_c/err.log" --pid-file="$work_c/pid" >/dev/null 2>&1 &
for i in $(seq 1 600); do
  chroot "$root" /usr/bin/mysqladmin -uroot -S "$work_c/s.sock" ping >/dev/null 2>&1 && break
  sleep 0.1
done
sql() { chroot "$root" /usr/bin/mysql -uroot -S "$work_c/s.sock" --default-character-set=utf8mb4 "$@"; }
sql -e 'SELECT VERSION()' >/dev/null || { tail -20 "$work/err.log" >&2; exit 1; }

status=0
printf '%-20s %-18s %8s %8s %12s %12s %s\n' set table truth loaded "truth crc" "loaded crc" result
for set in "$fixtures"/mysql-*/purged; do
  [ -f "$set/truth.json" ] || continue
  name=$(basename "$(dirname "$set")")/purged
  db="load_$(basename "$(dirname "$set")" | tr -- '-' '_')"
  "$bin" --quiet --datadir "$set/files" export "$work/out_$db" >"$work/summary" 2>"$work/err" \
    || { echo "$name: export failed: $(cat "$work/summary" "$work/err")"; status=1; continue; }
  sql -e "CREATE DATABASE \`$db\`"
  for f in "$work/out_$db"/test/*.sql; do
    sql "$db" <"$f" 2>"$work/err" || { echo "$name: $(basename "$f"): load failed: $(cat "$work/err")"; status=1; }
  done
  python3 - "$set/truth.json" "$name" "$db" "$root" "$work_c/s.sock" <<'PY' || status=1
import json, subprocess, sys
truth_path, set_name, db, root, sock = sys.argv[1:]
failed = False
for t in json.load(open(truth_path))["tables"]:
    table = t["name"].split("/", 1)[1]
    c = t["checks"]
    out = subprocess.run(["chroot", root, "/usr/bin/mysql", "-uroot", "-S", sock, "-B", "-N", db, "-e",
                          "SELECT COUNT(*), %s FROM `%s`" % (c["row_digest_expr"], table)],
                         capture_output=True, text=True)
    got = out.stdout.split()
    ok = got == [str(t["count"]), str(c["row_digest"])]
    failed |= not ok
    count, crc = (got + ["-", "-"])[:2]
    print("%-20s %-18s %8d %8s %12d %12s %s" % (set_name, table, t["count"], count, c["row_digest"], crc,
                                               "ok" if ok else "DIFFERENT " + out.stderr.strip()))
sys.exit(1 if failed else 0)
PY
done

# The crash copies (mysql-*/files: a transaction left open, a read view
# held before the history): `records --format sql --committed` of the
# tables the open transaction changed against the committed count and
# digest of truth.json, and `--as-of-trx <first history trx>` of the
# tables the history changed against the held read view's
# (undo_scenario.views.snapshot).
for set in "$fixtures"/mysql-*/; do
  set=${set%/}
  [ -f "$set/truth.json" ] && [ -d "$set/files" ] || continue
  # mysql-p16k-dropped (the carving scenario) has no crash copy of this kind
  # (and no purged/): tests/carve_dropped_mysql.rs reads it.
  [ -d "$set/purged" ] || continue
  name=$(basename "$set")
  db="view_${name//-/_}"
  first=$("$bin" --quiet --datadir "$set/files" --format json undo \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["by_transaction"][0]["trx_id"])')
  for view in "committed --committed" "asof --as-of-trx $first"; do
    read -r kind flag arg <<<"$view"
    if [ "$kind" = committed ]; then tables="t_hist t_plain t_inst_redundant"; else tables="t_hist t_inst_dynamic t_inst_compact t_inst_redundant"; fi
    sql -e "CREATE DATABASE \`${db}_$kind\`"
    for table in $tables; do
      # shellcheck disable=SC2086
      "$bin" --quiet --datadir "$set/files" --format sql records "test/$table" $flag $arg >"$work/view.sql" 2>"$work/err" \
        || { echo "$name: $table $flag: records failed: $(cat "$work/err")"; status=1; continue; }
      sql "${db}_$kind" <"$work/view.sql" 2>"$work/err" \
        || { echo "$name: $table $flag: load failed: $(cat "$work/err")"; status=1; continue; }
    done
    python3 - "$set/truth.json" "$name" "${db}_$kind" "$root" "$work_c/s.sock" "$kind" "$tables" <<'PY' || status=1
import json, subprocess, sys
truth_path, set_name, db, root, sock, kind, tables = sys.argv[1:]
truth = json.load(open(truth_path))
failed = False
for table in tables.split():
    t = next(x for x in truth["tables"] if x["name"] == "test/" + table)
    want = t["checks"] if kind == "committed" else truth["undo_scenario"]["views"]["snapshot"][table]
    out = subprocess.run(["chroot", root, "/usr/bin/mysql", "-uroot", "-S", sock, "-B", "-N", db, "-e",
                          "SELECT COUNT(*), %s FROM `%s`" % (t["checks"]["row_digest_expr"], table)],
                         capture_output=True, text=True)
    got = out.stdout.split()
    ok = got == [str(want["count"]), str(want["row_digest"])]
    failed |= not ok
    count, crc = (got + ["-", "-"])[:2]
    print("%-20s %-18s %8d %8s %12d %12s %s" % (set_name + " " + kind, table, want["count"], count,
                                               want["row_digest"], crc,
                                               "ok" if ok else "DIFFERENT " + out.stderr.strip()))
sys.exit(1 if failed else 0)
PY
  done
done
exit $status
