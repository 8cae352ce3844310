#!/usr/bin/env bash
# Fuzz every target for a time each and print what libFuzzer reports.
#
# Usage: crates/fuzz/run.sh SECONDS [TARGET...]   (default: every target)
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). Works on the stable
# toolchain: `--sanitizer none` (Rust is memory-safe without it; what is
# looked for is panics, hangs and runaway memory). Seeds come from
# crates/fuzz/seed.py (real fixture files); what the fuzzer finds
# interesting goes to crates/fuzz/corpus/TARGET, crashes to
# crates/fuzz/artifacts/TARGET. A log per target is written to
# crates/fuzz/logs/TARGET.log.
set -euo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SECONDS_EACH="${1:?seconds per target}"
shift
TARGETS=("$@")
[ "${#TARGETS[@]}" -gt 0 ] || TARGETS=(zip_page undo_records pages whole_file records undo sdi)
[ -d "$DIR/seeds" ] || python3 "$DIR/seed.py" "$DIR/seeds"
mkdir -p "$DIR/logs"
max_len() {
  case "$1" in
    undo) echo 4194304 ;;
    zip_page|undo_records) echo 16384 ;;
    *) echo 262144 ;;
  esac
}
for t in "${TARGETS[@]}"; do
  mkdir -p "$DIR/corpus/$t" "$DIR/seeds/$t"
  (cd "$DIR" && cargo fuzz run --fuzz-dir . --sanitizer none -O "$t" "corpus/$t" "seeds/$t" -- \
      -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 -max_len="$(max_len "$t")" \
      -print_final_stats=1) >"$DIR/logs/$t.log" 2>&1 || echo "$t: exit $?"
  grep -E "^Done|stat::number_of_executed_units|stat::peak_rss_mb|ERROR|panicked" "$DIR/logs/$t.log" | sed "s/^/$t: /" || true
done
