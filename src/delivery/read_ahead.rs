//! The log read ahead of the delivery scans (docs/design.md §12). A webhook's
//! scan reads one event per delivery; alone, each such read is a statement of
//! its own, and ten subscriptions read the same row ten times. The read-ahead
//! holds one stretch of the log's durable rows, read [`READ_AHEAD_ROWS`] at a
//! time past its end, and answers the small windows (those that
//! [`Window::fits_any_rows`], durable rows only) that fall inside it.
//!
//! What it holds stays true while the stream lives:
//! - a durable event row never changes once written, and rows are appended
//!   past the head, so a stretch read whole stays whole;
//! - only a trim deletes durable rows, and every trim or expiry forgets the
//!   read-ahead ([`Stream::forget_rows`](crate::stream::Stream));
//! - it is filled by delivery planning, which never runs inside a
//!   transaction, so it never holds a row a rollback takes back;
//! - destroying the stream resets the stream's memory.
//!
//! Natively every answer is checked against storage (`Storage::check_read`).
//! At most [`READ_AHEAD_BYTES`] of rows are held (or one row, when a row
//! is larger); the oldest go first, and after each planning pass and each
//! completion every row all subscriptions have passed goes, so a stream
//! whose subscriptions have caught up holds none.

use crate::event::StoredEvent;
use crate::limits::{READ_AHEAD_BYTES, READ_AHEAD_ROWS};
use crate::storage::{Storage, StorageError};
use crate::stream::rows::{check_window, read_window, Page, Window, NO_EPHEMERAL};
use crate::stream::Stream;
use std::collections::VecDeque;

use super::shared_reads::row_bytes;

/// Every durable row `after < offset ≤ through`, in offset order, with its size.
#[derive(Debug, Default)]
pub(crate) struct ReadAhead {
    after: u64,
    through: u64,
    rows: VecDeque<(StoredEvent, usize)>,
    bytes: usize,
}

impl ReadAhead {
    /// Whether the read-ahead may answer `window`: durable rows only, and
    /// so few that no byte budget binds (the answer is then exactly the
    /// window's first rows).
    fn serves(window: &Window) -> bool {
        window.ephemeral_after == NO_EPHEMERAL && window.fits_any_rows()
    }

    /// The page `read_window` would answer for `window`, when the rows held
    /// decide it.
    fn answer(&self, window: &Window) -> Option<Page> {
        if window.after < self.after || window.after > self.through {
            return None;
        }
        let wanted = usize::try_from(window.max_rows).unwrap_or(usize::MAX);
        let events: Vec<StoredEvent> = self
            .rows
            .iter()
            .map(|(event, _)| event)
            .skip_while(|event| event.offset <= window.after)
            .take_while(|event| event.offset <= window.through)
            .take(wanted)
            .cloned()
            .collect();
        if events.len() == wanted {
            return Some(Page {
                events,
                exhausted: false,
            });
        }
        (window.through <= self.through).then_some(Page {
            events,
            exhausted: true,
        })
    }

    /// Where the next read starts for `window`: past the end when the
    /// window starts inside the stretch, at the window when it starts past
    /// it (the stretch begins again there); `None` for a window behind the
    /// stretch (a subscription far behind the others reads on its own).
    fn next_read_after(&self, window: &Window) -> Option<u64> {
        if self.rows.is_empty() && self.after == self.through {
            return Some(window.after);
        }
        if window.after < self.after {
            return None;
        }
        Some(if window.after <= self.through {
            self.through
        } else {
            window.after
        })
    }

    /// Adds `page`, read from `after` up to `through`, then lets the oldest
    /// rows go until the budget holds, or only the newest row is left (a
    /// read returns at least one row, so one row larger than the budget is
    /// held until the next read: at most one event row's bytes over).
    fn extend(&mut self, after: u64, through: u64, page: Page) {
        if after != self.through {
            *self = ReadAhead {
                after,
                through: after,
                ..ReadAhead::default()
            };
        }
        let last = page.events.last().map(|event| event.offset);
        for event in page.events {
            let size = row_bytes(&event);
            self.bytes = self.bytes.saturating_add(size);
            self.rows.push_back((event, size));
        }
        self.through = if page.exhausted {
            through
        } else {
            last.unwrap_or(self.through)
        };
        // Each step lets one held row go, and the newest stays: at most
        // one step fewer than the rows held.
        for _ in 1..self.rows.len() {
            if self.bytes <= READ_AHEAD_BYTES {
                break;
            }
            let Some((dropped, size)) = self.rows.pop_front() else {
                break;
            };
            self.bytes = self.bytes.saturating_sub(size);
            self.after = dropped.offset;
        }
    }
}

impl ReadAhead {
    /// Lets go of the rows at or below `offset` (every subscription's
    /// cursor has passed them); a stretch left empty frees its buffer.
    fn release_through(&mut self, offset: u64) {
        // Each step lets one held row go: at most as many steps as rows held.
        for _ in 0..self.rows.len() {
            let Some((event, size)) = self.rows.front() else {
                break;
            };
            if event.offset > offset {
                return;
            }
            self.bytes = self.bytes.saturating_sub(*size);
            self.after = event.offset;
            self.rows.pop_front();
        }
        self.rows = VecDeque::new();
        self.bytes = 0;
    }
}

impl<S: Storage> Stream<S> {
    /// `window`'s page from the read-ahead, reading ahead when it ends
    /// short; `None` for a window it does not serve (read it directly).
    pub(crate) fn read_ahead(&mut self, window: Window) -> Result<Option<Page>, StorageError> {
        if !ReadAhead::serves(&window) {
            return Ok(None);
        }
        let held = &mut self.memory.read_ahead;
        let page = match held.answer(&window) {
            Some(page) => page,
            None => {
                let Some(after) = held.next_read_after(&window) else {
                    return Ok(None);
                };
                let ahead = read_window(
                    &self.storage,
                    Window {
                        after,
                        through: window.through,
                        ephemeral_after: NO_EPHEMERAL,
                        max_rows: READ_AHEAD_ROWS,
                        max_bytes: READ_AHEAD_BYTES,
                    },
                )?;
                held.extend(after, window.through, ahead);
                let Some(page) = held.answer(&window) else {
                    return Ok(None);
                };
                page
            }
        };
        if let Some(stored) = check_window(&self.storage, window) {
            let stored = stored?;
            if format!("{stored:?}") != format!("{:?}", page.events) {
                return Err(StorageError::Sql(format!(
                    "the read-ahead answered {window:?} with {:?}, storage holds {stored:?}",
                    page.events
                )));
            }
        }
        Ok(Some(page))
    }

    /// After a planning pass or a completion: lets go of the rows every subscription's
    /// cursor has passed, read from the runtime rows kept in memory (when
    /// they are not current, the budget alone bounds the stretch until the
    /// next pass).
    pub(crate) fn release_read_ahead(&mut self) {
        let lowest = match &*self.memory.runtime_rows.borrow() {
            Some((read_at, rows)) if *read_at == self.storage.generation() => {
                rows.values().map(|row| row.acknowledged_offset).min()
            }
            _ => return,
        };
        self.memory.read_ahead.release_through(lowest.unwrap_or(u64::MAX));
    }

    /// Bytes of rows held read ahead (for the tests: an idle stream holds none).
    pub fn read_ahead_bytes(&self) -> usize {
        self.memory.read_ahead.bytes
    }

    /// Forgets the rows read ahead (rows were deleted).
    pub(crate) fn forget_read_ahead(&mut self) {
        self.memory.read_ahead = ReadAhead::default();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn event(offset: u64, payload_bytes: usize) -> StoredEvent {
        StoredEvent::sample(offset, payload_bytes)
    }

    fn window(after: u64, through: u64, max_rows: u64) -> Window {
        Window {
            after,
            through,
            ephemeral_after: NO_EPHEMERAL,
            max_rows,
            max_bytes: crate::limits::MAX_READ_BYTES,
        }
    }

    fn offsets(page: &Page) -> Vec<u64> {
        page.events.iter().map(|event| event.offset).collect()
    }

    #[test]
    fn s12_a_stretch_answers_only_what_it_decides() {
        let mut held = ReadAhead::default();
        // Rows 11..=14 of (10, 20], the read cut short after 14 (not exhausted).
        held.extend(
            10,
            20,
            Page {
                events: (11..=14).map(|offset| event(offset, 10)).collect(),
                exhausted: false,
            },
        );
        assert_eq!((held.after, held.through), (10, 14));
        let page = held.answer(&window(11, 20, 2)).unwrap();
        assert_eq!((offsets(&page), page.exhausted), (vec![12, 13], false));
        assert!(
            held.answer(&window(13, 20, 2)).is_none(),
            "row 15 may exist: not decided"
        );
        let page = held.answer(&window(13, 14, 2)).unwrap();
        assert_eq!((offsets(&page), page.exhausted), (vec![14], true));
        assert!(held.answer(&window(9, 20, 1)).is_none(), "behind the stretch");
        assert_eq!(held.next_read_after(&window(12, 20, 1)), Some(14));
        assert_eq!(held.next_read_after(&window(30, 40, 1)), Some(30));
        assert_eq!(held.next_read_after(&window(9, 20, 1)), None);

        // Read on from 14: the rest of the window, exhausted.
        held.extend(
            14,
            20,
            Page {
                events: vec![event(16, 10)],
                exhausted: true,
            },
        );
        assert_eq!((held.after, held.through), (10, 20));
        let page = held.answer(&window(14, 20, 5)).unwrap();
        assert_eq!((offsets(&page), page.exhausted), (vec![16], true));
        let page = held.answer(&window(16, 20, 1)).unwrap();
        assert_eq!((offsets(&page), page.exhausted), (Vec::<u64>::new(), true));

        // A read elsewhere starts the stretch again.
        held.extend(
            40,
            50,
            Page {
                events: vec![event(41, 10)],
                exhausted: false,
            },
        );
        assert_eq!((held.after, held.through, held.rows.len()), (40, 41, 1));
    }

    #[test]
    fn s12_the_stretch_stays_within_its_bytes_oldest_first() {
        let mut held = ReadAhead::default();
        let quarter = READ_AHEAD_BYTES / 4;
        held.extend(
            0,
            100,
            Page {
                events: (1..=5).map(|offset| event(offset, quarter)).collect(),
                exhausted: false,
            },
        );
        assert!(held.bytes <= READ_AHEAD_BYTES);
        assert_eq!(held.rows.front().map(|(event, _)| event.offset), Some(3));
        assert_eq!((held.after, held.through), (2, 5));
        assert!(held.answer(&window(1, 100, 1)).is_none(), "row 2 went");
        assert_eq!(offsets(&held.answer(&window(2, 100, 1)).unwrap()), vec![3]);

        // A row larger than the whole budget is held alone, until the next
        // read lets it go.
        held.extend(
            5,
            100,
            Page {
                events: vec![event(6, READ_AHEAD_BYTES)],
                exhausted: false,
            },
        );
        assert_eq!(held.rows.len(), 1);
        assert_eq!((held.after, held.through), (5, 6));
        assert_eq!(offsets(&held.answer(&window(5, 100, 1)).unwrap()), vec![6]);
        assert_eq!(held.next_read_after(&window(6, 100, 1)), Some(6));
        held.extend(
            6,
            100,
            Page {
                events: vec![event(7, 10)],
                exhausted: true,
            },
        );
        assert_eq!((held.after, held.through, held.rows.len()), (6, 100, 1));
        assert!(held.bytes <= READ_AHEAD_BYTES);
    }

    #[test]
    fn s12_rows_every_cursor_passed_go() {
        let mut held = ReadAhead::default();
        held.extend(
            0,
            10,
            Page {
                events: (1..=10).map(|offset| event(offset, 10)).collect(),
                exhausted: true,
            },
        );
        held.release_through(4);
        assert_eq!((held.after, held.through, held.rows.len()), (4, 10, 6));
        assert_eq!(offsets(&held.answer(&window(4, 10, 1)).unwrap()), vec![5]);
        held.release_through(10);
        assert_eq!((held.rows.len(), held.bytes, held.rows.capacity()), (0, 0, 0));
        assert_eq!((held.after, held.through), (10, 10));
        let page = held.answer(&window(10, 10, 1)).unwrap();
        assert!(page.events.is_empty() && page.exhausted);
    }

    #[test]
    fn s12_only_small_durable_windows_are_served() {
        assert!(ReadAhead::serves(&window(0, 10, 1)));
        let ephemeral = Window {
            ephemeral_after: 0,
            ..window(0, 10, 1)
        };
        assert!(!ReadAhead::serves(&ephemeral));
        assert!(!ReadAhead::serves(&window(0, 10, 200)), "a byte budget could bind");
    }
}
