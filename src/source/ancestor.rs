//! Seeing a reorganisation and finding the common ancestor (docs/design.md §15
//! "Reorg → invalidation"). A block above finality whose parentHash is not
//! the stored hash below it, or a window top that changed hash at the same
//! height, starts a search: galloping down from the lowest block known dead,
//! then bisecting between the highest common and the lowest dead, over the
//! window by number (contiguous from the floor up). It ends at an ancestor,
//! or, when even the floor (the finalized anchor) is not canonical, as a deep
//! reorg that invalidates the whole window. Either way the dead fork's
//! offsets are staged for invalidation (written ahead) and the source rewinds
//! to just above the ancestor.

use super::abi;
use super::answers;
use super::effect::{Effect, Finish};
use super::machine::{Awaiting, Source};
use super::payload::{self, Reorg};
use super::rpc::{self, Header, LogScope};
use super::search::{next_probe_of, Search, SearchEnd};
use super::store::{self, Transition, WindowBlock};
use crate::limits::SOURCE_SEARCH_CALLS;
use crate::storage::{Storage, StorageError};
use serde_json::json;

impl<S: Storage> Source<S> {
    /// The hash block `number`'s parent must have, and whether it is a
    /// window block (else the floor's anchor, or nothing known).
    fn expected_parent(&self, number: u64) -> Result<(Option<String>, bool), StorageError> {
        let Some(below) = number.checked_sub(1) else {
            return Ok((None, false));
        };
        if let Some(block) = store::window_block_at(&self.storage, below)? {
            return Ok((Some(block.hash), true));
        }
        let row = self.row.as_ref();
        if row.and_then(|row| row.finalized_block) == Some(below) {
            return Ok((row.and_then(|row| row.anchor_hash.clone()), false));
        }
        Ok((None, false))
    }

    /// The next block's header: on the stored chain, read its logs by
    /// hash; off it, search for the ancestor.
    pub(super) fn on_header(&mut self, number: u64, header: Option<Header>) -> Result<Effect, StorageError> {
        let Some(header) = header else {
            // The node does not have it yet (a lagging node behind a balancer).
            return self.finish(Finish::CaughtUp);
        };
        if let Err(failure) = answers::check_header_number(number, &header) {
            return self.failed(failure);
        }
        let (expected, in_window) = self.expected_parent(number)?;
        match expected {
            Some(expected) if expected != abi::word_hex(&header.parent_hash) => {
                if in_window {
                    let lowest_dead = number - 1;
                    self.start_search(lowest_dead)
                } else {
                    // The floor itself was reorganised: a fork deeper than
                    // the (empty) window. Nothing to invalidate; counted.
                    self.conclude(SearchEnd::Deep)
                }
            }
            _ => {
                let params = self.logs_params(LogScope::Block(header.hash));
                self.call(Awaiting::BlockLogs { header }, "eth_getLogs", params)
            }
        }
    }

    /// The window's top re-read when caught up: a new hash at the same
    /// height is a reorg.
    pub(super) fn on_top_check(&mut self, number: u64, header: Option<Header>) -> Result<Effect, StorageError> {
        let stored = store::window_block_at(&self.storage, number)?;
        match (header, stored) {
            (Some(header), Some(stored)) if header.number == number && abi::word_hex(&header.hash) != stored.hash => {
                self.start_search(number)
            }
            _ => self.finish(Finish::CaughtUp),
        }
    }

    /// Starts a search only with [`SOURCE_SEARCH_CALLS`] calls left, so it
    /// never stops half-way; else the run re-arms and searches next run.
    fn start_search(&mut self, lowest_dead: u64) -> Result<Effect, StorageError> {
        if self
            .run
            .as_ref()
            .is_some_and(|run| run.calls_left < SOURCE_SEARCH_CALLS)
        {
            return self.finish(Finish::Budget);
        }
        self.next_probe(Search {
            lowest_dead,
            highest_common: None,
            gap: 1,
        })
    }

    fn next_probe(&mut self, mut search: Search) -> Result<Effect, StorageError> {
        let (floor, anchored) = match &self.row {
            Some(row) => (row.finalized_block, row.anchor_hash.is_some()),
            None => return Ok(Effect::Abandoned),
        };
        match next_probe_of(&mut search, floor, anchored) {
            Ok(probe) => self.call(
                Awaiting::Probe { number: probe, search },
                "eth_getBlockByNumber",
                json!([rpc::quantity(probe), false]),
            ),
            Err(end) => self.conclude(end),
        }
    }

    pub(super) fn on_probe(
        &mut self,
        number: u64,
        header: Option<Header>,
        mut search: Search,
    ) -> Result<Effect, StorageError> {
        if let Some(header) = &header {
            if let Err(failure) = answers::check_header_number(number, header) {
                return self.failed(failure);
            }
        }
        let canonical = header.map(|header| abi::word_hex(&header.hash));
        let (floor, anchor) = match &self.row {
            Some(row) => (row.finalized_block, row.anchor_hash.clone()),
            None => return Ok(Effect::Abandoned),
        };
        if floor == Some(number) {
            return if canonical.is_some() && canonical == anchor {
                self.conclude(SearchEnd::Ancestor(number))
            } else {
                self.conclude(SearchEnd::Deep)
            };
        }
        let stored = store::window_block_at(&self.storage, number)?.map(|block| block.hash);
        if canonical.is_some() && canonical == stored {
            search.highest_common = Some(number);
        } else {
            search.lowest_dead = number;
        }
        self.next_probe(search)
    }

    /// What died above the search's end, read from the window.
    fn reorg(&self, end: SearchEnd) -> Result<Option<Reorg>, StorageError> {
        let Some(row) = &self.row else {
            return Ok(None);
        };
        let (ancestor, deep) = match end {
            SearchEnd::Ancestor(number) => (Some(number), false),
            SearchEnd::Deep => (row.finalized_block, true),
        };
        let dead_blocks = store::window_above(&self.storage, ancestor)?;
        let mut offsets: Vec<u64> = dead_blocks
            .iter()
            .flat_map(|block| block.offsets.iter().copied())
            .collect();
        offsets.sort_unstable();
        offsets.dedup();
        let ancestor_hash = match ancestor {
            Some(number) if row.finalized_block == Some(number) => row.anchor_hash.clone(),
            Some(number) => store::window_block_at(&self.storage, number)?.map(|block| block.hash),
            None => None,
        };
        let deaths = match (dead_blocks.last(), &self.run) {
            (Some(tip), Some(run)) => run.kind.deaths.get(&tip.hash).copied().unwrap_or(0),
            _ => 0,
        };
        Ok(Some(Reorg {
            ancestor,
            ancestor_hash,
            deep,
            dead_blocks,
            offsets,
            deaths,
        }))
    }

    /// The search ended: invalidate what died, then read on from the ancestor.
    fn conclude(&mut self, end: SearchEnd) -> Result<Effect, StorageError> {
        let (Some(reorg), Some(row)) = (self.reorg(end)?, self.row.as_ref()) else {
            return Ok(Effect::Abandoned);
        };
        let origin = payload::Origin {
            name: &row.name,
            chain_id: row.config.chain_id,
        };
        let events = payload::invalidation_events(origin, &reorg);
        self.logs.push(payload::reorg_log(origin, &reorg));
        let transition = Transition::Invalidate {
            generation: row.generation,
            ancestor: reorg.ancestor,
            deep: reorg.deep,
            dead: reorg
                .dead_blocks
                .iter()
                .map(|block: &WindowBlock| (block.number, block.hash.clone()))
                .collect(),
            events: u64::try_from(events.len()).unwrap_or(u64::MAX),
        };
        self.stage(transition, events, true)?;
        self.advance()
    }
}
