#!/bin/bash
# Means of five alternating runs on the bench file (warm cache): innochecksum,
# checksum, indexes and count on 1 and 2 threads, tree (text, JSON); wall, user,
# sys seconds and peak RSS. Usage: bench/threads.sh (after bench/make-large.sh 1200
# and cargo build --release).
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
F=${FILE:-$ROOT/bench/out/t_large.ibd}; R=$ROOT/target/release/innodb-inspect
cat $F > /dev/null
for i in 1 2 3 4 5; do
  /usr/bin/time -f "innochecksum %e %U %S %M" innochecksum $F 2>&1 >/dev/null | tail -1
  for t in 1 2; do /usr/bin/time -f "indexes-t$t %e %U %S %M" $R --threads $t indexes $F 2>&1 >/dev/null | tail -1; done
  for t in 1 2; do /usr/bin/time -f "count-t$t %e %U %S %M" $R --threads $t count $F 2>&1 >/dev/null | tail -1; done
  for t in 1 2; do /usr/bin/time -f "checksum-t$t %e %U %S %M" $R --threads $t checksum $F 2>&1 >/dev/null | tail -1; done
  /usr/bin/time -f "tree %e %U %S %M" $R tree $F --index 23 2>&1 >/dev/null | tail -1
  /usr/bin/time -f "tree-json %e %U %S %M" $R tree $F --index 23 --format json 2>&1 >/dev/null | tail -1
done | awk '{n[$1]++; e[$1]+=$2; u[$1]+=$3; s[$1]+=$4; if ($5>m[$1]) m[$1]=$5} END {for (k in n) printf "%-14s wall %.3f user %.3f sys %.3f maxrss %d KB\n", k, e[k]/n[k], u[k]/n[k], s[k]/n[k], m[k]}' | sort
