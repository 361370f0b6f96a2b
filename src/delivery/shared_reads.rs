//! One planning pass reads each window of the log once (docs/design.md §12):
//! subscriptions whose scans stand at the same cursor and want the same
//! pages (ten webhooks, a fan-out of copies) share what the first of them
//! read, instead of each asking SQLite for the same rows.
//!
//! Held only while [`Turn::plan_due`](super::Turn::plan_due) plans, and at
//! most [`SHARED_READ_BYTES`] of rows in [`SHARED_READ_PAGES`] pages (the
//! oldest page kept goes first).
//! Within that call no durable event row in a window changes: trimming runs
//! before it, and what it appends (engine facts) lands past the head every
//! window was cut at, so a window read again would answer the same page.

use crate::event::StoredEvent;
use crate::limits::{SHARED_READ_BYTES, SHARED_READ_PAGES};
use crate::storage::{Storage, StorageError};
use crate::stream::rows::{read_window, Page, Window};
use crate::stream::Stream;
use std::collections::VecDeque;
use std::rc::Rc;

/// The pages a planning pass read, by the window each answers.
#[derive(Debug, Default)]
pub(crate) struct SharedReads {
    pages: VecDeque<(Window, Rc<Page>, usize)>,
    bytes: usize,
}

impl SharedReads {
    fn find(&self, window: &Window) -> Option<Rc<Page>> {
        self.pages
            .iter()
            .find(|(read, _, _)| read == window)
            .map(|(_, page, _)| Rc::clone(page))
    }

    /// Keeps `page` within the byte budget; a page larger than all of it is
    /// not kept.
    fn keep(&mut self, window: Window, page: &Rc<Page>) {
        let size: usize = page.events.iter().map(row_bytes).sum();
        if size > SHARED_READ_BYTES {
            return;
        }
        while self.bytes + size > SHARED_READ_BYTES || self.pages.len() >= SHARED_READ_PAGES {
            let Some((_, _, dropped)) = self.pages.pop_front() else {
                break;
            };
            self.bytes -= dropped;
        }
        self.bytes += size;
        self.pages.push_back((window, Rc::clone(page), size));
    }
}

/// What one read row holds in memory, near enough.
pub(super) fn row_bytes(event: &StoredEvent) -> usize {
    event.event_type.len()
        + event.payload.get().len()
        + event.metadata.get().len()
        + event.idempotency_key.as_ref().map_or(0, String::len)
        + event.source.as_ref().map_or(0, |source| source.get().len())
        + std::mem::size_of::<StoredEvent>()
}

impl<S: Storage> Stream<S> {
    /// Runs `plan` with the pass's reads shared, then forgets them and lets
    /// the read-ahead go of what every cursor passed.
    pub(crate) fn sharing_reads<T>(&mut self, plan: impl FnOnce(&mut Self) -> T) -> T {
        self.memory.shared_reads = Some(SharedReads::default());
        let planned = plan(self);
        self.memory.shared_reads = None;
        self.release_read_ahead();
        planned
    }

    /// The page of `window` for a delivery scan: from the read-ahead, else
    /// one this pass already read, else read (and kept, inside a pass).
    pub(crate) fn scan_window(&mut self, window: Window) -> Result<Rc<Page>, StorageError> {
        if let Some(page) = self.read_ahead(window)? {
            return Ok(Rc::new(page));
        }
        if let Some(page) = self
            .memory
            .shared_reads
            .as_ref()
            .and_then(|shared| shared.find(&window))
        {
            return Ok(page);
        }
        let page = Rc::new(read_window(&self.storage, window)?);
        if let Some(shared) = self.memory.shared_reads.as_mut() {
            shared.keep(window, &page);
        }
        Ok(page)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn page(payload_bytes: usize) -> Rc<Page> {
        Rc::new(Page {
            events: vec![StoredEvent::sample(1, payload_bytes)],
            exhausted: false,
        })
    }

    fn window(after: u64) -> Window {
        Window {
            after,
            through: after + 10,
            ephemeral_after: 0,
            max_rows: 10,
            max_bytes: 1 << 20,
        }
    }

    #[test]
    fn s12_shared_pages_stay_within_their_bytes_and_count_oldest_first() {
        let mut shared = SharedReads::default();
        let quarter = SHARED_READ_BYTES / 4;
        for after in 0..4 {
            shared.keep(window(after), &page(quarter - 1024));
        }
        assert!(shared.find(&window(0)).is_some(), "four quarters fit");
        shared.keep(window(4), &page(quarter - 1024));
        assert!(shared.find(&window(0)).is_none(), "the oldest went first");
        assert!(shared.find(&window(4)).is_some());
        assert!(shared.bytes <= SHARED_READ_BYTES);

        shared.keep(window(9), &page(SHARED_READ_BYTES));
        assert!(
            shared.find(&window(9)).is_none(),
            "a page larger than the budget is not kept"
        );

        let mut many = SharedReads::default();
        for after in 0..(SHARED_READ_PAGES as u64 + 5) {
            many.keep(window(after), &page(1));
        }
        assert_eq!(many.pages.len(), SHARED_READ_PAGES);
        assert!(many.find(&window(4)).is_none() && many.find(&window(5)).is_some());
    }
}
