//! The oldest offsets of each subscription's delivery journal, as last read
//! (docs/design.md §13), kept in memory only. A journal at its depth is
//! pruned in every delivery's write; with its oldest offsets known, the
//! prune deletes through the n-th of them, and reads them again only once
//! they run out ([`JOURNAL_HEAD_ROWS`] prunes of one row). Without them it
//! deleted through a subquery over the same table and handed the deleted
//! offsets back (`RETURNING`): two temporary b-trees in SQLite and a read
//! across the instance's boundary, in every delivery.
//!
//! What is kept stays true because every write to the journal tells it
//! (`journal.rs`, and the runtime rows' repair): an offset journaled below
//! the newest kept one, or any row forgotten or deleted otherwise, drops
//! the key's heads. A prune checks itself as well: it deletes everything up
//! to its bound, so a row older than what is kept, or a kept one that is
//! gone, changes how many rows it deletes; a count other than the one
//! expected drops the heads and the journal is counted again. The native
//! driver checks the heads against storage before every prune in the tests.

use crate::limits::JOURNAL_HEAD_ROWS;
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

/// By subscription key, its journal's oldest offsets, oldest first (at most
/// [`JOURNAL_HEAD_ROWS`]): no key, not known.
#[derive(Default)]
pub(crate) struct JournalHeads(RefCell<HashMap<String, VecDeque<u64>>>);

impl JournalHeads {
    /// The `n`-th oldest offset of `key` (`n` ≥ 1), if kept.
    pub fn nth(&self, key: &str, n: u64) -> Option<u64> {
        let index = usize::try_from(n.checked_sub(1)?).ok()?;
        self.0.borrow().get(key)?.get(index).copied()
    }

    /// The offsets of `key` kept, oldest first (the tests' check).
    pub fn kept(&self, key: &str) -> Option<Vec<u64>> {
        self.0
            .borrow()
            .get(key)
            .map(|offsets| offsets.iter().copied().collect())
    }

    /// `key`'s oldest offsets, just read (at most [`JOURNAL_HEAD_ROWS`] kept).
    pub fn read(&self, key: &str, oldest: impl IntoIterator<Item = u64>) {
        let offsets: VecDeque<u64> = oldest.into_iter().take(JOURNAL_HEAD_ROWS as usize).collect();
        self.0.borrow_mut().insert(key.to_owned(), offsets);
    }

    /// A prune deleted `key`'s oldest `n` rows, as expected.
    pub fn pruned(&self, key: &str, n: u64) {
        let mut heads = self.0.borrow_mut();
        if let Some(offsets) = heads.get_mut(key) {
            let n = usize::try_from(n).unwrap_or(usize::MAX).min(offsets.len());
            offsets.drain(..n);
            if offsets.is_empty() {
                heads.remove(key);
            }
        }
    }

    /// `offset` was journaled for `key`: below the newest kept offset it
    /// may be among the oldest, so the heads are dropped.
    pub fn journaled(&self, key: &str, offset: u64) {
        let mut heads = self.0.borrow_mut();
        if heads
            .get(key)
            .is_some_and(|offsets| offsets.back().is_none_or(|newest| offset <= *newest))
        {
            heads.remove(key);
        }
    }

    /// `key`'s journal changed otherwise (rows forgotten, deleted): read again.
    pub fn forget(&self, key: &str) {
        self.0.borrow_mut().remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nth_oldest_is_kept_until_pruned() {
        let heads = JournalHeads::default();
        assert_eq!(heads.nth("k", 1), None);
        heads.read("k", [3, 5, 9]);
        assert_eq!(heads.nth("k", 0), None);
        assert_eq!(heads.nth("k", 1), Some(3));
        assert_eq!(heads.nth("k", 3), Some(9));
        assert_eq!(heads.nth("k", 4), None);
        heads.pruned("k", 2);
        assert_eq!(heads.kept("k"), Some(vec![9]));
        heads.pruned("k", 5);
        assert_eq!(heads.kept("k"), None, "run out: read again");
    }

    #[test]
    fn journaling_at_or_below_the_newest_kept_offset_drops_them() {
        let heads = JournalHeads::default();
        heads.read("k", [3, 5, 9]);
        heads.read("other", [1]);
        heads.journaled("k", 10);
        assert_eq!(
            heads.kept("k"),
            Some(vec![3, 5, 9]),
            "a newer offset is not among the oldest"
        );
        heads.journaled("k", 9);
        assert_eq!(heads.kept("k"), None);
        assert_eq!(heads.kept("other"), Some(vec![1]), "another key's stay");
        heads.forget("other");
        assert_eq!(heads.kept("other"), None);
    }

    #[test]
    fn at_most_the_head_rows_are_kept() {
        let heads = JournalHeads::default();
        heads.read("k", 0..JOURNAL_HEAD_ROWS * 2);
        assert_eq!(heads.kept("k").map(|kept| kept.len() as u64), Some(JOURNAL_HEAD_ROWS));
    }
}
