//! What a source reads next, and the logs it read (docs/design.md §15 "Checkpoint
//! and window"). Finalized blocks below an empty window are read by range
//! (`eth_getLogs` over `from..=to`, the range halving when refused and
//! growing back while answers stay small), anchored by the range's last
//! header; blocks above finality one at a time, header by number, then logs
//! by the header's hash. Caught up, the window's top is re-read so a reorg at
//! the same height is seen.

use super::abi::{self, Log};
use super::answers;
use super::effect::{Effect, Finish};
use super::machine::{Awaiting, Source};
use super::payload;
use super::rpc::{self, Header, LogScope};
use super::store::{self, Transition};
use crate::limits::{MAX_SOURCE_LOGS_PER_CALL, MAX_SOURCE_LOG_RANGE_BLOCKS};
use crate::storage::{Storage, StorageError};
use serde_json::{json, Value};

/// The range a successful `eth_getLogs` over `from..=to` leaves for the
/// next: doubled (up to the most) when the answer was small and the whole
/// current range was asked for.
fn grown_range(range_blocks: u64, from: u64, to: u64, logs: usize) -> u64 {
    let grow = logs < MAX_SOURCE_LOGS_PER_CALL / 4;
    let span = to - from + 1;
    if grow && span >= range_blocks && range_blocks < MAX_SOURCE_LOG_RANGE_BLOCKS {
        (range_blocks * 2).min(MAX_SOURCE_LOG_RANGE_BLOCKS)
    } else {
        range_blocks
    }
}

impl<S: Storage> Source<S> {
    /// With the tip known: the next read, or the end of the run.
    pub(super) fn decide(&mut self, tip: u64) -> Result<Effect, StorageError> {
        let (Some(row), Some(run)) = (self.row.as_mut(), self.run.as_ref()) else {
            return Ok(Effect::Abandoned);
        };
        let confirmations = row.config.confirmations;
        let finality_depth = row.config.finality_depth;
        let range = row.range_blocks.clamp(1, MAX_SOURCE_LOG_RANGE_BLOCKS);
        let logs_left = run.kind.logs_left;
        let next = match row.next_block {
            Some(next) => next,
            None => {
                // No startBlock: begin after the current confirmed head.
                let next = tip.saturating_sub(confirmations) + 1;
                row.next_block = Some(next);
                row.finalized_block = Some(next - 1);
                store::save_state(&self.storage, row)?;
                next
            }
        };
        let Some(target) = tip.checked_sub(confirmations) else {
            return self.finish(Finish::CaughtUp);
        };
        if next > target {
            return self.check_top(next, target);
        }
        if logs_left == 0 {
            return self.finish(Finish::Budget);
        }
        match tip.checked_sub(finality_depth) {
            Some(final_tip) if next <= final_tip && store::window_len(&self.storage)? == 0 => {
                let to = final_tip.min(target).min(next.saturating_add(range - 1));
                let params = self.logs_params(LogScope::Range { from: next, to });
                self.call(Awaiting::RangeLogs { from: next, to }, "eth_getLogs", params)
            }
            _ => self.call(
                Awaiting::Header { number: next },
                "eth_getBlockByNumber",
                json!([rpc::quantity(next), false]),
            ),
        }
    }

    /// Caught up: re-read the window's top (or, when the node's head is
    /// below it, the window block at the head), so a reorg at the same
    /// height, or to a shorter chain, is seen before the next block.
    fn check_top(&mut self, next: u64, target: u64) -> Result<Effect, StorageError> {
        let top = match next.checked_sub(1) {
            Some(top) => store::window_block_at(&self.storage, top.min(target))?.map(|block| block.number),
            None => None,
        };
        match top {
            Some(top) => self.call(
                Awaiting::TopCheck { number: top },
                "eth_getBlockByNumber",
                json!([rpc::quantity(top), false]),
            ),
            None => self.finish(Finish::CaughtUp),
        }
    }

    pub(super) fn logs_params(&self, scope: LogScope) -> Value {
        let filter = abi::request_filter(self.filters.as_deref().unwrap_or_default());
        rpc::logs_params(&filter, scope)
    }

    /// A block's logs, read by its hash: staged with the block (written
    /// ahead: it may still reorg away).
    pub(super) fn on_block_logs(&mut self, header: &Header, logs: Vec<Log>) -> Result<Effect, StorageError> {
        if let Err(failure) = answers::check_block_logs(header, &logs) {
            return self.failed(failure);
        }
        let Some(row) = &self.row else {
            return Ok(Effect::Abandoned);
        };
        let final_tip = self
            .run
            .as_ref()
            .and_then(|run| run.kind.tip)
            .and_then(|tip| tip.checked_sub(row.config.finality_depth));
        let transition = Transition::Block {
            generation: row.generation,
            number: header.number,
            hash: abi::word_hex(&header.hash),
            parent_hash: abi::word_hex(&header.parent_hash),
            final_tip,
        };
        let events = self.log_events(&logs);
        self.stage(transition, events, true)?;
        self.advance()
    }

    /// A finalized range's logs: checked, then the range's last header is
    /// read to anchor it.
    pub(super) fn on_range_logs(&mut self, from: u64, to: u64, logs: Vec<Log>) -> Result<Effect, StorageError> {
        if let Err(failure) = answers::check_range_logs(from, to, &logs) {
            return self.failed(failure);
        }
        if let Some(row) = self.row.as_mut() {
            row.range_blocks = grown_range(row.range_blocks, from, to, logs.len());
        }
        self.call(
            Awaiting::RangeAnchor { to, logs },
            "eth_getBlockByNumber",
            json!([rpc::quantity(to), false]),
        )
    }

    /// The range's anchor header: the range's events are staged (not
    /// written ahead: final blocks read the same after a crash).
    pub(super) fn on_range_anchor(
        &mut self,
        to: u64,
        header: Option<Header>,
        logs: Vec<Log>,
    ) -> Result<Effect, StorageError> {
        let header = match answers::check_range_anchor(to, header, &logs) {
            Ok(header) => header,
            Err(failure) => return self.failed(failure),
        };
        let Some(row) = &self.row else {
            return Ok(Effect::Abandoned);
        };
        let from = row.next_block.unwrap_or(to);
        let transition = Transition::Range {
            generation: row.generation,
            from,
            to,
            to_hash: abi::word_hex(&header.hash),
        };
        let events = self.log_events(&logs);
        self.stage(transition, events, false)?;
        self.advance()
    }

    /// The `evm.log` events of the logs that match a filter, with their keys.
    fn log_events(&self, logs: &[Log]) -> Vec<(String, String)> {
        let (Some(row), Some(filters)) = (&self.row, &self.filters) else {
            return Vec::new();
        };
        let origin = payload::Origin {
            name: &row.name,
            chain_id: row.config.chain_id,
        };
        let deaths = self.run.as_ref().map(|run| &run.kind.deaths);
        payload::log_events(origin, filters, deaths, logs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_15_range_grows_only_after_a_small_full_range() {
        assert_eq!(grown_range(500, 0, 499, 0), 1000);
        assert_eq!(grown_range(500, 0, 99, 0), 500, "a short range says nothing");
        assert_eq!(grown_range(500, 0, 499, MAX_SOURCE_LOGS_PER_CALL / 4), 500);
        assert_eq!(grown_range(1500, 0, 1499, 0), MAX_SOURCE_LOG_RANGE_BLOCKS);
    }
}
