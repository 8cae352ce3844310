#!/usr/bin/env bash
# Time a full-file scan: innodb-inspect against cat and innochecksum.
#
# Usage: bench/run.sh [FILE]          (default bench/out/t_large.ibd;
#                                      make it with bench/make-large.sh)
# Environment: RUNS (default 20: a run takes ~0.1 s and the machine is shared,
#              so more runs cost little and steady the mean), WARMUP (default 1),
#              RSS_RUNS (default 3), IDLE_WAIT (default 120: seconds to wait,
#              before timing, for the machine to be idle, i.e. under 10% CPU
#              busy over one second; 0 = do not wait).
#              INSPECT_BIN (time this innodb-inspect binary instead of building
#              the working tree; INSPECT_LABEL names it in the results).
#              The machine's CPU use during the timing is recorded: with one
#              benchmarked process on N CPUs, anything well above 100/N % means
#              other work was competing and the numbers are noisy.
#
# Builds the release binary, warms the page cache (cat FILE twice), then
# times each command with hyperfine (no shell, output to /dev/null), measures
# peak RSS with /usr/bin/time, prints a table (mean, min, MiB/s, ratio to
# `innochecksum FILE`, peak RSS) and writes:
#   bench/out/results.json   everything, machine-readable (latest run)
#   bench/out/results.md     the table (latest run)
#   bench/out/results-STEM.json / .md   the same, kept per file (STEM = FILE's
#                            name without .ibd)
#   bench/out/hyperfine.json / hyperfine.md   hyperfine's own exports
#
# Exit status: non-zero if any innodb-inspect command (or cat) fails on any
# run.  innochecksum's exit code is recorded, not treated as a failure: it
# exits non-zero on pages it does not understand (and on the first mismatch).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${BENCH_DIR}/.." && pwd)"
OUT_DIR="${BENCH_DIR}/out"
FILE="${1:-${OUT_DIR}/t_large.ibd}"
RUNS="${RUNS:-20}"
WARMUP="${WARMUP:-1}"
RSS_RUNS="${RSS_RUNS:-3}"
IDLE_WAIT="${IDLE_WAIT:-120}"

log() { printf '[run %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ -f "$FILE" ] || die "$FILE not found (make it with bench/make-large.sh)"
FILE="$(cd "$(dirname "$FILE")" && pwd)/$(basename "$FILE")"
case "$FILE" in *[[:space:]]*) die "the path must not contain whitespace (commands run without a shell)" ;; esac

export PATH="$PATH:/usr/sbin:/usr/bin"
need=()
command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
[ -x /usr/bin/time ] || need+=(time)
command -v innochecksum >/dev/null 2>&1 || need+=(mariadb-server)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ "${#need[@]}" -gt 0 ]; then
  log "installing ${need[*]} with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" \
    || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"; }
fi

mkdir -p "$OUT_DIR"
TMP="$(mktemp -d /tmp/innodb-bench-run.XXXXXX)"
trap 'rm -rf "$TMP"' EXIT

# Which code is measured: the working tree (built here) or INSPECT_BIN.
CODE_DIFF=""
if [ -n "${INSPECT_BIN:-}" ]; then
  [ -x "$INSPECT_BIN" ] || die "INSPECT_BIN=$INSPECT_BIN is not an executable"
  log "using INSPECT_BIN=$INSPECT_BIN (no build)"
  SRC_BIN="$INSPECT_BIN"
  CODE="${INSPECT_LABEL:-$INSPECT_BIN}"
else
  log "cargo build --release"
  (cd "$ROOT" && cargo build --release --quiet)
  SRC_BIN="${ROOT}/target/release/innodb-inspect"
  [ -x "$SRC_BIN" ] || die "$SRC_BIN not built"
  CODE="working tree of $ROOT"
  # Uncommitted changes to the Rust code, if any (read-only git commands).
  CODE_DIFF="$(git -C "$ROOT" diff HEAD -- crates Cargo.toml Cargo.lock 2>/dev/null | sha256sum | cut -c1-16)"
  [ -z "$(git -C "$ROOT" diff HEAD --stat -- crates Cargo.toml Cargo.lock 2>/dev/null)" ] && CODE_DIFF=""
fi
# Time a private copy: someone else's `cargo build` must not swap the binary mid-run.
BIN="${TMP}/innodb-inspect"
cp "$SRC_BIN" "$BIN"

# name | command (run without a shell; stdout goes to /dev/null)
NAMES=(
  "cat FILE >/dev/null"
  "innochecksum FILE"
  "innochecksum -S FILE >/dev/null"
  "innodb-inspect checksum FILE >/dev/null"
  "innodb-inspect summary FILE >/dev/null"
  "innodb-inspect summary --format json FILE >/dev/null"
  "innodb-inspect checksum --threads 2 FILE >/dev/null"
  "innodb-inspect waste FILE >/dev/null"
  "innodb-inspect indexes FILE >/dev/null"
)
CMDS=(
  "cat $FILE"
  "innochecksum $FILE"
  "innochecksum -S $FILE"
  "$BIN checksum $FILE"
  "$BIN summary $FILE"
  "$BIN summary --format json $FILE"
  "$BIN checksum --threads 2 $FILE"
  "$BIN waste $FILE"
  "$BIN indexes $FILE"
)
# The `inno` tool of the innodb-utils crate, when installed (INNO=path, or
# `inno` on PATH): `cargo install --root DIR innodb-utils`. Not installed by
# this script: it is another project's code, built from crates.io.
INNO="${INNO:-$(command -v inno || true)}"
if [ -n "$INNO" ] && [ -x "$INNO" ]; then
  NAMES+=("inno checksum -f FILE >/dev/null")
  CMDS+=("$INNO checksum -f $FILE")
fi
# Commands whose non-zero exit is recorded rather than fatal.
is_innochecksum() { case "$1" in innochecksum*|"inno "*) return 0 ;; *) return 1 ;; esac; }

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
log "file $FILE ($(stat -c %s "$FILE") bytes); load average $LOAD_BEFORE"
log "warming the page cache"
cat "$FILE" >/dev/null
cat "$FILE" >/dev/null

# One plain run of each: exit code and a sanity check of the output.
declare -a RCS
for i in "${!CMDS[@]}"; do
  set +e
  # shellcheck disable=SC2086
  ${CMDS[$i]} >"${TMP}/out.$i" 2>"${TMP}/err.$i"
  rc=$?
  set -e
  RCS[$i]=$rc
  if [ "$rc" -ne 0 ]; then
    if is_innochecksum "${NAMES[$i]}"; then
      log "note: '${NAMES[$i]}' exited $rc (recorded, not fatal): $(head -c 300 "${TMP}/err.$i")"
    else
      cat "${TMP}/err.$i" >&2
      die "'${NAMES[$i]}' exited $rc"
    fi
  fi
done

# CPU jiffies busy and total, from the first line of /proc/stat.
cpu_snap() { awk '/^cpu /{t=0; for(i=2;i<=NF;i++) t+=$i; print t-$5-$6, t}' /proc/stat; }
busy_pct() { # busy% between two snapshots "b1 t1" "b2 t2"
  local b1 t1 b2 t2; read -r b1 t1 <<<"$1"; read -r b2 t2 <<<"$2"
  awk -v b=$(( b2 - b1 )) -v t=$(( t2 - t1 )) 'BEGIN{ printf "%.0f", t ? 100*b/t : 0 }'
}
if [ "$IDLE_WAIT" -gt 0 ]; then
  waited=0
  while :; do
    s1=$(cpu_snap); sleep 1; s2=$(cpu_snap)
    pct=$(busy_pct "$s1" "$s2")
    [ "$pct" -lt 10 ] && break
    waited=$(( waited + 1 ))
    if [ "$waited" -ge "$IDLE_WAIT" ]; then
      log "machine still busy (${pct}% CPU) after ${IDLE_WAIT} s; timing anyway"
      break
    fi
    [ $(( waited % 10 )) -eq 1 ] && log "waiting for the machine to be idle (${pct}% CPU busy)"
  done
fi

log "hyperfine: --warmup $WARMUP --runs $RUNS"
SNAP_BEFORE=$(cpu_snap)
HF_ARGS=(-N -i --warmup "$WARMUP" --runs "$RUNS" --style basic
         --export-json "${OUT_DIR}/hyperfine.json" --export-markdown "${OUT_DIR}/hyperfine.md")
for i in "${!CMDS[@]}"; do
  HF_ARGS+=(--command-name "${NAMES[$i]}" "${CMDS[$i]}")
done
hyperfine "${HF_ARGS[@]}" >&2
CPU_BUSY=$(busy_pct "$SNAP_BEFORE" "$(cpu_snap)")
log "machine CPU busy during timing: ${CPU_BUSY}% (one benchmarked process = $(( 100 / $(nproc) ))%)"

log "peak RSS: /usr/bin/time -f '%M %U %S %R', max of $RSS_RUNS; RssAnon/RssFile from /proc"
: >"${TMP}/rss.tsv"
: >"${TMP}/rss_split.tsv"
cat >"${TMP}/rss_split.py" <<'PYEOF'
import re, subprocess, sys, time
idx, cmd = sys.argv[1], sys.argv[2:]
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
peak = {"RssAnon": 0, "RssFile": 0}
while p.poll() is None:
    try:
        status = open("/proc/%d/status" % p.pid).read()
    except OSError:
        break
    for k in peak:
        m = re.search(k + r":\s+(\d+)", status)
        if m:
            peak[k] = max(peak[k], int(m.group(1)))
    time.sleep(0.001)
p.wait()
print(idx, peak["RssAnon"], peak["RssFile"])
PYEOF
for i in "${!CMDS[@]}"; do
  for _ in $(seq 1 "$RSS_RUNS"); do
    set +e
    # shellcheck disable=SC2086
    /usr/bin/time -f '%M %U %S %R %x' -o "${TMP}/time.txt" ${CMDS[$i]} >/dev/null 2>&1
    set -e
    printf '%s %s\n' "$i" "$(tail -n 1 "${TMP}/time.txt")" >>"${TMP}/rss.tsv"
  done
  # What the RSS is made of: peak anonymous memory (heap, stacks) and peak
  # file-backed pages (the binary, and any memory-mapped file), sampled from
  # /proc/PID/status every millisecond while the command runs.
  # shellcheck disable=SC2086
  python3 "${TMP}/rss_split.py" "$i" ${CMDS[$i]} >>"${TMP}/rss_split.tsv"
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

export FILE BIN ROOT OUT_DIR TMP LOAD_BEFORE LOAD_AFTER RUNS WARMUP RSS_RUNS CPU_BUSY CODE CODE_DIFF
export RCS_STR="${RCS[*]}"
python3 - <<'PYEOF'
import json, os, platform, re, subprocess, sys

env = os.environ
hf = json.load(open(os.path.join(env["OUT_DIR"], "hyperfine.json")))["results"]
rcs = [int(x) for x in env["RCS_STR"].split()]
size = os.path.getsize(env["FILE"])

rss = {}
for line in open(os.path.join(env["TMP"], "rss.tsv")):
    i, maxrss, user, sys_, minflt, rc = line.split()
    rss.setdefault(int(i), []).append(
        {"max_rss_kb": int(maxrss), "user_s": float(user), "sys_s": float(sys_),
         "minor_faults": int(minflt), "exit_code": int(rc)})
split = {}
for line in open(os.path.join(env["TMP"], "rss_split.tsv")):
    i, anon, filek = line.split()
    split[int(i)] = (int(anon), int(filek))

def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except Exception:
        return ""

cpuinfo = open("/proc/cpuinfo").read()
model = re.search(r"model name\s*:\s*(.*)", cpuinfo)
mem = re.search(r"MemTotal:\s*(\d+) kB", open("/proc/meminfo").read())
page_size = None
try:
    with open(env["FILE"], "rb") as f:
        f.seek(54)  # FSP header at 38: FSP_SPACE_FLAGS at 38 + 16
        flags = int.from_bytes(f.read(4), "big")
    if flags & 0x10:   # MariaDB full_crc32: page size in bits 0..3
        ssize = flags & 0xF
    else:              # classic: PAGE_SSIZE in bits 6..9 (0 = 16k)
        ssize = (flags >> 6) & 0xF
    page_size = 16384 if ssize == 0 else (512 << ssize)
except Exception:
    pass

base = next(r for r in hf if r["command"] == "innochecksum FILE")["mean"]
rows = []
failed = []
for i, r in enumerate(hf):
    name = r["command"]
    codes = sorted(set(r.get("exit_codes", [])) | {rcs[i]} | {x["exit_code"] for x in rss[i]})
    tolerated = name.startswith("innochecksum") or name.startswith("inno ")
    if codes != [0] and not tolerated:
        failed.append((name, codes))
    rows.append({
        "command": name,
        "mean_s": r["mean"], "stddev_s": r["stddev"], "median_s": r["median"],
        "min_s": r["min"], "max_s": r["max"],
        "user_s": r["user"], "system_s": r["system"],
        "mib_per_s": size / r["mean"] / 1048576,
        "ratio_to_innochecksum": r["mean"] / base,
        "max_rss_kb": max(x["max_rss_kb"] for x in rss[i]),
        "peak_rss_anon_kb_sampled": split.get(i, (None, None))[0],
        "peak_rss_file_kb_sampled": split.get(i, (None, None))[1],
        "minor_faults": max(x["minor_faults"] for x in rss[i]),
        "exit_codes": codes,
        "exit_code_tolerated": tolerated,
        "times_s": r["times"],
    })

results = {
    "file": env["FILE"],
    "file_bytes": size,
    "page_size": page_size,
    "pages": size // page_size if page_size else None,
    "method": {
        "tool": sh("hyperfine --version"),
        "warmup": int(env["WARMUP"]), "runs": int(env["RUNS"]),
        "shell": "none (hyperfine -N); stdout to /dev/null",
        "page_cache": "warm (cat FILE >/dev/null twice before timing)",
        "rss": "GNU time %%M (ru_maxrss, KiB), max of %s runs" % env["RSS_RUNS"],
        "rss_split": "peak RssAnon / RssFile from /proc/PID/status, sampled every 1 ms in one run"
                     " (a very short process may end before the first sample)",
        "ratio": "mean time / mean time of `innochecksum FILE`",
    },
    "machine": {
        "nproc": os.cpu_count(),
        "cpu_model": model.group(1).strip() if model else None,
        "mem_total_kb": int(mem.group(1)) if mem else None,
        "kernel": platform.release(),
        "load_average_before": env["LOAD_BEFORE"],
        "load_average_after": env["LOAD_AFTER"],
        "cpu_busy_pct_during_timing": int(env["CPU_BUSY"]),
        "cpu_busy_pct_one_process": 100 // (os.cpu_count() or 1),
    },
    "versions": {
        "innochecksum": sh("innochecksum --version"),
        "innodb_inspect": sh(env["BIN"] + " --version"),
        "rustc": sh("rustc --version"),
        "code": env["CODE"],
        "git_commit": sh("git -C '%s' rev-parse HEAD" % env["ROOT"]),  # of the repo, not of INSPECT_BIN
        "uncommitted_rust_changes_sha256_16": env["CODE_DIFF"] or None,
    },
    "results": rows,
    "failures": [{"command": n, "exit_codes": c} for n, c in failed],
}
stem = os.path.basename(env["FILE"])
stem = stem[:-4] if stem.endswith(".ibd") else stem
for name in ("results.json", "results-%s.json" % stem):
    json.dump(results, open(os.path.join(env["OUT_DIR"], name), "w"), indent=2)

hdr = ("| command | mean ± σ (ms) | min (ms) | MiB/s | × innochecksum "
       "| user / sys (ms) | peak RSS (MiB) | anon / file-backed (MiB) | exit |")
lines = [hdr, "|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
mib = lambda kb: "?" if kb is None else "%.1f" % (kb / 1024)
for r in rows:
    lines.append("| `%s` | %.1f ± %.1f | %.1f | %.0f | %.2f | %.0f / %.0f | %.1f | %s / %s | %s |" % (
        r["command"], r["mean_s"] * 1e3, r["stddev_s"] * 1e3, r["min_s"] * 1e3,
        r["mib_per_s"], r["ratio_to_innochecksum"], r["user_s"] * 1e3, r["system_s"] * 1e3,
        r["max_rss_kb"] / 1024, mib(r["peak_rss_anon_kb_sampled"]),
        mib(r["peak_rss_file_kb_sampled"]), ",".join(map(str, r["exit_codes"]))))
table = "\n".join(lines)
for name in ("results.md", "results-%s.md" % stem):
    open(os.path.join(env["OUT_DIR"], name), "w").write(table + "\n")
if env.get("INSPECT_BIN"):
    print("\ncode: %s" % env["CODE"])
else:
    print("\ncode: %s at %s%s" % (env["CODE"], results["versions"]["git_commit"][:12],
          " + uncommitted changes (diff %s)" % env["CODE_DIFF"] if env["CODE_DIFF"] else ""))
print("\nFILE = %s (%d bytes, %.1f MiB%s)\n" % (
    env["FILE"], size, size / 1048576,
    ", %d pages of %d" % (size // page_size, page_size) if page_size else ""))
print(table)
print("\nmachine: %d CPUs, %s, %.1f GiB RAM; load average before %s, after %s;"
      " CPU busy during timing %s%% (one process = %d%%)" % (
    results["machine"]["nproc"], results["machine"]["cpu_model"],
    (results["machine"]["mem_total_kb"] or 0) / 1048576, env["LOAD_BEFORE"], env["LOAD_AFTER"],
    env["CPU_BUSY"], results["machine"]["cpu_busy_pct_one_process"]))
for r in rows:
    if r["exit_code_tolerated"] and r["exit_codes"] != [0]:
        print("note: `%s` exited %s (recorded, not a failure)" % (r["command"], r["exit_codes"]))
if failed:
    for n, c in failed:
        print("FAILED: `%s` exit codes %s" % (n, c), file=sys.stderr)
    sys.exit(1)
PYEOF
