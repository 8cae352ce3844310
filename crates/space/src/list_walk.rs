//! Bounded, cycle-safe walks of file lists (`FLST_BASE_NODE` → `FLST_NODE`s).
//!
//! A walk never takes more steps than the file has pages times the nodes a
//! page can hold, stops at the first pointer that leaves the file or lands
//! where no node can be, and reports a revisited node as a cycle. Every
//! problem becomes a [`Finding`] naming the list and the node that points
//! wrong.

use crate::finding::{Finding, FindingKind};
use innodb_format::fsp::flst::{FilAddr, FlstBase, FlstNode, FLST_NODE_SIZE};
use innodb_format::FIL_NULL;
use std::collections::HashSet;

/// The nodes a walk reached, in list order, and whether it ended cleanly.
#[derive(Debug, Clone, Default)]
pub struct ListWalk {
    /// Addresses of the nodes, first to last.
    pub nodes: Vec<FilAddr>,
    /// True when the walk reached a null `FLST_NEXT` without a problem and the
    /// node count equals `FLST_LEN`.
    pub complete: bool,
}

/// Where a list lives, for messages.
#[derive(Debug, Clone, Copy)]
pub struct ListName<'a> {
    /// Name of the list (`FSP_FREE`, `FSEG_NOT_FULL`, …).
    pub name: &'static str,
    /// The page holding the base node.
    pub base_page: u32,
    /// Absolute offset of the base node on that page.
    pub base_offset: usize,
    /// What owns the list, in words (for segment lists: "segment 5").
    pub owner: &'a str,
}

/// Walks the list whose base is `base`. `node_at(addr)` reads the node at an
/// address, or says why it cannot (`Err` with a reason); `valid(addr)` tells
/// whether a node may sit at that address at all (for example, the start of
/// an XDES entry's node). `max_nodes` bounds the walk.
pub fn walk(
    list: ListName<'_>,
    base: &FlstBase,
    max_nodes: usize,
    mut node_at: impl FnMut(FilAddr) -> Result<FlstNode, String>,
    mut valid: impl FnMut(FilAddr) -> bool,
    findings: &mut Vec<Finding>,
) -> ListWalk {
    let mut out = ListWalk::default();
    let mut seen = HashSet::new();
    let mut at = base.first;
    let mut prev = FilAddr::NULL;
    let describe = |a: FilAddr| format!("{}:{}", a.page, a.byte);
    let problem = |message: String, findings: &mut Vec<Finding>| {
        findings.push(Finding::on_page(
            FindingKind::BrokenList,
            list.base_page,
            list.base_offset,
            list.name,
            format!("{} of {}: {message}", list.name, list.owner),
        ));
    };
    while at.page != FIL_NULL {
        if out.nodes.len() >= max_nodes {
            problem(
                format!(
                    "more than {max_nodes} nodes (the most the file can hold); the walk stops at {}",
                    describe(at)
                ),
                findings,
            );
            return out;
        }
        if !valid(at) {
            problem(
                format!(
                    "node {} (after {}) is not a place a list node can be",
                    describe(at),
                    if out.nodes.is_empty() {
                        "the base".to_string()
                    } else {
                        describe(prev)
                    }
                ),
                findings,
            );
            return out;
        }
        if !seen.insert((at.page, at.byte)) {
            problem(
                format!(
                    "cycle: node {} links back to {} after {} nodes",
                    describe(prev),
                    describe(at),
                    out.nodes.len()
                ),
                findings,
            );
            return out;
        }
        let node = match node_at(at) {
            Ok(n) => n,
            Err(reason) => {
                problem(
                    format!("node {} cannot be read: {reason}", describe(at)),
                    findings,
                );
                return out;
            }
        };
        if node.prev != prev && !(prev.is_null() && node.prev.is_null()) {
            problem(
                format!(
                    "node {} has FLST_PREV {} but the walk came from {}",
                    describe(at),
                    if node.prev.is_null() {
                        "null".into()
                    } else {
                        describe(node.prev)
                    },
                    if prev.is_null() {
                        "the base".into()
                    } else {
                        describe(prev)
                    }
                ),
                findings,
            );
        }
        out.nodes.push(at);
        prev = at;
        at = node.next;
    }
    let mut complete = true;
    if out.nodes.len() != base.len as usize {
        complete = false;
        problem(
            format!(
                "FLST_LEN says {} nodes but the list has {}",
                base.len,
                out.nodes.len()
            ),
            findings,
        );
    }
    if out.nodes.last().copied().unwrap_or(FilAddr::NULL) != base.last
        && !(out.nodes.is_empty() && base.last.is_null())
    {
        complete = false;
        problem(
            format!(
                "FLST_LAST is {} but the walk ended at {}",
                if base.last.is_null() {
                    "null".into()
                } else {
                    describe(base.last)
                },
                out.nodes.last().map_or("the base".into(), |a| describe(*a))
            ),
            findings,
        );
    }
    out.complete = complete;
    out
}

/// Reads the node at `addr.byte` of `page`.
pub fn node_on_page(page: &[u8], addr: FilAddr) -> Result<FlstNode, String> {
    let at = usize::from(addr.byte);
    page.get(at..at + FLST_NODE_SIZE)
        .ok_or_else(|| format!("offset {at} is beyond the {}-byte page", page.len()))
        .and_then(|b| FlstNode::parse(b).map_err(|e| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(page: u32) -> FilAddr {
        FilAddr { page, byte: 38 }
    }

    /// A list over pages where `next[i]` is the page after page i.
    fn run(next: &[u32], len: u32) -> (ListWalk, Vec<Finding>) {
        let base = FlstBase {
            len,
            first: addr(0),
            last: addr(next.len() as u32 - 1),
        };
        let mut findings = Vec::new();
        let w = walk(
            ListName {
                name: "TEST",
                base_page: 0,
                base_offset: 0,
                owner: "test",
            },
            &base,
            next.len() + 1,
            |a| {
                let i = a.page as usize;
                Ok(FlstNode {
                    prev: if i == 0 {
                        FilAddr::NULL
                    } else {
                        addr(i as u32 - 1)
                    },
                    next: next.get(i).map_or(FilAddr::NULL, |&n| {
                        if n == FIL_NULL {
                            FilAddr::NULL
                        } else {
                            addr(n)
                        }
                    }),
                })
            },
            |a| (a.page as usize) < next.len(),
            &mut findings,
        );
        (w, findings)
    }

    #[test]
    fn a_clean_list_is_complete() {
        let (w, f) = run(&[1, 2, FIL_NULL], 3);
        assert_eq!(w.nodes.len(), 3);
        assert!(w.complete);
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn a_cycle_stops_the_walk_with_a_finding() {
        let (w, f) = run(&[1, 2, 0], 3);
        assert_eq!(w.nodes.len(), 3);
        assert!(!w.complete);
        assert!(
            f.iter()
                .any(|f| f.kind == FindingKind::BrokenList && f.message.contains("cycle")),
            "{f:?}"
        );
    }

    #[test]
    fn a_pointer_out_of_the_file_is_a_finding() {
        let (w, f) = run(&[1, 7, FIL_NULL], 3);
        assert_eq!(w.nodes.len(), 2);
        assert!(f.iter().any(|f| f.message.contains("not a place")), "{f:?}");
    }

    #[test]
    fn a_wrong_length_is_a_finding() {
        let (w, f) = run(&[1, FIL_NULL], 5);
        assert_eq!(w.nodes.len(), 2);
        assert!(
            f.iter().any(|f| f.message.contains("FLST_LEN says 5")),
            "{f:?}"
        );
    }
}
