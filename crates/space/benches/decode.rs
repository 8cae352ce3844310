//! Micro-benchmarks of the per-page work, on pages of the real fixtures
//! (MariaDB 10.11 files in `fixtures/`): the checksums of every layout, the
//! whole page check a scan makes, and the decoders of headers and records.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use innodb_format::checksum as cks;
use innodb_format::fil::header::FilHeader;
use innodb_format::index::header::IndexHeader;
use innodb_format::index::page::{IndexPage, RecordList};
use innodb_space::{OpenOptions, Tablespace};
use std::hint::black_box;
use std::path::PathBuf;

fn fixture(path: &str) -> Tablespace {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(path);
    Tablespace::open(&p, OpenOptions::default()).expect("fixture opens")
}

fn page(space: &Tablespace, n: u32) -> Vec<u8> {
    space.page(n).expect("page")
}

fn checksums(c: &mut Criterion) {
    let full = fixture("p16k/files/test/t_random.ibd.gz");
    let classic_space = fixture("p16k-crc32/files/test/t_random.ibd.gz");
    let zip_space = fixture("p16k/files/test/t_zip8.ibd.gz");
    let leaf = page(&full, 4);
    let classic_leaf = page(&classic_space, 4);
    let zip_leaf = page(&zip_space, 4);
    let mut g = c.benchmark_group("checksum");
    g.throughput(Throughput::Bytes(16384));
    g.bench_function("full_crc32 16k", |b| {
        b.iter(|| cks::full_crc32(black_box(&leaf)))
    });
    g.bench_function("crc32c classic 16k", |b| {
        b.iter(|| cks::crc32c_classic(black_box(&classic_leaf)))
    });
    g.bench_function("innodb new 16k", |b| {
        b.iter(|| cks::innodb_new(black_box(&classic_leaf)))
    });
    g.bench_function("innodb old 16k", |b| {
        b.iter(|| cks::innodb_old(black_box(&classic_leaf)))
    });
    g.throughput(Throughput::Bytes(8192));
    g.bench_function("zip crc32c 8k", |b| {
        b.iter(|| cks::zip_crc32c(black_box(&zip_leaf)))
    });
    g.finish();
}

fn page_check(c: &mut Criterion) {
    let full = fixture("p16k/files/test/t_random.ibd.gz");
    let leaf = page(&full, 4);
    let zero = page(&full, 500);
    let mut checker = full.checker();
    let mut findings = Vec::new();
    let mut g = c.benchmark_group("page check");
    g.throughput(Throughput::Bytes(16384));
    g.bench_function("index leaf", |b| {
        b.iter(|| {
            findings.clear();
            checker.check(4, black_box(&leaf), &mut findings)
        })
    });
    g.bench_function("all-zero page", |b| {
        b.iter(|| {
            findings.clear();
            checker.check(500, black_box(&zero), &mut findings)
        })
    });
    g.finish();
}

fn decoders(c: &mut Criterion) {
    let full = fixture("p16k/files/test/t_random.ibd.gz");
    let leaf = page(&full, 4);
    let root = page(&full, 3);
    let mut g = c.benchmark_group("decode");
    g.bench_function("FIL header", |b| {
        b.iter(|| FilHeader::parse(black_box(&leaf)).unwrap())
    });
    g.bench_function("INDEX header", |b| {
        b.iter(|| IndexHeader::parse(black_box(&leaf)).unwrap())
    });
    for (name, bytes) in [("record list, leaf", &leaf), ("record list, root", &root)] {
        let header = IndexHeader::parse(bytes).unwrap();
        let mut list = RecordList::default();
        let mut problems = Vec::new();
        g.bench_function(name, |b| {
            b.iter(|| {
                IndexPage::new(black_box(bytes), header).walk(&mut list, &mut problems);
                list.records.len()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, checksums, page_check, decoders);
criterion_main!(benches);
