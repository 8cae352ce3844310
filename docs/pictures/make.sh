#!/bin/sh
# Remakes the pictures of docs/pictures.md from the committed fixtures.
# Run from the repository root: sh docs/pictures/make.sh
set -e
# B=target/debug/innodb-inspect sh docs/pictures/make.sh uses a build at hand.
if [ -z "$B" ]; then
  cargo build --release -q -p innodb-inspect
  B=target/release/innodb-inspect
fi
O=docs/pictures
P16=fixtures/p16k/files
P4=fixtures/p4k/files
$B heatmap $P16/test/t_ordered.ibd.gz --png $O/lsn-age-ordered-16k.png
$B heatmap $P16/test/t_random.ibd.gz --png $O/lsn-age-random-16k.png
$B heatmap $P16/test/t_random.ibd.gz --lsn-scale rank --png $O/lsn-age-random-rank-16k.png
$B --datadir $P16 heatmap test/t_sec_before.ibd --by index --png $O/index-sec-before-16k.png
$B --datadir $P16 heatmap test/t_sec_after.ibd --by index --png $O/index-sec-after-16k.png
$B --datadir $P16 plot test/t_sec_before.ibd --fill-histogram --png $O/fill-histogram-sec-before-16k.png
$B --datadir $P16 plot test/t_sec_after.ibd --fill-histogram --png $O/fill-histogram-sec-after-16k.png
$B --datadir $P16 plot test/t_sec_before.ibd --levels --png $O/levels-sec-before-16k.png
$B --datadir $P4 heatmap test/t_random.ibd --by fill --png $O/fill-random-4k.png
$B --datadir $P16 heatmap test/t_random.ibd --by fill --png $O/fill-random-16k.png
$B heatmap $P16/ibdata1.gz --by page-type --png $O/page-type-ibdata1-16k.png
$B --datadir fixtures/p16k-undo/files plot --undo-growth --png $O/undo-growth-p16k-undo.png
