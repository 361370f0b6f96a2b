//! The ancestor search as a value (docs/design.md §15 "Reorg → invalidation"):
//! galloping down from the lowest block known dead, then bisecting between
//! the highest common and the lowest dead, over the window by number. Pure:
//! `ancestor.rs` reads the headers it asks for and feeds them back.

/// An ancestor search over the window (by number; the window is contiguous
/// from the floor up).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// The lowest block known dead (its stored hash is not canonical).
    pub lowest_dead: u64,
    /// The highest block known common, if any yet.
    pub highest_common: Option<u64>,
    /// The next gallop step below `lowest_dead`.
    pub gap: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum SearchEnd {
    Ancestor(u64),
    Deep,
}

/// The next block to probe, or how the search ends; advances the gallop.
/// `floor` is the finalized block, `anchored` whether its hash is known.
pub(super) fn next_probe_of(search: &mut Search, floor: Option<u64>, anchored: bool) -> Result<u64, SearchEnd> {
    let lowest = floor.map_or(0, |floor| floor + 1);
    match search.highest_common {
        Some(common) if search.lowest_dead <= common + 1 => Err(SearchEnd::Ancestor(common)),
        Some(common) => Ok(common + (search.lowest_dead - common) / 2),
        None if search.lowest_dead <= lowest => match (floor, anchored) {
            (Some(floor), true) => Ok(floor),
            _ => Err(SearchEnd::Deep),
        },
        None => {
            let probe = search.lowest_dead.saturating_sub(search.gap).max(lowest);
            search.gap = search.gap.saturating_mul(2);
            Ok(probe)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(lowest_dead: u64, highest_common: Option<u64>, gap: u64) -> Search {
        Search {
            lowest_dead,
            highest_common,
            gap,
        }
    }

    #[test]
    fn section_15_search_gallops_down_then_bisects() {
        let mut gallop = search(100, None, 1);
        assert_eq!(next_probe_of(&mut gallop, Some(50), true), Ok(99));
        assert_eq!(gallop.gap, 2);
        let mut bisect = search(100, Some(90), 8);
        assert_eq!(next_probe_of(&mut bisect, Some(50), true), Ok(95));
        let mut done = search(91, Some(90), 8);
        assert_eq!(next_probe_of(&mut done, Some(50), true), Err(SearchEnd::Ancestor(90)));
    }

    #[test]
    fn section_15_search_below_the_window_probes_the_anchor_or_is_deep() {
        let mut at_floor = search(51, None, 4);
        assert_eq!(next_probe_of(&mut at_floor, Some(50), true), Ok(50));
        let mut unanchored = search(51, None, 4);
        assert_eq!(next_probe_of(&mut unanchored, Some(50), false), Err(SearchEnd::Deep));
        let mut no_floor = search(0, None, 1);
        assert_eq!(next_probe_of(&mut no_floor, None, true), Err(SearchEnd::Deep));
    }
}
