//! The space ids MySQL 8.0+ reserves for undo tablespaces (`dict0dict.h`
//! `dict_sys_t::s_max_undo_space_id`, `trx0purge.h` `undo::id2num`,
//! `undo::num2id`, `fsp0types.h` `FSP_MAX_UNDO_TABLESPACES`).
//!
//! An undo tablespace has a *number*, 1 to 127 (`undo_001` is 1; `CREATE
//! UNDO TABLESPACE` takes the lowest free one), and a space id from that
//! number's range, counted down from `s_max_undo_space_id` = 0xFFFFFFEF:
//! the first id of number n is 0xFFFFFFEF − (n − 1), and each truncation
//! gives the tablespace the next id of its number, 127 lower
//! (`undo::id2next_id`): id = 0xFFFFFFEF − (n − 1) − 127 × k, for the k-th
//! id of the number (its *generation*, 0 before the first truncation). The
//! number is what a MySQL 8.0+ roll pointer's 7-bit id holds
//! (`trx_undo_build_roll_ptr`: `undo::id2num(space_id)`, 0 for the system
//! tablespace).
//!
//! How many ids each number has (`s_undo_space_id_range`) changed: 512 in
//! early 8.0 (8.0.16), 400,000 since. The range's top is the same in both,
//! so a space id is taken as an undo space id when it lies in the larger
//! range; an id that lies in it only by the larger count is marked as such.

/// `dict_sys_t::s_log_space_id`: the first id of the redo log's pseudo-tablespace.
pub const S_LOG_SPACE_ID: u32 = 0xFFFF_FFF0;
/// `dict_sys_t::s_max_undo_space_id`: the highest undo space id (`undo_001`'s first).
pub const S_MAX_UNDO_SPACE_ID: u32 = S_LOG_SPACE_ID - 1;
/// `FSP_MAX_UNDO_TABLESPACES`: undo tablespace numbers run from 1 to this.
pub const FSP_MAX_UNDO_TABLESPACES: u32 = 127;
/// `dict_sys_t::s_undo_space_id_range` since 8.0.2x: ids per undo tablespace number.
pub const S_UNDO_SPACE_ID_RANGE: u32 = 400_000;
/// `s_undo_space_id_range` of early 8.0 (8.0.16).
pub const S_UNDO_SPACE_ID_RANGE_EARLY_8_0: u32 = 512;
/// `dict_sys_t::s_min_undo_space_id`: the lowest undo space id
/// (`s_log_space_id` − 127 × 400,000 = 4,244,167,280).
pub const S_MIN_UNDO_SPACE_ID: u32 =
    S_LOG_SPACE_ID - FSP_MAX_UNDO_TABLESPACES * S_UNDO_SPACE_ID_RANGE;
/// The lowest undo space id of early 8.0 (127 × 512 below `s_log_space_id`:
/// 4,294,902,256).
pub const S_MIN_UNDO_SPACE_ID_EARLY_8_0: u32 =
    S_LOG_SPACE_ID - FSP_MAX_UNDO_TABLESPACES * S_UNDO_SPACE_ID_RANGE_EARLY_8_0;

/// An undo space id taken apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct UndoSpaceId {
    /// The undo tablespace number, 1–127 (`undo::id2num`).
    pub number: u32,
    /// Which id of its number it is: 0 for the first, k after k truncations
    /// (modulo the range).
    pub generation: u32,
    /// True when the id lies in the range of early 8.0 as well (512 ids
    /// per number).
    pub in_early_range: bool,
}

/// True for an id of MySQL 8.0+'s undo range (`undo::is_reserved`).
pub fn is_reserved(space_id: u32) -> bool {
    (S_MIN_UNDO_SPACE_ID..=S_MAX_UNDO_SPACE_ID).contains(&space_id)
}

/// The number and generation of an undo space id; `None` outside the range.
pub fn undo_space_id(space_id: u32) -> Option<UndoSpaceId> {
    if !is_reserved(space_id) {
        return None;
    }
    let below_top = S_MAX_UNDO_SPACE_ID - space_id;
    Some(UndoSpaceId {
        number: below_top % FSP_MAX_UNDO_TABLESPACES + 1,
        generation: below_top / FSP_MAX_UNDO_TABLESPACES,
        in_early_range: space_id >= S_MIN_UNDO_SPACE_ID_EARLY_8_0,
    })
}

/// The space id of undo tablespace `number` (1–127) in its `generation`
/// (`undo::num2id`); `None` for a number or generation out of range.
pub fn undo_space_id_of(number: u32, generation: u32) -> Option<u32> {
    if !(1..=FSP_MAX_UNDO_TABLESPACES).contains(&number) || generation >= S_UNDO_SPACE_ID_RANGE {
        return None;
    }
    S_MAX_UNDO_SPACE_ID
        .checked_sub(number - 1)?
        .checked_sub(generation.checked_mul(FSP_MAX_UNDO_TABLESPACES)?)
}

/// The file name MySQL gives an implicit undo tablespace of `number`
/// (`undo::Tablespace::make_file_name`: `undo_001`); explicit ones
/// (`CREATE UNDO TABLESPACE … ADD DATAFILE 'x.ibu'`) keep their own name.
pub fn implicit_file_name(number: u32) -> String {
    format!("undo_{number:03}")
}

/// The name of the truncation log MySQL keeps while it truncates undo
/// tablespace `number` (`undo::Tablespace::make_log_file_name`:
/// `undo_<number>_trunc.log`, in the undo directory), gone once done.
pub fn truncate_log_name(number: u32) -> String {
    format!("undo_{number}_trunc.log")
}

/// The undo tablespace number of a truncation log's file name
/// (`undo_4_trunc.log` → 4).
pub fn truncate_log_number(name: &str) -> Option<u32> {
    name.strip_prefix("undo_")?
        .strip_suffix("_trunc.log")?
        .parse()
        .ok()
        .filter(|n| (1..=FSP_MAX_UNDO_TABLESPACES).contains(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The space ids MySQL 9.7 gave the fixture's undo tablespaces
    /// (`INFORMATION_SCHEMA.INNODB_TABLESPACES`): `undo_001`, `undo_002`,
    /// `u3.ibu` and `u4.ibu`, the last after one truncation.
    #[test]
    fn the_fixture_space_ids_take_apart() {
        let at = |id| undo_space_id(id).map(|u| (u.number, u.generation));
        assert_eq!(at(4_294_967_279), Some((1, 0)));
        assert_eq!(at(4_294_967_278), Some((2, 0)));
        assert_eq!(at(4_294_967_277), Some((3, 0)));
        assert_eq!(at(4_294_967_149), Some((4, 1)));
        assert_eq!(undo_space_id_of(4, 1), Some(4_294_967_149));
        assert_eq!(undo_space_id_of(1, 0), Some(S_MAX_UNDO_SPACE_ID));
        assert_eq!(undo_space_id_of(128, 0), None);
        assert_eq!(undo_space_id_of(0, 0), None);
    }

    #[test]
    fn the_range_ends_where_the_sources_put_it() {
        assert_eq!(S_MAX_UNDO_SPACE_ID, 0xFFFF_FFEF);
        assert_eq!(S_MIN_UNDO_SPACE_ID, 4_244_167_280);
        assert_eq!(S_MIN_UNDO_SPACE_ID_EARLY_8_0, 4_294_902_256);
        assert!(
            undo_space_id(S_MAX_UNDO_SPACE_ID + 1).is_none(),
            "the redo log's"
        );
        assert!(undo_space_id(S_MIN_UNDO_SPACE_ID - 1).is_none());
        assert!(undo_space_id(7).is_none(), "a table's");
        let lowest = undo_space_id(S_MIN_UNDO_SPACE_ID);
        assert_eq!(lowest.map(|u| u.in_early_range), Some(false));
        // Every id of the range maps back to itself.
        for id in [
            S_MIN_UNDO_SPACE_ID,
            4_294_967_149,
            S_MAX_UNDO_SPACE_ID,
            4_250_000_001,
        ] {
            let u = undo_space_id(id);
            assert_eq!(
                u.and_then(|u| undo_space_id_of(u.number, u.generation)),
                Some(id)
            );
        }
        assert_eq!(implicit_file_name(2), "undo_002");
        assert_eq!(truncate_log_number(&truncate_log_name(4)), Some(4));
        assert_eq!(truncate_log_number("undo_001"), None);
        assert_eq!(truncate_log_number("undo_0_trunc.log"), None);
    }
}
