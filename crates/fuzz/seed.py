#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, cut from the real fixture files.

Usage: crates/fuzz/seed.py [OUT]   (default crates/fuzz/seeds)

Writes OUT/TARGET/NAME for every target. Every seed is a slice of a file a
real MariaDB server made (fixtures/*/files): the first pages of tables (page 0
intact), single compressed pages, single undo pages, the system tablespace
of the undo scenario up to its last undo page, and its undo pages alone (for
undo_pages, which lays its input over them). The sdi target is
seeded from ../shared/thirdparty (MySQL 8.0+ files, read in place) when it is
there; those seeds are never committed.
"""
import gzip, os, sys, pathlib, struct

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIX = ROOT / "fixtures"
OUT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "seeds"

def read(p):
    return gzip.open(p).read() if str(p).endswith(".gz") else open(p, "rb").read()

def put(target, name, data):
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data)

def page_type(data, ps, n):
    return struct.unpack(">H", data[n * ps + 24 : n * ps + 26])[0]

# Tables: the first 16 pages (page 0 to the first leaves) of every 4k and 8k table.
for ps_dir, ps in (("p4k", 4096), ("p8k", 8192)):
    for f in sorted((FIX / ps_dir / "files" / "test").glob("*.ibd.gz")):
        data = read(f)
        stem = f"{ps_dir}-{f.name[:-7]}"
        head = data[: 16 * ps]
        for t in ("whole_file", "pages", "records"):
            put(t, stem, head)

# Compressed pages: INDEX pages (type 17855) of the KEY_BLOCK_SIZE 1k/2k/4k tables (4k logical).
for kb in (1, 2, 4):
    data = read(FIX / "p4k" / "files" / "test" / f"t_zip{kb}.ibd.gz")
    ps = kb * 1024
    n = 0
    for p in range(len(data) // ps):
        if page_type(data, ps, p) == 17855 and n < 8:
            put("zip_page", f"zip{kb}k-page{p}", data[p * ps : (p + 1) * ps])
            n += 1

# Undo: the undo scenario's system tablespace up to its last undo log page,
# and single undo log pages (type 2).
data = read(FIX / "p4k-undo" / "files" / "ibdata1.gz")
ps = 4096
undo_pages = [p for p in range(len(data) // ps) if page_type(data, ps, p) == 2]
put("undo", "p4k-undo-ibdata1", data[: (max(undo_pages) + 1) * ps])
for p in undo_pages[::12][:14]:
    put("undo_records", f"p4k-undo-page{p}", data[p * ps : (p + 1) * ps])

# Undo pages: the TRX_SYS (7), SYS (6) and UNDO_LOG (2) pages of the same
# file in page order, as innodb_robust::undo_pages lays its input over them:
# all of them (the file as the server wrote it), and the first 8 (TRX_SYS,
# the first rollback segment headers).
sel = [p for p in range(len(data) // ps) if page_type(data, ps, p) in (2, 6, 7)]
whole = b"".join(data[p * ps : (p + 1) * ps] for p in sel)
put("undo_pages", "p4k-undo-all", whole)
put("undo_pages", "p4k-undo-first8", whole[: 8 * ps])

# SDI: MySQL 8.0+ files of ../shared/thirdparty, first 8 pages, read in place.
tp = ROOT.parent / "shared" / "thirdparty"
n = 0
for f in sorted(tp.rglob("*.ibd")) if tp.is_dir() else []:
    data = open(f, "rb").read(8 * 16384)
    if len(data) >= 4 * 16384 and page_type(data, 16384, 3) == 17853 and n < 24:
        put("sdi", f"thirdparty-{n}", data)
        n += 1
for t in ("whole_file", "pages", "records", "undo", "undo_pages", "zip_page", "undo_records", "sdi"):
    d = OUT / t
    print(t, len(list(d.glob("*"))) if d.is_dir() else 0, "seeds")
