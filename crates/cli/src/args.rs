//! Command-line arguments.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Examples under the program's help: the first things a DBA runs.
const EXAMPLES: &str = "Examples:
  innodb-inspect summary /var/lib/mysql/shop/orders.ibd
  innodb-inspect checksum --datadir /var/lib/mysql
  innodb-inspect --datadir /var/lib/mysql records shop/orders --format csv
  innodb-inspect indexes orders.ibd --system ibdata1
  innodb-inspect heatmap orders.ibd --png orders.png
  innodb-inspect --datadir /var/lib/mysql undo
  innodb-inspect browse /var/lib/mysql

Every command: innodb-inspect COMMAND --help; manual pages: innodb-inspect man [COMMAND]";

/// The heading of the options every command takes, apart from the
/// command's own in its help.
const GLOBAL: &str = "Global options (any command)";

/// Reads InnoDB tablespace files (.ibd, ibdata1, undo tablespaces) from disk,
/// with no server running. Files are opened read-only; `.gz` files are read
/// through a temporary copy.
#[derive(Debug, Parser)]
#[command(name = "innodb-inspect", version, about, after_help = EXAMPLES)]
pub struct Cli {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, global = true, help_heading = GLOBAL)]
    pub format: Format,
    /// Physical page size to use when page 0 is damaged (1k, 2k, 4k, 8k, 16k,
    /// 32k, 64k or a byte count).
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub page_size: Option<PageSize>,
    /// The system tablespace (ibdata1) whose data dictionary names tables
    /// and indexes in the reports (MariaDB, MySQL 5.x).
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub system: Option<PathBuf>,
    /// A data directory: its ibdata1 (or ibdata1.gz) is the system
    /// tablespace, as with --system, and a FILE not found as given is looked
    /// for inside it (`test/t1.ibd`, `test/t1`).
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub datadir: Option<PathBuf>,
    /// Where the undo tablespaces of the --datadir are when they are not in
    /// it (the server's innodb_undo_directory).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "DIR")]
    pub undo_directory: Option<PathBuf>,
    /// The most a `.gz` input is inflated to (bytes, or with k, M, G, T).
    /// Without it: twice what its page 0 claims plus 64M, at most 64G;
    /// never more than the temporary directory has room for.
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "SIZE")]
    pub gz_limit: Option<ByteSize>,
    /// No progress bar on stderr (it is shown only on a terminal, for scans
    /// that take more than a second).
    #[arg(long, short, global = true, help_heading = GLOBAL)]
    pub quiet: bool,
    /// Threads per file for `checksum` and for the pass `indexes`, `fill`,
    /// `count` and the fill charts make over the index pages (each thread
    /// takes a run of pages); 0 = one per CPU. Helps where cores are free.
    #[arg(long, global = true, help_heading = GLOBAL, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text for people.
    Text,
    /// JSON for machines (JSON lines for `records`).
    Json,
    /// Comma-separated values (`records` only).
    Csv,
    /// SQL a server loads back: CREATE TABLE and batched INSERTs (`records`;
    /// `schema` prints the CREATE TABLE in any format but json).
    Sql,
}

/// When to colour terminal output.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// What a heatmap's colours show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HeatmapChoice {
    /// The page LSN's age between the oldest and the newest page (oldest yellow, newest purple; see --lsn-scale).
    LsnAge,
    /// The page type (INDEX leaves and non-leaf pages apart).
    PageType,
    /// The index whose records a page holds, shaded by the page's fill.
    Fill,
    /// The owner the space map gives each page: an index, another segment, bookkeeping, free.
    Index,
}

/// How `heatmap --by lsn-age` maps LSNs to its ten colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LsnScaleChoice {
    /// Each colour is a tenth of the LSN range from the oldest to the newest written page: a table written lately is the newest colour all over.
    Linear,
    /// Each colour is a tenth of the written pages, ordered by LSN: every colour gets about as many pages, whatever the LSNs.
    Rank,
}

/// What `plot` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlotChoice {
    /// Page-fill histograms per index.
    FillHistogram,
    /// The undo history growth curve.
    UndoGrowth,
    /// Pages per tree level.
    Levels,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// What the file is: vendor, flags, page sizes, page types, LSN range, checksums.
    Summary {
        /// The tablespace file (none with --datadir: every tablespace of the directory, a line each, and totals).
        file: Option<PathBuf>,
    },
    /// One line per page: type, LSN, checksum; index id, level and records of index pages.
    Pages {
        /// The tablespace file (none with --datadir: every tablespace of the directory, one file after the other in directory order, each listing streamed, under a heading).
        file: Option<PathBuf>,
        /// Only pages of this type (INDEX, UNDO_LOG, … or a number).
        #[arg(long = "type")]
        page_type: Option<String>,
        /// Only pages A..B (inclusive; A.. and ..B also work).
        #[arg(long)]
        range: Option<PageRange>,
    },
    /// Every decoded header field of one page, with offsets.
    Page {
        /// The tablespace file.
        file: PathBuf,
        /// The page number.
        page: u32,
    },
    /// Every extent: state, owner and used pages, with a map of every page coloured by owner.
    Extents {
        /// The tablespace file (none with --datadir: every tablespace of the directory).
        file: Option<PathBuf>,
        /// Colour the page map: auto (when stdout is a terminal and NO_COLOR is unset), always, never.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
    },
    /// Every file segment (owner, fragment pages, extents by list, reserved and used pages) and every index.
    Segments {
        /// The tablespace file (none with --datadir: every tablespace of the directory).
        file: Option<PathBuf>,
    },
    /// Where the file's pages go: used, reserved but unused, unused in fragment extents, free; per index and in total.
    ///
    /// In pages and MiB, with the reclaimable waste apart from the free space pre-allocated at the end of the file (not waste).
    Waste {
        /// The tablespace file (none with --datadir: every tablespace of the directory, a line each, and totals).
        file: Option<PathBuf>,
    },
    /// A map of every page, one row per extent and one cell per page, coloured by LSN age, page type, fill or owning index; in the terminal or as PNG.
    Heatmap {
        /// The tablespace file (none with --datadir: every tablespace of the directory, each under a heading; with --png, one PNG per tablespace in the directory --png names).
        file: Option<PathBuf>,
        /// What the colours show.
        #[arg(long, value_enum, default_value_t = HeatmapChoice::LsnAge)]
        by: HeatmapChoice,
        /// For --by lsn-age: linear (each of the ten colours a tenth of the LSN range between the oldest and the newest page) or rank (each a tenth of the pages by LSN).
        #[arg(long, value_enum, default_value_t = LsnScaleChoice::Linear)]
        lsn_scale: LsnScaleChoice,
        /// Write the picture to this PNG file (an SVG document when the name ends in .svg) instead of drawing it in the terminal; with --datadir and no FILE, a directory (created if missing) that gets one PNG per tablespace, named as the file relative to the data directory without .gz and .ibd (test/t1.png, ibdata1.png).
        #[arg(long, value_name = "OUT.png")]
        png: Option<PathBuf>,
        /// Colour the terminal picture: auto (when stdout is a terminal and NO_COLOR is unset), always, never.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
    },
    /// Browse a tablespace, or a data directory's tablespaces, in an interactive terminal view (q quits, ? shows the keys).
    Browse {
        /// A tablespace file, or a data directory.
        path: PathBuf,
    },
    /// A chart: page-fill histograms per index, pages per tree level, or the undo history's growth; in the terminal or as PNG.
    Plot {
        /// The tablespace file (none with --datadir: every tablespace of the directory, each under a heading); for --undo-growth the system tablespace (ibdata1) then any undo tablespaces (or --datadir).
        files: Vec<PathBuf>,
        /// What to plot.
        #[arg(long, value_enum)]
        what: Option<PlotChoice>,
        /// Page-fill histograms per index (same as --what fill-histogram).
        #[arg(long, conflicts_with_all = ["what", "undo_growth", "levels"])]
        fill_histogram: bool,
        /// The undo history by transaction number with cumulative pages (same as --what undo-growth).
        #[arg(long, conflicts_with_all = ["what", "levels"])]
        undo_growth: bool,
        /// Pages per B+tree level of each index (same as --what levels).
        #[arg(long, conflicts_with = "what")]
        levels: bool,
        /// Write the chart to this PNG file (an SVG document when the name ends in .svg) instead of drawing it in the terminal; for --fill-histogram and --levels with --datadir and no FILE, a directory (created if missing) that gets one PNG per tablespace, named as with heatmap.
        #[arg(long, value_name = "OUT.png")]
        png: Option<PathBuf>,
        /// Colour the terminal chart: auto, always, never.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
        /// For --undo-growth: an undo tablespace (repeat for each), as `history` and `records` take them: read after the files given (or after --system when none is).
        #[arg(long = "undo")]
        undo: Vec<PathBuf>,
    },
    /// Every index: levels, pages per level, records (COUNT(*)), delete-marked records, fill, leaf-chain locality.
    Indexes {
        /// The tablespace file (none with --datadir: every tablespace of the directory, and totals).
        file: Option<PathBuf>,
    },
    /// One index's pages in key order, level by level: records, data, free and garbage bytes, fill, smallest key bytes.
    Tree {
        /// The tablespace file.
        file: PathBuf,
        /// The index: its id (see `indexes`), `SDI`, or its name (`PRIMARY`, `table.PRIMARY`, `db/table.k`).
        #[arg(long)]
        index: String,
        /// Only this level (0 = leaves).
        #[arg(long)]
        level: Option<u16>,
    },
    /// Page fill histograms per index and level.
    Fill {
        /// The tablespace file (none with --datadir: every tablespace of the directory).
        file: Option<PathBuf>,
    },
    /// Undo logs: rollback segments, the history list waiting for purge, undo segments by state, records by table and by transaction.
    Undo {
        /// The system tablespace (ibdata1), then any undo tablespaces (undo001…); with --datadir, those of the data directory.
        files: Vec<PathBuf>,
        /// Compare two copies of one data directory (A, then B): history length, records, pages, oldest retained transaction.
        #[arg(long, num_args = 2, value_names = ["A", "B"])]
        compare: Option<Vec<PathBuf>>,
        /// Also list the history's undo records (up to N), decoded: type, undo number, table, the previous version's DB_TRX_ID and DB_ROLL_PTR, the primary key and the old values of the updated fields.
        #[arg(long, value_name = "N")]
        records: Option<usize>,
        /// An undo tablespace (repeat for each), as `history` and `records` take them: read after the files given (or after --system when none is).
        #[arg(long = "undo")]
        undo: Vec<PathBuf>,
    },
    /// The version chain of one row: from its DB_ROLL_PTR through each undo record to the oldest version stored.
    History {
        /// The table's tablespace file.
        file: PathBuf,
        /// The row's primary key (its columns' values joined by commas).
        #[arg(long)]
        key: String,
        /// An undo tablespace (repeat for each); with --datadir, the data directory's undo* files.
        #[arg(long = "undo")]
        undo: Vec<PathBuf>,
        /// A CREATE TABLE statement giving the columns (before --system and the SDI).
        #[arg(long)]
        ddl: Option<PathBuf>,
    },
    /// The Serialized Dictionary Information of a MySQL 8.0+ tablespace (as ibd2sdi prints it).
    Sdi {
        /// The tablespace file (none with --datadir: every tablespace of the directory; a file without SDI says so in its place).
        file: Option<PathBuf>,
    },
    /// Per index: the exact row count beside a sampled estimate (random dives, as InnoDB's statistics) and DATA_LENGTH / AVG_ROW_LENGTH.
    Count {
        /// The tablespace file (none with --datadir: every tablespace of the directory).
        file: Option<PathBuf>,
        /// Leaf pages to sample per index (at most as many as the index has
        /// leaf pages, when that is more than the default).
        #[arg(long, default_value_t = innodb_analysis::reports::count_report::DEFAULT_SAMPLE_PAGES)]
        sample_pages: usize,
        /// Seed of the random dives (the same seed gives the same estimate).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The rows of an index in key order, typed with the columns of the data dictionary (MySQL 8.0+: mysql.ibd with --datadir, else the file's SDI; MariaDB and MySQL 5.x: --system or --datadir).
    ///
    /// Exit 1 when the schema does not fit the records (the rows are still written).
    Records {
        /// The tablespace file.
        file: PathBuf,
        /// The table, in a tablespace of several (a general tablespace, mysql.ibd): `db/table`, `db.table` or `table` (default: the first).
        #[arg(long)]
        table: Option<String>,
        /// The index, by name (`PRIMARY`, `table.PRIMARY`, `db/table.k`) or id (default: the clustered index).
        #[arg(long)]
        index: Option<String>,
        /// After the rows, the deleted ones as a set of their own (delete-marked and not yet
        /// purged, and purged records whose bytes are still there), marked as such.
        #[arg(long)]
        deleted: bool,
        /// At most this many rows.
        #[arg(long)]
        limit: Option<usize>,
        /// A CREATE TABLE statement giving the columns (before --system and the SDI).
        #[arg(long)]
        ddl: Option<PathBuf>,
        /// The committed rows, as crash recovery leaves them: every transaction the undo logs show
        /// in flight (active, or XA prepared) rolled back through its undo records (needs
        /// --datadir, or --system and --undo).
        #[arg(long, conflicts_with = "as_of_trx")]
        committed: bool,
        /// What a read view opened before transaction N began sees: each row followed back through
        /// DB_ROLL_PTR to its newest version committed before N.
        #[arg(long, value_name = "N")]
        as_of_trx: Option<u64>,
        /// An undo tablespace (repeat for each), with --system; --datadir finds them.
        #[arg(long = "undo")]
        undo: Vec<PathBuf>,
        /// The rows of every leaf page of index --index-id found anywhere in the file, reachable
        /// from a root or not (a dropped table's pages in ibdata1's free space, a tree whose root
        /// is lost): each key once, the newest page (by LSN) winning, in key order. Typed by
        /// --ddl (--index names which of its indexes it is; default the clustered one), else by
        /// the dictionary, else by the dropped table the SYS_* records still describe (MySQL
        /// 8.0+: the deleted records of mysql.ibd, given with --system or --datadir, or the
        /// file's own deleted SDI records).
        #[arg(long, requires = "index_id", conflicts_with_all = ["deleted", "committed", "as_of_trx", "undo"])]
        scan: bool,
        /// With --scan: the index id (PAGE_INDEX_ID) whose pages are read (`carve` lists the
        /// index ids of a system tablespace that no table has).
        #[arg(long, value_name = "N", requires = "scan")]
        index_id: Option<u64>,
    },
    /// The CREATE TABLE of a table, from whichever source it has: --ddl, the dictionary
    /// (--system, --datadir: SYS_* or mysql.ibd), the file's SDI. From SYS_* it says in column
    /// comments what InnoDB's dictionary does not keep (DECIMAL scale, ENUM labels).
    Schema {
        /// The tablespace file, or a table's name inside --datadir (`test/t1`).
        file: PathBuf,
        /// The table, in a tablespace of several: `db/table`, `db.table` or `table`.
        #[arg(long)]
        table: Option<String>,
        /// A CREATE TABLE statement giving the columns (before --system and the SDI).
        #[arg(long)]
        ddl: Option<PathBuf>,
    },
    /// Every table of the --datadir as SQL a server loads back, one file per table
    /// (OUT/db/table.sql), with a summary; tables that cannot be read are listed with why.
    Export {
        /// The directory to write into (created; not inside the data directory).
        out: PathBuf,
        /// Delete-marked and garbage records too, each table's into `<table>__deleted`.
        #[arg(long)]
        deleted: bool,
        /// The committed rows, as crash recovery leaves them: every transaction the undo logs show
        /// in flight rolled back through its undo records.
        #[arg(long, conflicts_with = "as_of_trx")]
        committed: bool,
        /// What a read view opened before transaction N began sees, for every table.
        #[arg(long, value_name = "N")]
        as_of_trx: Option<u64>,
    },
    /// Verify every page. Exit 0 when all are valid, 1 when any is not, 2 on a fatal error.
    Checksum {
        /// The tablespace files (none with --datadir: every tablespace of the directory, a line each, and totals).
        files: Vec<PathBuf>,
    },
    /// Find InnoDB pages in any file (a disk, partition or file system image, a block device, a
    /// system tablespace's free space): every 512-byte boundary, page sizes 4k-64k, a page
    /// counts when its checksum verifies. Reports each tablespace found (by space id): its
    /// pages, types, index ids, LSN range, missing pages and the tables its SDI names; for a
    /// system tablespace the dropped tables its dictionary remembers (MySQL 8.0+: its own SDI,
    /// or mysql.ibd given too, `carve ibdata1 mysql.ibd`). Reads each input once,
    /// sequentially; never writes to it.
    Carve {
        /// The files to scan.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Write each tablespace found as DIR/space-<id>.ibd (every page at its page number, the
        /// newest copy of each, pages not found left as holes); created if missing; refuses a
        /// directory holding an input and never overwrites a file.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// A shell completion script on stdout: `innodb-inspect completions bash > /etc/bash_completion.d/innodb-inspect`.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// A manual page (roff) on stdout: the program's, or with COMMAND that command's (`innodb-inspect man records > innodb-inspect-records.1; man ./innodb-inspect-records.1`).
    Man {
        /// The command whose page to write (default: the program's page, which lists the commands).
        command: Option<String>,
    },
    /// The JSON Schema of a command's --format json (records: of each JSON line), made from the
    /// types the JSON is written from: `innodb-inspect json-schema summary`. With --write DIR,
    /// every command's, as DIR/COMMAND.json (docs/schema/ holds them).
    JsonSchema {
        /// The command whose schema to print.
        #[arg(required_unless_present = "write")]
        command: Option<String>,
        /// Write every command's schema into this directory instead.
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        write: Option<PathBuf>,
    },
    /// The slots of MySQL 8.0.20+'s doublewrite files (#ib_16384_0.dblwr) or of the doublewrite
    /// area of a system tablespace: the page each copy is of, whether it verifies, and with
    /// --datadir whether the page in its tablespace is the same, older, newer or torn (the copy
    /// crash recovery would write). Exit 0 when all is well, 1 when a copy does not verify or a
    /// page needs its copy, 2 on a fatal error.
    Doublewrite {
        /// Doublewrite files, or a system tablespace (none with --datadir: the directory's
        /// doublewrite files and its system tablespace's area).
        files: Vec<PathBuf>,
        /// List every copy (by default, once compared, only those that are not the same as or
        /// older than their page).
        #[arg(long)]
        all: bool,
    },
}

/// A page size argument.
#[derive(Debug, Clone, Copy)]
pub struct PageSize(pub usize);

impl std::str::FromStr for PageSize {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!("'{s}' is not an InnoDB page size: give 1k, 2k, 4k, 8k, 16k, 32k, 64k or the byte count")
        };
        let lower = s.trim().to_ascii_lowercase();
        let n = match lower.strip_suffix('k') {
            Some(k) => k.parse::<usize>().ok().and_then(|k| k.checked_mul(1024)),
            None => lower.parse::<usize>().ok(),
        }
        .ok_or_else(bad)?;
        if !innodb_space::detect::PAGE_SIZES.contains(&n) {
            return Err(bad());
        }
        Ok(PageSize(n))
    }
}

/// A size in bytes, given as a number with an optional k, M, G or T
/// (powers of 1024).
#[derive(Debug, Clone, Copy)]
pub struct ByteSize(pub u64);

impl std::str::FromStr for ByteSize {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("'{s}' is not a size: give bytes, or a number with k, M, G or T");
        let t = s.trim();
        let (digits, shift) = match t.char_indices().last() {
            Some((i, c)) if c.is_ascii_alphabetic() => {
                let shift = match c.to_ascii_lowercase() {
                    'k' => 10,
                    'm' => 20,
                    'g' => 30,
                    't' => 40,
                    _ => return Err(bad()),
                };
                (t.get(..i).unwrap_or(""), shift)
            }
            _ => (t, 0),
        };
        let n: u64 = digits.parse().map_err(|_| bad())?;
        n.checked_mul(1 << shift).map(ByteSize).ok_or_else(bad)
    }
}

/// An inclusive page range `A..B`.
#[derive(Debug, Clone, Copy)]
pub struct PageRange(pub u32, pub u32);

impl std::str::FromStr for PageRange {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("'{s}' is not a page range (A..B, A.., ..B or N)");
        let num = |x: &str, default: u32| {
            if x.is_empty() {
                Ok(default)
            } else {
                x.parse::<u32>().map_err(|_| bad())
            }
        };
        match s.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (num(a, 0)?, num(b, u32::MAX)?);
                if a > b {
                    return Err(bad());
                }
                Ok(PageRange(a, b))
            }
            None => {
                let n = num(s, 0)?;
                Ok(PageRange(n, n))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_sizes() {
        assert_eq!("16k".parse::<PageSize>().unwrap().0, 16384);
        assert_eq!("4K".parse::<PageSize>().unwrap().0, 4096);
        assert_eq!("65536".parse::<PageSize>().unwrap().0, 65536);
        assert!("abc".parse::<PageSize>().is_err());
        assert!("1000".parse::<PageSize>().is_err());
        assert!("18446744073709551615k".parse::<PageSize>().is_err());
    }

    #[test]
    fn byte_sizes() {
        let b = |s: &str| s.parse::<ByteSize>().map(|b| b.0);
        assert_eq!(b("100"), Ok(100));
        assert_eq!(b("64G"), Ok(64 << 30));
        assert_eq!(b("2t"), Ok(2 << 40));
        assert!(b("1x").is_err() && b("").is_err() && b("99999999999T").is_err());
    }

    #[test]
    fn page_ranges() {
        let r = |s: &str| s.parse::<PageRange>().map(|r| (r.0, r.1));
        assert_eq!(r("3..9"), Ok((3, 9)));
        assert_eq!(r("3.."), Ok((3, u32::MAX)));
        assert_eq!(r("..9"), Ok((0, 9)));
        assert_eq!(r("7"), Ok((7, 7)));
        assert!(r("9..3").is_err());
        assert!(r("x..3").is_err());
    }
}
